/* The local sort of blocks with few distinct keys (internal): a counting
 * sort over a hash table of the distinct keys, IPS4o's equality buckets
 * taken to their end. Few-unique, root-duplicate and similar blocks pay
 * the radix sort's passes over memory (range, histogram, scatter, one or
 * more recursions per key bit that varies) for keys that a table of a
 * few thousand entries names exactly; here they cost one counting pass
 * and one writing pass (plain keys) or a stable scatter (records).
 *
 * The table holds at most FEW_MAX keys; the counting pass gives up at the
 * first key beyond that, and then nothing has been written: random keys
 * give up after FEW_MAX + 1 elements, and the worst case (the key that
 * overflows the table comes last) costs one read pass. */
#include "local_few.h"

#include <stdlib.h>
#include <string.h>

#include "local_sort.h"
#include "records.h"
#include <sgl/errors.h>

/* 4096 keys in 8192 slots of 24 bytes: 192 KiB, within the reference
 * VM's 512 KiB L2, so that the probes of a block of a few thousand
 * distinct keys (root duplicates of 1e7: 3163) stay out of memory. */
#define FEW_BITS 13
#define FEW_SLOTS ((size_t)1 << FEW_BITS)
#define FEW_MAX (FEW_SLOTS / 2)

#define FEW_INLINE static inline __attribute__((always_inline))

struct few {
    uint64_t key[FEW_SLOTS]; /* mapped key */
    uint64_t raw[FEW_SLOTS]; /* the key's bits as stored */
    size_t cnt[FEW_SLOTS];   /* 0: empty; then the count; then the offset */
    size_t nkeys;
    size_t total;
    size_t order[FEW_MAX];    /* occupied slots, then in key order */
    uint64_t pair[2 * FEW_MAX]; /* (key, slot) pairs for the sort */
};

FEW_INLINE uint64_t few_key(const unsigned char *e, size_t ko, int wide,
                            unsigned map, uint64_t *raw)
{
    uint64_t k = rec_key_at(e, ko, wide);
    *raw = k;
    switch (map) {
    case SGL__KEYMAP_F64:
        return sgl__key_f64(k);
    case SGL__KEYMAP_I64:
        return sgl__key_i64(k);
    case SGL__KEYMAP_F32:
        return sgl__key_f32((uint32_t)k);
    default:
        return k;
    }
}

FEW_INLINE size_t few_slot(const struct few *t, uint64_t k)
{
    size_t h = (size_t)((k * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - FEW_BITS));
    while (t->cnt[h] && t->key[h] != k)
        h = (h + 1) & (FEW_SLOTS - 1);
    return h;
}

/* The counting pass: 0 once a key finds the table full. */
FEW_INLINE int few_count(struct few *t, const unsigned char *a, size_t n,
                         size_t es, size_t ko, int wide, unsigned map)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t raw, k = few_key(a + i * es, ko, wide, map, &raw);
        size_t h = few_slot(t, k);
        if (!t->cnt[h]) {
            if (t->nkeys == FEW_MAX)
                return 0;
            t->key[h] = k;
            t->raw[h] = raw;
            t->order[t->nkeys++] = h;
        }
        t->cnt[h]++;
    }
    return 1;
}

static int few_cmp_pair(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Occupied slots in key order (qsort: at most FEW_MAX distinct keys,
 * nothing beside the n-element passes), and the counts turned into the
 * offsets of their runs. */
static void few_order(struct few *t)
{
    for (size_t i = 0; i < t->nkeys; i++) {
        t->pair[2 * i] = t->key[t->order[i]];
        t->pair[2 * i + 1] = t->order[i];
    }
    qsort(t->pair, t->nkeys, 2 * sizeof *t->pair, few_cmp_pair);
    size_t off = 0;
    for (size_t i = 0; i < t->nkeys; i++) {
        size_t h = (size_t)t->pair[2 * i + 1], c = t->cnt[h];
        t->order[i] = h;
        t->cnt[h] = off;
        off += c;
    }
}

/* Plain keys: equal keys are equal elements, so the runs are written from
 * the table, without reading the block again. */
static void few_fill(const struct few *t, unsigned char *a, size_t es)
{
    for (size_t i = 0; i < t->nkeys; i++) {
        size_t h = t->order[i];
        size_t b = t->cnt[h];
        size_t e = i + 1 < t->nkeys ? t->cnt[t->order[i + 1]] : t->total;
        if (es == 8) {
            uint64_t *d = (uint64_t *)(void *)a;
            for (size_t j = b; j < e; j++)
                d[j] = t->raw[h];
        } else {
            uint32_t *d = (uint32_t *)(void *)a, v = (uint32_t)t->raw[h];
            for (size_t j = b; j < e; j++)
                d[j] = v;
        }
    }
}

/* Records: a stable scatter by the offsets, then back into place. */
FEW_INLINE void few_scatter(struct few *t, const unsigned char *a,
                            unsigned char *tmp, size_t n, size_t es,
                            size_t ko, int wide, unsigned map)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t raw, k = few_key(a + i * es, ko, wide, map, &raw);
        memcpy(tmp + t->cnt[few_slot(t, k)]++ * es, a + i * es, es);
    }
}

/* The passes with the layout's constants, so that each instance maps its
 * keys without a branch. */
FEW_INLINE int few_body(struct few *t, unsigned char *a, size_t n, size_t es,
                        size_t ko, int wide, unsigned map)
{
    if (!few_count(t, a, n, es, ko, wide, map))
        return 0;
    few_order(t);
    if (es == (wide ? 8u : 4u)) {
        few_fill(t, a, es);
        return 1;
    }
    unsigned char *tmp = malloc(n * es);
    if (!tmp)
        return 0; /* the radix sort reports the shortage */
    few_scatter(t, a, tmp, n, es, ko, wide, map);
    memcpy(a, tmp, n * es);
    free(tmp);
    return 1;
}

int sgl__algo_sort_few(void *a, size_t n, size_t es, size_t ko,
                       unsigned key_bytes, unsigned map)
{
    if (n < FEW_MIN_N)
        return 0;
    struct few *t = malloc(sizeof *t);
    if (!t)
        return 0;
    memset(t->cnt, 0, sizeof t->cnt);
    t->nkeys = 0;
    t->total = n;
    int wide = key_bytes == 8, ok;
    if (map == SGL__KEYMAP_F64)
        ok = few_body(t, a, n, 8, 0, 1, SGL__KEYMAP_F64);
    else if (map == SGL__KEYMAP_I64)
        ok = few_body(t, a, n, 8, 0, 1, SGL__KEYMAP_I64);
    else if (map == SGL__KEYMAP_F32)
        ok = few_body(t, a, n, 4, 0, 0, SGL__KEYMAP_F32);
    else if (es == 8 && wide)
        ok = few_body(t, a, n, 8, 0, 1, SGL__KEYMAP_NONE);
    else
        ok = few_body(t, a, n, es, ko, wide, SGL__KEYMAP_NONE);
    free(t);
    return ok;
}
