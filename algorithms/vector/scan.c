/* Prefix scan: two supersteps from the root, each recursive over levels.
 *
 *   pass 1 (up):   worker: LOCAL_FIRST scans its block into the output and
 *                  hands up its total; REDUCE_FIRST only folds its block.
 *                  master: pardo(pass 1) ; gather the p child totals and
 *                  keep them (context state) ; hand up their fold.
 *   pass 2 (down): master: offset o (identity at the root) ; child i gets
 *                  o (+) t_0 (+) ... (+) t_{i-1} ; scatter ; pardo(pass 2).
 *                  worker: LOCAL_FIRST adds its offset to its block (skipped
 *                  for worker 0); REDUCE_FIRST scans its input from its
 *                  offset into the output.
 *
 * Cost per level and pass: max_i Cost_i + p*c0 + p words (g_up in pass 1,
 * g_down in pass 2) + 2l. The variants differ only in the workers' work:
 * LOCAL_FIRST scans and adds offsets, REDUCE_FIRST reduces and scans
 * (scan_cost.c says which is cheaper where). AUTO takes the one the model
 * prices lower on the runtime's parameters (pick()), for a root array
 * (sgl_scan()) by the prices of the paths a root array takes; with no
 * variant the scan is REDUCE_FIRST.
 * Extra memory: p elements per master. Totals and offsets have the
 * element type (8-bit scans wrap modulo 2^8 throughout, which gives the
 * low 8 bits of the exact prefixes). */
#include <stdlib.h>
#include <string.h>

#include <sgl/predict.h>
#include <sgl/trace.h>

#include "algo_internal.h"

/* ---- the two passes ---- */

struct scan_arg {
    struct algo_op_arg op; /* op.id: input vector */
    uint32_t out;          /* output vector */
    uint32_t pad;
};

static int blocks(sgl_ctx_t *ctx, const struct scan_arg *a,
                  struct algo_block **in, struct algo_block **out)
{
    *in = sgl__algo_block_find(ctx, a->op.id);
    *out = sgl__algo_block_find(ctx, a->out);
    if (!*in || !*out)
        return sgl_error_set(SGL_ESTATE,
                             "worker %zu has no block of vector %u",
                             sgl_ctx_first_worker(ctx),
                             *in ? a->out : a->op.id);
    if ((*in)->count != (*out)->count)
        return sgl_error_set(SGL_ESIZE,
                             "scan: worker %zu has %zu input and %zu output "
                             "elements",
                             sgl_ctx_first_worker(ctx), (*in)->count,
                             (*out)->count);
    return SGL_OK;
}

static int resolve(const struct scan_arg *a, struct algo_op *op)
{
    SGL_TRY(sgl__algo_op_resolve((sgl_dtype_t)a->op.dtype, a->op.op, ALGO_ACC_ELEM,
                             op));
    if (op->elem_size != a->op.elem_size)
        return sgl_error_set(SGL_EINVAL, "operator %u registered with "
                                         "another size here",
                             a->op.op);
    return SGL_OK;
}

static int pass1_task(sgl_ctx_t *ctx, const void *arg, size_t size);

static int pass1(sgl_ctx_t *ctx, const struct scan_arg *a,
                 const struct algo_op *op, void *total)
{
    if (sgl_ctx_is_worker(ctx)) {
        struct algo_block *in, *out;
        SGL_TRY(blocks(ctx, a, &in, &out));
        /* The pass that runs the local scan declares its elements: the
         * work of kernel "scan" (the other pass is another kernel's). */
        if (a->op.flags & SGL_SCAN_LOCAL_FIRST) {
            sgl__algo_local_scan(op, in->data, out->data, in->count, NULL,
                                 a->op.flags & SGL_SCAN_EXCLUSIVE, total);
            SGL_TRY(sgl_ctx_add_work(ctx, (double)in->count));
        } else {
            memcpy(total, op->identity, op->elem_size);
            sgl__algo_local_reduce(op, in->data, in->count, total);
        }
        return SGL_OK;
    }
    unsigned p = sgl_ctx_children(ctx);
    SGL_TRY(sgl_pardo(ctx, pass1_task, a, sizeof *a));
    unsigned char *t = sgl__algo_scratch(ctx, (size_t)p * op->elem_size);
    if (!t)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    SGL_TRY(sgl_gather(ctx, t, op->elem_size, p, NULL));
    memcpy(total, op->identity, op->elem_size);
    for (unsigned i = 0; i < p; i++)
        sgl__algo_combine(op, total, t + (size_t)i * op->elem_size);
    return SGL_OK;
}

