/* Checkpoints of vertex programs at superstep boundaries, made to prove
 * what they hold (as SCR/VeloC's and a database's write-ahead log do):
 * every byte is covered by a CRC32C (pregel_crc.c), and every file is
 * bound to the graph, the program, its parameters and the checkpoint.
 *
 * Worker files, "w<W>.s<S>.ckpt" (worker W, in depth-first order, at
 * superstep S), in the byte order of the machine that wrote them:
 *   header (struct head, 88 bytes): magic "SGLPRCK2"; n, the first and
 *     end vertex of the worker's range, S, value and message size; the
 *     run's identity (sgl__ckpt_ident(): a hash of the graph identity,
 *     the program's name and sizes and the parameters); the contents'
 *     length; the CRC32C of the aggregators the manifest will record;
 *     the contents' CRC32C; 4 zero bytes; and the CRC32C of the
 *     header's 84 bytes before it;
 *   contents: the range's values, halted flags (0 or 1), message flags
 *     (0 or 1) and messages, each an array in vertex order.
 * The manifest, "manifest", a text file the root writes, one field a
 * line: "sgl-pregel-checkpoint 2", step, vertices, edges, graph (the
 * identity, sgl__graph_identity(): a hash of n, m and every edge, the
 * same on any number of workers), workers, value_size, msg_size,
 * program (its name), params and agg (exact, as hexadecimal floats),
 * stats, exchanges, files (the sum modulo 2^64 of a hash of each
 * worker file's number and header CRC: which files, byte for byte, make
 * the checkpoint), cuts (only for a graph cut by sgl_graph_balance(),
 * which fix every file's range), and last "crc", the CRC32C (8 hex
 * digits) of every byte before that line.
 * Commit order: every worker writes its file under a temporary name,
 * fsyncs it and renames it into place; then the root writes the manifest
 * likewise, last: a crash leaves the last complete checkpoint.
 * A resume checks the manifest's CRC and fields against the graph,
 * program and parameters it is given; each worker checks the CRCs and
 * fields of every file it reads, and hands up its share of the files
 * sum, which the root compares with the manifest's. A short file is
 * SGL_EIO (truncated: what a crash or a short copy leaves); any
 * mismatch SGL_EPARSE, naming the file and what differs. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pregel_crc.h"
#include "pregel_impl.h"

#define MAGIC "SGLPRCK2"
#define MANIFEST_MAGIC "sgl-pregel-checkpoint 2"

struct head {
    char magic[8];
    uint64_t n, v0, v1, step, value_size, msg_size;
    uint64_t ident;        /* sgl__ckpt_ident() of the run */
    uint64_t body_bytes;   /* what follows the header */
    uint32_t agg_crc;      /* agg_crc() of the manifest's aggregators */
    uint32_t body_crc;     /* CRC32C of the contents */
    uint32_t reserved;     /* 0 */
    uint32_t head_crc;     /* CRC32C of the header up to this field */
};
_Static_assert(sizeof(struct head) == 88, "checkpoint header layout");

/* The CRC32C of the aggregators, NaN made one NaN (the manifest's text
 * keeps no payload): binds a worker file to its manifest's aggregators,
 * which the root writes after the files. */
static uint32_t agg_crc(const double *agg)
{
    double x[SGL_PREGEL_MAX_AGGS];
    for (unsigned i = 0; i < SGL_PREGEL_MAX_AGGS; i++)
        x[i] = isnan(agg[i]) ? NAN : agg[i];
    return sgl__crc32c(0, x, sizeof x);
}

static void file_name(char *buf, size_t size, const char *dir, size_t w,
                      unsigned step)
{
    snprintf(buf, size, "%s/w%zu.s%u.ckpt", dir, w, step);
}

static int io_error(const char *path, const char *what)
{
    return sgl_error_set(SGL_EIO, "checkpoint %s: %s: %s", path, what,
                         strerror(errno ? errno : EIO));
}

