/* Cold caches on every worker of an SGL tree, as a task: what the probe
 * measures the kernels' c after, and what bench_scan_auto times the scans
 * after, so that both start from the same state. */
#ifndef SGL_BENCH_FLUSH_TASK_H
#define SGL_BENCH_FLUSH_TASK_H

#include <stddef.h>

#include <sgl/sgl.h>

/* Every worker below @ctx writes a buffer of its own of *arg (a size_t)
 * bytes, larger than its share of the last-level cache, so that the next
 * run starts cold on every thread and every process; 0 bytes frees the
 * buffers. Register it (sgl_task_register()) in every process. */
int bench_flush_task(sgl_ctx_t *ctx, const void *arg, size_t size);

/* The bytes each of @workers workers writes: bench_flush_total() shared
 * among them, at least 16 MiB. */
size_t bench_flush_bytes(size_t workers);

#endif
