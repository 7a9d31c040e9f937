/* Graphs for the vertex-centric layer. Building one is a superstep and an
 * exchange: every worker gets a slice of the edges (scattered from the
 * root, or generated: Graph500's R-MAT, a function of the edge's index),
 * sends each edge to its source's owner, and the owners sort what came
 * into CSR form (targets sorted, duplicates dropped). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "darray_impl.h"
#include "pregel_impl.h"
#include <sgl/exchange.h>

/* ---- a worker's graphs ---- */

static const char graph_key;

static void wgraph_free(void *x)
{
    struct wgraph *g = x;
    if (!g)
        return;
    free(g->off);
    free(g->adj);
    free(g->val);
    free(g->staged);
    free(g->value);
    free(g->halted);
    free(g->inbox);
    free(g->has_msg);
    free(g->cuts);
    sgl__outbox_free(&g->out);
    sgl__fan_free(g);
    sgl__wire_forget(g);
    free(g);
}

struct wgraph *sgl__pregel_wgraph(sgl_ctx_t *worker, uint32_t id)
{
    return sgl__darray_item_find(worker, &graph_key, id);
}

int sgl__pregel_wgraph_add(sgl_ctx_t *worker, struct wgraph *g)
{
    int rc = sgl__darray_item_add(worker, &graph_key, g, wgraph_free);
    if (rc)
        wgraph_free(g);
    return rc;
}

void sgl__pregel_wgraph_drop(sgl_ctx_t *worker, uint32_t id)
{
    sgl__darray_item_drop(worker, &graph_key, id);
}

/* ---- edges ---- */

enum source { FROM_ROOT, KRONECKER };

struct build_arg {
    uint32_t id;
    uint32_t source; /* enum source */
    uint64_t n, m;   /* vertices, edges before duplicates go */
    uint64_t seed;
    uint32_t scale;
    uint32_t valued; /* edges carry values */
    double wlo, whi; /* generated values: uniform in [wlo, whi) */
};

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A fixed bijection of [0, 2^scale): Graph500 scrambles vertex numbers so
 * that the hubs are not the low ones. */
static uint64_t scramble(uint64_t v, unsigned scale, uint64_t seed)
{
    uint64_t mask = scale >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << scale) - 1;
    uint64_t mult = (seed * UINT64_C(0x2545F4914F6CDD1D)) | 1;
    return (v * mult + (seed >> 7)) & mask;
}

/* Edge @e of the R-MAT graph: at every bit, the quadrant (A, B, C, D) =
 * (0.57, 0.19, 0.19, 0.05). */
static struct edge rmat_edge(const struct build_arg *a, uint64_t e)
{
    uint64_t st = a->seed ^ (e * UINT64_C(0xD1B54A32D192ED03));
    uint64_t u = 0, v = 0;
    for (unsigned b = 0; b < a->scale; b++) {
        double r = (double)(mix(&st) >> 11) * 0x1.0p-53;
        unsigned right = (r >= 0.57 && r < 0.76) || r >= 0.95;
        u = u << 1 | (r >= 0.76);
        v = v << 1 | right;
    }
    struct edge x = {scramble(u, a->scale, a->seed),
                     scramble(v, a->scale, a->seed), 0};
    if (a->valued) { /* a stream of its own, of the edge and seed only */
        uint64_t ws = ~a->seed ^ (e * UINT64_C(0x9FB21C651E98DF25));
        double r = (double)(mix(&ws) >> 11) * 0x1.0p-53;
        x.w = a->wlo + (a->whi - a->wlo) * r;
        if (x.w >= a->whi) /* rounding up to whi: keep the range half-open */
            x.w = a->wlo;
    }
    return x;
}

/* The worker's slice of the generated edges: the indices [m w / P,
 * m (w + 1) / P). */
