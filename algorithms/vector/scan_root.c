/* Prefix scan of an array at the root (sgl_scan()): two supersteps from
 * the root, each recursive over levels, on the caller's arrays instead of
 * a distributed vector.
 *
 *   pass 1 (sums): master: scatter its part of src ; pardo(pass 1) ;
 *                  keep the p child totals (context state) ; hand up
 *                  their fold.  worker: fold its part.
 *   pass 2 (scan): master: scatter its part of src again, child i's
 *                  offset o (+) t_0 (+) ... (+) t_{i-1} in the argument ;
 *                  name its output as the gather's destination ;
 *                  pardo(pass 2) ; gather.  worker: scan its part from
 *                  its offset into its put buffer.
 *
 * Below a thread link a child reads its part of the master's array where
 * it lies (sgl_recv_view()) and writes its output where the master wants
 * it (sgl_gather_into()), so on threads the array goes through memory
 * twice read and once written. The distributed-vector path this replaces
 * for REDUCE_FIRST (scatter into the workers' blocks, scan them, gather
 * them back) read it 4 times and wrote it 3 times: 70 ms against a
 * plain loop's 19 ms at 1e7 doubles on core:1 (bench_root, loaded box).
 * Across an MPI link the parts travel: each pass sends a child its part
 * (k_down = the level's share of n, twice), pass 2 its output up.
 * Extra memory: p elements per master, and p offsets in pass 2's
 * argument. */
#include <stdlib.h>
#include <string.h>

#include <sgl/blocks.h>

#include "algo_internal.h"

struct cscan_arg {
    struct algo_op_arg op; /* op.flags: SGL_SCAN_EXCLUSIVE or not */
    uint64_t n;            /* the whole array: the layout is global */
};
/* Pass 2's argument is a cscan_arg followed by one offset per child. */

static int resolve(const struct algo_op_arg *a, struct algo_op *op)
{
    SGL_TRY(sgl__algo_op_resolve((sgl_dtype_t)a->dtype, a->op, ALGO_ACC_ELEM,
                                 op));
    if (op->elem_size != a->elem_size)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_scan: operator %u on %zu-byte elements "
                             "here, %zu at the root (registered "
                             "differently?)",
                             a->op, op->elem_size, (size_t)a->elem_size);
    return SGL_OK;
}

/* Stage the children's parts of @src, this master's share of the array,
 * cut by the same layout as the distributed vectors'; the counts stay
 * the caller's to free. */
static int split(sgl_ctx_t *ctx, const struct cscan_arg *a, const void *src,
                 size_t **ret_counts)
{
    size_t *counts = malloc(sgl_ctx_children(ctx) * sizeof *counts);
    if (!counts)
        return sgl_error_set(SGL_ENOMEM, "sgl_scan: out of memory");
    int rc = sgl__algo_layout_counts(ctx, a->n, counts);
    if (!rc)
        rc = sgl_scatter(ctx, src, a->op.elem_size, counts);
    if (rc) {
        free(counts);
        return rc;
    }
    *ret_counts = counts;
    return SGL_OK;
}

static int sums_task(sgl_ctx_t *ctx, const void *arg, size_t size);

/* Pass 1: the fold of @src's @n elements into @total, keeping each
 * child's total at a master for pass 2. */
static int sums(sgl_ctx_t *ctx, const struct cscan_arg *a,
                const struct algo_op *op, const void *src, size_t n,
                void *total)
{
    size_t es = op->elem_size;
    memcpy(total, op->identity, es);
    if (sgl_ctx_is_worker(ctx)) {
        sgl__algo_local_reduce(op, src, n, total);
        return SGL_OK;
    }
    unsigned p = sgl_ctx_children(ctx);
    size_t *counts = NULL;
    SGL_TRY(split(ctx, a, src, &counts));
    free(counts);
    SGL_TRY(sgl_pardo(ctx, sums_task, a, sizeof *a));
    unsigned char *t = sgl__algo_scratch(ctx, (size_t)p * es);
    if (!t)
        return sgl_error_set(SGL_ENOMEM, "sgl_scan: out of memory");
    SGL_TRY(sgl_gather(ctx, t, es, p, NULL));
    for (unsigned i = 0; i < p; i++)
        sgl__algo_combine(op, total, t + (size_t)i * es);
    return SGL_OK;
}

static int sums_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct cscan_arg *a = arg;
    struct algo_op op;
    SGL_TRY(resolve(&a->op, &op));
    const void *src;
    size_t n;
    SGL_TRY(sgl_recv_view(ctx, op.elem_size, &src, &n));
    unsigned char total[ALGO_MAX_ELEM];
    SGL_TRY(sums(ctx, a, &op, src, n, total));
    return sgl_put(ctx, total, op.elem_size, 1);
}

