/* The reference algorithms: every table of tasks that
 * sgl_algorithms_register() registers, and every algorithm that
 * sgl_predict_algorithm() predicts, in one list. An X-macro: a file
 * defines the entries it needs, includes this file (several times if it
 * likes), and gets the others as nothing; both are undefined at the end.
 *
 *   SGL_TASKS(table)
 *       `const struct algo_task table[]`, ended by {NULL, NULL}, defined
 *       beside the algorithm. Registered in list order, the same in every
 *       process (register.c); declared by algo_internal.h.
 *   SGL_ALGO(id, name, program)
 *       a predicted algorithm: ALGO_<id> in enum algo_id (cost.h), its
 *       name for sgl_predict_algo_name() and sgl-predict --algo, and
 *       `void program(const sgl_machine_t *, sgl_program_t *)`, which
 *       fills its cost program (its *_cost.c, declared by cost.h). The
 *       algorithms are numbered from 1 in list order: those numbers are
 *       the sgl_predict_algo_t values (cost.c checks the named constants
 *       of <sgl/predict.h> against them), and sgl_predict_algo_from_name()
 *       gives them for every entry.
 *
 * A new algorithm X: X.c with its tasks and its cost program (beside it
 * in X_cost.c, or in X.c), its lines here, and X.c in
 * algorithms/meson.build. Never installed. */
#ifndef SGL_TASKS
#define SGL_TASKS(table)
#endif
#ifndef SGL_ALGO
#define SGL_ALGO(id, name, program)
#endif

SGL_TASKS(sgl__algo_dvec_tasks)
SGL_TASKS(sgl__algo_reduce_tasks)
SGL_ALGO(REDUCE, "reduce", sgl__cost_reduce_program)
SGL_TASKS(sgl__algo_scan_tasks)
SGL_ALGO(SCAN, "scan", sgl__cost_scan_program)
SGL_ALGO(SCAN_RTS, "scan-rts", sgl__cost_scan_program)
SGL_TASKS(sgl__algo_scan_root_tasks)
SGL_TASKS(sgl__algo_psrs_tasks)
SGL_ALGO(PSRS, "psrs", sgl__cost_psrs_program)
SGL_ALGO(PSRS_LEVELS, "psrs-levels", sgl__cost_psrs_levels_program)
SGL_TASKS(sgl__algo_darray_tasks)
SGL_TASKS(sgl__algo_dplan_tasks)
SGL_TASKS(sgl__algo_darray_checksum_tasks)
SGL_TASKS(sgl__algo_graph_tasks)
SGL_TASKS(sgl__algo_pregel_tasks)
SGL_TASKS(sgl__algo_balance_tasks)

#undef SGL_TASKS
#undef SGL_ALGO
