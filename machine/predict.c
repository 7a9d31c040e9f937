/* The recursive SGL cost formula evaluated on a tree for a program given
 * as callbacks (predict.h). The evaluation walks the whole tree once per
 * superstep, so heterogeneous trees (fan-outs, c per worker, links per
 * master) cost nothing special; 16M workers are a few passes over the
 * nodes.
 *
 * The breakdown follows the critical path: each master keeps the
 * breakdown of the child whose cost was largest in each superstep, so the
 * per-level sums add up to the total exactly as the formula does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine_impl.h"
#include <sgl/predict.h>

struct eval {
    const sgl_program_t *prog;
    unsigned levels;
    /* Two breakdown buffers per level, each of `levels` entries: the one
     * a child is evaluated into and the largest child's so far. */
    sgl_level_cost_t *scratch;
};

static sgl_level_cost_t *buf(const struct eval *e, unsigned level, int which)
{
    return e->scratch + ((size_t)level * 2 + (size_t)which) * e->levels;
}

double sgl_level_cost_own(const sgl_level_cost_t *c)
{
    return c->work + c->scatter + c->gather + c->syncs + c->exchange;
}

static int work_cost(const struct sgl_node *n, const sgl_work_t *w,
                     unsigned busy, double *ret)
{
    double t = 0;
    if (w->nterms > SGL_WORK_TERMS)
        return sgl_error_set(SGL_EINVAL, "predict: %u work terms, more than "
                                         "%d",
                             w->nterms, SGL_WORK_TERMS);
    for (unsigned i = 0; i < w->nterms; i++) {
        if (w->term[i].amount == 0)
            continue;
        if (!(w->term[i].amount > 0) || !isfinite(w->term[i].amount))
            return sgl_error_set(SGL_EINVAL,
                                 "predict: work amount %g of kernel '%s' is "
                                 "negative or not finite",
                                 w->term[i].amount,
                                 w->term[i].kernel ? w->term[i].kernel : "?");
        double size = w->term[i].size > 0 ? w->term[i].size
                                            : w->term[i].amount;
        double c = sgl_node_kernel_at(n, w->term[i].kernel, size, busy);
        if (isnan(c))
            return sgl_error_set(SGL_ERANGE,
                                 "the machine has no c for kernel '%s' on "
                                 "worker %zu (add 'kernel %s C' to the "
                                 "machine file)",
                                 w->term[i].kernel ? w->term[i].kernel
                                                   : "(null)",
                                 n->first_worker,
                                 w->term[i].kernel ? w->term[i].kernel : "?");
        t += w->term[i].amount * c;
    }
    *ret = t;
    return SGL_OK;
}

/* l and g of one direction of one superstep: the small-message regime if
 * the level has one, the master has no override and every message fits. */
static void regime(const struct sgl_node *n, const double *bytes,
                   const sgl_link_params_t *p, double *l, double *g, int up)
{
    *l = p->l;
    *g = up ? p->g_up : p->g_down;
    const struct sgl__level_params *lp = &n->machine->params[n->level];
    if (n->has_params || !lp->small_set)
        return;
    for (unsigned i = 0; i < n->arity; i++)
        if (bytes[i] > lp->small_max)
            return;
    *l = lp->small.l;
    *g = up ? lp->small.g_up : lp->small.g_down;
}

/* A step whose children read and put in place copies nothing at a thread
 * link: its level's view price replaces g, and a level without one keeps
 * the g it was probed with. No override of a master's own parameters:
 * the view price belongs to the level's link kind, not to one master. */
static void view_g(const struct sgl_node *n, double *gd, double *gu)
{
    const struct sgl__level_params *lp = &n->machine->params[n->level];
    if (lp->view_set) {
        *gd = lp->view_g_down;
        *gu = lp->view_g_up;
    }
}

/* Every field of @x added to @o's. */
static void add_level_cost(sgl_level_cost_t *o, const sgl_level_cost_t *x)
{
    o->work += x->work;
    o->scatter += x->scatter;
    o->gather += x->gather;
    o->syncs += x->syncs;
    o->exchange += x->exchange;
    o->supersteps += x->supersteps;
    o->bytes_down += x->bytes_down;
    o->bytes_up += x->bytes_up;
    o->bytes_h += x->bytes_h;
}

static int cost(const struct eval *e, const struct sgl_node *n,
                const void *task, sgl_level_cost_t *out, double *ret);

/* A worker: its own work, at its c with its memory peers busy. */
static int leaf_cost(const struct eval *e, const struct sgl_node *n,
                     const void *task, sgl_level_cost_t *out, double *ret)
{
    const sgl_program_t *prog = e->prog;
    sgl_work_t w;
    memset(&w, 0, sizeof w);
    int rc = prog->work(prog->user, n, task, &w);
    double t = 0;
    if (!rc)
        rc = work_cost(n, &w, (unsigned)sgl_node_memory_peers(n), &t);
    if (rc)
        return rc;
    out[n->level].work += t;
    *ret = t;
    return SGL_OK;
}

