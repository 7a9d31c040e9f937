/* PSRS's reverse path on blocks written in reverse order by the workers
 * (psrs_reverse_programs.h). The reference is sequential: the vector as
 * it was before the sort, sorted stably by key (qsort by key, then by
 * position). */
#include "psrs_reverse_programs.h"

#include <stdlib.h>
#include <string.h>

#include <sgl/trace.h>

#include "test_util.h"
#include "one_process.h"

const char *const rev_kind_names[REV_KINDS] = {"f64", "f32", "record16",
                                               "record8", "record12"};

static const size_t rev_es[REV_KINDS] = {8, 4, 16, 8, 12};
static const size_t rev_ko[REV_KINDS] = {0, 0, 0, 0, 4};

static int wide_key(enum rev_kind k)
{
    return k == REV_F64 || k == REV_REC16;
}

static int plain(enum rev_kind k)
{
    return k == REV_F64 || k == REV_F32;
}

struct fill_arg {
    uint32_t id, kind;
    uint64_t workers;
};

struct rev_arg {
    uint32_t kind, rounds;
    uint64_t n;
};

static double key_read(enum rev_kind k, const unsigned char *e)
{
    if (wide_key(k)) {
        double d;
        memcpy(&d, e, sizeof d);
        return d;
    }
    float f;
    memcpy(&f, e + rev_ko[k], sizeof f);
    return f;
}

/* Element @j of worker @w's block: its key, and for records its position
 * (and worker), which the stability check reads back. */
static void write_elem(enum rev_kind k, unsigned char *e, double key, size_t j,
                       size_t w)
{
    float f = (float)key;
    uint64_t j64 = j;
    uint32_t j32 = (uint32_t)j, w32 = (uint32_t)w;
    memset(e, 0, rev_es[k]);
    if (wide_key(k))
        memcpy(e, &key, sizeof key);
    else
        memcpy(e + rev_ko[k], &f, sizeof f);
    if (k == REV_REC16)
        memcpy(e + 8, &j64, sizeof j64);
    else if (k == REV_REC8)
        memcpy(e + 4, &j32, sizeof j32);
    else if (k == REV_REC12) {
        memcpy(e, &j32, sizeof j32);
        memcpy(e + 8, &w32, sizeof w32);
    }
}

/* Every worker writes its block in reverse order: keys (P - w) 2^16 +
 * (m - j) / 3, so three equal keys in a row, and every key of a worker
 * below every key of the worker before it (exact as floats too). */
static int rev_fill_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const struct fill_arg *a = arg;
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, rev_fill_task, arg, size);
    void *data;
    size_t m, first, w = sgl_ctx_first_worker(ctx);
    SGL_TRY(sgl_dvec_local(ctx, a->id, &data, &m, &first));
    CHECK(m / 3 < 65536 && a->workers < 256, "block of %zu too large", m);
    enum rev_kind k = (enum rev_kind)a->kind;
    for (size_t j = 0; j < m; j++) {
        double key = (double)(a->workers - w) * 65536.0 + (double)((m - j) / 3);
        write_elem(k, (unsigned char *)data + j * rev_es[k], key, j, w);
    }
    return SGL_OK;
}

struct order {
    double key;
    size_t at;
};

static int order_cmp(const void *x, const void *y)
{
    const struct order *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->at > b->at) - (a->at < b->at);
}

/* @want: the @n elements at @in sorted stably by key. */
static int stable_sorted(enum rev_kind k, const unsigned char *in, size_t n,
                         unsigned char *want)
{
    size_t es = rev_es[k];
    struct order *o = malloc((n ? n : 1) * sizeof *o);
    CHECK(o, "out of memory");
    for (size_t i = 0; i < n; i++)
        o[i] = (struct order){key_read(k, in + i * es), i};
    qsort(o, n, sizeof *o, order_cmp);
    for (size_t i = 0; i < n; i++)
        memcpy(want + i * es, in + o[i].at * es, es);
    free(o);
    return SGL_OK;
}

static int sort_vec(sgl_ctx_t *root, enum rev_kind k, sgl_dvec_t *v,
                    sgl_sort_stats_t *st)
{
    if (plain(k))
        return sgl_dvec_sort(root, v, st);
    return sgl_dvec_sort_records(root, v, wide_key(k) ? SGL_F64 : SGL_F32,
                                 rev_ko[k], st);
}

/* Buffers of one check: the vector before the sort, the reference, the
 * result, the sizes before. */
struct rev_bufs {
    unsigned char *in, *want, *got;
    size_t *before;
};

