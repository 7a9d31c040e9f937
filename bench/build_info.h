/* The flags the timed code was built with, for a benchmark's header: a
 * reader of a table must see whether SGL ran -O2 -g against peers at -O3
 * -march=native (issue 47, item 3). bench/meson.build passes
 * BENCH_SGL_BUILD, the project's build type and optimisation, which the
 * library and the benchmark share; the peers report their own flags. */
#ifndef SGL_BENCH_BUILD_INFO_H
#define SGL_BENCH_BUILD_INFO_H

#include <stdio.h>

#include "sort_peers.h"

#ifndef BENCH_SGL_BUILD
#define BENCH_SGL_BUILD "unknown"
#endif

static inline void bench_build_print(FILE *f)
{
    fprintf(f, "# built: sgl %s; peers %s\n", BENCH_SGL_BUILD,
            bench_peer_flags());
}

#endif
