/* A worker's objects of one kind (its array blocks, its plans), kept in
 * the worker's state under the kind's key and found by id. Every object
 * begins with its uint32_t id. */
#include <stdlib.h>

#include "algo_internal.h"
#include "darray_impl.h"

struct items {
    void **p;
    size_t n, cap;
    void (*destroy)(void *);
};

static uint32_t id_of(const void *item) { return *(const uint32_t *)item; }

static void items_free(void *x)
{
    struct items *s = x;
    for (size_t i = 0; i < s->n; i++)
        s->destroy(s->p[i]);
    free(s->p);
    free(s);
}

void *sgl__darray_item_find(sgl_ctx_t *worker, const void *key, uint32_t id)
{
    struct items *s = sgl_ctx_keyed_state(worker, key);
    for (size_t i = 0; s && i < s->n; i++)
        if (id_of(s->p[i]) == id)
            return s->p[i];
    return NULL;
}

int sgl__darray_item_add(sgl_ctx_t *worker, const void *key, void *item,
                         void (*destroy)(void *))
{
    struct items *s = sgl_ctx_keyed_state(worker, key);
    if (!s) {
        s = calloc(1, sizeof *s);
        if (s)
            s->destroy = destroy;
        if (!s || sgl_ctx_set_keyed_state(worker, key, s, items_free)) {
            free(s);
            return sgl_error_set(SGL_ENOMEM, "out of memory");
        }
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4;
        void **t = realloc(s->p, cap * sizeof *t);
        if (!t)
            return sgl_error_set(SGL_ENOMEM, "out of memory");
        s->p = t;
        s->cap = cap;
    }
    s->p[s->n++] = item;
    return SGL_OK;
}

void sgl__darray_item_drop(sgl_ctx_t *worker, const void *key, uint32_t id)
{
    struct items *s = sgl_ctx_keyed_state(worker, key);
    for (size_t i = 0; s && i < s->n; i++)
        if (id_of(s->p[i]) == id) {
            s->destroy(s->p[i]);
            s->p[i] = s->p[--s->n];
            return;
        }
}
