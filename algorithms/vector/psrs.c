/* PSRS (parallel sorting by regular sampling) in the paper's steps, at a
 * level's master X over the workers below it. The masters see only
 * samples, pivots and counts; the data moves worker to worker in an
 * exchange superstep (sgl_exchange()). Each step is recursive over the
 * levels below X (lower masters pass it on and hand up what comes up).
 *
 *   1 sample     workers radix-sort their block by the values' ordered
 *                integer keys (plain values stay as they are and every
 *                read maps their key; records carry theirs mapped) and
 *                hand up its size and s regular samples (struct
 *                samples_msg);
 *   2 pivots     X sorts the samples and picks k-1 pivots between its k
 *                groups (struct pivots_msg);
 *   3 partition  workers split their block at the pivots and stage the k
 *                buckets, in place, for the exchange;
 *   4 exchange   every bucket goes to its group;
 *   5 merge      workers merge the runs where the exchange left them,
 *                and hand up their new size.
 *
 * At the top of a flat sort, step 1 also looks for presorted input
 * (presorted(), psrs_runs.c): each worker first scans its block as it
 * came (random input leaves after a chunk) and hands up its shape (in
 * order, in reverse order) and first and last key with its samples
 * (struct runs_unit); after the gather the root's verdict
 * (sgl_sort_stats_t.path) is
 *     sorted     the blocks concatenate in order: the workers skipped
 *                their local sort, nothing moves (records: a finish step
 *                maps their keys back);
 *     reversed   they concatenate in reverse order: worker w's block
 *                goes whole to worker P-1-w, no pivots. Where every
 *                worker shares the root's process the sample step put
 *                each block in order in place (plain keys: in the scan's
 *                own pass, sgl__runs_classify_reverse()) and left it in
 *                a slot (sort_arg.handoff); one take step swaps the
 *                blocks' memory: no exchange, no copy. Across processes
 *                each block stays as it came (the sample step reads its
 *                samples backwards), the mirror step stages it whole
 *                for worker P-1-w, the exchange moves it, the merge step
 *                copies it backwards into place (copy_backwards());
 *     samples    anything else, or a worker that would end up more than
 *                1/16 above its share: steps 2 to 5 as below (a block
 *                left in reverse order is reversed first,
 *                settle_reversed()).
 * The local sort itself chooses by what it sees (local_sort.c): one pass
 * for a block in order or reversed, two for a nearly sorted one, else
 * the radix sort; the choice goes up with the samples
 * (sgl_sort_stats_t.local).
 *
 * The stay path (flat, plain keys; psrs_stay.c): a worker of which at most
 * 1/16 of the sorted block leaves, all on one side of its own bucket
 * (almost sorted input), stages only the leavers, from where they lie,
 * and merges the arrivals into its own bucket in place, instead of
 * sending its whole block through the exchange to itself.
 *
 * Two variants (sgl_sort_variant()):
 *   flat      X is the root and its groups are all P workers, s = P: the
 *             paper's PSRS. The root sorts P^2 samples; every element
 *             moves once.
 *   by level  X's groups are its children, s >= max(k, 256); a master
 *             below X thins its subtree's samples to s (thin_units()), so
 *             X sorts s per child; 6 descend: every child then sorts its
 *             subtree in the same way (the blocks are sorted already, so
 *             step 1 only samples), down to masters of workers, which
 *             split flat. Every element moves once per level; a master
 *             sorts s samples per child instead of P per worker, which at
 *             P in the thousands is what decides (psrs_cost.c).
 *
 * Ties are broken by the element's place (its worker and position in the
 * worker's sorted block), so the composite keys are distinct and follow
 * the concatenation of the blocks: all-equal input splits like distinct
 * input, and records stay in order (stable). Floats are ordered as IEEE
 * totalOrder, except that every NaN (of either sign) sorts after +inf;
 * -0.0 sorts before +0.0.
 *
 * Memory per worker: at most twice its block: the block and the radix
 * sort's buffer in step 1, the block (staged in place) and the incoming
 * runs in step 4, the runs and the merged block in step 5 (the old block
 * is freed first, the runs right after the merge; on the stay path the
 * block grows by the arrivals, which it then merges; on the reverse path
 * in one process nothing more: the blocks change hands, so a block's
 * memory was first touched by its mirror, which on a NUMA machine may
 * sit on another node). The root holds
 * P max(P, 256) samples (level_samples()). The closed forms of the cost
 * are in psrs_cost.c. */
#include <stdlib.h>
#include <string.h>

#include <sgl/predict.h>
#include <sgl/balance.h>
#include <sgl/blocks.h>
#include <sgl/exchange.h>
#include <sgl/trace.h>

