#!/usr/bin/env bash
# BN254 ("bn128", circom's curve) Groth16 on one machine, in one run: `cuzk prove` against
# `snarkjs groth16 prove` and rapidsnark (../shared/peer/rapidsnark, a benchmark-only peer) on the
# bn128 fixtures and on SHA-256 circuits made with circom (sha256_4blk: 127,191 constraints,
# domain 2^17; with --large also sha256_32blk: about 1.02 M constraints, domain 2^20). Every
# measurement is one whole process (start, key and witness loading, proof, writing the JSON files;
# cuzk also verifies its proof before writing it, as it does by default), median of --runs; the
# last proof of every prover is verified (cuzk verify, and snarkjs verify for cuzk's proofs). The
# sha256 circuits' public outputs are checked against node's SHA-256 of the input. Keys: the
# fixtures' committed ceremony zkeys; the sha256 zkeys by `cuzk setup --seed 1` (INSECURE test keys,
# the same layout and sizes as snarkjs's; snarkjs and rapidsnark prove with them).
#
#   tools/bench-bn254.sh [--runs N] [--large] [--no-snarkjs] [--no-rapidsnark]
#       this machine's CPUs (cuzk --backend cpu); everything generated under BENCH_DIR
#       (default build-bench/bn254, git-ignored: nothing big is ever committed)
#   tools/bench-bn254.sh --make [--large]
#       only makes the sha256 circuits, witnesses and keys under BENCH_DIR (no timing; used by
#       tools/bench-bn254-daemon.sh --pack)
#   tools/bench-bn254.sh --pack [--large]
#       (after a host run) gathers into CARRY_DIR (default build-bench/carry, about 30 MiB) what a
#       GPU machine that receives only the git tree needs: the sha256 circuits (.r1cs and .wtns, xz),
#       their verification keys and zkey hashes, the rapidsnark binary built here, and node + the
#       pinned snarkjs (xz; that machine has no node). Prints the carry list.
#   tools/bench-bn254.sh --gpu [--runs N]
#       on the GPU machine (an H200), from the checkout root, with CARRY_DIR and .peer carried: builds
#       cuzk for sm_90a (tools/test-gpu.sh, build-gpu) with sppark's BN254 build in the background,
#       runs the gpu_bn254 suite, times cuzk GPU / cuzk CPU / rapidsnark / snarkjs on sha256_4blk and
#       the fixtures (sha256 keys made there by `cuzk setup --seed 1`: checked against the hashes of
#       the host's keys), then the BN254 G1 MSM and NTT against sppark (tools/bench-vs-peer.sh with
#       BENCH_CURVES=bn254), then sha256_32blk when carried and time is left. About 6 minutes with the ~150 s build; steps that would pass
#       BUDGET_S (default 400) are skipped and say so. Raw logs go to BENCH_DIR/logs, and with
#       $OUT set the table and a tarball of the logs to $OUT. Default --runs 3 there (5 on the host).
# env: CUZK (the cuzk binary; default build/cuzk, BUILD/cuzk with --gpu: BUILD default build-gpu, or
#      PREBUILT as tools/test-gpu.sh takes it), BENCH_DIR, CARRY_DIR,
#      PEER_DIR (default .peer, else ../shared/peer), BUDGET_S, CUZK_THREADS (cuzk's threads).
# The table is printed last and written to LOG_DIR/bench-bn254.txt. Exit status 0 when every
# measured proof verified and every step ran; 1 otherwise (the table says what is missing).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
MODE=host RUNS='' LARGE=0 USE_SNARKJS=1 USE_RS=1
while [ $# -gt 0 ]; do
  case $1 in
    --gpu) MODE=gpu ;;
    --pack) MODE=pack ;;
    --make) MODE="make" ;;
    --large) LARGE=1 ;;
    --runs)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then echo "bench-bn254.sh: --runs needs a count" >&2; exit 2; fi
      RUNS=$2; shift ;;
    --no-snarkjs) USE_SNARKJS=0 ;;
    --no-rapidsnark) USE_RS=0 ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-bn254.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
  esac
  shift
