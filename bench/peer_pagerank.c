/* PageRank by hand: MPI + OpenMP with a precomputed communication
 * pattern (the peer of bench_pregel). */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <sgl/pregel.h>

#include "peers_mpi.h"

__extension__ typedef unsigned __int128 u128;

static int owner(uint64_t v, uint64_t n, int p)
{
    return (int)((((u128)v + 1) * (unsigned)p + n - 1) / n) - 1;
}

static uint64_t first_of(int r, uint64_t n, int p)
{
    return (uint64_t)(((u128)n * (unsigned)r) / (unsigned)p);
}

/* Exact sums, as sgl_pagerank()'s (pregel_programs.c says why each is
 * exact), so that the ranks are bitwise SGL's whatever the order of the
 * sums, the threads or the ranks: shares in fixed point (x 2^62, summed
 * as integers); the dangling rank as the sum of its terms rounded to a
 * multiple of 2^-52 (x + 1 lies where the doubles are the multiples of
 * 2^-52) plus the sum of what that took off, rounded to a multiple of
 * 2^-k2 by adding and subtracting low_rounder(). */
static inline uint64_t to_fixed(double x)
{
    return (uint64_t)(int64_t)(x * 0x1p62 + 0.5);
}

static inline double from_fixed(uint64_t u)
{
    return (double)(int64_t)u * 0x1p-62;
}
static inline double to_grid(double x) { return (x + 1.0) - 1.0; }

static double low_rounder(uint64_t n)
{
    int b = 0;
    while (b < 64 && n >> b)
        b++;
    return ldexp(3.0, 51 - (105 - b));
}

static int by_pair(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* Exchange @n pairs (sorted by destination rank of their @key element)
 * so that each rank gets the pairs it owns; *@ret malloc()ed. */
static uint64_t (*to_owners(MPI_Comm comm, uint64_t (*e)[2], size_t n,
                            int key, uint64_t nv, int p, size_t *ret_n))[2]
{
    int *sc = calloc((size_t)p, sizeof *sc), *rc = calloc((size_t)p, sizeof *rc);
    int *sd = calloc((size_t)p, sizeof *sd), *rd = calloc((size_t)p, sizeof *rd);
    for (size_t i = 0; i < n; i++)
        sc[owner(e[i][key], nv, p)] += 2;
    MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, comm);
    size_t total = 0;
    for (int r = 0; r < p; r++) {
        sd[r] = r ? sd[r - 1] + sc[r - 1] : 0;
        rd[r] = (int)total;
        total += (size_t)rc[r];
    }
    uint64_t (*out)[2] = malloc((total / 2 + 1) * sizeof *out);
    MPI_Alltoallv(e, sc, sd, MPI_UINT64_T, out, rc, rd, MPI_UINT64_T, comm);
    free(sc), free(rc), free(sd), free(rd);
    *ret_n = total / 2;
    return out;
}

struct pr {
    uint64_t n, v0, v1;
    size_t *deg;          /* out-degree of each own vertex */
    size_t nslots;        /* distinct (rank, target) pairs it sends to */
    size_t *slot_off;     /* sources of slot s: src[slot_off[s]..] */
    uint64_t *src;        /* local vertex indices */
    int *scount, *sdisp, *rcount, *rdisp;
    size_t nrecv;
    size_t *in_off;       /* received values of own vertex i: */
    size_t *in_idx;       /*   recv[in_idx[in_off[i]..]] */
};

