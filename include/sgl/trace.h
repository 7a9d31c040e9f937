/**
 * @file trace.h
 * The per-superstep trace (words, work and times per master and child),
 * its export and replay on machine parameters, and the parameters the
 * runtime prices with (sgl_runtime_set_params()).
 *
 * Part of the SGL API beside the core of <sgl/sgl.h>, which it includes.
 * Thread safety and errors as there: master-side calls on a master's own
 * context, child-side calls inside the task on that context; every
 * function that can fail returns SGL_OK or a negative code.
 */
#ifndef SGL_TRACE_H
#define SGL_TRACE_H

#include <stddef.h>

#include <sgl/sgl.h>
#include <sgl/exchange.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_trace Trace and parameters
 *  The per-superstep record, its export and replay, and the machine parameters the runtime prices with.
 *  @{ */

/** Give the runtime a machine file's parameters (a tree of the runtime's
 *  shape, e.g. from sgl_machine_load()): their kernels (per-worker c
 *  included, which weigh the splits: sgl_runtime_set_balance()) are
 *  copied into the runtime's tree, and for SGL_EXCHANGE_AUTO at each
 *  level it picks the execution the cost model prices lower for bulk
 *  data (64 KiB between every pair of workers below a master):
 *  direct 2 l + l_h + max_i W_i (W - W_i) b g_h against routed
 *  4 l + W^2 b (g_up + g_down). The runtime also keeps a copy of the
 *  whole tree, levels and kernels (sgl_ctx_params()), on which the
 *  algorithms price their AUTO variants (SGL_SCAN_AUTO); a tree that no
 *  shape string describes (sgl_machine_shape() NULL), or with a level
 *  of masters that has no parameters, gives them none.
 *  Everything is copied; @p params may be freed after the call; a later
 *  call replaces it. Collective in effect: call it in every process.
 *  @return SGL_OK, SGL_EINVAL (NULL, or another shape), SGL_ENOMEM. */
SGL_API int sgl_runtime_set_params(sgl_runtime_t *rt,
                                   const sgl_machine_t *params);

/** The copy of the parameters last given to sgl_runtime_set_params(), or
 *  NULL if none were, they could not be copied (see there), or @p ctx is
 *  NULL. Owned by the runtime, valid
 *  until the next sgl_runtime_set_params() or sgl_finalize(); read-only.
 *  The same tree in every process that was given the same file. */
SGL_API const sgl_machine_t *sgl_ctx_params(const sgl_ctx_t *ctx);

/** One recorded superstep at a master, as the trace holds it. Times are in
 *  seconds since the runtime started on that process (the processes'
 *  clocks are aligned by a barrier at sgl_init()). Arrays have @c children
 *  entries and belong to the trace. */
typedef struct sgl_trace_step {
    unsigned level;        /**< the master's level */
    unsigned index;        /**< the master's position among its siblings */
    size_t first_worker;   /**< the master's first worker: with the level,
                                it names the master uniquely */
    int rank;              /**< the process that played the master */
    unsigned long seq;     /**< superstep number at this master, from 0 */
    long parent_seq;       /**< the parent's superstep this one ran in
                                (-1 at the root) */
    unsigned children;     /**< number of the master's children: the
                                length of each array below */
    /** pardo entry; with @c end, its return */
    double start, end;     /**< pardo entry and return */
    double master_time;    /**< master's own time since its last superstep
                                (or its task start): the w0 c0 term */
    double wait_start;     /**< when the master, having run the children
                                of its own process, began to wait for the
                                others' replies, seconds after @c start;
                                0 if every child is its process's */
    int exchange;          /**< 0 for a pardo; for a superstep of an
                                exchange, the sgl_exchange_method_t that
                                ran (a routed exchange is two supersteps) */
    const size_t *down_bytes; /**< staged for each child */
    const size_t *up_bytes;   /**< handed up by each child */
    const double *child_time; /**< each child's task time, seconds */
    const double *child_work; /**< each child's declared work units,
                                   its subtree's included */
    const size_t *h_sent_bytes; /**< direct exchange: bytes the workers of
                                     each child sent to the master's other
                                     children's workers (0 otherwise) */
    const size_t *h_recv_bytes; /**< and received from them */
    const double *child_done; /**< when each child's reply was in the
                                   master's hands, seconds after @c start:
                                   its task's time plus the command's and
                                   the reply's way, and any time the child
                                   could not run on either side of its task
                                   (a rank under a CPU quota pays for its
                                   task's CPU there too). A child of the
                                   master's own process: its task's end.
                                   Read as the replies came in, to the
                                   wait's poll interval (SGL_WAIT); a reply
                                   in before @c wait_start reads as
                                   @c wait_start: it came in while the
                                   master ran children of its own */
} sgl_trace_step_t;

/** Trace export formats. */
typedef enum sgl_trace_format {
    SGL_TRACE_CSV,      /**< one row per child per superstep */
    SGL_TRACE_JSON,     /**< an array of supersteps with per-child arrays */
    SGL_TRACE_PERFETTO, /**< Chrome/Perfetto trace-event JSON (timeline):
                             a named process per rank (with its host when
                             the tree has one), a track per master with
                             its supersteps and per child with its tasks
                             (placed from the superstep's start) */
} sgl_trace_format_t;

/** Number of supersteps recorded in this process since the start or the
 *  last sgl_trace_clear(). */
SGL_API size_t sgl_trace_steps(const sgl_runtime_t *rt);

/** Read recorded superstep @p i of this process, in order of start time.
 *  The arrays stay valid until the next superstep of this process or
 *  sgl_trace_clear(); read the trace between programs.
 *  @return SGL_OK or SGL_EINVAL (out of range). */
SGL_API int sgl_trace_step(const sgl_runtime_t *rt, size_t i,
                           sgl_trace_step_t *ret_step);

/** Child @p i's time to deliver its part in @p step, a superstep read
 *  from @p rt's trace, into @p ret_seconds: the time by which a program
 *  weighs that child (sgl_runtime_refit_kernel() reads it so). For a
 *  child of another process, until its reply was in the master's hands
 *  (@c child_done, which counts what the task time leaves out, such as a
 *  CPU quota's throttling around the task), its task time where the
 *  reply came in while the master ran children of its own (a lower
 *  bound); for a child of the master's own process, its task time (its
 *  @c child_done also counts waits for a thread, not its speed).
 *  @return SGL_OK, SGL_EINVAL (NULL, @p i out of range, or no master of
 *  @p rt's tree recorded such a step). */
SGL_API int sgl_trace_step_delivered(const sgl_runtime_t *rt,
                                     const sgl_trace_step_t *step, unsigned i,
                                     double *ret_seconds);

/** Write the supersteps of every process to @p path on rank 0
 *  (collective; call it between programs, on every process). @p path is
 *  created, or replaced if it is a regular file; anything else (a FIFO,
 *  a device, a directory) is refused at once, without blocking.
 *  @return SGL_OK, SGL_EIO (cannot write, or not a regular file: the
 *  message names its kind), SGL_EMPI, SGL_ENOMEM. */
SGL_API int sgl_trace_write(sgl_runtime_t *rt, const char *path,
                            sgl_trace_format_t format);

/** Supersteps this process recorded but no longer keeps, since the last
 *  clear: a master keeps its newest sgl_opts_t.trace_max records (fewer
 *  if memory ran out), each new one past that overwriting the oldest.
 *  Non-zero: the trace (sgl_trace_steps(), a replay, the refit) holds
 *  only the latest supersteps. */
SGL_API size_t sgl_trace_dropped(const sgl_runtime_t *rt);

/** Forget every recorded superstep of this process. */
SGL_API void sgl_trace_clear(sgl_runtime_t *rt);

/** Replay the supersteps recorded since the last sgl_trace_clear() on the
 *  link parameters of @p params (a machine file's tree of the same shape as
 *  the runtime's): every superstep costs its children's replayed cost +
 *  k_down g_down + k_up g_up + 2 l of its master's link (the small-message
 *  regime where every per-child message fits), a direct exchange's
 *  superstep also l_h + h g_h (sgl_node_exchange_params(), h the largest
 *  of its children's h_sent_bytes and h_recv_bytes), plus the master's
 *  measured
 *  own time; a worker costs its measured task time, a child master its
 *  replayed supersteps plus its measured time outside them. So the
 *  communication comes from the model and the computation from the run:
 *  the trace-replay prediction next to the closed-form one. Collective;
 *  the result is meaningful on rank 0 (the sum over the root's steps).
 *  @return SGL_OK, SGL_EINVAL (NULL, or @p params has another shape),
 *          SGL_ERANGE (a level of @p params has no parameters), SGL_EMPI,
 *          SGL_ENOMEM. */
SGL_API int sgl_trace_replay(sgl_runtime_t *rt, const sgl_machine_t *params,
                             double *ret_seconds);

/** Measured time of one level of the tree along a trace's critical path
 *  (sgl_trace_levels()), in seconds. */
typedef struct sgl_trace_level {
    double supersteps; /**< supersteps the level's critical masters ran */
    double work;       /**< the critical masters' own time outside their
                            supersteps (the root's: its master_time), or
                            the critical worker's task time; not during
                            an exchange (see exchange) */
    double comm;       /**< the pardo supersteps' time not spent in their
                            slowest child: scatter, gather, syncs and
                            whatever else the master waited for */
    double exchange;   /**< the level's time during exchange supersteps:
                            their time outside their slowest child and
                            their master_time, and what would be work or
                            comm within a parent's exchange superstep (a
                            direct exchange moves its data in the process
                            masters, before and after their pardo) */
} sgl_trace_level_t;

/** Split the supersteps recorded since the last sgl_trace_clear() by the
 *  level that spent the time, along the measured critical path: from each
 *  root superstep down through its slowest child (largest child_time).
 *  A superstep's time (end - start) is its slowest child's task time plus
 *  the master level's comm (or exchange); a child master's task time is
 *  its supersteps' time plus its own (work, or exchange within an
 *  exchange superstep). So the levels add up to the
 *  root's supersteps plus their master_time; the root's time after its
 *  last superstep is not in the trace (the caller adds what it measured
 *  around the program). The measured side of the per-level terms that
 *  sgl_predict_algorithm() predicts (sgl_level_cost_t).
 *  @param rt          the runtime.
 *  @param ret_levels  @p nlevels entries, at least the runtime tree's
 *         depth + 1; entry d for the nodes at depth d (the last, the
 *         workers, has only work). A level with masters but no recorded
 *         superstep (trace off, or dropped: sgl_trace_dropped()) is left
 *         at zero, as are entries past the tree.
 *  Collective; the result is meaningful on rank 0.
 *  @param nlevels     entries at @p ret_levels, >= the tree's depth + 1.
 *  @return SGL_OK, SGL_EINVAL (NULL, or @p nlevels too small), SGL_EMPI,
 *          SGL_ENOMEM. */
SGL_API int sgl_trace_levels(sgl_runtime_t *rt, sgl_trace_level_t *ret_levels,
                             unsigned nlevels);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
