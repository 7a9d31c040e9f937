/* Checks of distributed arrays, plans and the Trasgo programs against
 * sequential references, shared by the Criterion tests (thread levels)
 * and the multi-rank driver (MPI levels, simulated hosts). Each runs SGL
 * programs on @rt and returns SGL_OK or an error saying what differed. */
#ifndef SGL_TEST_TRASGO_CHECKS_H
#define SGL_TEST_TRASGO_CHECKS_H

#include <sgl/darray.h>

/* Register the algorithms and the programs. */
int trasgo_test_register(sgl_runtime_t *rt);

/* Rotations by offsets of every kind (0, small, negative, larger than a
 * block, than the array) on even and uneven partitions. */
int trasgo_check_rotate(sgl_runtime_t *rt);
/* Heat 1D, 2D and 3D, bitwise against the sequential Jacobi. */
int trasgo_check_heat(sgl_runtime_t *rt);
/* Cannon on tile counts that fit the workers' grid, bitwise against the
 * sequential tile order; counts that do not fit are refused. */
int trasgo_check_cannon(sgl_runtime_t *rt);
/* Gather of an uneven, weighted array; a plan's statistics. */
int trasgo_check_layouts(sgl_runtime_t *rt);
/* Scatter then gather, bitwise equal: 1D uneven cuts of 3-byte elements,
 * 2D weighted, 3D of 16-byte elements, with halos. */
int trasgo_check_scatter(sgl_runtime_t *rt);
/* Bad input: clear errors, and nothing run where the master can tell. */
int trasgo_check_errors(sgl_runtime_t *rt);

/* Gather, scatter and checksum called below the master that created the
 * array are refused with SGL_ESTATE. Thread trees only (the handle
 * travels to the children as a pointer). */
int trasgo_check_other_master(sgl_runtime_t *rt);

#endif
