/* The Trasgo paper's programs on SGL distributed arrays against
 * hand-written MPI peers in the same run (issue 18), under mpiexec:
 *
 *   Heat 2D   SGL (a plan of the 5-point stencil's reads, one exchange and
 *             one pardo per iteration) against bench/peer_heat2d.c (MPI +
 *             OpenMP, periodic Cartesian communicator, Sendrecv halos);
 *             time per iteration, the ratio per repetition (the orders
 *             alternate), the checksums (bitwise equal or not), and the
 *             model's prediction per iteration with its error;
 *   Cannon    SGL (tiles as elements, skew and shift plans) against
 *             bench/peer_cannon.c, where the rank count is a square (the
 *             peer's limit; SGL runs on any count);
 *   plans     the time to compute one worker's part of a plan (the index
 *             arithmetic) on partitions of 16 to 4096 workers, against the
 *             number of workers it reads from.
 *
 *   bench_trasgo [--heat N] [--iters K] [--cannon N] [--tiles Q]
 *                [--reps R] [--machine FILE] [--csv FILE] [--quick]
 *
 * The tree is SGL_SHAPE or the discovered machine; the peers run on the
 * same ranks with OMP_NUM_THREADS threads each. --machine gives the
 * parameters (sgl-probe's file of this machine) for the prediction; the
 * heat kernel's c is measured here, in this run.
 *
 * --csv (RFC 4180, bench_csv.h), one row per measurement: ranks, workers
 * (the tree's), benchmark (heat2d, cannon, plan_part_heat2d,
 * plan_part_rotate), implementation (sgl; the peers peer_heat2d and
 * peer_cannon; model, the prediction), n_side (the grid's side; rotate:
 * the 1D array's length), rep (1..R; empty for the prediction and the plan
 * rows, which are medians over workers), time_s per time_per (iteration,
 * run or worker_part), checksum (hex, XOR over the result: equal
 * checksums, equal results), plan_workers and source_workers (plan rows:
 * the partition's workers, the most workers one worker reads from). */
#include <getopt.h>
#include <mpi.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dplan_math.h"
#include "bench_csv.h"
#include "bench_env.h"
#include "peers_mpi.h"
#include "stencil_kernels.h"
#include "timing.h"
#include "trasgo.h"
#include <sgl/algorithms.h>
#include <sgl/predict.h>

struct opts {
    size_t heat_n, cannon_n, tiles;
    unsigned iters;
    int reps;
    const char *machine, *csv;
};

/* ---- one SGL run, as the root's task ---- */

enum prog { HEAT, CANNON };

struct job {
    int prog;
    size_t n, q;
    unsigned iters;
};

static int job_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    trasgo_result_t out;
    memset(&out, 0, sizeof out);
    int rc = j->prog == HEAT ? heat_run(root, 2, j->n, j->iters, &out)
                             : cannon_run(root, j->n, j->q, &out);
    if (rc)
        return rc;
    return sgl_put(root, &out, sizeof out, 1);
}

static int run_sgl(sgl_runtime_t *rt, const struct job *j,
                   trasgo_result_t *ret)
{
    int rc = sgl_run(rt, job_task, j, sizeof *j);
    const void *d;
    size_t n;
    if (!rc && sgl_runtime_rank(rt) == 0 &&
        sgl_run_result(rt, sizeof *ret, &d, &n) == SGL_OK && n == 1)
        memcpy(ret, d, sizeof *ret);
    return rc;
}

/* ---- the CSV ---- */

static bench_csv_t csv;
static int csv_ranks;
static size_t csv_workers;

static const char *csv_header =
    "ranks,workers,benchmark,implementation,n_side,rep,time_s,time_per,"
    "checksum,plan_workers,source_workers";

/* One row; @p rep 0, @p check 0 and @p plan_workers 0 leave their fields
 * empty. */
