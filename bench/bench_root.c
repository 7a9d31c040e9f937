/* Data at the root, the paper's and the README's setting (issue 47, items
 * 1 and 5): an array the root task holds, reduced (sgl_reduce()), scanned
 * (sgl_scan()) and sorted (sgl_sort(): scatter, PSRS, gather), against a
 * plain loop, OpenMP over the same array on 2 threads (reduction, the
 * two-pass scan of root_peers.c) and IPS4o's parallel sort on 2 threads.
 *
 * One process runs the trees "core:1" and "core:2" one after the other
 * (sgl_init_comm() on MPI_COMM_WORLD, then sgl_finalize(), which leaves
 * MPI running); the sort runs on core:2 only, where its goal is. Inside a
 * tree's run every trial times each contestant in turn (the orders
 * alternate), after one untimed trial, so that the peers see the same load
 * as SGL; every speed is a peer's median over SGL's median from the same
 * tree's run (> 1: SGL faster), and core:2's SGL median over core:1's is
 * the speed-up of the second worker. Every output is checked (sums and
 * scans exact: the elements are multiples of 0.5 below 500; the sort
 * sorted and equal to IPS4o's).
 *   bench_root [--sizes N,N...] [--reps R>=9] [--csv FILE] [--machine F]
 *              [--no-sort] [--cold]
 * Default sizes 1e7,1e8. With --machine (a file sgl-probe wrote on this
 * host's two-worker tree), each tree's sgl_reduce and sgl_scan medians
 * are printed beside the model's price of the path they run (a root
 * array: the view path, sgl_predict_algorithm() with centralised data;
 * core:1 is the file's one-worker time) and the relative error; the
 * prediction is not timed and the run is the same. --no-sort leaves the
 * sort out (its 1e8 trials take most of the run). --cold evicts the caches
 * (bench_flush_task() on every worker of the tree, as the probe does
 * before it times a kernel) before every timed call of a reduction or a
 * scan, SGL's and the peers' alike: the model prices cold data, while
 * without it the array, read by every contestant in turn, stays in a
 * last-level cache that holds it. The CSV (bench_csv.h) has one row per
 * measurement: n_elements, tree, implementation (sgl_reduce, loop_sum,
 * omp_reduction, sgl_scan, loop_scan, omp_scan, sgl_sort, ips4o_parallel),
 * threads, rep, time_s. */
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_csv.h"
#include "bench_env.h"
#include "build_info.h"
#include "flush_task.h"
#include "root_peers.h"
#include "sort_keys.h"
#include "sort_peers.h"
#include "timing.h"

#include <sgl/algorithms.h>
#include <sgl/predict.h>
#include <sgl/sgl_mpi.h>

enum { MAX_REPS = 99, MAX_SIZES = 8, PEER_THREADS = 2 };

enum row {
    R_REDUCE, R_LOOP_SUM, R_OMP_SUM, R_SCAN, R_LOOP_SCAN, R_OMP_SCAN,
    R_SORT, R_IPS4O, NROWS
};
static const char *const row_names[NROWS] = {
    "sgl_reduce", "loop_sum", "omp_reduction", "sgl_scan",
    "loop_scan",  "omp_scan", "sgl_sort",      "ips4o_parallel"};
static const char *const row_labels[NROWS] = {
    "sgl_reduce",          "plain loop (1 thread)", "omp simd reduction x2",
    "sgl_scan",            "loop scan (1 thread)",  "omp two-pass scan x2",
    "sgl_sort (root data)", "IPS4o parallel x2"};

/* The run's arrays, in the root's process; the root task reads them here
 * rather than through the run's argument, so that the run never copies
 * them: what is timed is the call alone. */
static struct {
    const double *x;   /* the array reduced and scanned */
    double *ref, *y;   /* the loop's scan; a scan's output */
    const double *keys; /* the sort's input */
    double *work;       /* what a sort sorts */
    size_t n;
    int reps, sort;     /* sort: this tree sorts too */
    double t[NROWS][MAX_REPS];
    const char *wrong;  /* the first wrong output, or NULL */
    sgl_machine_t *model; /* --machine, or NULL */
    int no_sort;          /* --no-sort */
    int cold;             /* --cold */
    size_t flush;         /* bytes each worker writes to evict, --cold */
} B;

static void store(int r, int first, const double *t, int count)
{
    for (int k = 0; r >= 0 && k < count; k++)
        B.t[first + k][r] = t[k];
}

/* --cold: every worker of @ctx's tree evicts the caches before the next
 * timed call, so that it reads the array from memory, as the probe's
 * kernels did. */
