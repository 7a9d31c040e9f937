/* PSRS on the eleven distributions of issue 47 (and three of its own
 * mixed cases) and the paths they take
 * (psrs_paths_programs.h). The references are sequential: qsort for the
 * values, and for records a check that needs none (every index once,
 * its key unchanged, keys in order, equal keys by index). */
#include "psrs_paths_programs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/trace.h>

#include "algo_programs.h"
#include "test_util.h"
#include "one_process.h"

const char *const psrs_dist_names[DIST_COUNT] = {
    "uniform",     "normal", "exponential",   "huge-range",
    "zipf",        "few-unique", "root-dup",  "sorted",
    "reverse",     "almost-sorted", "all-equal", "reverse-runs",
    "reverse-halves", "rotated"};

static double unit(uint64_t *s)
{
    return (double)(test_mix(s) >> 11) * 0x1p-53;
}

/* A finite double with its exponent anywhere in the range. */
static double huge(uint64_t *s)
{
    uint64_t r = test_mix(s), e = 1 + test_mix(s) % 2046;
    uint64_t mant = r & ((UINT64_C(1) << 52) - 1);
    uint64_t b = (r & (UINT64_C(1) << 63)) | e << 52 | mant;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static double draw(enum psrs_dist d, size_t i, size_t n, uint64_t *s)
{
    size_t root = (size_t)sqrt((double)n);
    switch (d) {
    case DIST_UNIFORM:
        return unit(s);
    case DIST_NORMAL:
        return sqrt(-2 * log(1 - unit(s))) * cos(6.283185307179586 * unit(s));
    case DIST_EXPONENTIAL:
        return -log(1 - unit(s));
    case DIST_HUGE_RANGE:
        return huge(s);
    case DIST_ZIPF: /* density ~ 1/k over 1 .. 2^20 */
        return floor(exp(unit(s) * log(1048577.0)));
    case DIST_FEW_UNIQUE:
        return (double)(test_mix(s) % 16);
    case DIST_ROOT_DUP:
        return (double)(i % (root ? root : 1));
    case DIST_SORTED:
    case DIST_ALMOST_SORTED:
        return (double)i;
    case DIST_REVERSE:
        return (double)(n - i);
    case DIST_REVERSE_RUNS:
        return (double)((n - i) / 4);
    case DIST_REVERSE_HALVES:
        return i < n / 2 ? (double)((n / 2 - i) / 2)
                         : (double)(n + (n - i) / 2);
    case DIST_ROTATED:
        return (double)((i + n / 128 + 1) % (n ? n : 1));
    default:
        return 42.0;
    }
}

static void generate(enum psrs_dist d, double *x, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++)
        x[i] = draw(d, i, n, &s);
    if (d != DIST_ALMOST_SORTED || n < 2)
        return;
    size_t swaps = (size_t)sqrt((double)n);
    for (size_t k = 0; k < swaps; k++) {
        size_t i = test_mix(&s) % n, j = test_mix(&s) % n;
        double t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

/* The path input of @d must take, or -1 where it may take several
 * (random keys too few to be surely unordered, equal keys across
 * workers). */
static int expected_path(enum psrs_dist d, size_t n)
{
    if (n <= 1 || d == DIST_SORTED || d == DIST_ALL_EQUAL)
        return SGL_SORT_PATH_SORTED;
    if (d == DIST_REVERSE)
        return SGL_SORT_PATH_REVERSED;
    if (d == DIST_REVERSE_RUNS || (n < 64 && d != DIST_ROOT_DUP) || n < 4)
        return -1;
    return SGL_SORT_PATH_SAMPLES;
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct rec {
    double key;
    uint64_t idx;
};

struct paths_arg {
    uint32_t dist, records;
    size_t n;
    uint64_t seed;
};

/* The block sizes against the bound of the path taken: the presorted
 * paths keep every block within 1/16 (+ 2) of its share, the sampled one
 * within 2n/P + P + 1 (the paper's 2n/P, plus the rounding of samples). */
static int check_stats(const struct paths_arg *a, const sgl_sort_stats_t *st,
                       size_t p, int by_level)
{
    const char *dn = psrs_dist_names[a->dist];
    size_t n = a->n, share = n / p;
    size_t bound = st->path == SGL_SORT_PATH_SAMPLES ? 2 * n / p + p + 1
                                                     : share + share / 16 + 3;
    CHECK(st->n == n, "%s n=%zu: stats count %zu", dn, n, st->n);
    CHECK(st->max_block <= bound, "%s n=%zu P=%zu path %u: block %zu > %zu",
          dn, n, p, st->path, st->max_block, bound);
    /* One worker sorts its block alone (the sampled path's local sort),
     * and by level every sort takes the sampled path. */
    int want = p == 1 || by_level ? SGL_SORT_PATH_SAMPLES
                                  : expected_path((enum psrs_dist)a->dist, n);
    CHECK(want < 0 || st->path == (unsigned)want,
          "%s n=%zu records=%u: path %u, expected %d", dn, n, a->records,
          st->path, want);
    /* Every path names the local sorts; the presorted ones only the one
     * pass (or the insertion sort of a small block). Beyond a few
     * thousand keys per worker, random keys take the radix sort and
     * almost sorted values the nearly sorted one (records: never, their
     * equal keys need the stable radix sort), and few distinct keys (few
     * unique, root duplicates) the few-keys table. */
    unsigned all = SGL_SORT_LOCAL_SMALL | SGL_SORT_LOCAL_PRESORTED |
                   SGL_SORT_LOCAL_NEARLY | SGL_SORT_LOCAL_RADIX |
                   SGL_SORT_LOCAL_FEW;
    if (st->path != SGL_SORT_PATH_SAMPLES)
        all = SGL_SORT_LOCAL_SMALL | SGL_SORT_LOCAL_PRESORTED;
    CHECK(st->local != 0 && (st->local & ~all) == 0,
          "%s n=%zu: local sorts %#x on path %u", dn, n, st->local, st->path);
    if (n / p >= 100000 && st->path == SGL_SORT_PATH_SAMPLES) {
        int few = a->dist == DIST_FEW_UNIQUE || a->dist == DIST_ROOT_DUP;
        unsigned w = 0;
        if (a->dist == DIST_UNIFORM)
            w = SGL_SORT_LOCAL_RADIX;
        else if (a->dist == DIST_ALMOST_SORTED && !a->records)
            w = SGL_SORT_LOCAL_NEARLY;
        else if (few && !a->records)
            w = SGL_SORT_LOCAL_FEW;
        CHECK(!w || (st->local & w), "%s n=%zu: local sorts %#x, not %#x", dn,
              n, st->local, w);
    }
    return SGL_OK;
}

/* Whether a sort of @n elements runs by level with a child of several
 * workers (else by level is the flat sort). */
static int by_level(sgl_ctx_t *root, size_t n)
{
    unsigned v = 0;
    if (sgl_sort_variant(root, n, &v) != SGL_OK || v != SGL_SORT_LEVELS)
        return 0;
    for (unsigned i = 0; i < sgl_ctx_children(root); i++)
        if (sgl_ctx_child_workers(root, i) > 1)
            return 1;
    return 0;
}

static int check_values(const struct paths_arg *a, const double *x,
                        const double *got)
{
    size_t n = a->n;
    double *want = malloc((n ? n : 1) * sizeof *want);
    CHECK(want, "out of memory");
    memcpy(want, x, n * sizeof *want);
    qsort(want, n, sizeof *want, dbl_cmp);
    int same = memcmp(want, got, n * sizeof *want) == 0;
    free(want);
    CHECK(same, "%s n=%zu: not the sorted input", psrs_dist_names[a->dist], n);
    return SGL_OK;
}

/* Every index once, with its own key; keys in order, equal keys by
 * index (stable). */
static int check_records(const struct paths_arg *a, const double *x,
                         const struct rec *r)
{
    size_t n = a->n;
    const char *dn = psrs_dist_names[a->dist];
    unsigned char *seen = calloc(n ? n : 1, 1);
    CHECK(seen, "out of memory");
    int rc = SGL_OK;
    for (size_t i = 0; !rc && i < n; i++) {
        if (r[i].idx >= n || seen[r[i].idx] || x[r[i].idx] != r[i].key)
            rc = sgl_error_set(SGL_ETASK, "%s n=%zu: record %zu not a "
                               "permutation", dn, n, i);
        else
            seen[r[i].idx] = 1;
        if (!rc && i > 0 &&
            (r[i - 1].key > r[i].key ||
             (r[i - 1].key == r[i].key && r[i - 1].idx > r[i].idx)))
            rc = sgl_error_set(SGL_ETASK, "%s n=%zu: records %zu, %zu out of "
                               "order or unstable", dn, n, i - 1, i);
    }
    free(seen);
    return rc;
}

/* Scatter, sort, gather @n elements of @es bytes at @data in place. */
static int sort_round(sgl_ctx_t *root, const struct paths_arg *a, void *data,
                      sgl_sort_stats_t *st)
{
    sgl_dvec_t *v;
    sgl_dtype_t t = a->records ? SGL_USER : SGL_F64;
    size_t es = a->records ? sizeof(struct rec) : sizeof(double);
    SGL_TRY(sgl_dvec_scatter(root, t, a->records ? es : 0, data, a->n, &v));
    int rc = a->records ? sgl_dvec_sort_records(root, v, SGL_F64, 0, st)
                        : sgl_dvec_sort(root, v, st);
    if (!rc)
        rc = sgl_dvec_gather(root, v, data, a->n);
    int rc2 = sgl_dvec_free(root, v);
    return rc ? rc : rc2;
}

static int paths_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct paths_arg *a = arg;
    size_t n = a->n;
    double *x = malloc((n ? n : 1) * sizeof *x);
    struct rec *r = malloc((n ? n : 1) * sizeof *r);
    double *got = malloc((n ? n : 1) * sizeof *got);
    int rc = x && r && got ? SGL_OK
                           : sgl_error_set(SGL_ENOMEM, "out of memory");
    if (!rc) {
        generate((enum psrs_dist)a->dist, x, n, a->seed);
        for (size_t i = 0; i < n; i++)
            r[i] = (struct rec){x[i], i};
        memcpy(got, x, n * sizeof *x);
    }
    sgl_sort_stats_t st;
    if (!rc)
        rc = sort_round(root, a, a->records ? (void *)r : (void *)got, &st);
    if (!rc)
        rc = check_stats(a, &st, sgl_ctx_workers(root), by_level(root, n));
    if (!rc)
        rc = a->records ? check_records(a, x, r) : check_values(a, x, got);
    if (!rc)
        rc = sgl_put(root, &st.path, sizeof st.path, 1);
    free(x);
    free(r);
    free(got);
    return rc;
}

/* Exchange supersteps in this process's trace. */
static size_t exchanges(sgl_runtime_t *rt)
{
    size_t k = 0;
    for (size_t i = 0; i < sgl_trace_steps(rt); i++) {
        sgl_trace_step_t s;
        if (sgl_trace_step(rt, i, &s) == SGL_OK && s.exchange)
            k++;
    }
    return k;
}

/* The trace of one round on rank 0 (the root's process): the sorted path
 * moves nothing, nor does the reverse path in one process (the workers
 * hand each other their reversed blocks); the others exchange. */
static int run_round(sgl_runtime_t *rt, const struct paths_arg *a)
{
    sgl_trace_clear(rt);
    SGL_TRY(sgl_run(rt, paths_main, a, sizeof *a));
    if (sgl_runtime_rank(rt) != 0 ||
        sgl_machine_workers(sgl_runtime_machine(rt)) < 2)
        return SGL_OK;
    const void *res;
    size_t cnt;
    SGL_TRY(sgl_run_result(rt, sizeof(unsigned), &res, &cnt));
    CHECK(cnt == 1, "the run put %zu paths", cnt);
    unsigned path;
    memcpy(&path, res, sizeof path);
    size_t k = exchanges(rt);
    int still = path == SGL_SORT_PATH_SORTED ||
                (path == SGL_SORT_PATH_REVERSED && one_process(rt));
    CHECK(still ? k == 0 : k > 0,
          "%s n=%zu: path %u with %zu exchange supersteps in the trace",
          psrs_dist_names[a->dist], a->n, path, k);
    return SGL_OK;
}

int psrs_paths_check(sgl_runtime_t *rt, enum psrs_dist d, size_t n,
                     uint64_t seed)
{
    struct paths_arg a = {(uint32_t)d, 0, n, seed};
    SGL_TRY(run_round(rt, &a));
    a.records = 1;
    return run_round(rt, &a);
}

int psrs_paths_register(sgl_runtime_t *rt)
{
    SGL_TRY(algo_test_register(rt));
    return sgl_task_register(rt, paths_main, "psrs_paths_main");
}
