/* The exchange superstep's API (sgl.h): a worker stages addressed blocks,
 * a master runs the exchange by the method chosen for its level, a worker
 * reads what it received. The executions are in exchange_direct.c and
 * exchange_routed.c; what they and this file share is in
 * exchange_common.c. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exchange.h"
#include "level.h"
#include <sgl/exchange.h>
#include <sgl/trace.h>

static int check_worker_task(const struct sgl_ctx *ctx, const char *fn)
{
    if (!ctx)
        return sgl_error_set(SGL_EINVAL, "%s: context is NULL", fn);
    if (ctx->node->arity)
        return sgl_error_set(SGL_ESTATE,
                             "%s: called on a master (level %u, index %u); "
                             "only workers send and receive exchange blocks",
                             fn, ctx->node->level, ctx->node->index);
    if (!ctx->in_task)
        return sgl_error_set(SGL_ESTATE, "%s: called outside a task", fn);
    return SGL_OK;
}

int sgl_exchange_put(sgl_ctx_t *ctx, const void *src, size_t elem_size,
                     size_t first_dest, size_t ndest, const size_t *counts)
{
    int rc = check_worker_task(ctx, "sgl_exchange_put");
    if (rc)
        return rc;
    if (elem_size == 0)
        return sgl_error_set(SGL_EINVAL, "sgl_exchange_put: elem_size is 0");
    if (ndest && !counts)
        return sgl_error_set(SGL_EINVAL, "sgl_exchange_put: counts is NULL "
                                         "for %zu destinations",
                             ndest);
    size_t last;
    if (__builtin_add_overflow(first_dest, ndest, &last) ||
        last > sgl_machine_workers(ctx->rt->machine))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_exchange_put: destinations %zu..%zu+%zu "
                             "beyond the machine's %zu workers",
                             first_dest, first_dest, ndest,
                             sgl_machine_workers(ctx->rt->machine));
    if (sgl__x_offsets_reserve(&ctx->xo_off, &ctx->xo_cap, ndest))
        return sgl_error_set(SGL_ENOMEM, "sgl_exchange_put: out of memory "
                                         "for %zu counts",
                             ndest);
    size_t total = 0;
    for (size_t j = 0; j < ndest; j++) {
        size_t bytes;
        if (__builtin_mul_overflow(counts[j], elem_size, &bytes) ||
            __builtin_add_overflow(total, bytes, &total)) {
            sgl__xo_clear(ctx);
            return sgl_error_set(SGL_ERANGE,
                                 "sgl_exchange_put: counts up to "
                                 "destination %zu overflow size_t bytes",
                                 first_dest + j);
        }
        ctx->xo_off[j] = total - bytes;
    }
    if (total && !src) {
        sgl__xo_clear(ctx);
        return sgl_error_set(SGL_EINVAL, "sgl_exchange_put: src is NULL but "
                                         "counts total %zu bytes",
                             total);
    }
    ctx->xo_off[ndest] = total;
    ctx->xo_src = src;
    ctx->xo_first = first_dest;
    ctx->xo_n = ndest;
    return SGL_OK;
}

int sgl_exchange_recv(sgl_ctx_t *ctx, size_t elem_size, void **ret_data,
                      size_t *ret_count, const size_t **ret_counts,
                      size_t *ret_sources, size_t *ret_first)
{
    int rc = check_worker_task(ctx, "sgl_exchange_recv");
    if (rc)
        return rc;
    if (!ret_data || !ret_count)
        return sgl_error_set(SGL_EINVAL, "sgl_exchange_recv: NULL "
                                         "out-parameter");
    if (elem_size == 0)
        return sgl_error_set(SGL_EINVAL, "sgl_exchange_recv: elem_size is 0");
    if (ctx->xin_released)
        return sgl_error_set(SGL_ESTATE, "sgl_exchange_recv: the blocks were "
                                         "freed by sgl_exchange_release()");
    size_t n = ctx->xin_n;
    for (size_t s = 0; s < n; s++) {
        size_t bytes = ctx->xin_off[s + 1] - ctx->xin_off[s];
        if (bytes % elem_size)
            return sgl_error_set(SGL_ESIZE,
                                 "sgl_exchange_recv: the block from worker "
                                 "%zu has %zu bytes, not a whole number of "
                                 "%zu-byte elements",
                                 ctx->xin_first + s, bytes, elem_size);
        ctx->xin_elems[s] = bytes / elem_size;
    }
    *ret_data = n ? ctx->xin.data : NULL;
    *ret_count = n ? ctx->xin_off[n] / elem_size : 0;
    if (ret_counts)
        *ret_counts = n ? ctx->xin_elems : NULL;
    if (ret_sources)
        *ret_sources = n;
    if (ret_first)
        *ret_first = n ? ctx->xin_first : 0;
    return SGL_OK;
}

int sgl_exchange_release(sgl_ctx_t *ctx)
{
    int rc = check_worker_task(ctx, "sgl_exchange_release");
    if (rc)
        return rc;
    sgl__buf_free(&ctx->xin);
    ctx->xin_n = 0;
    ctx->xin_released = 1;
    return SGL_OK;
}

int sgl_exchange(sgl_ctx_t *ctx)
{
    if (!ctx)
        return sgl_error_set(SGL_EINVAL, "sgl_exchange: context is NULL");
    if (ctx->node->arity && ctx->staged != SGL_STAGED_NONE)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_exchange: a block is staged for the next "
                             "pardo at level %u; an exchange is a superstep "
                             "of its own",
                             ctx->node->level);
    struct sgl__xarg a = {
        .level = ctx->node->level,
        .method = sgl_runtime_exchange_method(ctx->rt, ctx->node->level),
        .first = ctx->node->first_worker,
        .workers = ctx->node->workers};
    if (a.method == SGL_EXCHANGE_ROUTED && ctx->node->arity)
        return sgl__exchange_routed(ctx, &a);
    return sgl__exchange_direct(ctx, &a);
}

static int method_ok(sgl_exchange_method_t m)
{
    return m == SGL_EXCHANGE_AUTO || m == SGL_EXCHANGE_DIRECT ||
           m == SGL_EXCHANGE_ROUTED;
}

int sgl_runtime_set_exchange(sgl_runtime_t *rt, unsigned level,
                             sgl_exchange_method_t method)
{
    if (!rt)
        return sgl_error_set(SGL_EINVAL, "sgl_runtime_set_exchange: runtime "
                                         "is NULL");
    if (!method_ok(method))
        return sgl_error_set(SGL_EINVAL, "sgl_runtime_set_exchange: unknown "
                                         "method %d",
                             (int)method);
    unsigned depth = sgl_machine_depth(rt->machine);
    if (level != UINT_MAX && level > depth)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_runtime_set_exchange: level %u, but the "
                             "tree's levels are 0..%u",
                             level, depth);
    for (unsigned k = 0; k <= depth; k++)
        if (level == UINT_MAX || level == k)
            rt->xmethod[k] = (unsigned char)method;
    return SGL_OK;
}

sgl_exchange_method_t sgl_runtime_exchange_method(const sgl_runtime_t *rt,
                                                  unsigned level)
{
    if (!rt || level > sgl_machine_depth(rt->machine))
        return SGL_EXCHANGE_DIRECT;
    sgl_exchange_method_t m = (sgl_exchange_method_t)rt->xmethod[level];
    if (m != SGL_EXCHANGE_AUTO)
        return m;
    /* Without the machine's parameters the direct execution is the
     * choice: it moves each byte once instead of twice and never more
     * than one child's share through one link. */
    return rt->xauto[level] ? (sgl_exchange_method_t)rt->xauto[level]
                            : SGL_EXCHANGE_DIRECT;
}

