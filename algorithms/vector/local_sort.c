/* Local sort kernels of PSRS: radix sorts of unsigned keys and of records
 * by an unsigned key, lower/upper bounds, and the p-way merge.
 *
 * The sort is a most-significant-digit radix sort that works on key ranges:
 * each segment first finds its minimum, maximum and varying bits in one
 * pass, and every digit is one of (key - min), so a segment's digits cover
 * only its own range and constant bits cost nothing. Then, by the segment's
 * size:
 *   - far larger than the cache: a splitter pass, a 14-bit histogram whose
 *     digit values are grouped into ~1024 buckets of nearly equal size (the
 *     exponents of doubles in [0,1) put half of the keys under one value;
 *     near-uniform keys take the plain top 10 bits, cheaper to scatter);
 *   - up to L3 size, with few varying bits: LSD passes (at most 3 digits
 *     of <= 12 bits; 32-bit keys mostly);
 *   - otherwise one MSD pass of about log2(m) bits (<= 12): buckets then
 *     hold one or two keys on average. Buckets above LS_RUN keys recurse;
 *     the runs of small buckets between them are nearly sorted and one
 *     insertion pass finishes them while copying them into place.
 * Whole arrays of 32-bit keys up to L3 size skip the range pass: three raw
 * 11-bit LSD digits. Input already in order, or in reverse order, is found
 * first (one pass; random input leaves after a few elements). Segments
 * that fit LS_CACHE are scattered into a small scratch buffer that stays
 * in cache. Every pass is a stable counting scatter and the insertion
 * sort is stable, so the record sort is stable.
 *
 * Cost, uniform 64-bit keys: about 4 passes over memory (range, histogram,
 * scatter, then each cache-sized bucket read once and written into place)
 * plus in-cache work. Measured (bench/bench_local_sort, one thread, the
 * reference VM): 12-17 ns per key for random 64-bit keys and doubles in
 * [0,1) at 1e5..1e7, against 16-37 ns for the 11-bit LSD sort it replaces
 * and 55-77 ns for std::sort; 32-bit keys 5-15 ns, as the LSD sort or
 * better; 16- and 32-byte records 16-33 ns.
 * Memory: one buffer of the input's size (2 MiB aligned and advised for
 * transparent huge pages when >= 4 MiB: fewer page faults and TLB misses on
 * the scatter) and about 0.7 MiB of counters and scratch. */
#include "local_sort.h"

#include "local_few.h"

#include <stdlib.h>
#include <string.h>

#include "records.h"
#include <sgl/algorithms.h> /* SGL_SORT_LOCAL_* */
#include <sgl/errors.h>
#include <sgl/sgl.h> /* sgl_mem_alloc() */
#include <sgl/blocks.h>

/* Tuning, measured on the reference VM (2-core AMD EPYC, 512 KiB L2,
 * 32 MiB L3; bench/bench_local_sort). Each can be overridden with -D for
 * tuning experiments. */
#ifndef LS_BITS
#define LS_BITS 12 /* widest digit */
#endif
#ifndef LS_INS
#define LS_INS 32 /* insertion sort up to this many elements */
#endif
#ifndef LS_RUN
#define LS_RUN 8 /* buckets up to this size join an insertion run */
#endif
#ifndef LS_CACHE
#define LS_CACHE ((size_t)192 << 10) /* bytes: in-cache segments, scratch */
#endif
#ifndef LS_LSD_BYTES
#define LS_LSD_BYTES ((size_t)16 << 20) /* bytes: LSD allowed up to this */
#endif
#ifndef LS_LSD_FILL
#define LS_LSD_FILL 2 /* LSD only with >= 2 elements per counter */
#endif
#ifndef LS_BIG
#define LS_BIG ((size_t)256 << 10) /* bytes: splitter pass above this */
#endif
#ifndef LS_POOL
#define LS_POOL (8 * LS_RADIX) /* MSD counters along one recursion path */
#endif
#define LS_RADIX (1u << LS_BITS)
#define LS_LSD_MAXP 3    /* at most this many LSD passes */
#define LS_TOPBITS 10    /* splitter: about 2^10 buckets */
#define LS_SPLIT_BITS 14 /* splitter histogram bits */
#define LS_SKEW 2        /* plain digit if no bucket exceeds 2x target */
#define LS_SPLIT_MAXB ((2u << LS_TOPBITS) + 2) /* splitter buckets, at most */
#define LS_RESERVE 130 /* pool entries kept for 1-bit digits */
#define LS_BUSY 2 /* seg flag: the scratch buffer is in use */

#define LS_INLINE static inline __attribute__((always_inline))

struct ls;
/* Sort the m elements at src; alt is the same-sized region of the other
 * buffer. flags bit 0: the result goes to alt (else back to src); LS_BUSY:
 * the scratch buffer is in use. used: pool counters taken by the callers. */
typedef void seg_fn(const struct ls *c, unsigned char *src, unsigned char *alt,
                    size_t m, int flags, size_t used);

/* kw, the key's width in bytes (4 or 8) in its low four bits, and above
 * them the bijection that turns the stored bits into the key: elements of
 * these sorts stay as they are, and every read maps the key. */
#define KW_BYTES(kw) ((kw) & 15u)
#define KW_F64 (8u | 16u)
#define KW_I64 (8u | 32u)
#define KW_F32 (4u | 16u)

struct ls {
    size_t es, ko; /* element size, key offset */
    unsigned kw;   /* key bytes and bijection (KW_*) */
    seg_fn *seg;   /* this layout's instance of seg_body */
    size_t *pool;  /* MSD counters, a stack along the recursion */
    size_t pool_n;
    size_t *lsd;   /* LS_LSD_MAXP x LS_RADIX counters */
    uint32_t *h14; /* splitter histogram and map; NULL: no splitter */
    uint16_t *map;
    unsigned char *scr; /* LS_CACHE bytes of scratch; NULL if unneeded */
    unsigned char *key_scr; /* mapped sorts: LS_CACHE bytes for a segment's
                               mapped keys; NULL otherwise */
};

