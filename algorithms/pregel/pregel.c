/* The vertex-centric engine. A run is, from the root:
 *
 *   init       every worker sets up its vertices' state and calls the
 *              program's init on each;
 *   superstep  one pardo: every worker delivers the messages of the last
 *              exchange (combining those for one vertex), runs compute on
 *              its active vertices, and stages the messages they sent,
 *              already combined per target, one block per destination
 *              worker; it hands up its counts and aggregator partials,
 *              which the masters combine on the way up;
 *   exchange   unless every vertex has halted and nothing was sent.
 *
 * What goes on the wire, and how, is pregel_wire.c's. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pregel_impl.h"
#include <sgl/blocks.h>
#include <sgl/exchange.h>

/* ---- programs ---- */

#define MAX_PROGRAMS 64

static sgl_pregel_program_t programs[MAX_PROGRAMS];
static size_t nprograms;

int sgl_pregel_register(const sgl_pregel_program_t *p, uint32_t *ret_id)
{
    if (!p || !ret_id || !p->init || !p->combine)
        return sgl_error_set(SGL_EINVAL, "sgl_pregel_register: NULL "
                                         "argument or function");
    if (!p->compute && !p->compute_block)
        return sgl_error_set(SGL_EINVAL, "sgl_pregel_register: program %s "
                                         "has neither compute nor "
                                         "compute_block",
                             p->name ? p->name : "(unnamed)");
    if (p->value_size < 1 || p->value_size > SGL_PREGEL_MAX_BYTES ||
        p->msg_size < 1 || p->msg_size > SGL_PREGEL_MAX_BYTES ||
        p->naggs > SGL_PREGEL_MAX_AGGS ||
        p->scratch_size > SGL_PREGEL_MAX_SCRATCH)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_pregel_register: value of %zu bytes, "
                             "message of %zu (1 to %d each), %u aggregators "
                             "(at most %d), scratch of %zu bytes (at most "
                             "%d)",
                             p->value_size, p->msg_size, SGL_PREGEL_MAX_BYTES,
                             p->naggs, SGL_PREGEL_MAX_AGGS, p->scratch_size,
                             SGL_PREGEL_MAX_SCRATCH);
    if ((p->combine == sgl_combine_sum_f64 && p->msg_size < sizeof(double)) ||
        (p->combine == sgl_combine_sum_u64 && p->msg_size < sizeof(uint64_t)) ||
        (p->combine == sgl_combine_min_u64 && p->msg_size < sizeof(uint64_t)) ||
        (p->combine == sgl_combine_min_f64 && p->msg_size < sizeof(double)))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_pregel_register: a built-in combiner reads "
                             "8 bytes; messages are %zu",
                             p->msg_size);
    for (unsigned i = 0; i < p->naggs; i++)
        if (p->agg[i] < SGL_AGG_SUM || p->agg[i] > SGL_AGG_MAX)
            return sgl_error_set(SGL_EINVAL,
                                 "sgl_pregel_register: aggregator %u has "
                                 "kind %d",
                                 i, (int)p->agg[i]);
    for (size_t i = 0; i < nprograms; i++)
        if (programs[i].compute == p->compute &&
            programs[i].compute_block == p->compute_block &&
            programs[i].combine == p->combine) {
            *ret_id = (uint32_t)i + 1;
            return SGL_OK;
        }
    if (nprograms == MAX_PROGRAMS)
        return sgl_error_set(SGL_ENOMEM, "sgl_pregel_register: more than %d "
                                         "programs",
                             MAX_PROGRAMS);
    programs[nprograms] = *p;
    *ret_id = (uint32_t)++nprograms;
    return SGL_OK;
}

const sgl_pregel_program_t *sgl__pregel_program(uint32_t id)
{
    return id >= 1 && id <= nprograms ? &programs[id - 1] : NULL;
}

/* ---- aggregators ---- */

static double agg_identity(sgl_agg_t k)
{
    return k == SGL_AGG_SUM ? 0.0 : k == SGL_AGG_MIN ? INFINITY : -INFINITY;
}

static double agg_combine(sgl_agg_t k, double a, double b)
{
    return k == SGL_AGG_SUM ? a + b : k == SGL_AGG_MIN ? fmin(a, b)
                                                        : fmax(a, b);
}

