/* Memory for data-sized blocks: a worker's block, a buffer a superstep
 * delivers into, a sort's scratch. Such a block is often fresh memory
 * (the exchange frees its runs after every merge), and on 4 KiB pages its
 * first touch costs a page fault per page: a third of an exchange's copy
 * and 20-30% of a sort's merge at 1e7 doubles on this project's VM, and a
 * stream through it a TLB miss per page. From 4 MiB a block is aligned to
 * 2 MiB and advised for transparent huge pages (THP in "madvise" mode
 * backs only advised memory); below that the alignment's waste would
 * outweigh the faults saved. */
#include <stdlib.h>
#include <sys/mman.h>

#include <sgl/sgl.h>
#include <sgl/blocks.h>

#define BIG_BYTES ((size_t)4 << 20)
#define BIG_ALIGN ((size_t)2 << 20)

void *sgl_mem_alloc(size_t bytes)
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
