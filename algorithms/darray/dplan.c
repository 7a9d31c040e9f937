/* Communication plans over distributed arrays. Creating one, at the
 * array's master:
 *
 *   1 need     every worker computes its view and the ranges it reads
 *              from each owner (dplan_math.c), allocates the view unless
 *              it is the worker's own block, and stages one request per
 *              owner: the ranges, in the order it will unpack them
 *              (struct dreq); it hands up its timing and receive totals;
 *   2 exchange the requests reach the owners;
 *   3 accept   every worker turns the requests it received into its send
 *              list and send buffer, and hands up (destination, bytes)
 *              pairs, from which the master derives the plan's h per
 *              level of the tree.
 *
 * Executing it (sgl_dplan_run(), or a program's own tasks): stage (every
 * worker packs its send list and stages it), the exchange, finish (every
 * worker unpacks what came, source by source in request order, and copies
 * its own ranges that the loop reads across a periodic boundary). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algo_internal.h"
#include "darray_impl.h"
#include "dplan_math.h"
#include <sgl/blocks.h>
#include <sgl/exchange.h>

/* A range of an owner's block, as one worker requests it. */
struct dreq {
    uint64_t glo[DP_DIMS], ghi[DP_DIMS];
};

/* A range of this worker's block that another worker reads. */
struct dsend {
    size_t dest;
    size_t glo[DP_DIMS], ghi[DP_DIMS];
};

/* A worker's part of one plan. */
struct wplan {
    uint32_t id; /* first: sgl__darray_item_find() reads it */
    struct dpart part;
    size_t w;              /* this worker in the partition */
    size_t first;          /* the plan master's first worker */
    struct dneed need;     /* what it reads, by owner */
    unsigned char *view;   /* NULL when the view is the block itself */
    size_t vstride[DP_DIMS];
    struct dreq *req;      /* staged requests, until the accept step */
    struct dsend *send;    /* what it sends, by destination */
    size_t nsend;
    size_t send_lo, send_n; /* destinations [send_lo, send_lo + send_n) */
    size_t *send_counts;    /* elements to each of them */
    unsigned char *sendbuf;
    /* The array staged since the last finish, 0 for none: finish refuses
     * to run without a stage of the same array. A worker that reads only
     * itself (one worker) gets nothing from the exchange either way, so
     * without this a program that forgets the first stage is right on
     * one worker and wrong, or failing, on more. */
    uint32_t staged;
};

struct sgl_dplan {
    uint32_t id;
    unsigned level;
    size_t first;
    struct dpart part;
    sgl_dplan_stats_t stats;
    size_t *level_h;       /* per level of the machine tree */
    unsigned levels;
};

/* ---- a worker's plans ---- */

static const char plan_key;

static void wplan_free(void *x)
{
    struct wplan *p = x;
    if (!p)
        return;
    sgl__dpart_free(&p->part);
    sgl__dneed_free(&p->need);
    free(p->view);
    free(p->req);
    free(p->send);
    free(p->send_counts);
    free(p->sendbuf);
    free(p);
}

static struct wplan *wplan_find(sgl_ctx_t *worker, uint32_t id)
{
    return sgl__darray_item_find(worker, &plan_key, id);
}

/* The plan and the array a worker-side call names, checked to match. */
static int find_pair(sgl_ctx_t *worker, uint32_t plan_id, uint32_t array_id,
                     const char *fn, struct wplan **ret_p,
                     struct darr **ret_b)
{
    if (!worker)
        return sgl_error_set(SGL_EINVAL, "%s: context is NULL", fn);
    if (!sgl_ctx_is_worker(worker))
        return sgl_error_set(SGL_ESTATE, "%s: not a worker", fn);
    struct wplan *p = wplan_find(worker, plan_id);
    struct darr *b = sgl__darr_find(worker, array_id);
    if (!p || !b)
        return sgl_error_set(SGL_ESTATE, "%s: worker %zu has no %s %u", fn,
                             sgl_ctx_first_worker(worker),
                             p ? "array" : "plan", p ? array_id : plan_id);
    if (!sgl__dpart_same(&p->part, &b->part))
        return sgl_error_set(SGL_EINVAL,
                             "%s: plan %u was computed for another layout "
                             "than array %u's",
                             fn, plan_id, array_id);
    *ret_p = p;
    *ret_b = b;
    return SGL_OK;
}

