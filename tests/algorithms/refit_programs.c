/* Checks of sgl_runtime_refit_kernel() against the public API alone: the
 * trace is made to measure a known speed profile (equal sleeps, unequal
 * declared work), and every c, ratio and weight the refit gives is
 * recomputed here from that profile. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sgl/algorithms.h>
#include <sgl/balance.h>
#include <sgl/trace.h>

#include "check_helpers.h"
#include "refit_programs.h"
#include "test_util.h"

/* Every worker's task sleeps this long: the times the refit reads are
 * all this plus the scheduler's lateness and the replies' way, so their
 * ratios are those of the declared work within a few per cent. The way
 * is not small: across two simulated hosts (TCP) on a 2-core box, a
 * rack of three ranks delivered about 7 ms after its task, 16-20% of a
 * 40 ms sleep (2.3-2.5% of this one). */
#define SLEEP_S 0.3
/* Work that a worker of relative c 1 declares. */
#define UNITS 1e6
/* How far a fitted ratio may stray from the profile's: the sleeps'
 * lateness and the replies' way against SLEEP_S. On a loaded box they
 * are not small either: at load 7-9 on 2 cores, rack:2 rank:2 delivered
 * one worker's 0.2 s sleep 17% later than another's. 0.25 still tells
 * apart every two ratios the profiles give (the nearest, 2 and 3, are
 * 33% apart), and the window's pricing is checked exactly against the
 * fits it prices (check_window()), which no load moves. */
#define RATIO_TOL 0.25

/* Worker @w's c relative to worker 0's in profile @k. */
static double profile(unsigned k, size_t w) { return 1 + k * (double)(w % 3); }

enum mode { SLEEP, WEIGHTS };
struct walk_arg {
    enum mode mode;
    unsigned k;
};

/* Down to every worker. SLEEP: sleep SLEEP_S and declare
 * UNITS / profile(k, w); WEIGHTS: hand up the worker's weight in kernel
 * "refit" as its own process computes it. Masters hand up their workers'
 * values in worker order. */
static int walk_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct walk_arg *a = arg;
    if (sgl_ctx_is_master(ctx)) {
        SGL_TRY(sgl_pardo(ctx, walk_task, a, sizeof *a));
        void *v = NULL;
        size_t n;
        SGL_TRY(sgl_gather_alloc(ctx, sizeof(double), &v, &n, NULL));
        int rc = sgl_put(ctx, v, sizeof(double), n);
        free(v);
        return rc;
    }
    size_t w = sgl_ctx_first_worker(ctx);
    double out = 0;
    if (a->mode == SLEEP) {
        struct timespec t = {0, (long)(SLEEP_S * 1e9)};
        while (nanosleep(&t, &t) != 0)
            ;
        SGL_TRY(sgl_ctx_add_work(ctx, UNITS / profile(a->k, w)));
    } else {
        SGL_TRY(sgl_ctx_worker_weights(ctx, "refit", w, 1, &out));
    }
    return sgl_put(ctx, &out, sizeof out, 1);
}

/* At the root, with the c the refit gave (P doubles) as its argument:
 * every worker's weight, computed in its own process, is the one these
 * c give (the fastest SGL_WEIGHT_ONE, the others in proportion), and a
 * split without weights (the balance kernel is "refit") gives each child
 * its workers' share. */
