/* bench_main: the main job's sweep. On the tree the runtime runs
 * on (SGL_SHAPE, else discovery; alone or under mpiexec), for each
 * algorithm (reduce, scan, psrs) and size:
 *
 *   measured     median, min, max, IQR of --reps timed runs (after one
 *                warm-up), timed on the root around the algorithm call
 *   closed form  sgl_predict_algorithm() on the prediction tree
 *   replay       sgl_trace_replay() of each timed run's trace on the same
 *                tree, plus the root's measured time outside its
 *                supersteps (median over the runs)
 *   peers        in the same run, alternating with SGL: OpenMP reduction
 *                loop, streaming read bound, two-pass and `omp scan`,
 *                std::sort and __gnu_parallel::sort; with several ranks,
 *                MPI_Reduce / MPI_Exscan hybrids (OpenMP inside a rank);
 *                under --budget in the first 3 repetitions only
 *
 * The sizes run interleaved (smallest, largest, second smallest, ...);
 * under --budget so do the repetitions: in rounds, each one repetition
 * of every point, a reduction and a scan at one size on one fill. The
 * files list the points by size.
 *
 * The prediction tree is the runtime's tree (its shape string, single
 * levels as the runtime has them) with, for every level, the parameters of
 * a level with the same link kind (threads or MPI) from the --params files,
 * first file first; within a file the level of the same index if its link
 * matches, else the first level of that link kind. The small-message
 * regime, the memory sharing and the exchange's l_h, g_h travel with
 * their level. Kernels (c and
 * size tables) come from the file that gave the last master level (the
 * workers' own link: a probed "rank:2" file measured its busy table on
 * two ranks, a "core:2" file on two threads), else the first that has
 * any. So a probed "core:2" file gives the thread level and the
 * kernels, a probed "rank:2" file the MPI level, whatever the fan-outs of
 * the configuration are (l and g are per level; the model scales k with
 * the fan-out).
 *
 * --predict FILE: no runtime; prints the closed-form predictions for the
 * machine file alone and its scale-out tables (speed-up and efficiency over
 * the fan-outs of its top and bottom levels).
 *
 * Table on stdout (rank 0), progress on stderr; --json writes this
 * configuration's points with every repetition's time (schema
 * "sgl-bench-points", docs/bench.md). --csv appends one row per point and
 * --measurements one row per timed repetition and implementation, both
 * RFC 4180 (bench_csv.h) with a header if the file is new; a file with
 * other columns is refused. The CSV headers are points_header and
 * measurements_header below. --timeline writes a Perfetto timeline of one
 * traced run of each algorithm. --levels appends one row per point and
 * level of the tree: the closed form's terms of that level
 * (sgl_prediction_t.level) next to the time the trace says the level
 * spent (sgl_trace_levels()) in the median repetition (levels_header). */
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_csv.h"
#include "bench_env.h"
#include "cache_flush.h"
#include "peer_scan.h"
#include "state_sensor.h"
#include "stream_read.h"
#include "timing.h"

#include <sgl/algorithms.h>
#include <sgl/predict.h>
#include <sgl/version.h>
#include <sgl/blocks.h>
#include <sgl/trace.h>

#include "json.h"

void bench_peer_gnu_parallel_sort(double *x, size_t n, int threads);
void bench_peer_std_sort(double *x, size_t n);

#define MAX_SIZES 64
#define MAX_PARAMS 8
#define MAX_REPS 101
/* --budget: the repetitions that also run the peers: three make a median
 * and a spread, and the ratios are the peers' medians over SGL's. */
#define PEER_REPS 3

enum { A_REDUCE, A_SCAN, A_PSRS, NALGO };
static const char *algo_names[NALGO] = {"reduce", "scan", "psrs"};
static const sgl_predict_algo_t algo_pred[NALGO] = {
    SGL_PREDICT_REDUCE, SGL_PREDICT_SCAN_RTS, SGL_PREDICT_PSRS};

/* Sorted copy statistics. */
struct stats {
    double med, min, max, q1, q3;
};

static double quantile(const double *s, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)pos;
    double f = pos - i;
    return i + 1 < n ? s[i] * (1 - f) + s[i + 1] * f : s[i];
}

static struct stats stats_of(const double *v, int n)
{
    double s[MAX_REPS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, bench_cmp_double);
    struct stats r = {quantile(s, n, 0.5), s[0], s[n - 1], quantile(s, n, 0.25),
                      quantile(s, n, 0.75)};
    return r;
}

static double median_of(const double *v, int n)
{
    return n ? stats_of(v, n).med : NAN;
}

static uint64_t mix(uint64_t x)
{
    uint64_t z = x + 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static double rnd(uint64_t seed, size_t i)
{
    return (double)(mix(seed ^ (i * 0xd1342543de82ef95u)) >> 11) * 0x1p-53;
}

/* ---- the prediction tree ---- */

static int find_level(const sgl_machine_t *f, unsigned want_level,
                      sgl_link_t link, unsigned *ret)
{
    unsigned depth = sgl_machine_depth(f);
    const sgl_node_t *m = sgl_machine_master(f, want_level, 0);
    sgl_link_params_t p;
    if (want_level < depth && m && sgl_node_link(m) == link &&
        sgl_machine_level_params(f, want_level, &p) == SGL_OK) {
        *ret = want_level;
        return 1;
    }
    for (unsigned L = 0; L < depth; L++) {
        m = sgl_machine_master(f, L, 0);
        if (m && sgl_node_link(m) == link &&
            sgl_machine_level_params(f, L, &p) == SGL_OK) {
            *ret = L;
            return 1;
        }
    }
    return 0;
}

/* Build the prediction tree for @p shape from the parameter files; @p how
 * gets a short description of the mapping. */
static int build_pred(const char *shape, sgl_machine_t *const *files,
                      int nfiles, sgl_machine_t **ret, char *how, size_t len)
{
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo); /* single levels collapsed, as the
                                      runtime's tree has them */
    sgl_machine_t *m;
    int rc = sgl_machine_from_shape(shape, &mo, &m);
    if (rc)
        return rc;
    size_t off = 0;
    int kfile = -1; /* the file of the workers' own level */
    how[0] = 0;
    for (unsigned L = 0; L < sgl_machine_depth(m); L++) {
        const sgl_node_t *ms = sgl_machine_master(m, L, 0);
        if (!ms)
            continue;
        sgl_link_t link = sgl_node_link(ms);
        int found = 0;
        for (int f = 0; f < nfiles && !found; f++) {
            unsigned src;
            if (!find_level(files[f], L, link, &src))
                continue;
            sgl_link_params_t p, s;
            double mb;
            sgl_machine_level_params(files[f], src, &p);
            rc = sgl_machine_set_level_params(m, L, &p);
            if (!rc)
                rc = sgl_machine_set_level_memory(
                    m, L, sgl_machine_level_memory(files[f], src));
            if (!rc && sgl_machine_level_small_params(files[f], src, &s,
                                                      &mb) == SGL_OK)
                rc = sgl_machine_set_level_small_params(m, L, &s, mb);
            /* The probed l_h, g_h; without them the predictor guesses
             * the exchange from l and g. */
            sgl_exchange_params_t x;
            if (!rc && sgl_machine_level_exchange(files[f], src, &x) == SGL_OK)
                rc = sgl_machine_set_level_exchange(m, L, &x);
            if (rc) {
                sgl_machine_free(m);
                return rc;
            }
            off += (size_t)snprintf(how + off, off < len ? len - off : 0,
                                    "%slevel %u (%s) <- file %d level %u",
                                    off ? "; " : "", L, sgl_link_name(link),
                                    f + 1, src);
            found = 1;
            kfile = f;
        }
        if (!found) {
            sgl_machine_free(m);
            return sgl_error_set(SGL_ERANGE,
                                 "no parameter file has a %s level for level "
                                 "%u of %s",
                                 sgl_link_name(link), L, shape);
        }
    }
    if (kfile < 0 || !sgl_machine_kernels(files[kfile]))
        for (kfile = 0; kfile < nfiles; kfile++)
            if (sgl_machine_kernels(files[kfile]))
                break;
    if (kfile < nfiles && (rc = sgl_machine_copy_kernels(m, files[kfile]))) {
        sgl_machine_free(m);
        return rc;
    }
    if (kfile < nfiles)
        off += (size_t)snprintf(how + off, off < len ? len - off : 0,
                                "; kernels <- file %d", kfile + 1);
    *ret = m;
    return SGL_OK;
}

/* ---- the SGL side: programs run by the root ---- */

/* What one sgl_run() of job_main does with the root's vectors. */
enum job_step { JOB_CREATE, JOB_RUN, JOB_FREE };

struct job {
    enum job_step what;
    int algo;
    size_t n;
    uint64_t seed;
};

static sgl_dvec_t *g_in, *g_out; /* root's handles, across sgl_run()s */
static double g_time;

static int job_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    int rc = SGL_OK;
    if (j->what == JOB_CREATE) {
        rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_RANDOM,
                             &j->seed, sizeof j->seed, &g_in);
        if (!rc && j->algo == A_SCAN)
            rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_NONE, NULL,
                                 0, &g_out);
    } else if (j->what == JOB_RUN) {
        double t0 = bench_now(), s;
        if (j->algo == A_REDUCE)
            rc = sgl_dvec_reduce(root, g_in, SGL_OP_SUM, 0, &s);
        else if (j->algo == A_SCAN)
            rc = sgl_dvec_scan(root, g_in, g_out, SGL_OP_SUM,
                               SGL_SCAN_REDUCE_FIRST);
        else
            rc = sgl_dvec_sort(root, g_in, NULL);
        g_time = bench_now() - t0;
    } else {
        rc = sgl_dvec_free(root, g_in);
        int r2 = sgl_dvec_free(root, g_out);
        g_in = g_out = NULL;
        rc = rc ? rc : r2;
    }
    return rc;
}

