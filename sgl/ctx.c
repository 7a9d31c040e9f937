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

/* A context holds few keys (one per library): a linear search is enough. */
static struct sgl_keyed *find_key(const sgl_ctx_t *ctx, const void *key)
{
    for (size_t i = 0; i < ctx->nkeyed; i++)
        if (ctx->keyed[i].key == key)
            return &ctx->keyed[i];
    return NULL;
}

void *sgl_ctx_keyed_state(const sgl_ctx_t *ctx, const void *key)
{
    if (!ctx)
        return NULL;
    if (!key)
        return ctx->state;
    struct sgl_keyed *k = find_key(ctx, key);
    return k ? k->state : NULL;
}

int sgl_ctx_set_keyed_state(sgl_ctx_t *ctx, const void *key, void *state,
                            void (*destroy)(void *))
{
    if (!ctx)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_ctx_set_keyed_state: context is NULL");
    if (!key) {
        sgl_ctx_set_state(ctx, state, destroy);
        return SGL_OK;
    }
    struct sgl_keyed *k = find_key(ctx, key);
    if (!k) {
        if (!state)
            return SGL_OK;
        struct sgl_keyed *a =
            realloc(ctx->keyed, (ctx->nkeyed + 1) * sizeof *a);
        if (!a)
            return sgl_error_set(SGL_ENOMEM, "sgl_ctx_set_keyed_state: out "
                                             "of memory");
        ctx->keyed = a;
        k = &a[ctx->nkeyed++];
        *k = (struct sgl_keyed){key, NULL, NULL};
    }
    if (k->destroy && k->state && k->state != state)
        k->destroy(k->state);
    k->state = state;
    k->destroy = destroy;
    if (!state)
        *k = ctx->keyed[--ctx->nkeyed];
    return SGL_OK;
}

void sgl__ctx_states_free(struct sgl_ctx *c)
{
    if (c->destroy && c->state)
        c->destroy(c->state);
    for (size_t i = 0; i < c->nkeyed; i++)
        if (c->keyed[i].destroy && c->keyed[i].state)
            c->keyed[i].destroy(c->keyed[i].state);
    free(c->keyed);
    c->keyed = NULL;
    c->nkeyed = 0;
}
