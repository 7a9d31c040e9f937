/* Checks of the reference algorithms against sequential computations at
 * the root, written only against the public API. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo_programs.h"
#include "test_util.h"

/* ---- a non-commutative user operator: 2x2 integer matrices mod 2^64 --- */

typedef struct {
    uint64_t a, b, c, d;
} mat2;

static void mat_mul(void *acc, const void *x)
{
    mat2 *l = acc;
    const mat2 *r = x;
    mat2 t = {l->a * r->a + l->b * r->c, l->a * r->b + l->b * r->d,
              l->c * r->a + l->d * r->c, l->c * r->b + l->d * r->d};
    *l = t;
}

static sgl_op_t mat_op;
static uint32_t mat_fill;

/* Fill: element i is a matrix determined by i alone. */
static int mat_fill_fn(void *block, size_t first, size_t count,
                       size_t elem_size, const void *arg, size_t arg_size)
{
    (void)arg, (void)arg_size;
    if (elem_size != sizeof(mat2))
        return sgl_error_set(SGL_EINVAL, "mat fill: element of %zu bytes",
                             elem_size);
    mat2 *m = block;
    for (size_t i = 0; i < count; i++) {
        uint64_t s = first + i;
        m[i] = (mat2){test_mix(&s) % 7, test_mix(&s) % 7, test_mix(&s) % 7, test_mix(&s) % 7};
    }
    return SGL_OK;
}

/* A worker task that checks the broadcast reduction result. */
struct value_arg {
    uint32_t id;
    uint32_t size;
    unsigned char want[64];
};

static int value_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct value_arg *a = arg;
    if (!sgl_ctx_is_worker(ctx))
        return sgl_pardo(ctx, value_task, arg, size);
    const void *v;
    SGL_TRY(sgl_dvec_local_value(ctx, a->id, &v));
    CHECK(memcmp(v, a->want, a->size) == 0,
          "worker %zu has a different broadcast result",
          sgl_ctx_first_worker(ctx));
    return SGL_OK;
}

/* A task that calls a root-only algorithm on a child: must be ESTATE. */
static int misuse_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    double x = 1, r;
    int rc = sgl_reduce(ctx, SGL_F64, SGL_OP_SUM, &x, 1, &r);
    CHECK(rc == SGL_ESTATE, "sgl_reduce on a child gave %s",
          sgl_error_name(rc));
    return SGL_OK;
}

/* The program's own state at a rank: its depth-first worker index, so a
 * node that lost or swapped it shows. */
static void own_free(void *p) { free(p); }

static int own_state_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const int *set = arg;
    if (*set) {
        size_t *mine = malloc(sizeof *mine);
        CHECK(mine != NULL, "out of memory");
        *mine = sgl_ctx_first_worker(ctx) + 1000 * sgl_ctx_level(ctx);
        sgl_ctx_set_state(ctx, mine, own_free);
    } else {
        const size_t *mine = sgl_ctx_state(ctx);
        CHECK(mine && *mine == sgl_ctx_first_worker(ctx) +
                                   1000 * sgl_ctx_level(ctx),
              "node at level %u, worker %zu lost its own state",
              sgl_ctx_level(ctx), sgl_ctx_first_worker(ctx));
        if (*set == 0 && sgl_ctx_is_worker(ctx))
            sgl_ctx_set_state(ctx, NULL, NULL);
    }
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, own_state_task, arg, size);
    return SGL_OK;
}

static int own_state_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    int set = 1, check = 0;
    SGL_TRY(own_state_task(root, &set, sizeof set));
    sgl_dvec_t *v = NULL;
    double sum = 0;
    SGL_TRY(sgl_dvec_create(root, SGL_F64, sizeof(double), 1000, SGL_FILL_IOTA,
                        NULL, 0, &v));
    int rc = sgl_dvec_reduce(root, v, SGL_OP_SUM, 1, &sum);
    if (rc == SGL_OK)
        rc = sgl_dvec_scan(root, v, v, SGL_OP_SUM, SGL_SCAN_INCLUSIVE);
    if (rc == SGL_OK)
        rc = sgl_dvec_sort(root, v, NULL);
    sgl_dvec_free(root, v);
    SGL_TRY(rc);
    CHECK(sum == 999.0 * 1000 / 2, "sum %g", sum);
    return own_state_task(root, &check, sizeof check);
}

int algo_check_own_state(sgl_runtime_t *rt)
{
    return sgl_run(rt, own_state_main, NULL, 0);
}

int algo_test_register(sgl_runtime_t *rt)
{
    mat2 id = {1, 0, 0, 1};
    SGL_TRY(sgl_algorithms_register(rt));
    SGL_TRY(sgl_op_register(mat_mul, sizeof(mat2), &id, "mat2_mul", &mat_op));
    SGL_TRY(sgl_fill_register(mat_fill_fn, "mat2_fill", &mat_fill));
    SGL_TRY(sgl_task_register(rt, value_task, "test.value"));
    SGL_TRY(sgl_task_register(rt, misuse_task, "test.misuse"));
    SGL_TRY(sgl_task_register(rt, own_state_task, "test.own_state"));
    return SGL_OK;
}

/* ---- data and references ---- */

static const sgl_dtype_t types[] = {SGL_F64, SGL_F32, SGL_I64, SGL_U64};
static const char *const type_names[] = {"", "f64", "f32", "i64", "u64",
                                         "user"};
static const char *const op_names[] = {"", "sum", "prod", "min", "max"};

static size_t tsize(sgl_dtype_t t) { return t == SGL_F32 ? 4 : 8; }

static void gen(sgl_dtype_t t, sgl_op_t op, void *x, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = test_mix(&s);
        double u = (double)(r >> 11) * 0x1p-53;
        double f = op == SGL_OP_PROD ? 1 + (u - 0.5) * 1e-3 : (u - 0.3) * 100;
        switch (t) {
        case SGL_F64:
            ((double *)x)[i] = f;
            break;
        case SGL_F32:
            ((float *)x)[i] = (float)f;
            break;
        case SGL_I64:
            ((int64_t *)x)[i] = op == SGL_OP_PROD ? (int64_t)(r | 1)
                                                  : (int64_t)(r >> 20) -
                                                        (int64_t)(1ll << 43);
            break;
        default:
            ((uint64_t *)x)[i] = op == SGL_OP_PROD ? r | 1 : r >> 3;
            break;
        }
    }
}

