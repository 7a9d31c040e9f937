/* The runtime in one process: every primitive on thread levels of
 * synthetic shapes (flat, nested, heterogeneous, one worker) and on the
 * discovered machine, with the shared test programs. */
#include <criterion/criterion.h>
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sgl/sgl_mpi.h>
#include <sgl/blocks.h>
#include <sgl/exchange.h>
#include <sgl/predict.h>
#include <sgl/trace.h>

#include "check_helpers.h"
#include "programs.h"

static sgl_runtime_t *start(const char *shape)
{
    return test_start(shape, prog_register);
}

/* Everything the runtime must do on any shape. @split_cases: the masters
 * of the shape where prog_split has a hand-computed split (-1: not
 * known, for the discovered machine). */
static void exercise(const char *shape, int split_cases)
{
    sgl_runtime_t *rt = start(shape);
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    size_t sizes[] = {0, 1, p - 1, p, p + 1, 97, 1000, 100003};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        RUN_OK(prog_roundtrip(rt, 1234 + i, sizes[i]));
        RUN_OK(prog_scatter_split(rt, sizes[i]));
        RUN_OK(prog_reduce(rt, 4321 + i, sizes[i]));
    }
    size_t checked = 0;
    RUN_OK(prog_split(rt, &checked));
    if (split_cases >= 0)
        cr_assert_eq(checked, (size_t)split_cases,
                     "%zu masters of %s with a split by hand, not %d",
                     checked, shape, split_cases);
    RUN_OK(prog_run_result(rt, 0));
    RUN_OK(prog_block_sizes(rt));
    RUN_OK(prog_distributed_sum(rt, 1000000));
    RUN_OK(prog_random_blocks(rt, 99, 3));
    RUN_OK(prog_big_gather(rt));
    RUN_OK(prog_inplace(rt));
    RUN_OK(prog_keyed_state(rt));
    RUN_OK(prog_exchange(rt, 11, SGL_EXCHANGE_DIRECT));
    RUN_OK(prog_exchange(rt, 12, SGL_EXCHANGE_ROUTED));
    RUN_OK(prog_exchange_misuse(rt));
    RUN_OK(prog_trace(rt));
    RUN_OK(prog_reply_times(rt));
    RUN_OK(prog_misuse(rt));
    RUN_OK(prog_failing_worker(rt, 0));
    RUN_OK(prog_failing_worker(rt, p - 1));
    /* The runtime stays usable after a failed program. */
    RUN_OK(prog_roundtrip(rt, 77, 5000));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* sgl_recv_view() and sgl_recv() on one shape: empty and uneven blocks,
 * masters scattering their views on or their private copies. */
static void recv_views(const char *shape)
{
    sgl_runtime_t *rt = start(shape);
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    size_t sizes[] = {0, 1, p - 1, p + 1, 1000, 100003};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int priv = 0; priv < 2; priv++)
            RUN_OK(prog_recv_view(rt, 55 + i, sizes[i], priv));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* Puts in place (sgl_gather_into()) on one shape: separate arrays and in
 * place, empty and uneven blocks, and the calls' edges. */
static void gather_into(const char *shape)
{
    sgl_runtime_t *rt = start(shape);
    size_t sizes[] = {0, 1, 2, 7, 1009, 100003};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int in_place = 0; in_place < 2; in_place++)
            RUN_OK(prog_gather_into(rt, 77 + i, sizes[i], in_place));
    RUN_OK(prog_gather_into_misc(rt));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, gather_into_flat) { gather_into("core:3"); }
Test(runtime, gather_into_nested) { gather_into("pack:2 l3:2 core:2"); }
Test(runtime, gather_into_uneven) { gather_into("pack:3 core:[1,4,2]"); }

Test(runtime, recv_view_one_worker) { recv_views("core:1"); }
Test(runtime, recv_view_flat) { recv_views("core:3"); }
Test(runtime, recv_view_nested) { recv_views("pack:2 l3:2 core:2"); }
Test(runtime, recv_view_uneven) { recv_views("pack:3 core:[1,4,2]"); }

Test(runtime, one_worker) { exercise("core:1", 0); }
Test(runtime, flat_two) { exercise("core:2", 1); }
Test(runtime, flat_odd) { exercise("core:3", 1); }
Test(runtime, two_levels) { exercise("pack:2 core:3", 3); }
Test(runtime, three_levels) { exercise("pack:2 l3:2 core:2", 7); }
Test(runtime, heterogeneous) { exercise("pack:3 core:[1,4,2]", 2); }
Test(runtime, heterogeneous_nested)
{
    exercise("pack:2 l3:[1,2] core:[2,3,1]", 4);
}
Test(runtime, discovered) { exercise(NULL, -1); }

Test(runtime, shared_run_result)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = "pack:2 core:[1,2]";
    o.share_result = 1;
    sgl_runtime_t *rt;
    RUN_OK(sgl_init(NULL, NULL, &o, &rt));
    RUN_OK(prog_register(rt));
    RUN_OK(prog_run_result(rt, 1));
    RUN_OK(prog_reduce(rt, 8, 1001));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, single_thread_env)
{
    setenv("OMP_NUM_THREADS", "1", 1);
    sgl_runtime_t *rt = start(NULL);
    cr_assert_eq(sgl_machine_workers(sgl_runtime_machine(rt)), 1);
    RUN_OK(prog_roundtrip(rt, 5, 1000));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, randomized_shapes)
{
    /* Random thread-level trees: fan-outs 1..4 over 1..3 levels. Several
     * runtimes in one process need MPI started by the caller. */
    int provided;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    uint64_t s = 42;
    for (int t = 0; t < 12; t++) {
        char shape[128] = "";
        size_t len = 0;
        unsigned levels = 1 + (unsigned)(t % 3);
        static const char *const types[] = {"pack", "l3", "core"};
        for (unsigned l = 0; l < levels; l++) {
            s = s * 6364136223846793005u + 1442695040888963407u;
            len += (size_t)snprintf(shape + len, sizeof shape - len, "%s%s:%u",
                                    l ? " " : "", types[3 - levels + l],
                                    1 + (unsigned)(s >> 61) % 4);
        }
        sgl_runtime_t *rt = start(shape);
        RUN_OK(prog_roundtrip(rt, s, (size_t)(s >> 54)));
        RUN_OK(prog_random_blocks(rt, s, 2));
        RUN_OK(prog_scatter_split(rt, (size_t)(s >> 55)));
        RUN_OK(prog_reduce(rt, s, (size_t)(s >> 54)));
        cr_assert_eq(sgl_finalize(rt), SGL_OK);
    }
    MPI_Finalize();
}