/* The model's pick at master @x for an exchange of BULK bytes between
 * every pair of its workers, the bulk data exchanges move (so the
 * latency terms barely count):
 *   direct: 2 l + l_h + max_i W_i (W - W_i) BULK g_h
 *   routed: 4 l + W^2 BULK (g_up + g_down)   (up to x, then down) */
#define BULK 65536.0

static sgl_exchange_method_t pick(const sgl_node_t *x)
{
    sgl_link_params_t p;
    sgl_exchange_params_t h;
    if (sgl_node_params(x, &p) || sgl_node_exchange_params(x, &h, NULL))
        return SGL_EXCHANGE_AUTO;
    double W = (double)sgl_node_workers(x), most = 0;
    for (unsigned i = 0; i < sgl_node_arity(x); i++) {
        double wi = (double)sgl_node_workers(sgl_node_child(x, i));
        most = wi * (W - wi) > most ? wi * (W - wi) : most;
    }
    double direct = 2 * p.l + h.l + most * BULK * h.g;
    double routed = 4 * p.l + W * W * BULK * (p.g_up + p.g_down);
    return direct <= routed ? SGL_EXCHANGE_DIRECT : SGL_EXCHANGE_ROUTED;
}

/* A copy of @m through its machine file: sgl_machine_write() prints every
 * value so that sgl_machine_read() gives it back exactly, and the file
 * holds everything the predictor reads (levels, kernels, memory). */
