/* Trace replay: the recorded supersteps re-costed on a machine file's link
 * parameters. Communication and synchronisation come from the model
 * (k_down g_down + k_up g_up + 2 l + (p-1) o per superstep, o the
 * measured per-child cost or header (g_down + g_up), sgl__sync_cost() as
 * in the closed form, and the run's start), computation from the
 * run (workers' task times, masters' own time), so that the result is the
 * cost formula applied to what the program really did. sgl_trace_levels()
 * walks the same sorted steps down the measured critical path and says
 * which level spent the time, the measured side of the closed form's
 * per-level terms. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_impl.h"
#include <sgl/exchange.h>
#include <sgl/trace.h>

struct rstep {
    unsigned level, p;
    size_t first_worker;
    long seq, parent_seq;
    double start, end, master;
    int exchange;        /* sgl_exchange_method_t that ran, 0: a pardo */
    const double *child; /* p entries of (down, up, time, work, h_sent,
                            h_recv) */
};

static int key_cmp(const struct rstep *a, unsigned level, size_t fw,
                   long parent_seq)
{
    if (a->level != level)
        return a->level < level ? -1 : 1;
    if (a->first_worker != fw)
        return a->first_worker < fw ? -1 : 1;
    if (a->parent_seq != parent_seq)
        return a->parent_seq < parent_seq ? -1 : 1;
    return 0;
}

static int by_key(const void *x, const void *y)
{
    const struct rstep *a = x, *b = y;
    int c = key_cmp(a, b->level, b->first_worker, b->parent_seq);
    return c ? c : (a->seq > b->seq) - (a->seq < b->seq);
}

/* The node at @level above worker @fw of @m. */
static const sgl_node_t *node_at(const sgl_machine_t *m, unsigned level,
                                 size_t fw)
{
    const sgl_node_t *n = sgl_machine_worker(m, fw);
    while (n && sgl_node_level(n) > level)
        n = sgl_node_parent(n);
    return n && sgl_node_level(n) == level ? n : NULL;
}

struct replay {
    const sgl_machine_t *params;
    struct rstep *steps;
    size_t n;
};

/* Steps of master (level, fw) run within its parent's superstep
 * parent_seq: a contiguous run of the sorted array. */
static size_t find_first(const struct replay *r, unsigned level, size_t fw,
                         long parent_seq)
{
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_cmp(&r->steps[mid], level, fw, parent_seq) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int step_cost(const struct replay *r, const struct rstep *s,
                     double *ret);

/* A child master's cost in its parent's superstep: its own replayed
 * supersteps plus its measured time outside them, less their master_time,
 * which each step's cost already holds (counted twice, a master that
 * computes between its supersteps, as PSRS's do, replayed slower than it
 * ran). */
static int child_master_cost(const struct replay *r, unsigned level, size_t fw,
                             long parent_seq, double measured, double *ret)
{
    double cost = 0, inside = 0;
    for (size_t k = find_first(r, level, fw, parent_seq);
         k < r->n && key_cmp(&r->steps[k], level, fw, parent_seq) == 0; k++) {
        double c;
        int rc = step_cost(r, &r->steps[k], &c);
        if (rc)
            return rc;
        cost += c;
        inside += r->steps[k].end - r->steps[k].start + r->steps[k].master;
    }
    *ret = cost + fmax(0, measured - inside);
    return SGL_OK;
}

static int step_cost(const struct replay *r, const struct rstep *s,
                     double *ret)
{
    const sgl_node_t *m = node_at(r->params, s->level, s->first_worker);
    if (!m || sgl_node_arity(m) != s->p)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_trace_replay: the machine file has no "
                             "master with %u children at level %u above "
                             "worker %zu",
                             s->p, s->level, s->first_worker);
    sgl_link_params_t lp, small;
    double max_small = 0;
    int rc = sgl_node_params(m, &lp);
    if (rc)
        return rc;
    int has_small = sgl_machine_level_small_params(r->params, s->level, &small,
                                                   &max_small) == SGL_OK;
    /* A direct exchange's measured time (its master_time, the workers'
     * copies and the process masters' sends and receives, in and around
     * their own exchange supersteps: sgl_trace_levels() counts it all as
     * exchange) is what the model's l_h + h g_h stands for: only the
     * replayed supersteps below are kept. */
    int direct = s->exchange == SGL_EXCHANGE_DIRECT;
    double down = 0, up = 0, max_down = 0, max_up = 0, children = 0, h = 0;
    for (unsigned i = 0; i < s->p; i++) {
        const double *c = s->child + SGL__TRACE_CHILD * (size_t)i;
        down += c[0];
        up += c[1];
        max_down = fmax(max_down, c[0]);
        max_up = fmax(max_up, c[1]);
        h = fmax(h, fmax(c[4], c[5]));
        const sgl_node_t *child = sgl_node_child(m, i);
        double own = direct ? 0 : c[2], cost = own;
        if (sgl_node_arity(child) > 0 &&
            (rc = child_master_cost(r, s->level + 1,
                                    sgl_node_first_worker(child), s->seq,
                                    own, &cost)))
            return rc;
        children = fmax(children, cost);
    }
    /* A phase whose every message fits the small regime is costed on it. */
    const sgl_link_params_t *pd = has_small && max_down <= max_small ? &small
                                                                     : &lp;
    const sgl_link_params_t *pu = has_small && max_up <= max_small ? &small
                                                                   : &lp;
    /* A direct exchange moved h bytes of its busiest child sideways. */
    sgl_exchange_params_t xp = {0, 0};
    if (direct &&
        (rc = sgl_node_exchange_params(m, &xp, NULL)))
        return rc;
    double x = direct ? sgl__size_exchange(m, h, &xp) : 0;
    /* The blocks by their size classes, as the closed form does. */
    double tdown = down * pd->g_down, tup = up * pu->g_up, xl = 0;
    double syncs = sgl__sync_cost(m, pd->l, pd->g_down, pu->l, pu->g_up);
    if (sgl__size_cost(m, s->child, SGL__TRACE_CHILD, 0, pd->g_down, &tdown,
                       &xl))
        syncs += xl;
    if (sgl__size_cost(m, s->child + 1, SGL__TRACE_CHILD, 1, pu->g_up, &tup,
                       &xl))
        syncs += xl;
    *ret = (direct ? 0 : s->master) + children + tdown + tup + syncs + x;
    return SGL_OK;
}

