/* Distributed arrays, plans and the Trasgo programs in one process on
 * thread levels: one worker, flat, nested, uneven and six-worker trees. */
#include <criterion/criterion.h>

#include "trasgo_checks.h"

/* All checks on one shape: one runtime per test process (MPI starts
 * once per process). */
static void on_shape(const char *shape)
{
    static const struct {
        int (*fn)(sgl_runtime_t *);
        const char *name;
    } checks[] = {
        {trasgo_check_rotate, "rotate"}, {trasgo_check_heat, "heat"},
        {trasgo_check_cannon, "cannon"}, {trasgo_check_layouts, "layouts"},
        {trasgo_check_errors, "errors"},
    };
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    sgl_runtime_t *rt = NULL;
    cr_assert_eq(sgl_init(NULL, NULL, &o, &rt), SGL_OK, "%s: %s", shape,
                 sgl_last_error());
    cr_assert_eq(trasgo_test_register(rt), SGL_OK, "%s", sgl_last_error());
    for (size_t c = 0; c < sizeof checks / sizeof *checks; c++) {
        int rc = checks[c].fn(rt);
        cr_expect_eq(rc, SGL_OK, "%s on %s: %s (%s)", checks[c].name, shape,
                     sgl_err_name(rc), sgl_last_error());
    }
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(trasgo, one_worker) { on_shape("core:1"); }
Test(trasgo, two_workers) { on_shape("core:2"); }
Test(trasgo, three_workers) { on_shape("core:3"); }
Test(trasgo, nested) { on_shape("package:2 core:2"); }
Test(trasgo, uneven) { on_shape("package:2 core:[1,3]"); }
Test(trasgo, six_workers) { on_shape("package:3 core:2"); }
