/* The local sort of PSRS's workers (algorithms/vector/local_sort.c) against the
 * 11-bit LSD radix sort it replaced and std::sort, one thread, in ns per
 * element: for 64- and 32-bit keys over 1e4..1e7 elements and seven input
 * patterns, and for 16- and 32-byte records (the direct record sort
 * against sorting (key, index) pairs then gathering, and std::sort).
 * Every figure is the median of --reps trials; within a trial the
 * candidates run one after the other on copies of the same input
 * (interleaved, so that the load of a shared machine hits them alike), and
 * small sizes repeat the sort on fresh copies until ~3e6 elements are
 * sorted. Every result is checked against std::sort.
 *
 *   bench_local_sort [--reps R] [--sizes 1e4,1e5,...] [--quick]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "local_sort.h"
#include "timing.h"

/* C++ peers (local_sort_peers.cc). */
void bench_std_sort_u64(uint64_t *a, size_t n);
void bench_std_sort_u32(uint32_t *a, size_t n);
void bench_std_sort_rec16(void *a, size_t n);
void bench_std_sort_rec32(void *a, size_t n);

/* ---- the previous kernel: 11-bit LSD, every pass over the whole array --- */

#define OLD_BITS 11
#define OLD_SIZE (1u << OLD_BITS)
#define OLD_RADIX(K, SFX, NPASS)                                               \
    static int old_radix_##SFX(K *a, size_t n)                                 \
    {                                                                          \
        if (n < 64) {                                                          \
            for (size_t i = 1; i < n; i++) {                                   \
                K v = a[i];                                                    \
                size_t j = i;                                                  \
                for (; j > 0 && a[j - 1] > v; j--)                             \
                    a[j] = a[j - 1];                                           \
                a[j] = v;                                                      \
            }                                                                  \
            return 0;                                                          \
        }                                                                      \
        K *tmp = malloc(n * sizeof *tmp);                                      \
        size_t(*h)[OLD_SIZE] = calloc(NPASS, sizeof *h);                       \
        if (!tmp || !h) {                                                      \
            free(tmp);                                                         \
            free(h);                                                           \
            return -1;                                                         \
        }                                                                      \
        for (size_t i = 0; i < n; i++)                                         \
            for (unsigned p = 0; p < NPASS; p++)                               \
                h[p][(a[i] >> (p * OLD_BITS)) & (OLD_SIZE - 1)]++;             \
        K *src = a, *dst = tmp;                                                \
        for (unsigned p = 0; p < NPASS; p++) {                                 \
            unsigned sh = p * OLD_BITS;                                        \
            size_t *hp = h[p], sum = 0;                                        \
            if (hp[(src[0] >> sh) & (OLD_SIZE - 1)] == n)                      \
                continue;                                                      \
            for (unsigned d = 0; d < OLD_SIZE; d++) {                          \
                size_t c = hp[d];                                              \
                hp[d] = sum;                                                   \
                sum += c;                                                      \
            }                                                                  \
            for (size_t i = 0; i < n; i++)                                     \
                dst[hp[(src[i] >> sh) & (OLD_SIZE - 1)]++] = src[i];           \
            K *t = src;                                                        \
            src = dst;                                                         \
            dst = t;                                                           \
        }                                                                      \
        if (src != a)                                                          \
            memcpy(a, src, n * sizeof *a);                                     \
        free(tmp);                                                             \
        free(h);                                                               \
        return 0;                                                              \
    }
OLD_RADIX(uint64_t, 64, 6)
OLD_RADIX(uint32_t, 32, 3)

/* ---- inputs ---- */

enum { D_DBL01, D_RANDOM, D_EQUAL, D_TWO, D_SORTED, D_REVERSED, D_ZIPF, ND };
static const char *const dist_names[ND] = {
    "dbl01", "random", "equal", "two", "sorted", "reversed", "zipf"};

static uint64_t g_state = 42;

