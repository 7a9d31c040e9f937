/* Context accessors, persistent child state and the growable buffers. */
#include <stdlib.h>

#include "runtime_impl.h"

int sgl__buf_reserve(struct sgl_buf *b, size_t bytes)
{
    if (bytes <= b->cap)
        return SGL_OK;
    /* Grow geometrically so that repeated supersteps stop allocating. */
    size_t cap = b->cap * 2 > bytes ? b->cap * 2 : bytes;
    void *p = malloc(cap);
    if (!p)
        return sgl_error_set(SGL_ENOMEM, "out of memory allocating %zu bytes",
                             cap);
    free(b->data);
    b->data = p;
    b->cap = cap;
    return SGL_OK;
}

void sgl__buf_free(struct sgl_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->cap = 0;
}

unsigned sgl_ctx_level(const sgl_ctx_t *ctx) { return ctx->node->level; }
unsigned sgl_ctx_children(const sgl_ctx_t *ctx) { return ctx->node->arity; }
unsigned sgl_ctx_index(const sgl_ctx_t *ctx) { return ctx->node->index; }
int sgl_ctx_is_root(const sgl_ctx_t *ctx) { return ctx->node->parent == NULL; }
int sgl_ctx_is_worker(const sgl_ctx_t *ctx) { return ctx->node->arity == 0; }
size_t sgl_ctx_workers(const sgl_ctx_t *ctx) { return ctx->node->workers; }
size_t sgl_ctx_first_worker(const sgl_ctx_t *ctx)
{
    return ctx->node->first_worker;
}
const sgl_node_t *sgl_ctx_node(const sgl_ctx_t *ctx) { return ctx->node; }
const sgl_machine_t *sgl_ctx_machine(const sgl_ctx_t *ctx)
{
    return ctx->rt->machine;
}

size_t sgl_ctx_child_workers(const sgl_ctx_t *ctx, unsigned i)
{
    return i < ctx->node->arity ? ctx->node->child[i]->workers : 0;
}

void *sgl_ctx_state(const sgl_ctx_t *ctx) { return ctx->state; }

void sgl_ctx_set_state(sgl_ctx_t *ctx, void *state, void (*destroy)(void *))
{
    if (ctx->destroy && ctx->state && ctx->state != state)
        ctx->destroy(ctx->state);
    ctx->state = state;
    ctx->destroy = destroy;
}
