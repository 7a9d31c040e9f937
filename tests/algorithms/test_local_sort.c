/* The local kernels of the sorts (algorithms/vector/local_sort.h), alone: key
 * sorts of both widths and record sorts at the sizes around their internal
 * thresholds (0, 1, 2, 31..33, 63..65, 4097, 1e5, 1e6) on every input
 * pattern; records checked for order, stability and that each payload
 * travels with its key; bounds and merges against linear references; and
 * each documented error. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <sgl/errors.h>
#include "local_few.h"
#include "local_sort.h"
#include <sgl/algorithms.h>
#include "test_util.h"

/* ---- inputs ---- */

enum pattern {
    P_DBL01,    /* doubles (floats) in [0,1), as PSRS maps them */
    P_RANDOM,   /* every bit random */
    P_EQUAL,    /* one value */
    P_TWO,      /* two values, far apart */
    P_SORTED,   /* ascending, with duplicates */
    P_REVERSED, /* strictly descending */
    P_REV_DUPS, /* descending, with duplicates */
    P_ZIPF,     /* value k with probability ~ 1/k, k < 1e6 */
    P_FEW_BITS, /* a few high bits vary */
    P_POW2,     /* powers of two: one bit per key */
    P_SAWTOOTH, /* i mod 1000 */
    P_ALMOST,   /* ascending with a few swaps */
    P_K4096,    /* 4096 distinct keys: the most the few-keys table holds */
    P_K4097,    /* 4097, the last one only at the end: the table overflows
                   at the last element */
    P_COUNT
};
static const char *const pattern_names[P_COUNT] = {
    "dbl01",    "random", "equal",    "two",  "sorted",   "reversed",
    "rev_dups", "zipf",   "few_bits", "pow2", "sawtooth", "almost",
    "k4096",    "k4097"};

static uint64_t g_state;

static uint64_t rnd(void) { return test_mix(&g_state); }

/* PSRS's keys: totalOrder, negative NaNs rotated to the top. */
static uint64_t key_f64(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    uint64_t top = UINT64_C(1) << 63;
    return ((b & top) ? ~b : b | top) - ((UINT64_C(1) << 52) - 1);
}

static uint32_t key_f32(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    uint32_t top = UINT32_C(1) << 31;
    return ((b & top) ? ~b : b | top) - ((UINT32_C(1) << 23) - 1);
}

/* Key i of n in pattern p, for keys of kw bytes (the value fits). */
static uint64_t gen_key(enum pattern p, size_t i, size_t n, unsigned kw,
                        uint64_t t0, uint64_t t1)
{
    uint64_t mask = kw == 8 ? ~UINT64_C(0) : UINT32_MAX;
    double u = (double)(rnd() >> 11) * 0x1p-53;
    switch (p) {
    case P_DBL01:
        return kw == 8 ? key_f64(u) : key_f32((float)u);
    case P_RANDOM:
        return rnd() & mask;
    case P_EQUAL:
        return t0 & mask;
    case P_TWO:
        return (rnd() & 1 ? t0 : t1) & mask;
    case P_SORTED:
        return (uint64_t)(i / 3);
    case P_REVERSED:
        return (uint64_t)(n - i);
    case P_REV_DUPS:
        return (uint64_t)((n - i) / 2);
    case P_ZIPF:
        return (uint64_t)exp(u * log(1e6));
    case P_FEW_BITS:
        return (rnd() % 5) << (kw * 8 - 4);
    case P_POW2:
        return UINT64_C(1) << (rnd() % (kw * 8));
    case P_SAWTOOTH:
        return (uint64_t)(i % 1000);
    case P_K4096:
        return (uint64_t)(i * 7919 % 4096) << (kw * 8 - 13);
    case P_K4097:
        return (uint64_t)(i + 1 == n ? 4096 : i * 7919 % 4096)
               << (kw * 8 - 13);
    case P_ALMOST:
    default:
        return (uint64_t)i;
    }
}

