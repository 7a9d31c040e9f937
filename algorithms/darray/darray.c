/* Distributed arrays: a handle at the master that created the array, one
 * block (with its halo) per worker below it, kept in the worker's state
 * under this file's key. Create, gather and free are one superstep each,
 * recursive over the levels below the master. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"
#include "darray_impl.h"
#include <sgl/balance.h>
#include <sgl/blocks.h>

/* ---- a worker's blocks ---- */

static const char array_key;

static void darr_free(void *p)
{
    struct darr *b = p;
    if (b) {
        sgl__dpart_free(&b->part);
        free(b->mem);
    }
    free(b);
}

struct darr *sgl__darr_find(sgl_ctx_t *worker, uint32_t id)
{
    return sgl__darray_item_find(worker, &array_key, id);
}

int sgl_darray_local(sgl_ctx_t *worker, uint32_t id, sgl_dblock_t *ret)
{
    if (!worker || !ret)
        return sgl_error_set(SGL_EINVAL, "sgl_darray_local: NULL argument");
    if (!sgl_ctx_is_worker(worker))
        return sgl_error_set(SGL_ESTATE, "sgl_darray_local: not a worker");
    struct darr *b = sgl__darr_find(worker, id);
    if (!b)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_darray_local: worker %zu has no block of "
                             "array %u",
                             sgl_ctx_first_worker(worker), id);
    memset(ret, 0, sizeof *ret);
    ret->dims = b->part.dims;
    ret->elem_size = b->part.elem_size;
    long x[DP_DIMS];
    for (unsigned d = 0; d < DP_DIMS; d++) {
        x[d] = (long)b->lo[d];
        ret->lo[d] = (long)b->lo[d];
        ret->hi[d] = (long)b->hi[d];
        ret->halo[d] = b->part.halo[d];
        ret->stride[d] = b->stride[d];
    }
    ret->data = b->mem + darray_offset(x, b->lo, b->part.halo, b->stride) *
                             b->part.elem_size;
    return SGL_OK;
}

/* ---- shared by arrays and plans ---- */

uint32_t sgl__darray_new_id(const sgl_ctx_t *master)
{
    static atomic_uint counter;
    unsigned n = atomic_fetch_add(&counter, 1) + 1;
    return (uint32_t)(sgl_ctx_level(master) << 24 | (n & 0xffffffu));
}

int sgl__darray_on_workers(sgl_ctx_t *ctx, sgl_task_fn task, const void *arg,
                           size_t size)
{
    return sgl_ctx_is_worker(ctx) ? task(ctx, arg, size)
                                  : sgl_pardo(ctx, task, arg, size);
}

void sgl__darray_copy_box(unsigned char *dst, const size_t dstride[DP_DIMS],
                          const unsigned char *src,
                          const size_t sstride[DP_DIMS],
                          const size_t ext[DP_DIMS], size_t es)
{
    size_t row = ext[2] * es;
    for (size_t i = 0; i < ext[0]; i++)
        for (size_t j = 0; j < ext[1]; j++) {
            unsigned char *d = dst + (i * dstride[0] + j * dstride[1]) * es;
            const unsigned char *s =
                src + (i * sstride[0] + j * sstride[1]) * es;
            if (row == 8) /* a column of doubles: no call per element */
                memcpy(d, s, 8);
            else
                memcpy(d, s, row);
        }
}

/* ---- create ---- */

struct create_arg {
    uint32_t id;
    uint32_t pad;
    uint64_t first;   /* the master's first worker */
    uint64_t words[]; /* the packed partition */
};

static int create_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, create_task, arg, size);
    const struct create_arg *a = arg;
    struct darr *b = calloc(1, sizeof *b);
    if (!b)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    b->id = a->id;
    b->w = sgl_ctx_first_worker(ctx) - a->first;
    int rc = sgl__dpart_unpack(a->words, (size - sizeof *a) / sizeof(uint64_t),
                               &b->part);
    if (!rc) {
        sgl__dpart_box(&b->part, b->w, b->lo, b->hi);
        size_t n = sgl__dpart_storage(&b->part, b->w, b->stride);
        /* Written here, on the worker's thread, so that its pages are
         * the worker's (first touch) and no later superstep pays their
         * page faults. explicit_bzero, because the compiler turns malloc
         * and memset into a calloc, which maps pages without touching. */
        b->mem = malloc(n * b->part.elem_size);
        if (b->mem)
            explicit_bzero(b->mem, n * b->part.elem_size);
        else
            rc = sgl_error_set(SGL_ENOMEM,
                               "worker %zu: out of memory for a block of "
                               "%zu elements",
                               sgl_ctx_first_worker(ctx), n);
    }
    if (!rc)
        rc = sgl__darray_item_add(ctx, &array_key, b, darr_free);
    if (rc)
        darr_free(b);
    return rc;
}

