/* The checks of trasgo_checks.h: each runs one SGL program per case,
 * whose root task calls a Trasgo program and puts its result, and compares
 * the checksum with a sequential reference computed here. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/algorithms.h>
#include <sgl/trace.h>

#include "stencil_kernels.h"
#include "check_helpers.h"
#include "test_util.h"
#include "trasgo.h"
#include "trasgo_checks.h"

static int finish_alone_task(sgl_ctx_t *ctx, const void *arg, size_t size);
static int unstaged_task(sgl_ctx_t *ctx, const void *arg, size_t size);
static int other_master_task(sgl_ctx_t *ctx, const void *arg, size_t size);

int trasgo_test_register(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_algorithms_register(rt));
    SGL_TRY(sgl_task_register(rt, finish_alone_task, "test.finish_alone"));
    SGL_TRY(trasgo_register(rt));
    SGL_TRY(sgl_task_register(rt, other_master_task, "test.other_master"));
    return sgl_task_register(rt, unstaged_task, "test.trasgo.unstaged");
}

enum prog { ROTATE, HEAT, CANNON };

struct job {
    int prog;
    unsigned dims;
    size_t n;
    unsigned iters;
    long rot;
    size_t q;
    int uneven; /* rotate: worker k gets about k + 1 shares */
};

/* Cuts of @n over @p workers, worker k getting (k + 1) shares. */
static size_t *uneven_cuts(size_t n, size_t p)
{
    size_t *c = malloc((p + 1) * sizeof *c), shares = p * (p + 1) / 2;
    if (!c)
        return NULL;
    c[0] = 0;
    for (size_t k = 0, acc = 0; k < p; k++) {
        acc += k + 1;
        c[k + 1] = k + 1 == p ? n : n * acc / shares;
        if (c[k + 1] <= c[k])
            c[k + 1] = c[k] + 1;
    }
    return c;
}

static uint64_t rotate_reference(size_t n, long rot);
static uint64_t heat_reference(unsigned dims, size_t n, unsigned iters);
static uint64_t cannon_reference(size_t n, size_t q);

/* The root task: run the program, compute the sequential reference, and
 * fail with both checksums if they differ, so that every process reaches
 * the same verdict (sgl_run()'s status). */
static int job_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    trasgo_result_t r;
    memset(&r, 0, sizeof r);
    uint64_t want;
    if (j->prog == ROTATE) {
        size_t *cuts =
            j->uneven ? uneven_cuts(j->n, sgl_ctx_workers(ctx)) : NULL;
        int rc = rotate_run(ctx, j->n, j->rot, cuts, NULL, &r);
        free(cuts);
        SGL_TRY(rc);
        want = rotate_reference(j->n, j->rot);
    } else if (j->prog == HEAT) {
        SGL_TRY(heat_run(ctx, j->dims, j->n, j->iters, &r));
        want = heat_reference(j->dims, j->n, j->iters);
    } else {
        SGL_TRY(cannon_run(ctx, j->n, j->q, &r));
        want = cannon_reference(j->n, j->q);
    }
    CHECK(r.check == want,
          "checksum %016llx, the sequential program gives %016llx",
          (unsigned long long)r.check, (unsigned long long)want);
    return SGL_OK;
}

/* ---- rotate ---- */

static uint64_t rotate_reference(size_t n, long rot)
{
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        long s = (long)i + rot % (long)n + (long)n;
        double v = 2.0 * kernel_init((uint64_t)(s % (long)n)) + 1.0;
        x ^= kernel_check(v, i);
    }
    return x;
}

int trasgo_check_rotate(sgl_runtime_t *rt)
{
    static const size_t sizes[] = {25, 1000};
    for (size_t s = 0; s < 2; s++) {
        long n = (long)sizes[s];
        const long rots[] = {0, 3, -7, n / 2 + 1, n - 1, n + 5, -3 * n - 2};
        for (size_t k = 0; k < sizeof rots / sizeof *rots; k++)
            for (int uneven = 0; uneven < 2; uneven++) {
                struct job j = {ROTATE, 1, sizes[s], 0, rots[k], 0, uneven};
                char what[96];
                snprintf(what, sizeof what, "rotate n %zu by %ld (%s)",
                         sizes[s], rots[k], uneven ? "uneven" : "even");
                SGL_TRY(test_named(sgl_run(rt, job_task, &j, sizeof j), what));
            }
    }
    return SGL_OK;
}