/* The same finaliser as the graph identity's. */
static uint64_t fmix64(uint64_t x)
{
    x = (x ^ (x >> 33)) * UINT64_C(0xFF51AFD7ED558CCD);
    x = (x ^ (x >> 33)) * UINT64_C(0xC4CEB93FE53E4C1B);
    return x ^ (x >> 33);
}

/* Worker file @w's term of the manifest's files sum. */
static uint64_t file_term(size_t w, uint32_t head_crc)
{
    return fmix64(((uint64_t)w << 32) ^ head_crc ^ UINT64_C(0x5CA1AB1E));
}

uint64_t sgl__ckpt_ident(uint64_t graph, const sgl_pregel_program_t *p,
                         const double *params)
{
    char name[64];
    sgl__ckpt_program_name(p->name, name);
    uint64_t h = fmix64(graph ^ sgl__crc32c(0, name, strlen(name)));
    h = fmix64(h ^ p->value_size ^ (uint64_t)p->msg_size << 32);
    return fmix64(h ^ sgl__crc32c(0, params,
                                  SGL_PREGEL_MAX_PARAMS * sizeof *params));
}

/* Write @path through @tmp and a rename; @fill writes the contents. */
static int write_atomic(const char *path, int (*fill)(FILE *, const void *),
                        const void *arg)
{
    char tmp[PREGEL_DIR_MAX + 64];
    int len = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (len < 0 || (size_t)len >= sizeof tmp)
        return sgl_error_set(SGL_EINVAL, "checkpoint %s: path too long",
                             path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return io_error(tmp, "cannot create");
    int bad = fill(f, arg) || fflush(f) || fsync(fileno(f));
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path)) {
        int rc = io_error(path, "cannot write");
        unlink(tmp);
        return rc;
    }
    return SGL_OK;
}

/* ---- worker files ---- */

struct worker_file {
    struct head h;
    const struct wgraph *g;
    const sgl_pregel_program_t *p;
};

static int fill_worker(FILE *f, const void *arg)
{
    const struct worker_file *x = arg;
    const struct wgraph *g = x->g;
    size_t nv = (size_t)(g->v1 - g->v0);
    return fwrite(&x->h, sizeof x->h, 1, f) != 1 ||
           fwrite(g->value, x->p->value_size, nv, f) != nv ||
           fwrite(g->halted, 1, nv, f) != nv ||
           fwrite(g->has_msg, 1, nv, f) != nv ||
           fwrite(g->inbox, x->p->msg_size, nv, f) != nv;
}

/* The contents' length for @nv vertices. */
static uint64_t body_bytes(uint64_t nv, const sgl_pregel_program_t *p)
{
    return nv * (p->value_size + 2 + p->msg_size);
}

int sgl__ckpt_write(sgl_ctx_t *worker, const struct wgraph *g,
                    const sgl_pregel_program_t *p, const char *dir,
                    unsigned step, uint64_t ident, const double *agg,
                    uint64_t *ret_term)
{
    char path[PREGEL_DIR_MAX + 64];
    size_t w = sgl_ctx_first_worker(worker), nv = (size_t)(g->v1 - g->v0);
    file_name(path, sizeof path, dir, w, step);
    struct worker_file x = {{{0}, g->n, g->v0, g->v1, step, p->value_size,
                             p->msg_size, ident, body_bytes(nv, p),
                             agg_crc(agg), 0, 0, 0},
                            g, p};
    memcpy(x.h.magic, MAGIC, sizeof x.h.magic);
    uint32_t c = sgl__crc32c(0, g->value, nv * p->value_size);
    c = sgl__crc32c(c, g->halted, nv);
    c = sgl__crc32c(c, g->has_msg, nv);
    x.h.body_crc = sgl__crc32c(c, g->inbox, nv * p->msg_size);
    x.h.head_crc = sgl__crc32c(0, &x.h, offsetof(struct head, head_crc));
    *ret_term = file_term(w, x.h.head_crc);
    return write_atomic(path, fill_worker, &x);
}

