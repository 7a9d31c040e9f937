/* The hand-written MPI peers (peer_heat2d.c, peer_cannon.c) against
 * sequential references computed on rank 0 in the same run: the checksums
 * must be equal bit for bit, on every rank. Or, with --bench, their times.
 *
 *   bench_peers_check [--heat N] [--iters K] [--cannon N] [--bench]
 *
 * Without a size, the built-in cases: Heat 2D at sizes the process grid
 * does not divide, Cannon where the rank count is a square. --heat and
 * --cannon run that program at that size only (--iters: Heat's steps,
 * 20). --bench skips the references and prints the times (the defaults:
 * Heat 4096 for 20 steps, Cannon 2048).
 *
 * Exit status: 0 all equal, 1 a mismatch or a peer's refusal (its message
 * on stderr), 2 bad options. */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_env.h"
#include "peers_mpi.h"
#include "stencil_kernels.h"

enum prog { HEAT, CANNON };

struct run {
    enum prog prog;
    size_t n;
    unsigned iters; /* Heat's steps */
};

/* ---- the references, plain loops over the whole grid ---- */

static void heat_step(size_t n, const double *a, double *b)
{
    for (size_t i = 0; i < n; i++) {
        size_t up = (i + n - 1) % n, down = (i + 1) % n;
        for (size_t j = 0; j < n; j++) {
            size_t west = (j + n - 1) % n, east = (j + 1) % n;
            b[i * n + j] = heat2d_point(a[i * n + j], a[up * n + j],
                                        a[down * n + j], a[i * n + west],
                                        a[i * n + east]);
        }
    }
}

static int heat_reference(size_t n, unsigned iters, uint64_t *ret_check)
{
    double *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return 1;
    }
    for (size_t g = 0; g < n * n; g++)
        a[g] = kernel_init(g);
    for (unsigned t = 0; t < iters; t++) {
        heat_step(n, a, b);
        double *x = a;
        a = b;
        b = x;
    }
    uint64_t x = 0;
    for (size_t g = 0; g < n * n; g++)
        x ^= kernel_check(a[g], g);
    *ret_check = x;
    free(a);
    free(b);
    return 0;
}

/* Element (i, j) of a matrix stored as q x q row-major tiles of bs^2. */
static size_t tiled(size_t bs, size_t q, size_t i, size_t j)
{
    return ((i / bs) * q + j / bs) * bs * bs + (i % bs) * bs + j % bs;
}

/* Tile (i, j) of C sums over k = (i + j + s) mod q, s = 0, 1, ..., as
 * Cannon's process (i, j) does. */
static int cannon_reference(size_t n, size_t q, uint64_t *ret_check)
{
    size_t bs = n / q, t2 = bs * bs;
    double *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b);
    double *c = calloc(n * n, sizeof *c);
    if (!a || !b || !c) {
        free(a), free(b), free(c);
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            a[tiled(bs, q, i, j)] = cannon_a(n, i, j);
            b[tiled(bs, q, i, j)] = cannon_b(n, i, j);
        }
    for (size_t ti = 0; ti < q; ti++)
        for (size_t tj = 0; tj < q; tj++)
            for (size_t s = 0; s < q; s++) {
                size_t k = (ti + tj + s) % q;
                tile_gemm(c + (ti * q + tj) * t2, a + (ti * q + k) * t2,
                          b + (k * q + tj) * t2, bs);
            }
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            x ^= kernel_check(c[tiled(bs, q, i, j)], (uint64_t)i * n + j);
    *ret_check = x;
    free(a), free(b), free(c);
    return 0;
}

/* ---- running and comparing ---- */

/* The side of a square rank count, or 0. */
static size_t square_side(int p)
{
    for (size_t q = 1; q * q <= (size_t)p; q++)
        if (q * q == (size_t)p)
            return q;
    return 0;
}

static void describe(const struct run *r, char *buf, size_t len)
{
    if (r->prog == HEAT)
        snprintf(buf, len, "heat2d n %zu, %u steps", r->n, r->iters);
    else
        snprintf(buf, len, "cannon n %zu", r->n);
}

static int run_peer(const struct run *r, peer_result_t *ret)
{
    return r->prog == HEAT ? peer_heat2d(MPI_COMM_WORLD, r->n, r->iters, ret)
                           : peer_cannon(MPI_COMM_WORLD, r->n, ret);
}

/* Runs @r's peer and compares its checksum, on every rank, with the
 * reference's. 0 when equal everywhere, 1 otherwise (after a message). */
static int check_run(const struct run *r, int rank, int ranks)
{
    peer_result_t got;
    if (run_peer(r, &got))
        return 1;
    uint64_t want[2] = {0, 0}; /* computed, checksum */
    if (rank == 0)
        want[0] = r->prog == HEAT
                      ? !heat_reference(r->n, r->iters, &want[1])
                      : !cannon_reference(r->n, square_side(ranks), &want[1]);
    MPI_Bcast(want, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    int mine = want[0] && got.check == want[1], all;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0) {
        char what[64];
        describe(r, what, sizeof what);
        if (!want[0])
            fprintf(stderr, "bench_peers_check: %s: no memory for the "
                            "reference\n", what);
        else if (!all)
            fprintf(stderr, "bench_peers_check: %s: peer %016" PRIx64
                            " (rank 0), reference %016" PRIx64 "\n",
                    what, got.check, want[1]);
        else
            printf("  %-28s %016" PRIx64 "  equal\n", what, want[1]);
    }
    return !all;
}

