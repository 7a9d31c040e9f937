/* sgl-probe's fits: straight lines through its measurements, and the
 * clamping of a fitted cost that comes out negative, which a machine file
 * must not hold (the reader refuses negative l and g). */
#ifndef SGL_BENCH_PROBE_FIT_H
#define SGL_BENCH_PROBE_FIT_H

#include <stddef.h>
#include <stdio.h>

/* t = a + b x, with R^2 and the largest relative residual; [a_lo, a_hi]
 * and [b_lo, b_hi] the 95% intervals of probe_fit_interval() (a, a and
 * b, b until it runs). */
struct probe_fit {
    double a, b, r2, worst;
    size_t points;
    double a_lo, a_hi, b_lo, b_hi;
};

/* Weighted least squares of t = a + b x over the n points with
 * lo <= x <= hi and t > 0; weights 1/t^2 make it fit relative error, so
 * that small sizes count. Fewer than 2 such points: points < 2, a = b =
 * 0. */
struct probe_fit probe_fit_points(const double *x, const double *t, size_t n,
                                  double lo, double hi);

/* 95% intervals of @p f's a and b (the fit of these points by
 * probe_fit_points()): a pairs bootstrap, the points in [lo, hi] drawn
 * with replacement and fitted again, 400 times from a fixed seed, the
 * 2.5th and 97.5th percentiles of a and of b (widened to hold the fit's
 * own a and b). Resamples with fewer than two distinct sizes are drawn
 * again. With fewer than 3 points the interval stays the point. */
void probe_fit_interval(const double *x, const double *t, size_t n,
                        double lo, double hi, struct probe_fit *f);

/* The distribution-free 95% interval of the median of @p n values sorted
 * ascending (order statistics, binomial with p = 1/2: for 21 trials the
 * 6th and 16th, for 11 the 2nd and 10th, for 5 or fewer the extremes). */
void probe_median_interval(const double *sorted, int n, double *ret_lo,
                           double *ret_hi);

/* The median of @p n > 0 values sorted ascending (the mean of the two
 * middle ones for even n) into @p ret_c, and its distribution-free 95%
 * interval (probe_median_interval()) into @p ret_lo, @p ret_hi.
 * Returns -1 for n < 1. */
int probe_median(const double *sorted, int n, double *ret_c, double *ret_lo,
                 double *ret_hi);

/* The fits clamped so far, as one line for the machine file's provenance
 * "note" (empty while none). */
struct probe_clamps {
    size_t count;
    char note[2048];
};

enum probe_unit {
    PROBE_SECONDS,          /* an l: shown in us */
    PROBE_SECONDS_PER_BYTE, /* a g: shown in ns/B */
};

/* @p v, or 0 if @p v is negative: noise on a fast level can tilt a line
 * below zero. A clamp is said on @p warn and added to @p c's note, naming
 * the level, the parameter @p what and the fitted value. */
double probe_clamp(struct probe_clamps *c, FILE *warn, unsigned level,
                   const char *what, double v, enum probe_unit unit);

/* A printed fit's negative @p v (an intercept or slope shown though the
 * machine file may not use it): a warning line on @p out, the value in
 * @p c's note as a clamp is. Returns 1 if @p v was negative. */
int probe_note_negative(struct probe_clamps *c, FILE *out, unsigned level,
                        const char *what, double v, enum probe_unit unit);

#endif
