#!/usr/bin/env bash
# Filecoin PoRep C2 at full scale on the GPU machine (issue 22 item 8), with the synthetic
# 10 x 2^27 pipeline figure of the same machine beside it. Nothing large goes to disk: the C1 is
# a sparse consistent 32 GiB C1 made in memory (every check of a real one passes), the circuit is
# recorded in memory and INSECURE test parameters are made in memory (`cuzk bench porep --prove`,
# bench/porep_prove.c).
#
#   tools/porep-full-gpu.sh [MODE ...]     (from the checkout's root; default: porep)
#     porep      one 32 GiB V1_1 sector (registered proof 8): C1 made + checked, record, setup,
#                preload, 10 partitions through the engine, each verified
#     synthetic  cuzk bench pipeline: 10 partitions x 130,000,000 constraints (2^27 domain), 1 proof
#     small      porep on a 2 KiB sector (a dry run of the script, also without a GPU: BACKEND=cpu)
# env: PREBUILT (tools/prebuilt.sh unpack: binaries built elsewhere; else BUILD, default
# build-gpu, is configured and built here), BACKEND (gpu), REGISTERED_PROOF (8), LIMIT_S (per run,
# 560), SYNTH_WORKERS (2). Logs under $OUT (or ./bench-out); a table is printed last.
set -u
DEST=${OUT:-bench-out}
mkdir -p "$DEST"
BACKEND=${BACKEND:-gpu}
MODES=("$@")
[ ${#MODES[@]} = 0 ] && MODES=(porep)
if [ -n "${PREBUILT:-}" ]; then BIN=$PREBUILT/cuzk-bench
else
  BUILD=${BUILD:-build-gpu}
  cmake -S . -B "$BUILD" ${CMAKE_ARGS:--DCUZK_CUDA_ARCHS=90a} >"$DEST/porep_build.log" 2>&1 &&
    cmake --build "$BUILD" -j"$(nproc)" --target cuzk-bench >>"$DEST/porep_build.log" 2>&1 ||
    { tail -30 "$DEST/porep_build.log"; exit 1; }
  BIN=$BUILD/cuzk-bench
fi
{
  nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1
  echo "cpus $(nproc); $(grep -E 'MemTotal' /proc/meminfo | tr -s ' ')"
} | tee "$DEST/porep_machine.txt"
ROWS=()
RC=0
for m in "${MODES[@]}"; do
  L=$DEST/porep_$m.log
  t=$(date +%s)
  case $m in
    porep|small)
      rp=${REGISTERED_PROOF:-8}; [ "$m" = small ] && rp=5
      timeout "${LIMIT_S:-560}" "$BIN" bench porep --prove --backend "$BACKEND" --registered-proof "$rp" \
        --synthesis-workers "${SYNTH_WORKERS:-2}" 2>&1 | tee "$L" | grep --line-buffered -E '^(stage|sector|verified|throughput)'
      rc=${PIPESTATUS[0]}
      res="$(grep -m1 '^throughput:' "$L" | sed 's/throughput: //') | $(grep -m1 '^verified:' "$L" | sed 's/verified: //') | $(grep -m1 '^sector 0:' "$L" | sed 's/.*per partition); //') | $(grep -m1 '^memory:' "$L" | sed 's/memory: //') | $(grep -m1 '^GPU memory:' "$L" | sed 's/GPU memory: //')" ;;
    synthetic)
      timeout "${LIMIT_S:-560}" "$BIN" bench pipeline --backend "$BACKEND" --partitions 10 --constraints 130000000 --proofs 1 \
        --synthesis-workers 2 --finish-workers 2 --timings >"$L" 2>&1
      rc=$?
      res="$(grep -m1 '^throughput:' "$L" | sed 's/.*: //') | $(grep -m1 '^verified:' "$L")" ;;
    *) echo "porep-full-gpu.sh: unknown mode $m (porep synthetic small)"; exit 2 ;;
  esac
  [ "$rc" = 0 ] || RC=1
  ROWS+=("$(printf '%-10s rc %-3s %4ss  %s' "$m" "$rc" "$(( $(date +%s) - t ))" "$res")")
done
printf '\n==== cuzk PoRep C2 on the GPU machine, git %s ====\n' "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" | tee "$DEST/porep_summary.txt"
printf '%s\n' "${ROWS[@]}" | tee -a "$DEST/porep_summary.txt"
exit $RC
