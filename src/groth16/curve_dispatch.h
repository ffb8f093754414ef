/* The BN254 instance of the public API (include/cuzk/prover.h, include/cuzk/groth16.h): the same
 * sources (src/groth16/prover_api.c and everything under it, CUZK_CURVE_GENERIC_SRC in
 * CMakeLists.txt) compiled a second time for BN254, every global name prefixed bn254_
 * (src/curves/bn254/upper.h). The public functions (the BLS12-381 compile) dispatch to these when
 * a file, key, prover or vk is BN254. Internal: included by the BLS12-381 compile only.
 */
#ifndef CUZK_GROTH16_CURVE_DISPATCH_H
#define CUZK_GROTH16_CURVE_DISPATCH_H

#include "cuzk/prover.h"

cuzk_status bn254_cuzk_pk_load_zkey(cuzk_pk **out, const char *zkey_path, const cuzk_pk_load_opts *opts, cuzk_error *err);
cuzk_status bn254_cuzk_pk_load_zkey_mem(cuzk_pk **out, const uint8_t *bytes, size_t len, const cuzk_pk_load_opts *opts,
                                        cuzk_error *err);
cuzk_pk *bn254_cuzk_pk_retain(cuzk_pk *pk);
void bn254_cuzk_pk_release(cuzk_pk *pk);
cuzk_status bn254_cuzk_pk_describe(const cuzk_pk *pk, cuzk_pk_info *out, cuzk_error *err);
cuzk_status bn254_cuzk_prover_create(cuzk_prover **out, cuzk_pk *pk, const cuzk_prover_opts *opts, cuzk_error *err);
void bn254_cuzk_prover_destroy(cuzk_prover *p);
const char *bn254_cuzk_prover_backend_name(const cuzk_prover *p);
cuzk_status bn254_cuzk_prove(cuzk_prover *p, cuzk_proof *out, const cuzk_witness *w, const cuzk_proof_opts *opts,
                             cuzk_prove_timings *t, cuzk_error *err);
cuzk_status bn254_cuzk_witness_convert(const cuzk_witness *w, cuzk_curve curve, cuzk_witness_form out_form,
                                       uint64_t *out, size_t n_vars, cuzk_error *err);
cuzk_status bn254_cuzk_vk_load_json(cuzk_vk **out, const char *json, size_t len, cuzk_error *err);
cuzk_status bn254_cuzk_vk_from_pk(cuzk_vk **out, const cuzk_pk *pk, cuzk_error *err);
uint32_t bn254_cuzk_vk_n_public(const cuzk_vk *vk);
void bn254_cuzk_vk_free(cuzk_vk *vk);
cuzk_status bn254_cuzk_verify(const cuzk_vk *vk, cuzk_public_form public_form, const void *public_inputs,
                              size_t public_len, cuzk_proof_form proof_form, const void *proof, size_t proof_len,
                              cuzk_error *err);
/* groth16_setup_zkey_r1cs (src/groth16/setup.h) of the BN254 compile: cuzk_setup's path for a
 * bn128 .r1cs (src/groth16/setup_api.c) */
struct groth16_setup_run;
cuzk_status bn254_groth16_setup_zkey_r1cs(const char *r1cs_path, const uint64_t *seed, const char *zkey_path,
                                          const struct groth16_setup_run *run, cuzk_error *err);
/* the BN254 compile's per-curve table (src/groth16/prove.h; groth16_curve_get hands it out) */
struct groth16_curve;
extern const struct groth16_curve bn254_groth16_curve_table;
cuzk_status bn254_cuzk_proof_from_bytes(cuzk_proof *out, cuzk_curve curve, const uint8_t *proof, size_t proof_len,
                                        const uint8_t *public_inputs, uint32_t n_public, cuzk_error *err);
cuzk_status bn254_cuzk_witness_count(const cuzk_witness *w, size_t *n_values, cuzk_curve *curve, cuzk_error *err);

#endif
