/* Shared internals of the algorithms: resolved operators and their
 * kernels (ops.c), fills (fill.c), the per-context state that holds
 * distributed blocks (dvec.c), the task tables (algorithm_list.h,
 * register.c) and small helpers. Uses only the public SGL API; never
 * installed. */
#ifndef SGL_ALGO_INTERNAL_H
#define SGL_ALGO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/algorithms.h>
#include <sgl/balance.h>

#define ALGO_MAX_ELEM 256
#define ALGO_MAX_ARG 256

/* A resolved operator: what a worker needs to apply it. The fold's value
 * (accumulator, partial results, the reduction's result) has type
 * @acc_dtype, which differs from the element type only for a widened
 * reduction of 8-bit elements (SGL_I8 -> SGL_I64, SGL_U8 -> SGL_U64). */
struct algo_op {
    sgl_dtype_t dtype;     /* of the elements */
    sgl_dtype_t acc_dtype; /* of the fold's value */
    uint32_t op;           /* SGL_OP_* or a registered number */
    size_t elem_size;      /* bytes per element */
    size_t acc_size;       /* bytes of the fold's value and the identity */
    sgl_op_fn fn;          /* user operators only */
    const void *identity;  /* acc_size bytes */
};

/* How an operator folds: reductions widen 8-bit elements to 64 bits
 * (ALGO_ACC_WIDE); scans keep the element type (ALGO_ACC_ELEM). Both are
 * the same for every other type. */
enum algo_acc { ALGO_ACC_WIDE, ALGO_ACC_ELEM };

/* Resolve (dtype, op): SGL_EINVAL for an unknown operator or a type that
 * does not fit it. @elem_size is checked against a user operator's. */
int sgl__algo_op_resolve(sgl_dtype_t dtype, sgl_op_t op, enum algo_acc acc,
                         struct algo_op *ret);
/* Bytes per element of a built-in type (1, 4 or 8); 0 for SGL_USER and
 * unknown types. */
size_t sgl__algo_elem_size(sgl_dtype_t dtype);
/* Bytes of a type that PSRS sorts by (its u32/u64 key paths): 8 for
 * SGL_F64, SGL_I64, SGL_U64, 4 for SGL_F32, 0 for every other type. */
size_t sgl__algo_key_size(sgl_dtype_t dtype);

/* An integer's low 8 bits as int8_t, without the implementation-defined
 * conversion of an out-of-range value. */
static inline int8_t algo_wrap_i8(uint64_t v)
{
    int x = (int)(v & 0xff);
    return (int8_t)(x >= 128 ? x - 256 : x);
}

/* One distributed block on a worker. */
struct algo_block {
    uint32_t id;
    void *data;
    size_t count;
    size_t first;       /* global index of the first element at creation */
    size_t elem_size;
    unsigned char *value; /* last broadcast result (the reduction's
                             acc_size bytes, 8 for an 8-bit vector) */
    size_t stay_lo, stay_hi; /* PSRS's stay path, from its partition to
                                its merge step: the part of the block
                                that stayed (psrs_stay.h) */
    int stay;
};

/* The state every context of the algorithms keeps: blocks on workers, a
 * small scratch array on masters (scan totals between two supersteps). */
struct sgl__algo_state {
    struct algo_block *blocks;
    size_t nblocks, cap;
    unsigned char *scratch;
    size_t scratch_bytes;
};

/* The context's state, created on first use (NULL only if out of memory
 * and @create). */
struct sgl__algo_state *sgl__algo_state(sgl_ctx_t *ctx, int create);
struct algo_block *sgl__algo_block_find(sgl_ctx_t *ctx, uint32_t id);
/* Add (or replace) the block @id, taking ownership of @data. */
int sgl__algo_block_set(sgl_ctx_t *ctx, uint32_t id, void *data, size_t count,
                        size_t first, size_t elem_size);
void sgl__algo_block_drop(sgl_ctx_t *ctx, uint32_t id);
/* At a master after a pardo: hand up the children's blocks of
 * @elem_size-byte elements, concatenated in child order. */
