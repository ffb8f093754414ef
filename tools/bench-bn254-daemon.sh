#!/usr/bin/env bash
# BN254 Groth16 through cuzkd on the GPU with the key hot, against rapidsnark on all CPUs of the same
# machine (issue 27 item 2). A service proves many times with one key, so what a user waits for is
# one Prove call to a daemon that holds the zkey (its G1 queries and B_G2 resident on the device),
# not a process that loads a key for every proof; rapidsnark has no daemon: its figure is a whole
# process (start, zkey mmap, proof, JSON), as rapidsnark is used.
#
# Circuits (made here with circom from the bundled sources; INSECURE keys by `cuzk setup --seed 1`):
#   sha256_4blk   127,191 constraints, 2^17   } tools/bench-bn254.sh --make --large (circom wasm,
#   sha256_32blk  ~1.02 M constraints, 2^20   } witnesses by snarkjs; mostly 0/1 witness values)
#   mimc5_3m      3.2 M constraints, 2^22: tests/fixtures/circuits/merkle_mimc5 at depth 16 and
#                 50,000 rounds (4 constraints a round: 3 products and the linear one that circom
#                 keeps at its default -O1; x^5 rounds: full-size random witness values, the
#                 MSMs' worst case);
#                 its witness comes from circom's C++ generator (the wasm one and node would not fit
#                 the GPU machine's carry), built here and run there
#
#   tools/bench-bn254-daemon.sh --pack      (host) makes the circuits under BENCH_DIR (default
#       build-bench/bn254; minutes: sha256_32blk's circom compile ~10 min, mimc5_3m's ~5 min and
#       its key ~10 min on 2 cores) and gathers into CARRY_DIR (default .carry27, git-ignored) what
#       the GPU machine needs: each .r1cs (xz), the sha256 witnesses (xz), mimc5_3m's witness
#       generator (static, xz) and input, each key's sha256 and verification_key.json, rapidsnark
#       (built here from the peer copy). CUZK: the cuzk binary (default build/cuzk).
#   tools/bench-bn254-daemon.sh --gpu [--runs N]   (GPU machine, after `source tools/prebuilt.sh
#       unpack` of a pack with cuzkd: tools/prebuilt.sh pack, pack-daemon, merge-daemon; carry
#       .prebuilt, .deps and CARRY_DIR) per circuit: the key by `cuzk setup --seed 1` (its sha256
#       must equal the host's), rapidsnark RUNS whole processes (its last proof checked by `cuzk
#       verify`), `cuzk prove` RUNS whole processes with --backend cpu and with --backend gpu (each
#       last proof checked), cuzkd with backend gpu and the circuit preloaded, one untimed Prove, then RUNS
#       timed Prove calls one at a time, twice: the zkey's A/B rows on the host, then on the GPU (tests/daemon/client.go latency). Default --runs 5. The table
#       is printed last; with $OUT set the table, the logs and every cuzkd proof go there.
#   tools/bench-bn254-daemon.sh --verify DIR       (host) `snarkjs groth16 verify` of every proof
#       DIR (the GPU run's $OUT) holds (CIRCUIT.proofs.jsonl: rows on the host; CIRCUIT-rows: on the GPU), with the host's verification keys. Exit 1 if any fails.
# Exit status 0 when every step ran and every proof verified; 1 otherwise.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
MODE='' RUNS=5 VDIR=''
while [ $# -gt 0 ]; do
  case $1 in
    --pack) MODE=pack ;;
    --gpu) MODE=gpu ;;
    --verify)
      [ $# -ge 2 ] || { echo "bench-bn254-daemon.sh: --verify needs the folder of the GPU run's output" >&2; exit 2; }
      MODE=verify VDIR=$2; shift ;;
    --runs)
      if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then echo "bench-bn254-daemon.sh: --runs needs a count" >&2; exit 2; fi
      RUNS=$2; shift ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-bn254-daemon.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$MODE" ] || { echo "bench-bn254-daemon.sh: say --pack, --gpu or --verify DIR (--help)" >&2; exit 2; }
