/* Cost parameters on the tree and machine files: setters and their
 * errors, exact round trips, and every malformed file with its line. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <sgl/machine.h>

static sgl_machine_t *shape(const char *s)
{
    sgl_machine_t *m = NULL;
    cr_assert_eq(sgl_machine_from_shape(s, NULL, &m), SGL_OK, "%s: %s", s,
                 sgl_error_last());
    return m;
}

static void assert_params_eq(const sgl_link_params_t *a,
                             const sgl_link_params_t *b)
{
    cr_expect_eq(a->l, b->l, "l %.17g != %.17g", a->l, b->l);
    cr_expect_eq(a->g_down, b->g_down, "g_down %.17g != %.17g", a->g_down,
                 b->g_down);
    cr_expect_eq(a->g_up, b->g_up, "g_up %.17g != %.17g", a->g_up, b->g_up);
}

Test(params, level_and_node)
{
    sgl_machine_t *m = shape("rank:2 core:[3,5]");
    sgl_link_params_t p0 = {2.3e-5, 1.2e-9, 1.3e-9}, p1 = {1e-6, 1e-10, 2e-10};
    sgl_link_params_t r;
    cr_expect_eq(sgl_machine_level_params(m, 0, &r), SGL_ERANGE);
    cr_expect_eq(sgl_node_params(sgl_machine_root(m), &r), SGL_ERANGE);
    cr_assert_eq(sgl_machine_set_level_params(m, 0, &p0), SGL_OK);
    cr_assert_eq(sgl_machine_set_level_params(m, 1, &p1), SGL_OK);
    /* Level 2 holds only workers, level 7 does not exist. */
    cr_expect_eq(sgl_machine_set_level_params(m, 2, &p1), SGL_EINVAL);
    cr_expect(strstr(sgl_error_last(), "level 2 has no masters"));
    cr_expect_eq(sgl_machine_set_level_params(m, 7, &p1), SGL_EINVAL);
    cr_assert_eq(sgl_machine_level_params(m, 1, &r), SGL_OK);
    assert_params_eq(&r, &p1);
    const sgl_node_t *n1 = sgl_machine_master(m, 1, 1);
    cr_assert_not_null(n1);
    cr_expect_eq(sgl_node_arity(n1), 5);
    cr_expect_eq(sgl_node_master_index(n1), 1);
    cr_expect_null(sgl_machine_master(m, 1, 2));
    cr_assert_eq(sgl_node_params(n1, &r), SGL_OK);
    assert_params_eq(&r, &p1);
    sgl_link_params_t fast = {5e-7, 5e-11, 5e-11};
    cr_assert_eq(sgl_machine_set_node_params(m, n1, &fast), SGL_OK);
    cr_assert_eq(sgl_node_params(n1, &r), SGL_OK);
    assert_params_eq(&r, &fast);
    cr_assert_eq(sgl_node_params(sgl_machine_master(m, 1, 0), &r), SGL_OK);
    assert_params_eq(&r, &p1);
    cr_expect_eq(sgl_node_params(sgl_machine_worker(m, 0), &r), SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_node_params(m, sgl_machine_worker(m, 0),
                                             &fast),
                 SGL_EINVAL);
    /* A node of another tree is refused. */
    sgl_machine_t *other = shape("core:2");
    cr_expect_eq(sgl_machine_set_node_params(m, sgl_machine_root(other),
                                             &fast),
                 SGL_EINVAL);
    sgl_machine_free(other);
    sgl_machine_free(m);
}