done
W=${BENCH_DIR:-$ROOT/build-bench/bn254}
CARRY=${CARRY_DIR:-$ROOT/build-bench/carry}
case $W in /*) ;; *) W=$ROOT/$W ;; esac
case $CARRY in /*) ;; *) CARRY=$ROOT/$CARRY ;; esac
RUNS=${RUNS:-$([ "$MODE" = gpu ] && echo 3 || echo 5)}
# raw logs: BENCH_DIR/logs; with $OUT set (the GPU machine's output folder, which returns at most 8
# files) the table and one tarball of the logs are copied there at the end
LOG_DIR=$W/logs
BUDGET=${BUDGET_S:-400}
mkdir -p "$W" "$LOG_DIR" || exit 2
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
say() { echo "[bench-bn254 $(el)s] $*"; }
RC=0
NOTES=()
note() { NOTES+=("$*"); say "$*"; }
fail() { RC=1; note "$*"; }
median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR % 2) print a[(NR+1)/2]; else printf "%.1f\n", (a[NR/2]+a[NR/2+1])/2}'; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# xz -d with python3's lzma when the xz program is missing (a bare image may lack xz-utils)
unxz_to() {  # unxz_to FILE.xz OUT
  if command -v xz >/dev/null 2>&1; then xz -dc "$1" > "$2"
  else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; fi
}
untar_xz() {  # untar_xz FILE.tar.xz DIR
  if command -v xz >/dev/null 2>&1; then tar -xJf "$1" -C "$2"
  else python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1], "r:xz").extractall(sys.argv[2])' "$1" "$2"; fi
}

# the peer copy (never built into cuzk): .peer in the checkout (carried to a GPU machine), else ../shared/peer
PEER=${PEER_DIR:-}
if [ -z "$PEER" ]; then
  for d in "$ROOT/.peer" "$ROOT/../shared/peer" "$ROOT/../../shared/peer"; do
    [ -d "$d/rapidsnark" ] && { PEER=$d; break; }
  done
fi
FIXTURES=(multiplier merkle_mimc5 merkle_poseidon)
SHA=(sha256_4blk)
[ $LARGE = 1 ] && SHA+=(sha256_32blk)

# ---- node, snarkjs, circom (host: npm ci of tests/fixtures' pinned packages; gpu: carried) --------
NODE=""
SNARKJS=""
find_node() {
  if [ "$MODE" = gpu ] && [ -f "$CARRY/node/node.xz" ]; then   # the host's node, carried: preferred there
    mkdir -p "$W/node" && unxz_to "$CARRY/node/node.xz" "$W/node/node" && chmod +x "$W/node/node" && NODE=$W/node/node
  elif command -v node >/dev/null 2>&1; then
    NODE=$(command -v node)
  fi
  [ -n "$NODE" ] && ! "$NODE" --version >/dev/null 2>&1 && { note "node: $NODE does not start here"; NODE=""; }
  local npm_dir=$W/npm
  # on the GPU machine: tests/js (git-ignored node_modules), where the test suite looks for snarkjs too
  [ "$MODE" = gpu ] && npm_dir=$ROOT/tests/js
  if [ "$MODE" = gpu ]; then
    if [ -f "$CARRY/node/snarkjs_modules.tar.xz" ] && [ ! -f "$npm_dir/node_modules/snarkjs/build/cli.cjs" ]; then
      mkdir -p "$npm_dir" && untar_xz "$CARRY/node/snarkjs_modules.tar.xz" "$npm_dir"
    fi
  elif [ -n "$NODE" ] && [ ! -f "$npm_dir/node_modules/circom2/cli.js" ]; then
    say "npm ci (snarkjs, circom2, circomlib pinned by tests/fixtures/package-lock.json) in $npm_dir"
    if ! { mkdir -p "$npm_dir" && cp tests/fixtures/package.json tests/fixtures/package-lock.json "$npm_dir/" &&
           (cd "$npm_dir" && npm ci --no-audit --no-fund --loglevel=error) >"$LOG_DIR/npm.log" 2>&1; }; then
      note "npm ci failed (log $LOG_DIR/npm.log)"
    fi
  fi
  # circom2's WASI shim passes wasm pointers above 2 GiB on as negative numbers (RangeError "Start
  # offset -1875863712 is outside the bounds of the buffer" while compiling sha256_32blk): make
  # them unsigned in its argument wrapper (idempotent; only the git-ignored npm copy is touched)
  local wasi=$npm_dir/node_modules/circom2/vendor/wasi.js
  if [ -n "$NODE" ] && [ -f "$wasi" ] && ! grep -q 'cuzk bench workaround' "$wasi"; then
    "$NODE" -e 'const fs = require("fs"), f = process.argv[1], s = fs.readFileSync(f, "utf8");
      const old = "(...args) => {\n        try {\n            return f(...args)";
      const add = "(...args) => {\n        try {\n            // cuzk bench workaround: wasm i32 pointers above 2 GiB arrive negative\n" +
        "            args = args.map((a) => (typeof a === \"number\" && a < 0 && Number.isInteger(a) ? a >>> 0 : a))\n            return f(...args)";
      if (s.includes(old)) fs.writeFileSync(f, s.replace(old, add)); else console.error("wasi.js: pattern not found, not patched");' "$wasi"
  fi
  [ -n "$NODE" ] && [ -f "$npm_dir/node_modules/snarkjs/build/cli.cjs" ] && SNARKJS=$npm_dir/node_modules/snarkjs/build/cli.cjs
  if [ -n "$SNARKJS" ]; then say "node $("$NODE" --version), snarkjs $SNARKJS"; else note "snarkjs: not available (node or the pinned package missing)"; fi
}
snarkjs() { "$NODE" "$SNARKJS" "$@"; }

# ---- rapidsnark (host: built from the peer copy into BENCH_DIR; gpu: the carried binary) ----------
RS=""
find_rapidsnark() {
  [ $USE_RS = 1 ] || return 0
  local cand=$W/rapidsnark/prover
  [ "$MODE" = gpu ] && cand=$CARRY/rapidsnark/prover
  if [ "$MODE" != gpu ] && [ ! -x "$cand" ]; then
    if [ -n "$PEER" ] && [ -f "$PEER/rapidsnark/build.sh" ]; then
      say "building rapidsnark from $PEER/rapidsnark (log $LOG_DIR/rapidsnark-build.log)"
      JOBS=$(nproc) bash "$PEER/rapidsnark/build.sh" "$W/rapidsnark" >"$LOG_DIR/rapidsnark-build.log" 2>&1 ||
        note "rapidsnark: build failed (needs build-essential cmake nasm libgmp-dev: log $LOG_DIR/rapidsnark-build.log)"
    else
      note "rapidsnark: no peer copy (.peer or ../shared/peer)"
    fi
  fi
  if [ "$MODE" = gpu ] && [ -x "$cand" ] && ldd "$cand" 2>/dev/null | grep -q "not found" && ls "$CARRY"/deb/libgmp10_*.deb >/dev/null 2>&1; then
    mkdir -p "$W/deb" && dpkg -x "$CARRY"/deb/libgmp10_*.deb "$W/deb" &&
      export LD_LIBRARY_PATH=$W/deb/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  fi
  if [ -x "$cand" ]; then
    "$cand" >/dev/null 2>&1; local rc=$?   # no arguments: usage, exit 1; a missing library: 127
    if [ $rc = 127 ] || [ $rc -ge 128 ]; then note "rapidsnark: $cand does not start here (rc $rc: $(ldd "$cand" 2>&1 | grep 'not found' | head -2 | tr '\n' ' '))"; else RS=$cand; fi
  fi
  [ -n "$RS" ] && say "rapidsnark: $RS"
}

# ---- the sha256 circuits -------------------------------------------------------------------------
sha_bytes() { case $1 in sha256_4blk) echo 237 ;; sha256_32blk) echo 2039 ;; esac; }
# host: circom compile (circom2 from npm), witness (snarkjs wtns calculate), setup, vk
make_sha_host() {
  local c=$1 d=$W/$1 n
  n=$(sha_bytes "$c")
  if [ -f "$d/circuit.r1cs" ] && [ -f "$d/witness.wtns" ]; then return 0; fi
  if [ -z "$SNARKJS" ] || [ ! -f "$W/npm/node_modules/circom2/cli.js" ]; then note "$c: needs node, circom2 and snarkjs"; return 1; fi
  mkdir -p "$d"
  sed "s/Sha256Bench(237)/Sha256Bench($n)/" tests/fixtures/circuits/sha256_4blk/circuit.circom > "$d/circuit.circom"
  "$NODE" -e 'const n=+process.argv[1]; const a=[]; for (let i = 0; i < n; i++) a.push(String((11 + 37 * i) % 256));
              require("fs").writeFileSync(process.argv[2], JSON.stringify({in: a}))' "$n" "$d/input.json"
  say "$c: circom compile ($n bytes; sha256_4blk takes ~1 min on 2 cores, sha256_32blk ~10 min)"
  # circom2 (WASI) reaches only paths below its working directory: run it from the npm folder
  local t=$SECONDS
  (cd "$W/npm" && "$NODE" node_modules/circom2/cli.js "$d/circuit.circom" --r1cs --wasm --prime bn128 -l node_modules -o "$d") \
    >"$LOG_DIR/$c-circom.log" 2>&1 || { fail "$c: circom failed (log $LOG_DIR/$c-circom.log)"; return 1; }
  say "$c: compiled in $(( SECONDS - t )) s: $(grep -E 'constraints|wires' "$LOG_DIR/$c-circom.log" | tr -d '\033' | sed 's/\[[0-9;]*m//g' | tr '\n' ' ')"
  snarkjs wtns calculate "$d/circuit_js/circuit.wasm" "$d/input.json" "$d/witness.wtns" >"$LOG_DIR/$c-wtns.log" 2>&1 ||
    { fail "$c: witness calculation failed (log $LOG_DIR/$c-wtns.log)"; return 1; }
}
# both: the zkey from the .r1cs (cuzk setup, seeded: the same bytes on any machine and thread count)
make_sha_key() {
  local c=$1 d=$W/$1
  if [ ! -f "$d/circuit_final.zkey" ]; then
    say "$c: cuzk setup --seed 1 (INSECURE test key)"
    "$CUZK" setup -q --seed 1 "$d/circuit.r1cs" --zkey "$d/circuit_final.zkey" >"$LOG_DIR/$c-setup.log" 2>&1 ||
      { fail "$c: cuzk setup failed (log $LOG_DIR/$c-setup.log)"; return 1; }
  fi
  if [ "$MODE" = gpu ] && [ -f "$CARRY/circuits/$c/zkey.sha256" ]; then
    local want got
    want=$(cut -d' ' -f1 "$CARRY/circuits/$c/zkey.sha256")
    got=$(sha256sum "$d/circuit_final.zkey" | cut -d' ' -f1)
    if [ "$want" = "$got" ]; then say "$c: zkey identical to the host's (sha256 $got)"
    else fail "$c: the zkey made here differs from the host's (sha256 $got, host $want): the carried vk does not fit"; fi
  fi
  if [ ! -f "$d/verification_key.json" ]; then
    if [ "$MODE" = gpu ] && [ -f "$CARRY/circuits/$c/verification_key.json" ]; then cp "$CARRY/circuits/$c/verification_key.json" "$d/"
    elif [ -n "$SNARKJS" ]; then snarkjs zkey export verificationkey "$d/circuit_final.zkey" "$d/verification_key.json" >/dev/null 2>&1
    fi
  fi
  [ -f "$d/verification_key.json" ] || { fail "$c: no verification_key.json"; return 1; }
}
# the circuit computes SHA-256: its two public outputs are the digest of input.json's bytes
check_sha_outputs() {
  local c=$1 pub=$2
  if [ -z "$NODE" ] || [ ! -f "$W/$c/input.json" ] || [ ! -f "$pub" ]; then return 0; fi   # no node, or the prover failed (noted)
  "$NODE" -e 'const p=JSON.parse(require("fs").readFileSync(process.argv[1])); const c=require("crypto");
              const inp=JSON.parse(require("fs").readFileSync(process.argv[2])).in.map(Number);
              const h=c.createHash("sha256").update(Buffer.from(inp)).digest("hex");
              const e=[BigInt("0x"+h.slice(0,32)).toString(), BigInt("0x"+h.slice(32)).toString()];
              if (JSON.stringify(p)!==JSON.stringify(e)) { console.error("public", p, "sha256", e); process.exit(1); }' \
    "$pub" "$W/$c/input.json" >>"$LOG_DIR/$c-sha-check.log" 2>&1 || fail "$c: public outputs are not SHA-256 of the input (log $LOG_DIR/$c-sha-check.log)"
}

# ---- timing ------------------------------------------------------------------------------------------
declare -A MS VERIFIED CALL
# time_prover KEY RUNS ZKEY WTNS VK CMD...: CMD gets proof.json public.json appended
time_prover() {
  local key=$1 runs=$2 zkey=$3 wtns=$4 vk=$5; shift 5
  local p=$W/out/$key.proof.json q=$W/out/$key.public.json i t ok=1
  mkdir -p "$W/out"; : > "$W/out/$key.times"; : > "$W/out/$key.calls"
  for (( i = 0; i < runs; i++ )); do
    rm -f "$p" "$q"
    t=$(now_ms)
    if ! "$@" "$zkey" "$wtns" "$p" "$q" >"$LOG_DIR/$key.log" 2>&1; then ok=0; break; fi
    echo $(( $(now_ms) - t )) >> "$W/out/$key.times"
    # cuzk --json: the library call's own total (key loading to proof written; no process start-up)
    sed -nE 's/.*"total": ([0-9.]+).*/\1/p' "$LOG_DIR/$key.log" >> "$W/out/$key.calls"
  done
  if [ $ok = 0 ]; then MS[$key]=FAIL; fail "$key: failed (log $LOG_DIR/$key.log: $(tail -1 "$LOG_DIR/$key.log"))"; return 1; fi
  MS[$key]=$(median < "$W/out/$key.times")
  CALL[$key]=$(median < "$W/out/$key.calls")
  if "$CUZK" verify "$vk" "$q" "$p" >"$LOG_DIR/$key.verify.log" 2>&1; then VERIFIED[$key]=1
  else VERIFIED[$key]=0; fail "$key: its proof does NOT verify (cuzk verify: $(tail -1 "$LOG_DIR/$key.verify.log"))"; fi
  say "$key: median ${MS[$key]} ms of $runs ($(tr '\n' ' ' < "$W/out/$key.times"))"
}
# shellcheck disable=SC2317  # called through time_prover's "$@"
cuzk_cpu() { "$CUZK" prove --json --backend cpu "$@"; }
# shellcheck disable=SC2317
cuzk_gpu() { "$CUZK" prove --json --backend gpu "$@"; }
# shellcheck disable=SC2317
sj_prove() { snarkjs groth16 prove "$@"; }

