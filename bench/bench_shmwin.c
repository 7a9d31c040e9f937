/* Does an MPI-3 shared-memory window pay for a root array's scatter
 * between ranks of one host (issue 47, item 1)? The root rank holds n
 * doubles; every rank sums its part and the root gets the total:
 *   messages  today's MPI level: MPI_Scatterv of the parts (the root
 *             keeps its own in place), a local sum, MPI_Reduce
 *   shmwin    the array lives in a window from MPI_Win_allocate_shared
 *             on the root; the other ranks read their parts where they
 *             lie (MPI_Win_shared_query) after a barrier, a local sum,
 *             MPI_Reduce
 *   shmwin+copy  the same, but the root first copies its array into the
 *             window, as a runtime would have to for an array the user
 *             allocated (what adopting the window inside the MPI level
 *             costs when the user's array is not already in one)
 * Every repetition times the three in turn, in an order that rotates, on
 * the root from a barrier to the reduced total; medians, min and max of
 * the repetitions, and each one's median over messages' median. Every
 * total is checked exactly (the elements are multiples of 0.5 below 500)
 * and a wrong one fails the run: the test suite runs it at small sizes
 * for that.
 *   mpirun -n 2 bench_shmwin [--sizes N,N...] [--reps R>=3]
 * Default sizes 1e6,1e7,1e8 and 9 repetitions. All ranks must share one
 * host (MPI_COMM_TYPE_SHARED must hold them all); otherwise it says so
 * and exits 77. */
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

enum { MAX_REPS = 99, MAX_SIZES = 8, NWAYS = 3 };
static const char *const way_names[NWAYS] = {"messages", "shmwin",
                                             "shmwin+copy"};

struct run {
    int rank, size;
    size_t n;
    const double *x;   /* the user's array, root only */
    MPI_Win win;       /* the shared window, locked for the whole size */
    double *win_base;  /* the window's array, every rank's view of it */
    double *part;      /* messages: this rank's received part */
    int *counts, *displs;
    double t[NWAYS][MAX_REPS];
};

/* Rank @r's part of n elements: [first, first + count). */
static void part_of(const struct run *R, int r, size_t *first, size_t *count)
{
    size_t each = R->n / (size_t)R->size, extra = R->n % (size_t)R->size;
    size_t ru = (size_t)r;
    *first = ru * each + (ru < extra ? ru : extra);
    *count = each + (ru < extra);
}

static double sum(const double *a, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += a[i];
    return s;
}

/* The total of one way, on the root (0 elsewhere). */
static double one_way(struct run *R, int way)
{
    size_t first, count;
    part_of(R, R->rank, &first, &count);
    const double *mine;
    if (way == 0) {
        /* The root's own part stays in place, as the runtime's does. */
        MPI_Scatterv(R->x, R->counts, R->displs, MPI_DOUBLE,
                     R->rank ? R->part : MPI_IN_PLACE, (int)count,
                     MPI_DOUBLE, 0, MPI_COMM_WORLD);
        mine = R->rank ? R->part : R->x + first;
    } else {
        if (way == 2 && R->rank == 0)
            memcpy(R->win_base, R->x, R->n * sizeof *R->x);
        /* MPI-3's recipe for a shared window read by others: the
         * writer's sync, a barrier, the readers' sync. */
        MPI_Win_sync(R->win);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_sync(R->win);
        mine = R->win_base + first;
    }
    double s = sum(mine, count), total = 0;
    MPI_Reduce(&s, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return total;
}

/* Repetition @r (-1: untimed) of the three ways; 0, or 1 if a total was
 * wrong. */
static int repetition(struct run *R, int r, double want)
{
    int bad = 0;
    for (int j = 0; j < NWAYS; j++) {
        int way = (j + (r < 0 ? 0 : r)) % NWAYS;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = bench_now();
        double got = one_way(R, way);
        double t = bench_now() - t0;
        if (R->rank == 0 && got != want) {
            fprintf(stderr, "bench_shmwin: n=%zu: %s gave %.17g, expected "
                            "%.17g\n", R->n, way_names[way], got, want);
            bad = 1;
        }
        if (r >= 0)
            R->t[way][r] = t;
    }
    return bad;
}

static void report(const struct run *R, int reps)
{
    double med[NWAYS];
    for (int w = 0; w < NWAYS; w++) {
        double v[MAX_REPS];
        memcpy(v, R->t[w], (size_t)reps * sizeof *v);
        med[w] = bench_median(v, reps);
        printf("%-6.0e %-12s %9.3f %9.3f %9.3f   %6.2f\n", (double)R->n,
               way_names[w], 1e3 * med[w], 1e3 * v[0], 1e3 * v[reps - 1],
               med[0] / med[w]);
    }
    fflush(stdout);
}

/* One size: the window, the parts, the repetitions. 0, 1 (wrong total)
 * or 2 (no memory). */
static int run_size(struct run *R, MPI_Comm node, int reps)
{
    MPI_Aint bytes = R->rank == 0 ? (MPI_Aint)(R->n * sizeof(double)) : 0;
    double *base = NULL;
    MPI_Win_allocate_shared(bytes, sizeof(double), MPI_INFO_NULL, node, &base,
                            &R->win);
    MPI_Aint qsize;
    int disp;
    MPI_Win_shared_query(R->win, 0, &qsize, &disp, &R->win_base);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, R->win);
    size_t first, count;
    part_of(R, R->rank, &first, &count);
    R->part = malloc((count ? count : 1) * sizeof *R->part);
    int ok = R->part != NULL, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    int rc = all ? 0 : 2;
    if (R->rank == 0 && all)
        memcpy(R->win_base, R->x, R->n * sizeof *R->x);
    for (int r = 0; r < R->size; r++) {
        size_t f, c;
        part_of(R, r, &f, &c);
        R->counts[r] = (int)c;
        R->displs[r] = (int)f;
    }
    double want = 0;
    if (R->rank == 0)
        want = sum(R->x, R->n);
    int bad = 0;
    for (int r = -1; !rc && r < reps; r++)
        bad |= repetition(R, r, want);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!rc && bad)
        rc = 1;
    if (!rc && R->rank == 0)
        report(R, reps);
    free(R->part);
    MPI_Win_unlock_all(R->win);
    MPI_Win_free(&R->win);
    return rc;
}

