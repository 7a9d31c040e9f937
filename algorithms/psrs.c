/* PSRS (parallel sorting by regular sampling), flattened over all P
 * workers of the tree; the exchange goes through the root, as a
 * gather-reorder-scatter. Three supersteps from the root, each recursive
 * over the levels (masters forward commands and concatenate or split
 * blocks):
 *
 *   S1  workers: map values to ordered integer keys, radix-sort the block,
 *       hand up its size and P regular samples (key, position).
 *       root: sort the <= P^2 samples by (key, global index), pick P-1
 *       pivots at ranks i*S/P.
 *   S2  broadcast pivots and block offsets; workers split their block into
 *       P buckets at the pivots and hand up the bucket sizes and the block.
 *       root: reorder the buckets by destination, into the children's
 *       receive buffers.
 *   S3  scatter bucket runs to their destinations; workers P-way merge them,
 *       map keys back to values, hand up their new size.
 *
 * Ties are broken by the element's global index (its position in the
 * concatenation of the locally sorted blocks), so the composite keys are
 * distinct: all-equal input splits exactly like distinct input (blocks of
 * n/P). Floats are ordered as IEEE totalOrder, except that every NaN (of
 * either sign) sorts after +inf; -0.0 sorts before +0.0.
 *
 * Why flattened: with recursion per level, every level would sort and
 * exchange the data again; flattening sorts once and moves every element
 * once up and once down the tree. Cost, with m = n/P and levels l:
 *   S1: c*m*r (radix passes r) + sum_l (P_l-subtree*(2P+1) words up) g_up
 *       + c0*P^2 log P + 2 L per level
 *   S2: (P-1) words down, n + P^2 words up per level + c*P log m + 2 L
 *   S3: n + P^2 words down per level + c*m log P (merge) + 2 L
 * Memory: at most two copies of the data at any time. S1: block and radix
 * buffer. S2: the worker copies its block into the hand-up buffer and
 * frees it; the root reorders from the hand-ups straight into the
 * children's receive buffers (sgl_scatter_buffer) and frees the hand-ups
 * (sgl_gather_release). S3: the runs and the merged block; the runs are
 * freed (sgl_recv_release) before the next superstep. Masters in between
 * split and free the same way. */
#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"
#include "local_sort.h"
#include "records.h"

/* ---- keys: an order-preserving bijection from values to unsigned ---- */

#define NNAN64 ((UINT64_C(1) << 52) - 1) /* negative NaN bit patterns */
#define NNAN32 ((UINT32_C(1) << 23) - 1)
#define TOP64 (UINT64_C(1) << 63)
#define TOP32 (UINT32_C(1) << 31)

static inline uint64_t key64(sgl_dtype_t t, uint64_t b)
{
    if (t == SGL_F64)
        /* totalOrder; then rotate the negative NaNs (the lowest keys)
         * above the positive ones. */
        return ((b & TOP64) ? ~b : b | TOP64) - NNAN64;
    return t == SGL_I64 ? b ^ TOP64 : b;
}

static inline uint64_t val64(sgl_dtype_t t, uint64_t k)
{
    if (t == SGL_F64) {
        k += NNAN64;
        return (k & TOP64) ? k & ~TOP64 : ~k;
    }
    return t == SGL_I64 ? k ^ TOP64 : k;
}

static inline uint32_t key32(uint32_t b)
{
    return ((b & TOP32) ? ~b : b | TOP32) - NNAN32;
}

static inline uint32_t val32(uint32_t k)
{
    k += NNAN32;
    return (k & TOP32) ? k & ~TOP32 : ~k;
}

/* Map the @n elements' keys to keys (@to) or back, in place: plain
 * elements are their key; records hold it at L->ko. */
