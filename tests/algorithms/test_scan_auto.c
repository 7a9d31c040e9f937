/* SGL_SCAN_AUTO in one process on thread levels: the pick follows the
 * parameters given to sgl_runtime_set_params() and n, AUTO's results are
 * the bits of the variant it picked, the defaults without parameters,
 * and bad flags. Correctness only: nothing here is timed. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_helpers.h"
#include "scan_auto_programs.h"
#include <sgl/trace.h>

static int register_all(sgl_runtime_t *rt)
{
    int rc = sgl_algorithms_register(rt);
    return rc ? rc : scan_auto_register(rt);
}

static sgl_runtime_t *start(const char *shape)
{
    return test_start(shape, register_all);
}

/* c in seconds per element: the add far cheaper than the reduction, or
 * far dearer. */
#define LOCAL_CHEAP 1e-9, 1e-9, 1e-10
#define REDUCE_CHEAP 1e-10, 1e-9, 1e-9

/* What sgl_scan_variant() says at the root, from a program. */
struct ask {
    size_t n;
    unsigned flags, variant;
    int rc;
    int root_array; /* ask sgl_scan_root_variant() instead */
};

static int ask_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    struct ask *a = (struct ask *)(uintptr_t)*(const uintptr_t *)arg;
    a->rc = a->root_array
                ? sgl_scan_root_variant(root, a->n, a->flags, &a->variant)
                : sgl_scan_variant(root, a->n, a->flags, &a->variant);
    return SGL_OK;
}

static unsigned ask(sgl_runtime_t *rt, size_t n, unsigned flags,
                    int root_array)
{
    struct ask a = {n, flags, 0, 0, root_array};
    uintptr_t p = (uintptr_t)&a;
    RUN_OK(sgl_run(rt, ask_main, &p, sizeof p));
    cr_assert_eq(a.rc, SGL_OK, "sgl_scan_variant(n=%zu, flags %#x): %s", n,
                 flags, sgl_error_last());
    return a.variant;
}

static unsigned variant(sgl_runtime_t *rt, size_t n, unsigned flags)
{
    return ask(rt, n, flags, 0);
}

/* A hand-made machine file for core:2: copies dear (g 1 ns/B, c(copy)
 * 1 ns), views free, the offset add cheaper than the reduction. */
static void set_file(sgl_runtime_t *rt, const char *kernels)
{
    char text[512];
    snprintf(text, sizeof text,
             "sgl-machine 2\nshape core:2\n"
             "level 0 link threads p 2 l 1us g 1ns/B\n"
             "level 0 view g_down 0 g_up 0\n%send\n",
             kernels);
    FILE *f = fmemopen(text, strlen(text), "r");
    cr_assert_not_null(f);
    sgl_machine_t *m = NULL;
    int rc = sgl_machine_read(f, "hand.sgl", &m);
    fclose(f);
    cr_assert_eq(rc, SGL_OK, "%s", sgl_error_last());
    RUN_OK(sgl_runtime_set_params(rt, m));
    sgl_machine_free(m);
}

/* A root array is priced on the paths it takes (issue 47): the root scan
 * reads and writes in place, LOCAL_FIRST copies the array into a
 * distributed vector and back. Where copies are dear, AUTO scans a root
 * array REDUCE_FIRST though it scans distributed data LOCAL_FIRST, and
 * sgl_scan() runs that pick; where the reduction is dear enough,
 * LOCAL_FIRST wins for both. */
