/* Puts written in place into the master's destination (sgl_gather_into()).
 * Every element carries its index in the root's array; a worker hands up
 * its view's elements with the value inverted, a master names its put
 * buffer (or, at the root, the output array) as its gather's destination
 * and passes it on, so that down a chain of thread levels every worker
 * writes the root's output itself. Masters split unevenly (some children
 * get nothing) and check: below a thread link each child's block lies in
 * its part of the destination; across an MPI link it was received into
 * it; the gather gives every element once. In place, the destination
 * is the array scattered from (the scan's case). prog_gather_into_misc():
 * a put of another size than lent is the child's own and copied, a pardo
 * without the call puts nothing into the last destination, bad
 * arguments are refused. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_helpers.h"
#include "programs.h"
#include "test_util.h"
#include <sgl/blocks.h>
#include <sgl/machine.h>

struct elem {
    uint64_t idx, val;
};

struct gi_arg {
    uint64_t seed;
    uint32_t in_place; /* the root's output is its input */
    uint32_t pad;
};

static uint64_t value_of(uint64_t seed, uint64_t idx)
{
    uint64_t s = seed ^ (idx * 0x9e3779b97f4a7c15u);
    return test_mix(&s);
}

/* The root task's own settings; every process sets the same. */
static struct gi_arg root_arg;

static int gi_task(sgl_ctx_t *ctx, const void *arg, size_t size);

/* Child i's share by weight (i * 3 + seed) % 4: uneven, some 0. */
static void uneven(size_t n, unsigned p, uint64_t seed, size_t *counts)
{
    size_t total = 0, given = 0;
    for (unsigned i = 0; i < p; i++)
        total += (i * 3 + seed) % 4;
    for (unsigned i = 0; i < p; i++) {
        counts[i] = total ? n * ((i * 3 + seed) % 4) / total : 0;
        given += counts[i];
    }
    counts[p - 1] += n - given;
}

/* Where each child's block lies after the pardo: below a thread link in
 * its part of @dst, across an MPI link anywhere. Before sgl_gather(),
 * which may receive MPI blocks into dst and then no longer hold them. */
static int check_places(sgl_ctx_t *ctx, const struct elem *dst,
                        const size_t *counts)
{
    int threads = sgl_node_link(sgl_ctx_node(ctx)) == SGL_LINK_THREADS;
    size_t off = 0;
    for (unsigned i = 0; i < sgl_ctx_children(ctx); i++) {
        const void *b;
        size_t c;
        SGL_TRY(sgl_gather_block(ctx, i, sizeof *dst, &b, &c));
        CHECK(c == counts[i], "child %u put %zu elements, was lent %zu", i,
              c, counts[i]);
        CHECK(!c || !threads || b == (const void *)(dst + off),
              "child %u of a thread link: its %zu elements are not in its "
              "part of the destination",
              i, c);
        off += counts[i];
    }
    return SGL_OK;
}

static int gi_master(sgl_ctx_t *ctx, const struct gi_arg *a,
                     const struct elem *src, struct elem *dst, size_t n)
{
    unsigned p = sgl_ctx_children(ctx);
    size_t counts[64];
    CHECK(p <= 64, "test limit: %u children", p);
    uneven(n, p, a->seed + sgl_ctx_first_worker(ctx), counts);
    SGL_TRY(sgl_scatter(ctx, src, sizeof *src, counts));
    SGL_TRY(sgl_gather_into(ctx, dst, sizeof *dst, counts));
    SGL_TRY(sgl_pardo(ctx, gi_task, a, sizeof *a));
    SGL_TRY(check_places(ctx, dst, counts));
    return sgl_gather(ctx, dst, sizeof *dst, n, NULL);
}

static int gi_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct gi_arg *a = arg;
    const struct elem *src;
    struct elem *dst;
    size_t n;
    SGL_TRY(sgl_recv_view(ctx, sizeof *src, (const void **)&src, &n));
    SGL_TRY(sgl_put_buffer(ctx, sizeof *dst, n, (void **)&dst));
    if (sgl_ctx_is_master(ctx))
        return gi_master(ctx, a, src, dst, n);
    /* Each element read before it is written: in place, the same one. */
    for (size_t k = 0; k < n; k++) {
        struct elem e = src[k];
        dst[k] = (struct elem){e.idx, ~e.val};
    }
    return SGL_OK;
}

/* The root's arrays, in its process: in place the output is the input. */
static struct elem *gi_in, *gi_out;
static size_t gi_n;

static int gi_root(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    struct elem *dst = root_arg.in_place ? gi_in : gi_out;
    if (sgl_ctx_is_master(root))
        return gi_master(root, &root_arg, gi_in, dst, gi_n);
    for (size_t k = 0; k < gi_n; k++) /* a one-worker tree */
        dst[k] = (struct elem){gi_in[k].idx, ~gi_in[k].val};
    return SGL_OK;
}