/* ---- execution ---- */

/* Where index @x of the view lies, in elements from its start. */
static size_t view_offset(const struct wplan *p, const struct darr *b,
                          const long x[DP_DIMS])
{
    if (!p->view)
        return darray_offset(x, b->lo, b->part.halo, b->stride);
    size_t off = 0;
    for (unsigned d = 0; d < DP_DIMS; d++)
        off += (size_t)(x[d] - p->need.vlo[d]) * p->vstride[d];
    return off;
}

static unsigned char *view_base(const struct wplan *p, struct darr *b)
{
    return p->view ? p->view : b->mem;
}

static const size_t *view_strides(const struct wplan *p,
                                  const struct darr *b)
{
    return p->view ? p->vstride : b->stride;
}

/* Element offset of index @g of the worker's own block. */
static size_t block_offset(const struct darr *b, const size_t g[DP_DIMS])
{
    long x[DP_DIMS];
    for (unsigned d = 0; d < DP_DIMS; d++)
        x[d] = (long)g[d];
    return darray_offset(x, b->lo, b->part.halo, b->stride);
}

static void extent(const size_t lo[DP_DIMS], const size_t hi[DP_DIMS],
                   size_t ext[DP_DIMS], size_t packed[DP_DIMS])
{
    size_t n = 1;
    for (unsigned d = DP_DIMS; d-- > 0;) {
        ext[d] = hi[d] - lo[d];
        packed[d] = n;
        n *= ext[d];
    }
}

int sgl_dplan_stage(sgl_ctx_t *worker, uint32_t plan_id, uint32_t array_id)
{
    struct wplan *p;
    struct darr *b;
    SGL_TRY(find_pair(worker, plan_id, array_id, "sgl_dplan_stage", &p, &b));
    p->staged = array_id;
    size_t es = b->part.elem_size;
    unsigned char *out = p->sendbuf;
    for (size_t i = 0; i < p->nsend; i++) {
        const struct dsend *s = &p->send[i];
        size_t ext[DP_DIMS], packed[DP_DIMS];
        extent(s->glo, s->ghi, ext, packed);
        sgl__darray_copy_box(out, packed, b->mem + block_offset(b, s->glo) * es,
                             b->stride, ext, es);
        out += ext[0] * ext[1] * ext[2] * es;
    }
    if (!p->nsend)
        return SGL_OK;
    return sgl_exchange_put(worker, p->sendbuf, es, p->first + p->send_lo,
                            p->send_n, p->send_counts);
}

/* Check that source @src brought what the plan expects from it. */
static int check_source(const struct wplan *p, const size_t *counts,
                        size_t nsrc, size_t src, size_t expect)
{
    size_t got = src < nsrc && counts ? counts[src] : 0;
    if (got == expect)
        return SGL_OK;
    return sgl_error_set(SGL_ESIZE,
                         "sgl_dplan_finish: plan %u: worker %zu received %zu "
                         "elements from worker %zu, the plan expects %zu "
                         "(the last exchange was not this plan's)",
                         p->id, p->first + p->w, got, p->first + src,
                         expect);
}

static int unpack(struct wplan *p, struct darr *b, const unsigned char *in,
                  const size_t *counts, size_t nsrc)
{
    size_t es = b->part.elem_size, i = 0;
    unsigned char *view = view_base(p, b);
    const size_t *vs = view_strides(p, b);
    while (i < p->need.npieces) {
        size_t src = p->need.piece[i].src, expect = 0, k = i;
        for (; k < p->need.npieces && p->need.piece[k].src == src; k++)
            expect += sgl__dpiece_count(&p->need.piece[k], DP_DIMS);
        if (src != p->w)
            SGL_TRY(check_source(p, counts, nsrc, src, expect));
        for (; i < k; i++) {
            const struct dpiece *q = &p->need.piece[i];
            size_t ext[DP_DIMS], packed[DP_DIMS];
            extent(q->glo, q->ghi, ext, packed);
            unsigned char *to = view + view_offset(p, b, q->vlo) * es;
            if (src == p->w) { /* read across a boundary into itself */
                sgl__darray_copy_box(to, vs,
                                     b->mem + block_offset(b, q->glo) * es,
                                     b->stride, ext, es);
                continue;
            }
            sgl__darray_copy_box(to, vs, in, packed, ext, es);
            in += ext[0] * ext[1] * ext[2] * es;
        }
    }
    return SGL_OK;
}

