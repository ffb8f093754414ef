/* The public in-memory API's per-curve half (include/cuzk/prover.h): proving keys, provers,
 * proofs and verification keys of one curve over the prover orchestration (src/groth16/prove.h).
 * A template, instantiated per curve (src/groth16/groth16_<curve>.c; every curve-dependent name is
 * CN(name)); the public functions (src/groth16/prover_api.c, compiled once) check their arguments
 * and call these through the curve's table (groth16_curve: pk_load_zkey, prover_new, prove, ...).
 * Every handle given here is of this curve (the table was picked by its curve tag). */
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

/* The public handles of this curve: the head first (src/groth16/pk.h). */
typedef struct api_prover {
    struct cuzk_prover h;
    CN(groth16_prover) *pv;
} api_prover;
typedef struct api_vk {
    struct cuzk_vk h;
    CN(groth16_vk) vk; /* owns ic */
} api_vk;

static api_prover *api_prover_of(cuzk_prover *p) { return (api_prover *)p; }
static const api_prover *api_prover_of_const(const cuzk_prover *p) { return (const api_prover *)p; }
static const api_vk *api_vk_of_const(const cuzk_vk *v) { return (const api_vk *)v; }

/* ---- proving keys ---------------------------------------------------------------------------- */
static size_t csr_bytes(const CN(csr_matrix) *m) {
    return 8 * ((size_t)m->n_rows + 1) + 8 * (size_t)m->nnz + sizeof(CN(fr)) * (size_t)m->n_coef;
}
static size_t r1cs_bytes(const CN(r1cs) *cs) {
    return csr_bytes(&cs->a) + csr_bytes(&cs->b) + csr_bytes(&cs->c);
}

static void pk_free(CN(groth16_pk) *pk) {
    if (!pk) return;
    CN(zkey_free)(&pk->z);
#if CURVE_BELLPERSON
    bellperson_params_free(&pk->p);
#endif
    CN(r1cs_free)(&pk->cs); /* zeroed when not owned (wrapped keys, zkeys without their r1cs) */
    if (pk->owner_free) pk->owner_free(pk->owner);
    free(pk);
}
static void tbl_pk_free(cuzk_pk *pk) { pk_free(CN(groth16_pk_of)(pk)); }

/* The loaders of this curve accept this curve only (other primes: CUZK_ERR_CURVE); a request for
 * another curve than the file's is refused before any work. */
static cuzk_status check_curve_request(const cuzk_pk_load_opts *o, cuzk_error *err) {
    if (o->curve == CUZK_CURVE_UNKNOWN || o->curve == CURVE_ID) return CUZK_OK;
    if (o->curve == CUZK_CURVE_BN254 || o->curve == CUZK_CURVE_BLS12_381)
        return ERR(err, CUZK_ERR_CURVE, "the key file is for %s, but %s was requested", CURVE_NAME,
                   cuzk_curve_name(o->curve));
    return ERR(err, CUZK_ERR_ARG, "unknown curve %d", (int)o->curve);
}

