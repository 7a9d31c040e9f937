/* Presorted input for PSRS (internal; never installed): each worker's
 * one-pass look at its block (in order, in reverse order, or neither)
 * and the master's verdict over all blocks. Keys are mapped to order-preserving
 * unsigned integers as the rest of PSRS orders them (local_sort.h).
 *
 * Thread safety: every function works on its arguments only. */
#ifndef SGL_ALGO_PSRS_RUNS_H
#define SGL_ALGO_PSRS_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/algorithms.h>

#include "records.h"

/* A block's shape: bit RUNS_UP if its keys never decrease, RUNS_DOWN if
 * they never increase (both: one key, or fewer than two elements). */
enum { RUNS_UP = 1, RUNS_DOWN = 2 };

/* What a worker hands up with its samples: its block's size, shape, and
 * the mapped keys of its first and last element (0 when empty), as the
 * block came. */
struct runs_unit {
    uint64_t count, shape, first, last;
};

/* Look at the @n elements at @a (layout @L, key type @t, raw keys) and
 * fill @u. Stops as soon as the block is neither in order nor in reverse
 * order: random input costs a chunk, presorted input one read pass. */
void sgl__runs_classify(sgl_dtype_t t, const struct rec_layout *L,
                        const void *a, size_t n, struct runs_unit *u);

/* As sgl__runs_classify(), but a block of plain keys (8 bytes, 4 for
 * SGL_F32) found in reverse order, strictly so from its first chunk on,
 * is put in order in the same pass (each chunk checked from both ends,
 * then swapped end for end): one read and one write of each element
 * where a scan and then a reversal cost two reads. Returns 1 where it
 * reversed the block, else 0 (the block as it came; records always).
 * @u describes the block as it came. */
int sgl__runs_classify_reverse(sgl_dtype_t t, const struct rec_layout *L,
                               void *a, size_t n, struct runs_unit *u);

/* Reverse @n elements of @es bytes (8 or 4: plain keys, or records of
 * that size) at @a in place, end for end. */
void sgl__runs_reverse_plain(void *a, size_t n, size_t es);

/* The path the sort of the @p blocks described by @u takes
 * (SGL_SORT_PATH_*): SORTED where the blocks, concatenated, are in order;
 * REVERSED where they are in reverse order (@strict: keys equal across
 * two blocks refuse it, as a record sort must keep their order); both
 * only where every worker's new block stays within 1/16 (+ 2) of its
 * share (@share, elements per worker), else SAMPLES. */
unsigned sgl__runs_verdict(const struct runs_unit *u, size_t p,
                           const uint64_t *share, int strict);

#endif
