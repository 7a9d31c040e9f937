/* Trees from shape strings and fan-outs: structure, numbering, collapsing,
 * and every way a shape can be wrong. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "machine_impl.h"

static sgl_machine_t *shape(const char *s, int keep_single)
{
    sgl_machine_opts_t o;
    sgl_machine_opts_default(&o);
    o.keep_single = keep_single;
    sgl_machine_t *m = NULL;
    int rc = sgl_machine_from_shape(s, &o, &m);
    cr_assert_eq(rc, SGL_OK, "shape \"%s\": %s", s, sgl_error_last());
    cr_assert_not_null(m);
    return m;
}

static void assert_levels(const sgl_machine_t *m, unsigned depth,
                          const size_t *sizes, const size_t *masters)
{
    cr_assert_eq(sgl_machine_depth(m), depth);
    for (unsigned l = 0; l <= depth; l++) {
        cr_expect_eq(sgl_machine_level_size(m, l), sizes[l], "level %u", l);
        cr_expect_eq(sgl_machine_level_masters(m, l), masters[l], "level %u",
                     l);
    }
    cr_expect_eq(sgl_machine_level_size(m, depth + 1), 0);
    cr_expect_eq(sgl_machine_level_masters(m, depth + 1), 0);
}

/* Each worker i is on rank i / per_rank, as processes own equal blocks. */
static void assert_worker_ranks(const sgl_machine_t *m, size_t per_rank)
{
    for (size_t i = 0; i < sgl_machine_workers(m); i++) {
        const sgl_node_t *w = sgl_machine_worker(m, i);
        cr_assert_not_null(w);
        cr_expect_eq(sgl_node_arity(w), 0);
        cr_expect_eq(sgl_node_first_worker(w), i);
        cr_expect_eq(sgl_node_workers(w), 1);
        cr_expect_eq(sgl_node_rank(w), (int)(i / per_rank), "worker %zu", i);
    }
    cr_expect_null(sgl_machine_worker(m, sgl_machine_workers(m)));
}

Test(shape, flat)
{
    sgl_machine_t *m = shape("core:4", 0);
    const sgl_node_t *r = sgl_machine_root(m);
    cr_expect_eq(sgl_machine_workers(m), 4);
    cr_expect_eq(sgl_machine_processes(m), 1);
    cr_expect_str_eq(sgl_node_type(r), "machine");
    cr_expect_eq(sgl_node_link(r), SGL_LINK_THREADS);
    cr_expect_null(sgl_node_parent(r));
    cr_expect_str_eq(sgl_node_type(sgl_node_child(r, 3)), "core");
    cr_expect_eq(sgl_node_index(sgl_node_child(r, 3)), 3);
    cr_expect_null(sgl_node_child(r, 4));
    cr_expect_eq(sgl_node_os_index(sgl_node_child(r, 0)), -1);
    cr_expect_null(sgl_node_host(r));
    cr_expect_str_eq(sgl_machine_source(m), "shape: core:4");
    assert_levels(m, 1, (size_t[]){1, 4}, (size_t[]){1, 0});
    assert_worker_ranks(m, 4);
    sgl_machine_free(m);
}

Test(shape, two_level_paper_cluster)
{
    sgl_machine_t *m = shape("rank:16 core:8", 0);
    const sgl_node_t *r = sgl_machine_root(m);
    cr_expect_eq(sgl_machine_workers(m), 128);
    cr_expect_eq(sgl_machine_processes(m), 16);
    cr_expect_eq(sgl_node_link(r), SGL_LINK_MPI);
    assert_levels(m, 2, (size_t[]){1, 16, 128}, (size_t[]){1, 16, 0});
    assert_worker_ranks(m, 8);
    const sgl_node_t *n5 = sgl_node_child(r, 5);
    cr_expect_str_eq(sgl_node_type(n5), "rank");
    cr_expect_eq(sgl_node_link(n5), SGL_LINK_THREADS);
    cr_expect_eq(sgl_node_rank(n5), 5);
    cr_expect_eq(sgl_node_first_worker(n5), 40);
    cr_expect_eq(sgl_node_workers(n5), 8);
    cr_expect_eq(sgl_node_level(sgl_node_child(n5, 0)), 2);
    cr_expect_eq(sgl_node_parent(sgl_node_child(n5, 7)), n5);
    cr_expect_eq(sgl_node_rank(r), 0);
    sgl_machine_free(m);
}

