/* Presorted input for PSRS: the scan and the verdict (psrs_runs.h). PSRS
 * on input already in order moves every element through the exchange
 * and the merge although each stays where it is; IPS4o and pdqsort find
 * such input in one pass. The scan here is that pass, and the verdict
 * lets the master skip the exchange and the merge (sorted), or replace
 * them by one block move per worker (reverse order). */
#include "psrs_runs.h"

#include "local_sort.h"

/* Elements the scan compares before it asks whether the block can still
 * be presorted: branch-free within a chunk (the compiler vectorises the
 * plain cases), and random input leaves after one chunk. */
#define RUNS_CHUNK 1024

#define RUNS_INLINE static inline __attribute__((always_inline))

/* The mapped key of the raw bits @b of a key of type @t: floats by
 * IEEE totalOrder with the NaNs last, signed integers by their sign
 * flipped (local_sort.h), unsigned ones as they are. */
RUNS_INLINE uint64_t runs_key(sgl_dtype_t t, uint64_t b)
{
    switch (t) {
    case SGL_F64:
        return sgl__key_f64(b);
    case SGL_I64:
        return sgl__key_i64(b);
    case SGL_F32:
        return sgl__key_f32((uint32_t)b);
    default:
        return b;
    }
}

RUNS_INLINE uint64_t key_at(sgl_dtype_t t, const unsigned char *a, size_t i,
                            size_t es, size_t ko)
{
    return runs_key(t, rec_key_at(a + i * es, ko, t != SGL_F32));
}

/* Plain elements are their key (of 8 bytes, 4 for SGL_F32): equal keys
 * are equal elements. Records carry theirs at L->ko. */
static int plain(sgl_dtype_t t, const struct rec_layout *L)
{
    return L->es == (t == SGL_F32 ? 4u : 8u);
}

/* The shape of a[0..n) (RUNS_UP | RUNS_DOWN bits); inlined per layout
 * with constant @t and @es, so that the key mapping is hoisted. */
RUNS_INLINE unsigned scan(sgl_dtype_t t, const unsigned char *a, size_t n,
                          size_t es, size_t ko)
{
    unsigned shape = RUNS_UP | RUNS_DOWN;
    for (size_t i = 1; i < n && shape;) {
        size_t end = n - i < RUNS_CHUNK ? n : i + RUNS_CHUNK;
        size_t up = 0, down = 0;
        for (; i < end; i++) {
            uint64_t x = key_at(t, a, i - 1, es, ko);
            uint64_t y = key_at(t, a, i, es, ko);
            up += x < y;
            down += y < x;
        }
        if (down)
            shape &= ~(unsigned)RUNS_UP;
        if (up)
            shape &= ~(unsigned)RUNS_DOWN;
    }
    return shape;
}

/* The scan of plain keys, one copy per key type. The library is built
 * for the baseline x86-64, which has no 64-bit vector compare: there the
 * scan of sorted doubles ran at 6.4 ms per 5e6, against 1.44 ms built
 * with AVX2 (one thread, -O3, the same loop; load 14): on a presorted
 * block the scan is all the sort does, so where the CPU has AVX2 a copy
 * built for it runs. */
RUNS_INLINE unsigned scan_plain(sgl_dtype_t t, const unsigned char *p,
                                size_t n)
{
    if (t == SGL_F64)
        return scan(SGL_F64, p, n, 8, 0);
    if (t == SGL_I64)
        return scan(SGL_I64, p, n, 8, 0);
    if (t == SGL_U64)
        return scan(SGL_U64, p, n, 8, 0);
    return scan(SGL_F32, p, n, 4, 0);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) static unsigned
scan_plain_avx2(sgl_dtype_t t, const unsigned char *p, size_t n)
{
    return scan_plain(t, p, n);
}

static unsigned scan_plain_best(sgl_dtype_t t, const unsigned char *p,
                                size_t n)
{
    if (__builtin_cpu_supports("avx2"))
        return scan_plain_avx2(t, p, n);
    return scan_plain(t, p, n);
}
#else
static unsigned scan_plain_best(sgl_dtype_t t, const unsigned char *p,
                                size_t n)
{
    return scan_plain(t, p, n);
}
#endif

void sgl__runs_classify(sgl_dtype_t t, const struct rec_layout *L,
                        const void *a, size_t n, struct runs_unit *u)
{
    const unsigned char *p = a;
    unsigned shape = plain(t, L) ? scan_plain_best(t, p, n)
                                 : scan(t, p, n, L->es, L->ko);
    *u = (struct runs_unit){n, shape, 0, 0};
    if (n) {
        u->first = key_at(t, p, 0, L->es, L->ko);
        u->last = key_at(t, p, n - 1, L->es, L->ko);
    }
}

/* The pairs of the chunk [c0, c1) of the front half of a[0..n) and of
 * its mirror in the back half where the key goes up: the front pairs
 * (i, i+1) and the back pairs (n-2-i, n-1-i), together every adjacent
 * pair once the halves are done. Reads only elements not yet swapped. */
RUNS_INLINE size_t up_pairs(sgl_dtype_t t, const unsigned char *a, size_t n,
                            size_t es, size_t c0, size_t c1)
{
    size_t up = 0;
    for (size_t i = c0; i < c1; i++) {
        up += key_at(t, a, i, es, 0) < key_at(t, a, i + 1, es, 0);
        up += key_at(t, a, n - 2 - i, es, 0) < key_at(t, a, n - 1 - i, es, 0);
    }
    return up;
}

