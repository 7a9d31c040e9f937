/* Cannon's matrix product as the Trasgo paper writes it: on tiles, with
 * periodic affine accesses. A, B and C are q x q arrays whose elements
 * are (n/q) x (n/q) tiles, cut over any grid of workers (one tile each on
 * a q x q grid, as Cannon had it; several, unevenly, on other counts).
 *
 *     A[i][j] = A[i][(i + j) mod q];  B[i][j] = B[(i + j) mod q][j]  skew
 *     repeat q times:
 *         C[i][j] += A[i][j] * B[i][j]                               multiply
 *         A[i][j] = A[i][(j + 1) mod q];  B[i][j] = B[(i + 1) mod q][j]  shift
 *
 * Each assignment reads through a plan (computed once) into a view and
 * copies the view into the array ("adopt"). Tile (i, j) of C so sums the
 * products over k = (i + j + s) mod q, s = 0, 1, ..., the order the
 * references and the MPI peer follow.
 *
 * Run, it compares C with a sequential product bit for bit:
 *
 *     [mpirun -n P] ./cannon [n] [q]
 *
 * Self-contained: the installed headers and libc only, so it builds with
 *     cc cannon.c $(pkg-config --cflags --libs sgl) -o cannon
 * The tests and bench/ also compile it (without its main) into their
 * Trasgo library, through trasgo.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sgl/algorithms.h>
#include <sgl/blocks.h>
#include <sgl/darray.h>
#include <sgl/exchange.h>

#ifndef TRASGO_RESULT_DEFINED
#define TRASGO_LEVELS 8
/* What a run measured; trasgo.h has the same struct for the tests. */
typedef struct trasgo_result {
    uint64_t check;        /* checksum of C, see tiles_check() */
    double plan_seconds;   /* creating the four plans */
    double seconds;        /* the skew and the q steps */
    sgl_dplan_stats_t stats; /* of the shift plan of A */
    size_t level_h[TRASGO_LEVELS]; /* its h per level, bytes */
} trasgo_result_t;
#endif

int cannon_run(sgl_ctx_t *master, size_t n, size_t q, trasgo_result_t *ret);
/* Every process, in the same order, after sgl_algorithms_register(). */
int cannon_register(sgl_runtime_t *rt);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Element (i, j) of the n x n inputs: uniform in [0, 1), a function of
 * the index only, so the same on every partition. */
static double initial(uint64_t g)
{
    return (double)((g * UINT64_C(0x9E3779B97F4A7C15)) >> 11) * 0x1.0p-53;
}

static double cannon_a(size_t n, size_t i, size_t j)
{
    return initial((uint64_t)i * n + j);
}

static double cannon_b(size_t n, size_t i, size_t j)
{
    return initial((uint64_t)n * n + (uint64_t)i * n + j);
}

/* The tile product, c += a * b on bs x bs row-major tiles, in i-k-j order
 * (the order the sequential references repeat). */
static void tile_gemm(double *restrict c, const double *restrict a,
                      const double *restrict b, size_t bs)
{
    for (size_t i = 0; i < bs; i++)
        for (size_t k = 0; k < bs; k++) {
            const double aik = a[i * bs + k];
            const double *brow = b + k * bs;
            double *crow = c + i * bs;
            for (size_t j = 0; j < bs; j++)
                crow[j] += aik * brow[j];
        }
}

/* The four reads, as accesses of (i, j). */
enum move { NONE, SKEW_A, SKEW_B, SHIFT_A, SHIFT_B, NMOVES };

static void move_access(enum move m, sgl_daccess_t *a)
{
    static const long zero[2] = {0, 0}, right[2] = {0, 1}, down[2] = {1, 0};
    sgl_daccess_shift(a, 2, m == SHIFT_A ? right : m == SHIFT_B ? down : zero,
                      SGL_PERIODIC_ALL);
    if (m == SKEW_A)
        a->coef[1][0] = 1; /* column i + j */
    if (m == SKEW_B)
        a->coef[0][1] = 1; /* row i + j */
}

/* Where tile (i, j) reads from under move @m. */
static void move_source(enum move m, long i, long j, long *si, long *sj)
{
    *si = i + (m == SKEW_B ? j : m == SHIFT_B);
    *sj = j + (m == SKEW_A ? i : m == SHIFT_A);
}

