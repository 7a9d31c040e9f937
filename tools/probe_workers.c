/* Per-worker c (sgl-probe --per-worker). Every worker of the probed tree
 * runs the kernel at once, on a block of its own, as the algorithms run
 * it (a worker under a CPU quota, on a slower host or a busier socket
 * shows then as it will run); its c is its time to deliver
 * (sgl_trace_step_delivered() in the trace of the master just above it:
 * for another process's worker its reply's time, which counts a quota's
 * throttling on either side of its task) over its block, gathered from
 * every process:
 *   sum   sgl_dvec_reduce(SUM): the workers' pardo
 *   sort  sgl_dvec_sort: PSRS's first step (the local sort and sampling)
 * First on even blocks, then in PW_REFINE rounds on blocks split by the
 * c so far, each taking every worker's c measured there. On even blocks a
 * slow worker runs on alone once the others are done, and a memory-bound
 * kernel runs faster alone (on this VM 1.5x): its c would come out as if
 * the others never ran. The rounds converge to the split where all finish
 * together, with every worker running throughout, which is where a split
 * by these c runs. (Moving c only halfway from that far start, three
 * rounds ended short: the reduction split by their sum left the rank
 * under bench/balance.sh's quota last in 12 of 16 runs.) Each c is a
 * median over trials; the times are durations, each on one process's
 * clock, so nothing here assumes the processes share a clock. The runtime is
 * set to SGL_BALANCE_WORKERS for the even trials, then given parameters with
 * the c so far and SGL_BALANCE_SPEED; its balance is restored after, the
 * parameters are left (sgl-probe runs nothing after this). */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe_workers.h"
#include "timing.h"
#include <sgl/balance.h>
#include <sgl/trace.h>

const char *const probe_worker_kernels[PW_KERNELS] = {"sum", "sort"};

#define PW_TRIALS 5
enum { PW_REFINE = 5, PW_REFINE_TRIALS = 3 };

/* Each worker's block in the last run, as the root created it (rank 0;
 * broadcast after the run). */
static uint64_t *pw_counts;

struct pw_job {
    size_t n; /* the whole vector */
    int kernel;
    uint64_t seed;
};

static int pw_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct pw_job *j = arg;
    sgl_dvec_t *v = NULL;
    uint64_t seed = j->seed;
    double r;
    int rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &v);
    for (size_t w = 0; !rc && w < sgl_ctx_workers(root); w++)
        pw_counts[w] = sgl_dvec_counts(v)[w];
    if (!rc)
        rc = j->kernel == PW_SUM ? sgl_dvec_reduce(root, v, SGL_OP_SUM, 0, &r)
                                 : sgl_dvec_sort(root, v, NULL);
    int r2 = sgl_dvec_free(root, v);
    return rc ? rc : r2;
}

int probe_workers_register(sgl_runtime_t *rt)
{
    return sgl_task_register(rt, pw_main, "probe.workers");
}

/* The master at @level whose first worker is @first, or NULL. */
static const sgl_node_t *master_of(const sgl_machine_t *m, unsigned level,
                                   size_t first)
{
    size_t nm = sgl_machine_level_masters(m, level);
    for (size_t i = 0; i < nm; i++) {
        const sgl_node_t *x = sgl_machine_master(m, level, i);
        if (sgl_node_first_worker(x) == first)
            return x;
    }
    return NULL;
}

/* From this process's trace: each worker's time to deliver its part
 * (sgl_trace_step_delivered()) in the superstep
 * that ran its kernel (the first one its master recorded after the trace
 * was cleared, the vector's creation being the superstep before: the
 * second), over its block (pw_counts); -1 for the workers of other
 * processes. */
