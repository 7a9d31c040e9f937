/* PSRS on the eleven key distributions of issue 47 (those IPS4o's
 * benchmark uses) and the path each takes (sgl_sort_stats_t.path),
 * shared by the Criterion test (thread levels) and the multi-rank driver
 * (MPI levels). Each check runs one SGL program and returns SGL_OK or an
 * error whose message says what differed. */
#ifndef SGL_TEST_PSRS_PATHS_PROGRAMS_H
#define SGL_TEST_PSRS_PATHS_PROGRAMS_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/algorithms.h>

enum psrs_dist {
    DIST_UNIFORM,
    DIST_NORMAL,
    DIST_EXPONENTIAL,
    DIST_HUGE_RANGE, /* exponents over the whole finite double range */
    DIST_ZIPF,
    DIST_FEW_UNIQUE, /* 16 distinct keys */
    DIST_ROOT_DUP,   /* a[i] = i mod floor(sqrt(n)) (IPS4o's RootDup) */
    DIST_SORTED,
    DIST_REVERSE,
    DIST_ALMOST_SORTED, /* sorted, then sqrt(n) random swaps */
    DIST_ALL_EQUAL,
    DIST_REVERSE_RUNS, /* nonincreasing with runs of 4 equal keys, which
                          may straddle two workers: stability */
    DIST_REVERSE_HALVES, /* two halves, each nonincreasing with runs of 2
                            equal keys, the second above the first: blocks
                            in reverse order, not the whole */
    DIST_ROTATED, /* sorted, rotated left by n/128 + 1: each worker's top
                     keys belong to the next, the lowest to the first */
    DIST_COUNT
};

extern const char *const psrs_dist_names[DIST_COUNT];

/* Register the algorithms' tasks and the checks' own. */
int psrs_paths_register(sgl_runtime_t *rt);

/* Sort n keys of distribution @d as doubles and as 16-byte records
 * (key, original index) by sgl_dvec_sort() and sgl_dvec_sort_records():
 * sorted, a permutation of the input, records stable, every worker's
 * block within the documented bound, the path the one this input must
 * take, and in this process's trace (rank 0) no exchange on the sorted
 * path, nor on the reversed path where every worker shares that process
 * (the workers hand each other their blocks), else one. */
int psrs_paths_check(sgl_runtime_t *rt, enum psrs_dist d, size_t n,
                     uint64_t seed);

#endif