/* A runtime on MPI_COMM_SELF, so that one test can start several. */
static sgl_runtime_t *start_on_self(const char *shape, int *ret_rc)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    sgl_runtime_t *rt = NULL;
    *ret_rc = sgl_init_comm(MPI_COMM_SELF, &o, &rt);
    return rt;
}

/* SGL_TRACE takes the usual boolean words; any other value is refused
 * with a message that names it. */
Test(runtime, trace_env_words)
{
    int provided, rc;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    const char *words[] = {"0", "off", "OFF", "false", "no",
                           "1", "on", "true", "Yes", ""};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        setenv("SGL_TRACE", words[i], 1);
        sgl_runtime_t *rt = start_on_self("core:2", &rc);
        cr_assert_eq(rc, SGL_OK, "SGL_TRACE=%s: %s", words[i],
                     sgl_error_last());
        RUN_OK(prog_register(rt));
        RUN_OK(prog_roundtrip(rt, 1, 100));
        cr_assert_eq(sgl_trace_steps(rt) > 0, i >= 5, "SGL_TRACE='%s'",
                     words[i]);
        cr_assert_eq(sgl_finalize(rt), SGL_OK);
    }
    setenv("SGL_TRACE", "maybe", 1);
    sgl_runtime_t *rt = start_on_self("core:2", &rc);
    cr_assert_eq(rc, SGL_EINVAL);
    cr_assert_null(rt);
    cr_assert(strstr(sgl_error_last(), "SGL_TRACE='maybe' is not a boolean"),
              "%s", sgl_error_last());
    MPI_Finalize();
}

/* SGL_WAIT takes active, passive or auto in any case; programs run under
 * each; any other word is refused with a message that names it and the
 * choices, as SGL_EXCHANGE's is. */
Test(runtime, wait_env_words)
{
    int provided, rc;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    const char *words[] = {"active", "PASSIVE", "auto", ""};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        setenv("SGL_WAIT", words[i], 1);
        sgl_runtime_t *rt = start_on_self("core:2", &rc);
        cr_assert_eq(rc, SGL_OK, "SGL_WAIT=%s: %s", words[i],
                     sgl_error_last());
        RUN_OK(prog_register(rt));
        RUN_OK(prog_roundtrip(rt, 1, 100));
        cr_assert_eq(sgl_finalize(rt), SGL_OK);
    }
    setenv("SGL_WAIT", "sometimes", 1);
    sgl_runtime_t *rt = start_on_self("core:2", &rc);
    cr_assert_eq(rc, SGL_EINVAL);
    cr_assert_null(rt);
    cr_assert(strstr(sgl_error_last(), "SGL_WAIT='sometimes' is not active, "
                                       "passive or auto"),
              "%s", sgl_error_last());
    unsetenv("SGL_WAIT");
    /* The same words for SGL_EXCHANGE, with its own choices named. */
    setenv("SGL_EXCHANGE", "sideways", 1);
    rt = start_on_self("core:2", &rc);
    cr_assert_eq(rc, SGL_EINVAL);
    cr_assert_null(rt);
    cr_assert(strstr(sgl_error_last(), "SGL_EXCHANGE='sideways' is not auto, "
                                       "direct or routed"),
              "%s", sgl_error_last());
    unsetenv("SGL_EXCHANGE");
    MPI_Finalize();
}

/* The program's OpenMP nesting setting survives a runtime that needs
 * nested teams. */
Test(runtime, finalize_restores_openmp_levels)
{
    int provided, rc;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    omp_set_max_active_levels(1);
    sgl_runtime_t *rt = start_on_self("pack:2 core:2", &rc);
    cr_assert_eq(rc, SGL_OK, "%s", sgl_error_last());
    cr_assert_gt(omp_get_max_active_levels(), 1);
    RUN_OK(prog_register(rt));
    RUN_OK(prog_reduce(rt, 7, 1000));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
    cr_assert_eq(omp_get_max_active_levels(), 1);
    MPI_Finalize();
}

Test(runtime, restart_after_own_finalize_is_an_error)
{
    sgl_runtime_t *rt = start("core:2");
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
    rt = NULL;
    cr_assert_eq(sgl_init(NULL, NULL, NULL, &rt), SGL_ESTATE);
    cr_assert(strstr(sgl_error_last(), "sgl_init_comm"), "%s",
              sgl_error_last());
}

Test(runtime, bad_shape_is_an_error)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = "core:0";
    sgl_runtime_t *rt = NULL;
    cr_assert_eq(sgl_init(NULL, NULL, &o, &rt), SGL_EPARSE);
    cr_assert_null(rt);
    cr_assert_neq(sgl_error_last()[0], '\0');
}

Test(runtime, shape_needing_more_processes)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = "rank:2 core:2";
    sgl_runtime_t *rt = NULL;
    cr_assert_eq(sgl_init(NULL, NULL, &o, &rt), SGL_ESHAPE);
    cr_assert(strstr(sgl_error_last(), "needs 2 MPI processes"), "%s",
              sgl_error_last());
}

