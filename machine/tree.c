/* The machine tree as data: node allocation, collapsing of single-child
 * levels, numbering of levels, workers and ranks, and the accessors. */
#include <stdlib.h>
#include <string.h>

#include "machine_impl.h"

struct sgl_node *sgl__node_new(const char *type, int os_index)
{
    /* Line-aligned, so that the fields a superstep reads (first in the
     * struct) share one cache line. */
    struct sgl_node *n = sgl__line_calloc(sizeof *n);
    if (!n) {
        sgl_error_set(SGL_ENOMEM, "out of memory allocating a tree node");
        return NULL;
    }
    snprintf(n->type, sizeof n->type, "%s", type);
    n->os_index = os_index;
    n->rank = -1;
    return n;
}

int sgl__node_add(struct sgl_node *parent, struct sgl_node *child)
{
    if (parent->arity == parent->cap) {
        unsigned cap = parent->cap ? 2 * parent->cap : 4;
        struct sgl_node **c = realloc(parent->child, cap * sizeof *c);
        if (!c)
            return sgl_error_set(SGL_ENOMEM,
                                 "out of memory adding a child to a %s node",
                                 parent->type);
        parent->child = c;
        parent->cap = cap;
    }
    parent->child[parent->arity++] = child;
    child->parent = parent;
    return SGL_OK;
}

void sgl__node_free(struct sgl_node *n)
{
    if (!n)
        return;
    for (unsigned i = 0; i < n->arity; i++)
        sgl__node_free(n->child[i]);
    free(n->child);
    free(n->host);
    free(n);
}

/* Replace every single-child master by its child. The child keeps its own
 * type, link and hardware identity: a package with one L3 with two cores
 * becomes one master of two cores. */
static struct sgl_node *collapse(struct sgl_node *n)
{
    while (n->arity == 1) {
        struct sgl_node *c = n->child[0];
        c->parent = n->parent;
        if (!c->host && n->host) {
            c->host = n->host;
            n->host = NULL;
        }
        /* A discovered process keeps its MPI rank when its single child
         * takes its place (a rank bound to one core becomes that core). */
        if (c->rank < 0)
            c->rank = n->rank;
        n->arity = 0;
        sgl__node_free(n);
        n = c;
    }
    for (unsigned i = 0; i < n->arity; i++) {
        n->child[i] = collapse(n->child[i]);
        n->child[i]->parent = n;
    }
    return n;
}

struct numbering {
    size_t workers;
    size_t processes;
    unsigned depth;
};

/* Depth-first numbering. A process is a node reached over an MPI link (or
 * the root) whose own link is not MPI: it and everything below live in one
 * rank. Processes are numbered depth-first unless the builder preset their
 * rank: discovery presets the MPI_COMM_WORLD rank, because a round-robin
 * mapping of ranks to hosts cannot be both grouped by host and in rank
 * order. An MPI master is played by the rank of its first child. */
static int number(struct sgl_node *n, unsigned level, unsigned index,
                  int process_rank, struct numbering *num)
{
    int in_process = process_rank >= 0;
    /* Bounds the recursion here and lets printers size per-level arrays. */
    if (level > SGL__MAX_DEPTH)
        return sgl_error_set(SGL_EINVAL, "the tree is deeper than %u levels",
                             SGL__MAX_DEPTH);
    n->level = level;
    n->index = index;
    if (level > num->depth)
        num->depth = level;
    if (n->arity == 0)
        n->link = SGL_LINK_NONE;
    if (in_process) {
        n->rank = process_rank;
    } else if (n->link != SGL_LINK_MPI) {
        if (n->rank < 0)
            n->rank = (int)num->processes;
        num->processes++;
        in_process = 1;
    }
    n->first_worker = num->workers;
    if (n->arity == 0) {
        num->workers++;
        n->workers = 1;
        return SGL_OK;
    }
    n->workers = 0;
    for (unsigned i = 0; i < n->arity; i++) {
        struct sgl_node *c = n->child[i];
        if (in_process && n->link == SGL_LINK_MPI)
            return sgl_error_set(SGL_EINVAL,
                                 "an MPI level (%s) is below a thread level",
                                 c->type);
        int rc = number(c, level + 1, i, in_process ? n->rank : -1, num);
        if (rc)
            return rc;
        n->workers += c->workers;
    }
    if (!in_process)
        n->rank = n->child[0]->rank;
    return SGL_OK;
}

