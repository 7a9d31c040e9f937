/* Internal layout of the runtime: the runtime object, contexts, and the
 * functions the level implementations (threads, MPI) share. Never
 * installed. */
#ifndef SGL_RUNTIME_IMPL_H
#define SGL_RUNTIME_IMPL_H

#include <hwloc.h>
#include <mpi.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "machine_impl.h"
#include <sgl/sgl.h>
#include <sgl/balance.h>
#include <sgl/blocks.h>
#include <sgl/exchange.h>
#include <sgl/trace.h>

/* MPI messages up to this size are packed into one contiguous buffer and
 * received into pre-posted buffers of this size: a copy of a few KiB costs
 * less than building a derived datatype. */
#define SGL__PACK_MAX 16384

/* Threads one process may run at once on its thread levels (the product
 * of the capped team sizes down the deepest path): beyond this a shape is
 * refused at sgl_init() rather than left to fail inside OpenMP. */
#define SGL__THREADS_MAX 4096
/* A thread-level team is capped at the larger of this and the process's
 * processing units: more children run several per thread. */
#define SGL__TEAM_MIN_CAP 64

/* A growable byte buffer. Grown by the thread that uses it, so that at the
 * thread level a child's buffers are first touched on the child's core. */
struct sgl_buf {
    void *data;
    size_t cap;
};

/* Ensure @b holds @bytes; contents are not preserved. */
int sgl__buf_reserve(struct sgl_buf *b, size_t bytes);
void sgl__buf_free(struct sgl_buf *b);

/* What the next pardo sends: nothing, slices of one source (scatter), one
 * block to all (bcast), or per-child runtime buffers the master filled
 * (sgl_scatter_buffer: the local children's down buffers, sbuf for remote
 * ones). */
enum sgl_staged {
    SGL_STAGED_NONE,
    SGL_STAGED_SCATTER,
    SGL_STAGED_BCAST,
    SGL_STAGED_BUFFERS
};

struct sgl_task_entry {
    sgl_task_fn fn;
    char *name;
    uint32_t hash;
};

#define SGL_ERRMSG_MAX 1024

/* The supersteps recorded at one master. A record is one block of stride
 * bytes: the fixed fields, then six per-child columns of arity entries
 * each (trace.c's struct view names them). The
 * blocks live in segments that never move: the first one small, each later
 * one a 2 MiB huge page where the system gives one. A superstep's record
 * thus touches a few consecutive cache lines, and a long run takes one page
 * fault per 2 MiB and copies nothing as the trace grows; the faults of
 * small pages and the copies of a doubling array cost a thread-level
 * superstep about a fifth of its time. */
struct sgl_trace_rec {
    unsigned long seq;
    long parent_seq;
    double start, end, master;
    double wait;           /* sgl_trace_step_t.wait_start */
    int exchange;          /* sgl_exchange_method_t that ran, 0: a pardo */
};

struct sgl_trace {
    unsigned char **seg;   /* segments; seg[0] holds the first records */
    size_t nseg, seg_cap;  /* segments made, slots in seg */
    size_t first, per;     /* records in seg[0], in each later segment */
    size_t stride;         /* bytes per record */
    size_t n;              /* records kept */
    size_t head;           /* slot of the oldest record kept: a full trace
                              is a ring, the newest record overwriting the
                              oldest (trace.c, trace_slot()) */
    size_t cap;            /* records memory gave room for, 0: not short */
    size_t dropped;        /* records not kept (overwritten), since clear */
};

/* sgl_opts_t.trace_max's default: the newest 4096 supersteps per master,
 * 4096 * (56 + 56 * children) bytes (0.7 MiB for 2 children, 15 MiB for
 * 64), plenty for a timed run's replay and the refit, while a long loop
 * keeps a bounded memory (2^20 records grew a 20,000-step loop by 9 MB). */
#define SGL__TRACE_MAX_DEFAULT ((size_t)4096)

/* One library's state at a context (sgl_ctx_set_keyed_state()). */
struct sgl_keyed {
    const void *key;
    void *state;
    void (*destroy)(void *);
};

struct sgl__level;

/* Destroy every state of @c (program's and libraries'). */
void sgl__ctx_states_free(struct sgl_ctx *c);

/* A context. The fields are ordered by use: first what every superstep
 * reads or writes (a child's side, then its master's), last the
 * watchdog's, the exchange's and a failed task's message. From cold
 * caches every cache line a superstep touches is a miss on its path, so
 * the lines it touches are kept few: contexts are line-aligned, and a
 * master's per-child arrays share one allocation. */
struct sgl_ctx {
    struct sgl_runtime *rt;
    const struct sgl_node *node;
    /* Children played by this process (all of them below a thread link,
     * only the first below an MPI link); NULL entries are remote. */
    struct sgl_ctx **child;
    /* The operations of the link below (level.h), kept here rather than
     * looked up in a table: one cache line less on a superstep's path. */
    const struct sgl__level *link;

