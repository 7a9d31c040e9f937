/* SGL test programs shared by the Criterion tests (one process, thread
 * levels) and the multi-rank driver (MPI levels). Each checks its own
 * result against a sequential computation and returns SGL_OK or an error
 * whose message says what differed. */
#ifndef SGL_TEST_PROGRAMS_H
#define SGL_TEST_PROGRAMS_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/sgl.h>
#include <sgl/blocks.h>
#include <sgl/exchange.h>
#include <sgl/trace.h>

/* Register every task below, in the same order on every process. */
int prog_register(sgl_runtime_t *rt);

/* Random recursive program: the root's vector of @n random int64 is split
 * at every master by random counts (some zero) and scattered down; workers
 * keep their block as persistent state and hand up its sum. A second
 * superstep broadcasts a factor; workers scale their kept block and hand it
 * up; masters concatenate. The root checks the sums and the scaled vector
 * element by element. */
int prog_roundtrip(sgl_runtime_t *rt, uint64_t seed, size_t n);

/* Sum of a vector generated on the workers (data starts distributed). */
int prog_distributed_sum(sgl_runtime_t *rt, size_t n);

/* A task fails on worker @victim: sgl_run must return SGL_ETASK with the
 * worker's message and the path of children. Returns SGL_OK if it did. */
int prog_failing_worker(sgl_runtime_t *rt, size_t victim);

/* Misuse of every primitive on the root and on a worker; SGL_OK if each
 * call gave the documented error. */
int prog_misuse(sgl_runtime_t *rt);

/* Random block sizes 0..1000 bytes with three supersteps and a broadcast
 * of a random block per step; @rounds repetitions. */
int prog_random_blocks(sgl_runtime_t *rt, uint64_t seed, unsigned rounds);

/* Blocks over 16 KiB per worker gathered straight into the destination
 * (the MPI level's deferred receive). */
int prog_big_gather(sgl_runtime_t *rt);

/* Blocks built in the children's buffers with sgl_scatter_buffer() (some
 * over 16 KiB), received blocks freed with sgl_recv_release() and
 * hand-ups with sgl_gather_release(), over three rounds; every freed block
 * must be refused afterwards. */
int prog_inplace(sgl_runtime_t *rt);

/* Workers keep the program's state and two keyed states over two
 * supersteps; removing one key leaves the others. */
int prog_keyed_state(sgl_runtime_t *rt);

/* A known program; on rank 0 the trace must hold exactly its bytes,
 * declared work and nesting. */
int prog_trace(sgl_runtime_t *rt);

/* One child of the root sleeps, first the master's own (child 0), then
 * the last: on rank 0 the trace must time a reply the master waited for
 * as it came in, and one that came in while the master ran its own child
 * as the moment it began to wait (sgl_trace_step_t.wait_start). */
int prog_reply_times(sgl_runtime_t *rt);

/* The root's block is the run's argument and its put the run's result:
 * the root checks a writable copy of a 7-uint32 argument and puts it
 * reversed, then sgl_run_result() must give it (on rank 0, and on every
 * rank if @shared, the runtime's share_result), an empty result for a run
 * that put nothing and none after a failed run. Without @shared the other
 * ranks must get SGL_ESTATE. */
int prog_run_result(sgl_runtime_t *rt, int shared);

/* sgl_ctx_split at every master: hand-computed counts by workers for the
 * uneven masters of the test shapes and by weights for masters of 2 or 3
 * children, sums and shares for any n up to SIZE_MAX, the refused weights
 * and calls; children must receive their split of a scatter_split. On
 * rank 0 *ret_checked is the number of masters where a hand case applied. */
int prog_split(sgl_runtime_t *rt, size_t *ret_checked);

/* A known array of @n 12-byte elements, the run's argument, split down
 * with sgl_scatter_split() by workers and then by weights (child 0 of
 * every master gets nothing) and gathered back with sgl_gather_alloc();
 * the run's result must be the array. */
int prog_scatter_split(sgl_runtime_t *rt, size_t n);

/* Blocks that are not a whole number of elements: SGL_ESIZE from
 * sgl_recv, sgl_gather_block, sgl_gather, sgl_gather_alloc and
 * sgl_run_result, nothing copied or allocated; other sizes that divide
 * them give the right counts. */
int prog_block_sizes(sgl_runtime_t *rt);

/* The one-function recursive reduction (if master: scatter_split my
 * block, pardo myself, gather_alloc and add; else add my block; put) with
 * @n random int64 as the run's argument; the run's result must be the
 * exact sum, on every rank that has it. */
int prog_reduce(sgl_runtime_t *rt, uint64_t seed, size_t n);

/* Exchange supersteps (prog_exchange.c) by @method
 * (sgl_exchange_method_t): rounds of random addressed blocks (none, to
 * self only, to every worker, over 16 KiB) at the root and at every
 * master at once, each worker checking every received element; a stray
 * address refused at a child master, and the next exchange correct. */
int prog_exchange(sgl_runtime_t *rt, uint64_t seed, int method);

/* The exchange calls on the wrong side and with a staged broadcast. */
int prog_exchange_misuse(sgl_runtime_t *rt);

/* Register prog_exchange's tasks (prog_register() calls it). */
int prog_exchange_register(sgl_runtime_t *rt);

/* Views of received blocks (prog_view.c): the run's argument and every
 * scattered block read with sgl_recv_view(), masters scattering their view
 * on (or, with @private_masters, their sgl_recv() copy) by uneven counts
 * with empty blocks; workers' sgl_recv() copies written without changing
 * the view or the master's source; a broadcast block viewed and
 * re-broadcast from views; sgl_recv_view() refused after
 * sgl_recv_release() and on bad arguments. @n elements of 16 bytes. */
int prog_recv_view(sgl_runtime_t *rt, uint64_t seed, size_t n,
                   int private_masters);

/* Register prog_view's tasks (prog_register() calls it). */
int prog_view_register(sgl_runtime_t *rt);

/* Puts in place (prog_gather_into.c): a recursive round trip of @n
 * 16-byte elements, uneven splits with empty blocks, in which every
 * master names its put buffer (the root: its output, with @in_place the
 * array it scatters) as its gather's destination; below thread links
 * every child's block must lie in its part, and the root's output be
 * every element once. */
int prog_gather_into(sgl_runtime_t *rt, uint64_t seed, size_t n,
                     int in_place);

/* sgl_gather_into() at the root: a put of another size copied, a pardo
 * without the call leaving the old destination alone, bad arguments. */
int prog_gather_into_misc(sgl_runtime_t *rt);

/* Register prog_gather_into's tasks (prog_register() calls it). */
int prog_gather_into_register(sgl_runtime_t *rt);

#endif
