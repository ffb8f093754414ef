/* Random satisfiable bn128 (BN254) circuits as circom would write them, for the bn128 and
 * gpu_bn254 suites: an iden3 .r1cs (version 1, FORMATS.md section 1) and its .wtns (version 2,
 * section 2), written here byte by byte (not through cuzk's own writers, so the loader is
 * checked against an independent writer), then `cuzk_setup` (zkey alone), proofs and checks.
 *
 * Shape: wire 0 = ONE, wires 1..n_public = public inputs (random values), then one aux wire per
 * constraint, defined by its row the way circom's witness calculator defines a signal:
 *   ~45 % boolean rows   b * (b - ONE) = 0 with b in {0, 1} (no C terms: the 0/1 scalars of the MSMs)
 *   ~10 % linear rows    A and B empty, C = lc(earlier wires) + c * aux_j  (--O1 keeps such rows)
 *   the rest             lc_A * lc_B = lc_C(earlier wires) + c * aux_j, 1..3, 1..2 and 0..2 terms
 * with c = 1 or r - 1 (circom's `c <== a*b` writes C = {c: r-1}), other coefficients random, 1,
 * r - 1 or small powers of two; no wire twice in one LC, no zero coefficient (as circom). Earlier
 * wires are mostly recent aux (locality), sometimes ONE or a public input. Deterministic in the
 * test RNG (test.h).
 */
#ifndef CUZK_TESTS_BN254_CIRCUIT_H
#define CUZK_TESTS_BN254_CIRCUIT_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/prover.h"

/* Writes r1cs_path and wtns_path for a circuit of n_constraints rows and n_public public inputs
 * (n_vars = 1 + n_public + n_constraints). Returns false (after a test failure naming the file)
 * when a file cannot be written. */
bool bn254_random_circuit_files(const char *r1cs_path, const char *wtns_path, uint32_t n_constraints, uint32_t n_public);

/* The whole check for one random circuit of domain 2^log_m (n_constraints = 2^log_m - n_public - 1,
 * so the domain is exactly 2^log_m): files as above in the test's tmpdir, `cuzk_setup` (seeded) to a
 * .zkey, then for every backend in backends[0..n_backends): a proof with fixed r, s through
 * cuzk_prove_zkey_files, and the first backend's bytes must equal every other's; the first proof
 * verifies through the in-memory API (cuzk_vk_from_pk), a wrong public input does not, and each
 * backend also proves once with random r, s (verified). When snarkjs_check and snarkjs is
 * installed, snarkjs verifies our proof with the vk it exports from our zkey, and proves with our
 * zkey a proof that we verify. Prints the stage times. Failures are test failures. */
void bn254_random_circuit_check(int log_m, uint32_t n_public, const cuzk_backend *backends, int n_backends,
                                bool snarkjs_check);

#endif
