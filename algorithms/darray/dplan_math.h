/* A worker's part of a communication plan, as index arithmetic (the
 * Trasgo paper's aggregated-communication model): from the partition and
 * the loop's read accesses, the box of indices the worker's loop reads
 * (its view) and, for every owner of some of them, the ranges to copy.
 *
 *   1 image      each access maps the worker's own box to a box of
 *                unwrapped indices (per dimension the affine expression's
 *                extremes over the box);
 *   2 disjoint   the images are made disjoint (each minus those before
 *                it), so no element travels twice;
 *   3 periods    each disjoint box is cut at the multiples of the extent
 *                in its periodic dimensions: every piece then lies in one
 *                period, and shifting it by a multiple of the extent gives
 *                indices of the array;
 *   4 owners     each piece is cut at the blocks of the partition it
 *                crosses (binary search per dimension).
 *
 * The work is proportional to the pieces, so to the workers the worker
 * reads from, not to all workers. Pure: no superstep here. */
#ifndef SGL_DPLAN_MATH_H
#define SGL_DPLAN_MATH_H

#include <stddef.h>

#include "dpart.h"

/* A range of one owner's block that lands in a worker's view. */
struct dpiece {
    size_t src;          /* the owner (worker index in the partition) */
    size_t glo[DP_DIMS]; /* its indices in the array, [glo, ghi) */
    size_t ghi[DP_DIMS];
    long vlo[DP_DIMS];   /* the view index of its first element */
};

struct dneed {
    long vlo[DP_DIMS], vhi[DP_DIMS]; /* the view's box (unwrapped): what
                                        the loop reads, or in place the
                                        block and its halo */
    int in_place;        /* the view fits in the worker's block and halo */
    struct dpiece *piece; /* by owner, then in the order found; without the
                             worker's own elements that an in-place view
                             already holds where they are */
    size_t npieces;
};

/* Check accesses against the whole array: every dimension that is not
 * periodic stays inside it, no expression overflows. @fn names the
 * caller in messages. */
int sgl__dplan_check(const struct dpart *p, size_t na, const sgl_daccess_t *a,
                     const char *fn);

/* Worker @w's view and pieces (accesses already checked). */
int sgl__dplan_need(const struct dpart *p, size_t w, size_t na,
                    const sgl_daccess_t *a, struct dneed *ret);
void sgl__dneed_free(struct dneed *n);

/* Elements of a piece. */
size_t sgl__dpiece_count(const struct dpiece *q, unsigned dims);

#endif