static void fill_keys(enum pattern p, void *a, size_t n, unsigned kw,
                      uint64_t seed)
{
    g_state = seed;
    uint64_t t0 = rnd(), t1 = rnd();
    for (size_t i = 0; i < n; i++) {
        uint64_t k = gen_key(p, i, n, kw, t0, t1);
        if (kw == 8)
            ((uint64_t *)a)[i] = k;
        else
            ((uint32_t *)a)[i] = (uint32_t)k;
    }
    if (p == P_ALMOST)
        for (size_t s = 0; n > 1 && s < 1 + n / 1000; s++) {
            size_t x = rnd() % n, y = rnd() % n;
            if (kw == 8) {
                uint64_t *k = a, t = k[x];
                k[x] = k[y];
                k[y] = t;
            } else {
                uint32_t *k = a, t = k[x];
                k[x] = k[y];
                k[y] = t;
            }
        }
}

/* An order-independent fingerprint of a multiset of keys. */
struct print {
    uint64_t sum, sq, mix;
};

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 33)) * UINT64_C(0xFF51AFD7ED558CCD);
    z = (z ^ (z >> 33)) * UINT64_C(0xC4CEB9FE1A85EC53);
    return z ^ (z >> 33);
}

static struct print fingerprint(const void *a, size_t n, unsigned kw)
{
    struct print f = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        uint64_t k =
            kw == 8 ? ((const uint64_t *)a)[i] : ((const uint32_t *)a)[i];
        uint64_t h = mix64(k);
        f.sum += k;
        f.sq += h * h;
        f.mix += h;
    }
    return f;
}

/* ---- key sorts ---- */

static void check_keys(enum pattern p, size_t n, unsigned kw, uint64_t seed)
{
    void *a = malloc(n ? n * kw : 1);
    cr_assert_not_null(a);
    fill_keys(p, a, n, kw, seed);
    struct print before = fingerprint(a, n, kw);
    int rc = kw == 8 ? sgl__algo_sort_u64(a, n) : sgl__algo_sort_u32(a, n);
    cr_assert_eq(rc, SGL_OK, "%u-byte keys, %s, n=%zu: %s", kw,
                 pattern_names[p], n, sgl_error_last());
    for (size_t i = 1; i < n; i++) {
        uint64_t x, y;
        if (kw == 8) {
            x = ((uint64_t *)a)[i - 1];
            y = ((uint64_t *)a)[i];
        } else {
            x = ((uint32_t *)a)[i - 1];
            y = ((uint32_t *)a)[i];
        }
        if (x > y)
            cr_assert_fail("%u-byte keys, %s, n=%zu: a[%zu] = %llu > a[%zu] "
                           "= %llu",
                           kw, pattern_names[p], n, i - 1,
                           (unsigned long long)x, i, (unsigned long long)y);
    }
    struct print after = fingerprint(a, n, kw);
    cr_assert(before.sum == after.sum && before.sq == after.sq &&
                  before.mix == after.mix,
              "%u-byte keys, %s, n=%zu: not a permutation of the input", kw,
              pattern_names[p], n);
    free(a);
}

static const size_t small_sizes[] = {0,  1,  2,  3,   31,   32,  33,
                                     63, 64, 65, 100, 1000, 4097};

static void keys_all_small(unsigned kw)
{
    for (int p = 0; p < P_COUNT; p++)
        for (size_t i = 0; i < sizeof small_sizes / sizeof *small_sizes; i++)
            check_keys((enum pattern)p, small_sizes[i], kw, 100 + i);
}

TestSuite(local_sort);

Test(local_sort, u64_small_sizes)
{
    keys_all_small(8);
}
Test(local_sort, u32_small_sizes)
{
    keys_all_small(4);
}

Test(local_sort, u64_1e5_every_pattern)
{
    for (int p = 0; p < P_COUNT; p++)
        check_keys((enum pattern)p, 100000, 8, 7);
}

Test(local_sort, u32_1e5_every_pattern)
{
    for (int p = 0; p < P_COUNT; p++)
        check_keys((enum pattern)p, 100000, 4, 7);
}

Test(local_sort, u64_1e6_every_pattern)
{
    for (int p = 0; p < P_COUNT; p++)
        check_keys((enum pattern)p, 1000000, 8, 9);
}

Test(local_sort, u32_1e6_every_pattern)
{
    for (int p = 0; p < P_COUNT; p++)
        check_keys((enum pattern)p, 1000000, 4, 9);
}

