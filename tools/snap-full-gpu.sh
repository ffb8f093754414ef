#!/usr/bin/env bash
# SnapDeals at full scale on the GPU machine (issue 24 item 6): a sparse consistent update of a
# 32 GiB sector (16 partitions x 81,049,499 constraints), INSECURE test parameters from
# `cuzk setup --circuit snap-32g` (recorded in memory: no .r1cs), then `cuzk prove-update` through
# the engine (every partition's public inputs compared with the ones derived from the public data
# and its proof verified before the file is written), then `cuzk verify-update` from the public data
# alone, and the same proof under another comm_r_new, which must be INVALID (exit 1).
#
#   source tools/prebuilt.sh unpack          (pack here first; carry .prebuilt and .deps)
#   tools/snap-full-gpu.sh [REGISTERED_UPDATE_PROOF]   (default 3: 32 GiB; 0: 2 KiB, a dry run)
# env: WORK (where the .params go; default ./snap-full-work), BACKEND (gpu), KEEP=1 keeps WORK,
# CUZK (the cuzk binary; default $PREBUILT/cuzk). Logs go to $OUT (or ./bench-out); the device's
# memory use (nvidia-smi, every 0.5 s) and prove-update's peak RSS (VmHWM) are sampled; a table
# is printed last.
set -u
RP=${1:-3}
case $RP in
    0) NAME=snap-2k ;;
    1) NAME=snap-8m ;;
    2) NAME=snap-512m ;;
    3) NAME=snap-32g ;;
    4) NAME=snap-64g ;;
    *) echo "snap-full-gpu.sh: registered update proof $RP: 0..4 (2 KiB .. 64 GiB)" >&2; exit 2 ;;
esac
CUZK=${CUZK:-${PREBUILT:?source tools/prebuilt.sh unpack first (or set CUZK)}/cuzk}
[ -x "$CUZK" ] || { echo "snap-full-gpu.sh: no $CUZK" >&2; exit 2; }
DEST=${OUT:-bench-out}
W=${WORK:-$PWD/snap-full-work}
mkdir -p "$DEST" "$W"
ROWS=()
RC=0
step() { # step NAME CMD...: runs, logs to $DEST/sf_NAME.log, one table row
    local name=$1 t rc
    shift
    t=$(date +%s.%N)
    "$@" >"$DEST/sf_$name.log" 2>"$DEST/sf_$name.err"
    rc=$?
    ROWS+=("$(printf '%-14s rc %-3s %7.1f s  %s' "$name" "$rc" "$(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN{print b - a}')" "$(cat "$DEST/sf_$name.log" "$DEST/sf_$name.err" | tr '\r' '\n' | grep -v '^ *$' | tail -1 | cut -c1-150)")")
    return $rc
}
{
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1
    echo "cpus $(nproc); $(grep MemTotal /proc/meminfo | tr -s ' '); disk $(df -h "$W" | awk 'NR==2{print $4" free"}')"
} | tee "$DEST/sf_machine.txt"

SMI=
if nvidia-smi -L >/dev/null 2>&1; then
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 500 >"$DEST/sf_gpu_mem.csv" 2>/dev/null &
    SMI=$!
fi

step make-update "$CUZK" make-update --sparse --registered-proof "$RP" --json "$W/vproofs.json" || RC=1
COMMS=()
if [ $RC = 0 ]; then
    J=$(grep '^{' "$DEST/sf_make-update.log" | tail -1)
    for k in comm_r_old comm_d_new comm_r_new; do
        COMMS+=("--${k//_/-}" "$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$J" "$k")")
    done
    ls -l "$W/vproofs.json" | awk '{print "vproofs.json " $5 " bytes"}' >>"$DEST/sf_make-update.err"
fi
if [ $RC = 0 ] && ! [ -s "$W/snap.params" ]; then
    step setup "$CUZK" setup --seed 7 --backend "${BACKEND:-gpu}" --circuit $NAME "$W/snap.params" "$W/snap.vk" || RC=1
fi
if [ $RC = 0 ]; then
    "$CUZK" prove-update --backend "${BACKEND:-gpu}" --params "$W/snap.params" --registered-proof "$RP" "${COMMS[@]}" \
        "$W/vproofs.json" "$W/proof.bin" >"$DEST/sf_prove-update.log" 2>"$DEST/sf_prove-update.err" &
    PID=$!
    T=$(date +%s.%N)
    HWM=0
    while kill -0 $PID 2>/dev/null; do
        h=$(awk '/^VmHWM/{print $2}' /proc/$PID/status 2>/dev/null)
        [ -n "$h" ] && [ "$h" -gt "$HWM" ] && HWM=$h
        sleep 0.5
    done
    wait $PID
    prc=$?
    [ $prc = 0 ] || RC=1
    ROWS+=("$(printf '%-14s rc %-3s %7.1f s  %s' prove-update $prc "$(awk -v a="$T" -v b="$(date +%s.%N)" 'BEGIN{print b - a}')" \
        "peak RSS $(awk -v k=$HWM 'BEGIN{printf "%.1f", k / 1048576}') GiB")")
    grep -E '^  ' "$DEST/sf_prove-update.err" | while read -r l; do echo "               $l"; done >"$DEST/sf_stages.txt"
fi
if [ $RC = 0 ]; then
    step verify-update "$CUZK" verify-update --vk "$W/snap.vk" --registered-proof "$RP" "${COMMS[@]}" "$W/proof.bin" || RC=1
    # the same proof under another comm_r_new: INVALID, exit 1 (comm_r_new here is comm_r_old's value)
    BAD=("${COMMS[@]}")
    BAD[5]=${COMMS[1]}
    step verify-other "$CUZK" verify-update --vk "$W/snap.vk" --registered-proof "$RP" "${BAD[@]}" "$W/proof.bin"
    [ $? = 1 ] || { RC=1; ROWS+=("verify-other: expected exit 1 (INVALID)"); }
    ls -l "$W/proof.bin" | awk '{print "proof.bin " $5 " bytes"}' >>"$DEST/sf_verify-update.err"
fi
[ -n "$SMI" ] && kill $SMI 2>/dev/null
[ "${KEEP:-0}" = 1 ] || rm -rf "$W"
printf '\n==== SnapDeals %s: make-update --sparse, setup, prove-update (engine), verify-update; git %s ====\n' "$NAME" \
    "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" | tee "$DEST/sf_summary.txt"
printf '%s\n' "${ROWS[@]}" | tee -a "$DEST/sf_summary.txt"
cat "$DEST/sf_stages.txt" 2>/dev/null | tee -a "$DEST/sf_summary.txt"
[ -s "$DEST/sf_gpu_mem.csv" ] && echo "device memory used: max $(sort -n "$DEST/sf_gpu_mem.csv" | tail -1) MiB (nvidia-smi, every 0.5 s)" |
    tee -a "$DEST/sf_summary.txt"
exit $RC
