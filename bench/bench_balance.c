/* Balance by measured speed on real heterogeneity: one rank under a CPU
 * quota (the cgroup cpu controller), the others at full speed, in one run:
 *
 *   full     every rank at full speed, even split: the work's time T
 *   even     the slow rank in its cgroup, even split (SGL_BALANCE_WORKERS)
 *   weighted the same, split by the per-worker c of the machine file
 *            (sgl-probe --per-worker under the same quota) through
 *            sgl_runtime_set_params() and SGL_BALANCE_SPEED, of the
 *            kernel at hand (sgl_runtime_set_balance_kernel(): sum for
 *            the reduction, sort for PSRS)
 *   measured the same, split by the c that the library fits from this
 *            run's trace (sgl_runtime_refit_kernel(): each worker's time
 *            to deliver its declared work) under the quota: before the
 *            timed rounds from CALIB even runs and then REFINE rounds of
 *            CALIB runs at the split so far (every kernel's per-worker c
 *            of the machine file set in their proportion); after each of
 *            its timed runs from that run, priced over the range of its
 *            last WINDOW fits: what a program gets that feeds its own
 *            trace back, free of the probe's conditions, following the
 *            machine as it changes
 *   light    the same, the slow rank priced 1.5x as slow as measured:
 *            it finishes first, with every other worker running
 *            throughout (not judged; for the ideal)
 *   ideal    total work / total speed, per round: each worker's speed its
 *            elements over the time its reply was in (the trace's
 *            child_done) summed over the three splits by speed (weighted,
 *            measured, light), where every worker runs until (nearly) the
 *            end, as in a split where all finish together; a split's
 *            ideal is its own time with its slowest reply brought to the
 *            ideal one. A rank under a quota is throttled on either side
 *            of its task too, paying for the CPU its task used, so its
 *            task time alone overstates its speed; the ideal by task
 *            times, this benchmark's before the trace had the replies, is
 *            printed as "/ tasks'" (docs/model.md, "Balance by measured speed")
 *
 * for a reduction (sgl_dvec_reduce, sum of doubles; REDUCE_BATCH of them
 * back to back per timed run, about 100 ms: one takes some 25 ms, a dozen
 * quota periods, and where the periods fall moved single runs by 10-20%)
 * and PSRS (sgl_dvec_sort), medians of --reps runs (the modes alternate
 * in every round). Every ratio is taken within a round and its median
 * printed: this VM's two-worker state can flip between rounds, and a
 * ratio of medians would set a time of one state against an ideal of
 * the other. The slow rank moves itself between the cgroup and its parent
 * (writing its pid into cgroup.procs), so all the modes share one set
 * of processes and one run. Results are checked: every mode's sum agrees,
 * every sort is sorted. Table on stdout, progress on stderr.
 *
 * Usage (bench/balance.sh sets it up): mpiexec -n P bench_balance
 *   --cgroup DIR --machine FILE [--slow-rank R] [--reps K] [--quick] */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sgl/algorithms.h>
#include <sgl/balance.h>
#include <sgl/trace.h>

#include "bench_env.h"
#include "timing.h"

enum { ALG_REDUCE, ALG_SORT, NALG };
enum { REDUCE_BATCH = 4 };
enum { M_FULL, M_EVEN, M_WEIGHTED, M_MEASURED, M_LIGHT, NMODE };
enum { CALIB = 3, REFINE = 5 };
/* Fits the measured split is priced over (sgl_runtime_refit_kernel()). */
enum { WINDOW = 3 };
/* How much slower than measured the light split prices the slow rank. */
#define LIGHT 1.5
static const char *const mode_names[NMODE] = {
    "full speed, even", "quota, even", "quota, probe weights",
    "quota, measured weights", "quota, slow rank light"};
static const char *const alg_names[NALG] = {"reduce f64 x4", "PSRS f64"};
/* The kernel at hand: the probe's per-worker c that split its vector. */
static const char *const kernel_names[NALG] = {"sum", "sort"};
#define MAX_REPS 31

struct opts {
    const char *cgroup, *machine;
    int slow_rank, reps, quick;
};

/* Move this process into @dir's cgroup (its pid into cgroup.procs). */
static int join_cgroup(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/cgroup.procs", dir);
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f) != 0) {
        fprintf(stderr, "bench_balance: cannot write %s: %s\n", path,
                strerror(errno));
        return -1;
    }
    return 0;
}

