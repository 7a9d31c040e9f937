/* sgl-probe --budget (probe_budget.h). */
#include "probe_budget.h"

#include <stdio.h>

void probe_budget_start(struct probe_budget *b, double seconds, double now)
{
    b->start = now;
    b->seconds = seconds > 0 ? seconds : 0;
    b->passes_run = 0;
    b->passes_planned = 0;
}

double probe_budget_min_time(const struct probe_budget *b, double min_time,
                             double nominal)
{
    if (b->seconds <= 0 || nominal <= 0 || b->seconds >= nominal)
        return min_time;
    double share = b->seconds / nominal;
    /* Below a tenth, a point is a few repetitions of a microsecond
     * superstep: the clock's and the scheduler's noise, not l. */
    return min_time * (share > 0.1 ? share : 0.1);
}

int probe_budget_more(const struct probe_budget *b, int done, double pass_start,
                      double now, double after)
{
    if (done == 0 || b->seconds <= 0)
        return 1;
    /* The next pass takes about as long as the mean of those run: the
     * box's load moves over minutes, not between two passes. */
    double per_pass = (now - pass_start) / done;
    return now + per_pass + after <= b->start + b->seconds;
}

/* The first pass's share of a budget: on the 2-core VM at load 5-17 the
 * first pass was 80-85% of a 105-165 s probe with 1e7 elements per worker
 * (docs/results/2026-12-budget.md); 60% leaves the link parameters their
 * time. */
#define FIRST_PASS_SHARE 0.6

int probe_budget_size_fits(const struct probe_budget *b, double last,
                           double table, double ratio, double now)
{
    if (b->seconds <= 0)
        return 1;
    double next = last * ratio;
    return now + table + 2 * next <= b->start + FIRST_PASS_SHARE * b->seconds;
}

void probe_budget_report(const struct probe_budget *b, double now)
{
    if (b->seconds <= 0)
        return;
    fprintf(stderr, "sgl-probe: budget %.0f s, took %.0f s; kernels in %d of %d "
                    "passes%s\n",
            b->seconds, now - b->start, b->passes_run, b->passes_planned,
            b->passes_run < b->passes_planned
                ? " (fewer passes: fewer trials per point, wider intervals)"
                : "");
}
