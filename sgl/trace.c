/* The superstep trace: one record per pardo at each master, kept by the
 * thread that plays the master (so recording takes no lock), read back in
 * start order, and written by rank 0 for every process as CSV, JSON or a
 * Chrome/Perfetto trace-event timeline. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <sgl/version.h>
#include <sgl/exchange.h>
#include <sgl/trace.h>

#include "json.h"
#include "runtime_impl.h"

struct sgl_trace_ref {
    const struct sgl_ctx *ctx;
    size_t i;
};

double sgl__now(const struct sgl_runtime *rt)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec - rt->epoch;
}

/* Segment sizes: the first small, so that a master with a few supersteps
 * keeps little; the later ones one transparent huge page each. */
#define TRACE_FIRST_BYTES ((size_t)64 << 10)
#define TRACE_SEG_BYTES ((size_t)2 << 20)

/* The columns follow the fixed fields 8-byte aligned. */
_Static_assert(sizeof(struct sgl_trace_rec) % sizeof(size_t) == 0 &&
                   sizeof(size_t) == sizeof(double),
               "trace columns misaligned");

/* One record's fields, in place in its segment. */
struct view {
    struct sgl_trace_rec *rec;
    size_t *down, *up;     /* arity entries each */
    size_t *hsent, *hrecv;
    double *time, *work, *done;
};

static struct view view_at(const struct sgl_trace *t, size_t r, size_t p)
{
    unsigned char *b = r < t->first
                           ? t->seg[0] + r * t->stride
                           : t->seg[1 + (r - t->first) / t->per] +
                                 (r - t->first) % t->per * t->stride;
    size_t *col = (size_t *)(void *)(b + sizeof(struct sgl_trace_rec));
    return (struct view){(struct sgl_trace_rec *)(void *)b,
                         col,
                         col + p,
                         col + 2 * p,
                         col + 3 * p,
                         (double *)(void *)(col + 4 * p),
                         (double *)(void *)(col + 5 * p),
                         (double *)(void *)(col + 6 * p)};
}

static size_t seg_bytes(const struct sgl_trace *t, size_t k)
{
    size_t b = TRACE_SEG_BYTES;
    return k == 0 ? t->first * t->stride : (t->per * t->stride + b - 1) / b * b;
}

void sgl__trace_free(struct sgl_trace *t)
{
    for (size_t k = 0; k < t->nseg; k++) {
        if (k == 0)
            free(t->seg[k]);
        else
            munmap(t->seg[k], seg_bytes(t, k));
    }
    free(t->seg);
    memset(t, 0, sizeof *t);
}

/* A segment of @bytes (a multiple of 2 MiB) on a 2 MiB boundary, so that
 * the kernel can back it with huge pages (MADV_HUGEPAGE: THP in "madvise"
 * mode, the common default); where it will not, small pages still work. */
