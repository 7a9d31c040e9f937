/* Shape strings ("node:16 core:8", "node:2 core:[3,5]"), an extension of
 * hwloc's synthetic topology syntax. The whole string is checked before
 * any node is allocated, so a bad shape costs nothing and every error can
 * name its token and where it starts. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "machine_impl.h"

/* hwloc's synthetic type names and their abbreviations map to one
 * canonical name each, so that trees from shapes and from hwloc print and
 * compare alike. */
static const struct {
    const char *alias;
    const char *type;
} type_names[] = {
    {"cluster", "cluster"}, {"rack", "rack"},         {"node", "node"},
    {"host", "host"},       {"rank", "rank"},         {"package", "package"},
    {"pack", "package"},    {"socket", "package"},    {"numa", "numa"},
    {"numanode", "numa"},   {"group", "group"},       {"die", "die"},
    {"l3", "l3"},           {"l3cache", "l3"},        {"l2", "l2"},
    {"l2cache", "l2"},      {"l1", "l1"},             {"l1cache", "l1"},
    {"l1d", "l1"},          {"l1dcache", "l1"},       {"core", "core"},
    {"pu", "pu"},           {"thread", "pu"},
};

struct level {
    const char *type; /* canonical name */
    size_t pos;       /* offset of the token in the string */
    unsigned count;   /* children per node of the level above; 0: list */
    unsigned *list;   /* one count per node of the level above */
    size_t size;      /* nodes on this level */
};

struct parser {
    const char *s;
    size_t i; /* current offset */
    struct level level[SGL__MAX_DEPTH];
    unsigned nlevels;
};

/* A token runs to the next blank outside brackets, so that "core:[3, 5]"
 * is reported whole. */
static size_t token_len(const char *s, size_t pos)
{
    size_t j = pos;
    int depth = 0;
    while (s[j] && (depth > 0 || !isspace((unsigned char)s[j]))) {
        if (s[j] == '[')
            depth++;
        else if (s[j] == ']')
            depth--;
        j++;
    }
    return j - pos;
}

/* Every part of the message that quotes the shape goes through
 * sgl__escape(): a control character in the input must not reach a
 * terminal or a log raw. */
