/* The supersteps of a vertex-centric run from the root's trace, and the
 * model's time for each: the same costing of a superstep as
 * sgl_trace_replay(), except that a child's compute is c_i w_i, with c_i
 * from another run, instead of the time it measured. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pregel_steps.h"
#include "timing.h"
#include <sgl/trace.h>

void pstep_free(struct pstep *s, size_t n)
{
    for (size_t i = 0; s && i < n; i++) {
        free(s[i].time);
        free(s[i].work);
    }
    free(s);
}

static double sum(const size_t *v, unsigned n)
{
    double t = 0;
    for (unsigned i = 0; i < n; i++)
        t += (double)v[i];
    return t;
}

/* The root's recorded steps, in order. */
static size_t root_steps(const sgl_runtime_t *rt, sgl_trace_step_t **ret)
{
    size_t n = sgl_trace_steps(rt), k = 0;
    sgl_trace_step_t *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        if (sgl_trace_step(rt, i, &v[k]) == SGL_OK && v[k].parent_seq < 0)
            k++;
    *ret = v;
    return v ? k : 0;
}

size_t pstep_read(const sgl_runtime_t *rt, struct pstep **ret)
{
    sgl_trace_step_t *t;
    size_t nt = root_steps(rt, &t), n = 0;
    struct pstep *s = calloc(nt ? nt : 1, sizeof *s);
    /* a pardo, its exchange, and the next pardo */
    for (size_t j = 0; s && j + 2 < nt; j++) {
        if (t[j].exchange || !t[j + 1].exchange || t[j + 2].exchange)
            continue;
        struct pstep *p = &s[n];
        unsigned c = t[j].children;
        p->children = c;
        p->time = malloc(c * sizeof *p->time);
        p->work = malloc(c * sizeof *p->work);
        if (!p->time || !p->work) {
            pstep_free(s, n + 1);
            s = NULL;
            break;
        }
        memcpy(p->time, t[j].child_time, c * sizeof *p->time);
        memcpy(p->work, t[j].child_work, c * sizeof *p->work);
        p->measured = t[j + 2].start - t[j].start;
        p->exchange = t[j + 1].end - t[j + 1].start;
        p->k_down = sum(t[j].down_bytes, c);
        p->k_up = sum(t[j].up_bytes, c);
        p->xk_down = sum(t[j + 1].down_bytes, t[j + 1].children);
        p->xk_up = sum(t[j + 1].up_bytes, t[j + 1].children);
        for (unsigned i = 0; i < t[j + 1].children; i++) {
            double h = (double)(t[j + 1].h_sent_bytes[i] >
                                        t[j + 1].h_recv_bytes[i]
                                    ? t[j + 1].h_sent_bytes[i]
                                    : t[j + 1].h_recv_bytes[i]);
            p->h = h > p->h ? h : p->h;
            p->h_mean += h / t[j + 1].children;
        }
        n++;
    }
    free(t);
    *ret = s;
    return s ? n : 0;
}

int pstep_calibrate(const struct pstep *s, size_t n, size_t skip, double *c)
{
    if (n <= skip)
        return -1;
    double *v = malloc((n - skip) * sizeof *v);
    if (!v)
        return -1;
    for (unsigned i = 0; i < s[0].children; i++) {
        size_t k = 0;
        for (size_t j = skip; j < n; j++)
            if (s[j].children == s[0].children && s[j].work[i] > 0)
                v[k++] = s[j].time[i] / s[j].work[i];
        if (k == 0) {
            free(v);
            return -1;
        }
        qsort(v, k, sizeof *v, bench_cmp_double);
        c[i] = bench_median(v, (int)k);
    }
    free(v);
    return 0;
}

/* A superstep's vertical part on the root's link: k bytes down and up,
 * on the small-message regime where every child's share fits it. */
static double vertical(const sgl_machine_t *m, const sgl_link_params_t *lp,
                       unsigned children, double down, double up)
{
    sgl_link_params_t small;
    double max_small = 0;
    int has_small =
        sgl_machine_level_small_params(m, 0, &small, &max_small) == SGL_OK;
    const sgl_link_params_t *pd =
        has_small && down / children <= max_small ? &small : lp;
    const sgl_link_params_t *pu =
        has_small && up / children <= max_small ? &small : lp;
    return pd->l + down * pd->g_down + pu->l + up * pu->g_up;
}

double pstep_predict(const struct pstep *s, const double *c,
                     const sgl_machine_t *m, double *ret_compute)
{
    const sgl_node_t *root = sgl_machine_root(m);
    sgl_link_params_t lp;
    sgl_exchange_params_t xp;
    if (sgl_node_arity(root) != s->children || sgl_node_params(root, &lp) ||
        sgl_node_exchange_params(root, &xp, NULL))
        return -1;
    double compute = 0;
    for (unsigned i = 0; i < s->children; i++)
        compute = fmax(compute, c[i] * s->work[i]);
    *ret_compute = compute;
    return compute + vertical(m, &lp, s->children, s->k_down, s->k_up) +
           vertical(m, &lp, s->children, s->xk_down, s->xk_up) + xp.l +
           s->h * xp.g;
}
