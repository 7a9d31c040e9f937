/* Counts beyond 32 bits: reduction and scan of n = 2^31 + 5 one-byte
 * elements (about 2 GiB, one process, default shape "core:2").
 *
 *   large_counts [SHAPE]
 *
 * The vectors are made on the workers by built-in fills whose sums,
 * products, extremes and prefixes have closed forms, computed here from
 * the fill's definition (not by the library):
 *   SGL_I8 iota   x_i = i mod 256 as int8 (0..127, -128..-1): sum
 *                 -128 per cycle of 256, min -128, max 127, product 0;
 *   SGL_I8 const  x_i = 127: sum 127 n > 2^32, product 127^n mod 2^64;
 *   SGL_U8 iota   x_i = i mod 256: sum 32640 per cycle > 2^32 in all.
 * Each scan runs in place (no second 2 GiB vector) and is checked at its
 * last element and at sampled positions around the workers' split and
 * beyond 2^31 by a user task that reads the workers' blocks, so that no
 * 2 GiB gather is needed. Peak memory is one vector plus the runtime.
 * Prints TAP, the time of each phase and the peak RSS as comments. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <sgl/algorithms.h>
#include <sgl/sgl.h>
#include "tap.h"

static const size_t N = ((size_t)1 << 31) + 5;

/* ---- the closed forms (the fills' definitions) ---- */

/* Sum of the first m elements of the int8 iota: -128 per full cycle; a
 * partial cycle of r elements is 0 + 1 + ... + (r-1), less 256 for each
 * element from 128 on (it is j - 256). */
static int64_t iota_i8_prefix(uint64_t m)
{
    int64_t q = (int64_t)(m / 256), r = (int64_t)(m % 256);
    return -128 * q + r * (r - 1) / 2 - 256 * (r > 128 ? r - 128 : 0);
}

static uint64_t iota_u8_prefix(uint64_t m)
{
    uint64_t q = m / 256, r = m % 256;
    return 32640 * q + r * (r - 1) / 2;
}

static uint64_t pow_mod64(uint64_t b, uint64_t e)
{
    uint64_t r = 1;
    for (; e; e >>= 1, b *= b)
        if (e & 1)
            r *= b;
    return r;
}

/* ---- sampling the workers' blocks ---- */

enum { NSAMPLES = 12 };

struct sample_arg {
    uint32_t id;
    uint32_t count;
    uint64_t pos[NSAMPLES];
};

struct sample {
    uint64_t pos;
    uint64_t byte;
};

/* Every worker hands up (pos, byte) for the sampled positions in its
 * block; masters concatenate their children's. */
static int sample_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const struct sample_arg *a = arg;
    if (sgl_ctx_is_worker(ctx)) {
        void *data;
        size_t count, first;
        int rc = sgl_dvec_local(ctx, a->id, &data, &count, &first);
        if (rc)
            return rc;
        struct sample s[NSAMPLES];
        uint32_t k = 0;
        for (uint32_t i = 0; i < a->count; i++)
            if (a->pos[i] >= first && a->pos[i] - first < count) {
                s[k].pos = a->pos[i];
                s[k].byte = ((const unsigned char *)data)[a->pos[i] - first];
                k++;
            }
        return sgl_put(ctx, s, sizeof *s, k);
    }
    int rc = sgl_pardo(ctx, sample_task, arg, size);
    if (rc)
        return rc;
    struct sample s[NSAMPLES];
    size_t got[64];
    if (sgl_ctx_children(ctx) > 64)
        return sgl_error_set(SGL_EINVAL, "sample: too many children");
    rc = sgl_gather(ctx, s, sizeof *s, NSAMPLES, got);
    if (rc || sgl_ctx_is_root(ctx))
        return rc;
    size_t k = 0;
    for (unsigned i = 0; i < sgl_ctx_children(ctx); i++)
        k += got[i];
    return sgl_put(ctx, s, sizeof *s, k);
}

/* The sampled bytes at the root, in position order. */
static struct sample samples[NSAMPLES];
static size_t nsamples;