static void layout_of(sgl_darray_t *a)
{
    sgl_darray_layout_t *l = &a->layout;
    memset(l, 0, sizeof *l);
    l->dims = a->part.dims;
    l->elem_size = a->part.elem_size;
    for (unsigned d = 0; d < a->part.dims; d++) {
        l->size[d] = a->part.size[d];
        l->grid[d] = (unsigned)a->part.grid[d];
        l->cuts[d] = a->part.cut[d];
        l->halo[d] = a->part.halo[d];
    }
}

static int check_master(sgl_ctx_t *ctx, const char *fn)
{
    if (!ctx)
        return sgl_error_set(SGL_EINVAL, "%s: context is NULL", fn);
    if (!sgl_ctx_is_root(ctx) && sgl_ctx_is_worker(ctx))
        return sgl_error_set(SGL_ESTATE,
                             "%s: call it on a master (or the root), not "
                             "on worker %zu",
                             fn, sgl_ctx_first_worker(ctx));
    return SGL_OK;
}

int sgl__darray_check_owner(sgl_ctx_t *master, const sgl_darray_t *array,
                            const char *fn)
{
    SGL_TRY(check_master(master, fn));
    if (!array)
        return sgl_error_set(SGL_EINVAL, "%s: array is NULL", fn);
    /* Another master's array names blocks that the workers below this one
     * may not have, or have for a different array of the same id. */
    if (sgl_ctx_level(master) != array->level ||
        sgl_ctx_first_worker(master) != array->first)
        return sgl_error_set(SGL_ESTATE,
                             "%s: call it on the master that created array "
                             "%u (level %u, first worker %zu), not on the "
                             "one at level %u, first worker %zu",
                             fn, array->id, array->level, array->first,
                             sgl_ctx_level(master),
                             sgl_ctx_first_worker(master));
    return SGL_OK;
}

static void array_free(sgl_darray_t *a)
{
    if (a)
        sgl__dpart_free(&a->part);
    free(a);
}

/* The blocks: as the layout says; without cuts or weights, by the
 * workers' speeds (sgl_ctx_worker_weights()) when they differ, unless a
 * slow worker's block would then hold no element (even blocks then, as
 * without speeds: the caller asked for no particular cut). */
static int part_of(sgl_ctx_t *master, const sgl_darray_layout_t *layout,
                   struct dpart *part)
{
    size_t p = sgl_ctx_workers(master);
    int plain = layout != NULL && !layout->weights;
    for (unsigned d = 0; plain && d < layout->dims && d < SGL_DARRAY_MAX_DIMS;
         d++)
        plain = !layout->cuts[d];
    double *w = plain ? malloc(p * sizeof *w) : NULL;
    if (plain && !w)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    int uneven = 0;
    if (w && sgl_ctx_worker_weights(master, NULL, sgl_ctx_first_worker(master),
                                    p, w) != SGL_OK) {
        free(w);
        return SGL_ENOMEM; /* its only failure here; the message is set */
    }
    for (size_t i = 1; w && i < p; i++)
        uneven |= w[i] != w[0];
    int rc = SGL_EINVAL;
    if (uneven) {
        sgl_darray_layout_t by_speed = *layout;
        by_speed.weights = w;
        rc = sgl__dpart_from_layout(&by_speed, p, part);
    }
    free(w);
    return rc == SGL_OK ? rc : sgl__dpart_from_layout(layout, p, part);
}