static int weights_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    const double *c = arg;
    size_t p = sgl_ctx_workers(root);
    CHECK(size == p * sizeof *c, "weights: %zu bytes of c for %zu workers",
          size, p);
    struct walk_arg a = {WEIGHTS, 0};
    SGL_TRY(sgl_pardo(root, walk_task, &a, sizeof a));
    double *got = NULL;
    size_t n;
    SGL_TRY(sgl_gather_alloc(root, sizeof *got, (void **)&got, &n, NULL));
    double fast = INFINITY;
    for (size_t w = 0; w < p; w++)
        fast = fmin(fast, c[w]);
    int rc = n == p ? SGL_OK
                    : sgl_error_set(SGL_ETASK, "weights: %zu of %zu", n, p);
    for (size_t w = 0; !rc && w < p; w++) {
        double want = nearbyint(fast / c[w] * SGL_WEIGHT_ONE);
        want = fmax(1, want);
        if (fabs(got[w] - want) > 1)
            rc = sgl_error_set(SGL_ETASK,
                               "worker %zu weighs %.0f in its process, "
                               "the refit's c give %.0f",
                               w, got[w], want);
    }
    unsigned kids = sgl_ctx_children(root);
    size_t split[64], n_split = 1000003;
    if (!rc && kids <= 64)
        rc = sgl_ctx_split(root, n_split, NULL, split);
    double total = 0;
    for (size_t w = 0; !rc && w < p; w++)
        total += got[w];
    for (unsigned i = 0, w = 0; !rc && kids <= 64 && i < kids; i++) {
        double mine = 0;
        for (size_t k = 0; k < sgl_ctx_child_workers(root, i); k++)
            mine += got[w++];
        double want = (double)n_split * mine / total;
        if (fabs((double)split[i] - want) > 1)
            rc = sgl_error_set(SGL_ETASK,
                               "child %u's split is %zu, its workers' "
                               "weights give %.1f",
                               i, split[i], want);
    }
    free(got);
    return rc;
}

/* A program that calls the refit from its root task: refused. */
static sgl_runtime_t *g_rt;
static int inside_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)root, (void)arg, (void)size;
    EXPECT(sgl_runtime_refit_kernel(g_rt, "refit", 1, NULL), SGL_ESTATE,
           "called in a program");
    return SGL_OK;
}

/* A vector reduced (@sort 0) or sorted: work the algorithms declare. */
static int algo_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    int sort = *(const int *)arg;
    uint64_t seed = 7;
    sgl_dvec_t *v = NULL;
    SGL_TRY(sgl_dvec_create(root, SGL_F64, 0, 100003, SGL_FILL_RANDOM, &seed,
                        sizeof seed, &v));
    double sum;
    int rc = sort ? sgl_dvec_sort(root, v, NULL)
                  : sgl_dvec_reduce(root, v, SGL_OP_SUM, 0, &sum);
    int r2 = sgl_dvec_free(root, v);
    return rc ? rc : r2;
}

int refit_test_register(sgl_runtime_t *rt)
{
    g_rt = rt;
    int rc = sgl_task_register(rt, walk_task, "test.refit.walk");
    if (!rc)
        rc = sgl_task_register(rt, weights_main, "test.refit.weights");
    if (!rc)
        rc = sgl_task_register(rt, inside_main, "test.refit.inside");
    return rc ? rc : sgl_task_register(rt, algo_main, "test.refit.algo");
}

/* A fresh trace of one run in which the workers measure profile @k. */
static int measure(sgl_runtime_t *rt, unsigned k)
{
    sgl_trace_clear(rt);
    struct walk_arg a = {SLEEP, k};
    return sgl_run(rt, walk_task, &a, sizeof a);
}

/* Every worker's c against worker 0's is @want(w) within RATIO_TOL, and
 * the runtime's tree holds exactly @c. */
static int check_ratios(sgl_runtime_t *rt, const double *c, size_t p,
                        double (*want)(size_t), const char *what)
{
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    for (size_t w = 0; w < p; w++) {
        double r = c[w] / c[0], x = want(w);
        CHECK(fabs(r / x - 1) <= RATIO_TOL,
              "%s: worker %zu's c is %.3f times worker 0's, expected %.3f",
              what, w, r, x);
        double in_tree = sgl_node_kernel(sgl_machine_worker(m, w), "refit");
        CHECK(in_tree == c[w], "%s: worker %zu's c in the tree is %g, the "
                               "refit gave %g",
              what, w, in_tree, c[w]);
    }
    return SGL_OK;
}

static double want_k1(size_t w) { return profile(1, w); }
static double want_k8(size_t w) { return profile(8, w); }
/* Two fits, ratios lo = profile 1's and hi = profile 8's: priced at
 * lo (1 + hi) / (1 + lo), 26-35% from either end. */
static double want_window(size_t w)
{
    double lo = profile(1, w), hi = profile(8, w);
    return lo * (1 + hi) / (1 + lo);
}

/* Each worker's c is at least the sleep's time per unit it declared:
 * what was measured is never faster than the sleep (and at most ten
 * times it, a bound only a broken fit crosses). */
