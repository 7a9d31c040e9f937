/* libFuzzer target: sgl_machine_from_shape() on arbitrary bytes (as a C
 * string). Oracle beyond "no crash": a result is either a tree or an
 * error with a message; a tree's own shape string parses again to a tree
 * with the same number of workers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include <sgl/machine.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096 || fuzz_too_big(data, size))
        return 0;
    char *s = malloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    for (int keep = 0; keep < 2; keep++) {
        sgl_machine_opts_t o;
        sgl_machine_opts_default(&o);
        o.keep_single = keep;
        sgl_machine_t *m = NULL;
        int rc = sgl_machine_from_shape(s, &o, &m);
        if (rc != SGL_OK) {
            if (m || rc >= 0 || !*sgl_error_last())
                abort();
            continue;
        }
        const char *again = sgl_machine_shape(m);
        if (again) {
            sgl_machine_t *m2 = NULL;
            o.keep_single = 1;
            if (sgl_machine_from_shape(again, &o, &m2) != SGL_OK ||
                sgl_machine_workers(m2) != sgl_machine_workers(m)) {
                fprintf(stderr, "shape '%s' -> '%s' does not round-trip: %s\n",
                        s, again, sgl_error_last());
                abort();
            }
            sgl_machine_free(m2);
        }
        sgl_machine_free(m);
    }
    free(s);
    return 0;
}