static void csv_row(const char *bench, const char *impl, size_t n_side,
                    int rep, double t, const char *per, uint64_t check,
                    size_t plan_workers, size_t source_workers)
{
    char hex[24];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)check);
    bench_csv_int(&csv, csv_ranks);
    bench_csv_int(&csv, (long long)csv_workers);
    bench_csv_str(&csv, bench);
    bench_csv_str(&csv, impl);
    bench_csv_int(&csv, (long long)n_side);
    if (rep)
        bench_csv_int(&csv, rep);
    else
        bench_csv_empty(&csv);
    bench_csv_num(&csv, t);
    bench_csv_str(&csv, per);
    bench_csv_str(&csv, check ? hex : NULL);
    if (plan_workers) {
        bench_csv_int(&csv, (long long)plan_workers);
        bench_csv_int(&csv, (long long)source_workers);
    } else {
        bench_csv_empty(&csv);
        bench_csv_empty(&csv);
    }
    bench_csv_end(&csv);
}

/* ---- medians of paired runs ---- */

struct series {
    double *sgl, *peer, *ratio;
    int n;
    int equal;    /* every compared pair's checksums equal */
    int compared; /* the checksums were compared */
};

static void print_series(const char *unit_name, double unit,
                         const struct series *s, const char *peer_name,
                         int have_peer)
{
    double ms = bench_median(s->sgl, s->n) / unit;
    double lo = s->sgl[0] / unit, hi = s->sgl[s->n - 1] / unit;
    printf("  %-28s %10.3f %s   (%.3f - %.3f)\n", "SGL (plan + exchange)", ms,
           unit_name, lo, hi);
    if (!have_peer)
        return;
    char label[64];
    snprintf(label, sizeof label, "MPI peer (%s)", peer_name);
    printf("  %-28s %10.3f %s   (%.3f - %.3f)\n", label,
           bench_median(s->peer, s->n) / unit, unit_name, s->peer[0] / unit,
           s->peer[s->n - 1] / unit);
    printf("  %-28s %10.3f x    (%.3f - %.3f)%s\n", "SGL time / peer time",
           bench_median(s->ratio, s->n), s->ratio[0], s->ratio[s->n - 1],
           !s->equal ? ", RESULTS DIFFER" : s->compared
                                               ? ", results bitwise equal"
                                               : "");
}

/* ---- heat 2D ---- */

static double heat_iteration; /* the SGL median, seconds */

/* c of the heat kernel, seconds per point, on blocks of @rows x @cols
 * points (a worker's block, with its halo) while @threads threads each
 * sweep their own block at once (they share the memory bandwidth, as the
 * workers do), median of 5 sweeps of the slowest thread. */
static double heat_c(size_t rows, size_t cols, int threads)
{
    size_t ld = cols + 2, cells = (rows + 2) * ld;
    double per[64];
    int nt = threads < 64 ? threads : 64;
#pragma omp parallel num_threads(nt)
    {
        double *a = malloc(cells * sizeof *a), *b = malloc(cells * sizeof *b);
        double t[5];
        for (size_t i = 0; a && b && i < cells; i++)
            a[i] = b[i] = kernel_init(i);
        for (int k = 0; k < 5 && a && b; k++) {
#pragma omp barrier
            double t0 = bench_now();
            for (size_t i = 1; i <= rows; i++)
                heat2d_row(b + i * ld + 1, a + (i - 1) * ld + 1,
                           a + i * ld + 1, a + (i + 1) * ld + 1, cols);
            t[k] = (bench_now() - t0) / (double)(rows * cols);
            double *x = a;
            a = b;
            b = x;
        }
        per[omp_get_thread_num()] = a && b ? bench_median(t, 5) : 0;
        free(a);
        free(b);
    }
    double worst = 0;
    for (int i = 0; i < nt; i++)
        worst = per[i] > worst ? per[i] : worst;
    return worst;
}

/* The model's time for one iteration: at every master one superstep with
 * an exchange of its level's h, at every worker its points at c. */
struct heat_model {
    const struct dpart *part;
    const size_t *level_h;
};

static unsigned model_nsteps(void *u, const sgl_node_t *m, const void *t)
{
    (void)u, (void)m, (void)t;
    return 1;
}

static int model_step(void *u, const sgl_node_t *m, const void *t,
                      unsigned s, sgl_pstep_t *ret)
{
    (void)t, (void)s;
    const struct heat_model *h = u;
    unsigned lv = sgl_node_level(m);
    ret->exchange = 1;
    for (unsigned i = 0; i < ret->arity; i++)
        ret->h[i] = lv < TRASGO_LEVELS ? (double)h->level_h[lv] : 0;
    return SGL_OK;
}