#include "algo_internal.h"
#include "cost.h"
#include "local_sort.h"
#include "psrs_runs.h"
#include "psrs_stay.h"
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
            memcpy(&b, r, sizeof b);
            b = to ? key64(t, b) : val64(t, b);
            memcpy(r, &b, sizeof b);
        } else {
            uint32_t b;
            memcpy(&b, r, sizeof b);
            b = to ? sgl__key_f32(b) : sgl__val_f32(b);
            memcpy(r, &b, sizeof b);
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

/* The local sort sort_in_place() or sort_records() just chose on this
 * thread (SGL_SORT_LOCAL_*); the plain LSD record sort counts as radix. */
static unsigned local_choice(const struct rec_layout *L)
{
    int direct = L->es % 4 == 0 && L->es <= ALGO_SORT_MAX_ES;
    return direct ? sgl__algo_sort_choice() : SGL_SORT_LOCAL_RADIX;
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

/* ---- where an element stands ---- */

/* An element's place in the current distribution: its worker (depth-first
 * index) and its position in that worker's sorted block, packed as
 * worker << AT_POS_BITS | position. With the key it makes every element's
 * composite key distinct, in the order of the concatenated blocks. */
enum { AT_POS_BITS = 40 };
#define AT_MAX_WORKERS ((uint64_t)1 << (64 - AT_POS_BITS))
#define AT_MAX_BLOCK ((uint64_t)1 << AT_POS_BITS)

static uint64_t at_of(size_t worker, size_t pos)
{
    return (uint64_t)worker << AT_POS_BITS | pos;
}

/* Elements of worker @w's sorted block below the composite pivot
 * (k, at): every key below k, and of the elements equal to k those that
 * stand before the pivot's place. */
static size_t split_at(sgl_dtype_t t, const struct rec_layout *L, const void *a,
                       size_t n, size_t w, uint64_t k, uint64_t at)
{
    size_t lo = bound(t, L, a, n, k, 0), hi = bound(t, L, a, n, k, 1);
    size_t pw = (size_t)(at >> AT_POS_BITS);
    size_t pos = (size_t)(at & (AT_MAX_BLOCK - 1));
    if (w != pw)
        return w < pw ? hi : lo;
    return pos < lo ? lo : pos > hi ? hi : pos;
}

/* ---- message layouts ---- */

/* Messages other than the sample units are arrays of 64-bit words: the
 * pivots message (below) and the new sizes handed up, one word per
 * worker. */
typedef uint64_t msg_word;
#define MSG_WORD sizeof(msg_word)

/* A regular sample: a key, its element's place, and its mass: the
 * elements it stands for, from it up to the next sample of its block (of
 * its subtree, once a master has thinned the samples). */
struct sample {
    uint64_t key, at, mass;
};

/* A unit of the sample step: what a worker hands up (its block's size and
 * its regular samples), or, in the by-level variant, what a master makes
 * of its subtree's units (their sizes summed, their samples thinned to at
 * most as many). Fixed size: room for s samples, ns of them used. */
struct samples_msg {
    uint64_t count;
    uint64_t ns;
    uint64_t local; /* the local sorts chosen below (SGL_SORT_LOCAL_*),
                       ORed; 0 where the blocks were sorted already */
    struct runs_unit shape; /* a worker's block as it came (size, in
                               order or in reverse order, first and last
                               key); a thinned unit's: 0 */
    struct sample s[];
};

static size_t samples_msg_size(size_t s)
{
    return sizeof(struct samples_msg) + s * sizeof(struct sample);
}

/* Unit @u in a concatenation of them. */
static struct samples_msg *samples_at(void *msgs, size_t u, size_t s)
{
    return (struct samples_msg *)((char *)msgs + u * samples_msg_size(s));
}

/* The local sorts the @units chose, ORed. */
static unsigned units_local(void *msgs, size_t units, size_t s)
{
    uint64_t local = 0;
    for (size_t u = 0; u < units; u++)
        local |= samples_at(msgs, u, s)->local;
    return (unsigned)local;
}

/* A pivot: the composite key that separates two groups. */
struct pivot {
    uint64_t key, at;
};

/* A group of workers that receives one bucket: consecutive workers from
 * @first; a bucket goes to one of them (partition_worker()). */
struct group {
    uint64_t first, workers;
};

/* What a level's master broadcasts in the partition step: its first
 * worker, the k groups its workers' buckets go to, the k-1 pivots between
 * them. */
struct pivots_head {
    uint64_t k, first;
};

struct pivots_msg {
    size_t k, first;
    const struct pivot *pivot; /* k - 1 */
    const struct group *group; /* k */
};

static size_t pivots_msg_words(size_t k)
{
    return (sizeof(struct pivots_head) + (k - 1) * sizeof(struct pivot) +
            k * sizeof(struct group)) /
           MSG_WORD;
}

/* Write the head and the groups of a message for k groups at @words
 * (pivots_msg_words(k) of them); the k-1 pivots are to be filled at the
 * address returned. */
static struct pivot *pivots_init(uint64_t *words, size_t k, size_t first,
                                 const struct group *group)
{
    struct pivots_head *h = (struct pivots_head *)(void *)words;
    *h = (struct pivots_head){k, first};
    struct pivot *pv = (struct pivot *)(void *)(h + 1);
    memcpy(pv + (k - 1), group, k * sizeof *group);
    return pv;
}

static struct pivots_msg pivots_view(const uint64_t *words)
{
    const struct pivots_head *h = (const void *)words;
    const struct pivot *pv = (const void *)(h + 1);
    return (struct pivots_msg){(size_t)h->k, (size_t)h->first, pv,
                               (const struct group *)(pv + (h->k - 1))};
}

/* ---- the steps ---- */

enum psrs_step {
    STEP_SAMPLE = 1,
    STEP_PARTITION = 2,
    STEP_MERGE = 3,
    STEP_DESCEND = 4,
    STEP_MIRROR = 5,
    STEP_FINISH = 6
};

/* A worker's block as its sample step left it, which its mirror takes
 * on the reverse path without the exchange: its memory and size. */
struct mirror_slot {
    void *data;
    size_t count;
};

struct sort_arg {
    uint32_t id;
    uint32_t dtype;  /* of the key */
    uint32_t step;   /* enum psrs_step */
    uint32_t ko;     /* the key's byte offset in a record */
    uint64_t es;     /* element (record) bytes */
    uint64_t s;      /* regular samples per unit (level_samples()) */
    uint32_t levels; /* the by-level variant: masters thin the samples,
                        lower levels sort their own subtrees */
    uint32_t sorted; /* the blocks are sorted already (below the top) */
    uint32_t last;   /* this level's merge is the sort's last (records
                        map their keys back after it) */
    uint32_t workers; /* P, for the mirror step: w's partner is P-1-w */
    uint32_t lazy;    /* the sample step leaves a block that came in
                         reverse order as it came (flat, at the top): the
                         reverse path reads it backwards, the partition
                         step reverses it first (settle_reversed()) */
    uint32_t reversed; /* the merge step of the reverse path: the one run
                          is a block in reverse order, copied backwards */
    struct mirror_slot *handoff; /* where every worker shares the root's
                                    process (flat, at the top): one slot
                                    per worker, which its sample step
                                    fills with its block (reversed there
                                    if it came in reverse order) for the
                                    reverse path's take step; else NULL
                                    (the reverse path's exchange) */
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

/* Sort a worker's block unless a level above sorted it already (the merge
 * leaves it sorted). Plain values stay as they are until the end: the
 * sort, the bounds and the merge read their keys. Records carry theirs
 * mapped from the first sort to the last merge. */
static int sort_block(const struct sort_arg *a, struct algo_block *b,
                      int in_order)
{
    if (a->sorted)
        return SGL_OK;
    struct rec_layout L = layout_of(a, b);
    sgl_dtype_t t = (sgl_dtype_t)a->dtype;
    if (is_plain(&L))
        return in_order ? SGL_OK : sort_in_place(t, &L, b->data, b->count);
    map_record_keys(t, &L, b->data, b->count, 1);
    return in_order ? SGL_OK : sort_records(&L, b->data, b->count);
}

/* The local sort's elements, the work of kernel "sort" (for the trace,
 * and for sgl_runtime_refit_kernel()); only this step declares work. */
static int declare_sort(sgl_ctx_t *ctx, const struct sort_arg *a, size_t n)
{
    return a->sorted ? SGL_OK : sgl_ctx_add_work(ctx, (double)n);
}

/* A block in reverse order put in order in place: one read and one
 * write of each element, no second buffer. Records with equal keys keep
 * their order (each such stretch, reversed too, is reversed back). */
static void reverse_block(const struct rec_layout *L, void *a, size_t m)
{
    if (L->es == 8 || L->es == 4)
        sgl__runs_reverse_plain(a, m, L->es);
    else
        sgl__rec_reverse(L, a, m);
    if (!is_plain(L))
        sgl__rec_unreverse_equal(L, a, m);
}

/* Sample step, worker: sort the block, hand up its size and s regular
 * samples. */
static int sample_worker(sgl_ctx_t *ctx, const struct sort_arg *a)
{
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    struct rec_layout L = layout_of(a, b);
    sgl_dtype_t t = (sgl_dtype_t)a->dtype;
    size_t m = b->count, s = a->s, w = sgl_ctx_first_worker(ctx);
    if (m >= AT_MAX_BLOCK)
        return sgl_error_set(SGL_ERANGE,
                             "sort: worker %zu holds %zu "
                             "elements, more than 2^40",
                             w, m);
    b->stay = 0; /* a sort that failed before its merge step left it */
    struct samples_msg *msg;
    SGL_TRY(sgl_put_buffer(ctx, samples_msg_size(s), 1, (void **)&msg));
    msg->shape = (struct runs_unit){m, 0, 0, 0};
    /* In one process a block in reverse order is put in order now, with
     * the scan where it can (plain keys), as the mirror takes it so. */
    int done = 0;
    if (!a->sorted && a->handoff && a->lazy)
        done = sgl__runs_classify_reverse(t, &L, b->data, m, &msg->shape);
    else if (!a->sorted)
        sgl__runs_classify(t, &L, b->data, m, &msg->shape);
    int in_order = (msg->shape.shape & RUNS_UP) != 0;
    int backwards = !in_order && a->lazy && (msg->shape.shape & RUNS_DOWN);
    SGL_TRY(sort_block(a, b, in_order || backwards));
    SGL_TRY(declare_sort(ctx, a, m));
    msg->count = m;
    msg->ns = m ? s : 0;
    msg->local = a->sorted                ? 0
                 : in_order || backwards ? SGL_SORT_LOCAL_PRESORTED
                                         : local_choice(&L);
    if (a->handoff) { /* one process: in order now, the mirror may take it */
        if (backwards && !done)
            reverse_block(&L, b->data, m);
        backwards = 0;
        a->handoff[w] = (struct mirror_slot){b->data, m};
    }
    /* A block left backwards: sorted position pos holds the key at
     * m-1-pos (equal keys are equal keys, whichever record holds them). */
    for (size_t j = 0; m && j < s; j++) {
        size_t pos = (size_t)(((algo_u128)j * m) / s);
        size_t next = (size_t)(((algo_u128)(j + 1) * m) / s);
        size_t raw = backwards ? m - 1 - pos : pos;
        msg->s[j] = (struct sample){key_of(t, &L, b->data, raw), at_of(w, pos),
                                    next - pos};
    }
    return SGL_OK;
}

/* A block the sample step left in reverse order (a->lazy) where the
 * blocks were not in reverse order as a whole: sorted now, before it is
 * split. Only such a block has its first key above its last, as a sorted
 * one cannot. Records carry their keys mapped already. */
static int settle_reversed(const struct sort_arg *a, const struct rec_layout *L,
                           struct algo_block *b)
{
    sgl_dtype_t t = (sgl_dtype_t)a->dtype;
    size_t m = b->count;
    if (m < 2 || key_of(t, L, b->data, 0) <= key_of(t, L, b->data, m - 1))
        return SGL_OK;
    return is_plain(L) ? sort_in_place(t, L, b->data, m)
                       : sort_records(L, b->data, m);
}

/* The stay path (flat, plain keys, sgl__stay_chosen()): the worker's own
 * bucket @own of the buckets @count[0..@k) stays where it lies; the
 * others, all on one side of it, go out from the block; the merge step
 * merges the arrivals into the part that stayed (merge_stay()). */
static int stage_leavers(sgl_ctx_t *ctx, struct algo_block *b,
                         const size_t *count, size_t k, size_t own,
                         size_t first)
{
    size_t lo = 0;
    for (size_t i = 0; i < own; i++)
        lo += count[i];
    b->stay = 1;
    b->stay_lo = lo;
    b->stay_hi = lo + count[own];
    if (lo)
        return sgl_exchange_put(ctx, b->data, b->elem_size, first, own, count);
    if (b->stay_hi == b->count)
        return SGL_OK; /* nothing leaves */
    return sgl_exchange_put(ctx, (char *)b->data + b->stay_hi * b->elem_size,
                            b->elem_size, first + own + 1, k - own - 1,
                            count + own + 1);
}

/* Partition step, worker: split the sorted block at the pivots into one
 * bucket per group and stage the buckets, in place, for the exchange.
 * Bucket i goes to worker floor(r W_i / W_X) of group i, r this worker's
 * index below the level's master: each of the group's workers receives
 * from about as many senders, consecutive ones, so that the group's
 * workers hold its elements in their order (the sort stays stable; a
 * group of one worker takes every bucket of its range: the paper's
 * PSRS). */
static int partition_worker(sgl_ctx_t *ctx, const struct sort_arg *a,
                            struct pivots_msg pv)
{
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    struct rec_layout L = layout_of(a, b);
    b->stay = 0;
    if (a->lazy)
        SGL_TRY(settle_reversed(a, &L, b));
    size_t w = sgl_ctx_first_worker(ctx), m = b->count;
    const struct group *last = &pv.group[pv.k - 1];
    size_t wx = (size_t)(last->first + last->workers) - pv.first;
    size_t *count = calloc(wx, sizeof *count);
    if (!count)
        return sgl_error_set(SGL_ENOMEM, "sort: out of memory");
    size_t prev = 0, r = w - pv.first;
    for (size_t i = 0; i < pv.k; i++) {
        size_t cut = i + 1 < pv.k
                         ? split_at((sgl_dtype_t)a->dtype, &L, b->data, m, w,
                                    pv.pivot[i].key, pv.pivot[i].at)
                         : m;
        if (cut < prev)
            cut = prev;
        const struct group *g = &pv.group[i];
        size_t to = (size_t)(((algo_u128)r * g->workers) / wx);
        count[(size_t)g->first + to - pv.first] = cut - prev;
        prev = cut;
    }
    int rc = a->levels || !is_plain(&L) || !sgl__stay_chosen(count, wx, r, m)
                 ? sgl_exchange_put(ctx, b->data, b->elem_size, pv.first, wx,
                                    count)
                 : stage_leavers(ctx, b, count, wx, r, pv.first);
    free(count);
    return rc;
}

/* Where a worker's new block of @m elements goes once its old one (@old,
 * @had elements) left in the exchange: the old memory where the new block
 * fits in it and fills at least half, since fresh memory costs a page
 * fault per page (docs/results/2026-12-probe-vs-sweep.md, "Why a probe
 * and a sweep differed"); else fresh memory (NULL if none), the old freed.
 * (A block's capacity is at least its count.) */
static void *output_memory(void *old, size_t had, size_t m, size_t es)
{
    if (m > had || 2 * m < had) {
        free(old);
        old = NULL;
    }
    return old ? old : sgl_mem_alloc(m * es);
}

/* The @nrun runs of lengths @lens at @runs, merged into @out (@scratch: 3
 * nrun entries). */
static void merge_runs(const struct sort_arg *a, const struct rec_layout *L,
                       const void *runs, const uint64_t *lens, size_t nrun,
                       void *out, size_t *scratch)
{
    sgl_dtype_t t = (sgl_dtype_t)a->dtype;
    size_t *pos = scratch + nrun, *end = scratch + 2 * nrun;
    if (!is_plain(L))
        sgl__rec_merge(L, runs, lens, nrun, out, scratch);
    else if (L->es == 4)
        sgl__algo_merge_f32(runs, lens, nrun, out, scratch, pos, end);
    else if (t == SGL_F64)
        sgl__algo_merge_f64(runs, lens, nrun, out, scratch, pos, end);
    else if (t == SGL_I64)
        sgl__algo_merge_i64(runs, lens, nrun, out, scratch, pos, end);
    else
        sgl__algo_merge_u64(runs, lens, nrun, out, scratch, pos, end);
}

/* The reverse path's merge: the mirror's block, in reverse order as it
 * came, copied backwards into @out: one read and one write, where
 * reversing it in place and then copying it cost two of each. Records
 * with equal keys must keep their order: each such stretch, reversed by
 * the copy, is reversed back (records carry their keys mapped). */
static void copy_backwards(const struct rec_layout *L, const void *in,
                           size_t m, void *out)
{
    size_t es = L->es;
    if (es == 8) {
        const uint64_t *s = in;
        uint64_t *d = out;
        for (size_t i = 0; i < m; i++)
            d[i] = s[m - 1 - i];
    } else if (es == 4) {
        const uint32_t *s = in;
        uint32_t *d = out;
        for (size_t i = 0; i < m; i++)
            d[i] = s[m - 1 - i];
    } else {
        for (size_t i = 0; i < m; i++)
            memcpy((char *)out + i * es, (const char *)in + (m - 1 - i) * es,
                   es);
    }
    if (!is_plain(L))
        sgl__rec_unreverse_equal(L, out, m);
}

/* Merge step of the stay path (stage_leavers()): each run that came in,
 * merged in place into the part of the block that stayed; the new size
 * up. */
static int merge_stay(sgl_ctx_t *ctx, const struct sort_arg *a,
                      struct algo_block *b)
{
    void *runs;
    size_t m, nsrc, lo = b->stay_lo, hi = b->stay_hi, cap = b->count;
    const size_t *len;
    b->stay = 0;
    SGL_TRY(sgl_exchange_recv(ctx, b->elem_size, &runs, &m, &len, &nsrc,
                              NULL));
    const char *in = runs;
    int rc = SGL_OK;
    for (size_t i = 0; !rc && i < nsrc; in += len[i++] * b->elem_size) {
        if (!len[i])
            continue;
        rc = sgl__stay_merge((sgl_dtype_t)a->dtype, b->elem_size, &b->data,
                             &cap, lo, hi, in, len[i], &hi);
        lo = 0;
    }
    if (!rc && lo) /* nothing came in: the part that stayed to the start */
        memmove(b->data, (char *)b->data + lo * b->elem_size,
                (hi - lo) * b->elem_size);
    b->count = hi - lo;
    int rc2 = sgl_exchange_release(ctx);
    uint64_t count = b->count;
    rc = rc ? rc : rc2;
    return rc ? rc : sgl_put(ctx, &count, sizeof count, 1);
}

/* Merge step, worker: the block went out in the exchange; merge the runs
 * that came in, reading them where they lie, and hand up the new size. */
static int merge_worker(sgl_ctx_t *ctx, const struct sort_arg *a)
{
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    if (b->stay)
        return merge_stay(ctx, a, b);
    void *old = b->data;
    size_t had = b->count;
    b->data = NULL;
    b->count = 0;
    void *runs;
    size_t m, nsrc;
    const size_t *len;
    int rc = sgl_exchange_recv(ctx, b->elem_size, &runs, &m, &len, &nsrc,
                               NULL);
    if (rc) {
        free(old);
        return rc;
    }
    size_t es = b->elem_size;
    void *out = output_memory(old, had, m, es);
    size_t *scratch = malloc(3 * (nsrc ? nsrc : 1) * sizeof *scratch);
    uint64_t *lens = malloc((nsrc ? nsrc : 1) * sizeof *lens);
    if (!out || !scratch || !lens) {
        free(out);
        free(scratch);
        free(lens);
        return sgl_error_set(SGL_ENOMEM, "sort: out of memory");
    }
    /* The runs lie back to back, so leaving out the empty ones (most of
     * them below a by-level master) keeps the merge's fan-in to the
     * senders. */
    size_t nrun = 0;
    for (size_t i = 0; i < nsrc; i++)
        if (len[i])
            lens[nrun++] = len[i];
    struct rec_layout L = layout_of(a, b);
    if (a->reversed)
        copy_backwards(&L, runs, m, out);
    else
        merge_runs(a, &L, runs, lens, nrun, out, scratch);
    free(scratch);
    free(lens);
    /* The runs are merged: free them before the block is handed on. */
    rc = sgl_exchange_release(ctx);
    if (rc) {
        free(out);
        return rc;
    }
    b->data = out;
    b->count = m;
    uint64_t count = m;
    return sgl_put(ctx, &count, sizeof count, 1);
}

/* ---- presorted input ---- */

/* Mirror step, worker (across processes): the blocks were in reverse
 * order (each left as it came, a->lazy), so worker w's whole block
 * belongs, read backwards, to worker P-1-w; stage it there as it lies. */
static int mirror_worker(sgl_ctx_t *ctx, const struct sort_arg *a)
{
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    size_t to = (size_t)a->workers - 1 - sgl_ctx_first_worker(ctx);
    size_t count = b->count;
    return sgl_exchange_put(ctx, b->data, b->elem_size, to, 1, &count);
}

/* Take step of the reverse path in one process: the mirror's block, put
 * in order by its sample step (a->handoff), becomes this worker's, and
 * this worker's the mirror's (w and P-1-w swap, so every block keeps one
 * owner); the size up. */
static int take_mirror(sgl_ctx_t *ctx, const struct sort_arg *a)
{
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    const struct mirror_slot *s =
        &a->handoff[(size_t)a->workers - 1 - sgl_ctx_first_worker(ctx)];
    b->data = s->data;
    b->count = s->count;
    uint64_t count = b->count;
    return sgl_put(ctx, &count, sizeof count, 1);
}

/* Records carry their keys mapped until the last merge of the sort. */
static void finish_worker(const struct sort_arg *a, struct algo_block *b)
{
    struct rec_layout L = layout_of(a, b);
    if (!is_plain(&L))
        map_record_keys((sgl_dtype_t)a->dtype, &L, b->data, b->count, 0);
}

/* Finish step, worker (records already in order): their keys mapped
 * back; the size up. */
static int finish_step(sgl_ctx_t *ctx, const struct sort_arg *a)
{
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    finish_worker(a, b);
    uint64_t count = b->count;
    return sgl_put(ctx, &count, sizeof count, 1);
}

static int sample_cmp(const void *x, const void *y)
{
    const struct sample *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->at > b->at) - (a->at < b->at);
}

/* The @units' samples, sorted by composite key (*ret, *ret_n; free()). */
static int sorted_samples(void *msgs, size_t units, size_t s,
                          struct sample **ret, size_t *ret_n,
                          uint64_t *ret_count)
{
    size_t n = 0;
    uint64_t count = 0;
    for (size_t u = 0; u < units; u++)
        n += (size_t)samples_at(msgs, u, s)->ns;
    struct sample *smp = malloc((n ? n : 1) * sizeof *smp);
    if (!smp)
        return sgl_error_set(SGL_ENOMEM,
                             "sort: out of memory for %zu "
                             "samples",
                             n);
    n = 0;
    for (size_t u = 0; u < units; u++) {
        const struct samples_msg *msg = samples_at(msgs, u, s);
        memcpy(smp + n, msg->s, (size_t)msg->ns * sizeof *smp);
        n += (size_t)msg->ns;
        count += msg->count;
    }
    qsort(smp, n, sizeof *smp, sample_cmp);
    *ret = smp;
    *ret_n = n;
    *ret_count = count;
    return SGL_OK;
}

/* By-level variant, a master below the level's master: one unit for its
 * subtree from its children's: their sizes summed, their samples sorted
 * and thinned to at most s of about equal mass (each keeps its first
 * sample and the mass of those it replaces), so that every level's
 * master sorts s samples per child, not per worker. */
static int thin_units(void *msgs, size_t units, size_t s,
                      struct samples_msg *out)
{
    struct sample *smp;
    size_t n;
    uint64_t count;
    SGL_TRY(sorted_samples(msgs, units, s, &smp, &n, &count));
    uint64_t below = 0;
    size_t ns = 0;
    for (size_t j = 0; j < n; j++) {
        if (ns == 0 || below >= (uint64_t)(((algo_u128)ns * count) / s))
            out->s[ns++] = smp[j];
        else
            out->s[ns - 1].mass += smp[j].mass;
        below += smp[j].mass;
    }
    out->count = count;
    out->local = units_local(msgs, units, s);
    out->shape = (struct runs_unit){count, 0, 0, 0};
    out->ns = ns;
    free(smp);
    return SGL_OK;
}

/* A master below the level's master: pass the step on, and hand up what
 * comes up: the units concatenated (flat) or thinned to one (by level),
 * the new sizes concatenated. */
static int forward(sgl_ctx_t *ctx, const struct sort_arg *a)
{
    if (a->step == STEP_PARTITION) {
        void *pv;
        size_t words;
        SGL_TRY(sgl_recv(ctx, MSG_WORD, &pv, &words));
        SGL_TRY(sgl_bcast(ctx, pv, MSG_WORD, words));
    }
    SGL_TRY(sgl_pardo(ctx, sort_task, a, sizeof *a));
    if (a->step == STEP_PARTITION || a->step == STEP_MIRROR)
        return SGL_OK;
    size_t size = a->step == STEP_SAMPLE ? samples_msg_size(a->s) : MSG_WORD;
    size_t units = a->step == STEP_SAMPLE && a->levels ? sgl_ctx_children(ctx)
                                                       : sgl_ctx_workers(ctx);
    if (a->step == STEP_SAMPLE && a->levels) {
        void *in = malloc(units * size), *out;
        int rc = in ? sgl_gather(ctx, in, size, units, NULL)
                    : sgl_error_set(SGL_ENOMEM, "sort: out of memory");
        if (!rc)
            rc = sgl_put_buffer(ctx, size, 1, &out);
        if (!rc)
            rc = thin_units(in, units, a->s, out);
        free(in);
        return rc;
    }
    void *up;
    SGL_TRY(sgl_put_buffer(ctx, size, units, &up));
    return sgl_gather(ctx, up, size, units, NULL);
}

/* What a level's sort reports: the samples its master sorted, the local
 * sorts its workers chose (SGL_SORT_LOCAL_*, where its sample step sorted
 * them) and the path it took (SGL_SORT_PATH_*). */
struct level_report {
    size_t samples;
    unsigned local, path;
};

static int sort_level(sgl_ctx_t *x, const struct sort_arg *a, uint64_t *counts,
                      struct level_report *rep);

/* Whether the by-level variant splits @x's workers by its children: only
 * where a child has several workers (with one worker each, children are
 * workers and it is the flat case). The closed form takes the same test. */
static int has_master_child(const sgl_ctx_t *x)
{
    return sgl__cost_split_by_children(sgl_ctx_node(x));
}

/* Descend step (by level): a master sorts its subtree (its level and the
 * levels below), a worker only finishes; both hand up the new sizes. */
static int descend(sgl_ctx_t *ctx, const struct sort_arg *a)
{
    size_t wx = sgl_ctx_workers(ctx);
    if (sgl_ctx_is_master(ctx)) {
        uint64_t *counts = malloc(wx * sizeof *counts);
        struct level_report rep;
        int rc = counts ? sort_level(ctx, a, counts, &rep)
                        : sgl_error_set(SGL_ENOMEM, "sort: out of memory");
        if (!rc)
            rc = sgl_put(ctx, counts, MSG_WORD, wx);
        free(counts);
        return rc;
    }
    struct algo_block *b = my_block(ctx, a->id);
    if (!b)
        return SGL_ESTATE;
    SGL_TRY(sort_block(a, b, 0));
    SGL_TRY(declare_sort(ctx, a, b->count));
    finish_worker(a, b);
    uint64_t count = b->count;
    return sgl_put(ctx, &count, sizeof count, 1);
}

static int sort_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct sort_arg *a = arg;
    if (a->step == STEP_DESCEND)
        return descend(ctx, a);
    if (sgl_ctx_is_master(ctx))
        return forward(ctx, a);
    switch (a->step) {
    case STEP_MIRROR:
        return mirror_worker(ctx, a);
    case STEP_FINISH:
        return finish_step(ctx, a);
    case STEP_SAMPLE:
        return sample_worker(ctx, a);
    case STEP_PARTITION: {
        void *pv;
        size_t words;
        SGL_TRY(sgl_recv(ctx, MSG_WORD, &pv, &words));
        if (words < pivots_msg_words(1) ||
            words != pivots_msg_words(pivots_view(pv).k))
            return sgl_error_set(SGL_ESIZE, "sort: %zu pivot words", words);
        return partition_worker(ctx, a, pivots_view(pv));
    }
    default: {
        SGL_TRY(a->reversed && a->handoff ? take_mirror(ctx, a)
                                          : merge_worker(ctx, a));
        struct algo_block *b = my_block(ctx, a->id);
        if (!b)
            return SGL_ESTATE;
        if (a->last)
            finish_worker(a, b);
        return SGL_OK;
    }
    }
}

/* Pivot i (of k-1) where the sorted samples' masses reach n S_i / S, S_i
 * the summed weights of groups 0 .. i-1 of @wsum: each group gets a share
 * of the output in proportion to its speed. */
static void weighed_pivots(const struct sample *smp, size_t ns,
                           const uint64_t *wsum, size_t k, uint64_t n,
                           struct pivot *pivot)
{
    uint64_t below = 0;
    size_t j = 0;
    for (size_t i = 1; i < k; i++) {
        uint64_t target = (uint64_t)(((algo_u128)n * wsum[i]) / wsum[k]);
        while (j + 1 < ns && below + smp[j].mass <= target)
            below += smp[j++].mass;
        pivot[i - 1] =
            ns ? (struct pivot){smp[j].key, smp[j].at} : (struct pivot){0, 0};
    }
}

/* A level's master, between the sample and the partition step: k-1
 * pivots from the units' samples, at ranks i*S/k of the S samples (the
 * paper's rule: flat, all workers of one weight), else where their
 * masses reach each group's share by weight (@wsum: k + 1 prefix sums;
 * by level the units and blocks are uneven, and only the masses tell
 * where a share ends). */
static int choose_pivots(void *msgs, size_t units, size_t s, size_t k,
                         const uint64_t *wsum, int by_rank, struct pivot *pivot,
                         size_t *ret_samples)
{
    struct sample *smp;
    size_t ns;
    uint64_t count;
    SGL_TRY(sorted_samples(msgs, units, s, &smp, &ns, &count));
    if (!by_rank)
        weighed_pivots(smp, ns, wsum, k, count, pivot);
    else
        for (size_t i = 1; i < k; i++)
            pivot[i - 1] =
                ns ? (struct pivot){smp[i * ns / k].key, smp[i * ns / k].at}
                   : (struct pivot){0, 0};
    free(smp);
    *ret_samples = ns;
    return SGL_OK;
}

/* Regular samples per unit. k samples (one per group, the paper's P in
 * the flat variant) place a cut within about n / k^2 elements of its
 * target where the blocks' keys interleave (random input), but within
 * n / k of it where they do not: almost sorted input on 2 workers cut
 * at a quarter, 7.5e6 of 1e7 elements on one worker (traced, bench_psrs
 * --dist almost_sorted). So every master takes at least 256 (n / 256k
 * where the blocks are disjoint; the root sorts 256 k samples, not k^2,
 * below k = 256); a slow group's share can be far
 * smaller, so uneven weights take up to 16x as many (the heaviest over
 * the lightest, 4x). By level, 256 matter for another reason too: above
 * other masters its units stand for whole subtrees, whose imbalance the
 * levels below inherit, and below the top the blocks it splits are
 * uneven (each holds what a range of senders sent it), where k regular
 * samples per block bound a cut only by the largest block / k. Beyond
 * k, the master's units x samples stay below 2^22. */
static size_t level_samples(const uint64_t *wsum, size_t k, size_t units)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < k; i++) {
        uint64_t w = wsum[i + 1] - wsum[i];
        lo = w < lo ? w : lo;
        hi = w > hi ? w : hi;
    }
    size_t f = (size_t)((4 * hi + lo - 1) / lo);
    f = f > 1 && hi != lo ? (f < 16 ? f : 16) : 1;
    size_t s = k * f, room = ((size_t)1 << 22) / units;
    if (s < 256)
        s = 256;
    room = room > k ? room : k;
    return s < room ? s : room;
}

