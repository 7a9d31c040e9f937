/* The optional watchdog (sgl_opts_t.watchdog, SGL_WATCHDOG): a thread
 * that ends the job when a superstep of this process runs too long, with
 * a message naming the master and the children that have not returned.
 * Never installed. */
#ifndef SGL_WATCHDOG_H
#define SGL_WATCHDOG_H

#include "runtime_impl.h"

/* The exit status of a process the watchdog ends, as timeout(1) uses. */
#define SGL__WATCHDOG_EXIT 124

/* Seconds on the clock the watchdog compares pardo starts with. */
double sgl__watch_clock(void);

/* Start the watchdog's thread if rt->watchdog > 0. */
int sgl__watchdog_start(struct sgl_runtime *rt);
/* Stop and free it (no-op if it does not run). */
void sgl__watchdog_stop(struct sgl_runtime *rt);

#endif
