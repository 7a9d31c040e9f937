/* PageRank on the vertex-centric layer against a hand-written MPI +
 * OpenMP PageRank (bench/peer_pagerank.c) in the same run, on Graph500's
 * Kronecker graph, under mpiexec: time per iteration (SGL: per
 * superstep), the ratio per repetition (orders alternate), the largest
 * difference of the ranks, and what the combiner does to h (the most
 * bytes one worker receives in a superstep).
 *
 *   bench_pregel [--scale S] [--iters K] [--reps R] [--csv FILE]
 *                [--ckpt-dir DIR] [--machine FILE] [--no-hub]
 *
 * With --ckpt-dir (a folder every process sees), also the cost of a
 * checkpoint every 5 supersteps, as a fraction of a superstep. With
 * --machine (sgl-probe's file of this tree), the model's time per
 * superstep next to the measured one for every timed run: each worker's c
 * from the other timed runs (its task time over its declared work, median
 * over their supersteps), l and g from the file, h and w from the trace
 * of the run predicted. Both
 * runs also show the skew: the busiest worker's h against the mean.
 * The tree is SGL_SHAPE or the discovered machine; the peer runs on the
 * same ranks with OMP_NUM_THREADS threads each. SuiteSparse:GraphBLAS
 * (peer_graphblas.c, where it was found at build time) runs the same
 * updates on the same graph in rank 0 alone, on as many threads as SGL
 * has workers, its ranks checked against SGL's to a rounding bound. The
 * three take turns, in an order that rotates per repetition. In one
 * process, SGL's and GraphBLAS's CPU time per update (all threads) is
 * shown too: on a loaded machine it moves less than the time does.
 *
 * --no-hub leaves out the skew table (the hub graph, even and balanced).
 *
 * The comparison with GraphBLAS, on a quiet 2-core box:
 *   SGL_SHAPE=core:2 OMP_NUM_THREADS=2 OMP_WAIT_POLICY=PASSIVE \
 *       build/bench/bench_pregel --scale 20 --reps 9 --no-hub
 *
 * --csv (RFC 4180, bench_csv.h), one row per measurement: ranks, workers,
 * scale, implementation (sgl; peer_pagerank, the hand-written peer;
 * graphblas; model, the prediction), rep (1..R), superstep (the superstep's index in its
 * run, for time_per superstep), time_s and time_per: update_mean (a
 * run's time over its PageRank updates, on every side: each runs
 * --iters + 1 of them) or superstep (one superstep of an SGL run from its
 * trace, and its prediction, with --machine). */
#define _GNU_SOURCE /* sched_getaffinity() */
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_csv.h"
#include "bench_env.h"
#include "peers_mpi.h"
#include "peer_graphblas.h"
#include "pregel_steps.h"
#include "timing.h"
#include <sgl/algorithms.h>
#include <sgl/pregel.h>
#include <sgl/trace.h>

struct opts {
    unsigned scale, iters;
    int reps;
    const char *csv, *ckpt, *machine;
    int no_hub; /* --no-hub: leave the hub graph's table out */
};

#define SEED 11
#define MAX_REPS 64 /* --reps */

/* The graph lives on the workers across runs; the root keeps its
 * handle here. The hub graph is the same graph with its vertices
 * renumbered by falling out-degree, so that the even cut puts the hubs on
 * the first workers. */
static sgl_graph_t *graph, *hub_graph;

enum job_kind {
    RUN,       /* PageRank on the graph */
    BUILD,     /* build the graph */
    HUB_BUILD, /* build the hub graph */
    HUB_RUN,   /* PageRank on it */
    HUB_CUT,   /* sgl_graph_balance() it */
};

