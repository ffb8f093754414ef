/* Filecoin SnapDeals (EmptySectorUpdate, storage-proofs-update): parameters, challenges, the
 * encoding's randomness, and the vanilla partition proofs, read, written and checked.
 * Sources: rust-fil-proofs 87348a74 storage-proofs-update/src/{constants.rs, challenges.rs,
 * vanilla.rs, circuit.rs, gadgets.rs}, filecoin-proofs api/update.rs and
 * types/sector_update_config.rs, rust-filecoin-proofs-api update.rs (partition proofs are
 * bincode), storage-proofs-core merkle/proof.rs (MerkleProof's serde layout); the project's notes
 * POREP.md section 7 (../shared/filecoin/).
 *
 * The modules:
 *   snap.c           parameters, challenges, phi / rho, the partition proofs' bincode (what
 *                    filecoin-ffi returns and Curio sends) and Curio's file of them, the checks
 *   snap_circuit.c   the EmptySectorUpdateCircuit of one partition (snap_circuit.h)
 *   snap_seal.c      test data: an update of a sector sealed by porep_seal.c, and its vanilla
 *                    proofs (snap_seal.h)
 *
 * Facts (constants.rs): sector sizes in nodes of 32 bytes; partitions 1 (<= 8 KiB), 2 (<= 32 KiB),
 * 4 (<= 16 MiB), 16; challenges per partition 10 (<= 16 MiB), 86; apex leaves per partition 8
 * (<= 8 KiB), 128; hs = [1; 6] (<= 32 KiB), [7, 8, 9, 10, 11, 12]; h = hs[3] (h_default), its
 * h_select = 1 << (its first position in hs); tree R
 * shapes (base, sub, top): 1 KiB (8,4,0), 2 KiB (8,0,0), 4 KiB (8,2,0), 8 KiB (8,4,0), 16 KiB
 * (8,8,0), 32 KiB (8,8,2), 8 MiB (8,0,0), 16 MiB (8,2,0), 512 MiB (8,0,0), 32 GiB (8,8,0), 64 GiB
 * (8,8,2). Tree D: binary SHA-256 over the new data (porep_sha256_node).
 *
 * Challenges (challenges.rs): partition k, challenge i: random bits per challenge b =
 * log2(nodes) - log2(partitions), challenges per digest q = 254 / b, digests per partition
 * m = ceil(challenges / q); digest j of partition k = Poseidon_2^tag(comm_r_new, k * m + j) with the
 * custom domain tag 2^40 (HashType::Custom(CType::Arbitrary(1))); challenge i takes the digest's
 * canonical bits [b (i mod q), b (i mod q) + b) little-endian, with k in the bits above.
 * phi = Poseidon_2^tag(comm_d_new, comm_r_old); rho(c) = Poseidon_2^tag(phi, c >> (log2(nodes) - h));
 * the new replica node c = old replica node c + new data node c * rho(c) (Fr).
 *
 * Values: Fr in Montgomery form (fr); 32-byte commitments little-endian canonical.
 * Thread-safety: every function is reentrant; const structures may be shared between threads.
 */
#ifndef CUZK_FILECOIN_SNAP_H
#define CUZK_FILECOIN_SNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gadgets/merkle.h"

#define SNAP_MAX_PARTITIONS 16
#define SNAP_MAX_CHALLENGES 86   /* per partition */
#define SNAP_MAX_APEX 128        /* apex leaves per partition */
#define SNAP_HS 6                /* the h values the circuit selects from */
#define SNAP_MAX_DIGESTS 16      /* digests per partition (10 at 32 and 64 GiB) */

typedef struct snap_params {
    uint64_t registered_proof;   /* RegisteredUpdateProof 0..4 (2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB
                                  * StackedDrg*V1), UINT64_MAX for the test-only sizes */
    uint64_t sector_size;        /* bytes */
    uint64_t nodes;              /* sector_size / 32 */
    int challenge_bit_len;       /* log2(nodes): also the levels of tree D */
    int partitions, partition_bit_len;
    int challenges;              /* per partition */
    int apex_leaves, apex_bit_len;
    int hs[SNAP_HS];
    int h_index;                 /* the h used: hs[h_index]; by default the first position of
                                  * h_default = hs[3] in hs: 3 from 8 MiB up, 0 below */
    int h;                       /* hs[h_index] */
    merkle_shape shape;          /* tree R (old and new replica), Poseidon */
    /* derived */
    int bits_per_challenge;      /* challenge_bit_len - partition_bit_len */
    int challenges_per_digest;   /* 254 / bits_per_challenge */
    int digests;                 /* per partition */
} snap_params;

