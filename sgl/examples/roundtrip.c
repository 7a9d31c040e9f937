/* Broadcast, then gather: the root broadcasts a greeting, every master
 * passes it on, each worker checks it and hands up its index, masters
 * concatenate. The root checks it got 0, 1, ..., p-1 in order.
 * Run: ./roundtrip   or   mpirun -n 2 ./roundtrip */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/sgl.h>

static const char greeting[] = "hello from the root";

/* Fill out[0 .. workers below ctx) with the workers' indices. */
static int echo(sgl_ctx_t *ctx, const char *msg, size_t *out);

static int echo_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    void *msg;
    size_t len;
    size_t *out = malloc(sgl_ctx_workers(ctx) * sizeof *out);
    int rc = out ? sgl_recv(ctx, &msg, &len) : SGL_ENOMEM;
    if (!rc && (len != sizeof greeting || strcmp(msg, greeting) != 0))
        rc = sgl_error_set(SGL_ETASK, "worker got a bad greeting");
    if (!rc)
        rc = echo(ctx, msg, out);
    if (!rc)
        rc = sgl_put(ctx, out, sgl_ctx_workers(ctx) * sizeof *out);
    free(out);
    return rc;
}

static int echo(sgl_ctx_t *ctx, const char *msg, size_t *out)
{
    if (sgl_ctx_is_worker(ctx)) {
        out[0] = sgl_ctx_first_worker(ctx);
        return SGL_OK;
    }
    int rc = sgl_bcast(ctx, msg, strlen(msg) + 1); /* same block to all */
    if (!rc)
        rc = sgl_pardo(ctx, echo_task, NULL, 0);
    if (!rc)
        rc = sgl_gather(ctx, out, sizeof *out, sgl_ctx_workers(ctx), NULL);
    return rc;
}

static int program(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t p = sgl_ctx_workers(root);
    size_t *out = malloc(p * sizeof *out);
    int rc = out ? echo(root, greeting, out) : SGL_ENOMEM;
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
    sgl_runtime_t *rt;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc)
        rc = sgl_task_register(rt, echo_task, "echo");
    if (!rc)
        rc = sgl_run(rt, program, NULL, 0);
    if (rc)
        fprintf(stderr, "roundtrip: %s\n", sgl_last_error());
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
