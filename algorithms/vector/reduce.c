/* Reduction: one superstep, recursive over the tree (SGL paper, Alg. 1).
 *
 *   reduce(node):  worker: fold its block left to right
 *                  master: [scatter the blocks (centralised data)] ;
 *                          pardo(reduce) ; gather p partial results ;
 *                          fold them in child order
 *
 * Cost per level: max_i Cost_i + p*c0 + k_down*g_down + p*g_up + 2l, with
 * k_down = the level's share of n for centralised data and 0 for
 * distributed data. An optional second superstep broadcasts the result
 * back to every worker (1 word down per level + 2l). Extra memory is O(p)
 * words per master. 8-bit elements reduce to a 64-bit result (one word up
 * per child, as for the 64-bit types). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"
#include <sgl/balance.h>
#include <sgl/blocks.h>

/* ---- the recursive programs ---- */

/* The task argument: operator, vector id, and (centralised) the whole n. */
struct reduce_arg {
    struct algo_op_arg op;
    uint64_t n;
};

/* Fold the p partial results the children handed up, in child order,
 * each read where its child left it: no buffer to allocate on a path
 * that every reduction's master takes, and that from cold caches cost
 * about 12 cache misses in malloc and free (callgrind). */
static int fold_children(sgl_ctx_t *ctx, const struct algo_op *op, void *res)
{
    unsigned p = sgl_ctx_children(ctx);
    memcpy(res, op->identity, op->acc_size);
    for (unsigned i = 0; i < p; i++) {
        const void *part;
        size_t count;
        SGL_TRY(sgl_gather_block(ctx, i, op->acc_size, &part, &count));
        if (count != 1)
            return sgl_error_set(SGL_ESIZE,
                                 "child %u handed up %zu partial results, "
                                 "not 1",
                                 i, count);
        /* A block need not be aligned for the accumulator's type. */
        _Alignas(max_align_t) unsigned char v[ALGO_MAX_ELEM];
        memcpy(v, part, op->acc_size);
        sgl__algo_combine(op, res, v);
    }
    return SGL_OK;
}

static int resolve_arg(const struct algo_op_arg *a, struct algo_op *op)
{
    SGL_TRY(sgl__algo_op_resolve((sgl_dtype_t)a->dtype, a->op, ALGO_ACC_WIDE, op));
    if (op->elem_size != a->elem_size)
        return sgl_error_set(SGL_EINVAL,
                             "operator %u: element size %zu here, %zu at "
                             "the root (registered differently?)",
                             a->op, op->elem_size, (size_t)a->elem_size);
    return SGL_OK;
}

static int creduce_task(sgl_ctx_t *ctx, const void *arg, size_t size);

/* Centralised: reduce @src, this node's share of the vector. */
static int creduce(sgl_ctx_t *ctx, const struct reduce_arg *a,
                   const struct algo_op *op, const void *src, size_t n,
                   void *res)
{
    if (sgl_ctx_is_worker(ctx)) {
        memcpy(res, op->identity, op->acc_size);
        sgl__algo_local_reduce(op, src, n, res);
        return sgl_ctx_add_work(ctx, (double)n);
    }
    size_t *counts = malloc(sgl_ctx_children(ctx) * sizeof *counts);
    if (!counts)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    int rc = sgl__algo_layout_counts(ctx, a->n, counts);
    if (rc == SGL_OK)
        rc = sgl_scatter(ctx, src, op->elem_size, counts);
    free(counts);
    SGL_TRY(rc);
    SGL_TRY(sgl_pardo(ctx, creduce_task, a, sizeof *a));
    return fold_children(ctx, op, res);
}

static int creduce_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct reduce_arg *a = arg;
    struct algo_op op;
    SGL_TRY(resolve_arg(&a->op, &op));
    /* The block is only read: on a thread level a view of the master's
     * array, not a copy of it (issue 47). */
    const void *src;
    size_t n;
    SGL_TRY(sgl_recv_view(ctx, op.elem_size, &src, &n));
    unsigned char res[ALGO_MAX_ELEM];
    SGL_TRY(creduce(ctx, a, &op, src, n, res));
    return sgl_put(ctx, res, op.acc_size, 1);
}

static int dreduce_task(sgl_ctx_t *ctx, const void *arg, size_t size);

