/* The wire of the vertex-centric layer: how a worker stages the messages
 * of a superstep for the exchange, and how it delivers what it received
 * into its vertices' inbox.
 *
 * A sender's messages to one destination form one block:
 *
 *   struct wire_head { kind, raw, count }, then count messages, where
 *     WIRE_TARGETED  a message is its target vertex (uint64_t) and the
 *                    program's msg_size bytes;
 *     WIRE_PATTERN   the same, and the receiver keeps the targets, in
 *                    order, as this sender's pattern;
 *     WIRE_VALUES    a message is msg_size bytes alone, for the targets of
 *                    the sender's pattern, in its order;
 *   raw is the number of messages the sender's vertices sent to these
 *   targets before combining (what h would have been without it).
 *
 * A superstep in which every local vertex with an out-edge called
 * sgl_vertex_send_all() and none called sgl_vertex_send() sends one
 * message per fan slot (pregel_fan.c): the same targets, in the same
 * order, every time. The first such superstep of a run sends them as
 * WIRE_PATTERN, the later ones as WIRE_VALUES: half the bytes, no owner
 * check, and the folds are written straight into the staged buffer.
 * Every other superstep goes through the outbox as WIRE_TARGETED. The
 * receiver combines in the order of the source workers, then of the
 * block, so the three kinds give bitwise the same inbox.
 *
 * Under a memory budget (sgl_pregel_set_budget()) a superstep's messages
 * go out in R rounds, one exchange each, all WIRE_TARGETED: round r
 * carries, to every destination, the messages for the r-th of R equal
 * slices of its vertex range, so every message for one vertex travels in
 * the same round and the inbox is bitwise the one of a single exchange.
 * R is the smallest power of two for which no worker sends any worker
 * more than budget / workers bytes in one round (sgl__wire_plan()), so no
 * worker stages or receives more than the budget. */
#include <stdlib.h>
#include <string.h>

#include "pregel_impl.h"
#include <sgl/exchange.h>

enum wire_kind { WIRE_TARGETED = 1, WIRE_PATTERN, WIRE_VALUES };

struct wire_head {
    uint64_t kind, raw, count;
};

/* Room for @bytes in the staged buffer, kept from superstep to
 * superstep: fresh pages for every exchange would each cost a fault. */
static int staged_room(struct wgraph *g, size_t bytes)
{
    if (bytes <= g->staged_cap)
        return SGL_OK;
    free(g->staged);
    g->staged = malloc(bytes);
    g->staged_cap = g->staged ? bytes : 0;
    if (!g->staged)
        return sgl_error_set(SGL_ENOMEM, "out of memory for %zu bytes of "
                                         "messages",
                             bytes);
    return SGL_OK;
}

static unsigned char *put_head(unsigned char *at, uint64_t kind, uint64_t raw,
                               uint64_t count)
{
    struct wire_head h = {kind, raw, count};
    memcpy(at, &h, sizeof h);
    return at + sizeof h;
}

/* The fan slots of each destination worker: slots are sorted by target,
 * so each destination's are a contiguous range. */
static int fan_dests(struct wgraph *g, size_t nw)
{
    struct fan *f = &g->fan;
    if (f->dest_off && f->ndest == nw)
        return SGL_OK;
    free(f->dest_off);
    f->dest_off = malloc((nw + 1) * sizeof *f->dest_off);
    if (!f->dest_off)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    f->ndest = nw;
    size_t k = 0;
    for (size_t w = 0; w < nw; w++) {
        f->dest_off[w] = k;
        while (k < f->nslots &&
               pregel_owner_in(g->cuts, g->n, nw, f->target[k]) == w)
            k++;
    }
    f->dest_off[nw] = k;
    return SGL_OK;
}

