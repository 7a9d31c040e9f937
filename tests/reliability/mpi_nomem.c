/* A rank that cannot allocate a command must answer it with SGL_ENOMEM
 * instead of leaving its master waiting. Rank SGL_TEST_RANK limits its own
 * address space after sgl_init() to what it uses then plus 16 MiB (a fixed
 * ulimit -v before exec would depend on how much Open MPI maps), so it has
 * no room for a 40 or 80 MB block: every rank's sgl_run returns SGL_ENOMEM with the same message,
 * naming that rank, and the runtime runs the next program. Both the
 * runtime's own large scatter and sgl_reduce of 1e7 doubles from the root
 * (the reported hang) are tried. TAP on rank 0. */
#include <stdlib.h>
#include <sys/resource.h>

#include <mpi.h>

#include <sgl/algorithms.h>
#include <sgl/sgl.h>
#include "tap.h"

enum { BIG = 20000000 }; /* doubles: 160 MB, over the limited rank's room */

static int sum_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    double *x, s = 0;
    size_t n;
    int rc = sgl_recv(ctx, sizeof *x, (void **)&x, &n);
    for (size_t i = 0; !rc && i < n; i++)
        s += x[i];
    if (!rc && sgl_ctx_is_master(ctx)) {
        double *part;
        size_t p;
        if (!(rc = sgl_scatter_split(ctx, x, sizeof *x, n, NULL)) &&
            !(rc = sgl_pardo(ctx, sum_task, NULL, 0)) &&
            !(rc = sgl_gather_alloc(ctx, sizeof *part, (void **)&part, &p,
                                    NULL))) {
            s = 0;
            for (size_t i = 0; i < p; i++)
                s += part[i];
            free(part);
        }
    }
    return rc ? rc : sgl_put(ctx, &s, sizeof s, 1);
}

static int reduce_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    double *x = calloc(BIG, sizeof *x), r;
    if (!x)
        return sgl_error_set(SGL_ENOMEM, "the root has no memory for the "
                                         "input");
    int rc = sgl_reduce(root, SGL_F64, SGL_OP_SUM, x, BIG, &r);
    free(x);
    return rc;
}

/* The run's status must be @want on every rank, with one message. */
static void expect_all(sgl_runtime_t *rt, const char *what, int rc, int want)
{
    int rank = sgl_runtime_rank(rt);
    unsigned long h = 5381;
    for (const char *c = rc ? sgl_error_last() : ""; *c; c++)
        h = h * 33 + (unsigned char)*c;
    unsigned long hs[2] = {h, (unsigned long)(rc == want)}, lo[2], hi[2];
    MPI_Allreduce(hs, lo, 2, MPI_UNSIGNED_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(hs, hi, 2, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (rank != 0)
        return;
    tap_expect(what, rc, want);
    tap_ok("every rank has that status and the same message",
           lo[1] == 1 && lo[0] == hi[0], NULL);
}

/* Limit this process's address space to its current size plus @extra. */
static int limit_memory(size_t extra)
{
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%lu", &pages) != 1) {
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f);
    rlim_t now = (rlim_t)pages * 4096;
    struct rlimit r = {now + extra, now + extra};
    return setrlimit(RLIMIT_AS, &r);
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (rc) {
        printf("not ok 1 - sgl_init: %s\n", sgl_error_last());
        return 1;
    }
    const char *limited = getenv("SGL_TEST_RANK");
    if (limited && atoi(limited) == sgl_runtime_rank(rt) &&
        limit_memory((size_t)16 << 20) != 0) {
        printf("not ok 1 - rank %s cannot limit its memory\n", limited);
        return 1;
    }
    tap_quiet = sgl_runtime_rank(rt) != 0;
    if ((rc = sgl_algorithms_register(rt)) ||
        (rc = sgl_task_register(rt, sum_task, "sum_task"))) {
        printf("not ok 1 - registration: %s\n", sgl_error_last());
        return 1;
    }
    /* Only the root reads the run's argument: the limited rank has no
     * room for it and passes nothing. */
    double *x = sgl_runtime_rank(rt) == 0 ? calloc(BIG, sizeof *x) : NULL;
    if (sgl_runtime_rank(rt) == 0 && !x) {
        printf("not ok 1 - the root has no memory for the input\n");
        return 1;
    }
    rc = sgl_run(rt, sum_task, x, x ? (size_t)BIG * sizeof *x : 0);
    expect_all(rt, "scatter of 40-80 MB per child to a rank without room", rc,
               SGL_ENOMEM);
    free(x);
    rc = sgl_run(rt, reduce_main, NULL, 0);
    expect_all(rt, "sgl_reduce of 2e7 doubles with a rank without room", rc,
               SGL_ENOMEM);
    double small[1000];
    for (int i = 0; i < 1000; i++)
        small[i] = i;
    rc = sgl_run(rt, sum_task, small, sizeof small);
    const double *r = NULL;
    size_t nr = 0;
    if (!rc && sgl_runtime_rank(rt) == 0)
        rc = sgl_run_result(rt, sizeof *r, (const void **)&r, &nr);
    expect_all(rt, "the next program runs", rc, SGL_OK);
    if (sgl_runtime_rank(rt) == 0)
        tap_ok("and sums 0..999", nr == 1 && r[0] == 499500.0, NULL);
    int failed = tap_done();
    sgl_finalize(rt);
    return failed;
}
