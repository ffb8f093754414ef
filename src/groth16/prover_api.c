/* The public in-memory API (include/cuzk/prover.h) over the prover orchestration
 * (src/groth16/prove.h). */
#include "cuzk/prover.h"

#include <stdlib.h>
#include <string.h>

#include "formats/bellperson.h"
#include "formats/json.h"
#include "formats/snarkjs.h"
#include "groth16/pk.h"
#include "groth16/prover_internal.h"
#include "util/log.h"
#include "util/timer.h"

/* This file is compiled once per curve (CMakeLists.txt, CUZK_CURVE_GENERIC_SRC). The BLS12-381
 * compile holds the public functions; each of them hands BN254 files and handles to the BN254
 * compile (bn254_cuzk_*, src/groth16/curve_dispatch.h). Handles of both compiles share their
 * layout up to the curve tag (cuzk_pk: refs, key.curve; cuzk_prover: pk; cuzk_vk: curve). */
#ifndef CUZK_CURVE_BOUND_BN254
#include "formats/curve_sniff.h"
#include "groth16/curve_dispatch.h"
#define TO_BN254(cond, call) \
    do {                      \
        if (cond) return bn254_##call; \
    } while (0)
#endif

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

/* ---- proving keys ---------------------------------------------------------------------------- */
static size_t csr_bytes(const csr_matrix *m) {
    return 8 * ((size_t)m->n_rows + 1) + 8 * (size_t)m->nnz + sizeof(fr) * (size_t)m->n_coef;
}
static size_t r1cs_bytes(const r1cs *cs) { return csr_bytes(&cs->a) + csr_bytes(&cs->b) + csr_bytes(&cs->c); }

static void pk_free(cuzk_pk *pk) {
    if (!pk) return;
    zkey_free(&pk->z);
#ifndef CUZK_CURVE_BOUND_BN254
    bellperson_params_free(&pk->p);
#endif
    r1cs_free(&pk->cs); /* zeroed when not owned (wrapped keys, zkeys without their r1cs) */
    if (pk->owner_free) pk->owner_free(pk->owner);
    free(pk);
}

/* The loaders of this compile accept this compile's curve only (other primes: CUZK_ERR_CURVE); a
 * request for another curve than the file's is refused before any work. */
static cuzk_status check_curve_request(const cuzk_pk_load_opts *o, cuzk_error *err) {
    if (o->curve == CUZK_CURVE_UNKNOWN || o->curve == CURVE_ID) return CUZK_OK;
    if (o->curve == CUZK_CURVE_BN254 || o->curve == CUZK_CURVE_BLS12_381)
        return ERR(err, CUZK_ERR_CURVE, "the key file is for %s, but %s was requested", cuzk_curve_name(CURVE_ID),
                   cuzk_curve_name(o->curve));
    return ERR(err, CUZK_ERR_ARG, "unknown curve %d", (int)o->curve);
}

static cuzk_status pk_new(cuzk_pk **out, cuzk_error *err) {
    *out = calloc(1, sizeof **out);
    if (!*out) return ERR(err, CUZK_ERR_NOMEM, "proving key");
    atomic_init(&(*out)->refs, 1);
    (*out)->key.curve = CURVE_ID;
    return CUZK_OK;
}

/* opts.expect_n_vars against the key's circuit (name: what the message calls it) */
static cuzk_status check_expected_vars(const cuzk_pk_load_opts *o, size_t n_vars, const char *name, cuzk_error *err) {
    if (!o->expect_n_vars || o->expect_n_vars == n_vars) return CUZK_OK;
    return ERR(err, CUZK_ERR_MISMATCH, "%s has %zu wires but the witness has %zu values (wrong witness for this circuit?)",
               name, n_vars, o->expect_n_vars);
}

/* zkey loaded into pk->z: optional circuit, views, sizes */
static cuzk_status zkey_finish(cuzk_pk *pk, const cuzk_pk_load_opts *o, cuzk_error *err) {
    cuzk_status st;
    if (o->r1cs_path && o->r1cs_bytes) return ERR(err, CUZK_ERR_ARG, "give the r1cs as a path or as bytes, not both");
    if (o->r1cs_path || o->r1cs_bytes) {
        st = o->r1cs_path ? r1cs_load(&pk->cs, o->r1cs_path, err)
                          : r1cs_load_mem(&pk->cs, o->r1cs_bytes, o->r1cs_len, "<r1cs in memory>", err);
        if (st != CUZK_OK) return st;
        pk->has_cs = 1;
        if (pk->cs.n_vars != pk->z.n_vars || pk->cs.n_public != pk->z.n_public)
            return ERR(err, CUZK_ERR_MISMATCH, "the r1cs (%u wires, %u public) does not belong to the zkey (%u wires, %u public)",
                       pk->cs.n_vars, pk->cs.n_public, pk->z.n_vars, pk->z.n_public);
    }
    const zkey *z = &pk->z;
    pk->key.convention = CUZK_CONVENTION_SNARKJS;
    pk->key.z = &pk->z;
    pk->key.cs = pk->has_cs ? &pk->cs : NULL;
    pk->host_bytes = sizeof *pk + ((size_t)z->n_public + 1 + 2 * (size_t)z->n_vars + z->n_vars + z->domain_size) * sizeof(g1_affine) +
                     (size_t)z->n_vars * sizeof(g2_affine) + (size_t)z->n_coefs * sizeof(zkey_coef) +
                     (pk->has_cs ? r1cs_bytes(&pk->cs) : 0);
    return CUZK_OK;
}

