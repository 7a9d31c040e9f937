/* The listing and the JSON of a tree; the exact text of whole listings is
 * checked by the golden tests of sgl-machine. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/machine.h>

#include "machine_impl.h"

static char *print(const char *shape, unsigned max_lines, int json)
{
    sgl_machine_t *m = NULL;
    cr_assert_eq(sgl_machine_from_shape(shape, NULL, &m), SGL_OK, "%s",
                 sgl_error_last());
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    int rc = json ? sgl_machine_write_json(m, f)
                  : sgl_machine_print(m, f, max_lines);
    cr_assert_eq(rc, SGL_OK);
    fclose(f);
    sgl_machine_free(m);
    return text;
}

static size_t count(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

Test(print, header_tree_and_table)
{
    char *t = print("rank:16 core:8", 0, 0);
    cr_expect(strstr(t, "Source: shape: rank:16 core:8; 128 workers, 16 "
                        "processes, depth 2\n"),
              "%s", t);
    cr_expect(strstr(t, "\nMachine (mpi to 16 ranks)\n"), "%s", t);
    cr_expect(strstr(t, "\n  rank L#0 rank 0 (threads to 8 cores)\n"));
    cr_expect(strstr(t, "\n    core L#9 worker 9 rank 1\n"));
    cr_expect(strstr(t, "\n    core L#127 worker 127 rank 15\n"));
    cr_expect_eq(count(t, "    core L#"), 128);
    cr_expect(strstr(t, "level  type"));
    cr_expect(strstr(t, "    1  rank             16         16"));
    free(t);
}

Test(print, max_lines_shortens_alike_siblings)
{
    char *t = print("rank:16 core:8", 2, 0);
    cr_expect(strstr(t, "\n  ... 14 more ranks like rank L#1\n"), "%s", t);
    cr_expect(strstr(t, "\n    ... 6 more cores like core L#9\n"), "%s", t);
    cr_expect_eq(count(t, "  rank L#"), 2);
    free(t);

    /* Siblings that differ are all shown. */
    t = print("rank:3 core:[1,2,3]", 1, 0);
    cr_expect(strstr(t, "\nMachine (mpi to 3 children)\n"), "%s", t);
    cr_expect(strstr(t, "\n  core L#0 worker 0 rank 0\n"), "%s", t);
    cr_expect(strstr(t, "\n  rank L#2 rank 2 (threads to 3 cores)\n"));
    cr_expect(strstr(t, "\n    ... 2 more cores like core L#2\n"), "%s", t);
    cr_expect(strstr(t, "1-3"), "%s", t);
    free(t);
}

Test(print, single_process_hides_ranks)
{
    char *t = print("pack:2 core:2", 0, 0);
    cr_expect(strstr(t, "\n    core L#3 worker 3\n"), "%s", t);
    cr_expect_null(strstr(t, "rank"));
    free(t);
}

Test(print, json)
{
    char *t = print("rank:2 core:[1,2]", 0, 1);
    cr_expect(strstr(t, "{\n  \"schema\": {\"name\": \"sgl-machine-tree\", "
                        "\"version\": 1},\n  \"sgl_version\": \""),
              "%s", t);
    cr_expect(strstr(t, "\n  \"source\": \"shape: rank:2 core:[1,2]\",\n  "
                        "\"workers\": 3,\n  \"processes\": 2,\n  "
                        "\"depth\": 2,\n"),
              "%s", t);
    cr_expect(strstr(t, "{\"type\": \"rank\", \"level\": 1, \"index\": 1, "
                        "\"arity\": 2, \"link\": \"threads\", \"rank\": 1, "
                        "\"os_index\": -1, \"workers\": 2, \"host\": null, "
                        "\"children\": ["),
              "%s", t);
    /* Node 0 has one core, so that core stands for it. */
    cr_expect_eq(count(t, "\"type\""), 5);
    cr_expect_eq(count(t, "{"), count(t, "}"));
    cr_expect_eq(count(t, "["), count(t, "]"));
    free(t);
}

Test(print, write_error_is_reported)
{
    sgl_machine_t *m = NULL;
    cr_assert_eq(sgl_machine_from_shape("core:2", NULL, &m), SGL_OK);
    FILE *f = fopen("/dev/full", "w");
    cr_assert_not_null(f);
    cr_expect_eq(sgl_machine_print(m, f, 0), SGL_EIO);
    cr_expect_eq(sgl_machine_write_json(m, f), SGL_EIO);
    fclose(f);
    cr_expect_eq(sgl_machine_print(NULL, stdout, 0), SGL_EINVAL);
    sgl_machine_free(m);
}

/* The listing of a shape computed from its levels (sgl-machine's path
 * for shapes too large to build) is byte for byte the listing of the
 * built tree, folded or not, with and without keep_single. */
Test(print, shape_listing_without_tree)
{
    static const char *const shapes[] = {
        "core:1", "core:2", "rank:4 core:300", "rank:16 core:8",
        "rack:2 rank:2 core:4", "rank:1 pack:1 core:2",
        "rank:2 pack:1 core:3", "pack:2 l3:2 core:2", "rank:3",
        "rack:3 rank:1 core:5", "host:2 rank:3 pack:2 core:2",
        "core:1 pu:4", "rank:2 core:1", "rank:1", "rank:1 core:1",
        "cluster:2 rack:1 rank:2 numa:1 core:3 pu:1"};
    static const long lines[] = {-1, 0, 1, 2, 3};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int keep = 0; keep <= 1; keep++)
            for (size_t k = 0; k < sizeof lines / sizeof *lines; k++) {
                sgl_machine_opts_t o;
                sgl_machine_opts_default(&o);
                o.keep_single = keep;
                sgl_machine_t *m = NULL;
                cr_assert_eq(sgl_machine_from_shape(shapes[s], &o, &m),
                             SGL_OK, "%s", sgl_error_last());
                size_t nodes = 0;
                for (unsigned l = 0; l <= sgl_machine_depth(m); l++)
                    nodes += sgl_machine_level_size(m, l);
                unsigned ml = lines[k] >= 0 ? (unsigned)lines[k]
                                            : nodes > 256;
                char *want = NULL, *got = NULL;
                size_t wn = 0, gn = 0;
                FILE *fw = open_memstream(&want, &wn);
                FILE *fg = open_memstream(&got, &gn);
                cr_assert(fw && fg);
                cr_assert_eq(sgl_machine_print(m, fw, ml), SGL_OK);
                cr_assert_eq(sgl__shape_print(shapes[s], NULL, keep, fg, lines[k],
                                              256),
                             SGL_OK, "%s", sgl_error_last());
                fclose(fw);
                fclose(fg);
                cr_expect_str_eq(got, want, "%s keep %d max_lines %ld",
                                 shapes[s], keep, lines[k]);
                free(want);
                free(got);
                sgl_machine_free(m);
            }
    /* A list makes levels uneven: the caller must build the tree. */
    cr_expect_eq(sgl__shape_print("rank:2 core:[3,5]", NULL, 0, stdout, 1, 256), 1);
}
