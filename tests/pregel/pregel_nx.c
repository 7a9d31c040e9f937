/* PageRank against NetworkX, the SGL side: writes a graph as a text edge
 * list, reads it back with sgl_graph_read_edges(), runs sgl_pagerank() on
 * it and writes the ranks, one per line, for nx_check.py to compare.
 *   pregel_nx small|kronecker:SCALE EDGES RANKS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/algorithms.h>
#include <sgl/pregel.h>

#include "test_util.h"

struct job {
    char edges[256], ranks[256];
};

static int write_edges(const char *spec, const char *path)
{
    static const uint64_t small[][2] = {{0, 1}, {0, 1}, {0, 2}, {1, 2},
                                        {2, 0}, {2, 2}, {2, 3}, {4, 5},
                                        {5, 4}, {5, 6}, {1, 4}, {7, 0}};
    unsigned scale = 0;
    uint64_t (*e)[2] = (uint64_t (*)[2])small;
    size_t m = sizeof small / sizeof *small;
    if (sscanf(spec, "kronecker:%u", &scale) == 1) {
        m = (size_t)16 << scale;
        e = malloc(m * sizeof *e);
        if (!e || sgl_graph_kronecker_edges(scale, 16, 5, 0, m, e))
            return 1;
    } else if (strcmp(spec, "small")) {
        return 1;
    }
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fprintf(f, "# %s\n%% comment lines of both kinds are skipped\n\n", spec);
    for (size_t i = 0; i < m; i++)
        fprintf(f, "%llu %llu\n", (unsigned long long)e[i][0],
                (unsigned long long)e[i][1]);
    if (e != (uint64_t (*)[2])small)
        free(e);
    return fclose(f) != 0;
}

static int job_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
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
    struct job j;
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
