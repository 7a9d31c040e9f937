/* The boundary between the generic superstep code and a link kind: every
 * kind of link between a master and its children (threads of one process,
 * MPI processes) is one table of these operations, in its own file, with
 * its entry in level.c. The generic code never asks which kind it has.
 * Never installed. */
#ifndef SGL_LEVEL_H
#define SGL_LEVEL_H

#include "runtime_impl.h"
#include <sgl/blocks.h>

struct sgl__level {
    const char *name;
    /* Nonzero if the children are threads of the master's process: the
     * runtime counts them against the process's thread limit. */
    int threads;
    /* Set up and free what the link keeps at master @m (m->link_state);
     * NULL if it keeps nothing. */
    int (*master_init)(struct sgl_ctx *m);
    void (*master_free)(struct sgl_ctx *m);
    /* The buffer sgl_scatter_buffer() stages child @i's block in. */
    struct sgl_buf *(*stage_buf)(struct sgl_ctx *m, unsigned i);
    /* Run @task on every child of @m and collect the replies into
     * m->gdata, m->gbytes (m->pending for blocks still held by the link),
     * m->ctime and m->cwork; return the pardo's status once every child
     * finished. */
    int (*pardo)(struct sgl_ctx *m, sgl_task_fn task, const void *arg,
                 size_t arg_size);
    /* Take every block the link still holds (m->pending): into @dst at
     * the children's offsets, or with @dst NULL into the link's buffers
     * (m->gdata then points there). NULL if the link never holds any. */
    int (*fetch)(struct sgl_ctx *m, char *dst);
    /* Free the link's buffers of the last pardo's blocks
     * (sgl_gather_release()); NULL if it has none. */
    void (*release)(struct sgl_ctx *m);
    /* Tell @m's children across the link that the program ended with
     * @status (and @msg if it failed); NULL if none waits for it. */
    int (*stop)(struct sgl_ctx *m, int status, const char *msg);
    /* In a process whose entry node's master is across this link: serve
     * that master's commands until it stops; return the program's status
     * (with its message set). NULL if a link never crosses processes. */
    int (*serve)(struct sgl_runtime *rt);
};

extern const struct sgl__level sgl__level_threads;
extern const struct sgl__level sgl__level_mpi;

/* The operations of the link below master @m. */
static inline const struct sgl__level *sgl__level_of(const struct sgl_ctx *m)
{
    return m->link;
}

/* The operations of the link below tree node @n (a master). */
const struct sgl__level *sgl__level_below(const struct sgl_node *n);

/* The operations of the link above @c (c is not the root). */
const struct sgl__level *sgl__level_above(const struct sgl_ctx *c);

#endif
