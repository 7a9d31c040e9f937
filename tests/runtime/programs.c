/* Test programs written only against the public API, in the recursive
 * "if worker ... else scatter / pardo / gather" shape of the SGL paper. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "programs.h"
#include "test_util.h"
#include <sgl/blocks.h>
#include <sgl/trace.h>

/* Split @n into @p random parts; about one in four parts is empty. */
static void random_split(size_t n, unsigned p, uint64_t seed, size_t *counts)
{
    uint64_t s = seed;
    uint64_t *w = malloc(p * sizeof *w);
    uint64_t total = 0;
    for (unsigned i = 0; i < p; i++) {
        w[i] = test_mix(&s) % 4 == 0 ? 0 : 1 + test_mix(&s) % 100;
        total += w[i];
    }
    size_t given = 0;
    for (unsigned i = 0; i < p; i++) {
        counts[i] = total ? (size_t)((double)n * (double)w[i] / (double)total) : 0;
        given += counts[i];
    }
    counts[p - 1] += n - given;
    free(w);
}

struct block {
    int64_t *v;
    size_t n;
};

static void block_free(void *p)
{
    struct block *b = p;
    free(b->v);
    free(b);
}

/* ---- roundtrip: scatter down with random splits, keep, scale, gather ---- */

static int distribute(sgl_ctx_t *ctx, const int64_t *v, size_t n,
                      uint64_t seed, int64_t *ret_sum);

static int distribute_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    CHECK(size == sizeof(uint64_t), "distribute: arg of %zu bytes", size);
    void *v;
    size_t n;
    SGL_TRY(sgl_recv(ctx, sizeof(int64_t), &v, &n));
    int64_t sum;
    SGL_TRY(distribute(ctx, v, n, *(const uint64_t *)arg, &sum));
    return sgl_put(ctx, &sum, sizeof sum, 1);
}

static int distribute(sgl_ctx_t *ctx, const int64_t *v, size_t n,
                      uint64_t seed, int64_t *ret_sum)
{
    int64_t sum = 0;
    if (sgl_ctx_is_worker(ctx)) {
        struct block *b = malloc(sizeof *b);
        CHECK(b, "out of memory");
        b->n = n;
        b->v = malloc(n ? n * sizeof *b->v : 1);
        CHECK(b->v, "out of memory");
        if (n)
            memcpy(b->v, v, n * sizeof *v);
        sgl_ctx_set_state(ctx, b, block_free);
        for (size_t i = 0; i < n; i++)
            sum += v[i];
    } else {
        unsigned p = sgl_ctx_children(ctx);
        size_t *counts = malloc(p * sizeof *counts);
        int64_t *sums = malloc(p * sizeof *sums);
        CHECK(counts && sums, "out of memory");
        random_split(n, p, seed ^ (sgl_ctx_first_worker(ctx) * 7919 +
                                   sgl_ctx_level(ctx)),
                     counts);
        int rc = sgl_scatter(ctx, v, sizeof *v, counts);
        uint64_t child_seed = seed * 31 + 7;
        if (!rc)
            rc = sgl_pardo(ctx, distribute_task, &child_seed,
                           sizeof child_seed);
        if (!rc)
            rc = sgl_gather(ctx, sums, sizeof *sums, p, NULL);
        for (unsigned i = 0; !rc && i < p; i++)
            sum += sums[i];
        free(counts);
        free(sums);
        SGL_TRY(rc);
    }
    *ret_sum = sum;
    return SGL_OK;
}

/* Hand up the scaled subtree vector; the caller frees *ret_v. */
static int collect(sgl_ctx_t *ctx, int64_t k, int64_t **ret_v, size_t *ret_n);

static int collect_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg;
    CHECK(size == 0, "collect: unexpected arg");
    void *kp;
    size_t kn;
    SGL_TRY(sgl_recv(ctx, sizeof(int64_t), &kp, &kn));
    CHECK(kn == 1, "collect: broadcast of %zu factors", kn);
    int64_t *v;
    size_t n;
    SGL_TRY(collect(ctx, *(int64_t *)kp, &v, &n));
    int rc = sgl_put(ctx, v, sizeof *v, n);
    free(v);
    return rc;
}

static int collect(sgl_ctx_t *ctx, int64_t k, int64_t **ret_v, size_t *ret_n)
{
    if (sgl_ctx_is_worker(ctx)) {
        struct block *b = sgl_ctx_state(ctx);
        CHECK(b, "worker %zu lost its state", sgl_ctx_first_worker(ctx));
        int64_t *v = malloc(b->n ? b->n * sizeof *v : 1);
        CHECK(v, "out of memory");
        for (size_t i = 0; i < b->n; i++)
            v[i] = b->v[i] * k;
        *ret_v = v;
        *ret_n = b->n;
        return SGL_OK;
    }
    unsigned p = sgl_ctx_children(ctx);
    SGL_TRY(sgl_bcast(ctx, &k, sizeof k, 1));
    SGL_TRY(sgl_pardo(ctx, collect_task, NULL, 0));
    size_t total = 0;
    for (unsigned i = 0; i < p; i++) {
        const void *d;
        size_t count;
        SGL_TRY(sgl_gather_block(ctx, i, sizeof(int64_t), &d, &count));
        total += count;
    }
    int64_t *v = malloc(total ? total * sizeof *v : 1);
    CHECK(v, "out of memory");
    int rc = sgl_gather(ctx, v, sizeof *v, total, NULL);
    if (rc) {
        free(v);
        return rc;
    }
    *ret_v = v;
    *ret_n = total;
    return SGL_OK;
}

struct roundtrip_arg {
    uint64_t seed;
    size_t n;
};

static int roundtrip_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct roundtrip_arg *a = arg;
    uint64_t s = a->seed;
    int64_t *v = malloc(a->n ? a->n * sizeof *v : 1);
    CHECK(v, "out of memory");
    int64_t expect = 0;
    for (size_t i = 0; i < a->n; i++) {
        v[i] = (int64_t)(test_mix(&s) % 2000001) - 1000000;
        expect += v[i];
    }
    int64_t sum = 0, k = (int64_t)(test_mix(&s) % 7) - 3;
    int64_t *out = NULL;
    size_t nout = 0;
    int rc = distribute(root, v, a->n, a->seed, &sum);
    if (!rc && sum != expect)
        rc = sgl_error_set(SGL_ETASK, "roundtrip: sum %" PRId64
                                      " != %" PRId64,
                           sum, expect);
    if (!rc)
        rc = collect(root, k, &out, &nout);
    if (!rc && nout != a->n)
        rc = sgl_error_set(SGL_ETASK, "roundtrip: %zu elements back of %zu",
                           nout, a->n);
    for (size_t i = 0; !rc && i < a->n; i++)
        if (out[i] != v[i] * k)
            rc = sgl_error_set(SGL_ETASK,
                               "roundtrip: element %zu is %" PRId64
                               ", expected %" PRId64,
                               i, out[i], v[i] * k);
    free(v);
    free(out);
    return rc;
}

int prog_roundtrip(sgl_runtime_t *rt, uint64_t seed, size_t n)
{
    struct roundtrip_arg a = {seed, n};
    return sgl_run(rt, roundtrip_main, &a, sizeof a);
}

/* ---- distributed sum: the data is generated where it lives ---- */

static int dsum(sgl_ctx_t *ctx, size_t n, double *ret);

static int dsum_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    double s;
    SGL_TRY(dsum(ctx, *(const size_t *)arg, &s));
    return sgl_put(ctx, &s, sizeof s, 1);
}

static int dsum(sgl_ctx_t *ctx, size_t n, double *ret)
{
    double s = 0;
    if (sgl_ctx_is_worker(ctx)) {
        size_t p = sgl_machine_workers(sgl_ctx_machine(ctx));
        size_t w = sgl_ctx_first_worker(ctx);
        for (size_t i = n * w / p; i < n * (w + 1) / p; i++)
            s += (double)i;
    } else {
        unsigned p = sgl_ctx_children(ctx);
        double *part = malloc(p * sizeof *part);
        CHECK(part, "out of memory");
        int rc = sgl_pardo(ctx, dsum_task, &n, sizeof n);
        if (!rc)
            rc = sgl_gather(ctx, part, sizeof *part, p, NULL);
        for (unsigned i = 0; !rc && i < p; i++)
            s += part[i];
        free(part);
        SGL_TRY(rc);
    }
    *ret = s;
    return SGL_OK;
}

static int dsum_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    size_t n = *(const size_t *)arg;
    double s;
    SGL_TRY(dsum(root, n, &s));
    double expect = (double)n * (double)(n - 1) / 2;
    CHECK(s == expect, "distributed sum %.17g, expected %.17g", s, expect);
    return SGL_OK;
}

int prog_distributed_sum(sgl_runtime_t *rt, size_t n)
{
    return sgl_run(rt, dsum_main, &n, sizeof n);
}

/* ---- a failing worker ---- */

static int fail_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    size_t victim = *(const size_t *)arg;
    if (sgl_ctx_is_worker(ctx))
        return sgl_ctx_first_worker(ctx) == victim
                   ? sgl_error_set(SGL_ETASK, "worker %zu fails on purpose",
                                   victim)
                   : SGL_OK;
    return sgl_pardo(ctx, fail_task, arg, size);
}