/* Sequential left fold; floating sums in long double. */
static void ref_reduce(sgl_dtype_t t, sgl_op_t op, const void *x, size_t n,
                       void *out)
{
    long double acc = op == SGL_OP_PROD ? 1 : 0;
    uint64_t ua = op == SGL_OP_PROD ? 1 : op == SGL_OP_MIN ? UINT64_MAX : 0;
    int64_t ia = op == SGL_OP_MIN ? INT64_MAX : op == SGL_OP_MAX ? INT64_MIN
                                                                 : (int64_t)ua;
    if (op == SGL_OP_MIN)
        acc = INFINITY;
    if (op == SGL_OP_MAX)
        acc = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        long double v = t == SGL_F64   ? ((const double *)x)[i]
                        : t == SGL_F32 ? ((const float *)x)[i]
                                       : 0;
        uint64_t u = t == SGL_I64   ? (uint64_t)((const int64_t *)x)[i]
                     : t == SGL_U64 ? ((const uint64_t *)x)[i]
                                    : 0;
        switch (op) {
        case SGL_OP_SUM:
            acc += v;
            ua += u;
            break;
        case SGL_OP_PROD:
            acc *= v;
            ua *= u;
            break;
        case SGL_OP_MIN:
            acc = v < acc ? v : acc;
            ua = u < ua ? u : ua;
            ia = (int64_t)u < ia ? (int64_t)u : ia;
            break;
        default:
            acc = v > acc ? v : acc;
            ua = u > ua ? u : ua;
            ia = (int64_t)u > ia ? (int64_t)u : ia;
            break;
        }
    }
    if (t == SGL_F64)
        *(double *)out = (double)acc;
    else if (t == SGL_F32)
        *(float *)out = (float)acc;
    else if (t == SGL_I64)
        *(int64_t *)out = (op == SGL_OP_MIN || op == SGL_OP_MAX)
                              ? ia
                              : (int64_t)ua;
    else
        *(uint64_t *)out = ua;
}

/* Equal for integers and min/max; within a relative error for floating
 * sums and products (the tree's order differs from the left fold). */
static int close_enough(sgl_dtype_t t, sgl_op_t op, const void *got,
                        const void *want, size_t n)
{
    if (t == SGL_I64 || t == SGL_U64 || op == SGL_OP_MIN || op == SGL_OP_MAX)
        return memcmp(got, want, tsize(t)) == 0;
    double g = t == SGL_F64 ? *(const double *)got : *(const float *)got;
    double w = t == SGL_F64 ? *(const double *)want : *(const float *)want;
    double eps = t == SGL_F64 ? 1e-12 : 1e-5;
    double scale = op == SGL_OP_SUM ? 100.0 * (double)n + 1 : fabs(w) + 1e-300;
    return fabs(g - w) <= eps * scale * (op == SGL_OP_SUM ? 1 : (double)n + 1);
}

static void fmt(sgl_dtype_t t, const void *v, char *buf, size_t len)
{
    if (t == SGL_F64)
        snprintf(buf, len, "%.17g", *(const double *)v);
    else if (t == SGL_F32)
        snprintf(buf, len, "%.9g", *(const float *)v);
    else if (t == SGL_I64)
        snprintf(buf, len, "%" PRId64, *(const int64_t *)v);
    else
        snprintf(buf, len, "%" PRIu64, *(const uint64_t *)v);
}

/* ---- reduce ---- */

struct rs_arg {
    size_t n;
    uint64_t seed;
};

static int reduce_one(sgl_ctx_t *root, sgl_dtype_t t, sgl_op_t op, size_t n,
                      uint64_t seed)
{
    size_t es = tsize(t);
    void *x = malloc(n ? n * es : 1);
    CHECK(x, "out of memory");
    gen(t, op, x, n, seed);
    unsigned char want[8], got[8], again[8], dgot[8];
    ref_reduce(t, op, x, n, want);
    int rc = sgl_reduce(root, t, op, x, n, got);
    if (!rc)
        rc = sgl_reduce(root, t, op, x, n, again);
    sgl_dvec_t *v = NULL;
    if (!rc)
        rc = sgl_dvec_scatter(root, t, 0, x, n, &v);
    if (!rc)
        rc = sgl_dvec_reduce(root, v, op, 1, dgot);
    if (!rc && !sgl_ctx_is_worker(root)) {
        struct value_arg va = {sgl_dvec_id(v), (uint32_t)es, {0}};
        memcpy(va.want, dgot, es);
        rc = sgl_pardo(root, value_task, &va, sizeof va);
    }
    sgl_dvec_free(root, v);
    free(x);
    SGL_TRY(rc);
    char g[64], w[64];
    fmt(t, got, g, sizeof g);
    fmt(t, want, w, sizeof w);
    CHECK(close_enough(t, op, got, want, n), "reduce %s %s n=%zu: got %s, "
                                             "expected %s",
          type_names[t], op_names[op], n, g, w);
    CHECK(memcmp(got, again, es) == 0, "reduce %s %s n=%zu not reproducible",
          type_names[t], op_names[op], n);
    CHECK(memcmp(got, dgot, es) == 0,
          "reduce %s %s n=%zu: distributed result differs from centralised",
          type_names[t], op_names[op], n);
    return SGL_OK;
}

static int reduce_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct rs_arg *a = arg;
    for (size_t ti = 0; ti < 4; ti++)
        for (sgl_op_t op = SGL_OP_SUM; op <= SGL_OP_MAX; op++)
            SGL_TRY(reduce_one(root, types[ti], op, a->n, a->seed + op));
    /* The user operator on a distributed vector made by a user fill. */
    sgl_dvec_t *v;
    SGL_TRY(sgl_dvec_create(root, SGL_USER, sizeof(mat2), a->n, mat_fill, NULL, 0,
                        &v));
    mat2 *all = malloc((a->n ? a->n : 1) * sizeof *all);
    mat2 got, want = {1, 0, 0, 1};
    int rc = all ? sgl_dvec_gather(root, v, all, a->n) : SGL_ENOMEM;
    if (!rc)
        rc = sgl_dvec_reduce(root, v, mat_op, 0, &got);
    for (size_t i = 0; !rc && i < a->n; i++)
        mat_mul(&want, &all[i]);
    mat2 cgot;
    if (!rc)
        rc = sgl_reduce(root, SGL_USER, mat_op, all, a->n, &cgot);
    free(all);
    sgl_dvec_free(root, v);
    SGL_TRY(rc);
    CHECK(memcmp(&got, &want, sizeof got) == 0 &&
              memcmp(&cgot, &want, sizeof got) == 0,
          "user matrix product n=%zu differs", a->n);
    /* Built-in fill: the sum of 0..n-1. */
    SGL_TRY(sgl_dvec_create(root, SGL_I64, 0, a->n, SGL_FILL_IOTA, NULL, 0, &v));
    int64_t s;
    rc = sgl_dvec_reduce(root, v, SGL_OP_SUM, 0, &s);
    sgl_dvec_free(root, v);
    SGL_TRY(rc);
    int64_t n = (int64_t)a->n;
    CHECK(s == n * (n - 1) / 2, "iota sum %" PRId64, s);
    return SGL_OK;
}

