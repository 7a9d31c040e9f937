/* Heat 2D on distributed arrays for sgl-sim-sweep: the example program
 * (examples/heat.c, through the Trasgo library) timed in simulated time,
 * its result checked against a sequential loop, and its price. */
#ifndef SGL_SIM_SWEEP_HEAT_H
#define SGL_SIM_SWEEP_HEAT_H

#include <stddef.h>

#include <sgl/sgl.h>

/* Jacobi steps per run: enough that the per-step time is not the
 * plan's first exchange alone, few enough for 1024 simulated hosts. */
#define SWEEP_HEAT_ITERS 10

/* What one run on the root gave. */
struct sweep_heat {
    double step_seconds;      /* simulated time per Jacobi step */
    int correct;              /* checksum equal to the sequential loop's */
    size_t level_h[8];        /* the plan's h per level, bytes */
};

/* Register the program's tasks (every process, after
 * sgl_algorithms_register()). */
int sweep_heat_register(sgl_runtime_t *rt);

/* From the root's task: SWEEP_HEAT_ITERS steps on an n x n periodic grid,
 * timed, then the sequential loop's checksum compared. */
int sweep_heat_run(sgl_ctx_t *root, size_t n, struct sweep_heat *ret);

/* The price of one step on @machine_file: per master one superstep with
 * an exchange of the plan's h at its level (bench/bench_trasgo.c's model
 * of the same program), the workers' points at the file's c of "heat2d"
 * (0 where the file has none, as the simulation charges none). */
int sweep_heat_predict(const char *machine_file, size_t n,
                       const struct sweep_heat *run, double *ret);

#endif
