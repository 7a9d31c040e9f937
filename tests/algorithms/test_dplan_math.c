/* The index arithmetic of plans (algorithms/darray/dplan_math.c, dpart.c),
 * checked against brute force: on random partitions (uneven cuts, halos,
 * 1 to 3 dimensions) and random accesses (offsets beyond a block and
 * beyond the array, periodic or not, reflections, skews), every element
 * a worker's loop reads is in its view exactly once, brought from the
 * right index of the right owner. Internal sources are compiled in. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dplan_math.h"
#include "test_util.h"

/* Linear global index of unwrapped index @x (wrapped per dimension). */
static size_t wrap_index(const struct dpart *p, const long x[DP_DIMS])
{
    size_t g = 0;
    for (unsigned d = 0; d < DP_DIMS; d++) {
        long n = (long)p->size[d], v = ((x[d] % n) + n) % n;
        g = g * p->size[d] + (size_t)v;
    }
    return g;
}

static size_t view_index(const struct dneed *nd, const long x[DP_DIMS])
{
    size_t k = 0;
    for (unsigned d = 0; d < DP_DIMS; d++) {
        cr_assert(x[d] >= nd->vlo[d] && x[d] < nd->vhi[d],
                  "index %ld outside the view [%ld, %ld) in dimension %u",
                  x[d], nd->vlo[d], nd->vhi[d], d);
        k = k * (size_t)(nd->vhi[d] - nd->vlo[d]) +
            (size_t)(x[d] - nd->vlo[d]);
    }
    return k;
}

/* Visit every index of box [lo, hi). */
#define FOR_BOX(x, lo, hi)                                                    \
    for (x[0] = lo[0]; x[0] < hi[0]; x[0]++)                                  \
        for (x[1] = lo[1]; x[1] < hi[1]; x[1]++)                              \
            for (x[2] = lo[2]; x[2] < hi[2]; x[2]++)

static void check_worker(const struct dpart *p, size_t w, size_t na,
                         const sgl_daccess_t *a)
{
    struct dneed nd;
    cr_assert_eq(sgl__dplan_need(p, w, na, a, &nd), SGL_OK, "%s",
                 sgl_error_last());
    size_t vol = 1;
    for (unsigned d = 0; d < DP_DIMS; d++)
        vol *= (size_t)(nd.vhi[d] - nd.vlo[d]);
    unsigned *cover = calloc(vol, sizeof *cover);
    size_t *from = calloc(vol, sizeof *from);
    cr_assert(cover && from);
    size_t olo[DP_DIMS], ohi[DP_DIMS];
    sgl__dpart_box(p, w, olo, ohi);
    for (size_t i = 0; i < nd.npieces; i++) {
        const struct dpiece *q = &nd.piece[i];
        size_t slo[DP_DIMS], shi[DP_DIMS];
        sgl__dpart_box(p, q->src, slo, shi);
        cr_assert(i == 0 || nd.piece[i - 1].src <= q->src, "not by owner");
        long g[DP_DIMS], glo[DP_DIMS], ghi[DP_DIMS];
        for (unsigned d = 0; d < DP_DIMS; d++) {
            cr_assert(q->glo[d] >= slo[d] && q->ghi[d] <= shi[d] &&
                          q->glo[d] < q->ghi[d],
                      "piece outside its owner's block");
            glo[d] = (long)q->glo[d];
            ghi[d] = (long)q->ghi[d];
        }
        FOR_BOX(g, glo, ghi)
        {
            long x[DP_DIMS];
            for (unsigned d = 0; d < DP_DIMS; d++)
                x[d] = q->vlo[d] + g[d] - glo[d];
            size_t k = view_index(&nd, x);
            cover[k]++;
            from[k] = wrap_index(p, g);
        }
    }
    if (nd.in_place) {
        long x[DP_DIMS], lo[DP_DIMS], hi[DP_DIMS];
        for (unsigned d = 0; d < DP_DIMS; d++) {
            lo[d] = (long)olo[d];
            hi[d] = (long)ohi[d];
            cr_assert(nd.vlo[d] >= lo[d] - (long)p->halo[d] &&
                      nd.vhi[d] <= hi[d] + (long)p->halo[d]);
        }
        FOR_BOX(x, lo, hi)
        {
            size_t k = view_index(&nd, x);
            cover[k]++;
            from[k] = wrap_index(p, x);
        }
    }
    for (size_t k = 0; k < vol; k++)
        cr_assert(cover[k] <= 1, "view element %zu filled %u times", k,
                  cover[k]);
    long i[DP_DIMS], lo[DP_DIMS], hi[DP_DIMS];
    for (unsigned d = 0; d < DP_DIMS; d++) {
        lo[d] = (long)olo[d];
        hi[d] = (long)ohi[d];
    }
    FOR_BOX(i, lo, hi)
    for (size_t k = 0; k < na; k++) {
        long x[DP_DIMS] = {0, 0, 0};
        for (unsigned d = 0; d < p->dims; d++) {
            x[d] = a[k].offset[d];
            for (unsigned j = 0; j < p->dims; j++)
                x[d] += a[k].coef[d][j] * i[j];
        }
        for (unsigned d = 0; d < DP_DIMS; d++)
            cr_assert(x[d] >= nd.vlo[d] && x[d] < nd.vhi[d],
                      "worker %zu, access %zu (coef %ld %ld, offset %ld, "
                      "periodic %u): index %ld outside the view [%ld, %ld) "
                      "in dimension %u",
                      w, k, a[k].coef[d][0], a[k].coef[d][1], a[k].offset[d],
                      a[k].periodic, x[d], nd.vlo[d], nd.vhi[d], d);
        size_t v = view_index(&nd, x);
        cr_assert_eq(cover[v], 1, "worker %zu, access %zu: a read is not "
                                  "in the view",
                     w, k);
        cr_assert_eq(from[v], wrap_index(p, x),
                     "worker %zu, access %zu: wrong element", w, k);
    }
    free(cover);
    free(from);
    sgl__dneed_free(&nd);
}

