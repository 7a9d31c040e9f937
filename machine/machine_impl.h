/* Internal layout of the machine tree, shared by the files of machine/ and
 * by the runtime (sgl/), which walks the tree directly. Never installed. */
#ifndef SGL_MACHINE_IMPL_H
#define SGL_MACHINE_IMPL_H

#include <stddef.h>

#include "machine.h"

struct sgl_node {
    char type[16];          /* "node", "core", ... */
    int os_index;           /* hwloc os_index, -1 if none */
    int rank;               /* rank that plays the node, set by finalize */
    sgl_link_t link;        /* to the children */
    unsigned level;         /* set by finalize */
    unsigned index;         /* among siblings, set by finalize */
    unsigned arity;
    unsigned cap;           /* allocated child slots */
    size_t workers;         /* leaves below, set by finalize */
    size_t first_worker;    /* set by finalize */
    char *host;             /* discovered MPI nodes only */
    struct sgl_node *parent;
    struct sgl_node **child;
};

struct sgl_machine {
    struct sgl_node *root;
    unsigned depth;
    size_t workers;
    size_t processes;
    size_t *level_size;     /* depth + 1 entries */
    size_t *level_masters;  /* depth + 1 entries */
    struct sgl_node **worker; /* workers in depth-first order */
    char *source;
};

/* Allocate a detached node; NULL on out of memory (message set). */
struct sgl_node *sgl__node_new(const char *type, int os_index);
/* Append @child to @parent (which takes ownership); SGL_ENOMEM on failure,
 * in which case the caller still owns @child. */
int sgl__node_add(struct sgl_node *parent, struct sgl_node *child);
/* Free a node and its subtree. */
void sgl__node_free(struct sgl_node *n);

/* Turn a built node tree into a machine: collapse single-child levels
 * unless keep_single, compute levels, indices, worker numbering, ranks (one
 * rank per MPI-link child subtree, in depth-first order) and the per-level
 * counts. Takes ownership of @root in every case (frees it on failure).
 * @source is copied. */
int sgl__machine_finish(struct sgl_node *root, int keep_single,
                        const char *source, sgl_machine_t **ret_machine);

/* Link kind implied by a level type name: SGL_LINK_MPI for process types
 * (cluster, rack, node, host, rank), SGL_LINK_THREADS for types inside a
 * process, SGL_LINK_NONE for an unknown name. */
sgl_link_t sgl__type_link(const char *type);

#endif
