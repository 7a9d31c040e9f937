/* Operators: the registry of the program's own, the built-in ones
 * resolved per type, and the typed kernels every algorithm folds with
 * (reduce a block, combine two values, scan a block, add an offset), from
 * one set of operator definitions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"

struct op_entry {
    sgl_op_fn fn;
    size_t elem_size;
    unsigned char identity[ALGO_MAX_ELEM];
    char *name;
};

static struct op_entry *ops;
static size_t nops;

int sgl_op_register(sgl_op_fn fn, size_t elem_size, const void *identity,
                    const char *name, sgl_op_t *ret_op)
{
    if (!fn || !identity || !name || !ret_op)
        return sgl_error_set(SGL_EINVAL, "sgl_op_register: NULL argument");
    if (elem_size == 0 || elem_size > ALGO_MAX_ELEM)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_op_register: element size %zu not in "
                             "1..%d",
                             elem_size, ALGO_MAX_ELEM);
    for (size_t i = 0; i < nops; i++)
        if (ops[i].fn == fn && ops[i].elem_size == elem_size &&
            strcmp(ops[i].name, name) == 0) {
            *ret_op = (sgl_op_t)(SGL_OP_USER_FIRST + i);
            return SGL_OK;
        }
    struct op_entry *t = realloc(ops, (nops + 1) * sizeof *t);
    if (!t)
        return sgl_error_set(SGL_ENOMEM, "sgl_op_register: out of memory");
    ops = t;
    char *copy = strdup(name);
    if (!copy)
        return sgl_error_set(SGL_ENOMEM, "sgl_op_register: out of memory");
    ops[nops].fn = fn;
    ops[nops].elem_size = elem_size;
    memcpy(ops[nops].identity, identity, elem_size);
    ops[nops].name = copy;
    *ret_op = (sgl_op_t)(SGL_OP_USER_FIRST + nops);
    nops++;
    return SGL_OK;
}

size_t sgl__algo_key_size(sgl_dtype_t dtype)
{
    switch (dtype) {
    case SGL_F64:
    case SGL_I64:
    case SGL_U64:
        return 8;
    case SGL_F32:
        return 4;
    default:
        return 0;
    }
}

size_t sgl__algo_elem_size(sgl_dtype_t dtype)
{
    switch (dtype) {
    case SGL_I8:
    case SGL_U8:
        return 1;
    default:
        return sgl__algo_key_size(dtype);
    }
}

/* Identities, indexed by SGL_OP_*. The widened 8-bit ones keep the min and
 * max of the element type, so that a reduction's min or max (empty or not)
 * is always a value of that type. */
static const double f64_id[5] = {0, 0, 1, __builtin_inf(), -__builtin_inf()};
static const float f32_id[5] = {0, 0, 1, __builtin_inff(), -__builtin_inff()};
static const int64_t i64_id[5] = {0, 0, 1, INT64_MAX, INT64_MIN};
static const uint64_t u64_id[5] = {0, 0, 1, UINT64_MAX, 0};
static const int8_t i8_id[5] = {0, 0, 1, INT8_MAX, INT8_MIN};
static const uint8_t u8_id[5] = {0, 0, 1, UINT8_MAX, 0};
static const int64_t i8_wide_id[5] = {0, 0, 1, INT8_MAX, INT8_MIN};
static const uint64_t u8_wide_id[5] = {0, 0, 1, UINT8_MAX, 0};