/* ---- heat ---- */

static size_t wrap(long i, size_t n)
{
    return (size_t)((i % (long)n + (long)n) % (long)n);
}

static void heat_step(unsigned dims, size_t n, const double *a, double *b)
{
    size_t n1 = dims > 1 ? n : 1, n2 = dims > 2 ? n : 1;
#define A(i, j, k) a[(wrap(i, n) * n1 + wrap(j, n1)) * n2 + wrap(k, n2)]
    for (long i = 0; i < (long)n; i++)
        for (long j = 0; j < (long)n1; j++)
            for (long k = 0; k < (long)n2; k++) {
                double *o = &b[((size_t)i * n1 + (size_t)j) * n2 + (size_t)k];
                if (dims == 1)
                    *o = heat1d_point(A(i, 0, 0), A(i - 1, 0, 0),
                                      A(i + 1, 0, 0));
                else if (dims == 2)
                    *o = heat2d_point(A(i, j, 0), A(i - 1, j, 0),
                                      A(i + 1, j, 0), A(i, j - 1, 0),
                                      A(i, j + 1, 0));
                else
                    *o = heat3d_point(A(i, j, k), A(i - 1, j, k),
                                      A(i + 1, j, k), A(i, j - 1, k),
                                      A(i, j + 1, k), A(i, j, k - 1),
                                      A(i, j, k + 1));
            }
#undef A
}

static uint64_t heat_reference(unsigned dims, size_t n, unsigned iters)
{
    size_t total = n * (dims > 1 ? n : 1) * (dims > 2 ? n : 1);
    double *a = malloc(total * sizeof *a), *b = malloc(total * sizeof *b);
    uint64_t x = 0;
    if (!a || !b)
        goto out;
    for (size_t g = 0; g < total; g++)
        a[g] = kernel_init(g);
    for (unsigned t = 0; t < iters; t++) {
        heat_step(dims, n, a, b);
        double *tmp = a;
        a = b;
        b = tmp;
    }
    for (size_t g = 0; g < total; g++)
        x ^= kernel_check(a[g], g);
out:
    free(a);
    free(b);
    return x;
}

int trasgo_check_heat(sgl_runtime_t *rt)
{
    static const struct { unsigned dims; size_t n; unsigned iters; } c[] = {
        {1, 101, 5}, {1, 16, 0}, {2, 37, 4}, {2, 8, 1}, {3, 9, 3}, {3, 6, 2}};
    for (size_t k = 0; k < sizeof c / sizeof *c; k++) {
        struct job j = {HEAT, c[k].dims, c[k].n, c[k].iters, 0, 0, 0};
        char what[96];
        snprintf(what, sizeof what, "heat %uD n %zu, %u steps", c[k].dims,
                 c[k].n, c[k].iters);
        SGL_TRY(test_named(sgl_run(rt, job_task, &j, sizeof j), what));
    }
    return SGL_OK;
}

/* ---- cannon ---- */

static uint64_t cannon_reference(size_t n, size_t q)
{
    size_t bs = n / q, t2 = bs * bs;
    double *a = malloc(q * q * t2 * sizeof *a);
    double *b = malloc(q * q * t2 * sizeof *b);
    double *c = calloc(q * q * t2, sizeof *c);
    uint64_t x = 0;
    if (!a || !b || !c)
        goto out;
    for (size_t gi = 0; gi < n; gi++)
        for (size_t gj = 0; gj < n; gj++) {
            size_t t = (gi / bs) * q + gj / bs, e = (gi % bs) * bs + gj % bs;
            a[t * t2 + e] = cannon_a(n, gi, gj);
            b[t * t2 + e] = cannon_b(n, gi, gj);
        }
    for (size_t i = 0; i < q; i++)
        for (size_t j = 0; j < q; j++)
            for (size_t s = 0; s < q; s++) {
                size_t k = (i + j + s) % q;
                tile_gemm(c + (i * q + j) * t2, a + (i * q + k) * t2,
                          b + (k * q + j) * t2, bs);
            }
    for (size_t gi = 0; gi < n; gi++)
        for (size_t gj = 0; gj < n; gj++) {
            size_t t = (gi / bs) * q + gj / bs, e = (gi % bs) * bs + gj % bs;
            x ^= kernel_check(c[t * t2 + e], gi * n + gj);
        }
out:
    free(a);
    free(b);
    free(c);
    return x;
}

