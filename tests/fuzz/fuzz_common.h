/* Shared by the libFuzzer targets: skip inputs whose numbers would build
 * trees of millions of nodes (valid, but each takes seconds and the
 * fuzzer would report them as timeouts or out-of-memory, not bugs). */
#ifndef SGL_FUZZ_COMMON_H
#define SGL_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

static int fuzz_too_big(const uint8_t *data, size_t size)
{
    double product = 1, v = 0;
    int in = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i < size && data[i] >= '0' && data[i] <= '9') {
            v = v * 10 + (data[i] - '0');
            in = 1;
        } else if (in) {
            product *= v > 1 ? v : 1;
            v = 0;
            in = 0;
        }
    }
    return product > 1e5;
}

#endif
