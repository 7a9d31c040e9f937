/* Trees for people (an lstopo-like listing and a per-level table) and for
 * programs (JSON). */
#include <ctype.h>
#include <string.h>

#include <sgl/version.h>

#include "json.h"
#include "machine_impl.h"

struct printer {
    FILE *out;
    unsigned max_lines;
    int ranks; /* print ranks: only when there is more than one */
    /* L# of the next node on each level. As in lstopo it counts across
     * the whole tree, but per level rather than per type, because levels
     * are what SGL runs on. Elided runs are counted too, so that the
     * numbers after them stay right. */
    size_t next[SGL__MAX_DEPTH + 1];
};

/* Two subtrees print alike up to indices, ranks and os_index. */
static int same_shape(const struct sgl_node *a, const struct sgl_node *b)
{
    if (a->arity != b->arity || a->link != b->link ||
        strcmp(a->type, b->type) != 0)
        return 0;
    for (unsigned i = 0; i < a->arity; i++)
        if (!same_shape(a->child[i], b->child[i]))
            return 0;
    return 1;
}

static void skip(struct printer *pr, const struct sgl_node *n)
{
    pr->next[n->level]++;
    for (unsigned i = 0; i < n->arity; i++)
        skip(pr, n->child[i]);
}

/* "8 cores", "1 node", "3 children" (for mixed types). */
static void print_children(FILE *out, const struct sgl_node *n)
{
    const char *type = n->child[0]->type;
    for (unsigned i = 1; type && i < n->arity; i++)
        if (strcmp(n->child[i]->type, type) != 0)
            type = NULL;
    if (type)
        fprintf(out, "%u %s%s", n->arity, type, n->arity == 1 ? "" : "s");
    else
        fprintf(out, "%u %s", n->arity, n->arity == 1 ? "child" : "children");
}

static void print_node(struct printer *pr, const struct sgl_node *n)
{
    FILE *out = pr->out;
    size_t lindex = pr->next[n->level]++;
    fprintf(out, "%*s", 2 * (int)n->level, "");
    if (n->parent)
        fprintf(out, "%s L#%zu", n->type, lindex);
    else
        fprintf(out, "%c%s", toupper((unsigned char)n->type[0]), n->type + 1);
    if (n->os_index >= 0)
        fprintf(out, " P#%d", n->os_index);
    if (n->host)
        fprintf(out, " host %s", n->host);
    if (n->arity == 0)
        fprintf(out, " worker %zu", n->first_worker);
    if (n->parent && pr->ranks)
        fprintf(out, " rank %d", n->rank);
    if (n->arity > 0) {
        fprintf(out, " (%s to ", sgl_link_name(n->link));
        print_children(out, n);
        fputc(')', out);
    }
    fputc('\n', out);

    for (unsigned i = 0; i < n->arity;) {
        unsigned run = 1;
        while (i + run < n->arity &&
               same_shape(n->child[i], n->child[i + run]))
            run++;
        unsigned shown = pr->max_lines && run > pr->max_lines ? pr->max_lines
                                                              : run;
        for (unsigned k = 0; k < shown; k++)
            print_node(pr, n->child[i + k]);
        if (shown < run) {
            const struct sgl_node *last = n->child[i + shown - 1];
            size_t last_index = pr->next[last->level] - 1;
            for (unsigned k = shown; k < run; k++)
                skip(pr, n->child[i + k]);
            fprintf(out, "%*s... %u more %s%s like %s L#%zu\n",
                    2 * (int)last->level, "", run - shown, last->type,
                    run - shown == 1 ? "" : "s", last->type, last_index);
        }
        i += run;
    }
}

struct level_stats {
    const char *type; /* NULL once two types were seen */
    int mixed;
    size_t wmin, wmax;   /* workers per node */
    unsigned fmin, fmax; /* fan-out of the masters */
    unsigned links;      /* bit per sgl_link_t of the masters */
};

static void gather_stats(struct level_stats *st, const struct sgl_node *n)
{
    struct level_stats *s = &st[n->level];
    if (!s->type && !s->mixed) {
        s->type = n->type;
        s->wmin = s->wmax = n->workers;
    } else if (s->type && strcmp(s->type, n->type) != 0) {
        s->type = NULL;
        s->mixed = 1;
    }
    if (n->workers < s->wmin)
        s->wmin = n->workers;
    if (n->workers > s->wmax)
        s->wmax = n->workers;
    if (n->arity > 0) {
        if (!s->links || n->arity < s->fmin)
            s->fmin = n->arity;
        if (n->arity > s->fmax)
            s->fmax = n->arity;
        s->links |= 1u << n->link;
    }
    for (unsigned i = 0; i < n->arity; i++)
        gather_stats(st, n->child[i]);
}

