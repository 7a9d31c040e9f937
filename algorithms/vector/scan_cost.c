/* Closed-form cost of scan.c: two supersteps from the root, one per level
 * each.
 * scan (LOCAL_FIRST, scan-then-offset):
 *   up:   worker m*c(scan) ; master gathers p totals, scans them p*c(scan)
 *   down: master scatters p offsets, adds its offset to its prefixes
 *         (p*c(scan), not at the root) ; every worker but the first adds
 *         its offset to its block m*c(offset)
 * scan-rts (REDUCE_FIRST, reduce-then-scan; same supersteps):
 *   up:   worker m*c(sum) ; master gathers p totals, folds them p*c(sum)
 *   down: master scatters p offsets computed from its totals p*c(scan) ;
 *         worker scans from its offset m*c(scan)
 * With centralised data the up pass scatters the blocks and the down pass
 * gathers the results. Centralised scan-rts is sgl_scan()'s root scan
 * (scan_root.c): its steps are view steps (sgl_pstep_t::view: children
 * read their parts in place and put in place), and across an MPI link
 * pass 2 sends the parts again. Centralised scan is sgl_scan()'s
 * LOCAL_FIRST, which goes through a distributed vector: the workers copy
 * their blocks in (m*c(copy) where the machine has "copy") and the
 * gather copies them out. One worker alone: m*c(scan).
 *
 * The variants move the same words in the same supersteps, and each
 * makes one scan pass over a worker's block (about 0.85 ns per element on
 * the 2-core EPYC this was measured on: one dependent add per element).
 * They differ in the other pass: a reduction (reads m) against the offset
 * add (reads and writes m in place). Counting memory traffic prices the
 * add dearer, yet there the add ran at 0.27..0.37 ns per element and the
 * reduction at 0.42..0.47, in cache and out of it (1e4..5e7 elements per
 * worker, 2 workers): neither is memory-bound. GCC -O2 turns the
 * reduction's eight accumulators into 2-wide adds whose accumulators stay
 * on the stack (a store-to-load chain per iteration), while the add is a
 * scalar loop of independent elements, about one per cycle. Worker 0 adds
 * nothing (its offset is the identity), so that pass also leaves a core
 * to the host's other programs. Where threads are not bound (a shape
 * given by hand) a worker may wake on the other core between the passes
 * and find its block in the other cache: in-cache adds then cost 0.5 and
 * the reduction wins by a little. Which pass is cheaper thus depends on
 * the machine, the compiler and n, and each pass is priced by the kernel
 * the probe measures for it: "offset" for the add. A machine file without
 * it prices the add as "scan", as before. */
#include "cost.h"
#include "cost_terms.h"

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
    sgl__cost_children(a, master, task, st, ph);
    /* The root scan (scan_root.c) reads its parts in place in both passes
     * and puts in place in the second; across an MPI link the parts
     * travel in both passes. */
    int root_scan = rts && a->o.centralised;
    int again = root_scan && sgl_node_link(master) == SGL_LINK_MPI;
    st->view = root_scan;
    for (unsigned i = 0; i < st->arity; i++) {
        double block = a->o.centralised ? child[i].n * eb : 0;
        st->down[i] = ph == COST_UP ? block : eb + (again ? block : 0);
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
    int rts = a->algo == SGL_PREDICT_SCAN_RTS;
    /* sgl_scan()'s LOCAL_FIRST copies a root array into a distributed
     * vector first (sgl_dvec_scatter()): a copy per element, where the
     * machine prices copies. */
    if (task->phase == COST_UP && !rts && a->o.centralised && a->copy)
        sgl__cost_add(w, "copy", m, m);
    if (task->phase == COST_UP)
        sgl__cost_add(w, rts ? "sum" : "scan", m, m);
    else if (rts || task->phase == COST_ROOT)
        sgl__cost_add(w, "scan", m, m);
    else if (sgl_node_first_worker(worker) > 0)
        sgl__cost_add(w, a->offset ? "offset" : "scan", m, m);
    return SGL_OK;
}

void sgl__cost_scan_program(const sgl_machine_t *m, sgl_program_t *prog)
{
    (void)m;
    prog->nsteps = nsteps;
    prog->step = step;
    prog->work = work;
}
