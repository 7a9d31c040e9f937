/* Multi-rank driver: the algorithm checks on the shape in SGL_SHAPE under
 * mpiexec. Every rank runs every program (non-root ranks serve); rank 0
 * prints TAP, and the largest PSRS partition for random and all-equal
 * input as comments. */
#include <stdio.h>
#include <stdlib.h>

#include "algo_programs.h"
#include "test_util.h"

static struct test_tally tally;

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt) != SGL_OK) {
        fprintf(stderr, "sgl_init: %s\n", sgl_error_last());
        return 1;
    }
    tally.report = sgl_runtime_rank(rt) == 0;
    if (algo_test_register(rt) != SGL_OK) {
        fprintf(stderr, "register: %s\n", sgl_error_last());
        return 1;
    }
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    size_t p = sgl_machine_workers(m);
    if (tally.report)
        printf("# shape %s: %zu workers, %zu processes, depth %u\n",
               sgl_machine_source(m), p, sgl_machine_processes(m),
               sgl_machine_depth(m));
    size_t sizes[] = {0, 1, p - 1, p, p + 1, 1009, 100003};
    char what[128];
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        snprintf(what, sizeof what, "reduce n=%zu", sizes[i]);
        test_check(&tally, what, algo_check_reduce(rt, sizes[i], 3 + i));
        snprintf(what, sizeof what, "scan n=%zu", sizes[i]);
        test_check(&tally, what, algo_check_scan(rt, sizes[i], 5 + i));
        snprintf(what, sizeof what, "int8/uint8 reduce, scan, fills n=%zu",
                 sizes[i]);
        test_check(&tally, what, algo_check_int8(rt, sizes[i], 9 + i));
    }
    static const sgl_dtype_t types[] = {SGL_F64, SGL_F32, SGL_I64, SGL_U64};
    static const char *const tn[] = {"f64", "f32", "i64", "u64"};
    for (size_t t = 0; t < 4; t++)
        for (int pat = 0; pat < PAT_COUNT; pat++)
            for (size_t i = 0; i < 6; i++) {
                snprintf(what, sizeof what, "sort %s %s n=%zu", tn[t],
                         algo_pattern_names[pat], sizes[i]);
                test_check(&tally, what, algo_check_sort(rt, types[t],
                                            (enum algo_pattern)pat, sizes[i],
                                            7 + i, NULL));
            }
    size_t big = 1000000, maxb = 0;
    test_check(&tally, "sort f64 random n=1e6",
          algo_check_sort(rt, SGL_F64, PAT_RANDOM, big, 1, &maxb));
    if (tally.report)
        printf("# random n=%zu P=%zu: largest block %zu = %.4f n/P\n", big, p,
               maxb, (double)maxb * (double)p / (double)big);
    test_check(&tally, "sort f64 all-equal n=1e6",
          algo_check_sort(rt, SGL_F64, PAT_EQUAL, big, 1, &maxb));
    if (tally.report)
        printf("# all-equal n=%zu P=%zu: largest block %zu = %.4f n/P\n", big,
               p, maxb, (double)maxb * (double)p / (double)big);
    test_check(&tally, "errors", algo_check_errors(rt));
    test_check(&tally, "own state beside the algorithms'",
               algo_check_own_state(rt));
    if (sgl_finalize(rt) != SGL_OK)
        tally.failed++;
    if (tally.report) {
        printf("1..%d\n", tally.passed + tally.failed);
        printf("# %d passed, %d failed\n", tally.passed, tally.failed);
    }
    return tally.failed ? 1 : 0;
}