/* The slow rank goes into the cgroup (@in) or back to its parent. All
 * ranks agree on the outcome. */
static int set_quota(const struct opts *o, int rank, int in)
{
    int bad = 0;
    if (rank == o->slow_rank) {
        char parent[4096];
        snprintf(parent, sizeof parent, "%s", o->cgroup);
        char *slash = strrchr(parent, '/');
        if (slash && slash != parent)
            *slash = '\0';
        bad = join_cgroup(in ? o->cgroup : parent) != 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return bad;
}

struct job {
    int alg;
    size_t n;
    uint64_t seed;
};

/* Per run, at the root: the time of the algorithm's call, its result
 * check, and each worker's share of the vector as created (the layout by
 * the workers' weights: sgl_dvec_counts()). */
static double g_time, g_sum;
static int g_sorted;
static size_t g_counts[64];
static double g_task[64], g_done[64];
static sgl_runtime_t *g_rt;

static void read_rates(sgl_runtime_t *rt, const size_t *counts, size_t p);

static int job_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    sgl_dvec_t *v = NULL;
    uint64_t seed = j->seed;
    int rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_RANDOM, &seed,
                             sizeof seed, &v);
    if (rc)
        return rc;
    memcpy(g_counts, sgl_dvec_counts(v),
           sgl_ctx_workers(root) * sizeof *g_counts);
    double t0 = bench_now();
    if (j->alg == ALG_REDUCE)
        for (int b = 0; !rc && b < REDUCE_BATCH; b++)
            rc = sgl_dvec_reduce(root, v, SGL_OP_SUM, 0, &g_sum);
    else
        rc = sgl_dvec_sort(root, v, NULL);
    g_time = bench_now() - t0;
    read_rates(g_rt, g_counts, sgl_ctx_workers(root));
    if (!rc && j->alg == ALG_SORT) {
        double *x = malloc(j->n * sizeof *x);
        rc = x ? sgl_dvec_gather(root, v, x, j->n) : SGL_ENOMEM;
        g_sorted = !rc;
        for (size_t i = 1; !rc && i < j->n; i++)
            if (x[i - 1] > x[i])
                g_sorted = 0;
        free(x);
    }
    int r2 = sgl_dvec_free(root, v);
    return rc ? rc : r2;
}

/* Each worker's seconds per element of its share, from rank 0's trace of
 * this run (a flat tree's root has the workers as children), into g_task
 * (its task time) and g_done (its time to deliver,
 * sgl_trace_step_delivered(): under a CPU quota the rank is also
 * throttled on either side of its task, for the CPU its task used), per
 * pass: averaged over the root
 * supersteps in which work was declared (the batch's reductions, PSRS's
 * local sort), the steps that sgl_runtime_refit_kernel() reads. */
static void read_rates(sgl_runtime_t *rt, const size_t *counts, size_t p)
{
    sgl_trace_step_t st;
    int passes = 0;
    for (size_t w = 0; w < p; w++)
        g_task[w] = g_done[w] = 0;
    for (size_t q = 0; q < sgl_trace_steps(rt); q++) {
        if (sgl_trace_step(rt, q, &st) != SGL_OK || st.level != 0 ||
            st.children != p)
            continue;
        double work = 0;
        for (size_t w = 0; w < p; w++)
            work += st.child_work[w];
        if (!(work > 0))
            continue;
        passes++;
        for (size_t w = 0; w < p; w++) {
            double n = counts[w] ? (double)counts[w] : NAN;
            g_task[w] += st.child_time[w] / n;
            double d = NAN;
            sgl_trace_step_delivered(rt, &st, (unsigned)w, &d);
            g_done[w] += d / n;
        }
    }
    for (size_t w = 0; w < p; w++) {
        g_task[w] = passes ? g_task[w] / passes : NAN;
        g_done[w] = passes ? g_done[w] / passes : NAN;
    }
}

/* The probe's machine file with every kernel's per-worker c set in
 * proportion to @rate (each worker's seconds per element, fitted from
 * this run's trace), so that the split by speed follows the speeds this
 * run measured. NULL on failure (a message set). */