    /* Child side: the block received in the current pardo and the block
     * handed up. down_data is this node's own copy of the block (in down,
     * which at an MPI entry node holds the whole message), NULL until it
     * has one; down_view is where the block is read otherwise: below a
     * thread link the master's staged source, copied into down only by
     * sgl_recv(), so that a task that only reads its block (sgl_recv_view())
     * or never reads it copies nothing. */
    struct sgl_buf down;
    void *down_data;
    const void *down_view;
    size_t down_bytes;
    struct sgl_buf up;
    size_t up_bytes;
    /* Below a thread link whose master named its gather's destination
     * (sgl_gather_into()): this child's part of it, which a put of exactly
     * put_at_bytes is written into in place; up_at is where the last put
     * lies (put_at or up.data, NULL before any). */
    void *put_at;
    size_t put_at_bytes;
    void *up_at;
    int down_released;    /* sgl_recv_release() in the current task */
    int in_task;
    int status;                   /* the task's return code */
    int pu;       /* OS index of the PU of the first worker below, or -1 */

    /* Master side: what the next pardo sends, and what the last returned. */
    enum sgl_staged staged;
    int gathered;
    int released;            /* sgl_gather_release() since the last pardo */
    int consumed;            /* a block went straight into a gather's dst */
    int xkind;               /* how the last exchange ran (0: a pardo) */

    /* Trace, a child's side: when its task started, how long it ran, the
     * work it declared and the parent's superstep it ran in; and (a
     * master's too) when its last superstep ended. */
    double task_start, task_time, work;
    long parent_seq;
    double last_end;

    /* Programs' and libraries' states (a worker's blocks: every task). */
    void *state;
    void (*destroy)(void *);
    struct sgl_keyed *keyed; /* libraries' states, by key */
    size_t nkeyed;

    /* Trace, a master's side: its superstep counter, the start of its
     * running superstep and when it began to wait for other processes'
     * replies (seconds after that start); of the last pardo, the
     * children's times, work and reply times (ctime, cwork, cdone below;
     * sgl_trace_step_t); its records (trace). */
    unsigned long seq;
    double step_start, cwait;

    /* The staged scatter's source and element size. */
    const void *src;
    size_t elem_size;
    /* Per child, arity entries each (one block: per_child_alloc()). */
    size_t *counts;   /* bytes per child */
    size_t *offsets;  /* byte offset of each child's block */
    const void **gdata;
    size_t *gbytes;
    size_t *pending;         /* bytes of blocks the link still holds
                                (level.h, fetch) */
    double *ctime, *cwork, *cdone;
    /* What the last exchange moved across each child's boundary (for the
     * trace). */
    size_t *hsent, *hrecv;
    void *link_state;        /* what the link keeps at this master */
    struct sgl_trace trace;

    /* Read by the watchdog's thread, and kept only where it runs: when
     * the running pardo started (0 between pardos) and which children
     * have returned from it (arity entries). */
    _Atomic double pardo_start;
    _Atomic unsigned char *returned;

    /* Exchange (exchange.h), worker side: the blocks staged for the next
     * exchange (the caller's memory, bytes per destination) and the blocks
     * received in the last one (bytes per source, and the counts in
     * elements that sgl_exchange_recv() last gave). */
    const void *xo_src;
    size_t xo_first, xo_n;
    size_t *xo_off;          /* xo_n + 1 byte offsets into xo_src */
    size_t xo_cap;
    struct sgl_buf xin;
    size_t xin_first, xin_n;
    size_t *xin_off;         /* xin_n + 1 byte offsets into xin */
    size_t *xin_elems;       /* xin_n element counts, for the caller */
    size_t xin_cap;
    int xin_released;
    int xroot;               /* the exchange's own master, in it */

    char errmsg[SGL_ERRMSG_MAX];  /* the task's message when status < 0 */
};

