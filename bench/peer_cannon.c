/* Cannon's algorithm by hand, as in the textbooks: a q x q periodic
 * process grid, one tile per process, skew, then q multiply-and-shift
 * steps with MPI_Sendrecv_replace. */
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

/* Move @tile @by places along dimension @dim of the grid (negative: from
 * the higher neighbour). */
static void shift(MPI_Comm cart, int dim, int by, double *tile, int count)
{
    int src, dst;
    MPI_Cart_shift(cart, dim, by, &src, &dst);
    MPI_Sendrecv_replace(tile, count, MPI_DOUBLE, dst, 0, src, 0, cart,
                         MPI_STATUS_IGNORE);
}

int peer_cannon(MPI_Comm comm, size_t n, peer_result_t *ret)
{
    int p, rank;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &rank);
    int q = side(p);
    if (!q || n % (size_t)q) {
        if (rank == 0)
            fprintf(stderr, "peer_cannon: needs a square number of processes "
                            "whose side divides n (%d processes, n %zu)\n",
                    p, n);
        return 1;
    }
    int dims[2] = {q, q}, periods[2] = {1, 1}, me[2];
    MPI_Comm cart;
    MPI_Cart_create(comm, 2, dims, periods, 0, &cart);
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 2, me);
    size_t bs = n / (size_t)q, t2 = bs * bs;
    double *a = malloc(t2 * sizeof *a), *b = malloc(t2 * sizeof *b);
    double *c = calloc(t2, sizeof *c);
    int ok = a && b && c, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, cart);
    if (!all) {
        free(a), free(b), free(c);
        MPI_Comm_free(&cart);
        if (rank == 0)
            fprintf(stderr, "peer_cannon: out of memory\n");
        return 1;
    }
    size_t r0 = (size_t)me[0] * bs, c0 = (size_t)me[1] * bs;
    for (size_t i = 0; i < bs; i++)
        for (size_t j = 0; j < bs; j++) {
            a[i * bs + j] = cannon_a(n, r0 + i, c0 + j);
            b[i * bs + j] = cannon_b(n, r0 + i, c0 + j);
        }
    MPI_Barrier(cart);
    double t0 = MPI_Wtime();
    if (me[0]) /* row r of A moves r places left */
        shift(cart, 1, -me[0], a, (int)t2);
    if (me[1]) /* column c of B moves c places up */
        shift(cart, 0, -me[1], b, (int)t2);
    for (int s = 0; s < q; s++) {
        tile_gemm(c, a, b, bs);
        if (s + 1 < q) {
            shift(cart, 1, -1, a, (int)t2);
            shift(cart, 0, -1, b, (int)t2);
        }
    }
    double dt = MPI_Wtime() - t0;
    MPI_Allreduce(&dt, &ret->seconds, 1, MPI_DOUBLE, MPI_MAX, cart);
    uint64_t x = 0;
    for (size_t i = 0; i < bs; i++)
        for (size_t j = 0; j < bs; j++)
            x ^= kernel_check(c[i * bs + j], (r0 + i) * n + c0 + j);
    MPI_Allreduce(&x, &ret->check, 1, MPI_UINT64_T, MPI_BXOR, cart);
    free(a), free(b), free(c);
    MPI_Comm_free(&cart);
    return 0;
}
