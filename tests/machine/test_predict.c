/* The predictor against costs computed by hand: flat BSP as the one-level
 * case, 2- and 3-level trees, heterogeneous fan-outs, c and links, the
 * small-message regime, and its errors. Parameters are small integers in
 * seconds so that every expected value is exact. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include <sgl/machine.h>
#include <sgl/predict.h>

#include "machine_text.h"

static sgl_machine_t *shape(const char *s)
{
    sgl_machine_t *m = NULL;
    cr_assert_eq(sgl_machine_from_shape(s, NULL, &m), SGL_OK, "%s: %s", s,
                 sgl_error_last());
    return m;
}

/* Header bytes 0: the hand computations below price the paper's 2 l per
 * superstep; the fan-out term has tests of its own (test_fanout.c). */
static void set_level(sgl_machine_t *m, unsigned level, double l,
                      double g_down, double g_up)
{
    sgl_link_params_t p = {l, g_down, g_up};
    cr_assert_eq(sgl_machine_set_level_params(m, level, &p), SGL_OK, "%s",
                 sgl_error_last());
    cr_assert_eq(sgl_machine_set_level_header(m, level, 0), SGL_OK, "%s",
                 sgl_error_last());
}

static void set_all_kernels(sgl_machine_t *m, double c)
{
    const char *k[] = {"sum", "product", "scan", "sort", "merge"};
    for (size_t i = 0; i < 5; i++)
        cr_assert_eq(sgl_machine_set_kernel(m, k[i], c), SGL_OK);
}

/* A prediction, split by speed or (@by_workers) by worker count. */
static sgl_prediction_t predict_split(const sgl_machine_t *m,
                                      sgl_predict_algo_t algo, double n,
                                      double elem_bytes, int by_workers)
{
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    o.elem_bytes = elem_bytes;
    o.by_workers = by_workers;
    sgl_prediction_t r;
    cr_assert_eq(sgl_predict_algorithm(m, algo, n, &o, &r), SGL_OK, "%s",
                 sgl_error_last());
    /* The levels always add up to the total. */
    double sum = 0;
    for (unsigned l = 0; l < r.levels; l++)
        sum += sgl_level_cost_own(&r.level[l]);
    cr_expect(fabs(sum - r.total) <= 1e-12 * r.total, "levels %.17g total "
                                                      "%.17g",
              sum, r.total);
    return r;
}

static sgl_prediction_t predict(const sgl_machine_t *m,
                                sgl_predict_algo_t algo, double n,
                                double elem_bytes)
{
    return predict_split(m, algo, n, elem_bytes, 0);
}

/* Flat BSP, p = 64, g = 4 per word, l = 50000, c = 1, n = 1e8 prefix sum
 * (scan-then-offset). Words are 4 bytes, so g = 1 s/byte and one element
 * is one word. The SGL program has two supersteps at the root, each with
 * the two syncs of the model (the scatter that starts the pardo and the
 * gather that ends it):
 *   S1 (up):   empty scatter; every worker scans its n/p elements; gather
 *              one total per worker (p words); the root scans the p totals.
 *   S2 (down): scatter one offset per worker (p words); every worker adds
 *              its offset to its n/p elements; empty gather.
 * As BSP: W = n/p + p + n/p = 2n/p + p, H = p + p = 2p words, S = 4 syncs:
 *   T = W + H*g + S*l = 3125064 + 128*4 + 4*50000 = 3325576. */