/* Parameters of a sector size in bytes: 1, 2, 4, 8, 16, 32 KiB, 8, 16, 512 MiB, 32, 64 GiB (the
 * ALLOWED_SECTOR_SIZES of constants.rs; registered_proof set for the five published ones).
 * h = hs[3]. Errors: CUZK_ERR_ARG (another size). */
cuzk_status snap_params_init(snap_params *out, uint64_t sector_size, cuzk_error *err);
/* Parameters of a RegisteredUpdateProof id 0..4. Errors: CUZK_ERR_ARG. */
cuzk_status snap_params_from_proof(snap_params *out, uint64_t registered_proof, cuzk_error *err);
/* "snap-2k", "snap-8m", "snap-512m", "snap-32g", "snap-64g" (and the test sizes snap-1k, -4k,
 * -8k, -16k, -32k, -16m). Errors: CUZK_ERR_ARG. */
cuzk_status snap_params_from_name(snap_params *out, const char *name, cuzk_error *err);
/* Uses h = hs[h_index] and the circuit's h_select bit h_index instead of the default (tests:
 * Filecoin's proofs always use the default). Errors: CUZK_ERR_ARG (h_index not in 0..5). */
cuzk_status snap_params_set_h_index(snap_params *sp, int h_index, cuzk_error *err);

/* The circuit's first public input: k | (1 << h_index) << partition_bit_len (32 GiB: k | 8 << 4;
 * 2 KiB: 1). */
uint64_t snap_k_and_h_select(const snap_params *sp, uint32_t k);

/* The challenges of partition k (sp->challenges nodes, each in [k nodes / partitions, (k + 1)
 * nodes / partitions)) for comm_r_new (32-byte LE). Errors: CUZK_ERR_ARG (k >= partitions,
 * comm_r_new not a canonical Fr). */
cuzk_status snap_challenges(uint32_t *out, const snap_params *sp, const uint8_t comm_r_new[32], uint32_t k,
                            cuzk_error *err);

/* The tag 2^40 (Montgomery) of the randomness hashes. */
void snap_tag(fr *out);
/* phi = Poseidon_2^tag(comm_d_new, comm_r_old). */
void snap_phi(fr *out, const fr *comm_d_new, const fr *comm_r_old);
/* rho = Poseidon_2^tag(phi, high). */
void snap_rho(fr *out, const fr *phi, uint32_t high);
/* The high bits of node c that pick its rho: c >> (challenge_bit_len - h). */
static inline uint32_t snap_high(const snap_params *sp, uint64_t c) { return (uint32_t)(c >> (sp->challenge_bit_len - sp->h)); }

/* ---- the vanilla partition proofs (vanilla.rs PartitionProof, ChallengeProof) ---------------- */

/* One challenge's three openings: tree R old (sp->shape), tree D new (binary SHA-256,
 * challenge_bit_len levels, sibling in siblings[l][0]), tree R new. Each: the leaf, the path, the
 * root the proof states. Tree D values are SHA-256 domain values (canonical Fr, as rust-fil-proofs
 * converts them into the circuit). */
typedef struct snap_challenge_proof {
    fr leaf_r_old, root_r_old;
    merkle_path path_r_old;
    fr leaf_d_new, root_d_new;
    merkle_path path_d_new;
    fr leaf_r_new, root_r_new;
    merkle_path path_r_new;
} snap_challenge_proof;

/* A PartitionProof: comm_c, the partition's apex leaves (a row of tree D), and one challenge proof
 * per challenge (owned). */
typedef struct snap_partition_proof {
    fr comm_c;
    fr apex_leafs[SNAP_MAX_APEX];          /* sp->apex_leaves of them */
    uint32_t n_challenges;
    snap_challenge_proof *proofs;          /* n_challenges */
} snap_partition_proof;

void snap_partition_proof_free(snap_partition_proof *p);

