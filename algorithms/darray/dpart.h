/* The partition of a distributed array: which index box each worker owns
 * (a grid of workers, cuts per dimension), checked once from the user's
 * layout, and packed into words to travel with a task. Pure arithmetic:
 * no superstep here, so the plan's index computations can be tested and
 * timed without a runtime. */
#ifndef SGL_DPART_H
#define SGL_DPART_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/darray.h>

#define DP_DIMS SGL_DARRAY_MAX_DIMS

struct dpart {
    unsigned dims;
    size_t elem_size;
    size_t size[DP_DIMS];
    size_t grid[DP_DIMS];  /* 1 in unused dimensions */
    size_t halo[DP_DIMS];  /* 0 in unused dimensions */
    size_t workers;        /* the product of grid */
    size_t *cut[DP_DIMS];  /* cut[d][c], c <= grid[d]: block c of dimension
                              d is [cut[d][c], cut[d][c + 1]) */
};

/* Check the whole layout for @workers workers and compute the cuts.
 * @return SGL_OK, SGL_EINVAL or SGL_ERANGE with a message, SGL_ENOMEM. */
int sgl__dpart_from_layout(const sgl_darray_layout_t *layout, size_t workers,
                           struct dpart *ret);
void sgl__dpart_free(struct dpart *p);

/* Words of the packed form, packing and unpacking (which allocates the
 * cuts and checks the words describe a partition). */
size_t sgl__dpart_words(const struct dpart *p);
void sgl__dpart_pack(const struct dpart *p, uint64_t *words);
int sgl__dpart_unpack(const uint64_t *words, size_t nwords, struct dpart *ret);

/* A copy of @p with its own cuts. */
int sgl__dpart_copy(const struct dpart *p, struct dpart *ret);

/* Nonzero if @a and @b cut the same array the same way. */
int sgl__dpart_same(const struct dpart *a, const struct dpart *b);

/* Grid position of worker @w (row-major, the last dimension fastest),
 * and back. */
void sgl__dpart_coords(const struct dpart *p, size_t w, size_t c[DP_DIMS]);
size_t sgl__dpart_worker(const struct dpart *p, const size_t c[DP_DIMS]);
/* The box worker @w owns, [lo, hi) per dimension. */
void sgl__dpart_box(const struct dpart *p, size_t w, size_t lo[DP_DIMS],
                    size_t hi[DP_DIMS]);
/* The block of dimension @d that holds index @x (< size[d]). */
size_t sgl__dpart_owner(const struct dpart *p, unsigned d, size_t x);
/* Elements of worker @w's storage: its box and the halo around it; and the
 * storage's strides (row-major). */
size_t sgl__dpart_storage(const struct dpart *p, size_t w,
                          size_t stride[DP_DIMS]);

#endif
