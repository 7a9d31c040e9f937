/* PageRank and SSSP against NetworkX, the SGL side: writes a graph as a
 * text edge list, reads it back with sgl_graph_read_edges(), runs
 * sgl_pagerank() on it and writes the ranks, one per line, for
 * nx_check.py to compare. With sssp:SCALE the list has a weight column
 * (sgl_graph_kronecker_edge_values()), is read by
 * sgl_graph_read_weighted_edges(), and sgl_sssp() from the first edge's
 * source writes distances (the source on the first line), which must
 * also equal bitwise those on the graph sgl_graph_kronecker_weighted()
 * generates on the workers.
 *   pregel_nx small|kronecker:SCALE|sssp:SCALE EDGES RESULT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/algorithms.h>
#include <sgl/pregel.h>

#include "test_util.h"

struct job {
    char edges[256], ranks[256];
    unsigned sssp_scale; /* 0: PageRank */
};

#define SSSP_LO 1.0
#define SSSP_HI 10.0

static int write_edges(const char *spec, const char *path)
{
    static const uint64_t small[][2] = {{0, 1}, {0, 1}, {0, 2}, {1, 2},
                                        {2, 0}, {2, 2}, {2, 3}, {4, 5},
                                        {5, 4}, {5, 6}, {1, 4}, {7, 0}};
    unsigned scale = 0;
    uint64_t (*e)[2] = (uint64_t (*)[2])small;
    double *w = NULL;
    size_t m = sizeof small / sizeof *small;
    int sssp = sscanf(spec, "sssp:%u", &scale) == 1;
    if (sssp || sscanf(spec, "kronecker:%u", &scale) == 1) {
        m = (size_t)16 << scale;
        e = malloc(m * sizeof *e);
        w = sssp ? malloc(m * sizeof *w) : NULL;
        if (!e || (sssp && !w) || sgl_graph_kronecker_edges(scale, 16, 5, 0, m, e))
            return 1;
        if (sssp && sgl_graph_kronecker_edge_values(scale, 16, 5, SSSP_LO,
                                                    SSSP_HI, 0, m, w))
            return 1;
    } else if (strcmp(spec, "small")) {
        return 1;
    }
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fprintf(f, "# %s\n%% comment lines of both kinds are skipped\n\n", spec);
    for (size_t i = 0; i < m; i++) {
        fprintf(f, "%llu %llu", (unsigned long long)e[i][0],
                (unsigned long long)e[i][1]);
        if (w)
            fprintf(f, " %.17g", w[i]);
        fprintf(f, "\n");
    }
    if (e != (uint64_t (*)[2])small)
        free(e);
    free(w);
    return fclose(f) != 0;
}

/* SSSP from the file's graph and from the generator's: the same bits. */
static int sssp_job(sgl_ctx_t *root, const struct job *j)
{
    uint64_t n, (*e)[2];
    double *w, *dist = NULL, *gen = NULL;
    size_t m;
    SGL_TRY(sgl_graph_read_weighted_edges(j->edges, &n, &e, &w, &m));
    uint64_t source = m ? e[0][0] : 0;
    sgl_graph_t *g = NULL, *k = NULL;
    int rc = w ? SGL_OK : sgl_error_set(SGL_EPARSE, "no weight column");
    if (!rc)
        rc = sgl_graph_from_weighted_edges(root, n, (const uint64_t (*)[2])e,
                                           w, m, &g);
    free(e);
    free(w);
    dist = malloc(n * sizeof *dist);
    gen = malloc((1ull << j->sssp_scale) * sizeof *gen);
    if (!rc && (!dist || !gen))
        rc = SGL_ENOMEM;
    if (!rc)
        rc = sgl_sssp(root, g, source, dist, NULL);
    if (!rc)
        rc = sgl_graph_kronecker_weighted(root, j->sssp_scale, 16, 5, SSSP_LO,
                                          SSSP_HI, &k);
    if (!rc)
        rc = sgl_sssp(root, k, source, gen, NULL);
    /* the file names vertices up to the largest it uses */
    for (uint64_t v = 0; !rc && v < (1ull << j->sssp_scale); v++)
        if (v < n ? memcmp(&dist[v], &gen[v], sizeof *gen) : gen[v] != INFINITY)
            rc = sgl_error_set(SGL_ETASK, "vertex %llu: %.17g from the file, "
                               "%.17g generated",
                               (unsigned long long)v, v < n ? dist[v] : 0,
                               gen[v]);
    FILE *f = rc ? NULL : fopen(j->ranks, "w");
    if (!rc && !f)
        rc = sgl_error_set(SGL_EIO, "cannot write %s", j->ranks);
    if (f)
        fprintf(f, "%llu\n", (unsigned long long)source);
    for (uint64_t v = 0; f && v < n; v++)
        fprintf(f, "%.17g\n", dist[v]);
    if (f && fclose(f))
        rc = sgl_error_set(SGL_EIO, "cannot write %s", j->ranks);
    free(dist);
    free(gen);
    sgl_graph_free(root, k);
    int rc2 = sgl_graph_free(root, g);
    return rc ? rc : rc2;
}

static int job_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    if (j->sssp_scale)
        return sssp_job(root, j);
    uint64_t n, (*e)[2];
    size_t m;
    SGL_TRY(sgl_graph_read_edges(j->edges, &n, &e, &m));
    sgl_graph_t *g = NULL;
    double *rank = malloc(n * sizeof *rank);
    int rc = rank ? sgl_graph_from_edges(root, n, (const uint64_t (*)[2])e,
                                         m, &g)
                  : SGL_ENOMEM;
    free(e);
    if (!rc)
        rc = sgl_pagerank(root, g, 0.85, 1e-13, 1000, rank, NULL);
    FILE *f = rc ? NULL : fopen(j->ranks, "w");
    if (!rc && !f)
        rc = sgl_error_set(SGL_EIO, "cannot write %s", j->ranks);
    for (uint64_t v = 0; f && v < n; v++)
        fprintf(f, "%.17g\n", rank[v]);
    if (f && fclose(f))
        rc = sgl_error_set(SGL_EIO, "cannot write %s", j->ranks);
    free(rank);
    int rc2 = sgl_graph_free(root, g);
    return rc ? rc : rc2;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: pregel_nx small|kronecker:SCALE EDGES "
                        "RANKS\n");
        return 2;
    }
    struct job j = {.sssp_scale = 0};
    if (sscanf(argv[1], "sssp:%u", &j.sssp_scale) != 1)
        j.sssp_scale = 0;
    snprintf(j.edges, sizeof j.edges, "%s", argv[2]);
    snprintf(j.ranks, sizeof j.ranks, "%s", argv[3]);
    if (write_edges(argv[1], j.edges)) {
        fprintf(stderr, "pregel_nx: cannot write %s\n", j.edges);
        return 1;
    }
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc)
        rc = sgl_algorithms_register(rt);
    if (!rc)
        rc = sgl_run(rt, job_task, &j, sizeof j);
    if (rc)
        fprintf(stderr, "pregel_nx: %s\n", sgl_error_last());
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
