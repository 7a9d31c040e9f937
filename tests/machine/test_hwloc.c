/* Trees from hwloc: XML fixtures (exported from hwloc synthetic
 * topologies) and discovery of this host, checked against hwloc itself. */
#include <criterion/criterion.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/machine.h>

#define FIXTURE(name) SGL_TEST_FIXTURES "/" name

static sgl_machine_t *xml(const char *path, int keep_single,
                          unsigned max_threads)
{
    sgl_machine_opts_t o;
    sgl_machine_opts_default(&o);
    o.keep_single = keep_single;
    o.max_threads = max_threads;
    sgl_machine_t *m = NULL;
    int rc = sgl_machine_from_xml(path, &o, &m);
    cr_assert_eq(rc, SGL_OK, "%s: %s", path, sgl_error_last());
    return m;
}

/* "pack:2 l3:2 core:4 pu:2": the machine-wide NUMA node is no part of a
 * package and is left out; each core is bound through its first PU. */
Test(xml, packages_l3_cores)
{
    sgl_machine_t *m = xml(FIXTURE("pack2-l3x2-core4.xml"), 0, 0);
    const sgl_node_t *r = sgl_machine_root(m);
    cr_expect_eq(sgl_machine_workers(m), 16);
    cr_expect_eq(sgl_machine_processes(m), 1);
    cr_assert_eq(sgl_machine_depth(m), 3);
    cr_expect_str_eq(sgl_node_type(r), "machine");
    cr_expect_eq(sgl_node_link(r), SGL_LINK_THREADS);
    cr_expect_eq(sgl_machine_level_size(m, 1), 2);
    cr_expect_eq(sgl_machine_level_size(m, 2), 4);
    for (unsigned p = 0; p < 2; p++) {
        const sgl_node_t *pkg = sgl_node_child(r, p);
        cr_expect_str_eq(sgl_node_type(pkg), "package");
        cr_expect_eq(sgl_node_os_index(pkg), (int)p);
        cr_expect_eq(sgl_node_arity(pkg), 2);
        cr_expect_str_eq(sgl_node_type(sgl_node_child(pkg, 1)), "l3");
        cr_expect_eq(sgl_node_arity(sgl_node_child(pkg, 1)), 4);
    }
    for (size_t i = 0; i < 16; i++) {
        const sgl_node_t *w = sgl_machine_worker(m, i);
        cr_expect_str_eq(sgl_node_type(w), "core");
        cr_expect_eq(sgl_node_os_index(w), (int)(2 * i), "worker %zu", i);
        cr_expect_eq(sgl_node_rank(w), 0);
    }
    cr_expect(strstr(sgl_machine_source(m), "xml: "));
    cr_expect(strstr(sgl_machine_source(m), "pack2-l3x2-core4.xml"));
    sgl_machine_free(m);
}

/* "pack:1 numa:2 l3:1 core:3 pu:1": hwloc 2 attaches the NUMA nodes as
 * memory children, yet they group the cores. */
Test(xml, numa_groups_cores)
{
    sgl_machine_t *m = xml(FIXTURE("pack1-numa2-core3.xml"), 1, 0);
    static const char *const types[] = {"machine", "package", "numa", "l3",
                                        "core"};
    cr_assert_eq(sgl_machine_depth(m), 4);
    const sgl_node_t *n = sgl_machine_root(m);
    for (unsigned l = 0; l <= 4; l++, n = sgl_node_child(n, 0))
        cr_expect_str_eq(sgl_node_type(n), types[l], "level %u", l);
    const sgl_node_t *pkg = sgl_node_child(sgl_machine_root(m), 0);
    cr_expect_eq(sgl_node_arity(pkg), 2);
    cr_expect_eq(sgl_node_os_index(sgl_node_child(pkg, 1)), 1);
    cr_expect_eq(sgl_node_workers(sgl_node_child(pkg, 1)), 3);
    sgl_machine_free(m);

    /* Collapsed: package -> 2 x (numa with its single l3 folded in). */
    m = xml(FIXTURE("pack1-numa2-core3.xml"), 0, 0);
    cr_expect_eq(sgl_machine_depth(m), 2);
    cr_expect_str_eq(sgl_node_type(sgl_machine_root(m)), "package");
    cr_expect_eq(sgl_machine_workers(m), 6);
    sgl_machine_free(m);
}

Test(xml, max_threads_takes_first_cores)
{
    sgl_machine_t *m = xml(FIXTURE("pack2-l3x2-core4.xml"), 0, 5);
    cr_expect_eq(sgl_machine_workers(m), 5);
    /* All five are in package 0, so the machine level collapses. */
    cr_expect_str_eq(sgl_node_type(sgl_machine_root(m)), "package");
    cr_expect_eq(sgl_node_os_index(sgl_machine_worker(m, 4)), 8);
    sgl_machine_free(m);
}

Test(xml, missing_file)
{
    sgl_machine_t *m = NULL;
    cr_expect_eq(sgl_machine_from_xml("/nonexistent/sgl.xml", NULL, &m),
                 SGL_EIO);
    cr_expect(strstr(sgl_error_last(), "/nonexistent/sgl.xml"), "%s",
              sgl_error_last());
    cr_expect(strstr(sgl_error_last(), "No such file"), "%s",
              sgl_error_last());
    cr_expect_null(m);
}

Test(xml, directory)
{
    sgl_machine_t *m = NULL;
    cr_expect_eq(sgl_machine_from_xml(SGL_TEST_FIXTURES, NULL, &m), SGL_EIO);
    cr_expect(strstr(sgl_error_last(), "is a directory"), "%s",
              sgl_error_last());
    cr_expect_null(m);
}