Test(scan_auto, root_array_priced_by_its_own_path)
{
    sgl_runtime_t *rt = start("core:2");
    set_file(rt, "kernel sum 1ns\nkernel scan 1ns\nkernel offset 0.1ns\n"
                 "kernel copy 1ns\n");
    cr_expect_eq(ask(rt, 100003, SGL_SCAN_AUTO, 0), SGL_SCAN_LOCAL_FIRST);
    cr_expect_eq(ask(rt, 100003, SGL_SCAN_AUTO, 1), SGL_SCAN_REDUCE_FIRST);
    cr_expect_eq(ask(rt, 100003, SGL_SCAN_LOCAL_FIRST, 1),
                 SGL_SCAN_LOCAL_FIRST, "a named variant stays");
    /* scan_auto_check() checks sgl_scan()'s AUTO bits against the root
     * pick and sgl_dvec_scan()'s against this one. */
    RUN_OK(scan_auto_check(rt, 100003, SGL_SCAN_LOCAL_FIRST));
    set_file(rt, "kernel sum 40ns\nkernel scan 1ns\nkernel offset 0.1ns\n"
                 "kernel copy 0.1ns\n");
    cr_expect_eq(ask(rt, 100003, SGL_SCAN_AUTO, 0), SGL_SCAN_LOCAL_FIRST);
    cr_expect_eq(ask(rt, 100003, SGL_SCAN_AUTO, 1), SGL_SCAN_LOCAL_FIRST);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(scan_auto, pick_follows_the_parameters)
{
    sgl_runtime_t *rt = start("core:3");
    RUN_OK(scan_auto_set(rt, LOCAL_CHEAP));
    RUN_OK(scan_auto_check(rt, 100003, SGL_SCAN_LOCAL_FIRST));
    RUN_OK(scan_auto_set(rt, REDUCE_CHEAP));
    RUN_OK(scan_auto_check(rt, 100003, SGL_SCAN_REDUCE_FIRST));
    RUN_OK(scan_auto_set(rt, LOCAL_CHEAP));
    RUN_OK(scan_auto_check(rt, 1009, SGL_SCAN_LOCAL_FIRST));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* Two levels and uneven children: the pick is the root's, the variant
 * runs at every level. */
Test(scan_auto, nested_and_uneven_trees)
{
    sgl_runtime_t *rt = start("pack:2 core:[2,3]");
    RUN_OK(scan_auto_set(rt, LOCAL_CHEAP));
    RUN_OK(scan_auto_check(rt, 20011, SGL_SCAN_LOCAL_FIRST));
    RUN_OK(scan_auto_set(rt, REDUCE_CHEAP));
    RUN_OK(scan_auto_check(rt, 20011, SGL_SCAN_REDUCE_FIRST));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* A size table: the add dearer than the reduction on small blocks,
 * cheaper on large ones (as measured on a 2-core EPYC), so the pick
 * changes with n on the same parameters. */
Test(scan_auto, pick_follows_n)
{
    sgl_runtime_t *rt = start("core:2");
    sgl_machine_t *m;
    RUN_OK(scan_auto_params(rt, 4.6e-10, 9e-10, NAN, &m));
    RUN_OK(sgl_machine_set_kernel_point(m, "offset", 1e4, 1, 6e-10));
    RUN_OK(sgl_machine_set_kernel_point(m, "offset", 1e7, 1, 3e-10));
    RUN_OK(sgl_runtime_set_params(rt, m));
    sgl_machine_free(m);
    cr_expect_eq(variant(rt, 20000, SGL_SCAN_AUTO), SGL_SCAN_REDUCE_FIRST);
    cr_expect_eq(variant(rt, 20000000, SGL_SCAN_AUTO), SGL_SCAN_LOCAL_FIRST);
    RUN_OK(scan_auto_check(rt, 20000, SGL_SCAN_REDUCE_FIRST));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* The runtime keeps its own copy: the caller's tree may go, a failed
 * call keeps the last good one, and a later call replaces it. */
Test(scan_auto, parameters_are_copied)
{
    sgl_runtime_t *rt = start("core:3");
    sgl_machine_t *m;
    RUN_OK(scan_auto_params(rt, LOCAL_CHEAP, &m));
    RUN_OK(sgl_runtime_set_params(rt, m));
    sgl_machine_set_kernel(m, "offset", 1); /* not the runtime's copy */
    sgl_machine_free(m);
    cr_expect_eq(variant(rt, 1000, SGL_SCAN_AUTO), SGL_SCAN_LOCAL_FIRST);
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    sgl_machine_t *other;
    RUN_OK(sgl_machine_from_shape("core:4", &mo, &other));
    cr_expect_eq(sgl_runtime_set_params(rt, other), SGL_EINVAL);
    sgl_machine_free(other);
    cr_expect_eq(variant(rt, 1000, SGL_SCAN_AUTO), SGL_SCAN_LOCAL_FIRST);
    RUN_OK(scan_auto_set(rt, REDUCE_CHEAP));
    cr_expect_eq(variant(rt, 1000, SGL_SCAN_AUTO), SGL_SCAN_REDUCE_FIRST);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* Without parameters, or with parameters that cannot price both
 * variants, AUTO is REDUCE_FIRST, as is no variant at all; a named
 * variant is itself whatever the parameters say. */
Test(scan_auto, defaults)
{
    sgl_runtime_t *rt = start("core:3");
    cr_expect_eq(variant(rt, 1000, SGL_SCAN_AUTO), SGL_SCAN_REDUCE_FIRST);
    RUN_OK(scan_auto_check(rt, 1000, SGL_SCAN_REDUCE_FIRST));
    /* Levels but no kernels. */
    RUN_OK(scan_auto_set(rt, NAN, NAN, NAN));
    cr_expect_eq(variant(rt, 1000, SGL_SCAN_AUTO), SGL_SCAN_REDUCE_FIRST);
    /* Kernels but no levels (as for balancing alone): accepted, nothing
     * for AUTO to price on. */
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    sgl_machine_t *bare;
    RUN_OK(sgl_machine_from_shape("core:3", &mo, &bare));
    RUN_OK(sgl_machine_set_kernel(bare, "sum", 1e-9));
    RUN_OK(sgl_machine_set_kernel(bare, "scan", 1e-9));
    RUN_OK(sgl_machine_set_kernel(bare, "offset", 1e-10));
    RUN_OK(sgl_runtime_set_params(rt, bare));
    sgl_machine_free(bare);
    cr_expect_eq(variant(rt, 1000, SGL_SCAN_AUTO), SGL_SCAN_REDUCE_FIRST);
    /* An old machine file: no "offset", the add priced as a scan, which
     * costs more than the reduction. */
    RUN_OK(scan_auto_set(rt, 5e-10, 1e-9, NAN));
    cr_expect_eq(variant(rt, 1000, SGL_SCAN_AUTO), SGL_SCAN_REDUCE_FIRST);
    RUN_OK(scan_auto_set(rt, LOCAL_CHEAP));
    cr_expect_eq(variant(rt, 1000, SGL_SCAN_INCLUSIVE),
                 SGL_SCAN_REDUCE_FIRST);
    cr_expect_eq(variant(rt, 1000, SGL_SCAN_EXCLUSIVE),
                 SGL_SCAN_REDUCE_FIRST);
    cr_expect_eq(variant(rt, 1000, SGL_SCAN_REDUCE_FIRST),
                 SGL_SCAN_REDUCE_FIRST);
    RUN_OK(scan_auto_set(rt, REDUCE_CHEAP));
    cr_expect_eq(variant(rt, 1000, SGL_SCAN_LOCAL_FIRST),
                 SGL_SCAN_LOCAL_FIRST);
    /* Nothing to price on zero elements. */
    cr_expect_eq(variant(rt, 0, SGL_SCAN_AUTO), SGL_SCAN_REDUCE_FIRST);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* A tree with leaves at different depths has no shape string, so no
 * machine file: its parameters set the exchange only, and AUTO keeps its
 * default. */
Test(scan_auto, tree_without_a_shape_string)
{
    sgl_runtime_t *rt = start("pack:2 core:[1,3]");
    cr_assert_null(sgl_machine_shape(sgl_runtime_machine(rt)));
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    sgl_machine_t *m;
    RUN_OK(sgl_machine_from_shape("pack:2 core:[1,3]", &mo, &m));
    sgl_link_params_t lp = {1e-6, 1e-9, 1e-9};
    RUN_OK(sgl_machine_set_level_params(m, 0, &lp));
    RUN_OK(sgl_machine_set_level_params(m, 1, &lp));
    RUN_OK(sgl_machine_set_kernel(m, "sum", 1e-9));
    RUN_OK(sgl_machine_set_kernel(m, "scan", 1e-9));
    RUN_OK(sgl_machine_set_kernel(m, "offset", 1e-10));
    RUN_OK(sgl_runtime_set_params(rt, m));
    sgl_machine_free(m);
    RUN_OK(scan_auto_check(rt, 20011, SGL_SCAN_REDUCE_FIRST));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* One worker runs one local scan for every variant: the model prices
 * them the same, and a tie is REDUCE_FIRST. */
Test(scan_auto, one_worker)
{
    sgl_runtime_t *rt = start("core:1");
    RUN_OK(scan_auto_set(rt, LOCAL_CHEAP));
    RUN_OK(scan_auto_check(rt, 1009, SGL_SCAN_REDUCE_FIRST));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* Bad flags: refused with SGL_EINVAL and a message that says why, by the
 * scans and the query alike, before anything runs. */
struct bad {
    unsigned flags;
    const char *says;
};

static const struct bad bad_flags[] = {
    {SGL_SCAN_AUTO | SGL_SCAN_LOCAL_FIRST, "several variants"},
    {SGL_SCAN_AUTO | SGL_SCAN_REDUCE_FIRST, "several variants"},
    {SGL_SCAN_LOCAL_FIRST | SGL_SCAN_REDUCE_FIRST, "several variants"},
    {SGL_SCAN_EXCLUSIVE | SGL_SCAN_AUTO | SGL_SCAN_LOCAL_FIRST |
         SGL_SCAN_REDUCE_FIRST,
     "several variants"},
    {16, "unknown flags 0x10"},
    {SGL_SCAN_AUTO | 0x100, "unknown flags 0x100"},
};

static char messages[3][6][200];
static int codes[3][6];

static int bad_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8];
    sgl_dvec_t *v;
    int rc = sgl_dvec_scatter(root, SGL_F64, 0, x, 8, &v);
    if (rc)
        return rc;
    for (int i = 0; i < 6; i++) {
        unsigned f = bad_flags[i].flags, got;
        codes[0][i] = sgl_dvec_scan(root, v, v, SGL_OP_SUM, f);
        snprintf(messages[0][i], 200, "%s", sgl_error_last());
        codes[1][i] = sgl_scan(root, SGL_F64, SGL_OP_SUM, x, y, 8, f);
        snprintf(messages[1][i], 200, "%s", sgl_error_last());
        codes[2][i] = sgl_scan_variant(root, 8, f, &got);
        snprintf(messages[2][i], 200, "%s", sgl_error_last());
    }
    return sgl_dvec_free(root, v);
}

Test(scan_auto, bad_flags)
{
    sgl_runtime_t *rt = start("core:2");
    RUN_OK(sgl_run(rt, bad_main, NULL, 0));
    static const char *const fn[] = {"sgl_dvec_scan", "sgl_scan",
                                     "sgl_scan_variant"};
    for (int w = 0; w < 3; w++)
        for (int i = 0; i < 6; i++) {
            cr_expect_eq(codes[w][i], SGL_EINVAL, "%s(flags %#x): %s", fn[w],
                         bad_flags[i].flags, sgl_error_name(codes[w][i]));
            cr_expect(strstr(messages[w][i], bad_flags[i].says) &&
                          strstr(messages[w][i], fn[w]),
                      "%s(flags %#x) said '%s'", fn[w], bad_flags[i].flags,
                      messages[w][i]);
        }
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

static int null_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    unsigned v;
    codes[0][0] = sgl_scan_variant(root, 8, SGL_SCAN_AUTO, NULL);
    codes[0][1] = sgl_scan_variant(NULL, 8, SGL_SCAN_AUTO, &v);
    return SGL_OK;
}

Test(scan_auto, null_arguments)
{
    sgl_runtime_t *rt = start("core:2");
    RUN_OK(sgl_run(rt, null_main, NULL, 0));
    cr_expect_eq(codes[0][0], SGL_EINVAL);
    cr_expect_eq(codes[0][1], SGL_EINVAL);
    cr_expect_null(sgl_ctx_params(NULL));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}
