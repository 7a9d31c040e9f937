/* Views of received blocks (sgl_recv_view()) against private copies
 * (sgl_recv()). Every element carries its index in the root's array and a
 * value derived from it, so a node that reads a wrong byte or a moved
 * block sees it. The root's block is the run's argument, read as a view;
 * masters split their block unevenly (some children get nothing) and
 * scatter their view on, or their private copy; workers check their view,
 * take a private copy, write all of it, and check that the view of it and
 * the master's source are what they must be. A second superstep
 * broadcasts the first elements, re-broadcast from each master's view. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "programs.h"
#include "test_util.h"
#include <sgl/blocks.h>

struct elem {
    uint64_t idx, val;
};

/* What a node hands up: the first index of its block (UINT64_MAX when
 * empty) and its count. */
struct span {
    uint64_t first, count;
};

struct view_arg {
    uint64_t seed;
    uint32_t private_masters; /* masters scatter their sgl_recv() copy */
    uint32_t bcast_count;     /* elements of the broadcast superstep */
};

/* The root task's argument is its block, so its own settings come here;
 * every process sets the same before sgl_run(). */
static struct view_arg root_arg;

static uint64_t value_of(uint64_t seed, uint64_t idx)
{
    uint64_t s = seed ^ (idx * 0x9e3779b97f4a7c15u);
    return test_mix(&s);
}

/* @v holds @n consecutive elements of the root's array, from @first
 * (any first when @first is UINT64_MAX). */
static int check_block(const sgl_ctx_t *ctx, const struct view_arg *a,
                       const struct elem *v, size_t n, uint64_t first,
                       const char *what)
{
    for (size_t k = 0; k < n; k++) {
        uint64_t want = (first == UINT64_MAX ? v[0].idx : first) + k;
        CHECK(v[k].idx == want && v[k].val == value_of(a->seed, want),
              "%s at worker %zu (level %u): element %zu of %zu is (%llu, "
              "%llx), not (%llu, %llx)",
              what, sgl_ctx_first_worker(ctx), sgl_ctx_level(ctx), k, n,
              (unsigned long long)v[k].idx, (unsigned long long)v[k].val,
              (unsigned long long)want,
              (unsigned long long)value_of(a->seed, want));
    }
    return SGL_OK;
}

/* A worker's private copy: the same bytes, writable, and writes reach
 * neither the view taken before it (where that is elsewhere) nor the
 * master's source (which the master checks). */
static int private_copy(sgl_ctx_t *ctx, const struct view_arg *a,
                        const struct elem *view, size_t n)
{
    void *p, *p2;
    size_t m, m2;
    SGL_TRY(sgl_recv(ctx, sizeof(struct elem), &p, &m));
    CHECK(m == n, "sgl_recv: %zu elements, the view had %zu", m, n);
    SGL_TRY(check_block(ctx, a, p, m, UINT64_MAX, "private copy"));
    struct elem *w = p;
    for (size_t k = 0; k < m; k++)
        w[k].val = ~w[k].val;
    SGL_TRY(sgl_recv(ctx, sizeof(struct elem), &p2, &m2));
    CHECK((!m || p2 == p) && m2 == m, "a second sgl_recv gave another block");
    const void *again;
    size_t c;
    SGL_TRY(sgl_recv_view(ctx, sizeof(struct elem), &again, &c));
    CHECK((!n || again == p) && c == n, "after sgl_recv the view is not the copy");
    if (n && (const void *)view != p)
        SGL_TRY(check_block(ctx, a, view, n, UINT64_MAX,
                            "view after writes to the private copy"));
    SGL_TRY(sgl_recv_release(ctx));
    CHECK(sgl_recv_view(ctx, sizeof(struct elem), &again, &c) == SGL_ESTATE,
          "sgl_recv_view after sgl_recv_release did not fail");
    return SGL_OK;
}

static int view_task(sgl_ctx_t *ctx, const void *arg, size_t size);

/* Child i gets a share by weight (i * 7 + seed) % 5: uneven, some 0. */
static void uneven(size_t n, unsigned p, uint64_t seed, size_t *counts)
{
    size_t total = 0, given = 0;
    for (unsigned i = 0; i < p; i++)
        total += (i * 7 + seed) % 5;
    for (unsigned i = 0; i < p; i++) {
        counts[i] = total ? n * ((i * 7 + seed) % 5) / total : 0;
        given += counts[i];
    }
    counts[p - 1] += n - given;
}

/* A master scatters its view on (or its private copy), and checks that
 * the children's blocks tiled it and that its source is unchanged. */
static int view_master(sgl_ctx_t *ctx, const struct view_arg *a,
                       const struct elem *v, size_t n)
{
    unsigned p = sgl_ctx_children(ctx);
    const struct elem *src = v;
    if (a->private_masters) {
        void *own;
        size_t m;
        SGL_TRY(sgl_recv(ctx, sizeof *src, &own, &m));
        src = own;
    }
    size_t counts[64];
    struct span sp[64];
    CHECK(p <= 64, "test limit: %u children", p);
    uneven(n, p, a->seed + sgl_ctx_first_worker(ctx), counts);
    SGL_TRY(sgl_scatter(ctx, src, sizeof *src, counts));
    SGL_TRY(sgl_pardo(ctx, view_task, a, sizeof *a));
    SGL_TRY(sgl_gather(ctx, sp, sizeof *sp, p, NULL));
    uint64_t next = n ? src[0].idx : 0;
    for (unsigned i = 0; i < p; i++) {
        CHECK(sp[i].count == counts[i] &&
                  (!counts[i] || sp[i].first == next),
              "child %u saw %llu elements from %llu, was sent %zu from "
              "%llu",
              i, (unsigned long long)sp[i].count,
              (unsigned long long)sp[i].first, counts[i],
              (unsigned long long)next);
        next += counts[i];
    }
    SGL_TRY(check_block(ctx, a, src, n, UINT64_MAX,
                        "master's source after the children wrote"));
    return check_block(ctx, a, v, n, UINT64_MAX, "master's view after");
}