/* Beyond the huge-page threshold and the splitter's 2^10 buckets, where
 * PSRS's blocks are. */
Test(local_sort, u64_4e6_doubles_and_random)
{
    check_keys(P_DBL01, 4000000, 8, 11);
    check_keys(P_RANDOM, 4000000, 8, 12);
    check_keys(P_ZIPF, 4000000, 8, 13);
}

Test(local_sort, u32_4e6_floats_and_random)
{
    check_keys(P_DBL01, 4000000, 4, 11);
    check_keys(P_RANDOM, 4000000, 4, 12);
}

/* The few-keys path takes blocks of at most 4096 distinct keys from
 * FEW_MIN_N elements on, and gives up, leaving the block to the radix
 * sort, at the 4097th, even when that is the last element. */
static unsigned choice_of(enum pattern p, size_t n, unsigned kw)
{
    check_keys(p, n, kw, 21);
    return sgl__algo_sort_choice();
}

Test(local_sort, few_keys_path_chosen_and_left)
{
    for (unsigned kw = 4; kw <= 8; kw += 4) {
        cr_expect_eq(choice_of(P_K4096, 100000, kw), SGL_SORT_LOCAL_FEW);
        cr_expect_eq(choice_of(P_TWO, 100000, kw), SGL_SORT_LOCAL_FEW);
        cr_expect_eq(choice_of(P_SAWTOOTH, 1000000, kw), SGL_SORT_LOCAL_FEW);
        cr_expect_eq(choice_of(P_K4097, 100000, kw), SGL_SORT_LOCAL_RADIX);
        cr_expect_eq(choice_of(P_RANDOM, 100000, kw), SGL_SORT_LOCAL_RADIX);
        cr_expect_eq(choice_of(P_K4096, FEW_MIN_N - 1, kw),
                     SGL_SORT_LOCAL_RADIX);
    }
}

/* Near the extremes of the key range: min and max differ by the whole
 * range, and keys next to 0 and to the top. */
Test(local_sort, extreme_keys)
{
    uint64_t a[200];
    uint32_t b[200];
    g_state = 3;
    for (size_t i = 0; i < 200; i++) {
        uint64_t r = rnd();
        a[i] = r % 3 == 0 ? 0 : r % 3 == 1 ? ~(uint64_t)0 : r;
        b[i] = (uint32_t)(r % 3 == 0 ? 0 : r % 3 == 1 ? UINT32_MAX : r);
    }
    cr_assert_eq(sgl__algo_sort_u64(a, 200), SGL_OK);
    cr_assert_eq(sgl__algo_sort_u32(b, 200), SGL_OK);
    for (size_t i = 1; i < 200; i++) {
        cr_assert_leq(a[i - 1], a[i]);
        cr_assert_leq(b[i - 1], b[i]);
    }
    cr_assert_eq(a[0], 0);
    cr_assert_eq(a[199], ~(uint64_t)0);
}

/* ---- sorts that map each key as they read it ---- */

enum mapped { M_F64, M_I64, M_F32 };
static const char *const mapped_names[] = {"f64", "i64", "f32"};

/* The bits whose key (as key_f64(), sign-flip, key_f32() map them) is k. */
static uint64_t unkey(enum mapped m, uint64_t k)
{
    uint64_t top64 = UINT64_C(1) << 63;
    uint32_t top32 = UINT32_C(1) << 31;
    switch (m) {
    case M_F64:
        k += (UINT64_C(1) << 52) - 1;
        return (k & top64) ? k & ~top64 : ~k;
    case M_I64:
        return k ^ top64;
    default: {
        uint32_t b = (uint32_t)k + ((UINT32_C(1) << 23) - 1);
        return (b & top32) ? b & ~top32 : (uint32_t)~b;
    }
    }
}

static uint64_t key_of(enum mapped m, const void *a, size_t i)
{
    double d;
    float f;
    switch (m) {
    case M_F64:
        memcpy(&d, (const uint64_t *)a + i, 8);
        return key_f64(d);
    case M_I64:
        return ((const uint64_t *)a)[i] ^ (UINT64_C(1) << 63);
    default:
        memcpy(&f, (const uint32_t *)a + i, 4);
        return key_f32(f);
    }
}

