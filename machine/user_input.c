/* Checks and quoting of what users type, shared by every reader and tool
 * of machine/: names, values, and control characters made visible in
 * error messages. */
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

char *sgl__escape(const char *s, size_t max, char *out, size_t size)
{
    size_t j = 0;
    if (size == 0)
        return out;
    for (size_t i = 0; i < max && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        char e[8];
        if (c == '\t' || c == '\n' || c == '\r')
            snprintf(e, sizeof e, "\\%c", c == '\t' ? 't' : c == '\n' ? 'n' : 'r');
        else if (c < 0x20 || c == 0x7f)
            snprintf(e, sizeof e, "\\x%02x", c);
        else
            e[0] = (char)c, e[1] = '\0';
        size_t k = strlen(e);
        if (j + k >= size)
            break;
        memcpy(out + j, e, k);
        j += k;
    }
    out[j] = '\0';
    return out;
}
