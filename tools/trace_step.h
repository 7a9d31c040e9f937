/* Readings of a runtime's trace shared by the benchmarks: the slowest
 * worker's task time per element (how the probe reads a kernel's c with
 * several workers, and how the main job's state sensor reads it again
 * during a sweep: the same reading, so that the two compare). A child's
 * time to deliver its part, how balance by speed reads it, is the
 * library's sgl_trace_step_delivered(). */
#ifndef SGL_BENCH_TRACE_STEP_H
#define SGL_BENCH_TRACE_STEP_H

#include <math.h>
#include <stddef.h>

#include <sgl/sgl.h>
#include <sgl/trace.h>

/* The slowest child's task time, per element of its block (@p counts
 * elements, each @p per units), in the level-0 superstep number @p which
 * of @p rt's trace (negative: from the end). NAN if there is no such
 * superstep. */
static inline double bench_step_per_element(sgl_runtime_t *rt, long which,
                                            const size_t *counts, double per)
{
    size_t steps[64], ns = 0;
    sgl_trace_step_t st;
    for (size_t q = 0; q < sgl_trace_steps(rt) && ns < 64; q++)
        if (sgl_trace_step(rt, q, &st) == SGL_OK && st.level == 0)
            steps[ns++] = q;
    long at = which >= 0 ? which : (long)ns + which;
    if (at < 0 || at >= (long)ns ||
        sgl_trace_step(rt, steps[at], &st) != SGL_OK)
        return NAN;
    double worst = 0;
    for (unsigned i = 0; i < st.children; i++)
        if (counts[i] > 0)
            worst = fmax(worst, st.child_time[i] / ((double)counts[i] * per));
    return worst;
}

#endif
