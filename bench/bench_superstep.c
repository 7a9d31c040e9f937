/* Cost of the runtime's superstep against the raw primitives of the level
 * it runs on, measured in the same run, medians of several trials:
 *
 *   empty superstep (1 word down, empty task, 1 word up)
 *       thread level: OpenMP parallel region + barrier
 *       MPI level:    MPI_Scatterv + MPI_Gatherv of one word
 *   nested empty superstep, where the root's children are thread-level
 *   masters too (SGL_SHAPE="pack:2 core:2"): each child runs the empty
 *   superstep on its own children inside one root pardo
 *       thread levels: a nested OpenMP parallel region + barrier inside
 *                      one outer region
 *   scatter / gather of a large block (default 1e7 doubles in total)
 *       thread level: memcpy of the same bytes
 *       MPI level:    MPI_Scatterv / MPI_Gatherv of the same bytes
 *
 * The level is the root's link: run it alone for the thread level, under
 * `mpirun -n 2` with SGL_SHAPE=rank:2 for the MPI level. Ratios are
 * peer time / SGL time, so >= 1 means SGL is as fast as the peer.
 * Usage: bench_superstep [--quick] [--doubles N] [--csv FILE]
 *
 * --csv (RFC 4180, bench_csv.h), one row per trial and implementation:
 * level (threads or mpi), children, doubles, case (empty_superstep,
 * scatter_large_block, gather_large_block, nested_empty_superstep),
 * implementation (sgl, or the peer: omp_parallel_barrier,
 * mpi_scatterv_gatherv, memcpy, mpi_scatterv, mpi_gatherv,
 * omp_nested_parallel_barrier), trial (1..7), time_s (one superstep, or one
 * scatter or gather of the large block, averaged over the trial's
 * repetitions). */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_csv.h"
#include "timing.h"

#include <sgl/sgl.h>
#include <sgl/blocks.h>

enum { TRIALS = 7 };

struct cfg {
    size_t doubles; /* total elements of the large block */
    int reps;       /* supersteps per trial for the empty case */
    int big_reps;   /* per trial for the large case */
    const char *csv;
};

/* ---- the SGL side ---- */

static int echo_word(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    double *d;
    size_t n;
    int rc = sgl_recv(ctx, sizeof *d, (void **)&d, &n);
    return rc ? rc : sgl_put(ctx, d, sizeof *d, n);
}

static int nothing(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)ctx, (void)arg, (void)size;
    return SGL_OK;
}

/* Take the scattered block as a private copy: what the memcpy peer
 * does. A task that reads no block costs no copy on a thread level
 * (the copy is made by sgl_recv()), so the case asks for it. */
static int take_block(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    void *d;
    size_t n;
    return sgl_recv(ctx, sizeof(double), &d, &n);
}

/* Hand up a block of as many doubles as arg says, filled in place. */
static int put_block(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    void *d;
    return sgl_put_buffer(ctx, sizeof(double), *(const size_t *)arg, &d);
}

struct results {
    double empty, scatter, gather, nested;
};

struct sgl_arg {
    const struct cfg *cfg;
    struct results *res;
    int trial;
    int nested; /* the root's children are thread-level masters */
};

/* The empty superstep, @reps times, at a master below the root. */
static int nested_steps(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    int reps = *(const int *)arg;
    unsigned p = sgl_ctx_children(ctx);
    double word[64] = {0};
    size_t counts[64];
    if (p > 64)
        return sgl_error_set(SGL_ESHAPE, "bench: over 64 children");
    for (unsigned i = 0; i < p; i++)
        counts[i] = 1;
    int rc = SGL_OK;
    for (int r = 0; !rc && r < reps; r++) {
        rc = sgl_scatter(ctx, word, sizeof *word, counts);
        if (!rc)
            rc = sgl_pardo(ctx, echo_word, NULL, 0);
        if (!rc)
            rc = sgl_gather(ctx, word, sizeof *word, p, NULL);
    }
    return rc;
}