Test(shape, three_level)
{
    sgl_machine_t *m = shape("rack:2 rank:2 core:4", 0);
    const sgl_node_t *r = sgl_machine_root(m);
    cr_expect_eq(sgl_machine_workers(m), 16);
    cr_expect_eq(sgl_machine_processes(m), 4);
    assert_levels(m, 3, (size_t[]){1, 2, 4, 16}, (size_t[]){1, 2, 4, 0});
    assert_worker_ranks(m, 4);
    const sgl_node_t *rack1 = sgl_node_child(r, 1);
    cr_expect_eq(sgl_node_link(rack1), SGL_LINK_MPI);
    /* An MPI master is played by its first child's rank. */
    cr_expect_eq(sgl_node_rank(rack1), 2);
    cr_expect_eq(sgl_node_workers(rack1), 8);
    sgl_machine_free(m);
}

Test(shape, heterogeneous)
{
    sgl_machine_t *m = shape("rank:2 core:[3,5]", 0);
    const sgl_node_t *r = sgl_machine_root(m);
    cr_expect_eq(sgl_machine_workers(m), 8);
    cr_expect_eq(sgl_machine_processes(m), 2);
    cr_expect_eq(sgl_node_arity(sgl_node_child(r, 0)), 3);
    cr_expect_eq(sgl_node_arity(sgl_node_child(r, 1)), 5);
    cr_expect_eq(sgl_node_first_worker(sgl_node_child(r, 1)), 3);
    cr_expect_eq(sgl_node_rank(sgl_machine_worker(m, 2)), 0);
    cr_expect_eq(sgl_node_rank(sgl_machine_worker(m, 3)), 1);
    assert_levels(m, 2, (size_t[]){1, 2, 8}, (size_t[]){1, 2, 0});
    sgl_machine_free(m);
}

Test(shape, heterogeneous_two_lists)
{
    /* The second list has one entry per package of both nodes. */
    sgl_machine_t *m = shape("rank:2 pack:[1,2] core:[2, 3 ,4]", 1);
    const sgl_node_t *n1 = sgl_node_child(sgl_machine_root(m), 1);
    cr_expect_eq(sgl_machine_workers(m), 9);
    cr_expect_eq(sgl_node_arity(n1), 2);
    cr_expect_eq(sgl_node_arity(sgl_node_child(n1, 1)), 4);
    assert_levels(m, 3, (size_t[]){1, 2, 3, 9}, (size_t[]){1, 2, 3, 0});
    sgl_machine_free(m);
}

Test(shape, single_worker)
{
    sgl_machine_t *m = shape("core:1", 0);
    const sgl_node_t *r = sgl_machine_root(m);
    cr_expect_eq(sgl_machine_depth(m), 0);
    cr_expect_eq(sgl_machine_workers(m), 1);
    cr_expect_eq(sgl_machine_processes(m), 1);
    cr_expect_eq(sgl_node_arity(r), 0);
    cr_expect_eq(sgl_node_link(r), SGL_LINK_NONE);
    cr_expect_eq(sgl_machine_worker(m, 0), r);
    cr_expect_eq(sgl_node_rank(r), 0);
    sgl_machine_free(m);
}

Test(shape, collapse_single_child_levels)
{
    sgl_machine_t *m = shape("rank:1 pack:1 core:4", 0);
    const sgl_node_t *r = sgl_machine_root(m);
    cr_expect_str_eq(sgl_node_type(r), "package");
    cr_expect_eq(sgl_node_link(r), SGL_LINK_THREADS);
    cr_expect_eq(sgl_machine_processes(m), 1);
    assert_levels(m, 1, (size_t[]){1, 4}, (size_t[]){1, 0});
    sgl_machine_free(m);

    /* A middle level collapses too; the MPI link above it stays. */
    m = shape("rank:2 pack:1 core:2", 0);
    r = sgl_machine_root(m);
    cr_expect_eq(sgl_node_link(r), SGL_LINK_MPI);
    cr_expect_str_eq(sgl_node_type(sgl_node_child(r, 1)), "package");
    cr_expect_eq(sgl_machine_processes(m), 2);
    assert_levels(m, 2, (size_t[]){1, 2, 4}, (size_t[]){1, 2, 0});
    sgl_machine_free(m);
}