static int model_work(void *u, const sgl_node_t *w, const void *t,
                      sgl_work_t *ret)
{
    (void)t;
    const struct heat_model *h = u;
    size_t lo[DP_DIMS], hi[DP_DIMS];
    sgl__dpart_box(h->part, sgl_node_first_worker(w), lo, hi);
    ret->nterms = 1;
    ret->term[0].kernel = "heat2d";
    ret->term[0].amount = (double)((hi[0] - lo[0]) * (hi[1] - lo[1]));
    return SGL_OK;
}

/* Predicted seconds per iteration on @machine (a file of this tree's
 * shape), or a negative value with the reason printed. */
static double heat_predict(const struct opts *o, sgl_runtime_t *rt,
                           const size_t *level_h)
{
    sgl_machine_t *m;
    if (sgl_machine_load(o->machine, &m)) {
        printf("  (no prediction: %s)\n", sgl_error_last());
        return -1;
    }
    size_t w = sgl_machine_workers(sgl_runtime_machine(rt));
    size_t size[2] = {o->heat_n, o->heat_n};
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 2, size, sizeof(double));
    struct dpart part;
    double pred = -1;
    sgl_prediction_t p;
    int threads = omp_get_max_threads();
    if (sgl_machine_workers(m) != w || sgl__dpart_from_layout(&l, w, &part)) {
        printf("  (no prediction: %s has %zu workers, the run %zu)\n",
               o->machine, sgl_machine_workers(m), w);
        sgl_machine_free(m);
        return -1;
    }
    size_t lo[DP_DIMS], hi[DP_DIMS];
    sgl__dpart_box(&part, 0, lo, hi);
    size_t rows = hi[0] - lo[0], cols = hi[1] - lo[1];
    double points = (double)(rows * cols);
    sgl_machine_set_kernel_point(m, "heat2d", points, 1,
                                 heat_c(rows, cols, 1));
    if (threads > 1)
        sgl_machine_set_kernel_point(m, "heat2d", points, (unsigned)threads,
                                     heat_c(rows, cols, threads));
    struct heat_model hm = {&part, level_h};
    sgl_program_t prog = {"heat2d", 1, &hm, model_nsteps, model_step,
                          model_work};
    char task = 0;
    if (sgl_predict_program(m, &prog, &task, &p) == SGL_OK)
        pred = p.total;
    else
        printf("  (no prediction: %s)\n", sgl_error_last());
    sgl__dpart_free(&part);
    sgl_machine_free(m);
    return pred;
}

static struct series series_new(int n)
{
    struct series s = {calloc((size_t)n, sizeof(double)),
                       calloc((size_t)n, sizeof(double)),
                       calloc((size_t)n, sizeof(double)), n, 1, 1};
    return s;
}

static void series_free(struct series *s)
{
    free(s->sgl);
    free(s->peer);
    free(s->ratio);
}

static void series_sort(struct series *s)
{
    qsort(s->sgl, (size_t)s->n, sizeof(double), bench_cmp_double);
    qsort(s->peer, (size_t)s->n, sizeof(double), bench_cmp_double);
    qsort(s->ratio, (size_t)s->n, sizeof(double), bench_cmp_double);
}