static void map_keys(sgl_dtype_t t, const struct rec_layout *L, void *data,
                     size_t n, int to)
{
    if (L->es == 8 && L->wide) {
        uint64_t *a = data;
        for (size_t i = 0; i < n; i++)
            a[i] = to ? key64(t, a[i]) : val64(t, a[i]);
    } else if (L->es == 4 && !L->wide) {
        uint32_t *a = data;
        for (size_t i = 0; i < n; i++)
            a[i] = to ? key32(a[i]) : val32(a[i]);
    } else {
        char *r = (char *)data + L->ko;
        for (size_t i = 0; i < n; i++, r += L->es) {
            if (L->wide) {
                uint64_t b;
                memcpy(&b, r, 8);
                b = to ? key64(t, b) : val64(t, b);
                memcpy(r, &b, 8);
            } else {
                uint32_t b;
                memcpy(&b, r, 4);
                b = to ? key32(b) : val32(b);
                memcpy(r, &b, 4);
            }
        }
    }
}

/* Plain elements are their key; records carry one at L->ko. */
static int is_plain(const struct rec_layout *L)
{
    return L->es == (L->wide ? 8u : 4u);
}

static int local_sort(const struct rec_layout *L, void *a, size_t n)
{
    /* The record radix sort takes multiples of 4 bytes; others (rare)
     * take the plain LSD record sort. Both are stable. */
    if (!is_plain(L))
        return L->es % 4 == 0 && L->es <= ALGO_SORT_MAX_ES
                   ? algo_sort_records(a, n, L->es, L->ko, L->wide ? 8 : 4)
                   : rec_sort(L, a, n);
    return L->wide ? algo_sort_u64(a, n) : algo_sort_u32(a, n);
}

/* Elements of the sorted block (at global offset @off) below the composite
 * pivot (k, g). */
static size_t split_at(const struct rec_layout *L, const void *a, size_t n,
                       size_t off, uint64_t k, uint64_t g)
{
    size_t lo, hi;
    if (!is_plain(L)) {
        lo = rec_bound(L, a, n, k, 0);
        hi = rec_bound(L, a, n, k, 1);
    } else if (L->wide) {
        lo = algo_bound_u64(a, n, k, 0);
        hi = algo_bound_u64(a, n, k, 1);
    } else {
        lo = algo_bound_u32(a, n, (uint32_t)k, 0);
        hi = algo_bound_u32(a, n, (uint32_t)k, 1);
    }
    if (g <= off + lo)
        return lo;
    if (g >= off + hi)
        return hi;
    return (size_t)(g - off);
}

/* ---- the three supersteps ---- */

struct sort_arg {
    uint32_t id;
    uint32_t dtype;  /* of the key */
    uint64_t p;      /* workers */
    uint32_t step;   /* 1, 2, 3 */
    uint32_t ko;     /* the key's byte offset in a record */
    uint64_t es;     /* element (record) bytes */
};

static struct rec_layout layout_of(const struct sort_arg *a,
                                   const struct algo_block *b)
{
    return (struct rec_layout){
        b->elem_size, a->ko, algo_key_size((sgl_dtype_t)a->dtype) == 8};
}

static int sort_task(sgl_ctx_t *ctx, const void *arg, size_t size);

static struct algo_block *my_block(sgl_ctx_t *ctx, uint32_t id)
{
    struct algo_block *b = algo_block_find(ctx, id);
    if (!b)
        sgl_error_set(SGL_ESTATE, "worker %zu has no block of vector %u",
                      sgl_ctx_first_worker(ctx), id);
    return b;
}

/* S1 on a worker: sort, hand up [count][P x (key, pos)]. */
static int s1_worker(sgl_ctx_t *ctx, const struct sort_arg *a, uint64_t *rec)
{
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    struct rec_layout L = layout_of(a, b);
    map_keys((sgl_dtype_t)a->dtype, &L, b->data, b->count, 1);
    TRY(local_sort(&L, b->data, b->count));
    size_t m = b->count, p = a->p;
    rec[0] = m;
    for (size_t j = 0; j < p; j++) {
        size_t pos = m ? (size_t)(((algo_u128)j * m) / p) : 0;
        rec[1 + 2 * j] = m ? rec_key(&L, b->data, pos) : 0;
        rec[2 + 2 * j] = pos;
    }
    return SGL_OK;
}

