/**
 * @file machine.h
 * The SGL machine tree: one root master, masters below it, leaf workers.
 *
 * Every node of the tree has a level (the root is level 0), a number of
 * children (its arity; 0 for a worker), the kind of link to its children
 * (MPI between processes, threads inside a process) and the hardware or
 * process it stands for (an hwloc object type and OS index, an MPI rank).
 *
 * A tree comes from discovery on the running machine (hwloc inside a
 * process, MPI across processes), from a shape string, from an hwloc XML
 * export, or from an explicit list of fan-outs per level.
 *
 * Shape strings are hwloc's synthetic syntax (what `lstopo --of synthetic`
 * prints means here what it means to hwloc) with SGL's process levels on
 * top: a space-separated list of `type:count` tokens from the top down,
 * e.g. "rank:16 core:8". Process types (cluster, rack, host, rank: words
 * hwloc has no type for) are joined by MPI links; hwloc's types inside a
 * process (package/socket, numa, die, group, l1..l5, l1i..l3i, core,
 * pu/thread), case ignored and cut to any prefix hwloc takes ("pack",
 * "L2Cache", "Group0"), by thread links. hwloc's attributes ("(size=...)")
 * and memory children ("[NUMANode(...)]") are accepted and add nothing. An
 * MPI type may not appear below a thread type. `type:[a,b,...]` gives each
 * node of the level above its own count (a heterogeneous tree); the list
 * has one entry per node of the level above, e.g. "rank:2 core:[3,5]".
 * "node" is refused: hwloc means a NUMA node by it and SGL 0.1 meant an MPI
 * process; write "numa" or "rank".
 *
 * Thread safety: a built sgl_machine_t is immutable; any number of threads
 * may read it at once. Building and freeing are not thread-safe on one tree.
 */
#ifndef SGL_MACHINE_H
#define SGL_MACHINE_H

#include <stddef.h>
#include <stdio.h>

