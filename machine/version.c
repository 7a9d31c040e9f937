/* The library's version (version.h). */
#include <sgl/version.h>

const char *sgl_version(void) { return SGL_VERSION_STRING; }