/* S2 on a worker: split at the pivots, hand up [P counts][block]. @bc is
 * the broadcast: [P-1 x (key, gidx)][P offsets]. */
static int s2_worker(sgl_ctx_t *ctx, const struct sort_arg *a,
                     const uint64_t *bc)
{
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    struct rec_layout L = layout_of(a, b);
    size_t p = a->p, m = b->count, es = b->elem_size;
    size_t w = sgl_ctx_first_worker(ctx);
    size_t off = bc[2 * (p - 1) + w];
    void *up;
    TRY(sgl_put_buffer(ctx, 1, p * 8 + m * es, &up));
    uint64_t *cnt = up;
    size_t prev = 0;
    for (size_t d = 0; d + 1 < p; d++) {
        size_t s = split_at(&L, b->data, m, off, bc[2 * d], bc[2 * d + 1]);
        if (s < prev)
            s = prev;
        cnt[d] = s - prev;
        prev = s;
    }
    cnt[p - 1] = m - prev;
    if (m)
        memcpy((char *)up + p * 8, b->data, m * es);
    /* The block lives on in the runtime's hand-up copy; S3 rebuilds it. */
    free(b->data);
    b->data = NULL;
    b->count = 0;
    return SGL_OK;
}

/* S3 on a worker: [P counts][P runs] -> merged block. */
static int s3_worker(sgl_ctx_t *ctx, const struct sort_arg *a,
                     const void *msg, size_t bytes, uint64_t *ret_count)
{
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    size_t p = a->p, es = b->elem_size, m = 0;
    const uint64_t *len = msg;
    for (size_t s = 0; s < p; s++)
        m += len[s];
    if (bytes != p * 8 + m * es)
        return sgl_error_set(SGL_ESIZE, "sort: worker %zu got %zu bytes for "
                                        "%zu elements",
                             sgl_ctx_first_worker(ctx), bytes, m);
    void *out = malloc(m ? m * es : 1);
    size_t *scratch = malloc(3 * p * sizeof *scratch);
    if (!out || !scratch) {
        free(out);
        free(scratch);
        return sgl_error_set(SGL_ENOMEM, "sort: out of memory");
    }
    const char *runs = (const char *)msg + p * 8;
    struct rec_layout L = layout_of(a, b);
    if (!is_plain(&L))
        rec_merge(&L, runs, len, p, out, scratch);
    else if (es == 8)
        algo_merge_u64((const uint64_t *)(const void *)runs, len, p, out,
                       scratch, scratch + p, scratch + 2 * p);
    else
        algo_merge_u32((const uint32_t *)(const void *)runs, len, p, out,
                       scratch, scratch + p, scratch + 2 * p);
    free(scratch);
    /* The runs are merged: free them before the block is handed on. */
    int rc = sgl_recv_release(ctx);
    if (rc) {
        free(out);
        return rc;
    }
    map_keys((sgl_dtype_t)a->dtype, &L, out, m, 0);
    free(b->data);
    b->data = out;
    b->count = m;
    *ret_count = m;
    return SGL_OK;
}

/* Hand up the concatenation of the children's S2 blocks, rearranged as
 * [all workers' P counts][all workers' data]. */
