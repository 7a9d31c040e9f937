/* Discovery of the running machine: hwloc inside each process, MPI across
 * processes. Every rank describes its own process, the descriptions and
 * host groupings are exchanged with collectives, and every rank builds the
 * same tree from the same data, so no rank can disagree about the shape.
 *
 * The tree is cluster -> node (one per shared-memory host) -> rank -> the
 * rank's own package/numa/l3/core tree, all single-child levels collapsed
 * afterwards. Hosts come in the order of their lowest rank and ranks in
 * rank order within a host (ranks of the communicator discovery runs on,
 * MPI_COMM_WORLD by default); process nodes carry that rank so that a
 * round-robin mapping still numbers processes as MPI does. */
#include <errno.h>
#include <hwloc.h>
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/machine_mpi.h>

#include "machine_impl.h"

#ifdef SGL_SIM
/* Under SimGrid's SMPI (the -Dmpi=smpi build) a process is one simulated
 * host's rank and one worker: the host's real cores are not the
 * simulated ones, the runtime refuses thread levels there, and loading
 * hwloc in every rank took 25 s of a 1024-rank start (issue 46). */
static int local_tree(const sgl_machine_opts_t *opts,
                      struct sgl_node **ret_root)
{
    (void)opts;
    struct sgl_node *root = sgl__node_new("machine", -1);
    struct sgl_node *core = sgl__node_new("core", -1);
    if (!root || !core || sgl__node_add(root, core) != SGL_OK) {
        sgl__node_free(core);
        sgl__node_free(root);
        return sgl_error_set(SGL_ENOMEM, "out of memory for a tree");
    }
    *ret_root = root;
    return SGL_OK;
}
#else
/* OMP_NUM_THREADS may be a list for nested teams ("4,2"); the first entry
 * is the team of the process's master. A value OpenMP would reject is
 * ignored here too rather than failing discovery. */
static unsigned omp_threads(void)
{
    const char *e = getenv("OMP_NUM_THREADS");
    if (!e)
        return 0;
    char *end;
    errno = 0;
    unsigned long v = strtoul(e, &end, 10);
    if (end == e || errno || v > UINT_MAX || (*end && *end != ','))
        return 0;
    return (unsigned)v;
}

/* The process's own tree below a fresh "machine" node. SGL_XML replaces
 * the host's topology (a fake shape for the ranks only: mpirun reads the
 * HWLOC_* variables too); its cpusets are not this host's, so binding is
 * then ignored. */
static int local_tree(const sgl_machine_opts_t *opts,
                      struct sgl_node **ret_root)
{
    unsigned cap = opts && opts->max_threads ? opts->max_threads
                                             : omp_threads();
    const char *xml = getenv("SGL_XML");
    hwloc_topology_t topo;
    int rc;
    if (xml && *xml) {
        rc = sgl__hwloc_load_xml(xml, &topo);
        if (rc)
            return rc;
    } else {
        if (hwloc_topology_init(&topo))
            return sgl_error_set(SGL_EHWLOC, "hwloc_topology_init failed: %s",
                                 strerror(errno));
        if (hwloc_topology_load(topo)) {
            int e = errno;
            hwloc_topology_destroy(topo);
            return sgl_error_set(SGL_EHWLOC, "hwloc_topology_load failed: %s",
                                 strerror(e));
        }
    }
    hwloc_bitmap_t set = NULL;
    if (hwloc_topology_is_thissystem(topo)) {
        set = hwloc_bitmap_alloc();
        if (!set) {
            hwloc_topology_destroy(topo);
            return sgl_error_set(SGL_ENOMEM, "out of memory reading hwloc");
        }
        /* Threads the runtime starts inherit the binding of the thread that
         * starts them, which is this one. */
        hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(topo);
        if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_THREAD) &&
            hwloc_get_cpubind(topo, set, 0))
            hwloc_bitmap_copy(set, allowed);
        hwloc_bitmap_and(set, set, allowed);
    }
    struct sgl_node *root = sgl__node_new("machine", -1);
    rc = root ? sgl__hwloc_fill(root, topo, set, cap) : SGL_ENOMEM;
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    if (rc) {
        sgl__node_free(root);
        return rc;
    }
    *ret_root = root;
    return SGL_OK;
}
#endif