__attribute__((format(printf, 3, 4))) static int
bad(const struct parser *p, size_t pos, const char *fmt, ...)
{
    char what[256], ew[512], es[512], et[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    size_t len = token_len(p->s, pos);
    return sgl_error_set(SGL_EPARSE,
                         "bad shape \"%s\": %s, in token '%s' at position %zu",
                         sgl__escape(p->s, 200, es, sizeof es),
                         sgl__escape(what, sizeof what, ew, sizeof ew),
                         sgl__escape(p->s + pos, len > 60 ? 60 : len, et,
                                     sizeof et),
                         pos + 1);
}

static void skip_blanks(struct parser *p)
{
    while (isspace((unsigned char)p->s[p->i]))
        p->i++;
}

static int at_separator(char c)
{
    return c == '\0' || isspace((unsigned char)c) || c == ',' || c == ']';
}

/* One count, at least 1. Digits beyond the worker limit are still
 * consumed so that the error names the whole number. */
static int parse_count(struct parser *p, size_t tok, unsigned *ret)
{
    const char *s = p->s;
    size_t at = p->i;
    if (s[at] == '-')
        return bad(p, tok, "negative count at position %zu", at + 1);
    if (!isdigit((unsigned char)s[at])) {
        if (at_separator(s[at]))
            return bad(p, tok, "missing count at position %zu", at + 1);
        return bad(p, tok, "unexpected character '%c' at position %zu",
                   s[at], at + 1);
    }
    size_t v = 0;
    int big = 0;
    while (isdigit((unsigned char)s[p->i])) {
        if (!big)
            v = 10 * v + (size_t)(s[p->i] - '0');
        big = big || v > SGL__MAX_WORKERS;
        p->i++;
    }
    if (big)
        return bad(p, tok, "count %.*s is more than the limit of %zu workers",
                   (int)(p->i - at), s + at, SGL__MAX_WORKERS);
    if (v == 0)
        return bad(p, tok, "zero count at position %zu", at + 1);
    *ret = (unsigned)v;
    return SGL_OK;
}

/* "[a,b,...]" with one entry per node of the level above; blanks are
 * allowed around the entries. */
static int parse_list(struct parser *p, struct level *lv, size_t above)
{
    size_t tok = lv->pos;
    if (above > SGL__MAX_WORKERS)
        return bad(p, tok, "a list for %zu nodes is too long", above);
    lv->list = malloc(above * sizeof *lv->list);
    if (!lv->list)
        return sgl_error_set(SGL_ENOMEM, "out of memory parsing a shape");
    size_t n = 0;
    p->i++; /* '[' */
    for (;;) {
        skip_blanks(p);
        unsigned c;
        int rc = parse_count(p, tok, &c);
        if (rc)
            return rc;
        if (n < above)
            lv->list[n] = c;
        n++;
        lv->size += c;
        skip_blanks(p);
        char ch = p->s[p->i];
        if (ch == ']')
            break;
        if (!ch)
            return bad(p, tok, "missing ']' at position %zu", p->i + 1);
        if (ch != ',')
            return bad(p, tok, "unexpected character '%c' at position %zu",
                       ch, p->i + 1);
        p->i++;
    }
    p->i++; /* ']' */
    if (n != above)
        return bad(p, tok,
                   "list of %zu counts but the level above has %zu node%s", n,
                   above, above == 1 ? "" : "s");
    return SGL_OK;
}

static int parse_level(struct parser *p)
{
    const char *s = p->s;
    size_t tok = p->i;
    if (p->nlevels == SGL__MAX_DEPTH)
        return bad(p, tok, "more than %u levels", SGL__MAX_DEPTH);
    struct level *lv = &p->level[p->nlevels++];
    memset(lv, 0, sizeof *lv);
    lv->pos = tok;

    while (isalnum((unsigned char)s[p->i]))
        p->i++;
    size_t n = p->i - tok;
    if (n == 0)
        return bad(p, tok, "unexpected character '%c' at position %zu", s[tok],
                   tok + 1);
    for (size_t k = 0; k < sizeof type_names / sizeof *type_names; k++)
        if (strlen(type_names[k].alias) == n &&
            strncasecmp(s + tok, type_names[k].alias, n) == 0)
            lv->type = type_names[k].type;
    if (!lv->type)
        return bad(p, tok,
                   "unknown type '%.*s' (known: cluster rack node host rank "
                   "package numa group die l3 l2 l1 core pu)",
                   (int)(n > 40 ? 40 : n), s + tok);
    if (at_separator(s[p->i]))
        return bad(p, tok, "missing ':count' after the type at position %zu",
                   p->i + 1);
    if (s[p->i] != ':')
        return bad(p, tok, "unexpected character '%c' at position %zu",
                   s[p->i], p->i + 1);
    p->i++;

    size_t above = p->nlevels > 1 ? p->level[p->nlevels - 2].size : 1;
    int rc;
    if (s[p->i] == '[') {
        rc = parse_list(p, lv, above);
    } else {
        rc = parse_count(p, tok, &lv->count);
        if (rc == SGL_OK && lv->count > SGL__MAX_WORKERS / above)
            return bad(p, tok, "more than the limit of %zu workers",
                       SGL__MAX_WORKERS);
        lv->size = above * lv->count;
    }
    if (rc)
        return rc;
    if (s[p->i] && !isspace((unsigned char)s[p->i]))
        return bad(p, tok, "unexpected character '%c' at position %zu",
                   s[p->i], p->i + 1);
    if (lv->size > SGL__MAX_WORKERS)
        return bad(p, tok, "more than the limit of %zu workers",
                   SGL__MAX_WORKERS);
    if (p->nlevels > 1) {
        const char *up = p->level[p->nlevels - 2].type;
        if (sgl__type_link(lv->type) == SGL_LINK_MPI &&
            sgl__type_link(up) == SGL_LINK_THREADS)
            return bad(p, tok,
                       "process type '%s' below thread type '%s' (MPI levels "
                       "must come first)",
                       lv->type, up);
    }
    return SGL_OK;
}

static int parse(struct parser *p)
{
    skip_blanks(p);
    if (!p->s[p->i]) {
        char es[512];
        return sgl_error_set(SGL_EPARSE,
                             "bad shape \"%s\": empty shape string, "
                             "expected tokens like \"node:16 core:8\"",
                             sgl__escape(p->s, 200, es, sizeof es));
    }
    size_t nodes = 1;
    while (p->s[p->i]) {
        int rc = parse_level(p);
        if (rc)
            return rc;
        const struct level *lv = &p->level[p->nlevels - 1];
        nodes += lv->size;
        /* Levels of count 1 add nodes without adding workers. */
        if (nodes > SGL__MAX_NODES)
            return bad(p, lv->pos, "more than the limit of %zu tree nodes",
                       SGL__MAX_NODES);
        skip_blanks(p);
    }
    return SGL_OK;
}

/* Level by level, as the parser already checked every size. */
static int build(const struct parser *p, struct sgl_node *root)
{
    struct sgl_node **front = malloc(sizeof *front);
    if (!front)
        return sgl_error_set(SGL_ENOMEM, "out of memory building a shape");
    front[0] = root;
    size_t nfront = 1;
    for (unsigned l = 0; l < p->nlevels; l++) {
        const struct level *lv = &p->level[l];
        struct sgl_node **next = malloc(lv->size * sizeof *next);
        if (!next) {
            free(front);
            return sgl_error_set(SGL_ENOMEM, "out of memory building a shape");
        }
        size_t nn = 0;
        for (size_t f = 0; f < nfront; f++) {
            unsigned count = lv->list ? lv->list[f] : lv->count;
            front[f]->link = sgl__type_link(lv->type);
            for (unsigned c = 0; c < count; c++) {
                struct sgl_node *n = sgl__node_new(lv->type, -1);
                if (!n || sgl__node_add(front[f], n)) {
                    free(n);
                    free(next);
                    free(front);
                    return SGL_ENOMEM;
                }
                next[nn++] = n;
            }
        }
        free(front);
        front = next;
        nfront = nn;
    }
    free(front);
    return SGL_OK;
}

int sgl_shape_counts(const char *shape, size_t *ret_processes,
                     size_t *ret_workers)
{
    if (!shape)
        return sgl_error_set(SGL_EINVAL, "sgl_shape_counts: NULL shape");
    struct parser *p = calloc(1, sizeof *p);
    if (!p)
        return sgl_error_set(SGL_ENOMEM, "out of memory parsing a shape");
    p->s = shape;
    int rc = parse(p);
    /* Process levels come first: the last of them has one node per
     * process; a shape of thread levels only is one process. */
    size_t procs = 1, workers = 1;
    for (unsigned l = 0; rc == SGL_OK && l < p->nlevels; l++) {
        if (sgl__type_link(p->level[l].type) == SGL_LINK_MPI)
            procs = p->level[l].size;
        workers = p->level[l].size;
    }
    for (unsigned l = 0; l < p->nlevels; l++)
        free(p->level[l].list);
    free(p);
    if (rc)
        return rc;
    if (ret_processes)
        *ret_processes = procs;
    if (ret_workers)
        *ret_workers = workers;
    return SGL_OK;
}

int sgl_machine_from_shape(const char *shape, const sgl_machine_opts_t *opts,
                           sgl_machine_t **ret_machine)
{
    if (!shape || !ret_machine)
        return sgl_error_set(SGL_EINVAL, "sgl_machine_from_shape: NULL "
                                         "argument");
    struct parser *p = calloc(1, sizeof *p);
    if (!p)
        return sgl_error_set(SGL_ENOMEM, "out of memory parsing a shape");
    p->s = shape;
    int rc = parse(p);
    struct sgl_node *root = NULL;
    if (rc == SGL_OK) {
        root = sgl__node_new("machine", -1);
        rc = root ? build(p, root) : SGL_ENOMEM;
    }
    for (unsigned l = 0; l < p->nlevels; l++)
        free(p->level[l].list);
    free(p);
    if (rc) {
        sgl__node_free(root);
        return rc;
    }
    size_t len = strlen(shape);
    char *source = malloc(len + sizeof "shape: ");
    if (!source) {
        sgl__node_free(root);
        return sgl_error_set(SGL_ENOMEM, "out of memory building a shape");
    }
    memcpy(source, "shape: ", sizeof "shape: " - 1);
    memcpy(source + sizeof "shape: " - 1, shape, len + 1);
    rc = sgl__machine_finish(root, opts ? opts->keep_single : 0, source,
                             ret_machine);
    free(source);
    return rc;
}