static cuzk_status pk_new(CN(groth16_pk) **out, cuzk_error *err) {
    *out = calloc(1, sizeof **out);
    if (!*out) return ERR(err, CUZK_ERR_NOMEM, "proving key");
    atomic_init(&(*out)->h.refs, 1);
    (*out)->h.curve = CURVE_ID;
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
static cuzk_status zkey_finish(CN(groth16_pk) *pk, const cuzk_pk_load_opts *o, cuzk_error *err) {
    cuzk_status st;
    if (o->r1cs_path && o->r1cs_bytes) return ERR(err, CUZK_ERR_ARG, "give the r1cs as a path or as bytes, not both");
    if (o->r1cs_path || o->r1cs_bytes) {
        st = o->r1cs_path ? CN(r1cs_load)(&pk->cs, o->r1cs_path, err)
                          : CN(r1cs_load_mem)(&pk->cs, o->r1cs_bytes, o->r1cs_len, "<r1cs in memory>", err);
        if (st != CUZK_OK) return st;
        pk->has_cs = 1;
        if (pk->cs.n_vars != pk->z.n_vars || pk->cs.n_public != pk->z.n_public)
            return ERR(err, CUZK_ERR_MISMATCH, "the r1cs (%u wires, %u public) does not belong to the zkey (%u wires, %u public)",
                       pk->cs.n_vars, pk->cs.n_public, pk->z.n_vars, pk->z.n_public);
    }
    const CN(zkey) *z = &pk->z;
    pk->key.convention = CUZK_CONVENTION_SNARKJS;
    pk->key.z = &pk->z;
    pk->key.cs = pk->has_cs ? &pk->cs : NULL;
    pk->host_bytes = sizeof *pk +
                     ((size_t)z->n_public + 1 + 2 * (size_t)z->n_vars + z->n_vars + z->domain_size) * sizeof(CN(g1_affine)) +
                     (size_t)z->n_vars * sizeof(CN(g2_affine)) + (size_t)z->n_coefs * sizeof(CN(zkey_coef)) +
                     (pk->has_cs ? r1cs_bytes(&pk->cs) : 0);
    return CUZK_OK;
}

/* cuzk_pk_load_zkey(_mem) of a file of this curve (path, or bytes/len) */
static cuzk_status tbl_pk_load_zkey(cuzk_pk **out, const char *path, const uint8_t *bytes, size_t len,
                                        const cuzk_pk_load_opts *o, cuzk_error *err) {
    CN(groth16_pk) *pk = NULL;
    cuzk_status st;
    *out = NULL;
    if ((st = check_curve_request(o, err)) != CUZK_OK) return st;
    if ((st = pk_new(&pk, err)) != CUZK_OK) return st;
    /* on-curve always; every point's subgroup with check = FULL (the zkey loader checks the BN254
     * vk's G2 points for the subgroup in any case) */
    bool sub = o->check == CUZK_CHECK_FULL;
    st = path ? CN(zkey_load)(&pk->z, path, sub, err) : CN(zkey_load_mem)(&pk->z, bytes, len, "<zkey in memory>", sub, err);
    if (st == CUZK_OK) st = check_expected_vars(o, pk->z.n_vars, path ? path : "the zkey", err);
    if (st == CUZK_OK) st = zkey_finish(pk, o, err);
    if (st != CUZK_OK) {
        pk_free(pk);
        return st;
    }
    *out = &pk->h;
    return CUZK_OK;
}

#if CURVE_BELLPERSON /* bellperson parameters: BLS12-381 only */
/* the counts of p must fit the circuit (the densities are checked by the first start) */
static cuzk_status params_fit(const CN(r1cs) *cs, const bellperson_params *p, cuzk_error *err) {
    size_t n_inputs = (size_t)cs->n_public + 1, n_aux = cs->n_vars - n_inputs;
    size_t m = (size_t)1 << CN(groth16_bellperson_log_m)(cs);
    if (p->vk.n_public + 1 != n_inputs || p->n_l != n_aux || p->n_h != m - 1)
        return ERR(err, CUZK_ERR_MISMATCH,
                   "the parameters do not fit the circuit: ic %u / l %u / h %u points, the circuit needs %zu / %zu / %zu",
                   p->vk.n_public + 1, p->n_l, p->n_h, n_inputs, n_aux, m - 1);
    return CUZK_OK;
}

cuzk_status groth16_pk_wrap_bellperson(cuzk_pk **out, const CN(r1cs) *cs, const bellperson_params *p,
                                       struct groth16_gpu_srs *gpu_srs, uint64_t host_bytes, void (*owner_free)(void *),
                                       void *owner, cuzk_error *err) {
    cuzk_status st;
    if (!out || !cs || !p) return ERR(err, CUZK_ERR_ARG, "groth16_pk_wrap_bellperson: NULL argument");
    *out = NULL;
    if ((st = params_fit(cs, p, err)) != CUZK_OK) return st;
    CN(groth16_pk) *pk = NULL;
    if ((st = pk_new(&pk, err)) != CUZK_OK) return st;
    pk->key.convention = CUZK_CONVENTION_BELLPERSON;
    pk->key.p = p;
    pk->key.cs = cs;
    pk->has_cs = 1;
    pk->host_bytes = sizeof *pk + host_bytes;
    pk->gpu_srs = gpu_srs;
    pk->owner_free = owner_free;
    pk->owner = owner;
    *out = &pk->h;
    return CUZK_OK;
}

static cuzk_status load_params_any(cuzk_pk **out, const char *params_path, const char *r1cs_path, const uint8_t *params,
                                   size_t params_len, const uint8_t *r1cs_img, size_t r1cs_len, CN(r1cs) *cs_take,
                                   const cuzk_pk_load_opts *opts, cuzk_error *err) {
    cuzk_pk_load_opts dflt = {0};
    const cuzk_pk_load_opts *o = opts ? opts : &dflt;
    CN(groth16_pk) *pk = NULL;
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
        st = r1cs_path ? CN(r1cs_load)(&pk->cs, r1cs_path, err) : CN(r1cs_load_mem)(&pk->cs, r1cs_img, r1cs_len, "<r1cs in memory>", err);
    }
    if (st != CUZK_OK) goto fail;
    pk->has_cs = 1;
    /* before the (large) parameters are read */
    if ((st = check_expected_vars(o, pk->cs.n_vars, r1cs_path ? r1cs_path : "the r1cs", err)) != CUZK_OK) goto fail;
    bellperson_load_opts lo = {0};
    lo.check = o->check;
    lo.nthreads = o->nthreads;
    lo.g2_apart = 1; /* the G1 queries alone can be given back once on a GPU (cuzk_engine_release_host_g1) */
    lo.defer_queries = params_path && o->defer_queries; /* or never decoded into host memory: read at preload */
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
    *out = &pk->h;
    return CUZK_OK;
fail:
    pk_free(pk);
    return st;
}

