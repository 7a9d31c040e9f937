/* PSRS (parallel sorting by regular sampling), flattened over all P
 * workers of the tree, in the paper's steps. The root sees only samples,
 * pivots and counts; the data moves once, worker to worker, in an
 * exchange superstep (sgl_exchange()). From the root, each step recursive
 * over the levels (lower masters pass it on and concatenate what comes
 * up):
 *
 *   1 sample     workers radix-sort their block by the values' ordered
 *                integer keys (plain values stay as they are and every
 *                read maps their key; records carry theirs mapped), hand
 *                up its size and P regular samples (struct samples_msg);
 *   2 pivots     the root sorts the <= P^2 samples by (key, global index)
 *                and picks P-1 pivots at ranks i*S/P (by the workers'
 *                speeds when they differ: sgl_ctx_worker_weights());
 *   3 partition  the pivots and the workers' offsets go down (struct
 *                pivots_msg); workers split their block at the pivots and
 *                stage the P buckets, in place, for the exchange;
 *   4 exchange   every bucket goes to its worker;
 *   5 merge      workers P-way merge the runs where the exchange left
 *                them (records: and map their keys back), hand up their
 *                new size.
 *
 * Ties are broken by the element's global index (its position in the
 * concatenation of the locally sorted blocks), so the composite keys are
 * distinct: all-equal input splits exactly like distinct input (blocks of
 * n/P). Floats are ordered as IEEE totalOrder, except that every NaN (of
 * either sign) sorts after +inf; -0.0 sorts before +0.0.
 *
 * Why flattened: with recursion per level, every level would sort and
 * exchange the data again; flattening sorts once and moves every element
 * once. Memory per worker: at most twice its block: the block and the
 * radix sort's buffer in step 1, the block (staged in place) and the
 * incoming runs in step 4, the runs and the merged block in step 5 (the
 * old block is freed first, the runs right after the merge). The closed
 * form of the cost is in psrs_cost.c. */
#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"
#include "local_sort.h"
#include "records.h"

/* ---- keys: an order-preserving bijection from values to unsigned ---- */

/* The bijections and their inverses are in local_sort.h; these pick the
 * 64-bit one of a key type (unsigned keys are themselves; the sign flip
 * of signed ones is its own inverse). */
static inline uint64_t key64(sgl_dtype_t t, uint64_t b)
{
    if (t == SGL_F64)
        return sgl__key_f64(b);
    return t == SGL_I64 ? sgl__key_i64(b) : b;
}

static inline uint64_t val64(sgl_dtype_t t, uint64_t k)
{
    if (t == SGL_F64)
        return sgl__val_f64(k);
    return t == SGL_I64 ? sgl__key_i64(k) : k;
}

/* Map the keys of @n records (at L->ko in each) to keys (@to) or back, in
 * place. Plain values are never rewritten: their sorts, bounds and merges
 * map each key as they read it. */
static void map_record_keys(sgl_dtype_t t, const struct rec_layout *L,
                            void *data, size_t n, int to)
{
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
            b = to ? sgl__key_f32(b) : sgl__val_f32(b);
            memcpy(r, &b, 4);
        }
    }
}

/* Plain elements are their key; records carry one at L->ko. */
static int is_plain(const struct rec_layout *L)
{
    return L->es == (L->wide ? 8u : 4u);
}

/* Records by their mapped keys. The record radix sort takes multiples of
 * 4 bytes; others (rare) take the plain LSD record sort. Both are
 * stable. */
static int sort_records(const struct rec_layout *L, void *a, size_t n)
{
    return L->es % 4 == 0 && L->es <= ALGO_SORT_MAX_ES
               ? sgl__algo_sort_records(a, n, L->es, L->ko, L->wide ? 8 : 4)
               : sgl__rec_sort(L, a, n);
}

/* Sort a block in place by key: plain elements as they are (the sort maps
 * each key as it reads it, which saves two passes over memory), records by
 * their mapped keys, mapped back after. */
static int sort_in_place(sgl_dtype_t t, const struct rec_layout *L, void *a,
                         size_t n)
{
    if (is_plain(L)) {
        if (!L->wide)
            return sgl__algo_sort_f32(a, n);
        return t == SGL_F64   ? sgl__algo_sort_f64(a, n)
               : t == SGL_I64 ? sgl__algo_sort_i64(a, n)
                              : sgl__algo_sort_u64(a, n);
    }
    map_record_keys(t, L, a, n, 1);
    int rc = sort_records(L, a, n);
    map_record_keys(t, L, a, n, 0);
    return rc;
}