/* ---- exact sums ---- */

/* The scalings by 2^-exp and back are exact (powers of two; what
 * underflows rounds to 0 anyway). Where |y| < 2^52, y + c with |c| =
 * 2^52 and the sign of y lies where the doubles are the integers, so the
 * addition rounds y to the nearest integer (ties to even, as 2^52 is
 * even) and the subtraction is exact; a larger |y| (or an infinite one:
 * x is large) is an integer already, so x a multiple. NaN stays NaN. */
double sgl_combine_round_grid(double x, int exp)
{
    if (exp < -1000 || exp > 1000)
        return NAN;
    double scale = ldexp(1.0, -exp), y = x * scale;
    if (!(fabs(y) < 0x1p52))
        return x;
    double c = copysign(0x1p52, y);
    return ((y + c) - c) / scale;
}

/* ---- a vertex, as compute sees it ---- */

/* Shared by the accessors and sgl_vertex_state(): inlined into both,
 * since an exported function is not inlined within the library. */
static inline void *value_of(const sgl_vertex_t *v)
{
    return v->g->value + v->i * v->p->value_size;
}

static inline const void *message_of(const sgl_vertex_t *v)
{
    return v->g->has_msg[v->i] ? v->g->inbox + v->i * v->p->msg_size : NULL;
}

static inline size_t degree_of(const sgl_vertex_t *v)
{
    return v->g->off[v->i + 1] - v->g->off[v->i];
}

uint64_t sgl_vertex_id(const sgl_vertex_t *v) { return v->g->v0 + v->i; }

void *sgl_vertex_value(sgl_vertex_t *v) { return value_of(v); }

size_t sgl_vertex_out_degree(const sgl_vertex_t *v) { return degree_of(v); }

const uint64_t *sgl_vertex_out_edges(const sgl_vertex_t *v)
{
    return v->g->adj + v->g->off[v->i];
}

const double *sgl_vertex_out_edge_values(const sgl_vertex_t *v)
{
    return v->g->val ? v->g->val + v->g->off[v->i] : NULL;
}

const void *sgl_vertex_message(const sgl_vertex_t *v) { return message_of(v); }

int sgl_vertex_fail(sgl_vertex_t *v, int code, const char *fmt, ...)
{
    if (!v)
        return SGL_EINVAL;
    if (code >= 0)
        code = SGL_ETASK;
    if (v->err) /* the first failure is the one reported */
        return v->err;
    char msg[384] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
    }
    /* a block compute's handle is of no vertex: name the worker's range */
    if (v->i < (size_t)(v->g->v1 - v->g->v0) && !v->in_block)
        v->err = sgl_error_set(code, "program %s: vertex %llu failed in "
                                     "superstep %u: %s",
                               v->p->name ? v->p->name : "?",
                               (unsigned long long)sgl_vertex_id(v), v->step,
                               msg);
    else
        v->err = sgl_error_set(code, "program %s: worker of vertices %llu.. "
                                     "failed in superstep %u: %s",
                               v->p->name ? v->p->name : "?",
                               (unsigned long long)v->g->v0, v->step, msg);
    return v->err;
}

unsigned sgl_vertex_superstep(const sgl_vertex_t *v) { return v->step; }

double sgl_vertex_param(const sgl_vertex_t *v, unsigned i)
{
    return i < SGL_PREGEL_MAX_PARAMS ? v->params[i] : 0.0;
}
uint64_t sgl_vertex_count(const sgl_vertex_t *v) { return v->g->n; }

double sgl_vertex_aggregated(const sgl_vertex_t *v, unsigned i)
{
    return i < v->p->naggs ? v->agg_prev[i] : NAN;
}

void sgl_vertex_aggregate(sgl_vertex_t *v, unsigned i, double x)
{
    if (i < v->p->naggs)
        v->agg[i] = agg_combine(v->p->agg[i], v->agg[i], x);
}

void sgl_vertex_vote_halt(sgl_vertex_t *v) { v->g->halted[v->i] = 1; }

void *sgl_vertex_scratch(sgl_vertex_t *v) { return v->g->scratch; }