/* Preset ranks must number the processes 0..P-1 exactly once, or the
 * runtime would send to a rank that plays nothing. Every process has at
 * least one worker, so it suffices that the workers' ranks cover 0..P-1. */
static int check_ranks(const struct sgl_machine *m)
{
    unsigned char *seen = calloc(m->processes, 1);
    if (!seen)
        return sgl_error_set(SGL_ENOMEM, "out of memory checking ranks");
    size_t distinct = 0;
    int rc = SGL_OK;
    for (size_t i = 0; i < m->workers && rc == SGL_OK; i++) {
        int r = m->worker[i]->rank;
        if (r < 0 || (size_t)r >= m->processes)
            rc = sgl_error_set(SGL_EINVAL,
                               "worker %zu has rank %d, outside 0..%zu", i, r,
                               m->processes - 1);
        else if (!seen[r]) {
            seen[r] = 1;
            distinct++;
        }
    }
    if (rc == SGL_OK && distinct != m->processes)
        rc = sgl_error_set(SGL_EINVAL,
                           "%zu processes but only %zu distinct ranks",
                           m->processes, distinct);
    free(seen);
    return rc;
}

static void fill_levels(struct sgl_machine *m, struct sgl_node *n)
{
    m->level_size[n->level]++;
    n->machine = m;
    if (n->arity == 0)
        m->worker[n->first_worker] = n;
    else
        m->level_masters[n->level]++;
    for (unsigned i = 0; i < n->arity; i++)
        fill_levels(m, n->child[i]);
}

/* Depth-first order visits the masters of each level left to right, so
 * a cursor per level (master_first, advanced here and reset after) lists
 * them in the order sgl_machine_master() promises. */
static void fill_masters(struct sgl_machine *m, struct sgl_node *n,
                         size_t *cursor)
{
    if (n->arity == 0)
        return;
    n->master_index = cursor[n->level] - m->master_first[n->level];
    m->master[cursor[n->level]++] = n;
    for (unsigned i = 0; i < n->arity; i++)
        fill_masters(m, n->child[i], cursor);
}

/* The per-level parameter tables, the master index and the shape string
 * that sgl_machine_save() writes. */
static int finish_params(struct sgl_machine *m)
{
    size_t nmasters = 0;
    for (unsigned l = 0; l <= m->depth; l++)
        nmasters += m->level_masters[l];
    m->params = calloc(m->depth + 1, sizeof *m->params);
    m->master_first = calloc(m->depth + 1, sizeof *m->master_first);
    m->master = calloc(nmasters ? nmasters : 1, sizeof *m->master);
    size_t *cursor = calloc(m->depth + 1, sizeof *cursor);
    if (!m->params || !m->master_first || !m->master || !cursor) {
        free(cursor);
        return sgl_error_set(SGL_ENOMEM, "out of memory building a machine");
    }
    for (unsigned l = 1; l <= m->depth; l++)
        m->master_first[l] = m->master_first[l - 1] + m->level_masters[l - 1];
    memcpy(cursor, m->master_first, (m->depth + 1) * sizeof *cursor);
    fill_masters(m, m->root, cursor);
    free(cursor);
    return sgl__machine_shape_string(m, &m->shape);
}

