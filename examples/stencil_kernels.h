/* The arithmetic of the Trasgo paper's programs (Heat 1D/2D/3D, Cannon)
 * as the tests' sequential references and the hand-written MPI peers in
 * bench/ compute it: the same initial values, the same formula per point
 * evaluated in the same order, the same tile product as the examples
 * heat.c and cannon.c, which carry their own copies (each is a whole
 * program); the tests compare the results bit for bit, so the copies
 * cannot drift apart unnoticed. kernel_check() is
 * sgl_darray_checksum_element() of a double, in integer code alone.
 * Compile users with -ffp-contract=off (a fused multiply-add would change
 * the bits in one program and not in another).
 *
 * Everything is static inline: each user compiles its own copy. */
#ifndef SGL_EXAMPLES_STENCIL_KERNELS_H
#define SGL_EXAMPLES_STENCIL_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* Initial value of the element with global row-major index g: uniform in
 * [0, 1), a function of g only, so independent of any partition. */
static inline double kernel_init(uint64_t g)
{
    return (double)((g * UINT64_C(0x9E3779B97F4A7C15)) >> 11) * 0x1.0p-53;
}

/* Jacobi heat steps on a periodic grid, with the diffusion numbers of the
 * explicit scheme's stability limits halved. c is the point, then its
 * neighbours: lower and upper along each dimension, the first dimension
 * first. */
#define HEAT1D_K 0.25
#define HEAT2D_K 0.125
#define HEAT3D_K 0.0625

static inline double heat1d_point(double c, double l, double r)
{
    return c + HEAT1D_K * (l + r - 2.0 * c);
}

static inline double heat2d_point(double c, double n, double s, double w,
                                  double e)
{
    return c + HEAT2D_K * (n + s + w + e - 4.0 * c);
}

static inline double heat3d_point(double c, double d, double u, double n,
                                  double s, double w, double e)
{
    return c + HEAT3D_K * (d + u + n + s + w + e - 6.0 * c);
}

/* One row of a 2D Jacobi step: out[j] for j in [0, len) from the rows
 * above (n), at (c) and below (s), each readable at [-1, len]. */
static inline void heat2d_row(double *restrict out, const double *n,
                              const double *c, const double *s, size_t len)
{
    for (size_t j = 0; j < len; j++)
        out[j] = heat2d_point(c[j], n[j], s[j], c[j - 1], c[j + 1]);
}

/* Cannon's tile product, c += a * b on bs x bs row-major tiles, in i-k-j
 * order (the order the references repeat). */
static inline void tile_gemm(double *restrict c, const double *restrict a,
                             const double *restrict b, size_t bs)
{
    for (size_t i = 0; i < bs; i++)
        for (size_t k = 0; k < bs; k++) {
            const double aik = a[i * bs + k];
            const double *brow = b + k * bs;
            double *crow = c + i * bs;
            for (size_t j = 0; j < bs; j++)
                crow[j] += aik * brow[j];
        }
}

/* Element (i, j) of Cannon's input matrices, n x n. */
static inline double cannon_a(size_t n, size_t i, size_t j)
{
    return kernel_init((uint64_t)i * n + j);
}

static inline double cannon_b(size_t n, size_t i, size_t j)
{
    return kernel_init((uint64_t)n * n + (uint64_t)i * n + j);
}

/* A bitwise checksum of a result, independent of how it is distributed:
 * the XOR over all elements of kernel_check(value, global index). A
 * changed bit or a misplaced element changes it (with probability 1 -
 * 2^-64); it combines across ranks with MPI_BXOR. */
static inline uint64_t kernel_check(double v, uint64_t g)
{
    union { double d; uint64_t u; } b = {.d = v};
    uint64_t z = b.u + g * UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#endif