void sgl__ckpt_remove(sgl_ctx_t *worker, const char *dir, unsigned step)
{
    char path[PREGEL_DIR_MAX + 64];
    file_name(path, sizeof path, dir, sgl_ctx_first_worker(worker), step);
    unlink(path); /* gone already is fine */
}

/* The first field of @h that differs from @want's, or NULL; its values
 * in *@got and *@exp. */
static const char *head_differs(const struct head *h, const struct head *want,
                                uint64_t *got, uint64_t *exp)
{
    static const struct {
        const char *name;
        size_t at;
    } fields[] = {
        {"vertices", offsetof(struct head, n)},
        {"first vertex", offsetof(struct head, v0)},
        {"end vertex", offsetof(struct head, v1)},
        {"superstep", offsetof(struct head, step)},
        {"value size", offsetof(struct head, value_size)},
        {"message size", offsetof(struct head, msg_size)},
        {"identity (graph, program, parameters)",
         offsetof(struct head, ident)},
        {"contents' length", offsetof(struct head, body_bytes)},
    };
    for (size_t k = 0; k < sizeof fields / sizeof *fields; k++) {
        memcpy(got, (const char *)h + fields[k].at, sizeof *got);
        memcpy(exp, (const char *)want + fields[k].at, sizeof *exp);
        if (*got != *exp)
            return fields[k].name;
    }
    return NULL;
}

/* Read and check @path's header against @want. */
static int read_head(FILE *f, const char *path, const struct head *want,
                     struct head *h)
{
    size_t got = fread(h, 1, sizeof *h, f);
    if (got != sizeof *h)
        return sgl_error_set(SGL_EIO, "checkpoint %s: truncated: %zu of "
                                      "the %zu bytes of its header",
                             path, got, sizeof *h);
    uint32_t c = sgl__crc32c(0, h, offsetof(struct head, head_crc));
    if (c != h->head_crc)
        return sgl_error_set(SGL_EPARSE, "checkpoint %s: the header's "
                                         "checksum is 0x%08x, it records "
                                         "0x%08x: the header is corrupt",
                             path, c, h->head_crc);
    if (memcmp(h->magic, MAGIC, sizeof h->magic)) {
        char m[40];
        sgl__pregel_escape(h->magic, sizeof h->magic, m, sizeof m);
        return sgl_error_set(SGL_EPARSE, "checkpoint %s: magic \"%s\", not "
                                         "\"%s\": not a checkpoint file of "
                                         "this version",
                             path, m, MAGIC);
    }
    uint64_t a, b;
    const char *field = head_differs(h, want, &a, &b);
    if (!field && h->agg_crc != want->agg_crc)
        return sgl_error_set(SGL_EPARSE, "checkpoint %s: its aggregators' "
                                         "checksum is 0x%08x, the "
                                         "manifest's aggregators' 0x%08x: "
                                         "the manifest's agg line is not "
                                         "this checkpoint's",
                             path, h->agg_crc, want->agg_crc);
    if (field)
        return sgl_error_set(SGL_EPARSE, "checkpoint %s: its header's %s is "
                                         "%llu (0x%llx), this resume's "
                                         "%llu (0x%llx)",
                             path, field, (unsigned long long)a,
                             (unsigned long long)a, (unsigned long long)b,
                             (unsigned long long)b);
    return SGL_OK;
}

/* Read @h->body_bytes of contents into *@ret_body and check them: their
 * CRC, nothing after them, flags 0 or 1 (@nv vertices). */
