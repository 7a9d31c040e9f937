/* Runtime lifecycle: MPI start, machine tree, the contexts this process
 * plays, the task registry, and sgl_run's split between the root master
 * (runs the program) and every other process (serves its master). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <omp.h>

#include <sgl/machine_mpi.h>
#include <sgl/sgl_mpi.h>
#include <sgl/balance.h>

#include "child.h"
#include "exchange.h"
#include "level.h"
#include "runtime_impl.h"
#include "watchdog.h"

void sgl_opts_default(sgl_opts_t *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->bind = 1;
    opts->trace = 1;
}

uint32_t sgl__hash(const char *s)
{
    /* FNV-1a: enough to catch processes that registered different tasks. */
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static void ctx_free(struct sgl_ctx *c)
{
    if (!c)
        return;
    for (unsigned i = 0; c->child && i < c->node->arity; i++)
        ctx_free(c->child[i]);
    if (c->node->arity && sgl__level_of(c)->master_free)
        sgl__level_of(c)->master_free(c);
    sgl__ctx_states_free(c);
    free(c->child); /* and every per-child array (per_child_alloc) */
    free(c->xo_off);
    free(c->xin_off);
    free(c->xin_elems);
    sgl__buf_free(&c->xin);
    sgl__trace_free(&c->trace);
    sgl__buf_free(&c->down);
    sgl__buf_free(&c->up);
    free(c);
}

/* The next @bytes of a block being carved into arrays. */
static void *carve(char **b, size_t bytes)
{
    void *p = *b;
    *b += bytes;
    return p;
}

/* A master's per-child arrays, in the order a superstep uses them: carved
 * from one line-aligned block, so that with a few children they share a
 * few cache lines (as separate allocations they took one or two each).
 * All but the last have 8-byte entries, so none needs padding. */
#define PER_CHILD_ARRAYS(X)                                                 \
    X(child) X(counts) X(offsets) X(gdata) X(gbytes) X(pending) X(ctime)    \
    X(cwork) X(cdone) X(hsent) X(hrecv) X(returned)

static int per_child_alloc(struct sgl_ctx *c, size_t p)
{
    _Static_assert(sizeof(size_t) == 8 && sizeof(double) == 8 &&
                       sizeof(void *) == 8,
                   "the per-child arrays are carved without padding");
    size_t each = 0;
#define ENTRY_BYTES(f) each += sizeof *c->f;
    PER_CHILD_ARRAYS(ENTRY_BYTES)
#undef ENTRY_BYTES
    char *b = sgl__line_calloc(p * each);
    if (!b)
        return SGL_ENOMEM;
#define CARVE(f) c->f = carve(&b, p * sizeof *c->f);
    PER_CHILD_ARRAYS(CARVE)
#undef CARVE
    return SGL_OK;
}

/* Contexts for @n and every descendant this process plays. */
static struct sgl_ctx *ctx_new(struct sgl_runtime *rt, const struct sgl_node *n)
{
    struct sgl_ctx *c = sgl__line_calloc(sizeof *c);
    if (!c)
        return NULL;
    c->rt = rt;
    c->node = n;
    c->link = sgl__level_below(n);
    c->pu = sgl_node_os_index(sgl_machine_worker(rt->machine,
                                                 n->first_worker));
    unsigned p = n->arity;
    if (p == 0)
        return c;
    const struct sgl__level *link = sgl__level_of(c);
    if (per_child_alloc(c, p) != SGL_OK ||
        (link->master_init && link->master_init(c) != SGL_OK)) {
        ctx_free(c);
        return NULL;
    }
    for (unsigned i = 0; i < p; i++) {
        if (n->child[i]->rank != rt->rank)
            continue;
        c->child[i] = ctx_new(rt, n->child[i]);
        if (!c->child[i]) {
            ctx_free(c);
            return NULL;
        }
    }
    return c;
}

/* Tell every child across a link, below every master this process plays,
 * that the program ended. */
static int stop_below(struct sgl_ctx *c, int status, const char *msg)
{
    if (c->node->arity == 0)
        return SGL_OK;
    const struct sgl__level *link = sgl__level_of(c);
    int rc = link->stop ? link->stop(c, status, msg) : SGL_OK;
    for (unsigned i = 0; i < c->node->arity; i++) {
        int r = c->child[i] ? stop_below(c->child[i], status, msg) : SGL_OK;
        rc = rc ? rc : r;
    }
    return rc;
}

/* The highest node this process plays: the root for rank 0, else the node
 * whose parent is played by another rank. */
static const struct sgl_node *entry_node(const struct sgl_node *n, int rank)
{
    if (n->rank == rank)
        return n;
    for (unsigned i = 0; i < n->arity; i++) {
        const struct sgl_node *e = entry_node(n->child[i], rank);
        if (e)
            return e;
    }
    return NULL;
}

/* A setting from rank 0's environment, the same on every rank: ranks on
 * other hosts are started with a clean environment (as ssh does), so they
 * must not read their own. *ret is NULL when rank 0 has none. Collective. */
static int rank0_env(MPI_Comm comm, int rank, const char *name, char **ret)
{
    const char *v = rank == 0 ? getenv(name) : NULL;
    size_t n = v ? strlen(v) : 0;
    long long len = !v ? -1 : n < INT_MAX ? (long long)n : -2;
    *ret = NULL;
    if (MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, comm) != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "sgl_init: MPI_Bcast of %s failed",
                             name);
    if (len == -2)
        return sgl_error_set(SGL_EINVAL, "sgl_init: %s is 2 GiB or longer",
                             name);
    if (len < 0)
        return SGL_OK;
    char *s = malloc((size_t)len + 1);
    int ok = s != NULL, all = 0;
    if (s && rank == 0)
        memcpy(s, v, (size_t)len);
    if (MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS ||
        !all) {
        free(s);
        return sgl_error_set(SGL_ENOMEM, "sgl_init: out of memory for %s",
                             name);
    }
    if (MPI_Bcast(s, (int)len, MPI_CHAR, 0, comm) != MPI_SUCCESS) {
        free(s);
        return sgl_error_set(SGL_EMPI, "sgl_init: MPI_Bcast of %s failed",
                             name);
    }
    s[len] = '\0';
    *ret = s;
    return SGL_OK;
}