static int generate(sgl_ctx_t *ctx, const struct build_arg *a,
                    struct edge **ret, size_t *ret_n)
{
    size_t p = sgl_machine_workers(sgl_ctx_machine(ctx));
    size_t w = sgl_ctx_first_worker(ctx);
    uint64_t e0 = algo_split(a->m, w, p), e1 = algo_split(a->m, w + 1, p);
    struct edge *x = malloc((e1 - e0 ? e1 - e0 : 1) * sizeof *x);
    if (!x)
        return sgl_error_set(SGL_ENOMEM, "out of memory for edges");
    for (uint64_t e = e0; e < e1; e++)
        x[e - e0] = rmat_edge(a, e);
    *ret = x;
    *ret_n = e1 - e0;
    return SGL_OK;
}

int sgl__pregel_send_edges(sgl_ctx_t *ctx, struct wgraph *g,
                           const struct edge *x, size_t n, size_t p,
                           const uint64_t *cuts)
{
    size_t *counts = calloc(p, sizeof *counts), *at = calloc(p, sizeof *at);
    struct edge *out = malloc((n ? n : 1) * sizeof *out);
    int rc = SGL_OK;
    if (!counts || !at || !out)
        rc = sgl_error_set(SGL_ENOMEM, "out of memory for edges");
    for (size_t i = 0; i < n && !rc; i++)
        counts[pregel_owner_in(cuts, g->n, p, x[i].s)]++;
    for (size_t w = 1; w < p && !rc; w++)
        at[w] = at[w - 1] + counts[w - 1];
    for (size_t i = 0; i < n && !rc; i++)
        out[at[pregel_owner_in(cuts, g->n, p, x[i].s)]++] = x[i];
    if (!rc) {
        g->staged = out;
        rc = sgl_exchange_put(ctx, out, sizeof *out, 0, p, counts);
    } else {
        free(out);
    }
    free(counts);
    free(at);
    return rc;
}

/* A worker's step 1: its part of the graph, and its edges (@given, the
 * scattered block, or generated) on their way to their owners. */
static int send_worker(sgl_ctx_t *ctx, const struct build_arg *a,
                       const struct edge *given, size_t ngiven)
{
    size_t p = sgl_machine_workers(sgl_ctx_machine(ctx));
    size_t w = sgl_ctx_first_worker(ctx);
    struct wgraph *g = calloc(1, sizeof *g);
    if (!g)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    g->id = a->id;
    g->n = a->n;
    g->v0 = algo_split(a->n, w, p);
    g->v1 = algo_split(a->n, w + 1, p);
    struct edge *made = NULL;
    int rc = a->source == FROM_ROOT ? SGL_OK
                                    : generate(ctx, a, &made, &ngiven);
    if (!rc)
        rc = sgl__pregel_send_edges(ctx, g, made ? made : given, ngiven, p,
                                    NULL);
    free(made);
    return rc ? (wgraph_free(g), rc) : sgl__pregel_wgraph_add(ctx, g);
}

static int send_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const struct build_arg *a = arg;
    void *blk = NULL;
    size_t cnt = 0;
    if (a->source == FROM_ROOT)
        SGL_TRY(sgl_recv(ctx, sizeof(struct edge), &blk, &cnt));
    if (sgl_ctx_is_worker(ctx))
        return send_worker(ctx, a, blk, cnt);
    if (a->source == FROM_ROOT)
        SGL_TRY(sgl_scatter_split(ctx, blk, sizeof(struct edge), cnt, NULL));
    return sgl_pardo(ctx, send_task, arg, size);
}

