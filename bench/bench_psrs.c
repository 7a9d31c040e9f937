/* PSRS on the exchange superstep, against its peers in the same run:
 * IPS4o's parallel sort on as many threads as the tree has workers, and
 * PSRS on one worker (alone in one process); with several ranks (mpirun),
 * the direct against the routed exchange; where a child of the root has
 * several workers, the flat sort against the sort by level (SGL_SORT,
 * which this program sets itself: flat for the direct and routed runs). Per
 * repetition (the orders alternate), random doubles are made on the workers
 * (SGL_FILL_RANDOM) and only the sort is timed. Also measured: the bytes
 * through the root (every byte its supersteps scattered or gathered, from the
 * trace) and each rank's peak memory during the sort over its share of the
 * input.
 *
 *   bench_psrs [--n N] [--reps R] [--shape S] [--csv FILE]
 *   bench_psrs --dist NAME[,NAME...]|all [--sizes N,N...] [--reps R]
 *              [--contestants C,C...] [--shape S] [--csv FILE]
 *
 * With --dist, the table of psrs_dists.c instead: PSRS against IPS4o and
 * Boost.Sort on the named key distributions (sort_keys.c) and sizes
 * (default --n), all four contestants or those of --contestants; its CSV has the columns distribution, n_elements,
 * implementation (psrs, ips4o, block_indirect, spreadsort), threads, rep,
 * time_s, shape.
 * The tree is --shape, else SGL_SHAPE, else the discovered machine.
 * Prints one line per repetition and medians with their spread; the CSV
 * (RFC 4180, bench_csv.h) has one row per measurement: shape, ranks,
 * n_elements, implementation (psrs_direct, psrs_routed, psrs_levels (by
 * level, direct), psrs_one_worker,
 * ips4o_parallel, local_sort: PSRS's local sort alone, the function its
 * one worker calls, on the same doubles; local_sort_premapped: the key
 * sort on the doubles mapped to keys before the timer starts; the last
 * four alone in one process), workers, rep (1..R),
 * time_s, root_bytes (bytes the root scattered and gathered) and
 * peak_over_share (the busiest rank's peak memory over its share of the
 * input; psrs_direct and psrs_levels). */
#include <getopt.h>
#include <malloc.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_csv.h"
#include "bench_env.h"
#include "build_info.h"
#include "local_sort.h"
#include "psrs_dists.h"
#include "sort_peers.h"
#include "timing.h"
#include <sgl/algorithms.h>
#include <sgl/sgl_mpi.h>
#include <sgl/exchange.h>
#include <sgl/trace.h>

/* The peers' input, in one process: n doubles in [0, 1) from @seed. */
static void random_doubles(double *x, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        x[i] = (double)(seed >> 11) * 0x1p-53;
    }
}

struct sort_run {
    size_t n;
    uint64_t seed;
    double seconds;
    double root_bytes;
};

static int sort_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    struct sort_run r;
    memcpy(&r, arg, sizeof r);
    sgl_dvec_t *v;
    int rc = sgl_dvec_create(root, SGL_F64, 0, r.n, SGL_FILL_RANDOM, &r.seed,
                             sizeof r.seed, &v);
    if (rc)
        return rc;
    /* Only the sort's supersteps count. */
    double t0 = MPI_Wtime();
    rc = sgl_dvec_sort(root, v, NULL);
    r.seconds = MPI_Wtime() - t0;
    int rc2 = sgl_dvec_free(root, v);
    if (rc || rc2)
        return rc ? rc : rc2;
    return sgl_put(root, &r, sizeof r, 1);
}

/* Resident and peak resident set of this process, bytes. */
static void memory(double *rss, double *hwm)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    *rss = *hwm = 0;
    while (f && fgets(line, sizeof line, f)) {
        double kb;
        if (sscanf(line, "VmRSS: %lf", &kb) == 1)
            *rss = kb * 1024;
        if (sscanf(line, "VmHWM: %lf", &kb) == 1)
            *hwm = kb * 1024;
    }
    if (f)
        fclose(f);
}

/* Forget the peak so far (Linux: "5" to clear_refs resets VmHWM). */
static int reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f)
        return 0;
    int ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok;
}

/* One sort on @rt; the root's time and bytes through the root; this
 * rank's peak over its resident set before the vector was made. */