/* Stage the folds of a full fan: one block per destination with slots. */
static int stage_fan(sgl_ctx_t *ctx, struct wgraph *g,
                     const sgl_pregel_program_t *p, size_t nw,
                     struct wire_stats *ws)
{
    SGL_TRY(fan_dests(g, nw));
    const struct fan *f = &g->fan;
    uint64_t kind = g->pattern_sent ? WIRE_VALUES : WIRE_PATTERN;
    size_t ms = p->msg_size, es = ms + (kind == WIRE_PATTERN ? 8 : 0);
    size_t *counts = calloc(nw, sizeof *counts);
    if (!counts)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    size_t bytes = 0;
    for (size_t w = 0; w < nw; w++) {
        size_t ns = f->dest_off[w + 1] - f->dest_off[w];
        counts[w] = ns ? sizeof(struct wire_head) + ns * es : 0;
        bytes += counts[w];
    }
    int rc = staged_room(g, bytes);
    unsigned char *at = g->staged;
    for (size_t w = 0; w < nw && !rc; w++) {
        size_t lo = f->dest_off[w], hi = f->dest_off[w + 1];
        if (lo == hi)
            continue;
        at = put_head(at, kind, f->off[hi] - f->off[lo], hi - lo);
        if (kind == WIRE_VALUES) {
            /* every superstep but the first: the folds alone, in a loop */
            sgl__fan_fold_range(g, p, lo, hi, at, ms);
            at += (hi - lo) * ms;
            continue;
        }
        for (size_t k = lo; k < hi; k++) {
            memcpy(at, &f->target[k], sizeof f->target[k]);
            at += sizeof f->target[k];
            sgl__fan_fold(g, p, k, at);
            at += ms;
        }
    }
    if (!rc)
        rc = sgl_exchange_put(ctx, g->staged, 1, 0, nw, counts);
    free(counts);
    sgl__fan_forget_sent(g);
    if (!rc) {
        g->pattern_sent = 1;
        ws->raw = f->off[f->nslots];
        ws->combined = f->nslots;
    }
    return rc;
}

/* Stage the outbox as targeted blocks, and empty it. */
static int stage_outbox(sgl_ctx_t *ctx, struct wgraph *g,
                        const sgl_pregel_program_t *p, size_t nw,
                        struct wire_stats *ws)
{
    struct outbox *o = &g->out;
    size_t es = sizeof(uint64_t) + p->msg_size, ms = p->msg_size;
    size_t *counts = calloc(nw, sizeof *counts), *at = calloc(nw, sizeof *at);
    uint64_t *raw = calloc(nw, sizeof *raw);
    uint32_t *dest = malloc((o->used ? o->used : 1) * sizeof *dest);
    int rc = counts && at && raw && dest
                 ? SGL_OK
                 : sgl_error_set(SGL_ENOMEM, "out of memory");
    for (size_t k = 0; k < o->used && !rc; k++) {
        dest[k] = (uint32_t)pregel_owner_in(g->cuts, g->n, nw,
                                            sgl__outbox_target(o, k));
        counts[dest[k]]++;
        raw[dest[k]] += o->hits[o->slot[k]];
    }
    size_t bytes = 0;
    for (size_t w = 0; w < nw && !rc; w++) {
        size_t n = counts[w];
        counts[w] = n ? sizeof(struct wire_head) + n * es : 0;
        at[w] = bytes;
        bytes += counts[w];
    }
    if (!rc)
        rc = staged_room(g, bytes);
    unsigned char *buf = g->staged;
    for (size_t w = 0; w < nw && !rc; w++)
        if (counts[w])
            at[w] = (size_t)(put_head(buf + at[w], WIRE_TARGETED, raw[w],
                                      (counts[w] - sizeof(struct wire_head)) /
                                          es) -
                             buf);
    for (size_t k = 0; k < o->used && !rc; k++) {
        uint64_t t = sgl__outbox_target(o, k);
        unsigned char *e = buf + at[dest[k]];
        at[dest[k]] += es;
        memcpy(e, &t, sizeof t);
        memcpy(e + sizeof t, o->msg + o->slot[k] * ms, ms);
    }
    if (!rc) {
        ws->raw = o->raw;
        ws->combined = o->used;
    }
    sgl__outbox_clear(o);
    /* Also when empty: it replaces what an earlier run left staged. */
    if (!rc)
        rc = sgl_exchange_put(ctx, buf, 1, 0, bytes ? nw : 0, counts);
    free(counts);
    free(at);
    free(raw);
    free(dest);
    return rc;
}

int sgl__wire_stage(sgl_ctx_t *ctx, struct wgraph *g,
                    const sgl_pregel_program_t *p, size_t nw,
                    struct wire_stats *ws)
{
    memset(ws, 0, sizeof *ws);
    if (g->out.used == 0 && g->nbcast > 0 && g->nbcast == g->fan.nsenders)
        return stage_fan(ctx, g, p, nw, ws);
    SGL_TRY(sgl__fan_flush(g, p));
    return stage_outbox(ctx, g, p, nw, ws);
}

