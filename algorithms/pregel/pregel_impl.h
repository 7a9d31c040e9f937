/* Inside the vertex-centric layer: a worker's part of a graph (its
 * vertices' out-edges in CSR form, and the run's state), the registered
 * programs, and which worker owns a vertex. */
#ifndef SGL_PREGEL_IMPL_H
#define SGL_PREGEL_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <sgl/pregel.h>

#include "algo_internal.h"

#define PREGEL_DIR_MAX 200

struct sgl_graph {
    uint32_t id;
    uint64_t n, m;         /* vertices, distinct edges */
    size_t nw;             /* workers */
    uint64_t *cuts;        /* worker w owns [cuts[w], cuts[w + 1]); NULL:
                              the even cut */
    uint64_t *edges;       /* each worker's out-edges */
    uint32_t prog;         /* of the last run; 0 before any */
    char dir[PREGEL_DIR_MAX + 1]; /* checkpoints, if every > 0 */
    unsigned every;
    uint64_t budget;       /* bytes per worker per exchange, 0: none */
    uint64_t ehash;        /* sum of the distinct edges' hashes, for
                              sgl__graph_identity() */
    int valued;            /* edges carry values (weights) */
};

/* A hash of @g's vertex count, edge count and edges, the same on any
 * number of workers and any cut: what a checkpoint names its graph by. */
uint64_t sgl__graph_identity(const sgl_graph_t *g);

/* Messages combined on the sending worker, one slot per target
 * (pregel_outbox.c). */
struct outbox {
    int dense;             /* slots indexed by target, else hashed */
    size_t ms;             /* bytes per message */
    uint64_t *key;         /* hashed: target + 1; 0 marks a free slot */
    uint32_t *hits;        /* messages combined into a slot; 0: free */
    unsigned char *msg;
    size_t cap;            /* slots (hashed: a power of two) */
    size_t *slot;          /* slots in use, in the order of first use */
    size_t used, slot_cap;
    uint64_t raw;          /* messages sent before combining */
};

/* Set @o up for a graph of @n vertices and messages of @ms bytes. */
int sgl__outbox_init(struct outbox *o, uint64_t n, size_t ms);
void sgl__outbox_free(struct outbox *o);
/* Combine @msg into @target's slot (or take the slot). */
int sgl__outbox_add(struct outbox *o, uint64_t target, const void *msg,
                    void (*combine)(void *, const void *));
/* The target of the @k-th slot in use; its message is at
 * o->msg + o->slot[k] * o->ms, its count at o->hits[o->slot[k]]. */
uint64_t sgl__outbox_target(const struct outbox *o, size_t k);
/* Empty it, keeping its memory. */
void sgl__outbox_clear(struct outbox *o);

/* Int sgl__outbox_add() with the number of messages @msg stands for. */
int sgl__outbox_add_n(struct outbox *o, uint64_t target, const void *msg,
                      uint32_t n, void (*combine)(void *, const void *));

/* A worker's out-edges grouped by target (pregel_fan.c): slot k is target
 * target[k], reached from the local sources src[off[k]..off[k + 1]). */
struct fan {
    size_t nslots;
    size_t nsenders;       /* local vertices with an out-edge */
    uint64_t *target;
    size_t *off;
    uint32_t *src;
    size_t ndest;          /* destination w's slots are */
    size_t *dest_off;      /*   dest_off[w]..dest_off[w + 1] */
};

/* A worker's part of one graph. */
struct wgraph {
    uint32_t id;           /* first: sgl__darray_item_find() reads it */
    uint64_t n;            /* vertices of the graph */
    uint64_t v0, v1;       /* the vertices it owns */
    uint64_t *cuts;        /* as sgl_graph's (a copy), NULL: even */
    size_t *off;           /* CSR: out-edges of v0 + i at adj[off[i]..] */
    uint64_t *adj;
    double *val;           /* edge values beside adj; NULL: none */
    void *staged;          /* what the worker hands to the next exchange */
    /* the run */
    uint32_t prog;
    unsigned char *value, *halted, *inbox, *has_msg;
    struct outbox out;
    /* sgl_vertex_send_all(): the layout, and this superstep's values */
    struct fan fan;
    unsigned char *bval, *bset;
    unsigned char *has_out; /* 1 for the vertices with out-edges */
    size_t nbcast;         /* vertices with out-edges that sent */
    size_t staged_cap;     /* bytes of staged, kept between supersteps */
    /* the wire's patterns (pregel_wire.c), for this run */
    int pattern_sent;      /* sender: the fan's targets went out */
    uint32_t **pat;        /* receiver: source s's targets, local */
    size_t *pat_n, npat;
    size_t *order, next;   /* rounds: the outbox by target, and where the
                              next round starts in it */
    /* the program's per-worker scratch (sgl_vertex_scratch()) */
    _Alignas(max_align_t) unsigned char scratch[SGL_PREGEL_MAX_SCRATCH];
};

