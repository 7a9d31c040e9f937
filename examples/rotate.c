/* The Trasgo paper's illustrative example (its figures 1-3), the STL's
 * rotate with a function applied:
 *
 *     for i in 0..n-1:  M2[i] = f(M[(i + rot) mod n])
 *
 * on any partition of M and M2 (they share it) and any rot, also larger
 * than a block or than n. The plan's one access is the loop's read; its
 * view on each worker is the range [first + rot, last + rot] of M,
 * unwrapped, brought from its owners.
 *
 * Run, it uses an uneven partition (worker k owns about k + 1 shares),
 * prints every worker's block and what its loop reads, then M and M2, and
 * checks M2 against the sequential loop:
 *
 *     [mpirun -n P] ./rotate [n] [rot]
 *
 * Self-contained: the installed headers and libc only, so it builds with
 *     cc rotate.c $(pkg-config --cflags --libs sgl) -o rotate
 * The tests and bench/ also compile it (without its main) into their
 * Trasgo library, through trasgo.h. */
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
    double seconds;        /* the timed loop */
    sgl_dplan_stats_t stats; /* of the plan */
    size_t level_h[TRASGO_LEVELS]; /* its h per level, bytes */
} trasgo_result_t;
#endif

int rotate_run(sgl_ctx_t *master, size_t n, long rot, const size_t *cuts,
               double *out, trasgo_result_t *ret);
int rotate_register(sgl_runtime_t *rt);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* M's start: uniform in [0, 1), a function of the index only, so the same
 * on every partition (the tests' references use the same formula). */
static double initial(uint64_t i)
{
    return (double)((i * UINT64_C(0x9E3779B97F4A7C15)) >> 11) * 0x1.0p-53;
}

static double f(double x) { return 2.0 * x + 1.0; }

struct rotate_arg {
    uint32_t plan, m, m2;
    uint32_t pad;
    int64_t rot;
};

static int fill_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, fill_task, arg, size);
    const struct rotate_arg *a = arg;
    sgl_dblock_t m;
    SGL_TRY(sgl_darray_local(ctx, a->m, &m));
    for (long i = m.lo[0]; i < m.hi[0]; i++)
        *(double *)sgl_dblock_at(&m, i, 0, 0) = initial((uint64_t)i);
    return 0;
}

static int stage_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, stage_task, arg, size);
    const struct rotate_arg *a = arg;
    return sgl_dplan_stage(ctx, a->plan, a->m);
}

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

/* Fill M, plan the loop's read, run the loop (one exchange, one pardo). */
static int rotate(sgl_ctx_t *m, sgl_darray_t *arr[2], long rot,
                  sgl_dplan_t **plan, trasgo_result_t *r)
{
    struct rotate_arg a = {0, sgl_darray_id(arr[0]), sgl_darray_id(arr[1]),
                           0, rot};
    SGL_TRY(fill_task(m, &a, sizeof a));
    sgl_daccess_t acc;
    sgl_daccess_shift(&acc, 1, &rot, SGL_PERIODIC_ALL);
    double t0 = now();
    SGL_TRY(sgl_dplan_create(m, arr[0], 1, &acc, plan));
    r->plan_seconds = now() - t0;
    for (unsigned l = 0; l < TRASGO_LEVELS; l++)
        r->level_h[l] = sgl_dplan_level_h(*plan, l);
    SGL_TRY(sgl_dplan_stats(*plan, &r->stats));
    a.plan = sgl_dplan_id(*plan);
    t0 = now();
    SGL_TRY(stage_task(m, &a, sizeof a));
    SGL_TRY(sgl_exchange(m));
    SGL_TRY(rotate_task(m, &a, sizeof a));
    r->seconds = now() - t0;
    return sgl_darray_checksum(m, arr[1], &r->check);
}

/* M2 = f(M rotated by rot) on n doubles cut at @cuts (NULL: even blocks);
 * @out: NULL, or n elements that receive M2 at the master. */
