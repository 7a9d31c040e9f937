/* Closed-form cost of psrs.c: PSRS on an exchange superstep (DESIGN.md
 * section 8), flattened over all P workers; m = n/P, eb = element bytes,
 * W_i the workers below child i of a master, W_X below the master X. The
 * root runs four supersteps; every lower master forwards each with one
 * superstep of its own (so each costs 2 l at every level):
 *   S1: worker radix-sorts its block by key: m*c(sort) (per element,
 *       all passes; records' keys mapped too); hands up its size and
 *       P regular samples (key, global index): (2P+1)*eb; every master
 *       concatenates its children's hand-ups: (2P+1)*W_X*c(copy); the
 *       root sorts the P^2 samples by a P-way merge,
 *       P^2*log2(P)*c(merge), and picks P-1 pivots.
 *   S2: the pivots (2 elements each) and the workers' block offsets go
 *       down: (2(P-1) + W_i)*eb per child; worker splits its block at the
 *       pivots: P*log2(m)*c(merge); hands up nothing (it stages its
 *       buckets for the exchange in place, no copy).
 *   X:  the exchange at the root. Only counts pass through the masters:
 *       a worker's P send counts up, its P receive counts down, 8 bytes
 *       each: 8P*W_i per child each way. The payload goes worker to
 *       worker: at every master X, l_h + max_i h_i*g_h with, for uniform
 *       keys,
 *           h_i = W_i * m * (W_X - W_i) / P * eb:
 *       each worker sends (and receives) m/P elements to (from) every
 *       worker, and only the part that leaves child i's subtree but
 *       stays inside X crosses X's level. So each byte is charged once,
 *       at the level of the lowest master above both ends; the levels'
 *       exchanges are then summed along the critical path as if they ran
 *       one after another. That is the model: the runtime may overlap
 *       them (one MPI exchange among processes while threads copy), so
 *       for a deep tree it errs on the slow side.
 *   S3: worker P-way merges its incoming runs, read in place (no copy):
 *       m*log2(P)*c(merge) (records: maps keys back), hands up its new
 *       size: eb.
 *   Buckets are taken as n/P each (regular sampling bounds them by
 *   2n/P). c(copy) is optional: a machine without it gets no copy term.
 * One worker alone: n*c(sort). */
#include "cost.h"

/* The root's supersteps, in order. */
static const enum cost_phase root_steps[] = {COST_S1, COST_S2, COST_X,
                                             COST_S3};

static unsigned nsteps(void *user, const sgl_node_t *master, const void *t)
{
    const struct cost_task *task = t;
    (void)user, (void)master;
    return task->phase == COST_ROOT ? 4 : 1;
}

static int step(void *user, const sgl_node_t *master, const void *t,
                unsigned s, sgl_pstep_t *st)
{
    const struct cost_algo *a = user;
    const struct cost_task *task = t;
    double eb = a->o.elem_bytes, P = a->P;
    double wx = (double)sgl_node_workers(master), m = task->n / wx;
    int root = task->phase == COST_ROOT;
    enum cost_phase ph = root ? root_steps[s] : task->phase;
    sgl__cost_children(a, master, task, st, ph);
    st->exchange = ph == COST_X;
    for (unsigned i = 0; i < st->arity; i++) {
        double wi = (double)sgl_node_workers(sgl_node_child(master, i));
        switch (ph) {
        case COST_S1:
            st->up[i] = wi * (2 * P + 1) * eb;
            break;
        case COST_S2:
            st->down[i] = (2 * (P - 1) + wi) * eb;
            break;
        case COST_X:
            st->down[i] = st->up[i] = wi * P * 8;
            st->h[i] = wi * m * (wx - wi) / P * eb;
            break;
        default: /* S3 */
            st->up[i] = wi * eb;
            break;
        }
    }
    if (ph == COST_S1 && a->copy)
        sgl__cost_add(&st->master, "copy", (2 * P + 1) * wx, (2 * P + 1) * wx);
    if (ph == COST_S1 && root)
        sgl__cost_add(&st->master, "merge", P * P * sgl__cost_lg(P), P * P);
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
        sgl__cost_add(w, "merge", P * sgl__cost_lg(m), m);
        break;
    case COST_X: /* the payload is charged as the masters' h */
        break;
    case COST_S3:
        sgl__cost_add(w, "merge", m * sgl__cost_lg(P), m);
        break;
    default: /* S1, or one worker alone */
        sgl__cost_add(w, "sort", m, m);
        break;
    }
    return SGL_OK;
}

void sgl__cost_psrs_program(sgl_program_t *prog)
{
    prog->nsteps = nsteps;
    prog->step = step;
    prog->work = work;
}