int sgl__machine_finish(struct sgl_node *root, int keep_single,
                        const char *source, sgl_machine_t **ret_machine)
{
    if (!keep_single)
        root = collapse(root);
    root->parent = NULL;
    struct numbering num = {0, 0, 0};
    int rc = number(root, 0, 0, -1, &num);
    if (rc) {
        sgl__node_free(root);
        return rc;
    }
    struct sgl_machine *m = calloc(1, sizeof *m);
    if (m) {
        m->level_size = calloc(num.depth + 1, sizeof *m->level_size);
        m->level_masters = calloc(num.depth + 1, sizeof *m->level_masters);
        m->worker = calloc(num.workers, sizeof *m->worker);
        m->source = strdup(source ? source : "");
    }
    if (!m || !m->level_size || !m->level_masters || !m->worker ||
        !m->source) {
        if (m) {
            free(m->level_size);
            free(m->level_masters);
            free(m->worker);
            free(m->source);
            free(m);
        }
        sgl__node_free(root);
        return sgl_error_set(SGL_ENOMEM, "out of memory building a machine");
    }
    m->root = root;
    m->depth = num.depth;
    m->workers = num.workers;
    m->processes = num.processes;
    fill_levels(m, root);
    rc = check_ranks(m);
    if (rc == SGL_OK)
        rc = finish_params(m);
    if (rc) {
        sgl_machine_free(m);
        return rc;
    }
    *ret_machine = m;
    return SGL_OK;
}

void sgl_machine_opts_default(sgl_machine_opts_t *opts)
{
    memset(opts, 0, sizeof *opts);
}

void sgl_machine_free(sgl_machine_t *m)
{
    if (!m)
        return;
    sgl__node_free(m->root);
    free(m->level_size);
    free(m->level_masters);
    free(m->worker);
    free(m->source);
    free(m->shape);
    free(m->master);
    free(m->master_first);
    free(m->params);
    sgl__machine_params_free(m);
    free(m);
}

int sgl__frontier_init(struct sgl__frontier *f, struct sgl_node *root,
                       const char *what)
{
    f->node = malloc(sizeof *f->node);
    if (!f->node)
        return sgl_error_set(SGL_ENOMEM, "out of memory building a %s",
                             what);
    f->node[0] = root;
    f->n = 1;
    return SGL_OK;
}

int sgl__frontier_grow(struct sgl__frontier *f, const unsigned *counts,
                       unsigned count, size_t size, const char *type,
                       sgl_link_t link, const char *what)
{
    struct sgl_node **next = malloc(size * sizeof *next);
    if (!next)
        return sgl_error_set(SGL_ENOMEM, "out of memory building a %s",
                             what);
    size_t nn = 0;
    for (size_t i = 0; i < f->n; i++) {
        unsigned k = counts ? counts[i] : count;
        f->node[i]->link = link;
        for (unsigned c = 0; c < k; c++) {
            struct sgl_node *n = sgl__node_new(type, -1);
            if (!n || sgl__node_add(f->node[i], n)) {
                free(n);
                free(next);
                return SGL_ENOMEM;
            }
            next[nn++] = n;
        }
    }
    free(f->node);
    f->node = next;
    f->n = nn;
    return SGL_OK;
}

void sgl__frontier_free(struct sgl__frontier *f)
{
    free(f->node);
    f->node = NULL;
    f->n = 0;
}

/* The fan-outs and links sgl_machine_from_fanouts() takes: none 0, links
 * MPI above threads, and at most SGL__MAX_WORKERS workers and
 * SGL__MAX_NODES nodes (which keeps the frontiers' sizes from
 * overflowing). */
static int check_fanouts(const unsigned *fanouts, const sgl_link_t *links,
                         unsigned nlevels)
{
    size_t level_size = 1, nodes = 1;
    for (unsigned l = 0; l < nlevels; l++) {
        if (fanouts[l] == 0)
            return sgl_error_set(SGL_EINVAL,
                                 "sgl_machine_from_fanouts: fan-out of level "
                                 "%u is 0",
                                 l + 1);
        sgl_link_t k = links ? links[l] : SGL_LINK_THREADS;
        if (k != SGL_LINK_MPI && k != SGL_LINK_THREADS)
            return sgl_error_set(SGL_EINVAL,
                                 "sgl_machine_from_fanouts: link of level %u "
                                 "is neither MPI nor threads",
                                 l + 1);
        if (k == SGL_LINK_MPI && l > 0 && links[l - 1] == SGL_LINK_THREADS)
            return sgl_error_set(SGL_EINVAL,
                                 "sgl_machine_from_fanouts: MPI level %u is "
                                 "below a thread level",
                                 l + 1);
        if (fanouts[l] > SGL__MAX_WORKERS / level_size ||
            level_size * fanouts[l] > SGL__MAX_NODES - nodes)
            return sgl_error_set(SGL_EINVAL,
                                 "sgl_machine_from_fanouts: more than %zu "
                                 "workers or %zu nodes at level %u",
                                 SGL__MAX_WORKERS, SGL__MAX_NODES, l + 1);
        level_size *= fanouts[l];
        nodes += level_size;
    }
    return SGL_OK;
}