static unsigned char *huge_segment(size_t bytes)
{
    size_t b = TRACE_SEG_BYTES;
    unsigned char *m = mmap(NULL, bytes + b, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    size_t lead = (b - (uintptr_t)m % b) % b;
    if (lead)
        munmap(m, lead);
    munmap(m + lead + bytes, b - lead);
#ifdef MADV_HUGEPAGE
    madvise(m + lead, bytes, MADV_HUGEPAGE); /* a hint: refusal is harmless */
#endif
    return m + lead;
}

/* Room for record t->n of a master with p children. */
static int trace_grow(struct sgl_trace *t, size_t p)
{
    if (!t->seg) {
        t->stride = sizeof(struct sgl_trace_rec) + 7 * p * sizeof(size_t);
        t->first = TRACE_FIRST_BYTES / t->stride;
        t->first = t->first ? t->first : 1;
        t->per = TRACE_SEG_BYTES / t->stride;
        t->per = t->per ? t->per : 1;
    }
    if (t->nseg == t->seg_cap) {
        size_t cap = t->seg_cap ? 2 * t->seg_cap : 8;
        unsigned char **seg = realloc(t->seg, cap * sizeof *seg);
        if (!seg)
            return SGL_ENOMEM;
        t->seg = seg;
        t->seg_cap = cap;
    }
    unsigned char *s = t->nseg == 0 ? malloc(seg_bytes(t, 0))
                                    : huge_segment(seg_bytes(t, 1));
    if (!s)
        return SGL_ENOMEM;
    t->seg[t->nseg++] = s;
    return SGL_OK;
}

/* Whether record t->n has no segment yet. */
static int trace_full(const struct sgl_trace *t)
{
    return t->nseg == 0 || t->n >= t->first + (t->nseg - 1) * t->per;
}

/* The slot of the @i-th oldest record kept. Until the trace first fills,
 * head is 0 and record i is in slot i; after, the n slots are a ring
 * whose oldest record is at head. */
static size_t trace_slot(const struct sgl_trace *t, size_t i)
{
    size_t r = t->head + i;
    return r >= t->n ? r - t->n : r;
}

/* The slot the next record goes to, or SIZE_MAX when none can be had.
 * A trace at trace_max records, or one memory gave no more room (cap),
 * overwrites its oldest record, counted as dropped: a long run keeps its
 * newest supersteps, which the refit and a replay of the last run read
 * (they select by start time). */
static size_t trace_next_slot(struct sgl_trace *t, size_t max, unsigned p)
{
    if (t->cap && t->cap < max)
        max = t->cap;
    if (t->n < max && trace_full(t) && trace_grow(t, p) != SGL_OK)
        max = t->cap = t->n; /* no memory: a ring of what there is */
    if (t->n < max)
        return t->n++;
    if (t->n == 0)
        return SIZE_MAX;
    size_t slot = t->head;
    t->head = t->head + 1 == t->n ? 0 : t->head + 1;
    t->dropped++;
    return slot;
}

void sgl__trace_record(struct sgl_ctx *m, double start)
{
    double end = sgl__now(m->rt);
    double master = start - m->last_end;
    m->last_end = end;
    unsigned long seq = m->seq++;
    int exchange = m->xkind;
    m->xkind = 0;
    if (!m->rt->trace)
        return;
    struct sgl_trace *t = &m->trace;
    unsigned p = m->node->arity;
    /* A full trace or no memory loses old records, never the program's
     * result; the loss is counted. */
    size_t slot = trace_next_slot(t, m->rt->trace_max, p);
    if (slot == SIZE_MAX) {
        t->dropped++;
        return;
    }
    struct view v = view_at(t, slot, p);
    *v.rec = (struct sgl_trace_rec){seq,    m->parent_seq, start,   end,
                                    master, m->cwait,      exchange};
    for (unsigned i = 0; i < p; i++) {
        v.down[i] = m->staged == SGL_STAGED_NONE ? 0 : m->counts[i];
        v.up[i] = m->gbytes[i];
        v.time[i] = m->ctime[i];
        v.work[i] = m->cwork[i];
        v.done[i] = m->cdone[i];
        v.hsent[i] = exchange ? m->hsent[i] : 0;
        v.hrecv[i] = exchange ? m->hrecv[i] : 0;
    }
    /* The index of sgl_trace_step() is stale now. Only the process's top
     * context drops it: nested thread-level masters record concurrently
     * on their own threads (two of them freeing one index raced, and
     * could free it twice), and the top context's superstep always ends
     * after theirs. */
    if (m == m->rt->entry) {
        free(m->rt->index);
        m->rt->index = NULL;
    }
}

static size_t count_ctx(const struct sgl_ctx *c)
{
    size_t n = c->trace.n;
    for (unsigned i = 0; c->child && i < c->node->arity; i++)
        if (c->child[i])
            n += count_ctx(c->child[i]);
    return n;
}

static void fill_index(const struct sgl_ctx *c, struct sgl_trace_ref *r,
                       size_t *k)
{
    for (size_t i = 0; i < c->trace.n; i++)
        r[(*k)++] = (struct sgl_trace_ref){c, i};
    for (unsigned i = 0; c->child && i < c->node->arity; i++)
        if (c->child[i])
            fill_index(c->child[i], r, k);
}

static int by_start(const void *a, const void *b)
{
    const struct sgl_trace_ref *x = a, *y = b;
    const struct sgl_trace *tx = &x->ctx->trace, *ty = &y->ctx->trace;
    double s = view_at(tx, trace_slot(tx, x->i), x->ctx->node->arity)
                   .rec->start;
    double t = view_at(ty, trace_slot(ty, y->i), y->ctx->node->arity)
                   .rec->start;
    if (s != t)
        return (s > t) - (s < t);
    /* Equal clock readings: the outer level first. */
    return (x->ctx->node->level > y->ctx->node->level) -
           (x->ctx->node->level < y->ctx->node->level);
}

size_t sgl_trace_steps(const sgl_runtime_t *rt)
{
    return rt ? count_ctx(rt->entry) : 0;
}

int sgl_trace_step(const sgl_runtime_t *rt, size_t i,
                   sgl_trace_step_t *ret_step)
{
    if (!rt || !ret_step)
        return sgl_error_set(SGL_EINVAL, "sgl_trace_step: NULL argument");
    size_t n = count_ctx(rt->entry);
    if (i >= n)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_trace_step: step %zu of %zu recorded", i,
                             n);
    struct sgl_runtime *mrt = (struct sgl_runtime *)rt;
    if (!mrt->index || mrt->nindex != n) {
        free(mrt->index);
        mrt->index = malloc(n * sizeof *mrt->index);
        if (!mrt->index)
            return sgl_error_set(SGL_ENOMEM, "sgl_trace_step: out of memory");
        size_t k = 0;
        fill_index(rt->entry, mrt->index, &k);
        qsort(mrt->index, n, sizeof *mrt->index, by_start);
        mrt->nindex = n;
    }
    const struct sgl_ctx *c = mrt->index[i].ctx;
    unsigned p = c->node->arity;
    const struct sgl_trace *t = &c->trace;
    struct view v = view_at(t, trace_slot(t, mrt->index[i].i), p);
    *ret_step = (sgl_trace_step_t){
        .level = c->node->level,
        .index = c->node->index,
        .first_worker = c->node->first_worker,
        .rank = rt->rank,
        .seq = v.rec->seq,
        .parent_seq = v.rec->parent_seq,
        .children = p,
        .start = v.rec->start,
        .end = v.rec->end,
        .master_time = v.rec->master,
        .wait_start = v.rec->wait,
        .exchange = v.rec->exchange,
        .down_bytes = v.down,
        .up_bytes = v.up,
        .h_sent_bytes = v.hsent,
        .h_recv_bytes = v.hrecv,
        .child_time = v.time,
        .child_work = v.work,
        .child_done = v.done,
    };
    return SGL_OK;
}

