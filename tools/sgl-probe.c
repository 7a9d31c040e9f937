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
 *                 and one that gathers k bytes (t = 2 l + k g_up); at a
 *                 thread level also the view path (children take their
 *                 parts with sgl_recv_view(), put into the master's
 *                 destination with sgl_gather_into()): the 'level L
 *                 view' record the predictor prices views with
 *   exchange      l_h, g_h (docs/design.md, "Exchange supersteps"), t = l_h + g_h h with h
 *                 the bytes each child sends and receives: at an MPI
 *                 level an MPI_Alltoall of b bytes per pair among one
 *                 rank per child of the level's first master
 *                 (h = b (p-1)), at a thread level every thread copying
 *                 b bytes from its neighbour's buffer after a barrier
 *                 (h = b); b from 8 B to 1 MiB
 * over total sizes from 1 word to 1e7 words (4-byte words), medians of 5,
 * fitted by least squares t = a + k b weighted by 1/t^2 (relative error,
 * so that small sizes count), with R^2 and the largest relative residual.
 * The small-message regime (<= 4 KiB per child) is fitted on its own; the
 * file gets the large regime as the level's parameters and the small one
 * as its small-message regime. The runtime's figures go into the file,
 * since predictions are of runtime programs; the raw ones are printed.
 * The kernels' c are measured by running the reference algorithms
 * themselves on private runtimes of rank 0, one worker alone and all cores
 * at once, over block sizes 1e4..1e7 (1e6 with --quick); see
 * measure_kernels(). MPI levels whose ranks all run on one host are
 * written as sharing memory.
 *
 * --drift BASE re-measures a probe: the same tree, the same method and
 * sizes as BASE's probe (--quick or not, from BASE's provenance), the
 * levels' supersteps, the exchange and the kernels again (not the raw MPI
 * primitives, which the file does not hold), and writes BASE with the
 * re-measured values in their place; --drift-csv FILE appends one row per
 * parameter, before (BASE) and after (now), so that bench/run can say how
 * far the machine moved while it ran (see write_drift()).
 *
 * Usage: sgl-probe [--quick] [-o|--output FILE]   (alone, or under mpirun
 * -n N); --help says more. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sgl/algorithms.h>
#include <sgl/sgl.h>
#include <sgl/sgl_mpi.h>
#include <sgl/balance.h>
#include <sgl/blocks.h>
#include <sgl/trace.h>

#include "bench_csv.h"
#include "flush_task.h"
#include "probe_budget.h"
#include "probe_fit.h"
#include "probe_workers.h"
#include "timing.h"
#include "trace_step.h"

#define MAX_SIZES 32
#define TRIALS 5
#define SMALL_BYTES 4096.0
/* Bytes per pair of an exchange measurement. Up to 16 MiB: an
 * algorithm's exchange moves blocks that outgrow the caches (PSRS on 2
 * ranks: 20 MB a rank at 1e7), and the probe that stopped at 1 MiB priced
 * cache bandwidth, a fifth to a tenth of what PSRS's exchanges took. */
static const double xbytes[] = {8,       64,      512,     4096,    32768,
                                262144,  1048576, 4194304, 8388608, 16777216};
#define NX (sizeof xbytes / sizeof *xbytes)
/* The large regime of the exchange's fit: from here the buffers of two
 * workers exceed this VM's caches. */
#define XCHG_LARGE_BYTES 4194304.0

/* The exchange's buffers straight from the system: freed through malloc,
 * blocks of 16 MiB would raise glibc's mmap threshold, and the kernels
 * measured after them then got heap memory on 4 KiB pages (a sum over 1e6
 * doubles per thread measured at 0.56 ns per element instead of 0.26,
 * which the sweep never saw). NULL when out of memory. */
static void *xbuf_alloc(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void xbuf_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes);
}
/* Largest buffer one rank allocates for an all-to-all. */
#define XCHG_MAX_BYTES ((size_t)64 << 20)

struct plan {
    int quick;
    int per_worker; /* --per-worker */
    size_t nsizes;
    size_t words[MAX_SIZES]; /* total words per measurement */
    double min_time; /* seconds per measured point */
    const char *out;
    const char *drift_base; /* --drift: the machine file re-measured */
    const char *drift_csv;  /* --drift-csv: rows appended here */
    const char *label;      /* --label: the drift rows' first column */
    int intervals;          /* --intervals */
    double budget;          /* --budget: seconds, 0 none */
};

/* One curve: time per operation at each size. */
struct curve {
    double t[MAX_SIZES];
};

/* Exchange times against h, the bytes of the busiest child. */
struct xcurve {
    size_t n;
    double h[NX], t[NX];
};

/* The probe's progress on stderr, one line per step, from rank 0 only:
 * "step k of N" with what it measures and, from the second step on, the
 * time left at the pace so far. */
struct progress {
    int step, steps;
    double begin;
    int quiet; /* ranks other than 0 */
};

static void progress(struct progress *p, const char *fmt, ...)
{
    p->step++;
    if (p->quiet)
        return;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "sgl-probe: step %d of %d: %s", p->step, p->steps, what);
    if (p->step > 1)
        fprintf(stderr, "; ETA %.0f s",
                bench_eta(bench_now() - p->begin, p->step - 1, p->steps));
    fputc('\n', stderr);
}

/* The same over a curve of the plan's sizes, k in bytes. */
static struct probe_fit fit_line(const struct plan *pl,
                                 const struct curve *c, double lo, double hi)
{
    double k[MAX_SIZES];
    for (size_t i = 0; i < pl->nsizes; i++)
        k[i] = 4.0 * (double)pl->words[i];
    struct probe_fit f = probe_fit_points(k, c->t, pl->nsizes, lo, hi);
    probe_fit_interval(k, c->t, pl->nsizes, lo, hi, &f);
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
    struct curve vdown, vup; /* the view path, thread level only */
    struct xcurve xchg; /* thread level only */
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
    return sgl_put_buffer(ctx, 1, *(const size_t *)arg, &d);
}

/* put_bytes with the part written, as a kernel writes its output: the
 * gather then copies real memory (an untouched buffer reads the zero
 * page, which made a thread level's copying g_up come out near 0). */
static int put_written(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    void *d;
    size_t each = *(const size_t *)arg;
    SGL_TRY(sgl_put_buffer(ctx, 1, each, &d));
    memset(d, 2, each);
    return SGL_OK;
}

/* A child of the view path's scatter: it takes its part where it lies
 * and reads nothing (the reading is its kernel's, in the kernel's c). */
static int view_bytes(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    const void *d;
    size_t n;
    return sgl_recv_view(ctx, 1, &d, &n);
}

/* Which superstep time_superstep() times: the copying scatter and gather
 * the level's g_down and g_up come from, and the view path (children
 * read their parts in place, and put in place with sgl_gather_into()),
 * with the children writing their parts (STEP_VUPW) or not. */
enum step_kind {
    STEP_DOWN, STEP_UP, STEP_VDOWN, STEP_VUP, STEP_VUPW, STEP_KINDS
};

static int one_superstep(sgl_ctx_t *ctx, enum step_kind kind, size_t k,
                         size_t each, char *buf, size_t *counts)
{
    int rc = SGL_OK;
    int threads = sgl_node_link(sgl_ctx_node(ctx)) == SGL_LINK_THREADS;
    if (kind == STEP_VUP || kind == STEP_VUPW)
        rc = sgl_gather_into(ctx, buf, 1, counts);
    if (!rc && kind != STEP_DOWN && kind != STEP_VDOWN) {
        /* A thread level's copying gather and STEP_VUPW write their
         * parts; probe_here() takes the write out again (the kernel's c
         * counts writing its output), leaving the copy. */
        int write = kind == STEP_VUPW || (kind == STEP_UP && threads);
        rc = sgl_pardo(ctx, write ? put_written : put_bytes, &each,
                       sizeof each);
        if (!rc)
            rc = sgl_gather(ctx, buf, 1, k, NULL);
        return rc;
    }
    rc = sgl_scatter(ctx, buf, 1, counts);
    if (!rc)
        rc = sgl_pardo(ctx, kind == STEP_VDOWN ? view_bytes : nothing, NULL,
                       0);
    return rc;
}

/* Time of one superstep that scatters or gathers k bytes. */
static int time_superstep(sgl_ctx_t *ctx, size_t k, enum step_kind kind,
                          char *buf, size_t *counts, int reps, double *ret)
{
    unsigned p = sgl_ctx_children(ctx);
    size_t each = k / p;
    for (unsigned i = 0; i < p; i++)
        counts[i] = each;
    double t0 = bench_now();
    for (int r = 0; r < reps; r++) {
        int rc = one_superstep(ctx, kind, k, each, buf, counts);
        if (rc)
            return rc;
    }
    *ret = (bench_now() - t0) / reps;
    return SGL_OK;
}

/* Exchange among @p p threads: after a barrier every thread copies b
 * bytes from its neighbour's buffer into its own, as the runtime's thread
 * exchange reads a sibling's block; each thread sends and receives b, so
 * h = b. Buffers are first touched by their owners. */
static void raw_thread_exchange(unsigned p, const struct plan *pl,
                                struct xcurve *xc)
{
    size_t max = (size_t)xbytes[NX - 1];
    char **src = calloc(p, sizeof *src), **dst = calloc(p, sizeof *dst);
    int ok = src && dst;
    if (ok) {
#pragma omp parallel num_threads(p)
        {
            int t = omp_get_thread_num();
            src[t] = xbuf_alloc(max);
            dst[t] = xbuf_alloc(max);
            if (src[t])
                memset(src[t], 1, max);
            if (dst[t])
                memset(dst[t], 0, max);
        }
        for (unsigned i = 0; i < p; i++)
            ok = ok && src[i] && dst[i];
    }
    xc->n = 0;
    for (size_t s = 0; ok && s < NX; s++) {
        size_t b = (size_t)xbytes[s];
        double tr[TRIALS];
        int reps = 1;
        for (int t = 0; t < TRIALS; t++) {
            double a = bench_now();
#pragma omp parallel num_threads(p)
            {
                int me = omp_get_thread_num();
                const char *from = src[((unsigned)me + 1) % p];
                for (int r = 0; r < reps; r++) {
#pragma omp barrier
                    memcpy(dst[me], from, b);
                }
            }
            tr[t] = (bench_now() - a) / reps;
            if (t == 0)
                reps = reps_for(tr[0], pl->min_time);
        }
        xc->h[xc->n] = (double)b;
        xc->t[xc->n++] = bench_median(tr, TRIALS);
    }
    for (unsigned i = 0; src && dst && i < p; i++) {
        xbuf_free(src[i], max);
        xbuf_free(dst[i], max);
    }
    free(src);
    free(dst);
}

