/* The curve's table (groth16_curve, src/groth16/prove.h): this curve's functions behind signatures
 * without curve types, for code compiled once (the engine, the public API's entry points). A
 * template, included last by the curve's instantiation of src/groth16 (groth16_<curve>.c), after
 * prove_impl.h, gpu_prover_impl.h and pk_impl.h whose functions it lists. */
#include "groth16/prove.h"

/* An erased Fr value is this curve's fr: the only place the two meet */
_Static_assert(sizeof(CN(fr)) == sizeof(groth16_fr_any) && sizeof(CN(fr)) == 4 * sizeof(uint64_t) &&
                   _Alignof(CN(fr)) == _Alignof(groth16_fr_any),
               "an Fr value is 4 x uint64 limbs");
static const CN(fr) *fr_of(const groth16_fr_any *v) { return (const CN(fr) *)v; }
static CN(fr) *fr_of_mut(groth16_fr_any *v) { return (CN(fr) *)v; }

static const CN(groth16_key) *key_of(const groth16_key_any *k) { return CN(groth16_key_unerase)(k); }
static CN(groth16_prover) *prover_of(groth16_prover_any *pv) { return (CN(groth16_prover) *)pv; }
static const CN(groth16_prover) *prover_of_const(const groth16_prover_any *pv) { return (const CN(groth16_prover) *)pv; }
static CN(groth16_pending) *pending_of(groth16_pending_any *p) { return (CN(groth16_pending) *)p; }

/* this curve's ops for one of its backends' info (the table's cpu or gpu), else NULL */
static const CN(groth16_backend_ops) *ops_of(const groth16_backend_info *b) {
    if (b == &CN(groth16_backend_cpu_ops).info) return &CN(groth16_backend_cpu_ops);
    if (b == &CN(groth16_backend_gpu_ops).info) return &CN(groth16_backend_gpu_ops);
    return NULL;
}

static size_t tbl_key_n_vars(const groth16_key_any *k) { return CN(groth16_key_n_vars)(key_of(k)); }
static uint32_t tbl_key_n_public(const groth16_key_any *k) { return CN(groth16_key_n_public)(key_of(k)); }
static size_t tbl_key_domain(const groth16_key_any *k) { return CN(groth16_key_domain)(key_of(k)); }
static cuzk_convention tbl_key_convention(const groth16_key_any *k) { return key_of(k)->convention; }
static bool tbl_key_has_cs(const groth16_key_any *k) { return key_of(k)->cs != NULL; }
static bool tbl_key_same(const groth16_key_any *a, const groth16_key_any *b) {
    const CN(groth16_key) *ka = key_of(a), *kb = key_of(b);
    return ka->convention == kb->convention && ka->z == kb->z && ka->cs == kb->cs
#if CURVE_BELLPERSON
           && ka->p == kb->p
#endif
        ;
}

static size_t tbl_start_bytes(const groth16_key_any *k, const groth16_backend_info *backend, int nthreads) {
    const CN(groth16_backend_ops) *ops = ops_of(backend);
    return ops ? ops->start_bytes(key_of(k), nthreads) : 0;
}

static cuzk_status tbl_prover_create(groth16_prover_any **out, const groth16_key_any *k,
                                     const groth16_backend_info *backend, const groth16_backend_cfg *cfg,
                                     cuzk_error *err) {
    const CN(groth16_backend_ops) *ops = ops_of(backend);
    CN(groth16_prover) *pv = NULL;
    *out = NULL;
    if (!ops) return ERR(err, CUZK_ERR_ARG, "groth16_prover_create: a backend not of the %s table", CURVE_NAME);
    cuzk_status st = CN(groth16_prover_create)(&pv, key_of(k), ops, cfg, err);
    *out = (groth16_prover_any *)pv;
    return st;
}
static void tbl_prover_destroy(groth16_prover_any *pv) { CN(groth16_prover_destroy)(prover_of(pv)); }
static const groth16_backend_info *tbl_prover_backend(const groth16_prover_any *pv) {
    const CN(groth16_backend_ops) *ops = CN(groth16_prover_ops)(prover_of_const(pv));
    return ops ? &ops->info : NULL;
}
static void *tbl_prover_state(const groth16_prover_any *pv) { return CN(groth16_prover_state)(prover_of_const(pv)); }

static cuzk_status tbl_prove_start(groth16_prover_any *pv, groth16_pending_any **out, const groth16_fr_any *w,
                                   size_t n_w, const groth16_fr_any *r, const groth16_fr_any *s, int nthreads,
                                   groth16_release_fn release, void *release_ctx, groth16_timings *t, cuzk_error *err) {
    CN(groth16_pending) *p = NULL;
    cuzk_status st = CN(groth16_prove_start)(prover_of(pv), &p, fr_of(w), n_w, fr_of(r), fr_of(s), nthreads, release,
                                             release_ctx, t, err);
    *out = (groth16_pending_any *)p;
    return st;
}

