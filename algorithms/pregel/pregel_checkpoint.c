/* Checkpoints of vertex programs at superstep boundaries. Each worker
 * writes one file per checkpoint: a header (struct head), then its
 * vertices' values, halted flags, message flags and messages, each an
 * array in vertex order. The root then writes the manifest, a text file
 * that names the superstep, the tree's worker count and, for a graph cut
 * by sgl_graph_balance(), the cut (which fix every file's vertex range),
 * and the aggregators and statistics, exact (hexadecimal floats). Every
 * file is written under a temporary name and renamed, so a reader sees
 * whole files or none; the manifest is renamed last, so it always names a
 * checkpoint whose files are all there. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pregel_impl.h"

#define MAGIC "SGLPRCK1"

struct head {
    char magic[8];
    uint64_t n, v0, v1, step, value_size, msg_size;
};

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

struct worker_file {
    const struct wgraph *g;
    const sgl_pregel_program_t *p;
    unsigned step;
};

static int fill_worker(FILE *f, const void *arg)
{
    const struct worker_file *x = arg;
    const struct wgraph *g = x->g;
    size_t nv = (size_t)(g->v1 - g->v0);
    struct head h = {{0}, g->n, g->v0, g->v1, x->step, x->p->value_size,
                     x->p->msg_size};
    memcpy(h.magic, MAGIC, sizeof h.magic);
    return fwrite(&h, sizeof h, 1, f) != 1 ||
           fwrite(g->value, x->p->value_size, nv, f) != nv ||
           fwrite(g->halted, 1, nv, f) != nv ||
           fwrite(g->has_msg, 1, nv, f) != nv ||
           fwrite(g->inbox, x->p->msg_size, nv, f) != nv;
}

int sgl__ckpt_write(sgl_ctx_t *worker, const struct wgraph *g,
                    const sgl_pregel_program_t *p, const char *dir,
                    unsigned step)
{
    char path[PREGEL_DIR_MAX + 64];
    file_name(path, sizeof path, dir, sgl_ctx_first_worker(worker), step);
    struct worker_file x = {g, p, step};
    return write_atomic(path, fill_worker, &x);
}

void sgl__ckpt_remove(sgl_ctx_t *worker, const char *dir, unsigned step)
{
    char path[PREGEL_DIR_MAX + 64];
    file_name(path, sizeof path, dir, sgl_ctx_first_worker(worker), step);
    unlink(path); /* gone already is fine */
}

/* Read @count items of @size bytes at item @first of the array that
 * starts at @base in @f. */
static int read_at(FILE *f, long base, size_t first, size_t size,
                   size_t count, void *dst)
{
    return fseek(f, base + (long)(first * size), SEEK_SET) ||
           fread(dst, size, count, f) != count;
}

/* The part of old worker @w's file that lies in this worker's range. */
static int read_part(struct wgraph *g, const sgl_pregel_program_t *p,
                     const char *dir, unsigned step, size_t w,
                     const struct ckpt_manifest *m)
{
    char path[PREGEL_DIR_MAX + 64];
    file_name(path, sizeof path, dir, w, step);
    FILE *f = fopen(path, "rb");
    if (!f)
        return io_error(path, "cannot open");
    struct head h;
    int rc = SGL_OK;
    uint64_t ov0 = pregel_first(m->cuts, g->n, m->workers, w);
    uint64_t ov1 = pregel_first(m->cuts, g->n, m->workers, w + 1);
    if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, MAGIC, 8) ||
        h.n != g->n || h.v0 != ov0 || h.v1 != ov1 || h.step != step ||
        h.value_size != p->value_size || h.msg_size != p->msg_size)
        rc = sgl_error_set(SGL_EPARSE,
                           "checkpoint %s: not the file of vertices "
                           "[%llu, %llu) at superstep %u of this graph and "
                           "program",
                           path, (unsigned long long)ov0,
                           (unsigned long long)ov1, step);
    uint64_t a = g->v0 > ov0 ? g->v0 : ov0, b = g->v1 < ov1 ? g->v1 : ov1;
    size_t off = (size_t)(a - ov0), cnt = (size_t)(b - a), onv = ov1 - ov0;
    size_t at = (size_t)(a - g->v0), vs = p->value_size, ms = p->msg_size;
    long base = (long)sizeof h;
    if (!rc &&
        (read_at(f, base, off, vs, cnt, g->value + at * vs) ||
         read_at(f, base += (long)(onv * vs), off, 1, cnt, g->halted + at) ||
         read_at(f, base += (long)onv, off, 1, cnt, g->has_msg + at) ||
         read_at(f, base + (long)onv, off, ms, cnt, g->inbox + at * ms)))
        rc = sgl_error_set(SGL_EIO, "checkpoint %s: truncated", path);
    fclose(f);
    return rc;
}