static int s2_concat(sgl_ctx_t *ctx, size_t p)
{
    unsigned nc = sgl_ctx_children(ctx);
    size_t total = 0;
    for (unsigned c = 0; c < nc; c++) {
        const void *d;
        size_t bytes;
        TRY(sgl_gather_block(ctx, c, 1, &d, &bytes));
        total += bytes;
    }
    char *up;
    TRY(sgl_put_buffer(ctx, 1, total, (void **)&up));
    size_t hdr = sgl_ctx_workers(ctx) * p * 8, ho = 0, dof = hdr;
    for (unsigned c = 0; c < nc; c++) {
        const char *d;
        size_t bytes;
        TRY(sgl_gather_block(ctx, c, 1, (const void **)&d, &bytes));
        size_t ch = sgl_ctx_child_workers(ctx, c) * p * 8;
        if (bytes < ch)
            return sgl_error_set(SGL_ESIZE, "sort: child %u handed up %zu "
                                            "bytes",
                                 c, bytes);
        memcpy(up + ho, d, ch);
        ho += ch;
        memcpy(up + dof, d + ch, bytes - ch);
        dof += bytes - ch;
    }
    return sgl_gather_release(ctx);
}

/* S3 at a master: split the message [per worker: P counts, runs] between
 * the children and pass it down. */
static int s3_forward(sgl_ctx_t *ctx, const struct sort_arg *a,
                      const void *msg, size_t bytes, size_t es)
{
    unsigned nc = sgl_ctx_children(ctx);
    size_t *counts = malloc(nc * sizeof *counts);
    if (!counts)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    size_t off = 0;
    int rc = SGL_OK;
    for (unsigned c = 0; c < nc && !rc; c++) {
        size_t start = off;
        for (size_t w = 0; w < sgl_ctx_child_workers(ctx, c); w++) {
            if (off + a->p * 8 > bytes) {
                rc = sgl_error_set(SGL_ESIZE, "sort: short S3 message");
                break;
            }
            uint64_t len[1];
            size_t m = 0;
            for (size_t s = 0; s < a->p; s++) {
                memcpy(len, (const char *)msg + off + s * 8, 8);
                m += len[0];
            }
            off += a->p * 8 + m * es;
        }
        counts[c] = off - start;
    }
    if (!rc && off != bytes)
        rc = sgl_error_set(SGL_ESIZE, "sort: S3 message of %zu bytes, "
                                      "parsed %zu",
                           bytes, off);
    /* Split straight into the children's buffers and free this node's
     * copy before they merge. */
    const char *from = msg;
    for (unsigned c = 0; c < nc && !rc; c++) {
        void *to;
        rc = sgl_scatter_buffer(ctx, c, 1, counts[c], &to);
        if (!rc && counts[c])
            memcpy(to, from, counts[c]);
        from += counts[c];
    }
    free(counts);
    return rc ? rc : sgl_recv_release(ctx);
}

/* The recursive body of all three steps below the root. @in is what this
 * node received: in S2 the broadcast, @in_count words; in S3 its counts
 * and runs, @in_count bytes (records need not fill whole words). */
static int sort_rec(sgl_ctx_t *ctx, const struct sort_arg *a, const void *in,
                    size_t in_count, size_t es)
{
    size_t p = a->p;
    if (sgl_ctx_is_worker(ctx)) {
        if (a->step == 1) {
            uint64_t *rec;
            TRY(sgl_put_buffer(ctx, sizeof *rec, 1 + 2 * p, (void **)&rec));
            return s1_worker(ctx, a, rec);
        }
        if (a->step == 2)
            return s2_worker(ctx, a, in);
        uint64_t m;
        TRY(s3_worker(ctx, a, in, in_count, &m));
        return sgl_put(ctx, &m, sizeof m, 1);
    }
    if (a->step == 2)
        TRY(sgl_bcast(ctx, in, 8, in_count));
    else if (a->step == 3)
        TRY(s3_forward(ctx, a, in, in_count, es));
    TRY(sgl_pardo(ctx, sort_task, a, sizeof *a));
    if (a->step == 2)
        return s2_concat(ctx, p);
    size_t per = a->step == 1 ? 1 + 2 * p : 1;
    size_t words = sgl_ctx_workers(ctx) * per;
    void *up;
    TRY(sgl_put_buffer(ctx, 8, words, &up));
    return sgl_gather(ctx, up, 8, words, NULL);
}

