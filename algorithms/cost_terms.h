/* What the closed forms of the algorithms (reduce_cost.c, scan_cost.c,
 * psrs_cost.c in vector/) share: the
 * task each master hands its children, the algorithm's settings, and the
 * helpers that fill work terms and split a subtree's elements
 * (cost_terms.c). n elements are split over the workers in proportion to
 * the workers of each subtree; eb = bytes per element; p = a master's
 * fan-out; P = all workers; m = a worker's block. The dispatcher
 * (cost.c) sets up a struct cost_algo and the root task; it and the
 * closed forms use this file, which uses neither. Never installed. */
#ifndef SGL_ALGO_COST_TERMS_H
#define SGL_ALGO_COST_TERMS_H

#include <sgl/predict.h>

/* Which superstep a task is in: COST_ROOT at the root, before it picks
 * the step; the other phases below it. */
enum cost_phase {
    COST_ROOT,
    COST_REDUCE,
    COST_UP,
    COST_DOWN,
    COST_S1,
    COST_S2,
    COST_S3,
    COST_X,      /* an exchange superstep */
    COST_XUP,    /* a routed exchange's records up to its master */
    COST_XDOWN,  /* ... and reordered down to their destinations */
    COST_DESCEND /* PSRS by level: a child sorts its own subtree */
};

struct cost_task {
    enum cost_phase phase;
    double n; /* elements in the subtree */
    /* PSRS by level, set by the level's master for the steps below it:
     * samples per unit, groups (runs in, in the merge), the level's
     * workers; whether blocks are sorted, whether groups are children */
    double s, k, wx;
    int sorted, by_child;
};

struct cost_algo {
    sgl_predict_algo_t algo;
    sgl_predict_opts_t o;
    double P;
    int copy; /* the machine has a "copy" kernel */
    int offset; /* the machine has an "offset" kernel */
    const double *speed; /* per worker (sgl_machine_worker_speeds()), as
                            the runtime splits by them; NULL: all alike */
};

/* log2(x), 0 below 1. */
double sgl__cost_lg(double x);
/* @amount of @kernel over blocks of @size elements. */
void sgl__cost_add(sgl_work_t *w, const char *kernel, double amount,
                   double size);
/* Give each child its share of the subtree's elements, in @phase. */
void sgl__cost_children(const struct cost_algo *a, const sgl_node_t *master,
                        const struct cost_task *t,
                        sgl_pstep_t *st, enum cost_phase phase);

#endif