Test(params, bad_values_change_nothing)
{
    sgl_machine_t *m = shape("core:4");
    sgl_link_params_t ok = {1e-6, 1e-10, 1e-10}, r;
    cr_assert_eq(sgl_machine_set_level_params(m, 0, &ok), SGL_OK);
    sgl_link_params_t bad[] = {{-1, 0, 0}, {0, -1e-9, 0}, {0, 0, NAN},
                               {INFINITY, 0, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect_eq(sgl_machine_set_level_params(m, 0, &bad[i]), SGL_EINVAL,
                     "case %zu", i);
        cr_expect_eq(sgl_machine_set_node_params(m, sgl_machine_root(m),
                                                 &bad[i]),
                     SGL_EINVAL, "case %zu", i);
    }
    cr_expect(strstr(sgl_error_last(), "l is not finite"));
    cr_assert_eq(sgl_machine_level_params(m, 0, &r), SGL_OK);
    assert_params_eq(&r, &ok);
    cr_expect_eq(sgl_machine_set_level_small_params(m, 0, &ok, 0), SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_kernel(m, "sum", -1), SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_kernel(m, "bad name", 1), SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_kernel(m, "", 1), SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_worker_kernel(m, 4, "sum", 1), SGL_EINVAL);
    cr_expect_eq(sgl_machine_kernels(m), 0, "failed calls added a kernel");
    sgl_machine_free(m);
}

/* Exchange parameters: set per level, or guessed from the link's (l,
 * the slower of g_down and g_up) and flagged as a guess. */
Test(params, exchange)
{
    sgl_machine_t *m = shape("rank:2 core:[3,5]");
    sgl_exchange_params_t x = {4e-6, 5e-10}, r;
    int measured = -1;
    const sgl_node_t *root = sgl_machine_root(m);
    const sgl_node_t *n1 = sgl_machine_master(m, 1, 1);
    /* Nothing set at all: no guess either. */
    cr_expect_eq(sgl_machine_level_exchange(m, 0, &r), SGL_ERANGE);
    cr_expect_eq(sgl_node_exchange_params(root, &r, &measured), SGL_ERANGE);
    cr_expect(strstr(sgl_error_last(), "level 0"), "%s", sgl_error_last());
    sgl_link_params_t p0 = {2e-5, 1e-9, 3e-9}, p1 = {1e-6, 2e-10, 1e-10};
    cr_assert_eq(sgl_machine_set_level_params(m, 0, &p0), SGL_OK);
    cr_assert_eq(sgl_machine_set_level_params(m, 1, &p1), SGL_OK);
    cr_assert_eq(sgl_node_exchange_params(root, &r, &measured), SGL_OK);
    cr_expect_eq(r.l, 2e-5);
    cr_expect_eq(r.g, 3e-9, "the slower direction: g_up");
    cr_expect_eq(measured, 0);
    cr_assert_eq(sgl_node_exchange_params(n1, &r, NULL), SGL_OK);
    cr_expect_eq(r.g, 2e-10, "the slower direction: g_down");
    /* A master's own link override feeds its guess. */
    sgl_link_params_t fast = {5e-7, 5e-11, 7e-11};
    cr_assert_eq(sgl_machine_set_node_params(m, n1, &fast), SGL_OK);
    cr_assert_eq(sgl_node_exchange_params(n1, &r, NULL), SGL_OK);
    cr_expect_eq(r.l, 5e-7);
    cr_expect_eq(r.g, 7e-11);
    /* Set: the level's values, measured, for every master of the level. */
    cr_assert_eq(sgl_machine_set_level_exchange(m, 1, &x), SGL_OK);
    cr_assert_eq(sgl_machine_level_exchange(m, 1, &r), SGL_OK);
    cr_expect_eq(r.l, x.l);
    cr_expect_eq(r.g, x.g);
    for (size_t i = 0; i < 2; i++) {
        measured = 0;
        cr_assert_eq(sgl_node_exchange_params(sgl_machine_master(m, 1, i), &r,
                                              &measured),
                     SGL_OK);
        cr_expect_eq(r.g, x.g, "master %zu", i);
        cr_expect_eq(measured, 1);
    }
    cr_expect_eq(sgl_machine_level_exchange(m, 0, &r), SGL_ERANGE);
    /* Errors change nothing. */
    sgl_exchange_params_t bad[] = {{-1, 0}, {0, -1e-9}, {NAN, 0},
                                   {0, INFINITY}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_expect_eq(sgl_machine_set_level_exchange(m, 1, &bad[i]),
                     SGL_EINVAL, "case %zu", i);
    cr_expect(strstr(sgl_error_last(), "g is not finite"), "%s",
              sgl_error_last());
    cr_expect_eq(sgl_machine_set_level_exchange(m, 2, &x), SGL_EINVAL);
    cr_expect(strstr(sgl_error_last(), "level 2 has no masters"));
    cr_expect_eq(sgl_machine_set_level_exchange(m, 1, NULL), SGL_EINVAL);
    cr_assert_eq(sgl_machine_level_exchange(m, 1, &r), SGL_OK);
    cr_expect_eq(r.l, x.l);
    cr_expect_eq(sgl_node_exchange_params(sgl_machine_worker(m, 0), &r, NULL),
                 SGL_EINVAL);
    cr_expect_eq(sgl_node_exchange_params(NULL, &r, NULL), SGL_EINVAL);
    sgl_machine_free(m);
}

/* Speeds from per-worker c: 1 / c relative to the fastest per kernel,
 * the geometric mean over kernels for NULL, all 1 without per-worker c. */
Test(params, worker_speeds)
{
    sgl_machine_t *m = shape("core:3");
    double s[3];
    cr_assert_eq(sgl_machine_worker_speeds(m, NULL, s), SGL_OK);
    for (int w = 0; w < 3; w++)
        cr_expect_eq(s[w], 1, "no per-worker c: worker %d at %g", w, s[w]);
    cr_assert_eq(sgl_machine_set_kernel(m, "sum", 1e-9), SGL_OK);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 1, "sum", 2e-9), SGL_OK);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 2, "sum", 4e-9), SGL_OK);
    cr_assert_eq(sgl_machine_worker_speeds(m, "sum", s), SGL_OK);
    cr_expect(fabs(s[0] - 1) < 1e-12 && fabs(s[1] - 0.5) < 1e-12 &&
                  fabs(s[2] - 0.25) < 1e-12,
              "sum: %g %g %g", s[0], s[1], s[2]);
    /* sort: worker 0 twice as slow as the others. */
    for (int w = 0; w < 3; w++)
        cr_assert_eq(sgl_machine_set_worker_kernel(m, (size_t)w, "sort",
                                                   w ? 1e-8 : 2e-8),
                     SGL_OK);
    cr_assert_eq(sgl_machine_worker_speeds(m, NULL, s), SGL_OK);
    /* sqrt(1 * 0.5), sqrt(0.5 * 1), sqrt(0.25 * 1), over the largest. */
    double top = sqrt(0.5);
    cr_expect(fabs(s[0] - sqrt(0.5) / top) < 1e-12 &&
                  fabs(s[1] - sqrt(0.5) / top) < 1e-12 &&
                  fabs(s[2] - sqrt(0.25) / top) < 1e-12,
              "overall: %g %g %g", s[0], s[1], s[2]);
    cr_assert_eq(sgl_machine_worker_speeds(m, "scan", s), SGL_OK);
    cr_expect(s[0] == 1 && s[1] == 1 && s[2] == 1, "unknown kernel");
    cr_expect_eq(sgl_machine_worker_speeds(NULL, NULL, s), SGL_EINVAL);
    cr_expect_eq(sgl_machine_worker_speeds(m, NULL, NULL), SGL_EINVAL);
    sgl_machine_free(m);
}

Test(params, kernels)
{
    sgl_machine_t *m = shape("rank:2 core:[1,2]");
    cr_expect(isnan(sgl_node_kernel(sgl_machine_worker(m, 0), "sum")));
    cr_assert_eq(sgl_machine_set_kernel(m, "sum", 1e-9), SGL_OK);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 2, "sum", 3e-9), SGL_OK);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 1, "sort", 5e-9), SGL_OK);
    cr_expect_eq(sgl_node_kernel(sgl_machine_worker(m, 0), "sum"), 1e-9);
    cr_expect_eq(sgl_node_kernel(sgl_machine_worker(m, 2), "sum"), 3e-9);
    cr_expect_eq(sgl_node_kernel(sgl_machine_worker(m, 1), "sort"), 5e-9);
    cr_expect(isnan(sgl_node_kernel(sgl_machine_worker(m, 0), "sort")));
    /* A master works at the speed of its first worker. */
    cr_expect_eq(sgl_node_kernel(sgl_machine_master(m, 1, 0), "sort"), 5e-9);
    cr_expect_eq(sgl_machine_kernels(m), 2);
    cr_expect_str_eq(sgl_machine_kernel_name(m, 1), "sort");
    /* Setting all workers replaces the per-worker values. */
    cr_assert_eq(sgl_machine_set_kernel(m, "sum", 2e-9), SGL_OK);
    cr_expect_eq(sgl_node_kernel(sgl_machine_worker(m, 2), "sum"), 2e-9);
    sgl_machine_free(m);
}

Test(params, provenance)
{
    sgl_machine_t *m = shape("core:2");
    cr_assert_eq(sgl_machine_set_provenance(m, "host", "a"), SGL_OK);
    cr_assert_eq(sgl_machine_set_provenance(m, "date", "2026"), SGL_OK);
    cr_assert_eq(sgl_machine_set_provenance(m, "host", "b"), SGL_OK);
    cr_expect_str_eq(sgl_machine_provenance(m, "host"), "b");
    cr_expect_eq(sgl_machine_provenance_count(m), 2);
    cr_expect_str_eq(sgl_machine_provenance_key(m, 0), "host");
    cr_expect_eq(sgl_machine_set_provenance(m, "bad key", "x"), SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_provenance(m, "k", "two\nlines"),
                 SGL_EINVAL);
    cr_assert_eq(sgl_machine_set_provenance(m, "host", NULL), SGL_OK);
    cr_expect_null(sgl_machine_provenance(m, "host"));
    cr_expect_eq(sgl_machine_provenance_count(m), 1);
    sgl_machine_free(m);
}

