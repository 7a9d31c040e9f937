/* What the Trasgo programs share: filling an array with kernel_init(),
 * its bitwise checksum, a clock. */
#ifndef SGL_EXAMPLES_TRASGO_COMMON_H
#define SGL_EXAMPLES_TRASGO_COMMON_H

#include <stdint.h>

#include <sgl/darray.h>

#include "trasgo.h"

double trasgo_now(void);

/* What rotate and heat start from: two arrays of layout @l, the first
 * filled with kernel_init(), and the plan of @acc for them (its time and
 * figures into @r). On an error, what was made is in @arr and @plan for
 * trasgo_teardown(). */
int trasgo_setup(sgl_ctx_t *m, const sgl_darray_layout_t *l, size_t na,
                 const sgl_daccess_t *acc, sgl_darray_t *arr[2],
                 sgl_dplan_t **plan, trasgo_result_t *r);
void trasgo_teardown(sgl_ctx_t *m, sgl_darray_t *arr[2], sgl_dplan_t *plan);

/* The plan's statistics and h per level into @r. */
int trasgo_plan_figures(const sgl_dplan_t *plan, trasgo_result_t *r);

/* At a master: run @task on the children, which each put one uint64_t,
 * and XOR what they put into *@ret. */
int trasgo_xor_children(sgl_ctx_t *ctx, sgl_task_fn task, const void *arg,
                        size_t size, uint64_t *ret);

/* Register the tasks above, and each program's. */
int trasgo_common_register(sgl_runtime_t *rt);
int heat_register(sgl_runtime_t *rt);
int rotate_register(sgl_runtime_t *rt);
int cannon_register(sgl_runtime_t *rt);

#endif
