/**
 * @file darray.h
 * Distributed d-dimensional arrays and periodic affine communication
 * (docs/design.md and docs/darray.md; the Trasgo paper's technique): arrays of 1 to 3
 * dimensions cut into blocks over the workers below a master, and plans
 * that compute at run time, from the blocks and a loop's affine index
 * expressions (periodic or not), which index ranges every worker needs
 * from every other, so that a stencil, a rotation or Cannon's shifts are
 * written as the sequential loop's accesses, not as messages.
 *
 * Arrays. A layout (sgl_darray_layout_t) gives the extents, the element
 * size, a grid of workers (grid[0] x ... x grid[dims-1] = the workers
 * below the master; worker k of them, in depth-first order, sits at the
 * grid position whose row-major index is k) and the cuts of every
 * dimension: even, explicit (uneven), or by weights per worker (faster
 * workers get larger blocks). Each worker allocates and first-touches its
 * block, kept between supersteps, with @c halo extra elements on both
 * sides of every dimension for a plan to fill. A task reads and writes its
 * block with sgl_darray_local().
 *
 * Plans. An access is, per dimension d of the array, the affine
 * expression x_d = sum_j coef[d][j] * i_j + offset[d] of the loop indices
 * i (the owner-computes loop: worker w runs i over its own block), with an
 * optional periodic boundary (x_d mod size[d]). A plan of one or more
 * accesses gives every worker a view: the box of (unwrapped) indices its
 * loop reads, filled from the owners of the elements, one aggregated
 * message per pair of workers, empty ones omitted, wrap-around and
 * offsets of any size included. The view is the worker's own block when
 * the box fits in the block and its halo (a stencil: only the halo is
 * filled); otherwise a buffer of the plan's (a rotation). A plan is
 * computed once (sgl_dplan_create(): each worker computes its own part
 * and tells the owners what it needs) and executed any number of times,
 * on any array of the same layout, as an exchange superstep (sgl.h).
 * Accesses with several indices in one dimension (Cannon's skew, i + j)
 * read their bounding box, which may hold more than the loop needs.
 *
 * The master-side calls run on the master that created the array (the
 * root, or any master for an array over its subtree), between pardos.
 * The worker-side calls run inside a task on a worker below it; arrays
 * and plans are named there by their ids. Arrays keep their blocks in the
 * workers' keyed state, so they coexist with a program's own state and
 * with the algorithms' vectors.
 *
 * The tasks of arrays and plans are registered by
 * sgl_algorithms_register() (algorithms.h), on every process after
 * sgl_init().
 */
