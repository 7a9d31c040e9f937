/* A worker's part of a plan: view, disjoint images, periods, owners (the
 * steps are listed in dplan_math.h). */
#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"
#include "dplan_math.h"

/* A box of unwrapped indices, [lo, hi) per dimension; unused dimensions
 * are [0, 1). */
struct box {
    long lo[DP_DIMS], hi[DP_DIMS];
};

/* A growing array of elements of @size bytes. */
struct list {
    void *a;
    size_t n, cap, size;
};

static void *list_add(struct list *l)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        void *t = realloc(l->a, cap * l->size);
        if (!t)
            return NULL;
        l->a = t;
        l->cap = cap;
    }
    return (char *)l->a + l->n++ * l->size;
}

/* Extremes of access @a's expression of dimension @d over the box @b
 * (inclusive). @return nonzero on overflow. */
static int image_range(const sgl_daccess_t *a, unsigned dims, unsigned d,
                       const struct box *b, long *ret_lo, long *ret_hi)
{
    long lo = a->offset[d], hi = a->offset[d];
    for (unsigned j = 0; j < dims; j++) {
        long c = a->coef[d][j], x, y;
        if (__builtin_mul_overflow(c, b->lo[j], &x) ||
            __builtin_mul_overflow(c, b->hi[j] - 1, &y))
            return 1;
        if (__builtin_add_overflow(lo, c >= 0 ? x : y, &lo) ||
            __builtin_add_overflow(hi, c >= 0 ? y : x, &hi))
            return 1;
    }
    *ret_lo = lo;
    *ret_hi = hi;
    return 0;
}

static void whole_array(const struct dpart *p, struct box *b)
{
    for (unsigned d = 0; d < DP_DIMS; d++) {
        b->lo[d] = 0;
        b->hi[d] = (long)p->size[d];
    }
}

static int check_unused(const struct dpart *p, size_t k,
                        const sgl_daccess_t *a, const char *fn)
{
    for (unsigned d = 0; d < DP_DIMS; d++)
        for (unsigned j = 0; j < DP_DIMS; j++)
            if ((d >= p->dims || j >= p->dims) &&
                (a->coef[d][j] || (j == 0 && a->offset[d])))
                return sgl_error_set(SGL_EINVAL,
                                     "%s: access %zu uses dimension %u of a "
                                     "%u-dimensional array",
                                     fn, k, d >= p->dims ? d : j, p->dims);
    return SGL_OK;
}

int sgl__dplan_check(const struct dpart *p, size_t na, const sgl_daccess_t *a,
                     const char *fn)
{
    struct box all;
    whole_array(p, &all);
    for (size_t k = 0; k < na; k++) {
        SGL_TRY(check_unused(p, k, &a[k], fn));
        for (unsigned d = 0; d < p->dims; d++) {
            long lo, hi;
            if (image_range(&a[k], p->dims, d, &all, &lo, &hi) ||
                lo < -(long)(SIZE_MAX >> 2) || hi > (long)(SIZE_MAX >> 2))
                return sgl_error_set(SGL_EINVAL,
                                     "%s: access %zu overflows in "
                                     "dimension %u",
                                     fn, k, d);
            int periodic = (a[k].periodic >> d) & 1;
            if (!periodic && (lo < 0 || hi >= (long)p->size[d]))
                return sgl_error_set(SGL_EINVAL,
                                     "%s: access %zu reads indices [%ld, "
                                     "%ld] of dimension %u, which has "
                                     "extent %zu and is not periodic",
                                     fn, k, lo, hi, d, p->size[d]);
        }
    }
    return SGL_OK;
}

/* @a minus @b, as up to 2 * dims disjoint boxes appended to @out. */
static int box_minus(struct box a, const struct box *b, struct list *out)
{
    for (unsigned d = 0; d < DP_DIMS; d++)
        if (a.hi[d] <= b->lo[d] || b->hi[d] <= a.lo[d]) {
            struct box *o = list_add(out);
            if (!o)
                return SGL_ENOMEM;
            *o = a;
            return SGL_OK;
        }
    for (unsigned d = 0; d < DP_DIMS; d++) {
        if (a.lo[d] < b->lo[d]) {
            struct box *o = list_add(out);
            if (!o)
                return SGL_ENOMEM;
            *o = a;
            o->hi[d] = b->lo[d];
            a.lo[d] = b->lo[d];
        }
        if (b->hi[d] < a.hi[d]) {
            struct box *o = list_add(out);
            if (!o)
                return SGL_ENOMEM;
            *o = a;
            o->lo[d] = b->hi[d];
            a.hi[d] = b->hi[d];
        }
    }
    return SGL_OK;
}

