/* Radix-2 NTT over a curve's Fr on the CPU, multithreaded, and the Groth16 H polynomial in the
 * two conventions cuzk supports. This header holds the curve-independent part; each curve declares
 * its instance through src/poly/ntt_decl.h (CN(ntt_domain), CN(ntt_forward), ...: ntt_forward for
 * BLS12-381, bn254_ntt_forward for BN254) and defines it from src/poly/ntt_impl.h.
 *
 * A domain of size m = 2^log_m (1 <= log_m <= min(28, two-adicity)) is built from a root of unity
 * of order 2^s (s = the two-adicity of r - 1, 32 for BLS12-381, 28 for BN254):
 * bellperson/blst use 7^t (BLS12-381 only), snarkjs nqr^t with nqr the smallest quadratic
 * non-residue (5 for both curves; FORMATS.md section 5); omega_m = root^(2^(s - log_m)). Vectors
 * are natural order in and out, Montgomery form. Cooley-Tukey decimation-in-time with a
 * bit-reversal permutation.
 */
#ifndef CUZK_POLY_NTT_H
#define CUZK_POLY_NTT_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"

typedef enum { NTT_ROOTS_BELLPERSON = 0, NTT_ROOTS_SNARKJS = 1 } ntt_roots;

#endif
