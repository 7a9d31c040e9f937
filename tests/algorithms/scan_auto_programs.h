/* SGL_SCAN_AUTO's checks, shared by the Criterion tests (thread levels,
 * one process) and the multi-rank driver (MPI levels): parameters that
 * price one variant cheaper, and a program that checks the pick and that
 * AUTO's results are bit for bit those of the variant it picked. */
#ifndef SGL_TEST_SCAN_AUTO_PROGRAMS_H
#define SGL_TEST_SCAN_AUTO_PROGRAMS_H

#include <stddef.h>

#include <sgl/algorithms.h>
#include <sgl/trace.h>

/* A parameter tree of @p rt's shape into *@p ret: every level l = 1 us,
 * g = 1 ns/B, and c (seconds per element) of "sum", "scan" and "offset"
 * (none where NAN). Free with sgl_machine_free(). */
int scan_auto_params(sgl_runtime_t *rt, double c_sum, double c_scan,
                     double c_offset, sgl_machine_t **ret);

/* Give @p rt the parameters of scan_auto_params() (every process calls
 * it, as sgl_runtime_set_params() wants). */
int scan_auto_set(sgl_runtime_t *rt, double c_sum, double c_scan,
                  double c_offset);

/* Register the programs' tasks (after sgl_algorithms_register()). */
int scan_auto_register(sgl_runtime_t *rt);

/* One program on @p rt: AUTO on @p n random doubles must pick @p expect
 * (SGL_SCAN_LOCAL_FIRST or SGL_SCAN_REDUCE_FIRST, by sgl_scan_variant()),
 * and give, inclusive and exclusive, distributed (sgl_dvec_scan()) and
 * centralised (sgl_scan()), the bits of that variant; with several
 * workers the other variant's bits must differ (so the check can tell
 * which one ran). */
int scan_auto_check(sgl_runtime_t *rt, size_t n, unsigned expect);

#endif