/* A vertex as compute sees it (sgl_vertex_t). */
struct sgl_vertex {
    struct wgraph *g;
    const sgl_pregel_program_t *p;
    size_t i;            /* local index: vertex g->v0 + i */
    unsigned step;
    const double *params;
    const double *agg_prev;
    double *agg;
    int err;             /* the first failed send, or sgl_vertex_fail() */
    int in_block;        /* in begin or a block compute: no vertex */
};

/* Fold this superstep's sgl_vertex_send_all() values per target into the
 * outbox, and forget them. */
int sgl__fan_flush(struct wgraph *g, const sgl_pregel_program_t *p);
/* Fold fan slot @k's values into @acc: the first contributor's, then the
 * others combined in source order. @return how many contributed. */
uint32_t sgl__fan_fold(const struct wgraph *g, const sgl_pregel_program_t *p,
                       size_t k, unsigned char *acc);
/* Fold slots @lo..@hi, every one with a contributor (a full fan), into
 * @out + (k - @lo) @stride. */
void sgl__fan_fold_range(const struct wgraph *g, const sgl_pregel_program_t *p,
                         size_t lo, size_t hi, unsigned char *out,
                         size_t stride);
/* Forget this superstep's values once folded. */
void sgl__fan_forget_sent(struct wgraph *g);
/* Make the value arrays (bval, bset, has_out) for program @p, if not
 * made yet; and the layout of the out-edges by target. */
int sgl__fan_values(struct wgraph *g, const sgl_pregel_program_t *p);
int sgl__fan_build(struct wgraph *g);
/* Free the layout and the values (the values alone at a new run). */
void sgl__fan_free(struct wgraph *g);
void sgl__fan_forget_values(struct wgraph *g);

/* What a worker staged or delivered in a superstep. */
struct wire_stats {
    uint64_t raw;          /* messages before combining */
    uint64_t combined;     /* messages on the wire */
    uint64_t bytes;        /* bytes received */
};

/* Stage this superstep's messages (the outbox's and the fan's) for the
 * exchange over @nw workers (pregel_wire.c). */
int sgl__wire_stage(sgl_ctx_t *worker, struct wgraph *g,
                    const sgl_pregel_program_t *p, size_t nw,
                    struct wire_stats *ws);
/* Combine the last exchange's messages into the inbox. */
int sgl__wire_deliver(sgl_ctx_t *worker, struct wgraph *g,
                      const sgl_pregel_program_t *p, struct wire_stats *ws);
/* Forget the patterns and rounds, at the start of a run. */
void sgl__wire_forget(struct wgraph *g);

/* Rounds under a budget: at most 2^WIRE_ROUNDS_LOG per superstep. */
#define WIRE_ROUNDS_LOG 12
/* Put this superstep's messages in the outbox and order them for rounds;
 * @maxpair[k] the most bytes this worker would send one worker in one of
 * 2^k rounds, k = 0..WIRE_ROUNDS_LOG. */
int sgl__wire_plan(struct wgraph *g, const sgl_pregel_program_t *p, size_t nw,
                   struct wire_stats *ws, double *maxpair);
/* Stage round @r of @R of what sgl__wire_plan() ordered. */
int sgl__wire_stage_round(sgl_ctx_t *worker, struct wgraph *g,
                          const sgl_pregel_program_t *p, size_t nw, size_t r,
                          size_t R);

/* An edge, as graphs are built from (pregel_graph.c). */
struct edge {
    uint64_t s, t;
    double w;              /* its value; 0 in a graph without values */
};

struct pregel_id_arg {
    uint32_t id;
    uint32_t pad;
};

/* In a worker's task: send each of @x's @n edges to its source's owner
 * under @cuts (NULL: even) for the next exchange; @g keeps the buffer. */
int sgl__pregel_send_edges(sgl_ctx_t *worker, struct wgraph *g,
                           const struct edge *x, size_t n, size_t nw,
                           const uint64_t *cuts);
/* At the root, after that exchange: every worker builds its CSR from the
 * edges it received; @g learns each worker's edges and the total. */
int sgl__pregel_collect_csr(sgl_ctx_t *root, sgl_graph_t *g, int valued);

