/* Oversubscription: more worker threads in a process (or on a host) than
 * processing units to run them. sgl_init warns about it (and backs its
 * MPI waits off), and sgl-machine, which links only machine/, warns about
 * the same trees in the same words; both count here. */
#include <stdio.h>
#include <stdlib.h>

#include <hwloc.h>

#include "machine_impl.h"

int sgl__process_pus(struct hwloc_topology *topo)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set)
        return 0;
    int pus = hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0
                  ? hwloc_bitmap_weight(set)
                  : hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    hwloc_bitmap_free(set);
    return pus > 0 ? pus : 0;
}

size_t sgl__rank_workers(const sgl_machine_t *m, int rank)
{
    size_t mine = 0;
    for (size_t w = 0; w < sgl_machine_workers(m); w++)
        mine += sgl_node_rank(sgl_machine_worker(m, w)) == rank;
    return mine;
}

/* OpenMP's own barrier waits are libgomp's, out of SGL's reach: with
 * several threads a process its spinning threads take the cores the
 * others need (a 2-thread Pregel run was 2.5x faster with PASSIVE under
 * load), so the warning says what to set, unless the user already chose. */
static const char *omp_hint(size_t threads)
{
    const char *p = getenv("OMP_WAIT_POLICY");
    return threads > 1 && !(p && *p)
               ? "; set OMP_WAIT_POLICY=PASSIVE so that waiting OpenMP "
                 "threads sleep"
               : "";
}

int sgl__oversub_warning(char *buf, size_t size, int ranks, int rank,
                         size_t workers, size_t rank_workers, int pus)
{
    if (!(pus > 0 && workers > (size_t)pus))
        return 0;
    const char *pl_pu = pus == 1 ? "" : "s";
    if (ranks > 1)
        snprintf(buf, size,
                 "the %d ranks on this host run %zu worker threads on its "
                 "%d processing unit%s: oversubscribed, correct but not "
                 "meaningful for speed%s",
                 ranks, workers, pus, pl_pu, omp_hint(rank_workers));
    else
        snprintf(buf, size,
                 "rank %d runs %zu worker threads on %d processing unit%s: "
                 "oversubscribed, correct but not meaningful for speed%s",
                 rank, workers, pus, pl_pu, omp_hint(workers));
    return 1;
}
