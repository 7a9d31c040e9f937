/* The checks of pregel_checks.h. Each case is one SGL program whose root
 * task builds a graph, runs a vertex program, computes the sequential
 * reference on the same edges and fails with the first difference. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/algorithms.h>

#include "pregel_checks.h"
#include "check_helpers.h"
#include "pregel_crc.h"
#include "test_util.h"

int pregel_test_register(sgl_runtime_t *rt)
{
    return sgl_algorithms_register(rt);
}

/* ---- sequential references, on a simple directed graph ---- */

struct csr {
    uint64_t n;
    size_t *off;
    uint64_t *adj;
};

static int cmp_edge(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* The edges sorted, duplicates dropped, as CSR (sorts @e in place). */
static int make_csr(uint64_t n, uint64_t (*e)[2], size_t m, struct csr *g)
{
    qsort(e, m, sizeof *e, cmp_edge);
    g->n = n;
    g->off = calloc(n + 1, sizeof *g->off);
    g->adj = malloc((m ? m : 1) * sizeof *g->adj);
    if (!g->off || !g->adj)
        return SGL_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (i == 0 || cmp_edge(e[i], e[i - 1])) {
            g->adj[k++] = e[i][1];
            g->off[e[i][0] + 1]++;
        }
    for (uint64_t v = 0; v < n; v++)
        g->off[v + 1] += g->off[v];
    return SGL_OK;
}

static void csr_free(struct csr *g)
{
    free(g->off);
    free(g->adj);
}

/* NetworkX's power iteration: x = alpha (x A + dangling / n) + (1 -
 * alpha) / n until the L1 change is below n tol. */
static void pagerank_ref(const struct csr *g, double alpha, double tol,
                         unsigned max_iter, double *x)
{
    double n = (double)g->n, *nx = calloc(g->n, sizeof *nx);
    for (uint64_t v = 0; v < g->n; v++)
        x[v] = 1.0 / n;
    for (unsigned it = 0; nx && it < max_iter; it++) {
        double dangling = 0, err = 0;
        memset(nx, 0, g->n * sizeof *nx);
        for (uint64_t v = 0; v < g->n; v++) {
            size_t d = g->off[v + 1] - g->off[v];
            if (!d)
                dangling += x[v];
            for (size_t k = g->off[v]; k < g->off[v + 1]; k++)
                nx[g->adj[k]] += x[v] / (double)d;
        }
        for (uint64_t v = 0; v < g->n; v++) {
            double y = alpha * (nx[v] + dangling / n) + (1.0 - alpha) / n;
            err += fabs(y - x[v]);
            x[v] = y;
        }
        if (err < n * tol)
            break;
    }
    free(nx);
}

static void bfs_ref(const struct csr *g, uint64_t src, uint64_t *h)
{
    uint64_t *queue = malloc(g->n * sizeof *queue);
    size_t head = 0, tail = 0;
    for (uint64_t v = 0; v < g->n; v++)
        h[v] = UINT64_MAX;
    h[src] = 0;
    queue[tail++] = src;
    while (queue && head < tail) {
        uint64_t v = queue[head++];
        for (size_t k = g->off[v]; k < g->off[v + 1]; k++)
            if (h[g->adj[k]] == UINT64_MAX) {
                h[g->adj[k]] = h[v] + 1;
                queue[tail++] = g->adj[k];
            }
    }
    free(queue);
}

/* ---- one case ---- */

struct job {
    unsigned scale; /* 0: the hand-made graph */
    uint64_t seed;
};

/* A graph with dangling vertices (3, 6), a self-loop (2), a duplicate
 * edge (0 -> 1 twice), a vertex no one reaches (7). */
static const uint64_t small_edges[][2] = {
    {0, 1}, {0, 1}, {0, 2}, {1, 2}, {2, 0}, {2, 2}, {2, 3},
    {4, 5}, {5, 4}, {5, 6}, {1, 4}, {7, 0},
};
#define SMALL_N 8

/* The job's edges at the root (a malloc()ed copy) and its graph. */
static int job_graph(sgl_ctx_t *root, const struct job *j, uint64_t *n,
                     uint64_t (**e)[2], size_t *m, sgl_graph_t **g)
{
    if (!j->scale) {
        *n = SMALL_N;
        *m = sizeof small_edges / sizeof *small_edges;
        *e = malloc(sizeof small_edges);
        if (!*e)
            return SGL_ENOMEM;
        memcpy(*e, small_edges, sizeof small_edges);
        return sgl_graph_from_edges(root, *n, small_edges, *m, g);
    }
    *n = UINT64_C(1) << j->scale;
    *m = 16 * *n;
    *e = malloc(*m * sizeof **e);
    if (!*e)
        return SGL_ENOMEM;
    SGL_TRY(sgl_graph_kronecker_edges(j->scale, 16, j->seed, 0, *m, *e));
    return sgl_graph_kronecker(root, j->scale, 16, j->seed, g);
}

static int compare(const struct job *j, const struct csr *ref,
                   sgl_graph_t *g, const double *rank, const double *want,
                   const uint64_t *hops, const uint64_t *want_hops)
{
    size_t m = ref->off[ref->n];
    CHECK(sgl_graph_edges(g) == m, "scale %u: %llu distinct edges, the "
                                   "reference has %zu",
          j->scale, (unsigned long long)sgl_graph_edges(g), m);
    for (uint64_t v = 0; v < ref->n; v++) {
        CHECK(fabs(rank[v] - want[v]) <= 1e-12,
              "scale %u: rank of vertex %llu is %.17g, the power iteration "
              "gives %.17g",
              j->scale, (unsigned long long)v, rank[v], want[v]);
        CHECK(hops[v] == want_hops[v],
              "scale %u: vertex %llu is %llu hops away, BFS says %llu",
              j->scale, (unsigned long long)v, (unsigned long long)hops[v],
              (unsigned long long)want_hops[v]);
    }
    return SGL_OK;
}

static int programs_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    uint64_t n = 0, (*e)[2] = NULL;
    size_t m = 0;
    sgl_graph_t *g = NULL;
    struct csr ref = {0, NULL, NULL};
    double *rank = NULL, *want = NULL;
    uint64_t *hops = NULL, *want_hops = NULL;
    sgl_pregel_stats_t st;
    int rc = job_graph(root, j, &n, &e, &m, &g);
    if (!rc)
        rc = make_csr(n, e, m, &ref);
    if (!rc) {
        rank = malloc(n * sizeof *rank);
        want = malloc(n * sizeof *want);
        hops = malloc(n * sizeof *hops);
        want_hops = malloc(n * sizeof *want_hops);
        rc = rank && want && hops && want_hops ? SGL_OK : SGL_ENOMEM;
    }
    if (!rc)
        rc = sgl_pagerank(root, g, 0.85, 1e-13, 500, rank, &st);
    if (!rc)
        rc = sgl_bfs_hops(root, g, n - 1, hops, NULL);
    if (!rc) {
        pagerank_ref(&ref, 0.85, 1e-13, 500, want);
        bfs_ref(&ref, n - 1, want_hops);
        rc = compare(j, &ref, g, rank, want, hops, want_hops);
    }
    int rc2 = sgl_graph_free(root, g);
    csr_free(&ref);
    free(e), free(rank), free(want), free(hops), free(want_hops);
    return rc ? rc : rc2;
}