/* The worker's part of graph @id, or NULL. */
struct wgraph *sgl__pregel_wgraph(sgl_ctx_t *worker, uint32_t id);
/* Keep @g in the worker's state (taking it), or free it on failure. */
int sgl__pregel_wgraph_add(sgl_ctx_t *worker, struct wgraph *g);
void sgl__pregel_wgraph_drop(sgl_ctx_t *worker, uint32_t id);

/* The worker of @p that owns vertex @v of @n: vertices are cut in
 * contiguous ranges [n w / p, n (w + 1) / p). */
static inline size_t pregel_owner(uint64_t v, uint64_t n, size_t p)
{
    if (n <= (UINT64_MAX - n) / p) /* 64-bit division: several times faster */
        return (size_t)(((v + 1) * p + n - 1) / n) - 1;
    return (size_t)((((algo_u128)v + 1) * p + n - 1) / n) - 1;
}

/* The first vertex of worker @w of @nw under @cuts (NULL: even), and
 * the owner of vertex @v. */
static inline uint64_t pregel_first(const uint64_t *cuts, uint64_t n,
                                    size_t nw, size_t w)
{
    return cuts ? cuts[w] : (uint64_t)(((algo_u128)n * w) / nw);
}

static inline size_t pregel_owner_in(const uint64_t *cuts, uint64_t n,
                                     size_t nw, uint64_t v)
{
    if (!cuts)
        return pregel_owner(v, n, nw);
    size_t lo = 0, hi = nw; /* cuts[lo] <= v < cuts[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (cuts[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Checkpoints (pregel_checkpoint.c; its first comment gives the
 * format). The identity of a run, which every worker file carries: a
 * hash of the graph identity, @p's name and sizes and the parameters. */
uint64_t sgl__ckpt_ident(uint64_t graph, const sgl_pregel_program_t *p,
                         const double *params);
/* A worker's file of step @step; *@ret_term its term of the manifest's
 * files sum. */
int sgl__ckpt_write(sgl_ctx_t *worker, const struct wgraph *g,
                    const sgl_pregel_program_t *p, const char *dir,
                    unsigned step, uint64_t ident, const double *agg,
                    uint64_t *ret_term);
/* A worker's part read back from the files of the checkpoint of step
 * @step (on whatever tree it was taken), every file it reads checked;
 * *@ret_sum its share of the files sum. */
int sgl__ckpt_read(sgl_ctx_t *worker, struct wgraph *g,
                   const sgl_pregel_program_t *p, const char *dir,
                   unsigned step, uint64_t ident, uint64_t *ret_sum);
/* The files of step @step removed. */
void sgl__ckpt_remove(sgl_ctx_t *worker, const char *dir, unsigned step);

/* The manifest that makes a checkpoint whole, written by the root. */
struct ckpt_manifest {
    unsigned step;
    uint64_t n, m;         /* vertices, distinct edges */
    uint64_t graph;        /* sgl__graph_identity() */
    size_t workers;
    size_t value_size, msg_size;
    double params[SGL_PREGEL_MAX_PARAMS];
    double agg[SGL_PREGEL_MAX_AGGS];
    sgl_pregel_stats_t stats;
    uint64_t files;        /* the sum of the worker files' terms */
    uint64_t *cuts;        /* the run's cut, workers + 1; NULL: even */
    char program[64];      /* the program's name, blanks made '_' */
};
/* @name as the manifest writes it, into @buf of 64 bytes. */
void sgl__ckpt_program_name(const char *name, char *buf);
int sgl__ckpt_manifest_write(const char *dir, const struct ckpt_manifest *m);
/* Read it, its checksum checked; m->cuts malloc()ed (free it) or NULL. */
int sgl__ckpt_manifest_read(const char *dir, struct ckpt_manifest *m);
/* SGL_OK if @m is a checkpoint of graph @g, program @p and @params, else
 * SGL_EPARSE saying what differs. */
int sgl__ckpt_check(const char *dir, const struct ckpt_manifest *m,
                    const sgl_graph_t *g, const sgl_pregel_program_t *p,
                    const double *params);

/* Input files (pregel_read.c). Open @path for reading if it is a
 * regular file, else SGL_EIO naming what it is (a FIFO is not waited
 * on); @what names it in messages ("edge list"). */
int sgl__pregel_open_regular(const char *path, const char *what, FILE **ret);
/* The first @n bytes of @s (up to a NUL) into @out of @size bytes, with
 * control bytes written \xNN, for quoting input in a message. */
void sgl__pregel_escape(const char *s, size_t n, char *out, size_t size);

/* The registered program @id, or NULL. */
const sgl_pregel_program_t *sgl__pregel_program(uint32_t id);

#endif