static int by_degree(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y; /* (degree, vertex) */
    if (a[0] != b[0])
        return a[0] > b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* The hub graph, built from the root's copy of the edges. */
static int build_hubs(sgl_ctx_t *root, unsigned scale)
{
    uint64_t n = UINT64_C(1) << scale, m = 16 * n;
    uint64_t (*e)[2] = malloc(m * sizeof *e), (*d)[2] = calloc(n, sizeof *d);
    uint64_t *to = malloc(n * sizeof *to);
    int rc = e && d && to ? SGL_OK : SGL_ENOMEM;
    if (!rc)
        rc = sgl_graph_kronecker_edges(scale, 16, SEED, 0, m, e);
    for (uint64_t v = 0; !rc && v < n; v++)
        d[v][1] = v;
    for (uint64_t k = 0; !rc && k < m; k++)
        d[e[k][0]][0]++;
    if (!rc)
        qsort(d, n, sizeof *d, by_degree);
    for (uint64_t v = 0; !rc && v < n; v++)
        to[d[v][1]] = v;
    for (uint64_t k = 0; !rc && k < m; k++) {
        e[k][0] = to[e[k][0]];
        e[k][1] = to[e[k][1]];
    }
    if (!rc)
        rc = sgl_graph_from_edges(root, n, (const uint64_t (*)[2])e, m,
                                  &hub_graph);
    free(e), free(d), free(to);
    return rc;
}

struct job {
    int build; /* a job_kind */
    unsigned scale, iters;
    unsigned every; /* checkpoints every so many supersteps, or 0 */
    double vweight; /* HUB_CUT: sgl_graph_balance()'s vertex weight */
    char dir[160];
};

struct result {
    double seconds, build_seconds;
    double cpu; /* the root process's CPU time over the run, all threads */
    sgl_pregel_stats_t st;
    uint64_t n, m;
};

static double *sgl_ranks; /* at the root, the last run's */

static int job_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    struct result r;
    memset(&r, 0, sizeof r);
    double t0 = MPI_Wtime();
    sgl_graph_t *g = j->build >= HUB_BUILD ? hub_graph : graph;
    if (j->build == BUILD || j->build == HUB_BUILD || j->build == HUB_CUT) {
        int rc = j->build == BUILD
                     ? sgl_graph_kronecker(root, j->scale, 16, SEED, &graph)
                 : j->build == HUB_BUILD ? build_hubs(root, j->scale)
                                         : sgl_graph_balance(root, hub_graph,
                                                             j->vweight);
        if (rc)
            return rc;
        r.build_seconds = MPI_Wtime() - t0;
        g = j->build == BUILD ? graph : hub_graph;
    } else {
        /* tolerance 0: exactly iters + 1 updates, as many as the peer's
         * iters + 1 iterations (in iters + 2 supersteps: the first one
         * only starts the vertices) */
        int rc = sgl_pregel_checkpoint(g, j->dir, j->every);
        t0 = MPI_Wtime();
        double c0 = peer_cpu_seconds();
        if (!rc)
            rc = sgl_pagerank(root, g, 0.85, 0, j->iters + 1, NULL, &r.st);
        r.seconds = MPI_Wtime() - t0;
        r.cpu = peer_cpu_seconds() - c0;
        if (!rc && j->build == RUN)
            rc = sgl_pregel_values(root, g, sgl_ranks, sgl_graph_vertices(g));
        if (rc)
            return rc;
    }
    r.n = sgl_graph_vertices(g);
    r.m = sgl_graph_edges(g);

    return sgl_put(root, &r, sizeof r, 1);
}

static int run(sgl_runtime_t *rt, const struct job *j, struct result *r)
{
    int rc = sgl_run(rt, job_task, j, sizeof *j);
    const void *d;
    size_t n;
    if (!rc && sgl_runtime_rank(rt) == 0 &&
        sgl_run_result(rt, sizeof *r, &d, &n) == SGL_OK && n == 1)
        memcpy(r, d, sizeof *r);
    return rc;
}

static int parse(int argc, char **argv, struct opts *o)
{
    static const struct option lo[] = {{"scale", required_argument, 0, 's'},
                                       {"iters", required_argument, 0, 'i'},
                                       {"reps", required_argument, 0, 'r'},
                                       {"csv", required_argument, 0, 'o'},
                                       {"ckpt-dir", required_argument, 0, 'c'},
                                       {"machine", required_argument, 0, 'm'},
                                       {"no-hub", no_argument, 0, 'n'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        if (c == 'h')
            return -1;
        if (c == 'n') {
            o->no_hub = 1;
            continue;
        }
        char *end = NULL;
        unsigned long v = optarg ? strtoul(optarg, &end, 10) : 0;
        if (c == 'o' || c == 'c' || c == 'm') {
            *(c == 'o' ? &o->csv : c == 'c' ? &o->ckpt : &o->machine) = optarg;
            continue;
        }
        if (c == '?' || *end || v == 0 || (c == 's' && v > 30) ||
            (c == 'r' && v > MAX_REPS)) {
            if (c != '?')
                fprintf(stderr, "bench_pregel: bad value '%s'\n", optarg);
            return 1;
        }
        if (c == 's')
            o->scale = (unsigned)v;
        else if (c == 'i')
            o->iters = (unsigned)v;
        else
            o->reps = (int)v;
    }
    return optind < argc;
}

static void print_row(const char *what, double *v, int n, double unit,
                      const char *u)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    printf("  %-30s %10.3f %s (%.3f - %.3f)\n", what,
           bench_median(v, n) / unit, u, v[0] / unit, v[n - 1] / unit);
}