int sgl__algo_op_resolve(sgl_dtype_t dtype, sgl_op_t op, enum algo_acc acc,
                         struct algo_op *ret)
{
    memset(ret, 0, sizeof *ret);
    ret->dtype = dtype;
    ret->acc_dtype = dtype;
    ret->op = op;
    if (op >= SGL_OP_USER_FIRST) {
        size_t i = op - SGL_OP_USER_FIRST;
        if (i >= nops)
            return sgl_error_set(SGL_EINVAL,
                                 "unknown operator %u (%zu user operators "
                                 "registered)",
                                 op, nops);
        if (dtype != SGL_USER)
            return sgl_error_set(SGL_EINVAL,
                                 "user operator '%s' needs element type "
                                 "SGL_USER, got %d",
                                 ops[i].name, (int)dtype);
        ret->elem_size = ops[i].elem_size;
        ret->acc_size = ops[i].elem_size;
        ret->fn = ops[i].fn;
        ret->identity = ops[i].identity;
        return SGL_OK;
    }
    if (op < SGL_OP_SUM || op > SGL_OP_MAX)
        return sgl_error_set(SGL_EINVAL, "unknown operator %u", op);
    switch (dtype) {
    case SGL_F64:
        ret->identity = &f64_id[op];
        break;
    case SGL_F32:
        ret->identity = &f32_id[op];
        break;
    case SGL_I64:
        ret->identity = &i64_id[op];
        break;
    case SGL_U64:
        ret->identity = &u64_id[op];
        break;
    case SGL_I8:
        ret->identity = acc == ALGO_ACC_WIDE ? (const void *)&i8_wide_id[op]
                                             : (const void *)&i8_id[op];
        if (acc == ALGO_ACC_WIDE)
            ret->acc_dtype = SGL_I64;
        break;
    case SGL_U8:
        ret->identity = acc == ALGO_ACC_WIDE ? (const void *)&u8_wide_id[op]
                                             : (const void *)&u8_id[op];
        if (acc == ALGO_ACC_WIDE)
            ret->acc_dtype = SGL_U64;
        break;
    default:
        return sgl_error_set(SGL_EINVAL,
                             "built-in operator %u on element type %d", op,
                             (int)dtype);
    }
    ret->elem_size = sgl__algo_elem_size(dtype);
    ret->acc_size = sgl__algo_elem_size(ret->acc_dtype);
    return SGL_OK;
}

/* ---- reduction kernels ---- */

/* Blocks stream from memory as fast as their misses overlap, and the
 * hardware prefetcher stops at each 4 KiB page. So the folds ask for the
 * lines one page ahead, a chunk of them at a time, while a page and a
 * chunk of the block are left (no prefetch reaches past its end); the
 * order of the fold does not change. On this project's Intel VM, from
 * flushed caches, the sum of 1e5 doubles on 2 threads took 45-47 us
 * without and 35 us with them (`omp simd reduction` 40-43 us), and 1e7
 * about 1.4x faster; in cache 8.5 us against 6.2, the prefetches' own
 * issue slots. */
#define PREFETCH_AHEAD 4096 /* bytes */
#define PREFETCH_CHUNK 1024 /* bytes folded per burst of prefetches */
#define CACHE_LINE 64

/* Ask for the lines of @p from element @i + a page, for the @n elements
 * of a chunk (@rw: 1 for lines about to be written, which are read
 * first). */
#define PREFETCH_PAGE_AHEAD(T, p, i, n, rw)                                    \
    do {                                                                       \
        for (size_t k = 0; k < (n); k += CACHE_LINE / sizeof(T))               \
            __builtin_prefetch((p) + (i) + PREFETCH_AHEAD / sizeof(T) + k,     \
                               (rw));                                          \
    } while (0)

/* Eight interleaved partial results, folded pairwise in a fixed order:
 * the order depends only on n, so results are reproducible, and the
 * independent chains let the compiler use SIMD without reassociation.
 * Eight named variables, not an array: GCC at -O2 kept an array of them
 * on the stack, and every step waited on a store and a load: a sum of
 * 20000 doubles (in cache) took 0.41 ns per element, 0.10-0.12 now, with
 * the same bits. A prefetch inside the 8-element step kept GCC from
 * vectorising it (the sum of 1e5 doubles in cache took 7.6 us instead of
 * 5.5): the prefetches go in a loop of their own, once per chunk. */
#define FOLD8(T, STEP, x, i)                                                   \
    do {                                                                       \
        s0 = STEP(s0, (T)(x)[(i)]);                                            \
        s1 = STEP(s1, (T)(x)[(i) + 1]);                                        \
        s2 = STEP(s2, (T)(x)[(i) + 2]);                                        \
        s3 = STEP(s3, (T)(x)[(i) + 3]);                                        \
        s4 = STEP(s4, (T)(x)[(i) + 4]);                                        \
        s5 = STEP(s5, (T)(x)[(i) + 5]);                                        \
        s6 = STEP(s6, (T)(x)[(i) + 6]);                                        \
        s7 = STEP(s7, (T)(x)[(i) + 7]);                                        \
    } while (0)

