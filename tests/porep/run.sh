#!/usr/bin/env bash
# PoRep C2 through the CLI at 2 KiB (ctest porep_cli; needs the porep2k fixture of
# tests/porep/fixture.sh): a sector sealed by cuzk (make-c1), proved by prove-porep (CPU, its
# progress lines checked) and accepted by verify-seal from the public data only (the commitments also
# as CIDs); a changed seed, ticket, comm_r, comm_d,
# miner, sector or proof byte gives exit 1; --print-inputs equals the independent Python oracle
# tests/porep/porep_public.py; bad C1 files and arguments exit 3 and 2 with a reason; bad key files,
# and --backend gpu without a GPU, are refused before the C1 output is read.
#   tests/porep/run.sh path/to/cuzk FIXTURE_DIR
set -u
CUZK=$(readlink -f "$1")
F=$2
HERE=$(cd "$(dirname "$0")" && pwd)
[ -f "$F/env" ] || { echo "porep_cli: no fixture in $F (tests/porep/fixture.sh)"; exit 1; }
# shellcheck disable=SC1091
. "$F/env"
W=$(mktemp -d "${TMPDIR:-/tmp}/porep-cli.XXXXXX")
trap 'rm -rf "$W"' EXIT
fails=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }
expect_rc() { # expect_rc NAME RC PATTERN CMD...: exit code RC and stderr+stdout matching PATTERN
    local name=$1 want=$2 pat=$3; shift 3
    "$@" > "$W/o" 2>&1
    local rc=$?
    if [ "$rc" = "$want" ] && grep -Eq -- "$pat" "$W/o"; then pass "$name (exit $rc)";
    else fail "$name: exit $rc (want $want), output:"; head -5 "$W/o"; fi
}
VS=(--vk "$F/porep2k.vk" --registered-proof "$RP" --miner-id "$MINER" --sector-id "$SECTOR" --comm-r "$COMM_R"
    --comm-d "$COMM_D" --ticket "$TICKET" --seed "$SEED")

# 1. prove (CPU), every partition verified by prove-porep itself
if "$CUZK" prove-porep --backend cpu --params "$F/porep2k.params" --r1cs "$F/porep2k.r1cs" --miner-id "$MINER" \
     --sector-id "$SECTOR" --json "$F/c1.json" "$W/proof.bin" > "$W/prove.json" 2> "$W/prove.err"; then
    sz=$(stat -c %s "$W/proof.bin")
    [ "$sz" = 192 ] && pass "prove-porep: 1 partition, 192 bytes" || fail "prove-porep: $sz bytes"
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["partitions"] == 1 and j["srs_cache"]["use"] in ("used", "refused", "none"), j' "$W/prove.json" \
        && pass "prove-porep --json: a summary" || fail "prove-porep --json"
    # progress an operator can read while a CPU partition proves for minutes: in a log, a line every
    # 5 s naming the partition's current step (when the prove took long enough to get one)
    ms=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["prove_ms"]))' "$W/prove.json")
    if [ "${ms:-0}" -lt 12000 ]; then pass "prove-porep progress: the prove took ${ms} ms, no 5 s line due";
    elif grep -Eq '^proving .*step 0/1 .*partition 0: (a/b/c|H|MSM [A-Z0-9]+|MSM B \(G2\))' "$W/prove.err"; then
        pass "prove-porep progress: $(grep -c '^proving ' "$W/prove.err") lines over ${ms} ms, e.g. '$(grep '^proving ' "$W/prove.err" | tail -1)'"
    else fail "prove-porep progress: no progress line in ${ms} ms:"; cat "$W/prove.err"; fi
else
    fail "prove-porep exit $?"; cat "$W/prove.err"; echo "$fails failed"; exit 1
fi

