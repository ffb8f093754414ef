#!/usr/bin/env bash
# cuzk against the peer (sppark, ../shared/peer) on this machine's GPU, in one run, at the same
# sizes: builds both, times both (data resident on the device, warm-up, median of repeats, CUDA
# events on both sides), and prints a table of cuzk ms, sppark ms and their ratio LAST
# (ratio = cuzk / sppark: above 1 means cuzk is slower). Every performance claim in bench/ is a
# ratio from one such run (issue 11).
#
# The peer is a benchmark-only copy that must never enter the project: copy it into an ignored
# folder of the checkout (it is never compiled into cuzk; none of its code enters src/):
#     cp -r ../shared/peer .peer        (.gitignore lists /.peer/)
# and, on a remote GPU machine that receives only the working tree, send .peer along with it.
#
# Usage: tools/bench-vs-peer.sh [msm LG]... [ntt LG]... [tasks | runs]...
#   default cases: msm 20 msm 22 msm 24 msm 26 ntt 24 ntt 26 ntt 27
#   tasks / runs: cuzk's MSM accumulation (cuzk_msm_opts.accumulation) for the msm cases after it,
#   e.g. "tasks msm 24 runs msm 24" puts both next to one sppark measurement of 2^24.
# env: PEER_DIR (default .peer), PEER_REBUILD=1 (build the peer even when PEER_DIR/build has it), BUILD (default build-gpu: the cuzk build, shared with
#      tools/test-gpu.sh; an existing build is only brought up to date), JOBS, PEER_REPS (7),
#      BENCH_CURVES (the curves, in this order: "bls12_381" (default), "bn254" (BN254 alone: the
#      same cases, cuzk with its default accumulation), or "bls12_381 bn254"), PEER_BN254=1 (the same
#      as BENCH_CURVES="bls12_381 bn254"), LOG_DIR (default: $OUT when set, else
#      the build folder's parent), CUZK_COMMIT (the commit named in the table; default: .prebuilt/COMMIT when
#      PREBUILT is set, else git's HEAD).
# Inputs on both sides: G1 MSM with scalars uniform below r and distinct points of G1 (sums of
# random multiples of the generator); NTT forward, natural order in and out, one vector of random
# Fr elements.
# Checks: every timed cuzk case checks its own result (cuzk bench gpu: the MSM against [K] G for the
# known discrete logarithms of its bases, the NTT against naive sums at sampled indices; a wrong
# result prints FAILED instead of a time); the peer checks its MSMs against blst / a host
# double-and-add and its NTT (delta and round trip) before timing ("check sppark ... PASS|FAIL").
# The table's last column says whether both sides' checks passed.
# Exit status: 0 when both sides ran every case and every check passed, 1 otherwise (the table
# marks what is missing or failed).
set -u
cd "$(dirname "$0")/.." || exit 2
# the commit the timed binaries were built from: a prebuilt's (.prebuilt/COMMIT, tools/prebuilt.sh),
# else this checkout's HEAD
cuzk_commit() {
  if [ -n "${PREBUILT:-}" ] && [ -f .prebuilt/COMMIT ]; then echo "$(cut -c1-7 .prebuilt/COMMIT) (prebuilt)"
  else git rev-parse --short HEAD 2>/dev/null || echo '?'; fi
}
ROOT=$PWD
PEER_DIR=${PEER_DIR:-.peer}
BUILD=${BUILD:-build-gpu}
LOG_DIR=${LOG_DIR:-${OUT:-$ROOT}}
CASES=()
while [ $# -gt 0 ]; do
  case $1 in
    msm|ntt)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[0-9]+$ ]]; then echo "bench-vs-peer.sh: '$1' needs a size (log2)" >&2; exit 2; fi
      CASES+=("$1" "$2"); shift ;;
    tasks|runs) CASES+=("$1" "-") ;;
    affine) echo "bench-vs-peer.sh: the GPU batch-affine accumulation was removed (it was slower than tasks): use tasks or runs" >&2; exit 2 ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-vs-peer.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#CASES[@]} -eq 0 ] && CASES=(msm 20 msm 22 msm 24 msm 26 ntt 24 ntt 26 ntt 27)