int algo_check_reduce(sgl_runtime_t *rt, size_t n, uint64_t seed)
{
    struct rs_arg a = {n, seed};
    return sgl_run(rt, reduce_main, &a, sizeof a);
}

/* ---- scan ---- */

static void ref_scan(sgl_dtype_t t, sgl_op_t op, const void *x, void *y,
                     size_t n, int excl)
{
    size_t es = tsize(t);
    unsigned char acc[8];
    ref_reduce(t, op, x, 0, acc);
    for (size_t i = 0; i < n; i++) {
        unsigned char cur[8];
        if (excl)
            memcpy((char *)y + i * es, acc, es);
        /* fold acc with x_i through ref_reduce of two elements */
        unsigned char pair[16];
        memcpy(pair, acc, es);
        memcpy(pair + es, (const char *)x + i * es, es);
        ref_reduce(t, op, pair, 2, cur);
        memcpy(acc, cur, es);
        if (!excl)
            memcpy((char *)y + i * es, acc, es);
    }
}

/* The scan of x[0..n) both ways: sgl_scan() into @p got and, from a
 * scattered copy, sgl_dvec_scan() gathered into @p dgot; with @p total,
 * also the distributed reduction of the input (8 bytes). */
static int scan_both(sgl_ctx_t *root, sgl_dtype_t t, sgl_op_t op,
                     const void *x, size_t n, unsigned flags, void *got,
                     void *dgot, void *total)
{
    int rc = sgl_scan(root, t, op, x, got, n, flags);
    sgl_dvec_t *in = NULL, *out = NULL;
    if (!rc)
        rc = sgl_dvec_scatter(root, t, 0, x, n, &in);
    if (!rc)
        rc = sgl_dvec_create(root, t, 0, n, SGL_FILL_NONE, NULL, 0, &out);
    if (!rc)
        rc = sgl_dvec_scan(root, in, out, op, flags);
    if (!rc)
        rc = sgl_dvec_gather(root, out, dgot, n);
    if (!rc && total)
        rc = sgl_dvec_reduce(root, in, op, 0, total);
    sgl_dvec_free(root, in);
    sgl_dvec_free(root, out);
    return rc;
}

static int scan_one(sgl_ctx_t *root, sgl_dtype_t t, sgl_op_t op, size_t n,
                    uint64_t seed, unsigned flags)
{
    size_t es = tsize(t);
    /* calloc: GCC -O3 cannot see that gen() writes every element. */
    char *x = calloc(n ? n : 1, es), *want = malloc(n ? n * es : 1);
    char *got = malloc(n ? n * es : 1), *dgot = malloc(n ? n * es : 1);
    CHECK(x && want && got && dgot, "out of memory");
    gen(t, op, x, n, seed);
    int excl = flags & SGL_SCAN_EXCLUSIVE;
    ref_scan(t, op, x, want, n, excl);
    int rc = scan_both(root, t, op, x, n, flags, got, dgot, NULL);
    /* In place (dst == src), where a thread level's workers read and
     * write the same elements of the root's array: the same bits. */
    char *in_place = malloc(n ? n * es : 1);
    CHECK(in_place, "out of memory");
    memcpy(in_place, x, n * es);
    if (!rc)
        rc = sgl_scan(root, t, op, in_place, in_place, n, flags);
    for (size_t i = 0; !rc && i < n; i++)
        if (memcmp(got + i * es, in_place + i * es, es) != 0)
            rc = sgl_error_set(SGL_ETASK, "scan %s %s flags %u n=%zu in "
                                          "place: element %zu differs",
                               type_names[t], op_names[op], flags, n, i);
    free(in_place);
    for (size_t i = 0; !rc && i < n; i++) {
        /* Prefix i's error grows with i: compare as a reduction of i+1. */
        if (!close_enough(t, op, got + i * es, want + i * es, i + 1) ||
            memcmp(got + i * es, dgot + i * es, es) != 0) {
            char g[64], w[64], d[64];
            fmt(t, got + i * es, g, sizeof g);
            fmt(t, want + i * es, w, sizeof w);
            fmt(t, dgot + i * es, d, sizeof d);
            rc = sgl_error_set(SGL_ETASK,
                               "scan %s %s flags %u n=%zu: element %zu is %s "
                               "(distributed %s), expected %s",
                               type_names[t], op_names[op], flags, n, i, g, d,
                               w);
        }
    }
    free(x);
    free(want);
    free(got);
    free(dgot);
    return rc;
}

