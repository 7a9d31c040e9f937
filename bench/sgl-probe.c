/* sgl-probe: measure the cost parameters of every level of the machine the
 * runtime runs on, and of the workers' kernels, and write a machine file.
 *
 * Each level is measured with its own primitives, as the SGL paper does,
 * and through the runtime's own supersteps:
 *   MPI level     l: MPI_Barrier; g_down: MPI_Scatterv; g_up: MPI_Gatherv
 *                 (over all ranks of MPI_COMM_WORLD)
 *   thread level  l: OpenMP barrier (and the fork/join of a region);
 *                 g: every child memcpy's its share into its own buffer
 *   runtime       a superstep that scatters k bytes (t = 2 l + k g_down)
 *                 and one that gathers k bytes (t = 2 l + k g_up)
 * over total sizes from 1 word to 1e7 words (4-byte words), medians of 5,
 * fitted by least squares t = a + k b weighted by 1/t^2 (relative error,
 * so that small sizes count), with R^2 and the largest relative residual.
 * The small-message regime (<= 4 KiB per child) is fitted on its own; the
 * file gets the large regime as the level's parameters and the small one
 * as its small-message regime. The runtime's figures go into the file,
 * since predictions are of runtime programs; the raw ones are printed.
 * The kernels' c are measured by running the reference algorithms
 * themselves on a private one-worker (merge: two-worker) runtime of rank 0,
 * at n = 1e7 elements (1e6 with --quick); see measure_kernels().
 *
 * Usage: sgl-probe [--quick] [-o FILE]     (alone, or under mpirun -n N) */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sgl/algorithms.h>
#include <sgl/sgl.h>
#include <sgl/sgl_mpi.h>

#define MAX_SIZES 32
#define TRIALS 5
#define SMALL_BYTES 4096.0

struct plan {
    int quick;
    size_t nsizes;
    size_t words[MAX_SIZES]; /* total words per measurement */
    size_t kernel_n;
    double min_time; /* seconds per measured point */
    const char *out;
};

/* One curve: time per operation at each size. */
struct curve {
    double t[MAX_SIZES];
};

struct fit {
    double a, b, r2, worst;
    size_t points;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Weighted least squares of t = a + b k over the points with
 * lo <= k <= hi (bytes); weights 1/t^2 make it fit relative error. */
static struct fit fit_line(const struct plan *pl, const struct curve *c,
                           double lo, double hi)
{
    double sw = 0, sk = 0, st = 0, skk = 0, skt = 0;
    struct fit f = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < pl->nsizes; i++) {
        double k = 4.0 * (double)pl->words[i], t = c->t[i];
        if (k < lo || k > hi || !(t > 0))
            continue;
        double w = 1 / (t * t);
        sw += w, sk += w * k, st += w * t, skk += w * k * k, skt += w * k * t;
        f.points++;
    }
    double det = sw * skk - sk * sk;
    if (f.points < 2 || det == 0)
        return f;
    f.b = (sw * skt - sk * st) / det;
    f.a = (st - f.b * sk) / sw;
    double mean = st / sw, ss_res = 0, ss_tot = 0;
    for (size_t i = 0; i < pl->nsizes; i++) {
        double k = 4.0 * (double)pl->words[i], t = c->t[i];
        if (k < lo || k > hi || !(t > 0))
            continue;
        double w = 1 / (t * t), e = t - (f.a + f.b * k);
        ss_res += w * e * e;
        ss_tot += w * (t - mean) * (t - mean);
        if (fabs(e) / t > f.worst)
            f.worst = fabs(e) / t;
    }
    f.r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
    return f;
}

/* Repetitions so that one measured point takes about min_time. */
static int reps_for(double once, double min_time)
{
    if (!(once > 0))
        return 1000;
    double r = min_time / once;
    return r < 1 ? 1 : r > 100000 ? 100000 : (int)r;
}

/* ---- the runtime's own supersteps, at the masters of one level ---- */

