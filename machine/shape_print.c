/* The folded listing of a shape's tree without the tree: where no level
 * has a list, every node of a level is like every other, so the listing
 * sgl_machine_print() writes follows from each level's type, fan-out and
 * link. `sgl-machine --shape core:16777216` built 16 M nodes (62 s,
 * 5.5 GB) to print eleven lines. Kept identical to print.c's output (the
 * unit test machine/shape_print compares both on many shapes). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "machine_impl.h"

/* A shape's tree as sgl__machine_finish() would make it: levels after
 * collapsing single-child masters. */
struct vtree {
    unsigned depth;
    const char *type[SGL__MAX_DEPTH + 1];
    size_t fan[SGL__MAX_DEPTH + 1]; /* 0 on the leaf level */
    sgl_link_t link[SGL__MAX_DEPTH + 1];
    size_t size[SGL__MAX_DEPTH + 1]; /* nodes on the level */
    unsigned plevel;                 /* the level whose nodes are processes */
    int ranks;                       /* print ranks: several processes */
    size_t next[SGL__MAX_DEPTH + 1]; /* the next L# on each level */
    FILE *out;
    size_t max_lines;
};

/* Levels of the shape kept by the collapse: the root "machine" and each
 * parsed level, less every level of single-child masters (whose child
 * takes its place, keeping its own type) unless keep_single. Returns 0,
 * or 1 if some level is a list. */
static int vtree_make(const struct sgl__shape_level *lv, unsigned n,
                      int keep_single, struct vtree *t)
{
    unsigned d = 0;
    for (unsigned i = 0; i <= n; i++) { /* raw level i; 0 is the root */
        if (i < n && lv[i].count == 0)
            return 1;
        if (i < n && lv[i].count == 1 && !keep_single)
            continue;
        t->type[d] = i ? lv[i - 1].type : "machine";
        t->fan[d] = i < n ? lv[i].count : 0;
        t->link[d] = i < n ? sgl__type_link(lv[i].type) : SGL_LINK_NONE;
        t->size[d] = d ? t->size[d - 1] * t->fan[d - 1] : 1;
        d++;
    }
    t->depth = d - 1;
    t->plevel = 0;
    while (t->link[t->plevel] == SGL_LINK_MPI)
        t->plevel++;
    t->ranks = t->size[t->plevel] > 1;
    return 0;
}

/* Nodes on level @to below one node of level @from. */
static size_t below(const struct vtree *t, unsigned from, unsigned to)
{
    size_t k = 1;
    for (unsigned l = from; l < to; l++)
        k *= t->fan[l];
    return k;
}

/* As print.c's node line: a node is the idx-th of its level, which in a
 * tree without lists is also its depth-first rank among them. */
static void vnode_print(struct vtree *t, unsigned l)
{
    size_t idx = t->next[l]++;
    FILE *out = t->out;
    fprintf(out, "%*s", 2 * (int)l, "");
    if (l)
        fprintf(out, "%s L#%zu", t->type[l], idx);
    else
        fprintf(out, "%c%s", toupper((unsigned char)t->type[0][0]),
                t->type[0] + 1);
    if (!t->fan[l])
        fprintf(out, " worker %zu", idx);
    if (l && t->ranks) /* a master above the processes: its first one's */
        fprintf(out, " rank %zu",
                l >= t->plevel ? idx / below(t, t->plevel, l)
                               : idx * below(t, l, t->plevel));
    if (t->fan[l])
        fprintf(out, " (%s to %zu %s%s)", sgl_link_name(t->link[l]),
                t->fan[l], t->type[l + 1], t->fan[l] == 1 ? "" : "s");
    fputc('\n', out);
    if (!t->fan[l])
        return;
    size_t run = t->fan[l];
    size_t shown = t->max_lines && run > t->max_lines ? t->max_lines : run;
    for (size_t k = 0; k < shown; k++)
        vnode_print(t, l + 1);
    if (shown < run) {
        size_t last = t->next[l + 1] - 1;
        for (unsigned j = l + 1; j <= t->depth; j++)
            t->next[j] += (run - shown) * below(t, l + 1, j);
        fprintf(out, "%*s... %zu more %s%s like %s L#%zu\n", 2 * (int)(l + 1),
                "", run - shown, t->type[l + 1], run - shown == 1 ? "" : "s",
                t->type[l + 1], last);
    }
}

static void vtable_print(const struct vtree *t)
{
    FILE *out = t->out;
    fprintf(out, "\n%5s  %-8s  %9s  %9s  %12s  %12s  %s\n", "level", "type",
            "nodes", "masters", "workers/node", "fan-out", "link");
    for (unsigned l = 0; l <= t->depth; l++) {
        fprintf(out, "%5u  %-8s  %9zu  %9zu  %12zu", l, t->type[l], t->size[l],
                t->fan[l] ? t->size[l] : 0, below(t, l, t->depth));
        if (t->fan[l])
            fprintf(out, "  %12zu  %s\n", t->fan[l], sgl_link_name(t->link[l]));
        else
            fprintf(out, "  %12s  -\n", "-");
    }
}

int sgl__shape_print(const char *shape, const char *from, int keep_single,
                     FILE *out, long max_lines, size_t fold_above)
{
    struct sgl__shape_level lv[SGL__MAX_DEPTH];
    unsigned n = 0;
    int rc = sgl__shape_levels(shape, lv, &n);
    if (rc)
        return rc;
    struct vtree t;
    memset(&t, 0, sizeof t);
    if (vtree_make(lv, n, keep_single, &t))
        return 1;
    size_t nodes = 0;
    for (unsigned l = 0; l <= t.depth; l++)
        nodes += t.size[l];
    t.out = out;
    t.max_lines = max_lines >= 0 ? (size_t)max_lines : nodes > fold_above;
    size_t workers = t.size[t.depth], procs = t.size[t.plevel];
    fprintf(out,
            "Source: shape: %s%s%s%s; %zu worker%s, %zu process%s, depth %u\n",
            shape, from ? " (" : "", from ? from : "", from ? ")" : "", workers, workers == 1 ? "" : "s", procs,
            procs == 1 ? "" : "es", t.depth);
    vnode_print(&t, 0);
    vtable_print(&t);
    if (fflush(out) || ferror(out))
        return sgl_error_set(SGL_EIO, "writing the machine tree failed");
    return SGL_OK;
}
