/* c per kernel: a plain value for every worker, per-worker overrides
 * (heterogeneous workers) and a size table of measured points (n, busy, c)
 * that the predictor interpolates, since one c cannot describe a kernel
 * both in cache and out of it, alone and beside other workers sharing the
 * memory bandwidth. Setters check everything before changing anything. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine_impl.h"

static double table_c(const struct sgl__kernel *k, unsigned busy, double n);

static const char *kernel_name(const void *items, size_t i)
{
    return ((const struct sgl__kernel *)items)[i].name;
}

struct sgl__kernel *sgl__kernel_find(const sgl_machine_t *m, const char *name)
{
    /* The index is a cache: looking up may (re)build it. */
    struct sgl_machine *mm = (struct sgl_machine *)m;
    size_t i = sgl__name_find(&mm->kernel_index, mm->kernel, mm->nkernels,
                              kernel_name, name);
    return i == (size_t)-1 ? NULL : &mm->kernel[i];
}

static struct sgl__kernel *find_kernel(const sgl_machine_t *m,
                                       const char *name)
{
    return sgl__kernel_find(m, name);
}

/* The kernel called @name, added (all values NAN) if new. */
static int get_kernel(sgl_machine_t *m, const char *fn, const char *name,
                      struct sgl__kernel **ret)
{
    int rc = sgl__check_kernel_name(fn, name);
    return rc ? rc : sgl__kernel_get(m, name, ret);
}

int sgl__kernel_get(sgl_machine_t *m, const char *name,
                    struct sgl__kernel **ret)
{
    struct sgl__kernel *k = find_kernel(m, name);
    if (!k) {
        size_t cap = sgl__grow(m->nkernels);
        struct sgl__kernel *a =
            cap ? realloc(m->kernel, cap * sizeof *a) : m->kernel;
        if (!a)
            return sgl_error_set(SGL_ENOMEM, "out of memory adding a kernel");
        m->kernel = a;
        k = &a[m->nkernels++];
        memset(k, 0, sizeof *k);
        snprintf(k->name, sizeof k->name, "%s", name);
        k->all_c = NAN;
    }
    *ret = k;
    return SGL_OK;
}

int sgl_machine_set_kernel(sgl_machine_t *m, const char *kernel,
                           double seconds_per_elem)
{
    static const char fn[] = "sgl_machine_set_kernel";
    if (!m)
        return sgl_error_set(SGL_EINVAL, "%s: NULL machine", fn);
    int rc = sgl__check_value(fn, "c", seconds_per_elem);
    struct sgl__kernel *k;
    if (!rc)
        rc = get_kernel(m, fn, kernel, &k);
    if (rc)
        return rc;
    k->all_c = seconds_per_elem;
    free(k->worker_c);
    k->worker_c = NULL;
    return SGL_OK;
}

int sgl_machine_set_worker_kernel(sgl_machine_t *m, size_t worker,
                                  const char *kernel, double seconds_per_elem)
{
    static const char fn[] = "sgl_machine_set_worker_kernel";
    if (!m)
        return sgl_error_set(SGL_EINVAL, "%s: NULL machine", fn);
    if (worker >= m->workers)
        return sgl_error_set(SGL_EINVAL,
                             "%s: worker %zu does not exist (the tree has "
                             "%zu)",
                             fn, worker, m->workers);
    int rc = sgl__check_value(fn, "c", seconds_per_elem);
    if (rc)
        return rc;
    /* Allocate first, so that a failure adds no empty kernel. */
    struct sgl__kernel *k = find_kernel(m, kernel ? kernel : "");
    double *w = k ? k->worker_c : NULL;
    if (!w) {
        w = malloc(m->workers * sizeof *w);
        if (!w)
            return sgl_error_set(SGL_ENOMEM,
                                 "out of memory setting a worker's kernel");
        for (size_t i = 0; i < m->workers; i++)
            w[i] = NAN;
    }
    if (!k && (rc = get_kernel(m, fn, kernel, &k))) {
        free(w);
        return rc;
    }
    k->worker_c = w;
    w[worker] = seconds_per_elem;
    return SGL_OK;
}

int sgl__kernel_set_workers(sgl_machine_t *m, const char *name,
                            const double *c)
{
    struct sgl__kernel *k = find_kernel(m, name);
    double *w = k ? k->worker_c : NULL;
    if (!w && !(w = malloc(m->workers * sizeof *w)))
        return sgl_error_set(SGL_ENOMEM,
                             "out of memory setting the workers' kernel");
    if (!k && sgl__kernel_get(m, name, &k)) {
        free(w);
        return SGL_ENOMEM;
    }
    memcpy(w, c, m->workers * sizeof *w);
    k->worker_c = w;
    return SGL_OK;
}

/* The kernel of @p node's machine, or NULL; *own gets the node's own c
 * (NAN if it has none). */
static const struct sgl__kernel *node_kernel(const sgl_node_t *n,
                                             const char *kernel, double *own)
{
    *own = NAN;
    if (!n || !kernel || !n->machine)
        return NULL;
    const struct sgl__kernel *k = find_kernel(n->machine, kernel);
    if (k && k->worker_c)
        *own = k->worker_c[n->first_worker];
    return k;
}