struct probe_arg {
    unsigned level;
    struct plan plan;
};

/* What a probing master hands up: two curves and the raw thread-level
 * primitives (zero at an MPI level, which is measured outside the run). */
struct level_result {
    struct curve down, up, raw_copy;
    double raw_barrier, raw_fork;
    unsigned link;
};

static int nothing(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)ctx, (void)arg, (void)size;
    return SGL_OK;
}

static int put_bytes(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    void *d;
    return sgl_put_buffer(ctx, *(const size_t *)arg, &d);
}

/* Time of one superstep that scatters (down) or gathers (up) k bytes. */
static int time_superstep(sgl_ctx_t *ctx, size_t k, int up, char *buf,
                          size_t *counts, int reps, double *ret)
{
    unsigned p = sgl_ctx_children(ctx);
    size_t each = k / p;
    for (unsigned i = 0; i < p; i++)
        counts[i] = each;
    double t0 = now();
    for (int r = 0; r < reps; r++) {
        int rc;
        if (up) {
            rc = sgl_pardo(ctx, put_bytes, &each, sizeof each);
            if (!rc)
                rc = sgl_gather(ctx, buf, 1, k, NULL);
        } else {
            rc = sgl_scatter(ctx, buf, 1, counts);
            if (!rc)
                rc = sgl_pardo(ctx, nothing, NULL, 0);
        }
        if (rc)
            return rc;
    }
    *ret = (now() - t0) / reps;
    return SGL_OK;
}

static void raw_threads(unsigned p, const struct plan *pl,
                        struct level_result *res)
{
    int reps = pl->quick ? 2000 : 20000;
    double t0 = now();
#pragma omp parallel num_threads(p)
    for (int r = 0; r < reps; r++) {
#pragma omp barrier
    }
    res->raw_barrier = (now() - t0) / reps;
    t0 = now();
    for (int r = 0; r < reps / 10; r++) {
#pragma omp parallel num_threads(p)
        {
            __asm__ volatile("" ::: "memory");
        }
    }
    res->raw_fork = (now() - t0) / (reps / 10);
    size_t max = 4 * pl->words[pl->nsizes - 1];
    char *src = malloc(max);
    char **dst = calloc(p, sizeof *dst);
    if (!src || !dst) {
        free(src);
        free(dst);
        return;
    }
    memset(src, 1, max);
#pragma omp parallel num_threads(p)
    {
        /* Each child's buffer is first touched by the child. */
        int t = omp_get_thread_num();
        dst[t] = malloc(max / p + 64);
        if (dst[t])
            memset(dst[t], 0, max / p + 64);
    }
    for (size_t s = 0; s < pl->nsizes; s++) {
        size_t k = 4 * pl->words[s], each = k / p;
        double tr[TRIALS];
        int reps_k = 1;
        for (int t = 0; t < TRIALS; t++) {
            double a = now();
            for (int r = 0; r < reps_k; r++) {
#pragma omp parallel num_threads(p)
                {
                    int me = omp_get_thread_num();
                    if (dst[me])
                        memcpy(dst[me], src + (size_t)me * each, each);
                }
            }
            tr[t] = (now() - a) / reps_k;
            if (t == 0)
                reps_k = reps_for(tr[0], pl->min_time);
        }
        res->raw_copy.t[s] = median(tr, TRIALS);
    }
    for (unsigned i = 0; i < p; i++)
        free(dst[i]);
    free(dst);
    free(src);
}