static int scan_task(sgl_ctx_t *ctx, const void *arg, size_t size);

/* Pass 2's argument for a master's children: @a, then child i's offset,
 * the fold of @off (NULL: the identity) and pass 1's totals t_0..t_{i-1}. */
static struct cscan_arg *offsets_arg(sgl_ctx_t *ctx, const struct cscan_arg *a,
                                     const struct algo_op *op, const void *off,
                                     size_t *ret_size)
{
    unsigned p = sgl_ctx_children(ctx);
    size_t es = op->elem_size;
    const unsigned char *t = sgl__algo_scratch(ctx, (size_t)p * es);
    struct cscan_arg *b = malloc(sizeof *b + (size_t)p * es);
    if (!t || !b) {
        free(b);
        sgl_error_set(SGL_ENOMEM, "sgl_scan: out of memory");
        return NULL;
    }
    *b = *a;
    unsigned char *offs = (unsigned char *)(b + 1);
    memcpy(offs, off ? off : op->identity, es);
    for (unsigned i = 1; i < p; i++) {
        memcpy(offs + i * es, offs + (i - 1) * es, es);
        sgl__algo_combine(op, offs + i * es, t + (i - 1) * es);
    }
    *ret_size = sizeof *b + (size_t)p * es;
    return b;
}

/* Pass 2: scan @src's @n elements into @dst from @off (NULL at the first
 * worker, whose prefixes start from nothing). */
static int scan_part(sgl_ctx_t *ctx, const struct cscan_arg *a,
                     const struct algo_op *op, const void *src, void *dst,
                     size_t n, const void *off)
{
    if (sgl_ctx_is_worker(ctx)) {
        unsigned char total[ALGO_MAX_ELEM];
        sgl__algo_local_scan(op, src, dst, n, off,
                             a->op.flags & SGL_SCAN_EXCLUSIVE, total);
        return sgl_ctx_add_work(ctx, (double)n);
    }
    size_t bsize = 0, *counts = NULL;
    struct cscan_arg *b = offsets_arg(ctx, a, op, off, &bsize);
    if (!b)
        return SGL_ENOMEM;
    int rc = split(ctx, a, src, &counts);
    /* The children write their outputs into dst themselves: no copy at
     * the gather below a thread link. */
    if (!rc)
        rc = sgl_gather_into(ctx, dst, op->elem_size, counts);
    if (!rc)
        rc = sgl_pardo(ctx, scan_task, b, bsize);
    if (!rc)
        rc = sgl_gather(ctx, dst, op->elem_size, n, NULL);
    free(b);
    free(counts);
    return rc;
}

static int scan_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const struct cscan_arg *a = arg;
    struct algo_op op;
    SGL_TRY(resolve(&a->op, &op));
    size_t es = op.elem_size;
    unsigned i = sgl_ctx_index(ctx);
    if (size < sizeof *a + ((size_t)i + 1) * es)
        return sgl_error_set(SGL_ESIZE,
                             "sgl_scan: pass 2's argument of %zu bytes has "
                             "no offset for child %u",
                             size, i);
    const void *src;
    void *dst;
    size_t n;
    SGL_TRY(sgl_recv_view(ctx, es, &src, &n));
    SGL_TRY(sgl_put_buffer(ctx, es, n, &dst));
    /* The argument's bytes need not be aligned for the element type. */
    _Alignas(max_align_t) unsigned char off[ALGO_MAX_ELEM];
    memcpy(off, (const unsigned char *)(a + 1) + (size_t)i * es, es);
    return scan_part(ctx, a, &op, src, dst, n,
                     sgl_ctx_first_worker(ctx) ? off : NULL);
}

int sgl__algo_root_scan(sgl_ctx_t *root, const struct algo_op *op,
                        const struct algo_op_arg *arg, const void *src,
                        void *dst, size_t n)
{
    struct cscan_arg a = {*arg, n};
    unsigned char total[ALGO_MAX_ELEM];
    if (sgl_ctx_is_master(root))
        SGL_TRY(sums(root, &a, op, src, n, total));
    return scan_part(root, &a, op, src, dst, n, NULL);
}

const struct algo_task sgl__algo_scan_root_tasks[] = {
    {sums_task, "sgl_algo.cscan1"},
    {scan_task, "sgl_algo.cscan2"},
    {NULL, NULL},
};
