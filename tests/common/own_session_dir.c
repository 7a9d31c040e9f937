/* Criterion runs each test in a process of its own (BoxFort re-executes
 * the program), several at once. Under the default test setup every
 * test program has an Open MPI session base of its own
 * (own_session_dir.sh); this gives each process one inside it, before
 * main, so that two of its isolated singletons never race on creating
 * the same session directory. Open MPI creates the missing directories;
 * the wrapper removes them all. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void own_session_dir(void)
{
    const char *base = getenv("SGL_TEST_SESSION_BASE");
    char dir[4096];
    if (base && snprintf(dir, sizeof dir, "%s/%ld", base, (long)getpid()) <
                    (int)sizeof dir)
        setenv("OMPI_MCA_orte_tmpdir_base", dir, 1);
}