#define REDUCE8W(TX, T, NAME, INIT, STEP)                                      \
    static T NAME(const TX *x, size_t n)                                       \
    {                                                                          \
        enum {                                                                 \
            chunk = PREFETCH_CHUNK / sizeof(TX),                               \
            ahead = PREFETCH_AHEAD / sizeof(TX),                               \
        };                                                                     \
        T s0 = INIT, s1 = INIT, s2 = INIT, s3 = INIT;                          \
        T s4 = INIT, s5 = INIT, s6 = INIT, s7 = INIT;                          \
        size_t i = 0;                                                          \
        while (n - i >= chunk + ahead) {                                       \
            PREFETCH_PAGE_AHEAD(TX, x, i, chunk, 0);                           \
            for (size_t j = 0; j < chunk; j += 8)                              \
                FOLD8(T, STEP, x, i + j);                                      \
            i += chunk;                                                        \
        }                                                                      \
        for (; i + 8 <= n; i += 8)                                             \
            FOLD8(T, STEP, x, i);                                              \
        /* The tail goes to s0, s1, ... in turn, as element i + j would        \
         * (STEP may read its operands twice: no side effects in them). */     \
        size_t r = n - i;                                                      \
        if (r > 0)                                                             \
            s0 = STEP(s0, (T)x[i]);                                            \
        if (r > 1)                                                             \
            s1 = STEP(s1, (T)x[i + 1]);                                        \
        if (r > 2)                                                             \
            s2 = STEP(s2, (T)x[i + 2]);                                        \
        if (r > 3)                                                             \
            s3 = STEP(s3, (T)x[i + 3]);                                        \
        if (r > 4)                                                             \
            s4 = STEP(s4, (T)x[i + 4]);                                        \
        if (r > 5)                                                             \
            s5 = STEP(s5, (T)x[i + 5]);                                        \
        if (r > 6)                                                             \
            s6 = STEP(s6, (T)x[i + 6]);                                        \
        T a = STEP(STEP(s0, s1), STEP(s2, s3));                                \
        T b = STEP(STEP(s4, s5), STEP(s6, s7));                                \
        return STEP(a, b);                                                     \
    }
#define REDUCE8(T, NAME, INIT, STEP) REDUCE8W(T, T, NAME, INIT, STEP)

/* 8-bit elements, widened to a 64-bit result: each block of 256 elements
 * is folded into an accumulator of type TB that cannot overflow within a
 * block (a 32-bit sum: |sum| <= 255 * 256; min and max stay 8-bit), and
 * the block results into the 64-bit one. The fixed block length lets the
 * compiler vectorise the inner loop at -O2 (no scalar tail to peel).
 * Integer folds are exact (or wrap modulo 2^64), so the blocking does not
 * change the result. Each block prefetches one page ahead, as above. */
#define BLOCK256(TX, TB, T, NAME, INIT, STEP, WSTEP)                           \
    static T NAME(const TX *x, size_t n)                                       \
    {                                                                          \
        T r = INIT;                                                            \
        size_t i = 0;                                                          \
        for (; i + 256 <= n; i += 256) {                                       \
            if (n - i >= 256 + PREFETCH_AHEAD / sizeof(TX))                    \
                PREFETCH_PAGE_AHEAD(TX, x, i, 256, 0);                         \
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
void sgl__algo_combine(const struct algo_op *op, void *acc, const void *vb)
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
            sgl__algo_combine(op, acc, &v8);                                   \
        } else if (op->acc_dtype == SGL_U8) {                                  \
            uint8_t v8 = (uint8_t)((uint64_t)v & 0xff);                        \
            sgl__algo_combine(op, acc, &v8);                                   \
        } else {                                                               \
            sgl__algo_combine(op, acc, &v);                                    \
        }                                                                      \
    } while (0)

