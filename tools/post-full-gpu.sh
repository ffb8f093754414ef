#!/usr/bin/env bash
# Full-scale Filecoin WindowPoSt on a GPU machine (issue 14 item 7): one 32 GiB partition, the
# golden sector padded to 2349 (125,279,217 constraints, 2^27 domain), with INSECURE test
# parameters. Records the circuit (cuzk setup --circuit), makes the parameters on the GPU, proves
# from the golden vanilla proof (checks + witness synthesis on all cores + GPU prove), verifies,
# and prints the time of each stage.
#
#   tools/post-full-gpu.sh [BUILD_DIR] [WORK_DIR] [SECTORS]
#
# Needs ~100 GB host memory and ~100 GB disk at 2349 sectors (the .r1cs is ~41 GB, the .params
# ~58 GB). SECTORS (default 2349) reduces the circuit for a smaller trial, e.g. 64.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
WORK=${2:-/tmp/cuzk-post-full}
SECTORS=${3:-2349}
CUZK=$BUILD/cuzk
mkdir -p "$WORK"
SEC_OPT=()
[ "$SECTORS" != 2349 ] && SEC_OPT=(--sectors "$SECTORS")
t() { local s e; s=$(date +%s%N); "$@"; e=$(date +%s%N); printf '  %-10s %8d ms\n' "$STAGE" $(( (e - s) / 1000000 )) >> "$WORK/times.txt"; }
: > "$WORK/times.txt"
echo "== bench post (synthesis only)"
$CUZK bench post --circuit window-post-32g "${SEC_OPT[@]}" --vproof tests/fixtures/filecoin/post.vproof --repeat 3
echo "== setup (record + INSECURE parameters)"
STAGE=setup t $CUZK setup --seed 1 --backend auto --circuit window-post-32g "${SEC_OPT[@]}" "$WORK/post.r1cs" "$WORK/post.params" "$WORK/post.vk"
echo "== prove-post"
STAGE=prove t $CUZK prove-post --backend auto --circuit window-post-32g "${SEC_OPT[@]}" --params "$WORK/post.params" --r1cs "$WORK/post.r1cs" \
    --randomness 0000000000000000000000000000000000000000000000000000000000000000 \
    --vanilla tests/fixtures/filecoin/post.vproof "$WORK/proof.bin" "$WORK/public.json"
echo "== verify"
STAGE=verify t $CUZK verify --vk "$WORK/post.vk" "$WORK/public.json" "$WORK/proof.bin"
echo "== times"
cat "$WORK/times.txt"