LS_INLINE uint64_t key_at(const unsigned char *e, size_t ko, unsigned kw)
{
    uint64_t k = rec_key_at(e, ko, KW_BYTES(kw) == 8);
    switch (kw) {
    case KW_F64:
        return sgl__key_f64(k);
    case KW_I64:
        return sgl__key_i64(k);
    case KW_F32:
        return sgl__key_f32((uint32_t)k);
    default:
        return k;
    }
}

/* Insertion sort of s[0..m) into d[0..m) (d == s: in place); stable. */
LS_INLINE void ins_copy(unsigned char *d, const unsigned char *s, size_t m,
                        size_t es, size_t ko, unsigned kw)
{
    unsigned char t[ALGO_SORT_MAX_ES];
    for (size_t i = 0; i < m; i++) {
        uint64_t k = key_at(s + i * es, ko, kw);
        size_t j = i;
        if (j == 0 || key_at(d + (j - 1) * es, ko, kw) <= k) {
            if (d != s)
                memcpy(d + i * es, s + i * es, es);
            continue;
        }
        memcpy(t, s + i * es, es);
        do {
            memcpy(d + j * es, d + (j - 1) * es, es);
            j--;
        } while (j > 0 && key_at(d + (j - 1) * es, ko, kw) > k);
        memcpy(d + j * es, t, es);
    }
}

/* LSD radix sort of src[0..m) by the bits [lo, lo + width) of key - mn, in
 * np digits, ping-ponging between src and alt. */
LS_INLINE void lsd(const struct ls *c, unsigned char *src, unsigned char *alt,
                   size_t m, int want_alt, uint64_t mn, unsigned lo,
                   unsigned width, unsigned np, size_t es, size_t ko,
                   unsigned kw)
{
    unsigned dw = (width + np - 1) / np;
    size_t rad = (size_t)1 << dw, mask = rad - 1;
    size_t *h = c->lsd;
    memset(h, 0, np * rad * sizeof *h);
    /* One counting pass for all digits. */
    size_t *h1 = h + rad, *h2 = h + 2 * rad;
    if (np == 1)
        for (size_t i = 0; i < m; i++)
            h[((key_at(src + i * es, ko, kw) - mn) >> lo) & mask]++;
    else if (np == 2)
        for (size_t i = 0; i < m; i++) {
            uint64_t k = (key_at(src + i * es, ko, kw) - mn) >> lo;
            h[k & mask]++;
            h1[(k >> dw) & mask]++;
        }
    else
        for (size_t i = 0; i < m; i++) {
            uint64_t k = (key_at(src + i * es, ko, kw) - mn) >> lo;
            h[k & mask]++;
            h1[(k >> dw) & mask]++;
            h2[(k >> 2 * dw) & mask]++;
        }
    unsigned char *s = src, *d = alt;
    int in_alt = 0;
    for (unsigned p = 0; p < np; p++) {
        size_t *hp = h + p * rad;
        unsigned sh = lo + p * dw;
        if (hp[((key_at(s, ko, kw) - mn) >> sh) & mask] == m)
            continue; /* one digit value for all: nothing to move */
        size_t sum = 0;
        for (size_t b = 0; b < rad; b++) {
            size_t t = hp[b];
            hp[b] = sum;
            sum += t;
        }
        for (size_t i = 0; i < m; i++) {
            uint64_t k = key_at(s + i * es, ko, kw) - mn;
            memcpy(d + hp[(k >> sh) & mask]++ * es, s + i * es, es);
        }
        unsigned char *t = s;
        s = d;
        d = t;
        in_alt = !in_alt;
    }
    if (in_alt != want_alt)
        memcpy(d, s, m * es);
}

/* After a scatter into sc with bucket ends end[0..nb): buckets of more than
 * LS_RUN elements are sorted recursively into dst (their other buffer at
 * cab, with flags cflags); the runs of small buckets between them are
 * nearly sorted, and one insertion pass from sc into dst finishes them. */
LS_INLINE void children(const struct ls *c, unsigned char *sc,
                        unsigned char *cab, unsigned char *dst, size_t m,
                        int cflags, const size_t *end, size_t nb, size_t used,
                        size_t es, size_t ko, unsigned kw)
{
    size_t start = 0, rs = 0;
    for (size_t b = 0; b < nb; b++) {
        size_t e = end[b];
        if (e - start > LS_RUN) {
            if (start > rs)
                ins_copy(dst + rs * es, sc + rs * es, start - rs, es, ko, kw);
            c->seg(c, sc + start * es, cab + start * es, e - start, cflags,
                   used);
            rs = e;
        }
        start = e;
    }
    if (m > rs)
        ins_copy(dst + rs * es, sc + rs * es, m - rs, es, ko, kw);
}

/* Splitter pass of a segment far larger than the cache, keys in
 * [mn, mn + 2^rb). */