cuzk_status groth16_pk_load_params(cuzk_pk **out, const char *params_path, const char *r1cs_path, const uint8_t *params,
                                   size_t params_len, const uint8_t *r1cs_img, size_t r1cs_len,
                                   const cuzk_pk_load_opts *opts, cuzk_error *err) {
    return load_params_any(out, params_path, r1cs_path, params, params_len, r1cs_img, r1cs_len, NULL, opts, err);
}

/* pk.h */
cuzk_status groth16_pk_load_params_cs(cuzk_pk **out, const char *params_path, CN(r1cs) *cs, const cuzk_pk_load_opts *opts,
                                      cuzk_error *err) {
    if (!params_path || !cs) {
        if (out) *out = NULL;
        if (cs) CN(r1cs_free)(cs);
        return ERR(err, CUZK_ERR_ARG, "groth16_pk_load_params_cs: NULL argument");
    }
    CN(r1cs) local = *cs;
    memset(cs, 0, sizeof *cs);
    cuzk_status st = load_params_any(out, params_path, NULL, NULL, 0, NULL, 0, &local, opts, err);
    CN(r1cs_free)(&local); /* not moved when the load stopped before the key was made (zeroed when it was) */
    return st;
}
#endif

static cuzk_status tbl_pk_describe(const cuzk_pk *h, cuzk_pk_info *out) {
    const CN(groth16_pk) *pk = CN(groth16_pk_of_const)(h);
    memset(out, 0, sizeof *out);
    out->curve = CURVE_ID;
    out->convention = pk->key.convention;
    out->n_constraints = pk->has_cs ? pk->key.cs->n_constraints : pk->key.z ? pk->key.z->n_constraints : 0;
    out->n_public = CN(groth16_key_n_public)(&pk->key);
    out->n_vars = (uint32_t)CN(groth16_key_n_vars)(&pk->key);
    out->domain_size = (uint32_t)CN(groth16_key_domain)(&pk->key);
    out->host_bytes = pk->host_bytes;
    out->has_circuit = pk->has_cs;
    return CUZK_OK;
}

