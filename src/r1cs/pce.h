/* Saved constraint systems ("PCE", pre-compiled constraint evaluator files): a recorded R1CS in
 * the engine's CSR form (r1cs.h), written once per circuit shape and loaded back instead of
 * recording again.
 *
 * Layout (little-endian): "CUZKPCE1" | u32 version (1) | u32 n_constraints | u32 n_vars |
 * u32 n_public | for A, B, C: u32 n_rows | u32 n_coef | u64 nnz | row_ptr (n_rows + 1 u64) |
 * col (nnz u32) | coef_id (nnz u32) | coef (n_coef x 32 bytes, Fr Montgomery limbs) |
 * SHA-256 of everything before it (32 bytes).
 * Thread-safety: reentrant.
 */
#ifndef CUZK_R1CS_PCE_H
#define CUZK_R1CS_PCE_H

#include "r1cs/r1cs.h"

/* Writes cs to path (through a temporary renamed on success). Errors: CUZK_ERR_IO, CUZK_ERR_ARG. */
cuzk_status pce_save(const char *path, const r1cs *cs, cuzk_error *err);
/* Loads a file written by pce_save into *out (caller frees with r1cs_free). Every size, offset,
 * column and coefficient id is checked, and the checksum. Errors: CUZK_ERR_IO, CUZK_ERR_FORMAT
 * (wrong magic, version, truncated, inconsistent, checksum), CUZK_ERR_NOMEM. */
cuzk_status pce_load(r1cs *out, const char *path, cuzk_error *err);

#endif
