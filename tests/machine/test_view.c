/* The view path's price (issue 47): the 'level L view' record present,
 * absent and malformed, and the predictor's view steps by hand (a root
 * array's reduce and root scan, whose children read in place and put in
 * place). Correctness only: nothing here is timed. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/machine.h>
#include <sgl/predict.h>

#include "machine_text.h"

static sgl_prediction_t predict(const sgl_machine_t *m,
                                sgl_predict_algo_t algo, double n)
{
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    o.centralised = 1;
    sgl_prediction_t r;
    cr_assert_eq(sgl_predict_algorithm(m, algo, n, &o, &r), SGL_OK, "%s",
                 sgl_error_last());
    return r;
}

static void expect_about(double got, double want, const char *what)
{
    cr_expect(fabs(got - want) <= 1e-9 * fabs(want) + 1e-18,
              "%s: %.17g, expected %.17g", what, got, want);
}

/* Two threads; the copying g is dear, the view path's nearly free. */
#define CORE2                                                                 \
    "sgl-machine 2\nshape core:2\n"                                           \
    "level 0 link threads p 2 l 1us g_down 1ns/B g_up 2ns/B\n"
#define KERNELS "kernel sum 1ns\nkernel scan 2ns\nend\n"
#define VIEW "level 0 view g_down 0 g_up 0.1ns/B\n"

Test(view, record_reads_writes_and_prices)
{
    sgl_machine_t *m = machine(CORE2 VIEW KERNELS);
    double gd = -1, gu = -1;
    cr_assert_eq(sgl_machine_level_view(m, 0, &gd, &gu), SGL_OK);
    cr_expect_eq(gd, 0);
    expect_about(gu, 0.1e-9, "view g_up");
    sgl_link_params_t p;
    cr_assert_eq(sgl_node_view_params(sgl_machine_root(m), &p), SGL_OK);
    expect_about(p.l, 1e-6, "view l is the level's");
    expect_about(p.g_up, 0.1e-9, "view params' g_up");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_eq(sgl_machine_write(m, f), SGL_OK, "%s", sgl_error_last());
    fclose(f);
    cr_expect_not_null(strstr(text, "level 0 view g_down 0 g_up 1e-10"),
                       "%s", text);
    sgl_machine_t *back = machine(text);
    cr_assert_eq(sgl_machine_level_view(back, 0, &gd, &gu), SGL_OK);
    cr_expect_eq(gu, 0.1e-9, "round trip: %.17g", gu);
    free(text);
    sgl_machine_free(back);
    sgl_machine_free(m);
}

/* Without the record a file loads and a view step costs what the level's
 * copying g says, as before the record. */
Test(view, absent_record_keeps_the_old_price)
{
    sgl_machine_t *m = machine(CORE2 KERNELS);
    double gd, gu;
    cr_expect_eq(sgl_machine_level_view(m, 0, &gd, &gu), SGL_ERANGE);
    sgl_link_params_t v, p;
    cr_assert_eq(sgl_node_view_params(sgl_machine_root(m), &v), SGL_OK);
    cr_assert_eq(sgl_node_params(sgl_machine_root(m), &p), SGL_OK);
    cr_expect(v.l == p.l && v.g_down == p.g_down && v.g_up == p.g_up);
    /* n = 1000 doubles, 500 per worker: 1000 ns of sum... see below. */
    sgl_prediction_t r = predict(m, SGL_PREDICT_REDUCE, 1000);
    expect_about(r.total, 500e-9 + 2e-9 + 8000e-9 + 16 * 2e-9 + 2e-6,
                "reduce of a root array, copying g");
    sgl_machine_free(m);
    cr_assert_eq(sgl_machine_load(SGL_MACHINES_DIR "/paper-16x8.sgl", &m),
                 SGL_OK, "%s", sgl_error_last());
    cr_expect_eq(sgl_machine_level_view(m, 1, &gd, &gu), SGL_ERANGE);
    sgl_machine_free(m);
}

/* By hand, n = 1000 doubles on core:2 (500 each), l 1 us:
 * reduce: worker 500 x 1 ns, fold 2 x 1 ns, down 8000 B x 0, up 16 B x
 *   0.1 ns, syncs 2 us.
 * root scan (scan-rts, centralised), in ns:
 *   pass 1: 500 + 2 + 0 + 1.6 + 2000 = 2503.6
 *   pass 2: worker 500 x 2 + master 2 x 2 + down 16 B x 0
 *           + up 8000 B x 0.1 + 2000 = 3804 */
Test(view, predictor_prices_view_steps)
{
    sgl_machine_t *m = machine(CORE2 VIEW KERNELS);
    sgl_prediction_t r = predict(m, SGL_PREDICT_REDUCE, 1000);
    expect_about(r.total, 500e-9 + 2e-9 + 1.6e-9 + 2e-6, "reduce");
    expect_about(r.level[0].scatter, 0, "reduce's scatter");
    r = predict(m, SGL_PREDICT_SCAN_RTS, 1000);
    expect_about(r.total, 2503.6e-9 + 3804e-9, "root scan");
    expect_about(r.level[0].gather, 1.6e-9 + 800e-9, "root scan's gathers");
    cr_expect_eq(r.level[0].bytes_down, 8000 + 16, "threads: parts once");
    /* Distributed data takes no view: the same as before the record. */
    sgl_prediction_t d;
    cr_assert_eq(sgl_predict_algorithm(m, SGL_PREDICT_REDUCE, 1000, NULL, &d),
                 SGL_OK);
    expect_about(d.total, 500e-9 + 2e-9 + 16 * 2e-9 + 2e-6, "distributed");
    sgl_machine_free(m);
    /* Across an MPI link pass 2 sends the parts again. */
    m = machine("sgl-machine 2\nshape rank:2\n"
                "level 0 link mpi l 1us g 1ns/B\nlevel 0 header 0\n" KERNELS);
    r = predict(m, SGL_PREDICT_SCAN_RTS, 1000);
    cr_expect_eq(r.level[0].bytes_down, 8000 + 8000 + 16, "mpi: twice");
    sgl_machine_free(m);
}

