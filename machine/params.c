/* Cost parameters on the machine tree: l, g_down, g_up and memory sharing
 * per level with per-master overrides, exchange parameters (l_h, g_h) and
 * header bytes per level, and provenance records (kernels: kernels.c). Setters check
 * everything before changing anything, so a failed call leaves the tree
 * as it was. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine_impl.h"

static int check_params(const char *fn, const sgl_link_params_t *p)
{
    if (!p)
        return sgl_error_set(SGL_EINVAL, "%s: NULL parameters", fn);
    int rc = sgl__check_value(fn, "l", p->l);
    if (!rc)
        rc = sgl__check_value(fn, "g_down", p->g_down);
    if (!rc)
        rc = sgl__check_value(fn, "g_up", p->g_up);
    return rc;
}

static int check_level(const char *fn, const sgl_machine_t *m, unsigned level)
{
    if (!m)
        return sgl_error_set(SGL_EINVAL, "%s: NULL machine", fn);
    if (level > m->depth || m->level_masters[level] == 0)
        return sgl_error_set(SGL_EINVAL,
                             "%s: level %u has no masters (the tree has "
                             "masters at levels 0..%u)",
                             fn, level, m->depth ? m->depth - 1 : 0);
    return SGL_OK;
}

int sgl_machine_set_level_params(sgl_machine_t *m, unsigned level,
                                 const sgl_link_params_t *p)
{
    static const char fn[] = "sgl_machine_set_level_params";
    int rc = check_level(fn, m, level);
    if (!rc)
        rc = check_params(fn, p);
    if (rc)
        return rc;
    m->params[level].set = 1;
    m->params[level].p = *p;
    return SGL_OK;
}

int sgl_machine_level_params(const sgl_machine_t *m, unsigned level,
                             sgl_link_params_t *ret)
{
    if (!m || !ret)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_level_params: NULL argument");
    if (level > m->depth || !m->params[level].set)
        return sgl_error_set(SGL_ERANGE, "no parameters set for level %u",
                             level);
    *ret = m->params[level].p;
    return SGL_OK;
}

int sgl_machine_set_level_small_params(sgl_machine_t *m, unsigned level,
                                       const sgl_link_params_t *p,
                                       double max_bytes)
{
    static const char fn[] = "sgl_machine_set_level_small_params";
    int rc = check_level(fn, m, level);
    if (!rc)
        rc = check_params(fn, p);
    if (!rc)
        rc = sgl__check_value(fn, "max_bytes", max_bytes);
    if (!rc && max_bytes == 0)
        rc = sgl_error_set(SGL_EINVAL, "%s: max_bytes is 0", fn);
    if (rc)
        return rc;
    m->params[level].small_set = 1;
    m->params[level].small = *p;
    m->params[level].small_max = max_bytes;
    return SGL_OK;
}

int sgl_machine_level_small_params(const sgl_machine_t *m, unsigned level,
                                   sgl_link_params_t *ret,
                                   double *ret_max_bytes)
{
    if (!m || !ret || !ret_max_bytes)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_level_small_params: NULL argument");
    if (level > m->depth || !m->params[level].small_set)
        return sgl_error_set(SGL_ERANGE,
                             "no small-message parameters set for level %u",
                             level);
    *ret = m->params[level].small;
    *ret_max_bytes = m->params[level].small_max;
    return SGL_OK;
}

int sgl_machine_set_level_memory(sgl_machine_t *m, unsigned level,
                                 sgl_memory_t memory)
{
    static const char fn[] = "sgl_machine_set_level_memory";
    int rc = check_level(fn, m, level);
    if (rc)
        return rc;
    if (memory != SGL_MEMORY_DEFAULT && memory != SGL_MEMORY_SHARED &&
        memory != SGL_MEMORY_PRIVATE)
        return sgl_error_set(SGL_EINVAL, "%s: bad memory kind %d", fn,
                             (int)memory);
    m->params[level].memory = (int)memory;
    return SGL_OK;
}

sgl_memory_t sgl_machine_level_memory(const sgl_machine_t *m, unsigned level)
{
    if (!m || level > m->depth)
        return SGL_MEMORY_DEFAULT;
    return (sgl_memory_t)m->params[level].memory;
}

/* Shared unless set private, or left default on an MPI link (ranks may be
 * on different hosts). */