int rotate_run(sgl_ctx_t *m, size_t n, long rot, const size_t *cuts,
               double *out, trasgo_result_t *r)
{
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 1, &n, sizeof(double));
    l.cuts[0] = cuts;
    sgl_darray_t *arr[2] = {NULL, NULL};
    sgl_dplan_t *plan = NULL;
    int rc = sgl_darray_create(m, &l, &arr[0]);
    if (!rc)
        rc = sgl_darray_create(m, &l, &arr[1]);
    if (!rc)
        rc = rotate(m, arr, rot, &plan, r);
    if (!rc && out)
        rc = sgl_darray_gather(m, arr[1], out, n);
    sgl_dplan_free(m, plan);
    sgl_darray_free(m, arr[1]);
    sgl_darray_free(m, arr[0]);
    return rc;
}

/* Every process, in the same order, after sgl_algorithms_register(). */
int rotate_register(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_task_register(rt, rotate_task, "trasgo.rotate"));
    SGL_TRY(sgl_task_register(rt, stage_task, "trasgo.rotate.stage"));
    return sgl_task_register(rt, fill_task, "trasgo.rotate.fill");
}

#ifndef SGL_EXAMPLE_NO_MAIN
struct job {
    size_t n;
    long rot;
};

/* Worker k gets about k + 1 shares of the n elements. */
static size_t *cuts_of(size_t n, size_t p)
{
    size_t *c = malloc((p + 1) * sizeof *c), shares = p * (p + 1) / 2;
    for (size_t k = 0, acc = 0; c && k <= p; acc += ++k)
        c[k] = n * acc / shares;
    return c;
}

static long wrap(long x, long n) { return ((x % n) + n) % n; }

static void print_reads(const struct job *j, const size_t *cuts, size_t p)
{
    for (size_t w = 0; w < p; w++) {
        long lo = (long)cuts[w], hi = (long)cuts[w + 1], n = (long)j->n;
        printf("worker %zu owns [%ld, %ld) and reads [%ld, %ld): indices "
               "%ld..%ld\n",
               w, lo, hi, lo + j->rot, hi + j->rot, wrap(lo + j->rot, n),
               wrap(hi - 1 + j->rot, n));
    }
}

/* Compare M2 with the sequential loop; the count of wrong elements. */
static size_t compare(const struct job *j, const double *m2)
{
    size_t wrong = 0;
    for (size_t i = 0; i < j->n; i++) {
        double want = f(initial((uint64_t)wrap((long)i + j->rot, (long)j->n)));
        wrong += m2[i] != want;
        if (j->n <= 64)
            printf("  i %3zu  M %.6f  M2 %.6f%s\n", i, initial(i), m2[i],
                   m2[i] != want ? "  WRONG" : "");
    }
    return wrong;
}

static int run(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    size_t p = sgl_ctx_workers(root);
    size_t *cuts = cuts_of(j->n, p);
    double *m2 = malloc(j->n * sizeof *m2);
    trasgo_result_t r;
    int rc = cuts && m2 ? rotate_run(root, j->n, j->rot, cuts, m2, &r)
                        : sgl_error_set(SGL_ENOMEM, "rotate: out of memory");
    size_t wrong = 0;
    if (!rc) {
        print_reads(j, cuts, p);
        wrong = compare(j, m2);
        printf("%zu elements, rot %ld: %s; the plan sent %zu messages, %zu "
               "bytes between workers, %zu within them\n",
               j->n, j->rot, wrong ? "WRONG" : "M2 is the sequential loop's",
               r.stats.messages, r.stats.bytes, r.stats.local_bytes);
    }
    free(cuts);
    free(m2);
    return rc ? rc : wrong ? SGL_ETASK : SGL_OK;
}

int main(int argc, char **argv)
{
    struct job j = {argc > 1 ? strtoull(argv[1], NULL, 10) : 25,
                    argc > 2 ? strtol(argv[2], NULL, 10) : 11};
    if (j.n == 0) {
        fprintf(stderr, "usage: rotate [n > 0] [rot]\n");
        return 2;
    }
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc)
        rc = sgl_algorithms_register(rt);
    if (!rc)
        rc = rotate_register(rt);
    if (!rc)
        rc = sgl_run(rt, run, &j, sizeof j);
    if (rc)
        fprintf(stderr, "rotate: %s\n", sgl_error_last());
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
#endif