Test(runtime, null_arguments)
{
    cr_assert_eq(sgl_init(NULL, NULL, NULL, NULL), SGL_EINVAL);
    cr_assert_eq(sgl_run(NULL, NULL, NULL, 0), SGL_EINVAL);
    cr_assert_eq(sgl_task_register(NULL, NULL, "x"), SGL_EINVAL);
    cr_assert_eq(sgl_finalize(NULL), SGL_OK);
}

Test(runtime, duplicate_registration)
{
    sgl_runtime_t *rt = start("core:2");
    cr_assert_eq(prog_register(rt), SGL_EINVAL);
    cr_assert(strstr(sgl_error_last(), "already registered"));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* The tree's source, in one rule with the tools: what the program gives
 * in its options wins over SGL_SHAPE and SGL_XML (SGL_SHAPE used to beat
 * opts.xml); among the variables, SGL_SHAPE wins over SGL_XML. The XML
 * fixture is 1 package, 2 NUMA nodes of 3 cores: 6 workers. */
static size_t workers_of(const char *shape, const char *xml, const char *env)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    o.xml = xml;
    sgl_runtime_t *rt = NULL;
    RUN_OK(sgl_init(NULL, NULL, &o, &rt));
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    cr_expect(strstr(sgl_machine_source(m), env), "source %s, want %s",
              sgl_machine_source(m), env);
    size_t w = sgl_machine_workers(m);
    sgl_finalize(rt);
    return w;
}

Test(runtime, opts_xml_wins_over_sgl_shape)
{
    setenv("SGL_SHAPE", "core:3", 1);
    unsetenv("SGL_XML");
    cr_expect_eq(workers_of(NULL, TEST_TREE_XML, "pack1-numa2-core3.xml"), 6);
}

Test(runtime, opts_shape_wins_over_sgl_xml)
{
    unsetenv("SGL_SHAPE");
    setenv("SGL_XML", TEST_TREE_XML, 1);
    cr_expect_eq(workers_of("core:2", NULL, "core:2"), 2);
}

Test(runtime, sgl_shape_wins_over_sgl_xml)
{
    setenv("SGL_SHAPE", "core:3", 1);
    setenv("SGL_XML", TEST_TREE_XML, 1);
    cr_expect_eq(workers_of(NULL, NULL, "core:3"), 3);
}