/* ---- peers, run by every rank between programs ---- */

struct peers {
    int ranks, rank, threads;
    size_t n, lo, hi; /* this rank's share */
    double *x, *y;
    MPI_Comm comm;
};

static volatile double sink;

static void peer_fill(struct peers *p, uint64_t seed)
{
    size_t m = p->hi - p->lo;
#pragma omp parallel for schedule(static) num_threads(p->threads)
    for (size_t i = 0; i < m; i++)
        p->x[i] = rnd(seed, p->lo + i);
}

static double timed_start(struct peers *p)
{
    if (p->ranks > 1)
        MPI_Barrier(p->comm);
    return bench_now();
}

static double timed_end(struct peers *p, double t0)
{
    if (p->ranks > 1)
        MPI_Barrier(p->comm);
    return bench_now() - t0;
}

static double local_sum(const double *x, size_t m, int nt)
{
    double s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static) num_threads(nt)
    for (size_t i = 0; i < m; i++)
        s += x[i];
    return s;
}

static double peer_reduce(struct peers *p)
{
    double t0 = timed_start(p);
    double s = local_sum(p->x, p->hi - p->lo, p->threads), tot = s;
    if (p->ranks > 1)
        MPI_Reduce(&s, &tot, 1, MPI_DOUBLE, MPI_SUM, 0, p->comm);
    double t = timed_end(p, t0);
    sink = tot;
    return t;
}

static double peer_read(struct peers *p)
{
    const uint64_t *u = (const uint64_t *)p->x;
    size_t m = p->hi - p->lo;
    double t0 = timed_start(p);
    uint64_t acc = bench_stream_read(u, m, p->threads);
    double t = timed_end(p, t0);
    sink = (double)acc;
    return t;
}

/* Two-pass scan inside a rank, starting from @p off; with several ranks
 * the ranks' offsets come from MPI_Exscan of their sums. */
