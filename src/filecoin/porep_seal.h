/* Test data for PoRep C2: sealing small sectors in memory, the C1 vanilla proofs of a sealed
 * sector, and a consistent SPARSE C1 of any size (32 GiB included) made without sealing.
 * Not a production sealer: no disk layers, no cache files, no pre-commit phases split out.
 *
 * Sealing (POREP.md sections 1-3, rust-fil-proofs storage-proofs-porep stacked/vanilla
 * proof.rs, filecoin-proofs seal.rs):
 *   tree D      binary SHA-256 tree over the data nodes (porep_sha256_node); root comm_d
 *   replica_id  porep_replica_id(prover_id, sector_id, ticket, comm_d, porep_id)
 *   labels      porep_labels_all (layers x nodes)
 *   tree C      leaves: Poseidon(arity = layers) over each node's column of labels (as Fr, LE);
 *               upper levels Poseidon over pp->shape (base 8, sub 8 at 32 GiB, top 2 at 64 GiB)
 *   tree R-last leaves: the replica, last layer's label + data node (Fr addition); same shape
 *   comm_r      Poseidon2(comm_c, comm_r_last)
 * The C1 vanilla proof of a challenge (stacked::Proof; proof.rs prove_layers): the data leaf's
 * tree D path; the replica leaf's tree R-last path; the columns of the challenge, its 6 DRG and
 * 8 expander parents with their tree C paths; per layer l the labeling proof (the 37 expanded
 * parent labels: DRG parents in layer l, expander parents in layer l - 1); the encoding proof
 * (the last layer's labeling proof).
 *
 * Sparse C1 (porep_c1_sparse): no sector is sealed. Order of the derivation, each step a pure
 * function of (pp, prover_id, sector_id, ticket, seed, salt):
 *   1. data: node v holds D(v mod 2^k), k = min(d_levels, 12), D pseudo-random from salt; the
 *      data repeat with a period of 2^k nodes so tree D is computed EXACTLY (the 2^k-leaf
 *      pattern tree, then one hash per level above it): comm_d is the true root of that data.
 *      (A tree D with pseudo-random siblings cannot work: the challenges depend on comm_d.)
 *   2. replica_id from comm_d; 3. the challenges of every partition (interactive, 1.0 / 1.1);
 *   4. labels: of node 0 and of every challenged node, computed layer by layer from its parents'
 *      labels (in increasing node order, so a challenged DRG parent is computed first); every
 *      other node's label is pseudo-random from (salt, layer, node);
 *   5. columns of the challenged nodes and their parents, hashed; 6. tree C and tree R-last are
 *      sparse: the opened leaves are real, every other node off their paths is a pseudo-random
 *      (salted) Fr, internal nodes on the paths are hashed from their children; all paths belong
 *      to ONE tree (one map of known nodes per level); 7. comm_r = Poseidon2(comm_c, comm_r_last).
 *   Synthetic PoRep (ids 10..14) is refused: its challenges depend on comm_r, which depends on
 *   which leaves the sparse trees open.
 *
 * Values: Fr in Montgomery form (fr); 32-byte values (comm_*, replica_id, labels, data nodes)
 * little-endian canonical, top two bits zero for the SHA-256 ones.
 * Thread-safety: reentrant; a porep_sector may be read by several threads at once.
 */
#ifndef CUZK_FILECOIN_POREP_SEAL_H
#define CUZK_FILECOIN_POREP_SEAL_H

#include "filecoin/porep.h"

/* A sector sealed in memory. All arrays are owned (porep_sector_free). */
typedef struct porep_sector {
    porep_params pp;
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32];
    uint8_t replica_id[32];
    uint8_t comm_d[32], comm_c[32], comm_r_last[32], comm_r[32]; /* LE canonical */
    uint64_t nodes;                 /* pp.nodes */
    uint8_t (*data)[32];            /* nodes data nodes (the unsealed sector) */
    uint8_t (*labels)[32];          /* layers * nodes: labels[(l - 1) * nodes + v], layer l = 1..layers */
    uint8_t (*tree_d)[32];          /* 2 * nodes - 1: level 0 (the data) first, then each level up; root last */
    fr *tree_c;                     /* tree C, all levels: leaves (column hashes) first, root last */
    fr *tree_r;                     /* tree R-last, all levels: leaves (replica nodes) first, root last */
    int tree_levels;                /* merkle_levels(&pp.shape): levels of tree C and R-last above the leaves */
    uint64_t tree_offset[MERKLE_MAX_LEVELS + 1]; /* start of level l in tree_c / tree_r (level 0 = leaves) */
} porep_sector;

/* Seals data in memory: tree D, replica_id, labels, tree C, tree R-last and the commitments.
 * data: pp->sector_size bytes, pp->nodes nodes of 32 bytes, each a field element with the top
 * two bits of its byte 31 zero (as fr32-padded sector data). Memory: about (layers + 6) x
 * sector_size (8 MiB sectors: ~64 MiB; 512 MiB: ~4 GiB). Time: Poseidon dominates (tree C
 * columns and both oct trees), ~25 s of one core at 8 MiB. nthreads <= 0: all CPUs.
 * Errors: CUZK_ERR_ARG (NULL, a data node with a top bit set, more than 2^24 nodes (512 MiB):
 * larger sizes use porep_c1_sparse), CUZK_ERR_NOMEM; *out is zeroed then. Free with
 * porep_sector_free. */
cuzk_status porep_seal(porep_sector *out, const porep_params *pp, const uint8_t *data, const uint8_t prover_id[32],
                       uint64_t sector_id, const uint8_t ticket[32], int nthreads, cuzk_error *err);
/* Frees a sector's arrays and zeroes it; NULL or a zeroed sector is fine. */
void porep_sector_free(porep_sector *s);

/* The C1 output of a sealed sector for seed: every partition's challenges (porep_challenges,
 * synthetic ones included: comm_r is known) and their vanilla proofs; fills pp, comm_r, comm_d,
 * replica_id, seed, ticket, n_partitions = pp.partitions, n_challenges = pp.challenges.
 * out->proofs (n_partitions * n_challenges, ~330 KB each) is malloc'd: free(out->proofs) or
 * porep_c1_free. Errors: CUZK_ERR_ARG (NULL, an unsealed sector), CUZK_ERR_NOMEM, those of
 * porep_challenges; *out is zeroed then. */
cuzk_status porep_c1_from_sector(porep_c1 *out, const porep_sector *s, const uint8_t seed[32], int nthreads,
                                 cuzk_error *err);

/* A consistent sparse C1 output (see the file comment) of any size, 32 GiB included, made in
 * seconds: a deterministic function of its inputs; salt picks the pseudo-random data, labels and
 * tree nodes. The result passes every check a verifier makes on a C1 (paths hash to comm_d,
 * comm_c, comm_r_last; labels follow from the parents; the encoding; comm_r = Poseidon2(comm_c,
 * comm_r_last); the challenges are those of its replica_id and seed). Output as porep_c1_from_sector.
 * Errors: CUZK_ERR_ARG (NULL), CUZK_ERR_UNSUPPORTED (synthetic PoRep), CUZK_ERR_NOMEM, those of
 * porep_challenges; *out is zeroed then. */
cuzk_status porep_c1_sparse(porep_c1 *out, const porep_params *pp, const uint8_t prover_id[32], uint64_t sector_id,
                            const uint8_t ticket[32], const uint8_t seed[32], const uint8_t salt[32], int nthreads,
                            cuzk_error *err);

#endif
