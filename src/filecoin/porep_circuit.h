/* The StackedCircuit of one PoRep partition (rust-fil-proofs 87348a74 storage-proofs-porep
 * stacked/circuit/{proof.rs,params.rs}; CIRCUITS.md section 5, POREP.md section 5), on the
 * constraint builder (circuit/cs.h) in every mode, and its public inputs from public data.
 *
 * The circuit, in order (variables, constraints and inputs as upstream allocates them):
 *   header: replica_id alloc + inputize, its to_bits_le (reverse_bit_numbering kept for the
 *     labels); comm_d alloc + inputize; comm_r alloc + inputize; comm_r_last, comm_c alloc;
 *     comm_r = Poseidon_2(comm_c, comm_r_last).
 *   per challenge (pp->challenges of them):
 *     prefix: the data leaf, its PoR in tree D (binary SHA-256, d_levels levels, one input);
 *       6 DRG then 8 expander parent columns, each: its `layers` rows allocated, the column hash
 *       (Poseidon, arity layers), its PoR in tree C (one input); the challenge as UInt64 (64
 *       bits) packed into one input;
 *     label of layer l = 1..layers: the parents' labels to_bits_le (the DRG columns' row l, and
 *       for l > 1 the expander columns' row l - 1), create_label over the 37 expanded parents;
 *     tail: replica = last label + data leaf, its PoR in tree R-last (one input); the column hash
 *       of the challenge's labels, its PoR in tree C (one input).
 * Public inputs (ONE first): replica_id, comm_d, comm_r, then per challenge 18: its node (tree D
 * path), its 6 DRG and 8 expander parents (tree C paths), its node (UInt64), its node (tree R-last
 * path), its node (tree C path) (StackedCompound::generate_public_inputs). 2 KiB: 40; 32 GiB: 328.
 *
 * Values: a C1 (porep.h) gives replica_id, comm_d, comm_r (32-byte LE canonical), and per
 * challenge of partition k its proof: comm_r_last = the root of proof 0's comm_r_last_path, comm_c
 * = the root of proof 0's c_x column proof, the challenge = labeling[0].node. A blank circuit (c1
 * NULL) has every value zero: the same R1CS (nothing in the shape depends on values).
 *
 * Parallel synthesis: the circuit is cut into units (the header; per challenge its prefix, each
 * label, its tail) whose variable counts are fixed by the parameters, so each unit can be
 * synthesized on its own thread at the numbering a one-thread run has there (cs_init_part,
 * cs_init_view); the variables a unit shares with earlier ones (replica_id bits, columns, the
 * challenge bits, the labels, the data leaf) are named by that numbering.
 * Thread-safety: every function is reentrant (a process-wide cache of unit sizes per shape is
 * filled under a lock).
 */
#ifndef CUZK_FILECOIN_POREP_CIRCUIT_H
#define CUZK_FILECOIN_POREP_CIRCUIT_H

#include "circuit/cs.h"
#include "filecoin/porep.h"

/* Sizes of one partition's circuit: inputs (ONE included), aux, constraints (without the prover's
 * one row per input). 2 KiB: 40 / 2,685,673 / 2,687,921; 32 GiB: 328 / 130,169,893 / 130,278,541.
 * All zero when pp is not a circuit this module makes (porep_circuit_check). */
typedef struct porep_sizes { uint64_t n_inputs, n_aux, n_constraints; } porep_sizes;
void porep_circuit_sizes(const porep_params *pp, porep_sizes *out);

/* Whether pp describes a circuit this module makes: layers 2 or 11 (the column hash's arities),
 * 1..POREP_MAX_CHALLENGES challenges, nodes = 2^d_levels = the leaves of pp->shape, d_levels <=
 * MERKLE_MAX_LEVELS. Errors: CUZK_ERR_ARG naming the field. */
cuzk_status porep_circuit_check(const porep_params *pp, cuzk_error *err);

/* Synthesizes partition k of the circuit on cs (any mode; a one-thread builder from cs_init).
 * c1: the C1 output the witness comes from, or NULL for a blank circuit (k ignored). Errors: the
 * cs's sticky status; CUZK_ERR_ARG (pp, k >= c1->n_partitions, c1->n_challenges !=
 * pp->challenges, replica_id / comm_d / comm_r not canonical Fr), set in the cs too. */
