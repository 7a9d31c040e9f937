/* OpenMP's placement variables are the user's. Without OMP_PLACES and
 * OMP_PROC_BIND, SGL binds each worker thread of the discovered tree to
 * its core; with them, it leaves the threads where OpenMP put them. Run
 * as "omp_places sgl" with neither variable set, and as "omp_places omp"
 * with OMP_PLACES="{0,1}" and OMP_PROC_BIND=true: OpenMP then binds every
 * thread to the one place of PUs 0 and 1 (the main thread at start-up,
 * before SGL), and a worker found on one PU alone was moved by SGL. TAP. */
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/sgl.h>

#define MAX_WORKERS 256

static hwloc_topology_t topo;
static char where[MAX_WORKERS][64]; /* each worker's binding, as a list */

static int record(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg;
    (void)size;
    if (!sgl_ctx_is_worker(ctx))
        return sgl_pardo(ctx, record, NULL, 0);
    size_t w = sgl_ctx_first_worker(ctx);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (w < MAX_WORKERS && set &&
        hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_THREAD) == 0)
        hwloc_bitmap_list_snprintf(where[w], sizeof where[w], set);
    hwloc_bitmap_free(set);
    return SGL_OK;
}

int main(int argc, char **argv)
{
    int omp = argc > 1 && strcmp(argv[1], "omp") == 0;
    if (hwloc_topology_init(&topo) || hwloc_topology_load(topo)) {
        printf("Bail out! hwloc cannot load this machine's topology\n");
        return 1;
    }
    /* Where OpenMP put the main thread, before SGL starts. */
    char placed[64] = "?";
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_THREAD) == 0)
        hwloc_bitmap_list_snprintf(placed, sizeof placed, set);
    hwloc_bitmap_free(set);
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt)) {
        printf("Bail out! %s\n", sgl_error_last());
        return 1;
    }
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    size_t workers = sgl_machine_workers(m);
    if (workers < 2 || workers > MAX_WORKERS ||
        sgl_node_os_index(sgl_machine_worker(m, 1)) < 0) {
        printf("1..0 # SKIP the discovered tree has %zu workers; the test "
               "needs 2 to %d cores\n",
               workers, MAX_WORKERS);
        sgl_finalize(rt);
        return 0;
    }
    printf("1..%zu\n", workers);
    int rc = sgl_run(rt, record, NULL, 0);
    for (size_t w = 0; w < workers; w++) {
        /* With OpenMP's places: the main thread's place, for every
         * thread. Without: the PUs of the worker's core, as SGL binds it. */
        char want[64];
        snprintf(want, sizeof want, "%s", placed);
        if (!omp) {
            int pu = sgl_node_os_index(sgl_machine_worker(m, w));
            hwloc_obj_t o = hwloc_get_pu_obj_by_os_index(topo, (unsigned)pu);
            hwloc_obj_t core =
                o ? hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, o)
                  : NULL;
            hwloc_bitmap_list_snprintf(want, sizeof want,
                                       core ? core->cpuset : o->cpuset);
        }
        int ok = rc == SGL_OK && strcmp(where[w], want) == 0;
        printf("%s %zu - worker %zu runs on PUs %s (%s)\n",
               ok ? "ok" : "not ok", w + 1, w, rc ? "?" : where[w],
               ok ? "as expected"
                  : omp ? "expected OpenMP's place: SGL moved the thread"
                        : "expected its core's PUs");
        if (!ok)
            printf("# expected %s%s%s\n", want, rc ? ": " : "",
                   rc ? sgl_error_last() : "");
    }
    sgl_finalize(rt);
    hwloc_topology_destroy(topo);
    return 0;
}
