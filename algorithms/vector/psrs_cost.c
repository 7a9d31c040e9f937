/* Closed-form cost of psrs.c: PSRS on an exchange superstep (docs/design.md,
 * "Exchange supersteps"), flattened over all P workers; m = n/P, eb = element bytes,
 * W_i the workers below child i of a master, W_X below the master X. The
 * root runs four supersteps; every lower master forwards each with one
 * superstep of its own (so each costs 2 l at every level):
 *   S1: worker radix-sorts its block by key: m*c(sort) (per element,
 *       all passes; records' keys mapped too); hands up its size and
 *       s = max(P, 256) regular samples (key, place, mass): 3s+2 words
 *       of 8 bytes; every master concatenates its children's hand-ups:
 *       (3s+2)*W_X*c(copy) (per word); the root merges the P s samples,
 *       P*s*log2(P)*c(merge), and picks P-1 pivots.
 *   S2: the pivots (2 words each) and the P groups (first worker and
 *       size: 2 words each) go down, 4P words per child; worker splits
 *       its block at the pivots: P*log2(m)*c(merge); hands up nothing
 *       (it stages its buckets for the exchange in place, no copy).
 *   X:  the exchange at the root, direct (the runtime's default): the
 *       counts and the payload go process to process, nothing through
 *       the masters. At every master X, l_h + max_i h_i*g_h with, for
 *       uniform keys,
 *           h_i = W_i * m * (W_X - W_i) / P * eb + 8 * W_i * (W_X - W_i):
 *       each worker sends (and receives) m/P elements to (from) every
 *       worker, and only the part that leaves child i's subtree but
 *       stays inside X crosses X's level; so do the counts, 8 bytes per
 *       pair of workers (sent even when zero). So each byte is charged once,
 *       at the level of the lowest master above both ends; the levels'
 *       exchanges are then summed along the critical path as if they ran
 *       one after another. That is the model: the runtime may overlap
 *       them (one MPI exchange among processes while threads copy), so
 *       for a deep tree it errs on the slow side.
 *   X routed (SGL_EXCHANGE=routed, opts.routed): two supersteps from
 *       the root instead, each forwarded by every lower master with one
 *       superstep of its own, so each costs 2 l at every level (and the
 *       fan-out's headers):
 *       XUP   every worker hands up one out-record, R_w = 32 + 8P + m*eb
 *             bytes (head, a count per destination, its blocks); every
 *             master concatenates its children's: up_i = W_i * R_w,
 *             copied once more by each master below the root, and
 *             reordered by destination at the root: W_X*R_w/8 c(copy);
 *             the worker copies its blocks in: m*eb/8 c(copy).
 *       XDOWN the in-records, 32 + 8P + m*eb bytes each for uniform
 *             keys, down the same way: down_i = W_i * R_w; every master
 *             below the root copies its own (sgl_recv()), W_X*R_w/8
 *             c(copy), and splits it without a copy; the worker copies
 *             its record and lays its blocks out: (R_w + m*eb)/8 c(copy).
 *       So every element crosses every level twice, at its vertical g:
 *       the root's link carries n*eb up and n*eb down.
 *   S3: worker P-way merges its incoming runs, read in place (no copy):
 *       m*log2(P)*c(merge) (records: maps keys back), hands up its new
 *       size: 8 bytes.
 *   Buckets are taken as n/P each (regular sampling bounds them by
 *   2n/P). c(copy) is optional: a machine without it gets no copy term.
 * One worker alone: n*c(sort).
 * What the model leaves out, on purpose: the prices are those of random
 * keys, the input c(sort) and c(merge) are measured on. S1's scan for
 * presorted blocks stops after its first 1024-key chunk there, and its
 * shape adds 4 words to each hand-up (both left out). Presorted input
 * costs less than priced: in order, S1 is one read pass and S2, X and S3
 * do not run; in reverse order, with every worker in one process, S1 is
 * one pass that reads and writes each element (the scan reverses the
 * block as it goes; records: a read pass, then a reversal and a pass
 * over runs of equal keys) and one more superstep swaps the blocks'
 * memory: no S2, no X, no copy in S3; across processes S1 is one read
 * pass, X moves each block whole and S3 copies it backwards, with no
 * S2. Nearly sorted blocks
 * (local_sort.c) sort in about two passes instead of c(sort)'s, and a
 * merge of two runs of which one is tiny copies instead of comparing.
 * A prediction for such input is an upper bound. */