Test(runtime, trace_export, .timeout = 120)
{
    sgl_runtime_t *rt = start("pack:2 core:2");
    RUN_OK(prog_trace(rt));
    cr_assert_eq(sgl_trace_steps(rt), 3);
    const char *files[] = {"trace-test.csv", "trace-test.json",
                           "trace-test.perfetto.json"};
    sgl_trace_format_t fmts[] = {SGL_TRACE_CSV, SGL_TRACE_JSON,
                                 SGL_TRACE_PERFETTO};
    const char *starts[] = {"level,index", "[\n  {\"level\": 0, ",
                            "{\n  \"traceEvents\": [\n    {\"name\": "};
    for (int i = 0; i < 3; i++) {
        RUN_OK(sgl_trace_write(rt, files[i], fmts[i]));
        FILE *f = fopen(files[i], "r");
        cr_assert_not_null(f);
        char head[64] = "";
        cr_assert_gt(fread(head, 1, sizeof head - 1, f), 0);
        cr_assert(strncmp(head, starts[i], strlen(starts[i])) == 0,
                  "%s starts with %s", files[i], head);
        fclose(f);
        remove(files[i]);
    }
    /* CSV: a header and one row per child of the 3 supersteps (2+2+2). */
    RUN_OK(sgl_trace_write(rt, files[0], SGL_TRACE_CSV));
    FILE *f = fopen(files[0], "r");
    int rows = 0;
    for (int ch; (ch = fgetc(f)) != EOF;)
        rows += ch == '\n';
    fclose(f);
    remove(files[0]);
    cr_assert_eq(rows, 1 + 6);
    cr_assert_eq(sgl_trace_write(rt, "/nonexistent/dir/t.csv", SGL_TRACE_CSV),
                 SGL_EIO);
    /* A FIFO with no reader used to block the write in open() until
     * killed: refused at once, by kind (the test's timeout catches a
     * hang). */
    char fifo[] = "/tmp/sgl-trace-fifo-XXXXXX";
    int fd = mkstemp(fifo);
    cr_assert_geq(fd, 0);
    close(fd);
    remove(fifo);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    cr_expect_eq(sgl_trace_write(rt, fifo, SGL_TRACE_CSV), SGL_EIO);
    cr_expect(strstr(sgl_error_last(), "it is a FIFO, not a regular file"),
              "%s", sgl_error_last());
    remove(fifo);
    sgl_trace_clear(rt);
    cr_assert_eq(sgl_trace_steps(rt), 0);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, trace_off)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = "core:2";
    o.trace = 0;
    sgl_runtime_t *rt;
    RUN_OK(sgl_init(NULL, NULL, &o, &rt));
    RUN_OK(prog_register(rt));
    RUN_OK(prog_roundtrip(rt, 1, 100));
    cr_assert_eq(sgl_trace_steps(rt), 0);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, trace_replay_costs_communication_on_the_machine_file)
{
    /* A two-level tree; the replay of the trace program must add exactly
     * k_down g_down + k_up g_up + 2 l per superstep to the measured
     * computation. Large l and g make any slip visible. */
    sgl_runtime_t *rt = start("pack:2 core:2");
    RUN_OK(prog_trace(rt));
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    sgl_machine_t *m;
    RUN_OK(sgl_machine_from_shape("pack:2 core:2", &mo, &m));
    sgl_link_params_t top = {1e-3, 1e-6, 2e-6}, low = {3e-3, 4e-6, 5e-6};
    RUN_OK(sgl_machine_set_level_params(m, 0, &top));
    RUN_OK(sgl_machine_set_level_params(m, 1, &low));
    double replay;
    RUN_OK(sgl_trace_replay(rt, m, &replay));

    sgl_trace_step_t root, kid[2];
    RUN_OK(sgl_trace_step(rt, 0, &root));
    RUN_OK(sgl_trace_step(rt, 1, &kid[0]));
    RUN_OK(sgl_trace_step(rt, 2, &kid[1]));
    cr_assert_eq(root.level, 0);
    double child_cost[2];
    for (int k = 0; k < 2; k++) {
        sgl_trace_step_t *s = &kid[k];
        cr_assert_eq(s->level, 1);
        double down = 0, up = 0, mx = 0;
        for (unsigned i = 0; i < s->children; i++) {
            down += (double)s->down_bytes[i];
            up += (double)s->up_bytes[i];
            mx = fmax(mx, s->child_time[i]);
        }
        double step = s->master_time + mx + down * low.g_down +
                      up * low.g_up + 2 * low.l;
        /* The pack's measured time outside its superstep and its
         * master_time (already in step) is added too. */
        double outside = fmax(0, root.child_time[s->index] -
                                     (s->end - s->start) - s->master_time);
        child_cost[s->index] = step + outside;
    }
    double down = 0, up = 0;
    for (unsigned i = 0; i < 2; i++) {
        down += (double)root.down_bytes[i];
        up += (double)root.up_bytes[i];
    }
    double want = root.master_time + fmax(child_cost[0], child_cost[1]) +
                  down * top.g_down + up * top.g_up + 2 * top.l;
    cr_assert_float_eq(replay, want, 1e-12, "replay %.9g, by hand %.9g",
                       replay, want);
    /* A machine of another shape is refused. */
    sgl_machine_t *other;
    RUN_OK(sgl_machine_from_shape("core:4", &mo, &other));
    cr_assert_eq(sgl_trace_replay(rt, other, &replay), SGL_EINVAL);
    sgl_machine_free(other);
    sgl_machine_free(m);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* The closed form of a recorded flat run: each recorded superstep's bytes
 * as a step of a program whose workers compute nothing, so that its
 * prediction is the model's communication and synchronisation alone. */
struct mirror {
    const sgl_runtime_t *rt;
    unsigned steps;
};

static unsigned mirror_nsteps(void *user, const sgl_node_t *master,
                              const void *task)
{
    (void)master, (void)task;
    return ((const struct mirror *)user)->steps;
}

static int mirror_step(void *user, const sgl_node_t *master,
                       const void *task, unsigned s, sgl_pstep_t *st)
{
    const struct mirror *mi = user;
    sgl_trace_step_t t;
    (void)master, (void)task;
    int rc = sgl_trace_step(mi->rt, s, &t);
    for (unsigned i = 0; !rc && i < st->arity; i++) {
        st->down[i] = (double)t.down_bytes[i];
        st->up[i] = (double)t.up_bytes[i];
    }
    return rc;
}

static int mirror_work(void *user, const sgl_node_t *worker,
                       const void *task, sgl_work_t *w)
{
    (void)user, (void)worker, (void)task, (void)w;
    return SGL_OK;
}

/* A 4-worker random-blocks run recorded on @p rt ("core:4") and a core:4
 * machine with link @p lp at level 0, for the mirror tests below. */
static sgl_machine_t *mirror_setup(sgl_runtime_t *rt,
                                   const sgl_link_params_t *lp)
{
    sgl_trace_clear(rt);
    RUN_OK(prog_random_blocks(rt, 11, 3));
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    sgl_machine_t *m;
    RUN_OK(sgl_machine_from_shape("core:4", &mo, &m));
    RUN_OK(sgl_machine_set_level_params(m, 0, lp));
    return m;
}

/* The replay of @p rt's trace on @p m against its measured computation
 * plus the closed form of the same supersteps (the mirror program): they
 * must agree to rounding. The closed form into @p r; returns the number
 * of supersteps. */
static unsigned replay_is_computation_plus_closed_form(sgl_runtime_t *rt,
                                                       const sgl_machine_t *m,
                                                       sgl_prediction_t *r)
{
    struct mirror mi = {rt, (unsigned)sgl_trace_steps(rt)};
    cr_assert_gt(mi.steps, 1, "too few supersteps recorded");
    double computed = 0;
    sgl_trace_step_t st;
    for (unsigned q = 0; q < mi.steps; q++) {
        RUN_OK(sgl_trace_step(rt, q, &st));
        cr_assert_eq(st.level, 0);
        double slowest = 0;
        for (unsigned i = 0; i < st.children; i++)
            slowest = fmax(slowest, st.child_time[i]);
        computed += st.master_time + slowest;
    }
    sgl_program_t prog = {.name = "mirror", .task_size = 1, .user = &mi,
                          .nsteps = mirror_nsteps, .step = mirror_step,
                          .work = mirror_work};
    char task = 0;
    RUN_OK(sgl_predict_program(m, &prog, &task, r));
    double replay;
    RUN_OK(sgl_trace_replay(rt, m, &replay));
    cr_assert_float_eq(replay, computed + r->total, 1e-12,
                       "replay %.9g, closed form %.9g + computed %.9g",
                       replay, r->total, computed);
    return mi.steps;
}

Test(runtime, trace_replay_agrees_with_the_closed_form)
{
    /* Replay = measured computation + the model's communication, and the
     * closed form of the same supersteps prices that communication: the
     * two must agree to rounding, the fan-out's header term included
     * (set here, as a threads level has none by default). */
    sgl_runtime_t *rt = start("core:4");
    sgl_link_params_t lp = {1e-3, 1e-6, 2e-6};
    sgl_machine_t *m = mirror_setup(rt, &lp);
    RUN_OK(sgl_machine_set_level_header(m, 0, 100));
    sgl_prediction_t r;
    unsigned steps = replay_is_computation_plus_closed_form(rt, m, &r);
    /* The header term is in both: 3 remote children, 100 B each way. */
    cr_assert_float_eq(r.level[0].syncs,
                       steps * (2 * lp.l + 3 * 100 * (lp.g_down + lp.g_up)),
                       1e-15, "syncs %.9g", r.level[0].syncs);
    sgl_machine_free(m);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, trace_replay_prices_the_measured_fan_out_terms)
{
    /* With a level's measured fan-out terms the replay and the closed
     * form both charge o per remote child per superstep in place of the
     * header, and the run's start once. */
    sgl_runtime_t *rt = start("core:4");
    sgl_link_params_t lp = {1e-3, 1e-6, 2e-6};
    sgl_machine_t *m = mirror_setup(rt, &lp);
    RUN_OK(sgl_machine_set_level_header(m, 0, 100));
    sgl_fanout_params_t f = {5e-4, 2e-3, 1e-4};
    RUN_OK(sgl_machine_set_level_fanout(m, 0, &f));
    sgl_prediction_t r;
    unsigned steps = replay_is_computation_plus_closed_form(rt, m, &r);
    cr_assert_float_eq(r.level[0].syncs,
                       steps * (2 * lp.l + 3 * f.o) + f.start_l +
                           3 * f.start_o,
                       1e-15, "syncs %.9g", r.level[0].syncs);
    sgl_machine_free(m);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, trace_replay_prices_the_size_classes)
{
    /* With size classes the replay and the closed form price every
     * child's block at its class's g and wait for the largest class l,
     * both through sgl__size_cost(): they agree, and the classes show. */
    sgl_runtime_t *rt = start("core:4");
    sgl_link_params_t lp = {1e-3, 1e-6, 2e-6};
    sgl_machine_t *m = mirror_setup(rt, &lp);
    RUN_OK(sgl_machine_set_level_header(m, 0, 0));
    sgl_size_class_t c0 = {0, 0, 3e-6, 0, 4e-6};
    sgl_size_class_t c1 = {16, 2e-4, 5e-7, 3e-4, 6e-7};
    RUN_OK(sgl_machine_add_level_size_class(m, 0, &c1));
    RUN_OK(sgl_machine_add_level_size_class(m, 0, &c0));
    sgl_prediction_t r;
    unsigned steps = replay_is_computation_plus_closed_form(rt, m, &r);
    cr_expect_gt(r.level[0].syncs, steps * 2 * lp.l,
                 "a class l was charged: %.9g", r.level[0].syncs);
    cr_expect_neq(r.level[0].scatter + r.level[0].gather,
                  r.level[0].bytes_down * lp.g_down +
                      r.level[0].bytes_up * lp.g_up,
                  "the blocks went at their classes' g");
    sgl_machine_free(m);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, trace_replay_prices_a_direct_exchange_by_the_model)
{
    /* A direct exchange's measured time (master_time, the workers' copies)
     * is what l_h + h g_h stands for: the replay charges the model in its
     * place, once, and every other superstep as before. */
    sgl_runtime_t *rt = start("core:3");
    sgl_trace_clear(rt);
    RUN_OK(prog_exchange(rt, 7, SGL_EXCHANGE_DIRECT));
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    sgl_machine_t *m;
    RUN_OK(sgl_machine_from_shape("core:3", &mo, &m));
    sgl_link_params_t lp = {1e-3, 1e-6, 2e-6};
    sgl_exchange_params_t xp = {5e-3, 3e-6};
    RUN_OK(sgl_machine_set_level_params(m, 0, &lp));
    RUN_OK(sgl_machine_set_level_exchange(m, 0, &xp));
    double replay, want = 0;
    RUN_OK(sgl_trace_replay(rt, m, &replay));
    int exchanges = 0;
    sgl_trace_step_t st;
    for (size_t q = 0; q < sgl_trace_steps(rt); q++) {
        RUN_OK(sgl_trace_step(rt, q, &st));
        cr_assert_eq(st.level, 0);
        double down = 0, up = 0, slowest = 0, h = 0;
        for (unsigned i = 0; i < st.children; i++) {
            down += (double)st.down_bytes[i];
            up += (double)st.up_bytes[i];
            slowest = fmax(slowest, st.child_time[i]);
            h = fmax(h, fmax((double)st.h_sent_bytes[i],
                             (double)st.h_recv_bytes[i]));
        }
        double comm = down * lp.g_down + up * lp.g_up + 2 * lp.l;
        if (st.exchange == SGL_EXCHANGE_DIRECT) {
            exchanges++;
            want += comm + xp.l + h * xp.g;
        } else {
            want += st.master_time + slowest + comm;
        }
    }
    cr_assert_gt(exchanges, 0, "no direct exchange superstep");
    cr_assert_float_eq(replay, want, 1e-12, "replay %.9g, by hand %.9g",
                       replay, want);
    sgl_machine_free(m);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, trace_levels_split_the_time_along_the_critical_path)
{
    /* pack:2 core:2: the root's superstep splits into its time outside
     * the slowest pack (level 0), that pack's own time and its
     * superstep's time outside its slowest core (level 1), and that
     * core's task (level 2); together the root's superstep and its
     * master_time. */
    sgl_runtime_t *rt = start("pack:2 core:2");
    RUN_OK(prog_trace(rt));
    sgl_trace_level_t lv[5];
    for (int i = 0; i < 5; i++)
        lv[i].work = -1; /* past the tree: must come back zero */
    RUN_OK(sgl_trace_levels(rt, lv, 5));
    sgl_trace_step_t root;
    RUN_OK(sgl_trace_step(rt, 0, &root));
    unsigned slow = root.child_time[1] > root.child_time[0];
    cr_assert_float_eq(lv[0].comm,
                       root.end - root.start - root.child_time[slow], 1e-12);
    cr_assert_float_eq(lv[0].work, root.master_time, 1e-12);
    cr_assert_eq(lv[0].supersteps, 1);
    cr_assert_eq(lv[0].exchange, 0);
    sgl_trace_step_t kid;
    int found = 0;
    for (size_t q = 1; q < sgl_trace_steps(rt); q++) {
        RUN_OK(sgl_trace_step(rt, q, &kid));
        if (kid.level == 1 && kid.index == slow) {
            found = 1;
            break;
        }
    }
    cr_assert(found, "no superstep of the slowest pack");
    double kslow = fmax(kid.child_time[0], kid.child_time[1]);
    cr_assert_float_eq(lv[1].comm, kid.end - kid.start - kslow, 1e-12);
    cr_assert_float_eq(lv[1].work,
                       root.child_time[slow] - (kid.end - kid.start), 1e-12);
    cr_assert_eq(lv[1].supersteps, 1);
    cr_assert_float_eq(lv[2].work, kslow, 1e-12);
    cr_assert_eq(lv[2].supersteps, 0);
    double sum = 0;
    for (int d = 0; d < 3; d++)
        sum += lv[d].work + lv[d].comm + lv[d].exchange;
    cr_assert_float_eq(sum, root.end - root.start + root.master_time, 1e-12,
                       "levels add up to %.9g, the root's step %.9g", sum,
                       root.end - root.start + root.master_time);
    for (int d = 3; d < 5; d++)
        cr_assert(lv[d].work == 0 && lv[d].comm == 0 && lv[d].supersteps == 0);
    /* Too few entries, or none, are refused. */
    cr_assert_eq(sgl_trace_levels(rt, lv, 2), SGL_EINVAL);
    cr_assert_eq(sgl_trace_levels(rt, NULL, 3), SGL_EINVAL);
    cr_assert_eq(sgl_trace_levels(NULL, lv, 3), SGL_EINVAL);
    /* An empty trace leaves every level at zero: missing, not made up. */
    sgl_trace_clear(rt);
    RUN_OK(sgl_trace_levels(rt, lv, 3));
    for (int d = 0; d < 3; d++)
        cr_assert(lv[d].supersteps == 0 && lv[d].work == 0 && lv[d].comm == 0);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, trace_levels_count_an_exchange_as_exchange)
{
    /* Time during the exchange supersteps (outside their slowest child,
     * their master_time, the children's own) goes to the exchange, not to
     * comm or work; the levels still add up to the root's supersteps and
     * master_times. */
    sgl_runtime_t *rt = start("pack:2 core:2");
    sgl_trace_clear(rt);
    RUN_OK(prog_exchange(rt, 5, SGL_EXCHANGE_DIRECT));
    sgl_trace_level_t lv[3];
    RUN_OK(sgl_trace_levels(rt, lv, 3));
    double whole = 0, xmaster = 0;
    int exchanges = 0;
    sgl_trace_step_t st;
    for (size_t q = 0; q < sgl_trace_steps(rt); q++) {
        RUN_OK(sgl_trace_step(rt, q, &st));
        if (st.level != 0)
            continue;
        whole += st.end - st.start + st.master_time;
        if (st.exchange) {
            exchanges++;
            xmaster += st.master_time;
        }
    }
    cr_assert_gt(exchanges, 0, "no exchange superstep at the root");
    cr_assert_geq(lv[0].exchange, xmaster);
    /* The workers' copies in the exchange are their level's exchange. */
    cr_assert_gt(lv[2].exchange, 0);
    double sum = 0;
    for (int d = 0; d < 3; d++)
        sum += lv[d].work + lv[d].comm + lv[d].exchange;
    cr_assert_float_eq(sum, whole, 1e-12, "levels %.9g, root steps %.9g", sum,
                       whole);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, oversubscription_is_allowed_with_a_warning)
{
    sgl_runtime_t *rt = start("core:64");
    RUN_OK(prog_roundtrip(rt, 9, 10000));
    const char *w = sgl_runtime_warning(rt);
    cr_assert_not_null(w);
    cr_assert(strstr(w, "64 worker threads") && strstr(w, "oversubscribed"),
              "%s", w);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* OpenMP's barrier waits spin unless OMP_WAIT_POLICY says otherwise: the
 * warning says what to set, and only while nothing is set. */
Test(runtime, oversubscription_warning_names_omp_wait_policy_when_unset)
{
    unsetenv("OMP_WAIT_POLICY");
    sgl_runtime_t *rt = start("core:64");
    const char *w = sgl_runtime_warning(rt);
    cr_assert(w && strstr(w, "set OMP_WAIT_POLICY=PASSIVE"), "%s", w);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, oversubscription_warning_quiet_on_omp_wait_policy_when_set)
{
    setenv("OMP_WAIT_POLICY", "ACTIVE", 1);
    sgl_runtime_t *rt = start("core:64");
    const char *w = sgl_runtime_warning(rt);
    cr_assert(w && strstr(w, "oversubscribed") &&
                  !strstr(w, "OMP_WAIT_POLICY"),
              "%s", w);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* Counts in messages agree with their nouns: one process "is" running. */
Test(runtime, process_count_message_says_1_is_running)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = "rank:2 core:1";
    sgl_runtime_t *rt = NULL;
    cr_assert_neq(sgl_init(NULL, NULL, &o, &rt), SGL_OK);
    cr_assert(strstr(sgl_error_last(), "needs 2 MPI processes but 1 is running"),
              "%s", sgl_error_last());
}

Test(runtime, no_warning_within_the_cores)
{
    sgl_runtime_t *rt = start("core:1");
    cr_assert_null(sgl_runtime_warning(rt));
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, trace_keeps_at_most_trace_max_records_and_counts_the_rest)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = "core:2";
    o.trace_max = 3;
    sgl_runtime_t *rt;
    RUN_OK(sgl_init(NULL, NULL, &o, &rt));
    RUN_OK(prog_register(rt));
    /* The roundtrip runs two supersteps at the root per program. */
    for (int i = 0; i < 4; i++)
        RUN_OK(prog_roundtrip(rt, (uint64_t)i, 100));
    cr_assert_eq(sgl_trace_steps(rt), 3);
    cr_assert_eq(sgl_trace_dropped(rt), 5);
    sgl_trace_clear(rt);
    cr_assert_eq(sgl_trace_dropped(rt), 0);
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

/* Supersteps whose staged bytes name their number: step k gives child i
 * (k + i) % 13 bytes. */
static int empty_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)ctx, (void)arg, (void)size;
    return SGL_OK;
}