static sgl_machine_t *measured_params(const char *file, const double *rate,
                                      size_t p)
{
    sgl_machine_t *m = NULL;
    if (sgl_machine_load(file, &m))
        return NULL;
    size_t fast = 0;
    for (size_t w = 1; w < p; w++)
        if (rate[w] < rate[fast])
            fast = w;
    for (size_t k = 0; k < sgl_machine_kernels(m); k++) {
        const char *name = sgl_machine_kernel_name(m, k);
        double c = sgl_node_kernel(sgl_machine_worker(m, fast), name);
        for (size_t w = 0; !isnan(c) && w < p; w++)
            if (sgl_machine_set_worker_kernel(m, w, name,
                                              c * rate[w] / rate[fast])) {
                sgl_machine_free(m);
                return NULL;
            }
    }
    return m;
}

/* The measured and the light splits' machine files from @cal, the c the
 * library fitted (sgl_runtime_refit_kernel()). */
static int measured_files(const struct opts *o, const double *cal, size_t p,
                          sgl_machine_t **measured, sgl_machine_t **light)
{
    double slower[64];
    for (size_t w = 0; w < p; w++)
        slower[w] = cal[w] * ((int)w == o->slow_rank ? LIGHT : 1);
    sgl_machine_free(*measured);
    sgl_machine_free(*light);
    *measured = measured_params(o->machine, cal, p);
    *light = measured_params(o->machine, slower, p);
    return *measured && *light ? SGL_OK : SGL_EINVAL;
}

/* Every timed run, at rank 0: the algorithm's time, each worker's share
 * and seconds per element (from the trace: its task, its reply), the
 * reduction's result. */
enum { TASK, DONE, NKIND };
struct runs {
    double t[NALG][NMODE][MAX_REPS];
    double share[NALG][NMODE][MAX_REPS][64];
    double rate[NKIND][NALG][NMODE][MAX_REPS][64];
    double sum[NALG][NMODE];
};

/* Worker @w's task time (@kind TASK) or the time its reply was in (DONE)
 * in run (@a, @mode, @q) (for the reductions: one pass of the batch). */
static double took(const struct runs *r, int kind, int a, int mode, int q,
                   size_t w)
{
    return r->rate[kind][a][mode][q][w] * r->share[a][mode][q][w];
}

/* The splits by speed: every worker runs until (nearly) the end. */
static const int by_speed[] = {M_WEIGHTED, M_MEASURED, M_LIGHT};
enum { NBY_SPEED = sizeof by_speed / sizeof *by_speed };

/* Worker @w's speed in round @q's splits by speed, elements per second:
 * its elements over its times (@kind), summed over the three. */
static double speed(const struct runs *r, int kind, int a, int q, size_t w)
{
    double n = 0, t = 0;
    for (int k = 0; k < NBY_SPEED; k++) {
        n += r->share[a][by_speed[k]][q][w];
        t += took(r, kind, a, by_speed[k], q, w);
    }
    return n / t;
}

/* Round @q's ideal time of a worker's part: total work over total speed. */
static double balanced(const struct runs *r, int kind, int a, int q,
                       size_t p, size_t total)
{
    double s = 0;
    for (size_t w = 0; w < p; w++)
        s += speed(r, kind, a, q, w);
    return (double)total / s;
}

/* The longest time (@kind) of a worker in run (@a, @mode, @q). */
static double slowest(const struct runs *r, int kind, int a, int mode,
                      int q, size_t p)
{
    double m = 0;
    for (size_t w = 0; w < p; w++)
        m = fmax(m, took(r, kind, a, mode, q, w));
    return m;
}

/* Run (@a, @mode, @q)'s ideal: its time with its slowest worker's time
 * (@kind) shortened to the balanced one, every phase taken to shrink as
 * the work did. */
static double ideal(const struct runs *r, int kind, int a, int mode, int q,
                    size_t p, size_t total)
{
    return r->t[a][mode][q] * balanced(r, kind, a, q, p, total) /
           slowest(r, kind, a, mode, q, p);
}

/* "median (min-max)" of @v[0..n) into @buf; sorts @v. */
static const char *spread(char *buf, size_t size, double *v, int n,
                          double scale, const char *fmt)
{
    double med = bench_median(v, n);
    char a[32], b[32], c[32];
    snprintf(a, sizeof a, fmt, scale * med);
    snprintf(b, sizeof b, fmt, scale * v[0]);
    snprintf(c, sizeof c, fmt, scale * v[n - 1]);
    snprintf(buf, size, "%s (%s-%s)", a, b, c);
    return buf;
}

/* Each worker's median time (@kind) in @mode's runs [ms] (for the
 * reductions: one pass of the batch): whether the split let them finish
 * together. */
