/* SGL inside half of an MPI application: MPI_COMM_WORLD is split in two,
 * each half runs its own runtime (discovery and every collective on its
 * own communicator) and a reduction at the same time as the other, then
 * the application keeps using MPI on MPI_COMM_WORLD. A runtime that used
 * MPI_COMM_WORLD anywhere would hang or mix the halves up. TAP from world
 * rank 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/algorithms.h>
#include <sgl/sgl_mpi.h>

enum { N = 100003 };

struct half_run {
    int color;
};

/* Half c sums c + i for i < N, so a mix-up of halves shows in the sum. */
static int sum_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct half_run *h = arg;
    double *x = malloc(N * sizeof *x), r = 0;
    if (!x)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    for (size_t i = 0; i < N; i++)
        x[i] = (double)h->color + (double)i;
    int rc = sgl_reduce(root, SGL_F64, SGL_OP_SUM, x, N, &r);
    free(x);
    double want = (double)h->color * N + (double)N * (N - 1) / 2;
    if (rc == SGL_OK && r != want)
        rc = sgl_error_set(SGL_ETASK, "half %d: sum %.17g, expected %.17g",
                           h->color, r, want);
    return rc;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0)
            printf("1..0 # SKIP needs 2 or more ranks\n");
        MPI_Finalize();
        return 0;
    }
    struct half_run h = {.color = rank < size / 2 ? 0 : 1};
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, h.color, rank, &half);
    int hsize;
    MPI_Comm_size(half, &hsize);

    /* Both halves at once, each on its own communicator. */
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init_comm(half, NULL, &rt);
    size_t procs = 0;
    char source[128] = "";
    if (rc == SGL_OK) {
        procs = sgl_machine_processes(sgl_runtime_machine(rt));
        snprintf(source, sizeof source, "%s",
                 sgl_machine_source(sgl_runtime_machine(rt)));
        rc = sgl_algorithms_register(rt);
        if (rc == SGL_OK)
            rc = sgl_run(rt, sum_main, &h, sizeof h);
        if (rc == SGL_OK && procs != (size_t)hsize)
            rc = sgl_error_set(SGL_ESHAPE, "the tree has %zu processes, "
                                           "the half %d",
                               procs, hsize);
    }
    char msg[256];
    snprintf(msg, sizeof msg, "%s%s%s", sgl_error_name(rc), rc ? ": " : "",
             rc ? sgl_error_last() : "");
    if (rt)
        sgl_finalize(rt);
    MPI_Comm_free(&half);

    /* The application goes on with MPI: every rank's verdict and message
     * reach world rank 0. */
    int all_rc[2] = {0, 0}, mine[2] = {0, 0};
    mine[h.color] = rc != SGL_OK;
    MPI_Reduce(mine, all_rc, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    char *msgs = rank == 0 ? malloc((size_t)size * sizeof msg) : NULL;
    char *srcs = rank == 0 ? malloc((size_t)size * sizeof source) : NULL;
    MPI_Gather(msg, sizeof msg, MPI_CHAR, msgs, sizeof msg, MPI_CHAR, 0,
               MPI_COMM_WORLD);
    MPI_Gather(source, sizeof source, MPI_CHAR, srcs, sizeof source,
               MPI_CHAR, 0, MPI_COMM_WORLD);
    int failed = 0;
    if (rank == 0) {
        printf("1..3\n");
        for (int c = 0; c < 2; c++) {
            int first = c == 0 ? 0 : size / 2;
            int n = c == 0 ? size / 2 : size - size / 2;
            printf("%s %d - half %d (%d ranks, %s): reduction %s\n",
                   all_rc[c] ? "not ok" : "ok", c + 1, c, n,
                   srcs + (size_t)first * sizeof source,
                   msgs + (size_t)first * sizeof msg);
            for (int r = first; all_rc[c] && r < first + n; r++)
                printf("# rank %d: %s\n", r, msgs + (size_t)r * sizeof msg);
            failed |= all_rc[c];
        }
    }
    /* World collectives still work after both runtimes are gone. */
    int one = 1, total = 0;
    int mrc = MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        int ok = mrc == MPI_SUCCESS && total == size;
        printf("%s 3 - MPI_COMM_WORLD usable after sgl_finalize: %d of %d "
               "ranks answered\n",
               ok ? "ok" : "not ok", total, size);
        failed |= !ok;
    }
    free(msgs);
    free(srcs);
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return failed;
}
