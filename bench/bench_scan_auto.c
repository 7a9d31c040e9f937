/* Does SGL_SCAN_AUTO pick the faster scan? For n = 1e4 .. 1e8 doubles on
 * the tree SGL_SHAPE (default "core:2", as bench_algorithms), with the
 * machine file of that tree (from sgl-probe with the same SGL_SHAPE), each
 * point:
 *
 *   - the model's prices of both variants (sgl_predict_algorithm(), "scan"
 *     for local-first, "scan-rts" for reduce-first) and its pick
 *     (sgl_scan_variant() with SGL_SCAN_AUTO, as the scan resolves it);
 *   - both variants measured: T paired trials, local-first and
 *     reduce-first one after the other in alternating order, each run
 *     from cold caches as sgl-probe measured the kernels (--warm: without
 *     the flush, the input in cache where it fits); medians with their
 *     interquartile range; then AUTO itself (its time includes the
 *     pricing);
 *   - which variant was faster, and whether the pick was.
 *
 * A point is a tie, where either pick counts as right, unless at least
 * 3/4 of the paired trials agree on the faster variant and the medians
 * differ by at least 1%: on this shared 2-core host the load of other
 * programs moves single runs by more than the variants differ at small n.
 * Table and summary ("pick right in k of N points") on stdout, progress
 * on stderr.
 * Usage: bench_scan_auto --machine FILE [--quick] [--warm]
 *        (--quick: n <= 1e6) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_env.h"
#include "flush_task.h"
#include "timing.h"

#include <sgl/algorithms.h>
#include <sgl/predict.h>
#include <sgl/trace.h>

#define MAX_TRIALS 21
#define MAX_POINTS 16

struct point {
    size_t n;
    int trials;
    double pred_lf, pred_rf; /* seconds; NAN if the file cannot price */
    unsigned pick;
    double lf[MAX_TRIALS], rf[MAX_TRIALS], au[MAX_TRIALS];
};

static struct point points[MAX_POINTS];
static int npoints;
static int warm; /* --warm: no cache flush before a run */

/* More trials where a run is short and the noise relatively large. */
static int trials_for(size_t n)
{
    return n <= 1000000 ? MAX_TRIALS : n <= 10000000 ? 11 : 7;
}


/* One timed scan, from cold caches unless --warm (@flush 0). */
static int timed_scan(sgl_ctx_t *root, const sgl_dvec_t *in, sgl_dvec_t *out,
                      unsigned flags, size_t flush, double *ret)
{
    int rc = flush ? bench_flush_task(root, &flush, sizeof flush) : SGL_OK;
    if (rc)
        return rc;
    double t0 = bench_now();
    rc = sgl_dvec_scan(root, in, out, SGL_OP_SUM, flags);
    *ret = bench_now() - t0;
    return rc;
}

static int measure(sgl_ctx_t *root, struct point *p)
{
    const sgl_machine_t *m = sgl_ctx_params(root);
    sgl_prediction_t lf, rf;
    p->pred_lf = p->pred_rf = NAN;
    if (m && !sgl_predict_algorithm(m, SGL_PREDICT_SCAN, (double)p->n, NULL,
                                    &lf) &&
        !sgl_predict_algorithm(m, SGL_PREDICT_SCAN_RTS, (double)p->n, NULL,
                               &rf)) {
        p->pred_lf = lf.total;
        p->pred_rf = rf.total;
    }
    int rc = sgl_scan_variant(root, p->n, SGL_SCAN_AUTO, &p->pick);
    uint64_t seed = 2;
    sgl_dvec_t *in = NULL, *out = NULL;
    if (!rc)
        rc = sgl_dvec_create(root, SGL_F64, 0, p->n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &in);
    if (!rc)
        rc = sgl_dvec_create(root, SGL_F64, 0, p->n, SGL_FILL_NONE, NULL, 0,
                             &out);
    size_t workers = sgl_ctx_workers(root);
    size_t flush = warm ? 0 : bench_flush_bytes(workers);
    double t;
    /* Warm-up: the output's pages are touched once, by both variants. */
    if (!rc)
        rc = timed_scan(root, in, out, SGL_SCAN_LOCAL_FIRST, flush, &t);
    if (!rc)
        rc = timed_scan(root, in, out, SGL_SCAN_REDUCE_FIRST, flush, &t);
    for (int k = 0; k < p->trials && !rc; k++) {
        int lf_first = k % 2 == 0;
        rc = timed_scan(root, in, out,
                        lf_first ? SGL_SCAN_LOCAL_FIRST : SGL_SCAN_REDUCE_FIRST,
                        flush, lf_first ? &p->lf[k] : &p->rf[k]);
        if (!rc)
            rc = timed_scan(root, in, out,
                            lf_first ? SGL_SCAN_REDUCE_FIRST
                                     : SGL_SCAN_LOCAL_FIRST,
                            flush, lf_first ? &p->rf[k] : &p->lf[k]);
        if (!rc)
            rc = timed_scan(root, in, out, SGL_SCAN_AUTO, flush, &p->au[k]);
    }
    size_t none = 0;
    int r2 = bench_flush_task(root, &none, sizeof none);
    rc = rc ? rc : r2;
    r2 = out ? sgl_dvec_free(root, out) : SGL_OK;
    rc = rc ? rc : r2;
    r2 = in ? sgl_dvec_free(root, in) : SGL_OK;
    return rc ? rc : r2;
}

static int program(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    int rc = SGL_OK;
    double start = bench_now();
    for (int i = 0; i < npoints && !rc; i++) {
        fprintf(stderr, "[%d/%d] n = %zu, %d trials", i + 1, npoints,
                points[i].n, points[i].trials);
        if (i > 0)
            fprintf(stderr, ", %.0f s so far", bench_now() - start);
        fprintf(stderr, "\n");
        rc = measure(root, &points[i]);
    }
    return rc;
}