/* A random partition: dims, extents, a grid of the given workers,
 * uneven cuts, halos. */
static void random_part(uint64_t *rng, struct dpart *p)
{
    sgl_darray_layout_t l;
    size_t size[DP_DIMS];
    unsigned dims = 1 + (unsigned)(test_mix(rng) % 3);
    size_t workers = 1 + test_mix(rng) % 6;
    unsigned grid[DP_DIMS] = {1, 1, 1};
    for (size_t w = workers, f = 2; w > 1;) /* spread w's factors */
        if (w % f == 0) {
            grid[test_mix(rng) % dims] *= (unsigned)f;
            w /= f;
        } else
            f++;
    size_t *cuts[DP_DIMS] = {0};
    for (unsigned d = 0; d < dims; d++) {
        size[d] = grid[d] + test_mix(rng) % 9;
        cuts[d] = malloc((grid[d] + 1) * sizeof **cuts);
        cuts[d][0] = 0;
        for (unsigned c = 1; c <= grid[d]; c++) /* >= 1 per block */
            cuts[d][c] = cuts[d][c - 1] + 1;
        for (size_t extra = size[d] - grid[d]; extra; extra--)
            for (unsigned c = 1 + (unsigned)(test_mix(rng) % grid[d]);
                 c <= grid[d]; c++)
                cuts[d][c]++;
    }
    sgl_darray_layout_init(&l, dims, size, 8);
    for (unsigned d = 0; d < dims; d++) {
        l.grid[d] = grid[d];
        l.cuts[d] = cuts[d];
        l.halo[d] = test_mix(rng) % 3 % (size[d] + 1);
    }
    cr_assert_eq(sgl__dpart_from_layout(&l, workers, p), SGL_OK, "%s",
                 sgl_error_last());
    for (unsigned d = 0; d < DP_DIMS; d++)
        free(cuts[d]);
}

/* A random access: a shift, a reflection or (2D and up) a skew. */
static void random_access(uint64_t *rng, const struct dpart *p,
                          sgl_daccess_t *a)
{
    memset(a, 0, sizeof *a);
    a->periodic = (unsigned)(test_mix(rng) % 8);
    for (unsigned d = 0; d < p->dims; d++) {
        long n = (long)p->size[d];
        a->coef[d][d] = 1;
        a->offset[d] = (long)(test_mix(rng) % (uint64_t)(4 * n + 1)) - 2 * n;
        if (!((a->periodic >> d) & 1))
            a->offset[d] = 0;
    }
    switch (test_mix(rng) % 4) {
    case 0: /* reflection of dimension 0: n - 1 - i */
        a->coef[0][0] = -1;
        a->offset[0] = (long)p->size[0] - 1;
        break;
    case 1: /* skew: dimension 1 reads i_0 + i_1 */
        if (p->dims >= 2) {
            a->coef[1][0] = 1;
            a->periodic |= 2;
        }
        break;
    default:
        break;
    }
}

