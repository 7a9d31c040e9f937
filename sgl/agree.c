/* sgl__agree(): one verdict for every process of a communicator. The
 * runtime's start-up and the refit both end their collective steps with
 * it, so it lives apart from either: neither file calls the other. */
#include <mpi.h>

#include "runtime_impl.h"

/* Every rank reaches the same verdict, so that no rank goes on alone. */
int sgl__agree(MPI_Comm comm, int rc, const char *fn)
{
    int worst = rc;
    if (MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "%s: MPI_Allreduce failed", fn);
    if (worst < 0 && rc == 0)
        return sgl_error_set(worst, "%s failed on another rank: %s", fn,
                             sgl_error_string(worst));
    return worst;
}
