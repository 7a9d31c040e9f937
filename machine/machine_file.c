/* Machine files: the tree's shape, per-level link parameters, per-kernel c
 * and provenance as a line-oriented text file (docs/machine-file.md).
 *
 *   # comment                        blank lines and comments anywhere
 *   sgl-machine 2                    first record: format and version
 *   shape rank:16 core:8             the tree, as sgl_machine_from_shape()
 *   provenance KEY VALUE             VALUE: "quoted" or the rest of the line
 *   level L [link K] [p N] l T g_down G g_up G     masters at level L
 *   level L small max_bytes B l T g_down G g_up G  small-message regime
 *   level L memory shared|private    do the children share memory?
 *   level L exchange l T g G         exchange among the children
 *   level L header B                 header bytes per child per sync
 *   level L fanout o T [start_l T start_o T]   measured per-child cost
 *   level L view g_down G g_up G     the view path's g (no copies)
 *   level L size from B l_down T g_down G l_up T g_up G   a message-size
 *                                                  class (any number)
 *   master L I l T g_down G g_up G   override for master I of level L
 *   kernel NAME C [worker W]         c for every worker, or for worker W
 *   kernel NAME C n N [busy Q]       a point of the kernel's size table
 *   end                              last record: a file without it is
 *                                    truncated
 *
 * T and C are seconds (or a number with unit s, ms, us, ns, ps), G seconds
 * per byte (or e.g. 4.8ns/word, 1.2ns/B; a word is SGL_WORD_BYTES bytes).
 * Every error names the file and line. The writer prints every value with
 * 17 significant digits, so that reading gives back the same doubles. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine_impl.h"

const char *sgl_machine_shape(const sgl_machine_t *m) { return m->shape; }

/* ---- writing ---- */

/* The shortest of %.15g, %.16g, %.17g that reads back as the same double:
 * exact round trips with "2.3e-05" rather than "2.3000000000000001e-05". */
static const char *fmt_double(char buf[32], double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, 32, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

static void write_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void write_params(FILE *out, const sgl_link_params_t *p)
{
    char a[32], b[32], c[32];
    fprintf(out, " l %s g_down %s g_up %s", fmt_double(a, p->l),
            fmt_double(b, p->g_down), fmt_double(c, p->g_up));
}

/* The same values in the paper's units, for a person reading the file. */
static void write_params_comment(FILE *out, const sgl_link_params_t *p)
{
    fprintf(out, "  # l %.4g us, g_down %.4g ns/word, g_up %.4g ns/word\n",
            p->l * 1e6, p->g_down * 1e9 * SGL_WORD_BYTES,
            p->g_up * 1e9 * SGL_WORD_BYTES);
}

/* The format line, the shape and the provenance records. */
static void write_header(const sgl_machine_t *m, FILE *out)
{
    fprintf(out, "# SGL machine file (format: docs/machine-file.md)\n"
                 "# l: seconds per sync; g_down, g_up, g: seconds per byte; "
                 "kernel c: seconds per element\n"
                 "sgl-machine 2\n"
                 "shape %s\n",
            m->shape);
    for (size_t i = 0; i < m->nprov; i++) {
        fprintf(out, "provenance %s ", m->prov[i].key);
        write_quoted(out, m->prov[i].value);
        fputc('\n', out);
    }
}

/* The records of level @l: its parameters, small-message regime, exchange,
 * header, memory, and its masters' overrides. */
static void write_level(const sgl_machine_t *m, unsigned l, FILE *out)
{
    const struct sgl__level_params *lp = &m->params[l];
    struct sgl_node *const *ms = m->master + m->master_first[l];
    size_t nm = m->level_masters[l];
    if (nm == 0)
        return;
    int same_arity = 1;
    for (size_t i = 0; i < nm; i++)
        same_arity = same_arity && ms[i]->arity == ms[0]->arity;
    if (lp->set) {
        fprintf(out, "level %u link %s", l, sgl_link_name(ms[0]->link));
        if (same_arity)
            fprintf(out, " p %u", ms[0]->arity);
        write_params(out, &lp->p);
        write_params_comment(out, &lp->p);
    }
    if (lp->small_set) {
        char b[32];
        fprintf(out, "level %u small max_bytes %s", l,
                fmt_double(b, lp->small_max));
        write_params(out, &lp->small);
        write_params_comment(out, &lp->small);
    }
    if (lp->exchange_set) {
        char a[32], b[32];
        fprintf(out, "level %u exchange l %s g %s", l,
                fmt_double(a, lp->exchange.l), fmt_double(b, lp->exchange.g));
        fprintf(out, "  # l %.4g us, g %.4g ns/word\n",
                lp->exchange.l * 1e6, lp->exchange.g * 1e9 * SGL_WORD_BYTES);
    }
    if (lp->header_set) {
        char b[32];
        fprintf(out, "level %u header %s\n", l, fmt_double(b, lp->header));
    }
    if (lp->fanout_set) {
        char a[32], b[32], c[32];
        fprintf(out, "level %u fanout o %s start_l %s start_o %s\n", l,
                fmt_double(a, lp->fanout.o), fmt_double(b, lp->fanout.start_l),
                fmt_double(c, lp->fanout.start_o));
    }
    if (lp->view_set) {
        char a[32], b[32];
        fprintf(out, "level %u view g_down %s g_up %s", l,
                fmt_double(a, lp->view_g_down), fmt_double(b, lp->view_g_up));
        fprintf(out, "  # %.4g, %.4g ns/word\n",
                lp->view_g_down * 1e9 * SGL_WORD_BYTES,
                lp->view_g_up * 1e9 * SGL_WORD_BYTES);
    }
    for (unsigned k = 0; k < lp->nsize; k++) {
        const sgl_size_class_t *c = &lp->size[k];
        char a[32], b[32], d[32], e[32], f[32];
        fprintf(out, "level %u size from %s l_down %s g_down %s l_up %s "
                     "g_up %s\n",
                l, fmt_double(a, c->from), fmt_double(b, c->l_down),
                fmt_double(d, c->g_down), fmt_double(e, c->l_up),
                fmt_double(f, c->g_up));
    }
    if (lp->memory != SGL_MEMORY_DEFAULT)
        fprintf(out, "level %u memory %s\n", l,
                lp->memory == SGL_MEMORY_SHARED ? "shared" : "private");
    for (size_t i = 0; i < nm; i++)
        if (ms[i]->has_params) {
            fprintf(out, "master %u %zu", l, i);
            write_params(out, &ms[i]->params);
            write_params_comment(out, &ms[i]->params);
        }
}

/* The records of one kernel: c for all workers, its size table, and c of
 * single workers. */
static void write_kernel(const sgl_machine_t *m, const struct sgl__kernel *kn,
                         FILE *out)
{
    char b[32];
    if (!isnan(kn->all_c))
        fprintf(out, "kernel %s %s  # %.4g ns per element\n", kn->name,
                fmt_double(b, kn->all_c), kn->all_c * 1e9);
    for (size_t j = 0; j < kn->npt; j++) {
        char bn[32];
        fprintf(out, "kernel %s %s n %s busy %u  # %.4g ns per element\n",
                kn->name, fmt_double(b, kn->pt[j].c),
                fmt_double(bn, kn->pt[j].n), kn->pt[j].busy,
                kn->pt[j].c * 1e9);
    }
    if (kn->worker_c)
        for (size_t w = 0; w < m->workers; w++)
            if (!isnan(kn->worker_c[w]))
                fprintf(out, "kernel %s %s worker %zu\n", kn->name,
                        fmt_double(b, kn->worker_c[w]), w);
}

int sgl_machine_write(const sgl_machine_t *m, FILE *out)
{
    if (!m || !out)
        return sgl_error_set(SGL_EINVAL, "sgl_machine_write: NULL argument");
    if (!m->shape)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_write: the tree (%s) has leaves at "
                             "different depths or mixed links on a level; "
                             "no shape string describes it",
                             m->source);
    write_header(m, out);
    for (unsigned l = 0; l < m->depth; l++)
        write_level(m, l, out);
    for (size_t k = 0; k < m->nkernels; k++)
        write_kernel(m, &m->kernel[k], out);
    fprintf(out, "end\n");
    if (fflush(out) != 0 || ferror(out))
        return sgl_error_set(SGL_EIO, "writing the machine file failed: %s",
                             strerror(errno));
    return SGL_OK;
}