static int take_samples(sgl_ctx_t *root, const sgl_dvec_t *v,
                        const uint64_t *pos, size_t count)
{
    struct sample_arg a = {sgl_dvec_id(v), (uint32_t)count, {0}};
    memcpy(a.pos, pos, count * sizeof *pos);
    if (sgl_ctx_is_worker(root)) {
        void *data;
        size_t c, first;
        int rc = sgl_dvec_local(root, a.id, &data, &c, &first);
        if (rc)
            return rc;
        for (size_t i = 0; i < count; i++)
            samples[i] = (struct sample){pos[i],
                                         ((unsigned char *)data)[pos[i]]};
        nsamples = count;
        return SGL_OK;
    }
    int rc = sgl_pardo(root, sample_task, &a, sizeof a);
    size_t got[64];
    if (!rc)
        rc = sgl_gather(root, samples, sizeof *samples, NSAMPLES, got);
    nsamples = 0;
    for (unsigned i = 0; !rc && i < sgl_ctx_children(root); i++)
        nsamples += got[i];
    return rc;
}

/* ---- the program ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double t0;

static void phase(const char *what)
{
    double t = now();
    printf("# %-44s %6.2f s\n", what, t - t0);
    fflush(stdout);
    t0 = t;
}

/* Reduce @v by @op into 8 bytes and compare with @want (the bits of an
 * int64_t or uint64_t); @sgn says which, for the note. */
static uint64_t check_reduce(sgl_ctx_t *root, const sgl_dvec_t *v,
                             sgl_op_t op, uint64_t want, int sgn,
                             const char *what)
{
    uint64_t got = 0;
    int rc = sgl_dvec_reduce(root, v, op, 0, &got);
    char note[300];
    if (rc)
        snprintf(note, sizeof note, "%s: %s", sgl_error_name(rc),
                 sgl_error_last());
    else if (sgn)
        snprintf(note, sizeof note, "%" PRId64 " (expected %" PRId64 ")",
                 (int64_t)got, (int64_t)want);
    else
        snprintf(note, sizeof note, "%" PRIu64 " (expected %" PRIu64 ")",
                 got, want);
    tap_ok(what, rc == SGL_OK && got == want, note);
    return got;
}

/* Scan @v in place and compare the samples with @want(pos). */
static void check_scan(sgl_ctx_t *root, sgl_dvec_t *v, unsigned flags,
                       unsigned char (*want)(uint64_t), const char *what)
{
    size_t half = N / 2; /* the first element of worker 1 of 2 */
    const uint64_t two31 = (uint64_t)1 << 31;
    const uint64_t pos[NSAMPLES] = {0,         255,       256,
                                    half - 1,  half,      two31 - 256,
                                    two31 - 1, two31,     two31 + 1,
                                    two31 + 2, two31 + 3, two31 + 4};
    int rc = sgl_dvec_scan(root, v, v, SGL_OP_SUM, flags);
    phase(what);
    if (!rc)
        rc = take_samples(root, v, pos, NSAMPLES);
    char note[600] = "";
    int ok = rc == SGL_OK && nsamples == NSAMPLES;
    size_t len = 0;
    for (size_t i = 0; ok && i < nsamples; i++) {
        unsigned char w = want(samples[i].pos);
        ok = samples[i].pos == pos[i] && samples[i].byte == w;
        if (len < sizeof note - 40)
            len += (size_t)snprintf(note + len, sizeof note - len,
                                    "%s%" PRIu64 ":%#x", i ? " " : "",
                                    samples[i].pos,
                                    (unsigned)samples[i].byte);
        if (!ok)
            snprintf(note + len, sizeof note - len, " expected %#x", w);
    }
    if (rc)
        snprintf(note, sizeof note, "%s: %s", sgl_error_name(rc),
                 sgl_error_last());
    tap_ok(what, ok, note);
}

static unsigned char scan_iota_i8(uint64_t i)
{
    return (unsigned char)((uint64_t)iota_i8_prefix(i + 1) & 0xff);
}

static unsigned char scan_const127(uint64_t i)
{
    return (unsigned char)((127 * (i + 1)) & 0xff);
}

