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
#ifdef CUZK_HAVE_CUDA
    cuzk_log(CUZK_LOG_INFO, "no GPU found: proving on the CPU");
#else
    cuzk_log(CUZK_LOG_INFO, "this build has no CUDA backend: proving on the CPU");
#endif
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
    if (k->curve != CURVE_ID) /* a key of another curve binds to that curve's compile (groth16_curve_get) */
        return ERR(err, CUZK_ERR_UNSUPPORTED, "a %s key given to the %s prover", cuzk_curve_name(k->curve),
                   cuzk_curve_name(CURVE_ID));
    if (k->convention == CUZK_CONVENTION_BELLPERSON && k->p) {
        /* a key whose host G1 queries were given back (benchkit_drop_host_g1, an SRS store's lean
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

/* ---- a proof as bytes ---------------------------------------------------------------------------- */
#ifdef CUZK_CURVE_BOUND_BN254
size_t groth16_proof_bytes(void) { return 2 * BN254_G1_LEM_BYTES + BN254_G2_LEM_BYTES; }
void groth16_proof_to_bytes(uint8_t *out, const groth16_proof *p) {
    g1_affine_to_lem(out, &p->a);
    g2_affine_to_lem(out + BN254_G1_LEM_BYTES, &p->b);
    g1_affine_to_lem(out + BN254_G1_LEM_BYTES + BN254_G2_LEM_BYTES, &p->c);
}
cuzk_status groth16_proof_from_bytes(groth16_proof *p, const uint8_t *in, size_t len, cuzk_error *err) {
    if (len != groth16_proof_bytes())
        return ERR(err, CUZK_ERR_FORMAT, "a %s proof is %zu bytes (A, B, C in snarkjs's LEM encoding), not %zu",
                   cuzk_curve_name(CURVE_ID), groth16_proof_bytes(), len);
    ec_decode_result r;
    if ((r = g1_affine_from_lem(&p->a, in)) != EC_DECODE_OK)
        return ERR(err, CUZK_ERR_POINT, "proof point A: %s", ec_decode_result_str(r));
    if ((r = g2_affine_from_lem(&p->b, in + BN254_G1_LEM_BYTES)) != EC_DECODE_OK)
        return ERR(err, CUZK_ERR_POINT, "proof point B: %s", ec_decode_result_str(r));
    if ((r = g1_affine_from_lem(&p->c, in + BN254_G1_LEM_BYTES + BN254_G2_LEM_BYTES)) != EC_DECODE_OK)
        return ERR(err, CUZK_ERR_POINT, "proof point C: %s", ec_decode_result_str(r));
    return CUZK_OK;
}
#else
size_t groth16_proof_bytes(void) { return BELLPERSON_PROOF_BYTES; }
void groth16_proof_to_bytes(uint8_t *out, const groth16_proof *p) { bellperson_proof_encode(out, p); }
cuzk_status groth16_proof_from_bytes(groth16_proof *p, const uint8_t *in, size_t len, cuzk_error *err) {
    if (len != BELLPERSON_PROOF_BYTES)
        return ERR(err, CUZK_ERR_FORMAT, "a bellperson proof is exactly 192 bytes (got %zu)", len);
    return bellperson_proof_decode(p, in, err);
}
#endif

/* ---- per-curve table ---------------------------------------------------------------------------- */
/* This file is compiled once per curve (CMakeLists.txt, CUZK_CURVE_GENERIC_SRC); each copy defines
 * its curve's table, and so does its GPU backend (src/groth16/gpu_prover.c, compiled per curve too:
 * BN254 runs the snarkjs convention with the BN254 device kernels of src/cuda/gpu.h). The entries
 * below wrap this compile's functions behind signatures without curve types (prove.h). */
_Static_assert(sizeof(fr) == 32 && sizeof(fr) == 4 * sizeof(uint64_t), "an Fr value is 4 x uint64 limbs");

static cuzk_status tbl_prove_start(groth16_prover *pv, groth16_pending **out, const uint64_t *w, size_t n_w,
                                   const uint64_t *r, const uint64_t *s, int nthreads, groth16_release_fn release,
                                   void *release_ctx, groth16_timings *t, cuzk_error *err) {
    return groth16_prove_start(pv, out, (const fr *)w, n_w, (const fr *)r, (const fr *)s, nthreads, release,
                               release_ctx, t, err);
}

static cuzk_status tbl_prove_finish(uint8_t *proof, groth16_pending *pend, int nthreads, groth16_timings *t,
                                    cuzk_error *err) {
    groth16_proof p;
    cuzk_status st = groth16_prove_finish(&p, pend, nthreads, t, err);
    if (st == CUZK_OK) groth16_proof_to_bytes(proof, &p);
    return st;
}

static cuzk_status tbl_random_fr(uint64_t *out, cuzk_error *err) { return groth16_random_fr((fr *)out, err); }

static cuzk_status tbl_witness_ready(uint64_t *w, size_t n, int canonical, cuzk_error *err) {
    fr *v = (fr *)w;
    if (n == 0) return ERR(err, CUZK_ERR_MISMATCH, "an empty witness (value 0 must be ONE)");
    if (canonical)
        for (size_t i = 0; i < n; i++) {
            uint64_t l[4];
            memcpy(l, v[i].l, sizeof l);
            if (!fr_is_canon(l))
                return ERR(err, CUZK_ERR_FORMAT, "witness value %zu is not canonical (>= the %s group order r)", i,
                           cuzk_curve_name(CURVE_ID));
            fr_from_canon(&v[i], l);
        }
    if (!fr_is_one(&v[0])) return ERR(err, CUZK_ERR_MISMATCH, "witness value 0 is not ONE");
    return CUZK_OK;
}

static cuzk_status tbl_check_witness(const r1cs *cs, const uint64_t *w, size_t n, uint32_t *bad_row, cuzk_error *err) {
    return r1cs_check_witness(cs, (const fr *)w, n, bad_row, err);
}

static void tbl_fr_to_bytes(uint8_t *out, const uint64_t *in) { fr_to_bytes_le(out, 32, (const fr *)in); }

#ifdef CUZK_CURVE_BOUND_BN254
#define TBL_ID CUZK_CURVE_BN254
#define TBL_NAME "bn254"
#define TBL_PROOF_BYTES (2 * BN254_G1_LEM_BYTES + BN254_G2_LEM_BYTES)
#else
#define TBL_ID CUZK_CURVE_BLS12_381
#define TBL_NAME "bls12-381"
#define TBL_PROOF_BYTES BELLPERSON_PROOF_BYTES
#endif
const groth16_curve groth16_curve_table = {
    .id = TBL_ID,
    .name = TBL_NAME,
    .cpu = &groth16_backend_cpu_ops,
    .gpu = &groth16_backend_gpu_ops,
    .proof_bytes = TBL_PROOF_BYTES,
    .key_n_vars = groth16_key_n_vars,
    .key_n_public = groth16_key_n_public,
    .key_domain = groth16_key_domain,
    .prover_create = groth16_prover_create,
    .prover_destroy = groth16_prover_destroy,
    .prover_ops = groth16_prover_ops,
    .prover_state = groth16_prover_state,
    .prove_start = tbl_prove_start,
    .prove_finish = tbl_prove_finish,
    .pending_bytes = groth16_pending_bytes,
    .pending_free = groth16_pending_free,
    .random_fr = tbl_random_fr,
    .witness_ready = tbl_witness_ready,
    .check_witness = tbl_check_witness,
    .fr_to_bytes = tbl_fr_to_bytes,
};