int sgl_machine_save(const sgl_machine_t *m, const char *path)
{
    if (!m || !path)
        return sgl_error_set(SGL_EINVAL, "sgl_machine_save: NULL argument");
    FILE *out;
    SGL_TRY(sgl__open_output(path, "machine file", &out));
    int rc = sgl_machine_write(m, out);
    if (fclose(out) != 0 && rc == SGL_OK)
        rc = sgl_error_set(SGL_EIO, "cannot write %s: %s", path,
                           strerror(errno));
    if (rc == SGL_EIO && strstr(sgl_error_last(), path) == NULL)
        rc = sgl_error_set(SGL_EIO, "cannot write %s: %s", path,
                           strerror(errno));
    return rc;
}

/* ---- reading ---- */

/* Which records a level has had, to refuse a second one of a kind. */
enum level_seen {
    SEEN_LEVEL = 1,    /* level L ... l T g_down G g_up G */
    SEEN_SMALL = 2,    /* level L small ... */
    SEEN_MEMORY = 4,   /* level L memory ... */
    SEEN_EXCHANGE = 8, /* level L exchange ... */
    SEEN_HEADER = 16,  /* level L header ... */
    SEEN_FANOUT = 32,  /* level L fanout ... */
    SEEN_VIEW = 64,    /* level L view ... */
};

struct reader {
    const char *name;
    unsigned long line;
    char *text;         /* the current line, comments removed */
    size_t pos;
    sgl_machine_t *m;
    int seen_header, seen_end;
    unsigned version; /* of the format, from the first record */
    size_t max_workers; /* 0: the shape's own limit only */
    unsigned char *level_seen; /* depth + 1 entries of enum level_seen */
    char tok[256];
    /* Size-table points that came out of order, merged in at the end so
     * that any order reads in O(n log n). */
    struct late_point *late;
    size_t nlate, cap_late;
};

struct late_point {
    size_t kernel; /* index in m->kernel */
    struct sgl__kpoint pt;
    unsigned long line;
};

__attribute__((format(printf, 3, 4))) static int
rbad(const struct reader *r, int code, const char *fmt, ...)
{
    char what[768], name[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    /* Tokens are text (check_text ran first), but the file's name is
     * anything the caller passed. */
    return sgl_error_set(code, "%s:%lu: %s",
                         sgl__escape(r->name, 256, name, sizeof name),
                         r->line, what);
}

/* Control characters other than tab (and a CR before the newline) mean the
 * file is not text; checking first keeps the parser's messages honest. */
static int check_text(const struct reader *r, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t' && !(c == '\r' && i + 1 == len)) ||
            c == 0x7f)
            return rbad(r, SGL_EPARSE,
                        "binary data (byte 0x%02x at column %zu): not a "
                        "machine file",
                        c, i + 1);
    }
    return SGL_OK;
}

/* Remove a comment: '#' at the start or after a blank, outside quotes. */
static void strip_comment(char *s)
{
    int quoted = 0;
    for (size_t i = 0; s[i]; i++) {
        if (quoted && s[i] == '\\' && s[i + 1]) {
            i++;
        } else if (s[i] == '"') {
            quoted = !quoted;
        } else if (!quoted && s[i] == '#' &&
                   (i == 0 || isspace((unsigned char)s[i - 1]))) {
            s[i] = '\0';
            break;
        }
    }
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
}

