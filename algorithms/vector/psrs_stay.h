/* The stay path of PSRS (internal; never installed): a worker whose
 * sorted block keeps nearly all of its elements (almost sorted input)
 * sends only the few that belong elsewhere, keeps the rest where it
 * lies, and merges what arrives into it in place. Plain keys only (equal
 * keys are equal elements, so where an arrival goes among equal keys
 * does not matter).
 *
 * Thread safety: every function works on its arguments only. */
#ifndef SGL_ALGO_PSRS_STAY_H
#define SGL_ALGO_PSRS_STAY_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/algorithms.h>

/* Whether a worker whose sorted block of @m elements splits into the
 * buckets @count[0..@k) (its own bucket @own) keeps its own bucket in
 * place: at most m/16 elements leave, all on one side of it (so that
 * they lie back to back in the block and go out from where they lie). */
int sgl__stay_chosen(const size_t *count, size_t k, size_t own, size_t m);

/* Merge the sorted run @in of @n plain elements of key type @t (@es
 * bytes) into the sorted part a[@lo..@hi) of the block *@a, whose memory
 * holds @cap elements, leaving the merged block at the block's start
 * (*ret_m elements). Each element of the part moves once, by the number
 * of arrivals before it less @lo (those in a stretch of shift 0 not at
 * all); the block grows by realloc() where it must. More than
 * (hi - lo) / 16 arrivals are merged into fresh memory instead, the old
 * block freed (*@a, *@cap updated either way).
 * Returns SGL_OK, or SGL_ENOMEM (the block as it was). */
int sgl__stay_merge(sgl_dtype_t t, size_t es, void **a, size_t *cap,
                    size_t lo, size_t hi, const void *in, size_t n,
                    size_t *ret_m);

#endif
