/* sgl_graph_balance(): re-cut a graph's vertices by weight. Three
 * supersteps and an exchange, from the root:
 *
 *   weigh    every worker hands up the weight (out-degree + the vertex
 *            weight per vertex) of SLICES equal slices of its vertex
 *            range;
 *   cut      the root places cut k at the slice boundary where the
 *            running weight is nearest k / workers of the total;
 *   move     every worker sends its out-edges to their sources' new
 *            owners and forgets its part and any run's state;
 *   exchange
 *   build    every worker builds its CSR from what it received
 *            (sgl__pregel_collect_csr()). */
#include <stdlib.h>
#include <string.h>

#include "pregel_impl.h"
#include <sgl/exchange.h>

#define SLICES 256

/* The first vertex of slice @j of [v0, v1). */
static uint64_t slice_first(uint64_t v0, uint64_t v1, size_t j)
{
    return v0 + (uint64_t)(((algo_u128)(v1 - v0) * j) / SLICES);
}

struct weigh_arg {
    uint32_t id;
    uint32_t pad;
    double vertex_weight;
};

static int weigh_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const struct weigh_arg *a = arg;
    if (sgl_ctx_is_master(ctx)) {
        SGL_TRY(sgl_pardo(ctx, weigh_task, arg, size));
        return sgl__algo_pass_up(ctx, sizeof(double));
    }
    const struct wgraph *g = sgl__pregel_wgraph(ctx, a->id);
    if (!g)
        return sgl_error_set(SGL_ESTATE, "worker %zu has no graph %u",
                             sgl_ctx_first_worker(ctx), a->id);
    double w[SLICES];
    for (size_t j = 0; j < SLICES; j++) {
        uint64_t lo = slice_first(g->v0, g->v1, j) - g->v0;
        uint64_t hi = slice_first(g->v0, g->v1, j + 1) - g->v0;
        w[j] = a->vertex_weight * (double)(hi - lo) +
               (double)(g->off[hi] - g->off[lo]);
    }
    return sgl_put(ctx, w, sizeof *w, SLICES);
}

/* The new cut from every worker's slice weights @w, slices of the
 * graph's current cut. */
static void place_cuts(const sgl_graph_t *g, const double *w,
                       uint64_t *cuts)
{
    size_t nw = g->nw, k = 1;
    double total = 0, run = 0;
    for (size_t i = 0; i < nw * SLICES; i++)
        total += w[i];
    cuts[0] = 0;
    for (size_t i = 0; i < nw * SLICES && k < nw; i++) {
        size_t old = i / SLICES, j = i % SLICES;
        uint64_t v0 = pregel_first(g->cuts, g->n, nw, old);
        uint64_t v1 = pregel_first(g->cuts, g->n, nw, old + 1);
        double before = run;
        run += w[i];
        /* cuts whose target falls in this slice: at its start or its end,
         * whichever is nearer */
        while (k < nw && run >= total * (double)k / (double)nw) {
            double want = total * (double)k / (double)nw;
            cuts[k++] = want - before <= run - want
                            ? slice_first(v0, v1, j)
                            : slice_first(v0, v1, j + 1);
        }
    }
    for (; k <= nw; k++)
        cuts[k] = g->n;
    cuts[nw] = g->n;
    for (size_t i = 1; i <= nw; i++) /* never decreasing */
        if (cuts[i] < cuts[i - 1])
            cuts[i] = cuts[i - 1];
}

/* The move's argument: the graph, then workers + 1 cuts. */
struct move_arg {
    uint32_t id;
    uint32_t pad;
    uint64_t nw;
};

/* Forget a worker's run state: its size is the old part's. */
static void forget_run(struct wgraph *g)
{
    free(g->value), free(g->halted), free(g->inbox), free(g->has_msg);
    g->value = g->halted = g->inbox = g->has_msg = NULL;
    sgl__outbox_free(&g->out);
    sgl__fan_free(g);
    sgl__wire_forget(g);
}

