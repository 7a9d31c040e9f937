/* Files users name as input (machine files, hwloc XML exports) or as
 * output (sgl-probe's machine file): checked to be regular files before
 * a single byte moves. A FIFO with no writer blocks open() and read()
 * until killed, a device such as /dev/zero never ends, and a directory
 * reads as an error deep in a parser: each is refused at once, by kind. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine_impl.h"

const char *sgl__file_kind(unsigned mode)
{
    return S_ISREG(mode)    ? "a regular file"
           : S_ISDIR(mode)  ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "a special file";
}

int sgl__open_regular(const char *path, const char *purpose, int *ret_fd)
{
    char ep[512];
    if (!path)
        return sgl_error_set(SGL_EINVAL, "no path for the %s", purpose);
    /* O_NONBLOCK: open() of a FIFO with no writer returns at once instead
     * of waiting for one, so that fstat() can say what it is. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return sgl_error_set(SGL_EIO, "cannot open %s '%s': %s", purpose,
                             sgl__escape(path, 256, ep, sizeof ep),
                             strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return sgl_error_set(SGL_EIO,
                             "cannot read %s '%s': it is %s, not a regular "
                             "file",
                             purpose, sgl__escape(path, 256, ep, sizeof ep),
                             sgl__file_kind(st.st_mode));
    }
    /* Reads of a regular file never block; clearing the flag anyway keeps
     * the descriptor ordinary for whoever reads it (stdio, hwloc). */
    int fl = fcntl(fd, F_GETFL);
    if (fl != -1)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    *ret_fd = fd;
    return SGL_OK;
}

int sgl__read_regular(const char *path, const char *purpose, size_t max,
                      char **ret_buf, size_t *ret_len)
{
    int fd;
    int rc = sgl__open_regular(path, purpose, &fd);
    if (rc)
        return rc;
    char ep[512];
    sgl__escape(path, 256, ep, sizeof ep);
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap + 1);
    while (rc == SGL_OK && buf) {
        if (len == cap) {
            if (cap >= max) {
                /* One byte past the cap tells a file of exactly max
                 * bytes from a longer one. */
                char extra;
                ssize_t r = read(fd, &extra, 1);
                if (r > 0)
                    rc = sgl_error_set(SGL_EIO,
                                       "%s '%s' is longer than %zu bytes: "
                                       "not one SGL reads",
                                       purpose, ep, max);
                break;
            }
            cap = cap > max / 2 ? max : 2 * cap;
            char *b = realloc(buf, cap + 1);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
        }
        ssize_t r = read(fd, buf + len, cap - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            rc = sgl_error_set(SGL_EIO, "cannot read %s '%s': %s", purpose,
                               ep, strerror(errno));
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    if (rc == SGL_OK && !buf)
        rc = sgl_error_set(SGL_ENOMEM, "out of memory reading %s '%s'",
                           purpose, ep);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[len] = '\0';
    *ret_buf = buf;
    *ret_len = len;
    return SGL_OK;
}

int sgl__check_output(const char *path, const char *purpose)
{
    char ep[512];
    struct stat st;
    if (!path || !*path)
        return sgl_error_set(SGL_EINVAL, "no path for the %s", purpose);
    /* A missing file will be created as a regular one; anything else
     * that exists must already be one: opening a FIFO for writing waits
     * for a reader, and a device or directory is no place for a file. */
    if (stat(path, &st) != 0)
        return errno == ENOENT
                   ? SGL_OK
                   : sgl_error_set(SGL_EIO, "cannot write %s '%s': %s",
                                   purpose,
                                   sgl__escape(path, 256, ep, sizeof ep),
                                   strerror(errno));
    if (!S_ISREG(st.st_mode))
        return sgl_error_set(SGL_EIO,
                             "cannot write %s '%s': it is %s, not a regular "
                             "file",
                             purpose, sgl__escape(path, 256, ep, sizeof ep),
                             sgl__file_kind(st.st_mode));
    return SGL_OK;
}

/* The error for an output @path that exists and is no regular file, or
 * SGL_OK if it is one or cannot be stat()ed. */
static int not_regular(const char *path, const char *purpose)
{
    char ep[512];
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return SGL_OK;
    return sgl_error_set(SGL_EIO,
                         "cannot write %s '%s': it is %s, not a regular file",
                         purpose, sgl__escape(path, 256, ep, sizeof ep),
                         sgl__file_kind(st.st_mode));
}

int sgl__open_output(const char *path, const char *purpose, FILE **ret)
{
    char ep[512];
    if (!path || !*path)
        return sgl_error_set(SGL_EINVAL, "no path for the %s", purpose);
    /* O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of
     * waiting for one, and one with a reader opens for fstat() to name.
     * No O_TRUNC: nothing is cut before the file is known to be regular. */
    int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
                  0666);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        SGL_TRY(not_regular(path, purpose));
        return sgl_error_set(SGL_EIO, "cannot write %s '%s': %s", purpose,
                             sgl__escape(path, 256, ep, sizeof ep),
                             strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return sgl_error_set(SGL_EIO,
                             "cannot write %s '%s': it is %s, not a regular "
                             "file",
                             purpose, sgl__escape(path, 256, ep, sizeof ep),
                             sgl__file_kind(st.st_mode));
    }
    int fl = fcntl(fd, F_GETFL);
    FILE *f = NULL;
    if (ftruncate(fd, 0) != 0 ||
        (fl != -1 && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) ||
        !(f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        return sgl_error_set(SGL_EIO, "cannot write %s '%s': %s", purpose,
                             sgl__escape(path, 256, ep, sizeof ep),
                             strerror(e));
    }
    *ret = f;
    return SGL_OK;
}