# 2. verify-seal from public data only
expect_rc "verify-seal accepts the proof" 0 '^OK' "$CUZK" verify-seal "${VS[@]}" "$W/proof.bin"
vs_with() { # vs_with --opt VALUE: VS2 = VS with that option's value replaced (an option given twice is refused)
    VS2=(); local i
    for ((i = 0; i < ${#VS[@]}; i++)); do
        VS2+=("${VS[i]}")
        if [ "${VS[i]}" = "$1" ]; then VS2+=("$2"); i=$((i + 1)); fi
    done
}
flip() { # flip HEX: the same 32 bytes with the first byte's low bit changed
    printf '%02x%s' $(( 0x${1:0:2} ^ 1 )) "${1:2}"
}
for what in seed ticket comm-r comm-d; do
    case $what in seed) v=$SEED ;; ticket) v=$TICKET ;; comm-r) v=$COMM_R ;; comm-d) v=$COMM_D ;; esac
    vs_with "--$what" "$(flip "$v")"
    expect_rc "verify-seal: a changed $what gives INVALID" 1 'INVALID' "$CUZK" verify-seal "${VS2[@]}" "$W/proof.bin"
done
vs_with --miner-id $((MINER + 1))
expect_rc "verify-seal: another miner gives INVALID" 1 'INVALID' "$CUZK" verify-seal "${VS2[@]}" "$W/proof.bin"
for addr in "f0$MINER" "t0$MINER"; do   # a miner's ID address (mainnet f0, testnet t0) is its actor id
    vs_with --miner-id "$addr"
    expect_rc "verify-seal: --miner-id $addr (an ID address) is miner $MINER" 0 '^OK' "$CUZK" verify-seal "${VS2[@]}" "$W/proof.bin"
done
vs_with --miner-id "f1$MINER"
expect_rc "verify-seal: --miner-id f1... (not an ID address) is a usage error" 2 'f01000 / t01000' \
    "$CUZK" verify-seal "${VS2[@]}" "$W/proof.bin"
vs_with --sector-id $((SECTOR + 1))
expect_rc "verify-seal: another sector gives INVALID" 1 'INVALID' "$CUZK" verify-seal "${VS2[@]}" "$W/proof.bin"
expect_rc "verify-seal: an option given twice is a usage error" 2 'given twice' \
    "$CUZK" verify-seal "${VS[@]}" --sector-id $((SECTOR + 1)) "$W/proof.bin"
expect_rc "verify-seal: --prover-id with --miner-id is a usage error" 2 'not both' \
    "$CUZK" verify-seal "${VS[@]}" --prover-id "$(printf '%064d' 0)" "$W/proof.bin"
for off in 0 100 191; do
    cp "$W/proof.bin" "$W/bad.bin"
    b=$(od -An -tu1 -j $off -N1 "$W/bad.bin" | tr -d ' ')
    printf "$(printf '\\%03o' $(( (b ^ 4) & 255 )))" | dd of="$W/bad.bin" bs=1 seek=$off conv=notrunc 2>/dev/null
    # a changed byte is either not a point (exit 3, named) or a proof that does not verify (exit 1)
    "$CUZK" verify-seal "${VS[@]}" "$W/bad.bin" > "$W/o" 2>&1
    rc=$?
    if [ $rc = 1 ] || [ $rc = 3 ]; then pass "verify-seal: proof byte $off changed -> exit $rc ($(head -c 80 "$W/o"))";
    else fail "verify-seal: proof byte $off changed -> exit $rc"; cat "$W/o"; fi
done
head -c 191 "$W/proof.bin" > "$W/short.bin"
expect_rc "verify-seal: a truncated proof file is refused" 3 '192' "$CUZK" verify-seal "${VS[@]}" "$W/short.bin"
expect_rc "verify-seal: a missing argument is a usage error" 2 'comm-r' \
    "$CUZK" verify-seal --vk "$F/porep2k.vk" --registered-proof "$RP" --miner-id "$MINER" "$W/proof.bin"
vs_with --registered-proof 15
expect_rc "verify-seal: registered proof 15 (NI-PoRep) is refused" 2 'registered' \
    "$CUZK" verify-seal "${VS2[@]}" "$W/proof.bin"

