/* The child side of a superstep, shared by every link (child.c). Never
 * installed. */
#ifndef SGL_CHILD_H
#define SGL_CHILD_H

#include "runtime_impl.h"

/* Hand child @i's staged block of @master to @child, without copying it:
 * a view of the master's source, or the child's own buffer that the
 * master filled (sgl_scatter_buffer()). */
void sgl__deliver_local(struct sgl_ctx *master, unsigned i,
                        struct sgl_ctx *child);

/* Run @task on @child as a child of the current pardo (or the root of a
 * run): mark it in a task, clear its hand-up, record status and message. */
void sgl__run_child(struct sgl_ctx *child, sgl_task_fn task, const void *arg,
                    size_t arg_size);

/* Deliver child @i's block and run the task on it, both in this
 * process. */
void sgl__run_local(struct sgl_ctx *m, unsigned i, sgl_task_fn task,
                    const void *arg, size_t arg_size);

/* Take local child @i's reply (block, time, work) into @m. */
void sgl__take_local_reply(struct sgl_ctx *m, unsigned i);

/* Record child @i's failure in the master's error message. */
int sgl__child_failed(const struct sgl_ctx *master, unsigned i, int rank,
                      int status, const char *msg);

#endif