static int sgl_side(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct sgl_arg *a = *(const struct sgl_arg *const *)arg;
    const struct cfg *c = a->cfg;
    unsigned p = sgl_ctx_children(root);
    if (p == 0)
        return sgl_error_set(SGL_ESHAPE, "the benchmark needs a master");
    size_t *counts = malloc(p * sizeof *counts);
    double *big = malloc(c->doubles * sizeof *big);
    double word[64] = {0};
    if (!counts || !big || p > 64)
        return sgl_error_set(SGL_ENOMEM, "bench: out of memory");
    memset(big, 1, c->doubles * sizeof *big);
    int rc = SGL_OK;

    for (unsigned i = 0; i < p; i++)
        counts[i] = 1;
    double t0 = bench_now();
    for (int r = 0; !rc && r < c->reps; r++) {
        rc = sgl_scatter(root, word, sizeof *word, counts);
        if (!rc)
            rc = sgl_pardo(root, echo_word, NULL, 0);
        if (!rc)
            rc = sgl_gather(root, word, sizeof *word, p, NULL);
    }
    a->res->empty = (bench_now() - t0) / c->reps;

    for (unsigned i = 0; i < p; i++)
        counts[i] = c->doubles / p + (i < c->doubles % p);
    t0 = bench_now();
    for (int r = 0; !rc && r < c->big_reps; r++) {
        rc = sgl_scatter(root, big, sizeof *big, counts);
        if (!rc)
            rc = sgl_pardo(root, take_block, NULL, 0);
    }
    a->res->scatter = (bench_now() - t0) / c->big_reps;

    size_t each = c->doubles / p;
    t0 = bench_now();
    for (int r = 0; !rc && r < c->big_reps; r++) {
        rc = sgl_pardo(root, put_block, &each, sizeof each);
        if (!rc)
            rc = sgl_gather(root, big, sizeof *big, c->doubles, NULL);
    }
    a->res->gather = (bench_now() - t0) / c->big_reps;

    if (!rc && a->nested) {
        t0 = bench_now();
        rc = sgl_pardo(root, nested_steps, &c->reps, sizeof c->reps);
        a->res->nested = (bench_now() - t0) / c->reps;
    }
    free(counts);
    free(big);
    return rc;
}

/* ---- the peers ---- */

/* @p0 outer threads, each running nested regions of @p1 threads. */
static double nested_peer(const struct cfg *c, unsigned p0, unsigned p1)
{
    int levels = omp_get_max_active_levels();
    omp_set_max_active_levels(2);
    double t0 = bench_now();
#pragma omp parallel num_threads(p0)
    for (int k = 0; k < c->reps; k++) {
#pragma omp parallel num_threads(p1)
        {
#pragma omp barrier
        }
    }
    double t = (bench_now() - t0) / c->reps;
    omp_set_max_active_levels(levels);
    return t;
}

static void threads_peer(const struct cfg *c, unsigned p, struct results *r)
{
    double t0 = bench_now();
    for (int k = 0; k < c->reps; k++) {
#pragma omp parallel num_threads(p)
        {
#pragma omp barrier
        }
    }
    r->empty = (bench_now() - t0) / c->reps;
    size_t bytes = c->doubles * sizeof(double);
    char *a = malloc(bytes), *b = malloc(bytes);
    memset(a, 1, bytes);
    memset(b, 2, bytes);
    t0 = bench_now();
    for (int k = 0; k < c->big_reps; k++) {
        memcpy(b, a, bytes);
        /* Keep the copy: its result is otherwise unused. */
        __asm__ volatile("" : : "r"(b) : "memory");
    }
    r->scatter = r->gather = (bench_now() - t0) / c->big_reps;
    free(a);
    free(b);
}

