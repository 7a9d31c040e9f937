/* Internal layout of the machine tree, shared by the files of machine/ and
 * by the runtime (sgl/), which walks the tree directly. Never installed. */
#ifndef SGL_MACHINE_IMPL_H
#define SGL_MACHINE_IMPL_H

#include <stddef.h>
#include <stdio.h>

#include <sgl/machine.h>

#include "name_index.h"

/* Limits on a tree's size: a shape beyond them is a typo, not a machine,
 * and the limits keep node counts far from overflowing size_t products. */
#define SGL__MAX_WORKERS ((size_t)1 << 24)
#define SGL__MAX_NODES (2 * SGL__MAX_WORKERS)
#define SGL__MAX_DEPTH 64u

struct hwloc_topology;
struct hwloc_bitmap_s;

struct sgl_node {
    /* What every superstep reads comes first, in one cache line: from
     * cold caches each line of a node is a miss on the master's path. */
    struct sgl_node *parent;
    struct sgl_node **child;
    sgl_link_t link;        /* to the children */
    unsigned level;         /* set by finalize */
    unsigned index;         /* among siblings, set by finalize */
    unsigned arity;
    size_t workers;         /* leaves below, set by finalize */
    size_t first_worker;    /* set by finalize */
    int os_index;           /* hwloc os_index, -1 if none */
    int rank;               /* rank that plays the node, set by finalize;
                               a builder may preset it on a process node
                               (discovery: the rank in its communicator) */
    unsigned cap;           /* allocated child slots */
    char type[16];          /* "node", "core", ... */
    char *host;             /* discovered MPI nodes only */
    const struct sgl_machine *machine; /* owning tree, set by finish */
    size_t master_index;    /* among the masters of its level, set by
                               finish (masters only) */
    int has_params;         /* nonzero: params overrides the level's */
    sgl_link_params_t params;
};

struct sgl_machine {
    struct sgl_node *root;
    unsigned depth;
    size_t workers;
    size_t processes;
    size_t *level_size;     /* depth + 1 entries */
    size_t *level_masters;  /* depth + 1 entries */
    struct sgl_node **worker; /* workers in depth-first order */
    char *source;
    char *shape;            /* sgl_machine_shape(), NULL if none */
    /* Masters level by level, left to right within a level:
     * master[master_first[l] + i] is master i of level l. */
    struct sgl_node **master;
    size_t *master_first;   /* depth + 1 entries */
    struct sgl__level_params *params; /* depth + 1 entries */
    struct sgl__kernel *kernel;
    size_t nkernels;
    struct sgl__prov *prov;
    size_t nprov;
    /* Lookups by name; caches, so const accessors may update them. */
    struct sgl__name_index kernel_index, prov_index;
};

/* Parameters of one level (docs/design.md, "Cost model"); all unset at first. */
struct sgl__level_params {
    int set;
    sgl_link_params_t p;
    int small_set;          /* small-message regime */
    double small_max;       /* bytes per child */
    sgl_link_params_t small;
    int memory;             /* sgl_memory_t */
    int exchange_set;       /* horizontal parameters (section 8) */
    sgl_exchange_params_t exchange;
    int header_set;         /* header bytes per child per sync */
    double header;
    int fanout_set;         /* o and the run's start, from two fan-outs */
    sgl_fanout_params_t fanout;
    int view_set;           /* the view path's g (view.c) */
    double view_g_down, view_g_up;
    unsigned nsize;         /* message-size classes, sorted by from */
    sgl_size_class_t size[SGL_SIZE_CLASSES_MAX];
};

/* c of one kernel: all_c for every worker, per-worker values where
 * worker_c is non-NULL and the entry is not NAN. */
struct sgl__kernel {
    char name[SGL_KERNEL_NAME_MAX + 1];
    double all_c;           /* NAN if only per-worker values */
    double *worker_c;       /* NULL or m->workers entries */
    struct sgl__kpoint *pt; /* size table, sorted by (busy, n) */
    size_t npt;
};