static int read_body(FILE *f, const char *path, const struct head *h,
                     size_t nv, size_t vs, unsigned char **ret_body)
{
    size_t len = (size_t)h->body_bytes;
    unsigned char *b = malloc(len ? len : 1);
    if (!b)
        return sgl_error_set(SGL_ENOMEM, "checkpoint %s: out of memory for "
                                         "%zu bytes",
                             path, len);
    size_t got = fread(b, 1, len, f);
    int rc = SGL_OK;
    uint32_t c = got == len ? sgl__crc32c(0, b, len) : 0;
    if (got != len)
        rc = sgl_error_set(SGL_EIO, "checkpoint %s: truncated: %zu of the "
                                    "%zu bytes its header announces",
                           path, got, len);
    else if (getc(f) != EOF)
        rc = sgl_error_set(SGL_EPARSE, "checkpoint %s: longer than the %zu "
                                       "bytes its header announces",
                           path, sizeof *h + len);
    else if (c != h->body_crc)
        rc = sgl_error_set(SGL_EPARSE, "checkpoint %s: the contents' "
                                       "checksum is 0x%08x, the header "
                                       "records 0x%08x: values, flags or "
                                       "messages are corrupt",
                           path, c, h->body_crc);
    for (size_t i = 0; !rc && i < 2 * nv; i++)
        if (b[nv * vs + i] > 1)
            rc = sgl_error_set(SGL_EPARSE, "checkpoint %s: the %s flag of "
                                           "vertex %llu is %u, not 0 or 1",
                               path, i < nv ? "halted" : "message",
                               (unsigned long long)(h->v0 + i % nv),
                               b[nv * vs + i]);
    if (rc)
        free(b);
    else
        *ret_body = b;
    return rc;
}

/* Old worker @w's file, checked whole; the part of it that lies in
 * this worker's range copied in; its term of the files sum added to
 * *@sum if @count. */
static int read_part(struct wgraph *g, const sgl_pregel_program_t *p,
                     const char *dir, unsigned step, size_t w,
                     const struct ckpt_manifest *m, uint64_t ident,
                     int count, uint64_t *sum)
{
    char path[PREGEL_DIR_MAX + 64];
    file_name(path, sizeof path, dir, w, step);
    uint64_t ov0 = pregel_first(m->cuts, g->n, m->workers, w);
    uint64_t ov1 = pregel_first(m->cuts, g->n, m->workers, w + 1);
    size_t onv = (size_t)(ov1 - ov0), vs = p->value_size, ms = p->msg_size;
    struct head want = {{0}, g->n, ov0, ov1, step, vs, ms, ident,
                        body_bytes(onv, p), agg_crc(m->agg), 0, 0, 0}, h;
    FILE *f;
    SGL_TRY(sgl__pregel_open_regular(path, "checkpoint", &f));
    unsigned char *b = NULL;
    int rc = read_head(f, path, &want, &h);
    if (!rc)
        rc = read_body(f, path, &h, onv, vs, &b);
    fclose(f);
    if (rc)
        return rc;
    uint64_t lo = g->v0 > ov0 ? g->v0 : ov0, hi = g->v1 < ov1 ? g->v1 : ov1;
    if (lo < hi) {
        size_t off = (size_t)(lo - ov0), cnt = (size_t)(hi - lo);
        size_t at = (size_t)(lo - g->v0);
        memcpy(g->value + at * vs, b + off * vs, cnt * vs);
        memcpy(g->halted + at, b + onv * vs + off, cnt);
        memcpy(g->has_msg + at, b + onv * (vs + 1) + off, cnt);
        memcpy(g->inbox + at * ms, b + onv * (vs + 2) + off * ms, cnt * ms);
    }
    free(b);
    if (count)
        *sum += file_term(w, h.head_crc);
    return SGL_OK;
}

/* Each worker reads the manifest for the checkpoint's cut (the root
 * checked it before the same step), then every old file that overlaps
 * its range, and every file anchored in it, which it counts: a file is
 * anchored at its first vertex (the last vertex for an empty range at
 * the end), so that each is counted once, on any tree. */
