/* The streaming JSON writer (json.h). It depends on the C library and the
 * public API only (error codes, sgl_version()), so that programs linking
 * the shared libsgl, where it is hidden, can compile this file in. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/errors.h>
#include <sgl/version.h>

#include "json.h"

void sgl__json_init(struct sgl__json *j, FILE *out, unsigned lines)
{
    j->out = out;
    j->lines = lines;
    j->depth = 0;
    j->broken = 0;
    j->done = 0;
    j->status = out ? SGL_OK : SGL_EINVAL;
}

static void put(struct sgl__json *j, const char *s, size_t n)
{
    if (j->status == SGL_OK && fwrite(s, 1, n, j->out) != n)
        j->status = SGL_EIO;
}

static void put_str(struct sgl__json *j, const char *s)
{
    put(j, s, strlen(s));
}

static void newline(struct sgl__json *j, unsigned indent)
{
    put(j, "\n", 1);
    for (unsigned i = 0; i < indent; i++)
        put(j, "  ", 2);
}

/* Length of the valid UTF-8 sequence at @s (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF), 0 if there is none. */
static size_t utf8_length(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* the second byte's range */
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

static void quoted(struct sgl__json *j, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    put(j, "\"", 1);
    while (*s) {
        /* Runs of bytes that need nothing go out in one write. */
        size_t run = 0;
        while (s[run] >= 0x20 && s[run] < 0x80 && s[run] != '"' &&
               s[run] != '\\')
            run++;
        put(j, (const char *)s, run);
        s += run;
        if (!*s)
            break;
        if (*s == '"' || *s == '\\') {
            char e[2] = {'\\', (char)*s};
            put(j, e, 2);
            s++;
        } else if (*s < 0x20) {
            char e[8];
            snprintf(e, sizeof e, "\\u%04x", *s);
            put(j, e, 6);
            s++;
        } else if ((run = utf8_length(s)) > 0) {
            put(j, (const char *)s, run);
            s += run;
        } else {
            put_str(j, "\\ufffd");
            s++;
        }
    }
    put(j, "\"", 1);
}

/* Everything before a value: the separator, the line break and indent
 * the layout asks for, and the key. Returns 0 when nothing may be
 * written (an earlier error, or this misuse). */
static int member(struct sgl__json *j, const char *key, int container)
{
    if (j->status != SGL_OK)
        return 0;
    if (j->depth == 0) {
        if (key || j->done) {
            j->status = SGL_EINVAL;
            return 0;
        }
        return 1;
    }
    struct sgl__json_open *o = &j->open[j->depth - 1];
    if ((o->close == '}') != (key != NULL)) {
        j->status = SGL_EINVAL;
        return 0;
    }
    if (o->members)
        put(j, ",", 1);
    if (j->depth <= j->lines || (o->close == ']' && container)) {
        if (!o->broken) {
            o->broken = 1;
            j->broken++;
        }
        newline(j, j->broken);
    } else if (o->members) {
        put(j, " ", 1);
    }
    o->members++;
    if (key) {
        quoted(j, key);
        put(j, ": ", 2);
    }
    return 1;
}

/* After a value: the document is complete when it was the top one. */
static void value_done(struct sgl__json *j)
{
    if (j->depth == 0)
        j->done = 1;
}

static void begin(struct sgl__json *j, const char *key, char open, char close)
{
    if (!member(j, key, 1))
        return;
    if (j->depth == SGL__JSON_MAX_NEST) {
        j->status = SGL_EINVAL;
        return;
    }
    j->open[j->depth++] = (struct sgl__json_open){close, 0, 0};
    put(j, &open, 1);
}

static void end(struct sgl__json *j, char close)
{
    if (j->status != SGL_OK)
        return;
    if (j->depth == 0 || j->open[j->depth - 1].close != close) {
        j->status = SGL_EINVAL;
        return;
    }
    if (j->open[--j->depth].broken)
        newline(j, --j->broken);
    put(j, &close, 1);
    value_done(j);
}

void sgl__json_begin_object(struct sgl__json *j, const char *key)
{
    begin(j, key, '{', '}');
}

void sgl__json_end_object(struct sgl__json *j)
{
    end(j, '}');
}

void sgl__json_begin_array(struct sgl__json *j, const char *key)
{
    begin(j, key, '[', ']');
}

void sgl__json_end_array(struct sgl__json *j)
{
    end(j, ']');
}

static void scalar(struct sgl__json *j, const char *key, const char *text)
{
    if (!member(j, key, 0))
        return;
    put_str(j, text);
    value_done(j);
}

void sgl__json_string(struct sgl__json *j, const char *key, const char *s)
{
    if (!s) {
        scalar(j, key, "null");
        return;
    }
    if (!member(j, key, 0))
        return;
    quoted(j, s);
    value_done(j);
}

void sgl__json_number(struct sgl__json *j, const char *key, double x)
{
    if (!isfinite(x)) {
        scalar(j, key, "null");
        return;
    }
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    /* A program that set LC_NUMERIC to a comma locale would otherwise
     * get "0,5"; strtod above read it back in that same locale. */
    char *comma = strchr(buf, ',');
    if (comma)
        *comma = '.';
    scalar(j, key, buf);
}

void sgl__json_int(struct sgl__json *j, const char *key, intmax_t x)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIdMAX, x);
    scalar(j, key, buf);
}

void sgl__json_uint(struct sgl__json *j, const char *key, uintmax_t x)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIuMAX, x);
    scalar(j, key, buf);
}

void sgl__json_bool(struct sgl__json *j, const char *key, int b)
{
    scalar(j, key, b ? "true" : "false");
}

void sgl__json_null(struct sgl__json *j, const char *key)
{
    scalar(j, key, "null");
}

int sgl__json_finish(struct sgl__json *j)
{
    if (j->status == SGL_OK && (j->depth || !j->done))
        j->status = SGL_EINVAL;
    put(j, "\n", 1);
    if (j->out && (fflush(j->out) || ferror(j->out)) && j->status != SGL_EINVAL)
        j->status = SGL_EIO;
    return j->status;
}

void sgl__json_begin_document(struct sgl__json *j, const char *name,
                              unsigned version)
{
    sgl__json_begin_object(j, NULL);
    sgl__json_begin_object(j, "schema");
    sgl__json_string(j, "name", name);
    sgl__json_uint(j, "version", version);
    sgl__json_end_object(j);
    sgl__json_string(j, "sgl_version", sgl_version());
}