static int numbered_steps(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    size_t steps = *(const size_t *)arg;
    unsigned p = sgl_ctx_children(root);
    size_t *counts = malloc(p * sizeof *counts);
    static const char bytes[13] = {0};
    int rc = counts ? SGL_OK : SGL_ENOMEM;
    for (size_t k = 0; !rc && k < steps; k++) {
        for (unsigned i = 0; i < p; i++)
            counts[i] = (k + i) % 13;
        for (unsigned i = 0; !rc && i < p; i++) {
            void *d;
            rc = sgl_scatter_buffer(root, i, 1, counts[i], &d);
            if (!rc && counts[i])
                memcpy(d, bytes, counts[i]);
        }
        if (!rc)
            rc = sgl_pardo(root, empty_task, NULL, 0);
    }
    free(counts);
    return rc;
}

/* Every record reads back as written, across the trace's storage
 * segments (the first holds 64 KiB of records, each later one 2 MiB):
 * on 2 children a record is 168 bytes, so 16000 steps fill three
 * segments; on 2000 children one record fills the first segment and 21
 * the later ones. With @max under @steps the trace is a ring holding the
 * newest @max in order, the older ones counted as dropped. A cleared
 * trace records again in the same storage. */
static void check_numbered_trace(const char *shape, size_t steps, size_t max)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    o.trace_max = max;
    sgl_runtime_t *rt;
    RUN_OK(sgl_init(NULL, NULL, &o, &rt));
    RUN_OK(prog_register(rt));
    RUN_OK(sgl_task_register(rt, empty_task, "empty_task"));
    size_t cap = max ? max : 4096; /* SGL__TRACE_MAX_DEFAULT */
    size_t kept = steps < cap ? steps : cap, first = steps - kept;
    for (int round = 0; round < 2; round++) {
        sgl_trace_clear(rt);
        RUN_OK(sgl_run(rt, numbered_steps, &steps, sizeof steps));
        cr_assert_eq(sgl_trace_steps(rt), kept, "%s: %zu records, not %zu",
                     shape, sgl_trace_steps(rt), kept);
        cr_assert_eq(sgl_trace_dropped(rt), first);
        unsigned long seq0 = 0;
        for (size_t k = first; k < steps; k++) {
            sgl_trace_step_t s;
            RUN_OK(sgl_trace_step(rt, k - first, &s));
            if (k == first)
                seq0 = s.seq;
            cr_assert_eq(s.seq, seq0 + (k - first), "%s: step %zu has seq %lu",
                         shape, k, s.seq);
            cr_assert(s.end >= s.start);
            for (unsigned i = 0; i < s.children; i++) {
                cr_assert_eq(s.down_bytes[i], (k + i) % 13,
                             "%s: step %zu child %u: %zu bytes down", shape,
                             k, i, s.down_bytes[i]);
                cr_assert_eq(s.up_bytes[i], 0);
                cr_assert_eq(s.h_sent_bytes[i] + s.h_recv_bytes[i], 0);
                cr_assert(s.child_time[i] >= 0);
            }
        }
    }
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}

