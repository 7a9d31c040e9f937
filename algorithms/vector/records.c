/* Record kernels of PSRS: the sort is an LSD radix sort that moves whole
 * records, so it is stable (PSRS relies on it: ties between records are
 * broken by their position) and needs one buffer of the block's size; the
 * merge breaks ties by run, which keeps the global order of equal keys. */
#include "records.h"

#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"

#define DIGIT_BITS 11
#define DIGITS (1u << DIGIT_BITS)

uint64_t sgl__rec_key(const struct rec_layout *L, const void *a, size_t i)
{
    return rec_key_at((const char *)a + i * L->es, L->ko, L->wide);
}

/* Insertion sort of short blocks: stable, no buffer. */
static void insertion(const struct rec_layout *L, char *a, size_t n,
                      char *tmp)
{
    size_t es = L->es;
    for (size_t i = 1; i < n; i++) {
        uint64_t k = sgl__rec_key(L, a, i);
        size_t j = i;
        while (j > 0 && sgl__rec_key(L, a, j - 1) > k)
            j--;
        if (j == i)
            continue;
        memcpy(tmp, a + i * es, es);
        memmove(a + (j + 1) * es, a + j * es, (i - j) * es);
        memcpy(a + j * es, tmp, es);
    }
}

int sgl__rec_sort(const struct rec_layout *L, void *data, size_t n)
{
    size_t es = L->es;
    char *a = data;
    if (n < 2)
        return SGL_OK;
    if (n < 32) {
        char tmp[256];
        if (es <= sizeof tmp) {
            insertion(L, a, n, tmp);
            return SGL_OK;
        }
    }
    unsigned passes = L->wide ? 6 : 3;
    char *buf = malloc(n * es);
    size_t(*h)[DIGITS] = calloc(passes, sizeof *h);
    if (!buf || !h) {
        free(buf);
        free(h);
        return sgl_error_set(SGL_ENOMEM, "sort: out of memory for %zu "
                                         "records of %zu bytes",
                             n, es);
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t k = sgl__rec_key(L, a, i);
        for (unsigned p = 0; p < passes; p++)
            h[p][(k >> (p * DIGIT_BITS)) & (DIGITS - 1)]++;
    }
    char *src = a, *dst = buf;
    for (unsigned p = 0; p < passes; p++) {
        unsigned sh = p * DIGIT_BITS;
        size_t *hp = h[p];
        /* A digit every record shares moves nothing. */
        if (hp[(sgl__rec_key(L, src, 0) >> sh) & (DIGITS - 1)] == n)
            continue;
        size_t sum = 0;
        for (unsigned d = 0; d < DIGITS; d++) {
            size_t c = hp[d];
            hp[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            size_t d = (sgl__rec_key(L, src, i) >> sh) & (DIGITS - 1);
            memcpy(dst + hp[d]++ * es, src + i * es, es);
        }
        char *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * es);
    free(buf);
    free(h);
    return SGL_OK;
}

size_t sgl__rec_bound(const struct rec_layout *L, const void *a, size_t n,
                      uint64_t k, int upper)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t m = sgl__rec_key(L, a, mid);
        if (m < k || (upper && m == k))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Run @s before run @t: smaller head key, then lower run number. */
static int before(const struct rec_layout *L, const char *in,
                  const size_t *pos, size_t s, size_t t)
{
    uint64_t a = sgl__rec_key(L, in, pos[s]), b = sgl__rec_key(L, in, pos[t]);
    return a < b || (a == b && s < t);
}

void sgl__rec_merge(const struct rec_layout *L, const void *data,
                    const uint64_t *len, size_t p, void *out_data,
                    size_t *scratch)
{
    const char *in = data;
    char *out = out_data;
    size_t es = L->es;
    size_t *heap = scratch, *pos = scratch + p, *end = scratch + 2 * p;
    size_t off = 0, nh = 0;
    for (size_t s = 0; s < p; s++) {
        pos[s] = off;
        off += len[s];
        end[s] = off;
    }
    /* A binary min-heap of run numbers, ordered by (head key, run). */
    for (size_t s = 0; s < p; s++) {
        if (pos[s] == end[s])
            continue;
        size_t c = nh++;
        while (c > 0 && before(L, in, pos, s, heap[(c - 1) / 2])) {
            heap[c] = heap[(c - 1) / 2];
            c = (c - 1) / 2;
        }
        heap[c] = s;
    }
    while (nh > 0) {
        size_t s = heap[0];
        memcpy(out, in + pos[s]++ * es, es);
        out += es;
        if (pos[s] == end[s])
            s = heap[--nh];
        if (nh == 0)
            break;
        size_t c = 0;
        for (;;) {
            size_t l = 2 * c + 1, m = s, at = c;
            if (l < nh && before(L, in, pos, heap[l], m))
                m = heap[l], at = l;
            if (l + 1 < nh && before(L, in, pos, heap[l + 1], m))
                m = heap[l + 1], at = l + 1;
            if (at == c)
                break;
            heap[c] = m;
            c = at;
        }
        heap[c] = s;
    }
}

/* Swap records @l and @r of @es bytes, a piece of at most 64 bytes at a
 * time: no buffer to allocate, whatever the record size. */
static void swap_records(char *a, size_t l, size_t r, size_t es)
{
    char tmp[64];
    for (size_t o = 0; o < es; o += sizeof tmp) {
        size_t k = es - o < sizeof tmp ? es - o : sizeof tmp;
        memcpy(tmp, a + l * es + o, k);
        memcpy(a + l * es + o, a + r * es + o, k);
        memcpy(a + r * es + o, tmp, k);
    }
}

void sgl__rec_reverse(const struct rec_layout *L, void *data, size_t n)
{
    for (size_t i = 0, j = n ? n - 1 : 0; i < j; i++, j--)
        swap_records(data, i, j, L->es);
}

void sgl__rec_unreverse_equal(const struct rec_layout *L, void *data, size_t n)
{
    char *a = data;
    for (size_t l = 0, r; l < n; l = r + 1) {
        uint64_t k = sgl__rec_key(L, a, l);
        for (r = l; r + 1 < n && sgl__rec_key(L, a, r + 1) == k;)
            r++;
        sgl__rec_reverse(L, a + l * L->es, r - l + 1);
    }
}