LS_INLINE void split(const struct ls *c, unsigned char *src, unsigned char *alt,
                     size_t m, int flags, uint64_t mn, unsigned rb, size_t used,
                     size_t es, size_t ko, unsigned kw)
{
    int want_alt = flags & 1, busy = flags & LS_BUSY;
    unsigned sw = rb < LS_SPLIT_BITS ? rb : LS_SPLIT_BITS;
    unsigned sh = rb - sw;
    size_t nd = (size_t)1 << sw;
    uint32_t *h = c->h14;
    memset(h, 0, nd * sizeof *h);
    for (size_t i = 0; i < m; i++)
        h[(key_at(src + i * es, ko, kw) - mn) >> sh]++;
    size_t target = (m + ((size_t)1 << LS_TOPBITS) - 1) >> LS_TOPBITS;
    size_t *pos = c->pool + used;
    size_t nb = 0, sum = 0;
    int plain = 0;
    if (sw > LS_TOPBITS) {
        unsigned gs = sw - LS_TOPBITS;
        size_t ng = (size_t)1 << LS_TOPBITS, gmax = 0;
        for (size_t g = 0; g < ng; g++) {
            size_t t = 0;
            for (size_t d = g << gs; d < (g + 1) << gs; d++)
                t += h[d];
            pos[g] = sum;
            sum += t;
            gmax = t > gmax ? t : gmax;
        }
        if (gmax <= LS_SKEW * target) {
            unsigned dsh = sh + gs;
            for (size_t i = 0; i < m; i++) {
                uint64_t k = key_at(src + i * es, ko, kw) - mn;
                memcpy(alt + pos[k >> dsh]++ * es, src + i * es, es);
            }
            nb = ng;
            plain = 1;
        }
    }
    if (!plain) {
        /* Group consecutive digit values into buckets of <= target keys
         * (a heavier single value is a bucket of its own). */
        uint16_t *map = c->map;
        size_t acc = 0;
        sum = 0;
        for (size_t d = 0; d < nd; d++) {
            size_t k = h[d];
            if (acc && acc + k > target) {
                pos[nb++] = sum;
                sum += acc;
                acc = 0;
            }
            map[d] = (uint16_t)nb;
            acc += k;
        }
        pos[nb++] = sum;
        for (size_t i = 0; i < m; i++) {
            uint64_t k = key_at(src + i * es, ko, kw) - mn;
            memcpy(alt + pos[map[k >> sh]]++ * es, src + i * es, es);
        }
    }
    children(c, alt, src, want_alt ? alt : src, m, (!want_alt) | busy, pos, nb,
             used + nb, es, ko, kw);
}

static seg_fn seg_k64, seg_k32;

/* The key maps on 16-byte vectors (GCC's vector extension: SSE2 on any
 * x86-64, NEON on ARM): the same branch-free arithmetic as sgl__key_f64()
 * and its kin, with the sign mask taken as 0 - (b >> 63), which needs no
 * 64-bit arithmetic shift. */
typedef uint64_t u64x2 __attribute__((vector_size(16)));
typedef uint32_t u32x4 __attribute__((vector_size(16)));

static inline u64x2 key_f64x2(u64x2 b)
{
    const u64x2 top = {SGL__TOP64, SGL__TOP64};
    const u64x2 nn = {SGL__NNAN64, SGL__NNAN64};
    u64x2 neg = (u64x2){0, 0} - (b >> 63);
    return (b ^ (neg | top)) - nn;
}

static inline u64x2 val_f64x2(u64x2 k)
{
    const u64x2 top = {SGL__TOP64, SGL__TOP64};
    const u64x2 nn = {SGL__NNAN64, SGL__NNAN64};
    k += nn;
    u64x2 pos = (u64x2){0, 0} - (k >> 63);
    return k ^ ~(pos & ~top);
}

static inline u64x2 key_i64x2(u64x2 b)
{
    const u64x2 top = {SGL__TOP64, SGL__TOP64};
    return b ^ top;
}

static inline u32x4 key_f32x4(u32x4 b)
{
    const u32x4 top = {SGL__TOP32, SGL__TOP32, SGL__TOP32, SGL__TOP32};
    const u32x4 nn = {SGL__NNAN32, SGL__NNAN32, SGL__NNAN32, SGL__NNAN32};
    u32x4 neg = (u32x4){0, 0, 0, 0} - (b >> 31);
    return (b ^ (neg | top)) - nn;
}

static inline u32x4 val_f32x4(u32x4 k)
{
    const u32x4 top = {SGL__TOP32, SGL__TOP32, SGL__TOP32, SGL__TOP32};
    const u32x4 nn = {SGL__NNAN32, SGL__NNAN32, SGL__NNAN32, SGL__NNAN32};
    k += nn;
    u32x4 pos = (u32x4){0, 0, 0, 0} - (k >> 31);
    return k ^ ~(pos & ~top);
}

/* Map the m plain keys at s to keys at d (to) or back (d may be s): a
 * vector at a time, the rest one by one; one loop per case, since the
 * compiler does not take the case out of a loop by itself. */
#define MAP_LOOP(T, VT, VF, F)                                                 \
    do {                                                                       \
        T *k = (T *)(void *)d;                                                 \
        const T *b = (const T *)(const void *)s;                               \
        size_t i = 0;                                                          \
        for (; i + sizeof(VT) / sizeof(T) <= m; i += sizeof(VT) / sizeof(T)) { \
            VT v;                                                              \
            memcpy(&v, b + i, sizeof v);                                       \
            v = VF(v);                                                         \
            memcpy(k + i, &v, sizeof v);                                       \
        }                                                                      \
        for (; i < m; i++)                                                     \
            k[i] = F(b[i]);                                                    \
    } while (0)

static void map_plain(unsigned char *d, const unsigned char *s, size_t m,
                      unsigned kw, int to)
{
    if (kw == KW_F32 && to)
        MAP_LOOP(uint32_t, u32x4, key_f32x4, sgl__key_f32);
    else if (kw == KW_F32)
        MAP_LOOP(uint32_t, u32x4, val_f32x4, sgl__val_f32);
    else if (kw == KW_I64)
        MAP_LOOP(uint64_t, u64x2, key_i64x2, sgl__key_i64);
    else if (to)
        MAP_LOOP(uint64_t, u64x2, key_f64x2, sgl__key_f64);
    else
        MAP_LOOP(uint64_t, u64x2, val_f64x2, sgl__val_f64);
}
#undef MAP_LOOP

