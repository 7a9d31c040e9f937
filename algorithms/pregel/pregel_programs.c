/* The reference vertex programs, in the BSP note's shape: PageRank as
 * NetworkX computes it (its power iteration, one superstep per
 * iteration), and breadth-first hops. sgl_algorithms_register() registers
 * them, so they have the same number in every process. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pregel_impl.h"

/* ---- PageRank ---- */

enum { DANGLING, CHANGE, DANGLING_LO }; /* aggregators */
enum { ALPHA, TOL };                     /* parameters */

/* Exact sums, so that the ranks are bitwise the same on any tree and cut.
 * Which shares one worker combines, in which order the inbox and the
 * aggregators add them up, depends on the cut, and double sums round
 * differently in another order. So every sum that reaches a rank or the
 * decision to stop is made exact, and then the order cannot matter. The
 * bounds below rest on sum(x), the ranks' total, which starts at 1 and
 * moves only by rounding, a few units of the grids below per edge and
 * vertex per superstep: it stays near 1 (all terms are >= 0).
 *   Shares travel in fixed point, as integers x 2^62 summed by
 *     sgl_combine_sum_u64: integer sums are exact (modulo 2^64, so
 *     partial sums do not matter), and a vertex's in-shares total at most
 *     sum(x), below 2^63 units, so they convert as signed integers (one
 *     instruction each way). A share moves by at most a unit, 2^-62, and
 *     the inbox, converted once, is the exact sum correctly rounded.
 *   The aggregators are sums of doubles whose terms are rounded to a
 *     multiple of a power of two 2^-k first (as sgl_combine_round_grid() does):
 *     such a sum is exact while its partial sums stay below 2^(53 - k).
 *     The L1 change totals at most sum(x_new) + sum(x_old), about 2: its
 *     terms to 2^-51 (exact below 4). The dangling rank totals at most
 *     sum(x), about 1: its terms to 2^-52 (exact below 2), in every
 *     worker and up the tree. That alone moved ranks by 3e-12 of their
 *     value on Graph500's scale-16 graph: isolated vertices share one
 *     rank, so their rounding errors add up in step, to n_d 2^-53 at
 *     worst (n_d dangling vertices), and shift sum(x). So what the
 *     rounding takes off, x - hi (at most 2^-53, exact), is summed too,
 *     in a second aggregator, rounded to 2^-k2 with 2^(53 - k2) at least
 *     twice n 2^-53: exact as well, and D = hi + lo is then the exact
 *     dangling rank to within n 2^-(k2 + 1).
 * The rest of an update (times alpha, plus the dangling share and the
 * teleport) is the same operation on the same operands on every cut. */

/* A share @x (0 <= x <= 1 + a little) in fixed point, rounded to the
 * nearest unit (x 2^62 is exact; adding 0.5 may round once more, so a
 * unit off at worst), and back. */
static inline uint64_t to_fixed(double x)
{
    return (uint64_t)(int64_t)(x * 0x1p62 + 0.5);
}

static inline double from_fixed(uint64_t u)
{
    return (double)(int64_t)u * 0x1p-62;
}

/* @x (0 <= x <= 1, a rank) rounded to a multiple of 2^-52: x + 1 lies in
 * [1, 2], where the doubles are the multiples of 2^-52, so the addition
 * rounds x to the nearest (ties to even) and the subtraction is exact.
 * The same as sgl_combine_round_grid(x, -52), in 2 instructions rather than 10. */
static inline double rank_grid(double x) { return (x + 1.0) - 1.0; }

/* @x (0 <= x <= 2, a change) rounded to a multiple of 2^-51, likewise. */
static inline double change_grid(double x) { return (x + 2.0) - 2.0; }

/* The constant @c that rounds what rank_grid() took off (|lo| <= 2^-53,
 * either sign) to a multiple of 2^-k2 as (lo + c) - c, for a graph of @n
 * vertices: k2 = 105 - b, n < 2^b, so that n 2^-53 < 2^(53 - k2) / 2;
 * c = 1.5 2^(52 - k2) puts lo + c in [2^(52 - k2), 2^(53 - k2)), where
 * the doubles are the multiples of 2^-k2, as |lo| <= 2^(51 - k2). */
static double low_rounder(uint64_t n)
{
    int b = 0;
    while (b < 64 && n >> b)
        b++;
    return ldexp(3.0, 51 - (105 - b));
}

