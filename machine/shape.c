/* Shape strings ("rank:16 core:8", "rank:2 core:[3,5]"), an extension of
 * hwloc's synthetic topology syntax. The whole string is checked before
 * any node is allocated, so a bad shape costs nothing and every error can
 * name its token and where it starts. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "machine_impl.h"

/* Type names as hwloc's synthetic topologies (and `lstopo --of synthetic`)
 * write them, so that such a string means here what it means to hwloc:
 * case is ignored and, as in hwloc_type_sscanf(), a name may be cut to a
 * prefix of at least `min` letters ("pack", "Co"). Each maps to one
 * canonical name, so that trees from shapes and from hwloc print and
 * compare alike. SGL's process levels use words hwloc has no type for. */
static const struct {
    const char *name;
    size_t min;
    const char *type;
} type_names[] = {
    {"cluster", 7, "cluster"}, {"rack", 4, "rack"}, {"host", 4, "host"},
    {"rank", 4, "rank"},       {"package", 2, "package"},
    {"socket", 2, "package"},  {"numanode", 2, "numa"},
    {"die", 2, "die"},         {"group", 2, "group"},
    {"core", 2, "core"},       {"pu", 2, "pu"},
    {"thread", 6, "pu"},
};

#define KNOWN_TYPES                                                           \
    "cluster rack host rank (processes); package numa die group l1..l5 "    \
    "l1i..l3i core pu (threads)"

/* hwloc's memory children ("[NUMANode(memory=...)]", "[MemCache]") hold
 * memory, not processing units: they add no level to the tree. */
static const struct {
    const char *name;
    size_t min;
} memory_names[] = {{"numanode", 2}, {"memcache", 5}};

static int is_prefix(const char *s, size_t n, const char *name, size_t min)
{
    return n >= min && n <= strlen(name) && strncasecmp(s, name, n) == 0;
}

/* Caches as hwloc names them: L<depth>, then d (data), i (instruction) or
 * u (unified), then an optional "Cache": "L2", "L1dCache", "L1iCache".
 * Instruction caches are levels of their own, as in hwloc. */
static const char *cache_type(const char *s, size_t n)
{
    static const char *const data[] = {"l1", "l2", "l3", "l4", "l5"};
    static const char *const instr[] = {"l1i", "l2i", "l3i"};
    if (n < 2 || tolower((unsigned char)s[0]) != 'l' || s[1] < '1' ||
        s[1] > '5')
        return NULL;
    int depth = s[1] - '1';
    size_t i = 2;
    char kind = i < n ? (char)tolower((unsigned char)s[i]) : 0;
    if (kind == 'd' || kind == 'i' || kind == 'u')
        i++;
    else
        kind = 0;
    if (i < n && !(n - i == 5 && strncasecmp(s + i, "cache", 5) == 0))
        return NULL;
    if (kind != 'i')
        return data[depth];
    return depth < 3 ? instr[depth] : NULL;
}

/* The canonical type of the name s[0..n), or NULL. hwloc numbers group
 * levels ("Group0", "Group1"): the number is dropped. */
static const char *type_of(const char *s, size_t n)
{
    const char *cache = cache_type(s, n);
    if (cache)
        return cache;
    size_t letters = n;
    while (letters > 0 && isdigit((unsigned char)s[letters - 1]))
        letters--;
    for (size_t k = 0; k < sizeof type_names / sizeof *type_names; k++) {
        int group = strcmp(type_names[k].type, "group") == 0;
        if (is_prefix(s, group ? letters : n, type_names[k].name,
                      type_names[k].min) &&
            (group || letters == n))
            return type_names[k].type;
    }
    return NULL;
}

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
    int legacy_node; /* "node" is a process (machine files of format 1) */
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

/* hwloc's attributes, "(size=32768)" or "(memory=8684118016)", describe
 * sizes the tree does not use: they are skipped, brackets balanced. */
static int skip_attributes(struct parser *p, size_t tok)
{
    size_t open = p->i;
    int depth = 0;
    do {
        char c = p->s[p->i++];
        if (!c)
            return bad(p, tok, "missing ')' for the '(' at position %zu",
                       open + 1);
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    } while (depth > 0);
    return SGL_OK;
}

/* "[NUMANode(memory=...)]": a memory child of each node of the level
 * above, as lstopo writes them; it adds no level. */
