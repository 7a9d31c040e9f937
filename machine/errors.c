/* Status codes and the thread-local last-error message. */
#include <stdarg.h>
#include <stdio.h>

#include <sgl/errors.h>

#include "machine_impl.h"

static _Thread_local char last_error[1024];

const char *sgl_error_string(int code)
{
    switch (code) {
#define SGL__ERR_TEXT(name, value, text)                                       \
    case SGL_##name:                                                           \
        return text;
        SGL_ERRNO_MAP(SGL__ERR_TEXT)
#undef SGL__ERR_TEXT
    }
    return "unknown error";
}

const char *sgl_error_name(int code)
{
    switch (code) {
#define SGL__ERR_NAME(name, value, text)                                       \
    case SGL_##name:                                                           \
        return "SGL_" #name;
        SGL_ERRNO_MAP(SGL__ERR_NAME)
#undef SGL__ERR_NAME
    }
    return "SGL_E?";
}

const char *sgl_error_last(void) { return last_error; }

int sgl_error_set(int code, const char *fmt, ...)
{
    /* Messages quote what users passed (names, shapes, paths, values
     * from the environment), and callers print them to terminals: an
     * ESC or BEL copied raw could recolour or retitle one, a newline
     * forge a second message. Every control byte is written as a C
     * escape here, once for all callers (sgl__escape()); its output has
     * none, so a message set again from sgl_error_last() is unchanged. */
    char raw[sizeof last_error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    sgl__escape(raw, sizeof raw, last_error, sizeof last_error);
    return code;
}
