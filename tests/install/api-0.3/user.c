/* A program written against SGL 0.3, kept as it was: it uses every name
 * that 0.4 renamed and functions that moved out of <sgl/sgl.h>. The test
 * api-0.3-migrates applies NEWS.md's migration to a copy and builds it. */
#include <stdio.h>
#include <stdlib.h>

#include <sgl/sgl.h>
#include <sgl/algorithms.h>
#include <sgl/pregel.h>

static int step(sgl_ctx_t *ctx, const void *arg, size_t arg_size)
{
    (void)arg, (void)arg_size;
    if (sgl_ctx_is_master(ctx)) {
        double w[64];
        if (sgl_ctx_children(ctx) <= 64 &&
            sgl_ctx_weights(ctx, NULL, w) != SGL_OK)
            return sgl_error_set(SGL_ETASK, "weights: %s", sgl_last_error());
        int rc = sgl_pardo(ctx, step, NULL, 0);
        return rc ? rc : sgl_exchange(ctx);
    }
    size_t none = 0;
    return sgl_exchange_put(ctx, NULL, 1, sgl_ctx_first_worker(ctx), 1, &none);
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (rc) {
        fprintf(stderr, "%s (%s): %s\n", sgl_err_name(rc), sgl_strerror(rc),
                sgl_last_error());
        return 1;
    }
    sgl_runtime_set_balance(rt, SGL_BALANCE_WORKERS);
    sgl_runtime_set_exchange(rt, 0, SGL_EXCHANGE_DIRECT);
    sgl_task_register(rt, step, "step");
    rc = sgl_run(rt, step, NULL, 0);
    printf("%zu supersteps, %.3f\n", sgl_trace_steps(rt),
           sgl_round_grid(1.0 / 3, -20));
    (void)sgl_dvec_sort_by_key;
    void *block = sgl_mem_alloc(64);
    free(block);
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
