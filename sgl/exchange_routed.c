/* The routed exchange: the definition of an exchange executed literally.
 * Two supersteps from the exchange's master, each recursive over the
 * levels below it:
 *   up    every worker hands up one out-record (its addressed blocks);
 *         every master concatenates its children's records, so that the
 *         exchange's master holds them all, in worker order;
 *   down  the master reorders them into one in-record per destination
 *         (its blocks by source) and scatters to each child the records of
 *         its workers; lower masters split theirs the same way; a worker
 *         lays its record out as its received blocks.
 * Records are padded to 8 bytes so that their headers stay aligned. */
#include <stdlib.h>
#include <string.h>

#include "exchange.h"
#include <sgl/blocks.h>
#include <sgl/exchange.h>

/* What a worker hands up: its blocks for workers first..first+n-1. */
struct out_rec {
    uint64_t worker, first, n, bytes;
    /* then n uint64_t byte counts, then the blocks, padded */
};

/* What a worker gets: its blocks from each of the exchange's workers. */
struct in_rec {
    uint64_t worker, sources, bytes, pad;
    /* then sources uint64_t byte counts, then the blocks, padded */
};

static size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

static size_t out_rec_size(uint64_t n, uint64_t bytes)
{
    return sizeof(struct out_rec) + 8 * (size_t)n + pad8((size_t)bytes);
}

static size_t in_rec_size(uint64_t sources, uint64_t bytes)
{
    return sizeof(struct in_rec) + 8 * (size_t)sources + pad8((size_t)bytes);
}

static int mark_routed(struct sgl_ctx *m, int status)
{
    m->xkind = SGL_EXCHANGE_ROUTED;
    for (unsigned i = 0; i < m->node->arity; i++)
        m->hsent[i] = m->hrecv[i] = 0;
    return status;
}

/* Up: a worker's out-record; a master's children's records, concatenated
 * straight into its own hand-up. */
int sgl__xr_up(sgl_ctx_t *c, const void *arg, size_t arg_size)
{
    (void)arg_size;
    const struct sgl__xarg *a = arg;
    int rc;
    if (c->node->arity) {
        if ((rc = sgl__pardo_with(c, sgl__xr_up, a, sizeof *a, mark_routed)))
            return rc;
        size_t total = 0;
        for (unsigned i = 0; i < c->node->arity; i++)
            total += c->gbytes[i];
        void *dst;
        if ((rc = sgl_put_buffer(c, 1, total, &dst)))
            return rc;
        return sgl_gather(c, dst, 1, total, NULL);
    }
    if ((rc = sgl__xo_check(c, a)))
        return rc;
    size_t bytes = c->xo_n ? c->xo_off[c->xo_n] : 0;
    char *r;
    if ((rc = sgl_put_buffer(c, 1, out_rec_size(c->xo_n, bytes),
                             (void **)&r)))
        return rc;
    struct out_rec h = {c->node->first_worker, c->xo_first, c->xo_n, bytes};
    memcpy(r, &h, sizeof h);
    uint64_t *cnt = (uint64_t *)(r + sizeof h);
    for (size_t j = 0; j < c->xo_n; j++)
        cnt[j] = c->xo_off[j + 1] - c->xo_off[j];
    if (bytes)
        memcpy(cnt + c->xo_n, c->xo_src, bytes);
    sgl__xo_clear(c);
    return SGL_OK;
}

/* The exchange's master's view of one out-record. */
struct out_view {
    struct out_rec h;
    const uint64_t *cnt;
    const char *data;
    const size_t *off; /* h.n + 1 offsets into data */
};

static uint64_t view_bytes(const struct out_view *v, size_t d)
{
    if (d < v->h.first || d - v->h.first >= v->h.n)
        return 0;
    return v->cnt[d - v->h.first];
}

/* Index the gathered out-records by worker. */
static int index_records(struct sgl_ctx *m, const struct sgl__xarg *a,
                         struct out_view *v, size_t **offs)
{
    size_t F = (size_t)a->first, seen = 0;
    for (unsigned i = 0; i < m->node->arity; i++) {
        const char *p;
        size_t n;
        int rc = sgl_gather_block(m, i, 1, (const void **)&p, &n);
        if (rc)
            return rc;
        for (size_t o = 0; o < n;) {
            struct out_rec h;
            memcpy(&h, p + o, sizeof h);
            if (h.worker < F || h.worker - F >= a->workers ||
                o + out_rec_size(h.n, h.bytes) > n)
                return sgl_error_set(SGL_EMPI, "sgl_exchange: malformed "
                                               "record from child %u",
                                     i);
            struct out_view *w = &v[h.worker - F];
            w->h = h;
            w->cnt = (const uint64_t *)(p + o + sizeof h);
            w->data = (const char *)(w->cnt + h.n);
            size_t *off = malloc(((size_t)h.n + 1) * sizeof *off);
            if (!off)
                return sgl_error_set(SGL_ENOMEM, "sgl_exchange: out of "
                                                 "memory");
            offs[seen++] = off;
            off[0] = 0;
            for (size_t j = 0; j < h.n; j++)
                off[j + 1] = off[j] + (size_t)w->cnt[j];
            w->off = off;
            o += out_rec_size(h.n, h.bytes);
        }
    }
    return seen == a->workers
               ? SGL_OK
               : sgl_error_set(SGL_EMPI, "sgl_exchange: %zu of %zu workers' "
                                         "records came up",
                               seen, (size_t)a->workers);
}