/* ---- machine files ---- */

static char *write_string(const sgl_machine_t *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    cr_assert_eq(sgl_machine_write(m, f), SGL_OK, "%s", sgl_error_last());
    fclose(f);
    return text;
}

static int read_string(const char *text, size_t len, sgl_machine_t **ret)
{
    FILE *f = fmemopen((void *)text, len, "r");
    cr_assert_not_null(f);
    int rc = sgl_machine_read(f, "t.sgl", ret);
    fclose(f);
    return rc;
}

/* An awkward machine: heterogeneous fan-out, awkward doubles, overrides,
 * a small-message regime, per-worker kernels and quoted provenance. */
static sgl_machine_t *awkward(void)
{
    sgl_machine_t *m = shape("rack:2 rank:[2,3] core:[3,2,2,4,2]");
    sgl_link_params_t p0 = {1.0 / 3, 0.1 + 0.2, 5e-324};
    sgl_link_params_t p1 = {2.3e-5, 1.2e-9, 1.3000000000000001e-9};
    sgl_link_params_t p2 = {1e-6, 1e-10, 0};
    sgl_link_params_t small = {1e-7, 3e-9, 4e-9};
    cr_assert_eq(sgl_machine_set_level_params(m, 0, &p0), SGL_OK);
    cr_assert_eq(sgl_machine_set_level_params(m, 1, &p1), SGL_OK);
    cr_assert_eq(sgl_machine_set_level_params(m, 2, &p2), SGL_OK);
    cr_assert_eq(sgl_machine_set_level_small_params(m, 1, &small, 4096),
                 SGL_OK);
    sgl_exchange_params_t x0 = {0.1 * 3, 1.0 / 7}, x2 = {0, 5e-324};
    cr_assert_eq(sgl_machine_set_level_exchange(m, 0, &x0), SGL_OK);
    cr_assert_eq(sgl_machine_set_level_exchange(m, 2, &x2), SGL_OK);
    sgl_link_params_t over = {M_PI * 1e-6, M_E * 1e-10, 1.7976931348623157e308};
    cr_assert_eq(sgl_machine_set_node_params(m, sgl_machine_master(m, 2, 1),
                                             &over),
                 SGL_OK);
    cr_assert_eq(sgl_machine_set_kernel(m, "sum", 3.53e-10), SGL_OK);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 5, "sum", 7e-10), SGL_OK);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 3, "sort", 0.1 * 3),
                 SGL_OK);
    cr_assert_eq(sgl_machine_set_provenance(m, "host", "vm \"one\" \\ #x"),
                 SGL_OK);
    cr_assert_eq(sgl_machine_set_provenance(m, "method", ""), SGL_OK);
    return m;
}

static void assert_same(const sgl_machine_t *a, const sgl_machine_t *b)
{
    cr_assert_str_eq(sgl_machine_shape(a), sgl_machine_shape(b));
    cr_assert_eq(sgl_machine_workers(a), sgl_machine_workers(b));
    for (unsigned l = 0; l <= sgl_machine_depth(a); l++) {
        sgl_link_params_t pa, pb;
        double ma, mb;
        int ra = sgl_machine_level_params(a, l, &pa);
        cr_expect_eq(ra, sgl_machine_level_params(b, l, &pb), "level %u", l);
        if (ra == SGL_OK)
            assert_params_eq(&pa, &pb);
        ra = sgl_machine_level_small_params(a, l, &pa, &ma);
        cr_expect_eq(ra, sgl_machine_level_small_params(b, l, &pb, &mb));
        if (ra == SGL_OK) {
            assert_params_eq(&pa, &pb);
            cr_expect_eq(ma, mb);
        }
        sgl_exchange_params_t xa, xb;
        ra = sgl_machine_level_exchange(a, l, &xa);
        cr_expect_eq(ra, sgl_machine_level_exchange(b, l, &xb), "level %u", l);
        if (ra == SGL_OK) {
            cr_expect_eq(xa.l, xb.l, "exchange l %.17g != %.17g", xa.l, xb.l);
            cr_expect_eq(xa.g, xb.g, "exchange g %.17g != %.17g", xa.g, xb.g);
        }
        for (size_t i = 0; i < sgl_machine_level_masters(a, l); i++) {
            ra = sgl_node_params(sgl_machine_master(a, l, i), &pa);
            cr_expect_eq(ra, sgl_node_params(sgl_machine_master(b, l, i), &pb));
            if (ra == SGL_OK)
                assert_params_eq(&pa, &pb);
        }
    }
    cr_assert_eq(sgl_machine_kernels(a), sgl_machine_kernels(b));
    for (size_t k = 0; k < sgl_machine_kernels(a); k++) {
        const char *name = sgl_machine_kernel_name(a, k);
        for (size_t w = 0; w < sgl_machine_workers(a); w++) {
            double ca = sgl_node_kernel(sgl_machine_worker(a, w), name);
            double cb = sgl_node_kernel(sgl_machine_worker(b, w), name);
            cr_expect(ca == cb || (isnan(ca) && isnan(cb)),
                      "kernel %s worker %zu: %.17g != %.17g", name, w, ca, cb);
        }
    }
    cr_assert_eq(sgl_machine_provenance_count(a),
                 sgl_machine_provenance_count(b));
    for (size_t i = 0; i < sgl_machine_provenance_count(a); i++) {
        const char *k = sgl_machine_provenance_key(a, i);
        cr_expect_str_eq(sgl_machine_provenance(a, k),
                         sgl_machine_provenance(b, k));
    }
}

Test(machine_file, round_trip_exact)
{
    sgl_machine_t *m = awkward();
    char *text = write_string(m);
    sgl_machine_t *back = NULL;
    cr_assert_eq(read_string(text, strlen(text), &back), SGL_OK, "%s\n%s",
                 sgl_error_last(), text);
    assert_same(m, back);
    char *again = write_string(back);
    cr_expect_str_eq(again, text);
    free(again);
    free(text);
    sgl_machine_free(back);
    sgl_machine_free(m);
}

Test(machine_file, round_trip_through_a_file)
{
    sgl_machine_t *m = awkward();
    char path[] = "/tmp/sgl-machine-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    cr_assert_eq(sgl_machine_save(m, path), SGL_OK, "%s", sgl_error_last());
    sgl_machine_t *back = NULL;
    cr_assert_eq(sgl_machine_load(path, &back), SGL_OK, "%s",
                 sgl_error_last());
    assert_same(m, back);
    cr_expect(strstr(sgl_machine_source(back), path));
    remove(path);
    sgl_machine_free(back);
    sgl_machine_free(m);
}