void sgl_vertex_state(sgl_vertex_t *v, sgl_vertex_state_t *s)
{
    s->id = v->g->v0 + v->i;
    s->superstep = v->step;
    s->value = value_of(v);
    s->message = message_of(v);
    s->out_degree = degree_of(v);
    s->scratch = v->g->scratch;
}

int sgl_vertex_send(sgl_vertex_t *v, uint64_t target, const void *msg)
{
    if (target >= v->g->n) {
        if (!v->err)
            v->err = sgl_error_set(SGL_EINVAL,
                                   "vertex %llu sent to vertex %llu of %llu",
                                   (unsigned long long)sgl_vertex_id(v),
                                   (unsigned long long)target,
                                   (unsigned long long)v->g->n);
        return SGL_EINVAL;
    }
    int rc = sgl__outbox_add(&v->g->out, target, msg, v->p->combine);
    if (rc && !v->err)
        v->err = rc;
    return rc;
}

/* What every worker hands up after a superstep, combined on the way. */
struct step_rec {
    uint64_t active;         /* vertices not halted */
    uint64_t raw, combined;  /* messages sent */
    uint64_t recv_bytes;     /* the most one worker received */
    uint64_t recv_raw_bytes; /* the same had nothing been combined */
    double agg[SGL_PREGEL_MAX_AGGS];
    double maxpair[WIRE_ROUNDS_LOG + 1]; /* under a budget (sgl__wire_plan()) */
    uint64_t files;          /* checkpoint files' terms, summed
                                (pregel_checkpoint.c) */
};

/* What a superstep does besides compute. */
enum step_kind {
    STEP,        /* deliver (after superstep 0), compute, stage */
    INIT,        /* set the vertices up instead */
    LOAD,        /* set them up from a checkpoint instead */
    RESUMED,     /* the first after LOAD: the messages are there already */
    SEND,        /* under a budget: deliver the last round, stage the next */
};

struct step_arg {
    uint32_t graph, prog;
    uint32_t step;
    uint32_t kind;    /* enum step_kind */
    uint32_t ckpt;    /* 1: save a checkpoint before compute */
    uint32_t drop;    /* 1: remove the files of superstep drop_step */
    uint32_t drop_step;
    uint32_t round, nrounds; /* SEND */
    uint32_t pad;
    uint64_t budget;      /* sgl_graph.budget */
    uint64_t ident;       /* sgl__ckpt_ident() of the run */
    double params[SGL_PREGEL_MAX_PARAMS];
    double agg[SGL_PREGEL_MAX_AGGS];
    char dir[PREGEL_DIR_MAX + 1];
};

/* A worker's vertex state for program @p (fresh for each run). */
static int setup(struct wgraph *g, const sgl_pregel_program_t *p)
{
    size_t nv = (size_t)(g->v1 - g->v0);
    sgl__fan_forget_values(g); /* their size is the last program's */
    sgl__wire_forget(g);
    memset(g->scratch, 0, sizeof g->scratch);
    free(g->value);
    free(g->halted);
    free(g->inbox);
    free(g->has_msg);
    g->value = calloc(nv ? nv : 1, p->value_size);
    g->halted = calloc(nv ? nv : 1, 1);
    g->inbox = calloc(nv ? nv : 1, p->msg_size);
    g->has_msg = calloc(nv ? nv : 1, 1);
    if (!g->value || !g->halted || !g->inbox || !g->has_msg)
        return sgl_error_set(SGL_ENOMEM, "out of memory for %zu vertices",
                             nv);
    return SGL_OK;
}

/* ---- block compute ---- */

/* Byte flags a word at a time (the loops below are not vectorised at
 * -O2): ones_of() maps each byte of @w to 1 if it is non-zero, else 0;
 * byte_sum() adds up such 0/1 bytes. */
#define BYTES_01 UINT64_C(0x0101010101010101)
#define BYTES_7F UINT64_C(0x7f7f7f7f7f7f7f7f)

static inline uint64_t ones_of(uint64_t w)
{
    return ((((w & BYTES_7F) + BYTES_7F) | w) >> 7) & BYTES_01;
}

static inline size_t byte_sum(uint64_t ones)
{
    return (size_t)((ones * BYTES_01) >> 56);
}

