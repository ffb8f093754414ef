/* The public in-memory API (include/cuzk/prover.h): its entry points, compiled once. Each checks
 * its arguments, picks the curve (a file's, sniffed without loading it: src/formats/curve_sniff.h;
 * or a handle's curve tag: src/groth16/pk.h) and hands over to that curve's half through the
 * curve's table (groth16_curve_get; the halves are src/groth16/pk_impl.h, instantiated per curve).
 * Bellperson keys and .vk files are BLS12-381's and go to the BLS12-381 functions directly. */
#include "cuzk/prover.h"

#include <stdlib.h>
#include <string.h>

#include "formats/curve_sniff.h"
#include "groth16/pk.h"
#include "util/log.h"

const char *cuzk_curve_name(cuzk_curve c) {
    switch (c) {
    case CUZK_CURVE_BLS12_381: return "bls12-381";
    case CUZK_CURVE_BN254: return "bn254";
    default: return "unknown";
    }
}

const char *cuzk_convention_name(cuzk_convention c) {
    switch (c) {
    case CUZK_CONVENTION_SNARKJS: return "snarkjs";
    case CUZK_CONVENTION_BELLPERSON: return "bellperson";
    default: return "unknown";
    }
}

/* The table of a file's sniffed curve: a curve it cannot tell goes to BLS12-381's loaders, which
 * give the precise error. */
static const groth16_curve *file_curve(cuzk_curve sniffed) {
    const groth16_curve *gc = groth16_curve_get(sniffed);
    return gc ? gc : groth16_curve_get(CUZK_CURVE_BLS12_381);
}

/* ---- proving keys ---------------------------------------------------------------------------- */
static cuzk_status load_zkey_any(cuzk_pk **out, const char *path, const uint8_t *bytes, size_t len,
                                 const cuzk_pk_load_opts *opts, cuzk_error *err) {
    cuzk_pk_load_opts dflt = {0};
    if (!out) return ERR(err, CUZK_ERR_ARG, "cuzk_pk_load_zkey: NULL argument");
    *out = NULL;
    if (!path && !bytes) return ERR(err, CUZK_ERR_ARG, "cuzk_pk_load_zkey: NULL path or bytes");
    const groth16_curve *gc = file_curve(path ? curve_sniff_iden3_file(path) : curve_sniff_iden3(bytes, len));
    return gc->pk_load_zkey(out, path, bytes, len, opts ? opts : &dflt, err);
}

cuzk_status cuzk_pk_load_zkey(cuzk_pk **out, const char *zkey_path, const cuzk_pk_load_opts *opts, cuzk_error *err) {
    if (!zkey_path) {
        if (out) *out = NULL;
        return ERR(err, CUZK_ERR_ARG, "cuzk_pk_load_zkey: NULL path");
    }
    return load_zkey_any(out, zkey_path, NULL, 0, opts, err);
}

cuzk_status cuzk_pk_load_zkey_mem(cuzk_pk **out, const uint8_t *bytes, size_t len, const cuzk_pk_load_opts *opts,
                                  cuzk_error *err) {
    if (!bytes) {
        if (out) *out = NULL;
        return ERR(err, CUZK_ERR_ARG, "cuzk_pk_load_zkey_mem: NULL bytes");
    }
    return load_zkey_any(out, NULL, bytes, len, opts, err);
}

cuzk_status cuzk_pk_load_params(cuzk_pk **out, const char *params_path, const char *r1cs_path,
                                const cuzk_pk_load_opts *opts, cuzk_error *err) {
    if (!params_path || !r1cs_path) {
        if (out) *out = NULL;
        return ERR(err, CUZK_ERR_ARG, "cuzk_pk_load_params: NULL path");
    }
    return groth16_pk_load_params(out, params_path, r1cs_path, NULL, 0, NULL, 0, opts, err);
}

cuzk_status cuzk_pk_load_params_mem(cuzk_pk **out, const uint8_t *params, size_t params_len, const uint8_t *r1cs,
                                    size_t r1cs_len, const cuzk_pk_load_opts *opts, cuzk_error *err) {
    if (!params || !r1cs) {
        if (out) *out = NULL;
        return ERR(err, CUZK_ERR_ARG, "cuzk_pk_load_params_mem: NULL bytes");
    }
    return groth16_pk_load_params(out, NULL, NULL, params, params_len, r1cs, r1cs_len, opts, err);
}

cuzk_pk *cuzk_pk_retain(cuzk_pk *pk) {
    if (pk) atomic_fetch_add(&pk->refs, 1);
    return pk;
}

void cuzk_pk_release(cuzk_pk *pk) {
    if (pk && atomic_fetch_sub(&pk->refs, 1) == 1) groth16_curve_get(pk->curve)->pk_free(pk);
}

