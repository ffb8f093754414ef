/* Filecoin FallbackPoSt circuits (WinningPoSt, WindowPoSt), rust-fil-proofs
 * storage-proofs-post/src/fallback/{circuit.rs,compound.rs,vanilla.rs}, filecoin-proofs 19.1.
 *
 * Circuit, per sector in order: alloc comm_r_last, alloc comm_c, alloc comm_r and inputize it;
 * enforce comm_r = Poseidon_2(comm_c, comm_r_last); per challenge: PoR of the challenged leaf in
 * tree_r_last against comm_r_last (merkle.h). Public inputs: ONE, then per sector comm_r and one
 * packed leaf index per challenge. A partition with fewer real sectors than the circuit's count is
 * padded with the last real sector (FallbackPoStCompound::circuit / generate_public_inputs).
 *
 * Vanilla proofs: the bincode 1.x form of one sector's proof (CIRCUITS.md section 4, the golden
 * file's layout): u64 sector_id | 32 B comm_r | u64 sector count (1) | per sector: u64 challenge
 * count, per challenge {u32 variant: 0 (Single, 2 KiB..512 MiB trees): 32 B root, 32 B leaf, one
 * path; 1 (Sub, 32 GiB) / 2 (Top, 64 GiB): 2 / 3 paths, then 32 B root, 32 B leaf (the field order of
 * storage-proofs-core merkle/proof.rs SingleProof / SubProof / TopProof); a path is u64 levels, per
 * level u64 sibling count, siblings (32 B, Fr little-endian canonical), u64 index}; 32 B comm_c;
 * 32 B comm_r_last. Every length and index is bounds-checked.
 *
 * Thread-safety: reentrant; the synthesis functions may run concurrently on different cs.
 */
#ifndef CUZK_FILECOIN_POST_H
#define CUZK_FILECOIN_POST_H

#include "gadgets/merkle.h"

typedef enum post_kind { POST_WINNING = 0, POST_WINDOW = 1 } post_kind;

typedef struct post_params {
    post_kind kind;
    uint64_t sector_size;   /* bytes */
    uint64_t nodes;         /* sector_size / 32 */
    merkle_shape shape;     /* tree_r_last */
    uint32_t sector_count;  /* sectors per circuit (partition) */
    uint32_t challenge_count;
    int api_version;        /* 10, 11 or 12 (ApiVersion V1_0_0, V1_1_0, V1_2_0): challenge indexing */
} post_params;

/* Parameters for a sector size (2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB) and kind; api_version 10
 * for WinningPoSt (all of Filecoin's WinningPoSt proofs are ApiVersion 1.0.0), 12 for WindowPoSt.
 * sector_count_override > 0 replaces the sector count (INSECURE test circuits with fewer sectors).
 * Errors: CUZK_ERR_ARG (other sector sizes). */
cuzk_status post_params_init(post_params *out, post_kind kind, uint64_t sector_size, uint32_t sector_count_override,
                             cuzk_error *err);
/* Parses a name like "window-post-32g", "winning-post-2k" (sizes 2k, 8m, 512m, 32g, 64g). */
cuzk_status post_params_from_name(post_params *out, const char *name, cuzk_error *err);

/* One sector's data for the circuit. */
typedef struct post_sector {
    uint64_t sector_id;
    fr comm_r, comm_c, comm_r_last;
    uint32_t n_challenges;
    fr *leaves;           /* n_challenges */
    fr *roots;            /* n_challenges: the roots the vanilla proof states */
    merkle_path *paths;   /* n_challenges */
} post_sector;
void post_sector_free(post_sector *s);

/* Challenges in one vanilla proof: WindowPoSt, challenge_count (10) per sector; WinningPoSt, one
 * proof of the single challenged sector with sector_count * challenge_count (66) challenges, its
 * challenge n at challenge index n (filecoin-proofs generate_fallback_sector_challenges with
 * WinningPoSt's PoStConfig: 1 sector, 66 challenges). */
uint32_t post_vanilla_challenges(const post_params *pp);

