/* Control characters made visible: every message the library formats
 * from user input goes through sgl__escape(), the error setter's included,
 * so it depends on nothing else. */
#include <stdio.h>
#include <string.h>

#include "machine_impl.h"

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