static int fail_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    if (sgl_ctx_is_worker(root))
        return fail_task(root, arg, size);
    return sgl_pardo(root, fail_task, arg, size);
}

int prog_failing_worker(sgl_runtime_t *rt, size_t victim)
{
    int rc = sgl_run(rt, fail_main, &victim, sizeof victim);
    if (rc != SGL_ETASK)
        return sgl_error_set(SGL_ETASK, "failing worker: sgl_run gave %s",
                             sgl_error_name(rc));
    char want[64];
    snprintf(want, sizeof want, "worker %zu fails on purpose", victim);
    const char *msg = sgl_error_last();
    if (!strstr(msg, want))
        return sgl_error_set(SGL_ETASK, "failing worker: message '%s'", msg);
    if (sgl_machine_depth(sgl_runtime_machine(rt)) > 0 && !strstr(msg, "child"))
        return sgl_error_set(SGL_ETASK, "failing worker: no child path in "
                                        "'%s'",
                             msg);
    return SGL_OK;
}

/* ---- misuse ---- */

static int expect(int got, int want, const char *what)
{
    if (got == want)
        return SGL_OK;
    return sgl_error_set(SGL_ETASK, "misuse '%s': got %s, expected %s", what,
                         sgl_error_name(got), sgl_error_name(want));
}

static int noop_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)ctx;
    (void)arg;
    (void)size;
    return SGL_OK;
}

static int misuse_worker(sgl_ctx_t *ctx)
{
    double x = 0;
    size_t one = 1;
    SGL_TRY(expect(sgl_scatter(ctx, &x, sizeof x, &one), SGL_ESTATE,
               "scatter on a worker"));
    SGL_TRY(expect(sgl_bcast(ctx, &x, sizeof x, 1), SGL_ESTATE,
               "bcast on a worker"));
    SGL_TRY(expect(sgl_pardo(ctx, noop_task, NULL, 0), SGL_ESTATE,
               "pardo on a worker"));
    SGL_TRY(expect(sgl_gather(ctx, &x, sizeof x, 1, NULL), SGL_ESTATE,
               "gather on a worker"));
    SGL_TRY(expect(sgl_put(ctx, NULL, sizeof x, 1), SGL_EINVAL, "put of NULL"));
    return SGL_OK;
}

static int misuse_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_worker(ctx))
        return misuse_worker(ctx);
    return sgl_pardo(ctx, misuse_task, arg, size);
}

static int unregistered_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    return noop_task(ctx, arg, size);
}

static int misuse_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg;
    (void)size;
    double x[4] = {0};
    void *d;
    size_t count;
    SGL_TRY(expect(sgl_put(root, x, 0, 1), SGL_EINVAL,
               "put with element size 0"));
    SGL_TRY(expect(sgl_put(root, x, SIZE_MAX / 2, 4), SGL_ERANGE,
               "put overflowing size_t"));
    SGL_TRY(expect(sgl_recv(root, 0, &d, &count), SGL_EINVAL,
               "recv with element size 0"));
    SGL_TRY(expect(sgl_recv(root, sizeof *x, NULL, &count), SGL_EINVAL,
               "recv without ret_data"));
    if (sgl_ctx_is_worker(root))
        return misuse_worker(root);
    unsigned p = sgl_ctx_children(root);
    size_t *counts = calloc(p, sizeof *counts);
    CHECK(counts, "out of memory");
    counts[0] = 3;
    int rc = expect(sgl_scatter(root, x, sizeof *x, NULL), SGL_EINVAL,
                    "scatter without counts");
    if (!rc)
        rc = expect(sgl_scatter(root, NULL, sizeof *x, counts), SGL_EINVAL,
                    "scatter of NULL with counts");
    if (!rc)
        rc = expect(sgl_scatter(root, x, 0, counts), SGL_EINVAL,
                    "scatter with element size 0");
    counts[0] = SIZE_MAX / 2;
    if (!rc)
        rc = expect(sgl_scatter(root, x, 4, counts), SGL_ERANGE,
                    "scatter overflowing size_t");
    counts[0] = 1;
    if (!rc)
        rc = expect(sgl_scatter(root, x, sizeof *x, counts), SGL_OK,
                    "scatter");
    if (!rc)
        rc = expect(sgl_bcast(root, x, sizeof *x, 1), SGL_ESTATE,
                    "second block staged");
    if (!rc)
        rc = expect(sgl_pardo(root, NULL, NULL, 0), SGL_EINVAL,
                    "pardo of NULL");
    if (!rc)
        rc = expect(sgl_pardo(root, misuse_task, NULL, 4), SGL_EINVAL,
                    "pardo with NULL arg of 4 bytes");
    if (!rc && sgl_node_link(sgl_ctx_node(root)) == SGL_LINK_MPI)
        rc = expect(sgl_pardo(root, unregistered_task, NULL, 0), SGL_ENOTASK,
                    "unregistered task at an MPI level");
    if (!rc)
        rc = expect(sgl_pardo(root, misuse_task, NULL, 0), SGL_OK,
                    "pardo of misuse on the workers");
    /* Every child put nothing; a put of 3 bytes checks the element size. */
    if (!rc)
        rc = expect(sgl_gather(root, x, sizeof *x, 4, counts), SGL_OK,
                    "gather of empty blocks");
    if (!rc && counts[0] != 0)
        rc = sgl_error_set(SGL_ETASK, "empty gather gave %zu", counts[0]);
    free(counts);
    return rc;
}

int prog_misuse(sgl_runtime_t *rt)
{
    return sgl_run(rt, misuse_main, NULL, 0);
}

/* ---- random block sizes with broadcasts ---- */

struct rb_arg {
    uint64_t seed;
    uint32_t step;
};

static uint8_t rb_byte(uint64_t seed, size_t worker, uint32_t step, size_t i)
{
    uint64_t s = seed ^ (worker * 1000003u) ^ ((uint64_t)step << 40) ^ i;
    return (uint8_t)test_mix(&s);
}

/* Each worker hands up a block of 0..1000 bytes determined by the seed, its
 * index and the step, followed by a checksum of the broadcast it got;
 * masters concatenate. */
static int rb_collect(sgl_ctx_t *ctx, const struct rb_arg *a, uint8_t **ret,
                      size_t *ret_n);

static int rb_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    CHECK(size == sizeof(struct rb_arg), "rb: arg of %zu bytes", size);
    uint8_t *v;
    size_t n;
    SGL_TRY(rb_collect(ctx, arg, &v, &n));
    int rc = sgl_put(ctx, v, 1, n);
    free(v);
    return rc;
}

static uint64_t rb_bcast_sum(uint64_t seed, uint32_t step, size_t *ret_n)
{
    uint64_t s = seed + step;
    size_t n = test_mix(&s) % 1001;
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += rb_byte(seed, SIZE_MAX, step, i);
    *ret_n = n;
    return sum;
}

static int rb_collect(sgl_ctx_t *ctx, const struct rb_arg *a, uint8_t **ret,
                      size_t *ret_n)
{
    if (sgl_ctx_is_worker(ctx)) {
        size_t w = sgl_ctx_first_worker(ctx);
        uint64_t s = a->seed ^ w ^ ((uint64_t)a->step << 32);
        size_t n = test_mix(&s) % 1001;
        uint8_t *v = malloc(n + sizeof(uint64_t));
        CHECK(v, "out of memory");
        for (size_t i = 0; i < n; i++)
            v[i] = rb_byte(a->seed, w, a->step, i);
        uint64_t sum = 0;
        if (!sgl_ctx_is_root(ctx)) {
            void *b;
            size_t nb;
            SGL_TRY(sgl_recv(ctx, 1, &b, &nb));
            for (size_t i = 0; i < nb; i++)
                sum += ((uint8_t *)b)[i];
        } else {
            size_t nb;
            sum = rb_bcast_sum(a->seed, a->step, &nb);
        }
        memcpy(v + n, &sum, sizeof sum);
        *ret = v;
        *ret_n = n + sizeof sum;
        return SGL_OK;
    }
    size_t nb;
    rb_bcast_sum(a->seed, a->step, &nb);
    uint8_t *b = malloc(nb ? nb : 1);
    CHECK(b, "out of memory");
    for (size_t i = 0; i < nb; i++)
        b[i] = rb_byte(a->seed, SIZE_MAX, a->step, i);
    int rc = sgl_bcast(ctx, b, 1, nb);
    if (!rc)
        rc = sgl_pardo(ctx, rb_task, a, sizeof *a);
    free(b);
    SGL_TRY(rc);
    size_t total = 0;
    for (unsigned i = 0; i < sgl_ctx_children(ctx); i++) {
        const void *d;
        size_t bytes;
        SGL_TRY(sgl_gather_block(ctx, i, 1, &d, &bytes));
        total += bytes;
    }
    uint8_t *v = malloc(total ? total : 1);
    CHECK(v, "out of memory");
    rc = sgl_gather(ctx, v, 1, total, NULL);
    if (rc) {
        free(v);
        return rc;
    }
    *ret = v;
    *ret_n = total;
    return SGL_OK;
}

