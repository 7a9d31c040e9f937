/* The memory read bound: the cheapest full read of an array on a team of
 * OpenMP threads, shared by the algorithm benchmark and the main job so
 * that both bound the reduction by one code.
 *
 * Each thread xors its static block of 8-byte words and asks for the
 * lines one page ahead as it goes, in bursts between chunks. The hardware
 * prefetcher stops at each 4 KiB page; a plain `omp parallel for simd
 * reduction(^)` read was slower than the library's reduction once that
 * prefetched the same way (1e6 doubles from flushed caches on 2 threads), and
 * was no bound. */
#ifndef SGL_BENCH_STREAM_READ_H
#define SGL_BENCH_STREAM_READ_H

#include <omp.h>
#include <stddef.h>
#include <stdint.h>

/* Two words at a time, on any 8-byte boundary (a thread's block may start
 * at an odd word). */
typedef uint64_t bench_word2 __attribute__((vector_size(16), aligned(8)));

/* The xor of @u[0..n), read on @threads threads. */
static inline uint64_t bench_stream_read(const uint64_t *u, size_t n,
                                         int threads)
{
    enum { CHUNK = 1024 / 8, AHEAD = 4096 / 8, LINE = 64 / 8 };
    uint64_t acc = 0;
#pragma omp parallel num_threads(threads) reduction(^ : acc)
    {
        size_t id = (size_t)omp_get_thread_num();
        size_t nt = (size_t)omp_get_num_threads();
        size_t i = n * id / nt, hi = n * (id + 1) / nt;
        /* Four chains of two words, a line per step, as the library's
         * folds run (a scalar or `omp simd` xor read 5-10% slower). */
        bench_word2 a0 = {0, 0}, a1 = a0, a2 = a0, a3 = a0;
        for (; hi - i >= CHUNK + AHEAD; i += CHUNK) {
            for (size_t k = 0; k < CHUNK; k += LINE)
                __builtin_prefetch(u + i + AHEAD + k);
            for (size_t j = i; j < i + CHUNK; j += LINE) {
                const bench_word2 *w = (const bench_word2 *)(u + j);
                a0 ^= w[0];
                a1 ^= w[1];
                a2 ^= w[2];
                a3 ^= w[3];
            }
        }
        bench_word2 t = a0 ^ a1 ^ a2 ^ a3;
        uint64_t a = t[0] ^ t[1];
        for (; i < hi; i++)
            a ^= u[i];
        acc ^= a;
    }
    return acc;
}

#endif