int pregel_check_programs(sgl_runtime_t *rt)
{
    static const struct job jobs[] = {{0, 0}, {8, 1}, {10, 7}};
    for (size_t k = 0; k < sizeof jobs / sizeof *jobs; k++) {
        char what[64];
        snprintf(what, sizeof what, "graph of scale %u", jobs[k].scale);
        SGL_TRY(test_named(sgl_run(rt, programs_task, &jobs[k], sizeof jobs[k]),
                  what));
    }
    return SGL_OK;
}

/* ---- sizes and iteration limits ---- */

/* Counts past what a graph can index are refused before any arithmetic
 * on them, with the number in the message: no crash (one worker's
 * calloc(n + 1) wrapped to 0) and no "out of memory". */
static int sizes_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    static const uint64_t one[][2] = {{0, 1}};
    /* n = 2^32 + 1 on one worker; on P, P 2^32: a worker gets 2^32 */
    uint64_t nw = sgl_ctx_workers(root);
    uint64_t big[] = {UINT64_MAX, nw == 1 ? (UINT64_C(1) << 32) + 1
                                          : nw << 32,
                      (UINT64_C(1) << 40) + 1, UINT64_C(1) << 63};
    sgl_graph_t *g = NULL;
    for (size_t k = 0; k < sizeof big / sizeof *big; k++) {
        char num[32];
        snprintf(num, sizeof num, "%llu vertices",
                 (unsigned long long)big[k]);
        EXPECT(sgl_graph_from_edges(root, big[k], one, 1, &g), SGL_EINVAL,
               num);
    }
    EXPECT(sgl_graph_from_edges(root, 4, one, (size_t)(UINT64_C(1) << 48) + 1,
                                &g),
           SGL_EINVAL, "281474976710657 edges");
    EXPECT(sgl_graph_kronecker(root, 41, 16, 1, &g), SGL_EINVAL, "scale 41");
    EXPECT(sgl_graph_kronecker(root, 40, 1u << 9, 1, &g), SGL_EINVAL,
           "edge factor 512");
    /* a graph well within the bounds still builds */
    SGL_TRY(sgl_graph_from_edges(root, UINT64_C(1) << 40 >> 20, one, 1, &g));
    return sgl_graph_free(root, g);
}

/* PageRank runs max_iter iterations at most, exactly as many when it
 * does not converge, and says whether it did; no max_iter wraps. BFS
 * says it ran to the end. */
static int iterations_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    uint64_t (*e)[2] = malloc(sizeof small_edges);
    double x[SMALL_N], ref3[SMALL_N], ref4[SMALL_N];
    struct csr ref = {0, NULL, NULL};
    sgl_graph_t *g = NULL;
    sgl_pregel_stats_t st;
    int rc = e ? SGL_OK : SGL_ENOMEM;
    if (!rc) {
        memcpy(e, small_edges, sizeof small_edges);
        rc = make_csr(SMALL_N, e, sizeof small_edges / sizeof *e, &ref);
    }
    if (!rc)
        rc = sgl_graph_from_edges(root, SMALL_N, small_edges,
                                  sizeof small_edges / sizeof *small_edges,
                                  &g);
    if (!rc)
        rc = sgl_pagerank(root, g, 0.85, 0, 3, x, &st);
    pagerank_ref(&ref, 0.85, 0, 3, ref3);
    pagerank_ref(&ref, 0.85, 0, 4, ref4);
    double off3 = 0, off4 = 0;
    for (size_t v = 0; !rc && v < SMALL_N; v++) {
        off3 = fmax(off3, fabs(x[v] - ref3[v]));
        off4 = fmax(off4, fabs(x[v] - ref4[v]));
    }
    if (!rc && (st.supersteps != 4 || st.converged || off3 > 1e-12 ||
                off4 < 1e-9))
        rc = sgl_error_set(SGL_ETASK, "max_iter 3, tol 0: %u supersteps "
                                      "(want 4), converged %d (want 0), "
                                      "%.3g off 3 iterations, %.3g off 4",
                           st.supersteps, st.converged, off3, off4);
    if (!rc)
        rc = test_expect(sgl_pagerank(root, g, 0.85, 1e-9, UINT_MAX, x, &st),
                         SGL_EINVAL, "max_iter 4294967295",
                         "sgl_pagerank(max_iter UINT_MAX)");
    if (!rc)
        rc = sgl_pagerank(root, g, 0.85, 1e-9, UINT_MAX - 1, x, &st);
    if (!rc && (!st.converged || st.supersteps < 3 || st.supersteps > 200))
        rc = sgl_error_set(SGL_ETASK, "max_iter UINT_MAX - 1: %u supersteps, "
                                      "converged %d",
                           st.supersteps, st.converged);
    uint64_t hops[SMALL_N];
    if (!rc)
        rc = sgl_bfs_hops(root, g, 0, hops, &st);
    if (!rc && !st.converged)
        rc = sgl_error_set(SGL_ETASK, "BFS not marked as run to the end");
    int rc2 = sgl_graph_free(root, g);
    csr_free(&ref);
    free(e);
    return rc ? rc : rc2;
}

int pregel_check_limits(sgl_runtime_t *rt)
{
    SGL_TRY(test_named(sgl_run(rt, sizes_task, NULL, 0), "sizes"));
    return test_named(sgl_run(rt, iterations_task, NULL, 0), "iterations");
}

/* ---- checkpoints that prove what they hold ---- */

struct ckpt_case {
    sgl_ctx_t *root;
    sgl_graph_t *g;
    uint32_t prog;
    const double *params;
    const char *dir;
};

static char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = malloc(1 << 20);
    *len = f && buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    if (f)
        fclose(f);
    if (buf)
        buf[*len] = '\0';
    return buf;
}

