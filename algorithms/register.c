/* sgl_algorithms_register(): every task of the algorithms, from one
 * table, in the same order in every process. */
#include "algo_internal.h"

static const struct algo_task *const tables[] = {
    algo_dvec_tasks,
    algo_reduce_tasks,
    algo_scan_tasks,
    algo_psrs_tasks,
    algo_darray_tasks,
    algo_dplan_tasks,
    algo_graph_tasks,
    algo_pregel_tasks,
    algo_balance_tasks,
};

int sgl_algorithms_register(sgl_runtime_t *rt)
{
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const struct algo_task *k = tables[t]; k->fn; k++)
            TRY(sgl_task_register(rt, k->fn, k->name));
    return algo_pregel_register();
}
