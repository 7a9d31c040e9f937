/**
 * @file predict.h
 * The SGL cost model evaluated on a machine tree (docs/design.md, "Cost model").
 *
 * Per superstep at a master with parameters l, g_down, g_up and p
 * children:
 *
 *     Cost_master = max_i Cost_child_i + w0*c0
 *                   + k_down*g_down + k_up*g_up
 *                   + 2*l + (p-1)*header*(g_down + g_up)
 *     Cost_worker = w_i * c_i
 *
 * header is the bytes of the command each child other than the master's
 * own first gets and of its reply (sgl_node_header_bytes()): the part of
 * a synchronisation that grows with the fan-out.
 *
 * k_down and k_up are the bytes the master scatters and gathers, summed
 * over its children; w0*c0 the master's own work (c of the worker that
 * plays the master); a program's cost is the sum over its supersteps.
 * A superstep that includes an exchange among the master's children
 * (docs/design.md, "Exchange supersteps") adds
 *
 *     l_h + max_i h_i * g_h
 *
 * with the master's exchange parameters (sgl_node_exchange_params()) and
 * h_i the bytes the workers below child i send to, or receive from (the
 * larger), the workers below the master's other children. Bytes that stay
 * inside child i's subtree cross a lower level and are charged there, by
 * that level's masters' own exchange.
 * A kernel's c comes from its size table where it has one
 * (sgl_node_kernel_at()): at the block size of the work term, with the
 * worker's memory peers (sgl_node_memory_peers()) busy for a worker's work
 * in a pardo and one busy for a master's own work and the one-worker
 * time.
 * If a level has a small-message regime, a scatter or gather whose every
 * per-child message fits in its max_bytes uses that regime's l and g.
 *
 * A program is given to sgl_predict_program() as three callbacks that say,
 * for a task on a node, how many supersteps a master runs, what each one
 * moves and computes and which task each child gets, and what a worker
 * computes. sgl_predict_algorithm() does this for the reference algorithms
 * (reduction, two scans, PSRS) in closed form on any tree; each closed
 * form lives beside its algorithm (algorithms/vector/reduce_cost.c and so on).
 *
 * The result breaks the cost down along the critical path: for every level,
 * the summed work, scatter, gather and sync times of the masters (or
 * workers) that the max_i picked, so that the levels add up to the total.
 *
 * Thread safety: the functions only read the machine; any number may run
 * at once on the same tree.
 */
#ifndef SGL_PREDICT_H
#define SGL_PREDICT_H

#include <stddef.h>

