/* The view path's price of a level: g_down and g_up when children read
 * their parts in place (sgl_recv_view()) and put in place
 * (sgl_gather_into()), kept apart from the level's copying g because a
 * thread level prices the two very differently (docs/model.md, "Thread
 * level: the view path"), while the predictor picks per superstep. */
#include "machine_impl.h"

int sgl_machine_set_level_view(sgl_machine_t *m, unsigned level,
                               double g_down, double g_up)
{
    static const char fn[] = "sgl_machine_set_level_view";
    if (!m)
        return sgl_error_set(SGL_EINVAL, "%s: NULL machine", fn);
    if (level > m->depth || m->level_masters[level] == 0)
        return sgl_error_set(SGL_EINVAL,
                             "%s: level %u has no masters (the tree has "
                             "masters at levels 0..%u)",
                             fn, level, m->depth ? m->depth - 1 : 0);
    int rc = sgl__check_value(fn, "view g_down", g_down);
    if (!rc)
        rc = sgl__check_value(fn, "view g_up", g_up);
    if (rc)
        return rc;
    m->params[level].view_set = 1;
    m->params[level].view_g_down = g_down;
    m->params[level].view_g_up = g_up;
    return SGL_OK;
}

int sgl_machine_level_view(const sgl_machine_t *m, unsigned level,
                           double *ret_g_down, double *ret_g_up)
{
    if (!m || !ret_g_down || !ret_g_up)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_level_view: NULL argument");
    if (level > m->depth || !m->params[level].view_set)
        return sgl_error_set(SGL_ERANGE, "no view price set for level %u",
                             level);
    *ret_g_down = m->params[level].view_g_down;
    *ret_g_up = m->params[level].view_g_up;
    return SGL_OK;
}

int sgl_node_view_params(const sgl_node_t *n, sgl_link_params_t *ret)
{
    int rc = sgl_node_params(n, ret);
    if (rc)
        return rc;
    const struct sgl__level_params *lp =
        n->machine ? &n->machine->params[n->level] : NULL;
    if (lp && lp->view_set) {
        ret->g_down = lp->view_g_down;
        ret->g_up = lp->view_g_up;
    }
    return SGL_OK;
}
