/* The tree inside one process, from an hwloc topology (the running host or
 * an XML export). Only the levels that decide where data lives and what
 * threads share are kept: package, NUMA node, L3 cache, core. L2/L1 are
 * per core on the machines SGL targets and would only add single-child
 * levels; groups and dies carry no cost of their own in the model. */
#include <hwloc.h>

#include "machine_impl.h"

enum { NLEVELS = 3 };

static int os_index(hwloc_obj_t o)
{
    return o->os_index == HWLOC_UNKNOWN_INDEX ? -1 : (int)o->os_index;
}

/* In hwloc 2 NUMA nodes hang off the tree as memory children, so they are
 * no ancestor of a core: a core belongs to the NUMA node covering it. */
static hwloc_obj_t numa_of(hwloc_topology_t topo, hwloc_obj_t core)
{
    hwloc_obj_t numa = NULL;
    while ((numa = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, numa)))
        if (hwloc_bitmap_isincluded(core->cpuset, numa->cpuset))
            return numa;
    return NULL;
}

static int add(struct sgl_node *parent, const char *type, int os,
               struct sgl_node **ret)
{
    struct sgl_node *n = sgl__node_new(type, os);
    if (!n)
        return SGL_ENOMEM;
    int rc = sgl__node_add(parent, n);
    if (rc) {
        sgl__node_free(n);
        return rc;
    }
    parent->link = SGL_LINK_THREADS;
    *ret = n;
    return SGL_OK;
}

int sgl__hwloc_fill(struct sgl_node *parent, hwloc_topology_t topo,
                    hwloc_const_cpuset_t cpuset, unsigned max_cores)
{
    static const char *const names[NLEVELS] = {"package", "numa", "l3"};
    int have_cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0;
    hwloc_obj_type_t wtype = have_cores ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    hwloc_bitmap_t pus = hwloc_bitmap_alloc();
    if (!pus)
        return sgl_error_set(SGL_ENOMEM, "out of memory reading hwloc");

    /* Logical order lists the cores of one package, NUMA node or L3
     * together, so a core shares its group with the previous core or
     * starts a new one. */
    hwloc_obj_t last[NLEVELS] = {NULL};
    struct sgl_node *cur[NLEVELS] = {NULL};
    unsigned taken = 0;
    int rc = SGL_OK;
    hwloc_obj_t c = NULL;
    while (rc == SGL_OK && (max_cores == 0 || taken < max_cores) &&
           (c = hwloc_get_next_obj_by_type(topo, wtype, c))) {
        if (cpuset)
            hwloc_bitmap_and(pus, c->cpuset, cpuset);
        else
            hwloc_bitmap_copy(pus, c->cpuset);
        if (hwloc_bitmap_iszero(pus))
            continue;
        hwloc_obj_t key[NLEVELS] = {
            hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, c),
            numa_of(topo, c),
            hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_L3CACHE, c),
        };
        struct sgl_node *up = parent;
        hwloc_obj_t outer = NULL;
        for (int k = 0; k < NLEVELS && rc == SGL_OK; k++) {
            /* A NUMA node spanning packages (or an L3 spanning NUMA nodes)
             * is no part of the level above: it is left out. */
            if (key[k] && outer &&
                !hwloc_bitmap_isincluded(key[k]->cpuset, outer->cpuset))
                key[k] = NULL;
            if (!key[k]) {
                last[k] = NULL;
                continue;
            }
            outer = key[k];
            if (key[k] != last[k] || cur[k]->parent != up) {
                rc = add(up, names[k], os_index(key[k]), &cur[k]);
                last[k] = key[k];
            }
            up = cur[k];
        }
        struct sgl_node *w;
        if (rc == SGL_OK)
            rc = add(up, have_cores ? "core" : "pu", hwloc_bitmap_first(pus),
                     &w);
        taken++;
    }
    hwloc_bitmap_free(pus);
    if (rc == SGL_OK && taken == 0)
        rc = sgl_error_set(SGL_EHWLOC,
                           "hwloc found no %s in the process's cpuset",
                           have_cores ? "core" : "PU");
    return rc;
}