/* One side of the hub table. */
struct hub_side {
    double per_step, heaviest, hskew;
    double vertex_weight; /* fitted: a vertex's compute in edge reads */
};

/* Fit t_i = a V_i + b E_i over the root's children (workers) of the
 * superstep with the median time: the weight a / b, or 1 where the fit
 * says nothing (fewer than 2 workers, or a degenerate system). */
static double fit_vertex_weight(const sgl_graph_t *g, const struct pstep *s,
                                size_t n)
{
    if (n == 0 || s[n / 2].children < 2)
        return 1;
    const struct pstep *p = &s[n / 2];
    double vv = 0, ve = 0, ee = 0, vt = 0, et = 0;
    for (unsigned i = 0; i < p->children; i++) {
        uint64_t a, b, m;
        if (sgl_graph_part(g, i, &a, &b, &m))
            return 1;
        double v = (double)(b - a), e = (double)m, t = p->time[i];
        vv += v * v, ve += v * e, ee += e * e, vt += v * t, et += e * t;
    }
    double det = vv * ee - ve * ve;
    if (!(fabs(det) > 1e-9 * vv * ee))
        return 1;
    double a = (vt * ee - et * ve) / det, b = (et * vv - vt * ve) / det;
    return a > 0 && b > 0 && a / b < 1e3 ? a / b : 1;
}

/* The heaviest worker's weight (out-edges + @vw per vertex) over the
 * mean, at the root. */
static double heaviest(const sgl_graph_t *g, size_t nw, double vw)
{
    double most = 0, total = 0;
    for (size_t w = 0; w < nw; w++) {
        uint64_t a, b, m;
        if (sgl_graph_part(g, w, &a, &b, &m) == SGL_OK) {
            double x = (double)m + vw * (double)(b - a);
            most = x > most ? x : most;
            total += x;
        }
    }
    return total > 0 ? most / (total / (double)nw) : 0;
}

/* @reps runs of @j after one untimed (it lays the fan out), the last one
 * traced for the skew of h. */
static int hub_runs(sgl_runtime_t *rt, const struct job *j, int reps,
                    struct hub_side *ret)
{
    double *t = calloc((size_t)reps, sizeof *t);
    struct result r;
    int rc = t ? run(rt, j, &r) : SGL_ENOMEM;
    for (int k = 0; k < reps && !rc; k++) {
        sgl_trace_clear(rt);
        rc = run(rt, j, &r);
        t[k] = rc ? 0 : r.seconds / r.st.supersteps;
    }
    if (!rc && sgl_runtime_rank(rt) == 0) {
        struct pstep *s;
        size_t n = pstep_read(rt, &s);
        double *skew = malloc((n ? n : 1) * sizeof *skew);
        for (size_t i = 0; skew && i < n; i++) {
            skew[i] = s[i].h_mean > 0 ? s[i].h / s[i].h_mean : 1;
        }
        ret->hskew = skew && n ? bench_median(skew, (int)n) : 0;
        ret->vertex_weight = fit_vertex_weight(hub_graph, s, n);
        ret->per_step = bench_median(t, reps);
        free(skew);
        pstep_free(s, n);
    }
    free(t);
    return rc;
}

/* Supersteps from this one on are compared: superstep 0 delivers
 * nothing and superstep 1 sends the pattern (pregel_wire.c). */
#define FIRST_STEADY 2

/* The timed runs' supersteps, one array per run (rank 0). */
struct traced {
    struct pstep *s[MAX_REPS];
    size_t n[MAX_REPS];
    int runs;
};

/* Each worker's c from every traced run but @skip, into @c. */
static int calibrate_without(const struct traced *t, int skip, double *c)
{
    size_t total = 0, k = 0;
    for (int r = 0; r < t->runs; r++)
        total += r == skip ? 0 : t->n[r];
    struct pstep *all = malloc((total ? total : 1) * sizeof *all);
    if (!all)
        return -1;
    for (int r = 0; r < t->runs; r++)
        for (size_t i = 0; r != skip && i < t->n[r]; i++)
            all[k++] = t->s[r][i]; /* shallow: the arrays stay the run's */
    int rc = pstep_calibrate(all, total, 0, c);
    free(all);
    return rc;
}