const struct sgl_node *sgl__trace_step_master(const sgl_machine_t *m,
                                              const sgl_trace_step_t *st)
{
    if (st->first_worker >= m->workers)
        return NULL;
    const struct sgl_node *n = m->worker[st->first_worker];
    while (n && n->level > st->level)
        n = n->parent;
    return n && n->level == st->level && n->arity == st->children ? n : NULL;
}

/* A child of the master's own process is timed by its task: its
 * child_done also counts its wait for a thread (a team smaller than the
 * children: OMP_THREAD_LIMIT) or for the master's sends, not its speed. */
double sgl__trace_delivered(const struct sgl_node *master,
                            const sgl_trace_step_t *st, unsigned i)
{
    int local = master->child[i]->rank == st->rank;
    int known =
        !local && !(st->wait_start > 0 && st->child_done[i] == st->wait_start);
    return known ? fmax(st->child_done[i], st->child_time[i])
                 : st->child_time[i];
}

int sgl_trace_step_delivered(const sgl_runtime_t *rt,
                             const sgl_trace_step_t *step, unsigned i,
                             double *ret_seconds)
{
    if (!rt || !step || !ret_seconds)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_trace_step_delivered: NULL argument");
    const struct sgl_node *master = sgl__trace_step_master(rt->machine, step);
    if (!master)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_trace_step_delivered: no master at level "
                             "%u with first worker %zu and %u children in "
                             "this runtime's tree",
                             step->level, step->first_worker, step->children);
    if (i >= step->children)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_trace_step_delivered: child %u of %u", i,
                             step->children);
    *ret_seconds = sgl__trace_delivered(master, step, i);
    return SGL_OK;
}

static size_t dropped_ctx(const struct sgl_ctx *c)
{
    size_t n = c->trace.dropped;
    for (unsigned i = 0; c->child && i < c->node->arity; i++)
        if (c->child[i])
            n += dropped_ctx(c->child[i]);
    return n;
}

size_t sgl_trace_dropped(const sgl_runtime_t *rt)
{
    return rt ? dropped_ctx(rt->entry) : 0;
}