static const groth16_key_any *tbl_pk_key(const cuzk_pk *h) {
    return CN(groth16_key_erase)(CN(groth16_pk_key)(CN(groth16_pk_of_const)(h)));
}

/* ---- provers --------------------------------------------------------------------------------- */
static cuzk_status tbl_prover_new(cuzk_prover **out, cuzk_pk *h, const cuzk_prover_opts *o, cuzk_error *err) {
    CN(groth16_pk) *pk = CN(groth16_pk_of)(h);
    const CN(groth16_backend_ops) *ops = NULL;
    *out = NULL;
    cuzk_status st = CN(groth16_backend_pick)(o->backend, &ops, err);
    if (st != CUZK_OK) return st;
    api_prover *p = calloc(1, sizeof *p);
    if (!p) return ERR(err, CUZK_ERR_NOMEM, "cuzk_prover_create");
    groth16_backend_cfg cfg = {0};
    cfg.device = o->device;
    cfg.msm = o->msm;
    if ((st = CN(groth16_prover_create)(&p->pv, &pk->key, ops, &cfg, err)) != CUZK_OK) {
        free(p);
        return st;
    }
    p->h.curve = CURVE_ID;
    p->h.pk = cuzk_pk_retain(h);
    p->h.nthreads = o->nthreads;
    *out = &p->h;
    return CUZK_OK;
}

static void tbl_prover_free(cuzk_prover *h) {
    api_prover *p = api_prover_of(h);
    CN(groth16_prover_destroy)(p->pv);
    cuzk_pk_release(p->h.pk);
    free(p);
}

static const char *tbl_prover_backend_name(const cuzk_prover *h) {
    return CN(groth16_prover_ops)(api_prover_of_const(h)->pv)->info.name;
}

/* The witness as n Montgomery values: borrowed (*owned NULL) or converted into *owned. */
static cuzk_status witness_view(const CN(fr) **w, size_t *n, CN(fr) **owned, const cuzk_witness *in, cuzk_error *err) {
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
        CN(fr) *v = malloc(k * sizeof *v);
        if (!v) return ERR(err, CUZK_ERR_NOMEM, "witness: %zu values", k);
        const uint64_t *l = in->data;
        for (size_t i = 0; i < k; i++) {
            if (!CN(fr_is_canon)(l + 4 * i)) {
                free(v);
                return ERR(err, CUZK_ERR_FORMAT, "witness value %zu is not canonical (>= r)", i);
            }
            CN(fr_from_canon)(&v[i], l + 4 * i);
        }
        *w = *owned = v;
        *n = k;
        return CUZK_OK;
    }
    case CUZK_WITNESS_WTNS: {
        CN(wtns) wt = {0};
        cuzk_status st = CN(wtns_load_mem)(&wt, in->data, in->len, "<wtns in memory>", err);
        if (st != CUZK_OK) return st;
        *w = *owned = wt.w;
        *n = wt.n;
        return CUZK_OK;
    }
    }
    return ERR(err, CUZK_ERR_ARG, "witness: unknown form %d", (int)in->form);
}

/* cuzk_witness_count of a .wtns image of this curve */
static cuzk_status tbl_witness_count(const cuzk_witness *w, size_t *n_values, cuzk_error *err) {
    uint32_t n = 0;
    cuzk_status st = CN(wtns_count_mem)(&n, w->data, w->len, "<wtns in memory>", err);
    if (st != CUZK_OK) return st;
    *n_values = n;
    return CUZK_OK;
}