static int rb_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct rb_arg *base = arg;
    size_t nw = sgl_machine_workers(sgl_ctx_machine(root));
    for (uint32_t step = 0; step < base->step; step++) {
        struct rb_arg a = {base->seed, step};
        uint8_t *v;
        size_t n;
        SGL_TRY(rb_collect(root, &a, &v, &n));
        size_t nb, off = 0;
        uint64_t bsum = rb_bcast_sum(a.seed, step, &nb);
        int rc = SGL_OK;
        for (size_t w = 0; !rc && w < nw; w++) {
            uint64_t s = a.seed ^ w ^ ((uint64_t)step << 32);
            size_t len = test_mix(&s) % 1001;
            if (off + len + sizeof bsum > n) {
                rc = sgl_error_set(SGL_ETASK, "rb: result too short at "
                                              "worker %zu",
                                   w);
                break;
            }
            for (size_t i = 0; !rc && i < len; i++)
                if (v[off + i] != rb_byte(a.seed, w, step, i))
                    rc = sgl_error_set(SGL_ETASK,
                                       "rb: step %u worker %zu byte %zu "
                                       "differs",
                                       step, w, i);
            uint64_t got;
            memcpy(&got, v + off + len, sizeof got);
            if (!rc && got != bsum)
                rc = sgl_error_set(SGL_ETASK,
                                   "rb: step %u worker %zu saw a broadcast "
                                   "checksum %" PRIu64 ", expected %" PRIu64,
                                   step, w, got, bsum);
            off += len + sizeof got;
        }
        if (!rc && off != n)
            rc = sgl_error_set(SGL_ETASK, "rb: %zu bytes back, expected %zu",
                               n, off);
        free(v);
        SGL_TRY(rc);
    }
    return SGL_OK;
}

int prog_random_blocks(sgl_runtime_t *rt, uint64_t seed, unsigned rounds)
{
    struct rb_arg a = {seed, rounds};
    return sgl_run(rt, rb_main, &a, sizeof a);
}

static int big_task(sgl_ctx_t *ctx, const void *arg, size_t size);
static int inplace_task(sgl_ctx_t *ctx, const void *arg, size_t size);
static int traced_task(sgl_ctx_t *ctx, const void *arg, size_t size);

/* ---- large blocks gathered straight into the destination ---- */

/* Worker w hands up 3000 + 7 w values w * 1e6 + i (over 16 KiB, the MPI
 * level's large-message path); masters size their buffer from the tree
 * alone and call sgl_gather without looking at the blocks first. */
static size_t big_len(size_t w) { return 3000 + 7 * w; }

static size_t big_total(const sgl_ctx_t *ctx)
{
    size_t n = 0, w0 = sgl_ctx_first_worker(ctx);
    for (size_t w = w0; w < w0 + sgl_ctx_workers(ctx); w++)
        n += big_len(w);
    return n;
}

static int big(sgl_ctx_t *ctx, int64_t *out)
{
    if (sgl_ctx_is_worker(ctx)) {
        size_t w = sgl_ctx_first_worker(ctx);
        for (size_t i = 0; i < big_len(w); i++)
            out[i] = (int64_t)(w * 1000000 + i);
        return SGL_OK;
    }
    SGL_TRY(sgl_pardo(ctx, big_task, NULL, 0));
    SGL_TRY(sgl_gather(ctx, out, sizeof *out, big_total(ctx), NULL));
    if (sgl_node_link(sgl_ctx_node(ctx)) == SGL_LINK_MPI) {
        const void *d;
        size_t b;
        unsigned last = sgl_ctx_children(ctx) - 1;
        CHECK(sgl_gather_block(ctx, last, sizeof *out, &d, &b) == SGL_ESTATE,
              "gather_block after a direct gather did not say ESTATE");
    }
    return SGL_OK;
}

static int big_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    void *out;
    SGL_TRY(sgl_put_buffer(ctx, sizeof(int64_t), big_total(ctx), &out));
    return big(ctx, out);
}

static int big_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t n = big_total(root);
    int64_t *out = malloc(n * sizeof *out);
    CHECK(out, "out of memory");
    int rc = big(root, out);
    size_t k = 0;
    for (size_t w = 0; !rc && w < sgl_ctx_workers(root); w++)
        for (size_t i = 0; !rc && i < big_len(w); i++, k++)
            if (out[k] != (int64_t)(w * 1000000 + i))
                rc = sgl_error_set(SGL_ETASK, "big gather: slot %zu holds "
                                              "%" PRId64,
                                   k, out[k]);
    free(out);
    return rc;
}

int prog_big_gather(sgl_runtime_t *rt)
{
    return sgl_run(rt, big_main, NULL, 0);
}

/* ---- blocks built in place by the master, buffers freed early ---- */

/* Worker w gets ip_len(w) values; odd workers' blocks are over 16 KiB
 * (the MPI level's large path). Each round scales the values. */
static size_t ip_len(size_t w) { return 50 + w + (w % 2 ? 2500 : 0); }

static int64_t ip_val(size_t w, size_t i, uint32_t round)
{
    return (int64_t)(w * 1000000 + i) * (int64_t)(round + 1);
}

static size_t ip_span(size_t w0, size_t workers)
{
    size_t n = 0;
    for (size_t w = w0; w < w0 + workers; w++)
        n += ip_len(w);
    return n;
}

static int inplace(sgl_ctx_t *ctx, const int64_t *in, size_t n,
                   uint32_t round);

static int inplace_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    CHECK(size == sizeof(uint32_t), "inplace: arg of %zu bytes", size);
    uint32_t round;
    memcpy(&round, arg, sizeof round);
    void *v;
    size_t n;
    SGL_TRY(sgl_recv(ctx, sizeof(int64_t), &v, &n));
    return inplace(ctx, v, n, round);
}

/* Workers check their block and hand up its negation, then free the
 * received block; masters split their block straight into the children's
 * buffers, free it, and concatenate the children's blocks after checking
 * them, then free those. */
static int inplace(sgl_ctx_t *ctx, const int64_t *in, size_t n,
                   uint32_t round)
{
    size_t w0 = sgl_ctx_first_worker(ctx);
    int root = sgl_ctx_is_root(ctx);
    void *d;
    size_t b;
    CHECK(n == ip_span(w0, sgl_ctx_workers(ctx)),
          "inplace: worker %zu's subtree got %zu values", w0, n);
    if (sgl_ctx_is_worker(ctx)) {
        for (size_t i = 0; i < n; i++)
            CHECK(in[i] == ip_val(w0, i, round),
                  "inplace: worker %zu value %zu is %" PRId64, w0, i, in[i]);
        if (root)
            return SGL_OK;
        SGL_TRY(expect(sgl_scatter_buffer(ctx, 0, sizeof *in, 1, &d), SGL_ESTATE,
                   "scatter_buffer on a worker"));
        SGL_TRY(expect(sgl_gather_release(ctx), SGL_ESTATE,
                   "gather_release on a worker"));
        int64_t *up;
        SGL_TRY(sgl_put_buffer(ctx, sizeof *up, n, (void **)&up));
        for (size_t i = 0; i < n; i++)
            up[i] = -in[i];
        SGL_TRY(sgl_recv_release(ctx));
        return expect(sgl_recv(ctx, sizeof *in, &d, &b), SGL_ESTATE,
                      "recv after recv_release");
    }
    unsigned p = sgl_ctx_children(ctx);
    const int64_t *from = in;
    size_t cw = w0;
    for (unsigned c = 0; c < p; c++) {
        size_t m = ip_span(cw, sgl_ctx_child_workers(ctx, c));
        SGL_TRY(sgl_scatter_buffer(ctx, c, sizeof *from, m, &d));
        if (m)
            memcpy(d, from, m * sizeof *from);
        from += m;
        cw += sgl_ctx_child_workers(ctx, c);
        if (c == 0) {
            size_t one = 1;
            SGL_TRY(expect(sgl_scatter(ctx, in, 8, &one), SGL_ESTATE,
                       "scatter after scatter_buffer"));
            SGL_TRY(expect(sgl_bcast(ctx, in, sizeof *in, 1), SGL_ESTATE,
                       "bcast after scatter_buffer"));
            SGL_TRY(expect(sgl_scatter_buffer(ctx, p, sizeof *in, 1, &d),
                       SGL_EINVAL,
                       "scatter_buffer to child out of range"));
            SGL_TRY(expect(sgl_scatter_buffer(ctx, 0, sizeof *in, 1, NULL),
                       SGL_EINVAL,
                       "scatter_buffer with NULL ret_data"));
        }
    }
    SGL_TRY(sgl_recv_release(ctx));
    SGL_TRY(sgl_pardo(ctx, inplace_task, &round, sizeof round));
    int64_t *up = NULL;
    if (!root)
        SGL_TRY(sgl_put_buffer(ctx, sizeof *up, n, (void **)&up));
    size_t k = 0, w = w0, i = 0; /* value k is worker w's value i */
    for (unsigned c = 0; c < p; c++) {
        const int64_t *v;
        SGL_TRY(sgl_gather_block(ctx, c, sizeof *v, (const void **)&v, &b));
        for (size_t j = 0; j < b; j++, k++) {
            for (; i >= ip_len(w); i = 0)
                w++;
            CHECK(v[j] == -ip_val(w, i, round),
                  "inplace: value %zu of worker %zu is %" PRId64, i, w, v[j]);
            i++;
            if (up)
                up[k] = v[j];
        }
    }
    CHECK(k == n, "inplace: children of worker %zu's master handed up %zu "
                  "values, not %zu",
          w0, k, n);
    SGL_TRY(sgl_gather_release(ctx));
    SGL_TRY(expect(sgl_gather_block(ctx, 0, sizeof *in, (const void **)&d, &b),
               SGL_ESTATE,
               "gather_block after gather_release"));
    return expect(sgl_gather(ctx, NULL, 8, 0, NULL), SGL_ESTATE,
                  "gather after gather_release");
}

