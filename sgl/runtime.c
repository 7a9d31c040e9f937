/* Runtime lifecycle: MPI start, machine tree, the contexts this process
 * plays, the task registry, and sgl_run's split between the root master
 * (runs the program) and every other process (serves its master). */
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "runtime_impl.h"
#include "sgl_mpi.h"

void sgl_opts_default(sgl_opts_t *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->bind = 1;
    opts->trace = 1;
}

uint32_t sgl__hash(const char *s)
{
    /* FNV-1a: enough to catch processes that registered different tasks. */
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static void ctx_free(struct sgl_ctx *c)
{
    if (!c)
        return;
    for (unsigned i = 0; i < c->node->arity; i++) {
        if (c->child)
            ctx_free(c->child[i]);
        if (c->gbuf)
            sgl__buf_free(&c->gbuf[i]);
        if (c->sbuf)
            sgl__buf_free(&c->sbuf[i]);
    }
    sgl__ctx_states_free(c);
    free(c->child);
    free(c->counts);
    free(c->offsets);
    free(c->gdata);
    free(c->gbytes);
    free(c->gbuf);
    free(c->sbuf);
    free(c->ctime);
    free(c->cwork);
    sgl__trace_free(&c->trace);
    free(c->reqs);
    free(c->stats);
    free(c->pending);
    sgl__buf_free(&c->hdrs);
    sgl__buf_free(&c->down);
    sgl__buf_free(&c->up);
    sgl__buf_free(&c->arg);
    free(c);
}

/* Contexts for @n and every descendant this process plays. */
static struct sgl_ctx *ctx_new(struct sgl_runtime *rt, const struct sgl_node *n)
{
    struct sgl_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->rt = rt;
    c->node = n;
    unsigned p = n->arity;
    if (p == 0)
        return c;
    c->child = calloc(p, sizeof *c->child);
    c->counts = calloc(p, sizeof *c->counts);
    c->offsets = calloc(p, sizeof *c->offsets);
    c->gdata = calloc(p, sizeof *c->gdata);
    c->gbytes = calloc(p, sizeof *c->gbytes);
    c->gbuf = calloc(p, sizeof *c->gbuf);
    c->sbuf = calloc(p, sizeof *c->sbuf);
    c->reqs = calloc(3 * (size_t)p, sizeof *c->reqs);
    c->stats = calloc(p, sizeof *c->stats);
    c->ctime = calloc(p, sizeof *c->ctime);
    c->cwork = calloc(p, sizeof *c->cwork);
    c->pending = calloc(p, sizeof *c->pending);
    if (!c->child || !c->counts || !c->offsets || !c->gdata || !c->gbytes ||
        !c->gbuf || !c->sbuf || !c->reqs || !c->stats || !c->pending || !c->ctime ||
        !c->cwork) {
        ctx_free(c);
        return NULL;
    }
    for (unsigned i = 0; i < p; i++) {
        if (n->child[i]->rank != rt->rank)
            continue;
        c->child[i] = ctx_new(rt, n->child[i]);
        if (!c->child[i]) {
            ctx_free(c);
            return NULL;
        }
    }
    return c;
}

/* The highest node this process plays: the root for rank 0, else the node
 * whose parent is played by another rank. */
static const struct sgl_node *entry_node(const struct sgl_node *n, int rank)
{
    if (n->rank == rank)
        return n;
    for (unsigned i = 0; i < n->arity; i++) {
        const struct sgl_node *e = entry_node(n->child[i], rank);
        if (e)
            return e;
    }
    return NULL;
}

static int build_machine(const sgl_opts_t *o, sgl_machine_t **ret)
{
    sgl_machine_opts_t mo;
    sgl_machine_opts_default(&mo);
    mo.keep_single = o->keep_single;
    mo.max_threads = o->max_threads;
    const char *shape = o->shape ? o->shape : getenv("SGL_SHAPE");
    const char *xml = o->xml ? o->xml : getenv("SGL_XML");
    if (shape && *shape)
        return sgl_machine_from_shape(shape, &mo, ret);
    if (xml && *xml)
        return sgl_machine_from_xml(xml, &mo, ret);
    return sgl_machine_discover(&mo, ret);
}

/* Every rank reaches the same verdict, so that no rank goes on alone. */
static int agree(MPI_Comm comm, int rc)
{
    int worst = rc;
    if (MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "sgl_init: MPI_Allreduce failed");
    if (worst < 0 && rc == 0)
        return sgl_error_set(worst, "sgl_init failed on another rank: %s",
                             sgl_strerror(worst));
    return worst;
}

/* More worker threads than cores is allowed (tests run 8-worker shapes on
 * 2 cores) but timings then mean nothing: say so, since the library never
 * prints. */
static void check_oversubscription(struct sgl_runtime *rt)
{
    size_t mine = 0;
    for (size_t w = 0; w < sgl_machine_workers(rt->machine); w++)
        mine += sgl_node_rank(sgl_machine_worker(rt->machine, w)) == rt->rank;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set)
        return;
    int pus = hwloc_get_cpubind(rt->topo, set, HWLOC_CPUBIND_PROCESS) == 0
                  ? hwloc_bitmap_weight(set)
                  : hwloc_get_nbobjs_by_type(rt->topo, HWLOC_OBJ_PU);
    hwloc_bitmap_free(set);
    if (pus > 0 && mine > (size_t)pus)
        snprintf(rt->warning, sizeof rt->warning,
                 "rank %d runs %zu worker threads on %d processing units: "
                 "oversubscribed, correct but not meaningful for speed",
                 rt->rank, mine, pus);
}