static int pass1_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    struct algo_op op;
    SGL_TRY(resolve(arg, &op));
    unsigned char total[ALGO_MAX_ELEM];
    SGL_TRY(pass1(ctx, arg, &op, total));
    return sgl_put(ctx, total, op.elem_size, 1);
}

static int pass2_task(sgl_ctx_t *ctx, const void *arg, size_t size);

/* @off: the fold of everything before this subtree (identity at worker 0). */
static int pass2(sgl_ctx_t *ctx, const struct scan_arg *a,
                 const struct algo_op *op, const void *off)
{
    int first = sgl_ctx_first_worker(ctx) == 0;
    if (sgl_ctx_is_worker(ctx)) {
        struct algo_block *in, *out;
        SGL_TRY(blocks(ctx, a, &in, &out));
        if (a->op.flags & SGL_SCAN_LOCAL_FIRST) {
            if (!first)
                sgl__algo_local_add(op, out->data, out->count, off);
        } else {
            unsigned char total[ALGO_MAX_ELEM];
            sgl__algo_local_scan(op, in->data, out->data, in->count,
                                 first ? NULL : off,
                                 a->op.flags & SGL_SCAN_EXCLUSIVE, total);
            SGL_TRY(sgl_ctx_add_work(ctx, (double)in->count));
        }
        return SGL_OK;
    }
    unsigned p = sgl_ctx_children(ctx);
    size_t es = op->elem_size;
    const unsigned char *t = sgl__algo_scratch(ctx, (size_t)p * es);
    unsigned char *offs = malloc((size_t)p * es);
    size_t *counts = malloc(p * sizeof *counts);
    int rc = SGL_OK;
    if (!t || !offs || !counts)
        rc = sgl_error_set(SGL_ENOMEM, "out of memory");
    for (unsigned i = 0; !rc && i < p; i++) {
        counts[i] = 1;
        if (i == 0)
            memcpy(offs, off, es);
        else {
            memcpy(offs + i * es, offs + (i - 1) * es, es);
            sgl__algo_combine(op, offs + i * es, t + (i - 1) * es);
        }
    }
    if (!rc)
        rc = sgl_scatter(ctx, offs, es, counts);
    if (!rc)
        rc = sgl_pardo(ctx, pass2_task, a, sizeof *a);
    free(offs);
    free(counts);
    return rc;
}

static int pass2_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    struct algo_op op;
    SGL_TRY(resolve(arg, &op));
    const void *off;
    size_t count;
    SGL_TRY(sgl_recv_view(ctx, op.elem_size, &off, &count));
    if (count != 1)
        return sgl_error_set(SGL_ESIZE, "%zu scan offsets, expected one",
                             count);
    return pass2(ctx, arg, &op, off);
}

/* ---- the variant ---- */

#define SCAN_VARIANTS                                                          \
    (SGL_SCAN_LOCAL_FIRST | SGL_SCAN_REDUCE_FIRST | SGL_SCAN_AUTO)

