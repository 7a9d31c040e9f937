/* Closed-form cost of psrs.c: its five steps run as four supersteps from
 * the root (pivots are the root's own work), each forwarded by every lower
 * master with one superstep of its own. With P workers, m = n/P elements
 * each (buckets taken as n/P: regular sampling bounds them by 2n/P):
 *   sample     worker: m*c(sort) (a linear radix sort: c(sort) is per
 *              element, all its passes and the key mapping); hands up its
 *              size and P samples (key, index): 16 + 16P bytes; the root
 *              sorts the P^2 samples (a P-way merge: P^2*log2(P)*c(merge))
 *   partition  pivots and offsets down: (2(P-1) + P)*8 bytes per child;
 *              worker splits its block at the pivots: P*log2(m)*c(merge);
 *              nothing up (the buckets stay in place)
 *   exchange   at every master X with children i of W_i workers (W_X in
 *              all), child i's workers send (and receive) the buckets of
 *              the workers of X outside child i:
 *                h_i = W_i * m * (W_X - W_i) / P * eb,
 *              plus their counts (8 bytes per pair), charged l_h + h g_h
 *              at that master; the model charges each level's part where
 *              the runtime sends each pair's bytes once, straight between
 *              processes, so the levels add up as the tree's links would
 *   merge      worker: m*log2(P)*c(merge), the runs read in place; hands
 *              up its new size: 8 bytes
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
    double eb = a->o.elem_bytes, P = a->P, m = task->n / (double)
                                              sgl_node_workers(master);
    int root = task->phase == COST_ROOT;
    enum cost_phase ph = root ? root_steps[s] : task->phase;
    double wx = (double)sgl_node_workers(master);
    cost_children(master, task, st, ph, 0);
    for (unsigned i = 0; i < st->arity; i++) {
        double wc = (double)sgl_node_workers(sgl_node_child(master, i));
        switch (ph) {
        case COST_S1:
            st->up[i] = wc * (16 + 16 * P);
            break;
        case COST_S2:
            st->down[i] = (2 * (P - 1) + P) * 8;
            break;
        case COST_X:
            st->exchange = 1;
            st->h[i] = wc * (wx - wc) * (m / P * eb + 8);
            st->up[i] = 16;
            break;
        default: /* S3 */
            st->up[i] = wc * 8;
            break;
        }
    }
    if (ph == COST_S1 && root)
        cost_add(&st->master, "merge", P * P * cost_lg(P), P * P);
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
        break;
    case COST_X: /* the payload is the exchange's h */
        break;
    case COST_S3:
        cost_add(w, "merge", m * cost_lg(P), m);
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