cuzk_status porep_synthesize(cs *cs, const porep_params *pp, const porep_c1 *c1, uint32_t k);

/* The circuit's R1CS recorded on nthreads threads (<= 0: all CPUs): the units split in contiguous
 * parts of about equal constraint counts, each recorded by its own builder (cs_init_part), then
 * joined (cs_join_parts): byte for byte the R1CS of porep_synthesize (blank) + cs_finish_r1cs on
 * one CS_MATRICES builder. Memory: the matrices, plus the parts of one matrix while joining, plus
 * a first pass recording one unit of each kind (its nonzero counts size every part exactly).
 * Errors: CUZK_ERR_ARG (pp), CUZK_ERR_NOMEM, CUZK_ERR_UNSUPPORTED; *out is zeroed on error. */
cuzk_status porep_record_parallel(r1cs *out, const porep_params *pp, int nthreads, cuzk_error *err);

/* Counts and A/B densities (aux in A, aux in B, inputs in B) from a CS_DENSITY recording pass on
 * nthreads threads (<= 0: all CPUs), the parts' bitmaps ORed: the numbers of one CS_DENSITY
 * builder over the blank circuit. 32 GiB: A-aux 129,753,292, B-aux 33,112,281, B-input 1. Memory:
 * two bitmaps of n_aux bits per thread. Errors: CUZK_ERR_ARG (pp), CUZK_ERR_NOMEM. */
typedef struct porep_counts { uint64_t n_inputs, n_aux, n_constraints, a_aux, b_aux, b_in; } porep_counts;
cuzk_status porep_count_parallel(porep_counts *out, const porep_params *pp, int nthreads, cuzk_error *err);

/* Witness-only synthesis of partition k of c1 into w ([inputs | aux], n_w = n_inputs + n_aux
 * values, Montgomery) on nthreads threads (<= 0: all CPUs): the header, prefixes and labels first,
 * then the tails (which read the labels back from w). w[0] = ONE. The same values as
 * porep_synthesize on a CS_WITNESS builder. No allocation per constraint (one message buffer per
 * SHA-256 hash). Errors: CUZK_ERR_ARG (pp, n_w, k, the C1's counts, non-canonical replica_id /
 * comm_d / comm_r), CUZK_ERR_NOMEM; w is then partly written. */
cuzk_status porep_witness_parallel(fr *w, size_t n_w, const porep_params *pp, const porep_c1 *c1, uint32_t k, int nthreads,
                                   cuzk_error *err);

/* Checks <A_j, w> * <B_j, w> = <C_j, w> for every row j of the circuit without holding its R1CS:
 * each unit recorded on its own (as porep_record_parallel's parts) and its rows evaluated on w
 * ([inputs | aux], n_w = n_inputs + n_aux, Montgomery), on nthreads threads (<= 0: all CPUs).
 * Returns CUZK_ERR_UNSAT with *bad_row (may be NULL) = the first unsatisfied row in circuit order,
 * whatever the thread count. Memory: one unit's matrices per thread (a label: ~60 MB). Errors:
 * CUZK_ERR_ARG (pp, n_w), CUZK_ERR_NOMEM, CUZK_ERR_UNSAT. */
cuzk_status porep_check_witness_parallel(const fr *w, size_t n_w, const porep_params *pp, int nthreads, uint64_t *bad_row,
                                         cuzk_error *err);

/* The public inputs of partition k without ONE (n_inputs - 1 = 3 + 18 * pp->challenges values,
 * Montgomery) from public data only: replica_id, comm_d, comm_r (32-byte LE canonical Fr), then
 * per challenge of porep_challenges(pp, replica_id, comm_r, seed, k) c: c, porep_parents(c)[0..14),
 * c, c, c. Equal to w[1 .. n_inputs) of the witness of an honest C1. Errors: CUZK_ERR_ARG (pp, a
 * value not canonical, k out of range: porep_challenges' errors). */
cuzk_status porep_public_inputs(fr *out, const porep_params *pp, const uint8_t replica_id[32], const uint8_t comm_d[32],
                                const uint8_t comm_r[32], const uint8_t seed[32], uint32_t k, cuzk_error *err);

#endif
