/* Failing children, beyond tests/runtime's prog_failing_worker (which
 * checks one ETASK worker at the first, middle and last position): the
 * failing child's own code comes back unchanged, a master that fails after
 * its own pardo is named, the first of several failing children wins, a
 * failure two levels down carries both positions, and the next program
 * runs. Runs alone (thread levels) or under mpiexec with SGL_SHAPE; rank 0
 * prints TAP with each message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs.h"
#include <sgl/sgl.h>
#include "tap.h"

struct plan {
    size_t victim[2];   /* workers that fail (SIZE_MAX: none) */
    int code[2];        /* their codes */
    unsigned master_level; /* a master at this level fails (0: none) */
};

static int plan_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const struct plan *p = arg;
    size_t w = sgl_ctx_first_worker(ctx);
    if (sgl_ctx_is_worker(ctx)) {
        for (int i = 0; i < 2; i++)
            if (p->victim[i] == w)
                return sgl_error_set(p->code[i], "worker %zu fails with %s",
                                     w, sgl_error_name(p->code[i]));
        return SGL_OK;
    }
    int rc = sgl_pardo(ctx, plan_task, arg, size);
    if (rc == SGL_OK && p->master_level == sgl_ctx_level(ctx) &&
        sgl_ctx_index(ctx) == 0)
        return sgl_error_set(SGL_ESIZE, "master at level %u fails after "
                                        "its pardo",
                             sgl_ctx_level(ctx));
    return rc;
}

static int plan_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    return plan_task(root, arg, size);
}

static int count(const char *s, const char *sub)
{
    int n = 0;
    for (const char *q = s; (q = strstr(q, sub)); q++)
        n++;
    return n;
}

static int rank;

static void run_plan(sgl_runtime_t *rt, const char *what, struct plan p,
                     int want, const char *want_text, int want_depth)
{
    /* Every rank runs both programs; only rank 0 judges and prints. */
    int rc = sgl_run(rt, plan_main, &p, sizeof p);
    const char *msg = sgl_error_last();
    char note[1400];
    int ok = rc == want && strstr(msg, want_text) &&
             count(msg, "child ") == want_depth;
    snprintf(note, sizeof note, "%s: %s%s", sgl_error_name(rc), msg,
             ok ? "" : " (unexpected)");
    if (rank == 0)
        tap_ok(what, ok, note);
    /* The runtime stays usable. */
    rc = prog_roundtrip(rt, 11, 1009);
    if (rank != 0)
        return;
    tap_ok("  next program runs", rc == SGL_OK,
           rc ? sgl_error_last() : "roundtrip of 1009 OK");
}

/* Depth of worker w's leaf: the number of "child" prefixes its error gets. */
static int depth_of(const sgl_machine_t *m, size_t w)
{
    return (int)sgl_node_level(sgl_machine_worker(m, w));
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (rc != SGL_OK) {
        fprintf(stderr, "sgl_init: %s\n", sgl_error_last());
        return 1;
    }
    rank = sgl_runtime_rank(rt);
    if (prog_register(rt) || sgl_task_register(rt, plan_task, "plan")) {
        fprintf(stderr, "register: %s\n", sgl_error_last());
        return 1;
    }
    tap_quiet = rank != 0;
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    size_t p = sgl_machine_workers(m);
    unsigned depth = sgl_machine_depth(m);
    if (rank == 0)
        printf("# shape %s: %zu workers, %zu processes, depth %u\n",
               sgl_machine_source(m), p, sgl_machine_processes(m), depth);
    char want[96], what[128];
    static const int codes[] = {SGL_ENOMEM, SGL_ERANGE, SGL_EIO};
    for (int i = 0; i < 3; i++) {
        size_t v = (p - 1) * (size_t)i / 2;
        struct plan pl = {{v, SIZE_MAX}, {codes[i], 0}, 0};
        snprintf(want, sizeof want, "worker %zu fails with %s", v,
                 sgl_error_name(codes[i]));
        snprintf(what, sizeof what, "worker %zu (depth %d) returns %s", v,
                 depth_of(m, v), sgl_error_name(codes[i]));
        run_plan(rt, what, pl, codes[i], want, depth_of(m, v));
    }
    if (p > 1) {
        struct plan pl = {{p - 1, 0}, {SGL_EIO, SGL_ERANGE}, 0};
        snprintf(what, sizeof what, "workers 0 and %zu fail: the first "
                                    "child's error wins",
                 p - 1);
        run_plan(rt, what, pl, SGL_ERANGE, "worker 0 fails with SGL_ERANGE",
                 depth_of(m, 0));
    }
    if (depth >= 2) {
        struct plan pl = {{SIZE_MAX, SIZE_MAX}, {0, 0}, 1};
        run_plan(rt, "master 0 of level 1 fails after its pardo", pl,
                 SGL_ESIZE, "master at level 1 fails after its pardo", 1);
    }
    if (sgl_finalize(rt) != SGL_OK)
        tap_failed++;
    return tap_done();
}
