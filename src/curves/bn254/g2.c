/* BN254 G2: the D-type twist E'(Fp2): y^2 = x^3 + 3/(9 + u), the generic group law of
 * src/ec/curve_impl.h over Fp2, the EIP-197 generator and the subgroup check.
 * #E'(Fp2) = h2 r with h2 = 2p - r, so points on the twist outside G2 exist and are refused.
 * Thread-safety: pure functions.
 */
#include "curves/bn254/curve.h"

static const bn254_fp2 BN254_G2_B = BN254_G2_B_MONT;

static void bn254_g2_curve_b(bn254_fp2 *b) { *b = BN254_G2_B; }

#define EC_G bn254_g2
#define EC_F bn254_fp2
#define EC_FR bn254_fr
#include "ec/curve_impl.h"
#undef EC_FR
#undef EC_F
#undef EC_G

static const bn254_g2_affine BN254_G2_GENERATOR = BN254_G2_GENERATOR_MONT;

void bn254_g2_generator(bn254_g2_affine *r) { *r = BN254_G2_GENERATOR; }

static const bn254_fp2 BN254_PSI_CX = BN254_PSI_CX_MONT;
static const bn254_fp2 BN254_PSI_CY = BN254_PSI_CY_MONT;
static const uint64_t BN254_6U2[2] = BN254_6U2_INIT;

/* psi = untwist o Frobenius o twist: psi(x, y) = (conj(x) xi^((p-1)/3), conj(y) xi^((p-1)/2)).
 * On G2 it acts as [p] = [6u^2] (p - r = 6u^2). Membership test of Dai, Lin, Zhao, Zhou, "Fast
 * subgroup membership testings for G1, G2 and GT on pairing-friendly curves" (ePrint 2022/348,
 * BN curves): Q in E'(Fp2) lies in G2 iff psi(Q) == [6u^2] Q. One 127-bit scalar multiplication
 * instead of a 254-bit one; tests/test_bn254.c checks it against [r]Q == O on points inside and
 * outside G2. Assumes Q is on the twist. */
bool bn254_g2_affine_is_in_subgroup(const bn254_g2_affine *p) {
    if (bn254_g2_affine_is_infinity(p)) return true;
    bn254_g2_jacobian j, t, psi;
    bn254_g2_jacobian_from_affine(&j, p);
    bn254_g2_mul_vartime(&t, &j, BN254_6U2, 2);
    bn254_fp2_conj(&psi.x, &p->x);
    bn254_fp2_mul(&psi.x, &psi.x, &BN254_PSI_CX);
    bn254_fp2_conj(&psi.y, &p->y);
    bn254_fp2_mul(&psi.y, &psi.y, &BN254_PSI_CY);
    bn254_fp2_one(&psi.z);
    return bn254_g2_jacobian_eq(&psi, &t);
}

/* ---- snarkjs LEM encodings (curve.h) ----------------------------------------------------- */

static bool fp_from_lem(bn254_fp *r, const uint8_t in[32]) {
    uint64_t l[4];
    for (int i = 0; i < 4; i++) {
        l[i] = 0;
        for (int k = 0; k < 8; k++) l[i] |= (uint64_t)in[8 * i + k] << (8 * k);
    }
    if (!bn254_fp_is_canon(l)) return false; /* Montgomery values are < p as well */
    memcpy(r->l, l, sizeof l);
    return true;
}

static void fp_to_lem(uint8_t out[32], const bn254_fp *a) {
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 8; k++) out[8 * i + k] = (uint8_t)(a->l[i] >> (8 * k));
}

ec_decode_result bn254_g1_affine_from_lem(bn254_g1_affine *r, const uint8_t in[64]) {
    bn254_g1_affine t;
    if (!fp_from_lem(&t.x, in) || !fp_from_lem(&t.y, in + 32)) return EC_DECODE_NOT_CANONICAL;
    if (!bn254_g1_affine_is_on_curve(&t)) return EC_DECODE_NOT_ON_CURVE;
    *r = t;
    return EC_DECODE_OK;
}

ec_decode_result bn254_g2_affine_from_lem(bn254_g2_affine *r, const uint8_t in[128]) {
    bn254_g2_affine t;
    if (!fp_from_lem(&t.x.c0, in) || !fp_from_lem(&t.x.c1, in + 32) || !fp_from_lem(&t.y.c0, in + 64) ||
        !fp_from_lem(&t.y.c1, in + 96))
        return EC_DECODE_NOT_CANONICAL;
    if (!bn254_g2_affine_is_on_curve(&t)) return EC_DECODE_NOT_ON_CURVE;
    if (!bn254_g2_affine_is_in_subgroup(&t)) return EC_DECODE_NOT_IN_SUBGROUP;
    *r = t;
    return EC_DECODE_OK;
}

void bn254_g1_affine_to_lem(uint8_t out[64], const bn254_g1_affine *p) {
    fp_to_lem(out, &p->x);
    fp_to_lem(out + 32, &p->y);
}

void bn254_g2_affine_to_lem(uint8_t out[128], const bn254_g2_affine *p) {
    fp_to_lem(out, &p->x.c0);
    fp_to_lem(out + 32, &p->x.c1);
    fp_to_lem(out + 64, &p->y.c0);
    fp_to_lem(out + 96, &p->y.c1);
}
