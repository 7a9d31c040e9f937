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
 * sgl_last_error() gives the message. A task's error reaches the master that
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
    const char *shape; /**< shape string (see machine.h); NULL: the
                            SGL_SHAPE environment variable, else discover */
    const char *xml;   /**< hwloc XML for the in-process levels; NULL: the
                            SGL_XML environment variable */
    int keep_single;   /**< nonzero keeps single-child levels (default 0) */
    int bind;          /**< bind worker threads to their cores when the tree
                            was discovered (default 1); never when
                            OMP_PLACES or OMP_PROC_BIND is set (OpenMP
                            places them then) */
    unsigned max_threads; /**< cap on threads per process; 0 = default */
    int trace;         /**< record every superstep (default 1; the
                            SGL_TRACE environment variable of rank 0
                            turns it off: 0, off, false or no) */
    size_t trace_max;  /**< records kept per master before new ones are
                            dropped (and counted); default 1 << 20, about
                            100 MiB for a 2-child master; 0 = default */
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
 *  @param arg  the root task's argument and received block; copied to
 *              every process that needs it; may be NULL.
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
 *  (README, "Balance by measured speed"). Collective in effect: call it in
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
 *  machine as it is now rather than as a probe once found it (README,
 *  "Balance by measured speed").
 *
 *  What it reads: the supersteps recorded since the last sgl_trace_clear()
 *  in which children declared work (sgl_ctx_add_work(); the reduction, the
 *  scan and PSRS's local sort of algorithms.h declare their elements).
 *  Every such step counts as @p kernel's, so clear the trace before the
 *  work of @p kernel. A child's speed is its work per second to deliver
 *  it (sgl_trace_step_delivered()). Only steps the
 *  trace kept count: a full trace (sgl_opts_t.trace_max,
 *  sgl_trace_dropped()) keeps no later ones.
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
 *  @param ret_c  NULL, or sgl_machine_workers() entries: the c set, in
 *                seconds per unit.
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
 *  @param ret_weights  @p count entries, written on success.
 *  @return SGL_OK, SGL_EINVAL (NULL, workers outside the tree),
 *          SGL_ENOMEM. */
SGL_API int sgl_ctx_worker_weights(const sgl_ctx_t *ctx, const char *kernel,
                                   size_t first, size_t count,
                                   double *ret_weights);

/** Weights of a master's children for sgl_ctx_split() and
 *  sgl_scatter_split(): each child's the sum of sgl_ctx_worker_weights()
 *  of the workers below it.
 *  @param ret_weights  sgl_ctx_children() entries, written on success.
 *  @return as sgl_ctx_worker_weights(), SGL_ESTATE (a worker). */
SGL_API int sgl_ctx_weights(const sgl_ctx_t *ctx, const char *kernel,
                            double *ret_weights);

/** Split @p n elements over the children of a master in proportion to
 *  @p weights (sgl_ctx_children() non-negative finite values with a
 *  positive sum), or, with NULL weights, to the workers' speeds below
 *  each child (sgl_ctx_weights() with a NULL kernel; exact in
 *  integers, so a root's split matches the distributed vectors' layout),
 *  which is the number of workers below each child (every worker gets
 *  n / P elements up to one) under SGL_BALANCE_WORKERS or while no worker
 *  has a c of its own.
 *  Deterministic: the same tree, n, weights and parameters give the same
 *  counts.
 *  @param ret_counts  sgl_ctx_children() entries, written on success.
 *  @return SGL_OK, SGL_ESTATE (a worker), SGL_EINVAL (NULL, or weights
 *          negative, not finite or summing to 0). */
SGL_API int sgl_ctx_split(const sgl_ctx_t *ctx, size_t n, const double *weights,
                          size_t *ret_counts);

/** Stage a different block for each child for the next sgl_pardo().
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
 *  @param src  must stay valid until sgl_pardo() returns.
 *  @return as sgl_scatter(). */
SGL_API int sgl_bcast(sgl_ctx_t *ctx, const void *src, size_t elem_size,
                      size_t count);

/** Stage child @p i's block of @p count elements for the next sgl_pardo()
 *  in a runtime-owned buffer that the caller fills in place: one copy less
 *  than sgl_scatter() when the master builds the blocks anyway (reorders,
 *  splits a received message). Call it once per child that gets data;
 *  the others get an empty block. A second call for the same child
 *  replaces the first and does not keep its contents. At a thread level
 *  the buffer is the child's own receive buffer (first touched by the
 *  master's thread, not the child's); at an MPI level it is freed once
 *  sent. Valid until sgl_pardo() returns; cannot be mixed with
 *  sgl_scatter() or sgl_bcast() in one superstep.
 *  @return SGL_OK, SGL_ESTATE (not a master, or sgl_scatter()/sgl_bcast()
 *          already staged), SGL_EINVAL (@p i out of range, @p ret_data
 *          NULL, elem_size 0), SGL_ERANGE (size overflows), SGL_ENOMEM.
 *  @par Cost: as sgl_scatter() with these block sizes. */
SGL_API int sgl_scatter_buffer(sgl_ctx_t *ctx, unsigned i, size_t elem_size,
                               size_t count, void **ret_data);

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
 *  @param ret_data    set to a malloc()ed array the caller frees (NULL
 *                     when the total is 0); untouched on failure.
 *  @param ret_total   the number of elements gathered.
 *  @param ret_counts  NULL, or sgl_ctx_children() per-child counts.
 *  @return as sgl_gather(), SGL_ENOMEM. */
SGL_API int sgl_gather_alloc(sgl_ctx_t *ctx, size_t elem_size, void **ret_data,
                             size_t *ret_total, size_t *ret_counts);

/** Look at child @p i's block of the last pardo without copying. Valid
 *  until the next sgl_pardo() on this context. Call it before
 *  sgl_gather(), which at an MPI level may receive large blocks straight
 *  into its destination and then no longer holds them.
 *  @param ret_count  the block's element count.
 *  @return SGL_OK, SGL_ESTATE (no pardo ran, or the block is gone into an
 *          earlier gather's destination), SGL_EINVAL (i out of range,
 *          elem_size 0), SGL_ESIZE (not a whole number of elements). */
SGL_API int sgl_gather_block(sgl_ctx_t *ctx, unsigned i, size_t elem_size,
                             const void **ret_data, size_t *ret_count);

/** Free the buffers that hold the children's blocks of the last pardo,
 *  once the master no longer needs them, instead of keeping them for reuse
 *  until the next one: what a memory-bound algorithm calls between
 *  reading its children's blocks and the next superstep. Pointers from
 *  sgl_gather_block() become invalid; later sgl_gather() and
 *  sgl_gather_block() calls for this pardo fail with SGL_ESTATE. Blocks
 *  still in flight at an MPI level are received first, then freed.
 *  @return SGL_OK, SGL_ESTATE (not a master, or no pardo ran), SGL_EMPI. */
SGL_API int sgl_gather_release(sgl_ctx_t *ctx);

/** The block this node received: in a child, the block its master staged
 *  for it in the current pardo; at the root, a copy of sgl_run()'s
 *  argument, made at the first call. The buffer belongs to this node
 *  (first touched by it, unless the master used sgl_scatter_buffer()) and
 *  stays valid, and writable, until the next pardo that reaches this node,
 *  sgl_recv_release() or the end of the task.
 *  @param ret_count  the block's element count.
 *  @return SGL_OK, SGL_ESTATE outside a task or after sgl_recv_release(),
 *          SGL_EINVAL (NULL out-parameter, elem_size 0), SGL_ESIZE (not a
 *          whole number of elements), SGL_ENOMEM (at the root). */
SGL_API int sgl_recv(sgl_ctx_t *ctx, size_t elem_size, void **ret_data,
                     size_t *ret_count);

/** Free the buffer holding this node's received block before the task
 *  ends, when the task no longer needs it (e.g. after merging it into its
 *  own array). The pointer from sgl_recv() becomes invalid and a later
 *  sgl_recv() in this task fails with SGL_ESTATE. The task's argument
 *  stays valid.
 *  @return SGL_OK, or SGL_ESTATE outside a task. */
SGL_API int sgl_recv_release(sgl_ctx_t *ctx);

/** Hand a block of @p count elements up: copies them from @p src now. In a
 *  child it goes to the master; at the root it is the run's result
 *  (sgl_run_result()). A later put in the same task replaces the earlier
 *  one.
 *  @return SGL_OK, SGL_ESTATE (outside a task), SGL_EINVAL, SGL_ERANGE,
 *          SGL_ENOMEM. */
SGL_API int sgl_put(sgl_ctx_t *ctx, const void *src, size_t elem_size,
                    size_t count);

/** Like sgl_put(), but returns a node-owned buffer of @p count elements
 *  for the caller to fill in place (no copy). Valid until the task
 *  returns.
 *  @return SGL_OK, SGL_ESTATE, SGL_EINVAL, SGL_ERANGE, SGL_ENOMEM. */
SGL_API int sgl_put_buffer(sgl_ctx_t *ctx, size_t elem_size, size_t count,
                           void **ret_data);

/** Declare @p units of work done by this node in the current task (the
 *  w of the cost model, in elements of the kernel that bounds it). Adds up
 *  over the task, with what the workers below declared in its pardos; the
 *  trace reports it next to the measured time, and
 *  sgl_runtime_refit_kernel() fits speeds from the two.
 *  @return SGL_OK, or SGL_ESTATE outside a task. */
SGL_API int sgl_ctx_add_work(sgl_ctx_t *ctx, double units);

/* Exchange supersteps (DESIGN.md section 8): horizontal data movement.
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

/** The method the runtime will use for an exchange at a master of
 *  @p level: never AUTO. */
SGL_API sgl_exchange_method_t
sgl_runtime_exchange_method(const sgl_runtime_t *rt, unsigned level);

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
    unsigned children;
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
 *  (collective; call it between programs, on every process).
 *  @return SGL_OK, SGL_EIO (cannot write), SGL_EMPI, SGL_ENOMEM. */
SGL_API int sgl_trace_write(sgl_runtime_t *rt, const char *path,
                            sgl_trace_format_t format);

/** Supersteps this process did not record because a master's trace was
 *  full (sgl_opts_t.trace_max) or memory ran out, since the last clear. */
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
 *  @param ret_levels  @p nlevels entries, at least the runtime tree's
 *         depth + 1; entry d for the nodes at depth d (the last, the
 *         workers, has only work). A level with masters but no recorded
 *         superstep (trace off, or dropped: sgl_trace_dropped()) is left
 *         at zero, as are entries past the tree.
 *  Collective; the result is meaningful on rank 0.
 *  @return SGL_OK, SGL_EINVAL (NULL, or @p nlevels too small), SGL_EMPI,
 *          SGL_ENOMEM. */
SGL_API int sgl_trace_levels(sgl_runtime_t *rt, sgl_trace_level_t *ret_levels,
                             unsigned nlevels);

/** Memory laid out as the library's own blocks are: from 4 MiB aligned
 *  to 2 MiB and advised for transparent huge pages (a hint the kernel may
 *  refuse), below that from malloc(). For arrays a program streams next
 *  to the library's (a benchmark's peers, an input it scatters), so that
 *  both go through pages of one size.
 *  @param bytes  0 gives a pointer to no bytes, not NULL.
 *  @return the memory, the caller's to release with free(); NULL when
 *          out of memory, as malloc(). */
SGL_API void *sgl_mem_alloc(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
