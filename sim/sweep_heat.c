/* Heat 2D for sgl-sim-sweep (sweep_heat.h). The sequential reference
 * repeats the arithmetic of examples/stencil_kernels.h, which the tests'
 * references share, so that a checksum equal to the loop's means the
 * simulated run computed the same bits. */
#include "sweep_heat.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <sgl/darray.h>
#include <sgl/predict.h>

#include "stencil_kernels.h"
#include "trasgo.h"

int sweep_heat_register(sgl_runtime_t *rt)
{
    return heat_register(rt);
}

/* The checksum of SWEEP_HEAT_ITERS Jacobi steps on the periodic n x n
 * grid, computed on one process (examples/heat.c's sequential loop). */
static int heat_sequential(size_t n, uint64_t *ret)
{
    double *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return sgl_error_set(SGL_ENOMEM, "heat: no memory for the %zu x %zu "
                             "sequential reference", n, n);
    }
    for (size_t g = 0; g < n * n; g++)
        a[g] = kernel_init(g);
    for (unsigned t = 0; t < SWEEP_HEAT_ITERS; t++) {
        for (size_t i = 0; i < n; i++) {
            const double *up = a + (i + n - 1) % n * n, *c = a + i * n;
            const double *dn = a + (i + 1) % n * n;
            for (size_t j = 0; j < n; j++)
                b[i * n + j] = heat2d_point(c[j], up[j], dn[j],
                                            c[(j + n - 1) % n], c[(j + 1) % n]);
        }
        double *s = a;
        a = b;
        b = s;
    }
    *ret = 0;
    for (size_t g = 0; g < n * n; g++)
        *ret ^= kernel_check(a[g], g);
    free(a);
    free(b);
    return SGL_OK;
}

int sweep_heat_run(sgl_ctx_t *root, size_t n, struct sweep_heat *ret)
{
    trasgo_result_t r;
    uint64_t want = 0;
    SGL_TRY(heat_run(root, 2, n, SWEEP_HEAT_ITERS, &r));
    SGL_TRY(heat_sequential(n, &want));
    ret->step_seconds = r.seconds / SWEEP_HEAT_ITERS;
    ret->correct = r.check == want;
    for (unsigned lv = 0; lv < 8; lv++)
        ret->level_h[lv] = lv < TRASGO_LEVELS ? r.level_h[lv] : 0;
    return ret->correct ? SGL_OK
                        : sgl_error_set(SGL_ETASK, "heat: checksum %016llx, "
                                        "the sequential loop's %016llx",
                                        (unsigned long long)r.check,
                                        (unsigned long long)want);
}

struct heat_model {
    const size_t *level_h;
    double points; /* per worker */
};

static unsigned model_nsteps(void *u, const sgl_node_t *m, const void *t)
{
    (void)u, (void)m, (void)t;
    return 1;
}

static int model_step(void *u, const sgl_node_t *m, const void *t,
                      unsigned s, sgl_pstep_t *ret)
{
    (void)t, (void)s;
    const struct heat_model *h = u;
    unsigned lv = sgl_node_level(m);
    ret->exchange = 1;
    for (unsigned i = 0; i < ret->arity; i++)
        ret->h[i] = lv < 8 ? (double)h->level_h[lv] : 0;
    return SGL_OK;
}

/* Each worker's points as an even share: the partition's own boxes are
 * the library's internals; a block differs from the share by one row or
 * column at most, which at the file's c is a few ns. */
static int model_work(void *u, const sgl_node_t *w, const void *t,
                      sgl_work_t *ret)
{
    (void)w, (void)t;
    const struct heat_model *h = u;
    ret->nterms = 1;
    ret->term[0].kernel = "heat2d";
    ret->term[0].amount = h->points;
    return SGL_OK;
}

int sweep_heat_predict(const char *machine_file, size_t n,
                       const struct sweep_heat *run, double *ret)
{
    sgl_machine_t *m;
    SGL_TRY(sgl_machine_load(machine_file, &m));
    int rc = SGL_OK;
    if (isnan(sgl_node_kernel(sgl_machine_root(m), "heat2d")))
        rc = sgl_machine_set_kernel(m, "heat2d", 0);
    struct heat_model hm = {run->level_h,
                            ceil((double)n * (double)n /
                                 (double)sgl_machine_workers(m))};
    sgl_program_t prog = {"heat2d", 1, &hm, model_nsteps, model_step,
                          model_work};
    char task = 0;
    sgl_prediction_t p;
    if (rc == SGL_OK)
        rc = sgl_predict_program(m, &prog, &task, &p);
    if (rc == SGL_OK)
        *ret = p.total;
    sgl_machine_free(m);
    return rc;
}
