#!/usr/bin/env bash
# Filecoin PoSt at full scale on the GPU machine (issue 14): one script, several modes, each
# within one device call (10 min) including a ~150 s sm_90a build of cuzk-bench. Nothing large
# goes to disk: the circuit is recorded in memory and the INSECURE test parameters are made in
# memory (`cuzk bench post --prove`, bench/post_prove.c), so the 64 GiB disk is no limit; the
# real golden vanilla proof is tests/fixtures/filecoin/post.vproof (in the tree).
#
#   tools/post-full-gpu.sh [MODE ...]        (from anywhere; default: quick)
#
#   counts64  the 64 GiB WindowPoSt partition (2300 sectors, 130M constraints): counts and A/B
#             densities from a recording pass on all cores, against CIRCUITS.md section 4
#   synth     the 32 GiB WindowPoSt partition (golden sector padded to 2349, 125M constraints):
#             witness-only synthesis on all cores (median of 5) and on one core; its density pass
#   winning   WinningPoSt 32 GiB (66 x 1, 370,590 constraints) end to end, key hot: one warm-up
#             job then 20 jobs, each vanilla read + checks + synthesis + GPU prove + verify;
#             latency median (Curio's daemon: 0.8 s)
#   window    the full 32 GiB WindowPoSt partition: record in memory, test parameters in memory
#             (point sets on the GPU), preload, one job through the engine (synthesis on all
#             cores, GPU prove, B_G2 on the GPU (the default; CUZK_GPU_B2=0: CPU threads),
#             assembly), verified; every stage timed, each
#             stage's line ("stage: +elapsed name ms") printed on the console as the stage ends
#   quick     counts64 synth winning (~1-2 min after the build)
#   all       quick window (only if the build is already there: see the time plan below)
#
# Time plan (predictions, bench/RESULTS.md section 17): build 150 s; quick ~90 s; window
# ~100-450 s (record ~20 s, setup ~50-80 s, preload ~15 s; B_G2 2.2 s on the GPU, session 8, or
# 90-280 s on 16 CPU threads with CUZK_GPU_B2=0). So:
# call 1 `quick`, call 2 `window` right after (the warm machine keeps build-gpu; a fresh one
# rebuilds and still fits). Host memory for window: ~86 GiB peak (model printed by the run).
#
# env: BUILD (default build-gpu), PREBUILT (a folder with cuzk-bench built for sm_90a elsewhere,
# tools/prebuilt.sh: skips the build), GPU_BUDGETS (window: GiB list for --gpu-budget, e.g.
# 0,48,24: one engine each over the same parameters, issue 23), JOBS, BUDGET_S (seconds this call may use in all, build
# included; default 570), WINNING_JOBS (default 20). Logs under $OUT (or ./bench-out), at most
# 8 files; a table is printed last. For a dry run of this script on a machine without a GPU:
# SMALL=1 (reduced circuits: 1, 4, 2 and 2 sectors), BACKEND=cpu, CMAKE_ARGS=-DCUZK_CUDA=OFF.
set -u
cd "$(dirname "$0")/.."
T_START=$(date +%s)
BUILD=${BUILD:-build-gpu}
JOBS=${JOBS:-$(nproc)}
BUDGET_S=${BUDGET_S:-570}
BACKEND=${BACKEND:-gpu}
if [ "${SMALL:-0}" = 1 ]; then
  C64=(--sectors 1); M64=window-64g-1; CSYN=(--sectors 4); CWIN=(--sectors 2); CWND=(--sectors 2)
else
  C64=(); M64=window-64g; CSYN=(); CWIN=(); CWND=()
fi
DEST=${OUT:-bench-out}
mkdir -p "$DEST"
MODES=("$@")
[ ${#MODES[@]} = 0 ] && MODES=(quick)
EXP=()
for m in "${MODES[@]}"; do
  case $m in
    quick) EXP+=(counts64 synth winning) ;;
    all) EXP+=(counts64 synth winning window) ;;
    counts64|synth|winning|window) EXP+=("$m") ;;
    *) echo "post-full-gpu.sh: unknown mode '$m' (counts64 synth winning window quick all)"; exit 2 ;;
  esac
done
ROWS=()
row() { ROWS+=("$(printf '%-9s %-4s %6s  %s' "$1" "$2" "$3" "$4")"); }
left() { echo $(( BUDGET_S - ($(date +%s) - T_START) )); }
finish() {
  {
    printf '\n==== cuzk Filecoin PoSt on the GPU machine (issue 14), git %s ====\n' "$(git rev-parse --short HEAD 2>/dev/null || echo '?')"
    printf '%-9s %-4s %6s  %s\n' step rc wall_s result
    printf '%s\n' "${ROWS[@]}"
  } | tee "$DEST/post_summary.txt"
}

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,memory.total --format=csv,noheader 2>&1 | head -2
  echo "cpus $(nproc); $(grep -E 'MemTotal|MemAvailable' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
  df -h /tmp . 2>/dev/null | tail -2
} | tee "$DEST/post_machine.txt"

