/* Whether all of a runtime's workers run in one process (threads only):
 * the PSRS path tests expect no exchange there for the paths that hand
 * blocks between workers. Shared by the test programs that check it. */
#ifndef SGL_TEST_ONE_PROCESS_H
#define SGL_TEST_ONE_PROCESS_H

#include <sgl/machine.h>
#include <sgl/sgl.h>

static inline int one_process(sgl_runtime_t *rt)
{
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    for (size_t w = 1; w < sgl_machine_workers(m); w++)
        if (sgl_node_rank(sgl_machine_worker(m, w)) !=
            sgl_node_rank(sgl_machine_worker(m, 0)))
            return 0;
    return 1;
}

#endif
