/* The MPI level: master-driven. A pardo sends each remote child its
 * command, argument and staged block together, and receives from each its
 * status, error message and hand-up block together: one synchronisation
 * down and one up, as the cost model charges. The master plays its first
 * child itself without messages. Processes that are not the root serve
 * their master's commands in serve() until a stop message.
 *
 * Protocol. A message of at most SGL__PACK_MAX bytes travels as one, packed
 * into a contiguous buffer and received into a pre-posted buffer of that
 * size, so no probe is needed. A larger one travels as a small first part
 * (the header; up, also the error message) and the rest, sent straight
 * from the caller's buffers through a derived datatype of absolute
 * addresses, split into blocks of at most 1 GiB so that a message may
 * exceed INT_MAX bytes. The rest of a large hand-up is received only when
 * the master knows where it goes: by sgl_gather() directly into the
 * destination, or into a staging buffer by sgl_gather_block(), the next
 * pardo or the end of the program (fetch()). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "child.h"
#include "level.h"
#include "mpi_parts.h"
#include <sgl/blocks.h>

#define MAGIC_DOWN 0x53474c44u /* "SGLD" */
#define MAGIC_UP 0x53474c55u   /* "SGLU" */
#define HDR_BYTES 64

enum { KIND_TASK = 1, KIND_STOP = 2 };

struct down_hdr {
    uint32_t magic;
    uint32_t kind;
    uint32_t task;
    uint32_t hash;
    uint64_t arg_size;
    uint64_t data_size;
    int32_t status; /* the program's status, with KIND_STOP */
    uint32_t pad0;
    uint64_t parent_seq; /* the master's superstep, for the trace */
    uint8_t pad[HDR_BYTES - 48];
};

struct up_hdr {
    uint32_t magic;
    int32_t status;
    uint64_t data_size;
    uint64_t msg_size;
    double time; /* the task's run time and declared work, for the trace */
    double work;
    uint8_t pad[HDR_BYTES - 40];
};

_Static_assert(sizeof(struct down_hdr) == HDR_BYTES, "down header size");
_Static_assert(sizeof(struct up_hdr) == HDR_BYTES, "up header size");

/* What an MPI master keeps between supersteps; arrays of arity entries. */
struct mpi_master {
    MPI_Request *reqs;   /* 3 per child: two sends and a receive */
    MPI_Status *stats;   /* the receives' statuses */
    struct sgl_buf hdrs; /* command headers and packed small commands */
    struct sgl_buf *gbuf; /* receive buffers of the children's replies */
    struct sgl_buf *sbuf; /* remote children's sgl_scatter_buffer() blocks */
};

static struct mpi_master *mm(const struct sgl_ctx *m) { return m->link_state; }

static void master_free(struct sgl_ctx *m)
{
    struct mpi_master *s = mm(m);
    if (!s)
        return;
    for (unsigned i = 0; i < m->node->arity; i++) {
        if (s->gbuf)
            sgl__buf_free(&s->gbuf[i]);
        if (s->sbuf)
            sgl__buf_free(&s->sbuf[i]);
    }
    free(s->reqs);
    free(s->stats);
    free(s->gbuf);
    free(s->sbuf);
    sgl__buf_free(&s->hdrs);
    free(s);
    m->link_state = NULL;
}

static int master_init(struct sgl_ctx *m)
{
    size_t p = m->node->arity;
    struct mpi_master *s = calloc(1, sizeof *s);
    if (!s)
        return sgl_error_set(SGL_ENOMEM, "out of memory for an MPI master");
    m->link_state = s;
    s->reqs = calloc(3 * p, sizeof *s->reqs);
    s->stats = calloc(p, sizeof *s->stats);
    s->gbuf = calloc(p, sizeof *s->gbuf);
    s->sbuf = calloc(p, sizeof *s->sbuf);
    if (!s->reqs || !s->stats || !s->gbuf || !s->sbuf) {
        master_free(m);
        return sgl_error_set(SGL_ENOMEM, "out of memory for an MPI master");
    }
    return SGL_OK;
}

/* A local child's own buffer, or the send buffer of a remote one. */
static struct sgl_buf *stage_buf(struct sgl_ctx *m, unsigned i)
{
    return m->child[i] ? &m->child[i]->down : &mm(m)->sbuf[i];
}

static const char zeros[16];

static size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }

static int tag_down(unsigned child_level) { return 2 * (int)child_level; }
static int tag_up(unsigned child_level) { return 2 * (int)child_level + 1; }

static int find_task(const struct sgl_runtime *rt, sgl_task_fn fn)
{
    for (size_t i = 0; i < rt->ntasks; i++)
        if (rt->tasks[i].fn == fn)
            return (int)i;
    return -1;
}

static size_t staged_bytes(const struct sgl_ctx *m, unsigned i)
{
    return m->staged == SGL_STAGED_NONE ? 0 : m->counts[i];
}

static const char *staged_data(const struct sgl_ctx *m, unsigned i)
{
    if (staged_bytes(m, i) == 0)
        return NULL;
    if (m->staged == SGL_STAGED_BUFFERS)
        return mm(m)->sbuf[i].data;
    return (const char *)m->src + m->offsets[i];
}

/* Post the receive of remote child @i's pending block into @dst (or its
 * staging buffer) at @req. */
static int fetch_post(struct sgl_ctx *m, unsigned i, char *dst,
                      MPI_Request *req)
{
    size_t n = m->pending[i];
    int r = SGL_OK, rank = m->node->child[i]->rank;
    int tag = tag_up(m->node->level + 1);
    void *to = dst;
    if (!to && (r = sgl__buf_reserve(&mm(m)->gbuf[i], n)) == SGL_OK)
        to = mm(m)->gbuf[i].data;
    if (to)
        r = sgl__irecv_bytes(to, n, rank, tag, m->rt->comm, req);
    /* The message must be taken off the wire even without memory, or the
     * child stays blocked: truncate it into nothing (the truncation error
     * its wait then reports comes after this one's). */
    else if (MPI_Irecv(NULL, 0, MPI_BYTE, rank, tag, m->rt->comm, req) !=
             MPI_SUCCESS)
        *req = MPI_REQUEST_NULL;
    if (r)
        *req = MPI_REQUEST_NULL;
    m->pending[i] = 0;
    m->gdata[i] = dst || r ? NULL : to;
    return r;
}

/* Take the large hand-ups off the wire, into @dst back to back or into
 * the staging buffers. All receives are posted before any is waited for:
 * received one after another, each block paid a message latency of its
 * own, (p - 1) of them in series at the root (issue 46: 13.9 of a routed
 * PSRS's 25.7 ms on 16 simulated hosts), where the children's sends are
 * all out at once. The memory is the same either way: every block is
 * kept until the next superstep. The replies' receive requests are free
 * here (a block is pending only once its reply came in) and serve. */
