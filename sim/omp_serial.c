/* The OpenMP calls the runtime makes, answered as one thread would, for
 * the simulation build (-Dmpi=smpi), which has no OpenMP: SMPI's clock
 * and MPI calls belong to a simulated rank's own thread, so the runtime
 * refuses thread levels there (runtime.c) and every rank is one worker.
 * A thread level's loop over its children (level_threads.c) then runs
 * them in turn on the calling thread. */
#include <omp.h>

int omp_get_num_threads(void) { return 1; }

int omp_get_thread_num(void) { return 0; }

/* 1 rather than "no limit": runtime.c's plan_threads() then refuses a
 * tree that would start threads before anything tries to. */
int omp_get_thread_limit(void) { return 1; }

int omp_get_max_active_levels(void) { return 1; }

void omp_set_max_active_levels(int levels) { (void)levels; }
