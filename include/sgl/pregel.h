/**
 * @file pregel.h
 * Vertex-centric supersteps (docs/design.md and docs/pregel.md; the BSP note's
 * Pregel): a directed graph partitioned over the workers, a compute
 * function per active vertex per superstep, messages combined at the
 * sender and delivered by an exchange superstep, aggregators whose value
 * is visible in the next superstep, vote to halt and wake on a message.
 * The run ends when every vertex has halted and no message is in flight,
 * or after a given number of supersteps.
 *
 * Graphs. Vertices are numbered 0..n-1; worker w of P owns the
 * contiguous range [n w / P, n (w + 1) / P) and the out-edges of its
 * vertices. Duplicate edges are kept once (as a simple directed graph,
 * NetworkX's DiGraph); self-loops are kept. A graph is built from an edge
 * list at the root (sgl_graph_from_edges(), sgl_graph_read_edges()) or
 * generated on the workers (sgl_graph_kronecker(): Graph500's R-MAT);
 * either way the edges travel to their source's owner in one exchange.
 *
 * Programs. A program (sgl_pregel_program_t) is registered, like an
 * operator, in the same order on every process; its compute function runs
 * on the workers, on every vertex that has not halted or has a message,
 * or its block compute on arrays of consecutive vertices at once
 * (sgl_vertex_block_t), a loop without a call per vertex.
 * Messages to one vertex are combined by the program's combiner on the
 * sending worker, so that a worker sends at most one message per target
 * vertex per superstep, and the target receives at most one. Aggregators
 * are doubles combined by sum, min or max over all vertices of a
 * superstep, read in the next one.
 *
 * The functions taking the root context are master-side calls of the
 * root's task (sgl.h); the sgl_vertex_* functions are valid only inside a
 * compute function. Register with sgl_algorithms_register() (it registers
 * the engine's tasks); programs with sgl_pregel_register().
 */