Test(predict, flat_bsp_prefix_sum)
{
    unsigned fan = 64;
    sgl_machine_t *m = NULL;
    cr_assert_eq(sgl_machine_from_fanouts(&fan, NULL, 1, NULL, &m), SGL_OK);
    double g_word = 4, l = 50000, n = 1e8, p = 64;
    set_level(m, 0, l, g_word / 4, g_word / 4);
    set_all_kernels(m, 1);
    sgl_prediction_t r = predict(m, SGL_PREDICT_SCAN, n, 4);
    double W = 2 * n / p + p, H = 2 * p, S = 4;
    cr_expect_eq(r.total, W + H * g_word + S * l, "total %.17g", r.total);
    cr_expect_eq(r.total, 3325576);
    cr_expect_eq(r.levels, 2);
    cr_expect_eq(r.level[0].work, p);
    cr_expect_eq(r.level[0].scatter, p * g_word);
    cr_expect_eq(r.level[0].gather, p * g_word);
    cr_expect_eq(r.level[0].syncs, S * l);
    cr_expect_eq(r.level[0].supersteps, 2);
    cr_expect_eq(r.level[1].work, 2 * n / p);
    cr_expect_eq(r.sequential, n);
    expect_near(r.speedup, n / 3325576, "speed-up");
    expect_near(r.efficiency, n / 3325576 / 64, "efficiency");

    /* Reduction: one superstep, W = n/p + p, H = p, S = 2. */
    r = predict(m, SGL_PREDICT_REDUCE, n, 4);
    cr_expect_eq(r.total, n / p + p + p * g_word + 2 * l);

    /* PSRS as BSP with m = n/p = 1562500: four supersteps of two syncs
     * each, one of them an exchange among the workers. No exchange
     * parameters are set, so l_h = l and g_h = max(g_down, g_up) = 1 s
     * per byte. The local sort is a linear radix sort: c(sort) per
     * element. In bytes (eb = 4):
     * S1: sort m = 1562500; 3s+2 words of 8 bytes up per worker (its
     *     size, s = max(P, 256) = 256 samples of key, place, mass); the
     *     root merges the P s samples, P s log2 P = 16384 * 6 = 98304
     * S2: 4P words down per worker (pivots, groups); split P log2 m;
     *     nothing up
     * X:  each worker sends m/P elements to each of the P-1 others and a
     *     count of 8 bytes to each: h = m (P-1)/P * 4 + 8 (P-1); nothing
     *     through the root
     * S3: merge m log2 P = 9375000; its size (8 bytes) up.
     * Workers: W1 = 1562500 + 64 log2(1562500) + 9375000; root: 98304. */
    double mm = n / p;
    double W1 = 1562500 + p * log2(mm) + 9375000;
    double s = 256; /* samples per worker: max(P, 256) */
    double B = p * (3 * s + 2) * 8 + p * 4 * p * 8 + p * 8;
    double h = mm * (p - 1) / p * 4 + 8 * (p - 1);
    r = predict(m, SGL_PREDICT_PSRS, n, 4);
    expect_near(r.total, W1 + 98304 + B + 8 * l + l + h, "psrs");
    expect_near(r.level[1].work, W1, "psrs workers' work");
    expect_near(r.level[0].work, 98304, "psrs root's work");
    expect_near(r.level[0].exchange, l + h, "psrs exchange");
    cr_expect_eq(r.level[0].bytes_h, h);
    cr_expect_eq(r.level[0].supersteps, 4);
    /* One worker: its radix sort of all n elements, n * c(sort). */
    cr_expect_eq(r.sequential, 1e8, "psrs sequential %.17g", r.sequential);
    /* With a "copy" kernel (c = 2): the root concatenates the samples,
     * (3s+2) P words; the workers copy nothing (buckets are staged and
     * runs merged in place). */
    cr_assert_eq(sgl_machine_set_kernel(m, "copy", 2), SGL_OK);
    r = predict(m, SGL_PREDICT_PSRS, n, 4);
    expect_near(r.level[1].work, W1, "psrs workers' work, copy");
    expect_near(r.level[0].work, 98304 + 2 * 770 * 64,
                "psrs root's work, copy");
    cr_expect_eq(r.sequential, 1e8, "psrs sequential, copy");
    sgl_machine_free(m);
}

/* scan-then-offset and reduce-then-scan differ in the kernels only. */
Test(predict, scan_variants)
{
    sgl_machine_t *m = shape("core:4");
    set_level(m, 0, 10, 1, 1);
    cr_assert_eq(sgl_machine_set_kernel(m, "sum", 1), SGL_OK);
    cr_assert_eq(sgl_machine_set_kernel(m, "scan", 2), SGL_OK);
    /* sto: up 100*2 + 4*2 + 4 + 20, down 4 + 100*2 + 20 */
    cr_expect_eq(predict(m, SGL_PREDICT_SCAN, 400, 1).total, 456);
    /* rts: up 100*1 + 4*1 + 4 + 20, down 4*2 + 4 + 100*2 + 20 */
    cr_expect_eq(predict(m, SGL_PREDICT_SCAN_RTS, 400, 1).total, 360);
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    o.elem_bytes = 1;
    o.centralised = 1;
    sgl_prediction_t r;
    /* Centralised: the blocks go down in S1 and back up in S2. */
    cr_assert_eq(sgl_predict_algorithm(m, SGL_PREDICT_SCAN, 400, &o, &r),
                 SGL_OK);
    cr_expect_eq(r.total, 456 + 400 + 400);
    sgl_machine_free(m);
}