/* A subtree as text, "arity (type os_index arity ...)...", preorder. */
static void write_children(FILE *f, const struct sgl_node *n)
{
    fprintf(f, "%u", n->arity);
    for (unsigned i = 0; i < n->arity; i++) {
        fprintf(f, " %s %d ", n->child[i]->type, n->child[i]->os_index);
        write_children(f, n->child[i]);
    }
}

static int corrupt(void)
{
    return sgl_error_set(SGL_EMPI, "discovery: a rank sent a malformed "
                                   "process tree");
}

/* *ret is 0 on error (which GCC's -O3 cannot see through corrupt()). */
static int read_uint(const char **p, long lo, long *ret)
{
    char *end;
    *ret = 0;
    errno = 0;
    long v = strtol(*p, &end, 10);
    if (end == *p || errno || v < lo || v > INT_MAX)
        return corrupt();
    *p = end;
    *ret = v;
    return SGL_OK;
}

static int read_children(const char **p, struct sgl_node *parent,
                         unsigned depth)
{
    long arity = 0;
    int rc = depth > SGL__MAX_DEPTH ? corrupt() : read_uint(p, 0, &arity);
    if (rc)
        return rc;
    if (arity > 0)
        parent->link = SGL_LINK_THREADS;
    for (long i = 0; i < arity; i++) {
        const char *t = *p + strspn(*p, " ");
        size_t tlen = strcspn(t, " ");
        char type[sizeof parent->type];
        if (tlen == 0 || tlen >= sizeof type)
            return corrupt();
        memcpy(type, t, tlen);
        type[tlen] = '\0';
        *p = t + tlen;
        long os;
        if ((rc = read_uint(p, -1, &os)))
            return rc;
        struct sgl_node *n = sgl__node_new(type, (int)os);
        if (!n)
            return SGL_ENOMEM;
        if ((rc = sgl__node_add(parent, n))) {
            sgl__node_free(n);
            return rc;
        }
        if ((rc = read_children(p, n, depth + 1)))
            return rc;
    }
    return SGL_OK;
}

static int mpi_check(int err, const char *what)
{
    if (err == MPI_SUCCESS)
        return SGL_OK;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(err, msg, &len);
    return sgl_error_set(SGL_EMPI, "discovery: %s failed: %s", what, msg);
}

/* What every rank needs to build the whole tree: each rank's serialized
 * process tree, host name and node leader (lowest rank sharing
 * memory with it). */
struct world {
    int size;
    int *len;    /* bytes of each rank's tree, with its NUL */
    int *displ;
    char *trees;
    char *hosts; /* MPI_MAX_PROCESSOR_NAME bytes per rank */
    int *leader;
};

/* @p rc of this rank made everyone's: a rank whose allocation failed must
 * not leave the others waiting in the collective that follows. */
static int all_ok(MPI_Comm comm, int rc)
{
    int worst = rc;
    int mrc = mpi_check(MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, comm),
                        "MPI_Allreduce of discovery status");
    if (rc || mrc)
        return rc ? rc : mrc;
    return worst ? sgl_error_set(worst, "discovery failed on another rank "
                                        "(%s)",
                                 sgl_error_string(worst))
                 : SGL_OK;
}

static int exchange(MPI_Comm world, const struct sgl_node *local,
                    struct world *w)
{
    int me, rc;
    if ((rc = mpi_check(MPI_Comm_size(world, &w->size), "MPI_Comm_size")) ||
        (rc = mpi_check(MPI_Comm_rank(world, &me), "MPI_Comm_rank")))
        return rc;

    char *mine = NULL;
    size_t mlen = 0;
    FILE *f = open_memstream(&mine, &mlen);
    if (f)
        write_children(f, local);
    if (!f || fclose(f) || mlen >= INT_MAX)
        rc = sgl_error_set(SGL_ENOMEM, "out of memory describing a process");
    int len = (int)mlen + 1;