static inline uint64_t load8(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* Wake the halted vertices of @n that have a message (halted[i] = 0 where
 * has_msg[i]), leaving every flag 0 or 1. */
static void wake(unsigned char *halted, const unsigned char *has_msg,
                 size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t h = ones_of(load8(halted + i)) & ~ones_of(load8(has_msg + i));
        memcpy(halted + i, &h, sizeof h);
    }
    for (; i < n; i++)
        halted[i] = halted[i] && !has_msg[i];
}

/* How many of @n flags are non-zero; with @mask, non-zero in both. */
static size_t count_set(const unsigned char *a, const unsigned char *mask,
                        size_t n)
{
    size_t c = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = load8(a + i), m = mask ? load8(mask + i) : BYTES_01;
        if (!w)
            continue;
        /* flags of 0 or 1, as most programs set them: no mapping */
        if ((w | m) & ~BYTES_01)
            w = ones_of(w) & ones_of(m);
        c += byte_sum(w & m);
    }
    for (; i < n; i++)
        c += a[i] && (!mask || mask[i]);
    return c;
}

/* Vertices per block: a block's arrays stay in the L2 cache from the
 * program's loop to the engine's counts after it. */
#define BLOCK_VERTICES 4096

/* Compute every vertex of @g in blocks of @p->compute_block; the active
 * vertices left counted in *@ret_active. */
static int compute_blocks(struct wgraph *g, const sgl_pregel_program_t *p,
                          sgl_vertex_t *v, uint64_t *ret_active)
{
    size_t nv = (size_t)(g->v1 - g->v0), ms = p->msg_size;
    SGL_TRY(sgl__fan_values(g, p));
    uint64_t active = 0;
    size_t sent = 0;
    for (size_t i0 = 0; i0 < nv; i0 += BLOCK_VERTICES) {
        size_t n = nv - i0 < BLOCK_VERTICES ? nv - i0 : BLOCK_VERTICES;
        wake(g->halted + i0, g->has_msg + i0, n);
        sgl_vertex_block_t b = {
            .first = g->v0 + i0,
            .count = n,
            .values = g->value + i0 * p->value_size,
            .messages = g->inbox + i0 * ms,
            .has_message = g->has_msg + i0,
            .halted = g->halted + i0,
            .edge_offsets = g->off + i0,
            .out_edges = g->adj,
            .out_edge_values = g->val,
            .send_all = g->bval + i0 * ms,
            .send_all_set = g->bset + i0,
        };
        v->i = i0;
        v->in_block = 1;
        p->compute_block(v, &b);
        v->in_block = 0;
        active += n - count_set(g->halted + i0, NULL, n);
        sent += count_set(g->bset + i0, g->has_out + i0, n);
    }
    /* As sgl_vertex_send_all() counts them: senders with out-edges. */
    g->nbcast = sent;
    if (sent && !g->fan.off)
        SGL_TRY(sgl__fan_build(g));
    *ret_active = active;
    return SGL_OK;
}