Test(machine_file, shapes_that_need_care)
{
    /* Collapsed and kept single levels, one worker, cores over MPI. */
    const char *cases[][2] = {
        {"core:1", "core:1"},
        {"rank:1 core:4", "core:4"},
        {"rack:2 rank:1 core:2", "rank:2 core:2"},
        {"rank:2 core:1", "rank:2"},
        {"rack:2 rank:[2,3] core:[3,2,2,4,2]",
         "rack:2 rank:[2,3] core:[3,2,2,4,2]"},
        {"rank:3 core:[1,2,2]", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sgl_machine_t *m = shape(cases[i][0]);
        for (unsigned l = 0; l < sgl_machine_depth(m); l++) {
            sgl_link_params_t p = {1e-6 * (l + 1), 1e-9, 2e-9};
            if (sgl_machine_level_masters(m, l))
                cr_assert_eq(sgl_machine_set_level_params(m, l, &p), SGL_OK);
        }
        if (cases[i][1])
            cr_expect_str_eq(sgl_machine_shape(m), cases[i][1]);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        int rc = sgl_machine_write(m, f);
        fclose(f);
        if (!sgl_machine_shape(m)) {
            /* Leaves at different depths: no shape string. */
            cr_expect_eq(rc, SGL_EINVAL, "%s", cases[i][0]);
        } else {
            cr_assert_eq(rc, SGL_OK);
            sgl_machine_t *back = NULL;
            cr_assert_eq(read_string(text, len, &back), SGL_OK, "%s: %s\n%s",
                         cases[i][0], sgl_error_last(), text);
            assert_same(m, back);
            cr_expect_eq(sgl_machine_depth(back), sgl_machine_depth(m));
            cr_expect_eq(sgl_machine_processes(back), sgl_machine_processes(m),
                         "%s", cases[i][0]);
            sgl_machine_free(back);
        }
        free(text);
        sgl_machine_free(m);
    }
}

Test(machine_file, units_and_comments)
{
    static const char text[] =
        "# comment\n"
        "\n"
        "sgl-machine 1   # trailing comment\n"
        "shape rank:2 core:4\n"
        "provenance method sgl-probe 0.1 # not part of the value\n"
        "level 0 link mpi p 2 l 23us g 4.8ns/word\n"
        "level 1 l 1e-6 g_up 0.5ns/B g_down 2ps\n"
        "level 0 small max_bytes 256word l 2us g 1ns/byte\n"
        "level 0 exchange g 2.09ns/word l 5.96us  # g before l\n"
        "level 1 exchange l 0 g 0.5ns/B\n"
        "kernel sum 0.353ns\n"
        "kernel scan 1e-9 worker 7\n"
        "end";
    sgl_machine_t *m = NULL;
    cr_assert_eq(read_string(text, sizeof text - 1, &m), SGL_OK, "%s",
                 sgl_error_last());
    sgl_link_params_t p;
    double max;
    cr_assert_eq(sgl_machine_level_params(m, 0, &p), SGL_OK);
    cr_expect_eq(p.l, 23e-6);
    cr_expect_eq(p.g_down, 4.8e-9 / 4);
    cr_expect_eq(p.g_up, 4.8e-9 / 4);
    cr_assert_eq(sgl_machine_level_params(m, 1, &p), SGL_OK);
    cr_expect_eq(p.g_up, 0.5e-9);
    cr_expect_eq(p.g_down, 2e-12);
    cr_assert_eq(sgl_machine_level_small_params(m, 0, &p, &max), SGL_OK);
    cr_expect_eq(max, 1024);
    cr_expect_eq(p.g_up, 1e-9);
    sgl_exchange_params_t x;
    cr_assert_eq(sgl_machine_level_exchange(m, 0, &x), SGL_OK);
    cr_expect_eq(x.l, 5.96e-6);
    cr_expect_eq(x.g, 2.09e-9 / 4);
    cr_assert_eq(sgl_machine_level_exchange(m, 1, &x), SGL_OK);
    cr_expect_eq(x.l, 0);
    cr_expect_eq(x.g, 0.5e-9);
    cr_expect_eq(sgl_node_kernel(sgl_machine_worker(m, 3), "sum"), 0.353e-9);
    cr_expect_eq(sgl_node_kernel(sgl_machine_worker(m, 7), "scan"), 1e-9);
    cr_expect(isnan(sgl_node_kernel(sgl_machine_worker(m, 6), "scan")));
    cr_expect_str_eq(sgl_machine_provenance(m, "method"), "sgl-probe 0.1");
    sgl_machine_free(m);
}

/* A valid file, one line per entry, that the bad cases below edit. */
#define HEAD "sgl-machine 1\nshape rank:2 core:4\n"
#define L0 "level 0 link mpi l 2e-5 g_down 1e-9 g_up 1e-9\n"
#define L1 "level 1 link threads l 1e-6 g_down 1e-10 g_up 1e-10\n"

struct bad {
    const char *name;
    const char *text;
    size_t len; /* 0: strlen */
    const char *want;
};

static const struct bad bad_files[] = {
    {"negative g_down", HEAD L0 "level 1 l 1e-6 g_down -1e-9 g_up 0\nend\n",
     0, "t.sgl:4: negative g_down (-1e-9)"},
    {"nan g_up", HEAD L0 "level 1 l 1e-6 g_down 0 g_up nan\nend\n", 0,
     "t.sgl:4: g_up is not a finite number (nan)"},
    {"inf l", HEAD "level 0 l inf g 0\n", 0, "t.sgl:3: l is not a finite"},
    {"missing level", HEAD L0 "kernel sum 1e-9\nend\n", 0,
     "t.sgl:5: missing level 1"},
    {"level does not exist", HEAD L0 L1 "level 2 l 1 g 1\nend\n", 0,
     "t.sgl:5: level 2 does not exist (the shape has masters at levels "
     "0..1)"},
    {"wrong fan-out", HEAD "level 0 link mpi p 4 l 1 g 1\n", 0,
     "t.sgl:3: wrong fan-out: level 0 has p 4, but the shape gives master 0 "
     "of that level 2 children"},
    {"wrong link", HEAD "level 0 link threads l 1 g 1\n", 0,
     "t.sgl:3: level 0 has link threads, but the shape gives master 0 of "
     "that level a mpi link"},
    {"truncated, no end", HEAD L0 L1 "kernel sum 1e-9\n", 0,
     "t.sgl:5: end of file without the 'end' record: the file is truncated"},
    {"truncated mid-record", HEAD L0 "level 1 link threads l 1e-6 g_do", 0,
     "t.sgl:4: unknown parameter 'g_do'"},
    {"truncated before the value", HEAD L0 "level 1 l 1e-6 g_down", 0,
     "t.sgl:4: missing value of g_down"},
    {"binary junk", HEAD "\x7f" "ELF\x02\x01\x01\0\0\0\n",
     sizeof(HEAD "\x7f" "ELF\x02\x01\x01\0\0\0\n") - 1,
     "t.sgl:3: binary data (byte 0x7f at column 1)"},
    {"NUL byte", HEAD L0 "level 1 l 1\0e-6\n",
     sizeof(HEAD L0 "level 1 l 1\0e-6\n") - 1,
     "t.sgl:4: binary data (byte 0x00 at column 12)"},
    {"unknown keyword", HEAD L0 "levle 1 l 1 g 1\n", 0,
     "t.sgl:4: unknown record 'levle'"},
    {"duplicate level", HEAD L0 L1 "level 0 l 1 g 1\nend\n", 0,
     "t.sgl:5: duplicate level 0"},
    {"duplicate shape", HEAD "shape core:2\n", 0, "t.sgl:3: duplicate shape"},
    {"not a machine file", "hello world\n", 0,
     "t.sgl:1: expected 'sgl-machine 2' as the first record"},
    {"empty", "", 0, "t.sgl:0: empty file"},
    {"version", "sgl-machine 3\n", 0,
     "t.sgl:1: format version 3 is not supported"},
    {"node in format 2", "sgl-machine 2\nshape node:2 core:4\n", 0,
     "t.sgl:2: bad shape \"node:2 core:4\": 'node' is ambiguous"},
    {"level before shape", "sgl-machine 1\n" L0, 0,
     "t.sgl:2: 'level' before the 'shape' record"},
    {"bad shape", "sgl-machine 1\nshape rank:0 core:4\n", 0,
     "t.sgl:2: bad shape \"rank:0 core:4\""},
    {"no shape", "sgl-machine 1\nend\n", 0,
     "t.sgl:2: end of file without a 'shape' record"},
    {"bad unit", HEAD "level 0 l 3parsecs g 1\n", 0,
     "t.sgl:3: bad unit 'parsecs' in the value of l"},
    {"bad number", HEAD "level 0 l fast g 1\n", 0,
     "t.sgl:3: bad value of l 'fast'"},
    {"missing l", HEAD "level 0 g 1\n", 0, "t.sgl:3: missing l"},
    {"parameter twice", HEAD "level 0 l 1 l 2 g 1\n", 0,
     "t.sgl:3: l given twice"},
    {"kernel worker out of range", HEAD L0 L1 "kernel sum 1 worker 8\n", 0,
     "t.sgl:5: worker 8 does not exist (the shape has 8 workers)"},
    {"duplicate kernel", HEAD L0 L1 "kernel sum 1\nkernel sum 2\n", 0,
     "t.sgl:6: duplicate kernel sum"},
    {"negative kernel", HEAD L0 L1 "kernel sum -1e-9\n", 0,
     "t.sgl:5: negative c (-1e-9)"},
    {"master out of range", HEAD L0 L1 "master 1 2 l 1 g 1\n", 0,
     "t.sgl:5: master 2 of level 1 does not exist (the level has 2)"},
    {"unclosed quote", HEAD "provenance host \"vm\n", 0,
     "t.sgl:3: missing closing '\"' in provenance host"},
    {"kernel point n 0", HEAD L0 L1 "kernel sum 1e-9 n 0\n", 0,
     "t.sgl:5: kernel sum: n = 0, expected at least 1"},
    {"kernel point n with a unit", HEAD L0 L1 "kernel sum 1e-9 n 1e4ns\n",
     0, "t.sgl:5: bad unit 'ns' in the value of n (expected a plain number)"},
    {"kernel point busy 0", HEAD L0 L1 "kernel sum 1e-9 n 1e4 busy 0\n", 0,
     "t.sgl:5: kernel sum: busy 0 (expected 1 to"},
    {"kernel point junk", HEAD L0 L1 "kernel sum 1e-9 n 1e4 fast\n", 0,
     "t.sgl:5: unexpected 'fast' after the kernel's n (expected 'busy Q'"},
    {"kernel point twice", HEAD L0 L1
     "kernel sum 1e-9 n 1e4 busy 2\nkernel sum 2e-9 n 10000 busy 2\n", 0,
     "t.sgl:6: duplicate kernel sum point n 10000 busy 2"},
    {"kernel junk after c", HEAD L0 L1 "kernel sum 1e-9 size 4\n", 0,
     "t.sgl:5: unexpected 'size' after the kernel's c (expected 'worker W', "
     "'n N [busy Q]'"},
    {"memory kind", HEAD L0 L1 "level 0 memory some\n", 0,
     "t.sgl:5: expected 'shared' or 'private' after 'level 0 memory'"},
    {"memory twice", HEAD L0 L1
     "level 1 memory shared\nlevel 1 memory private\n", 0,
     "t.sgl:6: duplicate 'level 1 memory' record"},
    {"memory junk", HEAD L0 L1 "level 0 memory shared now\n", 0,
     "t.sgl:5: unexpected 'now' after the memory kind"},
    {"record after end", HEAD L0 L1 "end\nkernel sum 1\n", 0,
     "t.sgl:6: 'kernel' after 'end'"},
    {"exchange negative g", HEAD L0 L1 "level 1 exchange l 1us g -1e-9\n",
     0, "t.sgl:5: negative exchange g (-1e-9)"},
    {"exchange negative l", HEAD L0 L1 "level 0 exchange l -2us g 1ns/B\n",
     0, "t.sgl:5: negative exchange l (-2us)"},
    {"exchange missing value", HEAD L0 L1 "level 0 exchange l 1us g\n", 0,
     "t.sgl:5: missing value of exchange g"},
    {"exchange missing g", HEAD L0 L1 "level 0 exchange l 1us\n", 0,
     "t.sgl:5: missing g of the exchange"},
    {"exchange missing l", HEAD L0 "level 1 exchange g 1ns/word\n", 0,
     "t.sgl:4: missing l of the exchange"},
    {"exchange g_down", HEAD L0 L1 "level 0 exchange l 1 g_down 1\n", 0,
     "t.sgl:5: unknown exchange parameter 'g_down' (expected l or g)"},
    {"exchange at workers", HEAD L0 L1 "level 2 exchange l 1us g 1ns/B\n",
     0, "t.sgl:5: level 2 does not exist (the shape has masters at levels "
        "0..1)"},
    {"exchange twice", HEAD L0 L1
     "level 0 exchange l 1 g 1\nlevel 0 exchange l 2 g 2\n", 0,
     "t.sgl:6: duplicate 'level 0 exchange' record"},
    {"exchange g twice", HEAD L0 L1 "level 0 exchange g 1 l 1 g 2\n", 0,
     "t.sgl:5: g given twice"},
    {"exchange is not the level", HEAD L0 "level 1 exchange l 1 g 1\nend\n",
     0, "t.sgl:5: missing level 1"},
};

/* Many records: 1e5 provenance keys, 1e5 kernel names and a size table
 * of 1e5 points (given out of order) all read back, and a duplicate
 * among them is still found with its line. */
Test(machine_file, many_records, .timeout = 120)
{
    enum { N = 100000 };
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    fprintf(f, "sgl-machine 1\nshape rank:2 core:2\n"
               "level 0 link mpi p 2 l 1us g_down 1ns g_up 1ns\n"
               "level 1 link threads p 2 l 1us g_down 1ns g_up 1ns\n");
    for (int i = 0; i < N; i++)
        fprintf(f, "provenance k%d \"v%d\"\nkernel c%d %dns\n"
                   "kernel t 1ns n %d\n",
                i, i, i, i + 1, (i * 7919) % N + 1);
    fprintf(f, "end\n");
    fclose(f);
    sgl_machine_t *m = NULL;
    cr_assert_eq(read_string(text, len, &m), SGL_OK, "%s", sgl_error_last());
    cr_expect_eq(sgl_machine_provenance_count(m), N);
    cr_expect_str_eq(sgl_machine_provenance(m, "k77777"), "v77777");
    cr_expect_eq(sgl_machine_kernels(m), N + 1);
    cr_expect_float_eq(sgl_node_kernel(sgl_machine_worker(m, 0), "c4242"),
                       4243e-9, 1e-20);
    sgl_machine_free(m);
    /* The same point twice, far apart: the second line is named. */
    char *dup = NULL;
    f = open_memstream(&dup, &len);
    fprintf(f, "sgl-machine 1\nshape core:2\n"
               "level 0 link threads p 2 l 1us g_down 1ns g_up 1ns\n");
    for (int i = 0; i < N; i++)
        fprintf(f, "kernel t 1ns n %d\n", i + 1);
    fprintf(f, "kernel t 2ns n 5\nend\n");
    fclose(f);
    cr_assert_eq(read_string(dup, len, &m), SGL_EPARSE);
    cr_expect(strstr(sgl_error_last(),
                     "t.sgl:100004: duplicate kernel t point n 5 busy 1"),
              "%s", sgl_error_last());
    free(text);
    free(dup);
}

Test(machine_file, malformed)
{
    for (size_t i = 0; i < sizeof bad_files / sizeof *bad_files; i++) {
        const struct bad *b = &bad_files[i];
        sgl_machine_t *m = (sgl_machine_t *)&m; /* must stay untouched */
        size_t len = b->len ? b->len : strlen(b->text);
        int rc;
        if (len == 0) {
            FILE *f = fopen("/dev/null", "r");
            rc = sgl_machine_read(f, "t.sgl", &m);
            fclose(f);
        } else {
            rc = read_string(b->text, len, &m);
        }
        cr_expect_eq(rc, SGL_EPARSE, "%s: rc %d (%s)", b->name, rc,
                     sgl_error_last());
        cr_expect(strstr(sgl_error_last(), b->want) != NULL,
                  "%s:\n  got  '%s'\n  want '%s'", b->name, sgl_error_last(),
                  b->want);
        cr_expect_eq(m, (sgl_machine_t *)&m, "%s: output set on error",
                     b->name);
    }
}

/* Format 1 (SGL 0.1) said "node" for an MPI process; its files keep
 * their meaning, and the writer now says "rank" under format 2. */
Test(machine_file, format_1_node_is_a_rank)
{
    static const char v1[] = "sgl-machine 1\nshape node:2 core:4\n" L0 L1
                             "end\n";
    sgl_machine_t *m = NULL;
    cr_assert_eq(read_string(v1, strlen(v1), &m), SGL_OK, "%s",
                 sgl_error_last());
    cr_expect_eq(sgl_machine_processes(m), 2);
    cr_expect_str_eq(sgl_node_type(sgl_node_child(sgl_machine_root(m), 1)),
                     "rank");
    cr_expect_str_eq(sgl_machine_shape(m), "rank:2 core:4");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_eq(sgl_machine_write(m, f), SGL_OK);
    fclose(f);
    cr_expect(strstr(text, "\nsgl-machine 2\nshape rank:2 core:4\n"), "%s",
              text);
    free(text);
    sgl_machine_free(m);
}

Test(machine_file, missing_file)
{
    sgl_machine_t *m = NULL;
    cr_expect_eq(sgl_machine_load("/nonexistent/x.sgl", &m), SGL_EIO);
    cr_expect(strstr(sgl_error_last(), "/nonexistent/x.sgl"));
    sgl_machine_t *t = shape("core:2");
    cr_expect_eq(sgl_machine_save(t, "/nonexistent/x.sgl"), SGL_EIO);
    sgl_machine_free(t);
}

/* A FIFO with no reader used to block sgl_machine_save() in open() until
 * killed: it is refused at once, by kind (the timeout catches a hang);
 * with a reader it is refused too, and a directory the same way. */
Test(machine_file, save_refuses_what_is_not_a_regular_file, .timeout = 20)
{
    char dir[] = "/tmp/sgl-save-XXXXXX", fifo[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    sgl_machine_t *t = shape("core:2");
    cr_expect_eq(sgl_machine_save(t, fifo), SGL_EIO);
    cr_expect(strstr(sgl_error_last(), "it is a FIFO, not a regular file"),
              "%s", sgl_error_last());
    int reader = open(fifo, O_RDONLY | O_NONBLOCK);
    cr_assert_geq(reader, 0);
    cr_expect_eq(sgl_machine_save(t, fifo), SGL_EIO);
    cr_expect(strstr(sgl_error_last(), "a FIFO"), "%s", sgl_error_last());
    char c;
    cr_expect_leq(read(reader, &c, 1), 0, "nothing was written to it");
    close(reader);
    cr_expect_eq(sgl_machine_save(t, dir), SGL_EIO);
    cr_expect(strstr(sgl_error_last(), "a directory"), "%s", sgl_error_last());
    /* A regular file longer than the machine file is replaced whole. */
    char file[64];
    snprintf(file, sizeof file, "%s/m.sgl", dir);
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f);
    for (int i = 0; i < 4096; i++)
        fputs("# padding that must not survive the save\n", f);
    fclose(f);
    cr_assert_eq(sgl_machine_save(t, file), SGL_OK, "%s", sgl_error_last());
    char text[8192] = "";
    f = fopen(file, "r");
    cr_assert_not_null(f);
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    cr_expect(got > 0 && got < 4096 && strstr(text, "\nend\n") &&
                  !strstr(text, "padding"),
              "%zu bytes: %.200s", got, text);
    sgl_machine_free(t);
    remove(file);
    remove(fifo);
    rmdir(dir);
}

Test(machine_file, shipped_examples)
{
    const char *files[] = {SGL_MACHINES_DIR "/paper-16x8.sgl",
                           SGL_MACHINES_DIR "/cluster-1024x16.sgl"};
    const size_t workers[] = {128, 16384};
    for (size_t i = 0; i < 2; i++) {
        sgl_machine_t *m = NULL;
        cr_assert_eq(sgl_machine_load(files[i], &m), SGL_OK, "%s",
                     sgl_error_last());
        cr_expect_eq(sgl_machine_workers(m), workers[i]);
        cr_expect_eq(sgl_machine_processes(m), workers[i] / (i ? 16 : 8));
        const char *k[] = {"sum", "product", "scan", "sort", "merge"};
        for (size_t j = 0; j < 5; j++)
            cr_expect(!isnan(sgl_node_kernel(sgl_machine_worker(m, 0), k[j])),
                      "%s lacks kernel %s", files[i], k[j]);
        sgl_machine_free(m);
    }
    sgl_machine_t *m = NULL;
    cr_assert_eq(sgl_machine_load(files[0], &m), SGL_OK);
    cr_expect_eq(sgl_node_kernel(sgl_machine_worker(m, 127), "sum"),
                 0.353e-9);
    cr_expect(strstr(sgl_machine_provenance(m, "method"), "Table 2"));
    /* The paper's Tables 2 and 3, and exchange parameters at every level. */
    sgl_link_params_t p;
    cr_assert_eq(sgl_machine_level_params(m, 0, &p), SGL_OK);
    cr_expect_eq(p.l, 5.96e-6);
    cr_expect_eq(p.g_up, 2.09e-9 / 4);
    cr_assert_eq(sgl_machine_level_params(m, 1, &p), SGL_OK);
    cr_expect_eq(p.l, 52e-6);
    cr_expect_eq(p.g_down, 0.59e-9 / 4);
    for (size_t i = 0; i < 2; i++) {
        sgl_machine_t *x = NULL;
        cr_assert_eq(sgl_machine_load(files[i], &x), SGL_OK);
        for (unsigned l = 0; l < 2; l++) {
            sgl_exchange_params_t e;
            cr_expect_eq(sgl_machine_level_exchange(x, l, &e), SGL_OK,
                         "%s level %u has no exchange record", files[i], l);
        }
        sgl_machine_free(x);
    }
    sgl_machine_free(m);
}

/* Size tables: log-linear in n between points, end points beyond them,
 * linear in busy between measured counts, nearest count beyond them. */
Test(kernel_table, interpolation)
{
    sgl_machine_t *m = shape("rank:2 core:4");
    const sgl_node_t *w0 = sgl_machine_worker(m, 0);
    cr_assert_eq(sgl_machine_set_kernel_point(m, "sort", 1e4, 1, 10), SGL_OK);
    cr_assert_eq(sgl_machine_set_kernel_point(m, "sort", 1e6, 1, 30), SGL_OK);
    cr_assert_eq(sgl_machine_set_kernel_point(m, "sort", 1e6, 3, 50), SGL_OK);
    cr_assert_eq(sgl_machine_set_kernel_point(m, "sort", 1e4, 3, 20), SGL_OK);
    /* Points given out of order are kept sorted. */
    cr_expect_eq(sgl_node_kernel_at(w0, "sort", 1e4, 1), 10);
    cr_expect_eq(sgl_node_kernel_at(w0, "sort", 1e6, 1), 30);
    cr_expect(fabs(sgl_node_kernel_at(w0, "sort", 1e5, 1) - 20) < 1e-12);
    cr_expect_eq(sgl_node_kernel_at(w0, "sort", 10, 1), 10);
    cr_expect_eq(sgl_node_kernel_at(w0, "sort", 1e9, 1), 30);
    /* busy 2 halfway between the curves of 1 and 3; 8 beyond: the 3 one. */
    cr_expect(fabs(sgl_node_kernel_at(w0, "sort", 1e4, 2) - 15) < 1e-12);
    cr_expect(fabs(sgl_node_kernel_at(w0, "sort", 1e5, 2) - 27.5) < 1e-12);
    cr_expect_eq(sgl_node_kernel_at(w0, "sort", 1e6, 8), 50);
    /* No plain c: sgl_node_kernel() is the least busy curve's largest n. */
    cr_expect_eq(sgl_node_kernel(w0, "sort"), 30);
    cr_assert_eq(sgl_machine_set_kernel(m, "sort", 7), SGL_OK);
    cr_expect_eq(sgl_node_kernel(w0, "sort"), 7);
    cr_expect_eq(sgl_node_kernel_at(w0, "sort", 1e6, 1), 30);
    /* Replacing a point; a worker's own c beats the table. */
    cr_assert_eq(sgl_machine_set_kernel_point(m, "sort", 1e6, 1, 40), SGL_OK);
    cr_expect_eq(sgl_node_kernel_at(w0, "sort", 1e6, 1), 40);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 5, "sort", 99), SGL_OK);
    cr_expect_eq(sgl_node_kernel_at(sgl_machine_worker(m, 5), "sort", 1e5, 2),
                 99);
    /* A kernel without a table gives its plain c at any size. */
    cr_assert_eq(sgl_machine_set_kernel(m, "sum", 2), SGL_OK);
    cr_expect_eq(sgl_node_kernel_at(w0, "sum", 1e8, 4), 2);
    cr_expect(isnan(sgl_node_kernel_at(w0, "scan", 1e4, 1)));
    /* Bad points change nothing. */
    cr_expect_eq(sgl_machine_set_kernel_point(m, "sort", 0.5, 1, 1),
                 SGL_EINVAL);
    cr_expect(strstr(sgl_error_last(), "n = 0.5"));
    cr_expect_eq(sgl_machine_set_kernel_point(m, "sort", 1e3, 0, 1),
                 SGL_EINVAL);
    cr_expect(strstr(sgl_error_last(), "busy = 0"));
    cr_expect_eq(sgl_machine_set_kernel_point(m, "sort", 1e3, 1, -1),
                 SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_kernel_point(m, "sort", NAN, 1, 1),
                 SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_kernel_point(m, "bad name", 1e3, 1, 1),
                 SGL_EINVAL);
    cr_expect_eq(sgl_machine_set_kernel_point(NULL, "sort", 1e3, 1, 1),
                 SGL_EINVAL);
    cr_expect_eq(sgl_machine_kernels(m), 2);
    cr_expect_eq(sgl_node_kernel_at(w0, "sort", 1e3, 1), 10);
    sgl_machine_free(m);
}

