/* RFC 4180 CSV rows for the benchmarks (bench_csv.h). */
#include "bench_csv.h"

#include <errno.h>
#include <math.h>
#include <string.h>

int bench_csv_open(bench_csv_t *c, const char *path, const char *header,
                   int append, char *err, size_t errlen)
{
    c->f = NULL;
    c->col = 0;
    FILE *old = append ? fopen(path, "r") : NULL;
    int fresh = 1;
    if (old) {
        /* The first line, compared in full: a longer line than the header
         * is a mismatch too. */
        size_t len = strlen(header);
        char line[1024];
        int ch = 0;
        size_t i = 0;
        while (i < sizeof line && (ch = getc(old)) != EOF && ch != '\n')
            line[i++] = (char)ch;
        fclose(old);
        if (i > 0 || ch == '\n') {
            fresh = 0;
            if (i != len || memcmp(line, header, len) != 0 ||
                (ch != '\n' && ch != EOF)) {
                snprintf(err, errlen,
                         "%s has other columns than this version writes; "
                         "remove it or give another file",
                         path);
                return -1;
            }
        }
    }
    c->f = fopen(path, fresh ? "w" : "a");
    if (!c->f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    if (fresh)
        fprintf(c->f, "%s\n", header);
    return 0;
}

static void sep(bench_csv_t *c)
{
    if (c->col++)
        putc(',', c->f);
}

void bench_csv_str(bench_csv_t *c, const char *s)
{
    if (!c->f)
        return;
    sep(c);
    if (!s)
        return;
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, c->f);
        return;
    }
    putc('"', c->f);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', c->f);
        putc(*s, c->f);
    }
    putc('"', c->f);
}

void bench_csv_num(bench_csv_t *c, double v)
{
    if (!c->f)
        return;
    sep(c);
    if (isfinite(v))
        fprintf(c->f, "%.9g", v);
}

void bench_csv_int(bench_csv_t *c, long long v)
{
    if (!c->f)
        return;
    sep(c);
    fprintf(c->f, "%lld", v);
}

void bench_csv_empty(bench_csv_t *c)
{
    if (c->f)
        sep(c);
}

void bench_csv_end(bench_csv_t *c)
{
    if (!c->f)
        return;
    putc('\n', c->f);
    c->col = 0;
}

int bench_csv_close(bench_csv_t *c)
{
    if (!c->f)
        return 0;
    int bad = ferror(c->f);
    bad |= fclose(c->f) != 0;
    c->f = NULL;
    return bad ? -1 : 0;
}
