/* bench_psrs --dist (psrs_dists.h). Per distribution and size, rank 0
 * makes the keys once (sort_keys.c); every repetition each contestant
 * sorts the same keys, in an order that rotates with the repetition so
 * that a drift of the machine favours none: PSRS with the keys scattered
 * to the workers first (sgl_dvec_scatter) and gathered after
 * (sgl_dvec_gather), only sgl_dvec_sort timed, as the issue measured it;
 * the peers on a copy of the keys in rank 0's process with as many
 * threads as the tree has workers (spreadsort on one). Every output is
 * checked: sorted, and bit for bit the first contestant's. The peers run
 * only in a one-process run, where they get the same cores as the tree's
 * workers; under mpirun the table has PSRS alone. */
#include "psrs_dists.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_csv.h"
#include "sort_peers.h"
#include "timing.h"
#include <sgl/algorithms.h>

enum { C_PSRS, C_IPS4O, C_BLOCK, C_SPREAD, NCONT };
static const char *const cont_names[NCONT] = {"psrs", "ips4o", "block_indirect",
                                              "spreadsort"};

/* The contestants of this run, in the order of cont_names. */
static int act[NCONT], nact;

/* The root task's keys, output and time. It runs in rank 0's process
 * (the root master), so it reads them here rather than through the run's
 * argument, which would copy the keys inside the timed region's run. */
static const double *root_keys;
static double *root_out;
static size_t root_n;
static double root_seconds;

static int dists_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    sgl_dvec_t *v;
    SGL_TRY(sgl_dvec_scatter(root, SGL_F64, 0, root_keys, root_n, &v));
    double t0 = MPI_Wtime();
    int rc = sgl_dvec_sort(root, v, NULL);
    root_seconds = MPI_Wtime() - t0;
    if (!rc)
        rc = sgl_dvec_gather(root, v, root_out, root_n);
    int rc2 = sgl_dvec_free(root, v);
    return rc ? rc : rc2;
}

int psrs_dists_register(sgl_runtime_t *rt)
{
    return sgl_task_register(rt, dists_task, "bench_psrs.dists");
}

int psrs_dists_parse_dists(const char *arg, struct psrs_dists_opts *o)
{
    o->ndists = 0;
    if (strcmp(arg, "all") == 0) {
        for (int d = 0; d < SORT_KEYS_COUNT; d++)
            o->dists[o->ndists++] = d;
        return 0;
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *save, *w = strtok_r(buf, ",", &save); w;
         w = strtok_r(NULL, ",", &save)) {
        int d = sort_keys_find(w);
        if (d < 0 || o->ndists == SORT_KEYS_COUNT) {
            fprintf(stderr, "bench_psrs: --dist '%s' is not one of all", w);
            for (int k = 0; k < SORT_KEYS_COUNT; k++)
                fprintf(stderr, ", %s", sort_keys_name(k));
            fprintf(stderr, "\n");
            return -1;
        }
        o->dists[o->ndists++] = d;
    }
    return o->ndists ? 0 : (fprintf(stderr, "bench_psrs: --dist is empty\n"), -1);
}

int psrs_dists_parse_contestants(const char *arg, struct psrs_dists_opts *o)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    o->contestants = 0;
    for (char *save, *w = strtok_r(buf, ",", &save); w;
         w = strtok_r(NULL, ",", &save)) {
        int c = 0;
        while (c < NCONT && strcmp(w, cont_names[c]))
            c++;
        if (c == NCONT) {
            fprintf(stderr, "bench_psrs: --contestants '%s' is not one of "
                            "psrs, ips4o, block_indirect, spreadsort\n", w);
            return -1;
        }
        o->contestants |= 1u << c;
    }
    return o->contestants ? 0
                          : (fprintf(stderr, "bench_psrs: --contestants is "
                                             "empty\n"), -1);
}

int psrs_dists_parse_sizes(const char *arg, struct psrs_dists_opts *o)
{
    o->nsizes = 0;
    for (const char *p = arg; *p;) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || (*end && *end != ',') || !(v >= 1 && v <= 1e12) ||
            o->nsizes == PSRS_DISTS_MAX_SIZES) {
            fprintf(stderr, "bench_psrs: --sizes '%s' is not a list of at most "
                            "%d counts (1e5,1e6,...)\n",
                    arg, PSRS_DISTS_MAX_SIZES);
            return -1;
        }
        o->sizes[o->nsizes++] = (size_t)v;
        p = *end ? end + 1 : end;
    }
    return o->nsizes ? 0 : (fprintf(stderr, "bench_psrs: --sizes is empty\n"), -1);
}