/* Two levels, homogeneous: reduce of n = 600 on rank:2 core:3, c = 1.
 *   worker:  100
 *   rank:    100 + 3 (fold) + 3 bytes * 0.25 + 2*10   = 123.75
 *   root:    123.75 + 2 + 2 bytes * 3 + 2*100         = 331.75 */
Test(predict, two_levels)
{
    sgl_machine_t *m = shape("rank:2 core:3");
    set_level(m, 0, 100, 2, 3);
    set_level(m, 1, 10, 0.5, 0.25);
    set_all_kernels(m, 1);
    sgl_prediction_t r = predict(m, SGL_PREDICT_REDUCE, 600, 1);
    cr_expect_eq(r.total, 331.75);
    cr_expect_eq(r.level[2].work, 100);
    cr_expect_eq(r.level[1].gather, 0.75);
    cr_expect_eq(r.level[1].syncs, 20);
    cr_expect_eq(r.level[0].gather, 6);
    cr_expect_eq(r.level[0].bytes_up, 2);
    cr_expect_eq(r.sequential, 600);
    /* PSRS copies only (every other c 0, copy 1), n = 600, P = 6: every
     * master concatenates the 3s+2 = 770 sample words (s = max(P, 256))
     * of each worker below it: a node 2310, the root 4620; workers copy
     * nothing. */
    set_all_kernels(m, 0);
    cr_assert_eq(sgl_machine_set_kernel(m, "copy", 1), SGL_OK);
    r = predict(m, SGL_PREDICT_PSRS, 600, 1);
    cr_expect_eq(r.level[2].work, 0);
    cr_expect_eq(r.level[1].work, 2310);
    cr_expect_eq(r.level[0].work, 4620);
    sgl_machine_free(m);
}

/* PSRS on rank:2 core:2 by hand: n = 400, eb = 1, P = 4, m = 100;
 * level 0: l 100, g 1, exchange l_h 7, g_h 3; level 1: l 10, g 0.5,
 * exchange l_h 1, g_h 2; c(sort) = c(merge) = 1.
 * Exchange h: at the root W_X = 4, W_i = 2: h_i = 2*100*2/4 = 100 bytes
 * (each worker's 25 for each of the 2 workers of the other node) and
 * 2*2 counts of 8 bytes, 132; at a node W_X = 2, W_i = 1:
 * h_i = 1*100*1/4 = 25 and one count, 33. So the exchange terms are
 * 7 + 132*3 = 403 at the root and 1 + 33*2 = 67 at a node; nothing of
 * the exchange passes through a master.
 * Workers: S1 100, S2 4 log2 100, X 0, S3 100 log2 4 = 200.
 * Node, per superstep (2l = 20); a worker's samples are 3*256+2 = 770
 * words (6160 bytes: s = max(P, 256) samples), the pivots 4*4 words
 * (128 bytes):
 *   S1 100 + 2*6160 bytes up *0.5 + 20                = 6280
 *   S2 4 log2 100 + 2*128 down *0.5 + 20              = 148 + 4 log2 100
 *   X  0 + 20 + 67                                    = 87
 *   S3 200 + 2*8 up *0.5 + 20                         = 228
 * Root (2l = 200):
 *   S1 6280 + 4*6160 up + 200 + merge 4*256 log2 4    = 33168
 *   S2 (148 + 4 log2 100) + 2*128 down + 200          = 604 + 4 log2 100
 *   X  87 + 200 + 403                                 = 690
 *   S3 228 + 4*8 up + 200                             = 460 */
