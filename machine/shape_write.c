/* The shape string of a tree, the inverse of shape.c's parser: one token
 * per level, a list where the fan-outs differ. Trees that no shape
 * describes (workers at different depths, mixed links on a level) have
 * none. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine_impl.h"

struct strbuf {
    char *s;
    size_t len, cap;
    int oom;
};

__attribute__((format(printf, 2, 3))) static void sb_printf(struct strbuf *b,
                                                            const char *fmt,
                                                            ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL,
                          b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if (b->s && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? 2 * b->cap : 64;
        while (cap <= b->len + (size_t)n)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

int sgl__machine_shape_string(const struct sgl_machine *m, char **ret)
{
    *ret = NULL;
    /* One worker: the loader collapses "core:1" back to a single worker. */
    if (m->depth == 0) {
        *ret = strdup("core:1");
        return *ret ? SGL_OK
                    : sgl_error_set(SGL_ENOMEM, "out of memory building a "
                                                "shape string");
    }
    for (size_t i = 0; i < m->workers; i++)
        if (m->worker[i]->level != m->depth)
            return SGL_OK;
    struct strbuf b = {0};
    for (unsigned l = 0; l < m->depth; l++) {
        struct sgl_node *const *ms = m->master + m->master_first[l];
        size_t nm = m->level_masters[l];
        sgl_link_t link = ms[0]->link;
        const char *type = ms[0]->child[0]->type;
        int same_type = 1, same_arity = 1;
        for (size_t i = 0; i < nm; i++) {
            if (ms[i]->link != link) {
                free(b.s);
                return SGL_OK;
            }
            same_arity = same_arity && ms[i]->arity == ms[0]->arity;
            for (unsigned c = 0; c < ms[i]->arity; c++)
                same_type = same_type && !strcmp(ms[i]->child[c]->type, type);
        }
        /* The shape parser derives a level's link from its type, so a
         * collapsed tree (cores reached over MPI) gets a generic type. */
        if (!same_type || sgl__type_link(type) != link)
            type = link == SGL_LINK_MPI ? "rank" : "group";
        sb_printf(&b, "%s%s:", l ? " " : "", type);
        if (same_arity) {
            sb_printf(&b, "%u", ms[0]->arity);
        } else {
            for (size_t i = 0; i < nm; i++)
                sb_printf(&b, "%c%u", i ? ',' : '[', ms[i]->arity);
            sb_printf(&b, "]");
        }
    }
    if (b.oom) {
        free(b.s);
        return sgl_error_set(SGL_ENOMEM, "out of memory building a shape "
                                         "string");
    }
    *ret = b.s;
    return SGL_OK;
}

