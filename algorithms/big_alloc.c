/* Large buffers on huge pages (big_alloc.h). */
#include "big_alloc.h"

#include <stdlib.h>
#include <sys/mman.h>

/* From this size a buffer spans whole 2 MiB pages enough to gain: below,
 * the alignment's waste would outweigh the faults saved. */
#define BIG_BYTES ((size_t)4 << 20)
#define BIG_ALIGN ((size_t)2 << 20)

void *sgl__algo_alloc_big(size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (bytes >= BIG_BYTES) {
        void *p;
        if (posix_memalign(&p, BIG_ALIGN, bytes))
            return NULL;
        (void)madvise(p, bytes, MADV_HUGEPAGE); /* a hint; may be refused */
        return p;
    }
#endif
    return malloc(bytes ? bytes : 1);
}