static void clear_ctx(struct sgl_ctx *c)
{
    c->trace.n = 0;
    c->trace.head = 0;
    c->trace.cap = 0; /* memory may have come back: try again */
    c->trace.dropped = 0;
    for (unsigned i = 0; c->child && i < c->node->arity; i++)
        if (c->child[i])
            clear_ctx(c->child[i]);
}

void sgl_trace_clear(sgl_runtime_t *rt)
{
    if (!rt)
        return;
    clear_ctx(rt->entry);
    free(rt->index);
    rt->index = NULL;
}

/* Steps travel to rank 0 as doubles: SGL__TRACE_FIXED fields (see
 * runtime_impl.h), then SGL__TRACE_CHILD per child. */
enum { FIXED = SGL__TRACE_FIXED, CHILD = SGL__TRACE_CHILD };

static int serialize(const sgl_runtime_t *rt, double **ret, size_t *ret_n)
{
    size_t steps = sgl_trace_steps(rt), n = 0;
    sgl_trace_step_t s;
    for (size_t i = 0; i < steps; i++) {
        if (sgl_trace_step(rt, i, &s))
            return SGL_ENOMEM;
        n += FIXED + CHILD * (size_t)s.children;
    }
    double *v = malloc((n ? n : 1) * sizeof *v), *w = v;
    if (!v)
        return sgl_error_set(SGL_ENOMEM, "sgl_trace_write: out of memory");
    for (size_t i = 0; i < steps; i++) {
        sgl_trace_step(rt, i, &s);
        double fixed[FIXED] = {s.level,         s.index,
                               s.rank,          (double)s.seq,
                               (double)s.parent_seq, s.children,
                               s.start,         s.end,
                               s.master_time,   (double)s.first_worker,
                               s.exchange,      s.wait_start};
        memcpy(w, fixed, sizeof fixed);
        w += FIXED;
        for (unsigned c = 0; c < s.children; c++) {
            w[0] = (double)s.down_bytes[c];
            w[1] = (double)s.up_bytes[c];
            w[2] = s.child_time[c];
            w[3] = s.child_work[c];
            w[4] = (double)s.h_sent_bytes[c];
            w[5] = (double)s.h_recv_bytes[c];
            w[6] = s.child_done[c];
            w += CHILD;
        }
    }
    *ret = v;
    *ret_n = n;
    return SGL_OK;
}

static const char *exchange_name(double kind)
{
    return kind == SGL_EXCHANGE_DIRECT   ? "direct"
           : kind == SGL_EXCHANGE_ROUTED ? "routed"
                                         : "";
}

static void csv_step(FILE *f, const double *s)
{
    unsigned p = (unsigned)s[5];
    const double *c = s + FIXED;
    const char *x = exchange_name(s[10]);
    for (unsigned i = 0; i < p; i++, c += CHILD)
        fprintf(f,
                "%u,%u,%d,%.0f,%.0f,%.9f,%.9f,%.9f,%u,%.0f,%.0f,%.9f,"
                "%.17g,%s,%.0f,%.0f,%.9f,%.9f\n",
                (unsigned)s[0], (unsigned)s[1], (int)s[2], s[3], s[4], s[6],
                s[7], s[8], i, c[0], c[1], c[2], c[3], x, c[4], c[5], c[6],
                s[11]);
}

/* A child's columns of a step (CHILD doubles at @c), as members of the
 * object open in @j: the JSON export's child and the timeline's task. */
static void child_members(struct sgl__json *j, const double *c)
{
    sgl__json_number(j, "down_bytes", c[0]);
    sgl__json_number(j, "up_bytes", c[1]);
    sgl__json_number(j, "time_s", c[2]);
    sgl__json_number(j, "work", c[3]);
    sgl__json_number(j, "h_sent_bytes", c[4]);
    sgl__json_number(j, "h_recv_bytes", c[5]);
    sgl__json_number(j, "done_s", c[6]);
}