/* Each worker reads the manifest for the checkpoint's cut: the root
 * read it before the same step. */
int sgl__ckpt_read(sgl_ctx_t *worker, struct wgraph *g,
                   const sgl_pregel_program_t *p, const char *dir,
                   unsigned step)
{
    (void)worker;
    if (g->v1 == g->v0)
        return SGL_OK;
    struct ckpt_manifest m;
    SGL_TRY(sgl__ckpt_manifest_read(dir, &m));
    int rc = m.step == step && m.n == g->n
                 ? SGL_OK
                 : sgl_error_set(SGL_EPARSE, "checkpoint %s: the manifest "
                                             "changed during the resume",
                                 dir);
    size_t first = pregel_owner_in(m.cuts, g->n, m.workers, g->v0);
    size_t last = pregel_owner_in(m.cuts, g->n, m.workers, g->v1 - 1);
    for (size_t w = first; w <= last && !rc; w++)
        rc = read_part(g, p, dir, step, w, &m);
    free(m.cuts);
    return rc;
}

/* ---- the manifest ---- */

void sgl__ckpt_program_name(const char *name, char *buf)
{
    snprintf(buf, 64, "%s", name && *name ? name : "-");
    for (char *c = buf; *c; c++)
        if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')
            *c = '_';
}

static int fill_manifest(FILE *f, const void *arg)
{
    const struct ckpt_manifest *m = arg;
    const sgl_pregel_stats_t *s = &m->stats;
    int bad = fprintf(f, "sgl-pregel-checkpoint 1\nstep %u\nvertices %llu\n"
                         "workers %zu\nvalue_size %zu\nmsg_size %zu\n",
                      m->step, (unsigned long long)m->n, m->workers,
                      m->value_size, m->msg_size) < 0;
    bad |= fprintf(f, "agg %a %a %a %a\n", m->agg[0], m->agg[1], m->agg[2],
                   m->agg[3]) < 0;
    bad |= fprintf(f, "stats %u %llu %llu %llu %llu\n", s->supersteps,
                   (unsigned long long)s->messages,
                   (unsigned long long)s->combined,
                   (unsigned long long)s->max_worker_bytes,
                   (unsigned long long)s->max_worker_bytes_uncombined) < 0;
    bad |= fprintf(f, "exchanges %llu\nprogram %s\n",
                   (unsigned long long)s->exchanges, m->program) < 0;
    if (m->cuts) {
        bad |= fprintf(f, "cuts") < 0;
        for (size_t w = 0; w <= m->workers; w++)
            bad |= fprintf(f, " %llu", (unsigned long long)m->cuts[w]) < 0;
        bad |= fprintf(f, "\n") < 0;
    }
    return bad;
}

int sgl__ckpt_manifest_write(const char *dir, const struct ckpt_manifest *m)
{
    char path[PREGEL_DIR_MAX + 64];
    snprintf(path, sizeof path, "%s/manifest", dir);
    return write_atomic(path, fill_manifest, m);
}

int sgl__ckpt_manifest_read(const char *dir, struct ckpt_manifest *m)
{
    char path[PREGEL_DIR_MAX + 64];
    snprintf(path, sizeof path, "%s/manifest", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return io_error(path, "no checkpoint to resume from");
    unsigned long long n, a, b, c, d, x;
    sgl_pregel_stats_t *s = &m->stats;
    memset(m, 0, sizeof *m);
    int ok = fscanf(f, "sgl-pregel-checkpoint 1 step %u vertices %llu "
                       "workers %zu value_size %zu msg_size %zu",
                    &m->step, &n, &m->workers, &m->value_size,
                    &m->msg_size) == 5 &&
             fscanf(f, " agg %la %la %la %la", &m->agg[0], &m->agg[1],
                    &m->agg[2], &m->agg[3]) == 4 &&
             fscanf(f, " stats %u %llu %llu %llu %llu", &s->supersteps, &a,
                    &b, &c, &d) == 5 &&
             fscanf(f, " exchanges %llu program %63s", &x, m->program) == 2;
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
    fclose(f);
    if (!ok) {
        free(m->cuts);
        m->cuts = NULL;
        return sgl_error_set(SGL_EPARSE, "checkpoint %s: not a manifest",
                             path);
    }
    m->n = n;
    s->messages = a;
    s->combined = b;
    s->max_worker_bytes = c;
    s->max_worker_bytes_uncombined = d;
    s->exchanges = x;
    return SGL_OK;
}
