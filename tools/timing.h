/* Timing helpers shared by the benchmarks: a monotonic clock, medians and
 * the ETA of a progress line.
 * The machine is shared and noisy, so every figure is a median of several
 * trials, and every ratio is taken against a peer timed in the same run. */
#ifndef SGL_BENCH_TIMING_H
#define SGL_BENCH_TIMING_H

#include <stdlib.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static inline double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of @v[0..n), n > 0; sorts @v in place. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Seconds the @p total - @p done steps left of a run will take at the
 * pace of the @p done ones, which took @p spent seconds; for the ETA of a
 * progress line. @p done > 0. */
static inline double bench_eta(double spent, int done, int total)
{
    return spent / done * (total - done);
}

#endif
