#!/usr/bin/env bash
# The 2 KiB PoRep test fixture shared by ctest entries porep_cli and daemon (ctest FIXTURES_SETUP
# porep2k): INSECURE parameters of the porep-2k circuit (`cuzk setup --circuit porep-2k`, ~2-4 min
# on two cores: 2,687,921 constraints) and a sealed 2 KiB sector's C1 output in Curio's wrapper.
#   tests/porep/fixture.sh path/to/cuzk DIR
# Kept in DIR between runs; made again when cuzk is newer than DIR/stamp. Writes DIR/env (shell
# variables: the public data of the sector) for the tests.
set -eu
CUZK=$(readlink -f "$1")
DIR=$2
mkdir -p "$DIR"
if [ -f "$DIR/stamp" ] && [ "$DIR/stamp" -nt "$CUZK" ] && [ -f "$DIR/env" ]; then
    echo "porep-2k fixture: up to date in $DIR"
    exit 0
fi
rm -f "$DIR/stamp"
t0=$(date +%s)
"$CUZK" setup -q --seed 7 --circuit porep-2k "$DIR/porep2k.r1cs" "$DIR/porep2k.params" "$DIR/porep2k.vk"
MINER=1000 SECTOR=7 RP=5
TICKET=5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a1a
SEED=0101010101010101010101010101010101010101010101010101010101010101
"$CUZK" make-c1 --registered-proof $RP --miner-id $MINER --sector-id $SECTOR --ticket $TICKET --seed $SEED \
    --curio --json "$DIR/c1.json" > "$DIR/c1.info"
COMM_R=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["comm_r"])' "$DIR/c1.info")
COMM_D=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["comm_d"])' "$DIR/c1.info")
cat > "$DIR/env" <<EOT
MINER=$MINER
SECTOR=$SECTOR
RP=$RP
TICKET=$TICKET
SEED=$SEED
COMM_R=$COMM_R
COMM_D=$COMM_D
EOT
touch "$DIR/stamp"
echo "porep-2k fixture: made in $(( $(date +%s) - t0 )) s in $DIR"
