/* Checkpoint and restart: PageRank on a Kronecker graph with a
 * checkpoint every 5 supersteps, run whole, or killed (SIGKILL of the
 * process that owns the last vertex) at a given superstep, or resumed
 * from the last complete checkpoint on whatever tree it is started on;
 * and sgl_pagerank() itself, with a tolerance (so the aggregators decide
 * when it stops), whole, on a balanced cut, stopped after superstep
 * STOP_AT (its last checkpoint that of superstep 15) or resumed.
 *   pregel_restart full|crash|resume DIR OUT      (under mpiexec)
 *   pregel_restart pagerank|pagerank-balanced|pagerank-stop|
 *                  pagerank-balanced-stop|pagerank-resume DIR OUT
 *   pregel_restart compare A B TOL                 (largest difference)
 * OUT gets the ranks as raw doubles. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sgl/algorithms.h>
#include <sgl/pregel.h>

#include "test_util.h"

#define SCALE 12
#define STEPS 40
#define KILL_AT 17
/* sgl_pagerank(): at this tolerance it stops after 20 to 25 supersteps,
 * so after the checkpoint of superstep 15; "-stop" stops it after
 * superstep STOP_AT - 1, as if killed at STOP_AT */
#define PR_TOL 1e-15
#define PR_ITERS 200
#define STOP_AT KILL_AT

enum { DANGLING, CHANGE };

/* How this process's run is instrumented, from its mode (every process
 * of a run has the same): not parameters of the program, which a resume
 * must repeat exactly (the checkpoint records them). */
static int kill_run;           /* "crash": die at KILL_AT */
static unsigned resumed_at;    /* "resume": fail below the checkpoint's */

static void init(sgl_vertex_t *v)
{
    *(double *)sgl_vertex_value(v) = 1.0 / (double)sgl_vertex_count(v);
}

/* PageRank without a tolerance, and a process that dies at superstep
 * KILL_AT when the run says so. A resumed run fails if it computes a
 * superstep before the checkpoint's: it must not start over. Its sums are
 * exact, their terms rounded to multiples of 2^-52 (sgl_combine_round_grid())
 * and totalling about 1, so a resume on any tree is bitwise. */
static void compute(sgl_vertex_t *v)
{
    double n = (double)sgl_vertex_count(v), *x = sgl_vertex_value(v);
    if (sgl_vertex_superstep(v) < resumed_at) {
        sgl_vertex_send(v, UINT64_MAX, x); /* fails the run */
        return;
    }
    if (kill_run && sgl_vertex_superstep(v) == KILL_AT &&
        sgl_vertex_id(v) == sgl_vertex_count(v) - 1)
        raise(SIGKILL);
    if (sgl_vertex_superstep(v) >= 1) {
        const double *in = sgl_vertex_message(v);
        *x = 0.85 * ((in ? *in : 0.0) +
                     sgl_vertex_aggregated(v, DANGLING) / n) +
             0.15 / n;
    }
    size_t deg = sgl_vertex_out_degree(v);
    if (!deg) {
        sgl_vertex_aggregate(v, DANGLING, sgl_combine_round_grid(*x, -52));
        return;
    }
    double share = sgl_combine_round_grid(*x / (double)deg, -52);
    sgl_vertex_send_all(v, &share);
}

static const sgl_pregel_program_t program = {
    .name = "pagerank-kill",
    .compute = compute,
    .init = init,
    .combine = sgl_combine_sum_f64,
    .value_size = sizeof(double),
    .msg_size = sizeof(double),
    .naggs = 1,
    .agg = {SGL_AGG_SUM},
};
static uint32_t program_id;

struct job {
    char mode[32], dir[160], out[160];
};

static int write_ranks(const char *path, const double *x, uint64_t n)
{
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(x, sizeof *x, n, f) != n;
    if (f)
        bad |= fclose(f) != 0;
    return bad ? sgl_error_set(SGL_EIO, "cannot write %s", path) : SGL_OK;
}

/* sgl_pagerank() on @g as @mode says. */
static int pagerank(sgl_ctx_t *root, sgl_graph_t *g, const char *mode)
{
    if (strstr(mode, "balanced"))
        SGL_TRY(sgl_graph_balance(root, g, 1));
    if (strcmp(mode, "pagerank-resume") == 0) {
        double params[SGL_PREGEL_MAX_PARAMS] = {0.85, PR_TOL};
        return sgl_pregel_resume(root, g, sgl_pagerank_program_id(), params,
                                 PR_ITERS + 1, NULL);
    }
    /* sgl_pagerank() runs max_iter + 1 supersteps at most */
    unsigned iters = strstr(mode, "-stop") ? STOP_AT - 1 : PR_ITERS;
    return sgl_pagerank(root, g, 0.85, PR_TOL, iters, NULL, NULL);
}

static int job_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct job *j = arg;
    sgl_graph_t *g;
    SGL_TRY(sgl_graph_kronecker(root, SCALE, 16, 9, &g));
    uint64_t n = sgl_graph_vertices(g);
    double *x = malloc(n * sizeof *x);
    int rc = x ? sgl_pregel_checkpoint(g, j->dir, 5) : SGL_ENOMEM;
    if (!rc && strncmp(j->mode, "pagerank", 8) == 0)
        rc = pagerank(root, g, j->mode);
    else if (!rc && strcmp(j->mode, "resume") == 0)
        rc = sgl_pregel_resume(root, g, program_id, NULL, STEPS, NULL);
    else if (!rc)
        rc = sgl_pregel_run(root, g, program_id, NULL, STEPS, NULL);
    if (!rc)
        rc = sgl_pregel_values(root, g, x, n);
    if (!rc)
        rc = write_ranks(j->out, x, n);
    free(x);
    int rc2 = sgl_graph_free(root, g);
    return rc ? rc : rc2;
}

/* The largest difference of two rank files, and whether within @tol. */
static int compare(const char *a, const char *b, double tol)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    double x, y, worst = 0;
    size_t n = 0;
    int differ = !fa || !fb;
    while (!differ && fread(&x, sizeof x, 1, fa) == 1) {
        differ = fread(&y, sizeof y, 1, fb) != 1;
        worst = differ ? worst : fmax(worst, fabs(x - y));
        n++;
    }
    differ |= !fa || !fb || fread(&y, sizeof y, 1, fb) == 1 || n == 0;
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    printf("%zu ranks, largest difference %.3g%s\n", n, worst,
           differ ? " (files of different lengths)" : "");
    return differ || !(worst <= tol);
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "compare") == 0)
        return compare(argv[2], argv[3], atof(argv[4]));
    if (argc != 4) {
        fprintf(stderr, "usage: pregel_restart full|crash|resume|pagerank|"
                        "pagerank-balanced|pagerank-stop|"
                        "pagerank-balanced-stop|pagerank-resume DIR OUT\n");
        return 2;
    }
    struct job j;
    snprintf(j.mode, sizeof j.mode, "%s", argv[1]);
    snprintf(j.dir, sizeof j.dir, "%s", argv[2]);
    snprintf(j.out, sizeof j.out, "%s", argv[3]);
    kill_run = strcmp(j.mode, "crash") == 0;
    resumed_at = strcmp(j.mode, "resume") == 0 ? 15 : 0;
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc)
        rc = sgl_algorithms_register(rt);
    if (!rc)
        rc = sgl_pregel_register(&program, &program_id);
    if (!rc)
        rc = sgl_run(rt, job_task, &j, sizeof j);
    if (rc)
        fprintf(stderr, "pregel_restart: %s\n", sgl_error_last());
    sgl_finalize(rt);
    return rc ? 1 : 0;
}