static cuzk_status rs_from(CN(fr) *r, CN(fr) *s, const cuzk_proof_opts *o, cuzk_error *err) {
    if ((o->fixed_r != NULL) != (o->fixed_s != NULL)) return ERR(err, CUZK_ERR_ARG, "fixed r and s must be given together");
    if (o->fixed_r) {
        if (!CN(fr_from_bytes_le)(r, o->fixed_r, 32)) return ERR(err, CUZK_ERR_ARG, "fixed r is not below the group order r");
        if (!CN(fr_from_bytes_le)(s, o->fixed_s, 32)) return ERR(err, CUZK_ERR_ARG, "fixed s is not below the group order r");
        return CUZK_OK;
    }
    cuzk_status st = CN(groth16_random_fr)(r, err);
    return st == CUZK_OK ? CN(groth16_random_fr)(s, err) : st;
}

/* Encodes proof and public inputs into out. */
static cuzk_status encode_proof(cuzk_proof *out, const CN(groth16_proof) *proof, const CN(fr) *pub, uint32_t n_pub,
                                    cuzk_error *err) {
    memset(out, 0, sizeof *out);
    out->curve = CURVE_ID;
    out->n_public = n_pub;
#if CURVE_BELLPERSON /* the 192-byte bellperson encoding is BLS12-381's */
    bellperson_proof_encode(out->bellperson, proof);
    out->has_bellperson = 1;
#endif
    out->proof_json = CN(proof_json_text)(proof);
    out->public_json = CN(public_json_text)(pub, n_pub);
    if (n_pub) out->public_inputs = malloc((size_t)n_pub * CUZK_FR_BYTES);
    if (!out->proof_json || !out->public_json || (n_pub && !out->public_inputs)) {
        cuzk_proof_free(out);
        return ERR(err, CUZK_ERR_NOMEM, "proof encodings");
    }
    out->proof_json_len = strlen(out->proof_json);
    out->public_json_len = strlen(out->public_json);
    for (uint32_t i = 0; i < n_pub; i++) CN(fr_to_bytes_le)(out->public_inputs + (size_t)i * CUZK_FR_BYTES, 32, &pub[i]);
    return CUZK_OK;
}

