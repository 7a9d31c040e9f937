/* Multi-rank driver: the shared test programs on the shape in SGL_SHAPE
 * (or the discovered machine), under mpiexec. Every rank runs every
 * program (the non-root ranks serve); rank 0 judges and prints one line
 * per check and the closing "N passed, M failed" line. The optional
 * argument is the number of masters of the shape where prog_split has a
 * hand-computed split. A second runtime, with share_result, follows the
 * first, so MPI is started here rather than by sgl_init. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs.h"
#include "test_util.h"
#include <sgl/exchange.h>
#include <sgl/trace.h>

static struct test_tally tally;

/* A check whose outcome every rank finds for itself (the run's result):
 * it passes only if it passed everywhere. The failing ranks print their
 * own message. */
static int on_every_rank(sgl_runtime_t *rt, int rc)
{
    int bad = rc != SGL_OK;
    if (bad)
        fprintf(stderr, "rank %d: %s (%s)\n", sgl_runtime_rank(rt),
                sgl_error_name(rc), sgl_error_last());
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad && rc == SGL_OK)
        return sgl_error_set(SGL_ETASK, "failed on another rank");
    return rc;
}

static sgl_runtime_t *start(int share_result)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.share_result = share_result;
    sgl_runtime_t *rt;
    if (sgl_init(NULL, NULL, &o, &rt) != SGL_OK) {
        fprintf(stderr, "sgl_init: %s\n", sgl_error_last());
        exit(1);
    }
    if (prog_register(rt) != SGL_OK) {
        fprintf(stderr, "register: %s\n", sgl_error_last());
        exit(1);
    }
    return rt;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    long split_cases = argc > 1 ? strtol(argv[1], NULL, 10) : -1;
    sgl_runtime_t *rt = start(0);
    tally.report = sgl_runtime_rank(rt) == 0;
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
        snprintf(what, sizeof what, "scatter_split round trip n=%zu",
                 sizes[i]);
        test_check(&tally, what, prog_scatter_split(rt, sizes[i]));
        snprintf(what, sizeof what, "one-function reduction n=%zu",
                 sizes[i]);
        test_check(&tally, what, prog_reduce(rt, 200 + i, sizes[i]));
        for (int in_place = 0; in_place < 2; in_place++) {
            snprintf(what, sizeof what, "gather_into%s n=%zu",
                     in_place ? " in place" : "", sizes[i]);
            test_check(&tally, what,
                       prog_gather_into(rt, 500 + i, sizes[i], in_place));
        }
        for (int priv = 0; priv < 2; priv++) {
            snprintf(what, sizeof what, "recv views%s n=%zu",
                     priv ? ", private masters" : "", sizes[i]);
            test_check(&tally, what,
                       prog_recv_view(rt, 400 + i, sizes[i], priv));
        }
    }
    size_t checked = 0;
    int rc = prog_split(rt, &checked);
    if (!rc && split_cases >= 0 && checked != (size_t)split_cases)
        rc = sgl_error_set(SGL_ETASK, "%zu masters with a split by hand, "
                                      "not %ld",
                           checked, split_cases);
    test_check(&tally, "split by workers and by weights", rc);
    test_check(&tally, "gather_into edges", prog_gather_into_misc(rt));
    test_check(&tally, "run result on rank 0 only",
               on_every_rank(rt, prog_run_result(rt, 0)));
    test_check(&tally, "blocks not a whole number of elements",
               prog_block_sizes(rt));
    test_check(&tally, "distributed sum", prog_distributed_sum(rt, 1000000));
    test_check(&tally, "random blocks", prog_random_blocks(rt, 7, 4));
    test_check(&tally, "large blocks gathered in place", prog_big_gather(rt));
    test_check(&tally, "blocks built in place, buffers freed early",
               prog_inplace(rt));
    test_check(&tally, "keyed states beside the program's",
               prog_keyed_state(rt));
    test_check(&tally, "trace counts bytes and work", prog_trace(rt));
    test_check(&tally, "trace times replies", prog_reply_times(rt));
    test_check(&tally, "exchange, direct",
               prog_exchange(rt, 21, SGL_EXCHANGE_DIRECT));
    test_check(&tally, "exchange, routed",
               prog_exchange(rt, 22, SGL_EXCHANGE_ROUTED));
    test_check(&tally, "exchange misuse", prog_exchange_misuse(rt));
    test_check(&tally, "trace written",
          sgl_trace_write(rt, "mpi_runtime-trace.json", SGL_TRACE_PERFETTO));
    test_check(&tally, "misuse", prog_misuse(rt));
    test_check(&tally, "failing first worker", prog_failing_worker(rt, 0));
    test_check(&tally, "failing middle worker", prog_failing_worker(rt, p / 2));
    test_check(&tally, "failing last worker", prog_failing_worker(rt, p - 1));
    test_check(&tally, "roundtrip after failures", prog_roundtrip(rt, 3, 50000));
    if (sgl_finalize(rt) != SGL_OK)
        tally.failed++;
    rt = start(1);
    test_check(&tally, "run result shared with every rank",
               on_every_rank(rt, prog_run_result(rt, 1)));
    test_check(&tally, "reduction result on every rank",
               on_every_rank(rt, prog_reduce(rt, 300, 100003)));
    if (sgl_finalize(rt) != SGL_OK)
        tally.failed++;
    MPI_Finalize();
    if (tally.report) {
        printf("1..%d\n", tally.passed + tally.failed);
        printf("# %d passed, %d failed\n", tally.passed, tally.failed);
    }
    return tally.failed ? 1 : 0;
}
