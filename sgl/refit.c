/* Balance by the speeds a run measured (sgl_runtime_refit_kernel()): the
 * trace's supersteps give each child the work it declared per second it
 * took to deliver it; those speeds go down the tree, taken as they are at
 * the highest level measured and shared out in their proportions below
 * it; each worker is then priced over the range its speed spanned in the
 * newest fits, and the runtime's tree takes the c. The rule was tried in
 * bench/bench_balance.c first, against a rank under a CPU quota (docs/model.md,
 * "Balance by measured speed"). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_impl.h"
#include <sgl/balance.h>
#include <sgl/trace.h>

/* The name every message of the refit starts with. */
static const char fn[] = "sgl_runtime_refit_kernel";

/* The newest fits of one kernel, a ring of SGL_REFIT_WINDOW_MAX rows of
 * c per worker. */
struct sgl__fits {
    char kernel[SGL_KERNEL_NAME_MAX + 1];
    unsigned n, next;
    double *c;
};

void sgl__fits_free(struct sgl_runtime *rt)
{
    for (size_t i = 0; i < rt->nfits; i++)
        free(rt->fits[i].c);
    free(rt->fits);
    rt->fits = NULL;
    rt->nfits = 0;
}

/* The fits of @kernel, a new empty entry if it has none; NULL if out of
 * memory. */
static struct sgl__fits *fits_of(struct sgl_runtime *rt, const char *kernel)
{
    for (size_t i = 0; i < rt->nfits; i++)
        if (strcmp(rt->fits[i].kernel, kernel) == 0)
            return &rt->fits[i];
    size_t p = sgl_machine_workers(rt->machine);
    double *c = malloc(SGL_REFIT_WINDOW_MAX * p * sizeof *c);
    struct sgl__fits *f =
        c ? realloc(rt->fits, (rt->nfits + 1) * sizeof *f) : NULL;
    if (!f) {
        free(c);
        return NULL;
    }
    rt->fits = f;
    f = &rt->fits[rt->nfits++];
    *f = (struct sgl__fits){.c = c};
    strcpy(f->kernel, kernel);
    return f;
}

/* The masters of every level. */
static size_t masters(const sgl_machine_t *m)
{
    return m->master_first[m->depth] + m->level_masters[m->depth];
}

/* The cell of a node in the fit's sums (masters() + P of them): masters
 * by their index over all levels, then workers by theirs. */
static size_t cell_of(const sgl_machine_t *m, const struct sgl_node *n)
{
    return n->arity ? m->master_first[n->level] + n->master_index
                    : masters(m) + n->first_worker;
}

/* Per child of every master, summed over this process's recorded steps
 * that started at @since or later and in which it declared work: seconds
 * to deliver (@time) and units of work (@work), at the child's cell
 * (cell_of()). Each master is played by one process, so each cell has
 * one contributor and the sums over processes are exact. */
static int collect(const struct sgl_runtime *rt, double since, double *time,
                   double *work)
{
    const sgl_machine_t *m = rt->machine;
    sgl_trace_step_t st;
    for (size_t q = 0; q < sgl_trace_steps(rt); q++) {
        int rc = sgl_trace_step(rt, q, &st);
        if (rc)
            return rc;
        if (st.start < since)
            continue;
        const struct sgl_node *master = sgl__trace_step_master(m, &st);
        for (unsigned i = 0; master && i < st.children; i++) {
            const struct sgl_node *ch = master->child[i];
            double t = sgl__trace_delivered(master, &st, i);
            if (!(st.child_work[i] > 0) || !(t > 0))
                continue;
            size_t at = cell_of(m, ch);
            time[at] += t;
            work[at] += st.child_work[i];
        }
    }
    return SGL_OK;
}

/* Sets the speeds of the workers below @child to @target in all,
 * in their proportions where they all have one, else alike. */
static void share(const struct sgl_node *child, double target, double *s,
                  unsigned char *set)
{
    double now = 0;
    for (size_t k = 0; k < child->workers; k++)
        now += s[child->first_worker + k];
    for (size_t k = 0; k < child->workers; k++) {
        size_t w = child->first_worker + k;
        s[w] = now > 0 ? s[w] * (target / now)
                       : target / (double)child->workers;
        set[w] = 1;
    }
}

/* Each worker's speed in units per second, into @s (which holds the
 * speeds from the kernel's c as they are, NAN where unknown), top down:
 * at a master whose workers no measurement above has set, its measured
 * children take their measured speeds; below a measured child, they
 * share its speed out in proportion to theirs. Children without a
 * measurement keep what they had. */
