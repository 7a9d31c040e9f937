/* Multi-rank driver: the algorithm checks on the shape in SGL_SHAPE under
 * mpiexec. Every rank runs every program (non-root ranks serve); rank 0
 * prints TAP, and the largest PSRS partition for random and all-equal
 * input as comments. */
#include <stdio.h>
#include <stdlib.h>

#include "algo_programs.h"

static int passed, failed, rank;

static void check(const char *what, int rc)
{
    if (rank != 0)
        return;
    if (rc == SGL_OK) {
        passed++;
        printf("ok %d - %s\n", passed + failed, what);
    } else {
        failed++;
        printf("not ok %d - %s: %s (%s)\n", passed + failed, what,
               sgl_err_name(rc), sgl_last_error());
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt) != SGL_OK) {
        fprintf(stderr, "sgl_init: %s\n", sgl_last_error());
        return 1;
    }
    rank = sgl_runtime_rank(rt);
    if (algo_test_register(rt) != SGL_OK) {
        fprintf(stderr, "register: %s\n", sgl_last_error());
        return 1;
    }
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    size_t p = sgl_machine_workers(m);
    if (rank == 0)
        printf("# shape %s: %zu workers, %zu processes, depth %u\n",
               sgl_machine_source(m), p, sgl_machine_processes(m),
               sgl_machine_depth(m));
    size_t sizes[] = {0, 1, p - 1, p, p + 1, 1009, 100003};
    char what[128];
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        snprintf(what, sizeof what, "reduce n=%zu", sizes[i]);
        check(what, algo_check_reduce(rt, sizes[i], 3 + i));
        snprintf(what, sizeof what, "scan n=%zu", sizes[i]);
        check(what, algo_check_scan(rt, sizes[i], 5 + i));
    }
    static const sgl_dtype_t types[] = {SGL_F64, SGL_F32, SGL_I64, SGL_U64};
    static const char *const tn[] = {"f64", "f32", "i64", "u64"};
    for (size_t t = 0; t < 4; t++)
        for (int pat = 0; pat < PAT_COUNT; pat++)
            for (size_t i = 0; i < 6; i++) {
                snprintf(what, sizeof what, "sort %s %s n=%zu", tn[t],
                         algo_pattern_names[pat], sizes[i]);
                check(what, algo_check_sort(rt, types[t],
                                            (enum algo_pattern)pat, sizes[i],
                                            7 + i, NULL));
            }
    size_t big = 1000000, maxb = 0;
    check("sort f64 random n=1e6",
          algo_check_sort(rt, SGL_F64, PAT_RANDOM, big, 1, &maxb));
    if (rank == 0)
        printf("# random n=%zu P=%zu: largest block %zu = %.4f n/P\n", big, p,
               maxb, (double)maxb * (double)p / (double)big);
    check("sort f64 all-equal n=1e6",
          algo_check_sort(rt, SGL_F64, PAT_EQUAL, big, 1, &maxb));
    if (rank == 0)
        printf("# all-equal n=%zu P=%zu: largest block %zu = %.4f n/P\n", big,
               p, maxb, (double)maxb * (double)p / (double)big);
    check("errors", algo_check_errors(rt));
    if (sgl_finalize(rt) != SGL_OK)
        failed++;
    if (rank == 0) {
        printf("1..%d\n", passed + failed);
        printf("# %d passed, %d failed\n", passed, failed);
    }
    return failed ? 1 : 0;
}
