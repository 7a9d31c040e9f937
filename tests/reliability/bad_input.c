/* Bad input to every public entry point, in one process: each case must
 * return the documented code with a message (printed, so the log lists
 * every bad input and what SGL said), and nothing may crash or hang.
 * A plain main() so that ASan's leak check and valgrind cover it.
 *   bad_input [SHAPE]   SHAPE: the thread shape for the runtime cases
 *                       (default "package:2 core:2"). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sgl/algorithms.h>
#include <sgl/sgl.h>
#include <sgl/sgl_mpi.h>
#include "tap.h"

/* ---- shapes ---- */

/* Control characters as C escapes, so that every case stays one TAP line. */
static void escape(const char *s, char *out, size_t size)
{
    size_t j = 0;
    for (; *s && j + 5 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\n' || c == '\t')
            j += (size_t)snprintf(out + j, size - j, "\\%c",
                                  c == '\n' ? 'n' : 't');
        else if (c < 32 || c == 0x7f)
            j += (size_t)snprintf(out + j, size - j, "\\x%02x", c);
        else
            out[j++] = (char)c;
    }
    out[j] = '\0';
}

/* Nonzero if @s holds a control character other than tab: error
 * messages quote user input escaped, so that they stay one printable
 * line. */
static int has_raw_control(const char *s)
{
    for (; *s; s++)
        if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
            return 1;
    return 0;
}

static void shape_case(const char *shape, int want)
{
    sgl_machine_t *m = NULL;
    char what[160];
    snprintf(what, sizeof what, "shape \"%s\"", shape ? shape : "(NULL)");
    int rc = sgl_machine_from_shape(shape, NULL, &m);
    tap_expect(what, rc, want);
    if (rc != SGL_OK && m)
        tap_ok("failed shape leaves ret_machine unset", 0, what);
    sgl_machine_free(m);
}

