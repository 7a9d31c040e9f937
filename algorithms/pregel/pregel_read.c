/* Reading input files: the text edge list, and the opening that it and
 * the checkpoint reader share. Input is refused rather than guessed at:
 * only regular files are opened (a FIFO or a device such as /dev/zero
 * never ends, a directory is no input), and a text line holding a
 * control byte (NUL, ESC, ...) is a binary file, not a blank line.
 * What a message quotes from the input (a path, a line) has its control
 * bytes escaped, so that a message cannot drive a terminal. */
#include <ctype.h>
#include <math.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pregel_impl.h"

void sgl__pregel_escape(const char *s, size_t n, char *out, size_t size)
{
    size_t k = 0;
    for (size_t i = 0; i < n && s[i] && k + 5 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f)
            k += (size_t)snprintf(out + k, size - k, "\\x%02x", c);
        else
            out[k++] = (char)c;
    }
    if (size)
        out[k < size ? k : size - 1] = '\0';
}

/* What a file of mode @m is, for a message; NULL for a regular file. */
static const char *file_kind(mode_t m)
{
    if (S_ISREG(m))
        return NULL;
    return S_ISDIR(m)    ? "a directory"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

static int not_regular(const char *what, const char *epath, const char *kind)
{
    return sgl_error_set(SGL_EIO, "%s %s: is %s, not a regular file", what,
                         epath, kind);
}

/* O_NONBLOCK, so that opening a FIFO without a writer returns at once
 * (fstat then refuses it); cleared again for the regular file. A socket
 * cannot be opened at all (ENXIO): stat() then names it. */
int sgl__pregel_open_regular(const char *path, const char *what,
                             FILE **ret)
{
    char epath[256];
    sgl__pregel_escape(path, strlen(path), epath, sizeof epath);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        int err = errno;
        if (stat(path, &st) == 0 && file_kind(st.st_mode))
            return not_regular(what, epath, file_kind(st.st_mode));
        return sgl_error_set(SGL_EIO, "%s %s: cannot open: %s", what, epath,
                             strerror(err));
    }
    const char *kind = fstat(fd, &st) ? "unknown" : file_kind(st.st_mode);
    int flags = kind ? -1 : fcntl(fd, F_GETFL);
    FILE *f = NULL;
    if (!kind && flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0)
        f = fdopen(fd, "rb");
    if (!f) {
        int err = errno;
        close(fd);
        return kind ? not_regular(what, epath, kind)
                    : sgl_error_set(SGL_EIO, "%s %s: cannot open: %s", what,
                                    epath, strerror(err));
    }
    *ret = f;
    return SGL_OK;
}

/* ---- the text edge list ---- */

/* Longest line, bytes without its newline. */
#define LINE_CAP 512

/* Line @lineno of @f into @buf (LINE_CAP + 1 bytes), without its
 * newline: *@ret_got 0 at the end of the file. A control byte other
 * than tab, CR and newline, or a line past the cap, is an error that
 * says where. */
static int read_line(FILE *f, const char *epath, size_t lineno, char *buf,
                     int *ret_got)
{
    size_t len = 0;
    int c;
    while ((c = getc_unlocked(f)) != EOF && c != '\n') {
        if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
            return sgl_error_set(SGL_EPARSE,
                                 "%s:%zu:%zu: control byte \\x%02x: not a "
                                 "text edge list",
                                 epath, lineno, len + 1, c);
        if (len == LINE_CAP)
            return sgl_error_set(SGL_EPARSE,
                                 "%s:%zu: line longer than %d bytes", epath,
                                 lineno, LINE_CAP);
        buf[len++] = (char)c;
    }
    buf[len] = '\0';
    if (c == EOF && ferror(f))
        return sgl_error_set(SGL_EIO, "%s:%zu: read error: %s", epath,
                             lineno, strerror(errno ? errno : EIO));
    *ret_got = c != EOF || len > 0;
    return SGL_OK;
}

/* Parse one vertex number, 0 .. SGL_GRAPH_MAX_VERTICES - 1, at *@p,
 * moving past it. */
static int parse_vertex(const char **p, uint64_t *ret)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    if (!isdigit((unsigned char)**p))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(*p, &end, 10);
    if (errno || v >= SGL_GRAPH_MAX_VERTICES)
        return -1;
    *p = end;
    *ret = v;
    return 0;
}

/* Growing arrays of edges and their values (NULL while the file has no
 * value column). */
struct edge_list {
    uint64_t (*e)[2];
    double *w;
    size_t n, cap;
};

static int add_edge(struct edge_list *l, uint64_t s, uint64_t t, double w,
                    int valued)
{
    if (l->n == l->cap) {
        size_t c = l->cap ? 2 * l->cap : 1024;
        uint64_t (*x)[2] = realloc(l->e, c * sizeof *x);
        if (x)
            l->e = x;
        double *y = valued ? realloc(l->w, c * sizeof *y) : NULL;
        if (y)
            l->w = y;
        if (!x || (valued && !y))
            return sgl_error_set(SGL_ENOMEM, "out of memory for edges");
        l->cap = c;
    }
    if (valued)
        l->w[l->n] = w;
    l->e[l->n][0] = s;
    l->e[l->n++][1] = t;
    return SGL_OK;
}

