/* Distributed vectors: a handle at the root plus one block per worker,
 * kept in the worker's context state (under the algorithms' key) between
 * supersteps. Create, scatter, gather and free are one superstep each,
 * recursive over the tree: a master forwards the command to its children
 * and concatenates what they hand up (the per-worker element counts, or
 * the blocks themselves). */
#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"
#include <sgl/balance.h>
#include <sgl/blocks.h>

/* ---- per-context state ---- */

static void state_free(void *p)
{
    struct sgl__algo_state *s = p;
    for (size_t i = 0; i < s->nblocks; i++) {
        free(s->blocks[i].data);
        free(s->blocks[i].value);
    }
    free(s->blocks);
    free(s->scratch);
    free(s);
}

/* The key of the algorithms' state at every rank: the address of an
 * object of this library, so that a program's own state (the NULL key,
 * sgl_ctx_state()) and the algorithms' never collide. */
static const char state_key;

struct sgl__algo_state *sgl__algo_state(sgl_ctx_t *ctx, int create)
{
    struct sgl__algo_state *s = sgl_ctx_keyed_state(ctx, &state_key);
    if (s || !create)
        return s;
    s = calloc(1, sizeof *s);
    if (s && sgl_ctx_set_keyed_state(ctx, &state_key, s, state_free)) {
        free(s);
        s = NULL;
    }
    return s;
}

struct algo_block *sgl__algo_block_find(sgl_ctx_t *ctx, uint32_t id)
{
    struct sgl__algo_state *s = sgl__algo_state(ctx, 0);
    for (size_t i = 0; s && i < s->nblocks; i++)
        if (s->blocks[i].id == id)
            return &s->blocks[i];
    return NULL;
}

int sgl__algo_block_set(sgl_ctx_t *ctx, uint32_t id, void *data, size_t count,
                        size_t first, size_t elem_size)
{
    struct algo_block *b = sgl__algo_block_find(ctx, id);
    if (b) {
        if (b->data != data)
            free(b->data);
    } else {
        struct sgl__algo_state *s = sgl__algo_state(ctx, 1);
        if (!s)
            goto oom;
        if (s->nblocks == s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 4;
            struct algo_block *t = realloc(s->blocks, cap * sizeof *t);
            if (!t)
                goto oom;
            s->blocks = t;
            s->cap = cap;
        }
        b = &s->blocks[s->nblocks++];
        memset(b, 0, sizeof *b);
        b->id = id;
    }
    b->data = data;
    b->count = count;
    b->first = first;
    b->elem_size = elem_size;
    return SGL_OK;
oom:
    free(data);
    return sgl_error_set(SGL_ENOMEM, "out of memory for a block's state");
}

void sgl__algo_block_drop(sgl_ctx_t *ctx, uint32_t id)
{
    struct sgl__algo_state *s = sgl__algo_state(ctx, 0);
    for (size_t i = 0; s && i < s->nblocks; i++)
        if (s->blocks[i].id == id) {
            free(s->blocks[i].data);
            free(s->blocks[i].value);
            s->blocks[i] = s->blocks[--s->nblocks];
            return;
        }
}

void *sgl__algo_scratch(sgl_ctx_t *ctx, size_t bytes)
{
    struct sgl__algo_state *s = sgl__algo_state(ctx, 1);
    if (!s)
        return NULL;
    if (s->scratch_bytes < bytes) {
        void *p = realloc(s->scratch, bytes);
        if (!p)
            return NULL;
        s->scratch = p;
        s->scratch_bytes = bytes;
    }
    return s->scratch;
}

int sgl_dvec_local(sgl_ctx_t *worker, uint32_t id, void **ret_data,
                   size_t *ret_count, size_t *ret_first)
{
    if (!worker || !ret_data || !ret_count)
        return sgl_error_set(SGL_EINVAL, "sgl_dvec_local: NULL argument");
    if (!sgl_ctx_is_worker(worker))
        return sgl_error_set(SGL_ESTATE, "sgl_dvec_local: not a worker");
    struct algo_block *b = sgl__algo_block_find(worker, id);
    if (!b)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_dvec_local: worker %zu has no block of "
                             "vector %u",
                             sgl_ctx_first_worker(worker), id);
    *ret_data = b->data;
    *ret_count = b->count;
    if (ret_first)
        *ret_first = b->first;
    return SGL_OK;
}

int sgl_dvec_local_value(sgl_ctx_t *worker, uint32_t id,
                         const void **ret_value)
{
    if (!worker || !ret_value)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_dvec_local_value: NULL argument");
    struct algo_block *b =
        sgl_ctx_is_worker(worker) ? sgl__algo_block_find(worker, id) : NULL;
    if (!b || !b->value)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_dvec_local_value: no value of vector %u "
                             "here",
                             id);
    *ret_value = b->value;
    return SGL_OK;
}