static int timed_sort(sgl_runtime_t *rt, size_t n, uint64_t seed,
                      struct sort_run *ret, double *ret_peak)
{
    double rss0, hwm;
    memory(&rss0, &hwm);
    int can_peak = reset_peak();
    sgl_trace_clear(rt);
    struct sort_run r = {n, seed, 0, 0};
    int rc = sgl_run(rt, sort_main, &r, sizeof r);
    if (rc)
        return rc;
    double rss1;
    memory(&rss1, &hwm);
    *ret_peak = can_peak ? hwm - rss0 : NAN;
    if (sgl_runtime_rank(rt) == 0) {
        const void *d;
        size_t cnt;
        if ((rc = sgl_run_result(rt, sizeof r, &d, &cnt)))
            return rc;
        memcpy(ret, d, sizeof *ret);
        /* Bytes scattered and gathered by the root's supersteps, the
         * vector's creation and release included, as each is one
         * superstep of the same size in either execution. */
        double bytes = 0;
        sgl_trace_step_t s;
        for (size_t i = 0; i < sgl_trace_steps(rt); i++) {
            if (sgl_trace_step(rt, i, &s) || s.level != 0)
                continue;
            for (unsigned c = 0; c < s.children; c++)
                bytes += (double)s.down_bytes[c] + (double)s.up_bytes[c];
        }
        ret->root_bytes = bytes;
    }
    return SGL_OK;
}

/* Whether a child of the root has several workers: only there does the
 * sort by level differ from the flat one. */
static int splits_by_level(const sgl_machine_t *m)
{
    const sgl_node_t *root = sgl_machine_root(m);
    for (unsigned i = 0; i < sgl_node_arity(root); i++)
        if (sgl_node_workers(sgl_node_child(root, i)) > 1)
            return 1;
    return 0;
}

static void summary(const char *what, double *v, int n, const char *unit)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        lo = fmin(lo, v[i]);
        hi = fmax(hi, v[i]);
    }
    printf("  %-44s %10.3f %-4s (%d runs, spread %.3f .. %.3f)\n", what,
           bench_median(v, n), unit, n, lo, hi);
}

static void csv_row(bench_csv_t *c, const char *shape, int ranks, size_t n,
                    const char *impl, size_t workers, int rep, double t,
                    double root_bytes, double peak_over_share)
{
    bench_csv_str(c, shape);
    bench_csv_int(c, ranks);
    bench_csv_int(c, (long long)n);
    bench_csv_str(c, impl);
    bench_csv_int(c, (long long)workers);
    bench_csv_int(c, rep);
    bench_csv_num(c, t);
    bench_csv_num(c, root_bytes);
    bench_csv_num(c, peak_over_share);
    bench_csv_end(c);
}

static sgl_runtime_t *start(const char *shape)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    sgl_runtime_t *rt = NULL;
    if (sgl_init_comm(MPI_COMM_WORLD, &o, &rt) ||
        sgl_algorithms_register(rt) ||
        sgl_task_register(rt, sort_main, "bench_psrs.sort") ||
        psrs_dists_register(rt)) {
        fprintf(stderr, "bench_psrs: %s\n", sgl_error_last());
        return NULL;
    }
    return rt;
}

/* bench_psrs --dist: the table of psrs_dists.c, then the end of the run. */
static int dists_main(sgl_runtime_t *rt, sgl_runtime_t *one,
                      struct psrs_dists_opts *o, size_t n, int reps,
                      const char *csv_path)
{
    if (!o->nsizes) {
        o->sizes[0] = n;
        o->nsizes = 1;
    }
    o->reps = reps;
    o->csv_path = csv_path;
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    o->shape = sgl_machine_shape(m) ? sgl_machine_shape(m)
                                    : sgl_machine_source(m);
    int rc = psrs_dists_run(rt, o);
    sgl_finalize(one);
    sgl_finalize(rt);
    MPI_Finalize();
    return rc;
}

