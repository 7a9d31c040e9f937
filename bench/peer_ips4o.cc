// IPS4o's parallel sort (in-place parallel super scalar samplesort, the
// strongest shared-memory sort Debian packages), the PSRS benchmark's peer.
// C linkage for the C benchmarks.
#include <cstddef>
#include <functional>

#include <ips4o.hpp>

#include "sort_peers.h"

extern "C" void bench_peer_ips4o(double *x, size_t n, int threads)
{
    ips4o::parallel::sort(x, x + n, std::less<>(), threads);
}

extern "C" const char *bench_peer_flags(void)
{
    return BENCH_PEER_FLAGS;
}
