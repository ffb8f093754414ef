/* The one prover orchestration (src/groth16/prove.h): the prover value, the CPU backend, backend
 * resolution and the per-curve table. */
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
size_t groth16_key_n_vars(const groth16_key *k) {
    if (!k) return 0;
    if (k->convention == CUZK_CONVENTION_SNARKJS) return k->z ? k->z->n_vars : 0;
    return k->cs ? k->cs->n_vars : 0;
}

uint32_t groth16_key_n_public(const groth16_key *k) {
    if (!k) return 0;
    if (k->convention == CUZK_CONVENTION_SNARKJS) return k->z ? k->z->n_public : 0;
    return k->cs ? k->cs->n_public : 0;
}

size_t groth16_key_domain(const groth16_key *k) {
    if (!k) return 0;
    if (k->convention == CUZK_CONVENTION_SNARKJS) return k->z ? k->z->domain_size : 0;
    return k->cs ? (size_t)1 << groth16_bellperson_log_m(k->cs) : 0;
}

void groth16_key_vk(groth16_vk *out, const groth16_key *k) {
    memset(out, 0, sizeof *out);
    if (!k) return;
    if (k->convention == CUZK_CONVENTION_SNARKJS && k->z) {
        const zkey *z = k->z;
        out->alpha1 = z->alpha1;
        out->beta1 = z->beta1;
        out->beta2 = z->beta2;
        out->gamma2 = z->gamma2;
        out->delta1 = z->delta1;
        out->delta2 = z->delta2;
        out->n_public = z->n_public;
        out->ic = z->ic;
    } else if (k->p) {
        *out = k->p->vk;
    }
}

/* ---- the CPU backend ------------------------------------------------------------------------- */
static cuzk_status cpu_bind(void **state, const groth16_key *k, const groth16_backend_cfg *cfg, cuzk_error *err) {
    (void)cfg;
    *state = NULL;
    if (k->convention == CUZK_CONVENTION_SNARKJS) {
        if (!k->z) return ERR(err, CUZK_ERR_ARG, "cpu backend: snarkjs key without its zkey");
    } else if (k->convention == CUZK_CONVENTION_BELLPERSON) {
        if (CURVE_ID != CUZK_CURVE_BLS12_381) return ERR(err, CUZK_ERR_UNSUPPORTED, "the bellperson convention is BLS12-381 only");
        if (!k->p || !k->cs) return ERR(err, CUZK_ERR_ARG, "cpu backend: bellperson key without parameters or circuit");
    } else {
        return ERR(err, CUZK_ERR_ARG, "cpu backend: unknown convention %d", (int)k->convention);
    }
    *state = (void *)k;
    return CUZK_OK;
}
static void cpu_unbind(void *state) { (void)state; }
static size_t cpu_start_bytes(const groth16_key *k, int nthreads) {
    if (k->convention == CUZK_CONVENTION_SNARKJS) return groth16_zkey_start_bytes(k->z);
#ifdef CUZK_CURVE_BOUND_BN254
    (void)nthreads;
    return 0; /* no bellperson keys on BN254 (cpu_bind refuses them) */
#else
    return groth16_bellperson_start_bytes(k->p, k->cs, nthreads);
#endif
}
static cuzk_status cpu_start(void *state, groth16_pending **out, const fr *w, size_t n_w, const fr *r, const fr *s,
                             int nthreads, groth16_release_fn release, void *release_ctx, groth16_timings *t,
                             cuzk_error *err) {
    const groth16_key *k = state;
    if (k->convention == CUZK_CONVENTION_SNARKJS)
        return groth16_zkey_start(out, k->z, &groth16_stages_cpu, w, n_w, r, s, nthreads, release, release_ctx, t, err);
#ifdef CUZK_CURVE_BOUND_BN254
    return ERR(err, CUZK_ERR_UNSUPPORTED, "the bellperson convention is BLS12-381 only");
#else
    return groth16_prove_bellperson_start(out, k->p, k->cs, w, n_w, r, s, nthreads, release, release_ctx, t, err);
#endif
}

const groth16_backend_ops groth16_backend_cpu_ops = {
    .name = "cpu",
    .caps = 0,
    .bind = cpu_bind,
    .unbind = cpu_unbind,
    .start_bytes = cpu_start_bytes,
    .start = cpu_start,
};

