/* The machine file's level records: "level L ..." in each of its kinds
 * (link parameters, small messages, memory, exchange, header, fan-out,
 * view, size classes) and "master L I ..." (mfile_reader.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mfile_reader.h"


static int master_levels(const struct reader *r, char *buf, size_t len)
{
    unsigned lo = 0, hi = 0, any = 0;
    for (unsigned l = 0; l <= r->m->depth; l++)
        if (r->m->level_masters[l]) {
            if (!any)
                lo = l;
            hi = l;
            any = 1;
        }
    if (!any)
        return snprintf(buf, len, "the shape has no masters");
    return snprintf(buf, len, "the shape has masters at levels %u..%u", lo,
                    hi);
}

static int check_level(struct reader *r, unsigned long level)
{
    if (level > r->m->depth || r->m->level_masters[level] == 0) {
        char why[64];
        master_levels(r, why, sizeof why);
        return sgl__mf_bad(r, SGL_EPARSE, "level %lu does not exist (%s)", level,
                    why);
    }
    return SGL_OK;
}

/* 'level L small max_bytes B l T g_down G g_up G'. */
static int rec_level_small(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_SMALL)
        return sgl__mf_bad(r, SGL_EPARSE, "duplicate 'level %lu small' record",
                    level);
    if (!sgl__mf_next(r) || strcmp(r->tok, "max_bytes") != 0)
        return sgl__mf_bad(r, SGL_EPARSE,
                    "expected 'max_bytes B' after 'level %lu small'", level);
    double max;
    sgl_link_params_t p;
    int rc = sgl__mf_parse_value(r, "max_bytes", UNIT_BYTES, &max);
    if (!rc && max == 0)
        rc = sgl__mf_bad(r, SGL_EPARSE, "max_bytes is 0");
    if (!rc)
        rc = sgl__mf_parse_params(r, &p);
    if (rc)
        return rc;
    r->level_seen[level] |= SEEN_SMALL;
    return sgl_machine_set_level_small_params(r->m, (unsigned)level, &p, max);
}

/* 'level L exchange l T g G'. */
static int rec_level_exchange(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_EXCHANGE)
        return sgl__mf_bad(r, SGL_EPARSE, "duplicate 'level %lu exchange' record",
                    level);
    sgl_exchange_params_t p;
    int rc = sgl__mf_parse_exchange(r, &p);
    if (rc)
        return rc;
    r->level_seen[level] |= SEEN_EXCHANGE;
    return sgl_machine_set_level_exchange(r->m, (unsigned)level, &p);
}

/* 'level L header B'. */
static int rec_level_header(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_HEADER)
        return sgl__mf_bad(r, SGL_EPARSE, "duplicate 'level %lu header' record",
                    level);
    double bytes;
    int rc = sgl__mf_parse_value(r, "header", UNIT_BYTES, &bytes);
    if (!rc && !sgl__mf_at_end(r)) {
        sgl__mf_next(r);
        rc = sgl__mf_bad(r, SGL_EPARSE, "unexpected '%.40s' after the header "
                  "bytes", r->tok);
    }
    if (rc)
        return rc;
    r->level_seen[level] |= SEEN_HEADER;
    return sgl_machine_set_level_header(r->m, (unsigned)level, bytes);
}

/* The words of 'level L fanout o T [start_l T start_o T]', in any order;
 * the start terms come together or not at all. */
static int parse_fanout(struct reader *r, sgl_fanout_params_t *f)
{
    static const char *const key[] = {"o", "start_l", "start_o"};
    double *val[] = {&f->o, &f->start_l, &f->start_o};
    int have[3] = {0, 0, 0};
    *f = (sgl_fanout_params_t){0, 0, 0};
    while (sgl__mf_next(r)) {
        int k = 0;
        while (k < 3 && strcmp(r->tok, key[k]) != 0)
            k++;
        int rc = k == 3 ? sgl__mf_bad(r, SGL_EPARSE, "unknown fanout parameter "
                                              "'%.40s' (expected o, start_l "
                                              "or start_o)",
                               r->tok)
                 : have[k]++ ? sgl__mf_bad(r, SGL_EPARSE, "%s given twice", key[k])
                             : sgl__mf_parse_value(r, key[k], UNIT_TIME, val[k]);
        if (rc)
            return rc;
    }
    if (!have[0])
        return sgl__mf_bad(r, SGL_EPARSE, "missing o of the fanout record");
    if (have[1] != have[2])
        return sgl__mf_bad(r, SGL_EPARSE, "start_l and start_o go together");
    return SGL_OK;
}