/* ---- rounds under a budget ---- */

/* The owner of target @t, and the round of R that carries it. */
static size_t round_of(const struct wgraph *g, uint64_t t, size_t nw,
                       size_t R, size_t *ret_d)
{
    size_t d = pregel_owner_in(g->cuts, g->n, nw, t);
    uint64_t lo = pregel_first(g->cuts, g->n, nw, d);
    uint64_t size = pregel_first(g->cuts, g->n, nw, d + 1) - lo;
    *ret_d = d;
    return (size_t)(((algo_u128)(t - lo) * R) / size);
}

static int by_first(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* @order: the positions 0..n-1 of the slots in use, by target. */
static int sort_slots(const struct outbox *o, size_t *order, size_t n)
{
    uint64_t (*pair)[2] = malloc((n ? n : 1) * sizeof *pair);
    if (!pair)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    for (size_t k = 0; k < n; k++) {
        pair[k][0] = sgl__outbox_target(o, k);
        pair[k][1] = k;
    }
    if (n)
        qsort(pair, n, sizeof *pair, by_first);
    for (size_t k = 0; k < n; k++)
        order[k] = (size_t)pair[k][1];
    free(pair);
    return SGL_OK;
}

int sgl__wire_plan(struct wgraph *g, const sgl_pregel_program_t *p, size_t nw,
                   struct wire_stats *ws, double *maxpair)
{
    memset(ws, 0, sizeof *ws);
    SGL_TRY(sgl__fan_flush(g, p));
    struct outbox *o = &g->out;
    free(g->order);
    g->order = malloc((o->used ? o->used : 1) * sizeof *g->order);
    if (!g->order)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    SGL_TRY(sort_slots(o, g->order, o->used));
    size_t es = sizeof(uint64_t) + p->msg_size;
    for (unsigned k = 0; k <= WIRE_ROUNDS_LOG; k++) {
        size_t R = (size_t)1 << k, cur_d = SIZE_MAX, cur_r = 0;
        double bytes = 0, most = 0;
        for (size_t i = 0; i < o->used; i++) {
            uint64_t t = sgl__outbox_target(o, g->order[i]);
            size_t d, r = round_of(g, t, nw, R, &d);
            if (d != cur_d || r != cur_r) {
                cur_d = d, cur_r = r;
                bytes = sizeof(struct wire_head);
            }
            bytes += (double)es;
            most = bytes > most ? bytes : most;
        }
        maxpair[k] = most;
    }
    ws->raw = o->raw;
    ws->combined = o->used;
    g->next = 0;
    return SGL_OK;
}

static int by_round_target(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* Reorder g->order (by target) by round of @R, then target: each round's
 * messages become one run, its destinations in order. */
static int order_by_round(struct wgraph *g, size_t nw, size_t R)
{
    const struct outbox *o = &g->out;
    size_t n = o->used;
    uint64_t (*t)[3] = malloc((n ? n : 1) * sizeof *t);
    if (!t)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        uint64_t x = sgl__outbox_target(o, g->order[i]);
        size_t d;
        t[i][0] = round_of(g, x, nw, R, &d);
        t[i][1] = x;
        t[i][2] = g->order[i];
    }
    if (n)
        qsort(t, n, sizeof *t, by_round_target);
    for (size_t i = 0; i < n; i++)
        g->order[i] = (size_t)t[i][2];
    free(t);
    return SGL_OK;
}

int sgl__wire_stage_round(sgl_ctx_t *ctx, struct wgraph *g,
                          const sgl_pregel_program_t *p, size_t nw, size_t r,
                          size_t R)
{
    struct outbox *o = &g->out;
    size_t es = sizeof(uint64_t) + p->msg_size, ms = p->msg_size;
    if (r == 0 && R > 1)
        SGL_TRY(order_by_round(g, nw, R));
    /* this round's messages follow the last round's in the sorted list:
     * count them per destination */
    size_t end = g->next;
    size_t *counts = calloc(nw, sizeof *counts);
    if (!counts)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    while (end < o->used) {
        size_t d;
        if (round_of(g, sgl__outbox_target(o, g->order[end]), nw, R, &d) != r)
            break;
        counts[d]++;
        end++;
    }
    size_t bytes = 0;
    for (size_t w = 0; w < nw; w++) {
        counts[w] = counts[w] ? sizeof(struct wire_head) + counts[w] * es : 0;
        bytes += counts[w];
    }
    int rc = staged_room(g, bytes);
    unsigned char *at = g->staged;
    for (size_t i = g->next; i < end && !rc;) {
        /* one block: the run of messages to one destination */
        size_t d = pregel_owner_in(g->cuts, g->n, nw,
                                   sgl__outbox_target(o, g->order[i]));
        size_t n = (counts[d] - sizeof(struct wire_head)) / es;
        uint64_t raw = 0;
        unsigned char *head = at;
        at += sizeof(struct wire_head);
        for (size_t k = 0; k < n; k++, i++) {
            size_t slot = o->slot[g->order[i]];
            uint64_t t = sgl__outbox_target(o, g->order[i]);
            memcpy(at, &t, sizeof t);
            memcpy(at + sizeof t, o->msg + slot * ms, ms);
            at += es;
            raw += o->hits[slot];
        }
        put_head(head, WIRE_TARGETED, raw, n);
    }
    g->next = end;
    if (!rc && r + 1 == R)
        sgl__outbox_clear(o);
    if (!rc)
        rc = sgl_exchange_put(ctx, g->staged, 1, 0, bytes ? nw : 0, counts);
    free(counts);
    return rc;
}

/* Combine message @m into local vertex @i's inbox. */
static void take(struct wgraph *g, const sgl_pregel_program_t *p, size_t i,
                 const unsigned char *m)
{
    size_t ms = p->msg_size;
    if (p->combine == sgl_combine_sum_f64 && ms == sizeof(double)) {
        /* no call per message */
        double x, *acc = (double *)g->inbox + i;
        memcpy(&x, m, sizeof x);
        *acc = g->has_msg[i] ? *acc + x : x;
    } else if (p->combine == sgl_combine_sum_u64 && ms == sizeof(uint64_t)) {
        uint64_t x, *acc = (uint64_t *)g->inbox + i;
        memcpy(&x, m, sizeof x);
        *acc = g->has_msg[i] ? *acc + x : x;
    } else if (g->has_msg[i]) {
        p->combine(g->inbox + i * ms, m);
    } else {
        memcpy(g->inbox + i * ms, m, ms);
    }
    g->has_msg[i] = 1;
}

/* take() of @n messages at @m, for local vertices @pat[0..n): the
 * built-in sums in a loop without a test per message. Identities that
 * leave a message's bits as they are: 0 for integers, -0.0 for doubles
 * (-0.0 + x is x, -0.0 included). */
#define TAKE_SUM(T, ZERO)                                                     \
    do {                                                                      \
        T *acc = (T *)g->inbox;                                               \
        for (size_t k = 0; k < n; k++) {                                      \
            uint32_t i = pat[k];                                              \
            T x;                                                              \
            memcpy(&x, m + k * sizeof x, sizeof x);                           \
            acc[i] = (has[i] ? acc[i] : (ZERO)) + x;                          \
            has[i] = 1;                                                       \
        }                                                                     \
    } while (0)

static void take_pattern(struct wgraph *g, const sgl_pregel_program_t *p,
                         const uint32_t *pat, const unsigned char *m, size_t n)
{
    size_t ms = p->msg_size;
    unsigned char *has = g->has_msg;
    if (p->combine == sgl_combine_sum_u64 && ms == sizeof(uint64_t))
        TAKE_SUM(uint64_t, 0);
    else if (p->combine == sgl_combine_sum_f64 && ms == sizeof(double))
        TAKE_SUM(double, -0.0);
    else
        for (size_t k = 0; k < n; k++)
            take(g, p, pat[k], m + k * ms);
}

/* The local index of the target a message at @m names, which must be
 * one of this worker's vertices. */
static int local_target(sgl_ctx_t *ctx, const struct wgraph *g,
                        const unsigned char *m, size_t *ret)
{
    uint64_t t;
    memcpy(&t, m, sizeof t);
    if (t < g->v0 || t >= g->v1)
        return sgl_error_set(SGL_EINVAL,
                             "worker %zu received a message for vertex "
                             "%llu, not its own",
                             sgl_ctx_first_worker(ctx), (unsigned long long)t);
    *ret = (size_t)(t - g->v0);
    return SGL_OK;
}

/* Keep the targets of a pattern block from source @s as local indices. */
static int keep_pattern(sgl_ctx_t *ctx, struct wgraph *g, size_t s,
                        size_t nsrc, const unsigned char *m, size_t n,
                        size_t es)
{
    if (!g->pat) {
        g->pat = calloc(nsrc, sizeof *g->pat);
        g->pat_n = calloc(nsrc, sizeof *g->pat_n);
        g->npat = nsrc;
        if (!g->pat || !g->pat_n)
            return sgl_error_set(SGL_ENOMEM, "out of memory");
    }
    free(g->pat[s]);
    g->pat[s] = malloc((n ? n : 1) * sizeof *g->pat[s]);
    if (!g->pat[s])
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    g->pat_n[s] = n;
    for (size_t k = 0; k < n; k++) {
        size_t i = 0;
        SGL_TRY(local_target(ctx, g, m + k * es, &i));
        g->pat[s][k] = (uint32_t)i;
    }
    return SGL_OK;
}

/* Deliver one block from source @s at @b (@left bytes on); *@used set to
 * its length. */
static int deliver_block(sgl_ctx_t *ctx, struct wgraph *g,
                         const sgl_pregel_program_t *p, size_t s, size_t nsrc,
                         const unsigned char *b, size_t left, size_t *used,
                         struct wire_stats *ws)
{
    struct wire_head h;
    size_t ms = p->msg_size, es = 0;
    if (left >= sizeof h) {
        memcpy(&h, b, sizeof h);
        es = h.kind == WIRE_VALUES ? ms : sizeof(uint64_t) + ms;
    }
    if (left < sizeof h || h.kind < WIRE_TARGETED || h.kind > WIRE_VALUES ||
        h.count > (left - sizeof h) / es)
        return sgl_error_set(SGL_EPARSE, "worker %zu received a malformed "
                                         "block of messages from worker %zu",
                             sgl_ctx_first_worker(ctx), s);
    const unsigned char *m = b + sizeof h;
    *used = sizeof h + h.count * es;
    ws->raw += h.raw;
    ws->combined += h.count;
    if (h.kind == WIRE_PATTERN)
        SGL_TRY(keep_pattern(ctx, g, s, nsrc, m, h.count, es));
    if (h.kind == WIRE_VALUES) {
        if (s >= g->npat || !g->pat[s] || g->pat_n[s] != h.count)
            return sgl_error_set(SGL_ESTATE, "worker %zu received values "
                                             "for a pattern worker %zu never "
                                             "sent",
                                 sgl_ctx_first_worker(ctx), s);
        take_pattern(g, p, g->pat[s], m, h.count);
        return SGL_OK;
    }
    for (size_t k = 0; k < h.count; k++) {
        size_t i = 0;
        SGL_TRY(local_target(ctx, g, m + k * es, &i));
        take(g, p, i, m + k * es + sizeof(uint64_t));
    }
    return SGL_OK;
}

int sgl__wire_deliver(sgl_ctx_t *ctx, struct wgraph *g,
                      const sgl_pregel_program_t *p, struct wire_stats *ws)
{
    memset(ws, 0, sizeof *ws);
    unsigned char *in;
    size_t n, nsrc, first;
    const size_t *counts;
    SGL_TRY(sgl_exchange_recv(ctx, 1, (void **)&in, &n, &counts, &nsrc, &first));
    for (size_t j = 0; j < nsrc; j++) {
        size_t left = counts[j];
        while (left > 0) {
            size_t used = 0;
            SGL_TRY(deliver_block(ctx, g, p, first + j, first + nsrc, in, left,
                              &used, ws));
            in += used;
            left -= used;
        }
    }
    ws->bytes = n;
    return sgl_exchange_release(ctx);
}

void sgl__wire_forget(struct wgraph *g)
{
    for (size_t s = 0; s < g->npat; s++)
        free(g->pat[s]);
    free(g->pat);
    free(g->pat_n);
    g->pat = NULL;
    g->pat_n = NULL;
    g->npat = 0;
    g->pattern_sent = 0;
    free(g->order);
    g->order = NULL;
    g->next = 0;
}