/* Add @b to the disjoint boxes @all: the parts of @b no box of @all
 * covers. */
static int add_disjoint(struct list *all, const struct box *b)
{
    struct list cur = {NULL, 0, 0, sizeof(struct box)};
    struct list next = {NULL, 0, 0, sizeof(struct box)};
    int rc = SGL_OK;
    struct box *first = list_add(&cur);
    if (!first)
        return SGL_ENOMEM;
    *first = *b;
    size_t nall = all->n;
    for (size_t i = 0; i < nall && cur.n && !rc; i++) {
        next.n = 0;
        for (size_t k = 0; k < cur.n && !rc; k++)
            rc = box_minus(((struct box *)cur.a)[k],
                           &((struct box *)all->a)[i], &next);
        struct list t = cur;
        cur = next;
        next = t;
    }
    for (size_t k = 0; k < cur.n && !rc; k++) {
        struct box *o = list_add(all);
        if (!o)
            rc = SGL_ENOMEM;
        else
            *o = ((struct box *)cur.a)[k];
    }
    free(cur.a);
    free(next.a);
    return rc;
}

/* A one-dimensional piece: indices [glo, ghi) of block @owner, landing at
 * view index @vlo. */
struct seg {
    size_t glo, ghi, owner;
    long vlo;
};

static long floor_div(long x, long n)
{
    return x >= 0 ? x / n : -((-x + n - 1) / n);
}

/* Cut [lo, hi) of dimension @d at the periods (if periodic) and at the
 * blocks. */
static int segments(const struct dpart *p, unsigned d, int periodic, long lo,
                    long hi, struct list *out)
{
    long n = (long)p->size[d];
    for (long x = lo; x < hi;) {
        long m = periodic ? floor_div(x, n) : 0;
        long end = hi < (m + 1) * n ? hi : (m + 1) * n;
        size_t g = (size_t)(x - m * n), gend = (size_t)(end - m * n);
        while (g < gend) {
            size_t o = sgl__dpart_owner(p, d, g);
            size_t e = p->cut[d][o + 1] < gend ? p->cut[d][o + 1] : gend;
            struct seg *s = list_add(out);
            if (!s)
                return SGL_ENOMEM;
            *s = (struct seg){g, e, o, (long)g + m * n};
            g = e;
        }
        x = end;
    }
    return SGL_OK;
}

/* The pieces of one disjoint box: the product of its dimensions'
 * segments. */
static int box_pieces(const struct dpart *p, size_t w, int in_place,
                      unsigned periodic, const struct box *b,
                      struct list *pieces)
{
    struct list seg[DP_DIMS];
    int rc = SGL_OK;
    for (unsigned d = 0; d < DP_DIMS; d++) {
        seg[d] = (struct list){NULL, 0, 0, sizeof(struct seg)};
        if (!rc)
            rc = segments(p, d, (periodic >> d) & 1, b->lo[d], b->hi[d],
                          &seg[d]);
    }
    size_t n0 = seg[0].n, n1 = seg[1].n, n2 = seg[2].n;
    for (size_t total = n0 * n1 * n2, k = 0; k < total && !rc; k++) {
        const struct seg *s[DP_DIMS] = {
            (struct seg *)seg[0].a + k / (n1 * n2),
            (struct seg *)seg[1].a + k / n2 % n1,
            (struct seg *)seg[2].a + k % n2};
        struct dpiece q;
        size_t c[DP_DIMS];
        int home = 1;
        for (unsigned d = 0; d < DP_DIMS; d++) {
            c[d] = s[d]->owner;
            q.glo[d] = s[d]->glo;
            q.ghi[d] = s[d]->ghi;
            q.vlo[d] = s[d]->vlo;
            home &= q.vlo[d] == (long)q.glo[d];
        }
        q.src = sgl__dpart_worker(p, c);
        if (in_place && home && q.src == w)
            continue; /* already where the view has it */
        struct dpiece *o = list_add(pieces);
        if (!o)
            rc = SGL_ENOMEM;
        else
            *o = q;
    }
    for (unsigned d = 0; d < DP_DIMS; d++)
        free(seg[d].a);
    return rc;
}