static int probe_here(sgl_ctx_t *ctx, const struct plan *pl,
                      struct level_result *res)
{
    unsigned p = sgl_ctx_children(ctx);
    size_t max = 4 * pl->words[pl->nsizes - 1];
    char *buf = malloc(max);
    size_t *counts = malloc(p * sizeof *counts);
    if (!buf || !counts) {
        free(buf);
        free(counts);
        return sgl_error_set(SGL_ENOMEM, "sgl-probe: out of memory");
    }
    memset(buf, 1, max);
    memset(res, 0, sizeof *res);
    res->link = (unsigned)sgl_node_link(sgl_ctx_node(ctx));
    int rc = SGL_OK;
    for (size_t s = 0; !rc && s < pl->nsizes; s++) {
        for (int up = 0; !rc && up < 2; up++) {
            double tr[TRIALS], once = 0;
            rc = time_superstep(ctx, 4 * pl->words[s], up, buf, counts, 1,
                                &once);
            int reps = reps_for(once, pl->min_time);
            for (int t = 0; !rc && t < TRIALS; t++)
                rc = time_superstep(ctx, 4 * pl->words[s], up, buf, counts,
                                    reps, &tr[t]);
            if (!rc)
                (up ? &res->up : &res->down)->t[s] = median(tr, TRIALS);
        }
    }
    free(buf);
    free(counts);
    if (!rc && res->link == SGL_LINK_THREADS)
        raw_threads(p, pl, res);
    return rc;
}

/* Descend to the first master of the target level; it probes, everyone
 * else on the way passes the result of child 0 up. */
static int probe_task(sgl_ctx_t *ctx, const void *arg, size_t size);

static int probe_level(sgl_ctx_t *ctx, const struct probe_arg *a,
                       struct level_result *res)
{
    if (sgl_ctx_level(ctx) == a->level)
        return probe_here(ctx, &a->plan, res);
    if (sgl_ctx_index(ctx) != 0 && !sgl_ctx_is_root(ctx))
        return SGL_OK; /* only the leftmost path probes */
    int rc = sgl_pardo(ctx, probe_task, a, sizeof *a);
    const void *d;
    size_t n;
    if (!rc)
        rc = sgl_gather_block(ctx, 0, &d, &n);
    if (!rc && n != sizeof *res)
        rc = sgl_error_set(SGL_ESIZE, "sgl-probe: level result of %zu bytes",
                           n);
    if (!rc)
        memcpy(res, d, sizeof *res);
    return rc;
}

static int probe_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct probe_arg *a = arg;
    if (sgl_ctx_is_worker(ctx))
        return SGL_OK;
    struct level_result res;
    int rc = probe_level(ctx, a, &res);
    if (rc || (sgl_ctx_index(ctx) != 0 && sgl_ctx_level(ctx) != a->level))
        return rc;
    return sgl_put(ctx, &res, sizeof res);
}

struct main_arg {
    struct probe_arg a;
    struct level_result *res;
};

static int probe_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct main_arg *m = arg;
    return probe_level(root, &m->a, m->res);
}

/* ---- raw MPI over all ranks ---- */

struct mpi_raw {
    double barrier;
    struct curve scatter, gather;
};

static void raw_mpi(const struct plan *pl, struct mpi_raw *raw)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int reps = pl->quick ? 200 : 2000;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    for (int r = 0; r < reps; r++)
        MPI_Barrier(MPI_COMM_WORLD);
    raw->barrier = (now() - t0) / reps;
    size_t max = 4 * pl->words[pl->nsizes - 1];
    char *all = malloc(max), *part = malloc(max / (size_t)size + 1);
    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)size * sizeof *displs);
    if (!all || !part || !counts || !displs)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(all, 1, max);
    memset(part, 1, max / (size_t)size + 1);
    for (size_t s = 0; s < pl->nsizes; s++) {
        int each = (int)(4 * pl->words[s] / (size_t)size);
        for (int i = 0; i < size; i++) {
            counts[i] = each;
            displs[i] = i * each;
        }
        for (int g = 0; g < 2; g++) {
            double tr[TRIALS];
            int reps_k = 1;
            for (int t = 0; t < TRIALS; t++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double a = now();
                for (int r = 0; r < reps_k; r++) {
                    if (g)
                        MPI_Gatherv(part, each, MPI_BYTE, all, counts, displs,
                                    MPI_BYTE, 0, MPI_COMM_WORLD);
                    else
                        MPI_Scatterv(all, counts, displs, MPI_BYTE, part, each,
                                     MPI_BYTE, 0, MPI_COMM_WORLD);
                }
                tr[t] = (now() - a) / reps_k;
                /* Rank 0 decides the repetitions, so all ranks agree. */
                if (t == 0) {
                    reps_k = reps_for(tr[0], pl->min_time);
                    MPI_Bcast(&reps_k, 1, MPI_INT, 0, MPI_COMM_WORLD);
                }
            }
            (g ? &raw->gather : &raw->scatter)->t[s] = median(tr, TRIALS);
        }
    }
    free(all);
    free(part);
    free(counts);
    free(displs);
}