# bench_circuit NAME DIR: every prover on one circuit
CIRCS=()
declare -A CONSTRAINTS DOMAIN
bench_circuit() {
  local c=$1 d=$2 runs=$RUNS sj_runs
  local zkey=$d/circuit_final.zkey wtns=$d/witness.wtns vk=$d/verification_key.json
  CIRCS+=("$c")
  CONSTRAINTS[$c]=$("$CUZK" info "$d/circuit.r1cs" 2>/dev/null | sed -nE 's/^constraints: ([0-9]+),.*/\1/p')
  DOMAIN[$c]=$("$CUZK" info "$zkey" 2>/dev/null | sed -nE 's/.*domain: ([0-9]+).*/\1/p')
  [ "${DOMAIN[$c]:-0}" -ge 1048576 ] && [ "$runs" -gt 3 ] && runs=3
  sj_runs=$(( runs < 3 ? runs : 3 ))
  [ "${DOMAIN[$c]:-0}" -ge 1048576 ] && sj_runs=1
  if [ "$MODE" = gpu ]; then
    time_prover "$c.cuzk_gpu" "$runs" "$zkey" "$wtns" "$vk" cuzk_gpu
    [ "$c" != "${c#sha256}" ] && check_sha_outputs "$c" "$W/out/$c.cuzk_gpu.public.json"
  fi
  time_prover "$c.cuzk_cpu" "$runs" "$zkey" "$wtns" "$vk" cuzk_cpu
  [ "$c" != "${c#sha256}" ] && check_sha_outputs "$c" "$W/out/$c.cuzk_cpu.public.json"
  if [ -n "$SNARKJS" ] && [ "${VERIFIED[$c.cuzk_cpu]:-0}" = 1 ]; then  # an independent verifier of our proof
    snarkjs groth16 verify "$vk" "$W/out/$c.cuzk_cpu.public.json" "$W/out/$c.cuzk_cpu.proof.json" >"$LOG_DIR/$c.sj-verify.log" 2>&1 ||
      fail "$c: snarkjs rejects cuzk's proof (log $LOG_DIR/$c.sj-verify.log)"
  fi
  if [ -n "$RS" ]; then time_prover "$c.rapidsnark" "$runs" "$zkey" "$wtns" "$vk" "$RS"; fi
  if [ -n "$SNARKJS" ] && [ $USE_SNARKJS = 1 ]; then
    if [ "$MODE" = gpu ] && [ "$(el)" -gt $(( BUDGET - 40 )) ]; then
      note "$c: snarkjs skipped (time budget: $(el) s of $BUDGET s used)"
    else
      time_prover "$c.snarkjs" "$sj_runs" "$zkey" "$wtns" "$vk" sj_prove
    fi
  fi
}

