/* Record sorts in one process on thread levels: every layout at the sizes
 * that catch uneven splits, on flat, nested and heterogeneous trees, and
 * the documented errors. */
#include <criterion/criterion.h>

#include "algo_programs.h"
#include "record_programs.h"

static void records_all(const char *shape)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    sgl_runtime_t *rt = NULL;
    cr_assert_eq(sgl_init(NULL, NULL, &o, &rt), SGL_OK, "%s",
                 sgl_error_last());
    cr_assert_eq(algo_test_register(rt), SGL_OK, "%s", sgl_error_last());
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    size_t sizes[] = {0, 1, p - 1, p, p + 1, 97, 1009, 50021};
    for (size_t l = 0; l < record_layouts(); l++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
            int rc = record_check(rt, l, sizes[i], 40 + i);
            cr_assert_eq(rc, SGL_OK, "%s layout %zu n=%zu: %s", shape, l,
                         sizes[i], sgl_error_last());
        }
    int rc = record_check_errors(rt);
    cr_assert_eq(rc, SGL_OK, "%s", sgl_error_last());
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(records, one_worker) { records_all("core:1"); }
Test(records, flat_two) { records_all("core:2"); }
Test(records, flat_odd) { records_all("core:3"); }
Test(records, two_levels) { records_all("pack:2 core:3"); }
Test(records, heterogeneous) { records_all("pack:3 core:[1,4,2]"); }
