/* Multi-rank driver of the balance checks (balance_programs.c) and the
 * refit's (refit_programs.c) on the shape in SGL_SHAPE under mpiexec;
 * rank 0 prints TAP. */
#include <stdio.h>

#include "algo_programs.h"
#include "balance_programs.h"
#include "refit_programs.h"
#include "test_util.h"

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt) != SGL_OK) {
        fprintf(stderr, "sgl_init: %s\n", sgl_error_last());
        return 1;
    }
    struct test_tally tally = {0};
    tally.report = sgl_runtime_rank(rt) == 0;
    if (algo_test_register(rt) != SGL_OK ||
        balance_test_register(rt) != SGL_OK ||
        refit_test_register(rt) != SGL_OK) {
        fprintf(stderr, "register: %s\n", sgl_error_last());
        return 1;
    }
    test_check(&tally, "balance by speed, by workers, geometric, reset",
               balance_check(rt));
    test_check(&tally, "balance kernel", balance_check_kernel(rt));
    test_check(&tally, "balance errors", balance_check_errors(rt));
    test_check(&tally, "refit from the trace", refit_check(rt));
    test_check(&tally, "refit errors", refit_check_errors(rt));
    test_check(&tally, "refit after each run", refit_check_auto(rt));
    if (sgl_finalize(rt) != SGL_OK)
        tally.failed++;
    if (tally.report)
        printf("1..%d\n", tally.passed + tally.failed);
    return tally.failed ? 1 : 0;
}