/* A mapped sort's segment that fits the last-level cache (LS_LSD_BYTES):
 * its keys are mapped once, sorted as plain keys into their place and
 * mapped back there, rather than mapped on every read of the segment's
 * several passes. A cache-sized segment of a larger array is mapped into
 * the key scratch, so that src is only read (writing into it would cost
 * its lines' write-back to memory); any other, in place. */
static void seg_mapped(const struct ls *c, unsigned char *src,
                       unsigned char *alt, size_t m, int flags, size_t used)
{
    struct ls plain = *c;
    plain.kw = KW_BYTES(c->kw);
    plain.seg = plain.kw == 8 ? seg_k64 : seg_k32;
    unsigned char *dst = flags & 1 ? alt : src;
    if (m * c->es <= LS_CACHE && c->key_scr) {
        map_plain(c->key_scr, src, m, c->kw, 1);
        plain.seg(&plain, c->key_scr, dst, m, 1 | (flags & LS_BUSY), used);
    } else {
        map_plain(src, src, m, c->kw, 1);
        plain.seg(&plain, src, alt, m, flags, used);
    }
    map_plain(dst, dst, m, c->kw, 0);
}

/* One pass over a segment's keys: their minimum and maximum, and the OR
 * and AND of all of them (the bits that vary are o ^ an). */
struct key_range {
    uint64_t o, an, mn, mx;
};

LS_INLINE struct key_range key_range(const unsigned char *src, size_t m,
                                     size_t es, size_t ko, unsigned kw)
{
    uint64_t o = 0, an = ~(uint64_t)0, mn = ~(uint64_t)0, mx = 0;
    for (size_t i = 0; i < m; i++) {
        uint64_t k = key_at(src + i * es, ko, kw);
        o |= k;
        an &= k;
        mn = k < mn ? k : mn;
        mx = k > mx ? k : mx;
    }
    return (struct key_range){.o = o, .an = an, .mn = mn, .mx = mx};
}

/* Bits of the MSD digit of a segment of m keys in [mn, mn + 2^rb): about
 * log2(m), so that buckets hold one or two keys, and no more than the pool
 * has counters left for. */
LS_INLINE unsigned msd_width(const struct ls *c, size_t m, size_t es,
                             unsigned rb, size_t used)
{
    unsigned dw = 63u - (unsigned)__builtin_clzll((uint64_t)m);
    if (dw > LS_BITS)
        dw = LS_BITS;
    if (m * es > LS_BIG && dw > LS_TOPBITS)
        dw = LS_TOPBITS;
    if (dw > rb)
        dw = rb;
    /* Narrower digits if the pool runs short (never seen in practice); its
     * reserve always has room for 1-bit digits, and each level halves the
     * range at least. */
    size_t avail = c->pool_n - LS_RESERVE - used;
    if (used + LS_RESERVE > c->pool_n)
        dw = 1;
    else
        while (dw > 1 && ((size_t)1 << dw) > avail)
            dw--;
    return dw;
}

/* One MSD pass of dw bits at the top of the range [mn, mn + 2^rb), then
 * the buckets' children. */
LS_INLINE void msd(const struct ls *c, unsigned char *src, unsigned char *alt,
                   size_t m, int want_alt, int busy, uint64_t mn, unsigned rb,
                   unsigned dw, size_t used, size_t es, size_t ko, unsigned kw)
{
    size_t rad = (size_t)1 << dw;
    unsigned sh = rb - dw;
    size_t *h = c->pool + used;
    memset(h, 0, rad * sizeof *h);
    for (size_t i = 0; i < m; i++)
        h[(key_at(src + i * es, ko, kw) - mn) >> sh]++;
    size_t sum = 0;
    for (size_t b = 0; b < rad; b++) {
        size_t t = h[b];
        h[b] = sum;
        sum += t;
    }
    /* A segment that fits the scratch buffer is scattered there: it stays in
     * cache whatever src and alt are; its children go from there into
     * place. */
    unsigned char *dst = want_alt ? alt : src;
    int scr = !busy && c->scr && m * es <= LS_CACHE;
    unsigned char *sc = scr ? c->scr : alt;
    for (size_t i = 0; i < m; i++) {
        uint64_t k = key_at(src + i * es, ko, kw) - mn;
        memcpy(sc + h[k >> sh]++ * es, src + i * es, es);
    }
    if (scr)
        children(c, sc, dst, dst, m, 1 | LS_BUSY, h, rad, used + rad, es, ko,
                 kw);
    else
        children(c, sc, src, dst, m, (!want_alt) | busy, h, rad, used + rad, es,
                 ko, kw);
}

/* Sort a segment: the cases before the range pass (mapped keys, tiny
 * segments, whole 32-bit arrays), then by the keys' range LSD, the
 * splitter or one MSD digit. */