/* The key of element @pos of a sorted block: records carry it mapped
 * (at L->ko), plain values are mapped as they are read. */
static uint64_t key_of(sgl_dtype_t t, const struct rec_layout *L,
                       const void *a, size_t pos)
{
    uint64_t k = sgl__rec_key(L, a, pos);
    if (!is_plain(L))
        return k;
    return L->wide ? key64(t, k) : sgl__key_f32((uint32_t)k);
}

/* First element of the sorted block whose key is >= k (upper == 0) or
 * > k (upper != 0). */
static size_t bound(sgl_dtype_t t, const struct rec_layout *L, const void *a,
                    size_t n, uint64_t k, int upper)
{
    if (!is_plain(L))
        return sgl__rec_bound(L, a, n, k, upper);
    if (!L->wide)
        return sgl__algo_bound_f32(a, n, k, upper);
    return t == SGL_F64   ? sgl__algo_bound_f64(a, n, k, upper)
           : t == SGL_I64 ? sgl__algo_bound_i64(a, n, k, upper)
                          : sgl__algo_bound_u64(a, n, k, upper);
}

/* Elements of the sorted block (at global offset @off) below the composite
 * pivot (k, g). */
static size_t split_at(sgl_dtype_t t, const struct rec_layout *L,
                       const void *a, size_t n, size_t off, uint64_t k,
                       uint64_t g)
{
    size_t lo = bound(t, L, a, n, k, 0), hi = bound(t, L, a, n, k, 1);
    if (g <= off + lo)
        return lo;
    if (g >= off + hi)
        return hi;
    return (size_t)(g - off);
}

/* ---- message layouts ---- */

/* A regular sample, and a pivot: a key and the global index of its
 * element, so that equal keys still order (the composite keys are
 * distinct). */
struct sample {
    uint64_t key, g;
};

/* What a worker hands up in the sample step: its block's size and P
 * regular samples. */
struct samples_msg {
    uint64_t count;
    uint64_t pad;
    struct sample s[];
};

static size_t samples_msg_size(size_t p)
{
    return sizeof(struct samples_msg) + p * sizeof(struct sample);
}

/* Worker @w's message in a concatenation of them. */
static struct samples_msg *samples_at(void *msgs, size_t w, size_t p)
{
    return (struct samples_msg *)((char *)msgs + w * samples_msg_size(p));
}

/* What the root broadcasts in the partition step: the P-1 pivots, then
 * every worker's global offset (its first element's index in the
 * concatenation of the sorted blocks). */
struct pivots_msg {
    const struct sample *pivot; /* P - 1 */
    const uint64_t *offset;     /* P */
};

static size_t pivots_msg_words(size_t p) { return 2 * (p - 1) + p; }

static struct pivots_msg pivots_view(const uint64_t *words, size_t p)
{
    return (struct pivots_msg){(const struct sample *)(const void *)words,
                               words + 2 * (p - 1)};
}

/* ---- the steps ---- */

enum psrs_step { STEP_SAMPLE = 1, STEP_PARTITION = 2, STEP_MERGE = 3 };

struct sort_arg {
    uint32_t id;
    uint32_t dtype;  /* of the key */
    uint64_t p;      /* workers */
    uint32_t step;   /* enum psrs_step */
    uint32_t ko;     /* the key's byte offset in a record */
    uint64_t es;     /* element (record) bytes */
    uint64_t s;      /* regular samples per worker: P, more when the
                        workers' weights differ (oversample()) */
};

static struct rec_layout layout_of(const struct sort_arg *a,
                                   const struct algo_block *b)
{
    return (struct rec_layout){b->elem_size, a->ko,
                               sgl__algo_key_size((sgl_dtype_t)a->dtype) == 8};
}

static int sort_task(sgl_ctx_t *ctx, const void *arg, size_t size);

static struct algo_block *my_block(sgl_ctx_t *ctx, uint32_t id)
{
    struct algo_block *b = sgl__algo_block_find(ctx, id);
    if (!b)
        sgl_error_set(SGL_ESTATE, "worker %zu has no block of vector %u",
                      sgl_ctx_first_worker(ctx), id);
    return b;
}

/* Sample step, worker: sort the block, hand up its size and P regular
 * samples. */