/* Swap a[i] and a[n-1-i] for i in [c0, c1). */
RUNS_INLINE void swap_ends(unsigned char *a, size_t n, size_t es, size_t c0,
                           size_t c1)
{
    if (es == 8) {
        uint64_t *d = (uint64_t *)(void *)a;
        for (size_t i = c0; i < c1; i++) {
            uint64_t x = d[i];
            d[i] = d[n - 1 - i];
            d[n - 1 - i] = x;
        }
        return;
    }
    uint32_t *d = (uint32_t *)(void *)a;
    for (size_t i = c0; i < c1; i++) {
        uint32_t x = d[i];
        d[i] = d[n - 1 - i];
        d[n - 1 - i] = x;
    }
}

/* Reverse a[0..n) in place if its keys never go up, chunk by chunk from
 * both ends, each chunk checked before it is swapped; else undo the
 * chunks swapped so far (the block as it came: a record sort's equal
 * keys keep their order, a local sort sees what came) and return 0. */
RUNS_INLINE int reverse_down(sgl_dtype_t t, unsigned char *a, size_t n,
                             size_t es)
{
    size_t half = n / 2;
    for (size_t c0 = 0; c0 < half; c0 += RUNS_CHUNK) {
        size_t c1 = half - c0 < RUNS_CHUNK ? half : c0 + RUNS_CHUNK;
        if (up_pairs(t, a, n, es, c0, c1)) {
            swap_ends(a, n, es, 0, c0);
            return 0;
        }
        swap_ends(a, n, es, c0, c1);
    }
    return 1;
}

/* reverse_down() of plain keys, one copy per key type (as scan_plain()). */
RUNS_INLINE int reverse_plain(sgl_dtype_t t, unsigned char *p, size_t n)
{
    if (t == SGL_F64)
        return reverse_down(SGL_F64, p, n, 8);
    if (t == SGL_I64)
        return reverse_down(SGL_I64, p, n, 8);
    if (t == SGL_U64)
        return reverse_down(SGL_U64, p, n, 8);
    return reverse_down(SGL_F32, p, n, 4);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) static int
reverse_plain_avx2(sgl_dtype_t t, unsigned char *p, size_t n)
{
    return reverse_plain(t, p, n);
}

static int reverse_plain_best(sgl_dtype_t t, unsigned char *p, size_t n)
{
    if (__builtin_cpu_supports("avx2"))
        return reverse_plain_avx2(t, p, n);
    return reverse_plain(t, p, n);
}
#else
static int reverse_plain_best(sgl_dtype_t t, unsigned char *p, size_t n)
{
    return reverse_plain(t, p, n);
}
#endif

void sgl__runs_reverse_plain(void *a, size_t n, size_t es)
{
    swap_ends(a, n, es, 0, n / 2);
}

int sgl__runs_classify_reverse(sgl_dtype_t t, const struct rec_layout *L,
                               void *a, size_t n, struct runs_unit *u)
{
    unsigned char *p = a;
    size_t head = n < RUNS_CHUNK + 1 ? n : RUNS_CHUNK + 1;
    /* The first chunk decides whether the fused pass is worth its try:
     * random input and input in order leave here. */
    if (!plain(t, L) || scan_plain_best(t, p, head) != RUNS_DOWN) {
        sgl__runs_classify(t, L, a, n, u);
        return 0;
    }
    *u = (struct runs_unit){n, 0, key_at(t, p, 0, L->es, 0),
                            key_at(t, p, n - 1, L->es, 0)};
    int done = reverse_plain_best(t, p, n);
    u->shape = done ? RUNS_DOWN : 0;
    return done;
}

/* Whether the nonempty blocks all have shape @dir and follow each other
 * in it: in order, the next block's first key is not below the last key
 * before it; in reverse order, not above it (@strict: below it). */
static int in_order(const struct runs_unit *u, size_t p, unsigned dir,
                    int strict)
{
    int have = 0;
    uint64_t prev = 0;
    for (size_t w = 0; w < p; w++) {
        if (!u[w].count)
            continue;
        if (!(u[w].shape & dir))
            return 0;
        if (have && dir == RUNS_UP && u[w].first < prev)
            return 0;
        if (have && dir == RUNS_DOWN &&
            (u[w].first > prev || (strict && u[w].first == prev)))
            return 0;
        prev = u[w].last;
        have = 1;
    }
    return 1;
}

/* Whether every worker's new block (its own, or with @mirror its
 * mirror's, P-1-w) stays within 1/16 (+ 2) of its share: the bound of the
 * by-level variant, tighter than the flat 2n/P + P, so that skipping the
 * sample step never leaves a worker more than the sort would have. */
static int fits(const struct runs_unit *u, size_t p, const uint64_t *share,
                int mirror)
{
    for (size_t w = 0; w < p; w++) {
        uint64_t got = u[mirror ? p - 1 - w : w].count;
        if (got > share[w] + share[w] / 16 + 2)
            return 0;
    }
    return 1;
}

unsigned sgl__runs_verdict(const struct runs_unit *u, size_t p,
                           const uint64_t *share, int strict)
{
    if (in_order(u, p, RUNS_UP, 0) && fits(u, p, share, 0))
        return SGL_SORT_PATH_SORTED;
    if (in_order(u, p, RUNS_DOWN, strict) && fits(u, p, share, 1))
        return SGL_SORT_PATH_REVERSED;
    return SGL_SORT_PATH_SAMPLES;
}
