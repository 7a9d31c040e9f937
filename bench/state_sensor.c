/* The machine's state during a sweep: see state_sensor.h. */
#include "state_sensor.h"

#include <math.h>
#include <stdint.h>

#include "cache_flush.h"
#include "timing.h"
#include "trace_step.h"
#include <sgl/trace.h>

/* Elements per worker: a size of the probe's kernel tables where the two
 * states differ most (c(sum) at 3e6 per worker on core:2: 0.24 ns per
 * element in the fast state, 0.37-0.41 in the slow one, in probes minutes
 * apart); the sweep's largest block where that is smaller. */
#define SENSOR_PER_WORKER ((size_t)3000000)

enum sensor_op { SENSE_CREATE, SENSE_READ, SENSE_FREE };

/* The root task's sensor: sgl_run() copies its argument, and the vector's
 * handle lives at the root. */
static struct state_sensor *g_sensor;

static int sensor_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const enum sensor_op *op = arg;
    struct state_sensor *s = g_sensor;
    if (*op == SENSE_CREATE) {
        uint64_t seed = 0x5e115e;
        return sgl_dvec_create(root, SGL_F64, 0, s->per_worker * s->workers,
                               SGL_FILL_RANDOM, &seed, sizeof seed, &s->vec);
    }
    if (*op == SENSE_FREE) {
        int rc = sgl_dvec_free(root, s->vec);
        s->vec = NULL;
        return rc;
    }
    double sum, t0 = bench_now();
    int rc = sgl_dvec_reduce(root, s->vec, SGL_OP_SUM, 0, &sum);
    /* One worker: the whole call, as the probe times it there. */
    if (!rc && s->workers == 1)
        s->one = (bench_now() - t0) / (double)s->per_worker;
    return rc;
}

int state_sensor_open(struct state_sensor *s, sgl_runtime_t *rt,
                      const sgl_machine_t *pred, size_t most, int threads,
                      MPI_Comm comm)
{
    *s = (struct state_sensor){.threads = threads, .comm = comm, .ref = NAN};
    const sgl_machine_t *m = sgl_runtime_machine(rt);
    size_t workers = sgl_machine_workers(m);
    size_t per = most < SENSOR_PER_WORKER ? most : SENSOR_PER_WORKER;
    if (!pred || per == 0 || (workers > 1 && sgl_machine_depth(m) != 1) ||
        sgl_machine_workers(pred) != workers)
        return 0;
    const sgl_node_t *w0 = sgl_machine_worker(pred, 0);
    double ref = sgl_node_kernel_at(w0, "sum", (double)per,
                                    (unsigned)sgl_node_memory_peers(w0));
    if (!(ref > 0))
        return 0; /* no sum in the parameters: nothing to compare with */
    s->workers = workers;
    s->per_worker = per;
    s->ref = ref;
    g_sensor = s;
    enum sensor_op op = SENSE_CREATE;
    if (sgl_run(rt, sensor_main, &op, sizeof op)) {
        s->per_worker = 0;
        return -1;
    }
    return 0;
}

double state_sensor_read(struct state_sensor *s, sgl_runtime_t *rt)
{
    if (!s->per_worker)
        return NAN;
    /* From flushed caches, every rank done flushing first: as the probe
     * measured c(sum) and the sweep times its reductions. */
    bench_flush_caches(s->threads);
    MPI_Barrier(s->comm);
    sgl_trace_clear(rt);
    g_sensor = s;
    s->one = NAN;
    enum sensor_op op = SENSE_READ;
    if (sgl_run(rt, sensor_main, &op, sizeof op))
        return NAN;
    int rank;
    MPI_Comm_rank(s->comm, &rank);
    if (rank != 0)
        return NAN;
    return s->workers == 1
               ? s->one
               : bench_step_per_element(rt, 0, sgl_dvec_counts(s->vec), 1);
}

void state_sensor_close(struct state_sensor *s, sgl_runtime_t *rt)
{
    if (s->per_worker) {
        g_sensor = s;
        enum sensor_op op = SENSE_FREE;
        (void)sgl_run(rt, sensor_main, &op, sizeof op);
    }
    s->per_worker = 0;
}
