/* Cache-line-aligned zeroed allocation, for the structures a superstep
 * reads from cold caches (tree nodes, contexts, the runtime): aligned,
 * the fields placed first share the fewest lines. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine_impl.h"

void *sgl__line_calloc(size_t bytes)
{
    if (bytes > SIZE_MAX - 63)
        return NULL;
    bytes = (bytes + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}
