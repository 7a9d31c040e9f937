/* Writing machine files (the format: machine_file.c): every value with
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