static int inplace_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t n = ip_span(0, sgl_ctx_workers(root));
    int64_t *in = malloc(n * sizeof *in);
    CHECK(in, "out of memory");
    int rc = SGL_OK;
    /* Rounds after the first find freed buffers and allocate again. */
    for (uint32_t round = 0; round < 3 && !rc; round++) {
        size_t k = 0;
        for (size_t w = 0; w < sgl_ctx_workers(root); w++)
            for (size_t i = 0; i < ip_len(w); i++)
                in[k++] = ip_val(w, i, round);
        rc = inplace(root, in, n, round);
    }
    free(in);
    return rc;
}

int prog_inplace(sgl_runtime_t *rt)
{
    return sgl_run(rt, inplace_main, NULL, 0);
}

/* ---- keyed states beside the program's ---- */

static const char key_a = 'a', key_b = 'b';

/* Three states per worker: the program's and two libraries'. */
static int keyed_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    CHECK(size == sizeof(uint32_t), "keyed: arg of %zu bytes", size);
    uint32_t step;
    memcpy(&step, arg, sizeof step);
    if (!sgl_ctx_is_worker(ctx))
        return sgl_pardo(ctx, keyed_task, arg, size);
    size_t w = sgl_ctx_first_worker(ctx);
    const void *keys[] = {NULL, &key_a, &key_b};
    if (step == 0) {
        /* Earlier programs leave the program's slot set; libraries'
         * slots must be empty. */
        for (size_t k = 0; k < 3; k++) {
            CHECK(k == 0 || sgl_ctx_keyed_state(ctx, keys[k]) == NULL,
                  "keyed: worker %zu has state %zu before setting it", w, k);
            size_t *v = malloc(sizeof *v);
            CHECK(v, "out of memory");
            *v = 10 * w + k;
            SGL_TRY(sgl_ctx_set_keyed_state(ctx, keys[k], v, free));
        }
        return SGL_OK;
    }
    for (size_t k = 0; k < 3; k++) {
        const size_t *v = sgl_ctx_keyed_state(ctx, keys[k]);
        CHECK(v && *v == 10 * w + k, "keyed: worker %zu lost state %zu", w,
              k);
    }
    CHECK(sgl_ctx_state(ctx) == sgl_ctx_keyed_state(ctx, NULL),
          "keyed: the NULL key is not the program's state");
    /* Removing one library's state leaves the others. */
    SGL_TRY(sgl_ctx_set_keyed_state(ctx, &key_b, NULL, NULL));
    CHECK(sgl_ctx_keyed_state(ctx, &key_b) == NULL &&
              *(const size_t *)sgl_ctx_keyed_state(ctx, &key_a) == 10 * w + 1,
          "keyed: removing key b on worker %zu", w);
    /* The program's slot goes back to empty for later programs. */
    sgl_ctx_set_state(ctx, NULL, NULL);
    return sgl_ctx_set_keyed_state(ctx, &key_a, NULL, NULL);
}

static int keyed_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    CHECK(sgl_ctx_set_keyed_state(NULL, &key_a, NULL, NULL) == SGL_EINVAL,
          "keyed: NULL context accepted");
    if (sgl_ctx_is_worker(root))
        return SGL_OK;
    for (uint32_t step = 0; step < 2; step++)
        SGL_TRY(sgl_pardo(root, keyed_task, &step, sizeof step));
    return SGL_OK;
}

int prog_keyed_state(sgl_runtime_t *rt)
{
    return sgl_run(rt, keyed_main, NULL, 0);
}

/* ---- the trace counts bytes and work exactly ---- */

/* Child i of every master gets 3 (i + 1) int64 and hands up 2 (i + 1)
 * bytes; each worker declares its index + 1 units of work. */
static int traced(sgl_ctx_t *ctx);

static int traced_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    SGL_TRY(traced(ctx));
    char up[256] = {0};
    unsigned i = sgl_ctx_index(ctx);
    return sgl_put(ctx, up, 1, 2 * (size_t)(i + 1));
}

static int traced(sgl_ctx_t *ctx)
{
    if (sgl_ctx_is_worker(ctx))
        return sgl_ctx_is_root(ctx)
                   ? SGL_OK
                   : sgl_ctx_add_work(ctx, (double)sgl_ctx_first_worker(ctx) +
                                               1);
    unsigned p = sgl_ctx_children(ctx);
    size_t *counts = malloc(p * sizeof *counts), total = 0;
    CHECK(counts, "out of memory");
    for (unsigned i = 0; i < p; i++)
        total += counts[i] = 3 * (size_t)(i + 1);
    int64_t *v = calloc(total, sizeof *v);
    int rc = v ? sgl_scatter(ctx, v, sizeof *v, counts) : SGL_ENOMEM;
    if (!rc)
        rc = sgl_pardo(ctx, traced_task, NULL, 0);
    free(v);
    free(counts);
    return rc;
}

static int traced_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    return traced(root);
}

/* sgl_trace_step_delivered() of child @i in @st: a child of the master's
 * process by its task time; another process's from its task time up to
 * its reply, which it is where the reply came in during the wait (or its
 * task time, where the child's clock made that a hair longer). */
static int check_delivered(sgl_runtime_t *rt, const sgl_trace_step_t *st,
                           unsigned i, int own)
{
    double d = -1;
    SGL_TRY(sgl_trace_step_delivered(rt, st, i, &d));
    if (own)
        CHECK(d == st->child_time[i],
              "trace: level %u child %u of this process delivered in %g s, "
              "its task took %g s",
              st->level, i, d, st->child_time[i]);
    else
        CHECK(d >= st->child_time[i] &&
                  d <= fmax(st->child_done[i], st->child_time[i]) &&
                  (st->child_done[i] <= st->wait_start ||
                   d == fmax(st->child_done[i], st->child_time[i])),
              "trace: level %u child %u of another process delivered in %g "
              "s: task %g s, reply at %g s, wait from %g s",
              st->level, i, d, st->child_time[i], st->child_done[i],
              st->wait_start);
    return SGL_OK;
}

/* Bad arguments to sgl_trace_step_delivered() are refused, the output
 * left alone: SGL_OK when all of them were. */
static int check_delivered_errors(sgl_runtime_t *rt, const sgl_trace_step_t *st)
{
    double d = -1;
    sgl_trace_step_t other = *st;
    other.first_worker = (size_t)-1;
    sgl_trace_step_t wider = *st;
    wider.children = st->children + 1;
    int refused =
        sgl_trace_step_delivered(NULL, st, 0, &d) == SGL_EINVAL &&
        sgl_trace_step_delivered(rt, NULL, 0, &d) == SGL_EINVAL &&
        sgl_trace_step_delivered(rt, st, 0, NULL) == SGL_EINVAL &&
        sgl_trace_step_delivered(rt, st, st->children, &d) == SGL_EINVAL &&
        sgl_trace_step_delivered(rt, &other, 0, &d) == SGL_EINVAL &&
        sgl_trace_step_delivered(rt, &wider, 0, &d) == SGL_EINVAL;
    return refused && d == -1 ? SGL_OK : SGL_EINVAL;
}