static uint64_t rnd(void)
{
    uint64_t z = (g_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* PSRS's key maps (algorithms/vector/psrs.c). */
static uint64_t key_f64(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return ((b >> 63) ? ~b : b | UINT64_C(1) << 63) -
           ((UINT64_C(1) << 52) - 1);
}

static uint32_t key_f32(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return ((b >> 31) ? ~b : b | UINT32_C(1) << 31) -
           ((UINT32_C(1) << 23) - 1);
}

static void fill(int d, int w, void *v, size_t n)
{
    uint64_t *a = v, t0 = rnd(), t1 = rnd();
    uint32_t *b = v;
    for (size_t i = 0; i < n; i++) {
        double u = (double)(rnd() >> 11) * 0x1p-53;
        uint64_t x;
        switch (d) {
        case D_DBL01:
            x = w == 8 ? key_f64(u) : key_f32((float)u);
            break;
        case D_EQUAL:
            x = t0;
            break;
        case D_TWO:
            x = rnd() & 1 ? t0 : t1;
            break;
        case D_ZIPF:
            x = (uint64_t)exp(u * log(1e6));
            break;
        default:
            x = rnd();
        }
        if (w == 8)
            a[i] = x;
        else
            b[i] = (uint32_t)x;
    }
    if (d == D_SORTED || d == D_REVERSED) {
        if (w == 8)
            bench_std_sort_u64(a, n);
        else
            bench_std_sort_u32(b, n);
    }
    if (d == D_REVERSED)
        for (size_t i = 0; i < n / 2; i++) {
            if (w == 8) {
                uint64_t t = a[i];
                a[i] = a[n - 1 - i];
                a[n - 1 - i] = t;
            } else {
                uint32_t t = b[i];
                b[i] = b[n - 1 - i];
                b[n - 1 - i] = t;
            }
        }
}

/* ---- candidates ---- */

enum { C_OLD, C_NEW, C_STD, NC };

static int run_keys(int c, int w, void *a, size_t n)
{
    if (c == C_OLD)
        return w == 8 ? old_radix_64(a, n) : old_radix_32(a, n);
    if (c == C_NEW)
        return w == 8 ? sgl__algo_sort_u64(a, n) : sgl__algo_sort_u32(a, n);
    if (w == 8)
        bench_std_sort_u64(a, n);
    else
        bench_std_sort_u32(a, n);
    return 0;
}

/* Records by sorting (key, index) pairs with the same kernel, then
 * gathering: pairs, their sort buffer and the gather buffer are three
 * extra buffers (memory 2n*16 + n*es beyond the input). */
static int pairs_sort(unsigned char *r, size_t n, size_t es)
{
    uint64_t *p = malloc(n * 16);
    unsigned char *g = malloc(n * es);
    int rc = p && g ? 0 : -1;
    if (!rc) {
        for (size_t i = 0; i < n; i++) {
            memcpy(&p[2 * i], r + i * es, 8);
            p[2 * i + 1] = i;
        }
        rc = sgl__algo_sort_records(p, n, 16, 0, 8);
        for (size_t i = 0; !rc && i < n; i++)
            memcpy(g + i * es, r + p[2 * i + 1] * es, es);
        if (!rc)
            memcpy(r, g, n * es);
    }
    free(p);
    free(g);
    return rc;
}

enum { R_DIRECT, R_PAIRS, R_STD, NR };

static int run_records(int c, unsigned char *r, size_t n, size_t es)
{
    if (c == R_DIRECT)
        return sgl__algo_sort_records(r, n, es, 0, 8);
    if (c == R_PAIRS)
        return pairs_sort(r, n, es);
    if (es == 16)
        bench_std_sort_rec16(r, n);
    else
        bench_std_sort_rec32(r, n);
    return 0;
}

#define MAX_REPS 31
#define MAX_SIZES 16
#define WORK 3000000.0 /* elements per timed trial at small sizes */

static size_t repeats(size_t n)
{
    double r = WORK / (double)n;
    return r < 1 ? 1 : r > 300 ? 300 : (size_t)r;
}

int main(int argc, char **argv)
{
    int reps = 5;
    double sizes[MAX_SIZES] = {1e4, 1e5, 1e6, 1e7};
    int nsizes = 4;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--quick")) {
            reps = 3;
            nsizes = 3;
        } else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            char *p = argv[++i];
            for (nsizes = 0; *p && nsizes < MAX_SIZES; nsizes++) {
                sizes[nsizes] = strtod(p, &p);
                if (*p == ',')
                    p++;
            }
        } else {
            fprintf(stderr, "usage: bench_local_sort [--reps R] [--sizes "
                            "LIST] [--quick]\n");
            return 2;
        }
    }
    if (reps < 1 || reps > MAX_REPS || nsizes < 1) {
        fprintf(stderr, "bench_local_sort: --reps 1..%d\n", MAX_REPS);
        return 2;
    }
    size_t maxn = 0;
    for (int s = 0; s < nsizes; s++)
        if ((size_t)sizes[s] > maxn)
            maxn = (size_t)sizes[s];
    unsigned char *in = malloc(maxn * 32), *wk = malloc(maxn * 32),
                  *ref = malloc(maxn * 32);
    if (!in || !wk || !ref) {
        fprintf(stderr, "bench_local_sort: out of memory\n");
        return 1;
    }
    printf("local sort, one thread: ns per element, median of %d "
           "interleaved trials\n",
           reps);
    printf("%-5s %-9s %10s %9s %9s %9s %9s %9s\n", "keys", "input", "n",
           "old_lsd", "new", "std_sort", "old/new", "std/new");
    int bad = 0;
    for (int w = 8; w >= 4; w -= 4)
        for (int d = 0; d < ND; d++)
            for (int s = 0; s < nsizes; s++) {
                size_t n = (size_t)sizes[s], rr = repeats(n);
                double t[NC][MAX_REPS];
                fill(d, w, in, n);
                memcpy(ref, in, n * (size_t)w);
                run_keys(C_STD, w, ref, n);
                for (int k = 0; k < reps; k++)
                    for (int c = 0; c < NC; c++) {
                        double tot = 0;
                        for (size_t r = 0; r < rr; r++) {
                            memcpy(wk, in, n * (size_t)w);
                            double a = bench_now();
                            int rc = run_keys(c, w, wk, n);
                            tot += bench_now() - a;
                            if (rc || memcmp(wk, ref, n * (size_t)w))
                                bad = 1;
                        }
                        t[c][k] = tot / (double)rr / (double)n * 1e9;
                    }
                double m[NC];
                for (int c = 0; c < NC; c++)
                    m[c] = bench_median(t[c], reps);
                printf("u%-4d %-9s %10zu %9.2f %9.2f %9.2f %8.2fx %8.2fx\n",
                       w * 8, dist_names[d], n, m[C_OLD], m[C_NEW], m[C_STD],
                       m[C_OLD] / m[C_NEW], m[C_STD] / m[C_NEW]);
                fflush(stdout);
            }
    printf("\nrecords (u64 key = a double in [0,1) as PSRS maps it, at "
           "offset 0): ns per record\n");
    printf("%-5s %10s %9s %9s %9s   (pairs: sort (key, index), then gather;"
           " 2 x 16n + n*es extra bytes)\n",
           "es", "n", "direct", "pairs", "std_sort");
    for (size_t es = 16; es <= 32; es += 16)
        for (int s = 0; s < nsizes; s++) {
            size_t n = (size_t)sizes[s], rr = repeats(n);
            double t[NR][MAX_REPS];
            for (size_t i = 0; i < n; i++) {
                uint64_t k = key_f64((double)(rnd() >> 11) * 0x1p-53);
                memcpy(in + i * es, &k, 8);
                for (size_t o = 8; o < es; o += 8)
                    memcpy(in + i * es + o, &i, 8);
            }
            memcpy(ref, in, n * es);
            run_records(R_STD, ref, n, es);
            for (int k = 0; k < reps; k++)
                for (int c = 0; c < NR; c++) {
                    double tot = 0;
                    for (size_t r = 0; r < rr; r++) {
                        memcpy(wk, in, n * es);
                        double a = bench_now();
                        int rc = run_records(c, wk, n, es);
                        tot += bench_now() - a;
                        /* Keys are distinct (almost surely): the same
                         * order as std::sort. */
                        if (rc || memcmp(wk, ref, n * es))
                            bad = 1;
                    }
                    t[c][k] = tot / (double)rr / (double)n * 1e9;
                }
            printf("%-5zu %10zu", es, n);
            for (int c = 0; c < NR; c++)
                printf(" %9.2f", bench_median(t[c], reps));
            printf("\n");
            fflush(stdout);
        }
    free(in);
    free(wk);
    free(ref);
    if (bad)
        fprintf(stderr, "bench_local_sort: a result differs from std::sort\n");
    return bad;
}