/* The largest extent of the grid the arrays get on @rt's workers. */
static size_t grid_max(sgl_runtime_t *rt)
{
    size_t w = sgl_machine_workers(sgl_runtime_machine(rt)), g = 1;
    for (size_t d = 1; d <= w; d++) /* the balanced grid's larger side */
        if (w % d == 0 && d * d >= w) {
            g = d;
            break;
        }
    return g;
}

int trasgo_check_cannon(sgl_runtime_t *rt)
{
    static const size_t qs[] = {1, 2, 3, 4, 6};
    size_t gmax = grid_max(rt);
    for (size_t k = 0; k < sizeof qs / sizeof *qs; k++) {
        struct job j = {CANNON, 2, 24, 0, 0, qs[k], 0};
        int rc = sgl_run(rt, job_task, &j, sizeof j);
        if (qs[k] < gmax) { /* a tile row per worker row at least */
            if (rc == SGL_EINVAL && strstr(sgl_error_last(), "no element"))
                continue;
            char what[160];
            snprintf(what, sizeof what,
                     "cannon with %zu tiles on a grid of side %zu must "
                     "fail with EINVAL",
                     qs[k], gmax);
            return test_named(rc ? rc : SGL_ETASK, what);
        }
        char what[96];
        snprintf(what, sizeof what, "cannon n 24, %zu x %zu tiles", qs[k],
                 qs[k]);
        SGL_TRY(test_named(rc, what));
    }
    return SGL_OK;
}

/* ---- layouts ---- */

/* A weighted 2D array with a halo and an even 3D one, filled on the
 * workers and gathered: every element where the layout puts it. */
static int gather_one(sgl_ctx_t *ctx, const sgl_darray_layout_t *l)
{
    sgl_darray_t *a;
    SGL_TRY(sgl_darray_create(ctx, l, &a));
    size_t n = l->size[0] * (l->dims > 1 ? l->size[1] : 1) *
               (l->dims > 2 ? l->size[2] : 1);
    double *all = malloc(n * sizeof *all);
    int rc = all ? trasgo_fill(ctx, a) : SGL_ENOMEM;
    if (!rc)
        rc = sgl_darray_gather(ctx, a, all, n);
    for (size_t g = 0; g < n && !rc; g++)
        if (all[g] != kernel_init(g))
            rc = sgl_error_set(SGL_ETASK, "gathered element %zu differs", g);
    free(all);
    int rc2 = sgl_darray_free(ctx, a);
    return rc ? rc : rc2;
}

static int layouts_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t w = sgl_ctx_workers(ctx);
    size_t s2[2] = {3 * w + 1, 7}, s3[3] = {w + 2, 5, 4};
    double *wts = malloc(w * sizeof *wts);
    if (!wts)
        return SGL_ENOMEM;
    for (size_t k = 0; k < w; k++)
        wts[k] = (double)(k % 3 + 1);
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 2, s2, sizeof(double));
    l.weights = wts;
    l.halo[0] = 2;
    l.halo[1] = 1;
    int rc = gather_one(ctx, &l);
    free(wts);
    SGL_TRY(rc);
    sgl_darray_layout_init(&l, 3, s3, sizeof(double));
    return gather_one(ctx, &l);
}

/* A 2D stencil plan's figures: bytes only between workers, h at the top
 * level when there is more than one worker. */
static int stats_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t s[2] = {16, 12};
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 2, s, sizeof(double));
    l.halo[0] = l.halo[1] = 1;
    sgl_darray_t *a;
    SGL_TRY(sgl_darray_create(ctx, &l, &a));
    sgl_daccess_t acc[4];
    static const long off[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (int k = 0; k < 4; k++)
        sgl_daccess_shift(&acc[k], 2, off[k], SGL_PERIODIC_ALL);
    sgl_dplan_t *p;
    int rc = sgl_dplan_create(ctx, a, 4, acc, &p);
    sgl_dplan_stats_t st;
    if (!rc)
        rc = sgl_dplan_stats(p, &st);
    size_t w = sgl_ctx_workers(ctx);
    if (!rc && w == 1 && (st.bytes || st.local_bytes != 2 * (16 + 12) * 8))
        rc = sgl_error_set(SGL_ETASK, "one worker: %zu bytes between "
                                      "workers, %zu local",
                           st.bytes, st.local_bytes);
    if (!rc && w > 1 &&
        (!st.bytes || !sgl_dplan_level_h(p, sgl_ctx_level(ctx)) ||
         st.max_recv_bytes > st.bytes || st.messages < w))
        rc = sgl_error_set(SGL_ETASK,
                           "%zu workers: %zu bytes, %zu messages, h %zu at "
                           "the top",
                           w, st.bytes, st.messages,
                           sgl_dplan_level_h(p, sgl_ctx_level(ctx)));
    if (!rc)
        rc = sgl_dplan_run(ctx, p, a);
    sgl_dplan_free(ctx, p);
    sgl_darray_free(ctx, a);
    return rc;
}

