/* The vertex-centric layer in one process on thread levels: one worker,
 * flat, nested and uneven trees. */
#include <criterion/criterion.h>
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
                 sgl_last_error());
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
        cr_assert(strstr(sgl_last_error(), ":2: expected two vertex"), "%s",
                  sgl_last_error());
        cr_assert_null(e);
    }
    unlink(path);
    cr_assert_eq(sgl_graph_read_edges(path, &n, &e, &m), SGL_EIO);
}
