/* MPI messages made of parts that lie anywhere in memory: packed into one
 * buffer when small, else described by a datatype of absolute addresses,
 * so that one message may exceed INT_MAX bytes. Shared by the MPI level and
 * the direct exchange. Never installed. */
#ifndef SGL_MPI_PARTS_H
#define SGL_MPI_PARTS_H

#include <mpi.h>
#include <stddef.h>

/* One contiguous piece of a message. */
struct sgl__part {
    const void *ptr;
    size_t len;
};

/* Total bytes of @parts. */
size_t sgl__parts_size(const struct sgl__part *parts, int nparts);

/* Copy @parts back to back into @pack and start sending it. */
int sgl__send_packed(MPI_Comm comm, int dest, int tag,
                     const struct sgl__part *parts, int nparts, char *pack,
                     MPI_Request *req);

/* A committed datatype of absolute addresses covering @parts in order
 * (empty parts skipped); the caller frees it. */
int sgl__parts_type(const struct sgl__part *parts, int nparts,
                    MPI_Datatype *ret);

/* Start sending the concatenation of @parts from where they lie. */
int sgl__send_parts(MPI_Comm comm, int dest, int tag,
                    const struct sgl__part *parts, int nparts,
                    MPI_Request *req);

/* Start receiving one message into @parts, in order, where they lie. */
int sgl__recv_parts(MPI_Comm comm, int src, int tag,
                    const struct sgl__part *parts, int nparts,
                    MPI_Request *req);

/* Start receiving exactly @n bytes into @buf, in one message of any size. */
int sgl__irecv_bytes(void *buf, size_t n, int src, int tag, MPI_Comm comm,
                     MPI_Request *req);

/* Receive exactly @n bytes into @buf, in one message of any size. */
int sgl__recv_bytes(void *buf, size_t n, int src, int tag, MPI_Comm comm);

#endif