/* How a rank will build its machine tree, told to every rank before any
 * rank builds it: discovery is collective and a shape or an XML file is
 * not, so ranks that chose differently would wait in different
 * collectives for ever (one in discovery's MPI_Allgather, another in the
 * check of the built trees). */
enum { SRC_DISCOVER, SRC_SHAPE, SRC_XML };
struct tree_source {
    int32_t rc;      /* SGL_OK, or why this rank cannot build its tree */
    int32_t kind;    /* SRC_* */
    uint64_t digest; /* of the shape (blanks folded) or the XML's bytes */
    char what[160];  /* "shape 'rank:2' (opts.shape)", or rc's message */
};

/* FNV-1a over @p n bytes, 64 bits: enough to tell two sources apart. */
static uint64_t digest_bytes(const char *s, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 1099511628211u;
    return h;
}

/* A shape's digest with runs of blanks folded to one and none at the
 * ends: "rank:2  core:2" and "rank:2 core:2 " are one shape. */
static uint64_t digest_shape(const char *s)
{
    uint64_t h = 14695981039346656037u;
    int blank = 0, any = 0;
    for (; *s; s++) {
        if (*s == ' ' || *s == '\t' || *s == '\n') {
            blank = any;
            continue;
        }
        if (blank)
            h = digest_bytes(" ", 1, h);
        h = digest_bytes(s, 1, h);
        blank = 0;
        any = 1;
    }
    return h;
}

/* The shape and XML file the tree may come from, a shape first: the
 * program's options if it gave either, else rank 0's SGL_SHAPE and
 * SGL_XML. What the program asked for explicitly wins over the
 * environment, as a tool's command-line option does (sgl-machine --xml
 * over SGL_SHAPE); SGL_SHAPE used to beat opts.xml. */
static void source_pick(const sgl_opts_t *o, const char *env_shape,
                        const char *env_xml, const char **shape,
                        const char **xml)
{
    int given = o->shape || o->xml;
    *shape = given ? o->shape : env_shape;
    *xml = given ? o->xml : env_xml;
}

/* This rank's source (source_pick()): the shape, else the XML file,
 * else discovery. Local: reads the XML file (to digest its bytes) but
 * builds nothing. */
static void source_describe(const struct sgl_runtime *rt, const sgl_opts_t *o,
                            const char *env_shape, const char *env_xml,
                            struct tree_source *src)
{
    const char *shape, *xml;
    source_pick(o, env_shape, env_xml, &shape, &xml);
    char e[128];
    size_t procs = 0;
    memset(src, 0, sizeof *src);
    if (shape && *shape) {
        src->kind = SRC_SHAPE;
        src->digest = digest_shape(shape);
        snprintf(src->what, sizeof src->what, "shape '%s' (%s)",
                 sgl__escape(shape, 100, e, sizeof e),
                 o->shape ? "opts.shape" : "SGL_SHAPE");
        /* Before the tree is built: a shape of millions of nodes for the
         * wrong process count is refused at once. */
        src->rc = sgl_shape_counts(shape, &procs, NULL);
        if (src->rc == SGL_OK && procs != (size_t)rt->size)
            src->rc = sgl_error_set(SGL_ESHAPE,
                                    "sgl_init: the machine (shape: %s) needs "
                                    "%zu MPI process%s but %d %s running",
                                    e, procs, procs == 1 ? "" : "es",
                                    rt->size, rt->size == 1 ? "is" : "are");
    } else if (xml && *xml) {
        char *buf = NULL;
        size_t len = 0;
        src->kind = SRC_XML;
        src->rc = sgl__read_regular(xml, "hwloc XML file", SGL__XML_MAX_BYTES,
                                    &buf, &len);
        src->digest = buf ? digest_bytes(buf, len, 14695981039346656037u) : 0;
        free(buf);
        snprintf(src->what, sizeof src->what, "XML '%s' (%s)",
                 sgl__escape(xml, 100, e, sizeof e),
                 o->xml ? "opts.xml" : "SGL_XML");
    } else {
        src->kind = SRC_DISCOVER;
        snprintf(src->what, sizeof src->what, "discovery%s",
                 o->shape && !*o->shape ? " (opts.shape is empty)" : "");
    }
    if (src->rc)
        snprintf(src->what, sizeof src->what, "%s", sgl_error_last());
}

/* The sources of every rank, when they differ or one failed: gathered
 * and named in one message. Collective; every rank calls it or none. */
static int source_disagree(const struct sgl_runtime *rt,
                           const struct tree_source *mine)
{
    struct tree_source *all = malloc((size_t)rt->size * sizeof *all);
    int rc = sgl__agree(rt->comm, all ? SGL_OK : SGL_ENOMEM, "sgl_init");
    if (rc == SGL_OK &&
        MPI_Allgather(mine, sizeof *mine, MPI_BYTE, all, sizeof *mine,
                      MPI_BYTE, rt->comm) != MPI_SUCCESS)
        rc = SGL_EMPI;
    if (rc != SGL_OK) {
        free(all);
        return mine->rc ? mine->rc
                        : sgl_error_set(SGL_ESHAPE,
                                        "sgl_init: ranks disagree on the "
                                        "machine tree (this rank: %s)",
                                        mine->what);
    }
    for (int r = 0; r < rt->size; r++)
        if (all[r].rc != SGL_OK) {
            rc = mine->rc ? mine->rc
                          : sgl_error_set(all[r].rc,
                                          "sgl_init: rank %d cannot build its "
                                          "machine tree: %s",
                                          r, all[r].what);
            free(all);
            return rc;
        }
    char msg[SGL_ERRMSG_MAX];
    int len = snprintf(msg, sizeof msg, "sgl_init: ranks disagree on the "
                                        "machine tree: rank 0 %s",
                       all[0].what);
    for (int r = 1; r < rt->size && len < (int)sizeof msg; r++)
        if (all[r].kind != all[0].kind || all[r].digest != all[0].digest)
            len += snprintf(msg + len, sizeof msg - (size_t)len,
                            ", rank %d %s", r, all[r].what);
    free(all);
    return sgl_error_set(SGL_ESHAPE, "%s", msg);
}