int sgl_darray_create(sgl_ctx_t *master, const sgl_darray_layout_t *layout,
                      sgl_darray_t **ret_array)
{
    SGL_TRY(check_master(master, "sgl_darray_create"));
    if (!ret_array)
        return sgl_error_set(SGL_EINVAL, "sgl_darray_create: NULL argument");
    sgl_darray_t *a = calloc(1, sizeof *a);
    if (!a)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    int rc = part_of(master, layout, &a->part);
    if (rc) {
        free(a);
        return rc;
    }
    a->id = sgl__darray_new_id(master);
    a->level = sgl_ctx_level(master);
    a->first = sgl_ctx_first_worker(master);
    layout_of(a);
    size_t nw = sgl__dpart_words(&a->part),
           size = sizeof(struct create_arg) + nw * sizeof(uint64_t);
    struct create_arg *arg = malloc(size);
    if (!arg) {
        array_free(a);
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    }
    *arg = (struct create_arg){a->id, 0, a->first};
    sgl__dpart_pack(&a->part, arg->words);
    rc = sgl__darray_on_workers(master, create_task, arg, size);
    free(arg);
    if (rc) {
        sgl_darray_free(master, a);
        return rc;
    }
    *ret_array = a;
    return SGL_OK;
}

/* ---- gather ---- */

struct id_arg {
    uint32_t id;
    uint32_t pad;
    uint64_t elem_size;
};

/* Elements of a worker's box. */
static size_t box_elems(const struct darr *b)
{
    return (b->hi[0] - b->lo[0]) * (b->hi[1] - b->lo[1]) *
           (b->hi[2] - b->lo[2]);
}

/* A worker's box without its halo: its extents, its strides when packed
 * row-major, and the offset (bytes) of its first element in the block. */
static size_t own_box(const struct darr *b, size_t ext[DP_DIMS],
                      size_t packed[DP_DIMS])
{
    size_t n = 1;
    long x[DP_DIMS];
    for (unsigned d = DP_DIMS; d-- > 0;) {
        ext[d] = b->hi[d] - b->lo[d];
        packed[d] = n;
        n *= ext[d];
        x[d] = (long)b->lo[d];
    }
    return darray_offset(x, b->lo, b->part.halo, b->stride) *
           b->part.elem_size;
}

/* Copy a worker's box, without its halo, row-major into @out. */
static void pack_box(const struct darr *b, unsigned char *out)
{
    size_t ext[DP_DIMS], packed[DP_DIMS];
    const unsigned char *first = b->mem + own_box(b, ext, packed);
    sgl__darray_copy_box(out, packed, first, b->stride, ext, b->part.elem_size);
}

static int gather_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const struct id_arg *a = arg;
    if (sgl_ctx_is_master(ctx)) {
        SGL_TRY(sgl_pardo(ctx, gather_task, arg, size));
        return sgl__algo_pass_up(ctx, a->elem_size);
    }
    struct darr *b = sgl__darr_find(ctx, a->id);
    if (!b)
        return sgl_error_set(SGL_ESTATE, "worker %zu has no block of array "
                                         "%u",
                             sgl_ctx_first_worker(ctx), a->id);
    unsigned char *out;
    SGL_TRY(sgl_put_buffer(ctx, b->part.elem_size, box_elems(b), (void **)&out));
    pack_box(b, out);
    return SGL_OK;
}

/* Where worker @w's box lies in the row-major array of @p: its extents,
 * its strides when packed alone, its offset in the array (elements) from
 * the array's strides @gstride; returns its element count. */
static size_t box_at(const struct dpart *p, size_t w,
                     const size_t gstride[DP_DIMS], size_t ext[DP_DIMS],
                     size_t bstride[DP_DIMS], size_t *ret_off)
{
    size_t lo[DP_DIMS], hi[DP_DIMS], m = 1, off = 0;
    sgl__dpart_box(p, w, lo, hi);
    for (unsigned d = DP_DIMS; d-- > 0;) {
        ext[d] = hi[d] - lo[d];
        bstride[d] = m;
        m *= ext[d];
        off += lo[d] * gstride[d];
    }
    *ret_off = off;
    return m;
}

/* The row-major strides of the whole array of @p, in elements. */
static void array_strides(const struct dpart *p, size_t gstride[DP_DIMS])
{
    size_t n = 1;
    for (unsigned d = DP_DIMS; d-- > 0;) {
        gstride[d] = n;
        n *= p->size[d];
    }
}

