/* Test data for SnapDeals: the update of a small sector sealed in memory (porep_seal.h) with new
 * data, and the vanilla partition proofs of that update. Not a production updater: no files, no
 * cache layout, the whole sector in memory.
 *
 * The update (storage-proofs-update vanilla.rs EmptySectorUpdate::encode_into, POREP.md section 7):
 *   tree D new   binary SHA-256 tree over the new data (porep_sha256_node); root comm_d_new
 *   comm_r_old   the sealed sector's comm_r = Poseidon_2(comm_c, comm_r_last_old)
 *   phi          Poseidon_2^tag(comm_d_new, comm_r_old) (snap_phi)
 *   new replica  node v = old replica node v + new data node v * rho(phi, v >> (log2 nodes - h))
 *   tree R new   Poseidon over the sector's tree shape (the old tree R-last's); root comm_r_last_new
 *   comm_r_new   Poseidon_2(comm_c, comm_r_last_new)
 * The partition proofs (vanilla.rs prove_inner): partition k's apex leaves are the nodes
 * [k apex_leaves, (k + 1) apex_leaves) of tree D's row of partitions x apex_leaves nodes; per
 * challenge c of snap_challenges(comm_r_new, k): the openings of c in tree R old, tree D new and
 * tree R new.
 *
 * Values: Fr in Montgomery form; 32-byte values little-endian canonical.
 * Thread-safety: reentrant; a snap_update may be read by several threads at once.
 */
#ifndef CUZK_FILECOIN_SNAP_SEAL_H
#define CUZK_FILECOIN_SNAP_SEAL_H

#include "filecoin/porep_seal.h"
#include "filecoin/snap.h"

/* An updated sector in memory; arrays owned (snap_update_free). */
typedef struct snap_update {
    snap_params sp;
    snap_public pub;                /* comm_r_old (the sealed sector's comm_r), comm_d_new, comm_r_new */
    uint8_t comm_c[32], comm_r_last_old[32], comm_r_last_new[32];
    uint64_t nodes;
    uint8_t (*data)[32];            /* nodes new data nodes */
    uint8_t (*tree_d)[32];          /* 2 nodes - 1: the data first, then each level up; the root last */
    fr *tree_r_old, *tree_r_new;    /* all levels, leaves (replica nodes) first, root last */
    int tree_levels;
    uint64_t tree_offset[MERKLE_MAX_LEVELS + 1];  /* start of level l (0 = leaves) in the trees R */
} snap_update;

/* Updates the sealed sector old with data_new (sp->sector_size bytes, each 32-byte node with the
 * top two bits of its byte 31 clear) under sp (its h is used; sp's size and tree shape must be
 * old's). nthreads <= 0: all CPUs. Memory: about 6 x sector_size. Errors: CUZK_ERR_ARG (NULL, an
 * unsealed sector, another size or shape, a data node that is not fr32-padded), CUZK_ERR_NOMEM;
 * *out zeroed then. */
cuzk_status snap_update_encode(snap_update *out, const snap_params *sp, const porep_sector *old, const uint8_t *data_new,
                               int nthreads, cuzk_error *err);
void snap_update_free(snap_update *u);

/* Partition k's vanilla proof of u (owned by the caller: snap_partition_proof_free). Errors:
 * CUZK_ERR_ARG (k), CUZK_ERR_NOMEM; *out zeroed then. */
cuzk_status snap_update_partition_proof(snap_partition_proof *out, const snap_update *u, uint32_t k, cuzk_error *err);

/* ---- a consistent SPARSE update of any size (32 GiB included), without a sector ------------
 * No sector is sealed or encoded: every node of the three trees is a deterministic function, and
 * only the nodes a proof needs are computed (lazily, remembered). Leaves, for node v in block
 * b = v >> block_log and at offset o = v mod P within its period (P = 2^min(6, block_log)):
 *   tree D new   d(b, o) = SHA-256(salt || "cuzk sparse snap" || 'd' || b || o), byte 31 &= 0x3f
 *   tree R old   r(b, o) likewise with 'o' (a field element: the top two bits are clear)
 *   tree R new   r(b, o) + d(b, o) * rho(phi, v >> (log2 nodes - h))   (the update's encoding)
 * with block_log = log2 nodes - max(h, partition_bit_len + apex_bit_len) (clamped to >= 0): a
 * block never spans two rho values or two apex leaves, so the apex leaves and the rhos all differ.
 * A node whose leaves lie in one block and cover whole periods has one value per (level, block); a
 * smaller one, one per (level, block, offset); a larger one is its own. comm_c is a salted value;
 * comm_r_old = Poseidon_2(comm_c, root of tree R old), comm_d_new the root of tree D new,
 * comm_r_new = Poseidon_2(comm_c, root of tree R new): every check of snap_partition_check passes
 * and every partition's witness satisfies the circuit. Cost at 32 GiB: ~60 thousand Poseidon and
 * SHA-256 hashes for the commitments, a few thousand more per partition proof. */
typedef struct snap_sparse snap_sparse;

/* Makes the sparse update of sp's size (and h) for salt. *out owned (snap_sparse_free). Errors:
 * CUZK_ERR_ARG (NULL), CUZK_ERR_NOMEM. Thread-safety: a snap_sparse is used by one thread at a
 * time (its node cache grows). */
cuzk_status snap_sparse_make(snap_sparse **out, const snap_params *sp, const uint8_t salt[32], cuzk_error *err);
void snap_sparse_free(snap_sparse *s);
/* The public data (commitments) of the sparse update. */
const snap_public *snap_sparse_public(const snap_sparse *s);
/* Partition k's vanilla proof (as snap_update_partition_proof). Errors: CUZK_ERR_ARG (k),
 * CUZK_ERR_NOMEM; *out zeroed then. */
cuzk_status snap_sparse_partition_proof(snap_partition_proof *out, snap_sparse *s, uint32_t k, cuzk_error *err);
/* Node pos of level (0 = leaves) of tree 0 (D new: the 32 bytes), 1 (R old) or 2 (R new) (the
 * Fr's 32 bytes LE): what the sparse trees hold, for tests against fully built trees. Returns
 * false (out zeroed) for a position out of range or when out of memory. */
bool snap_sparse_node(snap_sparse *s, int tree, int level, uint64_t pos, uint8_t out[32]);

#endif