static const char *name(unsigned variant)
{
    return variant == SGL_SCAN_LOCAL_FIRST ? "local" : "reduce";
}

/* Quartile @q (0.25, 0.5, 0.75) of v[0..n), linear between ranks; sorts
 * a copy. */
static double quartile(const double *v, int n, double q)
{
    double s[MAX_TRIALS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, bench_cmp_double);
    double r = q * (n - 1);
    int lo = (int)r;
    return lo + 1 < n ? s[lo] + (r - lo) * (s[lo + 1] - s[lo]) : s[lo];
}

/* The faster variant by the tie rule of the file's comment; 0: a tie.
 * @ret_wins: the paired trials local-first won. */
static unsigned faster(const struct point *p, int *ret_wins)
{
    int wins = 0;
    for (int k = 0; k < p->trials; k++)
        wins += p->lf[k] < p->rf[k];
    *ret_wins = wins;
    double ml = quartile(p->lf, p->trials, 0.5);
    double mr = quartile(p->rf, p->trials, 0.5);
    int need = (3 * p->trials + 3) / 4;
    if (fabs(ml - mr) < 0.01 * fmin(ml, mr))
        return 0;
    if (ml < mr && wins >= need)
        return SGL_SCAN_LOCAL_FIRST;
    if (mr < ml && p->trials - wins >= need)
        return SGL_SCAN_REDUCE_FIRST;
    return 0;
}

static void report(const char *tree, const char *file)
{
    printf("scan sum f64 on %s, %s caches, machine file %s; ms, medians "
           "[quartiles]\n",
           tree, warm ? "warm" : "cold", file);
    printf("%11s %9s %9s %6s  %-22s %-22s %9s %7s %7s %s\n", "n",
           "pred loc", "pred red", "pick", "local-first",
           "reduce-first", "auto", "faster", "loc won", "pick");
    int right = 0, ties = 0;
    for (int i = 0; i < npoints; i++) {
        const struct point *p = &points[i];
        int wins, T = p->trials;
        unsigned f = faster(p, &wins);
        int ok = f == 0 || f == p->pick;
        right += ok;
        ties += f == 0;
        char l[40], r[40];
        snprintf(l, sizeof l, "%.4g [%.4g %.4g]",
                 1e3 * quartile(p->lf, T, 0.5), 1e3 * quartile(p->lf, T, 0.25),
                 1e3 * quartile(p->lf, T, 0.75));
        snprintf(r, sizeof r, "%.4g [%.4g %.4g]",
                 1e3 * quartile(p->rf, T, 0.5), 1e3 * quartile(p->rf, T, 0.25),
                 1e3 * quartile(p->rf, T, 0.75));
        printf("%11zu %9.4g %9.4g %6s  %-22s %-22s %9.4g %7s %4d/%-2d %s\n",
               p->n, 1e3 * p->pred_lf, 1e3 * p->pred_rf, name(p->pick), l, r,
               1e3 * quartile(p->au, T, 0.5), f ? name(f) : "tie", wins, T,
               ok ? (f ? "right" : "right (tie)") : "WRONG");
    }
    printf("pick right in %d of %d points (%d of them ties)\n", right, npoints,
           ties);
    printf("tie: fewer than 3/4 of the paired trials agree on the faster "
           "variant, or the medians differ by less than 1%%; timings are "
           "noisy (shared host)\n");
}

int main(int argc, char **argv)
{
    const char *file = NULL;
    size_t top = 100000000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            top = 1000000;
        else if (strcmp(argv[i], "--warm") == 0)
            warm = 1;
        else if (strcmp(argv[i], "--machine") == 0 && i + 1 < argc)
            file = argv[++i];
        else {
            fprintf(stderr, "usage: %s --machine FILE [--quick] [--warm]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!file) {
        fprintf(stderr, "bench_scan_auto: --machine FILE is required (the "
                        "machine file of the tree, from sgl-probe)\n");
        return 2;
    }
    for (size_t b = 10000; b <= top; b *= 10)
        for (size_t k = 1; k <= 3 && b * k <= top; k += 2)
            points[npoints++] = (struct point){.n = b * k,
                                               .trials = trials_for(b * k)};
    bench_default_env();
    sgl_opts_t o;
    bench_default_opts(&o);
    sgl_runtime_t *rt;
    sgl_machine_t *params = NULL;
    int rc = sgl_init(&argc, &argv, &o, &rt);
    if (rc) {
        fprintf(stderr, "bench_scan_auto: %s\n", sgl_error_last());
        return 1;
    }
    rc = sgl_algorithms_register(rt);
    if (!rc)
        rc = sgl_task_register(rt, bench_flush_task, "bench_scan_auto.flush");
    if (!rc)
        rc = sgl_machine_load(file, &params);
    if (!rc)
        rc = sgl_runtime_set_params(rt, params);
    sgl_machine_free(params);
    if (rc) {
        fprintf(stderr, "bench_scan_auto: %s\n", sgl_error_last());
        sgl_finalize(rt);
        return 1;
    }
    bench_warn(rt, "bench_scan_auto");
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    if (sgl_runtime_rank(rt) == 0)
        fprintf(stderr, "tree: %s, %zu workers; OMP_WAIT_POLICY=%s\n",
                sgl_machine_source(m), sgl_machine_workers(m),
                getenv("OMP_WAIT_POLICY"));
    rc = sgl_run(rt, program, NULL, 0);
    if (rc)
        fprintf(stderr, "bench_scan_auto: %s\n", sgl_error_last());
    else if (sgl_runtime_rank(rt) == 0)
        report(sgl_machine_source(m), file);
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