int trasgo_check_layouts(sgl_runtime_t *rt)
{
    int rc = sgl_run(rt, layouts_task, NULL, 0);
    int rc2 = sgl_run(rt, stats_task, NULL, 0);
    return rc ? rc : rc2;
}

/* ---- scatter ---- */

/* Byte @i of a test array: a hash, so that a misplaced element shows. */
static unsigned char pattern(size_t i)
{
    uint64_t x = (uint64_t)i * UINT64_C(0x9E3779B97F4A7C15);
    return (unsigned char)(x >> 56 ^ x >> 29);
}

/* Scatter a patterned array of layout @l, gather it back, compare
 * bitwise; and gather it once more after a plan filled the halos, which
 * must not touch the boxes. */
static int round_trip(sgl_ctx_t *ctx, const sgl_darray_layout_t *l)
{
    size_t n = 1;
    for (unsigned d = 0; d < l->dims; d++)
        n *= l->size[d];
    size_t bytes = n * l->elem_size;
    unsigned char *src = malloc(bytes), *back = calloc(1, bytes);
    sgl_darray_t *a = NULL;
    int rc = src && back ? sgl_darray_create(ctx, l, &a) : SGL_ENOMEM;
    for (size_t i = 0; src && i < bytes; i++)
        src[i] = pattern(i);
    if (!rc)
        rc = sgl_darray_scatter(ctx, a, src, n);
    uint64_t want = 0, got = 0;
    for (size_t g = 0; src && g < n; g++)
        want ^= sgl_darray_checksum_element(src + g * l->elem_size,
                                            l->elem_size, g);
    if (!rc)
        rc = sgl_darray_checksum(ctx, a, &got);
    if (!rc && got != want)
        rc = sgl_error_set(SGL_ETASK,
                           "sgl_darray_checksum of a %u-dimensional array of "
                           "%zu-byte elements on %zu workers gave %016llx, "
                           "the sequential XOR %016llx",
                           l->dims, l->elem_size, sgl_ctx_workers(ctx),
                           (unsigned long long)got, (unsigned long long)want);
    if (!rc)
        rc = sgl_darray_gather(ctx, a, back, n);
    if (!rc && memcmp(src, back, bytes))
        rc = sgl_error_set(SGL_ETASK,
                           "scatter then gather of a %u-dimensional array "
                           "of %zu elements of %zu bytes on %zu workers "
                           "differs",
                           l->dims, n, l->elem_size, sgl_ctx_workers(ctx));
    free(src);
    free(back);
    int rc2 = sgl_darray_free(ctx, a);
    return rc ? rc : rc2;
}

static int scatter_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t w = sgl_ctx_workers(ctx);
    size_t s1 = 5 * w + 3, s2[2] = {3 * w + 1, 7}, s3[3] = {w + 2, 5, 4};
    double *wts = malloc(w * sizeof *wts);
    size_t *cuts = uneven_cuts(s1, w);
    if (!wts || !cuts) {
        free(wts);
        free(cuts);
        return SGL_ENOMEM;
    }
    for (size_t k = 0; k < w; k++)
        wts[k] = (double)(k % 3 + 1);
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 1, &s1, 3); /* odd elements, uneven cuts */
    l.cuts[0] = cuts;
    l.halo[0] = 2;
    int rc = test_named(round_trip(ctx, &l), "1D uneven");
    sgl_darray_layout_init(&l, 2, s2, sizeof(double)); /* weighted */
    l.weights = wts;
    l.halo[0] = 2;
    l.halo[1] = 1;
    if (!rc)
        rc = test_named(round_trip(ctx, &l), "2D weighted");
    sgl_darray_layout_init(&l, 3, s3, 16); /* even, 16-byte elements */
    l.halo[2] = 1;
    if (!rc)
        rc = test_named(round_trip(ctx, &l), "3D");
    free(wts);
    free(cuts);
    return rc;
}