static int sort_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct sort_arg *a = arg;
    void *in = NULL;
    size_t count = 0;
    if (a->step > 1)
        TRY(sgl_recv(ctx, a->step == 2 ? 8 : 1, &in, &count));
    return sort_rec(ctx, a, in, count, a->es);
}

struct sample {
    uint64_t key, g;
};

static int sample_cmp(const void *x, const void *y)
{
    const struct sample *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->g > b->g) - (a->g < b->g);
}

/* The root's side of the three steps. */
static int psrs_root(sgl_ctx_t *root, sgl_dvec_t *v, sgl_dtype_t kt,
                     size_t ko, sgl_sort_stats_t *st)
{
    size_t p = sgl_ctx_workers(root), es = v->elem_size;
    struct sort_arg a = {v->id, (uint32_t)kt, p, 1, (uint32_t)ko, es};
    int rc = SGL_OK;
    uint64_t *recs = malloc(p * (1 + 2 * p) * 8);
    struct sample *smp = malloc(p * p * sizeof *smp);
    uint64_t *bc = malloc((3 * p) * 8);
    uint64_t *cnt = malloc(p * p * 8); /* cnt[s*p + d] */
    const char **src = malloc(p * sizeof *src);
    size_t *dest_bytes = malloc(p * sizeof *dest_bytes);
    size_t *child_bytes = malloc(sgl_ctx_children(root) * sizeof(size_t));
    if (!recs || !smp || !bc || !cnt || !src || !dest_bytes || !child_bytes) {
        rc = sgl_error_set(SGL_ENOMEM, "sort: out of memory at the root");
        goto out;
    }

    /* S1: local sorts and samples. */
    if ((rc = sgl_pardo(root, sort_task, &a, sizeof a)) ||
        (rc = sgl_gather(root, recs, 8, p * (1 + 2 * p), NULL)))
        goto out;
    size_t ns = 0, off = 0;
    uint64_t *offs = bc + 2 * (p - 1);
    for (size_t s = 0; s < p; s++) {
        const uint64_t *r = recs + s * (1 + 2 * p);
        offs[s] = off;
        for (size_t j = 0; r[0] && j < p; j++)
            smp[ns++] = (struct sample){r[1 + 2 * j], off + r[2 + 2 * j]};
        off += r[0];
    }
    if (off != v->n) {
        rc = sgl_error_set(SGL_ESIZE, "sort: the workers hold %zu elements, "
                                      "the vector %zu",
                           off, v->n);
        goto out;
    }
    qsort(smp, ns, sizeof *smp, sample_cmp);
    for (size_t i = 1; i < p; i++) {
        struct sample s = ns ? smp[i * ns / p] : (struct sample){0, 0};
        bc[2 * (i - 1)] = s.key;
        bc[2 * (i - 1) + 1] = s.g;
    }

    /* S2: pivots down, buckets up. */
    a.step = 2;
    if ((rc = sgl_bcast(root, bc, 8, 3 * p - 2)) ||
        (rc = sgl_pardo(root, sort_task, &a, sizeof a)))
        goto out;
    size_t w = 0;
    for (unsigned c = 0; c < sgl_ctx_children(root); c++) {
        const char *d;
        size_t bytes, wc = sgl_ctx_child_workers(root, c);
        if ((rc = sgl_gather_block(root, c, 1, (const void **)&d, &bytes)))
            goto out;
        memcpy(cnt + w * p, d, wc * p * 8);
        const char *data = d + wc * p * 8;
        for (size_t k = 0; k < wc; k++, w++) {
            src[w] = data;
            size_t m = 0;
            for (size_t dd = 0; dd < p; dd++)
                m += cnt[w * p + dd];
            data += m * es;
        }
        if ((size_t)(data - d) != bytes) {
            rc = sgl_error_set(SGL_ESIZE, "sort: child %u handed up %zu "
                                          "bytes, expected %zu",
                               c, bytes, (size_t)(data - d));
            goto out;
        }
    }
    /* Reorder by destination straight into the children's receive
     * buffers (no staging copy at the root): destination d gets
     * [P counts][runs from s = 0..]. */
    for (size_t d = 0; d < p; d++) {
        dest_bytes[d] = p * 8;
        for (size_t s = 0; s < p; s++)
            dest_bytes[d] += cnt[s * p + d] * es;
    }
    w = 0;
    for (unsigned c = 0; c < sgl_ctx_children(root) && !rc; c++) {
        size_t wc = sgl_ctx_child_workers(root, c);
        child_bytes[c] = 0;
        for (size_t k = 0; k < wc; k++)
            child_bytes[c] += dest_bytes[w + k];
        char *o;
        if ((rc = sgl_scatter_buffer(root, c, 1, child_bytes[c], (void **)&o)))
            goto out;
        for (size_t d = w; d < w + wc; d++) {
            for (size_t s = 0; s < p; s++) {
                memcpy(o, &cnt[s * p + d], 8);
                o += 8;
            }
            for (size_t s = 0; s < p; s++) {
                size_t bytes = cnt[s * p + d] * es;
                if (bytes)
                    memcpy(o, src[s], bytes);
                src[s] += bytes;
                o += bytes;
            }
        }
        w += wc;
    }
    /* The buckets are copied out: their hand-up buffers can go now, not at
     * the next superstep, so that they do not coexist with the merge. */
    if ((rc = sgl_gather_release(root)))
        goto out;

    /* S3: runs down, merged sizes up. */
    a.step = 3;
    if ((rc = sgl_pardo(root, sort_task, &a, sizeof a)) ||
        (rc = sgl_gather(root, recs, 8, p, NULL)))
        goto out;
    for (size_t s = 0; s < p; s++)
        v->counts[s] = recs[s];
    if (st)
        st->samples = ns;
out:
    free(recs);
    free(smp);
    free(bc);
    free(cnt);
    free(src);
    free(dest_bytes);
    free(child_bytes);
    return rc;
}