/* One verdict on the sources before any tree is built: an MPI_Allreduce
 * of the smallest and largest status, kind and digest (no allocation,
 * so it cannot fail on one rank alone); only when they differ are the
 * sources gathered to say which rank has which. Collective. */
static int source_agree(const struct sgl_runtime *rt,
                        const struct tree_source *mine)
{
    /* Signed to unsigned keeping the order, then each value and its
     * complement: MIN of both gives the smallest and the largest. */
    uint64_t v[3] = {(uint64_t)(int64_t)mine->rc ^ ((uint64_t)1 << 63),
                     (uint64_t)mine->kind, mine->digest};
    uint64_t x[6], m[6];
    for (int i = 0; i < 3; i++)
        x[i] = v[i], x[3 + i] = ~v[i];
    if (MPI_Allreduce(x, m, 6, MPI_UINT64_T, MPI_MIN, rt->comm) !=
        MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "sgl_init: MPI_Allreduce of the "
                                       "machine tree's sources failed");
    int ok = m[0] == ((uint64_t)1 << 63); /* SGL_OK everywhere */
    for (int i = 0; i < 3; i++)
        ok &= m[i] == ~m[3 + i];
    return ok ? SGL_OK : source_disagree(rt, mine);
}

/* The tree: from every rank's agreed source (source_describe()).
 * Collective. */
static int build_machine(const struct sgl_runtime *rt, const sgl_opts_t *o,
                         sgl_machine_t **ret)
{
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    mo.keep_single = o->keep_single;
    mo.max_threads = o->max_threads;
    char *env_shape = NULL, *env_xml = NULL;
    /* Both read on every rank whatever the first gave: each is a
     * collective. */
    int rc = rank0_env(rt->comm, rt->rank, "SGL_SHAPE", &env_shape);
    int rc2 = rank0_env(rt->comm, rt->rank, "SGL_XML", &env_xml);
    struct tree_source src = {.rc = rc ? rc : rc2};
    if (src.rc)
        snprintf(src.what, sizeof src.what, "%s", sgl_error_last());
    else
        source_describe(rt, o, env_shape, env_xml, &src);
    rc = source_agree(rt, &src);
    const char *shape, *xml;
    source_pick(o, env_shape, env_xml, &shape, &xml);
    if (rc)
        ;
    else if (src.kind == SRC_SHAPE)
        rc = sgl_machine_from_shape(shape, &mo, ret);
    else if (src.kind == SRC_XML)
        rc = sgl_machine_from_xml(xml, &mo, ret);
    else
        rc = sgl_machine_discover_comm(rt->comm, &mo, ret);
    free(env_shape);
    free(env_xml);
    return rc;
}

/* A digest of the tree as this process built it: every node's level,
 * fan-out, link and rank, depth first (FNV-1a over the fields). */
static uint64_t tree_digest(const struct sgl_node *n, uint64_t h)
{
    uint64_t f[4] = {n->level, n->arity, (uint64_t)n->link,
                     (uint64_t)(int64_t)n->rank};
    for (int k = 0; k < 4; k++)
        for (int b = 0; b < 8; b++)
            h = (h ^ ((f[k] >> (8 * b)) & 0xff)) * 1099511628211u;
    for (unsigned i = 0; i < n->arity; i++)
        h = tree_digest(n->child[i], h);
    return h;
}

/* Every rank must run on the same tree: ranks given different shapes that
 * need the same number of processes would otherwise exchange commands
 * that do not match (wrong results or hangs). Collective. */
static int check_same_tree(struct sgl_runtime *rt)
{
    enum { SHAPE_MAX = 96 };
    uint64_t mine =
        tree_digest(sgl_machine_root(rt->machine), 14695981039346656037u);
    uint64_t *all = malloc((size_t)rt->size * sizeof *all);
    char *shapes = malloc((size_t)rt->size * SHAPE_MAX);
    int rc = all && shapes ? SGL_OK : SGL_ENOMEM;
    rc = sgl__agree(rt->comm,
                    rc ? sgl_error_set(rc, "sgl_init: out of memory") : SGL_OK,
                    "sgl_init");
    if (rc == SGL_OK &&
        MPI_Allgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T,
                      rt->comm) != MPI_SUCCESS)
        rc = sgl_error_set(SGL_EMPI, "sgl_init: MPI_Allgather failed");
    int differ = 0;
    for (int r = 1; rc == SGL_OK && r < rt->size; r++)
        differ |= all[r] != all[0];
    if (rc == SGL_OK && differ) {
        char shape[SHAPE_MAX] = {0};
        snprintf(shape, sizeof shape, "%s", sgl_machine_source(rt->machine));
        if (MPI_Allgather(shape, SHAPE_MAX, MPI_CHAR, shapes, SHAPE_MAX,
                          MPI_CHAR, rt->comm) != MPI_SUCCESS) {
            rc = sgl_error_set(SGL_EMPI, "sgl_init: MPI_Allgather failed");
        } else {
            char msg[SGL_ERRMSG_MAX];
            int len = snprintf(msg, sizeof msg,
                               "sgl_init: the ranks built different machine "
                               "trees (give every rank the same shape): "
                               "rank 0 has %s",
                               shapes);
            for (int r = 1; r < rt->size && len < (int)sizeof msg; r++)
                if (all[r] != all[0])
                    len += snprintf(msg + len, sizeof msg - (size_t)len,
                                    "; rank %d has %s", r,
                                    shapes + (size_t)r * SHAPE_MAX);
            rc = sgl_error_set(SGL_ESHAPE, "%s", msg);
        }
    }
    free(all);
    free(shapes);
    return rc;
}

/* The threads this process's thread levels run at once: on each path
 * down from the entry, the product of the capped team sizes. */