static int by_target(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* A target and its edge's value, while a vertex's edges are sorted. */
struct tw {
    uint64_t t;
    double w;
};

/* By target, then by value: the first of equal targets has the least
 * value, the one a duplicate edge keeps. */
static int by_target_value(const void *x, const void *y)
{
    const struct tw *a = x, *b = y;
    if (a->t != b->t)
        return (a->t > b->t) - (a->t < b->t);
    return (a->w > b->w) - (a->w < b->w);
}

/* Sort vertex @v's edges [a, b) with their values and keep each target
 * once, at @m on; @return the new end. */
static size_t distinct_valued(struct wgraph *g, struct tw *tmp, size_t a,
                              size_t b, size_t m)
{
    for (size_t i = a; i < b; i++)
        tmp[i - a] = (struct tw){g->adj[i], g->val[i]};
    qsort(tmp, b - a, sizeof *tmp, by_target_value);
    for (size_t i = 0; i < b - a; i++)
        if (i == 0 || tmp[i].t != tmp[i - 1].t) {
            g->adj[m] = tmp[i].t;
            g->val[m++] = tmp[i].w;
        }
    return m;
}

/* Each vertex's targets sorted and made distinct (with the least value
 * of a duplicate where edges carry values); the offsets moved to match. */
static int make_distinct(struct wgraph *g, size_t nv, uint64_t *ret_m)
{
    size_t most = 0, m = 0;
    for (size_t v = 0; g->val && v < nv; v++)
        if (g->off[v + 1] - g->off[v] > most)
            most = g->off[v + 1] - g->off[v];
    struct tw *tmp = g->val ? malloc((most ? most : 1) * sizeof *tmp) : NULL;
    if (g->val && !tmp)
        return sgl_error_set(SGL_ENOMEM, "out of memory for edge values");
    for (size_t v = 0; v < nv; v++) {
        size_t a = g->off[v], b = g->off[v + 1], start = m;
        if (tmp) {
            m = distinct_valued(g, tmp, a, b, m);
        } else {
            qsort(g->adj + a, b - a, sizeof *g->adj, by_target);
            for (size_t i = a; i < b; i++)
                if (i == a || g->adj[i] != g->adj[i - 1])
                    g->adj[m++] = g->adj[i];
        }
        g->off[v] = start;
    }
    free(tmp);
    g->off[nv] = m;
    *ret_m = m;
    return SGL_OK;
}

/* The edges that came, in CSR form: counted by source, placed, each
 * vertex's targets sorted and made distinct. */
static int build_csr(struct wgraph *g, const struct edge *e, size_t n,
                     int valued, uint64_t *ret_m)
{
    /* the callers bound the vertices, so nv + 1 offsets cannot wrap; a
     * bound is checked again here, where it matters */
    uint64_t nv64 = g->v1 - g->v0;
    if (nv64 >= SIZE_MAX / sizeof *g->off || n >= SIZE_MAX / sizeof *g->adj)
        return sgl_error_set(SGL_EINVAL, "graph: %llu vertices and %zu edges "
                                         "on one worker, more than it can "
                                         "index",
                             (unsigned long long)nv64, n);
    size_t nv = (size_t)nv64;
    g->off = calloc(nv + 1, sizeof *g->off);
    g->adj = malloc((n ? n : 1) * sizeof *g->adj);
    g->val = valued ? malloc((n ? n : 1) * sizeof *g->val) : NULL;
    if (!g->off || !g->adj || (valued && !g->val))
        return sgl_error_set(SGL_ENOMEM, "out of memory for %zu vertices and "
                                         "%zu edges on one worker",
                             nv, n);
    for (size_t i = 0; i < n; i++)
        g->off[e[i].s - g->v0 + 1]++;
    for (size_t v = 0; v < nv; v++)
        g->off[v + 1] += g->off[v];
    for (size_t i = 0; i < n; i++) { /* off[v] runs ahead, then shifts */
        size_t k = g->off[e[i].s - g->v0]++;
        g->adj[k] = e[i].t;
        if (valued)
            g->val[k] = e[i].w;
    }
    memmove(g->off + 1, g->off, nv * sizeof *g->off);
    g->off[0] = 0;
    return make_distinct(g, nv, ret_m);
}

/* What a worker hands up after building its CSR. */
struct csr_rec {
    uint64_t m;      /* distinct edges */
    uint64_t hash;   /* csr_hash() */
};

/* MurmurHash3's 64-bit finaliser: every input bit moves every output
 * bit, so that a sum of these is a hash of a set. */
static uint64_t fmix64(uint64_t x)
{
    x = (x ^ (x >> 33)) * UINT64_C(0xFF51AFD7ED558CCD);
    x = (x ^ (x >> 33)) * UINT64_C(0xC4CEB93FE53E4C1B);
    return x ^ (x >> 33);
}

/* The sum (modulo 2^64) of a hash of each of the worker's distinct
 * out-edges: a sum does not depend on the order of its terms, so the
 * workers' sums add up to the same total on any number of workers and
 * any cut. */
static uint64_t csr_hash(const struct wgraph *g)
{
    uint64_t h = 0;
    for (uint64_t v = g->v0; v < g->v1; v++)
        for (size_t k = g->off[v - g->v0]; k < g->off[v - g->v0 + 1]; k++) {
            uint64_t x = fmix64(fmix64(v) ^ g->adj[k]), bits;
            if (g->val) { /* the value is part of the edge: a checkpoint
                             of other weights is another graph's */
                memcpy(&bits, &g->val[k], sizeof bits);
                x = fmix64(x ^ bits);
            }
            h += x;
        }
    return h;
}

uint64_t sgl__graph_identity(const sgl_graph_t *g)
{
    return fmix64(fmix64(fmix64(g->n) ^ g->m) ^ g->ehash);
}

/* A worker's step 2: its out-edges in CSR form, and their number and
 * hash (struct csr_rec). */
static int csr_worker(sgl_ctx_t *ctx, uint32_t id, int valued,
                      struct csr_rec *ret)
{
    struct wgraph *g = sgl__pregel_wgraph(ctx, id);
    if (!g)
        return sgl_error_set(SGL_ESTATE, "worker %zu has no graph %u",
                             sgl_ctx_first_worker(ctx), id);
    struct edge *e;
    size_t n;
    SGL_TRY(sgl_exchange_recv(ctx, sizeof *e, (void **)&e, &n, NULL, NULL, NULL));
    SGL_TRY(build_csr(g, e, n, valued, &ret->m));
    ret->hash = csr_hash(g);
    SGL_TRY(sgl_exchange_release(ctx));
    free(g->staged);
    g->staged = NULL;
    g->staged_cap = 0;
    return SGL_OK;
}

static int csr_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const struct pregel_id_arg *a = arg;
    if (sgl_ctx_is_master(ctx)) {
        SGL_TRY(sgl_pardo(ctx, csr_task, arg, size));
        return sgl__algo_pass_up(ctx, sizeof(struct csr_rec));
    }
    struct csr_rec r = {0, 0};
    SGL_TRY(csr_worker(ctx, a->id, (int)a->pad, &r));
    return sgl_put(ctx, &r, sizeof r, 1);
}

