/* The part of the Trasgo programs' library (trasgo.h) that is not an
 * example: what the tests need beside the programs. */
#include "stencil_kernels.h"
#include "trasgo.h"

struct array_arg {
    uint32_t id;
    uint32_t pad;
    uint64_t size[SGL_DARRAY_MAX_DIMS];
};

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
                *(double *)sgl_dblock_at(&b, i, j, k) = kernel_init(
                    ((uint64_t)i * a->size[1] + (uint64_t)j) * a->size[2] +
                    (uint64_t)k);
    return 0;
}

int trasgo_fill(sgl_ctx_t *master, const sgl_darray_t *array)
{
    const sgl_darray_layout_t *l = sgl_darray_layout(array);
    struct array_arg a = {sgl_darray_id(array), 0, {1, 1, 1}};
    for (unsigned d = 0; l && d < l->dims; d++)
        a.size[d] = l->size[d];
    return fill_task(master, &a, sizeof a);
}

int trasgo_check(sgl_ctx_t *master, const sgl_darray_t *array, uint64_t *ret)
{
    return sgl_darray_checksum(master, array, ret);
}

int trasgo_register(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_task_register(rt, fill_task, "trasgo.fill"));
    SGL_TRY(rotate_register(rt));
    SGL_TRY(heat_register(rt));
    return cannon_register(rt);
}
