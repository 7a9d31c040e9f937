/* PageRank with SuiteSparse:GraphBLAS (peer_graphblas.h): the power
 * iteration as LAGraph writes it, each update
 *   w = x ./ d1         (d1 = max(d, 1), d the out-degrees: dense, as in
 *                        LAGraph's PageRank, so that mxv takes its
 *                        dot-product path over full vectors; a dangling
 *                        vertex's column of A' is empty, so its w is
 *                        never read)
 *   D = sum of x over the dangling vertices
 *   r = A' w            (mxv, PLUS_SECOND: the edge's value is not read)
 *   x = c + alpha r     (c = alpha D / n + (1 - alpha) / n)
 * The sums are plain double sums in GraphBLAS's order, so the ranks
 * differ from SGL's exact ones by rounding only (bench_pregel checks the
 * largest difference against a bound). */
#include <GraphBLAS.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>
#include <sgl/pregel.h>

#include "peer_graphblas.h"

struct peer_grb {
    GrB_Index n;
    int threads;
    GrB_Matrix at;    /* A': at(t, s) for every distinct edge s -> t */
    GrB_Vector d;     /* out-degrees, no entry where there is none */
    GrB_Vector d1;    /* max(d, 1), every entry present */
    GrB_Vector x, w, r, xs;
};

static int fail(char *err, size_t size, const char *what, GrB_Info info)
{
    snprintf(err, size, "GraphBLAS: %s failed (GrB_Info %d)", what,
             (int)info);
    return 1;
}

/* Try @call; on failure, name it in err and return 1. */
#define GRB_TRY(call)                                                         \
    do {                                                                      \
        GrB_Info info_ = (call);                                              \
        if (info_ != GrB_SUCCESS)                                             \
            return fail(err, err_size, #call, info_);                         \
    } while (0)

/* Edges drawn in pieces of this many, so that the root holds the index
 * arrays once, not a copy of the pairs besides. */
#define PIECE ((size_t)1 << 20)

/* A' from the drawn edges: targets are rows, sources columns; a
 * duplicate is one entry (iso build: every value is 1). */
static int build_at(struct peer_grb *g, unsigned scale, uint64_t seed,
                    char *err, size_t err_size)
{
    GrB_Index m = 16 * g->n;
    GrB_Index *rows = malloc(m * sizeof *rows), *cols = malloc(m * sizeof *cols);
    uint64_t (*e)[2] = malloc(PIECE * sizeof *e);
    int rc = !rows || !cols || !e;
    if (rc)
        snprintf(err, err_size, "out of memory for %llu edges",
                 (unsigned long long)m);
    for (GrB_Index k0 = 0; !rc && k0 < m; k0 += PIECE) {
        size_t c = m - k0 < PIECE ? (size_t)(m - k0) : PIECE;
        rc = sgl_graph_kronecker_edges(scale, 16, seed, k0, c, e) != SGL_OK;
        for (size_t k = 0; !rc && k < c; k++) {
            rows[k0 + k] = e[k][1];
            cols[k0 + k] = e[k][0];
        }
        if (rc)
            snprintf(err, err_size, "%s", sgl_error_last());
    }
    free(e);
    GrB_Scalar one = NULL;
    GrB_Info info = rc ? GrB_SUCCESS : GrB_Scalar_new(&one, GrB_FP64);
    if (!rc && info == GrB_SUCCESS)
        info = GrB_Scalar_setElement_FP64(one, 1.0);
    if (!rc && info == GrB_SUCCESS)
        info = GrB_Matrix_new(&g->at, GrB_FP64, g->n, g->n);
    if (!rc && info == GrB_SUCCESS)
        info = GxB_Matrix_build_Scalar(g->at, rows, cols, one, m);
    if (!rc && info != GrB_SUCCESS)
        rc = fail(err, err_size, "building A'", info);
    GrB_Scalar_free(&one);
    free(rows), free(cols);
    return rc;
}

int peer_grb_setup(unsigned scale, uint64_t seed, int threads,
                   peer_grb_t **ret, char *err, size_t err_size)
{
    *ret = NULL;
    struct peer_grb *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, err_size, "out of memory");
        return 1;
    }
    g->n = (GrB_Index)1 << scale;
    g->threads = threads;
    GrB_Info info = GrB_init(GrB_NONBLOCKING);
    if (info == GrB_SUCCESS)
        info = GxB_Global_Option_set(GxB_NTHREADS, threads);
    int rc = info != GrB_SUCCESS ? fail(err, err_size, "GrB_init", info)
                                 : build_at(g, scale, seed, err, err_size);
    /* the out-degree of s: the entries of column s of A' */
    if (!rc)
        rc = GrB_Vector_new(&g->d, GrB_FP64, g->n) ||
             GrB_Matrix_reduce_Monoid(g->d, NULL, NULL, GrB_PLUS_MONOID_FP64,
                                      g->at, GrB_DESC_T0) ||
             GrB_Vector_new(&g->d1, GrB_FP64, g->n) ||
             GrB_Vector_assign_FP64(g->d1, NULL, NULL, 1.0, GrB_ALL, g->n,
                                    NULL) ||
             GrB_Vector_assign(g->d1, g->d, GrB_MAX_FP64, g->d, GrB_ALL, g->n,
                               NULL) ||
             GrB_Vector_new(&g->x, GrB_FP64, g->n) ||
             GrB_Vector_new(&g->w, GrB_FP64, g->n) ||
             GrB_Vector_new(&g->r, GrB_FP64, g->n) ||
             GrB_Vector_new(&g->xs, GrB_FP64, g->n) ||
             GrB_Matrix_wait(g->at, GrB_MATERIALIZE) ||
             GrB_Vector_wait(g->d, GrB_MATERIALIZE) ||
             GrB_Vector_wait(g->d1, GrB_MATERIALIZE);
    if (rc && !err[0])
        snprintf(err, err_size, "GraphBLAS: the degrees or vectors failed");
    if (rc) {
        peer_grb_free(g);
        return 1;
    }
    *ret = g;
    return 0;
}