int trasgo_check_scatter(sgl_runtime_t *rt)
{
    return sgl_run(rt, scatter_task, NULL, 0);
}

/* ---- errors ---- */



/* Errors found at the master, before any superstep. */
static int master_errors_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t w = sgl_ctx_workers(ctx), s[2] = {w, 5};
    sgl_darray_layout_t l;
    sgl_darray_t *a = NULL;
    sgl_darray_layout_init(&l, 2, s, 8);
    l.grid[0] = (unsigned)w + 1;
    l.grid[1] = 1;
    EXPECT(sgl_darray_create(ctx, &l, &a), SGL_EINVAL, "grid of");
    sgl_darray_layout_init(&l, 2, s, 8);
    l.grid[0] = 1;
    l.grid[1] = (unsigned)w;
    s[1] = w - 1 ? w - 1 : 0; /* one column short of a block each */
    l.size[1] = s[1];
    EXPECT(sgl_darray_create(ctx, &l, &a), SGL_EINVAL,
           w > 1 ? "no element" : "extent 1 is 0");
    sgl_darray_layout_init(&l, 4, s, 8);
    EXPECT(sgl_darray_create(ctx, &l, &a), SGL_EINVAL, "4 dimensions");
    /* Weights whose sum overflows used to read "block 0 would hold no
     * element"; they are refused for what they are. */
    double *huge = malloc(w * sizeof *huge);
    if (!huge)
        return SGL_ENOMEM;
    for (size_t k = 0; k < w; k++)
        huge[k] = DBL_MAX;
    s[0] = 100 * w;
    sgl_darray_layout_init(&l, 1, s, 8);
    l.weights = huge;
    int rc = w > 1 ? test_expect(sgl_darray_create(ctx, &l, &a), SGL_EINVAL,
                                 "the weights are unusable: their sum "
                                 "overflows",
                                 "sgl_darray_create(DBL_MAX weights)")
                   : SGL_OK;
    free(huge);
    SGL_TRY(rc);
    CHECK(a == NULL, "a failed create set the handle");
    return SGL_OK;
}

/* sgl_dplan_stage() then sgl_dplan_finish() on every worker with no
 * exchange between them. */
static int finish_alone_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, finish_alone_task, arg, size);
    const uint32_t *id = arg;
    SGL_TRY(sgl_dplan_stage(ctx, id[0], id[1]));
    return sgl_dplan_finish(ctx, id[0], id[1], NULL);
}

/* Errors of plans, with an array that exists. */
static int plan_errors_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t w = sgl_ctx_workers(ctx), n = 4 * w;
    sgl_darray_layout_t l;
    sgl_darray_t *a, *b;
    sgl_darray_layout_init(&l, 1, &n, 8);
    SGL_TRY(sgl_darray_create(ctx, &l, &a));
    size_t *cuts = uneven_cuts(n, w);
    l.cuts[0] = cuts;
    int rc = cuts ? sgl_darray_create(ctx, &l, &b) : SGL_ENOMEM;
    free(cuts);
    if (rc) {
        sgl_darray_free(ctx, a);
        return rc;
    }
    sgl_daccess_t acc;
    sgl_dplan_t *p = NULL;
    long one = 1;
    sgl_daccess_shift(&acc, 1, &one, 0);
    EXPECT(sgl_dplan_create(ctx, a, 1, &acc, &p), SGL_EINVAL,
           "not periodic");
    sgl_daccess_shift(&acc, 1, &one, SGL_PERIODIC_ALL);
    acc.coef[2][0] = 1;
    EXPECT(sgl_dplan_create(ctx, a, 1, &acc, &p), SGL_EINVAL,
           "1-dimensional");
    EXPECT(sgl_dplan_create(ctx, a, 0, &acc, &p), SGL_EINVAL, "no access");
    sgl_daccess_shift(&acc, 1, &one, SGL_PERIODIC_ALL);
    SGL_TRY(sgl_dplan_create(ctx, a, 1, &acc, &p));
    if (w > 1) /* one worker: both layouts are the whole array */
        EXPECT(sgl_dplan_run(ctx, p, b), SGL_EINVAL, "another layout");
    SGL_TRY(sgl_dplan_run(ctx, p, a));
    /* A finish with no exchange since the last one: the user's mistake is
     * the missing sgl_exchange(), not a release they never called. */
    uint32_t id[2] = {sgl_dplan_id(p), sgl_darray_id(a)};
    EXPECT(finish_alone_task(ctx, id, sizeof id), SGL_ESTATE,
           "no exchange ran since the last one was finished");
    SGL_TRY(sgl_dplan_free(ctx, p));
    SGL_TRY(sgl_darray_free(ctx, b));
    return sgl_darray_free(ctx, a);
}

