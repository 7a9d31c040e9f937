/* A task that never returns, for the watchdog test (watchdog.sh): the
 * last worker waits forever; with SGL_WATCHDOG set the job must end with
 * the watchdog's message. */
#include <stdio.h>
#include <unistd.h>

#include <sgl/sgl.h>

static int child(sgl_ctx_t *ctx, const void *arg, size_t size);

static int step(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    return sgl_pardo(ctx, child, NULL, 0);
}

static int child(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return step(ctx, arg, size);
    if (sgl_ctx_first_worker(ctx) + 1 ==
        sgl_machine_workers(sgl_ctx_machine(ctx))) {
        /* Tests that inject a fault wait for this line: every rank is
         * past start-up and in the superstep. */
        printf("watchdog_hang: worker %zu waits forever\n",
               sgl_ctx_first_worker(ctx));
        fflush(stdout);
        for (;;)
            pause();
    }
    return SGL_OK;
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc)
        rc = sgl_task_register(rt, child, "child");
    if (!rc)
        rc = sgl_run(rt, step, NULL, 0);
    if (rc)
        fprintf(stderr, "watchdog_hang: %s\n", sgl_error_last());
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
