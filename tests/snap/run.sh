#!/usr/bin/env bash
# SnapDeals through the CLI at 2 KiB (ctest snap_cli; needs the snap2k fixture of
# tests/snap/fixture.sh): an update of a sector sealed by cuzk (make-update), proved by
# prove-update (CPU) and accepted by verify-update from the public data only; a changed
# commitment or proof byte gives exit 1; the commitments also as CIDs (a CID of the wrong kind is
# refused); --print-inputs equals the independent oracle
# tests/snap/snap_oracle.py, which also re-verifies the partition proofs in Python; bad
# partition proofs and arguments exit 3 and 2 with a reason.
#   tests/snap/run.sh path/to/cuzk FIXTURE_DIR
set -u
CUZK=$(readlink -f "$1")
F=$2
HERE=$(cd "$(dirname "$0")" && pwd)
[ -f "$F/env" ] || { echo "snap_cli: no fixture in $F (tests/snap/fixture.sh)"; exit 1; }
# shellcheck disable=SC1091
. "$F/env"
W=$(mktemp -d "${TMPDIR:-/tmp}/snap-cli.XXXXXX")
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
C=(--registered-proof "$RP" --comm-r-old "$COMM_R_OLD" --comm-d-new "$COMM_D_NEW" --comm-r-new "$COMM_R_NEW")
P=(--backend cpu --params "$F/snap2k.params" --r1cs "$F/snap2k.r1cs")

# 0. the partition proofs, verified independently (Python: bincode, SHA-256, plain Poseidon)
if python3 "$HERE/snap_oracle.py" check "$F/vproofs.json" "$RP" "$COMM_R_OLD" "$COMM_D_NEW" "$COMM_R_NEW" > "$W/o" 2>&1; then
    pass "snap_oracle.py accepts make-update's partition proofs ($(tail -1 "$W/o"))"
else fail "snap_oracle.py refuses make-update's partition proofs:"; tail -3 "$W/o"; fi

# 1. prove (CPU), every partition verified by prove-update itself
if "$CUZK" prove-update "${P[@]}" "${C[@]}" --json "$F/vproofs.json" "$W/proof.bin" > "$W/prove.json" 2> "$W/prove.err"; then
    sz=$(stat -c %s "$W/proof.bin")
    [ "$sz" = 192 ] && pass "prove-update: 1 partition, 192 bytes" || fail "prove-update: $sz bytes"
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["partitions"] == 1 and j["circuit"] == "snap-2k", j' \
        "$W/prove.json" && pass "prove-update --json: a summary" || fail "prove-update --json"
else
    fail "prove-update exit $?"; cat "$W/prove.err"; echo "$fails failed"; exit 1
fi

