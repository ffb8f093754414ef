#!/usr/bin/env bash
# Filecoin PoRep C2 through cuzkd as Curio sends it (issue 22), at any sector size on the GPU
# machine: INSECURE test parameters made by `cuzk setup --circuit porep-SIZE` (recorded in memory:
# no .r1cs; ~47 GB of .params at 32 GiB), a sparse consistent C1 output in Curio's wrapper
# (`cuzk make-c1 --sparse --curio`), cuzkd configured with that .params, the Go client (Curio's
# gRPC stack) sending SubmitProof + AwaitProof (and first a request of another miner, which must be
# FAILED naming replica_id), then `cuzk verify-seal` of the daemon's proof from the public data.
#
#   source tools/prebuilt.sh unpack          (pack and pack-daemon here first; carry .prebuilt, .deps)
#   tools/porep-daemon-gpu.sh [REGISTERED_PROOF]      (default 8: 32 GiB V1_1; 5: 2 KiB, a dry run)
# env: WORK (where the .params go; default ./porep-daemon-work: the checkout's disk), BACKEND (gpu),
# KEEP=1 keeps WORK. Logs and the summary go to $OUT (or ./bench-out). A table is printed last.
set -u
RP=${1:-8}
case $RP in
    5) NAME=porep-2k SIZE=2048 ;;
    6) NAME=porep-8m SIZE=8388608 ;;
    7) NAME=porep-512m SIZE=536870912 ;;
    8) NAME=porep-32g SIZE=34359738368 ;;
    9) NAME=porep-64g SIZE=68719476736 ;;
    *) echo "porep-daemon-gpu.sh: registered proof $RP: 5..9 (V1_1 2 KiB .. 64 GiB)" >&2; exit 2 ;;
esac
BIN=${PREBUILT:?source tools/prebuilt.sh unpack first}
for b in cuzk cuzkd cuzkd-client; do
    [ -x "$BIN/$b" ] || { echo "porep-daemon-gpu.sh: no $BIN/$b (tools/prebuilt.sh pack-daemon)" >&2; exit 2; }
done
DEST=${OUT:-bench-out}
W=${WORK:-$PWD/porep-daemon-work}
mkdir -p "$DEST" "$W"
MINER=1000 SECTOR=7
TICKET=5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a1a
SEED=0101010101010101010101010101010101010101010101010101010101010101
ROWS=()
RC=0
step() { # step NAME CMD...: runs, logs to $DEST/pd_NAME.log, one table row
    local name=$1 t rc
    shift
    t=$(date +%s.%N)
    "$@" >"$DEST/pd_$name.log" 2>&1
    rc=$?
    [ $rc = 0 ] || RC=1
    ROWS+=("$(printf '%-12s rc %-3s %7.1f s  %s' "$name" "$rc" "$(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN{print b - a}')" "$(tail -1 "$DEST/pd_$name.log" | cut -c1-150)")")
    return $rc
}
{
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | head -1
    echo "cpus $(nproc); $(grep MemTotal /proc/meminfo | tr -s ' '); disk $(df -h "$W" | awk 'NR==2{print $4" free"}')"
} | tee "$DEST/pd_machine.txt"

step make-c1 "$BIN/cuzk" make-c1 --sparse --registered-proof "$RP" --miner-id $MINER --sector-id $SECTOR \
    --ticket $TICKET --seed $SEED --curio --json "$W/c1.json" && grep '^{' "$DEST/pd_make-c1.log" | tail -1 >"$W/c1.info"
if [ $RC = 0 ] && ! [ -s "$W/porep.params" ]; then
    step setup "$BIN/cuzk" setup --seed 7 --backend "${BACKEND:-gpu}" --circuit $NAME "$W/porep.params" "$W/porep.vk"
fi
if [ $RC = 0 ]; then
    SOCK=$W/cuzkd.sock
    cat >"$W/cuzkd.toml" <<EOT
[server]
listen = ["unix://$SOCK"]
[engine]
backend = "${BACKEND:-gpu}"
[circuits."$NAME"]
params = "$W/porep.params"
preload = true
EOT
    t=$(date +%s)
    "$BIN/cuzkd" --config "$W/cuzkd.toml" >"$DEST/pd_cuzkd.out" 2>"$DEST/pd_cuzkd.log" &
    PID=$!
    for _ in $(seq 1 3000); do # 300 s for the preload of a 47 GB .params
        grep -q 'cuzkd: ready' "$DEST/pd_cuzkd.out" 2>/dev/null && break
        kill -0 $PID 2>/dev/null || break
        sleep 0.1
    done
    if grep -q 'cuzkd: ready' "$DEST/pd_cuzkd.out"; then
        ROWS+=("$(printf '%-12s rc %-3s %7s s  %s' cuzkd-ready 0 "$(( $(date +%s) - t ))" "$(grep -m1 'loaded in' "$DEST/pd_cuzkd.log" | sed 's/.*info: //' | cut -c1-150)")")
        CR=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["comm_r"])' "$W/c1.info")
        CD=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["comm_d"])' "$W/c1.info")
        mkdir -p "$W/out"
        step client "$BIN/cuzkd-client" porep -addr "unix://$SOCK" -c1 "$W/c1.json" -miner $MINER -sector $SECTOR \
            -rp "$RP" -sector-size $SIZE -dir "$W/out" -tag pd
        step verify-seal "$BIN/cuzk" verify-seal --vk "$W/porep.vk" --registered-proof "$RP" --miner-id $MINER \
            --sector-id $SECTOR --comm-r "$CR" --comm-d "$CD" --ticket $TICKET --seed $SEED "$W/out/go.proof.bin"
        cp "$W/out/go.public.json" "$DEST/pd_public.json" 2>/dev/null
    else
        RC=1
        ROWS+=("$(printf '%-12s rc %-3s %7s s  %s' cuzkd-ready 1 "$(( $(date +%s) - t ))" "$(tail -1 "$DEST/pd_cuzkd.log" | cut -c1-150)")")
    fi
    kill -TERM $PID 2>/dev/null
    wait $PID 2>/dev/null
fi
[ "${KEEP:-0}" = 1 ] || rm -rf "$W"
printf '\n==== PoRep C2 %s through cuzkd (Curio message, Go client), git %s ====\n' "$NAME" \
    "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" | tee "$DEST/pd_summary.txt"
printf '%s\n' "${ROWS[@]}" | tee -a "$DEST/pd_summary.txt"
grep -E 'stage|partition|proof' "$DEST/pd_cuzkd.log" 2>/dev/null | tail -15 >>"$DEST/pd_summary.txt"
exit $RC
