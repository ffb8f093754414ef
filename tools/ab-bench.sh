#!/usr/bin/env bash
# A/B on the GPU machine: the same cuzk-bench command with a baseline build's binaries and with
# this tree's, alternately, in one run on one card (bench/METHOD: a ratio is only ever taken
# between figures of the same machine and session). Prints a table last.
#
#   source tools/prebuilt.sh unpack        (this tree's binaries: $PREBUILT)
#   tools/ab-bench.sh BASE.tar.xz [-n RUNS] -- CUZK-BENCH-ARGS...
#
# BASE.tar.xz: a .prebuilt archive of another commit (tools/prebuilt.sh pack, copied aside; it
# carries its own libcuzk.so, found through LD_LIBRARY_PATH when its cuzk-bench links it). Each
# run's log goes to $OUT (or ./bench-out) as ab_<label>_<i>.log; the table quotes each run's
# `throughput:` and `verified:` lines, and a run whose verified line is not "N/N ... valid" fails (rc 1).
set -u
[ $# -ge 3 ] || { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
BASE=$1; shift
RUNS=1
if [ "$1" = -n ]; then RUNS=$2; shift 2; fi
[ "$1" = -- ] || { echo "ab-bench.sh: expected -- before the cuzk-bench arguments" >&2; exit 2; }
shift
[ -n "${PREBUILT:-}" ] || { echo "ab-bench.sh: PREBUILT unset (source tools/prebuilt.sh unpack first)" >&2; exit 2; }
DEST=${OUT:-bench-out}
mkdir -p "$DEST" /opt/cuzk-base
tar -xJf "$BASE" -C /opt/cuzk-base || exit 1
ROWS=()
RC=0
run_one() { # label dir i
    local lib=$2 log=$DEST/ab_$1_$3.log t
    t=$(date +%s)
    LD_LIBRARY_PATH=$lib:${LD_LIBRARY_PATH:-} timeout "${LIMIT_S:-560}" "$lib/cuzk-bench" "${ARGS[@]}" >"$log" 2>&1
    local rc=$?
    local thr ver
    thr=$(grep -m1 '^throughput:' "$log" | sed 's/^throughput: //')
    ver=$(grep -m1 '^verified:' "$log" | sed 's/^verified: //')
    # every proof verified: "N/N ... valid"
    if [[ ! $ver =~ ^([0-9]+)/([0-9]+)\ .*valid ]] || [ "${BASH_REMATCH[1]}" != "${BASH_REMATCH[2]}" ]; then
        [ "$rc" = 0 ] && rc=1
    fi
    [ "$rc" = 0 ] || RC=1
    ROWS+=("$(printf '%-5s run %s  rc %-3s %4ss  %s | %s' "$1" "$3" "$rc" "$(( $(date +%s) - t ))" "$thr" "$ver")")
}
ARGS=("$@")
for i in $(seq 1 "$RUNS"); do
    run_one base /opt/cuzk-base "$i"
    run_one new "$PREBUILT" "$i"
done
printf '\n==== A/B cuzk-bench %s: base %s, new %s ====\n' "${ARGS[*]}" "$(LD_LIBRARY_PATH=/opt/cuzk-base:${LD_LIBRARY_PATH:-} /opt/cuzk-base/cuzk --version 2>/dev/null | head -1)" \
    "$("$PREBUILT"/cuzk --version 2>/dev/null | head -1)" | tee "$DEST/ab_summary.txt"
printf '%s\n' "${ROWS[@]}" | tee -a "$DEST/ab_summary.txt"
exit $RC