int sgl__pregel_collect_csr(sgl_ctx_t *root, sgl_graph_t *g, int valued)
{
    struct pregel_id_arg ia = {g->id, (uint32_t)valued}; /* pad: valued */
    struct csr_rec *r = NULL;
    size_t nw = 0;
    SGL_TRY(sgl_pardo(root, csr_task, &ia, sizeof ia));
    SGL_TRY(sgl_gather_alloc(root, sizeof *r, (void **)&r, &nw, NULL));
    uint64_t *m = malloc((nw ? nw : 1) * sizeof *m);
    if (!m) {
        free(r);
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    }
    free(g->edges);
    g->edges = m;
    g->nw = nw;
    g->m = 0;
    g->ehash = 0;
    for (size_t w = 0; w < nw; w++) {
        m[w] = r[w].m;
        g->m += r[w].m;
        g->ehash += r[w].hash;
    }
    free(r);
    return SGL_OK;
}

/* The root's steps when it is the only worker. */
static int build_alone(sgl_ctx_t *root, const struct build_arg *a,
                       const struct edge *edges, sgl_graph_t *g)
{
    struct csr_rec r = {0, 0};
    SGL_TRY(send_worker(root, a, edges, a->m));
    SGL_TRY(sgl_exchange(root));
    SGL_TRY(csr_worker(root, a->id, (int)a->valued, &r));
    g->m = r.m;
    g->ehash = r.hash;
    return SGL_OK;
}

