/* PSRS's reverse path (algorithms/vector/psrs.c, mirror_blocks()) on
 * blocks written in reverse order on the workers themselves, shared by
 * the Criterion test (thread levels: the workers hand each other their
 * reversed blocks) and the multi-rank driver (the blocks move in the
 * exchange). */
#ifndef SGL_TEST_PSRS_REVERSE_PROGRAMS_H
#define SGL_TEST_PSRS_REVERSE_PROGRAMS_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/algorithms.h>

/* The element kinds the check sorts: plain 8- and 4-byte values, and
 * records of 16, 8 and 12 bytes (the last two with a 4-byte key: the
 * reversal's generic and 8-byte ways with an unplain layout). */
enum rev_kind {
    REV_F64,
    REV_F32,
    REV_REC16, /* double key, 8-byte position */
    REV_REC8,  /* float key, 4-byte position */
    REV_REC12, /* 4-byte position, float key, 4-byte worker */
    REV_KINDS
};

extern const char *const rev_kind_names[REV_KINDS];

/* Register the check's own task, after the algorithms' (as
 * psrs_paths_register() registers them). */
int psrs_reverse_register(sgl_runtime_t *rt);

/* Scatter @n elements of @kind, then @rounds times: every worker writes
 * its block (whatever its size by then) in reverse order, with runs of
 * three equal keys and keys distinct across workers; sort; the result
 * must be the stable sort of the vector as it was, each worker's new size
 * its mirror's old one, the path the reverse one (flat sorts on several
 * workers) and, where every worker shares rank 0's process, no exchange
 * superstep in the sort's trace. */
int psrs_reverse_check(sgl_runtime_t *rt, enum rev_kind kind, size_t n,
                       int rounds);

#endif
