/**
 * @file machine_mpi.h
 * The machine tree of the processes of one MPI communicator: discovery
 * for a program that runs SGL on part of its ranks.
 */
#ifndef SGL_MACHINE_MPI_H
#define SGL_MACHINE_MPI_H

#include <mpi.h>

#include <sgl/machine.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_machine_mpi Machine discovery on a communicator
 *  Discovery across the ranks of an MPI communicator.
 *  @{ */

/** Like sgl_machine_discover(), over the processes of @p comm only:
 *  collective over @p comm (MPI must be initialised), which may be any
 *  communicator, a half of MPI_COMM_WORLD say. Hosts are found by shared
 *  memory among those processes; process nodes carry their rank in
 *  @p comm.
 *  @param comm        used, not stored or freed.
 *  @param opts        may be NULL for defaults; not stored.
 *  @param ret_machine set on success only; the caller frees it.
 *  @return SGL_OK, SGL_EINVAL (NULL @p ret_machine), SGL_ESTATE (MPI not
 *          initialised), SGL_EHWLOC, SGL_EMPI or SGL_ENOMEM; every process
 *          of @p comm returns the same status. */
SGL_API int sgl_machine_discover_comm(MPI_Comm comm,
                                      const sgl_machine_opts_t *opts,
                                      sgl_machine_t **ret_machine);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