/* One point of a kernel's size table (sgl_machine_set_kernel_point()). */
struct sgl__kpoint {
    double n;
    unsigned busy;
    double c;
};

struct sgl__prov {
    char *key;
    char *value;
};

/* Set *ret (malloc'd) to a shape string that rebuilds @p m's tree with
 * keep_single, or to NULL if none can (leaves at different depths, or
 * masters of one level with different links). SGL_OK or SGL_ENOMEM. */
int sgl__machine_shape_string(const struct sgl_machine *m, char **ret);

/* Free what params.c and kernels.c added to a machine (kernels,
 * provenance). */
void sgl__machine_params_free(struct sgl_machine *m);
void sgl__kernels_free(struct sgl_machine *m);

/* Arrays that grow one entry at a time (kernels, their points, provenance)
 * keep a capacity of the next power of two of their length, so adding n
 * entries costs O(n) whatever realloc does (under ASan it always copies).
 * The entries to allocate for one more entry after @n, or 0 if there is
 * room. */
static inline size_t sgl__grow(size_t n)
{
    return n == 0 ? 1 : (n & (n - 1)) == 0 ? 2 * n : 0;
}

/* The kernel called @p name (O(1)), or NULL. */
struct sgl__kernel *sgl__kernel_find(const sgl_machine_t *m, const char *name);
/* The kernel called @p name, added with no values if new. */
int sgl__kernel_get(sgl_machine_t *m, const char *name,
                    struct sgl__kernel **ret);
/* Every worker's own c of @p kernel at once (m->workers finite,
 * non-negative values, checked by the caller), the kernel added if new:
 * all or nothing (SGL_ENOMEM changes nothing). */
int sgl__kernel_set_workers(sgl_machine_t *m, const char *name,
                            const double *c);
/* Relative speeds of every worker (m->workers entries into @speed, the
 * fastest 1): for @kernel, 1 / the worker's own c; for NULL, the
 * geometric mean over every kernel that has per-worker values of the
 * worker's speed relative to that kernel's fastest worker. Returns 1 if
 * some worker has its own c (of @kernel, or of any kernel for NULL), 0
 * (speeds untouched) if all workers are alike, -1 if out of memory. A worker without its own
 * c runs at the kernel's plain c, or, if it has none, at the mean speed
 * of those that have one. */
int sgl__worker_speeds(const sgl_machine_t *m, const char *kernel,
                       double *speed);

/* Merge @p n points, sorted by (busy, n) and none already in @p k's size
 * table, into it in one pass. */
int sgl__kernel_merge_points(struct sgl__kernel *k,
                             const struct sgl__kpoint *pts, size_t n);
/* SGL_OK if @p v is finite and not negative, else SGL_EINVAL with a message
 * naming @p fn and @p what. */
int sgl__check_value(const char *fn, const char *what, double v);
/* The synchronisations of one superstep of @master, whose p children
 * got their blocks at the regime (l_down, g_down) and replied at
 * (l_up, g_up): l_down + l_up + (p - 1) * o with the level's fan-out
 * terms, else (p - 1) * header * (g_down + g_up)
 * (sgl_node_header_bytes()). The closed form (predict.c) and the trace
 * replay both call it, so that they price the same l. */
double sgl__sync_cost(const struct sgl_node *master, double l_down,
                      double g_down, double l_up, double g_up);
/* One direction of a superstep of @master priced by its level's size
 * classes (size_classes.c): @bytes[i * @stride] the block of child i, @up
 * the direction, @g the level's g for blocks below every class. Sets
 * *ret_t to the blocks' time and *ret_l to the largest class l among
 * them, and returns 1; returns 0 and sets nothing without classes (or
 * with the master's own parameters, which no class refines). */
int sgl__size_cost(const struct sgl_node *master, const double *bytes,
                   size_t stride, int up, double g, double *ret_t,
                   double *ret_l);
/* A direct exchange of @master whose busiest child moves @h bytes, at
 * @xp: l_h + h g_h, or with size classes l_h + l + h g of the class of
 * one worker's block to another (h over the master's workers less one). */