/* The message sizes a step gives its children, checked, summed (k_down,
 * k_up) and maxed (h). */
static int step_sizes(const struct eval *e, const struct sgl_node *n,
                      const sgl_pstep_t *st, double *kdown, double *kup,
                      double *hmax)
{
    const char *name = e->prog->name ? e->prog->name : "program";
    for (unsigned i = 0; i < n->arity; i++) {
        if (!(st->down[i] >= 0) || !(st->up[i] >= 0) || !(st->h[i] >= 0))
            return sgl_error_set(SGL_EINVAL,
                                 "predict: %s: negative or NaN message "
                                 "size for child %u of a level-%u master",
                                 name, i, n->level);
        /* A size computed from a huge n: no finite time follows. */
        if (isinf(st->down[i]) || isinf(st->up[i]) || isinf(st->h[i]))
            return sgl_error_set(SGL_ERANGE,
                                 "the prediction overflows: %s: a message "
                                 "size for child %u of a level-%u master "
                                 "is not finite (the problem size is too "
                                 "large)",
                                 name, i, n->level);
        /* Bytes to exchange in a step without an exchange would be
         * dropped silently: a bug in the program. */
        if (st->h[i] > 0 && !st->exchange)
            return sgl_error_set(SGL_EINVAL,
                                 "predict: %s: h given for child %u of a "
                                 "level-%u master in a step without an "
                                 "exchange",
                                 name, i, n->level);
        *kdown += st->down[i];
        *kup += st->up[i];
        *hmax = st->h[i] > *hmax ? st->h[i] : *hmax;
    }
    return SGL_OK;
}

/* The slowest child of @n for its tasks: its time into *tmax and its
 * breakdown added to @out's levels below @n. */
static int slowest_child(const struct eval *e, const struct sgl_node *n,
                         const unsigned char *tasks, sgl_level_cost_t *out,
                         double *tmax)
{
    sgl_level_cost_t *cur = buf(e, n->level + 1, 0);
    sgl_level_cost_t *best = buf(e, n->level + 1, 1);
    *tmax = -1;
    for (unsigned i = 0; i < n->arity; i++) {
        memset(cur, 0, e->levels * sizeof *cur);
        double t;
        int rc = cost(e, n->child[i], tasks + i * e->prog->task_size, cur, &t);
        if (rc)
            return rc;
        if (t > *tmax) {
            *tmax = t;
            sgl_level_cost_t *x = cur;
            cur = best;
            best = x;
        }
    }
    for (unsigned l = n->level + 1; l < e->levels; l++)
        add_level_cost(&out[l], &best[l]);
    return SGL_OK;
}

/* Superstep @s of master @n: its breakdown added to @out, its time to
 * *total. @bytes and @tasks are the step's scratch arrays. */
static int master_step(const struct eval *e, const struct sgl_node *n,
                       const void *task, unsigned s,
                       const sgl_link_params_t *p, double *bytes,
                       unsigned char *tasks, sgl_level_cost_t *out,
                       double *total)
{
    const sgl_program_t *prog = e->prog;
    sgl_pstep_t st;
    memset(&st, 0, sizeof st);
    memset(bytes, 0, 3 * n->arity * sizeof *bytes);
    memset(tasks, 0, n->arity * prog->task_size);
    st.arity = n->arity;
    st.down = bytes;
    st.up = bytes + n->arity;
    st.h = bytes + 2 * (size_t)n->arity;
    st.child_task = tasks;
    int rc = prog->step(prog->user, n, task, s, &st);
    if (rc)
        return rc;
    double kdown = 0, kup = 0, hmax = 0;
    rc = step_sizes(e, n, &st, &kdown, &kup, &hmax);
    sgl_exchange_params_t xp = {0, 0};
    if (!rc && st.exchange)
        rc = sgl_node_exchange_params(n, &xp, NULL);
    double w0 = 0;
    if (!rc)
        rc = work_cost(n, &st.master, 1, &w0);
    double tmax = -1;
    if (!rc)
        rc = slowest_child(e, n, tasks, out, &tmax);
    if (rc)
        return rc;
    double ld, gd, lu, gu;
    regime(n, st.down, p, &ld, &gd, 0);
    regime(n, st.up, p, &lu, &gu, 1);
    if (st.view)
        view_g(n, &gd, &gu);
    /* Cost_master = max_i Cost_child_i + w0*c0
     *               + k_down*g_down + k_up*g_up
     *               + 2*l + (p-1)*o   (o: header*(g_down + g_up)
     *                                  unless measured)
     *               [+ the run's start at the root's first superstep]
     *               [+ l_h + max_i h_i * g_h  with an exchange]
     * With size classes, each block at its class's g plus the largest
     * class l per direction, and the exchange at the class of one
     * worker's block to another (docs/model.md, "Message sizes"). */
    double xch = st.exchange ? sgl__size_exchange(n, hmax, &xp) : 0;
    double syncs = sgl__sync_cost(n, ld, gd, lu, gu);
    /* With size classes, each block at its class's g, and each direction
     * waits for its largest class's l (docs/model.md, "Message sizes"). */
    double scatter = kdown * gd, gather = kup * gu, xl = 0;
    if (sgl__size_cost(n, st.down, 1, 0, gd, &scatter, &xl))
        syncs += xl;
    if (sgl__size_cost(n, st.up, 1, 1, gu, &gather, &xl))
        syncs += xl;
    /* The program is a run of its own: its first superstep at the root
     * waits for the last run's stop (sgl_node_start_cost()). Below the
     * root, a command comes after the stop that readied its children. */
    double start = 0;
    if (s == 0 && !n->parent && sgl_node_start_cost(n, &start) == SGL_OK)
        syncs += start;
    const sgl_level_cost_t own = {
        .work = w0, .scatter = scatter, .gather = gather,
        .syncs = syncs, .exchange = xch, .supersteps = 1,
        .bytes_down = kdown, .bytes_up = kup, .bytes_h = hmax,
    };
    add_level_cost(&out[n->level], &own);
    *total += tmax + w0 + scatter + gather + syncs + xch;
    return SGL_OK;
}

