/* sgl-probe --budget: a time budget for the probe instead of a fixed
 * number of passes. On a shared box the same passes take 3-4x as long
 * (a probe of 325 s before the first sweep, a --quick probe of 3 min,
 * with one busy process beside it: issue 48), so the probe measures what
 * fits the budget and reports the intervals it reached, which are wider
 * for fewer trials, instead of repeating until they are tight. */
#ifndef SGL_TOOLS_PROBE_BUDGET_H
#define SGL_TOOLS_PROBE_BUDGET_H

/* A budget of @c seconds from @c start (bench_now() seconds); seconds <= 0
 * means none: every pass runs. */
struct probe_budget {
    double start, seconds;
    int passes_run, passes_planned;
};

/* Start a budget of @p seconds (<= 0: none) at @p now. */
void probe_budget_start(struct probe_budget *b, double seconds, double now);

/* The time per measured point: @p min_time scaled down by the share of a
 * probe's usual length @p nominal (seconds, quiet) that the budget
 * allows, to a tenth at least; @p min_time itself without a budget or
 * with a budget of at least @p nominal. */
double probe_budget_min_time(const struct probe_budget *b, double min_time,
                             double nominal);

/* Whether one more pass over the kernel tables fits: @p done passes ran
 * since @p pass_start (bench_now() seconds), @p now is the time, @p after
 * the seconds still needed after the passes. The first pass always runs
 * (a table needs one). */
int probe_budget_more(const struct probe_budget *b, int done, double pass_start,
                      double now, double after);

/* Whether the kernel tables' first pass may go on to its next size: the
 * last size took @p last seconds on one worker, the table so far @p
 * table seconds, the next size has @p ratio times the elements. The next
 * size is priced at last * ratio on one worker and as much again on all
 * workers (the same elements per worker), the all-workers table's sizes
 * so far at @p table; they must end within FIRST_PASS_SHARE of the
 * budget, the rest being the link parameters' and the later passes'.
 * Always 1 without a budget. */
int probe_budget_size_fits(const struct probe_budget *b, double last,
                           double table, double ratio, double now);

/* One line on stderr: the budget, the time it took, the passes run. */
void probe_budget_report(const struct probe_budget *b, double now);

#endif
