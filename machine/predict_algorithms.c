/* Closed-form cost of the reference algorithms on any tree, as programs
 * for the evaluator of predict.c. n elements are split over the workers in
 * proportion to the number of workers in each subtree; eb = bytes per
 * element; p = a master's fan-out; P = all workers; m = a worker's block.
 *
 * reduce (1 superstep per level, SGL paper Alg. 1):
 *   master: [scatter the blocks if centralised] pardo(reduce) ; gather p
 *           elements ; fold them: p*c(op)
 *   worker: m*c(op)
 * scan, scan-then-offset (2 supersteps from the root, 1 per level each):
 *   up:   worker m*c(scan) ; master gathers p totals, scans them p*c(scan)
 *   down: master scatters p offsets, adds its offset to its prefixes
 *         (p*c(scan), not at the root) ; worker adds its offset m*c(scan)
 * scan-rts, reduce-then-scan (same supersteps):
 *   up:   worker m*c(sum) ; master gathers p totals, folds them p*c(sum)
 *   down: master scatters p offsets computed from its totals p*c(scan) ;
 *         worker scans from its offset m*c(scan)
 *   With centralised data the up pass scatters the blocks and the down
 *   pass gathers the results.
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
 * One worker alone: reduce m*c(op), scans m*c(scan), psrs n*c(sort).
 */
#include <math.h>
#include <string.h>

#include "machine_impl.h"
#include <sgl/predict.h>

enum phase { PH_ALL, PH_UP, PH_DOWN, PH_S1, PH_S2, PH_S3 };

struct task {
    enum phase phase;
    double n;    /* elements in the subtree */
    double recv; /* elements it received over MPI into fresh buffers */
};

struct algo {
    sgl_predict_algo_t algo;
    sgl_predict_opts_t o;
    double n_total;
    double P;
    int copy; /* the machine has a "copy" kernel */
};

static double lg(double x) { return x > 1 ? log2(x) : 0; }

/* amount of kernel over a block of size elements. */
static void add(sgl_work_t *w, const char *kernel, double amount, double size)
{
    w->term[w->nterms].kernel = kernel;
    w->term[w->nterms].amount = amount;
    w->term[w->nterms].size = size;
    w->nterms++;
}

static unsigned nsteps(void *user, const sgl_node_t *master, const void *t)
{
    const struct algo *a = user;
    const struct task *task = t;
    (void)master;
    if (task->phase != PH_ALL)
        return 1;
    switch (a->algo) {
    case SGL_PREDICT_REDUCE:
        return 1;
    case SGL_PREDICT_SCAN:
    case SGL_PREDICT_SCAN_RTS:
        return 2;
    case SGL_PREDICT_PSRS:
        return 3;
    }
    return 0;
}

static int step(void *user, const sgl_node_t *master, const void *t,
                unsigned s, sgl_pstep_t *st)
{
    const struct algo *a = user;
    const struct task *task = t;
    struct task *child = st->child_task;
    double eb = a->o.elem_bytes, p = st->arity, P = a->P;
    double below = (double)sgl_node_workers(master);
    enum phase ph = task->phase;
    if (ph == PH_ALL) {
        if (a->algo == SGL_PREDICT_REDUCE)
            ph = PH_ALL;
        else if (a->algo == SGL_PREDICT_PSRS)
            ph = (enum phase)(PH_S1 + s);
        else
            ph = s == 0 ? PH_UP : PH_DOWN;
    }
    int root = task->phase == PH_ALL;
    /* Over MPI, child 0 is played by the master's own process; the other
     * children's blocks travel into buffers allocated for them. */
    int mpi = sgl_node_link(master) == SGL_LINK_MPI;
    double remote = 0;
    for (unsigned i = 0; i < st->arity; i++) {
        const sgl_node_t *c = sgl_node_child(master, i);
        double share = (double)sgl_node_workers(c) / below;
        double ni = task->n * share;
        child[i].phase = ph;
        child[i].n = ni;
        child[i].recv = 0;
        if (mpi && i > 0) {
            remote += ni;
            if (ph == PH_S3)
                child[i].recv = ni;
        }
        switch (ph) {
        case PH_ALL: /* reduce */
            st->down[i] = a->o.centralised ? ni * eb : 0;
            st->up[i] = eb;
            break;
        case PH_UP:
            st->down[i] = a->o.centralised ? ni * eb : 0;
            st->up[i] = eb;
            break;
        case PH_DOWN:
            st->down[i] = eb;
            st->up[i] = a->o.centralised ? ni * eb : 0;
            break;
        case PH_S1:
            st->up[i] = (double)sgl_node_workers(c) * (2 * P + 1) * eb;
            break;
        case PH_S2:
            st->down[i] = (P - 1 + (double)sgl_node_workers(c)) * eb;
            st->up[i] = (ni + (double)sgl_node_workers(c) * P) * eb;
            break;
        case PH_S3:
            st->down[i] = (ni + (double)sgl_node_workers(c) * P) * eb;
            st->up[i] = (double)sgl_node_workers(c) * eb;
            break;
        }
    }
    switch (ph) {
    case PH_ALL:
        add(&st->master, a->o.op_kernel, p, p);
        break;
    case PH_UP:
        add(&st->master, a->algo == SGL_PREDICT_SCAN ? "scan" : "sum", p, p);
        break;
    case PH_DOWN:
        /* scan-then-offset: a lower master adds its offset to the
         * prefixes it kept; reduce-then-scan: offsets from the totals. */
        if (a->algo == SGL_PREDICT_SCAN_RTS || !root)
            add(&st->master, "scan", p, p);
        break;
    case PH_S1:
        if (root)
            add(&st->master, "merge", P * P * lg(P), P * P);
        break;
    case PH_S2: /* a lower master concatenates its children's hand-ups;
                   over MPI the remote ones first land in fresh buffers */
        if (a->copy && !root)
            add(&st->master, "copy", task->n, task->n);
        if (a->copy && remote > 0)
            add(&st->master, "copy", remote, remote / (p - 1));
        break;
    case PH_S3: /* the root reorders the buckets, a lower master splits its
                   runs (received over MPI into a fresh buffer), into the
                   children's receive buffers */
        if (a->copy)
            add(&st->master, "copy", task->n, task->n);
        if (a->copy && task->recv > 0)
            add(&st->master, "copy", task->recv, task->recv);
        break;
    }
    return SGL_OK;
}