cuzk_status cuzk_pk_describe(const cuzk_pk *pk, cuzk_pk_info *out, cuzk_error *err) {
    if (!pk || !out) return ERR(err, CUZK_ERR_ARG, "cuzk_pk_describe: NULL argument");
    return groth16_curve_get(pk->curve)->pk_describe(pk, out);
}

/* ---- provers --------------------------------------------------------------------------------- */
cuzk_status cuzk_prover_create(cuzk_prover **out, cuzk_pk *pk, const cuzk_prover_opts *opts, cuzk_error *err) {
    cuzk_prover_opts dflt = {0};
    const cuzk_prover_opts *o = opts ? opts : &dflt;
    if (!out || !pk) return ERR(err, CUZK_ERR_ARG, "cuzk_prover_create: NULL argument");
    *out = NULL;
    if (o->nthreads < 0 || o->device < 0) return ERR(err, CUZK_ERR_ARG, "cuzk_prover_create: negative thread count or device");
    cuzk_status st = groth16_msm_opts_check(&o->msm, "cuzk_prover_create", err);
    if (st != CUZK_OK) return st;
    return groth16_curve_get(pk->curve)->prover_new(out, pk, o, err);
}

void cuzk_prover_destroy(cuzk_prover *p) {
    if (p) groth16_curve_get(p->curve)->prover_free(p);
}

const char *cuzk_prover_backend_name(const cuzk_prover *p) {
    return p ? groth16_curve_get(p->curve)->prover_backend_name(p) : "none";
}
const cuzk_pk *cuzk_prover_pk(const cuzk_prover *p) { return p ? p->pk : NULL; }

cuzk_status cuzk_witness_count(const cuzk_witness *w, size_t *n_values, cuzk_curve *curve, cuzk_error *err) {
    if (!w || !n_values) return ERR(err, CUZK_ERR_ARG, "cuzk_witness_count: NULL argument");
    *n_values = 0;
    if (curve) *curve = CUZK_CURVE_UNKNOWN;
    if (!w->data) return ERR(err, CUZK_ERR_ARG, "witness: NULL data");
    if (w->form == CUZK_WITNESS_FR_MONT || w->form == CUZK_WITNESS_FR_CANON) {
        if (w->len % CUZK_FR_BYTES != 0 || w->len == 0)
            return ERR(err, CUZK_ERR_ARG, "witness: %zu bytes is not a positive multiple of 32 (one Fr per 32 bytes)", w->len);
        *n_values = w->len / CUZK_FR_BYTES;
        return CUZK_OK;
    }
    if (w->form != CUZK_WITNESS_WTNS) return ERR(err, CUZK_ERR_ARG, "witness: unknown form %d", (int)w->form);
    const groth16_curve *gc = file_curve(curve_sniff_iden3(w->data, w->len));
    cuzk_status st = gc->witness_count(w, n_values, err);
    if (st == CUZK_OK && curve) *curve = gc->id;
    return st;
}

cuzk_status cuzk_prove(cuzk_prover *p, cuzk_proof *out, const cuzk_witness *w, const cuzk_proof_opts *opts,
                       cuzk_prove_timings *t, cuzk_error *err) {
    cuzk_proof_opts dflt = {0};
    if (out) memset(out, 0, sizeof *out);
    if (t) memset(t, 0, sizeof *t);
    if (!p || !out || !w) return ERR(err, CUZK_ERR_ARG, "cuzk_prove: NULL argument");
    return groth16_curve_get(p->curve)->prove(p, out, w, opts ? opts : &dflt, t, err);
}

cuzk_status cuzk_witness_convert(const cuzk_witness *w, cuzk_curve curve, cuzk_witness_form out_form, uint64_t *out,
                                 size_t n_vars, cuzk_error *err) {
    if (!w || !out) return ERR(err, CUZK_ERR_ARG, "cuzk_witness_convert: NULL argument");
    if (out_form != CUZK_WITNESS_FR_MONT && out_form != CUZK_WITNESS_FR_CANON)
        return ERR(err, CUZK_ERR_ARG, "cuzk_witness_convert: the output form is Montgomery or canonical limbs, not %d",
                   (int)out_form);
    if ((uintptr_t)out % 8 != 0) return ERR(err, CUZK_ERR_ARG, "cuzk_witness_convert: out must be 8-byte aligned");
    const groth16_curve *gc = groth16_curve_get(curve);
    if (!gc)
        return ERR(err, CUZK_ERR_UNSUPPORTED, "cuzk_witness_convert: curve %s is not in this build", cuzk_curve_name(curve));
    return gc->witness_convert(w, out_form, out, n_vars, err);
}