static void json_step(struct sgl__json *j, const double *s)
{
    unsigned p = (unsigned)s[5];
    const double *c = s + FIXED;
    sgl__json_begin_object(j, NULL);
    sgl__json_uint(j, "level", (unsigned)s[0]);
    sgl__json_uint(j, "index", (unsigned)s[1]);
    sgl__json_int(j, "rank", (int)s[2]);
    sgl__json_number(j, "seq", s[3]);
    sgl__json_number(j, "parent_seq", s[4]);
    sgl__json_number(j, "start_s", s[6]);
    sgl__json_number(j, "end_s", s[7]);
    sgl__json_number(j, "master_s", s[8]);
    sgl__json_number(j, "wait_start_s", s[11]);
    sgl__json_uint(j, "syncs", 2);
    sgl__json_string(j, "exchange", exchange_name(s[10]));
    sgl__json_begin_array(j, "children");
    for (unsigned i = 0; i < p; i++, c += CHILD) {
        sgl__json_begin_object(j, NULL);
        child_members(j, c);
        sgl__json_end_object(j);
    }
    sgl__json_end_array(j);
    sgl__json_end_object(j);
}

/* ---- Perfetto: one process per rank, two kinds of thread track ----
 *
 * A master's track holds its supersteps; a child's track holds the tasks
 * it ran in its parent's supersteps. A node that is both (a master below
 * the root) has one of each, since its supersteps lie inside its tasks
 * only approximately (the parent records when the superstep started,
 * when the child's reply came in and how long its task ran, not when the
 * task started: a task is drawn ending as its reply came in, or from the
 * superstep's start where that is not known) and Perfetto
 * drops slices of one track that overlap without nesting. Track ids are
 * unique in the tree: (level, first worker) names a node. */
static uintmax_t track(const sgl_machine_t *m, const struct sgl_node *n,
                       int tasks)
{
    return 2 * ((uintmax_t)n->level * m->workers + n->first_worker) +
           (uintmax_t)tasks;
}

/* Whole nanoseconds (the clock's resolution): timestamps in microseconds,
 * the trace-event unit, then print short, and a duration is the exact
 * difference of its ends. */
static double nsec(double s)
{
    return nearbyint(s * 1e9);
}

/* A metadata event up to its args. Viewers ignore a metadata event's
 * ts; it is there because strict readers want one on every event. */
static void meta_begin(struct sgl__json *j, const char *name, int pid,
                       uintmax_t tid)
{
    sgl__json_begin_object(j, NULL);
    sgl__json_string(j, "name", name);
    sgl__json_string(j, "ph", "M");
    sgl__json_int(j, "pid", pid);
    sgl__json_uint(j, "tid", tid);
    sgl__json_uint(j, "ts", 0);
    sgl__json_begin_object(j, "args");
}

static void meta_end(struct sgl__json *j)
{
    sgl__json_end_object(j);
    sgl__json_end_object(j);
}

/* The name of a process or thread track (@what) and its place among its
 * kind, so that the viewer lists ranks in order and tracks as the tree. */
static void metadata(struct sgl__json *j, const char *what, int pid,
                     uintmax_t tid, const char *name, uintmax_t sort)
{
    char key[32];
    snprintf(key, sizeof key, "%s_name", what);
    meta_begin(j, key, pid, tid);
    sgl__json_string(j, "name", name);
    meta_end(j);
    snprintf(key, sizeof key, "%s_sort_index", what);
    meta_begin(j, key, pid, tid);
    sgl__json_uint(j, "sort_index", sort);
    meta_end(j);
}

/* Names of the tracks below @n, in depth-first order; the host of each
 * rank, inherited from the nearest node above that has one. */
static void name_tracks(struct sgl__json *j, const sgl_machine_t *m,
                        const struct sgl_node *n, const char *host,
                        const char **hosts, uintmax_t *order)
{
    char name[96];
    if (n->host)
        host = n->host;
    if (host && !hosts[n->rank])
        hosts[n->rank] = host;
    if (n->parent) {
        if (n->arity == 0)
            snprintf(name, sizeof name, "worker %zu", n->first_worker);
        else
            snprintf(name, sizeof name, "%s L#%zu level %u tasks", n->type,
                     n->master_index, n->level);
        metadata(j, "thread", n->rank, track(m, n, 1), name, (*order)++);
    }
    if (n->arity > 0) {
        snprintf(name, sizeof name, "%s L#%zu level %u master", n->type,
                 n->master_index, n->level);
        metadata(j, "thread", n->rank, track(m, n, 0), name, (*order)++);
    }
    for (unsigned i = 0; i < n->arity; i++)
        name_tracks(j, m, n->child[i], host, hosts, order);
}