Test(runtime, trace_reads_back_across_its_segments)
{
    check_numbered_trace("core:2", 16000, 16000);
}

Test(runtime, trace_of_a_wide_master_reads_back_across_its_segments)
{
    check_numbered_trace("core:2000", 50, 0);
}

/* A long loop keeps the newest records: by default 4096 per master (a
 * bounded memory), or trace_max, across segments, or wrapping many times
 * round a small ring. (One runtime per process: one test each.) */
Test(runtime, trace_keeps_the_newest_records_of_a_long_loop)
{
    check_numbered_trace("core:2", 5000, 0 /* default: 4096 */);
}

Test(runtime, trace_ring_across_segments_keeps_the_newest)
{
    check_numbered_trace("core:2", 16000, 5000);
}

Test(runtime, trace_small_ring_keeps_the_newest)
{
    check_numbered_trace("core:2", 100, 7);
}

/* SGL_EXCHANGE_AUTO by the model: direct where the machine file says
 * nothing about exchanges (its guess from the links), routed at a level
 * whose exchanges are priced far above its gathers and scatters; an
 * explicit method overrides; the exchanges stay correct either way. */
Test(runtime, exchange_method_by_the_model)
{
    sgl_runtime_t *rt = start("pack:2 core:3");
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    sgl_machine_t *params = NULL;
    cr_assert_eq(sgl_machine_from_shape("pack:2 core:3", &mo, &params),
                 SGL_OK);
    sgl_link_params_t lp = {1e-6, 1e-9, 1e-9};
    cr_assert_eq(sgl_machine_set_level_params(params, 0, &lp), SGL_OK);
    cr_assert_eq(sgl_machine_set_level_params(params, 1, &lp), SGL_OK);
    RUN_OK(sgl_runtime_set_params(rt, params));
    cr_expect_eq(sgl_runtime_exchange_method(rt, 0), SGL_EXCHANGE_DIRECT);
    cr_expect_eq(sgl_runtime_exchange_method(rt, 1), SGL_EXCHANGE_DIRECT);
    sgl_exchange_params_t slow = {1e-6, 1e-6};
    cr_assert_eq(sgl_machine_set_level_exchange(params, 0, &slow), SGL_OK);
    RUN_OK(sgl_runtime_set_params(rt, params));
    cr_expect_eq(sgl_runtime_exchange_method(rt, 0), SGL_EXCHANGE_ROUTED);
    cr_expect_eq(sgl_runtime_exchange_method(rt, 1), SGL_EXCHANGE_DIRECT);
    RUN_OK(prog_exchange(rt, 77, SGL_EXCHANGE_AUTO));
    RUN_OK(sgl_runtime_set_exchange(rt, 0, SGL_EXCHANGE_DIRECT));
    cr_expect_eq(sgl_runtime_exchange_method(rt, 0), SGL_EXCHANGE_DIRECT);
    sgl_machine_t *other = NULL;
    cr_assert_eq(sgl_machine_from_shape("core:6", &mo, &other), SGL_OK);
    cr_expect_eq(sgl_runtime_set_params(rt, other), SGL_EINVAL);
    cr_expect_eq(sgl_runtime_set_exchange(rt, 9, SGL_EXCHANGE_ROUTED),
                 SGL_EINVAL);
    cr_expect_eq(sgl_runtime_set_exchange(rt, 0, (sgl_exchange_method_t)7),
                 SGL_EINVAL);
    sgl_machine_free(other);
    sgl_machine_free(params);
    sgl_finalize(rt);
}