/* Measured against predicted per superstep, each timed run predicted with
 * the c of the others, and the skew of h. */
static int csv_ranks;      /* the run's MPI ranks and the tree's */
static size_t csv_workers; /* workers, for the CSV rows */

static void csv_row(bench_csv_t *c, int ranks, size_t workers,
                    unsigned scale, const char *impl, int rep,
                    long superstep, double t, const char *per)
{
    bench_csv_int(c, ranks);
    bench_csv_int(c, (long long)workers);
    bench_csv_int(c, scale);
    bench_csv_str(c, impl);
    bench_csv_int(c, rep);
    if (superstep >= 0)
        bench_csv_int(c, superstep);
    else
        bench_csv_empty(c);
    bench_csv_num(c, t);
    bench_csv_str(c, per);
    bench_csv_end(c);
}

static void print_model(const struct opts *o, bench_csv_t *csv,
                        const struct traced *t)
{
    sgl_machine_t *m = NULL;
    size_t cap = 0;
    for (int r = 0; r < t->runs; r++)
        cap += t->n[r] > FIRST_STEADY ? t->n[r] - FIRST_STEADY : 0;
    unsigned kids = t->runs && t->n[0] ? t->s[0][0].children : 0;
    double *c = kids ? calloc(kids, sizeof *c) : NULL;
    if (sgl_machine_load(o->machine, &m) || !c || t->runs < 2 || !cap) {
        printf("  (no prediction: %s)\n",
               m ? "fewer than 2 runs traced" : sgl_error_last());
        sgl_machine_free(m);
        free(c);
        return;
    }
    double *meas = malloc(cap * sizeof *meas), *pr = malloc(cap * sizeof *pr);
    double *err = malloc(cap * sizeof *err), *aerr = malloc(cap * sizeof *aerr);
    double *cm = malloc(cap * sizeof *cm), *cp = malloc(cap * sizeof *cp);
    double *xm = malloc(cap * sizeof *xm), *skew = malloc(cap * sizeof *skew);
    int ok = meas && pr && err && aerr && cm && cp && xm && skew;
    size_t k = 0;
    for (int r = 0; ok && r < t->runs; r++) {
        ok = calibrate_without(t, r, c) == 0;
        for (size_t i = FIRST_STEADY; ok && i < t->n[r]; i++, k++) {
            const struct pstep *p = &t->s[r][i];
            ok = p->children == kids;
            pr[k] = ok ? pstep_predict(p, c, m, &cp[k]) : -1;
            ok = pr[k] >= 0;
            meas[k] = p->measured;
            err[k] = (pr[k] - meas[k]) / meas[k];
            aerr[k] = fabs(err[k]);
            cm[k] = 0;
            for (unsigned w = 0; w < p->children; w++)
                cm[k] = fmax(cm[k], p->time[w]);
            xm[k] = p->exchange;
            skew[k] = p->h_mean > 0 ? p->h / p->h_mean : 1;
            if (ok) {
                csv_row(csv, csv_ranks, csv_workers, o->scale, "sgl", r + 1, (long)i,
                        meas[k], "superstep");
                csv_row(csv, csv_ranks, csv_workers, o->scale, "model", r + 1,
                        (long)i, pr[k], "superstep");
            }
        }
    }
    if (ok && k > 0) {
        printf("  model per superstep (supersteps %d.. of each timed run, "
               "%zu in all, each run with c from the other runs; l and g "
               "from %s):\n",
               FIRST_STEADY, k, o->machine);
        printf("  %-30s %10.3f ms, predicted %.3f ms\n",
               "superstep, median", 1e3 * bench_median(meas, (int)k),
               1e3 * bench_median(pr, (int)k));
        printf("  %-30s %10.3f ms, predicted %.3f ms\n",
               "  slowest worker's task", 1e3 * bench_median(cm, (int)k),
               1e3 * bench_median(cp, (int)k));
        printf("  %-30s %10.3f ms\n", "  exchange superstep",
               1e3 * bench_median(xm, (int)k));
        qsort(err, k, sizeof *err, bench_cmp_double);
        printf("  %-30s %+9.1f %% (median; quartiles %+.1f, %+.1f), median "
               "|error| %.1f %%\n",
               "prediction error", 100 * bench_median(err, (int)k),
               100 * err[k / 4], 100 * err[(3 * k) / 4],
               100 * bench_median(aerr, (int)k));
        printf("  %-30s %10.2f x the mean worker's (median over supersteps)\n",
               "h of the busiest worker", bench_median(skew, (int)k));
    } else {
        printf("  (no prediction: %s has no parameters for this tree's "
               "root)\n",
               o->machine);
    }
    free(meas), free(pr), free(err), free(aerr), free(cm), free(cp);
    free(xm), free(skew), free(c);
    sgl_machine_free(m);
}

