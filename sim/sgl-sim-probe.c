/* sgl-sim-probe: the link parameters of a flat tree's one MPI level,
 * measured inside a SimGrid SMPI simulation through the runtime's own
 * supersteps, so that a machine file and the simulation share them
 * (sim/probe writes the machine files of sim/platforms/ from its output).
 *
 *   scatter    b bytes to each of the p children, an empty task:
 *              t = 2 l + p b g_down
 *   gather     an empty command, each child puts b bytes:
 *              t = 2 l + p b g_up
 *   exchange   each worker sends b bytes to the next one (h = b), the
 *              master's sgl_exchange() alone timed: t = l_h + b g_h
 *
 * g from b = 1 KiB to 256 KiB by least squares (the simulation is
 * deterministic: one run per size after a warm-up); l and l_h from the
 * same steps with b = 0: run on two ranks, a superstep's latency with one
 * child; on all ranks, that latency at the full fan-out (the command and
 * reply headers of every child).
 *
 * first      an empty superstep at the start of a run (after the runs
 *              before it): t = 2 l + the run's start (docs/model.md)
 *
 * Output, one line on rank 0 (seconds, seconds per byte):
 *   probe p P l L g_down G g_up G xl L xg G first T
 *
 * With --classes B1,B2,... (ascending block sizes in bytes, B1 = 0; run
 * on two ranks), instead one line per message-size class [Bk, Bk+1)
 * (docs/model.md, "Message sizes"): a scatter and a gather of one block
 * at two sizes inside the class, b1 = Bk + 64 (1 for B1) and b2 = Bk+1 - 64
 * (the last class: 1 MiB; 64 bytes in from each bound, as a reply's
 * header is 32 bytes shorter than a command's), less the empty
 * superstep, give its g and the latency its blocks add (clamped at 0):
 *   class from B l_down T g_down G l_up T g_up G
 *
 * Usage: smpirun ... sgl-sim-probe [--classes LIST]
 *        (SGL_SHAPE unset or "rank:P"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <sgl/exchange.h>
#include <sgl/sgl.h>

#define NSIZES 5
static const size_t sizes[NSIZES] = {1024, 8192, 32768, 131072, 262144};
/* The largest block of any probe: the last size class's second point. */
#define MAX_BYTES ((size_t)1 << 20)
#define MAX_CLASSES 16

enum probe_kind { P_DOWN, P_UP, P_X };

struct probe_arg {
    enum probe_kind kind;
    size_t bytes;
    size_t workers;
};

/* A worker's part: put @bytes up, or stage @bytes for the next worker. */
static int child_task(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)size;
    const struct probe_arg *a = arg;
    char *buf = sgl_ctx_state(ctx);
    if (!buf) {
        buf = calloc(1, MAX_BYTES);
        if (!buf)
            return sgl_error_set(SGL_ENOMEM, "probe: no memory");
        sgl_ctx_set_state(ctx, buf, free);
    }
    if (a->kind == P_UP)
        return sgl_put(ctx, buf, 1, a->bytes);
    if (a->kind == P_X)
        return sgl_exchange_put(ctx, buf, 1,
                                (sgl_ctx_first_worker(ctx) + 1) % a->workers,
                                1, &a->bytes);
    return SGL_OK;
}

/* One timed superstep of @kind with @bytes per child, on the root. */
static int step(sgl_ctx_t *root, enum probe_kind kind, size_t bytes,
                char *src, size_t *counts, double *ret_t)
{
    unsigned p = sgl_ctx_children(root);
    struct probe_arg a = {kind, bytes, p};
    for (unsigned i = 0; i < p; i++)
        counts[i] = kind == P_DOWN ? bytes : 0;
    double t0 = MPI_Wtime();
    int rc = SGL_OK;
    if (kind == P_DOWN)
        rc = sgl_scatter(root, src, 1, counts);
    if (kind == P_X) {
        rc = sgl_pardo(root, child_task, &a, sizeof a);
        t0 = MPI_Wtime();
        if (rc == SGL_OK)
            rc = sgl_exchange(root);
    } else if (rc == SGL_OK) {
        rc = sgl_pardo(root, child_task, &a, sizeof a);
    }
    if (rc == SGL_OK && kind == P_UP)
        rc = sgl_gather(root, src, 1, (size_t)p * bytes, NULL);
    *ret_t = MPI_Wtime() - t0;
    return rc;
}