#ifndef SGL_DARRAY_H
#define SGL_DARRAY_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/sgl.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_darray Distributed arrays
 *  Arrays partitioned over the workers and the exchange plans of affine accesses.
 *  @{ */

/** Most dimensions an array has. */
#define SGL_DARRAY_MAX_DIMS 3

/** A distributed array (opaque), held by the master that created it. */
typedef struct sgl_darray sgl_darray_t;
/** A communication plan (opaque), held by the same master. */
typedef struct sgl_dplan sgl_dplan_t;

/** How an array is cut. Initialise with sgl_darray_layout_init(). */
typedef struct sgl_darray_layout {
    unsigned dims;    /**< 1..SGL_DARRAY_MAX_DIMS */
    size_t size[SGL_DARRAY_MAX_DIMS]; /**< extents, each > 0 */
    size_t elem_size; /**< bytes per element, > 0 (a tile of Cannon's
                           product is one element) */
    unsigned grid[SGL_DARRAY_MAX_DIMS]; /**< workers per dimension, their
                           product the workers below the master; all 0:
                           chosen as balanced as possible (as
                           MPI_Dims_create does), the first dimension
                           getting the most */
    const size_t *cuts[SGL_DARRAY_MAX_DIMS]; /**< NULL, or grid[d] + 1
                           increasing boundaries from 0 to size[d]: block
                           c of dimension d is [cuts[d][c], cuts[d][c+1]);
                           copied */
    const double *weights; /**< NULL, or one non-negative finite weight per
                           worker: each dimension without cuts is cut in
                           proportion to the summed weights of the
                           workers in each grid slice; copied. NULL and no
                           cuts: by the workers' speeds when they differ
                           (sgl_ctx_worker_weights(), sgl.h), else, or
                           if a block would then be empty, even blocks,
                           size * c / grid */
    size_t halo[SGL_DARRAY_MAX_DIMS]; /**< extra elements kept on each side
                           of a block, for plans to fill */
} sgl_darray_layout_t;

/** Fill @p layout for a @p dims-dimensional array of extents @p size and
 *  @p elem_size bytes per element: grid chosen, even cuts, no halo. */
SGL_API void sgl_darray_layout_init(sgl_darray_layout_t *layout, unsigned dims,
                                    const size_t *size, size_t elem_size);

/** A worker's block of an array, or its view of a plan. The element at
 *  index x (x a vector of dims indices; unwrapped for a view: outside
 *  [0, size) where the loop reads across a periodic boundary) lies at
 *  data + sum_d (x_d - lo[d]) * stride[d] elements. Indices in
 *  [lo - halo, hi + halo) per dimension are valid. Dimensions from dims
 *  up are [0, 1), so three nested loops serve every array. */
typedef struct sgl_dblock {
    void *data;        /**< the element at index lo */
    unsigned dims;     /**< the array's dimensions, 1..SGL_DARRAY_MAX_DIMS */
    size_t elem_size;  /**< bytes per element */
    long lo[SGL_DARRAY_MAX_DIMS];     /**< first index of the box */
    long hi[SGL_DARRAY_MAX_DIMS];     /**< one past the last */
    size_t halo[SGL_DARRAY_MAX_DIMS]; /**< valid elements beyond the box */
    size_t stride[SGL_DARRAY_MAX_DIMS]; /**< in elements; 1 in the last
                                             dimension */
} sgl_dblock_t;

/** The address of element (i, j, k) of @p b (unused indices 0). */
static inline void *sgl_dblock_at(const sgl_dblock_t *b, long i, long j,
                                  long k)
{
    const long x[SGL_DARRAY_MAX_DIMS] = {i, j, k};
    long off = 0;
    for (unsigned d = 0; d < b->dims; d++)
        off += (x[d] - b->lo[d]) * (long)b->stride[d];
    return (char *)b->data + off * (long)b->elem_size;
}

/** Create an array over the workers below @p master (one superstep):
 *  every worker allocates its block (and halo), zeroed, on its own
 *  thread. The whole layout is checked before anything is allocated.
 *  @param master     the master (or the root) over whose workers the
 *                    array is cut.
 *  @param layout  copied.
 *  @param ret_array  set on success only; free with sgl_darray_free().
 *  @return SGL_OK; SGL_EINVAL (NULL, dims out of range, a zero extent or
 *          element size, a grid whose product is not the number of
 *          workers, cuts that do not rise from 0 to the extent, weights
 *          negative, not finite or summing to 0, a block of zero
 *          elements: the message names the dimension and the worker);
 *          SGL_ESTATE (not a master's own context, or a worker);
 *          SGL_ERANGE (sizes overflow); SGL_ENOMEM. */
SGL_API int sgl_darray_create(sgl_ctx_t *master,
                              const sgl_darray_layout_t *layout,
                              sgl_darray_t **ret_array);

/** Copy the whole array to @p dst at the master, in row-major order
 *  (one superstep; every block passes through the masters above it).
 *  @param master    the master that created @p array.
 *  @param array     the array to copy; left unchanged.
 *  @param dst       room for @p capacity elements of the array's
 *                   elem_size; receives the array's elements, row-major
 *                   (halos not included).
 *  @param capacity  elements @p dst holds.
 *  @return SGL_OK, SGL_EINVAL (NULL), SGL_ESIZE (capacity too small),
 *          SGL_ESTATE (a worker's context, or a master that did not
 *          create the array), SGL_ENOMEM. */
SGL_API int sgl_darray_gather(sgl_ctx_t *master, const sgl_darray_t *array,
                              void *dst, size_t capacity);

/** Load the whole array from @p src at the master, in row-major order:
 *  the mirror of sgl_darray_gather(), and the way into an array whose
 *  start is known at the root (an input file, a field set up
 *  sequentially). Every worker's box gets its elements; its halo is left
 *  as it was (a plan fills it).
 *
 *  Cost: one superstep; every element passes down through the masters
 *  above its worker (n elem_size bytes at the root's g_down, each lower
 *  level its share), plus a copy at the root into worker order and one on
 *  each worker into its block. An array as large as a node's memory is
 *  better filled on the workers, each by its own task (sgl_darray_local()).
 *  @param master  the master that created @p array.
 *  @param array   the array to fill.
 *  @param src     @p count elements of the array's elem_size, row-major.
 *  @param count   elements in @p src: must be the array's (the product of
 *                 its extents).
 *  @return SGL_OK; SGL_EINVAL (NULL context, array or @p src); SGL_ESIZE
 *          (@p count is not the array's element count: the message gives
 *          both); SGL_ESTATE (a worker's context, or a master that did
 *          not create the array); SGL_ENOMEM. On an error the blocks may
 *          hold part of @p src. */
SGL_API int sgl_darray_scatter(sgl_ctx_t *master, const sgl_darray_t *array,
                               const void *src, size_t count);

/** A bitwise checksum of the whole array, the same for every partition
 *  and every machine tree (one superstep; one 64-bit word per child goes
 *  up): the XOR over the elements, halos not included, of
 *  sgl_darray_checksum_element() of the element and its row-major index.
 *  A changed bit or a misplaced element changes it with probability
 *  1 - 2^-64, so a program compares a distributed result with a
 *  sequential one without gathering it.
 *  @param master  the master that created @p array.
 *  @param array   the array to hash; left unchanged.
 *  @param ret     receives the checksum.
 *  @return SGL_OK; SGL_EINVAL (NULL context, array or @p ret); SGL_ESTATE
 *          (a worker's context, or a master that did not create the
 *          array). */
SGL_API int sgl_darray_checksum(sgl_ctx_t *master, const sgl_darray_t *array,
                                uint64_t *ret);

/** The hash of one element that sgl_darray_checksum() XORs: of its
 *  @p elem_size bytes and its row-major @p index in the whole array. The
 *  XOR of this over a sequential program's elements is the checksum its
 *  distributed version must give. An 8-byte element (a double) is hashed
 *  as its bits read as a uint64_t, then splitmix64's finaliser of
 *  bits + index * 0x9E3779B97F4A7C15, so a peer without SGL computes the
 *  same value with integer code alone.
 *  @param elem       the element's bytes (NULL hashes as no bytes).
 *  @param elem_size  its size in bytes.
 *  @param index      its row-major index, i * size[1] * size[2] + j *
 *                    size[2] + k.
 *  @return the hash. Thread-safe. */
SGL_API uint64_t sgl_darray_checksum_element(const void *elem,
                                             size_t elem_size,
                                             uint64_t index);

/** Free the blocks (one superstep) and the handle. NULL is a no-op.
 *  @return SGL_OK or the superstep's error (the handle is freed in every
 *          case). */
SGL_API int sgl_darray_free(sgl_ctx_t *master, sgl_darray_t *array);

/** The number that names the array in a worker's task. */
SGL_API uint32_t sgl_darray_id(const sgl_darray_t *array);
/** The array's layout with its cuts as computed (owned by the array). */
SGL_API const sgl_darray_layout_t *sgl_darray_layout(const sgl_darray_t *array);

/** In a worker's task: the worker's block of array @p id.
 *  @return SGL_OK, SGL_EINVAL (NULL), SGL_ESTATE (not a worker, or no
 *          block of that array here). */
SGL_API int sgl_darray_local(sgl_ctx_t *worker, uint32_t id, sgl_dblock_t *ret);

/** One read access of a loop over the array's own index space: index
 *  x_d = sum_j coef[d][j] * i_j + offset[d] in dimension d, wrapped
 *  modulo size[d] where bit d of @c periodic is set. */
typedef struct sgl_daccess {
    long coef[SGL_DARRAY_MAX_DIMS][SGL_DARRAY_MAX_DIMS]; /**< coef[d][j]:
                           the factor of loop index i_j in dimension d */
    long offset[SGL_DARRAY_MAX_DIMS]; /**< the constant term per dimension,
                                           in elements */
    unsigned periodic; /**< bit d: dimension d is periodic */
} sgl_daccess_t;

/** Every dimension periodic. */
#define SGL_PERIODIC_ALL 0x7u

/** Fill @p access with x = i + offset (a stencil's neighbour, a
 *  rotation): identity coefficients in @p dims dimensions.
 *  @param access    overwritten whole (every other coefficient and offset
 *                   0).
 *  @param dims      the array's dimensions, 1..SGL_DARRAY_MAX_DIMS.
 *  @param offset  @p dims entries. NULL: all 0.
 *  @param periodic  bit d: dimension d wraps modulo its extent
 *                   (SGL_PERIODIC_ALL: every one); stored as given. */
SGL_API void sgl_daccess_shift(sgl_daccess_t *access, unsigned dims,
                               const long *offset, unsigned periodic);

/** Compute a plan for the loop whose read accesses are @p access
 *  (three supersteps and one exchange at @p master): every worker finds
 *  the index ranges it reads and their owners, tells each owner what it
 *  needs, and keeps both lists (and its view buffer, unless the view is
 *  its own block).
 *  @param master    the master that created @p array.
 *  @param array  an array of the layout the plan is for.
 *  @param naccess   entries in @p access, > 0.
 *  @param access    the loop's read accesses; copied.
 *  @param ret_plan  set on success only; free with sgl_dplan_free().
 *  @return SGL_OK; SGL_EINVAL (NULL, no access, an access that leaves
 *          the array in a dimension that is not periodic: the message
 *          gives the access, the dimension and the range; coefficient
 *          products that overflow); SGL_ESTATE; SGL_ENOMEM. Nothing is
 *          allocated on an error found at the master. */
SGL_API int sgl_dplan_create(sgl_ctx_t *master, const sgl_darray_t *array,
                             size_t naccess, const sgl_daccess_t *access,
                             sgl_dplan_t **ret_plan);

/** Execute @p plan on @p array at the master: a pardo that stages every
 *  worker's messages, the exchange, a pardo that copies them into the
 *  views. A program that computes between executions saves the two
 *  pardos: its own task calls sgl_dplan_finish() and then
 *  sgl_dplan_stage(), and the master calls sgl_exchange() between tasks.
 *  @return SGL_OK, SGL_EINVAL (NULL, or @p array has another layout than
 *          the plan's), SGL_ESTATE, the exchange's errors. */
SGL_API int sgl_dplan_run(sgl_ctx_t *master, const sgl_dplan_t *plan,
                          const sgl_darray_t *array);

/** In a worker's task: copy what the other workers need of this worker's
 *  block of array @p array_id into the plan's send buffer and stage it
 *  for the next exchange at the plan's master (sgl_exchange_put()).
 *  @return SGL_OK, SGL_EINVAL (the array's layout is not the plan's),
 *          SGL_ESTATE (no such plan or array here). */
SGL_API int sgl_dplan_stage(sgl_ctx_t *worker, uint32_t plan_id,
                            uint32_t array_id);

/** In a worker's task after the exchange: copy the received ranges (and
 *  the worker's own, where the loop reads across a periodic boundary
 *  into itself) into the view, and describe the view.
 *  @param worker    the worker's context in its task.
 *  @param plan_id   the plan's sgl_dplan_id().
 *  @param array_id  the sgl_darray_id() of the array staged with
 *                   sgl_dplan_stage() before the exchange.
 *  @param ret_view  NULL, or the view: the worker's block with its halo
 *                   filled, or the plan's buffer.
 *  @return SGL_OK, SGL_EINVAL, SGL_ESTATE (no such plan or array here;
 *          or this worker did not call sgl_dplan_stage() on the same array
 *          since its last finish, as a loop that forgets the stage before
 *          its first exchange does: refused on every number of workers,
 *          one included, where the view would otherwise silently miss the
 *          wrap-around; or no exchange ran since the stage), SGL_ESIZE
 *          (the exchange did not bring what the plan expects: it ran on
 *          another array). */
SGL_API int sgl_dplan_finish(sgl_ctx_t *worker, uint32_t plan_id,
                             uint32_t array_id, sgl_dblock_t *ret_view);

/** What a plan moves. Bytes between different workers only; a worker's
 *  copies into its own view are @c local_bytes. */
typedef struct sgl_dplan_stats {
    size_t messages;       /**< worker pairs with data, summed */
    size_t max_peers;      /**< most workers one worker receives from */
    size_t bytes;          /**< all bytes between workers */
    size_t local_bytes;    /**< bytes copied within workers */
    size_t max_sent_bytes; /**< the busiest sender's bytes */
    size_t max_recv_bytes; /**< the busiest receiver's bytes */
    double max_compute_seconds; /**< the slowest worker's time to compute
                                     its part (the index arithmetic, not
                                     the request exchange) */
} sgl_dplan_stats_t;

/** The plan's statistics. @return SGL_OK or SGL_EINVAL. */
SGL_API int sgl_dplan_stats(const sgl_dplan_t *plan, sgl_dplan_stats_t *ret);

/** The plan's h at @p level of the machine tree: over the masters of that
 *  level below the plan's master, and their children, the largest of the
 *  bytes a child's workers send to or receive from the master's other
 *  children's workers (what the cost model charges at g_h); 0 at levels
 *  the plan does not cross. */
SGL_API size_t sgl_dplan_level_h(const sgl_dplan_t *plan, unsigned level);

/** The number that names the plan in a worker's task. */
SGL_API uint32_t sgl_dplan_id(const sgl_dplan_t *plan);

/** Free the plan's worker state (one superstep) and the handle. NULL is
 *  a no-op. @return SGL_OK or the superstep's error. */
SGL_API int sgl_dplan_free(sgl_ctx_t *master, sgl_dplan_t *plan);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