static cuzk_status load_zkey_any(cuzk_pk **out, const char *path, const uint8_t *bytes, size_t len,
                                 const cuzk_pk_load_opts *opts, cuzk_error *err) {
    cuzk_pk_load_opts dflt = {0};
    const cuzk_pk_load_opts *o = opts ? opts : &dflt;
    cuzk_pk *pk = NULL;
    cuzk_status st;
    if (!out) return ERR(err, CUZK_ERR_ARG, "cuzk_pk_load_zkey: NULL argument");
    *out = NULL;
    if (!path && !bytes) return ERR(err, CUZK_ERR_ARG, "cuzk_pk_load_zkey: NULL path or bytes");
#ifndef CUZK_CURVE_BOUND_BN254
    if ((path ? curve_sniff_iden3_file(path) : curve_sniff_iden3(bytes, len)) == CUZK_CURVE_BN254)
        return path ? bn254_cuzk_pk_load_zkey(out, path, opts, err) : bn254_cuzk_pk_load_zkey_mem(out, bytes, len, opts, err);
#endif
    if ((st = check_curve_request(o, err)) != CUZK_OK) return st;
    if ((st = pk_new(&pk, err)) != CUZK_OK) return st;
    /* on-curve always; every point's subgroup with check = FULL (the zkey loader checks the BN254
     * vk's G2 points for the subgroup in any case) */
    bool sub = o->check == CUZK_CHECK_FULL;
    st = path ? zkey_load(&pk->z, path, sub, err) : zkey_load_mem(&pk->z, bytes, len, "<zkey in memory>", sub, err);
    if (st == CUZK_OK) st = check_expected_vars(o, pk->z.n_vars, path ? path : "the zkey", err);
    if (st == CUZK_OK) st = zkey_finish(pk, o, err);
    if (st != CUZK_OK) {
        pk_free(pk);
        return st;
    }
    *out = pk;
    return CUZK_OK;
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

#ifndef CUZK_CURVE_BOUND_BN254 /* bellperson parameters: BLS12-381 only */
/* the counts of p must fit the circuit (the densities are checked by the first start) */
static cuzk_status params_fit(const r1cs *cs, const bellperson_params *p, cuzk_error *err) {
    size_t n_inputs = (size_t)cs->n_public + 1, n_aux = cs->n_vars - n_inputs;
    size_t m = (size_t)1 << groth16_bellperson_log_m(cs);
    if (p->vk.n_public + 1 != n_inputs || p->n_l != n_aux || p->n_h != m - 1)
        return ERR(err, CUZK_ERR_MISMATCH,
                   "the parameters do not fit the circuit: ic %u / l %u / h %u points, the circuit needs %zu / %zu / %zu",
                   p->vk.n_public + 1, p->n_l, p->n_h, n_inputs, n_aux, m - 1);
    return CUZK_OK;
}

cuzk_status groth16_pk_wrap_bellperson(cuzk_pk **out, const r1cs *cs, const bellperson_params *p,
                                       struct groth16_gpu_srs *gpu_srs, uint64_t host_bytes, void (*owner_free)(void *),
                                       void *owner, cuzk_error *err) {
    cuzk_status st;
    if (!out || !cs || !p) return ERR(err, CUZK_ERR_ARG, "groth16_pk_wrap_bellperson: NULL argument");
    *out = NULL;
    if ((st = params_fit(cs, p, err)) != CUZK_OK) return st;
    cuzk_pk *pk = NULL;
    if ((st = pk_new(&pk, err)) != CUZK_OK) return st;
    pk->key.convention = CUZK_CONVENTION_BELLPERSON;
    pk->key.p = p;
    pk->key.cs = cs;
    pk->has_cs = 1;
    pk->host_bytes = sizeof *pk + host_bytes;
    pk->gpu_srs = gpu_srs;
    pk->owner_free = owner_free;
    pk->owner = owner;
    *out = pk;
    return CUZK_OK;
}

static cuzk_status load_params_any(cuzk_pk **out, const char *params_path, const char *r1cs_path, const uint8_t *params,
                                   size_t params_len, const uint8_t *r1cs_img, size_t r1cs_len, r1cs *cs_take,
                                   const cuzk_pk_load_opts *opts, cuzk_error *err) {
    cuzk_pk_load_opts dflt = {0};
    const cuzk_pk_load_opts *o = opts ? opts : &dflt;
    cuzk_pk *pk = NULL;
    cuzk_status st;
    if (!out) return ERR(err, CUZK_ERR_ARG, "cuzk_pk_load_params: NULL argument");
    *out = NULL;
    if (o->r1cs_path || o->r1cs_bytes)
        return ERR(err, CUZK_ERR_ARG, "cuzk_pk_load_params: the circuit is an argument; opts r1cs fields are for zkeys");
    if ((st = check_curve_request(o, err)) != CUZK_OK) return st;
    if ((st = pk_new(&pk, err)) != CUZK_OK) return st;
    if (cs_take) {
        pk->cs = *cs_take; /* moved: the key owns it from here, also on failure */
        memset(cs_take, 0, sizeof *cs_take);
        st = CUZK_OK;
    } else {
        st = r1cs_path ? r1cs_load(&pk->cs, r1cs_path, err) : r1cs_load_mem(&pk->cs, r1cs_img, r1cs_len, "<r1cs in memory>", err);
    }
    if (st != CUZK_OK) goto fail;
    pk->has_cs = 1;
    /* before the (large) parameters are read */
    if ((st = check_expected_vars(o, pk->cs.n_vars, r1cs_path ? r1cs_path : "the r1cs", err)) != CUZK_OK) goto fail;
    bellperson_load_opts lo = {0};
    lo.check = o->check;
    lo.nthreads = o->nthreads;
    lo.g2_apart = 1; /* the G1 queries alone can be given back once on a GPU (cuzk_engine_release_host_g1) */
    lo.progress = o->progress;
    lo.progress_user = o->progress_user;
    st = params_path ? bellperson_params_load_ex(&pk->p, params_path, &lo, err)
                     : bellperson_params_decode(&pk->p, params, params_len, "bellperson params <in memory>", &lo, err);
    if (st != CUZK_OK) goto fail;
    if (pk->p.origin != BELLPERSON_ORIGIN_PARAMS)
        cuzk_log(CUZK_LOG_INFO, "%s (%u contributions, not verified): rows interpolated on the %s roots of unity",
                 bellperson_origin_str(pk->p.origin), pk->p.n_contributions, bellperson_domain_str(pk->p.domain));
    if ((st = params_fit(&pk->cs, &pk->p, err)) != CUZK_OK) goto fail;
    pk->key.convention = CUZK_CONVENTION_BELLPERSON;
    pk->key.p = &pk->p;
    pk->key.cs = &pk->cs;
    pk->host_bytes = sizeof *pk + bellperson_params_host_bytes(&pk->p) + r1cs_bytes(&pk->cs);
    *out = pk;
    return CUZK_OK;
fail:
    pk_free(pk);
    return st;
}

cuzk_status cuzk_pk_load_params(cuzk_pk **out, const char *params_path, const char *r1cs_path,
                                const cuzk_pk_load_opts *opts, cuzk_error *err) {
    if (!params_path || !r1cs_path) {
        if (out) *out = NULL;
        return ERR(err, CUZK_ERR_ARG, "cuzk_pk_load_params: NULL path");
    }
    return load_params_any(out, params_path, r1cs_path, NULL, 0, NULL, 0, NULL, opts, err);
}

cuzk_status cuzk_pk_load_params_mem(cuzk_pk **out, const uint8_t *params, size_t params_len, const uint8_t *r1cs,
                                    size_t r1cs_len, const cuzk_pk_load_opts *opts, cuzk_error *err) {
    if (!params || !r1cs) {
        if (out) *out = NULL;
        return ERR(err, CUZK_ERR_ARG, "cuzk_pk_load_params_mem: NULL bytes");
    }
    return load_params_any(out, NULL, NULL, params, params_len, r1cs, r1cs_len, NULL, opts, err);
}

/* pk.h */
cuzk_status groth16_pk_load_params_cs(cuzk_pk **out, const char *params_path, r1cs *cs, const cuzk_pk_load_opts *opts,
                                      cuzk_error *err) {
    if (!params_path || !cs) {
        if (out) *out = NULL;
        if (cs) r1cs_free(cs);
        return ERR(err, CUZK_ERR_ARG, "groth16_pk_load_params_cs: NULL argument");
    }
    r1cs local = *cs;
    memset(cs, 0, sizeof *cs);
    cuzk_status st = load_params_any(out, params_path, NULL, NULL, 0, NULL, 0, &local, opts, err);
    r1cs_free(&local); /* not moved when the load stopped before the key was made (zeroed when it was) */
    return st;
}

#endif

cuzk_pk *cuzk_pk_retain(cuzk_pk *pk) {
#ifndef CUZK_CURVE_BOUND_BN254
    TO_BN254(pk && pk->key.curve == CUZK_CURVE_BN254, cuzk_pk_retain(pk));
#endif
    if (pk) atomic_fetch_add(&pk->refs, 1);
    return pk;
}

void cuzk_pk_release(cuzk_pk *pk) {
#ifndef CUZK_CURVE_BOUND_BN254
    if (pk && pk->key.curve == CUZK_CURVE_BN254) {
        bn254_cuzk_pk_release(pk);
        return;
    }
#endif
    if (pk && atomic_fetch_sub(&pk->refs, 1) == 1) pk_free(pk);
}

cuzk_status cuzk_pk_describe(const cuzk_pk *pk, cuzk_pk_info *out, cuzk_error *err) {
    if (!pk || !out) return ERR(err, CUZK_ERR_ARG, "cuzk_pk_describe: NULL argument");
#ifndef CUZK_CURVE_BOUND_BN254
    TO_BN254(pk->key.curve == CUZK_CURVE_BN254, cuzk_pk_describe(pk, out, err));
#endif
    memset(out, 0, sizeof *out);
    out->curve = pk->key.curve;
    out->convention = pk->key.convention;
    out->n_constraints = pk->has_cs ? pk->key.cs->n_constraints : pk->key.z ? pk->key.z->n_constraints : 0;
    out->n_public = groth16_key_n_public(&pk->key);
    out->n_vars = (uint32_t)groth16_key_n_vars(&pk->key);
    out->domain_size = (uint32_t)groth16_key_domain(&pk->key);
    out->host_bytes = pk->host_bytes;
    out->has_circuit = pk->has_cs;
    return CUZK_OK;
}

/* ---- provers --------------------------------------------------------------------------------- */
struct cuzk_prover {
    cuzk_pk *pk;          /* one reference */
    groth16_prover *pv;
    int nthreads;
};

cuzk_status cuzk_prover_create(cuzk_prover **out, cuzk_pk *pk, const cuzk_prover_opts *opts, cuzk_error *err) {
    cuzk_prover_opts dflt = {0};
    const cuzk_prover_opts *o = opts ? opts : &dflt;
    if (!out || !pk) return ERR(err, CUZK_ERR_ARG, "cuzk_prover_create: NULL argument");
#ifndef CUZK_CURVE_BOUND_BN254
    TO_BN254(pk->key.curve == CUZK_CURVE_BN254, cuzk_prover_create(out, pk, opts, err));
#endif
    *out = NULL;
    if (o->nthreads < 0 || o->device < 0) return ERR(err, CUZK_ERR_ARG, "cuzk_prover_create: negative thread count or device");
    cuzk_status st = groth16_msm_opts_check(&o->msm, "cuzk_prover_create", err);
    if (st != CUZK_OK) return st;
    const groth16_backend_ops *ops = NULL;
    st = groth16_backend_pick(pk->key.curve, o->backend, &ops, err);
    if (st != CUZK_OK) return st;
    cuzk_prover *p = calloc(1, sizeof *p);
    if (!p) return ERR(err, CUZK_ERR_NOMEM, "cuzk_prover_create");
    groth16_backend_cfg cfg = {0};
    cfg.device = o->device;
    cfg.msm = o->msm;
    if ((st = groth16_prover_create(&p->pv, &pk->key, ops, &cfg, err)) != CUZK_OK) {
        free(p);
        return st;
    }
    p->pk = cuzk_pk_retain(pk);
    p->nthreads = o->nthreads;
    *out = p;
    return CUZK_OK;
}

void cuzk_prover_destroy(cuzk_prover *p) {
    if (!p) return;
#ifndef CUZK_CURVE_BOUND_BN254
    if (p->pk->key.curve == CUZK_CURVE_BN254) {
        bn254_cuzk_prover_destroy(p);
        return;
    }
#endif
    groth16_prover_destroy(p->pv);
    cuzk_pk_release(p->pk);
    free(p);
}

const char *cuzk_prover_backend_name(const cuzk_prover *p) {
#ifndef CUZK_CURVE_BOUND_BN254
    TO_BN254(p && p->pk->key.curve == CUZK_CURVE_BN254, cuzk_prover_backend_name(p));
#endif
    return p ? groth16_prover_ops(p->pv)->name : "none";
}
const cuzk_pk *cuzk_prover_pk(const cuzk_prover *p) { return p ? p->pk : NULL; }

/* The witness as n Montgomery values: borrowed (*owned NULL) or converted into *owned. */
static cuzk_status witness_view(const fr **w, size_t *n, fr **owned, const cuzk_witness *in, cuzk_error *err) {
    *w = NULL;
    *n = 0;
    *owned = NULL;
    if (!in->data) return ERR(err, CUZK_ERR_ARG, "witness: NULL data");
    switch (in->form) {
    case CUZK_WITNESS_FR_MONT:
    case CUZK_WITNESS_FR_CANON: {
        if (in->len % CUZK_FR_BYTES != 0 || in->len == 0)
            return ERR(err, CUZK_ERR_ARG, "witness: %zu bytes is not a positive multiple of 32 (one Fr per 32 bytes)", in->len);
        if ((uintptr_t)in->data % 8 != 0) return ERR(err, CUZK_ERR_ARG, "witness: data must be 8-byte aligned");
        size_t k = in->len / CUZK_FR_BYTES;
        if (in->form == CUZK_WITNESS_FR_MONT) {
            *w = in->data;
            *n = k;
            return CUZK_OK;
        }
        fr *v = malloc(k * sizeof *v);
        if (!v) return ERR(err, CUZK_ERR_NOMEM, "witness: %zu values", k);
        const uint64_t *l = in->data;
        for (size_t i = 0; i < k; i++) {
            if (!fr_is_canon(l + 4 * i)) {
                free(v);
                return ERR(err, CUZK_ERR_FORMAT, "witness value %zu is not canonical (>= r)", i);
            }
            fr_from_canon(&v[i], l + 4 * i);
        }
        *w = *owned = v;
        *n = k;
        return CUZK_OK;
    }
    case CUZK_WITNESS_WTNS: {
        wtns wt = {0};
        cuzk_status st = wtns_load_mem(&wt, in->data, in->len, "<wtns in memory>", err);
        if (st != CUZK_OK) return st;
        *w = *owned = wt.w;
        *n = wt.n;
        return CUZK_OK;
    }
    }
    return ERR(err, CUZK_ERR_ARG, "witness: unknown form %d", (int)in->form);
}

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
#ifndef CUZK_CURVE_BOUND_BN254
    TO_BN254(curve_sniff_iden3(w->data, w->len) == CUZK_CURVE_BN254, cuzk_witness_count(w, n_values, curve, err));
#endif
    uint32_t n = 0;
    cuzk_status st = wtns_count_mem(&n, w->data, w->len, "<wtns in memory>", err);
    if (st != CUZK_OK) return st;
    *n_values = n;
    if (curve) *curve = CURVE_ID;
    return CUZK_OK;
}