/* 'level L fanout o T [start_l T start_o T]'. */
static int rec_level_fanout(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_FANOUT)
        return sgl__mf_bad(r, SGL_EPARSE, "duplicate 'level %lu fanout' record",
                    level);
    sgl_fanout_params_t f;
    int rc = parse_fanout(r, &f);
    if (rc)
        return rc;
    r->level_seen[level] |= SEEN_FANOUT;
    rc = sgl_machine_set_level_fanout(r->m, (unsigned)level, &f);
    return rc ? sgl__mf_bad(r, rc, "%s", sgl_error_last()) : SGL_OK;
}

/* 'level L view g_down G g_up G' (or 'g G'): the view path's price. No
 * l: a view superstep synchronises as any other, at the level's l. */
static int rec_level_view(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_VIEW)
        return sgl__mf_bad(r, SGL_EPARSE, "duplicate 'level %lu view' record",
                    level);
    double v[2];
    int have[2] = {0, 0}, rc = SGL_OK;
    while (!rc && sgl__mf_next(r)) {
        int both = strcmp(r->tok, "g") == 0;
        int i = strcmp(r->tok, "g_down") == 0 ? 0
                : strcmp(r->tok, "g_up") == 0 ? 1 : both ? 0 : -1;
        if (i < 0)
            return sgl__mf_bad(r, SGL_EPARSE, "unknown view parameter '%.40s' "
                        "(expected g_down, g_up or g)", r->tok);
        if (have[i] || (both && have[1]))
            return sgl__mf_bad(r, SGL_EPARSE, "view %s given twice",
                        i ? "g_up" : "g_down");
        rc = sgl__mf_parse_value(r, both ? "view g" : i ? "view g_up" : "view g_down",
                         UNIT_PER_BYTE, &v[i]);
        have[i] = 1;
        if (both) {
            v[1] = v[0];
            have[1] = 1;
        }
    }
    if (!rc && !have[0])
        rc = sgl__mf_bad(r, SGL_EPARSE, "missing view g_down");
    if (!rc && !have[1])
        rc = sgl__mf_bad(r, SGL_EPARSE, "missing view g_up");
    if (rc)
        return rc;
    r->level_seen[level] |= SEEN_VIEW;
    return sgl_machine_set_level_view(r->m, (unsigned)level, v[0], v[1]);
}

/* 'level L size from B l_down T g_down G l_up T g_up G': all five, the
 * four after from in any order. */
static int rec_level_size(struct reader *r, unsigned long level)
{
    static const char *const key[] = {"l_down", "g_down", "l_up", "g_up"};
    static const enum unit unit[] = {UNIT_TIME, UNIT_PER_BYTE, UNIT_TIME,
                                     UNIT_PER_BYTE};
    sgl_size_class_t c = {0, 0, 0, 0, 0};
    double *val[] = {&c.l_down, &c.g_down, &c.l_up, &c.g_up};
    int have[4] = {0, 0, 0, 0};
    if (!sgl__mf_next(r) || strcmp(r->tok, "from") != 0)
        return sgl__mf_bad(r, SGL_EPARSE,
                    "expected 'from B' after 'level %lu size'", level);
    int rc = sgl__mf_parse_value(r, "from", UNIT_BYTES, &c.from);
    while (!rc && sgl__mf_next(r)) {
        int k = 0;
        while (k < 4 && strcmp(r->tok, key[k]) != 0)
            k++;
        rc = k == 4 ? sgl__mf_bad(r, SGL_EPARSE, "unknown size parameter '%.40s' "
                                          "(expected l_down, g_down, l_up "
                                          "or g_up)",
                           r->tok)
             : have[k]++ ? sgl__mf_bad(r, SGL_EPARSE, "%s given twice", key[k])
                         : sgl__mf_parse_value(r, key[k], unit[k], val[k]);
    }
    for (int k = 0; !rc && k < 4; k++)
        if (!have[k])
            rc = sgl__mf_bad(r, SGL_EPARSE, "missing %s of the size record", key[k]);
    if (rc)
        return rc;
    rc = sgl_machine_add_level_size_class(r->m, (unsigned)level, &c);
    return rc ? sgl__mf_bad(r, SGL_EPARSE, "%s", sgl_error_last()) : SGL_OK;
}

/* 'level L memory shared|private'. */
static int rec_level_memory(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_MEMORY)
        return sgl__mf_bad(r, SGL_EPARSE, "duplicate 'level %lu memory' record",
                    level);
    sgl_memory_t mem = SGL_MEMORY_DEFAULT;
    if (sgl__mf_next(r) && strcmp(r->tok, "shared") == 0)
        mem = SGL_MEMORY_SHARED;
    else if (strcmp(r->tok, "private") == 0)
        mem = SGL_MEMORY_PRIVATE;
    else
        return sgl__mf_bad(r, SGL_EPARSE,
                    "expected 'shared' or 'private' after 'level %lu "
                    "memory'",
                    level);
    if (!sgl__mf_at_end(r)) {
        sgl__mf_next(r);
        return sgl__mf_bad(r, SGL_EPARSE, "unexpected '%.40s' after the memory "
                    "kind", r->tok);
    }
    r->level_seen[level] |= SEEN_MEMORY;
    return sgl_machine_set_level_memory(r->m, (unsigned)level, mem);
}

