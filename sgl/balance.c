/* Balance by measured speed (the SGL paper: explicit data distribution
 * "will allow automatic or programmable load-balancing"): the weights of
 * workers and children that splits use, from the per-worker c of the
 * machine parameters the runtime was given. Weights are integers from 1
 * to SGL_WEIGHT_ONE, so that their sums are exact in a double and splits
 * by them are exact in 128 bits: every process, and every master of one
 * tree, cuts at the same element. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_impl.h"
#include <sgl/balance.h>

__extension__ typedef unsigned __int128 u128;

static uint32_t quantise(double speed)
{
    double q = nearbyint(speed * SGL_WEIGHT_ONE);
    return q < 1 ? 1 : q > SGL_WEIGHT_ONE ? SGL_WEIGHT_ONE : (uint32_t)q;
}

int sgl__balance_update(sgl_runtime_t *rt)
{
    size_t p = sgl_machine_workers(rt->machine);
    double *s = malloc(p * sizeof *s);
    uint32_t *q = malloc(p * sizeof *q);
    /* The balance kernel's speeds where it was measured per worker, else
     * the overall ones. */
    int got = -1;
    if (s && q && rt->balance_kernel[0])
        got = sgl__worker_speeds(rt->machine, rt->balance_kernel, s);
    if (s && q && got <= 0)
        got = sgl__worker_speeds(rt->machine, NULL, s);
    if (got < 0) {
        free(s);
        free(q);
        return sgl_error_set(SGL_ENOMEM, "out of memory for %zu workers' "
                                         "speeds",
                             p);
    }
    for (size_t w = 0; got && w < p; w++)
        q[w] = quantise(s[w]);
    free(s);
    free(rt->speed);
    rt->speed = got ? q : NULL;
    if (!got)
        free(q);
    return SGL_OK;
}

int sgl_runtime_set_balance(sgl_runtime_t *rt, sgl_balance_t balance)
{
    if (!rt)
        return sgl_error_set(SGL_EINVAL, "sgl_runtime_set_balance: NULL "
                                         "runtime");
    if (balance != SGL_BALANCE_SPEED && balance != SGL_BALANCE_WORKERS)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_runtime_set_balance: unknown balance %d "
                             "(SGL_BALANCE_SPEED or SGL_BALANCE_WORKERS)",
                             (int)balance);
    rt->balance = balance;
    return SGL_OK;
}

sgl_balance_t sgl_runtime_balance(const sgl_runtime_t *rt)
{
    return rt ? (sgl_balance_t)rt->balance : SGL_BALANCE_SPEED;
}

int sgl_runtime_set_balance_kernel(sgl_runtime_t *rt, const char *kernel)
{
    static const char fn[] = "sgl_runtime_set_balance_kernel";
    if (!rt)
        return sgl_error_set(SGL_EINVAL, "%s: NULL runtime", fn);
    if (kernel && sgl__check_kernel_name(fn, kernel))
        return SGL_EINVAL;
    /* Out of memory for the new weights leaves the old kernel and
     * weights in force. */
    char was[sizeof rt->balance_kernel];
    memcpy(was, rt->balance_kernel, sizeof was);
    snprintf(rt->balance_kernel, sizeof rt->balance_kernel, "%s",
             kernel ? kernel : "");
    int rc = sgl__balance_update(rt);
    if (rc)
        memcpy(rt->balance_kernel, was, sizeof was);
    return rc;
}

const char *sgl_runtime_balance_kernel(const sgl_runtime_t *rt)
{
    return rt && rt->balance_kernel[0] ? rt->balance_kernel : NULL;
}

int sgl_ctx_worker_weights(const sgl_ctx_t *ctx, const char *kernel,
                           size_t first, size_t count, double *ret_weights)
{
    static const char fn[] = "sgl_ctx_worker_weights";
    if (!ctx || (count && !ret_weights))
        return sgl_error_set(SGL_EINVAL, "%s: NULL argument", fn);
    const sgl_runtime_t *rt = ctx->rt;
    size_t p = sgl_machine_workers(rt->machine);
    if (first > p || count > p - first)
        return sgl_error_set(SGL_EINVAL,
                             "%s: workers [%zu, %zu) are outside the "
                             "tree's %zu",
                             fn, first, first + count, p);
    double *s = NULL;
    int got = 0;
    if (rt->balance == SGL_BALANCE_SPEED && kernel) {
        if (!(s = malloc(p * sizeof *s)))
            return sgl_error_set(SGL_ENOMEM, "%s: out of memory", fn);
        if ((got = sgl__worker_speeds(rt->machine, kernel, s)) < 0) {
            free(s);
            return sgl_error_set(SGL_ENOMEM, "%s: out of memory", fn);
        }
    }
    for (size_t i = 0; i < count; i++) {
        size_t w = first + i;
        /* A kernel not measured per worker: the overall speed (a worker
         * under a CPU quota is slow at everything). */
        ret_weights[i] = got ? quantise(s[w])
                         : rt->balance == SGL_BALANCE_SPEED && rt->speed
                             ? rt->speed[w]
                             : SGL_WEIGHT_ONE;
    }
    free(s);
    return SGL_OK;
}

int sgl_ctx_child_weights(const sgl_ctx_t *ctx, const char *kernel,
                    double *ret_weights)
{
    if (!ctx || !ret_weights)
        return sgl_error_set(SGL_EINVAL, "sgl_ctx_child_weights: NULL argument");
    const struct sgl_node *n = ctx->node;
    if (n->arity == 0)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_ctx_child_weights: called on a worker (level %u, "
                             "index %u); only a master has children",
                             n->level, n->index);
    double *w = malloc(n->workers * sizeof *w);
    if (!w)
        return sgl_error_set(SGL_ENOMEM, "sgl_ctx_child_weights: out of memory");
    int rc = sgl_ctx_worker_weights(ctx, kernel, n->first_worker, n->workers,
                                    w);
    for (unsigned i = 0, at = 0; !rc && i < n->arity; i++) {
        ret_weights[i] = 0;
        for (size_t k = 0; k < n->child[i]->workers; k++)
            ret_weights[i] += w[at++];
    }
    free(w);
    return rc;
}

int sgl__split_by_speed(const sgl_ctx_t *ctx, size_t n, size_t *counts)
{
    const struct sgl_node *m = ctx->node;
    const uint32_t *q = ctx->rt->speed + m->first_worker;
    uint64_t total = 0, below = 0;
    for (size_t w = 0; w < m->workers; w++)
        total += q[w];
    size_t done = 0, at = 0;
    for (unsigned i = 0; i < m->arity; i++) {
        for (size_t k = 0; k < m->child[i]->workers; k++)
            below += q[at++];
        size_t end = (size_t)((u128)n * below / total);
        counts[i] = end - done;
        done = end;
    }
    return SGL_OK;
}