int sgl__ckpt_read(sgl_ctx_t *worker, struct wgraph *g,
                   const sgl_pregel_program_t *p, const char *dir,
                   unsigned step, uint64_t ident, uint64_t *ret_sum)
{
    (void)worker;
    *ret_sum = 0;
    if (g->v1 == g->v0)
        return SGL_OK;
    struct ckpt_manifest m;
    SGL_TRY(sgl__ckpt_manifest_read(dir, &m));
    int rc = m.step == step && m.n == g->n
                 ? SGL_OK
                 : sgl_error_set(SGL_EPARSE, "checkpoint %s: the manifest "
                                             "changed during the resume",
                                 dir);
    for (size_t w = 0; w < m.workers && !rc; w++) {
        uint64_t ov0 = pregel_first(m.cuts, g->n, m.workers, w);
        uint64_t ov1 = pregel_first(m.cuts, g->n, m.workers, w + 1);
        uint64_t anchor = ov0 < g->n ? ov0 : g->n - 1;
        int count = anchor >= g->v0 && anchor < g->v1;
        if (count || (ov0 < g->v1 && ov1 > g->v0))
            rc = read_part(g, p, dir, step, w, &m, ident, count, ret_sum);
    }
    free(m.cuts);
    return rc;
}

/* ---- the manifest ---- */

void sgl__ckpt_program_name(const char *name, char *buf)
{
    snprintf(buf, 64, "%s", name && *name ? name : "-");
    for (char *c = buf; *c; c++)
        if ((unsigned char)*c <= ' ' || *c == 0x7f)
            *c = '_';
}

static int fill_fields(FILE *f, const struct ckpt_manifest *m)
{
    const sgl_pregel_stats_t *s = &m->stats;
    const double *x = m->params, *a = m->agg;
    int bad = fprintf(f, MANIFEST_MAGIC "\nstep %u\nvertices %llu\n"
                         "edges %llu\ngraph %016llx\nworkers %zu\n"
                         "value_size %zu\nmsg_size %zu\nprogram %s\n",
                      m->step, (unsigned long long)m->n,
                      (unsigned long long)m->m,
                      (unsigned long long)m->graph, m->workers,
                      m->value_size, m->msg_size, m->program) < 0;
    bad |= fprintf(f, "params %a %a %a %a\nagg %a %a %a %a\n", x[0], x[1],
                   x[2], x[3], a[0], a[1], a[2], a[3]) < 0;
    bad |= fprintf(f, "stats %u %llu %llu %llu %llu\n", s->supersteps,
                   (unsigned long long)s->messages,
                   (unsigned long long)s->combined,
                   (unsigned long long)s->max_worker_bytes,
                   (unsigned long long)s->max_worker_bytes_uncombined) < 0;
    bad |= fprintf(f, "exchanges %llu\nfiles %016llx\n",
                   (unsigned long long)s->exchanges,
                   (unsigned long long)m->files) < 0;
    if (m->cuts) {
        bad |= fprintf(f, "cuts") < 0;
        for (size_t w = 0; w <= m->workers; w++)
            bad |= fprintf(f, " %llu", (unsigned long long)m->cuts[w]) < 0;
        bad |= fprintf(f, "\n") < 0;
    }
    return bad;
}

struct text {
    const char *buf;
    size_t len;
};

/* The fields, then the CRC32C of them. */
static int fill_text(FILE *f, const void *arg)
{
    const struct text *t = arg;
    return fwrite(t->buf, 1, t->len, f) != t->len ||
           fprintf(f, "crc %08x\n", sgl__crc32c(0, t->buf, t->len)) < 0;
}

int sgl__ckpt_manifest_write(const char *dir, const struct ckpt_manifest *m)
{
    char path[PREGEL_DIR_MAX + 64];
    snprintf(path, sizeof path, "%s/manifest", dir);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int bad = !f || fill_fields(f, m);
    bad |= f && fclose(f) != 0;
    struct text t = {buf, len};
    int rc = bad ? sgl_error_set(SGL_ENOMEM, "checkpoint %s: out of memory",
                                 path)
                 : write_atomic(path, fill_text, &t);
    free(buf);
    return rc;
}

