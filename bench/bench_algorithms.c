/* The reference algorithms against the strongest peers on this machine,
 * measured in the same run, medians of TRIALS runs:
 *
 *   reduction  sum of n = 1e8 distributed doubles on 1 x 2 threads
 *              vs `omp parallel for simd reduction(+)` over one array
 *              vs the measured memory read bandwidth bound
 *   scan       inclusive sum of n = 1e8 doubles, both SGL variants
 *              vs a hand two-pass OpenMP scan and GCC `#pragma omp scan`
 *   PSRS       n = 1e7 random doubles on 2 workers
 *              vs __gnu_parallel::sort (2 threads) and std::sort (1 thread)
 *   memory     max RSS growth of the PSRS phase / input bytes
 *
 * Ratios are peer time / SGL time (>= goal passes). The tree is SGL_SHAPE
 * if set, else "core:2". OMP_WAIT_POLICY defaults to PASSIVE (docs/guide.md:
 * busy-waiting threads steal the 2 cores); the peers' parallel regions use
 * the same OpenMP runtime and thread count. Table on stdout, progress on
 * stderr. Usage: bench_algorithms [--quick] */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_env.h"
#include "peer_scan.h"
#include "stream_read.h"
#include "timing.h"

#include <sgl/algorithms.h>
#include <sgl/blocks.h>

enum { TRIALS = 5 };

void bench_peer_gnu_parallel_sort(double *x, size_t n, int threads);
void bench_peer_std_sort(double *x, size_t n);

static long max_rss_kb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