/* A worker numbers its vertices with 32 bits (the send-all layout's
 * sources, the wire's patterns): the largest even share of @n over @nw
 * workers must fit, checked before anything is allocated for it. */
static int check_per_worker(uint64_t n, size_t nw)
{
    uint64_t most = n / nw + (n % nw != 0);
    if (most <= SGL_GRAPH_MAX_WORKER_VERTICES)
        return SGL_OK;
    return sgl_error_set(SGL_EINVAL,
                         "graph: %llu vertices on %zu workers put %llu on "
                         "one, more than a worker can index (2^32 - 1 = "
                         "%llu): use more workers or a smaller graph",
                         (unsigned long long)n, nw, (unsigned long long)most,
                         (unsigned long long)SGL_GRAPH_MAX_WORKER_VERTICES);
}

/* Steps 1 and 2 from the root; @edges is the root's edge list or NULL. */
static int build(sgl_ctx_t *root, struct build_arg *a, const struct edge *edges,
                 sgl_graph_t **ret)
{
    if (!root || !ret)
        return sgl_error_set(SGL_EINVAL, "graph: NULL argument");
    if (!sgl_ctx_is_root(root))
        return sgl_error_set(SGL_ESTATE, "graph: call it on the root");
    SGL_TRY(check_per_worker(a->n, sgl_ctx_workers(root)));
    sgl_graph_t *g = calloc(1, sizeof *g);
    if (!g)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    g->id = a->id = sgl__darray_new_id(root);
    g->n = a->n;
    g->valued = (int)a->valued;
    if (sgl_ctx_is_worker(root)) {
        g->nw = 1;
        g->edges = malloc(sizeof *g->edges);
        int rc = g->edges ? build_alone(root, a, edges, g)
                          : sgl_error_set(SGL_ENOMEM, "out of memory");
        if (!rc)
            g->edges[0] = g->m;
        if (rc)
            sgl_graph_free(root, g);
        else
            *ret = g;
        return rc;
    }
    int rc = a->source == FROM_ROOT
                 ? sgl_scatter_split(root, edges, sizeof *edges, a->m, NULL)
                 : SGL_OK;
    if (!rc)
        rc = sgl_pardo(root, send_task, a, sizeof *a);
    if (!rc)
        rc = sgl_exchange(root);
    if (!rc)
        rc = sgl__pregel_collect_csr(root, g, (int)a->valued);
    if (rc) {
        sgl_graph_free(root, g);
        return rc;
    }
    *ret = g;
    return SGL_OK;
}

/* The bounds every edge list is checked against before any arithmetic
 * on it: n + 1 offsets, m edges. */
static int check_sizes(uint64_t n, size_t m, const char *fn)
{
    if (n == 0)
        return sgl_error_set(SGL_EINVAL, "%s: no vertex", fn);
    if (n > SGL_GRAPH_MAX_VERTICES)
        return sgl_error_set(SGL_EINVAL,
                             "%s: %llu vertices, more than a graph can "
                             "index (2^40 = %llu)",
                             fn, (unsigned long long)n,
                             (unsigned long long)SGL_GRAPH_MAX_VERTICES);
    if ((uint64_t)m > SGL_GRAPH_MAX_EDGES)
        return sgl_error_set(SGL_EINVAL,
                             "%s: %zu edges, more than a graph can be built "
                             "from (2^48 = %llu)",
                             fn, m, (unsigned long long)SGL_GRAPH_MAX_EDGES);
    return SGL_OK;
}

/* Edge @i checked: vertices below @n, a finite value. */
static int check_edge(const uint64_t (*edges)[2], const double *values,
                      size_t i, uint64_t n, const char *fn)
{
    if (edges[i][0] >= n || edges[i][1] >= n)
        return sgl_error_set(SGL_EINVAL,
                             "%s: edge %zu (%llu -> %llu) names a vertex >= "
                             "%llu",
                             fn, i, (unsigned long long)edges[i][0],
                             (unsigned long long)edges[i][1],
                             (unsigned long long)n);
    if (values && !isfinite(values[i]))
        return sgl_error_set(SGL_EINVAL,
                             "%s: edge %zu (%llu -> %llu) has the value %g, "
                             "not a finite number",
                             fn, i, (unsigned long long)edges[i][0],
                             (unsigned long long)edges[i][1], values[i]);
    return SGL_OK;
}

