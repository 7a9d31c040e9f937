/* PSRS on adversarial distributions: all equal, two
 * values, Zipf (s = 1.0 and 1.5 over 1e6 values), k ascending runs
 * concatenated (k = 2, 7, P), already sorted and reversed, for f64 and u64
 * keys. Every case checks that the output is sorted and a permutation of
 * the input (it must equal a qsort()ed copy, bit for bit) and that every
 * worker's final partition holds at most 2 n/P + P^2 elements; it prints
 * the largest partition as a ratio to n/P.
 *
 * One process runs several trees: it initialises MPI itself and starts one
 * runtime per shape with sgl_init_comm(). Alone, the default shapes are
 * core:2, core:4, core:8 and package:2 core:8 (P = 2..16 threads,
 * oversubscribed on a small host, which is fine for correctness); under
 * mpiexec -n R they are rank:R and rank:R core:2. Rank 0 prints TAP and,
 * at the end, the table as comments.
 *   psrs_skew [--report] [--n N] [SHAPE...]
 * --report prints only the aligned table (distribution, P, largest
 * partition / (n/P), bound / (n/P)) and the worst ratio, for a closing
 * note or a larger n. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/algorithms.h>
#include <sgl/sgl.h>
#include <sgl/sgl_mpi.h>
#include "tap.h"
#include "test_util.h"

enum dist { D_EQUAL, D_TWO, D_ZIPF10, D_ZIPF15, D_RUNS2, D_RUNS7, D_RUNSP,
            D_SORTED, D_REVERSED, D_COUNT };
static const char *const dist_names[D_COUNT] = {
    "all-equal", "two-values", "zipf-1.0", "zipf-1.5", "runs-2",
    "runs-7", "runs-P", "sorted", "reversed"};

enum { ZIPF_VALUES = 1000000, MAX_SHAPES = 16, MAX_ROWS = 1024 };

/* Zipf over ranks 1..ZIPF_VALUES: P(k) ~ k^-s, by inverse transform on the
 * cumulative table (built once per exponent). */
static double *zipf_cdf[2];

static int zipf_table(int which, double s)
{
    if (zipf_cdf[which])
        return 0;
    double *c = malloc(ZIPF_VALUES * sizeof *c);
    if (!c)
        return -1;
    double sum = 0;
    for (size_t k = 0; k < ZIPF_VALUES; k++) {
        sum += pow((double)(k + 1), -s);
        c[k] = sum;
    }
    for (size_t k = 0; k < ZIPF_VALUES; k++)
        c[k] /= sum;
    zipf_cdf[which] = c;
    return 0;
}