/* A WinningPoSt vanilla proof v (post_vanilla_challenges(pp) challenges) as the circuit's
 * sector_count slots of one challenge each: slot i = the sector with its challenge i
 * (filecoin-proofs single_partition_vanilla_proofs unrolls the inclusion proofs the same way; the
 * verifier's public inputs repeat the sector per slot, slot i at challenge index i under
 * ApiVersion 1.0.0). slots: sector_count entries, each owned by the caller (post_sector_free).
 * Errors: CUZK_ERR_ARG (not WinningPoSt params, another challenge count), CUZK_ERR_NOMEM. */
cuzk_status post_winning_unroll(post_sector *slots, const post_params *pp, const post_sector *v, cuzk_error *err);

/* Reads a vanilla proof (layout above) for params' tree shape and post_vanilla_challenges(pp).
 * Errors: CUZK_ERR_FORMAT (truncated, absurd length, index out of range, non-canonical Fr,
 * trailing bytes, a shape that is not params'), CUZK_ERR_NOMEM. *out is owned by the caller. */
cuzk_status post_vproof_read(post_sector *out, const post_params *pp, const uint8_t *data, size_t n, cuzk_error *err);

/* The randomness must be a canonical Fr (32 bytes little-endian, < r): CUZK_ERR_ARG otherwise. */
cuzk_status post_check_randomness(const uint8_t randomness[32], cuzk_error *err);

/* The challenged leaf (rust-fil-proofs generate_leaf_challenge_inner): SHA-256(randomness ||
 * u64_le(sector_id) || u64_le(challenge_index)), first 8 bytes little-endian, mod nodes. */
uint64_t post_leaf_challenge(const post_params *pp, const uint8_t randomness[32], uint64_t sector_id, uint64_t challenge_index);
/* challenge_index for challenge n of the sector at sector_index (get_challenge_index). */
uint64_t post_challenge_index(const post_params *pp, uint64_t sector_index, uint64_t n);

/* The checks the verifier's side would make, before proving: every path hashes its leaf to
 * comm_r_last, comm_r = Poseidon_2(comm_c, comm_r_last), every challenged leaf index equals the
 * derived challenge (sector_index: the sector's position over all partitions). randomness must
 * be a canonical Fr (32 bytes little-endian). In this order, the first failure reported:
 * randomness (CUZK_ERR_ARG), challenge count, comm_r, then per challenge c its root, its path and
 * its leaf index (CUZK_ERR_INVALID with the reason). One thread. */
cuzk_status post_sector_check(const post_params *pp, const post_sector *s, const uint8_t randomness[32],
                              uint64_t sector_index, cuzk_error *err);

/* The checks of post_sector_check over secs[0 .. n) (sector k at sector_index first_index + k),
 * split into items in order: per sector, its own checks (challenge count, comm_r) and then one
 * item per challenge (root, path, leaf index); the items run on nthreads threads (<= 0:
 * cuzk_num_threads()), each thread a contiguous range, stopping once an earlier item failed.
 * The result is exactly that of post_sector_check called on each sector in turn: OK, or the
 * status and message of the FIRST failing item in (sector, challenge) order, whatever the thread
 * count. bad (may be NULL): the position k of that sector, n when all pass. n = 0: CUZK_OK.
 * Errors: CUZK_ERR_ARG (randomness not canonical, *bad = 0), CUZK_ERR_INVALID with the reason.
 * Memory: a few words per sector and one cuzk_error per thread (without them: one thread). */
cuzk_status post_sectors_check(const post_params *pp, const post_sector *secs, size_t n, uint64_t first_index,
                               const uint8_t randomness[32], int nthreads, size_t *bad, cuzk_error *err);

/* One vanilla proof read (post_vproof_read), NOT checked, as the circuit's sectors: WindowPoSt,
 * one sector into out[0], *n_out = 1; WinningPoSt, the unrolled slots (post_winning_unroll) into
 * out[0 .. sector_count), *n_out = sector_count, and sector_index must be 0 (CUZK_ERR_ARG
 * otherwise: one vanilla proof per circuit). out needs room for that many, owned by the caller
 * (post_sector_free each); on error *n_out = 0 and nothing is left allocated in it. Errors: those
 * of post_vproof_read and post_winning_unroll. */