/* On rank 0: the steps of @all (@total doubles, sgl__trace_gather()'s
 * layout) parsed into @r->steps, sorted by master and parent superstep. */
static int parse_steps(const double *all, size_t total, struct replay *r)
{
    r->n = 0;
    for (size_t o = 0; o < total; r->n++)
        o += SGL__TRACE_FIXED + SGL__TRACE_CHILD * (size_t)all[o + 5];
    r->steps = malloc((r->n ? r->n : 1) * sizeof *r->steps);
    if (!r->steps)
        return sgl_error_set(SGL_ENOMEM, "trace: out of memory");
    size_t k = 0;
    for (size_t o = 0; o < total; k++) {
        const double *v = all + o;
        r->steps[k] = (struct rstep){
            .level = (unsigned)v[0],
            .p = (unsigned)v[5],
            .first_worker = (size_t)v[9],
            .seq = (long)v[3],
            .parent_seq = (long)v[4],
            .start = v[6],
            .end = v[7],
            .master = v[8],
            .exchange = (int)v[10],
            .child = v + SGL__TRACE_FIXED,
        };
        o += SGL__TRACE_FIXED + SGL__TRACE_CHILD * (size_t)v[5];
    }
    qsort(r->steps, r->n, sizeof *r->steps, by_key);
    return SGL_OK;
}

int sgl_trace_replay(sgl_runtime_t *rt, const sgl_machine_t *params,
                     double *ret_seconds)
{
    if (!rt || !params || !ret_seconds)
        return sgl_error_set(SGL_EINVAL, "sgl_trace_replay: NULL argument");
    int rc = sgl__same_shape(rt->machine, params)
                 ? SGL_OK
                 : sgl_error_set(SGL_EINVAL,
                                 "sgl_trace_replay: the machine file's tree "
                                 "(%s) has another shape than the runtime's "
                                 "(%s)",
                                 sgl_machine_source(params),
                                 sgl_machine_source(rt->machine));
    if (rc)
        return rc;
    double *all = NULL;
    size_t total = 0;
    if ((rc = sgl__trace_gather(rt, &all, &total)))
        return rc;
    *ret_seconds = 0;
    if (rt->rank == 0) {
        struct replay r = {params, NULL, 0};
        rc = parse_steps(all, total, &r);
        double sum = 0;
        for (size_t i = 0; !rc && i < r.n && r.steps[i].level == 0; i++) {
            double c;
            rc = step_cost(&r, &r.steps[i], &c);
            sum += c;
        }
        /* The trace does not mark where a run began: it is taken to hold
         * one run (sgl_trace_clear() before it), whose first superstep
         * waited for the last run's stop, as the closed form prices it. */
        double start = 0;
        const sgl_node_t *root = sgl_machine_root(params);
        if (!rc && r.n && root && sgl_node_arity(root) > 0)
            rc = sgl_node_start_cost(root, &start);
        *ret_seconds = sum + start;
        free(r.steps);
    }
    free(all);
    MPI_Bcast(&rc, 1, MPI_INT, 0, rt->comm);
    return rc;
}

