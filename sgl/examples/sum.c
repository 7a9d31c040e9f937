/* Recursive sum of a distributed vector x_i = i: each worker makes its own
 * slice, masters add their children's sums. Run: [mpirun -n 2] ./sum [n] */
#include <stdio.h>
#include <stdlib.h>
#include <sgl/sgl.h>

static int sum(sgl_ctx_t *ctx, size_t n, double *ret);

static int sum_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    double s;
    int rc = sum(ctx, *(const size_t *)arg, &s);
    return rc ? rc : sgl_put(ctx, &s, sizeof s);
}

static int sum(sgl_ctx_t *ctx, size_t n, double *ret)
{
    *ret = 0;
    if (sgl_ctx_is_worker(ctx)) { /* worker: my slice */
        size_t p = sgl_machine_workers(sgl_ctx_machine(ctx));
        size_t w = sgl_ctx_first_worker(ctx);
        for (size_t i = n * w / p; i < n * (w + 1) / p; i++)
            *ret += (double)i;
        return SGL_OK;
    }
    double part[64]; /* master: pardo, gather (at most 64 children), add */
    unsigned p = sgl_ctx_children(ctx);
    int rc = sgl_pardo(ctx, sum_task, &n, sizeof n);
    if (!rc)
        rc = sgl_gather(ctx, part, sizeof *part, 64, NULL);
    for (unsigned i = 0; !rc && i < p; i++)
        *ret += part[i];
    return rc;
}

static int program(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    double s;
    int rc = sum(root, *(const size_t *)arg, &s);
    if (!rc)
        printf("sum = %.0f on %zu workers\n", s, sgl_ctx_workers(root));
    return rc;
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt = NULL;
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc && !(rc = sgl_task_register(rt, sum_task, "sum")))
        rc = sgl_run(rt, program, &n, sizeof n);
    if (rc)
        fprintf(stderr, "sum: %s\n", sgl_last_error());
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