struct cannon_arg {
    uint32_t a, b, c;
    uint32_t adopt;      /* enum move, applied before the multiply */
    uint32_t adopt_plan;
    uint32_t multiply;
    uint32_t stage;      /* enum move whose plan is staged at the end */
    uint32_t stage_plan;
    uint64_t n, bs;
};

static uint32_t array_of(const struct cannon_arg *x, enum move m)
{
    return m == SKEW_A || m == SHIFT_A ? x->a : x->b;
}

/* Copy the view of move @x->adopt into the array it moved. */
static int adopt(sgl_ctx_t *ctx, const struct cannon_arg *x)
{
    sgl_dblock_t v, t;
    uint32_t arr = array_of(x, (enum move)x->adopt);
    SGL_TRY(sgl_dplan_finish(ctx, x->adopt_plan, arr, &v));
    SGL_TRY(sgl_darray_local(ctx, arr, &t));
    for (long i = t.lo[0]; i < t.hi[0]; i++)
        for (long j = t.lo[1]; j < t.hi[1]; j++) {
            long si, sj;
            move_source((enum move)x->adopt, i, j, &si, &sj);
            memcpy(sgl_dblock_at(&t, i, j, 0), sgl_dblock_at(&v, si, sj, 0),
                   t.elem_size);
        }
    return 0;
}

static int multiply(sgl_ctx_t *ctx, const struct cannon_arg *x)
{
    sgl_dblock_t a, b, c;
    SGL_TRY(sgl_darray_local(ctx, x->a, &a));
    SGL_TRY(sgl_darray_local(ctx, x->b, &b));
    SGL_TRY(sgl_darray_local(ctx, x->c, &c));
    for (long i = c.lo[0]; i < c.hi[0]; i++)
        for (long j = c.lo[1]; j < c.hi[1]; j++)
            tile_gemm(sgl_dblock_at(&c, i, j, 0), sgl_dblock_at(&a, i, j, 0),
                      sgl_dblock_at(&b, i, j, 0), x->bs);
    double tiles = (double)((c.hi[0] - c.lo[0]) * (c.hi[1] - c.lo[1]));
    return sgl_ctx_add_work(ctx, tiles * (double)(x->bs * x->bs * x->bs));
}

static int step_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, step_task, arg, size);
    const struct cannon_arg *x = arg;
    if (x->adopt != NONE)
        SGL_TRY(adopt(ctx, x));
    if (x->multiply)
        SGL_TRY(multiply(ctx, x));
    if (x->stage == NONE)
        return 0;
    return sgl_dplan_stage(ctx, x->stage_plan, array_of(x, x->stage));
}

/* Tiles of A and B from cannon_a() and cannon_b(). */
static int init_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, init_task, arg, size);
    const struct cannon_arg *x = arg;
    sgl_dblock_t a, b;
    SGL_TRY(sgl_darray_local(ctx, x->a, &a));
    SGL_TRY(sgl_darray_local(ctx, x->b, &b));
    for (long i = a.lo[0]; i < a.hi[0]; i++)
        for (long j = a.lo[1]; j < a.hi[1]; j++) {
            double *ta = sgl_dblock_at(&a, i, j, 0);
            double *tb = sgl_dblock_at(&b, i, j, 0);
            for (size_t r = 0; r < x->bs; r++)
                for (size_t c = 0; c < x->bs; c++) {
                    size_t gi = (size_t)i * x->bs + r, gj = (size_t)j * x->bs + c;
                    ta[r * x->bs + c] = cannon_a(x->n, gi, gj);
                    tb[r * x->bs + c] = cannon_b(x->n, gi, gj);
                }
        }
    return 0;
}

/* The XOR over a worker's tiles of each double's hash with its index
 * gi n + gj in the n x n matrix C, not in the array of tiles: the
 * checksum a sequential product (or an MPI peer) computes without tiles. */
