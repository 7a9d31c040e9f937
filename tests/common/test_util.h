/* Helpers shared by the test programs: early-return checks that record a
 * message the way SGL's own errors do, a splitmix64 generator, and the TAP
 * line of the multi-rank drivers (only rank 0 judges and prints). */
#ifndef SGL_TEST_UTIL_H
#define SGL_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include <sgl/errors.h>

/* Fail the enclosing function with SGL_ETASK and a message unless @cond. */
#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond))                                                           \
            return sgl_error_set(SGL_ETASK, __VA_ARGS__);                      \
    } while (0)

/* Return from the enclosing function if @call fails. */
/* splitmix64: the next value of the stream in *s. */
static inline uint64_t test_mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Counts of a multi-rank driver, and whether this process reports. */
struct test_tally {
    int passed, failed, report;
};

/* One TAP line for a check that returned @rc. */
static inline void test_check(struct test_tally *t, const char *what, int rc)
{
    if (!t->report)
        return;
    if (rc == SGL_OK) {
        t->passed++;
        printf("ok %d - %s\n", t->passed + t->failed, what);
    } else {
        t->failed++;
        printf("not ok %d - %s: %s (%s)\n", t->passed + t->failed, what,
               sgl_error_name(rc), sgl_error_last());
    }
    fflush(stdout);
}

#endif
