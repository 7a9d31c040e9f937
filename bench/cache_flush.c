/* The cache flush of cache_flush.h: one buffer per process, whichever
 * file flushes. */
#include "cache_flush.h"

static unsigned char *bench_flush_buf;

void bench_flush_caches(int threads)
{
    if (!bench_flush_buf)
        bench_flush_buf = calloc(BENCH_FLUSH_BYTES, 1);
    if (!bench_flush_buf)
        return;
    static unsigned char v;
    unsigned char val = ++v;
    int nt = threads > 0 ? threads : 1;
    size_t chunk = BENCH_FLUSH_BYTES / (size_t)nt;
#pragma omp parallel for schedule(static, 1) num_threads(nt)
    for (int t = 0; t < nt; t++)
        bench_evict(bench_flush_buf + (size_t)t * chunk, chunk, val);
}

void bench_flush_free(void)
{
    free(bench_flush_buf);
    bench_flush_buf = NULL;
}