static double peer_scan2(struct peers *p)
{
    size_t m = p->hi - p->lo;
    const double *x = p->x;
    double *y = p->y;
    int nt = p->threads > 64 ? 64 : p->threads;
    double t0 = timed_start(p);
    double base = 0;
    if (p->ranks > 1) {
        double s = local_sum(x, m, nt), e = 0;
        MPI_Exscan(&s, &e, 1, MPI_DOUBLE, MPI_SUM, p->comm);
        base = p->rank ? e : 0;
    }
    bench_scan_two_pass(x, y, m, p->threads, base);
    double t = timed_end(p, t0);
    sink = m ? y[m - 1] : 0;
    return t;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
static double peer_omp_scan(struct peers *p)
{
    size_t m = p->hi - p->lo;
    const double *x = p->x;
    double *y = p->y;
    double t0 = timed_start(p);
    double base = 0;
    if (p->ranks > 1) {
        double s = local_sum(x, m, p->threads), e = 0;
        MPI_Exscan(&s, &e, 1, MPI_DOUBLE, MPI_SUM, p->comm);
        base = p->rank ? e : 0;
    }
    double s = base;
#pragma omp parallel for reduction(inscan, + : s) num_threads(p->threads)
    for (size_t i = 0; i < m; i++) {
        s += x[i];
#pragma omp scan inclusive(s)
        y[i] = s;
    }
    double t = timed_end(p, t0);
    sink = m ? y[m - 1] : 0;
    return t;
}
#pragma GCC diagnostic pop

/* Sorts on rank 0 alone, over all n elements: std::sort on one thread and
 * __gnu_parallel::sort on the host's workers. */
static void peer_sorts(struct peers *p, uint64_t seed, int host_workers,
                       double *t_std, double *t_gnu)
{
    *t_std = *t_gnu = NAN;
    if (p->rank)
        return;
    double *a = sgl_mem_alloc(p->n * sizeof *a);
    if (!a)
        return;
    for (size_t i = 0; i < p->n; i++)
        a[i] = rnd(seed, i);
    double t0 = bench_now();
    bench_peer_std_sort(a, p->n);
    *t_std = bench_now() - t0;
    for (size_t i = 0; i < p->n; i++)
        a[i] = rnd(seed, i);
    t0 = bench_now();
    bench_peer_gnu_parallel_sort(a, p->n, host_workers);
    *t_gnu = bench_now() - t0;
    omp_set_num_threads(p->threads);
    free(a);
}

/* ---- output ---- */

struct point {
    int algo;
    size_t n;
    struct stats meas;
    double closed, replay, seq_pred;
    double closed_lo, closed_hi; /* on --params-lo / --params-hi */
    /* The machine's state around the repetitions (state_sensor.h): the
     * median sensed c(sum), and its drift from the priced one. */
    double state_c, state_drift;
    double peer[4]; /* reduce: omp, read bound; scan: two-pass, omp scan;
                       psrs: std::sort, gnu parallel */
    /* The timed repetitions themselves (reps each, warm-up left out), for
     * measurements.csv: SGL's, the two peers' and the replay of each
     * run's trace (NAN where the replay failed). */
    double *rep_s, *peer_rep_s[2], *replay_rep_s;
    /* --levels: the closed form per level, and per repetition the
     * measured split (nlev entries each, the root's time after its last
     * superstep in level 0's work); lv_at, the median repetition. */
    sgl_level_cost_t *pred_lv;
    sgl_trace_level_t *lv_rep;
    int lv_at;
    int nreps; /* the timed repetitions run: --reps, fewer under --budget */
    int npeer; /* the first npeer repetitions also ran the peers */
    /* The state sensor's readings (state_sensor.h) */
    double sensed[MAX_REPS];
    int nsensed;
};

/* One name per peer, the same in the table, the CSV files and the plots.
 * With several ranks the reduction and scan peers combine the ranks'
 * parts with MPI_Reduce / MPI_Exscan: the same code, so the same name
 * (the configuration's ranks say which ran). */
static const char *peer_names[NALGO][2] = {
    {"omp_reduction", "read_bound"},
    {"two_pass_scan", "omp_scan"},
    {"std_sort", "gnu_parallel_sort"},
};

static double rel(double pred, double meas)
{
    return isfinite(pred) && meas > 0 ? (pred - meas) / meas : NAN;
}

static void print_header(void)
{
    printf("%-10s %-7s %10s %10s %10s %10s %10s %8s %10s %8s  %s\n", "config",
           "algo", "n", "median", "min", "max", "closed", "err", "replay",
           "err", "peer ratios (peer time / SGL time)");
    printf("%-10s %-7s %10s %10s %10s %10s %10s %8s %10s %8s\n", "", "",
           "[elems]", "[ms]", "[ms]", "[ms]", "[ms]", "[%]", "[ms]", "[%]");
}

static void print_point(const char *config, const struct point *pt)
{
    printf("%-10s %-7s %10zu %10.4f %10.4f %10.4f %10.4f %+8.1f %10.4f "
           "%+8.1f ",
           config, algo_names[pt->algo], pt->n, pt->meas.med * 1e3,
           pt->meas.min * 1e3, pt->meas.max * 1e3, pt->closed * 1e3,
           100 * rel(pt->closed, pt->meas.med), pt->replay * 1e3,
           100 * rel(pt->replay, pt->meas.med));
    for (int k = 0; k < 2; k++)
        printf(" %s %.3f", peer_names[pt->algo][k],
               pt->peer[k] / pt->meas.med);
    printf("\n");
}

/* points.csv: one row per (configuration, algorithm, size), SGL's
 * statistics over the repetitions, the predictions and every peer's
 * median: <peer>_median_s for each of peer_names in order
 * (omp_reduction_median_s ... gnu_parallel_sort_median_s), empty in the
 * rows of other algorithms; then closed_form_lo_s and closed_form_hi_s,
 * the closed form on --params-lo and --params-hi (sgl-probe --intervals:
 * every parameter at the low / high end of its 95% interval; the cost is
 * monotone in each, so they bound the prediction), empty without them;
 * then state_c_s, the median over the repetitions of c(sum) sensed right
 * before each (state_sensor.h), and state_drift_rel, its drift from the
 * c(sum) the configuration was priced by (state_c_s / priced - 1), empty
 * where the sensor is off. */
static const char *points_header =
    "config,shape,workers,ranks,threads_per_rank,oversubscribed,algo,"
    "n_elements,reps,median_s,min_s,max_s,q1_s,q3_s,closed_form_s,"
    "closed_form_rel_err,replay_s,replay_rel_err,closed_form_one_worker_s";

/* measurements.csv: one row per timed repetition and implementation (sgl,
 * a peer, the replay of that repetition's trace), plus the closed form
 * once per point (rep empty: one prediction, not a measurement). */
static const char *measurements_header =
    "config,shape,workers,ranks,algo,n_elements,implementation,rep,time_s";

/* What the output files say of the run, besides its points. */
struct run_info {
    const char *config, *shape, *how;
    size_t workers;
    int ranks, threads, over, reps;
    int argc;
    char **argv; /* as given, before MPI saw it */
    time_t started;
};

static int write_points(const char *path, const struct run_info *ri,
                        const struct point *pts, int npts)
{
    char header[1024], err[512];
    size_t off = (size_t)snprintf(header, sizeof header, "%s", points_header);
    for (int a = 0; a < NALGO; a++)
        for (int k = 0; k < 2 && off < sizeof header; k++)
            off += (size_t)snprintf(header + off, sizeof header - off,
                                    ",%s_median_s", peer_names[a][k]);
    /* After the peers, so that no column moves: the prediction interval,
     * then the machine's state during the point. */
    if (off < sizeof header)
        snprintf(header + off, sizeof header - off,
                 ",closed_form_lo_s,closed_form_hi_s,state_c_s,"
                 "state_drift_rel");
    bench_csv_t c;
    if (bench_csv_open(&c, path, header, 1, err, sizeof err)) {
        fprintf(stderr, "bench_main: %s\n", err);
        return -1;
    }
    for (int i = 0; i < npts; i++) {
        const struct point *p = &pts[i];
        bench_csv_str(&c, ri->config);
        bench_csv_str(&c, ri->shape);
        bench_csv_int(&c, (long long)ri->workers);
        bench_csv_int(&c, ri->ranks);
        bench_csv_int(&c, (long long)(ri->workers / (size_t)ri->ranks));
        bench_csv_int(&c, ri->over);
        bench_csv_str(&c, algo_names[p->algo]);
        bench_csv_int(&c, (long long)p->n);
        bench_csv_int(&c, p->nreps);
        bench_csv_num(&c, p->meas.med);
        bench_csv_num(&c, p->meas.min);
        bench_csv_num(&c, p->meas.max);
        bench_csv_num(&c, p->meas.q1);
        bench_csv_num(&c, p->meas.q3);
        bench_csv_num(&c, p->closed);
        bench_csv_num(&c, rel(p->closed, p->meas.med));
        bench_csv_num(&c, p->replay);
        bench_csv_num(&c, rel(p->replay, p->meas.med));
        bench_csv_num(&c, p->seq_pred);
        for (int a = 0; a < NALGO; a++)
            for (int k = 0; k < 2; k++)
                bench_csv_num(&c, a == p->algo ? p->peer[k] : NAN);
        bench_csv_num(&c, p->closed_lo);
        bench_csv_num(&c, p->closed_hi);
        bench_csv_num(&c, p->state_c);
        bench_csv_num(&c, p->state_drift);
        bench_csv_end(&c);
    }
    return bench_csv_close(&c);
}

/* levels.csv: one row per (configuration, algorithm, size, level of the
 * tree), level 0 the root's masters and the last the workers; link the
 * level's masters' link ("threads", "mpi"; "worker" at the workers) and
 * children the type of their children ("host", "rank", "core"). The
 * closed form's terms of the level along its critical path (work; scatter
 * k_down g_down; gather k_up g_up; syncs 2 l per superstep; exchange l_h +
 * h g_h) and their sum closed_form_level_s; the measured split of the
 * median repetition along the trace's critical path (sgl_trace_levels():
 * work, the masters' or workers' own time; comm, the pardo supersteps'
 * time outside their slowest child; exchange, the level's time during
 * exchange supersteps) and its sum measured_level_s; the supersteps each side
 * counts. closed_form_s and measured_s are the point's whole (the levels
 * add up to them; measured_s is the median repetition's time, so the
 * median_s of points.csv for an odd --reps); level_diff_rel is
 * (closed_form_level_s - measured_level_s) / measured_s, whose sum over
 * the levels is the point's relative error, and work_diff_rel,
 * comm_diff_rel (scatter + gather + syncs against comm) and
 * exchange_diff_rel split it by term. in_trace is 0 for a level whose
 * masters recorded no superstep (its measured terms are then empty). */
static const char *levels_header =
    "config,shape,algo,n_elements,level,link,children,closed_form_work_s,"
    "closed_form_scatter_s,closed_form_gather_s,closed_form_syncs_s,"
    "closed_form_exchange_s,closed_form_level_s,closed_form_supersteps,"
    "measured_work_s,measured_comm_s,measured_exchange_s,measured_level_s,"
    "measured_supersteps,in_trace,closed_form_s,measured_s,level_diff_rel,"
    "work_diff_rel,comm_diff_rel,exchange_diff_rel";

/* Whether the trace holds level @p d of a tree of depth @p depth: the
 * workers' level always (their time is their masters' children's), a
 * master level if it recorded a superstep. */
static int level_in_trace(const sgl_trace_level_t *lv, unsigned d,
                          unsigned depth)
{
    return d == depth || lv[d].supersteps > 0;
}

static int write_levels(const char *path, const struct run_info *ri,
                        const sgl_machine_t *m, const struct point *pts,
                        int npts)
{
    char err[512];
    bench_csv_t c;
    if (bench_csv_open(&c, path, levels_header, 1, err, sizeof err)) {
        fprintf(stderr, "bench_main: %s\n", err);
        return -1;
    }
    unsigned depth = sgl_machine_depth(m);
    for (int i = 0; i < npts; i++) {
        const struct point *p = &pts[i];
        if (!p->pred_lv || !p->lv_rep || p->lv_at < 0 || !isfinite(p->closed))
            continue;
        const sgl_trace_level_t *lv =
            p->lv_rep + (size_t)p->lv_at * (depth + 1);
        double meas = p->rep_s[p->lv_at];
        for (unsigned d = 0; d <= depth; d++) {
            const sgl_level_cost_t *q = &p->pred_lv[d];
            const sgl_trace_level_t *t = &lv[d];
            int in = level_in_trace(lv, d, depth);
            if (!in)
                fprintf(stderr,
                        "bench_main: levels: %s %s n=%zu: level %u has no "
                        "superstep in the trace (trace off or full?): its "
                        "measured terms are left empty\n",
                        ri->config, algo_names[p->algo], p->n, d);
            double own = sgl_level_cost_own(q);
            double mlev = t->work + t->comm + t->exchange;
            double comm = q->scatter + q->gather + q->syncs;
            const sgl_node_t *ms = sgl_machine_master(m, d, 0);
            bench_csv_str(&c, ri->config);
            bench_csv_str(&c, ri->shape);
            bench_csv_str(&c, algo_names[p->algo]);
            bench_csv_int(&c, (long long)p->n);
            bench_csv_int(&c, d);
            bench_csv_str(&c, d < depth && ms ? sgl_link_name(sgl_node_link(ms))
                                              : "worker");
            /* What the level's masters' children are ("host", "rank",
             * "core"): two MPI levels differ by it. */
            bench_csv_str(&c, d < depth && ms
                                  ? sgl_node_type(sgl_node_child(ms, 0))
                                  : "");
            bench_csv_num(&c, q->work);
            bench_csv_num(&c, q->scatter);
            bench_csv_num(&c, q->gather);
            bench_csv_num(&c, q->syncs);
            bench_csv_num(&c, q->exchange);
            bench_csv_num(&c, own);
            bench_csv_num(&c, q->supersteps);
            bench_csv_num(&c, in ? t->work : NAN);
            bench_csv_num(&c, in ? t->comm : NAN);
            bench_csv_num(&c, in ? t->exchange : NAN);
            bench_csv_num(&c, in ? mlev : NAN);
            bench_csv_num(&c, t->supersteps);
            bench_csv_int(&c, in);
            bench_csv_num(&c, p->closed);
            bench_csv_num(&c, meas);
            bench_csv_num(&c, in ? (own - mlev) / meas : NAN);
            bench_csv_num(&c, in ? (q->work - t->work) / meas : NAN);
            bench_csv_num(&c, in ? (comm - t->comm) / meas : NAN);
            bench_csv_num(&c, in ? (q->exchange - t->exchange) / meas : NAN);
            bench_csv_end(&c);
        }
    }
    return bench_csv_close(&c);
}

static void measurement_row(bench_csv_t *c, const struct run_info *ri,
                            const struct point *p, const char *impl, int rep,
                            double t)
{
    bench_csv_str(c, ri->config);
    bench_csv_str(c, ri->shape);
    bench_csv_int(c, (long long)ri->workers);
    bench_csv_int(c, ri->ranks);
    bench_csv_str(c, algo_names[p->algo]);
    bench_csv_int(c, (long long)p->n);
    bench_csv_str(c, impl);
    if (rep > 0)
        bench_csv_int(c, rep);
    else
        bench_csv_empty(c);
    bench_csv_num(c, t);
    bench_csv_end(c);
}

static int write_measurements(const char *path, const struct run_info *ri,
                              const struct point *pts, int npts)
{
    bench_csv_t c;
    char err[512];
    if (bench_csv_open(&c, path, measurements_header, 1, err, sizeof err)) {
        fprintf(stderr, "bench_main: %s\n", err);
        return -1;
    }
    for (int i = 0; i < npts; i++) {
        const struct point *p = &pts[i];
        for (int r = 0; r < p->nreps; r++) {
            measurement_row(&c, ri, p, "sgl", r + 1, p->rep_s[r]);
            for (int k = 0; k < 2 && r < p->npeer; k++)
                measurement_row(&c, ri, p, peer_names[p->algo][k], r + 1,
                                p->peer_rep_s[k][r]);
        }
        for (int r = 0; r < p->nreps; r++)
            if (isfinite(p->replay_rep_s[r]))
                measurement_row(&c, ri, p, "replay", r + 1,
                                p->replay_rep_s[r]);
        if (isfinite(p->closed))
            measurement_row(&c, ri, p, "closed_form", 0, p->closed);
    }
    return bench_csv_close(&c);
}

/* What the JSON says about the run besides its points. */
static void json_reps(struct sgl__json *j, const char *key, const double *v,
                      int n)
{
    sgl__json_begin_array(j, key);
    for (int i = 0; i < n; i++)
        sgl__json_number(j, NULL, v[i]);
    sgl__json_end_array(j);
}

/* The configuration's points, schema "sgl-bench-points" version 1; the
 * docs/bench.md, "JSON documents", lists the fields. */
static int write_json(const char *path, const struct run_info *ri,
                      const struct point *pts, int npts)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
    int hlen = 0;
    if (MPI_Get_processor_name(host, &hlen) != MPI_SUCCESS)
        host[0] = 0;
    char date[32];
    struct tm tm;
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ",
             gmtime_r(&ri->started, &tm));
    struct sgl__json j;
    sgl__json_init(&j, f, 1);
    sgl__json_begin_document(&j, "sgl-bench-points", 1);
    sgl__json_string(&j, "host", host[0] ? host : NULL);
    sgl__json_string(&j, "date", date);
    sgl__json_begin_array(&j, "argv");
    for (int i = 0; i < ri->argc; i++)
        sgl__json_string(&j, NULL, ri->argv[i]);
    sgl__json_end_array(&j);
    sgl__json_string(&j, "config", ri->config);
    sgl__json_string(&j, "shape", ri->shape);
    sgl__json_uint(&j, "workers", ri->workers);
    sgl__json_int(&j, "ranks", ri->ranks);
    sgl__json_int(&j, "threads_per_rank", ri->threads);
    sgl__json_bool(&j, "oversubscribed", ri->over);
    sgl__json_int(&j, "reps", ri->reps);
    sgl__json_string(&j, "prediction_tree", ri->how);
    sgl__json_begin_array(&j, "points");
    for (int i = 0; i < npts; i++) {
        const struct point *p = &pts[i];
        char key[64];
        sgl__json_begin_object(&j, NULL);
        sgl__json_string(&j, "algo", algo_names[p->algo]);
        /* The names of points.csv's columns, so that a reader of both
         * meets one name per quantity. */
        sgl__json_uint(&j, "n_elements", p->n);
        sgl__json_number(&j, "median_s", p->meas.med);
        sgl__json_number(&j, "min_s", p->meas.min);
        sgl__json_number(&j, "max_s", p->meas.max);
        sgl__json_number(&j, "q1_s", p->meas.q1);
        sgl__json_number(&j, "q3_s", p->meas.q3);
        sgl__json_number(&j, "closed_form_s", p->closed);
        sgl__json_number(&j, "replay_s", p->replay);
        sgl__json_number(&j, "closed_form_one_worker_s", p->seq_pred);
        sgl__json_number(&j, "closed_form_lo_s", p->closed_lo);
        sgl__json_number(&j, "closed_form_hi_s", p->closed_hi);
        for (int k = 0; k < 2; k++) {
            snprintf(key, sizeof key, "%s_median_s", peer_names[p->algo][k]);
            sgl__json_number(&j, key, p->peer[k]);
        }
        json_reps(&j, "rep_s", p->rep_s, p->nreps);
        json_reps(&j, "replay_rep_s", p->replay_rep_s, p->nreps);
        for (int k = 0; k < 2; k++) {
            snprintf(key, sizeof key, "%s_rep_s", peer_names[p->algo][k]);
            json_reps(&j, key, p->peer_rep_s[k], p->npeer);
        }
        sgl__json_end_object(&j);
    }
    sgl__json_end_array(&j);
    sgl__json_end_object(&j);
    int rc = sgl__json_finish(&j);
    return fclose(f) || rc ? -1 : 0;
}

