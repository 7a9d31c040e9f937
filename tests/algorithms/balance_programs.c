/* Checks of balance by speed against the public API alone: every figure
 * the runtime derives (weights, split counts, vector layouts) is
 * recomputed here from the per-worker c the check gave it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/darray.h>
#include <sgl/balance.h>
#include <sgl/trace.h>

#include "algo_programs.h"
#include "balance_programs.h"
#include "check_helpers.h"
#include "test_util.h"

__extension__ typedef unsigned __int128 u128;

/* What the root checks: the weights it expects per worker. */
enum expect { EXPECT_SPEED, EXPECT_EVEN, EXPECT_GEOMETRIC, EXPECT_SCAN };

/* Per-worker c of the checks, seconds per element. */
static double sum_c(size_t w) { return 1e-9 * (double)(1 + w % 3); }
static double scan_c(size_t w) { return 1e-9 * (double)(3 - w % 3); }

/* The weight worker w should get (before rounding to an integer). */
static double want_weight(enum expect e, size_t w, size_t p)
{
    if (e == EXPECT_EVEN)
        return SGL_WEIGHT_ONE;
    double fast_sum = 1 / sum_c(0), fast_scan = 0;
    for (size_t v = 0; v < p && v < 3; v++)
        fast_scan = fmax(fast_scan, 1 / scan_c(v));
    if (e == EXPECT_SCAN)
        return (1 / scan_c(w)) / fast_scan * SGL_WEIGHT_ONE;
    double s = (1 / sum_c(w)) / fast_sum;
    if (e == EXPECT_GEOMETRIC) {
        /* The geometric mean of the two kernels' relative speeds,
         * normalised so that the fastest worker weighs SGL_WEIGHT_ONE. */
        double top = 0;
        for (size_t v = 0; v < p && v < 3; v++)
            top = fmax(top, sqrt((1 / sum_c(v)) / fast_sum *
                                 (1 / scan_c(v)) / fast_scan));
        s = sqrt(s * (1 / scan_c(w)) / fast_scan) / top;
    }
    return s * SGL_WEIGHT_ONE;
}

/* The layout boundary of worker w: n S_w / S. */
static size_t boundary(size_t n, const double *prefix, size_t w, size_t p)
{
    return (size_t)((u128)n * (uint64_t)prefix[w] / (uint64_t)prefix[p]);
}

static int cmp_f64(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Sort @v (doubles, no NaN): the result must be the sorted input, and each
 * worker's share of it must follow its weight @w (of @total): the regular
 * samples place every cut within a few n / (P s) elements of its target. */
static int sort_shares(sgl_ctx_t *root, sgl_dvec_t *v, const double *w,
                       double total, const char *what)
{
    size_t n = sgl_dvec_size(v), p = sgl_ctx_workers(root);
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    int rc = x && y ? sgl_dvec_gather(root, v, x, n)
                    : sgl_error_set(SGL_ENOMEM, "out of memory");
    if (!rc)
        rc = sgl_dvec_sort(root, v, NULL);
    if (!rc)
        rc = sgl_dvec_gather(root, v, y, n);
    if (!rc) {
        qsort(x, n, sizeof *x, cmp_f64);
        if (memcmp(x, y, n * sizeof *x) != 0)
            rc = sgl_error_set(SGL_ETASK, "%s: the sorted vector is not the "
                                          "sorted input",
                               what);
    }
    for (size_t i = 0; !rc && i < p; i++) {
        double share = (double)n * w[i] / total;
        double got = (double)sgl_dvec_counts(v)[i];
        if (fabs(got - share) > 0.1 * share + 2.0 * (double)n / (double)(p * p))
            rc = sgl_error_set(SGL_ETASK, "%s sorted: worker %zu holds %.0f, "
                                          "its weight's share is %.0f",
                               what, i, got, share);
    }
    free(x);
    free(y);
    return rc;
}

static int check_darray(sgl_ctx_t *root, const double *prefix, size_t p)
{
    size_t size[1] = {100003};
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 1, size, sizeof(double));
    sgl_darray_t *a = NULL;
    SGL_TRY(sgl_darray_create(root, &l, &a));
    const size_t *cut = sgl_darray_layout(a)->cuts[0];
    int rc = SGL_OK;
    for (size_t k = 0; !rc && k <= p; k++) {
        size_t want = (size_t)floor((double)size[0] * (prefix[k] / prefix[p]));
        if (cut[k] != want)
            rc = sgl_error_set(SGL_ETASK, "array: cut %zu at %zu, expected "
                                          "%zu",
                               k, cut[k], want);
    }
    int r2 = sgl_darray_free(root, a);
    return rc ? rc : r2;
}

