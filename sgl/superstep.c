/* The superstep primitives independent of the link: staging of scatter
 * and broadcast blocks, the pardo entry point that hands over to the
 * link's operations (level.h), gather, and the node side (recv, put). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "level.h"
#include "sim_work.h"
#include "watchdog.h"
#include <sgl/blocks.h>

static const char *role(const struct sgl_ctx *c)
{
    return c->node->arity ? "master" : "worker";
}

/* Master-side calls are valid on a master with no staged block. */
static int check_stage(struct sgl_ctx *ctx, const char *fn)
{
    if (!ctx)
        return sgl_error_set(SGL_EINVAL, "%s: context is NULL", fn);
    if (ctx->node->arity == 0)
        return sgl_error_set(SGL_ESTATE,
                             "%s: called on a worker (level %u, index %u); "
                             "only a master has children",
                             fn, ctx->node->level, ctx->node->index);
    if (ctx->staged != SGL_STAGED_NONE)
        return sgl_error_set(SGL_ESTATE,
                             "%s: a block is already staged for the next "
                             "pardo at level %u",
                             fn, ctx->node->level);
    return SGL_OK;
}

int sgl_scatter(sgl_ctx_t *ctx, const void *src, size_t elem_size,
                const size_t *counts)
{
    int rc = check_stage(ctx, "sgl_scatter");
    if (rc)
        return rc;
    unsigned p = ctx->node->arity;
    if (elem_size == 0)
        return sgl_error_set(SGL_EINVAL, "sgl_scatter: elem_size is 0");
    if (!counts)
        return sgl_error_set(SGL_EINVAL, "sgl_scatter: counts is NULL");
    size_t total = 0;
    for (unsigned i = 0; i < p; i++) {
        size_t bytes;
        if (__builtin_mul_overflow(counts[i], elem_size, &bytes) ||
            __builtin_add_overflow(total, bytes, &total))
            return sgl_error_set(SGL_ERANGE,
                                 "sgl_scatter: counts up to child %u "
                                 "overflow size_t bytes",
                                 i);
    }
    if (total > 0 && !src)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_scatter: src is NULL but counts total "
                             "%zu bytes",
                             total);
    size_t off = 0;
    for (unsigned i = 0; i < p; i++) {
        ctx->counts[i] = counts[i] * elem_size;
        ctx->offsets[i] = off;
        off += ctx->counts[i];
    }
    ctx->src = src;
    ctx->elem_size = elem_size;
    ctx->staged = SGL_STAGED_SCATTER;
    return SGL_OK;
}

/* @count elements of @elem_size bytes, as a byte count that fits size_t. */
static int block_bytes(const char *fn, size_t elem_size, size_t count,
                       size_t *ret_bytes)
{
    if (elem_size == 0)
        return sgl_error_set(SGL_EINVAL, "%s: elem_size is 0", fn);
    if (__builtin_mul_overflow(count, elem_size, ret_bytes))
        return sgl_error_set(SGL_ERANGE,
                             "%s: %zu elements of %zu bytes overflow size_t",
                             fn, count, elem_size);
    return SGL_OK;
}

/* A received block of @bytes as a count of @elem_size elements. */
static int block_count(const char *fn, size_t bytes, size_t elem_size,
                       size_t *ret_count)
{
    if (elem_size == 0)
        return sgl_error_set(SGL_EINVAL, "%s: elem_size is 0", fn);
    if (bytes % elem_size)
        return sgl_error_set(SGL_ESIZE,
                             "%s: the block has %zu bytes, not a multiple "
                             "of the element size %zu",
                             fn, bytes, elem_size);
    *ret_count = bytes / elem_size;
    return SGL_OK;
}

int sgl_scatter_split(sgl_ctx_t *ctx, const void *src, size_t elem_size,
                      size_t n, const double *weights)
{
    int rc = check_stage(ctx, "sgl_scatter_split");
    if (rc)
        return rc;
    size_t *counts = malloc(ctx->node->arity * sizeof *counts);
    if (!counts)
        return sgl_error_set(SGL_ENOMEM, "sgl_scatter_split: out of memory");
    rc = sgl_ctx_split(ctx, n, weights, counts);
    if (!rc)
        rc = sgl_scatter(ctx, src, elem_size, counts);
    free(counts);
    return rc;
}

