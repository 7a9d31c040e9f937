/* sgl_vertex_send_all(): a vertex records one value for all its
 * out-edges; after compute, the worker folds the values per target over
 * its out-edges grouped by target (built once per graph, on first use),
 * sources in increasing order, and hands each fold to the outbox. A fold
 * reads one value per edge, in the order of a precomputed list, instead
 * of combining one message per edge into a table. */
#include <stdlib.h>
#include <string.h>

#include "pregel_impl.h"

void sgl_combine_sum_f64(void *acc, const void *msg)
{
    *(double *)acc += *(const double *)msg;
}

void sgl_combine_sum_u64(void *acc, const void *msg)
{
    *(uint64_t *)acc += *(const uint64_t *)msg;
}

void sgl_combine_min_u64(void *acc, const void *msg)
{
    if (*(const uint64_t *)msg < *(uint64_t *)acc)
        *(uint64_t *)acc = *(const uint64_t *)msg;
}

void sgl_combine_min_f64(void *acc, const void *msg)
{
    if (*(const double *)msg < *(double *)acc)
        *(double *)acc = *(const double *)msg;
}

void sgl__fan_forget_values(struct wgraph *g)
{
    free(g->bval);
    free(g->bset);
    free(g->has_out);
    g->bval = g->bset = g->has_out = NULL;
    g->nbcast = 0;
}

void sgl__fan_free(struct wgraph *g)
{
    free(g->fan.target);
    free(g->fan.off);
    free(g->fan.src);
    free(g->fan.dest_off);
    memset(&g->fan, 0, sizeof g->fan);
    sgl__fan_forget_values(g);
}

/* The out-edges grouped by target: counted, placed, then each group's
 * targets compacted. Sources come out increasing within a target since
 * the sources are walked in order. */
int sgl__fan_build(struct wgraph *g)
{
    size_t nv = (size_t)(g->v1 - g->v0), m = g->off[nv];
    uint64_t *tgt = malloc((m ? m : 1) * sizeof *tgt);
    uint32_t *src = malloc((m ? m : 1) * sizeof *src);
    if (!tgt || !src || nv > UINT32_MAX) {
        free(tgt), free(src);
        return sgl_error_set(SGL_ENOMEM, "out of memory for %zu edges", m);
    }
    /* the edges' order by target: an LSD radix sort of their indices */
    size_t *perm = malloc((m ? m : 1) * sizeof *perm);
    if (!perm) {
        free(tgt), free(src);
        return sgl_error_set(SGL_ENOMEM, "out of memory for %zu edges", m);
    }
    for (size_t v = 0, e = 0; v < nv; v++)
        for (; e < g->off[v + 1]; e++) {
            tgt[e] = g->adj[e];
            src[e] = (uint32_t)v;
        }
    size_t *tmp = malloc((m ? m : 1) * sizeof *tmp);
    size_t *count = malloc(((size_t)1 << 16) * sizeof *count);
    if (!tmp || !count) {
        free(tgt), free(src), free(perm), free(tmp), free(count);
        return sgl_error_set(SGL_ENOMEM, "out of memory for %zu edges", m);
    }
    for (size_t e = 0; e < m; e++)
        perm[e] = e;
    uint64_t top = 0;
    for (size_t e = 0; e < m; e++)
        top = tgt[e] > top ? tgt[e] : top;
    for (unsigned shift = 0; shift < 64 && (top >> shift); shift += 16) {
        memset(count, 0, ((size_t)1 << 16) * sizeof *count);
        for (size_t e = 0; e < m; e++)
            count[(tgt[perm[e]] >> shift) & 0xffff]++;
        for (size_t c = 0, acc = 0; c < (1 << 16); c++) {
            size_t x = count[c];
            count[c] = acc;
            acc += x;
        }
        for (size_t e = 0; e < m; e++)
            tmp[count[(tgt[perm[e]] >> shift) & 0xffff]++] = perm[e];
        size_t *t = perm;
        perm = tmp;
        tmp = t;
    }
    free(tmp);
    free(count);
    struct fan *f = &g->fan;
    f->src = malloc((m ? m : 1) * sizeof *f->src);
    f->target = malloc((m ? m : 1) * sizeof *f->target);
    f->off = malloc((m + 1) * sizeof *f->off);
    int rc = f->src && f->target && f->off
                 ? SGL_OK
                 : sgl_error_set(SGL_ENOMEM, "out of memory for %zu edges", m);
    f->nslots = 0;
    for (size_t k = 0; k < m && !rc; k++) {
        size_t e = perm[k];
        if (k == 0 || tgt[e] != f->target[f->nslots - 1]) {
            f->off[f->nslots] = k;
            f->target[f->nslots++] = tgt[e];
        }
        f->src[k] = src[e];
    }
    if (!rc)
        f->off[f->nslots] = m;
    f->nsenders = 0;
    for (size_t v = 0; v < nv; v++)
        f->nsenders += g->off[v + 1] > g->off[v];
    free(tgt), free(src), free(perm);
    return rc;
}

