/* Closed-form cost of psrs.c.
 * psrs (3 supersteps from the root, flattened as algorithms/psrs.c; each
 * lower master forwards with one superstep of its own):
 *   S1: worker sorts m*c(sort) (a linear radix sort: c(sort) is per
 *       element, all its passes and the key mapping included), hands up
 *       its size and P samples
 *       (key, index): (2P+1)*eb; masters concatenate; root sorts the P^2
 *       samples by a P-way merge: P^2*log2(P)*c(merge)
 *   S2: pivots and block offsets down, (P-1 + workers below)*eb per child;
 *       worker splits its block at the pivots P*log2(m)*c(merge), copies
 *       it into its hand-up m*c(copy) and hands up bucket sizes and block:
 *       (m+P)*eb; a lower master concatenates them: n_sub*c(copy)
 *   S3: the root reorders the buckets, a lower master splits its runs, into
 *       the children's buffers: n_sub*c(copy); buckets down, (m+P)*eb per
 *       worker; worker P-way merges its bucket runs m*log2(P)*c(merge),
 *       hands up its new size: eb
 *   Over an MPI link the blocks of the children other than child 0 (the
 *   master's own process) land in buffers allocated for them: the master
 *   pays c(copy) for the remote hand-ups in S2, a remote child for its
 *   runs in S3 (page faults and cache misses that the probe's g, measured
 *   on reused buffers, does not see).
 *   c(copy) (a fresh buffer written and freed, per element) is optional:
 *   a machine without a "copy" kernel gets no copy terms, as in the SGL
 *   paper's formula.
 *   Buckets are taken as n/P each (regular sampling bounds them by 2n/P).
 * One worker alone: n*c(sort). */
#include "cost.h"

static unsigned nsteps(void *user, const sgl_node_t *master, const void *t)
{
    const struct cost_task *task = t;
    (void)user, (void)master;
    return task->phase == COST_ROOT ? 3 : 1;
}

static int step(void *user, const sgl_node_t *master, const void *t,
                unsigned s, sgl_pstep_t *st)
{
    const struct cost_algo *a = user;
    const struct cost_task *task = t, *child = st->child_task;
    double eb = a->o.elem_bytes, p = st->arity, P = a->P;
    int root = task->phase == COST_ROOT;
    enum cost_phase ph = root ? (enum cost_phase)(COST_S1 + s) : task->phase;
    double remote = cost_children(master, task, st, ph, ph == COST_S3);
    for (unsigned i = 0; i < st->arity; i++) {
        double wc = (double)sgl_node_workers(sgl_node_child(master, i));
        double ni = child[i].n;
        switch (ph) {
        case COST_S1:
            st->down[i] = 0;
            st->up[i] = wc * (2 * P + 1) * eb;
            break;
        case COST_S2:
            st->down[i] = (P - 1 + wc) * eb;
            st->up[i] = (ni + wc * P) * eb;
            break;
        default: /* S3 */
            st->down[i] = (ni + wc * P) * eb;
            st->up[i] = wc * eb;
            break;
        }
    }
    switch (ph) {
    case COST_S1:
        if (root)
            cost_add(&st->master, "merge", P * P * cost_lg(P), P * P);
        break;
    case COST_S2: /* a lower master concatenates its children's hand-ups;
                     over MPI the remote ones first land in fresh buffers */
        if (a->copy && !root)
            cost_add(&st->master, "copy", task->n, task->n);
        if (a->copy && remote > 0)
            cost_add(&st->master, "copy", remote, remote / (p - 1));
        break;
    default: /* S3: the root reorders the buckets, a lower master splits
                its runs (received over MPI into a fresh buffer), into the
                children's receive buffers */
        if (a->copy)
            cost_add(&st->master, "copy", task->n, task->n);
        if (a->copy && task->recv > 0)
            cost_add(&st->master, "copy", task->recv, task->recv);
        break;
    }
    return SGL_OK;
}

static int work(void *user, const sgl_node_t *worker, const void *t,
                sgl_work_t *w)
{
    const struct cost_algo *a = user;
    const struct cost_task *task = t;
    double m = task->n, P = a->P;
    (void)worker;
    switch (task->phase) {
    case COST_S2:
        cost_add(w, "merge", P * cost_lg(m), m);
        if (a->copy) /* the block into its hand-up buffer */
            cost_add(w, "copy", m, m);
        break;
    case COST_S3:
        cost_add(w, "merge", m * cost_lg(P), m);
        if (a->copy && task->recv > 0) /* its bucket runs over MPI */
            cost_add(w, "copy", task->recv, task->recv);
        break;
    default: /* S1, or one worker alone */
        cost_add(w, "sort", m, m);
        break;
    }
    return SGL_OK;
}

void cost_psrs_program(sgl_program_t *prog)
{
    prog->nsteps = nsteps;
    prog->step = step;
    prog->work = work;
}