/* The trace of an exchange at the root of core:3: worker w sends w + 1
 * doubles to every worker (itself included), so child i sends
 * 2 (i + 1) 8 bytes across the root's child boundaries and receives
 * (sum of the others' w + 1) 8 bytes; a routed exchange records its two
 * supersteps and no horizontal bytes. */
static double tx_block[3][3 * 3];

static int tx_stage(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t w = sgl_ctx_first_worker(ctx), counts[3] = {w + 1, w + 1, w + 1};
    return sgl_exchange_put(ctx, tx_block[w], sizeof(double), 0, 3, counts);
}

static int tx_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    int rc = sgl_pardo(root, tx_stage, NULL, 0);
    return rc ? rc : sgl_exchange(root);
}

Test(runtime, trace_records_the_exchange)
{
    sgl_runtime_t *rt = start("core:3");
    for (int method = SGL_EXCHANGE_DIRECT; method <= SGL_EXCHANGE_ROUTED;
         method++) {
        RUN_OK(sgl_runtime_set_exchange(rt, 0, (sgl_exchange_method_t)method));
        sgl_trace_clear(rt);
        RUN_OK(sgl_run(rt, tx_main, NULL, 0));
        size_t exchanges = 0;
        for (size_t k = 0; k < sgl_trace_steps(rt); k++) {
            sgl_trace_step_t s;
            RUN_OK(sgl_trace_step(rt, k, &s));
            if (!s.exchange)
                continue;
            exchanges++;
            cr_expect_eq(s.exchange, method);
            for (unsigned i = 0; i < 3; i++) {
                size_t sent = method == SGL_EXCHANGE_DIRECT ? 2 * (i + 1) * 8
                                                            : 0;
                size_t recv = method == SGL_EXCHANGE_DIRECT
                                  ? (6 - (i + 1)) * 8
                                  : 0;
                cr_expect_eq(s.h_sent_bytes[i], sent, "child %u sent %zu", i,
                             s.h_sent_bytes[i]);
                cr_expect_eq(s.h_recv_bytes[i], recv, "child %u got %zu", i,
                             s.h_recv_bytes[i]);
            }
        }
        cr_expect_eq(exchanges, method == SGL_EXCHANGE_DIRECT ? 1u : 2u,
                     "%zu exchange supersteps recorded", exchanges);
    }
    sgl_finalize(rt);
}