int sgl_bcast(sgl_ctx_t *ctx, const void *src, size_t elem_size,
              size_t count)
{
    int rc = check_stage(ctx, "sgl_bcast");
    size_t bytes = 0;
    if (!rc)
        rc = block_bytes("sgl_bcast", elem_size, count, &bytes);
    if (rc)
        return rc;
    if (bytes > 0 && !src)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_bcast: src is NULL but bytes is %zu", bytes);
    for (unsigned i = 0; i < ctx->node->arity; i++) {
        ctx->counts[i] = bytes;
        ctx->offsets[i] = 0;
    }
    ctx->src = src;
    ctx->elem_size = 1;
    ctx->staged = SGL_STAGED_BCAST;
    return SGL_OK;
}

int sgl_scatter_buffer(sgl_ctx_t *ctx, unsigned i, size_t elem_size,
                       size_t count, void **ret_data)
{
    size_t bytes = 0;
    /* Later calls of one superstep add children to the staged buffers. */
    int more = ctx && ctx->node->arity > 0 &&
               ctx->staged == SGL_STAGED_BUFFERS;
    int rc = more ? SGL_OK : check_stage(ctx, "sgl_scatter_buffer");
    if (rc)
        return rc;
    if (i >= ctx->node->arity)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_scatter_buffer: child %u of %u", i,
                             ctx->node->arity);
    if (!ret_data)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_scatter_buffer: ret_data is NULL");
    if ((rc = block_bytes("sgl_scatter_buffer", elem_size, count, &bytes)))
        return rc;
    rc = sgl__buf_reserve(sgl__level_of(ctx)->stage_buf(ctx, i), bytes);
    if (rc)
        return rc;
    if (ctx->staged != SGL_STAGED_BUFFERS) {
        for (unsigned c = 0; c < ctx->node->arity; c++)
            ctx->counts[c] = ctx->offsets[c] = 0;
        ctx->staged = SGL_STAGED_BUFFERS;
        ctx->src = NULL;
        ctx->elem_size = 1;
    }
    ctx->counts[i] = bytes;
    *ret_data = sgl__level_of(ctx)->stage_buf(ctx, i)->data;
    return SGL_OK;
}

/* The children's parts of a destination named by sgl_gather_into() last
 * for one pardo, whatever its outcome, as staged blocks do. */
static void gather_into_clear(struct sgl_ctx *ctx)
{
    if (!sgl__level_of(ctx)->threads)
        return;
    for (unsigned i = 0; i < ctx->node->arity; i++)
        ctx->child[i]->put_at = NULL;
}

int sgl_gather_into(sgl_ctx_t *ctx, void *dst, size_t elem_size,
                    const size_t *counts)
{
    if (!ctx || !counts)
        return sgl_error_set(SGL_EINVAL, "sgl_gather_into: NULL argument");
    if (ctx->node->arity == 0)
        return sgl_error_set(SGL_ESTATE, "sgl_gather_into: called on a "
                                         "worker (level %u, index %u)",
                             ctx->node->level, ctx->node->index);
    if (elem_size == 0)
        return sgl_error_set(SGL_EINVAL, "sgl_gather_into: elem_size is 0");
    size_t total = 0;
    for (unsigned i = 0; i < ctx->node->arity; i++) {
        size_t bytes;
        if (__builtin_mul_overflow(counts[i], elem_size, &bytes) ||
            __builtin_add_overflow(total, bytes, &total))
            return sgl_error_set(SGL_ERANGE, "sgl_gather_into: counts up to "
                                             "child %u overflow size_t bytes",
                                 i);
    }
    if (total > 0 && !dst)
        return sgl_error_set(SGL_EINVAL, "sgl_gather_into: dst is NULL but "
                                         "counts total %zu bytes",
                             total);
    /* Across an MPI link a child's block has to travel: it is received
     * into dst by sgl_gather() as before, and nothing is staged. */
    if (!sgl__level_of(ctx)->threads)
        return SGL_OK;
    size_t off = 0;
    for (unsigned i = 0; i < ctx->node->arity; i++) {
        struct sgl_ctx *c = ctx->child[i];
        size_t bytes = counts[i] * elem_size;
        c->put_at = bytes ? (char *)dst + off : NULL;
        c->put_at_bytes = bytes;
        off += bytes;
    }
    return SGL_OK;
}