/* The exchange a finish reads must carry this worker's stage of the same
 * array (see struct wplan's staged). */
static int check_staged(const struct wplan *p, uint32_t array_id)
{
    if (p->staged == array_id)
        return SGL_OK;
    if (!p->staged)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_dplan_finish: plan %u, array %u: worker "
                             "%zu did not call sgl_dplan_stage() since its "
                             "last finish: stage the array (the first time "
                             "too, before the first exchange), then "
                             "sgl_exchange(), then finish",
                             p->id, array_id, p->first + p->w);
    return sgl_error_set(SGL_ESTATE,
                         "sgl_dplan_finish: plan %u: worker %zu staged "
                         "array %u but finishes array %u: finish the array "
                         "that was staged",
                         p->id, p->first + p->w, p->staged, array_id);
}

static void describe_view(const struct wplan *p, struct darr *b,
                          sgl_dblock_t *v)
{
    memset(v, 0, sizeof *v);
    v->dims = b->part.dims;
    v->elem_size = b->part.elem_size;
    long first[DP_DIMS];
    for (unsigned d = 0; d < DP_DIMS; d++) {
        first[d] = p->view ? p->need.vlo[d] : (long)b->lo[d];
        v->lo[d] = first[d];
        v->hi[d] = p->view ? p->need.vhi[d] : (long)b->hi[d];
        v->halo[d] = p->view ? 0 : b->part.halo[d];
        v->stride[d] = view_strides(p, b)[d];
    }
    v->data = view_base(p, b) + view_offset(p, b, first) * v->elem_size;
}

int sgl_dplan_finish(sgl_ctx_t *worker, uint32_t plan_id, uint32_t array_id,
                     sgl_dblock_t *ret_view)
{
    struct wplan *p;
    struct darr *b;
    SGL_TRY(find_pair(worker, plan_id, array_id, "sgl_dplan_finish", &p, &b));
    SGL_TRY(check_staged(p, array_id));
    p->staged = 0;
    void *in;
    size_t count, nsrc = 0;
    const size_t *counts = NULL;
    int rc = sgl_exchange_recv(worker, b->part.elem_size, &in, &count,
                               &counts, &nsrc, NULL);
    /* The exchange's own words ("freed by sgl_exchange_release()") name a
     * call the user never made: what they missed is the exchange. */
    if (rc == SGL_ESTATE)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_dplan_finish: plan %u, array %u: no "
                             "exchange ran since the last one was finished "
                             "(the master calls sgl_exchange() between the "
                             "pardo that runs sgl_dplan_stage() and the one "
                             "that runs sgl_dplan_finish(), or uses "
                             "sgl_dplan_run())",
                             plan_id, array_id);
    SGL_TRY(rc);
    SGL_TRY(unpack(p, b, in, counts, nsrc));
    SGL_TRY(sgl_exchange_release(worker));
    if (ret_view)
        describe_view(p, b, ret_view);
    return SGL_OK;
}

/* ---- creation, step 1: need ---- */

struct need_arg {
    uint32_t plan;
    uint32_t array;
    uint64_t first;
    uint64_t naccess;
    sgl_daccess_t access[];
};