static cuzk_status rs_from(fr *r, fr *s, const cuzk_proof_opts *o, cuzk_error *err) {
    if ((o->fixed_r != NULL) != (o->fixed_s != NULL)) return ERR(err, CUZK_ERR_ARG, "fixed r and s must be given together");
    if (o->fixed_r) {
        if (!fr_from_bytes_le(r, o->fixed_r, 32)) return ERR(err, CUZK_ERR_ARG, "fixed r is not below the group order r");
        if (!fr_from_bytes_le(s, o->fixed_s, 32)) return ERR(err, CUZK_ERR_ARG, "fixed s is not below the group order r");
        return CUZK_OK;
    }
    cuzk_status st = groth16_random_fr(r, err);
    return st == CUZK_OK ? groth16_random_fr(s, err) : st;
}

/* Encodes proof and public inputs into out. */
static cuzk_status encode_proof(cuzk_proof *out, cuzk_curve curve, const groth16_proof *proof, const fr *pub,
                                uint32_t n_pub, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    out->curve = curve;
    out->n_public = n_pub;
#ifndef CUZK_CURVE_BOUND_BN254 /* the 192-byte bellperson encoding is BLS12-381's */
    bellperson_proof_encode(out->bellperson, proof);
    out->has_bellperson = 1;
#endif
    out->proof_json = proof_json_text(proof);
    out->public_json = public_json_text(pub, n_pub);
    if (n_pub) out->public_inputs = malloc((size_t)n_pub * CUZK_FR_BYTES);
    if (!out->proof_json || !out->public_json || (n_pub && !out->public_inputs)) {
        cuzk_proof_free(out);
        return ERR(err, CUZK_ERR_NOMEM, "proof encodings");
    }
    out->proof_json_len = strlen(out->proof_json);
    out->public_json_len = strlen(out->public_json);
    for (uint32_t i = 0; i < n_pub; i++) fr_to_bytes_le(out->public_inputs + (size_t)i * CUZK_FR_BYTES, 32, &pub[i]);
    return CUZK_OK;
}

