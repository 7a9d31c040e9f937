/* A name -> position index over an array the caller owns (kernels by
 * name, provenance by key), so that a lookup costs O(1) and reading a
 * machine file of n records O(n). The index is rebuilt whenever the
 * array's length differs from what it covers; after a removal the caller
 * invalidates it. Never installed. */
#ifndef SGL_NAME_INDEX_H
#define SGL_NAME_INDEX_H

#include <stddef.h>

struct sgl__name_index {
    size_t *slot;   /* position + 1; 0 = empty */
    size_t cap;     /* a power of two, at least 4 x covered */
    size_t covered; /* array entries indexed; (size_t)-1: invalid */
};

/* The name of entry @i of the caller's array @items. */
typedef const char *(*sgl__name_of)(const void *items, size_t i);

/* The position of @name among the @n entries of @items, or (size_t)-1.
 * On out of memory it falls back to a linear search. */
size_t sgl__name_find(struct sgl__name_index *x, const void *items, size_t n,
                      sgl__name_of name_of, const char *name);

/* Forget the positions (after entries were removed or moved). */
void sgl__name_invalidate(struct sgl__name_index *x);

void sgl__name_index_free(struct sgl__name_index *x);

#endif