static int sample_worker(sgl_ctx_t *ctx, const struct sort_arg *a)
{
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    struct rec_layout L = layout_of(a, b);
    sgl_dtype_t t = (sgl_dtype_t)a->dtype;
    /* Plain values stay as they are until the end: the sort, the bounds
     * and the merge read their keys. Records carry theirs mapped. */
    if (is_plain(&L)) {
        TRY(sort_in_place(t, &L, b->data, b->count));
    } else {
        map_record_keys(t, &L, b->data, b->count, 1);
        TRY(sort_records(&L, b->data, b->count));
    }
    size_t m = b->count, s = a->s;
    struct samples_msg *msg;
    TRY(sgl_put_buffer(ctx, samples_msg_size(s), 1, (void **)&msg));
    msg->count = m;
    msg->pad = 0;
    for (size_t j = 0; j < s; j++) {
        size_t pos = m ? (size_t)(((algo_u128)j * m) / s) : 0;
        msg->s[j] = (struct sample){m ? key_of(t, &L, b->data, pos) : 0, pos};
    }
    return SGL_OK;
}

/* Partition step, worker: split the sorted block at the pivots into one
 * bucket per worker and stage the buckets, in place, for the exchange. */
static int partition_worker(sgl_ctx_t *ctx, const struct sort_arg *a,
                            struct pivots_msg pv)
{
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    struct rec_layout L = layout_of(a, b);
    size_t p = a->p, m = b->count;
    size_t off = pv.offset[sgl_ctx_first_worker(ctx)];
    size_t *bucket = malloc(p * sizeof *bucket);
    if (!bucket)
        return sgl_error_set(SGL_ENOMEM, "sort: out of memory");
    size_t prev = 0;
    for (size_t d = 0; d + 1 < p; d++) {
        size_t s = split_at((sgl_dtype_t)a->dtype, &L, b->data, m, off,
                            pv.pivot[d].key, pv.pivot[d].g);
        if (s < prev)
            s = prev;
        bucket[d] = s - prev;
        prev = s;
    }
    bucket[p - 1] = m - prev;
    int rc = sgl_exchange_put(ctx, b->data, b->elem_size, 0, p, bucket);
    free(bucket);
    return rc;
}

/* Merge step, worker: the block went out in the exchange; P-way merge the
 * runs that came in, reading them where they lie, and hand up the new
 * size. */
static int merge_worker(sgl_ctx_t *ctx, const struct sort_arg *a)
{
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    free(b->data);
    b->data = NULL;
    b->count = 0;
    void *runs;
    size_t m, nrun;
    const size_t *len;
    TRY(sgl_exchange_recv(ctx, b->elem_size, &runs, &m, &len, &nrun, NULL));
    size_t es = b->elem_size;
    void *out = malloc(m ? m * es : 1);
    size_t *scratch = malloc(3 * (nrun ? nrun : 1) * sizeof *scratch);
    if (!out || !scratch) {
        free(out);
        free(scratch);
        return sgl_error_set(SGL_ENOMEM, "sort: out of memory");
    }
    const uint64_t *lens = (const uint64_t *)len;
    struct rec_layout L = layout_of(a, b);
    sgl_dtype_t t = (sgl_dtype_t)a->dtype;
    size_t *pos = scratch + nrun, *end = scratch + 2 * nrun;
    if (!is_plain(&L))
        sgl__rec_merge(&L, runs, lens, nrun, out, scratch);
    else if (es == 4)
        sgl__algo_merge_f32(runs, lens, nrun, out, scratch, pos, end);
    else if (t == SGL_F64)
        sgl__algo_merge_f64(runs, lens, nrun, out, scratch, pos, end);
    else if (t == SGL_I64)
        sgl__algo_merge_i64(runs, lens, nrun, out, scratch, pos, end);
    else
        sgl__algo_merge_u64(runs, lens, nrun, out, scratch, pos, end);
    free(scratch);
    /* The runs are merged: free them before the block is handed on. */
    int rc = sgl_exchange_release(ctx);
    if (rc) {
        free(out);
        return rc;
    }
    if (!is_plain(&L))
        map_record_keys(t, &L, out, m, 0);
    b->data = out;
    b->count = m;
    uint64_t count = m;
    return sgl_put(ctx, &count, sizeof count, 1);
}

/* A master below the root: pass the step on and concatenate what comes
 * up. */
static int forward(sgl_ctx_t *ctx, const struct sort_arg *a)
{
    if (a->step == STEP_PARTITION) {
        void *pv;
        size_t words;
        TRY(sgl_recv(ctx, 8, &pv, &words));
        TRY(sgl_bcast(ctx, pv, 8, words));
    }
    TRY(sgl_pardo(ctx, sort_task, a, sizeof *a));
    if (a->step == STEP_PARTITION)
        return SGL_OK;
    size_t size = a->step == STEP_SAMPLE ? samples_msg_size(a->s) : 8;
    void *up;
    TRY(sgl_put_buffer(ctx, size, sgl_ctx_workers(ctx), &up));
    return sgl_gather(ctx, up, size, sgl_ctx_workers(ctx), NULL);
}