static void rank_init(sgl_vertex_t *v)
{
    *(double *)sgl_vertex_value(v) = 1.0 / (double)sgl_vertex_count(v);
}

/* The superstep's constants, the same on every worker. */
struct rank_step {
    double alpha, dangling_share, teleport;
    double low;            /* low_rounder() of the graph */
    int stop;
};

/* Superstep s >= 1 computes x_s from the shares of x_{s-1} and the rank
 * x_{s-1} left on dangling vertices; it stops (every vertex halts, so
 * nothing is sent) once the L1 change of x_{s-1} was below n tol, as
 * NetworkX returns that iterate. */
static void rank_begin(sgl_vertex_t *v)
{
    struct rank_step *c = sgl_vertex_scratch(v);
    double n = (double)sgl_vertex_count(v);
    c->alpha = sgl_vertex_param(v, ALPHA);
    c->dangling_share = (sgl_vertex_aggregated(v, DANGLING) +
                         sgl_vertex_aggregated(v, DANGLING_LO)) /
                        n;
    c->low = low_rounder(sgl_vertex_count(v));
    c->teleport = (1.0 - c->alpha) / n;
    c->stop = sgl_vertex_superstep(v) >= 2 &&
              sgl_vertex_aggregated(v, CHANGE) < n * sgl_vertex_param(v, TOL);
}

static void rank_compute(sgl_vertex_t *v)
{
    sgl_vertex_state_t s;
    sgl_vertex_state(v, &s);
    const struct rank_step *c = s.scratch;
    double *x = s.value;
    if (c->stop) {
        sgl_vertex_vote_halt(v);
        return;
    }
    if (s.superstep >= 1) {
        const uint64_t *in = s.message;
        double next = c->alpha * ((in ? from_fixed(*in) : 0.0) +
                                  c->dangling_share) +
                      c->teleport;
        sgl_vertex_aggregate(v, CHANGE, change_grid(fabs(next - *x)));
        *x = next;
    }
    if (!s.out_degree) {
        double hi = rank_grid(*x), lo = *x - hi;
        sgl_vertex_aggregate(v, DANGLING, hi);
        sgl_vertex_aggregate(v, DANGLING_LO, (lo + c->low) - c->low);
        return;
    }
    uint64_t share = to_fixed(*x / (double)s.out_degree);
    sgl_vertex_send_all(v, &share);
}

/* @v where @mask is all ones, +0.0 where it is 0: a select without a
 * branch (adding +0.0 leaves an exact sum as it is). */
static inline double keep_if(double v, uint64_t mask)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    u &= mask;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* rank_compute over a block, one loop without calls: the same operations
 * on the same operands per vertex, and the aggregators' exact sums taken
 * per block, so the ranks are bitwise rank_compute's. The loop has no
 * branch that depends on the vertex: on Graph500's Kronecker graph
 * whether a vertex is dangling, or has no message, follows no pattern a
 * predictor could learn, and a mispredicted branch (some 15 cycles)
 * costs more than a division and a few additions. So every vertex's
 * share is computed and flagged (a flag on a vertex without out-edges
 * sends nothing), a missing message is masked to 0, and the dangling
 * sums add +0.0 for the other vertices. */
static void rank_compute_block(sgl_vertex_t *w, const sgl_vertex_block_t *b)
{
    const struct rank_step *c = sgl_vertex_scratch(w);
    size_t n = b->count;
    if (c->stop) {
        memset(b->halted, 1, n);
        return;
    }
    double *x = b->values;
    const uint64_t *in = b->messages;
    const unsigned char *has = b->has_message;
    const size_t *off = b->edge_offsets;
    uint64_t *share = b->send_all;
    unsigned char *set = b->send_all_set;
    const unsigned char *halted = b->halted;
    int update = sgl_vertex_superstep(w) >= 1;
    double alpha = c->alpha, dshare = c->dangling_share;
    double teleport = c->teleport, low = c->low;
    double change = 0, hi_sum = 0, lo_sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (halted[i])
            continue;
        double xi = x[i];
        if (update) {
            /* from_fixed(0) is 0.0: the value of no message */
            uint64_t m = in[i] & (0 - (uint64_t)has[i]);
            double next = alpha * (from_fixed(m) + dshare) + teleport;
            change += change_grid(fabs(next - xi));
            x[i] = xi = next;
        }
        size_t d = off[i + 1] - off[i];
        uint64_t dangling = 0 - (uint64_t)(d == 0);
        double hi = rank_grid(xi), lo = xi - hi;
        hi_sum += keep_if(hi, dangling);
        lo_sum += keep_if((lo + low) - low, dangling);
        share[i] = to_fixed(xi / (double)(d | (d == 0)));
        set[i] = 1;
    }
    if (update)
        sgl_vertex_aggregate(w, CHANGE, change);
    sgl_vertex_aggregate(w, DANGLING, hi_sum);
    sgl_vertex_aggregate(w, DANGLING_LO, lo_sum);
}

