/* The closed-form costs of the reference algorithms, as programs for the
 * generic evaluator (machine/predict.c): one file beside each algorithm
 * (reduce_cost.c, scan_cost.c, psrs_cost.c), each filling the program of
 * its algorithms, and cost.c, which names the algorithms and hands the
 * program of one to the evaluator (sgl_predict_algorithm()). Both come
 * from algorithm_list.h; what the closed forms share is cost_terms.h.
 * Never installed. */
#ifndef SGL_ALGO_COST_H
#define SGL_ALGO_COST_H

#include <sgl/predict.h>

/* The predicted algorithms, numbered as sgl_predict_algo_t: ALGO_REDUCE
 * is SGL_PREDICT_REDUCE, and so on; ALGO_END is one past the last. */
enum algo_id {
    ALGO_NONE,
#define SGL_ALGO(id, name, program) ALGO_##id,
#include "algorithm_list.h"
    ALGO_END
};

/* Each algorithm's program: nsteps, step and work, for machine @m. */
#define SGL_ALGO(id, name, program)                                           \
    void program(const sgl_machine_t *m, sgl_program_t *prog);
#include "algorithm_list.h"

/* Whether a child of master @x has several workers: only there does PSRS
 * by level split by children (else it is the flat sort). psrs.c decides
 * by it, and the closed forms follow. */
int sgl__cost_split_by_children(const sgl_node_t *x);

#endif
