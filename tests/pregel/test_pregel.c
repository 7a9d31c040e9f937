/* The vertex-centric layer in one process on thread levels: one worker,
 * flat, nested and uneven trees. */
#include <criterion/criterion.h>

#include "pregel_checks.h"

static void on_shape(const char *shape)
{
    static const struct {
        int (*fn)(sgl_runtime_t *);
        const char *name;
    } checks[] = {
        {pregel_check_programs, "programs"},
        {pregel_check_graphs, "graphs"},
        {pregel_check_errors, "errors"},
    };
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    sgl_runtime_t *rt = NULL;
    cr_assert_eq(sgl_init(NULL, NULL, &o, &rt), SGL_OK, "%s: %s", shape,
                 sgl_last_error());
    cr_assert_eq(pregel_test_register(rt), SGL_OK, "%s", sgl_last_error());
    for (size_t c = 0; c < sizeof checks / sizeof *checks; c++) {
        int rc = checks[c].fn(rt);
        cr_expect_eq(rc, SGL_OK, "%s on %s: %s (%s)", checks[c].name, shape,
                     sgl_err_name(rc), sgl_last_error());
    }
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(pregel, one_worker) { on_shape("core:1"); }
Test(pregel, two_workers) { on_shape("core:2"); }
Test(pregel, three_workers) { on_shape("core:3"); }
Test(pregel, nested) { on_shape("package:2 core:2"); }
Test(pregel, uneven) { on_shape("package:2 core:[1,3]"); }