/* Sort @v by its key of type @kt at byte @ko of each element (plain
 * elements: the element itself, at 0). */
static int dvec_sort(sgl_ctx_t *root, sgl_dvec_t *v, sgl_dtype_t kt,
                     size_t ko, sgl_sort_stats_t *st)
{
    if (st)
        memset(st, 0, sizeof *st);
    if (sgl_ctx_is_worker(root)) {
        struct algo_block *b = my_block(root, v->id);
        if (!b)
            return SGL_ESTATE;
        struct rec_layout L = {v->elem_size, ko, algo_key_size(kt) == 8};
        map_keys(kt, &L, b->data, b->count, 1);
        TRY(local_sort(&L, b->data, b->count));
        map_keys(kt, &L, b->data, b->count, 0);
        v->counts[0] = b->count;
    } else {
        TRY(psrs_root(root, v, kt, ko, st));
    }
    if (st) {
        st->n = v->n;
        st->workers = v->workers;
        st->min_block = v->n;
        for (size_t s = 0; s < v->workers; s++) {
            if (v->counts[s] > st->max_block)
                st->max_block = v->counts[s];
            if (v->counts[s] < st->min_block)
                st->min_block = v->counts[s];
        }
    }
    return SGL_OK;
}

static int check_sort_type(sgl_dtype_t t, const char *fn, const char *what)
{
    /* 8-bit elements would need their own key and sample paths; refused
     * rather than widened behind the caller's back. */
    if (t == SGL_I8 || t == SGL_U8)
        return sgl_error_set(SGL_EINVAL,
                             "%s: 8-bit types (SGL_I8, SGL_U8) are not "
                             "supported by PSRS; %s SGL_F64, SGL_F32, "
                             "SGL_I64 or SGL_U64",
                             fn, what);
    if (algo_key_size(t) == 0)
        return sgl_error_set(SGL_EINVAL,
                             "%s: %s SGL_F64, SGL_F32, SGL_I64 or SGL_U64, "
                             "not type %d",
                             fn, what, (int)t);
    return SGL_OK;
}

