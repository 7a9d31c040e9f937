/* Filling and checking arrays of doubles for the Trasgo programs: a task
 * that runs on every worker (a master passes it on) and, for the check,
 * XORs what comes up. */
#include <time.h>

#include "stencil_kernels.h"
#include "trasgo.h"
#include "trasgo_common.h"
#include <sgl/blocks.h>

double trasgo_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

struct array_arg {
    uint32_t id;
    uint32_t pad;
    uint64_t size[SGL_DARRAY_MAX_DIMS];
};

/* Row-major index of (i, j, k) in an array of extents @size. */
static uint64_t linear(const uint64_t *size, long i, long j, long k)
{
    return ((uint64_t)i * size[1] + (uint64_t)j) * size[2] + (uint64_t)k;
}

static int fill_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, fill_task, arg, size);
    const struct array_arg *a = arg;
    sgl_dblock_t b;
    SGL_TRY(sgl_darray_local(ctx, a->id, &b));
    for (long i = b.lo[0]; i < b.hi[0]; i++)
        for (long j = b.lo[1]; j < b.hi[1]; j++)
            for (long k = b.lo[2]; k < b.hi[2]; k++)
                *(double *)sgl_dblock_at(&b, i, j, k) =
                    kernel_init(linear(a->size, i, j, k));
    return 0;
}

static uint64_t block_check(sgl_ctx_t *ctx, const struct array_arg *a,
                            int *rc)
{
    sgl_dblock_t b;
    uint64_t x = 0;
    *rc = sgl_darray_local(ctx, a->id, &b);
    for (long i = b.lo[0]; i < b.hi[0] && !*rc; i++)
        for (long j = b.lo[1]; j < b.hi[1]; j++)
            for (long k = b.lo[2]; k < b.hi[2]; k++)
                x ^= kernel_check(*(double *)sgl_dblock_at(&b, i, j, k),
                                  linear(a->size, i, j, k));
    return x;
}

int trasgo_xor_children(sgl_ctx_t *ctx, sgl_task_fn task, const void *arg,
                          size_t size, uint64_t *ret)
{
    SGL_TRY(sgl_pardo(ctx, task, arg, size));
    *ret = 0;
    for (unsigned c = 0; c < sgl_ctx_children(ctx); c++) {
        const uint64_t *x;
        size_t n;
        SGL_TRY(sgl_gather_block(ctx, c, sizeof *x, (const void **)&x, &n));
        if (n == 1)
            *ret ^= *x;
    }
    return 0;
}

static int check_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    uint64_t x;
    int rc = 0;
    if (sgl_ctx_is_master(ctx))
        rc = trasgo_xor_children(ctx, check_task, arg, size, &x);
    else
        x = block_check(ctx, arg, &rc);
    SGL_TRY(rc);
    return sgl_put(ctx, &x, sizeof x, 1);
}

static struct array_arg array_arg(const sgl_darray_t *array)
{
    const sgl_darray_layout_t *l = sgl_darray_layout(array);
    struct array_arg a = {sgl_darray_id(array), 0, {1, 1, 1}};
    for (unsigned d = 0; d < l->dims; d++)
        a.size[d] = l->size[d];
    return a;
}

int trasgo_fill(sgl_ctx_t *master, const sgl_darray_t *array)
{
    struct array_arg a = array_arg(array);
    return fill_task(master, &a, sizeof a);
}

int trasgo_check(sgl_ctx_t *master, const sgl_darray_t *array,
                 uint64_t *ret)
{
    struct array_arg a = array_arg(array);
    int rc = 0;
    if (sgl_ctx_is_master(master))
        return trasgo_xor_children(master, check_task, &a, sizeof a, ret);
    *ret = block_check(master, &a, &rc);
    return rc;
}

int trasgo_common_register(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_task_register(rt, fill_task, "trasgo.fill"));
    return sgl_task_register(rt, check_task, "trasgo.check");
}

int trasgo_plan_figures(const sgl_dplan_t *plan, trasgo_result_t *r)
{
    for (unsigned l = 0; l < TRASGO_LEVELS; l++)
        r->level_h[l] = sgl_dplan_level_h(plan, l);
    return sgl_dplan_stats(plan, &r->stats);
}

int trasgo_setup(sgl_ctx_t *m, const sgl_darray_layout_t *l, size_t na,
                 const sgl_daccess_t *acc, sgl_darray_t *arr[2],
                 sgl_dplan_t **plan, trasgo_result_t *r)
{
    arr[0] = arr[1] = NULL;
    *plan = NULL;
    SGL_TRY(sgl_darray_create(m, l, &arr[0]));
    SGL_TRY(sgl_darray_create(m, l, &arr[1]));
    SGL_TRY(trasgo_fill(m, arr[0]));
    double t0 = trasgo_now();
    SGL_TRY(sgl_dplan_create(m, arr[0], na, acc, plan));
    r->plan_seconds = trasgo_now() - t0;
    return trasgo_plan_figures(*plan, r);
}

void trasgo_teardown(sgl_ctx_t *m, sgl_darray_t *arr[2], sgl_dplan_t *plan)
{
    sgl_dplan_free(m, plan);
    sgl_darray_free(m, arr[1]);
    sgl_darray_free(m, arr[0]);
}

int trasgo_register(sgl_runtime_t *rt)
{
    SGL_TRY(trasgo_common_register(rt));
    SGL_TRY(rotate_register(rt));
    SGL_TRY(heat_register(rt));
    return cannon_register(rt);
}
