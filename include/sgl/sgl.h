/**
 * @file sgl.h
 * The SGL runtime: recursive scatter / pardo / gather programs on a machine
 * tree of MPI processes and threads.
 *
 * Execution model (master-driven, not SPMD). sgl_run() runs the main task
 * on the root master only; every other process waits for its master's
 * commands until the main task returns. Code outside a pardo runs on the
 * master alone. The root is a node like the others: it receives the run's
 * argument as its block and what it puts is the run's result, so that one
 * function is one recursive step of the paper, at every level:
 *
 *     if master: scatter my block; pardo(myself); gather; combine; put
 *     else:      compute on my block; put
 *
 * A superstep at a master is
 *
 *     sgl_scatter() or sgl_bcast()   stage one block per child (optional)
 *     sgl_pardo(task, arg)           run task on every child; the staged
 *                                    blocks travel with the command, and
 *                                    what the children sgl_put() travels
 *                                    back with the end of the pardo
 *     sgl_gather()                   copy the children's blocks out
 *
 * so that a superstep costs one synchronisation down and one up on every
 * level. Inside the task a child reads its block with sgl_recv(), may run
 * supersteps on its own children if it is a master, and hands a block up
 * with sgl_put(). Children keep state across supersteps with
 * sgl_ctx_set_state().
 *
 * Tasks run in other processes at MPI levels, so they are named by
 * registration (sgl_task_register(), in the same order in every process)
 * rather than by raw function pointer; thread levels need no registration.
 *
 * Thread safety: a context belongs to the thread running it. Master-side
 * calls (scatter, bcast, pardo, gather) are valid only on a master's own
 * context, child-side calls (recv, put) only inside the task running on
 * that context. Only each process's main thread calls MPI, so the runtime
 * needs MPI_THREAD_FUNNELED.
 *
 * Errors: every function returns SGL_OK or a negative code from errors.h;
 * sgl_error_last() gives the message. A task's error reaches the master that
 * ran the pardo, prefixed with the child's position, and the whole program
 * (sgl_run) returns it.
 */
#ifndef SGL_SGL_H
#define SGL_SGL_H

#include <stddef.h>

