/* The vertex-centric layer in one process on thread levels: one worker,
 * flat, nested and uneven trees. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "check_helpers.h"
#include "pregel_checks.h"
#include "pregel_crc.h"

static const struct test_check_entry checks[] = {
    {pregel_check_programs, "programs"},
    {pregel_check_graphs, "graphs"},
    {pregel_check_budget, "budget"},
    {pregel_check_balance, "balance"},
    {pregel_check_errors, "errors"},
    {pregel_check_blocks, "blocks"},
    {pregel_check_limits, "limits"},
    {pregel_check_checkpoints, "checkpoints"},
    {pregel_check_weights, "weights"},
};

static void on_shape(const char *shape)
{
    test_checks_on_shape(shape, pregel_test_register, checks,
                         sizeof checks / sizeof *checks);
}

Test(pregel, one_worker) { on_shape("core:1"); }
Test(pregel, two_workers) { on_shape("core:2"); }
Test(pregel, three_workers) { on_shape("core:3"); }
Test(pregel, nested) { on_shape("package:2 core:2"); }
Test(pregel, uneven) { on_shape("package:2 core:[1,3]"); }

/* The edge-list reader: comments and blank lines skipped, the line number
 * of the first bad line in the message, nothing returned. */
Test(pregel, reader)
{
    char path[] = "/tmp/sgl-edges-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# a comment\n\n% another\n0 1\n  2\t3 \n", f);
    fclose(f);
    uint64_t n, (*e)[2] = NULL;
    size_t m;
    cr_assert_eq(sgl_graph_read_edges(path, &n, &e, &m), SGL_OK, "%s",
                 sgl_error_last());
    cr_assert_eq(n, 4);
    cr_assert_eq(m, 2);
    cr_assert(e[1][0] == 2 && e[1][1] == 3);
    free(e);
    static const char *const bad[] = {"0 1\n1\n", "0 1\n1 x\n",
                                      "0 1\n-1 2\n", "0 1\n1 2 3\n"};
    for (size_t k = 0; k < 4; k++) {
        f = fopen(path, "w");
        fputs(bad[k], f);
        fclose(f);
        e = NULL;
        cr_assert_eq(sgl_graph_read_edges(path, &n, &e, &m), SGL_EPARSE,
                     "%s", bad[k]);
        cr_assert(strstr(sgl_error_last(), ":2: expected two vertex"), "%s",
                  sgl_error_last());
        cr_assert_null(e);
    }
    unlink(path);
    cr_assert_eq(sgl_graph_read_edges(path, &n, &e, &m), SGL_EIO);
}