static void shapes(void)
{
    static const char *const bad[] = {
        "", "   ", "node", "node:", "rank:0", "node:-1", "node:abc",
        "rank:2x", "rank:2:3", ":4", "bogus:2", "core:2 rank:2",
        "rank:2 core:[", "rank:2 core:[3", "rank:2 core:[3,5", "rank:2 core:[]",
        "rank:2 core:[3,]", "rank:2 core:[,3]", "rank:2 core:[3,5,7]",
        "rank:2 core:[0,5]", "core:[2]x", "rank:99999999999999999999",
        "rank:4294967297", "rank:65536 core:65536",
        /* 40 levels, allowed. (Not 2^21 workers: under ASan with
         * fast_unwind_on_malloc=0 that tree takes minutes to build.) */
        "core:1 core:1 core:1 core:1 core:1 core:1 core:1 core:1 core:1 "
        "core:1 core:1 core:1 core:1 core:1 core:1 core:1 core:1 core:1 "
        "core:1 core:1 core:1 core:1 core:1 core:1 core:1 core:1 core:1 "
        "core:1 core:1 core:1 core:1 core:1 core:1 core:1 core:1 core:1 "
        "core:1 core:1 core:1 core:2",
        "rank:2\tcore:\n2", "n\xc3\xb6""de:2", "core:2 # comment",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sgl_machine_t *m = NULL;
        int rc = sgl_machine_from_shape(bad[i], NULL, &m);
        char what[400], esc[320];
        escape(bad[i], esc, sizeof esc);
        snprintf(what, sizeof what, "shape \"%s\"", esc);
        /* A few of these are valid; every one must give OK or a clean
         * parse error, never anything else. */
        int ok = rc == SGL_OK || rc == SGL_EPARSE;
        char note[1200];
        char msg[1000];
        escape(rc ? sgl_error_last() : "(accepted)", msg, sizeof msg);
        snprintf(note, sizeof note, "%s%s%s", sgl_error_name(rc),
                 rc ? ": " : "", msg);
        tap_ok(what, ok && (rc == SGL_OK) == (m != NULL), note);
        sgl_machine_free(m);
    }
    shape_case(NULL, SGL_EINVAL);
    /* Control characters in a shape are quoted escaped in the message. */
    static const char *const ctl[][2] = {
        {"rank:2\001", "bad shape \"rank:2\\x01\": unexpected character "
                       "'\\x01'"},
        {"rank:\033[31m2", "bad shape \"rank:\\x1b[31m2\""},
        {"\x7f", "bad shape \"\\x7f\""},
        {" \t\r ", "bad shape \" \\t\\r \": empty"},
    };
    for (size_t i = 0; i < sizeof ctl / sizeof *ctl; i++) {
        sgl_machine_t *m = NULL;
        int rc = sgl_machine_from_shape(ctl[i][0], NULL, &m);
        const char *msg = sgl_error_last();
        char what[200], esc[100];
        escape(ctl[i][0], esc, sizeof esc);
        snprintf(what, sizeof what, "shape \"%s\": message escapes control "
                                    "characters",
                 esc);
        tap_ok(what, rc == SGL_EPARSE && !has_raw_control(msg) &&
                         strstr(msg, ctl[i][1]) != NULL,
               has_raw_control(msg) ? "(raw control characters)" : msg);
        sgl_machine_free(m);
    }
    /* Deeper than the tree's limit of 64 levels. */
    char deep[8 * 70 + 8] = "";
    for (int i = 0; i < 70; i++)
        strcat(deep, "core:1 ");
    strcat(deep, "core:2");
    shape_case(deep, SGL_EPARSE);
    sgl_machine_t *m = NULL;
    tap_expect("from_shape with NULL ret_machine",
               sgl_machine_from_shape("core:2", NULL, NULL), SGL_EINVAL);
    tap_expect("from_xml NULL path", sgl_machine_from_xml(NULL, NULL, &m),
               SGL_EINVAL);
    tap_expect("from_xml missing file",
               sgl_machine_from_xml("/nonexistent/x.xml", NULL, &m), SGL_EIO);
    tap_expect("from_xml of a directory", sgl_machine_from_xml("/", NULL, &m),
               SGL_EIO);
    unsigned zero[] = {2, 0};
    tap_expect("fanouts with a 0", sgl_machine_from_fanouts(zero, NULL, 2,
                                                            NULL, &m),
               SGL_EINVAL);
    unsigned two[] = {2, 2};
    sgl_link_t up[] = {SGL_LINK_THREADS, SGL_LINK_MPI};
    tap_expect("fanouts MPI below threads",
               sgl_machine_from_fanouts(two, up, 2, NULL, &m), SGL_EINVAL);
    tap_expect("fanouts NULL", sgl_machine_from_fanouts(NULL, NULL, 2, NULL,
                                                        &m),
               SGL_EINVAL);
    sgl_link_t none[] = {SGL_LINK_NONE, SGL_LINK_THREADS};
    tap_expect("fanouts link NONE",
               sgl_machine_from_fanouts(two, none, 2, NULL, &m), SGL_EINVAL);
}

/* ---- parameters on a tree ---- */

