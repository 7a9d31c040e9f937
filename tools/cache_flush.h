/* Cold caches before a timed run: every thread of the process rewrites its
 * share of a buffer larger than the last-level cache, so private caches
 * and the shared one hold none of the data a timed run reads. The probe
 * measures the kernels' c this way and the main job times reductions and
 * scans (SGL and peers alike) this way, so that c and the runs agree at
 * sizes that would otherwise stay in cache between repetitions. The
 * buffer is sized from the largest cache hwloc finds on this host, not
 * fixed: see bench_flush_total(). */
#ifndef SGL_BENCH_CACHE_FLUSH_H
#define SGL_BENCH_CACHE_FLUSH_H

#include <stdlib.h>

/* The least a flush writes, whatever the caches: what served on the AMD
 * EPYC VMs this project first ran on (32 MiB of L3). */
#define BENCH_FLUSH_MIN_BYTES ((size_t)96 << 20)

/* The bytes a flush writes on this host: twice the largest cache hwloc
 * reports (replacement is not LRU, so one cache's worth leaves lines of
 * the run in it), at least BENCH_FLUSH_MIN_BYTES. Measured once per
 * process; each process measures its own host. The environment variable
 * SGL_FLUSH_BYTES overrides it: the test suite sets it small, since it
 * checks what the probe and the benchmarks write, never their timings,
 * and the default flush (96 MiB before each of a point's dozens of timed
 * runs) made most of a probe's run time, past its tests' timeouts on a
 * loaded box. */
size_t bench_flush_total(void);

/* Evict: every cache line of @p buf read and written with ordinary
 * loads and stores, which allocate in the caches. Not memset: glibc's
 * memset of tens of MB streams with non-temporal stores on this
 * project's AMD EPYC VM and leaves the caches as they were; after it the
 * probe's one-worker c(sum) measured 0.15-0.17 ns per element at 1e5
 * and 0.16-0.19 at 1e6, partly from cache, where after this loop it
 * measured 0.29-0.35 and 0.23-0.27, as a run from memory does. */
static inline void bench_evict(unsigned char *buf, size_t bytes,
                               unsigned char v)
{
    for (size_t i = 0; i < bytes; i += 64)
        buf[i] = (unsigned char)(buf[i] + v);
    __asm__ volatile("" ::"r"(buf) : "memory");
}

/* Evict the caches with @p threads threads (the process's workers),
 * over a buffer of bench_flush_total() bytes allocated on the first call,
 * one per process (cache_flush.c). */
void bench_flush_caches(int threads);

/* Free the buffer (at exit, for leak checkers). */
void bench_flush_free(void);

#endif
