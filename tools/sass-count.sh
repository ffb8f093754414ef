#!/usr/bin/env bash
# SASS instruction counts per kernel, without a GPU: every instruction of sm_70 and later is 16
# bytes, so a kernel's .text section in the cubin is its instruction count times 16. Used to see
# what ptxas makes of a change before a device run (bench/GPU_RESULTS.md session 9: the BLS12-381
# Fr product at 560 instructions for two products, 448 once inv came from constant memory).
#
#   tools/sass-count.sh [--arch SM] FILE.cu [PATTERN]    compile FILE.cu with the project's include
#                                                        paths (nvcc -cubin, -O3) and list its kernels
#   tools/sass-count.sh FILE.cubin [PATTERN]             list the kernels of a cubin
#
# SM: 90a (default) or 80, ...; PATTERN: an extended regex on the mangled kernel names;
# NVCC_FLAGS: more nvcc arguments (e.g. -I for a benchmark's other headers).
# Prints "instructions  kernel", sorted by name. Needs nvcc (for .cu) and readelf (binutils).
set -u
ARCH=90a
if [ "${1:-}" = "--arch" ]; then ARCH=$2; shift 2; fi
IN=${1:-}
PAT=${2:-.}
if [ -z "$IN" ] || [ "$IN" = "-h" ] || [ "$IN" = "--help" ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
[ -f "$IN" ] || { echo "sass-count: no such file: $IN" >&2; exit 2; }
command -v readelf >/dev/null || { echo "sass-count: readelf not found (Debian: binutils)" >&2; exit 2; }
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CUBIN=$IN
TMP=
case $IN in
  *.cubin) ;;
  *.cu)
    command -v nvcc >/dev/null || { echo "sass-count: nvcc not found" >&2; exit 2; }
    TMP=$(mktemp -d) || exit 1
    trap 'rm -rf "$TMP"' EXIT
    CUBIN=$TMP/out.cubin
    # the build's generated headers (the BN254 names) live in a build folder; any configured one will do
    GEN=()
    for b in "$ROOT"/build*; do [ -d "$b" ] && GEN+=(-I"$b"); done
    nvcc -O3 -std=c++17 --expt-relaxed-constexpr -gencode=arch=compute_$ARCH,code=sm_$ARCH \
      -I"$ROOT/src" -I"$ROOT/include" "${GEN[@]}" ${NVCC_FLAGS:-} -cubin -o "$CUBIN" "$IN" || exit 1 ;;
  *) echo "sass-count: want a .cu or .cubin file: $IN" >&2; exit 2 ;;
esac
readelf -S -W "$CUBIN" 2>/dev/null | awk '$2 ~ /^\.text\./ { print $6, substr($2, 7) }' |
  while read -r hex name; do printf '%8d  %s\n' $(( 16#$hex / 16 )) "$name"; done |
  grep -E -- "$PAT" | sort -k2
