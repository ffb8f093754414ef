#!/usr/bin/env bash
# Cold start of a bellperson .params on a GPU machine (issue 23 item 4; bench/RESULTS.md sections 30,
# 35): whole `cuzk bench pipeline --params` processes (load, preload, the first proof verified), each
# with its wall time, the pipeline's own phase lines and its peak host RSS (VmHWM), for each load path:
#   store   the SRS store: map + check every point, decode whole into pinned host memory, upload,
#           release the host G1 copy (what `cuzk bench pipeline --params` did before)
#   direct  as cuzkd loads a .params on the GPU (cuzk_pk_load_opts.defer_queries): vk and ic decoded
#           at load, each query decoded from the file straight into the device at the preload
#   cache   the pre-decoded SRS cache (`cuzk srs-cache make`, then the store path reads it): only
#           where the disk holds the cache beside the .params (~2 x 47 GB at full size)
# warm (the file in the page cache) and, with COLD=1, cold (its pages dropped first).
# Usage: tools/cold-start-gpu.sh [CUZK_BIN] N [P]
#   N constraints of the PoRep-shaped synthetic circuit (130000000: the 47 GB PoRep size), P partitions
#   (default 1: the first proof). env: DIR (default /tmp), PARAMS (an existing .params made by `cuzk
#   setup --synthetic porep --constraints N`: no setup), MODES (default "direct store"; "cache" added
#   when the disk has room), COLD=1, LIMIT_S (per step, default 300), KEEP=1 keeps the files,
#   PIPE_ARGS (extra pipeline arguments), OUT (logs; default ./bench-out), BACKEND (default gpu;
#   cpu: a dry run of the script without a GPU).
# Exit 0 when every run proved and verified, 1 otherwise. A table is printed last.
set -u
BIN=${1:-build-gpu/cuzk}
N=${2:?usage: tools/cold-start-gpu.sh [CUZK_BIN] N [P]}
P=${3:-1}
DEST=${OUT:-bench-out}
DIR=${DIR:-/tmp}
L=${LIMIT_S:-300}
mkdir -p "$DEST" "$DIR"
params=${PARAMS:-$DIR/porep_$N.params}
RC=0
ROWS=()
drop() { # drops one file's pages from the page cache (this file only)
  python3 -c 'import os,sys; fd=os.open(sys.argv[1],os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)' "$1" 2>/dev/null
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
nproc; free -g | sed -n 1,2p; df -h "$DIR" | tail -1
if [ ! -f "$params" ]; then
  t=$(now_ms)
  timeout "$L" "$BIN" setup -q --synthetic porep --constraints "$N" "$params" "$DIR/porep_$N.vk" >"$DEST/setup.log" 2>&1 ||
    { echo "cold-start: setup failed ($DEST/setup.log)"; tail -3 "$DEST/setup.log"; exit 1; }
  echo "setup: $(( $(now_ms) - t )) ms"
fi
size=$(stat -c %s "$params")
ls -l "$params"
MODES=${MODES:-direct store}
free_b=$(df -B1 --output=avail "$DIR" | tail -1)
if [[ " $MODES " != *" cache "* ]] && [ "$free_b" -gt $(( size + (2 << 30) )) ]; then MODES="$MODES cache"; fi
PIPE=(bench pipeline --backend "${BACKEND:-gpu}" --params "$params" --constraints "$N" --partitions "$P" --proofs 1 --timings)
# run NAME ARGS...: one whole process; wall, its lines, peak RSS
run() {
  local name=$1; shift
  local t rc
  t=$(now_ms)
  timeout "$L" "$BIN" "${PIPE[@]}" ${PIPE_ARGS:-} "$@" >"$DEST/$name.log" 2>&1
  rc=$?
  t=$(( $(now_ms) - t ))
  local first rss ver
  first=$(sed -nE 's/^first proof: .*\(([0-9.]+) ms with .*$/\1/p' "$DEST/$name.log" | head -1)
  rss=$(sed -nE 's/^memory: peak host RSS \(VmHWM\) ([0-9.]+) MiB.*/\1/p' "$DEST/$name.log" | head -1)
  ver=$(sed -nE 's/^verified: ([0-9]+\/[0-9]+) proofs valid.*/\1/p' "$DEST/$name.log" | head -1)
  [ "$rc" = 0 ] || RC=1
  ROWS+=("$(printf '%-14s rc %-3s wall %7.1f s  first proof %9s ms  peak RSS %7s GiB  verified %s' "$name" "$rc" \
    "$(awk -v t="$t" 'BEGIN { print t / 1000 }')" "${first:--}" \
    "$( [ -n "$rss" ] && awk -v r="$rss" 'BEGIN { printf "%.1f", r / 1024 }' || echo -)" "${ver:--}")")
  echo "== $name (rc $rc, $t ms)"
  grep -E '^(parameters|preload|first proof|verified|memory):' "$DEST/$name.log" | cut -c1-400
  grep -E 'from the file: ' "$DEST/$name.log" | sed -E 's/^.*(GPU prover on device)/\1/' | head -4
}
for m in $MODES; do
  case $m in
    direct) args=(--from-file) ;;
    store) args=() ;;
    cache)
      timeout "$L" "$BIN" srs-cache make "$params" >"$DEST/srs_cache_make.log" 2>&1 || { echo "cache: make failed"; RC=1; continue; }
      args=() ;;
    *) echo "cold-start: unknown mode $m"; RC=1; continue ;;
  esac
  CUZK_SRS_CACHE=$([ "$m" = cache ] && echo on || echo off) run "${m}_warm" "${args[@]}"
  if [ "${COLD:-0}" = 1 ]; then
    drop "$params"; [ "$m" = cache ] && drop "$params.cuzk-srs"
    CUZK_SRS_CACHE=$([ "$m" = cache ] && echo on || echo off) run "${m}_cold" "${args[@]}"
  fi
  [ "$m" = cache ] && rm -f "$params.cuzk-srs"
done
if [ "${COLD:-0}" = 1 ]; then
  drop "$params"
  t0=$(now_ms); dd if="$params" of=/dev/null bs=16M 2>/dev/null
  ROWS+=("sequential read of the .params ($size bytes, cold): $(( $(now_ms) - t0 )) ms")
fi
[ "${KEEP:-0}" = 1 ] || [ -n "${PARAMS:-}" ] || rm -f "$params" "$DIR/porep_$N.vk"
printf '\n==== cuzk cold start: %s constraints, %s partition(s), %s ====\n' "$N" "$P" "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || echo "no GPU")"
printf '%s\n' "${ROWS[@]}"
exit $RC