[ -f "$PEER_DIR/run-peer.sh" ] || { echo "bench-vs-peer.sh: no peer at $PEER_DIR (see --help)" >&2; exit 2; }
PEER_DIR=$(cd "$PEER_DIR" && pwd)
mkdir -p "$LOG_DIR"
T0=$(date +%s)
say() { echo "[bench-vs-peer $(( $(date +%s) - T0 ))s] $*"; }

# 1. the peer's build in the background, beside cuzk's (both only compile; nothing is timed yet);
#    skipped when its binaries are there already (PEER_REBUILD=1 forces it)
CURVES=${BENCH_CURVES:-bls12_381}
[ "${PEER_BN254:-0}" = 1 ] && [ -z "${BENCH_CURVES:-}" ] && CURVES="bls12_381 bn254"
HAVE_BLS=0; HAVE_BN=0
for c in $CURVES; do
  case $c in
    bls12_381) HAVE_BLS=1 ;;
    bn254) HAVE_BN=1 ;;
    *) echo "bench-vs-peer.sh: unknown curve '$c' in BENCH_CURVES (bls12_381, bn254)" >&2; exit 2 ;;
  esac
done
[ $HAVE_BLS = 1 ] || [ $HAVE_BN = 1 ] || { echo "bench-vs-peer.sh: BENCH_CURVES names no curve" >&2; exit 2; }
PEER_PID=
if [ "${PEER_REBUILD:-0}" = 1 ] || { [ $HAVE_BLS = 1 ] && [ ! -x "$PEER_DIR/build/sppark_bench" ]; } ||
   { [ $HAVE_BN = 1 ] && [ ! -x "$PEER_DIR/build/sppark_bench_bn254" ]; }; then
  say "peer build (background, log $LOG_DIR/peer-build.log)"
  PEER_CURVES=$CURVES PEER_BUILD="$PEER_DIR/build" bash "$PEER_DIR/run-peer.sh" --build-only >"$LOG_DIR/peer-build.log" 2>&1 &
  PEER_PID=$!
else
  say "peer already built ($PEER_DIR/build)"
fi

