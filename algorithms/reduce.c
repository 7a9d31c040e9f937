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
 * words per master. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"

/* ---- local kernels ---- */

/* Eight interleaved partial results, folded pairwise in a fixed order:
 * the order depends only on n, so results are reproducible, and the
 * independent chains let the compiler use SIMD without reassociation. */
#define REDUCE8(T, NAME, INIT, STEP)                                           \
    static T NAME(const T *x, size_t n)                                        \
    {                                                                          \
        T s[8];                                                                \
        for (int j = 0; j < 8; j++)                                            \
            s[j] = INIT;                                                       \
        size_t i = 0;                                                          \
        for (; i + 8 <= n; i += 8)                                             \
            for (int j = 0; j < 8; j++)                                        \
                s[j] = STEP(s[j], x[i + (size_t)j]);                           \
        for (int j = 0; i < n; i++, j++)                                       \
            s[j] = STEP(s[j], x[i]);                                           \
        T a = STEP(STEP(s[0], s[1]), STEP(s[2], s[3]));                        \
        T b = STEP(STEP(s[4], s[5]), STEP(s[6], s[7]));                        \
        return STEP(a, b);                                                     \
    }

#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
/* NaN is ignored, as by fmin/fmax: a NaN never replaces a number. */
#define MINF(a, b) ((b) < (a) ? (b) : (a))
#define MAXF(a, b) ((b) > (a) ? (b) : (a))
/* Integers wrap modulo 2^64 instead of overflowing. */
#define UADD(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
#define UMUL(a, b) ((int64_t)((uint64_t)(a) * (uint64_t)(b)))

REDUCE8(double, sum_f64, 0.0, ADD)
REDUCE8(double, prod_f64, 1.0, MUL)
REDUCE8(double, min_f64, INFINITY, MINF)
REDUCE8(double, max_f64, -INFINITY, MAXF)
REDUCE8(float, sum_f32, 0.0f, ADD)
REDUCE8(float, prod_f32, 1.0f, MUL)
REDUCE8(float, min_f32, INFINITY, MINF)
REDUCE8(float, max_f32, -INFINITY, MAXF)
REDUCE8(int64_t, sum_i64, 0, UADD)
REDUCE8(int64_t, prod_i64, 1, UMUL)
REDUCE8(int64_t, min_i64, INT64_MAX, MINF)
REDUCE8(int64_t, max_i64, INT64_MIN, MAXF)
REDUCE8(uint64_t, sum_u64, 0, ADD)
REDUCE8(uint64_t, prod_u64, 1, MUL)
REDUCE8(uint64_t, min_u64, UINT64_MAX, MINF)
REDUCE8(uint64_t, max_u64, 0, MAXF)

#define DISPATCH2(T, SFX)                                                      \
    do {                                                                       \
        T *r = acc, v;                                                         \
        const T *b = vb;                                                       \
        switch (op->op) {                                                      \
        case SGL_OP_SUM:                                                       \
            v = ADD(*r, *b);                                                   \
            break;                                                             \
        case SGL_OP_PROD:                                                      \
            v = MUL(*r, *b);                                                   \
            break;                                                             \
        case SGL_OP_MIN:                                                       \
            v = MINF(*r, *b);                                                  \
            break;                                                             \
        default:                                                               \
            v = MAXF(*r, *b);                                                  \
            break;                                                             \
        }                                                                      \
        *r = v;                                                                \
    } while (0)

void algo_combine(const struct algo_op *op, void *acc, const void *vb)
{
    switch (op->dtype) {
    case SGL_F64:
        DISPATCH2(double, f64);
        break;
    case SGL_F32:
        DISPATCH2(float, f32);
        break;
    case SGL_I64: {
        int64_t *r = acc;
        const int64_t *b = vb;
        switch (op->op) {
        case SGL_OP_SUM:
            *r = UADD(*r, *b);
            break;
        case SGL_OP_PROD:
            *r = UMUL(*r, *b);
            break;
        case SGL_OP_MIN:
            *r = MINF(*r, *b);
            break;
        default:
            *r = MAXF(*r, *b);
            break;
        }
        break;
    }
    case SGL_U64:
        DISPATCH2(uint64_t, u64);
        break;
    default:
        op->fn(acc, vb);
        break;
    }
}