ratio() { if [[ $1 =~ ^[0-9.]+$ ]] && [[ $2 =~ ^[0-9.]+$ ]] && [ "$2" != 0 ]; then awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; else echo -; fi; }
log2() { awk -v n="${1:-0}" 'BEGIN { if (n <= 0) { print "-"; exit } l = 0; while (2 ^ l < n) l++; print "2^" l }'; }
print_table() {
  local host cpu
  host=$(uname -n)
  cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')
  echo
  echo "==== BN254 Groth16 prove, whole process, median ms ($MODE; $(nproc) CPUs: $cpu; host $host) ===="
  [ "$MODE" = gpu ] && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1
  echo "cuzk $(git rev-parse --short HEAD 2>/dev/null || echo '?'); runs: $RUNS ($(( RUNS < 3 ? RUNS : 3 )) for snarkjs; at 2^20 $(( RUNS < 3 ? RUNS : 3 )) and 1); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  if [ "$MODE" = gpu ]; then
    printf '%-16s %8s %6s %9s %9s %9s %10s %9s %7s %7s %7s\n' circuit constr domain cuzk_gpu gpu_call cuzk_cpu rapidsnark snarkjs rs/gpu sj/gpu rs/cpu
  else
    printf '%-16s %8s %6s %9s %9s %10s %9s %7s %7s\n' circuit constr domain cuzk_cpu cpu_call rapidsnark snarkjs sj/cpu rs/cpu
  fi
  local c g u r s
  for c in "${CIRCS[@]}"; do
    g=${MS[$c.cuzk_gpu]:--} u=${MS[$c.cuzk_cpu]:--} r=${MS[$c.rapidsnark]:--} s=${MS[$c.snarkjs]:--}
    if [ "$MODE" = gpu ]; then
      printf '%-16s %8s %6s %9s %9s %9s %10s %9s %7s %7s %7s\n' "$c" "${CONSTRAINTS[$c]:--}" "$(log2 "${DOMAIN[$c]:-}")" "$g" \
        "${CALL[$c.cuzk_gpu]:--}" "$u" "$r" "$s" "$(ratio "$r" "$g")" "$(ratio "$s" "$g")" "$(ratio "$r" "$u")"
    else
      printf '%-16s %8s %6s %9s %9s %10s %9s %7s %7s\n' "$c" "${CONSTRAINTS[$c]:--}" "$(log2 "${DOMAIN[$c]:-}")" "$u" \
        "${CALL[$c.cuzk_cpu]:--}" "$r" "$s" "$(ratio "$s" "$u")" "$(ratio "$r" "$u")"
    fi
  done
  echo "(whole-process medians; *_call: cuzk's own total of the library call (--json), without process start-up;"
  echo " ratios: the other prover's whole-process time over cuzk's; above 1: cuzk faster. Every proof verified unless noted.)"
}

