/**
 * @file algorithms.h
 * Reference SGL algorithms written against the public sgl.h API only:
 * reduction, prefix scan and PSRS sort, on data centralised at the root or
 * distributed over the workers.
 *
 * Use: call sgl_algorithms_register() on every process after sgl_init()
 * and before sgl_run() (it registers the algorithms' tasks, so that they
 * run at MPI levels), then call the functions below from the main task on
 * the root context.
 *
 * Element types and operators. Built-in element types are SGL_F64, SGL_F32,
 * SGL_I64, SGL_U64, SGL_I8 and SGL_U8; built-in operators SGL_OP_SUM,
 * SGL_OP_PROD, SGL_OP_MIN and SGL_OP_MAX apply to each of them (integer sums
 * and products wrap modulo 2^64; min and max ignore NaN as fmin/fmax do).
 *
 * 8-bit types. A reduction of SGL_I8 or SGL_U8 elements is widened: its
 * result (the caller's result buffer) is one int64_t for SGL_I8 or one
 * uint64_t for SGL_U8, 8 bytes, not one element. Sums are therefore exact
 * for any count below 2^56; sums and products wrap modulo 2^64 as for
 * SGL_I64/SGL_U64. Min and max are values of the element type, widened; the
 * empty min/max is INT8_MAX/INT8_MIN (SGL_I8) or UINT8_MAX/0 (SGL_U8).
 * A scan keeps the element type: its outputs are 8-bit, and sums and
 * products wrap modulo 2^8 (the low 8 bits of the exact prefix). The exact
 * total of a scanned vector is its reduction (sgl_dvec_reduce() with the
 * same operator), whose low 8 bits are the inclusive scan's last element.
 * PSRS does not sort 8-bit elements or keys (SGL_EINVAL).
 *
 * A user operator is registered with sgl_op_register() and used with
 * element type SGL_USER.
 * Operators are named by a process-independent number (an enum value for
 * built-ins, the registration index for user operators), since they travel
 * to other processes at MPI levels.
 *
 * Determinism: the order of combination is fixed by the tree and the
 * distribution: each worker folds its block left to right (built-in
 * floating-point sums use eight interleaved partial sums, folded in a fixed
 * order), and each master folds its children's results in child order. The
 * same tree and the same n give bit-identical results on every run.
 *
 * Distributed vectors (sgl_dvec_t): a handle held by the root for a vector
 * whose blocks live on the workers between supersteps, each block allocated
 * and first touched by its worker's thread. The algorithms keep the blocks in
 * the workers' context state (sgl_ctx_set_state()): a program that uses
 * distributed vectors must not set the state of any context itself.
 * A new vector of n elements gives worker w of P the elements
 * [n*w/P, n*(w+1)/P); sorting changes the block sizes.
 *
 * Thread safety: registration functions are not thread-safe and must be
 * called in the same order on every process before sgl_run(). The other
 * functions are master-side calls on the root context (see sgl.h), except
 * sgl_dvec_local() and sgl_dvec_local_value(), which a user task calls on a
 * worker. Errors are returned as in sgl.h; on an error the contents of the
 * output (and of a distributed vector being sorted or scanned in place) are
 * unspecified, but every handle can still be freed.
 */