Test(predict, psrs_exchange_by_hand)
{
    sgl_machine_t *m = shape("rank:2 core:2");
    set_level(m, 0, 100, 1, 1);
    set_level(m, 1, 10, 0.5, 0.5);
    set_all_kernels(m, 1);
    sgl_exchange_params_t x0 = {7, 3}, x1 = {1, 2};
    cr_assert_eq(sgl_machine_set_level_exchange(m, 0, &x0), SGL_OK);
    cr_assert_eq(sgl_machine_set_level_exchange(m, 1, &x1), SGL_OK);
    sgl_prediction_t r = predict(m, SGL_PREDICT_PSRS, 400, 1);
    double total = 33168 + 604 + 4 * log2(100) + 690 + 460;
    expect_near(r.total, total, "psrs total");
    expect_near(r.level[0].exchange, 403, "root's exchange");
    expect_near(r.level[1].exchange, 67, "node's exchange");
    cr_expect_eq(r.level[0].bytes_h, 132);
    cr_expect_eq(r.level[1].bytes_h, 33);
    cr_expect_eq(r.level[2].exchange, 0);
    /* A slower exchange link at the root costs h * delta, at the nodes
     * their own h * delta; neither touches the vertical terms. */
    x0.g = 5;
    cr_assert_eq(sgl_machine_set_level_exchange(m, 0, &x0), SGL_OK);
    sgl_prediction_t slow = predict(m, SGL_PREDICT_PSRS, 400, 1);
    expect_near(slow.total, total + 132 * 2, "root's g_h 3 -> 5");
    cr_expect_eq(slow.level[0].scatter, r.level[0].scatter);
    cr_expect(slow.speedup < r.speedup);
    x1.g = 0;
    cr_assert_eq(sgl_machine_set_level_exchange(m, 1, &x1), SGL_OK);
    slow = predict(m, SGL_PREDICT_PSRS, 400, 1);
    expect_near(slow.total, total + 132 * 2 - 33 * 2, "node's g_h 2 -> 0");
    sgl_machine_free(m);
}

/* PSRS by level against flat. On a tree of one level they are one sort
 * and one price. On 1024 x 16 workers (the shape of
 * machines/cluster-1024x16.sgl, with its parameters), flat's root sorts
 * P^2 = 2^28 samples, 2^28 * 14 merge levels * 0.6 ns = 2.25 s alone,
 * while by level it sorts 1024 units x 1024 samples, 2^20 * 10 * 0.6 ns
 * = 6.3 ms; each element then moves twice, which costs far less at
 * n = 1e8 (6104 elements per worker). */
Test(predict, psrs_levels_where_it_pays)
{
    sgl_machine_t *flat = shape("core:8");
    set_level(flat, 0, 10, 1, 1);
    set_all_kernels(flat, 1);
    sgl_prediction_t a = predict(flat, SGL_PREDICT_PSRS, 1e6, 8);
    sgl_prediction_t b = predict(flat, SGL_PREDICT_PSRS_LEVELS, 1e6, 8);
    cr_expect_eq(a.total, b.total, "one level: %g and %g", a.total, b.total);
    sgl_machine_free(flat);

    sgl_machine_t *m = shape("rank:1024 core:16");
    set_level(m, 0, 150e-6, 0.1e-9, 0.1e-9);
    set_level(m, 1, 0.8e-6, 0.05e-9, 0.06e-9);
    set_all_kernels(m, 0.6e-9);
    cr_assert_eq(sgl_machine_set_kernel(m, "sort", 4e-9), SGL_OK);
    a = predict(m, SGL_PREDICT_PSRS, 1e8, 8);
    b = predict(m, SGL_PREDICT_PSRS_LEVELS, 1e8, 8);
    cr_expect_gt(a.level[0].work, 2.25, "flat root's sample sort %g",
                 a.level[0].work);
    expect_near(b.level[0].work, 1048576 * 10 * 0.6e-9,
                "by level, the root's sample sort");
    cr_expect_lt(b.total * 100, a.total, "by level %g s, flat %g s", b.total,
                 a.total);
    cr_expect_gt(b.speedup, 8, "by level, speed-up %g", b.speedup);
    /* Every worker sorts once, at the top; by level it merges twice. */
    cr_expect_eq(b.sequential, a.sequential);
    sgl_machine_free(m);
}

