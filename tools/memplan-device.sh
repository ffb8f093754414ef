#!/usr/bin/env bash
# Issue 23 (a memory plan per device, streamed SRS) on the GPU machine, in ONE device call:
#   1. the plan's tests: the host suite memplan (fake device sizes), the streamed MSMs and the
#      arena against the CPU (gpu_msm, gpu_g2), and the whole gpu_prove suite (every GPU prover is
#      planned now; memory_plan_budgets forces small budgets and checks proofs byte for byte and
#      the arena's high-water mark against the plan);
#   2. `cuzk bench pipeline` 10 x 2^27 (PoRep-shaped) under GPU budgets, all in one process over
#      one key (--gpu-budget LIST: the circuit and its INSECURE parameters are made once), every
#      proof verified; a budget too small for any plan is refused at preload, saying how much it
#      needs;
#   3. a table last: the tests, then per budget valid proofs, s/proof, GPU busy, resident, arena,
#      streamed GiB per proof and the memory plan.
#
#   source tools/prebuilt.sh unpack && tools/memplan-device.sh        (binaries prebuilt here:
#       tools/prebuilt.sh pack; the device call carries .prebuilt and .deps)
#
# env: PREBUILT (folder with cuzk, cuzk_tests; default: /opt/cuzk-prebuilt, else build-gpu),
#      BUDGETS (GiB, comma-separated, 0 = unlimited; default 0,48,24), PARTS (10), N (130000000),
#      PROOFS (1), LIMIT_TESTS (s, default 200), LIMIT_BENCH (s, default 360), TESTS_ONLY=1,
#      BENCH_ONLY=1, OUT (logs copied there: memplan-tests.log, memplan-pipeline.log).
#      A dry run without a GPU: SMALL=1 (2 x 16000 constraints, CPU backend; the GPU tests skip).
# Time plan on an H100 (predictions, bench/RESULTS.md sections 11, 24, 25): tests ~120-180 s;
# pipeline: circuit ~22 s + parameters ~65 s + per budget preload ~15 s and 10 partitions ~20-30 s
# (24 GiB: refused at once) -> ~180-220 s; the whole call ~6 min of the 10.
set -u
cd "$(dirname "$0")/.."
T0=$(date +%s)
BIN=${PREBUILT:-}
if [ -z "$BIN" ]; then
  if [ -x /opt/cuzk-prebuilt/cuzk_tests ]; then BIN=/opt/cuzk-prebuilt; else BIN=build-gpu; fi
fi
DEST=${OUT:-bench-out}
mkdir -p "$DEST"
export CUZK_FIXTURES_DIR=${CUZK_FIXTURES_DIR:-$PWD/tests/fixtures}
BUDGETS=${BUDGETS:-0,48,24}
PARTS=${PARTS:-10}
N=${N:-130000000}
PROOFS=${PROOFS:-1}
BACKEND=gpu
if [ "${SMALL:-0}" = 1 ]; then PARTS=2; N=16000; BACKEND=cpu; fi
TLOG=$DEST/memplan-tests.log
PLOG=$DEST/memplan-pipeline.log
ROWS=()
row() { ROWS+=("$(printf '%-44s %s' "$1" "$2")"); }

nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used --format=csv,noheader 2>&1 | head -2
"$BIN/cuzk" --version 2>&1 | head -1

if [ "${BENCH_ONLY:-0}" != 1 ]; then
  : >"$TLOG"
  run_tests() { # suite [filter]
    local args=(--suite "$1") one
    [ -n "${2:-}" ] && args+=(--filter "$2")
    one=$(mktemp)
    timeout "${LIMIT_TESTS:-200}" "$BIN/cuzk_tests" "${args[@]}" >"$one" 2>&1
    local rc=$?
    cat "$one" >>"$TLOG"
    row "tests: $1${2:+ ($2)}" "rc $rc$([ $rc = 124 ] && echo ' (timed out)'): $(grep -E '^[0-9]+ passed, ' "$one" | tail -1)"
    rm -f "$one"
  }
  run_tests memplan
  run_tests gpu_msm streamed_bases
  run_tests gpu_msm arena
  run_tests gpu_msm small_sizes
  run_tests gpu_msm oom_keeps_ctx
  run_tests gpu_g2 streamed_bases
  run_tests gpu_g2 small_sizes
  run_tests gpu_prove
  grep -E '^\[ *FAIL *\]|  FAIL ' "$TLOG" | head -20
  grep -E '^  (log: GPU memory plan|budget - |refusal|engine status|everything resident|automatic B_G2)' "$TLOG" | head -20
fi

if [ "${TESTS_ONLY:-0}" != 1 ]; then
  echo "---- cuzk bench pipeline --partitions $PARTS --constraints $N --gpu-budget $BUDGETS (elapsed $(( $(date +%s) - T0 )) s)"
  CUZK_VERBOSE=1 timeout "${LIMIT_BENCH:-360}" "$BIN/cuzk" bench pipeline --backend "$BACKEND" --partitions "$PARTS" \
    --constraints "$N" --proofs "$PROOFS" --synthesis-workers 2 --finish-workers 2 --gpu-budget "$BUDGETS" \
    >"$PLOG" 2>&1
  prc=$?
  grep -E '^(circuit|parameters|preload|memory plan|verified|throughput|GPU busy|GPU memory|memory:|==== run)' "$PLOG"
  grep -E 'GPU memory plan|streamed:|refused' "$PLOG" | head -20
  row "pipeline ${PARTS} x N=$N, budgets $BUDGETS" "rc $prc$([ $prc = 124 ] && echo ' (timed out)')"
fi

printf '\n==== issue 23 memory plan on %s (%s s) ====\n' "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)" \
  "$(( $(date +%s) - T0 ))"
printf '%s\n' "${ROWS[@]}"
if [ "${TESTS_ONLY:-0}" != 1 ] && [ -f "$PLOG" ]; then
  sed -n '/^==== cuzk bench pipeline: one run per GPU budget/,$p' "$PLOG"
fi
