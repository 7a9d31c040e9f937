/* Checks of what users type, shared by every reader and tool of
 * machine/: names and values. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "machine_impl.h"

int sgl__valid_name(const char *name, size_t max)
{
    size_t n = 0;
    for (; name[n]; n++) {
        char c = name[n];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
            return 0;
    }
    return n > 0 && n <= max;
}

int sgl__check_kernel_name(const char *fn, const char *name)
{
    if (!name || !sgl__valid_name(name, SGL_KERNEL_NAME_MAX))
        return sgl_error_set(SGL_EINVAL,
                             "%s: bad kernel name '%.40s' (expected "
                             "[A-Za-z0-9_.-], 1 to %d characters)",
                             fn, name ? name : "(null)", SGL_KERNEL_NAME_MAX);
    return SGL_OK;
}

int sgl__check_value(const char *fn, const char *what, double v)
{
    if (!isfinite(v))
        return sgl_error_set(SGL_EINVAL, "%s: %s is not finite (%g)", fn, what,
                             v);
    if (v < 0)
        return sgl_error_set(SGL_EINVAL, "%s: negative %s (%g)", fn, what, v);
    return SGL_OK;
}
