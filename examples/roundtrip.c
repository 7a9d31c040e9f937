/* Broadcast, then gather: the root's greeting travels down to every
 * worker (each master passes its block on with sgl_bcast), and the
 * workers' indices come back up, concatenated in order by each master.
 * Run: [mpirun -n 2] ./roundtrip */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sgl/sgl.h>

static const char hello[] = "hello from the root";

static int roundtrip(sgl_ctx_t *ctx, const void *arg, size_t arg_size)
{
    (void)arg, (void)arg_size;
    char *msg;
    size_t len, *ids, n;
    int rc = sgl_recv(ctx, 1, (void **)&msg, &len);
    if (rc)
        return rc;
    if (len != sizeof hello || memcmp(msg, hello, len) != 0)
        return sgl_error_set(SGL_ETASK, "the node above worker %zu got a "
                                        "bad greeting",
                             sgl_ctx_first_worker(ctx));
    if (sgl_ctx_is_worker(ctx)) {
        size_t me = sgl_ctx_first_worker(ctx);
        return sgl_put(ctx, &me, sizeof me, 1);
    }
    if ((rc = sgl_bcast(ctx, msg, 1, len)) || /* the same block to all */
        (rc = sgl_pardo(ctx, roundtrip, NULL, 0)) ||
        (rc = sgl_gather_alloc(ctx, sizeof *ids, (void **)&ids, &n, NULL)))
        return rc;
    rc = sgl_put(ctx, ids, sizeof *ids, n);
    free(ids);
    return rc;
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt = NULL;
    const size_t *ids;
    size_t n;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc && !(rc = sgl_task_register(rt, roundtrip, "roundtrip")) &&
        !(rc = sgl_run(rt, roundtrip, hello, sizeof hello)) &&
        sgl_runtime_rank(rt) == 0 &&
        !(rc = sgl_run_result(rt, sizeof *ids, (const void **)&ids, &n))) {
        size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
        for (size_t i = 0; !rc && i < p; i++)
            if (n != p || ids[i] != i)
                rc = sgl_error_set(SGL_ETASK, "slot %zu of %zu holds %zu", i,
                                   n, n == p ? ids[i] : 0);
        if (!rc)
            printf("broadcast reached and gathered %zu workers in order\n",
                   p);
    }
    if (rc)
        fprintf(stderr, "roundtrip: %s\n", sgl_error_last());
    return sgl_finalize(rt) || rc ? 1 : 0;
}