static int write_whole(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(buf, 1, len, f) != len;
    if (f)
        bad |= fclose(f) != 0;
    return bad ? sgl_error_set(SGL_EIO, "cannot write %s", path) : SGL_OK;
}

/* @file of the checkpoint made @edited (@len bytes): the resume refused
 * with @code and @text; then the file put back as it was (@orig). */
static int refused_as(const struct ckpt_case *c, const char *file,
                      const char *orig, size_t olen, const char *edited,
                      size_t len, int code, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", c->dir, file);
    SGL_TRY(write_whole(path, edited, len));
    int rc = test_expect(sgl_pregel_resume(c->root, c->g, c->prog,
                                           c->params, 7, NULL),
                         code, text, file);
    int rc2 = write_whole(path, orig, olen);
    return rc ? rc : rc2;
}

/* The manifest with line @key's line made @line, its crc line left (a
 * corrupt byte) or recomputed (@fix: a consistent manifest that only the
 * field checks can refuse). */
static int manifest_as(const struct ckpt_case *c, const char *key,
                       const char *line, int fix, const char *text)
{
    char path[256], *edit = NULL;
    snprintf(path, sizeof path, "%s/manifest", c->dir);
    size_t len, k = strlen(key);
    char *m = read_whole(path, &len);
    const char *at = m ? strstr(m, key) : NULL, *eol = at ? strchr(at, '\n')
                                                          : NULL;
    edit = eol ? malloc(len + strlen(line) + 16) : NULL;
    int rc = edit ? SGL_OK : sgl_error_set(SGL_ETASK, "no %.*s line",
                                           (int)k, key);
    if (!rc) {
        size_t n = (size_t)(at - m);
        n += (size_t)sprintf(edit + n, "%s", line);
        memcpy(edit, m, (size_t)(at - m));
        strcpy(edit + n, eol);
        char *crc = strstr(edit, "\ncrc ");
        if (fix && crc)
            sprintf(crc + 1, "crc %08x\n",
                    sgl__crc32c(0, edit, (size_t)(crc + 1 - edit)));
        rc = refused_as(c, "manifest", m, len, edit, strlen(edit),
                        SGL_EPARSE, text);
    }
    free(m), free(edit);
    return rc;
}

/* Worker 0's file of the last checkpoint, a byte of each class altered
 * in turn: the header, a value byte, NaN bits in a value, a halted flag,
 * a message flag; and cut to 10 bytes (truncated: SGL_EIO). */
static int worker_file_cases(const struct ckpt_case *c, unsigned step)
{
    char file[64], path[256];
    snprintf(file, sizeof file, "w0.s%u.ckpt", step);
    snprintf(path, sizeof path, "%s/%s", c->dir, file);
    size_t len;
    char *orig = read_whole(path, &len), *b = malloc(len + 1);
    uint64_t v0, v1, nan_bits = UINT64_C(0x7FF8000000000001);
    int rc = orig && b && len > 88 ? SGL_OK
                                   : sgl_error_set(SGL_ETASK, "no %s", path);
    if (!rc) {
        memcpy(&v0, orig + 16, 8);
        memcpy(&v1, orig + 24, 8);
    }
    size_t nv = rc ? 0 : (size_t)(v1 - v0), at[] = {16, 88 + 3, 88, 88 + 8 * nv,
                                                   88 + 9 * nv};
    static const char *const what[] = {"the header's checksum",
                                       "the contents' checksum",
                                       "the contents' checksum",
                                       "the contents' checksum",
                                       "the contents' checksum"};
    for (size_t k = 0; !rc && k < 5; k++) {
        memcpy(b, orig, len);
        if (k == 2)
            memcpy(b + at[k], &nan_bits, 8);
        else
            b[at[k]] ^= 1;
        rc = refused_as(c, file, orig, len, b, len, SGL_EPARSE, what[k]);
    }
    if (!rc)
        rc = refused_as(c, file, orig, len, orig, 10, SGL_EIO,
                        "truncated: 10 of the 88 bytes of its header");
    free(orig), free(b);
    return rc;
}

/* Each manifest field altered: with the crc line stale, the checksum
 * refuses it; with it recomputed, the field's own check. */
static int manifest_cases(const struct ckpt_case *c, unsigned step)
{
    char line[64], older[64], files[64];
    snprintf(line, sizeof line, "step %u\n", step);
    snprintf(older, sizeof older, "step %u\n", step - 2);
    /* the older files are there, but not the manifest's */
    snprintf(files, sizeof files, ".s%u.ckpt", step - 2);
    static const char stale[] = "the manifest's checksum";
    SGL_TRY(manifest_as(c, line, older, 0, stale));
    SGL_TRY(manifest_as(c, line, older, 1, files));
    SGL_TRY(manifest_as(c, "agg ", "agg nan nan nan nan\n", 0, stale));
    SGL_TRY(manifest_as(c, "agg ", "agg nan nan nan nan\n", 1,
                    "aggregators' checksum"));
    SGL_TRY(manifest_as(c, "graph ", "graph 0123456789abcdef\n", 0, stale));
    SGL_TRY(manifest_as(c, "graph ", "graph 0123456789abcdef\n", 1,
                    "of another graph"));
    SGL_TRY(manifest_as(c, "program ", "program bfs-hops\n", 1,
                    "of program bfs-hops"));
    SGL_TRY(manifest_as(c, "program ", "program \x1b[2Jx\n", 1,
                    "of program \\x1b[2Jx"));
    SGL_TRY(manifest_as(c, "params ", "params 0x1.8p-1 0x0p+0 0x0p+0 0x0p+0\n",
                    1, "parameter 0 is 0x1.8p-1"));
    return manifest_as(c, "files ", "files 0000000000000001\n", 1,
                       "not those the manifest names");
}

/* The resume of the checkpoint gives bitwise @want. */
static int resumed_same(const struct ckpt_case *c, const double *want,
                        double *x, uint64_t n, const char *when)
{
    SGL_TRY(sgl_pregel_resume(c->root, c->g, c->prog, c->params, 7, NULL));
    SGL_TRY(sgl_pregel_values(c->root, c->g, x, n));
    for (uint64_t v = 0; v < n; v++)
        CHECK(!memcmp(&x[v], &want[v], sizeof *x),
              "%s: resumed, vertex %llu has %.17g, uninterrupted %.17g", when,
              (unsigned long long)v, x[v], want[v]);
    return SGL_OK;
}

/* PageRank's program, checkpointed every 2 supersteps of 7 (the last
 * checkpoint superstep 6, the one before 4 still there): resumed as is,
 * bitwise the uninterrupted run; every altered byte class refused; a
 * graph of the same vertex count (a ring) or other parameters refused. */