static void spread(const sgl_machine_t *m, const double *time,
                   const double *work, double *s, unsigned char *set)
{
    for (unsigned level = 0; level < m->depth; level++)
        for (size_t k = 0; k < m->level_masters[level]; k++) {
            const struct sgl_node *master =
                m->master[m->master_first[level] + k];
            double measured = 0, had = 0;
            for (unsigned i = 0; i < master->arity; i++) {
                const struct sgl_node *ch = master->child[i];
                size_t at = cell_of(m, ch);
                if (!(work[at] > 0 && time[at] > 0))
                    continue;
                measured += work[at] / time[at];
                for (size_t j = 0; j < ch->workers; j++)
                    had += s[ch->first_worker + j];
            }
            if (!(measured > 0))
                continue;
            int below_measured = set[master->first_worker];
            for (unsigned i = 0; i < master->arity; i++) {
                const struct sgl_node *ch = master->child[i];
                size_t at = cell_of(m, ch);
                if (!(work[at] > 0 && time[at] > 0))
                    continue;
                double speed = work[at] / time[at];
                share(ch, below_measured ? had * speed / measured : speed, s,
                      set);
            }
        }
}

/* Prices each worker over the newest @window fits (@fresh, and the
 * newest window - 1 of @f): its c's ratio to the fastest worker's (of
 * @fresh) ranges over [lo, hi], and it is priced at lo (1 + hi) / (1 +
 * lo) times the fastest worker's c now. For two workers that split loses
 * the same against the ideal at either end of the range, and less than
 * at any other price at its worse end; for more, each against the
 * fastest. */
static void price(const struct sgl__fits *f, unsigned window,
                  const double *fresh, size_t p, double *c)
{
    size_t fast = 0;
    for (size_t w = 1; w < p; w++)
        if (fresh[w] < fresh[fast])
            fast = w;
    unsigned old = window - 1 < f->n ? window - 1 : f->n;
    for (size_t w = 0; w < p; w++) {
        double lo = fresh[w] / fresh[fast], hi = lo;
        for (unsigned j = 1; j <= old; j++) {
            const double *row =
                f->c + (size_t)((f->next + SGL_REFIT_WINDOW_MAX - j) %
                                SGL_REFIT_WINDOW_MAX) *
                           p;
            double r = row[w] / row[fast];
            lo = fmin(lo, r);
            hi = fmax(hi, r);
        }
        c[w] = fresh[fast] * lo * (1 + hi) / (1 + lo);
    }
}

/* Keeps @fresh as @f's newest fit; window 1 forgets the older ones. */
static void remember(struct sgl__fits *f, unsigned window,
                     const double *fresh, size_t p)
{
    if (window == 1)
        f->n = f->next = 0;
    memcpy(f->c + (size_t)f->next * p, fresh, p * sizeof *fresh);
    f->next = (f->next + 1) % SGL_REFIT_WINDOW_MAX;
    f->n += f->n < SGL_REFIT_WINDOW_MAX;
}

/* The fit itself, once the arguments are checked, from the steps since
 * @since: fills @c with the priced c (P entries) and remembers the fresh
 * fit. With @quiet, a trace that measures no work or leaves a worker
 * without a c is no error: nothing changes (1 is returned). */
static int refit(struct sgl_runtime *rt, const char *kernel, unsigned window,
                 double since, int quiet, double *c)
{
    const sgl_machine_t *m = rt->machine;
    size_t p = m->workers, cells = masters(m) + p;
    if (cells > INT_MAX / 2)
        return sgl_error_set(SGL_ERANGE,
                             "%s: %zu nodes are more than one MPI_Allreduce "
                             "of the sums can carry",
                             fn, cells);
    double *sum = calloc(2 * cells + p, sizeof *sum);
    unsigned char *set = calloc(p, 1);
    struct sgl__fits *f = fits_of(rt, kernel);
    int rc = sum && set && f ? SGL_OK
                             : sgl_error_set(SGL_ENOMEM, "%s: out of memory",
                                             fn);
    if (!rc)
        rc = collect(rt, since, sum, sum + cells);
    rc = sgl__agree(rt->comm, rc, fn);
    if (!rc && MPI_Allreduce(MPI_IN_PLACE, sum, (int)(2 * cells), MPI_DOUBLE,
                             MPI_SUM, rt->comm) != MPI_SUCCESS)
        rc = sgl_error_set(SGL_EMPI, "%s: MPI_Allreduce failed", fn);
    double *s = sum ? sum + 2 * cells : NULL;
    double any = 0;
    for (size_t i = 0; !rc && i < cells; i++)
        any += sum[cells + i];
    if (!rc && !(any > 0))
        rc = quiet ? 1 : sgl_error_set(SGL_ESTATE,
                           "%s: no superstep recorded since the trace's last "
                           "clear declared work (sgl_ctx_add_work()); run "
                           "the work of kernel %s first",
                           fn, kernel);
    for (size_t w = 0; !rc && w < p; w++) {
        double cw = sgl_node_kernel(m->worker[w], kernel);
        s[w] = cw > 0 && isfinite(cw) ? 1 / cw : NAN;
    }
    if (!rc)
        spread(m, sum, sum + cells, s, set);
    for (size_t w = 0; !rc && w < p; w++)
        if (!(s[w] > 0 && isfinite(s[w])))
            rc = quiet ? 1 : sgl_error_set(SGL_ESTATE,
                               "%s: worker %zu declared no work in the trace "
                               "and has no c of kernel %s to keep",
                               fn, w, kernel);
    for (size_t w = 0; !rc && w < p; w++)
        s[w] = 1 / s[w]; /* the fresh fit's c */
    if (!rc) {
        price(f, window, s, p, c);
        rc = sgl__kernel_set_workers(rt->machine, kernel, c);
        if (!rc)
            rc = sgl__balance_update(rt);
        /* Every process took the fit, or the call fails everywhere. */
        rc = sgl__agree(rt->comm, rc, fn);
    }
    if (!rc)
        remember(f, window, s, p);
    free(sum);
    free(set);
    return rc;
}