int sgl__pardo_with(struct sgl_ctx *ctx, sgl_task_fn task, const void *arg,
                    size_t arg_size, int (*finish)(struct sgl_ctx *, int))
{
    double start = sgl__now(ctx->rt);
    int watched = ctx->rt->dog != NULL;
    ctx->step_start = start;
    ctx->cwait = 0;
    ctx->released = 0;
    for (unsigned i = 0; i < ctx->node->arity; i++) {
        sgl__publish_returned(ctx, i, 0);
        ctx->cdone[i] = 0;
    }
    /* What only the watchdog reads is published only where it runs: a
     * clock read and the stores of every superstep otherwise. */
    if (watched)
        atomic_store_explicit(&ctx->pardo_start, sgl__watch_clock(),
                              memory_order_relaxed);
    int rc = sgl__level_of(ctx)->pardo(ctx, task, arg, arg_size);
    if (watched)
        atomic_store_explicit(&ctx->pardo_start, 0, memory_order_relaxed);
    if (finish)
        rc = finish(ctx, rc);
    sgl__trace_record(ctx, start);
    /* The work done below is this node's for the level above (a refit
     * there weighs whole subtrees); a failed pardo's may be stale. */
    if (ctx->in_task && rc == SGL_OK)
        for (unsigned i = 0; i < ctx->node->arity; i++)
            ctx->work += ctx->cwork[i];
    /* Staged blocks belong to one superstep, whatever its outcome. */
    ctx->staged = SGL_STAGED_NONE;
    ctx->src = NULL;
    gather_into_clear(ctx);
    return rc;
}

int sgl_pardo(sgl_ctx_t *ctx, sgl_task_fn task, const void *arg,
              size_t arg_size)
{
    if (!ctx)
        return sgl_error_set(SGL_EINVAL, "sgl_pardo: context is NULL");
    int rc;
    if (ctx->node->arity == 0)
        rc = sgl_error_set(SGL_ESTATE,
                           "sgl_pardo: called on a worker (level %u, index "
                           "%u); only a master has children",
                           ctx->node->level, ctx->node->index);
    else if (!task)
        rc = sgl_error_set(SGL_EINVAL, "sgl_pardo: task is NULL");
    else if (arg_size > 0 && !arg)
        rc = sgl_error_set(SGL_EINVAL,
                           "sgl_pardo: arg is NULL but arg_size is %zu",
                           arg_size);
    else
        return sgl__pardo_with(ctx, task, arg, arg_size, NULL);
    /* Staged blocks belong to one superstep, whatever its outcome. */
    ctx->staged = SGL_STAGED_NONE;
    ctx->src = NULL;
    if (ctx->node->arity)
        gather_into_clear(ctx);
    return rc;
}

/* A block received straight into an earlier sgl_gather()'s destination
 * is not kept anywhere else. */
static int check_not_consumed(const struct sgl_ctx *ctx, const char *fn,
                              unsigned from, unsigned to)
{
    if (ctx->released)
        return sgl_error_set(SGL_ESTATE,
                             "%s: the blocks of the last pardo were freed by "
                             "sgl_gather_release()",
                             fn);
    if (!ctx->consumed)
        return SGL_OK;
    for (unsigned i = from; i < to; i++)
        if (!ctx->gdata[i] && ctx->gbytes[i] && !ctx->pending[i])
            return sgl_error_set(SGL_ESTATE,
                                 "%s: the block of child %u went straight "
                                 "into an earlier sgl_gather() destination "
                                 "and is no longer held",
                                 fn, i);
    return SGL_OK;
}

/* 1 if some child's block lies inside @dst's @cap bytes but not at the
 * place this gather gives it: a child put in place (sgl_gather_into())
 * after an earlier child put another size than its count, so its block
 * sits where the counts said and the blocks before it would overwrite
 * it. */
static int blocks_misplaced(const struct sgl_ctx *ctx, const char *dst,
                            size_t cap)
{
    uintptr_t lo = (uintptr_t)dst, out = lo;
    uintptr_t hi = cap > UINTPTR_MAX - lo ? UINTPTR_MAX : lo + cap;
    for (unsigned i = 0; dst && i < ctx->node->arity; i++) {
        uintptr_t g = (uintptr_t)ctx->gdata[i];
        if (ctx->gbytes[i] && g && g != out && g >= lo && g < hi)
            return 1;
        out += ctx->gbytes[i];
    }
    return 0;
}

