/* Message-size classes (docs/model.md, "Message sizes"): the 'level L
 * size' record read, written back and refused when malformed, a file
 * without it priced as before, and routed PSRS priced by hand on one. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/machine.h>
#include <sgl/predict.h>

#include "machine_text.h"

static sgl_prediction_t routed_psrs(const sgl_machine_t *m, double n)
{
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    o.elem_bytes = 1;
    o.routed = 1;
    sgl_prediction_t r;
    cr_assert_eq(sgl_predict_algorithm(m, SGL_PREDICT_PSRS, n, &o, &r),
                 SGL_OK, "%s", sgl_error_last());
    return r;
}

/* rank:4, l 100, g 1, o 10 per remote child: 2*100 + 3*10 = 230 of syncs
 * per superstep; kernels free (no copy), so only bytes and syncs count.
 * Routed PSRS of n = 800, eb = 1, P = 4, m = 200: per child S1 hands up
 * (3s+2)*8 = 6160 B (s = max(P, 256) samples), S2 sends 4P*8 = 128 B, XUP and XDOWN a record of
 * 32 + 8P + m = 264 B, S3 hands up 8 B. */
#define FLAT4                                                                 \
    "sgl-machine 2\nshape rank:4\nlevel 0 link mpi p 4 l 100 g 1\n"          \
    "level 0 fanout o 10\n"
#define KERNELS "kernel sort 0\nkernel merge 0\nend\n"
#define CLASSES                                                               \
    "level 0 size from 200 l_down 50 g_down 0.5 l_up 70 g_up 0.25\n"         \
    "level 0 size from 0 l_down 0 g_down 2 l_up 0 g_up 3\n"

/* Without classes every child's bytes go at g, the master's own first
 * child's too (as before): S1 230 + 4*6160, S2 230 + 4*128, XUP and XDOWN
 * 230 + 4*264 each, S3 230 + 4*8 = 28446. With the classes only the three
 * remote children's blocks count, each at its class's g, and a direction
 * with a block of the upper class waits its l:
 *   S1    230 + 70 + 3*6160*0.25       = 4920
 *   S2    230 + 3*128*2                =  998
 *   XUP   230 + 70 + 3*264*0.25        =  498
 *   XDOWN 230 + 50 + 3*264*0.5         =  676
 *   S3    230 + 3*8*3                  =  302   in all 7394. */
Test(size_classes, routed_psrs_by_hand)
{
    sgl_machine_t *m = machine(FLAT4 KERNELS);
    unsigned n = 99;
    cr_assert_eq(sgl_machine_level_size_classes(m, 0, NULL, 0, &n), SGL_OK);
    cr_expect_eq(n, 0, "no record, no class");
    sgl_prediction_t r = routed_psrs(m, 800);
    expect_near(r.total, 28446, "without classes, as before");
    sgl_machine_free(m);
    m = machine(FLAT4 CLASSES KERNELS);
    r = routed_psrs(m, 800);
    expect_near(r.total, 7394, "with classes");
    expect_near(r.level[0].syncs, 5 * 230 + 70 + 70 + 50, "syncs");
    expect_near(r.level[0].gather, 4620 + 198 + 72, "gather");
    expect_near(r.level[0].scatter, 768 + 396, "scatter");
    cr_expect_eq(r.level[0].bytes_up, 4 * (6160 + 264 + 8),
                 "bytes are counted as before");
    sgl_machine_free(m);
}

/* The direct exchange at the class of one worker's block to another: n =
 * 3200, m = 800, the busiest child sends h = m (P-1)/P + 8 (P-1) = 624 B
 * (its blocks and counts), 208 B to each other worker: the upper class,
 * l_h + 50 + 624 * 0.5 = 402 with 'exchange l 40 g 1' (40 + 624 without
 * classes). n = 800: 58 B each, the lower class, 40 + 0 + 174 * 2. */
Test(size_classes, direct_exchange_by_hand)
{
    sgl_machine_t *m[2] = {
        machine(FLAT4 "level 0 exchange l 40 g 1\n" KERNELS),
        machine(FLAT4 "level 0 exchange l 40 g 1\n" CLASSES KERNELS)};
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    o.elem_bytes = 1;
    sgl_prediction_t r[2];
    for (int k = 0; k < 2; k++)
        cr_assert_eq(sgl_predict_algorithm(m[k], SGL_PREDICT_PSRS, 3200, &o,
                                           &r[k]),
                     SGL_OK, "%s", sgl_error_last());
    expect_near(r[0].level[0].exchange, 664, "without classes");
    expect_near(r[1].level[0].exchange, 402, "upper class");
    cr_assert_eq(sgl_predict_algorithm(m[1], SGL_PREDICT_PSRS, 800, &o, &r[1]),
                 SGL_OK, "%s", sgl_error_last());
    expect_near(r[1].level[0].exchange, 388, "lower class");
    sgl_machine_free(m[0]);
    sgl_machine_free(m[1]);
}