static double threads_at_once(const struct sgl_node *n, int rank,
                              unsigned team_max)
{
    if (n->arity == 0 || n->rank != rank)
        return 1;
    double most = 0;
    for (unsigned i = 0; i < n->arity; i++) {
        double t = threads_at_once(n->child[i], rank, team_max);
        most = t > most ? t : most;
    }
    if (!sgl__level_below(n)->threads)
        return most;
    return most * (n->arity < team_max ? n->arity : team_max);
}

static int has_thread_level(const struct sgl_node *n)
{
    if (n->arity == 0)
        return 0;
    if (sgl__level_below(n)->threads)
        return 1;
    for (unsigned i = 0; i < n->arity; i++)
        if (has_thread_level(n->child[i]))
            return 1;
    return 0;
}

/* Only a rank's master thread calls MPI, so a tree with a thread level
 * needs MPI_THREAD_FUNNELED; a tree of one worker per rank starts no
 * thread and runs on MPI_THREAD_SINGLE, which is all SimGrid's SMPI
 * gives. Under SMPI a thread level is refused whatever the level: its
 * clock belongs to the simulated rank's own thread (a worker thread
 * reading it crashed in smpi_clock_gettime, issue 46). */
static int check_thread_level(const struct sgl_runtime *rt)
{
    if (!has_thread_level(sgl_machine_root(rt->machine)))
        return SGL_OK;
#ifdef SGL_SIM
    return sgl_error_set(SGL_ESHAPE,
                         "sgl_init: the machine (%s) has a thread level, "
                         "which the simulation build (SimGrid SMPI) cannot "
                         "run: use a shape of MPI levels only, one worker "
                         "per rank (\"rank:16\", \"rack:4 rank:8\")",
                         sgl_machine_source(rt->machine));
#else
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    if (level < MPI_THREAD_FUNNELED)
        return sgl_error_set(SGL_EMPI,
                             "sgl_init_comm: the MPI library gives thread "
                             "level %d, and the machine (%s) has a thread "
                             "level, which needs MPI_THREAD_FUNNELED (%d); "
                             "a shape of MPI levels only runs on %d",
                             level, sgl_machine_source(rt->machine),
                             MPI_THREAD_FUNNELED, level);
    return SGL_OK;
#endif
}

/* Never ask OpenMP for more threads than it can give: libgomp crashes or
 * exits the process when thread creation fails. Each team is capped; a
 * tree whose nested teams would still need too many threads is refused
 * before any thread starts. */
static int plan_threads(struct sgl_runtime *rt, int pus)
{
    unsigned cap = pus > SGL__TEAM_MIN_CAP ? (unsigned)pus : SGL__TEAM_MIN_CAP;
    int limit = omp_get_thread_limit();
    if (limit > 0 && (unsigned)limit < cap)
        cap = (unsigned)limit;
    rt->team_max = cap;
    double need = threads_at_once(rt->entry->node, rt->rank, cap);
    double most = limit > 0 && limit < SGL__THREADS_MAX ? limit
                                                        : SGL__THREADS_MAX;
    if (need > most)
        return sgl_error_set(SGL_ESHAPE,
                             "sgl_init: rank %d would run %.0f threads at "
                             "once on its nested thread levels (teams "
                             "capped at %u); the limit is %.0f (the smaller "
                             "of %d and OMP_THREAD_LIMIT): use a shape with "
                             "fewer nested threads",
                             rt->rank, need, cap, most, SGL__THREADS_MAX);
    return SGL_OK;
}

/* More worker threads than cores is allowed (tests run 8-worker shapes on
 * 2 cores) but timings then mean nothing: say so, since the library never
 * prints. Returns the processing units the process may use (0 unknown). */
static int check_oversubscription(struct sgl_runtime *rt)
{
    size_t mine = sgl__rank_workers(rt->machine, rt->rank);
    int pus = sgl__process_pus(rt->topo);
    rt->oversubscribed = sgl__oversub_warning(
        rt->warning, sizeof rt->warning, 1, rt->rank, mine, mine, pus);
    return pus;
}

/* Ranks that each fit their processing units can still overcommit their
 * host together (mpirun --bind-to none, every rank on a tree of all the
 * cores): add up the workers of the ranks that share this host's memory.
 * Collective over the runtime's ranks. */
static void check_host(struct sgl_runtime *rt)
{
    size_t mine = sgl__rank_workers(rt->machine, rt->rank);
    MPI_Comm local;
    if (MPI_Comm_split_type(rt->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                            &local) != MPI_SUCCESS)
        return;
    unsigned long long m = mine, all = 0;
    int ranks = 0;
    int ok = MPI_Allreduce(&m, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                           local) == MPI_SUCCESS &&
             MPI_Comm_size(local, &ranks) == MPI_SUCCESS;
    MPI_Comm_free(&local);
    int pus = rt->topo ? hwloc_get_nbobjs_by_type(rt->topo, HWLOC_OBJ_PU) : 0;
    /* The first warning stands: this rank's own is the more precise. */
    char w[sizeof rt->warning];
    int over = ok && ranks > 1 &&
               sgl__oversub_warning(w, sizeof w, ranks, rt->rank, (size_t)all, mine,
                                    pus);
    rt->oversubscribed |= over;
    if (over && !rt->warning[0])
        snprintf(rt->warning, sizeof rt->warning, "%s", w);
}

/* The watchdog's limit: the option, else SGL_WATCHDOG; rank 0's holds on
 * every rank, since remote ranks need not inherit its environment. */
/* A boolean environment variable, read the usual ways. */
static int env_bool(const char *name, const char *v, int *ret)
{
    static const char *const yes[] = {"1", "on", "true", "yes"};
    static const char *const no[] = {"0", "off", "false", "no"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        if (strcasecmp(v, yes[i]) == 0)
            return *ret = 1, SGL_OK;
        if (strcasecmp(v, no[i]) == 0)
            return *ret = 0, SGL_OK;
    }
    return sgl_error_set(SGL_EINVAL, "sgl_init: %s='%.64s' is not a "
                                     "boolean (1/0, on/off, true/false, "
                                     "yes/no)",
                         name, v);
}