/* ---- --timeline: one traced run of each algorithm ---- */

/* Big enough that every worker has a share worth drawing, small enough
 * to take milliseconds. */
#define TIMELINE_N 100000

/* Run each wanted algorithm once at TIMELINE_N (the fill, the algorithm
 * and the free are all in the trace) and write the Perfetto timeline to
 * @path. Every rank calls it. */
static int write_timeline(sgl_runtime_t *rt, const char *path, const int *want,
                          size_t workers)
{
    size_t n = workers > TIMELINE_N ? workers : TIMELINE_N;
    int rc = SGL_OK;
    sgl_trace_clear(rt);
    for (int a = 0; a < NALGO && !rc; a++) {
        if (!want[a])
            continue;
        struct job j = {JOB_CREATE, a, n, 7};
        if ((rc = sgl_run(rt, job_main, &j, sizeof j)) != SGL_OK)
            break;
        j.what = JOB_RUN;
        rc = sgl_run(rt, job_main, &j, sizeof j);
        /* The vectors go whether or not the algorithm failed. */
        j.what = JOB_FREE;
        int frc = sgl_run(rt, job_main, &j, sizeof j);
        rc = rc ? rc : frc;
    }
    if (!rc)
        rc = sgl_trace_write(rt, path, SGL_TRACE_PERFETTO);
    sgl_trace_clear(rt);
    return rc;
}

/* ---- --predict: a machine file alone ---- */

static int predict_one(const sgl_machine_t *m, int algo, double n,
                       sgl_prediction_t *r)
{
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    return sgl_predict_algorithm(m, algo_pred[algo], n, &o, r);
}

/* The subtree with fan-out @p top at level 0 and @p bottom at the last
 * level (others full). */
static int sub_machine(const sgl_machine_t *m, unsigned top, unsigned bottom,
                       sgl_machine_t **ret)
{
    unsigned d = sgl_machine_depth(m);
    unsigned fan[SGL_PREDICT_MAX_LEVELS];
    sgl_link_t links[SGL_PREDICT_MAX_LEVELS];
    for (unsigned L = 0; L < d; L++) {
        const sgl_node_t *ms = sgl_machine_master(m, L, 0);
        fan[L] = sgl_node_arity(ms);
        links[L] = sgl_node_link(ms);
    }
    fan[0] = top;
    if (d > 1)
        fan[d - 1] = bottom;
    /* Fan-out 1 levels collapse, as in the runtime; the remaining levels
     * take the parameters of the level with the same link kind. */
    sgl_machine_t *s;
    int rc = sgl_machine_from_fanouts(fan, links, d, NULL, &s);
    for (unsigned L = 0; !rc && L < sgl_machine_depth(s); L++) {
        const sgl_node_t *ms = sgl_machine_master(s, L, 0);
        unsigned src;
        if (!ms || !find_level(m, L, sgl_node_link(ms), &src))
            continue;
        sgl_link_params_t p, sm;
        double mb;
        if (sgl_machine_level_params(m, src, &p) == SGL_OK)
            rc = sgl_machine_set_level_params(s, L, &p);
        if (!rc)
            rc = sgl_machine_set_level_memory(s, L,
                                              sgl_machine_level_memory(m, src));
        if (!rc &&
            sgl_machine_level_small_params(m, src, &sm, &mb) == SGL_OK)
            rc = sgl_machine_set_level_small_params(s, L, &sm, mb);
    }
    if (!rc)
        rc = sgl_machine_copy_kernels(s, m);
    if (rc) {
        sgl_machine_free(s);
        return rc;
    }
    *ret = s;
    return SGL_OK;
}

static int homogeneous(const sgl_machine_t *m)
{
    for (unsigned L = 0; L < sgl_machine_depth(m); L++) {
        size_t nm = sgl_machine_level_masters(m, L);
        if (nm != sgl_machine_level_size(m, L))
            return 0;
        unsigned a = sgl_node_arity(sgl_machine_master(m, L, 0));
        for (size_t i = 1; i < nm; i++)
            if (sgl_node_arity(sgl_machine_master(m, L, i)) != a)
                return 0;
    }
    return 1;
}

static void fmt_time(char *buf, size_t len, double s)
{
    if (s >= 1)
        snprintf(buf, len, "%.3f s", s);
    else if (s >= 1e-3)
        snprintf(buf, len, "%.3f ms", s * 1e3);
    else
        snprintf(buf, len, "%.2f us", s * 1e6);
}

static int predict_file(const char *path, const double *sizes, int nsizes)
{
    sgl_machine_t *m;
    if (sgl_machine_load(path, &m)) {
        fprintf(stderr, "bench_main: %s\n", sgl_error_last());
        return 1;
    }
    unsigned d = sgl_machine_depth(m);
    printf("== predicted (closed form) on %s: shape %s, %zu workers, depth "
           "%u\n",
           path, sgl_machine_shape(m), sgl_machine_workers(m), d);
    const char *method = sgl_machine_provenance(m, "method");
    if (method)
        printf("   parameters: %s\n", method);
    printf("\n%-7s %12s %14s %14s %10s %10s\n", "algo", "n", "predicted",
           "one worker", "speed-up", "effic.");
    printf("%-7s %12s %14s %14s %10s %10s\n", "", "[elems]", "[time]",
           "[time]", "[x]", "[%]");
    int status = 0;
    for (int a = 0; a < NALGO; a++)
        for (int i = 0; i < nsizes; i++) {
            sgl_prediction_t r;
            if (predict_one(m, a, sizes[i], &r)) {
                fprintf(stderr, "bench_main: %s %s: %s\n", path,
                        algo_names[a], sgl_error_last());
                status = 1;
                continue;
            }
            char t1[32], t2[32];
            fmt_time(t1, sizeof t1, r.total);
            fmt_time(t2, sizeof t2, r.sequential);
            printf("%-7s %12.4g %14s %14s %10.2f %10.1f\n", algo_names[a],
                   sizes[i], t1, t2, r.speedup, 100 * r.efficiency);
        }
    /* Scale-out (like the SGL paper's Tables 4-5): speed-up and efficiency
     * over the fan-outs of the top level (rows) and the bottom level
     * (columns), at the largest size. */
    if (d >= 1 && homogeneous(m)) {
        unsigned ptop = sgl_node_arity(sgl_machine_master(m, 0, 0));
        unsigned pbot =
            d > 1 ? sgl_node_arity(sgl_machine_master(m, d - 1, 0)) : 1;
        double n = sizes[nsizes - 1];
        for (int a = 0; a < NALGO; a++) {
            printf("\n%s, n = %g: predicted speed-up (efficiency %%) vs one "
                   "worker; rows: level 0 fan-out, columns: level %u "
                   "fan-out\n",
                   algo_names[a], n, d - 1);
            printf("%8s", "p0 \\ pL");
            for (unsigned c = 1; c <= pbot; c = c * 2 > pbot && c < pbot ? pbot : c * 2)
                printf(" %16u", c);
            printf("\n");
            for (unsigned r0 = 1; r0 <= ptop;
                 r0 = r0 * 2 > ptop && r0 < ptop ? ptop : r0 * 2) {
                printf("%8u", r0);
                for (unsigned c = 1; c <= pbot;
                     c = c * 2 > pbot && c < pbot ? pbot : c * 2) {
                    sgl_machine_t *s = NULL;
                    sgl_prediction_t r;
                    if (sub_machine(m, r0, c, &s) ||
                        predict_one(s, a, n, &r)) {
                        printf(" %16s", "-");
                    } else {
                        char cell[32];
                        snprintf(cell, sizeof cell, "%.2f (%.0f%%)",
                                 r.speedup, 100 * r.efficiency);
                        printf(" %16s", cell);
                    }
                    sgl_machine_free(s);
                    if (d == 1)
                        break;
                }
                printf("\n");
            }
        }
    }
    sgl_machine_free(m);
    return status;
}

