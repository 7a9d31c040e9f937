/* Record-sort checks shared by the Criterion tests and the multi-rank
 * driver: each returns SGL_OK or an error saying what differed. */
#ifndef SGL_TEST_RECORD_PROGRAMS_H
#define SGL_TEST_RECORD_PROGRAMS_H

#include <stddef.h>
#include <stdint.h>

#include <sgl/algorithms.h>

/* Number of record layouts (key type, offset, record size) checked. */
size_t record_layouts(void);

/* sgl_sort_records() of @n records of layout @layout against a stable
 * sequential sort, and the PSRS partition bound. */
int record_check(sgl_runtime_t *rt, size_t layout, size_t n, uint64_t seed);

/* Every documented error of the record sorts. */
int record_check_errors(sgl_runtime_t *rt);

#endif
