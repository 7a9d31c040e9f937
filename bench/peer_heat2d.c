/* Heat 2D by hand: MPI + OpenMP, the way it is usually written. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peers_mpi.h"
#include "stencil_kernels.h"

struct grid {
    MPI_Comm cart;
    int dims[2];
    int up, down, left, right; /* neighbours along rows and columns */
    size_t r0, rows, c0, cols; /* the block: global first row, count... */
    size_t ld;                 /* row length with the halo */
};

/* The global range [@n c / @g, @n (c + 1) / @g) of coordinate @c. */
static void block(size_t n, int g, int c, size_t *first, size_t *count)
{
    *first = n * (size_t)c / (size_t)g;
    *count = n * ((size_t)c + 1) / (size_t)g - *first;
}

/* The periodic process grid and this rank's block, or an error message. */
static const char *make_grid(MPI_Comm comm, size_t n, struct grid *g)
{
    int p, rank, me[2], periods[2] = {1, 1};
    MPI_Comm_size(comm, &p);
    g->dims[0] = g->dims[1] = 0;
    MPI_Dims_create(p, 2, g->dims);
    if (n < (size_t)g->dims[0] || n < (size_t)g->dims[1])
        return "fewer points per side than processes per side";
    /* Counts and strides are ints: the longest row with its halo must
     * fit (dims[1] is the smaller extent). */
    if (n / (size_t)g->dims[1] + 3 > (size_t)INT_MAX)
        return "blocks too large for MPI counts";
    MPI_Cart_create(comm, 2, g->dims, periods, 0, &g->cart);
    MPI_Comm_rank(g->cart, &rank);
    MPI_Cart_coords(g->cart, rank, 2, me);
    MPI_Cart_shift(g->cart, 0, 1, &g->up, &g->down);
    MPI_Cart_shift(g->cart, 1, 1, &g->left, &g->right);
    block(n, g->dims[0], me[0], &g->r0, &g->rows);
    block(n, g->dims[1], me[1], &g->c0, &g->cols);
    g->ld = g->cols + 2;
    return NULL;
}

#define AT(a, i, j) (a)[(size_t)(i) * g->ld + (size_t)(j)]

/* Rows 0 and rows + 1, columns 0 and cols + 1 of @a from the neighbours;
 * where a dimension has one process, a copy of the opposite edge (MPI to
 * itself would stage it through a buffer). Corners are not read. */
static void halo(const struct grid *g, double *a, MPI_Datatype column)
{
    size_t R = g->rows, C = g->cols;
    if (g->dims[0] == 1) {
        memcpy(&AT(a, 0, 1), &AT(a, R, 1), C * sizeof *a);
        memcpy(&AT(a, R + 1, 1), &AT(a, 1, 1), C * sizeof *a);
    } else {
        MPI_Sendrecv(&AT(a, 1, 1), (int)C, MPI_DOUBLE, g->up, 0,
                     &AT(a, R + 1, 1), (int)C, MPI_DOUBLE, g->down, 0,
                     g->cart, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&AT(a, R, 1), (int)C, MPI_DOUBLE, g->down, 1,
                     &AT(a, 0, 1), (int)C, MPI_DOUBLE, g->up, 1, g->cart,
                     MPI_STATUS_IGNORE);
    }
    if (g->dims[1] == 1) {
        for (size_t i = 1; i <= R; i++) {
            AT(a, i, 0) = AT(a, i, C);
            AT(a, i, C + 1) = AT(a, i, 1);
        }
    } else {
        MPI_Sendrecv(&AT(a, 1, 1), 1, column, g->left, 2, &AT(a, 1, C + 1), 1,
                     column, g->right, 2, g->cart, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&AT(a, 1, C), 1, column, g->right, 3, &AT(a, 1, 0), 1,
                     column, g->left, 3, g->cart, MPI_STATUS_IGNORE);
    }
}

/* Initial values inside, zeros in the halos, both arrays written by the
 * threads that update them (first touch places the pages, and no page
 * faults in the timed loop). */
static void init(const struct grid *g, size_t n, double *a, double *b)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < g->rows + 2; i++)
        for (size_t j = 0; j < g->ld; j++) {
            int in = i >= 1 && i <= g->rows && j >= 1 && j <= g->cols;
            AT(a, i, j) = in ? kernel_init((g->r0 + i - 1) * n + g->c0 + j - 1)
                             : 0.0;
            AT(b, i, j) = 0.0;
        }
}

/* @iters steps from @a; the result ends in the returned array. */
static double *steps(const struct grid *g, double *a, double *b,
                     unsigned iters, MPI_Datatype column)
{
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
    return a;
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
    const char *bad = make_grid(comm, n, g);
    if (bad) {
        if (rank == 0)
            fprintf(stderr, "peer_heat2d: n %zu: %s (grid %d x %d)\n", n,
                    bad, g->dims[0], g->dims[1]);
        return 1;
    }
    /* calloc checks the size's product; init() touches every page. */
    size_t cells = (g->rows + 2) * g->ld;
    double *a = calloc(cells, sizeof *a), *b = calloc(cells, sizeof *b);
    int ok = a && b, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, g->cart);
    if (!all) {
        free(a);
        free(b);
        MPI_Comm_free(&g->cart);
        if (rank == 0)
            fprintf(stderr, "peer_heat2d: out of memory for n %zu\n", n);
        return 1;
    }
    init(g, n, a, b);
    MPI_Datatype column;
    MPI_Type_vector((int)g->rows, 1, (int)g->ld, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    MPI_Barrier(g->cart);
    double t0 = MPI_Wtime();
    double *out = steps(g, a, b, iters, column);
    double dt = MPI_Wtime() - t0;
    MPI_Type_free(&column);
    MPI_Allreduce(&dt, &ret->seconds, 1, MPI_DOUBLE, MPI_MAX, g->cart);
    uint64_t mine = check(g, out, n);
    MPI_Allreduce(&mine, &ret->check, 1, MPI_UINT64_T, MPI_BXOR, g->cart);
    MPI_Comm_free(&g->cart);
    free(a);
    free(b);
    return 0;
}