/* The timed runs' figures per repetition (rank 0), and the GraphBLAS
 * peer where there is one. */
struct sides {
    double *ts, *tp, *tg;  /* per update: SGL, the hand peer, GraphBLAS */
    double *ratio, *gratio; /* peer time / SGL time, GraphBLAS's / SGL's */
    double *cs, *cg, *cratio; /* CPU time per update, SGL and GraphBLAS
                                 (one process only), and GraphBLAS's /
                                 SGL's */
    double diff, gdiff;    /* largest rank difference to SGL's */
    peer_grb_t *grb;       /* rank 0; NULL: no GraphBLAS side */
    int have_grb;          /* on every rank */
};

/* GraphBLAS's ranks differ from SGL's exact ones by the rounding of
 * double sums (2e-17 measured at scale 20); a wrong graph, degree or
 * update moves some rank by far more than this (ranks total 1). */
#define GRB_MAX_DIFF 1e-12

/* Set GraphBLAS up at rank 0 on as many threads as SGL has workers; every
 * rank learns whether it is there. Its absence is not an error. */
static int grb_start(const struct opts *o, size_t nw, int rank,
                     struct sides *sd)
{
    char err[256] = "";
    if (rank == 0 && peer_grb_setup(o->scale, SEED, (int)nw, &sd->grb, err,
                                    sizeof err))
        fprintf(stderr, "bench_pregel: GraphBLAS peer left out: %s\n", err);
    cpu_set_t cpus;
    /* mpirun --bind-to core gives rank 0 one core for all the threads */
    if (sd->grb && sched_getaffinity(0, sizeof cpus, &cpus) == 0 &&
        (size_t)CPU_COUNT(&cpus) < nw)
        fprintf(stderr, "bench_pregel: GraphBLAS's %zu threads share the %d "
                        "core(s) rank 0 is bound to: run with --bind-to none "
                        "to compare it with SGL\n",
                nw, CPU_COUNT(&cpus));
    sd->have_grb = sd->grb != NULL;
    MPI_Bcast(&sd->have_grb, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return SGL_OK;
}

/* GraphBLAS's run at rank 0; the other ranks wait asleep, not spinning
 * in MPI, so that they leave the cores to its threads. */
static int grb_run(const struct opts *o, int rank, struct sides *sd,
                   double *ranks, double *seconds, double *cpu)
{
    char err[256] = "";
    int rc = 0;
    if (rank == 0)
        rc = peer_grb_pagerank(sd->grb, 0.85, o->iters + 1, seconds, cpu,
                               ranks, err, sizeof err);
    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    for (int done = 0; !done;) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done)
            nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    if (rc)
        fprintf(stderr, "bench_pregel: %s\n", err);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return rc ? SGL_EINVAL : SGL_OK;
}

static double max_diff(const double *a, const double *b, uint64_t n)
{
    double d = 0;
    for (uint64_t v = 0; v < n; v++)
        d = fmax(d, fabs(a[v] - b[v]));
    return d;
}

/* Repetition @k's figures at rank 0: printed, and into the CSV. */
static void rep_done(const struct opts *o, int k, struct sides *sd,
                     bench_csv_t *csv, double t_begin)
{
    sd->ratio[k] = sd->tp[k] / sd->ts[k];
    sd->gratio[k] = sd->have_grb ? sd->tg[k] / sd->ts[k] : 0;
    fprintf(stderr, "pagerank: run %d of %d: SGL %.3f ms per update, "
                    "peer %.3f, GraphBLAS %.3f; ETA %.0f s\n",
            k + 1, o->reps, 1e3 * sd->ts[k], 1e3 * sd->tp[k],
            1e3 * sd->tg[k], bench_eta(bench_now() - t_begin, k + 1, o->reps));
    csv_row(csv, csv_ranks, csv_workers, o->scale, "sgl", k + 1, -1,
            sd->ts[k], "update_mean");
    csv_row(csv, csv_ranks, csv_workers, o->scale, "peer_pagerank", k + 1, -1,
            sd->tp[k], "update_mean");
    if (sd->have_grb)
        csv_row(csv, csv_ranks, csv_workers, o->scale, "graphblas", k + 1, -1,
                sd->tg[k], "update_mean");
}

