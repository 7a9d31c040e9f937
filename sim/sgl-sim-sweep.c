/* sgl-sim-sweep: one reference algorithm on a distributed vector, timed
 * in simulated time on the root, next to the closed form's prediction
 * for the machine file given (sim/sweep runs it over algorithms, sizes
 * and platforms and writes the table).
 *
 * Each repetition is three programs, as bench_main's: create the vector
 * (random doubles, on the workers), run the algorithm (timed by
 * MPI_Wtime(), SMPI's simulated clock, around the call), free it. The
 * simulation is deterministic, so the repetitions agree; their min and max
 * are printed to show it.
 *
 * Output on rank 0, one line:
 *   sweep ALGO n N P WORKERS sim MEDIAN min MIN max MAX pred PRED
 * (seconds; pred is nan without --machine; under SGL_EXCHANGE=routed
 * PSRS is priced routed, sgl_predict_opts_t.routed, and psrs-levels,
 * which the predictor does not price routed, is an error).
 *
 * Usage: smpirun ... sgl-sim-sweep --algo reduce|scan|scan-rts|psrs|
 *        psrs-levels --n N [--reps R] [--machine FILE]
 * PSRS's exchange follows SGL_EXCHANGE (direct, routed); sim/sweep sets
 * it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <sgl/algorithms.h>
#include <sgl/predict.h>
#include <sgl/sgl.h>

#define REPS_MAX 15

enum job_step { JOB_CREATE, JOB_RUN, JOB_FREE };

struct job {
    enum job_step what;
    sgl_predict_algo_t algo;
    size_t n;
    uint64_t seed;
};

struct cfg {
    sgl_predict_algo_t algo;
    size_t n;
    int reps;
    const char *machine;
};

/* The root's vectors and the last run's time, across sgl_run()s: only
 * the root's process runs job_main. */
static sgl_dvec_t *g_in, *g_out;
static double g_time;

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
    if (j->what == JOB_CREATE) {
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
                    "reduce|scan|scan-rts|psrs|psrs-levels --n N "
                    "[--reps R] [--machine FILE]\n", why);
    return 2;
}

static int parse(int argc, char **argv, struct cfg *c)
{
    *c = (struct cfg){0, 0, 3, NULL};
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!v)
            return usage("an option without its value");
        if (!strcmp(argv[i], "--algo")) {
            if (sgl_predict_algo_from_name(v, &c->algo) != SGL_OK)
                return usage("unknown --algo");
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
    return c->algo && c->n ? 0 : usage("--algo and --n are needed");
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The closed form for @c on the machine file, nan without one. */
static int predict(const struct cfg *c, double *ret)
{
    *ret = NAN;
    if (!c->machine)
        return SGL_OK;
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    const char *x = getenv("SGL_EXCHANGE");
    o.routed = x && !strcmp(x, "routed") && c->algo == SGL_PREDICT_PSRS;
    sgl_machine_t *m;
    sgl_prediction_t p;
    int rc = sgl_machine_load(c->machine, &m);
    if (rc != SGL_OK)
        return rc;
    rc = sgl_predict_algorithm(m, c->algo, (double)c->n, &o, &p);
    if (rc == SGL_OK)
        *ret = p.total;
    sgl_machine_free(m);
    return rc;
}

/* Every rank: the repetitions; rank 0 prints the line. */
static int sweep(sgl_runtime_t *rt, const struct cfg *c)
{
    double t[REPS_MAX];
    int rc = SGL_OK;
    for (int r = 0; r < c->reps && rc == SGL_OK; r++) {
        struct job j = {JOB_CREATE, c->algo, c->n, 7 + (uint64_t)r};
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
    if ((rc = predict(c, &pred)) != SGL_OK)
        return rc;
    qsort(t, (size_t)c->reps, sizeof *t, cmp_double);
    printf("sweep %s n %zu P %zu sim %.6g min %.6g max %.6g pred %.6g\n",
           sgl_predict_algo_name(c->algo), c->n,
           sgl_machine_workers(sgl_runtime_machine(rt)), t[c->reps / 2],
           t[0], t[c->reps - 1], pred);
    return SGL_OK;
}

int main(int argc, char **argv)
{
    struct cfg c;
    int urc = parse(argc, argv, &c);
    if (urc)
        return urc;
    /* The root's process decides PSRS's variant (sgl_sort_variant()). */
    if (c.algo == SGL_PREDICT_PSRS || c.algo == SGL_PREDICT_PSRS_LEVELS)
        setenv("SGL_SORT", c.algo == SGL_PREDICT_PSRS ? "flat" : "levels", 1);
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
        rc = sweep(rt, &c);
    if (rc != SGL_OK && sgl_runtime_rank(rt) == 0)
        fprintf(stderr, "sgl-sim-sweep: %s\n", sgl_error_last());
    int frc = sgl_finalize(rt);
    return rc == SGL_OK && frc == SGL_OK ? 0 : 1;
}