int prog_trace(sgl_runtime_t *rt)
{
    sgl_trace_clear(rt);
    int rc = sgl_run(rt, traced_main, NULL, 0);
    if (rc || sgl_runtime_rank(rt) != 0)
        return rc;
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    const sgl_node_t *root = sgl_machine_root(m);
    size_t n = sgl_trace_steps(rt);
    if (sgl_node_arity(root) == 0)
        return n == 0 ? SGL_OK
                      : sgl_error_set(SGL_ETASK, "trace: %zu steps on a "
                                                 "single worker",
                                      n);
    CHECK(n >= 1, "trace: no step recorded");
    sgl_trace_step_t s, r;
    SGL_TRY(sgl_trace_step(rt, 0, &r));
    CHECK(r.level == 0 && r.parent_seq == -1 && r.children ==
                                                    sgl_node_arity(root),
          "trace: first step is level %u with %u children", r.level,
          r.children);
    CHECK(r.end >= r.start, "trace: step ends before it starts");
    for (unsigned i = 0; i < r.children; i++) {
        const sgl_node_t *c = sgl_node_child(root, i);
        CHECK(r.down_bytes[i] == 3 * (i + 1) * sizeof(int64_t),
              "trace: child %u down %zu bytes", i, r.down_bytes[i]);
        CHECK(r.up_bytes[i] == 2 * (size_t)(i + 1), "trace: child %u up %zu",
              i, r.up_bytes[i]);
        /* Each worker declares its index + 1; a master's work is its
         * workers'. */
        size_t first = sgl_node_first_worker(c), k = sgl_node_workers(c);
        double want = (double)(k * (2 * first + k + 1) / 2);
        CHECK(r.child_work[i] == want, "trace: child %u work %g, want %g", i,
              r.child_work[i], want);
        CHECK(r.child_time[i] >= 0 && r.child_time[i] <= r.end - r.start,
              "trace: child %u time %g outside its superstep", i,
              r.child_time[i]);
        /* The reply comes after the task (the child's clock timed it:
         * allow for a rate difference) and before the superstep ends (the
         * master's clock for both). */
        CHECK(r.child_done[i] >= r.child_time[i] * (1 - 1e-6) - 1e-6 &&
                  r.child_done[i] <= r.end - r.start,
              "trace: child %u's reply at %g s, after a task of %g s, in a "
              "superstep of %g s",
              i, r.child_done[i], r.child_time[i], r.end - r.start);
        /* The master waits for other processes' replies once its own
         * children are done. */
        int own = sgl_node_rank(c) == sgl_runtime_rank(rt);
        CHECK(own ? r.wait_start == 0 || r.child_done[i] < r.wait_start
                  : r.wait_start > 0 && r.child_done[i] >= r.wait_start,
              "trace: child %u (%s process) replied at %g s, the master "
              "waited from %g s",
              i, own ? "the master's" : "another", r.child_done[i],
              r.wait_start);
        SGL_TRY(check_delivered(rt, &r, i, own));
    }
    CHECK(check_delivered_errors(rt, &r) == SGL_OK,
          "trace: sgl_trace_step_delivered took bad arguments");
    /* Every other step of this process ran inside the root's superstep,
     * one per master that rank 0 plays. */
    size_t masters = 0;
    for (size_t w = 0; w < sgl_machine_workers(m); w++)
        for (const sgl_node_t *a = sgl_node_parent(sgl_machine_worker(m, w));
             a && sgl_node_rank(a) == 0; a = sgl_node_parent(a))
            if (sgl_node_first_worker(a) == w)
                masters++;
    CHECK(n == masters, "trace: %zu steps for %zu masters on rank 0", n,
          masters);
    for (size_t i = 1; i < n; i++) {
        SGL_TRY(sgl_trace_step(rt, i, &s));
        CHECK(s.level > 0 && s.start >= r.start && s.end <= r.end,
              "trace: step %zu (level %u) outside the root's", i, s.level);
        const sgl_node_t *x = sgl_machine_worker(m, s.first_worker);
        while (x && sgl_node_level(x) > s.level)
            x = sgl_node_parent(x);
        CHECK(x, "trace: no master of step %zu in the tree", i);
        for (unsigned c = 0; c < s.children; c++) {
            CHECK(s.down_bytes[c] == 3 * (c + 1) * sizeof(int64_t),
                  "trace: level %u child %u down %zu bytes", s.level, c,
                  s.down_bytes[c]);
            SGL_TRY(check_delivered(rt, &s, c,
                                sgl_node_rank(sgl_node_child(x, c)) == s.rank));
        }
    }
    return SGL_OK;
}

/* ---- the root's block is the run's argument, its hand-up the result ---- */

/* The run's argument: 7 uint32, 28 bytes, so that 8-byte elements do not
 * divide it. */
enum { RIO_N = 7 };

static uint32_t rio_val(size_t i) { return 1000u + 3u * (uint32_t)i; }

static int rio_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    const uint32_t *a = arg;
    uint32_t *v;
    size_t n;
    CHECK(size == RIO_N * sizeof *a, "root io: argument of %zu bytes", size);
    SGL_TRY(expect(sgl_recv(root, 8, (void **)&v, &n), SGL_ESIZE,
               "recv of 28 bytes as 8-byte elements"));
    SGL_TRY(sgl_recv(root, sizeof *v, (void **)&v, &n));
    CHECK(n == RIO_N, "root io: block of %zu elements", n);
    CHECK((const void *)v != arg, "root io: the block is the caller's "
                                  "argument, not a copy");
    for (size_t i = 0; i < n; i++)
        CHECK(v[i] == rio_val(i), "root io: element %zu is %" PRIu32, i,
              v[i]);
    /* The copy is the root's to write; a second recv gives it again. */
    v[0] = 7;
    uint32_t *again;
    SGL_TRY(sgl_recv(root, sizeof *again, (void **)&again, &n));
    CHECK(again == v && n == RIO_N && again[0] == 7,
          "root io: a second recv gave another block");
    /* A later put replaces the earlier one. */
    uint32_t first = 0xdeadu, out[RIO_N];
    SGL_TRY(sgl_put(root, &first, sizeof first, 1));
    for (size_t i = 0; i < RIO_N; i++)
        out[i] = rio_val(RIO_N - 1 - i);
    SGL_TRY(sgl_put(root, out, sizeof *out, RIO_N));
    SGL_TRY(sgl_recv_release(root));
    SGL_TRY(expect(sgl_recv(root, sizeof *v, (void **)&v, &n), SGL_ESTATE,
               "recv after recv_release on the root"));
    for (size_t i = 0; i < RIO_N; i++)
        CHECK(a[i] == rio_val(i), "root io: argument element %zu changed "
                                  "to %" PRIu32,
              i, a[i]);
    return SGL_OK;
}

/* Without an argument the root's block is empty; it puts nothing. */
static int rio_empty_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    void *v;
    size_t n = 1;
    SGL_TRY(sgl_recv(root, sizeof(uint64_t), &v, &n));
    CHECK(n == 0, "root io: %zu elements without an argument", n);
    return SGL_OK;
}

static int rio_fail_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    uint32_t x = 1;
    SGL_TRY(sgl_put(root, &x, sizeof x, 1));
    return sgl_error_set(SGL_ETASK, "root fails after its put");
}

/* The result of rio_main where @has, else SGL_ESTATE. */
static int rio_check(sgl_runtime_t *rt, int has)
{
    const uint32_t *r;
    size_t n;
    int rc = sgl_run_result(rt, sizeof *r, (const void **)&r, &n);
    if (!has)
        return expect(rc, SGL_ESTATE, "run_result on another rank without "
                                      "share_result");
    SGL_TRY(rc);
    CHECK(n == RIO_N, "run result: %zu elements", n);
    for (size_t i = 0; i < RIO_N; i++)
        CHECK(r[i] == rio_val(RIO_N - 1 - i),
              "run result: element %zu is %" PRIu32, i, r[i]);
    return expect(sgl_run_result(rt, 8, (const void **)&r, &n), SGL_ESIZE,
                  "run_result of 28 bytes as 8-byte elements");
}

/* The first failure of a sequence, with its message, which later calls
 * would overwrite. */
struct first_error {
    int rc;
    char msg[512];
};

static void keep_first(struct first_error *f, int rc)
{
    if (rc && !f->rc) {
        f->rc = rc;
        snprintf(f->msg, sizeof f->msg, "%s", sgl_error_last());
    }
}

/* Every rank runs all three programs, whatever it finds, so that the
 * ranks stay in step. */
int prog_run_result(sgl_runtime_t *rt, int shared)
{
    int has = shared || sgl_runtime_rank(rt) == 0;
    struct first_error f = {SGL_OK, ""};
    const uint32_t *r;
    size_t n = 1;
    uint32_t a[RIO_N];
    for (size_t i = 0; i < RIO_N; i++)
        a[i] = rio_val(i);
    int rc = sgl_run(rt, rio_main, a, sizeof a);
    keep_first(&f, rc ? rc : rio_check(rt, has));
    rc = sgl_run(rt, rio_empty_main, NULL, 0);
    if (!rc && has)
        rc = sgl_run_result(rt, sizeof *r, (const void **)&r, &n);
    if (!rc && has && n != 0)
        rc = sgl_error_set(SGL_ETASK, "run result: %zu elements from a run "
                                      "that put nothing",
                           n);
    keep_first(&f, rc);
    rc = sgl_run(rt, rio_fail_main, NULL, 0);
    keep_first(&f, rc == SGL_ETASK
                       ? expect(sgl_run_result(rt, sizeof *r,
                                               (const void **)&r, &n),
                                SGL_ESTATE, "run_result after a failed run")
                       : sgl_error_set(SGL_ETASK, "run result: the failing "
                                                  "run gave %s",
                                       sgl_error_name(rc)));
    return f.rc ? sgl_error_set(f.rc, "%s", f.msg) : SGL_OK;
}

/* ---- sgl_ctx_split by workers and by weights ---- */

/* Splits by hand: a master whose children have these numbers of workers
 * gives n elements these counts, the boundaries floor(n * workers before
 * the child / all workers) of the block layout. Every uneven master of
 * the shapes the tests use is here. */