static int large_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    sgl_dvec_t *v = NULL;
    t0 = now();

    /* int8 iota: the sum, extremes, product, and a local-first scan. */
    int rc = sgl_dvec_create(root, SGL_I8, 0, N, SGL_FILL_IOTA, NULL, 0, &v);
    phase("create int8 iota (fill on the workers)");
    tap_ok("create int8 iota of 2^31 + 5", rc == SGL_OK,
           rc ? sgl_error_last() : "");
    if (rc)
        return rc;
    uint64_t sum = check_reduce(root, v, SGL_OP_SUM,
                                (uint64_t)iota_i8_prefix(N), 1,
                                "int8 iota: sum into int64");
    phase("reduce sum");
    check_reduce(root, v, SGL_OP_MIN, (uint64_t)-128, 1, "int8 iota: min");
    check_reduce(root, v, SGL_OP_MAX, 127, 1, "int8 iota: max");
    check_reduce(root, v, SGL_OP_PROD, 0, 1, "int8 iota: product");
    phase("reduce min, max, prod");
    check_scan(root, v, SGL_SCAN_INCLUSIVE | SGL_SCAN_LOCAL_FIRST,
               scan_iota_i8, "int8 iota: inclusive scan (local-first)");
    tap_ok("int8 iota: scan's last element is the sum's low byte",
           nsamples == NSAMPLES &&
               samples[NSAMPLES - 1].byte == (sum & 0xff),
           "");
    sgl_dvec_free(root, v);

    /* int8 const 127: a sum beyond 2^32, a product modulo 2^64. */
    signed char k = 127;
    rc = sgl_dvec_create(root, SGL_I8, 0, N, SGL_FILL_CONST, &k, 1, &v);
    phase("create int8 const 127");
    tap_ok("create int8 const 127", rc == SGL_OK, rc ? sgl_error_last() : "");
    if (rc)
        return rc;
    check_reduce(root, v, SGL_OP_SUM, 127 * (uint64_t)N, 1,
                 "int8 const 127: sum into int64 (beyond 2^32)");
    check_reduce(root, v, SGL_OP_PROD, pow_mod64(127, N), 1,
                 "int8 const 127: product modulo 2^64");
    check_reduce(root, v, SGL_OP_MIN, 127, 1, "int8 const 127: min");
    check_reduce(root, v, SGL_OP_MAX, 127, 1, "int8 const 127: max");
    phase("reduce sum, prod, min, max");
    check_scan(root, v, SGL_SCAN_INCLUSIVE | SGL_SCAN_REDUCE_FIRST,
               scan_const127, "int8 const 127: inclusive scan (reduce-first)");
    sgl_dvec_free(root, v);

    /* uint8 iota: an unsigned sum beyond 2^32. */
    rc = sgl_dvec_create(root, SGL_U8, 0, N, SGL_FILL_IOTA, NULL, 0, &v);
    phase("create uint8 iota");
    tap_ok("create uint8 iota", rc == SGL_OK, rc ? sgl_error_last() : "");
    if (rc)
        return rc;
    check_reduce(root, v, SGL_OP_SUM, iota_u8_prefix(N), 0,
                 "uint8 iota: sum into uint64 (beyond 2^32)");
    check_reduce(root, v, SGL_OP_MIN, 0, 0, "uint8 iota: min");
    check_reduce(root, v, SGL_OP_MAX, 255, 0, "uint8 iota: max");
    phase("reduce sum, min, max");
    return sgl_dvec_free(root, v);
}

int main(int argc, char **argv)
{
    sgl_opts_t o;
    sgl_opts_default(&o);
    o.shape = argc > 1 ? argv[1] : "core:2";
    o.trace = 0;
    sgl_runtime_t *rt;
    if (sgl_init(NULL, NULL, &o, &rt) != SGL_OK ||
        sgl_algorithms_register(rt) != SGL_OK ||
        sgl_task_register(rt, sample_task, "large.sample") != SGL_OK) {
        fprintf(stderr, "sgl_init: %s\n", sgl_error_last());
        return 1;
    }
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    printf("# %s: %zu workers, n = %zu (2^31 + 5) one-byte elements\n",
           sgl_machine_source(m), sgl_machine_workers(m), N);
    double start = now();
    int rc = sgl_run(rt, large_main, NULL, 0);
    tap_ok("program ends without error", rc == SGL_OK,
           rc ? sgl_error_last() : "");
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("# total %.2f s, peak RSS %.2f GiB\n", now() - start,
           (double)ru.ru_maxrss / (1024.0 * 1024.0));
    sgl_finalize(rt);
    return tap_done();
}
