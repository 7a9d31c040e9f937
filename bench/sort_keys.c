/* Key generators of the sort benchmarks (sort_keys.h). Sequential and
 * seeded: the keys depend on the seed and n only, never on the thread
 * count, so that every contestant and every run sees the same array. */
#include "sort_keys.h"

#include <math.h>
#include <string.h>

static const char *const names[SORT_KEYS_COUNT] = {
    "uniform",  "normal",  "exponential",   "zipf",      "few_unique",
    "root_dup", "sorted",  "reverse",       "almost_sorted", "all_equal",
    "huge_range"};

const char *sort_keys_name(int d)
{
    return d >= 0 && d < SORT_KEYS_COUNT ? names[d] : NULL;
}

int sort_keys_find(const char *name)
{
    for (int d = 0; d < SORT_KEYS_COUNT; d++)
        if (strcmp(name, names[d]) == 0)
            return d;
    return -1;
}

/* splitmix64: a full-period 64-bit stream from any seed, seed 0 too. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* In (0, 1), never 0 nor 1: logarithms stay finite, and the normal's
 * radius never is 0 (which could make a -0.0). */
static double open01(uint64_t *s)
{
    return ((double)(next(s) >> 11) + 0.5) * 0x1p-53;
}

static void normal(double *x, size_t n, uint64_t *s)
{
    for (size_t i = 0; i < n; i += 2) {
        double r = sqrt(-2 * log(open01(s))), a = 2 * M_PI * open01(s);
        x[i] = r * cos(a);
        if (i + 1 < n)
            x[i + 1] = r * sin(a);
    }
}

/* Zipf with exponent 1 over the ranks 1..n, by the continuous inverse of
 * its CDF (P(k) ~ 1/k): rank 1 takes about 1/ln(n) of the keys, and most
 * ranks appear once or never, as in IPS4o's Zipf input. */
static void zipf(double *x, size_t n, uint64_t *s)
{
    double lm = log((double)n + 1);
    for (size_t i = 0; i < n; i++)
        x[i] = floor(exp(open01(s) * lm));
}

/* Sorted, then sqrt(n) random pairs swapped (IPS4o's AlmostSorted). */
static void almost_sorted(double *x, size_t n, uint64_t *s)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (double)i;
    size_t swaps = (size_t)sqrt((double)n);
    for (size_t k = 0; k < swaps; k++) {
        size_t a = next(s) % n, b = next(s) % n;
        double t = x[a];
        x[a] = x[b];
        x[b] = t;
    }
}

/* Random sign, mantissa and a binary exponent in [-1000, 1000]: keys
 * whose exponents span almost all of a double's range, where a radix
 * sort on the top bits finds no skew to exploit. */
static void huge_range(double *x, size_t n, uint64_t *s)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = next(s);
        double m = 1 + (double)(r >> 12) * 0x1p-52;
        int e = (int)(next(s) % 2001) - 1000;
        x[i] = (r & 1 ? -1 : 1) * ldexp(m, e);
    }
}

/* The distributions whose keys follow from i alone. */
static void by_index(int d, double *x, size_t n)
{
    size_t root = (size_t)sqrt((double)n);
    for (size_t i = 0; i < n; i++)
        x[i] = d == 5   ? (double)(i % (root ? root : 1)) /* root_dup */
               : d == 6 ? (double)i                       /* sorted */
               : d == 7 ? (double)(n - i)                 /* reverse */
                        : 1.0;                            /* all_equal */
}

int sort_keys_fill(int d, double *x, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    switch (d) {
    case 0:
        for (size_t i = 0; i < n; i++)
            x[i] = (double)(next(&s) >> 11) * 0x1p-53;
        return 0;
    case 1:
        normal(x, n, &s);
        return 0;
    case 2:
        for (size_t i = 0; i < n; i++)
            x[i] = -log(open01(&s));
        return 0;
    case 3:
        zipf(x, n, &s);
        return 0;
    case 4: /* 16 distinct keys in random order */
        for (size_t i = 0; i < n; i++)
            x[i] = (double)(next(&s) >> 60);
        return 0;
    case 8:
        almost_sorted(x, n, &s);
        return 0;
    case 10:
        huge_range(x, n, &s);
        return 0;
    case 5: case 6: case 7: case 9:
        by_index(d, x, n);
        return 0;
    default:
        return -1;
    }
}

int sort_keys_sorted(const double *x, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (x[i] < x[i - 1])
            return 0;
    return 1;
}
