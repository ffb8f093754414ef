#!/usr/bin/env bash
# Build the libFuzzer harnesses of tools/fuzz with clang + ASan/UBSan and run each in turn for its
# share of the seconds:
#   fuzz_parsers  every file loader (zkey, wtns, r1cs, params, vk, JSON, proof, the PoRep C1 output
#                 and its checks) on the same bytes
#   fuzz_post     the PoSt vanilla-proof reader and its checks (a parameter header, then the proof)
#   fuzz_snap     the SnapDeals partition-proof readers (bincode, Curio's JSON) and their checks
#   fuzz_daemon   cuzkd's request decoding and checks (a method byte, then the protobuf message),
#                 and the worker's vanilla-proof / C1 reading of what they accept
# Usage: tools/fuzz/run.sh [seconds]   the total over all targets (default $FUZZ_SECONDS or 60)
#   FUZZ_TARGETS="fuzz_post fuzz_daemon"   run only these      JOBS=n   build jobs (default nproc)
# The library and the harnesses are built in build-fuzz/lib (CMake, -DCUZK_FUZZ=ON; ccache when
# installed); each target's corpus grows in build-fuzz/corpus/<target> from the checked-in seeds
# in tools/fuzz/corpus/<target without fuzz_> (tools/fuzz/make_seeds.py). A finding (crash, leak,
# timeout over 10 s, memory over 4 GiB) is written to build-fuzz/<target>-crash-* (or leak-,
# timeout-, oom-) and the exit status is 1; replay one with build-fuzz/lib/<target> <file>.
# Exit 4: no clang.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECS=${1:-${FUZZ_SECONDS:-60}}
OUT=build-fuzz
ALL=(fuzz_parsers fuzz_post fuzz_snap fuzz_daemon)
read -r -a TARGETS <<<"${FUZZ_TARGETS:-${ALL[*]}}"
for c in clang clang++; do
    command -v $c >/dev/null || { echo "fuzz: $c is needed (tools/install-deps.sh --fuzz, or make fuzz)" >&2; exit 4; }
done
# The whole library instrumented for libFuzzer (coverage), ASan and UBSan, as CMake builds it.
FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
t0=$(date +%s)
CC=clang CXX=clang++ cmake -S . -B "$OUT/lib" -DCUZK_CUDA=OFF -DCUZK_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_C_FLAGS=$FLAGS" "-DCMAKE_CXX_FLAGS=$FLAGS" "${launcher[@]}" >/dev/null
if [[ " ${TARGETS[*]} " == *" fuzz_daemon "* ]] && [[ $(cmake --build "$OUT/lib" --target help) != *fuzz_daemon* ]]; then
    echo "fuzz: fuzz_daemon needs the daemon's dependencies (protobuf-c, gRPC C++, ...: tools/install-deps.sh)" >&2
    exit 4
fi
cmake --build "$OUT/lib" --target "${TARGETS[@]}" -j"${JOBS:-$(nproc)}" >"$OUT/build.log" 2>&1 ||
    { tail -n 30 "$OUT/build.log" >&2; echo "fuzz: the harnesses do not build (all of it: $OUT/build.log)" >&2; exit 2; }
echo "fuzz: built ${TARGETS[*]} in $(($(date +%s) - t0)) s"

per=$((SECS / ${#TARGETS[@]}))
[ "$per" -ge 1 ] || per=1
found=()
for t in "${TARGETS[@]}"; do
    seeds=tools/fuzz/corpus/${t#fuzz_}
    [ -n "$(ls "$seeds" 2>/dev/null)" ] || { echo "fuzz: $t: no seeds in $seeds" >&2; exit 2; }
    mkdir -p "$OUT/corpus/$t"
    cp -n "$seeds"/* "$OUT/corpus/$t/"
    rc=0
    # -max_len: a PoSt vanilla proof of 10 challenges at 32 GiB is 25 KB, a 2 KiB C1 output ~100 KB
    "$OUT/lib/$t" -max_total_time="$per" -max_len=131072 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$OUT/$t-" "$OUT/corpus/$t" >"$OUT/$t.log" 2>&1 || rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/$t.log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$OUT/$t.log" | tail -n 1 || true)
    if [ "$rc" -ne 0 ]; then
        found+=("$t")
        tail -n 40 "$OUT/$t.log"
        echo "fuzz: $t: FINDING after ${runs:-?} runs (exit $rc): $(ls -t "$OUT/$t"-* 2>/dev/null | head -n 1); log $OUT/$t.log"
    else
        echo "fuzz: $t: ${per} s, ${runs:-?} runs, ${cov:-cov ?}, corpus $(ls "$OUT/corpus/$t" | wc -l) inputs: no finding"
    fi
done
if [ "${#found[@]}" -gt 0 ]; then
    echo "fuzz: findings in ${found[*]}" >&2
    exit 1
fi
