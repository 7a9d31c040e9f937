/* Status codes and the thread-local last-error message. */
#include <stdarg.h>
#include <stdio.h>

#include <sgl/errors.h>

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
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return code;
}
