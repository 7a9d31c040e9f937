/* The MPI level: master-driven. A pardo sends each remote child one
 * message (command, argument and its staged block together) and receives
 * one message back from each (status, error message and its hand-up block
 * together): one synchronisation down and one up, as the cost model
 * charges. The master plays its first child itself without messages.
 * Processes that are not the root serve their master's commands in
 * sgl__mpi_serve() until a stop message ends the program.
 *
 * Messages are sent straight from the caller's buffers through a derived
 * datatype of absolute addresses (no packing copy) and received with a
 * matched probe, so that sizes need no extra round trip. */
#include <limits.h>
#include <string.h>

#include "runtime_impl.h"

#define MAGIC_DOWN 0x53474c44u /* "SGLD" */
#define MAGIC_UP 0x53474c55u   /* "SGLU" */
#define HDR_BYTES 64
/* Messages up to this size are packed into one contiguous buffer: a copy
 * of a few KiB costs less than building a derived datatype. */
#define PACK_MAX 16384

enum { KIND_TASK = 1, KIND_STOP = 2 };

struct down_hdr {
    uint32_t magic;
    uint32_t kind;
    uint32_t task;
    uint32_t hash;
    uint64_t arg_size;
    uint64_t data_size;
    int32_t status; /* the program's status, with KIND_STOP */
    uint8_t pad[HDR_BYTES - 36];
};

struct up_hdr {
    uint32_t magic;
    int32_t status;
    uint64_t data_size;
    uint64_t msg_size;
    uint8_t pad[HDR_BYTES - 24];
};

_Static_assert(sizeof(struct down_hdr) == HDR_BYTES, "down header size");
_Static_assert(sizeof(struct up_hdr) == HDR_BYTES, "up header size");

static const char zeros[16];

static size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }

static int tag_down(unsigned child_level) { return 2 * (int)child_level; }
static int tag_up(unsigned child_level) { return 2 * (int)child_level + 1; }

struct part {
    const void *ptr;
    size_t len;
};

static size_t parts_size(const struct part *parts, int nparts)
{
    size_t n = 0;
    for (int i = 0; i < nparts; i++)
        n += parts[i].len;
    return n;
}

/* Start sending the concatenation of @parts to @dest: packed into @pack
 * (which must hold them) if not NULL, else straight from where they lie.
 * The caller checked that the total fits in an int. */
static int send_parts(MPI_Comm comm, int dest, int tag,
                      const struct part *parts, int nparts, char *pack,
                      MPI_Request *req)
{
    if (pack) {
        size_t off = 0;
        for (int i = 0; i < nparts; i++) {
            if (parts[i].len)
                memcpy(pack + off, parts[i].ptr, parts[i].len);
            off += parts[i].len;
        }
        if (MPI_Isend(pack, (int)off, MPI_BYTE, dest, tag, comm, req) !=
            MPI_SUCCESS)
            return sgl_error_set(SGL_EMPI, "MPI_Isend to rank %d failed",
                                 dest);
        return SGL_OK;
    }
    int len[4];
    MPI_Aint disp[4];
    int n = 0;
    for (int i = 0; i < nparts; i++) {
        if (parts[i].len == 0)
            continue;
        len[n] = (int)parts[i].len;
        MPI_Get_address(parts[i].ptr, &disp[n]);
        n++;
    }
    MPI_Datatype t;
    if (MPI_Type_create_hindexed(n, len, disp, MPI_BYTE, &t) != MPI_SUCCESS ||
        MPI_Type_commit(&t) != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "MPI datatype for a message to rank "
                                       "%d failed",
                             dest);
    int rc = MPI_Isend(MPI_BOTTOM, 1, t, dest, tag, comm, req);
    MPI_Type_free(&t);
    if (rc != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "MPI_Isend to rank %d failed", dest);
    return SGL_OK;
}