/* The graph's edges at their source's owner, distinct, and the pattern. */
static void setup(MPI_Comm comm, unsigned scale, uint64_t seed, struct pr *g)
{
    int p, me;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &me);
    uint64_t n = UINT64_C(1) << scale, m = 16 * n;
    uint64_t e0 = (uint64_t)(((u128)m * (unsigned)me) / (unsigned)p);
    uint64_t e1 = (uint64_t)(((u128)m * (unsigned)me + m) / (unsigned)p);
    uint64_t (*e)[2] = malloc((e1 - e0 + 1) * sizeof *e);
    sgl_graph_kronecker_edges(scale, 16, seed, e0, e1 - e0, e);
    /* sorted by source, so by the source's owner: to the owners */
    qsort(e, e1 - e0, sizeof *e, by_pair);
    size_t ne;
    uint64_t (*mine)[2] = to_owners(comm, e, e1 - e0, 0, n, p, &ne);
    free(e);
    qsort(mine, ne, sizeof *mine, by_pair);
    size_t k = 0;
    for (size_t i = 0; i < ne; i++)
        if (i == 0 || by_pair(mine[i], mine[i - 1]))
            memcpy(mine[k++], mine[i], sizeof *mine);
    ne = k;
    g->n = n;
    g->v0 = first_of(me, n, p);
    g->v1 = first_of(me + 1, n, p);
    g->deg = calloc(g->v1 - g->v0 + 1, sizeof *g->deg);
    for (size_t i = 0; i < ne; i++)
        g->deg[mine[i][0] - g->v0]++;
    /* slots: edges sorted by (target), so by (target's owner, target) */
    uint64_t (*bt)[2] = malloc((ne + 1) * sizeof *bt);
    for (size_t i = 0; i < ne; i++) {
        bt[i][0] = mine[i][1];
        bt[i][1] = mine[i][0] - g->v0;
    }
    free(mine);
    qsort(bt, ne, sizeof *bt, by_pair);
    g->slot_off = malloc((ne + 2) * sizeof *g->slot_off);
    g->src = malloc((ne + 1) * sizeof *g->src);
    uint64_t (*targets)[2] = malloc((ne + 1) * sizeof *targets);
    g->nslots = 0;
    for (size_t i = 0; i < ne; i++) {
        if (i == 0 || bt[i][0] != bt[i - 1][0]) {
            g->slot_off[g->nslots] = i;
            targets[g->nslots][0] = bt[i][0];
            targets[g->nslots++][1] = 0;
        }
        g->src[i] = bt[i][1];
    }
    g->slot_off[g->nslots] = ne;
    free(bt);
    /* the pattern: each rank learns the targets it receives values for */
    g->scount = calloc((size_t)p, sizeof(int));
    g->sdisp = calloc((size_t)p, sizeof(int));
    g->rcount = calloc((size_t)p, sizeof(int));
    g->rdisp = calloc((size_t)p, sizeof(int));
    for (size_t s = 0; s < g->nslots; s++)
        g->scount[owner(targets[s][0], n, p)]++;
    MPI_Alltoall(g->scount, 1, MPI_INT, g->rcount, 1, MPI_INT, comm);
    g->nrecv = 0;
    for (int r = 0; r < p; r++) {
        g->sdisp[r] = r ? g->sdisp[r - 1] + g->scount[r - 1] : 0;
        g->rdisp[r] = (int)g->nrecv;
        g->nrecv += (size_t)g->rcount[r];
    }
    uint64_t *tsend = malloc((g->nslots + 1) * sizeof *tsend);
    uint64_t *trecv = malloc((g->nrecv + 1) * sizeof *trecv);
    for (size_t s = 0; s < g->nslots; s++)
        tsend[s] = targets[s][0];
    free(targets);
    MPI_Alltoallv(tsend, g->scount, g->sdisp, MPI_UINT64_T, trecv, g->rcount,
                  g->rdisp, MPI_UINT64_T, comm);
    free(tsend);
    /* received positions grouped by own target */
    size_t nv = g->v1 - g->v0;
    g->in_off = calloc(nv + 1, sizeof *g->in_off);
    g->in_idx = malloc((g->nrecv + 1) * sizeof *g->in_idx);
    for (size_t k2 = 0; k2 < g->nrecv; k2++)
        g->in_off[trecv[k2] - g->v0 + 1]++;
    for (size_t v = 0; v < nv; v++)
        g->in_off[v + 1] += g->in_off[v];
    size_t *at = malloc((nv + 1) * sizeof *at);
    memcpy(at, g->in_off, (nv + 1) * sizeof *at);
    for (size_t k2 = 0; k2 < g->nrecv; k2++)
        g->in_idx[at[trecv[k2] - g->v0]++] = k2;
    free(at);
    free(trecv);
}

