/* Groth16 verifier (src/groth16/groth16.h) of one curve: a template, instantiated per curve
 * (src/groth16/groth16_<curve>.c); every curve-dependent name is CN(name). */
#include "groth16/groth16.h"

#include "curves/curve.h"
#include "util/log.h"

cuzk_status CN(groth16_verify)(const CN(groth16_vk) *vk, const CN(fr) *pub, size_t n_pub, const CN(groth16_proof) *p,
                               cuzk_error *err) {
    if (!vk || !p || (n_pub && !pub)) return ERR(err, CUZK_ERR_ARG, "groth16_verify: NULL argument");
    if (n_pub != vk->n_public) {
        ERR(err, CUZK_ERR_MISMATCH, "%zu public inputs given, the verification key expects %u", n_pub, vk->n_public);
        if (err) err->detail = CUZK_DETAIL_PUBLIC_COUNT;
        return CUZK_ERR_MISMATCH;
    }
    /* A key with a point at infinity is degenerate: gamma or delta at infinity makes its pairing
     * factor 1, alpha and the IC at infinity accept the all-infinity proof for any public input.
     * Such keys are refused as bad keys (not reported as invalid proofs), as bellperson does, and
     * a proof with a point at infinity is an invalid proof, its point named (as one off the curve). beta1 and
     * delta1 are not used here (snarkjs's JSON has none). */
    if (CN(g1_affine_is_infinity)(&vk->alpha1))
        return ERR(err, CUZK_ERR_POINT, "verification key: alpha1 is the point at infinity (a degenerate key)");
    if (CN(g2_affine_is_infinity)(&vk->beta2))
        return ERR(err, CUZK_ERR_POINT, "verification key: beta2 is the point at infinity (a degenerate key)");
    if (CN(g2_affine_is_infinity)(&vk->gamma2))
        return ERR(err, CUZK_ERR_POINT, "verification key: gamma2 is the point at infinity (a degenerate key)");
    if (CN(g2_affine_is_infinity)(&vk->delta2))
        return ERR(err, CUZK_ERR_POINT, "verification key: delta2 is the point at infinity (a degenerate key)");
    for (size_t i = 0; i <= n_pub; i++)
        if (CN(g1_affine_is_infinity)(&vk->ic[i]))
            return ERR(err, CUZK_ERR_POINT, "verification key: IC[%zu] is the point at infinity (a degenerate key)", i);
    if (CN(g1_affine_is_infinity)(&p->a)) return ERR(err, CUZK_ERR_INVALID, "proof point A is the point at infinity");
    if (CN(g2_affine_is_infinity)(&p->b)) return ERR(err, CUZK_ERR_INVALID, "proof point B is the point at infinity");
    if (CN(g1_affine_is_infinity)(&p->c)) return ERR(err, CUZK_ERR_INVALID, "proof point C is the point at infinity");
    if (!CN(g1_affine_is_on_curve)(&p->a) || !CN(g1_affine_is_in_subgroup)(&p->a))
        return ERR(err, CUZK_ERR_INVALID, "proof point A is not in G1");
    if (!CN(g2_affine_is_on_curve)(&p->b) || !CN(g2_affine_is_in_subgroup)(&p->b))
        return ERR(err, CUZK_ERR_INVALID, "proof point B is not in G2");
    if (!CN(g1_affine_is_on_curve)(&p->c) || !CN(g1_affine_is_in_subgroup)(&p->c))
        return ERR(err, CUZK_ERR_INVALID, "proof point C is not in G1");

    /* acc = ic_0 + sum pub_i ic_{i+1} */
    CN(g1_jacobian) acc, t;
    CN(g1_jacobian_from_affine)(&acc, &vk->ic[0]);
    for (size_t i = 0; i < n_pub; i++) {
        CN(g1_jacobian_from_affine)(&t, &vk->ic[i + 1]);
        CN(g1_mul_fr_vartime)(&t, &t, &pub[i]);
        CN(g1_jacobian_add)(&acc, &acc, &t);
    }
    CN(g1_affine) ps[4];
    CN(g2_affine) qs[4];
    CN(g1_affine_neg)(&ps[0], &p->a);
    qs[0] = p->b;
    ps[1] = vk->alpha1;
    qs[1] = vk->beta2;
    CN(g1_jacobian_to_affine)(&ps[2], &acc);
    qs[2] = vk->gamma2;
    ps[3] = p->c;
    qs[3] = vk->delta2;
    CN(fp12) e;
    CN(pairing_multi)(&e, ps, qs, 4);
    if (!CN(fp12_is_one)(&e))
        return ERR(err, CUZK_ERR_INVALID, "pairing check failed: e(A,B) != e(alpha,beta) e(IC,gamma) e(C,delta)");
    return CUZK_OK;
}
