/* sgl_predict_algorithm(), which picks the program of the algorithm (one
 * *_cost.c beside each, named in algorithm_list.h) and hands it to the
 * evaluator of predict.c, and the algorithms' names from the same list.
 * c(copy) is optional: a machine without a "copy" kernel gets no copy
 * terms, as in the SGL paper's formula. So is c(offset): machine files
 * written before the probe measured it price the local-first scan's
 * offset add as a scan pass. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "cost_terms.h"

void sgl_predict_opts_default(sgl_predict_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->elem_bytes = 8;
    o->op_kernel = "sum";
}

/* The named constants of <sgl/predict.h> are the list's numbers. */
_Static_assert(ALGO_REDUCE == (int)SGL_PREDICT_REDUCE &&
                   ALGO_SCAN == (int)SGL_PREDICT_SCAN &&
                   ALGO_SCAN_RTS == (int)SGL_PREDICT_SCAN_RTS &&
                   ALGO_PSRS == (int)SGL_PREDICT_PSRS &&
                   ALGO_PSRS_LEVELS == (int)SGL_PREDICT_PSRS_LEVELS,
               "algorithm_list.h numbers the algorithms unlike "
               "<sgl/predict.h>");

static const struct {
    const char *name;
    void (*program)(const sgl_machine_t *m, sgl_program_t *prog);
} algos[ALGO_END] = {
#define SGL_ALGO(id, name, program) [ALGO_##id] = {name, program},
#include "algorithm_list.h"
};

const char *sgl_predict_algo_name(sgl_predict_algo_t algo)
{
    return (int)algo > ALGO_NONE && (int)algo < ALGO_END ? algos[algo].name
                                                         : NULL;
}

/* "reduce, scan, ...": every name, for messages. */
static const char *known_names(char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = ALGO_NONE + 1; i < ALGO_END && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                i > ALGO_NONE + 1 ? ", " : "", algos[i].name);
    return buf;
}

int sgl_predict_algo_from_name(const char *name, sgl_predict_algo_t *ret)
{
    for (int i = ALGO_NONE + 1; name && i < ALGO_END; i++)
        if (strcmp(name, algos[i].name) == 0) {
            *ret = (sgl_predict_algo_t)i;
            return SGL_OK;
        }
    char known[256];
    return sgl_error_set(SGL_EINVAL, "unknown algorithm '%.40s' (known: %s)",
                         name ? name : "(null)",
                         known_names(known, sizeof known));
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
        .name = algos[algo].name,
        .task_size = sizeof(struct cost_task),
        .user = &a,
    };
    algos[algo].program(m, &prog);
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
