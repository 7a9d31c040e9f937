/* What the exchange's API (exchange.c) and its two executions
 * (exchange_direct.c, exchange_routed.c) share: a worker's staged blocks
 * and its receive buffer. Each of those files calls this one, and this
 * one calls none of them. */
#include <stdlib.h>

#include "exchange.h"
#include <sgl/exchange.h>

void sgl__xo_clear(struct sgl_ctx *w)
{
    w->xo_src = NULL;
    w->xo_first = w->xo_n = 0;
}

size_t sgl__xo_bytes(const struct sgl_ctx *w, size_t d)
{
    if (d < w->xo_first || d - w->xo_first >= w->xo_n)
        return 0;
    size_t j = d - w->xo_first;
    return w->xo_off[j + 1] - w->xo_off[j];
}

const char *sgl__xo_data(const struct sgl_ctx *w, size_t d)
{
    return (const char *)w->xo_src + w->xo_off[d - w->xo_first];
}

int sgl__xo_check(struct sgl_ctx *w, const struct sgl__xarg *a)
{
    if (w->xo_n == 0 ||
        (w->xo_first >= a->first &&
         w->xo_first + w->xo_n <= a->first + a->workers))
        return SGL_OK;
    size_t lo = w->xo_first, hi = w->xo_first + w->xo_n;
    sgl__xo_clear(w);
    return sgl_error_set(SGL_EINVAL,
                         "sgl_exchange: worker %zu addressed workers "
                         "%zu..%zu, but the exchange at level %u covers "
                         "workers %zu..%zu only",
                         w->node->first_worker, lo, hi - 1, (unsigned)a->level,
                         (size_t)a->first,
                         (size_t)(a->first + a->workers - 1));
}

int sgl__xin_layout(struct sgl_ctx *w, const struct sgl__xarg *a,
                    const size_t *bytes)
{
    size_t n = (size_t)a->workers;
    w->xin_first = (size_t)a->first;
    w->xin_n = 0;
    w->xin_released = 0;
    if (sgl__x_offsets_reserve(&w->xin_off, &w->xin_cap, n)) {
        return sgl_error_set(SGL_ENOMEM, "sgl_exchange: out of memory for "
                                         "worker %zu's counts",
                             w->node->first_worker);
    }
    size_t *e = realloc(w->xin_elems, (n ? n : 1) * sizeof *e);
    if (!e)
        return sgl_error_set(SGL_ENOMEM, "sgl_exchange: out of memory for "
                                         "worker %zu's counts",
                             w->node->first_worker);
    w->xin_elems = e;
    size_t total = 0;
    for (size_t s = 0; s < n; s++) {
        w->xin_off[s] = total;
        total += bytes[s];
    }
    w->xin_off[n] = total;
    if (sgl__buf_reserve(&w->xin, total))
        return sgl_error_set(SGL_ENOMEM, "sgl_exchange: out of memory for "
                                         "worker %zu's %zu received bytes",
                             w->node->first_worker, total);
    w->xin_n = n;
    return SGL_OK;
}