void cuzk_proof_free(cuzk_proof *proof) {
    if (!proof) return;
    free(proof->proof_json);
    free(proof->public_json);
    free(proof->public_inputs);
    memset(proof, 0, sizeof *proof);
}

cuzk_status cuzk_prove(cuzk_prover *p, cuzk_proof *out, const cuzk_witness *w, const cuzk_proof_opts *opts,
                       cuzk_prove_timings *t, cuzk_error *err) {
    cuzk_proof_opts dflt = {0};
    const cuzk_proof_opts *o = opts ? opts : &dflt;
    cuzk_prove_timings tm = {0};
    double t_start = now_ms(), t0 = t_start, t1;
    const fr *wv = NULL;
    fr *owned = NULL;
    size_t n_w = 0;
    fr r, s;
    cuzk_status st;
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    if (out) memset(out, 0, sizeof *out);
    if (t) *t = tm;
    if (!p || !out || !w) return ERR(err, CUZK_ERR_ARG, "cuzk_prove: NULL argument");
#ifndef CUZK_CURVE_BOUND_BN254
    TO_BN254(p->pk->key.curve == CUZK_CURVE_BN254, cuzk_prove(p, out, w, opts, t, err));
#endif
    const groth16_key *k = &p->pk->key;
    tm.backend = groth16_prover_ops(p->pv)->name;
    tm.n_vars = (uint32_t)groth16_key_n_vars(k);
    tm.n_public = groth16_key_n_public(k);
    tm.domain_size = (uint32_t)groth16_key_domain(k);
    tm.constraints = p->pk->has_cs ? k->cs->n_constraints : k->z ? k->z->n_constraints : 0;
    if (o->check_witness && !p->pk->has_cs) {
        st = ERR(err, CUZK_ERR_ARG, "check_witness needs the circuit: load the zkey with its r1cs (cuzk_pk_load_opts.r1cs_path)");
        goto out;
    }
    if ((st = rs_from(&r, &s, o, err)) != CUZK_OK) goto out;
    if ((st = witness_view(&wv, &n_w, &owned, w, err)) != CUZK_OK) goto out;
    if (n_w != tm.n_vars) {
        st = ERR(err, CUZK_ERR_MISMATCH, "the witness has %zu values but the key's circuit has %u variables", n_w, tm.n_vars);
        goto out;
    }
    if (!fr_is_one(&wv[0])) {
        st = ERR(err, CUZK_ERR_MISMATCH, "witness value 0 must be 1 (the constant wire)");
        goto out;
    }
    t1 = now_ms(); tm.load_ms = t1 - t0; t0 = t1;
    if (o->check_witness) {
        uint32_t bad;
        if ((st = r1cs_check_witness(k->cs, wv, n_w, &bad, err)) != CUZK_OK) goto out;
        t1 = now_ms(); tm.check_ms = t1 - t0; t0 = t1;
    }
    groth16_proof proof;
    groth16_timings gt = {0};
    st = groth16_prove_one(p->pv, &proof, wv, n_w, &r, &s, p->nthreads, &gt, err);
    tm.abc_ms = gt.abc_ms;
    tm.h_ms = gt.h_ms;
    tm.msm_a_ms = gt.msm_a_ms;
    tm.msm_b1_ms = gt.msm_b1_ms;
    tm.msm_b2_ms = gt.msm_b2_ms;
    tm.msm_l_ms = gt.msm_l_ms;
    tm.msm_h_ms = gt.msm_h_ms;
    tm.assemble_ms = gt.assemble_ms;
    tm.upload_ms = gt.upload_ms;
    tm.b2_overlapped = (groth16_prover_ops(p->pv)->caps & GROTH16_CAP_B2_OVERLAP) &&
                       k->convention == CUZK_CONVENTION_BELLPERSON && !gt.b2_device;
    t0 = now_ms();
    if (st != CUZK_OK) goto out;
    if (!o->skip_self_verify) {
        groth16_vk vk;
        groth16_key_vk(&vk, k);
        cuzk_error verr = {0};
        if (groth16_verify(&vk, wv + 1, tm.n_public, &proof, &verr) != CUZK_OK) {
            st = ERR(err, CUZK_ERR_UNSAT,
                     "the proof does not verify against the key: the witness does not satisfy the circuit, or the key "
                     "is corrupt or for another circuit (check_witness finds a failing constraint)");
            goto out;
        }
        t1 = now_ms(); tm.verify_ms = t1 - t0; t0 = t1;
    }
    st = encode_proof(out, k->curve, &proof, wv + 1, tm.n_public, err);
    t1 = now_ms(); tm.write_ms = t1 - t0; t0 = t1;
out:
    explicit_bzero(&r, sizeof r);
    explicit_bzero(&s, sizeof s);
    free(owned);
    t1 = now_ms();
    tm.free_ms = t1 - t0;
    tm.total_ms = t1 - t_start;
    if (t) *t = tm;
    return st;
}

