/* sgl-sim-sweep: reference algorithms on a distributed vector, and Heat
 * 2D on distributed arrays, timed in simulated time on the root, next to
 * the closed form's prediction for the machine file given (sim/sweep runs
 * it over algorithms, sizes and platforms and writes the table).
 *
 * Each repetition of a vector algorithm is three programs, as
 * bench_main's: create the vector (random doubles, on the workers), run
 * the algorithm (timed by MPI_Wtime(), SMPI's simulated clock, around the
 * call), free it. Heat 2D is examples/heat.c's program (sweep_heat.c):
 * SWEEP_HEAT_ITERS Jacobi steps on an n x n grid, the time per step,
 * its checksum against a sequential loop's (a mismatch is an error). The
 * simulation is deterministic, so the repetitions agree; their min and
 * max are printed to show it.
 *
 * Several algorithms in one run (--algo reduce,scan,scan-rts) share one
 * start of the simulated cluster, most of a 1024-host run's wall time.
 *
 * Output on rank 0, one line per algorithm:
 *   sweep ALGO n N P WORKERS sim MEDIAN min MIN max MAX pred PRED
 * (seconds; pred is nan without --machine; under SGL_EXCHANGE=routed
 * PSRS is priced routed, sgl_predict_opts_t.routed, and psrs-levels,
 * which the predictor does not price routed, is an error; for heat N is
 * the grid's side and the times are per step).
 *
 * Usage: smpirun ... sgl-sim-sweep --algo LIST --n N [--reps R]
 *        [--machine FILE]
 * LIST: comma-separated reduce, scan, scan-rts, heat and at most one of
 * psrs, psrs-levels. PSRS's exchange follows SGL_EXCHANGE (direct,
 * routed); sim/sweep sets it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <sgl/algorithms.h>
#include <sgl/predict.h>
#include <sgl/sgl.h>

#include "sweep_heat.h"

#define REPS_MAX 15
#define ALGOS_MAX 8
/* Not one of the predictor's algorithms: Heat 2D (sweep_heat.c). */
#define ALGO_HEAT ((sgl_predict_algo_t)0)

enum job_step { JOB_CREATE, JOB_RUN, JOB_FREE };

struct job {
    enum job_step what;
    sgl_predict_algo_t algo;
    size_t n;
    uint64_t seed;
};

struct cfg {
    sgl_predict_algo_t algo[ALGOS_MAX];
    int nalgos;
    size_t n;
    int reps;
    const char *machine;
};

/* The root's vectors and the last run's time, across sgl_run()s: only
 * the root's process runs job_main. */
static sgl_dvec_t *g_in, *g_out;
static double g_time;
static struct sweep_heat g_heat;

static int job_run(sgl_ctx_t *root, sgl_predict_algo_t algo)
{
    double s;
    switch (algo) {
    case SGL_PREDICT_REDUCE:
        return sgl_dvec_reduce(root, g_in, SGL_OP_SUM, 0, &s);
    case SGL_PREDICT_SCAN:
        return sgl_dvec_scan(root, g_in, g_out, SGL_OP_SUM,
                             SGL_SCAN_LOCAL_FIRST);
    case SGL_PREDICT_SCAN_RTS:
        return sgl_dvec_scan(root, g_in, g_out, SGL_OP_SUM,
                             SGL_SCAN_REDUCE_FIRST);
    default:
        return sgl_dvec_sort(root, g_in, NULL);
    }
}

static int job_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    int rc = SGL_OK;
    int scan = j->algo == SGL_PREDICT_SCAN || j->algo == SGL_PREDICT_SCAN_RTS;
    if (j->algo == ALGO_HEAT) {
        if (j->what != JOB_RUN)
            return SGL_OK;
        rc = sweep_heat_run(root, j->n, &g_heat);
        g_time = g_heat.step_seconds;
    } else if (j->what == JOB_CREATE) {
        rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_RANDOM,
                             &j->seed, sizeof j->seed, &g_in);
        if (rc == SGL_OK && scan)
            rc = sgl_dvec_create(root, SGL_F64, 0, j->n, SGL_FILL_NONE, NULL,
                                 0, &g_out);
    } else if (j->what == JOB_RUN) {
        double t0 = MPI_Wtime();
        rc = job_run(root, j->algo);
        g_time = MPI_Wtime() - t0;
    } else {
        rc = sgl_dvec_free(root, g_in);
        int r2 = sgl_dvec_free(root, g_out);
        g_in = g_out = NULL;
        rc = rc ? rc : r2;
    }
    return rc;
}

static int usage(const char *why)
{
    fprintf(stderr, "sgl-sim-sweep: %s\nusage: sgl-sim-sweep --algo "
                    "LIST --n N [--reps R] [--machine FILE]\n  LIST: "
                    "comma-separated reduce, scan, scan-rts, heat and at "
                    "most one of psrs, psrs-levels\n", why);
    return 2;
}

static int has_algo(const struct cfg *c, sgl_predict_algo_t a)
{
    for (int i = 0; i < c->nalgos; i++)
        if (c->algo[i] == a)
            return 1;
    return 0;
}

/* The comma-separated names of @list; 1 if one is unknown, a second sort
 * (SGL_SORT is set once, before sgl_init) or too many. */