/* One distribution and size's buffers in rank 0's process. */
struct pair {
    size_t n;
    double *keys, *out, *ref;
    int have_ref; /* ref holds the first checked output */
    int bad;      /* some output was unsorted or differed */
};

/* Sort once with contestant @c; its time, or NAN on an error. */
static double sort_once(sgl_runtime_t *rt, int c, struct pair *p, int threads)
{
    if (c == C_PSRS) {
        root_keys = p->keys, root_out = p->out, root_n = p->n;
        if (sgl_run(rt, dists_task, NULL, 0)) {
            fprintf(stderr, "bench_psrs: %s\n", sgl_error_last());
            return NAN;
        }
        return root_seconds;
    }
    memcpy(p->out, p->keys, p->n * sizeof *p->keys);
    double t0 = MPI_Wtime();
    if (c == C_IPS4O)
        bench_peer_ips4o(p->out, p->n, threads);
    else if (c == C_BLOCK)
        bench_peer_block_indirect(p->out, p->n, threads);
    else
        bench_peer_spreadsort(p->out, p->n);
    return MPI_Wtime() - t0;
}

/* Sorted, and the same bits as the first output checked. */
static void check(struct pair *p, int c, int rep)
{
    const char *why = NULL;
    if (!sort_keys_sorted(p->out, p->n))
        why = "is not sorted";
    else if (!p->have_ref) {
        memcpy(p->ref, p->out, p->n * sizeof *p->out);
        p->have_ref = 1;
    } else if (memcmp(p->ref, p->out, p->n * sizeof *p->out))
        why = "differs from the first contestant's";
    if (why) {
        fprintf(stderr, "bench_psrs: %s's output (repetition %d) %s\n",
                cont_names[c], rep + 1, why);
        p->bad = 1;
    }
}

/* The repetitions of one pair: t[c * reps + rep]. With @warm, one untimed
 * round first, so that no contestant pays for starting its threads. */
static int measure(sgl_runtime_t *rt, struct pair *p, int reps,
                   int warm, double *t)
{
    int rank, threads = (int)sgl_machine_workers(sgl_runtime_machine(rt));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int r = warm ? -1 : 0; r < reps; r++)
        for (int j = 0; j < nact; j++) {
            int c = act[(j + (r < 0 ? 0 : r)) % nact];
            if (c != C_PSRS && rank != 0)
                continue;
            double s = sort_once(rt, c, p, threads);
            if (isnan(s))
                return 1;
            if (rank == 0)
                check(p, c, r);
            if (r >= 0)
                t[c * reps + r] = s;
        }
    return 0;
}

/* Median, min and max of @v[0..n); sorts @v. */
static void spread(double *v, int n, double *med, double *lo, double *hi)
{
    *med = bench_median(v, n);
    *lo = v[0], *hi = v[n - 1];
}

/* The pair's line of the table, and its CSV rows. */
static void report(const struct psrs_dists_opts *o, int d, const struct pair *p,
                   int threads, double *t, bench_csv_t *csv)
{
    double med[NCONT], best = INFINITY;
    int who = -1;
    printf("%-13s %7.0e", sort_keys_name(d), (double)p->n);
    for (int j = 0; j < nact; j++) {
        int c = act[j];
        /* The CSV first: spread() sorts the times. */
        for (int r = 0; r < o->reps; r++) {
            bench_csv_str(csv, sort_keys_name(d));
            bench_csv_int(csv, (long long)p->n);
            bench_csv_str(csv, cont_names[c]);
            bench_csv_int(csv, c == C_SPREAD ? 1 : threads);
            bench_csv_int(csv, r + 1);
            bench_csv_num(csv, t[c * o->reps + r]);
            bench_csv_str(csv, o->shape);
            bench_csv_end(csv);
        }
        double lo, hi;
        spread(t + c * o->reps, o->reps, &med[c], &lo, &hi);
        char cell[64];
        snprintf(cell, sizeof cell, "%.2f (%.2f-%.2f)", 1e3 * med[c], 1e3 * lo,
                 1e3 * hi);
        printf("  %-26s", cell);
        if (c != C_PSRS && med[c] < best)
            best = med[c], who = c;
    }
    if (who >= 0 && act[0] == C_PSRS)
        printf("  %6.2fx %s", best / med[C_PSRS], cont_names[who]);
    printf("%s\n", p->bad ? "  WRONG OUTPUT" : "");
    fflush(stdout);
}