/* What each worker hands up after step 1. */
struct need_rec {
    double seconds;      /* computing its part */
    uint64_t recv_bytes; /* from other workers */
    uint64_t peers;      /* workers it reads from */
    uint64_t local_bytes;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Allocate the view unless it is the block itself (first touch here). */
static int make_view(struct wplan *p)
{
    if (p->need.in_place)
        return SGL_OK;
    size_t n = 1;
    for (unsigned d = DP_DIMS; d-- > 0;) {
        p->vstride[d] = n;
        n *= (size_t)(p->need.vhi[d] - p->need.vlo[d]);
    }
    p->view = malloc(n * p->part.elem_size);
    if (!p->view)
        return sgl_error_set(SGL_ENOMEM,
                             "worker %zu: out of memory for a view of %zu "
                             "elements",
                             p->first + p->w, n);
    explicit_bzero(p->view, n * p->part.elem_size); /* see create_task */
    return SGL_OK;
}

/* Stage one request per owner, and total what comes in. */
static int stage_requests(sgl_ctx_t *ctx, struct wplan *p,
                          struct need_rec *rec)
{
    size_t n = p->need.npieces, lo = SIZE_MAX, hi = 0, nreq = 0;
    size_t es = p->part.elem_size;
    for (size_t i = 0; i < n; i++) {
        const struct dpiece *q = &p->need.piece[i];
        size_t bytes = sgl__dpiece_count(q, DP_DIMS) * es;
        if (q->src == p->w) {
            rec->local_bytes += bytes;
            continue;
        }
        rec->recv_bytes += bytes;
        rec->peers += i == 0 || p->need.piece[i - 1].src != q->src;
        lo = q->src < lo ? q->src : lo;
        hi = q->src > hi ? q->src : hi;
        nreq++;
    }
    if (!nreq)
        return SGL_OK;
    size_t *counts = calloc(hi - lo + 1, sizeof *counts);
    p->req = malloc(nreq * sizeof *p->req);
    if (!counts || !p->req) {
        free(counts);
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    }
    for (size_t i = 0, r = 0; i < n; i++) {
        const struct dpiece *q = &p->need.piece[i];
        if (q->src == p->w)
            continue;
        for (unsigned d = 0; d < DP_DIMS; d++) {
            p->req[r].glo[d] = q->glo[d];
            p->req[r].ghi[d] = q->ghi[d];
        }
        counts[q->src - lo]++;
        r++;
    }
    int rc = sgl_exchange_put(ctx, p->req, sizeof *p->req, p->first + lo,
                              hi - lo + 1, counts);
    free(counts);
    return rc;
}

static int need_worker(sgl_ctx_t *ctx, const struct need_arg *a,
                       struct need_rec *rec)
{
    struct darr *b = sgl__darr_find(ctx, a->array);
    if (!b)
        return sgl_error_set(SGL_ESTATE, "worker %zu has no block of array "
                                         "%u",
                             sgl_ctx_first_worker(ctx), a->array);
    struct wplan *p = calloc(1, sizeof *p);
    if (!p)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    p->id = a->plan;
    p->w = b->w;
    p->first = a->first;
    *rec = (struct need_rec){0};
    int rc = sgl__dpart_copy(&b->part, &p->part);
    if (!rc) {
        double t0 = now();
        rc = sgl__dplan_need(&p->part, p->w, a->naccess, a->access, &p->need);
        rec->seconds = now() - t0;
    }
    if (!rc)
        rc = make_view(p);
    if (!rc)
        rc = stage_requests(ctx, p, rec);
    if (!rc)
        rc = sgl__darray_item_add(ctx, &plan_key, p, wplan_free);
    if (rc)
        wplan_free(p);
    return rc;
}

static int need_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx)) {
        SGL_TRY(sgl_pardo(ctx, need_task, arg, size));
        return sgl__algo_pass_up(ctx, sizeof(struct need_rec));
    }
    struct need_rec rec;
    SGL_TRY(need_worker(ctx, arg, &rec));
    return sgl_put(ctx, &rec, sizeof rec, 1);
}

/* ---- creation, step 3: accept ---- */

struct plan_arg {
    uint32_t plan;
    uint32_t array;
};

/* A request's range, checked to lie in the worker's block. */
static int request_range(const struct wplan *p, const struct dreq *r,
                         size_t from, struct dsend *s)
{
    size_t lo[DP_DIMS], hi[DP_DIMS];
    sgl__dpart_box(&p->part, p->w, lo, hi);
    s->dest = from;
    for (unsigned d = 0; d < DP_DIMS; d++) {
        s->glo[d] = r->glo[d];
        s->ghi[d] = r->ghi[d];
        if (s->glo[d] < lo[d] || s->ghi[d] > hi[d] || s->glo[d] >= s->ghi[d])
            return sgl_error_set(SGL_EINVAL,
                                 "plan %u: worker %zu asked worker %zu for "
                                 "indices it does not own",
                                 p->id, p->first + from, p->first + p->w);
    }
    return SGL_OK;
}

