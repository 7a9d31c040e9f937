/* Messages over INT_MAX bytes at an MPI level (run under mpiexec -n 2 on
 * "rank:2"; about 4.5 GB of memory in all, so in the slow suite). The root
 * scatters 2^31 + 13 bytes to the remote child and a few to itself; the
 * remote child checks every byte, frees the block and hands up as many
 * bytes of another pattern, which the root gathers straight into the
 * buffer it scattered from and checks. A second superstep checks that the
 * runtime is still in step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/sgl.h>
#include <sgl/blocks.h>
#include "test_util.h"

#define BIG (((size_t)1 << 31) + 13)

static unsigned char down_byte(size_t i) { return (unsigned char)(i * 7 + 3); }
static unsigned char up_byte(size_t i)
{
    return (unsigned char)((i >> 8) ^ (i * 13));
}

static int big_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    unsigned char *v;
    size_t n;
    SGL_TRY(sgl_recv(ctx, 1, (void **)&v, &n));
    if (sgl_ctx_index(ctx) == 0) {
        CHECK(n == 5, "child 0 got %zu bytes", n);
        return sgl_put(ctx, v, 1, n);
    }
    CHECK(n == BIG, "child 1 got %zu bytes, not %zu", n, BIG);
    for (size_t i = 0; i < n; i++)
        CHECK(v[i] == down_byte(i), "child 1: byte %zu is %u", i, v[i]);
    SGL_TRY(sgl_recv_release(ctx));
    unsigned char *up;
    SGL_TRY(sgl_put_buffer(ctx, 1, BIG, (void **)&up));
    for (size_t i = 0; i < BIG; i++)
        up[i] = up_byte(i);
    return SGL_OK;
}

static int small_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    unsigned i = sgl_ctx_index(ctx);
    return sgl_put(ctx, &i, sizeof i, 1);
}

static int large_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    CHECK(sgl_ctx_children(root) == 2 &&
              sgl_node_link(sgl_ctx_node(root)) == SGL_LINK_MPI,
          "needs the shape rank:2 on 2 ranks");
    unsigned char *buf = malloc(5 + BIG);
    CHECK(buf, "out of memory for %zu bytes", 5 + BIG);
    for (size_t i = 0; i < 5; i++)
        buf[i] = (unsigned char)(100 + i);
    for (size_t i = 0; i < BIG; i++)
        buf[5 + i] = down_byte(i);
    size_t counts[2] = {5, BIG};
    int rc = sgl_scatter(root, buf, 1, counts);
    if (!rc)
        rc = sgl_pardo(root, big_task, NULL, 0);
    size_t got[2];
    if (!rc)
        rc = sgl_gather(root, buf, 1, 5 + BIG, got);
    if (!rc && (got[0] != 5 || got[1] != BIG))
        rc = sgl_error_set(SGL_ETASK, "gathered %zu and %zu bytes", got[0],
                           got[1]);
    for (size_t i = 0; !rc && i < 5; i++)
        if (buf[i] != 100 + i)
            rc = sgl_error_set(SGL_ETASK, "child 0's byte %zu is %u", i,
                               buf[i]);
    for (size_t i = 0; !rc && i < BIG; i++)
        if (buf[5 + i] != up_byte(i))
            rc = sgl_error_set(SGL_ETASK, "child 1's byte %zu is %u", i,
                               buf[5 + i]);
    free(buf);
    SGL_TRY(rc);
    unsigned idx[2];
    SGL_TRY(sgl_pardo(root, small_task, NULL, 0));
    SGL_TRY(sgl_gather(root, idx, sizeof *idx, 2, NULL));
    CHECK(idx[0] == 0 && idx[1] == 1, "after the large step: %u %u", idx[0],
          idx[1]);
    return SGL_OK;
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt) != SGL_OK ||
        sgl_task_register(rt, big_task, "big") != SGL_OK ||
        sgl_task_register(rt, small_task, "small") != SGL_OK) {
        fprintf(stderr, "set-up: %s\n", sgl_error_last());
        return 1;
    }
    struct test_tally tally = {0, 0, sgl_runtime_rank(rt) == 0};
    test_check(&tally, "2^31 + 13 bytes down and up one MPI link",
               sgl_run(rt, large_main, NULL, 0));
    if (sgl_finalize(rt) != SGL_OK)
        tally.failed++;
    if (tally.report)
        printf("1..%d\n", tally.passed + tally.failed);
    return tally.failed ? 1 : 0;
}