double sgl_node_kernel(const sgl_node_t *n, const char *kernel)
{
    double own;
    const struct sgl__kernel *k = node_kernel(n, kernel, &own);
    if (!k || !isnan(own))
        return own;
    if (isnan(k->all_c) && k->npt) /* the largest n of the least busy */
        return table_c(k, k->pt[0].busy, INFINITY);
    return k->all_c;
}

/* c of the curve of @p busy (an exact busy count of the table) at n:
 * linear in log n between the neighbouring points, the end points' c
 * beyond them. */
static double curve_c(const struct sgl__kernel *k, unsigned busy, double n)
{
    const struct sgl__kpoint *lo = NULL, *hi = NULL;
    for (size_t i = 0; i < k->npt; i++) {
        const struct sgl__kpoint *q = &k->pt[i];
        if (q->busy != busy)
            continue;
        if (q->n <= n)
            lo = q;
        else if (!hi)
            hi = q;
    }
    if (!lo)
        return hi->c;
    if (!hi || lo->n == n)
        return lo->c;
    double t = (log(n) - log(lo->n)) / (log(hi->n) - log(lo->n));
    return lo->c + t * (hi->c - lo->c);
}

/* The table at (busy, n): between the nearest busy counts measured below
 * and above, linearly in busy; the nearest one beyond them. */
static double table_c(const struct sgl__kernel *k, unsigned busy, double n)
{
    unsigned below = 0, above = 0;
    for (size_t i = 0; i < k->npt; i++) {
        unsigned b = k->pt[i].busy;
        if (b <= busy && b > below)
            below = b;
        if (b >= busy && (above == 0 || b < above))
            above = b;
    }
    if (!below)
        return curve_c(k, above, n);
    if (!above || above == below)
        return curve_c(k, below, n);
    double cb = curve_c(k, below, n), ca = curve_c(k, above, n);
    return cb + (ca - cb) * (double)(busy - below) / (double)(above - below);
}

int sgl_machine_set_kernel_point(sgl_machine_t *m, const char *kernel,
                                 double n, unsigned busy, double c)
{
    static const char fn[] = "sgl_machine_set_kernel_point";
    if (!m)
        return sgl_error_set(SGL_EINVAL, "%s: NULL machine", fn);
    if (!(n >= 1) || !isfinite(n))
        return sgl_error_set(SGL_EINVAL,
                             "%s: n = %g, expected at least 1 element", fn, n);
    if (busy == 0)
        return sgl_error_set(SGL_EINVAL,
                             "%s: busy = 0, expected at least 1 worker", fn);
    int rc = sgl__check_value(fn, "c", c);
    if (rc)
        return rc;
    struct sgl__kernel *k = find_kernel(m, kernel ? kernel : "");
    size_t at = 0;
    /* Points usually come in order (a file as sgl_machine_write() wrote
     * it): then the new one goes at the end without a search. */
    const struct sgl__kpoint *last = k && k->npt ? &k->pt[k->npt - 1] : NULL;
    if (last && (last->busy < busy || (last->busy == busy && last->n < n))) {
        at = k->npt;
    } else if (k) {
        for (; at < k->npt; at++) {
            const struct sgl__kpoint *q = &k->pt[at];
            if (q->busy == busy && q->n == n) {
                k->pt[at].c = c;
                return SGL_OK;
            }
            if (q->busy > busy || (q->busy == busy && q->n > n))
                break;
        }
    }
    /* Grow first, so that a failure adds no empty kernel. */
    size_t cap = sgl__grow(k ? k->npt : 0);
    struct sgl__kpoint *pt =
        cap ? realloc(k ? k->pt : NULL, cap * sizeof *pt) : k->pt;
    if (!pt)
        return sgl_error_set(SGL_ENOMEM, "out of memory adding a kernel point");
    if (k)
        k->pt = pt;
    else if ((rc = get_kernel(m, fn, kernel, &k))) {
        free(pt);
        return rc;
    } else
        k->pt = pt;
    memmove(pt + at + 1, pt + at, (k->npt - at) * sizeof *pt);
    pt[at] = (struct sgl__kpoint){n, busy, c};
    k->npt++;
    return SGL_OK;
}

double sgl_node_kernel_at(const sgl_node_t *n, const char *kernel,
                          double elems, unsigned busy)
{
    double own;
    const struct sgl__kernel *k = node_kernel(n, kernel, &own);
    if (!k || !isnan(own))
        return own;
    if (k->npt)
        return table_c(k, busy ? busy : 1, elems > 1 ? elems : 1);
    return k->all_c;
}

