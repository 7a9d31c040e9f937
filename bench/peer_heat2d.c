/* Heat 2D by hand: MPI + OpenMP, the way it is usually written. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "peers_mpi.h"
#include "stencil_kernels.h"

struct grid {
    MPI_Comm cart;
    int dims[2], coords[2];
    int up, down, left, right; /* neighbours along rows and columns */
    size_t r0, rows, c0, cols; /* the block: global first row, count... */
    size_t ld;                 /* row length with the halo */
};

static int make_grid(MPI_Comm comm, size_t n, struct grid *g)
{
    int p, periods[2] = {1, 1};
    MPI_Comm_size(comm, &p);
    g->dims[0] = g->dims[1] = 0;
    MPI_Dims_create(p, 2, g->dims);
    if (n < (size_t)g->dims[0] || n < (size_t)g->dims[1])
        return 1;
    MPI_Cart_create(comm, 2, g->dims, periods, 0, &g->cart);
    int rank;
    MPI_Comm_rank(g->cart, &rank);
    MPI_Cart_coords(g->cart, rank, 2, g->coords);
    MPI_Cart_shift(g->cart, 0, 1, &g->up, &g->down);
    MPI_Cart_shift(g->cart, 1, 1, &g->left, &g->right);
    size_t d0 = (size_t)g->dims[0], d1 = (size_t)g->dims[1];
    size_t c0 = (size_t)g->coords[0], c1 = (size_t)g->coords[1];
    g->r0 = n * c0 / d0;
    g->rows = n * (c0 + 1) / d0 - g->r0;
    g->c0 = n * c1 / d1;
    g->cols = n * (c1 + 1) / d1 - g->c0;
    g->ld = g->cols + 2;
    return 0;
}

#define AT(a, i, j) (a)[(size_t)(i) * g->ld + (size_t)(j)]

/* Rows 0 and rows + 1, columns 0 and cols + 1 of @a from the neighbours
 * (a copy of the own edge where a dimension has one process). */
static void halo(const struct grid *g, double *a, MPI_Datatype column)
{
    size_t R = g->rows, C = g->cols;
    MPI_Sendrecv(&AT(a, 1, 1), (int)C, MPI_DOUBLE, g->up, 0, &AT(a, R + 1, 1),
                 (int)C, MPI_DOUBLE, g->down, 0, g->cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(a, R, 1), (int)C, MPI_DOUBLE, g->down, 1, &AT(a, 0, 1),
                 (int)C, MPI_DOUBLE, g->up, 1, g->cart, MPI_STATUS_IGNORE);
    if (g->dims[1] == 1) {
        for (size_t i = 1; i <= R; i++) {
            AT(a, i, 0) = AT(a, i, C);
            AT(a, i, C + 1) = AT(a, i, 1);
        }
        return;
    }
    MPI_Sendrecv(&AT(a, 1, 1), 1, column, g->left, 2, &AT(a, 1, C + 1), 1,
                 column, g->right, 2, g->cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&AT(a, 1, C), 1, column, g->right, 3, &AT(a, 1, 0), 1,
                 column, g->left, 3, g->cart, MPI_STATUS_IGNORE);
}

static uint64_t check(const struct grid *g, const double *a, size_t n)
{
    uint64_t x = 0;
    for (size_t i = 0; i < g->rows; i++)
        for (size_t j = 0; j < g->cols; j++)
            x ^= kernel_check(AT(a, i + 1, j + 1),
                              (g->r0 + i) * n + g->c0 + j);
    return x;
}

int peer_heat2d(MPI_Comm comm, size_t n, unsigned iters, peer_result_t *ret)
{
    struct grid gg, *g = &gg;
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (make_grid(comm, n, g)) {
        if (rank == 0)
            fprintf(stderr, "peer_heat2d: %zu points per side is fewer than "
                            "processes per side\n", n);
        return 1;
    }
    size_t cells = (g->rows + 2) * g->ld;
    double *a = malloc(cells * sizeof *a), *b = malloc(cells * sizeof *b);
    int ok = a && b, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, comm);
    if (!all) {
        free(a);
        free(b);
        MPI_Comm_free(&g->cart);
        if (rank == 0)
            fprintf(stderr, "peer_heat2d: out of memory\n");
        return 1;
    }
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < g->rows + 2; i++)
        for (size_t j = 0; j < g->ld; j++) {
            int in = i >= 1 && i <= g->rows && j >= 1 && j <= g->cols;
            AT(a, i, j) = in ? kernel_init((g->r0 + i - 1) * n + g->c0 + j - 1)
                             : 0.0;
            AT(b, i, j) = 0.0;
        }
    MPI_Datatype column;
    MPI_Type_vector((int)g->rows, 1, (int)g->ld, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    MPI_Barrier(g->cart);
    double t0 = MPI_Wtime();
    for (unsigned t = 0; t < iters; t++) {
        halo(g, a, column);
#pragma omp parallel for schedule(static)
        for (size_t i = 1; i <= g->rows; i++)
            heat2d_row(&AT(b, i, 1), &AT(a, i - 1, 1), &AT(a, i, 1),
                       &AT(a, i + 1, 1), g->cols);
        double *x = a;
        a = b;
        b = x;
    }
    double dt = MPI_Wtime() - t0;
    MPI_Allreduce(&dt, &ret->seconds, 1, MPI_DOUBLE, MPI_MAX, g->cart);
    uint64_t mine = check(g, a, n);
    MPI_Allreduce(&mine, &ret->check, 1, MPI_UINT64_T, MPI_BXOR, g->cart);
    MPI_Type_free(&column);
    MPI_Comm_free(&g->cart);
    free(a);
    free(b);
    return 0;
}