static uint64_t mix(uint64_t x)
{
    uint64_t z = x + 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

struct cfg {
    size_t n_reduce, n_scan, n_sort;
    int threads;
};

struct row {
    char what[48], peer[40];
    size_t n;
    double sgl, other, goal;
};
static struct row rows[16];
static int nrows;
static long sort_rss_kb;
static size_t sort_max_block, sort_workers;

static void add_row(const char *what, const char *peer, size_t n, double sgl,
                    double other, double goal)
{
    struct row *r = &rows[nrows++];
    snprintf(r->what, sizeof r->what, "%s", what);
    snprintf(r->peer, sizeof r->peer, "%s", peer);
    r->n = n;
    r->sgl = sgl;
    r->other = other;
    r->goal = goal;
    fprintf(stderr, "  %s: SGL %.2f ms, %s %.2f ms\n", what, sgl * 1e3, peer,
            other * 1e3);
}

/* Peer arrays are first-touched by the same static schedule that reads
 * them, as the SGL workers first-touch their blocks, and on the pages the
 * library's blocks get (sgl_mem_alloc()). */
static double *peer_array(size_t n, uint64_t seed)
{
    double *x = sgl_mem_alloc(n * sizeof *x);
    if (!x)
        return NULL;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        x[i] = (double)(mix(seed ^ (i * 0xd1342543de82ef95u)) >> 11) *
               0x1p-53;
    return x;
}

static double sink;

static int bench_reduce(sgl_ctx_t *root, const struct cfg *c)
{
    size_t n = c->n_reduce;
    fprintf(stderr, "reduction, n = %zu\n", n);
    uint64_t seed = 1;
    sgl_dvec_t *v;
    int rc = sgl_dvec_create(root, SGL_F64, 0, n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &v);
    if (rc)
        return rc;
    double t[TRIALS], p[TRIALS], bw[TRIALS], s = 0;
    double *x = peer_array(n, seed);
    if (!x) {
        sgl_dvec_free(root, v);
        return sgl_error_set(SGL_ENOMEM, "peer array");
    }
    /* SGL and peers alternate within each trial, so that a change of the
     * machine's load moves both sides of a ratio alike. */
    const uint64_t *u = (const uint64_t *)x;
    for (int k = 0; k < TRIALS && !rc; k++) {
        double t0 = bench_now();
        rc = sgl_dvec_reduce(root, v, SGL_OP_SUM, 0, &s);
        t[k] = bench_now() - t0;
        t0 = bench_now();
        double ps = 0;
#pragma omp parallel for simd reduction(+ : ps) schedule(static)
        for (size_t i = 0; i < n; i++)
            ps += x[i];
        p[k] = bench_now() - t0;
        sink += ps;
        /* Read bandwidth: the cheapest full read of the same bytes. */
        t0 = bench_now();
        uint64_t acc = bench_stream_read(u, n, c->threads);
        bw[k] = bench_now() - t0;
        sink += (double)acc;
    }
    sgl_dvec_free(root, v);
    if (rc) {
        free(x);
        return rc;
    }
    free(x);
    double ts = bench_median(t, TRIALS);
    add_row("reduce sum f64 (distributed)", "omp simd reduction(+)", n, ts,
            bench_median(p, TRIALS), 0.9);
    add_row("reduce sum f64 (distributed)", "memory read bound", n, ts,
            bench_median(bw, TRIALS), 1 / 1.25);
    fprintf(stderr, "  read bandwidth %.2f GB/s\n",
            (double)n * 8 / bench_median(bw, TRIALS) / 1e9);
    return SGL_OK;
}

/* GCC warns about its own inscan temporaries (a false positive). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
static void scan_omp(const double *x, double *y, size_t n)
{
    double s = 0;
#pragma omp parallel for reduction(inscan, + : s)
    for (size_t i = 0; i < n; i++) {
        s += x[i];
#pragma omp scan inclusive(s)
        y[i] = s;
    }
}
#pragma GCC diagnostic pop

static int bench_scan(sgl_ctx_t *root, const struct cfg *c)
{
    size_t n = c->n_scan;
    fprintf(stderr, "scan, n = %zu\n", n);
    uint64_t seed = 2;
    sgl_dvec_t *in, *out;
    int rc = sgl_dvec_create(root, SGL_F64, 0, n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &in);
    if (rc)
        return rc;
    rc = sgl_dvec_create(root, SGL_F64, 0, n, SGL_FILL_NONE, NULL, 0, &out);
    double tr[TRIALS], tl[TRIALS], p2[TRIALS], po[TRIALS];
    double *x = peer_array(n, seed), *y = peer_array(n, 3);
    if (!x || !y)
        rc = sgl_error_set(SGL_ENOMEM, "peer arrays");
    for (int k = 0; k < TRIALS && !rc; k++) {
        double t0 = bench_now();
        rc = sgl_dvec_scan(root, in, out, SGL_OP_SUM, SGL_SCAN_REDUCE_FIRST);
        tr[k] = bench_now() - t0;
        t0 = bench_now();
        if (!rc)
            rc = sgl_dvec_scan(root, in, out, SGL_OP_SUM,
                               SGL_SCAN_LOCAL_FIRST);
        tl[k] = bench_now() - t0;
        t0 = bench_now();
        bench_scan_two_pass(x, y, n, c->threads, 0);
        p2[k] = bench_now() - t0;
        sink += y[n - 1];
        t0 = bench_now();
        scan_omp(x, y, n);
        po[k] = bench_now() - t0;
        sink += y[n - 1];
    }
    sgl_dvec_free(root, in);
    sgl_dvec_free(root, out);
    if (rc) {
        free(x);
        free(y);
        return rc;
    }
    free(x);
    free(y);
    double r = bench_median(tr, TRIALS), l = bench_median(tl, TRIALS);
    add_row("scan sum f64, reduce-first", "hand two-pass OpenMP", n, r,
            bench_median(p2, TRIALS), 0.9);
    add_row("scan sum f64, reduce-first", "GCC omp scan", n, r,
            bench_median(po, TRIALS), 0.9);
    add_row("scan sum f64, local-first", "hand two-pass OpenMP", n, l,
            bench_median(p2, TRIALS), 0.9);
    add_row("scan sum f64, local-first", "GCC omp scan", n, l,
            bench_median(po, TRIALS), 0.9);
    return SGL_OK;
}

static int bench_sort(sgl_ctx_t *root, const struct cfg *c)
{
    size_t n = c->n_sort;
    fprintf(stderr, "PSRS, n = %zu\n", n);
    double t[TRIALS], g[TRIALS], s[TRIALS];
    int rc = SGL_OK;
    long base = max_rss_kb();
    for (int k = 0; k < TRIALS && !rc; k++) {
        uint64_t seed = 10 + (uint64_t)k;
        sgl_dvec_t *v;
        rc = sgl_dvec_create(root, SGL_F64, 0, n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &v);
        sgl_sort_stats_t st;
        double t0 = bench_now();
        if (!rc)
            rc = sgl_dvec_sort(root, v, &st);
        t[k] = bench_now() - t0;
        sort_max_block = st.max_block;
        sort_workers = st.workers;
        sgl_dvec_free(root, v);
    }
    sort_rss_kb = max_rss_kb() - base;
    if (rc)
        return rc;
    double *x = sgl_mem_alloc(n * sizeof *x);
    if (!x)
        return sgl_error_set(SGL_ENOMEM, "peer array");
    for (int k = 0; k < TRIALS; k++) {
        for (size_t i = 0; i < n; i++)
            x[i] = (double)(mix((uint64_t)k ^ (i * 0xd1342543de82ef95u)) >>
                            11) *
                   0x1p-53;
        double t0 = bench_now();
        bench_peer_gnu_parallel_sort(x, n, c->threads);
        g[k] = bench_now() - t0;
        for (size_t i = 0; i < n; i++)
            x[i] = (double)(mix((uint64_t)k ^ (i * 0xd1342543de82ef95u)) >>
                            11) *
                   0x1p-53;
        t0 = bench_now();
        bench_peer_std_sort(x, n);
        s[k] = bench_now() - t0;
    }
    free(x);
    double ts = bench_median(t, TRIALS);
    add_row("PSRS f64", "__gnu_parallel::sort", n, ts, bench_median(g, TRIALS),
            1.0);
    add_row("PSRS f64", "std::sort, 1 thread", n, ts, bench_median(s, TRIALS), 1.6);
    return SGL_OK;
}

static int program(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct cfg *c = arg;
    /* PSRS first: its RSS growth is then its own. */
    int rc = bench_sort(root, c);
    if (!rc)
        rc = bench_reduce(root, c);
    if (!rc)
        rc = bench_scan(root, c);
    return rc;
}

