/* Multi-rank driver: record sorts on the shape in SGL_SHAPE under mpiexec
 * (non-root ranks serve); rank 0 prints TAP. */
#include <stdio.h>

#include "algo_programs.h"
#include "record_programs.h"
#include "test_util.h"

int main(int argc, char **argv)
{
    struct test_tally tally = {0};
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt) != SGL_OK ||
        algo_test_register(rt) != SGL_OK) {
        fprintf(stderr, "set-up: %s\n", sgl_error_last());
        return 1;
    }
    tally.report = sgl_runtime_rank(rt) == 0;
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    size_t sizes[] = {0, 1, p - 1, p, p + 1, 1009, 30011};
    char what[96];
    for (size_t l = 0; l < record_layouts(); l++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
            snprintf(what, sizeof what, "records layout %zu n=%zu", l,
                     sizes[i]);
            test_check(&tally, what, record_check(rt, l, sizes[i], 60 + i));
        }
    test_check(&tally, "record errors", record_check_errors(rt));
    if (sgl_finalize(rt) != SGL_OK)
        tally.failed++;
    if (tally.report) {
        printf("1..%d\n", tally.passed + tally.failed);
        printf("# %d passed, %d failed\n", tally.passed, tally.failed);
    }
    return tally.failed ? 1 : 0;
}
