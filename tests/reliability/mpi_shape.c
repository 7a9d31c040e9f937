/* sgl_init under mpiexec with the shape in SGL_SHAPE: must give the
 * expected status on every rank (argv[1], e.g. SGL_ESHAPE) with a message
 * that names the shape and the process counts, and no rank may hang. With
 * an error expected, argv[2] (if given) is a piece of text the message
 * must contain (the disagreeing ranks' shapes, say). With
 * SGL_OK expected, a reduction must also run and be right (e.g. more
 * workers than cores: allowed; SGL has no warning API, so the test only
 * checks that it runs). Every rank exits non-zero on a mismatch, so
 * mpiexec does too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sgl/algorithms.h>
#include <sgl/sgl.h>

enum { N = 100003 };

static int reduce_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    double *x = malloc(N * sizeof *x), r = 0;
    if (!x)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    for (size_t i = 0; i < N; i++)
        x[i] = (double)i;
    int rc = sgl_reduce(root, SGL_F64, SGL_OP_SUM, x, N, &r);
    free(x);
    if (rc == SGL_OK && r != (double)N * (N - 1) / 2)
        rc = sgl_error_set(SGL_ETASK, "sum %.17g, expected %.17g", r,
                           (double)N * (N - 1) / 2);
    return rc;
}

int main(int argc, char **argv)
{
    const char *want_name = argc > 1 ? argv[1] : "SGL_OK";
    const char *want_text = argc > 2 ? argv[2] : "";
    const char *shape = getenv("SGL_SHAPE");
    /* SGL_TEST_OWN_SHAPE: this rank's program passes its own shape in the
     * options (SGL_SHAPE itself is rank 0's on every rank). */
    sgl_opts_t opts;
    sgl_opts_default(&opts);
    opts.shape = getenv("SGL_TEST_OWN_SHAPE");
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(&argc, &argv, &opts, &rt);
    if (strcmp(sgl_error_name(rc), want_name) != 0) {
        printf("not ok 1 - sgl_init with SGL_SHAPE=\"%s\": got %s (%s), "
               "expected %s\n",
               shape ? shape : "", sgl_error_name(rc), sgl_error_last(),
               want_name);
        if (rc == SGL_OK)
            sgl_finalize(rt);
        return 1;
    }
    if (rc != SGL_OK) {
        /* MPI is finalised again, so there is no rank: every rank prints
         * (meson reads the TAP of all of them; the lines agree). */
        int said = *sgl_error_last() && strstr(sgl_error_last(), want_text);
        printf("%s 1 - sgl_init with SGL_SHAPE=\"%s\": %s: %s\n",
               said ? "ok" : "not ok", shape ? shape : "", sgl_error_name(rc),
               sgl_error_last());
        if (!said)
            printf("# the message should contain \"%s\"\n", want_text);
        return said ? 0 : 1;
    }
    int rank = sgl_runtime_rank(rt);
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    rc = sgl_algorithms_register(rt);
    if (rc == SGL_OK)
        rc = sgl_run(rt, reduce_main, NULL, 0);
    if (rank == 0)
        printf("%s 1 - SGL_SHAPE=\"%s\": %zu workers on %zu processes, %ld "
               "cores online: reduce %s%s%s\n1..1\n",
               rc ? "not ok" : "ok", shape ? shape : "",
               sgl_machine_workers(m), sgl_machine_processes(m),
               sysconf(_SC_NPROCESSORS_ONLN), sgl_error_name(rc), rc ? ": " : "",
               rc ? sgl_error_last() : "");
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