static int move_worker(sgl_ctx_t *ctx, const struct move_arg *a,
                       const uint64_t *cuts)
{
    struct wgraph *g = sgl__pregel_wgraph(ctx, a->id);
    size_t w = sgl_ctx_first_worker(ctx), nw = (size_t)a->nw;
    if (!g)
        return sgl_error_set(SGL_ESTATE, "worker %zu has no graph %u", w,
                             a->id);
    size_t nv = (size_t)(g->v1 - g->v0), m = g->off[nv];
    struct edge *e = malloc((m ? m : 1) * sizeof *e);
    uint64_t *mine = malloc((nw + 1) * sizeof *mine);
    if (!e || !mine) {
        free(e), free(mine);
        return sgl_error_set(SGL_ENOMEM, "out of memory for %zu edges", m);
    }
    for (size_t v = 0; v < nv; v++)
        for (size_t k = g->off[v]; k < g->off[v + 1]; k++)
            e[k] = (struct edge){g->v0 + v, g->adj[k],
                                 g->val ? g->val[k] : 0};
    forget_run(g);
    free(g->staged);
    g->staged = NULL;
    g->staged_cap = 0;
    int rc = sgl__pregel_send_edges(ctx, g, e, m, nw, cuts);
    free(e);
    free(g->off), free(g->adj), free(g->val), free(g->cuts);
    g->off = NULL;
    g->adj = NULL;
    g->val = NULL;
    memcpy(mine, cuts, (nw + 1) * sizeof *mine);
    g->cuts = mine;
    g->v0 = cuts[w];
    g->v1 = cuts[w + 1];
    return rc;
}

static int move_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_master(ctx))
        return sgl_pardo(ctx, move_task, arg, size);
    const struct move_arg *a = arg;
    return move_worker(ctx, a, (const uint64_t *)(a + 1));
}

int sgl_graph_balance(sgl_ctx_t *root, sgl_graph_t *g, double vertex_weight)
{
    if (!root || !g || !(vertex_weight >= 0 && vertex_weight <= 1e9))
        return sgl_error_set(SGL_EINVAL, "sgl_graph_balance: NULL argument, "
                                         "or a vertex weight of %g (0 to "
                                         "1e9)",
                             vertex_weight);
    if (!sgl_ctx_is_root(root))
        return sgl_error_set(SGL_ESTATE, "sgl_graph_balance: call it on the "
                                         "root");
    if (g->nw < 2)
        return SGL_OK; /* one worker: nothing to balance */
    struct weigh_arg ia = {g->id, 0, vertex_weight};
    double *w = NULL;
    size_t nw = 0, size = sizeof(struct move_arg) +
                          (g->nw + 1) * sizeof(uint64_t);
    SGL_TRY(sgl_pardo(root, weigh_task, &ia, sizeof ia));
    SGL_TRY(sgl_gather_alloc(root, sizeof *w, (void **)&w, &nw, NULL));
    struct move_arg *a = malloc(size);
    uint64_t *cuts = malloc((g->nw + 1) * sizeof *cuts);
    int rc = a && cuts && nw == g->nw * SLICES
                 ? SGL_OK
                 : sgl_error_set(SGL_ENOMEM, "sgl_graph_balance: out of "
                                             "memory");
    if (!rc) {
        place_cuts(g, w, (uint64_t *)(a + 1));
        memcpy(cuts, a + 1, (g->nw + 1) * sizeof *cuts);
        *a = (struct move_arg){g->id, 0, g->nw};
        g->prog = 0; /* the workers' values go */
        rc = sgl_pardo(root, move_task, a, size);
    }
    if (!rc)
        rc = sgl_exchange(root);
    if (!rc)
        rc = sgl__pregel_collect_csr(root, g, g->valued);
    if (!rc) {
        free(g->cuts);
        g->cuts = cuts;
        cuts = NULL;
    }
    free(w), free(a), free(cuts);
    return rc;
}

const struct algo_task sgl__algo_balance_tasks[] = {
    {weigh_task, "sgl_graph.weigh"},
    {move_task, "sgl_graph.move"},
    {NULL, NULL},
};