# 2b. --comm-r and --comm-d as CIDs (lotus and Curio print bagboea4b... / baga6ea4seaq...): the same
# verdict; the two swapped are refused naming the kinds (exit 2)
cid() { # cid r|d HEX: the go-fil-commcid CID string of the 32-byte commitment HEX
    python3 -c 'import base64,sys; b=bytes.fromhex({"r":"0182e20381e80220","d":"0181e203922020"}[sys.argv[1]]+sys.argv[2]); print("b"+base64.b32encode(b).decode().lower().rstrip("="))' "$1" "$2"
}
VSC=(--vk "$F/porep2k.vk" --registered-proof "$RP" --miner-id "$MINER" --sector-id "$SECTOR" --comm-r "$(cid r "$COMM_R")"
     --comm-d "$(cid d "$COMM_D")" --ticket "$TICKET" --seed "$SEED")
expect_rc "verify-seal: --comm-r and --comm-d as CIDs" 0 '^OK' "$CUZK" verify-seal "${VSC[@]}" "$W/proof.bin"
vs_with --comm-r "$(cid d "$COMM_R")"
expect_rc "verify-seal: a comm_d CID as --comm-r is refused" 2 '--comm-r takes a sealed commitment.*is the CID of an unsealed' \
    "$CUZK" verify-seal "${VS2[@]}" "$W/proof.bin"
vs_with --comm-d "$(cid r "$COMM_D")"
expect_rc "verify-seal: a comm_r CID as --comm-d is refused" 2 '--comm-d takes an unsealed commitment.*is the CID of a sealed' \
    "$CUZK" verify-seal "${VS2[@]}" "$W/proof.bin"

# 3. --print-inputs against the independent oracle
"$CUZK" verify-seal "${VS[@]}" --print-inputs > "$W/inputs.json" 2>&1
python3 "$HERE/porep_public.py" "$RP" "$MINER" "$SECTOR" "$TICKET" "$SEED" "$COMM_R" "$COMM_D" > "$W/oracle.json"
if python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(0 if a == b and len(a[0]) == 39 else 1)' \
     "$W/inputs.json" "$W/oracle.json"; then pass "verify-seal --print-inputs = tests/porep/porep_public.py (39 inputs)";
else fail "--print-inputs differs from the oracle"; head -c 400 "$W/inputs.json"; echo; head -c 400 "$W/oracle.json"; echo; fi
# with a proof file: stdout is still one JSON document (the verdict goes to stderr), exit 0
"$CUZK" verify-seal "${VS[@]}" --print-inputs "$W/proof.bin" > "$W/inputs2.json" 2> "$W/verdict.txt"; rc=$?
if [ $rc = 0 ] && grep -q '^OK' "$W/verdict.txt" && cmp -s "$W/inputs.json" "$W/inputs2.json"; then
    pass "verify-seal --print-inputs proof.bin: stdout is the JSON alone, OK on stderr, exit 0"
else fail "verify-seal --print-inputs proof.bin: exit $rc, stderr '$(head -c 100 "$W/verdict.txt")'"; fi

# 4. bad C1 outputs: refused before any synthesis, with a reason (exit 3)
P=(--backend cpu --params "$F/porep2k.params" --r1cs "$F/porep2k.r1cs")
head -c 5000 "$F/c1.json" > "$W/trunc.json"
expect_rc "prove-porep: a truncated C1 is refused" 3 'C1|JSON|truncat|end' "$CUZK" prove-porep "${P[@]}" "$W/trunc.json" "$W/x.bin"
python3 - "$F/c1.json" "$W" <<'PY'
import base64, json, sys
w = json.load(open(sys.argv[1]))
inner = json.loads(base64.b64decode(w["Phase1Out"]))
def save(name, obj, wrap=True):
    if wrap:
        obj = dict(w, Phase1Out=base64.b64encode(json.dumps(obj).encode()).decode())
    json.dump(obj, open(f"{sys.argv[2]}/{name}.json", "w"))
