/* bench_root's loop and OpenMP peers (root_peers.h). */
#include "root_peers.h"

#include <omp.h>

double root_loop_sum(const double *a, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += a[i];
    return s;
}

double root_omp_sum(const double *a, size_t n, int threads)
{
    double s = 0;
#pragma omp parallel for simd reduction(+ : s) num_threads(threads)        \
    schedule(static)
    for (size_t i = 0; i < n; i++)
        s += a[i];
    return s;
}

void root_loop_scan(const double *a, double *y, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        y[i] = s += a[i];
}

/* The blocks are the static schedule's own (n * t / T), so that each
 * thread's second pass reads the block its first pass brought into its
 * cache. At most 256 threads: more than any box this benchmark runs on. */
void root_omp_scan(const double *a, double *y, size_t n, int threads)
{
    double part[256];
    if (threads > 256)
        threads = 256;
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t lo = n * (size_t)t / (size_t)nt;
        size_t hi = n * (size_t)(t + 1) / (size_t)nt;
        double s = 0;
        for (size_t i = lo; i < hi; i++)
            s += a[i];
        part[t] = s;
#pragma omp barrier
        double off = 0;
        for (int k = 0; k < t; k++)
            off += part[k];
        for (size_t i = lo; i < hi; i++)
            y[i] = off += a[i];
    }
}