cuzk_status cuzk_witness_convert(const cuzk_witness *w, cuzk_curve curve, cuzk_witness_form out_form, uint64_t *out,
                                 size_t n_vars, cuzk_error *err) {
    if (!w || !out) return ERR(err, CUZK_ERR_ARG, "cuzk_witness_convert: NULL argument");
    if (out_form != CUZK_WITNESS_FR_MONT && out_form != CUZK_WITNESS_FR_CANON)
        return ERR(err, CUZK_ERR_ARG, "cuzk_witness_convert: the output form is Montgomery or canonical limbs, not %d",
                   (int)out_form);
    if ((uintptr_t)out % 8 != 0) return ERR(err, CUZK_ERR_ARG, "cuzk_witness_convert: out must be 8-byte aligned");
#ifndef CUZK_CURVE_BOUND_BN254
    TO_BN254(curve == CUZK_CURVE_BN254, cuzk_witness_convert(w, curve, out_form, out, n_vars, err));
#endif
    if (curve != CURVE_ID)
        return ERR(err, CUZK_ERR_UNSUPPORTED, "cuzk_witness_convert: curve %s is not in this build", cuzk_curve_name(curve));
    const fr *wv = NULL;
    fr *owned = NULL;
    size_t n = 0;
    cuzk_status st = witness_view(&wv, &n, &owned, w, err);
    if (st != CUZK_OK) return st;
    if (n != n_vars) st = ERR(err, CUZK_ERR_MISMATCH, "the witness has %zu values but the circuit has %zu variables", n, n_vars);
    else if (!fr_is_one(&wv[0])) st = ERR(err, CUZK_ERR_MISMATCH, "witness value 0 must be 1 (the constant wire)");
    else if (out_form == CUZK_WITNESS_FR_MONT) memcpy(out, wv, n * sizeof(fr));
    else
        for (size_t i = 0; i < n; i++) fr_to_canon(out + 4 * i, &wv[i]);
    free(owned);
    return st;
}

