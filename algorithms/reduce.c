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

/* ---- local kernels ---- */

/* Eight interleaved partial results, folded pairwise in a fixed order:
 * the order depends only on n, so results are reproducible, and the
 * independent chains let the compiler use SIMD without reassociation. */
#define REDUCE8W(TX, T, NAME, INIT, STEP)                                      \
    static T NAME(const TX *x, size_t n)                                       \
    {                                                                          \
        T s[8];                                                                \
        for (int j = 0; j < 8; j++)                                            \
            s[j] = INIT;                                                       \
        size_t i = 0;                                                          \
        for (; i + 8 <= n; i += 8)                                             \
            for (int j = 0; j < 8; j++)                                        \
                s[j] = STEP(s[j], (T)x[i + (size_t)j]);                        \
        for (int j = 0; i < n; i++, j++)                                       \
            s[j] = STEP(s[j], (T)x[i]);                                        \
        T a = STEP(STEP(s[0], s[1]), STEP(s[2], s[3]));                        \
        T b = STEP(STEP(s[4], s[5]), STEP(s[6], s[7]));                        \
        return STEP(a, b);                                                     \
    }
#define REDUCE8(T, NAME, INIT, STEP) REDUCE8W(T, T, NAME, INIT, STEP)

/* 8-bit elements, widened to a 64-bit result: each block of 256 elements
 * is folded into an accumulator of type TB that cannot overflow within a
 * block (a 32-bit sum: |sum| <= 255 * 256; min and max stay 8-bit), and
 * the block results into the 64-bit one. The fixed block length lets the
 * compiler vectorise the inner loop at -O2 (no scalar tail to peel).
 * Integer folds are exact (or wrap modulo 2^64), so the blocking does not
 * change the result. */
