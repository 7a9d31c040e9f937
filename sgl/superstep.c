/* The superstep primitives independent of the level: staging of scatter
 * and broadcast blocks, the pardo entry point that picks the level's
 * implementation, gather, and the child side (recv, put). */
#include <stdint.h>
#include <string.h>

#include "runtime_impl.h"

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

int sgl_bcast(sgl_ctx_t *ctx, const void *src, size_t bytes)
{
    int rc = check_stage(ctx, "sgl_bcast");
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

struct sgl_buf *sgl__stage_buf(struct sgl_ctx *m, unsigned i)
{
    return m->child[i] ? &m->child[i]->down : &m->sbuf[i];
}

int sgl_scatter_buffer(sgl_ctx_t *ctx, unsigned i, size_t bytes,
                       void **ret_data)
{
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
    rc = sgl__buf_reserve(sgl__stage_buf(ctx, i), bytes);
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
    *ret_data = sgl__stage_buf(ctx, i)->data;
    return SGL_OK;
}

int sgl__deliver_local(struct sgl_ctx *master, unsigned i,
                       struct sgl_ctx *child)
{
    size_t bytes = master->staged == SGL_STAGED_NONE ? 0 : master->counts[i];
    if (master->staged == SGL_STAGED_BUFFERS) {
        /* The master filled this child's own buffer. */
        child->down_data = child->down.data;
        child->down_bytes = bytes;
        return SGL_OK;
    }
    int rc = sgl__buf_reserve(&child->down, bytes);
    if (rc)
        return rc;
    if (bytes)
        memcpy(child->down.data,
               (const char *)master->src + master->offsets[i], bytes);
    child->down_data = child->down.data;
    child->down_bytes = bytes;
    return SGL_OK;
}

void sgl__run_child(struct sgl_ctx *child, sgl_task_fn task, const void *arg,
                    size_t arg_size)
{
    child->up_bytes = 0;
    child->down_released = 0;
    child->errmsg[0] = '\0';
    child->work = 0;
    child->task_start = child->last_end = sgl__now(child->rt);
    child->in_task = 1;
    child->status = task(child, arg, arg_size);
    child->in_task = 0;
    child->task_time = sgl__now(child->rt) - child->task_start;
    if (child->status < 0)
        snprintf(child->errmsg, sizeof child->errmsg, "%s", sgl_last_error());
}

int sgl__child_failed(const struct sgl_ctx *master, unsigned i, int rank,
                      int status, const char *msg)
{
    return sgl_error_set(status, "child %u of %s L#%u at level %u (rank %d): "
                                 "%s",
                         i, master->node->type, master->node->index,
                         master->node->level, rank,
                         msg && *msg ? msg : sgl_strerror(status));
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
    else {
        double start = sgl__now(ctx->rt);
        ctx->released = 0;
        if (ctx->node->link == SGL_LINK_MPI)
            rc = sgl__pardo_mpi(ctx, task, arg, arg_size);
        else
            rc = sgl__pardo_threads(ctx, task, arg, arg_size);
        sgl__trace_record(ctx, start);
    }
    /* Staged blocks belong to one superstep, whatever its outcome. */
    ctx->staged = SGL_STAGED_NONE;
    ctx->src = NULL;
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
    /* Large MPI blocks still in flight land straight in dst. */
    if (!rc && ctx->node->link == SGL_LINK_MPI)
        rc = sgl__mpi_drain(ctx, dst);
    if (rc)
        return rc;
    char *out = dst;
    for (unsigned i = 0; i < p; i++) {
        if (ctx->gbytes[i] && ctx->gdata[i])
            memcpy(out, ctx->gdata[i], ctx->gbytes[i]);
        out += ctx->gbytes[i];
        if (ret_counts)
            ret_counts[i] = ctx->gbytes[i] / elem_size;
    }
    if (ctx->node->link == SGL_LINK_MPI)
        for (unsigned i = 0; i < p; i++)
            if (!ctx->gdata[i] && ctx->gbytes[i])
                ctx->consumed = 1;
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
    if (ctx->node->link == SGL_LINK_MPI)
        rc = sgl__mpi_drain(ctx, NULL);
    for (unsigned i = 0; i < ctx->node->arity; i++) {
        struct sgl_ctx *c = ctx->child[i];
        if (c) {
            sgl__buf_free(&c->up);
            c->up_bytes = 0;
        }
        /* Receive buffers of the pre-posted size stay: the next pardo
         * posts its replies into them. */
        if (ctx->gbuf[i].cap > SGL__PACK_MAX)
            sgl__buf_free(&ctx->gbuf[i]);
        ctx->gdata[i] = NULL;
    }
    ctx->released = 1;
    return rc;
}

int sgl_gather_block(sgl_ctx_t *ctx, unsigned i, const void **ret_data,
                     size_t *ret_bytes)
{
    if (!ctx || !ret_data || !ret_bytes)
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
    int rc = check_not_consumed(ctx, "sgl_gather_block", i, i + 1);
    if (!rc && ctx->node->link == SGL_LINK_MPI && ctx->pending[i])
        rc = sgl__mpi_drain(ctx, NULL);
    if (rc)
        return rc;
    *ret_data = ctx->gdata[i];
    *ret_bytes = ctx->gbytes[i];
    return SGL_OK;
}

static int check_child(const struct sgl_ctx *ctx, const char *fn)
{
    if (!ctx)
        return sgl_error_set(SGL_EINVAL, "%s: context is NULL", fn);
    if (!ctx->node->parent)
        return sgl_error_set(SGL_ESTATE,
                             "%s: called on the root, which has no master",
                             fn);
    if (!ctx->in_task)
        return sgl_error_set(SGL_ESTATE, "%s: called outside a task", fn);
    return SGL_OK;
}

int sgl_recv(sgl_ctx_t *ctx, void **ret_data, size_t *ret_bytes)
{
    int rc = check_child(ctx, "sgl_recv");
    if (rc)
        return rc;
    if (!ret_data || !ret_bytes)
        return sgl_error_set(SGL_EINVAL, "sgl_recv: NULL out-parameter");
    if (ctx->down_released)
        return sgl_error_set(SGL_ESTATE, "sgl_recv: the block was freed by "
                                         "sgl_recv_release()");
    *ret_data = ctx->down_data;
    *ret_bytes = ctx->down_bytes;
    return SGL_OK;
}

int sgl_recv_release(sgl_ctx_t *ctx)
{
    int rc = check_child(ctx, "sgl_recv_release");
    if (rc)
        return rc;
    /* At an MPI entry node the buffer holds the whole command; the
     * argument was copied out of it before the task started. */
    sgl__buf_free(&ctx->down);
    ctx->down_data = NULL;
    ctx->down_bytes = 0;
    ctx->down_released = 1;
    return SGL_OK;
}

int sgl_put_buffer(sgl_ctx_t *ctx, size_t bytes, void **ret_data)
{
    int rc = check_child(ctx, "sgl_put_buffer");
    if (rc)
        return rc;
    if (!ret_data)
        return sgl_error_set(SGL_EINVAL, "sgl_put_buffer: ret_data is NULL");
    rc = sgl__buf_reserve(&ctx->up, bytes);
    if (rc)
        return rc;
    ctx->up_bytes = bytes;
    *ret_data = ctx->up.data;
    return SGL_OK;
}

int sgl_ctx_add_work(sgl_ctx_t *ctx, double units)
{
    if (!ctx || !ctx->in_task)
        return sgl_error_set(SGL_ESTATE, "sgl_ctx_add_work: outside a task");
    ctx->work += units;
    return SGL_OK;
}

int sgl_put(sgl_ctx_t *ctx, const void *src, size_t bytes)
{
    if (bytes > 0 && !src)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_put: src is NULL but bytes is %zu", bytes);
    void *dst;
    int rc = sgl_put_buffer(ctx, bytes, &dst);
    if (rc)
        return rc;
    if (bytes)
        memcpy(dst, src, bytes);
    return SGL_OK;
}