Test(xml, not_xml)
{
    sgl_machine_t *m = NULL;
    cr_expect_eq(sgl_machine_from_xml(FIXTURE("garbage.xml"), NULL, &m),
                 SGL_EHWLOC);
    cr_expect(strstr(sgl_error_last(), "not a valid hwloc XML"), "%s",
              sgl_error_last());
    cr_expect_null(m);
    cr_expect_eq(sgl_machine_from_xml(NULL, NULL, &m), SGL_EINVAL);
}

/* What the process may run on, computed apart from the library, from the
 * PUs up: the cores that own a PU of the thread's binding, in logical
 * order, each with its lowest bound PU. */
static unsigned bound_cores(int *first_pu, unsigned cap)
{
    hwloc_topology_t t;
    cr_assert_eq(hwloc_topology_init(&t), 0);
    cr_assert_eq(hwloc_topology_load(t), 0);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_bitmap_t cores = hwloc_bitmap_alloc();
    cr_assert_eq(hwloc_get_cpubind(t, set, HWLOC_CPUBIND_THREAD), 0);
    hwloc_bitmap_and(set, set, hwloc_topology_get_allowed_cpuset(t));
    unsigned pu, core;
    hwloc_bitmap_foreach_begin(pu, set)
    {
        hwloc_obj_t p = hwloc_get_pu_obj_by_os_index(t, pu);
        hwloc_obj_t c = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_CORE, p);
        cr_assert_not_null(c);
        hwloc_bitmap_set(cores, c->logical_index);
    }
    hwloc_bitmap_foreach_end();
    unsigned n = 0;
    hwloc_bitmap_foreach_begin(core, cores)
    {
        hwloc_obj_t c = hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, core);
        int lowest = -1;
        hwloc_bitmap_foreach_begin(pu, c->cpuset)
        {
            if (lowest < 0 && hwloc_bitmap_isset(set, pu))
                lowest = (int)pu;
        }
        hwloc_bitmap_foreach_end();
        if (n < cap)
            first_pu[n] = lowest;
        n++;
    }
    hwloc_bitmap_foreach_end();
    hwloc_bitmap_free(cores);
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(t);
    return n;
}

static sgl_machine_t *discover(unsigned max_threads)
{
    sgl_machine_opts_t o;
    sgl_machine_opts_default(&o);
    o.max_threads = max_threads;
    sgl_machine_t *m = NULL;
    int rc = sgl_machine_discover(&o, &m);
    cr_assert_eq(rc, SGL_OK, "%s", sgl_error_last());
    return m;
}

/* Also run under `taskset -c 0` by meson, where it must find one core. */
Test(discover, matches_hwloc_in_cpuset)
{
    unsetenv("OMP_NUM_THREADS");
    unsetenv("SGL_XML");
    int pu[1024];
    unsigned want = bound_cores(pu, 1024);
    sgl_machine_t *m = discover(0);
    cr_expect_eq(sgl_machine_workers(m), want);
    cr_expect_eq(sgl_machine_processes(m), 1);
    cr_expect_str_eq(sgl_machine_source(m), "discovered");
    for (size_t i = 0; i < sgl_machine_workers(m) && i < want; i++) {
        const sgl_node_t *w = sgl_machine_worker(m, i);
        cr_expect_str_eq(sgl_node_type(w), "core");
        cr_expect_eq(sgl_node_os_index(w), pu[i], "worker %zu", i);
    }
    sgl_machine_free(m);
}

Test(discover, omp_num_threads_one)
{
    unsetenv("SGL_XML");
    setenv("OMP_NUM_THREADS", "1", 1);
    sgl_machine_t *m = discover(0);
    cr_expect_eq(sgl_machine_workers(m), 1);
    cr_expect_eq(sgl_machine_depth(m), 0);
    cr_expect_eq(sgl_node_link(sgl_machine_root(m)), SGL_LINK_NONE);
    sgl_machine_free(m);
}

Test(discover, max_threads_wins_over_omp_num_threads)
{
    unsetenv("SGL_XML");
    setenv("OMP_NUM_THREADS", "64", 1);
    sgl_machine_t *m = discover(1);
    cr_expect_eq(sgl_machine_workers(m), 1);
    sgl_machine_free(m);
}

Test(discover, bad_omp_num_threads_is_ignored)
{
    unsetenv("SGL_XML");
    int pu[1024];
    unsigned want = bound_cores(pu, 1024);
    setenv("OMP_NUM_THREADS", "lots", 1);
    sgl_machine_t *m = discover(0);
    cr_expect_eq(sgl_machine_workers(m), want);
    sgl_machine_free(m);
    /* A nested list gives the outer team. */
    setenv("OMP_NUM_THREADS", "1,4", 1);
    m = discover(0);
    cr_expect_eq(sgl_machine_workers(m), 1);
    sgl_machine_free(m);
}

Test(discover, sgl_xml_replaces_the_host)
{
    unsetenv("OMP_NUM_THREADS");
    setenv("SGL_XML", FIXTURE("pack2-l3x2-core4.xml"), 1);
    sgl_machine_t *m = discover(0);
    cr_expect_eq(sgl_machine_workers(m), 16);
    cr_expect_eq(sgl_machine_depth(m), 3);
    sgl_machine_free(m);
    setenv("OMP_NUM_THREADS", "3", 1);
    m = discover(0);
    cr_expect_eq(sgl_machine_workers(m), 3);
    sgl_machine_free(m);

    setenv("SGL_XML", "/nonexistent/sgl.xml", 1);
    m = NULL;
    cr_expect_eq(sgl_machine_discover(NULL, &m), SGL_EIO);
    cr_expect_null(m);
}
