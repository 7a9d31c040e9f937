/* Multi-rank driver: PSRS on the eleven distributions of issue 47 and
 * three mixed cases on the shape in SGL_SHAPE under mpiexec (psrs_paths_programs.h). Every rank
 * runs every program; rank 0 prints TAP. */
#include <stdio.h>

#include "psrs_paths_programs.h"
#include "psrs_reverse_programs.h"
#include "test_util.h"

int main(int argc, char **argv)
{
    struct test_tally tally = {0, 0, 0};
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt) != SGL_OK) {
        fprintf(stderr, "sgl_init: %s\n", sgl_error_last());
        return 1;
    }
    tally.report = sgl_runtime_rank(rt) == 0;
    if (psrs_paths_register(rt) != SGL_OK ||
        psrs_reverse_register(rt) != SGL_OK) {
        fprintf(stderr, "register: %s\n", sgl_error_last());
        return 1;
    }
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    size_t sizes[] = {0, 1, 2, p - 1, p + 1, 1009, 100003, 100000 * p + 7};
    char what[128];
    for (int d = 0; d < DIST_COUNT; d++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
            snprintf(what, sizeof what, "sort %s n=%zu",
                     psrs_dist_names[d], sizes[i]);
            test_check(&tally, what, psrs_paths_check(rt, (enum psrs_dist)d,
                                                      sizes[i], 17 + i));
        }
    /* The reverse path's blocks across processes (the exchange), uneven,
     * three sorts in a row, every element kind. */
    size_t rsizes[] = {4 * p + 1, 30011 * p + 3};
    for (int k = 0; k < REV_KINDS; k++)
        for (size_t i = 0; i < sizeof rsizes / sizeof *rsizes; i++) {
            snprintf(what, sizeof what, "reverse %s n=%zu, 3 rounds",
                     rev_kind_names[k], rsizes[i]);
            test_check(&tally, what, psrs_reverse_check(rt, (enum rev_kind)k,
                                                        rsizes[i], 3));
        }
    if (sgl_finalize(rt) != SGL_OK)
        tally.failed++;
    if (tally.report) {
        printf("1..%d\n", tally.passed + tally.failed);
        printf("# %d passed, %d failed\n", tally.passed, tally.failed);
    }
    return tally.failed ? 1 : 0;
}
