/* snarkjs JSON files (FORMATS.md section 6): proof.json, public.json, verification_key.json.
 * Numbers are decimal strings of canonical (normal-form) field elements; points affine with the
 * projective z written out ("1", or ["1","0"] for G2; infinity as snarkjs writes it:
 * ["0","1","0"] and [["0","0"],["1","0"],["0","0"]]). Uses jansson.
 * Readers check: valid JSON, the expected shape, canonical decimals (< p or < r), "protocol":
 * "groth16", "curve" of the reader's curve ("bls12381"; "bn128" or "bn254") (CUZK_ERR_CURVE otherwise), points on their curves
 * (CUZK_ERR_POINT). Writers return CUZK_ERR_IO when the file cannot be written.
 */
#ifndef CUZK_FORMATS_JSON_H
#define CUZK_FORMATS_JSON_H

#include <stddef.h>

#include "cuzk/cuzk.h"
#include "curves/curve.h"

/* one declaration pass per curve: groth16_proof, bn254_groth16_proof, ... */
#include "curves/bls12_381/ns.h"
#include "formats/json_decl.h"
#include "curves/bn254/ns.h"
#include "formats/json_decl.h"
#include "curves/ns_reset.h"


/* Decimal string of a canonical integer held in n 64-bit limbs (buf >= 160 bytes). */
void limbs_to_decimal(char *buf, size_t cap, const uint64_t *l, int n);
/* Parses a decimal string < mod (n limbs); false if not a number or >= mod. */
bool decimal_to_limbs(uint64_t *l, int n, const char *s, const uint64_t *mod);

#endif
