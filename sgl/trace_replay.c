/* Trace replay: the recorded supersteps re-costed on a machine file's link
 * parameters. Communication and synchronisation come from the model
 * (k_down g_down + k_up g_up + 2 l per superstep), computation from the
 * run (workers' task times, masters' own time), so that the result is the
 * cost formula applied to what the program really did. */
#include <math.h>
#include <stdlib.h>

#include "runtime_impl.h"

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
 * supersteps plus its measured time outside them. */
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
        inside += r->steps[k].end - r->steps[k].start;
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
    double down = 0, up = 0, max_down = 0, max_up = 0, children = 0, h = 0;
    for (unsigned i = 0; i < s->p; i++) {
        const double *c = s->child + SGL__TRACE_CHILD * (size_t)i;
        down += c[0];
        up += c[1];
        max_down = fmax(max_down, c[0]);
        max_up = fmax(max_up, c[1]);
        h = fmax(h, fmax(c[4], c[5]));
        const sgl_node_t *child = sgl_node_child(m, i);
        double cost = c[2];
        if (sgl_node_arity(child) > 0 &&
            (rc = child_master_cost(r, s->level + 1,
                                    sgl_node_first_worker(child), s->seq,
                                    c[2], &cost)))
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
    if (s->exchange == SGL_EXCHANGE_DIRECT &&
        (rc = sgl_node_exchange_params(m, &xp, NULL)))
        return rc;
    double x = s->exchange == SGL_EXCHANGE_DIRECT ? xp.l + h * xp.g : 0;
    *ret = s->master + children + down * pd->g_down + up * pu->g_up + pd->l +
           pu->l + x;
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
        for (size_t o = 0; o < total; r.n++)
            o += SGL__TRACE_FIXED + SGL__TRACE_CHILD * (size_t)all[o + 5];
        r.steps = malloc((r.n ? r.n : 1) * sizeof *r.steps);
        if (!r.steps)
            rc = sgl_error_set(SGL_ENOMEM, "sgl_trace_replay: out of memory");
        size_t k = 0;
        for (size_t o = 0; !rc && o < total; k++) {
            const double *v = all + o;
            r.steps[k] = (struct rstep){
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
        if (!rc)
            qsort(r.steps, r.n, sizeof *r.steps, by_key);
        double sum = 0;
        for (size_t i = 0; !rc && i < r.n && r.steps[i].level == 0; i++) {
            double c;
            rc = step_cost(&r, &r.steps[i], &c);
            sum += c;
        }
        *ret_seconds = sum;
        free(r.steps);
    }
    free(all);
    MPI_Bcast(&rc, 1, MPI_INT, 0, rt->comm);
    return rc;
}