/* Distributed: reduce the blocks of vector a->op.id below this node. */
static int dreduce(sgl_ctx_t *ctx, const struct reduce_arg *a,
                   const struct algo_op *op, void *res)
{
    if (sgl_ctx_is_worker(ctx)) {
        struct algo_block *b = sgl__algo_block_find(ctx, a->op.id);
        if (!b)
            return sgl_error_set(SGL_ESTATE,
                                 "worker %zu has no block of vector %u",
                                 sgl_ctx_first_worker(ctx), a->op.id);
        memcpy(res, op->identity, op->acc_size);
        sgl__algo_local_reduce(op, b->data, b->count, res);
        /* Elements of the operator's kernel: for the trace, and for
         * sgl_runtime_refit_kernel() (every worker declares, even 0). */
        return sgl_ctx_add_work(ctx, (double)b->count);
    }
    SGL_TRY(sgl_pardo(ctx, dreduce_task, a, sizeof *a));
    return fold_children(ctx, op, res);
}

static int dreduce_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct reduce_arg *a = arg;
    struct algo_op op;
    SGL_TRY(resolve_arg(&a->op, &op));
    unsigned char res[ALGO_MAX_ELEM];
    SGL_TRY(dreduce(ctx, a, &op, res));
    return sgl_put(ctx, res, op.acc_size, 1);
}

/* Second superstep: every worker keeps the broadcast result. */
static int bvalue_task(sgl_ctx_t *ctx, const void *arg, size_t size);

struct id_arg_v {
    uint32_t id;
    uint32_t pad;
    uint64_t elem_size; /* of the result (the operator's acc_size) */
};

static int bvalue(sgl_ctx_t *ctx, const struct id_arg_v *a, const void *v)
{
    if (sgl_ctx_is_worker(ctx)) {
        struct algo_block *b = sgl__algo_block_find(ctx, a->id);
        if (!b)
            return sgl_error_set(SGL_ESTATE,
                                 "worker %zu has no block of vector %u",
                                 sgl_ctx_first_worker(ctx), a->id);
        if (!b->value && !(b->value = malloc(a->elem_size)))
            return sgl_error_set(SGL_ENOMEM, "out of memory");
        memcpy(b->value, v, a->elem_size);
        return SGL_OK;
    }
    SGL_TRY(sgl_bcast(ctx, v, a->elem_size, 1));
    return sgl_pardo(ctx, bvalue_task, a, sizeof *a);
}

static int bvalue_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct id_arg_v *a = arg;
    const void *v;
    size_t count;
    SGL_TRY(sgl_recv_view(ctx, a->elem_size, &v, &count));
    if (count != 1)
        return sgl_error_set(SGL_ESIZE, "broadcast of %zu results, expected "
                                        "one",
                             count);
    return bvalue(ctx, a, v);
}

int sgl_reduce(sgl_ctx_t *root, sgl_dtype_t dtype, sgl_op_t op,
               const void *src, size_t n, void *ret_result)
{
    SGL_TRY(sgl__algo_check_root(root, "sgl_reduce"));
    if ((n && !src) || !ret_result)
        return sgl_error_set(SGL_EINVAL, "sgl_reduce: NULL buffer");
    struct algo_op o;
    SGL_TRY(sgl__algo_op_resolve(dtype, op, ALGO_ACC_WIDE, &o));
    struct reduce_arg a = {{(uint32_t)dtype, op, 0, 0, o.elem_size}, n};
    return creduce(root, &a, &o, src, n, ret_result);
}

int sgl_dvec_reduce(sgl_ctx_t *root, const sgl_dvec_t *v, sgl_op_t op,
                    int bcast, void *ret_result)
{
    SGL_TRY(sgl__algo_check_root(root, "sgl_dvec_reduce"));
    SGL_TRY(sgl__algo_check_vec(v, "sgl_dvec_reduce"));
    if (!ret_result)
        return sgl_error_set(SGL_EINVAL, "sgl_dvec_reduce: result is NULL");
    struct algo_op o;
    SGL_TRY(sgl__algo_op_resolve(v->dtype, op, ALGO_ACC_WIDE, &o));
    if (o.elem_size != v->elem_size)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_dvec_reduce: operator on %zu-byte "
                             "elements, vector of %zu-byte elements",
                             o.elem_size, v->elem_size);
    struct reduce_arg a = {{(uint32_t)v->dtype, op, v->id, 0, o.elem_size},
                           v->n};
    SGL_TRY(dreduce(root, &a, &o, ret_result));
    if (!bcast)
        return SGL_OK;
    struct id_arg_v b = {v->id, 0, o.acc_size};
    return bvalue(root, &b, ret_result);
}

const struct algo_task sgl__algo_reduce_tasks[] = {
    {creduce_task, "sgl_algo.reduce"},
    {dreduce_task, "sgl_algo.dreduce"},
    {bvalue_task, "sgl_algo.bvalue"},
    {NULL, NULL},
};