/* Write destination @d's in-record at @r. */
static size_t write_in_rec(char *r, const struct out_view *v,
                           const struct sgl__xarg *a, size_t d)
{
    size_t W = (size_t)a->workers, bytes = 0;
    uint64_t *cnt = (uint64_t *)(r + sizeof(struct in_rec));
    char *data = (char *)(cnt + W);
    for (size_t s = 0; s < W; s++) {
        cnt[s] = view_bytes(&v[s], d);
        if (cnt[s])
            memcpy(data + bytes, v[s].data + v[s].off[d - v[s].h.first],
                   (size_t)cnt[s]);
        bytes += (size_t)cnt[s];
    }
    struct in_rec h = {d, W, bytes, 0};
    memcpy(r, &h, sizeof h);
    return in_rec_size(W, bytes);
}

/* Reorder the records by destination into the children's blocks. */
static int reorder(struct sgl_ctx *m, const struct sgl__xarg *a,
                   const struct out_view *v)
{
    size_t W = (size_t)a->workers;
    for (unsigned i = 0; i < m->node->arity; i++) {
        const struct sgl_node *c = m->node->child[i];
        size_t size = 0;
        for (size_t d = c->first_worker; d < c->first_worker + c->workers;
             d++) {
            size_t bytes = 0;
            for (size_t s = 0; s < W; s++)
                bytes += (size_t)view_bytes(&v[s], d);
            size += in_rec_size(W, bytes);
        }
        char *r;
        int rc = sgl_scatter_buffer(m, i, 1, size, (void **)&r);
        if (rc)
            return rc;
        for (size_t d = c->first_worker; d < c->first_worker + c->workers;
             d++)
            r += write_in_rec(r, v, a, d);
    }
    return SGL_OK;
}

/* Down: a master splits its in-records among its children without a
 * copy; a worker lays its own out as its received blocks. */
int sgl__xr_down(sgl_ctx_t *c, const void *arg, size_t arg_size)
{
    (void)arg_size;
    const struct sgl__xarg *a = arg;
    char *p;
    size_t n;
    int rc = sgl_recv(c, 1, (void **)&p, &n);
    if (rc)
        return rc;
    if (c->node->arity) {
        size_t *counts = calloc(c->node->arity, sizeof *counts);
        if (!counts)
            return sgl_error_set(SGL_ENOMEM, "sgl_exchange: out of memory");
        size_t o = 0;
        for (unsigned i = 0; i < c->node->arity; i++)
            for (size_t k = 0; k < c->node->child[i]->workers && o < n; k++) {
                struct in_rec h;
                memcpy(&h, p + o, sizeof h);
                counts[i] += in_rec_size(h.sources, h.bytes);
                o += in_rec_size(h.sources, h.bytes);
            }
        rc = sgl_scatter(c, p, 1, counts);
        free(counts);
        if (!rc)
            rc = sgl__pardo_with(c, sgl__xr_down, a, sizeof *a, mark_routed);
        return rc;
    }
    struct in_rec h;
    if (n < sizeof h)
        return sgl_error_set(SGL_EMPI, "sgl_exchange: worker %zu got no "
                                       "record",
                             c->node->first_worker);
    memcpy(&h, p, sizeof h);
    const uint64_t *cnt = (const uint64_t *)(p + sizeof h);
    size_t *bytes = malloc((size_t)h.sources * sizeof *bytes);
    if (!bytes)
        return sgl_error_set(SGL_ENOMEM, "sgl_exchange: out of memory");
    for (size_t s = 0; s < h.sources; s++)
        bytes[s] = (size_t)cnt[s];
    rc = sgl__xin_layout(c, a, bytes);
    free(bytes);
    if (!rc && h.bytes)
        memcpy(c->xin.data, cnt + h.sources, (size_t)h.bytes);
    return rc;
}

int sgl__exchange_routed(struct sgl_ctx *m, const struct sgl__xarg *a)
{
    int rc = sgl__pardo_with(m, sgl__xr_up, a, sizeof *a, mark_routed);
    if (rc)
        return rc;
    size_t W = (size_t)a->workers;
    struct out_view *v = calloc(W, sizeof *v);
    size_t **offs = calloc(W, sizeof *offs);
    if (!v || !offs)
        rc = sgl_error_set(SGL_ENOMEM, "sgl_exchange: out of memory for "
                                       "%zu records",
                           W);
    if (!rc)
        rc = index_records(m, a, v, offs);
    if (!rc)
        rc = reorder(m, a, v);
    for (size_t s = 0; offs && s < W; s++)
        free(offs[s]);
    free(offs);
    free(v);
    sgl_gather_release(m);
    if (rc) {
        /* Nothing goes down: the records staged so far are dropped. */
        m->staged = SGL_STAGED_NONE;
        return rc;
    }
    return sgl__pardo_with(m, sgl__xr_down, a, sizeof *a, mark_routed);
}
