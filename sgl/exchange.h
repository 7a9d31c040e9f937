/* The exchange superstep's internals, shared by its API (exchange.c) and
 * its two executions: direct (exchange_direct.c) and routed through the
 * masters (exchange_routed.c). exchange.c dispatches to the executions;
 * all three use the helpers of exchange_common.c. Never installed.
 *
 * An exchange at master M covers M's workers [first, first + workers).
 * Each worker w stages xo_n blocks for the workers xo_first.. (bytes at
 * xo_off); after the exchange, each worker d holds in xin the blocks of
 * every worker of M in source order (bytes at xin_off). */
#ifndef SGL__EXCHANGE_INTERNAL_H
#define SGL__EXCHANGE_INTERNAL_H

#include <stdint.h>
#include <stdlib.h>

#include "runtime_impl.h"
#include <sgl/exchange.h>

/* The argument of the runtime's exchange tasks: which master's exchange
 * runs, named by its level and its workers. */
struct sgl__xarg {
    uint32_t level;
    uint32_t method; /* sgl_exchange_method_t, never AUTO */
    uint64_t first;
    uint64_t workers;
};

/* The runtime's own tasks, registered by sgl_init() in every process
 * before the program's. */
int sgl__xt_mpi(sgl_ctx_t *ctx, const void *arg, size_t arg_size);
int sgl__xr_up(sgl_ctx_t *ctx, const void *arg, size_t arg_size);
int sgl__xr_down(sgl_ctx_t *ctx, const void *arg, size_t arg_size);

/* ---- exchange_direct.c, exchange_routed.c ---- */

/* Run the exchange of master (or worker) @m. */
int sgl__exchange_direct(struct sgl_ctx *m, const struct sgl__xarg *a);
int sgl__exchange_routed(struct sgl_ctx *m, const struct sgl__xarg *a);

/* Room for @n + 1 offsets in *@off (capacity *@cap). SGL_ENOMEM (no
 * message set) on failure. */
static inline int sgl__x_offsets_reserve(size_t **off, size_t *cap, size_t n)
{
    if (n + 1 <= *cap)
        return SGL_OK;
    size_t c = *cap ? *cap : 16;
    while (c < n + 1)
        c *= 2;
    size_t *o = realloc(*off, c * sizeof *o);
    if (!o)
        return SGL_ENOMEM;
    *off = o;
    *cap = c;
    return SGL_OK;
}

/* ---- exchange_common.c: staged blocks and receive buffers ---- */

/* Bytes worker @w staged for worker @d. */
size_t sgl__xo_bytes(const struct sgl_ctx *w, size_t d);

/* Where worker @w's block for @d starts in its staged data. */
const char *sgl__xo_data(const struct sgl_ctx *w, size_t d);

/* Check that worker @w addressed only workers of the exchange; if not,
 * drop its blocks and say so (SGL_EINVAL), so that the exchange still
 * runs to its end in every process and the error reaches the master. */
int sgl__xo_check(struct sgl_ctx *w, const struct sgl__xarg *a);

/* Forget @w's staged blocks (the exchange consumed them). */
void sgl__xo_clear(struct sgl_ctx *w);

/* Lay out @w's receive buffer for the exchange: @bytes[s] from source
 * first + s. @return SGL_OK or SGL_ENOMEM (w then receives nothing). */
int sgl__xin_layout(struct sgl_ctx *w, const struct sgl__xarg *a,
                    const size_t *bytes);

#endif