bad = json.loads(json.dumps(inner)); bad["seed"][0] ^= 1; save("seed", bad)
bad = json.loads(json.dumps(inner)); bad["comm_r"][3] ^= 1; save("commr", bad)
bad = json.loads(json.dumps(inner)); bad["registered_proof"] = "StackedDrg8MiBV1_1"; save("regproof", bad)
save("sectorsize", dict(w, SectorSize=8388608), wrap=False)
save("sectornum", dict(w, SectorNum=w["SectorNum"] + 1), wrap=False)
save("sectornum_big", dict(w, SectorNum=2**64 - 1), wrap=False)
save("base64", dict(w, Phase1Out="!!not base64!!"), wrap=False)
PY
# a file longer than any C1 output can be: refused from its size, before it is read (sparse: no disk)
truncate -s 2G "$W/huge.json"
expect_rc "prove-porep: a 2 GB file is refused before it is read" 3 'longer than any C1 output can be.*nothing was read' \
    "$CUZK" prove-porep "${P[@]}" "$W/huge.json" "$W/x.bin"
rm -f "$W/huge.json"
expect_rc "prove-porep: a C1 with another seed (challenges differ)" 3 'challenge' "$CUZK" prove-porep "${P[@]}" "$W/seed.json" "$W/x.bin"
expect_rc "prove-porep: a C1 with a changed comm_r" 3 'comm_r' "$CUZK" prove-porep "${P[@]}" "$W/commr.json" "$W/x.bin"
expect_rc "prove-porep: a C1 of another registered proof" 3 '8MiB|registered|SectorSize|size' "$CUZK" prove-porep "${P[@]}" "$W/regproof.json" "$W/x.bin"
expect_rc "prove-porep: Curio's SectorSize disagrees" 3 'SectorSize' "$CUZK" prove-porep "${P[@]}" "$W/sectorsize.json" "$W/x.bin"
expect_rc "prove-porep: Phase1Out not base64" 3 'base64' "$CUZK" prove-porep "${P[@]}" "$W/base64.json" "$W/x.bin"
expect_rc "prove-porep: Curio's SectorNum is not the sector asked for" 3 'SectorNum' \
    "$CUZK" prove-porep "${P[@]}" --miner-id "$MINER" --sector-id "$SECTOR" "$W/sectornum.json" "$W/x.bin"
expect_rc "prove-porep: SectorNum above Filecoin's largest sector number" 3 'SectorNum' \
    "$CUZK" prove-porep "${P[@]}" "$W/sectornum_big.json" "$W/x.bin"
expect_rc "prove-porep: an unwritable --trace is refused before any work" 3 'no-such-dir' \
    "$CUZK" prove-porep "${P[@]}" --trace /no-such-dir/trace.json "$F/c1.json" "$W/x.bin"
expect_rc "prove-porep: an option given twice is a usage error" 2 'given twice' \
    "$CUZK" prove-porep "${P[@]}" --backend cpu "$F/c1.json" "$W/x.bin"
expect_rc "prove-porep: replica_id of another miner" 3 'replica_id' \
    "$CUZK" prove-porep "${P[@]}" --miner-id $((MINER + 1)) --sector-id "$SECTOR" "$F/c1.json" "$W/x.bin"
[ ! -e "$W/x.bin" ] && pass "no proof file is left by a refused C1" || fail "a refused C1 left $W/x.bin"
expect_rc "prove-porep: --miner-id without --sector-id" 2 'go together' "$CUZK" prove-porep "${P[@]}" --miner-id 5 "$F/c1.json" "$W/x.bin"

# 5. key files and the backend: the cheap checks come before the C1 output is read, a changed
# constraint of the .r1cs is named before any partition is proved; every one exit 3 naming the file
# (a C1 path that does not exist shows what was not read: its error would be exit 3 "cannot open")
expect_rc "prove-porep: a .r1cs of another circuit, refused before the C1 is read" 3 \
    "multiplier/circuit.r1cs: r1cs of 1 public inputs.*circuit porep-2k .* needs 39 public inputs.*made for another circuit" \
    "$CUZK" prove-porep --backend cpu --params "$F/porep2k.params" --r1cs "$HERE/../fixtures/bls12381/multiplier/circuit.r1cs" \
    "$W/no-such-c1.json" "$W/x.bin"