static int skip_memory_child(struct parser *p)
{
    const char *s = p->s;
    size_t tok = p->i++, name = p->i;
    while (isalnum((unsigned char)s[p->i]))
        p->i++;
    size_t n = p->i - name;
    int known = 0;
    for (size_t k = 0; k < sizeof memory_names / sizeof *memory_names; k++)
        known = known || is_prefix(s + name, n, memory_names[k].name,
                                   memory_names[k].min);
    if (!known)
        return bad(p, tok,
                   "'[%.*s' is not a memory child (hwloc writes "
                   "'[NUMANode]' or '[MemCache]' there)",
                   (int)(n > 40 ? 40 : n), s + name);
    int rc = s[p->i] == '(' ? skip_attributes(p, tok) : SGL_OK;
    if (rc)
        return rc;
    if (s[p->i] != ']')
        return bad(p, tok, "missing ']' at position %zu", p->i + 1);
    p->i++;
    if (s[p->i] && !isspace((unsigned char)s[p->i]) && s[p->i] != '[')
        return bad(p, tok, "unexpected character '%c' at position %zu",
                   s[p->i], p->i + 1);
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
    if (isdigit((unsigned char)s[tok]))
        return bad(p, tok,
                   "a count without a type (hwloc guesses types from the "
                   "depth; SGL needs one per level: " KNOWN_TYPES ")");
    lv->type = type_of(s + tok, n);
    /* hwloc reads "node" as a NUMA node; SGL read it as an MPI process
     * in version 0.1. A shape written for either would run, wrongly,
     * under the other meaning, so the word is refused rather than
     * guessed. Machine files of format 1 still read it as a process
     * (see machine_file.c). */
    if (!lv->type && is_prefix(s + tok, n, "node", 2)) {
        if (!p->legacy_node)
            return bad(p, tok,
                       "'%.*s' is ambiguous: hwloc reads it as a NUMA node, "
                       "SGL 0.1 as an MPI process; write 'numa' or "
                       "'rank'",
                       (int)n, s + tok);
        lv->type = "rank";
    }
    if (!lv->type)
        return bad(p, tok, "unknown type '%.*s' (known: " KNOWN_TYPES ")",
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
    if (s[p->i] == '(' && (rc = skip_attributes(p, tok)))
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
                             "expected tokens like \"rank:16 core:8\"",
                             sgl__escape(p->s, 200, es, sizeof es));
    }
    size_t nodes = 1;
    while (p->s[p->i]) {
        if (p->s[p->i] == '[') {
            int rc = skip_memory_child(p);
            if (rc)
                return rc;
            skip_blanks(p);
            continue;
        }
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
    struct sgl__frontier front = {NULL, 0};
    int rc = sgl__frontier_init(&front, root, "shape");
    for (unsigned l = 0; rc == SGL_OK && l < p->nlevels; l++) {
        const struct level *lv = &p->level[l];
        rc = sgl__frontier_grow(&front, lv->list, lv->count, lv->size,
                                lv->type, sgl__type_link(lv->type), "shape");
    }
    sgl__frontier_free(&front);
    return rc;
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

static int from_shape(const char *shape, const sgl_machine_opts_t *opts,
                      int legacy_node, sgl_machine_t **ret_machine)
{
    if (!shape || !ret_machine)
        return sgl_error_set(SGL_EINVAL, "sgl_machine_from_shape: NULL "
                                         "argument");
    struct parser *p = calloc(1, sizeof *p);
    if (!p)
        return sgl_error_set(SGL_ENOMEM, "out of memory parsing a shape");
    p->s = shape;
    p->legacy_node = legacy_node;
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

int sgl_machine_from_shape(const char *shape, const sgl_machine_opts_t *opts,
                           sgl_machine_t **ret_machine)
{
    return from_shape(shape, opts, 0, ret_machine);
}

int sgl__machine_from_shape_v1(const char *shape,
                               const sgl_machine_opts_t *opts,
                               sgl_machine_t **ret_machine)
{
    return from_shape(shape, opts, 1, ret_machine);
}

int sgl__shape_levels(const char *shape, struct sgl__shape_level *ret,
                      unsigned *ret_n)
{
    struct parser *p = calloc(1, sizeof *p);
    if (!p)
        return sgl_error_set(SGL_ENOMEM, "out of memory parsing a shape");
    p->s = shape;
    int rc = parse(p);
    for (unsigned l = 0; rc == SGL_OK && l < p->nlevels; l++) {
        ret[l].type = p->level[l].type; /* a static canonical name */
        ret[l].count = p->level[l].list ? 0 : p->level[l].count;
        ret[l].size = p->level[l].size;
    }
    if (rc == SGL_OK)
        *ret_n = p->nlevels;
    for (unsigned l = 0; l < p->nlevels; l++)
        free(p->level[l].list);
    free(p);
    return rc;
}