static int bal_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    enum expect e = *(const enum expect *)arg;
    size_t p = sgl_ctx_workers(root), n = 100003;
    unsigned kids = sgl_ctx_children(root);
    double *w = malloc(p * sizeof *w), *prefix = malloc((p + 1) * sizeof *w);
    double *cw = malloc((kids + 1) * sizeof *cw);
    size_t *counts = malloc((kids + 1) * sizeof *counts);
    CHECK(w && prefix && cw && counts, "out of memory");
    int rc = sgl_ctx_worker_weights(root, NULL, 0, p, w);
    prefix[0] = 0;
    for (size_t i = 0; !rc && i < p; i++) {
        /* One kernel: exact; the geometric mean may round either way. */
        double want = want_weight(e, i, p);
        double slack = e == EXPECT_GEOMETRIC ? 1 : 0;
        if (fabs(w[i] - nearbyint(want)) > slack || w[i] != floor(w[i]))
            rc = sgl_error_set(SGL_ETASK, "worker %zu weighs %.17g, expected "
                                          "%.17g",
                               i, w[i], want);
        prefix[i + 1] = prefix[i] + w[i];
    }
    /* The kernel at hand: "sum" has per-worker c, "sort" none (overall). */
    for (int k = 0; !rc && k < 2 && e == EXPECT_SPEED; k++) {
        double kw[3];
        size_t m = p < 3 ? p : 3;
        rc = sgl_ctx_worker_weights(root, k ? "sort" : "sum", 0, m, kw);
        for (size_t i = 0; !rc && i < m; i++)
            if (kw[i] != w[i])
                rc = sgl_error_set(SGL_ETASK, "kernel %s: worker %zu weighs "
                                              "%g, overall %g",
                                   k ? "sort" : "sum", i, kw[i], w[i]);
    }
    /* A split without weights cuts where the vectors' layout does (a
     * root that is itself the only worker has nothing to split). */
    if (!rc && kids)
        rc = sgl_ctx_split(root, n, NULL, counts);
    if (!rc && kids)
        rc = sgl_ctx_child_weights(root, NULL, cw);
    for (size_t i = 0, first = 0; !rc && i < kids; i++) {
        size_t wc = sgl_ctx_child_workers(root, i);
        size_t want = boundary(n, prefix, first + wc, p) -
                      boundary(n, prefix, first, p);
        double sum = prefix[first + wc] - prefix[first];
        if (counts[i] != want || cw[i] != sum)
            rc = sgl_error_set(SGL_ETASK, "child %zu: split %zu (expected "
                                          "%zu), weight %g (expected %g)",
                               i, counts[i], want, cw[i], sum);
        first += wc;
    }
    /* An array without weights or cuts is cut by the same speeds. */
    if (!rc && kids)
        rc = check_darray(root, prefix, p);
    sgl_dvec_t *v = NULL;
    uint64_t seed = 42;
    if (!rc)
        rc = sgl_dvec_create(root, SGL_F64, 0, n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &v);
    for (size_t i = 0; !rc && i < p; i++) {
        size_t want = boundary(n, prefix, i + 1, p) - boundary(n, prefix, i, p);
        if (sgl_dvec_counts(v)[i] != want)
            rc = sgl_error_set(SGL_ETASK, "vector: worker %zu holds %zu, "
                                          "expected %zu",
                               i, sgl_dvec_counts(v)[i], want);
    }
    if (!rc)
        rc = sort_shares(root, v, w, prefix[p], "random");
    if (v) {
        int r2 = sgl_dvec_free(root, v);
        rc = rc ? rc : r2;
    }
    /* All-equal keys split by index, by weight too. */
    double *same = malloc(n * sizeof *same);
    v = NULL;
    for (size_t i = 0; same && i < n; i++)
        same[i] = 0.5;
    if (!rc)
        rc = same ? sgl_dvec_scatter(root, SGL_F64, 0, same, n, &v)
                  : sgl_error_set(SGL_ENOMEM, "out of memory");
    if (!rc)
        rc = sort_shares(root, v, w, prefix[p], "all-equal");
    if (v) {
        int r2 = sgl_dvec_free(root, v);
        rc = rc ? rc : r2;
    }
    free(same);
    free(w);
    free(prefix);
    free(cw);
    free(counts);
    return rc;
}