static int check_absolute(const double *c, size_t p, unsigned k)
{
    for (size_t w = 0; w < p; w++) {
        double t = c[w] * UNITS / profile(k, w);
        CHECK(t >= SLEEP_S * 0.999 && t <= 10 * SLEEP_S,
              "worker %zu's c gives %.4f s for its work, slept %.3f s", w, t,
              SLEEP_S);
    }
    return SGL_OK;
}

/* The c of kernel @k in the runtime's tree, every worker's, into @c. */
static void tree_c(sgl_runtime_t *rt, const char *k, double *c, size_t p)
{
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    for (size_t w = 0; w < p; w++)
        c[w] = sgl_node_kernel(sgl_machine_worker(m, w), k);
}

/* Whether the c of "refit" in the runtime's tree are still @was. */
static int same_c(sgl_runtime_t *rt, const double *was, double *now, size_t p,
                  const char *what)
{
    tree_c(rt, "refit", now, p);
    for (size_t w = 0; w < p; w++)
        CHECK(memcmp(&was[w], &now[w], sizeof *was) == 0,
              "%s changed worker %zu's c from %g to %g", what, w, was[w],
              now[w]);
    return SGL_OK;
}

/* The window of 2 (@c2) is the pricing of its two fits, the older @c1
 * and the newer @c8 (each a window of 1), as balance.h states it: each
 * worker at lo (1 + hi) / (1 + lo) times the newer fit's fastest c,
 * [lo, hi] its ratios to that worker in the two. Exact but for rounding:
 * the fits are whatever the load made them, the pricing is arithmetic. */
static int check_window(const double *c1, const double *c8, const double *c2,
                        size_t p)
{
    size_t fast = 0;
    for (size_t w = 1; w < p; w++)
        if (c8[w] < c8[fast])
            fast = w;
    for (size_t w = 0; w < p; w++) {
        double a = c8[w] / c8[fast], b = c1[w] / c1[fast];
        double lo = fmin(a, b), hi = fmax(a, b);
        double want = c8[fast] * lo * (1 + hi) / (1 + lo);
        CHECK(fabs(c2[w] / want - 1) <= 1e-9,
              "window of 2: worker %zu's c is %g, its fits (%g, %g; "
              "fastest %g, %g) price it at %g",
              w, c2[w], c1[w], c8[w], c1[fast], c8[fast], want);
    }
    return SGL_OK;
}

/* The fits of profiles 1 and 8 and the window over them; @c1 and @c2
 * have room for @p c each. */
static int check_fits_in(sgl_runtime_t *rt, double *c, double *c1,
                         double *c2, size_t p)
{
    SGL_TRY(measure(rt, 1));
    if (p == 1) {
        /* A tree of one worker runs no superstep: nothing measures it. */
        EXPECT(sgl_runtime_refit_kernel(rt, "refit", 1, c), SGL_ESTATE,
               "declared work");
        return SGL_OK;
    }
    SGL_TRY(sgl_runtime_set_balance_kernel(rt, "refit"));
    SGL_TRY(sgl_runtime_refit_kernel(rt, "refit", 1, c));
    SGL_TRY(check_ratios(rt, c, p, want_k1, "profile 1"));
    SGL_TRY(check_absolute(c, p, 1));
    memcpy(c1, c, p * sizeof *c);
    SGL_TRY(sgl_run(rt, weights_main, c, p * sizeof *c));
    /* The window: the range of the two newest fits prices each worker. */
    SGL_TRY(measure(rt, 8));
    SGL_TRY(sgl_runtime_refit_kernel(rt, "refit", 2, c));
    SGL_TRY(check_ratios(rt, c, p, want_window, "window of 2"));
    memcpy(c2, c, p * sizeof *c);
    SGL_TRY(sgl_run(rt, weights_main, c, p * sizeof *c));
    /* A window of one takes the newest fit alone: the same trace, so the
     * same fit the window of 2 priced. */
    SGL_TRY(sgl_runtime_refit_kernel(rt, "refit", 1, c));
    SGL_TRY(check_ratios(rt, c, p, want_k8, "window of 1"));
    SGL_TRY(check_absolute(c, p, 8));
    return check_window(c1, c, c2, p);
}