# ---- build (cuzk-bench only), as tools/test-gpu.sh builds -------------------------------------
CMAKE_EXTRA=()
if ! echo '#include <jansson.h>' | cc -E -x c - >/dev/null 2>&1; then
  if ls .deps/*.deb >/dev/null 2>&1; then
    mkdir -p /opt/cuzk-deps
    for f in .deps/*.deb; do dpkg -x "$f" /opt/cuzk-deps; done
    CMAKE_EXTRA=(-DCMAKE_PREFIX_PATH=/opt/cuzk-deps/usr -DCMAKE_LIBRARY_PATH=/opt/cuzk-deps/usr/lib/x86_64-linux-gnu
                 -DCMAKE_INCLUDE_PATH=/opt/cuzk-deps/usr/include)
    export LD_LIBRARY_PATH=/opt/cuzk-deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  else
    echo "deps: jansson.h not found and no .deps/ packages (carry .deps)"
  fi
fi
NOWERR="-Wno-error=stringop-overflow -Wno-error=stringop-overread -Wno-error=array-bounds -Wno-error=maybe-uninitialized"
t0=$(date +%s)
if [ -n "${PREBUILT:-}" ] && "$PREBUILT/cuzk-bench" --help >/dev/null 2>&1; then
  # binaries built elsewhere for sm_90a (tools/prebuilt.sh): no build here
  BUILD=$PREBUILT
  row build 0 0 "prebuilt cuzk-bench in $PREBUILT"
# shellcheck disable=SC2086
elif cmake -S . -B "$BUILD" -DCUZK_CUDA_ARCHS=90a -DCMAKE_CUDA_ARCHITECTURES=90a "-DCMAKE_C_FLAGS=$NOWERR" \
     "${CMAKE_EXTRA[@]}" ${CMAKE_ARGS:-} >"$DEST/post_build.log" 2>&1 &&
   cmake --build "$BUILD" -j"$JOBS" --target cuzk-bench >>"$DEST/post_build.log" 2>&1; then
  cuda=$(grep -q "CUDA backend ON" "$DEST/post_build.log" && echo "sm_90a" || echo "CUDA OFF?")
  row build 0 $(( $(date +%s) - t0 )) "cuzk-bench ($cuda) in $BUILD"
else
  grep -n -E "error|Error" "$DEST/post_build.log" | head -30; tail -n 40 "$DEST/post_build.log"
  row build 1 $(( $(date +%s) - t0 )) "FAILED (post_build.log)"
  finish; exit 1
fi
BENCH=$BUILD/cuzk-bench

# host memory over time (the window run's peak; a VM whose memory grows on use reads low at first)
( while :; do printf '%s %s\n' "$(date +%s)" "$(grep -E 'MemAvailable|MemTotal' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"; sleep 5; done ) \
  >"$DEST/post_mem.log" 2>&1 &
SAMPLER=$!
trap 'kill $SAMPLER 2>/dev/null' EXIT

VP=tests/fixtures/filecoin/post.vproof
WV=tests/fixtures/filecoin/winning-66.vproof   # one sector, 66 challenges: the real WinningPoSt input shape
[ "${SMALL:-0}" = 1 ] && WV=tests/fixtures/filecoin/winning.vproof   # 2 challenges for the 2-slot circuit
RC=0
run() { # name limit_s cmd...   (STREAM=1: the run's "stage:" lines also go to the console as they come)
  local name=$1 lim=$2; shift 2
  local t=$(date +%s) rc
  if [ "${STREAM:-0}" = 1 ]; then
    timeout "$lim" "$@" 2>&1 | tee -a "$DEST/post_$name.log" | grep --line-buffered '^stage:'
    rc=${PIPESTATUS[0]}
  else
    timeout "$lim" "$@" >>"$DEST/post_$name.log" 2>&1
    rc=$?
  fi
  LAST_RC=$rc; LAST_S=$(( $(date +%s) - t ))
  [ $rc = 0 ] || RC=1
  [ $rc = 124 ] && echo "($name: stopped at its ${lim} s limit)" >>"$DEST/post_$name.log"
}
for m in "${EXP[@]}"; do
  rem=$(left)
  if [ "$rem" -lt 30 ]; then row "$m" - 0 "not run: ${rem} s left of BUDGET_S=$BUDGET_S"; RC=1; continue; fi
  : >"$DEST/post_$m.log"
  case $m in
    counts64)
      run counts64 $((rem - 10)) "$BENCH" post --circuit window-post-64g "${C64[@]}" --no-witness --record
      want=$(awk -v m="$M64" '$1=="post" && $2==m {print "inputs "$6" aux "$8" constraints "$10" a_aux "$12" b_aux "$14}' tests/fixtures/filecoin/model_counts.txt)
      got=$(grep -m1 '^counts:' "$DEST/post_counts64.log" | sed -E 's/.*(inputs .* b_aux [0-9]+).*/\1/')
      wall=$(grep -m1 '^record (densities)' "$DEST/post_counts64.log" | awk '{print $4" ms"}')
      if [ -n "$got" ] && [ "$got" = "$want" ]; then res="$got = CIRCUITS.md: yes (pass $wall)"; else res="got '$got', CIRCUITS.md '$want': NO"; RC=1; fi
      row counts64 "$LAST_RC" "$LAST_S" "$res" ;;
    synth)
      run synth $((rem - 10)) "$BENCH" post --circuit window-post-32g "${CSYN[@]}" --vproof "$VP" --repeat 5 --record
      w16=$(grep -m1 '^witness-only' "$DEST/post_synth.log" | awk '{print $3" threads: median "$6" ms (min "$9", max "$11")"}')
      w1=$(grep '^witness-only' "$DEST/post_synth.log" | sed -n 2p | awk '{print "; 1 thread "$6" ms"}')
      d=$(grep -m1 '^record (densities)' "$DEST/post_synth.log" | awk '{print "; density pass "$4" ms"}')
      row synth "$LAST_RC" "$LAST_S" "witness-only 32 GiB partition, ${w16:-no result}${w1}${d}" ;;
    winning)
      run winning $((rem - 10)) "$BENCH"  post --prove --backend "$BACKEND" --circuit winning-post-32g "${CWIN[@]}" --vproof "$WV" --repeat "${WINNING_JOBS:-20}"
      l=$(grep -m1 '^latency:' "$DEST/post_winning.log" | sed -E 's/^latency: //; s/ \(create.*\);/;/')
      v=$(grep -m1 '^verified:' "$DEST/post_winning.log" | sed 's/verified: //')
      j=$(grep '^job ' "$DEST/post_winning.log" | tail -1 | sed -E 's/.*\| synthesis ([0-9.]+) \| prove start ([0-9.]+).*\| B_G2 ([0-9.]+).*finish \(assembly\) ([0-9.]+).*verify ([0-9.]+) ms.*/synthesis \1, GPU prove start \2, B_G2 \3, finish \4, verify \5 ms/')
      row winning "$LAST_RC" "$LAST_S" "latency ${l:-no result} | last job: ${j:-} | ${v:-not verified}" ;;
    window)
      echo "window: each stage's time as it ends (bench/RESULTS.md section 20); the whole log is post_window.log"
      STREAM=1 run window $((rem - 5)) "$BENCH" post --prove --backend "$BACKEND" --circuit window-post-32g "${CWND[@]}" --vproof "$VP" \
        ${GPU_BUDGETS:+--gpu-budget "$GPU_BUDGETS"}
      L=$DEST/post_window.log
      # the stage lines in one compact field (a stopped run shows where it was)
      stages=$(grep '^stage:' "$L" | grep -v -e ' begins ' -e '(running)' | sed -E 's/^stage: \+[0-9.]+ s //; s/ ms( .*)?$//' |
               awk '{t=$NF; $NF=""; printf "%s%s%.1f s", (NR>1?"; ":""), $0, t/1000}')
      last=$(grep '^stage:' "$L" | tail -1 | sed 's/^stage: //')
      rec=$(grep -m1 '^record:' "$L" | sed -E 's/^record: ([0-9.]+) ms.*nnz (A [0-9]+ B [0-9]+ C [0-9]+), circuit ([0-9.]+ GiB).*/record \1 ms (\2, \3)/')
      set_=$(grep -m1 '^setup:' "$L" | sed -E 's/^setup: ([0-9.]+) ms.*GiB: (.*) ms; peak.*/setup \1 ms [\2]/')
      pre=$(grep -m1 '^preload:' "$L" | sed -E 's/^preload: ([0-9.]+) ms.*/preload \1 ms/')
      job=$(grep -m1 '^job 0' "$L" | sed -E 's/.*\| synthesis ([0-9.]+) \| prove start ([0-9.]+).*\| B_G2 ([0-9.]+).*finish \(assembly\) ([0-9.]+) \| submit -> proof ([0-9.]+).*verify ([0-9.]+) ms: ([A-Z]+).*/synthesis \1, GPU prove start \2, B_G2 \3, finish \4, submit->proof \5, verify \6 ms: \7/')
      mem=$(grep -m1 '^memory:' "$L" | sed -E 's/^memory: //')
      v=$(grep -m1 '^verified:' "$L" | sed 's/verified: //')
      row window "$LAST_RC" "$LAST_S" "${rec:-no record} | ${set_:-no setup} | ${pre:-no preload} | ${job:-no proof} | ${v:-not verified} | ${mem:-}"
      row window-stages - - "${stages:-none} | last: ${last:-none}"
      # GPU_BUDGETS: one line per budget (verified, submit -> proof, resident, streamed), or its refusal
      while read -r bl; do row window-budget - - "${bl#budget }"; done < <(grep -E '^budget [0-9]+ GiB: ' "$L")
      tail -n 20 "$L" ;;
  esac
done
kill $SAMPLER 2>/dev/null
finish
exit $RC
