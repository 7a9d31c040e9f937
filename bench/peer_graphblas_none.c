/* peer_graphblas.h where meson found no SuiteSparse:GraphBLAS: the peer
 * is left out, and says so (Debian: libgraphblas-dev, which .ci/setup
 * installs). */
#include <stdio.h>

#include "peer_graphblas.h"

int peer_grb_setup(unsigned scale, uint64_t seed, int threads,
                   peer_grb_t **ret, char *err, size_t err_size)
{
    (void)scale, (void)seed, (void)threads;
    *ret = NULL;
    snprintf(err, err_size, "SuiteSparse:GraphBLAS was not found when "
                            "bench_pregel was built (libgraphblas-dev)");
    return 1;
}

int peer_grb_pagerank(peer_grb_t *g, double alpha, unsigned updates,
                      double *ret_seconds, double *ret_cpu, double *ranks,
                      char *err, size_t err_size)
{
    (void)g, (void)alpha, (void)updates, (void)ranks;
    *ret_seconds = *ret_cpu = 0;
    snprintf(err, err_size, "SuiteSparse:GraphBLAS is absent");
    return 1;
}

void peer_grb_describe(const peer_grb_t *g, char *buf, size_t size)
{
    (void)g;
    snprintf(buf, size, "SuiteSparse:GraphBLAS (absent)");
}

void peer_grb_free(peer_grb_t *g) { (void)g; }
