/* The set-up warning when the ranks of one host together run more worker
 * threads than the host has processing units: two ranks on a 1-worker
 * tree each (fine wherever the host has 2 PUs), then on a tree of as many
 * workers as the host has PUs each (twice too many together). The
 * expectation comes from hwloc's count of the host's PUs. Run with
 * --bind-to none on one host; TAP from rank 0. */
#include <hwloc.h>
#include <stdio.h>
#include <string.h>

#include <sgl/sgl_mpi.h>

static int host_pus(void)
{
    hwloc_topology_t t;
    int n = -1;
    if (hwloc_topology_init(&t) == 0 && hwloc_topology_load(t) == 0)
        n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
    hwloc_topology_destroy(t);
    return n;
}

/* sgl_init_comm() on @shape: 1 if its warning says "@want" (NULL: no
 * warning at all), else 0 with the reason printed. */
static int check(const char *shape, const char *want, int rank)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    sgl_runtime_t *rt;
    if (sgl_init_comm(MPI_COMM_WORLD, &o, &rt)) {
        if (rank == 0)
            printf("# %s: %s\n", shape, sgl_error_last());
        return 0;
    }
    const char *w = sgl_runtime_warning(rt);
    int ok = want ? w && strstr(w, want) : !w;
    if (!ok && rank == 0)
        printf("# %s: warning \"%s\", expected %s%s%s\n", shape,
               w ? w : "(none)", want ? "\"" : "none", want ? want : "",
               want ? "\"" : "");
    sgl_finalize(rt);
    return ok;
}

int main(int argc, char **argv)
{
    int level;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &level);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int pus = host_pus();
    char shape[64], want[96];
    if (rank == 0)
        printf("1..2\n");
    /* one worker per rank: too many only if the host has fewer PUs */
    snprintf(want, sizeof want, "the %d ranks on this host run %d worker "
                                "threads on its %d processing units",
             size, size, pus);
    snprintf(shape, sizeof shape, "rank:%d", size);
    int ok = check(shape, size > pus ? want : NULL, rank);
    if (rank == 0)
        printf("%s 1 - %s (%d PUs)\n", ok ? "ok" : "not ok", shape, pus);
    /* every rank as many workers as the host has PUs */
    snprintf(shape, sizeof shape, "rank:%d core:%d", size, pus);
    snprintf(want, sizeof want, "the %d ranks on this host run %d worker "
                                "threads on its %d processing units",
             size, size * pus, pus);
    int ok2 = check(shape, want, rank);
    if (rank == 0)
        printf("%s 2 - %s (%d PUs)\n", ok2 ? "ok" : "not ok", shape, pus);
    MPI_Finalize();
    return ok && ok2 ? 0 : 1;
}
