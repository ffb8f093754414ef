#!/usr/bin/env bash
# The 2 KiB SnapDeals test fixture of ctest snap_cli (ctest FIXTURES_SETUP snap2k): INSECURE
# parameters of the snap-2k circuit (`cuzk setup --circuit snap-2k`, ~3 min on two cores:
# 1,705,039 constraints) and an update of a 2 KiB sector sealed by cuzk (make-update: Curio's
# JSON file of the partition proofs).
#   tests/snap/fixture.sh path/to/cuzk DIR
# Kept in DIR between runs; made again when cuzk is newer than DIR/stamp. Writes DIR/env (the
# update's public data) for the tests.
set -eu
CUZK=$(readlink -f "$1")
DIR=$2
mkdir -p "$DIR"
if [ -f "$DIR/stamp" ] && [ "$DIR/stamp" -nt "$CUZK" ] && [ -f "$DIR/env" ]; then
    echo "snap-2k fixture: up to date in $DIR"
    exit 0
fi
rm -f "$DIR/stamp"
t0=$(date +%s)
"$CUZK" setup -q --seed 11 --circuit snap-2k "$DIR/snap2k.r1cs" "$DIR/snap2k.params" "$DIR/snap2k.vk"
RP=0
"$CUZK" make-update --registered-proof $RP --data-seed 3 --json "$DIR/vproofs.json" > "$DIR/update.info"
get() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$DIR/update.info" "$1"; }
cat > "$DIR/env" <<EOT
RP=$RP
COMM_R_OLD=$(get comm_r_old)
COMM_D_NEW=$(get comm_d_new)
COMM_R_NEW=$(get comm_r_new)
EOT
touch "$DIR/stamp"
echo "snap-2k fixture: made in $(( $(date +%s) - t0 )) s in $DIR"