/* ---- --repredict: the closed form again, on re-measured parameters ----
 *
 * bench/run re-measures the probes after a configuration's sweep
 * (sgl-probe --drift); this evaluates the closed form of every point of
 * the sweep on the prediction tree built, as the sweep built it, from
 * --params (closed_form_s: the sweep's own prediction, which bench/run
 * checks against points.csv) and from --params-after (closed_form_after_s:
 * the same mapping onto the re-measured files). No runtime: one row per
 * algorithm and size with n >= the tree's workers, to --csv (header
 * repredict_header, RFC 4180). */
static const char *repredict_header =
    "config,algo,n_elements,closed_form_s,closed_form_after_s";

static int repredict(const char *shape, const char *config,
                     const char *const *before, int nbefore,
                     const char *const *after, int nafter, const int *want,
                     const double *sizes, int nsizes,
                     const unsigned char (*use)[MAX_SIZES], const char *csv)
{
    sgl_machine_t *fb[MAX_PARAMS] = {0}, *fa[MAX_PARAMS] = {0};
    sgl_machine_t *pb = NULL, *pa = NULL;
    char how[1024], err[512];
    int status = 0;
    if (nbefore != nafter || nbefore == 0) {
        fprintf(stderr, "bench_main: --repredict needs as many "
                        "--params-after as --params (one re-measured file "
                        "per file, in the same order), and at least one\n");
        return 2;
    }
    for (int f = 0; f < nbefore && !status; f++)
        if (sgl_machine_load(before[f], &fb[f]) ||
            sgl_machine_load(after[f], &fa[f])) {
            fprintf(stderr, "bench_main: %s\n", sgl_error_last());
            status = 1;
        }
    if (!status && (build_pred(shape, fb, nbefore, &pb, how, sizeof how) ||
                    build_pred(shape, fa, nafter, &pa, how, sizeof how))) {
        fprintf(stderr, "bench_main: --repredict %s: %s\n", shape,
                sgl_error_last());
        status = 1;
    }
    bench_csv_t c = {0};
    if (!status && bench_csv_open(&c, csv, repredict_header, 1, err,
                                  sizeof err)) {
        fprintf(stderr, "bench_main: %s\n", err);
        status = 1;
    }
    size_t workers = pb ? sgl_machine_workers(pb) : 0;
    for (int a = 0; a < NALGO && !status; a++)
        for (int i = 0; want[a] && i < nsizes; i++) {
            if ((size_t)sizes[i] < workers || !use[a][i])
                continue;
            sgl_prediction_t rb, ra;
            double tb = NAN, ta = NAN;
            if (predict_one(pb, a, (double)(size_t)sizes[i], &rb) == SGL_OK)
                tb = rb.total;
            if (predict_one(pa, a, (double)(size_t)sizes[i], &ra) == SGL_OK)
                ta = ra.total;
            bench_csv_str(&c, config);
            bench_csv_str(&c, algo_names[a]);
            bench_csv_int(&c, (long long)(size_t)sizes[i]);
            bench_csv_num(&c, tb);
            bench_csv_num(&c, ta);
            bench_csv_end(&c);
        }
    if (c.f && bench_csv_close(&c)) {
        fprintf(stderr, "bench_main: cannot write %s\n", csv);
        status = 1;
    }
    for (int f = 0; f < nbefore; f++) {
        sgl_machine_free(fb[f]);
        sgl_machine_free(fa[f]);
    }
    sgl_machine_free(pb);
    sgl_machine_free(pa);
    return status;
}

/* The size index to run @p i-th of @p n: the smallest, the largest, the
 * second smallest, the second largest, ... A slow stretch of the shared
 * box then falls on sizes far apart, not on a run of neighbours that the
 * held-out fit (bench/heldout.awk) would take for a change with n: the
 * scan on one worker measured 14.0, 8.2 and 19.1 ms at 3e6, 5e6 and 7e6
 * in ascending order (docs/results/2026-12-budget.md). */
static int interleaved(int i, int n)
{
    return i % 2 ? n - 1 - i / 2 : i / 2;
}

/* ---- the sweep's repetitions ---- */

/* What every repetition of the sweep needs, whichever point it is of. */
struct sweep {
    sgl_runtime_t *rt;
    struct peers *p;
    struct state_sensor *sensor;
    const sgl_machine_t *pred;
    unsigned nlev;
    /* --budget: peers in the first PEER_REPS repetitions only, the
     * sensor once a point, no sort warm-up (see sweep_lean()) */
    int lean;
};

/* The arrays of point @p pt of algorithm @p a at @p n, for @p reps
 * repetitions at most (and per level where @p levels). */
static int point_start(struct point *pt, int a, size_t n, int reps,
                       unsigned nlev, int levels)
{
    pt->algo = a;
    pt->n = n;
    pt->lv_at = -1;
    double *reps_all = malloc(4 * (size_t)reps * sizeof *reps_all);
    if (!reps_all)
        return -1;
    pt->rep_s = reps_all;
    pt->peer_rep_s[0] = reps_all + reps;
    pt->peer_rep_s[1] = reps_all + 2 * reps;
    pt->replay_rep_s = reps_all + 3 * reps;
    if (levels) {
        pt->pred_lv = calloc(nlev, sizeof *pt->pred_lv);
        pt->lv_rep = calloc((size_t)reps * nlev, sizeof *pt->lv_rep);
        if (!pt->pred_lv || !pt->lv_rep)
            return -1;
    }
    return 0;
}

/* The data of size index @p si: the peers' (their arrays on the pages
 * the library's blocks get) and, but for a sort, which makes its own in
 * each repetition, the root's vector; with @p a a scan also its output,
 * so that a reduction at the same size runs on the same fill. */
static int data_make(const struct sweep *s, size_t n, int si, int a)
{
    struct peers *p = s->p;
    p->n = n;
    p->lo = n * (size_t)p->rank / (size_t)p->ranks;
    p->hi = n * (size_t)(p->rank + 1) / (size_t)p->ranks;
    p->x = sgl_mem_alloc((p->hi - p->lo + 1) * sizeof *p->x);
    p->y = sgl_mem_alloc((p->hi - p->lo + 1) * sizeof *p->y);
    if (!p->x || !p->y)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    peer_fill(p, 7 + (uint64_t)si);
    struct job j = {JOB_CREATE, a, n, 7 + (uint64_t)si};
    return a == A_PSRS ? SGL_OK : sgl_run(s->rt, job_main, &j, sizeof j);
}

/* Frees what data_make() made; returns @p rc, or the free's error. */
static int data_drop(const struct sweep *s, int a, int rc)
{
    if (a != A_PSRS && !rc) {
        struct job j = {JOB_FREE, a, 0, 0};
        rc = sgl_run(s->rt, job_main, &j, sizeof j);
    }
    sgl_trace_clear(s->rt);
    free(s->p->x);
    free(s->p->y);
    s->p->x = s->p->y = NULL;
    return rc;
}

/* The root's measured time that no superstep accounts for (all of it on
 * a one-worker tree; after the last superstep otherwise): computation,
 * as replay takes a child master's. The time before each superstep is
 * already in replay, as that step's master_time. */
static double time_outside(sgl_runtime_t *rt)
{
    double inside = 0;
    sgl_trace_step_t st;
    for (size_t q = 0; q < sgl_trace_steps(rt); q++)
        if (sgl_trace_step(rt, q, &st) == SGL_OK && st.level == 0)
            inside += st.end - st.start + st.master_time;
    return g_time - inside;
}

/* The peers of @p pt's algorithm once, into @p t1, @p t2. */
static void peers_once(struct peers *p, const struct point *pt, int k,
                       size_t workers, double *t1, double *t2)
{
    if (pt->algo == A_REDUCE) {
        bench_flush_caches(p->threads);
        *t1 = peer_reduce(p);
        bench_flush_caches(p->threads);
        *t2 = peer_read(p);
    } else if (pt->algo == A_SCAN) {
        bench_flush_caches(p->threads);
        *t1 = peer_scan2(p);
        bench_flush_caches(p->threads);
        *t2 = peer_omp_scan(p);
    } else {
        peer_sorts(p, 100 + (uint64_t)k, (int)workers, t1, t2);
    }
}

/* Each sort right after an untimed one, as the probe measured c and as
 * the peers run right after SGL: the peers' sorts leave SGL's memory
 * freed for over a second, and on this project's VM such memory came
 * back 16-24x slower on 2 MiB pages
 * (docs/results/2026-12-probe-vs-sweep.md, "Why a probe and a sweep
 * differed"), which the model does not price. Reductions and scans start
 * cold, as the probe measured their c; sorts warm from the fill. */