static void params(void)
{
    sgl_machine_t *m;
    if (sgl_machine_from_shape("package:2 core:2", NULL, &m)) {
        tap_ok("parameter tree", 0, sgl_error_last());
        return;
    }
    sgl_link_params_t p = {1e-6, 1e-9, 1e-9}, q;
    tap_expect("level params at a level without masters",
               sgl_machine_set_level_params(m, 5, &p), SGL_EINVAL);
    p.l = -1;
    tap_expect("negative l", sgl_machine_set_level_params(m, 0, &p),
               SGL_EINVAL);
    p.l = NAN;
    tap_expect("NaN l", sgl_machine_set_level_params(m, 0, &p), SGL_EINVAL);
    p.l = INFINITY;
    tap_expect("infinite l", sgl_machine_set_level_params(m, 0, &p),
               SGL_EINVAL);
    tap_expect("level params NULL", sgl_machine_set_level_params(m, 0, NULL),
               SGL_EINVAL);
    tap_expect("level params never set", sgl_machine_level_params(m, 0, &q),
               SGL_ERANGE);
    p.l = 1e-6;
    tap_expect("small params max_bytes 0",
               sgl_machine_set_level_small_params(m, 0, &p, 0), SGL_EINVAL);
    tap_expect("small params max_bytes NaN",
               sgl_machine_set_level_small_params(m, 0, &p, NAN), SGL_EINVAL);
    tap_expect("node params of a worker",
               sgl_node_params(sgl_machine_worker(m, 0), &q), SGL_EINVAL);
    tap_expect("kernel empty name", sgl_machine_set_kernel(m, "", 1e-9),
               SGL_EINVAL);
    tap_expect("kernel name with a blank",
               sgl_machine_set_kernel(m, "my sum", 1e-9), SGL_EINVAL);
    tap_expect("kernel name of 32 characters",
               sgl_machine_set_kernel(m, "abcdefghijklmnopqrstuvwxyz012345",
                                      1e-9),
               SGL_EINVAL);
    tap_expect("kernel NULL name", sgl_machine_set_kernel(m, NULL, 1e-9),
               SGL_EINVAL);
    tap_expect("kernel negative c", sgl_machine_set_kernel(m, "sum", -1),
               SGL_EINVAL);
    tap_expect("kernel NaN c", sgl_machine_set_kernel(m, "sum", NAN),
               SGL_EINVAL);
    tap_expect("worker kernel out of range",
               sgl_machine_set_worker_kernel(m, 4, "sum", 1e-9), SGL_EINVAL);
    tap_expect("provenance key with a blank",
               sgl_machine_set_provenance(m, "a b", "x"), SGL_EINVAL);
    tap_expect("provenance value with a newline",
               sgl_machine_set_provenance(m, "host", "a\nb"), SGL_EINVAL);
    tap_expect("provenance NULL key",
               sgl_machine_set_provenance(m, NULL, "x"), SGL_EINVAL);
    tap_ok("kernel of an unknown name is NaN",
           isnan(sgl_node_kernel(sgl_machine_worker(m, 0), "nope")), NULL);
    tap_ok("worker out of range is NULL", sgl_machine_worker(m, 4) == NULL,
           NULL);
    tap_ok("child out of range is NULL",
           sgl_node_child(sgl_machine_root(m), 9) == NULL, NULL);
    tap_expect("save to a missing folder",
               sgl_machine_save(m, "/nonexistent/dir/m.sgl"), SGL_EIO);
    sgl_machine_free(m);
    sgl_machine_free(NULL);
    tap_ok("sgl_machine_free(NULL) is a no-op", 1, NULL);
}

/* ---- machine files ---- */

/* A machine file of @len bytes (it may hold NULs) named @name; the error
 * must be @want and, if @needle, its message must contain it. */
static void file_case_n(const char *what, const char *name, const char *text,
                        size_t len, int want, const char *needle)
{
    FILE *f = fmemopen((void *)text, len, "r");
    if (!f) {
        /* fmemopen of 0 bytes fails on old glibc; use an empty tmpfile. */
        f = tmpfile();
    }
    sgl_machine_t *m = NULL;
    int rc = sgl_machine_read(f, name, &m);
    fclose(f);
    char w[200];
    snprintf(w, sizeof w, "machine file: %s", what);
    if (rc && (has_raw_control(sgl_error_last()) ||
               (needle && !strstr(sgl_error_last(), needle)))) {
        char msg[1100];
        escape(sgl_error_last(), msg, sizeof msg);
        char note[1400];
        snprintf(note, sizeof note, "message '%s' %s '%s'", msg,
                 has_raw_control(sgl_error_last()) ? "has raw control "
                                                     "characters, want"
                                                   : "lacks",
                 needle ? needle : "");
        tap_ok(w, 0, note);
    } else {
        tap_expect(w, rc, want);
    }
    if (rc == SGL_OK)
        sgl_machine_free(m);
    else if (m)
        tap_ok("failed read leaves ret_machine unset", 0, what);
}

static void file_case(const char *what, const char *text, int want)
{
    file_case_n(what, "bad.sgl", text, strlen(text), want, NULL);
}