/* The key must lie inside the record. */
static int check_key(size_t rec_size, sgl_dtype_t kt, size_t ko,
                     const char *fn)
{
    TRY(check_sort_type(kt, fn, "the key must be"));
    size_t kw = algo_key_size(kt);
    if (rec_size < kw || ko > rec_size - kw)
        return sgl_error_set(SGL_EINVAL,
                             "%s: a %zu-byte key at offset %zu does not fit "
                             "in records of %zu bytes",
                             fn, kw, ko, rec_size);
    if (ko > UINT32_MAX)
        return sgl_error_set(SGL_EINVAL, "%s: key offset %zu too large", fn,
                             ko);
    return SGL_OK;
}

int sgl_dvec_sort(sgl_ctx_t *root, sgl_dvec_t *v, sgl_sort_stats_t *st)
{
    TRY(algo_check_root(root, "sgl_dvec_sort"));
    TRY(algo_check_vec(v, "sgl_dvec_sort"));
    TRY(check_sort_type(v->dtype, "sgl_dvec_sort", "sorts"));
    return dvec_sort(root, v, v->dtype, 0, st);
}

int sgl_dvec_sort_by_key(sgl_ctx_t *root, sgl_dvec_t *v, sgl_dtype_t key_type,
                         size_t key_offset, sgl_sort_stats_t *st)
{
    TRY(algo_check_root(root, "sgl_dvec_sort_by_key"));
    TRY(algo_check_vec(v, "sgl_dvec_sort_by_key"));
    if (v->dtype != SGL_USER)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_dvec_sort_by_key: sorts SGL_USER records; "
                             "use sgl_dvec_sort() for type %d",
                             (int)v->dtype);
    TRY(check_key(v->elem_size, key_type, key_offset,
                  "sgl_dvec_sort_by_key"));
    return dvec_sort(root, v, key_type, key_offset, st);
}

int sgl_sort(sgl_ctx_t *root, sgl_dtype_t dtype, void *data, size_t n,
             sgl_sort_stats_t *st)
{
    TRY(algo_check_root(root, "sgl_sort"));
    if (n && !data)
        return sgl_error_set(SGL_EINVAL, "sgl_sort: data is NULL");
    TRY(check_sort_type(dtype, "sgl_sort", "sorts"));
    sgl_dvec_t *v;
    TRY(sgl_dvec_scatter(root, dtype, 0, data, n, &v));
    int rc = sgl_dvec_sort(root, v, st);
    if (!rc)
        rc = sgl_dvec_gather(root, v, data, n);
    int rc2 = sgl_dvec_free(root, v);
    return rc ? rc : rc2;
}

int sgl_sort_records(sgl_ctx_t *root, void *data, size_t n, size_t rec_size,
                     sgl_dtype_t key_type, size_t key_offset,
                     sgl_sort_stats_t *st)
{
    TRY(algo_check_root(root, "sgl_sort_records"));
    if (n && !data)
        return sgl_error_set(SGL_EINVAL, "sgl_sort_records: data is NULL");
    TRY(check_key(rec_size, key_type, key_offset, "sgl_sort_records"));
    sgl_dvec_t *v;
    TRY(sgl_dvec_scatter(root, SGL_USER, rec_size, data, n, &v));
    int rc = sgl_dvec_sort_by_key(root, v, key_type, key_offset, st);
    if (!rc)
        rc = sgl_dvec_gather(root, v, data, n);
    int rc2 = sgl_dvec_free(root, v);
    return rc ? rc : rc2;
}

const struct algo_task algo_psrs_tasks[] = {
    {sort_task, "sgl_algo.sort"},
    {NULL, NULL},
};
