/* Discovery under mpiexec -n N: every rank must build the same tree, with
 * one process per rank numbered as in MPI_COMM_WORLD, each process holding
 * exactly the cores its rank is bound to, and ranks grouped by the
 * shared-memory node they are on.
 *
 * A plain main(), not Criterion: Criterion forks per test, and under
 * mpirun only one MPI_Init works per process. Every rank checks, rank 0
 * reports, and all ranks exit 0 only if no rank found a fault. */
#include <hwloc.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/machine.h>

static int me, size, faults;

__attribute__((format(printf, 1, 2))) static void fault(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "rank %d: ", me);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    faults++;
}

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

/* The first PU of each core this rank is bound to, in logical order,
 * found with hwloc alone. */
static unsigned bound_cores(int *first_pu, unsigned cap)
{
    hwloc_topology_t t;
    hwloc_topology_init(&t);
    hwloc_topology_load(t);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_get_cpubind(t, set, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_and(set, set, hwloc_topology_get_allowed_cpuset(t));
    unsigned n = 0;
    hwloc_obj_t c = NULL;
    while ((c = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_CORE, c))) {
        hwloc_bitmap_t both = hwloc_bitmap_alloc();
        hwloc_bitmap_and(both, c->cpuset, set);
        if (!hwloc_bitmap_iszero(both) && n < cap)
            first_pu[n++] = hwloc_bitmap_first(both);
        hwloc_bitmap_free(both);
    }
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(t);
    return n;
}

/* The node standing for rank r's host: the host name moves down when a
 * host's single rank is collapsed into it, but stays above its workers. */
static const sgl_node_t *host_of(const sgl_machine_t *m, int r)
{
    for (size_t i = 0; i < sgl_machine_workers(m); i++) {
        const sgl_node_t *n = sgl_machine_worker(m, i);
        if (sgl_node_rank(n) != r)
            continue;
        for (; n; n = sgl_node_parent(n))
            if (sgl_node_host(n))
                return n;
        return NULL;
    }
    return NULL;
}

static void check_identical(const sgl_machine_t *m)
{
    char *json = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&json, &len);
    if (!f || sgl_machine_write_json(m, f) || fclose(f)) {
        fault("cannot write the tree as JSON");
        return;
    }
    uint64_t h[2] = {fnv1a(json, len), len}, lo[2], hi[2];
    free(json);
    MPI_Allreduce(h, lo, 2, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(h, hi, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (lo[0] != hi[0] || lo[1] != hi[1])
        fault("ranks built different trees (JSON hash or length differs)");
}

static void check_processes(const sgl_machine_t *m)
{
    if (sgl_machine_processes(m) != (size_t)size)
        fault("%zu processes for %d ranks", sgl_machine_processes(m), size);
    if (sgl_node_rank(sgl_machine_root(m)) != 0)
        fault("root played by rank %d", sgl_node_rank(sgl_machine_root(m)));
    int pu[1024];
    unsigned want = bound_cores(pu, 1024);
    unsigned mine = 0;
    for (size_t i = 0; i < sgl_machine_workers(m); i++) {
        const sgl_node_t *w = sgl_machine_worker(m, i);
        int r = sgl_node_rank(w);
        if (r < 0 || r >= size)
            fault("worker %zu has rank %d", i, r);
        if (r != me)
            continue;
        if (mine < want && sgl_node_os_index(w) != pu[mine])
            fault("my worker %u is on PU %d, hwloc says %d", mine,
                  sgl_node_os_index(w), pu[mine]);
        mine++;
        /* The process subtree is played by my rank up to its MPI link. */
        const sgl_node_t *n = w;
        while (sgl_node_parent(n) &&
               sgl_node_link(sgl_node_parent(n)) != SGL_LINK_MPI)
            n = sgl_node_parent(n);
        if (sgl_node_rank(n) != me)
            fault("my process node is played by rank %d", sgl_node_rank(n));
    }
    if (mine != want)
        fault("%u workers of my rank, but I am bound to %u cores", mine, want);
}

static void check_hosts(const sgl_machine_t *m)
{
    MPI_Comm shm;
    int leader;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me,
                        MPI_INFO_NULL, &shm);
    MPI_Allreduce(&me, &leader, 1, MPI_INT, MPI_MIN, shm);
    MPI_Comm_free(&shm);
    int *leaders = malloc((size_t)size * sizeof *leaders);
    MPI_Allgather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, MPI_COMM_WORLD);
    const sgl_node_t *mine = host_of(m, me);
    char name[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(name, &len);
    if (!mine)
        fault("no node with a host name above my workers");
    else if (strcmp(sgl_node_host(mine), name) != 0)
        fault("my host is '%s', MPI says '%s'", sgl_node_host(mine), name);
    for (int r = 0; r < size; r++)
        if ((leaders[r] == leader) != (host_of(m, r) == mine))
            fault("rank %d is %s my node in the tree but %s by MPI", r,
                  host_of(m, r) == mine ? "on" : "off",
                  leaders[r] == leader ? "on it" : "off it");
    free(leaders);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    sgl_machine_t *m = NULL;
    int rc = sgl_machine_discover(NULL, &m);
    if (rc) {
        fault("discovery failed: %s", sgl_error_last());
    } else {
        char want[64];
        snprintf(want, sizeof want, "discovered: %d MPI rank", size);
        if (strncmp(sgl_machine_source(m), want, strlen(want)) != 0)
            fault("source is '%s'", sgl_machine_source(m));
        check_identical(m);
        check_processes(m);
        check_hosts(m);
    }

    int total = 0;
    MPI_Allreduce(&faults, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0) {
        if (total == 0)
            printf("ok: %d ranks, %zu workers, %zu processes\n", size,
                   sgl_machine_workers(m), sgl_machine_processes(m));
        else
            printf("FAIL: %d faults over %d ranks\n", total, size);
    }
    sgl_machine_free(m);
    MPI_Finalize();
    return total ? 1 : 0;
}