#define HDR "sgl-machine 1\nshape rank:2\n"
static void machine_files(void)
{
    file_case("valid", HDR "level 0 l 1us g_down 1ns g_up 1ns\nend\n",
              SGL_OK);
    file_case("empty", "", SGL_EPARSE);
    file_case("only comments", "# nothing\n\n", SGL_EPARSE);
    file_case("wrong magic", "sgl-machin 1\nend\n", SGL_EPARSE);
    file_case("future version", "sgl-machine 99\nshape core:2\nend\n",
              SGL_EPARSE);
    file_case("no end (truncated)", HDR, SGL_EPARSE);
    file_case("no shape", "sgl-machine 1\nend\n", SGL_EPARSE);
    file_case("bad shape", "sgl-machine 1\nshape rank:0\nend\n", SGL_EPARSE);
    file_case("shape twice", HDR "shape core:2\nend\n", SGL_EPARSE);
    file_case("level before shape",
              "sgl-machine 1\nlevel 0 l 1 g_down 1 g_up 1\nshape core:2\nend\n",
              SGL_EPARSE);
    file_case("level that does not exist",
              HDR "level 7 l 1 g_down 1 g_up 1\nend\n", SGL_EPARSE);
    file_case("level -1", HDR "level -1 l 1 g_down 1 g_up 1\nend\n",
              SGL_EPARSE);
    file_case("level 2^64", HDR "level 18446744073709551616 l 1 g_down 1 "
                                "g_up 1\nend\n",
              SGL_EPARSE);
    file_case("missing g_up", HDR "level 0 l 1 g_down 1\nend\n", SGL_EPARSE);
    file_case("l twice", HDR "level 0 l 1 l 2 g_down 1 g_up 1\nend\n",
              SGL_EPARSE);
    file_case("negative l", HDR "level 0 l -1 g_down 1 g_up 1\nend\n",
              SGL_EPARSE);
    file_case("NaN l", HDR "level 0 l nan g_down 1 g_up 1\nend\n", SGL_EPARSE);
    file_case("inf g", HDR "level 0 l 1 g_down inf g_up 1\nend\n", SGL_EPARSE);
    file_case("overflowing l", HDR "level 0 l 1e999 g_down 1 g_up 1\nend\n",
              SGL_EPARSE);
    file_case("unknown unit", HDR "level 0 l 1parsec g_down 1 g_up 1\nend\n",
              SGL_EPARSE);
    file_case("bad number", HDR "level 0 l 1..2 g_down 1 g_up 1\nend\n",
              SGL_EPARSE);
    file_case("duplicate level", HDR "level 0 l 1 g_down 1 g_up 1\n"
                                     "level 0 l 1 g_down 1 g_up 1\nend\n",
              SGL_EPARSE);
    file_case("wrong link kind", HDR "level 0 link threads l 1 g_down 1 "
                                     "g_up 1\nend\n",
              SGL_EPARSE);
    file_case("wrong p", HDR "level 0 p 3 l 1 g_down 1 g_up 1\nend\n",
              SGL_EPARSE);
    file_case("small max_bytes 0", HDR "level 0 small max_bytes 0 l 1 "
                                       "g_down 1 g_up 1\nend\n",
              SGL_EPARSE);
    file_case("master out of range", HDR "master 1 9 l 1 g_down 1 g_up 1\n"
                                         "end\n",
              SGL_EPARSE);
    file_case("kernel without value", HDR "kernel sum\nend\n", SGL_EPARSE);
    file_case("kernel bad name", HDR "kernel s%m 1ns\nend\n", SGL_EPARSE);
    file_case("kernel worker out of range",
              HDR "kernel sum 1ns worker 4\nend\n", SGL_EPARSE);
    file_case("kernel twice", HDR "kernel sum 1ns\nkernel sum 2ns\nend\n",
              SGL_EPARSE);
    file_case("provenance unterminated quote",
              HDR "provenance host \"abc\nend\n", SGL_EPARSE);
    file_case("provenance without key", HDR "provenance\nend\n", SGL_EPARSE);
    file_case("unknown record", HDR "frobnicate 3\nend\n", SGL_EPARSE);
    file_case("record after end", HDR "end\nlevel 0 l 1 g_down 1 g_up 1\n",
              SGL_EPARSE);
    /* The whole text, NUL included (strlen would stop at it and test a
     * truncated file instead): binary data at line 2, column 13. */
    static const char nul[] = "sgl-machine 1\nshape core:2\0x\nend\n";
    file_case_n("NUL byte in a line", "bad.sgl", nul, sizeof nul - 1,
                SGL_EPARSE, "bad.sgl:2: binary data (byte 0x00 at column 13)");
    file_case_n("control character in the file's name", "bad\a\033.sgl",
                HDR, strlen(HDR), SGL_EPARSE, "bad\\x07\\x1b.sgl:2:");

    file_case("trailing junk", HDR "level 0 l 1 g_down 1 g_up 1 zzz\nend\n",
              SGL_EPARSE);
    /* A very long line must be refused or read, never overflow. */
    size_t n = 100000;
    char *big = malloc(n + 64);
    if (big) {
        strcpy(big, "sgl-machine 1\nshape core:2\nprovenance note ");
        size_t off = strlen(big);
        memset(big + off, 'x', n);
        strcpy(big + off + n, "\nend\n");
        FILE *f = fmemopen(big, strlen(big), "r");
        sgl_machine_t *m = NULL;
        int rc = f ? sgl_machine_read(f, "long.sgl", &m) : SGL_EIO;
        if (f)
            fclose(f);
        char note[300];
        snprintf(note, sizeof note, "%s%s%.200s", sgl_error_name(rc),
                 rc ? ": " : "", rc ? sgl_error_last() : "");
        tap_ok("machine file: 100000-byte line", rc == SGL_OK ||
                                                     rc == SGL_EPARSE,
               note);
        sgl_machine_free(m);
        free(big);
    }
    sgl_machine_t *m = NULL;
    tap_expect("machine file: missing path",
               sgl_machine_load("/nonexistent/m.sgl", &m), SGL_EIO);
    {
        int rc = sgl_machine_load("/nonexistent/\x01m\n.sgl", &m);
        const char *msg = sgl_error_last();
        tap_ok("machine file: missing path with control characters is "
               "quoted escaped",
               rc == SGL_EIO && !has_raw_control(msg) &&
                   strstr(msg, "/nonexistent/\\x01m\\n.sgl"),
               has_raw_control(msg) ? "(raw control characters)" : msg);
        rc = sgl_machine_from_xml("/nonexistent/\x07.xml", NULL, &m);
        msg = sgl_error_last();
        tap_ok("hwloc XML: missing path with a control character is quoted "
               "escaped",
               rc == SGL_EIO && !has_raw_control(msg) &&
                   strstr(msg, "/nonexistent/\\x07.xml"),
               has_raw_control(msg) ? "(raw control characters)" : msg);
    }
    tap_expect("machine file: a directory", sgl_machine_load("/", &m),
               SGL_EIO);
    tap_expect("machine file: NULL path", sgl_machine_load(NULL, &m),
               SGL_EINVAL);
    tap_expect("machine file: NULL stream", sgl_machine_read(NULL, "x", &m),
               SGL_EINVAL);
}

