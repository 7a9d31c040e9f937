/* sgl-probe's fits (bench/probe_fit.c): the weighted line, and a fitted
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
                 sgl_last_error());
    cr_assert_eq(sgl_machine_set_provenance(m, "note", c.note), SGL_OK);
    char path[] = "/tmp/sgl-probe-fit-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(sgl_machine_save(m, path), SGL_OK, "%s", sgl_last_error());
    sgl_machine_free(m);
    sgl_machine_t *back = NULL;
    int rc = sgl_machine_load(path, &back);
    unlink(path);
    cr_assert_eq(rc, SGL_OK, "%s", sgl_last_error());
    cr_expect_str_eq(sgl_machine_provenance(back, "note"), c.note);
    sgl_link_params_t r;
    cr_assert_eq(sgl_machine_level_params(back, 0, &r), SGL_OK);
    cr_expect_eq(r.l, 0);
    cr_expect_eq(r.g_down, 2e-10);
    cr_expect_eq(r.g_up, 0);
    sgl_machine_free(back);
}