static int shares_memory(const struct sgl_node *master)
{
    int mem = master->machine->params[master->level].memory;
    if (mem == SGL_MEMORY_DEFAULT)
        return master->link != SGL_LINK_MPI;
    return mem == SGL_MEMORY_SHARED;
}

size_t sgl_node_memory_peers(const sgl_node_t *w)
{
    if (!w || w->arity != 0 || !w->machine)
        return 0;
    const struct sgl_node *top = w;
    while (top->parent && shares_memory(top->parent))
        top = top->parent;
    return top->workers;
}

int sgl_node_params(const sgl_node_t *n, sgl_link_params_t *ret)
{
    if (!n || !ret)
        return sgl_error_set(SGL_EINVAL, "sgl_node_params: NULL argument");
    if (n->arity == 0)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_node_params: a worker has no link");
    if (n->has_params) {
        *ret = n->params;
        return SGL_OK;
    }
    if (!n->machine || !n->machine->params[n->level].set)
        return sgl_error_set(SGL_ERANGE,
                             "no parameters set for level %u (master %zu)",
                             n->level, n->master_index);
    *ret = n->machine->params[n->level].p;
    return SGL_OK;
}

int sgl_machine_set_level_exchange(sgl_machine_t *m, unsigned level,
                                   const sgl_exchange_params_t *p)
{
    static const char fn[] = "sgl_machine_set_level_exchange";
    int rc = check_level(fn, m, level);
    if (!rc && !p)
        rc = sgl_error_set(SGL_EINVAL, "%s: NULL parameters", fn);
    if (!rc)
        rc = sgl__check_value(fn, "l", p->l);
    if (!rc)
        rc = sgl__check_value(fn, "g", p->g);
    if (rc)
        return rc;
    m->params[level].exchange_set = 1;
    m->params[level].exchange = *p;
    return SGL_OK;
}

int sgl_machine_level_exchange(const sgl_machine_t *m, unsigned level,
                               sgl_exchange_params_t *ret)
{
    if (!m || !ret)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_level_exchange: NULL argument");
    if (level > m->depth || !m->params[level].exchange_set)
        return sgl_error_set(SGL_ERANGE,
                             "no exchange parameters set for level %u",
                             level);
    *ret = m->params[level].exchange;
    return SGL_OK;
}

int sgl_node_exchange_params(const sgl_node_t *n, sgl_exchange_params_t *ret,
                             int *ret_measured)
{
    if (!n || !ret)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_node_exchange_params: NULL argument");
    if (n->arity == 0)
        return sgl_error_set(SGL_EINVAL, "sgl_node_exchange_params: a "
                                         "worker has no children to "
                                         "exchange among");
    if (n->machine && n->machine->params[n->level].exchange_set) {
        *ret = n->machine->params[n->level].exchange;
        if (ret_measured)
            *ret_measured = 1;
        return SGL_OK;
    }
    /* No horizontal figures: the guess of machine.h from the link's. */
    sgl_link_params_t p;
    if (sgl_node_params(n, &p))
        return sgl_error_set(SGL_ERANGE,
                             "no exchange or link parameters set for level "
                             "%u (master %zu)",
                             n->level, n->master_index);
    ret->l = p.l;
    ret->g = p.g_down > p.g_up ? p.g_down : p.g_up;
    if (ret_measured)
        *ret_measured = 0;
    return SGL_OK;
}

int sgl_machine_set_node_params(sgl_machine_t *m, const sgl_node_t *master,
                                const sgl_link_params_t *p)
{
    static const char fn[] = "sgl_machine_set_node_params";
    if (!m || !master)
        return sgl_error_set(SGL_EINVAL, "%s: NULL argument", fn);
    if (master->machine != m || master->arity == 0)
        return sgl_error_set(SGL_EINVAL, "%s: not a master of this machine",
                             fn);
    int rc = check_params(fn, p);
    if (rc)
        return rc;
    /* The tree owns its nodes; the const in the API only says that
     * callers reach them through read-only accessors. */
    struct sgl_node *n = m->master[m->master_first[master->level] +
                                   master->master_index];
    n->has_params = 1;
    n->params = *p;
    return SGL_OK;
}

