/* What arrays and plans share inside the library: the handle, a worker's
 * block, the way tasks reach every worker below a master, and the storage
 * offsets of an index. */
#ifndef SGL_DARRAY_IMPL_H
#define SGL_DARRAY_IMPL_H

#include <stdint.h>

#include <sgl/darray.h>

#include "dpart.h"

struct sgl_darray {
    uint32_t id;
    unsigned level;        /* the master's level and first worker name it */
    size_t first;
    struct dpart part;
    sgl_darray_layout_t layout; /* as computed: the grid, cuts into part */
};

/* A worker's block of one array. */
struct darr {
    uint32_t id; /* first: sgl__darray_item_find() reads it */
    struct dpart part;
    size_t w;              /* the worker's index in the partition */
    size_t lo[DP_DIMS], hi[DP_DIMS]; /* its box */
    size_t stride[DP_DIMS];
    unsigned char *mem;    /* the box and its halo */
};

/* The worker's block of array @id, or NULL. */
struct darr *sgl__darr_find(sgl_ctx_t *worker, uint32_t id);

/* A worker's objects of one kind, kept under the kind's @key in its state
 * (darray_items.c); each object begins with its uint32_t id. @destroy
 * frees one; the list frees what is left when the worker's state goes. */
void *sgl__darray_item_find(sgl_ctx_t *worker, const void *key, uint32_t id);
int sgl__darray_item_add(sgl_ctx_t *worker, const void *key, void *item,
                         void (*destroy)(void *));
void sgl__darray_item_drop(sgl_ctx_t *worker, const void *key, uint32_t id);

/* A new number for an array or a plan created at @master, unique among
 * those a worker below it can hold: masters of one level have disjoint
 * workers, so the level and a per-process counter suffice. */
uint32_t sgl__darray_new_id(const sgl_ctx_t *master);

/* SGL_OK if @master is the master that created @array; else the error
 * (SGL_EINVAL for NULL, SGL_ESTATE for a worker or another master),
 * named after the public function @fn. */
int sgl__darray_check_owner(sgl_ctx_t *master, const sgl_darray_t *array,
                            const char *fn);

/* Run @task on every worker below @ctx, recursively, with the same
 * argument; on a worker, run it on @ctx itself. */
int sgl__darray_on_workers(sgl_ctx_t *ctx, sgl_task_fn task, const void *arg,
                           size_t size);

/* Offset in elements of index @x in storage with box [lo, hi), halo and
 * strides. */
static inline size_t darray_offset(const long x[DP_DIMS],
                                   const size_t lo[DP_DIMS],
                                   const size_t halo[DP_DIMS],
                                   const size_t stride[DP_DIMS])
{
    size_t off = 0;
    for (unsigned d = 0; d < DP_DIMS; d++)
        off += (size_t)(x[d] - (long)lo[d] + (long)halo[d]) * stride[d];
    return off;
}

/* Copy a box of @ext elements between two strided storages, rows of the
 * last dimension at a time. */
void sgl__darray_copy_box(unsigned char *dst, const size_t dstride[DP_DIMS],
                          const unsigned char *src,
                          const size_t sstride[DP_DIMS],
                          const size_t ext[DP_DIMS], size_t elem_size);

#endif