#include <math.h>

#include "cost.h"
#include "cost_terms.h"

/* The root's supersteps, in order: with the direct exchange, and with
 * the routed one (its two supersteps in place of X). */
static const enum cost_phase root_steps[] = {COST_S1, COST_S2, COST_X,
                                             COST_S3};
static const enum cost_phase routed_steps[] = {COST_S1, COST_S2, COST_XUP,
                                               COST_XDOWN, COST_S3};

static unsigned nsteps(void *user, const sgl_node_t *master, const void *t)
{
    const struct cost_algo *a = user;
    const struct cost_task *task = t;
    (void)master;
    if (task->phase != COST_ROOT)
        return 1;
    return a->o.routed ? 5 : 4;
}

/* Bytes of the records of @workers workers holding @n elements in all:
 * each record has a 32-byte head and 8 bytes per worker of the exchange
 * (its counts, by destination going up, by source coming down), then
 * the worker's elements (exchange_routed.c; padding not counted). */
static double records(const struct cost_algo *a, double workers, double n)
{
    return workers * (32 + 8 * a->P) + n * a->o.elem_bytes;
}

/* Samples per unit at a level's master (level_samples() in psrs.c, for
 * equal weights): the flat sort's P workers take max(P, 256) each too. */
static double level_s(double k, double units)
{
    double s = k < 256 ? 256 : k, room = floor(4194304.0 / units);
    room = room > k ? room : k;
    return s < room ? s : room;
}

/* A routed exchange superstep at @master: every child's records cross
 * its link, up in XUP, down in XDOWN. The masters copy them in memory
 * (c(copy) per 8 bytes): in XUP each concatenates its children's into
 * its own hand-up, the root instead reorders them by destination; in
 * XDOWN each master below the root takes its private copy (sgl_recv())
 * before it splits it among its children. */
static void routed_step(const struct cost_algo *a, const sgl_node_t *master,
                        const struct cost_task *task, enum cost_phase ph,
                        sgl_pstep_t *st)
{
    const struct cost_task *child = st->child_task;
    for (unsigned i = 0; i < st->arity; i++) {
        double wi = (double)sgl_node_workers(sgl_node_child(master, i));
        double b = records(a, wi, child[i].n);
        if (ph == COST_XUP)
            st->up[i] = b;
        else
            st->down[i] = b;
    }
    double mine = records(a, (double)sgl_node_workers(master), task->n) / 8;
    if (a->copy && (ph == COST_XUP || task->phase != COST_ROOT))
        sgl__cost_add(&st->master, "copy", mine, mine);
}

static int step(void *user, const sgl_node_t *master, const void *t,
                unsigned s, sgl_pstep_t *st)
{
    const struct cost_algo *a = user;
    const struct cost_task *task = t;
    double eb = a->o.elem_bytes, P = a->P;
    double wx = (double)sgl_node_workers(master), m = task->n / wx;
    double sp = level_s(P, P); /* samples per worker: max(P, 256) */
    int root = task->phase == COST_ROOT;
    enum cost_phase ph = !root        ? task->phase
                         : a->o.routed ? routed_steps[s]
                                       : root_steps[s];
    sgl__cost_children(a, master, task, st, ph);
    if (ph == COST_XUP || ph == COST_XDOWN) {
        routed_step(a, master, task, ph, st);
        return SGL_OK;
    }
    st->exchange = ph == COST_X;
    for (unsigned i = 0; i < st->arity; i++) {
        double wi = (double)sgl_node_workers(sgl_node_child(master, i));
        switch (ph) {
        case COST_S1:
            st->up[i] = wi * (3 * sp + 2) * 8;
            break;
        case COST_S2:
            st->down[i] = 4 * P * 8;
            break;
        case COST_X:
            st->h[i] = wi * m * (wx - wi) / P * eb + 8 * wi * (wx - wi);
            break;
        default: /* S3 */
            st->up[i] = wi * 8;
            break;
        }
    }
    if (ph == COST_S1 && a->copy)
        sgl__cost_add(&st->master, "copy", (3 * sp + 2) * wx,
                      (3 * sp + 2) * wx);
    if (ph == COST_S1 && root)
        sgl__cost_add(&st->master, "merge", P * sp * sgl__cost_lg(P), P * sp);
    return SGL_OK;
}