const sgl_node_t *sgl_machine_master(const sgl_machine_t *m, unsigned level,
                                     size_t i)
{
    if (!m || level > m->depth || i >= m->level_masters[level])
        return NULL;
    return m->master[m->master_first[level] + i];
}

size_t sgl_node_master_index(const sgl_node_t *master)
{
    return master->master_index;
}

/* ---- provenance ---- */

static const char *prov_key(const void *items, size_t i)
{
    return ((const struct sgl__prov *)items)[i].key;
}

/* The position of @key among the provenance entries, or m->nprov. */
static size_t prov_find(const sgl_machine_t *m, const char *key)
{
    /* The index is a cache: looking up may (re)build it. */
    struct sgl_machine *mm = (struct sgl_machine *)m;
    size_t i = sgl__name_find(&mm->prov_index, mm->prov, mm->nprov, prov_key,
                              key);
    return i == (size_t)-1 ? m->nprov : i;
}

int sgl_machine_set_provenance(sgl_machine_t *m, const char *key,
                               const char *value)
{
    static const char fn[] = "sgl_machine_set_provenance";
    if (!m || !key)
        return sgl_error_set(SGL_EINVAL, "%s: NULL argument", fn);
    if (!sgl__valid_name(key, 64))
        return sgl_error_set(SGL_EINVAL,
                             "%s: bad key '%.40s' (expected [A-Za-z0-9_.-], 1 "
                             "to 64 characters)",
                             fn, key);
    size_t i = prov_find(m, key);
    if (!value) {
        if (i < m->nprov) {
            free(m->prov[i].key);
            free(m->prov[i].value);
            memmove(&m->prov[i], &m->prov[i + 1],
                    (m->nprov - i - 1) * sizeof *m->prov);
            m->nprov--;
            sgl__name_invalidate(&m->prov_index);
        }
        return SGL_OK;
    }
    for (const char *c = value; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            return sgl_error_set(SGL_EINVAL,
                                 "%s: the value of '%s' has a control "
                                 "character at position %zu",
                                 fn, key, (size_t)(c - value) + 1);
    char *v = strdup(value);
    if (!v)
        return sgl_error_set(SGL_ENOMEM, "out of memory setting provenance");
    if (i < m->nprov) {
        free(m->prov[i].value);
        m->prov[i].value = v;
        return SGL_OK;
    }
    char *k = strdup(key);
    size_t cap = sgl__grow(m->nprov);
    struct sgl__prov *a = !k     ? NULL
                          : cap ? realloc(m->prov, cap * sizeof *a)
                                : m->prov;
    if (!a) {
        free(k);
        free(v);
        return sgl_error_set(SGL_ENOMEM, "out of memory setting provenance");
    }
    m->prov = a;
    a[m->nprov].key = k;
    a[m->nprov].value = v;
    m->nprov++;
    return SGL_OK;
}

const char *sgl_machine_provenance(const sgl_machine_t *m, const char *key)
{
    if (!m || !key)
        return NULL;
    size_t i = prov_find(m, key);
    return i < m->nprov ? m->prov[i].value : NULL;
}

size_t sgl_machine_provenance_count(const sgl_machine_t *m)
{
    return m->nprov;
}

const char *sgl_machine_provenance_key(const sgl_machine_t *m, size_t i)
{
    return i < m->nprov ? m->prov[i].key : NULL;
}

void sgl__machine_params_free(struct sgl_machine *m)
{
    sgl__kernels_free(m);
    for (size_t i = 0; i < m->nprov; i++) {
        free(m->prov[i].key);
        free(m->prov[i].value);
    }
    free(m->prov);
    sgl__name_index_free(&m->prov_index);
}

int sgl_machine_set_level_header(sgl_machine_t *m, unsigned level,
                                 double bytes)
{
    static const char fn[] = "sgl_machine_set_level_header";
    int rc = check_level(fn, m, level);
    if (!rc)
        rc = sgl__check_value(fn, "header bytes", bytes);
    if (rc)
        return rc;
    m->params[level].header_set = 1;
    m->params[level].header = bytes;
    return SGL_OK;
}

int sgl_machine_level_header(const sgl_machine_t *m, unsigned level,
                             double *ret)
{
    if (!m || !ret)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_level_header: NULL argument");
    if (level > m->depth || !m->params[level].header_set)
        return sgl_error_set(SGL_ERANGE, "no header bytes set for level %u",
                             level);
    *ret = m->params[level].header;
    return SGL_OK;
}

int sgl_node_header_bytes(const sgl_node_t *n, double *ret)
{
    if (!n || !ret)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_node_header_bytes: NULL argument");
    if (n->arity == 0 || !n->machine)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_node_header_bytes: a worker has no link");
    const struct sgl__level_params *lp = &n->machine->params[n->level];
    /* A machine file written before the header term (no record) gets the
     * runtime's real header: the issue 46 simulation showed l growing
     * with the fan-out by about this much per child. */
    *ret = lp->header_set ? lp->header
                          : n->link == SGL_LINK_MPI ? SGL_HEADER_BYTES : 0;
    return SGL_OK;
}

int sgl_machine_set_level_fanout(sgl_machine_t *m, unsigned level,
                                 const sgl_fanout_params_t *f)
{
    static const char fn[] = "sgl_machine_set_level_fanout";
    int rc = check_level(fn, m, level);
    if (!rc && !f)
        rc = sgl_error_set(SGL_EINVAL, "%s: NULL argument", fn);
    if (!rc)
        rc = sgl__check_value(fn, "o", f->o);
    if (!rc)
        rc = sgl__check_value(fn, "start_l", f->start_l);
    if (!rc)
        rc = sgl__check_value(fn, "start_o", f->start_o);
    if (rc)
        return rc;
    m->params[level].fanout_set = 1;
    m->params[level].fanout = *f;
    return SGL_OK;
}

int sgl_machine_level_fanout(const sgl_machine_t *m, unsigned level,
                             sgl_fanout_params_t *ret)
{
    if (!m || !ret)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_machine_level_fanout: NULL argument");
    if (level > m->depth || !m->params[level].fanout_set)
        return sgl_error_set(SGL_ERANGE, "no fan-out terms set for level %u",
                             level);
    *ret = m->params[level].fanout;
    return SGL_OK;
}

/* Children other than the master's first, which it plays itself: no
 * messages to it. */
static double remote_children(const struct sgl_node *master)
{
    return master->arity > 0 ? (double)master->arity - 1 : 0;
}

int sgl_node_start_cost(const sgl_node_t *n, double *ret)
{
    if (!n || !ret)
        return sgl_error_set(SGL_EINVAL, "sgl_node_start_cost: NULL argument");
    if (n->arity == 0 || !n->machine)
        return sgl_error_set(SGL_EINVAL,
                             "sgl_node_start_cost: a worker has no link");
    const struct sgl__level_params *lp = &n->machine->params[n->level];
    *ret = lp->fanout_set
               ? lp->fanout.start_l + remote_children(n) * lp->fanout.start_o
               : 0;
    return SGL_OK;
}

double sgl__sync_cost(const struct sgl_node *master, double l_down,
                      double g_down, double l_up, double g_up)
{
    const struct sgl__level_params *lp =
        master->machine ? &master->machine->params[master->level] : NULL;
    /* Measured per child, o holds the headers, the arguments and the
     * MPI's cost per message; the header at g is the estimate without. */
    if (lp && lp->fanout_set)
        return l_down + l_up + remote_children(master) * lp->fanout.o;
    double header = 0;
    if (sgl_node_header_bytes(master, &header) != SGL_OK)
        header = 0;
    return l_down + l_up + remote_children(master) * header * (g_down + g_up);
}