static int scan_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct rs_arg *a = arg;
    static const unsigned variants[] = {
        SGL_SCAN_INCLUSIVE | SGL_SCAN_LOCAL_FIRST,
        SGL_SCAN_EXCLUSIVE | SGL_SCAN_LOCAL_FIRST,
        SGL_SCAN_INCLUSIVE | SGL_SCAN_REDUCE_FIRST,
        SGL_SCAN_EXCLUSIVE | SGL_SCAN_REDUCE_FIRST, SGL_SCAN_INCLUSIVE};
    for (size_t vi = 0; vi < 5; vi++) {
        SGL_TRY(scan_one(root, SGL_I64, SGL_OP_SUM, a->n, a->seed, variants[vi]));
        SGL_TRY(scan_one(root, SGL_F64, SGL_OP_SUM, a->n, a->seed, variants[vi]));
        SGL_TRY(scan_one(root, SGL_F32, SGL_OP_MAX, a->n, a->seed, variants[vi]));
        SGL_TRY(scan_one(root, SGL_U64, SGL_OP_MIN, a->n, a->seed, variants[vi]));
        SGL_TRY(scan_one(root, SGL_I64, SGL_OP_PROD, a->n, a->seed,
                     variants[vi]));
    }
    /* The non-commutative user operator, both variants, in place. */
    for (size_t vi = 0; vi < 4; vi++) {
        sgl_dvec_t *v;
        SGL_TRY(sgl_dvec_create(root, SGL_USER, sizeof(mat2), a->n, mat_fill,
                            NULL, 0, &v));
        mat2 *all = malloc((a->n ? a->n : 1) * sizeof *all);
        mat2 *got = malloc((a->n ? a->n : 1) * sizeof *got);
        int rc = all && got ? sgl_dvec_gather(root, v, all, a->n) : SGL_ENOMEM;
        if (!rc)
            rc = sgl_dvec_scan(root, v, v, mat_op, variants[vi]);
        if (!rc)
            rc = sgl_dvec_gather(root, v, got, a->n);
        mat2 acc = {1, 0, 0, 1};
        int excl = variants[vi] & SGL_SCAN_EXCLUSIVE;
        for (size_t i = 0; !rc && i < a->n; i++) {
            mat2 before = acc;
            mat_mul(&acc, &all[i]);
            if (memcmp(&got[i], excl ? &before : &acc, sizeof acc) != 0)
                rc = sgl_error_set(SGL_ETASK, "user scan flags %u n=%zu: "
                                              "element %zu differs",
                                   variants[vi], a->n, i);
        }
        /* At the root, in place: the workers' parts in child order. */
        if (!rc)
            rc = sgl_scan(root, SGL_USER, mat_op, all, all, a->n,
                          variants[vi]);
        for (size_t i = 0; !rc && i < a->n; i++)
            if (memcmp(&got[i], &all[i], sizeof *all) != 0)
                rc = sgl_error_set(SGL_ETASK, "user sgl_scan flags %u "
                                              "n=%zu: element %zu differs",
                                   variants[vi], a->n, i);
        free(all);
        free(got);
        sgl_dvec_free(root, v);
        SGL_TRY(rc);
    }
    return SGL_OK;
}

int algo_check_scan(sgl_runtime_t *rt, size_t n, uint64_t seed)
{
    struct rs_arg a = {n, seed};
    return sgl_run(rt, scan_main, &a, sizeof a);
}

/* ---- 8-bit elements: widened reductions, wrapping scans, fills ---- */

/* The value of an 8-bit element byte, by the spec (not the code under
 * test): two's complement for SGL_I8. */
static int64_t v8(sgl_dtype_t t, unsigned char b)
{
    return t == SGL_I8 && b >= 128 ? (int64_t)b - 256 : (int64_t)b;
}

/* Random bytes with the extremes of the type mixed in; products get odd
 * factors, so that they wrap modulo 2^64 instead of becoming 0. */
static void gen8(sgl_op_t op, unsigned char *x, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)(test_mix(&s) >> 56);
        if (i % 61 == 5)
            b = 0x80; /* -128 or 128 */
        if (i % 67 == 3)
            b = 0xff; /* -1 or 255 */
        if (i % 71 == 9)
            b = 0x7f;
        if (op == SGL_OP_PROD)
            b |= 1;
        x[i] = b;
    }
}

/* The documented identity of the widened fold, and one step of it. */
static int64_t id8(sgl_dtype_t t, sgl_op_t op)
{
    int sgn = t == SGL_I8;
    return op == SGL_OP_SUM    ? 0
           : op == SGL_OP_PROD ? 1
           : op == SGL_OP_MIN  ? (sgn ? 127 : 255)
                               : (sgn ? -128 : 0);
}

static int64_t step8(sgl_op_t op, int64_t acc, int64_t v)
{
    if (op == SGL_OP_SUM)
        return (int64_t)((uint64_t)acc + (uint64_t)v);
    if (op == SGL_OP_PROD)
        return (int64_t)((uint64_t)acc * (uint64_t)v);
    if (op == SGL_OP_MIN)
        return v < acc ? v : acc;
    return v > acc ? v : acc;
}

/* Sequential left fold into 64 bits: out is 8 bytes, an int64_t (SGL_I8)
 * or uint64_t (SGL_U8). */
static void ref8(sgl_dtype_t t, sgl_op_t op, const unsigned char *x, size_t n,
                 void *out)
{
    int64_t acc = id8(t, op);
    for (size_t i = 0; i < n; i++)
        acc = step8(op, acc, v8(t, x[i]));
    memcpy(out, &acc, 8);
}

static void fmt8(sgl_dtype_t t, const void *v, char *buf, size_t len)
{
    if (t == SGL_I8)
        snprintf(buf, len, "%" PRId64, *(const int64_t *)v);
    else
        snprintf(buf, len, "%" PRIu64, *(const uint64_t *)v);
}

static const char *name8(sgl_dtype_t t) { return t == SGL_I8 ? "i8" : "u8"; }

/* A reduction into a 16-byte buffer: exactly 8 bytes are written. */
#define GUARD 0xa5

static int guard_ok(const unsigned char *buf)
{
    for (int i = 8; i < 16; i++)
        if (buf[i] != GUARD)
            return 0;
    return 1;
}

static int reduce8_one(sgl_ctx_t *root, sgl_dtype_t t, sgl_op_t op,
                       const unsigned char *x, size_t n, const char *what)
{
    unsigned char want[8], got[16], dgot[16];
    memset(got, GUARD, sizeof got);
    memset(dgot, GUARD, sizeof dgot);
    ref8(t, op, x, n, want);
    int rc = sgl_reduce(root, t, op, x, n, got);
    sgl_dvec_t *v = NULL;
    if (!rc)
        rc = sgl_dvec_scatter(root, t, 0, x, n, &v);
    if (!rc)
        rc = sgl_dvec_reduce(root, v, op, 1, dgot);
    if (!rc && !sgl_ctx_is_worker(root)) {
        struct value_arg va = {sgl_dvec_id(v), 8, {0}};
        memcpy(va.want, dgot, 8);
        rc = sgl_pardo(root, value_task, &va, sizeof va);
    }
    sgl_dvec_free(root, v);
    SGL_TRY(rc);
    char g[32], d[32], w[32];
    fmt8(t, got, g, sizeof g);
    fmt8(t, dgot, d, sizeof d);
    fmt8(t, want, w, sizeof w);
    CHECK(memcmp(got, want, 8) == 0 && memcmp(dgot, want, 8) == 0,
          "reduce %s %s %s n=%zu: got %s (distributed %s), expected %s",
          name8(t), op_names[op], what, n, g, d, w);
    CHECK(guard_ok(got) && guard_ok(dgot),
          "reduce %s %s n=%zu wrote past its 8-byte result", name8(t),
          op_names[op], n);
    return SGL_OK;
}