static int errors_main(sgl_ctx_t *root, const void *arg, size_t size);

int balance_test_register(sgl_runtime_t *rt)
{
    int rc = sgl_task_register(rt, bal_main, "test.balance.main");
    return rc ? rc : sgl_task_register(rt, errors_main, "test.balance.errors");
}

/* A machine of the runtime's tree (from its shape: the checks run on
 * shapes) with per-worker c of "sum", and of "scan" if @scan; with
 * @plain, one c for every worker instead. */
static int params_for(sgl_runtime_t *rt, int scan, int plain,
                      sgl_machine_t **ret)
{
    const char *src = sgl_machine_source(sgl_runtime_machine(rt));
    CHECK(strncmp(src, "shape: ", 7) == 0,
          "the balance checks need a tree from a shape, not %s", src);
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    SGL_TRY(sgl_machine_from_shape(src + 7, &mo, ret));
    size_t p = sgl_machine_workers(*ret);
    int rc = SGL_OK;
    for (size_t w = 0; !rc && w < p; w++) {
        rc = plain ? sgl_machine_set_kernel(*ret, "sum", 1e-9)
                   : sgl_machine_set_worker_kernel(*ret, w, "sum", sum_c(w));
        if (!rc && scan)
            rc = sgl_machine_set_worker_kernel(*ret, w, "scan", scan_c(w));
    }
    if (rc)
        sgl_machine_free(*ret);
    return rc;
}

static int run_expect(sgl_runtime_t *rt, enum expect e)
{
    return sgl_run(rt, bal_main, &e, sizeof e);
}

static int with_params(sgl_runtime_t *rt, int scan, int plain)
{
    sgl_machine_t *m;
    SGL_TRY(params_for(rt, scan, plain, &m));
    int rc = sgl_runtime_set_params(rt, m);
    sgl_machine_free(m);
    return rc;
}

int balance_check(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_runtime_set_balance(rt, SGL_BALANCE_SPEED));
    SGL_TRY(with_params(rt, 0, 0));
    CHECK(sgl_runtime_balance(rt) == SGL_BALANCE_SPEED, "balance not speed");
    SGL_TRY(run_expect(rt, EXPECT_SPEED));
    /* The algorithms stay right on uneven blocks. */
    SGL_TRY(algo_check_reduce(rt, 100003, 11));
    SGL_TRY(algo_check_scan(rt, 100003, 12));
    SGL_TRY(sgl_runtime_set_balance(rt, SGL_BALANCE_WORKERS));
    CHECK(sgl_runtime_balance(rt) == SGL_BALANCE_WORKERS,
          "balance not workers");
    SGL_TRY(run_expect(rt, EXPECT_EVEN));
    SGL_TRY(sgl_runtime_set_balance(rt, SGL_BALANCE_SPEED));
    SGL_TRY(with_params(rt, 1, 0));
    SGL_TRY(run_expect(rt, EXPECT_GEOMETRIC));
    /* A plain c replaces the per-worker values: the workers are alike. */
    sgl_machine_t *m;
    SGL_TRY(params_for(rt, 0, 1, &m));
    int rc = sgl_machine_set_kernel(m, "scan", 1e-9);
    if (!rc)
        rc = sgl_runtime_set_params(rt, m);
    sgl_machine_free(m);
    SGL_TRY(rc);
    return run_expect(rt, EXPECT_EVEN);
}