struct sgl_runtime {
    /* What every superstep reads, in the first cache line (see struct
     * sgl_ctx). */
    double epoch;            /* sgl__now() origin, aligned by a barrier */
    int trace;               /* record supersteps */
    size_t trace_max;        /* records per master */
    struct sgl_watchdog *dog; /* its thread, when on */
    struct sgl_ctx *entry;   /* the highest node this process plays */
    int rank;
    int bind;                /* bind threads to their workers' PUs */
    unsigned team_max;       /* threads a thread-level pardo asks for at
                                most; its other children share them */
    MPI_Comm comm;
    MPI_Comm xcomm;          /* the direct exchange's messages */
    int size;
    int own_mpi;             /* sgl_init called MPI_Init_thread */
    sgl_machine_t *machine;
    hwloc_topology_t topo;   /* loaded only when binding */
    struct sgl_ctx **wctx;   /* this process's workers, by index - wfirst */
    size_t wfirst, wn;
    unsigned char *xmethod;  /* sgl_exchange_method_t per level */
    unsigned char *xauto;    /* AUTO's pick per level from the machine
                                parameters; 0: none given */
    int balance;             /* sgl_balance_t */
    char balance_kernel[SGL_KERNEL_NAME_MAX + 1]; /* splits weigh by its
                                per-worker c; "": the overall speed */
    uint32_t *speed;         /* per worker: its weight in splits
                                (balance.c) from the parameters; NULL: all
                                alike */
    struct sgl__fits *fits;  /* sgl_runtime_refit_kernel()'s newest fits,
                                per kernel (refit.c) */
    size_t nfits;
    unsigned refit;          /* refit the balance kernel after each run
                                over this many fits; 0: off */
    sgl_machine_t *params;   /* a copy of sgl_runtime_set_params()'s tree,
                                which the algorithms' AUTO variants price
                                on (sgl_ctx_params()); NULL: none given */
    char warning[320];       /* sgl_runtime_warning(); empty if none */
    int oversubscribed;      /* this process's host runs more worker
                                threads than it has processing units */
    int wait_active;         /* MPI waits poll without sleeping (SGL_WAIT;
                                by default where not oversubscribed) */
    /* Pointers to every record of this process in order of start, built
     * on demand by sgl_trace_step(). */
    struct sgl_trace_ref *index;
    size_t nindex;
    struct sgl_task_entry *tasks;
    size_t ntasks;
    size_t cap_tasks;
    /* The running program's argument: the root's block (sgl_recv()). */
    const void *run_arg;
    size_t run_arg_size;
    /* The last run's result: the root's hand-up on rank 0, a copy sent at
     * the end of the run elsewhere (share_result). */
    int share_result;
    int has_result;
    struct sgl_buf result;
    size_t result_bytes;
    double watchdog;         /* seconds a superstep may run; 0 = off */
    int omp_levels;          /* OpenMP max-active-levels before sgl_init
                                (restored by sgl_finalize), -1 unset */
};

uint32_t sgl__hash(const char *s);

/* Every process of @comm returns the worst (lowest) of their @rc, so that
 * none goes on alone; a process that had succeeded reports that @fn
 * failed on another. Collective. */
int sgl__agree(MPI_Comm comm, int rc, const char *fn);

/* Nonzero if the two trees have the same levels, sizes and workers. */
int sgl__same_shape(const sgl_machine_t *a, const sgl_machine_t *b);

/* The workers' overall weights (rt->speed) from the kernels of
 * rt->machine (balance.c). */
int sgl__balance_update(struct sgl_runtime *rt);
/* Free the refit's fits (refit.c). */
void sgl__fits_free(struct sgl_runtime *rt);
/* The refit after a run (rt->refit fits of the balance kernel) from the
 * steps that started at @since or later; a run that measured nothing
 * changes nothing. Collective. */
int sgl__refit_run(struct sgl_runtime *rt, double since);
/* sgl_ctx_split()'s counts by rt->speed (which must be set), exact. */
int sgl__split_by_speed(const struct sgl_ctx *ctx, size_t n, size_t *counts);

/* Seconds since the runtime's epoch. */
double sgl__now(const struct sgl_runtime *rt);

/* Child @i of @m out (@v 0) or returned (1), for the watchdog's thread
 * where it runs (nothing else reads it): relaxed, since it needs whole
 * values and no order, and a fence on every superstep cost more than the
 * store. */
static inline void sgl__publish_returned(struct sgl_ctx *m, unsigned i,
                                         unsigned char v)
{
    if (m->rt->dog)
        atomic_store_explicit(&m->returned[i], v, memory_order_relaxed);
}

/* A pardo (superstep.c) whose result and trace record are completed by
 * @finish (may be NULL), called with the pardo's status: the exchange
 * reads the children's counts there. */
int sgl__pardo_with(struct sgl_ctx *m, sgl_task_fn task, const void *arg,
                    size_t arg_size, int (*finish)(struct sgl_ctx *, int));
/* Record the superstep @m just ran from @start to now. */
void sgl__trace_record(struct sgl_ctx *m, double start);
/* The node of @m's tree that recorded @st (its level, first worker and
 * arity), or NULL if there is none. */
const struct sgl_node *sgl__trace_step_master(const sgl_machine_t *m,
                                              const sgl_trace_step_t *st);
/* sgl_trace_step_delivered() of child @i < st->children of @master, the
 * node that recorded @st (sgl__trace_step_master()). */
double sgl__trace_delivered(const struct sgl_node *master,
                            const sgl_trace_step_t *st, unsigned i);
/* A serialised step: level, index, rank, seq, parent_seq, children,
 * start, end, master, first_worker, exchange, wait; then per child down,
 * up, time, work, h_sent, h_recv, done. */
#define SGL__TRACE_FIXED 12
#define SGL__TRACE_CHILD 7
/* Gather every process's steps, serialised, to rank 0 (collective). On
 * rank 0 *ret_all holds *ret_n doubles (free it); elsewhere it is NULL. */
int sgl__trace_gather(struct sgl_runtime *rt, double **ret_all,
                      size_t *ret_n);
/* Free a master's records. */
void sgl__trace_free(struct sgl_trace *t);

#endif
