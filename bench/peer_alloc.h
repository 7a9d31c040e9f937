/* Peers' arrays on the pages the library's own blocks get: from 4 MiB,
 * 2 MiB-aligned and advised for huge pages (algorithms/big_alloc.c,
 * sgl/ctx.c). With THP in "madvise" mode a plain malloc() stays on 4 KiB
 * pages, and a peer streaming them paid the TLB misses the library's
 * blocks do not: a ratio should compare code, not page size. */
#ifndef SGL_BENCH_PEER_ALLOC_H
#define SGL_BENCH_PEER_ALLOC_H

#include <stdlib.h>
#include <sys/mman.h>

/* @bytes of memory to free(); NULL if there is none. */
static inline void *bench_peer_alloc(size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (bytes >= ((size_t)4 << 20)) {
        void *p;
        if (posix_memalign(&p, (size_t)2 << 20, bytes))
            return NULL;
        (void)madvise(p, bytes, MADV_HUGEPAGE); /* a hint; may be refused */
        return p;
    }
#endif
    return malloc(bytes ? bytes : 1);
}

#endif
