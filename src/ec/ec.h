/* BLS12-381 groups G1 (over Fp) and G2 (over Fp2, the M-twist), short Weierstrass y^2 = x^3 + b
 * with a = 0: b = 4 for G1, b = 4(1 + u) for G2.
 *
 * Coordinates (all field elements in Montgomery form, src/ff/fields.h):
 *   affine   (x, y); the point at infinity is (0, 0), which is not on the curve (b != 0).
 *            Same bytes as a snarkjs zkey point (FORMATS.md section 0): 96 B (G1), 192 B (G2).
 *   jacobian (X, Y, Z) = (X/Z^2, Y/Z^3); infinity iff Z = 0.
 *   xyzz     (X, Y, ZZ, ZZZ) = (X/ZZ, Y/ZZZ) with ZZ^3 = ZZZ^2; infinity iff ZZ = 0.
 *            Formulas: Bernstein-Lange Explicit-Formulas Database, "xyzz" for short Weierstrass.
 *
 * The group law is one generic implementation (src/ec/curve_impl.h) instantiated for G1 over Fp
 * and G2 over Fp2: names are g1_* and g2_* with the same suffixes. Every function handles the
 * point at infinity and P + P, P + (-P) correctly (the "complete" behaviour is by case
 * analysis, so these are variable time in the points). Scalar multiplication by a secret (the
 * prover's r and s) uses the constant-time fixed-window routines of src/ec/ec_ct.h; the
 * routines here whose timing depends on the scalar carry _vartime in their names.
 *
 * Thread-safety: pure functions.
 */
#ifndef CUZK_EC_EC_H
#define CUZK_EC_EC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ff/fields.h"

typedef struct g1_affine { fp x, y; } g1_affine;
typedef struct g1_jacobian { fp x, y, z; } g1_jacobian;
typedef struct g1_xyzz { fp x, y, zz, zzz; } g1_xyzz;

typedef struct g2_affine { fp2 x, y; } g2_affine;
typedef struct g2_jacobian { fp2 x, y, z; } g2_jacobian;
typedef struct g2_xyzz { fp2 x, y, zz, zzz; } g2_xyzz;

/* Declares the API for one group G with coordinate field F. */
#define EC_DECLARE(G, F)                                                                        \
    /* generators (zcash/IETF BLS12-381 G1 and G2 generators) */                                \
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
     * public scalars only; secret ones (the prover's r, s) go through ec_ct.h */               \
    void G##_mul_fr_vartime(G##_jacobian *r, const G##_jacobian *p, const fr *k);               \
    /* out[i] = affine(in[i]) for i < n with one field inversion (Montgomery's trick);           \
     * in and out may not alias. Infinity maps to (0,0). */                                     \
    void G##s_jacobian_to_affine(G##_affine *out, const G##_jacobian *in, size_t n);

EC_DECLARE(g1, fp)
EC_DECLARE(g2, fp2)

/* ---- zcash/bellperson point encodings (DESIGN.md section 3) ------------------------------
 * Big-endian coordinates; Fp2 written c1 then c0. Top 3 bits of byte 0: 0x80 compressed,
 * 0x40 infinity (all other bits zero), 0x20 y is lexicographically largest (compressed only).
 * Sizes: G1 48 (compressed) / 96 (uncompressed), G2 96 / 192.
 * Decoders return one of these and write *r only on EC_DECODE_OK. They check canonical field
 * elements and the curve equation; the subgroup check is separate (g1_affine_is_in_subgroup)
 * so bulk loaders can run it in parallel or skip it. */
typedef enum {
    EC_DECODE_OK = 0,
    EC_DECODE_BAD_FLAGS,      /* compression flag does not match the length, or bad infinity */
    EC_DECODE_NOT_CANONICAL,  /* a coordinate is >= p */
    EC_DECODE_NOT_ON_CURVE,   /* no such point (or x has no square root) */
} ec_decode_result;
const char *ec_decode_result_str(ec_decode_result r);

#define G1_COMPRESSED_BYTES 48
#define G1_UNCOMPRESSED_BYTES 96
#define G2_COMPRESSED_BYTES 96
#define G2_UNCOMPRESSED_BYTES 192

void g1_affine_to_compressed(uint8_t out[48], const g1_affine *p);
void g1_affine_to_uncompressed(uint8_t out[96], const g1_affine *p);
ec_decode_result g1_affine_from_compressed(g1_affine *r, const uint8_t in[48]);
ec_decode_result g1_affine_from_uncompressed(g1_affine *r, const uint8_t in[96]);
void g2_affine_to_compressed(uint8_t out[96], const g2_affine *p);
void g2_affine_to_uncompressed(uint8_t out[192], const g2_affine *p);
ec_decode_result g2_affine_from_compressed(g2_affine *r, const uint8_t in[96]);
ec_decode_result g2_affine_from_uncompressed(g2_affine *r, const uint8_t in[192]);

#endif
