/* The supersteps of a vertex-centric run as the root's trace records
 * them, and the cost model's time for each (bench_pregel). */
#ifndef SGL_BENCH_PREGEL_STEPS_H
#define SGL_BENCH_PREGEL_STEPS_H

#include <stddef.h>

#include <sgl/machine.h>
#include <sgl/sgl.h>
#include <sgl/trace.h>

/* One superstep that ended in an exchange: its pardo and the exchange. */
struct pstep {
    double measured;     /* its pardo's start to the next pardo's */
    double exchange;     /* the exchange superstep, start to end */
    unsigned children;   /* of the root */
    double *time, *work; /* each child's task time and declared work */
    double k_down, k_up; /* the pardo's bytes down and up, all children */
    double xk_down, xk_up; /* the exchange superstep's */
    double h, h_mean;    /* the exchange's busiest child, and the mean
                            child (sent or received, the larger), bytes */
};

/* The supersteps of the run recorded in this process's trace since the
 * last sgl_trace_clear() (rank 0: the root's), in order; *@ret
 * malloc()ed, free with pstep_free(). @return how many, 0 on none. */
size_t pstep_read(const sgl_runtime_t *rt, struct pstep **ret);
void pstep_free(struct pstep *s, size_t n);

/* Each child's seconds per unit of work: the median over supersteps
 * @skip.. of @s (another run's: the calibration). @c has s->children
 * entries. @return 0, or -1 if no superstep qualifies. */
int pstep_calibrate(const struct pstep *s, size_t n, size_t skip, double *c);

/* The model's seconds for superstep @s on machine @m (the run's tree):
 *   max_i c_i w_i                          the slowest child's work,
 * + 2 l + k_down g_down + k_up g_up        the pardo (the root's link),
 * + 2 l + k'_down g_down + k'_up g_up
 *   + l_h + h g_h                          the exchange superstep.
 * *@ret_compute gets the first term. @return seconds, or a negative value
 * if the machine has no parameters for its root. */
double pstep_predict(const struct pstep *s, const double *c,
                     const sgl_machine_t *m, double *ret_compute);

#endif
