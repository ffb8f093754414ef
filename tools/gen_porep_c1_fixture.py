#!/usr/bin/env python3
"""Writes tests/fixtures/filecoin/c1_2k_serde.json: a SealCommitPhase1Output of the 2 KiB shape
(StackedDrg2KiBV1_1) as serde_json writes it (compact, fields in declaration order), with random
values. The shape is written here from the Rust sources, independently of src/filecoin/porep_c1.c:

  rust-filecoin-proofs-api src/seal.rs       SealCommitPhase1Output {registered_proof, vanilla_proofs,
                                             comm_r, comm_d, replica_id, seed, ticket};
                                             VanillaSealProof::StackedDrg2KiBV1(Vec<Vec<Proof>>)
  storage-proofs-porep stacked/vanilla/params.rs  Proof {comm_d_proofs, comm_r_last_proof,
                                             replica_column_proofs, labeling_proofs, encoding_proof};
                                             ReplicaColumnProof {c_x, drg_parents, exp_parents}
  stacked/vanilla/column_proof.rs, column.rs ColumnProof {column, inclusion_proof};
                                             Column {index, rows, _h: PhantomData -> null}
  stacked/vanilla/labeling_proof.rs, encoding_proof.rs  {parents, layer_index, node}
  storage-proofs-core merkle/proof.rs        MerkleProof {data: ProofData::Single(SingleProof
                                             {root, leaf, path: InclusionPath {path: [PathElement
                                             {hashes, index}]}})}
  Domains ([u8; 32], Fr repr little-endian) serialize as arrays of 32 integers.

The values are random (not a consistent proof): the fixture pins the format, not the checks.

    python3 tools/gen_porep_c1_fixture.py [OUT]
"""
import json, os, random, sys

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', 'tests', 'fixtures', 'filecoin', 'c1_2k_serde.json')
rng = random.Random(20240522)

LAYERS, D_LEVELS, R_LEVELS, ARITY = 2, 6, 2, 8      # 2 KiB: 64 nodes, tree R/C 8-ary of 2 levels
PARTITIONS, CHALLENGES, PARENTS = 1, 2, 37

def dom():                       # a value < 2^254 < r
    b = [rng.randrange(256) for _ in range(32)]
    b[31] &= 0x3f
    return b

def incl_path(levels, arity):
    return {"path": [{"hashes": [dom() for _ in range(arity - 1)], "index": rng.randrange(arity)} for _ in range(levels)]}

def single(levels, arity):
    return {"data": {"Single": {"root": dom(), "leaf": dom(), "path": incl_path(levels, arity)}}}

def column_proof():
    return {"column": {"index": rng.randrange(64), "rows": [dom() for _ in range(LAYERS)], "_h": None},
            "inclusion_proof": single(R_LEVELS, ARITY)}

def label_proof(layer, node):
    return {"parents": [dom() for _ in range(PARENTS)], "layer_index": layer, "node": node}

def proof():
    node = rng.randrange(1, 64)
    return {"comm_d_proofs": single(D_LEVELS, 2),
            "comm_r_last_proof": single(R_LEVELS, ARITY),
            "replica_column_proofs": {"c_x": column_proof(),
                                      "drg_parents": [column_proof() for _ in range(6)],
                                      "exp_parents": [column_proof() for _ in range(8)]},
            "labeling_proofs": [label_proof(l, node) for l in range(1, LAYERS + 1)],
            "encoding_proof": label_proof(LAYERS, node)}

c1 = {"registered_proof": "StackedDrg2KiBV1_1",
      "vanilla_proofs": {"StackedDrg2KiBV1": [[proof() for _ in range(CHALLENGES)] for _ in range(PARTITIONS)]},
      "comm_r": dom(), "comm_d": dom(), "replica_id": dom(), "seed": dom(), "ticket": dom()}

with open(out, 'w') as f:
    f.write(json.dumps(c1, separators=(',', ':')))
