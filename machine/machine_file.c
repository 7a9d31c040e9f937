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
 * 17 significant digits, so that reading gives back the same doubles
 * (mfile_write.c). This file reads: the kernel, provenance and shape
 * records, the file as a whole; the lexer is mfile_lex.c, the level
 * records mfile_level.c. */
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
    int rc = sgl__mf_parse_value(r, "n", UNIT_COUNT, &n);
    if (rc)
        return rc;
    if (!(n >= 1))
        return sgl__mf_bad(r, SGL_EPARSE, "kernel %s: n = %g, expected at least 1",
                    name, n);
    if (!sgl__mf_at_end(r)) {
        if (!sgl__mf_next(r) || strcmp(r->tok, "busy") != 0)
            return sgl__mf_bad(r, SGL_EPARSE,
                        "unexpected '%.40s' after the kernel's n (expected "
                        "'busy Q' or the end of the line)",
                        r->tok);
        if ((rc = sgl__mf_parse_uint(r, "busy workers", &busy)))
            return rc;
        if (busy == 0 || busy > SGL__MAX_WORKERS)
            return sgl__mf_bad(r, SGL_EPARSE,
                        "kernel %s: busy %lu (expected 1 to %zu workers)",
                        name, busy, SGL__MAX_WORKERS);
        if (!sgl__mf_at_end(r)) {
            sgl__mf_next(r);
            return sgl__mf_bad(r, SGL_EPARSE, "unexpected '%.40s' after busy",
                        r->tok);
        }
    }
    const struct sgl__kernel *k = sgl__kernel_find(r->m, name);
    if (k && point_at(k, n, (unsigned)busy))
        return sgl__mf_bad(r, SGL_EPARSE, "duplicate kernel %s point n %g busy %lu",
                    name, n, busy);
    const struct sgl__kpoint *last = k && k->npt ? &k->pt[k->npt - 1] : NULL;
    if (!last || last->busy < busy || (last->busy == busy && last->n < n))
        return sgl_machine_set_kernel_point(r->m, name, n, (unsigned)busy, c);
    /* Out of order: c is checked now, the point merged at the end. */
    if (sgl__check_value("kernel point", "c", c))
        return sgl__mf_bad(r, SGL_EPARSE, "%s", sgl_error_last());
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
    if (!sgl__mf_next(r))
        return sgl__mf_bad(r, SGL_EPARSE, "missing kernel name");
    char name[sizeof r->tok];
    memcpy(name, r->tok, sizeof name);
    if (!sgl__valid_name(name, SGL_KERNEL_NAME_MAX))
        return sgl__mf_bad(r, SGL_EPARSE,
                    "bad kernel name '%.40s' (expected [A-Za-z0-9_.-], 1 to "
                    "%d characters)",
                    name, SGL_KERNEL_NAME_MAX);
    double c;
    int rc = sgl__mf_parse_value(r, "c", UNIT_TIME, &c);
    if (rc)
        return rc;
    sgl_machine_t *m = r->m;
    struct sgl__kernel *k = sgl__kernel_find(m, name);
    if (sgl__mf_at_end(r)) {
        if (k && !isnan(k->all_c))
            return sgl__mf_bad(r, SGL_EPARSE, "duplicate kernel %s", name);
        if (k) { /* after per-worker lines: keep them */
            k->all_c = c;
            return SGL_OK;
        }
        return sgl_machine_set_kernel(m, name, c);
    }
    unsigned long w;
    if (sgl__mf_next(r) && strcmp(r->tok, "n") == 0)
        return kernel_point(r, name, c);
    if (strcmp(r->tok, "worker") != 0)
        return sgl__mf_bad(r, SGL_EPARSE,
                    "unexpected '%.40s' after the kernel's c (expected "
                    "'worker W', 'n N [busy Q]' or the end of the line)",
                    r->tok);
    if ((rc = sgl__mf_parse_uint(r, "worker number", &w)))
        return rc;
    if (!sgl__mf_at_end(r)) {
        sgl__mf_next(r);
        return sgl__mf_bad(r, SGL_EPARSE, "unexpected '%.40s' after the worker",
                    r->tok);
    }
    if (w >= m->workers)
        return sgl__mf_bad(r, SGL_EPARSE,
                    "worker %lu does not exist (the shape has %zu workers)", w,
                    m->workers);
    if (k && k->worker_c && !isnan(k->worker_c[w]))
        return sgl__mf_bad(r, SGL_EPARSE, "duplicate kernel %s for worker %lu", name,
                    w);
    return sgl_machine_set_worker_kernel(m, w, name, c);
}

/* A provenance value: a quoted string with \" and \\ escapes, or the
 * rest of the line. */
