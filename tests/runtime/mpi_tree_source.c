/* Ranks that build their machine trees from different sources (a shape on
 * one, discovery on another, an empty opts.shape, SGL_SHAPE on rank 0
 * only) or that pass a NULL ret_rt must all return the same status from
 * sgl_init, never hang: each rank is started with its own arguments on an
 * MPMD command line, under timeout.
 *   mpi_tree_source WANT SHAPE [TEXT]
 * WANT: ok, eshape or einval; SHAPE: opts.shape, "none" (NULL), "empty"
 * (""), "xml:PATH" (opts.xml) or "nullret" (NULL shape and NULL
 * ret_rt); TEXT: what the message
 * must contain. Exits 0 if this rank got what it wanted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/sgl.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: mpi_tree_source WANT SHAPE [TEXT]\n", stderr);
        return 2;
    }
    const char *want = argv[1], *shape = argv[2];
    const char *text = argc > 3 ? argv[3] : NULL;
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    sgl_opts_t o;
    sgl_opts_default(&o);
    if (!strncmp(shape, "xml:", 4))
        o.xml = shape + 4;
    else if (strcmp(shape, "none") && strcmp(shape, "nullret"))
        o.shape = strcmp(shape, "empty") ? shape : "";
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(&argc, &argv, &o,
                      strcmp(shape, "nullret") ? &rt : NULL);
    int got_want = !strcmp(want, "ok")       ? rc == SGL_OK
                   : !strcmp(want, "eshape") ? rc == SGL_ESHAPE
                   : !strcmp(want, "einval") ? rc == SGL_EINVAL
                                             : 0;
    int text_ok = !text || rc == SGL_OK || strstr(sgl_error_last(), text);
    fprintf(stderr, "rank %s: %s %s: %s\n", rank ? rank : "?",
            got_want && text_ok ? "ok" : "FAILED", sgl_error_name(rc),
            rc ? sgl_error_last() : "");
    if (rc == SGL_OK)
        sgl_finalize(rt);
    return got_want && text_ok ? 0 : 1;
}
