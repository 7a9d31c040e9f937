/* SGL test programs shared by the Criterion tests (one process, thread
 * levels) and the multi-rank driver (MPI levels). Each checks its own
 * result against a sequential computation and returns SGL_OK or an error
 * whose message says what differed. */
#ifndef SGL_TEST_PROGRAMS_H
#define SGL_TEST_PROGRAMS_H

#include <stddef.h>
#include <stdint.h>

#include "sgl.h"

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

#endif
