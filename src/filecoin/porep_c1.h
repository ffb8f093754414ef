/* The C1 output of Filecoin PoRep (what C2 starts from): rust-filecoin-proofs-api's
 * SealCommitPhase1Output as serde_json writes it, Curio's wrapper around it, and the checks a
 * verifier can make of it before any synthesis.
 *
 * JSON (serde_json, compact, fields in declaration order; sources: rust-filecoin-proofs-api
 * src/seal.rs SealCommitPhase1Output / VanillaSealProof, rust-fil-proofs storage-proofs-porep
 * stacked/vanilla/{params.rs Proof and ReplicaColumnProof, column_proof.rs, column.rs,
 * labeling_proof.rs, encoding_proof.rs}, storage-proofs-core merkle/proof.rs; the Go mirror is
 * curio lib/proof/{porep_vproof_types.go, merkle.go}):
 *   {"registered_proof": "StackedDrg32GiBV1_1",
 *    "vanilla_proofs": {"StackedDrg32GiBV1": [ [Proof, ... challenges], ... partitions ]},
 *    "comm_r": D, "comm_d": D, "replica_id": D, "seed": D, "ticket": D}
 *   The variant of vanilla_proofs names the sector shape only (StackedDrg{2KiB,8MiB,512MiB,32GiB,
 *   64GiB}V1, whatever the proof's version). D: a 32-byte value as an array of 32 integers 0..255
 *   (Sha256Domain, PoseidonDomain = the Fr's little-endian canonical bytes, Commitment, Ticket).
 *   Proof = {"comm_d_proofs": MP, "comm_r_last_proof": MP,
 *            "replica_column_proofs": {"c_x": CP, "drg_parents": [CP x 6], "exp_parents": [CP x 8]},
 *            "labeling_proofs": [LP x layers], "encoding_proof": LP}
 *   MP (MerkleProof) = {"data": {"Single": {"root": D, "leaf": D, "path": IP}}}
 *                    | {"data": {"Sub": {"base_proof": IP, "sub_proof": IP, "root": D, "leaf": D}}}
 *                    | {"data": {"Top": {"base_proof": IP, "sub_proof": IP, "top_proof": IP, "root": D,
 *                                        "leaf": D}}}      (the variant is the tree's shape)
 *   IP (InclusionPath) = {"path": [{"hashes": [D x arity-1], "index": n}, ... leaf level first]}
 *   CP (ColumnProof) = {"column": {"index": node, "rows": [D x layers], "_h": null}, "inclusion_proof": MP}
 *   LP (LabelingProof, EncodingProof) = {"parents": [D x 37], "layer_index": l, "node": n}
 * Curio's wrapper (curio extern/cuzk/cuzk-core/src/prover.rs C1OutputWrapper; Go encodes []byte
 * as standard base64 with padding): {"SectorNum": n, "Phase1Out": "<base64 of the JSON above>",
 * "SectorSize": bytes}.
 *
 * The reader takes keys in any order (as serde does), ignores unknown keys, refuses duplicate and
 * missing ones, and takes every count (partitions, challenges, levels, siblings, rows, parents,
 * layers) from the registered proof: nothing it allocates depends on a count in the input.
 * Thread-safety: reentrant.
 */
#ifndef CUZK_FILECOIN_POREP_C1_H
#define CUZK_FILECOIN_POREP_C1_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/porep.h"

/* Reads a C1 output from len bytes of JSON (need not be NUL-terminated): the SealCommitPhase1Output
 * itself or Curio's wrapper (told apart by the first key). *out gets pp from registered_proof,
 * the 32-byte values as they are in the JSON and n_partitions x n_challenges proofs (owned:
 * porep_c1_free). curio_sector_num (may be NULL) gets the wrapper's SectorNum, UINT64_MAX when
 * the input was not a wrapper.
 * Errors: CUZK_ERR_ARG (NULL out or buf), CUZK_ERR_FORMAT (longer than porep_c1_max_bytes_any, or
 * than porep_c1_max_bytes of its registered proof, found as soon as that is read; not JSON, not
 * this shape, a count that is not the registered proof's, a value that is not a field element,
 * an NI-PoRep or unknown registered proof, bad base64, a SectorSize that is not the proof's; the message names the
 * partition, challenge and field: "partition 0 challenge 1: comm_d_proofs.data.Single.path.path:
 * 5 levels, 6 expected"), CUZK_ERR_NOMEM. *out is zeroed on failure. */