static int check_flags(unsigned flags, const char *fn)
{
    if (flags & ~(unsigned)(SGL_SCAN_EXCLUSIVE | SCAN_VARIANTS))
        return sgl_error_set(SGL_EINVAL,
                             "%s: unknown flags %#x (known: EXCLUSIVE, "
                             "LOCAL_FIRST, REDUCE_FIRST, AUTO)",
                             fn, flags & ~(unsigned)(SGL_SCAN_EXCLUSIVE |
                                                     SCAN_VARIANTS));
    unsigned v = flags & SCAN_VARIANTS;
    if (v & (v - 1))
        return sgl_error_set(SGL_EINVAL,
                             "%s: flags %#x name several variants; pick at "
                             "most one of LOCAL_FIRST, REDUCE_FIRST and "
                             "AUTO",
                             fn, flags);
    return SGL_OK;
}

/* AUTO's pick for @n elements: the variant sgl_predict_algorithm() prices
 * lower on the parameters the runtime was given. Only the root calls it,
 * and the variant it picks travels to every worker in the pardo's
 * argument, so every process runs the same one. REDUCE_FIRST, the scan's
 * default, when there is nothing to price on (no parameters, fewer than
 * one element, a kernel or level missing from the file) and on a tie:
 * it writes n elements fewer. */
static unsigned pick(sgl_ctx_t *root, size_t n, int root_array)
{
    const sgl_machine_t *m = sgl_ctx_params(root);
    sgl_prediction_t lf, rf;
    sgl_predict_opts_t o;
    sgl_predict_opts_default(&o);
    /* A root array runs other paths than a distributed vector: the root
     * scan in place (scan_root.c) against LOCAL_FIRST through a
     * distributed vector that copies the array in and out; the closed
     * forms price both as "centralised" (scan_cost.c). */
    o.centralised = root_array;
    if (!m || n == 0 ||
        sgl_predict_algorithm(m, SGL_PREDICT_SCAN, (double)n, &o, &lf) ||
        sgl_predict_algorithm(m, SGL_PREDICT_SCAN_RTS, (double)n, &o, &rf))
        return SGL_SCAN_REDUCE_FIRST;
    return lf.total < rf.total ? SGL_SCAN_LOCAL_FIRST : SGL_SCAN_REDUCE_FIRST;
}

static unsigned variant(sgl_ctx_t *root, size_t n, unsigned flags,
                        int root_array)
{
    if (flags & SGL_SCAN_AUTO)
        return pick(root, n, root_array);
    return flags & SGL_SCAN_LOCAL_FIRST ? SGL_SCAN_LOCAL_FIRST
                                        : SGL_SCAN_REDUCE_FIRST;
}

int sgl_scan_variant(sgl_ctx_t *root, size_t n, unsigned flags,
                     unsigned *ret_variant)
{
    SGL_TRY(sgl__algo_check_root(root, "sgl_scan_variant"));
    SGL_TRY(check_flags(flags, "sgl_scan_variant"));
    if (!ret_variant)
        return sgl_error_set(SGL_EINVAL, "sgl_scan_variant: ret_variant is "
                                         "NULL");
    *ret_variant = variant(root, n, flags, 0);
    return SGL_OK;
}

int sgl_scan_root_variant(sgl_ctx_t *root, size_t n, unsigned flags,
                          unsigned *ret_variant)
{
    SGL_TRY(sgl__algo_check_root(root, "sgl_scan_root_variant"));
    SGL_TRY(check_flags(flags, "sgl_scan_root_variant"));
    if (!ret_variant)
        return sgl_error_set(SGL_EINVAL, "sgl_scan_root_variant: "
                                         "ret_variant is NULL");
    *ret_variant = variant(root, n, flags, 1);
    return SGL_OK;
}

/* ---- entry points ---- */