static cuzk_status tbl_prove_finish(uint8_t *proof, groth16_pending_any *pend, int nthreads, groth16_timings *t,
                                    cuzk_error *err) {
    CN(groth16_proof) p;
    cuzk_status st = CN(groth16_prove_finish)(&p, pending_of(pend), nthreads, t, err);
    if (st == CUZK_OK) CN(groth16_proof_to_bytes)(proof, &p);
    return st;
}
static size_t tbl_pending_bytes(const groth16_pending_any *p) {
    return CN(groth16_pending_bytes)((const CN(groth16_pending) *)p);
}
static void tbl_pending_free(groth16_pending_any *p) { CN(groth16_pending_free)(pending_of(p)); }

static cuzk_status tbl_random_fr(groth16_fr_any *out, cuzk_error *err) { return CN(groth16_random_fr)(fr_of_mut(out), err); }

static cuzk_status tbl_witness_ready(groth16_fr_any *w, size_t n, int canonical, cuzk_error *err) {
    CN(fr) *v = fr_of_mut(w);
    if (n == 0) return ERR(err, CUZK_ERR_MISMATCH, "an empty witness (value 0 must be ONE)");
    if (canonical)
        for (size_t i = 0; i < n; i++) {
            uint64_t l[4];
            memcpy(l, v[i].l, sizeof l);
            if (!CN(fr_is_canon)(l))
                return ERR(err, CUZK_ERR_FORMAT, "witness value %zu is not canonical (>= the %s group order r)", i,
                           CURVE_NAME);
            CN(fr_from_canon)(&v[i], l);
        }
    if (!CN(fr_is_one)(&v[0])) return ERR(err, CUZK_ERR_MISMATCH, "witness value 0 is not ONE");
    return CUZK_OK;
}

static cuzk_status tbl_check_witness(const groth16_key_any *k, const groth16_fr_any *w, size_t n, uint32_t *bad_row,
                                     cuzk_error *err) {
    const CN(groth16_key) *key = key_of(k);
    if (!key->cs) return ERR(err, CUZK_ERR_ARG, "checking the witness needs the key's circuit");
    return CN(r1cs_check_witness)(key->cs, fr_of(w), n, bad_row, err);
}

static void tbl_fr_to_bytes(uint8_t *out, const groth16_fr_any *in) { CN(fr_to_bytes_le)(out, 32, fr_of(in)); }

const groth16_curve CN(groth16_curve_table) = {
    .id = CURVE_ID,
    .name = CURVE_NAME,
    .cpu = &CN(groth16_backend_cpu_ops).info,
    .gpu = &CN(groth16_backend_gpu_ops).info,
    .proof_bytes = PROOF_BYTES,
    .key_n_vars = tbl_key_n_vars,
    .key_n_public = tbl_key_n_public,
    .key_domain = tbl_key_domain,
    .key_convention = tbl_key_convention,
    .key_has_cs = tbl_key_has_cs,
    .key_same = tbl_key_same,
    .start_bytes = tbl_start_bytes,
    .prover_create = tbl_prover_create,
    .prover_destroy = tbl_prover_destroy,
    .prover_backend = tbl_prover_backend,
    .prover_state = tbl_prover_state,
    .prove_start = tbl_prove_start,
    .prove_finish = tbl_prove_finish,
    .pending_bytes = tbl_pending_bytes,
    .pending_free = tbl_pending_free,
    .random_fr = tbl_random_fr,
    .witness_ready = tbl_witness_ready,
    .check_witness = tbl_check_witness,
    .fr_to_bytes = tbl_fr_to_bytes,
    /* the public API's half (pk_impl.h) */
    .pk_load_zkey = tbl_pk_load_zkey,
    .pk_free = tbl_pk_free,
    .pk_describe = tbl_pk_describe,
    .pk_key = tbl_pk_key,
    .prover_new = tbl_prover_new,
    .prover_free = tbl_prover_free,
    .prover_backend_name = tbl_prover_backend_name,
    .prove = tbl_prove,
    .witness_count = tbl_witness_count,
    .witness_convert = tbl_witness_convert,
    .proof_from_bytes = tbl_proof_from_bytes,
    .vk_load_json = tbl_vk_load_json,
    .vk_load_zkey = tbl_vk_load_zkey,
    .vk_json = tbl_vk_json,
    .vk_from_pk = tbl_vk_from_pk,
    .vk_n_public = tbl_vk_n_public,
    .vk_free = tbl_vk_free,
    .verify = tbl_verify,
};