/* ---- proofs ---------------------------------------------------------------------------------- */
cuzk_status cuzk_proof_from_bytes(cuzk_proof *out, cuzk_curve curve, const uint8_t *proof, size_t proof_len,
                                  const uint8_t *public_inputs, uint32_t n_public, cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!out || !proof || (n_public && !public_inputs)) return ERR(err, CUZK_ERR_ARG, "cuzk_proof_from_bytes: NULL argument");
    const groth16_curve *gc = groth16_curve_get(curve);
    if (!gc) return ERR(err, CUZK_ERR_ARG, "cuzk_proof_from_bytes: unknown curve %d", (int)curve);
    return gc->proof_from_bytes(out, proof, proof_len, public_inputs, n_public, err);
}

size_t cuzk_proof_bytes(cuzk_curve curve) {
    const groth16_curve *gc = groth16_curve_get(curve);
    return gc ? gc->proof_bytes : 0;
}

cuzk_status cuzk_proof_from_bellperson(cuzk_proof *out, const uint8_t proof[CUZK_PROOF_BELLPERSON_BYTES],
                                       const uint8_t *public_inputs, uint32_t n_public, cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!out || !proof || (n_public && !public_inputs))
        return ERR(err, CUZK_ERR_ARG, "cuzk_proof_from_bellperson: NULL argument");
    return cuzk_proof_from_bytes(out, CUZK_CURVE_BLS12_381, proof, CUZK_PROOF_BELLPERSON_BYTES, public_inputs, n_public,
                                 err);
}

void cuzk_proof_free(cuzk_proof *proof) {
    if (!proof) return;
    free(proof->proof_json);
    free(proof->public_json);
    free(proof->public_inputs);
    memset(proof, 0, sizeof *proof);
}

/* ---- verification ---------------------------------------------------------------------------- */
cuzk_status cuzk_vk_load_json(cuzk_vk **out, const char *json, size_t len, cuzk_error *err) {
    if (!out || !json) return ERR(err, CUZK_ERR_ARG, "cuzk_vk_load_json: NULL argument");
    *out = NULL;
    return file_curve(curve_sniff_json(json, len))->vk_load_json(out, json, len, err);
}

cuzk_status cuzk_vk_load_zkey(cuzk_vk **out, const char *zkey_path, cuzk_error *err) {
    if (!out || !zkey_path) return ERR(err, CUZK_ERR_ARG, "cuzk_vk_load_zkey: NULL argument");
    *out = NULL;
    return file_curve(curve_sniff_iden3_file(zkey_path))->vk_load_zkey(out, zkey_path, err);
}

cuzk_status cuzk_vk_json(const cuzk_vk *vk, char **json, size_t *len, cuzk_error *err) {
    if (json) *json = NULL;
    if (len) *len = 0;
    if (!vk || !json) return ERR(err, CUZK_ERR_ARG, "cuzk_vk_json: NULL argument");
    return groth16_curve_get(vk->curve)->vk_json(vk, json, len, err);
}

cuzk_status cuzk_vk_load_bellperson(cuzk_vk **out, const uint8_t *bytes, size_t len, cuzk_error *err) {
    if (!out || !bytes) return ERR(err, CUZK_ERR_ARG, "cuzk_vk_load_bellperson: NULL argument");
    *out = NULL;
    return groth16_vk_load_bellperson(out, bytes, len, err);
}

cuzk_status cuzk_vk_from_pk(cuzk_vk **out, const cuzk_pk *pk, cuzk_error *err) {
    if (!out || !pk) return ERR(err, CUZK_ERR_ARG, "cuzk_vk_from_pk: NULL argument");
    *out = NULL;
    return groth16_curve_get(pk->curve)->vk_from_pk(out, pk, err);
}

uint32_t cuzk_vk_n_public(const cuzk_vk *vk) { return vk ? groth16_curve_get(vk->curve)->vk_n_public(vk) : 0; }

void cuzk_vk_free(cuzk_vk *vk) {
    if (vk) groth16_curve_get(vk->curve)->vk_free(vk);
}

cuzk_status cuzk_verify(const cuzk_vk *vk, cuzk_public_form public_form, const void *public_inputs, size_t public_len,
                        cuzk_proof_form proof_form, const void *proof, size_t proof_len, cuzk_error *err) {
    if (!vk || !proof || (!public_inputs && public_len)) return ERR(err, CUZK_ERR_ARG, "cuzk_verify: NULL argument");
    return groth16_curve_get(vk->curve)->verify(vk, public_form, public_inputs, public_len, proof_form, proof, proof_len,
                                                 err);
}