/* Inclusive and exclusive scans, both variants, centralised and
 * distributed: byte i is the low 8 bits of the exact 64-bit prefix. The
 * inclusive scan's last byte is the low byte of the reduction. */
static int scan8_one(sgl_ctx_t *root, sgl_dtype_t t, sgl_op_t op,
                     const unsigned char *x, size_t n, unsigned flags)
{
    size_t m = n ? n : 1;
    unsigned char *want = malloc(m), *got = malloc(m), *dgot = malloc(m);
    int rc = want && got && dgot ? SGL_OK : SGL_ENOMEM;
    int excl = flags & SGL_SCAN_EXCLUSIVE;
    int64_t acc = id8(t, op);
    for (size_t i = 0; !rc && i < n; i++) {
        if (!excl)
            acc = step8(op, acc, v8(t, x[i]));
        want[i] = (unsigned char)((uint64_t)acc & 0xff);
        if (excl)
            acc = step8(op, acc, v8(t, x[i]));
    }
    uint64_t total = 0;
    if (!rc)
        rc = scan_both(root, t, op, x, n, flags, got, dgot, &total);
    for (size_t i = 0; !rc && i < n; i++)
        if (got[i] != want[i] || dgot[i] != want[i])
            rc = sgl_error_set(SGL_ETASK,
                               "scan %s %s flags %u n=%zu: byte %zu is %#x "
                               "(distributed %#x), expected %#x",
                               name8(t), op_names[op], flags, n, i, got[i],
                               dgot[i], want[i]);
    if (!rc && n && !excl && (total & 0xff) != got[n - 1])
        rc = sgl_error_set(SGL_ETASK,
                           "scan %s %s n=%zu: last element %#x, reduction "
                           "%#" PRIx64,
                           name8(t), op_names[op], n, got[n - 1], total);
    free(want);
    free(got);
    free(dgot);
    return rc;
}

/* Built-in fills, checked element by element against their definition. */
static int fill8_one(sgl_ctx_t *root, sgl_dtype_t t, uint32_t fill,
                     const void *arg, size_t arg_size, size_t n)
{
    size_t m = n ? n : 1;
    unsigned char *all = malloc(m);
    CHECK(all, "out of memory");
    sgl_dvec_t *v = NULL;
    int rc = sgl_dvec_create(root, t, 0, n, fill, arg, arg_size, &v);
    if (!rc)
        rc = sgl_dvec_gather(root, v, all, n);
    for (size_t i = 0; !rc && i < n; i++) {
        unsigned char want = fill == SGL_FILL_IOTA    ? (unsigned char)(i & 0xff)
                             : fill == SGL_FILL_CONST ? *(const unsigned char *)arg
                             : fill == SGL_FILL_NONE  ? 0
                                                      : all[i];
        if (all[i] != want)
            rc = sgl_error_set(SGL_ETASK, "fill %u %s n=%zu: byte %zu is %#x, "
                                          "expected %#x",
                               fill, name8(t), n, i, all[i], want);
    }
    for (sgl_op_t op = SGL_OP_SUM; !rc && op <= SGL_OP_MAX; op++) {
        unsigned char got[8], want[8];
        rc = sgl_dvec_reduce(root, v, op, 0, got);
        ref8(t, op, all, n, want);
        if (!rc && memcmp(got, want, 8) != 0)
            rc = sgl_error_set(SGL_ETASK, "fill %u %s n=%zu: %s differs",
                               fill, name8(t), n, op_names[op]);
    }
    /* A random fill is a function of (seed, i) only: not constant over
     * 64 or more elements, and the same again. */
    if (!rc && fill == SGL_FILL_RANDOM && n >= 64) {
        size_t same = 0;
        for (size_t i = 1; i < n; i++)
            same += all[i] == all[0];
        if (same == n - 1)
            rc = sgl_error_set(SGL_ETASK, "random fill %s is constant",
                               name8(t));
    }
    sgl_dvec_free(root, v);
    free(all);
    return rc;
}

static int int8_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct rs_arg *a = arg;
    size_t n = a->n, m = n ? n : 1;
    static const sgl_dtype_t t8[] = {SGL_I8, SGL_U8};
    static const unsigned variants[] = {
        SGL_SCAN_INCLUSIVE | SGL_SCAN_LOCAL_FIRST,
        SGL_SCAN_EXCLUSIVE | SGL_SCAN_LOCAL_FIRST,
        SGL_SCAN_INCLUSIVE | SGL_SCAN_REDUCE_FIRST,
        SGL_SCAN_EXCLUSIVE | SGL_SCAN_REDUCE_FIRST, SGL_SCAN_INCLUSIVE};
    unsigned char *x = malloc(m), *c = malloc(m);
    CHECK(x && c, "out of memory");
    int rc = SGL_OK;
    for (size_t ti = 0; !rc && ti < 2; ti++) {
        sgl_dtype_t t = t8[ti];
        for (sgl_op_t op = SGL_OP_SUM; !rc && op <= SGL_OP_MAX; op++) {
            gen8(op, x, n, a->seed + op + 10 * ti);
            rc = reduce8_one(root, t, op, x, n, "random");
            /* Constant vectors at the extremes of the type: sums outgrow
             * 8 bits at once (a narrow accumulator shows), products wrap
             * modulo 2^64. */
            memset(c, t == SGL_I8 ? 0x7f : 0xff, n);
            if (!rc)
                rc = reduce8_one(root, t, op, c, n, "all-max");
            memset(c, t == SGL_I8 ? 0x80 : 0x00, n);
            if (!rc)
                rc = reduce8_one(root, t, op, c, n, "all-min");
            for (size_t vi = 0; !rc && vi < 5; vi++)
                rc = scan8_one(root, t, op, x, n, variants[vi]);
        }
        uint64_t seed = a->seed;
        unsigned char k = 200;
        if (!rc)
            rc = fill8_one(root, t, SGL_FILL_IOTA, NULL, 0, n);
        if (!rc)
            rc = fill8_one(root, t, SGL_FILL_CONST, &k, 1, n);
        if (!rc)
            rc = fill8_one(root, t, SGL_FILL_RANDOM, &seed, sizeof seed, n);
        if (!rc)
            rc = fill8_one(root, t, SGL_FILL_NONE, NULL, 0, n);
    }
    /* The iota sum in closed form: i mod 256 as int8 sums to -128 per full
     * cycle of 256; a partial cycle of r elements to r(r-1)/2, less 256
     * for each of its elements from 128 on (they are j - 256). */
    sgl_dvec_t *v = NULL;
    if (!rc)
        rc = sgl_dvec_create(root, SGL_I8, 0, n, SGL_FILL_IOTA, NULL, 0, &v);
    int64_t s = 0;
    if (!rc)
        rc = sgl_dvec_reduce(root, v, SGL_OP_SUM, 0, &s);
    sgl_dvec_free(root, v);
    int64_t q = (int64_t)(n / 256), r = (int64_t)(n % 256);
    int64_t want = -128 * q + r * (r - 1) / 2 - 256 * (r > 128 ? r - 128 : 0);
    if (!rc && s != want)
        rc = sgl_error_set(SGL_ETASK, "iota i8 n=%zu: sum %" PRId64
                                      ", expected %" PRId64,
                           n, s, want);
    free(x);
    free(c);
    return rc;
}

