/* A synthetic constraint system with the measured shape of one 32 GiB PoRep C2 partition
 * (issue 4, item 2), with a satisfying witness, for benchmarks and tests of the pipeline.
 *
 * Shape (targets of the issue; synthetic_stats measures what a generated system has):
 *   per row on average 2.4 nonzeros in A, 1.0 in B, 2.2 in C;
 *   99.7% of aux variables appear in some A row, 25.4% in some B row;
 *   n_public public inputs (PoRep: 328); one aux variable per row (PoRep: 130.2M aux for ~130M
 *   rows); a fraction frac01 of the aux values is 0 or 1 (SHA-256-like), the rest are full-size
 *   field elements.
 *
 * Construction (every row defines one fresh aux variable z_j = w[1 + n_public + j]):
 *   BIT     x * x = x                A: x        B: x        C: x         (x a fresh free bit)
 *   AND     x * y = z                A: x        B: y        C: z
 *   XOR     2x * y = x + y - z       A: 2x       B: y        C: x, y, -z  (z = x xor y)
 *   PACK    (u + sum 2^i b_i) * 1 = W  A: u, b_1..b_k  B: ONE  C: W      (W a field element)
 * x, y, b_i are earlier boolean variables, u the previous PACK output (or a public input).
 * Row kinds: PACK rows evenly spaced at rate p = 1 - frac01 (clamped to [0.005, 0.35]); others
 * drawn at random: XOR 0.6, BIT 0.05, AND the rest; PACK rows have on average k = 1.4/p bit terms, so that
 * A averages 1 + p*k = 2.4, C averages 1 + 2*0.6 = 2.2, and B is exactly 1. Each new boolean is
 * consumed by a later A row (a cursor), except a deterministic 0.3% that are skipped; B terms
 * are drawn from a deterministic 25.4% subset of the aux booleans. Everything is a pure function
 * of the seeds (splitmix64 of the row index), so the structure needs no side tables.
 * Rows of kind x*y (AND, XOR, BIT) keep every boolean variable in {0, 1} for any witness seed;
 * the witness is the row-by-row solution of the CSR matrices (each row solved for its fresh
 * variable, which is the last C entry with coefficient +-1), so satisfying it is by construction
 * and r1cs_check_witness confirms it.
 *
 * Memory: the r1cs arrays are allocated exactly (a first pass counts the nonzeros per row):
 * 5.6 nonzeros * 8 bytes (column + coefficient id, r1cs.h) + 3 row pointers * 8 = 68.8 bytes per
 * row, plus three coefficient tables of <= 64 values (measured at 2^22 rows: 68.8 B/row RSS; it
 * was 225.6 with one Fr per nonzero). Generating the matrices is sequential (each row's picks
 * depend on the earlier ones); the witness is computed in parallel (synthetic_witness_mt).
 * Thread-safety: pure functions of their arguments; reentrant.
 */
#ifndef CUZK_R1CS_SYNTHETIC_H
#define CUZK_R1CS_SYNTHETIC_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "curves/curve.h"
#include "r1cs/r1cs.h"

typedef struct synthetic_params {
    uint32_t n_constraints; /* rows N (>= 8); the Groth16 domain is the next power of two >= N + n_public + 1 */
    uint32_t n_public;      /* public inputs after ONE (PoRep: 328) */
    double frac01;          /* fraction of aux values in {0, 1}; effective range [0.65, 0.995] */
    uint64_t seed;          /* structure seed: same seed, same matrices */
} synthetic_params;

/* Defaults of a PoRep partition: n_public 328, frac01 0.95, seed 1. */
void synthetic_params_default(synthetic_params *p, uint32_t n_constraints);

/* n_vars of the system: 1 + n_public + n_constraints. */
uint32_t synthetic_n_vars(const synthetic_params *p);

/* Builds the matrices into *out (owned by the caller; r1cs_free). On failure *out is zeroed.
 * Errors: CUZK_ERR_ARG (NULL, n_constraints < 8, n_vars overflowing 32 bits),
 * CUZK_ERR_NOMEM. */
cuzk_status synthetic_r1cs(r1cs *out, const synthetic_params *p, cuzk_error *err);

/* A satisfying witness of the system built from the same params: w[0] = 1, w[1..n_public] are
 * pseudo-random field elements from witness_seed, BIT rows draw their bit from witness_seed,
 * every other aux value follows from its row: the row-by-row solution, z_j = <A_j,w><B_j,w> minus
 * the other terms of C_j (negated when z_j has coefficient -1). Different witness seeds give
 * different witnesses of the same circuit (one per partition). The result is bit-identical for
 * every thread count, and to the single-threaded row-by-row algorithm this replaced (the oracle
 * in tests/test_synthetic.c).
 *
 * w: n_w = cs->n_vars values, Montgomery form, caller-allocated host memory (fr alignment). Before
 * it is written, its first 4 * n_constraints bytes serve as scratch. cs: read only.
 * nthreads: threads to use, the caller's included; <= 0 means cuzk_num_threads().
 * Work, in four passes: checking the rows (parallel; most of the memory traffic: every row pointer,
 * column and coefficient once), solving the AND / XOR rows on bytes (sequential, a few ns per row),
 * writing w (parallel), and the chain of PACK outputs (a parallel scan; one field addition per
 * PACK row and per chunk).
 * Memory: allocates n_vars bytes + 32 bytes per chunk (4 per thread) of scratch, freed before
 * returning.
 *
 * Errors: CUZK_ERR_ARG (NULL; n_w != cs->n_vars; cs's sizes not those of the params; a row not
 * made from these params: nonzero counts, output column, coefficients, a PACK row's chain input,
 * or an operand that is not a boolean of an earlier row; the message names the first bad row the
 * check found), CUZK_ERR_NOMEM (the scratch). On an error w holds unspecified values.
 * Thread-safety: reentrant; concurrent calls may share cs and p (not w). */
cuzk_status synthetic_witness_mt(fr *w, size_t n_w, const r1cs *cs, const synthetic_params *p,
                                 uint64_t witness_seed, int nthreads, cuzk_error *err);

/* synthetic_witness_mt with nthreads = 0: as many threads as cuzk_num_threads(). A caller that
 * already runs several witnesses at once (engine synthesis workers) should call
 * synthetic_witness_mt with its share of the cores instead. */
cuzk_status synthetic_witness(fr *w, size_t n_w, const r1cs *cs, const synthetic_params *p,
                              uint64_t witness_seed, cuzk_error *err);

/* Measured shape of a system (and optionally a witness). */
typedef struct synthetic_stats {
    double a_per_row, b_per_row, c_per_row; /* nonzeros per row */
    double aux_in_a, aux_in_b;              /* fraction of aux variables with a nonzero in A / B */
    double aux_01;                          /* fraction of aux values in {0, 1} (w given; else 0) */
    double aux_1;                           /* fraction of aux values equal to 1 (w given; else 0) */
} synthetic_stats;

/* Computes the statistics of cs (and of w, n_w = cs->n_vars, when w != NULL). Allocates an
 * n_vars-byte scratch; returns CUZK_ERR_NOMEM if it cannot. */
cuzk_status synthetic_stats_compute(synthetic_stats *out, const r1cs *cs, const fr *w, cuzk_error *err);

#endif
