/* Overhead of the superstep trace: a distributed reduction
 * (sum of n = 1e6 doubles) on two runtimes over the same tree, one
 * recording every superstep and one not, alternated within each trial so
 * that load changes hit both; medians of 41 trials of 10 reductions.
 * Usage: bench_trace [--n N]   (alone, or under mpirun -n N) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing.h"

#include <sgl/algorithms.h>
#include <sgl/sgl.h>
#include <sgl/sgl_mpi.h>
#include <sgl/trace.h>

enum { TRIALS = 41, REPS = 10 };

struct job {
    size_t n;
    double per_op; /* out: seconds per reduction */
};

static int reduce_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    struct job *j = *(struct job *const *)arg;
    sgl_dvec_t *v;
    uint64_t seed = 1;
    int rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &v);
    double sum, t0 = bench_now();
    for (int r = 0; !rc && r < REPS; r++)
        rc = sgl_dvec_reduce(root, v, SGL_OP_SUM, 0, &sum);
    j->per_op = (bench_now() - t0) / REPS;
    int rc2 = sgl_dvec_free(root, v);
    return rc ? rc : rc2;
}

static int start(int trace, sgl_runtime_t **rt)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.trace = trace;
    int rc = sgl_init_comm(MPI_COMM_WORLD, &o, rt);
    if (!rc)
        rc = sgl_algorithms_register(*rt);
    return rc;
}

int main(int argc, char **argv)
{
    size_t n = 1000000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
            n = strtoull(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: bench_trace [--n N]\n");
            return 2;
        }
    }
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    sgl_runtime_t *on, *off;
    if (start(1, &on) || start(0, &off)) {
        fprintf(stderr, "bench_trace: %s\n", sgl_error_last());
        MPI_Finalize();
        return 1;
    }
    double t_on[TRIALS], t_off[TRIALS];
    int rc = 0;
    for (int t = 0; t < TRIALS && !rc; t++) {
        struct job a = {n, 0}, b = {n, 0};
        struct job *pa = &a, *pb = &b;
        /* Alternate which goes first so neither always meets a warm cache. */
        if (t % 2) {
            rc = sgl_run(on, reduce_main, &pa, sizeof pa);
            rc = rc ? rc : sgl_run(off, reduce_main, &pb, sizeof pb);
        } else {
            rc = sgl_run(off, reduce_main, &pb, sizeof pb);
            rc = rc ? rc : sgl_run(on, reduce_main, &pa, sizeof pa);
        }
        t_on[t] = a.per_op;
        t_off[t] = b.per_op;
        sgl_trace_clear(on);
    }
    if (rc)
        fprintf(stderr, "bench_trace: %s\n", sgl_error_last());
    if (!rc && sgl_runtime_rank(on) == 0) {
        double m_on = bench_median(t_on, TRIALS);
        double m_off = bench_median(t_off, TRIALS);
        printf("trace overhead, distributed reduction of %zu doubles on %s "
               "(%zu workers), median of %d x %d\n",
               n, sgl_machine_source(sgl_runtime_machine(on)),
               sgl_machine_workers(sgl_runtime_machine(on)), TRIALS, REPS);
        printf("%-14s %14s %14s %10s %8s\n", "", "trace on [us]",
               "trace off [us]", "overhead", "goal");
        printf("%-14s %14.2f %14.2f %9.2f%% %7s%% %s\n", "reduction",
               1e6 * m_on, 1e6 * m_off, 100 * (m_on / m_off - 1), "<= 2",
               m_on / m_off - 1 <= 0.02 ? "met" : "MISSED");
    }
    sgl_finalize(on);
    sgl_finalize(off);
    MPI_Finalize();
    return rc ? 1 : 0;
}
