/* The sort benchmarks' keys: the distributions IPS4o's authors measure
 * (Axtmann et al., "Engineering In-place (Shared-memory) Sorting
 * Algorithms", TOPC 2022), as doubles, from a seed. Every contestant of
 * one measurement sorts a copy of the same array, so a generator runs once
 * per distribution, size and seed. */
#ifndef SGL_BENCH_SORT_KEYS_H
#define SGL_BENCH_SORT_KEYS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The number of distributions; their indices run 0 .. SORT_KEYS_COUNT-1. */
enum { SORT_KEYS_COUNT = 11 };

/* The short name of distribution @d ("uniform", ...), NULL out of range. */
const char *sort_keys_name(int d);

/* The index of the distribution named @name, or -1. */
int sort_keys_find(const char *name);

/* Fill @x with @n keys of distribution @d from @seed; -1 if @d is out of
 * range. None is NaN or -0.0, so that every correct sort, in IEEE
 * totalOrder or with operator<, leaves the same bits in the same place. */
int sort_keys_fill(int d, double *x, size_t n, uint64_t seed);

/* 1 if @x[0..n) is in non-decreasing order. */
int sort_keys_sorted(const double *x, size_t n);

#ifdef __cplusplus
}
#endif

#endif