static int machine_copy(const sgl_machine_t *m, sgl_machine_t **ret)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return sgl_error_set(SGL_ENOMEM, "sgl_runtime_set_params: out of "
                                         "memory copying the parameters");
    int rc = sgl_machine_write(m, f);
    if (fclose(f) && !rc)
        rc = sgl_error_set(SGL_ENOMEM, "sgl_runtime_set_params: out of "
                                       "memory copying the parameters");
    FILE *in = rc ? NULL : fmemopen(text, len, "r");
    if (!rc && !in)
        rc = sgl_error_set(SGL_ENOMEM, "sgl_runtime_set_params: out of "
                                       "memory copying the parameters");
    if (!rc)
        rc = sgl_machine_read(in, sgl_machine_source(m), ret);
    if (in)
        fclose(in);
    free(text);
    return rc;
}

/* Whether the algorithms get a copy of @m: a machine file must hold it
 * (a shape string) and read back (every level with masters has its
 * parameters), and without those levels the predictor could not price on
 * it anyway. Parameters given for the kernels alone (balance) are no
 * error: they just give the algorithms nothing to price on. */
static int copyable(const sgl_machine_t *m)
{
    sgl_link_params_t p;
    if (!sgl_machine_shape(m))
        return 0;
    for (unsigned l = 0; l < sgl_machine_depth(m); l++)
        if (sgl_machine_level_params(m, l, &p) != SGL_OK)
            return 0;
    return 1;
}

int sgl_runtime_set_params(sgl_runtime_t *rt, const sgl_machine_t *params)
{
    if (!rt || !params)
        return sgl_error_set(SGL_EINVAL, "sgl_runtime_set_params: NULL "
                                         "argument");
    if (!sgl__same_shape(rt->machine, params))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_runtime_set_params: the machine file's "
                             "tree (%s) has another shape than the "
                             "runtime's (%s)",
                             sgl_machine_source(params),
                             sgl_machine_source(rt->machine));
    /* The copy first, so that its failure changes nothing. */
    sgl_machine_t *copy = NULL;
    int rc = copyable(params) ? machine_copy(params, &copy) : SGL_OK;
    if (rc)
        return rc;
    sgl_machine_free(rt->params);
    rt->params = copy;
    unsigned depth = sgl_machine_depth(rt->machine);
    for (unsigned k = 0; k <= depth; k++) {
        const sgl_node_t *x = sgl_machine_master(params, k, 0);
        rt->xauto[k] = x ? (unsigned char)pick(x) : 0;
    }
    /* The kernels too: their per-worker c weigh the splits. */
    rc = sgl_machine_copy_kernels(rt->machine, params);
    return rc ? rc : sgl__balance_update(rt);
}

const sgl_machine_t *sgl_ctx_params(const sgl_ctx_t *ctx)
{
    return ctx ? ctx->rt->params : NULL;
}