static int by_src(const void *x, const void *y)
{
    const struct dpiece *a = x, *b = y;
    if (a->src != b->src)
        return a->src < b->src ? -1 : 1;
    for (unsigned d = 0; d < DP_DIMS; d++)
        if (a->vlo[d] != b->vlo[d])
            return a->vlo[d] < b->vlo[d] ? -1 : 1;
    return 0; /* disjoint pieces never share a view position */
}

/* The view's box and whether it fits in the worker's storage. */
static int view_box(const struct dpart *p, size_t w, size_t na,
                    const sgl_daccess_t *a, const struct box *own,
                    struct list *images, struct dneed *ret)
{
    for (unsigned d = 0; d < DP_DIMS; d++) {
        ret->vlo[d] = own->lo[d];
        ret->vhi[d] = own->hi[d];
    }
    for (size_t k = 0; k < na; k++) {
        struct box img = *own;
        for (unsigned d = 0; d < p->dims; d++) {
            long lo, hi;
            if (image_range(&a[k], p->dims, d, own, &lo, &hi))
                return sgl_error_set(SGL_EINVAL,
                                     "worker %zu: access %zu overflows", w,
                                     k);
            img.lo[d] = lo;
            img.hi[d] = hi + 1;
            if (k == 0 || lo < ret->vlo[d])
                ret->vlo[d] = lo;
            if (k == 0 || hi + 1 > ret->vhi[d])
                ret->vhi[d] = hi + 1;
        }
        if (add_disjoint(images, &img))
            return sgl_error_set(SGL_ENOMEM, "out of memory");
    }
    ret->in_place = 1;
    for (unsigned d = 0; d < DP_DIMS; d++)
        ret->in_place &= ret->vlo[d] >= own->lo[d] - (long)p->halo[d] &&
                         ret->vhi[d] <= own->hi[d] + (long)p->halo[d];
    for (unsigned d = 0; d < DP_DIMS && ret->in_place; d++) {
        ret->vlo[d] = own->lo[d] - (long)p->halo[d]; /* the whole storage */
        ret->vhi[d] = own->hi[d] + (long)p->halo[d];
    }
    return SGL_OK;
}

int sgl__dplan_need(const struct dpart *p, size_t w, size_t na,
                    const sgl_daccess_t *a, struct dneed *ret)
{
    memset(ret, 0, sizeof *ret);
    size_t lo[DP_DIMS], hi[DP_DIMS];
    sgl__dpart_box(p, w, lo, hi);
    struct box own;
    for (unsigned d = 0; d < DP_DIMS; d++) {
        own.lo[d] = (long)lo[d];
        own.hi[d] = (long)hi[d];
    }
    struct list images = {NULL, 0, 0, sizeof(struct box)};
    struct list pieces = {NULL, 0, 0, sizeof(struct dpiece)};
    int rc = view_box(p, w, na, a, &own, &images, ret);
    /* Dimensions periodic in any access are cut at periods; a dimension
     * no access wraps stays inside the array (sgl__dplan_check()). */
    unsigned periodic = 0;
    for (size_t k = 0; k < na; k++)
        periodic |= a[k].periodic;
    for (size_t i = 0; i < images.n && !rc; i++)
        if (box_pieces(p, w, ret->in_place, periodic,
                       (struct box *)images.a + i, &pieces))
            rc = sgl_error_set(SGL_ENOMEM, "out of memory");
    free(images.a);
    if (rc) {
        free(pieces.a);
        return rc;
    }
    if (pieces.n) /* qsort's array may not be NULL, even empty */
        qsort(pieces.a, pieces.n, sizeof(struct dpiece), by_src);
    ret->piece = pieces.a;
    ret->npieces = pieces.n;
    return SGL_OK;
}

void sgl__dneed_free(struct dneed *n)
{
    free(n->piece);
    n->piece = NULL;
    n->npieces = 0;
}

size_t sgl__dpiece_count(const struct dpiece *q, unsigned dims)
{
    size_t n = 1;
    for (unsigned d = 0; d < dims; d++)
        n *= q->ghi[d] - q->glo[d];
    return n;
}

void sgl_daccess_shift(sgl_daccess_t *a, unsigned dims, const long *offset,
                       unsigned periodic)
{
    memset(a, 0, sizeof *a);
    for (unsigned d = 0; d < dims && d < DP_DIMS; d++) {
        a->coef[d][d] = 1;
        a->offset[d] = offset ? offset[d] : 0;
    }
    a->periodic = periodic;
}