/* ---- presorted input, at the top ---- */

/* Every worker's share of @n elements, by its weight (the sizes the
 * sampled path aims at), into @share. */
static int worker_shares(sgl_ctx_t *root, size_t n, uint64_t *share)
{
    uint64_t *all;
    size_t p = sgl_ctx_workers(root);
    SGL_TRY(sgl__algo_weight_prefix(root, &all));
    for (size_t w = 0; w < p; w++)
        share[w] = all[p] ? (uint64_t)(((algo_u128)n * (all[w + 1] - all[w])) /
                                       all[p])
                          : n / p;
    free(all);
    return SGL_OK;
}

/* Whether every worker of @x runs in @x's process (threads only), where
 * the workers can hand each other memory. */
static int one_process(const sgl_ctx_t *x)
{
    const sgl_machine_t *m = sgl_ctx_machine(x);
    int rank = sgl_node_rank(sgl_ctx_node(x));
    size_t first = sgl_ctx_first_worker(x), p = sgl_ctx_workers(x);
    for (size_t w = first; w < first + p; w++)
        if (sgl_node_rank(sgl_machine_worker(m, w)) != rank)
            return 0;
    return 1;
}

/* The reverse path: every block goes whole to its mirror worker. In one
 * process the sample step put each block in order in place and left it
 * in its slot (arg->handoff): one take step swaps the blocks' memory
 * (no exchange, no copy, no receive buffer to fault in; one superstep).
 * Across processes each block moves as it came in the exchange and is
 * copied backwards into place there (the merge step, copy_backwards()).
 * The new sizes up. */