/* The pattern, laid out in key space and stored as the values whose keys
 * they are (NaNs of both signs, -0.0, infinities and negative integers
 * among them), sorted without mapping: the keys must come out in order and
 * the values be a permutation of the input. */
static void check_mapped(enum pattern p, size_t n, enum mapped m,
                         uint64_t seed)
{
    unsigned kw = m == M_F32 ? 4 : 8;
    void *a = malloc(n ? n * kw : 1);
    cr_assert_not_null(a);
    fill_keys(p, a, n, kw, seed);
    for (size_t i = 0; i < n; i++) {
        if (kw == 8)
            ((uint64_t *)a)[i] = unkey(m, ((uint64_t *)a)[i]);
        else
            ((uint32_t *)a)[i] = (uint32_t)unkey(m, ((uint32_t *)a)[i]);
    }
    struct print before = fingerprint(a, n, kw);
    int rc = m == M_F64   ? sgl__algo_sort_f64(a, n)
             : m == M_I64 ? sgl__algo_sort_i64(a, n)
                          : sgl__algo_sort_f32(a, n);
    cr_assert_eq(rc, SGL_OK, "%s, %s, n=%zu: %s", mapped_names[m],
                 pattern_names[p], n, sgl_error_last());
    for (size_t i = 1; i < n; i++)
        if (key_of(m, a, i - 1) > key_of(m, a, i))
            cr_assert_fail("%s, %s, n=%zu: element %zu's key %llu > element "
                           "%zu's %llu",
                           mapped_names[m], pattern_names[p], n, i - 1,
                           (unsigned long long)key_of(m, a, i - 1), i,
                           (unsigned long long)key_of(m, a, i));
    struct print after = fingerprint(a, n, kw);
    cr_assert(before.sum == after.sum && before.sq == after.sq &&
                  before.mix == after.mix,
              "%s, %s, n=%zu: not a permutation of the input",
              mapped_names[m], pattern_names[p], n);
    free(a);
}

Test(local_sort, mapped_small_and_1e5_every_pattern)
{
    for (int m = M_F64; m <= M_F32; m++)
        for (int p = 0; p < P_COUNT; p++) {
            for (size_t i = 0; i < sizeof small_sizes / sizeof *small_sizes;
                 i++)
                check_mapped((enum pattern)p, small_sizes[i], (enum mapped)m,
                             200 + i);
            check_mapped((enum pattern)p, 100000, (enum mapped)m, 17);
        }
}

/* Past the LSD limit and the splitter's threshold, as one worker's block. */
Test(local_sort, mapped_4e6)
{
    for (int m = M_F64; m <= M_F32; m++) {
        check_mapped(P_RANDOM, 4000000, (enum mapped)m, 21);
        check_mapped(P_DBL01, 4000000, (enum mapped)m, 22);
        check_mapped(P_ZIPF, 4000000, (enum mapped)m, 23);
    }
}

/* A double's special values in SGL's order: -NaN, -inf, ..., -0.0, +0.0,
 * ..., +inf, +NaN, and every NaN after +inf. */
Test(local_sort, mapped_special_doubles)
{
    double v[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0,
                  DBL_MIN, -DBL_MIN, 5e-324, -5e-324, DBL_MAX, -DBL_MAX};
    size_t n = sizeof v / sizeof *v;
    cr_assert_eq(sgl__algo_sort_f64((uint64_t *)(void *)v, n), SGL_OK);
    cr_expect_eq(v[0], -INFINITY);
    cr_expect_eq(v[1], -DBL_MAX);
    cr_expect(v[5] == 0.0 && signbit(v[5]), "-0.0 before +0.0");
    cr_expect(v[6] == 0.0 && !signbit(v[6]));
    cr_expect_eq(v[11], INFINITY);
    cr_expect(isnan(v[12]) && isnan(v[13]), "NaNs last");
}

/* ---- records ---- */

/* Record i: its key, then in every other 4-byte word not overlapping the
 * key, the word w ^ i * 0x9E3779B1 and, in the first such word, i itself. */