Test(shape, keep_single)
{
    sgl_machine_t *m = shape("rank:1 pack:1 core:4", 1);
    const sgl_node_t *r = sgl_machine_root(m);
    cr_expect_str_eq(sgl_node_type(r), "machine");
    cr_expect_eq(sgl_node_link(r), SGL_LINK_MPI);
    cr_expect_eq(sgl_machine_processes(m), 1);
    assert_levels(m, 3, (size_t[]){1, 1, 1, 4}, (size_t[]){1, 1, 1, 0});
    sgl_machine_free(m);

    m = shape("core:1", 1);
    cr_expect_eq(sgl_machine_depth(m), 1);
    cr_expect_eq(sgl_machine_workers(m), 1);
    sgl_machine_free(m);
}

Test(shape, mpi_only)
{
    sgl_machine_t *m = shape("rank:4", 0);
    cr_expect_eq(sgl_machine_workers(m), 4);
    cr_expect_eq(sgl_machine_processes(m), 4);
    assert_worker_ranks(m, 1);
    sgl_machine_free(m);
}

Test(shape, ranks_per_process)
{
    sgl_machine_t *m = shape("rack:2 rank:3 core:2", 0);
    const sgl_node_t *r = sgl_machine_root(m);
    cr_expect_eq(sgl_machine_processes(m), 6);
    assert_worker_ranks(m, 2);
    for (unsigned k = 0; k < 2; k++)
        for (unsigned n = 0; n < 3; n++) {
            const sgl_node_t *node = sgl_node_child(sgl_node_child(r, k), n);
            cr_expect_eq(sgl_node_rank(node), (int)(3 * k + n));
            /* Everything inside a process is played by that process. */
            cr_expect_eq(sgl_node_rank(sgl_node_child(node, 1)),
                         (int)(3 * k + n));
        }
    sgl_machine_free(m);
}

Test(shape, aliases_and_case)
{
    sgl_machine_t *m = shape("Socket:1 NUMANode:1 L3Cache:1 l2:1 L1d:1 "
                             "group:1 die:1 CORE:1 thread:2",
                             1);
    static const char *const want[] = {"machine", "package", "numa",
                                       "l3",      "l2",      "l1",
                                       "group",   "die",     "core", "pu"};
    const sgl_node_t *n = sgl_machine_root(m);
    for (unsigned l = 0; l < 10; l++, n = sgl_node_child(n, 0))
        cr_expect_str_eq(sgl_node_type(n), want[l], "level %u", l);
    cr_expect_eq(sgl_machine_workers(m), 2);
    sgl_machine_free(m);

    m = shape("cluster:1 host:2 rank:2 pack:2 pu:1", 0);
    cr_expect_eq(sgl_machine_processes(m), 4);
    cr_expect_eq(sgl_machine_workers(m), 8);
    sgl_machine_free(m);
}

/* Strings as `lstopo --of synthetic` prints them (hwloc 2.9): attributes,
 * memory children, instruction caches, numbered groups. They must give
 * the levels hwloc means, and no level for the memory. */
Test(shape, lstopo_synthetic_strings)
{
    sgl_machine_t *m =
        shape("Package:1 [NUMANode(memory=8684118016)] L3Cache:1(size="
              "33554432) L2Cache:2(size=524288) L1dCache:1(size=32768) "
              "L1iCache:1(size=32768) Core:1 PU:1",
              1);
    static const char *const want[] = {"machine", "package", "l3", "l2",
                                       "l1",      "l1i",     "core", "pu"};
    const sgl_node_t *n = sgl_machine_root(m);
    for (unsigned l = 0; l < 8; l++, n = sgl_node_child(n, 0))
        cr_expect_str_eq(sgl_node_type(n), want[l], "level %u", l);
    cr_expect_eq(sgl_machine_workers(m), 2);
    cr_expect_eq(sgl_machine_processes(m), 1);
    sgl_machine_free(m);

    m = shape("Package:2 Group0:2 [NUMANode(memory=1)] [MemCache(size=2)] "
              "L3Cache:1 L2Cache:8 L1dCache:1 Core:1 PU:2",
              1);
    cr_expect_eq(sgl_machine_workers(m), 64);
    cr_expect_eq(sgl_machine_depth(m), 7);
    cr_expect_str_eq(sgl_node_type(sgl_node_child(
                         sgl_node_child(sgl_machine_root(m), 0), 0)),
                     "group");
    sgl_machine_free(m);

    /* hwloc's prefixes ("pa", "co") and SGL's process levels above. */
    m = shape("rack:2 rank:2 pa:2 L2u:1 co:2 pu:1", 0);
    cr_expect_eq(sgl_machine_processes(m), 4);
    cr_expect_eq(sgl_machine_workers(m), 16);
    sgl_machine_free(m);
}