static int rep_prepare(const struct sweep *s, const struct point *pt, int k)
{
    static const enum job_step untimed_sort[] = {JOB_CREATE, JOB_RUN,
                                                 JOB_FREE, JOB_CREATE};
    int rc = SGL_OK;
    struct job j = {JOB_CREATE, pt->algo, pt->n, 100 + (uint64_t)k};
    for (size_t w = 0; pt->algo == A_PSRS && w < 4 && !rc; w++) {
        j.what = untimed_sort[w];
        rc = sgl_run(s->rt, job_main, &j, sizeof j);
    }
    if (pt->algo != A_PSRS) {
        bench_flush_caches(s->p->threads);
        /* Every rank done flushing before the root's clock starts, or
         * the run waits for the slowest one. */
        if (s->p->ranks > 1)
            MPI_Barrier(s->p->comm);
    }
    return rc;
}

/* Repetition @p k of point @p pt (0: the warm-up, kept nowhere) on the
 * data of data_make(); @p say: print why a replay failed. */
static int sweep_rep(const struct sweep *s, struct point *pt, int k, int say,
                     size_t workers)
{
    struct peers *p = s->p;
    int sense = k > 0 && (!s->lean || k == 1);
    int peers = s->lean ? k >= 1 && k <= PEER_REPS : 1;
    double c_now = sense ? state_sensor_read(s->sensor, s->rt) : NAN;
    if (isfinite(c_now) && pt->nsensed < MAX_REPS)
        pt->sensed[pt->nsensed++] = c_now;
    int rc = rep_prepare(s, pt, k);
    if (rc)
        return rc;
    sgl_trace_clear(s->rt);
    struct job j = {JOB_RUN, pt->algo, pt->n, 100 + (uint64_t)k};
    if ((rc = sgl_run(s->rt, job_main, &j, sizeof j)))
        return rc;
    double rs = NAN, outside = 0;
    if (s->pred && sgl_trace_replay(s->rt, s->pred, &rs) != SGL_OK) {
        if (p->rank == 0 && say)
            fprintf(stderr, "  replay: %s\n", sgl_error_last());
        rs = NAN;
    }
    if (p->rank == 0) {
        outside = time_outside(s->rt);
        if (isfinite(rs))
            rs += fmax(0, outside);
    }
    /* The measured split per level, the root's outside time in its work
     * (unclamped, so that the levels add up to the repetition's time). */
    if (pt->lv_rep && k > 0) {
        sgl_trace_level_t *lv = pt->lv_rep + (size_t)(k - 1) * s->nlev;
        if ((rc = sgl_trace_levels(s->rt, lv, s->nlev)))
            return rc;
        lv[0].work += outside;
    }
    j.what = JOB_FREE;
    if (pt->algo == A_PSRS && (rc = sgl_run(s->rt, job_main, &j, sizeof j)))
        return rc;
    double t1 = NAN, t2 = NAN;
    if (peers)
        peers_once(p, pt, k, workers, &t1, &t2);
    if (k == 0)
        return SGL_OK;
    pt->rep_s[k - 1] = g_time;
    if (peers) {
        pt->peer_rep_s[0][k - 1] = t1;
        pt->peer_rep_s[1][k - 1] = t2;
    }
    pt->replay_rep_s[k - 1] = rs;
    return SGL_OK;
}

/* Rank 0: point @p pt's medians and predictions once its repetitions
 * are done, and its row of the table. */
static void point_finish(const struct sweep *s, const char *config,
                         struct point *pt, sgl_machine_t *const pred_end[2])
{
    int nr = pt->nreps, nrepl = 0;
    double repl[MAX_REPS];
    for (int q = 0; q < nr; q++)
        if (isfinite(pt->replay_rep_s[q]))
            repl[nrepl++] = pt->replay_rep_s[q];
    pt->meas = stats_of(pt->rep_s, nr);
    pt->replay = median_of(repl, nrepl);
    /* The repetition at the median's place (the lower middle for an even
     * count): its levels add up to its time. */
    double best = INFINITY;
    for (int q = 0; pt->lv_rep && q < nr; q++)
        if (fabs(pt->rep_s[q] - pt->meas.med) < best) {
            best = fabs(pt->rep_s[q] - pt->meas.med);
            pt->lv_at = q;
        }
    pt->peer[0] = median_of(pt->peer_rep_s[0], pt->npeer);
    pt->peer[1] = median_of(pt->peer_rep_s[1], pt->npeer);
    sgl_prediction_t r;
    pt->closed = pt->seq_pred = NAN;
    if (s->pred && predict_one(s->pred, pt->algo, (double)pt->n, &r) == SGL_OK) {
        pt->closed = r.total;
        pt->seq_pred = r.sequential;
        if (pt->pred_lv && r.levels == s->nlev)
            memcpy(pt->pred_lv, r.level, s->nlev * sizeof *r.level);
        else if (pt->pred_lv) {
            fprintf(stderr,
                    "  levels: the prediction tree has %u levels, the "
                    "run's %u: no rows\n",
                    r.levels, s->nlev);
            pt->lv_at = -1;
        }
    }
    pt->state_c = pt->nsensed ? median_of(pt->sensed, pt->nsensed) : NAN;
    pt->state_drift = pt->state_c / s->sensor->ref - 1;
    pt->closed_lo = pt->closed_hi = NAN;
    for (int e = 0; e < 2; e++)
        if (pred_end[e] &&
            predict_one(pred_end[e], pt->algo, (double)pt->n, &r) == SGL_OK)
            *(e ? &pt->closed_hi : &pt->closed_lo) = r.total;
    print_point(config, pt);
    fflush(stdout);
}

/* --budget: the sweep in rounds, each one repetition of every point,
 * the sizes in interleaved() order, so that a slow minute of the shared
 * box falls on every size alike rather than on the points that happened
 * to run in it (the held-out fit reads drift between sizes as a change
 * with n). A reduction and a scan at one size share one fill and one
 * warm-up (the scan's, whose output is touched first there); a sort has
 * no warm-up, as each repetition sorts once untimed before it. Rounds
 * go on to @p reps while one more fits in @p budget at the pace of those
 * done, 3 at least (a median and a spread). @p at[a * nsizes + si]: the
 * point of algorithm a at size index si, or -1. Returns the rounds run,
 * or -1 on an error (said). */
static int sweep_lean(const struct sweep *s, struct point *pts, const int *at,
                      const double *sizes, int nsizes, int reps,
                      double budget, size_t workers)
{
    double t_first = bench_now();
    int rc = SGL_OK, r = 0, more = 1;
    while (more) {
        r++;
        for (int oi = 0; oi < nsizes && !rc; oi++) {
            int si = interleaved(oi, nsizes);
            int ar = at[A_REDUCE * nsizes + si], as = at[A_SCAN * nsizes + si];
            int ap = at[A_PSRS * nsizes + si];
            size_t n = (size_t)sizes[si];
            if (ar >= 0 || as >= 0) {
                int a = as >= 0 ? A_SCAN : A_REDUCE;
                rc = data_make(s, n, si, a);
                if (!rc)
                    rc = sweep_rep(s, &pts[as >= 0 ? as : ar], 0, 0, workers);
                if (!rc && ar >= 0)
                    rc = sweep_rep(s, &pts[ar], r, r == 1, workers);
                if (!rc && as >= 0)
                    rc = sweep_rep(s, &pts[as], r, r == 1, workers);
                rc = data_drop(s, a, rc);
            }
            if (!rc && ap >= 0) {
                rc = data_make(s, n, si, A_PSRS);
                rc = data_drop(s, A_PSRS,
                               rc ? rc : sweep_rep(s, &pts[ap], r, r == 1, workers));
            }
            if (rc && s->p->rank == 0)
                fprintf(stderr, "bench_main: n=%zu, round %d: %s\n", n, r,
                        sgl_error_last());
        }
        if (rc)
            return -1;
        double spent = bench_now() - t_first;
        more = r < reps && (r < 3 || spent * (r + 1) / r <= budget);
        /* Rank 0's pace decides for every rank: the rounds are collective. */
        MPI_Bcast(&more, 1, MPI_INT, 0, s->p->comm);
        if (s->p->rank == 0)
            fprintf(stderr,
                    "  round %d: every point once, %.1f s in all; %s\n", r,
                    spent,
                    more ? "one more fits" : "the last");
    }
    return r;
}

/* ---- main ---- */

/* qsort order of points: by algorithm, then size. */
static int point_order(const void *x, const void *y)
{
    const struct point *a = x, *b = y;
    if (a->algo != b->algo)
        return a->algo < b->algo ? -1 : 1;
    return (a->n > b->n) - (a->n < b->n);
}

static int parse_sizes(const char *s, double *out, int max)
{
    int n = 0;
    char *copy = strdup(s), *save = NULL;
    for (char *t = strtok_r(copy, ", ", &save); t && n < max;
         t = strtok_r(NULL, ", ", &save)) {
        char *end;
        double v = strtod(t, &end);
        if (*end || !(v >= 1)) {
            free(copy);
            return -1;
        }
        out[n++] = v;
    }
    free(copy);
    return n;
}

/* --algo-sizes ALGO:LIST: a size list of one algorithm's own, so that a
 * reduction (0.2 ns per element here) can reach 5e7 elements and 5
 * points >= 1 ms while a sort (about 100 ns per element) stops at 1e7.
 * Returns the algorithm's index, its list in @p out[0..*n), or -1. */
static int parse_algo_sizes(const char *s, double *out, int *n)
{
    const char *colon = strchr(s, ':');
    for (int a = 0; colon && a < NALGO; a++)
        if ((size_t)(colon - s) == strlen(algo_names[a]) &&
            !strncmp(s, algo_names[a], (size_t)(colon - s))) {
            *n = parse_sizes(colon + 1, out, MAX_SIZES);
            return *n >= 1 ? a : -1;
        }
    return -1;
}