static int work(void *user, const sgl_node_t *worker, const void *t,
                sgl_work_t *w)
{
    const struct cost_algo *a = user;
    const struct cost_task *task = t;
    double m = task->n, P = a->P;
    (void)worker;
    switch (task->phase) {
    case COST_S2:
        sgl__cost_add(w, "merge", P * sgl__cost_lg(m), m);
        break;
    case COST_X: /* the payload is charged as the masters' h */
        break;
    case COST_XUP: /* its blocks copied into its out-record */
        if (a->copy)
            sgl__cost_add(w, "copy", m * a->o.elem_bytes / 8,
                          m * a->o.elem_bytes / 8);
        break;
    case COST_XDOWN: /* its in-record (sgl_recv()), then its blocks out */
        if (a->copy)
            sgl__cost_add(w, "copy",
                          (records(a, 1, m) + m * a->o.elem_bytes) / 8,
                          m * a->o.elem_bytes / 8);
        break;
    case COST_S3:
        sgl__cost_add(w, "merge", m * sgl__cost_lg(P), m);
        break;
    default: /* S1, or one worker alone */
        sgl__cost_add(w, "sort", m, m);
        break;
    }
    return SGL_OK;
}

void sgl__cost_psrs_program(const sgl_machine_t *m, sgl_program_t *prog)
{
    (void)m;
    prog->nsteps = nsteps;
    prog->step = step;
    prog->work = work;
}

/* ---- PSRS by level (SGL_SORT_LEVELS) ----
 * At a level's master X (the root; then, in the descend step, every
 * child with several workers), k groups: X's children when one of them
 * has several workers, else X's workers (the flat case, as above with P
 * = W_X). u = X's children: the units of the sample step, s samples each
 * (k, at least 256). m = the worker's block:
 *   S1: worker radix-sorts its block at the top level only (below, the
 *       merge left it sorted); every unit hands up (3s+2) words (a
 *       sample is key, place, mass); a master below X sorts its
 *       children's k_c s samples and thins them to s,
 *       k_c*s*log2(k_c)*c(merge); X sorts u*s: u*s*log2(u)*c(merge).
 *   S2: the pivots and the groups go down, 4k words per child; worker
 *       splits its block: k*log2(m)*c(merge).
 *   X:  the exchange at X, direct as above: for uniform keys
 *       h_i = W_i * m * (W_X - W_i) / W_X * eb + 8 * W_i * (W_X - W_i) at
 *       X and, inside a child c, m*(W_c - W_i)/W_X per worker at c (and
 *       the counts across c's children).
 *   S3: worker merges the runs that came in: W_X / W_g of them (its
 *       group's share of the senders): m*log2(W_X/W_g)*c(merge); hands
 *       up its new size.
 *   D:  (groups = children) every child with several workers sorts its
 *       subtree in the same way; all hand up their workers' sizes.
 * Buckets are taken as their group's share of n. The samples per unit
 * do not grow with uneven weights here (the runtime takes up to 16x as
 * many), as in the flat form. */

int sgl__cost_split_by_children(const sgl_node_t *x)
{
    for (unsigned i = 0; i < sgl_node_arity(x); i++)
        if (sgl_node_workers(sgl_node_child(x, i)) > 1)
            return 1;
    return 0;
}

/* A level's supersteps: by children, of workers, or one child. */
static const enum cost_phase by_children[] = {COST_S1, COST_S2, COST_X, COST_S3,
                                              COST_DESCEND};

static int level_master(const struct cost_task *t)
{
    return t->phase == COST_ROOT || t->phase == COST_DESCEND;
}