LS_INLINE void seg_body(const struct ls *c, unsigned char *src,
                        unsigned char *alt, size_t m, int flags, size_t used,
                        size_t es, size_t ko, unsigned kw)
{
    int want_alt = flags & 1, busy = flags & LS_BUSY;
    if (KW_BYTES(kw) != kw && m * es <= LS_LSD_BYTES) {
        seg_mapped(c, src, alt, m, flags, used);
        return;
    }
    if (m <= LS_INS) {
        ins_copy(want_alt ? alt : src, src, m, es, ko, kw);
        return;
    }
    if (KW_BYTES(kw) == 4 && used == 0 && m * es <= LS_LSD_BYTES &&
        ((size_t)LS_LSD_FILL << 11) <= m) {
        /* A whole array of 32-bit keys up to L3 size: three 11-bit LSD
         * digits of the raw key, counted in one pass without the range pass
         * (digits that are constant are still skipped). */
        lsd(c, src, alt, m, want_alt, 0, 0, 32, 3, es, ko, kw);
        return;
    }
    struct key_range r = key_range(src, m, es, ko, kw);
    if (r.mn == r.mx) {
        if (want_alt)
            memcpy(alt, src, m * es);
        return;
    }
    /* key - mn < 2^rb; its bits below lo are constant. */
    unsigned rb = 64u - (unsigned)__builtin_clzll(r.mx - r.mn);
    unsigned lo = (unsigned)__builtin_ctzll(r.o ^ r.an);
    unsigned width = rb - lo;
    unsigned np = (width + LS_BITS - 1) / LS_BITS;
    if (m * es <= LS_LSD_BYTES && np <= LS_LSD_MAXP &&
        ((size_t)LS_LSD_FILL << ((width + np - 1) / np)) <= m) {
        lsd(c, src, alt, m, want_alt, r.mn, lo, width, np, es, ko, kw);
        return;
    }
    if (m * es > LS_BIG && c->h14 && rb > LS_TOPBITS && m <= UINT32_MAX &&
        used + LS_SPLIT_MAXB + LS_RESERVE <= c->pool_n) {
        split(c, src, alt, m, flags, r.mn, rb, used, es, ko, kw);
        return;
    }
    msd(c, src, alt, m, want_alt, busy, r.mn, rb, msd_width(c, m, es, rb, used),
        used, es, ko, kw);
}

/* The instances: element layouts known at compile time move with plain
 * loads and stores. */
#define LS_SEG(NAME, ES, KO, KW)                                               \
    static void NAME(const struct ls *c, unsigned char *src,                   \
                     unsigned char *alt, size_t m, int flags, size_t used)     \
    {                                                                          \
        (void)c;                                                               \
        seg_body(c, src, alt, m, flags, used, ES, KO, KW);                     \
    }
LS_SEG(seg_k64, 8, 0, 8)
LS_SEG(seg_k32, 4, 0, 4)
LS_SEG(seg_kf64, 8, 0, KW_F64)
LS_SEG(seg_ki64, 8, 0, KW_I64)
LS_SEG(seg_kf32, 4, 0, KW_F32)
LS_SEG(seg_r16k8, 16, c->ko, 8)
LS_SEG(seg_r16k4, 16, c->ko, 4)
LS_SEG(seg_r32k8, 32, c->ko, 8)
LS_SEG(seg_r32k4, 32, c->ko, 4)
LS_SEG(seg_rk8, c->es, c->ko, 8)
LS_SEG(seg_rk4, c->es, c->ko, 4)
#undef LS_SEG

/* Reverse the elements a[l..r]. */
LS_INLINE void reverse(unsigned char *a, size_t l, size_t r, size_t es)
{
    unsigned char t[ALGO_SORT_MAX_ES];
    for (; l < r; l++, r--) {
        memcpy(t, a + l * es, es);
        memcpy(a + l * es, a + r * es, es);
        memcpy(a + r * es, t, es);
    }
}

/* Already in order (nondecreasing: nothing to do) or in reverse order
 * (nonincreasing: reversed, and then each run of equal keys reversed back,
 * which keeps the sort stable)? Other input leaves after a few elements. */
LS_INLINE int trivial(unsigned char *a, size_t n, size_t es, size_t ko,
                      unsigned kw)
{
    size_t i = 1;
    while (i < n &&
           key_at(a + (i - 1) * es, ko, kw) <= key_at(a + i * es, ko, kw))
        i++;
    if (i == n)
        return 1;
    i = 1;
    while (i < n &&
           key_at(a + (i - 1) * es, ko, kw) >= key_at(a + i * es, ko, kw))
        i++;
    if (i < n)
        return 0;
    reverse(a, 0, n - 1, es);
    if (es != KW_BYTES(kw)) /* records: equal keys may differ elsewhere */
        for (size_t l = 0, r; l < n; l = r + 1) {
            uint64_t k = key_at(a + l * es, ko, kw);
            for (r = l; r + 1 < n && key_at(a + (r + 1) * es, ko, kw) == k;)
                r++;
            reverse(a, l, r, es);
        }
    return 1;
}

/* Nearly sorted input (sorted but for a few displaced keys, as IPS4o's
 * "almost sorted": sqrt(n) random swaps) costs the radix sort its full
 * passes and more (the scatter writes each bucket's keys in the order
 * they come), while two passes suffice: pull the keys that break the
 * order aside, sort those, merge them back. The probe: LS_NS_WINDOWS
 * windows of LS_NS_WINDOW keys spread over the array, nearly sorted if
 * under 1/64 of their neighbours descend (random keys: half). */
#define LS_NS_WINDOWS 8
#define LS_NS_WINDOW 512

LS_INLINE int few_descents(const unsigned char *a, size_t n, size_t es,
                           size_t ko, unsigned kw)
{
    if (n < 16 * LS_NS_WINDOWS * LS_NS_WINDOW)
        return 0;
    size_t d = 0;
    for (size_t w = 0; w < LS_NS_WINDOWS; w++) {
        size_t at = w * (n - LS_NS_WINDOW) / (LS_NS_WINDOWS - 1);
        for (size_t i = at + 1; i < at + LS_NS_WINDOW; i++)
            d += key_at(a + i * es, ko, kw) < key_at(a + (i - 1) * es, ko, kw);
    }
    return d * 64 < LS_NS_WINDOWS * LS_NS_WINDOW;
}

/* Keep a[0..j) sorted by moving each key that falls below the last kept
 * one aside together with that one (side[0..k); popping the last kept
 * key removes at most twice as many as the fewest possible). Returns j,
 * or n + 1 where more than @cap keys went aside: a[0..n) is then a
 * permutation of the input (the keys aside put back in the gap). */
