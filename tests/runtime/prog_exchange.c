/* Exchange supersteps, checked block by block: every worker stages blocks
 * whose sizes and contents are functions of (seed, round, source,
 * destination), a master runs the exchange, every worker checks what it
 * received against the same functions. Run with the direct and the routed
 * execution, the two must give these bytes; the rounds cover empty
 * exchanges, blocks to self only, blocks to every worker, blocks over the
 * MPI level's 16 KiB packing limit, and exchanges at every master at once
 * (disjoint subtrees concurrently). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "programs.h"
#include "test_util.h"
#include <sgl/exchange.h>

enum { ROUND_EMPTY, ROUND_RANDOM, ROUND_SELF, ROUND_BIG, ROUND_ALL,
       ROUND_UNSTAGED, ROUNDS };

/* The exchange's scope and the round: the argument of both tasks. */
struct xround {
    uint64_t seed;
    uint32_t round;
    uint32_t pad;
    uint64_t first, workers;
};

static uint64_t hash4(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t s = a * 0x100000001b3u ^ b;
    s = test_mix(&s) ^ c;
    s = test_mix(&s) ^ d;
    return test_mix(&s);
}

/* Elements worker @s sends to worker @d. */
static size_t count_of(const struct xround *x, uint64_t s, uint64_t d)
{
    uint64_t h = hash4(x->seed, x->round, s, d);
    switch (x->round) {
    case ROUND_EMPTY:
    case ROUND_UNSTAGED:
        return 0;
    case ROUND_SELF:
        return s == d ? 1 + h % 100 : 0;
    case ROUND_BIG: /* over 16 KiB to the next worker, a little to all */
        return (d - x->first) == ((s - x->first) + 1) % x->workers
                   ? 3000 + h % 2000
                   : h % 3;
    case ROUND_ALL:
        return 1 + h % 300;
    default:
        return h % 10 < 3 ? 0 : h % 7;
    }
}

static uint64_t value_of(const struct xround *x, uint64_t s, uint64_t d,
                         size_t k)
{
    return hash4(x->seed + k, x->round, s, d);
}

/* The worker's staged blocks, kept until the exchange. */
struct staged {
    uint64_t *v;
};

static void staged_free(void *p)
{
    struct staged *st = p;
    free(st->v);
    free(st);
}

static const char staged_key = 0;

static int stage_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    CHECK(size == sizeof(struct xround), "stage: arg of %zu bytes", size);
    struct xround x;
    memcpy(&x, arg, sizeof x);
    if (!sgl_ctx_is_worker(ctx))
        return sgl_pardo(ctx, stage_task, arg, size);
    if (x.round == ROUND_UNSTAGED)
        return SGL_OK;
    uint64_t me = sgl_ctx_first_worker(ctx);
    size_t *counts = malloc(x.workers * sizeof *counts), total = 0;
    CHECK(counts, "out of memory");
    for (uint64_t d = 0; d < x.workers; d++)
        total += counts[d] = count_of(&x, me, x.first + d);
    struct staged *st = malloc(sizeof *st);
    CHECK(st, "out of memory");
    st->v = malloc((total ? total : 1) * sizeof *st->v);
    CHECK(st->v, "out of memory");
    size_t o = 0;
    for (uint64_t d = 0; d < x.workers; d++)
        for (size_t k = 0; k < counts[d]; k++)
            st->v[o++] = value_of(&x, me, x.first + d, k);
    SGL_TRY(sgl_ctx_set_keyed_state(ctx, &staged_key, st, staged_free));
    int rc = sgl_exchange_put(ctx, st->v, sizeof *st->v, x.first, x.workers,
                              counts);
    free(counts);
    return rc;
}

static int check_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    CHECK(size == sizeof(struct xround), "check: arg of %zu bytes", size);
    struct xround x;
    memcpy(&x, arg, sizeof x);
    if (!sgl_ctx_is_worker(ctx))
        return sgl_pardo(ctx, check_task, arg, size);
    uint64_t me = sgl_ctx_first_worker(ctx);
    void *data;
    size_t n, sources, first;
    const size_t *counts;
    SGL_TRY(sgl_exchange_recv(ctx, sizeof(uint64_t), &data, &n, &counts,
                          &sources, &first));
    CHECK(sources == x.workers && first == x.first,
          "worker %llu: sources %zu from %zu, want %llu from %llu",
          (unsigned long long)me, sources, first,
          (unsigned long long)x.workers, (unsigned long long)x.first);
    const uint64_t *v = data;
    size_t o = 0;
    for (size_t s = 0; s < sources; s++) {
        size_t want = count_of(&x, first + s, me);
        CHECK(counts[s] == want,
              "round %u: worker %llu got %zu elements from worker %zu, "
              "want %zu",
              x.round, (unsigned long long)me, counts[s], first + s, want);
        for (size_t k = 0; k < want; k++, o++)
            CHECK(v[o] == value_of(&x, first + s, me, k),
                  "round %u: worker %llu, element %zu from worker %zu "
                  "differs",
                  x.round, (unsigned long long)me, k, first + s);
    }
    CHECK(o == n, "worker %llu: %zu elements, blocks sum to %zu",
          (unsigned long long)me, n, o);
    /* Reading twice gives the same; after a release, nothing. */
    size_t n2;
    SGL_TRY(sgl_exchange_recv(ctx, sizeof(uint64_t), &data, &n2, NULL, NULL,
                          NULL));
    CHECK(n2 == n, "second read: %zu elements, first %zu", n2, n);
    SGL_TRY(sgl_exchange_release(ctx));
    CHECK(sgl_exchange_recv(ctx, sizeof(uint64_t), &data, &n2, NULL, NULL,
                            NULL) == SGL_ESTATE,
          "sgl_exchange_recv after sgl_exchange_release must fail");
    return sgl_ctx_set_keyed_state(ctx, &staged_key, NULL, NULL);
}