#include <sgl/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_predict Prediction
 *  The cost model evaluated on a machine tree: per program and per algorithm.
 *  @{ */

/** Largest number of (kernel, amount) terms in one piece of work. */
#define SGL_WORK_TERMS 4

/** Local work: the sum of amount * c(kernel) over its terms. */
typedef struct sgl_work {
    unsigned nterms; /**< used entries of term[] */
    struct {
        const char *kernel; /**< kernel name, e.g. "sum" */
        double amount;      /**< elements (for "merge": elements times
                                 2-way merge levels) */
        double size;        /**< elements of the block the kernel works
                                 on, which picks c from the kernel's size
                                 table; 0: the amount */
    } term[SGL_WORK_TERMS]; /**< the terms; term[0..nterms) are used */
} sgl_work_t;

/** One superstep at one master, filled by sgl_program_t::step. The
 *  evaluator zeroes every field and array before the call. */
typedef struct sgl_pstep {
    unsigned arity;    /**< number of children (read-only) */
    double *down;      /**< [arity] bytes scattered to each child */
    double *up;        /**< [arity] bytes each child hands up */
    sgl_work_t master; /**< the master's own work in this superstep */
    void *child_task;  /**< [arity] tasks of task_size bytes each: what
                            every child does in the pardo */
    double *h;         /**< [arity] bytes child i's workers exchange across
                            this master's child boundaries: the max of
                            what they send to and receive from the other
                            children's workers */
    int exchange;      /**< nonzero: the step includes an exchange at this
                            master, costing l_h + max_i h[i] * g_h on top
                            of the vertical terms; h must stay 0 without */
    int view;          /**< nonzero: the children read their parts of the
                            master's block in place (sgl_recv_view()) and
                            put in place (sgl_gather_into()), so down and
                            up are priced at the level's view g
                            (sgl_node_view_params()) where it has one */
} sgl_pstep_t;

/** A program for the predictor. Tasks are opaque blocks of task_size bytes
 *  that the callbacks define (for example a phase and a problem size). */
typedef struct sgl_program {
    const char *name;  /**< for messages */
    size_t task_size;  /**< bytes of one task, at least 1 */
    void *user;        /**< passed to every callback */
    /** Number of supersteps @p master runs for @p task. */
    unsigned (*nsteps)(void *user, const sgl_node_t *master,
                       const void *task);
    /** Describe superstep @p s of @p master for @p task.
     *  @return SGL_OK or an error code (with sgl_error_set()). */
    int (*step)(void *user, const sgl_node_t *master, const void *task,
                unsigned s, sgl_pstep_t *ret);
    /** What @p worker computes for @p task. Also called with the root task
     *  on worker 0 for the one-worker time. @return SGL_OK or an error. */
    int (*work)(void *user, const sgl_node_t *worker, const void *task,
                sgl_work_t *ret);
} sgl_program_t;

/** Largest depth a prediction breaks down. */
#define SGL_PREDICT_MAX_LEVELS 65

/** Costs of one level along the critical path, in seconds. */
typedef struct sgl_level_cost {
    double work;       /**< local work: masters' w0*c0, or workers' w*c */
    double scatter;    /**< k_down * g_down */
    double gather;     /**< k_up * g_up */
    double syncs;      /**< l per scatter plus l per gather */
    double exchange;   /**< l_h + h * g_h of the critical masters'
                            exchanges */
    double supersteps; /**< supersteps run at this level (masters) */
    double bytes_down; /**< bytes scattered by the level's critical masters */
    double bytes_up;   /**< bytes gathered */
    double bytes_h;    /**< h (bytes of the busiest child) summed over the
                            critical masters' exchanges */
} sgl_level_cost_t;

/** A prediction. */
typedef struct sgl_prediction {
    double total;      /**< predicted time, seconds */
    double sequential; /**< the same task on worker 0 alone, no communication */
    double speedup;    /**< sequential / total */
    double efficiency; /**< speedup / workers */
    size_t workers;    /**< workers of the machine */
    unsigned levels;   /**< entries of level[] used: depth + 1 */
    sgl_level_cost_t level[SGL_PREDICT_MAX_LEVELS]; /**< level[d]: nodes at
                                                         depth d */
} sgl_prediction_t;

/** Sum of the costs of one level (what it adds to the total itself). */
SGL_API double sgl_level_cost_own(const sgl_level_cost_t *c);

/** Evaluate @p prog on @p m from @p root_task at the root.
 *  @return SGL_OK, SGL_EINVAL (NULL argument, bad program), SGL_ERANGE (a
 *  level's parameters or a kernel's c missing: the message names them),
 *  SGL_ENOMEM, or an error a callback returned. */
SGL_API int sgl_predict_program(const sgl_machine_t *m,
                                const sgl_program_t *prog,
                                const void *root_task, sgl_prediction_t *ret);

/** The reference algorithms. */
typedef enum sgl_predict_algo {
    SGL_PREDICT_REDUCE = 1,   /**< reduction, one superstep per level */
    SGL_PREDICT_SCAN = 2,     /**< scan-then-offset (local scan first) */
    SGL_PREDICT_SCAN_RTS = 3, /**< reduce-then-scan */
    SGL_PREDICT_PSRS = 4,     /**< PSRS flattened over all workers */
    SGL_PREDICT_PSRS_LEVELS = 5, /**< PSRS by level (SGL_SORT_LEVELS) */
} sgl_predict_algo_t;

/** Options of sgl_predict_algorithm(). Initialise with
 *  sgl_predict_opts_default(). */
typedef struct sgl_predict_opts {
    double elem_bytes;      /**< bytes per element; default 8 */
    int centralised;        /**< nonzero: data starts at the root and is
                                 scattered (reduce, scans); default 0:
                                 distributed over the workers */
    const char *op_kernel;  /**< kernel of the reduction's operator:
                                 "sum" (default) or "product" */
    int by_workers;         /**< nonzero: data split by the number of
                                 workers, as under SGL_BALANCE_WORKERS;
                                 default 0: by the workers' speeds when
                                 their c differ, as the runtime splits
                                 under SGL_BALANCE_SPEED */
    int routed;             /**< nonzero: PSRS's exchange runs routed
                                 through the masters, as under
                                 SGL_EXCHANGE=routed (two supersteps at
                                 every level, store and forward); default
                                 0: direct. Flat PSRS only: psrs-levels
                                 refuses it with SGL_EINVAL */
} sgl_predict_opts_t;

/** Fill @p opts with the defaults. */
SGL_API void sgl_predict_opts_default(sgl_predict_opts_t *opts);

/** Predict @p algo on @p n elements, split over the workers in
 *  proportion to their speeds (sgl_machine_worker_speeds(): per-worker c)
 *  as the runtime splits them, which is their number in each subtree when
 *  no worker has a c of its own or opts->by_workers is set. Kernels used:
 *  reduce: op_kernel;
 *  scans: "scan", "sum" and "offset" (the local-first scan's in-place
 *  add of a worker's offset; a machine without it prices that pass as
 *  "scan"); PSRS: "sort"
 *  (per element: the local sort is a linear radix sort), "merge"
 *  (per element and per 2-way merge level) and, if the machine has it,
 *  "copy" (per element the masters copy: the concatenated samples).
 *  PSRS's partitions move in an exchange at the root, at every level's
 *  exchange parameters (see algorithms/vector/psrs_cost.c), or with
 *  opts->routed through the masters at their vertical l and g.
 *  @param m     the machine tree, with its levels' link parameters and
 *               the kernels above (as sgl_predict_program() needs).
 *  @param algo  the algorithm.
 *  @param n     elements, >= 1 and finite.
 *  @param opts  NULL for defaults.
 *  @param ret   set on success only.
 *  @return as sgl_predict_program(); SGL_EINVAL for n < 1 or a bad
 *  algorithm. */
SGL_API int sgl_predict_algorithm(const sgl_machine_t *m,
                                  sgl_predict_algo_t algo, double n,
                                  const sgl_predict_opts_t *opts,
                                  sgl_prediction_t *ret);

/** Name of an algorithm: "reduce", "scan", "scan-rts", "psrs",
 *  "psrs-levels"; NULL if unknown. */
SGL_API const char *sgl_predict_algo_name(sgl_predict_algo_t algo);
/** The algorithm called @p name. @return SGL_OK or SGL_EINVAL. */
SGL_API int sgl_predict_algo_from_name(const char *name,
                                       sgl_predict_algo_t *ret);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
