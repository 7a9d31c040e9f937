/* Open addressing with linear probing over FNV-1a hashes; the table is
 * kept at most a quarter full, and grows by rebuilding from the array. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "name_index.h"

static size_t hash(const char *s)
{
    uint64_t h = 14695981039346656037u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (size_t)h;
}

static void put(struct sgl__name_index *x, const void *items,
                sgl__name_of name_of, size_t i)
{
    size_t j = hash(name_of(items, i)) & (x->cap - 1);
    while (x->slot[j])
        j = (j + 1) & (x->cap - 1);
    x->slot[j] = i + 1;
}

/* Index entries covered..n-1, rebuilding in a larger table if needed. */
static int cover(struct sgl__name_index *x, const void *items, size_t n,
                 sgl__name_of name_of)
{
    if (x->slot && x->covered == n)
        return 0;
    size_t from = x->covered;
    if (from > n || !x->slot || 4 * n > x->cap) {
        size_t cap = 16;
        while (cap < 8 * n)
            cap *= 2;
        size_t *slot = calloc(cap, sizeof *slot);
        if (!slot)
            return -1;
        free(x->slot);
        x->slot = slot;
        x->cap = cap;
        from = 0;
    }
    for (size_t i = from; i < n; i++)
        put(x, items, name_of, i);
    x->covered = n;
    return 0;
}

size_t sgl__name_find(struct sgl__name_index *x, const void *items, size_t n,
                      sgl__name_of name_of, const char *name)
{
    if (cover(x, items, n, name_of)) {
        sgl__name_invalidate(x);
        for (size_t i = 0; i < n; i++)
            if (strcmp(name_of(items, i), name) == 0)
                return i;
        return (size_t)-1;
    }
    for (size_t j = hash(name) & (x->cap - 1); x->slot[j];
         j = (j + 1) & (x->cap - 1))
        if (strcmp(name_of(items, x->slot[j] - 1), name) == 0)
            return x->slot[j] - 1;
    return (size_t)-1;
}

void sgl__name_invalidate(struct sgl__name_index *x)
{
    x->covered = (size_t)-1;
}

void sgl__name_index_free(struct sgl__name_index *x)
{
    free(x->slot);
    x->slot = NULL;
    x->cap = 0;
    x->covered = 0;
}