static void skip_blanks(struct reader *r)
{
    while (isspace((unsigned char)r->text[r->pos]))
        r->pos++;
}

/* The next blank-separated token into r->tok; 0 at the end of the line. */
static int next(struct reader *r)
{
    skip_blanks(r);
    size_t n = 0;
    while (r->text[r->pos] && !isspace((unsigned char)r->text[r->pos])) {
        if (n + 1 < sizeof r->tok)
            r->tok[n++] = r->text[r->pos];
        r->pos++;
    }
    r->tok[n] = '\0';
    return n > 0;
}

static int at_end(struct reader *r)
{
    skip_blanks(r);
    return r->text[r->pos] == '\0';
}

static int parse_uint(struct reader *r, const char *what, unsigned long *ret)
{
    if (!next(r))
        return rbad(r, SGL_EPARSE, "missing %s", what);
    char *end;
    errno = 0;
    unsigned long v = strtoul(r->tok, &end, 10);
    if (!isdigit((unsigned char)r->tok[0]) || *end || errno)
        return rbad(r, SGL_EPARSE, "bad %s '%.40s' (expected a number >= 0)",
                    what, r->tok);
    *ret = v;
    return SGL_OK;
}

enum unit { UNIT_TIME, UNIT_PER_BYTE, UNIT_BYTES, UNIT_COUNT };

/* A time unit as a power of ten, so that "2.3us" reads as the double
 * nearest 2.3e-6 (a multiplication by 1e-6 would round twice). */
static int parse_time_unit(const char *u, int *exp10)
{
    static const struct {
        const char *name;
        int exp10;
    } units[] = {{"s", 0}, {"ms", -3}, {"us", -6}, {"ns", -9}, {"ps", -12}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strcmp(u, units[i].name) == 0) {
            *exp10 = units[i].exp10;
            return 1;
        }
    return 0;
}

/* The number @text[0..len) times 10^exp10, correctly rounded. */
static double scale10(const char *text, size_t len, int exp10)
{
    char num[96];
    if (len >= 64)
        len = 63;
    memcpy(num, text, len);
    num[len] = '\0';
    char *e = strpbrk(num, "eE");
    long ex = 0;
    if (e) {
        ex = strtol(e + 1, NULL, 10);
        *e = '\0';
    }
    snprintf(num + strlen(num), sizeof num - strlen(num), "e%ld",
             ex + exp10);
    return strtod(num, NULL);
}

/* A number >= 0, with an optional unit glued to it ("23us", "4.8ns/word"). */
static int parse_value(struct reader *r, const char *what, enum unit unit,
                       double *ret)
{
    if (!next(r))
        return rbad(r, SGL_EPARSE, "missing value of %s", what);
    char *end;
    double v = strtod(r->tok, &end);
    if (end == r->tok)
        return rbad(r, SGL_EPARSE, "bad value of %s '%.40s' (expected a "
                                   "number)",
                    what, r->tok);
    if (isnan(v) || isinf(v))
        return rbad(r, SGL_EPARSE, "%s is not a finite number (%.40s)", what,
                    r->tok);
    if (*end) {
        char u[32];
        snprintf(u, sizeof u, "%s", end);
        char *slash = strchr(u, '/');
        int exp10 = 0, ok;
        double per = 1; /* bytes per unit of size */
        if (unit == UNIT_COUNT) {
            ok = 0;
        } else if (unit == UNIT_BYTES) {
            ok = 1;
            if (strcmp(u, "word") == 0 || strcmp(u, "words") == 0)
                per = 1.0 / SGL_WORD_BYTES;
            else if (strcmp(u, "B") != 0)
                ok = 0;
        } else if (unit == UNIT_TIME || !slash) {
            ok = !slash && parse_time_unit(u, &exp10); /* "1.2ns" = per B */
        } else {
            *slash = '\0';
            ok = parse_time_unit(u, &exp10);
            if (strcmp(slash + 1, "word") == 0)
                per = SGL_WORD_BYTES;
            else if (strcmp(slash + 1, "B") && strcmp(slash + 1, "byte"))
                ok = 0;
        }
        if (!ok)
            return rbad(r, SGL_EPARSE,
                        "bad unit '%.20s' in the value of %s (expected %s)",
                        end, what,
                        unit == UNIT_TIME    ? "s, ms, us, ns or ps"
                        : unit == UNIT_COUNT ? "a plain number"
                        : unit == UNIT_BYTES
                            ? "B or word"
                            : "a time per B or per word, e.g. 1.2ns/B");
        /* Dividing by a power of two (the word size) is exact. */
        v = scale10(r->tok, (size_t)(end - r->tok), exp10) / per;
    }
    if (v < 0)
        return rbad(r, SGL_EPARSE, "negative %s (%.40s)", what, r->tok);
    *ret = v;
    return SGL_OK;
}