static int tiles_check(sgl_ctx_t *ctx, const struct cannon_arg *x,
                       uint64_t *ret)
{
    sgl_dblock_t c;
    SGL_TRY(sgl_darray_local(ctx, x->c, &c));
    *ret = 0;
    for (long i = c.lo[0]; i < c.hi[0]; i++)
        for (long j = c.lo[1]; j < c.hi[1]; j++) {
            const double *t = sgl_dblock_at(&c, i, j, 0);
            for (size_t r = 0; r < x->bs; r++)
                for (size_t k = 0; k < x->bs; k++)
                    *ret ^= sgl_darray_checksum_element(
                        &t[r * x->bs + k], sizeof *t,
                        ((size_t)i * x->bs + r) * x->n + (size_t)j * x->bs + k);
        }
    return 0;
}

/* At a master: run the check below it and XOR what the children put. */
static int xor_children(sgl_ctx_t *ctx, sgl_task_fn task, const void *arg,
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
    uint64_t sum;
    if (sgl_ctx_is_master(ctx))
        SGL_TRY(xor_children(ctx, check_task, arg, size, &sum));
    else
        SGL_TRY(tiles_check(ctx, arg, &sum));
    return sgl_put(ctx, &sum, sizeof sum, 1);
}

/* One superstep of the program: a pardo, then (if something was staged)
 * the exchange that moves it. */
static int superstep(sgl_ctx_t *m, struct cannon_arg *x, const uint32_t *plan,
                     enum move adopt_m, int mult, enum move stage_m)
{
    x->adopt = adopt_m;
    x->adopt_plan = plan[adopt_m];
    x->multiply = (uint32_t)mult;
    x->stage = stage_m;
    x->stage_plan = plan[stage_m];
    SGL_TRY(step_task(m, x, sizeof *x));
    return stage_m == NONE ? 0 : sgl_exchange(m);
}

static int run(sgl_ctx_t *m, struct cannon_arg *x, const uint32_t *plan,
               size_t q, trasgo_result_t *r)
{
    double t0 = now();
    SGL_TRY(superstep(m, x, plan, NONE, 0, SKEW_A));
    SGL_TRY(superstep(m, x, plan, SKEW_A, 0, SKEW_B));
    for (size_t s = 0; s < q; s++) {
        int last = s + 1 == q;
        SGL_TRY(superstep(m, x, plan, s ? SHIFT_B : SKEW_B, 1,
                      last ? NONE : SHIFT_A));
        if (!last)
            SGL_TRY(superstep(m, x, plan, SHIFT_A, 0, SHIFT_B));
    }
    r->seconds = now() - t0;
    if (!sgl_ctx_is_master(m))
        return tiles_check(m, x, &r->check);
    return xor_children(m, check_task, x, sizeof *x, &r->check);
}

static int make_plans(sgl_ctx_t *m, sgl_darray_t *a, sgl_darray_t *b,
                      sgl_dplan_t **plans, uint32_t *ids)
{
    for (int k = SKEW_A; k < NMOVES; k++) {
        sgl_daccess_t acc;
        move_access((enum move)k, &acc);
        SGL_TRY(sgl_dplan_create(m, k == SKEW_A || k == SHIFT_A ? a : b, 1, &acc,
                             &plans[k]));
        ids[k] = sgl_dplan_id(plans[k]);
    }
    return 0;
}

/* C = A B, n x n, as q x q tiles; C's checksum into r->check. */
int cannon_run(sgl_ctx_t *m, size_t n, size_t q, trasgo_result_t *r)
{
    if (q == 0 || n % q)
        return sgl_error_set(SGL_EINVAL, "cannon: %zu is not a multiple of "
                                         "the %zu tiles per dimension",
                             n, q);
    size_t bs = n / q, size[2] = {q, q};
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 2, size, bs * bs * sizeof(double));
    sgl_darray_t *arr[3] = {NULL, NULL, NULL};
    sgl_dplan_t *plans[NMOVES] = {NULL};
    uint32_t ids[NMOVES] = {0};
    int rc = 0;
    for (int k = 0; k < 3 && !rc; k++)
        rc = sgl_darray_create(m, &l, &arr[k]);
    struct cannon_arg x = {sgl_darray_id(arr[0]), sgl_darray_id(arr[1]),
                           sgl_darray_id(arr[2]), 0, 0, 0, 0, 0, n, bs};
    if (!rc)
        rc = init_task(m, &x, sizeof x);
    double t0 = now();
    if (!rc)
        rc = make_plans(m, arr[0], arr[1], plans, ids);
    r->plan_seconds = now() - t0;
    for (unsigned lv = 0; !rc && lv < TRASGO_LEVELS; lv++)
        r->level_h[lv] = sgl_dplan_level_h(plans[SHIFT_A], lv);
    if (!rc)
        rc = sgl_dplan_stats(plans[SHIFT_A], &r->stats);
    if (!rc)
        rc = run(m, &x, ids, q, r);
    for (int k = SKEW_A; k < NMOVES; k++)
        sgl_dplan_free(m, plans[k]);
    for (int k = 0; k < 3; k++)
        sgl_darray_free(m, arr[k]);
    return rc;
}

