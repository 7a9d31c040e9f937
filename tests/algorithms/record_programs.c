/* PSRS on records with a key inside: the key is drawn from a short table of
 * values in sort order (so there are many equal keys and the reference
 * order is the table index), the rest of the record is a payload made
 * from the record's input position. The output must be the stable sort:
 * records with equal keys in input order, every byte where it belongs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record_programs.h"
#include "test_util.h"

/* Distinct keys in increasing sort order, per key type. */
#define NKEYS 64

static void key_table(sgl_dtype_t t, unsigned char (*tab)[8])
{
    for (int r = 0; r < NKEYS; r++) {
        int v = r - NKEYS / 2; /* -32 .. 31 */
        if (t == SGL_F64 || t == SGL_F32) {
            /* -inf, -1e30, negatives, -0.0, +0.0, positives, 1e30, inf,
             * NaN: the ends and the zeros exercise the key mapping. */
            double d = v;
            if (r == 0)
                d = -INFINITY;
            else if (r == 1)
                d = -1e30;
            else if (r == NKEYS / 2 - 1)
                d = -0.0;
            else if (r == NKEYS - 3)
                d = 1e30;
            else if (r == NKEYS - 2)
                d = INFINITY;
            else if (r == NKEYS - 1)
                d = NAN;
            if (t == SGL_F64) {
                memcpy(tab[r], &d, 8);
            } else {
                float f = (float)d;
                memcpy(tab[r], &f, 4);
            }
        } else if (t == SGL_I64) {
            int64_t x = r == 0 ? INT64_MIN : r == NKEYS - 1 ? INT64_MAX : v;
            memcpy(tab[r], &x, 8);
        } else {
            uint64_t x = r == NKEYS - 1 ? UINT64_MAX : (uint64_t)r * 1000;
            memcpy(tab[r], &x, 8);
        }
    }
}

struct rec_case {
    uint32_t key_type;
    uint32_t key_offset;
    uint64_t rec_size;
    uint64_t n;
    uint64_t seed;
};

/* Record i: key rank[i] at the offset, every other byte a function of i. */
static void make_record(const struct rec_case *c, unsigned char (*tab)[8],
                        size_t kw, size_t i, unsigned rank,
                        unsigned char *rec)
{
    uint64_t s = i * 0x9e3779b97f4a7c15u + c->seed;
    for (size_t b = 0; b < c->rec_size; b++)
        rec[b] = (unsigned char)(test_mix(&s) >> 56);
    memcpy(rec + c->key_offset, tab[rank], kw);
}

struct ranked {
    unsigned rank;
    size_t pos;
};

static int ranked_cmp(const void *x, const void *y)
{
    const struct ranked *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

static size_t last_max_block;

static int records_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct rec_case *c = arg;
    sgl_dtype_t t = (sgl_dtype_t)c->key_type;
    size_t n = c->n, es = c->rec_size;
    size_t kw = t == SGL_F32 ? 4 : 8;
    unsigned char tab[NKEYS][8];
    key_table(t, tab);
    unsigned char *x = malloc(n ? n * es : 1), *want = malloc(n ? n * es : 1);
    struct ranked *r = malloc((n ? n : 1) * sizeof *r);
    CHECK(x && want && r, "out of memory");
    uint64_t s = c->seed;
    for (size_t i = 0; i < n; i++) {
        r[i] = (struct ranked){(unsigned)(test_mix(&s) % NKEYS), i};
        make_record(c, tab, kw, i, r[i].rank, x + i * es);
    }
    qsort(r, n, sizeof *r, ranked_cmp);
    for (size_t i = 0; i < n; i++)
        memcpy(want + i * es, x + r[i].pos * es, es);
    sgl_sort_stats_t st;
    int rc = sgl_sort_records(root, x, n, es, t, c->key_offset, &st);
    for (size_t i = 0; !rc && i < n; i++)
        if (memcmp(x + i * es, want + i * es, es) != 0)
            rc = sgl_error_set(SGL_ETASK,
                               "records of %zu bytes, key type %d at %u, "
                               "n=%zu: record %zu differs from the stable "
                               "sort (input record %zu)",
                               es, (int)t, c->key_offset, n, i, r[i].pos);
    free(x);
    free(want);
    free(r);
    SGL_TRY(rc);
    size_t p = sgl_ctx_workers(root);
    CHECK(st.n == n && st.max_block <= 2 * n / p + p + 1,
          "records n=%zu P=%zu: largest block %zu", n, p, st.max_block);
    last_max_block = st.max_block;
    return SGL_OK;
}

static const struct {
    sgl_dtype_t key_type;
    size_t key_offset, rec_size;
} layouts[] = {
    {SGL_U64, 0, 16},  /* key first */
    {SGL_F64, 8, 24},  /* key inside */
    {SGL_F32, 5, 12},  /* unaligned 4-byte key */
    {SGL_I64, 31, 40}, /* unaligned 8-byte key at the end */
    {SGL_F32, 4, 8},   /* as big as a double, but a float key */
};

size_t record_layouts(void) { return sizeof layouts / sizeof *layouts; }

int record_check(sgl_runtime_t *rt, size_t layout, size_t n, uint64_t seed)
{
    struct rec_case c = {(uint32_t)layouts[layout].key_type,
                         (uint32_t)layouts[layout].key_offset,
                         layouts[layout].rec_size, n, seed};
    return sgl_run(rt, records_main, &c, sizeof c);
}

static int expect(int got, int want, const char *what)
{
    if (got == want)
        return SGL_OK;
    return sgl_error_set(SGL_ETASK, "'%s': got %s, expected %s", what,
                         sgl_error_name(got), sgl_error_name(want));
}

static int record_errors_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    unsigned char rec[64] = {0};
    SGL_TRY(expect(sgl_sort_records(root, rec, 4, 16, SGL_F64, 9, NULL),
               SGL_EINVAL, "key past the end of the record"));
    SGL_TRY(expect(sgl_sort_records(root, rec, 4, 4, SGL_F64, 0, NULL),
               SGL_EINVAL, "record smaller than its key"));
    SGL_TRY(expect(sgl_sort_records(root, rec, 4, 16, SGL_USER, 0, NULL),
               SGL_EINVAL, "key of type SGL_USER"));
    SGL_TRY(expect(sgl_sort_records(root, NULL, 4, 16, SGL_F64, 0, NULL),
               SGL_EINVAL, "NULL data"));
    SGL_TRY(expect(sgl_sort_records(root, rec, 0, 16, SGL_F64, 8, NULL), SGL_OK,
               "no records"));
    sgl_dvec_t *v;
    SGL_TRY(sgl_dvec_create(root, SGL_F64, 0, 8, SGL_FILL_IOTA, NULL, 0, &v));
    int rc = expect(sgl_dvec_sort_records(root, v, SGL_F64, 0, NULL),
                    SGL_EINVAL, "sort_by_key of a plain vector");
    sgl_dvec_free(root, v);
    return rc;
}

int record_check_errors(sgl_runtime_t *rt)
{
    return sgl_run(rt, record_errors_main, NULL, 0);
}
