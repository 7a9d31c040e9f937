/* The stay path's in-place merge (algorithms/vector/psrs_stay.h, internal:
 * compiled in): arrivals before, among and after the part that stayed,
 * the part at the block's start or not, the block growing or shrinking,
 * duplicates, every plain key type; each result against qsort of the
 * same elements. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "psrs_stay.h"
#include "test_util.h"

static int cmp_f64(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_f32(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* A key of type @t from @r, within @range distinct values around 0. */
static void key_from(sgl_dtype_t t, uint64_t r, uint64_t range, void *out)
{
    int64_t v = (int64_t)(r % range) - (int64_t)(range / 2);
    if (t == SGL_F64) {
        double d = (double)v / 4;
        memcpy(out, &d, 8);
    } else if (t == SGL_F32) {
        float f = (float)v / 4;
        memcpy(out, &f, 4);
    } else {
        memcpy(out, &v, 8);
    }
}

/* Block of @m elements, part [lo, hi) sorted, @n sorted arrivals: the
 * merged block equals qsort of the part and the arrivals. */
static void check_merge(sgl_dtype_t t, size_t m, size_t lo, size_t hi,
                        size_t n, uint64_t range, uint64_t seed)
{
    size_t es = t == SGL_F32 ? 4 : 8;
    int (*cmp)(const void *, const void *) =
        t == SGL_F64 ? cmp_f64 : t == SGL_F32 ? cmp_f32 : cmp_i64;
    char *a = malloc((m ? m : 1) * es), *in = malloc((n ? n : 1) * es);
    char *want = malloc((hi - lo + n + 1) * es);
    cr_assert(a && in && want);
    uint64_t s = seed;
    for (size_t i = 0; i < m; i++)
        key_from(t, test_mix(&s), range, a + i * es);
    for (size_t i = 0; i < n; i++)
        key_from(t, test_mix(&s), range, in + i * es);
    qsort(a + lo * es, hi - lo, es, cmp);
    qsort(in, n, es, cmp);
    memcpy(want, a + lo * es, (hi - lo) * es);
    memcpy(want + (hi - lo) * es, in, n * es);
    qsort(want, hi - lo + n, es, cmp);
    void *blk = a;
    size_t cap = m, got = 0;
    cr_assert_eq(sgl__stay_merge(t, es, &blk, &cap, lo, hi, in, n, &got),
                 SGL_OK);
    cr_assert_eq(got, hi - lo + n, "m=%zu lo=%zu hi=%zu n=%zu: %zu", m, lo,
                 hi, n, got);
    cr_assert_geq(cap, got);
    cr_assert(memcmp(blk, want, got * es) == 0,
              "type %d m=%zu lo=%zu hi=%zu n=%zu: not the merge", (int)t, m,
              lo, hi, n);
    free(blk);
    free(in);
    free(want);
}

/* (m, lo, hi, n): nothing in, nothing left, fewer or more arrivals than
 * left below, the part at the start or at the end, growth. */
static const size_t cases[][4] = {
    {0, 0, 0, 0},          {1, 0, 1, 0},         {1, 0, 1, 1},
    {10, 3, 10, 0},        {10, 0, 7, 5},        {10, 5, 10, 2},
    {10, 2, 10, 9},        {1000, 0, 1000, 40},  {1000, 30, 1000, 30},
    {1000, 30, 990, 10},   {1000, 10, 1000, 45}, {1000, 0, 940, 200},
    {100000, 500, 100000, 480}, {100000, 0, 99000, 1500},
    {100000, 6000, 100000, 100}};

static void check_all(sgl_dtype_t t)
{
    uint64_t ranges[] = {3, 50, UINT64_C(1) << 40};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (size_t r = 0; r < 3; r++)
            check_merge(t, cases[c][0], cases[c][1], cases[c][2], cases[c][3],
                        ranges[r], 7 + c);
}

Test(psrs_stay, merge_f64) { check_all(SGL_F64); }
Test(psrs_stay, merge_i64) { check_all(SGL_I64); }
Test(psrs_stay, merge_f32) { check_all(SGL_F32); }

/* Arrivals all below or all above the part: every stretch moves one way. */
Test(psrs_stay, arrivals_at_one_end)
{
    double a[8] = {-1, -1, 10, 11, 12, 13, 0, 0}, lowin[2] = {1, 2};
    void *blk = malloc(sizeof a);
    cr_assert(blk);
    memcpy(blk, a, sizeof a);
    size_t cap = 8, got;
    cr_assert_eq(sgl__stay_merge(SGL_F64, 8, &blk, &cap, 2, 6, lowin, 2, &got),
                 SGL_OK);
    double want[6] = {1, 2, 10, 11, 12, 13};
    cr_assert_eq(got, 6);
    cr_assert(memcmp(blk, want, sizeof want) == 0);
    double highin[3] = {20, 21, 22};
    cr_assert_eq(sgl__stay_merge(SGL_F64, 8, &blk, &cap, 0, 6, highin, 3,
                                 &got),
                 SGL_OK);
    double want2[9] = {1, 2, 10, 11, 12, 13, 20, 21, 22};
    cr_assert_eq(got, 9);
    cr_assert(memcmp(blk, want2, sizeof want2) == 0);
    free(blk);
}

/* Which workers keep their bucket: few leave, all on one side. */
Test(psrs_stay, chosen)
{
    size_t one_side[3] = {0, 100, 3}, both[3] = {2, 100, 3};
    size_t many[2] = {50, 50}, none_own[2] = {0, 0};
    cr_assert(sgl__stay_chosen(one_side, 3, 1, 103));
    cr_assert(!sgl__stay_chosen(both, 3, 1, 105));
    cr_assert(!sgl__stay_chosen(many, 2, 0, 100));
    cr_assert(!sgl__stay_chosen(none_own, 2, 0, 0));
}