W=${BENCH_DIR:-$ROOT/build-bench/bn254}
CARRY=${CARRY_DIR:-$ROOT/.carry27}
case $W in /*) ;; *) W=$ROOT/$W ;; esac
case $CARRY in /*) ;; *) CARRY=$ROOT/$CARRY ;; esac
CIRCUITS=(sha256_4blk sha256_32blk mimc5_3m)
T0=$(date +%s)
say() { echo "[bench-bn254-daemon $(( $(date +%s) - T0 ))s] $*"; }
RC=0
fail() { RC=1; say "FAIL: $*"; }
median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else if (NR % 2) print a[(NR+1)/2]; else printf "%.1f\n", (a[NR/2]+a[NR/2+1])/2}'; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
unxz_to() {  # unxz_to FILE.xz OUT (python3's lzma where xz is missing)
  if command -v xz >/dev/null 2>&1; then xz -dc "$1" > "$2"
  else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; fi
}

# ---- --verify (host) -------------------------------------------------------------------------------
if [ "$MODE" = verify ]; then
  SJ=$W/npm/node_modules/snarkjs/build/cli.cjs
  [ -f "$SJ" ] || { echo "bench-bn254-daemon.sh: no snarkjs at $SJ (tools/bench-bn254.sh --make installs it)" >&2; exit 2; }
  n=0
  for tag in "${CIRCUITS[@]}" "${CIRCUITS[@]/%/-rows}"; do
    c=${tag%-rows}
    f=$VDIR/$tag.proofs.jsonl
    [ -f "$f" ] || { say "$tag: no proofs in $VDIR"; continue; }
    vk=$W/$c/verification_key.json
    [ -f "$vk" ] || { fail "$c: no $vk"; continue; }
    t=$(mktemp -d)
    i=0
    while IFS= read -r line; do
      node -e 'const l = JSON.parse(process.argv[1]); const fs = require("fs");
               fs.writeFileSync(process.argv[2] + "/proof.json", l.proof_json); fs.writeFileSync(process.argv[2] + "/public.json", l.public_json)' "$line" "$t"
      if node "$SJ" groth16 verify "$vk" "$t/public.json" "$t/proof.json" 2>&1 | grep -q 'OK!'; then n=$((n + 1))
      else fail "$tag: cuzkd proof $i does NOT verify in snarkjs"; fi
      i=$((i + 1))
    done < "$f"
    # the public signals equal those of the host's witness (snarkjs wtns export json: [1, pub..., ...])
    npub=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).IC.length - 1)' "$vk")
    if [ -f "$W/$c/witness.wtns" ]; then
      node "$SJ" wtns export json "$W/$c/witness.wtns" "$t/w.json" >/dev/null 2>&1 &&
        want=$(node -e 'const w = JSON.parse(require("fs").readFileSync(process.argv[1])); console.log(JSON.stringify(w.slice(1, 1 + +process.argv[2])))' "$t/w.json" "$npub") &&
        got=$(head -1 "$f" | node -e 'let s = ""; process.stdin.on("data", d => s += d).on("end", () => console.log(JSON.stringify(JSON.parse(JSON.parse(s).public_json))))') &&
        { [ "$want" = "$got" ] && say "$tag: $i proofs verified by snarkjs; public signals = the witness's ($got)" ||
            fail "$c: public signals $got, the witness has $want"; }
    else
      say "$tag: $i proofs verified by snarkjs"
    fi
    rm -rf "$t"
  done
  say "$n proofs verified"
  exit $RC
fi

# ---- --pack (host) ---------------------------------------------------------------------------------
MIMC_DEPTH=16 MIMC_ROUNDS=50000
if [ "$MODE" = pack ]; then
  CUZK=${CUZK:-$ROOT/build/cuzk}
  [ -x "$CUZK" ] || { echo "bench-bn254-daemon.sh: no cuzk at $CUZK (make, or CUZK=path)" >&2; exit 2; }
  CUZK=$CUZK BENCH_DIR=$W tools/bench-bn254.sh --make --large || fail "tools/bench-bn254.sh --make --large"
  d=$W/mimc5_3m
  mkdir -p "$d"
  if [ ! -f "$d/circuit.r1cs" ] || [ ! -x "$d/circuit_cpp/circuit" ]; then
    sed "s/MerkleInclusion(8, 48)/MerkleInclusion($MIMC_DEPTH, $MIMC_ROUNDS)/" tests/fixtures/circuits/merkle_mimc5/circuit.circom > "$d/circuit.circom"
    grep -q "MerkleInclusion($MIMC_DEPTH, $MIMC_ROUNDS)" "$d/circuit.circom" || { fail "merkle_mimc5's main component changed: update this script"; exit 1; }
    say "mimc5_3m: circom --r1cs --c (a few minutes)"
    (cd "$W/npm" && node node_modules/circom2/cli.js "$d/circuit.circom" --r1cs --c --prime bn128 -l node_modules -o "$d") > "$d/circom.log" 2>&1 ||
      { fail "mimc5_3m: circom failed ($d/circom.log)"; exit 1; }
    # circom's C++ witness generator, linked statically (the GPU machine has no GMP)
    say "mimc5_3m: building the C++ witness generator"
    (cd "$d/circuit_cpp" && nasm -felf64 fr.asm -o fr_asm.o &&
       g++ -O3 -I. -o circuit main.cpp calcwit.cpp fr.cpp circuit.cpp fr_asm.o -static -lgmp) > "$d/gen-build.log" 2>&1 ||
      { fail "mimc5_3m: the witness generator did not build ($d/gen-build.log; needs nasm, libgmp-dev, nlohmann-json3-dev)"; exit 1; }
  fi
  if [ ! -f "$d/input.json" ]; then
    node -e 'const d = +process.argv[1]; const e = [], ix = [];
             for (let i = 0; i < d; i++) { e.push(String(1000003n * BigInt(i + 7) ** 11n)); ix.push(String((i * 5 + 1) % 3 === 0 ? 1 : 0)); }
             require("fs").writeFileSync(process.argv[2], JSON.stringify({leaf: "123456789", pathElements: e, pathIndices: ix}))' "$MIMC_DEPTH" "$d/input.json"
  fi
  if [ ! -f "$d/witness.wtns" ]; then
    (cd "$d/circuit_cpp" && ./circuit ../input.json ../witness.wtns) > "$d/wtns.log" 2>&1 || { fail "mimc5_3m: witness ($d/wtns.log)"; exit 1; }
  fi
  if [ ! -f "$d/circuit_final.zkey" ]; then
    say "mimc5_3m: cuzk setup --seed 1 (INSECURE test key; ~10 min on 2 cores)"
    "$CUZK" setup -q --seed 1 "$d/circuit.r1cs" --zkey "$d/circuit_final.zkey" > "$d/setup.log" 2>&1 || { fail "mimc5_3m: cuzk setup ($d/setup.log)"; exit 1; }
  fi
  if [ ! -f "$d/verification_key.json" ]; then
    node "$W/npm/node_modules/snarkjs/build/cli.cjs" zkey export verificationkey "$d/circuit_final.zkey" "$d/verification_key.json" > /dev/null 2>&1 ||
      { fail "mimc5_3m: snarkjs zkey export verificationkey"; exit 1; }
  fi
  # a proof on this machine first: the circuit, witness and key agree
  "$CUZK" prove -q --backend cpu "$d/circuit_final.zkey" "$d/witness.wtns" "$d/proof.json" "$d/public.json" ||
    { fail "mimc5_3m: cuzk prove on this machine"; exit 1; }
  if [ ! -x "$W/rapidsnark/prover" ]; then
    PEER=${PEER_DIR:-$ROOT/../shared/peer}
    JOBS=$(nproc) bash "$PEER/rapidsnark/build.sh" "$W/rapidsnark" > "$W/rapidsnark-build.log" 2>&1 ||
      { fail "rapidsnark: build failed ($W/rapidsnark-build.log)"; exit 1; }
  fi
  rm -rf "$CARRY"; mkdir -p "$CARRY/rapidsnark" "$CARRY/deb"
  for c in "${CIRCUITS[@]}"; do
    d=$W/$c; mkdir -p "$CARRY/$c"
    say "packing $c"
    xz -T0 -9 -c "$d/circuit.r1cs" > "$CARRY/$c/circuit.r1cs.xz"
    if [ "$c" = mimc5_3m ]; then
      xz -T0 -9 -c "$d/circuit_cpp/circuit" > "$CARRY/$c/witness-gen.xz"
      xz -T0 -9 -c "$d/circuit_cpp/circuit.dat" > "$CARRY/$c/circuit.dat.xz"
      (cd "$d" && sha256sum witness.wtns) > "$CARRY/$c/wtns.sha256"
    else
      xz -T0 -9 -c "$d/witness.wtns" > "$CARRY/$c/witness.wtns.xz"
    fi
    cp "$d/verification_key.json" "$d/input.json" "$CARRY/$c/"
    (cd "$d" && sha256sum circuit_final.zkey) > "$CARRY/$c/zkey.sha256"
  done
  cp "$W/rapidsnark/prover" "$CARRY/rapidsnark/"
  (cd "$CARRY/deb" && apt-get download libgmp10 libgomp1 > /dev/null 2>&1) || say "note: apt-get download libgmp10 libgomp1 failed"
  du -sh "$CARRY"; (cd "$CARRY" && find . -type f | sort | xargs ls -l | awk '{print $5"\t"$9}')
  echo "carry (device run): [\".prebuilt\", \".deps\", \"${CARRY#"$ROOT"/}\"]"
  exit $RC
fi

# ---- --gpu (the GPU machine) -----------------------------------------------------------------------
nvidia-smi -L 2>/dev/null | grep -q '^GPU ' || { echo "bench-bn254-daemon.sh --gpu: no NVIDIA GPU here (nvidia-smi lists none)"; exit 2; }
BIN=${PREBUILT:-}
[ -n "$BIN" ] && [ -x "$BIN/cuzkd" ] && [ -x "$BIN/cuzkd-client" ] ||
  { echo "bench-bn254-daemon.sh --gpu: PREBUILT has no cuzkd/cuzkd-client (source tools/prebuilt.sh unpack of a pack with the daemon)" >&2; exit 2; }
CUZK=$BIN/cuzk
G=${BENCH_DIR:-/tmp/bench-bn254-daemon}
LOG=$G/logs
mkdir -p "$G" "$LOG"
DEST=${OUT:-$G}
RS=$CARRY/rapidsnark/prover
if ldd "$RS" 2>/dev/null | grep -q "not found"; then
  mkdir -p "$G/deb" && for f in "$CARRY"/deb/*.deb; do dpkg -x "$f" "$G/deb"; done
  export LD_LIBRARY_PATH=$G/deb/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1
say "$(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); cuzk $("$CUZK" --version 2>&1 | head -1)"
declare -A NC DOM RSM DMED DMIN DPROV SETUP CPUM GPUM
for c in "${CIRCUITS[@]}"; do
  s=$CARRY/$c d=$G/$c
  [ -f "$s/circuit.r1cs.xz" ] || { fail "$c: not carried ($s)"; continue; }
  mkdir -p "$d"
  unxz_to "$s/circuit.r1cs.xz" "$d/circuit.r1cs"
  if [ -f "$s/witness.wtns.xz" ]; then unxz_to "$s/witness.wtns.xz" "$d/witness.wtns"
  else
    unxz_to "$s/witness-gen.xz" "$d/circuit" && unxz_to "$s/circuit.dat.xz" "$d/circuit.dat" && chmod +x "$d/circuit" &&
      (cd "$d" && ./circuit "$s/input.json" witness.wtns) > "$LOG/$c-wtns.log" 2>&1 || { fail "$c: witness generator ($LOG/$c-wtns.log)"; continue; }
    [ "$(cd "$d" && sha256sum witness.wtns)" = "$(cat "$s/wtns.sha256")" ] || { fail "$c: the witness made here differs from the host's"; continue; }
  fi
  t=$(now_ms)
  "$CUZK" setup -q --seed 1 "$d/circuit.r1cs" --zkey "$d/circuit_final.zkey" > "$LOG/$c-setup.log" 2>&1 || { fail "$c: cuzk setup ($LOG/$c-setup.log)"; continue; }
  SETUP[$c]=$(( $(now_ms) - t ))
  [ "$(cd "$d" && sha256sum circuit_final.zkey)" = "$(cat "$s/zkey.sha256")" ] || { fail "$c: the key made here differs from the host's (the carried vk does not fit)"; continue; }
  NC[$c]=$("$CUZK" info "$d/circuit.r1cs" 2>/dev/null | sed -nE 's/^constraints: ([0-9]+),.*/\1/p')
  DOM[$c]=$("$CUZK" info "$d/circuit_final.zkey" 2>/dev/null | sed -nE 's/.*domain: ([0-9]+).*/\1/p')
  say "$c: ${NC[$c]} constraints, domain ${DOM[$c]}; key made in ${SETUP[$c]} ms"
  # rapidsnark: whole processes on all CPUs; its last proof checked
  : > "$LOG/$c-rs.times"
  for (( i = 0; i < RUNS; i++ )); do
    t=$(now_ms)
    "$RS" "$d/circuit_final.zkey" "$d/witness.wtns" "$d/rs.proof.json" "$d/rs.public.json" > "$LOG/$c-rs.log" 2>&1 || { fail "$c: rapidsnark ($LOG/$c-rs.log)"; break; }
    echo $(( $(now_ms) - t )) >> "$LOG/$c-rs.times"
  done
  RSM[$c]=$(median < "$LOG/$c-rs.times")
  "$CUZK" verify "$s/verification_key.json" "$d/rs.public.json" "$d/rs.proof.json" > "$LOG/$c-rs-verify.log" 2>&1 || fail "$c: rapidsnark's proof does not verify"
  say "$c: rapidsnark $(paste -sd' ' "$LOG/$c-rs.times") ms"
  # cuzk prove as whole processes, as rapidsnark runs: the CPU backend (issue 27 item 1 on this
  # machine's cores) and the GPU backend (cold: CUDA start-up and the key upload in every run)
  for be in cpu gpu; do
    : > "$LOG/$c-cuzk-$be.times"
    for (( i = 0; i < RUNS; i++ )); do
      t=$(now_ms)
      "$CUZK" prove -q --backend $be "$d/circuit_final.zkey" "$d/witness.wtns" "$d/$be.proof.json" "$d/$be.public.json" \
        > "$LOG/$c-cuzk-$be.log" 2>&1 || { fail "$c: cuzk prove --backend $be ($LOG/$c-cuzk-$be.log)"; break; }
      echo $(( $(now_ms) - t )) >> "$LOG/$c-cuzk-$be.times"
    done
    [ "$be" = cpu ] && CPUM[$c]=$(median < "$LOG/$c-cuzk-$be.times") || GPUM[$c]=$(median < "$LOG/$c-cuzk-$be.times")
    "$CUZK" verify "$s/verification_key.json" "$d/$be.public.json" "$d/$be.proof.json" > /dev/null 2>&1 || fail "$c: cuzk's $be proof does not verify"
    say "$c: cuzk prove --backend $be $(paste -sd' ' "$LOG/$c-cuzk-$be.times") ms"
  done
  # cuzkd: GPU backend, the key preloaded (resident on the device), one Prove at a time; twice:
  # the zkey's A/B rows on the host (a/b summed on CPU threads: the default) and on the device
  # (engine.zkey_rows_on_gpu = true: the whole proof start on the GPU), back to back
  sock=$G/cuzkd.sock
  for rows in host gpu; do
    tag=$c; [ $rows = gpu ] && tag=$c-rows
    printf '[server]\nlisten = ["unix://%s"]\nhttp = ""\n[log]\nlevel = "debug"\n[engine]\nbackend = "gpu"\nworkers = 1\nzkey_rows_on_gpu = %s\n[circuits.%s]\nzkey = "%s"\npreload = true\n' \
      "$sock" "$([ $rows = gpu ] && echo true || echo false)" "$c" "$d/circuit_final.zkey" > "$G/$tag.toml"
    "$BIN/cuzkd" --config "$G/$tag.toml" > "$LOG/$tag-cuzkd.out" 2> "$LOG/$tag-cuzkd.log" &
    P=$!
    for _ in $(seq 600); do grep -q ready "$LOG/$tag-cuzkd.out" 2>/dev/null && break; kill -0 $P 2>/dev/null || break; sleep 0.1; done
    if ! grep -q ready "$LOG/$tag-cuzkd.out" 2>/dev/null; then fail "$c: cuzkd (rows on $rows) did not start ($LOG/$tag-cuzkd.log)"; kill $P 2>/dev/null; wait $P 2>/dev/null; continue; fi
    rm -f "$DEST/$tag.proofs.jsonl"
    "$BIN/cuzkd-client" latency -addr "unix://$sock" -circuit "$c" -wtns "$d/witness.wtns" -n "$RUNS" -warmup 1 -tag "$tag" \
      -out "$DEST/$tag.proofs.jsonl" > "$LOG/$tag-latency.log" 2>&1 || fail "$c: cuzkd Prove calls, rows on $rows ($LOG/$tag-latency.log)"
    kill -TERM $P; wait $P
    say "$c: cuzkd, zkey rows on the $rows:"; cat "$LOG/$tag-latency.log"
    DMED[$tag]=$(sed -nE 's/^latency median_ms=([0-9.]+).*/\1/p' "$LOG/$tag-latency.log")
    DMIN[$tag]=$(sed -nE 's/^latency median_ms=.* min_ms=([0-9.]+).*/\1/p' "$LOG/$tag-latency.log")
    DPROV[$tag]=$(sed -nE 's/^latency i=.* prover_ms=([0-9.]+)$/\1/p' "$LOG/$tag-latency.log" | median)
  done
  rm -f "$d/circuit_final.zkey"   # a 2^22 key is ~1.6 GB: keep the disk for the next