/* The fixed-point shares hold ranks below 2: a damping above 1 (or NaN)
 * would overflow them, through a resume as through sgl_pagerank(). */
static int rank_check(const double *params)
{
    if (!(params[ALPHA] >= 0 && params[ALPHA] <= 1) || !(params[TOL] >= 0))
        return sgl_error_set(SGL_EINVAL,
                             "pagerank: damping %g (0 to 1), tolerance %g "
                             "(>= 0)",
                             params[ALPHA], params[TOL]);
    return SGL_OK;
}

static const sgl_pregel_program_t pagerank_program = {
    /* not "pagerank": its checkpoints held messages as doubles, which a
     * resume must refuse rather than read as fixed point */
    .name = "pagerank-exact",
    .compute = rank_compute,
    .init = rank_init,
    .combine = sgl_combine_sum_u64,
    .value_size = sizeof(double),
    .msg_size = sizeof(uint64_t),
    .naggs = 3,
    .agg = {SGL_AGG_SUM, SGL_AGG_SUM, SGL_AGG_SUM},
    .begin = rank_begin,
    .scratch_size = sizeof(struct rank_step),
    .check = rank_check,
    .compute_block = rank_compute_block,
};

/* ---- breadth-first hops ---- */

enum { SOURCE };

static void hops_init(sgl_vertex_t *v)
{
    *(uint64_t *)sgl_vertex_value(v) = UINT64_MAX;
}

static void hops_compute(sgl_vertex_t *v)
{
    uint64_t *h = sgl_vertex_value(v), reached = UINT64_MAX;
    if (sgl_vertex_superstep(v) == 0) {
        if (sgl_vertex_id(v) == (uint64_t)sgl_vertex_param(v, SOURCE))
            reached = 0;
    } else if (sgl_vertex_message(v)) {
        reached = *(const uint64_t *)sgl_vertex_message(v);
    }
    if (reached < *h) {
        *h = reached;
        uint64_t next = reached + 1;
        sgl_vertex_send_all(v, &next);
    }
    sgl_vertex_vote_halt(v);
}

static const sgl_pregel_program_t hops_program = {
    .name = "bfs-hops",
    .compute = hops_compute,
    .init = hops_init,
    .combine = sgl_combine_min_u64,
    .value_size = sizeof(uint64_t),
    .msg_size = sizeof(uint64_t),
};

/* ---- weighted shortest paths ---- */

static void sssp_init(sgl_vertex_t *v)
{
    *(double *)sgl_vertex_value(v) = INFINITY;
}

/* Bellman-Ford by supersteps: a vertex whose distance drops offers
 * distance + weight along every out-edge; the min combiner keeps one
 * offer per target and worker. Additions are those of Dijkstra's
 * relaxations and rounding is monotone, so the fixed point reached is
 * Dijkstra's distances bit for bit. */
static void sssp_compute(sgl_vertex_t *v)
{
    double *d = sgl_vertex_value(v), reached = INFINITY;
    if (sgl_vertex_superstep(v) == 0) {
        if (sgl_vertex_id(v) == (uint64_t)sgl_vertex_param(v, SOURCE))
            reached = 0;
    } else if (sgl_vertex_message(v)) {
        reached = *(const double *)sgl_vertex_message(v);
    }
    if (reached < *d) {
        *d = reached;
        const uint64_t *t = sgl_vertex_out_edges(v);
        const double *w = sgl_vertex_out_edge_values(v);
        for (size_t k = 0; k < sgl_vertex_out_degree(v); k++) {
            double len = w ? w[k] : 1.0, next = reached + len;
            if (len < 0) {
                sgl_vertex_fail(v, SGL_EINVAL,
                                "edge %llu -> %llu weighs %g: shortest "
                                "paths need weights >= 0",
                                (unsigned long long)sgl_vertex_id(v),
                                (unsigned long long)t[k], len);
                break;
            }
            if (sgl_vertex_send(v, t[k], &next))
                break; /* the run reports the failed send */
        }
    }
    sgl_vertex_vote_halt(v);
}

