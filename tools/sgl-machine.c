/* sgl-machine: show the machine tree SGL builds, from discovery (also
 * under mpirun, where it is collective and rank 0 prints), a shape string
 * or an hwloc XML export. Exit status: 0 success, 1 bad input or failure,
 * 2 usage error. */
#include <getopt.h>
#include <hwloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/machine.h>
#include <sgl/version.h>
#include "machine_impl.h"

static void usage(FILE *f)
{
    fputs("Usage: sgl-machine [OPTION]...\n"
          "Print the SGL machine tree: discovered (hwloc in each process, MPI\n"
          "across processes; run under mpirun for several ranks), or given.\n"
          "\n"
          "  --shape STR      tree from a shape, e.g. \"rank:16 core:8\" or\n"
          "                   \"rank:2 core:[3,5]\"\n"
          "  --xml FILE       tree from an hwloc XML export (lstopo --of xml)\n"
          "  --json           write JSON instead of the listing\n"
          "  --keep-single    keep levels that have a single child\n"
          "  --max-lines N    show at most N alike siblings in a row (0: all)\n"
          "  --full           every node, however large the tree (--max-lines 0)\n"
          "  --summary        fold alike siblings into one line each\n"
          "                   (--max-lines 1; the default above 256 nodes)\n"
          "  -h, --help       show this help\n"
          "  -V, --version    show the version\n"
          "\n"
          "An option's value may follow it (--shape STR) or be joined to it\n"
          "by '=' (--shape=STR).\n"
          "\n"
          "Without --shape or --xml, SGL_SHAPE and then SGL_XML give the tree\n"
          "as they do to programs; the Source line names the variable.\n"
          "Discovery honours the process's CPU binding and OMP_NUM_THREADS.\n"
          "A tree with more workers per process than this process's\n"
          "processing units is warned about on stderr, as sgl_init does.\n",
          f);
}

/* The offending argument is quoted escaped: it may hold control
 * characters (a pasted escape sequence) that must not reach a terminal. */
static int usage_error(const char *fmt, const char *arg)
{
    char e[4096];
    fputs("sgl-machine: ", stderr);
    fprintf(stderr, fmt, sgl__escape(arg, 1000, e, sizeof e));
    fputs("\nTry 'sgl-machine --help'.\n", stderr);
    return 2;
}

/* Trees above this many nodes print folded unless --full or --max-lines
 * says otherwise: core:16777216 in full is 548 MB of alike lines. */
enum { SUMMARY_ABOVE = 256 };

static int show(const sgl_machine_t *m, int json, int max_lines)
{
    if (max_lines < 0) {
        size_t nodes = 0;
        for (unsigned l = 0; l <= sgl_machine_depth(m); l++)
            nodes += sgl_machine_level_size(m, l);
        max_lines = nodes > SUMMARY_ABOVE ? 1 : 0;
    }
    int rc = json ? sgl_machine_write_json(m, stdout)
                  : sgl_machine_print(m, stdout, (unsigned)max_lines);
    if (rc) {
        fprintf(stderr, "sgl-machine: %s\n", sgl_error_last());
        return 1;
    }
    return 0;
}

/* Long options without a short form have values above any character, so
 * that getopt_long's optopt tells a long option's fault from a short one's. */
enum {
    OPT_SHAPE = 256,
    OPT_XML,
    OPT_JSON,
    OPT_KEEP_SINGLE,
    OPT_MAX_LINES,
    OPT_FULL,
    OPT_SUMMARY,
    OPT_HELP,
    OPT_VERSION,
};

static const struct option longopts[] = {
    {"shape", required_argument, NULL, OPT_SHAPE},
    {"xml", required_argument, NULL, OPT_XML},
    {"json", no_argument, NULL, OPT_JSON},
    {"keep-single", no_argument, NULL, OPT_KEEP_SINGLE},
    {"max-lines", required_argument, NULL, OPT_MAX_LINES},
    {"full", no_argument, NULL, OPT_FULL},
    {"summary", no_argument, NULL, OPT_SUMMARY},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* What getopt_long refused (@p c is '?' or ':'), in our words: the
 * option's full name, as the user may have typed an abbreviation. */
static int option_error(int c, char **argv)
{
    for (const struct option *o = longopts; o->name; o++)
        if (optopt >= OPT_SHAPE && o->val == optopt)
            return usage_error(c == ':' ? "option --%s needs a value"
                                        : "option --%s takes no value",
                               o->name);
    if (optopt == 0)
        return usage_error("unknown option '%s'", argv[optind - 1]);
    char opt[3] = {'-', (char)optopt, '\0'};
    return usage_error("unknown option '%s'", opt);
}

struct args {
    const char *shape, *xml;
    const char *from; /* the variable that gave shape or xml; NULL: option */
    int json;
    int max_lines; /* -1: by the tree's size */
    sgl_machine_opts_t opts;
};

/* The command line into @p a. Returns -1 to go on, else the exit status
 * (help, version, or a usage error). */
static int parse_args(int argc, char **argv, struct args *a)
{
    int c;
    opterr = 0; /* our own messages, and exit status 2 */
    while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
        case OPT_HELP:
            usage(stdout);
            return 0;
        case 'V':
        case OPT_VERSION:
            printf("sgl-machine %s\n", sgl_version());
            return 0;
        case OPT_SHAPE:
            a->shape = optarg;
            break;
        case OPT_XML:
            a->xml = optarg;
            break;
        case OPT_JSON:
            a->json = 1;
            break;
        case OPT_KEEP_SINGLE:
            a->opts.keep_single = 1;
            break;
        case OPT_MAX_LINES: {
            char *end;
            unsigned long v = strtoul(optarg, &end, 10);
            if (!*optarg || *end || optarg[0] == '-' || v > 1000000)
                return usage_error("--max-lines wants a number from 0 to "
                                   "1000000, not '%s'",
                                   optarg);
            a->max_lines = (int)v;
            break;
        }
        case OPT_FULL:
            a->max_lines = 0;
            break;
        case OPT_SUMMARY:
            a->max_lines = 1;
            break;
        default: /* '?' or ':' */
            return option_error(c, argv);
        }
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    if (a->shape && a->xml)
        return usage_error("--shape and --xml exclude each other%s", "");
    return -1;
}