static void header(const struct psrs_dists_opts *o, int threads, int size)
{
    printf("# PSRS (sgl_dvec_sort, data on the workers, only the sort timed) "
           "against the sort peers on %d threads (spreadsort on 1), same keys;"
           "\n# medians of %d in ms (min-max); speed = best peer median / PSRS "
           "median (> 1: PSRS faster)\n",
           threads, o->reps);
    if (size > 1)
        printf("# several processes: PSRS alone (the peers run in one "
               "process only)\n");
    printf("%-13s %7s", "distribution", "n");
    for (int j = 0; j < nact; j++)
        printf("  %-26s", cont_names[act[j]]);
    printf("%s\n", nact > 1 && act[0] == C_PSRS ? "  speed  best peer" : "");
}

/* One pair on every rank; rank 0 holds the buffers. */
static int run_pair(sgl_runtime_t *rt, const struct psrs_dists_opts *o, int d,
                    size_t n, int warm, bench_csv_t *csv, int *bad)
{
    int rank, threads = (int)sgl_machine_workers(sgl_runtime_machine(rt));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    struct pair p = {n, NULL, NULL, NULL, 0, 0};
    double *t = calloc((size_t)NCONT * (size_t)o->reps, sizeof *t);
    int fail = !t;
    if (rank == 0 && t) {
        p.keys = malloc(n * sizeof *p.keys);
        p.out = malloc(n * sizeof *p.out);
        p.ref = malloc(n * sizeof *p.ref);
        fail = !p.keys || !p.out || !p.ref;
        if (fail)
            fprintf(stderr, "bench_psrs: no memory for 3 x %zu doubles\n", n);
        else
            sort_keys_fill(d, p.keys, n, PSRS_DISTS_SEED);
    }
    /* Every rank must stop together, or the others would wait in a run
     * that never comes. */
    MPI_Bcast(&fail, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!fail)
        fail = measure(rt, &p, o->reps, warm, t);
    if (!fail && rank == 0)
        report(o, d, &p, threads, t, csv);
    *bad |= p.bad;
    free(p.keys), free(p.out), free(p.ref), free(t);
    return fail;
}

int psrs_dists_run(sgl_runtime_t *rt, const struct psrs_dists_opts *o)
{
    int rank, size, threads = (int)sgl_machine_workers(sgl_runtime_machine(rt));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int fail = 0, bad = 0;
    nact = 0;
    for (int c = 0; c < NCONT; c++)
        if ((!o->contestants || (o->contestants >> c & 1)) &&
            (size == 1 || c == C_PSRS))
            act[nact++] = c;
    if (!nact) {
        if (rank == 0)
            fprintf(stderr, "bench_psrs: under mpirun only psrs runs\n");
        return 1;
    }
    bench_csv_t csv = {NULL, 0};
    char err[512];
    if (rank == 0 && o->csv_path &&
        bench_csv_open(&csv, o->csv_path,
                       "distribution,n_elements,implementation,threads,rep,"
                       "time_s,shape",
                       0, err, sizeof err)) {
        fprintf(stderr, "bench_psrs: %s\n", err);
        fail = 1;
    }
    MPI_Bcast(&fail, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0 && !fail)
        header(o, threads, size);
    double t0 = MPI_Wtime();
    int total = o->nsizes * o->ndists, done = 0;
    for (int s = 0; s < o->nsizes && !fail; s++)
        for (int i = 0; i < o->ndists && !fail; i++, done++) {
            fail = run_pair(rt, o, o->dists[i], o->sizes[s], done == 0, &csv,
                            &bad);
            if (rank == 0)
                fprintf(stderr, "bench_psrs: %d of %d done; ETA %.0f s\n",
                        done + 1, total,
                        bench_eta(MPI_Wtime() - t0, done + 1, total));
        }
    if (bench_csv_close(&csv) && rank == 0) {
        fprintf(stderr, "bench_psrs: cannot write %s\n", o->csv_path);
        fail = 1;
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0 && !fail)
        printf("# outputs: %s\n", bad ? "SOME WRONG (see stderr)"
                                      : "every contestant's sorted and equal");
    return fail || bad;
}
