/* Regression test: sgl__trace_record() used to free and clear the
 * runtime's trace index (built by sgl_trace_step()) from every master,
 * so the two package masters of "package:2 core:2", recording their
 * nested supersteps on two threads at once, raced on it and could free
 * the same index twice. TSan (tests/run --tsan) reports the race
 * deterministically; here many rounds of "build the index, run a nested
 * program" give glibc or ASan the chance to catch a double free. */
#include <stdio.h>

#include "programs.h"
#include <sgl/sgl.h>
#include <sgl/trace.h>
#include "tap.h"

int main(void)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = "package:2 core:2";
    sgl_runtime_t *rt;
    if (sgl_init(NULL, NULL, &o, &rt) != SGL_OK || prog_register(rt)) {
        fprintf(stderr, "sgl_init: %s\n", sgl_error_last());
        return 1;
    }
    int rc = SGL_OK;
    size_t steps = 0;
    for (int round = 0; round < 2000 && rc == SGL_OK; round++) {
        sgl_trace_step_t s;
        steps = sgl_trace_steps(rt);
        if (steps)
            rc = sgl_trace_step(rt, steps - 1, &s); /* builds the index */
        if (rc == SGL_OK)
            rc = prog_distributed_sum(rt, 64);
        if (round % 100 == 99)
            sgl_trace_clear(rt);
    }
    tap_expect("2000 rounds of trace index + nested supersteps", rc, SGL_OK);
    sgl_finalize(rt);
    return tap_done();
}