/* ---- checks and splits ---- */

int sgl__algo_check_root(sgl_ctx_t *root, const char *fn)
{
    if (!root)
        return sgl_error_set(SGL_EINVAL, "%s: context is NULL", fn);
    if (!sgl_ctx_is_root(root))
        return sgl_error_set(SGL_ESTATE,
                             "%s: call it on the root context (got level "
                             "%u)",
                             fn, sgl_ctx_level(root));
    return SGL_OK;
}

int sgl__algo_check_vec(const sgl_dvec_t *v, const char *fn)
{
    if (!v)
        return sgl_error_set(SGL_EINVAL, "%s: vector is NULL", fn);
    return SGL_OK;
}

int sgl__algo_weight_prefix(const sgl_ctx_t *ctx, uint64_t **ret)
{
    size_t p = sgl_machine_workers(sgl_ctx_machine(ctx));
    double *w = malloc(p * sizeof *w);
    uint64_t *s = malloc((p + 1) * sizeof *s);
    int rc = w && s ? sgl_ctx_worker_weights(ctx, NULL, 0, p, w)
                    : sgl_error_set(SGL_ENOMEM, "out of memory for the "
                                                "layout of %zu workers",
                                    p);
    if (rc == SGL_OK) {
        s[0] = 0;
        for (size_t i = 0; i < p; i++)
            s[i + 1] = s[i] + (uint64_t)w[i];
    }
    free(w);
    if (rc)
        free(s);
    *ret = rc ? NULL : s;
    return rc;
}

static size_t layout_at(size_t n, const uint64_t *s, size_t w, size_t p)
{
    return (size_t)(((algo_u128)n * s[w]) / s[p]);
}

int sgl__algo_layout_range(const sgl_ctx_t *ctx, size_t n, size_t w,
                           size_t *ret_first, size_t *ret_count)
{
    uint64_t *s;
    SGL_TRY(sgl__algo_weight_prefix(ctx, &s));
    size_t p = sgl_machine_workers(sgl_ctx_machine(ctx));
    *ret_first = layout_at(n, s, w, p);
    *ret_count = layout_at(n, s, w + 1, p) - *ret_first;
    free(s);
    return SGL_OK;
}

int sgl__algo_layout_counts(const sgl_ctx_t *ctx, size_t n, size_t *counts)
{
    uint64_t *s;
    SGL_TRY(sgl__algo_weight_prefix(ctx, &s));
    size_t p = sgl_machine_workers(sgl_ctx_machine(ctx));
    size_t w = sgl_ctx_first_worker(ctx);
    for (unsigned i = 0; i < sgl_ctx_children(ctx); i++) {
        size_t wc = sgl_ctx_child_workers(ctx, i);
        counts[i] = layout_at(n, s, w + wc, p) - layout_at(n, s, w, p);
        w += wc;
    }
    free(s);
    return SGL_OK;
}

size_t sgl_dvec_size(const sgl_dvec_t *v) { return v ? v->n : 0; }
sgl_dtype_t sgl_dvec_dtype(const sgl_dvec_t *v) { return v->dtype; }
size_t sgl_dvec_elem_size(const sgl_dvec_t *v) { return v->elem_size; }
uint32_t sgl_dvec_id(const sgl_dvec_t *v) { return v->id; }
const size_t *sgl_dvec_counts(const sgl_dvec_t *v) { return v->counts; }

/* Gather one uint64 per worker from the children into @out (the subtree's
 * workers, in order) after a pardo. */
static int gather_u64(sgl_ctx_t *ctx, uint64_t *out)
{
    return sgl_gather(ctx, out, sizeof *out, sgl_ctx_workers(ctx), NULL);
}

/* ---- create ---- */

struct create_arg {
    uint32_t id;
    uint32_t dtype;
    uint32_t fill;
    uint32_t pad;
    uint64_t elem_size;
    uint64_t n;
    unsigned char farg[ALGO_MAX_ARG];
};
#define CREATE_HDR offsetof(struct create_arg, farg)

