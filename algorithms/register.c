/* sgl_algorithms_register(): every task of the algorithms, from one
 * table, in the same order in every process. */
#include "algo_internal.h"

static const struct algo_task *const tables[] = {
    sgl__algo_dvec_tasks,  sgl__algo_reduce_tasks, sgl__algo_scan_tasks,
    sgl__algo_psrs_tasks,  sgl__algo_darray_tasks, sgl__algo_dplan_tasks,
    sgl__algo_graph_tasks, sgl__algo_pregel_tasks, sgl__algo_balance_tasks,
};

int sgl_algorithms_register(sgl_runtime_t *rt)
{
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const struct algo_task *k = tables[t]; k->fn; k++)
            SGL_TRY(sgl_task_register(rt, k->fn, k->name));
    return sgl__algo_pregel_register();
}
