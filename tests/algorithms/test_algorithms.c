/* The algorithms in one process on thread levels: every algorithm against
 * a sequential reference on flat, nested and heterogeneous trees, at the
 * sizes that catch uneven splits (0, 1, p-1, p, p+1, primes, 1e6), 8-bit
 * elements (widened reductions, wrapping scans), PSRS on adversarial
 * inputs, and every documented error. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdio.h>
#include <stdlib.h>

#include "algo_programs.h"
#include "check_helpers.h"

static sgl_runtime_t *start(const char *shape)
{
    return test_start(shape, algo_test_register);
}

static size_t workers(sgl_runtime_t *rt)
{
    return sgl_machine_workers(sgl_runtime_machine(rt));
}

static void reduce_all(const char *shape)
{
    sgl_runtime_t *rt = start(shape);
    size_t p = workers(rt);
    size_t sizes[] = {0, 1, p - 1, p, p + 1, 97, 1009, 1000000};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        RUN_OK(algo_check_reduce(rt, sizes[i], 11 + i));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

static void scan_all(const char *shape)
{
    sgl_runtime_t *rt = start(shape);
    size_t p = workers(rt);
    size_t sizes[] = {0, 1, p - 1, p, p + 1, 97, 1009, 100003};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        RUN_OK(algo_check_scan(rt, sizes[i], 21 + i));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* 8-bit elements: 5000 and 100003 give every worker whole 256-element
 * blocks of the vectorised kernels and a tail. */
static void int8_all(const char *shape)
{
    sgl_runtime_t *rt = start(shape);
    size_t p = workers(rt);
    size_t sizes[] = {0, 1, p - 1, p, p + 1, 97, 1009, 5000, 100003};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        RUN_OK(algo_check_int8(rt, sizes[i], 41 + i));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

static void sort_all(const char *shape)
{
    sgl_runtime_t *rt = start(shape);
    size_t p = workers(rt);
    size_t sizes[] = {0, 1, p - 1, p, p + 1, 97, 1009, 20011};
    static const sgl_dtype_t types[] = {SGL_F64, SGL_F32, SGL_I64, SGL_U64};
    for (size_t t = 0; t < 4; t++)
        for (int pat = 0; pat < PAT_COUNT; pat++)
            for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
                RUN_OK(algo_check_sort(rt, types[t], (enum algo_pattern)pat,
                                       sizes[i], 31 + i, NULL));
    size_t big = 1000000, maxb;
    RUN_OK(algo_check_sort(rt, SGL_F64, PAT_RANDOM, big, 5, &maxb));
    cr_log_info("%s random n=%zu: largest block %zu = %.4f n/P", shape, big,
                maxb, (double)maxb * (double)p / (double)big);
    RUN_OK(algo_check_sort(rt, SGL_F64, PAT_EQUAL, big, 5, &maxb));
    cr_log_info("%s all-equal n=%zu: largest block %zu = %.4f n/P", shape,
                big, maxb, (double)maxb * (double)p / (double)big);
    cr_assert_leq(maxb, big / p + 1, "all-equal block %zu", maxb);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* The folds and scans prefetch a page ahead in chunks while a page and a
 * chunk are left (ops.c): on one worker, sizes around where that loop
 * ends for 8-byte (640 elements), 4-byte (1280) and 1-byte (4352)
 * elements, and a chunk or a step past it, every element counted once
 * (the integer sums are exact, a one-worker scan runs in the reference's
 * order). */
Test(algorithms, reduce_prefetch_boundaries)
{
    sgl_runtime_t *rt = start("core:1");
    static const size_t edges[] = {640,        640 + 128, 1280,
                                   1280 + 256, 4352,      4352 + 256};
    static const int offsets[] = {-9, -1, 0, 1, 7, 8};
    uint64_t seed = 71;
    for (size_t e = 0; e < sizeof edges / sizeof *edges; e++)
        for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++) {
            size_t n = (size_t)((long)edges[e] + offsets[o]);
            RUN_OK(algo_check_reduce(rt, n, seed++));
            RUN_OK(algo_check_scan(rt, n, seed++));
            RUN_OK(algo_check_int8(rt, n, seed++));
        }
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

#define SHAPE_TESTS(name, shape)                                               \
    Test(algorithms, reduce_##name) { reduce_all(shape); }                     \
    Test(algorithms, scan_##name) { scan_all(shape); }                         \
    Test(algorithms, int8_##name) { int8_all(shape); }                         \
    Test(algorithms, sort_##name) { sort_all(shape); }

SHAPE_TESTS(one_worker, "core:1")
SHAPE_TESTS(flat_two, "core:2")
SHAPE_TESTS(flat_odd, "core:3")
SHAPE_TESTS(two_levels, "pack:2 core:3")
SHAPE_TESTS(heterogeneous, "pack:3 core:[1,4,2]")

Test(algorithms, own_state_survives)
{
    sgl_runtime_t *rt = start("pack:3 core:[1,4,2]");
    RUN_OK(algo_check_own_state(rt));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(algorithms, errors_flat)
{
    sgl_runtime_t *rt = start("core:3");
    RUN_OK(algo_check_errors(rt));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(algorithms, errors_one_worker)
{
    sgl_runtime_t *rt = start("core:1");
    RUN_OK(algo_check_errors(rt));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* SGL_SORT of the root's process picks the PSRS variant; without it (or
 * with auto) a tree of 6 workers and no parameters sorts flat. */
Test(algorithms, sort_variant_from_the_environment)
{
    sgl_runtime_t *rt = start("pack:2 core:3");
    static const struct {
        const char *env;
        unsigned want;
    } cases[] = {{"levels", SGL_SORT_LEVELS},
                 {"flat", SGL_SORT_FLAT},
                 {"auto", SGL_SORT_FLAT},
                 {"", SGL_SORT_FLAT},
                 {"fast", 0},
                 {"LEVELS", 0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cr_assert_eq(setenv("SGL_SORT", cases[i].env, 1), 0);
        int rc = algo_check_sort_variant(rt, cases[i].want);
        cr_expect_eq(rc, SGL_OK, "SGL_SORT='%s': %s", cases[i].env,
                     sgl_error_last());
    }
    cr_assert_eq(unsetenv("SGL_SORT"), 0);
    RUN_OK(algo_check_sort_variant(rt, SGL_SORT_FLAT));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* One worker sorts alone, but a bad SGL_SORT is refused there too. */
Test(algorithms, sort_variant_refused_on_one_worker)
{
    sgl_runtime_t *rt = start("core:1");
    cr_assert_eq(setenv("SGL_SORT", "fast", 1), 0);
    int rc = algo_check_sort_variant(rt, 0);
    cr_assert_eq(unsetenv("SGL_SORT"), 0);
    cr_expect_eq(rc, SGL_OK, "one worker: %s", sgl_error_last());
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(algorithms, register_before_run_only_once)
{
    sgl_runtime_t *rt = start("core:2");
    cr_assert_eq(sgl_algorithms_register(rt), SGL_EINVAL);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}