uint32_t sgl__fan_fold(const struct wgraph *g, const sgl_pregel_program_t *p,
                       size_t k, unsigned char *acc)
{
    const struct fan *f = &g->fan;
    size_t ms = p->msg_size;
    uint32_t n = 0;
    /* every slot has a contributor: a plain sum, in source order */
    if (p->combine == sgl_combine_sum_f64 && ms == sizeof(double) &&
        g->nbcast == f->nsenders) {
        const double *x = (const double *)g->bval;
        size_t i = f->off[k], end = f->off[k + 1];
        double s = x[f->src[i]];
        for (i++; i < end; i++)
            s += x[f->src[i]];
        memcpy(acc, &s, sizeof s);
        return (uint32_t)(end - f->off[k]);
    }
    if (p->combine == sgl_combine_sum_u64 && ms == sizeof(uint64_t) &&
        g->nbcast == f->nsenders) {
        const uint64_t *x = (const uint64_t *)g->bval;
        size_t i = f->off[k], end = f->off[k + 1];
        uint64_t s = x[f->src[i]];
        for (i++; i < end; i++)
            s += x[f->src[i]];
        memcpy(acc, &s, sizeof s);
        return (uint32_t)(end - f->off[k]);
    }
    for (size_t i = f->off[k]; i < f->off[k + 1]; i++) {
        uint32_t s = f->src[i];
        if (!g->bset[s])
            continue;
        if (n++)
            p->combine(acc, g->bval + (size_t)s * ms);
        else
            memcpy(acc, g->bval + (size_t)s * ms, ms);
    }
    return n;
}

/* How far ahead, in edges, the folds below prefetch a source's value.
 * The values are read at random over the worker's sources (4 MB per
 * worker at Kronecker scale 20 on 2 workers: the L3, not the L2), and
 * each slot ends at a branch that the predictor misses about once per
 * slot, dropping the loads then in flight; a prefetch is not dropped.
 * 16 edges is about one slot there (8.0 M edges in 446 k slots on the
 * first worker). */
#define FOLD_AHEAD 16

/* The fast path of sgl__fan_fold() over slots @lo..@hi for the integer
 * sum: one running sum over the slots' edges, each slot's fold the
 * difference of the running sum at its ends. Sums modulo 2^64 are exact
 * in any grouping, so this is bitwise the sum in source order; and a
 * slot costs no reload of its first value. Every slot has a
 * contributor; folds are written to @out + (k - @lo) @stride. */
static void fold_range_u64(const struct wgraph *g, size_t lo, size_t hi,
                           unsigned char *out, size_t stride)
{
    const struct fan *f = &g->fan;
    const uint64_t *x = (const uint64_t *)g->bval;
    const uint32_t *src = f->src;
    const size_t *off = f->off;
    size_t i = off[lo], last = off[f->nslots] - 1;
    uint64_t run = 0, before = 0;
    for (size_t k = lo; k < hi; k++) {
        for (size_t end = off[k + 1]; i < end; i++) {
            size_t ahead = i + FOLD_AHEAD < last ? i + FOLD_AHEAD : last;
            __builtin_prefetch(&x[src[ahead]]);
            run += x[src[i]];
        }
        uint64_t s = run - before;
        before = run;
        memcpy(out + (k - lo) * stride, &s, sizeof s);
    }
}

/* The same for the double sum, which must add in source order slot by
 * slot: the prefetch alone. */