static void mpi_peer(const struct cfg *c, struct results *r)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)size * sizeof *displs);
    double word[64] = {0}, mine = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = i;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = bench_now();
    for (int k = 0; k < c->reps; k++) {
        MPI_Scatterv(word, counts, displs, MPI_DOUBLE, &mine, 1, MPI_DOUBLE, 0,
                     MPI_COMM_WORLD);
        MPI_Gatherv(&mine, 1, MPI_DOUBLE, word, counts, displs, MPI_DOUBLE, 0,
                    MPI_COMM_WORLD);
    }
    r->empty = (bench_now() - t0) / c->reps;
    int each = (int)(c->doubles / (size_t)size);
    for (int i = 0; i < size; i++) {
        counts[i] = each;
        displs[i] = i * each;
    }
    double *big = malloc(c->doubles * sizeof *big);
    double *part = malloc((size_t)each * sizeof *part);
    memset(big, 1, c->doubles * sizeof *big);
    memset(part, 1, (size_t)each * sizeof *part);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    for (int k = 0; k < c->big_reps; k++)
        MPI_Scatterv(big, counts, displs, MPI_DOUBLE, part, each, MPI_DOUBLE, 0,
                     MPI_COMM_WORLD);
    r->scatter = (bench_now() - t0) / c->big_reps;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = bench_now();
    for (int k = 0; k < c->big_reps; k++)
        MPI_Gatherv(part, each, MPI_DOUBLE, big, counts, displs, MPI_DOUBLE, 0,
                    MPI_COMM_WORLD);
    r->gather = (bench_now() - t0) / c->big_reps;
    free(big);
    free(part);
    free(counts);
    free(displs);
}

