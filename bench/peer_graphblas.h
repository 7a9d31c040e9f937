/* PageRank with SuiteSparse:GraphBLAS, the third side of bench_pregel:
 * the library most PageRank users would reach for on one node. In one
 * process (rank 0 of bench_pregel's run), on as many threads as SGL has
 * workers. Built from peer_graphblas.c where meson finds GraphBLAS, else
 * from peer_graphblas_none.c, whose peer_grb_setup() says it is absent. */
#ifndef PEER_GRAPHBLAS_H
#define PEER_GRAPHBLAS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

typedef struct peer_grb peer_grb_t;

/* The Kronecker graph of (@scale, 16, @seed), the edges of
 * sgl_graph_kronecker_edges() with duplicates dropped (self-loops kept,
 * as SGL keeps them), as the transposed adjacency matrix, and its
 * out-degrees; GraphBLAS set to @threads threads. Untimed, as the hand
 * peer's set-up is. Writes what went wrong into @err.
 * @return 0, or 1 (GraphBLAS absent or failed; *@ret NULL). */
int peer_grb_setup(unsigned scale, uint64_t seed, int threads,
                   peer_grb_t **ret, char *err, size_t err_size);

/* @updates PageRank updates of NetworkX's iteration (damping @alpha,
 * dangling rank spread uniformly) from the uniform start, timed into
 * *@ret_seconds, and the process's CPU time (all threads) over them into
 * *@ret_cpu; the ranks into @ranks (2^scale doubles).
 * @return 0, or 1 with @err set. */
int peer_grb_pagerank(peer_grb_t *g, double alpha, unsigned updates,
                      double *ret_seconds, double *ret_cpu, double *ranks,
                      char *err, size_t err_size);

/* The CPU time this process has used, all its threads, in seconds: on a
 * loaded machine, what a side's threads did, less what they waited. */
static inline double peer_cpu_seconds(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u))
        return 0;
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/* The threads GraphBLAS runs on, and the version it reports, as
 * "SuiteSparse:GraphBLAS 7.4.0", into @buf. */
void peer_grb_describe(const peer_grb_t *g, char *buf, size_t size);

void peer_grb_free(peer_grb_t *g);

#endif