# ---- --pack: what a GPU machine needs, into CARRY_DIR ------------------------------------------------
if [ "$MODE" = pack ]; then
  rm -rf "$CARRY"; mkdir -p "$CARRY/circuits" "$CARRY/node" "$CARRY/deb" "$CARRY/rapidsnark"
  for c in "${SHA[@]}"; do
    d=$W/$c
    if [ ! -f "$d/circuit.r1cs" ] || [ ! -f "$d/circuit_final.zkey" ] || [ ! -f "$d/verification_key.json" ]; then
      echo "bench-bn254.sh --pack: $d is incomplete: run tools/bench-bn254.sh$([ "$c" = sha256_32blk ] && echo ' --large') first" >&2; exit 1
    fi
    mkdir -p "$CARRY/circuits/$c"
    say "packing $c"
    xz -T0 -9 -c "$d/circuit.r1cs" > "$CARRY/circuits/$c/circuit.r1cs.xz"
    xz -T0 -9 -c "$d/witness.wtns" > "$CARRY/circuits/$c/witness.wtns.xz"
    cp "$d/verification_key.json" "$d/input.json" "$CARRY/circuits/$c/"
    (cd "$d" && sha256sum circuit_final.zkey) > "$CARRY/circuits/$c/zkey.sha256"
  done
  if [ -x "$W/rapidsnark/prover" ]; then cp "$W/rapidsnark/prover" "$CARRY/rapidsnark/"; else echo "note: no rapidsnark binary in $W/rapidsnark" >&2; fi
  (cd "$CARRY/deb" && apt-get download libgmp10 >/dev/null 2>&1) || echo "note: apt-get download libgmp10 failed (only needed where libgmp.so.10 is missing)" >&2
  if command -v node >/dev/null 2>&1 && [ -f "$W/npm/node_modules/snarkjs/build/cli.cjs" ]; then
    say "packing node ($(node --version)) and the pinned snarkjs's modules (xz -9: about 2 minutes)"
    xz -T0 -9 -c "$(readlink -f "$(command -v node)")" > "$CARRY/node/node.xz"
    # snarkjs's runtime only: no circom2/circomlib, no tests, no source maps, no browser bundles
    tar -C "$W/npm" -cf - --exclude=node_modules/circom2 --exclude=node_modules/circomlib --exclude='node_modules/@wasmer' \
        --exclude='node_modules/*/test' --exclude='*.map' --exclude=node_modules/snarkjs/build/snarkjs.js \
        --exclude=node_modules/snarkjs/build/snarkjs.min.js --exclude=node_modules/snarkjs/src node_modules | xz -T0 -9 > "$CARRY/node/snarkjs_modules.tar.xz"
  else
    echo "note: node or $W/npm missing: no snarkjs on the GPU machine" >&2
  fi
  du -sh "$CARRY"; (cd "$CARRY" && find . -type f | sort | xargs ls -l | awk '{print $5"\t"$9}')
  echo "carry (device run): [\"${CARRY#"$ROOT"/}\", \".peer\", \".deps\"]"
  exit 0