LS_INLINE size_t pull_aside(unsigned char *a, size_t n, unsigned char *side,
                            size_t cap, size_t *ret_k, size_t es, size_t ko,
                            unsigned kw)
{
    size_t j = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = key_at(a + i * es, ko, kw);
        if (j == 0 || key_at(a + (j - 1) * es, ko, kw) <= x) {
            memcpy(a + j++ * es, a + i * es, es);
            continue;
        }
        if (k + 2 > cap) {
            memcpy(a + j * es, side, k * es);
            return n + 1;
        }
        memcpy(side + k++ * es, a + i * es, es);
        memcpy(side + k++ * es, a + --j * es, es);
    }
    *ret_k = k;
    return j;
}

LS_INLINE int radix(unsigned char *a, size_t n, size_t es, size_t ko,
                    unsigned kw, seg_fn *seg, const char *what);

/* Per thread: every worker of a process sorts its own block at once. */
static _Thread_local unsigned ls_choice;

unsigned sgl__algo_sort_choice(void) { return ls_choice; }

/* The nearly sorted path of plain keys (equal keys are equal elements, so
 * the order among them needs no care): 1 if it sorted a[0..n), 0 if the
 * input is not nearly sorted (then a[0..n) holds a permutation of it). */
LS_INLINE int nearly_sorted(unsigned char *a, size_t n, size_t es, size_t ko,
                            unsigned kw, seg_fn *seg, int *rc)
{
    if (es != KW_BYTES(kw) || !few_descents(a, n, es, ko, kw))
        return 0;
    size_t cap = n / 16, k = 0;
    unsigned char *side = malloc(cap * es);
    if (!side)
        return 0; /* the radix sort reports the shortage */
    size_t j = pull_aside(a, n, side, cap, &k, es, ko, kw);
    if (j > n) {
        free(side);
        return 0;
    }
    *rc = radix(side, k, es, ko, kw, seg, "keys");
    /* Merge from the top down: the gap above a[0..j) is exactly k. */
    for (size_t o = n, i = j; *rc == SGL_OK && k > 0;) {
        if (i > 0 && key_at(a + (i - 1) * es, ko, kw) >
                         key_at(side + (k - 1) * es, ko, kw))
            memcpy(a + --o * es, a + --i * es, es);
        else
            memcpy(a + --o * es, side + --k * es, es);
    }
    free(side);
    return 1;
}

static unsigned keymap_of(unsigned kw)
{
    return kw == KW_F64   ? SGL__KEYMAP_F64
           : kw == KW_I64 ? SGL__KEYMAP_I64
           : kw == KW_F32 ? SGL__KEYMAP_F32
                          : SGL__KEYMAP_NONE;
}

LS_INLINE int run(void *data, size_t n, size_t es, size_t ko, unsigned kw,
                  seg_fn *seg, const char *what)
{
    unsigned char *a = data;
    ls_choice = SGL_SORT_LOCAL_SMALL;
    if (n <= LS_INS) {
        ins_copy(a, a, n, es, ko, kw);
        return SGL_OK;
    }
    if (n > SIZE_MAX / es)
        return sgl_error_set(SGL_ENOMEM,
                             "sort: %zu %s of %zu bytes overflow "
                             "the address space",
                             n, what, es);
    ls_choice = SGL_SORT_LOCAL_PRESORTED;
    if (trivial(a, n, es, ko, kw))
        return SGL_OK;
    int rc = SGL_OK;
    ls_choice = SGL_SORT_LOCAL_NEARLY;
    if (nearly_sorted(a, n, es, ko, kw, seg, &rc))
        return rc;
    /* Before the radix sort: random keys leave the counting pass after a
     * few thousand elements, heavy duplicates never enter the radix sort. */
    ls_choice = SGL_SORT_LOCAL_FEW;
    if (sgl__algo_sort_few(a, n, es, ko, KW_BYTES(kw), keymap_of(kw)))
        return SGL_OK;
    ls_choice = SGL_SORT_LOCAL_RADIX;
    return radix(a, n, es, ko, kw, seg, what);
}

/* The radix sort proper (see the top of this file) of a[0..n). */
LS_INLINE int radix(unsigned char *a, size_t n, size_t es, size_t ko,
                    unsigned kw, seg_fn *seg, const char *what)
{
    if (n <= LS_INS) {
        ins_copy(a, a, n, es, ko, kw);
        return SGL_OK;
    }
    size_t bytes = n * es;
    int big = bytes > LS_BIG, scr = bytes > LS_CACHE;
    /* Counters: the MSD pool (a digit never has more values than its
     * segment has keys), the LSD counters, the splitter's histogram and map,
     * and the in-cache scratch; one allocation. */
    size_t pool_n = 2 * n < LS_POOL ? 2 * n : LS_POOL;
    pool_n += LS_RESERVE;
    size_t lsd_n = (size_t)LS_LSD_MAXP * (n < LS_RADIX ? n : LS_RADIX);
    size_t sbytes = (pool_n + lsd_n) * sizeof(size_t);
    size_t h14_off = sbytes;
    if (big)
        sbytes += ((size_t)1 << LS_SPLIT_BITS) *
                  (sizeof(uint32_t) + sizeof(uint16_t));
    size_t scr_off = (sbytes + 63) & ~(size_t)63;
    if (scr)
        sbytes = scr_off + LS_CACHE;
    /* The key scratch serves the cache-sized segments of arrays beyond
     * LS_LSD_BYTES; a smaller array is mapped in place whole. Its absence
     * keeps the allocation as for plain keys: a larger one here moved
     * glibc's malloc to fresh pages, faulted in on every sort. */
    size_t key_off = (sbytes + 63) & ~(size_t)63;
    int mapped = KW_BYTES(kw) != kw && bytes > LS_LSD_BYTES;
    if (mapped)
        sbytes = key_off + LS_CACHE;
    unsigned char *tmp = sgl_mem_alloc(bytes);
    unsigned char *s = malloc(sbytes);
    if (!tmp || !s) {
        free(tmp);
        free(s);
        return sgl_error_set(SGL_ENOMEM,
                             "sort: out of memory for %zu %s "
                             "(%zu bytes)",
                             n, what, bytes);
    }
    struct ls c = {.es = es,
                   .ko = ko,
                   .kw = kw,
                   .seg = seg,
                   .pool = (size_t *)(void *)s,
                   .pool_n = pool_n,
                   .lsd = (size_t *)(void *)s + pool_n};
    if (big) {
        c.h14 = (uint32_t *)(void *)(s + h14_off);
        c.map = (uint16_t *)(void *)(c.h14 + ((size_t)1 << LS_SPLIT_BITS));
    }
    if (scr)
        c.scr = s + scr_off;
    if (mapped)
        c.key_scr = s + key_off;
    seg(&c, a, tmp, n, 0, 0);
    free(tmp);
    free(s);
    return SGL_OK;
}

