#!/usr/bin/env bash
# make demo: prove and verify the bundled BLS12-381 circuit (a depth-8 Merkle path, 1568
# constraints, made by circom/snarkjs) in both file flavours, printing the stage timings.
set -euo pipefail
CUZK=${1:-build/cuzk}
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FIX="$ROOT/tests/fixtures/bls12381/merkle_mimc5"
OUT="${CUZK_DEMO_DIR:-$(mktemp -d /tmp/cuzk-demo-XXXXXX)}"
mkdir -p "$OUT"

echo "== cuzk demo: circuit $FIX"
"$CUZK" info "$FIX/circuit_final.zkey"
echo
echo "== 1. snarkjs flavour: prove (zkey + wtns -> proof.json + public.json)"
"$CUZK" prove "$FIX/circuit_final.zkey" "$FIX/witness.wtns" "$OUT/proof.json" "$OUT/public.json" --timings
echo
echo "== 2. verify with cuzk"
"$CUZK" verify "$FIX/verification_key.json" "$OUT/public.json" "$OUT/proof.json"
SNARKJS="$ROOT/tests/js/node_modules/snarkjs/build/cli.cjs"
if [ -f "$SNARKJS" ] && command -v node >/dev/null; then
    echo "== 3. verify with snarkjs (independent verifier)"
    node "$SNARKJS" groth16 verify "$FIX/verification_key.json" "$OUT/public.json" "$OUT/proof.json"
else
    echo "== 3. (snarkjs not installed: 'make test' installs it; skipping the independent check)"
fi
echo
echo "== 4. bellperson flavour: INSECURE test parameters, 192-byte proof, verify"
"$CUZK" setup --seed 1 "$FIX/circuit.r1cs" "$OUT/circuit.params" "$OUT/circuit.vk"
"$CUZK" prove --params "$OUT/circuit.params" --r1cs "$FIX/circuit.r1cs" "$FIX/witness.wtns" "$OUT/proof.bin" "$OUT/public_bellperson.json" --timings
"$CUZK" verify --vk "$OUT/circuit.vk" "$OUT/public_bellperson.json" "$OUT/proof.bin"
echo
echo "demo outputs in $OUT"