int sgl_machine_from_fanouts(const unsigned *fanouts, const sgl_link_t *links,
                             unsigned nlevels, const sgl_machine_opts_t *opts,
                             sgl_machine_t **ret_machine)
{
    if ((!fanouts && nlevels > 0) || !ret_machine)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_from_fanouts: NULL argument");
    if (nlevels > SGL__MAX_DEPTH)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_from_fanouts: %u levels, more than "
                             "%u",
                             nlevels, SGL__MAX_DEPTH);
    int rc = check_fanouts(fanouts, links, nlevels);
    if (rc)
        return rc;
    struct sgl_node *root = sgl__node_new("machine", -1);
    if (!root)
        return SGL_ENOMEM;
    struct sgl__frontier front = {NULL, 0};
    rc = sgl__frontier_init(&front, root, "machine");
    for (unsigned l = 0; rc == SGL_OK && l < nlevels; l++) {
        sgl_link_t k = links ? links[l] : SGL_LINK_THREADS;
        const char *type =
            k == SGL_LINK_MPI ? "rank" : (l + 1 == nlevels ? "core" : "group");
        rc = sgl__frontier_grow(&front, NULL, fanouts[l],
                                front.n * fanouts[l], type, k, "machine");
    }
    sgl__frontier_free(&front);
    if (rc) {
        sgl__node_free(root);
        return sgl_error_set(SGL_ENOMEM, "out of memory building a machine");
    }
    return sgl__machine_finish(root, opts ? opts->keep_single : 0,
                               "fan-outs", ret_machine);
}

const sgl_node_t *sgl_machine_root(const sgl_machine_t *m) { return m->root; }
unsigned sgl_machine_depth(const sgl_machine_t *m) { return m->depth; }
size_t sgl_machine_workers(const sgl_machine_t *m) { return m->workers; }
size_t sgl_machine_processes(const sgl_machine_t *m) { return m->processes; }
const char *sgl_machine_source(const sgl_machine_t *m) { return m->source; }

size_t sgl_machine_level_size(const sgl_machine_t *m, unsigned level)
{
    return level <= m->depth ? m->level_size[level] : 0;
}

size_t sgl_machine_level_masters(const sgl_machine_t *m, unsigned level)
{
    return level <= m->depth ? m->level_masters[level] : 0;
}

const sgl_node_t *sgl_machine_worker(const sgl_machine_t *m, size_t i)
{
    return i < m->workers ? m->worker[i] : NULL;
}

unsigned sgl_node_level(const sgl_node_t *n) { return n->level; }
unsigned sgl_node_arity(const sgl_node_t *n) { return n->arity; }
const sgl_node_t *sgl_node_child(const sgl_node_t *n, unsigned i)
{
    return i < n->arity ? n->child[i] : NULL;
}
const sgl_node_t *sgl_node_parent(const sgl_node_t *n) { return n->parent; }
unsigned sgl_node_index(const sgl_node_t *n) { return n->index; }
sgl_link_t sgl_node_link(const sgl_node_t *n) { return n->link; }
const char *sgl_node_type(const sgl_node_t *n) { return n->type; }
int sgl_node_os_index(const sgl_node_t *n) { return n->os_index; }
int sgl_node_rank(const sgl_node_t *n) { return n->rank; }
size_t sgl_node_workers(const sgl_node_t *n) { return n->workers; }
size_t sgl_node_first_worker(const sgl_node_t *n) { return n->first_worker; }
const char *sgl_node_host(const sgl_node_t *n) { return n->host; }

const char *sgl_link_name(sgl_link_t link)
{
    switch (link) {
    case SGL_LINK_THREADS:
        return "threads";
    case SGL_LINK_MPI:
        return "mpi";
    case SGL_LINK_NONE:
        break;
    }
    return "none";
}