static uint64_t zipf_draw(const double *c, uint64_t *seed)
{
    double u = (double)(test_mix(seed) >> 11) * 0x1p-53;
    size_t lo = 0, hi = ZIPF_VALUES - 1;
    while (lo < hi) { /* the first k with c[k] > u */
        size_t mid = lo + (hi - lo) / 2;
        if (c[mid] > u)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo + 1;
}

/* The i-th value of the distribution as an order-carrying integer < 2^53;
 * both key types are monotone images of it. */
static uint64_t dist_value(enum dist d, size_t i, size_t n, size_t p,
                           uint64_t *seed)
{
    size_t k;
    switch (d) {
    case D_EQUAL:
        return 4242;
    case D_TWO:
        return test_mix(seed) & 1 ? 1000 : 3;
    case D_ZIPF10:
        return zipf_draw(zipf_cdf[0], seed);
    case D_ZIPF15:
        return zipf_draw(zipf_cdf[1], seed);
    case D_RUNS2:
    case D_RUNS7:
    case D_RUNSP:
        /* k runs of about n/k, each ascending over the same range, so
         * that the runs interleave in the sorted output. */
        k = d == D_RUNS2 ? 2 : d == D_RUNS7 ? 7 : p;
        return i % ((n + k - 1) / k);
    case D_SORTED:
        return i;
    case D_REVERSED:
    default:
        return n - i;
    }
}

static int cmp_f64(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

struct skew_arg {
    int dist;
    int dtype;
    size_t n;
    uint64_t seed;
};

/* What the root's program found; read by rank 0 after sgl_run(). */
static size_t got_max, got_min, got_p;

static int skew_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct skew_arg *a = arg;
    size_t n = a->n, p = sgl_ctx_workers(root);
    int f64 = a->dtype == SGL_F64;
    uint64_t *x = malloc(n * 8), *want = malloc(n * 8);
    if (!x || !want) {
        free(x);
        free(want);
        return sgl_error_set(SGL_ENOMEM, "psrs_skew: out of memory");
    }
    uint64_t seed = a->seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = dist_value((enum dist)a->dist, i, n, p, &seed);
        if (f64) {
            /* Negative and positive, exact steps of 0.25. */
            double d = (double)v * 0.25 - 1e5;
            memcpy(&x[i], &d, 8);
        } else {
            x[i] = (v << 10) | (UINT64_C(1) << 63); /* the top bit set */
        }
    }
    memcpy(want, x, n * 8);
    qsort(want, n, 8, f64 ? cmp_f64 : cmp_u64);

    sgl_dvec_t *v = NULL;
    sgl_sort_stats_t st;
    int rc = sgl_dvec_scatter(root, (sgl_dtype_t)a->dtype, 0, x, n, &v);
    if (!rc)
        rc = sgl_dvec_sort(root, v, &st);
    size_t sum = 0;
    for (size_t w = 0; !rc && w < p; w++)
        sum += sgl_dvec_counts(v)[w];
    memset(x, 0xff, n * 8);
    if (!rc)
        rc = sgl_dvec_gather(root, v, x, n);
    int rc2 = sgl_dvec_free(root, v);
    rc = rc ? rc : rc2;
    const char *dn = dist_names[a->dist], *tn = f64 ? "f64" : "u64";
    if (!rc && sum != n)
        rc = sgl_error_set(SGL_ETASK, "%s %s: partitions hold %zu of %zu",
                           tn, dn, sum, n);
    for (size_t i = 1; !rc && i < n; i++)
        if (f64 ? cmp_f64(&x[i - 1], &x[i]) > 0 : x[i - 1] > x[i])
            rc = sgl_error_set(SGL_ETASK, "%s %s: not sorted at %zu", tn, dn,
                               i);
    /* Sorted, and equal to the sorted copy: the same multiset. */
    if (!rc && memcmp(x, want, n * 8) != 0)
        rc = sgl_error_set(SGL_ETASK, "%s %s: not a permutation of the input",
                           tn, dn);
    free(x);
    free(want);
    if (rc)
        return rc;
    got_max = st.max_block;
    got_min = st.min_block;
    got_p = p;
    return SGL_OK;
}

struct row {
    int dist, dtype;
    size_t p, max;
    char shape[48];
    int ok;
};
static struct row rows[MAX_ROWS];
static size_t nrows;

static double ratio(size_t max, size_t n, size_t p)
{
    return (double)max * (double)p / (double)n;
}

static void print_table(size_t n, int comment)
{
    const char *c = comment ? "# " : "";
    printf("%s%-11s %-4s %3s  %-18s %11s %9s %12s\n", c, "distribution",
           "type", "P", "shape", "max part.", "max/(n/P)", "bound/(n/P)");
    double worst = 0;
    size_t wi = 0;
    for (size_t i = 0; i < nrows; i++) {
        const struct row *r = &rows[i];
        double q = ratio(r->max, n, r->p);
        double b = 2.0 + (double)(r->p * r->p) * (double)r->p / (double)n;
        if (!r->ok) {
            printf("%s%-11s %-4s %3zu  %-18s %11s %9s %12.4f\n", c,
                   dist_names[r->dist], r->dtype == SGL_F64 ? "f64" : "u64",
                   r->p, r->shape, "failed", "-", b);
            continue;
        }
        if (q > worst)
            worst = q, wi = i;
        printf("%s%-11s %-4s %3zu  %-18s %11zu %9.4f %12.4f\n", c,
               dist_names[r->dist], r->dtype == SGL_F64 ? "f64" : "u64",
               r->p, r->shape, r->max, q, b);
    }
    if (nrows)
        printf("%sworst: %.4f n/P (%s %s, P = %zu, n = %zu); the bound is "
               "2 n/P + P^2\n",
               c, worst, dist_names[rows[wi].dist],
               rows[wi].dtype == SGL_F64 ? "f64" : "u64", rows[wi].p, n);
}