struct split_case {
    unsigned p;
    size_t workers[3], n, want[3];
};

static const struct split_case split_cases[] = {
    {2, {1, 1}, 7, {3, 4}},
    {3, {1, 1, 1}, 10, {3, 3, 4}},
    {2, {2, 2}, 5, {2, 3}},
    {2, {3, 3}, 11, {5, 6}},
    {2, {4, 4}, 9, {4, 5}},
    {3, {1, 4, 2}, 10, {1, 6, 3}},
    {2, {2, 4}, 10, {3, 7}},
    {2, {3, 1}, 7, {5, 2}},
    {3, {1, 2, 3}, 10, {1, 4, 5}},
    {2, {2, 6}, 10, {2, 8}},
    {3, {2, 2, 2}, 10, {3, 3, 4}},
};

/* Splits by weights, by hand, for any master of p children. */
struct weight_case {
    unsigned p;
    double w[3];
    size_t n, want[3];
};

static const struct weight_case weight_cases[] = {
    {2, {1, 3}, 10, {2, 8}},
    {2, {0, 1}, 5, {0, 5}},
    {2, {1, 0}, 5, {5, 0}},
    {3, {1, 0, 2}, 7, {2, 0, 5}},
    {3, {0.5, 0.25, 0.25}, 8, {4, 2, 2}},
};

static int same_counts(const size_t *got, const size_t *want, unsigned p)
{
    for (unsigned i = 0; i < p; i++)
        if (got[i] != want[i])
            return 0;
    return 1;
}

/* Whatever the tree and n: the counts add up to n and each is within one
 * of the child's exact share n * W_i / W (in 128 bits, so that n near
 * SIZE_MAX is exact too). */
static int split_generic(const sgl_ctx_t *ctx, size_t n, size_t *counts)
{
    __extension__ typedef unsigned __int128 u128;
    unsigned p = sgl_ctx_children(ctx);
    size_t all = sgl_ctx_workers(ctx), sum = 0;
    SGL_TRY(sgl_ctx_split(ctx, n, NULL, counts));
    for (unsigned i = 0; i < p; i++) {
        u128 have = (u128)counts[i] * all;
        u128 share = (u128)n * sgl_ctx_child_workers(ctx, i);
        CHECK(have < share + all && share < have + all,
              "split: child %u of worker %zu's master gets %zu of %zu",
              i, sgl_ctx_first_worker(ctx), counts[i], n);
        CHECK(counts[i] <= n - sum, "split: counts of %zu exceed it", n);
        sum += counts[i];
    }
    CHECK(sum == n, "split: counts add up to %zu, not %zu", sum, n);
    /* Weights i: child 0 gets nothing, the others their share up to one
     * (double prefix sums may round by far less than an element while n
     * is far below 2^53). */
    if (n > 1000003)
        return SGL_OK;
    double *w = malloc(p * sizeof *w), total = 0;
    CHECK(w, "out of memory");
    for (unsigned i = 0; i < p; i++)
        total += w[i] = i;
    int rc = sgl_ctx_split(ctx, n, w, counts);
    sum = 0;
    for (unsigned i = 0; !rc && i < p; i++) {
        double share = (double)n * w[i] / total;
        if (fabs((double)counts[i] - share) >= 1 + 1e-6 ||
            (i == 0 && counts[0]))
            rc = sgl_error_set(SGL_ETASK, "split: child %u of weight %g "
                                          "gets %zu of %zu",
                               i, w[i], counts[i], n);
        sum += counts[i];
    }
    free(w);
    SGL_TRY(rc);
    CHECK(sum == n, "split by weight: counts add up to %zu, not %zu", sum, n);
    return SGL_OK;
}

static int split_errors(sgl_ctx_t *ctx, size_t *counts)
{
    unsigned p = sgl_ctx_children(ctx);
    double *w = calloc(p, sizeof *w);
    CHECK(w, "out of memory");
    int rc = expect(sgl_ctx_split(ctx, 4, w, counts), SGL_EINVAL,
                    "split by weights summing to 0");
    w[p - 1] = 1;
    w[0] = -1;
    if (!rc)
        rc = expect(sgl_ctx_split(ctx, 4, w, counts), SGL_EINVAL,
                    "split by a negative weight");
    w[0] = NAN;
    if (!rc)
        rc = expect(sgl_ctx_split(ctx, 4, w, counts), SGL_EINVAL,
                    "split by a NaN weight");
    w[0] = INFINITY;
    if (!rc)
        rc = expect(sgl_ctx_split(ctx, 4, w, counts), SGL_EINVAL,
                    "split by an infinite weight");
    if (!rc)
        rc = expect(sgl_ctx_split(ctx, 4, NULL, NULL), SGL_EINVAL,
                    "split without ret_counts");
    if (!rc)
        rc = expect(sgl_ctx_split(NULL, 4, NULL, counts), SGL_EINVAL,
                    "split of a NULL context");
    /* A refused scatter_split stages nothing: the caller's scatter after
     * these still may. */
    w[0] = NAN;
    if (!rc)
        rc = expect(sgl_scatter_split(ctx, counts, 1, 4, w), SGL_EINVAL,
                    "scatter_split by a NaN weight");
    if (!rc)
        rc = expect(sgl_scatter_split(ctx, NULL, 1, 4, NULL), SGL_EINVAL,
                    "scatter_split of NULL with n = 4");
    if (!rc)
        rc = expect(sgl_scatter_split(ctx, counts, 0, 4, NULL), SGL_EINVAL,
                    "scatter_split with element size 0");
    free(w);
    return rc;
}

/* Each master checks its splits, then scatters n_r elements split by
 * workers; every child hands up (hand cases checked below it, elements it
 * received), and the master compares those with its split. */
struct split_up {
    size_t checked, got;
};

static int split_task(sgl_ctx_t *ctx, const void *arg, size_t size);

static int split_node(sgl_ctx_t *ctx, size_t n_r, struct split_up *ret)
{
    ret->checked = 0;
    size_t c[3];
    if (!sgl_ctx_is_master(ctx)) {
        CHECK(sgl_ctx_is_worker(ctx), "split: neither master nor worker");
        SGL_TRY(expect(sgl_ctx_split(ctx, 4, NULL, c), SGL_ESTATE,
                   "split on a worker"));
        void *g;
        size_t total;
        SGL_TRY(expect(sgl_gather_alloc(ctx, 1, &g, &total, NULL), SGL_ESTATE,
                   "gather_alloc on a worker"));
        return expect(sgl_scatter_split(ctx, c, 1, 1, NULL), SGL_ESTATE,
                      "scatter_split on a worker");
    }
    CHECK(!sgl_ctx_is_worker(ctx), "split: a master is a worker");
    unsigned p = sgl_ctx_children(ctx);
    size_t *counts = malloc(p * sizeof *counts);
    struct split_up *up = malloc(p * sizeof *up);
    char *src = calloc(n_r ? n_r : 1, 1);
    int rc = counts && up && src
                 ? SGL_OK
                 : sgl_error_set(SGL_ENOMEM, "out of memory");
    for (size_t k = 0; !rc && k < sizeof split_cases / sizeof *split_cases;
         k++) {
        const struct split_case *sc = &split_cases[k];
        unsigned i = 0;
        while (sc->p == p && i < p &&
               sgl_ctx_child_workers(ctx, i) == sc->workers[i])
            i++;
        if (i < p || sc->p != p)
            continue;
        rc = sgl_ctx_split(ctx, sc->n, NULL, c);
        if (!rc && !same_counts(c, sc->want, p))
            rc = sgl_error_set(SGL_ETASK, "split: %zu over workers "
                                          "[%zu,%zu,...] gives %zu, %zu, ...",
                               sc->n, sc->workers[0], sc->workers[1], c[0],
                               c[1]);
        ret->checked++;
    }
    for (size_t k = 0; !rc && k < sizeof weight_cases / sizeof *weight_cases;
         k++) {
        const struct weight_case *wc = &weight_cases[k];
        if (wc->p != p)
            continue;
        rc = sgl_ctx_split(ctx, wc->n, wc->w, c);
        if (!rc && !same_counts(c, wc->want, p))
            rc = sgl_error_set(SGL_ETASK, "split: %zu by weights %g, %g, "
                                          "... gives %zu, %zu, ...",
                               wc->n, wc->w[0], wc->w[1], c[0], c[1]);
    }
    size_t all = sgl_ctx_workers(ctx);
    size_t sizes[] = {0, 1, all - 1, all, all + 1, 1000003, SIZE_MAX};
    for (size_t k = 0; !rc && k < sizeof sizes / sizeof *sizes; k++)
        rc = split_generic(ctx, sizes[k], counts);
    if (!rc)
        rc = split_errors(ctx, counts);
    if (!rc)
        rc = sgl_ctx_split(ctx, n_r, NULL, counts);
    if (!rc)
        rc = sgl_scatter_split(ctx, src, 1, n_r, NULL);
    if (!rc)
        rc = sgl_pardo(ctx, split_task, NULL, 0);
    if (!rc)
        rc = sgl_gather(ctx, up, sizeof *up, p, NULL);
    for (unsigned i = 0; !rc && i < p; i++) {
        if (up[i].got != counts[i])
            rc = sgl_error_set(SGL_ETASK, "split: child %u received %zu "
                                          "elements, not %zu",
                               i, up[i].got, counts[i]);
        ret->checked += up[i].checked;
    }
    free(counts);
    free(up);
    free(src);
    return rc;
}