static int perfetto_names(struct sgl__json *j, const sgl_runtime_t *rt)
{
    const char **hosts = calloc((size_t)rt->size, sizeof *hosts);
    if (!hosts)
        return sgl_error_set(SGL_ENOMEM, "sgl_trace_write: out of memory");
    uintmax_t order = 0;
    name_tracks(j, rt->machine, rt->machine->root, NULL, hosts, &order);
    for (int r = 0; r < rt->size; r++) {
        char name[320];
        if (hosts[r])
            snprintf(name, sizeof name, "rank %d (host %s)", r, hosts[r]);
        else
            snprintf(name, sizeof name, "rank %d", r);
        metadata(j, "process", r, 0, name, (uintmax_t)r);
    }
    free(hosts);
    return SGL_OK;
}

/* A complete slice up to its args, which the caller writes and closes. */
static void span(struct sgl__json *j, const char *name, const char *cat,
                 int pid, uintmax_t tid, double start, double end)
{
    sgl__json_begin_object(j, NULL);
    sgl__json_string(j, "name", name);
    sgl__json_string(j, "cat", cat);
    sgl__json_string(j, "ph", "X");
    sgl__json_int(j, "pid", pid);
    sgl__json_uint(j, "tid", tid);
    sgl__json_number(j, "ts", nsec(start) / 1e3);
    sgl__json_number(j, "dur", (nsec(end) - nsec(start)) / 1e3);
}

/* The superstep on its master's track, then each child's task on the
 * child's track, from the superstep's start (see above). */
static void perfetto_step(struct sgl__json *j, const sgl_machine_t *m,
                          const double *s)
{
    unsigned p = (unsigned)s[5];
    const double *c = s + FIXED;
    /* The master is the ancestor at its level of its first worker. */
    const struct sgl_node *n = m->worker[(size_t)s[9]];
    while (n->level > (unsigned)s[0])
        n = n->parent;
    double down = 0, up = 0, h = 0;
    for (unsigned i = 0; i < p; i++) {
        down += c[CHILD * i + 0];
        up += c[CHILD * i + 1];
        h += c[CHILD * i + 4];
    }
    char name[48];
    snprintf(name, sizeof name, "superstep %.0f", s[3]);
    span(j, name, "superstep", n->rank, track(m, n, 0), s[6], s[7]);
    sgl__json_begin_object(j, "args");
    sgl__json_uint(j, "level", n->level);
    sgl__json_uint(j, "master", n->master_index);
    sgl__json_number(j, "seq", s[3]);
    sgl__json_uint(j, "children", p);
    sgl__json_number(j, "down_bytes", down);
    sgl__json_number(j, "up_bytes", up);
    sgl__json_number(j, "master_s", s[8]);
    sgl__json_number(j, "wait_start_s", s[11]);
    sgl__json_string(j, "exchange", exchange_name(s[10]));
    sgl__json_number(j, "h_sent_bytes", h);
    sgl__json_end_object(j);
    sgl__json_end_object(j);
    for (unsigned i = 0; i < p; i++, c += CHILD) {
        const struct sgl_node *ch = n->child[i];
        /* A reply in before the master waited came in at an unknown
         * time: that task is drawn from the superstep's start. */
        int known = !(s[11] > 0 && c[6] == s[11]);
        double end = s[6] + (known ? fmax(c[6], c[2]) : c[2]);
        span(j, "task", "task", ch->rank, track(m, ch, 1), end - c[2], end);
        sgl__json_begin_object(j, "args");
        sgl__json_uint(j, "level", n->level);
        sgl__json_uint(j, "master", n->master_index);
        sgl__json_number(j, "seq", s[3]);
        sgl__json_uint(j, "child", i);
        child_members(j, c);
        sgl__json_end_object(j);
        sgl__json_end_object(j);
    }
}

