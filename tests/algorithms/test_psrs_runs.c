/* The presorted-input scan's fused reversal (algorithms/vector/psrs_runs.h,
 * internal: compiled in): a block of plain keys in reverse order comes
 * back in order, anything else exactly as it came, and the unit always
 * says what sgl__runs_classify() says of the block as it came. Sizes
 * odd and even, below, at and beyond a chunk; a key going up in the
 * first chunk, in a later chunk of either half, and at the middle. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "psrs_runs.h"

/* Element @i of a block of @n in reverse order, as type @t, at @p. */
static void put_down(sgl_dtype_t t, void *p, size_t i, size_t n, size_t run)
{
    double v = (double)((n - i) / run) - (double)(n / 4);
    if (t == SGL_F64) {
        ((double *)p)[i] = v;
    } else if (t == SGL_F32) {
        ((float *)p)[i] = (float)v;
    } else if (t == SGL_I64) {
        ((int64_t *)p)[i] = (int64_t)v;
    } else {
        ((uint64_t *)p)[i] = (uint64_t)((n - i) / run);
    }
}

static size_t plain_size(sgl_dtype_t t)
{
    return t == SGL_F32 ? 4 : 8;
}

/* Fill @n elements in reverse order (runs of @run equal keys); where
 * @bump < n, element bump gets the key of element 0 plus one, so that
 * the key goes up there. */
static void *block(sgl_dtype_t t, size_t n, size_t run, size_t bump)
{
    size_t es = plain_size(t);
    unsigned char *a = malloc((n ? n : 1) * es);
    cr_assert_not_null(a);
    for (size_t i = 0; i < n; i++)
        put_down(t, a, i, n, run);
    if (bump < n) {
        put_down(t, a, 0, n + 4 * run, run); /* a larger key... */
        memcpy(a + bump * es, a, es);         /* ...at bump, */
        put_down(t, a, 0, n, run);            /* element 0 as it was */
    }
    return a;
}

/* Run the fused pass on @a and check it against the scan of a copy. */
static void check(sgl_dtype_t t, void *a, size_t n, int want_reversed)
{
    size_t es = plain_size(t);
    struct rec_layout L = {es, 0, t != SGL_F32};
    unsigned char *orig = malloc((n ? n : 1) * es);
    cr_assert_not_null(orig);
    memcpy(orig, a, n * es);
    struct runs_unit want, got;
    sgl__runs_classify(t, &L, orig, n, &want);
    int done = sgl__runs_classify_reverse(t, &L, a, n, &got);
    cr_assert_eq(done, want_reversed, "type %d n=%zu: reversed %d", (int)t, n,
                 done);
    cr_assert(memcmp(&want, &got, sizeof want) == 0,
              "type %d n=%zu: unit (%llu %llu) not the scan's (%llu %llu)",
              (int)t, n, (unsigned long long)got.shape,
              (unsigned long long)got.first, (unsigned long long)want.shape,
              (unsigned long long)want.first);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *exp = done ? orig + (n - 1 - i) * es : orig + i * es;
        cr_assert(memcmp((unsigned char *)a + i * es, exp, es) == 0,
                  "type %d n=%zu: element %zu moved wrongly (reversed %d)",
                  (int)t, n, i, done);
    }
    free(orig);
}

static const sgl_dtype_t types[] = {SGL_F64, SGL_F32, SGL_I64, SGL_U64};
static const size_t sizes[] = {2, 3, 1024, 1025, 1026, 2049, 5000, 5001};

Test(psrs_runs, reverse_order_is_reversed)
{
    for (size_t k = 0; k < 4; k++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (size_t run = 1; run <= 3; run += 2) {
                size_t n = sizes[s];
                void *a = block(types[k], n, run, SIZE_MAX);
                /* Two keys of a run of three are one key: no order. */
                check(types[k], a, n, run == 1 || n >= 3);
                free(a);
            }
}

Test(psrs_runs, a_key_going_up_leaves_the_block_as_it_came)
{
    for (size_t k = 0; k < 4; k++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            size_t n = sizes[s];
            size_t at[] = {1, n / 2, n / 2 + 1, n - 1, 3 * n / 4, n / 3, 1500};
            for (size_t j = 0; j < sizeof at / sizeof *at; j++) {
                if (at[j] >= n || at[j] == 0)
                    continue;
                void *a = block(types[k], n, 1, at[j]);
                check(types[k], a, n, 0);
                free(a);
            }
        }
}

Test(psrs_runs, in_order_equal_and_records_are_left)
{
    size_t n = 5001;
    double *up = malloc(n * sizeof *up), *eq = malloc(n * sizeof *eq);
    cr_assert(up && eq);
    for (size_t i = 0; i < n; i++) {
        up[i] = (double)i;
        eq[i] = 7.0;
    }
    check(SGL_F64, up, n, 0);
    check(SGL_F64, eq, n, 0);
    /* Equal keys for more than a chunk, then going down: the scan alone
     * (the caller reverses). */
    for (size_t i = 2000; i < n; i++)
        eq[i] = 7.0 - (double)i;
    check(SGL_F64, eq, n, 0);
    /* Records: never reversed here (their equal keys need the caller's
     * stable reversal). */
    struct {
        double key;
        uint64_t tag;
    } *r = malloc(n * sizeof *r);
    cr_assert_not_null(r);
    for (size_t i = 0; i < n; i++)
        r[i].key = (double)(n - i), r[i].tag = i;
    struct rec_layout L = {sizeof *r, 0, 1};
    struct runs_unit u;
    cr_assert_eq(sgl__runs_classify_reverse(SGL_F64, &L, r, n, &u), 0);
    cr_assert_eq(u.shape, RUNS_DOWN);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(r[i].tag, i);
    free(up);
    free(eq);
    free(r);
}
