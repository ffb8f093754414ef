/* The loaded library's version and git commit (include/cuzk/cuzk.h), for `cuzk version`,
 * `cuzkd --version` and the benchmark headers. CUZK_GIT_HASH is set by the build for this file only
 * (CMakeLists.txt, cmake/cuzk_version.cmake: the commit at configure time). */
#include "cuzk/cuzk.h"

#ifndef CUZK_GIT_HASH
#define CUZK_GIT_HASH "none (not built from git)"
#endif

const char *cuzk_version_string(void) { return CUZK_VERSION; }
const char *cuzk_git_commit(void) { return CUZK_GIT_HASH; }