cuzk_status cuzk_proof_from_bytes(cuzk_proof *out, cuzk_curve curve, const uint8_t *proof, size_t proof_len,
                                  const uint8_t *public_inputs, uint32_t n_public, cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!out || !proof || (n_public && !public_inputs)) return ERR(err, CUZK_ERR_ARG, "cuzk_proof_from_bytes: NULL argument");
#ifndef CUZK_CURVE_BOUND_BN254
    TO_BN254(curve == CUZK_CURVE_BN254, cuzk_proof_from_bytes(out, curve, proof, proof_len, public_inputs, n_public, err));
#endif
    if (curve != CURVE_ID) return ERR(err, CUZK_ERR_ARG, "cuzk_proof_from_bytes: unknown curve %d", (int)curve);
    if (proof_len != groth16_proof_bytes())
        return ERR(err, CUZK_ERR_ARG, "cuzk_proof_from_bytes: a %s proof is %zu bytes, not %zu", cuzk_curve_name(curve),
                   groth16_proof_bytes(), proof_len);
    groth16_proof pr;
    cuzk_status st = groth16_proof_from_bytes(&pr, proof, proof_len, err);
    if (st == CUZK_ERR_FORMAT) st = CUZK_ERR_POINT; /* bytes that are not three valid points */
    if (st != CUZK_OK) return st;
    fr *pub = malloc((n_public ? n_public : 1) * sizeof *pub);
    if (!pub) return ERR(err, CUZK_ERR_NOMEM, "public inputs");
    for (uint32_t i = 0; i < n_public; i++)
        if (!fr_from_bytes_le(&pub[i], public_inputs + (size_t)i * CUZK_FR_BYTES, CUZK_FR_BYTES)) {
            free(pub);
            return ERR(err, CUZK_ERR_FORMAT, "public input %u is not canonical (>= r)", i);
        }
    st = encode_proof(out, CURVE_ID, &pr, pub, n_public, err);
    free(pub);
    return st;
}

