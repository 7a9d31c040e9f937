/* The Trasgo paper's illustrative example (its figures 1-3), the STL's
 * rotate with a function applied:
 *
 *     for i in 0..n-1:  M2[i] = f(M[(i + rot) mod n])
 *
 * on any partition of M and M2 (they share it) and any rot, also larger
 * than a block or than n. The plan's one access is the loop's read; its
 * view on each worker is the range [first + rot, last + rot] of M,
 * unwrapped, brought from its owners. */
#include "stencil_kernels.h"
#include "trasgo.h"
#include "trasgo_common.h"
#include <sgl/exchange.h>

struct rotate_arg {
    uint32_t plan, m, m2;
    uint32_t pad;
    int64_t rot;
};

static double f(double x) { return 2.0 * x + 1.0; }

static int rotate_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, rotate_task, arg, size);
    const struct rotate_arg *a = arg;
    sgl_dblock_t view, m2;
    SGL_TRY(sgl_dplan_finish(ctx, a->plan, a->m, &view));
    SGL_TRY(sgl_darray_local(ctx, a->m2, &m2));
    for (long i = m2.lo[0]; i < m2.hi[0]; i++)
        *(double *)sgl_dblock_at(&m2, i, 0, 0) =
            f(*(double *)sgl_dblock_at(&view, i + a->rot, 0, 0));
    return 0;
}

static int stage_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, stage_task, arg, size);
    const struct rotate_arg *a = arg;
    return sgl_dplan_stage(ctx, a->plan, a->m);
}

static int rotate(sgl_ctx_t *m, const sgl_darray_t *arr[2],
                  const sgl_dplan_t *plan, long rot, trasgo_result_t *r)
{
    struct rotate_arg a = {sgl_dplan_id(plan), sgl_darray_id(arr[0]),
                           sgl_darray_id(arr[1]), 0, rot};
    double t0 = trasgo_now();
    SGL_TRY(stage_task(m, &a, sizeof a));
    SGL_TRY(sgl_exchange(m));
    SGL_TRY(rotate_task(m, &a, sizeof a));
    r->seconds = trasgo_now() - t0;
    return trasgo_check(m, arr[1], &r->check);
}

int rotate_run(sgl_ctx_t *m, size_t n, long rot, const size_t *cuts,
               double *out, trasgo_result_t *r)
{
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 1, &n, sizeof(double));
    l.cuts[0] = cuts;
    sgl_darray_t *arr[2];
    sgl_dplan_t *plan;
    sgl_daccess_t acc;
    sgl_daccess_shift(&acc, 1, &rot, SGL_PERIODIC_ALL);
    int rc = trasgo_setup(m, &l, 1, &acc, arr, &plan, r);
    if (!rc)
        rc = rotate(m, (const sgl_darray_t **)arr, plan, rot, r);
    if (!rc && out)
        rc = sgl_darray_gather(m, arr[1], out, n);
    trasgo_teardown(m, arr, plan);
    return rc;
}

int rotate_register(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_task_register(rt, rotate_task, "trasgo.rotate"));
    return sgl_task_register(rt, stage_task, "trasgo.rotate.stage");
}
