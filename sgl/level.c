/* The table of link kinds: a new kind of link is one file with its
 * operations (level.h) and its line here. */
#include "level.h"

static const struct sgl__level *const levels[] = {
    [SGL_LINK_THREADS] = &sgl__level_threads,
    [SGL_LINK_MPI] = &sgl__level_mpi,
};

const struct sgl__level *sgl__level_below(const struct sgl_node *n)
{
    return levels[n->link];
}

const struct sgl__level *sgl__level_above(const struct sgl_ctx *c)
{
    return levels[c->node->parent->link];
}
