/* Distributed arrays, plans and the Trasgo programs in one process on
 * thread levels: one worker, flat, nested, uneven and six-worker trees. */
#include <criterion/criterion.h>

#include "check_helpers.h"
#include "trasgo_checks.h"

static const struct test_check_entry checks[] = {
    {trasgo_check_rotate, "rotate"}, {trasgo_check_heat, "heat"},
    {trasgo_check_cannon, "cannon"}, {trasgo_check_layouts, "layouts"},
    {trasgo_check_scatter, "scatter"},
    {trasgo_check_errors, "errors"},
    {trasgo_check_other_master, "other master"},
};

static void on_shape(const char *shape)
{
    test_checks_on_shape(shape, trasgo_test_register, checks,
                         sizeof checks / sizeof *checks);
}

Test(trasgo, one_worker) { on_shape("core:1"); }
Test(trasgo, two_workers) { on_shape("core:2"); }
Test(trasgo, three_workers) { on_shape("core:3"); }
Test(trasgo, nested) { on_shape("package:2 core:2"); }
Test(trasgo, uneven) { on_shape("package:2 core:[1,3]"); }
Test(trasgo, six_workers) { on_shape("package:3 core:2"); }