static int mirror_blocks(sgl_ctx_t *x, struct sort_arg *arg, uint64_t *counts)
{
    arg->step = STEP_MIRROR;
    if (!arg->handoff) {
        SGL_TRY(sgl_pardo(x, sort_task, arg, sizeof *arg));
        SGL_TRY(sgl_exchange(x));
    }
    arg->step = STEP_MERGE;
    arg->last = 1;
    arg->reversed = 1;
    int rc = sgl_pardo(x, sort_task, arg, sizeof *arg);
    arg->reversed = 0;
    return rc ? rc : sgl_gather(x, counts, MSG_WORD, sgl_ctx_workers(x), NULL);
}

/* After the sample step at the root of a flat sort (@msgs: one unit per
 * worker): the verdict on the blocks as they came (sgl__runs_verdict());
 * sorted: the blocks stay (records' keys mapped back: a finish step);
 * reversed: mirror_blocks(). Writes the new sizes to @counts unless
 * *ret_path is SGL_SORT_PATH_SAMPLES (then nothing moved). */
static int presorted(sgl_ctx_t *x, struct sort_arg *arg, void *msgs,
                     uint64_t *counts, unsigned *ret_path)
{
    size_t p = sgl_ctx_workers(x);
    uint64_t n = 0;
    struct runs_unit *u = malloc(p * sizeof *u);
    uint64_t *share = malloc(p * sizeof *share);
    for (size_t w = 0; u && w < p; w++) {
        u[w] = samples_at(msgs, w, arg->s)->shape;
        n += u[w].count;
    }
    int rc = u && share ? worker_shares(x, (size_t)n, share)
                        : sgl_error_set(SGL_ENOMEM, "sort: out of memory");
    struct rec_layout L = {arg->es, arg->ko,
                           sgl__algo_key_size((sgl_dtype_t)arg->dtype) == 8};
    *ret_path = rc ? SGL_SORT_PATH_SAMPLES
                   : sgl__runs_verdict(u, p, share, !is_plain(&L));
    for (size_t w = 0; !rc && w < p; w++)
        counts[w] = u[w].count;
    arg->workers = (uint32_t)p;
    arg->step = STEP_FINISH;
    if (!rc && *ret_path == SGL_SORT_PATH_SORTED && !is_plain(&L))
        rc = sgl_pardo(x, sort_task, arg, sizeof *arg);
    if (!rc && *ret_path == SGL_SORT_PATH_SORTED && !is_plain(&L))
        rc = sgl_gather(x, counts, MSG_WORD, p, NULL);
    if (!rc && *ret_path == SGL_SORT_PATH_REVERSED)
        rc = mirror_blocks(x, arg, counts);
    free(u);
    free(share);
    return rc;
}

