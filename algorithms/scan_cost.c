/* Closed-form cost of scan.c: two supersteps from the root, one per level
 * each.
 * scan (LOCAL_FIRST, scan-then-offset):
 *   up:   worker m*c(scan) ; master gathers p totals, scans them p*c(scan)
 *   down: master scatters p offsets, adds its offset to its prefixes
 *         (p*c(scan), not at the root) ; worker adds its offset m*c(scan)
 * scan-rts (REDUCE_FIRST, reduce-then-scan; same supersteps):
 *   up:   worker m*c(sum) ; master gathers p totals, folds them p*c(sum)
 *   down: master scatters p offsets computed from its totals p*c(scan) ;
 *         worker scans from its offset m*c(scan)
 * With centralised data the up pass scatters the blocks and the down pass
 * gathers the results. One worker alone: m*c(scan). */
#include "cost.h"

static unsigned nsteps(void *user, const sgl_node_t *master, const void *t)
{
    const struct cost_task *task = t;
    (void)user, (void)master;
    return task->phase == COST_ROOT ? 2 : 1;
}

static int step(void *user, const sgl_node_t *master, const void *t,
                unsigned s, sgl_pstep_t *st)
{
    const struct cost_algo *a = user;
    const struct cost_task *task = t, *child = st->child_task;
    double eb = a->o.elem_bytes, p = st->arity;
    int root = task->phase == COST_ROOT;
    enum cost_phase ph = root ? (s == 0 ? COST_UP : COST_DOWN) : task->phase;
    int rts = a->algo == SGL_PREDICT_SCAN_RTS;
    sgl__cost_children(master, task, st, ph);
    for (unsigned i = 0; i < st->arity; i++) {
        double block = a->o.centralised ? child[i].n * eb : 0;
        st->down[i] = ph == COST_UP ? block : eb;
        st->up[i] = ph == COST_UP ? eb : block;
    }
    if (ph == COST_UP)
        sgl__cost_add(&st->master, rts ? "sum" : "scan", p, p);
    else if (rts || !root)
        /* scan-then-offset: a lower master adds its offset to the
         * prefixes it kept; reduce-then-scan: offsets from the totals. */
        sgl__cost_add(&st->master, "scan", p, p);
    return SGL_OK;
}

static int work(void *user, const sgl_node_t *worker, const void *t,
                sgl_work_t *w)
{
    const struct cost_algo *a = user;
    const struct cost_task *task = t;
    double m = task->n;
    (void)worker;
    if (task->phase == COST_UP)
        sgl__cost_add(w, a->algo == SGL_PREDICT_SCAN_RTS ? "sum" : "scan", m,
                      m);
    else
        sgl__cost_add(w, "scan", m, m);
    return SGL_OK;
}

void sgl__cost_scan_program(sgl_program_t *prog)
{
    prog->nsteps = nsteps;
    prog->step = step;
    prog->work = work;
}
