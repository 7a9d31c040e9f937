/* bench_root's peers over an array in one process: what a programmer
 * writes without SGL, a plain loop and OpenMP on a given thread count. */
#ifndef SGL_BENCH_ROOT_PEERS_H
#define SGL_BENCH_ROOT_PEERS_H

#include <stddef.h>

/* The sum of @a[0..n) by one loop. */
double root_loop_sum(const double *a, size_t n);

/* The same by `omp parallel for simd reduction(+)` on @threads threads. */
double root_omp_sum(const double *a, size_t n, int threads);

/* The inclusive prefix sums of @a into @y by one loop. */
void root_loop_scan(const double *a, double *y, size_t n);

/* The same by the two-pass OpenMP scan: every thread sums its block,
 * then scans it from the sum of the blocks before it. */
void root_omp_scan(const double *a, double *y, size_t n, int threads);

#endif