int algo_check_int8(sgl_runtime_t *rt, size_t n, uint64_t seed)
{
    struct rs_arg a = {n, seed};
    return sgl_run(rt, int8_main, &a, sizeof a);
}

/* ---- sort ---- */

const char *const algo_pattern_names[PAT_COUNT] = {
    "random", "all-equal", "two-values", "sorted",
    "reversed", "organ-pipe", "nan/-0/inf", "few-distinct"};

/* The order the sort promises, as an unsigned key (spec, not the code
 * under test): IEEE totalOrder with every NaN after +inf. */
static uint64_t order_key(sgl_dtype_t t, const void *p)
{
    if (t == SGL_F64) {
        double d = *(const double *)p;
        uint64_t b;
        memcpy(&b, &d, 8);
        if (isnan(d))
            return UINT64_MAX - ((b >> 63) ? 0 : 1); /* class, then bits */
        return (b >> 63) ? ~b : b | (UINT64_C(1) << 63);
    }
    if (t == SGL_F32) {
        float f = *(const float *)p;
        uint32_t b;
        memcpy(&b, &f, 4);
        if (isnan(f))
            return UINT64_MAX - ((b >> 31) ? 0 : 1);
        return (b >> 31) ? (uint32_t)~b : b | (UINT32_C(1) << 31);
    }
    if (t == SGL_I64)
        return (uint64_t)*(const int64_t *)p ^ (UINT64_C(1) << 63);
    return *(const uint64_t *)p;
}

static sgl_dtype_t cmp_type;

static int bits_cmp(const void *a, const void *b)
{
    uint64_t x = order_key(cmp_type, a), y = order_key(cmp_type, b);
    if (x != y)
        return x < y ? -1 : 1;
    return 0;
}

static int raw_cmp(const void *a, const void *b)
{
    uint64_t x = 0, y = 0;
    memcpy(&x, a, tsize(cmp_type));
    memcpy(&y, b, tsize(cmp_type));
    return (x > y) - (x < y);
}

static int is_nan(sgl_dtype_t t, const void *p)
{
    return t == SGL_F64   ? isnan(*(const double *)p)
           : t == SGL_F32 ? isnan(*(const float *)p)
                          : 0;
}

/* The order among NaNs is not promised: sort the NaN tail of a sorted
 * vector by raw bits so that vectors compare as multisets. Returns 0 if a
 * number follows a NaN. */
static int canon(sgl_dtype_t t, char *v, size_t n)
{
    size_t es = tsize(t), k = 0;
    while (k < n && !is_nan(t, v + k * es))
        k++;
    for (size_t i = k; i < n; i++)
        if (!is_nan(t, v + i * es))
            return 0;
    cmp_type = t;
    qsort(v + k * es, n - k, es, raw_cmp);
    return 1;
}

static void put_val(sgl_dtype_t t, void *x, size_t i, double d, uint64_t u)
{
    if (t == SGL_F64)
        ((double *)x)[i] = d;
    else if (t == SGL_F32)
        ((float *)x)[i] = (float)d;
    else if (t == SGL_I64)
        ((int64_t *)x)[i] = (int64_t)u;
    else
        ((uint64_t *)x)[i] = u;
}

static void gen_pattern(sgl_dtype_t t, enum algo_pattern pat, void *x,
                        size_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = test_mix(&s);
        double d = ((double)(r >> 11) * 0x1p-53 - 0.5) * 1e6;
        uint64_t u = r;
        switch (pat) {
        case PAT_EQUAL:
            d = 42.5, u = 42;
            break;
        case PAT_TWO:
            d = (r & 1) ? -1.0 : 3.0, u = (r & 1) ? UINT64_MAX : 7;
            break;
        case PAT_SORTED:
            d = (double)i - (double)n / 2, u = i;
            break;
        case PAT_REVERSED:
            d = (double)(n - i), u = (uint64_t)(n - i) - (uint64_t)n / 3;
            break;
        case PAT_ORGAN:
            d = (double)(i < n / 2 ? i : n - i), u = i < n / 2 ? i : n - i;
            break;
        case PAT_FEW:
            d = (double)(r % 5) - 2, u = (uint64_t)(r % 5) - 2;
            break;
        case PAT_SPECIAL: {
            static const double sp[] = {0.0, -0.0, INFINITY, -INFINITY, 1.0,
                                        -1.0, 5e-324, -5e-324, 1e308};
            size_t k = r % 12;
            if (k < 9)
                d = sp[k];
            else {
                d = NAN;
                uint64_t b;
                memcpy(&b, &d, 8);
                b |= (r >> 20) & 0xffff; /* payloads */
                if (k == 10)
                    b |= UINT64_C(1) << 63; /* negative NaN */
                memcpy(&d, &b, 8);
            }
            if (t == SGL_F32 && isnan(d)) {
                float f = NAN;
                uint32_t fb;
                memcpy(&fb, &f, 4);
                fb |= (uint32_t)(r >> 40) & 0xff;
                if (k == 10)
                    fb |= UINT32_C(1) << 31;
                memcpy(&f, &fb, 4);
                ((float *)x)[i] = f;
                continue;
            }
            u = k < 4 ? (uint64_t)INT64_MIN + k : k < 8 ? UINT64_MAX - k : k;
            break;
        }
        default:
            break;
        }
        put_val(t, x, i, d, u);
    }
}

struct sort_arg_t {
    uint32_t dtype, pattern;
    size_t n;
    uint64_t seed;
};