Test(shape, blanks)
{
    sgl_machine_t *m = shape("  rank:2\t core:[ 1 , 2 ]  ", 0);
    cr_expect_eq(sgl_machine_workers(m), 3);
    sgl_machine_free(m);
}

struct bad_shape {
    const char *shape;
    const char *what;  /* the problem, in the message */
    const char *where; /* token and position, in the message */
};

static const struct bad_shape bad_shapes[] = {
    {"", "empty shape", ""},
    {" \t ", "empty shape", ""},
    {"rank:0 core:8", "zero count", "'rank:0' at position 1"},
    {"rank:2 core:-3", "negative count", "'core:-3' at position 8"},
    {"rank: core:2", "missing count", "'rank:' at position 1"},
    {"rank core:2", "missing ':count'", "'rank' at position 1"},
    {"rank:2 #foo", "unexpected character '#'", "'#foo' at position 8"},
    {"rank:2x core:2", "unexpected character 'x'", "'rank:2x' at position 1"},
    {"rank:2 core:8 :", "unexpected character ':'", "':' at position 15"},
    {"rank:2 bogus:3", "unknown type 'bogus'", "'bogus:3' at position 8"},
    {"machine:2", "unknown type 'machine'", "at position 1"},
    {"rank:+2", "unexpected character '+'", "'rank:+2' at position 1"},
    {"rank:2 core:[1,2,3]", "list of 3 counts but the level above has 2",
     "'core:[1,2,3]' at position 8"},
    {"core:[1,2]", "level above has 1 node", "at position 1"},
    {"rank:2 core:[1,2", "missing ']'", "'core:[1,2' at position 8"},
    {"node:2 core:2", "'node' is ambiguous: hwloc reads it as a NUMA node",
     "'node:2' at position 1"},
    {"rank:2 No:2", "'No' is ambiguous", "'No:2' at position 8"},
    {"2 2 2", "a count without a type", "'2' at position 1"},
    {"pack:2 [Bogus] core:2", "'[Bogus' is not a memory child",
     "at position 8"},
    {"pack:2 [NUMANode core:2", "missing ']'", "at position 8"},
    {"L2Cache:2(size=3 core:2", "missing ')'", "at position 1"},
    {"L9Cache:2", "unknown type 'L9Cache'", "at position 1"},
    {"L4iCache:2 core:2", "unknown type 'L4iCache'", "at position 1"},
    {"p:2", "unknown type 'p'", "at position 1"},
    {"cores:2", "unknown type 'cores'", "at position 1"},
    {"rank:2 core:[1,,2]", "missing count", "at position 8"},
    {"rank:2 core:[1,0]", "zero count", "at position 8"},
    {"rank:2 core:[1;2]", "unexpected character ';'", "at position 8"},
    {"core:2 rank:2", "process type 'rank' below thread type 'core'",
     "'rank:2' at position 8"},
    {"rank:2 pack:2 rack:2", "below thread type 'package'",
     "'rack:2' at position 15"},
    {"rank:4096 core:4097", "limit of 16777216 workers",
     "'core:4097' at position 11"},
    {"core:99999999999999999999999", "count 99999999999999999999999 is more",
     "at position 1"},
    {"rank:2 core:[16777216,1]", "limit of 16777216 workers",
     "at position 8"},
};

Test(shape, bad_shapes_are_refused_with_position)
{
    for (size_t i = 0; i < sizeof bad_shapes / sizeof *bad_shapes; i++) {
        const struct bad_shape *b = &bad_shapes[i];
        sgl_machine_t *m = (sgl_machine_t *)&m; /* must stay untouched */
        int rc = sgl_machine_from_shape(b->shape, NULL, &m);
        const char *msg = sgl_error_last();
        cr_expect_eq(rc, SGL_EPARSE, "\"%s\" gave %s", b->shape,
                     sgl_error_name(rc));
        cr_expect_eq(m, (sgl_machine_t *)&m, "\"%s\" set the machine",
                     b->shape);
        cr_expect(strstr(msg, b->what), "\"%s\": message \"%s\" lacks \"%s\"",
                  b->shape, msg, b->what);
        cr_expect(strstr(msg, b->where),
                  "\"%s\": message \"%s\" lacks \"%s\"", b->shape, msg,
                  b->where);
    }
}

