/* The one prover orchestration (src/groth16/prove.h) of one curve: the key, the CPU backend's
 * value, backend resolution, the prover value, the one sequence of each convention (which every
 * backend's stages run under), the proof's bytes. A template, instantiated per curve
 * (src/groth16/groth16_<curve>.c); every curve-dependent name is CN(name). */
#include "groth16/prove.h"

#include <stdlib.h>
#include <string.h>

#include "groth16/backend.h"
#include "groth16/prover_internal.h"
#include "util/log.h"
#include "util/parallel.h"
#include "util/timer.h"
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
const CN(groth16_backend_ops) CN(groth16_backend_cpu_ops) = {
    .info = {.name = "cpu", .caps = 0},
    .bind = cpu_bind,
    .unbind = cpu_unbind,
    .start_bytes = cpu_start_bytes,
    .snarkjs = &CN(groth16_stages_cpu),
#if CURVE_BELLPERSON
    .bellperson = &groth16_bp_stages_cpu,
#endif
};

/* ---- resolution ------------------------------------------------------------------------------- */
cuzk_status CN(groth16_backend_pick)(cuzk_backend requested, const CN(groth16_backend_ops) **out, cuzk_error *err) {
    *out = &CN(groth16_backend_cpu_ops);
    if (requested != CUZK_BACKEND_AUTO && requested != CUZK_BACKEND_CPU && requested != CUZK_BACKEND_GPU)
        return ERR(err, CUZK_ERR_ARG, "unknown backend %d", (int)requested);
    groth16_backend be; /* the device choice is every curve's (src/groth16/backend.c) */
    cuzk_status st = groth16_backend_resolve(requested, &be, err);
    if (st == CUZK_OK && be == GROTH16_BACKEND_GPU) *out = &CN(groth16_backend_gpu_ops);
    return st;
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
        /* a key whose host G1 queries were given back (benchkit_drop_host_g1, an SRS store's lean
         * view) binds only to a device backend that borrows a resident copy of them */
        const bellperson_params *p = k->p;
        bool borrowed = cfg && cfg->gpu_srs && (ops->info.caps & GROTH16_CAP_SHARED_SRS);
        if (p->q_src && !(ops->info.caps & GROTH16_CAP_DEVICE)) {
            /* G1 queries left in the file at load (defer_queries): a GPU prover reads them from there;
             * the CPU's MSMs need them in host memory */
            cuzk_status st = bellperson_params_materialize((bellperson_params *)p, (1u << BELLPERSON_NQ) - 1, 0, err);
            if (st != CUZK_OK) return st;
        }
        if (p->q_src && (ops->info.caps & GROTH16_CAP_DEVICE)) borrowed = true; /* read from the file */
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
    const CN(groth16_key) *k = &pv->key;
    if (k->convention == CUZK_CONVENTION_SNARKJS) {
        CN(groth16_stages) stg = *pv->ops->snarkjs;
        stg.ctx = pv->state;
        return CN(groth16_zkey_start)(out, k->z, &stg, w, n_w, r, s, nthreads, release, release_ctx, t, err);
    }
#if CURVE_BELLPERSON
    return groth16_bellperson_start(out, k->p, k->cs, pv->ops->bellperson, pv->state, w, n_w, r, s, nthreads, release,
                                    release_ctx, t, err);
#else
    if (t) memset(t, 0, sizeof *t);
    return ERR(err, CUZK_ERR_UNSUPPORTED, "the bellperson convention is BLS12-381 only");
#endif
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

/* ---- the zkey's rows: a[row] = sum of A's v * w[wire] over the row's records, b the same for B ---
 * Records sorted by (matrix, row), as snarkjs and cuzk setup write them, are split into one range
 * per thread whose ends fall between rows, so the threads write disjoint rows; any other order is
 * summed on one thread (the sums are the same either way: field addition). a, b: m zeros on entry. */
typedef struct {
    const CN(zkey_coef) *coefs;
    const CN(fr) *w;
    CN(fr) *a, *b;
    size_t *cut; /* nparts + 1 record indices */
} CN(zkey_rows_ctx);

static void CN(zkey_rows_run)(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const CN(zkey_rows_ctx) *x = vctx;
    for (size_t part = begin; part < end; part++)
        for (size_t i = x->cut[part]; i < x->cut[part + 1]; i++) {
            const CN(zkey_coef) *k = &x->coefs[i];
            CN(fr) prod;
            CN(fr_mul)(&prod, &k->value, &x->w[k->wire]);
            CN(fr) *dst = k->matrix == 0 ? &x->a[k->row] : &x->b[k->row];
            CN(fr_add)(dst, dst, &prod);
        }
}

static void CN(zkey_rows)(CN(fr) *a, CN(fr) *b, const CN(zkey) *z, const CN(fr) *w, int nthreads) {
    size_t n = z->n_coefs;
    if (nthreads <= 0) nthreads = cuzk_num_threads();
    size_t parts = n < 2048 || nthreads < 2 ? 1 : (size_t)nthreads;
    for (size_t i = 1; parts > 1 && i < n; i++) { /* sorted by (matrix, row)? */
        const CN(zkey_coef) *p = &z->coefs[i - 1], *q = &z->coefs[i];
        if (p->matrix > q->matrix || (p->matrix == q->matrix && p->row > q->row)) parts = 1;
    }
    size_t cut_1[2] = {0, n};
    size_t *cut = parts > 1 ? malloc((parts + 1) * sizeof *cut) : cut_1;
    if (!cut) { cut = cut_1; parts = 1; }
    if (parts > 1) {
        cut[0] = 0;
        for (size_t p = 1; p < parts; p++) {
            size_t i = n * p / parts;
            if (i < cut[p - 1]) i = cut[p - 1];
            /* move the cut past the rest of its row (the same matrix and row) */
            while (i > 0 && i < n && z->coefs[i].matrix == z->coefs[i - 1].matrix && z->coefs[i].row == z->coefs[i - 1].row)
                i++;
            cut[p] = i;
        }
        cut[parts] = n;
    }
    CN(zkey_rows_ctx) x = {z->coefs, w, a, b, cut};
    parallel_for(parts, (int)parts, CN(zkey_rows_run), &x);
    if (cut != cut_1) free(cut);
}

/* ---- the sequences: one per convention, over a backend's stages (prove.h) ----------------------- */
#ifndef B2_NOT_ON_HOST
#define B2_NOT_ON_HOST "the parameters' B_G2 query is not in host memory (left in the .params: only a GPU prover that " \
                       "keeps it on the device proves this key)"
#endif
/* A snarkjs start's pending: the key's points, r and s, and B_G2's inputs for finish (ws: the
 * witness scalars, NULL when B_G2 is done; the pending owns them). */
static void CN(zkey_pending_fill)(CN(groth16_pending) *pend, const CN(zkey) *z, const CN(fr) *r, const CN(fr) *s,
                                  scalar256 *ws, size_t n_w) {
    pend->alpha1 = z->alpha1;
    pend->beta1 = z->beta1;
    pend->beta2 = z->beta2;
    pend->delta1 = z->delta1;
    pend->delta2 = z->delta2;
    pend->r = *r;
    pend->s = *s;
    pend->b_g2 = z->b2;
    pend->b_scalars = ws;
    pend->n_b = ws ? n_w : 0;
}

/* A start's total: its stages, B_G2 included when it ran on the device inside the start. */
static inline double CN(start_total_ms)(const groth16_timings *tm) {
    return tm->upload_ms + tm->abc_ms + tm->h_ms + tm->msm_a_ms + tm->msm_b1_ms + tm->msm_l_ms + tm->msm_h_ms +
           (tm->b2_device ? tm->msm_b2_ms : 0);
}

/* groth16_zkey_start where the stages have resident_start: begin, the device's whole start, end;
 * B_G2 in finish (CPU threads) when begin did not put it on the device: the witness scalars are
 * made on the host for it then. CUZK_ERR_UNSUPPORTED (nothing done, nothing held): the caller
 * runs the host stages. */
static cuzk_status CN(groth16_zkey_start_resident)(CN(groth16_pending) **out, const CN(zkey) *z, const CN(groth16_stages) *stg,
                                                   const CN(fr) *w, size_t n_w, const CN(fr) *r, const CN(fr) *s,
                                                   int nthreads, groth16_release_fn release, void *release_ctx,
                                                   groth16_timings *t, cuzk_error *err) {
    groth16_timings tm = {0};
    groth16_b2_place b2 = GROTH16_B2_IN_FINISH;
    scalar256 *ws = NULL;
    CN(groth16_pending) *pend = calloc(1, sizeof *pend);
    if (!pend) return ERR(err, CUZK_ERR_NOMEM, "pending proof");
    pend->release = release;
    pend->release_ctx = release_ctx;
    cuzk_status st = CUZK_OK;
    if (stg->begin && (st = stg->begin(stg->ctx, &b2, err)) != CUZK_OK) {
        CN(groth16_pending_free)(pend);
        return st;
    }
    if (b2 != GROTH16_B2_ON_DEVICE || !stg->b2_msm) b2 = GROTH16_B2_IN_FINISH;
    CN(g1_jacobian) *const g1[4] = {&pend->mr.a, &pend->mr.b1, &pend->mr.c, &pend->mr.h};
    st = stg->resident_start(stg->ctx, w, n_w, g1, b2 == GROTH16_B2_ON_DEVICE ? &pend->mr.b2 : NULL, &tm, err);
    if (stg->end) stg->end(stg->ctx);
    if (st == CUZK_OK && b2 != GROTH16_B2_ON_DEVICE) { /* finish's B_G2 on CPU threads: its scalars */
        double t0 = now_ms();
        ws = malloc(n_w * sizeof *ws);
        if (!ws) st = ERR(err, CUZK_ERR_NOMEM, "B_G2 scalars (%zu)", n_w);
        else CN(groth16_frs_to_scalars)(ws, w, n_w, nthreads);
        tm.msm_b1_ms += now_ms() - t0; /* made beside the B1 MSM's scalars, as the host sequence does */
    }
    if (st != CUZK_OK) {
        CN(groth16_pending_free)(pend);
        tm.total_ms = CN(start_total_ms)(&tm);
        if (t) *t = tm;
        return st;
    }
    if (b2 == GROTH16_B2_ON_DEVICE) {
        tm.b2_device = 1;
        pend->b2_done = 1;
        pend->b2_ms = tm.msm_b2_ms;
    }
    CN(zkey_pending_fill)(pend, z, r, s, ws, n_w);
    *out = pend;
    tm.total_ms = CN(start_total_ms)(&tm);
    if (t) *t = tm;
    return CUZK_OK;
}

cuzk_status CN(groth16_zkey_start)(CN(groth16_pending) **out, const CN(zkey) *z, const CN(groth16_stages) *stg, const CN(fr) *w,
                                   size_t n_w, const CN(fr) *r, const CN(fr) *s, int nthreads, groth16_release_fn release,
                                   void *release_ctx, groth16_timings *t, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    groth16_timings tm = {0};
    double t0 = now_ms(), t1;
    CN(fr) *a = NULL, *b = NULL, *c = NULL;
    scalar256 *ws = NULL, *hs = NULL;
    CN(ntt_domain) d = {0};
    CN(groth16_pending) *pend = NULL;
    int began = 0;
    groth16_b2_place b2 = GROTH16_B2_IN_FINISH;
    if (t) *t = tm;
    if (!out || !z || !stg || !w || !r || !s) return ERR(err, CUZK_ERR_ARG, "groth16_zkey_start: NULL argument");
    *out = NULL;
    if (n_w != z->n_vars)
        return ERR(err, CUZK_ERR_MISMATCH, "witness has %zu values but the zkey expects %u", n_w, z->n_vars);
    if (!CN(fr_is_one)(&w[0]))
        return ERR(err, CUZK_ERR_MISMATCH, "witness value 0 must be 1 (the constant wire)");
    size_t m = z->domain_size;
    if (stg->resident_start) { /* the whole start on the device when the rows are resident there */
        st = CN(groth16_zkey_start_resident)(out, z, stg, w, n_w, r, s, nthreads, release, release_ctx, t, err);
        if (st != CUZK_ERR_UNSUPPORTED) return st;
        if (err) memset(err, 0, sizeof *err);
        st = CUZK_OK;
    }
    pend = calloc(1, sizeof *pend);
    a = calloc(m, sizeof *a);
    b = calloc(m, sizeof *b);
    c = calloc(m, sizeof *c);
    ws = malloc(n_w * sizeof *ws);
    hs = malloc(m * sizeof *hs);
    if (!pend || !a || !b || !c || !ws || !hs) { st = ERR(err, CUZK_ERR_NOMEM, "prover scratch (%zu rows)", m); goto out; }
    pend->release = release;
    pend->release_ctx = release_ctx;
    if (stg->begin && (st = stg->begin(stg->ctx, &b2, err)) != CUZK_OK) goto out;
    began = 1;
    if (b2 != GROTH16_B2_ON_DEVICE || !stg->b2_msm) b2 = GROTH16_B2_IN_FINISH;
    if ((st = groth16_abort_point("a/b", err)) != CUZK_OK) goto out;

    /* 1. rows: A_T[row] += v * w[wire] (and B) */
    CN(zkey_rows)(a, b, z, w, nthreads);
    t1 = now_ms(); tm.abc_ms = t1 - t0; t0 = t1;
    if ((st = groth16_abort_point("H", err)) != CUZK_OK) goto out;

    /* 2. H on the odd coset */
    if ((st = CN(ntt_domain_init)(&d, z->log_domain, NTT_ROOTS_SNARKJS)) != CUZK_OK) {
        ERR(err, st, "NTT domain 2^%d", z->log_domain);
        goto out;
    }
    if ((st = stg->h_snarkjs(stg->ctx, &d, a, b, c, nthreads, err)) != CUZK_OK) goto out;
    CN(groth16_frs_to_scalars)(hs, a, m, nthreads);
    CN(groth16_frs_to_scalars)(ws, w, n_w, nthreads);
    groth16_release_buf(release, release_ctx, a, m * sizeof *a); a = NULL;
    groth16_release_buf(release, release_ctx, b, m * sizeof *b); b = NULL;
    groth16_release_buf(release, release_ctx, c, m * sizeof *c); c = NULL;
    t1 = now_ms(); tm.h_ms = t1 - t0; t0 = t1;

    /* 3. G1 MSMs; B_G2 over the same witness scalars: on the device below, else in finish (the
     * pending keeps them) */
    if ((st = groth16_abort_point("MSM A", err)) != CUZK_OK) goto out;
    if ((st = stg->g1_msm(stg->ctx, &pend->mr.a, GROTH16_Q_A, z->a, ws, n_w, nthreads, err)) != CUZK_OK) goto out;
    t1 = now_ms(); tm.msm_a_ms = t1 - t0; t0 = t1;
    if ((st = groth16_abort_point("MSM B1", err)) != CUZK_OK) goto out;
    if ((st = stg->g1_msm(stg->ctx, &pend->mr.b1, GROTH16_Q_B1, z->b1, ws, n_w, nthreads, err)) != CUZK_OK) goto out;
    t1 = now_ms(); tm.msm_b1_ms = t1 - t0; t0 = t1;
    if ((st = groth16_abort_point("MSM L", err)) != CUZK_OK) goto out;
    if ((st = stg->g1_msm(stg->ctx, &pend->mr.c, GROTH16_Q_L, z->c, ws + z->n_public + 1, n_w - z->n_public - 1,
                          nthreads, err)) != CUZK_OK) goto out;
    t1 = now_ms(); tm.msm_l_ms = t1 - t0; t0 = t1;
    if ((st = groth16_abort_point("MSM H", err)) != CUZK_OK) goto out;
    if ((st = stg->g1_msm(stg->ctx, &pend->mr.h, GROTH16_Q_H, z->h, hs, m, nthreads, err)) != CUZK_OK) goto out;
    groth16_release_buf(release, release_ctx, hs, m * sizeof *hs); hs = NULL;
    t1 = now_ms(); tm.msm_h_ms = t1 - t0; t0 = t1;

    /* 4. B_G2 on the device (the witness scalars, n_vars of them, over z->b2: finish's CPU MSM's
     * inputs): finish then only assembles, and the scalars go back now */
    if (b2 == GROTH16_B2_ON_DEVICE) {
        if ((st = groth16_abort_point("MSM B2 (G2, on the device)", err)) != CUZK_OK) goto out;
        if ((st = stg->b2_msm(stg->ctx, &pend->mr.b2, z->b2, ws, n_w, nthreads, err)) != CUZK_OK) goto out;
        t1 = now_ms(); tm.msm_b2_ms = t1 - t0; t0 = t1;
        tm.b2_device = 1;
        pend->b2_done = 1;
        pend->b2_ms = tm.msm_b2_ms;
        groth16_release_buf(release, release_ctx, ws, n_w * sizeof *ws); ws = NULL;
    }

    CN(zkey_pending_fill)(pend, z, r, s, ws, n_w);
    ws = NULL;
    *out = pend;
    pend = NULL;
out:
    if (began && stg->end) stg->end(stg->ctx);
    groth16_release_buf(release, release_ctx, a, m * sizeof *a);
    groth16_release_buf(release, release_ctx, b, m * sizeof *b);
    groth16_release_buf(release, release_ctx, c, m * sizeof *c);
    groth16_release_buf(release, release_ctx, ws, n_w * sizeof *ws);
    groth16_release_buf(release, release_ctx, hs, m * sizeof *hs);
    CN(ntt_domain_free)(&d);
    CN(groth16_pending_free)(pend);
    tm.total_ms = CN(start_total_ms)(&tm); /* (no upload stage on the host: upload_ms is 0) */
    if (t) *t = tm;
    return st;
}

#if CURVE_BELLPERSON
cuzk_status groth16_bellperson_start(CN(groth16_pending) **out, const bellperson_params *p, const CN(r1cs) *cs,
                                     const groth16_bp_stages *stg, void *ctx, const CN(fr) *w, size_t n_w,
                                     const CN(fr) *r, const CN(fr) *s, int nthreads, groth16_release_fn release,
                                     void *release_ctx, groth16_timings *t, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    groth16_timings tm = {0};
    CN(groth16_pending) *pend = NULL;
    void *run = NULL;
    groth16_b2_place b2 = GROTH16_B2_IN_FINISH;
    if (t) *t = tm;
    if (!out || !p || !cs || !stg || !w || !r || !s)
        return ERR(err, CUZK_ERR_ARG, "groth16_prove_bellperson_start: NULL argument");
    *out = NULL;
    if (n_w != cs->n_vars)
        return ERR(err, CUZK_ERR_MISMATCH, "witness has %zu values but the circuit has %u variables", n_w, cs->n_vars);
    if (!CN(fr_is_one)(&w[0])) return ERR(err, CUZK_ERR_MISMATCH, "witness value 0 must be 1 (the constant wire)");
    const size_t n_inputs = (size_t)cs->n_public + 1, n_aux = cs->n_vars - n_inputs;
    const size_t m = (size_t)1 << CN(groth16_bellperson_log_m)(cs), n_b = p->n_b_g2;
    if (p->vk.n_public + 1 != n_inputs || p->n_l != n_aux || p->n_h != m - 1)
        return ERR(err, CUZK_ERR_MISMATCH,
                   "parameters do not fit the circuit: ic %u/l %u/h %u vs inputs %zu/aux %zu/h %zu",
                   p->vk.n_public + 1, p->n_l, p->n_h, n_inputs, n_aux, m - 1);
    pend = calloc(1, sizeof *pend);
    if (!pend) return ERR(err, CUZK_ERR_NOMEM, "pending proof");
    pend->release = release;
    pend->release_ctx = release_ctx;
    if ((st = stg->begin(ctx, &run, p, cs, w, n_w, release, release_ctx, &b2, err)) != CUZK_OK) goto out;
    double t0 = now_ms(), t1; /* after begin: a wait for the device's lock is no stage's time */
    if (b2 == GROTH16_B2_ON_THREADS && nthreads <= 0) nthreads = cuzk_num_threads();

    /* 1. the witness to where a/b/c are computed (a device), then a/b/c */
    if (stg->upload) {
        if ((st = groth16_abort_point("the witness upload", err)) != CUZK_OK) goto out;
        if ((st = stg->upload(run, err)) != CUZK_OK) goto out;
        t1 = now_ms(); tm.upload_ms = t1 - t0; t0 = t1;
    }
    if ((st = groth16_abort_point("a/b/c", err)) != CUZK_OK) goto out;
    if ((st = stg->abc(run, nthreads, err)) != CUZK_OK) goto out;
    t1 = now_ms(); tm.abc_ms = t1 - t0; t0 = t1;

    /* 2. H; while a device runs it, the B scalars on the host and B_G2 on CPU threads */
    if ((st = groth16_abort_point(b2 == GROTH16_B2_ON_THREADS ? "H and B_G2" : "H", err)) != CUZK_OK) goto out;
    if ((st = stg->h(run, nthreads, err)) != CUZK_OK) goto out;
    if (b2 == GROTH16_B2_ON_THREADS) {
        pend->n_b = n_b;
        pend->b_scalars = malloc((n_b ? n_b : 1) * sizeof(scalar256));
        if (!pend->b_scalars) { st = ERR(err, CUZK_ERR_NOMEM, "B scalars (%zu)", n_b); goto out; }
        if ((st = stg->b_scalars(run, pend->b_scalars, nthreads, err)) != CUZK_OK) goto out;
        pend->b_g2 = __atomic_load_n(&p->b_g2, __ATOMIC_ACQUIRE);
        if (n_b && !pend->b_g2) { st = ERR(err, CUZK_ERR_ARG, "%s", B2_NOT_ON_HOST); goto out; }
        if ((st = CN(groth16_pending_start_b2)(pend, nthreads, err)) != CUZK_OK) goto out;
    }
    if (stg->h_wait && (st = stg->h_wait(run, err)) != CUZK_OK) goto out;
    t1 = now_ms(); tm.h_ms = t1 - t0; t0 = t1;

    /* 3. the four G1 MSMs; with B_G2 in finish, the B selection is taken before B1 (its scalars) */
    CN(g1_jacobian) *res[4] = {&pend->mr.a, &pend->mr.b1, &pend->mr.c, &pend->mr.h};
    double *ms[4] = {&tm.msm_a_ms, &tm.msm_b1_ms, &tm.msm_l_ms, &tm.msm_h_ms};
    static const char *const msm_stage[4] = {"MSM A", "MSM B1", "MSM L", "MSM H"};
    for (int q = GROTH16_Q_A; q <= GROTH16_Q_H; q++) {
        if ((st = groth16_abort_point(msm_stage[q], err)) != CUZK_OK) {
            /* B_G2 runs on CPU threads: the pending goes back with the status, and the caller frees
             * it (groth16_pending_free joins them) off the device's path */
            if (pend->b2_started) {
                *out = pend;
                pend = NULL;
            }
            goto out;
        }
        if (q == GROTH16_Q_B1 && b2 == GROTH16_B2_IN_FINISH) {
            pend->n_b = n_b;
            pend->b_scalars = malloc((n_b ? n_b : 1) * sizeof(scalar256));
            if (!pend->b_scalars) { st = ERR(err, CUZK_ERR_NOMEM, "B scalars (%zu)", n_b); goto out; }
            if ((st = stg->b_scalars(run, pend->b_scalars, nthreads, err)) != CUZK_OK) goto out;
            pend->b_g2 = __atomic_load_n(&p->b_g2, __ATOMIC_ACQUIRE);
            if (n_b && !pend->b_g2) { st = ERR(err, CUZK_ERR_ARG, "%s", B2_NOT_ON_HOST); goto out; }
        }
        if ((st = stg->g1_msm(run, res[q], (groth16_query)q, pend->b_scalars, nthreads, err)) != CUZK_OK) goto out;
        t1 = now_ms(); *ms[q] = t1 - t0; t0 = t1;
    }

    /* 4. B_G2 on the device: finish then only assembles */
    if (b2 == GROTH16_B2_ON_DEVICE) {
        if ((st = groth16_abort_point("MSM B2 (G2, on the device)", err)) != CUZK_OK) goto out;
        if ((st = stg->b2_msm(run, &pend->mr.b2, err)) != CUZK_OK) goto out;
        t1 = now_ms(); tm.msm_b2_ms = t1 - t0; t0 = t1;
        tm.b2_device = 1;
        pend->b2_done = 1;
        pend->b2_ms = tm.msm_b2_ms;
    }

    pend->alpha1 = p->vk.alpha1;
    pend->beta1 = p->vk.beta1;
    pend->beta2 = p->vk.beta2;
    pend->delta1 = p->vk.delta1;
    pend->delta2 = p->vk.delta2;
    pend->r = *r;
    pend->s = *s;
    *out = pend;
    pend = NULL;
out:
    if (run) stg->end(run);
    CN(groth16_pending_free)(pend); /* joins a B_G2 thread that was started */
    tm.total_ms = CN(start_total_ms)(&tm);
    if (t) *t = tm;
    return st;
}
#endif

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
