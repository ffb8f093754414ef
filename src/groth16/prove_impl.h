/* The one prover orchestration (src/groth16/prove.h) of one curve: the key, the prover value, the
 * CPU backend, backend resolution, the proof's bytes. A template, instantiated per curve
 * (src/groth16/groth16_<curve>.c); every curve-dependent name is CN(name). */
#include "groth16/prove.h"

#include <stdlib.h>
#include <string.h>

#include "groth16/prover_internal.h"
#include "util/log.h"
#include "util/parallel.h"
#ifdef CUZK_HAVE_CUDA
#include "cuda/gpu.h"
#endif

/* ---- the key ---------------------------------------------------------------------------------- */
size_t CN(groth16_key_n_vars)(const CN(groth16_key) *k) {
    if (!k) return 0;
    if (k->convention == CUZK_CONVENTION_SNARKJS) return k->z ? k->z->n_vars : 0;
    return k->cs ? k->cs->n_vars : 0;
}

uint32_t CN(groth16_key_n_public)(const CN(groth16_key) *k) {
    if (!k) return 0;
    if (k->convention == CUZK_CONVENTION_SNARKJS) return k->z ? k->z->n_public : 0;
    return k->cs ? k->cs->n_public : 0;
}

size_t CN(groth16_key_domain)(const CN(groth16_key) *k) {
    if (!k) return 0;
    if (k->convention == CUZK_CONVENTION_SNARKJS) return k->z ? k->z->domain_size : 0;
    return k->cs ? (size_t)1 << CN(groth16_bellperson_log_m)(k->cs) : 0;
}

void CN(groth16_key_vk)(CN(groth16_vk) *out, const CN(groth16_key) *k) {
    memset(out, 0, sizeof *out);
    if (!k) return;
    if (k->convention == CUZK_CONVENTION_SNARKJS && k->z) {
        const CN(zkey) *z = k->z;
        out->alpha1 = z->alpha1;
        out->beta1 = z->beta1;
        out->beta2 = z->beta2;
        out->gamma2 = z->gamma2;
        out->delta1 = z->delta1;
        out->delta2 = z->delta2;
        out->n_public = z->n_public;
        out->ic = z->ic;
    }
#if CURVE_BELLPERSON
    else if (k->p) {
        *out = k->p->vk;
    }
#endif
}

/* ---- the CPU backend ------------------------------------------------------------------------- */
static cuzk_status cpu_bind(void **state, const CN(groth16_key) *k, const groth16_backend_cfg *cfg, cuzk_error *err) {
    (void)cfg;
    *state = NULL;
    if (k->convention == CUZK_CONVENTION_SNARKJS) {
        if (!k->z) return ERR(err, CUZK_ERR_ARG, "cpu backend: snarkjs key without its zkey");
    } else if (k->convention == CUZK_CONVENTION_BELLPERSON) {
#if CURVE_BELLPERSON
        if (!k->p || !k->cs) return ERR(err, CUZK_ERR_ARG, "cpu backend: bellperson key without parameters or circuit");
#else
        return ERR(err, CUZK_ERR_UNSUPPORTED, "the bellperson convention is BLS12-381 only");
#endif
    } else {
        return ERR(err, CUZK_ERR_ARG, "cpu backend: unknown convention %d", (int)k->convention);
    }
    *state = (void *)k;
    return CUZK_OK;
}
static void cpu_unbind(void *state) { (void)state; }
static size_t cpu_start_bytes(const CN(groth16_key) *k, int nthreads) {
    if (k->convention == CUZK_CONVENTION_SNARKJS) return CN(groth16_zkey_start_bytes)(k->z);
#if CURVE_BELLPERSON
    return groth16_bellperson_start_bytes(k->p, k->cs, nthreads);
#else
    (void)nthreads;
    return 0; /* no bellperson keys on BN254 (cpu_bind refuses them) */
#endif
}
static cuzk_status cpu_start(void *state, CN(groth16_pending) **out, const CN(fr) *w, size_t n_w, const CN(fr) *r, const CN(fr) *s,
                             int nthreads, groth16_release_fn release, void *release_ctx, groth16_timings *t,
                             cuzk_error *err) {
    const CN(groth16_key) *k = state;
    if (k->convention == CUZK_CONVENTION_SNARKJS)
        return CN(groth16_zkey_start)(out, k->z, &CN(groth16_stages_cpu), w, n_w, r, s, nthreads, release, release_ctx, t, err);
#if CURVE_BELLPERSON
    return groth16_prove_bellperson_start(out, k->p, k->cs, w, n_w, r, s, nthreads, release, release_ctx, t, err);
#else
    return ERR(err, CUZK_ERR_UNSUPPORTED, "the bellperson convention is BLS12-381 only");
#endif
}

