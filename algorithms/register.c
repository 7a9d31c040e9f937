/* sgl_algorithms_register(): every task of the algorithms, from the
 * tables algorithm_list.h names, in its order in every process. */
#include "algo_internal.h"

static const struct algo_task *const tables[] = {
#define SGL_TASKS(table) table,
#include "algorithm_list.h"
};

int sgl_algorithms_register(sgl_runtime_t *rt)
{
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const struct algo_task *k = tables[t]; k->fn; k++)
            SGL_TRY(sgl_task_register(rt, k->fn, k->name));
    return sgl__algo_pregel_register();
}
