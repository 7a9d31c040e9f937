/* A first program on distributed arrays: Jacobi steps of a 5-point
 * stencil on a periodic n x n grid. The root loads the grid into an
 * array, a plan fills each block's halo from its neighbours, and the
 * result comes back to the root, where the sequential loop checks it.
 * It needs only the installed headers: copy it and build it with
 *   mpicc darray_first.c $(pkg-config --cflags --libs sgl) -fopenmp
 * (docs/darray.md shows it whole; a test checks that the two agree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/algorithms.h> /* sgl_algorithms_register() */
#include <sgl/darray.h>
#include <sgl/exchange.h>   /* sgl_exchange() */

#define N 24     /* grid side */
#define STEPS 10 /* Jacobi steps */

/* The new value of a point from the old one and its four neighbours,
 * summed in one fixed order so that every tree gives the same bits. */
static double stencil(double c, double n, double s, double w, double e)
{
    return (c + n + s + w + e) * 0.2;
}

/* One worker's part of a step: read the halo the last exchange brought
 * (finish), compute the block of @out from the view of @in, and stage
 * @out's edges for the next exchange. The first call only stages. */
struct step_arg {
    uint32_t plan, in, out;
    uint32_t compute, stage;
};

static int step_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx)) /* masters pass it down to the workers */
        return sgl_pardo(ctx, step_task, arg, size);
    const struct step_arg *a = arg;
    if (a->compute) {
        sgl_dblock_t v, o;
        SGL_TRY(sgl_dplan_finish(ctx, a->plan, a->in, &v));
        SGL_TRY(sgl_darray_local(ctx, a->out, &o));
#define AT(b, i, j) (*(double *)sgl_dblock_at(&(b), i, j, 0))
        for (long i = o.lo[0]; i < o.hi[0]; i++)
            for (long j = o.lo[1]; j < o.hi[1]; j++)
                AT(o, i, j) = stencil(AT(v, i, j), AT(v, i - 1, j),
                                      AT(v, i + 1, j), AT(v, i, j - 1),
                                      AT(v, i, j + 1));
    }
    return a->stage ? sgl_dplan_stage(ctx, a->plan, a->out) : SGL_OK;
}

/* The same steps, sequentially, on @g (n x n, periodic). */
static void sequential(double *g, double *tmp)
{
    for (int t = 0; t < STEPS; t++) {
        for (long i = 0; i < N; i++)
            for (long j = 0; j < N; j++)
                tmp[i * N + j] = stencil(
                    g[i * N + j], g[(i + N - 1) % N * N + j],
                    g[(i + 1) % N * N + j], g[i * N + (j + N - 1) % N],
                    g[i * N + (j + 1) % N]);
        memcpy(g, tmp, sizeof(double) * N * N);
    }
}

/* The loop: stage once, then per step an exchange and one pardo. */
static int iterate(sgl_ctx_t *root, sgl_dplan_t *plan, sgl_darray_t *arr[2])
{
    struct step_arg a = {sgl_dplan_id(plan), 0, sgl_darray_id(arr[0]), 0, 1};
    SGL_TRY(step_task(root, &a, sizeof a)); /* the first stage */
    for (unsigned t = 0; t < STEPS; t++) {
        SGL_TRY(sgl_exchange(root));
        a = (struct step_arg){sgl_dplan_id(plan), sgl_darray_id(arr[t % 2]),
                              sgl_darray_id(arr[(t + 1) % 2]), 1,
                              t + 1 < STEPS};
        SGL_TRY(step_task(root, &a, sizeof a));
    }
    return SGL_OK;
}

/* Create, scatter, plan, loop, gather: the root's task. */
static int run(sgl_ctx_t *root, double *grid)
{
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 2, (size_t[]){N, N}, sizeof(double));
    l.halo[0] = l.halo[1] = 1; /* the stencil reads one element around */
    sgl_darray_t *arr[2] = {NULL, NULL};
    sgl_dplan_t *plan = NULL;
    sgl_daccess_t acc[5];
    static const long off[5][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (int k = 0; k < 5; k++)
        sgl_daccess_shift(&acc[k], 2, off[k], SGL_PERIODIC_ALL);
    int rc = sgl_darray_create(root, &l, &arr[0]);
    if (!rc)
        rc = sgl_darray_create(root, &l, &arr[1]);
    if (!rc)
        rc = sgl_darray_scatter(root, arr[0], grid, N * N);
    if (!rc)
        rc = sgl_dplan_create(root, arr[0], 5, acc, &plan);
    if (!rc)
        rc = iterate(root, plan, arr);
    if (!rc)
        rc = sgl_darray_gather(root, arr[STEPS % 2], grid, N * N);
    sgl_dplan_free(root, plan);
    sgl_darray_free(root, arr[1]);
    sgl_darray_free(root, arr[0]);
    return rc;
}

static int heat(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    double *grid = malloc(sizeof(double) * N * N),
           *want = malloc(sizeof(double) * N * N),
           *tmp = malloc(sizeof(double) * N * N);
    int rc = grid && want && tmp ? SGL_OK
                                 : sgl_error_set(SGL_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < N * N; i++)
        grid[i] = want[i] = (double)(i * 7919 % 101) / 101;
    if (!rc)
        rc = run(root, grid);
    if (!rc) {
        sequential(want, tmp);
        if (memcmp(grid, want, sizeof(double) * N * N))
            rc = sgl_error_set(SGL_ETASK, "the result differs from the "
                                          "sequential loop");
    }
    free(grid);
    free(want);
    free(tmp);
    return rc;
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt)) {
        fprintf(stderr, "sgl_init: %s\n", sgl_error_last());
        return 1;
    }
    int rc = sgl_algorithms_register(rt); /* the arrays' own tasks */
    if (!rc)
        rc = sgl_task_register(rt, step_task, "darray_first.step");
    if (!rc)
        rc = sgl_run(rt, heat, NULL, 0);
    if (sgl_runtime_rank(rt) == 0) {
        if (rc)
            fprintf(stderr, "darray_first: %s\n", sgl_error_last());
        else
            printf("%d steps on %zu workers: the result matches the "
                   "sequential loop bitwise\n",
                   STEPS, sgl_machine_workers(sgl_runtime_machine(rt)));
    }
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