/* Size tables and memory peers. rank:2 core:3, reduce of n = 600, every
 * worker 100 elements. "sum" has c 1 at n <= 10 and 3 at n >= 1000 alone
 * (2 at n = 100 by log-linear interpolation) and 5 at any n with 3 busy.
 * Level 1 (threads) shares memory, level 0 (MPI) does not by default, so
 * a worker has 3 memory peers and c = 5; a master's fold of its 3
 * children (n = 3, one busy) c = 1; the one-worker time at n = 600 alone
 * 600 * (2 + log10(6) / 1) ... = 600 * (2 + (log 600 - log 100) /
 * (log 1000 - log 100)).
 *   level 1 master: 100*5 + 3*1 + 3*0.25 + 2*10 = 523.75
 *   root:           523.75 + 2*1 + 2*3 + 2*100 = 731.75
 * With level 0 set to share memory, 6 peers: c = 5 still (the nearest
 * measured busy count beyond the table); with level 1 private, c = 2. */
Test(predict, kernel_tables)
{
    sgl_machine_t *m = shape("rank:2 core:3");
    set_level(m, 0, 100, 2, 3);
    set_level(m, 1, 10, 0.5, 0.25);
    cr_assert_eq(sgl_machine_set_kernel_point(m, "sum", 10, 1, 1), SGL_OK);
    cr_assert_eq(sgl_machine_set_kernel_point(m, "sum", 1000, 1, 3), SGL_OK);
    cr_assert_eq(sgl_machine_set_kernel_point(m, "sum", 10, 3, 5), SGL_OK);
    sgl_prediction_t r = predict(m, SGL_PREDICT_REDUCE, 600, 1);
    expect_near(r.level[2].work, 500, "workers' work");
    expect_near(r.total, 731.75, "total");
    double c600 = 2 + (log(600) - log(100)) / (log(1000) - log(100));
    expect_near(r.sequential, 600 * c600, "one worker");
    cr_assert_eq(sgl_machine_set_level_memory(m, 0, SGL_MEMORY_SHARED),
                 SGL_OK);
    r = predict(m, SGL_PREDICT_REDUCE, 600, 1);
    expect_near(r.total, 731.75, "total, 6 peers");
    cr_assert_eq(sgl_machine_set_level_memory(m, 1, SGL_MEMORY_PRIVATE),
                 SGL_OK);
    r = predict(m, SGL_PREDICT_REDUCE, 600, 1);
    expect_near(r.level[2].work, 200, "workers' work, private memory");
    expect_near(r.total, 431.75, "total, private memory");
    sgl_machine_free(m);
}

/* Heterogeneous: fan-outs 2 and 4, c per worker, one master's link
 * overridden. Reduce of n = 600: every worker holds 100 elements.
 *   node 0 (workers 0,1; c 1, 3):  max(100, 300) + 2*1 + 2*0.25 + 2*10
 *                                  = 322.5
 *   node 1 (workers 2..5; c 1,1,1,2; l 1, g_up 0.1):
 *                                  max(100, 200) + 4*1 + 4*0.1 + 2*1
 *                                  = 206.4
 *   root: 322.5 + 2*1 + 2*3 + 2*100 = 530.5 */
Test(predict, heterogeneous)
{
    sgl_machine_t *m = shape("rank:2 core:[2,4]");
    set_level(m, 0, 100, 2, 3);
    set_level(m, 1, 10, 0.5, 0.25);
    cr_assert_eq(sgl_machine_set_kernel(m, "sum", 1), SGL_OK);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 1, "sum", 3), SGL_OK);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 5, "sum", 2), SGL_OK);
    sgl_link_params_t fast = {1, 0.5, 0.1};
    cr_assert_eq(sgl_machine_set_node_params(m, sgl_machine_master(m, 1, 1),
                                             &fast),
                 SGL_OK);
    /* Split by worker count: the slow workers set the pace. */
    sgl_prediction_t r = predict_split(m, SGL_PREDICT_REDUCE, 600, 1, 1);
    cr_expect_eq(r.total, 530.5);
    cr_expect_eq(r.level[2].work, 300, "critical worker is worker 1");
    cr_expect_eq(r.level[1].work, 2);
    cr_expect_eq(r.level[1].gather, 0.5);
    cr_expect_eq(r.level[1].syncs, 20);
    cr_expect_eq(r.level[0].syncs, 200);
    /* Slow worker 1 is on the critical path; make node 1 slower still. */
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 4, "sum", 4), SGL_OK);
    /* node 1: 400 + 4 + 0.4 + 2 = 406.4 > 322.5 */
    r = predict_split(m, SGL_PREDICT_REDUCE, 600, 1, 1);
    expect_near(r.total, 406.4 + 2 + 6 + 200, "slower node 1");
    cr_expect_eq(r.level[1].syncs, 2);
    sgl_machine_free(m);
}