head -c 100000000 "$F/porep2k.r1cs" > "$W/trunc.r1cs"
expect_rc "prove-porep: a truncated .r1cs, refused before the C1 is read" 3 "trunc.r1cs.*(past the end|truncated)" \
    "$CUZK" prove-porep --backend cpu --params "$F/porep2k.params" --r1cs "$W/trunc.r1cs" "$W/no-such-c1.json" "$W/x.bin"
rm -f "$W/trunc.r1cs"
expect_rc "prove-porep: a .vk as --params, refused before the C1 is read" 3 "porep2k.vk.*not parameters" \
    "$CUZK" prove-porep --backend cpu --params "$F/porep2k.vk" "$W/no-such-c1.json" "$W/x.bin"
# porep-8m's parameters (a sparse file with its counts: only a header check can take it) and a 2 KiB C1
python3 - "$W/fake8m.params" <<'PY'
import struct, sys
f = open(sys.argv[1], 'wb'); off = 864   # vk: 3 G1 + 3 G2, uncompressed
for n, pt in ((40, 96), (2**22 - 1, 96), (3842449, 96), (1, 96), (1, 96), (1, 192)):   # ic h l a b_g1 b_g2
    f.seek(off); f.write(struct.pack('>I', n)); off += 4 + n * pt
f.truncate(off)
PY
expect_rc "prove-porep: porep-8m parameters and a 2 KiB C1: refused before the C1's checks" 3 \
    "c1.json: C1 output: registered proof StackedDrg2KiBV1_1 is circuit porep-2k; the key is for circuit porep-8m \(--params .*fake8m.params\)" \
    "$CUZK" prove-porep --backend cpu --params "$W/fake8m.params" "$F/c1.json" "$W/x.bin"
rm -f "$W/fake8m.params"
"$CUZK" prove-porep --backend gpu --params "$F/porep2k.params" "$W/no-such-c1.json" "$W/x.bin" > "$W/o" 2>&1; rc=$?
if [ $rc = 4 ] && grep -Eq -- '--backend gpu: (this build has no CUDA backend|no CUDA device found)' "$W/o"; then
    pass "prove-porep --backend gpu without a GPU: exit 4 before the C1 is read ($(head -c 90 "$W/o"))"
elif [ $rc = 3 ] && grep -q 'no-such-c1.json' "$W/o" && command -v nvidia-smi > /dev/null; then
    pass "prove-porep --backend gpu: a GPU is present, the backend is fine (exit 3 for the missing C1)"
else fail "prove-porep --backend gpu without a GPU: exit $rc"; cat "$W/o"; fi
# a changed coefficient of the ONE term of the first constraint that has one: the key loads, and
# partition 0's witness is checked against the .r1cs before it is proved
python3 "$HERE/tamper_r1cs.py" "$F/porep2k.r1cs" "$W/tampered.r1cs" > "$W/tamper.txt"
t0=$(date +%s)
expect_rc "prove-porep: a .r1cs with a changed constraint: named before any partition is proved" 3 \
    "tampered.r1cs: witness does not satisfy constraint [0-9]+.*not the porep-2k circuit.*changed or corrupt" \
    "$CUZK" prove-porep --backend cpu --params "$F/porep2k.params" --r1cs "$W/tampered.r1cs" "$F/c1.json" "$W/x.bin"
echo "  ($(cat "$W/tamper.txt"); refused in $(( $(date +%s) - t0 )) s, the prove takes minutes)"
rm -f "$W/tampered.r1cs"
[ ! -e "$W/x.bin" ] && pass "no proof file is left by a refused key" || fail "a refused key left $W/x.bin"

echo "porep_cli: $fails failed"
[ $fails = 0 ]