static size_t payload_word(size_t es, size_t ko, unsigned kw, size_t w)
{
    (void)es;
    size_t lo = w * 4, hi = lo + 4;
    return hi <= ko || lo >= ko + kw; /* 1 if the word is free */
}

static void fill_records(unsigned char *r, size_t n, size_t es, size_t ko,
                         unsigned kw, enum pattern p, uint64_t seed)
{
    void *k = malloc(n ? n * kw : 1);
    cr_assert_not_null(k);
    fill_keys(p, k, n, kw, seed);
    memset(r, 0xA5, n * es);
    for (size_t i = 0; i < n; i++) {
        unsigned char *e = r + i * es;
        int first = 1;
        for (size_t w = 0; w < es / 4; w++) {
            if (!payload_word(es, ko, kw, w))
                continue;
            uint32_t v = first ? (uint32_t)i
                               : (uint32_t)(w ^ (i * UINT32_C(0x9E3779B1)));
            memcpy(e + w * 4, &v, 4);
            first = 0;
        }
        memcpy(e + ko, (unsigned char *)k + i * kw, kw);
    }
    free(k);
}

static uint64_t sgl__rec_key(const unsigned char *e, size_t ko, unsigned kw)
{
    if (kw == 8) {
        uint64_t x;
        memcpy(&x, e + ko, 8);
        return x;
    }
    uint32_t x;
    memcpy(&x, e + ko, 4);
    return x;
}

/* The original index of a record, rebuilt from its payload; checks every
 * payload word. Records whose key leaves no free word (es == kw) carry no
 * payload: -1. */
static long long rec_index(const unsigned char *e, size_t es, size_t ko,
                           unsigned kw, size_t n)
{
    long long idx = -1;
    for (size_t w = 0; w < es / 4; w++) {
        if (!payload_word(es, ko, kw, w))
            continue;
        uint32_t v;
        memcpy(&v, e + w * 4, 4);
        if (idx < 0) {
            if (v >= n)
                return -2;
            idx = v;
        } else if (v != (uint32_t)(w ^ ((size_t)idx * UINT32_C(0x9E3779B1)))) {
            return -2;
        }
    }
    return idx;
}

static void check_records(size_t n, size_t es, size_t ko, unsigned kw,
                          enum pattern p, uint64_t seed)
{
    unsigned char *r = malloc(n ? n * es : 1);
    unsigned char *orig = malloc(n ? n * es : 1);
    unsigned char *seen = calloc(n ? n : 1, 1);
    cr_assert(r && orig && seen);
    fill_records(r, n, es, ko, kw, p, seed);
    memcpy(orig, r, n * es);
    uint64_t ksum = 0, kmix = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = sgl__rec_key(r + i * es, ko, kw);
        ksum += k;
        kmix += mix64(k);
    }
    int rc = sgl__algo_sort_records(r, n, es, ko, kw);
    cr_assert_eq(rc, SGL_OK, "records es=%zu ko=%zu kw=%u %s n=%zu: %s", es, ko,
                 kw, pattern_names[p], n, sgl_error_last());
    long long prev = -1;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *e = r + i * es;
        long long idx = rec_index(e, es, ko, kw, n);
        cr_assert_neq(idx, -2,
                      "es=%zu ko=%zu kw=%u %s n=%zu: record %zu has a "
                      "torn payload",
                      es, ko, kw, pattern_names[p], n, i);
        if (idx >= 0) {
            cr_assert_eq(seen[idx], 0, "record %lld appears twice", idx);
            seen[idx] = 1;
            /* The record is the original one, key and payload. */
            cr_assert_eq(memcmp(e, orig + (size_t)idx * es, es), 0,
                         "es=%zu ko=%zu kw=%u %s n=%zu: record %zu is not "
                         "original record %lld",
                         es, ko, kw, pattern_names[p], n, i, idx);
        }
        if (i > 0) {
            uint64_t x = sgl__rec_key(e - es, ko, kw),
                     y = sgl__rec_key(e, ko, kw);
            cr_assert_leq(x, y,
                          "es=%zu ko=%zu kw=%u %s n=%zu: keys out of "
                          "order at %zu",
                          es, ko, kw, pattern_names[p], n, i);
            if (x == y && idx >= 0)
                cr_assert_lt(prev, idx,
                             "es=%zu ko=%zu kw=%u %s n=%zu: equal keys "
                             "reordered at %zu (not stable)",
                             es, ko, kw, pattern_names[p], n, i);
        }
        prev = idx;
        uint64_t k = sgl__rec_key(e, ko, kw);
        ksum -= k;
        kmix -= mix64(k);
    }
    cr_assert(ksum == 0 && kmix == 0,
              "es=%zu ko=%zu kw=%u %s n=%zu: keys not a permutation", es, ko,
              kw, pattern_names[p], n);
    free(r);
    free(orig);
    free(seen);
}

