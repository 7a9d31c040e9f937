/* Processes that registered different tasks, against sgl_task_register()'s
 * rule (every process the same tasks, in the same order): a pardo that
 * sends a process a task it holds under another name, or not at all,
 * fails with SGL_ENOTASK on every rank, with no hang, and the next program
 * runs. Under mpiexec with SGL_SHAPE; rank 0 prints TAP. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "programs.h"
#include <sgl/sgl.h>
#include "tap.h"

/* The same recursive step under three names: every worker runs it. */
#define STEP(name)                                                             \
    static int name(sgl_ctx_t *ctx, const void *arg, size_t size)              \
    {                                                                          \
        return sgl_ctx_is_worker(ctx) ? SGL_OK                                 \
                                      : sgl_pardo(ctx, name, arg, size);       \
    }
STEP(step_a)
STEP(step_b)
STEP(step_c)

static int rank;

/* Run @step from the root: SGL_ENOTASK on every rank, its message with
 * @detail and the rule, then a program of the tasks all processes share. */
static void expect_refused(sgl_runtime_t *rt, const char *what,
                           sgl_task_fn step, const char *detail)
{
    int rc = sgl_run(rt, step, NULL, 0);
    const char *msg = sgl_error_last();
    int ok = rc == SGL_ENOTASK && strstr(msg, detail) &&
             strstr(msg, "must register the same tasks in the same order");
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    char note[1400];
    snprintf(note, sizeof note, "%s: %s%s", sgl_error_name(rc), msg,
             all ? "" : " (not so on every rank)");
    if (rank == 0)
        tap_ok(what, all, note);
    rc = prog_roundtrip(rt, 11, 1009);
    if (rank == 0)
        tap_ok("  next program runs", rc == SGL_OK,
               rc ? sgl_error_last() : "roundtrip of 1009 OK");
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt) != SGL_OK) {
        fprintf(stderr, "sgl_init: %s\n", sgl_error_last());
        return 1;
    }
    rank = sgl_runtime_rank(rt);
    tap_quiet = rank != 0;
    /* The tasks every process shares first, then two in an order of
     * rank 0's own. */
    int first = rank == 0;
    if (prog_register(rt) ||
        sgl_task_register(rt, first ? step_a : step_b, first ? "a" : "b") ||
        sgl_task_register(rt, first ? step_b : step_a, first ? "b" : "a")) {
        fprintf(stderr, "register: %s\n", sgl_error_last());
        return 1;
    }
    expect_refused(rt, "task a, registered second elsewhere", step_a,
                   "as 'b'; the master's task");
    /* A task only rank 0 registered. */
    if (rank == 0 && sgl_task_register(rt, step_c, "c") != SGL_OK) {
        fprintf(stderr, "register c: %s\n", sgl_error_last());
        return 1;
    }
    expect_refused(rt, "task c, registered by rank 0 alone", step_c,
                   "the master sent task");
    if (sgl_finalize(rt) != SGL_OK)
        tap_failed++;
    return tap_done();
}