/* By speed, as the runtime splits: worker 1 at half speed gets a third
 * of the elements, and both finish at once; by worker count it sets the
 * pace with half of them. */
Test(predict, split_by_speed)
{
    sgl_machine_t *m = shape("core:2");
    set_level(m, 0, 10, 0, 0);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 0, "sum", 1), SGL_OK);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 1, "sum", 2), SGL_OK);
    sgl_prediction_t r = predict(m, SGL_PREDICT_REDUCE, 300, 1);
    cr_expect_eq(r.level[1].work, 200, "by speed: %g", r.level[1].work);
    r = predict_split(m, SGL_PREDICT_REDUCE, 300, 1, 1);
    cr_expect_eq(r.level[1].work, 300, "by workers: %g", r.level[1].work);
    sgl_machine_free(m);
}

/* ---- a generic program on three levels ---- */

/* Every master runs two supersteps; in superstep s it scatters 10*(s+1)
 * bytes and gathers 5 bytes per child, works 1 element of kernel "k", and
 * each child runs the same program; a worker works 7 elements. */
static unsigned g_nsteps(void *user, const sgl_node_t *n, const void *task)
{
    (void)user;
    (void)n;
    (void)task;
    return 2;
}

static int g_step(void *user, const sgl_node_t *n, const void *task,
                  unsigned s, sgl_pstep_t *st)
{
    (void)user;
    (void)n;
    for (unsigned i = 0; i < st->arity; i++) {
        st->down[i] = 10.0 * (s + 1);
        st->up[i] = 5;
        memcpy((char *)st->child_task + i, task, 1);
    }
    st->master.nterms = 1;
    st->master.term[0].kernel = "k";
    st->master.term[0].amount = 1;
    return SGL_OK;
}

static int g_work(void *user, const sgl_node_t *n, const void *task,
                  sgl_work_t *w)
{
    (void)user;
    (void)n;
    (void)task;
    w->nterms = 1;
    w->term[0].kernel = "k";
    w->term[0].amount = 7;
    return SGL_OK;
}

static const sgl_program_t generic = {
    .name = "generic", .task_size = 1, .nsteps = g_nsteps,
    .step = g_step, .work = g_work};

static sgl_machine_t *three_levels(void)
{
    sgl_machine_t *m = shape("rack:2 rank:2 core:2");
    set_level(m, 0, 1000, 1, 1);
    set_level(m, 1, 100, 0.1, 0.2);
    set_level(m, 2, 10, 0.01, 0.02);
    cr_assert_eq(sgl_machine_set_kernel(m, "k", 1), SGL_OK);
    cr_assert_eq(sgl_machine_set_worker_kernel(m, 7, "k", 2), SGL_OK);
    return m;
}

/* Worker 7 (c = 2) makes node 3 and rack 1 critical.
 *   node 3, per superstep s: 14 + 1 + 2*10(s+1)*0.01 + 2*5*0.02 + 20
 *           = 35.4, 35.6 -> 71
 *   rack 1: 71 + 1 + 2*10(s+1)*0.1 + 2*5*0.2 + 200 = 276, 278 -> 554
 *   root:   554 + 1 + 2*10(s+1)*1 + 2*5*1 + 2000 = 2585, 2605 -> 5190
 * Along the critical path: workers 2*2*2 supersteps of 14 = 112, nodes
 * 4 runs of 43 = 172, racks 2 runs of 412 = 824, root 4082. */