#ifndef SGL_PREGEL_H
#define SGL_PREGEL_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/sgl.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_pregel Vertex-centric supersteps
 *  Graphs, vertex programs, combiners, aggregators, checkpoints, PageRank and BFS.
 *  @{ */

/** A distributed graph (opaque), held by the root. */
typedef struct sgl_graph sgl_graph_t;
/** One vertex as its compute function sees it (opaque). */
typedef struct sgl_vertex sgl_vertex_t;

/** Most vertices a graph may have: vertex numbers run 0 .. 2^40 - 1, as
 *  sgl_graph_read_edges() reads them and sgl_graph_kronecker() makes
 *  them. */
#define SGL_GRAPH_MAX_VERTICES (UINT64_C(1) << 40)
/** Most vertices one worker may own: it numbers its own with 32 bits.
 *  A graph is refused (SGL_EINVAL) where its even cut would give a worker
 *  more. */
#define SGL_GRAPH_MAX_WORKER_VERTICES (UINT64_C(0xFFFFFFFF))
/** Most edges a graph may be built from (duplicates included). */
#define SGL_GRAPH_MAX_EDGES (UINT64_C(1) << 48)

/** Most aggregators a program has. */
#define SGL_PREGEL_MAX_AGGS 4
/** Largest value and message, bytes. */
#define SGL_PREGEL_MAX_BYTES 64
/** Largest per-worker scratch of a program, bytes. */
#define SGL_PREGEL_MAX_SCRATCH 256

/** How an aggregator combines. */
typedef enum sgl_agg {
    SGL_AGG_SUM = 1,
    SGL_AGG_MIN = 2,
    SGL_AGG_MAX = 3,
} sgl_agg_t;

/** A contiguous range of one worker's vertices, as a block compute
 *  (sgl_pregel_program_t.compute_block) sees them: their state as arrays,
 *  index i standing for vertex first + i. Everything is the engine's,
 *  valid during the call only; the const arrays must not be written. */
typedef struct sgl_vertex_block {
    uint64_t first;       /**< the id of the vertex at index 0 */
    size_t count;         /**< vertices in the block, at least 1 */
    /** count values of value_size bytes: sgl_vertex_value() of each */
    void *values;
    /** count slots of msg_size bytes: slot i holds vertex i's combined
     *  message where has_message[i] is 1 (sgl_vertex_message()), and
     *  anything where it is 0 */
    const void *messages;
    const unsigned char *has_message; /**< count flags, 0 or 1 */
    /** count flags, writable: vertex i is active (compute would run on
     *  it) where halted[i] is 0, the engine having woken already the
     *  halted vertices that received a message. Compute the active
     *  vertices only; set halted[i] to 1 where vertex i votes to halt
     *  (sgl_vertex_vote_halt()), and leave the other flags as they are. */
    unsigned char *halted;
    /** count + 1 offsets into out_edges: vertex i's out-edges are
     *  out_edges[edge_offsets[i] .. edge_offsets[i + 1]), sorted, its
     *  out-degree the difference (sgl_vertex_out_edges(),
     *  sgl_vertex_out_degree()) */
    const size_t *edge_offsets;
    const uint64_t *out_edges; /**< the targets of the worker's out-edges,
                                    grouped by source vertex: index it with
                                    edge_offsets */
    /** count slots of msg_size bytes, writable, and count flags, all 0 on
     *  entry: to send a message along every out-edge of vertex i (as
     *  sgl_vertex_send_all() would), write it into slot i and set
     *  send_all_set[i] to 1. A flag set on a vertex without out-edges
     *  sends nothing; a slot whose flag is 0 is not read. */
    void *send_all;
    unsigned char *send_all_set; /**< the count flags of send_all */
    /** NULL in a graph without edge values; else the value of edge
     *  out_edges[k] is out_edge_values[k] (sgl_vertex_out_edge_values()) */
    const double *out_edge_values;
} sgl_vertex_block_t;

/** A vertex program. */
typedef struct sgl_pregel_program {
    const char *name;  /**< for messages; not copied: keep it valid */
    /** Runs on every active vertex (and on every vertex in superstep 0);
     *  may be NULL where compute_block is given. */
    void (*compute)(sgl_vertex_t *v);
    /** Sets a vertex's first value (before superstep 0). */
    void (*init)(sgl_vertex_t *v);
    /** acc = acc (+) msg: associative and commutative. */
    void (*combine)(void *acc, const void *msg);
    size_t value_size; /**< bytes per vertex value, 1..SGL_PREGEL_MAX_BYTES */
    size_t msg_size;   /**< bytes per message, 1..SGL_PREGEL_MAX_BYTES */
    unsigned naggs;    /**< aggregators used, <= SGL_PREGEL_MAX_AGGS */
    sgl_agg_t agg[SGL_PREGEL_MAX_AGGS]; /**< how aggregator i combines,
                                             for i < naggs */
    /** Optional (NULL: none). Runs once on every worker at the start of
     *  every superstep, before compute, to derive the superstep's
     *  constants from the parameters and aggregators into the worker's
     *  scratch (sgl_vertex_scratch()), as Giraph's preSuperstep(): compute
     *  then reads them instead of redoing the arithmetic per vertex. Its
     *  handle is of no vertex: only sgl_vertex_superstep, _count, _param,
     *  _aggregated and _scratch may be called on it. */
    void (*begin)(sgl_vertex_t *v);
    size_t scratch_size; /**< bytes of scratch, <= SGL_PREGEL_MAX_SCRATCH */
    /** Optional (NULL: any). Checks the parameters of a run or a resume
     *  before anything runs: SGL_OK, or an error code with the reason set
     *  by sgl_error_set(), which sgl_pregel_run() and sgl_pregel_resume()
     *  then return. */
    int (*check)(const double *params);
    /** Optional (NULL: compute runs per vertex). Computes a block of the
     *  worker's vertices at once, in place of compute, which may then be
     *  NULL: each worker calls it on consecutive blocks covering its
     *  vertices, in order, in every superstep, after begin. A loop over
     *  the block's arrays (sgl_vertex_block_t) runs without a call per
     *  vertex, as a hand-written superstep does. Its handle @p w is of no
     *  vertex: only sgl_vertex_superstep, _count, _param, _aggregated,
     *  _scratch, _aggregate (the block's contribution) and _send (a
     *  message from the worker) may be called on it. A block must do to
     *  its active vertices what compute would; sums aggregated per block
     *  rather than per vertex may round differently unless they are exact
     *  (sgl_combine_round_grid()). The block is the engine's, read-only. */
    void (*compute_block)(sgl_vertex_t *w, const sgl_vertex_block_t *b);
} sgl_pregel_program_t;

/** Register @p prog in this process (every process, same order). The
 *  program is copied; registering the same compute, compute_block and
 *  combine functions again returns the first registration's number.
 *  @return SGL_OK, SGL_EINVAL (NULL init or combine, neither compute nor
 *          compute_block, sizes, aggregators or
 *          scratch out of range, a built-in combiner on messages under 8
 *          bytes), SGL_ENOMEM. */
SGL_API int sgl_pregel_register(const sgl_pregel_program_t *prog,
                                uint32_t *ret_id);

/* ---- graphs ---- */

/** Build a graph of @p nvertices vertices from @p nedges edges at the
 *  root (pairs source, target; copied and scattered over the workers, one
 *  superstep and one exchange).
 *  @return SGL_OK, SGL_EINVAL (NULL, a vertex >= nvertices: the message
 *          names the edge; @p nvertices 0 or above SGL_GRAPH_MAX_VERTICES,
 *          @p nedges above SGL_GRAPH_MAX_EDGES, more than
 *          SGL_GRAPH_MAX_WORKER_VERTICES on a worker: the message gives the
 *          number), SGL_ESTATE (not the root), SGL_ENOMEM. */
SGL_API int sgl_graph_from_edges(sgl_ctx_t *root, uint64_t nvertices,
                                 const uint64_t (*edges)[2], size_t nedges,
                                 sgl_graph_t **ret_graph);

/** sgl_graph_from_edges() with a value (a weight) per edge, which
 *  compute functions read with sgl_vertex_out_edge_values(). Of
 *  duplicate edges the one of least value is kept (the same on any number
 *  of workers). The values are part of the graph's identity: a
 *  checkpoint of other values is refused.
 *  @param root       the root context.
 *  @param nvertices  1..SGL_GRAPH_MAX_VERTICES.
 *  @param edges      @p nedges pairs (source, target), each vertex below
 *                    @p nvertices; copied.
 *  @param values  @p nedges finite doubles; copied.
 *  @param nedges     at most SGL_GRAPH_MAX_EDGES, duplicates included.
 *  @param ret_graph  set on success only; free with sgl_graph_free().
 *  @return as sgl_graph_from_edges(); SGL_EINVAL also for NULL @p values
 *          or a value that is not finite (the message names the edge). */
SGL_API int sgl_graph_from_weighted_edges(sgl_ctx_t *root, uint64_t nvertices,
                                          const uint64_t (*edges)[2],
                                          const double *values, size_t nedges,
                                          sgl_graph_t **ret_graph);
/** Generate Graph500's Kronecker graph on the workers: 2^scale vertices,
 *  edge_factor * 2^scale edges drawn with the R-MAT probabilities A, B, C
 *  = 0.57, 0.19, 0.19 (D = 0.05), vertex numbers scrambled by a fixed
 *  bijection; a function of (scale, edge_factor, seed) only, so the same
 *  graph on every tree.
 *  @return SGL_OK, SGL_EINVAL (scale 1..40, edge_factor 1..2^20, fewer
 *          than 2^48 edges, at most SGL_GRAPH_MAX_WORKER_VERTICES on a
 *          worker),
 *          SGL_ESTATE, SGL_ENOMEM. */
SGL_API int sgl_graph_kronecker(sgl_ctx_t *root, unsigned scale,
                                unsigned edge_factor, uint64_t seed,
                                sgl_graph_t **ret_graph);

/** sgl_graph_kronecker() with a value per edge, uniform in
 *  [@p lo, @p hi): edge e's value is a function of (e, seed, lo, hi)
 *  only, so the graph, values included, is the same on every tree. Of
 *  duplicate edges the one of least value is kept.
 *  @return as sgl_graph_kronecker(); SGL_EINVAL also for bounds not finite
 *          or not lo < hi. */
SGL_API int sgl_graph_kronecker_weighted(sgl_ctx_t *root, unsigned scale,
                                         unsigned edge_factor, uint64_t seed,
                                         double lo, double hi,
                                         sgl_graph_t **ret_graph);
/** The values of edges @p first .. @p first + @p count - 1 of
 *  sgl_graph_kronecker_weighted()'s graph, in the order of
 *  sgl_graph_kronecker_edges() (duplicates as drawn), into @p ret.
 *  @return SGL_OK, SGL_EINVAL (as sgl_graph_kronecker_weighted(), NULL
 *          @p ret, or edges beyond the graph's). */
SGL_API int sgl_graph_kronecker_edge_values(unsigned scale,
                                            unsigned edge_factor,
                                            uint64_t seed, double lo,
                                            double hi, uint64_t first,
                                            size_t count, double *ret);
/** 1 if @p graph's edges carry values, 0 if not (or NULL). */
SGL_API int sgl_graph_has_edge_values(const sgl_graph_t *graph);
/** Edges @p first .. @p first + @p count - 1 of the graph that
 *  sgl_graph_kronecker() generates with the same parameters, into
 *  @p ret (count pairs, duplicates and self-loops as drawn): for writing
 *  the graph to a file or checking a program against another tool.
 *  @return SGL_OK, SGL_EINVAL (as sgl_graph_kronecker(), NULL @p ret, or
 *          edges beyond the graph's). */
SGL_API int sgl_graph_kronecker_edges(unsigned scale, unsigned edge_factor,
                                      uint64_t seed, uint64_t first,
                                      size_t count, uint64_t (*ret)[2]);

/** Read a text edge list: one "source target" pair of integers 0 ..
 *  2^40 - 1 per line; blank lines and lines starting with # or % are
 *  skipped. Lines hold at most 512 bytes besides their newline, and no
 *  control byte but tab and CR (a NUL, an ESC: the file is not text).
 *  @p path must name a regular file: a FIFO, a device, a directory or a
 *  socket is refused at once (never waited on). The vertex count is one
 *  more than the largest number. Messages quote input with its control
 *  bytes escaped (`\x1b`).
 *  @param path           the file's name.
 *  @param ret_nvertices  one more than the largest vertex number read; 0
 *                        for a file without edges.
 *  @param ret_edges  malloc()ed pairs the caller frees.
 *  @param ret_nedges     the pairs in @p ret_edges, one per edge line
 *                        (duplicates and self-loops included).
 *  @return SGL_OK, SGL_EIO (cannot open or read, or not a regular file:
 *          the message names its kind), SGL_EPARSE (the message gives
 *          the line number, and the column of a control byte, and what is
 *          wrong), SGL_ENOMEM. */
SGL_API int sgl_graph_read_edges(const char *path, uint64_t *ret_nvertices,
                                 uint64_t (**ret_edges)[2], size_t *ret_nedges);
/** sgl_graph_read_edges() for files whose lines may hold a third column,
 *  the edge's value: "source target value", a finite number as strtod()
 *  reads it (1, 0.25, 2e-3). Every edge line has the columns of the
 *  first: all with a value or none.
 *  @param path           as sgl_graph_read_edges().
 *  @param ret_nvertices  as sgl_graph_read_edges().
 *  @param ret_edges      as sgl_graph_read_edges().
 *  @param ret_values  malloc()ed values the caller frees, one per edge;
 *                     NULL where the file has two columns.
 *  @param ret_nedges     as sgl_graph_read_edges().
 *  @return as sgl_graph_read_edges(); SGL_EPARSE also for a value that is
 *          not a finite number and for a line whose columns differ from
 *          the first edge's (the message gives the line). */
SGL_API int sgl_graph_read_weighted_edges(const char *path,
                                          uint64_t *ret_nvertices,
                                          uint64_t (**ret_edges)[2],
                                          double **ret_values,
                                          size_t *ret_nedges);

/** Free the graph on the workers (one superstep) and the handle. */
SGL_API int sgl_graph_free(sgl_ctx_t *root, sgl_graph_t *graph);

/** Vertices and (distinct) edges. */
SGL_API uint64_t sgl_graph_vertices(const sgl_graph_t *graph);
/** The graph's edges, duplicates counted once (0 for NULL). */
SGL_API uint64_t sgl_graph_edges(const sgl_graph_t *graph);

/** Worker @p worker's part of the graph (workers in depth-first order):
 *  its vertices [*ret_first, *ret_end) and their out-edges (*ret_edges).
 *  Graphs start cut into even vertex ranges; sgl_graph_balance() re-cuts
 *  them. Any pointer may be NULL.
 *  @return SGL_OK, SGL_EINVAL (NULL graph, worker out of range). */
SGL_API int sgl_graph_part(const sgl_graph_t *graph, size_t worker,
                           uint64_t *ret_first, uint64_t *ret_end,
                           uint64_t *ret_edges);

/** Re-cut @p graph's vertices into contiguous ranges of about equal
 *  weight, a vertex weighing its out-degree + @p vertex_weight (a
 *  superstep reads once per out-edge and computes once per vertex: the
 *  weight is a compute's cost in edge reads; 0 balances edges alone), and
 *  move the edges to their new owners (one exchange). bench_pregel fits
 *  the weight from a run's trace; for PageRank here it was 9 to 14 with
 *  a per-vertex compute, 5 to 7 with its block compute. The cut is
 *  chosen on 256 slices of every worker's range, so a worker's weight is
 *  the ideal to within one slice; one vertex is never split,
 *  so a hub heavier than a worker's share stays whole. Vertex numbers do
 *  not change, nor do results beyond rounding (combining per worker
 *  rounds by worker; not at all where sums are exact, as
 *  sgl_pagerank()'s: see sgl_combine_sum_u64). A run starts afresh after it; checkpoints record
 *  the cut, and a resume reads checkpoints of any cut.
 *  @return SGL_OK, SGL_EINVAL (NULL, a weight out of 0..1e9),
 *          SGL_ESTATE (not the root), SGL_ENOMEM; after a failure free
 *          the graph. */
SGL_API int sgl_graph_balance(sgl_ctx_t *root, sgl_graph_t *graph,
                              double vertex_weight);

/* ---- running ---- */

/** What a run did. */
typedef struct sgl_pregel_stats {
    unsigned supersteps;        /**< supersteps run, superstep 0 included;
                                     a resumed run counts those before its
                                     checkpoint too */
    uint64_t messages;          /**< sent by compute functions, in all */
    uint64_t combined;          /**< left after the senders' combiners */
    uint64_t max_worker_bytes;  /**< the largest bytes one worker received
                                     in one exchange (its h) */
    uint64_t max_worker_bytes_uncombined; /**< the same without the
                                     combiner: what h would have been */
    double agg[SGL_PREGEL_MAX_AGGS]; /**< the aggregators of the last
                                          superstep */
    uint64_t exchanges;         /**< exchanges run: one per superstep that
                                     sent, more under a budget */
    /** 1 if the run ended because every vertex had halted with no message
     *  in flight, 0 if max_supersteps cut it off. sgl_pagerank(): 1 if
     *  the L1 change fell below n tol within max_iter iterations, 0 if it
     *  did not converge (the ranks are those of the last iteration). */
    int converged;
} sgl_pregel_stats_t;

/** Most parameters a run passes to its program. */
#define SGL_PREGEL_MAX_PARAMS 4

/** Run program @p prog on @p graph: init on every vertex, then
 *  supersteps until every vertex has halted with no message in flight,
 *  or @p max_supersteps have run. Vertex values stay on the workers.
 *  In the trace, superstep s is one pardo of the root (each worker's
 *  declared work: its vertices, plus the messages its vertices sent
 *  before combining, plus the messages it received) followed by one
 *  exchange (each worker's h); the init is one pardo before them.
 *  @param root    the root context.
 *  @param graph   a graph built on this root's tree; its vertex values
 *                 become the program's (sgl_pregel_values()).
 *  @param prog    a number from sgl_pregel_register().
 *  @param params  NULL, or SGL_PREGEL_MAX_PARAMS values the program reads
 *                 with sgl_vertex_param() (a damping factor, a source).
 *  @param max_supersteps  most supersteps (0: the init only).
 *  @param ret_stats  NULL, or set on success only.
 *  @return SGL_OK, SGL_EINVAL (unknown program), SGL_ESTATE, SGL_ENOMEM,
 *          a superstep's error (a compute function's failed send). */
SGL_API int sgl_pregel_run(sgl_ctx_t *root, sgl_graph_t *graph, uint32_t prog,
                           const double *params, unsigned max_supersteps,
                           sgl_pregel_stats_t *ret_stats);

/** Checkpoints: from now on, runs on @p graph save their state at the
 *  start of supersteps @p every, 2 @p every, ... into the folder @p dir,
 *  which every process must see (a shared file system on a cluster):
 *  each worker writes its vertices' values, halted flags and the messages
 *  that reached them (write, then rename), and the root then writes the
 *  manifest that makes the checkpoint whole (write, then rename), so a
 *  crash leaves the last complete checkpoint. Files two checkpoints old
 *  are removed. @p every 0 turns checkpoints off.
 *
 *  Format (pregel_checkpoint.c's first comment has the details): worker
 *  file "w<W>.s<S>.ckpt" is an 88-byte header (magic "SGLPRCK2", the
 *  vertex count and range, the superstep, value and message sizes, the
 *  run's identity: a hash of the graph, program name, sizes and
 *  parameters, the contents' length, a CRC32C of the aggregators, a
 *  CRC32C of the contents, a CRC32C of the header) and the contents
 *  (values, halted flags, message flags, messages). The text "manifest"
 *  names the superstep, the graph (vertices, edges and an identity
 *  hashed from every edge, the same on any number of workers), the
 *  workers and cut, the program (name, sizes) and its parameters, the
 *  aggregators and statistics, a sum binding the worker files' header
 *  CRCs, and last a CRC32C of all of it. Files are written under
 *  temporary names, synced and renamed; the manifest last (the commit).
 *  @param graph  the graph whose runs save checkpoints.
 *  @param dir  copied; at most 200 bytes.
 *  @param every  supersteps between checkpoints; 0: none (@p dir may
 *                then be NULL, and is not read).
 *  @return SGL_OK, SGL_EINVAL (NULL graph, a long or NULL dir). */
SGL_API int sgl_pregel_checkpoint(sgl_graph_t *graph, const char *dir,
                                  unsigned every);

/** Bound the message buffers of runs on @p graph: no worker stages or
 *  receives more than @p bytes_per_worker bytes in one exchange. A
 *  superstep whose messages need more sends them in several exchanges,
 *  each carrying the messages for one slice of every worker's vertices,
 *  with bitwise the same result. What bounds the rounds is the number of
 *  workers: each worker may send each worker bytes_per_worker / workers
 *  bytes per round, at most 4096 rounds. The senders' combined messages
 *  (at most one per target vertex) are not counted. 0: no bound (the
 *  default; one exchange per superstep).
 *  @return SGL_OK, SGL_EINVAL (NULL graph). A run fails with SGL_ENOMEM,
 *          before sending, if even 4096 rounds exceed the bound. */
SGL_API int sgl_pregel_set_budget(sgl_graph_t *graph, size_t bytes_per_worker);

/** Continue the run whose last complete checkpoint is in the folder set
 *  with sgl_pregel_checkpoint(), on this tree (the same or another number
 *  of workers): the state is read back, each worker taking its vertices
 *  from the files that hold them, and the supersteps go on from the
 *  checkpoint's, with its aggregators and statistics. With the same
 *  tree and cut the result is bitwise the uninterrupted run's; with
 *  another, too, if the program's sums are exact (fixed point summed by
 *  sgl_combine_sum_u64, doubles rounded by sgl_combine_round_grid(): as
 *  sgl_pagerank()'s); other sums may round differently after the
 *  checkpoint (messages are combined per worker).
 *  Before anything runs the checkpoint is verified: the manifest's
 *  checksum, its graph identity, program and parameters against @p graph,
 *  @p prog and @p params (which must be bitwise those of the run that
 *  wrote it), every file's header and contents checksum and fields, flags
 *  0 or 1, and that the files are those the manifest names.
 *  @return as sgl_pregel_run(); SGL_EIO (no manifest, a file missing,
 *          unreadable, not a regular file or truncated, a header short of
 *          its 88 bytes included: what a crash or short copy leaves; the
 *          message names the file), SGL_EPARSE (content that is not what
 *          it claims: a checksum that differs, a manifest or file of
 *          another version, graph, program or parameters, or files of
 *          another checkpoint; the message names the file and what
 *          differs); after a failure sgl_pregel_values() never
 *          returns values read from the checkpoint. */
SGL_API int sgl_pregel_resume(sgl_ctx_t *root, sgl_graph_t *graph,
                              uint32_t prog, const double *params,
                              unsigned max_supersteps,
                              sgl_pregel_stats_t *ret_stats);

/** Copy every vertex's value, in vertex order, to @p dst at the root
 *  (capacity values of the last run's program's value size).
 *  @return SGL_OK, SGL_EINVAL, SGL_ESTATE (no run), SGL_ESIZE. */
SGL_API int sgl_pregel_values(sgl_ctx_t *root, const sgl_graph_t *graph,
                              void *dst, size_t capacity);

/* ---- inside a compute function ---- */

/** What most compute functions read, in one call (cheaper than the
 *  accessors one by one; the same values). */
typedef struct sgl_vertex_state {
    uint64_t id;          /**< sgl_vertex_id() */
    unsigned superstep;   /**< sgl_vertex_superstep() */
    void *value;          /**< sgl_vertex_value() */
    const void *message;  /**< sgl_vertex_message(): NULL if none */
    size_t out_degree;    /**< sgl_vertex_out_degree() */
    void *scratch;        /**< sgl_vertex_scratch() */
} sgl_vertex_state_t;

/** Fill @p ret with the vertex's id, superstep, value, message, out-degree
 *  and the worker's scratch. */
SGL_API void sgl_vertex_state(sgl_vertex_t *v, sgl_vertex_state_t *ret);

/** The vertex's number, 0 .. sgl_vertex_count() - 1. */
SGL_API uint64_t sgl_vertex_id(const sgl_vertex_t *v);
/** The vertex's value (the program's value_size bytes), writable. */
SGL_API void *sgl_vertex_value(sgl_vertex_t *v);
/** The vertex's out-edges (duplicates kept once). */
SGL_API size_t sgl_vertex_out_degree(const sgl_vertex_t *v);
/** Targets of the out-edges, sorted. */
SGL_API const uint64_t *sgl_vertex_out_edges(const sgl_vertex_t *v);
/** Values of the out-edges, beside sgl_vertex_out_edges() (value k is
 *  that of edge k), or NULL in a graph without edge values. */
SGL_API const double *sgl_vertex_out_edge_values(const sgl_vertex_t *v);
/** Fail the run: sgl_pregel_run() (and sgl_pregel_resume()) returns
 *  @p code, on every process, with a message that names the program,
 *  the vertex (or, from begin or a block compute, the worker's first
 *  vertex), the superstep and the text of @p fmt, as a task's error
 *  reaches sgl_run(). The superstep finishes on every worker and nothing
 *  after it runs. Only a worker's first failure in a superstep is kept.
 *  This is how compute, init, begin and compute_block, which return
 *  nothing, report bad input or a failed sgl_vertex_send() (whose own
 *  failures end the run the same way even when not passed on).
 *  @param v     the handle compute, init, begin or compute_block was
 *               given (NULL: returns SGL_EINVAL, nothing recorded).
 *  @param code  a negative SGL_E* code; 0 or positive becomes SGL_ETASK.
 *  @param fmt   printf format, or NULL.
 *  @return the code the run will return. */
SGL_API int sgl_vertex_fail(sgl_vertex_t *v, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/** The combined message that reached the vertex in this superstep, or
 *  NULL. */
SGL_API const void *sgl_vertex_message(const sgl_vertex_t *v);
/** This superstep's number (0 first). */
SGL_API unsigned sgl_vertex_superstep(const sgl_vertex_t *v);
/** Vertices of the graph. */
SGL_API uint64_t sgl_vertex_count(const sgl_vertex_t *v);
/** Parameter @p i of the run (0 if none was given). */
SGL_API double sgl_vertex_param(const sgl_vertex_t *v, unsigned i);
/** Aggregator @p i as combined over the previous superstep (its identity
 *  in superstep 0). */
SGL_API double sgl_vertex_aggregated(const sgl_vertex_t *v, unsigned i);
/** The worker's scratch for this program (scratch_size bytes, zero at
 *  the start of a run, suitably aligned for any type): what begin()
 *  wrote in this superstep. */
SGL_API void *sgl_vertex_scratch(sgl_vertex_t *v);
/** Contribute @p x to aggregator @p i of this superstep. */
SGL_API void sgl_vertex_aggregate(sgl_vertex_t *v, unsigned i, double x);
/** Send @p msg (msg_size bytes, copied) to vertex @p target, combined
 *  with the other messages this worker sends it in this superstep.
 *  @return SGL_OK, SGL_EINVAL (target out of range), SGL_ENOMEM. */
SGL_API int sgl_vertex_send(sgl_vertex_t *v, uint64_t target, const void *msg);
/** Send @p msg to every out-edge's target: as many sgl_vertex_send()
 *  calls, but recorded once per vertex; the worker combines them per
 *  target over a layout of its out-edges by target computed once per
 *  graph, so that a vertex program that sends along its edges (PageRank)
 *  costs a read per edge rather than a send.
 *  @return SGL_OK or SGL_ENOMEM (the first time, for that layout). */
SGL_API int sgl_vertex_send_all(sgl_vertex_t *v, const void *msg);
/** Halt until a message arrives. */
SGL_API void sgl_vertex_vote_halt(sgl_vertex_t *v);

/** Built-in combiners: sums of doubles, sums of uint64_t values (modulo
 *  2^64), minimum of uint64_t values. A program that names one is
 *  combined in a loop the compiler sees whole, not through a call per
 *  message. Which messages one worker combines, and in which order sums
 *  are taken, depend on the cut, and a sum of doubles rounds differently
 *  in another order; a sum of integers is exact. For sums that are
 *  bitwise the same on any cut, send fixed-point values to
 *  sgl_combine_sum_u64 (sgl_pagerank() sends x 2^62 for shares x in
 *  [0, 1]; a sum modulo 2^64 is right whatever its partial sums, as long
 *  as the total fits), or doubles rounded with sgl_combine_round_grid(). */
SGL_API void sgl_combine_sum_f64(void *acc, const void *msg);
/** Sum of uint64_t values, modulo 2^64. */
SGL_API void sgl_combine_sum_u64(void *acc, const void *msg);
/** Minimum of uint64_t values. */
SGL_API void sgl_combine_min_u64(void *acc, const void *msg);
/** Minimum of doubles (NaN never wins over a number already held). */
SGL_API void sgl_combine_min_f64(void *acc, const void *msg);

/** @p x rounded to the nearest multiple of 2^@p exp (ties to even), for
 *  sums that are the same in any order: a sum of multiples of 2^@p exp
 *  is exact while every partial sum stays below 2^(@p exp + 53) in
 *  magnitude, and an exact sum does not depend on the order of its
 *  terms (pre-rounded summation, as in Demmel and Nguyen's reproducible
 *  sums). A program that rounds every message it sends to a summing
 *  combiner and every contribution to a sum aggregator so, with a grid
 *  fitted to a bound on the totals, gets bitwise the same results on any
 *  number of workers and any cut, resumed or not. sgl_pagerank() rounds
 *  the terms of its dangling rank, which total about 1, to 2^-52.
 *  @param x    the value to round; any double.
 *  @param exp  -1000..1000.
 *  @return the rounded value, which differs from @p x by at most
 *          2^(@p exp - 1); @p x if it is not finite; NaN if @p exp is out
 *          of range.
 *  Thread safety: a pure function. */
SGL_API double sgl_combine_round_grid(double x, int exp);

/* ---- reference programs ---- */

/** PageRank as NetworkX computes it: damping @p alpha, uniform start and
 *  teleport, the rank of dangling vertices spread uniformly; stops when
 *  the L1 change of an iteration is below n * @p tol, or after
 *  @p max_iter iterations at most (one superstep each, after superstep
 *  0, which sends the start; and one in which every vertex halts, if
 *  it converged before the last). Whether it converged is in
 *  @p ret_stats->converged: unconverged, the ranks of iteration
 *  @p max_iter are returned with SGL_OK, as NetworkX's would be before it
 *  raises. The ranks are
 *  bitwise the same on any tree and cut, and when resumed from a
 *  checkpoint on another: every sum is exact. Shares travel in fixed
 *  point (x 2^62, sgl_combine_sum_u64), the dangling rank and the L1
 *  change are sums of terms rounded to a grid (sgl_combine_round_grid()), the
 *  dangling rank with a second aggregator for what the rounding took
 *  off. A share is off by at most 2^-62, so the ranks are nearer the
 *  exact power iteration than plain double sums bring them.
 *  @param root      the root context.
 *  @param graph     a graph built on this root's tree; its vertex values
 *                   become the ranks.
 *  @param alpha     the damping factor, 0..1 (NetworkX's default 0.85).
 *  @param tol       the tolerance per vertex, >= 0.
 *  @param max_iter  0 .. UINT_MAX - 1 (0: the start, 1 / n each).
 *  @param ranks  NULL, or n doubles at the root.
 *  @param ret_stats  NULL, or the run's statistics.
 *  @return as sgl_pregel_run(); SGL_EINVAL also for @p max_iter UINT_MAX
 *          (its supersteps, max_iter + 1, would not fit). */
SGL_API int sgl_pagerank(sgl_ctx_t *root, sgl_graph_t *graph, double alpha,
                         double tol, unsigned max_iter, double *ranks,
                         sgl_pregel_stats_t *ret_stats);

/** The registered numbers of sgl_pagerank()'s and sgl_bfs_hops()'s
 *  programs (0 before sgl_algorithms_register()), to resume their runs
 *  with sgl_pregel_resume(): PageRank's parameters are {alpha, tol} and
 *  its supersteps max_iter + 1; BFS's are {source}. */
SGL_API uint32_t sgl_pagerank_program_id(void);
/** The registered number of sgl_bfs_hops()'s program (0 before
 *  sgl_algorithms_register()). */
SGL_API uint32_t sgl_bfs_hops_program_id(void);

/** Hops from @p source along out-edges (breadth-first, one superstep per
 *  level); UINT64_MAX for unreachable vertices. It runs until no vertex
 *  is reached anew (@p ret_stats->converged 1); a graph whose levels
 *  outnumber UINT_MAX supersteps is refused rather than cut short.
 *  @param root       the root context.
 *  @param graph      a graph built on this root's tree; its vertex values
 *                    become the hops.
 *  @param source     the start vertex, below the graph's vertex count.
 *  @param hops  NULL, or n values at the root.
 *  @param ret_stats  NULL, or the run's statistics.
 *  @return as sgl_pregel_run(); SGL_EINVAL (@p source out of range),
 *          SGL_ERANGE (more than UINT_MAX - 1 levels). */
SGL_API int sgl_bfs_hops(sgl_ctx_t *root, sgl_graph_t *graph, uint64_t source,
                         uint64_t *hops, sgl_pregel_stats_t *ret_stats);
/** Weighted shortest-path distances from @p source along out-edges, the
 *  edge values as lengths (1 each in a graph without values): Bellman-Ford
 *  by supersteps, a vertex whose distance fell offering distance + weight
 *  to its targets, combined by sgl_combine_min_f64. The distances are
 *  bitwise NetworkX's Dijkstra's (each is the same sum of doubles along
 *  a shortest path; rounding is monotone), on any tree and cut; INFINITY
 *  for unreachable vertices. Runs until no distance falls
 *  (@p ret_stats->converged 1). Its program's parameters are {source}
 *  (sgl_sssp_program_id(), to resume).
 *  @param root       the root context.
 *  @param graph      a graph built on this root's tree; its vertex values
 *                    become the distances.
 *  @param source     the start vertex, below the graph's vertex count.
 *  @param dist  NULL, or n doubles at the root.
 *  @param ret_stats  NULL, or the run's statistics.
 *  @return as sgl_pregel_run(); SGL_EINVAL (@p source out of range; an
 *          edge of negative value, reached from the source: the message
 *          names it), SGL_ERANGE (still falling after UINT_MAX - 1
 *          supersteps). */
SGL_API int sgl_sssp(sgl_ctx_t *root, sgl_graph_t *graph, uint64_t source,
                     double *dist, sgl_pregel_stats_t *ret_stats);
/** The registered number of sgl_sssp()'s program. */
SGL_API uint32_t sgl_sssp_program_id(void);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
