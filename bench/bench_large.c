/* Memory at scale: one algorithm on a large distributed
 * f64 vector made by the library's fill, on a 1 x 2 thread tree (core:2,
 * or SGL_SHAPE with one master level), then a cheap check of the result
 * and the growth of the peak resident set over what was resident before
 * the algorithm ran, as a multiple of the input's bytes. The bounds of the
 * algorithms issue: reduce and scan need ~0 beyond input and output, PSRS
 * at most ~2x the input beyond the input.
 *   bench_large reduce|scan|psrs [N]      N defaults to 5e8 (4 GB)
 * Checks: reduce of iota against n(n-1)/2; scan of iota (reduce-first,
 * inclusive) at 64 positions per worker against i(i+1)/2; sort of random
 * values: a full sortedness pass on every worker, the block boundaries,
 * 64 sampled positions per worker in order, the counts, and the sum
 * before and after. Not run by any test or script: it needs memory and
 * minutes. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bench_env.h"
#include <sgl/algorithms.h>
#include <sgl/sgl.h>
#include <sgl/blocks.h>

enum { K = 64 }; /* samples per worker */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double max_rss_bytes(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return 1024.0 * (double)u.ru_maxrss;
}

struct look_arg {
    uint32_t id;
};

/* On a worker: [count, first, sorted, K x (local index, value)]. */
static int look_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct look_arg *a = arg;
    void *data;
    size_t count, first;
    int rc = sgl_dvec_local(ctx, a->id, &data, &count, &first);
    if (rc)
        return rc;
    const double *x = data;
    uint64_t *out;
    if ((rc = sgl_put_buffer(ctx, sizeof *out, 3 + 2 * K, (void **)&out)))
        return rc;
    uint64_t sorted = 1;
    for (size_t i = 1; i < count && sorted; i++)
        sorted = x[i - 1] <= x[i];
    out[0] = count;
    out[1] = first;
    out[2] = sorted;
    for (size_t j = 0; j < K; j++) {
        size_t i = count ? j * (count - 1) / (K - 1) : 0;
        out[3 + 2 * j] = i;
        double v = count ? x[i] : NAN;
        memcpy(&out[4 + 2 * j], &v, 8);
    }
    return SGL_OK;
}

struct job {
    int algo; /* 0 reduce, 1 scan, 2 psrs */
    size_t n;
};

static double t_alg, rss_before, rss_after;
static char verdict[512];

static int fail(const char *fmt, double a, double b)
{
    snprintf(verdict, sizeof verdict, fmt, a, b);
    return sgl_error_set(SGL_ETASK, "%s", verdict);
}

static int near(double got, double want)
{
    return fabs(got - want) <= 1e-6 * fabs(want) + 1e-6;
}

/* Look at every worker's block of @v; the words go to @w (P entries of
 * 3 + 2K). */
static int look(sgl_ctx_t *root, const sgl_dvec_t *v, uint64_t *w)
{
    struct look_arg a = {sgl_dvec_id(v)};
    size_t p = sgl_ctx_workers(root);
    int rc = sgl_pardo(root, look_task, &a, sizeof a);
    return rc ? rc : sgl_gather(root, w, sizeof *w, p * (3 + 2 * K), NULL);
}

