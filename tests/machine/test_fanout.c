/* The synchronisation term that grows with the fan-out (issue 46): each
 * remote child's command and reply header priced at the link's g, its
 * machine-file record and its defaults; the measured per-child cost o and
 * the run's start that replace it (the 'fanout' record); and PSRS with
 * the routed exchange by hand. The trace replay's side is in
 * tests/runtime/test_runtime.c (trace_replay_agrees_with_the_closed_form). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/machine.h>
#include <sgl/predict.h>

#include "machine_text.h"

static sgl_prediction_t predict(const sgl_machine_t *m,
                                sgl_predict_algo_t algo, double n, int routed)
{
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    o.routed = routed;
    sgl_prediction_t r;
    cr_assert_eq(sgl_predict_algorithm(m, algo, n, &o, &r), SGL_OK, "%s",
                 sgl_error_last());
    return r;
}

/* The case: a flat tree of 1024 ranks behind the root's 1 Gbit/s
 * link (8 ns/B), l = 50 us. A reduce is one superstep: its syncs were
 * 2 l = 100 us whatever the fan-out; now each of the 1023 remote children
 * adds its 64-byte command and 64-byte reply, 1023 * 128 B * 8 ns =
 * 1.047552 ms. */
#define FLAT1024                                                              \
    "sgl-machine 2\nshape rank:1024\n"                                        \
    "level 0 link mpi p 1024 l 50us g 8ns/B\n"
Test(fanout, flat_1024_prices_the_headers)
{
    sgl_machine_t *m = machine(FLAT1024 "kernel sum 1ns\nend\n");
    const sgl_node_t *root = sgl_machine_root(m);
    double h = -1;
    cr_assert_eq(sgl_node_header_bytes(root, &h), SGL_OK);
    cr_expect_eq(h, SGL_HEADER_BYTES, "an MPI level defaults to the "
                                      "runtime's header: %g",
                 h);
    double hdr = 1023 * 64 * (8e-9 + 8e-9);
    sgl_prediction_t r = predict(m, SGL_PREDICT_REDUCE, 1024e3, 0);
    expect_near(r.level[0].syncs, 100e-6 + hdr, "syncs");
    /* Worker 1000 ns, fold 1024 ns, gather 1024 * 8 B * 8 ns. */
    expect_near(r.total, 1000e-9 + 1024e-9 + 65536e-9 + 100e-6 + hdr,
                "total");
    cr_expect_gt(r.total, 1e-3, "the 1024-rank reduce is over 1 ms now");
    /* Header 0 gives back the constant l, as before this term. */
    cr_assert_eq(sgl_machine_set_level_header(m, 0, 0), SGL_OK);
    r = predict(m, SGL_PREDICT_REDUCE, 1024e3, 0);
    expect_near(r.level[0].syncs, 100e-6, "syncs, header 0");
    sgl_machine_free(m);
    /* Set in the file, in bytes or words. */
    m = machine(FLAT1024 "level 0 header 50word\nkernel sum 1ns\nend\n");
    r = predict(m, SGL_PREDICT_REDUCE, 1024e3, 0);
    expect_near(r.level[0].syncs, 100e-6 + 1023 * 200 * 16e-9,
                "syncs, header 200 B");
    sgl_machine_free(m);
}

/* The term grows with p - 1, and a threads level has none unless set. */
Test(fanout, grows_with_the_fan_out)
{
    const char *fmt = "sgl-machine 2\nshape rank:%d\n"
                      "level 0 l 50us g 8ns/B\nkernel sum 0\nend\n";
    double prev = 0;
    for (int p = 2; p <= 1024; p *= 8) {
        char text[256];
        snprintf(text, sizeof text, fmt, p);
        sgl_machine_t *m = machine(text);
        sgl_prediction_t r = predict(m, SGL_PREDICT_REDUCE, 1e6, 0);
        expect_near(r.level[0].syncs, 100e-6 + (p - 1) * 128 * 8e-9,
                    "syncs");
        cr_expect_gt(r.level[0].syncs, prev);
        prev = r.level[0].syncs;
        sgl_machine_free(m);
    }
    sgl_machine_t *t = machine("sgl-machine 2\nshape core:64\n"
                               "level 0 l 1us g 1ns/B\nkernel sum 0\nend\n");
    expect_near(predict(t, SGL_PREDICT_REDUCE, 1e6, 0).level[0].syncs, 2e-6,
                "threads, default");
    cr_assert_eq(sgl_machine_set_level_header(t, 0, 64), SGL_OK);
    expect_near(predict(t, SGL_PREDICT_REDUCE, 1e6, 0).level[0].syncs,
                2e-6 + 63 * 64 * 2e-9, "threads, header 64");
    sgl_machine_free(t);
}