/* Measurements of the profiles before a ratio off by more than RATIO_TOL
 * fails the check. The ratios are of wall-clock times, which a loaded
 * host stretches unevenly: at load 10-12 on 2 cores across two simulated
 * hosts (hosts-balance-hetero-2h-np4), worker 5's time once came out 28%
 * longer than worker 0's ("3.834 times worker 0's, expected 3.000").
 * Such lateness is random and rarely strikes three measurements in a
 * row; a refit that is wrong, or ignores the profile (ratio 1 where 2, 3,
 * 9 or 17 are due), is wrong in every one, so it still fails. Only the
 * ratio checks are retried: the exact ones (the tree holds the fit, the
 * window prices its fits) fail at once. Every process sees the same c,
 * so all retry together. */
#define FIT_ATTEMPTS 3

static int check_fits(sgl_runtime_t *rt, double *c, size_t p)
{
    double *c1 = malloc(2 * p * sizeof *c1);
    CHECK(c1, "out of memory");
    int rc = SGL_OK;
    for (int a = 1; a <= FIT_ATTEMPTS; a++) {
        rc = check_fits_in(rt, c, c1, c1 + p, p);
        if (rc != SGL_ETASK || a == FIT_ATTEMPTS ||
            !strstr(sgl_error_last(), "times worker 0's, expected"))
            break;
        if (sgl_runtime_rank(rt) == 0)
            printf("# refit: measurement %d of %d off: %s; measuring "
                   "again\n",
                   a, FIT_ATTEMPTS, sgl_error_last());
    }
    free(c1);
    return rc;
}

/* The algorithms declare their kernels' work: a refit of each after it
 * ran gives every worker a c. */
static int check_algorithms(sgl_runtime_t *rt, double *c, size_t p)
{
    static const char *const kernel[2] = {"sum", "sort"};
    for (int sort = 0; sort < 2; sort++) {
        sgl_trace_clear(rt);
        SGL_TRY(sgl_run(rt, algo_main, &sort, sizeof sort));
        if (p == 1) {
            EXPECT(sgl_runtime_refit_kernel(rt, kernel[sort], 1, c),
                   SGL_ESTATE, "declared work");
            continue;
        }
        SGL_TRY(sgl_runtime_refit_kernel(rt, kernel[sort], 1, c));
        for (size_t w = 0; w < p; w++)
            CHECK(c[w] > 0 && isfinite(c[w]),
                  "%s: worker %zu's c is %g after the algorithm ran",
                  kernel[sort], w, c[w]);
    }
    return SGL_OK;
}

int refit_check(sgl_runtime_t *rt)
{
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    double *c = malloc(p * sizeof *c);
    CHECK(c, "out of memory");
    int rc = sgl_runtime_set_balance(rt, SGL_BALANCE_SPEED);
    if (!rc)
        rc = check_fits(rt, c, p);
    if (!rc)
        rc = check_algorithms(rt, c, p);
    free(c);
    int r2 = sgl_runtime_set_balance_kernel(rt, NULL);
    if (!r2)
        r2 = sgl_runtime_set_balance(rt, SGL_BALANCE_WORKERS);
    return rc ? rc : r2;
}