int sgl__algo_sort_u64(uint64_t *a, size_t n)
{
    return run(a, n, 8, 0, 8, seg_k64, "keys");
}

int sgl__algo_sort_u32(uint32_t *a, size_t n)
{
    return run(a, n, 4, 0, 4, seg_k32, "keys");
}

int sgl__algo_sort_f64(uint64_t *a, size_t n)
{
    return run(a, n, 8, 0, KW_F64, seg_kf64, "keys");
}

int sgl__algo_sort_i64(uint64_t *a, size_t n)
{
    return run(a, n, 8, 0, KW_I64, seg_ki64, "keys");
}

int sgl__algo_sort_f32(uint32_t *a, size_t n)
{
    return run(a, n, 4, 0, KW_F32, seg_kf32, "keys");
}

int sgl__algo_sort_records(void *a, size_t n, size_t es, size_t ko,
                           unsigned key_bytes)
{
    if ((key_bytes != 4 && key_bytes != 8) || es % 4 || es < key_bytes ||
        es > ALGO_SORT_MAX_ES || ko > es - key_bytes || (n && !a))
        return sgl_error_set(SGL_EINVAL,
                             "sort: records of %zu bytes with a %u-byte key "
                             "at offset %zu (need a 4- or 8-byte key inside "
                             "a record of 4..%d bytes, a multiple of 4)",
                             es, key_bytes, ko, ALGO_SORT_MAX_ES);
    if (es == 16)
        return key_bytes == 8 ? run(a, n, 16, ko, 8, seg_r16k8, "records")
                              : run(a, n, 16, ko, 4, seg_r16k4, "records");
    if (es == 32)
        return key_bytes == 8 ? run(a, n, 32, ko, 8, seg_r32k8, "records")
                              : run(a, n, 32, ko, 4, seg_r32k4, "records");
    return key_bytes == 8 ? run(a, n, es, ko, 8, seg_rk8, "records")
                          : run(a, n, es, ko, 4, seg_rk4, "records");
}

/* ---- bounds and merge ---- */

/* Over plain keys (KEY the identity) or over values compared by their keys
 * (KEY one of the bijections): the values stay as they are. */
static inline uint64_t ls_id(uint64_t k) { return k; }

#define LS_BOUND(K, SFX, KEY)                                                  \
    size_t sgl__algo_bound_##SFX(const K *a, size_t n, uint64_t k, int upper)  \
    {                                                                          \
        size_t lo = 0, hi = n;                                                 \
        while (lo < hi) {                                                      \
            size_t mid = lo + (hi - lo) / 2;                                   \
            uint64_t km = KEY(a[mid]);                                         \
            if (km < k || (upper && km == k))                                  \
                lo = mid + 1;                                                  \
            else                                                               \
                hi = mid;                                                      \
        }                                                                      \
        return lo;                                                             \
    }
LS_BOUND(uint64_t, u64, ls_id)
LS_BOUND(uint32_t, u32, ls_id)
LS_BOUND(uint64_t, f64, sgl__key_f64)
LS_BOUND(uint64_t, i64, sgl__key_i64)
LS_BOUND(uint32_t, f32, sgl__key_f32)
#undef LS_BOUND

/* Two runs full of equal keys (few unique, root duplicates: after the
 * exchange each worker holds a few stretches of equal values per run):
 * whole stretches copied, their ends found by galloping from their
 * starts, rather than one select per element. Chosen where 12 of 16
 * sampled neighbours in both runs are equal; random keys fail at the
 * first few samples. */
#define LS_MERGE_DUPS(K, SFX, KEY)                                             \
    static size_t gallop_##SFX(const K *in, size_t a, size_t e, uint64_t k,    \
                               int upper)                                      \
    {                                                                          \
        size_t lo = a, step = 1, hi = a;                                       \
        while (hi < e && (KEY(in[hi]) < k || (upper && KEY(in[hi]) == k))) {   \
            lo = hi + 1;                                                       \
            hi = a + step < e ? a + step : e;                                  \
            step *= 2;                                                         \
        }                                                                      \
        return lo + sgl__algo_bound_##SFX(in + lo, hi - lo, k, upper);         \
    }                                                                          \
    static int dups_##SFX(const K *in, size_t a, size_t e)                     \
    {                                                                          \
        size_t eq = 0;                                                         \
        if (e - a < 1024)                                                      \
            return 0;                                                          \
        for (size_t q = 0; q < 16; q++) {                                      \
            size_t i = a + (e - a - 1) / 16 * q;                               \
            eq += KEY(in[i]) == KEY(in[i + 1]);                                \
        }                                                                      \
        return eq >= 12;                                                       \
    }                                                                          \
    static size_t merge_dups_##SFX(const K *in, size_t i, size_t e0, size_t j, \
                                   size_t e1, K *out)                          \
    {                                                                          \
        size_t o = 0;                                                          \
        while (i < e0 && j < e1) {                                             \
            uint64_t ki = KEY(in[i]), kj = KEY(in[j]);                         \
            size_t r = kj < ki ? gallop_##SFX(in, j, e1, ki, 0)                \
                               : gallop_##SFX(in, i, e0, kj, 1);               \
            size_t *from = kj < ki ? &j : &i;                                  \
            memcpy(out + o, in + *from, (r - *from) * sizeof *in);             \
            o += r - *from;                                                    \
            *from = r;                                                         \
        }                                                                      \
        memcpy(out + o, in + i, (e0 - i) * sizeof *in);                        \
        o += e0 - i;                                                           \
        memcpy(out + o, in + j, (e1 - j) * sizeof *in);                        \
        return o + e1 - j;                                                     \
    }