/* A loop that forgets the first stage: finish with no stage before it. */
struct unstaged_arg {
    uint32_t plan, array;
};

static int unstaged_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, unstaged_task, arg, size);
    const struct unstaged_arg *a = arg;
    return sgl_dplan_finish(ctx, a->plan, a->array, NULL);
}

/* Scatter's bad input, and the missing first stage refused on any number
 * of workers (one worker would otherwise compute silently). */
static int stage_errors_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t n = 4 * sgl_ctx_workers(ctx);
    double *src = calloc(n, sizeof *src);
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 1, &n, sizeof(double));
    l.halo[0] = 1;
    sgl_darray_t *a;
    SGL_TRY(src ? sgl_darray_create(ctx, &l, &a) : SGL_ENOMEM);
    EXPECT(sgl_darray_scatter(ctx, a, src, n - 1), SGL_ESIZE,
           "the array has");
    EXPECT(sgl_darray_scatter(ctx, a, NULL, n), SGL_EINVAL, "NULL");
    free(src);
    sgl_daccess_t acc[2];
    long off[2] = {-1, 1};
    sgl_daccess_shift(&acc[0], 1, &off[0], SGL_PERIODIC_ALL);
    sgl_daccess_shift(&acc[1], 1, &off[1], SGL_PERIODIC_ALL);
    sgl_dplan_t *p;
    SGL_TRY(sgl_dplan_create(ctx, a, 2, acc, &p));
    struct unstaged_arg ua = {sgl_dplan_id(p), sgl_darray_id(a)};
    EXPECT(unstaged_task(ctx, &ua, sizeof ua), SGL_ESTATE,
           "did not call sgl_dplan_stage()");
    SGL_TRY(sgl_dplan_run(ctx, p, a)); /* the plan still works */
    SGL_TRY(sgl_dplan_free(ctx, p));
    return sgl_darray_free(ctx, a);
}

/* On a child of the master that created the array (a master or a
 * worker): the array's master-side calls refuse it, and run nothing. The
 * handle travels as a pointer, which is why this runs on thread trees
 * only. */
static int other_master_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const sgl_darray_t *a = *(const sgl_darray_t *const *)arg;
    double buf[64] = {0};
    uint64_t sum;
    const char *why = sgl_ctx_is_worker(ctx) ? "not on worker"
                                             : "the master that created";
    EXPECT(sgl_darray_gather(ctx, a, buf, 64), SGL_ESTATE, why);
    EXPECT(sgl_darray_scatter(ctx, a, buf, 64), SGL_ESTATE, why);
    EXPECT(sgl_darray_checksum(ctx, a, &sum), SGL_ESTATE, why);
    return SGL_OK;
}

static int other_master_root(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    if (sgl_ctx_is_worker(ctx))
        return SGL_OK; /* one worker: no other master to call from */
    size_t n = 4 * sgl_ctx_workers(ctx);
    sgl_darray_layout_t l;
    sgl_darray_t *a;
    sgl_darray_layout_init(&l, 1, &n, sizeof(double));
    SGL_TRY(sgl_darray_create(ctx, &l, &a));
    int rc = sgl_pardo(ctx, other_master_task, &a, sizeof a);
    int rc2 = sgl_darray_free(ctx, a);
    return rc ? rc : rc2;
}

int trasgo_check_other_master(sgl_runtime_t *rt)
{
    return sgl_run(rt, other_master_root, NULL, 0);
}

int trasgo_check_errors(sgl_runtime_t *rt)
{
    /* Both programs run on every process whatever the first gives: a
     * process that stopped early would leave the others waiting. */
    sgl_trace_clear(rt);
    int rc = sgl_run(rt, master_errors_task, NULL, 0);
    size_t steps = sgl_trace_steps(rt);
    int rc2 = sgl_run(rt, plan_errors_task, NULL, 0);
    int rc3 = sgl_run(rt, stage_errors_task, NULL, 0);
    SGL_TRY(rc);
    SGL_TRY(rc2);
    SGL_TRY(rc3);
    CHECK(steps == 0, "%zu supersteps ran for layouts the master could "
                      "refuse",
          steps);
    return SGL_OK;
}