Test(dplan_math, random_partitions_and_accesses)
{
    uint64_t rng = 12345;
    for (int round = 0; round < 400; round++) {
        struct dpart p;
        random_part(&rng, &p);
        sgl_daccess_t a[4];
        size_t na = 1 + test_mix(&rng) % 4;
        for (size_t k = 0; k < na; k++)
            random_access(&rng, &p, &a[k]);
        cr_assert_eq(sgl__dplan_check(&p, na, a, "test"), SGL_OK, "%s",
                     sgl_error_last());
        for (size_t w = 0; w < p.workers; w++)
            check_worker(&p, w, na, a);
        sgl__dpart_free(&p);
    }
}

/* The rotation of the Trasgo paper's figure 3: 25 elements, an uneven
 * partition over 5 workers, rot = 3, and an offset larger than a block. */
Test(dplan_math, rotation_of_the_paper)
{
    static const size_t cuts[] = {0, 4, 9, 13, 21, 25};
    sgl_darray_layout_t l;
    size_t n = 25;
    sgl_darray_layout_init(&l, 1, &n, 8);
    l.cuts[0] = cuts;
    struct dpart p;
    cr_assert_eq(sgl__dpart_from_layout(&l, 5, &p), SGL_OK);
    sgl_daccess_t a;
    long rot = 3;
    sgl_daccess_shift(&a, 1, &rot, SGL_PERIODIC_ALL);
    struct dneed nd;
    /* Worker 4 owns [21, 25) and reads [24, 28): 24 from itself, then 0..2
     * across the boundary, from worker 0. */
    cr_assert_eq(sgl__dplan_need(&p, 4, 1, &a, &nd), SGL_OK);
    cr_assert_eq(nd.in_place, 0);
    cr_assert_eq(nd.npieces, 2);
    cr_assert_eq(nd.piece[0].src, 0);
    cr_assert_eq(nd.piece[0].glo[0], 0);
    cr_assert_eq(nd.piece[0].ghi[0], 3);
    cr_assert_eq(nd.piece[0].vlo[0], 25);
    cr_assert_eq(nd.piece[1].src, 4);
    sgl__dneed_free(&nd);
    rot = 11; /* beyond the largest block (8) */
    sgl_daccess_shift(&a, 1, &rot, SGL_PERIODIC_ALL);
    for (size_t w = 0; w < 5; w++)
        check_worker(&p, w, 1, &a);
    sgl__dpart_free(&p);
}

Test(dplan_math, stencil_fills_only_the_halo)
{
    size_t size[2] = {10, 12};
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 2, size, 8);
    l.halo[0] = l.halo[1] = 1;
    struct dpart p;
    cr_assert_eq(sgl__dpart_from_layout(&l, 4, &p), SGL_OK);
    cr_assert_eq(p.grid[0] * p.grid[1], 4);
    static const long off[5][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    sgl_daccess_t a[5];
    for (int k = 0; k < 5; k++)
        sgl_daccess_shift(&a[k], 2, off[k], SGL_PERIODIC_ALL);
    for (size_t w = 0; w < 4; w++) {
        struct dneed nd;
        cr_assert_eq(sgl__dplan_need(&p, w, 5, a, &nd), SGL_OK);
        cr_assert(nd.in_place);
        size_t halo = 0;
        for (size_t i = 0; i < nd.npieces; i++)
            halo += sgl__dpiece_count(&nd.piece[i], 3);
        size_t lo[3], hi[3];
        sgl__dpart_box(&p, w, lo, hi);
        /* Four edges, no corners: the 5-point stencil does not read them. */
        cr_assert_eq(halo, 2 * (hi[0] - lo[0]) + 2 * (hi[1] - lo[1]));
        sgl__dneed_free(&nd);
        check_worker(&p, w, 5, a);
    }
    sgl__dpart_free(&p);
}

