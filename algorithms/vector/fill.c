/* Fills: the built-in ones (zero, a constant, iota, counter-based random
 * numbers: element g's value depends only on the seed and g, so a vector
 * is the same on any tree) and the registry of the program's own. */
#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"

struct fill_entry {
    sgl_fill_fn fn;
    char *name;
};

static struct fill_entry *fills;
static size_t nfills;

int sgl_fill_register(sgl_fill_fn fn, const char *name, uint32_t *ret_fill)
{
    if (!fn || !name || !ret_fill)
        return sgl_error_set(SGL_EINVAL, "sgl_fill_register: NULL argument");
    for (size_t i = 0; i < nfills; i++)
        if (fills[i].fn == fn && strcmp(fills[i].name, name) == 0) {
            *ret_fill = (uint32_t)(SGL_FILL_USER_FIRST + i);
            return SGL_OK;
        }
    struct fill_entry *t = realloc(fills, (nfills + 1) * sizeof *t);
    if (!t)
        return sgl_error_set(SGL_ENOMEM, "sgl_fill_register: out of memory");
    fills = t;
    char *copy = strdup(name);
    if (!copy)
        return sgl_error_set(SGL_ENOMEM, "sgl_fill_register: out of memory");
    fills[nfills].fn = fn;
    fills[nfills].name = copy;
    *ret_fill = (uint32_t)(SGL_FILL_USER_FIRST + nfills);
    nfills++;
    return SGL_OK;
}

static uint64_t splitmix(uint64_t x)
{
    uint64_t z = x + 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* One loop per type and fill, so that neither is decided per element:
 * element g (global index) gets RND(r) for a random fill, where r is the
 * mix of (seed, g), else IOTA(g). */
#define FILL_LOOP(T, RND, IOTA)                                                \
    do {                                                                       \
        T *out_ = block;                                                       \
        if (rnd)                                                               \
            for (size_t i = 0; i < count; i++) {                               \
                uint64_t r =                                                   \
                    splitmix(seed ^ ((first + i) * 0xd1342543de82ef95u));      \
                out_[i] = (RND);                                               \
            }                                                                  \
        else                                                                   \
            for (size_t i = 0; i < count; i++) {                               \
                uint64_t g = first + i;                                        \
                out_[i] = (IOTA);                                              \
            }                                                                  \
    } while (0)

static int builtin_fill(const struct algo_fill_arg *a, void *block,
                        size_t first, size_t count)
{
    size_t es = a->elem_size, fsize = a->farg_size;
    sgl_dtype_t t = a->dtype;
    switch (a->fill) {
    case SGL_FILL_NONE:
        memset(block, 0, count * es);
        return SGL_OK;
    case SGL_FILL_CONST:
        if (fsize != es)
            return sgl_error_set(SGL_EINVAL,
                                 "SGL_FILL_CONST: argument of %zu bytes for "
                                 "elements of %zu",
                                 fsize, es);
        if (es == 1)
            memset(block, *(const unsigned char *)a->farg, count);
        else
            for (size_t i = 0; i < count; i++)
                memcpy((char *)block + i * es, a->farg, es);
        return SGL_OK;
    case SGL_FILL_IOTA:
    case SGL_FILL_RANDOM: {
        uint64_t seed = 0;
        if (a->fill == SGL_FILL_RANDOM) {
            if (fsize != sizeof seed)
                return sgl_error_set(SGL_EINVAL,
                                     "SGL_FILL_RANDOM: the argument is one "
                                     "uint64_t seed");
            memcpy(&seed, a->farg, sizeof seed);
        }
        int rnd = a->fill == SGL_FILL_RANDOM;
        /* Random 8-bit elements take the top bits of the mix, iota ones
         * i mod 256. */
        switch (t) {
        case SGL_F64:
            FILL_LOOP(double, (double)(r >> 11) * 0x1p-53, (double)g);
            break;
        case SGL_F32:
            FILL_LOOP(float, (float)(r >> 40) * 0x1p-24f, (float)g);
            break;
        case SGL_I64:
            FILL_LOOP(int64_t, (int64_t)r, (int64_t)g);
            break;
        case SGL_U64:
            FILL_LOOP(uint64_t, r, g);
            break;
        case SGL_I8:
            FILL_LOOP(int8_t, algo_wrap_i8(r >> 56), algo_wrap_i8(g));
            break;
        case SGL_U8:
            FILL_LOOP(uint8_t, (uint8_t)(r >> 56), (uint8_t)(g & 0xff));
            break;
        default:
            return sgl_error_set(SGL_EINVAL,
                                 "built-in fill %u needs a built-in element "
                                 "type",
                                 a->fill);
        }
        return SGL_OK;
    }
    default:
        return sgl_error_set(SGL_EINVAL, "unknown fill %u", a->fill);
    }
}

int sgl__algo_fill(const struct algo_fill_arg *a, void *block, size_t first,
                   size_t count)
{
    if (a->fill < SGL_FILL_USER_FIRST)
        return builtin_fill(a, block, first, count);
    size_t i = a->fill - SGL_FILL_USER_FIRST;
    if (i >= nfills)
        return sgl_error_set(SGL_EINVAL, "unknown fill %u", a->fill);
    return fills[i].fn(block, first, count, a->elem_size,
                       a->farg_size ? a->farg : NULL, a->farg_size);
}