static int split_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    void *v;
    size_t got;
    SGL_TRY(sgl_recv(ctx, 1, &v, &got));
    struct split_up up;
    SGL_TRY(split_node(ctx, got, &up));
    up.got = got;
    return sgl_put(ctx, &up, sizeof up, 1);
}

static int split_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    struct split_up up;
    SGL_TRY(split_node(root, 10007, &up));
    return sgl_put(root, &up.checked, sizeof up.checked, 1);
}

int prog_split(sgl_runtime_t *rt, size_t *ret_checked)
{
    SGL_TRY(sgl_run(rt, split_main, NULL, 0));
    const size_t *checked;
    size_t n;
    if (sgl_runtime_rank(rt) != 0)
        return SGL_OK;
    SGL_TRY(sgl_run_result(rt, sizeof *checked, (const void **)&checked, &n));
    CHECK(n == 1, "split: result of %zu elements", n);
    *ret_checked = *checked;
    return SGL_OK;
}

/* ---- scatter_split and gather_alloc round trip ---- */

/* A 12-byte element, so that no block size is a power of two. */
struct trip {
    uint32_t i, not_i, hash;
};

static struct trip trip_val(size_t i)
{
    return (struct trip){(uint32_t)i, ~(uint32_t)i,
                         (uint32_t)i * 2654435761u};
}

/* Weights of mode 1: the child's index, so child 0 of every master gets
 * nothing; mode 0 splits by workers. */
static int trip_node(sgl_ctx_t *ctx, uint32_t mode, struct trip *v, size_t n,
                     struct trip **ret, size_t *ret_n);

static int trip_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    CHECK(size == sizeof(uint32_t), "trip: arg of %zu bytes", size);
    uint32_t mode;
    memcpy(&mode, arg, sizeof mode);
    struct trip *v, *out;
    size_t n, m;
    SGL_TRY(sgl_recv(ctx, sizeof *v, (void **)&v, &n));
    SGL_TRY(trip_node(ctx, mode, v, n, &out, &m));
    int rc = sgl_put(ctx, out, sizeof *out, m);
    if (out != v)
        free(out);
    return rc;
}

static int trip_node(sgl_ctx_t *ctx, uint32_t mode, struct trip *v, size_t n,
                     struct trip **ret, size_t *ret_n)
{
    if (!sgl_ctx_is_master(ctx)) {
        *ret = v;
        *ret_n = n;
        return SGL_OK;
    }
    unsigned p = sgl_ctx_children(ctx);
    double *w = malloc(p * sizeof *w);
    size_t *want = malloc(p * sizeof *want), *got = malloc(p * sizeof *got);
    struct trip *g = NULL;
    size_t total = 0;
    int rc = w && want && got ? SGL_OK
                              : sgl_error_set(SGL_ENOMEM, "out of memory");
    for (unsigned i = 0; i < p && w; i++)
        w[i] = i;
    const double *weights = mode ? w : NULL;
    if (!rc)
        rc = sgl_ctx_split(ctx, n, weights, want);
    if (!rc)
        rc = sgl_scatter_split(ctx, v, sizeof *v, n, weights);
    if (!rc)
        rc = sgl_pardo(ctx, trip_task, &mode, sizeof mode);
    if (!rc)
        rc = sgl_gather_alloc(ctx, sizeof *g, (void **)&g, &total, got);
    if (!rc && total != n)
        rc = sgl_error_set(SGL_ETASK, "trip: %zu elements back of %zu",
                           total, n);
    if (!rc && (total == 0) != (g == NULL))
        rc = sgl_error_set(SGL_ETASK, "trip: gather_alloc of %zu elements "
                                      "gave %p",
                           total, (void *)g);
    for (unsigned i = 0; !rc && i < p; i++)
        if (got[i] != want[i])
            rc = sgl_error_set(SGL_ETASK, "trip: child %u handed up %zu "
                                          "elements, its split is %zu",
                               i, got[i], want[i]);
    free(w);
    free(want);
    free(got);
    if (rc) {
        free(g);
        return rc;
    }
    *ret = g;
    *ret_n = total;
    return SGL_OK;
}

/* The root's block is the run's argument: the array to split. */
static int trip_root(sgl_ctx_t *root, uint32_t mode)
{
    struct trip *v, *out;
    size_t n, m;
    SGL_TRY(sgl_recv(root, sizeof *v, (void **)&v, &n));
    SGL_TRY(trip_node(root, mode, v, n, &out, &m));
    int rc = sgl_put(root, out, sizeof *out, m);
    if (out != v)
        free(out);
    return rc;
}

static int trip_workers_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    return trip_root(root, 0);
}

static int trip_weights_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    return trip_root(root, 1);
}

int prog_scatter_split(sgl_runtime_t *rt, size_t n)
{
    struct trip *v = malloc(n ? n * sizeof *v : 1);
    CHECK(v, "out of memory");
    for (size_t i = 0; i < n; i++)
        v[i] = trip_val(i);
    sgl_task_fn mains[] = {trip_workers_main, trip_weights_main};
    int rc = SGL_OK;
    for (size_t k = 0; !rc && k < 2; k++) {
        rc = sgl_run(rt, mains[k], v, n * sizeof *v);
        const struct trip *r;
        size_t m;
        if (rc || sgl_runtime_rank(rt) != 0)
            continue;
        rc = sgl_run_result(rt, sizeof *r, (const void **)&r, &m);
        if (!rc && m != n)
            rc = sgl_error_set(SGL_ETASK, "trip %zu: %zu elements of %zu", k,
                               m, n);
        for (size_t i = 0; !rc && i < n; i++)
            if (memcmp(&r[i], &v[i], sizeof *r))
                rc = sgl_error_set(SGL_ETASK, "trip %zu: element %zu is "
                                              "(%" PRIu32 ", %" PRIu32
                                              ", %" PRIu32 ")",
                                   k, i, r[i].i, r[i].not_i, r[i].hash);
    }
    free(v);
    return rc;
}

/* ---- blocks that are not a whole number of elements ---- */

/* Every node receives 3 uint32 (the run's argument at the root, a bcast
 * below), so 8-byte elements do not divide its block, and hands up two
 * 5-byte elements, which 4-byte ones do not divide. */
enum { ES_BYTES = 5 };

static const uint32_t es_block[3] = {11, 22, 33};

static int esize_task(sgl_ctx_t *ctx, const void *arg, size_t size);

static int esize_master(sgl_ctx_t *ctx)
{
    unsigned p = sgl_ctx_children(ctx);
    const void *d;
    size_t n;
    SGL_TRY(sgl_bcast(ctx, es_block, sizeof *es_block, 3));
    SGL_TRY(sgl_pardo(ctx, esize_task, NULL, 0));
    SGL_TRY(expect(sgl_gather_block(ctx, 0, 4, &d, &n), SGL_ESIZE,
               "gather_block of 10 bytes as 4-byte elements"));
    SGL_TRY(expect(sgl_gather_block(ctx, 0, 0, &d, &n), SGL_EINVAL,
               "gather_block with element size 0"));
    SGL_TRY(expect(sgl_gather_block(ctx, p, ES_BYTES, &d, &n), SGL_EINVAL,
               "gather_block of a child out of range"));
    for (unsigned i = 0; i < p; i++) {
        SGL_TRY(sgl_gather_block(ctx, i, ES_BYTES, &d, &n));
        CHECK(n == 2, "esize: child %u handed up %zu elements", i, n);
        SGL_TRY(sgl_gather_block(ctx, i, 2 * ES_BYTES, &d, &n));
        CHECK(n == 1, "esize: child %u handed up %zu pairs", i, n);
    }
    /* Refused gathers copy nothing and allocate nothing. */
    unsigned char *dst = malloc(2 * ES_BYTES * p + 1);
    CHECK(dst, "out of memory");
    memset(dst, 0xa5, 2 * ES_BYTES * p + 1);
    int rc = expect(sgl_gather(ctx, dst, 4, 3 * p, NULL), SGL_ESIZE,
                    "gather of 10-byte blocks as 4-byte elements");
    for (size_t i = 0; !rc && i < 2 * ES_BYTES * p + 1; i++)
        if (dst[i] != 0xa5)
            rc = sgl_error_set(SGL_ETASK, "esize: a refused gather wrote "
                                          "byte %zu",
                               i);
    free(dst);
    SGL_TRY(rc);
    void *g = &rc;
    size_t total = 99;
    SGL_TRY(expect(sgl_gather_alloc(ctx, 4, &g, &total, NULL), SGL_ESIZE,
               "gather_alloc of 10-byte blocks as 4-byte elements"));
    CHECK(g == &rc && total == 99, "esize: a refused gather_alloc set its "
                                   "out-parameters");
    SGL_TRY(expect(sgl_gather_alloc(ctx, 0, &g, &total, NULL), SGL_EINVAL,
               "gather_alloc with element size 0"));
    SGL_TRY(expect(sgl_gather_alloc(ctx, ES_BYTES, NULL, &total, NULL),
               SGL_EINVAL, "gather_alloc without ret_data"));
    SGL_TRY(expect(sgl_gather_alloc(ctx, ES_BYTES, &g, NULL, NULL), SGL_EINVAL,
               "gather_alloc without ret_total"));
    size_t *counts = malloc(p * sizeof *counts);
    CHECK(counts, "out of memory");
    unsigned char *all = NULL;
    rc = sgl_gather_alloc(ctx, ES_BYTES, (void **)&all, &total, counts);
    for (unsigned i = 0; !rc && i < p; i++)
        if (counts[i] != 2)
            rc = sgl_error_set(SGL_ETASK, "esize: gather_alloc counts %zu "
                                          "for child %u",
                               counts[i], i);
    if (!rc && total != 2 * (size_t)p)
        rc = sgl_error_set(SGL_ETASK, "esize: gather_alloc of %zu elements",
                           total);
    for (unsigned i = 0; !rc && i < p; i++)
        if (memcmp(all + 2 * ES_BYTES * i, "abcdefghij", 2 * ES_BYTES))
            rc = sgl_error_set(SGL_ETASK, "esize: child %u's block differs",
                               i);
    free(all);
    free(counts);
    return rc;
}