/* The send list from the requests that came in, and the (destination,
 * bytes) pairs for the master: words w, npairs, then the pairs. */
static int accept_requests(sgl_ctx_t *ctx, struct wplan *p)
{
    struct dreq *req;
    size_t nreq, nsrc = 0, es = p->part.elem_size;
    const size_t *counts = NULL;
    SGL_TRY(sgl_exchange_recv(ctx, sizeof *req, (void **)&req, &nreq, &counts,
                          &nsrc, NULL));
    size_t lo = SIZE_MAX, hi = 0, npairs = 0, total = 0;
    for (size_t s = 0; s < nsrc; s++)
        if (counts[s]) {
            lo = s < lo ? s : lo;
            hi = s;
            npairs++;
        }
    p->send = malloc((nreq ? nreq : 1) * sizeof *p->send);
    p->send_counts = calloc(npairs ? hi - lo + 1 : 1, sizeof(size_t));
    uint64_t *pairs;
    int rc = !p->send || !p->send_counts
                 ? sgl_error_set(SGL_ENOMEM, "out of memory")
                 : sgl_put_buffer(ctx, sizeof *pairs, 2 + 2 * npairs,
                                  (void **)&pairs);
    if (rc)
        return rc;
    pairs[0] = p->w;
    pairs[1] = npairs;
    for (size_t s = 0, k = 0, j = 0; s < nsrc && !rc; s++) {
        size_t elems = 0;
        for (size_t r = 0; r < counts[s] && !rc; r++, k++) {
            rc = request_range(p, &req[k], s, &p->send[k]);
            size_t ext[DP_DIMS], packed[DP_DIMS];
            extent(p->send[k].glo, p->send[k].ghi, ext, packed);
            elems += ext[0] * ext[1] * ext[2];
        }
        if (counts[s]) {
            p->send_counts[s - lo] = elems;
            pairs[2 + 2 * j] = s;
            pairs[3 + 2 * j++] = elems * es;
            total += elems;
        }
    }
    if (rc)
        return rc;
    p->nsend = nreq;
    p->send_lo = npairs ? lo : 0;
    p->send_n = npairs ? hi - lo + 1 : 0;
    p->sendbuf = malloc(total ? total * es : 1);
    if (!p->sendbuf)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    free(p->req);
    p->req = NULL;
    return sgl_exchange_release(ctx);
}

static int accept_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx)) {
        SGL_TRY(sgl_pardo(ctx, accept_task, arg, size));
        return sgl__algo_pass_up(ctx, sizeof(uint64_t));
    }
    struct wplan *p = wplan_find(ctx, ((const struct plan_arg *)arg)->plan);
    if (!p)
        return sgl_error_set(SGL_ESTATE, "worker %zu has no plan %u",
                             sgl_ctx_first_worker(ctx),
                             ((const struct plan_arg *)arg)->plan);
    return accept_requests(ctx, p);
}

/* ---- the master's side ---- */

static void sum_needs(sgl_dplan_t *plan, const struct need_rec *r, size_t n)
{
    sgl_dplan_stats_t *s = &plan->stats;
    for (size_t w = 0; w < n; w++) {
        s->local_bytes += r[w].local_bytes;
        s->bytes += r[w].recv_bytes;
        s->messages += r[w].peers;
        if (r[w].peers > s->max_peers)
            s->max_peers = r[w].peers;
        if (r[w].recv_bytes > s->max_recv_bytes)
            s->max_recv_bytes = r[w].recv_bytes;
        if (r[w].seconds > s->max_compute_seconds)
            s->max_compute_seconds = r[w].seconds;
    }
}

/* Charge @bytes from worker @from to worker @to at the level where their
 * paths meet: to the sending child's h_sent and the receiving child's
 * h_recv, per node indexed by (level, first worker). */