/* A level's split: its k groups (its workers, or by level its children),
 * their weights' prefix sums (k + 1), whether all weigh the same, and
 * how many sample units its workers or children hand up. */
struct level {
    size_t k, units, first, wx;
    int by_child, equal;
    uint64_t *wsum;
    struct group *group;
};

/* Fill @l's groups and weights for master @x (l->k, l->by_child set). */
static int level_groups(sgl_ctx_t *x, struct level *l)
{
    uint64_t *all;
    SGL_TRY(sgl__algo_weight_prefix(x, &all));
    l->equal = 1;
    l->wsum[0] = 0;
    for (size_t i = 0, w = l->first; i < l->k; i++) {
        size_t n = l->by_child ? sgl_ctx_child_workers(x, (unsigned)i) : 1;
        l->group[i] = (struct group){w, n};
        l->wsum[i + 1] = l->wsum[i] + (all[w + n] - all[w]);
        l->equal &= l->wsum[i + 1] - l->wsum[i] == l->wsum[1];
        w += n;
    }
    free(all);
    return SGL_OK;
}

/* Steps 2 to 6 at master @x, its units' samples in @msgs. */
static int split_level(sgl_ctx_t *x, struct sort_arg *arg, void *msgs,
                       const struct level *l, uint64_t *counts,
                       size_t *ret_samples)
{
    size_t words = pivots_msg_words(l->k);
    uint64_t *pv = malloc(words * MSG_WORD);
    if (!pv)
        return sgl_error_set(SGL_ENOMEM, "sort: out of memory at a master");
    /* 2. pivots, and the groups they separate. */
    int rc = choose_pivots(msgs, l->units, arg->s, l->k, l->wsum,
                           l->equal && !arg->levels,
                           pivots_init(pv, l->k, l->first, l->group),
                           ret_samples);
    /* 3. partition: pivots down, buckets staged in place. */
    arg->step = STEP_PARTITION;
    if (!rc)
        rc = sgl_bcast(x, pv, MSG_WORD, words);
    if (!rc) /* the pivots travel with the pardo: free them after it */
        rc = sgl_pardo(x, sort_task, arg, sizeof *arg);
    free(pv);
    /* 4. exchange: every bucket to its group. */
    if (!rc)
        rc = sgl_exchange(x);
    /* 5. merge: the runs merged, the new sizes up. */
    arg->step = STEP_MERGE;
    if (!rc)
        rc = sgl_pardo(x, sort_task, arg, sizeof *arg);
    if (!rc)
        rc = sgl_gather(x, counts, MSG_WORD, l->wx, NULL);
    /* 6. by level: every child sorts its subtree. */
    arg->step = STEP_DESCEND;
    arg->sorted = 1;
    if (!rc && l->by_child)
        rc = sgl_pardo(x, sort_task, arg, sizeof *arg);
    if (!rc && l->by_child)
        rc = sgl_gather(x, counts, MSG_WORD, l->wx, NULL);
    return rc;
}