/* Most bytes a manifest may have: a cut line for a million workers. */
#define MANIFEST_MAX (64u << 20)

/* The whole of @path into *@ret (NUL-terminated), its length *@ret_len. */
static int slurp(const char *path, char **ret, size_t *ret_len)
{
    if (access(path, F_OK))
        return io_error(path, "no checkpoint to resume from");
    FILE *f;
    SGL_TRY(sgl__pregel_open_regular(path, "checkpoint", &f));
    size_t cap = 0, len = 0, got = 1;
    char *buf = NULL;
    int rc = SGL_OK;
    while (!rc && got) {
        char *x = len < cap ? buf
                  : cap < MANIFEST_MAX
                      ? realloc(buf, (cap = cap ? 2 * cap : 4096) + 1)
                      : NULL;
        if (!x)
            rc = sgl_error_set(cap < MANIFEST_MAX ? SGL_ENOMEM : SGL_EPARSE,
                               "checkpoint %s: %s", path,
                               cap < MANIFEST_MAX
                                   ? "out of memory"
                                   : "longer than a manifest can be");
        buf = x ? x : buf;
        got = rc ? 0 : fread(buf + len, 1, cap - len, f);
        len += got;
    }
    if (!rc && ferror(f))
        rc = io_error(path, "read error");
    fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[len] = '\0';
    *ret = buf;
    *ret_len = len;
    return SGL_OK;
}

/* The length of the fields before the "crc" line, once their CRC32C is
 * what that line records. */
static int check_text(const char *path, const char *buf, size_t len,
                      size_t *ret_fields)
{
    const char *at = NULL;
    for (const char *p = buf; (p = strstr(p, "\ncrc ")); p++)
        at = p + 1;
    unsigned crc = 0;
    int end = -1;
    if (!at || strlen(buf) != len ||
        sscanf(at, "crc %8x\n%n", &crc, &end) != 1 || end < 0 ||
        at[end] != '\0')
        return sgl_error_set(SGL_EPARSE, "checkpoint %s: not a manifest of "
                                         "this version (no final crc line)",
                             path);
    uint32_t c = sgl__crc32c(0, buf, (size_t)(at - buf));
    if (c != crc)
        return sgl_error_set(SGL_EPARSE, "checkpoint %s: the manifest's "
                                         "checksum is 0x%08x, it records "
                                         "0x%08x: the manifest is corrupt or "
                                         "was edited",
                             path, c, crc);
    *ret_fields = (size_t)(at - buf);
    return SGL_OK;
}

/* The manifest's fields from @f, after its checksum held. */
static int parse_fields(FILE *f, struct ckpt_manifest *m)
{
    unsigned long long n = 0, e = 0, id = 0, a = 0, b = 0, c = 0, d = 0;
    unsigned long long x = 0, files = 0;
    sgl_pregel_stats_t *s = &m->stats;
    double *p = m->params, *g = m->agg;
    int ok = fscanf(f, MANIFEST_MAGIC " step %u vertices %llu edges %llu "
                       "graph %llx workers %zu value_size %zu msg_size %zu "
                       "program %63s",
                    &m->step, &n, &e, &id, &m->workers, &m->value_size,
                    &m->msg_size, m->program) == 8 &&
             fscanf(f, " params %la %la %la %la", &p[0], &p[1], &p[2],
                    &p[3]) == 4 &&
             fscanf(f, " agg %la %la %la %la", &g[0], &g[1], &g[2],
                    &g[3]) == 4 &&
             fscanf(f, " stats %u %llu %llu %llu %llu", &s->supersteps, &a,
                    &b, &c, &d) == 5 &&
             fscanf(f, " exchanges %llu files %llx", &x, &files) == 2;
    ok = ok && m->workers > 0 && m->workers < SIZE_MAX / sizeof *m->cuts;
    int at_cuts = -1;
    if (ok && fscanf(f, " cuts%n", &at_cuts) >= 0 && at_cuts > 0) {
        /* a balanced cut: workers + 1 increasing vertices, 0 to n */
        m->cuts = malloc((m->workers + 1) * sizeof *m->cuts);
        ok = m->cuts != NULL;
        for (size_t w = 0; ok && w <= m->workers; w++) {
            unsigned long long v;
            ok = fscanf(f, "%llu", &v) == 1 && v <= n &&
                 (w == 0 ? v == 0 : v >= m->cuts[w - 1]) &&
                 (w < m->workers || v == n);
            if (ok)
                m->cuts[w] = v;
        }
    }
    int ch;
    while ((ch = getc(f)) == ' ' || ch == '\n')
        ;
    if (!ok || ch != EOF)
        return 0;
    m->n = n, m->m = e, m->graph = id, m->files = files;
    s->messages = a, s->combined = b, s->max_worker_bytes = c;
    s->max_worker_bytes_uncombined = d, s->exchanges = x;
    return 1;
}

