/* The sort benchmarks' peers, each on doubles in place, with C linkage:
 * the strongest shared-memory sorts Debian packages, built in their own
 * static library with the flags their authors recommend (bench/meson.build,
 * sort_peers). */
#ifndef SGL_BENCH_SORT_PEERS_H
#define SGL_BENCH_SORT_PEERS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* IPS4o's parallel sort (in-place parallel super scalar samplesort). */
void bench_peer_ips4o(double *x, size_t n, int threads);

/* Boost.Sort's block_indirect_sort, its parallel unstable sort. */
void bench_peer_block_indirect(double *x, size_t n, int threads);

/* Boost.Sort's spreadsort (a radix/comparison hybrid) on one thread. */
void bench_peer_spreadsort(double *x, size_t n);

/* The compiler flags the peers were built with, for the benchmarks'
 * headers. */
const char *bench_peer_flags(void);

#ifdef __cplusplus
}
#endif

#endif
