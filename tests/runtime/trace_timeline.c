/* Writes the Perfetto timeline of the trace program and of a direct and
 * a routed exchange to argv[1], on the shape in SGL_SHAPE, alone or under
 * mpiexec; check_timeline.py reads it. Exit status 0 when every program
 * ran and the file was written. */
#include <mpi.h>
#include <stdio.h>

#include "programs.h"
#include <sgl/exchange.h>
#include <sgl/trace.h>

/* prog_trace's checks run on rank 0 alone: every rank learns its verdict
 * before the exchanges, or the other ranks would wait in a run that rank 0
 * never starts (a failed check then read as a timeout, not a failure). */
static int rank0_verdict(int rc)
{
    int bad = rc != SGL_OK;
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (bad && rc == SGL_OK)
        return sgl_error_set(SGL_ETASK, "prog_trace failed on rank 0");
    return rc;
}

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
        fprintf(stderr, "trace_timeline: %s\n", sgl_error_last());
        return 1;
    }
    /* prog_trace starts from an empty trace; the exchanges add theirs. */
    rc = rank0_verdict(prog_trace(rt));
    if (rc == SGL_OK)
        rc = prog_exchange(rt, 21, SGL_EXCHANGE_DIRECT);
    if (rc == SGL_OK)
        rc = prog_exchange(rt, 22, SGL_EXCHANGE_ROUTED);
    if (rc == SGL_OK)
        rc = sgl_trace_write(rt, argv[1], SGL_TRACE_PERFETTO);
    if (rc != SGL_OK && sgl_runtime_rank(rt) == 0)
        fprintf(stderr, "trace_timeline: %s\n", sgl_error_last());
    int frc = sgl_finalize(rt);
    return rc != SGL_OK || frc != SGL_OK;
}
