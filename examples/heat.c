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
 * points, and stages its new block's edges for the next exchange.
 *
 * Run, it compares the result with the sequential loop bit for bit
 * (sgl_darray_checksum()):
 *
 *     [mpirun -n P] ./heat [dims 1..3] [n] [iters]
 *
 * Self-contained: the installed headers and libc only, so it builds with
 *     cc heat.c $(pkg-config --cflags --libs sgl) -o heat
 * The tests and bench/ also compile it (without its main) into their
 * Trasgo library, through trasgo.h; they build it with -ffp-contract=off,
 * since a fused multiply-add would change the bits in one program and not
 * in the MPI peer they compare it with. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <sgl/algorithms.h>
#include <sgl/darray.h>
#include <sgl/exchange.h>

#ifndef TRASGO_RESULT_DEFINED
#define TRASGO_LEVELS 8
/* What a run measured; trasgo.h has the same struct for the tests. */
typedef struct trasgo_result {
    uint64_t check;        /* sgl_darray_checksum() of the result */
    double plan_seconds;   /* creating the plan */
    double seconds;        /* the timed loop, all iterations */
    sgl_dplan_stats_t stats; /* of the plan */
    size_t level_h[TRASGO_LEVELS]; /* its h per level, bytes */
} trasgo_result_t;
#endif

int heat_run(sgl_ctx_t *master, unsigned dims, size_t n, unsigned iters,
             trasgo_result_t *ret);
int heat_register(sgl_runtime_t *rt);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The start: uniform in [0, 1), a function of the row-major index only,
 * so the same on every partition. */
static double initial(uint64_t g)
{
    return (double)((g * UINT64_C(0x9E3779B97F4A7C15)) >> 11) * 0x1.0p-53;
}

/* The points of a step, with the diffusion numbers of the explicit
 * scheme's stability limits halved: c is the point, then its neighbours,
 * lower and upper along each dimension, the first dimension first. */
static inline double point_1d(double c, double l, double r)
{
    return c + 0.25 * (l + r - 2.0 * c);
}

static inline double point_2d(double c, double n, double s, double w, double e)
{
    return c + 0.125 * (n + s + w + e - 4.0 * c);
}

static inline double point_3d(double c, double d, double u, double n, double s,
                              double w, double e)
{
    return c + 0.0625 * (d + u + n + s + w + e - 6.0 * c);
}

/* One row of a 2D step: out[j] for j in [0, len) from the rows above (n),
 * at (c) and below (s), each readable at [-1, len]. */
static inline void row_2d(double *restrict out, const double *n,
                          const double *c, const double *s, size_t len)
{
    for (size_t j = 0; j < len; j++)
        out[j] = point_2d(c[j], n[j], s[j], c[j - 1], c[j + 1]);
}

struct fill_arg {
    uint32_t id;
    uint32_t pad;
    uint64_t size[SGL_DARRAY_MAX_DIMS];
};

static int fill_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, fill_task, arg, size);
    const struct fill_arg *a = arg;
    sgl_dblock_t b;
    SGL_TRY(sgl_darray_local(ctx, a->id, &b));
    for (long i = b.lo[0]; i < b.hi[0]; i++)
        for (long j = b.lo[1]; j < b.hi[1]; j++)
            for (long k = b.lo[2]; k < b.hi[2]; k++)
                *(double *)sgl_dblock_at(&b, i, j, k) = initial(
                    ((uint64_t)i * a->size[1] + (uint64_t)j) * a->size[2] +
                    (uint64_t)k);
    return 0;
}

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
        AT(*o, i, 0, 0) = point_1d(AT(*v, i, 0, 0), AT(*v, i - 1, 0, 0),
                                       AT(*v, i + 1, 0, 0));
}