/* The sizes swept: --sizes for every algorithm without a list of its
 * own, else the sorted union of the lists, use[a][i] saying whether
 * algorithm a runs at sizes[i]. Returns the number of sizes, -1 when the
 * union has more than MAX_SIZES. */
static int plan_sizes(double *sizes, int nsizes, double (*own)[MAX_SIZES],
                      const int *nown, unsigned char (*use)[MAX_SIZES])
{
    int any = 0;
    for (int a = 0; a < NALGO; a++)
        any |= nown[a] > 0;
    double all[NALGO * MAX_SIZES + MAX_SIZES], given[MAX_SIZES];
    int n = 0, ngiven = nsizes;
    memcpy(given, sizes, (size_t)nsizes * sizeof *given);
    for (int a = 0; a < NALGO; a++) {
        const double *l = nown[a] ? own[a] : sizes;
        for (int i = 0; i < (nown[a] ? nown[a] : nsizes); i++)
            all[n++] = l[i];
    }
    if (any) {
        qsort(all, (size_t)n, sizeof *all, bench_cmp_double);
        int u = 0;
        for (int i = 0; i < n; i++)
            if (!u || (size_t)all[i] != (size_t)all[u - 1])
                all[u++] = all[i];
        if (u > MAX_SIZES)
            return -1;
        memcpy(sizes, all, (size_t)u * sizeof *sizes);
        nsizes = u;
    }
    for (int a = 0; a < NALGO; a++)
        for (int i = 0; i < nsizes; i++) {
            const double *l = nown[a] ? own[a] : given;
            use[a][i] = 0;
            for (int k = 0; k < (nown[a] ? nown[a] : ngiven); k++)
                use[a][i] |= (size_t)l[k] == (size_t)sizes[i];
        }
    return nsizes;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bench_main [options]           (alone or under mpiexec)\n"
            "       bench_main --predict FILE [--sizes LIST]\n"
            "  --config NAME      label of this configuration (default: the "
            "shape)\n"
            "  --sizes LIST       element counts, e.g. 1e3,1e4,1e5 (default "
            "1e3..1e7)\n"
            "  --reps R           timed repetitions per point (default 5)\n"
            "  --budget SECONDS   aim the sweep at SECONDS: repetitions in rounds\n"
            "                     over all points (sizes interleaved), no more\n"
            "                     rounds (3 at least) once the pace says the next\n"
            "                     would not fit; points.csv's reps says how many;\n"
            "                     the peers run in the first 3 rounds, the state\n"
            "                     sensor in the first, a sort without warm-up\n"
            "  --algos LIST       subset of reduce,scan,psrs\n"
            "  --algo-sizes ALGO:LIST  ALGO's own element counts (repeatable;\n"
            "                     the others keep --sizes)\n"
            "  --params FILE      machine file with parameters (repeatable; "
            "first wins)\n"
            "  --oversubscribed   flag the configuration as not meaningful "
            "for speed\n"
            "  --csv FILE         append one row per point (RFC 4180, header "
            "if new)\n"
            "  --measurements FILE  append one row per timed repetition and "
            "implementation\n"
            "  --json FILE        write this configuration's points\n"
            "  --levels FILE      append one row per point and level of the "
            "tree: the\n"
            "                     closed form's terms of the level and the "
            "trace's\n"
            "                     measured split (needs --params)\n"
            "  --timeline FILE    write a Perfetto timeline of one run of "
            "each algorithm\n"
            "                     at n = 1e5\n"
            "  --no-header        do not print the table header\n"
            "  --repredict SHAPE  no run: the closed form of each point on\n"
            "                     the tree SHAPE from --params and from\n"
            "                     --params-after (re-measured files, same\n"
            "                     order) into --csv (config, algo,\n"
            "                     n_elements, closed_form_s,\n"
            "                     closed_form_after_s)\n"
            "  --params-after FILE  with --repredict (repeatable)\n"
            "  --params-lo FILE, --params-hi FILE  the low / high ends of\n"
            "                     each --params file's intervals (sgl-probe\n"
            "                     --intervals), same order: the closed\n"
            "                     form's interval, closed_form_lo_s/_hi_s\n");
}

