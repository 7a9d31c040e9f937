/* The strongest simple OpenMP scan peer: a hand two-pass scan (block sums,
 * then each thread rescans its block from its offset). Shared by the
 * algorithm benchmark and the main job so both compare against one code. */
#ifndef SGL_BENCH_PEER_SCAN_H
#define SGL_BENCH_PEER_SCAN_H

#include <omp.h>
#include <stddef.h>

/* y[i] = base + x[0] + ... + x[i], on up to 64 threads. */
static inline void bench_scan_two_pass(const double *x, double *y, size_t n,
                                       int threads, double base)
{
    double part[65] = {0};
    int nt = threads > 64 ? 64 : threads;
#pragma omp parallel num_threads(nt)
    {
        int id = omp_get_thread_num(), T = omp_get_num_threads();
        size_t lo = n * (size_t)id / (size_t)T;
        size_t hi = n * (size_t)(id + 1) / (size_t)T;
        /* The block sum in SIMD chains: a serial sum waited on each
         * add's latency and ran slower than memory. */
        double s = 0;
#pragma omp simd reduction(+ : s)
        for (size_t i = lo; i < hi; i++)
            s += x[i];
        part[id + 1] = s;
#pragma omp barrier
        double off = base;
        for (int j = 0; j <= id; j++)
            off += part[j];
        for (size_t i = lo; i < hi; i++) {
            off += x[i];
            y[i] = off;
        }
    }
}

#endif
