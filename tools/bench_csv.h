/* CSV output shared by the benchmarks, as RFC 4180 has it: a header row,
 * fields separated by commas, a field that holds a comma, a double quote,
 * a CR or an LF enclosed in double quotes with its quotes doubled
 * ("rank:2 core:[1,2]" stays as it is, quoted). Records end in LF, not
 * the RFC's CRLF: every reader of these files (python's csv module,
 * pandas, R, gnuplot, awk) takes LF, and a CR would stick to the last
 * field in awk and in shell loops. A number that is not finite (no
 * prediction, a peer that did not run) is an empty field.
 *
 * Column names carry their unit (time_s, n_elements); every file has one
 * row per measurement, so a reader can compute its own statistics. */
#ifndef SGL_BENCH_CSV_H
#define SGL_BENCH_CSV_H

#include <stdio.h>

typedef struct bench_csv {
    FILE *f;
    int col; /* fields written in the current record */
} bench_csv_t;

/* Open @p path for rows whose header is @p header (comma-separated names,
 * no newline). With @p append and a non-empty file there, the rows are
 * appended after checking that the file's first line is @p header (a file
 * with other columns is refused, as rows under the wrong header would be
 * read wrongly); otherwise the file is created or truncated and the header
 * written. Returns 0, or -1 with a message in @p err (a path or a column
 * mismatch). */
int bench_csv_open(bench_csv_t *c, const char *path, const char *header,
                   int append, char *err, size_t errlen);

/* Fields of the current record, in order. */
void bench_csv_str(bench_csv_t *c, const char *s);  /* NULL: empty */
void bench_csv_num(bench_csv_t *c, double v);       /* %.9g; empty if not finite */
void bench_csv_int(bench_csv_t *c, long long v);
void bench_csv_empty(bench_csv_t *c);
void bench_csv_end(bench_csv_t *c);                 /* ends the record */

/* Closes the file; 0, or -1 if a write failed. A NULL file is a no-op. */
int bench_csv_close(bench_csv_t *c);

#endif