int main(int argc, char **argv)
{
    bench_default_env();
    size_t n = 10000000;
    int reps = 7;
    const char *shape = getenv("SGL_SHAPE"), *csv_path = NULL;
    struct psrs_dists_opts dists = {.ndists = 0};
    static const struct option longs[] = {{"n", required_argument, 0, 'n'},
                                          {"reps", required_argument, 0, 'r'},
                                          {"shape", required_argument, 0, 's'},
                                          {"csv", required_argument, 0, 'c'},
                                          {"dist", required_argument, 0, 'd'},
                                          {"sizes", required_argument, 0, 'z'},
                                          {"contestants", required_argument, 0,
                                           'k'},
                                          {"help", no_argument, 0, 'h'},
                                          {0, 0, 0, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "n:r:s:c:h", longs, NULL)) != -1) {
        char *end;
        switch (opt) {
        case 'n':
            n = (size_t)strtod(optarg, &end);
            if (*end || n < 1) {
                fprintf(stderr, "bench_psrs: --n '%s' is not a count\n",
                        optarg);
                return 2;
            }
            break;
        case 'r':
            reps = (int)strtol(optarg, &end, 10);
            if (*end || reps < 5) {
                fprintf(stderr, "bench_psrs: --reps must be >= 5\n");
                return 2;
            }
            break;
        case 's':
            shape = optarg;
            break;
        case 'c':
            csv_path = optarg;
            break;
        case 'd':
            if (psrs_dists_parse_dists(optarg, &dists))
                return 2;
            break;
        case 'z':
            if (psrs_dists_parse_sizes(optarg, &dists))
                return 2;
            break;
        case 'k':
            if (psrs_dists_parse_contestants(optarg, &dists))
                return 2;
            break;
        default:
            fprintf(stderr, "usage: bench_psrs [--n N] [--reps R>=5] "
                            "[--shape S] [--csv FILE]\n"
                            "       bench_psrs --dist NAME[,NAME...]|all "
                            "[--sizes N,N...] [--reps R>=5]\n"
                            "                  [--contestants C,C...] "
                            "[--shape S] [--csv FILE]\n");
            return opt == 'h' ? 0 : 2;
        }
    }
    if ((dists.nsizes || dists.contestants) && !dists.ndists) {
        fprintf(stderr, "bench_psrs: --sizes and --contestants need --dist\n");
        return 2;
    }
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    sgl_runtime_t *rt = start(shape && *shape ? shape : NULL);
    sgl_runtime_t *one = size == 1 ? start("core:1") : NULL;
    if (!rt || (size == 1 && !one)) {
        MPI_Finalize();
        return 1;
    }
    if (rank == 0)
        bench_build_print(stdout);
    if (dists.ndists)
        return dists_main(rt, one, &dists, n, reps, csv_path);
    /* Large blocks come from and go back to the system every time: with
     * glibc's adaptive threshold a freed block would stay resident and
     * hide the next sort's peak from the measurement. Not for --dist,
     * which measures no peak: there every sort, IPS4o's included, would
     * fault its buffers in anew on every call, a handicap no standalone
     * program has. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 20);
    size_t P = sgl_machine_workers(sgl_runtime_machine(rt));
    double share = (double)n / (double)P * sizeof(double);
    const sgl_machine_t *tree = sgl_runtime_machine(rt);
    const char *tree_shape = sgl_machine_shape(tree) ? sgl_machine_shape(tree)
                                                     : sgl_machine_source(tree);
    bench_csv_t csv = {NULL, 0};
    char err[512];
    if (rank == 0 && csv_path &&
        bench_csv_open(&csv, csv_path,
                       "shape,ranks,n_elements,implementation,workers,rep,"
                       "time_s,root_bytes,peak_over_share",
                       0, err, sizeof err))
        fprintf(stderr, "bench_psrs: %s\n", err);
    double *t_direct = calloc((size_t)reps, sizeof(double));
    double *t_routed = calloc((size_t)reps, sizeof(double));
    double *t_levels = calloc((size_t)reps, sizeof(double));
    double *r_levels = calloc((size_t)reps, sizeof(double));
    double *peak_levels = calloc((size_t)reps, sizeof(double));
    int levels = splits_by_level(tree);
    double *t_one = calloc((size_t)reps, sizeof(double));
    double *t_ips = calloc((size_t)reps, sizeof(double));
    double *t_local = calloc((size_t)reps, sizeof(double));
    double *r_local = calloc((size_t)reps, sizeof(double));
    double *t_keys = calloc((size_t)reps, sizeof(double));
    double *r_keys = calloc((size_t)reps, sizeof(double));
    double *r_speed = calloc((size_t)reps, sizeof(double));
    double *r_ips = calloc((size_t)reps, sizeof(double));
    double *r_route = calloc((size_t)reps, sizeof(double));
    double *peak = calloc((size_t)reps, sizeof(double));
    double *peak_all = calloc(2 * (size_t)size, sizeof(double));
    double root_direct = 0, root_routed = 0, root_levels = 0;
    double *buf = size == 1 ? malloc(n * sizeof *buf) : NULL;
    if (rank == 0)
        printf("PSRS of %zu random doubles on %s (%zu workers, %d ranks); "
               "medians of %d\n",
               n, sgl_machine_source(sgl_runtime_machine(rt)), P, size, reps);
    int rc = SGL_OK;
    double t_begin = MPI_Wtime();
    for (int k = 0; k < reps && !rc; k++) {
        uint64_t seed = 1000 + (uint64_t)k;
        struct sort_run d = {0}, r = {0}, o = {0}, lv = {0};
        double pk = 0, pr = 0, po = 0, pl = 0;
        /* Alternate the order, so that a drift of the machine does not
         * favour one: by level first in odd repetitions, last in even
         * ones. Only the root's process reads SGL_SORT. */
        for (int j = 0; j < 3 && !rc; j++) {
            int level_now = j == (k % 2 == 0 ? 2 : 0);
            if (level_now && !levels)
                continue;
            int direct_now = level_now || (j == 1) == (k % 2 == 0);
            setenv("SGL_SORT", level_now ? "levels" : "flat", 1);
            sgl_runtime_set_exchange(rt, UINT32_MAX,
                                     direct_now ? SGL_EXCHANGE_DIRECT
                                                : SGL_EXCHANGE_ROUTED);
            rc = timed_sort(rt, n, seed,
                            level_now    ? &lv
                            : direct_now ? &d
                                         : &r,
                            level_now    ? &pl
                            : direct_now ? &pk
                                         : &pr);
        }
        sgl_runtime_set_exchange(rt, UINT32_MAX, SGL_EXCHANGE_AUTO);
        setenv("SGL_SORT", "flat", 1);
        if (!rc && one)
            rc = timed_sort(one, n, seed, &o, &po);
        double ips = NAN;
        if (!rc && buf) {
            random_doubles(buf, n, seed);
            double t0 = MPI_Wtime();
            bench_peer_ips4o(buf, n, (int)P);
            ips = MPI_Wtime() - t0;
        }
        /* PSRS's local sort alone, the function its one worker calls, on
         * the same doubles: what one worker's PSRS costs beyond it is the
         * runtime's share. And the key sort on the values mapped to keys
         * before the timer starts: beyond that, the mapping's share too.
         * The two alternate their order. */
        double local = NAN, keys = NAN;
        for (int j = 0; j < 2 && !rc && buf; j++) {
            int values_now = (j == 0) == (k % 2 == 0);
            uint64_t *key = (uint64_t *)(void *)buf;
            random_doubles(buf, n, seed);
            for (size_t i = 0; !values_now && i < n; i++) {
                uint64_t b;
                memcpy(&b, &buf[i], sizeof b);
                b = sgl__key_f64(b);
                memcpy(&buf[i], &b, sizeof b);
            }
            double t0 = MPI_Wtime();
            rc = values_now ? sgl__algo_sort_f64(key, n)
                            : sgl__algo_sort_u64(key, n);
            *(values_now ? &local : &keys) = MPI_Wtime() - t0;
        }
        if (rc)
            break;
        MPI_Gather(&pk, 1, MPI_DOUBLE, peak_all, 1, MPI_DOUBLE, 0,
                   MPI_COMM_WORLD);
        MPI_Gather(&pl, 1, MPI_DOUBLE, peak_all + size, 1, MPI_DOUBLE, 0,
                   MPI_COMM_WORLD);
        if (rank != 0)
            continue;
        /* Over the rank's share: its workers' part of the input. */
        double rank_share = share * (double)(P / (size_t)size);
        double worst = 0, worst_levels = 0;
        for (int i = 0; i < size; i++) {
            worst = fmax(worst, peak_all[i] / rank_share);
            worst_levels = fmax(worst_levels, peak_all[size + i] / rank_share);
        }
        t_direct[k] = d.seconds;
        t_routed[k] = r.seconds;
        r_route[k] = r.seconds / d.seconds;
        peak[k] = worst;
        root_direct = d.root_bytes;
        root_routed = r.root_bytes;
        if (levels) {
            t_levels[k] = lv.seconds;
            r_levels[k] = lv.seconds / d.seconds;
            peak_levels[k] = worst_levels;
            root_levels = lv.root_bytes;
        }
        if (one) {
            t_one[k] = o.seconds;
            t_ips[k] = ips;
            t_local[k] = local;
            r_local[k] = o.seconds / local;
            t_keys[k] = keys;
            r_keys[k] = o.seconds / keys;
            r_speed[k] = o.seconds / d.seconds;
            r_ips[k] = ips / d.seconds;
        }
        double spent = MPI_Wtime() - t_begin;
        fprintf(stderr, "bench_psrs: rep %d of %d: direct %.1f ms, routed "
                        "%.1f ms; ETA %.0f s\n",
                k + 1, reps, 1e3 * d.seconds, 1e3 * r.seconds,
                bench_eta(spent, k + 1, reps));
        csv_row(&csv, tree_shape, size, n, "psrs_direct", P, k + 1,
                d.seconds, d.root_bytes, worst);
        csv_row(&csv, tree_shape, size, n, "psrs_routed", P, k + 1,
                r.seconds, r.root_bytes, NAN);
        if (levels)
            csv_row(&csv, tree_shape, size, n, "psrs_levels", P, k + 1,
                    lv.seconds, lv.root_bytes, worst_levels);
        if (one) {
            csv_row(&csv, tree_shape, size, n, "psrs_one_worker", 1, k + 1,
                    o.seconds, o.root_bytes, NAN);
            csv_row(&csv, tree_shape, size, n, "ips4o_parallel", P, k + 1,
                    ips, NAN, NAN);
            csv_row(&csv, tree_shape, size, n, "local_sort", 1, k + 1, local,
                    NAN, NAN);
            csv_row(&csv, tree_shape, size, n, "local_sort_premapped", 1,
                    k + 1, keys, NAN, NAN);
        }
    }
    if (rank == 0 && !rc) {
        summary("PSRS, direct exchange (psrs_direct)", t_direct, reps, "s");
        summary("PSRS, routed exchange (psrs_routed)", t_routed, reps, "s");
        summary("routed / direct (x faster direct)", r_route, reps, "x");
        if (levels) {
            summary("PSRS by level, direct (psrs_levels)", t_levels, reps, "s");
            summary("by level / flat (x slower by level)", r_levels, reps, "x");
            summary("peak memory / share, busiest rank (by level)", peak_levels,
                    reps, "x");
        }
        if (one) {
            summary("PSRS on one worker (psrs_one_worker)", t_one, reps, "s");
            summary("its local sort alone (local_sort)", t_local, reps, "s");
            summary("one worker / local sort (x slower)", r_local, reps, "x");
            summary("premapped keys (local_sort_premapped)", t_keys, reps,
                    "s");
            summary("one worker / premapped keys (x slower)", r_keys, reps,
                    "x");
            summary("IPS4o parallel sort (ips4o_parallel)", t_ips, reps, "s");
            summary("one worker / direct (speed-up)", r_speed, reps, "x");
            summary("IPS4o / direct (x faster PSRS)", r_ips, reps, "x");
        }
        summary("peak memory / share, busiest rank (direct)", peak, reps,
                "x");
        printf("  bytes through the root: direct %.0f, routed %.0f "
               "(%.2f%%)",
               root_direct, root_routed,
               root_routed > 0 ? 100 * root_direct / root_routed : 0);
        if (levels)
            printf(", by level %.0f", root_levels);
        printf("\n");
    }
    if (rc && rank == 0)
        fprintf(stderr, "bench_psrs: %s\n", sgl_error_last());
    if (bench_csv_close(&csv)) {
        fprintf(stderr, "bench_psrs: cannot write %s\n", csv_path);
        rc = rc ? rc : SGL_EIO;
    }
    free(buf);
    double *arrays[] = {t_direct, t_routed, t_one,    t_ips,
                        t_local,  t_keys,   r_speed,  r_ips,
                        r_route,  r_local,  r_keys,   peak,
                        peak_all, t_levels, r_levels, peak_levels};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
        free(arrays[i]);
    sgl_finalize(one);
    sgl_finalize(rt);
    MPI_Finalize();
    return rc ? 1 : 0;
}