static int parse(int argc, char **argv, struct cfg *c)
{
    *c = (struct cfg){10000000, 2000, 5, NULL};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            c->doubles = 1000000;
            c->reps = 300;
            c->big_reps = 3;
        } else if (strcmp(argv[i], "--doubles") == 0 && i + 1 < argc) {
            c->doubles = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
            c->csv = argv[++i];
        } else {
            fprintf(stderr,
                    "usage: %s [--quick] [--doubles N] [--csv FILE]\n",
                    argv[0]);
            return 2;
        }
    }
    if (c->doubles < 64) {
        fprintf(stderr, "bench_superstep: --doubles must be >= 64\n");
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct cfg c;
    sgl_runtime_t *rt;
    int rc = parse(argc, argv, &c);
    if (rc)
        return rc;
    if (sgl_init(&argc, &argv, NULL, &rt) ||
        sgl_task_register(rt, echo_word, "echo_word") ||
        sgl_task_register(rt, nothing, "nothing") ||
        sgl_task_register(rt, put_block, "put_block") ||
        sgl_task_register(rt, take_block, "take_block")) {
        fprintf(stderr, "bench_superstep: %s\n", sgl_error_last());
        return 1;
    }
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    const sgl_node_t *root = sgl_machine_root(m);
    int mpi = sgl_node_link(root) == SGL_LINK_MPI;
    int rank = sgl_runtime_rank(rt);
    const sgl_node_t *kid = sgl_node_arity(root) ? sgl_node_child(root, 0)
                                                 : NULL;
    int nested = !mpi && kid && sgl_node_arity(kid) > 0 &&
                 sgl_node_link(kid) == SGL_LINK_THREADS;
    double se[TRIALS], ss[TRIALS], sg[TRIALS], pe[TRIALS], ps[TRIALS],
        pg[TRIALS], sn[TRIALS], pn[TRIALS];
    for (int t = 0; t < TRIALS && !rc; t++) {
        if (rank == 0)
            fprintf(stderr, "\rbench_superstep: trial %d/%d", t + 1, TRIALS);
        struct results peer = {0}, mine = {0};
        if (mpi)
            mpi_peer(&c, &peer);
        else
            threads_peer(&c, sgl_node_arity(root), &peer);
        if (nested)
            peer.nested =
                nested_peer(&c, sgl_node_arity(root), sgl_node_arity(kid));
        struct sgl_arg a = {&c, &mine, t, nested};
        const struct sgl_arg *ap = &a;
        rc = sgl_run(rt, sgl_side, &ap, sizeof ap);
        se[t] = mine.empty, ss[t] = mine.scatter, sg[t] = mine.gather;
        pe[t] = peer.empty, ps[t] = peer.scatter, pg[t] = peer.gather;
        sn[t] = mine.nested, pn[t] = peer.nested;
    }
    if (rank == 0)
        fprintf(stderr, "\n");
    if (rc) {
        fprintf(stderr, "bench_superstep: %s\n", sgl_error_last());
        sgl_finalize(rt);
        return 1;
    }
    if (rank == 0) {
        const char *level = mpi ? "mpi" : "threads";
        const char *pe_name = mpi ? "mpi_scatterv_gatherv" : "omp_parallel_barrier";
        const char *ps_name = mpi ? "mpi_scatterv" : "memcpy";
        const char *pg_name = mpi ? "mpi_gatherv" : "memcpy";
        /* Every trial, before the medians sort the arrays. */
        if (c.csv) {
            const struct {
                const char *what, *peer;
                const double *sgl, *peer_t;
            } cases[] = {{"empty_superstep", pe_name, se, pe},
                         {"scatter_large_block", ps_name, ss, ps},
                         {"gather_large_block", pg_name, sg, pg},
                         {"nested_empty_superstep",
                          "omp_nested_parallel_barrier", sn, pn}};
            bench_csv_t f;
            char err[512];
            if (bench_csv_open(&f, c.csv,
                               "level,children,doubles,case,implementation,"
                               "trial,time_s",
                               0, err, sizeof err)) {
                fprintf(stderr, "bench_superstep: %s\n", err);
            } else {
                for (int k = 0; k < 3 + nested; k++)
                    for (int i = 0; i < 2 * TRIALS; i++) {
                        bench_csv_str(&f, level);
                        bench_csv_int(&f, sgl_node_arity(root));
                        bench_csv_int(&f, (long long)c.doubles);
                        bench_csv_str(&f, cases[k].what);
                        bench_csv_str(&f, i < TRIALS ? "sgl" : cases[k].peer);
                        bench_csv_int(&f, i % TRIALS + 1);
                        bench_csv_num(&f, i < TRIALS
                                              ? cases[k].sgl[i]
                                              : cases[k].peer_t[i - TRIALS]);
                        bench_csv_end(&f);
                    }
                if (bench_csv_close(&f))
                    fprintf(stderr, "bench_superstep: cannot write %s\n",
                            c.csv);
            }
        }
        struct {
            const char *what, *peer;
            double sgl, peer_t, goal;
        } row[] = {
            {"empty_superstep", pe_name, bench_median(se, TRIALS), bench_median(pe, TRIALS),
             1 / 1.5},
            {"scatter_large_block", ps_name, bench_median(ss, TRIALS),
             bench_median(ps, TRIALS), 0.8},
            {"gather_large_block", pg_name, bench_median(sg, TRIALS),
             bench_median(pg, TRIALS), 0.8},
            {"nested_empty_superstep", "omp_nested_parallel_barrier",
             bench_median(sn, TRIALS), bench_median(pn, TRIALS), 1 / 1.5},
        };
        printf("superstep cost, %s level, %u children, %zu doubles, median "
               "of %d trials (%s)\n",
               level, sgl_node_arity(root), c.doubles, TRIALS,
               sgl_machine_source(m));
        printf("%-22s %-28s %12s %12s %8s %6s %s\n", "case", "peer",
               "sgl [us]", "peer [us]", "ratio", "goal", "");
        for (size_t i = 0; i < 3 + (size_t)nested; i++) {
            double ratio = row[i].peer_t / row[i].sgl;
            printf("%-22s %-28s %12.2f %12.2f %8.3f %6.2f %s\n", row[i].what,
                   row[i].peer, 1e6 * row[i].sgl, 1e6 * row[i].peer_t, ratio,
                   row[i].goal, ratio >= row[i].goal ? "met" : "MISSED");
        }
    }
    sgl_finalize(rt);
    return 0;
}