static cuzk_status tbl_prove(cuzk_prover *h, cuzk_proof *out, const cuzk_witness *w, const cuzk_proof_opts *o,
                                 cuzk_prove_timings *t, cuzk_error *err) {
    api_prover *p = api_prover_of(h);
    const CN(groth16_pk) *pk = CN(groth16_pk_of_const)(p->h.pk);
    cuzk_prove_timings tm = {0};
    double t_start = now_ms(), t0 = t_start, t1;
    const CN(fr) *wv = NULL;
    CN(fr) *owned = NULL;
    size_t n_w = 0;
    CN(fr) r, s;
    cuzk_status st;
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    const CN(groth16_key) *k = &pk->key;
    tm.backend = CN(groth16_prover_ops)(p->pv)->info.name;
    tm.n_vars = (uint32_t)CN(groth16_key_n_vars)(k);
    tm.n_public = CN(groth16_key_n_public)(k);
    tm.domain_size = (uint32_t)CN(groth16_key_domain)(k);
    tm.constraints = pk->has_cs ? k->cs->n_constraints : k->z ? k->z->n_constraints : 0;
    if (o->check_witness && !pk->has_cs) {
        st = ERR(err, CUZK_ERR_ARG, "check_witness needs the circuit: load the zkey with its r1cs (cuzk_pk_load_opts.r1cs_path)");
        goto out;
    }
    if ((st = rs_from(&r, &s, o, err)) != CUZK_OK) goto out;
    if ((st = witness_view(&wv, &n_w, &owned, w, err)) != CUZK_OK) goto out;
    if (n_w != tm.n_vars) {
        st = ERR(err, CUZK_ERR_MISMATCH, "the witness has %zu values but the key's circuit has %u variables", n_w, tm.n_vars);
        goto out;
    }
    if (!CN(fr_is_one)(&wv[0])) {
        st = ERR(err, CUZK_ERR_MISMATCH, "witness value 0 must be 1 (the constant wire)");
        goto out;
    }
    t1 = now_ms(); tm.load_ms = t1 - t0; t0 = t1;
    if (o->check_witness) {
        uint32_t bad;
        if ((st = CN(r1cs_check_witness)(k->cs, wv, n_w, &bad, err)) != CUZK_OK) goto out;
        t1 = now_ms(); tm.check_ms = t1 - t0; t0 = t1;
    }
    CN(groth16_proof) proof;
    groth16_timings gt = {0};
    st = CN(groth16_prove_one)(p->pv, &proof, wv, n_w, &r, &s, p->h.nthreads, &gt, err);
    tm.abc_ms = gt.abc_ms;
    tm.h_ms = gt.h_ms;
    tm.msm_a_ms = gt.msm_a_ms;
    tm.msm_b1_ms = gt.msm_b1_ms;
    tm.msm_b2_ms = gt.msm_b2_ms;
    tm.msm_l_ms = gt.msm_l_ms;
    tm.msm_h_ms = gt.msm_h_ms;
    tm.assemble_ms = gt.assemble_ms;
    tm.upload_ms = gt.upload_ms;
    tm.b2_overlapped = (CN(groth16_prover_ops)(p->pv)->info.caps & GROTH16_CAP_B2_OVERLAP) &&
                       k->convention == CUZK_CONVENTION_BELLPERSON && !gt.b2_device;
    t0 = now_ms();
    if (st != CUZK_OK) goto out;
    if (!o->skip_self_verify) {
        CN(groth16_vk) vk;
        CN(groth16_key_vk)(&vk, k);
        cuzk_error verr = {0};
        if (CN(groth16_verify)(&vk, wv + 1, tm.n_public, &proof, &verr) != CUZK_OK) {
            st = ERR(err, CUZK_ERR_UNSAT,
                     "the proof does not verify against the key: the witness does not satisfy the circuit, or the key "
                     "is corrupt or for another circuit (check_witness finds a failing constraint)");
            goto out;
        }
        t1 = now_ms(); tm.verify_ms = t1 - t0; t0 = t1;
    }
    st = encode_proof(out, &proof, wv + 1, tm.n_public, err);
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

static cuzk_status tbl_witness_convert(const cuzk_witness *w, cuzk_witness_form out_form, uint64_t *out,
                                           size_t n_vars, cuzk_error *err) {
    if (w->form == CUZK_WITNESS_WTNS && w->data) { /* straight into out, on every thread: no copy in between */
        cuzk_status st = CN(wtns_convert_mem)(w->data, w->len, "<wtns in memory>", out, n_vars,
                                              out_form == CUZK_WITNESS_FR_MONT, 0, NULL, err);
        if (st != CUZK_OK) return st;
        static const uint64_t one[4] = {1, 0, 0, 0};
        if (out_form == CUZK_WITNESS_FR_MONT ? !CN(fr_is_one)((const CN(fr) *)out) : memcmp(out, one, sizeof one) != 0)
            return ERR(err, CUZK_ERR_MISMATCH, "witness value 0 must be 1 (the constant wire)");
        return CUZK_OK;
    }
    const CN(fr) *wv = NULL;
    CN(fr) *owned = NULL;
    size_t n = 0;
    cuzk_status st = witness_view(&wv, &n, &owned, w, err);
    if (st != CUZK_OK) return st;
    if (n != n_vars) st = ERR(err, CUZK_ERR_MISMATCH, "the witness has %zu values but the circuit has %zu variables", n, n_vars);
    else if (!CN(fr_is_one)(&wv[0])) st = ERR(err, CUZK_ERR_MISMATCH, "witness value 0 must be 1 (the constant wire)");
    else if (out_form == CUZK_WITNESS_FR_MONT) memcpy(out, wv, n * sizeof(CN(fr)));
    else
        for (size_t i = 0; i < n; i++) CN(fr_to_canon)(out + 4 * i, &wv[i]);
    free(owned);
    return st;
}

static cuzk_status tbl_proof_from_bytes(cuzk_proof *out, const uint8_t *proof, size_t proof_len,
                                            const uint8_t *public_inputs, uint32_t n_public, cuzk_error *err) {
    if (proof_len != CN(groth16_proof_bytes)())
        return ERR(err, CUZK_ERR_ARG, "cuzk_proof_from_bytes: a %s proof is %zu bytes, not %zu", CURVE_NAME,
                   CN(groth16_proof_bytes)(), proof_len);
    CN(groth16_proof) pr;
    cuzk_status st = CN(groth16_proof_from_bytes)(&pr, proof, proof_len, err);
    if (st == CUZK_ERR_FORMAT) st = CUZK_ERR_POINT; /* bytes that are not three valid points */
    if (st != CUZK_OK) return st;
    CN(fr) *pub = malloc((n_public ? n_public : 1) * sizeof *pub);
    if (!pub) return ERR(err, CUZK_ERR_NOMEM, "public inputs");
    for (uint32_t i = 0; i < n_public; i++)
        if (!CN(fr_from_bytes_le)(&pub[i], public_inputs + (size_t)i * CUZK_FR_BYTES, CUZK_FR_BYTES)) {
            free(pub);
            return ERR(err, CUZK_ERR_FORMAT, "public input %u is not canonical (>= r)", i);
        }
    st = encode_proof(out, &pr, pub, n_public, err);
    free(pub);
    return st;
}

/* ---- verification ---------------------------------------------------------------------------- */
static cuzk_status vk_wrap(cuzk_vk **out, CN(groth16_vk) *vk, cuzk_error *err) {
    api_vk *v = malloc(sizeof *v);
    if (!v) {
        CN(groth16_vk_free)(vk);
        return ERR(err, CUZK_ERR_NOMEM, "verification key");
    }
    v->h.curve = CURVE_ID;
    v->vk = *vk;
    *out = &v->h;
    return CUZK_OK;
}

static cuzk_status tbl_vk_load_json(cuzk_vk **out, const char *json, size_t len, cuzk_error *err) {
    CN(groth16_vk) vk;
    cuzk_status st = CN(vk_json_read_mem)(&vk, json, len, "<verification_key.json in memory>", err);
    return st == CUZK_OK ? vk_wrap(out, &vk, err) : st;
}

#if CURVE_BELLPERSON /* bellperson .vk: BLS12-381 only */
cuzk_status groth16_vk_load_bellperson(cuzk_vk **out, const uint8_t *bytes, size_t len, cuzk_error *err) {
    CN(groth16_vk) vk;
    cuzk_status st = bellperson_vk_decode(&vk, bytes, len, "bellperson vk <in memory>", err);
    return st == CUZK_OK ? vk_wrap(out, &vk, err) : st;
}
#endif

static cuzk_status tbl_vk_from_pk(cuzk_vk **out, const cuzk_pk *h, cuzk_error *err) {
    const CN(groth16_pk) *pk = CN(groth16_pk_of_const)(h);
    CN(groth16_vk) view, vk;
    CN(groth16_key_vk)(&view, &pk->key);
    vk = view;
    vk.ic = malloc(((size_t)view.n_public + 1) * sizeof *vk.ic);
    if (!vk.ic) return ERR(err, CUZK_ERR_NOMEM, "verification key");
    memcpy(vk.ic, view.ic, ((size_t)view.n_public + 1) * sizeof *vk.ic);
    return vk_wrap(out, &vk, err);
}

static cuzk_status tbl_vk_load_zkey(cuzk_vk **out, const char *path, cuzk_error *err) {
    CN(groth16_vk) vk;
    cuzk_status st = CN(zkey_load_vk)(&vk, path, err);
    return st == CUZK_OK ? vk_wrap(out, &vk, err) : st;
}

static cuzk_status tbl_vk_json(const cuzk_vk *h, char **json, size_t *len, cuzk_error *err) {
    char *t = CN(vk_json_text)(&api_vk_of_const(h)->vk);
    if (!t) return ERR(err, CUZK_ERR_NOMEM, "verification_key.json text");
    *json = t;
    if (len) *len = strlen(t);
    return CUZK_OK;
}

static uint32_t tbl_vk_n_public(const cuzk_vk *vk) { return api_vk_of_const(vk)->vk.n_public; }

static void tbl_vk_free(cuzk_vk *h) {
    api_vk *v = (api_vk *)h;
    CN(groth16_vk_free)(&v->vk);
    free(v);
}

static cuzk_status tbl_verify(const cuzk_vk *h, cuzk_public_form public_form, const void *public_inputs,
                                  size_t public_len, cuzk_proof_form proof_form, const void *proof, size_t proof_len,
                                  cuzk_error *err) {
    const api_vk *vk = api_vk_of_const(h);
    CN(fr) *pub = NULL;
    size_t n_pub = 0;
    CN(groth16_proof) pr;
    cuzk_status st = CUZK_OK;
    switch (public_form) {
    case CUZK_PUBLIC_CANON:
        if (public_len % CUZK_FR_BYTES != 0)
            return ERR(err, CUZK_ERR_ARG, "public inputs: %zu bytes is not a multiple of 32", public_len);
        n_pub = public_len / CUZK_FR_BYTES;
        pub = malloc((n_pub ? n_pub : 1) * sizeof *pub);
        if (!pub) return ERR(err, CUZK_ERR_NOMEM, "public inputs");
        for (size_t i = 0; i < n_pub; i++)
            if (!CN(fr_from_bytes_le)(&pub[i], (const uint8_t *)public_inputs + i * CUZK_FR_BYTES, CUZK_FR_BYTES)) {
                st = ERR(err, CUZK_ERR_FORMAT, "public input %zu is not canonical (>= r)", i);
                goto out;
            }
        break;
    case CUZK_PUBLIC_JSON:
        if ((st = CN(public_json_read_mem)(&pub, &n_pub, public_inputs ? public_inputs : "", public_len,
                                           "<public.json in memory>", err)) != CUZK_OK)
            goto out;
        break;
    default:
        return ERR(err, CUZK_ERR_ARG, "cuzk_verify: unknown public input form %d", (int)public_form);
    }
    switch (proof_form) {
    case CUZK_PROOF_BELLPERSON:
#if !CURVE_BELLPERSON
        st = ERR(err, CUZK_ERR_UNSUPPORTED, "the 192-byte bellperson proof encoding is BLS12-381 only; a %s key takes "
                 "proof.json", CURVE_NAME);
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
        if (proof_len != CN(groth16_proof_bytes)()) {
            st = ERR(err, CUZK_ERR_FORMAT, "a %s proof is exactly %zu bytes (got %zu)", CURVE_NAME,
                     CN(groth16_proof_bytes)(), proof_len);
            goto out;
        }
        st = CN(groth16_proof_from_bytes)(&pr, proof, proof_len, err);
        if (st == CUZK_ERR_FORMAT) st = CUZK_ERR_POINT; /* then an invalid proof, as below */
        break;
    case CUZK_PROOF_SNARKJS_JSON:
        st = CN(proof_json_read_mem)(&pr, proof, proof_len, "<proof.json in memory>", err);
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
    st = CN(groth16_verify)(&vk->vk, pub, n_pub, &pr, err);
out:
    free(pub);
    return st;
}