/* "l T g_down G g_up G" in any order ("g G" sets both g). */
static int parse_params(struct reader *r, sgl_link_params_t *p)
{
    int have_l = 0, have_down = 0, have_up = 0;
    while (next(r)) {
        int rc;
        char key[sizeof r->tok];
        memcpy(key, r->tok, sizeof key);
        if (strcmp(key, "l") == 0) {
            rc = have_l++ ? rbad(r, SGL_EPARSE, "l given twice")
                          : parse_value(r, "l", UNIT_TIME, &p->l);
        } else if (strcmp(key, "g_down") == 0) {
            rc = have_down++ ? rbad(r, SGL_EPARSE, "g_down given twice")
                             : parse_value(r, "g_down", UNIT_PER_BYTE,
                                           &p->g_down);
        } else if (strcmp(key, "g_up") == 0) {
            rc = have_up++ ? rbad(r, SGL_EPARSE, "g_up given twice")
                           : parse_value(r, "g_up", UNIT_PER_BYTE, &p->g_up);
        } else if (strcmp(key, "g") == 0) {
            rc = (have_down++ || have_up++)
                     ? rbad(r, SGL_EPARSE, "g given twice")
                     : parse_value(r, "g", UNIT_PER_BYTE, &p->g_down);
            p->g_up = p->g_down;
        } else {
            rc = rbad(r, SGL_EPARSE,
                      "unknown parameter '%.40s' (expected l, g_down, g_up "
                      "or g)",
                      key);
        }
        if (rc)
            return rc;
    }
    if (!have_l)
        return rbad(r, SGL_EPARSE, "missing l");
    if (!have_down)
        return rbad(r, SGL_EPARSE, "missing g_down");
    if (!have_up)
        return rbad(r, SGL_EPARSE, "missing g_up");
    return SGL_OK;
}

/* "l T g G" in either order: the exchange parameters of a level. */
static int parse_exchange(struct reader *r, sgl_exchange_params_t *p)
{
    int have_l = 0, have_g = 0;
    while (next(r)) {
        int rc;
        if (strcmp(r->tok, "l") == 0) {
            rc = have_l++ ? rbad(r, SGL_EPARSE, "l given twice")
                          : parse_value(r, "exchange l", UNIT_TIME, &p->l);
        } else if (strcmp(r->tok, "g") == 0) {
            rc = have_g++ ? rbad(r, SGL_EPARSE, "g given twice")
                          : parse_value(r, "exchange g", UNIT_PER_BYTE,
                                        &p->g);
        } else {
            rc = rbad(r, SGL_EPARSE,
                      "unknown exchange parameter '%.40s' (expected l or g)",
                      r->tok);
        }
        if (rc)
            return rc;
    }
    if (!have_l)
        return rbad(r, SGL_EPARSE, "missing l of the exchange");
    if (!have_g)
        return rbad(r, SGL_EPARSE, "missing g of the exchange");
    return SGL_OK;
}

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
        return rbad(r, SGL_EPARSE, "level %lu does not exist (%s)", level,
                    why);
    }
    return SGL_OK;
}

/* 'level L small max_bytes B l T g_down G g_up G'. */
static int rec_level_small(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_SMALL)
        return rbad(r, SGL_EPARSE, "duplicate 'level %lu small' record",
                    level);
    if (!next(r) || strcmp(r->tok, "max_bytes") != 0)
        return rbad(r, SGL_EPARSE,
                    "expected 'max_bytes B' after 'level %lu small'", level);
    double max;
    sgl_link_params_t p;
    int rc = parse_value(r, "max_bytes", UNIT_BYTES, &max);
    if (!rc && max == 0)
        rc = rbad(r, SGL_EPARSE, "max_bytes is 0");
    if (!rc)
        rc = parse_params(r, &p);
    if (rc)
        return rc;
    r->level_seen[level] |= SEEN_SMALL;
    return sgl_machine_set_level_small_params(r->m, (unsigned)level, &p, max);
}

/* 'level L exchange l T g G'. */
static int rec_level_exchange(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_EXCHANGE)
        return rbad(r, SGL_EPARSE, "duplicate 'level %lu exchange' record",
                    level);
    sgl_exchange_params_t p;
    int rc = parse_exchange(r, &p);
    if (rc)
        return rc;
    r->level_seen[level] |= SEEN_EXCHANGE;
    return sgl_machine_set_level_exchange(r->m, (unsigned)level, &p);
}

/* 'level L header B'. */
static int rec_level_header(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_HEADER)
        return rbad(r, SGL_EPARSE, "duplicate 'level %lu header' record",
                    level);
    double bytes;
    int rc = parse_value(r, "header", UNIT_BYTES, &bytes);
    if (!rc && !at_end(r)) {
        next(r);
        rc = rbad(r, SGL_EPARSE, "unexpected '%.40s' after the header "
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
    while (next(r)) {
        int k = 0;
        while (k < 3 && strcmp(r->tok, key[k]) != 0)
            k++;
        int rc = k == 3 ? rbad(r, SGL_EPARSE, "unknown fanout parameter "
                                              "'%.40s' (expected o, start_l "
                                              "or start_o)",
                               r->tok)
                 : have[k]++ ? rbad(r, SGL_EPARSE, "%s given twice", key[k])
                             : parse_value(r, key[k], UNIT_TIME, val[k]);
        if (rc)
            return rc;
    }
    if (!have[0])
        return rbad(r, SGL_EPARSE, "missing o of the fanout record");
    if (have[1] != have[2])
        return rbad(r, SGL_EPARSE, "start_l and start_o go together");
    return SGL_OK;
}

/* 'level L fanout o T [start_l T start_o T]'. */
static int rec_level_fanout(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_FANOUT)
        return rbad(r, SGL_EPARSE, "duplicate 'level %lu fanout' record",
                    level);
    sgl_fanout_params_t f;
    int rc = parse_fanout(r, &f);
    if (rc)
        return rc;
    r->level_seen[level] |= SEEN_FANOUT;
    rc = sgl_machine_set_level_fanout(r->m, (unsigned)level, &f);
    return rc ? rbad(r, rc, "%s", sgl_error_last()) : SGL_OK;
}

/* 'level L view g_down G g_up G' (or 'g G'): the view path's price. No
 * l: a view superstep synchronises as any other, at the level's l. */