static int sort_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct sort_arg *a = arg;
    if (sgl_ctx_is_master(ctx))
        return forward(ctx, a);
    switch (a->step) {
    case STEP_SAMPLE:
        return sample_worker(ctx, a);
    case STEP_PARTITION: {
        void *pv;
        size_t words;
        TRY(sgl_recv(ctx, 8, &pv, &words));
        if (words != pivots_msg_words(a->p))
            return sgl_error_set(SGL_ESIZE, "sort: %zu pivot words", words);
        return partition_worker(ctx, a, pivots_view(pv, a->p));
    }
    default:
        return merge_worker(ctx, a);
    }
}

static int sample_cmp(const void *x, const void *y)
{
    const struct sample *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->g > b->g) - (a->g < b->g);
}

/* A sample and the number of elements of its block it stands for (up to
 * the block's next sample). */
struct weighed_sample {
    struct sample s;
    uint64_t mass;
};

static int weighed_cmp(const void *x, const void *y)
{
    return sample_cmp(&((const struct weighed_sample *)x)->s,
                      &((const struct weighed_sample *)y)->s);
}

/* Pivot i (of P-1) where the sorted samples' masses reach n S_i / S, S_i
 * the summed weights of workers 0 .. i-1 of @wsum: each worker gets a
 * share of the output in proportion to its speed. With equal weights the
 * paper's rule, rank i*S/P of the S samples, stands (choose_pivots()). */
static void weighed_pivots(const struct weighed_sample *smp, size_t ns,
                           const uint64_t *wsum, size_t p, size_t n,
                           struct sample *pivot)
{
    uint64_t below = 0;
    size_t k = 0;
    for (size_t i = 1; i < p; i++) {
        uint64_t target = (uint64_t)(((algo_u128)n * wsum[i]) / wsum[p]);
        while (k + 1 < ns && below + smp[k].mass <= target)
            below += smp[k++].mass;
        pivot[i - 1] = ns ? smp[k].s : (struct sample){0, 0};
    }
}

/* The root, between the sample and the partition step: the workers'
 * offsets, and P-1 pivots: at ranks i*S/P of the S samples, or by the
 * workers' weights when they differ (@wsum: P + 1 prefix sums, NULL when
 * all are equal). Writes pivots_msg_words(p) words at @words. */
static int choose_pivots(sgl_dvec_t *v, void *msgs, size_t p, size_t s,
                         const uint64_t *wsum, uint64_t *words,
                         size_t *ret_samples)
{
    struct weighed_sample *smp = malloc(p * s * sizeof *smp);
    if (!smp)
        return sgl_error_set(SGL_ENOMEM, "sort: out of memory at the root");
    struct sample *pivot = (struct sample *)(void *)words;
    uint64_t *offset = words + 2 * (p - 1);
    size_t ns = 0, off = 0;
    for (size_t w = 0; w < p; w++) {
        const struct samples_msg *msg = samples_at(msgs, w, s);
        offset[w] = off;
        for (size_t j = 0; msg->count && j < s; j++) {
            uint64_t next = j + 1 < s ? msg->s[j + 1].g : msg->count;
            smp[ns++] = (struct weighed_sample){
                {msg->s[j].key, off + msg->s[j].g}, next - msg->s[j].g};
        }
        off += msg->count;
    }
    if (off != v->n) {
        free(smp);
        return sgl_error_set(SGL_ESIZE, "sort: the workers hold %zu "
                                        "elements, the vector %zu",
                             off, v->n);
    }
    qsort(smp, ns, sizeof *smp, weighed_cmp);
    if (wsum)
        weighed_pivots(smp, ns, wsum, p, off, pivot);
    else
        for (size_t i = 1; i < p; i++)
            pivot[i - 1] = ns ? smp[i * ns / p].s : (struct sample){0, 0};
    free(smp);
    *ret_samples = ns;
    return SGL_OK;
}

/* Regular samples per worker. P samples place a cut within about n / P^2
 * elements of its target, fine for equal shares; a slow worker's share
 * can be far smaller, so uneven weights take up to 16x as many (the
 * heaviest over the lightest, 4x), as long as the root's P s samples stay
 * below 2^22. */
