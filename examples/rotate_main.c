/* The Trasgo paper's illustrative example, run: M2[i] = 2 M[(i + rot) mod
 * n] + 1 on an uneven partition (worker k owns about k + 1 shares), with an
 * offset that may exceed any block. Prints every worker's block and what
 * its loop reads, then M and M2, and checks M2 against the sequential
 * loop.
 * Run: [mpirun -n P] ./sgl-example-rotate [n] [rot] */
#include <stdio.h>
#include <stdlib.h>

#include <sgl/algorithms.h>

#include "stencil_kernels.h"
#include "trasgo.h"

struct job {
    size_t n;
    long rot;
};

static size_t *cuts_of(size_t n, size_t p)
{
    size_t *c = malloc((p + 1) * sizeof *c), shares = p * (p + 1) / 2;
    c[0] = 0;
    for (size_t k = 0, acc = 0; k < p; k++) {
        acc += k + 1;
        c[k + 1] = n * acc / shares;
    }
    return c;
}

static long wrap(long x, long n) { return ((x % n) + n) % n; }

static int run(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    size_t p = sgl_ctx_workers(root);
    size_t *cuts = cuts_of(j->n, p);
    double *m2 = malloc(j->n * sizeof *m2);
    trasgo_result_t r;
    int rc = cuts && m2 ? rotate_run(root, j->n, j->rot, cuts, m2, &r) : 1;
    for (size_t w = 0; !rc && w < p; w++) {
        long lo = (long)cuts[w], hi = (long)cuts[w + 1], n = (long)j->n;
        printf("worker %zu owns [%ld, %ld) and reads [%ld, %ld): indices "
               "%ld..%ld\n",
               w, lo, hi, lo + j->rot, hi + j->rot, wrap(lo + j->rot, n),
               wrap(hi - 1 + j->rot, n));
    }
    int wrong = 0;
    for (size_t i = 0; !rc && i < j->n; i++) {
        double m = kernel_init(i);
        double want = 2.0 * kernel_init((uint64_t)wrap((long)i + j->rot,
                                                       (long)j->n)) + 1.0;
        wrong += m2[i] != want;
        if (j->n <= 64)
            printf("  i %3zu  M %.6f  M2 %.6f%s\n", i, m, m2[i],
                   m2[i] != want ? "  WRONG" : "");
    }
    if (!rc)
        printf("%zu elements, rot %ld: %s; the plan sent %zu messages, %zu "
               "bytes between workers, %zu within them\n",
               j->n, j->rot, wrong ? "WRONG" : "M2 is the sequential loop's",
               r.stats.messages, r.stats.bytes, r.stats.local_bytes);
    free(cuts);
    free(m2);
    return rc ? rc : wrong ? SGL_ETASK : SGL_OK;
}

int main(int argc, char **argv)
{
    struct job j = {argc > 1 ? strtoull(argv[1], NULL, 10) : 25,
                    argc > 2 ? strtol(argv[2], NULL, 10) : 11};
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc)
        rc = sgl_algorithms_register(rt);
    if (!rc)
        rc = trasgo_register(rt);
    if (!rc)
        rc = sgl_run(rt, run, &j, sizeof j);
    if (rc)
        fprintf(stderr, "rotate: %s\n", sgl_error_last());
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
