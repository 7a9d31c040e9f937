/* bench_psrs --dist: PSRS (sgl_dvec_sort, data on the workers) against the
 * sort peers (sort_peers.h) on the distributions of sort_keys.h, per
 * distribution and size, with medians, spreads and the speed against the
 * best peer. */
#ifndef SGL_BENCH_PSRS_DISTS_H
#define SGL_BENCH_PSRS_DISTS_H

#include <stddef.h>

#include "sort_keys.h"
#include <sgl/sgl.h>

enum { PSRS_DISTS_MAX_SIZES = 16 };

/* The keys' seed: ips4o_alone's default too, so that bench/ips4o_check.sh
 * times both on the same keys. */
enum { PSRS_DISTS_SEED = 1000 };

struct psrs_dists_opts {
    int dists[SORT_KEYS_COUNT]; /* indices into sort_keys_name() */
    int ndists;
    size_t sizes[PSRS_DISTS_MAX_SIZES];
    int nsizes;
    unsigned contestants; /* bit c: cont_names[c] of psrs_dists.c; 0: all */
    int reps;             /* >= 5 */
    const char *csv_path; /* NULL: none */
    const char *shape;    /* for the CSV's rows */
};

/* Parse "NAME", "NAME,NAME..." or "all" into @o; 0, or -1 with a message
 * on stderr. */
int psrs_dists_parse_dists(const char *arg, struct psrs_dists_opts *o);

/* Parse "NAME,..." of psrs, ips4o, block_indirect, spreadsort into @o; 0
 * or -1 as above. */
int psrs_dists_parse_contestants(const char *arg, struct psrs_dists_opts *o);

/* Parse "N,N,..." (1e5 and 100000 alike) into @o; 0 or -1 as above. */
int psrs_dists_parse_sizes(const char *arg, struct psrs_dists_opts *o);

/* Register the benchmark's task on @rt: in every process, in the same
 * order as the other tasks. */
int psrs_dists_register(sgl_runtime_t *rt);

/* Run the table on @rt (every process calls it; only rank 0 prints and
 * writes the CSV). 0 when every contestant's output was sorted and equal
 * to the others', 1 otherwise or on an error. */
int psrs_dists_run(sgl_runtime_t *rt, const struct psrs_dists_opts *o);

#endif
