/* sgl-probe --budget (tools/probe_budget.c): where the first kernel pass
 * ends its tables, and when more passes run. */
#include <criterion/criterion.h>

#include "probe_budget.h"

/* No budget: every size and every pass. */
Test(probe_budget, none_runs_all)
{
    struct probe_budget b;
    probe_budget_start(&b, 0, 100);
    cr_assert(probe_budget_size_fits(&b, 1000, 1000, 10, 5000));
    cr_assert(probe_budget_more(&b, 2, 100, 5000, 0));
}

/* A budget of 100 s from t = 0: the first pass must end by 60 s. At t =
 * 20, after a table of 10 s whose last size took 5 s, a size 3x larger
 * costs 15 s on each table: 20 + 10 + 30 = 60 fits; at t = 21 it does not. */
Test(probe_budget, size_fits_first_pass_share)
{
    struct probe_budget b;
    probe_budget_start(&b, 100, 0);
    cr_assert(probe_budget_size_fits(&b, 5, 10, 3, 20));
    cr_assert_not(probe_budget_size_fits(&b, 5, 10, 3, 21));
    /* The same size 10x larger: 150 s, never. */
    cr_assert_not(probe_budget_size_fits(&b, 5, 10, 10, 0));
}

/* Passes: one more while the mean pass fits; the first always runs. */
Test(probe_budget, more_passes)
{
    struct probe_budget b;
    probe_budget_start(&b, 100, 0);
    cr_assert(probe_budget_more(&b, 0, 0, 500, 0));
    cr_assert(probe_budget_more(&b, 1, 0, 40, 10));
    cr_assert_not(probe_budget_more(&b, 1, 0, 45, 20));
}

/* The time per point: scaled by the budget's share of the nominal, to a
 * tenth at least, untouched without a budget or with a larger one. */
Test(probe_budget, min_time)
{
    struct probe_budget b;
    probe_budget_start(&b, 30, 0);
    cr_assert_float_eq(probe_budget_min_time(&b, 0.01, 60), 0.005, 1e-12);
    cr_assert_float_eq(probe_budget_min_time(&b, 0.01, 3000), 0.001, 1e-12);
    cr_assert_float_eq(probe_budget_min_time(&b, 0.01, 20), 0.01, 1e-12);
    probe_budget_start(&b, 0, 0);
    cr_assert_float_eq(probe_budget_min_time(&b, 0.01, 60), 0.01, 1e-12);
}
