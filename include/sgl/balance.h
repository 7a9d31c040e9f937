/**
 * @file balance.h
 * Balance by measured speed: how splits share data between workers of
 * different speeds, the weights they use, and the refit of the workers' c
 * from a run's own trace.
 *
 * Part of the SGL API beside the core of <sgl/sgl.h>, which it includes.
 * Thread safety and errors as there: master-side calls on a master's own
 * context, child-side calls inside the task on that context; every
 * function that can fail returns SGL_OK or a negative code.
 */
#ifndef SGL_BALANCE_H
#define SGL_BALANCE_H

#include <stddef.h>

#include <sgl/sgl.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_balance Balance by measured speed
 *  Splits by worker speed, weights, and the refit of c from a run's trace.
 *  @{ */

/* Balance. The SGL paper's platforms are heterogeneous: data is split by
 * the workers' measured speeds when the runtime has them, so that children
 * finish together. A speed is 1 / c, from the per-worker c of the machine
 * parameters given to sgl_runtime_set_params() (a machine file from
 * `sgl-probe --per-worker`, or sgl_machine_set_worker_kernel()). */

/** How splits without explicit weights share data. */
typedef enum sgl_balance {
    SGL_BALANCE_SPEED = 0,   /**< in proportion to the workers' speeds
                                  (default): overall, or the balance
                                  kernel's (sgl_runtime_set_balance_kernel());
                                  by their number while no worker has a c
                                  of its own */
    SGL_BALANCE_WORKERS = 1, /**< the same share for every worker */
} sgl_balance_t;

/** The largest worker weight (the fastest worker's); weights are integers
 *  from 1 to this, so that sums of them are exact. */
#define SGL_WEIGHT_ONE 65536

/** Choose how sgl_ctx_split() and sgl_scatter_split() without weights,
 *  and the distributed vectors of algorithms.h, share data (rank 0's
 *  SGL_BALANCE environment variable, speed or workers, sets it at
 *  sgl_init()). Collective in effect: call it in every process with the
 *  same value. @return SGL_OK, SGL_EINVAL (NULL, unknown value). */
SGL_API int sgl_runtime_set_balance(sgl_runtime_t *rt, sgl_balance_t balance);
/** The balance in force (SGL_BALANCE_SPEED for NULL). */
SGL_API sgl_balance_t sgl_runtime_balance(const sgl_runtime_t *rt);

/** Splits by speed follow the workers' own c of @p kernel (the kernel at
 *  hand: "sum" for a vector that will be reduced, "sort" for one that will
 *  be sorted) instead of their overall speed, from the next split or
 *  vector on; NULL goes back to the overall speed (the default). A kernel
 *  that the parameters do not give per worker counts as NULL until they
 *  do (sgl_runtime_set_params() may come before or after). A memory-bound
 *  and a compute-bound kernel can rank the same workers differently
 *  (docs/model.md, "Balance by measured speed"). Collective in effect: call it in
 *  every process with the same name. @p kernel is copied.
 *  @return SGL_OK, SGL_EINVAL (NULL runtime, bad kernel name), SGL_ENOMEM. */
SGL_API int sgl_runtime_set_balance_kernel(sgl_runtime_t *rt,
                                           const char *kernel);
/** The balance kernel, or NULL for the overall speed (and for NULL).
 *  Owned by the runtime, valid until the next
 *  sgl_runtime_set_balance_kernel(). */
SGL_API const char *sgl_runtime_balance_kernel(const sgl_runtime_t *rt);

/** The most fits sgl_runtime_refit_kernel() prices a worker over. */
#define SGL_REFIT_WINDOW_MAX 8

/** Balance by the speeds a run measured: refit every worker's c of
 *  @p kernel from this runtime's trace, so that the next splits follow the
 *  machine as it is now rather than as a probe once found it (docs/model.md,
 *  "Balance by measured speed").
 *
 *  What it reads: the supersteps recorded since the last sgl_trace_clear()
 *  in which children declared work (sgl_ctx_add_work(); the reduction, the
 *  scan and PSRS's local sort of algorithms.h declare their elements).
 *  Every such step counts as @p kernel's, so clear the trace before the
 *  work of @p kernel. A child's speed is its work per second to deliver
 *  it (sgl_trace_step_delivered()). Only steps the
 *  trace kept count: a full trace (sgl_opts_t.trace_max,
 *  sgl_trace_dropped()) keeps the newest ones.
 *
 *  Down the tree: at the highest level with such steps the children take
 *  their speeds as measured; below a measured child, its children share
 *  its speed out in their own proportions; workers under no measured step
 *  keep their c.
 *
 *  The window: each fit is kept, per kernel, and each worker is priced
 *  over the newest @p window fits, this one included. Its c's ratio r to
 *  the fastest worker's ranges over [lo, hi] in them, and it is priced at
 *  lo (1 + hi) / (1 + lo) times the fastest's c: for two workers, the
 *  split that loses least against the ideal at the worse end of the
 *  range; for more, each against the fastest. A window of 1 takes this
 *  fit as it is and forgets the older ones, for when the split moved far
 *  (from even, say): a memory-bound kernel's rates depend on the split.
 *
 *  The c are set per worker in the runtime's tree, as
 *  sgl_machine_set_worker_kernel() would, and splits by speed follow them
 *  where @p kernel is the balance kernel (sgl_runtime_set_balance_kernel())
 *  or the only kernel given per worker. sgl_ctx_params() keeps what
 *  sgl_runtime_set_params() gave; a later call of it whose parameters give
 *  @p kernel replaces the fit (the fits kept for the window stay).
 *  Collective: call it between programs in every process with the same
 *  arguments; every process gets the same c.
 *  @param rt      the runtime.
 *  @param kernel  the kernel name the fit is for (see
 *                 sgl_machine_set_kernel() for valid names).
 *  @param window  fits each worker is priced over, 1 to
 *                 SGL_REFIT_WINDOW_MAX (see above).
 *  @param ret_c   NULL, or sgl_machine_workers() entries: the c set, in
 *                 seconds per unit.
 *  @return SGL_OK; SGL_EINVAL (NULL runtime or kernel, bad kernel name,
 *          @p window 0 or over SGL_REFIT_WINDOW_MAX, processes that gave
 *          different ones); SGL_ESTATE (called in a program, the trace
 *          off, no step since the clear declared work, or a worker has
 *          neither a measurement nor a c to keep); SGL_ERANGE (a tree of
 *          over 2^30 nodes); SGL_ENOMEM, SGL_EMPI. A refusal in one
 *          process is every process's (the others say it failed on
 *          another rank), except for a NULL argument and a call in a
 *          program, which only the caller sees. Nothing changes on an
 *          error, except that after SGL_ENOMEM or SGL_EMPI in another
 *          process this one may have taken the fit: set the parameters
 *          again then. */
SGL_API int sgl_runtime_refit_kernel(sgl_runtime_t *rt, const char *kernel,
                                     unsigned window, double *ret_c);

/** Automatic balance by measured speed: with @p window 1 to
 *  SGL_REFIT_WINDOW_MAX, every sgl_run() that succeeded ends with a refit
 *  of the balance kernel (sgl_runtime_set_balance_kernel(); none set:
 *  nothing) from that run's own supersteps, as
 *  sgl_runtime_refit_kernel() with that window would after clearing the
 *  trace before the run (the trace itself is kept). A run whose steps
 *  measure no work, or leave a worker without a c, changes nothing; a
 *  refit that fails (out of memory, MPI) fails the run with a message
 *  that says so. 0 turns it off, the default; rank 0's SGL_REFIT (off,
 *  or a window 1 to 8) sets it at sgl_init(). Collective in effect: call
 *  it in every process with the same value. It costs each run a few
 *  allreduces (statuses, and the sums of the fit).
 *  @return SGL_OK, SGL_EINVAL (NULL, @p window over
 *          SGL_REFIT_WINDOW_MAX). */
SGL_API int sgl_runtime_set_refit(sgl_runtime_t *rt, unsigned window);
/** The window of the refit after each run, 0 when off (and for NULL). */
SGL_API unsigned sgl_runtime_refit_window(const sgl_runtime_t *rt);

/** Weights of the tree's workers @p first .. @p first + @p count - 1 (any
 *  workers, not only those below @p ctx), integers from 1 to
 *  SGL_WEIGHT_ONE in proportion to their speeds: with @p kernel, from the
 *  workers' own c of that kernel (the kernel at hand); with NULL, or a
 *  kernel without per-worker values, the weights splits use: from the
 *  balance kernel's c (sgl_runtime_set_balance_kernel()) if the
 *  parameters give it per worker, else from the workers' overall speed
 *  (the geometric mean over the kernels that have per-worker values: a
 *  worker under a CPU quota is slow at everything). All SGL_WEIGHT_ONE under
 *  SGL_BALANCE_WORKERS or while no worker has a c of its own. Every
 *  process computes the same weights from the same parameters.
 *  @param ctx          any context of the runtime.
 *  @param kernel       a kernel name, or NULL (see above).
 *  @param first        the first worker's depth-first index.
 *  @param count        the number of workers; may be 0.
 *  @param ret_weights  @p count entries, written on success.
 *  @return SGL_OK, SGL_EINVAL (NULL, workers outside the tree),
 *          SGL_ENOMEM. */
SGL_API int sgl_ctx_worker_weights(const sgl_ctx_t *ctx, const char *kernel,
                                   size_t first, size_t count,
                                   double *ret_weights);

/** Weights of a master's children for sgl_ctx_split() and
 *  sgl_scatter_split(): each child's the sum of sgl_ctx_worker_weights()
 *  of the workers below it.
 *  @param ctx          a master's context.
 *  @param kernel       a kernel name, or NULL, as for
 *                      sgl_ctx_worker_weights().
 *  @param ret_weights  sgl_ctx_children() entries, written on success.
 *  @return as sgl_ctx_worker_weights(), SGL_ESTATE (a worker). */
SGL_API int sgl_ctx_child_weights(const sgl_ctx_t *ctx, const char *kernel,
                            double *ret_weights);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