static int from_edges(sgl_ctx_t *root, uint64_t n, const uint64_t (*edges)[2],
                      const double *values, size_t m, const char *fn,
                      sgl_graph_t **ret)
{
    if (m && !edges)
        return sgl_error_set(SGL_EINVAL, "%s: NULL edges", fn);
    SGL_TRY(check_sizes(n, m, fn));
    for (size_t i = 0; i < m; i++)
        SGL_TRY(check_edge(edges, values, i, n, fn));
    struct edge *e = malloc((m ? m : 1) * sizeof *e);
    if (!e)
        return sgl_error_set(SGL_ENOMEM, "%s: out of memory for %zu edges",
                             fn, m);
    for (size_t i = 0; i < m; i++)
        e[i] = (struct edge){edges[i][0], edges[i][1], values ? values[i] : 0};
    struct build_arg a = {0, FROM_ROOT, n, m, 0, 0, values != NULL, 0, 0};
    int rc = build(root, &a, e, ret);
    free(e);
    return rc;
}

int sgl_graph_from_edges(sgl_ctx_t *root, uint64_t n,
                         const uint64_t (*edges)[2], size_t m,
                         sgl_graph_t **ret)
{
    return from_edges(root, n, edges, NULL, m, "sgl_graph_from_edges", ret);
}

int sgl_graph_from_weighted_edges(sgl_ctx_t *root, uint64_t n,
                                  const uint64_t (*edges)[2],
                                  const double *values, size_t m,
                                  sgl_graph_t **ret)
{
    if (m && !values)
        return sgl_error_set(SGL_EINVAL, "sgl_graph_from_weighted_edges: "
                                         "NULL values");
    return from_edges(root, n, edges, values, m,
                      "sgl_graph_from_weighted_edges", ret);
}

/* The generator's parameters, checked: 2^scale vertices, edge_factor
 * times as many edges, both below 2^48. */
static int kronecker_arg(unsigned scale, unsigned ef, uint64_t seed,
                         const char *fn, struct build_arg *a)
{
    if (scale < 1 || scale > 40 || ef < 1 || ef > (1u << 20) ||
        ((uint64_t)ef << scale) >> 48)
        return sgl_error_set(SGL_EINVAL,
                             "%s: scale %u (1..40), edge factor %u (1 to "
                             "2^20, fewer than 2^48 edges)",
                             fn, scale, ef);
    uint64_t n = UINT64_C(1) << scale;
    *a = (struct build_arg){0, KRONECKER, n, n * ef, seed, scale, 0, 0, 0};
    return SGL_OK;
}

int sgl_graph_kronecker(sgl_ctx_t *root, unsigned scale, unsigned ef,
                        uint64_t seed, sgl_graph_t **ret)
{
    struct build_arg a = {0};
    SGL_TRY(kronecker_arg(scale, ef, seed, "sgl_graph_kronecker", &a));
    return build(root, &a, NULL, ret);
}

int sgl_graph_kronecker_edges(unsigned scale, unsigned ef, uint64_t seed,
                              uint64_t first, size_t count,
                              uint64_t (*ret)[2])
{
    struct build_arg a = {0};
    SGL_TRY(kronecker_arg(scale, ef, seed, "sgl_graph_kronecker_edges", &a));
    if (count && !ret)
        return sgl_error_set(SGL_EINVAL, "sgl_graph_kronecker_edges: NULL "
                                         "edges");
    if (first > a.m || count > a.m - first)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_graph_kronecker_edges: edges %llu.. of "
                             "%llu",
                             (unsigned long long)first,
                             (unsigned long long)a.m);
    for (size_t i = 0; i < count; i++) {
        struct edge e = rmat_edge(&a, first + i);
        ret[i][0] = e.s;
        ret[i][1] = e.t;
    }
    return SGL_OK;
}