/* Present: read in any order, kept sorted, written and read back. */
Test(size_classes, record_reads_and_writes_back)
{
    sgl_machine_t *m = machine(FLAT4 CLASSES KERNELS);
    sgl_size_class_t c[SGL_SIZE_CLASSES_MAX];
    unsigned n = 0;
    cr_assert_eq(sgl_machine_level_size_classes(m, 0, c, 4, &n), SGL_OK);
    cr_assert_eq(n, 2);
    cr_expect(c[0].from == 0 && c[0].g_down == 2 && c[0].g_up == 3);
    cr_expect(c[1].from == 200 && c[1].l_down == 50 && c[1].g_down == 0.5 &&
              c[1].l_up == 70 && c[1].g_up == 0.25);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_eq(sgl_machine_write(m, out), SGL_OK, "%s", sgl_error_last());
    fclose(out);
    sgl_machine_t *back = machine(text);
    sgl_size_class_t d[SGL_SIZE_CLASSES_MAX];
    cr_assert_eq(sgl_machine_level_size_classes(back, 0, d, 4, &n), SGL_OK);
    cr_expect_eq(n, 2, "%s", text);
    cr_expect(memcmp(c, d, 2 * sizeof *c) == 0, "%s", text);
    expect_near(routed_psrs(back, 800).total, 7394, "read back");
    free(text);
    sgl_machine_free(back);
    /* The setter refuses a duplicate, bad values and a 17th class. */
    sgl_size_class_t x = {0, 1, 1, 1, 1};
    cr_expect_eq(sgl_machine_add_level_size_class(m, 0, &x), SGL_EINVAL);
    x.from = 5;
    x.g_up = NAN;
    cr_expect_eq(sgl_machine_add_level_size_class(m, 0, &x), SGL_EINVAL);
    cr_expect_eq(sgl_machine_add_level_size_class(m, 0, NULL), SGL_EINVAL);
    cr_expect_eq(sgl_machine_add_level_size_class(m, 1, &c[0]), SGL_EINVAL);
    x.g_up = 1;
    for (unsigned k = 2; k < SGL_SIZE_CLASSES_MAX; k++, x.from += 1000)
        cr_assert_eq(sgl_machine_add_level_size_class(m, 0, &x), SGL_OK);
    cr_expect_eq(sgl_machine_add_level_size_class(m, 0, &x), SGL_EINVAL);
    cr_expect_eq(sgl_machine_level_size_classes(m, 9, c, 4, &n), SGL_EINVAL);
    sgl_machine_free(m);
}

/* Malformed records are refused with the file, the line and the reason. */
Test(size_classes, malformed_records_are_refused)
{
    static const struct {
        const char *rec, *want;
    } bad[] = {
        {"level 0 size\n", "t.sgl:5: expected 'from B' after 'level 0 size'"},
        {"level 0 size l_down 1us\n", "t.sgl:5: expected 'from B'"},
        {"level 0 size from 0 l_down 1us g_down 1ns/B l_up 1us\n",
         "t.sgl:5: missing g_up of the size record"},
        {"level 0 size from -1 l_down 1us g_down 1ns/B l_up 1us g_up 1ns/B\n",
         "t.sgl:5: "},
        {"level 0 size from 0 l_down 1ns/B g_down 1ns/B l_up 1us g_up 1ns/B\n",
         "t.sgl:5: bad unit"},
        {"level 0 size from 0 l_down 1us g_down nan l_up 1us g_up 1ns/B\n",
         "t.sgl:5: g_down is not a finite number"},
        {"level 0 size from 0 l_down 1us g_down 1ns/B l_up 1us g_up 1ns/B "
         "p 2\n",
         "t.sgl:5: unknown size parameter 'p'"},
        {"level 0 size from 0 l_down 1us l_down 1us\n",
         "t.sgl:5: l_down given twice"},
        {"level 0 size from 0 l_down 1us g_down 1ns/B l_up 1us g_up 1ns/B\n"
         "level 0 size from 0 l_down 2us g_down 1ns/B l_up 1us g_up 1ns/B\n",
         "t.sgl:6: sgl_machine_add_level_size_class: level 0 has a size class "
         "from 0 bytes already"},
        {"level 1 size from 0 l_down 1us g_down 1ns/B l_up 1us g_up 1ns/B\n",
         "t.sgl:5: level 1 does not exist"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char file[512];
        snprintf(file, sizeof file, FLAT4 "%s" KERNELS, bad[i].rec);
        sgl_machine_t *x = NULL;
        cr_expect_eq(read_text(file, &x), SGL_EPARSE, "%s", bad[i].rec);
        cr_expect_null(x);
        cr_expect_not_null(strstr(sgl_error_last(), bad[i].want),
                           "%s: '%s', expected '%s'", bad[i].rec,
                           sgl_error_last(), bad[i].want);
    }
}
