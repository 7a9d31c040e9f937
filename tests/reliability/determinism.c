/* Determinism: each algorithm run 20 times (20 sgl_run calls) on the same
 * tree and input gives bit-identical output (memcmp with the first run).
 * The input is doubles of random sign and magnitudes 1e-10..1e10, so that
 * any change in the order of the floating-point sums shows in the bits.
 * Runs alone (thread levels, SGL_SHAPE or discovered) or under mpiexec;
 * rank 0 prints TAP. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/algorithms.h>
#include <sgl/sgl.h>
#include "tap.h"

enum { N = 100003, RUNS = 20 };

enum algo { A_REDUCE, A_DVEC_REDUCE, A_SCAN_LOCAL, A_SCAN_REDUCE, A_SORT,
            A_COUNT };
static const char *const names[] = {
    "reduce sum f64 (centralised)", "reduce sum f64 (distributed)",
    "scan sum f64 local-first", "scan sum f64 reduce-first",
    "PSRS sort f64 (with -0.0, NaN, duplicates)"};

static double *input, *out, *first;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void make_input(void)
{
    uint64_t s = 42;
    for (size_t i = 0; i < N; i++) {
        double u = (double)(splitmix(&s) >> 11) * 0x1p-53;
        int e = (int)(splitmix(&s) % 21) - 10;
        input[i] = (splitmix(&s) & 1 ? -1 : 1) * u * pow(10, e);
        if (i % 1000 == 7)
            input[i] = -0.0;
        if (i % 997 == 3)
            input[i] = input[i / 2];
    }
}

/* Runs one algorithm at the root; the output goes to out[]. */
static int algo_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    enum algo a = *(const enum algo *)arg;
    memset(out, 0, N * sizeof *out);
    switch (a) {
    case A_REDUCE:
        return sgl_reduce(root, SGL_F64, SGL_OP_SUM, input, N, out);
    case A_DVEC_REDUCE: {
        sgl_dvec_t *v;
        int rc = sgl_dvec_scatter(root, SGL_F64, 0, input, N, &v);
        if (rc)
            return rc;
        rc = sgl_dvec_reduce(root, v, SGL_OP_SUM, 0, out);
        int rc2 = sgl_dvec_free(root, v);
        return rc ? rc : rc2;
    }
    case A_SCAN_LOCAL:
    case A_SCAN_REDUCE:
        return sgl_scan(root, SGL_F64, SGL_OP_SUM, input, out, N,
                        a == A_SCAN_LOCAL ? SGL_SCAN_LOCAL_FIRST
                                          : SGL_SCAN_REDUCE_FIRST);
    case A_SORT:
        memcpy(out, input, N * sizeof *out);
        out[N / 3] = NAN;
        out[N / 5] = -NAN;
        return sgl_sort(root, SGL_F64, out, N, NULL);
    default:
        return sgl_error_set(SGL_EINVAL, "no algorithm %d", a);
    }
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    if (sgl_init(&argc, &argv, NULL, &rt) != SGL_OK ||
        sgl_algorithms_register(rt) != SGL_OK) {
        fprintf(stderr, "sgl_init: %s\n", sgl_error_last());
        return 1;
    }
    int rank = sgl_runtime_rank(rt);
    tap_quiet = rank != 0;
    input = malloc(N * sizeof *input);
    out = malloc(N * sizeof *out);
    first = malloc(N * sizeof *first);
    if (!input || !out || !first)
        return 1;
    make_input();
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    if (rank == 0)
        printf("# shape %s: %zu workers, %zu processes, n = %d, %d runs\n",
               sgl_machine_source(m), sgl_machine_workers(m),
               sgl_machine_processes(m), N, RUNS);
    for (enum algo a = 0; a < A_COUNT; a++) {
        size_t len = (a == A_REDUCE || a == A_DVEC_REDUCE ? 1 : N) *
                     sizeof(double);
        int rc = SGL_OK, same = 1, run = 0;
        for (run = 0; run < RUNS && rc == SGL_OK && same; run++) {
            rc = sgl_run(rt, algo_main, &a, sizeof a);
            if (rank != 0 || rc)
                continue;
            if (run == 0)
                memcpy(first, out, len);
            else
                same = memcmp(first, out, len) == 0;
        }
        char note[300];
        uint64_t bits;
        double last = first[len / sizeof(double) - 1];
        memcpy(&bits, &last, sizeof bits);
        if (rc)
            snprintf(note, sizeof note, "%s: %s", sgl_error_name(rc),
                     sgl_error_last());
        else if (!same)
            snprintf(note, sizeof note, "run %d differs from run 1", run);
        else
            snprintf(note, sizeof note, "%d runs identical; last value "
                                        "%.17g (bits %016" PRIx64 ")",
                     RUNS, last, bits);
        if (rank == 0)
            tap_ok(names[a], rc == SGL_OK && same, note);
    }
    free(input);
    free(out);
    free(first);
    sgl_finalize(rt);
    return tap_done();
}
