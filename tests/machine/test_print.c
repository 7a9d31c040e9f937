/* The listing and the JSON of a tree; the exact text of whole listings is
 * checked by the golden tests of sgl-machine. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/machine.h>

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