int sgl_machine_copy_kernels(sgl_machine_t *dst, const sgl_machine_t *src)
{
    if (!dst || !src)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_copy_kernels: NULL machine");
    for (size_t i = 0; i < src->nkernels; i++) {
        const struct sgl__kernel *k = &src->kernel[i];
        int rc = SGL_OK;
        struct sgl__kernel *d = find_kernel(dst, k->name);
        if (d) { /* replace: drop what dst had */
            free(d->worker_c);
            free(d->pt);
            d->worker_c = NULL;
            d->pt = NULL;
            d->npt = 0;
            d->all_c = NAN;
        }
        if (!isnan(k->all_c))
            rc = sgl_machine_set_kernel(dst, k->name, k->all_c);
        for (size_t j = 0; !rc && j < k->npt; j++)
            rc = sgl_machine_set_kernel_point(dst, k->name, k->pt[j].n,
                                              k->pt[j].busy, k->pt[j].c);
        if (k->worker_c && src->workers == dst->workers)
            for (size_t w = 0; !rc && w < src->workers; w++)
                if (!isnan(k->worker_c[w]))
                    rc = sgl_machine_set_worker_kernel(dst, w, k->name,
                                                       k->worker_c[w]);
        if (rc)
            return rc;
    }
    return SGL_OK;
}

static int point_before(const struct sgl__kpoint *a, const struct sgl__kpoint *b)
{
    return a->busy < b->busy || (a->busy == b->busy && a->n < b->n);
}

int sgl__kernel_merge_points(struct sgl__kernel *k,
                             const struct sgl__kpoint *pts, size_t n)
{
    size_t cap = 1;
    while (cap < k->npt + n)
        cap *= 2;
    struct sgl__kpoint *out = malloc(cap * sizeof *out);
    if (!out)
        return sgl_error_set(SGL_ENOMEM, "out of memory adding kernel points");
    size_t i = 0, j = 0, o = 0;
    while (i < k->npt || j < n)
        out[o++] = j == n || (i < k->npt && point_before(&k->pt[i], &pts[j]))
                       ? k->pt[i++]
                       : pts[j++];
    free(k->pt);
    k->pt = out;
    k->npt = o;
    return SGL_OK;
}

size_t sgl_machine_kernels(const sgl_machine_t *m) { return m->nkernels; }

const char *sgl_machine_kernel_name(const sgl_machine_t *m, size_t i)
{
    return i < m->nkernels ? m->kernel[i].name : NULL;
}


void sgl__kernels_free(struct sgl_machine *m)
{
    for (size_t i = 0; i < m->nkernels; i++) {
        free(m->kernel[i].worker_c);
        free(m->kernel[i].pt);
    }
    free(m->kernel);
    sgl__name_index_free(&m->kernel_index);
}

/* One kernel's speeds, unnormalised, into @s: 1 / c. */
static void kernel_speeds(const sgl_machine_t *m, const struct sgl__kernel *k,
                          double *s)
{
    double known = 0;
    size_t nknown = 0;
    for (size_t w = 0; w < m->workers; w++)
        if (!isnan(k->worker_c[w]) && k->worker_c[w] > 0) {
            known += 1 / k->worker_c[w];
            nknown++;
        }
    double plain = isnan(k->all_c) && k->npt ? table_c(k, k->pt[0].busy,
                                                       INFINITY)
                                             : k->all_c;
    double other = plain > 0 ? 1 / plain : nknown ? known / nknown : 1;
    for (size_t w = 0; w < m->workers; w++)
        s[w] = !isnan(k->worker_c[w]) && k->worker_c[w] > 0
                   ? 1 / k->worker_c[w]
                   : other;
}

static void normalise(double *s, size_t n)
{
    double top = 0;
    for (size_t w = 0; w < n; w++)
        top = fmax(top, s[w]);
    for (size_t w = 0; top > 0 && w < n; w++)
        s[w] /= top;
}

int sgl__worker_speeds(const sgl_machine_t *m, const char *kernel,
                       double *speed)
{
    if (kernel) {
        const struct sgl__kernel *k = find_kernel(m, kernel);
        if (!k || !k->worker_c)
            return 0;
        kernel_speeds(m, k, speed);
        normalise(speed, m->workers);
        return 1;
    }
    /* Geometric mean: a worker twice as slow in every kernel weighs half,
     * whatever the kernels' absolute costs. */
    size_t used = 0;
    double *one = NULL;
    for (size_t i = 0; i < m->nkernels; i++) {
        const struct sgl__kernel *k = &m->kernel[i];
        if (!k->worker_c)
            continue;
        if (!one && !(one = malloc(m->workers * sizeof *one)))
            return -1;
        kernel_speeds(m, k, one);
        normalise(one, m->workers);
        for (size_t w = 0; w < m->workers; w++)
            speed[w] = (used ? speed[w] : 0) + log(one[w]);
        used++;
    }
    free(one);
    if (!used)
        return 0;
    for (size_t w = 0; w < m->workers; w++)
        speed[w] = exp(speed[w] / (double)used);
    normalise(speed, m->workers);
    return 1;
}

int sgl_machine_worker_speeds(const sgl_machine_t *m, const char *kernel,
                              double *ret_speeds)
{
    if (!m || !ret_speeds)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_worker_speeds: NULL argument");
    int got = sgl__worker_speeds(m, kernel, ret_speeds);
    if (got < 0)
        return sgl_error_set(SGL_ENOMEM, "sgl_machine_worker_speeds: out of "
                                         "memory");
    for (size_t w = 0; !got && w < m->workers; w++)
        ret_speeds[w] = 1;
    return SGL_OK;
}