int sgl__same_shape(const sgl_machine_t *a, const sgl_machine_t *b)
{
    if (sgl_machine_depth(a) != sgl_machine_depth(b) ||
        sgl_machine_workers(a) != sgl_machine_workers(b))
        return 0;
    for (unsigned l = 0; l <= sgl_machine_depth(a); l++)
        if (sgl_machine_level_size(a, l) != sgl_machine_level_size(b, l) ||
            sgl_machine_level_masters(a, l) != sgl_machine_level_masters(b, l))
            return 0;
    return 1;
}

/* This process's workers by index, for the exchange: a process plays the
 * workers of one subtree, a contiguous range. */
static void index_workers(struct sgl_ctx *c, struct sgl_runtime *rt)
{
    if (c->node->arity == 0) {
        if (rt->wn == 0)
            rt->wfirst = c->node->first_worker;
        rt->wctx[rt->wn++] = c;
        return;
    }
    for (unsigned i = 0; i < c->node->arity; i++)
        if (c->child[i])
            index_workers(c->child[i], rt);
}

/* Rank 0's @p name, one of the @p n @p words in any case: its index
 * into *ret_index, left as it was when the variable is unset or empty;
 * any other value is refused with a message that lists the words
 * ("a, b or c"). Collective. */
static int env_word(struct sgl_runtime *rt, const char *name,
                    const char *const *words, unsigned n, unsigned *ret_index)
{
    char *env = NULL;
    int rc = rank0_env(rt->comm, rt->rank, name, &env);
    if (rc == SGL_OK && env && *env) {
        unsigned k = 0;
        while (k < n && strcasecmp(env, words[k]) != 0)
            k++;
        if (k < n) {
            *ret_index = k;
        } else {
            char list[128] = "";
            size_t off = 0;
            for (unsigned i = 0; i < n && off < sizeof list; i++)
                off += (size_t)snprintf(list + off, sizeof list - off, "%s%s",
                                        i == 0       ? ""
                                        : i + 1 == n ? " or "
                                                     : ", ",
                                        words[i]);
            rc = sgl_error_set(SGL_EINVAL, "sgl_init: %s='%.64s' is not %s",
                               name, env, list);
        }
    }
    free(env);
    return rc;
}

/* The exchange's execution at every level: rank 0's SGL_EXCHANGE into
 * *ret_method (3: the runtime's choice). Collective. */
static int exchange_setting(struct sgl_runtime *rt, unsigned *ret_method)
{
    static const char *const names[] = {"auto", "direct", "routed"};
    return env_word(rt, "SGL_EXCHANGE", names, 3, ret_method);
}

/* The exchange's tables and tasks: local, so that a failure here (out of
 * memory) comes after every collective of sgl_init's settings. The
 * runtime's own tasks come first in the registry, in every process. */
static int exchange_prepare(struct sgl_runtime *rt, unsigned method)
{
    size_t levels = (size_t)sgl_machine_depth(rt->machine) + 1;
    rt->xmethod = calloc(levels, 1);
    rt->xauto = calloc(levels, 1);
    rt->wctx = calloc(sgl_machine_workers(rt->machine), sizeof *rt->wctx);
    if (!rt->xmethod || !rt->xauto || !rt->wctx)
        return sgl_error_set(SGL_ENOMEM, "sgl_init: out of memory");
    index_workers(rt->entry, rt);
    if (method < 3)
        memset(rt->xmethod, (int)method, levels);
    int rc = sgl_task_register(rt, sgl__xt_mpi, "sgl.exchange");
    if (rc == SGL_OK)
        rc = sgl_task_register(rt, sgl__xr_up, "sgl.exchange.up");
    if (rc == SGL_OK)
        rc = sgl_task_register(rt, sgl__xr_down, "sgl.exchange.down");
    return rc;
}

/* The balance: rank 0's SGL_BALANCE (speed or workers), else by speed,
 * which is by worker count until parameters with per-worker c arrive. */
static int balance_setting(struct sgl_runtime *rt)
{
    static const char *const names[] = {"speed", "workers"};
    unsigned k = 0;
    int rc = env_word(rt, "SGL_BALANCE", names, 2, &k);
    rt->balance = k == 1 ? SGL_BALANCE_WORKERS : SGL_BALANCE_SPEED;
    return rc;
}

/* The refit after each run: rank 0's SGL_REFIT, off or a window of 1 to
 * SGL_REFIT_WINDOW_MAX fits (sgl_runtime_set_refit()). */
static int refit_setting(struct sgl_runtime *rt)
{
    static const char *const names[] = {"off", "1", "2", "3", "4",
                                        "5",   "6", "7", "8"};
    _Static_assert(sizeof names / sizeof *names == SGL_REFIT_WINDOW_MAX + 1,
                   "a name for every window");
    unsigned k = 0;
    int rc = env_word(rt, "SGL_REFIT", names, SGL_REFIT_WINDOW_MAX + 1, &k);
    rt->refit = k;
    return rc;
}

/* How MPI waits wait: rank 0's SGL_WAIT (active, passive or auto), by
 * default active unless this host is oversubscribed. Polling flat out
 * answers at once, and a rank with a core of its own has nothing better
 * to do with it; backing off frees the core for the threads and ranks
 * that share it, but wakes up to a sleep late (up to 250 us), which on
 * two ranks took PSRS's four supersteps from 19 us to 0.6 ms. Each rank
 * applies the policy to its own host's state. */
static int wait_setting(struct sgl_runtime *rt)
{
    static const char *const names[] = {"active", "passive", "auto"};
    unsigned k = 2;
    int rc = env_word(rt, "SGL_WAIT", names, 3, &k);
    rt->wait_active = k == 2 ? !rt->oversubscribed : k == 0;
    return rc;
}

