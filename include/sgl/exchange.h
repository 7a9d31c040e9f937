/**
 * @file exchange.h
 * Exchange supersteps: workers send blocks to other workers below the same
 * master without the payload passing through it (or routed through it).
 *
 * Part of the SGL API beside the core of <sgl/sgl.h>, which it includes.
 * Thread safety and errors as there: master-side calls on a master's own
 * context, child-side calls inside the task on that context; every
 * function that can fail returns SGL_OK or a negative code.
 */
#ifndef SGL_EXCHANGE_H
#define SGL_EXCHANGE_H

#include <stddef.h>

#include <sgl/sgl.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_exchange Exchange supersteps
 *  Worker-to-worker blocks below one master, direct or routed.
 *  @{ */

/* Exchange supersteps (docs/design.md, "Exchange supersteps"): horizontal data movement.
 * In a task, a worker stages blocks addressed to other workers with
 * sgl_exchange_put(); between pardos, a master above them all runs
 * sgl_exchange(), which delivers to every worker below it the blocks
 * addressed to it, back to back in the order of their source workers; in
 * its next task the worker reads them with sgl_exchange_recv(). The result
 * is by definition that of gathering the addressed blocks to the master,
 * reordering them by destination and scattering them (the routed
 * execution); the direct execution gives the same bytes while the payload
 * never passes through a master: ranks send to each other with MPI
 * point-to-point operations aggregated per pair of processes, threads copy
 * from their siblings' buffers once. Only counts go up and down. Workers
 * are named by their depth-first index (sgl_ctx_first_worker()). */

/** How sgl_exchange() moves the payload. */
typedef enum sgl_exchange_method {
    SGL_EXCHANGE_AUTO = 0, /**< per level, the cheaper by the machine
                                parameters of sgl_runtime_set_params();
                                direct without them */
    SGL_EXCHANGE_DIRECT,   /**< worker to worker */
    SGL_EXCHANGE_ROUTED,   /**< up to the master and down again */
} sgl_exchange_method_t;

/** In a worker's task: stage @p counts[j] elements of @p elem_size bytes
 *  for worker @p first_dest + j, j < @p ndest, taken back to back from
 *  @p src, for the next sgl_exchange() of a master above this worker.
 *  Not copied: @p src must stay valid and unchanged until that exchange
 *  returns (keep it in the worker's state, not on the task's stack); the
 *  counts are copied. A later call before the exchange replaces the
 *  earlier one; a worker that stages nothing sends nothing. Blocks no
 *  exchange took by the end of the program (sgl_run()) are dropped.
 *  @return SGL_OK, SGL_ESTATE (not a worker, or outside a task),
 *          SGL_EINVAL (NULL counts with ndest > 0, NULL src with a
 *          non-zero count, elem_size 0), SGL_ERANGE (sizes overflow),
 *          SGL_ENOMEM. */
SGL_API int sgl_exchange_put(sgl_ctx_t *ctx, const void *src, size_t elem_size,
                             size_t first_dest, size_t ndest,
                             const size_t *counts);

/** At a master (or a worker, which exchanges with itself), between
 *  pardos: move the blocks staged by every worker below it to their
 *  destinations, which must all be workers below it. A superstep of its
 *  own: the blocks the workers received before (sgl_recv()) and the
 *  children's hand-ups of the last pardo are no longer available after it;
 *  the staged blocks are consumed. The method comes from
 *  sgl_runtime_set_exchange() (default SGL_EXCHANGE_AUTO); the trace says
 *  which ran.
 *  @return SGL_OK, SGL_ESTATE (a block staged for the next pardo),
 *          SGL_EINVAL (a worker addressed a worker outside this master;
 *          the message names both), SGL_ENOMEM, SGL_EMPI, or a failure in
 *          a child, worded as sgl_pardo() words it. */
SGL_API int sgl_exchange(sgl_ctx_t *ctx);

/** In a worker's task: the blocks received in the last exchange that
 *  reached it, back to back by source worker. Owned by the runtime, valid
 *  and writable until the next exchange or sgl_exchange_release().
 *  @param ctx          the context of the worker's task.
 *  @param elem_size    bytes per element, > 0.
 *  @param ret_data     set to the blocks; NULL when no exchange reached
 *                      the worker yet.
 *  @param ret_count    the total element count of the blocks.
 *  @param ret_counts   if not NULL, set to an array of *ret_sources
 *                      element counts, one per source worker (owned by
 *                      the runtime, as the data).
 *  @param ret_sources  if not NULL, the number of source workers: the
 *                      workers below the exchange's master.
 *  @param ret_first    if not NULL, the first source worker's index.
 *  @return SGL_OK (no exchange yet: a count of 0 and no sources),
 *          SGL_ESTATE (not a worker, outside a task, or released),
 *          SGL_EINVAL (NULL ret_data or ret_count, elem_size 0),
 *          SGL_ESIZE (a block is not a whole number of elements). */
SGL_API int sgl_exchange_recv(sgl_ctx_t *ctx, size_t elem_size, void **ret_data,
                              size_t *ret_count, const size_t **ret_counts,
                              size_t *ret_sources, size_t *ret_first);

/** In a worker's task: free the received blocks once they are no longer
 *  needed (a merge has read them), instead of keeping them until the next
 *  exchange. @return SGL_OK, SGL_ESTATE (not a worker, outside a task). */
SGL_API int sgl_exchange_release(sgl_ctx_t *ctx);

/** Choose how sgl_exchange() runs at masters of @p level (every level
 *  with UINT_MAX). Collective in effect: call it with the same values in
 *  every process (the SGL_EXCHANGE environment variable of rank 0, auto,
 *  direct or routed, sets every level at sgl_init()).
 *  @return SGL_OK, SGL_EINVAL (NULL, unknown method, no such level). */
SGL_API int sgl_runtime_set_exchange(sgl_runtime_t *rt, unsigned level,
                                     sgl_exchange_method_t method);

/** The method the runtime will use for an exchange at a master of
 *  @p level: never AUTO. */
SGL_API sgl_exchange_method_t
sgl_runtime_exchange_method(const sgl_runtime_t *rt, unsigned level);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
