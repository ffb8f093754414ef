#!/usr/bin/env bash
# The pipeline benchmark on a GPU machine (issue 4): `cuzk bench pipeline --backend gpu` at one or
# more scales, each run's report, trace and a one-line summary kept under $OUT (or ./bench-out).
# Usage: tools/bench-pipeline-gpu.sh [CUZK_BIN] -- "P N K S" ["P N K S" ...]
#   P partitions per job, N constraints, K jobs, S synthesis workers. Example:
#   tools/bench-pipeline-gpu.sh build-gpu/cuzk -- "10 16000000 1 4" "2 130000000 1 2"
# env: LIMIT_S (per run, default 420): a run past it is stopped (timeout) and reported as such.
set -u
BIN=${1:-build-gpu/cuzk}
shift
[ "${1:-}" = "--" ] && shift
DEST=${OUT:-bench-out}
mkdir -p "$DEST"
SUMMARY=()
for spec in "$@"; do
  read -r P N K S <<<"$spec"
  tag="p${P}_n${N}_k${K}"
  log="$DEST/pipeline_$tag.log"
  t0=$(date +%s)
  timeout "${LIMIT_S:-420}" "$BIN" bench pipeline --backend gpu --partitions "$P" --constraints "$N" --proofs "$K" \
    --synthesis-workers "$S" --finish-workers 2 --timings --trace "$DEST/trace_$tag.json" >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - t0 ))
  verified=$(grep -m1 '^verified:' "$log" | sed 's/ (.*//')
  thr=$(grep -m1 '^throughput:' "$log" | sed 's/.*: //')
  busy=$(grep -m1 'busy:' "$log" | sed 's/ (.*//')
  SUMMARY+=("$(printf '%-24s rc %-3s %4ss  %s | %s | %s' "$tag" "$rc" "$secs" "${verified:-no result}" "${thr:-}" "${busy:-}")")
  tail -n 60 "$log"
done
printf '\n==== cuzk pipeline (GPU) summary ====\n'
printf '%s\n' "${SUMMARY[@]}"