Test(predict, three_levels_generic)
{
    sgl_machine_t *m = three_levels();
    char task = 0;
    sgl_prediction_t r;
    cr_assert_eq(sgl_predict_program(m, &generic, &task, &r), SGL_OK, "%s",
                 sgl_error_last());
    expect_near(r.total, 5190, "total");
    expect_near(r.level[3].work, 112, "workers");
    expect_near(sgl_level_cost_own(&r.level[2]), 172, "nodes");
    expect_near(sgl_level_cost_own(&r.level[1]), 824, "racks");
    expect_near(sgl_level_cost_own(&r.level[0]), 4082, "root");
    cr_expect_eq(r.level[2].supersteps, 8);
    cr_expect_eq(r.level[1].supersteps, 4);
    cr_expect_eq(r.level[0].supersteps, 2);
    cr_expect_eq(r.sequential, 7);

    /* Small messages at the root: up to 10 bytes per child cost l = 500
     * and g = 0.5. Superstep 0 scatters 10 and gathers 5 bytes per child
     * (both small); superstep 1 scatters 20 (large) and gathers 5 (small):
     *   root: 554 + 1 + 20*0.5 + 500 + 10*0.5 + 500   = 1570
     *       + 554 + 1 + 40*1 + 1000 + 10*0.5 + 500    = 2100 -> 3670 */
    sgl_link_params_t small = {500, 0.5, 0.5};
    cr_assert_eq(sgl_machine_set_level_small_params(m, 0, &small, 10),
                 SGL_OK);
    cr_assert_eq(sgl_predict_program(m, &generic, &task, &r), SGL_OK);
    expect_near(r.total, 3670, "small regime");
    sgl_machine_free(m);
}

/* The same tree with one exchange superstep at every master: no scatter
 * or gather payload, the master's own 1 element of "k", h[i] = 3 + i
 * bytes (so max_i h = 4 on these binary masters). Exchange parameters:
 * root l_h 300, g_h 2; level 1 none set, so the guess from its link,
 * l_h = 100, g_h = max(0.1, 0.2) = 0.2; level 2 l_h 5, g_h 0.5.
 *   node 3: 14 + 1 + 2*10 + 5 + 4*0.5       = 42
 *   rack 1: 42 + 1 + 2*100 + 100 + 4*0.2    = 343.8
 *   root:   343.8 + 1 + 2*1000 + 300 + 4*2  = 2652.8
 * With user set to a double, h is given without the exchange flag (0: a
 * program bug), or child 0's h is that double (NaN: a bug; inf: an
 * overflow). */
static int x_step(void *user, const sgl_node_t *n, const void *task,
                  unsigned s, sgl_pstep_t *st)
{
    (void)n;
    (void)s;
    for (unsigned i = 0; i < st->arity; i++) {
        st->h[i] = 3 + i;
        memcpy((char *)st->child_task + i, task, 1);
    }
    const double *bad = user;
    st->exchange = !bad || *bad != 0;
    if (bad && *bad != 0)
        st->h[0] = *bad;
    st->master.nterms = 1;
    st->master.term[0].kernel = "k";
    st->master.term[0].amount = 1;
    return SGL_OK;
}

static unsigned x_nsteps(void *user, const sgl_node_t *n, const void *task)
{
    (void)user;
    (void)n;
    (void)task;
    return 1;
}

Test(predict, exchange_generic)
{
    sgl_machine_t *m = three_levels();
    sgl_exchange_params_t x0 = {300, 2}, x2 = {5, 0.5};
    cr_assert_eq(sgl_machine_set_level_exchange(m, 0, &x0), SGL_OK);
    cr_assert_eq(sgl_machine_set_level_exchange(m, 2, &x2), SGL_OK);
    sgl_program_t prog = generic;
    prog.nsteps = x_nsteps;
    prog.step = x_step;
    char task = 0;
    sgl_prediction_t r;
    cr_assert_eq(sgl_predict_program(m, &prog, &task, &r), SGL_OK, "%s",
                 sgl_error_last());
    expect_near(r.total, 2652.8, "total");
    expect_near(r.level[0].exchange, 308, "root's exchange");
    expect_near(r.level[1].exchange, 100.8, "racks' exchange, guessed");
    expect_near(r.level[2].exchange, 7, "nodes' exchange");
    expect_near(sgl_level_cost_own(&r.level[1]), 1 + 200 + 100.8,
                "racks' own cost includes the exchange");
    for (unsigned l = 0; l < 3; l++)
        cr_expect_eq(r.level[l].bytes_h, 4, "level %u", l);
    cr_expect_eq(r.level[3].exchange, 0);
    /* g_h scales the root's term only. */
    x0.g = 4;
    cr_assert_eq(sgl_machine_set_level_exchange(m, 0, &x0), SGL_OK);
    cr_assert_eq(sgl_predict_program(m, &prog, &task, &r), SGL_OK);
    expect_near(r.total, 2652.8 + 8, "g_h doubled");
    double bad[] = {0, NAN, -1, INFINITY};
    const char *want[] = {"without an exchange", "negative or NaN",
                          "negative or NaN", "the prediction overflows"};
    for (size_t i = 0; i < 4; i++) {
        prog.user = &bad[i];
        cr_expect_eq(sgl_predict_program(m, &prog, &task, &r),
                     isinf(bad[i]) ? SGL_ERANGE : SGL_EINVAL, "case %zu", i);
        cr_expect(strstr(sgl_error_last(), want[i]), "case %zu: %s", i,
                  sgl_error_last());
    }
    sgl_machine_free(m);
}