#define BLOCK256(TX, TB, T, NAME, INIT, STEP, WSTEP)                           \
    static T NAME(const TX *x, size_t n)                                       \
    {                                                                          \
        T r = INIT;                                                            \
        size_t i = 0;                                                          \
        for (; i + 256 <= n; i += 256) {                                       \
            TB b = INIT;                                                       \
            for (size_t k = 0; k < 256; k++)                                   \
                b = (TB)STEP(b, x[i + k]);                                     \
            r = WSTEP(r, (T)b);                                                \
        }                                                                      \
        for (; i < n; i++)                                                     \
            r = WSTEP(r, (T)x[i]);                                             \
        return r;                                                              \
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
BLOCK256(int8_t, int32_t, int64_t, sum_i8, 0, ADD, UADD)
REDUCE8W(int8_t, int64_t, prod_i8, 1, UMUL)
BLOCK256(int8_t, int8_t, int64_t, min_i8, INT8_MAX, MINF, MINF)
BLOCK256(int8_t, int8_t, int64_t, max_i8, INT8_MIN, MAXF, MAXF)
BLOCK256(uint8_t, uint32_t, uint64_t, sum_u8, 0, ADD, ADD)
REDUCE8W(uint8_t, uint64_t, prod_u8, 1, MUL)
BLOCK256(uint8_t, uint8_t, uint64_t, min_u8, UINT8_MAX, MINF, MINF)
BLOCK256(uint8_t, uint8_t, uint64_t, max_u8, 0, MAXF, MAXF)

/* 8-bit folds of scans (ALGO_ACC_ELEM): wrap modulo 2^8. */
#define ADD_I8(a, b) algo_wrap_i8((uint64_t)(a) + (uint64_t)(b))
#define MUL_I8(a, b) algo_wrap_i8((uint64_t)(a) * (uint64_t)(b))
#define ADD_U8(a, b) ((uint8_t)((unsigned)(a) + (unsigned)(b)))
#define MUL_U8(a, b) ((uint8_t)((unsigned)(a) * (unsigned)(b)))

#define DISPATCH2(T, ADDOP, MULOP)                                             \
    do {                                                                       \
        T *r = acc, v;                                                         \
        const T *b = vb;                                                       \
        switch (op->op) {                                                      \
        case SGL_OP_SUM:                                                       \
            v = ADDOP(*r, *b);                                                 \
            break;                                                             \
        case SGL_OP_PROD:                                                      \
            v = MULOP(*r, *b);                                                 \
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

/* Values of the fold: the accumulator's type, which for a widened 8-bit
 * reduction is the 64-bit one. */
void algo_combine(const struct algo_op *op, void *acc, const void *vb)
{
    switch (op->acc_dtype) {
    case SGL_F64:
        DISPATCH2(double, ADD, MUL);
        break;
    case SGL_F32:
        DISPATCH2(float, ADD, MUL);
        break;
    case SGL_I64:
        DISPATCH2(int64_t, UADD, UMUL);
        break;
    case SGL_U64:
        DISPATCH2(uint64_t, ADD, MUL);
        break;
    case SGL_I8:
        DISPATCH2(int8_t, ADD_I8, MUL_I8);
        break;
    case SGL_U8:
        DISPATCH2(uint8_t, ADD_U8, MUL_U8);
        break;
    default:
        op->fn(acc, vb);
        break;
    }
}

/* The block's fold, then combined into @acc: for 8-bit elements the
 * 64-bit fold, cut to 8 bits when the accumulator keeps the element type
 * (a scan's block total: sum and product modulo 2^8 are the low bits of the
 * exact ones; min and max are values of the type anyway). */
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
        if (op->acc_dtype == SGL_I8) {                                         \
            int8_t v8 = algo_wrap_i8((uint64_t)v);                             \
            algo_combine(op, acc, &v8);                                        \
        } else if (op->acc_dtype == SGL_U8) {                                  \
            uint8_t v8 = (uint8_t)((uint64_t)v & 0xff);                        \
            algo_combine(op, acc, &v8);                                        \
        } else {                                                               \
            algo_combine(op, acc, &v);                                         \
        }                                                                      \
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
    case SGL_I8:
        LOCAL(int64_t, i8);
        break;
    case SGL_U8:
        LOCAL(uint64_t, u8);
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
    unsigned char *parts = malloc((size_t)p * op->acc_size);
    if (!parts)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    int rc = sgl_gather(ctx, parts, op->acc_size, p, NULL);
    memcpy(res, op->identity, op->acc_size);
    for (unsigned i = 0; !rc && i < p; i++)
        algo_combine(op, res, parts + (size_t)i * op->acc_size);
    free(parts);
    return rc;
}

static int resolve_arg(const struct algo_op_arg *a, struct algo_op *op)
{
    TRY(algo_op_resolve((sgl_dtype_t)a->dtype, a->op, ALGO_ACC_WIDE, op));
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
        algo_local_reduce(op, src, n, res);
        return SGL_OK;
    }
    size_t *counts = malloc(sgl_ctx_children(ctx) * sizeof *counts);
    if (!counts)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    algo_layout_counts(ctx, a->n, counts);
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
    size_t n;
    TRY(sgl_recv(ctx, op.elem_size, &src, &n));
    unsigned char res[ALGO_MAX_ELEM];
    TRY(creduce(ctx, a, &op, src, n, res));
    return sgl_put(ctx, res, op.acc_size, 1);
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
        memcpy(res, op->identity, op->acc_size);
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
    TRY(sgl_bcast(ctx, v, a->elem_size, 1));
    return sgl_pardo(ctx, bvalue_task, a, sizeof *a);
}

static int bvalue_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct id_arg_v *a = arg;
    void *v;
    size_t count;
    TRY(sgl_recv(ctx, a->elem_size, &v, &count));
    if (count != 1)
        return sgl_error_set(SGL_ESIZE, "broadcast of %zu results, expected "
                                        "one",
                             count);
    return bvalue(ctx, a, v);
}

int sgl_reduce(sgl_ctx_t *root, sgl_dtype_t dtype, sgl_op_t op,
               const void *src, size_t n, void *ret_result)
{
    TRY(algo_check_root(root, "sgl_reduce"));
    if ((n && !src) || !ret_result)
        return sgl_error_set(SGL_EINVAL, "sgl_reduce: NULL buffer");
    struct algo_op o;
    TRY(algo_op_resolve(dtype, op, ALGO_ACC_WIDE, &o));
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
    TRY(algo_op_resolve(v->dtype, op, ALGO_ACC_WIDE, &o));
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
    struct id_arg_v b = {v->id, 0, o.acc_size};
    return bvalue(root, &b, ret_result);
}

int algo_register_reduce(sgl_runtime_t *rt)
{
    TRY(sgl_task_register(rt, creduce_task, "sgl_algo.reduce"));
    TRY(sgl_task_register(rt, dreduce_task, "sgl_algo.dreduce"));
    TRY(sgl_task_register(rt, bvalue_task, "sgl_algo.bvalue"));
    return SGL_OK;
}