/* Least squares t = a + x g over the sizes. */
static void fit(const double *x, const double *t, double *a, double *g)
{
    double sx = 0, st = 0, sxx = 0, sxt = 0, n = NSIZES;
    for (int i = 0; i < NSIZES; i++) {
        sx += x[i];
        st += t[i];
        sxx += x[i] * x[i];
        sxt += x[i] * t[i];
    }
    *g = (n * sxt - sx * st) / (n * sxx - sx * sx);
    *a = (st - *g * sx) / n;
}

/* One kind: the time of an empty step in @t0, the slope per byte of x
 * (p b, or b) in @g. */
static int measure(sgl_ctx_t *root, enum probe_kind kind, char *src,
                   size_t *counts, double *t0, double *g)
{
    double x[NSIZES], t[NSIZES], a;
    double per = kind == P_X ? 1 : sgl_ctx_children(root);
    int rc = SGL_OK;
    for (int rep = 0; rep < 2 && rc == SGL_OK; rep++)
        rc = step(root, kind, 0, src, counts, t0);
    for (int i = 0; i < NSIZES && rc == SGL_OK; i++) {
        for (int rep = 0; rep < 2 && rc == SGL_OK; rep++)
            rc = step(root, kind, sizes[i], src, counts, &t[i]);
        x[i] = per * (double)sizes[i];
    }
    if (rc == SGL_OK)
        fit(x, t, &a, g);
    return rc;
}

/* The root's results, printed once every run is done. */
static struct probe_line {
    unsigned p;
    double l, gd, gu, xl, xg, first;
} g_line;

static int probe_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    unsigned p = sgl_ctx_children(root);
    if (p == 0 || sgl_ctx_workers(root) != p)
        return sgl_error_set(SGL_ESHAPE, "probe: needs a flat tree of MPI "
                                         "ranks (SGL_SHAPE=\"rank:P\")");
    char *src = calloc(p, sizes[NSIZES - 1]);
    size_t *counts = calloc(p, sizeof *counts);
    double td, gd, tu, gu, xl, xg;
    int rc = src && counts ? SGL_OK
                           : sgl_error_set(SGL_ENOMEM, "probe: no memory");
    if (rc == SGL_OK)
        rc = measure(root, P_DOWN, src, counts, &td, &gd);
    if (rc == SGL_OK)
        rc = measure(root, P_UP, src, counts, &tu, &gu);
    if (rc == SGL_OK)
        rc = measure(root, P_X, src, counts, &xl, &xg);
    if (rc == SGL_OK)
        g_line = (struct probe_line){p, (td + tu) / 4, gd, gu, xl, xg, 0};
    free(src);
    free(counts);
    return rc;
}

/* --classes: the boundaries, and each class's line. */
static size_t g_from[MAX_CLASSES];
static unsigned g_nclass;
static double g_class[MAX_CLASSES][4];

/* One direction's superstep with one block of @b bytes, less @t0. */
static int timed(sgl_ctx_t *root, enum probe_kind kind, size_t b, char *src,
                 size_t *counts, double t0, double *ret)
{
    int rc = SGL_OK;
    for (int rep = 0; rep < 2 && rc == SGL_OK; rep++)
        rc = step(root, kind, b, src, counts, ret);
    *ret -= t0;
    return rc;
}

/* Class @k of one direction: its l into @ret[0], its g into @ret[1]. */
static int measure_class(sgl_ctx_t *root, enum probe_kind kind, unsigned k,
                         char *src, size_t *counts, double *ret)
{
    double t0 = 0, t1 = 0, t2 = 0;
    size_t b1 = g_from[k] ? g_from[k] + 64 : 1;
    size_t b2 = k + 1 < g_nclass ? g_from[k + 1] - 64 : MAX_BYTES;
    int rc = timed(root, kind, 0, src, counts, 0, &t0);
    if (rc == SGL_OK)
        rc = timed(root, kind, b1, src, counts, t0, &t1);
    if (rc == SGL_OK)
        rc = timed(root, kind, b2, src, counts, t0, &t2);
    double g = (t2 - t1) / (double)(b2 - b1);
    ret[0] = t1 - (double)b1 * g > 1e-12 ? t1 - (double)b1 * g : 0;
    ret[1] = g > 0 ? g : 0;
    return rc;
}