/* ---- runtime and algorithms ---- */

static int noop(sgl_ctx_t *ctx, const void *arg, size_t size)
{
    (void)ctx, (void)arg, (void)size;
    return SGL_OK;
}

static void op_nop(void *acc, const void *x)
{
    (void)acc, (void)x;
}

static int algo_cases(sgl_ctx_t *root, const void *arg, size_t size)
{
    (void)arg, (void)size;
    size_t p = sgl_ctx_workers(root);
    double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, r = -1;
    char what[128];
    tap_expect("reduce NULL src, n=8",
               sgl_reduce(root, SGL_F64, SGL_OP_SUM, NULL, 8, &r), SGL_EINVAL);
    tap_expect("reduce NULL result",
               sgl_reduce(root, SGL_F64, SGL_OP_SUM, x, 8, NULL), SGL_EINVAL);
    tap_expect("reduce unknown operator",
               sgl_reduce(root, SGL_F64, 77, x, 8, &r), SGL_EINVAL);
    tap_expect("reduce unknown type",
               sgl_reduce(root, (sgl_dtype_t)42, SGL_OP_SUM, x, 8, &r),
               SGL_EINVAL);
    tap_expect("reduce USER type with a built-in operator",
               sgl_reduce(root, SGL_USER, SGL_OP_SUM, x, 8, &r), SGL_EINVAL);
    tap_expect("reduce NULL context",
               sgl_reduce(NULL, SGL_F64, SGL_OP_SUM, x, 8, &r), SGL_EINVAL);
    r = -1;
    int rc = sgl_reduce(root, SGL_F64, SGL_OP_SUM, x, 0, &r);
    tap_ok("reduce n=0 gives the identity", rc == SGL_OK && r == 0,
           rc ? sgl_error_last() : "0");
    for (size_t n = 1; n < p && n <= 8; n++) {
        rc = sgl_reduce(root, SGL_F64, SGL_OP_SUM, x, n, &r);
        snprintf(what, sizeof what, "reduce n=%zu < %zu workers", n, p);
        tap_ok(what, rc == SGL_OK && r == (double)(n * (n + 1) / 2),
               rc ? sgl_error_last() : "");
    }
    double y[8];
    tap_expect("scan NULL src", sgl_scan(root, SGL_F64, SGL_OP_SUM, NULL, y,
                                         8, 0),
               SGL_EINVAL);
    tap_expect("scan NULL dst", sgl_scan(root, SGL_F64, SGL_OP_SUM, x, NULL,
                                         8, 0),
               SGL_EINVAL);
    tap_expect("scan bad flags", sgl_scan(root, SGL_F64, SGL_OP_SUM, x, y, 8,
                                          0x70),
               SGL_EINVAL);
    tap_expect("scan n=0", sgl_scan(root, SGL_F64, SGL_OP_SUM, x, y, 0, 0),
               SGL_OK);
    rc = sgl_scan(root, SGL_F64, SGL_OP_SUM, x, y, 3, 0);
    snprintf(what, sizeof what, "scan n=3 on %zu workers", p);
    tap_ok(what, rc == SGL_OK && y[0] == 1 && y[1] == 3 && y[2] == 6,
           rc ? sgl_error_last() : "");
    double s[3] = {3, 1, 2};
    tap_expect("sort NULL data, n=3", sgl_sort(root, SGL_F64, NULL, 3, NULL),
               SGL_EINVAL);
    tap_expect("sort USER type", sgl_sort(root, SGL_USER, s, 3, NULL),
               SGL_EINVAL);
    tap_expect("sort n=0", sgl_sort(root, SGL_F64, s, 0, NULL), SGL_OK);
    rc = sgl_sort(root, SGL_F64, s, 3, NULL);
    snprintf(what, sizeof what, "sort n=3 on %zu workers", p);
    tap_ok(what, rc == SGL_OK && s[0] == 1 && s[1] == 2 && s[2] == 3,
           rc ? sgl_error_last() : "");
    sgl_dvec_t *v = NULL;
    tap_expect("dvec_create unknown fill",
               sgl_dvec_create(root, SGL_F64, 0, 10, 999, NULL, 0, &v),
               SGL_EINVAL);
    tap_expect("dvec_create const fill without arg",
               sgl_dvec_create(root, SGL_F64, 0, 10, SGL_FILL_CONST, NULL, 0,
                               &v),
               SGL_EINVAL);
    tap_expect("dvec_create arg over 256 bytes",
               sgl_dvec_create(root, SGL_F64, 0, 10, SGL_FILL_NONE, x, 300,
                               &v),
               SGL_EINVAL);
    tap_expect("dvec_create USER elem_size 0",
               sgl_dvec_create(root, SGL_USER, 0, 10, SGL_FILL_NONE, NULL, 0,
                               &v),
               SGL_EINVAL);
    tap_expect("dvec_create NULL ret",
               sgl_dvec_create(root, SGL_F64, 0, 10, SGL_FILL_IOTA, NULL, 0,
                               NULL),
               SGL_EINVAL);
    rc = sgl_dvec_create(root, SGL_F64, 0, 10, SGL_FILL_IOTA, NULL, 0, &v);
    tap_expect("dvec_create n=10", rc, SGL_OK);
    if (rc == SGL_OK) {
        tap_expect("dvec_gather into 5 of 10",
                   sgl_dvec_gather(root, v, y, 5), SGL_ESIZE);
        tap_expect("dvec_gather NULL dst", sgl_dvec_gather(root, v, NULL, 10),
                   SGL_EINVAL);
        tap_expect("dvec_reduce unknown op",
                   sgl_dvec_reduce(root, v, 99, 0, &r), SGL_EINVAL);
        sgl_dvec_t *w = NULL;
        if (sgl_dvec_create(root, SGL_F64, 0, 5, SGL_FILL_NONE, NULL, 0, &w) ==
            SGL_OK) {
            tap_expect("dvec_scan into a vector of other size",
                       sgl_dvec_scan(root, v, w, SGL_OP_SUM, 0), SGL_ESIZE);
            sgl_dvec_free(root, w);
        }
        sgl_dvec_free(root, v);
    }
    rc = sgl_dvec_create(root, SGL_F64, 0, 0, SGL_FILL_IOTA, NULL, 0, &v);
    tap_expect("dvec_create n=0", rc, SGL_OK);
    if (rc == SGL_OK) {
        tap_expect("dvec_sort n=0", sgl_dvec_sort(root, v, NULL), SGL_OK);
        tap_expect("dvec_reduce n=0", sgl_dvec_reduce(root, v, SGL_OP_MAX, 1,
                                                      &r),
                   SGL_OK);
        sgl_dvec_free(root, v);
    }
    tap_expect("dvec_free NULL", sgl_dvec_free(root, NULL), SGL_OK);
    sgl_op_t op;
    tap_expect("op_register NULL fn",
               sgl_op_register(NULL, 8, x, "f", &op), SGL_EINVAL);
    tap_expect("op_register elem_size 0",
               sgl_op_register(op_nop, 0, x, "f", &op), SGL_EINVAL);
    tap_expect("op_register elem_size 257",
               sgl_op_register(op_nop, 257, x, "f", &op), SGL_EINVAL);
    tap_expect("op_register NULL identity",
               sgl_op_register(op_nop, 8, NULL, "f", &op),
               SGL_EINVAL);
    /* Primitives with bad arguments on the root. */
    size_t counts[64] = {0}, n;
    void *data;
    tap_expect("scatter elem_size 0", sgl_scatter(root, x, 0, counts),
               sgl_ctx_is_worker(root) ? SGL_ESTATE : SGL_EINVAL);
    tap_expect("scatter NULL counts", sgl_scatter(root, x, 8, NULL),
               sgl_ctx_is_worker(root) ? SGL_ESTATE : SGL_EINVAL);
    tap_expect("bcast NULL with one element", sgl_bcast(root, NULL, 8, 1),
               sgl_ctx_is_worker(root) ? SGL_ESTATE : SGL_EINVAL);
    tap_expect("gather elem_size 0", sgl_gather(root, y, 0, 8, NULL),
               sgl_ctx_is_worker(root) ? SGL_ESTATE : SGL_EINVAL);
    tap_expect("scatter NULL context", sgl_scatter(NULL, x, 8, counts),
               SGL_EINVAL);
    tap_expect("pardo NULL context", sgl_pardo(NULL, noop, NULL, 0),
               SGL_EINVAL);
    tap_expect("scatter_split NULL with n=8",
               sgl_scatter_split(root, NULL, 8, 8, NULL),
               sgl_ctx_is_worker(root) ? SGL_ESTATE : SGL_EINVAL);
    tap_expect("ctx_split NULL context", sgl_ctx_split(NULL, 8, NULL, counts),
               SGL_EINVAL);
    tap_expect("gather_alloc NULL context",
               sgl_gather_alloc(NULL, 8, &data, &n, NULL), SGL_EINVAL);
    tap_expect("recv NULL context", sgl_recv(NULL, 8, &data, &n), SGL_EINVAL);
    tap_expect("put NULL context", sgl_put(NULL, x, 8, 1), SGL_EINVAL);
    tap_expect("put elem_size 0 on the root", sgl_put(root, x, 0, 1),
               SGL_EINVAL);
    return SGL_OK;
}