/* The value range of generated edges, checked. */
static int value_range(double lo, double hi, const char *fn,
                       struct build_arg *a)
{
    if (!isfinite(lo) || !isfinite(hi) || !(lo < hi) || !isfinite(hi - lo))
        return sgl_error_set(SGL_EINVAL,
                             "%s: edge values in [%g, %g): give finite "
                             "bounds, lo < hi",
                             fn, lo, hi);
    a->valued = 1;
    a->wlo = lo;
    a->whi = hi;
    return SGL_OK;
}

int sgl_graph_kronecker_weighted(sgl_ctx_t *root, unsigned scale,
                                 unsigned ef, uint64_t seed, double lo,
                                 double hi, sgl_graph_t **ret)
{
    const char *fn = "sgl_graph_kronecker_weighted";
    struct build_arg a = {0};
    SGL_TRY(kronecker_arg(scale, ef, seed, fn, &a));
    SGL_TRY(value_range(lo, hi, fn, &a));
    return build(root, &a, NULL, ret);
}

int sgl_graph_kronecker_edge_values(unsigned scale, unsigned ef,
                                    uint64_t seed, double lo, double hi,
                                    uint64_t first, size_t count,
                                    double *ret)
{
    const char *fn = "sgl_graph_kronecker_edge_values";
    struct build_arg a = {0};
    SGL_TRY(kronecker_arg(scale, ef, seed, fn, &a));
    SGL_TRY(value_range(lo, hi, fn, &a));
    if (count && !ret)
        return sgl_error_set(SGL_EINVAL, "%s: NULL values", fn);
    if (first > a.m || count > a.m - first)
        return sgl_error_set(SGL_EINVAL, "%s: edges %llu.. of %llu", fn,
                             (unsigned long long)first,
                             (unsigned long long)a.m);
    for (size_t i = 0; i < count; i++)
        ret[i] = rmat_edge(&a, first + i).w;
    return SGL_OK;
}

int sgl_graph_has_edge_values(const sgl_graph_t *g)
{
    return g ? g->valued : 0;
}

static int free_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, free_task, arg, size);
    sgl__pregel_wgraph_drop(ctx, ((const struct pregel_id_arg *)arg)->id);
    return SGL_OK;
}

int sgl_graph_free(sgl_ctx_t *root, sgl_graph_t *g)
{
    if (!g)
        return SGL_OK;
    struct pregel_id_arg a = {g->id, 0};
    int rc = root ? free_task(root, &a, sizeof a)
                  : sgl_error_set(SGL_EINVAL, "sgl_graph_free: NULL root");
    free(g->cuts);
    free(g->edges);
    free(g);
    return rc;
}

uint64_t sgl_graph_vertices(const sgl_graph_t *g) { return g ? g->n : 0; }
uint64_t sgl_graph_edges(const sgl_graph_t *g) { return g ? g->m : 0; }

int sgl_graph_part(const sgl_graph_t *g, size_t w, uint64_t *ret_first,
                   uint64_t *ret_end, uint64_t *ret_edges)
{
    if (!g || w >= g->nw)
        return sgl_error_set(SGL_EINVAL, "sgl_graph_part: no graph, or "
                                         "worker %zu of %zu",
                             w, g ? g->nw : 0);
    if (ret_first)
        *ret_first = pregel_first(g->cuts, g->n, g->nw, w);
    if (ret_end)
        *ret_end = pregel_first(g->cuts, g->n, g->nw, w + 1);
    if (ret_edges)
        *ret_edges = g->edges[w];
    return SGL_OK;
}

const struct algo_task sgl__algo_graph_tasks[] = {
    {send_task, "sgl_graph.send"},
    {csr_task, "sgl_graph.csr"},
    {free_task, "sgl_graph.free"},
    {NULL, NULL},
};