static size_t last_max_block;

/* Whether a child of @root has several workers (else the by-level
 * variant is the flat one). */
static int has_split_by_children(const sgl_ctx_t *root)
{
    for (unsigned i = 0; i < sgl_ctx_children(root); i++)
        if (sgl_ctx_child_workers(root, i) > 1)
            return 1;
    return 0;
}

static int sort_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct sort_arg_t *a = arg;
    sgl_dtype_t t = (sgl_dtype_t)a->dtype;
    size_t es = tsize(t), n = a->n, p = sgl_ctx_workers(root);
    char *x = malloc(n ? n * es : 1), *want = malloc(n ? n * es : 1);
    char *got = malloc(n ? n * es : 1);
    CHECK(x && want && got, "out of memory");
    gen_pattern(t, (enum algo_pattern)a->pattern, x, n, a->seed);
    memcpy(want, x, n * es);
    cmp_type = t;
    qsort(want, n, es, bits_cmp);
    memcpy(got, x, n * es);
    sgl_sort_stats_t st, dst;
    int rc = sgl_sort(root, t, got, n, &st);
    sgl_dvec_t *v = NULL;
    if (!rc)
        rc = sgl_dvec_scatter(root, t, 0, x, n, &v);
    if (!rc)
        rc = sgl_dvec_sort(root, v, &dst);
    if (!rc)
        rc = sgl_dvec_gather(root, v, x, n);
    size_t sum = 0;
    for (size_t w = 0; !rc && w < p; w++)
        sum += sgl_dvec_counts(v)[w];
    sgl_dvec_free(root, v);
    const char *pn = algo_pattern_names[a->pattern];
    if (!rc && (!canon(t, want, n) || !canon(t, got, n) || !canon(t, x, n)))
        rc = sgl_error_set(SGL_ETASK, "sort %s %s n=%zu: a number after a "
                                      "NaN",
                           type_names[t], pn, n);
    /* Sorted by the promised order, equal keys compared bit for bit: the
     * output equals the sorted reference iff it is a sorted permutation. */
    for (size_t i = 0; !rc && i < n; i++) {
        if (memcmp(got + i * es, want + i * es, es) != 0 ||
            memcmp(x + i * es, want + i * es, es) != 0)
            rc = sgl_error_set(SGL_ETASK,
                               "sort %s %s n=%zu: element %zu differs from "
                               "the sorted input",
                               type_names[t], pn, n, i);
        if (!rc && i > 0 &&
            order_key(t, got + (i - 1) * es) > order_key(t, got + i * es))
            rc = sgl_error_set(SGL_ETASK, "sort %s %s n=%zu: not sorted at "
                                          "%zu",
                               type_names[t], pn, n, i);
    }
    free(x);
    free(want);
    free(got);
    SGL_TRY(rc);
    CHECK(sum == n && dst.n == n, "sort: blocks hold %zu of %zu", sum, n);
    /* PSRS bound: no block above 2n/P (+ P for the rounding of samples);
     * all-equal input must split like distinct keys: within one of n/P.
     * By level, cuts fall where the samples' masses reach each share, so
     * within a sample's mass (at most 1/256 of a unit per level) of it,
     * whatever the keys. */
    size_t bound = a->pattern == PAT_EQUAL ? n / p + 2 : 2 * n / p + p + 1;
    if (a->pattern == PAT_TWO || a->pattern == PAT_FEW ||
        a->pattern == PAT_SPECIAL || a->pattern == PAT_ORGAN)
        bound = 2 * n / p + p + 1; /* equal keys split by index too */
    unsigned variant = 0;
    SGL_TRY(sgl_sort_variant(root, n, &variant));
    if (variant == SGL_SORT_LEVELS && has_split_by_children(root))
        bound = n / p + n / (16 * p) + p + 2;
    CHECK(dst.max_block <= bound && st.max_block <= bound,
          "sort %s %s n=%zu P=%zu: largest block %zu > %zu", type_names[t],
          pn, n, p, dst.max_block, bound);
    last_max_block = dst.max_block;
    return SGL_OK;
}

int algo_check_sort(sgl_runtime_t *rt, sgl_dtype_t dtype,
                    enum algo_pattern pattern, size_t n, uint64_t seed,
                    size_t *ret_max_block)
{
    struct sort_arg_t a = {(uint32_t)dtype, (uint32_t)pattern, n, seed};
    last_max_block = 0;
    int rc = sgl_run(rt, sort_main, &a, sizeof a);
    if (ret_max_block)
        *ret_max_block = last_max_block;
    return rc;
}

/* ---- errors ---- */

static int expect(int got, int want, const char *what)
{
    if (got == want)
        return SGL_OK;
    return sgl_error_set(SGL_ETASK, "'%s': got %s, expected %s (%s)", what,
                         sgl_error_name(got), sgl_error_name(want),
                         sgl_error_last());
}

