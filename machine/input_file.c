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

/* The error for @path, which is no regular file (st_mode @mode). */
static int refuse_kind(const char *verb, const char *path,
                       const char *purpose, unsigned mode)
{
    char ep[512];
    return sgl_error_set(SGL_EIO,
                         "cannot %s %s '%s': it is %s, not a regular file",
                         verb, purpose, sgl__escape(path, 256, ep, sizeof ep),
                         sgl__file_kind(mode));
}

static int refuse_errno(const char *verb, const char *path,
                        const char *purpose, int e)
{
    char ep[512];
    return sgl_error_set(SGL_EIO, "cannot %s %s '%s': %s", verb, purpose,
                         sgl__escape(path, 256, ep, sizeof ep), strerror(e));
}

/* The one way both directions open a file a user named: O_NONBLOCK, so
 * that a FIFO without a peer neither blocks open() (reading) nor waits
 * for a reader (writing: ENXIO), then fstat() on what was opened, so
 * that the kind checked is the kind used. Where open() itself fails, a
 * path that exists as something else is named by its kind (a socket
 * cannot be opened at all), else by errno with @open_verb. */
static int open_checked(const char *path, const char *purpose, int flags,
                        const char *open_verb, const char *kind_verb,
                        int *ret_fd)
{
    int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
            return refuse_kind(kind_verb, path, purpose, st.st_mode);
        return refuse_errno(open_verb, path, purpose, e);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return refuse_kind(kind_verb, path, purpose, st.st_mode);
    }
    /* I/O on a regular file never blocks; clearing the flag keeps the
     * descriptor ordinary for whoever uses it (stdio, hwloc). */
    int fl = fcntl(fd, F_GETFL);
    if (fl != -1 && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        return refuse_errno(open_verb, path, purpose, e);
    }
    *ret_fd = fd;
    return SGL_OK;
}

int sgl__open_regular(const char *path, const char *purpose, int *ret_fd)
{
    if (!path)
        return sgl_error_set(SGL_EINVAL, "no path for the %s", purpose);
    return open_checked(path, purpose, O_RDONLY, "open", "read", ret_fd);
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
    struct stat st;
    if (!path || !*path)
        return sgl_error_set(SGL_EINVAL, "no path for the %s", purpose);
    /* A missing file will be created as a regular one; anything else
     * that exists must already be one: opening a FIFO for writing waits
     * for a reader, and a device or directory is no place for a file. */
    if (stat(path, &st) != 0)
        return errno == ENOENT ? SGL_OK
                               : refuse_errno("write", path, purpose, errno);
    if (!S_ISREG(st.st_mode))
        return refuse_kind("write", path, purpose, st.st_mode);
    return SGL_OK;
}

int sgl__open_output(const char *path, const char *purpose, FILE **ret)
{
    if (!path || !*path)
        return sgl_error_set(SGL_EINVAL, "no path for the %s", purpose);
    /* No O_TRUNC: nothing is cut before the file is known to be regular. */
    int fd;
    SGL_TRY(open_checked(path, purpose, O_WRONLY | O_CREAT, "write", "write",
                         &fd));
    FILE *f = NULL;
    if (ftruncate(fd, 0) != 0 || !(f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        return refuse_errno("write", path, purpose, e);
    }
    *ret = f;
    return SGL_OK;
}
