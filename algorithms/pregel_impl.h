/* Inside the vertex-centric layer: a worker's part of a graph (its
 * vertices' out-edges in CSR form, and the run's state), the registered
 * programs, and which worker owns a vertex. */
#ifndef SGL_PREGEL_IMPL_H
#define SGL_PREGEL_IMPL_H

#include <stdint.h>

#include <sgl/pregel.h>

#include "algo_internal.h"

struct sgl_graph {
    uint32_t id;
    uint64_t n, m;         /* vertices, distinct edges */
    size_t workers;        /* below the root */
    uint32_t prog;         /* of the last run; 0 before any */
};

/* Messages combined on the sending worker: an open-addressing table from
 * target vertex to one slot of msg_size bytes. */
struct outbox {
    uint64_t *key;         /* target + 1; 0 marks a free slot */
    uint32_t *hits;        /* messages combined into the slot */
    unsigned char *msg;
    size_t cap, used;      /* cap a power of two */
    uint64_t raw;          /* messages sent before combining */
};

/* A worker's part of one graph. */
struct wgraph {
    uint32_t id;           /* first: darray_item_find() reads it */
    uint64_t n;            /* vertices of the graph */
    uint64_t v0, v1;       /* the vertices it owns */
    size_t *off;           /* CSR: out-edges of v0 + i at adj[off[i]..] */
    uint64_t *adj;
    void *staged;          /* what the worker hands to the next exchange */
    /* the run */
    uint32_t prog;
    unsigned char *value, *halted, *inbox, *has_msg;
    struct outbox out;
};

/* The worker's part of graph @id, or NULL. */
struct wgraph *pregel_wgraph(sgl_ctx_t *worker, uint32_t id);
/* Keep @g in the worker's state (taking it), or free it on failure. */
int pregel_wgraph_add(sgl_ctx_t *worker, struct wgraph *g);
void pregel_wgraph_drop(sgl_ctx_t *worker, uint32_t id);

/* The worker of @p that owns vertex @v of @n: vertices are cut in
 * contiguous ranges [n w / p, n (w + 1) / p). */
static inline size_t pregel_owner(uint64_t v, uint64_t n, size_t p)
{
    return (size_t)((((algo_u128)v + 1) * p + n - 1) / n) - 1;
}

/* The registered program @id, or NULL. */
const sgl_pregel_program_t *pregel_program(uint32_t id);

#endif