/* One round at @ctx: stage, exchange, check. */
static int round_at(sgl_ctx_t *ctx, uint64_t seed, uint32_t round)
{
    struct xround x = {seed, round, 0, sgl_ctx_first_worker(ctx),
                       sgl_ctx_workers(ctx)};
    if (sgl_ctx_is_worker(ctx)) {
        SGL_TRY(stage_task(ctx, &x, sizeof x));
        SGL_TRY(sgl_exchange(ctx));
        return check_task(ctx, &x, sizeof x);
    }
    SGL_TRY(sgl_pardo(ctx, stage_task, &x, sizeof x));
    SGL_TRY(sgl_exchange(ctx));
    return sgl_pardo(ctx, check_task, &x, sizeof x);
}

/* Every master below runs its own rounds, siblings at once. */
static int nested_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    CHECK(size == sizeof(uint64_t), "nested: arg of %zu bytes", size);
    uint64_t seed;
    memcpy(&seed, arg, sizeof seed);
    if (sgl_ctx_is_worker(ctx))
        return SGL_OK;
    for (uint32_t r = 0; r < ROUNDS; r++)
        SGL_TRY(round_at(ctx, seed + sgl_ctx_first_worker(ctx), r));
    return sgl_pardo(ctx, nested_task, arg, size);
}

/* The workers below a child master address worker 0, outside it. */
static int stray_stage_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    if (!sgl_ctx_is_worker(ctx))
        return sgl_pardo(ctx, stray_stage_task, NULL, 0);
    static const uint64_t one = 1;
    size_t c = 1;
    return sgl_exchange_put(ctx, &one, sizeof one, 0, 1, &c);
}

/* At a child master that does not hold worker 0: the exchange must be
 * refused with a message naming the stray address, and the master's next
 * exchange must work. */
static int stray_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    CHECK(size == sizeof(uint64_t), "stray: arg of %zu bytes", size);
    if (sgl_ctx_is_worker(ctx) || sgl_ctx_first_worker(ctx) == 0)
        return SGL_OK;
    uint64_t seed;
    memcpy(&seed, arg, sizeof seed);
    SGL_TRY(sgl_pardo(ctx, stray_stage_task, NULL, 0));
    int rc = sgl_exchange(ctx);
    CHECK(rc == SGL_EINVAL, "a stray address gave %s (%s), not SGL_EINVAL",
          sgl_error_name(rc), sgl_error_last());
    CHECK(strstr(sgl_error_last(), "addressed workers 0..0"),
          "the message does not name the stray address: %s",
          sgl_error_last());
    return round_at(ctx, seed, ROUND_ALL);
}

struct xprog {
    uint64_t seed;
};

static int exchange_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    CHECK(size == sizeof(struct xprog), "exchange: arg of %zu bytes", size);
    struct xprog p;
    memcpy(&p, arg, sizeof p);
    for (uint32_t r = 0; r < ROUNDS; r++)
        SGL_TRY(round_at(root, p.seed, r));
    if (sgl_ctx_is_worker(root))
        return SGL_OK;
    SGL_TRY(sgl_pardo(root, nested_task, &p.seed, sizeof p.seed));
    SGL_TRY(sgl_pardo(root, stray_task, &p.seed, sizeof p.seed));
    return round_at(root, p.seed + 1, ROUND_RANDOM);
}

/* Misuse: calls on the wrong side, an exchange with a staged broadcast. */
static int misuse_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    if (sgl_ctx_is_worker(root))
        return SGL_OK;
    static const char b = 1;
    size_t one = 1;
    void *d;
    size_t n;
    CHECK(sgl_exchange_put(root, &b, 1, 0, 1, &one) == SGL_ESTATE,
          "sgl_exchange_put on a master must fail");
    CHECK(sgl_exchange_recv(root, 1, &d, &n, NULL, NULL, NULL) == SGL_ESTATE,
          "sgl_exchange_recv on a master must fail");
    CHECK(sgl_exchange_release(root) == SGL_ESTATE,
          "sgl_exchange_release on a master must fail");
    CHECK(sgl_exchange(NULL) == SGL_EINVAL, "sgl_exchange(NULL) must fail");
    SGL_TRY(sgl_bcast(root, &b, 1, 1));
    CHECK(sgl_exchange(root) == SGL_ESTATE,
          "sgl_exchange with a staged broadcast must fail");
    uint64_t seed = 5;
    return sgl_pardo(root, stray_task, &seed, sizeof seed);
}

int prog_exchange(sgl_runtime_t *rt, uint64_t seed, int method)
{
    SGL_TRY(sgl_runtime_set_exchange(rt, UINT_MAX, (sgl_exchange_method_t)method));
    struct xprog p = {seed};
    int rc = sgl_run(rt, exchange_main, &p, sizeof p);
    int r2 = sgl_runtime_set_exchange(rt, UINT_MAX, SGL_EXCHANGE_AUTO);
    return rc ? rc : r2;
}

int prog_exchange_misuse(sgl_runtime_t *rt)
{
    return sgl_run(rt, misuse_main, NULL, 0);
}

int prog_exchange_register(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_task_register(rt, stage_task, "x_stage"));
    SGL_TRY(sgl_task_register(rt, check_task, "x_check"));
    SGL_TRY(sgl_task_register(rt, nested_task, "x_nested"));
    SGL_TRY(sgl_task_register(rt, stray_stage_task, "x_stray_stage"));
    SGL_TRY(sgl_task_register(rt, stray_task, "x_stray"));
    return SGL_OK;
}