static unsigned levels_nsteps(void *user, const sgl_node_t *master,
                              const void *t)
{
    (void)user;
    if (!level_master(t))
        return 1;
    if (sgl_node_arity(master) == 1)
        return 1;
    return sgl__cost_split_by_children(master) ? 5 : 4;
}


static int levels_step(void *user, const sgl_node_t *master, const void *t,
                       unsigned s, sgl_pstep_t *st)
{
    const struct cost_algo *a = user;
    const struct cost_task *task = t;
    double eb = a->o.elem_bytes;
    double wx = (double)sgl_node_workers(master), m = task->n / wx;
    double units = st->arity;
    struct cost_task lv = *task; /* what this step passes down */
    enum cost_phase ph;
    if (level_master(task)) {
        int by_child = sgl__cost_split_by_children(master);
        ph = st->arity == 1 ? COST_DESCEND : by_children[s];
        lv.k = by_child ? st->arity : wx;
        lv.wx = wx;
        lv.s = level_s(lv.k, units);
        lv.by_child = by_child;
    } else {
        ph = task->phase;
    }
    if (ph == COST_X && a->o.routed)
        return sgl_error_set(SGL_EINVAL,
                             "psrs-levels: the routed exchange is priced "
                             "for flat psrs only (predict psrs, or the "
                             "direct exchange)");
    sgl__cost_children(a, master, task, st, ph);
    st->exchange = ph == COST_X;
    for (unsigned i = 0; i < st->arity; i++) {
        struct cost_task *c = (struct cost_task *)st->child_task + i;
        double wi = (double)sgl_node_workers(sgl_node_child(master, i));
        double n = c->n;
        *c = lv;
        c->phase = ph;
        c->n = n;
        switch (ph) {
        case COST_S1: /* one unit from every child */
            st->up[i] = (3 * lv.s + 2) * 8;
            break;
        case COST_S2:
            st->down[i] = 4 * lv.k * 8;
            break;
        case COST_X:
            st->h[i] = wi * m * (wx - wi) / lv.wx * eb + 8 * wi * (wx - wi);
            break;
        case COST_S3: /* runs in: the senders over the group's workers */
            if (level_master(task))
                c->k = lv.by_child ? wx / wi : wx;
            st->up[i] = wi * 8;
            break;
        default: /* COST_DESCEND: sorted below a split */
            c->sorted = lv.sorted || st->arity > 1;
            st->up[i] = wi * 8;
            break;
        }
    }
    /* The level's master sorts its units' samples; a master below it
     * sorts its children's to thin them. */
    if (ph == COST_S1)
        sgl__cost_add(&st->master, "merge", units * lv.s * sgl__cost_lg(units),
                      units * lv.s);
    return SGL_OK;
}

static int levels_work(void *user, const sgl_node_t *worker, const void *t,
                       sgl_work_t *w)
{
    const struct cost_task *task = t;
    double m = task->n;
    (void)user, (void)worker;
    switch (task->phase) {
    case COST_ROOT: /* one worker alone */
        sgl__cost_add(w, "sort", m, m);
        break;
    case COST_S1:
    case COST_DESCEND: /* a worker below a one-child chain sorts here */
        if (!task->sorted)
            sgl__cost_add(w, "sort", m, m);
        break;
    case COST_S2:
        sgl__cost_add(w, "merge", task->k * sgl__cost_lg(m), m);
        break;
    case COST_S3:
        sgl__cost_add(w, "merge", m * sgl__cost_lg(task->k), m);
        break;
    default: /* the exchange's payload is the masters' h */
        break;
    }
    return SGL_OK;
}

/* By level where a child of the root has several workers; else the
 * runtime sorts flat, and so does the program. */
void sgl__cost_psrs_levels_program(const sgl_machine_t *m,
                                   sgl_program_t *prog)
{
    if (!sgl__cost_split_by_children(sgl_machine_root(m))) {
        sgl__cost_psrs_program(m, prog);
        return;
    }
    prog->nsteps = levels_nsteps;
    prog->step = levels_step;
    prog->work = levels_work;
}