static int step_worker(sgl_ctx_t *ctx, const struct step_arg *a,
                       struct step_rec *r)
{
    struct wgraph *g = sgl__pregel_wgraph(ctx, a->graph);
    const sgl_pregel_program_t *p = sgl__pregel_program(a->prog);
    if (!g || !p)
        return sgl_error_set(SGL_ESTATE, "worker %zu has no graph %u or "
                                         "program %u",
                             sgl_ctx_first_worker(ctx), a->graph, a->prog);
    memset(r, 0, sizeof *r);
    sgl_vertex_t v = {g, p, 0, a->step, a->params, a->agg, r->agg, 0, 0};
    for (unsigned i = 0; i < p->naggs; i++)
        r->agg[i] = agg_identity(p->agg[i]);
    size_t nv = (size_t)(g->v1 - g->v0);
    if (a->kind == INIT || a->kind == LOAD) {
        SGL_TRY(setup(g, p));
        SGL_TRY(sgl__outbox_init(&g->out, g->n, p->msg_size));
        if (a->kind == LOAD)
            return sgl__ckpt_read(ctx, g, p, a->dir, a->step, a->ident,
                                  &r->files);
        for (v.i = 0; v.i < nv; v.i++)
            p->init(&v);
        return v.err;
    }
    size_t nw = sgl_machine_workers(sgl_ctx_machine(ctx));
    struct wire_stats in = {0, 0, 0}, out;
    if ((a->step > 0 && a->kind == STEP) || (a->kind == SEND && a->round)) {
        SGL_TRY(sgl__wire_deliver(ctx, g, p, &in));
        r->recv_bytes = in.bytes;
        r->recv_raw_bytes = in.raw * (sizeof(uint64_t) + p->msg_size);
    }
    if (a->kind == SEND)
        return sgl__wire_stage_round(ctx, g, p, nw, a->round, a->nrounds);
    if (a->ckpt)
        SGL_TRY(sgl__ckpt_write(ctx, g, p, a->dir, a->step, a->ident, a->agg,
                            &r->files));
    if (a->drop)
        sgl__ckpt_remove(ctx, a->dir, a->drop_step);
    if (p->begin) {
        v.in_block = 1;
        p->begin(&v);
        v.in_block = 0;
    }
    if (p->compute_block) {
        SGL_TRY(compute_blocks(g, p, &v, &r->active));
    } else {
        for (v.i = 0; v.i < nv; v.i++) {
            if (g->halted[v.i] && !g->has_msg[v.i])
                continue;
            g->halted[v.i] = 0;
            p->compute(&v);
            r->active += !g->halted[v.i];
        }
    }
    memset(g->has_msg, 0, nv);
    if (v.err)
        return v.err;
    if (a->budget)
        SGL_TRY(sgl__wire_plan(g, p, nw, &out, r->maxpair));
    else
        SGL_TRY(sgl__wire_stage(ctx, g, p, nw, &out));
    r->raw = out.raw;
    r->combined = out.combined;
    /* the w of the cost model: a unit per vertex looked at, per message
     * sent before combining (an edge read) and per message taken in */
    return sgl_ctx_add_work(ctx, (double)(nv + out.raw + in.combined));
}

/* Combine the children's records into one. */
static int combine_children(sgl_ctx_t *ctx, const sgl_pregel_program_t *p,
                            struct step_rec *r)
{
    memset(r, 0, sizeof *r);
    for (unsigned i = 0; i < p->naggs; i++)
        r->agg[i] = agg_identity(p->agg[i]);
    for (unsigned c = 0; c < sgl_ctx_children(ctx); c++) {
        const struct step_rec *x;
        size_t n;
        SGL_TRY(sgl_gather_block(ctx, c, sizeof *x, (const void **)&x, &n));
        if (n != 1)
            return sgl_error_set(SGL_ESIZE, "child %u handed up %zu records",
                                 c, n);
        r->active += x->active;
        r->files += x->files; /* modulo 2^64: any order */
        r->raw += x->raw;
        r->combined += x->combined;
        r->recv_bytes = x->recv_bytes > r->recv_bytes ? x->recv_bytes
                                                      : r->recv_bytes;
        r->recv_raw_bytes = x->recv_raw_bytes > r->recv_raw_bytes
                                ? x->recv_raw_bytes
                                : r->recv_raw_bytes;
        for (unsigned i = 0; i < p->naggs; i++)
            r->agg[i] = agg_combine(p->agg[i], r->agg[i], x->agg[i]);
        for (unsigned k = 0; k <= WIRE_ROUNDS_LOG; k++)
            r->maxpair[k] = fmax(r->maxpair[k], x->maxpair[k]);
    }
    return SGL_OK;
}

/* A superstep (or the init) below @ctx, its record in *@r. */
static int step_at(sgl_ctx_t *ctx, const struct step_arg *a,
                   struct step_rec *r);

static int step_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    struct step_rec r;
    SGL_TRY(step_at(ctx, arg, &r));
    return sgl_put(ctx, &r, sizeof r, 1);
}

static int step_at(sgl_ctx_t *ctx, const struct step_arg *a,
                   struct step_rec *r)
{
    if (sgl_ctx_is_worker(ctx))
        return step_worker(ctx, a, r);
    SGL_TRY(sgl_pardo(ctx, step_task, a, sizeof *a));
    return combine_children(ctx, sgl__pregel_program(a->prog), r);
}

/* ---- the root ---- */

