/* The checks of trasgo_checks.h on MPI levels (the shape comes from
 * SGL_SHAPE), one TAP line each, judged on rank 0. */
#include <stdio.h>

#include "test_util.h"
#include "trasgo_checks.h"

int main(int argc, char **argv)
{
    sgl_runtime_t *rt = NULL;
    if (sgl_init(&argc, &argv, NULL, &rt) ||
        trasgo_test_register(rt)) {
        fprintf(stderr, "mpi_trasgo: %s\n", sgl_error_last());
        return 1;
    }
    struct test_tally t = {0, 0, sgl_runtime_rank(rt) == 0};
    if (t.report)
        printf("1..6\n");
    test_check(&t, "rotate", trasgo_check_rotate(rt));
    test_check(&t, "heat", trasgo_check_heat(rt));
    test_check(&t, "cannon", trasgo_check_cannon(rt));
    test_check(&t, "layouts", trasgo_check_layouts(rt));
    test_check(&t, "scatter", trasgo_check_scatter(rt));
    test_check(&t, "errors", trasgo_check_errors(rt));
    sgl_finalize(rt);
    return t.failed ? 1 : 0;
}
