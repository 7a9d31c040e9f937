/* SGL_SCAN_AUTO's checks (scan_auto_programs.h). Random doubles in [0, 1)
 * make the variants round differently (a worker's prefixes plus its
 * offset against prefixes started from the offset), so comparing bits
 * tells which variant ran. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scan_auto_programs.h"
#include "test_util.h"
#include <sgl/trace.h>

int scan_auto_params(sgl_runtime_t *rt, double c_sum, double c_scan,
                     double c_offset, sgl_machine_t **ret)
{
    const sgl_machine_t *tree = sgl_runtime_machine(rt);
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    sgl_machine_t *m = NULL;
    SGL_TRY(sgl_machine_from_shape(sgl_machine_shape(tree), &mo, &m));
    sgl_link_params_t lp = {1e-6, 1e-9, 1e-9};
    int rc = SGL_OK;
    for (unsigned l = 0; !rc && l < sgl_machine_depth(m); l++)
        rc = sgl_machine_set_level_params(m, l, &lp);
    const char *const names[] = {"sum", "scan", "offset"};
    const double c[] = {c_sum, c_scan, c_offset};
    for (int k = 0; !rc && k < 3; k++)
        if (!isnan(c[k]))
            rc = sgl_machine_set_kernel(m, names[k], c[k]);
    if (rc)
        sgl_machine_free(m);
    else
        *ret = m;
    return rc;
}

int scan_auto_set(sgl_runtime_t *rt, double c_sum, double c_scan,
                  double c_offset)
{
    sgl_machine_t *m;
    SGL_TRY(scan_auto_params(rt, c_sum, c_scan, c_offset, &m));
    int rc = sgl_runtime_set_params(rt, m);
    sgl_machine_free(m);
    return rc;
}

static const char *name(unsigned variant)
{
    return variant == SGL_SCAN_LOCAL_FIRST    ? "LOCAL_FIRST"
           : variant == SGL_SCAN_REDUCE_FIRST ? "REDUCE_FIRST"
                                              : "neither variant";
}

/* Scan @in with @flags into a fresh vector and gather it into @dst. */
static int scan_into(sgl_ctx_t *root, const sgl_dvec_t *in, size_t n,
                     unsigned flags, double *dst)
{
    sgl_dvec_t *out = NULL;
    int rc = sgl_dvec_create(root, SGL_F64, 0, n, SGL_FILL_NONE, NULL, 0, &out);
    if (!rc)
        rc = sgl_dvec_scan(root, in, out, SGL_OP_SUM, flags);
    if (!rc)
        rc = sgl_dvec_gather(root, out, dst, n);
    int r2 = out ? sgl_dvec_free(root, out) : SGL_OK;
    return rc ? rc : r2;
}

struct auto_arg {
    size_t n;
    unsigned expect;
};

/* Both kinds, distributed and centralised, against both variants. */
static int compare(sgl_ctx_t *root, const sgl_dvec_t *in, const double *x,
                   size_t n, unsigned kind, unsigned pick, double *y[5])
{
    unsigned other = pick == SGL_SCAN_LOCAL_FIRST ? SGL_SCAN_REDUCE_FIRST
                                                  : SGL_SCAN_LOCAL_FIRST;
    size_t bytes = n * sizeof(double);
    SGL_TRY(scan_into(root, in, n, kind | SGL_SCAN_AUTO, y[0]));
    SGL_TRY(scan_into(root, in, n, kind | pick, y[1]));
    SGL_TRY(scan_into(root, in, n, kind | other, y[2]));
    CHECK(memcmp(y[0], y[1], bytes) == 0,
          "AUTO's %s scan of n=%zu differs from %s, the variant it picked",
          kind ? "exclusive" : "inclusive", n, name(pick));
    CHECK(sgl_ctx_workers(root) == 1 || memcmp(y[1], y[2], bytes) != 0,
          "LOCAL_FIRST and REDUCE_FIRST gave the same bits on n=%zu: the "
          "check cannot tell which one ran",
          n);
    /* A root array is priced on its own paths (sgl_scan_root_variant()),
     * which may pick the other variant. */
    unsigned rpick;
    SGL_TRY(sgl_scan_root_variant(root, n, kind | SGL_SCAN_AUTO, &rpick));
    SGL_TRY(sgl_scan(root, SGL_F64, SGL_OP_SUM, x, y[3], n,
                 kind | SGL_SCAN_AUTO));
    SGL_TRY(sgl_scan(root, SGL_F64, SGL_OP_SUM, x, y[4], n, kind | rpick));
    CHECK(memcmp(y[3], y[4], bytes) == 0,
          "sgl_scan() with AUTO (%s, n=%zu) differs from %s",
          kind ? "exclusive" : "inclusive", n, name(rpick));
    CHECK(memcmp(y[3], rpick == pick ? y[1] : y[2], bytes) == 0,
          "sgl_scan() and sgl_dvec_scan() differ with %s on n=%zu",
          name(rpick), n);
    return SGL_OK;
}

static int auto_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct auto_arg *a = arg;
    unsigned pick;
    SGL_TRY(sgl_scan_variant(root, a->n, SGL_SCAN_AUTO, &pick));
    CHECK(pick == a->expect, "AUTO picked %s for n=%zu, expected %s",
          name(pick), a->n, name(a->expect));
    uint64_t seed = 7;
    sgl_dvec_t *in = NULL;
    double *x = malloc(a->n * sizeof *x), *y[5];
    int rc = x ? SGL_OK : sgl_error_set(SGL_ENOMEM, "out of memory");
    for (int k = 0; k < 5; k++) {
        y[k] = malloc(a->n * sizeof *y[k]);
        if (!y[k] && !rc)
            rc = sgl_error_set(SGL_ENOMEM, "out of memory");
    }
    if (!rc)
        rc = sgl_dvec_create(root, SGL_F64, 0, a->n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &in);
    if (!rc)
        rc = sgl_dvec_gather(root, in, x, a->n);
    if (!rc)
        rc = compare(root, in, x, a->n, SGL_SCAN_INCLUSIVE, pick, y);
    if (!rc)
        rc = compare(root, in, x, a->n, SGL_SCAN_EXCLUSIVE, pick, y);
    int r2 = in ? sgl_dvec_free(root, in) : SGL_OK;
    free(x);
    for (int k = 0; k < 5; k++)
        free(y[k]);
    return rc ? rc : r2;
}

/* In a child: the scan's variant is asked of the root only. */
static int child_asks(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    unsigned v;
    int rc = sgl_scan_variant(ctx, 10, SGL_SCAN_AUTO, &v);
    CHECK(rc == SGL_ESTATE, "sgl_scan_variant() on a child returned %s",
          sgl_error_name(rc));
    return SGL_OK;
}

int scan_auto_register(sgl_runtime_t *rt)
{
    return sgl_task_register(rt, child_asks, "test.scan_auto.child_asks");
}

static int child_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    if (sgl_ctx_is_worker(root))
        return SGL_OK;
    return sgl_pardo(root, child_asks, NULL, 0);
}

int scan_auto_check(sgl_runtime_t *rt, size_t n, unsigned expect)
{
    struct auto_arg a = {n, expect};
    int rc = sgl_run(rt, auto_main, &a, sizeof a);
    return rc ? rc : sgl_run(rt, child_main, NULL, 0);
}