static void raw_threads(unsigned p, const struct plan *pl,
                        struct level_result *res)
{
    int reps = pl->quick ? 2000 : 20000;
    double t0 = bench_now();
#pragma omp parallel num_threads(p)
    for (int r = 0; r < reps; r++) {
#pragma omp barrier
    }
    res->raw_barrier = (bench_now() - t0) / reps;
    t0 = bench_now();
    for (int r = 0; r < reps / 10; r++) {
#pragma omp parallel num_threads(p)
        {
            __asm__ volatile("" ::: "memory");
        }
    }
    res->raw_fork = (bench_now() - t0) / (reps / 10);
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
            double a = bench_now();
            for (int r = 0; r < reps_k; r++) {
#pragma omp parallel num_threads(p)
                {
                    int me = omp_get_thread_num();
                    if (dst[me])
                        memcpy(dst[me], src + (size_t)me * each, each);
                }
            }
            tr[t] = (bench_now() - a) / reps_k;
            if (t == 0)
                reps_k = reps_for(tr[0], pl->min_time);
        }
        res->raw_copy.t[s] = bench_median(tr, TRIALS);
    }
    for (unsigned i = 0; i < p; i++)
        free(dst[i]);
    free(dst);
    free(src);
    raw_thread_exchange(p, pl, &res->xchg);
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
    struct curve vupw;
    struct curve *curve[STEP_KINDS] = {&res->down, &res->up, &res->vdown,
                                       &res->vup, &vupw};
    /* An MPI link's parts travel on the view path too: no view curves. */
    int kinds = res->link == SGL_LINK_THREADS ? STEP_KINDS : STEP_VDOWN;
    for (size_t s = 0; !rc && s < pl->nsizes; s++) {
        for (int kind = 0; !rc && kind < kinds; kind++) {
            double tr[TRIALS], once = 0;
            rc = time_superstep(ctx, 4 * pl->words[s], kind, buf, counts, 1,
                                &once);
            int reps = reps_for(once, pl->min_time);
            for (int t = 0; !rc && t < TRIALS; t++)
                rc = time_superstep(ctx, 4 * pl->words[s], kind, buf, counts,
                                    reps, &tr[t]);
            if (!rc)
                curve[kind]->t[s] = bench_median(tr, TRIALS);
        }
    }
    free(buf);
    free(counts);
    /* The copying gather less the children's write: what the copy adds
     * to a view gather that writes nothing. */
    for (size_t s = 0; !rc && kinds == STEP_KINDS && s < pl->nsizes; s++)
        res->up.t[s] = fmax(res->vup.t[s], res->up.t[s] - vupw.t[s] +
                                               res->vup.t[s]);
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
        rc = sgl_gather_block(ctx, 0, sizeof *res, &d, &n);
    if (!rc && n != 1)
        rc = sgl_error_set(SGL_ESIZE, "sgl-probe: %zu level results, not 1",
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
    return sgl_put(ctx, &res, sizeof res, 1);
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
    double t0 = bench_now();
    for (int r = 0; r < reps; r++)
        MPI_Barrier(MPI_COMM_WORLD);
    raw->barrier = (bench_now() - t0) / reps;
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
                double a = bench_now();
                for (int r = 0; r < reps_k; r++) {
                    if (g)
                        MPI_Gatherv(part, each, MPI_BYTE, all, counts, displs,
                                    MPI_BYTE, 0, MPI_COMM_WORLD);
                    else
                        MPI_Scatterv(all, counts, displs, MPI_BYTE, part, each,
                                     MPI_BYTE, 0, MPI_COMM_WORLD);
                }
                tr[t] = (bench_now() - a) / reps_k;
                /* Rank 0 decides the repetitions, so all ranks agree. */
                if (t == 0) {
                    reps_k = reps_for(tr[0], pl->min_time);
                    MPI_Bcast(&reps_k, 1, MPI_INT, 0, MPI_COMM_WORLD);
                }
            }
            (g ? &raw->gather : &raw->scatter)->t[s] = bench_median(tr, TRIALS);
        }
    }
    free(all);
    free(part);
    free(counts);
    free(displs);
}

/* Exchange at MPI level @p L: an MPI_Alltoall of b bytes per pair among
 * the ranks that play the children of the level's first master (one rank
 * per child, as the runtime's direct exchange aggregates per process),
 * timed on rank 0, which plays child 0. Collective over MPI_COMM_WORLD:
 * every rank calls it for the same levels in the same order. */
static void raw_mpi_exchange(const sgl_machine_t *m, unsigned L, int rank,
                             const struct plan *pl, struct xcurve *xc)
{
    const sgl_node_t *x = sgl_machine_master(m, L, 0);
    unsigned p = sgl_node_arity(x);
    int member = 0;
    for (unsigned i = 0; i < p; i++)
        member |= sgl_node_rank(sgl_node_child(x, i)) == rank;
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, member ? 0 : MPI_UNDEFINED, rank, &comm);
    xc->n = 0;
    if (comm == MPI_COMM_NULL)
        return;
    int np;
    MPI_Comm_size(comm, &np);
    size_t max = (size_t)xbytes[NX - 1] * (size_t)np;
    if (max > XCHG_MAX_BYTES)
        max = XCHG_MAX_BYTES;
    char *sb = xbuf_alloc(max), *rb = xbuf_alloc(max);
    int ok = sb && rb && np > 1;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
    if (ok) {
        memset(sb, 1, max);
        memset(rb, 0, max);
    }
    for (size_t s = 0; ok && s < NX; s++) {
        size_t b = (size_t)xbytes[s];
        if (b * (size_t)np > max)
            break; /* the same np everywhere: every rank stops here */
        double tr[TRIALS];
        int reps = 1;
        for (int t = 0; t < TRIALS; t++) {
            MPI_Barrier(comm);
            double a = bench_now();
            for (int r = 0; r < reps; r++)
                MPI_Alltoall(sb, (int)b, MPI_BYTE, rb, (int)b, MPI_BYTE,
                             comm);
            tr[t] = (bench_now() - a) / reps;
            /* The first rank decides the repetitions, so all agree. */
            if (t == 0) {
                reps = reps_for(tr[0], pl->min_time);
                MPI_Bcast(&reps, 1, MPI_INT, 0, comm);
            }
        }
        xc->h[xc->n] = (double)b * (np - 1);
        xc->t[xc->n++] = bench_median(tr, TRIALS);
    }
    xbuf_free(sb, max);
    xbuf_free(rb, max);
    MPI_Comm_free(&comm);
}

/* ---- kernels: the algorithms themselves, on a private runtime ---- */

/* c of each kernel as the closed form (the files *_cost.c of algorithms/)
 * charges it, measured on the code the algorithms run, over a table of
 * block sizes (1e4 .. 1e7 elements per worker; 1e4 .. 1e6 with --quick),
 * each point the median of ktrials() timed runs (finish_kernels();
 * more at small sizes, where
 * a run is short and the box's noise large), taken in KPASSES passes over
 * all sizes and both tables, each run of a pass after one warm-up: this
 * box's speed moves in phases of seconds (the busy-2 sort at 16.5 ns per
 * element at 3e5 and 11.7 at the next size, 1e6, in one probe; 15.4 and
 * 16.6 in the next), and a point measured in one stretch inherits its
 * phase, where a point measured in three stretches takes its quiet
 * quarter over them; reductions
 * and scans from cold caches (bench_flush_task() on every worker), sorts right
 * after the fill of a fresh vector, each as bench_main runs them. Two
 * tables:
 *
 * busy 1, one worker ("core:1"), the whole call / n:
 *   sum, product  sgl_dvec_reduce(SUM / PROD)
 *   scan          sgl_dvec_scan(SGL_SCAN_REDUCE_FIRST) (on one worker the
 *                 local scan the down pass also runs)
 *   (offset       not on one worker: a one-worker scan adds no offsets)
 *   sort          sgl_dvec_sort: with one worker PSRS is its local sort
 *                 (a radix sort that maps keys as it reads them), linear
 *                 in n
 * busy Q, Q workers at once (the probed tree itself when it is flat, so
 * that "rank:2" measures two ranks; else "core:Q", Q = the cores, at
 * least 2), each with a block of m elements, from the trace: the slowest
 * worker's task
 * time in the root superstep that runs the kernel, / m, since the cost
 * formula takes the slowest child and the workers share the memory
 * bandwidth:
 *   sum, product  the reduction's pardo
 *   scan          the down pass of the reduce-first scan
 *   offset        the down pass of the local-first scan: every worker but
 *                 the first adds its offset to the prefixes it wrote,
 *                 in place, right after its up pass
 *   sort          PSRS's S1 (local sort and sampling)
 *   merge         PSRS's S3 (the Q-way merge of the bucket runs, with the
 *                 key mapping back), / (elements * log2 Q)
 * and, on both, copy (measure_copy(): PSRS's data movement in memory,
 * threads of rank 0). Private runtimes are created on rank 0 alone over
 * MPI_COMM_SELF, with the threads of this process. */

#define KSIZES_MAX 8
#define KPASSES 3      /* passes over the kernel tables */
#define KTRIALS_MAX 21 /* timed runs per point, over the passes */
/* --budget never ends the tables below this many elements per worker:
 * 2.4 MB of doubles, past the 512 KiB L2 of this project's EPYC VM, so
 * that the last point, which prices every larger n, streams from memory
 * as large blocks do rather than from a private cache. */
#define KTOP_MIN 300000
enum { K_SUM, K_PRODUCT, K_SCAN, K_OFFSET, K_SORT, K_MERGE, K_COPY,
       NKERNELS };
static const char *const kernel_names[NKERNELS] = {
    "sum", "product", "scan", "offset", "sort", "merge", "copy"};

struct kernels {
    size_t nsizes;
    size_t n[KSIZES_MAX]; /* elements per worker */
    unsigned busy;        /* Q */
    /* c[0]: one worker, c[1]: Q at once; NAN where not measured */
    double c[2][NKERNELS][KSIZES_MAX];
    /* the 95% interval of each c (probe_median()) */
    double lo[2][NKERNELS][KSIZES_MAX], hi[2][NKERNELS][KSIZES_MAX];
    /* the trials so far, over the passes */
    double trial[2][NKERNELS][KSIZES_MAX][KTRIALS_MAX];
    int ntrials[2][NKERNELS][KSIZES_MAX];
};

/* Timed runs per point and pass of the kernel tables. */
static int ktrials(size_t total_elems)
{
    return total_elems <= 3000000 ? KTRIALS_MAX / KPASSES : 4;
}

/* Add @p n trials of kernel @p q at size index @p si. */
static void add_trials(struct kernels *k, int many, int q, size_t si,
                       const double *v, int n)
{
    int *have = &k->ntrials[many][q][si];
    for (int t = 0; t < n && *have < KTRIALS_MAX; t++)
        k->trial[many][q][si][(*have)++] = v[t];
}

/* c of every point with trials: their median, and its interval. The
 * sweep the closed form is judged against reports medians, and on a quiet
 * box (Intel Xeon VM, 7 December 2026) the lower quartile priced every
 * kernel at about the sweep's fastest run: 1x1 reduction -2 to -8%, PSRS
 * -4 to -14%, every 1x2 and 2x1 PSRS point low. Over three passes a
 * busy neighbour's spike in one of them leaves the median in the other
 * two's trials (docs/results/2026-12-07-budget.md has the quartile's
 * runs). */
