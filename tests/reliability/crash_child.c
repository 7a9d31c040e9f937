/* A child that dies mid-pardo: the last worker (on the last rank) raises
 * SIGSEGV, calls exit(3) or exit(0), or aborts while its siblings and
 * masters wait in the superstep. The job must end with a non-zero status
 * and a message from mpiexec, not hang; crash_watchdog.sh judges.
 *   crash_child segv|exit3|exit0|abort */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sgl/sgl.h>

static int mode;

static int crash_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const sgl_machine_t *m = sgl_ctx_machine(ctx);
    if (!sgl_ctx_is_worker(ctx))
        return sgl_pardo(ctx, crash_task, arg, size);
    if (sgl_ctx_first_worker(ctx) != sgl_machine_workers(m) - 1) {
        usleep(100000); /* siblings are still busy when the victim dies */
        return SGL_OK;
    }
    fprintf(stderr, "crash_child: worker %zu dies (%s)\n",
            sgl_ctx_first_worker(ctx), (const char *)arg);
    fflush(stderr);
    switch (mode) {
    case 0:
        raise(SIGSEGV);
        break;
    case 1:
        exit(3);
    case 2:
        exit(0);
    default:
        abort();
    }
    return SGL_OK;
}

int main(int argc, char **argv)
{
    static const char *const modes[] = {"segv", "exit3", "exit0", "abort"};
    const char *want = argc > 1 ? argv[1] : "segv";
    mode = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(want, modes[i]))
            mode = i;
    if (mode < 0) {
        fprintf(stderr, "usage: crash_child segv|exit3|exit0|abort\n");
        return 2;
    }
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt) != SGL_OK) {
        fprintf(stderr, "sgl_init: %s\n", sgl_error_last());
        return 1;
    }
    if (sgl_task_register(rt, crash_task, "crash") != SGL_OK)
        return 1;
    int rc = sgl_run(rt, crash_task, modes[mode], strlen(modes[mode]) + 1);
    /* Reaching this on rank 0 means the victim's death was not noticed. */
    fprintf(stderr, "crash_child: rank %d: sgl_run returned %s: %s\n",
            sgl_runtime_rank(rt), sgl_error_name(rc), sgl_error_last());
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