static void read_trace(sgl_runtime_t *rt, double *t)
{
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    size_t p = sgl_machine_workers(m);
    char *seen = calloc(p, 1);
    for (size_t w = 0; w < p; w++)
        t[w] = -1;
    sgl_trace_step_t st;
    for (size_t q = 0; seen && q < sgl_trace_steps(rt); q++) {
        if (sgl_trace_step(rt, q, &st) != SGL_OK)
            continue;
        const sgl_node_t *x = master_of(m, st.level, st.first_worker);
        for (unsigned i = 0; x && i < st.children; i++) {
            const sgl_node_t *c = sgl_node_child(x, i);
            if (sgl_node_arity(c) != 0)
                continue;
            size_t w = sgl_node_first_worker(c);
            /* seen: 1 after the creation's superstep, 2 after the
             * kernel's. */
            if (seen[w]++ != 1)
                continue;
            double d;
            t[w] = sgl_trace_step_delivered(rt, &st, i, &d) == SGL_OK
                       ? d / (double)pw_counts[w]
                       : -1;
        }
    }
    free(seen);
}

/* Elements per worker for a task of @seconds at @c per element. */
static size_t block_for(double seconds, double c, size_t workers)
{
    size_t lo = 1000000;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double cap = pages > 0 && page > 0
                     ? (double)pages * (double)page / 8 / 8 / (double)workers
                     : 1e7;
    double n = c > 0 ? seconds / c : (double)lo;
    n = fmin(n, cap);
    return n > (double)lo ? (size_t)n : lo;
}

/* @ntrials runs of kernel @k on @n elements in all, split as the runtime
 * splits; each worker's c of trial i into @t[w * @stride + i] (every
 * process). */