int main(int argc, char **argv)
{
    const char *config = NULL, *csv = NULL, *json = NULL, *predict = NULL;
    const char *meas_csv = NULL;
    const char *timeline = NULL, *repredict_shape = NULL, *levels = NULL;
    const char *param_paths[MAX_PARAMS], *after_paths[MAX_PARAMS];
    const char *lo_paths[MAX_PARAMS], *hi_paths[MAX_PARAMS];
    int nafter = 0, nlo = 0, nhi = 0;
    int nparams = 0, reps = 5, over = 0, header = 1;
    double budget = 0;
    int want[NALGO] = {1, 1, 1};
    double sizes[MAX_SIZES] = {1e3, 1e4, 1e5, 1e6, 1e7};
    int nsizes = 5;
    double own[NALGO][MAX_SIZES];
    int nown[NALGO] = {0};
    unsigned char use[NALGO][MAX_SIZES];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--oversubscribed")) {
            over = 1;
        } else if (!strcmp(a, "--no-header")) {
            header = 0;
        } else if (more && !strcmp(a, "--config")) {
            config = argv[++i];
        } else if (more && !strcmp(a, "--csv")) {
            csv = argv[++i];
        } else if (more && !strcmp(a, "--measurements")) {
            meas_csv = argv[++i];
        } else if (more && !strcmp(a, "--json")) {
            json = argv[++i];
        } else if (more && !strcmp(a, "--levels")) {
            levels = argv[++i];
        } else if (more && !strcmp(a, "--timeline")) {
            timeline = argv[++i];
        } else if (more && !strcmp(a, "--predict")) {
            predict = argv[++i];
        } else if (more && !strcmp(a, "--repredict")) {
            repredict_shape = argv[++i];
        } else if (more && (!strcmp(a, "--params-lo") ||
                            !strcmp(a, "--params-hi"))) {
            int hi = a[9] == 'h';
            if ((hi ? nhi : nlo) == MAX_PARAMS) {
                fprintf(stderr, "bench_main: too many %s\n", a);
                return 2;
            }
            (hi ? hi_paths : lo_paths)[hi ? nhi++ : nlo++] = argv[++i];
        } else if (more && !strcmp(a, "--params-after")) {
            if (nafter == MAX_PARAMS) {
                fprintf(stderr, "bench_main: too many --params-after\n");
                return 2;
            }
            after_paths[nafter++] = argv[++i];
        } else if (more && !strcmp(a, "--params")) {
            if (nparams == MAX_PARAMS) {
                fprintf(stderr, "bench_main: too many --params\n");
                return 2;
            }
            param_paths[nparams++] = argv[++i];
        } else if (more && !strcmp(a, "--reps")) {
            reps = atoi(argv[++i]);
            if (reps < 1 || reps > MAX_REPS - 1) {
                fprintf(stderr, "bench_main: --reps 1..%d\n", MAX_REPS - 1);
                return 2;
            }
        } else if (more && !strcmp(a, "--sizes")) {
            nsizes = parse_sizes(argv[++i], sizes, MAX_SIZES);
            if (nsizes < 1) {
                fprintf(stderr, "bench_main: bad --sizes '%s'\n", argv[i]);
                return 2;
            }
        } else if (more && !strcmp(a, "--budget")) {
            char *end;
            budget = strtod(argv[++i], &end);
            if (*end || !(budget >= 1 && budget <= 86400)) {
                fprintf(stderr, "bench_main: --budget needs seconds from 1 "
                                "to 86400, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (more && !strcmp(a, "--algo-sizes")) {
            double l[MAX_SIZES];
            int n = 0, k = parse_algo_sizes(argv[++i], l, &n);
            if (k < 0) {
                fprintf(stderr, "bench_main: bad --algo-sizes '%s' (ALGO:LIST, "
                                "e.g. psrs:1e3,1e4)\n", argv[i]);
                return 2;
            }
            memcpy(own[k], l, (size_t)n * sizeof *l);
            nown[k] = n;
        } else if (more && !strcmp(a, "--algos")) {
            const char *s = argv[++i];
            for (int k = 0; k < NALGO; k++)
                want[k] = strstr(s, algo_names[k]) != NULL;
        } else {
            usage(stderr);
            return 2;
        }
    }
    nsizes = plan_sizes(sizes, nsizes, own, nown, use);
    if (nsizes < 0) {
        fprintf(stderr, "bench_main: more than %d sizes in --sizes and "
                        "--algo-sizes together\n", MAX_SIZES);
        return 2;
    }
    if (predict)
        return predict_file(predict, sizes, nsizes);
    if (repredict_shape) {
        if (!csv) {
            fprintf(stderr, "bench_main: --repredict needs --csv FILE\n");
            return 2;
        }
        return repredict(repredict_shape, config ? config : repredict_shape,
                         param_paths, nparams, after_paths, nafter, want,
                         sizes, nsizes, (const unsigned char (*)[MAX_SIZES])use,
                         csv);
    }
    if (nafter) {
        fprintf(stderr, "bench_main: --params-after needs --repredict\n");
        return 2;
    }
    if (levels && !nparams) {
        fprintf(stderr, "bench_main: --levels needs --params FILE: the "
                        "closed form's terms per level come from it\n");
        return 2;
    }
    if (nlo != nhi || (nlo && nlo != nparams)) {
        fprintf(stderr, "bench_main: --params-lo and --params-hi go with "
                        "--params, one each per file in the same order\n");
        return 2;
    }

    /* The command as given, for the JSON: an MPI may take its own
     * arguments out of argv in sgl_init. */
    char **argv0 = malloc((size_t)argc * sizeof *argv0);
    if (!argv0) {
        fprintf(stderr, "bench_main: out of memory\n");
        return 1;
    }
    memcpy(argv0, argv, (size_t)argc * sizeof *argv0);
    struct run_info ri = {.argc = argc,
                          .argv = argv0,
                          .reps = reps,
                          .over = over,
                          .started = time(NULL)};

    bench_default_env();
    sgl_runtime_t *rt;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc)
        rc = sgl_algorithms_register(rt);
    if (rc) {
        fprintf(stderr, "bench_main: %s\n", sgl_error_last());
        return 1;
    }
    bench_warn(rt, "bench_main");
    const sgl_machine_t *rm = sgl_runtime_machine(rt);
    struct peers p = {0};
    MPI_Comm_dup(MPI_COMM_WORLD, &p.comm);
    MPI_Comm_size(p.comm, &p.ranks);
    MPI_Comm_rank(p.comm, &p.rank);
    size_t workers = sgl_machine_workers(rm);
    p.threads = (int)(workers / (size_t)p.ranks);
    if (p.threads < 1)
        p.threads = 1;
    omp_set_num_threads(p.threads);
    /* A tree no shape string rebuilds ("package:2 core:[1,2]": the first
     * package's single core collapses, the leaves end at two depths) has
     * no sgl_machine_shape(); its source names what built it, "shape:
     * package:2 core:[1,2]" or "discovered": the shape column keeps the
     * shape itself. */
    const char *shape = sgl_machine_shape(rm);
    if (!shape) {
        shape = sgl_machine_source(rm);
        if (!strncmp(shape, "shape: ", 7))
            shape += 7;
    }
    if (!config)
        config = shape;

    /* Entries of a per-level split: the tree's levels and its workers. */
    unsigned nlev = sgl_machine_depth(rm) + 1;
    /* The prediction tree (every rank builds it: replay is collective). */
    sgl_machine_t *files[MAX_PARAMS] = {0}, *pred = NULL;
    char how[1024] = "";
    int status = 0;
    for (int f = 0; f < nparams && !status; f++)
        if (sgl_machine_load(param_paths[f], &files[f])) {
            fprintf(stderr, "bench_main: %s\n", sgl_error_last());
            status = 1;
        }
    const char *pshape =
        sgl_machine_shape(rm) ? sgl_machine_shape(rm) : "core:1";
    if (!status && nparams &&
        build_pred(pshape, files, nparams, &pred, how, sizeof how)) {
        if (p.rank == 0)
            fprintf(stderr, "bench_main: no prediction: %s\n",
                    sgl_error_last());
        pred = NULL;
    }
    /* The interval's ends, mapped as the parameters were. */
    sgl_machine_t *pred_end[2] = {NULL, NULL};
    for (int e = 0; e < 2 && !status && pred && nlo; e++) {
        sgl_machine_t *ef[MAX_PARAMS] = {0};
        char how2[1024];
        for (int f = 0; f < nparams && !status; f++)
            if (sgl_machine_load(e ? hi_paths[f] : lo_paths[f], &ef[f])) {
                fprintf(stderr, "bench_main: %s\n", sgl_error_last());
                status = 1;
            }
        if (!status &&
            build_pred(pshape, ef, nparams, &pred_end[e], how2, sizeof how2)) {
            fprintf(stderr, "bench_main: no prediction interval: %s\n",
                    sgl_error_last());
            status = 1;
        }
        for (int f = 0; f < nparams; f++)
            sgl_machine_free(ef[f]);
    }
    /* The machine's state before each timed repetition, against the
     * prices (bench/state_sensor.h). */
    struct state_sensor sensor = {0};
    double most = 0;
    for (int si = 0; si < nsizes; si++)
        most = fmax(most, sizes[si]);
    if (!status && state_sensor_open(&sensor, rt, pred,
                                     (size_t)(most / (double)workers),
                                     p.threads, p.comm) &&
        p.rank == 0)
        fprintf(stderr, "bench_main: no state sensor: %s\n", sgl_error_last());
    if (p.rank == 0) {
        fprintf(stderr,
                "bench_main: config %s: tree %s, %zu workers, %d ranks x %d "
                "threads%s\n",
                config, shape, workers, p.ranks, p.threads,
                over ? " (oversubscribed: not meaningful for speed)" : "");
        if (pred)
            fprintf(stderr, "  prediction tree %s: %s\n",
                    sgl_machine_shape(pred), how);
        if (header)
            print_header();
    }

    struct point *pts = calloc((size_t)(NALGO * nsizes), sizeof *pts);
    int *at = malloc((size_t)(NALGO * nsizes) * sizeof *at);
    int npts = 0;
    struct sweep sw = {rt, &p, &sensor, pred, nlev, budget > 0};
    if (!pts || !at) {
        fprintf(stderr, "bench_main: out of memory\n");
        status = 1;
    }
    /* Progress: a point's time grows about as its n above 1e5 and is
     * mostly fixed costs below, so the ETA weighs the points left by
     * max(n, 1e5), not by their number. */
    int nsteps = 0, step = 0;
    double work_all = 0, work_done = 0, t_first = bench_now();
    for (int a = 0; a < NALGO && !status; a++)
        for (int si = 0; si < nsizes; si++) {
            int on = want[a] && (size_t)sizes[si] >= workers && use[a][si];
            at[a * nsizes + si] = on ? nsteps : -1;
            if (!on)
                continue;
            nsteps++;
            work_all += fmax(sizes[si], 1e5);
            if (sw.lean && point_start(&pts[npts++], a, (size_t)sizes[si],
                                       reps, nlev, levels && pred)) {
                fprintf(stderr, "bench_main: out of memory\n");
                status = 1;
            }
        }
    if (sw.lean && !status) {
        int nr = sweep_lean(&sw, pts, at, sizes, nsizes, reps, budget,
                            workers);
        status = nr < 0;
        for (int i = 0; i < npts && !status; i++) {
            pts[i].nreps = nr;
            pts[i].npeer = nr > PEER_REPS ? PEER_REPS : nr;
            if (p.rank == 0)
                point_finish(&sw, config, &pts[i], pred_end);
        }
    }
    for (int a = 0; a < NALGO && !status && !sw.lean; a++) {
        for (int oi = 0; oi < nsizes && !status; oi++) {
            int si = interleaved(oi, nsizes);
            size_t n = (size_t)sizes[si];
            if (at[a * nsizes + si] < 0)
                continue;
            double t0pt = bench_now();
            struct point *pt = &pts[npts];
            int nr = reps;
            if (point_start(pt, a, n, reps, nlev, levels && pred)) {
                fprintf(stderr, "bench_main: out of memory\n");
                status = 1;
                break;
            }
            pt->nreps = pt->npeer = nr;
            rc = data_make(&sw, n, si, a);
            /* Rep 0 is the warm-up. */
            for (int k = 0; k <= nr && !rc; k++)
                rc = sweep_rep(&sw, pt, k, k == 0, workers);
            if ((rc = data_drop(&sw, a, rc))) {
                if (p.rank == 0)
                    fprintf(stderr, "bench_main: %s n=%zu: %s\n",
                            algo_names[a], n, sgl_error_last());
                status = 1;
                break;
            }
            if (p.rank == 0) {
                point_finish(&sw, config, pt, pred_end);
                step++;
                work_done += fmax((double)n, 1e5);
                char state[48] = "";
                if (isfinite(pt->state_drift))
                    snprintf(state, sizeof state,
                             ", c(sum) %+.0f%% of its price",
                             100 * pt->state_drift);
                fprintf(stderr,
                        "  %s: step %d of %d: %s n=%zu: %.3f ms median%s, "
                        "%.1f s; ETA %.0f s\n",
                        config, step, nsteps, algo_names[a], n,
                        pt->meas.med * 1e3, state, bench_now() - t0pt,
                        (bench_now() - t_first) * (work_all - work_done) /
                            work_done);
            }
            npts++;
        }
    }
    free(at);
    /* The files list each algorithm's points by size, whatever the order
     * they ran in. */
    if (p.rank == 0)
        qsort(pts, (size_t)npts, sizeof *pts, point_order);
    if (p.rank == 0 && !status) {
        ri.config = config;
        ri.shape = shape;
        ri.how = how;
        ri.workers = workers;
        ri.ranks = p.ranks;
        ri.threads = p.threads;
        if ((csv && write_points(csv, &ri, pts, npts)) ||
            (levels && write_levels(levels, &ri, rm, pts, npts)) ||
            (meas_csv && write_measurements(meas_csv, &ri, pts, npts)))
            status = 1;
        if (json && write_json(json, &ri, pts, npts)) {
            fprintf(stderr, "bench_main: cannot write %s\n", json);
            status = 1;
        }
    }
    /* Every rank learns whether the sweep went through: the timeline's
     * runs are collective. */
    MPI_Bcast(&status, 1, MPI_INT, 0, p.comm);
    if (timeline && !status &&
        (rc = write_timeline(rt, timeline, want, workers)) != SGL_OK) {
        if (p.rank == 0)
            fprintf(stderr, "bench_main: timeline %s: %s\n", timeline,
                    sgl_error_last());
        status = 1;
    }
    for (int i = 0; pts && i < NALGO * nsizes; i++) {
        free(pts[i].rep_s); /* also a point left half-done by an error */
        free(pts[i].pred_lv);
        free(pts[i].lv_rep);
    }
    free(pts);
    free(argv0);
    state_sensor_close(&sensor, rt);
    bench_flush_free();
    for (int f = 0; f < nparams; f++)
        sgl_machine_free(files[f]);
    sgl_machine_free(pred);
    sgl_machine_free(pred_end[0]);
    sgl_machine_free(pred_end[1]);
    MPI_Comm_free(&p.comm);
    sgl_finalize(rt);
    return status;
}
