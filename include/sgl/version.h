/**
 * @file version.h
 * The version of the SGL headers a program is compiled against; the
 * library it runs with says its own with sgl_version(). meson.build
 * checks that these numbers are the project's version.
 */
#ifndef SGL_VERSION_H
#define SGL_VERSION_H

#include <sgl/api.h>

/** Major version; the library's soname changes with it only. */
#define SGL_VERSION_MAJOR 0
/** Minor version. */
#define SGL_VERSION_MINOR 4
/** Patch version. */
#define SGL_VERSION_PATCH 0
/** "MAJOR.MINOR.PATCH" */
#define SGL_VERSION_STRING "0.4.0"
/** One number that orders versions: MAJOR * 10000 + MINOR * 100 + PATCH. */
#define SGL_VERSION_NUMBER                                                     \
    (SGL_VERSION_MAJOR * 10000 + SGL_VERSION_MINOR * 100 + SGL_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/** @defgroup sgl_version Version
 *  The version the program was compiled against and the one it runs with.
 *  @{ */

/** The version of the library the program runs with ("0.4.0"), to
 *  compare with the SGL_VERSION_STRING it was compiled against. Static
 *  storage. */
SGL_API const char *sgl_version(void);

/** @} */

#ifdef __cplusplus
}
#endif

#endif