/* The measured split of master (@level, @fw)'s supersteps within its
 * parent's superstep @parent_seq (-1: the root's): each step's time not
 * spent in its slowest child goes to @level, the slowest child's own time
 * to the level below, recursively. Time spent during an exchange
 * superstep is exchange time of the level that spent it, not comm or
 * work: the step's time outside its slowest child, its master_time and
 * the slowest child's own time (a direct exchange's process part runs in
 * the process masters, before their pardo and, waiting for the payload,
 * after it; the workers copy their blocks). @m is the runtime's tree,
 * which says whether a child is a worker. @return the time inside those
 * steps and the exchange steps' master_times. */
static double split_master(const struct replay *r, const sgl_machine_t *m,
                           unsigned level, size_t fw, long parent_seq,
                           sgl_trace_level_t *lv)
{
    double inside = 0;
    for (size_t k = find_first(r, level, fw, parent_seq);
         k < r->n && key_cmp(&r->steps[k], level, fw, parent_seq) == 0; k++) {
        const struct rstep *s = &r->steps[k];
        double dur = s->end - s->start, slowest = 0;
        unsigned at = 0;
        for (unsigned i = 0; i < s->p; i++) {
            double t = s->child[SGL__TRACE_CHILD * (size_t)i + 2];
            if (i == 0 || t > slowest) {
                slowest = t;
                at = i;
            }
        }
        inside += dur;
        lv[level].supersteps++;
        if (s->exchange) {
            lv[level].exchange += dur - slowest + s->master;
            inside += s->master;
        } else {
            lv[level].comm += dur - slowest;
        }
        const sgl_node_t *node = node_at(m, level, fw);
        const sgl_node_t *child =
            node && at < sgl_node_arity(node) ? sgl_node_child(node, at) : NULL;
        /* A child master's own time: its task time outside its
         * supersteps (before each, as master_time, and after the last).
         * Not clamped, so that the levels add up exactly. */
        double own = child && sgl_node_arity(child) > 0
                         ? slowest - split_master(r, m, level + 1,
                                                  sgl_node_first_worker(child),
                                                  s->seq, lv)
                         : slowest;
        if (s->exchange)
            lv[level + 1].exchange += own;
        else
            lv[level + 1].work += own;
    }
    return inside;
}

int sgl_trace_levels(sgl_runtime_t *rt, sgl_trace_level_t *ret_levels,
                     unsigned nlevels)
{
    if (!rt || !ret_levels)
        return sgl_error_set(SGL_EINVAL, "sgl_trace_levels: NULL argument");
    unsigned depth = sgl_machine_depth(rt->machine);
    if (nlevels < depth + 1)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_trace_levels: %u entries for a tree of "
                             "%u levels",
                             nlevels, depth + 1);
    memset(ret_levels, 0, nlevels * sizeof *ret_levels);
    double *all = NULL;
    size_t total = 0;
    int rc = sgl__trace_gather(rt, &all, &total);
    if (rc)
        return rc;
    if (rt->rank == 0) {
        struct replay r = {NULL, NULL, 0};
        rc = parse_steps(all, total, &r);
        if (!rc && depth > 0) {
            split_master(&r, rt->machine, 0, 0, -1, ret_levels);
            /* The root's own time before each superstep (an exchange's
             * is in its exchange already); after the last one the trace
             * does not see. */
            for (size_t i = 0; i < r.n && r.steps[i].level == 0; i++)
                if (!r.steps[i].exchange)
                    ret_levels[0].work += r.steps[i].master;
        }
        free(r.steps);
    }
    free(all);
    MPI_Bcast(&rc, 1, MPI_INT, 0, rt->comm);
    return rc;
}
