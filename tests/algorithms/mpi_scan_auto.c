/* SGL_SCAN_AUTO on MPI levels (the shape in SGL_SHAPE, under mpiexec):
 * every process is given the same parameters, the root picks, and the
 * workers of every rank must run its pick: AUTO's bits are the picked
 * variant's, for parameters that price either variant cheaper. Rank 0
 * prints TAP. */
#include <stdio.h>

#include "scan_auto_programs.h"
#include "test_util.h"

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt) != SGL_OK) {
        fprintf(stderr, "sgl_init: %s\n", sgl_error_last());
        return 1;
    }
    struct test_tally tally = {0, 0, sgl_runtime_rank(rt) == 0};
    int rc = sgl_algorithms_register(rt);
    if (!rc)
        rc = scan_auto_register(rt);
    if (rc) {
        fprintf(stderr, "register: %s\n", sgl_error_last());
        return 1;
    }
    if (tally.report)
        printf("# shape %s\n", sgl_machine_source(sgl_runtime_machine(rt)));
    rc = scan_auto_set(rt, 1e-9, 1e-9, 1e-10);
    test_check(&tally, "AUTO picks LOCAL_FIRST where the add is cheap",
               rc ? rc : scan_auto_check(rt, 100003, SGL_SCAN_LOCAL_FIRST));
    rc = scan_auto_set(rt, 1e-10, 1e-9, 1e-9);
    test_check(&tally, "AUTO picks REDUCE_FIRST where the reduction is cheap",
               rc ? rc : scan_auto_check(rt, 100003, SGL_SCAN_REDUCE_FIRST));
    if (tally.report)
        printf("1..%d\n", tally.passed + tally.failed);
    int failed = tally.failed;
    sgl_finalize(rt);
    return failed ? 1 : 0;
}