int sgl__ckpt_manifest_read(const char *dir, struct ckpt_manifest *m)
{
    char path[PREGEL_DIR_MAX + 64], *buf = NULL;
    snprintf(path, sizeof path, "%s/manifest", dir);
    size_t len = 0, fields = 0;
    memset(m, 0, sizeof *m);
    SGL_TRY(slurp(path, &buf, &len));
    int rc = check_text(path, buf, len, &fields);
    FILE *f = rc ? NULL : fmemopen(buf, fields, "r");
    if (!rc && !f)
        rc = sgl_error_set(SGL_ENOMEM, "checkpoint %s: out of memory", path);
    if (!rc && !parse_fields(f, m)) {
        free(m->cuts);
        m->cuts = NULL;
        rc = sgl_error_set(SGL_EPARSE, "checkpoint %s: not a manifest of "
                                       "this version",
                           path);
    }
    if (f)
        fclose(f);
    free(buf);
    return rc;
}

/* Bitwise, but NaN of any payload equals NaN: the text keeps no
 * payload. */
static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) ||
           (a == b && signbit(a) == signbit(b));
}

int sgl__ckpt_check(const char *dir, const struct ckpt_manifest *m,
                    const sgl_graph_t *g, const sgl_pregel_program_t *p,
                    const double *params)
{
    uint64_t id = sgl__graph_identity(g);
    if (m->n != g->n || m->m != g->m || m->graph != id)
        return sgl_error_set(SGL_EPARSE,
                             "checkpoint %s/manifest: of another graph: %llu "
                             "vertices, %llu edges, identity %016llx; this "
                             "graph has %llu, %llu, %016llx",
                             dir, (unsigned long long)m->n,
                             (unsigned long long)m->m,
                             (unsigned long long)m->graph,
                             (unsigned long long)g->n,
                             (unsigned long long)g->m,
                             (unsigned long long)id);
    char name[64], theirs[4 * 64];
    sgl__ckpt_program_name(p->name, name);
    /* the file's name may hold any byte but a blank: quoted escaped */
    sgl__pregel_escape(m->program, sizeof m->program, theirs, sizeof theirs);
    if (m->value_size != p->value_size || m->msg_size != p->msg_size ||
        strcmp(name, m->program))
        return sgl_error_set(SGL_EPARSE,
                             "checkpoint %s/manifest: of program %s with %zu- "
                             "and %zu-byte values and messages, not of "
                             "program %s (%zu and %zu)",
                             dir, theirs, m->value_size, m->msg_size, name,
                             p->value_size, p->msg_size);
    for (unsigned i = 0; i < SGL_PREGEL_MAX_PARAMS; i++)
        if (!same_double(m->params[i], params[i]))
            return sgl_error_set(SGL_EPARSE,
                                 "checkpoint %s/manifest: parameter %u is %a "
                                 "(%g) in the checkpoint, %a (%g) in this "
                                 "resume",
                                 dir, i, m->params[i], m->params[i],
                                 params[i], params[i]);
    return SGL_OK;
}
