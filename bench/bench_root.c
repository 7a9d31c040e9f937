/* A reduction of an array at the root, the paper's and the README's
 * setting (issue 47, item 1): sgl_reduce() of n doubles that the root task
 * holds, on "core:1" and on "core:2", against a plain loop and
 * `omp parallel for simd reduction(+)` on 2 threads over the same array.
 *
 * One process runs both trees, one after the other (sgl_init_comm() on
 * MPI_COMM_WORLD, then sgl_finalize(), which leaves MPI running). Inside
 * each tree's run the three are timed in turn, TRIALS times, after one
 * untimed round, so that the peers see the same load as SGL; every ratio
 * is SGL's median over a peer's median from the same tree's run. Times
 * are medians with min-max spread, in ms.
 * Usage: bench_root [N ...]   (default 1e7 1e8) */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_env.h"
#include "timing.h"

#include <sgl/algorithms.h>
#include <sgl/sgl_mpi.h>

enum { TRIALS = 9 };

/* The array at the root; the root task reads it through this pointer
 * rather than through the run's argument so that the run never copies
 * it: what is timed is sgl_reduce() alone. */
static const double *x;
static size_t x_n;

/* Times of one tree's run: sgl_reduce, the loop, the OpenMP peer. */
static double t_sgl[TRIALS], t_loop[TRIALS], t_omp[TRIALS];
static double sums[3];

static double plain_loop(const double *a, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += a[i];
    return s;
}

static double omp_sum(const double *a, size_t n)
{
    double s = 0;
#pragma omp parallel for simd reduction(+ : s) num_threads(2)              \
    schedule(static)
    for (size_t i = 0; i < n; i++)
        s += a[i];
    return s;
}

static int root_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    for (int r = -1; r < TRIALS; r++) {
        double t0 = bench_now();
        SGL_TRY(sgl_reduce(ctx, SGL_F64, SGL_OP_SUM, x, x_n, &sums[0]));
        double t1 = bench_now();
        sums[1] = plain_loop(x, x_n);
        double t2 = bench_now();
        sums[2] = omp_sum(x, x_n);
        double t3 = bench_now();
        if (r >= 0) {
            t_sgl[r] = t1 - t0;
            t_loop[r] = t2 - t1;
            t_omp[r] = t3 - t2;
        }
    }
    return SGL_OK;
}

/* Median, min and max of @v in ms (sorts @v). */
static void stats(double *v, double *med, double *lo, double *hi)
{
    *med = 1e3 * bench_median(v, TRIALS);
    *lo = 1e3 * v[0];
    *hi = 1e3 * v[TRIALS - 1];
}

static void row(size_t n, const char *shape, const char *what, double *v,
                double sgl_med)
{
    double med, lo, hi;
    stats(v, &med, &lo, &hi);
    printf("%-6.0e %-7s %-22s %9.2f %9.2f %9.2f", (double)n, shape, what, med,
           lo, hi);
    if (sgl_med > 0)
        printf("   %6.2f", sgl_med / med);
    printf("\n");
}

static int run_tree(size_t n, const char *shape)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    o.trace = 0;
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init_comm(MPI_COMM_WORLD, &o, &rt);
    if (!rc)
        rc = sgl_algorithms_register(rt);
    if (!rc)
        rc = sgl_run(rt, root_task, NULL, 0);
    int rc2 = sgl_finalize(rt);
    if (rc || rc2) {
        fprintf(stderr, "bench_root: %s: %s\n", shape, sgl_error_last());
        return 1;
    }
    /* Sums in another order differ in the last bits; 1e-9 relative is
     * far above that and far below any lost block. */
    double ref = sums[1], tol = 1e-9 * (ref < 0 ? -ref : ref);
    for (int k = 0; k < 3; k += 2)
        if (sums[k] - ref > tol || ref - sums[k] > tol) {
            fprintf(stderr, "bench_root: %s: sum %.17g, loop %.17g\n",
                    shape, sums[k], ref);
            return 1;
        }
    double med = 1e3 * bench_median(t_sgl, TRIALS);
    row(n, shape, "sgl_reduce", t_sgl, 0);
    row(n, shape, "plain loop (1 thread)", t_loop, med);
    row(n, shape, "omp simd reduction x2", t_omp, med);
    return 0;
}

int main(int argc, char **argv)
{
    bench_default_env();
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    size_t ns[8] = {10000000, 100000000};
    int nn = 2;
    if (argc > 1)
        for (nn = 0; nn + 1 < argc && nn < 8; nn++)
            ns[nn] = (size_t)strtod(argv[nn + 1], NULL);
    size_t max = 0;
    for (int i = 0; i < nn; i++)
        max = ns[i] > max ? ns[i] : max;
    double *a = malloc((max ? max : 1) * sizeof *a);
    if (!a) {
        fprintf(stderr, "bench_root: no memory for %zu doubles\n", max);
        return 1;
    }
    for (size_t i = 0; i < max; i++)
        a[i] = (double)(i % 1000) * 0.5;
    x = a;
    printf("# OMP_WAIT_POLICY=%s; medians of %d in ms, min-max; ratio = "
           "sgl_reduce / peer, same tree's run\n",
           getenv("OMP_WAIT_POLICY"), TRIALS);
    printf("%-6s %-7s %-22s %9s %9s %9s   %6s\n", "n", "tree", "what",
           "median", "min", "max", "ratio");
    int rc = 0;
    for (int i = 0; i < nn && !rc; i++) {
        x_n = ns[i];
        rc = run_tree(ns[i], "core:1") || run_tree(ns[i], "core:2");
    }
    free(a);
    MPI_Finalize();
    return rc;
}