Test(shape, too_many_levels)
{
    char s[5 * 65 + 1] = "";
    for (int i = 0; i < 65; i++)
        strcat(s, "l1:1 ");
    sgl_machine_t *m = NULL;
    cr_expect_eq(sgl_machine_from_shape(s, NULL, &m), SGL_EPARSE);
    cr_expect(strstr(sgl_error_last(), "more than 64 levels"), "%s",
              sgl_error_last());
    cr_expect(strstr(sgl_error_last(), "position 321"), "%s",
              sgl_error_last());
    cr_expect_null(m);
}

Test(shape, too_many_nodes)
{
    /* Levels of one add nodes but no workers. */
    char s[1024] = "core:16777216";
    for (int i = 0; i < 2; i++)
        strcat(s, " pu:1");
    sgl_machine_t *m = NULL;
    cr_expect_eq(sgl_machine_from_shape(s, NULL, &m), SGL_EPARSE);
    cr_expect(strstr(sgl_error_last(), "tree nodes"), "%s", sgl_error_last());
}

/* The counts from the string alone agree with the built tree's. */
Test(shape, counts_without_building)
{
    const char *shapes[] = {"core:1", "core:4", "rank:2 core:3",
                            "rack:2 rank:[1,3] core:2", "rack:2 rank:2",
                            "rank:1 pack:1 core:2", "package:2 core:[2,3]",
                            "rank:3", "cluster:2 rank:[2,1] core:[1,2,3]"};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        size_t p = 0, w = 0;
        sgl_machine_t *m = NULL;
        cr_assert_eq(sgl_shape_counts(shapes[i], &p, &w), SGL_OK, "%s: %s",
                     shapes[i], sgl_error_last());
        cr_assert_eq(sgl_machine_from_shape(shapes[i], NULL, &m), SGL_OK);
        cr_expect_eq(p, sgl_machine_processes(m), "%s: %zu processes",
                     shapes[i], p);
        cr_expect_eq(w, sgl_machine_workers(m), "%s: %zu workers", shapes[i],
                     w);
        sgl_machine_free(m);
    }
    size_t p = 0, w = 0;
    cr_assert_eq(sgl_shape_counts("rank:4096 core:4096", &p, &w), SGL_OK);
    cr_expect_eq(p, 4096);
    cr_expect_eq(w, (size_t)1 << 24);
    cr_expect_eq(sgl_shape_counts("rank:65536 core:65536", &p, NULL),
                 SGL_EPARSE);
    cr_expect(strstr(sgl_error_last(), "limit of 16777216 workers"), "%s",
              sgl_error_last());
    cr_expect_eq(sgl_shape_counts("rank:2 core:[3", NULL, NULL), SGL_EPARSE);
    cr_expect_eq(sgl_shape_counts(NULL, &p, &w), SGL_EINVAL);
}

Test(shape, null_arguments)
{
    sgl_machine_t *m = NULL;
    cr_expect_eq(sgl_machine_from_shape(NULL, NULL, &m), SGL_EINVAL);
    cr_expect_eq(sgl_machine_from_shape("core:2", NULL, NULL), SGL_EINVAL);
    cr_expect_null(m);
}

Test(fanouts, builds_levels_and_links)
{
    sgl_machine_t *m = NULL;
    const unsigned f[] = {2, 3};
    const sgl_link_t k[] = {SGL_LINK_MPI, SGL_LINK_THREADS};
    cr_assert_eq(sgl_machine_from_fanouts(f, k, 2, NULL, &m), SGL_OK, "%s",
                 sgl_error_last());
    cr_expect_eq(sgl_machine_workers(m), 6);
    cr_expect_eq(sgl_machine_processes(m), 2);
    cr_expect_str_eq(sgl_machine_source(m), "fan-outs");
    assert_worker_ranks(m, 3);
    sgl_machine_free(m);

    cr_assert_eq(sgl_machine_from_fanouts(f, NULL, 2, NULL, &m), SGL_OK);
    cr_expect_eq(sgl_machine_processes(m), 1);
    cr_expect_eq(sgl_node_link(sgl_machine_root(m)), SGL_LINK_THREADS);
    sgl_machine_free(m);

    cr_assert_eq(sgl_machine_from_fanouts(NULL, NULL, 0, NULL, &m), SGL_OK);
    cr_expect_eq(sgl_machine_workers(m), 1);
    cr_expect_eq(sgl_machine_depth(m), 0);
    sgl_machine_free(m);
}

