/* Partitions of distributed arrays: the layout checked whole before
 * anything is allocated, the cuts computed, the packed form. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"
#include "dpart.h"

#define FN "sgl_darray_create"

void sgl_darray_layout_init(sgl_darray_layout_t *l, unsigned dims,
                            const size_t *size, size_t elem_size)
{
    memset(l, 0, sizeof *l);
    l->dims = dims;
    l->elem_size = elem_size;
    /* A bad dims is refused by sgl_darray_create(); size is not read. */
    for (unsigned d = 0; dims <= DP_DIMS && d < dims && size; d++)
        l->size[d] = size[d];
}

/* A balanced grid of @w workers in @dims dimensions, as MPI_Dims_create
 * gives one: the prime factors, largest first, each to the dimension with
 * the smallest product so far; then the largest extent first. */
static void balanced_grid(size_t w, unsigned dims, size_t grid[DP_DIMS])
{
    for (unsigned d = 0; d < DP_DIMS; d++)
        grid[d] = 1;
    size_t f[64], nf = 0;
    for (size_t q = 2; q * q <= w; q++)
        while (w % q == 0) {
            f[nf++] = q;
            w /= q;
        }
    if (w > 1)
        f[nf++] = w;
    for (size_t k = nf; k-- > 0;) {
        unsigned m = 0;
        for (unsigned d = 1; d < dims; d++)
            if (grid[d] < grid[m])
                m = d;
        grid[m] *= f[k];
    }
    for (unsigned a = 0; a < dims; a++)
        for (unsigned b = a + 1; b < dims; b++)
            if (grid[b] > grid[a]) {
                size_t t = grid[a];
                grid[a] = grid[b];
                grid[b] = t;
            }
}

static int check_grid(const sgl_darray_layout_t *l, size_t workers,
                      size_t grid[DP_DIMS])
{
    int given = 0;
    for (unsigned d = 0; d < l->dims; d++)
        given |= l->grid[d] != 0;
    if (!given) {
        balanced_grid(workers, l->dims, grid);
        return SGL_OK;
    }
    size_t prod = 1;
    for (unsigned d = 0; d < DP_DIMS; d++) {
        grid[d] = d < l->dims ? l->grid[d] : 1;
        if (grid[d] == 0)
            return sgl_error_set(SGL_EINVAL,
                                 FN ": grid[%u] is 0 while another "
                                    "dimension's is given",
                                 d);
        prod *= grid[d];
    }
    if (prod != workers)
        return sgl_error_set(SGL_EINVAL,
                             FN ": a grid of %zu workers for the %zu workers "
                                "below the master",
                             prod, workers);
    return SGL_OK;
}

static int check_cuts(const sgl_darray_layout_t *l, unsigned d, size_t g)
{
    const size_t *c = l->cuts[d];
    if (c[0] != 0 || c[g] != l->size[d])
        return sgl_error_set(SGL_EINVAL,
                             FN ": the cuts of dimension %u run from %zu "
                                "to %zu, not from 0 to the extent %zu",
                             d, c[0], c[g], l->size[d]);
    for (size_t k = 0; k < g; k++)
        if (c[k + 1] <= c[k])
            return sgl_error_set(SGL_EINVAL,
                                 FN ": block %zu of dimension %u is "
                                    "[%zu, %zu): cuts must rise, every "
                                    "block holds at least one element",
                                 k, d, c[k], c[k + 1]);
    return SGL_OK;
}

static int check_weights(const sgl_darray_layout_t *l, size_t workers)
{
    double sum = 0;
    for (size_t w = 0; w < workers; w++) {
        double x = l->weights[w];
        if (!isfinite(x) || x < 0)
            return sgl_error_set(SGL_EINVAL,
                                 FN ": weight of worker %zu is %g (must be "
                                    "finite and >= 0)",
                                 w, x);
        sum += x;
        /* The cuts divide by the sum: an infinite one makes every cut 0
         * and every block but the last empty. */
        if (!isfinite(sum))
            return sgl_error_set(SGL_EINVAL,
                                 FN ": the weights are unusable: their sum "
                                    "overflows a double at worker %zu "
                                    "(weight %g); they are relative, so "
                                    "scale them down (e.g. divide each by "
                                    "the largest)",
                                 w, x);
    }
    if (!(sum > 0))
        return sgl_error_set(SGL_EINVAL, FN ": the weights are unusable: "
                                            "they sum to 0 (give some "
                                            "worker a positive weight)");
    return SGL_OK;
}

/* Cuts of dimension @d: even (size * k / grid) without weights, else in
 * proportion to the summed weight of each grid slice. */