static void fold_range_f64(const struct wgraph *g, size_t lo, size_t hi,
                           unsigned char *out, size_t stride)
{
    const struct fan *f = &g->fan;
    const double *x = (const double *)g->bval;
    const uint32_t *src = f->src;
    const size_t *off = f->off;
    size_t last = off[f->nslots] - 1;
    for (size_t k = lo; k < hi; k++) {
        size_t i = off[k], end = off[k + 1];
        double s = x[src[i]];
        for (i++; i < end; i++) {
            size_t ahead = i + FOLD_AHEAD < last ? i + FOLD_AHEAD : last;
            __builtin_prefetch(&x[src[ahead]]);
            s += x[src[i]];
        }
        memcpy(out + (k - lo) * stride, &s, sizeof s);
    }
}

void sgl__fan_fold_range(const struct wgraph *g, const sgl_pregel_program_t *p,
                         size_t lo, size_t hi, unsigned char *out,
                         size_t stride)
{
    const struct fan *f = &g->fan;
    size_t ms = p->msg_size;
    int full = g->nbcast == f->nsenders;
    if (lo == hi)
        return;
    if (full && p->combine == sgl_combine_sum_u64 && ms == sizeof(uint64_t))
        fold_range_u64(g, lo, hi, out, stride);
    else if (full && p->combine == sgl_combine_sum_f64 &&
             ms == sizeof(double))
        fold_range_f64(g, lo, hi, out, stride);
    else
        for (size_t k = lo; k < hi; k++)
            sgl__fan_fold(g, p, k, out + (k - lo) * stride);
}

int sgl__fan_flush(struct wgraph *g, const sgl_pregel_program_t *p)
{
    if (!g->nbcast)
        return SGL_OK;
    unsigned char acc[SGL_PREGEL_MAX_BYTES];
    for (size_t k = 0; k < g->fan.nslots; k++) {
        uint32_t n = sgl__fan_fold(g, p, k, acc);
        if (n)
            SGL_TRY(sgl__outbox_add_n(&g->out, g->fan.target[k], acc, n,
                                  p->combine));
    }
    sgl__fan_forget_sent(g);
    return SGL_OK;
}

void sgl__fan_forget_sent(struct wgraph *g)
{
    memset(g->bset, 0, (size_t)(g->v1 - g->v0));
    g->nbcast = 0;
}

int sgl__fan_values(struct wgraph *g, const sgl_pregel_program_t *p)
{
    if (g->bval)
        return SGL_OK;
    size_t nv = (size_t)(g->v1 - g->v0);
    g->bval = malloc((nv ? nv : 1) * p->msg_size);
    g->bset = calloc(nv ? nv : 1, 1);
    g->has_out = malloc(nv ? nv : 1);
    if (!g->bval || !g->bset || !g->has_out) {
        sgl__fan_forget_values(g);
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < nv; i++)
        g->has_out[i] = g->off[i + 1] > g->off[i];
    return SGL_OK;
}

/* Record local vertex @i's value; the layout and the value arrays are
 * made on the first call. */
static int fan_record(struct wgraph *g, const sgl_pregel_program_t *p,
                      size_t i, const void *msg)
{
    if (!g->bval) {
        SGL_TRY(sgl__fan_values(g, p));
        if (!g->fan.off)
            SGL_TRY(sgl__fan_build(g));
    }
    if (g->off[i + 1] == g->off[i])
        return SGL_OK; /* no edge: nothing to send */
    if (p->msg_size == sizeof(uint64_t)) /* a move, not a call */
        memcpy(g->bval + i * sizeof(uint64_t), msg, sizeof(uint64_t));
    else
        memcpy(g->bval + i * p->msg_size, msg, p->msg_size);
    g->nbcast += !g->bset[i];
    g->bset[i] = 1;
    return SGL_OK;
}

/* Here rather than with the other accessors, so that the record is
 * inlined: PageRank calls it once per vertex per superstep. */
int sgl_vertex_send_all(sgl_vertex_t *v, const void *msg)
{
    int rc = fan_record(v->g, v->p, v->i, msg);
    if (rc && !v->err)
        v->err = rc;
    return rc;
}