static int create_worker(sgl_ctx_t *ctx, const struct create_arg *a,
                         size_t fsize, uint64_t *ret_count)
{
    size_t w = sgl_ctx_first_worker(ctx), first, count;
    SGL_TRY(sgl__algo_layout_range(ctx, a->n, w, &first, &count));
    void *data = sgl_mem_alloc(count * a->elem_size);
    if (!data)
        return sgl_error_set(SGL_ENOMEM, "worker %zu: out of memory for %zu "
                                         "elements",
                             w, count);
    struct algo_fill_arg f = {a->fill, (sgl_dtype_t)a->dtype, a->elem_size,
                              a->farg, fsize};
    int rc = sgl__algo_fill(&f, data, first, count);
    if (rc) {
        free(data);
        return rc;
    }
    *ret_count = count;
    return sgl__algo_block_set(ctx, a->id, data, count, first, a->elem_size);
}

static int create_task(sgl_ctx_t *ctx, const void *arg, size_t size);

static int create_rec(sgl_ctx_t *ctx, const struct create_arg *a, size_t size,
                      uint64_t *ret_counts)
{
    if (sgl_ctx_is_worker(ctx))
        return create_worker(ctx, a, size - CREATE_HDR, ret_counts);
    SGL_TRY(sgl_pardo(ctx, create_task, a, size));
    return gather_u64(ctx, ret_counts);
}

static int create_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    uint64_t *counts;
    SGL_TRY(sgl_put_buffer(ctx, sizeof *counts, sgl_ctx_workers(ctx),
                       (void **)&counts));
    return create_rec(ctx, arg, size, counts);
}

static uint32_t next_id = 1;

static int vec_new(sgl_ctx_t *root, sgl_dtype_t dtype, size_t elem_size,
                   size_t n, sgl_dvec_t **ret)
{
    size_t es = dtype == SGL_USER ? elem_size : sgl__algo_elem_size(dtype);
    if (es == 0 || es > ALGO_MAX_ELEM)
        return sgl_error_set(SGL_EINVAL,
                             "distributed vector: element type %d with "
                             "size %zu",
                             (int)dtype, elem_size);
    size_t p = sgl_ctx_workers(root);
    sgl_dvec_t *v = calloc(1, sizeof *v);
    uint64_t *c = v ? calloc(p, sizeof *c) : NULL;
    if (!c) {
        free(v);
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    }
    _Static_assert(sizeof(uint64_t) == sizeof(size_t), "64-bit size_t");
    v->counts = (size_t *)c;
    v->id = next_id++;
    v->dtype = dtype;
    v->elem_size = es;
    v->n = n;
    v->workers = p;
    *ret = v;
    return SGL_OK;
}

static void vec_free(sgl_dvec_t *v)
{
    if (v)
        free(v->counts);
    free(v);
}

int sgl_dvec_create(sgl_ctx_t *root, sgl_dtype_t dtype, size_t elem_size,
                    size_t n, uint32_t fill, const void *arg, size_t arg_size,
                    sgl_dvec_t **ret_vec)
{
    SGL_TRY(sgl__algo_check_root(root, "sgl_dvec_create"));
    if (!ret_vec || (arg_size && !arg))
        return sgl_error_set(SGL_EINVAL, "sgl_dvec_create: NULL argument");
    if (arg_size > ALGO_MAX_ARG)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_dvec_create: fill argument of %zu bytes "
                             "(at most %d)",
                             arg_size, ALGO_MAX_ARG);
    sgl_dvec_t *v;
    SGL_TRY(vec_new(root, dtype, elem_size, n, &v));
    struct create_arg a = {v->id, (uint32_t)dtype, fill, 0, v->elem_size, n,
                           {0}};
    if (arg_size)
        memcpy(a.farg, arg, arg_size);
    int rc = create_rec(root, &a, CREATE_HDR + arg_size, (uint64_t *)v->counts);
    if (rc) {
        sgl_dvec_free(root, v);
        return rc;
    }
    *ret_vec = v;
    return SGL_OK;
}

/* ---- scatter from the root ---- */

struct scatter_arg {
    uint32_t id;
    uint32_t pad;
    uint64_t elem_size;
    uint64_t n; /* the whole vector's size */
};

static int scatter_task(sgl_ctx_t *ctx, const void *arg, size_t size);