# 2. cuzk: build (or bring up to date) and time, through tools/test-gpu.sh
ARGS=""
BN_ARGS=""
PEER_CASES=()
for (( i = 0; i < ${#CASES[@]}; i += 2 )); do
  case ${CASES[i]} in
    tasks|runs) ARGS="$ARGS ${CASES[i]}" ;;
    *) ARGS="$ARGS ${CASES[i]} ${CASES[i+1]}"
       BN_ARGS="$BN_ARGS ${CASES[i]} ${CASES[i+1]}"
       [[ " ${PEER_CASES[*]-} " == *" ${CASES[i]}:${CASES[i+1]} "* ]] || PEER_CASES+=("${CASES[i]}:${CASES[i+1]}") ;;
  esac
done
PEER_ARGS=()
for pc in "${PEER_CASES[@]}"; do PEER_ARGS+=("${pc%%:*}" "${pc##*:}"); done
# BN254 cases: the default accumulation (tasks), whatever the BLS12-381 cases chose
[ $HAVE_BLS = 1 ] || ARGS=""
[ $HAVE_BN = 1 ] && ARGS="$ARGS tasks bn254$BN_ARGS"
say "cuzk: tools/test-gpu.sh --bench-only, GPU_BENCH_ARGS='$ARGS'"
BUILD=$BUILD GPU_BENCH_ARGS="$ARGS" MEMCHECK=0 tools/test-gpu.sh --bench-only >"$LOG_DIR/cuzk-bench.log" 2>&1
say "cuzk done (rc $?)"
if [ -n "$PEER_PID" ]; then
  wait "$PEER_PID"
  say "peer build done (rc $?)"
fi

# 3. the peer, on the now idle GPU
PEER_CURVES=$CURVES PEER_BUILD="$PEER_DIR/build" PEER_LOG_DIR="$LOG_DIR" PEER_REPS=${PEER_REPS:-7} PEER_PINNED_MAX=0 \
  bash "$PEER_DIR/run-peer.sh" --no-build "${PEER_ARGS[@]}" >"$LOG_DIR/peer-run.log" 2>&1
say "peer run done (rc $?)"
grep -E "^(check|info) sppark" "$LOG_DIR/peer-run.log" | sed 's/^/  /'
grep -E "FAILED" "$LOG_DIR/cuzk-bench.log" "$LOG_DIR/peer-run.log" | sed 's/^/  /'
# the peer's checks: every "check sppark" line PASS, and every binary's "done sppark failures=0"
PEER_CHECKS=$(grep -c '^check sppark .* PASS' "$LOG_DIR/peer-run.log")
PEER_FAILS=$(( $(grep -c '^check sppark .* FAIL' "$LOG_DIR/peer-run.log") + $(grep -cE '^done sppark failures=[1-9]' "$LOG_DIR/peer-run.log") ))

# 4. the table
RC=0
[ "$PEER_FAILS" -eq 0 ] && [ "$PEER_CHECKS" -gt 0 ] || RC=1
cuzk_ms() {  # op lg mode curve -> median ms or "-"
  local pat sfx=
  [ "$4" = bn254 ] && sfx=_bn254
  case $1.$3 in
    msm.tasks) pat="^RESULT msm_g1$sfx 2\\^$2 c=[0-9]+ T +median" ;;
    msm.*) pat="^RESULT msm_g1$sfx 2\\^$2 c=[0-9]+ +median" ;;
    ntt.*) pat="^RESULT ntt$sfx 2\\^$2 x1 " ;;
  esac
  # only a RESULT line that says "checked" (the bench checked the result it timed)
  grep -E "$pat.* checked$" "$LOG_DIR/cuzk-bench.log" | head -1 | sed -E 's/.* median +([0-9.]+) ms.*/\1/' | grep -E '^[0-9.]+$' || echo -
}
peer_ms() {  # op lg curve -> median ms or "-"
  local op
  case $1.$3 in
    msm.bls12_381) op=msm_g1 ;; ntt.bls12_381) op=ntt_fr ;;
    msm.bn254) op=msm_g1_bn254 ;; ntt.bn254) op=ntt_fr_bn254 ;;
  esac
  awk -v op="$op" -v sz="2^$2" '$1 == "peer" && $2 == "sppark" && $3 == op && $4 == sz && $6 == "ms" { print $5; exit }' \
    "$LOG_DIR/peer-run.log" | grep -E '^[0-9.]+$' || echo -
}
{
  echo
  echo "==== cuzk vs sppark (same GPU, one run; ratio = cuzk / sppark, < 1: cuzk faster) ===="
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1
  echo "cuzk ${CUZK_COMMIT:-$(cuzk_commit)}, sppark $(awk '$1=="sppark"{print $2, $3}' "$PEER_DIR/src/COMMITS" 2>/dev/null)"
  echo "checks: cuzk's timed results each checked (RESULT ... checked); sppark: $PEER_CHECKS PASS, $PEER_FAILS FAIL"
  printf '%-10s %-28s %-6s %10s %10s %7s %8s\n' curve kernel size cuzk_ms sppark_ms ratio checked
  for c in $CURVES; do
    mode=""
    for (( i = 0; i < ${#CASES[@]}; i += 2 )); do
      op=${CASES[i]}; lg=${CASES[i+1]}
      case $op in tasks|runs) mode=$op; continue ;; esac
      [ "$c" = bn254 ] && mode=tasks
      a=$(cuzk_ms "$op" "$lg" "$mode" "$c")
      b=$(peer_ms "$op" "$lg" "$c")
      r=-
      if [ "$a" != - ] && [ "$b" != - ]; then r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }'); fi
      { [ "$a" = - ] || [ "$b" = - ]; } && RC=1
      case $op in msm) k="G1 MSM, random${mode:+ ($mode)}" ;; ntt) k="Fr NTT, forward" ;; esac
      ck=both
      [ "$a" = - ] && ck=no-cuzk
      [ "$PEER_FAILS" -eq 0 ] && [ "$PEER_CHECKS" -gt 0 ] || ck=PEER-FAIL
      printf '%-10s %-28s 2^%-4s %10s %10s %7s %8s\n' "$c" "$k" "$lg" "$a" "$b" "$r" "$ck"
    done
  done
} > "$LOG_DIR/bench-vs-peer.txt"   # no pipe: RC is set in this shell
cat "$LOG_DIR/bench-vs-peer.txt"
exit $RC
