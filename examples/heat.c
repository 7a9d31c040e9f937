/* Heat 1D/2D/3D of the Trasgo paper: Jacobi steps of the heat equation
 * on a periodic grid. The sequential loop is
 *
 *     for t in 1..iters:
 *         for every point x:  B[x] = heat(A[x], A[x -+ e_d] for each d)
 *         swap A, B
 *
 * Here its reads (the point and its 2 dims neighbours, periodic) are a
 * plan's accesses; the plan, computed once, fills the halo of whichever
 * array is read. One iteration is one exchange and one pardo: each
 * worker finishes the exchange into its block's halo, computes its
 * points, and stages its new block's edges for the next exchange. */
#include "stencil_kernels.h"
#include "trasgo.h"
#include "trasgo_common.h"
#include <sgl/exchange.h>

struct step_arg {
    uint32_t plan, in, out;
    uint32_t dims;
    uint32_t stage;   /* stage the new block for the next exchange */
    uint32_t compute; /* 0: only stage (before the first iteration) */
};

#define AT(b, i, j, k) (*(double *)sgl_dblock_at(&(b), i, j, k))

static void step_1d(const sgl_dblock_t *v, sgl_dblock_t *o)
{
    for (long i = o->lo[0]; i < o->hi[0]; i++)
        AT(*o, i, 0, 0) = heat1d_point(AT(*v, i, 0, 0), AT(*v, i - 1, 0, 0),
                                       AT(*v, i + 1, 0, 0));
}

static void step_2d(const sgl_dblock_t *v, sgl_dblock_t *o)
{
    long j0 = o->lo[1];
    size_t len = (size_t)(o->hi[1] - j0);
    for (long i = o->lo[0]; i < o->hi[0]; i++)
        heat2d_row(&AT(*o, i, j0, 0), &AT(*v, i - 1, j0, 0),
                   &AT(*v, i, j0, 0), &AT(*v, i + 1, j0, 0), len);
}

static void step_3d(const sgl_dblock_t *v, sgl_dblock_t *o)
{
    for (long i = o->lo[0]; i < o->hi[0]; i++)
        for (long j = o->lo[1]; j < o->hi[1]; j++)
            for (long k = o->lo[2]; k < o->hi[2]; k++)
                AT(*o, i, j, k) = heat3d_point(
                    AT(*v, i, j, k), AT(*v, i - 1, j, k),
                    AT(*v, i + 1, j, k), AT(*v, i, j - 1, k),
                    AT(*v, i, j + 1, k), AT(*v, i, j, k - 1),
                    AT(*v, i, j, k + 1));
}

static int step_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, step_task, arg, size);
    const struct step_arg *a = arg;
    if (a->compute) {
        sgl_dblock_t v, o;
        SGL_TRY(sgl_dplan_finish(ctx, a->plan, a->in, &v));
        SGL_TRY(sgl_darray_local(ctx, a->out, &o));
        if (a->dims == 1)
            step_1d(&v, &o);
        else if (a->dims == 2)
            step_2d(&v, &o);
        else
            step_3d(&v, &o);
        SGL_TRY(sgl_ctx_add_work(ctx, (double)((o.hi[0] - o.lo[0]) *
                                           (o.hi[1] - o.lo[1]) *
                                           (o.hi[2] - o.lo[2]))));
    }
    return a->stage ? sgl_dplan_stage(ctx, a->plan, a->out) : 0;
}

/* The stencil's reads: the point and its neighbours, periodic. */
static size_t stencil(unsigned dims, sgl_daccess_t *acc)
{
    long off[SGL_DARRAY_MAX_DIMS] = {0, 0, 0};
    size_t n = 0;
    sgl_daccess_shift(&acc[n++], dims, off, SGL_PERIODIC_ALL);
    for (unsigned d = 0; d < dims; d++)
        for (long s = -1; s <= 1; s += 2) {
            off[d] = s;
            sgl_daccess_shift(&acc[n++], dims, off, SGL_PERIODIC_ALL);
            off[d] = 0;
        }
    return n;
}

static int iterate(sgl_ctx_t *m, const sgl_dplan_t *plan, sgl_darray_t *arr[2],
                   unsigned dims, unsigned iters, trasgo_result_t *r)
{
    struct step_arg a = {sgl_dplan_id(plan), 0, sgl_darray_id(arr[0]), dims,
                         iters > 0, 0};
    SGL_TRY(step_task(m, &a, sizeof a)); /* the first halo, staged */
    double t0 = trasgo_now();
    for (unsigned t = 0; t < iters; t++) {
        SGL_TRY(sgl_exchange(m));
        a = (struct step_arg){sgl_dplan_id(plan), sgl_darray_id(arr[t % 2]),
                              sgl_darray_id(arr[(t + 1) % 2]), dims,
                              t + 1 < iters, 1};
        SGL_TRY(step_task(m, &a, sizeof a));
    }
    r->seconds = trasgo_now() - t0;
    return trasgo_check(m, arr[iters % 2], &r->check);
}

int heat_run(sgl_ctx_t *m, unsigned dims, size_t n, unsigned iters,
             trasgo_result_t *r)
{
    size_t size[SGL_DARRAY_MAX_DIMS] = {n, n, n};
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, dims, size, sizeof(double));
    for (unsigned d = 0; d < dims; d++)
        l.halo[d] = 1;
    sgl_darray_t *arr[2];
    sgl_dplan_t *plan;
    sgl_daccess_t acc[1 + 2 * SGL_DARRAY_MAX_DIMS];
    int rc = trasgo_setup(m, &l, stencil(dims, acc), acc, arr, &plan, r);
    if (!rc)
        rc = iterate(m, plan, arr, dims, iters, r);
    trasgo_teardown(m, arr, plan);
    return rc;
}


int heat_register(sgl_runtime_t *rt)
{
    return sgl_task_register(rt, step_task, "trasgo.heat.step");
}
