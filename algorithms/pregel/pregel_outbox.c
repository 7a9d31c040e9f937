/* The messages a worker's vertices send in one superstep, combined per
 * target as they are sent. Slots are indexed by the target itself where
 * one slot per vertex of the graph fits in OUTBOX_DENSE_BYTES (a send is
 * then an indexed combine), else by an open-addressing hash of it. Either
 * way the slots in use are listed in the order of their first message, so
 * that what is staged does not depend on the table's layout. */
#include <stdlib.h>
#include <string.h>

#include "pregel_impl.h"

#define OUTBOX_DENSE_BYTES ((size_t)64 << 20)

int sgl__outbox_init(struct outbox *o, uint64_t n, size_t ms)
{
    sgl__outbox_free(o);
    o->ms = ms;
    if (n * (ms + sizeof *o->hits) <= OUTBOX_DENSE_BYTES) {
        o->dense = 1;
        o->cap = (size_t)n;
        o->hits = calloc(o->cap ? o->cap : 1, sizeof *o->hits);
        o->msg = malloc((o->cap ? o->cap : 1) * ms);
        if (!o->hits || !o->msg)
            return sgl_error_set(SGL_ENOMEM, "out of memory for messages");
    }
    return SGL_OK;
}

void sgl__outbox_free(struct outbox *o)
{
    free(o->key);
    free(o->hits);
    free(o->msg);
    free(o->slot);
    memset(o, 0, sizeof *o);
}

static size_t hash_of(uint64_t target, size_t cap)
{
    return (size_t)((target * UINT64_C(0x9E3779B97F4A7C15)) >> 17) &
           (cap - 1);
}

/* Double the hash table, keeping every slot's contents and the order of
 * the list. */
static int grow(struct outbox *o)
{
    size_t cap = o->cap ? 2 * o->cap : 1024, ms = o->ms;
    uint64_t *key = calloc(cap, sizeof *key);
    uint32_t *hits = malloc(cap * sizeof *hits);
    unsigned char *msg = malloc(cap * ms);
    if (!key || !hits || !msg) {
        free(key), free(hits), free(msg);
        return sgl_error_set(SGL_ENOMEM, "out of memory for messages");
    }
    for (size_t k = 0; k < o->used; k++) {
        size_t old = o->slot[k], s = hash_of(o->key[old] - 1, cap);
        while (key[s])
            s = (s + 1) & (cap - 1);
        key[s] = o->key[old];
        hits[s] = o->hits[old];
        memcpy(msg + s * ms, o->msg + old * ms, ms);
        o->slot[k] = s;
    }
    free(o->key), free(o->hits), free(o->msg);
    o->key = key;
    o->hits = hits;
    o->msg = msg;
    o->cap = cap;
    return SGL_OK;
}

/* The slot of @target, or where it goes. */
static size_t find(const struct outbox *o, uint64_t target)
{
    if (o->dense)
        return (size_t)target;
    size_t s = hash_of(target, o->cap);
    while (o->key[s] && o->key[s] != target + 1)
        s = (s + 1) & (o->cap - 1);
    return s;
}

int sgl__outbox_add(struct outbox *o, uint64_t target, const void *msg,
                    void (*combine)(void *, const void *))
{
    return sgl__outbox_add_n(o, target, msg, 1, combine);
}

int sgl__outbox_add_n(struct outbox *o, uint64_t target, const void *msg,
                      uint32_t n, void (*combine)(void *, const void *))
{
    if (!o->dense && 2 * (o->used + 1) > o->cap)
        SGL_TRY(grow(o));
    if (o->used == o->slot_cap) {
        size_t c = o->slot_cap ? 2 * o->slot_cap : 1024;
        size_t *t = realloc(o->slot, c * sizeof *t);
        if (!t)
            return sgl_error_set(SGL_ENOMEM, "out of memory for messages");
        o->slot = t;
        o->slot_cap = c;
    }
    size_t s = find(o, target);
    o->raw += n;
    if (o->hits[s]) {
        combine(o->msg + s * o->ms, msg);
        o->hits[s] += n;
        return SGL_OK;
    }
    if (!o->dense)
        o->key[s] = target + 1;
    o->hits[s] = n;
    memcpy(o->msg + s * o->ms, msg, o->ms);
    o->slot[o->used++] = s;
    return SGL_OK;
}

uint64_t sgl__outbox_target(const struct outbox *o, size_t k)
{
    return o->dense ? o->slot[k] : o->key[o->slot[k]] - 1;
}

void sgl__outbox_clear(struct outbox *o)
{
    for (size_t k = 0; k < o->used; k++) {
        o->hits[o->slot[k]] = 0;
        if (!o->dense)
            o->key[o->slot[k]] = 0;
    }
    o->used = 0;
    o->raw = 0;
}