static int init_on(MPI_Comm user, int own_mpi, const sgl_opts_t *opts,
                   sgl_runtime_t **ret_rt)
{
    sgl_opts_t defaults;
    if (!opts) {
        sgl_opts_default(&defaults);
        opts = &defaults;
    }
    struct sgl_runtime *rt = calloc(1, sizeof *rt);
    if (!rt)
        return sgl_error_set(SGL_ENOMEM, "sgl_init: out of memory");
    rt->own_mpi = own_mpi;
    rt->comm = MPI_COMM_NULL;
    if (MPI_Comm_dup(user, &rt->comm) != MPI_SUCCESS) {
        free(rt);
        return sgl_error_set(SGL_EMPI, "sgl_init: MPI_Comm_dup failed");
    }
    /* A failed MPI call must come back as a status, not abort the job. */
    MPI_Comm_set_errhandler(rt->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(rt->comm, &rt->rank);
    MPI_Comm_size(rt->comm, &rt->size);

    int rc = build_machine(opts, &rt->machine);
    if (rc == SGL_OK &&
        sgl_machine_processes(rt->machine) != (size_t)rt->size)
        rc = sgl_error_set(
            SGL_ESHAPE,
            "sgl_init: the machine (%s) needs %zu MPI processes but %d "
            "are running",
            sgl_machine_source(rt->machine),
            sgl_machine_processes(rt->machine), rt->size);
    rc = agree(rt->comm, rc);
    if (rc == SGL_OK) {
        const struct sgl_node *e =
            entry_node(sgl_machine_root(rt->machine), rt->rank);
        rt->entry = e ? ctx_new(rt, e) : NULL;
        if (!rt->entry)
            rc = sgl_error_set(SGL_ENOMEM, "sgl_init: out of memory "
                                           "building contexts");
        rc = agree(rt->comm, rc);
    }
    if (rc == SGL_OK && (hwloc_topology_init(&rt->topo) != 0 ||
                         hwloc_topology_load(rt->topo) != 0)) {
        if (rt->topo)
            hwloc_topology_destroy(rt->topo);
        rt->topo = NULL;
    }
    /* Binding only makes sense when the workers are real cores. */
    rt->bind = opts->bind && rt->topo &&
               sgl_node_os_index(sgl_machine_worker(rt->machine, 0)) >= 0;
    if (rt->topo)
        check_oversubscription(rt);
    if (rc != SGL_OK) {
        char msg[SGL_ERRMSG_MAX];
        snprintf(msg, sizeof msg, "%s", sgl_last_error());
        sgl_finalize(rt);
        return sgl_error_set(rc, "%s", msg);
    }
    const char *env_trace = getenv("SGL_TRACE");
    rt->trace = opts->trace && !(env_trace && strcmp(env_trace, "0") == 0);
    rt->trace_max = opts->trace_max ? opts->trace_max : (size_t)1 << 20;
    /* One origin for every process's trace times. */
    MPI_Barrier(rt->comm);
    rt->epoch = 0;
    rt->epoch = sgl__now(rt);
    /* Nested thread levels (package -> core) are nested parallel regions. */
    omp_set_max_active_levels((int)sgl_machine_depth(rt->machine) + 1);
    *ret_rt = rt;
    return SGL_OK;
}

int sgl_init(int *argc, char ***argv, const sgl_opts_t *opts,
             sgl_runtime_t **ret_rt)
{
    if (!ret_rt)
        return sgl_error_set(SGL_EINVAL, "sgl_init: ret_rt is NULL");
    int inited = 0, finished = 0, own = 0;
    MPI_Finalized(&finished);
    if (finished)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_init: MPI was finalised (by an earlier "
                             "sgl_finalize?) and cannot start again; to run "
                             "several runtimes in one process, initialise "
                             "MPI yourself and use sgl_init_comm()");
    MPI_Initialized(&inited);
    if (!inited) {
        int provided;
        if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
            MPI_SUCCESS)
            return sgl_error_set(SGL_EMPI, "sgl_init: MPI_Init_thread failed");
        own = 1;
    }
    int rc = sgl_init_comm(MPI_COMM_WORLD, opts, ret_rt);
    if (rc != SGL_OK && own) {
        char msg[SGL_ERRMSG_MAX];
        snprintf(msg, sizeof msg, "%s", sgl_last_error());
        MPI_Finalize();
        return sgl_error_set(rc, "%s", msg);
    }
    if (rc == SGL_OK)
        (*ret_rt)->own_mpi = own;
    return rc;
}

