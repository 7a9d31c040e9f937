/* sgl-predict: the predicted time of a reference algorithm on a machine
 * file, per level and phase, with the speed-up and efficiency against one
 * worker. Exit status: 0 done, 1 bad machine file or failed prediction,
 * 2 bad usage. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/machine.h>
#include "json.h"
#include "machine_impl.h"
#include <sgl/predict.h>
#include <sgl/version.h>

/* The largest machine predicted: the model is evaluated on the machine
 * file's tree, a node per worker (per-worker kernels and per-master
 * overrides name them), and building it is what takes the time. Measured
 * with /usr/bin/time on the paper's parameters, reduce: 2^18 workers
 * 0.9 s and 90 MB, 2^20 3 s and 355 MB, 2^22 12 s and 1.4 GB, 2^24 44 s
 * and 5.6 GB. Above the cap the file is refused at its shape record,
 * before a node is built. */
#define MAX_WORKERS ((size_t)1 << 20)

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: sgl-predict --algo ALGO --n N --machine FILE [options]\n"
            "Predict the run time of an SGL reference algorithm on the "
            "machine FILE\n"
            "describes (docs/machine-file.md), per level and per phase.\n"
            "\n"
            "  --algo ALGO        reduce, scan (scan-then-offset), scan-rts\n"
            "                     (reduce-then-scan), psrs or psrs-levels\n"
            "                     (PSRS by level)\n"
            "  --n N              number of elements, e.g. 1e8\n"
            "  --machine FILE     machine file, of at most 1048576 "
            "workers\n"
            "  --elem-bytes B     bytes per element (default 8)\n"
            "  --op KERNEL        reduction kernel: sum (default), product\n"
            "  --exchange KIND    PSRS's exchange: direct (default) or "
            "routed\n"
            "                     (through the masters, as SGL_EXCHANGE="
            "routed)\n"
            "  --centralised      data starts (and ends) at the root instead "
            "of on\n"
            "                     the workers (reduce, scans)\n"
            "  --json             print JSON instead of a table\n"
            "  -h, --help         show this help\n"
            "  -V, --version      show the version\n"
            "\n"
            "An option's value may follow it (--n 1e8) or be joined to it by\n"
            "'=' (--n=1e8). Every value is checked before the machine file\n"
            "is read. Exit status: 0 done, 1 bad machine file or failed\n"
            "prediction, 2 bad usage.\n");
}

/* The offending argument is quoted escaped: it may hold control
 * characters (a pasted escape sequence) that must not reach a terminal. */
static int usage_error(const char *fmt, const char *arg)
{
    char e[4096];
    fprintf(stderr, "sgl-predict: ");
    fprintf(stderr, fmt, sgl__escape(arg, 1000, e, sizeof e));
    fprintf(stderr, "\nTry 'sgl-predict --help'.\n");
    return 2;
}

static int parse_number(const char *s, double *ret)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v))
        return -1;
    *ret = v;
    return 0;
}

/* Fan-out of a level as text: "16", "3-5" (heterogeneous) or "-". */
static void fanout(const sgl_machine_t *m, unsigned level, char *buf,
                   size_t len)
{
    size_t nm = sgl_machine_level_masters(m, level);
    if (nm == 0) {
        snprintf(buf, len, "-");
        return;
    }
    unsigned lo = ~0u, hi = 0;
    for (size_t i = 0; i < nm; i++) {
        unsigned a = sgl_node_arity(sgl_machine_master(m, level, i));
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    }
    if (lo == hi)
        snprintf(buf, len, "%u", lo);
    else
        snprintf(buf, len, "%u-%u", lo, hi);
}

static const char *level_link(const sgl_machine_t *m, unsigned level)
{
    const sgl_node_t *n = sgl_machine_master(m, level, 0);
    return n ? sgl_link_name(sgl_node_link(n)) : "workers";
}