static void pr_free(struct pr *g)
{
    free(g->deg), free(g->slot_off), free(g->src), free(g->scount);
    free(g->sdisp), free(g->rcount), free(g->rdisp), free(g->in_off);
    free(g->in_idx);
}

int peer_pagerank(MPI_Comm comm, unsigned scale, uint64_t seed, double alpha,
                  unsigned iters, peer_result_t *ret, double *ranks)
{
    int p, me;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &me);
    struct pr g;
    setup(comm, scale, seed, &g);
    size_t nv = g.v1 - g.v0;
    double n = (double)g.n;
    double *x = malloc((nv + 1) * sizeof *x);
    uint64_t *share = malloc((nv + 1) * sizeof *share);
    uint64_t *sendv = malloc((g.nslots + 1) * sizeof *sendv);
    uint64_t *recvv = malloc((g.nrecv + 1) * sizeof *recvv);
    for (size_t v = 0; v < nv; v++)
        x[v] = 1.0 / n;
    MPI_Barrier(comm);
    double t0 = MPI_Wtime();
    double low = low_rounder(g.n);
    for (unsigned it = 0; it < iters; it++) {
        double hi = 0, lo = 0, dangling[2], all_dangling;
#pragma omp parallel for schedule(static) reduction(+ : hi, lo)
        for (size_t v = 0; v < nv; v++) {
            share[v] = g.deg[v] ? to_fixed(x[v] / (double)g.deg[v]) : 0;
            if (!g.deg[v]) {
                double h = to_grid(x[v]);
                hi += h;
                lo += (x[v] - h + low) - low;
            }
        }
#pragma omp parallel for schedule(static)
        for (size_t s = 0; s < g.nslots; s++) {
            uint64_t sum = 0;
            for (size_t k = g.slot_off[s]; k < g.slot_off[s + 1]; k++)
                sum += share[g.src[k]];
            sendv[s] = sum;
        }
        double part[2] = {hi, lo};
        MPI_Allreduce(part, dangling, 2, MPI_DOUBLE, MPI_SUM, comm);
        all_dangling = dangling[0] + dangling[1];
        MPI_Alltoallv(sendv, g.scount, g.sdisp, MPI_UINT64_T, recvv, g.rcount,
                      g.rdisp, MPI_UINT64_T, comm);
#pragma omp parallel for schedule(static)
        for (size_t v = 0; v < nv; v++) {
            uint64_t in = 0;
            for (size_t k = g.in_off[v]; k < g.in_off[v + 1]; k++)
                in += recvv[g.in_idx[k]];
            x[v] = alpha * (from_fixed(in) + all_dangling / n) +
                   (1.0 - alpha) / n;
        }
    }
    double dt = MPI_Wtime() - t0;
    MPI_Allreduce(&dt, &ret->seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
    ret->check = 0;
    double *all = me == 0 && !ranks ? malloc(g.n * sizeof *all) : ranks;
    { /* gathered at rank 0 */
        int *cnt = calloc((size_t)p, sizeof *cnt), *dsp = calloc((size_t)p, sizeof *dsp);
        for (int r = 0; r < p; r++) {
            cnt[r] = (int)(first_of(r + 1, g.n, p) - first_of(r, g.n, p));
            dsp[r] = (int)first_of(r, g.n, p);
        }
        MPI_Gatherv(x, (int)nv, MPI_DOUBLE, all, cnt, dsp, MPI_DOUBLE, 0,
                    comm);
        free(cnt), free(dsp);
    }
    if (all != ranks)
        free(all);
    free(x), free(share), free(sendv), free(recvv);
    pr_free(&g);
    return 0;
}