static int large_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    size_t n = j->n, p = sgl_ctx_workers(root);
    if (sgl_ctx_children(root) != p)
        return sgl_error_set(SGL_EINVAL, "bench_large: needs a tree of one "
                                         "master level (e.g. core:2)");
    uint64_t *w = malloc(p * (3 + 2 * K) * 8);
    if (!w)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    sgl_dvec_t *in = NULL, *out = NULL;
    uint64_t seed = 12345;
    int rc = j->algo == 2
                 ? sgl_dvec_create(root, SGL_F64, 0, n, SGL_FILL_RANDOM,
                                   &seed, sizeof seed, &in)
                 : sgl_dvec_create(root, SGL_F64, 0, n, SGL_FILL_IOTA, NULL,
                                   0, &in);
    if (!rc && j->algo == 1)
        rc = sgl_dvec_create(root, SGL_F64, 0, n, SGL_FILL_NONE, NULL, 0,
                             &out);
    double sum0 = 0, r = 0, t;
    if (!rc && j->algo == 2)
        rc = sgl_dvec_reduce(root, in, SGL_OP_SUM, 0, &sum0);
    rss_before = max_rss_bytes();
    t = now();
    if (!rc) {
        if (j->algo == 0)
            rc = sgl_dvec_reduce(root, in, SGL_OP_SUM, 0, &r);
        else if (j->algo == 1)
            rc = sgl_dvec_scan(root, in, out, SGL_OP_SUM,
                               SGL_SCAN_INCLUSIVE | SGL_SCAN_REDUCE_FIRST);
        else
            rc = sgl_dvec_sort(root, in, NULL);
    }
    t_alg = now() - t;
    rss_after = max_rss_bytes();
    double nd = (double)n;
    if (!rc && j->algo == 0 && !near(r, nd * (nd - 1) / 2))
        rc = fail("reduce: %.17g, expected %.17g", r, nd * (nd - 1) / 2);
    if (!rc && j->algo == 1 && !(rc = look(root, out, w)))
        for (size_t s = 0; !rc && s < p; s++) {
            const uint64_t *b = w + s * (3 + 2 * K);
            for (size_t k = 0; !rc && k < K && b[0]; k++) {
                double i = (double)(b[1] + b[3 + 2 * k]), y;
                memcpy(&y, &b[4 + 2 * k], 8);
                if (!near(y, i * (i + 1) / 2))
                    rc = fail("scan: %.17g at a position where i(i+1)/2 = "
                              "%.17g",
                              y, i * (i + 1) / 2);
            }
        }
    if (!rc && j->algo == 2 && !(rc = look(root, in, w))) {
        double prev = -INFINITY, total = 0;
        for (size_t s = 0; !rc && s < p; s++) {
            const uint64_t *b = w + s * (3 + 2 * K);
            total += (double)b[0];
            if (!b[2])
                rc = fail("sort: worker %.0f's block is not sorted (%.0f)",
                          (double)s, 0);
            for (size_t k = 0; !rc && k < K && b[0]; k++) {
                double y;
                memcpy(&y, &b[4 + 2 * k], 8);
                if (y < prev)
                    rc = fail("sort: sample %.17g after %.17g", y, prev);
                prev = y;
            }
        }
        if (!rc && total != nd)
            rc = fail("sort: blocks hold %.0f of %.0f", total, nd);
        double sum1 = 0;
        if (!rc)
            rc = sgl_dvec_reduce(root, in, SGL_OP_SUM, 0, &sum1);
        if (!rc && !near(sum1, sum0))
            rc = fail("sort: sum %.17g after, %.17g before", sum1, sum0);
    }
    if (!rc)
        snprintf(verdict, sizeof verdict, "ok");
    int rc2 = sgl_dvec_free(root, out);
    int rc3 = sgl_dvec_free(root, in);
    free(w);
    return rc ? rc : rc2 ? rc2 : rc3;
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"reduce", "scan", "psrs"};
    struct job j = {-1, 500000000};
    for (int a = 0; argc > 1 && a < 3; a++)
        if (strcmp(argv[1], names[a]) == 0)
            j.algo = a;
    if (argc > 2) {
        char *end;
        double v = strtod(argv[2], &end);
        if (*end || !(v >= 1 && v <= 1e12))
            j.algo = -1;
        j.n = (size_t)v;
    }
    if (j.algo < 0 || argc > 3) {
        fprintf(stderr, "usage: bench_large reduce|scan|psrs [N]  (N "
                        "default 5e8 doubles)\n");
        return 2;
    }
    bench_default_env();
    sgl_opts_t o;
    bench_default_opts(&o);
    o.trace = 0;
    sgl_runtime_t *rt;
    int rc = sgl_init(&argc, &argv, &o, &rt);
    if (!rc)
        rc = sgl_algorithms_register(rt);
    if (!rc)
        rc = sgl_task_register(rt, look_task, "bench_large.look");
    if (rc) {
        fprintf(stderr, "bench_large: %s\n", sgl_error_last());
        return 1;
    }
    bench_warn(rt, "bench_large");
    double rss0 = max_rss_bytes();
    rc = sgl_run(rt, large_main, &j, sizeof j);
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    if (sgl_runtime_rank(rt) == 0) {
        double in = 8.0 * (double)j.n, gb = 1e-9;
        double own = j.algo == 1 ? 2 * in : in; /* input (+ output) */
        printf("bench_large %s n=%zu on %s (%zu workers): input %.2f GB%s\n",
               names[j.algo], j.n, sgl_machine_source(m),
               sgl_machine_workers(m), in * gb,
               j.algo == 1 ? ", output as much" : "");
        printf("  time %.2f s (%.2f ns/element)\n", t_alg,
               1e9 * t_alg / (double)j.n);
        printf("  max RSS: %.2f GB at start, %.2f GB with the data, %.2f GB "
               "peak\n",
               rss0 * gb, rss_before * gb, rss_after * gb);
        printf("  growth during the algorithm: %.3f GB = %.3f x input "
               "(resident before it: %.3f x input%s)\n",
               (rss_after - rss_before) * gb,
               (rss_after - rss_before) / in, (rss_before - rss0) / own,
               j.algo == 1 ? " + output" : "");
        printf("  check: %s\n", rc ? sgl_error_last() : verdict);
    }
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
