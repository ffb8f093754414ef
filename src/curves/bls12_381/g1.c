/* BLS12-381 G1: E(Fp): y^2 = x^3 + 4, the generic group law of src/ec/curve_impl.h instantiated
 * over Fp, plus the G1 generator and the fast subgroup check. See src/ec/ec.h and src/curves/bls12_381/curve.h for the API.
 *
 * Constants are Montgomery form (R = 2^384), limbs little-endian; their canonical values are in
 * the comments and tests/test_ec.c checks them (generator against the zcash compressed test
 * vector, beta^3 = 1). Thread-safety: pure functions.
 */
#include "curves/bls12_381/curve.h"

#include <string.h>

/* b = 4 */
static const fp G1_B_MONT = {{0xaa270000000cfff3ull, 0x53cc0032fc34000aull, 0x478fe97a6b0a807full,
                              0xb1d37ebee6ba24d7ull, 0x8ec9733bbf78ab2full, 0x09d645513d83de7eull}};

static void g1_curve_b(fp *b) { *b = G1_B_MONT; }

#define EC_G g1
#define EC_F fp
#define EC_FR fr
#include "ec/curve_impl.h"
#undef EC_FR
#undef EC_F
#undef EC_G

/* the zcash/IETF generator (src/curves/bls12_381/constants.h: x, y, Montgomery limbs) */
static const uint64_t G1_GENERATOR_MONT[12] = BLS12_381_G1_GENERATOR_MONT;
_Static_assert(sizeof(G1_GENERATOR_MONT) == sizeof(g1_affine), "g1_affine is x, y limbs");

void g1_generator(g1_affine *r) { memcpy(r, G1_GENERATOR_MONT, sizeof *r); }

/* beta: the cube root of unity in Fp for which phi(x, y) = (beta x, y) acts on G1 as [-x^2]
 * (x the BLS parameter). beta = 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe
 * = (-1 + sqrt(-3))/2 (the same constant as zkcrypto/bls12_381's BETA). The other root, beta^2,
 * gives the eigenvalue x^2 - 1 instead; tests/test_ec.c checks which one is right. */
static const fp G1_BETA_MONT = {{0x30f1361b798a64e8ull, 0xf3b8ddab7ece5a2aull, 0x16a8ca3ac61577f7ull,
                                 0xc26a2ff874fd029bull, 0x3636b76660701c6eull, 0x051ba4ab241b6160ull}};

/* |x| = 0xd201000000010000, x = -|x| */
static const uint64_t BLS_X_ABS = 0xd201000000010000ull;

/* Scott, "A note on group membership tests for G1, G2 and GT on BLS pairing-friendly curves",
 * eprint 2021/1130 section 6 (proof corrected in eprint 2022/352): a point P on E(Fp) lies in
 * G1 iff phi(P) == -[x^2]P. Cost: two 64-bit scalar multiplications instead of one 255-bit. */
bool g1_affine_is_in_subgroup(const g1_affine *p) {
    if (g1_affine_is_infinity(p)) return true;
    g1_jacobian j, t, phi;
    g1_jacobian_from_affine(&j, p);
    g1_mul_vartime(&t, &j, &BLS_X_ABS, 1);
    g1_mul_vartime(&t, &t, &BLS_X_ABS, 1); /* [x^2]P ([|x|]^2 = [x^2]) */
    g1_jacobian_neg(&t, &t);
    phi = j;
    fp_mul(&phi.x, &phi.x, &G1_BETA_MONT);
    return g1_jacobian_eq(&phi, &t);
}
