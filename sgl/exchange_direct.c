/* The direct exchange: payload moves from worker to worker, never through
 * a master.
 *
 * Protocol. The exchange's master runs one superstep of the task xt_mpi
 * down its MPI levels, so that every process below it is commanded (the
 * commands go out before a master runs its own child). In each process the
 * node where the MPI levels end (the process's bottom: a thread master or
 * a worker) does the process's part on its main thread:
 *   1. counts: to every other process of the exchange, one message with
 *      the bytes each of its own workers sends to each of that process's
 *      workers (sizes known from the tree; sent even when all zero);
 *   2. each of its workers' receive buffer is laid out by source;
 *   3. payload: one message per pair of processes with any bytes, sent
 *      from and received into the workers' buffers where they lie (a
 *      datatype of absolute addresses, mpi_parts.h), in the order (source
 *      worker, destination worker) on both sides;
 *   4. meanwhile its workers copy the blocks of the sources in their own
 *      process, each into its own buffer (the task xt_local, one thread per
 *      worker below a thread master);
 *   5. it waits for its messages, then every worker's staged blocks are
 *      forgotten.
 * What goes up through the masters is only, per node, for each level
 * between the exchange's master and the node, the bytes its workers send
 * and receive across that level's child boundaries: each master records
 * its children's figures in the trace (the h of the cost model) and hands
 * up the sum for the levels above. */
#include <stdlib.h>
#include <string.h>

#include <sgl/machine.h>
#include <sgl/exchange.h>

#include "exchange.h"
#include "level.h"
#include "mpi_parts.h"

enum { TAG_COUNTS = 1, TAG_PAYLOAD = 2 };

/* Bytes a node's workers send and receive across one level's child
 * boundaries. */
struct hpair {
    uint64_t sent, recv;
};

/* Levels below one master: the machine file allows no more. */
#define XLEVELS 66

/* A process of the exchange and its workers (a contiguous range). */
struct proc {
    int rank;
    size_t first, n;
};

static int whole_subtree_here(const struct sgl_ctx *c)
{
    for (unsigned i = 0; i < c->node->arity; i++)
        if (!c->child[i] || !whole_subtree_here(c->child[i]))
            return 0;
    return 1;
}

/* Bytes in the blocks of workers [lo, hi) of a block list that covers
 * workers first.. first + n - 1 at byte offsets @off. */
static uint64_t range_bytes(const size_t *off, size_t first, size_t n,
                            size_t lo, size_t hi)
{
    lo = lo > first ? lo : first;
    hi = hi < first + n ? hi : first + n;
    return lo < hi ? off[hi - first] - off[lo - first] : 0;
}

/* Bytes @w sends to the workers [lo, hi). */
static uint64_t sent_to(const struct sgl_ctx *w, size_t lo, size_t hi)
{
    return range_bytes(w->xo_off, w->xo_first, w->xo_n, lo, hi);
}

/* Bytes @w received from the workers [lo, hi). */
static uint64_t recv_from(const struct sgl_ctx *w, size_t lo, size_t hi)
{
    return range_bytes(w->xin_off, w->xin_first, w->xin_n, lo, hi);
}

/* Hand up @w's figures: for each level k from the exchange's level + 1 to
 * its own, what crosses the boundary of its ancestor at level k inside
 * that ancestor's parent. */
static int put_worker_vector(struct sgl_ctx *w, const struct sgl__xarg *a)
{
    struct hpair v[XLEVELS];
    unsigned n = w->node->level - a->level;
    const struct sgl_node *c = w->node;
    for (unsigned k = n; k > 0; k--, c = c->parent) {
        const struct sgl_node *p = c->parent;
        size_t plo = p->first_worker, phi = plo + p->workers;
        size_t clo = c->first_worker, chi = clo + c->workers;
        v[k - 1].sent = sent_to(w, plo, phi) - sent_to(w, clo, chi);
        v[k - 1].recv = recv_from(w, plo, phi) - recv_from(w, clo, chi);
    }
    return sgl_put(w, v, sizeof *v, n);
}

/* After a pardo of the exchange at @m: each child's last figures are what
 * crossed @m's level (the trace's h); the others add up to @m's own, which
 * it hands up unless it is the exchange's master. The children's replies
 * are not blocks of the program: none is left to gather. */
