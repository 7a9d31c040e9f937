/* A tiny TAP harness for the reliability drivers: plain main() programs
 * (so that ASan's leak check and valgrind see the whole process, which
 * Criterion's forked tests hide). Every check prints the status name and
 * the message, so the test log is the list of bad inputs and what SGL said
 * about each. Only rank 0 prints when a runtime is up. */
#ifndef SGL_RELIABILITY_TAP_H
#define SGL_RELIABILITY_TAP_H

#include <stdio.h>
#include <string.h>

#include <sgl/errors.h>

static int tap_passed, tap_failed, tap_quiet;

/* One case: @got must equal @want, and an error must come with a non-empty
 * message. The message is printed either way. */
static inline void tap_expect(const char *what, int got, int want)
{
    const char *msg = got ? sgl_error_last() : "";
    int ok = got == want && (got == SGL_OK || (msg && *msg));
    if (ok)
        tap_passed++;
    else
        tap_failed++;
    if (tap_quiet)
        return;
    if (got == want || ok)
        printf("%s %d - %s: %s%s%s\n", ok ? "ok" : "not ok",
               tap_passed + tap_failed, what, sgl_error_name(got),
               got ? ": " : "", got ? msg : "");
    else
        printf("not ok %d - %s: got %s (%s), expected %s\n",
               tap_passed + tap_failed, what, sgl_error_name(got),
               got ? msg : "", sgl_error_name(want));
    fflush(stdout);
}

/* A free-form check; @note goes into the line. */
static inline void tap_ok(const char *what, int ok, const char *note)
{
    if (ok)
        tap_passed++;
    else
        tap_failed++;
    if (tap_quiet)
        return;
    printf("%s %d - %s%s%s\n", ok ? "ok" : "not ok", tap_passed + tap_failed,
           what, note && *note ? ": " : "", note ? note : "");
    fflush(stdout);
}

static inline int tap_done(void)
{
    if (!tap_quiet) {
        printf("1..%d\n# %d passed, %d failed\n", tap_passed + tap_failed,
               tap_passed, tap_failed);
        fflush(stdout);
    }
    return tap_failed ? 1 : 0;
}

#endif
