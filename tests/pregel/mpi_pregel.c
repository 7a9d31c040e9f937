/* The checks of pregel_checks.h on MPI levels (SGL_SHAPE), one TAP line
 * each, judged on rank 0. */
#include <stdio.h>

#include "pregel_checks.h"
#include "test_util.h"

int main(int argc, char **argv)
{
    sgl_runtime_t *rt = NULL;
    if (sgl_init(&argc, &argv, NULL, &rt) || pregel_test_register(rt)) {
        fprintf(stderr, "mpi_pregel: %s\n", sgl_error_last());
        return 1;
    }
    struct test_tally t = {0, 0, sgl_runtime_rank(rt) == 0};
    if (t.report)
        printf("1..9\n");
    test_check(&t, "programs", pregel_check_programs(rt));
    test_check(&t, "graphs", pregel_check_graphs(rt));
    test_check(&t, "budget", pregel_check_budget(rt));
    test_check(&t, "balance", pregel_check_balance(rt));
    test_check(&t, "errors", pregel_check_errors(rt));
    test_check(&t, "blocks", pregel_check_blocks(rt));
    test_check(&t, "limits", pregel_check_limits(rt));
    test_check(&t, "checkpoints", pregel_check_checkpoints(rt));
    test_check(&t, "weights", pregel_check_weights(rt));
    sgl_finalize(rt);
    return t.failed ? 1 : 0;
}
