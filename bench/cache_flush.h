/* Cold caches before a timed run: every thread of the process writes its
 * share of a buffer larger than the last-level cache, so private caches
 * and the shared one hold none of the data a timed run reads. The probe
 * measures the kernels' c this way and the main job times reductions and
 * scans (SGL and peers alike) this way, so that c and the runs agree at
 * sizes that would otherwise stay in cache between repetitions. */
#ifndef SGL_BENCH_CACHE_FLUSH_H
#define SGL_BENCH_CACHE_FLUSH_H

#include <stdlib.h>
#include <string.h>

#define BENCH_FLUSH_BYTES ((size_t)96 << 20)

static unsigned char *bench_flush_buf;

/* Evict the caches with @p threads threads (the process's workers). */
static inline void bench_flush_caches(int threads)
{
    if (!bench_flush_buf)
        bench_flush_buf = malloc(BENCH_FLUSH_BYTES);
    if (!bench_flush_buf)
        return;
    static unsigned char v;
    unsigned char val = ++v;
    int nt = threads > 0 ? threads : 1;
    size_t chunk = BENCH_FLUSH_BYTES / (size_t)nt;
#pragma omp parallel for schedule(static, 1) num_threads(nt)
    for (int t = 0; t < nt; t++)
        memset(bench_flush_buf + (size_t)t * chunk, val, chunk);
    __asm__ volatile("" ::"r"(bench_flush_buf) : "memory");
}

/* Free the buffer (at exit, for leak checkers). */
static inline void bench_flush_free(void)
{
    free(bench_flush_buf);
    bench_flush_buf = NULL;
}

#endif