static size_t oversample(const uint64_t *wsum, size_t p)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < p; i++) {
        uint64_t w = wsum[i + 1] - wsum[i];
        lo = w < lo ? w : lo;
        hi = w > hi ? w : hi;
    }
    size_t f = (size_t)((4 * hi + lo - 1) / lo);
    size_t room = ((size_t)1 << 22) / (p * p);
    f = f < 16 ? f : 16;
    f = f < room ? f : room;
    return p * (f > 1 ? f : 1);
}

/* The workers' weights as P + 1 prefix sums (the vectors' layout's), or
 * NULL (*ret) when they are all equal; *ret_s the samples per worker. */
static int worker_weights(sgl_ctx_t *root, size_t p, uint64_t **ret,
                          size_t *ret_s)
{
    uint64_t *s;
    *ret = NULL;
    *ret_s = p;
    TRY(sgl__algo_weight_prefix(root, &s));
    int equal = 1;
    for (size_t i = 1; i < p; i++)
        equal &= s[i + 1] - s[i] == s[1] - s[0];
    if (equal) {
        free(s);
    } else {
        *ret = s;
        *ret_s = oversample(s, p);
    }
    return SGL_OK;
}

/* PSRS at the root, in the paper's steps: the root sees only samples,
 * pivots and counts; the data moves once, worker to worker. */
static int psrs_root(sgl_ctx_t *root, sgl_dvec_t *v, sgl_dtype_t kt,
                     size_t ko, sgl_sort_stats_t *st)
{
    size_t p = sgl_ctx_workers(root);
    uint64_t *wsum = NULL;
    size_t s = p, samples = 0;
    int rc = worker_weights(root, p, &wsum, &s);
    struct sort_arg a = {v->id,        (uint32_t)kt, p, STEP_SAMPLE,
                         (uint32_t)ko, v->elem_size, s};
    void *msgs = malloc(p * samples_msg_size(s));
    uint64_t *pivots = malloc(pivots_msg_words(p) * 8);
    uint64_t *counts = malloc(p * sizeof *counts);
    if (!rc && !(msgs && pivots && counts))
        rc = sgl_error_set(SGL_ENOMEM, "sort: out of memory at the root");
    /* 1. sample: local sorts, regular samples up. */
    if (!rc)
        rc = sgl_pardo(root, sort_task, &a, sizeof a);
    if (!rc)
        rc = sgl_gather(root, msgs, samples_msg_size(s), p, NULL);
    /* 2. pivots. */
    if (!rc)
        rc = choose_pivots(v, msgs, p, s, wsum, pivots, &samples);
    /* 3. partition: pivots down, buckets staged in place. */
    a.step = STEP_PARTITION;
    if (!rc)
        rc = sgl_bcast(root, pivots, 8, pivots_msg_words(p));
    if (!rc)
        rc = sgl_pardo(root, sort_task, &a, sizeof a);
    /* 4. exchange: every bucket to its worker. */
    if (!rc)
        rc = sgl_exchange(root);
    /* 5. merge: the runs merged, the new sizes up. */
    a.step = STEP_MERGE;
    if (!rc)
        rc = sgl_pardo(root, sort_task, &a, sizeof a);
    if (!rc)
        rc = sgl_gather(root, counts, sizeof *counts, p, NULL);
    for (size_t w = 0; !rc && w < p; w++)
        v->counts[w] = counts[w];
    if (!rc && st)
        st->samples = samples;
    free(msgs);
    free(pivots);
    free(counts);
    free(wsum);
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
        struct rec_layout L = {v->elem_size, ko, sgl__algo_key_size(kt) == 8};
        TRY(sort_in_place(kt, &L, b->data, b->count));
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
    if (sgl__algo_key_size(t) == 0)
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
    size_t kw = sgl__algo_key_size(kt);
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
    TRY(sgl__algo_check_root(root, "sgl_dvec_sort"));
    TRY(sgl__algo_check_vec(v, "sgl_dvec_sort"));
    TRY(check_sort_type(v->dtype, "sgl_dvec_sort", "sorts"));
    return dvec_sort(root, v, v->dtype, 0, st);
}

int sgl_dvec_sort_by_key(sgl_ctx_t *root, sgl_dvec_t *v, sgl_dtype_t key_type,
                         size_t key_offset, sgl_sort_stats_t *st)
{
    TRY(sgl__algo_check_root(root, "sgl_dvec_sort_by_key"));
    TRY(sgl__algo_check_vec(v, "sgl_dvec_sort_by_key"));
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
    TRY(sgl__algo_check_root(root, "sgl_sort"));
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
    TRY(sgl__algo_check_root(root, "sgl_sort_records"));
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

const struct algo_task sgl__algo_psrs_tasks[] = {
    {sort_task, "sgl_algo.sort"},
    {NULL, NULL},
};
