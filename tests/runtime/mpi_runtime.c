/* Multi-rank driver: the shared test programs on the shape in SGL_SHAPE
 * (or the discovered machine), under mpiexec. Every rank runs every
 * program (the non-root ranks serve); rank 0 judges and prints one line
 * per check and the closing "N passed, M failed" line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs.h"
#include "test_util.h"

static struct test_tally tally;

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (rc != SGL_OK) {
        fprintf(stderr, "sgl_init: %s\n", sgl_last_error());
        return 1;
    }
    tally.report = sgl_runtime_rank(rt) == 0;
    if (prog_register(rt) != SGL_OK) {
        fprintf(stderr, "register: %s\n", sgl_last_error());
        return 1;
    }
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    size_t p = sgl_machine_workers(m);
    if (tally.report)
        printf("# shape %s: %zu workers, %zu processes, depth %u\n",
               sgl_machine_source(m), p, sgl_machine_processes(m),
               sgl_machine_depth(m));
    size_t sizes[] = {0, 1, p - 1, p, p + 1, 1009, 200003};
    char what[96];
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        snprintf(what, sizeof what, "roundtrip n=%zu", sizes[i]);
        test_check(&tally, what, prog_roundtrip(rt, 100 + i, sizes[i]));
    }
    test_check(&tally, "distributed sum", prog_distributed_sum(rt, 1000000));
    test_check(&tally, "random blocks", prog_random_blocks(rt, 7, 4));
    test_check(&tally, "large blocks gathered in place", prog_big_gather(rt));
    test_check(&tally, "blocks built in place, buffers freed early",
               prog_inplace(rt));
    test_check(&tally, "keyed states beside the program's",
               prog_keyed_state(rt));
    test_check(&tally, "trace counts bytes and work", prog_trace(rt));
    test_check(&tally, "trace written",
          sgl_trace_write(rt, "mpi_runtime-trace.json", SGL_TRACE_PERFETTO));
    test_check(&tally, "misuse", prog_misuse(rt));
    test_check(&tally, "failing first worker", prog_failing_worker(rt, 0));
    test_check(&tally, "failing middle worker", prog_failing_worker(rt, p / 2));
    test_check(&tally, "failing last worker", prog_failing_worker(rt, p - 1));
    test_check(&tally, "roundtrip after failures", prog_roundtrip(rt, 3, 50000));
    if (sgl_finalize(rt) != SGL_OK)
        tally.failed++;
    if (tally.report) {
        printf("1..%d\n", tally.passed + tally.failed);
        printf("# %d passed, %d failed\n", tally.passed, tally.failed);
    }
    return tally.failed ? 1 : 0;
}