/* The runtime's warning for a process running @p workers threads here
 * (sgl__oversub_warning()), on stderr. */
static void warn_oversubscribed(size_t workers)
{
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo))
        return;
    char w[320];
    if (hwloc_topology_load(topo) == 0 &&
        sgl__oversub_warning(w, sizeof w, 1, 0, workers, workers,
                             sgl__process_pus(topo)))
        fprintf(stderr, "warning: %s\n", w);
    hwloc_topology_destroy(topo);
}

/* The Source line names the variable a tree came from, so that a listing
 * never passes off SGL_SHAPE's tree as this host's. */
static int source_from(sgl_machine_t *m, const char *from)
{
    if (!from)
        return SGL_OK;
    size_t len = strlen(m->source) + strlen(from) + 4;
    char *s = malloc(len);
    if (!s)
        return sgl_error_set(SGL_ENOMEM, "out of memory");
    snprintf(s, len, "%s (%s)", m->source, from);
    free(m->source);
    m->source = s;
    return SGL_OK;
}

/* The tree of --shape or --xml. A shape's listing is computed from its
 * levels where it has no lists: the tree is then never built, which for
 * core:16777216 took 62 s and 5.5 GB to print eleven lines. */
static int show_given(const struct args *a)
{
    size_t procs = 0, workers = 0;
    /* Each process of a shape runs its share of the workers. */
    if (a->shape && sgl_shape_counts(a->shape, &procs, &workers) == SGL_OK)
        warn_oversubscribed((workers + procs - 1) / procs);
    if (a->shape && !a->json) {
        int rc = sgl__shape_print(a->shape, a->from, a->opts.keep_single,
                                  stdout, a->max_lines, SUMMARY_ABOVE);
        if (rc < 0)
            fprintf(stderr, "sgl-machine: %s\n", sgl_error_last());
        if (rc <= 0)
            return rc ? 1 : 0;
    }
    sgl_machine_t *m = NULL;
    int rc = a->shape ? sgl_machine_from_shape(a->shape, &a->opts, &m)
                      : sgl_machine_from_xml(a->xml, &a->opts, &m);
    if (!rc)
        rc = source_from(m, a->from);
    if (rc) {
        sgl_machine_free(m);
        fprintf(stderr, "sgl-machine: %s\n", sgl_error_last());
        return 1;
    }
    if (!a->shape)
        warn_oversubscribed(sgl__rank_workers(m, 0));
    int status = show(m, a->json, a->max_lines);
    sgl_machine_free(m);
    return status;
}

/* Discovery, under mpirun collective: rank 0 prints. */
static int show_discovered(int argc, char **argv, const struct args *a)
{
    int provided, rank = 0, size = 1;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) !=
        MPI_SUCCESS) {
        fputs("sgl-machine: MPI_Init_thread failed\n", stderr);
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int status = 0;
    sgl_machine_t *m = NULL;
    int rc = sgl_machine_discover(&a->opts, &m);
    if (rc) {
        if (size > 1)
            fprintf(stderr, "sgl-machine: rank %d: %s\n", rank,
                    sgl_error_last());
        else
            fprintf(stderr, "sgl-machine: %s\n", sgl_error_last());
        status = 1;
    } else if (rank == 0) {
        warn_oversubscribed(sgl__rank_workers(m, 0));
        status = show(m, a->json, a->max_lines);
    }
    sgl_machine_free(m);
    MPI_Finalize();
    return status;
}

int main(int argc, char **argv)
{
    struct args a = {.max_lines = -1};
    sgl_machine_opts_default(&a.opts);
    int status = parse_args(argc, argv, &a);
    if (status >= 0)
        return status;
    /* As sgl_init: an option wins over the variables, SGL_SHAPE over
     * SGL_XML; an empty variable is unset. */
    const char *env_shape = getenv("SGL_SHAPE"), *env_xml = getenv("SGL_XML");
    if (!a.shape && !a.xml && env_shape && *env_shape)
        a.shape = env_shape, a.from = "SGL_SHAPE";
    else if (!a.shape && !a.xml && env_xml && *env_xml)
        a.xml = env_xml, a.from = "SGL_XML";
    if (a.shape || a.xml)
        return show_given(&a);
    return show_discovered(argc, argv, &a);
}