static const sgl_pregel_program_t sssp_program = {
    .name = "sssp",
    .compute = sssp_compute,
    .init = sssp_init,
    .combine = sgl_combine_min_f64,
    .value_size = sizeof(double),
    .msg_size = sizeof(double),
};

/* ---- registration and the entry points ---- */

static uint32_t pagerank_id, hops_id, sssp_id;

int sgl__algo_pregel_register(void)
{
    SGL_TRY(sgl_pregel_register(&pagerank_program, &pagerank_id));
    SGL_TRY(sgl_pregel_register(&hops_program, &hops_id));
    return sgl_pregel_register(&sssp_program, &sssp_id);
}

uint32_t sgl_sssp_program_id(void) { return sssp_id; }

uint32_t sgl_pagerank_program_id(void) { return pagerank_id; }
uint32_t sgl_bfs_hops_program_id(void) { return hops_id; }

int sgl_pagerank(sgl_ctx_t *root, sgl_graph_t *g, double alpha, double tol,
                 unsigned max_iter, double *ranks, sgl_pregel_stats_t *st)
{
    if (!(alpha >= 0 && alpha <= 1) || !(tol >= 0))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_pagerank: damping %g (0 to 1), tolerance "
                             "%g (>= 0)",
                             alpha, tol);
    if (max_iter == UINT_MAX)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_pagerank: max_iter %u: at most %u "
                             "iterations (one superstep each, after the "
                             "first)",
                             max_iter, UINT_MAX - 1);
    double params[SGL_PREGEL_MAX_PARAMS] = {alpha, tol, 0, 0};
    sgl_pregel_stats_t mine;
    st = st ? st : &mine;
    /* Superstep 0 sends x_0; superstep s computes x_s: max_iter + 1 in
     * all. Converged at iteration s < max_iter, superstep s + 1 halts
     * every vertex; at s = max_iter no superstep is left to say so, but
     * its change, the last superstep's aggregator, does. */
    SGL_TRY(sgl_pregel_run(root, g, pagerank_id, params, max_iter + 1, st));
    st->converged = st->converged ||
                    (max_iter >= 1 &&
                     st->agg[CHANGE] < (double)sgl_graph_vertices(g) * tol);
    return ranks ? sgl_pregel_values(root, g, ranks, sgl_graph_vertices(g))
                 : SGL_OK;
}

int sgl_bfs_hops(sgl_ctx_t *root, sgl_graph_t *g, uint64_t source,
                 uint64_t *hops, sgl_pregel_stats_t *st)
{
    if (g && source >= sgl_graph_vertices(g))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_bfs_hops: source %llu of %llu vertices",
                             (unsigned long long)source,
                             (unsigned long long)sgl_graph_vertices(g));
    double params[SGL_PREGEL_MAX_PARAMS] = {(double)source, 0, 0, 0};
    sgl_pregel_stats_t mine;
    st = st ? st : &mine;
    /* A level per superstep: only a path of UINT_MAX vertices runs out of
     * supersteps, and hops cut short there would be silently wrong. */
    SGL_TRY(sgl_pregel_run(root, g, hops_id, params, UINT_MAX, st));
    if (!st->converged)
        return sgl_error_set(SGL_ERANGE,
                             "sgl_bfs_hops: still reaching vertices after "
                             "%u supersteps",
                             st->supersteps);
    return hops ? sgl_pregel_values(root, g, hops, sgl_graph_vertices(g))
                : SGL_OK;
}

int sgl_sssp(sgl_ctx_t *root, sgl_graph_t *g, uint64_t source, double *dist,
             sgl_pregel_stats_t *st)
{
    if (g && source >= sgl_graph_vertices(g))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_sssp: source %llu of %llu vertices",
                             (unsigned long long)source,
                             (unsigned long long)sgl_graph_vertices(g));
    double params[SGL_PREGEL_MAX_PARAMS] = {(double)source, 0, 0, 0};
    sgl_pregel_stats_t mine;
    st = st ? st : &mine;
    SGL_TRY(sgl_pregel_run(root, g, sssp_id, params, UINT_MAX, st));
    if (!st->converged)
        return sgl_error_set(SGL_ERANGE,
                             "sgl_sssp: distances still falling after %u "
                             "supersteps",
                             st->supersteps);
    return dist ? sgl_pregel_values(root, g, dist, sgl_graph_vertices(g))
                : SGL_OK;
}
