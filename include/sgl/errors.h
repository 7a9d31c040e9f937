/**
 * @file errors.h
 * Status codes and error messages shared by every part of SGL.
 *
 * Every SGL function that can fail returns an int: SGL_OK (0) or one of the
 * negative codes below. The detailed message of the last failure (what,
 * where, which value) is kept per thread and read with sgl_error_last().
 * A failed call has no side effects unless its documentation says so.
 *
 * Thread safety: all functions here are safe from any thread; the last-error
 * message is thread-local.
 */
#ifndef SGL_ERRORS_H
#define SGL_ERRORS_H

#include <sgl/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_errors Errors
 *  Status codes, their names and descriptions, the per-thread message, SGL_TRY.
 *  @{ */

/** X-macro over every status code: X(name, value, description), where name
 *  lacks the SGL_ prefix (OK, EINVAL, ...), value is the int code and
 *  description the string sgl_error_string() returns. */
#define SGL_ERRNO_MAP(X)                                                       \
    X(OK, 0, "success")                                                        \
    X(EINVAL, -1, "invalid argument")                                          \
    X(ENOMEM, -2, "out of memory")                                             \
    X(EPARSE, -3, "malformed input")                                           \
    X(EIO, -4, "input/output error")                                           \
    X(EHWLOC, -5, "hwloc failure")                                             \
    X(EMPI, -6, "MPI failure")                                                 \
    X(ESHAPE, -7, "shape does not fit the processes")                          \
    X(ESTATE, -8, "call not valid in this state or role")                      \
    X(ENOTASK, -9, "task not registered")                                      \
    X(ESIZE, -10, "sizes or counts do not match")                              \
    X(ERANGE, -11, "value out of range")                                       \
    X(ETASK, -12, "a task failed")

/** Status codes; SGL_OK is 0, every error is negative. */
enum sgl_err {
#define SGL__ERR_ENUM(name, value, text) SGL_##name = (value),
    SGL_ERRNO_MAP(SGL__ERR_ENUM)
#undef SGL__ERR_ENUM
};

/** Short fixed description of a status code ("invalid argument").
 *  Unknown codes give "unknown error". Never NULL. */
SGL_API const char *sgl_error_string(int code);

/** Symbolic name of a status code ("SGL_EINVAL"); "SGL_E?" if unknown. */
SGL_API const char *sgl_error_name(int code);

/** The calling thread's message for its last failed SGL call: a full
 *  sentence naming what went wrong and where. Valid until the thread's next
 *  failing SGL call. Empty string if nothing failed yet. */
SGL_API const char *sgl_error_last(void);

/** Record a failure for the calling thread and return @p code, so that a
 *  user task can write `return sgl_error_set(SGL_ETASK, "bad block %zu", i);`.
 *  The message is printf-formatted and truncated to 1023 bytes. */
SGL_API int sgl_error_set(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Evaluate @p call, an SGL call or anything that returns an SGL status,
 *  and return its status from the enclosing function if it failed (was
 *  negative); the message stays where sgl_error_last() reads it. For
 *  functions that return int, such as tasks:
 *  `SGL_TRY(sgl_scatter(ctx, a, sizeof *a, counts));` */
#define SGL_TRY(call)                                                          \
    do {                                                                       \
        int sgl_try_rc_ = (call);                                              \
        if (sgl_try_rc_ < 0)                                                   \
            return sgl_try_rc_;                                                \
    } while (0)

/** @} */

#ifdef __cplusplus
}
#endif

#endif