cuzk_status porep_c1_read(porep_c1 *out, const uint8_t *buf, size_t len, uint64_t *curio_sector_num, cuzk_error *err);

typedef struct porep_c1_check_opts {
    bool check_replica_id;  /* check replica_id = porep_replica_id(prover_id, sector_id, ticket, comm_d, porep_id) */
    uint8_t prover_id[32];
    uint64_t sector_id;
    int nthreads;           /* <= 0: all online CPUs */
} porep_c1_check_opts;

/* Checks a C1 output as a verifier can before synthesis (storage-proofs-porep stacked vanilla
 * Proof::verify, plus what the circuit will enforce):
 *   counts equal the registered proof's; comm_r, comm_d, replica_id are field elements;
 *   comm_r = Poseidon2(comm_c, comm_r_last), comm_c and comm_r_last the roots of the first
 *   challenge's c_x and comm_r_last proofs, the same in every proof;
 *   the challenges of partition k are porep_challenges(replica_id, comm_r, seed, k): each proof's
 *   comm_d, comm_r_last and c_x paths open that node; its DRG / expander column proofs open (and
 *   their columns are indexed by) porep_parents of it;
 *   every path hashes its leaf to its root (tree D: SHA-256, roots = comm_d; tree C and R-last:
 *   Poseidon); every column proof's leaf is the Poseidon hash of its rows;
 *   labeling proof l (layer_index l, node = the challenge) holds the 37 expanded parent labels
 *   taken from the parents' columns (DRG rows of layer l, expander rows of layer l - 1), and
 *   porep_label of them is the challenge's row l; the encoding proof (layer_index = layers, same
 *   parents as the last labeling proof) gives a key with replica leaf = key + data leaf (Fr);
 *   with opts->check_replica_id, replica_id = porep_replica_id(...).
 * opts may be NULL (no replica_id check, all CPUs). The proofs are checked on opts->nthreads
 * threads; the failure reported is the first in (partition, challenge) order.
 * Errors: CUZK_ERR_ARG (NULL c1), CUZK_ERR_INVALID (a check failed: "partition 3 challenge 7:
 * drg_parents[2]: ..."), CUZK_ERR_NOMEM. Thread-safety: reentrant; c1 is only read. */
cuzk_status porep_c1_check(const porep_c1 *c1, const porep_c1_check_opts *opts, cuzk_error *err);

/* Writes c1 as serde_json writes a SealCommitPhase1Output (compact, fields in declaration order,
 * the layout above), or with curio_wrapper != 0 as Curio's wrapper with SectorNum = sector_id.
 * *out: malloc'd (caller frees), *len bytes, followed by a NUL not counted in *len.
 * Errors: CUZK_ERR_ARG (NULL, counts that are not the registered proof's, parameters without a
 * registered proof id), CUZK_ERR_NOMEM. */
cuzk_status porep_c1_write(const porep_c1 *c1, int curio_wrapper, uint64_t sector_id, uint8_t **out, size_t *len,
                           cuzk_error *err);

/* The most bytes a C1 output of pp's registered proof can take: 8 x what serde_json and Curio
 * write at the widest (compact JSON with every byte value and index at its widest, plus 1 KiB;
 * curio_wrapper != 0: the base64 wrapper around it). The factor leaves room for whitespace: a
 * pretty-printer's indentation (`jq .`, 2 spaces) makes a C1 about 7 x longer; `jq -c` removes it.
 * 0 for parameters without a registered proof. porep_c1_max_bytes_any: the largest over every
 * registered proof (64 GiB, wrapped). The reader refuses longer inputs (porep_c1_read): a 32 GiB
 * C1 output is ~40 MB as written, at most ~350 MB whitespace included. Reentrant. */
#define POREP_C1_WHITESPACE_FACTOR 8
size_t porep_c1_max_bytes(const porep_params *pp, int curio_wrapper);
size_t porep_c1_max_bytes_any(void);

#endif