Test(fanouts, refuses_bad_input)
{
    sgl_machine_t *m = NULL;
    const sgl_link_t up[] = {SGL_LINK_THREADS, SGL_LINK_MPI};
    cr_expect_eq(sgl_machine_from_fanouts((unsigned[]){2, 0}, NULL, 2, NULL,
                                          &m),
                 SGL_EINVAL);
    cr_expect(strstr(sgl_error_last(), "level 2 is 0"));
    cr_expect_eq(sgl_machine_from_fanouts((unsigned[]){2, 2}, up, 2, NULL,
                                          &m),
                 SGL_EINVAL);
    cr_expect(strstr(sgl_error_last(), "below a thread level"));
    cr_expect_eq(sgl_machine_from_fanouts((unsigned[]){65536, 65536}, NULL,
                                          2, NULL, &m),
                 SGL_EINVAL);
    cr_expect(strstr(sgl_error_last(), "more than 16777216 workers"));
    unsigned ones[SGL__MAX_DEPTH + 1];
    for (unsigned i = 0; i <= SGL__MAX_DEPTH; i++)
        ones[i] = 1;
    cr_expect_eq(sgl_machine_from_fanouts(ones, NULL, SGL__MAX_DEPTH + 1,
                                          NULL, &m),
                 SGL_EINVAL);
    cr_expect_eq(sgl_machine_from_fanouts(NULL, NULL, 1, NULL, &m),
                 SGL_EINVAL);
    cr_expect_null(m);
}

/* Discovery presets world ranks on process nodes: with a round-robin
 * mapping (ranks 0, 2 on host a and 1, 3 on host b) the tree is grouped by
 * host and the numbering still follows MPI. */
static struct sgl_node *round_robin(const int *ranks)
{
    struct sgl_node *root = sgl__node_new("cluster", -1);
    cr_assert_not_null(root);
    root->link = SGL_LINK_MPI;
    for (int h = 0; h < 2; h++) {
        struct sgl_node *node = sgl__node_new("host", -1);
        cr_assert_not_null(node);
        node->link = SGL_LINK_MPI;
        node->host = strdup(h ? "b" : "a");
        cr_assert_eq(sgl__node_add(root, node), SGL_OK);
        for (int j = 0; j < 2; j++) {
            struct sgl_node *rank = sgl__node_new("rank", -1);
            struct sgl_node *core = sgl__node_new("core", j);
            cr_assert(rank && core);
            rank->rank = ranks[2 * h + j];
            rank->link = SGL_LINK_THREADS;
            cr_assert_eq(sgl__node_add(node, rank), SGL_OK);
            cr_assert_eq(sgl__node_add(rank, core), SGL_OK);
        }
    }
    return root;
}

Test(numbering, preset_ranks_survive_collapsing)
{
    sgl_machine_t *m = NULL;
    cr_assert_eq(sgl__machine_finish(round_robin((int[]){0, 2, 1, 3}), 0,
                                     "test", &m),
                 SGL_OK, "%s", sgl_error_last());
    static const int want[] = {0, 2, 1, 3};
    cr_expect_eq(sgl_machine_processes(m), 4);
    for (size_t i = 0; i < 4; i++)
        cr_expect_eq(sgl_node_rank(sgl_machine_worker(m, i)), want[i]);
    const sgl_node_t *r = sgl_machine_root(m);
    cr_expect_eq(sgl_node_rank(r), 0);
    cr_expect_eq(sgl_node_rank(sgl_node_child(r, 1)), 1);
    cr_expect_str_eq(sgl_node_host(sgl_node_child(r, 1)), "b");
    sgl_machine_free(m);

    cr_assert_eq(sgl__machine_finish(round_robin((int[]){0, 2, 1, 3}), 1,
                                     "test", &m),
                 SGL_OK);
    cr_expect_eq(sgl_node_rank(sgl_machine_worker(m, 1)), 2);
    sgl_machine_free(m);
}

Test(numbering, bad_preset_ranks_are_refused)
{
    sgl_machine_t *m = NULL;
    cr_expect_eq(sgl__machine_finish(round_robin((int[]){0, 0, 1, 3}), 0,
                                     "test", &m),
                 SGL_EINVAL);
    cr_expect(strstr(sgl_error_last(), "distinct ranks"), "%s",
              sgl_error_last());
    cr_expect_eq(sgl__machine_finish(round_robin((int[]){0, 2, 1, 4}), 0,
                                     "test", &m),
                 SGL_EINVAL);
    cr_expect(strstr(sgl_error_last(), "outside 0..3"), "%s",
              sgl_error_last());
    cr_expect_null(m);
}