static int finish(struct sgl_ctx *m, int status)
{
    struct hpair sum[XLEVELS] = {{0, 0}};
    size_t len = 0;
    m->xkind = SGL_EXCHANGE_DIRECT;
    for (unsigned i = 0; i < m->node->arity; i++) {
        m->hsent[i] = m->hrecv[i] = 0;
        size_t n = m->gbytes[i] / sizeof(struct hpair);
        if (status == SGL_OK && n >= 1 && n <= XLEVELS) {
            struct hpair v[XLEVELS];
            memcpy(v, m->gdata[i], n * sizeof *v);
            m->hsent[i] = v[n - 1].sent;
            m->hrecv[i] = v[n - 1].recv;
            for (size_t k = 0; k + 1 < n; k++) {
                sum[k].sent += v[k].sent;
                sum[k].recv += v[k].recv;
            }
            len = n - 1;
        }
        m->gdata[i] = NULL;
        m->gbytes[i] = 0;
    }
    if (status == SGL_OK && m->in_task && !m->xroot)
        status = sgl_put(m, sum, sizeof *sum, len);
    return status;
}

/* The exchange's workers [*lo, *hi) that this process plays. */
static void local_sources(const struct sgl_runtime *rt,
                          const struct sgl__xarg *a, size_t *lo, size_t *hi)
{
    size_t F = (size_t)a->first, end = F + (size_t)a->workers;
    *lo = rt->wfirst > F ? rt->wfirst : F;
    *hi = rt->wfirst + rt->wn < end ? rt->wfirst + rt->wn : end;
}

/* A worker takes the blocks from the sources in its own process. */
static int worker_local(struct sgl_ctx *w, const struct sgl__xarg *a)
{
    const struct sgl_runtime *rt = w->rt;
    if (w->xin_n != a->workers)
        return sgl_error_set(SGL_ENOMEM, "sgl_exchange: worker %zu has no "
                                         "memory for its received blocks",
                             w->node->first_worker);
    size_t lo, hi, d = w->node->first_worker;
    local_sources(rt, a, &lo, &hi);
    for (size_t s = lo; s < hi; s++) {
        const struct sgl_ctx *src = rt->wctx[s - rt->wfirst];
        size_t bytes = sgl__xo_bytes(src, d);
        if (bytes)
            memcpy((char *)w->xin.data + w->xin_off[s - a->first],
                   sgl__xo_data(src, d), bytes);
    }
    return put_worker_vector(w, a);
}

static int xt_local(sgl_ctx_t *c, const void *arg, size_t arg_size)
{
    (void)arg_size;
    if (c->node->arity)
        return sgl__pardo_with(c, xt_local, arg, sizeof(struct sgl__xarg),
                               finish);
    return worker_local(c, arg);
}

static void clear_staged(struct sgl_runtime *rt, size_t lo, size_t hi)
{
    for (size_t w = lo; w < hi; w++)
        sgl__xo_clear(rt->wctx[w - rt->wfirst]);
}

/* ---- the process's part of an exchange that spans processes ---- */

struct xproc {
    struct sgl_runtime *rt;
    const struct sgl__xarg *a;
    struct proc *peer;     /* the other processes of the exchange */
    size_t npeer;
    uint64_t *cout, *cin;  /* counts to and from each peer, back to back:
                              peer k's at off[k] in both (a pair's
                              matrices have the same size each way) */
    size_t *off;
    MPI_Request *req;      /* 2 per peer */
};

static void xproc_free(struct xproc *x)
{
    free(x->peer);
    free(x->cout);
    free(x->cin);
    free(x->off);
    free(x->req);
}

/* The processes of the exchange other than this one. */
static int find_peers(struct xproc *x)
{
    const sgl_machine_t *m = x->rt->machine;
    size_t end = (size_t)(x->a->first + x->a->workers), n = 0;
    for (size_t w = (size_t)x->a->first; w < end; w++) {
        int r = sgl_node_rank(sgl_machine_worker(m, w));
        if (r == x->rt->rank)
            continue;
        if (n && x->peer[n - 1].rank == r) {
            x->peer[n - 1].n++;
            continue;
        }
        x->peer[n++] = (struct proc){r, w, 1};
    }
    x->npeer = n;
    return SGL_OK;
}

/* Check the staged blocks of this process's workers [lo, hi) in the
 * exchange and lay out their receive buffers by source: the bytes of the
 * sources in this process from their staged blocks, those of @x's peers
 * (none if @x is NULL) from the counts they sent. Every worker is laid out
 * even after a failure. */