static void charge(const sgl_machine_t *m, size_t from, size_t to,
                   size_t bytes, size_t base, size_t nw, uint64_t *sent,
                   uint64_t *recv)
{
    const sgl_node_t *a = sgl_machine_worker(m, from);
    const sgl_node_t *b = sgl_machine_worker(m, to);
    while (sgl_node_level(a) > sgl_node_level(b))
        a = sgl_node_parent(a);
    while (sgl_node_level(b) > sgl_node_level(a))
        b = sgl_node_parent(b);
    while (sgl_node_parent(a) != sgl_node_parent(b)) {
        a = sgl_node_parent(a);
        b = sgl_node_parent(b);
    }
    size_t ia = sgl_node_level(a) * nw + sgl_node_first_worker(a) - base;
    size_t ib = sgl_node_level(b) * nw + sgl_node_first_worker(b) - base;
    sent[ia] += bytes;
    recv[ib] += bytes;
}

/* Walk the (destination, bytes) pairs: messages' senders, and h per
 * level. */
static int sum_sends(sgl_ctx_t *master, sgl_dplan_t *plan,
                     const uint64_t *words, size_t nwords)
{
    const sgl_machine_t *m = sgl_ctx_machine(master);
    size_t nw = plan->part.workers, levels = sgl_machine_depth(m) + 1;
    uint64_t *sent = calloc(2 * levels * nw, sizeof *sent);
    plan->level_h = calloc(levels, sizeof *plan->level_h);
    if (!sent || !plan->level_h) {
        free(sent);
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    }
    uint64_t *recv = sent + levels * nw;
    plan->levels = (unsigned)levels;
    for (size_t i = 0; i + 2 <= nwords;) {
        size_t w = words[i], np = words[i + 1];
        size_t bytes = 0;
        for (size_t k = 0; k < np; k++) {
            size_t to = words[i + 2 + 2 * k], b = words[i + 3 + 2 * k];
            bytes += b;
            charge(m, plan->first + w, plan->first + to, b, plan->first, nw,
                   sent, recv);
        }
        if (bytes > plan->stats.max_sent_bytes)
            plan->stats.max_sent_bytes = bytes;
        i += 2 + 2 * np;
    }
    /* A child at level l + 1 crosses its parent's (level l) boundary. */
    for (size_t l = 1; l < levels; l++)
        for (size_t k = 0; k < nw; k++) {
            uint64_t h = sent[l * nw + k] > recv[l * nw + k]
                             ? sent[l * nw + k]
                             : recv[l * nw + k];
            if (h > plan->level_h[l - 1])
                plan->level_h[l - 1] = h;
        }
    free(sent);
    return SGL_OK;
}

static void plan_free(sgl_dplan_t *p)
{
    if (p) {
        sgl__dpart_free(&p->part);
        free(p->level_h);
    }
    free(p);
}

/* Steps 1 to 3 (the handle exists; its stats are filled). */
static int plan_build(sgl_ctx_t *master, sgl_dplan_t *plan,
                      const sgl_darray_t *array, size_t na,
                      const sgl_daccess_t *access)
{
    size_t size = sizeof(struct need_arg) + na * sizeof *access;
    struct need_arg *a = malloc(size);
    if (!a)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    *a = (struct need_arg){plan->id, array->id, plan->first, na};
    memcpy(a->access, access, na * sizeof *access);
    int rc;
    if (sgl_ctx_is_worker(master)) { /* one worker: reads only itself */
        struct need_rec rec;
        rc = need_worker(master, a, &rec);
        free(a);
        SGL_TRY(rc);
        sum_needs(plan, &rec, 1);
        return sum_sends(master, plan, NULL, 0);
    }
    rc = sgl_pardo(master, need_task, a, size);
    free(a);
    SGL_TRY(rc);
    size_t nw = plan->part.workers;
    struct plan_arg pa = {plan->id, array->id};
    struct need_rec *recs = malloc(nw * sizeof *recs);
    if (!recs)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    rc = sgl_gather(master, recs, sizeof *recs, nw, NULL);
    if (!rc)
        sum_needs(plan, recs, nw);
    free(recs);
    SGL_TRY(rc);
    SGL_TRY(sgl_exchange(master));
    SGL_TRY(sgl_pardo(master, accept_task, &pa, sizeof pa));
    uint64_t *words;
    size_t nwords;
    SGL_TRY(sgl_gather_alloc(master, sizeof *words, (void **)&words, &nwords,
                         NULL));
    rc = sum_sends(master, plan, words, nwords);
    free(words);
    return rc;
}