static int rec_level_view(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_VIEW)
        return rbad(r, SGL_EPARSE, "duplicate 'level %lu view' record",
                    level);
    double v[2];
    int have[2] = {0, 0}, rc = SGL_OK;
    while (!rc && next(r)) {
        int both = strcmp(r->tok, "g") == 0;
        int i = strcmp(r->tok, "g_down") == 0 ? 0
                : strcmp(r->tok, "g_up") == 0 ? 1 : both ? 0 : -1;
        if (i < 0)
            return rbad(r, SGL_EPARSE, "unknown view parameter '%.40s' "
                        "(expected g_down, g_up or g)", r->tok);
        if (have[i] || (both && have[1]))
            return rbad(r, SGL_EPARSE, "view %s given twice",
                        i ? "g_up" : "g_down");
        rc = parse_value(r, both ? "view g" : i ? "view g_up" : "view g_down",
                         UNIT_PER_BYTE, &v[i]);
        have[i] = 1;
        if (both) {
            v[1] = v[0];
            have[1] = 1;
        }
    }
    if (!rc && !have[0])
        rc = rbad(r, SGL_EPARSE, "missing view g_down");
    if (!rc && !have[1])
        rc = rbad(r, SGL_EPARSE, "missing view g_up");
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
    if (!next(r) || strcmp(r->tok, "from") != 0)
        return rbad(r, SGL_EPARSE,
                    "expected 'from B' after 'level %lu size'", level);
    int rc = parse_value(r, "from", UNIT_BYTES, &c.from);
    while (!rc && next(r)) {
        int k = 0;
        while (k < 4 && strcmp(r->tok, key[k]) != 0)
            k++;
        rc = k == 4 ? rbad(r, SGL_EPARSE, "unknown size parameter '%.40s' "
                                          "(expected l_down, g_down, l_up "
                                          "or g_up)",
                           r->tok)
             : have[k]++ ? rbad(r, SGL_EPARSE, "%s given twice", key[k])
                         : parse_value(r, key[k], unit[k], val[k]);
    }
    for (int k = 0; !rc && k < 4; k++)
        if (!have[k])
            rc = rbad(r, SGL_EPARSE, "missing %s of the size record", key[k]);
    if (rc)
        return rc;
    rc = sgl_machine_add_level_size_class(r->m, (unsigned)level, &c);
    return rc ? rbad(r, SGL_EPARSE, "%s", sgl_error_last()) : SGL_OK;
}