static int cost(const struct eval *e, const struct sgl_node *n,
                const void *task, sgl_level_cost_t *out, double *ret)
{
    const sgl_program_t *prog = e->prog;
    if (n->arity == 0)
        return leaf_cost(e, n, task, out, ret);
    sgl_link_params_t p;
    int rc = sgl_node_params(n, &p);
    if (rc)
        return rc;
    unsigned ns = prog->nsteps(prog->user, n, task);
    double *bytes = malloc(3 * n->arity * sizeof *bytes);
    unsigned char *tasks = malloc(n->arity * prog->task_size);
    if (!bytes || !tasks) {
        free(bytes);
        free(tasks);
        return sgl_error_set(SGL_ENOMEM, "out of memory predicting");
    }
    double total = 0;
    for (unsigned s = 0; s < ns && rc == SGL_OK; s++)
        rc = master_step(e, n, task, s, &p, bytes, tasks, out, &total);
    free(bytes);
    free(tasks);
    *ret = total;
    return rc;
}

int sgl_predict_program(const sgl_machine_t *m, const sgl_program_t *prog,
                        const void *root_task, sgl_prediction_t *ret)
{
    if (!m || !prog || !ret || !root_task)
        return sgl_error_set(SGL_EINVAL, "sgl_predict_program: NULL argument");
    if (!prog->nsteps || !prog->step || !prog->work || prog->task_size == 0)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_predict_program: the program lacks a "
                             "callback or a task size");
    if (m->depth + 1 > SGL_PREDICT_MAX_LEVELS)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_predict_program: the tree is deeper than "
                             "%d levels",
                             SGL_PREDICT_MAX_LEVELS - 1);
    struct eval e = {.prog = prog, .levels = m->depth + 1};
    /* Levels 1..depth+1 each need two buffers (depth+1 a spare). */
    e.scratch = calloc((size_t)(m->depth + 2) * 2 * e.levels,
                       sizeof *e.scratch);
    if (!e.scratch)
        return sgl_error_set(SGL_ENOMEM, "out of memory predicting");
    sgl_prediction_t r;
    memset(&r, 0, sizeof r);
    r.levels = e.levels;
    r.workers = m->workers;
    int rc = cost(&e, m->root, root_task, r.level, &r.total);
    free(e.scratch);
    if (rc)
        return rc;
    /* One worker: the root task as a worker's task, at worker 0's c. */
    sgl_work_t w;
    memset(&w, 0, sizeof w);
    rc = prog->work(prog->user, m->worker[0], root_task, &w);
    if (!rc)
        rc = work_cost(m->worker[0], &w, 1, &r.sequential);
    if (rc)
        return rc;
    /* Huge n or parameters overflow to inf (and inf - inf to NaN): such a
     * number is no prediction, and would leave JSON invalid. */
    int finite = isfinite(r.total) && isfinite(r.sequential);
    for (unsigned d = 0; finite && d < r.levels; d++)
        finite = isfinite(sgl_level_cost_own(&r.level[d])) &&
                 isfinite(r.level[d].bytes_down) &&
                 isfinite(r.level[d].bytes_up) &&
                 isfinite(r.level[d].bytes_h) &&
                 isfinite(r.level[d].supersteps);
    if (!finite)
        return sgl_error_set(SGL_ERANGE,
                             "the prediction overflows (%g s in total, %g s "
                             "on one worker): the problem size or the "
                             "machine's parameters are too large for a "
                             "finite time",
                             r.total, r.sequential);
    r.speedup = r.total > 0 ? r.sequential / r.total : NAN;
    r.efficiency = r.speedup / (double)m->workers;
    *ret = r;
    return SGL_OK;
}