static int ckpt_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    enum { N = 64 };
    static uint64_t ring[N][2];
    for (uint64_t v = 0; v < N; v++)
        ring[v][0] = v, ring[v][1] = (v + 1) % N;
    double params[SGL_PREGEL_MAX_PARAMS] = {0.85, 0, 0, 0}, want[N], x[N];
    double other[SGL_PREGEL_MAX_PARAMS] = {0.8, 0, 0, 0};
    struct ckpt_case c = {root, NULL, sgl_pagerank_program_id(), params, arg};
    sgl_graph_t *r = NULL;
    SGL_TRY(sgl_graph_kronecker(root, 6, 8, 4, &c.g));
    int rc = sgl_pregel_run(root, c.g, c.prog, params, 7, NULL);
    if (!rc)
        rc = sgl_pregel_values(root, c.g, want, N);
    if (!rc && !(rc = sgl_pregel_checkpoint(c.g, arg, 2)))
        rc = sgl_pregel_run(root, c.g, c.prog, params, 7, NULL);
    if (!rc)
        rc = resumed_same(&c, want, x, N, "as written");
    if (!rc)
        rc = worker_file_cases(&c, 6);
    if (!rc)
        rc = manifest_cases(&c, 6);
    if (!rc)
        rc = test_expect(sgl_pregel_resume(root, c.g, c.prog, other, 7, NULL),
                         SGL_EPARSE, "parameter 0 is", "other parameters");
    if (!rc &&
        !(rc = sgl_graph_from_edges(root, N, (const uint64_t(*)[2])ring, N,
                                    &r)) &&
        !(rc = sgl_pregel_checkpoint(r, arg, 2)))
        rc = test_expect(sgl_pregel_resume(root, r, c.prog, params, 7, NULL),
                         SGL_EPARSE, "of another graph", "a ring's resume");
    if (!rc)
        rc = resumed_same(&c, want, x, N, "after the refusals");
    int rc2 = sgl_graph_free(root, r), rc3 = sgl_graph_free(root, c.g);
    return rc ? rc : rc2 ? rc2 : rc3;
}

int pregel_check_checkpoints(sgl_runtime_t *rt)
{
    char dir[] = "sgl-test-ckpt-XXXXXX";
    if (sgl_runtime_rank(rt) == 0 && !mkdtemp(dir))
        return sgl_error_set(SGL_EIO, "cannot make a folder for checkpoints");
    /* every rank must name the same folder: rank 0's, the root's */
    int rc = test_named(sgl_run(rt, ckpt_task, dir, sizeof dir),
                        "checkpoints");
    if (sgl_runtime_rank(rt) == 0) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "pregel_check_checkpoints: could not remove %s\n",
                    dir);
    }
    return rc;
}

/* ---- graphs and the combiner ---- */

static int graphs_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    sgl_graph_t *g;
    SGL_TRY(sgl_graph_kronecker(root, 9, 16, 3, &g));
    sgl_pregel_stats_t st;
    int rc = sgl_pagerank(root, g, 0.85, 0, 3, NULL, &st);
    size_t w = sgl_ctx_workers(root);
    /* 3 iterations after superstep 0, 4 supersteps (tolerance 0: no
     * halting): in each, every vertex sends one message per distinct
     * out-edge. */
    if (!rc && (st.supersteps != 4 || st.messages != 4 * sgl_graph_edges(g)))
        rc = sgl_error_set(SGL_ETASK, "%u supersteps, %llu messages for "
                                      "%llu edges",
                           st.supersteps, (unsigned long long)st.messages,
                           (unsigned long long)sgl_graph_edges(g));
    if (!rc && st.combined > (uint64_t)4 * w * sgl_graph_vertices(g))
        rc = sgl_error_set(SGL_ETASK, "%llu messages after combining",
                           (unsigned long long)st.combined);
    if (!rc && w > 1 && !(st.max_worker_bytes_uncombined > st.max_worker_bytes))
        rc = sgl_error_set(SGL_ETASK, "h %llu B combined, %llu B without",
                           (unsigned long long)st.max_worker_bytes,
                           (unsigned long long)st.max_worker_bytes_uncombined);
    int rc2 = sgl_graph_free(root, g);
    return rc ? rc : rc2;
}

int pregel_check_graphs(sgl_runtime_t *rt)
{
    return test_named(sgl_run(rt, graphs_task, NULL, 0), "combiner");
}

/* ---- a memory budget ---- */

/* PageRank and BFS hops without a budget, then under one that needs
 * rounds: bitwise the same results, no worker past the budget in any
 * exchange, more exchanges than supersteps; a budget no rounds can meet
 * fails the run cleanly, and the graph still runs afterwards. */
/* A budget too small says what to set, and what it says is right: the
 * budget it names runs, one byte less does not. */
static int budget_advice(sgl_ctx_t *root, sgl_graph_t *g, double *x)
{
    static const char advice[] = "raise the budget to at least ";
    SGL_TRY(sgl_pregel_set_budget(g, 16));
    SGL_TRY(test_expect(sgl_pagerank(root, g, 0.85, 0, 6, x, NULL), SGL_ENOMEM,
                    advice, "a budget of 16 bytes"));
    const char *at = strstr(sgl_error_last(), advice);
    CHECK(strstr(sgl_error_last(), "16 bytes per worker leaves"),
          "the message does not say what the budget leaves: %s",
          sgl_error_last());
    double least = strtod(at + sizeof advice - 1, NULL);
    CHECK(least > 16 && least < 1e12, "advised budget %.0f", least);
    SGL_TRY(sgl_pregel_set_budget(g, (size_t)least - 1));
    SGL_TRY(test_expect(sgl_pagerank(root, g, 0.85, 0, 6, x, NULL), SGL_ENOMEM,
                    advice, "the advised budget less a byte"));
    SGL_TRY(sgl_pregel_set_budget(g, (size_t)least));
    return sgl_pagerank(root, g, 0.85, 0, 6, x, NULL);
}