/* One round: write, gather the input, sort, compare. */
static int rev_round(sgl_ctx_t *root, const struct rev_arg *a, sgl_dvec_t *v,
                     struct rev_bufs *b, uint32_t *all_reversed)
{
    enum rev_kind k = (enum rev_kind)a->kind;
    size_t n = (size_t)a->n, p = sgl_ctx_workers(root), es = rev_es[k];
    struct fill_arg f = {sgl_dvec_id(v), a->kind, p};
    SGL_TRY(rev_fill_task(root, &f, sizeof f)); /* a worker alone: itself */
    SGL_TRY(sgl_dvec_gather(root, v, b->in, n));
    memcpy(b->before, sgl_dvec_counts(v), p * sizeof *b->before);
    SGL_TRY(stable_sorted(k, b->in, n, b->want));
    sgl_sort_stats_t st;
    SGL_TRY(sort_vec(root, k, v, &st));
    SGL_TRY(sgl_dvec_gather(root, v, b->got, n));
    CHECK(memcmp(b->want, b->got, n * es) == 0,
          "%s n=%zu: not the stable sort of the input", rev_kind_names[k], n);
    unsigned variant;
    SGL_TRY(sgl_sort_variant(root, n, &variant));
    CHECK(p < 2 || variant == SGL_SORT_LEVELS ||
              st.path == SGL_SORT_PATH_REVERSED,
          "%s n=%zu: path %u, not the reverse path", rev_kind_names[k], n,
          st.path);
    const size_t *now = sgl_dvec_counts(v);
    for (size_t w = 0; st.path == SGL_SORT_PATH_REVERSED && w < p; w++)
        CHECK(now[w] == b->before[p - 1 - w],
              "%s n=%zu: worker %zu holds %zu, its mirror had %zu",
              rev_kind_names[k], n, w, now[w], b->before[p - 1 - w]);
    *all_reversed &= st.path == SGL_SORT_PATH_REVERSED;
    return SGL_OK;
}

static int rev_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct rev_arg *a = arg;
    enum rev_kind k = (enum rev_kind)a->kind;
    size_t n = (size_t)a->n, es = rev_es[k], p = sgl_ctx_workers(root);
    struct rev_bufs b = {calloc(n ? n : 1, es), malloc((n ? n : 1) * es),
                         malloc((n ? n : 1) * es),
                         malloc(p * sizeof *b.before)};
    sgl_dvec_t *v = NULL;
    int rc = b.in && b.want && b.got && b.before
                 ? SGL_OK
                 : sgl_error_set(SGL_ENOMEM, "out of memory");
    if (!rc)
        rc = plain(k) ? sgl_dvec_scatter(root, k == REV_F64 ? SGL_F64 : SGL_F32,
                                         0, b.in, n, &v)
                      : sgl_dvec_scatter(root, SGL_USER, es, b.in, n, &v);
    uint32_t all_reversed = 1;
    for (uint32_t r = 0; !rc && r < a->rounds; r++)
        rc = rev_round(root, a, v, &b, &all_reversed);
    int rc2 = sgl_dvec_free(root, v);
    rc = rc ? rc : rc2;
    if (!rc)
        rc = sgl_put(root, &all_reversed, sizeof all_reversed, 1);
    free(b.in);
    free(b.want);
    free(b.got);
    free(b.before);
    return rc;
}

int psrs_reverse_check(sgl_runtime_t *rt, enum rev_kind kind, size_t n,
                       int rounds)
{
    struct rev_arg a = {(uint32_t)kind, (uint32_t)rounds, n};
    sgl_trace_clear(rt);
    SGL_TRY(sgl_run(rt, rev_main, &a, sizeof a));
    if (sgl_runtime_rank(rt) != 0)
        return SGL_OK;
    const void *res;
    size_t cnt;
    SGL_TRY(sgl_run_result(rt, sizeof(uint32_t), &res, &cnt));
    CHECK(cnt == 1, "the run put %zu flags", cnt);
    uint32_t all_reversed;
    memcpy(&all_reversed, res, sizeof all_reversed);
    size_t x = 0;
    for (size_t i = 0; i < sgl_trace_steps(rt); i++) {
        sgl_trace_step_t s;
        if (sgl_trace_step(rt, i, &s) == SGL_OK && s.exchange)
            x++;
    }
    int moved_by_hand = all_reversed && one_process(rt);
    CHECK(!moved_by_hand || x == 0,
          "%s n=%zu: %zu exchange supersteps on the reverse path in one "
          "process",
          rev_kind_names[kind], n, x);
    return SGL_OK;
}

int psrs_reverse_register(sgl_runtime_t *rt)
{
    return sgl_task_register(rt, rev_fill_task, "psrs_reverse_fill");
}