static int cold(sgl_ctx_t *ctx)
{
    return B.cold ? bench_flush_task(ctx, &B.flush, sizeof B.flush) : SGL_OK;
}

static void wrong(const char *what)
{
    if (!B.wrong)
        B.wrong = what;
}

/* Trial @r (-1: untimed) of the reduction; SGL first in even trials,
 * last in odd ones, as in the other two trials. */
static int trial_reduce(sgl_ctx_t *ctx, int r)
{
    double s[3], t[3];
    for (int j = 0; j < 3; j++) {
        int k = r % 2 ? 2 - j : j;
        SGL_TRY(cold(ctx));
        double t0 = bench_now();
        if (k == 0)
            SGL_TRY(sgl_reduce(ctx, SGL_F64, SGL_OP_SUM, B.x, B.n, &s[0]));
        else if (k == 1)
            s[1] = root_loop_sum(B.x, B.n);
        else
            s[2] = root_omp_sum(B.x, B.n, PEER_THREADS);
        t[k] = bench_now() - t0;
    }
    /* Every partial sum is exact, so every order gives the same bits. */
    if (s[0] != s[1] || s[2] != s[1])
        wrong("a sum");
    store(r, R_REDUCE, t, 3);
    return SGL_OK;
}

/* The running sum of x, exact like the sums above, equals y. */
static int scan_right(void)
{
    double s = 0;
    for (size_t i = 0; i < B.n; i++)
        if (B.y[i] != (s += B.x[i]))
            return 0;
    return 1;
}

static int trial_scan(sgl_ctx_t *ctx, int r)
{
    double t[3];
    for (int j = 0; j < 3; j++) {
        int k = r % 2 ? 2 - j : j;
        SGL_TRY(cold(ctx));
        double t0 = bench_now();
        if (k == 0)
            SGL_TRY(sgl_scan(ctx, SGL_F64, SGL_OP_SUM, B.x, B.y, B.n,
                             SGL_SCAN_INCLUSIVE));
        else if (k == 1)
            root_loop_scan(B.x, B.y, B.n);
        else
            root_omp_scan(B.x, B.y, B.n, PEER_THREADS);
        t[k] = bench_now() - t0;
        if (!scan_right())
            wrong(row_names[R_SCAN + k]);
    }
    store(r, R_SCAN, t, 3);
    return SGL_OK;
}

/* An order-dependent hash of a sorted output: two sorts agree when their
 * outputs are sorted and hash alike (no third copy of the array). */
static uint64_t sorted_hash(const double *a, size_t n)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++) {
        uint64_t b;
        memcpy(&b, &a[i], sizeof b);
        h = (h ^ b) * 1099511628211u;
    }
    return sort_keys_sorted(a, n) ? h : 0;
}

static int trial_sort(sgl_ctx_t *ctx, int r)
{
    double t[2];
    uint64_t h[2];
    for (int j = 0; j < 2; j++) {
        int k = r % 2 ? 1 - j : j;
        memcpy(B.work, B.keys, B.n * sizeof *B.work);
        double t0 = bench_now();
        if (k == 0)
            SGL_TRY(sgl_sort(ctx, SGL_F64, B.work, B.n, NULL));
        else
            bench_peer_ips4o(B.work, B.n, PEER_THREADS);
        t[k] = bench_now() - t0;
        h[k] = sorted_hash(B.work, B.n);
    }
    if (!h[0] || h[0] != h[1])
        wrong("a sort");
    store(r, R_SORT, t, 2);
    return SGL_OK;
}

static int root_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    for (int r = -1; r < B.reps; r++) {
        SGL_TRY(trial_reduce(ctx, r));
        SGL_TRY(trial_scan(ctx, r));
        if (B.sort)
            SGL_TRY(trial_sort(ctx, r));
    }
    size_t none = 0; /* the flush buffers go */
    return B.cold ? bench_flush_task(ctx, &none, sizeof none) : SGL_OK;
}

/* Median (of a copy), min and max of row @k, in ms. */
static void stats(int k, double *med, double *lo, double *hi)
{
    double v[MAX_REPS];
    memcpy(v, B.t[k], (size_t)B.reps * sizeof *v);
    *med = 1e3 * bench_median(v, B.reps);
    *lo = 1e3 * v[0];
    *hi = 1e3 * v[B.reps - 1];
}