/* One level's PSRS at master @x over its workers: the groups are its
 * workers (flat: every bucket goes to its final worker) or, by level,
 * its children, whose masters then sort their subtrees in the same way.
 * At the top of a flat sort, presorted blocks skip steps 2 to 6
 * (presorted()). Writes the new size of each of its workers to @counts. */
static int sort_level(sgl_ctx_t *x, const struct sort_arg *a, uint64_t *counts,
                      struct level_report *rep)
{
    struct level l = {.first = sgl_ctx_first_worker(x),
                      .wx = sgl_ctx_workers(x),
                      .by_child = a->levels && has_master_child(x)};
    l.k = l.by_child ? sgl_ctx_children(x) : l.wx;
    l.units = a->levels ? sgl_ctx_children(x) : l.wx;
    struct sort_arg arg = *a;
    *rep = (struct level_report){0, 0, SGL_SORT_PATH_SAMPLES};
    if (l.k == 1) { /* one child: nothing to split here */
        arg.step = STEP_DESCEND;
        SGL_TRY(sgl_pardo(x, sort_task, &arg, sizeof arg));
        return sgl_gather(x, counts, MSG_WORD, l.wx, NULL);
    }
    l.wsum = malloc((l.k + 1) * sizeof *l.wsum);
    l.group = malloc(l.k * sizeof *l.group);
    int rc = l.wsum && l.group
                 ? level_groups(x, &l)
                 : sgl_error_set(SGL_ENOMEM, "sort: out of memory");
    arg.s = rc ? 0 : level_samples(l.wsum, l.k, l.units);
    arg.step = STEP_SAMPLE;
    arg.last = !l.by_child;
    arg.lazy = !a->sorted && !a->levels;
    /* The slots live in this process: only where every worker does. */
    arg.handoff = !rc && arg.lazy && l.units == l.wx && one_process(x)
                      ? calloc(l.wx, sizeof *arg.handoff)
                      : NULL;
    void *msgs = rc ? NULL : malloc(l.units * samples_msg_size(arg.s));
    if (!rc && !msgs)
        rc = sgl_error_set(SGL_ENOMEM, "sort: out of memory at a master");
    /* 1. sample: shapes, local sorts (at the top), regular samples up. */
    if (!rc)
        rc = sgl_pardo(x, sort_task, &arg, sizeof arg);
    if (!rc)
        rc = sgl_gather(x, msgs, samples_msg_size(arg.s), l.units, NULL);
    if (!rc)
        rep->local = units_local(msgs, l.units, arg.s);
    /* presorted blocks (at the top of a flat sort): done, or whole blocks
     * moved; else 2-6. */
    if (!rc && !a->sorted && l.units == l.wx)
        rc = presorted(x, &arg, msgs, counts, &rep->path);
    free(arg.handoff); /* the slots own nothing: the blocks do */
    arg.handoff = NULL;
    if (!rc && rep->path == SGL_SORT_PATH_SAMPLES)
        rc = split_level(x, &arg, msgs, &l, counts, &rep->samples);
    free(msgs);
    free(l.wsum);
    free(l.group);
    return rc;
}