static int rec_provenance(struct reader *r)
{
    if (!sgl__mf_next(r))
        return sgl__mf_bad(r, SGL_EPARSE, "missing provenance key");
    char key[sizeof r->tok];
    memcpy(key, r->tok, sizeof key);
    if (!sgl__valid_name(key, 64))
        return sgl__mf_bad(r, SGL_EPARSE,
                    "bad provenance key '%.40s' (expected [A-Za-z0-9_.-], 1 "
                    "to 64 characters)",
                    key);
    if (sgl_machine_provenance(r->m, key))
        return sgl__mf_bad(r, SGL_EPARSE, "duplicate provenance %s", key);
    sgl__mf_skip_blanks(r);
    char *v = r->text + r->pos;
    if (*v == '"') {
        char *out = v, *in = v + 1;
        for (;; in++) {
            if (*in == '\0')
                return sgl__mf_bad(r, SGL_EPARSE,
                            "missing closing '\"' in provenance %s", key);
            if (*in == '"')
                break;
            if (*in == '\\' && (in[1] == '"' || in[1] == '\\'))
                in++;
            *out++ = *in;
        }
        *out = '\0';
        r->pos = (size_t)(in + 1 - r->text);
        if (!sgl__mf_at_end(r)) {
            sgl__mf_next(r);
            return sgl__mf_bad(r, SGL_EPARSE,
                        "unexpected '%.40s' after the quoted value", r->tok);
        }
    }
    int rc = sgl_machine_set_provenance(r->m, key, v);
    return rc == SGL_EINVAL ? sgl__mf_bad(r, SGL_EPARSE, "%s", sgl_error_last()) : rc;
}

static int rec_shape(struct reader *r)
{
    if (r->m)
        return sgl__mf_bad(r, SGL_EPARSE, "duplicate shape");
    sgl__mf_skip_blanks(r);
    const char *shape = r->text + r->pos;
    if (!*shape)
        return sgl__mf_bad(r, SGL_EPARSE, "missing shape string after 'shape'");
    size_t workers = 0;
    /* Counted from the string before a node is built: a reader with a
     * cap refuses at once a shape it would take minutes to build. */
    if (r->max_workers && sgl_shape_counts(shape, NULL, &workers) == SGL_OK &&
        workers > r->max_workers)
        return sgl__mf_bad(r, SGL_ERANGE,
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
        return sgl__mf_bad(r, SGL_EPARSE, "%s", sgl_error_last());
    if (rc)
        return rc;
    r->level_seen = calloc(r->m->depth + 1, 1);
    if (!r->level_seen)
        return sgl_error_set(SGL_ENOMEM, "out of memory reading %s", r->name);
    return SGL_OK;
}

static int record(struct reader *r)
{
    if (!sgl__mf_next(r))
        return SGL_OK; /* blank or comment */
    char kw[sizeof r->tok];
    memcpy(kw, r->tok, sizeof kw);
    if (r->seen_end)
        return sgl__mf_bad(r, SGL_EPARSE, "'%.40s' after 'end'", kw);
    if (!r->seen_header) {
        if (strcmp(kw, "sgl-machine") != 0)
            return sgl__mf_bad(r, SGL_EPARSE,
                        "expected 'sgl-machine 2' as the first record, found "
                        "'%.40s': not a machine file",
                        kw);
        unsigned long v;
        int rc = sgl__mf_parse_uint(r, "format version", &v);
        if (rc)
            return rc;
        /* Format 2 changed one word: "node" in format 1 shapes is an MPI
         * process (SGL 0.1), a word format 2 refuses as hwloc's NUMA node. */
        if (v != 1 && v != 2)
            return sgl__mf_bad(r, SGL_EPARSE,
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
        return sgl__mf_bad(r, SGL_EPARSE,
                    "unknown record '%.40s' (expected shape, provenance, "
                    "level, master, kernel or end)",
                    kw);
    } else if (!r->m) {
        return sgl__mf_bad(r, SGL_EPARSE, "'%s' before the 'shape' record", kw);
    } else if (strcmp(kw, "provenance") == 0) {
        return rec_provenance(r);
    } else if (strcmp(kw, "level") == 0) {
        return sgl__mf_rec_level(r);
    } else if (strcmp(kw, "master") == 0) {
        return sgl__mf_rec_master(r);
    } else {
        return rec_kernel(r);
    }
    if (!sgl__mf_at_end(r)) {
        sgl__mf_next(r);
        return sgl__mf_bad(r, SGL_EPARSE, "unexpected '%.40s' after '%s'", r->tok,
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
                return sgl__mf_bad(r, SGL_EPARSE,
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
        return sgl__mf_bad(r, SGL_EPARSE, "empty file: expected 'sgl-machine 2'");
    if (!r->m)
        return sgl__mf_bad(r, SGL_EPARSE, "end of file without a 'shape' record");
    if (!r->seen_end)
        return sgl__mf_bad(r, SGL_EPARSE,
                    "end of file without the 'end' record: the file is "
                    "truncated");
    int rc = merge_late(r);
    if (rc)
        return rc;
    for (unsigned l = 0; l <= r->m->depth; l++)
        if (r->m->level_masters[l] && !(r->level_seen[l] & SEEN_LEVEL))
            return sgl__mf_bad(r, SGL_EPARSE,
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
            rc = len == -1   ? sgl__mf_bad(&r, SGL_EIO, "read error: %s",
                                    strerror(errno))
                 : len == -2 ? sgl__mf_bad(&r, SGL_EPARSE,
                                    "line longer than %zu bytes: not a "
                                    "machine file",
                                    LINE_MAX_BYTES)
                 : len == -3 ? sgl__mf_bad(&r, SGL_EPARSE,
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
        if ((rc = sgl__mf_check_text(&r, buf, n)))
            break;
        buf[n] = '\0';
        sgl__mf_strip_comment(buf);
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

