/* Algorithm 2 of the SGL paper: parallel scan (prefix sums), in two
 * recursive steps whose local results stay on the nodes in between.
 *
 *   Step1(IN src, OUT mid)                Step2(IN mid, OUT res)
 *    1 if master then                     11 if master then
 *    2   par do                           12   scatter mid to x
 *    3     Step1(src, mid)                13   par do
 *    4     x := mid[len(mid)]             14     res := mid + x
 *    5   end par                          15     Step2(res, res)
 *    6   gather x to mid                  16   end par
 *    7   ShiftRight(mid)                  17 else
 *    8   LocalScan(mid, mid)              18   skip
 *    9 else
 *   10   LocalScan(src, mid)
 *
 * Line 4 hands up a node's total: a worker's last prefix, a master's sum
 * of its children's totals (after lines 7-8 its mid holds their exclusive
 * prefixes, the offsets its children add). Line 14 runs in the child, so
 * every node adds the x it receives before it scatters; the root receives
 * 0. Here src starts at the root (the run's argument) and each master
 * splits it by workers; each node keeps mid as its state between the
 * steps; a third program, Collect, brings the result back to the root to
 * check it.
 * Run: [mpirun -n 2] ./scan [n] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sgl/sgl.h>

#define TRY(call)                                                              \
    do {                                                                       \
        int rc_ = (call);                                                      \
        if (rc_)                                                               \
            return rc_;                                                        \
    } while (0)

/* A node's mid, kept between the steps. */
struct mid {
    size_t n;
    int64_t v[];
};

static void local_scan(const int64_t *src, int64_t *res, size_t n)
{
    if (n)
        res[0] = src[0];                                    /* 19 */
    for (size_t i = 1; i < n; i++)                          /* 20 */
        res[i] = res[i - 1] + src[i];                       /* 21 */
}

/* Only a master's mid is shifted, and it has one entry per child. */
static void shift_right(int64_t *lst, size_t n)
{
    for (size_t i = n - 1; i > 0; i--)                      /* 22 */
        lst[i] = lst[i - 1];                                /* 23 */
    lst[0] = 0;                                             /* 24 */
}

static int keep_mid(sgl_ctx_t *ctx, size_t n, struct mid **ret)
{
    struct mid *m = malloc(sizeof *m + n * sizeof m->v[0]);
    if (!m)
        return sgl_error_set(SGL_ENOMEM, "scan: no memory for mid");
    m->n = n;
    sgl_ctx_set_state(ctx, m, free);
    *ret = m;
    return SGL_OK;
}

static int step1(sgl_ctx_t *ctx, const void *arg, size_t arg_size)
{
    (void)arg, (void)arg_size;
    int64_t *src, total;
    size_t n;
    struct mid *mid = NULL;
    TRY(sgl_recv(ctx, sizeof *src, (void **)&src, &n));     /* IN src */
    if (sgl_ctx_is_master(ctx)) {                           /* 1 */
        TRY(sgl_scatter_split(ctx, src, sizeof *src, n, NULL));
        TRY(sgl_pardo(ctx, step1, NULL, 0));                /* 2-5 */
        size_t p = sgl_ctx_children(ctx);
        TRY(keep_mid(ctx, p, &mid));
        TRY(sgl_gather(ctx, mid->v, sizeof mid->v[0], p, NULL)); /* 6 */
        total = mid->v[p - 1];
        shift_right(mid->v, p);                             /* 7 */
        local_scan(mid->v, mid->v, p);                      /* 8 */
        total += mid->v[p - 1];
    } else {                                                /* 9 */
        TRY(keep_mid(ctx, n, &mid));
        local_scan(src, mid->v, n);                         /* 10 */
        total = n ? mid->v[n - 1] : 0;
    }
    return sgl_put(ctx, &total, sizeof total, 1);           /* 4 */
}

static int step2(sgl_ctx_t *ctx, const void *arg, size_t arg_size)
{
    (void)arg, (void)arg_size;
    int64_t *x;
    size_t one;
    struct mid *mid = sgl_ctx_state(ctx);
    TRY(sgl_recv(ctx, sizeof *x, (void **)&x, &one));       /* IN x */
    for (size_t i = 0; i < mid->n; i++)                     /* 14 */
        mid->v[i] += *x;
    if (!sgl_ctx_is_master(ctx))                            /* 17-18 */
        return SGL_OK;
    for (unsigned i = 0; i < sgl_ctx_children(ctx); i++) {  /* 11-12 */
        int64_t *xi;
        TRY(sgl_scatter_buffer(ctx, i, sizeof *xi, 1, (void **)&xi));
        *xi = mid->v[i];
    }
    return sgl_pardo(ctx, step2, NULL, 0);                  /* 13-16 */
}

/* Not in the paper: the workers' results back to the root, in order. */
static int collect(sgl_ctx_t *ctx, const void *arg, size_t arg_size)
{
    (void)arg, (void)arg_size;
    const struct mid *mid = sgl_ctx_state(ctx);
    if (!sgl_ctx_is_master(ctx))
        return sgl_put(ctx, mid->v, sizeof mid->v[0], mid->n);
    int64_t *res;
    size_t n;
    TRY(sgl_pardo(ctx, collect, NULL, 0));
    TRY(sgl_gather_alloc(ctx, sizeof *res, (void **)&res, &n, NULL));
    int rc = sgl_put(ctx, res, sizeof *res, n);
    free(res);
    return rc;
}

/* The scan of @src checked against a sequential one. */
static int check(sgl_runtime_t *rt, const int64_t *src, size_t n)
{
    const int64_t *res;
    size_t count;
    TRY(sgl_run_result(rt, sizeof *res, (const void **)&res, &count));
    int64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        s += src[i];
        if (count != n || res[i] != s)
            return sgl_error_set(SGL_ETASK, "prefix %zu is %lld, not %lld",
                                 i, count == n ? (long long)res[i] : -1LL,
                                 (long long)s);
    }
    printf("scan of %zu numbers correct on %zu workers, total %lld\n", n,
           sgl_machine_workers(sgl_runtime_machine(rt)), (long long)s);
    return SGL_OK;
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt = NULL;
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    int64_t *x = malloc((n ? n : 1) * sizeof *x), zero = 0;
    int rc = x ? sgl_init(&argc, &argv, NULL, &rt)
               : sgl_error_set(SGL_ENOMEM, "no memory for %zu numbers", n);
    for (size_t i = 0; x && i < n; i++)
        x[i] = (int64_t)(i % 7) - 3;
    if (!rc && !(rc = sgl_task_register(rt, step1, "step1")) &&
        !(rc = sgl_task_register(rt, step2, "step2")) &&
        !(rc = sgl_task_register(rt, collect, "collect")) &&
        !(rc = sgl_run(rt, step1, x, n * sizeof *x)) &&
        !(rc = sgl_run(rt, step2, &zero, sizeof zero)) &&
        !(rc = sgl_run(rt, collect, NULL, 0)) && sgl_runtime_rank(rt) == 0)
        rc = check(rt, x, n);
    if (rc)
        fprintf(stderr, "scan: %s\n", sgl_last_error());
    free(x);
    return sgl_finalize(rt) || rc ? 1 : 0;
}
