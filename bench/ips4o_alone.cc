// IPS4o's parallel sort alone, as its authors build it (-O3 -march=native
// -mcx16, nothing else in the process): the reference the in-process peer
// of bench_psrs is checked against (bench/ips4o_check.sh), on the same keys
// (sort_keys.c, same distribution, size and seed).
//   ips4o_alone [--dist NAME] [--n N] [--threads T] [--reps R] [--seed S]
// Prints one line: "ips4o_alone DIST N T median_s min_s max_s".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include <ips4o.hpp>

#include "sort_keys.h"

namespace {
struct args {
    const char *dist = "uniform";
    size_t n = 10000000;
    int threads = 2, reps = 5;
    unsigned long long seed = 1000; // bench_psrs --dist's (PSRS_DISTS_SEED)
};

bool parse(int argc, char **argv, args &a)
{
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        char *end;
        if (!strcmp(k, "--dist"))
            a.dist = v;
        else if (!strcmp(k, "--n"))
            a.n = (size_t)strtod(v, &end);
        else if (!strcmp(k, "--threads"))
            a.threads = (int)strtol(v, &end, 10);
        else if (!strcmp(k, "--reps"))
            a.reps = (int)strtol(v, &end, 10);
        else if (!strcmp(k, "--seed"))
            a.seed = strtoull(v, &end, 10);
        else
            return false;
        if (strcmp(k, "--dist") && (*end || end == v))
            return false;
    }
    return argc % 2 == 1 && a.n > 0 && a.threads > 0 && a.reps > 0 &&
           sort_keys_find(a.dist) >= 0;
}
} // namespace

int main(int argc, char **argv)
{
    args a;
    if (!parse(argc, argv, a)) {
        fprintf(stderr, "usage: ips4o_alone [--dist NAME] [--n N] "
                        "[--threads T] [--reps R] [--seed S]\n");
        return 2;
    }
    std::vector<double> keys(a.n), x(a.n), t;
    sort_keys_fill(sort_keys_find(a.dist), keys.data(), a.n, a.seed);
    // One untimed sort first, as bench_psrs's first repetition warms its
    // peer's threads the same way.
    for (int r = -1; r < a.reps; r++) {
        std::copy(keys.begin(), keys.end(), x.begin());
        auto t0 = std::chrono::steady_clock::now();
        ips4o::parallel::sort(x.begin(), x.end(), std::less<>(), a.threads);
        std::chrono::duration<double> d = std::chrono::steady_clock::now() - t0;
        if (!sort_keys_sorted(x.data(), a.n)) {
            fprintf(stderr, "ips4o_alone: output not sorted\n");
            return 1;
        }
        if (r >= 0)
            t.push_back(d.count());
    }
    std::sort(t.begin(), t.end());
    printf("ips4o_alone %s %zu %d %.6f %.6f %.6f\n", a.dist, a.n, a.threads,
           t[t.size() / 2], t.front(), t.back());
    return 0;
}
