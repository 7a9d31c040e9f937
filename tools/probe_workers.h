/* sgl-probe --per-worker: each worker's own c of the kernels, measured with
 * every worker of the probed tree running at once. */
#ifndef SGL_BENCH_PROBE_WORKERS_H
#define SGL_BENCH_PROBE_WORKERS_H

#include <sgl/algorithms.h>

/* The kernels measured per worker. */
enum { PW_SUM, PW_SORT, PW_KERNELS };
extern const char *const probe_worker_kernels[PW_KERNELS];

/* Per-worker c, seconds per element: c[kernel][worker]. */
struct worker_c {
    size_t workers;
    size_t n[PW_KERNELS]; /* elements per worker */
    int trials; /* on even blocks */
    int rounds; /* then at the split by the c so far */
    double *c[PW_KERNELS];
};

/* Register the tasks (every process, after sgl_init()). */
int probe_workers_register(sgl_runtime_t *rt);

/* Measure: collective over the runtime's processes; rank 0 gets the
 * result. Leaves the runtime with parameters that split by the last
 * kernel's c (call it last). Each kernel runs on enough elements per
 * worker for a task of
 * about 20 ms (5 ms with @quick) at the one-worker c of @c_hint (NAN:
 * unknown), at least 1e6 and at most an eighth of the memory over the
 * workers: a CPU quota throttles a process over periods of a few ms, so
 * a shorter task could finish in one unthrottled burst and look fast.
 * Free with probe_workers_free(). */
int probe_workers(sgl_runtime_t *rt, int quick, const double *c_hint,
                  struct worker_c *ret);

/* Print the per-worker table (rank 0). */
void probe_workers_print(const struct worker_c *wc);

/* Set every worker's c in @out (after the plain values: a plain c
 * replaces the per-worker ones). */
int probe_workers_store(sgl_machine_t *out, const struct worker_c *wc);

void probe_workers_free(struct worker_c *wc);

#endif
