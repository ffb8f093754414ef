#!/usr/bin/env bash
# Installs a build into a temporary prefix and uses it as a library user would:
#   - pkg-config --cflags --libs cuzk compiles and links a small C program against the installed
#     headers and libcuzk.so, which runs and checks a few answers of the public API;
#   - find_package(cuzk) + cuzk::cuzk does the same from a CMake project;
#   - the installed cuzk runs, and `cuzk bench` reaches the installed cuzk-bench (and fails with
#     exit 4 and a reason when cuzk-bench is missing).
# usage: tools/test-install.sh BUILD_DIR      (run by ctest as the entry `install`)
set -euo pipefail
build="$(cd "$1" && pwd)"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "test-install: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$t/prefix" >/dev/null
p="$t/prefix"
for f in include/cuzk/cuzk.h include/cuzk/groth16.h include/cuzk/engine.h bin/cuzk bin/cuzk-bench; do
    [ -e "$p/$f" ] || fail "$f was not installed"
done
if [ -x "$build/cuzkd" ]; then   # the daemon is built only when its packages are present
    [ -x "$p/bin/cuzkd" ] || fail "bin/cuzkd was not installed (build/cuzkd exists)"
    "$p/bin/cuzkd" --version | grep -q '^cuzkd ' || fail "installed cuzkd --version"
fi
pc=$(find "$p" -name cuzk.pc | head -1)
[ -n "$pc" ] || fail "cuzk.pc was not installed"
so=$(find "$p" -name 'libcuzk.so*' | head -1)
[ -n "$so" ] || fail "libcuzk.so was not installed"
cfg=$(find "$p" -name cuzkConfig.cmake | head -1)
[ -n "$cfg" ] || fail "cuzkConfig.cmake was not installed"
if find "$p" -name '*.h' -path '*include*' | grep -v '/include/cuzk/' | grep -q .; then
    fail "internal headers were installed: $(find "$p" -name '*.h' | grep -v /include/cuzk/ | head -3)"
fi

cat >"$t/app.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <cuzk/cuzk.h>
int main(void) {
    /* answers of the public API (include/cuzk/cuzk.h) that need no file or device */
    if (strcmp(cuzk_status_str(CUZK_OK), cuzk_status_str(CUZK_ERR_ARG)) == 0) return 1;
    cuzk_error e = {0};
    if (cuzk_error_set(&e, CUZK_ERR_IO, "app.c", 1, "x %d", 7) != CUZK_ERR_IO || !strstr(e.msg, "x 7")) return 2;
    if (!cuzk_check_level_str(CUZK_CHECK_CURVE)) return 3;
    printf("cuzk %s: ok\n", CUZK_VERSION);
    return 0;
}
C
# a library built with the sanitizers (make test-asan) needs them in the program too (the ASan
# runtime must be loaded first)
san=""
# (ldd's whole output first: `ldd | grep -q` under pipefail fails when grep exits early and ldd
# gets SIGPIPE, which dropped the flag at random and failed CI's asan run once)
deps=$(ldd "$so" 2>/dev/null || true)
case $deps in *libasan*) san="-fsanitize=address,undefined" ;; esac
export PKG_CONFIG_PATH="$(dirname "$pc")"
flags=$(pkg-config --cflags --libs cuzk) || fail "pkg-config --cflags --libs cuzk failed"
cc -std=c11 -Wall -Wextra -Werror $san "$t/app.c" -o "$t/app" $flags || fail "compiling with: $flags"
LD_LIBRARY_PATH="$(pkg-config --variable=libdir cuzk)" "$t/app" >"$t/app.out" || fail "the pkg-config program failed (exit $?)"
grep -q ': ok' "$t/app.out" || fail "the pkg-config program printed: $(cat "$t/app.out")"

mkdir -p "$t/cm"
cp "$t/app.c" "$t/cm/app.c"
cat >"$t/cm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.18)
project(app C)
find_package(cuzk REQUIRED)
add_executable(app app.c)
target_link_libraries(app PRIVATE cuzk::cuzk)
CM
cmake -S "$t/cm" -B "$t/cm/build" -DCMAKE_PREFIX_PATH="$p" -DCMAKE_C_FLAGS="$san" >"$t/cm.log" 2>&1 || { cat "$t/cm.log"; fail "find_package(cuzk) failed"; }
cmake --build "$t/cm/build" >>"$t/cm.log" 2>&1 || { cat "$t/cm.log"; fail "building against cuzk::cuzk failed"; }
"$t/cm/build/app" >/dev/null || fail "the CMake program failed"

# the installed binaries: cuzk finds libcuzk.so through its RPATH, and its bench command runs the
# installed cuzk-bench (a bad option: cuzk-bench's own usage error, exit 2)
"$p/bin/cuzk" --version | grep -q '^cuzk ' || fail "installed cuzk --version"
set +e
out=$(env -u LD_LIBRARY_PATH PATH=/usr/bin:/bin "$p/bin/cuzk" bench msm --repeat 0 2>&1); rc=$?
set -e
[ "$rc" = 2 ] && grep -q -- '--repeat must be' <<<"$out" || fail "installed cuzk bench did not reach cuzk-bench (exit $rc): $out"
mkdir -p "$t/alone"
cp "$p/bin/cuzk" "$t/alone/cuzk"
set +e
out=$(LD_LIBRARY_PATH="$(dirname "$so")" PATH=/nonexistent "$t/alone/cuzk" bench field 2>&1); rc=$?
set -e
[ "$rc" = 4 ] && grep -q 'cuzk-bench' <<<"$out" || fail "cuzk bench without cuzk-bench: exit $rc, '$out' (want 4 and a reason)"
echo "test-install: headers, libcuzk.so, cuzk.pc, cuzkConfig.cmake, binaries: ok"
