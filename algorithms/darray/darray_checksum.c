/* A bitwise checksum of a distributed array that does not depend on its
 * partition: the XOR over the elements of a hash of (bytes, row-major
 * index). XOR is order-free, so each worker hashes its own box where it
 * lies and only one 64-bit word per child goes up each level; a program
 * compares a distributed result with a sequential one without gathering
 * it. */
#include <string.h>

#include "algo_internal.h"
#include "darray_impl.h"
#include <sgl/blocks.h>

/* splitmix64's finaliser: every input bit reaches every output bit. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint64_t sgl_darray_checksum_element(const void *elem, size_t elem_size,
                                     uint64_t index)
{
    const unsigned char *p = elem;
    uint64_t u = 0;
    /* An 8-byte element hashes its own bits, so a double's checksum is the
     * one the Trasgo peers in bench/ compute with plain integer code. */
    for (size_t off = 0; p && off < elem_size; off += 8) {
        uint64_t w = 0;
        memcpy(&w, p + off, elem_size - off < 8 ? elem_size - off : 8);
        u = off ? mix(u) ^ w : w;
    }
    return mix(u + index * UINT64_C(0x9E3779B97F4A7C15));
}

struct sum_arg {
    uint32_t id;
    uint32_t pad;
    uint64_t size[DP_DIMS]; /* the array's extents, for the global index */
};

static int box_sum(sgl_ctx_t *worker, const struct sum_arg *a, uint64_t *ret)
{
    sgl_dblock_t b;
    SGL_TRY(sgl_darray_local(worker, a->id, &b));
    uint64_t x = 0;
    for (long i = b.lo[0]; i < b.hi[0]; i++)
        for (long j = b.lo[1]; j < b.hi[1]; j++)
            for (long k = b.lo[2]; k < b.hi[2]; k++) {
                uint64_t g = ((uint64_t)i * a->size[1] + (uint64_t)j) *
                                 a->size[2] + (uint64_t)k;
                x ^= sgl_darray_checksum_element(sgl_dblock_at(&b, i, j, k),
                                                 b.elem_size, g);
            }
    *ret = x;
    return SGL_OK;
}

/* At a master after the pardo: the XOR of the words the children put. */
static int children_sum(sgl_ctx_t *master, uint64_t *ret)
{
    *ret = 0;
    for (unsigned c = 0; c < sgl_ctx_children(master); c++) {
        const uint64_t *x;
        size_t n;
        SGL_TRY(sgl_gather_block(master, c, sizeof *x, (const void **)&x, &n));
        if (n != 1)
            return sgl_error_set(SGL_ESIZE, "sgl_darray_checksum: child %u "
                                            "handed up %zu words, not 1",
                                 c, n);
        *ret ^= *x;
    }
    return SGL_OK;
}

static int sum_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    uint64_t x;
    if (sgl_ctx_is_master(ctx)) {
        SGL_TRY(sgl_pardo(ctx, sum_task, arg, size));
        SGL_TRY(children_sum(ctx, &x));
    } else {
        SGL_TRY(box_sum(ctx, arg, &x));
    }
    return sgl_put(ctx, &x, sizeof x, 1);
}

int sgl_darray_checksum(sgl_ctx_t *master, const sgl_darray_t *array,
                        uint64_t *ret)
{
    static const char fn[] = "sgl_darray_checksum";
    if (!ret)
        return sgl_error_set(SGL_EINVAL, "%s: NULL argument", fn);
    SGL_TRY(sgl__darray_check_owner(master, array, fn));
    struct sum_arg a = {array->id, 0, {1, 1, 1}};
    for (unsigned d = 0; d < DP_DIMS; d++)
        a.size[d] = array->part.size[d];
    if (sgl_ctx_is_worker(master))
        return box_sum(master, &a, ret);
    SGL_TRY(sgl_pardo(master, sum_task, &a, sizeof a));
    return children_sum(master, ret);
}

const struct algo_task sgl__algo_darray_checksum_tasks[] = {
    {sum_task, "sgl_darray.checksum"},
    {NULL, NULL},
};
