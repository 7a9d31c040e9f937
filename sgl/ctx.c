/* Context accessors, persistent child state and the growable buffers. */
#include <stdlib.h>

#include "runtime_impl.h"
#include <sgl/balance.h>
#include <sgl/blocks.h>

__extension__ typedef unsigned __int128 u128;

int sgl__buf_reserve(struct sgl_buf *b, size_t bytes)
{
    if (bytes <= b->cap)
        return SGL_OK;
    /* Grow geometrically so that repeated supersteps stop allocating. */
    size_t cap = b->cap * 2 > bytes ? b->cap * 2 : bytes;
    /* On the pages of the library's blocks (sgl_mem_alloc()): often
     * fresh memory, first touched by the superstep that fills it. */
    void *p = sgl_mem_alloc(cap);
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
int sgl_ctx_is_master(const sgl_ctx_t *ctx) { return ctx->node->arity > 0; }
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

/* Children's counts from the boundaries floor(n * prefix_i / total) of
 * the cumulative weights: every count is within one of its exact share,
 * and the counts add up to n. Worker weights are integers and are split
 * exactly in 128 bits, so a root's split matches the block layout
 * [n w / P, n (w + 1) / P) of worker w. */
int sgl_ctx_split(const sgl_ctx_t *ctx, size_t n, const double *weights,
                  size_t *ret_counts)
{
    if (!ctx || !ret_counts)
        return sgl_error_set(SGL_EINVAL, "sgl_ctx_split: NULL argument");
    unsigned p = ctx->node->arity;
    if (p == 0)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_ctx_split: called on a worker (level %u, "
                             "index %u); only a master has children",
                             ctx->node->level, ctx->node->index);
    double total = 0;
    for (unsigned i = 0; weights && i < p; i++) {
        if (!(weights[i] >= 0) || weights[i] > __DBL_MAX__)
            return sgl_error_set(SGL_EINVAL,
                                 "sgl_ctx_split: weight %u is %g; weights "
                                 "must be finite and non-negative",
                                 i, weights[i]);
        total += weights[i];
    }
    if (weights && !(total > 0 && total <= __DBL_MAX__))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_ctx_split: the weights sum to %g; they "
                             "must have a finite positive sum",
                             total);
    if (!weights && ctx->rt->balance == SGL_BALANCE_SPEED && ctx->rt->speed)
        return sgl__split_by_speed(ctx, n, ret_counts);
    size_t workers = ctx->node->workers, below = 0, done = 0;
    double prefix = 0;
    for (unsigned i = 0; i < p; i++) {
        size_t end;
        if (i + 1 == p) {
            end = n;
        } else if (weights) {
            prefix += weights[i];
            double e = (double)n * (prefix / total);
            end = e >= (double)n ? n : (size_t)e;
        } else {
            below += ctx->node->child[i]->workers;
            end = (size_t)((u128)n * below / workers);
        }
        /* Rounding of the double prefixes must not make a count negative. */
        if (end < done)
            end = done;
        ret_counts[i] = end - done;
        done = end;
    }
    return SGL_OK;
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