/* @o->reps repetitions of SGL, the hand peer and GraphBLAS, in an order
 * that rotates from one repetition to the next, so that a load that
 * comes and goes hits every side alike; per update on every side (each
 * runs o->iters + 1 updates). */
static int timed_reps(sgl_runtime_t *rt, const struct job *j,
                      const struct opts *o, int rank, double *peer_ranks,
                      double *grb_ranks, struct sides *sd, struct traced *tr,
                      bench_csv_t *csv, struct result *r)
{
    uint64_t n = UINT64_C(1) << o->scale;
    double t_begin = bench_now(), updates = o->iters + 1.0;
    int rc = SGL_OK;
    for (int k = 0; !rc && k < o->reps; k++) {
        peer_result_t pr = {0, 0};
        double tg = 0, cg = 0;
        for (int i = 0; i < 3 && !rc; i++) {
            int side = (i + k) % 3;
            if (side == 0) {
                sgl_trace_clear(rt);
                rc = run(rt, j, r);
                if (!rc && rank == 0) {
                    tr->n[tr->runs] = pstep_read(rt, &tr->s[tr->runs]);
                    tr->runs++;
                }
            } else if (side == 1) {
                rc = peer_pagerank(MPI_COMM_WORLD, o->scale, SEED, 0.85,
                                   o->iters + 1, &pr, peer_ranks);
            } else if (sd->have_grb) {
                rc = grb_run(o, rank, sd, grb_ranks, &tg, &cg);
            }
        }
        if (rc || rank != 0)
            continue;
        sd->ts[k] = r->seconds / updates;
        sd->tp[k] = pr.seconds / updates;
        sd->tg[k] = tg / updates;
        sd->cs[k] = r->cpu / updates;
        sd->cg[k] = cg / updates;
        sd->cratio[k] = sd->cg[k] / sd->cs[k];
        sd->diff = fmax(sd->diff, max_diff(sgl_ranks, peer_ranks, n));
        if (sd->have_grb)
            sd->gdiff = fmax(sd->gdiff, max_diff(sgl_ranks, grb_ranks, n));
        rep_done(o, k, sd, csv, t_begin);
    }
    return rc;
}

/* The hub graph at scale min(@scale, 18), on the even cut and then
 * balanced by the vertex weight fitted to the first: into @hub[0..1] and
 * *@cut (the balancing). */
static int hub_section(sgl_runtime_t *rt, const struct job *jp, int reps,
                       size_t nw, int rank, struct hub_side *hub,
                       struct result *cut)
{
    struct job j = *jp;
    struct result hub_built;
    j.every = 0;
    j.scale = jp->scale < 18 ? jp->scale : 18;
    j.build = HUB_BUILD;
    int rc = run(rt, &j, &hub_built);
    for (int side = 0; side < 2 && !rc; side++) {
        if (side == 1) {
            /* rank 0 fitted it; every rank runs the same job */
            MPI_Bcast(&hub[0].vertex_weight, 1, MPI_DOUBLE, 0,
                      MPI_COMM_WORLD);
            j.vweight = hub[0].vertex_weight;
            if (rank == 0)
                hub[0].heaviest = heaviest(hub_graph, nw, j.vweight);
            j.build = HUB_CUT;
            rc = run(rt, &j, cut);
        }
        j.build = HUB_RUN;
        if (!rc)
            rc = hub_runs(rt, &j, reps, &hub[side]);
    }
    if (!rc && rank == 0)
        hub[1].heaviest = heaviest(hub_graph, nw, j.vweight);
    return rc;
}

