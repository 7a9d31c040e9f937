/* How waiting threads and ranks should wait on an oversubscribed host
 * (docs/guide.md, "Waiting and oversubscription"): each comparison runs
 * one program in two settings, A and B, interleaved (A B A B ..., a fresh
 * process each time, so OpenMP and SGL read their settings at start) so
 * that background load hits both alike, and prints per setting the median
 * and the spread of the time per empty superstep and per small
 * reduction, and per pair the ratio B / A with its median and spread.
 *
 *   bench_wait --compare omp [--pairs 9] [--shape 'core:4']
 *       one process, SGL_SHAPE core:4 (more threads than a 2-PU box has):
 *       A = OMP_WAIT_POLICY unset (libgomp spins), B = PASSIVE.
 *   bench_wait --compare sgl [--pairs 9] [--ranks 2]
 *       under mpiexec, SGL_SHAPE 'rank:2 core:2', OMP_WAIT_POLICY=PASSIVE:
 *       A = SGL_WAIT=active (ranks poll), B = SGL_WAIT=auto (the default:
 *       passive when sgl_init finds the host oversubscribed).
 *   --steps N, --reductions N, --n N: the work of one run.
 *
 * The figures are only as quiet as the machine: the load average is
 * printed before and after. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <time.h>
#include <unistd.h>

#include <sgl/sgl.h>

struct work {
    unsigned steps, reductions;
    size_t n;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- the measured program (--child) ---- */

/* One superstep on every level, with nothing to do. */
static int empty_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    return sgl_ctx_is_master(ctx) ? sgl_pardo(ctx, empty_task, arg, size)
                                  : SGL_OK;
}

/* The SGL paper's reduction (examples/reduction.c), with a sum. */
static int sum_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)arg, (void)size;
    const double *src;
    size_t n;
    double res = 0;
    SGL_TRY(sgl_recv_view(ctx, sizeof *src, (const void **)&src, &n));
    if (sgl_ctx_is_master(ctx)) {
        double *lst;
        SGL_TRY(sgl_scatter_split(ctx, src, sizeof *src, n, NULL));
        SGL_TRY(sgl_pardo(ctx, sum_task, NULL, 0));
        SGL_TRY(sgl_gather_alloc(ctx, sizeof res, (void **)&lst, &n, NULL));
        src = lst;
    }
    for (size_t i = 0; i < n; i++)
        res += src[i];
    if (sgl_ctx_is_master(ctx))
        free((void *)src);
    return sgl_put(ctx, &res, sizeof res, 1);
}

/* At the root: the timed loops; prints "empty_us reduce_us". */
static int root_task(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)size;
    const struct work *w = arg;
    double *x = malloc(w->n * sizeof *x), *lst, sum = 0;
    if (!x)
        return sgl_error_set(SGL_ENOMEM, "bench_wait: out of memory");
    for (size_t i = 0; i < w->n; i++)
        x[i] = 1.0;
    double t0 = now();
    for (unsigned s = 0; s < w->steps; s++)
        SGL_TRY(empty_task(root, NULL, 0));
    double t1 = now();
    size_t p;
    for (unsigned r = 0; r < w->reductions; r++) {
        SGL_TRY(sgl_scatter_split(root, x, sizeof *x, w->n, NULL));
        SGL_TRY(sgl_pardo(root, sum_task, NULL, 0));
        SGL_TRY(sgl_gather_alloc(root, sizeof sum, (void **)&lst, &p, NULL));
        sum = 0;
        for (size_t i = 0; i < p; i++)
            sum += lst[i];
        free(lst);
    }
    double t2 = now();
    free(x);
    if (sum != (double)w->n)
        return sgl_error_set(SGL_ETASK, "bench_wait: sum %g, not %zu", sum,
                             w->n);
    printf("%.3f %.3f\n", 1e6 * (t1 - t0) / w->steps,
           1e6 * (t2 - t1) / w->reductions);
    return SGL_OK;
}

static int child(int argc, char **argv, const struct work *w)
{
    sgl_runtime_t *rt = NULL;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (!rc)
        rc = sgl_task_register(rt, empty_task, "bench_wait.empty");
    if (!rc)
        rc = sgl_task_register(rt, sum_task, "bench_wait.sum");
    if (!rc)
        rc = sgl_task_register(rt, root_task, "bench_wait.root");
    if (!rc)
        rc = sgl_run(rt, root_task, w, sizeof *w);
    if (rc)
        fprintf(stderr, "bench_wait: %s\n", sgl_error_last());
    return sgl_finalize(rt) || rc ? 1 : 0;
}

/* ---- the driver ---- */

struct setting {
    const char *name;
    const char *env; /* words for env(1), first: -u NAME, NAME=value */
};

struct comparison {
    const char *what;
    const char *common;   /* env(1) words both settings share */
    const char *launcher; /* before the program: "" or mpiexec's words */
    struct setting s[2];
};

