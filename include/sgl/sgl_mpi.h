/**
 * @file sgl_mpi.h
 * Running SGL inside an existing MPI application. The only public header
 * that exposes MPI types.
 */
#ifndef SGL_SGL_MPI_H
#define SGL_SGL_MPI_H

#include <mpi.h>

#include <sgl/sgl.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_mpi MPI embedding
 *  Starting the runtime on a communicator of an existing MPI program.
 *  @{ */

/** Like sgl_init(), on the processes of @p comm (collective over it). MPI
 *  must already be initialised, with at least MPI_THREAD_FUNNELED when
 *  the machine tree has a thread level (a tree of MPI levels only, one
 *  worker per rank, runs on MPI_THREAD_SINGLE); the runtime duplicates
 *  @p comm and never finalises MPI. The simulation build (SimGrid SMPI)
 *  refuses trees with a thread level.
 *  @return as sgl_init(); SGL_ESTATE if MPI is not initialised, SGL_EMPI if
 *          its thread level is below FUNNELED and the tree has a thread
 *          level, SGL_ESHAPE for a thread level under SMPI. */
SGL_API int sgl_init_comm(MPI_Comm comm, const sgl_opts_t *opts,
                          sgl_runtime_t **ret_rt);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