cuzk_status post_vanilla_read(post_sector *out, size_t *n_out, const post_params *pp, const uint8_t *data, size_t n,
                              uint64_t sector_index, cuzk_error *err);

/* post_vanilla_read, then post_sectors_check of what it read on nthreads threads (<= 0: all)
 * with the first sector at sector_index (its position over all partitions; WinningPoSt: slot k
 * checked at index k). On error nothing is left allocated in out and *n_out = 0. */
cuzk_status post_vanilla_sectors(post_sector *out, size_t *n_out, const post_params *pp, const uint8_t *data, size_t n,
                                 uint64_t sector_index, const uint8_t randomness[32], int nthreads, cuzk_error *err);

/* The public inputs (without ONE) of partition k for the real sectors secs[0..n) (sector ids,
 * comm_r): 1 + challenge_count values per circuit sector, padded with the last; out has
 * sector_count * (1 + challenge_count) entries. */
cuzk_status post_public_inputs(fr *out, const post_params *pp, const post_sector *secs, size_t n, uint64_t partition,
                               const uint8_t randomness[32], cuzk_error *err);

/* Synthesizes the circuit over the real sectors secs[0..n) (n <= sector_count), padding with the
 * last. Any cs mode. Errors: the cs's sticky status, CUZK_ERR_ARG (n = 0 or too many, a sector
 * with another challenge count). */
cuzk_status post_synthesize(cs *cs, const post_params *pp, const post_sector *secs, size_t n);

/* Sizes of the circuit: inputs (ONE included), aux, constraints. */
typedef struct post_sizes { uint64_t n_inputs, n_aux, n_constraints, in_per_sector, aux_per_sector, c_per_sector; } post_sizes;
void post_circuit_sizes(const post_params *pp, post_sizes *out);

/* The circuit's R1CS, recorded on nthreads threads (<= 0: all CPUs): the sectors split in
 * contiguous parts, each recorded by its own builder (cs_init_part) with the variable numbering
 * a one-thread recording has at that sector, then joined in order (cs_join_parts). The result is
 * the R1CS post_synthesize + cs_finish_r1cs give on one CS_MATRICES builder, byte for byte (the
 * shape does not depend on the witness: the sectors are blank). Memory: the matrices (a full
 * 32 GiB WindowPoSt partition: 1.147G nonzeros, ~12.2 GB) plus, while joining, the parts of the
 * matrix being joined (~7.8 GB more for A there). Errors: CUZK_ERR_NOMEM, CUZK_ERR_UNSUPPORTED. */
cuzk_status post_record_parallel(r1cs *out, const post_params *pp, int nthreads, cuzk_error *err);
/* The same; ms[0] (may be NULL) gets the wall ms of recording the parts, ms[1] of the join. */
cuzk_status post_record_parallel_timed(r1cs *out, const post_params *pp, int nthreads, double ms[2], cuzk_error *err);

/* Counts and A/B densities (CS_DENSITY: aux in A, aux in B, inputs in B) from a recording pass
 * on nthreads threads (<= 0: all CPUs), one builder per part of the sectors, their bitmaps ORed
 * together: the numbers post_synthesize gives on one CS_DENSITY builder. Memory: one bitmap pair
 * per thread (n_aux / 8 bytes at most each). Errors: CUZK_ERR_NOMEM. */
typedef struct post_counts { uint64_t n_inputs, n_aux, n_constraints, a_aux, b_aux, b_in; } post_counts;
cuzk_status post_count_parallel(post_counts *out, const post_params *pp, int nthreads, cuzk_error *err);

/* Witness-only synthesis on nthreads threads (<= 0: all cores) into w (n_inputs + n_aux values,
 * [inputs | aux], Montgomery), sectors split over threads. */
cuzk_status post_witness_parallel(fr *w, size_t n_w, const post_params *pp, const post_sector *secs, size_t n,
                                  int nthreads, cuzk_error *err);

#endif