void sgl__algo_local_reduce(const struct algo_op *op, const void *x, size_t n,
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

/* ---- scan kernels ---- */

/* The end of the chunk from @i: a whole chunk with its prefetches while a
 * page and a chunk are left, else the rest of the block. */
#define SCAN_CHUNK_END(T, i, n)                                                \
    ((n) - (i) >= (PREFETCH_CHUNK + PREFETCH_AHEAD) / sizeof(T)                \
         ? (i) + PREFETCH_CHUNK / sizeof(T)                                    \
         : (n))

#define SCAN_LOOP(T, STEP)                                                     \
    do {                                                                       \
        const T *xs = x;                                                       \
        T *ys = y;                                                             \
        T acc = *(const T *)start;                                             \
        for (size_t i = 0; i < n;) {                                           \
            size_t end = SCAN_CHUNK_END(T, i, n);                              \
            if (end < n) {                                                     \
                PREFETCH_PAGE_AHEAD(T, xs, i, end - i, 0);                     \
                PREFETCH_PAGE_AHEAD(T, ys, i, end - i, 1);                     \
            }                                                                  \
            if (exclusive)                                                     \
                for (; i < end; i++) {                                         \
                    T t = xs[i];                                               \
                    ys[i] = acc;                                               \
                    acc = (T)STEP(acc, t);                                     \
                }                                                              \
            else                                                               \
                for (; i < end; i++) {                                         \
                    acc = (T)STEP(acc, xs[i]);                                 \
                    ys[i] = acc;                                               \
                }                                                              \
        }                                                                      \
        *(T *)total = acc;                                                     \
    } while (0)

#define SCAN_TYPE(T, ADDOP, MULOP)                                             \
    switch (op->op) {                                                          \
    case SGL_OP_SUM:                                                           \
        SCAN_LOOP(T, ADDOP);                                                   \
        break;                                                                 \
    case SGL_OP_PROD:                                                          \
        SCAN_LOOP(T, MULOP);                                                   \
        break;                                                                 \
    case SGL_OP_MIN:                                                           \
        SCAN_LOOP(T, MINF);                                                    \
        break;                                                                 \
    default:                                                                   \
        SCAN_LOOP(T, MAXF);                                                    \
        break;                                                                 \
    }

/* Scans keep the element type (ALGO_ACC_ELEM): op->acc_dtype is
 * op->dtype here. */
void sgl__algo_local_scan(const struct algo_op *op, const void *x, void *y,
                          size_t n, const void *off, int exclusive, void *total)
{
    const void *start = off ? off : op->identity;
    switch (op->dtype) {
    case SGL_F64:
        SCAN_TYPE(double, ADD, MUL);
        return;
    case SGL_F32:
        SCAN_TYPE(float, ADD, MUL);
        return;
    case SGL_I64:
        SCAN_TYPE(int64_t, UADD, UMUL);
        return;
    case SGL_U64:
        SCAN_TYPE(uint64_t, ADD, MUL);
        return;
    case SGL_I8:
        SCAN_TYPE(int8_t, ADD_I8, MUL_I8);
        return;
    case SGL_U8:
        SCAN_TYPE(uint8_t, ADD_U8, MUL_U8);
        return;
    default:
        break;
    }
    size_t es = op->elem_size;
    unsigned char acc[ALGO_MAX_ELEM], t[ALGO_MAX_ELEM];
    memcpy(acc, start, es);
    for (size_t i = 0; i < n; i++) {
        const char *xi = (const char *)x + i * es;
        char *yi = (char *)y + i * es;
        memcpy(t, xi, es);
        if (exclusive) {
            memcpy(yi, acc, es);
            op->fn(acc, t);
        } else {
            op->fn(acc, t);
            memcpy(yi, acc, es);
        }
    }
    memcpy(total, acc, es);
}

#define ADD_LOOP(T, STEP)                                                      \
    do {                                                                       \
        T *ys = y;                                                             \
        T o = *(const T *)off;                                                 \
        for (size_t i = 0; i < n;) {                                           \
            size_t end = SCAN_CHUNK_END(T, i, n);                              \
            if (end < n)                                                       \
                PREFETCH_PAGE_AHEAD(T, ys, i, end - i, 1);                     \
            for (; i < end; i++)                                               \
                ys[i] = (T)STEP(o, ys[i]);                                     \
        }                                                                      \
    } while (0)

#define ADD_TYPE(T, ADDOP, MULOP)                                              \
    switch (op->op) {                                                          \
    case SGL_OP_SUM:                                                           \
        ADD_LOOP(T, ADDOP);                                                    \
        break;                                                                 \
    case SGL_OP_PROD:                                                          \
        ADD_LOOP(T, MULOP);                                                    \
        break;                                                                 \
    case SGL_OP_MIN:                                                           \
        ADD_LOOP(T, MINF);                                                     \
        break;                                                                 \
    default:                                                                   \
        ADD_LOOP(T, MAXF);                                                     \
        break;                                                                 \
    }

void sgl__algo_local_add(const struct algo_op *op, void *y, size_t n,
                         const void *off)
{
    switch (op->dtype) {
    case SGL_F64:
        ADD_TYPE(double, ADD, MUL);
        return;
    case SGL_F32:
        ADD_TYPE(float, ADD, MUL);
        return;
    case SGL_I64:
        ADD_TYPE(int64_t, UADD, UMUL);
        return;
    case SGL_U64:
        ADD_TYPE(uint64_t, ADD, MUL);
        return;
    case SGL_I8:
        ADD_TYPE(int8_t, ADD_I8, MUL_I8);
        return;
    case SGL_U8:
        ADD_TYPE(uint8_t, ADD_U8, MUL_U8);
        return;
    default:
        break;
    }
    size_t es = op->elem_size;
    unsigned char t[ALGO_MAX_ELEM];
    for (size_t i = 0; i < n; i++) {
        char *yi = (char *)y + i * es;
        memcpy(t, off, es);
        op->fn(t, yi);
        memcpy(yi, t, es);
    }
}