static void finish_kernels(struct kernels *k)
{
    for (int b = 0; b < 2; b++)
        for (int q = 0; q < NKERNELS; q++)
            for (size_t s = 0; s < k->nsizes; s++) {
                int n = k->ntrials[b][q][s];
                if (n == 0)
                    continue;
                double *v = k->trial[b][q][s];
                qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
                probe_median(v, n, &k->c[b][q][s], &k->lo[b][q][s],
                             &k->hi[b][q][s]);
            }
}

struct kjob {
    size_t n;       /* elements of the vector */
    size_t workers; /* of the runtime */
    unsigned threads;
    size_t si;      /* size index */
    int pass;
    struct kernels *k;
};

/* Median of TRIALS runs (after a warm-up) of reduce, product, scan and
 * offset (the last only with several workers). Each trial runs every
 * kernel once, so that a change in the host's load moves them alike: the
 * scan's AUTO compares sum against offset. */
static int kernels_stream(sgl_ctx_t *root, sgl_runtime_t *rt,
                          const struct kjob *j, int many)
{
    size_t fb = bench_flush_bytes(j->workers);
    sgl_dvec_t *x = NULL, *y = NULL;
    uint64_t seed = 1 + j->si;
    double tr[4][KTRIALS_MAX], res;
    int trials = ktrials(j->n);
    int rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &x);
    if (!rc)
        rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_NONE, NULL, 0,
                             &y);
    static const int what[4] = {K_SUM, K_PRODUCT, K_SCAN, K_OFFSET};
    int nw = many ? 4 : 3;
    for (int t = -1; !rc && t < trials; t++) {
        for (int w = 0; !rc && w < nw; w++) {
            if ((rc = bench_flush_task(root, &fb, sizeof fb)))
                break;
            sgl_trace_clear(rt);
            double a = bench_now();
            if (what[w] == K_SCAN || what[w] == K_OFFSET)
                rc = sgl_dvec_scan(root, x, y, SGL_OP_SUM,
                                   what[w] == K_SCAN ? SGL_SCAN_REDUCE_FIRST
                                                     : SGL_SCAN_LOCAL_FIRST);
            else
                rc = sgl_dvec_reduce(root, x,
                                     what[w] == K_SUM ? SGL_OP_SUM
                                                      : SGL_OP_PROD,
                                     0, &res);
            double el = bench_now() - a;
            if (t >= 0)
                tr[w][t] =
                    many ? bench_step_per_element(
                               rt, what[w] == K_SCAN || what[w] == K_OFFSET,
                               sgl_dvec_counts(x), 1)
                         : el / (double)j->n;
        }
    }
    for (int w = 0; !rc && w < nw; w++)
        add_trials(j->k, many, what[w], j->si, tr[w], trials);
    size_t none = 0;
    int r2 = bench_flush_task(root, &none, sizeof none);
    rc = rc ? rc : r2;
    r2 = sgl_dvec_free(root, y);
    rc = rc ? rc : r2;
    r2 = sgl_dvec_free(root, x);
    return rc ? rc : r2;
}

/* Sorts of fresh random vectors; with several workers, sort and merge
 * from the trace. */
static int kernels_sort(sgl_ctx_t *root, sgl_runtime_t *rt,
                        const struct kjob *j, int many)
{
    double ts[KTRIALS_MAX], tm[KTRIALS_MAX];
    int rc = SGL_OK, trials = ktrials(j->n);
    for (int t = -1; !rc && t < trials; t++) {
        sgl_dvec_t *v = NULL;
        uint64_t seed = 100 + j->si * 64 + (uint64_t)j->pass * 16 +
                        (uint64_t)(t + 1);
        rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &v);
        if (rc)
            break;
        /* The block sizes before the sort, for S1. */
        size_t before[64];
        size_t nw = j->workers < 64 ? j->workers : 64;
        memcpy(before, sgl_dvec_counts(v), nw * sizeof *before);
        sgl_trace_clear(rt);
        double a = bench_now(); /* warm from the fill, as in bench_main */
        rc = sgl_dvec_sort(root, v, NULL);
        double el = bench_now() - a;
        if (!rc && t >= 0) {
            if (many) {
                ts[t] = bench_step_per_element(rt, 0, before, 1);
                tm[t] = bench_step_per_element(rt, -1, sgl_dvec_counts(v),
                                               log2((double)j->workers));
            } else {
                ts[t] = el / (double)j->n;
            }
        }
        int r2 = sgl_dvec_free(root, v);
        rc = rc ? rc : r2;
    }
    if (!rc) {
        add_trials(j->k, many, K_SORT, j->si, ts, trials);
        if (many)
            add_trials(j->k, 1, K_MERGE, j->si, tm, trials);
    }
    return rc;
}

/* copy: what PSRS does with every element between its sort and its merge
 * (the worker's hand-up, the masters' concatenations and reorders): a
 * fresh buffer of m doubles, written from a warm block, then freed; page
 * faults and unmapping included. @p busy threads at once, each its own
 * block; the slowest thread of each trial counts. */
static int measure_copy(struct kernels *k, int many)
{
    int busy = many ? (int)k->busy : 1;
    int rc = SGL_OK;
    for (size_t si = 0; si < k->nsizes; si++) {
        size_t m = k->n[si];
        int trials = KPASSES * ktrials(m * (size_t)busy); /* one pass */
        double tr[KTRIALS_MAX], worst[KTRIALS_MAX + 1] = {0};
        int failed = 0;
#pragma omp parallel num_threads(busy) reduction(| : failed)
        {
            double *src = malloc(m * sizeof *src);
            failed = !src;
            for (size_t i = 0; src && i < m; i++)
                src[i] = (double)i;
            for (int t = -1; t < trials; t++) {
#pragma omp barrier
                double a = bench_now();
                double *d = src ? malloc(m * sizeof *d) : NULL;
                if (d)
                    memcpy(d, src, m * sizeof *d);
                __asm__ volatile("" ::"r"(d) : "memory");
                failed |= !d;
                free(d);
                double el = bench_now() - a;
#pragma omp critical
                worst[t + 1] = fmax(worst[t + 1], el);
            }
            free(src);
        }
        if (failed) {
            rc = sgl_error_set(SGL_ENOMEM, "out of memory measuring copy");
            break;
        }
        for (int t = 0; t < trials; t++)
            tr[t] = worst[t + 1] / (double)m;
        add_trials(k, many, K_COPY, si, tr, trials);
    }
    return rc;
}

static sgl_runtime_t *g_krt; /* the kernel runtime, for its trace */
/* --budget: the kernels' passes stop when the next would not fit, and
 * the first pass's tables end where it would overrun. */
static struct probe_budget g_budget;
#define PASS_RESERVE 0.2 /* of the budget, kept from the later passes */

static int kernels_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct kjob *j = arg;
    int many = j->workers > 1;
    int rc = kernels_stream(root, g_krt, j, many);
    return rc ? rc : kernels_sort(root, g_krt, j, many);
}

/* The tasks the kernel measurements run, on any runtime (every process,
 * in this order). */
static int register_kernel_tasks(sgl_runtime_t *rt)
{
    int rc = sgl_algorithms_register(rt);
    if (!rc)
        rc = sgl_task_register(rt, kernels_task, "kernels");
    if (!rc)
        rc = sgl_task_register(rt, bench_flush_task, "flush");
    return rc;
}

static int kernel_runtime(const char *shape, unsigned threads,
                          sgl_runtime_t **rt)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    o.trace = 1;
    o.max_threads = (int)threads;
    o.bind = 0;
    *rt = NULL;
    int rc = sgl_init_comm(MPI_COMM_SELF, &o, rt);
    if (!rc && (rc = register_kernel_tasks(*rt))) {
        sgl_finalize(*rt);
        *rt = NULL;
    }
    return rc;
}

/* Pass @p pass of the kernels on a private runtime of this process over
 * @p shape; rank 0. */
static int kernels_private(const char *shape, unsigned workers, int pass,
                           struct kernels *k, struct progress *prog)
{
    int rc = kernel_runtime(shape, workers, &g_krt);
    double t_table = bench_now(), t_size = t_table;
    for (size_t s = 0; !rc && s < k->nsizes; s++) {
        /* --budget: the first pass on one worker decides where the tables
         * end, for the all-workers table and the later passes too. */
        if (pass == 0 && workers == 1 && s > 0 && k->n[s - 1] >= KTOP_MIN &&
            !probe_budget_size_fits(&g_budget, bench_now() - t_size,
                                    bench_now() - t_table,
                                    (double)k->n[s] / (double)k->n[s - 1],
                                    bench_now())) {
            prog->steps -= KPASSES * 2 * (int)(k->nsizes - s);
            fprintf(stderr, "sgl-probe: budget: kernel tables end at %zu "
                            "elements per worker (%zu of %zu sizes)\n",
                    k->n[s - 1], s, k->nsizes);
            k->nsizes = s;
            break;
        }
        t_size = bench_now();
        progress(prog, "kernels, pass %d of %d, %s x %zu elements", pass + 1,
                 KPASSES, shape, k->n[s]);
        struct kjob j = {k->n[s] * workers, workers, workers, s, pass, k};
        rc = sgl_run(g_krt, kernels_task, &j, sizeof j);
    }
    int r2 = g_krt ? sgl_finalize(g_krt) : SGL_OK;
    g_krt = NULL;
    return rc ? rc : r2;
}

/* The block sizes of the kernel tables into @p n (KSIZES_MAX room);
 * returns their count. */
static size_t kernel_sizes(int quick, size_t *n)
{
    size_t count = 0, top = quick ? 1000000 : 10000000;
    for (size_t b = 10000; b <= top; b *= 10) {
        n[count++] = b;
        if (!quick && 3 * b <= top)
            n[count++] = 3 * b;
    }
    return count;
}

/* The steps of measure_kernels(): in each pass each size on one worker
 * and on all, then copy. */
static int kernel_steps(int quick)
{
    size_t n[KSIZES_MAX];
    return KPASSES * 2 * (int)kernel_sizes(quick, n) + 1;
}

/* Both tables; called on every rank of @p world (the probed runtime), the
 * tables land on rank 0. One worker: a private "core:1" runtime of rank 0.
 * All workers at once: the probed tree itself when it is flat (every
 * rank takes part: two MPI ranks on one host are measured as ranks, not
 * as threads), else a private "core:Q" runtime of rank 0. copy: threads of
 * rank 0. @return SGL_OK or an error (with sgl_error_last()), the same on
 * every rank. */

