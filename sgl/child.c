/* The child side of a superstep, the same on every link: hand a staged
 * block to a local child (a view, copied only if the task asks for its
 * own), run the task on the child, and word a child's failure for its
 * master. */
#include <stdio.h>

#include "child.h"

void sgl__deliver_local(struct sgl_ctx *master, unsigned i,
                        struct sgl_ctx *child)
{
    size_t bytes = master->staged == SGL_STAGED_NONE ? 0 : master->counts[i];
    child->down_bytes = bytes;
    if (master->staged == SGL_STAGED_BUFFERS) {
        /* The master filled this child's own buffer. */
        child->down_data = child->down.data;
        child->down_view = child->down.data;
        return;
    }
    /* The master's source stays valid and unchanged until its pardo
     * returns (sgl_scatter()), so the child reads its block there; only
     * sgl_recv() copies it, on the child's own thread (first touch on
     * its core), and a task that only reads it moves it through memory
     * once instead of twice. */
    child->down_data = NULL;
    child->down_view =
        bytes ? (const char *)master->src + master->offsets[i] : NULL;
}

void sgl__run_child(struct sgl_ctx *child, sgl_task_fn task, const void *arg,
                    size_t arg_size)
{
    child->up_bytes = 0;
    child->up_at = NULL;
    child->down_released = 0;
    child->work = 0;
    child->task_start = child->last_end = sgl__now(child->rt);
    child->in_task = 1;
    child->status = task(child, arg, arg_size);
    child->in_task = 0;
    child->task_time = sgl__now(child->rt) - child->task_start;
    /* errmsg is read only where status < 0, and is always written then:
     * left alone otherwise, its line stays out of the superstep's path. */
    if (child->status < 0)
        snprintf(child->errmsg, sizeof child->errmsg, "%s", sgl_error_last());
}

void sgl__run_local(struct sgl_ctx *m, unsigned i, sgl_task_fn task,
                    const void *arg, size_t arg_size)
{
    struct sgl_ctx *c = m->child[i];
    sgl__deliver_local(m, i, c);
    c->parent_seq = (long)m->seq;
    sgl__run_child(c, task, arg, arg_size);
    sgl__publish_returned(m, i, 1);
}

void sgl__take_local_reply(struct sgl_ctx *m, unsigned i)
{
    const struct sgl_ctx *c = m->child[i];
    m->gdata[i] = c->up_at ? c->up_at : c->up.data;
    m->gbytes[i] = c->status < 0 ? 0 : c->up_bytes;
    m->pending[i] = 0;
    m->ctime[i] = c->task_time;
    m->cwork[i] = c->work;
    /* A child of this process hands up as its task ends. */
    m->cdone[i] = c->task_start + c->task_time - m->step_start;
}

int sgl__child_failed(const struct sgl_ctx *master, unsigned i, int rank,
                      int status, const char *msg)
{
    return sgl_error_set(status, "child %u of %s L#%u at level %u (rank %d): "
                                 "%s",
                         i, master->node->type, master->node->index,
                         master->node->level, rank,
                         msg && *msg ? msg : sgl_error_string(status));
}