/* Every process, in the same order, after sgl_algorithms_register(). */
int cannon_register(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_task_register(rt, step_task, "trasgo.cannon.step"));
    SGL_TRY(sgl_task_register(rt, init_task, "trasgo.cannon.init"));
    return sgl_task_register(rt, check_task, "trasgo.cannon.check");
}

#ifndef SGL_EXAMPLE_NO_MAIN
struct job {
    size_t n, q;
};

/* The product on the master, in the order the tiles sum (k = i + j + s
 * mod q for tile (i, j)); its checksum. */
static int sequential(const struct job *j, uint64_t *ret)
{
    size_t n = j->n, q = j->q, bs = n / q, t2 = bs * bs;
    double *a = malloc(3 * n * n * sizeof *a), *b = a + n * n, *c = b + n * n;
    if (!a)
        return sgl_error_set(SGL_ENOMEM, "cannon: out of memory");
    for (size_t e = 0; e < n * n; e++) { /* tile t, element e % t2 */
        size_t t = e / t2, gi = t / q * bs + e % t2 / bs,
               gj = t % q * bs + e % bs;
        a[e] = cannon_a(n, gi, gj);
        b[e] = cannon_b(n, gi, gj);
        c[e] = 0.0;
    }
    for (size_t i = 0; i < q; i++)
        for (size_t jj = 0; jj < q; jj++)
            for (size_t s = 0; s < q; s++) {
                size_t k = (i + jj + s) % q;
                tile_gemm(c + (i * q + jj) * t2, a + (i * q + k) * t2,
                          b + (k * q + jj) * t2, bs);
            }
    *ret = 0;
    for (size_t e = 0; e < n * n; e++) {
        size_t t = e / t2, gi = t / q * bs + e % t2 / bs,
               gj = t % q * bs + e % bs;
        *ret ^= sgl_darray_checksum_element(&c[e], sizeof *c, gi * n + gj);
    }
    free(a);
    return SGL_OK;
}

static int root_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    trasgo_result_t r;
    uint64_t want = 0;
    SGL_TRY(cannon_run(root, j->n, j->q, &r));
    SGL_TRY(sequential(j, &want));
    size_t p = sgl_ctx_workers(root);
    printf("cannon, %zu x %zu as %zu x %zu tiles on %zu worker%s: %s "
           "(checksum %016llx); %.3f ms\n",
           j->n, j->n, j->q, j->q, p, p == 1 ? "" : "s",
           r.check == want ? "the sequential product" : "WRONG",
           (unsigned long long)r.check, 1e3 * r.seconds);
    return r.check == want ? SGL_OK
                           : sgl_error_set(SGL_ETASK, "cannon: checksum "
                                           "%016llx, the sequential "
                                           "product's %016llx",
                                           (unsigned long long)r.check,
                                           (unsigned long long)want);
}

/* Run: [mpirun -n P] ./cannon [n] [q], n a multiple of q. */
int main(int argc, char **argv)
{
    struct job j = {argc > 1 ? strtoull(argv[1], NULL, 10) : 48,
                    argc > 2 ? strtoull(argv[2], NULL, 10) : 4};
    if (j.q == 0 || j.n == 0 || j.n % j.q) {
        fprintf(stderr, "usage: cannon [n] [q], n > 0 a multiple of q > 0\n");
        return 2;
    }
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc)
        rc = sgl_algorithms_register(rt);
    if (!rc)
        rc = cannon_register(rt);
    if (!rc)
        rc = sgl_run(rt, root_task, &j, sizeof j);
    if (rc)
        fprintf(stderr, "cannon: %s\n", sgl_error_last());
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
#endif
