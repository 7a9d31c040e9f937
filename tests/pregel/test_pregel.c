/* The vertex-centric layer in one process on thread levels: one worker,
 * flat, nested and uneven trees. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_helpers.h"
#include "pregel_checks.h"

static const struct test_check_entry checks[] = {
    {pregel_check_programs, "programs"},
    {pregel_check_graphs, "graphs"},
    {pregel_check_budget, "budget"},
    {pregel_check_balance, "balance"},
    {pregel_check_errors, "errors"},
    {pregel_check_blocks, "blocks"},
};

static void on_shape(const char *shape)
{
    test_checks_on_shape(shape, pregel_test_register, checks,
                         sizeof checks / sizeof *checks);
}

Test(pregel, one_worker) { on_shape("core:1"); }
Test(pregel, two_workers) { on_shape("core:2"); }
Test(pregel, three_workers) { on_shape("core:3"); }
Test(pregel, nested) { on_shape("package:2 core:2"); }
Test(pregel, uneven) { on_shape("package:2 core:[1,3]"); }

/* The edge-list reader: comments and blank lines skipped, the line number
 * of the first bad line in the message, nothing returned. */
Test(pregel, reader)
{
    char path[] = "/tmp/sgl-edges-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# a comment\n\n% another\n0 1\n  2\t3 \n", f);
    fclose(f);
    uint64_t n, (*e)[2] = NULL;
    size_t m;
    cr_assert_eq(sgl_graph_read_edges(path, &n, &e, &m), SGL_OK, "%s",
                 sgl_error_last());
    cr_assert_eq(n, 4);
    cr_assert_eq(m, 2);
    cr_assert(e[1][0] == 2 && e[1][1] == 3);
    free(e);
    static const char *const bad[] = {"0 1\n1\n", "0 1\n1 x\n",
                                      "0 1\n-1 2\n", "0 1\n1 2 3\n"};
    for (size_t k = 0; k < 4; k++) {
        f = fopen(path, "w");
        fputs(bad[k], f);
        fclose(f);
        e = NULL;
        cr_assert_eq(sgl_graph_read_edges(path, &n, &e, &m), SGL_EPARSE,
                     "%s", bad[k]);
        cr_assert(strstr(sgl_error_last(), ":2: expected two vertex"), "%s",
                  sgl_error_last());
        cr_assert_null(e);
    }
    unlink(path);
    cr_assert_eq(sgl_graph_read_edges(path, &n, &e, &m), SGL_EIO);
}

/* sgl_combine_round_grid(): the nearest multiple, ties to even, either sign;
 * large and non-finite values kept; a grid out of range refused with NaN;
 * and what it is for: sums of rounded terms the same in any order. */
Test(pregel, round_grid)
{
    cr_assert_eq(sgl_combine_round_grid(0.3, -2), 0.25);
    cr_assert_eq(sgl_combine_round_grid(-0.3, -2), -0.25);
    cr_assert_eq(sgl_combine_round_grid(0.375, -2), 0.5);   /* tie: 1.5 steps -> 2 */
    cr_assert_eq(sgl_combine_round_grid(0.625, -2), 0.5);   /* tie: 2.5 steps -> 2 */
    cr_assert_eq(sgl_combine_round_grid(1 + 0x1p-60, -52), 1.0);
    cr_assert_eq(sgl_combine_round_grid(0x1p-54, -52), 0.0);
    cr_assert_eq(sgl_combine_round_grid(3 * 0x1p-53, -52), 0x1p-51); /* tie */
    cr_assert_eq(sgl_combine_round_grid(1e300, -1000), 1e300);
    cr_assert_eq(sgl_combine_round_grid(1e-300, 1000), 0.0);
    cr_assert_eq(sgl_combine_round_grid(12345.0, 3), 12344.0);
    cr_assert(isinf(sgl_combine_round_grid(INFINITY, -52)));
    cr_assert(isnan(sgl_combine_round_grid(NAN, -52)));
    cr_assert(isnan(sgl_combine_round_grid(1.0, 1001)));
    cr_assert(isnan(sgl_combine_round_grid(1.0, -1001)));
    /* 1000 terms of 1/1000 in two orders: unrounded the sums differ */
    double t[1000], up = 0, down = 0, rup = 0, rdown = 0;
    for (int i = 0; i < 1000; i++)
        t[i] = (double)(i % 7 + 1) / 4000.0 / (double)(i % 13 + 1);
    for (int i = 0; i < 1000; i++) {
        up += t[i];
        rup += sgl_combine_round_grid(t[i], -52);
        down += t[999 - i];
        rdown += sgl_combine_round_grid(t[999 - i], -52);
    }
    cr_assert_neq(up, down, "pick terms whose plain sums round apart");
    cr_assert_eq(rup, rdown);
    cr_assert(fabs(rup - up) <= 1000 * 0x1p-53);
}
