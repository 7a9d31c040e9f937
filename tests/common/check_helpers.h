/* Helpers of the check libraries that run SGL programs and report the
 * first difference (tests/trasgo, tests/pregel): prefixing an error's
 * message, expecting a code with a text in its message; and of the
 * Criterion tests: starting a runtime on a shape, asserting a call's
 * SGL_OK, running a table of checks on one shape. Messages are copied
 * before they are reused: sgl_error_set() writes the buffer that
 * sgl_error_last() returns. */
#ifndef SGL_TEST_CHECK_HELPERS_H
#define SGL_TEST_CHECK_HELPERS_H

#include <stdio.h>
#include <string.h>

#include <sgl/sgl.h>

/* @rc with "@what: " before its message. */
static inline int test_named(int rc, const char *what)
{
    if (rc == SGL_OK)
        return rc;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", sgl_error_last());
    return sgl_error_set(rc, "%s: %s", what, msg);
}

/* SGL_OK if @rc is @code with @text in its message; else SGL_ETASK
 * saying what @call gave. */
static inline int test_expect(int rc, int code, const char *text,
                              const char *call)
{
    if (rc == code && strstr(sgl_error_last(), text))
        return SGL_OK;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", sgl_error_last());
    return sgl_error_set(SGL_ETASK,
                         "%s gave %s (%s), expected %s with \"%s\"", call,
                         sgl_error_name(rc), msg, sgl_error_name(code), text);
}

#define EXPECT(call, code, text)                                              \
    SGL_TRY(test_expect((call), (code), (text), #call))

/* One check of a table: a function of the runtime and its name. */
struct test_check_entry {
    int (*fn)(sgl_runtime_t *);
    const char *name;
};

#ifdef CRITERION_H_
/* Fail the test unless @call returns SGL_OK, naming the call and its
 * error. */
#define RUN_OK(call)                                                           \
    do {                                                                       \
        int rc_ = (call);                                                      \
        cr_assert_eq(rc_, SGL_OK, "%s: %s (%s)", #call, sgl_error_name(rc_),     \
                     sgl_error_last());                                        \
    } while (0)

/* A runtime on @shape (NULL: the discovered machine; one per test process:
 * MPI starts once per process) with @reg's tasks registered; a failure of
 * either fails the test. */
static inline sgl_runtime_t *test_start(const char *shape,
                                        int (*reg)(sgl_runtime_t *))
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = shape;
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(NULL, NULL, &o, &rt);
    cr_assert_eq(rc, SGL_OK, "sgl_init(%s): %s", shape ? shape : "discover",
                 sgl_error_last());
    cr_assert_eq(reg(rt), SGL_OK, "%s", sgl_error_last());
    return rt;
}

/* Start a runtime on @shape with @reg (test_start()), run every check,
 * expecting SGL_OK. */
static inline void test_checks_on_shape(const char *shape,
                                        int (*reg)(sgl_runtime_t *),
                                        const struct test_check_entry *c,
                                        size_t n)
{
    sgl_runtime_t *rt = test_start(shape, reg);
    for (size_t k = 0; k < n; k++) {
        int rc = c[k].fn(rt);
        cr_expect_eq(rc, SGL_OK, "%s on %s: %s (%s)", c[k].name, shape,
                     sgl_error_name(rc), sgl_error_last());
    }
    cr_assert_eq(sgl_finalize(rt), SGL_OK);
}
#endif

#endif