/* SGL and the peer, @reps times each, alternating which goes first. */
static int heat_bench(const struct opts *o, sgl_runtime_t *rt, int rank)
{
    struct series s = series_new(o->reps);
    struct job j = {HEAT, o->heat_n, 0, o->iters};
    trasgo_result_t jr;
    memset(&jr, 0, sizeof jr);
    double plan_s = 0;
    double t_begin = bench_now();
    for (int r = 0; r < o->reps; r++) {
        peer_result_t pr;
        double sgl_t = 0;
        for (int k = 0; k < 2; k++) {
            if ((k == 0) == (r % 2 == 0)) {
                if (run_sgl(rt, &j, &jr)) {
                    if (rank == 0)
                        fprintf(stderr, "heat: %s\n", sgl_error_last());
                    series_free(&s);
                    return 1;
                }
                sgl_t = jr.seconds / o->iters;
                plan_s = jr.plan_seconds;
            } else if (peer_heat2d(MPI_COMM_WORLD, o->heat_n, o->iters,
                                   &pr)) {
                series_free(&s);
                return 1;
            }
        }
        s.sgl[r] = sgl_t;
        s.peer[r] = pr.seconds / o->iters;
        s.ratio[r] = s.sgl[r] / s.peer[r];
        s.equal &= jr.check == pr.check;
        if (rank == 0) {
            fprintf(stderr, "heat: run %d of %d: SGL %.3f ms, peer %.3f ms "
                            "per iteration; ETA %.0f s\n",
                    r + 1, o->reps, 1e3 * s.sgl[r], 1e3 * s.peer[r],
                    bench_eta(bench_now() - t_begin, r + 1, o->reps));
            csv_row("heat2d", "sgl", o->heat_n, r + 1, s.sgl[r], "iteration",
                    jr.check, 0, 0);
            csv_row("heat2d", "peer_heat2d", o->heat_n, r + 1, s.peer[r],
                    "iteration", pr.check, 0, 0);
        }
    }
    if (rank != 0) {
        series_free(&s);
        return 0;
    }
    series_sort(&s);
    printf("\nHeat 2D, %zu^2 doubles, periodic, %u iterations per run, %d "
           "runs, %zu workers\n",
           o->heat_n, o->iters, o->reps,
           sgl_machine_workers(sgl_runtime_machine(rt)));
    print_series("ms/iter", 1e-3, &s, "peer_heat2d", 1);
    printf("  %-28s %10.3f ms      (%zu messages, busiest worker receives "
           "%zu B)\n",
           "plan computed once", 1e3 * plan_s, jr.stats.messages,
           jr.stats.max_recv_bytes);
    if (o->machine) {
        double pred = heat_predict(o, rt, jr.level_h);
        double meas = bench_median(s.sgl, s.n);
        if (pred > 0) {
            printf("  %-28s %10.3f ms/iter, error %+.1f%% of the measured "
                   "median\n",
                   "predicted (model, c here)", 1e3 * pred,
                   100 * (pred - meas) / meas);
            csv_row("heat2d", "model", o->heat_n, 0, pred, "iteration", 0, 0, 0);
        }
    }
    heat_iteration = bench_median(s.sgl, s.n);
    series_free(&s);
    return 0;
}

/* ---- cannon ---- */