static int view_step(sgl_ctx_t *ctx, const struct view_arg *a)
{
    const struct elem *v;
    size_t n;
    SGL_TRY(sgl_recv_view(ctx, sizeof *v, (const void **)&v, &n));
    SGL_TRY(check_block(ctx, a, v, n, UINT64_MAX, "view"));
    struct span s = {n ? v[0].idx : UINT64_MAX, n};
    if (sgl_ctx_is_master(ctx))
        SGL_TRY(view_master(ctx, a, v, n));
    else
        SGL_TRY(private_copy(ctx, a, v, n));
    return sgl_put(ctx, &s, sizeof s, 1);
}

static int view_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    CHECK(size == sizeof(struct view_arg), "view: arg of %zu bytes", size);
    return view_step(ctx, arg);
}

/* The broadcast block: the first a->bcast_count elements, re-broadcast
 * from every master's view; workers write a private copy. */
static int bcast_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    CHECK(size == sizeof(struct view_arg), "bcast: arg of %zu bytes", size);
    const struct view_arg *a = arg;
    const struct elem *v;
    size_t n;
    SGL_TRY(sgl_recv_view(ctx, sizeof *v, (const void **)&v, &n));
    CHECK(n == a->bcast_count, "bcast view of %zu elements, not %u", n,
          a->bcast_count);
    SGL_TRY(check_block(ctx, a, v, n, 0, "bcast view"));
    if (!sgl_ctx_is_master(ctx))
        return private_copy(ctx, a, v, n);
    SGL_TRY(sgl_bcast(ctx, v, sizeof *v, n));
    SGL_TRY(sgl_pardo(ctx, bcast_task, a, sizeof *a));
    return check_block(ctx, a, v, n, 0, "bcast source after");
}

/* Misuse of sgl_recv_view at the root, on a block of @n elements. */
static int view_misuse(sgl_ctx_t *ctx, size_t n)
{
    const void *d;
    size_t c;
    CHECK(sgl_recv_view(ctx, 0, &d, &c) == SGL_EINVAL, "elem_size 0");
    CHECK(sgl_recv_view(ctx, 16, NULL, &c) == SGL_EINVAL, "NULL data");
    CHECK(sgl_recv_view(ctx, 16, &d, NULL) == SGL_EINVAL, "NULL count");
    CHECK(sgl_recv_view(NULL, 16, &d, &c) == SGL_EINVAL, "NULL context");
    if (n)
        CHECK(sgl_recv_view(ctx, 16 * n + 1, &d, &c) == SGL_ESIZE,
              "a block that is not a whole element");
    return SGL_OK;
}

static int view_root(sgl_ctx_t *root, const void *arg, size_t size)
{
    struct view_arg a = root_arg;
    const struct elem *v;
    size_t n;
    SGL_TRY(view_misuse(root, size / sizeof *v));
    SGL_TRY(sgl_recv_view(root, sizeof *v, (const void **)&v, &n));
    CHECK(n * sizeof *v == size && (!size || !memcmp(v, arg, size)),
          "the root's view is not the run's argument");
    SGL_TRY(check_block(root, &a, v, n, 0, "root's view"));
    if (sgl_ctx_is_master(root)) {
        SGL_TRY(view_master(root, &a, v, n));
        a.bcast_count = (uint32_t)(n < 5 ? n : 5);
        SGL_TRY(sgl_bcast(root, v, sizeof *v, a.bcast_count));
        SGL_TRY(sgl_pardo(root, bcast_task, &a, sizeof a));
        SGL_TRY(check_block(root, &a, v, a.bcast_count, 0, "bcast source"));
    } else {
        /* prog_recv_view() checks that the argument is unchanged. */
        SGL_TRY(private_copy(root, &a, v, n));
    }
    return SGL_OK;
}

int prog_recv_view(sgl_runtime_t *rt, uint64_t seed, size_t n,
                   int private_masters)
{
    struct elem *x = calloc(n ? n : 1, sizeof *x);
    CHECK(x, "out of memory");
    for (size_t i = 0; i < n; i++)
        x[i] = (struct elem){i, value_of(seed, i)};
    root_arg = (struct view_arg){seed, (uint32_t)private_masters, 0};
    int rc = sgl_run(rt, view_root, x, n * sizeof *x);
    /* The run's argument is the root's block: nothing writes into it. */
    for (size_t i = 0; rc == SGL_OK && i < n; i++)
        if (x[i].idx != i || x[i].val != value_of(seed, i))
            rc = sgl_error_set(SGL_ETASK, "the run's argument changed at "
                                          "%zu", i);
    free(x);
    return rc;
}

int prog_view_register(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_task_register(rt, view_task, "view"));
    return sgl_task_register(rt, bcast_task, "view_bcast");
}
