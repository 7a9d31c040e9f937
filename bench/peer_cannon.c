/* Cannon's algorithm by hand, as in the textbooks: a q x q periodic
 * process grid, one tile of A, B and C per process, the initial skew, then
 * q multiplies with a shift of A left and B up between them. Each shift
 * is posted before the multiply it follows, into spare tiles, so that a
 * network that moves data by itself hides it behind the multiply. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "peers_mpi.h"
#include "stencil_kernels.h"

/* The side of the square process grid, or 0. */
static int side(int p)
{
    for (int q = 1; q * q <= p; q++)
        if (q * q == p)
            return q;
    return 0;
}

/* Why @p processes cannot multiply n x n matrices, or NULL. */
static const char *refusal(int p, size_t n)
{
    int q = side(p);
    if (!q)
        return "needs a square number of processes (q x q)";
    if (n == 0 || n % (size_t)q)
        return "needs n a positive multiple of the grid side q";
    size_t bs = n / (size_t)q;
    if (bs > (size_t)INT_MAX / bs)
        return "tiles too large for MPI counts";
    return NULL;
}

struct tiles {
    double *a, *b, *c; /* this process's tiles */
    double *a2, *b2;   /* where the next A and B arrive */
    size_t bs;
    int count; /* doubles in a tile */
};

/* Replace *@t by the tile from @src while sending it to @dst. */
static void exchange(MPI_Comm cart, int src, int dst, double **t,
                     double **spare, int count)
{
    MPI_Sendrecv(*t, count, MPI_DOUBLE, dst, 0, *spare, count, MPI_DOUBLE,
                 src, 0, cart, MPI_STATUS_IGNORE);
    double *x = *t;
    *t = *spare;
    *spare = x;
}

/* The skew: row r of A moves r places left, column c of B c places up. */
static void skew(MPI_Comm cart, const int me[2], struct tiles *t)
{
    int src, dst;
    if (me[0]) {
        MPI_Cart_shift(cart, 1, -me[0], &src, &dst);
        exchange(cart, src, dst, &t->a, &t->a2, t->count);
    }
    if (me[1]) {
        MPI_Cart_shift(cart, 0, -me[1], &src, &dst);
        exchange(cart, src, dst, &t->b, &t->b2, t->count);
    }
}

/* q multiplies; the q - 1 shifts in flight during the multiplies. */
static void multiply(MPI_Comm cart, int q, struct tiles *t)
{
    int right, left, below, above;
    MPI_Cart_shift(cart, 1, -1, &right, &left);
    MPI_Cart_shift(cart, 0, -1, &below, &above);
    for (int s = 1; s < q; s++) {
        MPI_Request rq[4];
        MPI_Irecv(t->a2, t->count, MPI_DOUBLE, right, 0, cart, &rq[0]);
        MPI_Irecv(t->b2, t->count, MPI_DOUBLE, below, 1, cart, &rq[1]);
        MPI_Isend(t->a, t->count, MPI_DOUBLE, left, 0, cart, &rq[2]);
        MPI_Isend(t->b, t->count, MPI_DOUBLE, above, 1, cart, &rq[3]);
        tile_gemm(t->c, t->a, t->b, t->bs); /* reads the send buffers */
        MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
        double *x = t->a;
        t->a = t->a2, t->a2 = x;
        x = t->b;
        t->b = t->b2, t->b2 = x;
    }
    tile_gemm(t->c, t->a, t->b, t->bs);
}

/* A and B's tiles at (@r0, @c0), zeros elsewhere: every page is touched
 * here, so that none faults in the timed part. */
static void init(size_t n, size_t r0, size_t c0, struct tiles *t)
{
    size_t bs = t->bs;
    for (size_t i = 0; i < bs; i++)
        for (size_t j = 0; j < bs; j++) {
            size_t e = i * bs + j;
            t->a[e] = cannon_a(n, r0 + i, c0 + j);
            t->b[e] = cannon_b(n, r0 + i, c0 + j);
            t->c[e] = t->a2[e] = t->b2[e] = 0.0;
        }
}

static uint64_t check(size_t n, size_t r0, size_t c0, const struct tiles *t)
{
    uint64_t x = 0;
    for (size_t i = 0; i < t->bs; i++)
        for (size_t j = 0; j < t->bs; j++)
            x ^= kernel_check(t->c[i * t->bs + j], (r0 + i) * n + c0 + j);
    return x;
}

int peer_cannon(MPI_Comm comm, size_t n, peer_result_t *ret)
{
    int p, rank;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &rank);
    const char *bad = refusal(p, n);
    if (bad) {
        if (rank == 0)
            fprintf(stderr, "peer_cannon: %d processes, n %zu: %s\n", p, n,
                    bad);
        return 1;
    }
    int q = side(p), dims[2] = {q, q}, periods[2] = {1, 1}, me[2];
    MPI_Comm cart;
    MPI_Cart_create(comm, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 2, me);
    struct tiles t = {.bs = n / (size_t)q};
    t.count = (int)(t.bs * t.bs);
    double *mem = malloc(5 * (size_t)t.count * sizeof *mem);
    int ok = mem != NULL, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, cart);
    if (!all) {
        free(mem);
        MPI_Comm_free(&cart);
        if (rank == 0)
            fprintf(stderr, "peer_cannon: out of memory for n %zu\n", n);
        return 1;
    }
    t.a = mem, t.b = t.a + t.count, t.c = t.b + t.count;
    t.a2 = t.c + t.count, t.b2 = t.a2 + t.count;
    size_t r0 = (size_t)me[0] * t.bs, c0 = (size_t)me[1] * t.bs;
    init(n, r0, c0, &t);
    MPI_Barrier(cart);
    double t0 = MPI_Wtime();
    skew(cart, me, &t);
    multiply(cart, q, &t);
    double dt = MPI_Wtime() - t0;
    MPI_Allreduce(&dt, &ret->seconds, 1, MPI_DOUBLE, MPI_MAX, cart);
    uint64_t x = check(n, r0, c0, &t);
    MPI_Allreduce(&x, &ret->check, 1, MPI_UINT64_T, MPI_BXOR, cart);
    free(mem);
    MPI_Comm_free(&cart);
    return 0;
}