/* ---- the variant ---- */

/* The by-level variant without machine parameters: when the flat root
 * would sort more than 2^20 samples (P > 1024) and the tree has a level
 * to split by. */
static unsigned variant_by_shape(sgl_ctx_t *root)
{
    size_t p = sgl_ctx_workers(root);
    return p > 1024 && has_master_child(root) ? SGL_SORT_LEVELS : SGL_SORT_FLAT;
}

/* The variant a sort of @n elements runs: SGL_SORT from the root's
 * environment, else the one the model prices lower on the runtime's
 * parameters (flat on a tie), else by shape. The root picks, and the pick
 * travels in the tasks' argument. */
static int sort_variant(sgl_ctx_t *root, size_t n, unsigned *ret)
{
    const char *env = getenv("SGL_SORT");
    if (env && *env && strcmp(env, "auto") != 0) {
        if (strcmp(env, "flat") == 0)
            *ret = SGL_SORT_FLAT;
        else if (strcmp(env, "levels") == 0)
            *ret = SGL_SORT_LEVELS;
        else
            return sgl_error_set(SGL_EINVAL,
                                 "SGL_SORT='%.40s': expected flat, levels "
                                 "or auto",
                                 env);
        return SGL_OK;
    }
    const sgl_machine_t *m = sgl_ctx_params(root);
    sgl_prediction_t flat, levels;
    if (!m || n == 0 || !has_master_child(root) ||
        sgl_predict_algorithm(m, SGL_PREDICT_PSRS, (double)n, NULL, &flat) ||
        sgl_predict_algorithm(m, SGL_PREDICT_PSRS_LEVELS, (double)n, NULL,
                              &levels)) {
        *ret = variant_by_shape(root);
        return SGL_OK;
    }
    *ret = levels.total < flat.total ? SGL_SORT_LEVELS : SGL_SORT_FLAT;
    return SGL_OK;
}