/* ---- kernels: the algorithms themselves, on a private runtime ---- */

/* c of each kernel as the closed form (machine/predict_algorithms.c)
 * charges it, measured on the code the algorithms run, at the size the
 * main job cares about (n = 1e7, 1e6 with --quick), medians of TRIALS
 * timed runs after one warm-up; reductions and scans from cold caches
 * (flush_caches()), sorts right after the fill of a fresh vector, each as
 * bench_main runs them:
 *   sum, product  sgl_dvec_reduce(SUM / PROD) on one worker, / n
 *   scan          sgl_dvec_scan(SGL_SCAN_REDUCE_FIRST) on one worker, / n
 *                 (the variant bench_main runs; on one worker it is the
 *                 local scan the down pass also runs)
 *   sort          sgl_dvec_sort on one worker, / n: with one worker PSRS is
 *                 its local sort (key mapping, radix sort, key
 *                 mapping back), linear in n
 *   merge         sgl_dvec_sort on two workers: the S3 task time of the
 *                 workers from the trace (their 2-way merge of the bucket
 *                 runs, with the key mapping back), / (elements * log2 2)
 * The runtimes are created on rank 0 alone over MPI_COMM_SELF (one worker:
 * "core:1"; two: "core:2"), with the threads of this process. */

struct kernels {
    double sum, product, scan, sort, merge;
};

struct kjob {
    int what; /* 0: one-worker kernels; 1 create, 2 sort, 3 free (merge) */
    size_t n;
    uint64_t seed;
    struct kernels *k;
};

static sgl_dvec_t *g_vec; /* the merge runs' vector, across sgl_run()s */

/* Evict the caches before a timed reduction or scan: in the main job each
 * of those runs comes after the peers have streamed their own n elements,
 * so it starts cold even at sizes that fit the last-level cache. */
#define FLUSH_BYTES ((size_t)96 << 20)
static unsigned char *g_flush;

static void flush_caches(void)
{
    if (!g_flush)
        g_flush = malloc(FLUSH_BYTES);
    if (!g_flush)
        return;
    static unsigned char v;
    memset(g_flush, ++v, FLUSH_BYTES);
    __asm__ volatile("" ::"r"(g_flush) : "memory");
}