#ifndef CUZK_CURVE_BOUND_BN254
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
#endif

/* ---- verification ---------------------------------------------------------------------------- */
struct cuzk_vk {
    cuzk_curve curve; /* first in both curve compiles: the dispatch reads it */
    groth16_vk vk;    /* owns ic */
};

static cuzk_status vk_wrap(cuzk_vk **out, groth16_vk *vk, cuzk_error *err) {
    cuzk_vk *v = malloc(sizeof *v);
    if (!v) {
        groth16_vk_free(vk);
        return ERR(err, CUZK_ERR_NOMEM, "verification key");
    }
    v->curve = CURVE_ID;
    v->vk = *vk;
    *out = v;
    return CUZK_OK;
}

cuzk_status cuzk_vk_load_json(cuzk_vk **out, const char *json, size_t len, cuzk_error *err) {
    if (!out || !json) return ERR(err, CUZK_ERR_ARG, "cuzk_vk_load_json: NULL argument");
    *out = NULL;
#ifndef CUZK_CURVE_BOUND_BN254
    TO_BN254(curve_sniff_json(json, len) == CUZK_CURVE_BN254, cuzk_vk_load_json(out, json, len, err));
#endif
    groth16_vk vk;
    cuzk_status st = vk_json_read_mem(&vk, json, len, "<verification_key.json in memory>", err);
    return st == CUZK_OK ? vk_wrap(out, &vk, err) : st;
}

#ifndef CUZK_CURVE_BOUND_BN254 /* bellperson .vk: BLS12-381 only */
cuzk_status cuzk_vk_load_bellperson(cuzk_vk **out, const uint8_t *bytes, size_t len, cuzk_error *err) {
    if (!out || !bytes) return ERR(err, CUZK_ERR_ARG, "cuzk_vk_load_bellperson: NULL argument");
    *out = NULL;
    groth16_vk vk;
    cuzk_status st = bellperson_vk_decode(&vk, bytes, len, "bellperson vk <in memory>", err);
    return st == CUZK_OK ? vk_wrap(out, &vk, err) : st;
}
#endif

cuzk_status cuzk_vk_from_pk(cuzk_vk **out, const cuzk_pk *pk, cuzk_error *err) {
    if (!out || !pk) return ERR(err, CUZK_ERR_ARG, "cuzk_vk_from_pk: NULL argument");
    *out = NULL;
#ifndef CUZK_CURVE_BOUND_BN254
    TO_BN254(pk->key.curve == CUZK_CURVE_BN254, cuzk_vk_from_pk(out, pk, err));
#endif
    groth16_vk view, vk;
    groth16_key_vk(&view, &pk->key);
    vk = view;
    vk.ic = malloc(((size_t)view.n_public + 1) * sizeof *vk.ic);
    if (!vk.ic) return ERR(err, CUZK_ERR_NOMEM, "verification key");
    memcpy(vk.ic, view.ic, ((size_t)view.n_public + 1) * sizeof *vk.ic);
    return vk_wrap(out, &vk, err);
}