static void print_times(const struct runs *r, int kind, int a, int mode,
                        size_t p, int reps)
{
    for (size_t w = 0; w < p; w++) {
        double v[MAX_REPS];
        for (int q = 0; q < reps; q++)
            v[q] = took(r, kind, a, mode, q, w);
        printf("%s%.1f", w ? ", " : "", 1e3 * bench_median(v, reps));
    }
}

/* Algorithm @a's table: per split its time, its ideal (ideal()), time /
 * ideal, the gain over the even split, time over the ideal that task
 * times give (this benchmark's ideal before the trace had the replies),
 * each a median over the rounds of the ratio within the round, and each
 * worker's reply and task time; then the ideal time of a worker's part
 * and the speeds it came from. */
static void report(const struct runs *r, int a, size_t p, int reps,
                   size_t total)
{
    printf("\n%s\n%-24s %22s %10s %20s %20s %9s  %s\n", alg_names[a],
           "split", "time [ms] (min-max)", "ideal [ms]", "/ ideal",
           "even / this", "/ tasks'",
           "replies; tasks [ms] (worker 0, 1, ...)");
    for (int k = 0; k < NMODE; k++) {
        double tv[MAX_REPS], x[MAX_REPS], y[MAX_REPS], u[MAX_REPS],
            idv[MAX_REPS];
        for (int q = 0; q < reps; q++) {
            tv[q] = r->t[a][k][q];
            idv[q] = ideal(r, DONE, a, k, q, p, total);
            x[q] = r->t[a][k][q] / idv[q];
            y[q] = r->t[a][M_EVEN][q] / r->t[a][k][q];
            u[q] = r->t[a][k][q] / ideal(r, TASK, a, k, q, p, total);
        }
        char b0[128], b1[128], b2[128];
        printf("%-24s %22s", mode_names[k],
               spread(b0, sizeof b0, tv, reps, 1e3, "%.1f"));
        if (k == M_FULL)
            printf(" %10s %20s %20s %9s  ", "", "", "", "");
        else
            printf(" %10.1f %20s %20s %9.3f  ", 1e3 * bench_median(idv, reps),
                   spread(b1, sizeof b1, x, reps, 1, "%.3f"),
                   spread(b2, sizeof b2, y, reps, 1, "%.3f"),
                   bench_median(u, reps));
        print_times(r, DONE, a, k, p, reps);
        printf("; ");
        print_times(r, TASK, a, k, p, reps);
        printf("\n");
    }
    double bal[MAX_REPS];
    for (int q = 0; q < reps; q++)
        bal[q] = balanced(r, DONE, a, q, p, total);
    printf("ideal part %.1f ms; speeds under the quota over full speed, by "
           "replies (worker 0, 1, ...): splits by speed ",
           1e3 * bench_median(bal, reps));
    for (size_t w = 0; w < p; w++) {
        double v[MAX_REPS];
        for (int q = 0; q < reps; q++)
            v[q] = r->rate[DONE][a][M_FULL][q][w] * speed(r, DONE, a, q, w);
        printf("%s%.2f", w ? ", " : "", bench_median(v, reps));
    }
    printf("; even split ");
    for (size_t w = 0; w < p; w++) {
        double v[MAX_REPS];
        for (int q = 0; q < reps; q++)
            v[q] = r->rate[DONE][a][M_FULL][q][w] /
                   r->rate[DONE][a][M_EVEN][q][w];
        printf("%s%.2f", w ? ", " : "", bench_median(v, reps));
    }
    printf("\n");
}

static void usage(FILE *f)
{
    fputs("usage: mpiexec -n P bench_balance --cgroup DIR --machine FILE "
          "[--slow-rank R] [--reps K] [--quick]\n"
          "  DIR: a cgroup with a CPU quota (cgroup v1 cpu controller or v2);\n"
          "  FILE: a machine file from sgl-probe --per-worker run under the\n"
          "  same quota (bench/balance.sh does both).\n",
          f);
}