const CN(groth16_backend_ops) CN(groth16_backend_cpu_ops) = {
    .info = {.name = "cpu", .caps = 0},
    .bind = cpu_bind,
    .unbind = cpu_unbind,
    .start_bytes = cpu_start_bytes,
    .start = cpu_start,
};

/* ---- resolution ------------------------------------------------------------------------------- */
cuzk_status CN(groth16_backend_pick)(cuzk_backend requested, const CN(groth16_backend_ops) **out, cuzk_error *err) {
    *out = &CN(groth16_backend_cpu_ops);
    if (requested == CUZK_BACKEND_CPU) return CUZK_OK;
    if (requested != CUZK_BACKEND_AUTO && requested != CUZK_BACKEND_GPU)
        return ERR(err, CUZK_ERR_ARG, "unknown backend %d", (int)requested);
    int count = 0;
#ifdef CUZK_HAVE_CUDA
    cuzk_error gerr = {0};
    if (gpu_device_count(&count, &gerr) != CUZK_OK) count = 0;
#endif
    if (count > 0) {
        *out = &CN(groth16_backend_gpu_ops);
        return CUZK_OK;
    }
    if (requested == CUZK_BACKEND_GPU) {
#ifdef CUZK_HAVE_CUDA
        return ERR(err, CUZK_ERR_DEVICE, "--backend gpu: no CUDA device found");
#else
        return ERR(err, CUZK_ERR_DEVICE,
                   "--backend gpu: this build has no CUDA backend (built without nvcc or with -DCUZK_CUDA=OFF)");
#endif
    }
#ifdef CUZK_HAVE_CUDA
    cuzk_log(CUZK_LOG_INFO, "no GPU found: proving on the CPU");
#else
    cuzk_log(CUZK_LOG_INFO, "this build has no CUDA backend: proving on the CPU");
#endif
    return CUZK_OK;
}

/* ---- the prover ------------------------------------------------------------------------------- */
struct CN(groth16_prover) {
    CN(groth16_key) key;               /* a copy of the views (what they point to is borrowed) */
    const CN(groth16_backend_ops) *ops;
    void *state;
};

cuzk_status CN(groth16_prover_create)(CN(groth16_prover) **out, const CN(groth16_key) *k, const CN(groth16_backend_ops) *ops,
                                      const groth16_backend_cfg *cfg, cuzk_error *err) {
    if (!out || !k || !ops) return ERR(err, CUZK_ERR_ARG, "groth16_prover_create: NULL argument");
    *out = NULL;
    if (k->curve != CURVE_ID) /* the key's tag disagrees with its type: a key built wrong */
        return ERR(err, CUZK_ERR_ARG, "a key tagged %s given to the %s prover", cuzk_curve_name(k->curve), CURVE_NAME);
#if CURVE_BELLPERSON
    if (k->convention == CUZK_CONVENTION_BELLPERSON && k->p) {
        /* a key whose host G1 queries were given back (cuzk_bench_drop_host_g1, an SRS store's lean
         * view) binds only to a device backend that borrows a resident copy of them */
        const bellperson_params *p = k->p;
        bool borrowed = cfg && cfg->gpu_srs && (ops->info.caps & GROTH16_CAP_SHARED_SRS);
        if (((p->n_a && !p->a) || (p->n_b_g1 && !p->b_g1) || (p->n_l && !p->l) || (p->n_h && !p->h)) && !borrowed)
            return ERR(err, CUZK_ERR_ARG,
                       "the key's host G1 queries were released (after a GPU upload): only the GPU provers made "
                       "before that, or ones borrowing the resident copy, can prove it");
    }
#endif
    groth16_backend_cfg dflt = {0};
    CN(groth16_prover) *pv = calloc(1, sizeof *pv);
    if (!pv) return ERR(err, CUZK_ERR_NOMEM, "groth16_prover_create");
    pv->key = *k;
    pv->ops = ops;
    cuzk_status st = ops->bind(&pv->state, &pv->key, cfg ? cfg : &dflt, err);
    if (st != CUZK_OK) {
        free(pv);
        return st;
    }
    *out = pv;
    return CUZK_OK;
}

void CN(groth16_prover_destroy)(CN(groth16_prover) *pv) {
    if (!pv) return;
    pv->ops->unbind(pv->state);
    free(pv);
}

const CN(groth16_backend_ops) *CN(groth16_prover_ops)(const CN(groth16_prover) *pv) { return pv ? pv->ops : NULL; }
void *CN(groth16_prover_state)(const CN(groth16_prover) *pv) { return pv ? pv->state : NULL; }
const CN(groth16_key) *CN(groth16_prover_key)(const CN(groth16_prover) *pv) { return pv ? &pv->key : NULL; }