static int kernels_one(sgl_ctx_t *root, const struct kjob *j)
{
    sgl_dvec_t *x = NULL, *y = NULL;
    uint64_t seed = j->seed;
    double n = (double)j->n, tr[TRIALS], res;
    int rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &x);
    if (!rc)
        rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_NONE, NULL, 0,
                             &y);
    /* t = -1 is the warm-up. */
    for (int what = 0; !rc && what < 3; what++) {
        for (int t = -1; !rc && t < TRIALS; t++) {
            flush_caches();
            double a = now();
            if (what == 0)
                rc = sgl_dvec_reduce(root, x, SGL_OP_SUM, 0, &res);
            else if (what == 1)
                rc = sgl_dvec_reduce(root, x, SGL_OP_PROD, 0, &res);
            else
                rc = sgl_dvec_scan(root, x, y, SGL_OP_SUM,
                                   SGL_SCAN_REDUCE_FIRST);
            if (t >= 0)
                tr[t] = (now() - a) / n;
        }
        if (!rc)
            *(what == 0 ? &j->k->sum : what == 1 ? &j->k->product
                                                 : &j->k->scan) =
                median(tr, TRIALS);
    }
    int r2 = sgl_dvec_free(root, y);
    rc = rc ? rc : r2;
    /* Sort: a fresh random vector for every run, as bench_main does. */
    for (int t = -1; !rc && t < TRIALS; t++) {
        sgl_dvec_t *v = NULL;
        seed = j->seed + 100 + (uint64_t)(t + 1);
        rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &v);
        double a = now(); /* warm from the fill, as in bench_main */
        if (!rc)
            rc = sgl_dvec_sort(root, v, NULL);
        if (t >= 0)
            tr[t] = (now() - a) / n;
        r2 = sgl_dvec_free(root, v);
        rc = rc ? rc : r2;
    }
    if (!rc)
        j->k->sort = median(tr, TRIALS);
    r2 = sgl_dvec_free(root, x);
    return rc ? rc : r2;
}

static int kernels_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct kjob *j = arg;
    if (j->what == 0)
        return kernels_one(root, j);
    if (j->what == 1)
        return sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_RANDOM,
                               &j->seed, sizeof j->seed, &g_vec);
    if (j->what == 2)
        return sgl_dvec_sort(root, g_vec, NULL);
    int rc = sgl_dvec_free(root, g_vec);
    g_vec = NULL;
    return rc;
}

static int kernel_runtime(const char *shape, int trace, sgl_runtime_t **rt)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    o.trace = trace;
    o.max_threads = 2;
    o.bind = 0;
    *rt = NULL;
    int rc = sgl_init_comm(MPI_COMM_SELF, &o, rt);
    if (!rc && ((rc = sgl_algorithms_register(*rt)) ||
                (rc = sgl_task_register(*rt, kernels_task, "kernels")))) {
        sgl_finalize(*rt);
        *rt = NULL;
    }
    return rc;
}

/* Seconds per element of the workers' S3 (merge) in the last sort traced
 * on @rt: the sum of their S3 task times over the elements they hold. */
static double s3_per_element(sgl_runtime_t *rt, const size_t *counts)
{
    sgl_trace_step_t st, s3 = {0};
    int found = 0;
    for (size_t q = 0; q < sgl_trace_steps(rt); q++)
        if (sgl_trace_step(rt, q, &st) == SGL_OK && st.level == 0) {
            s3 = st; /* the sort's last root superstep is S3 */
            found = 1;
        }
    if (!found)
        return NAN;
    double t = 0, m = 0;
    for (unsigned i = 0; i < s3.children; i++) {
        t += s3.child_time[i];
        m += (double)counts[i];
    }
    return m > 0 ? t / m : NAN;
}

/* On rank 0 only. @return SGL_OK or an error (with sgl_last_error()). */
static int measure_kernels(size_t n, struct kernels *k)
{
    memset(k, 0, sizeof *k);
    k->merge = NAN;
    sgl_runtime_t *rt;
    int rc = kernel_runtime("core:1", 0, &rt);
    if (rc)
        return rc;
    struct kjob j = {0, n, 1, k};
    rc = sgl_run(rt, kernels_task, &j, sizeof j);
    int r2 = sgl_finalize(rt);
    if (rc || r2)
        return rc ? rc : r2;

    if ((rc = kernel_runtime("core:2", 1, &rt)))
        return rc;
    double tr[TRIALS];
    for (int t = -1; !rc && t < TRIALS; t++) {
        j.seed = 200 + (uint64_t)(t + 1);
        j.what = 1;
        rc = sgl_run(rt, kernels_task, &j, sizeof j);
        if (rc)
            break;
        sgl_trace_clear(rt);
        j.what = 2;
        rc = sgl_run(rt, kernels_task, &j, sizeof j);
        /* log2 P = 1 merge level for P = 2. */
        if (!rc && t >= 0)
            tr[t] = s3_per_element(rt, sgl_dvec_counts(g_vec));
        j.what = 3;
        r2 = sgl_run(rt, kernels_task, &j, sizeof j);
        rc = rc ? rc : r2;
    }
    if (!rc)
        k->merge = median(tr, TRIALS);
    free(g_flush);
    g_flush = NULL;
    r2 = sgl_finalize(rt);
    return rc ? rc : r2;
}

