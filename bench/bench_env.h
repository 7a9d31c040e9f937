/* The environment every benchmark sets before it starts MPI, unless the
 * user set it: passive OpenMP waits (hybrid runs on 2 cores), a quick
 * singleton start without a daemon, the ob1 point-to-point layer, and
 * permission to run as root in containers (docs/guide.md, "Running under MPI on
 * a small box"); and the options of the one-process benchmarks. */
#ifndef SGL_BENCH_ENV_H
#define SGL_BENCH_ENV_H

#include <stdio.h>
#include <stdlib.h>

#include <sgl/sgl.h>

static inline void bench_default_env(void)
{
    setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
    setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
    setenv("OMPI_MCA_pml", "ob1", 0);
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
}

/* The defaults with the tree the one-process benchmarks measure: "core:2"
 * (2 workers, the peers' thread count) unless SGL_SHAPE names another. */
static inline void bench_default_opts(sgl_opts_t *o)
{
    sgl_opts_default(o);
    if (!getenv("SGL_SHAPE"))
        o->shape = "core:2";
}

/* Rank 0's set-up warning (sgl_runtime_warning()), on stderr: timings
 * of an oversubscribed host mean little. */
static inline void bench_warn(const sgl_runtime_t *rt, const char *tool)
{
    const char *w = sgl_runtime_warning(rt);
    if (w && sgl_runtime_rank(rt) == 0)
        fprintf(stderr, "%s: warning: %s\n", tool, w);
}

#endif