/* @src: this node's @count elements of the vector. */
static int scatter_rec(sgl_ctx_t *ctx, const struct scatter_arg *a,
                       const void *src, size_t count, uint64_t *ret_counts)
{
    if (sgl_ctx_is_worker(ctx)) {
        size_t first, own;
        SGL_TRY(sgl__algo_layout_range(ctx, a->n, sgl_ctx_first_worker(ctx),
                                   &first, &own));
        /* The master cut by the same layout: a difference means the
         * processes disagree on the workers' weights. */
        if (own != count)
            return sgl_error_set(SGL_ESTATE,
                                 "worker %zu: got %zu elements where the "
                                 "layout gives it %zu (were the machine "
                                 "parameters set in every process?)",
                                 sgl_ctx_first_worker(ctx), count, own);
        void *data = sgl_mem_alloc(count * a->elem_size);
        if (!data)
            return sgl_error_set(SGL_ENOMEM, "out of memory");
        if (count)
            memcpy(data, src, count * a->elem_size);
        *ret_counts = count;
        return sgl__algo_block_set(ctx, a->id, data, count, first,
                                   a->elem_size);
    }
    size_t *counts = malloc(sgl_ctx_children(ctx) * sizeof *counts);
    if (!counts)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    int rc = sgl__algo_layout_counts(ctx, a->n, counts);
    if (rc == SGL_OK)
        rc = sgl_scatter(ctx, src, a->elem_size, counts);
    free(counts);
    SGL_TRY(rc);
    SGL_TRY(sgl_pardo(ctx, scatter_task, a, sizeof *a));
    return gather_u64(ctx, ret_counts);
}

static int scatter_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct scatter_arg *a = arg;
    /* Read once, into the worker's own block (scatter_rec): on a thread
     * level from the master's array itself, one copy instead of two. */
    const void *src;
    size_t count;
    SGL_TRY(sgl_recv_view(ctx, a->elem_size, &src, &count));
    uint64_t *counts;
    SGL_TRY(sgl_put_buffer(ctx, sizeof *counts, sgl_ctx_workers(ctx),
                       (void **)&counts));
    return scatter_rec(ctx, a, src, count, counts);
}

int sgl_dvec_scatter(sgl_ctx_t *root, sgl_dtype_t dtype, size_t elem_size,
                     const void *src, size_t n, sgl_dvec_t **ret_vec)
{
    SGL_TRY(sgl__algo_check_root(root, "sgl_dvec_scatter"));
    if (!ret_vec || (n && !src))
        return sgl_error_set(SGL_EINVAL, "sgl_dvec_scatter: NULL argument");
    sgl_dvec_t *v;
    SGL_TRY(vec_new(root, dtype, elem_size, n, &v));
    struct scatter_arg a = {v->id, 0, v->elem_size, n};
    int rc = scatter_rec(root, &a, src, n, (uint64_t *)v->counts);
    if (rc) {
        sgl_dvec_free(root, v);
        return rc;
    }
    *ret_vec = v;
    return SGL_OK;
}

/* ---- gather to the root ---- */

struct id_arg {
    uint32_t id;
    uint32_t pad;
    uint64_t elem_size;
};

static int gather_task(sgl_ctx_t *ctx, const void *arg, size_t size);

int sgl__algo_pass_up(sgl_ctx_t *ctx, size_t elem_size)
{
    size_t n = 0;
    for (unsigned i = 0; i < sgl_ctx_children(ctx); i++) {
        const void *d;
        size_t c;
        SGL_TRY(sgl_gather_block(ctx, i, elem_size, &d, &c));
        n += c;
    }
    void *out;
    SGL_TRY(sgl_put_buffer(ctx, elem_size, n, &out));
    return sgl_gather(ctx, out, elem_size, n, NULL);
}

/* The gather's argument is an id_arg followed by the vector's per-worker
 * counts (the root's sgl_dvec_counts()), so that every master knows
 * before its pardo where each child's block goes in its own output and
 * can lend the children their parts (sgl_gather_into()): below thread
 * levels each worker's block is then copied once, straight into the
 * root's dst, instead of once per level. */
static size_t workers_total(const void *arg, size_t first, size_t count)
{
    const unsigned char *wc = (const unsigned char *)arg + sizeof(struct id_arg);
    size_t total = 0;
    for (size_t w = first; w < first + count; w++) {
        uint64_t c;
        memcpy(&c, wc + w * sizeof c, sizeof c);
        total += c;
    }
    return total;
}

/* Lend each child its part of @dst (@total elements by the counts), run
 * the gather below and gather into @dst; *@ret_got: what came. A count
 * that is off (a block of another size than the root was told) only
 * costs the copy the child's own buffer then needs; SGL_ESIZE from the
 * gather (not the pardo) when more came than @total. */
static int gather_children(sgl_ctx_t *ctx, const void *arg, size_t size,
                           void *dst, size_t total, size_t *ret_got,
                           int *ret_pardo_rc)
{
    const struct id_arg *a = arg;
    unsigned p = sgl_ctx_children(ctx);
    size_t *counts = malloc(p * sizeof *counts);
    if (!counts)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    size_t w = sgl_ctx_first_worker(ctx);
    for (unsigned i = 0; i < p; i++) {
        counts[i] = workers_total(arg, w, sgl_ctx_child_workers(ctx, i));
        w += sgl_ctx_child_workers(ctx, i);
    }
    int rc = sgl_gather_into(ctx, dst, a->elem_size, counts);
    if (!rc)
        rc = *ret_pardo_rc = sgl_pardo(ctx, gather_task, arg, size);
    if (!rc)
        rc = sgl_gather(ctx, dst, a->elem_size, total, counts);
    *ret_got = 0;
    for (unsigned i = 0; !rc && i < p; i++)
        *ret_got += counts[i];
    free(counts);
    return rc;
}