static int slice_cuts(const sgl_darray_layout_t *l, const struct dpart *p,
                      unsigned d, size_t *cut)
{
    size_t g = p->grid[d];
    for (size_t k = 0; k <= g; k++)
        cut[k] = algo_split(p->size[d], k, g);
    if (l->weights) {
        double *slice = calloc(g, sizeof *slice);
        if (!slice)
            return sgl_error_set(SGL_ENOMEM, FN ": out of memory");
        double total = 0, acc = 0;
        for (size_t w = 0; w < p->workers; w++) {
            size_t c[DP_DIMS];
            sgl__dpart_coords(p, w, c);
            slice[c[d]] += l->weights[w];
            total += l->weights[w];
        }
        for (size_t k = 1; k < g; k++) {
            acc += slice[k - 1];
            cut[k] = (size_t)floor((double)p->size[d] * (acc / total));
        }
        free(slice);
    }
    for (size_t k = 0; k < g; k++)
        if (cut[k + 1] <= cut[k])
            return sgl_error_set(SGL_EINVAL,
                                 FN ": block %zu of dimension %u would hold "
                                    "no element (%zu elements over %zu "
                                    "blocks%s)",
                                 k, d, p->size[d], g,
                                 l->weights ? ", by the weights" : "");
    return SGL_OK;
}

static int check_layout(const sgl_darray_layout_t *l)
{
    if (l->dims < 1 || l->dims > DP_DIMS)
        return sgl_error_set(SGL_EINVAL,
                             FN ": %u dimensions (1 to %d)", l->dims,
                             DP_DIMS);
    if (l->elem_size == 0)
        return sgl_error_set(SGL_EINVAL, FN ": element size 0");
    size_t total = l->elem_size;
    for (unsigned d = 0; d < l->dims; d++) {
        if (l->size[d] == 0)
            return sgl_error_set(SGL_EINVAL, FN ": extent %u is 0", d);
        if (l->halo[d] > l->size[d])
            return sgl_error_set(SGL_EINVAL,
                                 FN ": the halo of dimension %u (%zu) is "
                                    "wider than the array (%zu)",
                                 d, l->halo[d], l->size[d]);
        size_t ext = l->size[d] + 2 * l->halo[d];
        if (__builtin_mul_overflow(total, ext, &total))
            return sgl_error_set(SGL_ERANGE,
                                 FN ": dimension %u (extent %zu, halo "
                                    "%zu) makes the array too large",
                                 d, l->size[d], l->halo[d]);
    }
    return SGL_OK;
}

int sgl__dpart_from_layout(const sgl_darray_layout_t *l, size_t workers,
                           struct dpart *p)
{
    memset(p, 0, sizeof *p);
    if (!l)
        return sgl_error_set(SGL_EINVAL, FN ": layout is NULL");
    SGL_TRY(check_layout(l));
    SGL_TRY(check_grid(l, workers, p->grid));
    if (l->weights)
        SGL_TRY(check_weights(l, workers));
    p->dims = l->dims;
    p->elem_size = l->elem_size;
    p->workers = workers;
    for (unsigned d = 0; d < DP_DIMS; d++) {
        p->size[d] = d < l->dims ? l->size[d] : 1;
        p->halo[d] = d < l->dims ? l->halo[d] : 0;
        if (d < l->dims && l->cuts[d])
            SGL_TRY(check_cuts(l, d, p->grid[d]));
    }
    for (unsigned d = 0; d < DP_DIMS; d++) {
        p->cut[d] = malloc((p->grid[d] + 1) * sizeof *p->cut[d]);
        if (!p->cut[d]) {
            sgl__dpart_free(p);
            return sgl_error_set(SGL_ENOMEM, FN ": out of memory");
        }
        int rc = SGL_OK;
        if (d < l->dims && l->cuts[d])
            memcpy(p->cut[d], l->cuts[d],
                   (p->grid[d] + 1) * sizeof *p->cut[d]);
        else
            rc = slice_cuts(l, p, d, p->cut[d]);
        if (rc) {
            sgl__dpart_free(p);
            return rc;
        }
    }
    return SGL_OK;
}

void sgl__dpart_free(struct dpart *p)
{
    for (unsigned d = 0; d < DP_DIMS; d++) {
        free(p->cut[d]);
        p->cut[d] = NULL;
    }
}

/* The packed form: dims, elem_size, then size, grid and halo of every
 * dimension, then the cuts of every dimension. */
enum { PACK_HEAD = 2 + 3 * DP_DIMS };

size_t sgl__dpart_words(const struct dpart *p)
{
    size_t n = PACK_HEAD;
    for (unsigned d = 0; d < DP_DIMS; d++)
        n += p->grid[d] + 1;
    return n;
}

