/* sgl-probe's fits (tools/probe_fit.c): the weighted line, and a fitted
 * cost below zero clamped to 0 with a warning and a note that a machine
 * file carries and its reader takes back. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sgl/machine.h>

#include "probe_fit.h"

/* What a clamp said on its warning stream. */
struct said {
    char *text;
    size_t len;
    FILE *f;
};

static void listen(struct said *s)
{
    s->text = NULL;
    s->f = open_memstream(&s->text, &s->len);
    cr_assert_not_null(s->f);
}

static const char *heard(struct said *s)
{
    fflush(s->f);
    return s->text;
}

static void stop(struct said *s)
{
    fclose(s->f);
    free(s->text);
}

Test(probe_fit, exact_line)
{
    double x[] = {4, 40, 400, 4000}, t[4];
    for (int i = 0; i < 4; i++)
        t[i] = 2e-6 + 1e-9 * x[i];
    struct probe_fit f = probe_fit_points(x, t, 4, 0, 1e300);
    cr_expect_eq(f.points, 4);
    cr_expect(fabs(f.a - 2e-6) < 1e-15, "a = %g", f.a);
    cr_expect(fabs(f.b - 1e-9) < 1e-18, "b = %g", f.b);
    cr_expect(f.r2 > 0.999999, "R^2 = %g", f.r2);
    /* The range picks the points: one point is no line. */
    cr_expect_eq(probe_fit_points(x, t, 4, 100, 1000).points, 1);
}

/* Times that fall with size, as noise on a fast level can make them:
 * the fitted slope is negative. */
Test(probe_fit, falling_points_fit_negative)
{
    double x[] = {4, 40, 400}, t[] = {3e-6, 2.9e-6, 2.5e-6};
    struct probe_fit f = probe_fit_points(x, t, 3, 0, 1e300);
    cr_expect(f.b < 0, "b = %g", f.b);
}

Test(probe_fit, positive_kept_silently)
{
    struct probe_clamps c = {0};
    struct said s;
    listen(&s);
    cr_expect_eq(probe_clamp(&c, s.f, 0, "l", 2.5e-6, PROBE_SECONDS), 2.5e-6);
    cr_expect_eq(probe_clamp(&c, s.f, 0, "g_up", 0, PROBE_SECONDS_PER_BYTE),
                 0);
    cr_expect_str_empty(heard(&s));
    cr_expect_eq(c.count, 0);
    cr_expect_str_empty(c.note);
    stop(&s);
}

Test(probe_fit, negative_clamped_warned_noted)
{
    struct probe_clamps c = {0};
    struct said s;
    listen(&s);
    cr_expect_eq(probe_clamp(&c, s.f, 1, "l", -0.766e-6, PROBE_SECONDS), 0);
    cr_expect_eq(probe_clamp(&c, s.f, 0, "g_down", -0.1061e-9,
                             PROBE_SECONDS_PER_BYTE),
                 0);
    cr_expect_str_eq(heard(&s),
                     "sgl-probe: warning: level 1: the fitted l came out "
                     "negative (-0.766 us); clamped to 0\n"
                     "sgl-probe: warning: level 0: the fitted g_down came "
                     "out negative (-0.1061 ns/B); clamped to 0\n");
    cr_expect_eq(c.count, 2);
    cr_expect_str_eq(c.note, "sgl-probe clamped negative fits to 0: level 1 "
                             "l -0.766 us, level 0 g_down -0.1061 ns/B");
    stop(&s);
}

/* A note too long for its buffer ends in "..." and stays a string. */
Test(probe_fit, many_clamps_end_in_ellipsis)
{
    struct probe_clamps c = {0};
    FILE *null = fopen("/dev/null", "w");
    cr_assert_not_null(null);
    for (unsigned l = 0; l < 200; l++)
        probe_clamp(&c, null, l, "exchange g", -1e-9, PROBE_SECONDS_PER_BYTE);
    fclose(null);
    cr_expect_eq(c.count, 200);
    size_t n = strlen(c.note);
    cr_expect_eq(n, sizeof c.note - 1);
    cr_expect_str_eq(c.note + n - 3, "...");
}

/* The note goes into the machine file as provenance; the reader takes
 * the file back with the note and the clamped zeros. */
Test(probe_fit, note_survives_the_machine_file)
{
    struct probe_clamps c = {0};
    FILE *null = fopen("/dev/null", "w");
    cr_assert_not_null(null);
    sgl_link_params_t p = {probe_clamp(&c, null, 0, "l", -1e-6, PROBE_SECONDS),
                           2e-10,
                           probe_clamp(&c, null, 0, "g_up", -3e-11,
                                       PROBE_SECONDS_PER_BYTE)};
    fclose(null);
    sgl_machine_t *m = NULL;
    cr_assert_eq(sgl_machine_from_shape("core:2", NULL, &m), SGL_OK);
    cr_assert_eq(sgl_machine_set_level_params(m, 0, &p), SGL_OK, "%s",
                 sgl_error_last());
    cr_assert_eq(sgl_machine_set_provenance(m, "note", c.note), SGL_OK);
    char path[] = "/tmp/sgl-probe-fit-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(sgl_machine_save(m, path), SGL_OK, "%s", sgl_error_last());
    sgl_machine_free(m);
    sgl_machine_t *back = NULL;
    int rc = sgl_machine_load(path, &back);
    unlink(path);
    cr_assert_eq(rc, SGL_OK, "%s", sgl_error_last());
    cr_expect_str_eq(sgl_machine_provenance(back, "note"), c.note);
    sgl_link_params_t r;
    cr_assert_eq(sgl_machine_level_params(back, 0, &r), SGL_OK);
    cr_expect_eq(r.l, 0);
    cr_expect_eq(r.g_down, 2e-10);
    cr_expect_eq(r.g_up, 0);
    sgl_machine_free(back);
}