int main(int argc, char **argv)
{
    struct cfg c = {100000000, 100000000, 10000000, 2};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            c.n_reduce = c.n_scan = 4000000;
            c.n_sort = 1000000;
        } else {
            fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
            return 2;
        }
    }
    bench_default_env();
    sgl_opts_t o;
    bench_default_opts(&o);
    sgl_runtime_t *rt;
    int rc = sgl_init(&argc, &argv, &o, &rt);
    if (!rc)
        rc = sgl_algorithms_register(rt);
    if (rc) {
        fprintf(stderr, "bench_algorithms: %s\n", sgl_error_last());
        return 1;
    }
    bench_warn(rt, "bench_algorithms");
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    c.threads = (int)sgl_machine_workers(m);
    omp_set_num_threads(c.threads);
    if (sgl_runtime_rank(rt) == 0)
        fprintf(stderr, "tree: %s, %zu workers; OMP_WAIT_POLICY=%s\n",
                sgl_machine_source(m), sgl_machine_workers(m),
                getenv("OMP_WAIT_POLICY"));
    rc = sgl_run(rt, program, &c, sizeof c);
    if (rc) {
        fprintf(stderr, "bench_algorithms: %s\n", sgl_error_last());
        sgl_finalize(rt);
        return 1;
    }
    if (sgl_runtime_rank(rt) == 0) {
        printf("%-30s %-24s %11s %10s %10s %7s %6s %s\n", "benchmark",
               "peer", "n", "SGL ms", "peer ms", "ratio", "goal", "");
        for (int i = 0; i < nrows; i++) {
            struct row *r = &rows[i];
            double ratio = r->other / r->sgl;
            printf("%-30s %-24s %11zu %10.2f %10.2f %7.3f %6.2f %s\n",
                   r->what, r->peer, r->n, r->sgl * 1e3, r->other * 1e3, ratio,
                   r->goal, ratio >= r->goal ? "ok" : "MISSED");
        }
        printf("ratio = peer time / SGL time (for the bound: bound time / SGL "
               "time, goal 1/1.25)\n");
        double in_kb = (double)c.n_sort * 8 / 1024;
        printf("PSRS: largest partition %zu = %.4f n/P on P=%zu; max RSS "
               "growth %.1f MiB = %.2fx input (goal <= 3)\n",
               sort_max_block,
               (double)sort_max_block * (double)sort_workers /
                   (double)c.n_sort,
               sort_workers, (double)sort_rss_kb / 1024,
               (double)sort_rss_kb / in_kb);
        printf("max RSS of the whole run: %.1f MiB\n",
               (double)max_rss_kb() / 1024);
    }
    sgl_finalize(rt);
    return sink == 12345.678 ? 3 : 0;
}