struct layout {
    size_t es, ko;
    unsigned kw;
};

static const struct layout layouts[] = {
    {8, 0, 8},  {8, 4, 4},   {12, 4, 8},    {16, 1, 8},   {16, 0, 8},
    {16, 8, 8}, {16, 4, 4},  {16, 6, 4},    {20, 12, 8},  {24, 8, 8},
    {32, 0, 8}, {32, 24, 8}, {32, 28, 4},   {40, 3, 8},   {64, 56, 8},
    {4, 0, 4},  {8, 0, 4},   {256, 100, 8}, {256, 252, 4}};
#define NLAYOUTS (sizeof layouts / sizeof *layouts)

Test(local_sort, records_small_sizes_every_layout)
{
    static const size_t sizes[] = {0, 1, 2, 31, 33, 63, 64, 65, 1000};
    for (size_t l = 0; l < NLAYOUTS; l++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (int p = 0; p < P_COUNT; p += 3)
                check_records(sizes[s], layouts[l].es, layouts[l].ko,
                              layouts[l].kw, (enum pattern)p, 40 + s);
}

Test(local_sort, records_1e5_every_layout)
{
    static const enum pattern pats[] = {P_DBL01, P_RANDOM,   P_TWO,
                                        P_ZIPF,  P_REV_DUPS, P_EQUAL};
    for (size_t l = 0; l < NLAYOUTS; l++)
        for (size_t p = 0; p < sizeof pats / sizeof *pats; p++)
            check_records(layouts[l].es >= 256 ? 20000 : 100000, layouts[l].es,
                          layouts[l].ko, layouts[l].kw, pats[p], 50 + p);
}

/* 16- and 32-byte records at PSRS block sizes (past the splitter and
 * huge-page thresholds), every pattern. */
Test(local_sort, records_1e6_16_and_32_bytes)
{
    for (int p = 0; p < P_COUNT; p++) {
        check_records(1000000, 16, 0, 8, (enum pattern)p, 60);
        check_records(1000000, 32, 8, 8, (enum pattern)p, 61);
    }
    check_records(1000000, 16, 12, 4, P_RANDOM, 62);
    check_records(1000000, 32, 20, 4, P_DBL01, 63);
}

/* ---- bounds and merge ---- */

Test(local_sort, bounds_against_linear_scan)
{
    uint64_t a[300];
    uint32_t b[300];
    g_state = 5;
    for (size_t i = 0; i < 300; i++)
        a[i] = b[i] = (uint32_t)(rnd() % 50);
    cr_assert_eq(sgl__algo_sort_u64(a, 300), SGL_OK);
    cr_assert_eq(sgl__algo_sort_u32(b, 300), SGL_OK);
    for (size_t n = 0; n <= 300; n += 37)
        for (uint64_t k = 0; k <= 51; k++)
            for (int up = 0; up < 2; up++) {
                size_t want = 0;
                while (want < n && (a[want] < k || (up && a[want] == k)))
                    want++;
                cr_assert_eq(sgl__algo_bound_u64(a, n, k, up), want,
                             "u64 n=%zu k=%llu upper=%d", n,
                             (unsigned long long)k, up);
                cr_assert_eq(sgl__algo_bound_u32(b, n, (uint32_t)k, up), want,
                             "u32 n=%zu k=%llu upper=%d", n,
                             (unsigned long long)k, up);
            }
}

/* Bounds and merges of values compared by their keys: doubles of both
 * signs, NaNs and zeros among them, sorted by sgl__algo_sort_f64(). The
 * bound must match a linear scan of the keys; the merge of sorted runs
 * must come out in key order and be a permutation. */
Test(local_sort, mapped_bounds_and_merge)
{
    enum { N = 400, RUNS = 5 };
    uint64_t a[N], out[N];
    g_state = 6;
    for (size_t i = 0; i < N; i++)
        a[i] = unkey(M_F64, (rnd() % 60) << 58 | (rnd() % 3)); /* ties */
    uint64_t len[RUNS] = {0, 150, 1, 200, 49};
    size_t scr[3 * RUNS];
    for (size_t s = 0, off = 0; s < RUNS; off += (size_t)len[s++])
        cr_assert_eq(sgl__algo_sort_f64(a + off, (size_t)len[s]), SGL_OK);
    struct print before = fingerprint(a, N, 8);
    sgl__algo_merge_f64(a, len, RUNS, out, scr, scr + RUNS, scr + 2 * RUNS);
    for (size_t i = 1; i < N; i++)
        cr_assert_leq(key_of(M_F64, out, i - 1), key_of(M_F64, out, i),
                      "merge: out of key order at %zu", i);
    struct print after = fingerprint(out, N, 8);
    cr_assert(before.sum == after.sum && before.mix == after.mix,
              "merge lost values");
    for (size_t n = 0; n <= N; n += 57)
        for (int q = 0; q < 70; q++) {
            uint64_t k = (uint64_t)q << 58 | (uint64_t)(q % 3);
            for (int up = 0; up < 2; up++) {
                size_t want = 0;
                while (want < n && (key_of(M_F64, out, want) < k ||
                                    (up && key_of(M_F64, out, want) == k)))
                    want++;
                cr_assert_eq(sgl__algo_bound_f64(out, n, k, up), want,
                             "f64 n=%zu k=%llu upper=%d", n,
                             (unsigned long long)k, up);
            }
        }
}

static void check_merge(size_t p, const uint64_t *len, uint64_t seed,
                        uint64_t distinct)
{
    size_t n = 0;
    for (size_t s = 0; s < p; s++)
        n += (size_t)len[s];
    uint64_t *in = malloc((n + 1) * sizeof *in), *out = malloc((n + 1) * 8);
    uint32_t *in32 = malloc((n + 1) * 4), *out32 = malloc((n + 1) * 4);
    size_t *scr = malloc(3 * p * sizeof *scr);
    cr_assert(in && out && in32 && out32 && scr);
    g_state = seed;
    size_t off = 0;
    for (size_t s = 0; s < p; s++) {
        for (size_t i = 0; i < len[s]; i++)
            in[off + i] = rnd() % distinct;
        cr_assert_eq(sgl__algo_sort_u64(in + off, (size_t)len[s]), SGL_OK);
        off += (size_t)len[s];
    }
    for (size_t i = 0; i < n; i++)
        in32[i] = (uint32_t)in[i];
    struct print before = fingerprint(in, n, 8);
    sgl__algo_merge_u64(in, len, p, out, scr, scr + p, scr + 2 * p);
    sgl__algo_merge_u32(in32, len, p, out32, scr, scr + p, scr + 2 * p);
    for (size_t i = 1; i < n; i++) {
        cr_assert_leq(out[i - 1], out[i], "p=%zu: out of order at %zu", p, i);
        cr_assert_eq(out32[i], (uint32_t)out[i], "p=%zu: u32 differs", p);
    }
    struct print after = fingerprint(out, n, 8);
    cr_assert(before.sum == after.sum && before.mix == after.mix,
              "p=%zu: merge lost keys", p);
    free(in);
    free(out);
    free(in32);
    free(out32);
    free(scr);
}

Test(local_sort, merge_runs)
{
    static const uint64_t one[] = {1000};
    static const uint64_t two[] = {700, 300}, two_empty[] = {0, 50};
    /* One run under 1/64 of the other: placed by binary search. */
    static const uint64_t short_second[] = {5000, 3}, short_first[] = {2, 4000};
    static const uint64_t three[] = {10, 0, 999};
    static const uint64_t five[] = {1, 2, 0, 3000, 17};
    static const uint64_t none[] = {0, 0, 0, 0};
    check_merge(1, one, 1, 1000);
    check_merge(2, two, 2, 1000);
    check_merge(2, two_empty, 3, 1000);
    check_merge(2, short_second, 7, 1000);
    check_merge(2, short_first, 8, 1000);
    check_merge(3, three, 4, 1000);
    check_merge(5, five, 5, 1000);
    check_merge(4, none, 6, 1000);
}

/* Two runs of few distinct keys (PSRS after the exchange on few-unique
 * or root-duplicate input): stretches of equal keys copied whole; with
 * keys too varied for that, the select. */
Test(local_sort, merge_runs_of_equal_keys)
{
    static const uint64_t even[] = {60000, 40000}, odd[] = {1025, 70001};
    static const uint64_t tiny[] = {1023, 1024};
    for (uint64_t d = 1; d <= 4096; d *= 4) {
        check_merge(2, even, 9, d);
        check_merge(2, odd, 10, d);
        check_merge(2, tiny, 11, d);
    }
}

/* ---- errors ---- */

Test(local_sort, records_bad_layout_einval)
{
    unsigned char r[64] = {0};
    static const struct layout bad[] = {
        {16, 9, 8},  /* key past the end */
        {4, 0, 8},   /* record smaller than its key */
        {18, 0, 8},  /* not a multiple of 4 */
        {0, 0, 4},   /* empty record */
        {260, 0, 8}, /* larger than ALGO_SORT_MAX_ES */
        {16, 0, 2},  /* 2-byte key */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = sgl__algo_sort_records(r, 2, bad[i].es, bad[i].ko, bad[i].kw);
        cr_assert_eq(rc, SGL_EINVAL, "es=%zu ko=%zu kw=%u: %d", bad[i].es,
                     bad[i].ko, bad[i].kw, rc);
        cr_assert(strstr(sgl_error_last(), "records of") != NULL, "%s",
                  sgl_error_last());
    }
    cr_assert_eq(sgl__algo_sort_records(NULL, 1, 16, 0, 8), SGL_EINVAL);
    cr_assert_eq(sgl__algo_sort_records(NULL, 0, 16, 0, 8), SGL_OK);
}

/* A size whose buffer would not fit the address space: SGL_ENOMEM before
 * any allocation or change. */
Test(local_sort, size_overflow_enomem)
{
    uint64_t a[4] = {3, 1, 2, 0};
    int rc = sgl__algo_sort_u64(a, SIZE_MAX / 4);
    cr_assert_eq(rc, SGL_ENOMEM, "%d", rc);
    cr_assert(strstr(sgl_error_last(), "sort:") != NULL, "%s",
              sgl_error_last());
    cr_assert(a[0] == 3 && a[1] == 1 && a[2] == 2 && a[3] == 0);
    unsigned char r[64];
    rc = sgl__algo_sort_records(r, SIZE_MAX / 16, 32, 0, 8);
    cr_assert_eq(rc, SGL_ENOMEM, "%d", rc);
}

#ifndef __SANITIZE_ADDRESS__
/* A real allocation failure (address space limited in this test's own
 * process; sanitizers reserve too much address space for this): SGL_ENOMEM
 * with its message, and the keys unchanged. */
static size_t vm_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return (size_t)pages * 4096;
}

Test(local_sort, allocation_failure_enomem)
{
    size_t n = 4000000;
    uint64_t *a = malloc(n * sizeof *a);
    cr_assert_not_null(a);
    fill_keys(P_RANDOM, a, n, 8, 77);
    struct print before = fingerprint(a, n, 8);
    uint64_t first = a[0];
    size_t vm = vm_bytes();
    cr_assert_gt(vm, 0);
    struct rlimit lim = {vm + ((size_t)8 << 20), vm + ((size_t)8 << 20)};
    cr_assert_eq(setrlimit(RLIMIT_AS, &lim), 0);
    int rc = sgl__algo_sort_u64(a, n);
    cr_assert_eq(rc, SGL_ENOMEM, "%d", rc);
    cr_assert(strstr(sgl_error_last(), "out of memory") != NULL, "%s",
              sgl_error_last());
    struct print after = fingerprint(a, n, 8);
    cr_assert(a[0] == first && before.sum == after.sum &&
              before.mix == after.mix);
    free(a);
}
#endif