static int classes_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    unsigned p = sgl_ctx_children(root);
    if (p != 2 || sgl_ctx_workers(root) != p)
        return sgl_error_set(SGL_ESHAPE, "probe --classes: needs two ranks "
                                         "(SGL_SHAPE=\"rank:2\")");
    char *src = calloc(p, MAX_BYTES);
    size_t *counts = calloc(p, sizeof *counts);
    int rc = src && counts ? SGL_OK
                           : sgl_error_set(SGL_ENOMEM, "probe: no memory");
    for (unsigned k = 0; k < g_nclass && rc == SGL_OK; k++) {
        rc = measure_class(root, P_DOWN, k, src, counts, g_class[k]);
        if (rc == SGL_OK)
            rc = measure_class(root, P_UP, k, src, counts, g_class[k] + 2);
    }
    free(src);
    free(counts);
    return rc;
}

/* "0,257,..." into g_from: ascending, starting at 0, each class at least
 * 130 bytes wide (two points 64 bytes in from its bounds), below MAX_BYTES. */
static int parse_classes(const char *list)
{
    char *end;
    g_nclass = 0;
    for (const char *s = list; *s; s = *end ? end + 1 : end) {
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s || (*end && *end != ',') || g_nclass == MAX_CLASSES ||
            v >= MAX_BYTES / 2 || (g_nclass == 0 && v != 0) ||
            (g_nclass > 0 && v < g_from[g_nclass - 1] + 130))
            return sgl_error_set(SGL_EINVAL,
                                 "--classes '%s': expected at most %d "
                                 "ascending sizes in bytes from 0, each "
                                 "at least 130 above the last and below "
                                 "%zu",
                                 list, MAX_CLASSES, MAX_BYTES / 2);
        g_from[g_nclass++] = (size_t)v;
    }
    return g_nclass ? SGL_OK
                    : sgl_error_set(SGL_EINVAL, "--classes: empty list");
}

/* The first superstep of a run, alone: an empty pardo right after the
 * run starts, timed on the root. The runs before it end with a stop to
 * every child, which a real MPI delivers eagerly but SMPI only once the
 * child has posted its receive: the command waits behind it. */
static int first_main(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    struct probe_arg a = {P_DOWN, 0, sgl_ctx_children(root)};
    double t0 = MPI_Wtime();
    int rc = sgl_pardo(root, child_task, &a, sizeof a);
    g_line.first = MPI_Wtime() - t0;
    return rc;
}

int main(int argc, char **argv)
{
    sgl_runtime_t *rt;
    int rc = sgl_init(&argc, &argv, NULL, &rt);
    if (rc != SGL_OK) {
        fprintf(stderr, "sgl-sim-probe: %s\n", sgl_error_last());
        return 1;
    }
    int classes = argc == 3 && strcmp(argv[1], "--classes") == 0;
    rc = classes ? parse_classes(argv[2])
         : argc > 1 ? sgl_error_set(SGL_EINVAL, "unknown argument '%s' "
                                                "(--classes LIST or none)",
                                    argv[1])
                    : SGL_OK;
    if (rc == SGL_OK)
        rc = sgl_task_register(rt, child_task, "probe_child");
    if (rc == SGL_OK)
        rc = sgl_task_register(rt, probe_main, "probe_main");
    if (rc == SGL_OK)
        rc = sgl_task_register(rt, first_main, "probe_first");
    if (rc == SGL_OK)
        rc = sgl_task_register(rt, classes_main, "probe_classes");
    if (rc == SGL_OK && classes) {
        rc = sgl_run(rt, classes_main, NULL, 0);
        for (unsigned k = 0; rc == SGL_OK && k < g_nclass &&
                             sgl_runtime_rank(rt) == 0; k++)
            printf("class from %zu l_down %.6g g_down %.6g l_up %.6g "
                   "g_up %.6g\n",
                   g_from[k], g_class[k][0], g_class[k][1], g_class[k][2],
                   g_class[k][3]);
    }
    if (rc == SGL_OK && !classes)
        rc = sgl_run(rt, probe_main, NULL, 0);
    for (int rep = 0; rep < 2 && rc == SGL_OK && !classes; rep++)
        rc = sgl_run(rt, first_main, NULL, 0);
    if (rc == SGL_OK && !classes && sgl_runtime_rank(rt) == 0)
        printf("probe p %u l %.6g g_down %.6g g_up %.6g xl %.6g xg %.6g "
               "first %.6g\n",
               g_line.p, g_line.l, g_line.gd, g_line.gu, g_line.xl, g_line.xg,
               g_line.first);
    if (rc != SGL_OK && sgl_runtime_rank(rt) == 0)
        fprintf(stderr, "sgl-sim-probe: %s\n", sgl_error_last());
    int frc = sgl_finalize(rt);
    return rc == SGL_OK && frc == SGL_OK ? 0 : 1;
}