/* The tree's rows on stdout and in the CSV; @med gets every row's median. */
static void report(const char *shape, int workers, bench_csv_t *csv,
                   double *med)
{
    for (int k = 0; k < (B.sort ? NROWS : R_SORT); k++) {
        int first = k < R_SCAN ? R_REDUCE : k < R_SORT ? R_SCAN : R_SORT;
        double lo, hi;
        stats(k, &med[k], &lo, &hi);
        printf("%-6.0e %-7s %-22s %9.2f %9.2f %9.2f", (double)B.n, shape,
               row_labels[k], med[k], lo, hi);
        if (k != first)
            printf("   %6.2f", med[k] / med[first]);
        printf("\n");
        int threads = k == first ? workers
                      : k == R_LOOP_SUM || k == R_LOOP_SCAN ? 1
                                                            : PEER_THREADS;
        for (int r = 0; r < B.reps; r++) {
            bench_csv_int(csv, (long long)B.n);
            bench_csv_str(csv, shape);
            bench_csv_str(csv, row_names[k]);
            bench_csv_int(csv, threads);
            bench_csv_int(csv, r + 1);
            bench_csv_num(csv, B.t[k][r]);
            bench_csv_end(csv);
        }
    }
    fflush(stdout);
}

/* The model's price of @algo on @workers workers (1: the file's one-worker
 * time) beside row @k's measured median and spread; 0 if the file cannot
 * price it, with a message. */
static int model_line(const char *shape, int workers, sgl_predict_algo_t algo,
                      int k)
{
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    o.centralised = 1;
    sgl_prediction_t r;
    if (sgl_predict_algorithm(B.model, algo, (double)B.n, &o, &r)) {
        fprintf(stderr, "bench_root: --machine: %s\n", sgl_error_last());
        return 0;
    }
    double pred = 1e3 * (workers == 1 ? r.sequential : r.total), med, lo, hi;
    stats(k, &med, &lo, &hi);
    printf("model  %-6.0e %-7s %-10s predicted %9.3f ms, measured %9.3f "
           "(%.3f-%.3f), error %+6.1f%%\n",
           (double)B.n, shape, row_names[k], pred, med, lo, hi,
           100 * (pred - med) / med);
    return 1;
}

static void model_report(const char *shape, int workers)
{
    if (!B.model)
        return;
    /* sgl_scan's default variant is REDUCE_FIRST: the root scan. */
    if (model_line(shape, workers, SGL_PREDICT_REDUCE, R_REDUCE))
        model_line(shape, workers, SGL_PREDICT_SCAN_RTS, R_SCAN);
    fflush(stdout);
}

static int run_tree(const char *shape, int workers, bench_csv_t *csv,
                    double *med)
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
        rc = sgl_task_register(rt, bench_flush_task, "bench_root.flush");
    B.flush = bench_flush_bytes((size_t)workers);
    if (!rc)
        bench_warn(rt, "bench_root");
    if (!rc)
        rc = sgl_run(rt, root_task, NULL, 0);
    int rc2 = sgl_finalize(rt);
    if (rc || rc2) {
        fprintf(stderr, "bench_root: %s: %s\n", shape, sgl_error_last());
        return 1;
    }
    if (B.wrong) {
        fprintf(stderr, "bench_root: %s: wrong output of %s\n", shape,
                B.wrong);
        return 1;
    }
    report(shape, workers, csv, med);
    model_report(shape, workers);
    return 0;
}

/* Both trees at one size, and the second worker's speed-up. */
static int run_size(size_t n, bench_csv_t *csv)
{
    double m1[NROWS], m2[NROWS];
    B.n = n;
    B.sort = 0;
    if (run_tree("core:1", 1, csv, m1))
        return 1;
    B.sort = !B.no_sort;
    if (run_tree("core:2", 2, csv, m2))
        return 1;
    printf("%-6.0e core:2 over core:1 (x faster): sgl_reduce %.2f, "
           "sgl_scan %.2f\n",
           (double)n, m1[R_REDUCE] / m2[R_REDUCE], m1[R_SCAN] / m2[R_SCAN]);
    return 0;
}

/* "N,N,..." or N N ... into @ns; the count, or -1 with a message. */
static int parse_sizes(const char *arg, size_t *ns, int nn)
{
    for (const char *p = arg; *p;) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || (*end && *end != ',') || !(v >= 1 && v <= 1e11) ||
            nn == MAX_SIZES) {
            fprintf(stderr, "bench_root: '%s' is not a list of at most %d "
                            "counts (1e7,1e8)\n", arg, MAX_SIZES);
            return -1;
        }
        ns[nn++] = (size_t)v;
        p = *end ? end + 1 : end;
    }
    return nn;
}