static int summary(const char *prog, int failed, int cases, int rank)
{
    if (rank == 0)
        printf("%s: %d of %d cases bitwise equal to the reference\n", prog,
               cases - failed, cases);
    return failed != 0;
}

/* Uneven blocks on 2, 3 and 4 ranks, one point a side on 3 and 4, odd
 * and even step counts (the result ends in either array); the cases
 * smaller than the process grid are left out. */
static int check_heat_cases(int rank, int ranks)
{
    static const struct run cases[] = {
        {HEAT, 37, 5}, {HEAT, 37, 2}, {HEAT, 5, 3}, {HEAT, 3, 1}, {HEAT, 8, 0}};
    int dims[2] = {0, 0}, failed = 0, ran = 0;
    MPI_Dims_create(ranks, 2, dims);
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        if (cases[k].n >= (size_t)dims[0]) {
            failed += check_run(&cases[k], rank, ranks);
            ran++;
        }
    return summary("heat2d", failed, ran, rank);
}

/* Tiles of 1, 7 and 16 elements a side, where the rank count is a
 * square. */
static int check_cannon_cases(int rank, int ranks)
{
    static const size_t sides[] = {1, 7, 16};
    size_t q = square_side(ranks);
    int failed = 0;
    if (!q) {
        if (rank == 0)
            printf("cannon: %d ranks are not a square, not run\n", ranks);
        return 0;
    }
    for (size_t k = 0; k < sizeof sides / sizeof *sides; k++) {
        struct run r = {CANNON, q * sides[k], 0};
        failed += check_run(&r, rank, ranks);
    }
    return summary("cannon", failed, (int)(sizeof sides / sizeof *sides),
                   rank);
}

/* ---- timing ---- */

static int bench_run(const struct run *r, int rank, int ranks)
{
    peer_result_t got;
    if (run_peer(r, &got))
        return 1;
    if (rank == 0) {
        char what[64];
        describe(r, what, sizeof what);
        printf("  %-28s %d ranks x %d threads  %10.4f s", what, ranks,
               omp_get_max_threads(), got.seconds);
        if (r->prog == HEAT && r->iters)
            printf("  %10.3f ms per step", 1e3 * got.seconds / r->iters);
        printf("\n");
    }
    return 0;
}

/* ---- options ---- */

struct opts {
    size_t heat, cannon; /* sizes, 0: not given */
    unsigned iters;
    int bench;
};

static int parse(int argc, char **argv, struct opts *o)
{
    static const struct option lo[] = {
        {"heat", required_argument, 0, 'h'},
        {"iters", required_argument, 0, 'i'},
        {"cannon", required_argument, 0, 'c'},
        {"bench", no_argument, 0, 'b'},
        {0, 0, 0, 0}};
    int c, at;
    while ((c = getopt_long(argc, argv, "", lo, &at)) != -1) {
        char *end = NULL;
        unsigned long long v = optarg ? strtoull(optarg, &end, 10) : 0;
        if (c == '?')
            return 1;
        if (optarg && (*end || *optarg == '-' || v == 0 ||
                       (c == 'i' && v > UINT_MAX))) {
            fprintf(stderr, "bench_peers_check: --%s wants a positive "
                            "integer, not '%s'\n", lo[at].name, optarg);
            return 1;
        }
        if (c == 'h')
            o->heat = v;
        else if (c == 'i')
            o->iters = (unsigned)v;
        else if (c == 'c')
            o->cannon = v;
        else
            o->bench = 1;
    }
    if (optind < argc) {
        fprintf(stderr, "bench_peers_check: unexpected argument '%s'\n",
                argv[optind]);
        return 1;
    }
    return 0;
}

/* What was asked: the given sizes, else the built-in cases (checking) or
 * the default sizes (timing). */
static int dispatch(struct opts *o, int rank, int ranks)
{
    if (!o->heat && !o->cannon && !o->bench)
        return check_heat_cases(rank, ranks) |
               check_cannon_cases(rank, ranks);
    if (!o->heat && !o->cannon)
        o->heat = 4096, o->cannon = square_side(ranks) ? 2048 : 0;
    struct run heat = {HEAT, o->heat, o->iters}, cannon = {CANNON, o->cannon, 0};
    int (*run)(const struct run *, int, int) = o->bench ? bench_run
                                                        : check_run;
    int rc = 0;
    if (o->heat)
        rc |= run(&heat, rank, ranks);
    if (o->cannon)
        rc |= run(&cannon, rank, ranks);
    return rc;
}

int main(int argc, char **argv)
{
    bench_default_env();
    struct opts o = {0, 0, 20, 0};
    if (parse(argc, argv, &o))
        return 2;
    int provided, rank, ranks;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    int rc = 1;
    if (provided < MPI_THREAD_FUNNELED) {
        if (rank == 0)
            fprintf(stderr, "bench_peers_check: MPI lacks "
                            "MPI_THREAD_FUNNELED\n");
    } else {
        rc = dispatch(&o, rank, ranks);
    }
    MPI_Finalize();
    return rc;
}