/* sgl_mem_alloc(): a pointer for 0 bytes; from 4 MiB aligned to 2 MiB
 * (the huge-page advice itself is a hint, not checked); memory that can
 * be written to its last byte and released with free(); NULL, not a crash,
 * for a size no system has. */
Test(runtime, mem_alloc)
{
    void *none = sgl_mem_alloc(0);
    cr_assert_not_null(none);
    free(none);
    static const size_t sizes[] = {1, 4096, ((size_t)4 << 20) - 1,
                                   (size_t)4 << 20, ((size_t)5 << 20) + 3};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        unsigned char *p = sgl_mem_alloc(sizes[i]);
        cr_assert_not_null(p, "%zu bytes", sizes[i]);
        if (sizes[i] >= ((size_t)4 << 20))
            cr_assert_eq((uintptr_t)p % ((size_t)2 << 20), 0, "%zu bytes at %p",
                         sizes[i], (void *)p);
        memset(p, 0xa5, sizes[i]);
        cr_assert_eq(p[sizes[i] - 1], 0xa5);
        free(p);
    }
    /* ASan's allocator aborts on such a size instead of returning NULL
     * (tests/run sets no allocator_may_return_null): the plain build
     * checks it. */
#ifndef __SANITIZE_ADDRESS__
    cr_assert_null(sgl_mem_alloc(SIZE_MAX - 4096));
#endif
}
