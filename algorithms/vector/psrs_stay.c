/* The stay path of PSRS (psrs_stay.h). On almost sorted input (IPS4o's:
 * sqrt(n) random swaps) all but a few thousand of a worker's elements
 * belong to it after the split, yet the exchange copied every one into a
 * fresh receive buffer (a page fault per page) and the merge copied it
 * back: two copies of the block where the few that leave and arrive
 * need none. Here the block stays, the leavers go from where they lie,
 * and one pass shifts the part that stayed to make room for the
 * arrivals. */
#include "psrs_stay.h"

#include <stdlib.h>
#include <string.h>

#include <sgl/blocks.h>

#include "local_sort.h"

int sgl__stay_chosen(const size_t *count, size_t k, size_t own, size_t m)
{
    size_t below = 0, above = 0;
    for (size_t i = 0; i < k; i++) {
        if (i < own)
            below += count[i];
        else if (i > own)
            above += count[i];
    }
    if (!count[own] || (below && above))
        return 0;
    return below + above <= m / 16;
}

/* The key of element @i of @a (plain, key type @t, @es bytes). */
static uint64_t key_at(sgl_dtype_t t, size_t es, const void *a, size_t i)
{
    if (es == 4) {
        uint32_t b;
        memcpy(&b, (const char *)a + 4 * i, 4);
        return t == SGL_F32 ? sgl__key_f32(b) : b;
    }
    uint64_t b;
    memcpy(&b, (const char *)a + 8 * i, 8);
    return t == SGL_F64 ? sgl__key_f64(b) : t == SGL_I64 ? sgl__key_i64(b) : b;
}

/* First element of the sorted a[lo..hi) with key > @k, found from @lo
 * up (@up) or from @hi down by galloping: arrivals lie close to each
 * other's places, and a binary search over the whole part missed the
 * cache on every step (1e5 arrivals into 5e6 doubles: 57 ms). */
static size_t above(sgl_dtype_t t, size_t es, const char *a, size_t lo,
                    size_t hi, uint64_t k, int up)
{
    size_t step = 1;
    if (up) {
        while (step < hi - lo && key_at(t, es, a, lo + step - 1) <= k)
            step *= 2;
        size_t top = step < hi - lo ? lo + step : hi;
        lo += step / 2;
        hi = top;
    } else {
        while (step < hi - lo && key_at(t, es, a, hi - step) > k)
            step *= 2;
        size_t bot = step < hi - lo ? hi - step : lo;
        hi -= step / 2;
        lo = bot;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_at(t, es, a, mid) <= k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Arrival j goes after the part's elements up to ub_j (those with keys
 * not above its own): to ub_j - lo + j. The stretch of the part before
 * it, [ub_{j-1}, ub_j), moves by j - lo: left for j < lo, taken front to
 * back, right for j > lo, taken back to front, so that no move
 * overwrites what is still to be read. */
static void shift_in(sgl_dtype_t t, size_t es, char *a, size_t lo, size_t hi,
                     const char *in, size_t n)
{
    size_t from = lo, j = 0;
    for (; j < n && j < lo; j++) {
        size_t ub = above(t, es, a, from, hi, key_at(t, es, in, j), 1);
        memmove(a + (from - lo + j) * es, a + from * es, (ub - from) * es);
        memcpy(a + (ub - lo + j) * es, in + j * es, es);
        from = ub;
    }
    if (j == n) { /* the rest of the part moves by n - lo */
        memmove(a + (from - lo + n) * es, a + from * es, (hi - from) * es);
        return;
    }
    size_t to = hi;
    for (size_t i = n; i > j; i--) { /* right, from the top down */
        size_t ub = above(t, es, a, from, to, key_at(t, es, in, i - 1), 0);
        memmove(a + (ub - lo + i) * es, a + ub * es, (to - ub) * es);
        memcpy(a + (ub - lo + i - 1) * es, in + (i - 1) * es, es);
        to = ub;
    }
    /* Left here: [from, to), before arrival j == lo, which moves by 0. */
}

/* Many arrivals (more than 1/16 of the part, as where a worker that kept
 * its block receives half of another's): a plain two-way merge into fresh
 * memory, one pass, where a gallop and a move per arrival would cost far
 * more. */
static int merge_out(sgl_dtype_t t, size_t es, void **a, size_t *cap,
                     size_t lo, size_t hi, const char *in, size_t n)
{
    size_t m = hi - lo + n;
    char *d = sgl_mem_alloc(m * es);
    if (!d)
        return sgl_error_set(SGL_ENOMEM,
                             "sort: out of memory for a block of %zu "
                             "elements",
                             m);
    const char *p = (const char *)*a;
    size_t i = lo, j = 0, o = 0;
    while (i < hi && j < n) {
        int take_in = key_at(t, es, in, j) < key_at(t, es, p, i);
        memcpy(d + o++ * es, take_in ? in + j++ * es : p + i++ * es, es);
    }
    memcpy(d + o * es, p + i * es, (hi - i) * es);
    memcpy(d + (o + hi - i) * es, in + j * es, (n - j) * es);
    free(*a);
    *a = d;
    *cap = m;
    return SGL_OK;
}

/* Where the merged block does not fit in the block's memory, the block
 * grows by realloc(): a large block comes from sgl_mem_alloc(), an
 * mmap()ed chunk that glibc grows with mremap(), without a copy (5e6
 * doubles plus 1581: 0.02 ms, load 14). */
int sgl__stay_merge(sgl_dtype_t t, size_t es, void **a, size_t *cap,
                    size_t lo, size_t hi, const void *in, size_t n,
                    size_t *ret_m)
{
    size_t m = hi - lo + n;
    if (n > (hi - lo) / 16) {
        SGL_TRY(merge_out(t, es, a, cap, lo, hi, in, n));
        *ret_m = m;
        return SGL_OK;
    }
    if (m > *cap) {
        void *g = realloc(*a, m * es);
        if (!g)
            return sgl_error_set(SGL_ENOMEM,
                                 "sort: out of memory to grow a block to "
                                 "%zu elements",
                                 m);
        *a = g;
        *cap = m;
    }
    shift_in(t, es, *a, lo, hi, in, n);
    *ret_m = m;
    return SGL_OK;
}
