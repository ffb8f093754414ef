/* BLS12-381 G2: the M-twist E'(Fp2): y^2 = x^3 + 4(1 + u), the generic group law of
 * src/ec/curve_impl.h instantiated over Fp2, plus the G2 generator and the fast subgroup check.
 * See src/ec/ec.h and src/curves/bls12_381/curve.h for the API.
 *
 * Constants are Montgomery form (R = 2^384), limbs little-endian, Fp2 = c0 + c1 u; canonical
 * values in the comments. tests/test_ec.c checks them (generator against the zcash compressed
 * test vector; the psi coefficients by recomputing them from their definition).
 * Thread-safety: pure functions.
 */
#include "curves/bls12_381/curve.h"

#include <string.h>

/* b = 4(1 + u) = 4 + 4u */
static const fp2 G2_B_MONT = {
    {{0xaa270000000cfff3ull, 0x53cc0032fc34000aull, 0x478fe97a6b0a807full, 0xb1d37ebee6ba24d7ull,
      0x8ec9733bbf78ab2full, 0x09d645513d83de7eull}},
    {{0xaa270000000cfff3ull, 0x53cc0032fc34000aull, 0x478fe97a6b0a807full, 0xb1d37ebee6ba24d7ull,
      0x8ec9733bbf78ab2full, 0x09d645513d83de7eull}},
};

static void g2_curve_b(fp2 *b) { *b = G2_B_MONT; }

#define EC_G g2
#define EC_F fp2
#define EC_FR fr
#include "ec/curve_impl.h"
#undef EC_FR
#undef EC_F
#undef EC_G

/* the zcash/IETF generator (src/curves/bls12_381/constants.h: x.c0, x.c1, y.c0, y.c1, Montgomery
 * limbs) */
static const uint64_t G2_GENERATOR_MONT[24] = BLS12_381_G2_GENERATOR_MONT;
_Static_assert(sizeof(G2_GENERATOR_MONT) == sizeof(g2_affine), "g2_affine is x.c0, x.c1, y.c0, y.c1 limbs");

void g2_generator(g2_affine *r) { memcpy(r, G2_GENERATOR_MONT, sizeof *r); }

/* psi = untwist o Frobenius o twist: psi(x, y) = (conj(x) cx, conj(y) cy) with
 * cx = 1/(1+u)^((p-1)/3) = 0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad u
 * cy = 1/(1+u)^((p-1)/2) = 0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2
 *                        + 0x06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09 u
 * (the same map as zkcrypto/bls12_381 g2.rs psi). */
static const fp2 G2_PSI_CX_MONT = {
    {{0, 0, 0, 0, 0, 0}},
    {{0x890dc9e4867545c3ull, 0x2af322533285a5d5ull, 0x50880866309b7e2cull, 0xa20d1b8c7e881024ull,
      0x14e4f04fe2db9068ull, 0x14e56d3f1564853aull}},
};
static const fp2 G2_PSI_CY_MONT = {
    {{0x3e2f585da55c9ad1ull, 0x4294213d86c18183ull, 0x382844c88b623732ull, 0x92ad2afd19103e18ull,
      0x1d794e4fac7cf0b9ull, 0x0bd592fc7d825ec8ull}},
    {{0x7bcfa7a25aa30fdaull, 0xdc17dec12a927e7cull, 0x2f088dd86b4ebef1ull, 0xd1ca2087da74d4a7ull,
      0x2da2596696cebc1dull, 0x0e2b7eedbbfd87d2ull}},
};

/* |x| = 0xd201000000010000, x = -|x| */
static const uint64_t BLS_X_ABS = 0xd201000000010000ull;

/* Scott, eprint 2021/1130 section 4 (BLS12): a point P on E'(Fp2) lies in G2 iff
 * psi(P) == [x]P (psi applied to the affine input, compared in Jacobian coordinates, so no
 * inversion). Cost: one 64-bit scalar multiplication instead of one 255-bit. */
bool g2_affine_is_in_subgroup(const g2_affine *p) {
    if (g2_affine_is_infinity(p)) return true;
    g2_jacobian j, t, psi;
    g2_jacobian_from_affine(&j, p);
    g2_mul_vartime(&t, &j, &BLS_X_ABS, 1);
    g2_jacobian_neg(&t, &t); /* [x]P, x < 0 */
    fp2_conj(&psi.x, &p->x);
    fp2_mul(&psi.x, &psi.x, &G2_PSI_CX_MONT);
    fp2_conj(&psi.y, &p->y);
    fp2_mul(&psi.y, &psi.y, &G2_PSI_CY_MONT);
    fp2_one(&psi.z);
    return g2_jacobian_eq(&psi, &t);
}