static void step_2d(const sgl_dblock_t *v, sgl_dblock_t *o)
{
    long j0 = o->lo[1];
    size_t len = (size_t)(o->hi[1] - j0);
    for (long i = o->lo[0]; i < o->hi[0]; i++)
        row_2d(&AT(*o, i, j0, 0), &AT(*v, i - 1, j0, 0),
                   &AT(*v, i, j0, 0), &AT(*v, i + 1, j0, 0), len);
}

static void step_3d(const sgl_dblock_t *v, sgl_dblock_t *o)
{
    for (long i = o->lo[0]; i < o->hi[0]; i++)
        for (long j = o->lo[1]; j < o->hi[1]; j++)
            for (long k = o->lo[2]; k < o->hi[2]; k++)
                AT(*o, i, j, k) = point_3d(
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
    double t0 = now();
    for (unsigned t = 0; t < iters; t++) {
        SGL_TRY(sgl_exchange(m));
        a = (struct step_arg){sgl_dplan_id(plan), sgl_darray_id(arr[t % 2]),
                              sgl_darray_id(arr[(t + 1) % 2]), dims,
                              t + 1 < iters, 1};
        SGL_TRY(step_task(m, &a, sizeof a));
    }
    r->seconds = now() - t0;
    return sgl_darray_checksum(m, arr[iters % 2], &r->check);
}

/* Fill the first array, plan the stencil's reads, record the plan. */
static int set_up(sgl_ctx_t *m, sgl_darray_t *arr[2], unsigned dims,
                  sgl_dplan_t **plan, trasgo_result_t *r)
{
    const sgl_darray_layout_t *l = sgl_darray_layout(arr[0]);
    struct fill_arg f = {sgl_darray_id(arr[0]), 0, {1, 1, 1}};
    for (unsigned d = 0; d < dims; d++)
        f.size[d] = l->size[d];
    SGL_TRY(fill_task(m, &f, sizeof f));
    sgl_daccess_t acc[1 + 2 * SGL_DARRAY_MAX_DIMS];
    double t0 = now();
    SGL_TRY(sgl_dplan_create(m, arr[0], stencil(dims, acc), acc, plan));
    r->plan_seconds = now() - t0;
    for (unsigned lv = 0; lv < TRASGO_LEVELS; lv++)
        r->level_h[lv] = sgl_dplan_level_h(*plan, lv);
    return sgl_dplan_stats(*plan, &r->stats);
}

/* @iters steps on an n^dims grid; the result's checksum into r->check. */
int heat_run(sgl_ctx_t *m, unsigned dims, size_t n, unsigned iters,
             trasgo_result_t *r)
{
    if (dims < 1 || dims > SGL_DARRAY_MAX_DIMS)
        return sgl_error_set(SGL_EINVAL, "heat: %u dimensions, not 1 to %d",
                             dims, SGL_DARRAY_MAX_DIMS);
    size_t size[SGL_DARRAY_MAX_DIMS] = {n, n, n};
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, dims, size, sizeof(double));
    for (unsigned d = 0; d < dims; d++)
        l.halo[d] = 1;
    sgl_darray_t *arr[2] = {NULL, NULL};
    sgl_dplan_t *plan = NULL;
    int rc = sgl_darray_create(m, &l, &arr[0]);
    if (!rc)
        rc = sgl_darray_create(m, &l, &arr[1]);
    if (!rc)
        rc = set_up(m, arr, dims, &plan, r);
    if (!rc)
        rc = iterate(m, plan, arr, dims, iters, r);
    sgl_dplan_free(m, plan);
    sgl_darray_free(m, arr[1]);
    sgl_darray_free(m, arr[0]);
    return rc;
}

/* Every process, in the same order, after sgl_algorithms_register(). */
int heat_register(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_task_register(rt, step_task, "trasgo.heat.step"));
    return sgl_task_register(rt, fill_task, "trasgo.heat.fill");
}

#ifndef SGL_EXAMPLE_NO_MAIN
struct job {
    unsigned dims, iters;
    size_t n;
};

