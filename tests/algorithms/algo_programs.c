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
    TRY(sgl_dvec_local_value(ctx, a->id, &v));
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
          sgl_err_name(rc));
    return SGL_OK;
}

int algo_test_register(sgl_runtime_t *rt)
{
    mat2 id = {1, 0, 0, 1};
    TRY(sgl_algorithms_register(rt));
    TRY(sgl_op_register(mat_mul, sizeof(mat2), &id, "mat2_mul", &mat_op));
    TRY(sgl_fill_register(mat_fill_fn, "mat2_fill", &mat_fill));
    TRY(sgl_task_register(rt, value_task, "test.value"));
    TRY(sgl_task_register(rt, misuse_task, "test.misuse"));
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
    TRY(rc);
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
            TRY(reduce_one(root, types[ti], op, a->n, a->seed + op));
    /* The user operator on a distributed vector made by a user fill. */
    sgl_dvec_t *v;
    TRY(sgl_dvec_create(root, SGL_USER, sizeof(mat2), a->n, mat_fill, NULL, 0,
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
    TRY(rc);
    CHECK(memcmp(&got, &want, sizeof got) == 0 &&
              memcmp(&cgot, &want, sizeof got) == 0,
          "user matrix product n=%zu differs", a->n);
    /* Built-in fill: the sum of 0..n-1. */
    TRY(sgl_dvec_create(root, SGL_I64, 0, a->n, SGL_FILL_IOTA, NULL, 0, &v));
    int64_t s;
    rc = sgl_dvec_reduce(root, v, SGL_OP_SUM, 0, &s);
    sgl_dvec_free(root, v);
    TRY(rc);
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

static int scan_one(sgl_ctx_t *root, sgl_dtype_t t, sgl_op_t op, size_t n,
                    uint64_t seed, unsigned flags)
{
    size_t es = tsize(t);
    char *x = malloc(n ? n * es : 1), *want = malloc(n ? n * es : 1);
    char *got = malloc(n ? n * es : 1), *dgot = malloc(n ? n * es : 1);
    CHECK(x && want && got && dgot, "out of memory");
    gen(t, op, x, n, seed);
    int excl = flags & SGL_SCAN_EXCLUSIVE;
    ref_scan(t, op, x, want, n, excl);
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
    sgl_dvec_free(root, in);
    sgl_dvec_free(root, out);
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
        SGL_SCAN_EXCLUSIVE | SGL_SCAN_REDUCE_FIRST, SGL_SCAN_AUTO};
    for (size_t vi = 0; vi < 5; vi++) {
        TRY(scan_one(root, SGL_I64, SGL_OP_SUM, a->n, a->seed, variants[vi]));
        TRY(scan_one(root, SGL_F64, SGL_OP_SUM, a->n, a->seed, variants[vi]));
        TRY(scan_one(root, SGL_F32, SGL_OP_MAX, a->n, a->seed, variants[vi]));
        TRY(scan_one(root, SGL_U64, SGL_OP_MIN, a->n, a->seed, variants[vi]));
        TRY(scan_one(root, SGL_I64, SGL_OP_PROD, a->n, a->seed,
                     variants[vi]));
    }
    /* The non-commutative user operator, both variants, in place. */
    for (size_t vi = 0; vi < 4; vi++) {
        sgl_dvec_t *v;
        TRY(sgl_dvec_create(root, SGL_USER, sizeof(mat2), a->n, mat_fill,
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
        free(all);
        free(got);
        sgl_dvec_free(root, v);
        TRY(rc);
    }
    return SGL_OK;
}

int algo_check_scan(sgl_runtime_t *rt, size_t n, uint64_t seed)
{
    struct rs_arg a = {n, seed};
    return sgl_run(rt, scan_main, &a, sizeof a);
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
    TRY(rc);
    CHECK(sum == n && dst.n == n, "sort: blocks hold %zu of %zu", sum, n);
    /* PSRS bound: no block above 2n/P (+ P for the rounding of samples);
     * all-equal input must split like distinct keys: within one of n/P. */
    size_t bound = a->pattern == PAT_EQUAL ? n / p + 2 : 2 * n / p + p + 1;
    if (a->pattern == PAT_TWO || a->pattern == PAT_FEW ||
        a->pattern == PAT_SPECIAL || a->pattern == PAT_ORGAN)
        bound = 2 * n / p + p + 1; /* equal keys split by index too */
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
                         sgl_err_name(got), sgl_err_name(want),
                         sgl_last_error());
}

static int errors_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    double x[4] = {1, 2, 3, 4}, r;
    TRY(expect(sgl_reduce(root, SGL_F64, SGL_OP_SUM, NULL, 4, &r), SGL_EINVAL,
               "reduce of NULL"));
    TRY(expect(sgl_reduce(root, SGL_F64, SGL_OP_SUM, x, 4, NULL), SGL_EINVAL,
               "reduce into NULL"));
    TRY(expect(sgl_reduce(root, SGL_F64, 99, x, 4, &r), SGL_EINVAL,
               "unknown built-in operator"));
    TRY(expect(sgl_reduce(root, SGL_USER, SGL_OP_USER_FIRST + 1000, x, 4, &r),
               SGL_EINVAL, "unregistered user operator"));
    TRY(expect(sgl_reduce(root, SGL_F64, mat_op, x, 4, &r), SGL_EINVAL,
               "user operator on doubles"));
    TRY(expect(sgl_reduce(root, SGL_USER, SGL_OP_SUM, x, 4, &r), SGL_EINVAL,
               "built-in operator on user elements"));
    TRY(expect(sgl_reduce(NULL, SGL_F64, SGL_OP_SUM, x, 4, &r), SGL_EINVAL,
               "reduce without a context"));
    TRY(expect(sgl_reduce(root, SGL_F64, SGL_OP_SUM, NULL, 0, &r), SGL_OK,
               "reduce of nothing"));
    CHECK(r == 0, "empty sum is %g", r);
    TRY(expect(sgl_scan(root, SGL_F64, SGL_OP_SUM, x, NULL, 4, 0), SGL_EINVAL,
               "scan into NULL"));
    TRY(expect(sgl_scan(root, SGL_F64, SGL_OP_SUM, x, x, 4,
                        SGL_SCAN_LOCAL_FIRST | SGL_SCAN_REDUCE_FIRST),
               SGL_EINVAL, "scan with both variants"));
    TRY(expect(sgl_sort(root, SGL_F64, NULL, 4, NULL), SGL_EINVAL,
               "sort of NULL"));
    TRY(expect(sgl_sort(root, SGL_USER, x, 4, NULL), SGL_EINVAL,
               "sort of user elements"));
    TRY(expect(sgl_dvec_reduce(root, NULL, SGL_OP_SUM, 0, &r), SGL_EINVAL,
               "reduce of a NULL vector"));
    TRY(expect(sgl_dvec_create(root, SGL_F64, 0, 10, 12345, NULL, 0, NULL),
               SGL_EINVAL, "create without a handle"));
    sgl_dvec_t *v = NULL, *w = NULL;
    TRY(expect(sgl_dvec_create(root, SGL_F64, 0, 10, 12345, NULL, 0, &v),
               SGL_EINVAL, "unknown fill"));
    TRY(expect(sgl_dvec_create(root, SGL_F64, 0, 10, SGL_FILL_RANDOM, "ab",
                               2, &v),
               SGL_EINVAL, "random fill with a bad seed"));
    TRY(expect(sgl_dvec_create(root, SGL_F64, 0, 10, SGL_FILL_IOTA, NULL, 0,
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
    TRY(rc);
    if (!sgl_ctx_is_worker(root))
        TRY(sgl_pardo(root, misuse_task, NULL, 0));
    return SGL_OK;
}

int algo_check_errors(sgl_runtime_t *rt)
{
    mat2 id = {1, 0, 0, 1};
    sgl_op_t op;
    TRY(expect(sgl_op_register(NULL, 8, &id, "x", &op), SGL_EINVAL,
               "register NULL operator"));
    TRY(expect(sgl_op_register(mat_mul, 0, &id, "x", &op), SGL_EINVAL,
               "register operator of size 0"));
    TRY(expect(sgl_op_register(mat_mul, sizeof(mat2), &id, "mat2_mul", &op),
               SGL_OK, "register again"));
    CHECK(op == mat_op, "registering again gave a new number");
    return sgl_run(rt, errors_main, NULL, 0);
}