static int budget_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    sgl_graph_t *g;
    SGL_TRY(sgl_graph_kronecker(root, 10, 16, 5, &g));
    size_t n = (size_t)sgl_graph_vertices(g), w = sgl_ctx_workers(root);
    double *r0 = malloc(n * sizeof *r0), *r1 = malloc(n * sizeof *r1);
    uint64_t *h0 = malloc(n * sizeof *h0), *h1 = malloc(n * sizeof *h1);
    sgl_pregel_stats_t s0, s1, b0, b1;
    int rc = r0 && r1 && h0 && h1 ? SGL_OK : SGL_ENOMEM;
    if (!rc)
        rc = sgl_pagerank(root, g, 0.85, 0, 6, r0, &s0);
    if (!rc)
        rc = sgl_bfs_hops(root, g, 3, h0, &b0);
    /* a quarter of the busiest worker's unbounded h, but room for a
     * 24-byte header and a message per pair and round */
    size_t budget = (size_t)(s0.max_worker_bytes / 4);
    if (budget < 48 * w)
        budget = 48 * w;
    if (!rc)
        rc = sgl_pregel_set_budget(g, budget);
    if (!rc)
        rc = sgl_pagerank(root, g, 0.85, 0, 6, r1, &s1);
    if (!rc)
        rc = sgl_bfs_hops(root, g, 3, h1, &b1);
    for (size_t v = 0; !rc && v < n; v++)
        if (memcmp(&r0[v], &r1[v], sizeof *r0) || h0[v] != h1[v])
            rc = sgl_error_set(SGL_ETASK, "budget %zu: vertex %zu has rank "
                                          "%.17g and %llu hops, %.17g and "
                                          "%llu without",
                               budget, v, r1[v], (unsigned long long)h1[v],
                               r0[v], (unsigned long long)h0[v]);
    if (!rc && (s1.max_worker_bytes > budget || b1.max_worker_bytes > budget))
        rc = sgl_error_set(SGL_ETASK, "budget %zu: a worker received %llu "
                                      "and %llu bytes in one exchange",
                           budget, (unsigned long long)s1.max_worker_bytes,
                           (unsigned long long)b1.max_worker_bytes);
    if (!rc && w > 1 && !(s1.exchanges > s0.exchanges))
        rc = sgl_error_set(SGL_ETASK, "budget %zu: %llu exchanges, %llu "
                                      "without",
                           budget, (unsigned long long)s1.exchanges,
                           (unsigned long long)s0.exchanges);
    if (!rc && (s1.messages != s0.messages || s1.combined != s0.combined))
        rc = sgl_error_set(SGL_ETASK, "budget %zu: %llu messages, %llu "
                                      "combined; %llu and %llu without",
                           budget, (unsigned long long)s1.messages,
                           (unsigned long long)s1.combined,
                           (unsigned long long)s0.messages,
                           (unsigned long long)s0.combined);
    if (!rc && !(rc = sgl_pregel_set_budget(g, 1)))
        rc = test_expect(sgl_pagerank(root, g, 0.85, 0, 6, r1, NULL),
                         SGL_ENOMEM, "rounds", "a budget of 1 byte");
    if (!rc)
        rc = budget_advice(root, g, r1);
    if (!rc && !(rc = sgl_pregel_set_budget(g, 0)))
        rc = sgl_pagerank(root, g, 0.85, 0, 6, r1, NULL);
    for (size_t v = 0; !rc && v < n; v++)
        if (memcmp(&r0[v], &r1[v], sizeof *r0))
            rc = sgl_error_set(SGL_ETASK, "after a failed run: vertex %zu "
                                          "has rank %.17g, %.17g before",
                               v, r1[v], r0[v]);
    int rc2 = sgl_graph_free(root, g);
    free(r0), free(r1), free(h0), free(h1);
    return rc ? rc : rc2;
}

int pregel_check_budget(sgl_runtime_t *rt)
{
    return test_named(sgl_run(rt, budget_task, NULL, 0), "budget");
}

/* ---- balance by edges ---- */

#define HUB_N 1200
#define HUBS 100
#define HUB_DEGREE 40

/* Vertices 0..HUBS-1 send HUB_DEGREE edges each, the others one: the
 * even cut gives the first worker most of the edges. */
static uint64_t (*hub_edges(size_t *ret_m))[2]
{
    size_t m = HUBS * HUB_DEGREE + (HUB_N - HUBS), k = 0;
    uint64_t (*e)[2] = malloc(m * sizeof *e);
    for (uint64_t v = 0; e && v < HUB_N; v++)
        for (uint64_t d = 0; d < (v < HUBS ? HUB_DEGREE : 1); d++) {
            e[k][0] = v;
            e[k++][1] = (v * 7 + 13 * d + 1) % HUB_N;
        }
    *ret_m = m;
    return e;
}

/* The heaviest worker's weight (out-edges + vertices) over the mean. */
static double heaviest(const sgl_graph_t *g, size_t nw)
{
    double most = 0, total = 0;
    for (size_t w = 0; w < nw; w++) {
        uint64_t a, b, m;
        if (sgl_graph_part(g, w, &a, &b, &m))
            return -1;
        double x = (double)(m + (b - a));
        most = x > most ? x : most;
        total += x;
    }
    return most / (total / (double)nw);
}

/* Balance a hub-heavy graph: the heaviest worker nearer the mean, the
 * same PageRank and BFS as the reference; a checkpoint of the even cut
 * resumed on the balanced one, and one of the balanced cut resumed on
 * itself, bitwise as the uninterrupted run. */