/* The watchdog's limit: the option, else rank 0's SGL_WATCHDOG. */
static int watchdog_setting(struct sgl_runtime *rt, const sgl_opts_t *opts)
{
    char *env = NULL;
    int rc = rank0_env(rt->comm, rt->rank, "SGL_WATCHDOG", &env);
    double t = opts->watchdog;
    if (rc == SGL_OK && !(t > 0) && env && *env) {
        char *end;
        t = strtod(env, &end);
        if (*end || !(t > 0 && t < 1e9))
            rc = sgl_error_set(SGL_EINVAL,
                               "sgl_init: SGL_WATCHDOG='%.64s' is not a "
                               "number of seconds in (0, 1e9)",
                               env);
    }
    free(env);
    rt->watchdog = t > 0 && t < 1e9 ? t : 0;
    return rc;
}

/* A failed sgl_init after the runtime exists: free it, keeping the
 * message (sgl_finalize() may set its own). Every rank calls it with the
 * same verdict, so that the collective frees match. */
static int init_fail(struct sgl_runtime *rt, int rc)
{
    char msg[SGL_ERRMSG_MAX];
    snprintf(msg, sizeof msg, "%s", sgl_error_last());
    sgl_finalize(rt);
    return sgl_error_set(rc, "%s", msg);
}

/* The runtime on its own communicators. @p pre is this rank's verdict on
 * its arguments, agreed on first so that a rank refusing them does not
 * leave the others waiting in MPI_Comm_dup. Collective. */
static int runtime_new(MPI_Comm user, int own_mpi, int pre,
                       struct sgl_runtime **ret)
{
    int rc = sgl__agree(user, pre, "sgl_init");
    if (rc != SGL_OK)
        return rc;
    struct sgl_runtime *rt = sgl__line_calloc(sizeof *rt);
    rc = sgl__agree(user,
                    rt ? SGL_OK
                       : sgl_error_set(SGL_ENOMEM, "sgl_init: out of memory"),
                    "sgl_init");
    if (rc != SGL_OK) {
        free(rt);
        return rc;
    }
    rt->own_mpi = own_mpi;
    rt->omp_levels = -1;
    rt->comm = rt->xcomm = MPI_COMM_NULL;
    if (MPI_Comm_dup(user, &rt->comm) != MPI_SUCCESS) {
        free(rt);
        return sgl_error_set(SGL_EMPI, "sgl_init: MPI_Comm_dup failed");
    }
    /* A failed MPI call must come back as a status, not abort the job. */
    MPI_Comm_set_errhandler(rt->comm, MPI_ERRORS_RETURN);
    /* The direct exchange's messages travel on a communicator of their
     * own: its tags can then never match a command's or a reply's, whose
     * tags the levels number. */
    if (MPI_Comm_dup(rt->comm, &rt->xcomm) != MPI_SUCCESS) {
        MPI_Comm_free(&rt->comm);
        free(rt);
        return sgl_error_set(SGL_EMPI, "sgl_init: MPI_Comm_dup failed");
    }
    MPI_Comm_rank(rt->comm, &rt->rank);
    MPI_Comm_size(rt->comm, &rt->size);
    *ret = rt;
    return SGL_OK;
}

/* The tree, the same on every rank, and the contexts this rank plays on
 * it. Each step that can fail on one rank alone ends in a verdict every
 * rank shares before the next collective. */
static int tree_setup(struct sgl_runtime *rt, const sgl_opts_t *opts)
{
    int rc = build_machine(rt, opts, &rt->machine);
    if (rc == SGL_OK &&
        sgl_machine_processes(rt->machine) != (size_t)rt->size)
        rc = sgl_error_set(
            SGL_ESHAPE,
            "sgl_init: the machine (%s) needs %zu MPI processes but %d "
            "are running",
            sgl_machine_source(rt->machine),
            sgl_machine_processes(rt->machine), rt->size);
    rc = sgl__agree(rt->comm, rc, "sgl_init");
    if (rc == SGL_OK)
        rc = check_same_tree(rt);
    if (rc == SGL_OK)
        rc = sgl__agree(rt->comm, check_thread_level(rt), "sgl_init");
    if (rc != SGL_OK)
        return rc;
    const struct sgl_node *e =
        entry_node(sgl_machine_root(rt->machine), rt->rank);
    rt->entry = e ? ctx_new(rt, e) : NULL;
    if (!rt->entry)
        rc = sgl_error_set(SGL_ENOMEM, "sgl_init: out of memory "
                                       "building contexts");
    rc = sgl__agree(rt->comm, rc, "sgl_init");
    if (rc != SGL_OK)
        return rc;
#ifdef SGL_SIM
    /* No hwloc under SMPI (discover.c says why): nothing to bind to. */
    rt->topo = NULL;
#else
    if (hwloc_topology_init(&rt->topo) != 0 ||
        hwloc_topology_load(rt->topo) != 0) {
        if (rt->topo)
            hwloc_topology_destroy(rt->topo);
        rt->topo = NULL;
    }
#endif
    /* Binding only makes sense when the workers are real cores, and is
     * the user's when OpenMP is told where to place threads (its own
     * variables, read by this process's OpenMP). */
    rt->bind = opts->bind && rt->topo &&
               sgl_node_os_index(sgl_machine_worker(rt->machine, 0)) >= 0 &&
               !getenv("OMP_PLACES") && !getenv("OMP_PROC_BIND");
    int pus = rt->topo ? check_oversubscription(rt) : 0;
    rc = sgl__agree(rt->comm, plan_threads(rt, pus), "sgl_init");
    if (rc == SGL_OK)
        check_host(rt);
    return rc;
}

/* The settings from rank 0's environment, then the steps that need no
 * other rank. Every setting is read by a collective (rank0_env()) and
 * its verdict is the same everywhere (the same text, checked the same
 * way), so every rank reads the same ones; the local steps come after
 * the last collective, and one verdict covers them. Collective. */