static int measure_kernels(sgl_runtime_t *world, int quick, struct kernels *k,
                           struct progress *prog)
{
    memset(k, 0, sizeof *k);
    for (int b = 0; b < 2; b++)
        for (int q = 0; q < NKERNELS; q++)
            for (int s = 0; s < KSIZES_MAX; s++)
                k->c[b][q][s] = NAN;
    k->nsizes = kernel_sizes(quick, k->n);
    const sgl_machine_t *m = sgl_runtime_machine(world);
    size_t workers = sgl_machine_workers(m);
    int flat = sgl_machine_depth(m) == 1 && workers >= 2 && workers <= 64;
    int procs = omp_get_num_procs();
    k->busy = flat ? (unsigned)workers
                   : procs > 2 ? (unsigned)(procs < 64 ? procs : 64) : 2;
    int rank = sgl_runtime_rank(world), rc = SGL_OK, pass;
    double t_passes = bench_now();
    for (pass = 0; pass < KPASSES && !rc; pass++) {
        /* --budget: rank 0 decides for all, or the ranks part ways. What
         * follows the passes (copy, the files) and a pass slower than the
         * mean get PASS_RESERVE of the budget: with none, two passes of
         * core:2 at load 8-13 ended a 72 s probe at 92 s. */
        int more = rank != 0 ||
                   probe_budget_more(&g_budget, pass, t_passes, bench_now(),
                                     PASS_RESERVE * g_budget.seconds);
        MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (!more) {
            /* The passes left are not run: the ETA counts them no more. */
            prog->steps -= (KPASSES - pass) * 2 * (int)k->nsizes;
            break;
        }
        if (rank == 0)
            rc = kernels_private("core:1", 1, pass, k, prog);
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        /* The tables' end as the budget cut it on rank 0. */
        unsigned long ns = k->nsizes;
        MPI_Bcast(&ns, 1, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
        k->nsizes = ns;
        if (!rc && flat) {
            g_krt = world;
            for (size_t s = 0; !rc && s < k->nsizes; s++) {
                progress(prog, "kernels, pass %d of %d, the probed tree "
                               "(%zu workers) x %zu elements",
                         pass + 1, KPASSES, workers, k->n[s]);
                struct kjob j = {k->n[s] * workers, workers,
                                 (unsigned)workers, s, pass, k};
                rc = sgl_run(world, kernels_task, &j, sizeof j);
            }
            g_krt = NULL;
        } else if (!rc && rank == 0) {
            char shape[32];
            snprintf(shape, sizeof shape, "core:%u", k->busy);
            rc = kernels_private(shape, k->busy, pass, k, prog);
        }
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    g_budget.passes_run = pass;
    g_budget.passes_planned = KPASSES;
    progress(prog, "kernels, copy");
    if (rank == 0 && !rc)
        rc = measure_copy(k, 0);
    if (rank == 0 && !rc)
        rc = measure_copy(k, 1);
    if (rank == 0 && !rc)
        finish_kernels(k);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return rc;
}

/* Put both tables into @p out; the plain c of each kernel is its value at
 * the largest size on one worker (Q workers for merge and offset).
 * @p end: 0 the medians, -1 the low ends of their intervals, 1 the high
 * ends. */
static double kernel_c(const struct kernels *k, int end, int b, int q,
                       size_t s)
{
    return end < 0 ? k->lo[b][q][s] : end > 0 ? k->hi[b][q][s] : k->c[b][q][s];
}

static int store_kernels(sgl_machine_t *out, const struct kernels *k, int end)
{
    int rc = SGL_OK;
    for (int q = 0; q < NKERNELS && !rc; q++) {
        int plain = q == K_MERGE || q == K_OFFSET;
        double c = kernel_c(k, end, plain, q, k->nsizes - 1);
        rc = sgl_machine_set_kernel(out, kernel_names[q], c);
        for (int b = 0; b < 2 && !rc; b++)
            for (size_t s = 0; s < k->nsizes && !rc; s++)
                if (!isnan(k->c[b][q][s]))
                    rc = sgl_machine_set_kernel_point(
                        out, kernel_names[q], (double)k->n[s],
                        b ? k->busy : 1, kernel_c(k, end, b, q, s));
    }
    return rc;
}

static void print_kernels(const struct kernels *k)
{
    printf("kernels (ns per element; merge per element and 2-way level), "
           "by elements per worker:\n  %-8s %5s", "kernel", "busy");
    for (size_t s = 0; s < k->nsizes; s++)
        printf(" %9.0e", (double)k->n[s]);
    printf("\n");
    for (int q = 0; q < NKERNELS; q++)
        for (int b = 0; b < 2; b++) {
            if (isnan(k->c[b][q][0]))
                continue;
            printf("  %-8s %5u", kernel_names[q], b ? k->busy : 1);
            for (size_t s = 0; s < k->nsizes; s++)
                printf(" %9.3f", 1e9 * k->c[b][q][s]);
            printf("\n");
        }
}

/* ---- drift: a re-measure against the probe it repeats ---- */

static const char *printable(const char *s, char *out, size_t size);

/* The header of --drift-csv: one row per parameter of the re-measured
 * file. before: BASE's value, after: the re-measure's, rel_change =
 * (after - before) / before (empty where before is 0). parameter is l,
 * g_down, g_up, small_g_down, small_g_up (the small-message regime),
 * exchange_l, exchange_g (with level) or c (with kernel; n_elements and
 * busy for a point of its size table, empty for its plain c). unit: s,
 * s/B or s/element. */
static const char *drift_header =
    "label,base_file,base_date,date,parameter,level,kernel,n_elements,busy,"
    "unit,before,after,rel_change";

struct drift_out {
    bench_csv_t csv; /* f NULL: no CSV */
    const char *label, *base_file, *base_date, *date;
    double worst;      /* the rel_change of largest magnitude */
    char worst_what[128];
};

static void drift_row(struct drift_out *d, const char *param, long level,
                      const char *kernel, double n, unsigned busy,
                      const char *unit, double before, double after)
{
    double rel = before > 0 ? (after - before) / before : NAN;
    char what[128];
    if (kernel)
        snprintf(what, sizeof what, "c %s%s", kernel,
                 n > 0 ? "" : " (plain)");
    else
        snprintf(what, sizeof what, "level %ld %s", level, param);
    if (kernel && n > 0) {
        size_t len = strlen(what);
        snprintf(what + len, sizeof what - len, " n %.0e busy %u", n, busy);
    }
    double scale = !strcmp(unit, "s") ? 1e6 : 1e9;
    printf("  %-34s %12.4f %12.4f %+8.1f%%\n", what, scale * before,
           scale * after, 100 * rel);
    if (isfinite(rel) && fabs(rel) > fabs(d->worst)) {
        d->worst = rel;
        snprintf(d->worst_what, sizeof d->worst_what, "%s", what);
    }
    if (!d->csv.f)
        return;
    bench_csv_str(&d->csv, d->label);
    bench_csv_str(&d->csv, d->base_file);
    bench_csv_str(&d->csv, d->base_date);
    bench_csv_str(&d->csv, d->date);
    bench_csv_str(&d->csv, param);
    if (level >= 0)
        bench_csv_int(&d->csv, level);
    else
        bench_csv_empty(&d->csv);
    bench_csv_str(&d->csv, kernel);
    if (n > 0) {
        bench_csv_int(&d->csv, (long long)n);
        bench_csv_int(&d->csv, busy);
    } else {
        bench_csv_empty(&d->csv);
        bench_csv_empty(&d->csv);
    }
    bench_csv_str(&d->csv, unit);
    bench_csv_num(&d->csv, before);
    bench_csv_num(&d->csv, after);
    bench_csv_num(&d->csv, rel);
    bench_csv_end(&d->csv);
}

/* The rows of each level's link, small-message, exchange and view
 * parameters that both files have. */
static void drift_levels(struct drift_out *d, const sgl_machine_t *before,
                         const sgl_machine_t *after)
{
    for (unsigned L = 0; L < sgl_machine_depth(after); L++) {
        sgl_link_params_t b, a;
        double mb;
        if (sgl_machine_level_params(before, L, &b) == SGL_OK &&
            sgl_machine_level_params(after, L, &a) == SGL_OK) {
            drift_row(d, "l", L, NULL, 0, 0, "s", b.l, a.l);
            drift_row(d, "g_down", L, NULL, 0, 0, "s/B", b.g_down, a.g_down);
            drift_row(d, "g_up", L, NULL, 0, 0, "s/B", b.g_up, a.g_up);
        }
        if (sgl_machine_level_small_params(before, L, &b, &mb) == SGL_OK &&
            sgl_machine_level_small_params(after, L, &a, &mb) == SGL_OK) {
            drift_row(d, "small_g_down", L, NULL, 0, 0, "s/B", b.g_down,
                      a.g_down);
            drift_row(d, "small_g_up", L, NULL, 0, 0, "s/B", b.g_up, a.g_up);
        }
        double vbd, vbu, vad, vau;
        if (sgl_machine_level_view(before, L, &vbd, &vbu) == SGL_OK &&
            sgl_machine_level_view(after, L, &vad, &vau) == SGL_OK) {
            drift_row(d, "view_g_down", L, NULL, 0, 0, "s/B", vbd, vad);
            drift_row(d, "view_g_up", L, NULL, 0, 0, "s/B", vbu, vau);
        }
        sgl_exchange_params_t xb, xa;
        if (sgl_machine_level_exchange(before, L, &xb) == SGL_OK &&
            sgl_machine_level_exchange(after, L, &xa) == SGL_OK) {
            drift_row(d, "exchange_l", L, NULL, 0, 0, "s", xb.l, xa.l);
            drift_row(d, "exchange_g", L, NULL, 0, 0, "s/B", xb.g, xa.g);
        }
    }
}

/* Every parameter the re-measure wrote, @p before (BASE as read) against
 * @p after (BASE with the re-measured values): on stdout, and as rows of
 * the drift CSV if @p pl names one. Returns 0, or 1 after saying why the
 * CSV could not be written. */
static int write_drift(const struct plan *pl, const sgl_machine_t *before,
                       const sgl_machine_t *after, const struct kernels *k,
                       const char *date)
{
    struct drift_out d = {.label = pl->label ? pl->label : "",
                          .base_file = pl->drift_base,
                          .base_date = sgl_machine_provenance(before, "date"),
                          .date = date};
    char err[512];
    if (pl->drift_csv &&
        bench_csv_open(&d.csv, pl->drift_csv, drift_header, 1, err,
                       sizeof err)) {
        fprintf(stderr, "sgl-probe: --drift-csv: %s\n", err);
        return 1;
    }
    printf("drift against %s (probed %s): before, after (us for l, ns/B "
           "for g, ns/element for c), change\n",
           pl->drift_base, d.base_date ? d.base_date : "at an unknown date");
    drift_levels(&d, before, after);
    const sgl_node_t *wb = sgl_machine_worker(before, 0);
    const sgl_node_t *wa = sgl_machine_worker(after, 0);
    for (int q = 0; q < NKERNELS; q++) {
        const char *name = kernel_names[q];
        double cb = sgl_node_kernel(wb, name), ca = sgl_node_kernel(wa, name);
        if (!isnan(cb) && !isnan(ca))
            drift_row(&d, "c", -1, name, 0, 0, "s/element", cb, ca);
        for (int b = 0; b < 2; b++)
            for (size_t s = 0; s < k->nsizes; s++) {
                if (isnan(k->c[b][q][s]) || isnan(cb))
                    continue;
                unsigned busy = b ? k->busy : 1;
                double n = (double)k->n[s];
                drift_row(&d, "c", -1, name, n, busy, "s/element",
                          sgl_node_kernel_at(wb, name, n, busy),
                          k->c[b][q][s]);
            }
    }
    if (d.worst_what[0])
        printf("largest change: %s, %+.1f%%\n", d.worst_what,
               100 * d.worst);
    if (d.csv.f && bench_csv_close(&d.csv)) {
        fprintf(stderr, "sgl-probe: --drift-csv %s: write failed\n",
                pl->drift_csv);
        return 1;
    }
    return 0;
}

/* BASE of --drift, read on rank 0 and checked against the probed tree:
 * the re-measure must run where BASE was probed, or its changes would be
 * the trees' difference, not the machine's. @p ret_quick: BASE was
 * probed with --quick (its method says so). Returns the machine file or
 * NULL after saying why. */
static sgl_machine_t *drift_base(const char *path, const sgl_machine_t *m,
                                 int *ret_quick)
{
    char e[1024];
    sgl_machine_t *base = NULL, *here = NULL;
    if (sgl_machine_load(path, &base)) {
        fprintf(stderr, "sgl-probe: --drift: %s\n", sgl_error_last());
        return NULL;
    }
    const char *method = sgl_machine_provenance(base, "method");
    if (!method || strncmp(method, "sgl-probe", 9)) {
        fprintf(stderr, "sgl-probe: --drift: %s was not written by sgl-probe "
                        "(no 'provenance method \"sgl-probe...\"'): nothing "
                        "to repeat\n",
                printable(path, e, sizeof e));
        sgl_machine_free(base);
        return NULL;
    }
    /* "sgl-probe --drift --quick: ..." or "sgl-probe --quick: ...". */
    const char *colon = strchr(method, ':');
    size_t head = colon ? (size_t)(colon - method) : strlen(method);
    char opts[256];
    snprintf(opts, sizeof opts, "%.*s", (int)(head < 255 ? head : 255),
             method);
    *ret_quick = strstr(opts, "--quick") != NULL;
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    mo.keep_single = 1;
    const char *shape = sgl_machine_shape(m);
    const char *bshape = sgl_machine_shape(base);
    if (!shape || sgl_machine_from_shape(shape, &mo, &here) ||
        !bshape || strcmp(sgl_machine_shape(here), bshape)) {
        fprintf(stderr, "sgl-probe: --drift: %s is a probe of shape '%s', "
                        "this run's tree is '%s': re-measure it on the "
                        "tree it was probed on\n",
                printable(path, e, sizeof e), bshape ? bshape : "?",
                here ? sgl_machine_shape(here) : shape ? shape : "?");
        sgl_machine_free(here);
        sgl_machine_free(base);
        return NULL;
    }
    sgl_machine_free(here);
    return base;
}

/* ---- output ---- */

/* Every fit printed: a negative l or g, noise on a fast level, is said
 * below its line and kept in the provenance, even where the machine file
 * takes the value from another fit (it printed "l -2754.880 us" with no
 * word before). */
static void print_fit(const char *what, const struct probe_fit *f,
                      int per_sync, struct probe_clamps *c, unsigned L)
{
    /* A superstep has two syncs, so its intercept is 2 l. */
    double l = per_sync ? f->a : f->a / 2;
    printf("  %-30s l %10.3f us  g %9.4f ns/B (%8.4f ns/word)  R^2 %.4f  "
           "worst residual %5.1f%%  (%zu points)\n",
           what, 1e6 * l, 1e9 * f->b, 4e9 * f->b, f->r2, 100 * f->worst,
           f->points);
    char name[64];
    snprintf(name, sizeof name, "%s l", what);
    probe_note_negative(c, stdout, L, name, l, PROBE_SECONDS);
    snprintf(name, sizeof name, "%s g", what);
    probe_note_negative(c, stdout, L, name, f->b, PROBE_SECONDS_PER_BYTE);
}

/* The exchange's l_h and g_h as the level's l and g are fitted: l_h from
 * the small regime (h <= SMALL_BYTES), g_h from the large one (h >=
 * XCHG_LARGE_BYTES), since an algorithm's exchanges that matter move
 * blocks beyond the caches, where the slope was 1.7x (ranks) to 3.5x
 * (threads) the one through all sizes; one line through all points where
 * fewer than two large sizes were measured (many ranks: the buffers'
 * cap). @p ret_small and @p ret_large get the two fits (points 0 when not
 * used); the result carries their l and g and 95% intervals. */
static struct probe_fit exchange_fit(const struct xcurve *xc,
                                     struct probe_fit *ret_small,
                                     struct probe_fit *ret_large)
{
    *ret_small = probe_fit_points(xc->h, xc->t, xc->n, 0, SMALL_BYTES);
    *ret_large =
        probe_fit_points(xc->h, xc->t, xc->n, XCHG_LARGE_BYTES, 1e300);
    if (ret_small->points < 2 || ret_large->points < 2) {
        struct probe_fit all = probe_fit_points(xc->h, xc->t, xc->n, 0, 1e300);
        probe_fit_interval(xc->h, xc->t, xc->n, 0, 1e300, &all);
        ret_large->points = 0;
        return all;
    }
    probe_fit_interval(xc->h, xc->t, xc->n, 0, SMALL_BYTES, ret_small);
    probe_fit_interval(xc->h, xc->t, xc->n, XCHG_LARGE_BYTES, 1e300,
                       ret_large);
    struct probe_fit f = *ret_large;
    f.a = ret_small->a;
    f.a_lo = ret_small->a_lo;
    f.a_hi = ret_small->a_hi;
    f.points = ret_small->points + ret_large->points;
    return f;
}

/* Split level @p L's fitted l (@p big and @p small share it) into its
 * constant part and the command and reply headers of its p - 1 remote
 * children, priced at the small regime's g (the model's
 * l + (p-1) header g per sync, docs/model.md "Fan-out"), and write both.
 * One level has one fan-out, so the fit cannot tell the two apart: the
 * split takes the runtime's header bytes (a threads link has none), at
 * most as much as l holds, so that the level's own fan-out is priced as
 * measured and only other fan-outs change. */
static int split_header(sgl_machine_t *m, unsigned L, int link,
                        sgl_link_params_t *big, sgl_link_params_t *small)
{
    const sgl_node_t *x = sgl_machine_master(m, L, 0);
    double remote = x ? (double)sgl_node_arity(x) - 1 : 0;
    double per_byte = remote * (small->g_down + small->g_up) / 2;
    double header = link == SGL_LINK_MPI ? SGL_HEADER_BYTES : 0;
    if (header * per_byte > big->l)
        header = per_byte > 0 ? big->l / per_byte : 0;
    big->l = small->l = fmax(0, big->l - header * per_byte);
    return sgl_machine_set_level_header(m, L, header);
}

/* Level @p L of @p m at one end of the fits' intervals (@p end -1 low, 1
 * high), negative ends at 0: the box of parameters a prediction interval
 * is evaluated at (the cost is monotone in every parameter). */
static int write_level_end(sgl_machine_t *m, unsigned L, int end,
                           const struct level_result *r, int one_host,
                           const struct probe_fit *ds,
                           const struct probe_fit *us,
                           const struct probe_fit *dl,
                           const struct probe_fit *ul,
                           const struct probe_fit *fx)
{
#define END(f, v) fmax(0, end < 0 ? (f)->v##_lo : (f)->v##_hi)
    double l = (END(ds, a) + END(us, a)) / 4;
    sgl_link_params_t big = {l, END(dl, b), END(ul, b)};
    sgl_link_params_t small = {l, END(ds, b), END(us, b)};
    int rc = 0;
    if (r->link == SGL_LINK_MPI && one_host)
        rc = sgl_machine_set_level_memory(m, L, SGL_MEMORY_SHARED);
    if (!rc)
        rc = split_header(m, L, r->link, &big, &small);
    if (!rc)
        rc = sgl_machine_set_level_params(m, L, &big);
    if (!rc)
        rc = sgl_machine_set_level_small_params(m, L, &small, SMALL_BYTES);
    if (!rc && fx && fx->points >= 2) {
        sgl_exchange_params_t xp = {END(fx, a), END(fx, b)};
        rc = sgl_machine_set_level_exchange(m, L, &xp);
    }
#undef END
    return rc;
}

/* Print level @p L's exchange fits and points and put the fit of all
 * sizes @p fx into @p out (none with under two points: the predictor
 * then guesses from l and g). Returns 0, or 1 after saying what failed. */
static int write_exchange(sgl_machine_t *out, unsigned L,
                          const struct level_result *r,
                          const struct xcurve *xc, const struct probe_fit *fx,
                          const struct probe_fit *xs,
                          const struct probe_fit *xl,
                          struct probe_clamps *clamps)
{
    if (fx->points < 2) {
        printf("  exchange: too few points to fit; no exchange record (the "
               "predictor will guess from l, g)\n");
        return 0;
    }
    if (xl->points >= 2) {
        print_fit("exchange, small regime", xs, 1, clamps, L);
        print_fit("exchange, large regime", xl, 1, clamps, L);
    } else {
        print_fit("exchange, all sizes", fx, 1, clamps, L);
    }
    printf("  exchange points (%s; h bytes: us):",
           r->link == SGL_LINK_THREADS ? "neighbour memcpy" : "MPI_Alltoall");
    for (size_t i = 0; i < xc->n; i++)
        printf(" %.0f: %.4g", xc->h[i], 1e6 * xc->t[i]);
    printf("\n");
    sgl_exchange_params_t xp = {
        probe_clamp(clamps, stderr, L, "exchange l", fx->a, PROBE_SECONDS),
        probe_clamp(clamps, stderr, L, "exchange g", fx->b,
                    PROBE_SECONDS_PER_BYTE)};
    if (sgl_machine_set_level_exchange(out, L, &xp)) {
        fprintf(stderr, "sgl-probe: level %u: %s\n", L, sgl_error_last());
        return 1;
    }
    return 0;
}

/* Print a thread level's view-path fits (large regime, where g shows)
 * and put its 'level L view' record into @p out and the interval ends.
 * Returns 0, or 1 after saying what failed. */
static int write_view(sgl_machine_t *out, unsigned L, const struct plan *pl,
                      const struct level_result *r,
                      struct probe_clamps *clamps, sgl_machine_t *ends[2])
{
    if (r->link != SGL_LINK_THREADS)
        return 0;
    struct probe_fit d = fit_line(pl, &r->vdown, 65536, 1e300);
    struct probe_fit u = fit_line(pl, &r->vup, 65536, 1e300);
    print_fit("sgl scatter, view path (sgl_recv_view)", &d, 0, clamps, L);
    print_fit("sgl gather, view path (sgl_gather_into)", &u, 0, clamps, L);
    double gd = probe_clamp(clamps, stderr, L, "view g_down", d.b,
                            PROBE_SECONDS_PER_BYTE);
    double gu = probe_clamp(clamps, stderr, L, "view g_up", u.b,
                            PROBE_SECONDS_PER_BYTE);
    int rc = sgl_machine_set_level_view(out, L, gd, gu);
    for (int e = 0; !rc && e < 2; e++)
        if (ends[e])
            rc = sgl_machine_set_level_view(
                ends[e], L, fmax(0, e ? d.b_hi : d.b_lo),
                fmax(0, e ? u.b_hi : u.b_lo));
    if (rc)
        fprintf(stderr, "sgl-probe: level %u view: %s\n", L,
                sgl_error_last());
    return rc ? 1 : 0;
}

/* Print level @p L's fits and put its parameters into @p out: l from the
 * small regime, g from each regime's slope, the exchange from its own
 * curve (@p xmpi at an MPI level); negative values clamped into @p
 * clamps. Returns 0, or 1 after saying what failed. */
static int write_level(sgl_machine_t *out, unsigned L, const struct plan *pl,
                       const struct level_result *r, const struct xcurve *xmpi,
                       int one_host, struct probe_clamps *clamps,
                       sgl_machine_t *lo, sgl_machine_t *hi)
{
    printf("level %u (%s):\n", L, sgl_link_name((sgl_link_t)r->link));
    if (r->link == SGL_LINK_THREADS) {
        struct probe_fit fc = fit_line(pl, &r->raw_copy, 0, 1e300);
        printf("  raw OpenMP barrier %.3f us, parallel region "
               "fork/join %.3f us\n",
               1e6 * r->raw_barrier, 1e6 * r->raw_fork);
        print_fit("raw memcpy into child buffers", &fc, 1, clamps, L);
    }
    struct probe_fit d = fit_line(pl, &r->down, 0, 1e300);
    struct probe_fit u = fit_line(pl, &r->up, 0, 1e300);
    struct probe_fit ds = fit_line(pl, &r->down, 0, SMALL_BYTES * 2);
    struct probe_fit us = fit_line(pl, &r->up, 0, SMALL_BYTES * 2);
    struct probe_fit dl = fit_line(pl, &r->down, 65536, 1e300);
    struct probe_fit ul = fit_line(pl, &r->up, 65536, 1e300);
    print_fit("sgl scatter superstep (all)", &d, 0, clamps, L);
    print_fit("sgl gather superstep (all)", &u, 0, clamps, L);
    print_fit("sgl scatter, small regime", &ds, 0, clamps, L);
    print_fit("sgl gather, small regime", &us, 0, clamps, L);
    print_fit("sgl scatter, large regime", &dl, 0, clamps, L);
    print_fit("sgl gather, large regime", &ul, 0, clamps, L);
    /* A superstep syncs twice; the scatter and the gather each give one
     * intercept: l is their mean over four syncs. */
    double l =
        probe_clamp(clamps, stderr, L, "l", (ds.a + us.a) / 4, PROBE_SECONDS);
    sgl_link_params_t big = {
        l,
        probe_clamp(clamps, stderr, L, "g_down", dl.b, PROBE_SECONDS_PER_BYTE),
        probe_clamp(clamps, stderr, L, "g_up", ul.b, PROBE_SECONDS_PER_BYTE)};
    sgl_link_params_t small = {l,
                               probe_clamp(clamps, stderr, L, "small g_down",
                                           ds.b, PROBE_SECONDS_PER_BYTE),
                               probe_clamp(clamps, stderr, L, "small g_up",
                                           us.b, PROBE_SECONDS_PER_BYTE)};
    /* Ranks on one host share its memory bandwidth: the predictor then
     * counts them as busy together. */
    if ((r->link == SGL_LINK_MPI && one_host &&
         sgl_machine_set_level_memory(out, L, SGL_MEMORY_SHARED)) ||
        split_header(out, L, r->link, &big, &small) ||
        sgl_machine_set_level_params(out, L, &big) ||
        sgl_machine_set_level_small_params(out, L, &small, SMALL_BYTES)) {
        fprintf(stderr, "sgl-probe: level %u: %s\n", L, sgl_error_last());
        return 1;
    }
    const struct xcurve *xc = r->link == SGL_LINK_THREADS ? &r->xchg : xmpi;
    struct probe_fit xs, xl, fx = exchange_fit(xc, &xs, &xl);
    if (lo || hi)
        printf("  95%% intervals: l [%.3f, %.3f] us, g_down [%.4f, %.4f] "
               "ns/B, g_up [%.4f, %.4f] ns/B\n",
               1e6 * fmax(0, (ds.a_lo + us.a_lo) / 4),
               1e6 * (ds.a_hi + us.a_hi) / 4, 1e9 * fmax(0, dl.b_lo),
               1e9 * dl.b_hi, 1e9 * fmax(0, ul.b_lo), 1e9 * ul.b_hi);
    if ((lo && write_level_end(lo, L, -1, r, one_host, &ds, &us, &dl, &ul,
                               &fx)) ||
        (hi && write_level_end(hi, L, 1, r, one_host, &ds, &us, &dl, &ul,
                               &fx))) {
        fprintf(stderr, "sgl-probe: level %u intervals: %s\n", L,
                sgl_error_last());
        return 1;
    }
    sgl_machine_t *ends[2] = {lo, hi};
    return write_view(out, L, pl, r, clamps, ends) ||
           write_exchange(out, L, r, xc, &fx, &xs, &xl, clamps);
}

/* The path of an interval end: OUT.sgl -> OUT.lo.sgl (or OUT.hi.sgl);
 * a name without .sgl gets .lo.sgl appended. */
static void end_path(const char *out, const char *tag, char *buf, size_t len)
{
    size_t n = strlen(out);
    if (n > 4 && !strcmp(out + n - 4, ".sgl"))
        n -= 4;
    snprintf(buf, len, "%.*s.%s.sgl", (int)n, out, tag);
}

/* What a path that exists but is not a regular file is, for a message. */
static const char *file_kind(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "a special file";
}

/* Whether the machine file can be written, checked before minutes of
 * measuring: it must be missing or a regular file (opening a FIFO for
 * writing waits for a reader until killed; a device or a directory is no
 * place for a machine file), then opened for writing without truncating
 * (an existing file is kept until the probe has something to write), and
 * removed again if this check created it. Returns 0 or the errno, with
 * *ret_kind set (and EINVAL returned) for a path that is not a file. */
static int check_writable(const char *path, const char **ret_kind)
{
    struct stat st;
    *ret_kind = NULL;
    int existed = stat(path, &st) == 0;
    if (existed && !S_ISREG(st.st_mode)) {
        *ret_kind = file_kind(st.st_mode);
        return EINVAL;
    }
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_CREAT |
                            (existed ? 0 : O_EXCL),
                  0666);
    if (fd < 0)
        return errno;
    close(fd);
    if (!existed)
        unlink(path);
    return 0;
}

/* @p s for a message, control characters shown as '?': arguments may
 * hold escape sequences that must not reach the terminal. */
static const char *printable(const char *s, char *out, size_t size)
{
    size_t i = 0;
    for (; s[i] && i + 1 < size; i++)
        out[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
    out[i] = '\0';
    return out;
}

/* The progress steps of a probe of @p m over @p ranks ranks, as main()
 * takes them: raw MPI, each MPI level's exchange, each level's runtime
 * supersteps, then the kernels. */
static int count_steps(const sgl_machine_t *m, int ranks, int quick,
                       int per_worker)
{
    int steps = (ranks > 1) + (per_worker != 0);
    for (unsigned L = 0; L < sgl_machine_depth(m); L++) {
        const sgl_node_t *x = sgl_machine_master(m, L, 0);
        if (x)
            steps += 1 + (sgl_node_link(x) == SGL_LINK_MPI);
    }
    return steps + kernel_steps(quick);
}

static void usage(FILE *out)
{
    fputs("Usage: sgl-probe [OPTION]...       (alone, or under mpirun -n N)\n"
          "Measure l, g_down and g_up of every level of the machine SGL runs\n"
          "on, the exchange's l_h and g_h per level and c per kernel, and\n"
          "write them as a machine file (format: docs/machine-file.md, installed as\n"
          "share/doc/sgl/MACHINE_FILE.md).\n"
          "\n"
          "  -o, --output FILE  machine file to write (default machine.sgl)\n"
          "  --quick            fewer and smaller sizes: seconds, not minutes\n"
          "  --budget SECONDS   aim at SECONDS for the whole probe: shorter\n"
          "                     timed points and fewer passes over the\n"
          "                     kernel tables (wider intervals) when the\n"
          "                     box is slow; stderr says what it ran\n"
          "  --per-worker       also each worker's own c of sum and sort, all\n"
          "                     workers running at once, at the split where\n"
          "                     they finish together (heterogeneous\n"
          "                     workers: the runtime then splits data by\n"
          "                     speed, see sgl_runtime_set_balance())\n"
          "  --intervals        also write OUT.lo.sgl and OUT.hi.sgl: every\n"
          "                     parameter at the low / high end of its 95%\n"
          "                     interval (kernels: the median's over the\n"
          "                     trials; l, g: a bootstrap of the fits)\n"
          "  --drift BASE       re-measure the probe BASE (a machine file of\n"
          "                     this tree, from sgl-probe) by its own method\n"
          "                     and sizes: levels, exchange and kernels; -o\n"
          "                     gets BASE with the new values, stdout each\n"
          "                     parameter's change\n"
          "  --drift-csv FILE   with --drift: append one row per parameter\n"
          "                     (before, after, relative change) to FILE\n"
          "  --label NAME       with --drift-csv: the rows' label column\n"
          "  -h, --help         show this help\n"
          "  -V, --version      show the version\n"
          "\n"
          "An option's value may follow it (-o FILE, --output FILE) or be\n"
          "joined to it (-oFILE, --output=FILE). The options and the file are\n"
          "checked before anything is measured. Progress goes to stderr, the\n"
          "fits to stdout. Exit status: 0 done, 1 failure, 2 bad usage.\n",
          out);
}

/* Long options without a short form have values above any character, so
 * that getopt_long's optopt tells a long option's fault from a short one's. */
enum { OPT_QUICK = 256, OPT_PER_WORKER, OPT_HELP, OPT_VERSION, OPT_DRIFT,
       OPT_DRIFT_CSV, OPT_LABEL, OPT_INTERVALS, OPT_BUDGET };

static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"quick", no_argument, NULL, OPT_QUICK},
    {"per-worker", no_argument, NULL, OPT_PER_WORKER},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {"drift", required_argument, NULL, OPT_DRIFT},
    {"drift-csv", required_argument, NULL, OPT_DRIFT_CSV},
    {"label", required_argument, NULL, OPT_LABEL},
    {"intervals", no_argument, NULL, OPT_INTERVALS},
    {"budget", required_argument, NULL, OPT_BUDGET},
    {NULL, 0, NULL, 0},
};

