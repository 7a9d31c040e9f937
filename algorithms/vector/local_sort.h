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

/* The order-preserving bijections from values to unsigned keys. Floats:
 * IEEE totalOrder, then the negative NaNs (the lowest keys) rotated above
 * the positive ones, so every NaN sorts after +inf; signed integers: the
 * sign bit flipped. Branch-free: the sorts apply them on every read. */
#define SGL__NNAN64 ((UINT64_C(1) << 52) - 1) /* negative NaN patterns */
#define SGL__NNAN32 ((UINT32_C(1) << 23) - 1)
#define SGL__TOP64 (UINT64_C(1) << 63)
#define SGL__TOP32 (UINT32_C(1) << 31)

static inline uint64_t sgl__key_f64(uint64_t b)
{
    uint64_t neg = (uint64_t)((int64_t)b >> 63); /* all ones if negative */
    return (b ^ (neg | SGL__TOP64)) - SGL__NNAN64;
}

static inline uint64_t sgl__key_i64(uint64_t b) { return b ^ SGL__TOP64; }

static inline uint32_t sgl__key_f32(uint32_t b)
{
    uint32_t neg = (uint32_t)((int32_t)b >> 31);
    return (b ^ (neg | SGL__TOP32)) - SGL__NNAN32;
}

/* Their inverses. */
static inline uint64_t sgl__val_f64(uint64_t k)
{
    k += SGL__NNAN64;
    uint64_t pos = (uint64_t)((int64_t)k >> 63); /* all ones: a positive */
    return k ^ ~(pos & ~SGL__TOP64);
}

static inline uint32_t sgl__val_f32(uint32_t k)
{
    k += SGL__NNAN32;
    uint32_t pos = (uint32_t)((int32_t)k >> 31);
    return k ^ ~(pos & ~SGL__TOP32);
}

/* Sort n doubles, 64-bit signed integers or floats, given as their bits,
 * in place, in the order of the keys above, without mapping the array
 * first and back after: the passes over memory map each key as they read
 * it, and each cache-sized segment is mapped, sorted and mapped back in
 * cache. Returns SGL_OK or SGL_ENOMEM; on error a is unchanged. */
int sgl__algo_sort_f64(uint64_t *a, size_t n);
int sgl__algo_sort_i64(uint64_t *a, size_t n);
int sgl__algo_sort_f32(uint32_t *a, size_t n);

/* The path the calling thread's last sort took (SGL_SORT_LOCAL_* of
 * <sgl/algorithms.h>): insertion sort (small), one pass (in order or in
 * reverse order), nearly sorted (keys out of place pulled aside and
 * merged back), or the radix sort. 0 before the thread's first sort. */
unsigned sgl__algo_sort_choice(void);

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

/* First position i in the sorted a[0..n) with key(a[i]) >= k (upper == 0)
 * or key(a[i]) > k (upper != 0); n if none. The key of a u64 or u32 is
 * itself; of an f64, i64 or f32 value, its bijection above (the arrays
 * that sgl__algo_sort_f64() and its kin sorted). */
size_t sgl__algo_bound_u64(const uint64_t *a, size_t n, uint64_t k, int upper);
size_t sgl__algo_bound_u32(const uint32_t *a, size_t n, uint64_t k, int upper);
size_t sgl__algo_bound_f64(const uint64_t *a, size_t n, uint64_t k, int upper);
size_t sgl__algo_bound_i64(const uint64_t *a, size_t n, uint64_t k, int upper);
size_t sgl__algo_bound_f32(const uint32_t *a, size_t n, uint64_t k, int upper);

/* Merge the p runs, sorted by key (as above), of lengths len[0..p) that
 * lie back to back in in into out (which must not overlap in). heap, pos
 * and end are scratch of p entries each. Equal keys are equal values, so
 * the order among them does not matter. */
void sgl__algo_merge_u64(const uint64_t *in, const uint64_t *len, size_t p,
                         uint64_t *out, size_t *heap, size_t *pos, size_t *end);
void sgl__algo_merge_u32(const uint32_t *in, const uint64_t *len, size_t p,
                         uint32_t *out, size_t *heap, size_t *pos, size_t *end);
void sgl__algo_merge_f64(const uint64_t *in, const uint64_t *len, size_t p,
                         uint64_t *out, size_t *heap, size_t *pos, size_t *end);
void sgl__algo_merge_i64(const uint64_t *in, const uint64_t *len, size_t p,
                         uint64_t *out, size_t *heap, size_t *pos, size_t *end);
void sgl__algo_merge_f32(const uint32_t *in, const uint64_t *len, size_t p,
                         uint32_t *out, size_t *heap, size_t *pos, size_t *end);

#endif