/* "N,N,..." into @ns: the count, or -1. */
static int parse_sizes(const char *arg, size_t *ns)
{
    int nn = 0;
    for (const char *p = arg; *p;) {
        char *end;
        double v = strtod(p, &end);
        /* int counts and displacements of MPI_Scatterv */
        if (end == p || (*end && *end != ',') || !(v >= 1 && v <= 1e9) ||
            nn == MAX_SIZES)
            return -1;
        ns[nn++] = (size_t)v;
        p = *end ? end + 1 : end;
    }
    return nn;
}

static int parse(int argc, char **argv, size_t *ns, int *nn, int *reps)
{
    static const struct option longs[] = {{"sizes", required_argument, 0, 'z'},
                                          {"reps", required_argument, 0, 'r'},
                                          {"help", no_argument, 0, 'h'},
                                          {0, 0, 0, 0}};
    int opt;
    char *end;
    while ((opt = getopt_long(argc, argv, "z:r:h", longs, NULL)) != -1) {
        if (opt == 'z') {
            if ((*nn = parse_sizes(optarg, ns)) < 0) {
                fprintf(stderr, "bench_shmwin: --sizes wants at most %d "
                                "counts from 1 to 1e9 (1e6,1e7)\n",
                        MAX_SIZES);
                return 2;
            }
        } else if (opt == 'r') {
            *reps = (int)strtol(optarg, &end, 10);
            if (*end || *reps < 3 || *reps > MAX_REPS) {
                fprintf(stderr, "bench_shmwin: --reps wants 3 to %d\n",
                        MAX_REPS);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: mpirun -n 2 bench_shmwin [--sizes N,N...] "
                            "[--reps R>=3]\n");
            return opt == 'h' ? 1 : 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "bench_shmwin: unexpected '%s'\n", argv[optind]);
        return 2;
    }
    return 0;
}

/* Every rank on one host, or 77 (a skip) with the reason. */
static int one_host(MPI_Comm *node, int rank, int size)
{
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, node);
    int nsize;
    MPI_Comm_size(*node, &nsize);
    if (nsize == size)
        return 0;
    if (rank == 0)
        fprintf(stderr, "bench_shmwin: SKIP: %d of %d ranks share the "
                        "root's host; a shared window needs them all\n",
                nsize, size);
    MPI_Comm_free(node);
    return 77;
}

static int run_all(struct run *R, MPI_Comm node, const size_t *ns, int nn,
                   int reps)
{
    size_t max = 0;
    for (int i = 0; i < nn; i++)
        max = ns[i] > max ? ns[i] : max;
    double *x = NULL;
    int ok = 1, all;
    if (R->rank == 0) {
        x = malloc(max * sizeof *x);
        ok = x != NULL;
        for (size_t i = 0; ok && i < max; i++)
            x[i] = (double)(i % 1000) * 0.5;
    }
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    int rc = all ? 0 : 2;
    R->x = x;
    if (!rc && R->rank == 0)
        printf("# %d ranks on one host; root array of doubles summed; "
               "medians of %d in ms, min-max; speed = messages / this "
               "(> 1: faster than messages)\n%-6s %-12s %9s %9s %9s   %6s\n",
               R->size, reps, "n", "way", "median", "min", "max", "speed");
    for (int i = 0; i < nn && !rc; i++) {
        R->n = ns[i];
        rc = run_size(R, node, reps);
    }
    if (rc == 2 && R->rank == 0)
        fprintf(stderr, "bench_shmwin: out of memory\n");
    free(x);
    return rc;
}

int main(int argc, char **argv)
{
    size_t ns[MAX_SIZES] = {1000000, 10000000, 100000000};
    int nn = 3, reps = 9;
    int rc = parse(argc, argv, ns, &nn, &reps);
    if (rc)
        return rc == 1 ? 0 : rc;
    MPI_Init(&argc, &argv);
    struct run R = {0};
    MPI_Comm_rank(MPI_COMM_WORLD, &R.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &R.size);
    MPI_Comm node;
    rc = one_host(&node, R.rank, R.size);
    if (!rc) {
        R.counts = malloc((size_t)R.size * sizeof *R.counts);
        R.displs = malloc((size_t)R.size * sizeof *R.displs);
        rc = R.counts && R.displs ? run_all(&R, node, ns, nn, reps) : 2;
        free(R.counts);
        free(R.displs);
        MPI_Comm_free(&node);
    }
    MPI_Finalize();
    return rc;
}