/* The optional 'link K' and 'p N' of a level record, checked against the
 * shape's masters of that level; stops before the first other token. */
static int check_level_shape(struct reader *r, unsigned long level)
{
    const sgl_machine_t *m = r->m;
    struct sgl_node *const *ms = m->master + m->master_first[level];
    size_t nm = m->level_masters[level];
    for (;;) {
        size_t save = r->pos;
        if (!sgl__mf_next(r))
            break;
        if (strcmp(r->tok, "link") == 0) {
            if (!sgl__mf_next(r))
                return sgl__mf_bad(r, SGL_EPARSE, "missing link kind after 'link'");
            if (strcmp(r->tok, "mpi") && strcmp(r->tok, "threads"))
                return sgl__mf_bad(r, SGL_EPARSE,
                            "unknown link kind '%.40s' (expected mpi or "
                            "threads)",
                            r->tok);
            for (size_t i = 0; i < nm; i++)
                if (strcmp(sgl_link_name(ms[i]->link), r->tok) != 0)
                    return sgl__mf_bad(r, SGL_EPARSE,
                                "level %lu has link %s, but the shape gives "
                                "master %zu of that level a %s link",
                                level, r->tok, i, sgl_link_name(ms[i]->link));
        } else if (strcmp(r->tok, "p") == 0) {
            unsigned long p;
            int rc = sgl__mf_parse_uint(r, "fan-out p", &p);
            if (rc)
                return rc;
            for (size_t i = 0; i < nm; i++)
                if (ms[i]->arity != p)
                    return sgl__mf_bad(r, SGL_EPARSE,
                                "wrong fan-out: level %lu has p %lu, but the "
                                "shape gives master %zu of that level %u "
                                "children",
                                level, p, i, ms[i]->arity);
        } else {
            r->pos = save;
            break;
        }
    }
    return SGL_OK;
}

/* 'level L [link K] [p N] l T g_down G g_up G': the level's parameters. */
static int rec_level_params(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_LEVEL)
        return sgl__mf_bad(r, SGL_EPARSE, "duplicate level %lu", level);
    sgl_link_params_t p;
    int rc = check_level_shape(r, level);
    if (!rc)
        rc = sgl__mf_parse_params(r, &p);
    if (rc)
        return rc;
    r->level_seen[level] |= SEEN_LEVEL;
    return sgl_machine_set_level_params(r->m, (unsigned)level, &p);
}

/* 'level L ...': the word after L picks the kind of record. */
int sgl__mf_rec_level(struct reader *r)
{
    unsigned long level;
    int rc = sgl__mf_parse_uint(r, "level number", &level);
    if (!rc)
        rc = check_level(r, level);
    if (rc)
        return rc;
    size_t save = r->pos;
    if (sgl__mf_next(r)) {
        if (strcmp(r->tok, "small") == 0)
            return rec_level_small(r, level);
        if (strcmp(r->tok, "exchange") == 0)
            return rec_level_exchange(r, level);
        if (strcmp(r->tok, "memory") == 0)
            return rec_level_memory(r, level);
        if (strcmp(r->tok, "header") == 0)
            return rec_level_header(r, level);
        if (strcmp(r->tok, "fanout") == 0)
            return rec_level_fanout(r, level);
        if (strcmp(r->tok, "view") == 0)
            return rec_level_view(r, level);
        if (strcmp(r->tok, "size") == 0)
            return rec_level_size(r, level);
    }
    r->pos = save;
    return rec_level_params(r, level);
}

int sgl__mf_rec_master(struct reader *r)
{
    unsigned long level, index;
    int rc = sgl__mf_parse_uint(r, "level number", &level);
    if (!rc)
        rc = check_level(r, level);
    if (!rc)
        rc = sgl__mf_parse_uint(r, "master index", &index);
    if (rc)
        return rc;
    const sgl_node_t *n = sgl_machine_master(r->m, (unsigned)level, index);
    if (!n)
        return sgl__mf_bad(r, SGL_EPARSE,
                    "master %lu of level %lu does not exist (the level has "
                    "%zu)",
                    index, level, r->m->level_masters[level]);
    if (n->has_params)
        return sgl__mf_bad(r, SGL_EPARSE, "duplicate 'master %lu %lu' record", level,
                    index);
    sgl_link_params_t p;
    if ((rc = sgl__mf_parse_params(r, &p)))
        return rc;
    return sgl_machine_set_node_params(r->m, n, &p);
}
