/* Local work as modelled time in the simulation build (sim_work.c). */
#ifndef SGL_SIM_WORK_H
#define SGL_SIM_WORK_H

/* Charge @units of declared work (sgl_ctx_add_work()) to the simulated
 * clock at SGL_SIM_WORK's seconds per unit; nothing when it is unset, or
 * outside the simulation build. SGL_OK, or SGL_EINVAL (with the message)
 * for a value that is not a time. */
int sgl__sim_work_charge(double units);

#endif
