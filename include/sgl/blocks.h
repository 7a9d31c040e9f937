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

/** Like sgl_put(), but returns a node-owned buffer of @p count elements
 *  for the caller to fill in place (no copy). Valid until the task
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
