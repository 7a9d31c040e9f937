/* Which link a level's type means: process types (cluster, rack, host,
 * rank) are MPI links, in-process types thread links. Shared by the
 * shape parser and writer and the tree builder. */
#include <string.h>

#include "machine_impl.h"

sgl_link_t sgl__type_link(const char *type)
{
    static const char *const mpi_types[] = {"cluster", "rack", "host",
                                            "rank"};
    static const char *const thread_types[] = {
        "machine", "package", "pack", "socket", "numa", "group", "die", "l5",
        "l4",      "l3",      "l2",   "l1",     "l3i",  "l2i",   "l1i", "core",
        "pu",      "thread"};
    for (size_t i = 0; i < sizeof mpi_types / sizeof *mpi_types; i++)
        if (strcmp(type, mpi_types[i]) == 0)
            return SGL_LINK_MPI;
    for (size_t i = 0; i < sizeof thread_types / sizeof *thread_types; i++)
        if (strcmp(type, thread_types[i]) == 0)
            return SGL_LINK_THREADS;
    return SGL_LINK_NONE;
}