void sgl__dpart_pack(const struct dpart *p, uint64_t *w)
{
    *w++ = p->dims;
    *w++ = p->elem_size;
    for (unsigned d = 0; d < DP_DIMS; d++) {
        *w++ = p->size[d];
        *w++ = p->grid[d];
        *w++ = p->halo[d];
    }
    for (unsigned d = 0; d < DP_DIMS; d++)
        for (size_t k = 0; k <= p->grid[d]; k++)
            *w++ = p->cut[d][k];
}

int sgl__dpart_unpack(const uint64_t *w, size_t nwords, struct dpart *p)
{
    memset(p, 0, sizeof *p);
    if (nwords < PACK_HEAD)
        return sgl_error_set(SGL_EINVAL, "distributed array: short layout");
    p->dims = (unsigned)w[0];
    p->elem_size = w[1];
    p->workers = 1;
    size_t need = PACK_HEAD;
    for (unsigned d = 0; d < DP_DIMS; d++) {
        p->size[d] = w[2 + 3 * d];
        p->grid[d] = w[3 + 3 * d];
        p->halo[d] = w[4 + 3 * d];
        p->workers *= p->grid[d];
        need += p->grid[d] + 1;
    }
    if (need != nwords)
        return sgl_error_set(SGL_EINVAL, "distributed array: layout of %zu "
                                         "words, %zu expected",
                             nwords, need);
    const uint64_t *c = w + PACK_HEAD;
    for (unsigned d = 0; d < DP_DIMS; d++) {
        p->cut[d] = malloc((p->grid[d] + 1) * sizeof *p->cut[d]);
        if (!p->cut[d]) {
            sgl__dpart_free(p);
            return sgl_error_set(SGL_ENOMEM, "out of memory");
        }
        for (size_t k = 0; k <= p->grid[d]; k++)
            p->cut[d][k] = *c++;
    }
    return SGL_OK;
}

int sgl__dpart_same(const struct dpart *a, const struct dpart *b)
{
    if (a->dims != b->dims || a->elem_size != b->elem_size)
        return 0;
    for (unsigned d = 0; d < DP_DIMS; d++) {
        if (a->size[d] != b->size[d] || a->grid[d] != b->grid[d] ||
            a->halo[d] != b->halo[d])
            return 0;
        if (memcmp(a->cut[d], b->cut[d],
                   (a->grid[d] + 1) * sizeof *a->cut[d]))
            return 0;
    }
    return 1;
}

void sgl__dpart_coords(const struct dpart *p, size_t w, size_t c[DP_DIMS])
{
    for (unsigned d = DP_DIMS; d-- > 0;) {
        c[d] = w % p->grid[d];
        w /= p->grid[d];
    }
}

size_t sgl__dpart_worker(const struct dpart *p, const size_t c[DP_DIMS])
{
    size_t w = 0;
    for (unsigned d = 0; d < DP_DIMS; d++)
        w = w * p->grid[d] + c[d];
    return w;
}

void sgl__dpart_box(const struct dpart *p, size_t w, size_t lo[DP_DIMS],
                    size_t hi[DP_DIMS])
{
    size_t c[DP_DIMS];
    sgl__dpart_coords(p, w, c);
    for (unsigned d = 0; d < DP_DIMS; d++) {
        lo[d] = p->cut[d][c[d]];
        hi[d] = p->cut[d][c[d] + 1];
    }
}

size_t sgl__dpart_owner(const struct dpart *p, unsigned d, size_t x)
{
    const size_t *c = p->cut[d];
    size_t a = 0, b = p->grid[d]; /* c[a] <= x < c[b] */
    while (b - a > 1) {
        size_t m = a + (b - a) / 2;
        if (c[m] <= x)
            a = m;
        else
            b = m;
    }
    return a;
}

size_t sgl__dpart_storage(const struct dpart *p, size_t w,
                          size_t stride[DP_DIMS])
{
    size_t lo[DP_DIMS], hi[DP_DIMS], n = 1;
    sgl__dpart_box(p, w, lo, hi);
    for (unsigned d = DP_DIMS; d-- > 0;) {
        stride[d] = n;
        n *= hi[d] - lo[d] + 2 * p->halo[d];
    }
    return n;
}

int sgl__dpart_copy(const struct dpart *p, struct dpart *ret)
{
    size_t n = sgl__dpart_words(p);
    uint64_t *w = malloc(n * sizeof *w);
    if (!w)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    sgl__dpart_pack(p, w);
    int rc = sgl__dpart_unpack(w, n, ret);
    free(w);
    return rc;
}
