#!/usr/bin/env bash
# Cold start of a bellperson .params on a GPU machine (issue 23 item 4; bench/RESULTS.md section 30):
# the load phases with and without the pre-decoded SRS cache (`cuzk srs-cache`), warm and cold page
# cache, and the time + peak host RSS of a whole `cuzk bench pipeline --params` process (load through
# the SRS store, GPU upload, the first proof verified) in each case. Logs under $OUT (or ./bench-out).
# Usage: tools/cold-start-gpu.sh [CUZK_BIN] N [P]
#   N constraints of the PoRep-shaped synthetic circuit (130000000: the 47 GB PoRep size), P partitions
#   (default 1: the first proof). env: DIR (default /tmp; the .params and its cache, ~2 x 47 GB at full
#   size), PARAMS (an existing .params made by `cuzk setup --synthetic porep --constraints N`: no setup),
#   LIMIT_S (per step, default 300), KEEP=1 keeps the files, PIPE_ARGS (extra pipeline arguments).
set -u
BIN=${1:-build-gpu/cuzk}
N=${2:?usage: tools/cold-start-gpu.sh [CUZK_BIN] N [P]}
P=${3:-1}
DEST=${OUT:-bench-out}
DIR=${DIR:-/tmp}
L=${LIMIT_S:-300}
mkdir -p "$DEST" "$DIR"
params=${PARAMS:-$DIR/porep_$N.params}
drop() { # drops one file's pages from the page cache (this file only)
  python3 -c 'import os,sys; fd=os.open(sys.argv[1],os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)' "$1" 2>/dev/null
}
timed() { # name, command...: wall seconds and peak RSS (GNU time) into $DEST/<name>.log
  local name=$1; shift
  /usr/bin/time -v timeout "$L" "$@" >"$DEST/$name.log" 2>&1
  local rc=$?
  printf '%-28s rc %-3s wall %8s  peak RSS %s kB\n' "$name" "$rc" \
    "$(grep -m1 'Elapsed (wall' "$DEST/$name.log" | awk '{print $NF}')" \
    "$(grep -m1 'Maximum resident' "$DEST/$name.log" | awk '{print $NF}')" | tee -a "$DEST/cold-start-summary.txt"
}
: >"$DEST/cold-start-summary.txt"
nproc; free -g | head -2; df -h "$DIR" | tail -1
if [ ! -f "$params" ]; then
  timed setup "$BIN" setup --synthetic porep --constraints "$N" "$params" "$DIR/porep_$N.vk"
fi
ls -l "$params"
rm -f "$params.cuzk-srs"
PIPE="bench pipeline --backend gpu --params $params --constraints $N --partitions $P --proofs 1 --timings ${PIPE_ARGS:-}"
# 1. no cache (the .params decoded: pread on all threads), warm, then cold
CUZK_SRS_CACHE=off timed pipeline_nocache_warm "$BIN" $PIPE
drop "$params"
CUZK_SRS_CACHE=off timed pipeline_nocache_cold "$BIN" $PIPE
# 2. make the cache (decode with the curve check + write), then the same runs from it
timed srs_cache_make "$BIN" srs-cache make "$params"
timed srs_cache_check_verify "$BIN" srs-cache check --verify "$params"
timed pipeline_cache_warm "$BIN" $PIPE
drop "$params.cuzk-srs"; drop "$params"
timed pipeline_cache_cold "$BIN" $PIPE
# 3. the loader alone (GB/s of file; one run each; --cold drops the pages first)
timeout "$L" "$BIN" bench load --file "$params" --levels curve --repeat 1 --keep >"$DEST/load_warm.log" 2>&1
timeout "$L" "$BIN" bench load --file "$params" --levels curve --repeat 1 --keep --cold >"$DEST/load_cold.log" 2>&1
cat "$DEST/load_warm.log" "$DEST/load_cold.log"
# the disk's sequential read (the cold target is 2 x this)
drop "$params"
t0=$(date +%s%N); dd if="$params" of=/dev/null bs=16M 2>/dev/null; t1=$(date +%s%N)
echo "sequential read of $(stat -c %s "$params") bytes: $(( (t1 - t0) / 1000000 )) ms" | tee -a "$DEST/cold-start-summary.txt"
for f in pipeline_nocache_warm pipeline_nocache_cold pipeline_cache_warm pipeline_cache_cold; do
  echo "== $f"; grep -E '^(parameters|preload):|SRS cache|first proof|s/proof|verified' "$DEST/$f.log" | head -8
done
[ "${KEEP:-0}" = 1 ] || { rm -f "$params.cuzk-srs"; [ -n "${PARAMS:-}" ] || rm -f "$params" "$DIR/porep_$N.vk"; }
printf '\n==== cuzk cold start ====\n'; cat "$DEST/cold-start-summary.txt"
