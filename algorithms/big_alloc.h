/* Buffers of data-sized blocks (a worker's block, a sort's buffer, a
 * merge's output) on 2 MiB pages where the system gives them. Such a
 * buffer is fresh memory on every call, and with 4 KiB pages its first
 * touch costs a page fault per 4 KiB: 20-30% of a sort's merge and of an
 * exchange's copy at 1e7 doubles on this project's VM. Never installed. */
#ifndef SGL_ALGO_BIG_ALLOC_H
#define SGL_ALGO_BIG_ALLOC_H

#include <stddef.h>

/* malloc(bytes) (at least 1), 2 MiB-aligned and advised for huge pages
 * (MADV_HUGEPAGE: transparent huge pages in "madvise" mode) from 4 MiB;
 * free with free(). NULL when out of memory. */
void *sgl__algo_alloc_big(size_t bytes);

#endif