/* SGL_OK if every process gave rank 0's kernel and window, which a
 * collective call needs (else their weights would differ), and @rc was
 * SGL_OK everywhere. The kernel is compared as a string: a hash of it let
 * two names through that hash alike ("kvfducqd" and "kfkylqwu"). */
static int same_arguments(struct sgl_runtime *rt, const char *kernel,
                          unsigned window, int rc)
{
    struct {
        char kernel[SGL_KERNEL_NAME_MAX + 1];
        unsigned window;
    } root = {{0}, window};
    snprintf(root.kernel, sizeof root.kernel, "%s", kernel);
    if (MPI_Bcast(&root, (int)sizeof root, MPI_BYTE, 0, rt->comm) !=
        MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "%s: MPI_Bcast failed", fn);
    int differs = strcmp(root.kernel, kernel) != 0 || root.window != window;
    int v[2] = {-differs, rc}, all[2];
    if (MPI_Allreduce(v, all, 2, MPI_INT, MPI_MIN, rt->comm) != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "%s: MPI_Allreduce failed", fn);
    if (all[1] < 0)
        return rc ? rc
                  : sgl_error_set(all[1], "%s failed on another rank: %s", fn,
                                  sgl_error_string(all[1]));
    if (all[0] < 0)
        return sgl_error_set(SGL_EINVAL,
                             "%s: the processes gave different kernels or "
                             "windows (rank 0 %s, %u; this one %s, %u); call "
                             "it with the same in every process",
                             fn, root.kernel, root.window, kernel, window);
    return SGL_OK;
}

/* The refit with its buffer for the c, every process agreeing on it and
 * on @rc, the verdict of its own checks of the arguments. */
static int refit_agreed(struct sgl_runtime *rt, const char *kernel,
                        unsigned window, double since, int quiet, int rc,
                        double *ret_c)
{
    size_t p = sgl_machine_workers(rt->machine);
    double *c = malloc(p * sizeof *c);
    if (!c && rc == SGL_OK)
        rc = sgl_error_set(SGL_ENOMEM, "%s: out of memory", fn);
    rc = same_arguments(rt, kernel, window, rc);
    if (!rc)
        rc = refit(rt, kernel, window, since, quiet, c);
    if (!rc && ret_c)
        memcpy(ret_c, c, p * sizeof *c);
    free(c);
    return rc > 0 ? SGL_OK : rc;
}

int sgl__refit_run(struct sgl_runtime *rt, double since)
{
    return refit_agreed(rt, rt->balance_kernel, rt->refit, since, 1, SGL_OK,
                        NULL);
}

int sgl_runtime_set_refit(sgl_runtime_t *rt, unsigned window)
{
    if (!rt)
        return sgl_error_set(SGL_EINVAL, "sgl_runtime_set_refit: NULL "
                                         "runtime");
    if (window > SGL_REFIT_WINDOW_MAX)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_runtime_set_refit: window %u is over %d "
                             "(fits); 0 turns the refit off",
                             window, SGL_REFIT_WINDOW_MAX);
    rt->refit = window;
    return SGL_OK;
}

unsigned sgl_runtime_refit_window(const sgl_runtime_t *rt)
{
    return rt ? rt->refit : 0;
}

int sgl_runtime_refit_kernel(sgl_runtime_t *rt, const char *kernel,
                             unsigned window, double *ret_c)
{
    /* Without a runtime or a kernel no call can take part, and inside a
     * program none may start: refused here alone. Every other refusal
     * is every process's, or one process's bad window would leave the
     * others waiting in the call. */
    if (!rt || !kernel)
        return sgl_error_set(SGL_EINVAL, "%s: NULL argument", fn);
    if (rt->entry && rt->entry->in_task)
        return sgl_error_set(SGL_ESTATE,
                             "%s: called in a program; call it between "
                             "programs, in every process",
                             fn);
    int rc = SGL_OK;
    if (sgl__check_kernel_name(fn, kernel))
        rc = SGL_EINVAL;
    else if (window < 1 || window > SGL_REFIT_WINDOW_MAX)
        rc = sgl_error_set(SGL_EINVAL, "%s: window %u is outside 1..%d (fits)",
                           fn, window, SGL_REFIT_WINDOW_MAX);
    else if (!rt->trace)
        rc = sgl_error_set(SGL_ESTATE,
                           "%s: the trace is off (sgl_opts_t.trace, "
                           "SGL_TRACE=0): there are no times to fit",
                           fn);
    return refit_agreed(rt, kernel, window, -INFINITY, 0, rc, ret_c);
}