/* ---- output ---- */

static void print_fit(const char *what, const struct fit *f, int per_sync)
{
    /* A superstep has two syncs, so its intercept is 2 l. */
    double l = per_sync ? f->a : f->a / 2;
    printf("  %-30s l %10.3f us  g %9.4f ns/B (%8.4f ns/word)  R^2 %.4f  "
           "worst residual %5.1f%%  (%zu points)\n",
           what, 1e6 * l, 1e9 * f->b, 4e9 * f->b, f->r2, 100 * f->worst,
           f->points);
}

static double nonneg(double x) { return x > 0 ? x : 0; }

/* Whether the machine file can be written, checked before minutes of
 * measuring: open it for writing without truncating (an existing file is
 * kept until the probe has something to write), and remove it again if
 * this check created it. Returns 0 or the errno. */
static int check_writable(const char *path)
{
    struct stat st;
    int existed = stat(path, &st) == 0;
    if (existed && S_ISDIR(st.st_mode))
        return EISDIR;
    int fd = open(path, O_WRONLY | O_CREAT | (existed ? 0 : O_EXCL), 0666);
    if (fd < 0)
        return errno;
    close(fd);
    if (!existed)
        unlink(path);
    return 0;
}

int main(int argc, char **argv)
{
    struct plan pl = {0};
    pl.out = "machine.sgl";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            pl.quick = 1;
        else if (strcmp(argv[i], "-o") == 0) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0') {
                fprintf(stderr, "sgl-probe: option -o needs a FILE argument "
                                "(the machine file to write; try --help)\n");
                return 2;
            }
            pl.out = argv[++i];
        }
        else if (strcmp(argv[i], "--help") == 0) {
            printf("usage: sgl-probe [--quick] [-o FILE]\n"
                   "Measures l, g_down, g_up per level and c per kernel and\n"
                   "writes a machine file (default machine.sgl). Run alone\n"
                   "or under mpirun -n N.\n");
            return 0;
        } else {
            fprintf(stderr, "sgl-probe: unknown option '%s' (try --help)\n",
                    argv[i]);
            return 2;
        }
    }
    size_t top = pl.quick ? 1000000 : 10000000;
    for (size_t w = 1; w <= top && pl.nsizes < MAX_SIZES; w *= 10) {
        pl.words[pl.nsizes++] = w;
        if (3 * w <= top)
            pl.words[pl.nsizes++] = 3 * w;
    }
    pl.kernel_n = pl.quick ? 1000000 : 10000000;
    pl.min_time = pl.quick ? 0.002 : 0.01;

    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt) ||
        sgl_task_register(rt, probe_task, "probe") ||
        sgl_task_register(rt, nothing, "nothing") ||
        sgl_task_register(rt, put_bytes, "put_bytes")) {
        fprintf(stderr, "sgl-probe: %s\n", sgl_last_error());
        return 1;
    }
    int rank = sgl_runtime_rank(rt), size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Rank 0 writes the file: it alone checks, and every rank stops. */
    int werr = rank == 0 ? check_writable(pl.out) : 0;
    MPI_Allreduce(MPI_IN_PLACE, &werr, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (werr) {
        if (rank == 0)
            fprintf(stderr, "sgl-probe: cannot write the machine file %s: "
                            "%s (nothing measured)\n",
                    pl.out, strerror(werr));
        sgl_finalize(rt);
        return 1;
    }
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    unsigned depth = sgl_machine_depth(m);
    double t_start = now();

    struct mpi_raw raw;
    int have_raw = size > 1;
    if (have_raw) {
        if (rank == 0)
            fprintf(stderr, "sgl-probe: raw MPI (%d ranks)\n", size);
        raw_mpi(&pl, &raw);
    }
    struct level_result *res = calloc(depth + 1, sizeof *res);
    int rc = res ? SGL_OK : SGL_ENOMEM;
    for (unsigned L = 0; !rc && L < depth; L++) {
        if (sgl_machine_level_masters(m, L) == 0)
            continue;
        if (rank == 0)
            fprintf(stderr, "sgl-probe: level %u (%s), runtime supersteps\n",
                    L, sgl_link_name(sgl_node_link(sgl_machine_master(m, L, 0))));
        struct main_arg ma = {{L, pl}, &res[L]};
        rc = sgl_run(rt, probe_main, &ma, sizeof ma);
    }
    if (rc) {
        fprintf(stderr, "sgl-probe: %s\n", sgl_last_error());
        sgl_finalize(rt);
        return 1;
    }
    struct kernels k;
    int kernels_ok = 1;
    if (rank == 0) {
        fprintf(stderr, "sgl-probe: kernels on one worker (n = %zu)\n",
                pl.kernel_n);
        if (measure_kernels(pl.kernel_n, &k)) {
            fprintf(stderr, "sgl-probe: kernels: %s\n", sgl_last_error());
            kernels_ok = 0;
        }
    }

    int status = 0;
    if (rank == 0) {
        sgl_machine_t *out = NULL;
        const char *shape = sgl_machine_shape(m);
        sgl_machine_opts_t mo;
        sgl_machine_opts_default(&mo);
        mo.keep_single = 1;
        if (!shape || sgl_machine_from_shape(shape, &mo, &out)) {
            fprintf(stderr, "sgl-probe: cannot describe the tree as a shape: "
                            "%s\n",
                    sgl_last_error());
            status = 1;
        }
        printf("sgl-probe: %s, %zu workers, %zu processes\n",
               sgl_machine_source(m), sgl_machine_workers(m),
               sgl_machine_processes(m));
        if (have_raw) {
            struct fit fs = fit_line(&pl, &raw.scatter, 0, 1e300);
            struct fit fg = fit_line(&pl, &raw.gather, 0, 1e300);
            printf("raw MPI over %d ranks: MPI_Barrier %.3f us\n", size,
                   1e6 * raw.barrier);
            struct fit ss = fit_line(&pl, &raw.scatter, 0, SMALL_BYTES * 2);
            struct fit gs = fit_line(&pl, &raw.gather, 0, SMALL_BYTES * 2);
            struct fit sl = fit_line(&pl, &raw.scatter, 65536, 1e300);
            struct fit gl = fit_line(&pl, &raw.gather, 65536, 1e300);
            print_fit("MPI_Scatterv (all sizes)", &fs, 1);
            print_fit("MPI_Gatherv (all sizes)", &fg, 1);
            print_fit("MPI_Scatterv, small regime", &ss, 1);
            print_fit("MPI_Gatherv, small regime", &gs, 1);
            print_fit("MPI_Scatterv, large regime", &sl, 1);
            print_fit("MPI_Gatherv, large regime", &gl, 1);
        }
        for (unsigned L = 0; out && L < depth; L++) {
            if (sgl_machine_level_masters(m, L) == 0)
                continue;
            const struct level_result *r = &res[L];
            printf("level %u (%s):\n", L, sgl_link_name((sgl_link_t)r->link));
            if (r->link == SGL_LINK_THREADS) {
                struct fit fc = fit_line(&pl, &r->raw_copy, 0, 1e300);
                printf("  raw OpenMP barrier %.3f us, parallel region "
                       "fork/join %.3f us\n",
                       1e6 * r->raw_barrier, 1e6 * r->raw_fork);
                print_fit("raw memcpy into child buffers", &fc, 1);
            }
            struct fit d = fit_line(&pl, &r->down, 0, 1e300);
            struct fit u = fit_line(&pl, &r->up, 0, 1e300);
            struct fit ds = fit_line(&pl, &r->down, 0, SMALL_BYTES * 2);
            struct fit us = fit_line(&pl, &r->up, 0, SMALL_BYTES * 2);
            struct fit dl = fit_line(&pl, &r->down, 65536, 1e300);
            struct fit ul = fit_line(&pl, &r->up, 65536, 1e300);
            print_fit("sgl scatter superstep (all)", &d, 0);
            print_fit("sgl gather superstep (all)", &u, 0);
            print_fit("sgl scatter, small regime", &ds, 0);
            print_fit("sgl gather, small regime", &us, 0);
            print_fit("sgl scatter, large regime", &dl, 0);
            print_fit("sgl gather, large regime", &ul, 0);
            sgl_link_params_t big = {nonneg((ds.a + us.a) / 4), nonneg(dl.b),
                                     nonneg(ul.b)};
            sgl_link_params_t small = {nonneg((ds.a + us.a) / 4),
                                       nonneg(ds.b), nonneg(us.b)};
            if (sgl_machine_set_level_params(out, L, &big) ||
                sgl_machine_set_level_small_params(out, L, &small,
                                                   SMALL_BYTES)) {
                fprintf(stderr, "sgl-probe: level %u: %s\n", L,
                        sgl_last_error());
                status = 1;
            }
        }
        if (out) {
            printf("kernels (the algorithms on 1 worker, merge on 2; "
                   "seconds per element; merge per element and 2-way "
                   "level):\n  sum %.3g  product %.3g  scan %.3g  sort %.3g  "
                   "merge %.3g\n",
                   k.sum, k.product, k.scan, k.sort, k.merge);
            if (!kernels_ok)
                status = 1;
            if (kernels_ok &&
                (sgl_machine_set_kernel(out, "sum", k.sum) ||
                 sgl_machine_set_kernel(out, "product", k.product) ||
                 sgl_machine_set_kernel(out, "scan", k.scan) ||
                 sgl_machine_set_kernel(out, "sort", k.sort) ||
                 sgl_machine_set_kernel(out, "merge", k.merge))) {
                fprintf(stderr, "sgl-probe: kernels: %s\n", sgl_last_error());
                status = 1;
            }
            char host[256] = "unknown", date[64];
            gethostname(host, sizeof host - 1);
            time_t tt = time(NULL);
            strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
            char method[512];
            snprintf(method, sizeof method,
                     "sgl-probe%s: runtime scatter/gather supersteps, %zu "
                     "sizes 1..%zu words, medians of %d, weighted least "
                     "squares; l from the small regime; %d MPI ranks; "
                     "kernels: the algorithms at n = %zu on 1 worker (sum, "
                     "product, scan, sort per element) and 2 (merge: S3 "
                     "task time per element)",
                     pl.quick ? " --quick" : "", pl.nsizes,
                     pl.words[pl.nsizes - 1], TRIALS, size, pl.kernel_n);
            sgl_machine_set_provenance(out, "host", host);
            sgl_machine_set_provenance(out, "date", date);
            sgl_machine_set_provenance(out, "sgl_version", SGL_VERSION);
            sgl_machine_set_provenance(out, "method", method);
            sgl_machine_set_provenance(out, "source", sgl_machine_source(m));
            if (sgl_machine_save(out, pl.out)) {
                fprintf(stderr, "sgl-probe: %s\n", sgl_last_error());
                status = 1;
            } else {
                printf("wrote %s in %.1f s\n", pl.out, now() - t_start);
            }
        }
        sgl_machine_free(out);
    }
    free(res);
    sgl_finalize(rt);
    return status;
}