static const char *algo_title(sgl_predict_algo_t a)
{
    switch (a) {
    case SGL_PREDICT_REDUCE:
        return "reduction";
    case SGL_PREDICT_SCAN:
        return "prefix scan, scan-then-offset";
    case SGL_PREDICT_SCAN_RTS:
        return "prefix scan, reduce-then-scan";
    case SGL_PREDICT_PSRS:
        return "PSRS sort";
    case SGL_PREDICT_PSRS_LEVELS:
        return "PSRS sort by level";
    }
    return "?";
}

/* The prediction as JSON on stdout. Returns 0, or -1 when writing
 * failed. */
static int print_json(const sgl_machine_t *m, const char *path,
                      sgl_predict_algo_t algo, double n,
                      const sgl_predict_opts_t *o, const sgl_prediction_t *r)
{
    struct sgl__json j;
    sgl__json_init(&j, stdout, 1);
    sgl__json_begin_document(&j, "sgl-predict", 1);
    sgl__json_string(&j, "algo", sgl_predict_algo_name(algo));
    sgl__json_number(&j, "n", n);
    sgl__json_number(&j, "elem_bytes", o->elem_bytes);
    sgl__json_bool(&j, "centralised", o->centralised);
    sgl__json_string(&j, "exchange", o->routed ? "routed" : "direct");
    sgl__json_string(&j, "machine", path);
    sgl__json_string(&j, "shape", sgl_machine_shape(m));
    sgl__json_uint(&j, "workers", r->workers);
    sgl__json_number(&j, "total_s", r->total);
    sgl__json_number(&j, "sequential_s", r->sequential);
    /* The predictor refuses non-finite times; a speed-up over a zero time
     * (a machine of zero costs) has no value: the writer makes it null. */
    sgl__json_number(&j, "speedup", r->speedup);
    sgl__json_number(&j, "efficiency", r->efficiency);
    sgl__json_begin_array(&j, "levels");
    double above = 0;
    for (unsigned l = 0; l < r->levels; l++) {
        const sgl_level_cost_t *c = &r->level[l];
        double own = sgl_level_cost_own(c);
        above += own;
        char p[32];
        fanout(m, l, p, sizeof p);
        sgl__json_begin_object(&j, NULL);
        sgl__json_uint(&j, "level", l);
        sgl__json_uint(&j, "nodes", sgl_machine_level_size(m, l));
        sgl__json_string(&j, "link", level_link(m, l));
        sgl__json_string(&j, "p", p);
        sgl__json_number(&j, "supersteps", c->supersteps);
        sgl__json_number(&j, "work_s", c->work);
        sgl__json_number(&j, "scatter_s", c->scatter);
        sgl__json_number(&j, "gather_s", c->gather);
        sgl__json_number(&j, "syncs_s", c->syncs);
        sgl__json_number(&j, "exchange_s", c->exchange);
        sgl__json_number(&j, "own_s", own);
        sgl__json_number(&j, "below_s", r->total - above);
        sgl__json_number(&j, "bytes_down", c->bytes_down);
        sgl__json_number(&j, "bytes_up", c->bytes_up);
        sgl__json_number(&j, "bytes_h", c->bytes_h);
        sgl__json_end_object(&j);
    }
    sgl__json_end_array(&j);
    sgl__json_end_object(&j);
    return sgl__json_finish(&j) ? -1 : 0;
}