Test(dplan_math, bad_accesses_are_named)
{
    size_t n = 10;
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 1, &n, 8);
    struct dpart p;
    cr_assert_eq(sgl__dpart_from_layout(&l, 2, &p), SGL_OK);
    sgl_daccess_t a;
    long off = 1;
    sgl_daccess_shift(&a, 1, &off, 0);
    cr_assert_eq(sgl__dplan_check(&p, 1, &a, "f"), SGL_EINVAL);
    cr_assert(strstr(sgl_error_last(), "not periodic"), "%s",
              sgl_error_last());
    a.coef[1][0] = 1; /* a second dimension of a 1D array */
    a.periodic = SGL_PERIODIC_ALL;
    cr_assert_eq(sgl__dplan_check(&p, 1, &a, "f"), SGL_EINVAL);
    cr_assert(strstr(sgl_error_last(), "1-dimensional"), "%s",
              sgl_error_last());
    memset(&a, 0, sizeof a);
    a.coef[0][0] = LONG_MAX / 2;
    a.periodic = 1;
    cr_assert_eq(sgl__dplan_check(&p, 1, &a, "f"), SGL_EINVAL);
    cr_assert(strstr(sgl_error_last(), "overflow"), "%s", sgl_error_last());
    sgl__dpart_free(&p);
}

Test(dplan_math, bad_layouts_are_named)
{
    size_t size[2] = {4, 6};
    sgl_darray_layout_t l;
    struct dpart p;
    sgl_darray_layout_init(&l, 2, size, 8);
    l.grid[0] = 3;
    l.grid[1] = 1;
    cr_assert_eq(sgl__dpart_from_layout(&l, 4, &p), SGL_EINVAL);
    cr_assert(strstr(sgl_error_last(), "grid of 3 workers"), "%s",
              sgl_error_last());
    l.grid[0] = 4;
    static const size_t cuts[] = {0, 1, 1, 3, 4};
    l.cuts[0] = cuts;
    cr_assert_eq(sgl__dpart_from_layout(&l, 4, &p), SGL_EINVAL);
    cr_assert(strstr(sgl_error_last(), "block 1 of dimension 0"), "%s",
              sgl_error_last());
    l.cuts[0] = NULL;
    l.grid[0] = 0;
    l.grid[1] = 0;
    size[0] = 1; /* 4 workers, 2 x 2: one row cannot be cut in two */
    sgl_darray_layout_init(&l, 2, size, 8);
    cr_assert_eq(sgl__dpart_from_layout(&l, 4, &p), SGL_EINVAL);
    cr_assert(strstr(sgl_error_last(), "no element"), "%s",
              sgl_error_last());
    size[0] = 4;
    sgl_darray_layout_init(&l, 2, size, 8);
    double wts[4] = {1, -1, 1, 1};
    l.weights = wts;
    cr_assert_eq(sgl__dpart_from_layout(&l, 4, &p), SGL_EINVAL);
    cr_assert(strstr(sgl_error_last(), "weight of worker 1"), "%s",
              sgl_error_last());
    sgl_darray_layout_init(&l, 4, size, 8);
    cr_assert_eq(sgl__dpart_from_layout(&l, 4, &p), SGL_EINVAL);
    sgl_darray_layout_init(&l, 2, size, 0);
    cr_assert_eq(sgl__dpart_from_layout(&l, 4, &p), SGL_EINVAL);
}

Test(dplan_math, weights_cut_in_proportion)
{
    size_t n = 300;
    sgl_darray_layout_t l;
    sgl_darray_layout_init(&l, 1, &n, 8);
    double wts[3] = {1, 2, 3};
    l.weights = wts;
    struct dpart p;
    cr_assert_eq(sgl__dpart_from_layout(&l, 3, &p), SGL_OK);
    cr_assert_eq(p.cut[0][1], 50);
    cr_assert_eq(p.cut[0][2], 150);
    cr_assert_eq(p.cut[0][3], 300);
    sgl__dpart_free(&p);
}

Test(dplan_math, packed_partition_round_trips)
{
    uint64_t rng = 99;
    for (int i = 0; i < 20; i++) {
        struct dpart p, q;
        random_part(&rng, &p);
        size_t n = sgl__dpart_words(&p);
        uint64_t *w = malloc(n * sizeof *w);
        sgl__dpart_pack(&p, w);
        cr_assert_eq(sgl__dpart_unpack(w, n, &q), SGL_OK);
        cr_assert(sgl__dpart_same(&p, &q));
        sgl__dpart_free(&q);
        cr_assert_eq(sgl__dpart_unpack(w, n - 1, &q), SGL_EINVAL);
        free(w);
        sgl__dpart_free(&p);
    }
}