Test(predict, one_worker)
{
    sgl_machine_t *m = shape("core:1");
    set_all_kernels(m, 2);
    sgl_prediction_t r = predict(m, SGL_PREDICT_SCAN, 1000, 8);
    cr_expect_eq(r.total, 2000);
    cr_expect_eq(r.speedup, 1);
    cr_expect_eq(r.levels, 1);
    sgl_machine_free(m);
}

Test(predict, errors)
{
    sgl_machine_t *m = shape("rank:2 core:2");
    sgl_prediction_t r;
    set_all_kernels(m, 1);
    set_level(m, 0, 1, 1, 1);
    cr_expect_eq(sgl_predict_algorithm(m, SGL_PREDICT_REDUCE, 100, NULL, &r),
                 SGL_ERANGE);
    cr_expect(strstr(sgl_error_last(), "level 1"), "%s", sgl_error_last());
    set_level(m, 1, 1, 1, 1);
    cr_expect_eq(sgl_predict_algorithm(m, SGL_PREDICT_REDUCE, 0, NULL, &r),
                 SGL_EINVAL);
    cr_expect_eq(sgl_predict_algorithm(m, (sgl_predict_algo_t)9, 10, NULL, &r),
                 SGL_EINVAL);
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    o.op_kernel = "xor";
    cr_expect_eq(sgl_predict_algorithm(m, SGL_PREDICT_REDUCE, 100, &o, &r),
                 SGL_ERANGE);
    cr_expect(strstr(sgl_error_last(), "kernel 'xor'"), "%s",
              sgl_error_last());
    sgl_predict_algo_t a;
    cr_expect_eq(sgl_predict_algo_from_name("scan-rts", &a), SGL_OK);
    cr_expect_eq(a, SGL_PREDICT_SCAN_RTS);
    cr_expect_eq(sgl_predict_algo_from_name("bogo", &a), SGL_EINVAL);
    cr_expect_str_eq(sgl_predict_algo_name(SGL_PREDICT_PSRS), "psrs");
    sgl_program_t bad = generic;
    bad.work = NULL;
    char task = 0;
    cr_expect_eq(sgl_predict_program(m, &bad, &task, &r), SGL_EINVAL);
    sgl_machine_free(m);
}

/* The shipped paper machine predicts without error for every algorithm,
 * and a larger n never predicts a shorter time. */
Test(predict, paper_machine)
{
    sgl_machine_t *m = NULL;
    cr_assert_eq(sgl_machine_load(SGL_MACHINES_DIR "/paper-16x8.sgl", &m),
                 SGL_OK, "%s", sgl_error_last());
    for (int a = SGL_PREDICT_REDUCE; a <= SGL_PREDICT_PSRS; a++) {
        sgl_prediction_t small = predict(m, (sgl_predict_algo_t)a, 1e6, 8);
        sgl_prediction_t big = predict(m, (sgl_predict_algo_t)a, 1e8, 8);
        cr_expect(big.total > small.total, "%s",
                  sgl_predict_algo_name((sgl_predict_algo_t)a));
        cr_expect(big.efficiency > 0 && big.efficiency <= 1);
    }
    sgl_machine_free(m);
}