/* A usage error on stderr; @p arg is shown with control characters as
 * '?'. Returns the usage exit status. */
static int usage_error(const char *fmt, const char *arg)
{
    char e[1024];
    fputs("sgl-probe: ", stderr);
    fprintf(stderr, fmt, printable(arg, e, sizeof e));
    fputs(" (try --help)\n", stderr);
    return 2;
}

/* What getopt_long refused with '?': a value given to an option that
 * takes none (named in full: the user may have typed an abbreviation),
 * or an unknown option. */
static int unknown_option(char **argv)
{
    for (const struct option *o = longopts; o->name; o++)
        if (optopt >= OPT_QUICK && o->val == optopt &&
            o->has_arg == no_argument)
            return usage_error("option --%s takes no value", o->name);
    if (optopt == 0)
        return usage_error("unknown option '%s'", argv[optind - 1]);
    char opt[3] = {'-', (char)optopt, '\0'};
    return usage_error("unknown option '%s'", opt);
}

/* The option as the user wrote it, -o or --output (perhaps abbreviated,
 * perhaps with "=FILE"), for a message about its value. */
static const char *typed_option(char **argv)
{
    const char *opt =
        optarg == argv[optind - 1] ? argv[optind - 2] : argv[optind - 1];
    return strncmp(opt, "--", 2) ? "-o" : "--output";
}

