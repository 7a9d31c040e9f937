/* The machine's state during a sweep: the probe's sum kernel measured
 * again, at one size of its table, right before each timed repetition.
 *
 * With two workers this VM runs in one of two states 1.3-3x apart that
 * flip every few tens of seconds (docs/results/2026-12-probe-vs-sweep.md,
 * "Why a probe and a sweep differed"); re-measures between the sweeps cannot tell in which state a
 * sweep ran. This reading can: the same call the probe timed for c(sum)
 * (sgl_dvec_reduce from flushed caches, the slowest worker's task time
 * per element from the trace; one worker: the whole call), on a vector
 * kept for the configuration, compared with the c(sum) the configuration
 * was priced by at that size and busy count. It measures the machine, not
 * the algorithm swept: the same kernel at a fixed size, whatever the
 * point.
 *
 * Flat trees and one worker only (the probe's kernel tables are measured
 * on those); elsewhere the sensor is off and reads NAN. */
#ifndef SGL_BENCH_STATE_SENSOR_H
#define SGL_BENCH_STATE_SENSOR_H

#include <mpi.h>
#include <stddef.h>

#include <sgl/algorithms.h>

struct state_sensor {
    size_t per_worker; /* elements per worker; 0: off */
    size_t workers;
    int threads;       /* per process, for the cache flush */
    MPI_Comm comm;
    double ref;        /* the priced c(sum) at per_worker (s per element) */
    sgl_dvec_t *vec;   /* rank 0: the root's handle */
    double one;        /* rank 0, one worker: the last reading */
};

/* Open the sensor on @rt's tree (collective over @comm, which spans the
 * runtime's processes), priced by @pred (the prediction tree; NULL: off),
 * with blocks of at most @most elements per worker. 0, or -1 with a
 * message in sgl_error_last() (the sensor is then off). */
int state_sensor_open(struct state_sensor *s, sgl_runtime_t *rt,
                      const sgl_machine_t *pred, size_t most, int threads,
                      MPI_Comm comm);

/* One reading (collective): at rank 0 the sensed c(sum) in seconds per
 * element, NAN when off or failed; NAN on the other ranks. Clears the
 * trace. */
double state_sensor_read(struct state_sensor *s, sgl_runtime_t *rt);

/* Free the vector (collective); the sensor is off after. */
void state_sensor_close(struct state_sensor *s, sgl_runtime_t *rt);

#endif
