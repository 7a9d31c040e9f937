/* The machine-file reader's shared state and lexer (internal): the
 * reader of one file (struct reader), the tokens and values of a record
 * (mfile_lex.c), the level records (mfile_level.c), the rest of the
 * records and the file itself (machine_file.c). */
#ifndef SGL_MFILE_READER_H
#define SGL_MFILE_READER_H

#include <stddef.h>

#include "machine_impl.h"

/* Which records a level has had, to refuse a second one of a kind. */
enum level_seen {
    SEEN_LEVEL = 1,    /* level L ... l T g_down G g_up G */
    SEEN_SMALL = 2,    /* level L small ... */
    SEEN_MEMORY = 4,   /* level L memory ... */
    SEEN_EXCHANGE = 8, /* level L exchange ... */
    SEEN_HEADER = 16,  /* level L header ... */
    SEEN_FANOUT = 32,  /* level L fanout ... */
    SEEN_VIEW = 64,    /* level L view ... */
};

struct reader {
    const char *name;
    unsigned long line;
    char *text;         /* the current line, comments removed */
    size_t pos;
    sgl_machine_t *m;
    int seen_header, seen_end;
    unsigned version; /* of the format, from the first record */
    size_t max_workers; /* 0: the shape's own limit only */
    unsigned char *level_seen; /* depth + 1 entries of enum level_seen */
    char tok[256];
    /* Size-table points that came out of order, merged in at the end so
     * that any order reads in O(n log n). */
    struct late_point *late;
    size_t nlate, cap_late;
};

struct late_point {
    size_t kernel; /* index in m->kernel */
    struct sgl__kpoint pt;
    unsigned long line;
};

enum unit { UNIT_TIME, UNIT_PER_BYTE, UNIT_BYTES, UNIT_COUNT };

/* An error at the reader's line: "FILE:LINE: what", code @p code. */
__attribute__((format(printf, 3, 4))) int
sgl__mf_bad(const struct reader *r, int code, const char *fmt, ...);
/* SGL_OK if @p s (@p len bytes) is text, else an error naming the byte. */
int sgl__mf_check_text(const struct reader *r, const char *s, size_t len);
/* Remove a comment: '#' at the start or after a blank, outside quotes. */
void sgl__mf_strip_comment(char *s);
/* Skip blanks at the reader's position. */
void sgl__mf_skip_blanks(struct reader *r);
/* The next blank-separated token into r->tok; 0 at the end of the line. */
int sgl__mf_next(struct reader *r);
/* Whether nothing but blanks is left on the line. */
int sgl__mf_at_end(struct reader *r);
/* An unsigned integer token, @p what for the error message. */
int sgl__mf_parse_uint(struct reader *r, const char *what,
                       unsigned long *ret);
/* A number >= 0 of @p unit (a time, a time per byte, bytes, a count),
 * with an optional unit glued to it ("23us", "4.8ns/word"). */
int sgl__mf_parse_value(struct reader *r, const char *what, enum unit unit,
                        double *ret);
/* "l T g_down G g_up G" in any order ("g G" sets both g) into @p p. */
int sgl__mf_parse_params(struct reader *r, sgl_link_params_t *p);
/* "l T g G" in either order into @p p. */
int sgl__mf_parse_exchange(struct reader *r, sgl_exchange_params_t *p);
/* The records "level L ..." and "master L I ...". */
int sgl__mf_rec_level(struct reader *r);
int sgl__mf_rec_master(struct reader *r);

#endif