/* ---- resolution ------------------------------------------------------------------------------- */
cuzk_status groth16_backend_pick(cuzk_curve curve, cuzk_backend requested, const groth16_backend_ops **out,
                                 cuzk_error *err) {
    const groth16_curve *gc = groth16_curve_get(curve);
    *out = NULL;
    if (!gc) return ERR(err, CUZK_ERR_UNSUPPORTED, "curve %s is not supported by this build", cuzk_curve_name(curve));
    *out = gc->cpu;
    if (requested == CUZK_BACKEND_CPU) return CUZK_OK;
    if (requested != CUZK_BACKEND_AUTO && requested != CUZK_BACKEND_GPU)
        return ERR(err, CUZK_ERR_ARG, "unknown backend %d", (int)requested);
    int count = 0;
#ifdef CUZK_HAVE_CUDA
    cuzk_error gerr = {0};
    if (gpu_device_count(&count, &gerr) != CUZK_OK) count = 0;
#endif
    if (!gc->gpu) { /* a curve the device code does not handle yet */
        if (requested == CUZK_BACKEND_GPU)
            return ERR(err, CUZK_ERR_UNSUPPORTED, "--backend gpu: the GPU backend does not support %s yet (use the CPU)",
                       cuzk_curve_name(curve));
        return CUZK_OK;
    }
    if (count > 0) {
        *out = gc->gpu;
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
    cuzk_log(CUZK_LOG_INFO, "no GPU found: proving on the CPU");
    return CUZK_OK;
}

/* ---- the prover ------------------------------------------------------------------------------- */
struct groth16_prover {
    groth16_key key;               /* a copy of the views (what they point to is borrowed) */
    const groth16_backend_ops *ops;
    void *state;
};

cuzk_status groth16_prover_create(groth16_prover **out, const groth16_key *k, const groth16_backend_ops *ops,
                                  const groth16_backend_cfg *cfg, cuzk_error *err) {
    if (!out || !k || !ops) return ERR(err, CUZK_ERR_ARG, "groth16_prover_create: NULL argument");
    *out = NULL;
    if (!groth16_curve_get(k->curve))
        return ERR(err, CUZK_ERR_UNSUPPORTED, "curve %s is not instantiated in this build", cuzk_curve_name(k->curve));
    if (k->convention == CUZK_CONVENTION_BELLPERSON && k->p) {
        /* a key whose host G1 queries were given back (cuzk_bench_drop_host_g1, an SRS store's lean
         * view) binds only to a device backend that borrows a resident copy of them */
        const bellperson_params *p = k->p;
        bool borrowed = cfg && cfg->gpu_srs && (ops->caps & GROTH16_CAP_SHARED_SRS);
        if (((p->n_a && !p->a) || (p->n_b_g1 && !p->b_g1) || (p->n_l && !p->l) || (p->n_h && !p->h)) && !borrowed)
            return ERR(err, CUZK_ERR_ARG,
                       "the key's host G1 queries were released (after a GPU upload): only the GPU provers made "
                       "before that, or ones borrowing the resident copy, can prove it");
    }
    groth16_backend_cfg dflt = {0};
    groth16_prover *pv = calloc(1, sizeof *pv);
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

void groth16_prover_destroy(groth16_prover *pv) {
    if (!pv) return;
    pv->ops->unbind(pv->state);
    free(pv);
}

const groth16_backend_ops *groth16_prover_ops(const groth16_prover *pv) { return pv ? pv->ops : NULL; }
void *groth16_prover_state(const groth16_prover *pv) { return pv ? pv->state : NULL; }
const groth16_key *groth16_prover_key(const groth16_prover *pv) { return pv ? &pv->key : NULL; }

cuzk_status groth16_prove_start(groth16_prover *pv, groth16_pending **out, const fr *w, size_t n_w, const fr *r,
                                const fr *s, int nthreads, groth16_release_fn release, void *release_ctx,
                                groth16_timings *t, cuzk_error *err) {
    if (out) *out = NULL;
    if (!pv || !out) return ERR(err, CUZK_ERR_ARG, "groth16_prove_start: NULL argument");
    return pv->ops->start(pv->state, out, w, n_w, r, s, nthreads, release, release_ctx, t, err);
}

cuzk_status groth16_prove_finish(groth16_proof *out, groth16_pending *pend, int nthreads, groth16_timings *t,
                                 cuzk_error *err) {
    return groth16_prove_bellperson_finish(out, pend, nthreads, t, err);
}

cuzk_status groth16_prove_one(groth16_prover *pv, groth16_proof *out, const fr *w, size_t n_w, const fr *r,
                              const fr *s, int nthreads, groth16_timings *t, cuzk_error *err) {
    groth16_timings ts = {0}, tf = {0};
    groth16_pending *pend = NULL;
    if (!out) return ERR(err, CUZK_ERR_ARG, "groth16_prove_one: NULL argument");
    cuzk_status st = groth16_prove_start(pv, &pend, w, n_w, r, s, nthreads, NULL, NULL, &ts, err);
    if (st == CUZK_OK) st = groth16_prove_finish(out, pend, nthreads, &tf, err);
    groth16_pending_free(pend);
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

/* ---- per-curve table ---------------------------------------------------------------------------- */
/* This file is compiled once per curve (CMakeLists.txt, CUZK_CURVE_GENERIC_SRC); each copy knows
 * its own curve, and so does its GPU backend (src/groth16/gpu_prover.c, compiled per curve too:
 * BN254 runs the snarkjs convention with the BN254 device kernels of src/cuda/gpu.h). BN254 has no
 * compact proof encoding (bellperson's 192 bytes are BLS12-381's zcash points). */
#ifdef CUZK_CURVE_BOUND_BN254
/* Session 4 found BN254 GPU proofs failing self-verification: this file's BN254 copy called the
 * BLS12-381 H kernel (gpu_h_snarkjs_async); gpu_prover.c now maps it to gpu_bn254_h_snarkjs_async,
 * and tests/test_gpu_bn254.c checks that kernel against bn254_h_snarkjs. */
static const groth16_curve groth16_curve_this = {CUZK_CURVE_BN254, "bn254", &groth16_backend_cpu_ops,
                                                 &groth16_backend_gpu_ops, 0, NULL};
#else
static void bls12_381_proof_encode(uint8_t *out, const groth16_proof *p) { bellperson_proof_encode(out, p); }
static const groth16_curve groth16_curve_this = {CUZK_CURVE_BLS12_381, "bls12-381", &groth16_backend_cpu_ops,
                                                 &groth16_backend_gpu_ops, BELLPERSON_PROOF_BYTES,
                                                 bls12_381_proof_encode};
#endif

const groth16_curve *groth16_curve_get(cuzk_curve c) { return c == CURVE_ID ? &groth16_curve_this : NULL; }