int sgl_dplan_create(sgl_ctx_t *master, const sgl_darray_t *array,
                     size_t naccess, const sgl_daccess_t *access,
                     sgl_dplan_t **ret_plan)
{
    static const char fn[] = "sgl_dplan_create";
    if (!master || !array || !ret_plan || (naccess && !access))
        return sgl_error_set(SGL_EINVAL, "%s: NULL argument", fn);
    if (!naccess)
        return sgl_error_set(SGL_EINVAL, "%s: no access", fn);
    if (sgl_ctx_level(master) != array->level ||
        sgl_ctx_first_worker(master) != array->first)
        return sgl_error_set(SGL_ESTATE,
                             "%s: call it on the master that created array "
                             "%u",
                             fn, array->id);
    SGL_TRY(sgl__dplan_check(&array->part, naccess, access, fn));
    sgl_dplan_t *plan = calloc(1, sizeof *plan);
    if (!plan)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    plan->id = sgl__darray_new_id(master);
    plan->level = array->level;
    plan->first = array->first;
    int rc = sgl__dpart_copy(&array->part, &plan->part);
    if (!rc)
        rc = plan_build(master, plan, array, naccess, access);
    if (rc) {
        sgl_dplan_free(master, plan);
        return rc;
    }
    *ret_plan = plan;
    return SGL_OK;
}

static int stage_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, stage_task, arg, size);
    const struct plan_arg *a = arg;
    return sgl_dplan_stage(ctx, a->plan, a->array);
}

static int finish_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, finish_task, arg, size);
    const struct plan_arg *a = arg;
    return sgl_dplan_finish(ctx, a->plan, a->array, NULL);
}

int sgl_dplan_run(sgl_ctx_t *master, const sgl_dplan_t *plan,
                  const sgl_darray_t *array)
{
    if (!master || !plan || !array)
        return sgl_error_set(SGL_EINVAL, "sgl_dplan_run: NULL argument");
    if (!sgl__dpart_same(&plan->part, &array->part) ||
        plan->first != array->first || plan->level != array->level)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_dplan_run: plan %u was computed for "
                             "another layout than array %u's",
                             plan->id, array->id);
    struct plan_arg a = {plan->id, array->id};
    SGL_TRY(sgl__darray_on_workers(master, stage_task, &a, sizeof a));
    SGL_TRY(sgl_exchange(master));
    return sgl__darray_on_workers(master, finish_task, &a, sizeof a);
}

static int free_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, free_task, arg, size);
    sgl__darray_item_drop(ctx, &plan_key, ((const struct plan_arg *)arg)->plan);
    return SGL_OK;
}

int sgl_dplan_free(sgl_ctx_t *master, sgl_dplan_t *plan)
{
    if (!plan)
        return SGL_OK;
    int rc = master ? SGL_OK
                    : sgl_error_set(SGL_EINVAL,
                                    "sgl_dplan_free: context is NULL");
    struct plan_arg a = {plan->id, 0};
    if (!rc)
        rc = sgl__darray_on_workers(master, free_task, &a, sizeof a);
    plan_free(plan);
    return rc;
}

int sgl_dplan_stats(const sgl_dplan_t *plan, sgl_dplan_stats_t *ret)
{
    if (!plan || !ret)
        return sgl_error_set(SGL_EINVAL, "sgl_dplan_stats: NULL argument");
    *ret = plan->stats;
    return SGL_OK;
}

size_t sgl_dplan_level_h(const sgl_dplan_t *plan, unsigned level)
{
    return plan && level < plan->levels ? plan->level_h[level] : 0;
}

uint32_t sgl_dplan_id(const sgl_dplan_t *plan) { return plan ? plan->id : 0; }

const struct algo_task sgl__algo_dplan_tasks[] = {
    {need_task, "sgl_dplan.need"},   {accept_task, "sgl_dplan.accept"},
    {stage_task, "sgl_dplan.stage"}, {finish_task, "sgl_dplan.finish"},
    {free_task, "sgl_dplan.free"},   {NULL, NULL},
};
