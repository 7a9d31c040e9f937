/* The version macros and the library's version agree. */
#include <criterion/criterion.h>
#include <stdio.h>

#include <sgl/sgl.h>

Test(version, library_matches_headers)
{
    cr_expect_str_eq(sgl_version(), SGL_VERSION_STRING);
    char composed[32];
    snprintf(composed, sizeof composed, "%d.%d.%d", SGL_VERSION_MAJOR,
             SGL_VERSION_MINOR, SGL_VERSION_PATCH);
    cr_expect_str_eq(composed, SGL_VERSION_STRING);
    cr_expect_eq(SGL_VERSION_NUMBER, SGL_VERSION_MAJOR * 10000 +
                                         SGL_VERSION_MINOR * 100 +
                                         SGL_VERSION_PATCH);
}
