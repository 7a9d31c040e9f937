/* Closed-form cost of reduce.c (SGL paper, Alg. 1): one superstep per
 * level.
 *   master: [scatter the blocks if centralised] pardo(reduce) ; gather p
 *           elements ; fold them: p*c(op)
 *   worker: m*c(op)
 * Centralised, the children read their blocks in place: the step is a
 * view step (sgl_pstep_t::view), ~0 per byte below a thread link. */
#include "cost.h"
#include "cost_terms.h"

static unsigned nsteps(void *user, const sgl_node_t *master, const void *t)
{
    (void)user, (void)master, (void)t;
    return 1;
}

static int step(void *user, const sgl_node_t *master, const void *t,
                unsigned s, sgl_pstep_t *st)
{
    const struct cost_algo *a = user;
    const struct cost_task *child = st->child_task;
    double eb = a->o.elem_bytes, p = st->arity;
    (void)s;
    sgl__cost_children(a, master, t, st, COST_REDUCE);
    /* A root array's parts are read where they lie (reduce.c's
     * sgl_recv_view()): priced at the view path where the level has it. */
    st->view = a->o.centralised;
    for (unsigned i = 0; i < st->arity; i++) {
        st->down[i] = a->o.centralised ? child[i].n * eb : 0;
        st->up[i] = eb;
    }
    sgl__cost_add(&st->master, a->o.op_kernel, p, p);
    return SGL_OK;
}

static int work(void *user, const sgl_node_t *worker, const void *t,
                sgl_work_t *w)
{
    const struct cost_algo *a = user;
    const struct cost_task *task = t;
    (void)worker;
    sgl__cost_add(w, a->o.op_kernel, task->n, task->n);
    return SGL_OK;
}

void sgl__cost_reduce_program(const sgl_machine_t *m, sgl_program_t *prog)
{
    (void)m;
    prog->nsteps = nsteps;
    prog->step = step;
    prog->work = work;
}
