// Boost.Sort's peers of the sort benchmarks: block_indirect_sort (its
// parallel sort, the fastest of Boost's on large arrays by its authors'
// benchmarks) and spreadsort (radix on the keys' bits, one thread).
#include <cstddef>

#include <boost/sort/sort.hpp>

#include "sort_peers.h"

extern "C" void bench_peer_block_indirect(double *x, size_t n, int threads)
{
    boost::sort::block_indirect_sort(x, x + n, (unsigned)threads);
}

extern "C" void bench_peer_spreadsort(double *x, size_t n)
{
    boost::sort::spreadsort::spreadsort(x, x + n);
}
