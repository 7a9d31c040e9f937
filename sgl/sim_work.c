/* Local work as modelled time under SimGrid's SMPI (issue 46, item 2).
 *
 * The simulation runs with smpi/simulate-computation:no (sim/env.sh): a
 * task's kernels cost no simulated time, because timing the real CPU on a
 * shared box would make simulated runs noisy. SGL_SIM_WORK=C (seconds per
 * unit: "0.353ns", "3.5e-10") opts in to a deterministic price instead:
 * every unit of work a task declares (sgl_ctx_add_work(); the reduction
 * and the scans declare their elements) advances the rank's simulated
 * clock by C, through smpi_execute_flops(). A simulated run then includes
 * computation at the cost model's own w * c, and sim/sweep --work can
 * compare predictions with c != 0. One c for every kernel: the declared
 * units carry no kernel name. */
#include "sim_work.h"

#include <stdlib.h>
#include <string.h>

#include <sgl/errors.h>

#ifdef SGL_SIM
#include <simgrid/host.h>
#include <smpi/smpi.h>

/* Seconds per unit from @s ("0.353ns", "1e-9", "2us"); -1 if not a time. */
static double parse_seconds(const char *s)
{
    static const struct { const char *unit; double scale; } units[] = {
        {"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
    char *end = NULL;
    double v = strtod(s, &end);
    if (end == s)
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        double c = v * units[i].scale;
        if (!strcmp(end, units[i].unit))
            return c >= 0 && c < 1 ? c : -1; /* NaN too */
    }
    return -1;
}

int sgl__sim_work_charge(double units)
{
    /* Read once per simulated rank: SMPI privatises each rank's globals,
     * and every rank sees the one smpirun environment. */
    static int read;
    static double c;
    if (!read) {
        const char *v = getenv("SGL_SIM_WORK");
        c = v && *v ? parse_seconds(v) : 0;
        if (c < 0)
            return sgl_error_set(SGL_EINVAL, "SGL_SIM_WORK='%s' is not "
                                 "seconds per unit of work under 1 s "
                                 "(e.g. 0.353ns or 3.53e-10)", v);
        read = 1;
    }
    /* Flops at the host's speed, not smpi_execute(seconds): under
     * smpi/simulate-computation:no SMPI's CPU threshold is infinite and
     * smpi_execute() charged nothing (a 16-host reduction of 1.6e7 at
     * 1 ns per element: 7 ns more, not 1 ms). */
    if (c > 0 && units > 0)
        smpi_execute_flops(units * c * sg_host_get_speed(sg_host_self()));
    return SGL_OK;
}
#else
int sgl__sim_work_charge(double units)
{
    (void)units;
    return SGL_OK;
}
#endif