/* Place the workers' packed boxes, back to back in worker order, at their
 * positions in the row-major array @dst. */
static void unpack_boxes(const struct dpart *p, const unsigned char *packed,
                         unsigned char *dst)
{
    size_t gstride[DP_DIMS];
    array_strides(p, gstride);
    for (size_t w = 0; w < p->workers; w++) {
        size_t ext[DP_DIMS], bstride[DP_DIMS], off;
        size_t m = box_at(p, w, gstride, ext, bstride, &off);
        sgl__darray_copy_box(dst + off * p->elem_size, gstride, packed, bstride,
                             ext, p->elem_size);
        packed += m * p->elem_size;
    }
}

static size_t array_elems(const struct dpart *p)
{
    return p->size[0] * p->size[1] * p->size[2];
}

int sgl_darray_gather(sgl_ctx_t *master, const sgl_darray_t *array,
                      void *dst, size_t capacity)
{
    if (!dst)
        return sgl_error_set(SGL_EINVAL, "sgl_darray_gather: dst is NULL");
    SGL_TRY(sgl__darray_check_owner(master, array, "sgl_darray_gather"));
    size_t n = array_elems(&array->part), es = array->part.elem_size;
    if (capacity < n)
        return sgl_error_set(SGL_ESIZE,
                             "sgl_darray_gather: dst holds %zu elements, the "
                             "array has %zu",
                             capacity, n);
    struct id_arg a = {array->id, 0, es};
    if (sgl_ctx_is_worker(master)) {
        const struct darr *b = sgl__darr_find(master, array->id);
        if (!b)
            return sgl_error_set(SGL_ESTATE, "array %u has no block here",
                                 array->id);
        pack_box(b, dst);
        return SGL_OK;
    }
    SGL_TRY(sgl_pardo(master, gather_task, &a, sizeof a));
    unsigned char *packed;
    size_t got;
    SGL_TRY(sgl_gather_alloc(master, es, (void **)&packed, &got, NULL));
    if (got == n)
        unpack_boxes(&array->part, packed, dst);
    free(packed);
    if (got != n)
        return sgl_error_set(SGL_ESIZE,
                             "sgl_darray_gather: the workers handed up %zu "
                             "elements, the array has %zu",
                             got, n);
    return SGL_OK;
}

/* ---- scatter ---- */

/* The elements of every worker's box travel with the task, so that a
 * master splits what it received among its children without the
 * partition. */
struct scatter_arg {
    uint32_t id;
    uint32_t pad;
    uint64_t elem_size;
    uint64_t first;    /* the array master's first worker */
    uint64_t workers;
    uint64_t elems[];  /* per worker */
};

/* Copy @in, packed row-major, into the worker's box (its halo left as
 * it is): pack_box() backwards. */
static void unpack_box(struct darr *b, const unsigned char *in)
{
    size_t ext[DP_DIMS], packed[DP_DIMS];
    unsigned char *first = b->mem + own_box(b, ext, packed);
    sgl__darray_copy_box(first, b->stride, in, packed, ext, b->part.elem_size);
}

/* A master's split of its block: each child gets its workers' boxes. */
static int scatter_down(sgl_ctx_t *ctx, const struct scatter_arg *a,
                        const void *blk)
{
    unsigned nc = sgl_ctx_children(ctx);
    size_t *counts = malloc((nc ? nc : 1) * sizeof *counts);
    if (!counts)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    size_t w = sgl_ctx_first_worker(ctx) - a->first;
    for (unsigned c = 0; c < nc; c++) {
        counts[c] = 0;
        for (size_t k = sgl_ctx_child_workers(ctx, c); k-- > 0; w++)
            counts[c] += w < a->workers ? a->elems[w] : 0;
    }
    int rc = sgl_scatter(ctx, blk, a->elem_size, counts);
    free(counts);
    return rc;
}