double sgl__size_exchange(const struct sgl_node *master, double h,
                          const sgl_exchange_params_t *xp);
/* SGL_OK if @p name is a valid kernel name (sgl__valid_name()), else
 * SGL_EINVAL with a message naming @p fn and the name. */
int sgl__check_kernel_name(const char *fn, const char *name);
/* Nonzero if @p name is a valid kernel or provenance key:
 * [A-Za-z0-9_.-]+ of at most @p max characters. */
int sgl__valid_name(const char *name, size_t max);

/* Copy at most @max bytes of @s (stopping at its NUL) into @out (@size
 * bytes, always terminated) with control characters written as C escapes
 * (\t, \n, \r, else \xNN), so that an error message that quotes user
 * input stays one printable line. Returns @out. */
char *sgl__escape(const char *s, size_t max, char *out, size_t size);

/* The largest hwloc XML file read: exports of the largest machines are a
 * few MB; anything far past that is not one. */
#define SGL__XML_MAX_BYTES ((size_t)64 << 20)
/* "a FIFO", "a directory", ... for a stat mode (input_file.c). */
const char *sgl__file_kind(unsigned mode);
/* Open @path for reading, refusing at once (SGL_EIO, the message naming
 * @purpose, the path and the kind) anything but a regular file: a FIFO
 * without a writer would block, a device need never end. *ret_fd is a
 * blocking descriptor the caller closes. */
int sgl__open_regular(const char *path, const char *purpose, int *ret_fd);
/* The whole of regular file @path (sgl__open_regular()) into a new
 * NUL-terminated buffer (free()) of *ret_len bytes; a file longer than
 * @max bytes is refused, the cap named in the message. */
int sgl__read_regular(const char *path, const char *purpose, size_t max,
                      char **ret_buf, size_t *ret_len);
/* SGL_OK if @path does not exist or is a regular file, so that writing
 * it can neither block (a FIFO) nor land on a device or directory;
 * checked before work whose result would be lost. */
int sgl__check_output(const char *path, const char *purpose);
/* Open @path for writing, created if absent, emptied if a regular file;
 * anything else is refused at once (SGL_EIO, naming @purpose, the path
 * and the kind) without blocking: a FIFO waits for a reader, a device or
 * directory is no place for a file. *ret is the caller's to fclose(). */
int sgl__open_output(const char *path, const char *purpose, FILE **ret);

/* @bytes of zeros aligned to a 64-byte cache line (line_alloc.c); NULL
 * when out of memory; freed by free(). */
void *sgl__line_calloc(size_t bytes);

/* Allocate a detached node; NULL on out of memory (message set). */
struct sgl_node *sgl__node_new(const char *type, int os_index);
/* Append @child to @parent (which takes ownership); SGL_ENOMEM on failure,
 * in which case the caller still owns @child. */
int sgl__node_add(struct sgl_node *parent, struct sgl_node *child);
/* Free a node and its subtree. */
void sgl__node_free(struct sgl_node *n);

/* A tree built level by level from the root down (shapes, fan-outs): the
 * nodes of the deepest level built so far. */
struct sgl__frontier {
    struct sgl_node **node;
    size_t n;
};
/* A frontier of @root alone. SGL_ENOMEM ("out of memory building a
 * @what") on failure. */
int sgl__frontier_init(struct sgl__frontier *f, struct sgl_node *root,
                       const char *what);
/* Set every frontier node's link to @link and give node i counts[i] (all
 * @count if @counts is NULL) new children of @type, @size of them in all;
 * they become the frontier. SGL_ENOMEM (message set) on failure: the
 * frontier stays, children already added stay in the tree. */
int sgl__frontier_grow(struct sgl__frontier *f, const unsigned *counts,
                       unsigned count, size_t size, const char *type,
                       sgl_link_t link, const char *what);
void sgl__frontier_free(struct sgl__frontier *f);

