/* Message-size classes of a level (docs/model.md, "Message sizes"): l and
 * g by the size of a child's block, set from a machine file's
 * 'level L size' records, and the price of one direction of a superstep
 * and of a direct exchange on them, shared by the closed form (predict.c)
 * and the trace replay. */
#include <math.h>

#include "machine_impl.h"

static int check_class(const char *fn, const sgl_size_class_t *c)
{
    if (!c)
        return sgl_error_set(SGL_EINVAL, "%s: NULL argument", fn);
    int rc = sgl__check_value(fn, "from", c->from);
    if (!rc)
        rc = sgl__check_value(fn, "l_down", c->l_down);
    if (!rc)
        rc = sgl__check_value(fn, "g_down", c->g_down);
    if (!rc)
        rc = sgl__check_value(fn, "l_up", c->l_up);
    if (!rc)
        rc = sgl__check_value(fn, "g_up", c->g_up);
    return rc;
}

int sgl_machine_add_level_size_class(sgl_machine_t *m, unsigned level,
                                     const sgl_size_class_t *c)
{
    static const char fn[] = "sgl_machine_add_level_size_class";
    if (!m)
        return sgl_error_set(SGL_EINVAL, "%s: NULL machine", fn);
    if (level > m->depth || m->level_masters[level] == 0)
        return sgl_error_set(SGL_EINVAL, "%s: level %u has no masters", fn,
                             level);
    int rc = check_class(fn, c);
    if (rc)
        return rc;
    struct sgl__level_params *lp = &m->params[level];
    if (lp->nsize == SGL_SIZE_CLASSES_MAX)
        return sgl_error_set(SGL_EINVAL, "%s: level %u has %d size classes "
                             "already, the most it may have",
                             fn, level, SGL_SIZE_CLASSES_MAX);
    unsigned at = 0;
    while (at < lp->nsize && lp->size[at].from < c->from)
        at++;
    if (at < lp->nsize && lp->size[at].from == c->from)
        return sgl_error_set(SGL_EINVAL, "%s: level %u has a size class "
                             "from %g bytes already",
                             fn, level, c->from);
    for (unsigned i = lp->nsize; i > at; i--)
        lp->size[i] = lp->size[i - 1];
    lp->size[at] = *c;
    lp->nsize++;
    return SGL_OK;
}

int sgl_machine_level_size_classes(const sgl_machine_t *m, unsigned level,
                                   sgl_size_class_t *ret, unsigned max,
                                   unsigned *ret_n)
{
    if (!m || !ret_n || (!ret && max > 0))
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_level_size_classes: NULL argument");
    if (level > m->depth)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_level_size_classes: level %u out "
                             "of range (0..%u)",
                             level, m->depth);
    const struct sgl__level_params *lp = &m->params[level];
    for (unsigned i = 0; i < lp->nsize && i < max; i++)
        ret[i] = lp->size[i];
    *ret_n = lp->nsize;
    return SGL_OK;
}

/* The class of a block of @b bytes, or NULL below every class. */
static const sgl_size_class_t *class_of(const struct sgl__level_params *lp,
                                        double b)
{
    const sgl_size_class_t *c = NULL;
    for (unsigned i = 0; i < lp->nsize && lp->size[i].from <= b; i++)
        c = &lp->size[i];
    return c;
}

int sgl__size_cost(const struct sgl_node *master, const double *bytes,
                   size_t stride, int up, double g, double *ret_t,
                   double *ret_l)
{
    const struct sgl__level_params *lp =
        master->machine ? &master->machine->params[master->level] : NULL;
    if (!lp || lp->nsize == 0 || master->has_params)
        return 0;
    /* The master plays its first child at an MPI level: no message. */
    unsigned first = master->link == SGL_LINK_MPI ? 1 : 0;
    double t = 0, l = 0;
    for (unsigned i = 0; i < master->arity; i++) {
        double b = bytes[i * stride];
        if (b <= 0 || i < first)
            continue;
        const sgl_size_class_t *c = class_of(lp, b);
        t += b * (c ? (up ? c->g_up : c->g_down) : g);
        if (c)
            l = fmax(l, up ? c->l_up : c->l_down);
    }
    *ret_t = t;
    *ret_l = l;
    return 1;
}

double sgl__size_exchange(const struct sgl_node *master, double h,
                          const sgl_exchange_params_t *xp)
{
    const struct sgl__level_params *lp =
        master->machine ? &master->machine->params[master->level] : NULL;
    const sgl_size_class_t *c = NULL;
    /* Every worker sends every other one a block: for even keys the
     * busiest child's h spread over the others' workers. A flat level's
     * blocks are exactly that; a deeper one's are priced as if. */
    if (lp && lp->nsize && !master->has_params && master->workers > 1 && h > 0)
        c = class_of(lp, h / (double)(master->workers - 1));
    if (!c)
        return xp->l + h * xp->g;
    return xp->l + c->l_down + h * c->g_down;
}