static int settings_setup(struct sgl_runtime *rt, const sgl_opts_t *opts)
{
    char *env_trace = NULL;
    int trace_env = 1;
    unsigned xmethod = 3;
    int rc = rank0_env(rt->comm, rt->rank, "SGL_TRACE", &env_trace);
    if (rc == SGL_OK && env_trace && *env_trace)
        rc = env_bool("SGL_TRACE", env_trace, &trace_env);
    rt->trace = opts->trace && trace_env;
    free(env_trace);
    rt->trace_max = opts->trace_max ? opts->trace_max : SGL__TRACE_MAX_DEFAULT;
    rt->share_result = opts->share_result;
    if (rc == SGL_OK)
        rc = exchange_setting(rt, &xmethod);
    if (rc == SGL_OK)
        rc = balance_setting(rt);
    if (rc == SGL_OK)
        rc = wait_setting(rt);
    if (rc == SGL_OK)
        rc = refit_setting(rt);
    if (rc == SGL_OK)
        rc = watchdog_setting(rt, opts);
    if (rc == SGL_OK)
        rc = exchange_prepare(rt, xmethod);
    if (rc == SGL_OK)
        rc = sgl__watchdog_start(rt);
    return sgl__agree(rt->comm, rc, "sgl_init");
}

static int init_on(MPI_Comm user, int own_mpi, int pre,
                   const sgl_opts_t *opts, sgl_runtime_t **ret_rt)
{
    sgl_opts_t defaults;
    if (!opts) {
        sgl_opts_default(&defaults);
        opts = &defaults;
    }
    struct sgl_runtime *rt = NULL;
    int rc = runtime_new(user, own_mpi, pre, &rt);
    if (rc != SGL_OK)
        return rc;
    if ((rc = tree_setup(rt, opts)) != SGL_OK ||
        (rc = settings_setup(rt, opts)) != SGL_OK)
        return init_fail(rt, rc);
    /* One origin for every process's trace times. */
    MPI_Barrier(rt->comm);
    rt->epoch = 0;
    rt->epoch = sgl__now(rt);
    /* Nested thread levels (package -> core) are nested parallel regions;
     * the program's own setting comes back at sgl_finalize(). */
    rt->omp_levels = omp_get_max_active_levels();
    omp_set_max_active_levels((int)sgl_machine_depth(rt->machine) + 1);
    *ret_rt = rt;
    return SGL_OK;
}

int sgl_init(int *argc, char ***argv, const sgl_opts_t *opts,
             sgl_runtime_t **ret_rt)
{
    int inited = 0, finished = 0, own = 0;
    MPI_Finalized(&finished);
    if (finished)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_init: MPI was finalised (by an earlier "
                             "sgl_finalize?) and cannot start again; to run "
                             "several runtimes in one process, initialise "
                             "MPI yourself and use sgl_init_comm()");
    MPI_Initialized(&inited);
    if (!inited) {
        int provided;
        if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
            MPI_SUCCESS)
            return sgl_error_set(SGL_EMPI, "sgl_init: MPI_Init_thread failed");
        own = 1;
    }
    /* A NULL ret_rt is refused in sgl_init_comm(), after every rank has
     * heard of it: returning here would leave the others waiting. */
    int rc = sgl_init_comm(MPI_COMM_WORLD, opts, ret_rt);
    if (rc != SGL_OK && own) {
        char msg[SGL_ERRMSG_MAX];
        snprintf(msg, sizeof msg, "%s", sgl_error_last());
        MPI_Finalize();
        return sgl_error_set(rc, "%s", msg);
    }
    if (rc == SGL_OK)
        (*ret_rt)->own_mpi = own;
    return rc;
}

int sgl_init_comm(MPI_Comm comm, const sgl_opts_t *opts,
                  sgl_runtime_t **ret_rt)
{
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_init_comm: MPI is not initialised");
    if (comm == MPI_COMM_NULL)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_init_comm: MPI_COMM_NULL communicator");
    /* Refusals of this rank's arguments are agreed on in init_on(), so
     * that every rank of @p comm returns. */
    int pre = SGL_OK;
    if (!ret_rt)
        pre = sgl_error_set(SGL_EINVAL, "sgl_init: ret_rt is NULL");
    /* The thread level MPI gives is checked against the tree, once it
     * is built (check_thread_level()). */
    return init_on(comm, 0, pre, opts, ret_rt);
}

int sgl_finalize(sgl_runtime_t *rt)
{
    if (!rt)
        return SGL_OK;
    sgl__watchdog_stop(rt);
    if (rt->omp_levels >= 0)
        omp_set_max_active_levels(rt->omp_levels);
    ctx_free(rt->entry);
    sgl_machine_free(rt->machine);
    sgl_machine_free(rt->params);
    if (rt->topo)
        hwloc_topology_destroy(rt->topo);
    for (size_t i = 0; i < rt->ntasks; i++)
        free(rt->tasks[i].name);
    free(rt->tasks);
    free(rt->index);
    free(rt->wctx);
    free(rt->xmethod);
    free(rt->xauto);
    free(rt->speed);
    sgl__fits_free(rt);
    sgl__buf_free(&rt->result);
    if (rt->xcomm != MPI_COMM_NULL)
        MPI_Comm_free(&rt->xcomm);
    if (rt->comm != MPI_COMM_NULL)
        MPI_Comm_free(&rt->comm);
    int own = rt->own_mpi;
    free(rt);
    if (own && MPI_Finalize() != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "sgl_finalize: MPI_Finalize failed");
    return SGL_OK;
}