static int errors_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    double x[4] = {1, 2, 3, 4}, r;
    SGL_TRY(expect(sgl_reduce(root, SGL_F64, SGL_OP_SUM, NULL, 4, &r), SGL_EINVAL,
               "reduce of NULL"));
    SGL_TRY(expect(sgl_reduce(root, SGL_F64, SGL_OP_SUM, x, 4, NULL), SGL_EINVAL,
               "reduce into NULL"));
    SGL_TRY(expect(sgl_reduce(root, SGL_F64, 99, x, 4, &r), SGL_EINVAL,
               "unknown built-in operator"));
    SGL_TRY(expect(sgl_reduce(root, SGL_USER, SGL_OP_USER_FIRST + 1000, x, 4, &r),
               SGL_EINVAL, "unregistered user operator"));
    SGL_TRY(expect(sgl_reduce(root, SGL_F64, mat_op, x, 4, &r), SGL_EINVAL,
               "user operator on doubles"));
    SGL_TRY(expect(sgl_reduce(root, SGL_USER, SGL_OP_SUM, x, 4, &r), SGL_EINVAL,
               "built-in operator on user elements"));
    SGL_TRY(expect(sgl_reduce(NULL, SGL_F64, SGL_OP_SUM, x, 4, &r), SGL_EINVAL,
               "reduce without a context"));
    SGL_TRY(expect(sgl_reduce(root, SGL_F64, SGL_OP_SUM, NULL, 0, &r), SGL_OK,
               "reduce of nothing"));
    CHECK(r == 0, "empty sum is %g", r);
    SGL_TRY(expect(sgl_scan(root, SGL_F64, SGL_OP_SUM, x, NULL, 4, 0), SGL_EINVAL,
               "scan into NULL"));
    SGL_TRY(expect(sgl_scan(root, SGL_F64, SGL_OP_SUM, x, x, 4,
                        SGL_SCAN_LOCAL_FIRST | SGL_SCAN_REDUCE_FIRST),
               SGL_EINVAL, "scan with both variants"));
    /* One worker's output would overwrite another's input. */
    SGL_TRY(expect(sgl_scan(root, SGL_F64, SGL_OP_SUM, x, x + 1, 3, 0),
                   SGL_EINVAL, "scan into an overlapping array"));
    CHECK(x[0] == 1 && x[1] == 2 && x[2] == 3 && x[3] == 4,
          "a refused scan wrote its input");
    SGL_TRY(expect(sgl_sort(root, SGL_F64, NULL, 4, NULL), SGL_EINVAL,
               "sort of NULL"));
    SGL_TRY(expect(sgl_sort(root, SGL_USER, x, 4, NULL), SGL_EINVAL,
               "sort of user elements"));
    SGL_TRY(expect(sgl_sort(root, SGL_I8, x, 4, NULL), SGL_EINVAL,
               "sort of int8 elements"));
    CHECK(strstr(sgl_error_last(), "not supported"),
          "int8 sort refused without saying so: %s", sgl_error_last());
    SGL_TRY(expect(sgl_sort(root, SGL_U8, x, 4, NULL), SGL_EINVAL,
               "sort of uint8 elements"));
    SGL_TRY(expect(sgl_sort_records(root, x, 4, 8, SGL_U8, 0, NULL), SGL_EINVAL,
               "sort records by a uint8 key"));
    {
        sgl_dvec_t *b8;
        SGL_TRY(sgl_dvec_create(root, SGL_I8, 0, 10, SGL_FILL_IOTA, NULL, 0,
                            &b8));
        int rc8 = expect(sgl_dvec_sort(root, b8, NULL), SGL_EINVAL,
                         "sort of an int8 vector");
        sgl_dvec_free(root, b8);
        SGL_TRY(rc8);
    }
    SGL_TRY(expect(sgl_dvec_reduce(root, NULL, SGL_OP_SUM, 0, &r), SGL_EINVAL,
               "reduce of a NULL vector"));
    SGL_TRY(expect(sgl_dvec_create(root, SGL_F64, 0, 10, 12345, NULL, 0, NULL),
               SGL_EINVAL, "create without a handle"));
    sgl_dvec_t *v = NULL, *w = NULL;
    SGL_TRY(expect(sgl_dvec_create(root, SGL_F64, 0, 10, 12345, NULL, 0, &v),
               SGL_EINVAL, "unknown fill"));
    SGL_TRY(expect(sgl_dvec_create(root, SGL_F64, 0, 10, SGL_FILL_RANDOM, "ab",
                               2, &v),
               SGL_EINVAL, "random fill with a bad seed"));
    SGL_TRY(expect(sgl_dvec_create(root, SGL_F64, 0, 10, SGL_FILL_IOTA, NULL, 0,
                               &v),
               SGL_OK, "create"));
    int rc = expect(sgl_dvec_create(root, SGL_F64, 0, 11, SGL_FILL_NONE,
                                    NULL, 0, &w),
                    SGL_OK, "create");
    if (!rc)
        rc = expect(sgl_dvec_scan(root, v, w, SGL_OP_SUM, 0), SGL_ESIZE,
                    "scan into a vector of another size");
    if (!rc)
        rc = expect(sgl_dvec_gather(root, v, x, 4), SGL_ESIZE,
                    "gather into a small buffer");
    if (!rc)
        rc = expect(sgl_dvec_reduce(root, v, mat_op, 0, &r), SGL_EINVAL,
                    "user operator on a double vector");
    sgl_dvec_free(root, v);
    sgl_dvec_free(root, w);
    SGL_TRY(rc);
    if (!sgl_ctx_is_worker(root))
        SGL_TRY(sgl_pardo(root, misuse_task, NULL, 0));
    return SGL_OK;
}

int algo_check_errors(sgl_runtime_t *rt)
{
    mat2 id = {1, 0, 0, 1};
    sgl_op_t op;
    SGL_TRY(expect(sgl_op_register(NULL, 8, &id, "x", &op), SGL_EINVAL,
               "register NULL operator"));
    SGL_TRY(expect(sgl_op_register(mat_mul, 0, &id, "x", &op), SGL_EINVAL,
               "register operator of size 0"));
    SGL_TRY(expect(sgl_op_register(mat_mul, sizeof(mat2), &id, "mat2_mul", &op),
               SGL_OK, "register again"));
    CHECK(op == mat_op, "registering again gave a new number");
    return sgl_run(rt, errors_main, NULL, 0);
}

static int sort_variant_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    unsigned want = *(const unsigned *)arg, got = 0;
    enum { N = 1009 };
    double x[N], y[N];
    for (size_t i = 0; i < N; i++)
        x[i] = (double)((i * 7919) % N);
    int rc = sgl_sort_variant(root, N, &got);
    SGL_TRY(expect(sgl_sort_variant(root, N, NULL), SGL_EINVAL,
               "sort variant into NULL"));
    sgl_dvec_t *v;
    SGL_TRY(sgl_dvec_scatter(root, SGL_F64, 0, x, N, &v));
    int sorted = sgl_dvec_sort(root, v, NULL);
    int back = sgl_dvec_gather(root, v, y, N);
    SGL_TRY(sgl_dvec_free(root, v));
    SGL_TRY(back);
    if (want == 0) {
        SGL_TRY(expect(rc, SGL_EINVAL, "sort variant of a bad SGL_SORT"));
        SGL_TRY(expect(sorted, SGL_EINVAL, "sort under a bad SGL_SORT"));
        CHECK(memcmp(x, y, sizeof x) == 0, "a refused sort moved data");
        return SGL_OK;
    }
    SGL_TRY(rc);
    SGL_TRY(sorted);
    CHECK(got == want, "sort variant %u, expected %u", got, want);
    for (size_t i = 0; i < N; i++)
        CHECK(y[i] == (double)i, "sorted[%zu] = %g", i, y[i]);
    return SGL_OK;
}

int algo_check_sort_variant(sgl_runtime_t *rt, unsigned want)
{
    return sgl_run(rt, sort_variant_main, &want, sizeof want);
}