int balance_check_kernel(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_runtime_set_balance(rt, SGL_BALANCE_SPEED));
    /* Named before the parameters give it per worker: the overall speed
     * until they do. */
    SGL_TRY(sgl_runtime_set_balance_kernel(rt, "scan"));
    SGL_TRY(with_params(rt, 0, 0));
    SGL_TRY(run_expect(rt, EXPECT_SPEED));
    SGL_TRY(with_params(rt, 1, 0));
    const char *k = sgl_runtime_balance_kernel(rt);
    CHECK(k && strcmp(k, "scan") == 0, "balance kernel %s, not scan",
          k ? k : "(none)");
    SGL_TRY(run_expect(rt, EXPECT_SCAN));
    SGL_TRY(sgl_runtime_set_balance_kernel(rt, "sum"));
    SGL_TRY(run_expect(rt, EXPECT_SPEED));
    /* Not given per worker: the overall speed. */
    SGL_TRY(sgl_runtime_set_balance_kernel(rt, "sort"));
    SGL_TRY(run_expect(rt, EXPECT_GEOMETRIC));
    SGL_TRY(sgl_runtime_set_balance_kernel(rt, NULL));
    CHECK(sgl_runtime_balance_kernel(rt) == NULL, "balance kernel left set");
    SGL_TRY(run_expect(rt, EXPECT_GEOMETRIC));
    /* By workers wins over any kernel. */
    SGL_TRY(sgl_runtime_set_balance_kernel(rt, "scan"));
    SGL_TRY(sgl_runtime_set_balance(rt, SGL_BALANCE_WORKERS));
    SGL_TRY(run_expect(rt, EXPECT_EVEN));
    return sgl_runtime_set_balance_kernel(rt, NULL);
}

static int errors_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t p = sgl_ctx_workers(root);
    double w[2];
    EXPECT(sgl_ctx_worker_weights(root, NULL, p, 1, w), SGL_EINVAL,
           "outside the tree");
    EXPECT(sgl_ctx_worker_weights(root, NULL, 0, 1, NULL), SGL_EINVAL,
           "NULL argument");
    EXPECT(sgl_ctx_worker_weights(NULL, NULL, 0, 1, w), SGL_EINVAL,
           "NULL argument");
    EXPECT(sgl_ctx_child_weights(root, NULL, NULL), SGL_EINVAL, "NULL argument");
    /* No weights at the end of the tree is no error. */
    return sgl_ctx_worker_weights(root, NULL, p, 0, NULL);
}

int balance_check_errors(sgl_runtime_t *rt)
{
    EXPECT(sgl_runtime_set_balance(rt, (sgl_balance_t)7), SGL_EINVAL,
           "unknown balance 7");
    EXPECT(sgl_runtime_set_balance(NULL, SGL_BALANCE_SPEED), SGL_EINVAL,
           "NULL runtime");
    EXPECT(sgl_runtime_set_balance_kernel(NULL, "sum"), SGL_EINVAL,
           "NULL runtime");
    EXPECT(sgl_runtime_set_balance_kernel(rt, "sum up"), SGL_EINVAL,
           "bad kernel name 'sum up'");
    EXPECT(sgl_runtime_set_balance_kernel(rt, ""), SGL_EINVAL,
           "bad kernel name ''");
    CHECK(sgl_runtime_balance_kernel(rt) == NULL &&
              sgl_runtime_balance_kernel(NULL) == NULL,
          "a refused balance kernel was kept");
    return sgl_run(rt, errors_main, NULL, 0);
}
