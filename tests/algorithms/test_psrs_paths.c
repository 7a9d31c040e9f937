/* PSRS on the eleven distributions of issue 47 and three mixed cases
 * (psrs_paths_programs.h), on thread levels: every size that catches
 * uneven splits (0, 1, 2, p-1, p+1, not divisible by
 * p, 1e5, and 1e5 per worker: enough for the nearly sorted local sort),
 * on one worker, flat, odd and two-level trees; each check sorts values
 * and records and names the path and local sorts the input must take
 * (psrs_paths_programs.h). */
#include <criterion/criterion.h>

#include "check_helpers.h"
#include "psrs_paths_programs.h"
#include "psrs_reverse_programs.h"

static void paths_all(const char *shape)
{
    sgl_runtime_t *rt = test_start(shape, psrs_paths_register);
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    size_t sizes[] = {0, 1, 2, p - 1, p + 1, 1009, 100003, 100000 * p + 7};
    for (int d = 0; d < DIST_COUNT; d++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            RUN_OK(psrs_paths_check(rt, (enum psrs_dist)d, sizes[i], 17 + i));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(psrs_paths, one_worker) { paths_all("core:1"); }
Test(psrs_paths, flat_two) { paths_all("core:2"); }
Test(psrs_paths, flat_odd) { paths_all("core:3"); }
Test(psrs_paths, flat_four) { paths_all("core:4"); }
Test(psrs_paths, two_levels) { paths_all("pack:2 core:3"); }

/* The reverse path: blocks written in reverse order on the workers (runs
 * of equal keys), every element kind (plain, records of 16, 8 and 12
 * bytes), sizes not divisible by P (uneven blocks, which the mirrors
 * swap), three sorts in a row on the vector the previous one left. */
static int reverse_register(sgl_runtime_t *rt)
{
    SGL_TRY(psrs_paths_register(rt));
    return psrs_reverse_register(rt);
}

static void reverse_all(const char *shape)
{
    sgl_runtime_t *rt = test_start(shape, reverse_register);
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    size_t sizes[] = {4 * p + 1, 1009, 30011 * p + 3};
    for (int k = 0; k < REV_KINDS; k++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            RUN_OK(psrs_reverse_check(rt, (enum rev_kind)k, sizes[i], 3));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(psrs_reverse, one_worker) { reverse_all("core:1"); }
Test(psrs_reverse, flat_two) { reverse_all("core:2"); }
Test(psrs_reverse, flat_odd) { reverse_all("core:3"); }
Test(psrs_reverse, flat_four) { reverse_all("core:4"); }
Test(psrs_reverse, two_levels) { reverse_all("pack:2 core:3"); }