int sgl_init_comm(MPI_Comm comm, const sgl_opts_t *opts,
                  sgl_runtime_t **ret_rt)
{
    if (!ret_rt)
        return sgl_error_set(SGL_EINVAL, "sgl_init_comm: ret_rt is NULL");
    int inited = 0, level = MPI_THREAD_SINGLE;
    MPI_Initialized(&inited);
    if (!inited)
        return sgl_error_set(SGL_ESTATE,
                             "sgl_init_comm: MPI is not initialised");
    MPI_Query_thread(&level);
    if (level < MPI_THREAD_FUNNELED)
        return sgl_error_set(SGL_EMPI,
                             "sgl_init_comm: the MPI library gives thread "
                             "level %d, SGL needs MPI_THREAD_FUNNELED (%d)",
                             level, MPI_THREAD_FUNNELED);
    return init_on(comm, 0, opts, ret_rt);
}

int sgl_finalize(sgl_runtime_t *rt)
{
    if (!rt)
        return SGL_OK;
    ctx_free(rt->entry);
    sgl_machine_free(rt->machine);
    if (rt->topo)
        hwloc_topology_destroy(rt->topo);
    for (size_t i = 0; i < rt->ntasks; i++)
        free(rt->tasks[i].name);
    free(rt->tasks);
    free(rt->index);
    if (rt->comm != MPI_COMM_NULL)
        MPI_Comm_free(&rt->comm);
    int own = rt->own_mpi;
    free(rt);
    if (own && MPI_Finalize() != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "sgl_finalize: MPI_Finalize failed");
    return SGL_OK;
}

int sgl_task_register(sgl_runtime_t *rt, sgl_task_fn fn, const char *name)
{
    if (!rt || !fn || !name)
        return sgl_error_set(SGL_EINVAL, "sgl_task_register: NULL argument");
    for (size_t i = 0; i < rt->ntasks; i++)
        if (rt->tasks[i].fn == fn || strcmp(rt->tasks[i].name, name) == 0)
            return sgl_error_set(SGL_EINVAL,
                                 "sgl_task_register: task '%s' is already "
                                 "registered (as '%s')",
                                 name, rt->tasks[i].name);
    if (rt->ntasks == rt->cap_tasks) {
        size_t cap = rt->cap_tasks ? 2 * rt->cap_tasks : 16;
        struct sgl_task_entry *t = realloc(rt->tasks, cap * sizeof *t);
        if (!t)
            return sgl_error_set(SGL_ENOMEM, "sgl_task_register: out of "
                                             "memory");
        rt->tasks = t;
        rt->cap_tasks = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return sgl_error_set(SGL_ENOMEM, "sgl_task_register: out of memory");
    rt->tasks[rt->ntasks++] =
        (struct sgl_task_entry){fn, copy, sgl__hash(name)};
    return SGL_OK;
}

int sgl_run(sgl_runtime_t *rt, sgl_task_fn main_task, const void *arg,
            size_t arg_size)
{
    if (!rt)
        return sgl_error_set(SGL_EINVAL, "sgl_run: runtime is NULL");
    if (rt->entry->node->parent) {
        /* A child process: serve, then pass the stop on. */
        int status = sgl__mpi_serve(rt);
        int rc = sgl__mpi_stop(rt, status);
        return rc ? rc : status;
    }
    int status;
    if (!main_task) {
        status = sgl_error_set(SGL_EINVAL, "sgl_run: main task is NULL");
    } else if (arg_size > 0 && !arg) {
        /* As sgl_pardo(): the main task would read arg_size bytes at NULL. */
        status = sgl_error_set(SGL_EINVAL,
                               "sgl_run: arg is NULL but arg_size is %zu",
                               arg_size);
    } else {
        struct sgl_ctx *root = rt->entry;
        root->task_start = root->last_end = sgl__now(rt);
        root->parent_seq = -1;
        root->in_task = 1;
        status = main_task(root, arg, arg_size);
        root->in_task = 0;
    }
    char msg[SGL_ERRMSG_MAX];
    snprintf(msg, sizeof msg, "%s", sgl_last_error());
    int rc = sgl__mpi_stop(rt, status);
    if (rc)
        return rc;
    if (status < 0)
        sgl_error_set(status, "%s", msg);
    return status;
}

const sgl_machine_t *sgl_runtime_machine(const sgl_runtime_t *rt)
{
    return rt->machine;
}

int sgl_runtime_rank(const sgl_runtime_t *rt) { return rt->rank; }

const char *sgl_runtime_warning(const sgl_runtime_t *rt)
{
    return rt && rt->warning[0] ? rt->warning : NULL;
}
