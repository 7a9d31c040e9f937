/* Writes the Perfetto timeline of the trace program and of a direct and
 * a routed exchange to argv[1], on the shape in SGL_SHAPE, alone or under
 * mpiexec; check_timeline.py reads it. Exit status 0 when every program
 * ran and the file was written. */
#include <stdio.h>

#include "programs.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: trace_timeline FILE\n");
        return 2;
    }
    sgl_runtime_t *rt;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (rc == SGL_OK)
        rc = prog_register(rt);
    if (rc != SGL_OK) {
        fprintf(stderr, "trace_timeline: %s\n", sgl_last_error());
        return 1;
    }
    /* prog_trace starts from an empty trace; the exchanges add theirs. */
    rc = prog_trace(rt);
    if (rc == SGL_OK)
        rc = prog_exchange(rt, 21, SGL_EXCHANGE_DIRECT);
    if (rc == SGL_OK)
        rc = prog_exchange(rt, 22, SGL_EXCHANGE_ROUTED);
    if (rc == SGL_OK)
        rc = sgl_trace_write(rt, argv[1], SGL_TRACE_PERFETTO);
    if (rc != SGL_OK && sgl_runtime_rank(rt) == 0)
        fprintf(stderr, "trace_timeline: %s\n", sgl_last_error());
    int frc = sgl_finalize(rt);
    return rc != SGL_OK || frc != SGL_OK;
}
