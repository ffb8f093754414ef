/* snarkjs JSON files (FORMATS.md section 6): proof.json, public.json, verification_key.json.
 * Numbers are decimal strings of canonical (normal-form) field elements; points affine with the
 * projective z written out ("1", or ["1","0"] for G2; infinity as snarkjs writes it:
 * ["0","1","0"] and [["0","0"],["1","0"],["0","0"]]). Uses jansson.
 * Readers check: valid JSON, the expected shape, canonical decimals (< p or < r), "protocol":
 * "groth16", "curve": "bls12381" (CUZK_ERR_CURVE otherwise), points on their curves
 * (CUZK_ERR_POINT). Writers return CUZK_ERR_IO when the file cannot be written.
 */
#ifndef CUZK_FORMATS_JSON_H
#define CUZK_FORMATS_JSON_H

#include <stddef.h>

#include "cuzk/cuzk.h"
#include "curves/curve.h"

typedef struct groth16_proof {
    g1_affine a;
    g2_affine b;
    g1_affine c;
} groth16_proof;

typedef struct groth16_vk {
    g1_affine alpha1;
    g1_affine beta1;    /* not in snarkjs's JSON (zeroed there); present in bellperson's vk */
    g2_affine beta2, gamma2;
    g1_affine delta1;   /* likewise bellperson only */
    g2_affine delta2;
    uint32_t n_public;  /* public inputs; ic has n_public + 1 points */
    g1_affine *ic;      /* owned; free with groth16_vk_free */
} groth16_vk;
void groth16_vk_free(groth16_vk *vk);

cuzk_status proof_json_write(const char *path, const groth16_proof *p, cuzk_error *err);
cuzk_status proof_json_read(groth16_proof *p, const char *path, cuzk_error *err);
/* public.json: n values (Fr, Montgomery in memory). read allocates *out (caller frees). */
cuzk_status public_json_write(const char *path, const fr *pub, size_t n, cuzk_error *err);
cuzk_status public_json_read(fr **out, size_t *n, const char *path, cuzk_error *err);
/* verification_key.json. The writer also writes vk_alphabeta_12 = e(alpha1, beta2) (computed
 * with src/curves/bls12_381/curve.h, as snarkjs does); readers ignore it. */
cuzk_status vk_json_read(groth16_vk *vk, const char *path, cuzk_error *err);
cuzk_status vk_json_write(const char *path, const groth16_vk *vk, cuzk_error *err);

/* The readers above over len bytes of memory (JSON text, need not be NUL-terminated); name
 * stands for the path in messages (NULL: "<memory>"). Same checks and statuses. */
cuzk_status proof_json_read_mem(groth16_proof *p, const char *data, size_t len, const char *name, cuzk_error *err);
cuzk_status public_json_read_mem(fr **out, size_t *n, const char *data, size_t len, const char *name, cuzk_error *err);
cuzk_status vk_json_read_mem(groth16_vk *vk, const char *data, size_t len, const char *name, cuzk_error *err);
/* proof.json / public.json as the writers above write them, as malloc'd NUL-terminated text
 * (caller frees); NULL when out of memory. */
char *proof_json_text(const groth16_proof *p);
char *public_json_text(const fr *pub, size_t n);

/* Decimal string of a canonical integer held in n 64-bit limbs (buf >= 160 bytes). */
void limbs_to_decimal(char *buf, size_t cap, const uint64_t *l, int n);
/* Parses a decimal string < mod (n limbs); false if not a number or >= mod. */
bool decimal_to_limbs(uint64_t *l, int n, const char *s, const uint64_t *mod);

/* Reads a proof.json (is_vk 0) or verification_key.json (is_vk 1) file of this compile's curve and
 * frees it: the checks of the readers above (values canonical, points on their curves and in their
 * subgroups). For `cuzk info`. bn254_json_check_file is the BN254 compile's (src/curves/curve.h). */
cuzk_status json_check_file(const char *path, int is_vk, cuzk_error *err);
#ifndef CUZK_CURVE_BOUND_BN254
cuzk_status bn254_json_check_file(const char *path, int is_vk, cuzk_error *err);
#endif

#endif
