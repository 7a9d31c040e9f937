/* Local kernels of PSRS for fixed-size records sorted by an unsigned key
 * inside each record (already mapped to an order-preserving unsigned
 * integer): stable sort, bounds and a stable p-way merge. Keys are read
 * with memcpy, so records need no alignment. Never installed. */
#ifndef SGL_ALGO_RECORDS_H
#define SGL_ALGO_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Where the key lies: records of @es bytes, key of 8 (@wide) or 4 bytes at
 * byte @ko. */
struct rec_layout {
    size_t es, ko;
    int wide;
};

/* The key of @wide (8, else 4) bytes at byte @ko of the record at @e; the
 * one key reader of the record sorts, inline for their hot loops. */
static inline uint64_t rec_key_at(const void *e, size_t ko, int wide)
{
    const unsigned char *r = (const unsigned char *)e + ko;
    if (wide) {
        uint64_t k;
        memcpy(&k, r, 8);
        return k;
    }
    uint32_t k;
    memcpy(&k, r, 4);
    return k;
}

/* Key of record @i of @a. */
uint64_t sgl__rec_key(const struct rec_layout *L, const void *a, size_t i);

/* Stable sort of @n records by key in place, with one scratch buffer of
 * n * es bytes. SGL_OK or SGL_ENOMEM. */
int sgl__rec_sort(const struct rec_layout *L, void *a, size_t n);

/* First record with key >= @k (@upper: > @k) in sorted @a. */
size_t sgl__rec_bound(const struct rec_layout *L, const void *a, size_t n,
                      uint64_t k, int upper);

/* Merge @p sorted runs (lengths @len) lying back to back in @in into @out.
 * Stable: among equal keys, earlier runs come first and each run keeps its
 * order. @scratch holds 3 p entries. */
void sgl__rec_merge(const struct rec_layout *L, const void *in,
                    const uint64_t *len, size_t p, void *out, size_t *scratch);

/* In @a (n records, keys in order), reverse every stretch of records
 * with equal keys: after a block in reverse order was copied backwards,
 * its equal records stand in their original order again (stable). */
void sgl__rec_unreverse_equal(const struct rec_layout *L, void *a, size_t n);

/* Reverse @n records of @a in place, any record size (a block in reverse
 * order put in order without a second buffer); the caller unreverses
 * equal keys where it needs stability. */
void sgl__rec_reverse(const struct rec_layout *L, void *a, size_t n);

#endif