static int esize_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    void *v;
    size_t n;
    SGL_TRY(expect(sgl_recv(ctx, 8, &v, &n), SGL_ESIZE,
               "recv of 12 bytes as 8-byte elements"));
    SGL_TRY(expect(sgl_recv(ctx, 0, &v, &n), SGL_EINVAL,
               "recv with element size 0"));
    SGL_TRY(expect(sgl_recv(ctx, 4, &v, NULL), SGL_EINVAL,
               "recv without ret_count"));
    SGL_TRY(sgl_recv(ctx, 3 * sizeof *es_block, &v, &n));
    CHECK(n == 1, "esize: %zu 12-byte elements", n);
    SGL_TRY(sgl_recv(ctx, sizeof *es_block, &v, &n));
    CHECK(n == 3 && !memcmp(v, es_block, sizeof es_block),
          "esize: block of %zu elements differs", n);
    if (sgl_ctx_is_master(ctx))
        SGL_TRY(esize_master(ctx));
    return sgl_put(ctx, "abcdefghij", ES_BYTES, 2);
}

int prog_block_sizes(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_run(rt, esize_task, es_block, sizeof es_block));
    if (sgl_runtime_rank(rt) != 0)
        return SGL_OK;
    const void *r;
    size_t n;
    SGL_TRY(expect(sgl_run_result(rt, 4, &r, &n), SGL_ESIZE,
               "run_result of 10 bytes as 4-byte elements"));
    SGL_TRY(sgl_run_result(rt, ES_BYTES, &r, &n));
    CHECK(n == 2 && !memcmp(r, "abcdefghij", 2 * ES_BYTES),
          "esize: run result of %zu elements differs", n);
    return SGL_OK;
}

/* ---- the paper's one-function recursive reduction ---- */

/* The same function at every node, the root included: a master splits
 * its block over its children by their workers, runs itself on them and
 * adds up their sums; a worker adds up its block. */
static int rsum_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    int64_t *v, s = 0;
    size_t n;
    SGL_TRY(sgl_recv(ctx, sizeof *v, (void **)&v, &n));
    if (sgl_ctx_is_master(ctx)) {
        int64_t *part;
        size_t k;
        SGL_TRY(sgl_scatter_split(ctx, v, sizeof *v, n, NULL));
        SGL_TRY(sgl_pardo(ctx, rsum_task, NULL, 0));
        SGL_TRY(sgl_gather_alloc(ctx, sizeof *part, (void **)&part, &k, NULL));
        for (size_t i = 0; i < k; i++)
            s += part[i];
        free(part);
    } else {
        for (size_t i = 0; i < n; i++)
            s += v[i];
    }
    return sgl_put(ctx, &s, sizeof s, 1);
}

int prog_reduce(sgl_runtime_t *rt, uint64_t seed, size_t n)
{
    int64_t *v = malloc(n ? n * sizeof *v : 1), expect_sum = 0;
    CHECK(v, "out of memory");
    for (size_t i = 0; i < n; i++)
        expect_sum += v[i] = (int64_t)(test_mix(&seed) % 2000001) - 1000000;
    int rc = sgl_run(rt, rsum_task, v, n * sizeof *v);
    free(v);
    SGL_TRY(rc);
    const int64_t *r;
    size_t k;
    rc = sgl_run_result(rt, sizeof *r, (const void **)&r, &k);
    /* Without share_result the result stays on rank 0. */
    if (rc == SGL_ESTATE && sgl_runtime_rank(rt) != 0)
        return SGL_OK;
    SGL_TRY(rc);
    CHECK(k == 1 && *r == expect_sum,
          "reduce: %zu results, the first %" PRId64 ", expected %" PRId64, k,
          k ? *r : 0, expect_sum);
    return SGL_OK;
}

/* prog_reply_times: the root's child given as the argument sleeps
 * REPLY_SLEEP_S, the others return at once. Long enough that the others'
 * replies are in before a sleeping master waits, even with six ranks on
 * two cores under a sanitizer. */
#define REPLY_SLEEP_S 0.5

static int reply_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    unsigned slow;
    CHECK(size == sizeof slow, "reply_task: argument of %zu bytes", size);
    memcpy(&slow, arg, sizeof slow);
    if (sgl_ctx_index(ctx) != slow)
        return SGL_OK;
    struct timespec ts = {0, (long)(REPLY_SLEEP_S * 1e9)};
    while (nanosleep(&ts, &ts) != 0)
        ;
    return SGL_OK;
}

static int reply_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    return sgl_pardo(root, reply_task, arg, size);
}

int prog_reply_times(sgl_runtime_t *rt)
{
    const sgl_node_t *root = sgl_machine_root(sgl_runtime_machine(rt));
    unsigned p = sgl_node_arity(root);
    if (p < 2)
        return SGL_OK;
    const unsigned slows[] = {0, p - 1};
    for (int k = 0; k < 2; k++) {
        unsigned slow = slows[k];
        sgl_trace_clear(rt);
        SGL_TRY(sgl_run(rt, reply_main, &slow, sizeof slow));
        if (sgl_runtime_rank(rt) != 0)
            continue;
        sgl_trace_step_t s;
        SGL_TRY(sgl_trace_step(rt, 0, &s));
        CHECK(s.level == 0 && s.children == p,
              "reply times: first step is level %u with %u children",
              s.level, s.children);
        int slow_own = sgl_node_rank(sgl_node_child(root, slow)) == 0;
        for (unsigned i = 0; i < p; i++) {
            int own = sgl_node_rank(sgl_node_child(root, i)) == 0;
            double d = s.child_done[i];
            if (i == slow)
                /* A reply the master waited for is timed as it came in. */
                CHECK(d >= REPLY_SLEEP_S && (own || d > s.wait_start),
                      "reply times: slow child %u (%s process) replied at "
                      "%g s, the master waited from %g s",
                      i, own ? "the master's" : "another", d, s.wait_start);
            else if (!own && slow_own)
                /* It was in while the master ran its own slow child. */
                CHECK(d == s.wait_start && s.wait_start >= REPLY_SLEEP_S,
                      "reply times: child %u replied at %g s, not when the "
                      "master began to wait (%g s) after its own slow child",
                      i, d, s.wait_start);
        }
    }
    return SGL_OK;
}

int prog_register(sgl_runtime_t *rt)
{
    SGL_TRY(sgl_task_register(rt, distribute_task, "distribute"));
    SGL_TRY(sgl_task_register(rt, collect_task, "collect"));
    SGL_TRY(sgl_task_register(rt, dsum_task, "dsum"));
    SGL_TRY(sgl_task_register(rt, fail_task, "fail"));
    SGL_TRY(sgl_task_register(rt, misuse_task, "misuse"));
    SGL_TRY(sgl_task_register(rt, rb_task, "random_blocks"));
    SGL_TRY(sgl_task_register(rt, big_task, "big_gather"));
    SGL_TRY(sgl_task_register(rt, traced_task, "traced"));
    SGL_TRY(sgl_task_register(rt, inplace_task, "inplace"));
    SGL_TRY(sgl_task_register(rt, keyed_task, "keyed"));
    SGL_TRY(sgl_task_register(rt, split_task, "split"));
    SGL_TRY(sgl_task_register(rt, trip_task, "trip"));
    SGL_TRY(sgl_task_register(rt, esize_task, "esize"));
    SGL_TRY(sgl_task_register(rt, rsum_task, "rsum"));
    SGL_TRY(sgl_task_register(rt, reply_task, "reply"));
    SGL_TRY(prog_exchange_register(rt));
    SGL_TRY(prog_gather_into_register(rt));
    return prog_view_register(rt);
}
