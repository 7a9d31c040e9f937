/* libFuzzer target: sgl_machine_read() on arbitrary bytes through
 * fmemopen(). Oracle beyond "no crash": an error comes with a message and
 * no tree; a tree that was read writes out (sgl_machine_write) to a file
 * that reads back to a tree with the same workers and shape. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include <sgl/machine.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 65536 || fuzz_too_big(data, size))
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    sgl_machine_t *m = NULL;
    int rc = sgl_machine_read(in, "fuzz.sgl", &m);
    fclose(in);
    if (rc != SGL_OK) {
        if (m || rc >= 0 || !*sgl_error_last())
            abort();
        return 0;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (out && sgl_machine_write(m, out) == SGL_OK) {
        fclose(out);
        out = NULL;
        FILE *back = fmemopen(buf, len, "r");
        sgl_machine_t *m2 = NULL;
        if (!back || sgl_machine_read(back, "written.sgl", &m2) != SGL_OK ||
            sgl_machine_workers(m2) != sgl_machine_workers(m) ||
            strcmp(sgl_machine_shape(m2) ? sgl_machine_shape(m2) : "",
                   sgl_machine_shape(m) ? sgl_machine_shape(m) : "")) {
            fprintf(stderr, "written machine file does not read back: %s\n"
                            "--- written:\n%.*s\n",
                    sgl_error_last(), (int)len, buf);
            abort();
        }
        fclose(back);
        sgl_machine_free(m2);
    }
    if (out)
        fclose(out);
    free(buf);
    sgl_machine_free(m);
    return 0;
}