static int fetch(struct sgl_ctx *m, char *dst)
{
    int rc = SGL_OK;
    size_t off = 0;
    MPI_Request *reqs = mm(m)->reqs + 2 * m->node->arity;
    for (unsigned i = 0; i < m->node->arity; i++) {
        reqs[i] = MPI_REQUEST_NULL;
        if (m->pending[i]) {
            int r = fetch_post(m, i, dst ? dst + off : NULL, &reqs[i]);
            if (r && rc == SGL_OK)
                rc = r;
        }
        off += m->gbytes[i];
    }
    for (unsigned i = 0; i < m->node->arity; i++) {
        if (reqs[i] == MPI_REQUEST_NULL)
            continue;
        if (MPI_Wait(&reqs[i], MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            m->gdata[i] = NULL;
            if (rc == SGL_OK)
                rc = sgl_error_set(SGL_EMPI,
                                   "receiving %zu bytes from rank %d failed",
                                   m->gbytes[i], m->node->child[i]->rank);
        }
    }
    return rc;
}

/* Receive buffers of the pre-posted size stay: the next pardo posts its
 * replies into them. */
static void release(struct sgl_ctx *m)
{
    for (unsigned i = 0; i < m->node->arity; i++)
        if (mm(m)->gbuf[i].cap > SGL__PACK_MAX)
            sgl__buf_free(&mm(m)->gbuf[i]);
}

/* Waiting without burning a core. A rank waits for its master's next
 * command for as long as the master computes, and a master for its
 * children's replies. With the active policy (a core of its own:
 * runtime.c, wait_setting()) the wait polls throughout, as MPI_Wait
 * would. Else it polls for SPIN_S (a reply that comes within a
 * superstep's latency costs nothing extra), then sleeps between polls,
 * the sleep doubling up to SLEEP_MAX_S: over a long wait a poll every
 * 250 us costs a few percent of a core, and a wake-up comes at most that
 * late. */
#define SPIN_S 100e-6
#define SLEEP_MIN_S 5e-6
#define SLEEP_MAX_S 250e-6

static double mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#ifdef SGL_SIM
/* Under SimGrid's SMPI every MPI_Test* costs simulated time (smpi/test,
 * 100 us by default: the polling wait made a 128-rank reduction take
 * 14.3 ms instead of 0.305 ms, issue 46), and so does MPI_Waitsome, which
 * SMPI completes by testing: an empty superstep on 16 simulated ranks
 * took 1.84 ms instead of the 0.43 ms of its messages. MPI_Waitany
 * blocks in the simulator and returns at the simulated moment a request
 * completes, so @when is exact. */
static int wait_blocking(const struct sgl_runtime *rt, int n,
                         MPI_Request *reqs, MPI_Status *stats,
                         _Atomic unsigned char *done, double *when)
{
    int rc = MPI_SUCCESS;
    for (;;) {
        int k = MPI_UNDEFINED;
        MPI_Status st;
        rc = MPI_Waitany(n, reqs, &k, &st);
        if (rc != MPI_SUCCESS || k == MPI_UNDEFINED)
            break;
        if (stats)
            stats[k] = st;
        if (when)
            when[k] = sgl__now(rt);
        if (done)
            atomic_store_explicit(&done[k], 1, memory_order_relaxed);
    }
    return rc;
}
#endif

/* Complete @n requests, marking each in @done (if not NULL) as it
 * completes, so that the watchdog can name the children still out, and
 * noting in @when (if not NULL) the runtime's clock then (sgl__now(), to
 * a poll's interval: exact when polling throughout, within SLEEP_MAX_S
 * else), or @since for those complete before two polls in a row find
 * nothing (they were in when the wait began, at @since: Open MPI's test
 * calls progress the transport only when nothing has completed, and one
 * call may take in only part of what is there); poll throughout if
 * @rt->wait_active. Without memory for the bookkeeping it waits as
 * MPI_Waitall does, and notes the end for all. */
static int wait_all(const struct sgl_runtime *rt, int n, MPI_Request *reqs,
                    MPI_Status *stats, _Atomic unsigned char *done,
                    double *when, double since)
{
#ifdef SGL_SIM
    (void)since;
    return wait_blocking(rt, n, reqs, stats, done, when);
#endif
    int active = rt->wait_active;
    int *idx = malloc((size_t)(n ? n : 1) * sizeof *idx);
    MPI_Status *st = malloc((size_t)(n ? n : 1) * sizeof *st);
    if (!idx || !st) {
        free(idx);
        free(st);
        int rc = MPI_Waitall(n, reqs, stats ? stats : MPI_STATUSES_IGNORE);
        for (int k = 0; when && k < n; k++)
            when[k] = sgl__now(rt);
        return rc;
    }
    int rc = MPI_SUCCESS;
    double start = mono(), sleep_s = SLEEP_MIN_S;
    for (int early = 1, empty = 0;;) {
        int outcount = 0;
        rc = MPI_Testsome(n, reqs, &outcount, idx, st);
        if (rc != MPI_SUCCESS || outcount == MPI_UNDEFINED)
            break;
        empty = outcount > 0 ? 0 : empty + 1;
        early = early && empty < 2;
        double now = !when || outcount == 0 ? 0
                     : early                ? since
                                            : sgl__now(rt);
        for (int k = 0; k < outcount; k++) {
            if (stats)
                stats[idx[k]] = st[k];
            if (when)
                when[idx[k]] = now;
            if (done)
                atomic_store_explicit(&done[idx[k]], 1, memory_order_relaxed);
        }
        if (outcount > 0 || active || mono() - start < SPIN_S)
            continue;
        struct timespec ts = {0, (long)(sleep_s * 1e9)};
        nanosleep(&ts, NULL);
        sleep_s = sleep_s * 2 < SLEEP_MAX_S ? sleep_s * 2 : SLEEP_MAX_S;
    }
    free(idx);
    free(st);
    return rc;
}

/* Post the receive of child @i's reply (its first part). */
static int post_reply(struct sgl_ctx *m, unsigned i, MPI_Request *req)
{
    int rc = sgl__buf_reserve(&mm(m)->gbuf[i], SGL__PACK_MAX);
    if (rc)
        return rc;
    if (MPI_Irecv(mm(m)->gbuf[i].data, SGL__PACK_MAX, MPI_BYTE,
                  m->node->child[i]->rank, tag_up(m->node->level + 1),
                  m->rt->comm, req) != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "MPI_Irecv from rank %d failed",
                             m->node->child[i]->rank);
    return SGL_OK;
}

/* Step 1 of a pardo: send every remote child its command, argument and
 * staged block (packed if small, else header then parts from where they
 * lie), and post the receive of its reply. On a failure part-way, the
 * children already commanded are collected so that the protocol stays in
 * step. */
static int send_commands(struct sgl_ctx *m, int id, const void *arg,
                         size_t arg_size)
{
    struct sgl_runtime *rt = m->rt;
    struct mpi_master *s = mm(m);
    unsigned p = m->node->arity;
    int tag = tag_down(m->node->level + 1);
    size_t pack_bytes = 0;
    for (unsigned i = 0; i < p; i++) {
        size_t total = HDR_BYTES + round16(arg_size) + staged_bytes(m, i);
        if (!m->child[i] && total <= SGL__PACK_MAX)
            pack_bytes += total;
    }
    size_t hdr_bytes = p * sizeof(struct down_hdr);
    int rc = sgl__buf_reserve(&s->hdrs, hdr_bytes + pack_bytes);
    if (rc)
        return rc;
    struct down_hdr *hdr = s->hdrs.data;
    char *pack = (char *)s->hdrs.data + hdr_bytes;
    MPI_Request *sends = s->reqs, *recvs = s->reqs + 2 * p;
    int nsend = 0;
    for (unsigned i = 0; i < p; i++) {
        recvs[i] = MPI_REQUEST_NULL;
        if (m->child[i])
            continue;
        int dest = m->node->child[i]->rank;
        size_t bytes = staged_bytes(m, i);
        hdr[i] = (struct down_hdr){.magic = MAGIC_DOWN,
                                   .kind = KIND_TASK,
                                   .task = (uint32_t)id,
                                   .hash = rt->tasks[id].hash,
                                   .arg_size = arg_size,
                                   .data_size = bytes,
                                   .parent_seq = m->seq};
        struct sgl__part parts[] = {
            {&hdr[i], HDR_BYTES},
            {arg, arg_size},
            {zeros, round16(arg_size) - arg_size},
            {staged_data(m, i), bytes}};
        size_t total = sgl__parts_size(parts, 4);
        if (total <= SGL__PACK_MAX) {
            rc = sgl__send_packed(rt->comm, dest, tag, parts, 4, pack,
                             &sends[nsend++]);
            pack += total;
        } else if (MPI_Isend(&hdr[i], HDR_BYTES, MPI_BYTE, dest, tag,
                             rt->comm, &sends[nsend++]) != MPI_SUCCESS) {
            rc = sgl_error_set(SGL_EMPI, "MPI_Isend to rank %d failed", dest);
        } else {
            rc = sgl__send_parts(rt->comm, dest, tag, parts + 1, 3,
                            &sends[nsend++]);
        }
        if (!rc)
            rc = post_reply(m, i, &recvs[i]);
        if (rc) {
            MPI_Waitall(nsend, sends, MPI_STATUSES_IGNORE);
            MPI_Waitall((int)i, recvs, MPI_STATUSES_IGNORE);
            return rc;
        }
    }
    /* Complete the sends before running the local child: without an
     * asynchronous progress thread a large message would otherwise wait
     * for the local child's computation. */
    if (MPI_Waitall(nsend, sends, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "sgl_pardo: MPI_Waitall failed");
    /* A block built in place is not needed once sent; keeping it would
     * hold its memory through the children's work. */
    for (unsigned i = 0; i < p; i++)
        if (s->sbuf[i].cap > SGL__PACK_MAX)
            sgl__buf_free(&s->sbuf[i]);
    return SGL_OK;
}

/* Read remote child @i's reply (the first part: header, message, and the
 * block if it was small; a large block stays pending for fetch()) and its
 * status. Fails only on a malformed reply. */
static int read_reply(struct sgl_ctx *m, unsigned i, int *ret_status,
                      const char **ret_msg)
{
    int n = 0;
    int rank = m->node->child[i]->rank;
    MPI_Get_count(&mm(m)->stats[i], MPI_BYTE, &n);
    const struct up_hdr *h = mm(m)->gbuf[i].data;
    size_t first = HDR_BYTES + round16(h->msg_size);
    int small = first + h->data_size <= SGL__PACK_MAX;
    if (n < HDR_BYTES || h->magic != MAGIC_UP ||
        (small ? first + h->data_size != (size_t)n : first != (size_t)n))
        return sgl_error_set(SGL_EMPI,
                             "sgl_pardo: malformed reply from rank %d", rank);
    *ret_msg = (const char *)h + HDR_BYTES;
    m->gbytes[i] = h->data_size;
    m->ctime[i] = h->time;
    m->cwork[i] = h->work;
    if (small)
        m->gdata[i] = (const char *)h + first;
    else
        m->pending[i] = h->data_size;
    *ret_status = h->status;
    return SGL_OK;
}

/* Step 3 of a pardo: wait for every reply, take the local children's and
 * the remote children's, and word the first failure. */
static int collect_replies(struct sgl_ctx *m)
{
    unsigned p = m->node->arity;
    int status = SGL_OK, proto = SGL_OK;
    /* The local children have run: the wait for the others begins. */
    double since = sgl__now(m->rt);
    for (unsigned i = 0; i < p; i++)
        if (!m->child[i])
            m->cwait = since - m->step_start;
    if (wait_all(m->rt, (int)p, mm(m)->reqs + 2 * p, mm(m)->stats,
                 m->rt->dog ? m->returned : NULL, m->cdone,
                 since) != MPI_SUCCESS)
        proto = sgl_error_set(SGL_EMPI, "sgl_pardo: receiving replies failed");
    for (unsigned i = 0; i < p; i++) {
        int child_status = SGL_OK;
        const char *msg = NULL;
        if (m->child[i]) {
            sgl__take_local_reply(m, i);
            child_status = m->child[i]->status;
            msg = m->child[i]->errmsg;
        } else {
            m->gdata[i] = NULL;
            m->gbytes[i] = m->pending[i] = 0;
            m->ctime[i] = m->cwork[i] = 0;
            /* wait_all() noted the clock as the reply came in. */
            m->cdone[i] = proto ? 0 : m->cdone[i] - m->step_start;
            if (proto)
                continue;
            if ((proto = read_reply(m, i, &child_status, &msg)))
                continue;
        }
        if (child_status < 0 && status == SGL_OK)
            status = sgl__child_failed(m, i, m->node->child[i]->rank,
                                       child_status, msg);
    }
    m->gathered = 1;
    m->consumed = 0;
    return proto ? proto : status;
}

/* A pardo across processes: send the commands, run the children this
 * process plays, collect the replies. */
static int pardo(struct sgl_ctx *m, sgl_task_fn task, const void *arg,
                 size_t arg_size)
{
    int id = find_task(m->rt, task);
    if (id < 0)
        return sgl_error_set(SGL_ENOTASK,
                             "sgl_pardo: the task is not registered; tasks "
                             "that run at an MPI level (level %u here) must "
                             "be registered with sgl_task_register() in "
                             "every process",
                             m->node->level);
    /* Blocks left in flight by the last superstep come off the wire first:
     * their senders wait for it. */
    int rc = fetch(m, NULL);
    if (!rc)
        rc = send_commands(m, id, arg, arg_size);
    if (rc)
        return rc;
    for (unsigned i = 0; i < m->node->arity; i++)
        if (m->child[i])
            sgl__run_local(m, i, task, arg, arg_size);
    return collect_replies(m);
}

/* Receive the next command into the entry's down buffer. */
static int recv_command(struct sgl_runtime *rt, struct sgl_ctx *e, int master,
                        int tag, int *ret_answer)
{
    *ret_answer = 0;
    int rc = sgl__buf_reserve(&e->down, SGL__PACK_MAX);
    if (rc)
        return rc;
    MPI_Status st;
    int n = 0;
    int cap = e->down.cap > INT_MAX ? INT_MAX : (int)e->down.cap;
    MPI_Request req;
    if (MPI_Irecv(e->down.data, cap, MPI_BYTE, master, tag, rt->comm,
                  &req) != MPI_SUCCESS ||
        wait_all(rt, 1, &req, &st, NULL, NULL, 0) != MPI_SUCCESS ||
        MPI_Get_count(&st, MPI_BYTE, &n) != MPI_SUCCESS || n < HDR_BYTES)
        return sgl_error_set(SGL_EMPI, "rank %d: receiving a command from "
                                       "rank %d failed",
                             rt->rank, master);
    struct down_hdr h = *(const struct down_hdr *)e->down.data;
    if (h.magic != MAGIC_DOWN)
        return sgl_error_set(SGL_EMPI, "rank %d: malformed command from "
                                       "rank %d",
                             rt->rank, master);
    if (h.kind == KIND_STOP && (size_t)n != HDR_BYTES + h.arg_size)
        return sgl_error_set(SGL_EMPI, "rank %d: stop of %d bytes from "
                                       "rank %d, header says %zu",
                             rt->rank, n, master,
                             (size_t)(HDR_BYTES + h.arg_size));
    if (h.kind != KIND_TASK)
        return SGL_OK;
    size_t rest = round16(h.arg_size) + h.data_size;
    if ((size_t)n == HDR_BYTES + rest)
        return SGL_OK;
    if (n != HDR_BYTES || HDR_BYTES + rest <= SGL__PACK_MAX)
        return sgl_error_set(SGL_EMPI, "rank %d: command of %d bytes from "
                                       "rank %d, header says %zu",
                             rt->rank, n, master, HDR_BYTES + rest);
    /* A large command: the header came alone, the rest follows. Without
     * memory for it, the rest is taken off the wire into nothing (a
     * truncated receive) and the failure answered, so that the master
     * hears of it instead of waiting for a reply that never comes. */
    if (sgl__buf_reserve(&e->down, HDR_BYTES + rest)) {
        MPI_Recv(NULL, 0, MPI_BYTE, master, tag, rt->comm, MPI_STATUS_IGNORE);
        *ret_answer = 1;
        return sgl_error_set(SGL_ENOMEM,
                             "rank %d: no memory for a command of %zu bytes "
                             "from rank %d",
                             rt->rank, HDR_BYTES + rest, master);
    }
    memcpy(e->down.data, &h, HDR_BYTES);
    return sgl__recv_bytes((char *)e->down.data + HDR_BYTES, rest, master, tag,
                      rt->comm);
}

/* Send the entry's status, message and hand-up block to its master. */
static int send_reply(struct sgl_runtime *rt, struct sgl_ctx *e,
                      struct sgl_buf *pack, int master, int tag)
{
    size_t bytes = e->status < 0 ? 0 : e->up_bytes;
    size_t msg_len = e->status < 0 ? strlen(e->errmsg) + 1 : 0;
    struct up_hdr uh = {.magic = MAGIC_UP,
                        .status = e->status,
                        .data_size = bytes,
                        .msg_size = msg_len,
                        .time = e->task_time,
                        .work = e->work};
    struct sgl__part parts[] = {{&uh, HDR_BYTES},
                           {e->errmsg, msg_len},
                           {zeros, round16(msg_len) - msg_len},
                           {e->up.data, bytes}};
    size_t total = sgl__parts_size(parts, 4);
    int large = total > SGL__PACK_MAX;
    int rc = sgl__buf_reserve(pack, large ? total - bytes : total);
    if (rc)
        return rc;
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    rc = sgl__send_packed(rt->comm, master, tag, parts, large ? 3 : 4,
                     pack->data, &req[0]);
    if (!rc && large)
        rc = sgl__send_parts(rt->comm, master, tag, &parts[3], 1, &req[1]);
    if (MPI_Waitall(2, req, MPI_STATUSES_IGNORE) != MPI_SUCCESS && !rc)
        rc = sgl_error_set(SGL_EMPI, "rank %d: MPI_Waitall failed", rt->rank);
    return rc;
}

/* The entry did not run the command: its reply is the failure @rc with
 * the current message. */
static void fail_task(struct sgl_ctx *e, int rc)
{
    e->status = rc;
    snprintf(e->errmsg, sizeof e->errmsg, "%s", sgl_error_last());
    e->up_bytes = 0;
    e->task_time = e->work = 0;
}

/* The commands of this process's master, until a stop. The argument is
 * copied out of the command so that the task may free the (possibly
 * large) command with sgl_recv_release(). */
static int serve_with(struct sgl_runtime *rt, struct sgl_buf *argbuf,
                      struct sgl_buf *pack)
{
    struct sgl_ctx *e = rt->entry;
    unsigned level = e->node->level;
    int master = e->node->parent->rank;
    for (;;) {
        int answer;
        int rc = recv_command(rt, e, master, tag_down(level), &answer);
        if (rc && answer) {
            /* This process cannot run the command: reply with the error,
             * as a failed task would, and serve on. */
            fail_task(e, rc);
            if ((rc = send_reply(rt, e, pack, master, tag_up(level))))
                return rc;
            continue;
        }
        if (rc)
            return rc;
        const struct down_hdr *h = e->down.data;
        if (h->kind == KIND_STOP) {
            /* The root's message, so that every process reports the
             * failure in the same words. */
            if (h->status < 0)
                sgl_error_set(h->status, "%.*s", (int)h->arg_size,
                              (const char *)h + HDR_BYTES);
            return h->status;
        }

        if ((rc = sgl__buf_reserve(argbuf, h->arg_size))) {
            fail_task(e, rc);
            if ((rc = send_reply(rt, e, pack, master, tag_up(level))))
                return rc;
            continue;
        }
        const char *arg = argbuf->data;
        if (h->arg_size)
            memcpy(argbuf->data, (const char *)h + HDR_BYTES, h->arg_size);
        e->down_data = (char *)e->down.data + HDR_BYTES + round16(h->arg_size);
        e->down_bytes = h->data_size;
        e->parent_seq = (long)h->parent_seq;
        if (h->task < rt->ntasks && rt->tasks[h->task].hash == h->hash) {
            sgl__run_child(e, rt->tasks[h->task].fn,
                           h->arg_size ? arg : NULL, h->arg_size);
        } else if (h->task < rt->ntasks) {
            fail_task(e, sgl_error_set(
                             SGL_ENOTASK,
                             "rank %d registered task %u as '%s'; the master's "
                             "task %u has another name (hash %08x): every "
                             "process must register the same tasks in the "
                             "same order",
                             rt->rank, h->task, rt->tasks[h->task].name,
                             h->task, h->hash));
        } else {
            fail_task(e, sgl_error_set(
                             SGL_ENOTASK,
                             "rank %d registered %zu tasks, the master sent "
                             "task %u: every process must register the same "
                             "tasks in the same order",
                             rt->rank, rt->ntasks, h->task));
        }
        if ((rc = send_reply(rt, e, pack, master, tag_up(level))))
            return rc;
    }
}

static int serve(struct sgl_runtime *rt)
{
    struct sgl_buf argbuf = {0}, pack = {0};
    int rc = serve_with(rt, &argbuf, &pack);
    sgl__buf_free(&argbuf);
    sgl__buf_free(&pack);
    return rc;
}

/* A stop carries the program's status and, after a failure, its message
 * (at most SGL_ERRMSG_MAX bytes, so the stop is always one packed
 * message). */
static int stop(struct sgl_ctx *c, int status, const char *msg)
{
    /* Senders of blocks still in flight wait until they are received. */
    int rc = fetch(c, NULL);
    size_t len = status < 0 ? strnlen(msg, SGL_ERRMSG_MAX - 1) : 0;
    char stop[HDR_BYTES + SGL_ERRMSG_MAX];
    struct down_hdr h = {.magic = MAGIC_DOWN,
                         .kind = KIND_STOP,
                         .status = status,
                         .arg_size = len};
    memcpy(stop, &h, HDR_BYTES);
    memcpy(stop + HDR_BYTES, msg, len);
    for (unsigned i = 0; i < c->node->arity; i++) {
        if (c->child[i])
            continue;
        if (MPI_Send(stop, (int)(HDR_BYTES + len), MPI_BYTE,
                     c->node->child[i]->rank, tag_down(c->node->level + 1),
                     c->rt->comm) != MPI_SUCCESS &&
            rc == SGL_OK)
            rc = sgl_error_set(SGL_EMPI, "sending stop to rank %d failed",
                               c->node->child[i]->rank);
    }
    return rc;
}

const struct sgl__level sgl__level_mpi = {
    .name = "mpi",
    .master_init = master_init,
    .master_free = master_free,
    .stage_buf = stage_buf,
    .pardo = pardo,
    .fetch = fetch,
    .release = release,
    .stop = stop,
    .serve = serve,
};