static void print_table(const sgl_machine_t *m, const char *path,
                        sgl_predict_algo_t algo, double n,
                        const sgl_predict_opts_t *o,
                        const sgl_prediction_t *r)
{
    double t = r->total > r->sequential ? r->total : r->sequential;
    const char *unit = t >= 1 ? "s" : t >= 1e-3 ? "ms" : "us";
    double scale = t >= 1 ? 1 : t >= 1e-3 ? 1e3 : 1e6;
    printf("%s (%s), n = %g elements of %g bytes, data %s\n",
           sgl_predict_algo_name(algo), algo_title(algo), n, o->elem_bytes,
           o->centralised ? "centralised at the root" : "on the workers");
    if (o->routed)
        printf("exchange routed through the masters\n");
    printf("machine %s: shape %s, %zu worker%s\n", path, sgl_machine_shape(m),
           r->workers, r->workers == 1 ? "" : "s");
    const char *method = sgl_machine_provenance(m, "method");
    if (method)
        printf("  measured by: %s\n", method);
    const char *note = sgl_machine_provenance(m, "note");
    if (note)
        printf("  note: %s\n", note);
    printf("\n%5s %7s %-8s %5s %5s %12s %12s %12s %12s %12s %12s %12s\n",
           "level", "nodes", "link", "p", "steps", "work", "scatter",
           "gather", "syncs", "exchange", "own", "below");
    char h[16];
    snprintf(h, sizeof h, "[%s]", unit);
    printf("%5s %7s %-8s %5s %5s %12s %12s %12s %12s %12s %12s %12s\n", "",
           "", "", "", "", h, h, h, h, h, h, h);
    double above = 0;
    for (unsigned l = 0; l < r->levels; l++) {
        const sgl_level_cost_t *c = &r->level[l];
        double own = sgl_level_cost_own(c);
        above += own;
        char p[32], steps[32];
        fanout(m, l, p, sizeof p);
        if (sgl_machine_level_masters(m, l))
            snprintf(steps, sizeof steps, "%g", c->supersteps);
        else
            snprintf(steps, sizeof steps, "-");
        printf("%5u %7zu %-8s %5s %5s %12.5g %12.5g %12.5g %12.5g %12.5g "
               "%12.5g %12.5g\n",
               l, sgl_machine_level_size(m, l), level_link(m, l), p, steps,
               c->work * scale, c->scatter * scale, c->gather * scale,
               c->syncs * scale, c->exchange * scale, own * scale,
               (r->total - above) * scale);
    }
    printf("\npredicted time   %12.5g %s\n", r->total * scale, unit);
    printf("one worker       %12.5g %s  (worker 0's c, no communication)\n",
           r->sequential * scale, unit);
    if (isfinite(r->speedup)) {
        printf("speed-up         %12.2f\n", r->speedup);
        printf("efficiency       %12.2f %%  (of %zu worker%s)\n",
               100 * r->efficiency, r->workers, r->workers == 1 ? "" : "s");
    } else {
        printf("speed-up         %12s  (the predicted time is 0)\n", "-");
    }
}

/* Long options without a short form have values above any character, so
 * that getopt_long's optopt tells a long option's fault from a short one's. */
enum {
    OPT_ALGO = 256,
    OPT_N,
    OPT_MACHINE,
    OPT_ELEM_BYTES,
    OPT_OP,
    OPT_EXCHANGE,
    OPT_CENTRALISED,
    OPT_JSON,
    OPT_HELP,
    OPT_VERSION,
};