/* Reads one partition proof in the bincode 1.x form rust-filecoin-proofs-api writes
 * (PartitionProofBytes = bincode::serialize(&PartitionProof)): 32 B comm_c | u64 count + 32 B per
 * apex leaf | u64 count + per challenge: proof_r_old, proof_d_new, proof_r_new, each a MerkleProof
 * = u32 variant (0 Single, 1 Sub, 2 Top) then Single {root, leaf, path} | Sub {base path, sub
 * path, root, leaf} | Top {base, sub, top paths, root, leaf}; a path = u64 levels, per level u64
 * sibling count, the siblings, u64 index; values 32 B little-endian canonical Fr. Every count must
 * be sp's (nothing is allocated from a count in the input: one array of sp->challenges proofs).
 * Errors: CUZK_ERR_FORMAT (truncated, a count, variant, index or value that is not sp's or not a
 * field element, trailing bytes; the message names the challenge, the field and the byte),
 * CUZK_ERR_NOMEM. *out is owned by the caller (snap_partition_proof_free); zeroed on error. */
cuzk_status snap_partition_proof_read(snap_partition_proof *out, const snap_params *sp, const uint8_t *data, size_t n,
                                      cuzk_error *err);
/* Writes p in that form: *out malloc'd (caller frees), *len bytes. Errors: CUZK_ERR_ARG (counts
 * that are not sp's), CUZK_ERR_NOMEM. */
cuzk_status snap_partition_proof_write(const snap_partition_proof *p, const snap_params *sp, uint8_t **out, size_t *len,
                                       cuzk_error *err);

/* Curio's file of the partition proofs (the update cache's snap-vproof.json, which Curio reads and
 * whose elements it sends as vanilla_proofs): a JSON array of strings, each the standard base64
 * (padded) of one partition's bincode, in partition order. snap_vproofs_json_split gives the
 * decoded byte strings: *parts (n = *n_parts, at most max_parts, else CUZK_ERR_FORMAT) malloc'd,
 * each parts[i].data malloc'd (snap_blobs_free). Errors: CUZK_ERR_FORMAT (not that JSON, bad
 * base64, more than max_parts strings), CUZK_ERR_NOMEM. */
typedef struct snap_blob { uint8_t *data; size_t len; } snap_blob;
cuzk_status snap_vproofs_json_split(snap_blob **parts, size_t *n_parts, size_t max_parts, const uint8_t *json, size_t n,
                                    cuzk_error *err);
void snap_blobs_free(snap_blob *parts, size_t n);
/* Joins n byte strings as that JSON (no spaces): *out malloc'd, NUL-terminated, *len without it. */
cuzk_status snap_vproofs_json_join(uint8_t **out, size_t *len, const snap_blob *parts, size_t n, cuzk_error *err);

/* The public data of an update: the three commitments (32-byte LE canonical Fr). */
typedef struct snap_public {
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32];
} snap_public;

/* Checks partition k's proof as a verifier would (vanilla.rs EmptySectorUpdate::verify) and as
 * the circuit will enforce, before any synthesis:
 *   counts are sp's; the commitments are canonical Fr;
 *   root_r_old, root_r_new: the roots every challenge's proof_r_old / proof_r_new states, all
 *   equal to challenge 0's; comm_r_old = Poseidon_2(comm_c, root_r_old), comm_r_new =
 *   Poseidon_2(comm_c, root_r_new); every proof_d_new's root is comm_d_new;
 *   challenge i is snap_challenges(comm_r_new, k)[i]: the three paths open that node;
 *   every path hashes its leaf to its root (Poseidon over sp->shape; tree D SHA-256);
 *   leaf_r_new = leaf_r_old + leaf_d_new * rho(phi, snap_high(c));
 *   the apex leaves hash to the apex root, tree D's node at the apex-leaf row on each path is the
 *   apex leaf the challenge's bits select, and the node at the apex root's row is that root;
 *   every challenge's top partition_bit_len levels of proof_d_new equal challenge 0's (the
 *   circuit's partition path).
 * Errors: CUZK_ERR_ARG (NULL, k out of range, a commitment not canonical), CUZK_ERR_INVALID with
 * the first failure ("partition 3 challenge 7: proof_d_new: ..."). One thread. */
cuzk_status snap_partition_check(const snap_params *sp, const snap_partition_proof *p, uint32_t k, const snap_public *pub,
                                 cuzk_error *err);

#endif