static void account(sgl_pregel_stats_t *st, const struct step_rec *r)
{
    st->messages += r->raw;
    st->combined += r->combined;
    if (r->recv_bytes > st->max_worker_bytes)
        st->max_worker_bytes = r->recv_bytes;
    if (r->recv_raw_bytes > st->max_worker_bytes_uncombined)
        st->max_worker_bytes_uncombined = r->recv_raw_bytes;
}

static int check_run(sgl_ctx_t *root, const sgl_graph_t *g, uint32_t prog,
                     const double *params, const char *fn)
{
    if (!root || !g)
        return sgl_error_set(SGL_EINVAL, "%s: NULL argument", fn);
    const sgl_pregel_program_t *p = sgl__pregel_program(prog);
    if (!p)
        return sgl_error_set(SGL_EINVAL, "%s: no program %u", fn, prog);
    if (!sgl_ctx_is_root(root))
        return sgl_error_set(SGL_ESTATE, "%s: call it on the root", fn);
    double none[SGL_PREGEL_MAX_PARAMS] = {0};
    return p->check ? p->check(params ? params : none) : SGL_OK;
}

/* The checkpoints of a run: the last one made whole, and the one
 * before, whose files the next one removes. */
struct ckpt_state {
    int have_last, have_older;
    unsigned last, older;
};

/* Superstep @s with its checkpoint, if one is due: the workers write
 * their files, then the manifest makes it whole. */
static int step_with_checkpoint(sgl_ctx_t *root, sgl_graph_t *g,
                                struct step_arg *a, struct ckpt_state *ck,
                                const sgl_pregel_stats_t *st,
                                struct step_rec *r)
{
    const sgl_pregel_program_t *p = sgl__pregel_program(a->prog);
    a->ckpt = g->every && a->step > 0 && a->step % g->every == 0 &&
              a->kind == STEP;
    a->drop = a->ckpt && ck->have_older;
    a->drop_step = ck->older;
    SGL_TRY(step_at(root, a, r));
    if (!a->ckpt)
        return SGL_OK;
    struct ckpt_manifest m = {.step = a->step,
                              .n = g->n,
                              .m = g->m,
                              .graph = sgl__graph_identity(g),
                              .files = r->files,
                              .workers = sgl_ctx_workers(root),
                              .value_size = p->value_size,
                              .msg_size = p->msg_size,
                              .stats = *st,
                              .cuts = g->cuts};
    sgl__ckpt_program_name(p->name, m.program);
    memcpy(m.agg, a->agg, sizeof m.agg);
    memcpy(m.params, a->params, sizeof m.params);
    SGL_TRY(sgl__ckpt_manifest_write(g->dir, &m));
    ck->older = ck->last;
    ck->have_older = ck->have_last;
    ck->last = a->step;
    ck->have_last = 1;
    return SGL_OK;
}

/* Under a budget: superstep a->step's messages, planned in @r, in as
 * many rounds as the budget needs; the last round's exchange is left to
 * the caller. */
static int send_rounds(sgl_ctx_t *root, const sgl_graph_t *g,
                       struct step_arg *a, const struct step_rec *r,
                       sgl_pregel_stats_t *st)
{
    size_t nw = sgl_ctx_workers(root);
    double cap = (double)a->budget / (double)nw;
    unsigned k = 0;
    while (k <= WIRE_ROUNDS_LOG && r->maxpair[k] > cap)
        k++;
    if (k > WIRE_ROUNDS_LOG) {
        /* what the most rounds need from one worker to another, times the
         * workers, is the least budget that passes the test above */
        double need = r->maxpair[WIRE_ROUNDS_LOG];
        return sgl_error_set(SGL_ENOMEM,
                             "superstep %u: a budget of %llu bytes per "
                             "worker leaves %.0f bytes per round for the "
                             "messages one worker sends another (the budget "
                             "/ %zu workers); even split into the most "
                             "rounds, %u, a worker needs %.0f bytes per "
                             "round: raise the budget to at least %.0f bytes "
                             "(sgl_pregel_set_budget()), or 0 for no bound",
                             a->step, (unsigned long long)g->budget,
                             floor(cap), nw, 1u << WIRE_ROUNDS_LOG, need,
                             need * (double)nw);
    }
    uint32_t kind = a->kind;
    a->kind = SEND;
    a->nrounds = 1u << k;
    int rc = SGL_OK;
    for (a->round = 0; a->round < a->nrounds && !rc; a->round++) {
        struct step_rec rr;
        if (a->round > 0 && !(rc = sgl_exchange(root)))
            st->exchanges++;
        if (!rc && !(rc = step_at(root, a, &rr)))
            account(st, &rr);
    }
    a->kind = kind;
    return rc;
}