static const struct option longopts[] = {
    {"algo", required_argument, NULL, OPT_ALGO},
    {"n", required_argument, NULL, OPT_N},
    {"machine", required_argument, NULL, OPT_MACHINE},
    {"elem-bytes", required_argument, NULL, OPT_ELEM_BYTES},
    {"op", required_argument, NULL, OPT_OP},
    {"exchange", required_argument, NULL, OPT_EXCHANGE},
    {"centralised", no_argument, NULL, OPT_CENTRALISED},
    {"centralized", no_argument, NULL, OPT_CENTRALISED},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* What getopt_long refused (@p c is '?' or ':'), in our words: the
 * option's full name, as the user may have typed an abbreviation. */
static int option_error(int c, char **argv)
{
    char name[64];
    snprintf(name, sizeof name, "-%c", optopt);
    for (const struct option *o = longopts; o->name; o++)
        if (o->val == optopt)
            snprintf(name, sizeof name, "--%s", o->name);
    if (c == ':')
        return usage_error("option %s needs a value", name);
    if (optopt >= OPT_ALGO)
        return usage_error("option %s takes no value", name);
    if (optopt == 0)
        return usage_error("unknown option %s", argv[optind - 1]);
    return usage_error("unknown option %s", name);
}

struct args {
    const char *path;
    sgl_predict_algo_t algo;
    int have_algo;
    double n; /* 0 until given: a given n is >= 1 */
    int json;
    sgl_predict_opts_t o;
};

/* One option's value, checked at once: a bad value is named with its
 * option before anything is loaded. Returns 0, or the exit status. */
static int take_option(int c, const char *v, struct args *a)
{
    switch (c) {
    case OPT_ALGO:
        if (sgl_predict_algo_from_name(v, &a->algo))
            return usage_error("--algo: %s", sgl_error_last());
        a->have_algo = 1;
        return 0;
    case OPT_N:
        if (parse_number(v, &a->n) || !(a->n >= 1))
            return usage_error("--n: '%s' is not a number of elements >= 1",
                               v);
        return 0;
    case OPT_MACHINE:
        a->path = v;
        return 0;
    case OPT_ELEM_BYTES:
        if (parse_number(v, &a->o.elem_bytes) || !(a->o.elem_bytes > 0))
            return usage_error("--elem-bytes: '%s' is not a positive number",
                               v);
        return 0;
    case OPT_OP:
        if (strcmp(v, "sum") && strcmp(v, "product"))
            return usage_error("--op: '%s' is neither sum nor product", v);
        a->o.op_kernel = v;
        return 0;
    case OPT_EXCHANGE:
        if (strcmp(v, "direct") && strcmp(v, "routed"))
            return usage_error("--exchange: '%s' is neither direct nor "
                               "routed",
                               v);
        a->o.routed = strcmp(v, "routed") == 0;
        return 0;
    case OPT_CENTRALISED:
        a->o.centralised = 1;
        return 0;
    case OPT_JSON:
        a->json = 1;
        return 0;
    }
    return 2;
}

int main(int argc, char **argv)
{
    struct args a = {.path = NULL};
    sgl_predict_opts_default(&a.o);
    int c;
    opterr = 0; /* our own messages, and exit status 2 */
    while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
        if (c == 'h' || c == OPT_HELP) {
            usage(stdout);
            return 0;
        }
        if (c == 'V' || c == OPT_VERSION) {
            printf("sgl-predict %s\n", sgl_version());
            return 0;
        }
        if (c == '?' || c == ':')
            return option_error(c, argv);
        int status = take_option(c, optarg, &a);
        if (status)
            return status;
    }
    if (optind < argc)
        return usage_error("unexpected argument %s", argv[optind]);
    if (!a.have_algo || a.n == 0 || !a.path)
        return usage_error("%s", "--algo, --n and --machine are required");
    sgl_machine_t *m;
    _Static_assert(MAX_WORKERS == 1048576, "the cap in --help");
    int rc = sgl__machine_load_max(a.path, MAX_WORKERS, &m);
    if (rc) {
        fprintf(stderr, "sgl-predict: %s%s\n", sgl_error_last(),
                rc == SGL_ERANGE ? "; sgl-predict evaluates machines of up "
                                   "to 1048576 workers (see --help)"
                                 : "");
        return 1;
    }
    sgl_prediction_t r;
    if (sgl_predict_algorithm(m, a.algo, a.n, &a.o, &r)) {
        fprintf(stderr, "sgl-predict: %s: %s\n", a.path, sgl_error_last());
        sgl_machine_free(m);
        return 1;
    }
    int failed = 0;
    if (a.json)
        failed = print_json(m, a.path, a.algo, a.n, &a.o, &r);
    else
        print_table(m, a.path, a.algo, a.n, &a.o, &r);
    sgl_machine_free(m);
    if (failed || fflush(stdout) || ferror(stdout)) {
        fprintf(stderr, "sgl-predict: writing the output failed\n");
        return 1;
    }
    return 0;
}