/* Every child's block to its place in @dst, in child order. A block a
 * child put in place is already there and is not copied; when blocks
 * are misplaced (blocks_misplaced()) they all go through a copy first.
 * SGL_OK or SGL_ENOMEM. */
static int place_blocks(struct sgl_ctx *ctx, char *dst, size_t cap)
{
    unsigned p = ctx->node->arity;
    size_t total = 0;
    for (unsigned i = 0; i < p; i++)
        total += ctx->gbytes[i];
    char *tmp = NULL, *out = dst;
    if (blocks_misplaced(ctx, dst, cap)) {
        if (!(tmp = malloc(total)))
            return sgl_error_set(SGL_ENOMEM, "sgl_gather: %zu bytes to "
                                             "reorder blocks put in place",
                                 total);
        out = tmp;
    }
    for (unsigned i = 0; i < p; i++) {
        if (ctx->gbytes[i] && ctx->gdata[i] && ctx->gdata[i] != out)
            memcpy(out, ctx->gdata[i], ctx->gbytes[i]);
        out += ctx->gbytes[i];
    }
    if (tmp)
        memcpy(dst, tmp, total);
    free(tmp);
    return SGL_OK;
}

int sgl_gather(sgl_ctx_t *ctx, void *dst, size_t elem_size, size_t capacity,
               size_t *ret_counts)
{
    if (!ctx)
        return sgl_error_set(SGL_EINVAL, "sgl_gather: context is NULL");
    if (ctx->node->arity == 0 || !ctx->gathered)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_gather: no pardo has returned on this %s "
                             "(level %u, index %u)",
                             role(ctx), ctx->node->level, ctx->node->index);
    if (ctx->released)
        return check_not_consumed(ctx, "sgl_gather", 0, 0);
    if (elem_size == 0)
        return sgl_error_set(SGL_EINVAL, "sgl_gather: elem_size is 0");
    unsigned p = ctx->node->arity;
    size_t total = 0;
    for (unsigned i = 0; i < p; i++) {
        if (ctx->gbytes[i] % elem_size)
            return sgl_error_set(SGL_ESIZE,
                                 "sgl_gather: child %u put %zu bytes, not a "
                                 "multiple of the element size %zu",
                                 i, ctx->gbytes[i], elem_size);
        total += ctx->gbytes[i] / elem_size;
    }
    if (total > capacity)
        return sgl_error_set(SGL_ESIZE,
                             "sgl_gather: children put %zu elements, dst "
                             "holds %zu",
                             total, capacity);
    if (total > 0 && !dst)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_gather: dst is NULL but children put %zu "
                             "elements",
                             total);
    int rc = check_not_consumed(ctx, "sgl_gather", 0, p);
    /* Blocks a link still holds (large MPI hand-ups in flight) land
     * straight in dst. */
    const struct sgl__level *link = sgl__level_of(ctx);
    if (!rc && link->fetch)
        rc = link->fetch(ctx, dst);
    if (rc)
        return rc;
    size_t cap;
    if (__builtin_mul_overflow(capacity, elem_size, &cap))
        cap = SIZE_MAX;
    if ((rc = place_blocks(ctx, dst, cap)))
        return rc;
    for (unsigned i = 0; ret_counts && i < p; i++)
        ret_counts[i] = ctx->gbytes[i] / elem_size;
    for (unsigned i = 0; i < p; i++)
        if (!ctx->gdata[i] && ctx->gbytes[i])
            ctx->consumed = 1;
    return SGL_OK;
}