static void print_range(FILE *out, size_t lo, size_t hi)
{
    char buf[48];
    if (lo == hi)
        snprintf(buf, sizeof buf, "%zu", lo);
    else
        snprintf(buf, sizeof buf, "%zu-%zu", lo, hi);
    fprintf(out, "  %12s", buf);
}

static void print_table(const sgl_machine_t *m, FILE *out)
{
    struct level_stats st[SGL__MAX_DEPTH + 1];
    memset(st, 0, sizeof st);
    gather_stats(st, m->root);
    fprintf(out, "\n%5s  %-8s  %9s  %9s  %12s  %12s  %s\n", "level", "type",
            "nodes", "masters", "workers/node", "fan-out", "link");
    for (unsigned l = 0; l <= m->depth; l++) {
        const struct level_stats *s = &st[l];
        fprintf(out, "%5u  %-8s  %9zu  %9zu", l, s->mixed ? "mixed" : s->type,
                m->level_size[l], m->level_masters[l]);
        print_range(out, s->wmin, s->wmax);
        if (s->links)
            print_range(out, s->fmin, s->fmax);
        else
            fprintf(out, "  %12s", "-");
        fputs("  ", out);
        const char *sep = "";
        for (unsigned k = SGL_LINK_THREADS; k <= SGL_LINK_MPI; k++)
            if (s->links & (1u << k)) {
                fprintf(out, "%s%s", sep, sgl_link_name((sgl_link_t)k));
                sep = "+";
            }
        fputs(s->links ? "\n" : "-\n", out);
    }
}

static int finish_output(FILE *out)
{
    if (fflush(out) || ferror(out))
        return sgl_error_set(SGL_EIO, "writing the machine tree failed");
    return SGL_OK;
}

int sgl_machine_print(const sgl_machine_t *m, FILE *out, unsigned max_lines)
{
    if (!m || !out)
        return sgl_error_set(SGL_EINVAL, "sgl_machine_print: NULL argument");
    fprintf(out, "Source: %s; %zu worker%s, %zu process%s, depth %u\n",
            m->source, m->workers, m->workers == 1 ? "" : "s", m->processes,
            m->processes == 1 ? "" : "es", m->depth);
    struct printer pr = {
        .out = out, .max_lines = max_lines, .ranks = m->processes > 1};
    print_node(&pr, m->root);
    print_table(m, out);
    return finish_output(out);
}

static void json_node(struct sgl__json *j, const struct sgl_node *n)
{
    sgl__json_string(j, "type", n->type);
    sgl__json_uint(j, "level", n->level);
    sgl__json_uint(j, "index", n->index);
    sgl__json_uint(j, "arity", n->arity);
    sgl__json_string(j, "link", sgl_link_name(n->link));
    sgl__json_int(j, "rank", n->rank);
    sgl__json_int(j, "os_index", n->os_index);
    sgl__json_uint(j, "workers", n->workers);
    sgl__json_string(j, "host", n->host);
    sgl__json_begin_array(j, "children");
    for (unsigned i = 0; i < n->arity; i++) {
        sgl__json_begin_object(j, NULL);
        json_node(j, n->child[i]);
        sgl__json_end_object(j);
    }
    sgl__json_end_array(j);
}

int sgl_machine_write_json(const sgl_machine_t *m, FILE *out)
{
    if (!m || !out)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_write_json: NULL argument");
    struct sgl__json j;
    sgl__json_init(&j, out, 1);
    sgl__json_begin_document(&j, "sgl-machine-tree", 1);
    sgl__json_string(&j, "source", m->source);
    sgl__json_uint(&j, "workers", m->workers);
    sgl__json_uint(&j, "processes", m->processes);
    sgl__json_uint(&j, "depth", m->depth);
    sgl__json_begin_object(&j, "root");
    json_node(&j, m->root);
    sgl__json_end_object(&j);
    sgl__json_end_object(&j);
    if (sgl__json_finish(&j))
        return sgl_error_set(SGL_EIO, "writing the machine tree failed");
    return SGL_OK;
}
