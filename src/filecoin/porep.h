/* Filecoin PoRep (SDR, "StackedDrg"): the graph, labels, challenges, sealing of small test
 * sectors, the C1 output (SealCommitPhase1Output) and the StackedCircuit of C2.
 * Sources: rust-fil-proofs 87348a74 (storage-proofs-porep stacked/{vanilla,circuit},
 * storage-proofs-core drgraph.rs, crypto/feistel.rs), rust-filecoin-proofs-api registry.rs;
 * the project's notes POREP.md and CIRCUITS.md section 5 (../shared/filecoin/).
 *
 * This header holds the types every PoRep module shares and the graph's functions; each other
 * module declares its functions in its own header (porep_seal.h, porep_c1.h, porep_circuit.h):
 *   porep_graph.c    parameters per registered proof, DRG and expander parents, replica_id,
 *                    labels, challenges (interactive and synthetic)
 *   porep_seal.c     sealing a small sector in memory (test data) and C1 vanilla proofs from it;
 *                    a consistent sparse C1 for any size (full-scale tests without sealing)
 *   porep_c1.c       the C1 output's JSON (rust-fil-proofs serde) and Curio's wrapper, read and
 *                    written; the verifier-side checks of a C1 before any synthesis
 *   porep_circuit.c  the StackedCircuit of one partition (record, density, witness modes),
 *                    its sizes, and the public inputs from public data alone
 *
 * Values: every field element is BLS12-381 Fr in Montgomery form (fr). SHA-256 domain values
 * (tree D, comm_d) are 32 bytes whose top two bits are zero, kept as the Fr of those bytes read
 * little-endian (the circuit allocates them so); comm_d, comm_r, replica_id in the public data are
 * 32-byte little-endian canonical values.
 * Thread-safety: every function is reentrant; the const structures may be shared by threads.
 */
#ifndef CUZK_FILECOIN_POREP_H
#define CUZK_FILECOIN_POREP_H

#include <stdbool.h>
#include <stdint.h>

#include "gadgets/merkle.h"

#define POREP_MAX_LAYERS 11
#define POREP_DRG_DEGREE 6     /* BASE_DEGREE */
#define POREP_EXP_DEGREE 8     /* EXP_DEGREE */
#define POREP_PARENTS 14       /* DRG then expander */
#define POREP_LABEL_PARENTS 37 /* parents hashed into one label (TOTAL_PARENTS) */
#define POREP_MAX_CHALLENGES 18 /* per partition */
#define POREP_MAX_PARTITIONS 10

/* ---- parameters (porep_graph.c) ---------------------------------------------------------- */

typedef struct porep_params {
    uint64_t registered_proof; /* RegisteredSealProof id 0..14, or UINT64_MAX when made from a porep_id */
    uint64_t sector_size;      /* bytes: 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB */
    uint64_t nodes;            /* sector_size / 32 */
    int layers;                /* 2 below 32 GiB, 11 at 32 and 64 GiB */
    int partitions;            /* 1 below 32 GiB, 10 at 32 and 64 GiB */
    int challenges;            /* per partition: 2 below 32 GiB, 18 at 32 and 64 GiB */
    merkle_shape shape;        /* tree C and tree R-last (Poseidon): base 8, sub 8 at 32 GiB, + top 2 at 64 */
    int d_levels;              /* levels of tree D (binary SHA-256): log2(nodes) */
    int api_version;           /* 10, 11, 12 (ApiVersion 1.0, 1.1, 1.2) */
    bool synthetic;            /* Synthetic PoRep challenges (ids 10..14) */
    uint8_t porep_id[32];
    /* derived from porep_id */
    uint8_t drg_seed[28];      /* SHA-256("Filecoin_DRSample" || porep_id)[0..28] */
    uint64_t feistel_keys[3];  /* first 3 u64 LE of SHA-256("Filecoin_Feistel" || porep_id) */
} porep_params;

/* Parameters of a RegisteredSealProof id (0..4 V1, 5..9 V1_1, 10..14 V1_1 + Synthetic; 2 KiB,
 * 8 MiB, 512 MiB, 32 GiB, 64 GiB in each group), api_version 10 / 11 / 12 and porep_id as
 * rust-filecoin-proofs-api does. Errors: CUZK_ERR_ARG (other ids: NI-PoRep 15..19 is named). */
cuzk_status porep_params_from_proof(porep_params *out, uint64_t registered_proof, cuzk_error *err);
/* Parameters from a sector size, a porep_id and an api version (10, 11, 12), synthetic or not.
 * Errors: CUZK_ERR_ARG (size, version, synthetic below 1.2). */
cuzk_status porep_params_init(porep_params *out, uint64_t sector_size, const uint8_t porep_id[32], int api_version,
                              bool synthetic, cuzk_error *err);
/* "StackedDrg32GiBV1_1" and the like (the serde name of RegisteredSealProof); NULL for others. */
const char *porep_proof_name(uint64_t registered_proof);
/* The id of a serde name, or UINT64_MAX. */
uint64_t porep_proof_from_name(const char *name);

/* The 14 parents of node (6 DRG, with the predecessor in slot 5 under 1.0 and slot 0 later, then
 * 8 expander), node < nodes. Under 1.0 the expander's permuted index is truncated to u32 before
 * the division by 8 (graph.rs:377), which matters at 32 and 64 GiB only. Cost: ~50 BLAKE2b
 * compressions (the Feistel) per node; batches and internals in porep_graph.h. */