/* One run of setting @s; its two figures, or -1 on a failure. */
static int run_once(const struct comparison *c, const struct setting *s,
                    const char *self, const struct work *w, double ret[2])
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "env %s %s timeout 300 %s '%s' --child --steps %u "
             "--reductions %u --n %zu",
             s->env, c->common, c->launcher, self, w->steps, w->reductions,
             w->n);
    FILE *p = popen(cmd, "r");
    char line[256];
    int got = 0;
    while (p && fgets(line, sizeof line, p))
        got = sscanf(line, "%lf %lf", &ret[0], &ret[1]) == 2 || got;
    int status = p ? pclose(p) : -1;
    if (status != 0 || !got) {
        fprintf(stderr, "bench_wait: failed (status %d): %s\n", status, cmd);
        return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median, min and max of @n values (sorted in place). */
static void summary(double *v, size_t n, double out[3])
{
    qsort(v, n, sizeof *v, cmp_double);
    out[0] = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    out[1] = v[0];
    out[2] = v[n - 1];
}

static void print_load(const char *when)
{
    FILE *f = fopen("/proc/loadavg", "r");
    char buf[128] = "unknown";
    if (f && !fgets(buf, sizeof buf, f))
        snprintf(buf, sizeof buf, "unknown\n");
    if (f)
        fclose(f);
    printf("# load average %s: %s", when, buf);
}

/* fig[pair][setting][metric] */
static void report(const struct comparison *c, double (*fig)[2][2],
                   unsigned pairs)
{
    static const char *const metric[2] = {"empty superstep", "reduction"};
    double *v = malloc(pairs * sizeof *v), s[3];
    for (unsigned m = 0; v && m < 2; m++) {
        printf("%s, us (median [min, max] of %u runs):\n", metric[m], pairs);
        for (unsigned k = 0; k < 2; k++) {
            for (unsigned i = 0; i < pairs; i++)
                v[i] = fig[i][k][m];
            summary(v, pairs, s);
            printf("  %s %-28s %10.1f [%.1f, %.1f]\n", k ? "B" : "A",
                   c->s[k].name, s[0], s[1], s[2]);
        }
        for (unsigned i = 0; i < pairs; i++)
            v[i] = fig[i][1][m] / fig[i][0][m];
        summary(v, pairs, s);
        printf("  B / A per pair: median %.3f [%.3f, %.3f]\n", s[0], s[1],
               s[2]);
    }
    free(v);
}

static int drive(const struct comparison *c, const struct work *w,
                 unsigned pairs)
{
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return fprintf(stderr, "bench_wait: cannot find myself\n"), 1;
    self[len] = 0;
    double(*fig)[2][2] = calloc(pairs, sizeof *fig);
    if (!fig)
        return 1;
    printf("# bench_wait --compare %s: %u pairs A B interleaved, %u empty "
           "supersteps and %u reductions of %zu doubles per run\n"
           "# both: %s %s\n",
           c->what, pairs, w->steps, w->reductions, w->n, c->common,
           c->launcher);
    print_load("before");
    int rc = 0;
    for (unsigned i = 0; i < pairs && !rc; i++)
        for (unsigned k = 0; k < 2 && !rc; k++) {
            rc = run_once(c, &c->s[k], self, w, fig[i][k]);
            if (!rc)
                printf("pair %u %s %.1f %.1f\n", i + 1, k ? "B" : "A",
                       fig[i][k][0], fig[i][k][1]);
            fflush(stdout);
        }
    print_load("after");
    if (!rc)
        report(c, fig, pairs);
    free(fig);
    return rc ? 1 : 0;
}

/* A positive count from @s, or 0. */
static unsigned long count_of(const char *s)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    return errno || *end || !*s || s[0] == '-' ? 0 : v;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_wait --compare omp|sgl [--pairs N >= 3] "
                    "[--shape S] [--ranks N] [--steps N] [--reductions N] "
                    "[--n N]\n");
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        {"compare", 1, NULL, 'c'}, {"pairs", 1, NULL, 'p'},
        {"shape", 1, NULL, 's'},   {"ranks", 1, NULL, 'r'},
        {"steps", 1, NULL, 'S'},   {"reductions", 1, NULL, 'R'},
        {"n", 1, NULL, 'n'},       {"child", 0, NULL, 'C'},
        {NULL, 0, NULL, 0}};
    struct work w = {2000, 200, 1 << 14};
    const char *what = NULL, *shape = NULL;
    unsigned long pairs = 9, ranks = 2, v = 1;
    int is_child = 0, o;
    while (v && (o = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        v = o == 'c' || o == 's' || o == 'C' ? 1 : o == '?' ? 0
                                                            : count_of(optarg);
        if (o == 'c')
            what = optarg;
        else if (o == 's')
            shape = optarg;
        else if (o == 'C')
            is_child = 1;
        else if (o == 'p')
            pairs = v;
        else if (o == 'r')
            ranks = v;
        else if (o == 'S')
            w.steps = (unsigned)v;
        else if (o == 'R')
            w.reductions = (unsigned)v;
        else if (o == 'n')
            w.n = v;
    }
    if (!v || optind < argc || pairs < 3 || pairs > 1000 || ranks > 64 ||
        !w.steps || !w.reductions || !w.n ||
        (!is_child && (!what || (strcmp(what, "omp") && strcmp(what, "sgl")))) ||
        (shape && strchr(shape, '\''))) {
        usage();
        return 2;
    }
    if (is_child)
        return child(argc, argv, &w);
    char common[256], launcher[128];
    int omp = !strcmp(what, "omp");
    snprintf(common, sizeof common,
             "SGL_SHAPE='%s' OMPI_MCA_ess_singleton_isolated=1 %s",
             shape ? shape : omp ? "core:4" : "rank:2 core:2",
             omp ? "" : "OMP_WAIT_POLICY=PASSIVE");
    snprintf(launcher, sizeof launcher,
             omp ? "" : "mpiexec -n %lu --oversubscribe --bind-to none",
             ranks);
    struct comparison c = {
        what, common, launcher,
        {omp ? (struct setting){"OMP_WAIT_POLICY unset", "-u OMP_WAIT_POLICY"}
             : (struct setting){"SGL_WAIT=active", "SGL_WAIT=active"},
         omp ? (struct setting){"OMP_WAIT_POLICY=PASSIVE",
                                "OMP_WAIT_POLICY=PASSIVE"}
             : (struct setting){"SGL_WAIT=auto", "SGL_WAIT=auto"}}};
    return drive(&c, &w, (unsigned)pairs);
}