#ifndef SGL_ALGORITHMS_H
#define SGL_ALGORITHMS_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/sgl.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_algorithms Vectors and the paper's algorithms
 *  Distributed vectors, reduction, scan, PSRS sort, operators and fills.
 *  @{ */

/** Element types. */
typedef enum sgl_dtype {
    SGL_F64 = 1, /**< double */
    SGL_F32 = 2, /**< float */
    SGL_I64 = 3, /**< int64_t */
    SGL_U64 = 4, /**< uint64_t */
    SGL_USER = 5, /**< opaque elements of a user operator's size */
    SGL_I8 = 6,   /**< int8_t; reductions give an int64_t (see above) */
    SGL_U8 = 7,   /**< uint8_t; reductions give a uint64_t (see above) */
} sgl_dtype_t;

/** An operator: a built-in below, or a number from sgl_op_register(). */
typedef uint32_t sgl_op_t;

enum {
    SGL_OP_SUM = 1,
    SGL_OP_PROD = 2,
    SGL_OP_MIN = 3,
    SGL_OP_MAX = 4,
    SGL_OP_USER_FIRST = 256, /**< registered operators are numbered from here */
};

/** A user operator: acc = acc (+) x, for one element each. Must be
 *  associative; need not be commutative (the left operand is always the
 *  earlier part of the vector). */
typedef void (*sgl_op_fn)(void *acc, const void *x);

/** Register a user operator in this process. Every process must register
 *  the same operators in the same order. Registering the same function,
 *  size and name again returns the same number.
 *  @param fn         the operator.
 *  @param elem_size  bytes per element, 1..256.
 *  @param identity   elem_size bytes: e (+) x = x (+) e = x; copied.
 *  @param name       copied; used in error messages.
 *  @param ret_op     set on success only: a number from
 *                    SGL_OP_USER_FIRST on, for SGL_USER elements.
 *  @return SGL_OK, SGL_EINVAL (NULL argument, bad size), SGL_ENOMEM. */
SGL_API int sgl_op_register(sgl_op_fn fn, size_t elem_size,
                            const void *identity, const char *name,
                            sgl_op_t *ret_op);

/** Register the algorithms' tasks with @p rt (every process, same order
 *  relative to the program's own registrations, before sgl_run()).
 *  @return as sgl_task_register(). */
SGL_API int sgl_algorithms_register(sgl_runtime_t *rt);

/* ---- distributed vectors ---- */

/** A distributed vector (opaque), held by the root. */
typedef struct sgl_dvec sgl_dvec_t;

/** Fill a worker's block: @p block holds @p count elements, the vector's
 *  elements [first, first + count). Runs on the worker's thread.
 *  @return SGL_OK or an error, which reaches the root. */
typedef int (*sgl_fill_fn)(void *block, size_t first, size_t count,
                           size_t elem_size, const void *arg, size_t arg_size);

/** Built-in fills. */
enum {
    SGL_FILL_NONE = 0,   /**< zero bytes */
    SGL_FILL_IOTA = 1,   /**< element i = i (F64, F32, I64, U64); for
                              I8/U8 element i = i mod 256 cast to the type
                              (I8: 0..127, -128..-1, repeating) */
    SGL_FILL_RANDOM = 2, /**< arg: uint64_t seed. F64/F32 uniform in [0,1),
                              I64/U64/I8/U8 uniform over all values; a
                              function of (seed, i) only, so independent of
                              the tree */
    SGL_FILL_CONST = 3,  /**< arg: one element, copied to every element */
    SGL_FILL_USER_FIRST = 256, /**< registered fills are numbered from here */
};

/** Register a user fill (same rules as sgl_op_register()).
 *  @return SGL_OK, SGL_EINVAL, SGL_ENOMEM. */
SGL_API int sgl_fill_register(sgl_fill_fn fn, const char *name,
                              uint32_t *ret_fill);

/** Create a distributed vector whose workers allocate and fill their own
 *  blocks (one superstep).
 *  @param root       the root context.
 *  @param dtype      element type; SGL_USER needs @p elem_size.
 *  @param elem_size  ignored for built-in types.
 *  @param n          the number of elements.
 *  @param fill       SGL_FILL_* or a registered fill.
 *  @param arg        the fill's argument bytes (at most 256), copied.
 *  @param arg_size   bytes at @p arg, 0 to 256; 0 if @p arg is NULL.
 *  @param ret_vec    set on success only; free with sgl_dvec_free().
 *  @return SGL_OK, SGL_EINVAL, SGL_ESTATE (not the root), SGL_ENOMEM, or a
 *          failing fill's code. */
SGL_API int sgl_dvec_create(sgl_ctx_t *root, sgl_dtype_t dtype,
                            size_t elem_size, size_t n, uint32_t fill,
                            const void *arg, size_t arg_size,
                            sgl_dvec_t **ret_vec);

/** Create a distributed vector from @p n elements at the root, scattered
 *  down the tree (one superstep). @p src may be freed after return. */
SGL_API int sgl_dvec_scatter(sgl_ctx_t *root, sgl_dtype_t dtype,
                             size_t elem_size, const void *src, size_t n,
                             sgl_dvec_t **ret_vec);

/** Gather the vector to the root, in order, into @p dst (capacity
 *  elements; at least sgl_dvec_size()). One superstep.
 *  @return SGL_OK, SGL_EINVAL, SGL_ESIZE (dst too small). */
SGL_API int sgl_dvec_gather(sgl_ctx_t *root, const sgl_dvec_t *vec, void *dst,
                            size_t capacity);

/** Free the blocks on the workers (one superstep) and the handle.
 *  NULL is a no-op. @return SGL_OK or the superstep's error (the handle is
 *  freed in every case). */
SGL_API int sgl_dvec_free(sgl_ctx_t *root, sgl_dvec_t *vec);

/** Number of elements. */
SGL_API size_t sgl_dvec_size(const sgl_dvec_t *vec);
/** Element type and size. */
SGL_API sgl_dtype_t sgl_dvec_dtype(const sgl_dvec_t *vec);
/** Bytes per element: the type's size, or the size given for SGL_USER. */
SGL_API size_t sgl_dvec_elem_size(const sgl_dvec_t *vec);
/** The process-independent number that names the vector on the workers. */
SGL_API uint32_t sgl_dvec_id(const sgl_dvec_t *vec);
/** Element counts per worker (sgl_ctx_workers(root) entries), as the root
 *  last saw them (after create, scatter and sort). */
SGL_API const size_t *sgl_dvec_counts(const sgl_dvec_t *vec);

/** On a worker, inside a user task: the worker's block of vector @p id.
 *  @return SGL_OK, SGL_EINVAL (NULL), SGL_ESTATE (not a worker, or the
 *          worker has no block of that vector). */
SGL_API int sgl_dvec_local(sgl_ctx_t *worker, uint32_t id, void **ret_data,
                           size_t *ret_count, size_t *ret_first);

/** On a worker: the last result broadcast back by sgl_dvec_reduce() with
 *  @p bcast set (for SGL_I8/SGL_U8 vectors the 8-byte widened result).
 *  @return SGL_OK, SGL_EINVAL, SGL_ESTATE (none). */
SGL_API int sgl_dvec_local_value(sgl_ctx_t *worker, uint32_t id,
                                 const void **ret_value);

/* ---- reduction ---- */

/** Reduce @p n elements at the root: scattered down the tree, reduced on
 *  the workers, combined up (one superstep per level).
 *  @param root        the root context.
 *  @param dtype       element type; SGL_USER with a registered operator,
 *                     whose size the elements have.
 *  @param op          SGL_OP_SUM .. SGL_OP_MAX, or a registered operator
 *                     (SGL_USER only).
 *  @param src         @p n elements, read-only; may be NULL if @p n is 0;
 *                     may be freed after the call.
 *  @param n           the number of elements.
 *  @param ret_result  one element of @p dtype, except for SGL_I8/SGL_U8:
 *                     one int64_t/uint64_t (8 bytes, the widened result);
 *                     the operator's identity if n is 0.
 *  @return SGL_OK, SGL_EINVAL (NULL buffer, unknown operator, type that
 *          does not fit the operator), SGL_ESTATE, SGL_ENOMEM.
 *  @par Cost: n*elem words down and P words up per level,
 *       max_i (n_i c) + p c0 + 2 l per level. */
SGL_API int sgl_reduce(sgl_ctx_t *root, sgl_dtype_t dtype, sgl_op_t op,
                       const void *src, size_t n, void *ret_result);

/** Reduce a distributed vector (one superstep; a second one if @p bcast,
 *  which leaves the result on every worker for sgl_dvec_local_value()).
 *  @param root        the root context.
 *  @param vec         the vector.
 *  @param op          must fit the vector's type.
 *  @param bcast       nonzero: also broadcast the result to the workers.
 *  @param ret_result  as for sgl_reduce(): 8 bytes (int64_t/uint64_t) for
 *                     an SGL_I8/SGL_U8 vector, else one element.
 *  @par Cost: max_i (n_i c) + p words up and 2 l per level. */
SGL_API int sgl_dvec_reduce(sgl_ctx_t *root, const sgl_dvec_t *vec, sgl_op_t op,
                            int bcast, void *ret_result);

/* ---- scan ---- */

/** Scan flags: or one kind with at most one variant. The variants take
 *  the same supersteps and messages and make one scan pass over every
 *  worker's block; the other pass is a reduction (REDUCE_FIRST) or an
 *  in-place add of the worker's offset (LOCAL_FIRST), and which of them
 *  is cheaper depends on the machine and n (sgl_predict_algorithm()
 *  prices them as "scan-rts" and "scan"). They round floating-point sums
 *  and products differently (integer results and min/max are the same),
 *  so with no variant the scan stays REDUCE_FIRST, and only a program
 *  that asks for SGL_SCAN_AUTO gets results that follow the machine file
 *  and n. */
enum {
    SGL_SCAN_INCLUSIVE = 0, /**< y_i = x_0 (+) ... (+) x_i */
    SGL_SCAN_EXCLUSIVE = 1, /**< y_i = x_0 (+) ... (+) x_{i-1}, y_0 = e */
    SGL_SCAN_LOCAL_FIRST = 2,  /**< workers scan, masters scan the block
                                    totals, children add offsets: reads 2n,
                                    writes 2n */
    SGL_SCAN_REDUCE_FIRST = 4, /**< workers reduce, masters scan the totals,
                                    workers scan from their offset: reads 2n,
                                    writes n; the default */
    SGL_SCAN_AUTO = 8,         /**< the variant the cost model prices lower
                                    for this n on the parameters given to
                                    sgl_runtime_set_params() (with the
                                    kernels sum, scan and offset that
                                    sgl-probe measures); REDUCE_FIRST
                                    without parameters, when they cannot
                                    price both (a kernel or level missing)
                                    and on a tie. sgl_scan_variant() tells
                                    the pick. Pricing adds two predictions
                                    per call (about 1 us on a flat tree of
                                    2 workers). */
};

/** Which variant a scan of @p n elements with @p flags runs on @p root's
 *  runtime: SGL_SCAN_LOCAL_FIRST or SGL_SCAN_REDUCE_FIRST, AUTO resolved
 *  as sgl_dvec_scan() resolves it (it runs exactly this variant for the
 *  same n, flags and parameters; sgl_scan() of a root array resolves it
 *  as sgl_scan_root_variant()). The root picks, and
 *  the workers of every process run its pick.
 *  @param root         the root context.
 *  @param n            the number of elements the scan would take.
 *  @param flags        as for sgl_dvec_scan(): one kind or-ed with at most
 *                      one variant.
 *  @param ret_variant  set on success only.
 *  @return SGL_OK, SGL_EINVAL (NULL, unknown flags, several variants),
 *          SGL_ESTATE (not the root context). */
SGL_API int sgl_scan_variant(sgl_ctx_t *root, size_t n, unsigned flags,
                             unsigned *ret_variant);
/** Which variant sgl_scan() of a root array of @p n elements runs with
 *  @p flags: as sgl_scan_variant(), but AUTO priced on the paths a root
 *  array takes: REDUCE_FIRST is the root scan, whose children read their
 *  parts in place and write their outputs in place (sgl_recv_view(),
 *  sgl_gather_into(); the view price of a machine file's
 *  'level L view' record), LOCAL_FIRST copies the array into a
 *  distributed vector and back (c of "copy" and the level's g).
 *  @param root         the root context.
 *  @param n            the number of elements of the root array.
 *  @param flags        as for sgl_scan().
 *  @param ret_variant  SGL_SCAN_LOCAL_FIRST or SGL_SCAN_REDUCE_FIRST; set
 *                      on success only.
 *  @return SGL_OK, SGL_EINVAL (NULL, unknown flags, several variants),
 *          SGL_ESTATE (not the root context). */
SGL_API int sgl_scan_root_variant(sgl_ctx_t *root, size_t n, unsigned flags,
                                  unsigned *ret_variant);

/** Scan a distributed vector into @p out (same type and block sizes, e.g.
 *  from sgl_dvec_create() with SGL_FILL_NONE; may be @p in itself). Two
 *  supersteps, recursive over levels. The output has the input's type:
 *  SGL_I8/SGL_U8 prefixes wrap modulo 2^8; their exact total is
 *  sgl_dvec_reduce() of the input.
 *  @return SGL_OK, SGL_EINVAL (also unknown flags or several variants,
 *          with a message naming them), SGL_ESIZE (blocks differ),
 *          SGL_ESTATE. */
SGL_API int sgl_dvec_scan(sgl_ctx_t *root, const sgl_dvec_t *in,
                          sgl_dvec_t *out, sgl_op_t op, unsigned flags);

/** Scan @p n elements at the root into @p dst (may equal @p src, may not
 *  overlap it otherwise). REDUCE_FIRST (the default, and AUTO's pick
 *  when it picks it) runs on the two arrays themselves: below a thread
 *  level each worker reads its part of @p src in place and writes its
 *  part of @p dst in place (sgl_recv_view(), sgl_gather_into()), so the
 *  array is read twice and written once; across an MPI level the parts
 *  travel (down in both supersteps, up in the second). LOCAL_FIRST
 *  scatters a distributed vector, scans it and gathers it back. @p src
 *  is only read. Flags and errors as sgl_dvec_scan(), and SGL_EINVAL for
 *  arrays that partly overlap; bad flags are refused before any
 *  superstep. */
SGL_API int sgl_scan(sgl_ctx_t *root, sgl_dtype_t dtype, sgl_op_t op,
                     const void *src, void *dst, size_t n, unsigned flags);

/* ---- PSRS sort ---- */

/** What a sort reports. */
typedef struct sgl_sort_stats {
    size_t n;          /**< elements sorted */
    size_t workers;    /**< P */
    size_t max_block;  /**< largest final block (partition) */
    size_t min_block;  /**< smallest final block */
    size_t samples;    /**< regular samples the root sorted (by level:
                            at its own level) */
    unsigned path;     /**< the path the sort took, SGL_SORT_PATH_* */
    unsigned local;    /**< the local sorts the workers chose, an OR
                            of SGL_SORT_LOCAL_* (on the presorted paths
                            SGL_SORT_LOCAL_PRESORTED, or SMALL for
                            blocks of 32 or fewer) */
} sgl_sort_stats_t;

/** The local sorts a worker chooses from, by what its block looks like
 *  (sgl_sort_stats_t.local): each worker first checks whether its block
 *  is in order or in reverse order (one pass), then whether it is nearly
 *  sorted (sampled neighbours descend under 1/64 of the time), then
 *  whether it holds few distinct keys (a counting pass that stops at the
 *  4097th), else radix-sorts it. */
enum {
    SGL_SORT_LOCAL_SMALL = 1,     /**< insertion sort (32 elements or
                                       fewer) */
    SGL_SORT_LOCAL_PRESORTED = 2, /**< in order, or in reverse order and
                                       reversed: one pass */
    SGL_SORT_LOCAL_NEARLY = 4,    /**< nearly sorted values: the keys out
                                       of place pulled aside, sorted and
                                       merged back (two passes) */
    SGL_SORT_LOCAL_RADIX = 8,     /**< MSD radix sort on the keys' ranges
                                       (records of other sizes: an LSD
                                       record sort) */
    SGL_SORT_LOCAL_FEW = 16,      /**< at most 4096 distinct keys (blocks
                                       of 32768 elements or more): counted
                                       in a table of the distinct keys and
                                       written out run by run (records:
                                       scattered stably); two passes */
};

/** The paths of a sort (sgl_sort_stats_t.path). In the sample step
 *  every worker also scans its block once (stopping early where it is in
 *  no order) and hands up its size, whether it is in order or in reverse
 *  order, and its first and last key; the root decides from these. On a
 *  flat sort only (sgl_sort_variant()); by level, the sampled path. The
 *  presorted paths are taken only where every worker's resulting block
 *  stays within 1/16 (+ 2 elements) of its share, so they never leave a
 *  worker more than the sampled path would. */
enum {
    SGL_SORT_PATH_SAMPLES = 0,  /**< PSRS: sample, pivots, partition,
                                     exchange, merge (and on one worker,
                                     its local sort); on a flat sort of
                                     plain values, a worker that keeps
                                     all but 1/16 of its block, the
                                     leavers on one side, sends only
                                     those and merges the arrivals into
                                     its block in place */
    SGL_SORT_PATH_SORTED = 1,   /**< the blocks were in order already,
                                     each worker's before the next one's:
                                     nothing moved (no exchange in the
                                     trace; records: one more superstep,
                                     no exchange) */
    SGL_SORT_PATH_REVERSED = 2, /**< the blocks were in reverse order
                                     (for records, keys strictly
                                     decreasing across workers): each
                                     block went whole from worker w to
                                     worker P-1-w, without pivots. With
                                     every worker in one process, each
                                     reversed its block in place in the
                                     sample step (plain keys: in the
                                     scan's pass) and the mirrors swapped
                                     the blocks' memory (one more
                                     superstep, no exchange in the
                                     trace); across processes each block
                                     moved as it came in one exchange
                                     and was copied backwards into place */
};

/** PSRS variants (sgl_sort_variant()). */
enum {
    SGL_SORT_FLAT = 1,   /**< the paper's PSRS over all P workers: the
                              root sorts P samples of every worker (P^2)
                              and every element moves once */
    SGL_SORT_LEVELS = 2, /**< by level (as AMS-sort): a master splits its
                              data among its children from about
                              max(fan-out, 256) samples per child (lower
                              masters thin their subtree's samples), then
                              every child sorts its subtree in the same
                              way; every element moves once per level */
};

/** Which variant a sort of @p n elements runs on @p root's runtime: the
 *  SGL_SORT environment variable of the root's process (flat, levels or
 *  auto) where it is set and not auto; else, with parameters given to
 *  sgl_runtime_set_params(), the variant sgl_predict_algorithm() prices
 *  lower ("psrs" against "psrs-levels"; flat on a tie or when it cannot
 *  price both); else SGL_SORT_LEVELS when the flat root would sort more
 *  than 2^20 samples (P > 1024) and a child of the root has several
 *  workers, SGL_SORT_FLAT otherwise. On a tree of one level both are the
 *  same sort. The sorts run exactly this pick.
 *  @param root         the root context.
 *  @param n            the number of elements the sort would take.
 *  @param ret_variant  set on success only.
 *  @return SGL_OK, SGL_EINVAL (NULL, SGL_SORT set to another word),
 *          SGL_ESTATE (not the root context). */
SGL_API int sgl_sort_variant(sgl_ctx_t *root, size_t n, unsigned *ret_variant);

/** Sort a distributed vector in place by PSRS (sample, pivots, partition,
 *  an exchange and a merge; once over the whole tree, or once per level:
 *  sgl_sort_variant(); see psrs.c, and psrs_cost.c for the cost). Types SGL_F64, SGL_F32, SGL_I64, SGL_U64 (not
 *  SGL_I8/SGL_U8, nor SGL_USER: use sgl_dvec_sort_records()); floats
 *  in IEEE totalOrder except that every NaN sorts after +inf. Afterwards
 *  worker w holds the w-th part of the sorted vector; block sizes change.
 *  @param root       the root context.
 *  @param vec        the vector, sorted in place.
 *  @param ret_stats  may be NULL.
 *  @return SGL_OK, SGL_EINVAL (unsupported type, a bad SGL_SORT),
 *          SGL_ERANGE (more than 2^24 workers or 2^40 elements on one),
 *          SGL_ENOMEM, SGL_ESTATE. */
SGL_API int sgl_dvec_sort(sgl_ctx_t *root, sgl_dvec_t *vec,
                          sgl_sort_stats_t *ret_stats);

/** Sort @p n elements at the root in place (scatter, PSRS, gather). */
SGL_API int sgl_sort(sgl_ctx_t *root, sgl_dtype_t dtype, void *data, size_t n,
                     sgl_sort_stats_t *ret_stats);

/** Sort a distributed vector of SGL_USER records by a key inside each
 *  record, by PSRS as sgl_dvec_sort(). Stable: records with equal keys keep
 *  their order in the vector. Keys order as in sgl_dvec_sort().
 *  @param root        the root context.
 *  @param vec         a vector of SGL_USER records, sorted in place.
 *  @param key_type    SGL_F64, SGL_F32, SGL_I64 or SGL_U64 (8-bit keys are
 *                     not supported).
 *  @param key_offset  byte offset of the key in each record; the key must
 *                     lie inside the record, at any alignment.
 *  @param ret_stats   may be NULL.
 *  @return SGL_OK, SGL_EINVAL (not SGL_USER, key type, key outside the
 *          record), SGL_ENOMEM, SGL_ESTATE.
 *  @par Memory: as sgl_dvec_sort(); the local sort moves whole records. */
SGL_API int sgl_dvec_sort_records(sgl_ctx_t *root, sgl_dvec_t *vec,
                                 sgl_dtype_t key_type, size_t key_offset,
                                 sgl_sort_stats_t *ret_stats);

/** Sort @p n records of @p rec_size bytes at the root in place by their
 *  key (scatter, sgl_dvec_sort_records(), gather). */
SGL_API int sgl_sort_records(sgl_ctx_t *root, void *data, size_t n,
                             size_t rec_size, sgl_dtype_t key_type,
                             size_t key_offset, sgl_sort_stats_t *ret_stats);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
