# The commit cuzk is built from, for `cuzk version` and the benchmark headers: CUZK_GIT_HASH.
#   1. `git rev-parse --short HEAD` in a checkout;
#   2. in a source archive made by `git archive` (or a GitHub tarball), the commit that git wrote
#      into cmake/archive-commit.txt (export-subst, see .gitattributes);
#   3. otherwise "none (not built from git)".
# Script mode prints it: cmake -DCUZK_SOURCE_DIR=DIR -P cmake/cuzk_version.cmake
function(cuzk_git_hash out src)
  execute_process(COMMAND git rev-parse --short HEAD WORKING_DIRECTORY ${src}
                  OUTPUT_VARIABLE h OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT h)
    set(h "")
    if(EXISTS ${src}/cmake/archive-commit.txt)
      file(STRINGS ${src}/cmake/archive-commit.txt a LIMIT_COUNT 1)
      if(a AND NOT a MATCHES "Format")
        set(h "${a} (source archive)")
      endif()
    endif()
    if(NOT h)
      set(h "none (not built from git)")
    endif()
  endif()
  set(${out} "${h}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND CUZK_SOURCE_DIR)
  cuzk_git_hash(h ${CUZK_SOURCE_DIR})
  message("${h}")
endif()
