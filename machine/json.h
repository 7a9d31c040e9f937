/* The project's one JSON writer: the tools, the trace export and the
 * benchmarks all write through it, so escaping, number formatting and
 * layout are decided once. Internal (sgl__json_*): libsgl does not export
 * it; programs that link the shared library compile json.c in.
 *
 * Streaming: values go to the FILE as they come; the writer keeps only
 * the stack of open containers. Every value call takes the member's key:
 * a string inside an object, NULL inside an array and at the top. A
 * misuse (a key in an array, a missing key, an unclosed container) or a
 * failed write is remembered, later calls write nothing, and
 * sgl__json_finish() reports it.
 *
 * Layout: the members of the outermost `lines` levels of containers (1:
 * the top container's) go on their own lines, and so does every object or
 * array inside an array, indented two spaces per container that broke
 * lines around them. Everything else follows on the same line, so a tree
 * of nodes reads one node per line and a list of events one event per
 * line.
 *
 * Thread safety: one writer per thread. */
#ifndef SGL_MACHINE_JSON_H
#define SGL_MACHINE_JSON_H

#include <stdint.h>
#include <stdio.h>

/* Open containers at most; deeper nesting is a misuse. A machine tree
 * nests two per level (node, children) under SGL__MAX_DEPTH levels. */
#define SGL__JSON_MAX_NEST 160

struct sgl__json_open {
    char close;           /* '}' or ']' */
    unsigned char broken; /* some member started a line */
    size_t members;
};

struct sgl__json {
    FILE *out;
    unsigned lines;  /* outermost levels whose members break lines */
    unsigned depth;  /* open containers */
    unsigned broken; /* of them, those that broke a line */
    int done;        /* the top value is complete */
    int status;      /* SGL_OK, or the first misuse or write error */
    struct sgl__json_open open[SGL__JSON_MAX_NEST];
};

/* Start a document on @out (which stays the caller's to close). */
void sgl__json_init(struct sgl__json *j, FILE *out, unsigned lines);

/* Containers: begin with the member's key (NULL in an array or at the
 * top), end with the matching end call. */
void sgl__json_begin_object(struct sgl__json *j, const char *key);
void sgl__json_end_object(struct sgl__json *j);
void sgl__json_begin_array(struct sgl__json *j, const char *key);
void sgl__json_end_array(struct sgl__json *j);

/* A string: '"', '\\' and control characters escaped, valid UTF-8 as it
 * is, each byte of invalid UTF-8 as U+FFFD (the document stays valid
 * UTF-8). NULL writes null. */
void sgl__json_string(struct sgl__json *j, const char *key, const char *s);
/* A double in the fewest of 15, 16 or 17 significant digits that read
 * back as the same double; NaN and infinities, which JSON lacks, as
 * null. */
void sgl__json_number(struct sgl__json *j, const char *key, double x);
void sgl__json_int(struct sgl__json *j, const char *key, intmax_t x);
void sgl__json_uint(struct sgl__json *j, const char *key, uintmax_t x);
void sgl__json_bool(struct sgl__json *j, const char *key, int b);
void sgl__json_null(struct sgl__json *j, const char *key);

/* Open a document's top-level object with the members every SGL document
 * starts with: "schema" ({"name": @name, "version": @version}), which a
 * consumer checks before it reads on, and "sgl_version", the library that
 * wrote it. The caller adds its members and ends the object. */
void sgl__json_begin_document(struct sgl__json *j, const char *name,
                              unsigned version);

/* End the document with a newline and flush @out.
 * @return SGL_OK, SGL_EIO (a write failed, now or before), or SGL_EINVAL
 * (misuse: no value, a container left open, a key out of place). */
int sgl__json_finish(struct sgl__json *j);

#endif
