#!/usr/bin/env bash
# Build the parser fuzzer with clang's libFuzzer + ASan/UBSan and run it.
#   tools/fuzz/run.sh [seconds]      (default $FUZZ_SECONDS or 60)
# Crashes are written to build-fuzz/crash-*; the corpus grows in build-fuzz/corpus (the checked-in
# seeds stay in tools/fuzz/corpus).
set -euo pipefail
cd "$(dirname "$0")/../.."
SECS=${1:-${FUZZ_SECONDS:-60}}
OUT=build-fuzz
mkdir -p "$OUT/corpus"
command -v clang >/dev/null || { echo "fuzz: clang is needed (tools/install-deps.sh --fuzz, or make fuzz)" >&2; exit 4; }
# The library as CMake builds it (curve-generic sources compiled once per curve, the daemon left
# out), instrumented for libFuzzer, then the fuzz driver linked against it.
CC=clang cmake -S . -B "$OUT/lib" -DCUZK_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" >/dev/null
cmake --build "$OUT/lib" --target cuzk_core -j"${JOBS:-$(nproc)}" >/dev/null
clang -std=c11 -O1 -g -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
      -Iinclude -Isrc tools/fuzz/fuzz_parsers.c "$OUT/lib/libcuzk_core.a" -o "$OUT/fuzz_parsers" \
      -ljansson -lcrypto -lpthread -lm
cp -n tools/fuzz/corpus/* "$OUT/corpus/" 2>/dev/null || true
"$OUT/fuzz_parsers" -max_total_time="$SECS" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$OUT/" "$OUT/corpus" 2>&1 | tail -n 20