static int balance_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const char *dir = arg;
    size_t m, nw = sgl_ctx_workers(root);
    uint64_t (*e)[2] = hub_edges(&m);
    struct csr ref = {0, NULL, NULL};
    double *want = malloc(HUB_N * sizeof *want), *r = malloc(HUB_N * sizeof *r);
    double *r2 = malloc(HUB_N * sizeof *r2);
    uint64_t *hops = malloc(HUB_N * sizeof *hops);
    uint64_t *want_hops = malloc(HUB_N * sizeof *want_hops);
    sgl_graph_t *g = NULL;
    int rc = e && want && r && r2 && hops && want_hops ? SGL_OK : SGL_ENOMEM;
    if (!rc)
        rc = make_csr(HUB_N, e, m, &ref);
    if (!rc)
        rc = sgl_graph_from_edges(root, HUB_N, (const uint64_t (*)[2])e, m,
                                  &g);
    double before = rc ? 0 : heaviest(g, nw);
    /* a checkpoint every 2 supersteps of the even cut, up to 6 */
    if (!rc && !(rc = sgl_pregel_checkpoint(g, dir, 2)))
        rc = sgl_pagerank(root, g, 0.85, 0, 4, NULL, NULL);
    if (!rc && !(rc = sgl_pregel_checkpoint(g, NULL, 0)))
        rc = test_expect(sgl_graph_balance(root, g, -1), SGL_EINVAL,
                         "vertex weight of -1", "a negative vertex weight");
    if (!rc)
        rc = sgl_graph_balance(root, g, 1);
    double after = rc ? 0 : heaviest(g, nw);
    if (!rc && nw > 1 && !(after < before && after <= 1.25))
        rc = sgl_error_set(SGL_ETASK, "the heaviest worker carries %.2fx the "
                                      "mean before balancing, %.2fx after",
                           before, after);
    if (!rc) {
        pagerank_ref(&ref, 0.85, 1e-13, 500, want);
        bfs_ref(&ref, 0, want_hops);
        rc = sgl_pagerank(root, g, 0.85, 1e-13, 500, r, NULL);
    }
    if (!rc)
        rc = sgl_bfs_hops(root, g, 0, hops, NULL);
    if (!rc) {
        struct job j = {0, 0};
        rc = compare(&j, &ref, g, r, want, hops, want_hops);
    }
    /* the even cut's checkpoint (superstep 4), resumed on the new cut,
     * against the same 6 supersteps uninterrupted on it: bitwise, as
     * PageRank's sums are exact */
    uint32_t pr = sgl_pagerank_program_id();
    double params[SGL_PREGEL_MAX_PARAMS] = {0.85, 0};
    if (!rc && !(rc = sgl_pregel_checkpoint(g, dir, 2)))
        rc = sgl_pregel_resume(root, g, pr, params, 6, NULL);
    if (!rc)
        rc = sgl_pregel_values(root, g, r, HUB_N);
    if (!rc && !(rc = sgl_pregel_checkpoint(g, NULL, 0)))
        rc = sgl_pregel_run(root, g, pr, params, 6, NULL);
    if (!rc)
        rc = sgl_pregel_values(root, g, r2, HUB_N);
    for (size_t v = 0; !rc && v < HUB_N; v++)
        if (memcmp(&r[v], &r2[v], sizeof *r))
            rc = sgl_error_set(SGL_ETASK, "resumed from the even cut's "
                                          "checkpoint: vertex %zu has %.17g, "
                                          "%.17g uninterrupted",
                               v, r[v], r2[v]);
    /* the balanced cut's own checkpoint: bitwise */
    if (!rc && !(rc = sgl_pregel_checkpoint(g, dir, 2)))
        rc = sgl_pregel_run(root, g, pr, params, 5, NULL);
    if (!rc)
        rc = sgl_pregel_resume(root, g, pr, params, 6, NULL);
    if (!rc)
        rc = sgl_pregel_values(root, g, r, HUB_N);
    for (size_t v = 0; !rc && v < HUB_N; v++)
        if (memcmp(&r[v], &r2[v], sizeof *r))
            rc = sgl_error_set(SGL_ETASK, "resumed from the balanced cut's "
                                          "checkpoint: vertex %zu has %.17g, "
                                          "%.17g uninterrupted",
                               v, r[v], r2[v]);
    /* another program (with values and messages of the same size) must
     * not start from PageRank's state */
    double source[SGL_PREGEL_MAX_PARAMS] = {0};
    if (!rc)
        rc = test_expect(sgl_pregel_resume(root, g, sgl_bfs_hops_program_id(),
                                           source, 10, NULL),
                         SGL_EPARSE, "program pagerank",
                         "BFS resumed from PageRank's checkpoint");
    int rc2 = sgl_graph_free(root, g);
    csr_free(&ref);
    free(e), free(want), free(r), free(r2), free(hops), free(want_hops);
    return rc ? rc : rc2;
}

int pregel_check_balance(sgl_runtime_t *rt)
{
    char dir[] = "sgl-test-balance-XXXXXX";
    if (sgl_runtime_rank(rt) == 0 && !mkdtemp(dir))
        return sgl_error_set(SGL_EIO, "cannot make a folder for checkpoints");
    /* every rank must name the same folder: rank 0's, the root's */
    int rc = test_named(sgl_run(rt, balance_task, dir, sizeof dir),
                        "balance");
    if (sgl_runtime_rank(rt) == 0) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "pregel_check_balance: could not remove %s\n",
                    dir);
    }
    return rc;
}

/* ---- block compute ---- */

/* Breadth-first hops twice, per vertex and per block, with what a block
 * must get right: halting and waking on a message, the message flags,
 * send-all slots (also flagged on vertices without out-edges, which must
 * send nothing), a send through the block's handle (the source sends
 * itself hop 0 in superstep 0), and an aggregator (vertices reached). */
enum { HB_SOURCE };

static void hb_init(sgl_vertex_t *v)
{
    *(uint64_t *)sgl_vertex_value(v) = UINT64_MAX;
}

static void hb_compute(sgl_vertex_t *v)
{
    uint64_t *h = sgl_vertex_value(v), reached = UINT64_MAX, src;
    src = (uint64_t)sgl_vertex_param(v, HB_SOURCE);
    if (sgl_vertex_superstep(v) == 0) {
        if (sgl_vertex_id(v) == src) {
            uint64_t zero = 0;
            reached = 0;
            sgl_vertex_send(v, src, &zero);
        }
    } else if (sgl_vertex_message(v)) {
        reached = *(const uint64_t *)sgl_vertex_message(v);
    }
    if (reached < *h) {
        *h = reached;
        uint64_t next = reached + 1;
        sgl_vertex_send_all(v, &next);
        sgl_vertex_aggregate(v, 0, 1.0);
    }
    sgl_vertex_vote_halt(v);
}

static void hb_block(sgl_vertex_t *w, const sgl_vertex_block_t *b)
{
    uint64_t *h = b->values, *next = b->send_all;
    const uint64_t *msg = b->messages;
    uint64_t src = (uint64_t)sgl_vertex_param(w, HB_SOURCE);
    unsigned step = sgl_vertex_superstep(w);
    double reached_here = 0;
    for (size_t i = 0; i < b->count; i++) {
        if (b->halted[i])
            continue;
        uint64_t reached = UINT64_MAX;
        if (step == 0 && b->first + i == src) {
            uint64_t zero = 0;
            reached = 0;
            sgl_vertex_send(w, src, &zero);
        } else if (step > 0 && b->has_message[i]) {
            reached = msg[i];
        }
        if (reached < h[i]) {
            h[i] = reached;
            next[i] = reached + 1;
            b->send_all_set[i] = 1; /* also without out-edges: no-op */
            reached_here += 1;
        }
        b->halted[i] = 1;
    }
    sgl_vertex_aggregate(w, 0, reached_here);
}

/* Sums of superstep + 1 sent along the edges in supersteps 0..2, but not
 * by vertices 0 and 1 in superstep 1, while the block flags its vertices
 * without out-edges as well: on the small graph in one worker, the flags
 * then number the senders with out-edges, and an engine that counted
 * them would fold the silent vertices' stale values. */
