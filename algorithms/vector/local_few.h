/* The local sort of blocks with few distinct keys (internal; never
 * installed): see local_few.c.
 *
 * Thread safety: works on its arguments only; any number of threads may
 * call it on disjoint arrays.
 * Memory: about 290 KiB of table, and for records one buffer of the
 * block's size, freed before it returns. */
#ifndef SGL_ALGO_LOCAL_FEW_H
#define SGL_ALGO_LOCAL_FEW_H

#include <stddef.h>

/* How the stored key bits become the sort's unsigned key (local_sort.h's
 * bijections). The mapped kinds are plain arrays of values. */
enum {
    SGL__KEYMAP_NONE = 0,
    SGL__KEYMAP_F64 = 1,
    SGL__KEYMAP_I64 = 2,
    SGL__KEYMAP_F32 = 3,
};

/* Below this many elements the table's setup outweighs what it saves. */
#define FEW_MIN_N ((size_t)1 << 15)

/* Sort the n elements of es bytes at a by the key of key_bytes (4 or 8)
 * at byte offset ko, mapped by map, stably, if they hold at most 4096
 * distinct keys: returns 1 when it sorted them, 0 when it did not (too
 * few elements, too many distinct keys, or no memory), and then a is
 * unchanged. */
int sgl__algo_sort_few(void *a, size_t n, size_t es, size_t ko,
                       unsigned key_bytes, unsigned map);

#endif