static int run_shape(const char *shape, size_t n, int report, int rank)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    o.trace = 0;
    sgl_runtime_t *rt;
    int rc = sgl_init_comm(MPI_COMM_WORLD, &o, &rt);
    if (!rc && (rc = sgl_algorithms_register(rt)))
        sgl_finalize(rt);
    if (rc) {
        char what[160];
        snprintf(what, sizeof what, "start a runtime on shape \"%s\"", shape);
        tap_expect(what, rc, SGL_OK);
        return rc;
    }
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    static const int types[] = {SGL_F64, SGL_U64};
    for (int d = 0; d < D_COUNT; d++)
        for (int t = 0; t < 2; t++) {
            struct skew_arg a = {d, types[t], n, 1000 + (uint64_t)d};
            got_max = got_min = got_p = 0;
            rc = sgl_run(rt, skew_main, &a, sizeof a);
            if (rank != 0)
                continue;
            /* Integer form of max <= 2 n/P + P^2. */
            int within = got_max * p <= 2 * n + p * p * p;
            char what[200], note[400];
            snprintf(what, sizeof what, "%s %s n=%zu P=%zu (%s)",
                     types[t] == SGL_F64 ? "f64" : "u64", dist_names[d], n, p,
                     shape);
            if (rc)
                snprintf(note, sizeof note, "%s: %s", sgl_error_name(rc),
                         sgl_error_last());
            else
                snprintf(note, sizeof note,
                         "largest partition %zu = %.4f n/P, smallest %zu; "
                         "bound 2n/P+P^2 = %.0f%s",
                         got_max, ratio(got_max, n, p), got_min,
                         2.0 * (double)n / (double)p + (double)(p * p),
                         within ? "" : ": EXCEEDED");
            if (report)
                tap_passed += !rc && within, tap_failed += rc || !within;
            else
                tap_ok(what, !rc && within, note);
            if (nrows < MAX_ROWS) {
                struct row *r = &rows[nrows++];
                *r = (struct row){d, types[t], p, got_max, "", !rc && within};
                snprintf(r->shape, sizeof r->shape, "%s", shape);
            }
        }
    return sgl_finalize(rt);
}

int main(int argc, char **argv)
{
    int provided;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) !=
        MPI_SUCCESS) {
        fprintf(stderr, "psrs_skew: MPI_Init_thread failed\n");
        return 1;
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    tap_quiet = rank != 0;
    int report = 0;
    size_t n = 500009;
    const char *shapes[MAX_SHAPES];
    size_t nshapes = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--report") == 0) {
            report = 1;
        } else if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
            char *end;
            errno = 0;
            double v = strtod(argv[++i], &end);
            if (*end || errno || !(v >= 1 && v <= 1e10)) {
                fprintf(stderr, "psrs_skew: bad --n '%s'\n", argv[i]);
                MPI_Finalize();
                return 2;
            }
            n = (size_t)v;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: psrs_skew [--report] [--n N] "
                            "[SHAPE...]\n");
            MPI_Finalize();
            return 2;
        } else if (nshapes < MAX_SHAPES) {
            shapes[nshapes++] = argv[i];
        }
    }
    static char mshape[2][64];
    if (nshapes == 0 && size == 1) {
        shapes[0] = "core:2";
        shapes[1] = "core:4";
        shapes[2] = "core:8";
        shapes[3] = "package:2 core:8";
        nshapes = 4;
    } else if (nshapes == 0) {
        snprintf(mshape[0], sizeof mshape[0], "rank:%d", size);
        snprintf(mshape[1], sizeof mshape[1], "rank:%d core:2", size);
        shapes[0] = mshape[0];
        shapes[1] = mshape[1];
        nshapes = 2;
    }
    if (zipf_table(0, 1.0) || zipf_table(1, 1.5)) {
        fprintf(stderr, "psrs_skew: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0 && !report)
        printf("# PSRS skew: n = %zu, %d process(es), %zu shape(s)\n", n,
               size, nshapes);
    for (size_t s = 0; s < nshapes; s++)
        if (run_shape(shapes[s], n, report, rank) != SGL_OK && rank == 0)
            tap_failed++;
    if (rank == 0)
        print_table(n, !report);
    free(zipf_cdf[0]);
    free(zipf_cdf[1]);
    MPI_Finalize();
    if (report)
        return tap_failed ? 1 : 0;
    return tap_done();
}