int sgl__algo_pass_up(sgl_ctx_t *ctx, size_t elem_size);
/* Grow the context's scratch to @bytes. */
void *sgl__algo_scratch(sgl_ctx_t *ctx, size_t bytes);

struct sgl_dvec {
    uint32_t id;
    sgl_dtype_t dtype;
    size_t elem_size;
    size_t n;
    size_t workers;
    size_t *counts; /* per worker */
};

/* Root-side checks shared by every entry point. */
int sgl__algo_check_root(sgl_ctx_t *root, const char *fn);
int sgl__algo_check_vec(const sgl_dvec_t *v, const char *fn);

__extension__ typedef unsigned __int128 algo_u128;

/* Worker w's share of n elements over P workers. */
static inline size_t algo_split(size_t n, size_t w, size_t p)
{
    return (size_t)(((algo_u128)n * w) / p);
}

/* The summed weights (sgl_ctx_worker_weights(), overall speeds) of the
 * tree's workers 0 .. w-1 for w = 0 .. P: P + 1 entries, the first 0,
 * integers below 2^53 so that the sums are exact. Free with free(). */
int sgl__algo_weight_prefix(const sgl_ctx_t *ctx, uint64_t **ret);

/* The distributed vectors' layout of a whole vector of @n elements:
 * worker w holds [n S_w / S, n S_{w+1} / S), S_w the summed weights of
 * the workers before it (sgl_ctx_worker_weights(), their overall speeds:
 * [n w / P, n (w+1) / P) when all are alike), exact in 128 bits. Worker
 * @w's block: */
int sgl__algo_layout_range(const sgl_ctx_t *ctx, size_t n, size_t w,
                           size_t *ret_first, size_t *ret_count);
/* The children's element counts of the layout, at any master. Not
 * sgl_ctx_split(): below the root that splits the master's own share and
 * rounds differently, so created and scattered vectors (and a
 * centralised reduction) would not share one layout. */
int sgl__algo_layout_counts(const sgl_ctx_t *ctx, size_t n, size_t *counts);

/* The typed kernels (ops.c). */
void sgl__algo_local_reduce(const struct algo_op *op, const void *x, size_t n,
                            void *acc);
/* acc = a (+) b (may alias). */
void sgl__algo_combine(const struct algo_op *op, void *acc, const void *b);
/* y = scan of x starting from @off (NULL: identity); exclusive or not;
 * leaves the total (off (+) all x) in @total. x may equal y. */
void sgl__algo_local_scan(const struct algo_op *op, const void *x, void *y,
                          size_t n, const void *off, int exclusive,
                          void *total);
/* y_i = off (+) y_i. */
void sgl__algo_local_add(const struct algo_op *op, void *y, size_t n,
                         const void *off);

/* Each file's tasks, ended by {NULL, NULL}; register.c registers them
 * all, in the order of algorithm_list.h, which names every table. */
struct algo_task {
    sgl_task_fn fn;
    const char *name;
};
#define SGL_TASKS(table) extern const struct algo_task table[];
#include "algorithm_list.h"

/* Register the reference vertex programs (pregel_programs.c). */
int sgl__algo_pregel_register(void);

/* What a worker needs to fill its block (fill.c): a built-in fill or one
 * the program registered. */
struct algo_fill_arg {
    uint32_t fill;
    sgl_dtype_t dtype;
    size_t elem_size;
    const void *farg;
    size_t farg_size;
};
/* Fill @count elements of global indices first.. into @block. */
int sgl__algo_fill(const struct algo_fill_arg *a, void *block, size_t first,
                   size_t count);

/* Ops arg for tasks: fixed-width, process-independent. */
struct algo_op_arg {
    uint32_t dtype;
    uint32_t op;
    uint32_t id;    /* vector id */
    uint32_t flags;
    uint64_t elem_size;
};

/* sgl_scan()'s REDUCE_FIRST scan of @n elements at the root, in place
 * where the links allow (scan_root.c); @arg's flags hold EXCLUSIVE. */
int sgl__algo_root_scan(sgl_ctx_t *root, const struct algo_op *op,
                        const struct algo_op_arg *arg, const void *src,
                        void *dst, size_t n);

#endif