/* The median's interval: order statistics that hold the median with at
 * least 95% (binomial, p = 1/2), the extremes for 5 trials or fewer. */
Test(probe_fit, median_interval)
{
    double v[21];
    for (int i = 0; i < 21; i++)
        v[i] = i + 1;
    static const int n[] = {1, 5, 6, 11, 21};
    static const double lo[] = {1, 1, 1, 2, 6}, hi[] = {1, 5, 6, 10, 16};
    for (size_t i = 0; i < sizeof n / sizeof *n; i++) {
        double a, b;
        probe_median_interval(v, n[i], &a, &b);
        cr_expect_eq(a, lo[i], "n %d: low %g, expected %g", n[i], a, lo[i]);
        cr_expect_eq(b, hi[i], "n %d: high %g, expected %g", n[i], b, hi[i]);
    }
}

/* The bootstrap interval of a fit holds the fit; points exactly on a line
 * give an interval of no width, noisy ones a wider one; fewer than 3
 * points leave the interval at the fit. */
Test(probe_fit, fit_interval)
{
    double x[] = {4, 40, 400, 4000, 40000, 400000};
    double exact[6], noisy[6];
    static const double wobble[] = {1.08, 0.93, 1.05, 0.9, 1.1, 0.96};
    for (int i = 0; i < 6; i++) {
        exact[i] = 1e-6 + 1e-10 * x[i];
        noisy[i] = exact[i] * wobble[i];
    }
    struct probe_fit f = probe_fit_points(x, exact, 6, 0, 1e300);
    probe_fit_interval(x, exact, 6, 0, 1e300, &f);
    cr_expect(fabs(f.a_hi - f.a_lo) <= 1e-9 * f.a, "exact a [%g, %g]",
              f.a_lo, f.a_hi);
    cr_expect(fabs(f.b_hi - f.b_lo) <= 1e-9 * f.b, "exact b [%g, %g]",
              f.b_lo, f.b_hi);
    struct probe_fit g = probe_fit_points(x, noisy, 6, 0, 1e300);
    probe_fit_interval(x, noisy, 6, 0, 1e300, &g);
    cr_expect(g.a_lo <= g.a && g.a <= g.a_hi && g.b_lo <= g.b &&
                  g.b <= g.b_hi,
              "the fit outside its interval");
    cr_expect(g.b_hi - g.b_lo > 0.01 * g.b, "noisy b [%g, %g] too narrow",
              g.b_lo, g.b_hi);
    /* Deterministic: the same points, the same interval. */
    struct probe_fit h = probe_fit_points(x, noisy, 6, 0, 1e300);
    probe_fit_interval(x, noisy, 6, 0, 1e300, &h);
    cr_expect(h.b_lo == g.b_lo && h.b_hi == g.b_hi, "not repeatable");
    struct probe_fit two = probe_fit_points(x, noisy, 2, 0, 1e300);
    probe_fit_interval(x, noisy, 2, 0, 1e300, &two);
    cr_expect(two.a_lo == two.a && two.a_hi == two.a && two.b_lo == two.b &&
                  two.b_hi == two.b,
              "an interval from 2 points");
}

/* A printed fit's negative value is said on the output and kept in the
 * note with the clamps: sgl-probe printed "l -2754.880 us" silently. */
Test(probe_fit, negative_printed_fit_is_warned_and_noted)
{
    struct probe_clamps c = {0};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    cr_expect_eq(probe_note_negative(&c, f, 1, "exchange, large regime l",
                                     -2754.88e-6, PROBE_SECONDS), 1);
    cr_expect_eq(probe_note_negative(&c, f, 1, "exchange, large regime g",
                                     0.5e-9, PROBE_SECONDS_PER_BYTE), 0);
    fclose(f);
    cr_expect(strstr(buf, "warning: the exchange, large regime l fitted "
                          "negative (-2755 us)"), "%s", buf);
    cr_expect_eq(c.count, 1);
    cr_expect(strstr(c.note, "level 1 exchange, large regime l -2755 us"),
              "%s", c.note);
    free(buf);
}

/* The kernels' c is the median of its trials (the mean of the middle two
 * for even n), so that it prices what the sweep's medians measure, with
 * the median's interval of order statistics; a quarter of trials slowed
 * by a busy neighbour, however much, moves it by at most one rank; no
 * trials is refused. */
Test(probe_fit, median)
{
    double v[21];
    for (int i = 0; i < 21; i++)
        v[i] = i + 1;
    static const int n[] = {1, 4, 5, 12, 13, 21};
    static const double c[] = {1, 2.5, 3, 6.5, 7, 11};
    static const double lo[] = {1, 1, 1, 3, 3, 6}, hi[] = {1, 4, 5, 10, 11, 16};
    for (size_t i = 0; i < sizeof n / sizeof *n; i++) {
        double q, a, b;
        cr_assert_eq(probe_median(v, n[i], &q, &a, &b), 0);
        cr_expect_eq(q, c[i], "n %d: median %g, expected %g", n[i], q, c[i]);
        cr_expect_eq(a, lo[i], "n %d: low %g, expected %g", n[i], a, lo[i]);
        cr_expect_eq(b, hi[i], "n %d: high %g, expected %g", n[i], b, hi[i]);
    }
    /* 12 trials, the slowest 3 spoiled 10x: the median holds. */
    double w[12];
    for (int i = 0; i < 12; i++)
        w[i] = i < 9 ? 0.30 : 3.0;
    double q, a, b;
    probe_median(w, 12, &q, &a, &b);
    cr_expect_eq(q, 0.30, "median %g with 3 of 12 trials slowed", q);
    cr_expect_eq(probe_median(w, 0, &q, &a, &b), -1);
}