/* An edge value at *@p: a finite number, as strtod reads it. */
static int parse_value(const char **p, double *ret)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    if (!**p || **p == '\r')
        return 1; /* no third column */
    errno = 0;
    char *end;
    double w = strtod(*p, &end);
    if (end == *p || errno || !isfinite(w))
        return -1;
    *p = end;
    *ret = w;
    return 0;
}

/* One line: a comment or blank (returns 1), an edge (returns 0, its
 * columns, 2 or 3, in *@cols), or an error. A third column is read only
 * where @values allows it. */
static int parse_line(const char *line, const char *epath, size_t lineno,
                      int values, uint64_t *ret_s, uint64_t *ret_t,
                      double *ret_w, int *cols)
{
    const char *p = line + strspn(line, " \t");
    if (*p == '#' || *p == '%' || *p == '\r' || !*p)
        return 1;
    int bad = parse_vertex(&p, ret_s) || parse_vertex(&p, ret_t), v = 1;
    if (!bad && values)
        bad = (v = parse_value(&p, ret_w)) < 0;
    *cols = v == 0 ? 3 : 2;
    if (bad || p[strspn(p, " \t\r")]) {
        char eline[4 * 80 + 1];
        sgl__pregel_escape(line, strcspn(line, "\r"), eline, sizeof eline);
        return sgl_error_set(SGL_EPARSE,
                             "%s:%zu: expected two vertex numbers (0 to "
                             "2^40 - 1)%s, got \"%s\"%s",
                             epath, lineno,
                             values ? " and an optional finite edge value"
                                    : "",
                             eline,
                             values ? ""
                                    : " (a file with edge values is read "
                                      "by sgl_graph_read_weighted_edges())");
    }
    return 0;
}

/* Every edge line must have the columns of the first. */
static int check_cols(int *first, int cols, const char *epath, size_t lineno)
{
    if (!*first)
        *first = cols;
    if (cols == *first)
        return SGL_OK;
    return sgl_error_set(SGL_EPARSE,
                         "%s:%zu: %d columns where the first edge has %d: "
                         "give every edge a value or none",
                         epath, lineno, cols, *first);
}

static int read_list(const char *path, int values, uint64_t *ret_n,
                     struct edge_list *l)
{
    FILE *f;
    SGL_TRY(sgl__pregel_open_regular(path, "edge list", &f));
    char epath[256], line[LINE_CAP + 1];
    sgl__pregel_escape(path, strlen(path), epath, sizeof epath);
    uint64_t top = 0, s = 0, t = 0;
    double w = 0;
    size_t lineno = 0;
    int rc = SGL_OK, got = 1, seen = 0, cols = 0, first = 0;
    while (!rc && got) {
        rc = read_line(f, epath, ++lineno, line, &got);
        int skip = rc || !got ? 1
                              : parse_line(line, epath, lineno, values, &s,
                                           &t, &w, &cols);
        if (skip < 0)
            rc = skip;
        if (rc || skip)
            continue;
        rc = check_cols(&first, cols, epath, lineno);
        if (!rc)
            rc = add_edge(l, s, t, w, cols == 3);
        top = s > top ? s : top;
        top = t > top ? t : top;
        seen = 1;
    }
    fclose(f);
    *ret_n = seen ? top + 1 : 0;
    return rc;
}

int sgl_graph_read_edges(const char *path, uint64_t *ret_n,
                         uint64_t (**ret_edges)[2], size_t *ret_m)
{
    if (!path || !ret_n || !ret_edges || !ret_m)
        return sgl_error_set(SGL_EINVAL, "sgl_graph_read_edges: NULL "
                                         "argument");
    struct edge_list l = {NULL, NULL, 0, 0};
    int rc = read_list(path, 0, ret_n, &l);
    if (rc) {
        free(l.e);
        return rc;
    }
    *ret_edges = l.e;
    *ret_m = l.n;
    return SGL_OK;
}

int sgl_graph_read_weighted_edges(const char *path, uint64_t *ret_n,
                                  uint64_t (**ret_edges)[2],
                                  double **ret_values, size_t *ret_m)
{
    if (!path || !ret_n || !ret_edges || !ret_values || !ret_m)
        return sgl_error_set(SGL_EINVAL, "sgl_graph_read_weighted_edges: "
                                         "NULL argument");
    struct edge_list l = {NULL, NULL, 0, 0};
    int rc = read_list(path, 1, ret_n, &l);
    if (rc) {
        free(l.e);
        free(l.w);
        return rc;
    }
    *ret_edges = l.e;
    *ret_values = l.w;
    *ret_m = l.n;
    return SGL_OK;
}