static int cannon_bench(const struct opts *o, sgl_runtime_t *rt, int rank,
                        int ranks)
{
    size_t w = sgl_machine_workers(sgl_runtime_machine(rt));
    size_t q = o->tiles;
    int square = 0;
    for (int g = 1; g * g <= ranks; g++)
        square |= g * g == ranks;
    if (!q) { /* one tile per worker on a square count, else a few each:
                 at least the balanced grid's longer side */
        size_t side = w;
        for (size_t d = 1; d <= w; d++)
            if (w % d == 0 && d * d >= w) {
                side = d;
                break;
            }
        for (q = side; o->cannon_n % q; q++)
            ;
    }
    /* The peer's tiles are its q x q processes; with as many tiles, both
     * sum each element's products in the same order, bit for bit. */
    int same_order = square && q * q == (size_t)ranks;
    /* Compared where both run one worker per process on the same grid. */
    int have_peer = same_order && w == (size_t)ranks;
    struct series s = series_new(o->reps);
    s.compared = have_peer;
    struct job j = {CANNON, o->cannon_n, q, 0};
    trasgo_result_t jr;
    memset(&jr, 0, sizeof jr);
    double t_begin = bench_now();
    for (int r = 0; r < o->reps; r++) {
        peer_result_t pr = {0, 0};
        for (int k = 0; k < 2; k++) {
            if ((k == 0) == (r % 2 == 0)) {
                if (run_sgl(rt, &j, &jr)) {
                    if (rank == 0)
                        fprintf(stderr, "cannon: %s\n", sgl_error_last());
                    series_free(&s);
                    return 1;
                }
            } else if (have_peer &&
                       peer_cannon(MPI_COMM_WORLD, o->cannon_n, &pr)) {
                series_free(&s);
                return 1;
            }
        }
        s.sgl[r] = jr.seconds;
        s.peer[r] = have_peer ? pr.seconds : 0;
        s.ratio[r] = have_peer ? s.sgl[r] / s.peer[r] : 0;
        s.equal &= !have_peer || jr.check == pr.check;
        if (rank == 0) {
            fprintf(stderr, "cannon: run %d of %d: SGL %.3f s", r + 1, o->reps,
                    s.sgl[r]);
            if (have_peer)
                fprintf(stderr, ", peer %.3f s", s.peer[r]);
            fprintf(stderr, "; ETA %.0f s\n",
                    bench_eta(bench_now() - t_begin, r + 1, o->reps));
            csv_row("cannon", "sgl", o->cannon_n, r + 1, s.sgl[r], "run",
                    jr.check, 0, 0);
            if (have_peer)
                csv_row("cannon", "peer_cannon", o->cannon_n, r + 1,
                        s.peer[r], "run", pr.check, 0, 0);
        }
    }
    if (rank != 0) {
        series_free(&s);
        return 0;
    }
    series_sort(&s);
    printf("\nCannon, %zu^2 doubles as %zu x %zu tiles, %d runs, %zu "
           "workers, %d ranks%s\n",
           o->cannon_n, q, q, o->reps, w, ranks,
           have_peer ? ""
           : !square ? " (not a square: the peer cannot run)"
                     : " (the peer would run one tile per process, on "
                       "other cores than SGL's workers: not compared)");
    print_series("s", 1, &s, "peer_cannon", have_peer);
    series_free(&s);
    return 0;
}

/* ---- plans at scale ---- */

/* Median time to compute one worker's part of @na accesses on @p, over
 * up to 64 workers spread over the partition; the most owners one of them
 * reads from. */
static double part_time(const struct dpart *p, size_t na,
                        const sgl_daccess_t *a, size_t *ret_peers)
{
    double t[64];
    int n = 0;
    *ret_peers = 0;
    size_t step = p->workers > 64 ? p->workers / 64 : 1;
    for (size_t w = step / 2; w < p->workers && n < 64; w += step) {
        struct dneed nd;
        double t0 = bench_now();
        int reps = 0;
        do {
            if (sgl__dplan_need(p, w, na, a, &nd))
                return -1;
            reps++;
            if (bench_now() - t0 < 1e-3)
                sgl__dneed_free(&nd);
            else
                break;
        } while (1);
        t[n++] = (bench_now() - t0) / reps;
        size_t peers = 0;
        for (size_t i = 0; i < nd.npieces; i++)
            peers += nd.piece[i].src != w &&
                     (i == 0 || nd.piece[i - 1].src != nd.piece[i].src);
        *ret_peers = peers > *ret_peers ? peers : *ret_peers;
        sgl__dneed_free(&nd);
    }
    return bench_median(t, n);
}

static void plan_scaling(const struct opts *o)
{
    static const size_t counts[] = {16, 64, 256, 1024, 4096};
    sgl_daccess_t st[5], rot;
    static const long off[5][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (int k = 0; k < 5; k++)
        sgl_daccess_shift(&st[k], 2, off[k], SGL_PERIODIC_ALL);
    printf("\nOne worker's part of a plan (the index arithmetic), median "
           "over workers\n");
    printf("  %8s   %-22s %12s %6s   %-22s %12s %6s\n", "workers",
           "Heat 2D stencil", "us", "peers", "rotate by n/3 (1D)", "us",
           "peers");
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        size_t size[2] = {o->heat_n, o->heat_n}, n1 = o->heat_n * o->heat_n;
        sgl_darray_layout_t l2, l1;
        sgl_darray_layout_init(&l2, 2, size, 8);
        l2.halo[0] = l2.halo[1] = 1;
        sgl_darray_layout_init(&l1, 1, &n1, 8);
        long r = (long)(n1 / 3);
        sgl_daccess_shift(&rot, 1, &r, SGL_PERIODIC_ALL);
        struct dpart p2, p1;
        if (sgl__dpart_from_layout(&l2, counts[c], &p2))
            continue;
        if (sgl__dpart_from_layout(&l1, counts[c], &p1)) {
            sgl__dpart_free(&p2);
            continue;
        }
        size_t peers2, peers1;
        double t2 = part_time(&p2, 5, st, &peers2);
        double t1 = part_time(&p1, 1, &rot, &peers1);
        printf("  %8zu   %-22s %12.2f %6zu   %-22s %12.2f %6zu\n", counts[c],
               "", 1e6 * t2, peers2, "", 1e6 * t1, peers1);
        csv_row("plan_part_heat2d", "sgl", o->heat_n, 0, t2, "worker_part", 0,
                counts[c], peers2);
        csv_row("plan_part_rotate", "sgl", n1, 0, t1, "worker_part", 0,
                counts[c], peers1);
        sgl__dpart_free(&p2);
        sgl__dpart_free(&p1);
    }
    if (heat_iteration > 0)
        printf("  (one Heat 2D iteration above: %.3f ms)\n",
               1e3 * heat_iteration);
}