/* The JSON formats on rank 0: @all holds @total serialised doubles. */
static int write_json(const sgl_runtime_t *rt, FILE *f,
                      sgl_trace_format_t format, const double *all,
                      size_t total)
{
    struct sgl__json j;
    int rc = SGL_OK;
    sgl__json_init(&j, f, 1);
    if (format == SGL_TRACE_JSON) {
        sgl__json_begin_array(&j, NULL);
        for (size_t o = 0; o < total; o += FIXED + CHILD * (size_t)all[o + 5])
            json_step(&j, all + o);
        sgl__json_end_array(&j);
    } else {
        sgl__json_begin_object(&j, NULL);
        sgl__json_begin_array(&j, "traceEvents");
        rc = perfetto_names(&j, rt);
        for (size_t o = 0; !rc && o < total;
             o += FIXED + CHILD * (size_t)all[o + 5])
            perfetto_step(&j, rt->machine, all + o);
        sgl__json_end_array(&j);
        sgl__json_string(&j, "displayTimeUnit", "ns");
        /* Free-form data the viewers show with the trace. */
        sgl__json_begin_object(&j, "otherData");
        sgl__json_string(&j, "producer", "SGL sgl_trace_write");
        sgl__json_string(&j, "sgl_version", sgl_version());
        sgl__json_end_object(&j);
        sgl__json_end_object(&j);
    }
    int wrc = sgl__json_finish(&j);
    return rc ? rc : wrc;
}

int sgl__trace_gather(sgl_runtime_t *rt, double **ret_all, size_t *ret_n)
{
    double *mine = NULL;
    size_t n = 0;
    int rc = serialize(rt, &mine, &n), ok = rc == SGL_OK;
    int count = ok && n <= (size_t)INT32_MAX ? (int)n : 0;
    int *counts = NULL, *displs = NULL;
    double *all = NULL;
    if (rt->rank == 0) {
        counts = calloc((size_t)rt->size, sizeof *counts);
        displs = calloc((size_t)rt->size, sizeof *displs);
    }
    MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, rt->comm);
    size_t total = 0;
    if (rt->rank == 0 && counts && displs) {
        for (int r = 0; r < rt->size; r++) {
            displs[r] = (int)total;
            total += (size_t)counts[r];
        }
        all = malloc((total ? total : 1) * sizeof *all);
    }
    MPI_Gatherv(ok ? mine : NULL, count, MPI_DOUBLE, all, counts, displs,
                MPI_DOUBLE, 0, rt->comm);
    free(mine);
    free(counts);
    free(displs);
    if (rt->rank == 0 && !all)
        rc = sgl_error_set(SGL_ENOMEM, "trace: out of memory gathering "
                                       "the steps");
    /* Every rank returns rank 0's verdict. */
    MPI_Bcast(&rc, 1, MPI_INT, 0, rt->comm);
    if (rc) {
        free(all);
        return rc;
    }
    *ret_all = all;
    *ret_n = total;
    return SGL_OK;
}

int sgl_trace_write(sgl_runtime_t *rt, const char *path,
                    sgl_trace_format_t format)
{
    if (!rt || !path)
        return sgl_error_set(SGL_EINVAL, "sgl_trace_write: NULL argument");
    if (format != SGL_TRACE_CSV && format != SGL_TRACE_JSON &&
        format != SGL_TRACE_PERFETTO)
        return sgl_error_set(SGL_EINVAL, "sgl_trace_write: unknown format %d",
                             (int)format);
    double *all = NULL;
    size_t total = 0;
    int rc = sgl__trace_gather(rt, &all, &total);
    if (rc)
        return rc;
    FILE *f = NULL;
    if (rt->rank == 0)
        rc = sgl__open_output(path, "trace file", &f);
    if (f) {
        if (format == SGL_TRACE_CSV) {
            fprintf(f, "level,index,rank,seq,parent_seq,start_s,end_s,"
                       "master_s,child,down_bytes,up_bytes,child_time_s,"
                       "child_work,exchange,h_sent_bytes,h_recv_bytes,"
                       "child_done_s,wait_start_s\n");
            for (size_t o = 0; o < total;
                 o += FIXED + CHILD * (size_t)all[o + 5])
                csv_step(f, all + o);
        } else {
            rc = write_json(rt, f, format, all, total);
        }
        if (fclose(f) != 0 || rc == SGL_EIO || rc == SGL_EINVAL)
            rc = sgl_error_set(SGL_EIO, "sgl_trace_write: writing %s failed",
                               path);
    }
    free(all);
    MPI_Bcast(&rc, 1, MPI_INT, 0, rt->comm);
    return rc;
}