cuzk_status CN(groth16_prove_start)(CN(groth16_prover) *pv, CN(groth16_pending) **out, const CN(fr) *w, size_t n_w, const CN(fr) *r,
                                    const CN(fr) *s, int nthreads, groth16_release_fn release, void *release_ctx,
                                    groth16_timings *t, cuzk_error *err) {
    if (out) *out = NULL;
    if (!pv || !out) return ERR(err, CUZK_ERR_ARG, "groth16_prove_start: NULL argument");
    return pv->ops->start(pv->state, out, w, n_w, r, s, nthreads, release, release_ctx, t, err);
}

cuzk_status CN(groth16_prove_finish)(CN(groth16_proof) *out, CN(groth16_pending) *pend, int nthreads, groth16_timings *t,
                                     cuzk_error *err) {
    return CN(groth16_prove_bellperson_finish)(out, pend, nthreads, t, err);
}

cuzk_status CN(groth16_prove_one)(CN(groth16_prover) *pv, CN(groth16_proof) *out, const CN(fr) *w, size_t n_w, const CN(fr) *r,
                                  const CN(fr) *s, int nthreads, groth16_timings *t, cuzk_error *err) {
    groth16_timings ts = {0}, tf = {0};
    CN(groth16_pending) *pend = NULL;
    if (!out) return ERR(err, CUZK_ERR_ARG, "groth16_prove_one: NULL argument");
    cuzk_status st = CN(groth16_prove_start)(pv, &pend, w, n_w, r, s, nthreads, NULL, NULL, &ts, err);
    if (st == CUZK_OK) st = CN(groth16_prove_finish)(out, pend, nthreads, &tf, err);
    CN(groth16_pending_free)(pend);
    if (t) {
        *t = ts;
        t->msm_b2_ms = tf.msm_b2_ms;
        t->b2_wait_ms = tf.b2_wait_ms;
        t->b2_device = ts.b2_device || tf.b2_device;
        t->assemble_ms = tf.assemble_ms;
        t->total_ms = ts.total_ms + tf.total_ms;
    }
    return st;
}

/* ---- a proof as bytes ---------------------------------------------------------------------------- */
#if CURVE_BELLPERSON /* bellperson's 192 bytes: compressed zcash points */
enum { PROOF_BYTES = BELLPERSON_PROOF_BYTES };
size_t CN(groth16_proof_bytes)(void) { return PROOF_BYTES; }
void CN(groth16_proof_to_bytes)(uint8_t *out, const CN(groth16_proof) *p) { bellperson_proof_encode(out, p); }
cuzk_status CN(groth16_proof_from_bytes)(CN(groth16_proof) *p, const uint8_t *in, size_t len, cuzk_error *err) {
    if (len != BELLPERSON_PROOF_BYTES)
        return ERR(err, CUZK_ERR_FORMAT, "a bellperson proof is exactly 192 bytes (got %zu)", len);
    return bellperson_proof_decode(p, in, err);
}
#else /* snarkjs's LEM encoding, as in .zkey files */
enum { PROOF_G1_BYTES = 2 * sizeof(CN(fp)), PROOF_G2_BYTES = 4 * sizeof(CN(fp)) };
enum { PROOF_BYTES = 2 * PROOF_G1_BYTES + PROOF_G2_BYTES };
_Static_assert(PROOF_BYTES <= GROTH16_PROOF_MAX_BYTES, "GROTH16_PROOF_MAX_BYTES");
size_t CN(groth16_proof_bytes)(void) { return PROOF_BYTES; }
void CN(groth16_proof_to_bytes)(uint8_t *out, const CN(groth16_proof) *p) {
    CN(g1_affine_to_lem)(out, &p->a);
    CN(g2_affine_to_lem)(out + PROOF_G1_BYTES, &p->b);
    CN(g1_affine_to_lem)(out + PROOF_G1_BYTES + PROOF_G2_BYTES, &p->c);
}
cuzk_status CN(groth16_proof_from_bytes)(CN(groth16_proof) *p, const uint8_t *in, size_t len, cuzk_error *err) {
    if (len != CN(groth16_proof_bytes)())
        return ERR(err, CUZK_ERR_FORMAT, "a %s proof is %zu bytes (A, B, C in snarkjs's LEM encoding), not %zu",
                   CURVE_NAME, CN(groth16_proof_bytes)(), len);
    ec_decode_result r;
    if ((r = CN(g1_affine_from_lem)(&p->a, in)) != EC_DECODE_OK)
        return ERR(err, CUZK_ERR_POINT, "proof point A: %s", ec_decode_result_str(r));
    if ((r = CN(g2_affine_from_lem)(&p->b, in + PROOF_G1_BYTES)) != EC_DECODE_OK)
        return ERR(err, CUZK_ERR_POINT, "proof point B: %s", ec_decode_result_str(r));
    if ((r = CN(g1_affine_from_lem)(&p->c, in + PROOF_G1_BYTES + PROOF_G2_BYTES)) != EC_DECODE_OK)
        return ERR(err, CUZK_ERR_POINT, "proof point C: %s", ec_decode_result_str(r));
    return CUZK_OK;
}
#endif