/* The machine file and the drift CSV can be written (check_writable()),
 * checked on rank 0 before anything is measured; every rank learns the
 * verdict. Returns 0, or 1 with the reason printed. Collective. */
static int check_outputs(const struct plan *pl, int rank)
{
    char e[1024];
    const char *kind = NULL;
    int werr = rank == 0 ? check_writable(pl->out, &kind) : 0;
    const char *wpath = pl->out;
    if (!werr && rank == 0 && pl->drift_csv &&
        (werr = check_writable(pl->drift_csv, &kind)))
        wpath = pl->drift_csv;
    MPI_Allreduce(MPI_IN_PLACE, &werr, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (werr && rank == 0)
        fprintf(stderr, "sgl-probe: cannot write %s %s: %s%s%s (nothing "
                        "measured)\n",
                wpath == pl->out ? "the machine file" : "the drift CSV",
                printable(wpath, e, sizeof e), kind ? "it is " : "",
                kind ? kind : strerror(werr),
                kind ? ", not a regular file" : "");
    return werr != 0;
}

/* An option given without its value (getopt_long's ':' for optopt):
 * the message names what the value is. Exit status 2. */
static int missing_value(char **argv)
{
    if (optopt == OPT_DRIFT)
        return usage_error("option %s needs a FILE argument: the machine "
                           "file to re-measure",
                           "--drift");
    if (optopt == OPT_DRIFT_CSV)
        return usage_error("option %s needs a FILE argument: the CSV file "
                           "of the drift rows",
                           "--drift-csv");
    if (optopt == OPT_LABEL)
        return usage_error("option %s needs a NAME argument", "--label");
    if (optopt == OPT_BUDGET)
        return usage_error("option %s needs a SECONDS argument", "--budget");
    return usage_error("option %s needs a FILE argument: the machine file "
                       "to write",
                       typed_option(argv));
}

/* The command line into @p pl; nothing is measured yet. Returns -1 to go
 * on, or the exit status. */
static int parse_args(int argc, char **argv, struct plan *pl)
{
    int c;
    opterr = 0; /* our own messages, and exit status 2 */
    while ((c = getopt_long(argc, argv, ":o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            if (!*optarg)
                return usage_error("option %s needs a FILE argument: the "
                                   "machine file to write",
                                   typed_option(argv));
            pl->out = optarg;
            break;
        case OPT_QUICK:
            pl->quick = 1;
            break;
        case OPT_PER_WORKER:
            pl->per_worker = 1;
            break;
        case OPT_INTERVALS:
            pl->intervals = 1;
            break;
        case OPT_BUDGET: {
            char *end;
            pl->budget = strtod(optarg, &end);
            if (*end || !(pl->budget >= 1 && pl->budget <= 86400))
                return usage_error("option --budget needs SECONDS from 1 to "
                                   "86400, not '%s'", optarg);
            break;
        }
        case OPT_DRIFT:
        case OPT_DRIFT_CSV:
        case OPT_LABEL:
            if (!*optarg)
                return usage_error("option %s needs a non-empty value",
                                   c == OPT_DRIFT       ? "--drift"
                                   : c == OPT_DRIFT_CSV ? "--drift-csv"
                                                        : "--label");
            *(c == OPT_DRIFT       ? &pl->drift_base
              : c == OPT_DRIFT_CSV ? &pl->drift_csv
                                   : &pl->label) = optarg;
            break;
        case 'h':
        case OPT_HELP:
            usage(stdout);
            return 0;
        case 'V':
        case OPT_VERSION:
            printf("sgl-probe %s\n", sgl_version());
            return 0;
        case ':':
            return missing_value(argv);
        default: /* '?' */
            return unknown_option(argv);
        }
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    /* The label is a column of the drift rows: it needs somewhere to go. */
    if (pl->label && !pl->drift_csv)
        return usage_error("%s", "--label needs --drift-csv");
    if (pl->drift_csv && !pl->drift_base)
        return usage_error("%s", "--drift-csv needs --drift");
    if (pl->drift_base && pl->per_worker)
        return usage_error("%s", "--drift re-measures a probe without "
                                 "--per-worker; give one or the other");
    return -1;
}

/* What one probe run measured, from the runtime's start to the files. */
struct probe_run {
    struct plan pl;
    sgl_runtime_t *rt;
    const sgl_machine_t *m;
    int rank, size;
    unsigned depth;
    sgl_machine_t *base;   /* --drift: BASE, on rank 0 */
    double t_start;
    struct progress prog;
    int have_raw, one_host;
    struct mpi_raw raw;
    struct xcurve *xmpi;   /* per level: MPI exchange curves */
    struct level_result *res; /* per level */
    struct kernels k;
    int kernels_ok;
    struct worker_c wc;
};

/* sgl_init and every task the probe runs, in every process. */
static int start_runtime(int *argc, char ***argv, sgl_runtime_t **rt)
{
    if (sgl_init(argc, argv, NULL, rt) ||
        sgl_task_register(*rt, probe_task, "probe") ||
        sgl_task_register(*rt, nothing, "nothing") ||
        sgl_task_register(*rt, put_bytes, "put_bytes") ||
        sgl_task_register(*rt, put_written, "put_written") ||
        sgl_task_register(*rt, view_bytes, "view_bytes") ||
        register_kernel_tasks(*rt) || probe_workers_register(*rt)) {
        fprintf(stderr, "sgl-probe: %s\n", sgl_error_last());
        return 1;
    }
    /* Oversubscribed timings are what it measures: say so, once a rank. */
    if (sgl_runtime_warning(*rt))
        fprintf(stderr, "warning: %s\n", sgl_runtime_warning(*rt));
    return 0;
}

/* --drift: BASE read and checked on rank 0 before anything is measured;
 * its --quick decides the sizes, as it did for BASE. 1 if it failed. */
static int read_drift_base(struct probe_run *r)
{
    if (!r->pl.drift_base)
        return 0;
    int q[2] = {0, 0}; /* ok, quick */
    if (r->rank == 0 && (r->base = drift_base(r->pl.drift_base, r->m, &q[1])))
        q[0] = 1;
    MPI_Bcast(q, 2, MPI_INT, 0, MPI_COMM_WORLD);
    r->pl.quick |= q[1];
    return !q[0];
}

static void set_sizes(struct plan *pl)
{
    size_t top = pl->quick ? 1000000 : 10000000;
    for (size_t w = 1; w <= top && pl->nsizes < MAX_SIZES; w *= 10) {
        pl->words[pl->nsizes++] = w;
        if (3 * w <= top)
            pl->words[pl->nsizes++] = 3 * w;
    }
    pl->min_time = pl->quick ? 0.002 : 0.01;
}

/* 1 if all @size ranks share one host's memory. */
static int on_one_host(int size)
{
    if (size <= 1)
        return 1;
    MPI_Comm node;
    int nsize = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                        &node);
    MPI_Comm_size(node, &nsize);
    MPI_Comm_free(&node);
    int all = nsize == size, every = 0;
    MPI_Allreduce(&all, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return every;
}

/* The raw MPI primitives, the MPI exchanges and the runtime's supersteps
 * of every level. SGL_OK or the failed run's error. */
static int measure_levels(struct probe_run *r)
{
    if (r->have_raw) {
        progress(&r->prog, "raw MPI (%d ranks)", r->size);
        raw_mpi(&r->pl, &r->raw);
    }
    r->one_host = on_one_host(r->size);
    r->xmpi = calloc(r->depth + 1, sizeof *r->xmpi);
    for (unsigned L = 0; r->xmpi && L < r->depth; L++) {
        const sgl_node_t *x = sgl_machine_master(r->m, L, 0);
        if (!x || sgl_node_link(x) != SGL_LINK_MPI)
            continue;
        progress(&r->prog, "level %u (mpi), exchange", L);
        raw_mpi_exchange(r->m, L, r->rank, &r->pl, &r->xmpi[L]);
    }
    r->res = calloc(r->depth + 1, sizeof *r->res);
    int rc = r->res && r->xmpi ? SGL_OK : SGL_ENOMEM;
    for (unsigned L = 0; !rc && L < r->depth; L++) {
        if (sgl_machine_level_masters(r->m, L) == 0)
            continue;
        progress(&r->prog, "level %u (%s), runtime supersteps", L,
                 sgl_link_name(sgl_node_link(sgl_machine_master(r->m, L, 0))));
        struct main_arg ma = {{L, r->pl}, &r->res[L]};
        rc = sgl_run(r->rt, probe_main, &ma, sizeof ma);
    }
    return rc;
}

/* The kernels' c on one worker and all at once, and with --per-worker
 * every worker's; kernels_ok 0 after saying what failed. */
static void measure_all_kernels(struct probe_run *r)
{
    r->kernels_ok = 1;
    if (measure_kernels(r->rt, r->pl.quick, &r->k, &r->prog)) {
        if (r->rank == 0)
            fprintf(stderr, "sgl-probe: kernels: %s\n", sgl_error_last());
        r->kernels_ok = 0;
    }
    if (r->rank == 0)
        probe_budget_report(&g_budget, bench_now());
    if (!r->pl.per_worker)
        return;
    progress(&r->prog, "kernels, per worker (%zu workers at once)",
             sgl_machine_workers(r->m));
    /* One worker's c at the largest size sizes the blocks. */
    double hint[PW_KERNELS] = {r->k.c[0][K_SUM][r->k.nsizes - 1],
                               r->k.c[0][K_SORT][r->k.nsizes - 1]};
    if (probe_workers(r->rt, r->pl.quick, hint, &r->wc)) {
        if (r->rank == 0)
            fprintf(stderr, "sgl-probe: per worker: %s\n", sgl_error_last());
        r->kernels_ok = 0;
    }
}

/* The machine to write (BASE for --drift, else the tree's shape) and,
 * with --intervals, its two ends. 1 after saying what failed. */
static int open_outputs(const struct probe_run *r, sgl_machine_t **out,
                        sgl_machine_t *ends[2])
{
    const char *shape = sgl_machine_shape(r->m);
    const char *base = r->pl.drift_base;
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    mo.keep_single = 1;
    int status = 0;
    /* --intervals: two more files, every parameter at the low and at the
     * high end of its 95% interval. */
    for (int i = 0; i < 2 && r->pl.intervals && shape; i++)
        if (base ? sgl_machine_load(base, &ends[i])
                 : sgl_machine_from_shape(shape, &mo, &ends[i])) {
            fprintf(stderr, "sgl-probe: --intervals: %s\n", sgl_error_last());
            status = 1;
        }
    if (base) {
        /* BASE with the re-measured values in their place; what is not
         * re-measured (per-worker c) stays BASE's. */
        if (sgl_machine_load(base, out)) {
            fprintf(stderr, "sgl-probe: --drift: %s\n", sgl_error_last());
            status = 1;
        }
    } else if (!shape || sgl_machine_from_shape(shape, &mo, out)) {
        fprintf(stderr, "sgl-probe: cannot describe the tree as a shape: "
                        "%s\n",
                sgl_error_last());
        status = 1;
    }
    return status;
}

static void print_raw_mpi(struct probe_run *r, struct probe_clamps *clamps)
{
    const struct plan *pl = &r->pl;
    struct probe_fit fs = fit_line(pl, &r->raw.scatter, 0, 1e300);
    struct probe_fit fg = fit_line(pl, &r->raw.gather, 0, 1e300);
    printf("raw MPI over %d ranks: MPI_Barrier %.3f us\n", r->size,
           1e6 * r->raw.barrier);
    struct probe_fit ss = fit_line(pl, &r->raw.scatter, 0, SMALL_BYTES * 2);
    struct probe_fit gs = fit_line(pl, &r->raw.gather, 0, SMALL_BYTES * 2);
    struct probe_fit sl = fit_line(pl, &r->raw.scatter, 65536, 1e300);
    struct probe_fit gl = fit_line(pl, &r->raw.gather, 65536, 1e300);
    print_fit("MPI_Scatterv (all sizes)", &fs, 1, clamps, 0);
    print_fit("MPI_Gatherv (all sizes)", &fg, 1, clamps, 0);
    print_fit("MPI_Scatterv, small regime", &ss, 1, clamps, 0);
    print_fit("MPI_Gatherv, small regime", &gs, 1, clamps, 0);
    print_fit("MPI_Scatterv, large regime", &sl, 1, clamps, 0);
    print_fit("MPI_Gatherv, large regime", &gl, 1, clamps, 0);
}

/* Print the kernels and store them in @out and its ends. 1 if failed. */
static int write_kernels(const struct probe_run *r, sgl_machine_t *out,
                         sgl_machine_t *ends[2])
{
    print_kernels(&r->k);
    if (!r->kernels_ok)
        return 1;
    if (r->pl.per_worker)
        probe_workers_print(&r->wc);
    if (store_kernels(out, &r->k, 0) ||
        (r->pl.per_worker && probe_workers_store(out, &r->wc)) ||
        (ends[0] && store_kernels(ends[0], &r->k, -1)) ||
        (ends[1] && store_kernels(ends[1], &r->k, 1))) {
        fprintf(stderr, "sgl-probe: kernels: %s\n", sgl_error_last());
        return 1;
    }
    return 0;
}

/* The provenance's "method": how every figure was measured. */
static void method_text(const struct probe_run *r, char *method, size_t len)
{
    const struct plan *pl = &r->pl;
    const struct kernels *k = &r->k;
    char e[1024];
    int off = 0;
    if (pl->drift_base)
        off = snprintf(method, len,
                       "sgl-probe --drift%s: a re-measure of %s by its own "
                       "method, raw MPI left out; ",
                       pl->quick ? " --quick" : "",
                       printable(pl->drift_base, e, 512));
    snprintf(method + off, len - (size_t)off,
             "%s: runtime scatter/gather supersteps, %zu "
             "sizes 1..%zu words, medians of %d, weighted least "
             "squares; l from the small regime; %d MPI ranks; "
             "kernels: the algorithms at %zu block sizes %zu..%zu "
             "on 1 worker (whole call per element) and %u at once "
             "(slowest worker's task per element, from the trace), "
             "cold caches for reduce and scan; exchange: "
             "MPI_Alltoall / neighbour memcpy, 8 B..16 MiB per "
             "pair%s",
             pl->drift_base ? "as the probe"
             : pl->quick    ? "sgl-probe --quick"
                            : "sgl-probe",
             pl->nsizes, pl->words[pl->nsizes - 1], TRIALS, r->size,
             k->nsizes, k->n[0], k->n[k->nsizes - 1], k->busy,
             pl->per_worker ? "; per worker: sum and sort on every "
                              "worker at once (tasks of about 20 ms, "
                              "5 ms with --quick), time to deliver "
                              "per element, medians of 5 on even "
                              "blocks, then 5 rounds of 3 at the "
                              "split by the c so far, each taking "
                              "the c measured there"
                            : "");
}

/* Host, date, version, method and source into @out's provenance; the
 * date into @date. */
static void set_provenance(const struct probe_run *r, sgl_machine_t *out,
                           const struct probe_clamps *clamps, char date[64])
{
    char host[256] = "unknown", method[1200], e[1024];
    gethostname(host, sizeof host - 1);
    time_t tt = time(NULL);
    strftime(date, 64, "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
    method_text(r, method, sizeof method);
    sgl_machine_set_provenance(out, "host", host);
    sgl_machine_set_provenance(out, "date", date);
    sgl_machine_set_provenance(out, "sgl_version", sgl_version());
    sgl_machine_set_provenance(out, "method", method);
    sgl_machine_set_provenance(out, "source", sgl_machine_source(r->m));
    if (r->pl.drift_base) {
        const char *bd = sgl_machine_provenance(r->base, "date");
        sgl_machine_set_provenance(out, "drift_base",
                                   printable(r->pl.drift_base, e, sizeof e));
        if (bd)
            sgl_machine_set_provenance(out, "drift_base_date", bd);
        /* BASE's clamps are not this run's. */
        sgl_machine_set_provenance(out, "note", NULL);
    }
    if (clamps->count)
        sgl_machine_set_provenance(out, "note", clamps->note);
}

/* The interval ends, with @out's provenance and what they are. */
static int save_ends(const struct plan *pl, const sgl_machine_t *out,
                     sgl_machine_t *ends[2])
{
    int status = 0;
    for (int i = 0; i < 2 && ends[i]; i++) {
        char path[4096];
        end_path(pl->out, i ? "hi" : "lo", path, sizeof path);
        for (size_t q = 0; q < sgl_machine_provenance_count(out); q++) {
            const char *key = sgl_machine_provenance_key(out, q);
            sgl_machine_set_provenance(ends[i], key,
                                       sgl_machine_provenance(out, key));
        }
        sgl_machine_set_provenance(
            ends[i], "interval",
            i ? "high ends of 95% intervals: kernels' c the "
                "median's order-statistic interval over the trials, "
                "l, g and exchange a pairs bootstrap of the fits"
              : "low ends of 95% intervals: kernels' c the "
                "median's order-statistic interval over the trials, "
                "l, g and exchange a pairs bootstrap of the fits "
                "(negative ends at 0)");
        if (sgl_machine_save(ends[i], path)) {
            fprintf(stderr, "sgl-probe: %s\n", sgl_error_last());
            status = 1;
        } else {
            printf("wrote %s\n", path);
        }
    }
    return status;
}

/* Fill, save and report the machine file (and its ends, and the drift
 * rows) from what @out holds; 1 if anything failed. */
static int save_outputs(struct probe_run *r, sgl_machine_t *out,
                        sgl_machine_t *ends[2], struct probe_clamps *clamps)
{
    int status = write_kernels(r, out, ends);
    char date[64];
    set_provenance(r, out, clamps, date);
    if (sgl_machine_save(out, r->pl.out)) {
        fprintf(stderr, "sgl-probe: %s\n", sgl_error_last());
        status = 1;
    } else {
        printf("wrote %s in %.1f s\n", r->pl.out, bench_now() - r->t_start);
    }
    if (r->pl.drift_base && r->kernels_ok &&
        write_drift(&r->pl, r->base, out, &r->k, date))
        status = 1;
    return save_ends(&r->pl, out, ends) || status;
}

/* On rank 0: the fits, printed and written. 1 if anything failed. */
static int report(struct probe_run *r)
{
    sgl_machine_t *out = NULL, *ends[2] = {NULL, NULL};
    int status = open_outputs(r, &out, ends);
    size_t nw = sgl_machine_workers(r->m), np = sgl_machine_processes(r->m);
    printf("sgl-probe: %s, %zu worker%s, %zu process%s\n",
           sgl_machine_source(r->m), nw, nw == 1 ? "" : "s", np,
           np == 1 ? "" : "es");
    struct probe_clamps clamps = {0};
    if (r->have_raw)
        print_raw_mpi(r, &clamps);
    for (unsigned L = 0; out && L < r->depth; L++)
        if (sgl_machine_level_masters(r->m, L) &&
            write_level(out, L, &r->pl, &r->res[L], &r->xmpi[L], r->one_host,
                        &clamps, ends[0], ends[1]))
            status = 1;
    if (out && save_outputs(r, out, ends, &clamps))
        status = 1;
    sgl_machine_free(out);
    sgl_machine_free(ends[0]);
    sgl_machine_free(ends[1]);
    return status;
}

static int probe_run_end(struct probe_run *r, int status)
{
    sgl_machine_free(r->base);
    probe_workers_free(&r->wc);
    free(r->res);
    free(r->xmpi);
    sgl_finalize(r->rt);
    return status;
}

int main(int argc, char **argv)
{
    struct probe_run r = {.pl = {.out = "machine.sgl"}};
    int status = parse_args(argc, argv, &r.pl);
    if (status >= 0)
        return status;
    if (start_runtime(&argc, &argv, &r.rt))
        return 1;
    r.rank = sgl_runtime_rank(r.rt);
    MPI_Comm_size(MPI_COMM_WORLD, &r.size);
    r.m = sgl_runtime_machine(r.rt);
    if (check_outputs(&r.pl, r.rank) || read_drift_base(&r))
        return probe_run_end(&r, 1);
    set_sizes(&r.pl);
    /* A quiet 2-core VM probes core:2 in about 60 s, --quick in 15 s. */
    probe_budget_start(&g_budget, r.pl.budget, bench_now());
    r.pl.min_time = probe_budget_min_time(&g_budget, r.pl.min_time,
                                          r.pl.quick ? 15 : 60);
    r.depth = sgl_machine_depth(r.m);
    r.t_start = bench_now();
    /* A re-measure leaves out the raw MPI primitives: the machine file
     * does not hold them. */
    r.have_raw = r.size > 1 && !r.pl.drift_base;
    r.prog = (struct progress){0,
                               count_steps(r.m, r.have_raw ? r.size : 1,
                                           r.pl.quick, r.pl.per_worker),
                               r.t_start, r.rank != 0};
    if (measure_levels(&r)) {
        fprintf(stderr, "sgl-probe: %s\n", sgl_error_last());
        return probe_run_end(&r, 1);
    }
    measure_all_kernels(&r);
    return probe_run_end(&r, r.rank == 0 ? report(&r) : 0);
}