int sgl_sort_variant(sgl_ctx_t *root, size_t n, unsigned *ret_variant)
{
    SGL_TRY(sgl__algo_check_root(root, "sgl_sort_variant"));
    if (!ret_variant)
        return sgl_error_set(SGL_EINVAL, "sgl_sort_variant: NULL argument");
    unsigned v;
    SGL_TRY(sort_variant(root, n, &v));
    *ret_variant = v;
    return SGL_OK;
}

/* PSRS at the root: the root sees only samples, pivots and counts; the
 * data moves worker to worker, once (flat) or once per level (by
 * level), unless step 0 found it presorted. */
static int psrs_root(sgl_ctx_t *root, sgl_dvec_t *v, sgl_dtype_t kt, size_t ko,
                     unsigned variant, sgl_sort_stats_t *st)
{
    size_t p = sgl_ctx_workers(root);
    if (sgl_machine_workers(sgl_ctx_machine(root)) >= AT_MAX_WORKERS)
        return sgl_error_set(SGL_ERANGE, "sort: more than 2^24 workers");
    struct sort_arg a = {.id = v->id,
                         .dtype = (uint32_t)kt,
                         .ko = (uint32_t)ko,
                         .es = v->elem_size,
                         .levels = variant == SGL_SORT_LEVELS &&
                                   has_master_child(root)};
    uint64_t *counts = malloc(p * sizeof *counts);
    if (!counts)
        return sgl_error_set(SGL_ENOMEM, "sort: out of memory at the root");
    struct level_report rep;
    int rc = sort_level(root, &a, counts, &rep);
    uint64_t total = 0;
    for (size_t w = 0; !rc && w < p; w++)
        total += counts[w];
    if (!rc && total != v->n)
        rc = sgl_error_set(SGL_ESIZE,
                           "sort: the workers hold %llu "
                           "elements, the vector %zu",
                           (unsigned long long)total, v->n);
    for (size_t w = 0; !rc && w < p; w++)
        v->counts[w] = counts[w];
    if (!rc && st) {
        st->samples = rep.samples;
        st->path = rep.path;
        st->local = rep.local;
    }
    free(counts);
    return rc;
}

/* Sort @v by its key of type @kt at byte @ko of each element (plain
 * elements: the element itself, at 0). */
static int dvec_sort(sgl_ctx_t *root, sgl_dvec_t *v, sgl_dtype_t kt,
                     size_t ko, sgl_sort_stats_t *st)
{
    if (st)
        memset(st, 0, sizeof *st);
    unsigned variant;
    SGL_TRY(sort_variant(root, v->n, &variant));
    if (sgl_ctx_is_worker(root)) {
        struct algo_block *b = my_block(root, v->id);
        if (!b)
            return SGL_ESTATE;
        struct rec_layout L = {v->elem_size, ko, sgl__algo_key_size(kt) == 8};
        SGL_TRY(sort_in_place(kt, &L, b->data, b->count));
        v->counts[0] = b->count;
        if (st)
            st->local = local_choice(&L);
    } else {
        SGL_TRY(psrs_root(root, v, kt, ko, variant, st));
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
    SGL_TRY(check_sort_type(kt, fn, "the key must be"));
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
    SGL_TRY(sgl__algo_check_root(root, "sgl_dvec_sort"));
    SGL_TRY(sgl__algo_check_vec(v, "sgl_dvec_sort"));
    SGL_TRY(check_sort_type(v->dtype, "sgl_dvec_sort", "sorts"));
    return dvec_sort(root, v, v->dtype, 0, st);
}

int sgl_dvec_sort_records(sgl_ctx_t *root, sgl_dvec_t *v, sgl_dtype_t key_type,
                         size_t key_offset, sgl_sort_stats_t *st)
{
    SGL_TRY(sgl__algo_check_root(root, "sgl_dvec_sort_records"));
    SGL_TRY(sgl__algo_check_vec(v, "sgl_dvec_sort_records"));
    if (v->dtype != SGL_USER)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_dvec_sort_records: sorts SGL_USER records; "
                             "use sgl_dvec_sort() for type %d",
                             (int)v->dtype);
    SGL_TRY(check_key(v->elem_size, key_type, key_offset,
                  "sgl_dvec_sort_records"));
    return dvec_sort(root, v, key_type, key_offset, st);
}

int sgl_sort(sgl_ctx_t *root, sgl_dtype_t dtype, void *data, size_t n,
             sgl_sort_stats_t *st)
{
    SGL_TRY(sgl__algo_check_root(root, "sgl_sort"));
    if (n && !data)
        return sgl_error_set(SGL_EINVAL, "sgl_sort: data is NULL");
    SGL_TRY(check_sort_type(dtype, "sgl_sort", "sorts"));
    sgl_dvec_t *v;
    SGL_TRY(sgl_dvec_scatter(root, dtype, 0, data, n, &v));
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
    SGL_TRY(sgl__algo_check_root(root, "sgl_sort_records"));
    if (n && !data)
        return sgl_error_set(SGL_EINVAL, "sgl_sort_records: data is NULL");
    SGL_TRY(check_key(rec_size, key_type, key_offset, "sgl_sort_records"));
    sgl_dvec_t *v;
    SGL_TRY(sgl_dvec_scatter(root, SGL_USER, rec_size, data, n, &v));
    int rc = sgl_dvec_sort_records(root, v, key_type, key_offset, st);
    if (!rc)
        rc = sgl_dvec_gather(root, v, data, n);
    int rc2 = sgl_dvec_free(root, v);
    return rc ? rc : rc2;
}

const struct algo_task sgl__algo_psrs_tasks[] = {
    {sort_task, "sgl_algo.sort"},
    {NULL, NULL},
};