#define LOCAL(T, SFX)                                                          \
    do {                                                                       \
        T v;                                                                   \
        switch (op->op) {                                                      \
        case SGL_OP_SUM:                                                       \
            v = sum_##SFX(x, n);                                               \
            break;                                                             \
        case SGL_OP_PROD:                                                      \
            v = prod_##SFX(x, n);                                              \
            break;                                                             \
        case SGL_OP_MIN:                                                       \
            v = min_##SFX(x, n);                                               \
            break;                                                             \
        default:                                                               \
            v = max_##SFX(x, n);                                               \
            break;                                                             \
        }                                                                      \
        algo_combine(op, acc, &v);                                             \
    } while (0)

void algo_local_reduce(const struct algo_op *op, const void *x, size_t n,
                       void *acc)
{
    if (n == 0)
        return;
    switch (op->dtype) {
    case SGL_F64:
        LOCAL(double, f64);
        break;
    case SGL_F32:
        LOCAL(float, f32);
        break;
    case SGL_I64:
        LOCAL(int64_t, i64);
        break;
    case SGL_U64:
        LOCAL(uint64_t, u64);
        break;
    default:
        for (size_t i = 0; i < n; i++)
            op->fn(acc, (const char *)x + i * op->elem_size);
        break;
    }
}

/* ---- the recursive programs ---- */

/* The task argument: operator, vector id, and (centralised) the whole n. */
struct reduce_arg {
    struct algo_op_arg op;
    uint64_t n;
};

/* Fold the p partial results the children handed up, in child order. */
static int fold_children(sgl_ctx_t *ctx, const struct algo_op *op, void *res)
{
    unsigned p = sgl_ctx_children(ctx);
    unsigned char *parts = malloc((size_t)p * op->elem_size);
    if (!parts)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    int rc = sgl_gather(ctx, parts, op->elem_size, p, NULL);
    memcpy(res, op->identity, op->elem_size);
    for (unsigned i = 0; !rc && i < p; i++)
        algo_combine(op, res, parts + (size_t)i * op->elem_size);
    free(parts);
    return rc;
}

static int resolve_arg(const struct algo_op_arg *a, struct algo_op *op)
{
    TRY(algo_op_resolve((sgl_dtype_t)a->dtype, a->op, op));
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
        memcpy(res, op->identity, op->elem_size);
        algo_local_reduce(op, src, n, res);
        return SGL_OK;
    }
    size_t *counts = malloc(sgl_ctx_children(ctx) * sizeof *counts);
    if (!counts)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    algo_child_counts(ctx, a->n, counts);
    int rc = sgl_scatter(ctx, src, op->elem_size, counts);
    free(counts);
    TRY(rc);
    TRY(sgl_pardo(ctx, creduce_task, a, sizeof *a));
    return fold_children(ctx, op, res);
}

static int creduce_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct reduce_arg *a = arg;
    struct algo_op op;
    TRY(resolve_arg(&a->op, &op));
    void *src;
    size_t bytes;
    TRY(sgl_recv(ctx, &src, &bytes));
    unsigned char res[ALGO_MAX_ELEM];
    TRY(creduce(ctx, a, &op, src, bytes / op.elem_size, res));
    return sgl_put(ctx, res, op.elem_size);
}

static int dreduce_task(sgl_ctx_t *ctx, const void *arg, size_t size);

/* Distributed: reduce the blocks of vector a->op.id below this node. */
static int dreduce(sgl_ctx_t *ctx, const struct reduce_arg *a,
                   const struct algo_op *op, void *res)
{
    if (sgl_ctx_is_worker(ctx)) {
        struct algo_block *b = algo_block_find(ctx, a->op.id);
        if (!b)
            return sgl_error_set(SGL_ESTATE,
                                 "worker %zu has no block of vector %u",
                                 sgl_ctx_first_worker(ctx), a->op.id);
        memcpy(res, op->identity, op->elem_size);
        algo_local_reduce(op, b->data, b->count, res);
        return SGL_OK;
    }
    TRY(sgl_pardo(ctx, dreduce_task, a, sizeof *a));
    return fold_children(ctx, op, res);
}

