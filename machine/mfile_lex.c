/* The machine-file reader's lexer: text checks, comments, tokens and the
 * values of a record with their units (mfile_reader.h). */
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

__attribute__((format(printf, 3, 4))) int
sgl__mf_bad(const struct reader *r, int code, const char *fmt, ...)
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
int sgl__mf_check_text(const struct reader *r, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t' && !(c == '\r' && i + 1 == len)) ||
            c == 0x7f)
            return sgl__mf_bad(r, SGL_EPARSE,
                        "binary data (byte 0x%02x at column %zu): not a "
                        "machine file",
                        c, i + 1);
    }
    return SGL_OK;
}

/* Remove a comment: '#' at the start or after a blank, outside quotes. */
void sgl__mf_strip_comment(char *s)
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

void sgl__mf_skip_blanks(struct reader *r)
{
    while (isspace((unsigned char)r->text[r->pos]))
        r->pos++;
}

/* The next blank-separated token into r->tok; 0 at the end of the line. */
int sgl__mf_next(struct reader *r)
{
    sgl__mf_skip_blanks(r);
    size_t n = 0;
    while (r->text[r->pos] && !isspace((unsigned char)r->text[r->pos])) {
        if (n + 1 < sizeof r->tok)
            r->tok[n++] = r->text[r->pos];
        r->pos++;
    }
    r->tok[n] = '\0';
    return n > 0;
}

int sgl__mf_at_end(struct reader *r)
{
    sgl__mf_skip_blanks(r);
    return r->text[r->pos] == '\0';
}

int sgl__mf_parse_uint(struct reader *r, const char *what, unsigned long *ret)
{
    if (!sgl__mf_next(r))
        return sgl__mf_bad(r, SGL_EPARSE, "missing %s", what);
    char *end;
    errno = 0;
    unsigned long v = strtoul(r->tok, &end, 10);
    if (!isdigit((unsigned char)r->tok[0]) || *end || errno)
        return sgl__mf_bad(r, SGL_EPARSE, "bad %s '%.40s' (expected a number >= 0)",
                    what, r->tok);
    *ret = v;
    return SGL_OK;
}


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
int sgl__mf_parse_value(struct reader *r, const char *what, enum unit unit,
                       double *ret)
{
    if (!sgl__mf_next(r))
        return sgl__mf_bad(r, SGL_EPARSE, "missing value of %s", what);
    char *end;
    double v = strtod(r->tok, &end);
    if (end == r->tok)
        return sgl__mf_bad(r, SGL_EPARSE, "bad value of %s '%.40s' (expected a "
                                   "number)",
                    what, r->tok);
    if (isnan(v) || isinf(v))
        return sgl__mf_bad(r, SGL_EPARSE, "%s is not a finite number (%.40s)", what,
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
            return sgl__mf_bad(r, SGL_EPARSE,
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
        return sgl__mf_bad(r, SGL_EPARSE, "negative %s (%.40s)", what, r->tok);
    *ret = v;
    return SGL_OK;
}

/* "l T g_down G g_up G" in any order ("g G" sets both g). */
int sgl__mf_parse_params(struct reader *r, sgl_link_params_t *p)
{
    int have_l = 0, have_down = 0, have_up = 0;
    while (sgl__mf_next(r)) {
        int rc;
        char key[sizeof r->tok];
        memcpy(key, r->tok, sizeof key);
        if (strcmp(key, "l") == 0) {
            rc = have_l++ ? sgl__mf_bad(r, SGL_EPARSE, "l given twice")
                          : sgl__mf_parse_value(r, "l", UNIT_TIME, &p->l);
        } else if (strcmp(key, "g_down") == 0) {
            rc = have_down++ ? sgl__mf_bad(r, SGL_EPARSE, "g_down given twice")
                             : sgl__mf_parse_value(r, "g_down", UNIT_PER_BYTE,
                                           &p->g_down);
        } else if (strcmp(key, "g_up") == 0) {
            rc = have_up++ ? sgl__mf_bad(r, SGL_EPARSE, "g_up given twice")
                           : sgl__mf_parse_value(r, "g_up", UNIT_PER_BYTE, &p->g_up);
        } else if (strcmp(key, "g") == 0) {
            rc = (have_down++ || have_up++)
                     ? sgl__mf_bad(r, SGL_EPARSE, "g given twice")
                     : sgl__mf_parse_value(r, "g", UNIT_PER_BYTE, &p->g_down);
            p->g_up = p->g_down;
        } else {
            rc = sgl__mf_bad(r, SGL_EPARSE,
                      "unknown parameter '%.40s' (expected l, g_down, g_up "
                      "or g)",
                      key);
        }
        if (rc)
            return rc;
    }
    if (!have_l)
        return sgl__mf_bad(r, SGL_EPARSE, "missing l");
    if (!have_down)
        return sgl__mf_bad(r, SGL_EPARSE, "missing g_down");
    if (!have_up)
        return sgl__mf_bad(r, SGL_EPARSE, "missing g_up");
    return SGL_OK;
}

/* "l T g G" in either order: the exchange parameters of a level. */
int sgl__mf_parse_exchange(struct reader *r, sgl_exchange_params_t *p)
{
    int have_l = 0, have_g = 0;
    while (sgl__mf_next(r)) {
        int rc;
        if (strcmp(r->tok, "l") == 0) {
            rc = have_l++ ? sgl__mf_bad(r, SGL_EPARSE, "l given twice")
                          : sgl__mf_parse_value(r, "exchange l", UNIT_TIME, &p->l);
        } else if (strcmp(r->tok, "g") == 0) {
            rc = have_g++ ? sgl__mf_bad(r, SGL_EPARSE, "g given twice")
                          : sgl__mf_parse_value(r, "exchange g", UNIT_PER_BYTE,
                                        &p->g);
        } else {
            rc = sgl__mf_bad(r, SGL_EPARSE,
                      "unknown exchange parameter '%.40s' (expected l or g)",
                      r->tok);
        }
        if (rc)
            return rc;
    }
    if (!have_l)
        return sgl__mf_bad(r, SGL_EPARSE, "missing l of the exchange");
    if (!have_g)
        return sgl__mf_bad(r, SGL_EPARSE, "missing g of the exchange");
    return SGL_OK;
}