static void ps_init(sgl_vertex_t *v) { *(uint64_t *)sgl_vertex_value(v) = 0; }

static int ps_sends(unsigned step, uint64_t id)
{
    return step < 3 && !(step == 1 && id < 2);
}

static void ps_compute(sgl_vertex_t *v)
{
    uint64_t *x = sgl_vertex_value(v), out = sgl_vertex_superstep(v) + 1;
    if (sgl_vertex_message(v))
        *x += *(const uint64_t *)sgl_vertex_message(v);
    if (ps_sends(sgl_vertex_superstep(v), sgl_vertex_id(v)))
        sgl_vertex_send_all(v, &out);
}

static void ps_block(sgl_vertex_t *w, const sgl_vertex_block_t *b)
{
    uint64_t *x = b->values, *out = b->send_all;
    const uint64_t *in = b->messages;
    unsigned step = sgl_vertex_superstep(w);
    for (size_t i = 0; i < b->count; i++) {
        if (b->has_message[i])
            x[i] += in[i];
        int dangling = b->edge_offsets[i + 1] == b->edge_offsets[i];
        if (ps_sends(step, b->first + i) || (dangling && step < 3)) {
            out[i] = step + 1;
            b->send_all_set[i] = 1;
        }
    }
}

static uint32_t hb_vertex, hb_blocks, ps_vertex, ps_blocks;

static int partial_sends(sgl_ctx_t *root, sgl_graph_t *g)
{
    uint64_t a[SMALL_N], b[SMALL_N];
    SGL_TRY(sgl_pregel_run(root, g, ps_vertex, NULL, 4, NULL));
    SGL_TRY(sgl_pregel_values(root, g, a, SMALL_N));
    SGL_TRY(sgl_pregel_run(root, g, ps_blocks, NULL, 4, NULL));
    SGL_TRY(sgl_pregel_values(root, g, b, SMALL_N));
    for (size_t v = 0; v < SMALL_N; v++)
        CHECK(a[v] == b[v], "partial sends: vertex %zu summed %llu per "
                            "vertex, %llu per block",
              v, (unsigned long long)a[v], (unsigned long long)b[v]);
    return SGL_OK;
}

/* The two on @g (under @budget bytes per worker, 0: none) give the same
 * hops, BFS's, and the same statistics. */
static int blocks_on(sgl_ctx_t *root, sgl_graph_t *g, size_t budget,
                     uint64_t src)
{
    size_t n = (size_t)sgl_graph_vertices(g);
    uint64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    uint64_t *want = malloc(n * sizeof *want);
    double params[SGL_PREGEL_MAX_PARAMS] = {(double)src, 0, 0, 0};
    sgl_pregel_stats_t sa, sb;
    int rc = a && b && want ? SGL_OK : SGL_ENOMEM;
    if (!rc)
        rc = sgl_pregel_set_budget(g, budget);
    if (!rc)
        rc = sgl_pregel_run(root, g, hb_vertex, params, 1000, &sa);
    if (!rc)
        rc = sgl_pregel_values(root, g, a, n);
    if (!rc)
        rc = sgl_pregel_run(root, g, hb_blocks, params, 1000, &sb);
    if (!rc)
        rc = sgl_pregel_values(root, g, b, n);
    if (!rc)
        rc = sgl_bfs_hops(root, g, src, want, NULL);
    size_t reached = 0;
    for (size_t v = 0; !rc && v < n; v++) {
        if (a[v] != want[v] || b[v] != want[v])
            rc = sgl_error_set(SGL_ETASK,
                               "budget %zu: vertex %zu is %llu hops away per "
                               "vertex, %llu per block, BFS says %llu",
                               budget, v, (unsigned long long)a[v],
                               (unsigned long long)b[v],
                               (unsigned long long)want[v]);
        reached += want[v] != UINT64_MAX;
    }
    if (!rc && (sa.supersteps != sb.supersteps ||
                sa.messages != sb.messages || sa.combined != sb.combined ||
                sa.agg[0] != sb.agg[0] || sa.exchanges != sb.exchanges))
        rc = sgl_error_set(SGL_ETASK,
                           "budget %zu: per vertex %u supersteps, %llu "
                           "messages, %llu combined, %g reached, %llu "
                           "exchanges; per block %u, %llu, %llu, %g, %llu",
                           budget, sa.supersteps,
                           (unsigned long long)sa.messages,
                           (unsigned long long)sa.combined, sa.agg[0],
                           (unsigned long long)sa.exchanges, sb.supersteps,
                           (unsigned long long)sb.messages,
                           (unsigned long long)sb.combined, sb.agg[0],
                           (unsigned long long)sb.exchanges);
    if (!rc && reached < 2)
        rc = sgl_error_set(SGL_ETASK, "budget %zu: the source reaches %zu "
                                      "vertices: a weak check",
                           budget, reached);
    free(a), free(b), free(want);
    return rc;
}

static int blocks_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    sgl_graph_t *g = NULL;
    int rc = sgl_graph_from_edges(root, SMALL_N, small_edges,
                                  sizeof small_edges / sizeof *small_edges,
                                  &g);
    if (!rc)
        rc = test_named(blocks_on(root, g, 0, 7), "small graph");
    if (!rc)
        rc = partial_sends(root, g);
    int rc2 = g ? sgl_graph_free(root, g) : SGL_OK;
    g = NULL;
    /* more vertices than a block, several blocks per worker */
    if (!rc && !rc2)
        rc = sgl_graph_kronecker(root, 14, 4, 9, &g);
    uint64_t e[1][2]; /* from the first edge's source */
    if (!rc && !rc2)
        rc = sgl_graph_kronecker_edges(14, 4, 9, 0, 1, e);
    for (size_t k = 0; !rc && !rc2 && k < 2; k++)
        rc = test_named(blocks_on(root, g, k ? 4096 : 0, e[0][0]),
                        "scale 14");
    if (!rc2 && g)
        rc2 = sgl_graph_free(root, g);
    return rc ? rc : rc2;
}