static int dreduce_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct reduce_arg *a = arg;
    struct algo_op op;
    TRY(resolve_arg(&a->op, &op));
    unsigned char res[ALGO_MAX_ELEM];
    TRY(dreduce(ctx, a, &op, res));
    return sgl_put(ctx, res, op.elem_size);
}

/* Second superstep: every worker keeps the broadcast result. */
static int bvalue_task(sgl_ctx_t *ctx, const void *arg, size_t size);

struct id_arg_v {
    uint32_t id;
    uint32_t pad;
    uint64_t elem_size;
};

static int bvalue(sgl_ctx_t *ctx, const struct id_arg_v *a, const void *v)
{
    if (sgl_ctx_is_worker(ctx)) {
        struct algo_block *b = algo_block_find(ctx, a->id);
        if (!b)
            return sgl_error_set(SGL_ESTATE,
                                 "worker %zu has no block of vector %u",
                                 sgl_ctx_first_worker(ctx), a->id);
        if (!b->value && !(b->value = malloc(a->elem_size)))
            return sgl_error_set(SGL_ENOMEM, "out of memory");
        memcpy(b->value, v, a->elem_size);
        return SGL_OK;
    }
    TRY(sgl_bcast(ctx, v, a->elem_size));
    return sgl_pardo(ctx, bvalue_task, a, sizeof *a);
}

static int bvalue_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    void *v;
    size_t bytes;
    TRY(sgl_recv(ctx, &v, &bytes));
    const struct id_arg_v *a = arg;
    if (bytes != a->elem_size)
        return sgl_error_set(SGL_ESIZE, "broadcast of %zu bytes, expected "
                                        "%zu",
                             bytes, (size_t)a->elem_size);
    return bvalue(ctx, a, v);
}

int sgl_reduce(sgl_ctx_t *root, sgl_dtype_t dtype, sgl_op_t op,
               const void *src, size_t n, void *ret_result)
{
    TRY(algo_check_root(root, "sgl_reduce"));
    if ((n && !src) || !ret_result)
        return sgl_error_set(SGL_EINVAL, "sgl_reduce: NULL buffer");
    struct algo_op o;
    TRY(algo_op_resolve(dtype, op, &o));
    struct reduce_arg a = {{(uint32_t)dtype, op, 0, 0, o.elem_size}, n};
    return creduce(root, &a, &o, src, n, ret_result);
}

int sgl_dvec_reduce(sgl_ctx_t *root, const sgl_dvec_t *v, sgl_op_t op,
                    int bcast, void *ret_result)
{
    TRY(algo_check_root(root, "sgl_dvec_reduce"));
    TRY(algo_check_vec(v, "sgl_dvec_reduce"));
    if (!ret_result)
        return sgl_error_set(SGL_EINVAL, "sgl_dvec_reduce: result is NULL");
    struct algo_op o;
    TRY(algo_op_resolve(v->dtype, op, &o));
    if (o.elem_size != v->elem_size)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_dvec_reduce: operator on %zu-byte "
                             "elements, vector of %zu-byte elements",
                             o.elem_size, v->elem_size);
    struct reduce_arg a = {{(uint32_t)v->dtype, op, v->id, 0, o.elem_size},
                           v->n};
    TRY(dreduce(root, &a, &o, ret_result));
    if (!bcast)
        return SGL_OK;
    struct id_arg_v b = {v->id, 0, o.elem_size};
    return bvalue(root, &b, ret_result);
}

int algo_register_reduce(sgl_runtime_t *rt)
{
    TRY(sgl_task_register(rt, creduce_task, "sgl_algo.reduce"));
    TRY(sgl_task_register(rt, dreduce_task, "sgl_algo.dreduce"));
    TRY(sgl_task_register(rt, bvalue_task, "sgl_algo.bvalue"));
    return SGL_OK;
}