uint32_t cuzk_vk_n_public(const cuzk_vk *vk) {
#ifndef CUZK_CURVE_BOUND_BN254
    TO_BN254(vk && vk->curve == CUZK_CURVE_BN254, cuzk_vk_n_public(vk));
#endif
    return vk ? vk->vk.n_public : 0;
}

void cuzk_vk_free(cuzk_vk *vk) {
    if (!vk) return;
#ifndef CUZK_CURVE_BOUND_BN254
    if (vk->curve == CUZK_CURVE_BN254) {
        bn254_cuzk_vk_free(vk);
        return;
    }
#endif
    groth16_vk_free(&vk->vk);
    free(vk);
}

cuzk_status cuzk_verify(const cuzk_vk *vk, cuzk_public_form public_form, const void *public_inputs, size_t public_len,
                        cuzk_proof_form proof_form, const void *proof, size_t proof_len, cuzk_error *err) {
    fr *pub = NULL;
    size_t n_pub = 0;
    groth16_proof pr;
    cuzk_status st = CUZK_OK;
    if (!vk || !proof || (!public_inputs && public_len)) return ERR(err, CUZK_ERR_ARG, "cuzk_verify: NULL argument");
#ifndef CUZK_CURVE_BOUND_BN254
    TO_BN254(vk->curve == CUZK_CURVE_BN254,
             cuzk_verify(vk, public_form, public_inputs, public_len, proof_form, proof, proof_len, err));
#endif
    switch (public_form) {
    case CUZK_PUBLIC_CANON:
        if (public_len % CUZK_FR_BYTES != 0)
            return ERR(err, CUZK_ERR_ARG, "public inputs: %zu bytes is not a multiple of 32", public_len);
        n_pub = public_len / CUZK_FR_BYTES;
        pub = malloc((n_pub ? n_pub : 1) * sizeof *pub);
        if (!pub) return ERR(err, CUZK_ERR_NOMEM, "public inputs");
        for (size_t i = 0; i < n_pub; i++)
            if (!fr_from_bytes_le(&pub[i], (const uint8_t *)public_inputs + i * CUZK_FR_BYTES, CUZK_FR_BYTES)) {
                st = ERR(err, CUZK_ERR_FORMAT, "public input %zu is not canonical (>= r)", i);
                goto out;
            }
        break;
    case CUZK_PUBLIC_JSON:
        if ((st = public_json_read_mem(&pub, &n_pub, public_inputs ? public_inputs : "", public_len,
                                       "<public.json in memory>", err)) != CUZK_OK)
            goto out;
        break;
    default:
        return ERR(err, CUZK_ERR_ARG, "cuzk_verify: unknown public input form %d", (int)public_form);
    }
    switch (proof_form) {
    case CUZK_PROOF_BELLPERSON:
#ifdef CUZK_CURVE_BOUND_BN254
        st = ERR(err, CUZK_ERR_UNSUPPORTED, "the 192-byte bellperson proof encoding is BLS12-381 only; a %s key takes "
                 "proof.json", cuzk_curve_name(CURVE_ID));
        goto out;
#else
        if (proof_len != CUZK_PROOF_BELLPERSON_BYTES) {
            st = ERR(err, CUZK_ERR_FORMAT, "a bellperson proof is exactly 192 bytes (got %zu)", proof_len);
            goto out;
        }
        st = bellperson_proof_decode(&pr, proof, err);
        /* 192 bytes that are not three valid compressed points: an invalid proof */
        if (st == CUZK_ERR_FORMAT) st = CUZK_ERR_POINT;
        break;
#endif
    case CUZK_PROOF_CURVE_BYTES:
        if (proof_len != groth16_proof_bytes()) {
            st = ERR(err, CUZK_ERR_FORMAT, "a %s proof is exactly %zu bytes (got %zu)", cuzk_curve_name(CURVE_ID),
                     groth16_proof_bytes(), proof_len);
            goto out;
        }
        st = groth16_proof_from_bytes(&pr, proof, proof_len, err);
        if (st == CUZK_ERR_FORMAT) st = CUZK_ERR_POINT; /* then an invalid proof, as below */
        break;
    case CUZK_PROOF_SNARKJS_JSON:
        st = proof_json_read_mem(&pr, proof, proof_len, "<proof.json in memory>", err);
        break;
    default:
        st = ERR(err, CUZK_ERR_ARG, "cuzk_verify: unknown proof form %d", (int)proof_form);
        goto out;
    }
    if (st != CUZK_OK) {
        /* a proof whose points do not decode or are off the curve is an invalid proof */
        if (st == CUZK_ERR_POINT) st = CUZK_ERR_INVALID;
        goto out;
    }
    st = groth16_verify(&vk->vk, pub, n_pub, &pr, err);
out:
    free(pub);
    return st;
}