fi

# ---- --make: the sha256 circuits, witnesses and keys only -----------------------------------------------
if [ "$MODE" = make ]; then
  CUZK=${CUZK:-$ROOT/build/cuzk}
  [ -x "$CUZK" ] || { echo "bench-bn254.sh: no cuzk at $CUZK (make, or CUZK=path)" >&2; exit 2; }
  find_node
  for c in "${SHA[@]}"; do make_sha_host "$c" && make_sha_key "$c"; done
  [ ${#NOTES[@]} -gt 0 ] && { echo "notes:"; printf '  %s\n' "${NOTES[@]}"; }
  exit $RC
fi

# ---- host ------------------------------------------------------------------------------------------------
if [ "$MODE" = host ]; then
  CUZK=${CUZK:-$ROOT/build/cuzk}
  [ -x "$CUZK" ] || { echo "bench-bn254.sh: no cuzk at $CUZK (make, or CUZK=path)" >&2; exit 2; }
  find_node
  find_rapidsnark
  for c in "${FIXTURES[@]}"; do bench_circuit "$c" "$ROOT/tests/fixtures/bn128/$c"; done
  for c in "${SHA[@]}"; do
    make_sha_host "$c" && make_sha_key "$c" && bench_circuit "$c" "$W/$c"
  done
  print_table | tee "$LOG_DIR/bench-bn254.txt"
  [ ${#NOTES[@]} -gt 0 ] && { echo "notes:"; printf '  %s\n' "${NOTES[@]}"; } | tee -a "$LOG_DIR/bench-bn254.txt"
  echo "raw logs and the table: $LOG_DIR"
  exit $RC
fi

# ---- gpu -----------------------------------------------------------------------------------------------
if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  echo "bench-bn254.sh --gpu: no NVIDIA GPU here (nvidia-smi lists none)"; exit 2
fi
BUILD=${BUILD:-build-gpu}
BIN_DIR=${PREBUILT:-$BUILD}   # PREBUILT: tools/test-gpu.sh's binaries built elsewhere
case $BIN_DIR in /*) ;; *) BIN_DIR=$ROOT/$BIN_DIR ;; esac
CUZK=${CUZK:-$BIN_DIR/cuzk}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader 2>&1 | head -2
say "budget ${BUDGET}s; logs in $LOG_DIR; carry $CARRY; peer ${PEER:-none}"
# 1. the peer's BN254 build in the background while cuzk builds (both only compile)
PEER_PID=
if [ -n "$PEER" ] && [ -f "$PEER/run-peer.sh" ] && [ ! -x "$PEER/build/sppark_bench_bn254" ]; then
  PEER_CURVES=bn254 PEER_BUILD="$PEER/build" bash "$PEER/run-peer.sh" --build-only >"$LOG_DIR/peer-build.log" 2>&1 &
  PEER_PID=$!
  say "sppark BN254 build in the background (log $LOG_DIR/peer-build.log)"
fi
find_node
# node on the PATH: the test suite's snarkjs checks (tests/js/node_modules, unpacked by find_node) run it
if [ -n "$NODE" ]; then PATH="$(dirname "$NODE"):$PATH"; export PATH; fi
find_rapidsnark
# 2. build (sm_90a) and the gpu_bn254 suite (tools/test-gpu.sh: its summary goes to the log)
say "build + gpu_bn254 suite: tools/test-gpu.sh --no-bench (log $LOG_DIR/test-gpu.log)"
env -u OUT BUILD="$BUILD" SUITES=gpu_bn254 MEMCHECK=0 timeout $(( BUDGET - $(el) - 120 > 200 ? BUDGET - $(el) - 120 : 200 )) \
  tools/test-gpu.sh --no-bench >"$LOG_DIR/test-gpu.log" 2>&1
TRC=$?
TESTS=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOG_DIR/test-gpu.log" | tail -1)
say "tests: rc $TRC, ${TESTS:-no summary}"
[ $TRC = 0 ] || fail "gpu_bn254 suite: rc $TRC (${TESTS:-see $LOG_DIR/test-gpu.log}); $(grep -E '^\[ *FAIL' "$LOG_DIR/test-gpu.log" | head -3 | tr '\n' ' ')"
[ -x "$CUZK" ] || { fail "no cuzk binary at $CUZK (build failed: $LOG_DIR/test-gpu.log)"; print_table; printf '  %s\n' "${NOTES[@]}"; exit 1; }
# 3. provers on sha256_4blk (the issue's >= 2^17 circuit) and the fixtures; 4. the BN254 G1 MSM and
#    NTT against sppark; 5. sha256_32blk (2^20) with the time left. The sha256 keys are made here
#    from the carried .r1cs (seeded: checked against the host's key hash).
gpu_sha() {
  local c=$1 need=$2
  if [ ! -f "$CARRY/circuits/$c/circuit.r1cs.xz" ]; then
    if [ "$c" = sha256_4blk ]; then fail "$c: not carried ($CARRY/circuits/$c)"; else note "$c: not carried (tools/bench-bn254.sh --large, then --pack --large)"; fi
    return
  fi
  if [ "$(el)" -gt $(( BUDGET - need )) ]; then note "$c: skipped (time budget: $(el) s of $BUDGET s used)"; return; fi
  mkdir -p "$W/$c"
  [ -f "$W/$c/circuit.r1cs" ] || unxz_to "$CARRY/circuits/$c/circuit.r1cs.xz" "$W/$c/circuit.r1cs"
  [ -f "$W/$c/witness.wtns" ] || unxz_to "$CARRY/circuits/$c/witness.wtns.xz" "$W/$c/witness.wtns"
  cp -f "$CARRY/circuits/$c/input.json" "$W/$c/" 2>/dev/null
  make_sha_key "$c" && bench_circuit "$c" "$W/$c"
}
gpu_sha sha256_4blk 120
for c in "${FIXTURES[@]}"; do bench_circuit "$c" "$ROOT/tests/fixtures/bn128/$c"; done
if [ -n "$PEER_PID" ]; then wait "$PEER_PID"; say "sppark build: rc $?"; fi
if [ -n "$PEER" ] && [ "$(el)" -lt $(( BUDGET - 45 )) ]; then
  say "cuzk vs sppark, BN254: tools/bench-vs-peer.sh (log $LOG_DIR/bench-vs-peer.out)"
  env -u OUT BENCH_CURVES=bn254 PEER_DIR="$PEER" BUILD="$BUILD" LOG_DIR="$LOG_DIR" PEER_REPS=5 \
    timeout $(( BUDGET + 30 - $(el) )) tools/bench-vs-peer.sh msm 20 msm 22 msm 24 ntt 20 ntt 24 >"$LOG_DIR/bench-vs-peer.out" 2>&1 ||
    fail "bench-vs-peer.sh: rc $? (log $LOG_DIR/bench-vs-peer.out)"
else
  note "cuzk vs sppark: skipped ($([ -z "$PEER" ] && echo 'no .peer carried' || echo "time budget: $(el) s used"))"
fi
gpu_sha sha256_32blk 70
{
  sed -n '/==== cuzk GPU summary/,$p' "$LOG_DIR/test-gpu.log" | grep -E "build|gpu_bn254|suites" | head -20
  [ -f "$LOG_DIR/bench-vs-peer.txt" ] && cat "$LOG_DIR/bench-vs-peer.txt"
  print_table
  [ ${#NOTES[@]} -gt 0 ] && { echo "notes:"; printf '  %s\n' "${NOTES[@]}"; }
  echo "total $(el) s"
} | tee "$LOG_DIR/bench-bn254.txt"
if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then
  cp "$LOG_DIR/bench-bn254.txt" "$OUT/" && tar -czf "$OUT/bench-bn254-logs.tar.gz" -C "$W" logs
fi
exit $RC