#include <sgl/errors.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_machine Machine trees
 *  Trees from discovery, shapes, hwloc XML or machine files; nodes, levels, parameters, kernels.
 *  @{ */

/** A machine tree (opaque). Free with sgl_machine_free(). */
typedef struct sgl_machine sgl_machine_t;
/** A node of a machine tree (opaque); owned by its tree. */
typedef struct sgl_node sgl_node_t;

/** How a master reaches its children. */
typedef enum sgl_link {
    SGL_LINK_NONE = 0, /**< a leaf worker: no children */
    SGL_LINK_THREADS,  /**< children are threads of the same process */
    SGL_LINK_MPI,      /**< children are other MPI processes */
} sgl_link_t;

/** Options for building a tree. Initialise with sgl_machine_opts_default(). */
typedef struct sgl_machine_opts {
    int keep_single;      /**< nonzero: keep single-child levels (default 0:
                               collapse them, as docs/design.md says) */
    unsigned max_threads; /**< cap on workers per process in discovery;
                               0 = OMP_NUM_THREADS if set, else all cores
                               of the process's cpuset */
} sgl_machine_opts_t;

/** Fill @p opts with the defaults. */
SGL_API void sgl_machine_opts_default(sgl_machine_opts_t *opts);

/** Build the tree of the running process from hwloc, restricted to the
 *  cpuset the process is bound to (mpirun binding, taskset) and to
 *  OMP_NUM_THREADS. If MPI is initialised, this is collective over
 *  MPI_COMM_WORLD (sgl_machine_discover_comm() of <sgl/machine_mpi.h>
 *  takes any communicator): ranks are grouped by shared-memory node and
 *  every rank gets the same tree. Without MPI it describes this single
 *  process.
 *  @param opts        may be NULL for defaults; not stored.
 *  @param ret_machine set on success only.
 *  @return SGL_OK, SGL_EHWLOC, SGL_EMPI or SGL_ENOMEM. */
SGL_API int sgl_machine_discover(const sgl_machine_opts_t *opts,
                                 sgl_machine_t **ret_machine);

/** Build a tree from a shape string (see the file comment).
 *  @param shape        copied; the caller keeps ownership.
 *  @param opts         may be NULL for defaults (only keep_single
 *                      applies); not stored.
 *  @param ret_machine  set on success only; free with sgl_machine_free().
 *  @return SGL_OK, SGL_EPARSE (with the offending token and its position in
 *          sgl_error_last()), SGL_EINVAL (NULL) or SGL_ENOMEM. */
SGL_API int sgl_machine_from_shape(const char *shape,
                                   const sgl_machine_opts_t *opts,
                                   sgl_machine_t **ret_machine);

/** The MPI processes and the workers a shape needs, from the string alone:
 *  no tree is built, so a shape too large for this process is refused in
 *  microseconds (a shape may have up to 2^24 workers).
 *  @param shape  read only.
 *  @param ret_processes, ret_workers  set on success; either may be NULL.
 *  @return SGL_OK, SGL_EPARSE (as sgl_machine_from_shape()), SGL_EINVAL
 *          (NULL @p shape) or SGL_ENOMEM. */
SGL_API int sgl_shape_counts(const char *shape, size_t *ret_processes,
                             size_t *ret_workers);

/** Build a tree from an hwloc XML export (as `lstopo file.xml` writes); all
 *  levels are thread levels of one process. The export describes another
 *  machine, so neither this process's binding nor OMP_NUM_THREADS apply;
 *  opts->max_threads, if nonzero, still caps the workers.
 *  @return SGL_OK, SGL_EIO (file missing or unreadable), SGL_EHWLOC
 *          (not valid hwloc XML) or SGL_ENOMEM. */
SGL_API int sgl_machine_from_xml(const char *path,
                                 const sgl_machine_opts_t *opts,
                                 sgl_machine_t **ret_machine);

/** Build a homogeneous tree from fan-outs per level, top down.
 *  @param fanouts  nlevels counts, each >= 1.
 *  @param links    nlevels link kinds (MPI or THREADS; MPI never below
 *                  THREADS); NULL = all thread links.
 *  @param nlevels  entries of @p fanouts and @p links, at most 64; 0 gives
 *                  a single worker.
 *  @param opts     may be NULL for defaults (only keep_single applies);
 *                  not stored.
 *  @param ret_machine  set on success only; free with sgl_machine_free().
 *  @return SGL_OK, SGL_EINVAL or SGL_ENOMEM. */
SGL_API int sgl_machine_from_fanouts(const unsigned *fanouts,
                                     const sgl_link_t *links, unsigned nlevels,
                                     const sgl_machine_opts_t *opts,
                                     sgl_machine_t **ret_machine);

/** Free a tree and all its nodes. NULL is a no-op. */
SGL_API void sgl_machine_free(sgl_machine_t *machine);

/** The root master (a worker if the machine has a single worker). */
SGL_API const sgl_node_t *sgl_machine_root(const sgl_machine_t *m);
/** Number of levels below the root: 0 for a single worker. */
SGL_API unsigned sgl_machine_depth(const sgl_machine_t *m);
/** Number of leaf workers. */
SGL_API size_t sgl_machine_workers(const sgl_machine_t *m);
/** Number of MPI processes the tree needs (1 if it has no MPI link). */
SGL_API size_t sgl_machine_processes(const sgl_machine_t *m);
/** Number of nodes at @p level (0 if level > depth). */
SGL_API size_t sgl_machine_level_size(const sgl_machine_t *m, unsigned level);
/** Number of masters (nodes with children) at @p level. */
SGL_API size_t sgl_machine_level_masters(const sgl_machine_t *m,
                                         unsigned level);
/** The i-th worker in depth-first order, or NULL if out of range. */
SGL_API const sgl_node_t *sgl_machine_worker(const sgl_machine_t *m, size_t i);
/** The human-readable source: "discovered", "shape: rank:16 core:8", ... */
SGL_API const char *sgl_machine_source(const sgl_machine_t *m);

/** Level of the node (root = 0). */
SGL_API unsigned sgl_node_level(const sgl_node_t *n);
/** Number of children (0 for a worker). */
SGL_API unsigned sgl_node_arity(const sgl_node_t *n);
/** Child @p i, or NULL if out of range. */
SGL_API const sgl_node_t *sgl_node_child(const sgl_node_t *n, unsigned i);
/** Parent, or NULL for the root. */
SGL_API const sgl_node_t *sgl_node_parent(const sgl_node_t *n);
/** Position among its siblings (0 for the root). */
SGL_API unsigned sgl_node_index(const sgl_node_t *n);
/** Link to the children (SGL_LINK_NONE for a worker). */
SGL_API sgl_link_t sgl_node_link(const sgl_node_t *n);
/** Type name: "machine", "host", "rank", "package", "l3", "core", ... */
SGL_API const char *sgl_node_type(const sgl_node_t *n);
/** OS index of the hardware object (hwloc os_index), -1 if none/unknown. */
SGL_API int sgl_node_os_index(const sgl_node_t *n);
/** MPI rank (in the tree's process numbering) that plays this rank: for a
 *  master, the rank of its first descendant worker. */
SGL_API int sgl_node_rank(const sgl_node_t *n);
/** Number of workers in the subtree (1 for a worker). */
SGL_API size_t sgl_node_workers(const sgl_node_t *n);
/** Index of the first worker of the subtree in depth-first order (the
 *  worker's own index for a worker). */
SGL_API size_t sgl_node_first_worker(const sgl_node_t *n);
/** Host name for discovered MPI nodes, NULL otherwise. */
SGL_API const char *sgl_node_host(const sgl_node_t *n);

/** Print the tree the way lstopo prints hardware: one line per node,
 *  indented by level, with type, index, fan-out, link kind and, for workers,
 *  rank and core. Single lines per level are used when a level is
 *  homogeneous and large (more than @p max_lines nodes shown in full,
 *  0 = no limit). @return SGL_OK or SGL_EIO. */
SGL_API int sgl_machine_print(const sgl_machine_t *m, FILE *out,
                              unsigned max_lines);

/** Write the tree as JSON: an object with "schema" ({"name":
 *  "sgl-machine-tree", "version": 1}), "sgl_version", "source",
 *  "workers", "processes", "depth" and "root", nested node objects with
 *  "children" arrays, one node per line.
 *  @return SGL_OK or SGL_EIO. */
SGL_API int sgl_machine_write_json(const sgl_machine_t *m, FILE *out);

/** Short name of a link kind: "none", "threads", "mpi". */
SGL_API const char *sgl_link_name(sgl_link_t link);

/* ---- Cost parameters (docs/design.md, "Cost model") ----
 *
 * Units: seconds for l, seconds per BYTE for g, seconds per element for a
 * kernel's c. SGL_WORD_BYTES converts g to the paper's per-word figures.
 * Parameters belong to masters: "level L" means the masters at level L (the
 * root is level 0) and the link from them to their children at level L+1.
 * A master's effective parameters are its own override if one was set with
 * sgl_machine_set_node_params(), else those of its level. Setting
 * parameters mutates the tree: do it before sharing it between threads. */

/** Bytes in the word of the paper's cost tables (a 32-bit word). */
#define SGL_WORD_BYTES 4

/** Cost parameters of one master's link to its children. */
typedef struct sgl_link_params {
    double l;      /**< seconds per synchronisation (one scatter or gather) */
    double g_down; /**< seconds per byte, master -> children (scatter) */
    double g_up;   /**< seconds per byte, children -> master (gather) */
} sgl_link_params_t;

/** Set the parameters of every master at @p level (overriding nothing set
 *  per node). @return SGL_OK, or SGL_EINVAL if the level has no masters or
 *  a value is negative or not finite (nothing changes then). */
SGL_API int sgl_machine_set_level_params(sgl_machine_t *m, unsigned level,
                                         const sgl_link_params_t *p);
/** The parameters set for @p level. @return SGL_OK, SGL_ERANGE if none were
 *  set (or the level has no masters). */
SGL_API int sgl_machine_level_params(const sgl_machine_t *m, unsigned level,
                                     sgl_link_params_t *ret);
/** Small-message regime of a level: @p p applies to messages of at most
 *  @p max_bytes bytes per child, the level's parameters above that.
 *  @return SGL_OK or SGL_EINVAL (as sgl_machine_set_level_params(), or
 *  max_bytes 0 / not finite). */
SGL_API int sgl_machine_set_level_small_params(sgl_machine_t *m, unsigned level,
                                               const sgl_link_params_t *p,
                                               double max_bytes);
/** The small-message regime of @p level. @return SGL_OK or SGL_ERANGE. */
SGL_API int sgl_machine_level_small_params(const sgl_machine_t *m,
                                           unsigned level,
                                           sgl_link_params_t *ret,
                                           double *ret_max_bytes);
/** Effective parameters of @p master's link (its override, else its
 *  level's). @return SGL_OK, SGL_EINVAL for a worker, SGL_ERANGE if none
 *  are set. */
SGL_API int sgl_node_params(const sgl_node_t *master, sgl_link_params_t *ret);
/** Bytes of the header that travels with every pardo command to a child
 *  and with every child's reply, at an MPI level (the runtime's protocol,
 *  arguments excluded): the default of sgl_node_header_bytes(). */
#define SGL_HEADER_BYTES 64

/** Set the header bytes per child of every master at @p level: what each
 *  child other than the master's own first adds to each synchronisation,
 *  down and up, priced at that direction's g. This makes a superstep's
 *  synchronisation cost l + (p - 1) * header * g, growing with the fan-out
 *  p (docs/model.md, "Fan-out"). 0 keeps l constant.
 *  @return SGL_OK, or SGL_EINVAL if the level has no masters or @p bytes is
 *  negative or not finite (nothing changes then). */
SGL_API int sgl_machine_set_level_header(sgl_machine_t *m, unsigned level,
                                         double bytes);
/** The header bytes set for @p level with sgl_machine_set_level_header()
 *  (or a machine file's 'level L header B' record).
 *  @return SGL_OK, SGL_EINVAL for NULL, SGL_ERANGE if none were set. */
SGL_API int sgl_machine_level_header(const sgl_machine_t *m, unsigned level,
                                     double *ret);
/** Header bytes per child of @p master's synchronisations: its level's if
 *  set, else SGL_HEADER_BYTES on an MPI link (every remote child's
 *  command and reply carry one) and 0 on a threads link (a child reads
 *  the command in shared memory, inside the measured l).
 *  @return SGL_OK, or SGL_EINVAL for NULL or a worker. */
SGL_API int sgl_node_header_bytes(const sgl_node_t *master, double *ret);

/** The fan-out terms of a level measured at two fan-outs (docs/model.md,
 *  "Fan-out"), where the header bytes at g are not the whole per-child
 *  cost: a simulated network's small messages cross the link slower than
 *  its g, and an MPI adds its own cost per message. */
typedef struct sgl_fanout_params {
    double o;       /**< seconds per remote child per superstep: its command
                         and its reply at the master, in place of
                         header * (g_down + g_up) */
    double start_l; /**< seconds a run's first superstep waits for the
                         previous run's stop, whatever the fan-out */
    double start_o; /**< and per remote child (the stops leave the master
                         one after another) */
} sgl_fanout_params_t;

/** Set the fan-out terms of every master at @p level: a superstep's
 *  synchronisations cost 2 l + (p - 1) o, and the first superstep of a
 *  run at the root start_l + (p - 1) start_o more.
 *  @return SGL_OK, or SGL_EINVAL if the level has no masters, @p f is
 *  NULL, or a value is negative or not finite (nothing changes then). */
SGL_API int sgl_machine_set_level_fanout(sgl_machine_t *m, unsigned level,
                                         const sgl_fanout_params_t *f);
/** The fan-out terms set for @p level with sgl_machine_set_level_fanout()
 *  (or a machine file's 'level L fanout' record).
 *  @return SGL_OK, SGL_EINVAL for NULL, SGL_ERANGE if none were set. */
SGL_API int sgl_machine_level_fanout(const sgl_machine_t *m, unsigned level,
                                     sgl_fanout_params_t *ret);
/** Most size classes a level may have. */
#define SGL_SIZE_CLASSES_MAX 16

/** One message-size class of a level (docs/model.md, "Message sizes"):
 *  an MPI prices a message by its size (eager below a limit, a rendezvous
 *  above; SimGrid's SMPI by piecewise latency and bandwidth factors), which
 *  one l and g per direction cannot follow from bytes to megabytes. */
typedef struct sgl_size_class {
    double from;   /**< bytes per child: the class holds the messages of at
                        least this many bytes, up to the next class's */
    double l_down; /**< seconds a scatter adds when the largest class among
                        its children's blocks is this one */
    double g_down; /**< seconds per byte of such a block, down */
    double l_up;   /**< the same for a gather's blocks */
    double g_up;   /**< seconds per byte of such a block, up */
} sgl_size_class_t;

/** Add a message-size class to every master at @p level. A child's block
 *  of b bytes is then priced b * g of the class with the largest from <=
 *  b (the level's g below every class), and each direction of a
 *  superstep adds the largest l of its remote children's classes.
 *  @return SGL_OK, or SGL_EINVAL if the level has no masters, @p c is
 *  NULL, a value is negative or not finite, the level has a class with
 *  the same from, or SGL_SIZE_CLASSES_MAX already (nothing changes then). */
SGL_API int sgl_machine_add_level_size_class(sgl_machine_t *m, unsigned level,
                                             const sgl_size_class_t *c);
/** The size classes of @p level in order of from: up to @p max of them
 *  into @p ret, their number into @p ret_n.
 *  @return SGL_OK (none: *ret_n = 0), or SGL_EINVAL for NULL or a level
 *  out of range. */
SGL_API int sgl_machine_level_size_classes(const sgl_machine_t *m,
                                           unsigned level,
                                           sgl_size_class_t *ret,
                                           unsigned max, unsigned *ret_n);
/** Seconds that a run's first superstep at @p master waits beyond the
 *  others: start_l + (p - 1) start_o of its level's fan-out terms, 0
 *  without them (a real MPI's eager protocol has the command waiting at
 *  the child when the stop arrives; SimGrid's SMPI moves a message only
 *  once its receive is posted).
 *  @return SGL_OK, or SGL_EINVAL for NULL or a worker. */
SGL_API int sgl_node_start_cost(const sgl_node_t *master, double *ret);
/** Set the view path's price at @p level: g_down and g_up in seconds per
 *  byte when children read their parts of the master's block where it
 *  lies (sgl_recv_view()) and write their outputs straight into the
 *  master's destination (sgl_gather_into()) instead of copying. On a
 *  threads link neither direction copies, and sgl-probe finds both near
 *  0: the reading and the one write of the output are the kernels' and
 *  in their c. An MPI link's parts travel, so its view price is its
 *  ordinary g.
 *  The level's l stays the synchronisation cost (docs/model.md, "Thread
 *  level: the view path").
 *  @return SGL_OK, or SGL_EINVAL if the level has no masters or a value
 *  is negative or not finite (nothing changes then). */
SGL_API int sgl_machine_set_level_view(sgl_machine_t *m, unsigned level,
                                       double g_down, double g_up);
/** The view path's g_down and g_up set for @p level with
 *  sgl_machine_set_level_view() (or a machine file's
 *  'level L view g_down G g_up G' record).
 *  @return SGL_OK, SGL_EINVAL for NULL, SGL_ERANGE if none were set. */
SGL_API int sgl_machine_level_view(const sgl_machine_t *m, unsigned level,
                                   double *ret_g_down, double *ret_g_up);
/** Parameters of @p master's link for a superstep whose children read in
 *  place and put in place: sgl_node_params() with g_down and g_up
 *  replaced by its level's view price where the level has one, unchanged
 *  where it has none (files written before the view record price the
 *  view path as the copying one, as they were probed).
 *  @return as sgl_node_params(). */
SGL_API int sgl_node_view_params(const sgl_node_t *master,
                                 sgl_link_params_t *ret);
/** Horizontal (exchange) parameters of a level (docs/design.md, "Exchange supersteps"): the
 *  cost of an exchange superstep among a master's children is
 *  l + g * h, where h is the most bytes any child's workers send to, or
 *  receive from, the workers of the master's other children. */
typedef struct sgl_exchange_params {
    double l; /**< seconds per exchange sync among the children */
    double g; /**< seconds per byte of the busiest child (max of sent,
                   received) */
} sgl_exchange_params_t;

/** Set the exchange parameters of every master at @p level.
 *  @return SGL_OK, or SGL_EINVAL if the level has no masters or a value is
 *  negative or not finite (nothing changes then). */
SGL_API int sgl_machine_set_level_exchange(sgl_machine_t *m, unsigned level,
                                           const sgl_exchange_params_t *p);
/** The exchange parameters set for @p level.
 *  @return SGL_OK, SGL_ERANGE if none were set (or the level has no
 *  masters). */
SGL_API int sgl_machine_level_exchange(const sgl_machine_t *m, unsigned level,
                                       sgl_exchange_params_t *ret);
/** Exchange parameters of @p master: its level's if they were set
 *  (*ret_measured = 1), else a guess from its vertical parameters
 *  (sgl_node_params()) with l_h = l and g_h = max(g_down, g_up)
 *  (*ret_measured = 0). The guess takes the slower direction, since a
 *  child both sends and receives, and the master's link as the cost of a
 *  child's: in a scatter or gather every byte crosses the master's link,
 *  in an exchange each child's bytes cross its own link at the same time.
 *  It is optimistic on a network whose bisection is narrower than its
 *  links (an oversubscribed switch): measure l_h and g_h there.
 *  @param master        a master of a tree.
 *  @param ret           set on success only.
 *  @param ret_measured  may be NULL.
 *  @return SGL_OK, SGL_EINVAL (NULL, or a worker), SGL_ERANGE if the level
 *  has neither exchange nor vertical parameters. */
SGL_API int sgl_node_exchange_params(const sgl_node_t *master,
                                     sgl_exchange_params_t *ret,
                                     int *ret_measured);
/** Override the parameters of one master (heterogeneous links).
 *  @return SGL_OK or SGL_EINVAL (not a master of @p m, bad values). */
SGL_API int sgl_machine_set_node_params(sgl_machine_t *m,
                                        const sgl_node_t *master,
                                        const sgl_link_params_t *p);
/** The i-th master (left to right) at @p level, or NULL. */
SGL_API const sgl_node_t *sgl_machine_master(const sgl_machine_t *m,
                                             unsigned level, size_t i);
/** Position of @p master among the masters of its level (as
 *  sgl_machine_master() counts them). */
SGL_API size_t sgl_node_master_index(const sgl_node_t *master);

/** Maximum length of a kernel name, without the terminating NUL. */
#define SGL_KERNEL_NAME_MAX 31

/** Set c of @p kernel for every worker: @p seconds_per_elem seconds per
 *  element (for "merge": per element and 2-way merge level), replacing
 *  any per-worker values.
 *  Kernel names are [A-Za-z0-9_.-]+, at most SGL_KERNEL_NAME_MAX long; the
 *  reference algorithms use "sum", "product", "scan", "sort", "merge".
 *  @return SGL_OK, SGL_EINVAL (bad name, negative or non-finite value) or
 *  SGL_ENOMEM. */
SGL_API int sgl_machine_set_kernel(sgl_machine_t *m, const char *kernel,
                                   double seconds_per_elem);
/** Set c of @p kernel for one worker (heterogeneous workers).
 *  @return as sgl_machine_set_kernel(), SGL_EINVAL if worker is out of
 *  range. */
SGL_API int sgl_machine_set_worker_kernel(sgl_machine_t *m, size_t worker,
                                          const char *kernel,
                                          double seconds_per_elem);
/** c of @p kernel on @p node in seconds per element, NAN if unknown. For a
 *  master, the c of its first worker (the thread or process that plays it
 *  does the master's local work). */
SGL_API double sgl_node_kernel(const sgl_node_t *node, const char *kernel);
/** Relative speeds of the workers, the fastest 1: for @p kernel, in
 *  proportion to 1 / its per-worker c; for NULL, the geometric mean over
 *  the kernels with per-worker values of each worker's relative speed in
 *  them (sgl_runtime_set_balance() splits data by these). A worker
 *  without a c of its own runs at the kernel's plain c. All 1 when no
 *  worker has a c of its own.
 *  @param m           the machine.
 *  @param kernel      a kernel name, or NULL for all of them (see above).
 *  @param ret_speeds  sgl_machine_workers() entries.
 *  @return SGL_OK, SGL_EINVAL (NULL), SGL_ENOMEM. */
SGL_API int sgl_machine_worker_speeds(const sgl_machine_t *m,
                                      const char *kernel, double *ret_speeds);
/** Add a point to the size table of @p kernel: c (seconds per element)
 *  when each of @p busy workers that share memory runs the kernel at once,
 *  each on @p n elements of its own. Caches and memory bandwidth make c
 *  depend on both; a table records what a probe measured, and
 *  sgl_node_kernel_at() interpolates it. Setting the same (n, busy) again
 *  replaces the value. A per-worker c (sgl_machine_set_worker_kernel())
 *  overrides the table for its worker.
 *  @return SGL_OK, SGL_EINVAL (bad name, n < 1, busy 0, c negative or not
 *  finite) or SGL_ENOMEM. */
SGL_API int sgl_machine_set_kernel_point(sgl_machine_t *m, const char *kernel,
                                         double n, unsigned busy, double c);
/** c of @p kernel on @p node for a block of @p n elements while @p busy
 *  workers sharing memory run it at once: the worker's own c if one was
 *  set, else the size table interpolated linearly in log n between its
 *  points (the end points' c beyond them) and linearly in busy between
 *  the nearest measured busy counts (the nearest one beyond them), else
 *  the kernel's plain c. NAN if the kernel is unknown. */
SGL_API double sgl_node_kernel_at(const sgl_node_t *node, const char *kernel,
                                  double n, unsigned busy);
/** Copy every kernel of @p src (plain c, size table and, if the trees have
 *  the same number of workers, per-worker values) into @p dst, replacing
 *  kernels of the same name. @return SGL_OK, SGL_EINVAL or SGL_ENOMEM (out
 *  of memory part-way: @p dst may then hold part of the copy). */
SGL_API int sgl_machine_copy_kernels(sgl_machine_t *dst,
                                     const sgl_machine_t *src);

/** Whether the children of a level's masters share their memory system
 *  (one host's memory bandwidth and last-level cache). The predictor
 *  counts the workers below the highest ancestor whose levels all share
 *  memory as running at once (the busy of sgl_node_kernel_at()). */
typedef enum sgl_memory {
    SGL_MEMORY_DEFAULT = 0, /**< from the link: threads shared, MPI private */
    SGL_MEMORY_SHARED = 1,
    SGL_MEMORY_PRIVATE = 2,
} sgl_memory_t;

/** Set how the children of @p level's masters share memory.
 *  @return SGL_OK or SGL_EINVAL (no masters at that level, bad value). */
SGL_API int sgl_machine_set_level_memory(sgl_machine_t *m, unsigned level,
                                         sgl_memory_t memory);
/** The memory sharing of @p level as set, SGL_MEMORY_DEFAULT if never set
 *  (or the level has no masters). */
SGL_API sgl_memory_t sgl_machine_level_memory(const sgl_machine_t *m,
                                              unsigned level);
/** Workers that run at once sharing @p worker's memory: those below its
 *  highest ancestor reached through shared-memory levels only (1 if its
 *  parent's level is private). 0 for NULL or a master. */
SGL_API size_t sgl_node_memory_peers(const sgl_node_t *worker);

/** Number of kernels known to the machine. */
SGL_API size_t sgl_machine_kernels(const sgl_machine_t *m);
/** Name of the i-th kernel (in the order they were first set), or NULL. */
SGL_API const char *sgl_machine_kernel_name(const sgl_machine_t *m, size_t i);

/** Set a provenance record (host, date, sgl_version, method, ...). Keys are
 *  [A-Za-z0-9_.-]+; values any text without control characters (newlines).
 *  Setting an existing key replaces its value; a NULL value removes it.
 *  @return SGL_OK, SGL_EINVAL or SGL_ENOMEM. */
SGL_API int sgl_machine_set_provenance(sgl_machine_t *m, const char *key,
                                       const char *value);
/** The value of a provenance record, or NULL. */
SGL_API const char *sgl_machine_provenance(const sgl_machine_t *m,
                                           const char *key);
/** Number of provenance records. */
SGL_API size_t sgl_machine_provenance_count(const sgl_machine_t *m);
/** Key of the i-th provenance record (insertion order), or NULL. */
SGL_API const char *sgl_machine_provenance_key(const sgl_machine_t *m,
                                               size_t i);

/* ---- Machine files (format: docs/machine-file.md) ---- */

/** Read a machine file: its shape line builds the tree (as
 *  sgl_machine_from_shape() with single-child levels kept as written), the
 *  other records set parameters, kernels and provenance.
 *  @return SGL_OK, SGL_EIO (cannot open or read), SGL_EPARSE (with
 *  "path:line: what" in sgl_error_last()) or SGL_ENOMEM. */
SGL_API int sgl_machine_load(const char *path, sgl_machine_t **ret_machine);
/** Read a machine file from an open stream; @p name is used in messages. */
SGL_API int sgl_machine_read(FILE *in, const char *name,
                             sgl_machine_t **ret_machine);
/** Write @p m as a machine file; values print with 17 significant digits,
 *  so that sgl_machine_load() gives back every value exactly. @p path is
 *  created, or replaced if it is a regular file; anything else (a FIFO,
 *  a device, a directory) is refused at once, without blocking.
 *  @return SGL_OK, SGL_EIO (cannot write, or not a regular file: the
 *  message names its kind) or SGL_EINVAL (the tree has no shape string). */
SGL_API int sgl_machine_save(const sgl_machine_t *m, const char *path);
/** As sgl_machine_save(), to an open stream. */
SGL_API int sgl_machine_write(const sgl_machine_t *m, FILE *out);
/** A shape string that rebuilds the tree with sgl_machine_from_shape()
 *  (and keep_single), e.g. "rank:16 core:8" or "rank:2 core:[3,5]"; NULL
 *  for a tree no shape string can describe (leaves at different depths).
 *  Owned by the tree. */
SGL_API const char *sgl_machine_shape(const sgl_machine_t *m);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