done
ratio() { if [[ ${1:-} =~ ^[0-9.]+$ ]] && [[ ${2:-} =~ ^[0-9.]+$ ]]; then awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; else echo -; fi; }
{
  echo
  echo "==== BN254 Groth16: cuzkd Prove (GPU, key hot) vs rapidsnark (whole process, $(nproc) CPUs), median ms of $RUNS ===="
  nvidia-smi --query-gpu=name --format=csv,noheader | head -1
  echo "cuzk $(git rev-parse --short HEAD 2>/dev/null || echo '?'); cuzkd $(head -c 12 .prebuilt/COMMIT 2>/dev/null)"
  printf '%-13s %9s %7s %6s %10s %9s %10s %9s %9s %11s %8s %8s\n' circuit constr domain rows cuzkd_call cuzkd_min prover_ms \
    gpu_proc cpu_proc rapidsnark rs/cuzkd rs/cpu
  for c in "${CIRCUITS[@]}"; do
    for rows in host gpu; do
      tag=$c; [ $rows = gpu ] && tag=$c-rows
      printf '%-13s %9s %7s %6s %10s %9s %10s %9s %9s %11s %8s %8s\n' "$c" "${NC[$c]:--}" "${DOM[$c]:--}" "$rows" "${DMED[$tag]:--}" \
        "${DMIN[$tag]:--}" "${DPROV[$tag]:--}" "${GPUM[$c]:--}" "${CPUM[$c]:--}" "${RSM[$c]:--}" \
        "$(ratio "${RSM[$c]:-}" "${DMED[$tag]:-}")" "$(ratio "${RSM[$c]:-}" "${CPUM[$c]:-}")"
    done
  done
  echo "(cuzkd_call: the client's wall time of one Prove call over a unix socket, the .wtns bytes sent"
  echo " with it; prover_ms: the daemon's time inside the prover; gpu_proc, cpu_proc: whole cuzk prove"
  echo " processes, --backend gpu (CUDA start-up and key upload each time) and cpu; rapidsnark: whole"
  echo " process as it is run; rows: where the zkey's A/B rows are (host: a/b on CPU threads, the"
  echo " default; gpu: engine.zkey_rows_on_gpu = true); ratios above 1: cuzk faster)"
  [ $RC = 0 ] && echo "all steps ran; every cuzkd proof verified by the daemon (tools/bench-bn254-daemon.sh --verify for snarkjs)" || echo "FAILURES above"
} | tee "$G/table.txt"
if [ -n "${OUT:-}" ]; then cp "$G/table.txt" "$OUT/" && tar -czf "$OUT/bench-bn254-daemon-logs.tar.gz" -C "$G" logs; fi
exit $RC