LS_MERGE_DUPS(uint64_t, u64, ls_id)
LS_MERGE_DUPS(uint32_t, u32, ls_id)
LS_MERGE_DUPS(uint64_t, f64, sgl__key_f64)
LS_MERGE_DUPS(uint64_t, i64, sgl__key_i64)
LS_MERGE_DUPS(uint32_t, f32, sgl__key_f32)
#undef LS_MERGE_DUPS

/* One run: a copy. Two runs: a branch-free select, or, where one run is
 * under 1/64 of the other (a nearly sorted vector: almost all of a
 * worker's elements come from its own block), each short run's key
 * placed by binary search and the stretches of the long run between them
 * copied whole. More: a binary min-heap of run numbers, keyed by their
 * heads. */
#define LS_MERGE(K, SFX, KEY)                                                  \
    void sgl__algo_merge_##SFX(const K *in, const uint64_t *len, size_t p,     \
                               K *out, size_t *heap, size_t *pos, size_t *end) \
    {                                                                          \
        size_t off = 0, nh = 0, o = 0;                                         \
        for (size_t s = 0; s < p; s++) {                                       \
            pos[s] = off;                                                      \
            off += (size_t)len[s];                                             \
            end[s] = off;                                                      \
        }                                                                      \
        if (p == 1) { /* the reverse path's one block */                     \
            memcpy(out, in, (size_t)len[0] * sizeof *in);                      \
            return;                                                            \
        }                                                                      \
        if (p == 2 && (len[0] < len[1] / 64 || len[1] < len[0] / 64)) {       \
            size_t sh = len[0] < len[1] ? 0 : 1, lo = pos[1 - sh];             \
            for (size_t i = pos[sh]; i < end[sh]; i++) {                       \
                uint64_t k = KEY(in[i]);                                       \
                size_t a = lo, b = end[1 - sh];                                \
                while (a < b) {                                                \
                    size_t mid = a + (b - a) / 2;                              \
                    if (KEY(in[mid]) <= k)                                     \
                        a = mid + 1;                                           \
                    else                                                       \
                        b = mid;                                               \
                }                                                              \
                memcpy(out + o, in + lo, (a - lo) * sizeof *in);               \
                o += a - lo;                                                   \
                lo = a;                                                        \
                out[o++] = in[i];                                              \
            }                                                                  \
            memcpy(out + o, in + lo, (end[1 - sh] - lo) * sizeof *in);         \
            return;                                                            \
        }                                                                      \
        if (p == 2 && dups_##SFX(in, pos[0], end[0]) &&                        \
            dups_##SFX(in, pos[1], end[1])) {                                  \
            merge_dups_##SFX(in, pos[0], end[0], pos[1], end[1], out);         \
            return;                                                            \
        }                                                                      \
        if (p == 2) {                                                          \
            size_t i = pos[0], j = pos[1];                                     \
            while (i < end[0] && j < end[1]) {                                 \
                K x = in[i], y = in[j];                                        \
                int t = KEY(y) < KEY(x);                                       \
                out[o++] = t ? y : x;                                          \
                i += (size_t)!t;                                               \
                j += (size_t)t;                                                \
            }                                                                  \
            while (i < end[0])                                                 \
                out[o++] = in[i++];                                            \
            while (j < end[1])                                                 \
                out[o++] = in[j++];                                            \
            return;                                                            \
        }                                                                      \
        for (size_t s = 0; s < p; s++) {                                       \
            if (pos[s] == end[s])                                              \
                continue;                                                      \
            size_t c = nh++;                                                   \
            while (c > 0 &&                                                    \
                   KEY(in[pos[heap[(c - 1) / 2]]]) > KEY(in[pos[s]])) {        \
                heap[c] = heap[(c - 1) / 2];                                   \
                c = (c - 1) / 2;                                               \
            }                                                                  \
            heap[c] = s;                                                       \
        }                                                                      \
        while (nh > 0) {                                                       \
            size_t s = heap[0];                                                \
            out[o++] = in[pos[s]++];                                           \
            if (pos[s] == end[s])                                              \
                s = heap[--nh];                                                \
            if (nh == 0)                                                       \
                break;                                                         \
            uint64_t v = KEY(in[pos[s]]);                                      \
            size_t c = 0;                                                      \
            for (;;) {                                                         \
                size_t l = 2 * c + 1, mi = c;                                  \
                uint64_t mv = v;                                               \
                if (l < nh && KEY(in[pos[heap[l]]]) < mv)                      \
                    mi = l, mv = KEY(in[pos[heap[l]]]);                        \
                if (l + 1 < nh && KEY(in[pos[heap[l + 1]]]) < mv)              \
                    mi = l + 1;                                                \
                if (mi == c)                                                   \
                    break;                                                     \
                heap[c] = heap[mi];                                            \
                c = mi;                                                        \
            }                                                                  \
            heap[c] = s;                                                       \
        }                                                                      \
    }
LS_MERGE(uint64_t, u64, ls_id)
LS_MERGE(uint32_t, u32, ls_id)
LS_MERGE(uint64_t, f64, sgl__key_f64)
LS_MERGE(uint64_t, i64, sgl__key_i64)
LS_MERGE(uint32_t, f32, sgl__key_f32)
#undef LS_MERGE