static int prepare(struct sgl_runtime *rt, const struct sgl__xarg *a,
                   size_t lo, size_t hi, const struct xproc *x)
{
    int rc = SGL_OK;
    for (size_t w = lo; w < hi; w++) {
        int r = sgl__xo_check(rt->wctx[w - rt->wfirst], a);
        rc = rc ? rc : r;
    }
    size_t F = (size_t)a->first, W = (size_t)a->workers;
    size_t *bytes = calloc(W, sizeof *bytes);
    if (!bytes) {
        for (size_t d = lo; d < hi; d++)
            rt->wctx[d - rt->wfirst]->xin_n = 0;
        return rc ? rc
                  : sgl_error_set(SGL_ENOMEM, "sgl_exchange: out of memory "
                                              "for %zu counts",
                                  W);
    }
    size_t slo, shi;
    local_sources(rt, a, &slo, &shi);
    for (size_t d = lo; d < hi; d++) {
        for (size_t s = slo; s < shi; s++)
            bytes[s - F] = sgl__xo_bytes(rt->wctx[s - rt->wfirst], d);
        for (size_t k = 0; x && k < x->npeer; k++) {
            const struct proc *p = &x->peer[k];
            const uint64_t *c = x->cin + x->off[k] + (d - rt->wfirst);
            for (size_t s = 0; s < p->n; s++)
                bytes[p->first + s - F] = (size_t)c[s * rt->wn];
        }
        int r = sgl__xin_layout(rt->wctx[d - rt->wfirst], a, bytes);
        rc = rc ? rc : r;
    }
    free(bytes);
    return rc;
}

/* Step 1: every pair of processes swaps its counts. */
static int swap_counts(struct xproc *x)
{
    struct sgl_runtime *rt = x->rt;
    size_t nout = 0;
    for (size_t k = 0; k < x->npeer; k++) {
        x->off[k] = nout;
        nout += rt->wn * x->peer[k].n;
    }
    x->cout = malloc((nout ? nout : 1) * sizeof *x->cout);
    x->cin = malloc((nout ? nout : 1) * sizeof *x->cin);
    if (!x->cout || !x->cin)
        return sgl_error_set(SGL_ENOMEM, "sgl_exchange: out of memory for "
                                         "%zu counts",
                             nout);
    for (size_t k = 0; k < x->npeer; k++) {
        const struct proc *q = &x->peer[k];
        uint64_t *c = x->cout + x->off[k];
        for (size_t s = 0; s < rt->wn; s++)
            for (size_t d = q->first; d < q->first + q->n; d++)
                *c++ = sgl__xo_bytes(rt->wctx[s], d);
    }
    for (size_t k = 0; k < 2 * x->npeer; k++)
        x->req[k] = MPI_REQUEST_NULL;
    int rc = SGL_OK;
    for (size_t k = 0; k < x->npeer && !rc; k++) {
        struct sgl__part in = {x->cin + x->off[k],
                               rt->wn * x->peer[k].n * sizeof(uint64_t)};
        struct sgl__part out = {x->cout + x->off[k], in.len};
        rc = sgl__recv_parts(rt->xcomm, x->peer[k].rank, TAG_COUNTS, &in, 1,
                             &x->req[2 * k]);
        if (!rc)
            rc = sgl__send_parts(rt->xcomm, x->peer[k].rank, TAG_COUNTS,
                                 &out, 1, &x->req[2 * k + 1]);
    }
    if (MPI_Waitall(2 * (int)x->npeer, x->req, MPI_STATUSES_IGNORE) !=
            MPI_SUCCESS &&
        !rc)
        rc = sgl_error_set(SGL_EMPI, "sgl_exchange: swapping counts failed");
    return rc;
}

/* Step 3: post the payload of every pair of processes with any bytes. A
 * process without memory for its receive buffers takes the messages off
 * the wire into nothing, so that its peers are not left waiting. */