int sgl_gather_alloc(sgl_ctx_t *ctx, size_t elem_size, void **ret_data,
                     size_t *ret_total, size_t *ret_counts)
{
    if (!ctx || !ret_data || !ret_total)
        return sgl_error_set(SGL_EINVAL, "sgl_gather_alloc: NULL argument");
    if (ctx->node->arity == 0 || !ctx->gathered)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_gather_alloc: no pardo has returned on "
                             "this %s (level %u, index %u)",
                             role(ctx), ctx->node->level, ctx->node->index);
    if (elem_size == 0)
        return sgl_error_set(SGL_EINVAL, "sgl_gather_alloc: elem_size is 0");
    size_t bytes = 0;
    for (unsigned i = 0; i < ctx->node->arity; i++)
        bytes += ctx->gbytes[i];
    void *data = NULL;
    if (bytes && !(data = malloc(bytes)))
        return sgl_error_set(SGL_ENOMEM,
                             "sgl_gather_alloc: out of memory for %zu bytes",
                             bytes);
    int rc = sgl_gather(ctx, data, elem_size, bytes / elem_size, ret_counts);
    if (rc) {
        free(data);
        return rc;
    }
    *ret_data = data;
    *ret_total = bytes / elem_size;
    return SGL_OK;
}

int sgl_gather_release(sgl_ctx_t *ctx)
{
    if (!ctx)
        return sgl_error_set(SGL_EINVAL, "sgl_gather_release: context is "
                                         "NULL");
    if (ctx->node->arity == 0 || !ctx->gathered)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_gather_release: no pardo has returned on "
                             "this %s (level %u, index %u)",
                             role(ctx), ctx->node->level, ctx->node->index);
    int rc = SGL_OK;
    /* Senders of blocks still in flight wait until they are received. */
    const struct sgl__level *link = sgl__level_of(ctx);
    if (link->fetch)
        rc = link->fetch(ctx, NULL);
    for (unsigned i = 0; i < ctx->node->arity; i++) {
        struct sgl_ctx *c = ctx->child[i];
        if (c) {
            sgl__buf_free(&c->up);
            c->up_bytes = 0;
            c->up_at = NULL;
        }
        ctx->gdata[i] = NULL;
    }
    if (link->release)
        link->release(ctx);
    ctx->released = 1;
    return rc;
}

int sgl_gather_block(sgl_ctx_t *ctx, unsigned i, size_t elem_size,
                     const void **ret_data, size_t *ret_count)
{
    if (!ctx || !ret_data || !ret_count)
        return sgl_error_set(SGL_EINVAL, "sgl_gather_block: NULL argument");
    if (ctx->node->arity == 0 || !ctx->gathered)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_gather_block: no pardo has returned on "
                             "this %s",
                             role(ctx));
    if (i >= ctx->node->arity)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_gather_block: child %u of %u", i,
                             ctx->node->arity);
    size_t count = 0;
    int rc = block_count("sgl_gather_block", ctx->gbytes[i], elem_size,
                         &count);
    if (!rc)
        rc = check_not_consumed(ctx, "sgl_gather_block", i, i + 1);
    if (!rc && ctx->pending[i])
        rc = sgl__level_of(ctx)->fetch(ctx, NULL);
    if (rc)
        return rc;
    *ret_data = ctx->gdata[i];
    *ret_count = count;
    return SGL_OK;
}

/* Node-side calls are valid inside the task running on the context: a
 * child's pardo task, or the root's run task. */
static int check_child(const struct sgl_ctx *ctx, const char *fn)
{
    if (!ctx)
        return sgl_error_set(SGL_EINVAL, "%s: context is NULL", fn);
    if (!ctx->in_task)
        return sgl_error_set(SGL_ESTATE, "%s: called outside a task", fn);
    return SGL_OK;
}

/* Where this node's received block is read, and its size: its own copy
 * once it has one; else, at the root, the run's argument; else where the
 * link left it (a view of the master's source below a thread link). */
static const void *block_view(const struct sgl_ctx *c, size_t *ret_bytes)
{
    if (!c->down_data && !c->node->parent) {
        *ret_bytes = c->rt->run_arg_size;
        return c->rt->run_arg;
    }
    *ret_bytes = c->down_bytes;
    return c->down_data ? c->down_data : c->down_view;
}

/* Give this node its own, writable copy of its block, made by the thread
 * that runs the task (first touch on its core) and only when a task asks
 * for one (sgl_recv()): a task that reads its block in place, or not at
 * all, pays no copy. At the root the block is the run's argument. */
