/**
 * @file blocks.h
 * Blocks in place: buffers the runtime lends for a scatter or a put (one
 * copy less), reading children's blocks without copying, freeing blocks
 * early, and the library's page policy for large arrays.
 *
 * Part of the SGL API beside the core of <sgl/sgl.h>, which it includes.
 * Thread safety and errors as there: master-side calls on a master's own
 * context, child-side calls inside the task on that context; every
 * function that can fail returns SGL_OK or a negative code.
 */
#ifndef SGL_BLOCKS_H
#define SGL_BLOCKS_H

#include <stddef.h>

#include <sgl/sgl.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_blocks Blocks in place
 *  Runtime-owned buffers for scatter and put, blocks read without copying, early release, large allocations.
 *  @{ */

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

/** Name the destination of the next pardo's sgl_gather(), so that below
 *  a thread link each child writes its block there in place: child @p i's
 *  sgl_put_buffer() (and sgl_put()) of exactly @p counts[i] elements of
 *  @p elem_size bytes (the same byte count) returns its part of @p dst,
 *  the @p counts[i] elements after those of children 0..i-1, instead of
 *  a buffer of its own, and sgl_gather() into @p dst then copies nothing
 *  for it. A put of another size goes to the child's own buffer and is
 *  copied by the gather, as without this call. Across an MPI link the
 *  blocks travel and sgl_gather() receives them into @p dst; the call
 *  only checks its arguments there. Valid for the next sgl_pardo() only,
 *  whatever its outcome; call it before it, with or without a staged
 *  scatter.
 *
 *  What the children may rely on: their part of @p dst is theirs to
 *  write and read back during the task, its contents when lent are
 *  unspecified, and they must not touch the rest. @p dst may be the
 *  array the master scatters from (a scan in place): a child that reads
 *  its received block (a view of that array, sgl_recv_view()) while it
 *  writes its put buffer reads and writes the same elements, and must
 *  read each element before it overwrites it. What the master may rely
 *  on: @p dst stays its array; until sgl_gather() its contents are
 *  unspecified (partly written when a child failed).
 *  @param ctx        a master's context, before its sgl_pardo().
 *  @param dst        room for the sum of @p counts elements; must stay
 *                    valid until the pardo returns; NULL only when they
 *                    sum to 0.
 *  @param elem_size  bytes per element, > 0.
 *  @param counts     sgl_ctx_children() element counts; not kept.
 *  @return SGL_OK, SGL_ESTATE (not a master), SGL_EINVAL (NULL context,
 *          counts or dst, elem_size 0), SGL_ERANGE (the total overflows
 *          size_t).
 *  @par Cost: below a thread link, k_up = 0 at this level for the blocks
 *       written in place; across an MPI link, as sgl_gather(). */
SGL_API int sgl_gather_into(sgl_ctx_t *ctx, void *dst, size_t elem_size,
                            const size_t *counts);

/** Look at child @p i's block of the last pardo without copying. Valid
 *  until the next sgl_pardo() on this context. Call it before
 *  sgl_gather(), which at an MPI level may receive large blocks straight
 *  into its destination and then no longer holds them.
 *  @param ctx        a master's context after its pardo returned.
 *  @param i          the child, < sgl_ctx_children().
 *  @param elem_size  bytes per element, > 0.
 *  @param ret_data   set to the block, read-only and owned by the runtime.
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

/** Free the buffer holding this node's received block before the task
 *  ends, when the task no longer needs it (e.g. after merging it into its
 *  own array). The pointers from sgl_recv() and sgl_recv_view() become
 *  invalid and later calls of either in this task fail with SGL_ESTATE
 *  (the master's source itself is not freed). The task's argument
 *  stays valid.
 *  @return SGL_OK, or SGL_ESTATE outside a task. */
SGL_API int sgl_recv_release(sgl_ctx_t *ctx);

/** Like sgl_put(), but returns a buffer of @p count elements for the
 *  caller to fill in place (no copy): the node's own, or, below a thread
 *  link whose master named its gather's destination with a part of this
 *  size for this child (sgl_gather_into()), that part of the master's
 *  array. Its contents when lent are unspecified. Valid until the task
 *  returns.
 *  @return SGL_OK, SGL_ESTATE, SGL_EINVAL, SGL_ERANGE, SGL_ENOMEM. */
SGL_API int sgl_put_buffer(sgl_ctx_t *ctx, size_t elem_size, size_t count,
                           void **ret_data);

/** Memory laid out as the library's own blocks are: from 4 MiB aligned
 *  to 2 MiB and advised for transparent huge pages (a hint the kernel may
 *  refuse), below that from malloc(). For arrays a program streams next
 *  to the library's (a benchmark's peers, an input it scatters), so that
 *  both go through pages of one size.
 *  @param bytes  0 gives a pointer to no bytes, not NULL.
 *  @return the memory, the caller's to release with free(); NULL when
 *          out of memory, as malloc(). */
SGL_API void *sgl_mem_alloc(size_t bytes);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