/* Write @len bytes of @data to a fresh temporary file, named in @path. */
static void temp_file(char *path, const void *data, size_t len)
{
    strcpy(path, "/tmp/sgl-edges-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, data, len), (ssize_t)len);
    close(fd);
}

/* @path is refused with @code and a message holding @text, and nothing is
 * returned. */
static void refused(const char *path, int code, const char *text)
{
    uint64_t n = 7, (*e)[2] = NULL;
    size_t m = 7;
    cr_assert_eq(sgl_graph_read_edges(path, &n, &e, &m), code, "%s: %s",
                 path, sgl_error_last());
    cr_assert(strstr(sgl_error_last(), text), "%s: \"%s\" lacks \"%s\"",
              path, sgl_error_last(), text);
    cr_assert_null(e);
}

/* Not a regular file: refused at once, its kind named (before, /dev/zero
 * spun forever and a directory gave "read error" without a reason). The
 * test's own timeout catches a hang on the FIFO. */
Test(pregel, reader_not_regular, .timeout = 60)
{
    refused("/dev/zero", SGL_EIO, "is a character device, not a regular");
    refused("/tmp", SGL_EIO, "is a directory, not a regular file");
    char dir[] = "/tmp/sgl-special-XXXXXX", path[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/fifo", dir);
    cr_assert_eq(mkfifo(path, 0600), 0);
    refused(path, SGL_EIO, "is a FIFO, not a regular file");
    unlink(path);
    snprintf(path, sizeof path, "%s/sock", dir);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    int sock = socket(AF_UNIX, SOCK_STREAM, 0);
    cr_assert(sock >= 0);
    cr_assert_eq(bind(sock, (struct sockaddr *)&sa, sizeof sa), 0);
    refused(path, SGL_EIO, "is a socket, not a regular file");
    close(sock);
    unlink(path);
    rmdir(dir);
    refused("/nonexistent/edges", SGL_EIO, "No such file");
}

/* NUL and other control bytes are refused with line and column, never
 * read as blank lines (10 MB of NULs read as an empty graph, NULs between
 * edges hid the edges); long lines with the cap; control bytes quoted
 * from the input escaped. */
Test(pregel, reader_binary, .timeout = 60)
{
    char path[32];
    size_t big = 10u << 20;
    char *zeros = calloc(big, 1);
    cr_assert_not_null(zeros);
    temp_file(path, zeros, big);
    refused(path, SGL_EPARSE, ":1:1: control byte \\x00");
    unlink(path);
    memcpy(zeros, "0 1\n", 4);
    memcpy(zeros + 4 + 100000, "\n5 6\n", 5);
    temp_file(path, zeros, 4 + 100000 + 5);
    refused(path, SGL_EPARSE, ":2:1: control byte \\x00");
    unlink(path);
    free(zeros);
    static const char *const cases[][2] = {
        {"0 1\n2 \x1b[2J3\n", ":2:3: control byte \\x1b"},
        {"0 1\n\a\n", ":2:1: control byte \\x07"},
        {"0 1\n1 2\x7f\n", ":2:4: control byte \\x7f"},
        {"0 1\n\xff\xfe\n", ":2: expected two vertex numbers"},
        {"0 1099511627776\n", "(0 to 2^40 - 1)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        temp_file(path, cases[k][0], strlen(cases[k][0]));
        refused(path, SGL_EPARSE, cases[k][1]);
        cr_assert_null(strchr(sgl_error_last(), '\x1b'));
        unlink(path);
    }
    char line[600];
    memset(line, '1', sizeof line);
    temp_file(path, line, sizeof line);
    refused(path, SGL_EPARSE, ":1: line longer than 512 bytes");
    unlink(path);
    /* a control byte in the path itself is escaped in the message */
    refused("/tmp/no\x1b[31mfile", SGL_EIO, "/tmp/no\\x1b[31mfile");
}

/* sgl_combine_round_grid(): the nearest multiple, ties to even, either sign;
 * large and non-finite values kept; a grid out of range refused with NaN;
 * and what it is for: sums of rounded terms the same in any order. */
Test(pregel, round_grid)
{
    cr_assert_eq(sgl_combine_round_grid(0.3, -2), 0.25);
    cr_assert_eq(sgl_combine_round_grid(-0.3, -2), -0.25);
    cr_assert_eq(sgl_combine_round_grid(0.375, -2), 0.5);   /* tie: 1.5 steps -> 2 */
    cr_assert_eq(sgl_combine_round_grid(0.625, -2), 0.5);   /* tie: 2.5 steps -> 2 */
    cr_assert_eq(sgl_combine_round_grid(1 + 0x1p-60, -52), 1.0);
    cr_assert_eq(sgl_combine_round_grid(0x1p-54, -52), 0.0);
    cr_assert_eq(sgl_combine_round_grid(3 * 0x1p-53, -52), 0x1p-51); /* tie */
    cr_assert_eq(sgl_combine_round_grid(1e300, -1000), 1e300);
    cr_assert_eq(sgl_combine_round_grid(1e-300, 1000), 0.0);
    cr_assert_eq(sgl_combine_round_grid(12345.0, 3), 12344.0);
    cr_assert(isinf(sgl_combine_round_grid(INFINITY, -52)));
    cr_assert(isnan(sgl_combine_round_grid(NAN, -52)));
    cr_assert(isnan(sgl_combine_round_grid(1.0, 1001)));
    cr_assert(isnan(sgl_combine_round_grid(1.0, -1001)));
    /* 1000 terms of 1/1000 in two orders: unrounded the sums differ */
    double t[1000], up = 0, down = 0, rup = 0, rdown = 0;
    for (int i = 0; i < 1000; i++)
        t[i] = (double)(i % 7 + 1) / 4000.0 / (double)(i % 13 + 1);
    for (int i = 0; i < 1000; i++) {
        up += t[i];
        rup += sgl_combine_round_grid(t[i], -52);
        down += t[999 - i];
        rdown += sgl_combine_round_grid(t[999 - i], -52);
    }
    cr_assert_neq(up, down, "pick terms whose plain sums round apart");
    cr_assert_eq(rup, rdown);
    cr_assert(fabs(rup - up) <= 1000 * 0x1p-53);
}

/* CRC32C, the checkpoints' checksum: the known answers (RFC 3720's
 * check value and its test vectors), every length across the 8-byte
 * slices, and a CRC chained over parts equal to the whole's. */
Test(pregel, crc32c)
{
    cr_assert_eq(sgl__crc32c(0, "123456789", 9), 0xE3069283u);
    cr_assert_eq(sgl__crc32c(0, "", 0), 0u);
    unsigned char zeros[32] = {0}, ones[32], inc[32];
    memset(ones, 0xff, sizeof ones);
    for (int i = 0; i < 32; i++)
        inc[i] = (unsigned char)i;
    cr_assert_eq(sgl__crc32c(0, zeros, 32), 0x8A9136AAu);
    cr_assert_eq(sgl__crc32c(0, ones, 32), 0x62A8AB43u);
    cr_assert_eq(sgl__crc32c(0, inc, 32), 0x46DD794Eu);
    /* bytewise reference, and chaining at every split */
    for (size_t n = 0; n <= 32; n++) {
        uint32_t c = ~0u;
        for (size_t i = 0; i < n; i++) {
            c ^= inc[i];
            for (int k = 0; k < 8; k++)
                c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        }
        cr_assert_eq(sgl__crc32c(0, inc, n), ~c, "length %zu", n);
        cr_assert_eq(sgl__crc32c(sgl__crc32c(0, inc, n / 3), inc + n / 3,
                                 n - n / 3),
                     ~c, "length %zu split", n);
    }
}
