/* Broadcast, then gather: masters pass the root's greeting on, workers check
 * it and hand up their index. Run: [mpirun -n 2] ./roundtrip */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sgl/sgl.h>

static const char hello[] = "hello from the root";
static int echo(sgl_ctx_t *ctx, size_t *out); /* out: my workers' indices */

static int echo_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    void *msg;
    size_t len, *out = malloc(sgl_ctx_workers(ctx) * sizeof *out);
    int rc = out ? sgl_recv(ctx, &msg, &len) : SGL_ENOMEM;
    if (!rc && (len != sizeof hello || memcmp(msg, hello, len) != 0))
        rc = sgl_error_set(SGL_ETASK, "a child got a bad greeting");
    if (!rc && !(rc = echo(ctx, out)))
        rc = sgl_put(ctx, out, sgl_ctx_workers(ctx) * sizeof *out);
    free(out);
    return rc;
}

static int echo(sgl_ctx_t *ctx, size_t *out)
{
    int rc = SGL_OK;
    if (sgl_ctx_is_worker(ctx))
        out[0] = sgl_ctx_first_worker(ctx);
    else if (!(rc = sgl_bcast(ctx, hello, sizeof hello)) && /* same to all */
             !(rc = sgl_pardo(ctx, echo_task, NULL, 0)))
        rc = sgl_gather(ctx, out, sizeof *out, sgl_ctx_workers(ctx), NULL);
    return rc;
}

static int program(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t p = sgl_ctx_workers(root), *out = malloc(p * sizeof *out);
    int rc = out ? echo(root, out) : SGL_ENOMEM;
    for (size_t i = 0; !rc && i < p; i++)
        if (out[i] != i)
            rc = sgl_error_set(SGL_ETASK, "slot %zu holds %zu", i, out[i]);
    if (!rc)
        printf("broadcast reached and gathered %zu workers in order\n", p);
    free(out);
    return rc;
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc && !(rc = sgl_task_register(rt, echo_task, "echo")))
        rc = sgl_run(rt, program, NULL, 0);
    if (rc)
        fprintf(stderr, "roundtrip: %s\n", sgl_last_error());
    return sgl_finalize(rt) || rc ? 1 : 0;
}