static int post_payload(struct xproc *x, int have_room)
{
    struct sgl_runtime *rt = x->rt;
    size_t F = (size_t)x->a->first, most = 0;
    for (size_t k = 0; k < x->npeer; k++)
        if (rt->wn * x->peer[k].n > most)
            most = rt->wn * x->peer[k].n;
    struct sgl__part *parts = malloc((most ? most : 1) * sizeof *parts);
    if (!parts)
        have_room = 0;
    int rc = SGL_OK;
    for (size_t k = 0; k < x->npeer; k++) {
        const struct proc *p = &x->peer[k];
        x->req[2 * k] = x->req[2 * k + 1] = MPI_REQUEST_NULL;
        size_t nin = 0, nout = 0, bin = 0, bout = 0;
        for (size_t s = p->first; s < p->first + p->n; s++)
            for (size_t d = 0; d < rt->wn; d++)
                bin += (size_t)x->cin[x->off[k] + nin++];
        for (size_t s = 0; s < rt->wn; s++)
            for (size_t d = p->first; d < p->first + p->n; d++)
                bout += (size_t)x->cout[x->off[k] + nout++];
        int r = SGL_OK;
        if (bin && !have_room) {
            MPI_Irecv(NULL, 0, MPI_BYTE, p->rank, TAG_PAYLOAD, rt->xcomm,
                      &x->req[2 * k]);
        } else if (bin) {
            size_t j = 0;
            for (size_t s = p->first; s < p->first + p->n; s++)
                for (size_t d = 0; d < rt->wn; d++, j++) {
                    const struct sgl_ctx *w = rt->wctx[d];
                    parts[j] = (struct sgl__part){
                        (char *)w->xin.data + w->xin_off[s - F],
                        (size_t)x->cin[x->off[k] + j]};
                }
            r = sgl__recv_parts(rt->xcomm, p->rank, TAG_PAYLOAD, parts,
                                (int)j, &x->req[2 * k]);
        }
        if (bout && !r && parts) {
            size_t j = 0;
            for (size_t s = 0; s < rt->wn; s++)
                for (size_t d = p->first; d < p->first + p->n; d++, j++) {
                    size_t b = (size_t)x->cout[x->off[k] + j];
                    parts[j] = (struct sgl__part){
                        b ? sgl__xo_data(rt->wctx[s], d) : NULL, b};
                }
            r = sgl__send_parts(rt->xcomm, p->rank, TAG_PAYLOAD, parts,
                                (int)j, &x->req[2 * k + 1]);
        } else if (bout && !r) {
            r = sgl_error_set(SGL_ENOMEM, "sgl_exchange: out of memory for "
                                          "a message's parts");
        }
        rc = rc ? rc : r;
    }
    free(parts);
    return rc;
}

/* The part of process bottom @b: steps 1 to 5 of the protocol. */
static int process_part(struct sgl_ctx *b, const struct sgl__xarg *a)
{
    struct sgl_runtime *rt = b->rt;
    size_t lo = rt->wfirst, hi = rt->wfirst + rt->wn;
    size_t np = (size_t)a->workers;
    struct xproc x = {.rt = rt, .a = a};
    x.peer = malloc(np * sizeof *x.peer);
    x.off = malloc(np * sizeof *x.off);
    x.req = malloc(2 * np * sizeof *x.req);
    if (!x.peer || !x.off || !x.req) {
        xproc_free(&x);
        return sgl_error_set(SGL_ENOMEM, "sgl_exchange: out of memory for "
                                         "the exchange's processes");
    }
    find_peers(&x);
    int rc = swap_counts(&x);
    if (rc) {
        clear_staged(rt, lo, hi);
        xproc_free(&x);
        return rc;
    }
    rc = prepare(rt, a, lo, hi, &x);
    int room = 1;
    for (size_t d = lo; d < hi; d++)
        room = room && rt->wctx[d - lo]->xin_n == a->workers;
    int r = post_payload(&x, room);
    rc = rc ? rc : r;
    r = b->node->arity ? sgl__pardo_with(b, xt_local, a, sizeof *a, finish)
                       : worker_local(b, a);
    rc = rc ? rc : r;
    if (MPI_Waitall(2 * (int)x.npeer, x.req, MPI_STATUSES_IGNORE) !=
            MPI_SUCCESS &&
        room && !rc)
        rc = sgl_error_set(SGL_EMPI, "sgl_exchange: moving the blocks "
                                     "between processes failed");
    clear_staged(rt, lo, hi);
    xproc_free(&x);
    return rc;
}

int sgl__xt_mpi(sgl_ctx_t *c, const void *arg, size_t arg_size)
{
    (void)arg_size;
    if (!whole_subtree_here(c))
        return sgl__pardo_with(c, sgl__xt_mpi, arg, sizeof(struct sgl__xarg),
                               finish);
    return process_part(c, arg);
}

int sgl__exchange_direct(struct sgl_ctx *m, const struct sgl__xarg *a)
{
    struct sgl_runtime *rt = m->rt;
    if (!whole_subtree_here(m)) {
        m->xroot = 1;
        int rc = sgl__pardo_with(m, sgl__xt_mpi, a, sizeof *a, finish);
        m->xroot = 0;
        return rc;
    }
    /* The exchange lies in this process: its workers copy from each
     * other. */
    size_t lo = (size_t)a->first, hi = lo + (size_t)a->workers;
    int rc = prepare(rt, a, lo, hi, NULL);
    if (m->node->arity) {
        m->xroot = 1;
        int r = sgl__pardo_with(m, xt_local, a, sizeof *a, finish);
        m->xroot = 0;
        rc = rc ? rc : r;
    } else if (m->xin_n == a->workers) {
        size_t bytes = sgl__xo_bytes(m, lo);
        if (bytes)
            memcpy(m->xin.data, sgl__xo_data(m, lo), bytes);
    }
    clear_staged(rt, lo, hi);
    return rc;
}