/* Supersteps from a->step on, until all halted with nothing sent or
 * @max have run in all (counted in @st). */
static int supersteps(sgl_ctx_t *root, sgl_graph_t *g, struct step_arg *a,
                      unsigned max, sgl_pregel_stats_t *st)
{
    struct ckpt_state ck = {0, 0, 0, 0};
    struct step_rec r;
    snprintf(a->dir, sizeof a->dir, "%s", g->dir);
    a->budget = g->budget;
    st->converged = 0;
    for (unsigned s = a->step; s < max; s++) {
        a->step = s;
        SGL_TRY(step_with_checkpoint(root, g, a, &ck, st, &r));
        a->kind = STEP;
        st->supersteps = s + 1;
        account(st, &r);
        memcpy(a->agg, r.agg, sizeof a->agg);
        if (r.active == 0 && r.combined == 0) {
            st->converged = 1;
            break;
        }
        if (a->budget && r.combined)
            SGL_TRY(send_rounds(root, g, a, &r, st));
        SGL_TRY(sgl_exchange(root));
        st->exchanges++;
    }
    memcpy(st->agg, a->agg, sizeof st->agg);
    return SGL_OK;
}

/* A run's first pardo, @kind INIT (fresh vertices) or LOAD (from the
 * checkpoint of superstep @step), leaving in @a the argument its
 * supersteps go on with. The graph names no program until it is done:
 * sgl_pregel_values() refuses half-made values. */
static int start(sgl_ctx_t *root, sgl_graph_t *g, uint32_t prog,
                 const double *params, uint32_t kind, unsigned step,
                 struct step_arg *a, uint64_t *ret_files)
{
    memset(a, 0, sizeof *a);
    a->graph = g->id;
    a->prog = prog;
    a->kind = kind;
    a->step = step;
    snprintf(a->dir, sizeof a->dir, "%s", g->dir);
    if (params)
        memcpy(a->params, params, sizeof a->params);
    a->ident = sgl__ckpt_ident(sgl__graph_identity(g),
                               sgl__pregel_program(prog), a->params);
    struct step_rec r;
    g->prog = 0;
    SGL_TRY(step_at(root, a, &r));
    g->prog = prog;
    if (ret_files)
        *ret_files = r.files;
    return SGL_OK;
}

int sgl_pregel_run(sgl_ctx_t *root, sgl_graph_t *g, uint32_t prog,
                   const double *params, unsigned max_supersteps,
                   sgl_pregel_stats_t *ret)
{
    SGL_TRY(check_run(root, g, prog, params, "sgl_pregel_run"));
    const sgl_pregel_program_t *p = sgl__pregel_program(prog);
    sgl_pregel_stats_t st;
    memset(&st, 0, sizeof st);
    struct step_arg a;
    SGL_TRY(start(root, g, prog, params, INIT, 0, &a, NULL));
    for (unsigned i = 0; i < p->naggs; i++)
        a.agg[i] = agg_identity(p->agg[i]);
    a.kind = STEP;
    SGL_TRY(supersteps(root, g, &a, max_supersteps, &st));
    if (ret)
        *ret = st;
    return SGL_OK;
}

int sgl_pregel_checkpoint(sgl_graph_t *g, const char *dir, unsigned every)
{
    if (!g || (every && (!dir || strlen(dir) > PREGEL_DIR_MAX)))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_pregel_checkpoint: NULL graph, or a folder "
                             "name missing or longer than %d bytes",
                             PREGEL_DIR_MAX);
    snprintf(g->dir, sizeof g->dir, "%s", every ? dir : "");
    g->every = every;
    return SGL_OK;
}