/* Receive the next message from @src with @tag into @buf, whatever size. */
static int recv_msg(MPI_Comm comm, int src, int tag, struct sgl_buf *buf,
                    size_t *ret_bytes)
{
    MPI_Message msg;
    MPI_Status st;
    int n;
    if (MPI_Mprobe(src, tag, comm, &msg, &st) != MPI_SUCCESS ||
        MPI_Get_count(&st, MPI_BYTE, &n) != MPI_SUCCESS || n < HDR_BYTES)
        return sgl_error_set(SGL_EMPI,
                             "receiving from rank %d (tag %d) failed", src,
                             tag);
    int rc = sgl__buf_reserve(buf, (size_t)n);
    if (rc) {
        /* Drain the message anyway so that the protocol stays in step. */
        char hdr[HDR_BYTES];
        MPI_Mrecv(hdr, 0, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
        return rc;
    }
    if (MPI_Mrecv(buf->data, n, MPI_BYTE, &msg, MPI_STATUS_IGNORE) !=
        MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "MPI_Mrecv from rank %d failed", src);
    *ret_bytes = (size_t)n;
    return SGL_OK;
}

static int find_task(const struct sgl_runtime *rt, sgl_task_fn fn)
{
    for (size_t i = 0; i < rt->ntasks; i++)
        if (rt->tasks[i].fn == fn)
            return (int)i;
    return -1;
}

int sgl__pardo_mpi(struct sgl_ctx *m, sgl_task_fn task, const void *arg,
                   size_t arg_size)
{
    struct sgl_runtime *rt = m->rt;
    unsigned p = m->node->arity;
    unsigned level = m->node->level + 1;
    int id = find_task(rt, task);
    if (id < 0)
        return sgl_error_set(SGL_ENOTASK,
                             "sgl_pardo: the task is not registered; tasks "
                             "that run at an MPI level (level %u here) must "
                             "be registered with sgl_task_register() in "
                             "every process",
                             m->node->level);
    for (unsigned i = 0; i < p; i++) {
        size_t bytes = m->staged == SGL_STAGED_NONE ? 0 : m->counts[i];
        if (bytes > (size_t)INT_MAX - HDR_BYTES - round16(arg_size))
            return sgl_error_set(SGL_ERANGE,
                                 "sgl_pardo: the block for child %u (%zu "
                                 "bytes) exceeds the MPI level's limit of "
                                 "%d bytes per message",
                                 i, bytes, INT_MAX);
    }
    /* One header per child, then the packed small messages. */
    size_t hdr_bytes = p * sizeof(struct down_hdr), pack_bytes = 0;
    for (unsigned i = 0; i < p; i++) {
        size_t bytes = m->staged == SGL_STAGED_NONE ? 0 : m->counts[i];
        size_t total = HDR_BYTES + round16(arg_size) + bytes;
        if (!m->child[i] && total <= PACK_MAX)
            pack_bytes += total;
    }
    int rc = sgl__buf_reserve(&m->hdrs, hdr_bytes + pack_bytes);
    if (rc)
        return rc;
    struct down_hdr *hdr = m->hdrs.data;
    char *pack = (char *)m->hdrs.data + hdr_bytes;
    int nreq = 0;
    for (unsigned i = 0; i < p; i++) {
        if (m->child[i])
            continue;
        size_t bytes = m->staged == SGL_STAGED_NONE ? 0 : m->counts[i];
        hdr[i] = (struct down_hdr){.magic = MAGIC_DOWN,
                                   .kind = KIND_TASK,
                                   .task = (uint32_t)id,
                                   .hash = rt->tasks[id].hash,
                                   .arg_size = arg_size,
                                   .data_size = bytes};
        struct part parts[] = {
            {&hdr[i], HDR_BYTES},
            {arg, arg_size},
            {zeros, round16(arg_size) - arg_size},
            {bytes ? (const char *)m->src + m->offsets[i] : NULL, bytes}};
        size_t total = parts_size(parts, 4);
        rc = send_parts(rt->comm, m->node->child[i]->rank, tag_down(level),
                        parts, 4, total <= PACK_MAX ? pack : NULL,
                        &m->reqs[nreq]);
        if (total <= PACK_MAX)
            pack += total;
        if (rc) {
            MPI_Waitall(nreq, m->reqs, MPI_STATUSES_IGNORE);
            return rc;
        }
        nreq++;
    }
    /* Complete the sends before running the local child: without an
     * asynchronous progress thread a large message would otherwise wait
     * for the local child's computation. */
    if (MPI_Waitall(nreq, m->reqs, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        return sgl_error_set(SGL_EMPI, "sgl_pardo: MPI_Waitall failed");

    for (unsigned i = 0; i < p; i++) {
        struct sgl_ctx *c = m->child[i];
        if (!c)
            continue;
        rc = sgl__deliver_local(m, i, c);
        if (rc) {
            c->status = rc;
            snprintf(c->errmsg, sizeof c->errmsg, "%s", sgl_last_error());
            c->up_bytes = 0;
        } else {
            sgl__run_child(c, task, arg, arg_size);
        }
    }

    int status = SGL_OK, proto = SGL_OK;
    for (unsigned i = 0; i < p; i++) {
        struct sgl_ctx *c = m->child[i];
        int child_status;
        const char *msg;
        int rank = m->node->child[i]->rank;
        if (c) {
            child_status = c->status;
            msg = c->errmsg;
            m->gdata[i] = c->up.data;
            m->gbytes[i] = c->status < 0 ? 0 : c->up_bytes;
        } else {
            size_t n = 0;
            m->gdata[i] = NULL;
            m->gbytes[i] = 0;
            rc = recv_msg(rt->comm, rank, tag_up(level), &m->gbuf[i], &n);
            const struct up_hdr *h = m->gbuf[i].data;
            if (rc == SGL_OK &&
                (h->magic != MAGIC_UP ||
                 HDR_BYTES + round16(h->msg_size) + h->data_size != n))
                rc = sgl_error_set(SGL_EMPI,
                                   "sgl_pardo: malformed reply from rank %d",
                                   rank);
            if (rc) {
                if (proto == SGL_OK)
                    proto = rc;
                continue;
            }
            child_status = h->status;
            msg = (const char *)h + HDR_BYTES;
            m->gdata[i] = (const char *)h + HDR_BYTES + round16(h->msg_size);
            m->gbytes[i] = h->data_size;
        }
        if (child_status < 0 && status == SGL_OK)
            status = sgl__child_failed(m, i, rank, child_status, msg);
    }
    m->gathered = 1;
    return proto ? proto : status;
}

int sgl__mpi_serve(struct sgl_runtime *rt)
{
    struct sgl_ctx *e = rt->entry;
    unsigned level = e->node->level;
    int master = e->node->parent->rank;
    for (;;) {
        size_t n = 0;
        int rc = recv_msg(rt->comm, master, tag_down(level), &e->down, &n);
        if (rc)
            return rc;
        const struct down_hdr *h = e->down.data;
        if (h->magic != MAGIC_DOWN ||
            (h->kind == KIND_TASK &&
             HDR_BYTES + round16(h->arg_size) + h->data_size != n))
            return sgl_error_set(SGL_EMPI,
                                 "rank %d: malformed command from rank %d",
                                 rt->rank, master);
        if (h->kind == KIND_STOP)
            return h->status;

        const char *arg = (const char *)h + HDR_BYTES;
        e->down_data = (char *)e->down.data + HDR_BYTES + round16(h->arg_size);
        e->down_bytes = h->data_size;
        if (h->task < rt->ntasks && rt->tasks[h->task].hash == h->hash) {
            sgl__run_child(e, rt->tasks[h->task].fn,
                           h->arg_size ? arg : NULL, h->arg_size);
        } else {
            e->up_bytes = 0;
            e->status = sgl_error_set(
                SGL_ENOTASK,
                "rank %d has no task %u with the master's name hash %08x: "
                "every process must register the same tasks in the same "
                "order",
                rt->rank, h->task, h->hash);
            snprintf(e->errmsg, sizeof e->errmsg, "%s", sgl_last_error());
        }

        size_t bytes = e->status < 0 ? 0 : e->up_bytes;
        size_t msg_len = e->status < 0 ? strlen(e->errmsg) + 1 : 0;
        if (bytes > (size_t)INT_MAX - HDR_BYTES - SGL_ERRMSG_MAX) {
            e->status = sgl_error_set(SGL_ERANGE,
                                      "rank %d put %zu bytes, over the MPI "
                                      "level's limit of %d per message",
                                      rt->rank, bytes, INT_MAX);
            snprintf(e->errmsg, sizeof e->errmsg, "%s", sgl_last_error());
            bytes = 0;
            msg_len = strlen(e->errmsg) + 1;
        }
        struct up_hdr uh = {.magic = MAGIC_UP,
                            .status = e->status,
                            .data_size = bytes,
                            .msg_size = msg_len};
        struct part parts[] = {{&uh, HDR_BYTES},
                               {e->errmsg, msg_len},
                               {zeros, round16(msg_len) - msg_len},
                               {e->up.data, bytes}};
        size_t total = parts_size(parts, 4);
        if (total <= PACK_MAX && (rc = sgl__buf_reserve(&e->hdrs, total)))
            return rc;
        MPI_Request req;
        rc = send_parts(rt->comm, master, tag_up(level), parts, 4,
                        total <= PACK_MAX ? e->hdrs.data : NULL, &req);
        if (rc)
            return rc;
        if (MPI_Wait(&req, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return sgl_error_set(SGL_EMPI, "rank %d: MPI_Wait failed",
                                 rt->rank);
    }
}

static int stop_below(struct sgl_ctx *c, int status)
{
    int rc = SGL_OK;
    for (unsigned i = 0; i < c->node->arity; i++) {
        if (c->child[i]) {
            int r = stop_below(c->child[i], status);
            rc = rc ? rc : r;
            continue;
        }
        struct down_hdr h = {
            .magic = MAGIC_DOWN, .kind = KIND_STOP, .status = status};
        if (MPI_Send(&h, HDR_BYTES, MPI_BYTE, c->node->child[i]->rank,
                     tag_down(c->node->level + 1),
                     c->rt->comm) != MPI_SUCCESS && rc == SGL_OK)
            rc = sgl_error_set(SGL_EMPI, "sending stop to rank %d failed",
                               c->node->child[i]->rank);
    }
    return rc;
}

int sgl__mpi_stop(struct sgl_runtime *rt, int status)
{
    return stop_below(rt->entry, status);
}
