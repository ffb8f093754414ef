#!/usr/bin/env bash
# cuzkd measurements (bench/RESULTS.md section "cuzkd"): per-job overhead of the daemon over the
# prover, jobs/s on the tiny multiplier circuit, memory per queued job. CPU backend, unix socket.
#   tools/bench-daemon.sh [build/cuzkd]
set -eu
CUZKD=$(readlink -f "${1:-build/cuzkd}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FIX=$ROOT/tests/fixtures/bls12381/multiplier
W=$(mktemp -d "${TMPDIR:-/tmp}/cuzkd-bench.XXXXXX")
trap 'kill $P 2>/dev/null; rm -rf "$W"' EXIT
run() { # run CONFIG_EXTRA
    printf '[server]\nlisten = ["unix://%s/s.sock"]\n[log]\nlevel = "warn"\n[engine]\nbackend = "cpu"\n%s\n[circuits.mult]\nzkey = "%s"\npreload = true\n' \
        "$W" "$1" "$FIX/circuit_final.zkey" > "$W/c.toml"
    "$CUZKD" --config "$W/c.toml" > "$W/out" 2> "$W/log" & P=$!
    for _ in $(seq 100); do grep -q ready "$W/out" 2>/dev/null && return; sleep 0.05; done
    cat "$W/log"; exit 1
}
stop() { kill -TERM $P; wait $P || true; }
echo "cuzkd $(git -C "$ROOT" rev-parse --short HEAD), $(nproc) CPUs"
run 'workers = 1
prove_threads = 1'
node "$ROOT/tests/daemon/bench.js" latency --addr "unix://$W/s.sock" --n 200
stop
run "workers = $(nproc)
prove_threads = 1"
node "$ROOT/tests/daemon/bench.js" throughput --addr "unix://$W/s.sock" --n 1000 --conc 32
stop
run 'workers = 1
[debug]
prove_delay_ms = 3600000'
node "$ROOT/tests/daemon/bench.js" queue --addr "unix://$W/s.sock" --n 10000 --pid $P
kill -KILL $P
