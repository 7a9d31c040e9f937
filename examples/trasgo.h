/* Not an example: how the tests and bench/ run the example programs
 * rotate.c, heat.c and cannon.c (the Trasgo paper's programs on
 * distributed arrays) as functions, to compare their results with
 * sequential references and hand-written MPI peers (stencil_kernels.h
 * has the peers' copy of the arithmetic). The examples do not include
 * this header: each is a whole program a user copies. The library of
 * these programs compiles each example without its main
 * (SGL_EXAMPLE_NO_MAIN) and with this header included first, so that the
 * compiler checks every definition below against its declaration here.
 *
 * Each program runs from a master's task (the root's, usually) over the
 * workers below it and reports a bitwise checksum of its result
 * (sgl_darray_checksum(), whose per-element hash is kernel_check()). */
#ifndef SGL_EXAMPLES_TRASGO_H
#define SGL_EXAMPLES_TRASGO_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/darray.h>

/* Register the programs' tasks and the two below (every process, after
 * sgl_algorithms_register()). */
int trasgo_register(sgl_runtime_t *rt);

/* Element (i, j, k) of every worker's block of @array (doubles) set to
 * kernel_init() of its row-major index (one superstep). */
int trasgo_fill(sgl_ctx_t *master, const sgl_darray_t *array);

/* The XOR of kernel_check() over the array (one superstep). */
int trasgo_check(sgl_ctx_t *master, const sgl_darray_t *array,
                 uint64_t *ret);

/* Levels of the tree whose plan h a result reports. */
#define TRASGO_LEVELS 8

/* What a program measured; each example has a copy of this struct for
 * when it is compiled alone, which this macro turns off. */
#define TRASGO_RESULT_DEFINED 1
typedef struct trasgo_result {
    uint64_t check;        /* XOR of kernel_check() over the result */
    double plan_seconds;   /* creating the plans */
    double seconds;        /* the timed loop (all iterations or steps) */
    sgl_dplan_stats_t stats; /* of the main plan */
    size_t level_h[TRASGO_LEVELS]; /* its h per level, bytes */
} trasgo_result_t;

/* M2[i] = 2 M[(i + rot) mod n] + 1 on n doubles, M[i] = kernel_init(i);
 * @cuts: NULL for even blocks, else workers + 1 boundaries; @out: NULL,
 * or n elements that receive M2 (gathered to the master). */
int rotate_run(sgl_ctx_t *master, size_t n, long rot, const size_t *cuts,
               double *out, trasgo_result_t *ret);
int rotate_register(sgl_runtime_t *rt);

/* @iters Jacobi steps of the periodic heat equation on an n^dims grid
 * (kernel_init() initial values, heatXd_point() per point). */
int heat_run(sgl_ctx_t *master, unsigned dims, size_t n, unsigned iters,
             trasgo_result_t *ret);
int heat_register(sgl_runtime_t *rt);

/* C = A B, n x n (cannon_a(), cannon_b()), as q x q tiles of (n / q)^2
 * doubles on any number of workers: the tiles are cut over the workers'
 * grid (one tile each on a q x q grid, as Cannon had it). */
int cannon_run(sgl_ctx_t *master, size_t n, size_t q, trasgo_result_t *ret);
int cannon_register(sgl_runtime_t *rt);

#endif