int prog_gather_into(sgl_runtime_t *rt, uint64_t seed, size_t n,
                     int in_place)
{
    struct elem *x = gi_in = malloc((n ? n : 1) * sizeof *x);
    gi_n = n;
    gi_out = malloc((n ? n : 1) * sizeof *gi_out);
    CHECK(x && gi_out, "out of memory");
    for (size_t i = 0; i < n; i++) {
        x[i] = (struct elem){i, value_of(seed, i)};
        gi_out[i] = (struct elem){UINT64_MAX, 0};
    }
    root_arg = (struct gi_arg){seed, (uint32_t)in_place, 0};
    int rc = sgl_run(rt, gi_root, NULL, 0);
    const struct elem *out = in_place ? x : gi_out;
    for (size_t i = 0; !rc && i < n; i++)
        if (out[i].idx != i || out[i].val != ~value_of(seed, i))
            rc = sgl_error_set(SGL_ETASK, "gather_into n=%zu%s: element %zu "
                                          "is (%llu, %llx)",
                               n, in_place ? " in place" : "", i,
                               (unsigned long long)out[i].idx,
                               (unsigned long long)out[i].val);
    free(x);
    free(gi_out);
    return rc;
}

/* A flat master's children: put[1] elements each where @lent were lent,
 * child 0 put[0]. */
static int misc_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const size_t *puts = arg;
    size_t put = puts[sgl_ctx_index(ctx) == 0 ? 0 : 1];
    uint64_t *b;
    SGL_TRY(sgl_put_buffer(ctx, sizeof *b, put, (void **)&b));
    for (size_t k = 0; k < put; k++)
        b[k] = sgl_ctx_index(ctx) * 100 + k;
    return SGL_OK;
}

static int misc_step(sgl_ctx_t *root, uint64_t *dst, size_t lent, size_t put0,
                     size_t put, int stage)
{
    unsigned p = sgl_ctx_children(root);
    size_t counts[64];
    CHECK(p <= 64, "test limit: %u children", p);
    for (unsigned i = 0; i < p; i++)
        counts[i] = lent;
    for (size_t k = 0; k < 2 * p * lent + 1; k++)
        dst[k] = UINT64_MAX;
    if (stage)
        SGL_TRY(sgl_gather_into(root, dst, sizeof *dst, counts));
    size_t puts[2] = {put0, put};
    SGL_TRY(sgl_pardo(root, misc_task, puts, sizeof puts));
    /* Nothing lent was taken: no child wrote into dst before the gather. */
    for (size_t k = 0; (!stage || put != lent) && k < 2 * p * lent + 1; k++)
        CHECK(dst[k] == UINT64_MAX, "lent %zu, put %zu%s: element %zu of "
                                    "the destination written before the "
                                    "gather",
              lent, put, stage ? "" : " without the call", k);
    SGL_TRY(sgl_gather(root, dst, sizeof *dst, 2 * p * lent + 1, NULL));
    for (unsigned i = 0; i < p; i++)
        for (size_t k = 0; k < (i ? put : put0); k++)
            CHECK(dst[(i ? put0 + (i - 1) * put : 0) + k] == i * 100 + k,
                  "lent %zu, put %zu (child 0: %zu): child %u's element "
                  "%zu gathered wrong",
                  lent, put, put0, i, k);
    return SGL_OK;
}

static int misc_root(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    uint64_t dst[2 * 64 * 3 + 1];
    size_t ones[64];
    if (sgl_ctx_is_worker(root)) /* a one-worker tree: no gather */
        return SGL_OK;
    CHECK(sgl_ctx_children(root) <= 64, "test limit");
    SGL_TRY(misc_step(root, dst, 3, 2, 2, 1)); /* another size: copied */
    SGL_TRY(misc_step(root, dst, 3, 3, 3, 0)); /* the last call is gone */
    /* Child 0 puts more or fewer than lent, the others exactly their
     * parts in place: their blocks sit where the counts said, not where
     * the gather puts them, and must still arrive in order. */
    SGL_TRY(misc_step(root, dst, 3, 5, 3, 1));
    SGL_TRY(misc_step(root, dst, 3, 1, 3, 1));
    size_t huge[64];
    for (unsigned i = 0; i < 64; i++) {
        ones[i] = 1;
        huge[i] = SIZE_MAX / 4;
    }
    EXPECT(sgl_gather_into(root, NULL, 8, ones), SGL_EINVAL, "NULL");
    EXPECT(sgl_gather_into(root, dst, 0, ones), SGL_EINVAL, "elem_size");
    EXPECT(sgl_gather_into(root, dst, 8, NULL), SGL_EINVAL, "NULL");
    EXPECT(sgl_gather_into(root, dst, 8, huge), SGL_ERANGE, "overflow");
    return SGL_OK;
}

int prog_gather_into_misc(sgl_runtime_t *rt)
{
    return sgl_run(rt, misc_root, NULL, 0);
}

int prog_gather_into_register(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_task_register(rt, gi_task, "gather_into"));
    return sgl_task_register(rt, misc_task, "gather_into_misc");
}