/* Index of (i, j, k) on the periodic n^3 grid (unused dimensions 0). */
static size_t at(const struct job *j, long i, long jj, long k)
{
    long n = (long)j->n;
    i = (i + n) % n;
    jj = j->dims > 1 ? (jj + n) % n : 0;
    k = j->dims > 2 ? (k + n) % n : 0;
    size_t n1 = j->dims > 1 ? j->n : 1, n2 = j->dims > 2 ? j->n : 1;
    return ((size_t)i * n1 + (size_t)jj) * n2 + (size_t)k;
}

static double point(const struct job *j, const double *a, long i, long jj,
                    long k)
{
    double c = a[at(j, i, jj, k)];
    if (j->dims == 1)
        return point_1d(c, a[at(j, i - 1, 0, 0)], a[at(j, i + 1, 0, 0)]);
    if (j->dims == 2)
        return point_2d(c, a[at(j, i - 1, jj, 0)], a[at(j, i + 1, jj, 0)],
                        a[at(j, i, jj - 1, 0)], a[at(j, i, jj + 1, 0)]);
    return point_3d(c, a[at(j, i - 1, jj, k)], a[at(j, i + 1, jj, k)],
                    a[at(j, i, jj - 1, k)], a[at(j, i, jj + 1, k)],
                    a[at(j, i, jj, k - 1)], a[at(j, i, jj, k + 1)]);
}

/* The sequential loop on the master; its result's checksum. */
static int sequential(const struct job *j, uint64_t *ret)
{
    size_t ext[3] = {j->n, j->dims > 1 ? j->n : 1, j->dims > 2 ? j->n : 1};
    size_t total = ext[0] * ext[1] * ext[2];
    double *a = malloc(total * sizeof *a), *b = malloc(total * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return sgl_error_set(SGL_ENOMEM, "heat: out of memory");
    }
    for (size_t g = 0; g < total; g++)
        a[g] = initial(g);
    for (unsigned t = 0; t < j->iters; t++) {
        for (long i = 0; i < (long)ext[0]; i++)
            for (long jj = 0; jj < (long)ext[1]; jj++)
                for (long k = 0; k < (long)ext[2]; k++)
                    b[at(j, i, jj, k)] = point(j, a, i, jj, k);
        double *s = a;
        a = b;
        b = s;
    }
    *ret = 0;
    for (size_t g = 0; g < total; g++)
        *ret ^= sgl_darray_checksum_element(&a[g], sizeof *a, g);
    free(a);
    free(b);
    return SGL_OK;
}

static int run(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    trasgo_result_t r;
    uint64_t want = 0;
    SGL_TRY(heat_run(root, j->dims, j->n, j->iters, &r));
    SGL_TRY(sequential(j, &want));
    size_t p = sgl_ctx_workers(root);
    printf("heat %uD, %zu points per side, %u steps on %zu worker%s: %s "
           "(checksum %016llx); %.3f ms per step\n",
           j->dims, j->n, j->iters, p, p == 1 ? "" : "s",
           r.check == want ? "the sequential loop's result" : "WRONG",
           (unsigned long long)r.check,
           j->iters ? 1e3 * r.seconds / j->iters : 0.0);
    return r.check == want ? SGL_OK
                           : sgl_error_set(SGL_ETASK, "heat: checksum %016llx"
                                           ", the sequential loop's %016llx",
                                           (unsigned long long)r.check,
                                           (unsigned long long)want);
}

int main(int argc, char **argv)
{
    struct job j = {argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 2,
                    argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 10,
                    argc > 2 ? strtoull(argv[2], NULL, 10) : 64};
    if (j.dims < 1 || j.dims > 3 || j.n == 0) {
        fprintf(stderr, "usage: heat [dims 1..3] [n > 0] [iters]\n");
        return 2;
    }
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc)
        rc = sgl_algorithms_register(rt);
    if (!rc)
        rc = heat_register(rt);
    if (!rc)
        rc = sgl_run(rt, run, &j, sizeof j);
    if (rc)
        fprintf(stderr, "heat: %s\n", sgl_error_last());
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
#endif