static int scatter_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const struct scatter_arg *a = arg;
    void *blk;
    size_t n;
    SGL_TRY(sgl_recv(ctx, a->elem_size, &blk, &n));
    if (sgl_ctx_is_master(ctx)) {
        SGL_TRY(scatter_down(ctx, a, blk));
        return sgl_pardo(ctx, scatter_task, arg, size);
    }
    struct darr *b = sgl__darr_find(ctx, a->id);
    if (!b)
        return sgl_error_set(SGL_ESTATE, "worker %zu has no block of array "
                                         "%u",
                             sgl_ctx_first_worker(ctx), a->id);
    if (n != box_elems(b))
        return sgl_error_set(SGL_ESIZE,
                             "sgl_darray_scatter: worker %zu received %zu "
                             "elements for a block of %zu",
                             sgl_ctx_first_worker(ctx), n, box_elems(b));
    unpack_box(b, blk);
    return SGL_OK;
}

/* The workers' boxes of the row-major array @src, back to back in worker
 * order (unpack_boxes() backwards); their sizes into @a->elems. */
static void pack_boxes(const struct dpart *p, const unsigned char *src,
                       unsigned char *packed, struct scatter_arg *a)
{
    size_t gstride[DP_DIMS];
    array_strides(p, gstride);
    for (size_t w = 0; w < p->workers; w++) {
        size_t ext[DP_DIMS], bstride[DP_DIMS], off;
        size_t m = box_at(p, w, gstride, ext, bstride, &off);
        sgl__darray_copy_box(packed, bstride, src + off * p->elem_size,
                             gstride, ext, p->elem_size);
        packed += m * p->elem_size;
        a->elems[w] = m;
    }
}

int sgl_darray_scatter(sgl_ctx_t *master, const sgl_darray_t *array,
                       const void *src, size_t count)
{
    if (!src)
        return sgl_error_set(SGL_EINVAL, "sgl_darray_scatter: src is NULL");
    SGL_TRY(sgl__darray_check_owner(master, array, "sgl_darray_scatter"));
    const struct dpart *p = &array->part;
    size_t n = array_elems(p), es = p->elem_size;
    if (count != n)
        return sgl_error_set(SGL_ESIZE,
                             "sgl_darray_scatter: src has %zu elements, the "
                             "array has %zu",
                             count, n);
    if (sgl_ctx_is_worker(master)) {
        struct darr *b = sgl__darr_find(master, array->id);
        if (!b)
            return sgl_error_set(SGL_ESTATE, "array %u has no block here",
                                 array->id);
        unpack_box(b, src);
        return SGL_OK;
    }
    size_t asize = sizeof(struct scatter_arg) + p->workers * sizeof(uint64_t);
    struct scatter_arg *a = malloc(asize);
    unsigned char *packed = malloc(n * es);
    int rc = a && packed ? SGL_OK
                         : sgl_error_set(SGL_ENOMEM, "sgl_darray_scatter: "
                                                     "out of memory");
    if (!rc) {
        *a = (struct scatter_arg){array->id, 0, es, array->first, p->workers};
        pack_boxes(p, src, packed, a);
        rc = scatter_down(master, a, packed);
    }
    if (!rc)
        rc = sgl_pardo(master, scatter_task, a, asize);
    free(packed);
    free(a);
    return rc;
}

/* ---- free ---- */

static int free_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, free_task, arg, size);
    sgl__darray_item_drop(ctx, &array_key, ((const struct id_arg *)arg)->id);
    return SGL_OK;
}

int sgl_darray_free(sgl_ctx_t *master, sgl_darray_t *array)
{
    if (!array)
        return SGL_OK;
    int rc = check_master(master, "sgl_darray_free");
    if (!rc) {
        struct id_arg a = {array->id, 0, array->part.elem_size};
        rc = sgl__darray_on_workers(master, free_task, &a, sizeof a);
    }
    array_free(array);
    return rc;
}

uint32_t sgl_darray_id(const sgl_darray_t *a) { return a ? a->id : 0; }

const sgl_darray_layout_t *sgl_darray_layout(const sgl_darray_t *a)
{
    return a ? &a->layout : NULL;
}

const struct algo_task sgl__algo_darray_tasks[] = {
    {create_task, "sgl_darray.create"},
    {gather_task, "sgl_darray.gather"},
    {scatter_task, "sgl_darray.scatter"},
    {free_task, "sgl_darray.free"},
    {NULL, NULL},
};
