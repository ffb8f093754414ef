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

/* zcash/IETF generator (draft-irtf-cfrg-pairing-friendly-curves, BLS12-381 G2):
 * x.c0 = 0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8
 * x.c1 = 0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e
 * y.c0 = 0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801
 * y.c1 = 0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be */
static const g2_affine G2_GENERATOR_MONT = {
    {{{0xf5f28fa202940a10ull, 0xb3f5fb2687b4961aull, 0xa1a893b53e2ae580ull, 0x9894999d1a3caee9ull,
       0x6f67b7631863366bull, 0x058191924350bcd7ull}},
     {{0xa5a9c0759e23f606ull, 0xaaa0c59dbccd60c3ull, 0x3bb17e18e2867806ull, 0x1b1ab6cc8541b367ull,
       0xc2b6ed0ef2158547ull, 0x11922a097360edf3ull}}},
    {{{0x4c730af860494c4aull, 0x597cfa1f5e369c5aull, 0xe7e6856caa0a635aull, 0xbbefb5e96e0d495full,
       0x07d3a975f0ef25a2ull, 0x0083fd8e7e80dae5ull}},
     {{0xadc0fc92df64b05dull, 0x18aa270a2b1461dcull, 0x86adac6a3be4eba0ull, 0x79495c4ec93da33aull,
       0xe7175850a43ccaedull, 0x0b2bc2a163de1bf2ull}}},
};

void g2_generator(g2_affine *r) { *r = G2_GENERATOR_MONT; }

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
