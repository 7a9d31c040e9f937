/* Balance by speed (sgl_runtime_set_balance(), sgl_ctx_worker_weights()),
 * checked on any runtime: a program library run by the thread-level
 * Criterion test and the MPI driver alike. */
#ifndef SGL_TEST_BALANCE_PROGRAMS_H
#define SGL_TEST_BALANCE_PROGRAMS_H

#include <sgl/algorithms.h>
#include <sgl/balance.h>

/* Register the balance checks' tasks (after algo_test_register()). */
int balance_test_register(sgl_runtime_t *rt);

/* Give the runtime per-worker c (worker w runs "sum" at 1 + w % 3 ns per
 * element: speeds 1, 1/2, 1/3), then check the weights, the splits, the
 * vectors' layout, PSRS's output shares and the algorithms' results by
 * speed; then by workers (SGL_BALANCE_WORKERS); then the geometric mean
 * over two kernels; then that plain c makes the workers alike again.
 * Collective: call it in every process. Leaves the runtime balanced by
 * workers count (plain c only). */
int balance_check(sgl_runtime_t *rt);

/* The balance kernel (sgl_runtime_set_balance_kernel()): "scan" named
 * before the parameters give it per worker is taken up when they do; with
 * "sum" and "scan" given per worker, splits follow the one named, and the
 * overall speed for one not given per worker or none. On a runtime whose
 * "scan" has no per-worker c (a fresh one, or after balance_check()).
 * Leaves the runtime balanced by workers, with no balance kernel. */
int balance_check_kernel(sgl_runtime_t *rt);

/* The documented errors of the balance calls. */
int balance_check_errors(sgl_runtime_t *rt);

#endif
