/* MPI started with MPI_THREAD_SINGLE (all that SimGrid's SMPI gives): a
 * tree of MPI levels only starts no thread and must run; a tree with a
 * thread level must be refused, on every rank, with SGL_EMPI and a
 * message that names the thread level and the shape that would run.
 * Run under mpiexec -n 2; TAP from rank 0. */
#include <stdio.h>
#include <string.h>

#include <sgl/sgl.h>
#include <sgl/sgl_mpi.h>

static int put_rank(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    if (sgl_ctx_is_master(ctx)) {
        int rc = sgl_pardo(ctx, put_rank, NULL, 0);
        int got[2] = {-1, -1};
        if (rc == SGL_OK)
            rc = sgl_gather(ctx, got, sizeof *got, 2, NULL);
        return rc ? rc : sgl_put(ctx, got, sizeof *got, 2);
    }
    int me = (int)sgl_ctx_first_worker(ctx);
    return sgl_put(ctx, &me, sizeof me, 1);
}

/* A run on "rank:2": the root gets both workers' indices. */
static int runs_single(int rank)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = "rank:2";
    sgl_runtime_t *rt;
    int rc = sgl_init_comm(MPI_COMM_WORLD, &o, &rt);
    if (rc != SGL_OK) {
        if (rank == 0)
            printf("# rank:2: %s\n", sgl_error_last());
        return 0;
    }
    rc = sgl_task_register(rt, put_rank, "put_rank");
    if (rc == SGL_OK)
        rc = sgl_run(rt, put_rank, NULL, 0);
    const int *out = NULL;
    size_t count = 0;
    int ok = rc == SGL_OK;
    if (ok && rank == 0)
        ok = sgl_run_result(rt, sizeof *out, (const void **)&out, &count) ==
                 SGL_OK && count == 2 && out[0] == 0 && out[1] == 1;
    if (!ok && rank == 0)
        printf("# rank:2 run: %s\n", rc ? sgl_error_last() : "wrong result");
    sgl_finalize(rt);
    return ok;
}

/* "rank:2 core:2" has a thread level: refused with SGL_EMPI. */
static int refuses_threads(int rank)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = "rank:2 core:2";
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init_comm(MPI_COMM_WORLD, &o, &rt);
    const char *msg = sgl_error_last();
    int ok = rc == SGL_EMPI && strstr(msg, "thread level") &&
             strstr(msg, "MPI_THREAD_FUNNELED");
    if (!ok && rank == 0)
        printf("# rank:2 core:2: status %d, \"%s\"\n", rc, msg);
    if (rc == SGL_OK)
        sgl_finalize(rt);
    return ok;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (provided != MPI_THREAD_SINGLE) {
        if (rank == 0)
            printf("1..0 # SKIP the MPI gives thread level %d for "
                   "MPI_THREAD_SINGLE\n", provided);
        MPI_Finalize();
        return 77;
    }
    if (rank == 0)
        printf("1..2\n");
    int a = runs_single(rank);
    int b = refuses_threads(rank);
    if (rank == 0) {
        printf("%s 1 - MPI_THREAD_SINGLE runs a tree of MPI levels only\n",
               a ? "ok" : "not ok");
        printf("%s 2 - MPI_THREAD_SINGLE refuses a thread level, clearly\n",
               b ? "ok" : "not ok");
    }
    MPI_Finalize();
    return a && b ? 0 : 1;
}
