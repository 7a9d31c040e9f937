/* Algorithm 1 of the SGL paper: parallel reduction with the product.
 *
 *   Reduction(IN src, OUT res)          Product(IN src, OUT res)
 *    1 if master then                     9 res := 1
 *    2   par do                          10 for i from 1 to len(src) do
 *    3     Reduction(src, res)           11   res := res * src[i]
 *    4   end par
 *    5   gather res to lst
 *    6   Product(lst, res)
 *    7 else
 *    8   Product(src, res)
 *
 * In the paper src is already distributed; here it starts at the root
 * (the run's argument is the root's block) and each master splits its
 * block over its children by their workers before line 2. One C function
 * is one recursive step, at the root and below.
 * Run: [mpirun -n 2] ./reduction [n] */
#include <stdio.h>
#include <stdlib.h>
#include <sgl/sgl.h>

#define TRY(call)                                                              \
    do {                                                                       \
        int rc_ = (call);                                                      \
        if (rc_)                                                               \
            return rc_;                                                        \
    } while (0)

static double product(const double *src, size_t n)
{
    double res = 1;                                         /* 9 */
    for (size_t i = 0; i < n; i++)                          /* 10 */
        res *= src[i];                                      /* 11 */
    return res;
}

static int reduction(sgl_ctx_t *ctx, const void *arg, size_t arg_size)
{
    (void)arg, (void)arg_size;
    double *src, *lst, res;
    size_t n, p;
    TRY(sgl_recv(ctx, sizeof *src, (void **)&src, &n));     /* IN src */
    if (sgl_ctx_is_master(ctx)) {                           /* 1 */
        TRY(sgl_scatter_split(ctx, src, sizeof *src, n, NULL));
        TRY(sgl_pardo(ctx, reduction, NULL, 0));            /* 2-4 */
        TRY(sgl_gather_alloc(ctx, sizeof res, (void **)&lst, &p, NULL)); /* 5 */
        res = product(lst, p);                              /* 6 */
        free(lst);
    } else {                                                /* 7 */
        res = product(src, n);                              /* 8 */
    }
    return sgl_put(ctx, &res, sizeof res, 1);               /* OUT res */
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt = NULL;
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    /* Factors 2, 1/2 and 1: every product of them is exact, so the
     * parallel result must equal the sequential one bit for bit. */
    double *x = malloc((n ? n : 1) * sizeof *x);
    int rc = x ? sgl_init(&argc, &argv, NULL, &rt)
               : sgl_error_set(SGL_ENOMEM, "no memory for %zu factors", n);
    for (size_t i = 0; x && i < n; i++)
        x[i] = i % 3 == 0 ? 2.0 : i % 3 == 1 ? 0.5 : 1.0;
    if (!rc)
        rc = sgl_task_register(rt, reduction, "reduction");
    if (!rc)
        rc = sgl_run(rt, reduction, x, n * sizeof *x);
    const double *res;
    size_t count;
    if (!rc && sgl_runtime_rank(rt) == 0 &&
        !(rc = sgl_run_result(rt, sizeof *res, (const void **)&res, &count))) {
        if (count != 1 || *res != product(x, n))
            rc = sgl_error_set(SGL_ETASK, "product %g, sequentially %g",
                               count ? *res : 0.0, product(x, n));
        else
            printf("product of %zu factors = %g on %zu workers\n", n, *res,
                   sgl_machine_workers(sgl_runtime_machine(rt)));
    }
    if (rc)
        fprintf(stderr, "reduction: %s\n", sgl_last_error());
    free(x);
    return sgl_finalize(rt) || rc ? 1 : 0;
}