# 2. verify-update from public data only
V=(--vk "$F/snap2k.vk" "${C[@]}")
expect_rc "verify-update accepts the proof" 0 '^OK' "$CUZK" verify-update "${V[@]}" "$W/proof.bin"
flip() { printf '%02x%s' $(( 0x${1:0:2} ^ 1 )) "${1:2}"; }
for what in comm-r-old comm-d-new comm-r-new; do
    case $what in comm-r-old) v=$COMM_R_OLD ;; comm-d-new) v=$COMM_D_NEW ;; comm-r-new) v=$COMM_R_NEW ;; esac
    V2=(); for ((i = 0; i < ${#V[@]}; i++)); do V2+=("${V[i]}"); if [ "${V[i]}" = "--$what" ]; then V2+=("$(flip "$v")"); i=$((i + 1)); fi; done
    expect_rc "verify-update: a changed $what gives INVALID" 1 'INVALID' "$CUZK" verify-update "${V2[@]}" "$W/proof.bin"
done
for off in 0 100 191; do
    cp "$W/proof.bin" "$W/bad.bin"
    b=$(od -An -tu1 -j $off -N1 "$W/bad.bin" | tr -d ' ')
    printf "$(printf '\\%03o' $(( (b ^ 4) & 255 )))" | dd of="$W/bad.bin" bs=1 seek=$off conv=notrunc 2>/dev/null
    "$CUZK" verify-update "${V[@]}" "$W/bad.bin" > "$W/o" 2>&1
    rc=$?
    if [ $rc = 1 ] || [ $rc = 3 ]; then pass "verify-update: proof byte $off changed -> exit $rc ($(head -c 80 "$W/o"))";
    else fail "verify-update: proof byte $off changed -> exit $rc"; cat "$W/o"; fi
done
head -c 191 "$W/proof.bin" > "$W/short.bin"
expect_rc "verify-update: a truncated proof file is refused" 3 '192' "$CUZK" verify-update "${V[@]}" "$W/short.bin"
expect_rc "verify-update: a missing commitment is a usage error" 2 'comm-r-new' \
    "$CUZK" verify-update --vk "$F/snap2k.vk" --registered-proof "$RP" --comm-r-old "$COMM_R_OLD" --comm-d-new "$COMM_D_NEW" "$W/proof.bin"
expect_rc "verify-update: registered update proof 5 is refused" 2 'registered' \
    "$CUZK" verify-update --vk "$F/snap2k.vk" --registered-proof 5 --comm-r-old "$COMM_R_OLD" --comm-d-new "$COMM_D_NEW" \
    --comm-r-new "$COMM_R_NEW" "$W/proof.bin"
expect_rc "verify-update: a 2 KiB proof given as an 8 MiB update's (4 partitions) is refused" 3 '768' \
    "$CUZK" verify-update --vk "$F/snap2k.vk" --registered-proof 1 --comm-r-old "$COMM_R_OLD" --comm-d-new "$COMM_D_NEW" \
    --comm-r-new "$COMM_R_NEW" "$W/proof.bin"

# 3. --print-inputs against the independent oracle
"$CUZK" verify-update "${C[@]}" --print-inputs > "$W/inputs.json" 2>&1
python3 "$HERE/snap_oracle.py" inputs "$RP" "$COMM_R_OLD" "$COMM_D_NEW" "$COMM_R_NEW" > "$W/oracle.json"
if python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(0 if a == b and len(a[0]) == 4 else 1)' \
     "$W/inputs.json" "$W/oracle.json"; then pass "verify-update --print-inputs = tests/snap/snap_oracle.py (4 inputs)";
else fail "--print-inputs differs from the oracle"; head -c 400 "$W/inputs.json"; echo; head -c 400 "$W/oracle.json"; echo; fi
"$CUZK" verify-update "${V[@]}" --print-inputs "$W/proof.bin" > "$W/inputs2.json" 2> "$W/verdict.txt"; rc=$?
if [ $rc = 0 ] && grep -q '^OK' "$W/verdict.txt" && cmp -s "$W/inputs.json" "$W/inputs2.json"; then
    pass "verify-update --print-inputs proof.bin: stdout is the JSON alone, OK on stderr, exit 0"
else fail "verify-update --print-inputs proof.bin: exit $rc, stderr '$(head -c 100 "$W/verdict.txt")'"; fi

# 3b. the commitments as CIDs, the way lotus and Curio print them (multibase base32: bagboea4b...
# for comm_r, baga6ea4seaq... for comm_d; or 'B' upper case) or as the CID's bytes in hex: the
# same public inputs and the same verdict; a CID of the other kind, another codec or no CID at all
# is a usage error (exit 2) naming the option
cid() { # cid r|d HEX b32|B32|hex: the go-fil-commcid CID of the 32-byte commitment HEX
    python3 - "$@" <<'PY'
import base64, sys
kind, h, form = sys.argv[1:4]
b = bytes.fromhex({"r": "0182e20381e80220", "d": "0181e203922020"}[kind] + h)
if form == "hex": print(b.hex())
elif form == "B32": print("B" + base64.b32encode(b).decode().rstrip("="))
else: print("b" + base64.b32encode(b).decode().lower().rstrip("="))
PY
}
RO=$(cid r "$COMM_R_OLD" b32); DN=$(cid d "$COMM_D_NEW" b32); RN=$(cid r "$COMM_R_NEW" b32)
case "$RO:$DN" in bagboea4b*:baga6ea4seaq*) pass "CID strings of the commitments: ${RO:0:16}... ${DN:0:16}..." ;;
    *) fail "cid(): '$RO' '$DN' are not bagboea4b... / baga6ea4seaq..." ;; esac
CC=(--registered-proof "$RP" --comm-r-old "$RO" --comm-d-new "$DN" --comm-r-new "$RN")
expect_rc "verify-update: the commitments as CID strings" 0 '^OK' "$CUZK" verify-update --vk "$F/snap2k.vk" "${CC[@]}" "$W/proof.bin"
expect_rc "verify-update: as the CIDs' bytes in hex and base32 upper case" 0 '^OK' \
    "$CUZK" verify-update --vk "$F/snap2k.vk" --registered-proof "$RP" --comm-r-old "$(cid r "$COMM_R_OLD" hex)" \
    --comm-d-new "$(cid d "$COMM_D_NEW" B32)" --comm-r-new "0x$(cid r "$COMM_R_NEW" hex)" "$W/proof.bin"
"$CUZK" verify-update "${CC[@]}" --print-inputs > "$W/inputs_cid.json" 2>&1
cmp -s "$W/inputs.json" "$W/inputs_cid.json" && pass "verify-update --print-inputs: CIDs give the inputs hex gives" \
    || fail "--print-inputs with CIDs differs: $(head -c 200 "$W/inputs_cid.json")"
expect_rc "verify-update: a CID of another digest gives INVALID" 1 'INVALID' \
    "$CUZK" verify-update --vk "$F/snap2k.vk" --registered-proof "$RP" --comm-r-old "$RO" --comm-d-new "$DN" \
    --comm-r-new "$(cid r "$(flip "$COMM_R_NEW")" b32)" "$W/proof.bin"
expect_rc "verify-update: comm_d's CID as --comm-r-old is refused" 2 \
    '--comm-r-old takes a sealed commitment \(comm_r.*is the CID of an unsealed commitment \(comm_d' \
    "$CUZK" verify-update --vk "$F/snap2k.vk" --registered-proof "$RP" --comm-r-old "$DN" --comm-d-new "$DN" \
    --comm-r-new "$RN" "$W/proof.bin"
expect_rc "verify-update: a comm_r CID as --comm-d-new is refused" 2 \
    '--comm-d-new takes an unsealed commitment \(comm_d.*is the CID of a sealed commitment' \
    "$CUZK" verify-update --print-inputs --registered-proof "$RP" --comm-r-old "$RO" --comm-d-new "$(cid r "$COMM_D_NEW" hex)" \
    --comm-r-new "$RN"
bad_codec="$(cid r "$COMM_R_OLD" hex | sed 's/^0182e203/0183e203/')"
expect_rc "verify-update: a CID of another codec is refused" 2 "--comm-r-old: '0183e203.*' is not a commitment's CID" \
    "$CUZK" verify-update --print-inputs --registered-proof "$RP" --comm-r-old "$bad_codec" --comm-d-new "$DN" --comm-r-new "$RN"
for junk in xyz ""; do
    expect_rc "verify-update: --comm-r-old '${junk:0:24}' is a usage error" 2 '--comm-r-old needs a sealed commitment' \
        "$CUZK" verify-update --print-inputs --registered-proof "$RP" --comm-r-old "$junk" --comm-d-new "$DN" --comm-r-new "$RN"
done
# malformed base32: the message says what is wrong with it
expect_rc "verify-update: a bad base32 character is named" 2 "is not a valid CID: bad base32 character '1' at 9" \
    "$CUZK" verify-update --print-inputs --registered-proof "$RP" --comm-r-old bagboea4b1 --comm-d-new "$DN" --comm-r-new "$RN"
for junk in "${RO}a" "${RO:0:40}"; do
    expect_rc "verify-update: --comm-r-old '${junk:0:24}' (cut or extended) has the wrong length" 2 \
        'is not a valid CID: wrong length' \
        "$CUZK" verify-update --print-inputs --registered-proof "$RP" --comm-r-old "$junk" --comm-d-new "$DN" --comm-r-new "$RN"
done
# 32 raw bytes in base32, no CID prefix: refused, not taken as the commitment
bare="b$(python3 -c "import base64,sys;print(base64.b32encode(bytes.fromhex(sys.argv[1])).decode().lower().rstrip('='))" "$COMM_R_OLD")"
expect_rc "verify-update: base32 of the bare 32 bytes is no CID" 2 'is not a valid CID: it decodes to 32 bytes with no CID prefix' \
    "$CUZK" verify-update --print-inputs --registered-proof "$RP" --comm-r-old "$bare" --comm-d-new "$DN" --comm-r-new "$RN"
expect_rc "verify-update: 33 bytes in hex are not a CID" 2 "--comm-r-old: '${COMM_R_OLD}00' is not a commitment's CID: 33 bytes" \
    "$CUZK" verify-update --print-inputs --registered-proof "$RP" --comm-r-old "${COMM_R_OLD}00" --comm-d-new "$DN" --comm-r-new "$RN"
expect_rc "prove-update: comm_d's CID as --comm-r-new is refused before any work" 2 '--comm-r-new takes a sealed commitment' \
    "$CUZK" prove-update "${P[@]}" --registered-proof "$RP" --comm-r-old "$RO" --comm-d-new "$DN" --comm-r-new "$DN" \
    "$F/vproofs.json" "$W/x.bin"

# 4. bad partition proofs: refused before any synthesis, with a reason (exit 3)
python3 "$HERE/snap_oracle.py" tamper "$F/vproofs.json" "$W"
expect_rc "prove-update: a leaf_r_old changed" 3 'partition 0 challenge 3 \(node [0-9]+\): proof_r_old' \
    "$CUZK" prove-update "${P[@]}" "${C[@]}" "$W/leaf_r_old.json" "$W/x.bin"
expect_rc "prove-update: a tree D sibling changed" 3 'partition 0 challenge 7 \(node [0-9]+\): proof_d_new' \
    "$CUZK" prove-update "${P[@]}" "${C[@]}" "$W/sib_d.json" "$W/x.bin"
expect_rc "prove-update: comm_c changed" 3 'comm_r_old is not Poseidon' "$CUZK" prove-update "${P[@]}" "${C[@]}" "$W/comm_c.json" "$W/x.bin"
expect_rc "prove-update: a truncated partition proof" 3 'truncated' "$CUZK" prove-update "${P[@]}" "${C[@]}" "$W/trunc.json" "$W/x.bin"
expect_rc "prove-update: two partition proofs for a 1-partition sector" 3 '2 partition proofs' \
    "$CUZK" prove-update "${P[@]}" "${C[@]}" "$W/two.json" "$W/x.bin"
expect_rc "prove-update: not base64" 3 'base64' "$CUZK" prove-update "${P[@]}" "${C[@]}" "$W/b64.json" "$W/x.bin"
C2=(--registered-proof "$RP" --comm-r-old "$COMM_R_OLD" --comm-d-new "$COMM_D_NEW" --comm-r-new "$(flip "$COMM_R_NEW")")
expect_rc "prove-update: another comm_r_new" 3 'comm_r_new is not Poseidon' "$CUZK" prove-update "${P[@]}" "${C2[@]}" "$F/vproofs.json" "$W/x.bin"
expect_rc "prove-update: the proofs of another size" 3 'has 4 partitions' \
    "$CUZK" prove-update "${P[@]}" --registered-proof 1 --comm-r-old "$COMM_R_OLD" --comm-d-new "$COMM_D_NEW" \
    --comm-r-new "$COMM_R_NEW" "$F/vproofs.json" "$W/x.bin"
[ ! -e "$W/x.bin" ] && pass "no proof file is left by refused partition proofs" || fail "a refused update left $W/x.bin"
expect_rc "prove-update: an option given twice is a usage error" 2 'given twice' \
    "$CUZK" prove-update "${P[@]}" --backend cpu "${C[@]}" "$F/vproofs.json" "$W/x.bin"
expect_rc "prove-update: --registered-proof is required" 2 'registered-proof' \
    "$CUZK" prove-update "${P[@]}" --comm-r-old "$COMM_R_OLD" --comm-d-new "$COMM_D_NEW" --comm-r-new "$COMM_R_NEW" "$F/vproofs.json" "$W/x.bin"

# 5. the key files, checked before the expensive work (from a fresh user's pass): a 2 KiB key with
# a 32 GiB update refused from the headers before the 81M-constraint circuit is recorded; a
# changed coefficient in the .r1cs named from partition 0's witness before any proof; setup
# refuses a repeated option and names every circuit family
"$CUZK" make-update --sparse --registered-proof 3 --json "$W/sp32.json" > "$W/sp32.info" 2> "$W/o" ||
    { fail "make-update --sparse 32 GiB:"; head -3 "$W/o"; }
if [ -s "$W/sp32.info" ]; then
    S32=($(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["comm_r_old"], j["comm_d_new"], j["comm_r_new"])' "$W/sp32.info"))
    t0=$(date +%s)
    expect_rc "prove-update: a 2 KiB key with a 32 GiB update refused from the headers" 3 'needs 4 public inputs, 80978488 private' \
        "$CUZK" prove-update --backend cpu --params "$F/snap2k.params" --registered-proof 3 --comm-r-old "${S32[0]}" \
        --comm-d-new "${S32[1]}" --comm-r-new "${S32[2]}" "$W/sp32.json" "$W/x.bin"
    [ $(( $(date +%s) - t0 )) -lt 30 ] && pass "  ... within 30 s (nothing recorded)" || fail "  ... took $(( $(date +%s) - t0 )) s"
fi
if python3 "$HERE/../porep/tamper_r1cs.py" "$F/snap2k.r1cs" "$W/tampered.r1cs" > "$W/tamper.txt" 2>&1; then
    expect_rc "prove-update: a changed .r1cs coefficient named before any proof" 3 "tampered.r1cs: witness does not satisfy constraint" \
        "$CUZK" prove-update --backend cpu --params "$F/snap2k.params" --r1cs "$W/tampered.r1cs" "${C[@]}" "$F/vproofs.json" "$W/x.bin"
else fail "tamper_r1cs.py:"; cat "$W/tamper.txt"; fi
expect_rc "setup: an option given twice is a usage error" 2 '--seed is given twice' \
    "$CUZK" setup --seed 1 --seed 2 --circuit snap-2k "$W/s.params" "$W/s.vk"
expect_rc "setup: an unknown circuit names every family" 2 'porep-SIZE or snap-SIZE' \
    "$CUZK" setup --circuit snap "$W/s.params" "$W/s.vk"

echo "snap_cli: $fails failed"
[ $fails = 0 ]
