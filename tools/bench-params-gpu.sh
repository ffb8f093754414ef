#!/usr/bin/env bash
# Parameters at scale on a GPU machine (issue 5, "Done when"): `cuzk setup --synthetic porep` writes
# the .params + .vk of an N-constraint PoRep-shaped circuit, then `cuzk bench pipeline --params`
# loads that file through the SRS store (map + point checks, decode into pinned memory, GPU upload,
# each step timed), proves P partitions from the store's device copy and verifies every proof
# against the file's vk. Logs under $OUT (or ./bench-out); the .params goes to DIR (it is ~47 GB at
# 130M constraints: give it a disk with room) and is removed at the end unless KEEP=1.
# Usage: tools/bench-params-gpu.sh [CUZK_BIN] N [P] [S]
#   N constraints, P partitions (default 2), S synthesis workers (default P).
# env: DIR (default /tmp), LIMIT_S (per step, default 300), KEEP=1, PIPE_ARGS (extra bench args).
set -u
BIN=${1:-build-gpu/cuzk}
N=${2:?usage: tools/bench-params-gpu.sh [CUZK_BIN] N [P] [S]}
P=${3:-2}
S=${4:-$P}
DEST=${OUT:-bench-out}
DIR=${DIR:-/tmp}
mkdir -p "$DEST" "$DIR"
params="$DIR/porep_$N.params"
vk="$DIR/porep_$N.vk"
df -h "$DIR" | tail -1
t0=$(date +%s%N)
timeout "${LIMIT_S:-300}" "$BIN" setup --synthetic porep --constraints "$N" "$params" "$vk" >"$DEST/setup_$N.log" 2>&1
rc_setup=$?
t_setup_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
tail -n 25 "$DEST/setup_$N.log"
ls -l "$params" "$vk" 2>/dev/null
rc_pipe=skipped
if [ "$rc_setup" = 0 ]; then
  timeout "${LIMIT_S:-300}" "$BIN" bench pipeline --backend gpu --params "$params" --constraints "$N" --partitions "$P" \
    --proofs 1 --synthesis-workers "$S" --finish-workers 2 --timings --trace "$DEST/trace_params_$N.json" \
    ${PIPE_ARGS:-} >"$DEST/pipeline_params_$N.log" 2>&1
  rc_pipe=$?
  tail -n 60 "$DEST/pipeline_params_$N.log"
fi
[ "${KEEP:-0}" = 1 ] || rm -f "$params" "$vk"
printf '\n==== cuzk parameters at scale (GPU) ====\n'
printf 'setup %s constraints: rc %s, %s ms wall incl. the disk write\n' "$N" "$rc_setup" "$t_setup_ms"
grep -m1 '^parameters:' "$DEST/pipeline_params_$N.log" 2>/dev/null
grep -m1 '^preload:' "$DEST/pipeline_params_$N.log" 2>/dev/null
grep -m1 '^verified:' "$DEST/pipeline_params_$N.log" 2>/dev/null
grep -m1 '^first proof:' "$DEST/pipeline_params_$N.log" 2>/dev/null
printf 'pipeline rc %s\n' "$rc_pipe"