#include <sgl/errors.h>
#include <sgl/machine.h>
#include <sgl/version.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_core Core: recursive programs
 *  Start and stop the runtime, run a program, query a context, and the superstep calls: scatter, bcast, pardo, gather, recv, put.
 *  @{ */

/** The runtime of one process (opaque). */
typedef struct sgl_runtime sgl_runtime_t;
/** The context of one node of the machine tree as seen by the thread that
 *  plays it (opaque). Owned by the runtime. */
typedef struct sgl_ctx sgl_ctx_t;

/** A task: runs on a child (or, for sgl_run, on the root).
 *  @param ctx       the context of the node running the task.
 *  @param arg       the pardo's argument bytes (read-only; NULL if none).
 *  @param arg_size  their size.
 *  @return SGL_OK or a negative code, which reaches the master. */
typedef int (*sgl_task_fn)(sgl_ctx_t *ctx, const void *arg, size_t arg_size);

/** Options of sgl_init(). Initialise with sgl_opts_default(). */
typedef struct sgl_opts {
    const char *shape; /**< shape string (see machine.h). With shape and
                            xml both NULL: rank 0's SGL_SHAPE, else its
                            SGL_XML, else discovery. An option given wins
                            over both variables (opts.xml over SGL_SHAPE),
                            as a tool's --shape or --xml does; a shape wins
                            over an XML file. "" with xml NULL: discover */
    const char *xml;   /**< hwloc XML for the in-process levels; see
                            @c shape for which source wins */
    int keep_single;   /**< nonzero keeps single-child levels (default 0) */
    int bind;          /**< bind worker threads to their cores when the tree
                            was discovered (default 1); never when
                            OMP_PLACES or OMP_PROC_BIND is set (OpenMP
                            places them then) */
    unsigned max_threads; /**< cap on threads per process; 0 = default */
    int trace;         /**< record every superstep (default 1; the
                            SGL_TRACE environment variable of rank 0
                            turns it off: 0, off, false or no) */
    size_t trace_max;  /**< records kept per master: past it each new
                            one overwrites the oldest, which counts as
                            dropped (sgl_trace_dropped()); default 4096,
                            4096 * (56 + 56 * children) bytes (0.7 MiB
                            for a 2-child master); 0 = default */
    double watchdog;   /**< seconds a superstep may run before the job is
                            ended (exit status 124) with a message on
                            stderr naming the master and the children that
                            have not returned; 0 (default): the
                            SGL_WATCHDOG environment variable, else off.
                            Rank 0's value holds on every rank. */
    int share_result;  /**< nonzero sends the root's result of every
                            sgl_run() to every process, for
                            sgl_run_result() (one broadcast per run);
                            default 0 */
} sgl_opts_t;

/** Fill @p opts with the defaults. */
SGL_API void sgl_opts_default(sgl_opts_t *opts);

/** Start the runtime in every process of MPI_COMM_WORLD (collective).
 *  Initialises MPI with MPI_THREAD_FUNNELED if the caller has not; then
 *  sgl_finalize() also finalises it. Builds the machine tree (shape, XML or
 *  discovery) and checks it fits the processes; every rank must build it
 *  from the same source (the same shape, XML of the same content, or
 *  discovery everywhere), compared before any tree is built. Ranks wait
 *  for each other by polling where every worker of their host has a
 *  processing unit, else by polling then sleeping; rank 0's SGL_WAIT (active,
 *  passive or auto) chooses for every rank, any other word: SGL_EINVAL.
 *  @param argc,argv  passed to MPI_Init_thread; may be NULL.
 *  @param opts       may be NULL for defaults; not stored.
 *  @param ret_rt     set on success only; NULL is SGL_EINVAL on every
 *                    rank (the others return it too).
 *  @return SGL_OK, SGL_EMPI (MPI gives less than FUNNELED), SGL_ESHAPE (the
 *          tree needs a different number of processes, or the ranks'
 *          sources differ: the message names each rank's), SGL_EPARSE,
 *          SGL_EIO (an XML file that cannot be read, or is not a regular
 *          file), SGL_EHWLOC, SGL_EINVAL (a bad SGL_ variable) or
 *          SGL_ENOMEM. The result is the same on every rank. */
SGL_API int sgl_init(int *argc, char ***argv, const sgl_opts_t *opts,
                     sgl_runtime_t **ret_rt);

/** Stop the runtime (collective); frees every context and child state
 *  (calling the state destructors) and the machine tree. NULL is a no-op.
 *  @return SGL_OK or SGL_EMPI. */
SGL_API int sgl_finalize(sgl_runtime_t *rt);

/** Register a task so that it can run at MPI levels. Every process must
 *  register the same tasks in the same order, before sgl_run().
 *  @param rt    the runtime.
 *  @param fn    the task; not NULL, and not registered yet (under any
 *               name).
 *  @param name  copied; used in error messages and to check that every
 *               process agrees.
 *  @return SGL_OK, SGL_EINVAL (NULL, or already registered), SGL_ENOMEM. */
SGL_API int sgl_task_register(sgl_runtime_t *rt, sgl_task_fn fn,
                              const char *name);

/** Run a program (collective): the root master runs @p task on the root
 *  context while every other process serves its master. The root is a
 *  node like any other: its received block (sgl_recv()) is the run's
 *  argument, and the block it puts (sgl_put()) is the run's result, read
 *  with sgl_run_result(). So one task function can be the whole of a
 *  recursive step, at the root and below. May be called again after it
 *  returns, also after an error.
 *  @param rt        the runtime.
 *  @param task      the root's task; read on the root's process only (the
 *                   others serve their masters and ignore @p task and
 *                   @p arg); not NULL there.
 *  @param arg       the root task's argument and received block; copied to
 *                   every process that needs it; may be NULL.
 *  @param arg_size  bytes at @p arg; 0 if @p arg is NULL.
 *  @return on every process, the task's status (with the same message on
 *          every process). */
SGL_API int sgl_run(sgl_runtime_t *rt, sgl_task_fn task, const void *arg,
                    size_t arg_size);

/** The block the root put in the last sgl_run(), as @p elem_size-byte
 *  elements. On the root's process always; on the others only with
 *  sgl_opts_t.share_result (the result then travels to them at the end of
 *  the run). Owned by the runtime, valid until the next sgl_run() or
 *  sgl_finalize().
 *  @return SGL_OK (a count of 0 if the root put nothing), SGL_EINVAL
 *          (NULL argument, elem_size 0), SGL_ESTATE (no successful run,
 *          or another process without share_result), SGL_ESIZE (not a
 *          whole number of elements). */
SGL_API int sgl_run_result(const sgl_runtime_t *rt, size_t elem_size,
                           const void **ret_data, size_t *ret_count);

/** The machine tree the runtime runs on. Owned by the runtime. */
SGL_API const sgl_machine_t *sgl_runtime_machine(const sgl_runtime_t *rt);
/** This process's rank in the runtime's communicator. */
SGL_API int sgl_runtime_rank(const sgl_runtime_t *rt);
/** A warning about this process's set-up, or NULL: today, more worker
 *  threads than the processing units the process may run on, or than the
 *  host has for all its ranks together (allowed and correct, but not
 *  meaningful for speed). The library never prints; tools show it. */
SGL_API const char *sgl_runtime_warning(const sgl_runtime_t *rt);

/** Level of the context's node (root = 0). */
SGL_API unsigned sgl_ctx_level(const sgl_ctx_t *ctx);
/** Number of children (0 on a worker). */
SGL_API unsigned sgl_ctx_children(const sgl_ctx_t *ctx);
/** Position among the siblings (0 at the root). */
SGL_API unsigned sgl_ctx_index(const sgl_ctx_t *ctx);
/** Nonzero on the root master (which has no master to put to). */
SGL_API int sgl_ctx_is_root(const sgl_ctx_t *ctx);
/** Nonzero on a master (a node with children): the paper's "if master". */
SGL_API int sgl_ctx_is_master(const sgl_ctx_t *ctx);
/** Nonzero on a leaf worker. */
SGL_API int sgl_ctx_is_worker(const sgl_ctx_t *ctx);
/** Number of workers below (1 on a worker). */
SGL_API size_t sgl_ctx_workers(const sgl_ctx_t *ctx);
/** Number of workers below child @p i (0 if out of range): the natural
 *  weight for splitting data over heterogeneous children. */
SGL_API size_t sgl_ctx_child_workers(const sgl_ctx_t *ctx, unsigned i);
/** Depth-first index of the first worker below (the worker's own index). */
SGL_API size_t sgl_ctx_first_worker(const sgl_ctx_t *ctx);
/** The machine-tree node this context plays. */
SGL_API const sgl_node_t *sgl_ctx_node(const sgl_ctx_t *ctx);
/** The machine tree. */
SGL_API const sgl_machine_t *sgl_ctx_machine(const sgl_ctx_t *ctx);

/** The state this node keeps across supersteps (NULL until set). */
SGL_API void *sgl_ctx_state(const sgl_ctx_t *ctx);
/** Set the node's persistent state. The runtime does not copy it; if
 *  @p destroy is not NULL it is called on the previous state when replaced
 *  and on the last one by sgl_finalize(). */
SGL_API void sgl_ctx_set_state(sgl_ctx_t *ctx, void *state,
                               void (*destroy)(void *));

/** The state kept under @p key (NULL until set), for libraries built on
 *  SGL, so that their state and the program's never collide: a library
 *  uses the address of one of its own objects as the key (the SGL
 *  algorithms of algorithms.h do). The NULL key is the program's slot,
 *  sgl_ctx_state(). */
SGL_API void *sgl_ctx_keyed_state(const sgl_ctx_t *ctx, const void *key);

/** Set the state under @p key, as sgl_ctx_set_state() does for the
 *  program's slot (destroy called on replacement and by sgl_finalize()).
 *  Setting NULL removes the key.
 *  @return SGL_OK, SGL_EINVAL (NULL context), SGL_ENOMEM (the previous
 *          state is then kept). */
SGL_API int sgl_ctx_set_keyed_state(sgl_ctx_t *ctx, const void *key,
                                    void *state, void (*destroy)(void *));

/* Blocks. Every superstep call sizes a block as a count of elements of
 * elem_size bytes (> 0): scatter, bcast, scatter_buffer, gather,
 * gather_alloc, gather_block, recv, put, put_buffer and run_result alike.
 * A block is a whole number of elements or the call fails with SGL_ESIZE.
 * Only a pardo's or a run's argument is plain bytes (arg, arg_size). */

/** Split @p n elements over the children of a master in proportion to
 *  @p weights (sgl_ctx_children() non-negative finite values with a
 *  positive sum), or, with NULL weights, to the workers' speeds below
 *  each child (sgl_ctx_child_weights() with a NULL kernel; exact in
 *  integers, so a root's split matches the distributed vectors' layout),
 *  which is the number of workers below each child (every worker gets
 *  n / P elements up to one) under SGL_BALANCE_WORKERS or while no worker
 *  has a c of its own.
 *  Deterministic: the same tree, n, weights and parameters give the same
 *  counts.
 *  @param ctx         a master's context.
 *  @param n           the number of elements to split.
 *  @param weights     sgl_ctx_children() weights, or NULL to split by the
 *                     workers below each child (see above); not stored.
 *  @param ret_counts  sgl_ctx_children() entries, written on success.
 *  @return SGL_OK, SGL_ESTATE (a worker), SGL_EINVAL (NULL, or weights
 *          negative, not finite or summing to 0). */
SGL_API int sgl_ctx_split(const sgl_ctx_t *ctx, size_t n, const double *weights,
                          size_t *ret_counts);

/** Stage a different block for each child for the next sgl_pardo().
 *  @param ctx        a master's context with no block staged.
 *  @param src        children's blocks back to back, in child order; must
 *                    stay valid and unchanged until sgl_pardo() returns.
 *  @param elem_size  bytes per element, > 0.
 *  @param counts     sgl_ctx_children() element counts; copied.
 *  @return SGL_OK, SGL_ESTATE (not a master, or a block already staged),
 *          SGL_EINVAL (NULL with a non-zero count, elem_size 0), SGL_ERANGE
 *          (total size overflows size_t).
 *  @par Cost: k_down = sum of counts * elem_size bytes at this level. */
SGL_API int sgl_scatter(sgl_ctx_t *ctx, const void *src, size_t elem_size,
                        const size_t *counts);

/** Stage @p n elements of @p src split over the children by
 *  sgl_ctx_split() (with @p weights, NULL for the workers below each
 *  child): sgl_scatter() without a counts array.
 *  @return as sgl_ctx_split() and sgl_scatter(), SGL_ENOMEM. */
SGL_API int sgl_scatter_split(sgl_ctx_t *ctx, const void *src, size_t elem_size,
                              size_t n, const double *weights);

/** Stage the same block of @p count elements for every child for the next
 *  sgl_pardo().
 *  @param ctx        a master's context with no block staged.
 *  @param src        must stay valid until sgl_pardo() returns.
 *  @param elem_size  bytes per element, > 0.
 *  @param count      elements in the block every child receives; @p src
 *                    may be NULL when it is 0.
 *  @return as sgl_scatter(). */
SGL_API int sgl_bcast(sgl_ctx_t *ctx, const void *src, size_t elem_size,
                      size_t count);

/** Run @p task on every child with a copy of the argument bytes, then wait
 *  for all of them. Blocks staged by sgl_scatter()/sgl_bcast() are delivered
 *  with the command; blocks children sgl_put() come back with the end.
 *  @return SGL_OK; SGL_ESTATE (not a master); SGL_ENOTASK (an MPI level and
 *          @p task is not registered); or the first failing child's code,
 *          with "child i of <node> (rank r): <its message>" as message.
 *          All children run to completion even if one fails.
 *  @par Cost: max over children + 2 l at this level. */
SGL_API int sgl_pardo(sgl_ctx_t *ctx, sgl_task_fn task, const void *arg,
                      size_t arg_size);

/** Copy the blocks the children put in the last pardo, back to back in
 *  child order, into @p dst. Call it once per pardo: at an MPI level large
 *  blocks are received straight into @p dst, not kept.
 *  @param ctx         a master's context after its pardo returned.
 *  @param dst         receives the children's elements; may be NULL when
 *                     they put none.
 *  @param elem_size   bytes per element, > 0.
 *  @param capacity    elements @p dst holds.
 *  @param ret_counts  if not NULL, receives sgl_ctx_children() element
 *                     counts.
 *  @return SGL_OK, SGL_ESTATE (no pardo ran), SGL_ESIZE (a block is not a
 *          whole number of elements, or the total exceeds @p capacity; in
 *          both cases nothing is copied).
 *  @par Cost: k_up = total bytes at this level. */
SGL_API int sgl_gather(sgl_ctx_t *ctx, void *dst, size_t elem_size,
                       size_t capacity, size_t *ret_counts);

/** sgl_gather() into a new array of exactly the children's total, for
 *  blocks whose sizes the master does not know: one call instead of
 *  sizing, allocating and gathering.
 *  @param ctx         a master's context after its pardo returned.
 *  @param elem_size   bytes per element, > 0.
 *  @param ret_data    set to a malloc()ed array the caller frees (NULL
 *                     when the total is 0); untouched on failure.
 *  @param ret_total   the number of elements gathered.
 *  @param ret_counts  NULL, or sgl_ctx_children() per-child counts.
 *  @return as sgl_gather(), SGL_ENOMEM. */
SGL_API int sgl_gather_alloc(sgl_ctx_t *ctx, size_t elem_size, void **ret_data,
                             size_t *ret_total, size_t *ret_counts);

/** The block this node received, as a private, writable copy: in a
 *  child, the block its master staged for it in the current pardo; at the
 *  root, sgl_run()'s argument. Below a thread level, and at the root, the
 *  copy is made at the first call in the task, by this node's thread
 *  (first touched by it); at an MPI level it is the received buffer
 *  itself, and after sgl_scatter_buffer() the buffer the master filled.
 *  Writes never reach the master's source. The buffer belongs to this node
 *  and stays valid until the next pardo that reaches this node,
 *  sgl_recv_release() or the end of the task. A task that only reads its
 *  block calls sgl_recv_view() instead, which copies nothing.
 *  @param ctx        the context running the task.
 *  @param elem_size  bytes per element, > 0.
 *  @param ret_data   set to the block (NULL or any pointer when empty).
 *  @param ret_count  the block's element count.
 *  @return SGL_OK, SGL_ESTATE outside a task or after sgl_recv_release(),
 *          SGL_EINVAL (NULL out-parameter, elem_size 0), SGL_ESIZE (not a
 *          whole number of elements), SGL_ENOMEM (no memory for the
 *          copy). */
SGL_API int sgl_recv(sgl_ctx_t *ctx, size_t elem_size, void **ret_data,
                     size_t *ret_count);

/** A read-only view of the block this node received, without a copy:
 *  below a thread level, the child's part of the master's staged source
 *  (sgl_scatter()) or the one broadcast block (sgl_bcast()), which the
 *  master keeps valid and unchanged until its sgl_pardo() returns; at the
 *  root, sgl_run()'s argument; at an MPI level, the received buffer. Once
 *  the task has called sgl_recv(), the view is of that private copy (what
 *  the task wrote to it included). A master may scatter or bcast from its
 *  view further down. Nothing may write through the view.
 *  @param ctx        the context running the task.
 *  @param elem_size  bytes per element, > 0.
 *  @param ret_data   set to the block (NULL or any pointer when empty);
 *                    valid until the end of the task or
 *                    sgl_recv_release().
 *  @param ret_count  the block's element count.
 *  @return SGL_OK, SGL_ESTATE outside a task or after sgl_recv_release(),
 *          SGL_EINVAL (NULL out-parameter, elem_size 0), SGL_ESIZE (not a
 *          whole number of elements).
 *  @par Cost: none beyond the scatter's k_down; sgl_recv() below a thread
 *       level adds a copy of the block in memory. */
SGL_API int sgl_recv_view(sgl_ctx_t *ctx, size_t elem_size,
                          const void **ret_data, size_t *ret_count);

/** Hand a block of @p count elements up: copies them from @p src now. In a
 *  child it goes to the master; at the root it is the run's result
 *  (sgl_run_result()). A later put in the same task replaces the earlier
 *  one.
 *  @return SGL_OK, SGL_ESTATE (outside a task), SGL_EINVAL, SGL_ERANGE,
 *          SGL_ENOMEM. */
SGL_API int sgl_put(sgl_ctx_t *ctx, const void *src, size_t elem_size,
                    size_t count);

/** Declare @p units of work done by this node in the current task (the
 *  w of the cost model, in elements of the kernel that bounds it). Adds up
 *  over the task, with what the workers below declared in its pardos; the
 *  trace reports it next to the measured time, and
 *  sgl_runtime_refit_kernel() fits speeds from the two.
 *  @return SGL_OK, or SGL_ESTATE outside a task. */
SGL_API int sgl_ctx_add_work(sgl_ctx_t *ctx, double units);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