Test(kernel_table, memory_peers)
{
    sgl_machine_t *m = shape("rank:2 core:4");
    /* Defaults: threads share memory, MPI does not. */
    cr_expect_eq(sgl_machine_level_memory(m, 0), SGL_MEMORY_DEFAULT);
    cr_expect_eq(sgl_node_memory_peers(sgl_machine_worker(m, 6)), 4);
    cr_assert_eq(sgl_machine_set_level_memory(m, 0, SGL_MEMORY_SHARED),
                 SGL_OK);
    cr_expect_eq(sgl_node_memory_peers(sgl_machine_worker(m, 6)), 8);
    cr_assert_eq(sgl_machine_set_level_memory(m, 1, SGL_MEMORY_PRIVATE),
                 SGL_OK);
    cr_expect_eq(sgl_node_memory_peers(sgl_machine_worker(m, 6)), 1);
    cr_expect_eq(sgl_node_memory_peers(sgl_machine_root(m)), 0);
    cr_expect_eq(sgl_node_memory_peers(NULL), 0);
    cr_expect_eq(sgl_machine_set_level_memory(m, 2, SGL_MEMORY_SHARED),
                 SGL_EINVAL);
    cr_expect(strstr(sgl_error_last(), "level 2 has no masters"));
    cr_expect_eq(sgl_machine_set_level_memory(m, 0, (sgl_memory_t)7),
                 SGL_EINVAL);
    cr_expect_eq(sgl_machine_level_memory(m, 0), SGL_MEMORY_SHARED);
    sgl_machine_free(m);
}

