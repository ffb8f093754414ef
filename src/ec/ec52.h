/* Checks of affine points eight at a time on AVX-512 IFMA (src/ff/vec52.h): canonical
 * coordinates and the curve equation y^2 = x^3 + b, for G1 over a field of four 64-bit limbs
 * below 2^255 and G2 over Fp2 = Fp[u]/(u^2 + 1) (BN254). Curve-independent: the field and b are
 * given; points are the scalar code's affine points (Montgomery form with R = 2^256), G1 as x, y
 * (8 limbs), G2 as x.c0, x.c1, y.c0, y.c1 (16 limbs). (0, 0) is the point at infinity and passes.
 *
 * ec52_g1_prefix_ok / ec52_g2_prefix_ok return k <= n: points [0, k) pass both checks; point k
 * (when k < n) failed one, or lies in the last partial group of 8, which is left to the caller:
 * the caller checks from index k on with its scalar code (which also names the fault). So the
 * result never accepts a point the scalar checks would refuse (tests/test_bn254.c
 * ec52_point_checks_vs_scalar).
 * Requirements: ec52_usable(p). Thread-safety: pure functions.
 */
#ifndef CUZK_EC_EC52_H
#define CUZK_EC_EC52_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool ec52_usable(const uint64_t p[4]);

/* p: the modulus; b: y^2 = x^3 + b, Montgomery form (4 limbs; G2: c0 then c1, 8 limbs) */
size_t ec52_g1_prefix_ok(const uint64_t (*pts)[8], size_t n, const uint64_t p[4], const uint64_t b[4]);
size_t ec52_g2_prefix_ok(const uint64_t (*pts)[16], size_t n, const uint64_t p[4], const uint64_t b[8]);

#endif