int pregel_check_blocks(sgl_runtime_t *rt)
{
    sgl_pregel_program_t p = {.name = "hops-per-vertex",
                              .compute = hb_compute,
                              .init = hb_init,
                              .combine = sgl_combine_min_u64,
                              .value_size = sizeof(uint64_t),
                              .msg_size = sizeof(uint64_t),
                              .naggs = 1,
                              .agg = {SGL_AGG_SUM}};
    SGL_TRY(sgl_pregel_register(&p, &hb_vertex));
    p.name = "hops-per-block";
    p.compute = NULL;
    p.compute_block = hb_block;
    SGL_TRY(sgl_pregel_register(&p, &hb_blocks));
    CHECK(hb_blocks != hb_vertex, "the block program got the per-vertex "
                                  "program's number");
    sgl_pregel_program_t q = {.name = "sums-per-vertex",
                              .compute = ps_compute,
                              .init = ps_init,
                              .combine = sgl_combine_sum_u64,
                              .value_size = sizeof(uint64_t),
                              .msg_size = sizeof(uint64_t)};
    SGL_TRY(sgl_pregel_register(&q, &ps_vertex));
    q.name = "sums-per-block";
    q.compute = NULL;
    q.compute_block = ps_block;
    SGL_TRY(sgl_pregel_register(&q, &ps_blocks));
    /* neither function: refused, saying so */
    p.compute_block = NULL;
    uint32_t id;
    EXPECT(sgl_pregel_register(&p, &id), SGL_EINVAL,
           "neither compute nor compute_block");
    return test_named(sgl_run(rt, blocks_task, NULL, 0), "blocks");
}

/* ---- errors ---- */

static void bad_compute(sgl_vertex_t *v)
{
    double x = 1;
    sgl_vertex_send(v, sgl_vertex_count(v) + sgl_vertex_id(v), &x);
    sgl_vertex_vote_halt(v);
}

static void nothing(sgl_vertex_t *v) { (void)v; }
static void add(void *a, const void *b) { *(double *)a += *(const double *)b; }

static uint32_t bad_program;

static int errors_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    static const uint64_t bad[][2] = {{0, 1}, {1, 9}};
    sgl_graph_t *g = NULL;
    EXPECT(sgl_graph_from_edges(root, 4, bad, 2, &g), SGL_EINVAL,
           "edge 1 (1 -> 9)");
    EXPECT(sgl_graph_kronecker(root, 0, 16, 1, &g), SGL_EINVAL, "scale 0");
    SGL_TRY(sgl_graph_kronecker(root, 5, 4, 1, &g));
    int rc = test_expect(sgl_pregel_run(root, g, bad_program, NULL, 10, NULL),
                    SGL_EINVAL, "sent to vertex", "a send out of range");
    if (!rc)
        rc = test_expect(sgl_pagerank(root, g, 1.5, 1e-6, 10, NULL, NULL),
                    SGL_EINVAL, "damping", "sgl_pagerank(alpha 1.5)");
    /* The program itself refuses them, run or resumed directly. */
    double bad_params[SGL_PREGEL_MAX_PARAMS] = {1.5, 1e-6, 0, 0};
    if (!rc)
        rc = test_expect(sgl_pregel_run(root, g, sgl_pagerank_program_id(),
                                        bad_params, 10, NULL),
                         SGL_EINVAL, "damping", "PageRank run, alpha 1.5");
    bad_params[0] = NAN;
    if (!rc)
        rc = test_expect(sgl_pregel_run(root, g, sgl_pagerank_program_id(),
                                        bad_params, 10, NULL),
                         SGL_EINVAL, "damping", "PageRank run, alpha NaN");
    if (!rc)
        rc = test_expect(sgl_bfs_hops(root, g, 99, NULL, NULL), SGL_EINVAL,
                    "source 99", "sgl_bfs_hops(99)");
    int rc2 = sgl_graph_free(root, g);
    return rc ? rc : rc2;
}

int pregel_check_errors(sgl_runtime_t *rt)
{
    sgl_pregel_program_t p = {.name = "bad",
                              .compute = bad_compute,
                              .init = nothing,
                              .combine = add,
                              .value_size = sizeof(double),
                              .msg_size = sizeof(double)};
    SGL_TRY(sgl_pregel_register(&p, &bad_program));
    p.value_size = 0;
    uint32_t id;
    CHECK(sgl_pregel_register(&p, &id) == SGL_EINVAL,
          "a program with values of 0 bytes was registered");
    p.value_size = sizeof(double);
    p.combine = sgl_combine_sum_f64;
    p.msg_size = 4;
    CHECK(sgl_pregel_register(&p, &id) == SGL_EINVAL,
          "sgl_combine_sum_f64 was registered for 4-byte messages");
    p.combine = sgl_combine_sum_u64;
    CHECK(sgl_pregel_register(&p, &id) == SGL_EINVAL,
          "sgl_combine_sum_u64 was registered for 4-byte messages");
    return test_named(sgl_run(rt, errors_task, NULL, 0), "errors");
}

/* ---- edge values ---- */

/* SSSP on a hand-made weighted graph: a duplicate edge keeps its lighter
 * value, a longer path of lighter edges wins, an unreachable vertex is
 * infinite; the same after sgl_graph_balance() moved the edges; and a
 * negative weight fails the run through sgl_vertex_fail(). */
static int weights_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    static const uint64_t e[][2] = {{0, 1}, {0, 1}, {1, 2}, {0, 2},
                                    {2, 3}, {4, 0}, {3, 1}};
    static const double w[] = {5, 2, 1, 4, 0.5, 1, 7};
    static const double want[] = {0, 2, 3, 3.5, INFINITY};
    sgl_graph_t *g;
    double d[5];
    SGL_TRY(sgl_graph_from_weighted_edges(ctx, 5, e, w, 7, &g));
    int rc = sgl_graph_has_edge_values(g) ? SGL_OK
                                          : sgl_error_set(SGL_ETASK, "no "
                                                          "values");
    for (int round = 0; round < 2 && !rc; round++) {
        rc = round ? sgl_graph_balance(ctx, g, 1) : SGL_OK;
        if (!rc)
            rc = sgl_sssp(ctx, g, 0, d, NULL);
        for (int v = 0; v < 5 && !rc; v++)
            if (d[v] != want[v])
                rc = sgl_error_set(SGL_ETASK, "round %d: vertex %d at %g, "
                                   "expected %g", round, v, d[v], want[v]);
    }
    sgl_graph_free(ctx, g);
    SGL_TRY(rc);
    static const double neg[] = {5, 2, -1, 4, 0.5, 1, 7};
    SGL_TRY(sgl_graph_from_weighted_edges(ctx, 5, e, neg, 7, &g));
    rc = test_expect(sgl_sssp(ctx, g, 0, d, NULL), SGL_EINVAL,
                     "edge 1 -> 2 weighs -1", "sgl_sssp");
    sgl_graph_free(ctx, g);
    return rc;
}

int pregel_check_weights(sgl_runtime_t *rt)
{
    return sgl_run(rt, weights_task, NULL, 0);
}