    size_t n = (size_t)w->size;
    w->len = malloc(n * sizeof *w->len);
    w->displ = malloc(n * sizeof *w->displ);
    w->hosts = malloc(n * MPI_MAX_PROCESSOR_NAME);
    w->leader = malloc(n * sizeof *w->leader);
    if (rc == SGL_OK && (!w->len || !w->displ || !w->hosts || !w->leader))
        rc = sgl_error_set(SGL_ENOMEM, "out of memory in discovery");
    if ((rc = all_ok(world, rc)) == SGL_OK)
        rc = mpi_check(MPI_Allgather(&len, 1, MPI_INT, w->len, 1, MPI_INT,
                                     world),
                       "MPI_Allgather of tree sizes");
    size_t total = 0;
    for (size_t r = 0; rc == SGL_OK && r < n; r++) {
        w->displ[r] = (int)total;
        total += (size_t)w->len[r];
        if (total > INT_MAX)
            rc = sgl_error_set(SGL_ENOMEM, "discovery: process trees of "
                                           "all ranks exceed 2 GiB");
    }
    /* The sizes are the same everywhere, so is the verdict above; the
     * allocation is this rank's own. */
    if (rc == SGL_OK)
        rc = all_ok(world, (w->trees = malloc(total))
                               ? SGL_OK
                               : sgl_error_set(SGL_ENOMEM, "out of memory "
                                                           "in discovery"));
    if (rc == SGL_OK)
        rc = mpi_check(MPI_Allgatherv(mine, len, MPI_CHAR, w->trees, w->len,
                                      w->displ, MPI_CHAR, world),
                       "MPI_Allgatherv of process trees");
    free(mine);
    if (rc)
        return rc;

    char host[MPI_MAX_PROCESSOR_NAME];
    int hlen = 0;
    memset(host, 0, sizeof host);
    if ((rc = mpi_check(MPI_Get_processor_name(host, &hlen),
                        "MPI_Get_processor_name")) ||
        (rc = mpi_check(MPI_Allgather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                                      w->hosts, MPI_MAX_PROCESSOR_NAME,
                                      MPI_CHAR, world),
                        "MPI_Allgather of host names")))
        return rc;

    /* Shared memory, not the host name, decides what a node is: fake nodes
     * in network namespaces may share a name. */
    MPI_Comm shm;
    int leader = me;
    if ((rc = mpi_check(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, me,
                                            MPI_INFO_NULL, &shm),
                        "MPI_Comm_split_type")))
        return rc;
    rc = mpi_check(MPI_Allreduce(&me, &leader, 1, MPI_INT, MPI_MIN, shm),
                   "MPI_Allreduce of node leaders");
    MPI_Comm_free(&shm);
    if (rc == SGL_OK)
        rc = mpi_check(MPI_Allgather(&leader, 1, MPI_INT, w->leader, 1,
                                     MPI_INT, world),
                       "MPI_Allgather of node leaders");
    return rc;
}

static int build_world(const struct world *w, struct sgl_node *root,
                       size_t *ret_hosts)
{
    size_t n = (size_t)w->size, hosts = 0;
    struct sgl_node **node_of = calloc(n, sizeof *node_of);
    if (!node_of)
        return sgl_error_set(SGL_ENOMEM, "out of memory in discovery");
    root->link = SGL_LINK_MPI;
    int rc = SGL_OK;
    /* A leader is the lowest rank of its node, so it comes first and the
     * nodes come out in the order of their lowest rank. */
    for (size_t r = 0; rc == SGL_OK && r < n; r++) {
        int l = w->leader[r];
        if (l < 0 || (size_t)l > r || (node_of[l] == NULL && (size_t)l != r)) {
            rc = sgl_error_set(SGL_EMPI, "discovery: rank %zu reports node "
                                         "leader %d",
                               r, l);
            break;
        }
        struct sgl_node *rank;
        if (!node_of[l]) {
            struct sgl_node *node = sgl__node_new("host", -1);
            if (!node) {
                rc = SGL_ENOMEM;
                break;
            }
            const char *h = w->hosts + r * MPI_MAX_PROCESSOR_NAME;
            node->host = strndup(h, MPI_MAX_PROCESSOR_NAME);
            node->link = SGL_LINK_MPI;
            if (!node->host || (rc = sgl__node_add(root, node))) {
                sgl__node_free(node);
                rc = sgl_error_set(SGL_ENOMEM, "out of memory in discovery");
                break;
            }
            node_of[l] = node;
            hosts++;
        }
        if (!(rank = sgl__node_new("rank", -1))) {
            rc = SGL_ENOMEM;
            break;
        }
        rank->rank = (int)r;
        if ((rc = sgl__node_add(node_of[l], rank))) {
            sgl__node_free(rank);
            break;
        }
        const char *p = w->trees + w->displ[r];
        if (w->len[r] < 1 || p[w->len[r] - 1] != '\0')
            rc = corrupt();
        else
            rc = read_children(&p, rank, 0);
    }
    free(node_of);
    *ret_hosts = hosts;
    return rc;
}