/* Tables, memory kinds and per-worker values survive a file round trip and
 * sgl_machine_copy_kernels(). */
Test(kernel_table, round_trip_and_copy)
{
    sgl_machine_t *m = shape("rank:2 core:2");
    sgl_link_params_t p = {1e-6, 1e-9, 1e-9};
    cr_assert_eq(sgl_machine_set_level_params(m, 0, &p), SGL_OK);
    cr_assert_eq(sgl_machine_set_level_params(m, 1, &p), SGL_OK);
    cr_assert_eq(sgl_machine_set_kernel(m, "sum", 0.1 + 0.2), SGL_OK);
    cr_assert_eq(sgl_machine_set_kernel_point(m, "sum", 3e4, 2, 1.0 / 3),
                 SGL_OK);
    cr_assert_eq(sgl_machine_set_kernel_point(m, "sum", 1e7, 1, 5e-324),
                 SGL_OK);
    cr_assert_eq(sgl_machine_set_kernel_point(m, "merge", 1e5, 2, 3.6e-9),
                 SGL_OK);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 3, "sum", 9e-9), SGL_OK);
    cr_assert_eq(sgl_machine_set_level_memory(m, 0, SGL_MEMORY_SHARED),
                 SGL_OK);
    cr_assert_eq(sgl_machine_set_level_memory(m, 1, SGL_MEMORY_PRIVATE),
                 SGL_OK);
    char buf[8192];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    cr_assert_eq(sgl_machine_write(m, f), SGL_OK);
    fclose(f);
    cr_expect(strstr(buf, "level 0 memory shared\n"));
    cr_expect(strstr(buf, "kernel merge 3.6e-09 n 100000 busy 2"), "%s", buf);
    sgl_machine_t *b = NULL;
    f = fmemopen(buf, strlen(buf), "r");
    cr_assert_eq(sgl_machine_read(f, "rt.sgl", &b), SGL_OK, "%s",
                 sgl_error_last());
    fclose(f);
    sgl_machine_t *c = shape("rank:2 core:2");
    cr_assert_eq(sgl_machine_copy_kernels(c, m), SGL_OK);
    const sgl_machine_t *both[2] = {b, c};
    for (int i = 0; i < 2; i++) {
        const sgl_machine_t *x = both[i];
        const sgl_node_t *w0 = sgl_machine_worker(x, 0);
        cr_expect_eq(sgl_node_kernel(w0, "sum"), 0.1 + 0.2);
        cr_expect_eq(sgl_node_kernel_at(w0, "sum", 3e4, 2), 1.0 / 3);
        cr_expect_eq(sgl_node_kernel_at(w0, "sum", 1e7, 1), 5e-324);
        cr_expect_eq(sgl_node_kernel_at(w0, "merge", 1, 1), 3.6e-9);
        cr_expect_eq(sgl_node_kernel_at(sgl_machine_worker(x, 3), "sum", 1e7,
                                        1),
                     9e-9);
    }
    cr_expect_eq(sgl_machine_level_memory(b, 0), SGL_MEMORY_SHARED);
    cr_expect_eq(sgl_machine_level_memory(b, 1), SGL_MEMORY_PRIVATE);
    /* Copying replaces a kernel of the same name whole. */
    sgl_machine_t *d = shape("core:3");
    cr_assert_eq(sgl_machine_set_kernel_point(d, "sum", 1e3, 1, 42), SGL_OK);
    cr_assert_eq(sgl_machine_copy_kernels(d, m), SGL_OK);
    cr_expect_eq(sgl_node_kernel_at(sgl_machine_worker(d, 0), "sum", 1e3, 1),
                 5e-324);
    cr_expect_eq(sgl_node_kernel_at(sgl_machine_worker(d, 0), "sum", 1e3, 2),
                 1.0 / 3);
    /* Different worker counts: per-worker values stay behind. */
    cr_expect_eq(sgl_node_kernel_at(sgl_machine_worker(d, 2), "sum", 1e7, 1),
                 5e-324);
    cr_expect_eq(sgl_machine_copy_kernels(NULL, m), SGL_EINVAL);
    sgl_machine_free(b);
    sgl_machine_free(c);
    sgl_machine_free(d);
    sgl_machine_free(m);
}

/* Control bytes users pass (an ESC sequence, a BEL) reach messages as C
 * escapes, never raw: callers print messages to terminals. */
Test(params, message_escapes_control_bytes)
{
    sgl_machine_t *m = shape("core:2");
    const char *name = "\033]0;title\007k";
    cr_expect_eq(sgl_machine_set_kernel(m, name, 1e-9), SGL_EINVAL);
    const char *msg = sgl_error_last();
    for (const char *c = msg; *c; c++)
        cr_expect((unsigned char)*c >= 0x20 && *c != 0x7f,
                  "raw byte 0x%02x in: %s", (unsigned char)*c, msg);
    cr_expect(strstr(msg, "\\x1b]0;title\\x07k"), "%s", msg);
    sgl_error_set(SGL_EINVAL, "value '%s' and tab\t", "\a\x1b[31m");
    cr_expect_str_eq(sgl_error_last(), "value '\\x07\\x1b[31m' and tab\\t");
    sgl_machine_free(m);
}
