/* Checks of the algorithms against sequential references, shared by the
 * Criterion tests (thread levels, one process) and the multi-rank driver
 * (MPI levels). Each runs one SGL program and returns SGL_OK or an error
 * whose message says what differed. */
#ifndef SGL_TEST_ALGO_PROGRAMS_H
#define SGL_TEST_ALGO_PROGRAMS_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/algorithms.h>

/* Register the algorithms, the test's user operator, fill and tasks. */
int algo_test_register(sgl_runtime_t *rt);

/* Reduction of every type and operator (and the user operator) on n
 * elements, centralised and distributed, with broadcast back; checks
 * determinism by running twice. */
int algo_check_reduce(sgl_runtime_t *rt, size_t n, uint64_t seed);

/* Scan, both variants, inclusive and exclusive, centralised and
 * distributed, several types and operators. */
int algo_check_scan(sgl_runtime_t *rt, size_t n, uint64_t seed);

/* 8-bit elements (SGL_I8, SGL_U8): widened reductions of every operator
 * against a sequential 64-bit reference (exactly 8 result bytes), wrapping
 * scans of every variant, the built-in fills and the iota sum in closed
 * form. */
int algo_check_int8(sgl_runtime_t *rt, size_t n, uint64_t seed);

/* Input patterns for the sort. */
enum algo_pattern {
    PAT_RANDOM,
    PAT_EQUAL,
    PAT_TWO,
    PAT_SORTED,
    PAT_REVERSED,
    PAT_ORGAN,
    PAT_SPECIAL, /* NaN of both signs, +-0, +-inf, denormals */
    PAT_FEW,
    PAT_COUNT
};
extern const char *const algo_pattern_names[PAT_COUNT];

/* Sort @n elements of @dtype in @pattern, centralised and distributed;
 * checks order, permutation and the balance. *ret_max_block gets the
 * largest partition of the distributed sort (may be NULL). */
int algo_check_sort(sgl_runtime_t *rt, sgl_dtype_t dtype,
                    enum algo_pattern pattern, size_t n, uint64_t seed,
                    size_t *ret_max_block);

/* The algorithms keep their state under their own key: a program's own
 * state at every node (sgl_ctx_set_state) survives them. */
int algo_check_own_state(sgl_runtime_t *rt);

/* Every documented error of the algorithms' API. */
int algo_check_errors(sgl_runtime_t *rt);

/* sgl_sort_variant() at the root says @want (SGL_SORT_FLAT or
 * SGL_SORT_LEVELS) and a sort of 1009 doubles then succeeds; with @want 0
 * both refuse with SGL_EINVAL (a bad SGL_SORT) and the vector keeps its
 * data. */
int algo_check_sort_variant(sgl_runtime_t *rt, unsigned want);

#endif