static int work(void *user, const sgl_node_t *worker, const void *t,
                sgl_work_t *w)
{
    const struct algo *a = user;
    const struct task *task = t;
    double m = task->n, P = a->P;
    (void)worker;
    switch (task->phase) {
    case PH_ALL:
        if (a->algo == SGL_PREDICT_REDUCE)
            add(w, a->o.op_kernel, m, m);
        else if (a->algo == SGL_PREDICT_PSRS)
            add(w, "sort", m, m);
        else
            add(w, "scan", m, m);
        break;
    case PH_UP:
        add(w, a->algo == SGL_PREDICT_SCAN ? "scan" : "sum", m, m);
        break;
    case PH_DOWN:
        add(w, "scan", m, m);
        break;
    case PH_S1:
        add(w, "sort", m, m);
        break;
    case PH_S2:
        add(w, "merge", P * lg(m), m);
        if (a->copy) /* the block into its hand-up buffer */
            add(w, "copy", m, m);
        break;
    case PH_S3:
        add(w, "merge", m * lg(P), m);
        if (a->copy && task->recv > 0) /* its bucket runs over MPI */
            add(w, "copy", task->recv, task->recv);
        break;
    }
    return SGL_OK;
}

void sgl_predict_opts_default(sgl_predict_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->elem_bytes = 8;
    o->op_kernel = "sum";
}

static const char *const names[] = {NULL, "reduce", "scan", "scan-rts",
                                    "psrs"};

const char *sgl_predict_algo_name(sgl_predict_algo_t algo)
{
    return algo >= SGL_PREDICT_REDUCE && algo <= SGL_PREDICT_PSRS
               ? names[algo]
               : NULL;
}

int sgl_predict_algo_from_name(const char *name, sgl_predict_algo_t *ret)
{
    for (int i = SGL_PREDICT_REDUCE; name && i <= SGL_PREDICT_PSRS; i++)
        if (strcmp(name, names[i]) == 0) {
            *ret = (sgl_predict_algo_t)i;
            return SGL_OK;
        }
    return sgl_error_set(SGL_EINVAL,
                         "unknown algorithm '%.40s' (known: reduce, scan, "
                         "scan-rts, psrs)",
                         name ? name : "(null)");
}

int sgl_predict_algorithm(const sgl_machine_t *m, sgl_predict_algo_t algo,
                          double n, const sgl_predict_opts_t *opts,
                          sgl_prediction_t *ret)
{
    if (!m || !ret)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_predict_algorithm: NULL argument");
    if (!sgl_predict_algo_name(algo))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_predict_algorithm: unknown algorithm %d",
                             (int)algo);
    if (!(n >= 1) || !isfinite(n))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_predict_algorithm: n = %g, expected at "
                             "least 1 element",
                             n);
    struct algo a = {.algo = algo, .n_total = n,
                     .P = (double)sgl_machine_workers(m),
                     .copy = !isnan(sgl_node_kernel(sgl_machine_worker(m, 0),
                                                    "copy"))};
    if (opts)
        a.o = *opts;
    else
        sgl_predict_opts_default(&a.o);
    if (!(a.o.elem_bytes > 0) || !isfinite(a.o.elem_bytes))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_predict_algorithm: elem_bytes = %g",
                             a.o.elem_bytes);
    if (!a.o.op_kernel)
        a.o.op_kernel = "sum";
    sgl_program_t prog = {
        .name = names[algo],
        .task_size = sizeof(struct task),
        .user = &a,
        .nsteps = nsteps,
        .step = step,
        .work = work,
    };
    struct task root = {PH_ALL, n, 0};
    return sgl_predict_program(m, &prog, &root, ret);
}