static int run_trials(sgl_runtime_t *rt, int k, size_t n, int ntrials,
                      uint64_t seed, double *t, size_t stride, double *one)
{
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    int rc = SGL_OK;
    for (int trial = 0; !rc && trial < ntrials; trial++) {
        struct pw_job j = {n, k, seed + (uint64_t)trial};
        sgl_trace_clear(rt);
        rc = sgl_run(rt, pw_main, &j, sizeof j);
        if (rc)
            break;
        MPI_Bcast(pw_counts, (int)p, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        read_trace(rt, one);
        MPI_Allreduce(MPI_IN_PLACE, one, (int)p, MPI_DOUBLE, MPI_MAX,
                      MPI_COMM_WORLD);
        for (size_t w = 0; w < p; w++)
            t[w * stride + (size_t)trial] = one[w];
    }
    return rc;
}

/* The runtime splits by @c from now on: every measured kernel's
 * per-worker c set to @c, so that the workers' overall speeds (the
 * geometric mean over the kernels) are @c's, whatever kernel the runtime
 * kept from an earlier call. Every process passes the same @c. */
static int split_by(sgl_runtime_t *rt, const double *c, size_t p)
{
    const char *shape = sgl_machine_shape(sgl_runtime_machine(rt));
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    mo.keep_single = 1;
    sgl_machine_t *m = NULL;
    int rc = shape ? sgl_machine_from_shape(shape, &mo, &m)
                   : sgl_error_set(SGL_EINVAL, "sgl-probe: --per-worker "
                                               "needs a tree that a shape "
                                               "string describes");
    for (int k = 0; !rc && k < PW_KERNELS; k++)
        for (size_t w = 0; !rc && w < p; w++)
            rc = sgl_machine_set_worker_kernel(m, w, probe_worker_kernels[k],
                                               c[w]);
    if (!rc)
        rc = sgl_runtime_set_params(rt, m);
    if (!rc)
        rc = sgl_runtime_set_balance(rt, SGL_BALANCE_SPEED);
    sgl_machine_free(m);
    return rc;
}

int probe_workers(sgl_runtime_t *rt, int quick, const double *c_hint,
                  struct worker_c *ret)
{
    memset(ret, 0, sizeof *ret);
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    ret->workers = p;
    /* Every process sizes alike: rank 0's hint decides. */
    uint64_t n[PW_KERNELS];
    for (int k = 0; k < PW_KERNELS; k++)
        n[k] = block_for(quick ? 0.005 : 0.02, c_hint[k], p);
    MPI_Bcast(n, PW_KERNELS, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    for (int k = 0; k < PW_KERNELS; k++)
        ret->n[k] = (size_t)n[k];
    ret->trials = PW_TRIALS;
    ret->rounds = PW_REFINE;
    sgl_balance_t was = sgl_runtime_balance(rt);
    double *t = malloc(p * PW_TRIALS * sizeof *t);
    double *one = malloc(p * sizeof *one);
    pw_counts = malloc(p * sizeof *pw_counts);
    int ok = t && one && pw_counts;
    for (int k = 0; k < PW_KERNELS; k++)
        ok &= (ret->c[k] = malloc(p * sizeof *ret->c[k])) != NULL;
    int rc = ok ? SGL_OK
                : sgl_error_set(SGL_ENOMEM, "sgl-probe: out of memory");
    for (int k = 0; !rc && k < PW_KERNELS; k++) {
        size_t total = ret->n[k] * p;
        /* Even blocks: a warm-up run, then the trials. */
        rc = sgl_runtime_set_balance(rt, SGL_BALANCE_WORKERS);
        if (!rc)
            rc = run_trials(rt, k, total, 1, 7, t, PW_TRIALS, one);
        if (!rc)
            rc = run_trials(rt, k, total, PW_TRIALS, 8, t, PW_TRIALS, one);
        for (size_t w = 0; !rc && w < p; w++)
            ret->c[k][w] = bench_median(t + w * PW_TRIALS, PW_TRIALS);
        for (int round = 0; !rc && round < PW_REFINE; round++) {
            rc = split_by(rt, ret->c[k], p);
            if (!rc)
                rc = run_trials(rt, k, total, PW_REFINE_TRIALS,
                                100 + (uint64_t)(round * PW_REFINE_TRIALS), t,
                                PW_TRIALS, one);
            for (size_t w = 0; !rc && w < p; w++)
                ret->c[k][w] = bench_median(t + w * PW_TRIALS,
                                            PW_REFINE_TRIALS);
        }
        for (size_t w = 0; !rc && w < p; w++)
            if (!(ret->c[k][w] > 0))
                rc = sgl_error_set(SGL_ESTATE,
                                   "sgl-probe: worker %zu's %s was not in "
                                   "the trace (is SGL_TRACE off?)",
                                   w, probe_worker_kernels[k]);
    }
    int r2 = sgl_runtime_set_balance(rt, was);
    free(t);
    free(one);
    free(pw_counts);
    pw_counts = NULL;
    return rc ? rc : r2;
}

void probe_workers_print(const struct worker_c *wc)
{
    printf("per-worker c (ns per element; all workers at once, median of "
           "%d on even blocks, then %d rounds at the split so far; elements "
           "per worker, even:",
           wc->trials, wc->rounds);
    for (int k = 0; k < PW_KERNELS; k++)
        printf(" %s %.1e", probe_worker_kernels[k], (double)wc->n[k]);
    printf("):\n  %-8s", "worker");
    for (int k = 0; k < PW_KERNELS; k++)
        printf(" %9s", probe_worker_kernels[k]);
    printf("  speed (of the fastest)\n");
    double best[PW_KERNELS];
    for (int k = 0; k < PW_KERNELS; k++) {
        best[k] = INFINITY;
        for (size_t w = 0; w < wc->workers; w++)
            best[k] = fmin(best[k], wc->c[k][w]);
    }
    for (size_t w = 0; w < wc->workers; w++) {
        printf("  %-8zu", w);
        double lg = 0;
        for (int k = 0; k < PW_KERNELS; k++) {
            printf(" %9.3f", 1e9 * wc->c[k][w]);
            lg += log(best[k] / wc->c[k][w]);
        }
        printf("  %.3f\n", exp(lg / PW_KERNELS));
    }
}

int probe_workers_store(sgl_machine_t *out, const struct worker_c *wc)
{
    int rc = SGL_OK;
    for (int k = 0; !rc && k < PW_KERNELS; k++)
        for (size_t w = 0; !rc && w < wc->workers; w++)
            rc = sgl_machine_set_worker_kernel(out, w, probe_worker_kernels[k],
                                               wc->c[k][w]);
    return rc;
}

void probe_workers_free(struct worker_c *wc)
{
    for (int k = 0; k < PW_KERNELS; k++)
        free(wc->c[k]);
    memset(wc, 0, sizeof *wc);
}