/* 'level L memory shared|private'. */
static int rec_level_memory(struct reader *r, unsigned long level)
{
    if (r->level_seen[level] & SEEN_MEMORY)
        return rbad(r, SGL_EPARSE, "duplicate 'level %lu memory' record",
                    level);
    sgl_memory_t mem = SGL_MEMORY_DEFAULT;
    if (next(r) && strcmp(r->tok, "shared") == 0)
        mem = SGL_MEMORY_SHARED;
    else if (strcmp(r->tok, "private") == 0)
        mem = SGL_MEMORY_PRIVATE;
    else
        return rbad(r, SGL_EPARSE,
                    "expected 'shared' or 'private' after 'level %lu "
                    "memory'",
                    level);
    if (!at_end(r)) {
        next(r);
        return rbad(r, SGL_EPARSE, "unexpected '%.40s' after the memory "
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
        if (!next(r))
            break;
        if (strcmp(r->tok, "link") == 0) {
            if (!next(r))
                return rbad(r, SGL_EPARSE, "missing link kind after 'link'");
            if (strcmp(r->tok, "mpi") && strcmp(r->tok, "threads"))
                return rbad(r, SGL_EPARSE,
                            "unknown link kind '%.40s' (expected mpi or "
                            "threads)",
                            r->tok);
            for (size_t i = 0; i < nm; i++)
                if (strcmp(sgl_link_name(ms[i]->link), r->tok) != 0)
                    return rbad(r, SGL_EPARSE,
                                "level %lu has link %s, but the shape gives "
                                "master %zu of that level a %s link",
                                level, r->tok, i, sgl_link_name(ms[i]->link));
        } else if (strcmp(r->tok, "p") == 0) {
            unsigned long p;
            int rc = parse_uint(r, "fan-out p", &p);
            if (rc)
                return rc;
            for (size_t i = 0; i < nm; i++)
                if (ms[i]->arity != p)
                    return rbad(r, SGL_EPARSE,
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
        return rbad(r, SGL_EPARSE, "duplicate level %lu", level);
    sgl_link_params_t p;
    int rc = check_level_shape(r, level);
    if (!rc)
        rc = parse_params(r, &p);
    if (rc)
        return rc;
    r->level_seen[level] |= SEEN_LEVEL;
    return sgl_machine_set_level_params(r->m, (unsigned)level, &p);
}

/* 'level L ...': the word after L picks the kind of record. */
static int rec_level(struct reader *r)
{
    unsigned long level;
    int rc = parse_uint(r, "level number", &level);
    if (!rc)
        rc = check_level(r, level);
    if (rc)
        return rc;
    size_t save = r->pos;
    if (next(r)) {
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

static int rec_master(struct reader *r)
{
    unsigned long level, index;
    int rc = parse_uint(r, "level number", &level);
    if (!rc)
        rc = check_level(r, level);
    if (!rc)
        rc = parse_uint(r, "master index", &index);
    if (rc)
        return rc;
    const sgl_node_t *n = sgl_machine_master(r->m, (unsigned)level, index);
    if (!n)
        return rbad(r, SGL_EPARSE,
                    "master %lu of level %lu does not exist (the level has "
                    "%zu)",
                    index, level, r->m->level_masters[level]);
    if (n->has_params)
        return rbad(r, SGL_EPARSE, "duplicate 'master %lu %lu' record", level,
                    index);
    sgl_link_params_t p;
    if ((rc = parse_params(r, &p)))
        return rc;
    return sgl_machine_set_node_params(r->m, n, &p);
}

/* Nonzero if @k's size table, sorted by (busy, n), has the point. */
static int point_at(const struct sgl__kernel *k, double n, unsigned busy)
{
    size_t lo = 0, hi = k->npt;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct sgl__kpoint *q = &k->pt[mid];
        if (q->busy == busy && q->n == n)
            return 1;
        if (q->busy < busy || (q->busy == busy && q->n < n))
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* The rest of "kernel NAME C n N [busy Q]": a point of the size table. */
static int kernel_point(struct reader *r, const char *name, double c)
{
    double n;
    unsigned long busy = 1;
    int rc = parse_value(r, "n", UNIT_COUNT, &n);
    if (rc)
        return rc;
    if (!(n >= 1))
        return rbad(r, SGL_EPARSE, "kernel %s: n = %g, expected at least 1",
                    name, n);
    if (!at_end(r)) {
        if (!next(r) || strcmp(r->tok, "busy") != 0)
            return rbad(r, SGL_EPARSE,
                        "unexpected '%.40s' after the kernel's n (expected "
                        "'busy Q' or the end of the line)",
                        r->tok);
        if ((rc = parse_uint(r, "busy workers", &busy)))
            return rc;
        if (busy == 0 || busy > SGL__MAX_WORKERS)
            return rbad(r, SGL_EPARSE,
                        "kernel %s: busy %lu (expected 1 to %zu workers)",
                        name, busy, SGL__MAX_WORKERS);
        if (!at_end(r)) {
            next(r);
            return rbad(r, SGL_EPARSE, "unexpected '%.40s' after busy",
                        r->tok);
        }
    }
    const struct sgl__kernel *k = sgl__kernel_find(r->m, name);
    if (k && point_at(k, n, (unsigned)busy))
        return rbad(r, SGL_EPARSE, "duplicate kernel %s point n %g busy %lu",
                    name, n, busy);
    const struct sgl__kpoint *last = k && k->npt ? &k->pt[k->npt - 1] : NULL;
    if (!last || last->busy < busy || (last->busy == busy && last->n < n))
        return sgl_machine_set_kernel_point(r->m, name, n, (unsigned)busy, c);
    /* Out of order: c is checked now, the point merged at the end. */
    if (sgl__check_value("kernel point", "c", c))
        return rbad(r, SGL_EPARSE, "%s", sgl_error_last());
    if (r->nlate == r->cap_late) {
        size_t cap = r->cap_late ? 2 * r->cap_late : 64;
        struct late_point *a = realloc(r->late, cap * sizeof *a);
        if (!a)
            return sgl_error_set(SGL_ENOMEM, "out of memory reading %s",
                                 r->name);
        r->late = a;
        r->cap_late = cap;
    }
    r->late[r->nlate++] = (struct late_point){
        (size_t)(k - r->m->kernel), {n, (unsigned)busy, c}, r->line};
    return SGL_OK;
}

static int rec_kernel(struct reader *r)
{
    if (!next(r))
        return rbad(r, SGL_EPARSE, "missing kernel name");
    char name[sizeof r->tok];
    memcpy(name, r->tok, sizeof name);
    if (!sgl__valid_name(name, SGL_KERNEL_NAME_MAX))
        return rbad(r, SGL_EPARSE,
                    "bad kernel name '%.40s' (expected [A-Za-z0-9_.-], 1 to "
                    "%d characters)",
                    name, SGL_KERNEL_NAME_MAX);
    double c;
    int rc = parse_value(r, "c", UNIT_TIME, &c);
    if (rc)
        return rc;
    sgl_machine_t *m = r->m;
    struct sgl__kernel *k = sgl__kernel_find(m, name);
    if (at_end(r)) {
        if (k && !isnan(k->all_c))
            return rbad(r, SGL_EPARSE, "duplicate kernel %s", name);
        if (k) { /* after per-worker lines: keep them */
            k->all_c = c;
            return SGL_OK;
        }
        return sgl_machine_set_kernel(m, name, c);
    }
    unsigned long w;
    if (next(r) && strcmp(r->tok, "n") == 0)
        return kernel_point(r, name, c);
    if (strcmp(r->tok, "worker") != 0)
        return rbad(r, SGL_EPARSE,
                    "unexpected '%.40s' after the kernel's c (expected "
                    "'worker W', 'n N [busy Q]' or the end of the line)",
                    r->tok);
    if ((rc = parse_uint(r, "worker number", &w)))
        return rc;
    if (!at_end(r)) {
        next(r);
        return rbad(r, SGL_EPARSE, "unexpected '%.40s' after the worker",
                    r->tok);
    }
    if (w >= m->workers)
        return rbad(r, SGL_EPARSE,
                    "worker %lu does not exist (the shape has %zu workers)", w,
                    m->workers);
    if (k && k->worker_c && !isnan(k->worker_c[w]))
        return rbad(r, SGL_EPARSE, "duplicate kernel %s for worker %lu", name,
                    w);
    return sgl_machine_set_worker_kernel(m, w, name, c);
}

/* A provenance value: a quoted string with \" and \\ escapes, or the
 * rest of the line. */
static int rec_provenance(struct reader *r)
{
    if (!next(r))
        return rbad(r, SGL_EPARSE, "missing provenance key");
    char key[sizeof r->tok];
    memcpy(key, r->tok, sizeof key);
    if (!sgl__valid_name(key, 64))
        return rbad(r, SGL_EPARSE,
                    "bad provenance key '%.40s' (expected [A-Za-z0-9_.-], 1 "
                    "to 64 characters)",
                    key);
    if (sgl_machine_provenance(r->m, key))
        return rbad(r, SGL_EPARSE, "duplicate provenance %s", key);
    skip_blanks(r);
    char *v = r->text + r->pos;
    if (*v == '"') {
        char *out = v, *in = v + 1;
        for (;; in++) {
            if (*in == '\0')
                return rbad(r, SGL_EPARSE,
                            "missing closing '\"' in provenance %s", key);
            if (*in == '"')
                break;
            if (*in == '\\' && (in[1] == '"' || in[1] == '\\'))
                in++;
            *out++ = *in;
        }
        *out = '\0';
        r->pos = (size_t)(in + 1 - r->text);
        if (!at_end(r)) {
            next(r);
            return rbad(r, SGL_EPARSE,
                        "unexpected '%.40s' after the quoted value", r->tok);
        }
    }
    int rc = sgl_machine_set_provenance(r->m, key, v);
    return rc == SGL_EINVAL ? rbad(r, SGL_EPARSE, "%s", sgl_error_last()) : rc;
}

static int rec_shape(struct reader *r)
{
    if (r->m)
        return rbad(r, SGL_EPARSE, "duplicate shape");
    skip_blanks(r);
    const char *shape = r->text + r->pos;
    if (!*shape)
        return rbad(r, SGL_EPARSE, "missing shape string after 'shape'");
    size_t workers = 0;
    /* Counted from the string before a node is built: a reader with a
     * cap refuses at once a shape it would take minutes to build. */
    if (r->max_workers && sgl_shape_counts(shape, NULL, &workers) == SGL_OK &&
        workers > r->max_workers)
        return rbad(r, SGL_ERANGE,
                    "the shape has %zu workers, more than the %zu this "
                    "reader takes (the tree has a node per worker)",
                    workers, r->max_workers);
    sgl_machine_opts_t o;
    sgl_machine_opts_default(&o);
    /* The file describes the tree as it is: single-child levels were
     * collapsed (or deliberately kept) before it was written. */
    o.keep_single = strcmp(shape, "core:1") != 0;
    int rc = r->version == 1 ? sgl__machine_from_shape_v1(shape, &o, &r->m)
                             : sgl_machine_from_shape(shape, &o, &r->m);
    if (rc == SGL_EPARSE || rc == SGL_EINVAL)
        return rbad(r, SGL_EPARSE, "%s", sgl_error_last());
    if (rc)
        return rc;
    r->level_seen = calloc(r->m->depth + 1, 1);
    if (!r->level_seen)
        return sgl_error_set(SGL_ENOMEM, "out of memory reading %s", r->name);
    return SGL_OK;
}

static int record(struct reader *r)
{
    if (!next(r))
        return SGL_OK; /* blank or comment */
    char kw[sizeof r->tok];
    memcpy(kw, r->tok, sizeof kw);
    if (r->seen_end)
        return rbad(r, SGL_EPARSE, "'%.40s' after 'end'", kw);
    if (!r->seen_header) {
        if (strcmp(kw, "sgl-machine") != 0)
            return rbad(r, SGL_EPARSE,
                        "expected 'sgl-machine 2' as the first record, found "
                        "'%.40s': not a machine file",
                        kw);
        unsigned long v;
        int rc = parse_uint(r, "format version", &v);
        if (rc)
            return rc;
        /* Format 2 changed one word: "node" in format 1 shapes is an MPI
         * process (SGL 0.1), a word format 2 refuses as hwloc's NUMA node. */
        if (v != 1 && v != 2)
            return rbad(r, SGL_EPARSE,
                        "format version %lu is not supported (this SGL reads "
                        "versions 1 and 2)",
                        v);
        r->version = (unsigned)v;
        r->seen_header = 1;
    } else if (strcmp(kw, "shape") == 0) {
        return rec_shape(r);
    } else if (strcmp(kw, "end") == 0) {
        r->seen_end = 1;
    } else if (strcmp(kw, "provenance") && strcmp(kw, "level") &&
               strcmp(kw, "master") && strcmp(kw, "kernel")) {
        return rbad(r, SGL_EPARSE,
                    "unknown record '%.40s' (expected shape, provenance, "
                    "level, master, kernel or end)",
                    kw);
    } else if (!r->m) {
        return rbad(r, SGL_EPARSE, "'%s' before the 'shape' record", kw);
    } else if (strcmp(kw, "provenance") == 0) {
        return rec_provenance(r);
    } else if (strcmp(kw, "level") == 0) {
        return rec_level(r);
    } else if (strcmp(kw, "master") == 0) {
        return rec_master(r);
    } else {
        return rec_kernel(r);
    }
    if (!at_end(r)) {
        next(r);
        return rbad(r, SGL_EPARSE, "unexpected '%.40s' after '%s'", r->tok,
                    kw);
    }
    return SGL_OK;
}

static int late_cmp(const void *a, const void *b)
{
    const struct late_point *x = a, *y = b;
    if (x->kernel != y->kernel)
        return x->kernel < y->kernel ? -1 : 1;
    if (x->pt.busy != y->pt.busy)
        return x->pt.busy < y->pt.busy ? -1 : 1;
    if (x->pt.n != y->pt.n)
        return x->pt.n < y->pt.n ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Merge the out-of-order points into their tables; a point given twice
 * is reported at its second line. */
static int merge_late(struct reader *r)
{
    if (r->nlate == 0)
        return SGL_OK;
    qsort(r->late, r->nlate, sizeof *r->late, late_cmp);
    for (size_t i = 0; i < r->nlate;) {
        struct sgl__kernel *k = &r->m->kernel[r->late[i].kernel];
        size_t j = i;
        struct sgl__kpoint *run = malloc((r->nlate - i) * sizeof *run);
        if (!run)
            return sgl_error_set(SGL_ENOMEM, "out of memory reading %s",
                                 r->name);
        for (; j < r->nlate && r->late[j].kernel == r->late[i].kernel; j++) {
            const struct late_point *q = &r->late[j];
            if (point_at(k, q->pt.n, q->pt.busy) ||
                (j > i && q->pt.busy == q[-1].pt.busy &&
                 q->pt.n == q[-1].pt.n)) {
                free(run);
                r->line = q->line;
                return rbad(r, SGL_EPARSE,
                            "duplicate kernel %s point n %g busy %u", k->name,
                            q->pt.n, q->pt.busy);
            }
            run[j - i] = q->pt;
        }
        int rc = sgl__kernel_merge_points(k, run, j - i);
        free(run);
        if (rc)
            return rc;
        i = j;
    }
    return SGL_OK;
}

/* What must hold at the end of the file. */
static int finish(struct reader *r)
{
    if (!r->seen_header)
        return rbad(r, SGL_EPARSE, "empty file: expected 'sgl-machine 2'");
    if (!r->m)
        return rbad(r, SGL_EPARSE, "end of file without a 'shape' record");
    if (!r->seen_end)
        return rbad(r, SGL_EPARSE,
                    "end of file without the 'end' record: the file is "
                    "truncated");
    int rc = merge_late(r);
    if (rc)
        return rc;
    for (unsigned l = 0; l <= r->m->depth; l++)
        if (r->m->level_masters[l] && !(r->level_seen[l] & SEEN_LEVEL))
            return rbad(r, SGL_EPARSE,
                        "missing level %u: the shape has masters there but "
                        "no 'level %u' record gives their l, g_down, g_up",
                        l, l);
    return SGL_OK;
}

/* Bounds on what a reader takes in, so that a stream with no newline
 * (/dev/zero) or no end is refused at once instead of filling memory. */
#define LINE_MAX_BYTES ((size_t)4 << 20)
#define FILE_MAX_BYTES ((size_t)64 << 20)

/* The next line into *buf (with its newline, if any) and its length:
 * 0 at the end of the stream, -1 on a read error, -2 if longer than
 * LINE_MAX_BYTES, -3 if the stream goes past FILE_MAX_BYTES. */
static long long read_line(FILE *in, char **buf, size_t *cap, size_t *total)
{
    size_t n = 0;
    for (;;) {
        if (n + 2 > *cap) {
            size_t c = *cap ? 2 * *cap : 256;
            char *b = realloc(*buf, c);
            if (!b)
                return -4;
            *buf = b;
            *cap = c;
        }
        int ch = getc_unlocked(in);
        if (ch == EOF) {
            if (ferror(in))
                return -1;
            break;
        }
        if (++*total > FILE_MAX_BYTES)
            return -3;
        (*buf)[n++] = (char)ch;
        if (ch == '\n')
            break;
        if (n > LINE_MAX_BYTES)
            return -2;
    }
    (*buf)[n] = '\0';
    return (long long)n;
}

static int read_machine(FILE *in, const char *name, size_t max_workers,
                        sgl_machine_t **ret_machine)
{
    if (!in || !ret_machine)
        return sgl_error_set(SGL_EINVAL, "sgl_machine_read: NULL argument");
    struct reader r = {.name = name ? name : "(stream)",
                       .max_workers = max_workers};
    char *buf = NULL;
    size_t cap = 0, total = 0;
    int rc = SGL_OK;
    for (;;) {
        errno = 0;
        long long len = read_line(in, &buf, &cap, &total);
        if (len == 0)
            break;
        if (len < 0) {
            r.line++;
            rc = len == -1   ? rbad(&r, SGL_EIO, "read error: %s",
                                    strerror(errno))
                 : len == -2 ? rbad(&r, SGL_EPARSE,
                                    "line longer than %zu bytes: not a "
                                    "machine file",
                                    LINE_MAX_BYTES)
                 : len == -3 ? rbad(&r, SGL_EPARSE,
                                    "the file goes past %zu bytes: not a "
                                    "machine file",
                                    FILE_MAX_BYTES)
                             : sgl_error_set(SGL_ENOMEM,
                                             "out of memory reading %s",
                                             r.name);
            break;
        }
        r.line++;
        size_t n = (size_t)len;
        /* A missing newline at the end is harmless: truncation shows as
         * a missing 'end' record or a record cut short. */
        if (n > 0 && buf[n - 1] == '\n')
            n--;
        if ((rc = check_text(&r, buf, n)))
            break;
        buf[n] = '\0';
        strip_comment(buf);
        r.text = buf;
        r.pos = 0;
        if ((rc = record(&r)))
            break;
    }
    if (rc == SGL_OK)
        rc = finish(&r);
    free(buf);
    free(r.level_seen);
    free(r.late);
    if (rc == SGL_OK) {
        size_t len = strlen(r.name) + sizeof "machine file ";
        char *src = malloc(len);
        if (!src) {
            rc = sgl_error_set(SGL_ENOMEM, "out of memory reading %s", r.name);
        } else {
            snprintf(src, len, "machine file %s", r.name);
            free(r.m->source);
            r.m->source = src;
        }
    }
    if (rc) {
        sgl_machine_free(r.m);
        return rc;
    }
    *ret_machine = r.m;
    return SGL_OK;
}

int sgl_machine_read(FILE *in, const char *name, sgl_machine_t **ret_machine)
{
    return read_machine(in, name, 0, ret_machine);
}

int sgl__machine_load_max(const char *path, size_t max_workers,
                          sgl_machine_t **ret_machine)
{
    if (!path || !ret_machine)
        return sgl_error_set(SGL_EINVAL, "sgl_machine_load: NULL argument");
    int fd;
    int rc = sgl__open_regular(path, "machine file", &fd);
    if (rc)
        return rc;
    FILE *in = fdopen(fd, "r");
    if (!in) {
        int e = errno;
        char ep[512];
        close(fd);
        return sgl_error_set(SGL_EIO, "cannot open machine file '%s': %s",
                             sgl__escape(path, 256, ep, sizeof ep),
                             strerror(e));
    }
    rc = read_machine(in, path, max_workers, ret_machine);
    fclose(in);
    return rc;
}

int sgl_machine_load(const char *path, sgl_machine_t **ret_machine)
{
    return sgl__machine_load_max(path, 0, ret_machine);
}