void porep_parents(const porep_params *pp, uint64_t node, uint32_t out[POREP_PARENTS]);

/* replica_id = SHA-256(prover_id || sector_id u64 BE || ticket || comm_d || porep_id), byte 31 &= 0x3f. */
void porep_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                      const uint8_t comm_d[32], const uint8_t porep_id[32]);
/* prover_id of a miner actor id: the payload of its ID address f0<id>, i.e. the id as an unsigned
 * LEB128 varint (1000 -> e8 07), zero-padded to 32 bytes (filecoin-ffi toProverID). */
void porep_prover_id(uint8_t out[32], uint64_t miner_id);

/* The label of node in layer (1-based): SHA-256(replica_id || layer u32 BE || node u64 BE || 0^20
 * || parents[0..37) if node > 0), byte 31 &= 0x3f. parents: the 37 expanded parent labels
 * (porep_expand_parents), ignored for node 0. */
void porep_label(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                 const uint8_t parents[POREP_LABEL_PARENTS][32]);
/* The 37 hashed parents from the layer's parent labels: layer 1 uses in[0..6) (DRG), repeated 6
 * times then in[0]; later layers in[0..14) (DRG of this layer, expander of the previous), twice,
 * then in[0..9). */
void porep_expand_parents(uint8_t out[POREP_LABEL_PARENTS][32], const uint8_t in[POREP_PARENTS][32], uint32_t layer);

/* All labels of a sector held in memory (test sizes: nodes * layers * 32 bytes): out[(l - 1) *
 * nodes + v] = the label of node v in layer l, computed layer by layer on nthreads threads (<= 0:
 * all CPUs). Errors: CUZK_ERR_NOMEM, CUZK_ERR_ARG (more than 2^26 nodes). */
cuzk_status porep_labels_all(uint8_t (*out)[32], const porep_params *pp, const uint8_t replica_id[32], int nthreads,
                             cuzk_error *err);

/* A node of tree D (filecoin-hashers Sha256Function::hash2 over two domain values):
 * SHA-256(left || right), byte 31 &= 0x3f. */
void porep_sha256_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32]);

/* The challenged nodes of partition k (pp->challenges of them, each in [1, nodes)):
 * interactive (1.0, 1.1): LE integer of SHA-256(replica_id || seed || u32 LE j) mod (nodes - 1) + 1,
 * j = challenges * k + i; synthetic (1.2): the selection by seed from the synthetic challenges of
 * (replica_id, comm_r) (stacked/vanilla/challenges.rs). comm_r may be NULL for interactive
 * parameters. Errors: CUZK_ERR_ARG (k >= partitions, synthetic without comm_r). */
cuzk_status porep_challenges(uint64_t *out, const porep_params *pp, const uint8_t replica_id[32],
                             const uint8_t comm_r[32], const uint8_t seed[32], uint32_t k, cuzk_error *err);

/* ---- the C1 output (porep_c1.c reads, writes and checks it; porep_seal.c makes it) ----------- */

/* One column opening in tree C: the node's labels in every layer, and its inclusion proof. */
typedef struct porep_column_proof {
    uint32_t index;                 /* the node (column) */
    fr rows[POREP_MAX_LAYERS];      /* labels of layers 1..layers */
    merkle_path path;               /* in tree C (pp->shape) */
    fr leaf;                        /* the column hash the proof states */
    fr root;                        /* the root it states (comm_c) */
} porep_column_proof;

/* A labeling proof (and the encoding proof: the same fields): the 37 expanded parents' labels. */
typedef struct porep_label_proof {
    uint32_t layer_index;           /* 1..layers */
    uint64_t node;
    fr parents[POREP_LABEL_PARENTS];
} porep_label_proof;

/* The vanilla proof of one challenge (stacked::Proof). */
typedef struct porep_challenge_proof {
    /* tree D (binary SHA-256, pp->d_levels levels): the data leaf, its path, the root (comm_d) */
    merkle_path comm_d_path;
    fr comm_d_leaf, comm_d_root;
    /* tree R-last (Poseidon, pp->shape): the replica leaf (last label + data), path, root */
    merkle_path comm_r_last_path;
    fr comm_r_last_leaf, comm_r_last_root;
    porep_column_proof c_x;                     /* the challenged node's own column */
    porep_column_proof drg[POREP_DRG_DEGREE];   /* its DRG parents' columns, in parent order */
    porep_column_proof exp[POREP_EXP_DEGREE];   /* its expander parents' columns */
    porep_label_proof labeling[POREP_MAX_LAYERS];
    porep_label_proof encoding;
} porep_challenge_proof;

/* A SealCommitPhase1Output. */
typedef struct porep_c1 {
    porep_params pp;                /* from registered_proof */
    uint8_t comm_r[32], comm_d[32], replica_id[32], seed[32], ticket[32];
    uint32_t n_partitions, n_challenges; /* n_challenges per partition */
    porep_challenge_proof *proofs;  /* n_partitions * n_challenges, partition-major; owned */
} porep_c1;

void porep_c1_free(porep_c1 *c1);
/* The challenge proof i of partition k. */
static inline const porep_challenge_proof *porep_c1_proof(const porep_c1 *c1, uint32_t k, uint32_t i) {
    return &c1->proofs[(size_t)k * c1->n_challenges + i];
}

#endif
