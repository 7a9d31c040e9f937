/* MPI messages of parts (mpi_parts.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/errors.h>

#include "mpi_parts.h"

size_t sgl__parts_size(const struct sgl__part *parts, int nparts)
{
    size_t n = 0;
    for (int i = 0; i < nparts; i++)
        n += parts[i].len;
    return n;
}

int sgl__send_packed(MPI_Comm comm, int dest, int tag,
                       const struct sgl__part *parts, int nparts, char *pack,
                       MPI_Request *req)
{
    size_t off = 0;
    for (int i = 0; i < nparts; i++) {
        if (parts[i].len)
            memcpy(pack + off, parts[i].ptr, parts[i].len);
        off += parts[i].len;
    }
    if (MPI_Isend(pack, (int)off, MPI_BYTE, dest, tag, comm, req) !=
        MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "MPI_Isend to rank %d failed", dest);
    return SGL_OK;
}

/* MPI counts are ints: a part is described to MPI as blocks of at most
 * this many bytes, so that one message may exceed INT_MAX bytes. */
#define BLOCK_MAX ((size_t)1 << 30)

/* A datatype of absolute addresses covering @parts in order (empty parts
 * skipped), each split into blocks of at most BLOCK_MAX bytes. */
int sgl__parts_type(const struct sgl__part *parts, int nparts,
                      MPI_Datatype *ret)
{
    size_t n = 0;
    for (int i = 0; i < nparts; i++)
        n += (parts[i].len + BLOCK_MAX - 1) / BLOCK_MAX;
    if (n > (size_t)INT_MAX)
        return sgl_error_set(SGL_ERANGE, "a message of %zu blocks of %zu "
                                         "bytes is too large for MPI",
                             n, BLOCK_MAX);
    int *len = malloc((n ? n : 1) * sizeof *len);
    MPI_Aint *disp = malloc((n ? n : 1) * sizeof *disp);
    if (!len || !disp) {
        free(len);
        free(disp);
        return sgl_error_set(SGL_ENOMEM, "out of memory for a datatype");
    }
    size_t k = 0;
    for (int i = 0; i < nparts; i++)
        for (size_t off = 0; off < parts[i].len; off += BLOCK_MAX, k++) {
            size_t rest = parts[i].len - off;
            len[k] = (int)(rest < BLOCK_MAX ? rest : BLOCK_MAX);
            MPI_Get_address((const char *)parts[i].ptr + off, &disp[k]);
        }
    int rc = MPI_Type_create_hindexed((int)n, len, disp, MPI_BYTE, ret);
    if (rc == MPI_SUCCESS && (rc = MPI_Type_commit(ret)) != MPI_SUCCESS)
        MPI_Type_free(ret);
    free(len);
    free(disp);
    if (rc != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "building an MPI datatype failed");
    return SGL_OK;
}

int sgl__send_parts(MPI_Comm comm, int dest, int tag,
                      const struct sgl__part *parts, int nparts, MPI_Request *req)
{
    MPI_Datatype t;
    int rc = sgl__parts_type(parts, nparts, &t);
    if (rc)
        return rc;
    rc = MPI_Isend(MPI_BOTTOM, 1, t, dest, tag, comm, req);
    MPI_Type_free(&t);
    if (rc != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "MPI_Isend to rank %d failed", dest);
    return SGL_OK;
}

int sgl__recv_parts(MPI_Comm comm, int src, int tag,
                    const struct sgl__part *parts, int nparts,
                    MPI_Request *req)
{
    MPI_Datatype t;
    int rc = sgl__parts_type(parts, nparts, &t);
    if (rc)
        return rc;
    rc = MPI_Irecv(MPI_BOTTOM, 1, t, src, tag, comm, req);
    MPI_Type_free(&t);
    if (rc != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "MPI_Irecv from rank %d failed", src);
    return SGL_OK;
}

int sgl__irecv_bytes(void *buf, size_t n, int src, int tag, MPI_Comm comm,
                     MPI_Request *req)
{
    if (n > (size_t)INT_MAX) {
        struct sgl__part whole = {buf, n};
        return sgl__recv_parts(comm, src, tag, &whole, 1, req);
    }
    if (MPI_Irecv(buf, (int)n, MPI_BYTE, src, tag, comm, req) != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "MPI_Irecv of %zu bytes from rank %d "
                                       "failed",
                             n, src);
    return SGL_OK;
}

int sgl__recv_bytes(void *buf, size_t n, int src, int tag, MPI_Comm comm)
{
    int rc;
    if (n <= (size_t)INT_MAX) {
        rc = MPI_Recv(buf, (int)n, MPI_BYTE, src, tag, comm,
                      MPI_STATUS_IGNORE);
    } else {
        struct sgl__part whole = {buf, n};
        MPI_Datatype t;
        if ((rc = sgl__parts_type(&whole, 1, &t)))
            return rc;
        rc = MPI_Recv(MPI_BOTTOM, 1, t, src, tag, comm, MPI_STATUS_IGNORE);
        MPI_Type_free(&t);
    }
    if (rc != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "receiving %zu bytes from rank %d "
                                       "failed",
                             n, src);
    return SGL_OK;
}

