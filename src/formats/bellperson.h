/* bellperson Groth16 parameter files (.params, .vk) and the 192-byte proof (DESIGN.md section 5).
 *
 * .params (no header, u32 counts big-endian, points zcash-uncompressed, none at infinity):
 *   vk: alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2; u32 n_ic + ic (G1);
 *   u32 + h (G1); u32 + l (G1); u32 + a (G1); u32 + b_g1 (G1); u32 + b_g2 (G2).
 * .vk is the vk part alone (through ic).
 * proof: A compressed G1 (48) | B compressed G2 (96) | C compressed G1 (48).
 *
 * Loading validates every point (canonical, on curve; subgroup unless check_subgroup is false)
 * and names the section and index of the first bad one (CUZK_ERR_POINT). A size check against
 * the header counts gives CUZK_ERR_FORMAT for truncated or oversized files. Arrays are owned
 * host memory; bellperson_params_free releases them. Not thread-safe per object.
 */
#ifndef CUZK_FORMATS_BELLPERSON_H
#define CUZK_FORMATS_BELLPERSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "formats/json.h"

typedef struct bellperson_params {
    groth16_vk vk;            /* alpha1, beta1, beta2, gamma2, delta1, delta2, ic */
    uint32_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    g1_affine *h;             /* n_h = m - 1: [tau^i Z(tau)/delta]_1 */
    g1_affine *l;             /* n_l = aux variables */
    g1_affine *a;             /* inputs then A-dense aux */
    g1_affine *b_g1;          /* B-dense inputs then B-dense aux */
    g2_affine *b_g2;
} bellperson_params;

cuzk_status bellperson_params_write(const char *path, const bellperson_params *p, cuzk_error *err);
cuzk_status bellperson_params_load(bellperson_params *p, const char *path, bool check_subgroup, cuzk_error *err);
void bellperson_params_free(bellperson_params *p);

cuzk_status bellperson_vk_write(const char *path, const groth16_vk *vk, cuzk_error *err);
cuzk_status bellperson_vk_load(groth16_vk *vk, const char *path, cuzk_error *err);

#define BELLPERSON_PROOF_BYTES 192
void bellperson_proof_encode(uint8_t out[192], const groth16_proof *p);
/* CUZK_ERR_FORMAT for a bad encoding, CUZK_ERR_POINT if off-curve or not in the subgroup. */
cuzk_status bellperson_proof_decode(groth16_proof *p, const uint8_t in[192], cuzk_error *err);

#endif