static int parse(int argc, char **argv, struct opts *o)
{
    static const struct option lo[] = {
        {"heat", required_argument, 0, 'h'},
        {"iters", required_argument, 0, 'i'},
        {"cannon", required_argument, 0, 'c'},
        {"tiles", required_argument, 0, 't'},
        {"reps", required_argument, 0, 'r'},
        {"machine", required_argument, 0, 'm'},
        {"csv", required_argument, 0, 'o'},
        {"quick", no_argument, 0, 'q'},
        {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        char *end = NULL;
        unsigned long long v = optarg ? strtoull(optarg, &end, 10) : 0;
        int bad = optarg && (*end || v == 0);
        switch (c) {
        case 'h': o->heat_n = v; break;
        case 'i': o->iters = (unsigned)v; break;
        case 'c': o->cannon_n = v; break;
        case 't': o->tiles = v; break;
        case 'r': o->reps = (int)v; break;
        case 'm': o->machine = optarg; bad = 0; break;
        case 'o': o->csv = optarg; bad = 0; break;
        case 'q':
            o->heat_n = 1024, o->iters = 20, o->cannon_n = 512, o->reps = 3;
            break;
        default: return 1;
        }
        if (bad) {
            fprintf(stderr, "bench_trasgo: --%s wants a positive integer, "
                            "not '%s'\n",
                    lo[c == 'h' ? 0 : c == 'i' ? 1 : c == 'c' ? 2
                       : c == 't' ? 3 : 4].name, optarg);
            return 1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "bench_trasgo: unexpected argument '%s'\n",
                argv[optind]);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench_default_env();
    struct opts o = {4096, 2048, 0, 100, 5, NULL, NULL};
    if (parse(argc, argv, &o))
        return 2;
    sgl_runtime_t *rt = NULL;
    if (sgl_init(&argc, &argv, NULL, &rt) || sgl_algorithms_register(rt) ||
        trasgo_register(rt)) {
        fprintf(stderr, "bench_trasgo: %s\n", sgl_error_last());
        return 1;
    }
    bench_warn(rt, "bench_trasgo");
    int rank, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    csv_ranks = ranks;
    csv_workers = sgl_machine_workers(sgl_runtime_machine(rt));
    char err[512];
    if (rank == 0 && o.csv &&
        bench_csv_open(&csv, o.csv, csv_header, 0, err, sizeof err))
        fprintf(stderr, "bench_trasgo: %s\n", err);
    if (rank == 0)
        printf("bench_trasgo: %d ranks, %d OpenMP threads each for the "
               "peers, tree: %zu workers\n",
               ranks, omp_get_max_threads(),
               sgl_machine_workers(sgl_runtime_machine(rt)));
    int rc = heat_bench(&o, rt, rank);
    if (!rc)
        rc = cannon_bench(&o, rt, rank, ranks);
    if (!rc && rank == 0)
        plan_scaling(&o);
    if (bench_csv_close(&csv)) {
        fprintf(stderr, "bench_trasgo: cannot write %s\n", o.csv);
        rc = rc ? rc : 1;
    }
    sgl_finalize(rt);
    return rc;
}