static int gather_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    const struct id_arg *a = arg;
    if (size < sizeof *a + sgl_machine_workers(sgl_ctx_machine(ctx)) *
                               sizeof(uint64_t))
        return sgl_error_set(SGL_ESIZE, "sgl_dvec_gather: argument of %zu "
                                        "bytes",
                             size);
    if (sgl_ctx_is_worker(ctx)) {
        struct algo_block *b = sgl__algo_block_find(ctx, a->id);
        if (!b)
            return sgl_error_set(SGL_ESTATE, "worker %zu has no block of "
                                             "vector %u",
                                 sgl_ctx_first_worker(ctx), a->id);
        return sgl_put(ctx, b->data, b->elem_size, b->count);
    }
    size_t total = workers_total(arg, sgl_ctx_first_worker(ctx),
                                 sgl_ctx_workers(ctx));
    size_t got;
    void *out;
    int prc = SGL_OK;
    SGL_TRY(sgl_put_buffer(ctx, a->elem_size, total, &out));
    int rc = gather_children(ctx, arg, size, out, total, &got, &prc);
    if (rc == SGL_ESIZE && prc == SGL_OK) /* more than counted */
        return sgl__algo_pass_up(ctx, a->elem_size);
    if (rc || got == total)
        return rc;
    /* Fewer: hand up what came, out of the part lent for more. */
    void *tmp = malloc(got ? got * a->elem_size : 1);
    if (!tmp)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    memcpy(tmp, out, got * a->elem_size);
    rc = sgl_put(ctx, tmp, a->elem_size, got);
    free(tmp);
    return rc;
}

int sgl_dvec_gather(sgl_ctx_t *root, const sgl_dvec_t *v, void *dst,
                    size_t capacity)
{
    SGL_TRY(sgl__algo_check_root(root, "sgl_dvec_gather"));
    SGL_TRY(sgl__algo_check_vec(v, "sgl_dvec_gather"));
    if (v->n && !dst)
        return sgl_error_set(SGL_EINVAL, "sgl_dvec_gather: dst is NULL");
    if (capacity < v->n)
        return sgl_error_set(SGL_ESIZE,
                             "sgl_dvec_gather: dst holds %zu elements, the "
                             "vector has %zu",
                             capacity, v->n);
    if (sgl_ctx_is_worker(root)) {
        struct algo_block *b = sgl__algo_block_find(root, v->id);
        if (!b)
            return sgl_error_set(SGL_ESTATE, "vector %u has no block", v->id);
        if (b->count)
            memcpy(dst, b->data, b->count * b->elem_size);
        return SGL_OK;
    }
    size_t size = sizeof(struct id_arg) + v->workers * sizeof(uint64_t);
    struct id_arg *a = malloc(size);
    if (!a)
        return sgl_error_set(SGL_ENOMEM, "sgl_dvec_gather: out of memory");
    *a = (struct id_arg){v->id, 0, v->elem_size};
    memcpy(a + 1, v->counts, v->workers * sizeof(uint64_t));
    size_t got;
    int prc;
    int rc = gather_children(root, a, size, dst, capacity, &got, &prc);
    free(a);
    return rc;
}

/* ---- free ---- */

static int free_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    if (sgl_ctx_is_worker(ctx)) {
        sgl__algo_block_drop(ctx, ((const struct id_arg *)arg)->id);
        return SGL_OK;
    }
    return sgl_pardo(ctx, free_task, arg, size);
}

int sgl_dvec_free(sgl_ctx_t *root, sgl_dvec_t *v)
{
    if (!v)
        return SGL_OK;
    int rc = sgl__algo_check_root(root, "sgl_dvec_free");
    if (!rc) {
        struct id_arg a = {v->id, 0, v->elem_size};
        rc = free_task(root, &a, sizeof a);
    }
    vec_free(v);
    return rc;
}

const struct algo_task sgl__algo_dvec_tasks[] = {
    {create_task, "sgl_algo.create"},
    {scatter_task, "sgl_algo.scatter"},
    {gather_task, "sgl_algo.gather"},
    {free_task, "sgl_algo.free"},
    {NULL, NULL},
};