static int parse_algos(const char *list, struct cfg *c)
{
    char buf[256];
    if (strlen(list) >= sizeof buf)
        return 1;
    strcpy(buf, list);
    c->nalgos = 0;
    int sorts = 0;
    for (char *save, *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        sgl_predict_algo_t a = ALGO_HEAT;
        if (c->nalgos == ALGOS_MAX ||
            (strcmp(t, "heat") && sgl_predict_algo_from_name(t, &a)))
            return 1;
        sorts += a == SGL_PREDICT_PSRS || a == SGL_PREDICT_PSRS_LEVELS;
        c->algo[c->nalgos++] = a;
    }
    return sorts > 1 || c->nalgos == 0;
}

static int parse(int argc, char **argv, struct cfg *c)
{
    *c = (struct cfg){{0}, 0, 0, 3, NULL};
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!v)
            return usage("an option without its value");
        if (!strcmp(argv[i], "--algo")) {
            if (parse_algos(v, c))
                return usage("--algo: an unknown algorithm, more than "
                             "one sort or more than 8 names");
        } else if (!strcmp(argv[i], "--n")) {
            double n = strtod(v, &end);
            if (*end || !(n >= 1 && n < 1e12))
                return usage("--n is not an element count");
            c->n = (size_t)n;
        } else if (!strcmp(argv[i], "--reps")) {
            c->reps = (int)strtol(v, &end, 10);
            if (*end || c->reps < 1 || c->reps > REPS_MAX)
                return usage("--reps is not 1..15");
        } else if (!strcmp(argv[i], "--machine")) {
            c->machine = v;
        } else {
            return usage("unknown option");
        }
        i++;
    }
    if (!c->nalgos || !c->n)
        return usage("--algo and --n are needed");
    return c->n < 3 && has_algo(c, ALGO_HEAT)
               ? usage("heat needs --n 3 at least (the grid's side)")
               : 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The closed form for @a on the machine file, nan without one. */
static int predict(const struct cfg *c, sgl_predict_algo_t a, double *ret)
{
    *ret = NAN;
    if (!c->machine)
        return SGL_OK;
    if (a == ALGO_HEAT)
        return sweep_heat_predict(c->machine, c->n, &g_heat, ret);
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    const char *x = getenv("SGL_EXCHANGE");
    o.routed = x && !strcmp(x, "routed") && a == SGL_PREDICT_PSRS;
    sgl_machine_t *m;
    sgl_prediction_t p;
    int rc = sgl_machine_load(c->machine, &m);
    if (rc != SGL_OK)
        return rc;
    rc = sgl_predict_algorithm(m, a, (double)c->n, &o, &p);
    if (rc == SGL_OK)
        *ret = p.total;
    sgl_machine_free(m);
    return rc;
}

/* Every rank: the repetitions of @a; rank 0 prints its line. */
static int sweep(sgl_runtime_t *rt, const struct cfg *c, sgl_predict_algo_t a)
{
    double t[REPS_MAX];
    int rc = SGL_OK;
    for (int r = 0; r < c->reps && rc == SGL_OK; r++) {
        struct job j = {JOB_CREATE, a, c->n, 7 + (uint64_t)r};
        rc = sgl_run(rt, job_main, &j, sizeof j);
        j.what = JOB_RUN;
        if (rc == SGL_OK)
            rc = sgl_run(rt, job_main, &j, sizeof j);
        t[r] = g_time;
        j.what = JOB_FREE;
        int frc = sgl_run(rt, job_main, &j, sizeof j);
        rc = rc ? rc : frc;
    }
    if (rc != SGL_OK || sgl_runtime_rank(rt) != 0)
        return rc;
    double pred;
    if ((rc = predict(c, a, &pred)) != SGL_OK)
        return rc;
    qsort(t, (size_t)c->reps, sizeof *t, cmp_double);
    printf("sweep %s n %zu P %zu sim %.6g min %.6g max %.6g pred %.6g\n",
           a == ALGO_HEAT ? "heat" : sgl_predict_algo_name(a), c->n,
           sgl_machine_workers(sgl_runtime_machine(rt)), t[c->reps / 2],
           t[0], t[c->reps - 1], pred);
    fflush(stdout);
    return SGL_OK;
}

int main(int argc, char **argv)
{
    struct cfg c;
    int urc = parse(argc, argv, &c);
    if (urc)
        return urc;
    /* The root's process decides PSRS's variant (sgl_sort_variant()). */
    if (has_algo(&c, SGL_PREDICT_PSRS) || has_algo(&c, SGL_PREDICT_PSRS_LEVELS))
        setenv("SGL_SORT", has_algo(&c, SGL_PREDICT_PSRS) ? "flat" : "levels",
               1);
    sgl_runtime_t *rt;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (rc != SGL_OK) {
        fprintf(stderr, "sgl-sim-sweep: %s\n", sgl_error_last());
        return 1;
    }
    rc = sgl_algorithms_register(rt);
    if (rc == SGL_OK)
        rc = sgl_task_register(rt, job_main, "sweep_job");
    if (rc == SGL_OK)
        rc = sweep_heat_register(rt);
    for (int i = 0; i < c.nalgos && rc == SGL_OK; i++)
        rc = sweep(rt, &c, c.algo[i]);
    if (rc != SGL_OK && sgl_runtime_rank(rt) == 0)
        fprintf(stderr, "sgl-sim-sweep: %s\n", sgl_error_last());
    int frc = sgl_finalize(rt);
    return rc == SGL_OK && frc == SGL_OK ? 0 : 1;
}