int refit_check_errors(sgl_runtime_t *rt)
{
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    double *was = malloc(2 * p * sizeof *was), *now = was + p;
    CHECK(was, "out of memory");
    tree_c(rt, "refit", was, p);
    int rc = SGL_OK;
#define REFUSED(call, code, text)                                             \
    if (!rc)                                                                  \
    rc = test_expect((call), (code), (text), #call)
    REFUSED(sgl_runtime_refit_kernel(NULL, "refit", 1, NULL), SGL_EINVAL,
            "NULL argument");
    REFUSED(sgl_runtime_refit_kernel(rt, NULL, 1, NULL), SGL_EINVAL,
            "NULL argument");
    REFUSED(sgl_runtime_refit_kernel(rt, "re fit", 1, NULL), SGL_EINVAL,
            "bad kernel name 're fit'");
    REFUSED(sgl_runtime_refit_kernel(rt, "refit", 0, NULL), SGL_EINVAL,
            "window 0 is outside 1..8");
    REFUSED(sgl_runtime_refit_kernel(rt, "refit", SGL_REFIT_WINDOW_MAX + 1,
                                     NULL),
            SGL_EINVAL, "window 9 is outside 1..8");
    /* A trace without declared work: nothing to fit. */
    sgl_trace_clear(rt);
    REFUSED(sgl_runtime_refit_kernel(rt, "refit", 1, NULL), SGL_ESTATE,
            "declared work (sgl_ctx_add_work())");
    if (!rc)
        rc = sgl_run(rt, inside_main, NULL, 0);
    /* A collective call with different arguments in different processes
     * would give them different weights: refused in all. */
    int rank = sgl_runtime_rank(rt);
    if (sgl_machine_processes(sgl_runtime_machine(rt)) > 1) {
        REFUSED(sgl_runtime_refit_kernel(rt, "refit", 1 + (unsigned)(rank % 2),
                                         NULL),
                SGL_EINVAL, "different kernels or windows");
        /* Two names with one FNV-1a hash, which the check once compared. */
        REFUSED(sgl_runtime_refit_kernel(rt, rank % 2 ? "kfkylqwu" : "kvfducqd",
                                         1, NULL),
                SGL_EINVAL, "different kernels or windows");
        /* One process's bad argument is every process's refusal: none is
         * left waiting in the call. */
        REFUSED(sgl_runtime_refit_kernel(rt, "refit", rank == 1 ? 0 : 1, NULL),
                SGL_EINVAL,
                rank == 1 ? "window 0 is outside 1..8"
                          : "failed on another rank");
    }
#undef REFUSED
    if (!rc)
        rc = same_c(rt, was, now, p, "a refused refit");
    free(was);
    return rc;
}

static int check_auto(sgl_runtime_t *rt, double *c, double *now, size_t p)
{
    SGL_TRY(sgl_runtime_set_balance_kernel(rt, "refit"));
    SGL_TRY(sgl_runtime_set_refit(rt, 1));
    CHECK(sgl_runtime_refit_window(rt) == 1, "refit window %u, set 1",
          sgl_runtime_refit_window(rt));
    /* The trace is not cleared: the refit reads this run's steps only. */
    struct walk_arg a = {SLEEP, 8};
    SGL_TRY(sgl_run(rt, walk_task, &a, sizeof a));
    a.k = 1;
    SGL_TRY(sgl_run(rt, walk_task, &a, sizeof a));
    tree_c(rt, "refit", c, p);
    if (p == 1)
        /* No superstep measured the one worker: no c of its own. */
        return isnan(c[0]) ? SGL_OK
                           : sgl_error_set(SGL_ETASK, "one worker got c %g",
                                           c[0]);
    SGL_TRY(check_ratios(rt, c, p, want_k1, "after a run"));
    SGL_TRY(check_absolute(c, p, 1));
    /* A run that declares no work measures nothing. */
    SGL_TRY(sgl_run(rt, weights_main, c, p * sizeof *c));
    SGL_TRY(same_c(rt, c, now, p, "a run without work"));
    /* Off: runs leave the c. */
    SGL_TRY(sgl_runtime_set_refit(rt, 0));
    a.k = 8;
    SGL_TRY(sgl_run(rt, walk_task, &a, sizeof a));
    return same_c(rt, c, now, p, "a run with the refit off");
}

int refit_check_auto(sgl_runtime_t *rt)
{
    size_t p = sgl_machine_workers(sgl_runtime_machine(rt));
    double *c = malloc(2 * p * sizeof *c);
    CHECK(c, "out of memory");
    int rc = sgl_runtime_set_balance(rt, SGL_BALANCE_SPEED);
    if (!rc)
        rc = check_auto(rt, c, c + p, p);
    if (!rc)
        rc = test_expect(sgl_runtime_set_refit(rt, SGL_REFIT_WINDOW_MAX + 1),
                         SGL_EINVAL, "window 9 is over 8", "set_refit(9)");
    if (!rc)
        rc = test_expect(sgl_runtime_set_refit(NULL, 1), SGL_EINVAL,
                         "NULL runtime", "set_refit(NULL)");
    free(c);
    int r2 = sgl_runtime_set_refit(rt, 0);
    if (!r2)
        r2 = sgl_runtime_set_balance_kernel(rt, NULL);
    if (!r2)
        r2 = sgl_runtime_set_balance(rt, SGL_BALANCE_WORKERS);
    return rc ? rc : r2;
}