/* Turn a built node tree into a machine: collapse single-child levels
 * unless keep_single, compute levels, indices, worker numbering, ranks (one
 * rank per MPI-link child subtree, in depth-first order) and the per-level
 * counts. Takes ownership of @root in every case (frees it on failure).
 * @source is copied. */
int sgl__machine_finish(struct sgl_node *root, int keep_single,
                        const char *source, sgl_machine_t **ret_machine);

/* Add to @parent (whose link becomes threads) the cores of @topo that
 * intersect @cpuset (all cores if NULL), at most @max_cores of them (0 = no
 * cap) taken in hwloc logical order, as package -> numa -> l3 -> core
 * subtrees; levels the topology lacks are left out. A core's os_index is
 * that of its first PU in @cpuset, so the runtime can bind a thread to it.
 * Topologies without cores get one worker per PU instead. */
int sgl__hwloc_fill(struct sgl_node *parent, struct hwloc_topology *topo,
                    const struct hwloc_bitmap_s *cpuset, unsigned max_cores);

/* The processing units this process may run on: its CPU binding, else
 * all of @topo's; 0 if unknown. */
int sgl__process_pus(struct hwloc_topology *topo);

/* How many of @m's workers rank @rank runs. */
size_t sgl__rank_workers(const sgl_machine_t *m, int rank);

/* The oversubscription warning, into @buf, if @workers worker threads
 * exceed @pus (> 0) processing units: of rank @rank alone when @ranks is 1,
 * else of the @ranks ranks sharing a host, each running up to
 * @rank_workers threads. Names OMP_WAIT_POLICY=PASSIVE where the threads
 * are OpenMP's and the variable is unset. Returns 1 if it wrote one. */
int sgl__oversub_warning(char *buf, size_t size, int ranks, int rank,
                         size_t workers, size_t rank_workers, int pus);

/* Load an hwloc XML export into a new topology. @return SGL_OK, SGL_EIO
 * (missing or unreadable file) or SGL_EHWLOC (not hwloc XML). */
int sgl__hwloc_load_xml(const char *path, struct hwloc_topology **ret_topo);

/* sgl_machine_load() refusing (SGL_ERANGE, with the file's line) a shape
 * of more than @max_workers workers before building its tree; 0: no cap
 * but the shape's own. */
int sgl__machine_load_max(const char *path, size_t max_workers,
                          sgl_machine_t **ret_machine);
/* One level of a parsed shape: its canonical type, its children per node
 * of the level above (0 when a list gives one count per node) and its
 * nodes. */
struct sgl__shape_level {
    const char *type;
    unsigned count;
    size_t size;
};
/* The levels of @shape (at most SGL__MAX_DEPTH into @ret, *ret_n of them),
 * checked as sgl_machine_from_shape() checks them; no node is built. */
int sgl__shape_levels(const char *shape, struct sgl__shape_level *ret,
                      unsigned *ret_n);
/* The listing sgl_machine_print(@max_lines) writes for the tree of
 * @shape, computed from its levels without building a node per worker
 * (shape_print.c); @max_lines < 0 folds (1) above @fold_above nodes, else
 * shows all (0). Only for shapes without lists, where every node of a
 * level is alike: returns 1 (nothing written, no message) for the
 * others, so that the caller builds the tree. @from, if not NULL, names
 * where the shape came from on the Source line ("SGL_SHAPE"). */
int sgl__shape_print(const char *shape, const char *from, int keep_single,
                     FILE *out, long max_lines, size_t fold_above);

/* sgl_machine_from_shape() as machine files of format 1 meant their
 * shapes: "node" is an MPI process ("rank"), as in SGL 0.1. */
int sgl__machine_from_shape_v1(const char *shape,
                               const sgl_machine_opts_t *opts,
                               sgl_machine_t **ret_machine);

/* Link kind implied by a level type name: SGL_LINK_MPI for process types
 * (cluster, rack, host, rank), SGL_LINK_THREADS for types inside a
 * process, SGL_LINK_NONE for an unknown name. */
sgl_link_t sgl__type_link(const char *type);

#endif
