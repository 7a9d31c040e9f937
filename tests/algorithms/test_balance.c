/* Balance by speed in one process, on thread levels: flat, nested and
 * uneven trees (balance_programs.c), the refit of c from the trace
 * (refit_programs.c), and the SGL_BALANCE and SGL_TRACE settings. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "algo_programs.h"
#include "balance_programs.h"
#include "check_helpers.h"
#include "refit_programs.h"
#include <sgl/balance.h>

static int register_all(sgl_runtime_t *rt)
{
    int rc = algo_test_register(rt);
    if (!rc)
        rc = balance_test_register(rt);
    return rc ? rc : refit_test_register(rt);
}

static sgl_runtime_t *start(const char *shape)
{
    return test_start(shape, register_all);
}

/* One of the program library's checks on a fresh runtime of @shape. */
static void check_on(const char *shape, int (*checks)(sgl_runtime_t *))
{
    sgl_runtime_t *rt = start(shape);
    int rc = checks(rt);
    cr_expect_eq(rc, SGL_OK, "%s: %s", shape, sgl_error_last());
    sgl_finalize(rt);
}

static void check(const char *shape) { check_on(shape, balance_check); }
static void check_kernel(const char *shape)
{
    check_on(shape, balance_check_kernel);
}

Test(balance, flat) { check("core:3"); }
Test(balance, two_workers) { check("core:2"); }
Test(balance, one_worker) { check("core:1"); }
Test(balance, nested) { check("numa:2 core:3"); }
Test(balance, uneven) { check("numa:2 core:[1,4]"); }

Test(balance, kernel_flat) { check_kernel("core:3"); }
Test(balance, kernel_two_workers) { check_kernel("core:2"); }
Test(balance, kernel_nested) { check_kernel("numa:2 core:3"); }

static void check_refit(const char *shape) { check_on(shape, refit_check); }

Test(balance, refit_flat) { check_refit("core:3"); }
Test(balance, refit_two_workers) { check_refit("core:2"); }
Test(balance, refit_one_worker) { check_refit("core:1"); }
Test(balance, refit_nested) { check_refit("numa:2 core:3"); }
Test(balance, refit_uneven) { check_refit("numa:2 core:[1,4]"); }
Test(balance, refit_errors) { check_on("core:2", refit_check_errors); }
Test(balance, refit_after_runs) { check_on("core:3", refit_check_auto); }
Test(balance, refit_after_runs_nested)
{
    check_on("numa:2 core:3", refit_check_auto);
}
Test(balance, refit_after_runs_one_worker)
{
    check_on("core:1", refit_check_auto);
}

/* Rank 0's SGL_REFIT sets the refit after each run. */
Test(balance, refit_environment)
{
    setenv("SGL_REFIT", "3", 1);
    sgl_runtime_t *rt = start("core:2");
    cr_expect_eq(sgl_runtime_refit_window(rt), 3);
    sgl_finalize(rt);
}

/* sgl_init() refuses rank 0's @name=@value, saying @text. */
static void refused_env(const char *name, const char *value, const char *text)
{
    setenv(name, value, 1);
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = "core:2";
    sgl_runtime_t *rt = NULL;
    cr_expect_eq(sgl_init(NULL, NULL, &o, &rt), SGL_EINVAL);
    cr_expect(strstr(sgl_error_last(), text) != NULL, "unclear message: %s",
              sgl_error_last());
}

Test(balance, refit_environment_refused)
{
    refused_env("SGL_REFIT", "9", "SGL_REFIT='9' is not off, 1, 2");
}

/* With the trace off there is nothing to fit from. */
Test(balance, refit_trace_off)
{
    setenv("SGL_TRACE", "0", 1);
    sgl_runtime_t *rt = start("core:2");
    cr_expect_eq(sgl_runtime_refit_kernel(rt, "sum", 1, NULL), SGL_ESTATE);
    cr_expect(strstr(sgl_error_last(), "the trace is off") != NULL,
              "unclear message: %s", sgl_error_last());
    sgl_finalize(rt);
}

Test(balance, errors)
{
    sgl_runtime_t *rt = start("core:2");
    int rc = balance_check_errors(rt);
    cr_expect_eq(rc, SGL_OK, "%s", sgl_error_last());
    sgl_finalize(rt);
}

/* Rank 0's SGL_BALANCE sets the balance (one runtime per process: a
 * test each). */
Test(balance, environment_workers)
{
    setenv("SGL_BALANCE", "workers", 1);
    sgl_runtime_t *rt = start("core:2");
    cr_expect_eq(sgl_runtime_balance(rt), SGL_BALANCE_WORKERS);
    sgl_finalize(rt);
}

Test(balance, environment_refused)
{
    refused_env("SGL_BALANCE", "fastest",
                "SGL_BALANCE='fastest' is not speed or workers");
}