int sgl_pregel_set_budget(sgl_graph_t *g, size_t bytes_per_worker)
{
    if (!g)
        return sgl_error_set(SGL_EINVAL, "sgl_pregel_set_budget: NULL graph");
    g->budget = bytes_per_worker;
    return SGL_OK;
}

int sgl_pregel_resume(sgl_ctx_t *root, sgl_graph_t *g, uint32_t prog,
                      const double *params, unsigned max_supersteps,
                      sgl_pregel_stats_t *ret)
{
    SGL_TRY(check_run(root, g, prog, params, "sgl_pregel_resume"));
    if (!g->every)
        return sgl_error_set(SGL_ESTATE, "sgl_pregel_resume: no checkpoint "
                                         "folder (sgl_pregel_checkpoint())");
    const sgl_pregel_program_t *p = sgl__pregel_program(prog);
    double none[SGL_PREGEL_MAX_PARAMS] = {0};
    struct ckpt_manifest m;
    SGL_TRY(sgl__ckpt_manifest_read(g->dir, &m));
    free(m.cuts); /* the workers read it themselves */
    SGL_TRY(sgl__ckpt_check(g->dir, &m, g, p, params ? params : none));
    struct step_arg a;
    uint64_t files = 0;
    SGL_TRY(start(root, g, prog, params, LOAD, m.step, &a, &files));
    if (files != m.files) {
        g->prog = 0; /* values of files the manifest did not name */
        return sgl_error_set(SGL_EPARSE,
                             "checkpoint %s: the worker files of superstep "
                             "%u (w*.s%u.ckpt) are not those the manifest "
                             "names (checksums sum to %016llx, the manifest "
                             "records %016llx): files of another checkpoint",
                             g->dir, m.step, m.step,
                             (unsigned long long)files,
                             (unsigned long long)m.files);
    }
    memcpy(a.agg, m.agg, sizeof a.agg);
    a.kind = RESUMED;
    sgl_pregel_stats_t st = m.stats;
    SGL_TRY(supersteps(root, g, &a, max_supersteps, &st));
    if (ret)
        *ret = st;
    return SGL_OK;
}

/* ---- values ---- */

struct values_arg {
    uint32_t graph;
    uint32_t pad;
    uint64_t value_size;
};

static int values_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const struct values_arg *a = arg;
    if (sgl_ctx_is_master(ctx)) {
        SGL_TRY(sgl_pardo(ctx, values_task, arg, size));
        return sgl__algo_pass_up(ctx, a->value_size);
    }
    struct wgraph *g = sgl__pregel_wgraph(ctx, a->graph);
    if (!g || !g->value)
        return sgl_error_set(SGL_ESTATE, "worker %zu has no values of graph "
                                         "%u",
                             sgl_ctx_first_worker(ctx), a->graph);
    return sgl_put(ctx, g->value, a->value_size, (size_t)(g->v1 - g->v0));
}

int sgl_pregel_values(sgl_ctx_t *root, const sgl_graph_t *g, void *dst,
                      size_t capacity)
{
    if (!root || !g || !dst)
        return sgl_error_set(SGL_EINVAL, "sgl_pregel_values: NULL argument");
    const sgl_pregel_program_t *p = sgl__pregel_program(g->prog);
    if (!p)
        return sgl_error_set(SGL_ESTATE, "sgl_pregel_values: no run on "
                                         "graph %u",
                             g->id);
    if (capacity < g->n)
        return sgl_error_set(SGL_ESIZE, "sgl_pregel_values: room for %zu "
                                        "values, the graph has %llu",
                             capacity, (unsigned long long)g->n);
    if (sgl_ctx_is_worker(root)) {
        struct wgraph *w = sgl__pregel_wgraph(root, g->id);
        memcpy(dst, w->value, g->n * p->value_size);
        return SGL_OK;
    }
    struct values_arg a = {g->id, 0, p->value_size};
    SGL_TRY(sgl_pardo(root, values_task, &a, sizeof a));
    return sgl_gather(root, dst, p->value_size, capacity, NULL);
}

const struct algo_task sgl__algo_pregel_tasks[] = {
    {step_task, "sgl_pregel.step"},
    {values_task, "sgl_pregel.values"},
    {NULL, NULL},
};
