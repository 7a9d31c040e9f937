/* Recursive sum of a distributed vector (SGL paper, Algorithm 1 shape).
 * The vector x_i = i starts distributed: each worker makes its own slice.
 * Run: ./sum [n]   or   mpirun -n 2 ./sum [n] */
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
    if (sgl_ctx_is_worker(ctx)) { /* my slice of the vector */
        size_t p = sgl_machine_workers(sgl_ctx_machine(ctx));
        size_t w = sgl_ctx_first_worker(ctx);
        for (size_t i = n * w / p; i < n * (w + 1) / p; i++)
            *ret += (double)i;
        return SGL_OK;
    }
    unsigned p = sgl_ctx_children(ctx); /* master: pardo, gather, add */
    double part[64];
    if (p > 64)
        return sgl_error_set(SGL_ENOTSUP, "example handles 64 children");
    int rc = sgl_pardo(ctx, sum_task, &n, sizeof n);
    if (!rc)
        rc = sgl_gather(ctx, part, sizeof *part, p, NULL);
    for (unsigned i = 0; !rc && i < p; i++)
        *ret += part[i];
    return rc;
}

static int program(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    size_t n = *(const size_t *)arg;
    double s;
    int rc = sum(root, n, &s);
    if (!rc)
        printf("sum of 0..%zu = %.0f on %zu workers\n", n - 1, s,
               sgl_machine_workers(sgl_ctx_machine(root)));
    return rc;
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc)
        rc = sgl_task_register(rt, sum_task, "sum");
    if (!rc)
        rc = sgl_run(rt, program, &n, sizeof n);
    if (rc)
        fprintf(stderr, "sum: %s\n", sgl_last_error());
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
