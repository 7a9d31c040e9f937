/* Hand-written MPI peers of the Trasgo programs (bench_trasgo): what an
 * experienced MPI programmer writes for Heat 2D and Cannon, with the same
 * arithmetic as the SGL programs (examples/stencil_kernels.h), so that
 * results are bitwise comparable. */
#ifndef SGL_BENCH_PEERS_MPI_H
#define SGL_BENCH_PEERS_MPI_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

typedef struct peer_result {
    double seconds; /* the timed loop, the slowest rank's, on every rank */
    uint64_t check; /* XOR of kernel_check() over the result, every rank */
} peer_result_t;

/* @iters periodic Jacobi steps on n x n doubles from kernel_init(): a
 * periodic Cartesian communicator (MPI_Dims_create), blocks with a
 * one-element halo, MPI_Sendrecv halo exchange (columns as a vector type;
 * a local copy along a dimension of one process), the update in an OpenMP
 * parallel loop over rows (call MPI with at least MPI_THREAD_FUNNELED).
 * Times the steps only. Collective on @comm.
 * @return 0, or 1 (n below the grid's side or past int counts, out of
 * memory) with a message on rank 0's stderr. */
int peer_heat2d(MPI_Comm comm, size_t n, unsigned iters, peer_result_t *ret);

/* Cannon's C = A B on n x n doubles (cannon_a(), cannon_b()) over a
 * q x q periodic grid of processes, one (n/q)^2 tile each: the skew with
 * MPI_Sendrecv, then q tile_gemm() steps, each but the last with the
 * shifts of A and B in flight (MPI_Isend/MPI_Irecv into spare tiles).
 * Process (r, c) so sums over k = (r + c + s) mod q, s = 0, 1, ... Times
 * the skew and the steps. Collective on @comm.
 * @return 0, or 1 (not a square count, q not dividing n, a tile past int
 * counts, out of memory) with a message on rank 0's stderr. */
int peer_cannon(MPI_Comm comm, size_t n, peer_result_t *ret);

/* PageRank by hand, MPI + OpenMP, the way a fixed graph is usually
 * iterated: the Kronecker graph of (scale, 16, seed) cut into contiguous
 * vertex ranges as SGL cuts it; the communication pattern (which targets
 * each rank sends to each other rank) computed once, so that an
 * iteration sends only values, combined per (rank, target), in one
 * MPI_Alltoallv; sums gathered without atomics (per send slot and per
 * received target). @iters iterations of NetworkX's update from the
 * uniform start, timed (the set-up is not). ret->check is unused;
 * @ranks: at rank 0, NULL or room for the 2^scale ranks (the gather runs
 * either way, so every rank calls it alike).
 * @return 0, or 1 with a message on rank 0's stderr. */
int peer_pagerank(MPI_Comm comm, unsigned scale, uint64_t seed, double alpha,
                  unsigned iters, peer_result_t *ret, double *ranks);

#endif