static int own_block(struct sgl_ctx *c)
{
    size_t bytes;
    const void *src = block_view(c, &bytes);
    int rc = sgl__buf_reserve(&c->down, bytes);
    if (rc)
        return rc;
    if (bytes)
        memcpy(c->down.data, src, bytes);
    c->down_data = c->down.data;
    c->down_view = c->down.data;
    c->down_bytes = bytes;
    return SGL_OK;
}

/* The checks sgl_recv() and sgl_recv_view() share. */
static int check_recv(const struct sgl_ctx *ctx, const char *fn,
                      const void *ret_data, const size_t *ret_count)
{
    int rc = check_child(ctx, fn);
    if (rc)
        return rc;
    if (!ret_data || !ret_count)
        return sgl_error_set(SGL_EINVAL, "%s: NULL out-parameter", fn);
    if (ctx->down_released)
        return sgl_error_set(SGL_ESTATE, "%s: the block was freed by "
                                         "sgl_recv_release()",
                             fn);
    return SGL_OK;
}

int sgl_recv(sgl_ctx_t *ctx, size_t elem_size, void **ret_data,
             size_t *ret_count)
{
    int rc = check_recv(ctx, "sgl_recv", ret_data, ret_count);
    if (rc)
        return rc;
    size_t count = 0;
    size_t bytes;
    block_view(ctx, &bytes);
    /* Checked before the copy, which a bad element size would waste. */
    if ((rc = block_count("sgl_recv", bytes, elem_size, &count)))
        return rc;
    if (!ctx->down_data && (rc = own_block(ctx)))
        return rc;
    *ret_data = ctx->down_data;
    *ret_count = count;
    return SGL_OK;
}

int sgl_recv_view(sgl_ctx_t *ctx, size_t elem_size, const void **ret_data,
                  size_t *ret_count)
{
    int rc = check_recv(ctx, "sgl_recv_view", ret_data, ret_count);
    if (rc)
        return rc;
    size_t count = 0;
    size_t bytes;
    const void *data = block_view(ctx, &bytes);
    if ((rc = block_count("sgl_recv_view", bytes, elem_size, &count)))
        return rc;
    *ret_data = data;
    *ret_count = count;
    return SGL_OK;
}

int sgl_recv_release(sgl_ctx_t *ctx)
{
    int rc = check_child(ctx, "sgl_recv_release");
    if (rc)
        return rc;
    /* At an MPI entry node the buffer holds the whole command; the
     * argument was copied out of it before the task started. A view of
     * the master's source ends here too, so that the rule does not
     * depend on the link. */
    sgl__buf_free(&ctx->down);
    ctx->down_data = NULL;
    ctx->down_view = NULL;
    ctx->down_bytes = 0;
    ctx->down_released = 1;
    return SGL_OK;
}

int sgl_put_buffer(sgl_ctx_t *ctx, size_t elem_size, size_t count,
                   void **ret_data)
{
    int rc = check_child(ctx, "sgl_put_buffer");
    if (rc)
        return rc;
    if (!ret_data)
        return sgl_error_set(SGL_EINVAL, "sgl_put_buffer: ret_data is NULL");
    size_t bytes = 0;
    if ((rc = block_bytes("sgl_put_buffer", elem_size, count, &bytes)))
        return rc;
    if (ctx->put_at && bytes == ctx->put_at_bytes) {
        ctx->up_at = ctx->put_at;
    } else {
        rc = sgl__buf_reserve(&ctx->up, bytes);
        if (rc)
            return rc;
        ctx->up_at = ctx->up.data;
    }
    ctx->up_bytes = bytes;
    *ret_data = ctx->up_at;
    return SGL_OK;
}

int sgl_ctx_add_work(sgl_ctx_t *ctx, double units)
{
    if (!ctx || !ctx->in_task)
        return sgl_error_set(SGL_ESTATE, "sgl_ctx_add_work: outside a task");
    ctx->work += units;
    return sgl__sim_work_charge(units);
}

int sgl_put(sgl_ctx_t *ctx, const void *src, size_t elem_size, size_t count)
{
    if (count > 0 && !src)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_put: src is NULL but count is %zu", count);
    void *dst;
    int rc = sgl_put_buffer(ctx, elem_size, count, &dst);
    if (rc)
        return rc;
    /* In place, src may be the buffer an earlier put of this task lent. */
    if (count && dst != src)
        memmove(dst, src, count * elem_size);
    return SGL_OK;
}
