// Peers of the PSRS benchmark: libstdc++'s parallel-mode sort with a given
// number of threads, and single-thread std::sort. C linkage for the C
// benchmark.
#include <algorithm>
#include <cstddef>
#include <parallel/algorithm>
#include <omp.h>

extern "C" void bench_peer_gnu_parallel_sort(double *x, size_t n, int threads)
{
    omp_set_num_threads(threads);
    __gnu_parallel::sort(x, x + n, __gnu_parallel::multiway_mergesort_tag(threads));
}

extern "C" void bench_peer_std_sort(double *x, size_t n)
{
    std::sort(x, x + n);
}
