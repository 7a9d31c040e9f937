/* The cache flush of cache_flush.h: one buffer per process, whichever
 * file flushes, sized from this host's caches. */
#include <hwloc.h>

#include "cache_flush.h"

static unsigned char *bench_flush_buf;

/* The largest data or unified cache of any level on this host, 0 if
 * hwloc finds none. */
static size_t largest_cache(void)
{
    static const hwloc_obj_type_t levels[] = {
        HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
        HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE};
    hwloc_topology_t topo;
    size_t largest = 0;
    if (hwloc_topology_init(&topo))
        return 0;
    if (hwloc_topology_load(topo) == 0)
        for (size_t k = 0; k < sizeof levels / sizeof *levels; k++)
            for (hwloc_obj_t o = hwloc_get_next_obj_by_type(topo, levels[k],
                                                            NULL);
                 o; o = hwloc_get_next_obj_by_type(topo, levels[k], o))
                if (o->attr && o->attr->cache.size > largest)
                    largest = (size_t)o->attr->cache.size;
    hwloc_topology_destroy(topo);
    return largest;
}

/* SGL_FLUSH_BYTES, a byte count, or 0 where unset or not a number. */
static size_t flush_bytes_env(void)
{
    const char *e = getenv("SGL_FLUSH_BYTES");
    char *end;
    if (!e || !*e)
        return 0;
    unsigned long long v = strtoull(e, &end, 10);
    return *end || v == 0 ? 0 : (size_t)v;
}

size_t bench_flush_total(void)
{
    static size_t total;
    if (!total)
        total = flush_bytes_env();
    if (!total) {
        size_t twice = 2 * largest_cache();
        total = twice > BENCH_FLUSH_MIN_BYTES ? twice : BENCH_FLUSH_MIN_BYTES;
    }
    return total;
}

void bench_flush_caches(int threads)
{
    size_t total = bench_flush_total();
    if (!bench_flush_buf)
        bench_flush_buf = calloc(total, 1);
    if (!bench_flush_buf)
        return;
    static unsigned char v;
    unsigned char val = ++v;
    int nt = threads > 0 ? threads : 1;
    size_t chunk = total / (size_t)nt;
#pragma omp parallel for schedule(static, 1) num_threads(nt)
    for (int t = 0; t < nt; t++)
        bench_evict(bench_flush_buf + (size_t)t * chunk, chunk, val);
}

void bench_flush_free(void)
{
    free(bench_flush_buf);
    bench_flush_buf = NULL;
}
