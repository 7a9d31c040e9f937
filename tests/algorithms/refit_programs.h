/* Balance by the speeds a run measured (sgl_runtime_refit_kernel()),
 * checked on any runtime: a program library run by the thread-level
 * Criterion test and the MPI driver alike. */
#ifndef SGL_TEST_REFIT_PROGRAMS_H
#define SGL_TEST_REFIT_PROGRAMS_H

#include <sgl/sgl.h>
#include <sgl/balance.h>

/* Register the refit checks' tasks (after algo_test_register()). */
int refit_test_register(sgl_runtime_t *rt);

/* Every worker sleeps the same time and declares work in proportion to a
 * speed profile, so that the trace measures that profile: checks the c
 * the refit sets (its ratios, a lower bound from the sleep), that the
 * runtime's tree and every process's weights hold them, the pricing over
 * a window of two fits, and that a window of one starts over. Then the
 * algorithms' own declarations: a refit of "sum" after a reduction and
 * of "sort" after PSRS. Collective: call it in every process. Leaves the
 * runtime balanced by workers. */
int refit_check(sgl_runtime_t *rt);

/* The documented errors of sgl_runtime_refit_kernel(), each leaving the
 * c as they were. Collective. */
int refit_check_errors(sgl_runtime_t *rt);

/* The refit after each run (sgl_runtime_set_refit()): a run that measures
 * the profile sets the balance kernel's c without a call, a run without
 * declared work and a run with the refit off leave them. Collective.
 * Leaves the refit off and the runtime balanced by workers. */
int refit_check_auto(sgl_runtime_t *rt);

#endif
