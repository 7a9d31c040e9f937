/* The cache-flushing task of flush_task.h. */
#include <stdlib.h>

#include "cache_flush.h"
#include "flush_task.h"

int bench_flush_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (!sgl_ctx_is_worker(ctx))
        return sgl_pardo(ctx, bench_flush_task, arg, size);
    /* Thread-local: the threads of one process must not share it. */
    static _Thread_local unsigned char *buf;
    static _Thread_local unsigned char v;
    size_t bytes = *(const size_t *)arg;
    if (bytes == 0) {
        free(buf);
        buf = NULL;
        return SGL_OK;
    }
    if (!buf && !(buf = calloc(bytes, 1)))
        return sgl_error_set(SGL_ENOMEM, "out of memory flushing caches "
                                         "(%zu bytes on worker %zu)",
                             bytes, sgl_ctx_first_worker(ctx));
    bench_evict(buf, bytes, ++v);
    return SGL_OK;
}

size_t bench_flush_bytes(size_t workers)
{
    size_t b = bench_flush_total() / (workers ? workers : 1);
    return b > ((size_t)16 << 20) ? b : (size_t)16 << 20;
}
