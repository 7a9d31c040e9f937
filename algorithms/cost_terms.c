/* The helpers of the closed forms (cost_terms.h): log2, work terms, and
 * a subtree's elements split over its children as the runtime splits
 * them. */
#include <math.h>

#include "cost_terms.h"

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