static int parse(int argc, char **argv, size_t *ns, int *nn,
                 const char **csv_path)
{
    static const struct option longs[] = {{"sizes", required_argument, 0, 'z'},
                                          {"reps", required_argument, 0, 'r'},
                                          {"csv", required_argument, 0, 'c'},
                                          {"machine", required_argument, 0,
                                           'm'},
                                          {"no-sort", no_argument, 0, 's'},
                                          {"cold", no_argument, 0, 'C'},
                                          {"help", no_argument, 0, 'h'},
                                          {0, 0, 0, 0}};
    int opt;
    char *end;
    *nn = 0;
    while ((opt = getopt_long(argc, argv, "z:r:c:m:sh", longs, NULL)) !=
           -1) {
        if (opt == 'z' && (*nn = parse_sizes(optarg, ns, 0)) < 0)
            return 2;
        else if (opt == 'r') {
            B.reps = (int)strtol(optarg, &end, 10);
            if (*end || B.reps < 9 || B.reps > MAX_REPS) {
                fprintf(stderr, "bench_root: --reps wants 9 to %d\n",
                        MAX_REPS);
                return 2;
            }
        } else if (opt == 'c')
            *csv_path = optarg;
        else if (opt == 'm') {
            sgl_machine_free(B.model);
            B.model = NULL;
            if (sgl_machine_load(optarg, &B.model)) {
                fprintf(stderr, "bench_root: --machine: %s\n",
                        sgl_error_last());
                return 2;
            }
        } else if (opt == 's') {
            B.no_sort = 1;
        } else if (opt == 'C') {
            B.cold = 1;
        } else if (opt != 'z') {
            fprintf(stderr, "usage: bench_root [--sizes N,N...] [--reps R>=9] "
                            "[--csv FILE] [--machine FILE] [--no-sort] "
                            "[--cold]\n");
            return opt == 'h' ? 1 : 2;
        }
    }
    /* The sizes as plain arguments too, as before --sizes. */
    for (int i = optind; i < argc; i++)
        if ((*nn = parse_sizes(argv[i], ns, *nn)) < 0)
            return 2;
    return 0;
}

/* The arrays for sizes up to @max in B; 0, or 1 with a message. */
static int arrays(size_t max)
{
    double *x = malloc(max * sizeof *x), *keys = malloc(max * sizeof *keys);
    B.y = malloc(max * sizeof *B.y);
    B.work = malloc(max * sizeof *B.work);
    B.x = x, B.keys = keys;
    if (!x || !keys || !B.y || !B.work) {
        fprintf(stderr, "bench_root: no memory for 4 x %zu doubles\n", max);
        return 1;
    }
    for (size_t i = 0; i < max; i++)
        x[i] = (double)(i % 1000) * 0.5;
    sort_keys_fill(sort_keys_find("uniform"), keys, max, 1000);
    return 0;
}

int main(int argc, char **argv)
{
    bench_default_env();
    size_t ns[MAX_SIZES] = {10000000, 100000000};
    int nn = 2;
    const char *csv_path = NULL;
    B.reps = 9;
    int rc = parse(argc, argv, ns, &nn, &csv_path);
    if (rc) {
        sgl_machine_free(B.model);
        return rc == 1 ? 0 : rc;
    }
    if (!nn)
        ns[0] = 10000000, ns[1] = 100000000, nn = 2;
    size_t max = 0;
    for (int i = 0; i < nn; i++)
        max = ns[i] > max ? ns[i] : max;
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    bench_csv_t csv = {NULL, 0};
    char err[512];
    rc = arrays(max);
    if (!rc && csv_path &&
        bench_csv_open(&csv, csv_path,
                       "n_elements,tree,implementation,threads,rep,time_s", 0,
                       err, sizeof err)) {
        fprintf(stderr, "bench_root: %s\n", err);
        rc = 1;
    }
    if (!rc) {
        bench_build_print(stdout);
        printf("# data at the root; OMP_WAIT_POLICY=%s; caches %s; medians "
               "of %d in ms, min-max; speed = peer / SGL, same tree's run "
               "(> 1: SGL faster)\n",
               getenv("OMP_WAIT_POLICY"),
               B.cold ? "evicted before every reduce and scan (--cold)"
                      : "as the last contestant left them",
               B.reps);
        printf("%-6s %-7s %-22s %9s %9s %9s   %6s\n", "n", "tree", "what",
               "median", "min", "max", "speed");
    }
    for (int i = 0; i < nn && !rc; i++)
        rc = run_size(ns[i], &csv);
    if (bench_csv_close(&csv)) {
        fprintf(stderr, "bench_root: cannot write %s\n", csv_path);
        rc = 1;
    }
    free((void *)B.x), free((void *)B.keys), free(B.y), free(B.work);
    sgl_machine_free(B.model);
    MPI_Finalize();
    return rc;
}