/* The view path with size tables: both threads read their halves of the
 * root array at once, from one memory, so a worker's work is priced at
 * the kernel's busy-2 c (the probe's "busy Q" table), and the one-worker
 * time at busy 1; a master's fold runs alone (busy 1). By hand, n = 1000
 * doubles, 500 per worker, c in ns: sum 1 alone, 3 with both busy; scan
 * 2 alone, 5 with both busy (each a single point: that c at every n).
 *   reduce: 500 x 3 + 2 x 1 + 16 B x 0.1 + 2000 = 3503.6
 *   root scan, pass 1: the reduce's 3503.6
 *              pass 2: 500 x 5 + 2 x 2 + 8000 B x 0.1 + 2000 = 5304
 *   one worker: reduce 1000 x 1, root scan 1000 x 2 */
Test(view, view_steps_price_workers_busy_together)
{
    sgl_machine_t *m = machine(CORE2 VIEW
                               "kernel sum 1ns n 1000 busy 1\n"
                               "kernel sum 3ns n 1000 busy 2\n"
                               "kernel scan 2ns n 1000 busy 1\n"
                               "kernel scan 5ns n 1000 busy 2\nend\n");
    sgl_prediction_t r = predict(m, SGL_PREDICT_REDUCE, 1000);
    expect_about(r.level[1].work, 1500e-9, "reduce: a worker, both busy");
    expect_about(r.total, 3503.6e-9, "reduce");
    expect_about(r.sequential, 1000e-9, "reduce on one worker, alone");
    r = predict(m, SGL_PREDICT_SCAN_RTS, 1000);
    expect_about(r.level[1].work, 1500e-9 + 2500e-9, "root scan's workers");
    expect_about(r.total, 3503.6e-9 + 5304e-9, "root scan");
    expect_about(r.sequential, 2000e-9, "root scan on one worker, alone");
    /* Private memory (no bandwidth shared): the workers at busy 1. */
    cr_assert_eq(sgl_machine_set_level_memory(m, 0, SGL_MEMORY_PRIVATE),
                 SGL_OK);
    r = predict(m, SGL_PREDICT_REDUCE, 1000);
    expect_about(r.total, 500e-9 + 2e-9 + 1.6e-9 + 2e-6, "private memory");
    sgl_machine_free(m);
}

Test(view, malformed_records_are_refused)
{
    static const struct {
        const char *rec, *want;
    } bad[] = {
        {"level 0 view g_down -1ns/B g_up 0\n", "t.sgl:4: "},
        {"level 0 view g_down 0\n", "t.sgl:4: missing view g_up"},
        {"level 0 view g_up 0\n", "t.sgl:4: missing view g_down"},
        {"level 0 view\n", "t.sgl:4: missing view g_down"},
        {"level 0 view g_down 0 g_up nan\n", "t.sgl:4: view g_up is not a "
                                             "finite number"},
        {"level 0 view l 1us g 0\n", "t.sgl:4: unknown view parameter 'l'"},
        {"level 0 view g 0 g_up 0\n", "t.sgl:4: view g_up given twice"},
        {"level 0 view g_down x g_up 0\n", "t.sgl:4: "},
        {"level 1 view g 0\n", "t.sgl:4: level 1 does not exist"},
        {"level 0 view g 0\nlevel 0 view g 0\n",
         "t.sgl:5: duplicate 'level 0 view' record"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char file[512];
        snprintf(file, sizeof file, CORE2 "%s" KERNELS, bad[i].rec);
        sgl_machine_t *x = NULL;
        cr_expect_neq(read_text(file, &x), SGL_OK, "%s accepted", bad[i].rec);
        cr_expect_null(x);
        cr_expect_not_null(strstr(sgl_error_last(), bad[i].want),
                           "%s: '%s', expected '%s'", bad[i].rec,
                           sgl_error_last(), bad[i].want);
    }
    sgl_machine_t *m = machine(CORE2 KERNELS);
    cr_expect_eq(sgl_machine_set_level_view(m, 0, -1, 0), SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_level_view(m, 0, 0, INFINITY), SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_level_view(m, 3, 0, 0), SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_level_view(NULL, 0, 0, 0), SGL_EINVAL);
    double gd, gu;
    cr_expect_eq(sgl_machine_level_view(m, 0, NULL, &gu), SGL_EINVAL);
    cr_expect_eq(sgl_machine_level_view(m, 0, &gd, &gu), SGL_ERANGE,
                 "a refused set changes nothing");
    sgl_machine_free(m);
}