static int parse(int argc, char **argv, struct opts *o)
{
    static const struct option lo[] = {
        {"cgroup", required_argument, NULL, 'c'},
        {"machine", required_argument, NULL, 'm'},
        {"slow-rank", required_argument, NULL, 's'},
        {"reps", required_argument, NULL, 'r'},
        {"quick", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int c;
    char *end;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (c) {
        case 'c': o->cgroup = optarg; break;
        case 'm': o->machine = optarg; break;
        case 's':
        case 'r': {
            long v = strtol(optarg, &end, 10);
            if (*end || v < (c == 's' ? 0 : 1) || v > MAX_REPS) {
                fprintf(stderr, "bench_balance: bad --%s '%s'\n",
                        c == 's' ? "slow-rank" : "reps", optarg);
                return 2;
            }
            *(c == 's' ? &o->slow_rank : &o->reps) = (int)v;
            break;
        }
        case 'q': o->quick = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!o->cgroup || !o->machine || optind < argc) {
        usage(stderr);
        return 2;
    }
    return -1;
}

int main(int argc, char **argv)
{
    struct opts o = {NULL, NULL, -1, 7, 0};
    int st = parse(argc, argv, &o);
    if (st >= 0)
        return st;
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt) || sgl_algorithms_register(rt) ||
        sgl_task_register(rt, job_main, "bench.balance")) {
        fprintf(stderr, "bench_balance: %s\n", sgl_error_last());
        return 1;
    }
    g_rt = rt;
    bench_warn(rt, "bench_balance");
    int rank = sgl_runtime_rank(rt), nranks;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (o.slow_rank < 0)
        o.slow_rank = nranks - 1;
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    size_t p = sgl_machine_workers(m);
    sgl_machine_t *params = NULL;
    int rc = sgl_machine_load(o.machine, &params);
    if (rc || p > 64 || p != (size_t)nranks || sgl_machine_depth(m) != 1 ||
        o.slow_rank >= nranks) {
        if (rank == 0)
            fprintf(stderr, "bench_balance: %s\n",
                    rc ? sgl_error_last()
                       : "needs a flat tree of at most 64 ranks (rank:P) "
                         "and a slow rank among them");
        sgl_finalize(rt);
        return 1;
    }
    const size_t n[NALG] = {o.quick ? 2000000 : 100000000,
                            o.quick ? 1000000 : 10000000};
    /* Calibration for the measured weights, under the quota, per
     * algorithm: the library fits c from the trace of CALIB even runs
     * (every process gets the same c); then REFINE rounds of CALIB runs
     * split by the c so far, each fit taking the rates that split gave
     * (a window of one fit: the split moved). A memory-bound task's
     * rates depend on the split itself (docs/model.md, "Balance by measured
     * speed"): the even split's rates overshoot (the slow rank's sum at
     * 2.3x the fast one's seconds per element against about 3.2x at the
     * balanced split, in one traced run), and this loop's fixed point is
     * the split whose own rates give it back, where the workers finish
     * together. Rounds that moved only halfway from that far start ended
     * short of it (3.0x after three), and the halfway moves of the timed
     * runs then left the slow rank last in 9 of 10 runs. */
    sgl_machine_t *measured[NALG] = {NULL, NULL}, *light[NALG] = {NULL, NULL};
    double cal[NALG][64];
    rc = set_quota(&o, rank, 1) ? SGL_EIO : SGL_OK;
    for (int a = 0; !rc && a < NALG; a++) {
        for (int it = 0; !rc && it <= REFINE; it++) {
            rc = sgl_runtime_set_balance(rt, it ? SGL_BALANCE_SPEED
                                                : SGL_BALANCE_WORKERS);
            if (!rc && it)
                rc = sgl_runtime_set_params(rt, measured[a]);
            sgl_trace_clear(rt);
            for (int c = 0; !rc && c < CALIB; c++) {
                struct job j = {a, n[a], 101 + (uint64_t)(it * CALIB + c)};
                rc = sgl_run(rt, job_main, &j, sizeof j);
            }
            if (!rc)
                rc = sgl_runtime_refit_kernel(rt, kernel_names[a], 1, cal[a]);
            if (!rc)
                rc = measured_files(&o, cal[a], p, &measured[a], &light[a]);
        }
    }
    static struct runs r;
    int sorted_all = 1, steps = NALG * NMODE * o.reps, step = 0;
    double t_start = bench_now();
    for (int q = 0; !rc && q < o.reps; q++)
        for (int k = 0; !rc && k < NMODE; k++) {
            /* Alternate the order of the modes in every round. */
            int mode = q % 2 ? NMODE - 1 - k : k;
            int even = mode == M_FULL || mode == M_EVEN;
            rc = set_quota(&o, rank, mode != M_FULL) ? SGL_EIO : SGL_OK;
            if (!rc)
                rc = sgl_runtime_set_balance(
                    rt, even ? SGL_BALANCE_WORKERS : SGL_BALANCE_SPEED);
            for (int a = 0; !rc && a < NALG; a++) {
                rc = sgl_runtime_set_balance_kernel(rt, kernel_names[a]);
                if (!rc && !even)
                    rc = sgl_runtime_set_params(
                        rt, mode == M_WEIGHTED   ? params
                            : mode == M_MEASURED ? measured[a]
                                                 : light[a]);
                if (rc)
                    break;
                if (rank == 0 && step > 0)
                    fprintf(stderr, "\rbench_balance: step %d of %d, ETA "
                                    "%.0f s   ",
                            step + 1, steps,
                            bench_eta(bench_now() - t_start, step, steps));
                step++;
                struct job j = {a, n[a], 11 + (uint64_t)q};
                sgl_trace_clear(rt);
                rc = sgl_run(rt, job_main, &j, sizeof j);
                double *rate = r.rate[DONE][a][mode][q];
                if (!rc && rank == 0) {
                    r.t[a][mode][q] = g_time;
                    r.sum[a][mode] = g_sum;
                    sorted_all &= a != ALG_SORT || g_sorted;
                    memcpy(rate, g_done, p * sizeof *g_done);
                    memcpy(r.rate[TASK][a][mode][q], g_task,
                           p * sizeof *g_task);
                    for (size_t w = 0; w < p; w++)
                        r.share[a][mode][q][w] = (double)g_counts[w];
                }
                if (!rc && mode == M_MEASURED) {
                    /* The program feeds each run's trace back: the next
                     * round's split follows the machine as it is now. */
                    rc = sgl_runtime_refit_kernel(rt, kernel_names[a], WINDOW,
                                                  cal[a]);
                    if (!rc)
                        rc = measured_files(&o, cal[a], p, &measured[a],
                                            &light[a]);
                }
            }
        }
    int back = set_quota(&o, rank, 0);
    if (rank == 0)
        fprintf(stderr, "\n");
    if (rc || back) {
        if (rank == 0)
            fprintf(stderr, "bench_balance: %s\n",
                    rc ? sgl_error_last() : "cannot leave the cgroup");
        st = 1;
    } else if (rank == 0) {
        printf("balance by speed: %d ranks, rank %d in cgroup %s; medians "
               "of %d rounds (min-max), each ratio within its round\n",
               nranks, o.slow_rank, o.cgroup, o.reps);
        int ok = sorted_all;
        for (int a = 0; a < NALG; a++)
            report(&r, a, p, o.reps, n[a]);
        for (int a = 0; a < NALG; a++)
            for (int k = 1; k < NMODE; k++)
                ok &= a != ALG_REDUCE || fabs(r.sum[a][k] - r.sum[a][0]) <=
                                             1e-9 * fabs(r.sum[a][0]);
        for (int a = 0; a < NALG; a++) {
            printf("%-15s measured weights ", alg_names[a]);
            for (size_t w = 0; w < p; w++)
                printf("%s%.3f", w ? ", " : "", cal[a][0] / cal[a][w]);
            printf(" (speeds relative to worker 0)\n");
        }
        printf("probe weights (machine file %s; speeds relative to worker "
               "0):",
               o.machine);
        for (int a = 0; a < NALG; a++) {
            const char *k = kernel_names[a];
            double c0 = sgl_node_kernel(sgl_machine_worker(params, 0), k);
            printf(" %s", k);
            for (size_t w = 0; w < p; w++)
                printf("%s%.3f", w ? ", " : " ",
                       c0 / sgl_node_kernel(sgl_machine_worker(params, w), k));
            printf(a + 1 < NALG ? ";" : "\n");
        }
        printf("goals: a weighted split within 10%% of ideal (/ ideal <= "
               "1.1) and >= 1.3x faster than even (even / this); quota, "
               "even / ideal is the most any split could gain here\n"
               "results: %s\n",
               ok ? "every sum agrees, every sort is sorted"
                  : "MISMATCH (a sum disagrees or a sort is not sorted)");
        st = ok ? 0 : 1;
    }
    MPI_Bcast(&st, 1, MPI_INT, 0, MPI_COMM_WORLD);
    sgl_machine_free(params);
    for (int a = 0; a < NALG; a++) {
        sgl_machine_free(measured[a]);
        sgl_machine_free(light[a]);
    }
    sgl_finalize(rt);
    return st;
}
