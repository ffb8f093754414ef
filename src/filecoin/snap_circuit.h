/* The EmptySectorUpdateCircuit of one SnapDeals partition (rust-fil-proofs 87348a74
 * storage-proofs-update/src/{circuit.rs, gadgets.rs}, storage-proofs-core gadgets/{por.rs
 * por_no_challenge_input, insertion.rs select}; POREP.md section 7), on the constraint builder
 * (circuit/cs.h) in every mode, and its public inputs from public data.
 *
 * The circuit, in order (variables, constraints and inputs as upstream allocates them):
 *   header:
 *     k_and_h_select alloc + inputize; its partition_bit_len + 6 low bits allocated
 *     (AllocatedBit), A = sum 2^i bit_i, B = ONE, C = k_and_h_select; the partition bits packed
 *     (pack_bits: one aux); comm_r_old, comm_d_new, comm_r_new alloc + inputize;
 *     phi = Poseidon_2^tag(comm_d_new, comm_r_old); comm_c, root_r_old, root_r_new alloc; the
 *     apex leaves alloc; the partition path's siblings alloc (challenge 0's top partition_bit_len
 *     levels of proof_d_new); comm_r_old = Poseidon_2(comm_c, root_r_old) and comm_r_new =
 *     Poseidon_2(comm_c, root_r_new) (A = calc, B = ONE, C = comm); apex_por: the apex tree row by
 *     row (SHA-256 hash2), then its root's path to comm_d_new with the partition bits;
 *     per digest j: digest_index alloc, A = digests k + j ONE, B = ONE, C = digest_index; digest =
 *     Poseidon_2^tag(comm_r_new, digest_index); its 255 bits allocated, A = sum 2^i bit_i, B = ONE,
 *     C = digest.
 *   per challenge i (c_bits = the digest's bits [b (i mod q), +b) then the partition bits):
 *     for each of the 6 h: pack_bits of the h high bits of c_bits, c_high_or_zero alloc, A = packed,
 *     B = h_select bit, C = c_high_or_zero; c_high alloc, A = sum c_high_or_zero, B = ONE, C = c_high;
 *     rho = Poseidon_2^tag(phi, c_high); leaf_r_old, leaf_d_new alloc; label_r_new: leaf_d_new *
 *     rho (mul), label alloc, A = leaf_r_old + product, B = ONE, C = label; proof_r_old's siblings
 *     alloc, its PoR (insert + Poseidon per level on c_bits, no input) to root_r_old; the same for
 *     proof_r_new from label_r_new to root_r_new; the apex leaf selected by the challenge's bits
 *     above the path (select: apex_leaves - 1 picks); the path to it (cbl - pbl - abl siblings
 *     alloc, insert_2 + SHA-256 per level) from leaf_d_new.
 * Public inputs (ONE first): k_and_h_select, comm_r_old, comm_d_new, comm_r_new.
 * Counts (model/snap.py, tests/fixtures/filecoin/model_counts.txt): 2 KiB 1,705,039 constraints;
 * 32 GiB 81,049,499 per partition.
 *
 * Values: a partition proof and the public data give every value; a blank circuit (proof NULL)
 * has every value zero and the same R1CS. The challenges' values come from the digest's value in
 * the circuit, so a proof whose paths do not open those challenges makes an unsatisfied witness
 * (snap_partition_check refuses it first).
 * Parallel synthesis: every challenge has the same variable and constraint counts and no input,
 * so challenge i starts at a numbering fixed by the parameters; the header's variables it uses
 * are named by that numbering.
 * Thread-safety: reentrant.
 */
#ifndef CUZK_FILECOIN_SNAP_CIRCUIT_H
#define CUZK_FILECOIN_SNAP_CIRCUIT_H

#include "circuit/cs.h"
#include "filecoin/snap.h"

/* Sizes of one partition's circuit: inputs (ONE included), aux, constraints (without the prover's
 * one row per input); the header's and one challenge's share. All zero when sp is not valid. */
typedef struct snap_sizes {
    uint64_t n_inputs, n_aux, n_constraints;
    uint64_t hdr_aux, hdr_constraints, ch_aux, ch_constraints;
} snap_sizes;
void snap_circuit_sizes(const snap_params *sp, snap_sizes *out);

/* The values the circuit takes: the public data and partition k's proof (NULL: blank). */
typedef struct snap_witness_src {
    const snap_public *pub;            /* NULL with proof NULL */
    const snap_partition_proof *proof; /* sp->challenges challenge proofs */
    uint32_t k;
} snap_witness_src;

/* Synthesizes the partition circuit on cs (any mode, a one-thread builder from cs_init). src NULL:
 * the blank circuit. Errors: the cs's sticky status; CUZK_ERR_ARG (k, counts, a commitment that is
 * not canonical), set in the cs too. */
cuzk_status snap_synthesize(cs *cs, const snap_params *sp, const snap_witness_src *src);

/* The public inputs of partition k without ONE (4 values, Montgomery): k_and_h_select,
 * comm_r_old, comm_d_new, comm_r_new (circuit.rs PublicInputs::to_vec). Errors: CUZK_ERR_ARG (k,
 * a commitment that is not canonical). */
cuzk_status snap_public_inputs(fr out[4], const snap_params *sp, uint32_t k, const snap_public *pub, cuzk_error *err);

/* The R1CS recorded on nthreads threads (<= 0: all CPUs): the header and runs of challenges, each
 * recorded by its own builder (cs_init_part), joined (cs_join_parts): byte for byte what
 * snap_synthesize (blank) + cs_finish_r1cs give. Errors: CUZK_ERR_ARG, CUZK_ERR_NOMEM,
 * CUZK_ERR_UNSUPPORTED; *out zeroed on error. */
cuzk_status snap_record_parallel(r1cs *out, const snap_params *sp, int nthreads, cuzk_error *err);

/* Counts and densities (aux in A, aux in B, inputs in B) from CS_DENSITY passes on nthreads
 * threads, ORed: one CS_DENSITY builder's numbers over the blank circuit. Memory: two bitmaps of
 * n_aux bits per thread. Errors: CUZK_ERR_ARG, CUZK_ERR_NOMEM. */
typedef struct snap_counts { uint64_t n_inputs, n_aux, n_constraints, a_aux, b_aux, b_in; } snap_counts;
cuzk_status snap_count_parallel(snap_counts *out, const snap_params *sp, int nthreads, cuzk_error *err);

/* Witness-only synthesis into w ([inputs | aux], n_w = n_inputs + n_aux, Montgomery; w[0] = ONE)
 * on nthreads threads: the header, then the challenges. The values snap_synthesize gives on a
 * CS_WITNESS builder. Errors: CUZK_ERR_ARG (n_w, src), CUZK_ERR_NOMEM; w partly written then. */
cuzk_status snap_witness_parallel(fr *w, size_t n_w, const snap_params *sp, const snap_witness_src *src, int nthreads,
                                  cuzk_error *err);

/* Checks every row of the circuit on w without holding the whole R1CS (each part recorded and
 * evaluated on its own, nthreads threads). CUZK_ERR_UNSAT with *bad_row (may be NULL) = the first
 * unsatisfied row. Errors: CUZK_ERR_ARG (n_w), CUZK_ERR_NOMEM, CUZK_ERR_UNSAT. */
cuzk_status snap_check_witness_parallel(const fr *w, size_t n_w, const snap_params *sp, int nthreads, uint64_t *bad_row,
                                        cuzk_error *err);

#endif