/* Files written before the term still load, and price it at the
 * runtime's header; a written header reads back; bad ones are refused
 * with the file and line. */
Test(fanout, old_files_load_and_headers_round_trip)
{
    sgl_machine_t *m = NULL;
    cr_assert_eq(sgl_machine_load(SGL_MACHINES_DIR "/paper-16x8.sgl", &m),
                 SGL_OK, "%s", sgl_error_last());
    double h;
    cr_expect_eq(sgl_machine_level_header(m, 0, &h), SGL_ERANGE);
    cr_assert_eq(sgl_node_header_bytes(sgl_machine_master(m, 1, 0), &h),
                 SGL_OK);
    cr_expect_eq(h, 0, "threads level");
    sgl_link_params_t p;
    cr_assert_eq(sgl_machine_level_params(m, 0, &p), SGL_OK);
    sgl_prediction_t r = predict(m, SGL_PREDICT_REDUCE, 1e6, 0);
    expect_near(r.level[0].syncs,
                2 * p.l + 15 * 64 * (p.g_down + p.g_up), "paper 16x8 root");
    cr_assert_eq(sgl_machine_set_level_header(m, 0, 96), SGL_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_eq(sgl_machine_write(m, f), SGL_OK, "%s", sgl_error_last());
    fclose(f);
    cr_expect_not_null(strstr(text, "level 0 header 96\n"), "%s", text);
    sgl_machine_t *back = machine(text);
    cr_assert_eq(sgl_machine_level_header(back, 0, &h), SGL_OK);
    cr_expect_eq(h, 96);
    free(text);
    sgl_machine_free(back);
    sgl_machine_free(m);
    static const struct {
        const char *rec, *want;
    } bad[] = {
        {"level 0 header -8\n", "t.sgl:4: "},
        {"level 0 header nan\n", "t.sgl:4: header is not a finite number"},
        {"level 0 header 8 9\n", "t.sgl:4: unexpected '9'"},
        {"level 0 header 8ns\n", "t.sgl:4: "},
        {"level 0 header\n", "t.sgl:4: missing value of header"},
        {"level 0 header 8\nlevel 0 header 8\n",
         "t.sgl:5: duplicate 'level 0 header' record"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char file[512];
        snprintf(file, sizeof file, FLAT1024 "%skernel sum 1ns\nend\n",
                 bad[i].rec);
        sgl_machine_t *x = NULL;
        cr_expect_neq(read_text(file, &x), SGL_OK, "%s accepted", bad[i].rec);
        cr_expect_null(x);
        cr_expect_not_null(strstr(sgl_error_last(), bad[i].want),
                           "%s: '%s', expected '%s'", bad[i].rec,
                           sgl_error_last(), bad[i].want);
    }
}

/* PSRS with the routed exchange on rank:2 core:2 by hand: n = 400,
 * eb = 1, P = 4, m = 100; level 0 (mpi) l 100, g 1, header 64 (the
 * default): 2*100 + 1*64*(1+1) = 328 of syncs per superstep; level 1
 * (threads) l 10, g 0.5, no header: 20. c(copy) = 1 per 8 bytes, every
 * other c 0, so only bytes, syncs and copies count. A worker's record is
 * 32 + 8P + m = 164 bytes, a node's two 328, all four 656.
 * A worker's samples are 3s+2 = 770 words (s = max(P, 256)), 6160 B.
 * Node (2 workers, 200 elements):
 *   S1    up 2*6160 B *0.5 = 6160, copy 770*2 = 1540, +20    = 7720
 *   S2    down 2*128 B *0.5 = 128, +20                       = 148
 *   XUP   up 328*0.5 = 164, copy 328/8 = 41, worker 100/8, +20 = 237.5
 *   XDOWN down 164, copy 41, worker (164+100)/8 = 33, +20    = 258
 *   S3    up 2*8 *0.5 = 8, +20                               = 28
 * Root:
 *   S1    7720 + up 2*12320 + copy 770*4 = 3080 + 328        = 35768
 *   S2    148 + down 2*128 + 328                             = 732
 *   XUP   237.5 + up 656 + reorder 656/8 = 82 + 328          = 1303.5
 *   XDOWN 258 + down 656 + 328 (the root copies nothing)     = 1242
 *   S3    28 + up 2*16 + 328                                 = 388 */
Test(fanout, routed_psrs_by_hand)
{
    sgl_machine_t *m = machine("sgl-machine 2\nshape rank:2 core:2\n"
                               "level 0 l 100 g 1\nlevel 1 l 10 g 0.5\n"
                               "kernel sort 0\nkernel merge 0\n"
                               "kernel copy 1\nend\n");
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    o.elem_bytes = 1;
    o.routed = 1;
    sgl_prediction_t r;
    cr_assert_eq(sgl_predict_algorithm(m, SGL_PREDICT_PSRS, 400, &o, &r),
                 SGL_OK, "%s", sgl_error_last());
    expect_near(r.total, 35768 + 732 + 1303.5 + 1242 + 388, "total");
    cr_expect_eq(r.level[0].supersteps, 5);
    expect_near(r.level[0].syncs, 5 * 328, "root's syncs");
    cr_expect_eq(r.level[0].bytes_up, 24640 + 656 + 32);
    cr_expect_eq(r.level[0].bytes_down, 256 + 656);
    cr_expect_eq(r.level[0].exchange, 0, "nothing moves sideways");
    expect_near(r.level[0].work, 3080 + 82, "root's copies");
    expect_near(r.level[2].work, 12.5 + 33, "worker's copies");
    /* PSRS by level has no routed price: refused, not priced direct. */
    cr_expect_eq(sgl_predict_algorithm(m, SGL_PREDICT_PSRS_LEVELS, 400, &o,
                                       &r),
                 SGL_EINVAL);
    cr_expect_not_null(strstr(sgl_error_last(), "routed"), "%s",
                       sgl_error_last());
    sgl_machine_free(m);
}

/* A hand-made file with the measured terms, as sim/probe writes them:
 * rank:16, l 200 us, g 8 ns/B, o 2 us per remote child per superstep, a
 * run's start 200 us + 0.8 us per remote child; kernels free. A reduce is
 * one superstep, its first: syncs 2 * 200 + 15 * 2 + 200 + 15 * 0.8 =
 * 642 us, and the gather of 16 partial sums 16 * 8 B * 8 ns = 1.024 us.
 * The header (64 B by default) is not charged: o holds it. */
#define FLAT16                                                                \
    "sgl-machine 2\nshape rank:16\nlevel 0 link mpi p 16 l 200us g 8ns/B\n"
Test(fanout, measured_terms_price_reduce_and_scan)
{
    sgl_machine_t *m = machine(FLAT16 "level 0 fanout o 2us start_l 200us "
                                      "start_o 0.8us\nkernel sum 0\n"
                                      "kernel scan 0\nend\n");
    sgl_fanout_params_t f;
    cr_assert_eq(sgl_machine_level_fanout(m, 0, &f), SGL_OK);
    expect_near(f.o, 2e-6, "o");
    expect_near(f.start_l, 200e-6, "start_l");
    expect_near(f.start_o, 0.8e-6, "start_o");
    double start = -1;
    cr_assert_eq(sgl_node_start_cost(sgl_machine_root(m), &start), SGL_OK);
    expect_near(start, 212e-6, "start");
    sgl_prediction_t r = predict(m, SGL_PREDICT_REDUCE, 1e6, 0);
    expect_near(r.level[0].syncs, 642e-6, "reduce syncs");
    expect_near(r.total, 642e-6 + 1.024e-6, "reduce total");
    /* Every superstep pays 2 l + 15 o, the first the start once more. */
    sgl_prediction_t s = predict(m, SGL_PREDICT_SCAN, 1e6, 0);
    expect_near(s.level[0].syncs, s.level[0].supersteps * 430e-6 + 212e-6,
                "scan syncs");
    sgl_machine_free(m);
    /* Without the start terms only o counts. */
    m = machine(FLAT16 "level 0 fanout o 2us\nkernel sum 0\nend\n");
    expect_near(predict(m, SGL_PREDICT_REDUCE, 1e6, 0).level[0].syncs,
                430e-6, "o alone");
    sgl_machine_free(m);
}

/* Below the root a run's first command comes after the stop that readied
 * the children: only the root's first superstep pays the start. */
Test(fanout, the_start_is_the_roots)
{
    sgl_machine_t *m = machine(
        "sgl-machine 2\nshape rack:2 rank:4\nlevel 0 l 100us g 8ns/B\n"
        "level 1 l 10us g 8ns/B\n"
        "level 0 fanout o 1us start_l 100us start_o 1us\n"
        "level 1 fanout o 2us start_l 50us start_o 5us\n"
        "kernel sum 0\nend\n");
    sgl_prediction_t r = predict(m, SGL_PREDICT_REDUCE, 1e6, 0);
    expect_near(r.level[0].syncs, 200e-6 + 1e-6 + 101e-6, "root");
    expect_near(r.level[1].syncs, 20e-6 + 3 * 2e-6, "rack master");
    double start = -1;
    cr_assert_eq(sgl_node_start_cost(sgl_machine_master(m, 1, 0), &start),
                 SGL_OK);
    expect_near(start, 65e-6, "the rack master's own terms");
    cr_expect_eq(sgl_node_start_cost(sgl_machine_worker(m, 0), &start),
                 SGL_EINVAL);
    sgl_machine_free(m);
}

/* A file without the record loads and prices as before (the header at
 * g, no start); one with it writes and reads back; bad ones are refused
 * with the file, the line and what is wrong. */
Test(fanout, fanout_record_is_optional_and_checked)
{
    sgl_machine_t *m = machine(FLAT16 "kernel sum 0\nend\n");
    sgl_fanout_params_t f;
    cr_expect_eq(sgl_machine_level_fanout(m, 0, &f), SGL_ERANGE);
    double start = -1;
    cr_assert_eq(sgl_node_start_cost(sgl_machine_root(m), &start), SGL_OK);
    cr_expect_eq(start, 0);
    expect_near(predict(m, SGL_PREDICT_REDUCE, 1e6, 0).level[0].syncs,
                400e-6 + 15 * 64 * 16e-9, "today's header term");
    f = (sgl_fanout_params_t){1.5e-6, 2e-4, 7.5e-7};
    cr_assert_eq(sgl_machine_set_level_fanout(m, 0, &f), SGL_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_eq(sgl_machine_write(m, out), SGL_OK, "%s", sgl_error_last());
    fclose(out);
    sgl_machine_t *back = machine(text);
    sgl_fanout_params_t g;
    cr_assert_eq(sgl_machine_level_fanout(back, 0, &g), SGL_OK, "%s", text);
    cr_expect(g.o == f.o && g.start_l == f.start_l && g.start_o == f.start_o,
              "read back %g %g %g", g.o, g.start_l, g.start_o);
    free(text);
    sgl_machine_free(back);
    f.o = -1;
    cr_expect_eq(sgl_machine_set_level_fanout(m, 0, &f), SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_level_fanout(m, 0, NULL), SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_level_fanout(m, 3, &g), SGL_EINVAL);
    sgl_machine_free(m);
    static const struct {
        const char *rec, *want;
    } bad[] = {
        {"level 0 fanout\n", "t.sgl:4: missing o of the fanout record"},
        {"level 0 fanout o\n", "t.sgl:4: missing value of o"},
        {"level 0 fanout o -1us\n", "t.sgl:4: "},
        {"level 0 fanout o nan\n", "t.sgl:4: o is not a finite number"},
        {"level 0 fanout o 1ns/B\n", "t.sgl:4: bad unit"},
        {"level 0 fanout o 1us p 2\n", "t.sgl:4: unknown fanout parameter 'p'"},
        {"level 0 fanout o 1us o 2us\n", "t.sgl:4: o given twice"},
        {"level 0 fanout o 1us start_l 2us\n",
         "t.sgl:4: start_l and start_o go together"},
        {"level 0 fanout start_l 1us start_o 1us\n",
         "t.sgl:4: missing o of the fanout record"},
        {"level 0 fanout o 1us\nlevel 0 fanout o 1us\n",
         "t.sgl:5: duplicate 'level 0 fanout' record"},
        {"level 1 fanout o 1us\n", "t.sgl:4: "},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char file[512];
        snprintf(file, sizeof file, FLAT16 "%skernel sum 1ns\nend\n",
                 bad[i].rec);
        sgl_machine_t *x = NULL;
        cr_expect_neq(read_text(file, &x), SGL_OK, "%s accepted", bad[i].rec);
        cr_expect_null(x);
        cr_expect_not_null(strstr(sgl_error_last(), bad[i].want),
                           "%s: '%s', expected '%s'", bad[i].rec,
                           sgl_error_last(), bad[i].want);
    }
}