int main(int argc, char **argv)
{
    bench_default_env();
    struct opts o = {20, 10, 5, NULL, NULL, NULL, 0};
    int bad = parse(argc, argv, &o);
    if (bad) {
        fprintf(bad < 0 ? stdout : stderr,
                "usage: bench_pregel [--scale S] [--iters K] [--reps R] "
                "[--csv FILE] [--ckpt-dir DIR] [--machine FILE] "
                "[--no-hub]\n");
        return bad < 0 ? 0 : 2;
    }
    sgl_runtime_t *rt = NULL;
    if (sgl_init(&argc, &argv, NULL, &rt) || sgl_algorithms_register(rt)) {
        fprintf(stderr, "bench_pregel: %s\n", sgl_error_last());
        return 1;
    }
    bench_warn(rt, "bench_pregel");
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    size_t nw = sgl_machine_workers(sgl_runtime_machine(rt));
    uint64_t n = UINT64_C(1) << o.scale;
    double *peer_ranks = rank == 0 ? malloc(n * sizeof *peer_ranks) : NULL;
    sgl_ranks = rank == 0 ? malloc(n * sizeof *sgl_ranks) : NULL;
    double *ts = calloc((size_t)o.reps, sizeof *ts);
    double *tp = calloc((size_t)o.reps, sizeof *tp);
    double *ratio = calloc((size_t)o.reps, sizeof *ratio);
    double *tg = calloc((size_t)o.reps, sizeof *tg);
    double *gratio = calloc((size_t)o.reps, sizeof *gratio);
    double *cs = calloc((size_t)o.reps, sizeof *cs);
    double *cg = calloc((size_t)o.reps, sizeof *cg);
    double *cratio = calloc((size_t)o.reps, sizeof *cratio);
    double *grb_ranks = rank == 0 ? malloc(n * sizeof *grb_ranks) : NULL;
    MPI_Comm_size(MPI_COMM_WORLD, &csv_ranks);
    csv_workers = nw;
    bench_csv_t csv = {NULL, 0};
    char err[512];
    if (rank == 0 && o.csv &&
        bench_csv_open(&csv, o.csv,
                       "ranks,workers,scale,implementation,rep,superstep,"
                       "time_s,time_per",
                       0, err, sizeof err))
        fprintf(stderr, "bench_pregel: %s\n", err);
    struct job j = {BUILD, o.scale, o.iters, 0, 1, ""};
    struct result r, built, first;
    int rc = run(rt, &j, &built);
    /* The first run on a graph also lays its out-edges out by target
     * (pregel_fan.c), once: it is timed alone, as the peer's set-up is
     * outside its timer. */
    j.build = RUN;
    if (!rc)
        rc = run(rt, &j, &first);
    struct traced tr = {{NULL}, {0}, 0};
    struct sides sd = {ts, tp, tg, ratio, gratio, cs, cg, cratio,
                       0, 0, NULL, 0};
    if (!rc)
        rc = grb_start(&o, nw, rank, &sd);
    if (!rc)
        rc = timed_reps(rt, &j, &o, rank, peer_ranks, grb_ranks, &sd, &tr,
                        &csv, &r);
    /* Checkpoints every 5 supersteps: the same runs again, writing. */
    double *tc = calloc((size_t)o.reps, sizeof *tc), nckpt = 0;
    if (o.ckpt && strlen(o.ckpt) < sizeof j.dir) {
        j.every = 5;
        snprintf(j.dir, sizeof j.dir, "%s", o.ckpt);
        for (int k = 0; !rc && k < o.reps; k++) {
            rc = run(rt, &j, &r);
            tc[k] = r.seconds / (o.iters + 1);
            nckpt = (double)((r.st.supersteps - 1) / 5);
        }
    }
    /* Skew: the hub graph on the even cut, then balanced. */
    struct hub_side hub[2];
    struct result cut;
    memset(hub, 0, sizeof hub);
    memset(&cut, 0, sizeof cut);
    if (!rc && !o.no_hub)
        rc = hub_section(rt, &j, o.reps, nw, rank, hub, &cut);
    if (!rc && rank == 0) {
        printf("\nPageRank, Kronecker scale %u (%llu vertices, %llu distinct "
               "edges), %u iterations per run, %d runs, %zu workers\n",
               o.scale, (unsigned long long)built.n,
               (unsigned long long)built.m, o.iters + 1, o.reps,
               sgl_machine_workers(sgl_runtime_machine(rt)));
        printf("  %-30s %10.3f s\n", "graph built (SGL, once)",
               built.build_seconds);
        printf("  %-30s %10.3f s (the fan layout built in it)\n",
               "first run on the graph", first.seconds);
        print_row("SGL, per update", ts, o.reps, 1e-3, "ms");
        print_row("peer_pagerank, per update", tp, o.reps, 1e-3, "ms");
        print_row("SGL speed / peer speed", ratio, o.reps, 1, "x ");
        printf("  %-30s %10.3g\n", "largest rank difference", sd.diff);
        if (sd.have_grb) {
            char what[96];
            peer_grb_describe(sd.grb, what, sizeof what);
            printf("  GraphBLAS: %s, in rank 0, runs alternating with "
                   "SGL's\n", what);
            print_row("GraphBLAS, per update", tg, o.reps, 1e-3, "ms");
            print_row("SGL speed / GraphBLAS speed", gratio, o.reps, 1, "x ");
            printf("  %-30s %10.3g (bound %g: rounding of double sums)\n",
                   "largest rank difference", sd.gdiff, GRB_MAX_DIFF);
            if (csv_ranks == 1) {
                print_row("SGL, CPU per update", cs, o.reps, 1e-3, "ms");
                print_row("GraphBLAS, CPU per update", cg, o.reps, 1e-3,
                          "ms");
                print_row("GraphBLAS CPU / SGL CPU", cratio, o.reps, 1,
                          "x ");
            }
        }
        printf("  %-30s %10llu -> %llu per run (%.2fx fewer)\n",
               "messages, combiner", (unsigned long long)r.st.messages,
               (unsigned long long)r.st.combined,
               (double)r.st.messages / (double)(r.st.combined ? r.st.combined
                                                              : 1));
        printf("  %-30s %10.2f MB -> %.2f MB (the busiest worker, one "
               "superstep)\n",
               "h without -> with combiner",
               1e-6 * (double)r.st.max_worker_bytes_uncombined,
               1e-6 * (double)r.st.max_worker_bytes);
        if (nckpt > 0) {
            double with = bench_median(tc, o.reps);
            double without = bench_median(ts, o.reps);
            double updates = (double)(o.iters + 1);
            printf("  %-30s %10.2f updates each (%.0f checkpoints per "
                   "run, every 5, in %s)\n",
                   "checkpoint cost",
                   (with - without) * updates / nckpt / without, nckpt,
                   o.ckpt);
        }
    }
    if (!rc && rank == 0 && o.machine)
        print_model(&o, &csv, &tr);
    if (!rc && rank == 0 && !o.no_hub) {
        printf("  hub graph: the same at scale %u, vertices numbered by "
               "falling out-degree\n%34s %12s %12s\n",
               o.scale < 18 ? o.scale : 18, "", "even cut", "balanced");
        printf("  %-30s %11.2fx %11.2fx\n", "heaviest worker's weight",
               hub[0].heaviest, hub[1].heaviest);
        printf("  %-30s %11.2fx %11.2fx\n", "busiest worker's h / mean",
               hub[0].hskew, hub[1].hskew);
        printf("  %-30s %9.3f ms %9.3f ms\n", "per superstep, median",
               1e3 * hub[0].per_step, 1e3 * hub[1].per_step);
        printf("  (weight: out-edges + %.1f per vertex, the cost of a "
               "vertex in edges fitted to the even cut's workers; balancing "
               "took %.3f s)\n",
               hub[0].vertex_weight, cut.build_seconds);
    }
    for (int k = 0; k < tr.runs; k++)
        pstep_free(tr.s[k], tr.n[k]);
    free(tc);
    if (rc && rank == 0)
        fprintf(stderr, "bench_pregel: %s\n", sgl_error_last());
    /* The two must compute the same ranks: a benchmark of a wrong answer
     * fails. Both sum exactly (the peer as sgl_pagerank()), so the ranks
     * are bitwise equal on any tree, threads and ranks. */
    if (!rc && rank == 0 && sd.diff != 0) {
        fprintf(stderr, "bench_pregel: SGL's and the peer's ranks differ "
                        "by %g (they must be bitwise equal)\n",
                sd.diff);
        rc = 1;
    }
    if (!rc && rank == 0 && !(sd.gdiff <= GRB_MAX_DIFF)) {
        fprintf(stderr, "bench_pregel: SGL's and GraphBLAS's ranks differ "
                        "by %g (more than %g)\n",
                sd.gdiff, GRB_MAX_DIFF);
        rc = 1;
    }
    peer_grb_free(sd.grb);
    if (bench_csv_close(&csv)) {
        fprintf(stderr, "bench_pregel: cannot write %s\n", o.csv);
        rc = 1;
    }
    free(ts), free(tp), free(ratio), free(peer_ranks), free(sgl_ranks);
    free(tg), free(gratio), free(grb_ranks), free(cs), free(cg), free(cratio);
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