int sgl_task_register(sgl_runtime_t *rt, sgl_task_fn fn, const char *name)
{
    if (!rt || !fn || !name)
        return sgl_error_set(SGL_EINVAL, "sgl_task_register: NULL argument");
    for (size_t i = 0; i < rt->ntasks; i++)
        if (rt->tasks[i].fn == fn || strcmp(rt->tasks[i].name, name) == 0)
            return sgl_error_set(SGL_EINVAL,
                                 "sgl_task_register: task '%s' is already "
                                 "registered (as '%s')",
                                 name, rt->tasks[i].name);
    if (rt->ntasks == rt->cap_tasks) {
        size_t cap = rt->cap_tasks ? 2 * rt->cap_tasks : 16;
        struct sgl_task_entry *t = realloc(rt->tasks, cap * sizeof *t);
        if (!t)
            return sgl_error_set(SGL_ENOMEM, "sgl_task_register: out of "
                                             "memory");
        rt->tasks = t;
        rt->cap_tasks = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return sgl_error_set(SGL_ENOMEM, "sgl_task_register: out of memory");
    rt->tasks[rt->ntasks++] =
        (struct sgl_task_entry){fn, copy, sgl__hash(name)};
    return SGL_OK;
}

/* Send the root's result to every process (share_result): its size, then
 * whether every process could make room for it (so that none waits in a
 * broadcast another left), then its bytes in pieces that fit MPI's int
 * counts. Every process knows the program's status, so all of them take
 * part or none. */
static int share_result(struct sgl_runtime *rt)
{
    uint64_t bytes = rt->rank == 0 ? rt->entry->up_bytes : 0;
    if (MPI_Bcast(&bytes, 1, MPI_UINT64_T, 0, rt->comm) != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "sgl_run: broadcasting the result "
                                       "size failed");
    char *data = rt->entry->up.data;
    int room = 1, all = 0;
    if (rt->rank != 0) {
        room = sgl__buf_reserve(&rt->result, (size_t)bytes) == SGL_OK;
        data = rt->result.data;
        rt->result_bytes = (size_t)bytes;
    }
    if (MPI_Allreduce(&room, &all, 1, MPI_INT, MPI_MIN, rt->comm) !=
        MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "sgl_run: agreeing on the result "
                                       "failed");
    if (!all)
        return sgl_error_set(SGL_ENOMEM,
                             "sgl_run: %s no memory for the %llu-byte result",
                             room ? "another rank has" : "this rank has",
                             (unsigned long long)bytes);
    const uint64_t piece = (uint64_t)1 << 30;
    for (uint64_t off = 0; off < bytes; off += piece) {
        int n = (int)(bytes - off < piece ? bytes - off : piece);
        if (MPI_Bcast(data + off, n, MPI_BYTE, 0, rt->comm) != MPI_SUCCESS)
            return sgl_error_set(SGL_EMPI, "sgl_run: broadcasting the "
                                           "result failed");
    }
    return SGL_OK;
}

int sgl_run(sgl_runtime_t *rt, sgl_task_fn task, const void *arg,
            size_t arg_size)
{
    if (!rt)
        return sgl_error_set(SGL_EINVAL, "sgl_run: runtime is NULL");
    rt->has_result = 0;
    double started = sgl__now(rt);
    int status;
    if (rt->entry->node->parent) {
        /* A child process: serve, then pass the stop on. */
        status = sgl__level_above(rt->entry)->serve(rt);
    } else if (!task) {
        status = sgl_error_set(SGL_EINVAL, "sgl_run: task is NULL");
    } else if (arg_size > 0 && !arg) {
        /* As sgl_pardo(): the task would read arg_size bytes at NULL. */
        status = sgl_error_set(SGL_EINVAL,
                               "sgl_run: arg is NULL but arg_size is %zu",
                               arg_size);
    } else {
        /* The root runs as a child of the run: its block is the argument
         * (copied at its first sgl_recv()), its hand-up the result. */
        struct sgl_ctx *root = rt->entry;
        rt->run_arg = arg;
        rt->run_arg_size = arg_size;
        root->down_data = NULL;
        root->down_bytes = 0;
        root->parent_seq = -1;
        sgl__run_child(root, task, arg, arg_size);
        status = root->status;
        rt->run_arg = NULL;
        rt->run_arg_size = 0;
    }
    char msg[SGL_ERRMSG_MAX];
    snprintf(msg, sizeof msg, "%s", sgl_error_last());
    /* Blocks staged for an exchange that never ran (the program failed
     * or forgot it) point into the workers' memory: they must not reach
     * the next program's exchange. */
    for (size_t w = 0; w < rt->wn; w++)
        sgl__xo_clear(rt->wctx[w]);
    int rc = stop_below(rt->entry, status, msg);
    if (!rc && status == SGL_OK && rt->share_result)
        rc = share_result(rt);
    if (rt->refit && rt->balance_kernel[0]) {
        /* The refit is collective: every process first learns whether
         * the run succeeded everywhere. */
        int all = sgl__agree(rt->comm, rc ? rc : status < 0 ? status : SGL_OK,
                             "sgl_run");
        if (all == SGL_OK && (rc = sgl__refit_run(rt, started)) != SGL_OK) {
            snprintf(msg, sizeof msg, "%s", sgl_error_last());
            return sgl_error_set(rc, "sgl_run: the run succeeded, the refit "
                                     "after it failed: %s",
                                 msg);
        }
    }
    if (rc)
        return rc;
    if (status < 0)
        return sgl_error_set(status, "%s", msg);
    rt->has_result = rt->rank == 0 || rt->share_result;
    return status;
}

int sgl_run_result(const sgl_runtime_t *rt, size_t elem_size,
                   const void **ret_data, size_t *ret_count)
{
    if (!rt || !ret_data || !ret_count)
        return sgl_error_set(SGL_EINVAL, "sgl_run_result: NULL argument");
    if (elem_size == 0)
        return sgl_error_set(SGL_EINVAL, "sgl_run_result: elem_size is 0");
    if (!rt->has_result)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_run_result: no result on rank %d: no run "
                             "succeeded yet%s",
                             rt->rank,
                             rt->rank && !rt->share_result
                                 ? ", or the result stays on rank 0 "
                                   "(set sgl_opts_t.share_result)"
                                 : "");
    const struct sgl_ctx *root = rt->entry;
    size_t bytes = rt->rank == 0 ? root->up_bytes : rt->result_bytes;
    if (bytes % elem_size)
        return sgl_error_set(SGL_ESIZE,
                             "sgl_run_result: the result has %zu bytes, not "
                             "a multiple of the element size %zu",
                             bytes, elem_size);
    *ret_data = rt->rank == 0 ? root->up.data : rt->result.data;
    *ret_count = bytes / elem_size;
    return SGL_OK;
}

const sgl_machine_t *sgl_runtime_machine(const sgl_runtime_t *rt)
{
    return rt->machine;
}

int sgl_runtime_rank(const sgl_runtime_t *rt) { return rt->rank; }

const char *sgl_runtime_warning(const sgl_runtime_t *rt)
{
    return rt && rt->warning[0] ? rt->warning : NULL;
}
