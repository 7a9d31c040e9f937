/* What the closed forms of the algorithms share (cost.h), and
 * sgl_predict_algorithm(), which picks the program of the algorithm (one
 * *_cost.c beside each) and hands it to the evaluator of predict.c.
 * c(copy) is optional: a machine without a "copy" kernel gets no copy
 * terms, as in the SGL paper's formula. So is c(offset): machine files
 * written before the probe measured it price the local-first scan's
 * offset add as a scan pass. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include <sgl/balance.h>

double sgl__cost_lg(double x)
{
    return x > 1 ? log2(x) : 0;
}

void sgl__cost_add(sgl_work_t *w, const char *kernel, double amount,
                   double size)
{
    w->term[w->nterms].kernel = kernel;
    w->term[w->nterms].amount = amount;
    w->term[w->nterms].size = size;
    w->nterms++;
}

/* The summed speeds of workers [first, first + count). */
static double speed_of(const double *speed, size_t first, size_t count)
{
    double s = 0;
    for (size_t w = first; w < first + count; w++)
        s += speed[w];
    return s;
}

void sgl__cost_children(const struct cost_algo *a, const sgl_node_t *master,
                        const struct cost_task *t, sgl_pstep_t *st,
                        enum cost_phase phase)
{
    struct cost_task *child = st->child_task;
    size_t first = sgl_node_first_worker(master);
    double below = a->speed ? speed_of(a->speed, first,
                                       sgl_node_workers(master))
                            : (double)sgl_node_workers(master);
    for (unsigned i = 0; i < st->arity; i++) {
        const sgl_node_t *c = sgl_node_child(master, i);
        double w = a->speed ? speed_of(a->speed, sgl_node_first_worker(c),
                                       sgl_node_workers(c))
                            : (double)sgl_node_workers(c);
        child[i] = (struct cost_task){.phase = phase, .n = t->n * (w / below)};
    }
}

void sgl_predict_opts_default(sgl_predict_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->elem_bytes = 8;
    o->op_kernel = "sum";
}

static const char *const names[] = {NULL,       "reduce", "scan",
                                    "scan-rts", "psrs",   "psrs-levels"};

const char *sgl_predict_algo_name(sgl_predict_algo_t algo)
{
    return algo >= SGL_PREDICT_REDUCE && algo <= SGL_PREDICT_PSRS_LEVELS
               ? names[algo]
               : NULL;
}

int sgl_predict_algo_from_name(const char *name, sgl_predict_algo_t *ret)
{
    for (int i = SGL_PREDICT_REDUCE; name && i <= SGL_PREDICT_PSRS_LEVELS; i++)
        if (strcmp(name, names[i]) == 0) {
            *ret = (sgl_predict_algo_t)i;
            return SGL_OK;
        }
    return sgl_error_set(SGL_EINVAL,
                         "unknown algorithm '%.40s' (known: reduce, scan, "
                         "scan-rts, psrs, psrs-levels)",
                         name ? name : "(null)");
}

int sgl_predict_algorithm(const sgl_machine_t *m, sgl_predict_algo_t algo,
                          double n, const sgl_predict_opts_t *opts,
                          sgl_prediction_t *ret)
{
    if (!m || !ret)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_predict_algorithm: NULL argument");
    if (!sgl_predict_algo_name(algo))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_predict_algorithm: unknown algorithm %d",
                             (int)algo);
    if (!(n >= 1) || !isfinite(n))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_predict_algorithm: n = %g, expected at "
                             "least 1 element",
                             n);
    const sgl_node_t *w0 = sgl_machine_worker(m, 0);
    struct cost_algo a = {.algo = algo,
                          .P = (double)sgl_machine_workers(m),
                          .copy = !isnan(sgl_node_kernel(w0, "copy")),
                          .offset = !isnan(sgl_node_kernel(w0, "offset"))};
    if (opts)
        a.o = *opts;
    else
        sgl_predict_opts_default(&a.o);
    if (!(a.o.elem_bytes > 0) || !isfinite(a.o.elem_bytes))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_predict_algorithm: elem_bytes = %g",
                             a.o.elem_bytes);
    if (!a.o.op_kernel)
        a.o.op_kernel = "sum";
    sgl_program_t prog = {
        .name = names[algo],
        .task_size = sizeof(struct cost_task),
        .user = &a,
    };
    if (algo == SGL_PREDICT_REDUCE)
        sgl__cost_reduce_program(&prog);
    else if (algo == SGL_PREDICT_PSRS)
        sgl__cost_psrs_program(&prog);
    else if (algo == SGL_PREDICT_PSRS_LEVELS &&
             sgl__cost_split_by_children(sgl_machine_root(m)))
        sgl__cost_psrs_levels_program(&prog);
    else if (algo == SGL_PREDICT_PSRS_LEVELS) /* the runtime sorts flat */
        sgl__cost_psrs_program(&prog);
    else
        sgl__cost_scan_program(&prog);
    /* Split as the runtime splits: by the workers' speeds when their c
     * differ (sgl_runtime_set_balance()). */
    size_t p = sgl_machine_workers(m);
    double *speed = malloc(p * sizeof *speed);
    if (!speed)
        return sgl_error_set(SGL_ENOMEM, "sgl_predict_algorithm: out of "
                                         "memory");
    int rc = sgl_machine_worker_speeds(m, NULL, speed);
    int alike = 1;
    for (size_t w = 1; w < p; w++)
        alike &= speed[w] == speed[0];
    a.speed = alike || a.o.by_workers ? NULL : speed;
    struct cost_task root = {.phase = COST_ROOT, .n = n};
    if (rc == SGL_OK)
        rc = sgl_predict_program(m, &prog, &root, ret);
    free(speed);
    return rc;
}