int sgl_dvec_scan(sgl_ctx_t *root, const sgl_dvec_t *in, sgl_dvec_t *out,
                  sgl_op_t op, unsigned flags)
{
    SGL_TRY(sgl__algo_check_root(root, "sgl_dvec_scan"));
    SGL_TRY(sgl__algo_check_vec(in, "sgl_dvec_scan"));
    SGL_TRY(sgl__algo_check_vec(out, "sgl_dvec_scan"));
    if (in->n != out->n || in->elem_size != out->elem_size ||
        in->dtype != out->dtype)
        return sgl_error_set(SGL_ESIZE,
                             "sgl_dvec_scan: input and output differ in "
                             "size or type");
    SGL_TRY(check_flags(flags, "sgl_dvec_scan"));
    struct algo_op o;
    SGL_TRY(sgl__algo_op_resolve(in->dtype, op, ALGO_ACC_ELEM, &o));
    if (o.elem_size != in->elem_size)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_dvec_scan: operator on %zu-byte elements, "
                             "vector of %zu-byte elements",
                             o.elem_size, in->elem_size);
    flags = (flags & SGL_SCAN_EXCLUSIVE) | variant(root, in->n, flags, 0);
    struct scan_arg a = {{(uint32_t)in->dtype, op, in->id, flags, o.elem_size},
                         out->id, 0};
    unsigned char total[ALGO_MAX_ELEM];
    if (sgl_ctx_is_worker(root)) {
        struct algo_block *bi, *bo;
        SGL_TRY(blocks(root, &a, &bi, &bo));
        sgl__algo_local_scan(&o, bi->data, bo->data, bi->count, NULL,
                             flags & SGL_SCAN_EXCLUSIVE, total);
        return SGL_OK;
    }
    SGL_TRY(pass1(root, &a, &o, total));
    return pass2(root, &a, &o, o.identity);
}

int sgl_scan(sgl_ctx_t *root, sgl_dtype_t dtype, sgl_op_t op,
             const void *src, void *dst, size_t n, unsigned flags)
{
    SGL_TRY(sgl__algo_check_root(root, "sgl_scan"));
    /* Before the scatter, which bad flags would waste. */
    SGL_TRY(check_flags(flags, "sgl_scan"));
    if (n && (!src || !dst))
        return sgl_error_set(SGL_EINVAL, "sgl_scan: NULL buffer");
    struct algo_op o;
    SGL_TRY(sgl__algo_op_resolve(dtype, op, ALGO_ACC_ELEM, &o));
    size_t bytes;
    if (__builtin_mul_overflow(n, o.elem_size, &bytes))
        return sgl_error_set(SGL_ERANGE, "sgl_scan: %zu elements of %zu "
                                         "bytes overflow size_t",
                             n, o.elem_size);
    const char *s = src, *d = dst;
    /* In place is a scan each worker does on its own part; any other
     * overlap would have one worker overwrite what another still reads. */
    if (n && s != d && s < d + bytes && d < s + bytes)
        return sgl_error_set(SGL_EINVAL, "sgl_scan: src and dst overlap "
                                         "without being the same array");
    if (variant(root, n, flags, 1) == SGL_SCAN_REDUCE_FIRST) {
        struct algo_op_arg a = {(uint32_t)dtype, op, 0,
                                flags & SGL_SCAN_EXCLUSIVE, o.elem_size};
        return sgl__algo_root_scan(root, &o, &a, src, dst, n);
    }
    /* LOCAL_FIRST writes its outputs twice, which the parts of the
     * caller's array cannot take across an MPI link: it scans a
     * distributed vector. */
    sgl_dvec_t *v;
    SGL_TRY(sgl_dvec_scatter(root, dtype, o.elem_size, src, n, &v));
    /* The variant picked for the root array, not AUTO again: a
     * distributed vector is priced otherwise and may pick the other. */
    int rc = sgl_dvec_scan(root, v, v, op,
                           (flags & SGL_SCAN_EXCLUSIVE) |
                               SGL_SCAN_LOCAL_FIRST);
    if (!rc)
        rc = sgl_dvec_gather(root, v, dst, n);
    int rc2 = sgl_dvec_free(root, v);
    return rc ? rc : rc2;
}

const struct algo_task sgl__algo_scan_tasks[] = {
    {pass1_task, "sgl_algo.scan1"},
    {pass2_task, "sgl_algo.scan2"},
    {NULL, NULL},
};
