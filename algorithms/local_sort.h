/* Local kernels of the sorts (internal; never installed): in-place radix
 * sorts of unsigned keys and of records by an unsigned key, lower and upper
 * bounds in a sorted array, and the p-way merge of sorted runs. Keys are
 * already mapped to unsigned integers by an order-preserving bijection.
 *
 * Thread safety: every function works on its arguments only; any number of
 * threads may call them on disjoint arrays.
 * Memory: a sort allocates one buffer of the array's size (n * element size)
 * and about 0.7 MiB of counters and scratch, freed before it returns. */
#ifndef SGL_ALGO_LOCAL_SORT_H
#define SGL_ALGO_LOCAL_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Largest record sgl__algo_sort_records() accepts, in bytes. */
#define ALGO_SORT_MAX_ES 256

/* Sort a[0..n) ascending, in place.
 * Returns SGL_OK, or SGL_ENOMEM (with sgl_error_set(); a is unchanged).
 * Cost: linear in n (a radix sort; see local_sort.c). */
int sgl__algo_sort_u64(uint64_t *a, size_t n);
int sgl__algo_sort_u32(uint32_t *a, size_t n);

/* Sort n records of es bytes at a by the unsigned key of key_bytes (4 or 8)
 * bytes, in native byte order, at byte offset ko of each record; in place
 * and stable (records with equal keys keep their order). The key need not
 * be aligned. es is a multiple of 4, at most ALGO_SORT_MAX_ES, and the key
 * lies inside the record (ko + key_bytes <= es).
 * Returns SGL_OK, SGL_EINVAL (bad layout) or SGL_ENOMEM; on error a is
 * unchanged. */
int sgl__algo_sort_records(void *a, size_t n, size_t es, size_t ko,
                           unsigned key_bytes);

/* First position i in the sorted a[0..n) with a[i] >= k (upper == 0) or
 * a[i] > k (upper != 0); n if none. */
size_t sgl__algo_bound_u64(const uint64_t *a, size_t n, uint64_t k, int upper);
size_t sgl__algo_bound_u32(const uint32_t *a, size_t n, uint32_t k, int upper);

/* Merge the p sorted runs of lengths len[0..p) that lie back to back in in
 * into out (which must not overlap in). heap, pos and end are scratch of p
 * entries each. Equal keys are equal values, so the order among them does
 * not matter. */
void sgl__algo_merge_u64(const uint64_t *in, const uint64_t *len, size_t p,
                         uint64_t *out, size_t *heap, size_t *pos, size_t *end);
void sgl__algo_merge_u32(const uint32_t *in, const uint64_t *len, size_t p,
                         uint32_t *out, size_t *heap, size_t *pos, size_t *end);

#endif
