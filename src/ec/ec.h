/* Groups G1 (over Fp) and G2 (over Fp2, a twist) of a pairing-friendly curve, short Weierstrass
 * y^2 = x^3 + b with a = 0; the generic part (this header) and the per-curve declarations
 * (src/ec/ec_decl.h, included by each curve's src/curves/<curve>/curve.h).
 *
 * Coordinates (all field elements in Montgomery form):
 *   affine   (x, y); the point at infinity is (0, 0), which is not on the curve (b != 0).
 *            Same bytes as a snarkjs zkey point (FORMATS.md section 0).
 *   jacobian (X, Y, Z) = (X/Z^2, Y/Z^3); infinity iff Z = 0.
 *   xyzz     (X, Y, ZZ, ZZZ) = (X/ZZ, Y/ZZZ) with ZZ^3 = ZZZ^2; infinity iff ZZ = 0.
 *            Formulas: Bernstein-Lange Explicit-Formulas Database, "xyzz" for short Weierstrass.
 *
 * The group law is one generic implementation (src/ec/curve_impl.h) instantiated per curve for G1
 * over Fp and G2 over Fp2: names are <ns>g1_* and <ns>g2_* with the same suffixes (src/ff/ns.h).
 * Every function handles the point at infinity and P + P, P + (-P) correctly (the "complete"
 * behaviour is by case analysis, so these are variable time in the points). Every routine whose
 * timing depends on its scalar has _vartime in its name; products with a secret scalar (the
 * prover's r and s, which hide the witness) use G##_mul_fr_consttime (src/ec/mul_ct_impl.h:
 * fixed windows, masked table reads, complete formulas).
 *
 * Thread-safety: pure functions.
 */
#ifndef CUZK_EC_EC_H
#define CUZK_EC_EC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Declares the API for one group G with coordinate field F and scalar field FR; the arguments
 * may be macros (CN(g1)). */
#define EC_DECLARE(G, F, FR) EC_DECLARE_(G, F, FR)
#define EC_DECLARE_(G, F, FR)                                                                        \
    /* the curve's standard generator (src/curves/<curve>/) */                                    \
    void G##_generator(G##_affine *r);                                                          \
    /* affine */                                                                                \
    void G##_affine_set_infinity(G##_affine *r);                                                \
    bool G##_affine_is_infinity(const G##_affine *p);                                           \
    bool G##_affine_eq(const G##_affine *p, const G##_affine *q);                               \
    void G##_affine_neg(G##_affine *r, const G##_affine *p);                                    \
    bool G##_affine_is_on_curve(const G##_affine *p);   /* infinity counts as on the curve */   \
    bool G##_affine_is_in_subgroup(const G##_affine *p); /* [r]P = O; assumes on curve */       \
    /* jacobian */                                                                              \
    void G##_jacobian_set_infinity(G##_jacobian *r);                                            \
    bool G##_jacobian_is_infinity(const G##_jacobian *p);                                       \
    void G##_jacobian_from_affine(G##_jacobian *r, const G##_affine *p);                        \
    void G##_jacobian_to_affine(G##_affine *r, const G##_jacobian *p);                          \
    bool G##_jacobian_eq(const G##_jacobian *p, const G##_jacobian *q);                         \
    void G##_jacobian_neg(G##_jacobian *r, const G##_jacobian *p);                              \
    void G##_jacobian_dbl(G##_jacobian *r, const G##_jacobian *p);                              \
    void G##_jacobian_add(G##_jacobian *r, const G##_jacobian *p, const G##_jacobian *q);       \
    void G##_jacobian_add_mixed(G##_jacobian *r, const G##_jacobian *p, const G##_affine *q);   \
    /* xyzz */                                                                                  \
    void G##_xyzz_set_infinity(G##_xyzz *r);                                                    \
    bool G##_xyzz_is_infinity(const G##_xyzz *p);                                               \
    void G##_xyzz_from_affine(G##_xyzz *r, const G##_affine *p);                                \
    void G##_xyzz_to_affine(G##_affine *r, const G##_xyzz *p);                                  \
    void G##_xyzz_to_jacobian(G##_jacobian *r, const G##_xyzz *p);                              \
    void G##_xyzz_neg(G##_xyzz *r, const G##_xyzz *p);                                          \
    void G##_xyzz_dbl(G##_xyzz *r, const G##_xyzz *p);                                          \
    void G##_xyzz_add(G##_xyzz *r, const G##_xyzz *p, const G##_xyzz *q);                       \
    void G##_xyzz_add_mixed(G##_xyzz *r, const G##_xyzz *p, const G##_affine *q);               \
    /* r = [k]P, k an integer of k_limbs 64-bit little-endian limbs (any size), variable time */ \
    void G##_mul_vartime(G##_jacobian *r, const G##_jacobian *p, const uint64_t *k, int k_limbs); \
    /* r = [k]P for k in Fr (Montgomery form; converted to canonical inside), variable time:     \
     * public scalars only */                                                                   \
    void G##_mul_fr_vartime(G##_jacobian *r, const G##_jacobian *p, const FR *k);               \
    /* the same [k]P in constant time, for secret scalars (the prover's r and s): see          \
     * src/ec/mul_ct_impl.h. r may alias p. */                                                  \
    void G##_mul_fr_consttime(G##_jacobian *r, const G##_jacobian *p, const FR *k);             \
    /* out[i] = affine(in[i]) for i < n with one field inversion (Montgomery's trick);           \
     * in and out may not alias. Infinity maps to (0,0). */                                     \
    void G##s_jacobian_to_affine(G##_affine *out, const G##_jacobian *in, size_t n);

/* ---- point decoders ------------------------------------------------------------------------
 * Decoders (the zcash encodings of BLS12-381 and the snarkjs LEM codecs of BN254, in each curve's
 * curve.h) return one of these and write *r only on EC_DECODE_OK. They check canonical field
 * elements and the curve equation; the zcash decoders leave the subgroup check to the caller
 * (g1_affine_is_in_subgroup) so bulk loaders can run it in parallel or skip it. */
typedef enum {
    EC_DECODE_OK = 0,
    EC_DECODE_BAD_FLAGS,      /* compression flag does not match the length, or bad infinity */
    EC_DECODE_NOT_CANONICAL,  /* a coordinate is >= p */
    EC_DECODE_NOT_ON_CURVE,   /* no such point (or x has no square root) */
    EC_DECODE_NOT_IN_SUBGROUP, /* on the curve but not in the prime-order subgroup (decoders that check it) */
} ec_decode_result;
const char *ec_decode_result_str(ec_decode_result r);

#endif