/* One update of x (peer_graphblas.c's first comment). */
static int update(struct peer_grb *g, double alpha, char *err,
                  size_t err_size)
{
    double dangling = 0, nd = (double)g->n;
    GRB_TRY(GrB_Vector_eWiseMult_BinaryOp(g->w, NULL, NULL, GrB_DIV_FP64, g->x,
                                      g->d1, GrB_DESC_R));
    /* x where d has no entry: the structure of d, complemented */
    GRB_TRY(GrB_Vector_apply(g->xs, g->d, NULL, GrB_IDENTITY_FP64, g->x,
                         GrB_DESC_RSC));
    GRB_TRY(GrB_Vector_reduce_FP64(&dangling, NULL, GrB_PLUS_MONOID_FP64, g->xs,
                               NULL));
    GRB_TRY(GrB_mxv(g->r, NULL, NULL, GxB_PLUS_SECOND_FP64, g->at, g->w,
                GrB_DESC_R));
    double c = alpha * dangling / nd + (1.0 - alpha) / nd;
    GRB_TRY(GrB_Vector_assign_FP64(g->x, NULL, NULL, c, GrB_ALL, g->n, NULL));
    GRB_TRY(GrB_Vector_apply_BinaryOp2nd_FP64(g->x, NULL, GrB_PLUS_FP64,
                                          GrB_TIMES_FP64, g->r, alpha, NULL));
    return 0;
}

int peer_grb_pagerank(peer_grb_t *g, double alpha, unsigned updates,
                      double *ret_seconds, double *ret_cpu, double *ranks,
                      char *err, size_t err_size)
{
    GRB_TRY(GrB_Vector_assign_FP64(g->x, NULL, NULL, 1.0 / (double)g->n, GrB_ALL,
                               g->n, NULL));
    GRB_TRY(GrB_Vector_wait(g->x, GrB_MATERIALIZE));
    double t0 = MPI_Wtime(), c0 = peer_cpu_seconds();
    for (unsigned k = 0; k < updates; k++)
        if (update(g, alpha, err, err_size))
            return 1;
    GRB_TRY(GrB_Vector_wait(g->x, GrB_MATERIALIZE));
    *ret_seconds = MPI_Wtime() - t0;
    *ret_cpu = peer_cpu_seconds() - c0;
    GrB_Index nv = g->n;
    GrB_Index *idx = malloc(g->n * sizeof *idx);
    double *val = malloc(g->n * sizeof *val);
    GrB_Info info = idx && val ? GrB_Vector_extractTuples_FP64(idx, val, &nv,
                                                               g->x)
                               : GrB_OUT_OF_MEMORY;
    for (GrB_Index k = 0; info == GrB_SUCCESS && k < nv; k++)
        ranks[idx[k]] = val[k];
    free(idx), free(val);
    if (info != GrB_SUCCESS || nv != g->n)
        return fail(err, err_size, "reading the ranks", info);
    return 0;
}

void peer_grb_describe(const peer_grb_t *g, char *buf, size_t size)
{
    snprintf(buf, size, "SuiteSparse:GraphBLAS %d.%d.%d, %d threads",
             GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR,
             GxB_IMPLEMENTATION_SUB, g ? g->threads : 0);
}

void peer_grb_free(peer_grb_t *g)
{
    if (!g)
        return;
    GrB_Matrix_free(&g->at);
    GrB_Vector_free(&g->d);
    GrB_Vector_free(&g->d1);
    GrB_Vector_free(&g->x);
    GrB_Vector_free(&g->w);
    GrB_Vector_free(&g->r);
    GrB_Vector_free(&g->xs);
    free(g);
    GrB_finalize();
}
