/* Test programs written only against the public API, in the recursive
 * "if worker ... else scatter / pardo / gather" shape of the SGL paper. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "programs.h"
#include "test_util.h"

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
    size_t bytes;
    TRY(sgl_recv(ctx, &v, &bytes));
    int64_t sum;
    TRY(distribute(ctx, v, bytes / sizeof(int64_t), *(const uint64_t *)arg,
                   &sum));
    return sgl_put(ctx, &sum, sizeof sum);
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
        TRY(rc);
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
    size_t bytes;
    TRY(sgl_recv(ctx, &kp, &bytes));
    CHECK(bytes == sizeof(int64_t), "collect: broadcast of %zu bytes", bytes);
    int64_t *v;
    size_t n;
    TRY(collect(ctx, *(int64_t *)kp, &v, &n));
    int rc = sgl_put(ctx, v, n * sizeof *v);
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
    TRY(sgl_bcast(ctx, &k, sizeof k));
    TRY(sgl_pardo(ctx, collect_task, NULL, 0));
    size_t total = 0;
    for (unsigned i = 0; i < p; i++) {
        const void *d;
        size_t bytes;
        TRY(sgl_gather_block(ctx, i, &d, &bytes));
        total += bytes / sizeof(int64_t);
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
    TRY(dsum(ctx, *(const size_t *)arg, &s));
    return sgl_put(ctx, &s, sizeof s);
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
        TRY(rc);
    }
    *ret = s;
    return SGL_OK;
}

static int dsum_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    size_t n = *(const size_t *)arg;
    double s;
    TRY(dsum(root, n, &s));
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
                             sgl_err_name(rc));
    char want[64];
    snprintf(want, sizeof want, "worker %zu fails on purpose", victim);
    const char *msg = sgl_last_error();
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
                         sgl_err_name(got), sgl_err_name(want));
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
    TRY(expect(sgl_scatter(ctx, &x, sizeof x, &one), SGL_ESTATE,
               "scatter on a worker"));
    TRY(expect(sgl_bcast(ctx, &x, sizeof x), SGL_ESTATE,
               "bcast on a worker"));
    TRY(expect(sgl_pardo(ctx, noop_task, NULL, 0), SGL_ESTATE,
               "pardo on a worker"));
    TRY(expect(sgl_gather(ctx, &x, sizeof x, 1, NULL), SGL_ESTATE,
               "gather on a worker"));
    TRY(expect(sgl_put(ctx, NULL, 8), SGL_EINVAL, "put of NULL"));
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
    size_t bytes;
    TRY(expect(sgl_put(root, x, sizeof x), SGL_ESTATE, "put on the root"));
    TRY(expect(sgl_recv(root, &d, &bytes), SGL_ESTATE, "recv on the root"));
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
        rc = expect(sgl_bcast(root, x, sizeof *x), SGL_ESTATE,
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
    TRY(rb_collect(ctx, arg, &v, &n));
    int rc = sgl_put(ctx, v, n);
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
            TRY(sgl_recv(ctx, &b, &nb));
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
    int rc = sgl_bcast(ctx, b, nb);
    if (!rc)
        rc = sgl_pardo(ctx, rb_task, a, sizeof *a);
    free(b);
    TRY(rc);
    size_t total = 0;
    for (unsigned i = 0; i < sgl_ctx_children(ctx); i++) {
        const void *d;
        size_t bytes;
        TRY(sgl_gather_block(ctx, i, &d, &bytes));
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
        TRY(rb_collect(root, &a, &v, &n));
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
        TRY(rc);
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
    TRY(sgl_pardo(ctx, big_task, NULL, 0));
    TRY(sgl_gather(ctx, out, sizeof *out, big_total(ctx), NULL));
    if (sgl_node_link(sgl_ctx_node(ctx)) == SGL_LINK_MPI) {
        const void *d;
        size_t b;
        unsigned last = sgl_ctx_children(ctx) - 1;
        CHECK(sgl_gather_block(ctx, last, &d, &b) == SGL_ESTATE,
              "gather_block after a direct gather did not say ESTATE");
    }
    return SGL_OK;
}

static int big_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    void *out;
    TRY(sgl_put_buffer(ctx, big_total(ctx) * sizeof(int64_t), &out));
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
    size_t bytes;
    TRY(sgl_recv(ctx, &v, &bytes));
    return inplace(ctx, v, bytes / sizeof(int64_t), round);
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
        TRY(expect(sgl_scatter_buffer(ctx, 0, 8, &d), SGL_ESTATE,
                   "scatter_buffer on a worker"));
        TRY(expect(sgl_gather_release(ctx), SGL_ESTATE,
                   "gather_release on a worker"));
        int64_t *up;
        TRY(sgl_put_buffer(ctx, n * sizeof *up, (void **)&up));
        for (size_t i = 0; i < n; i++)
            up[i] = -in[i];
        TRY(sgl_recv_release(ctx));
        return expect(sgl_recv(ctx, &d, &b), SGL_ESTATE,
                      "recv after recv_release");
    }
    unsigned p = sgl_ctx_children(ctx);
    const int64_t *from = in;
    size_t cw = w0;
    for (unsigned c = 0; c < p; c++) {
        size_t m = ip_span(cw, sgl_ctx_child_workers(ctx, c));
        TRY(sgl_scatter_buffer(ctx, c, m * sizeof *from, &d));
        if (m)
            memcpy(d, from, m * sizeof *from);
        from += m;
        cw += sgl_ctx_child_workers(ctx, c);
        if (c == 0) {
            size_t one = 1;
            TRY(expect(sgl_scatter(ctx, in, 8, &one), SGL_ESTATE,
                       "scatter after scatter_buffer"));
            TRY(expect(sgl_bcast(ctx, in, 8), SGL_ESTATE,
                       "bcast after scatter_buffer"));
            TRY(expect(sgl_scatter_buffer(ctx, p, 8, &d), SGL_EINVAL,
                       "scatter_buffer to child out of range"));
            TRY(expect(sgl_scatter_buffer(ctx, 0, 8, NULL), SGL_EINVAL,
                       "scatter_buffer with NULL ret_data"));
        }
    }
    if (root)
        TRY(expect(sgl_recv_release(ctx), SGL_ESTATE,
                   "recv_release on the root"));
    else
        TRY(sgl_recv_release(ctx));
    TRY(sgl_pardo(ctx, inplace_task, &round, sizeof round));
    int64_t *up = NULL;
    if (!root)
        TRY(sgl_put_buffer(ctx, n * sizeof *up, (void **)&up));
    size_t k = 0, w = w0, i = 0; /* value k is worker w's value i */
    for (unsigned c = 0; c < p; c++) {
        const int64_t *v;
        TRY(sgl_gather_block(ctx, c, (const void **)&v, &b));
        for (size_t j = 0; j < b / sizeof *v; j++, k++) {
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
    TRY(sgl_gather_release(ctx));
    TRY(expect(sgl_gather_block(ctx, 0, (const void **)&d, &b), SGL_ESTATE,
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
            TRY(sgl_ctx_set_keyed_state(ctx, keys[k], v, free));
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
    TRY(sgl_ctx_set_keyed_state(ctx, &key_b, NULL, NULL));
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
        TRY(sgl_pardo(root, keyed_task, &step, sizeof step));
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
    TRY(traced(ctx));
    char up[256] = {0};
    unsigned i = sgl_ctx_index(ctx);
    return sgl_put(ctx, up, 2 * (size_t)(i + 1));
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
    TRY(sgl_trace_step(rt, 0, &r));
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
        double want = sgl_node_arity(c) ? 0 : (double)sgl_node_first_worker(c) + 1;
        CHECK(r.child_work[i] == want, "trace: child %u work %g, want %g", i,
              r.child_work[i], want);
        CHECK(r.child_time[i] >= 0 && r.child_time[i] <= r.end - r.start,
              "trace: child %u time %g outside its superstep", i,
              r.child_time[i]);
    }
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
        TRY(sgl_trace_step(rt, i, &s));
        CHECK(s.level > 0 && s.start >= r.start && s.end <= r.end,
              "trace: step %zu (level %u) outside the root's", i, s.level);
        for (unsigned c = 0; c < s.children; c++)
            CHECK(s.down_bytes[c] == 3 * (c + 1) * sizeof(int64_t),
                  "trace: level %u child %u down %zu bytes", s.level, c,
                  s.down_bytes[c]);
    }
    return SGL_OK;
}

int prog_register(sgl_runtime_t *rt)
{
    TRY(sgl_task_register(rt, distribute_task, "distribute"));
    TRY(sgl_task_register(rt, collect_task, "collect"));
    TRY(sgl_task_register(rt, dsum_task, "dsum"));
    TRY(sgl_task_register(rt, fail_task, "fail"));
    TRY(sgl_task_register(rt, misuse_task, "misuse"));
    TRY(sgl_task_register(rt, rb_task, "random_blocks"));
    TRY(sgl_task_register(rt, big_task, "big_gather"));
    TRY(sgl_task_register(rt, traced_task, "traced"));
    TRY(sgl_task_register(rt, inplace_task, "inplace"));
    TRY(sgl_task_register(rt, keyed_task, "keyed"));
    return SGL_OK;
}
