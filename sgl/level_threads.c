/* The thread level: a pardo is one OpenMP parallel region over the node's
 * children. Each child thread runs the task on a view of its block in the
 * master's source, which sgl_recv() copies into the child's own buffer
 * (first touch on its core) when the task asks for a writable block; the
 * end of the region is the superstep's synchronisation up, the start its
 * synchronisation down. */
#include <omp.h>

#include "child.h"
#include "level.h"

/* Bind the calling thread to the PU of @c's first worker, once per thread
 * and target: rebinding on every pardo would cost a system call each. */
static void bind_to(const struct sgl_ctx *c)
{
    static _Thread_local int bound = -1;
    int pu = c->pu;
    if (pu < 0 || pu == bound)
        return;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set)
        return;
    hwloc_bitmap_only(set, (unsigned)pu);
    /* Binding is a placement hint: a refusal (a cpuset we may not use)
     * leaves the thread where the OS put it, which is still correct. */
    if (hwloc_set_cpubind(c->rt->topo, set, HWLOC_CPUBIND_THREAD) == 0)
        bound = pu;
    hwloc_bitmap_free(set);
}

static int pardo(struct sgl_ctx *m, sgl_task_fn task, const void *arg,
                 size_t arg_size)
{
    unsigned p = m->node->arity;
    unsigned team = p < m->rt->team_max ? p : m->rt->team_max;
    int bind = m->rt->bind;
#pragma omp parallel num_threads(team)
    {
        /* A team smaller than asked (OMP_THREAD_LIMIT, dynamic threads)
         * runs several children per thread: slower, still correct. */
        unsigned nt = (unsigned)omp_get_num_threads();
        for (unsigned i = (unsigned)omp_get_thread_num(); i < p; i += nt) {
            if (bind)
                bind_to(m->child[i]);
            sgl__run_local(m, i, task, arg, arg_size);
        }
    }
    int status = SGL_OK;
    for (unsigned i = 0; i < p; i++) {
        struct sgl_ctx *c = m->child[i];
        sgl__take_local_reply(m, i);
        if (c->status < 0 && status == SGL_OK)
            status = sgl__child_failed(m, i, m->rt->rank, c->status,
                                       c->errmsg);
    }
    m->gathered = 1;
    return status;
}

/* The master fills a child's own receive buffer. */
static struct sgl_buf *stage_buf(struct sgl_ctx *m, unsigned i)
{
    return &m->child[i]->down;
}

const struct sgl__level sgl__level_threads = {
    .name = "threads",
    .threads = 1,
    .stage_buf = stage_buf,
    .pardo = pardo,
};
