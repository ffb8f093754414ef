#!/usr/bin/env bash
# Times `snarkjs groth16 prove` (pinned snarkjs in tests/js) against `cuzk prove` on the same
# circuit and machine: median of N runs of each, wall clock of the whole command (process start,
# key loading and proof writing included for both).
#   tools/bench-snarkjs.sh [build/cuzk] [circuit-dir] [N]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CUZK=${1:-$ROOT/build/cuzk}
DIR=${2:-$ROOT/tests/fixtures/bls12381/merkle_mimc5}
N=${3:-5}
SNARKJS="$ROOT/tests/js/node_modules/snarkjs/build/cli.cjs"
[ -f "$SNARKJS" ] || { echo "snarkjs not installed: run tools/install-deps.sh --test" >&2; exit 3; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
time_cmd() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f\n", b-a}'; }
s=$(for i in $(seq "$N"); do time_cmd node "$SNARKJS" groth16 prove "$DIR/circuit_final.zkey" "$DIR/witness.wtns" "$TMP/p.json" "$TMP/pub.json"; done | median)
c=$(for i in $(seq "$N"); do time_cmd "$CUZK" prove "$DIR/circuit_final.zkey" "$DIR/witness.wtns" "$TMP/p.json" "$TMP/pub.json"; done | median)
echo "circuit: $DIR"
echo "snarkjs groth16 prove: median ${s} s of $N"
echo "cuzk prove (CPU):      median ${c} s of $N"
awk -v s="$s" -v c="$c" 'BEGIN{printf "speed-up: %.1fx\n", s/c}'