/* Discovery over @comm, or of this process alone if @comm is
 * MPI_COMM_NULL. */
static int discover_on(MPI_Comm comm, const sgl_machine_opts_t *opts,
                       sgl_machine_t **ret_machine)
{
    int keep = opts ? opts->keep_single : 0;
    struct sgl_node *local = NULL;
    int rc = local_tree(opts, &local);
    if (comm == MPI_COMM_NULL) {
        if (rc)
            return rc;
        return sgl__machine_finish(local, keep, "discovered", ret_machine);
    }

    /* Agree on failure first: a rank that gives up alone would leave the
     * others waiting in the exchange. */
    int worst = rc;
    int mrc = mpi_check(MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, comm),
                        "MPI_Allreduce of discovery status");
    if (rc || mrc || worst) {
        sgl__node_free(local);
        if (rc)
            return rc;
        if (mrc)
            return mrc;
        return sgl_error_set(worst, "discovery failed on another rank (%s)",
                             sgl_error_string(worst));
    }

    struct world w = {0};
    struct sgl_node *root = NULL;
    size_t hosts = 0;
    rc = exchange(comm, local, &w);
    sgl__node_free(local);
    if (rc == SGL_OK) {
        root = sgl__node_new("cluster", -1);
        rc = root ? build_world(&w, root, &hosts) : SGL_ENOMEM;
    }
    free(w.len);
    free(w.displ);
    free(w.trees);
    free(w.hosts);
    free(w.leader);
    if (rc) {
        sgl__node_free(root);
        return rc;
    }
    char source[96];
    snprintf(source, sizeof source, "discovered: %d MPI rank%s on %zu host%s",
             w.size, w.size == 1 ? "" : "s", hosts, hosts == 1 ? "" : "s");
    return sgl__machine_finish(root, keep, source, ret_machine);
}

int sgl_machine_discover(const sgl_machine_opts_t *opts,
                         sgl_machine_t **ret_machine)
{
    if (!ret_machine)
        return sgl_error_set(SGL_EINVAL, "sgl_machine_discover: NULL "
                                         "argument");
    int up = 0, down = 0;
    MPI_Initialized(&up);
    if (up)
        MPI_Finalized(&down);
    return discover_on(up && !down ? MPI_COMM_WORLD : MPI_COMM_NULL, opts,
                       ret_machine);
}

int sgl_machine_discover_comm(MPI_Comm comm, const sgl_machine_opts_t *opts,
                              sgl_machine_t **ret_machine)
{
    if (!ret_machine || comm == MPI_COMM_NULL)
        return sgl_error_set(SGL_EINVAL, "sgl_machine_discover_comm: %s",
                             ret_machine ? "MPI_COMM_NULL communicator"
                                         : "NULL argument");
    int up = 0, down = 0;
    MPI_Initialized(&up);
    if (up)
        MPI_Finalized(&down);
    if (!up || down)
        return sgl_error_set(SGL_ESTATE, "sgl_machine_discover_comm: MPI is "
                                         "%s",
                             up ? "finalised" : "not initialised");
    return discover_on(comm, opts, ret_machine);
}