static void runtime(const char *shape)
{
    sgl_runtime_t *rt = NULL;
    sgl_opts_t o;
    sgl_opts_default(&o);
    tap_expect("sgl_init NULL ret_rt", sgl_init(NULL, NULL, NULL, NULL),
               SGL_EINVAL);
    o.shape = "rank:0";
    tap_expect("sgl_init malformed shape", sgl_init(NULL, NULL, &o, &rt),
               SGL_EPARSE);
    o.shape = "rank:2 core:2";
    tap_expect("sgl_init shape of 2 processes in 1",
               sgl_init(NULL, NULL, &o, &rt), SGL_ESHAPE);
    o.shape = NULL;
    o.xml = "/nonexistent/topo.xml";
    tap_expect("sgl_init missing XML", sgl_init(NULL, NULL, &o, &rt),
               SGL_EIO);
    o.xml = NULL;
    o.shape = shape;
    int rc = sgl_init(NULL, NULL, &o, &rt);
    char what[160];
    snprintf(what, sizeof what, "sgl_init \"%s\" after failed inits", shape);
    tap_expect(what, rc, SGL_OK);
    if (rc)
        return;
    sgl_runtime_t *rt2 = NULL;
    rc = sgl_init(NULL, NULL, &o, &rt2);
    tap_ok("a second runtime at once: OK or a clear ESTATE",
           rc == SGL_OK || rc == SGL_ESTATE,
           rc ? sgl_error_last() : "allowed (OK)");
    sgl_finalize(rt2);
    tap_expect("task_register NULL fn", sgl_task_register(rt, NULL, "x"),
               SGL_EINVAL);
    tap_expect("task_register NULL name", sgl_task_register(rt, noop, NULL),
               SGL_EINVAL);
    tap_expect("task_register NULL runtime", sgl_task_register(NULL, noop,
                                                               "x"),
               SGL_EINVAL);
    tap_expect("task_register", sgl_task_register(rt, noop, "noop"), SGL_OK);
    tap_expect("task_register twice", sgl_task_register(rt, noop, "noop"),
               SGL_EINVAL);
    tap_expect("algorithms_register", sgl_algorithms_register(rt), SGL_OK);
    tap_expect("sgl_run NULL runtime", sgl_run(NULL, noop, NULL, 0),
               SGL_EINVAL);
    tap_expect("sgl_run NULL task", sgl_run(rt, NULL, NULL, 0), SGL_EINVAL);
    tap_expect("sgl_run NULL arg of 8 bytes", sgl_run(rt, noop, NULL, 8),
               SGL_EINVAL);
    const void *result;
    size_t count;
    tap_expect("run_result before a successful run",
               sgl_run_result(rt, 8, &result, &count), SGL_ESTATE);
    tap_expect("sgl_run after errors", sgl_run(rt, noop, NULL, 0), SGL_OK);
    tap_expect("run_result NULL runtime",
               sgl_run_result(NULL, 8, &result, &count), SGL_EINVAL);
    tap_expect("run_result NULL ret_data", sgl_run_result(rt, 8, NULL, &count),
               SGL_EINVAL);
    tap_expect("run_result elem_size 0",
               sgl_run_result(rt, 0, &result, &count), SGL_EINVAL);
    rc = sgl_run(rt, algo_cases, NULL, 0);
    tap_expect("algorithm cases ran", rc, SGL_OK);
    tap_expect("sgl_finalize", sgl_finalize(rt), SGL_OK);
    tap_expect("sgl_finalize NULL", sgl_finalize(NULL), SGL_OK);
}

int main(int argc, char **argv)
{
    /* MPI is ours, so that a failed sgl_init does not finalise it (a
     * failed sgl_init that started MPI itself finalises it again; see the
     * last case). */
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    shapes();
    params();
    machine_files();
    runtime(argc > 1 ? argv[1] : "package:2 core:2");
    MPI_Finalize();
    sgl_runtime_t *rt = NULL;
    tap_expect("sgl_init after MPI_Finalize", sgl_init(NULL, NULL, NULL, &rt),
               SGL_ESTATE);
    return tap_done();
}
