/* Groth16 GPU backend of one curve: a template, instantiated per curve
 * (src/groth16/groth16_<curve>.c; every curve-dependent name is CN(name), a curve's device entry
 * point GN(name)). The snarkjs convention on every curve; the bellperson GPU prover
 * (src/groth16/gpu_prover.h) on BLS12-381 only (CURVE_BELLPERSON). */
#include "groth16/gpu_prover.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/prove.h"
#include "groth16/prover_internal.h"
#include "util/log.h"
#include "util/parallel.h"
#include "util/timer.h"

#ifndef CUZK_HAVE_CUDA

#if CURVE_BELLPERSON /* the bellperson GPU prover (gpu_prover.h) is BLS12-381's */
cuzk_status groth16_gpu_prover_create(groth16_gpu_prover **out, const bellperson_params *p, const CN(r1cs) *cs,
                                      int device, cuzk_error *err) {
    (void)p; (void)cs; (void)device;
    if (out) *out = NULL;
    return ERR(err, CUZK_ERR_UNSUPPORTED, "this build has no CUDA backend (built without nvcc or with -DCUZK_CUDA=OFF)");
}
void groth16_gpu_prover_destroy(groth16_gpu_prover *gp) { (void)gp; }
cuzk_status groth16_gpu_srs_create(groth16_gpu_srs **out, const bellperson_params *p, int device, unsigned parts,
                                   cuzk_error *err) {
    (void)p; (void)device; (void)parts;
    if (out) *out = NULL;
    return ERR(err, CUZK_ERR_UNSUPPORTED, "this build has no CUDA backend");
}
size_t groth16_gpu_srs_bytes(const groth16_gpu_srs *srs) { (void)srs; return 0; }
size_t groth16_gpu_srs_bytes_for(const bellperson_params *p, unsigned parts) { (void)p; (void)parts; return 0; }
bool groth16_gpu_srs_has_b_g2(const groth16_gpu_srs *srs) { (void)srs; return false; }
void groth16_gpu_srs_free(groth16_gpu_srs *srs) { (void)srs; }
cuzk_status groth16_gpu_prover_create_on(groth16_gpu_prover **out, groth16_gpu_srs *srs, const bellperson_params *p,
                                         const CN(r1cs) *cs, cuzk_error *err) {
    (void)srs; (void)p; (void)cs;
    if (out) *out = NULL;
    return ERR(err, CUZK_ERR_UNSUPPORTED, "this build has no CUDA backend");
}
size_t groth16_gpu_prover_device_bytes(const groth16_gpu_prover *gp) { (void)gp; return 0; }
size_t groth16_gpu_proof_device_bytes(const groth16_gpu_prover *gp) { (void)gp; return 0; }
void groth16_gpu_prover_mem(const groth16_gpu_prover *gp, size_t *pool_reserved, size_t *device_used) {
    (void)gp;
    *pool_reserved = *device_used = 0;
}
bool groth16_gpu_prover_dead(const groth16_gpu_prover *gp) { (void)gp; return true; }
size_t groth16_gpu_start_bytes(const groth16_gpu_prover *gp) { (void)gp; return 0; }
cuzk_status groth16_gpu_prove_start(CN(groth16_pending) **out, groth16_gpu_prover *gp, const CN(fr) *w, size_t n_w,
                                    const CN(fr) *r, const CN(fr) *s, int nthreads, groth16_release_fn release,
                                    void *release_ctx, groth16_timings *t, cuzk_error *err) {
    (void)gp; (void)w; (void)n_w; (void)r; (void)s; (void)nthreads; (void)release; (void)release_ctx;
    if (out) *out = NULL;
    if (t) memset(t, 0, sizeof *t);
    return ERR(err, CUZK_ERR_UNSUPPORTED, "this build has no CUDA backend");
}
cuzk_status groth16_gpu_pinned_alloc(void **out, size_t bytes, cuzk_error *err) {
    (void)bytes;
    if (out) *out = NULL;
    return ERR(err, CUZK_ERR_UNSUPPORTED, "this build has no CUDA backend");
}
void groth16_gpu_pinned_free(void *p) { (void)p; }
void groth16_gpu_prover_set_msm(groth16_gpu_prover *gp, const cuzk_msm_opts *msm) { (void)gp; (void)msm; }
cuzk_status groth16_gpu_prover_set_b_g2(groth16_gpu_prover *gp, bool on_device, cuzk_error *err) {
    (void)gp; (void)on_device;
    return ERR(err, CUZK_ERR_UNSUPPORTED, "this build has no CUDA backend");
}
bool groth16_gpu_prover_b_g2_on_device(const groth16_gpu_prover *gp) { (void)gp; return false; }
#endif

/* The GPU backend value (src/groth16/prove.h) of a build without CUDA: binding fails. */
static cuzk_status nogpu_bind(void **state, const CN(groth16_key) *k, const groth16_backend_cfg *cfg, cuzk_error *err) {
    (void)k; (void)cfg;
    *state = NULL;
    return ERR(err, CUZK_ERR_UNSUPPORTED, "this build has no CUDA backend (built without nvcc or with -DCUZK_CUDA=OFF)");
}
static void nogpu_unbind(void *state) { (void)state; }
static size_t nogpu_start_bytes(const CN(groth16_key) *k, int nthreads) { (void)k; (void)nthreads; return 0; }
const CN(groth16_backend_ops) CN(groth16_backend_gpu_ops) = {
    .info = {.name = "gpu",
             .caps = GROTH16_CAP_DEVICE | GROTH16_CAP_B2_OVERLAP | GROTH16_CAP_PINNED_HOST | GROTH16_CAP_SHARED_SRS},
    .bind = nogpu_bind,
    .unbind = nogpu_unbind,
    .start_bytes = nogpu_start_bytes,
    .snarkjs = &CN(groth16_stages_cpu), /* never run: bind fails */
#if CURVE_BELLPERSON
    .bellperson = &groth16_bp_stages_cpu,
#endif
};

#else

#include "cuda/gpu.h"
#include "cuda/gpu_r1cs.h"


#if CURVE_BELLPERSON /* the bellperson GPU prover (gpu_prover.h): BLS12-381 */
struct groth16_gpu_srs {
    gpu_ctx *ctx;
    gpu_g1_bases *a, *b_g1, *l, *h;
    gpu_g2_bases *b_g2;          /* GROTH16_GPU_SRS_B_G2, else NULL */
    size_t bytes;
};

void groth16_gpu_srs_free(groth16_gpu_srs *srs) {
    if (!srs) return;
    gpu_g1_bases_free(srs->a);
    gpu_g1_bases_free(srs->b_g1);
    gpu_g1_bases_free(srs->l);
    gpu_g1_bases_free(srs->h);
    gpu_g2_bases_free(srs->b_g2);
    gpu_ctx_destroy(srs->ctx);
    free(srs);
}

size_t groth16_gpu_srs_bytes(const groth16_gpu_srs *srs) { return srs ? srs->bytes : 0; }
bool groth16_gpu_srs_has_b_g2(const groth16_gpu_srs *srs) { return srs && srs->b_g2; }

size_t groth16_gpu_srs_bytes_for(const bellperson_params *p, unsigned parts) {
    if (!p) return 0;
    size_t b = ((size_t)p->n_a + p->n_b_g1 + p->n_l + p->n_h) * sizeof(CN(g1_affine));
    if (parts & GROTH16_GPU_SRS_B_G2) b += (size_t)p->n_b_g2 * sizeof(CN(g2_affine));
    return b;
}

cuzk_status groth16_gpu_srs_create(groth16_gpu_srs **out, const bellperson_params *p, int device, unsigned parts,
                                   cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    if (!out || !p) return ERR(err, CUZK_ERR_ARG, "groth16_gpu_srs_create: NULL argument");
    *out = NULL;
    if (!p->a || !p->b_g1 || !p->l || !p->h)
        return ERR(err, CUZK_ERR_ARG, "groth16_gpu_srs_create: the parameters' G1 queries are not in host memory");
    if (parts & ~(unsigned)GROTH16_GPU_SRS_B_G2) return ERR(err, CUZK_ERR_ARG, "groth16_gpu_srs_create: parts %#x", parts);
    if ((parts & GROTH16_GPU_SRS_B_G2) && !p->b_g2 && p->n_b_g2)
        return ERR(err, CUZK_ERR_ARG, "groth16_gpu_srs_create: the parameters' B_G2 query is not in host memory");
    groth16_gpu_srs *srs = calloc(1, sizeof *srs);
    if (!srs) return ERR(err, CUZK_ERR_NOMEM, "groth16_gpu_srs_create");
    if ((st = gpu_ctx_create(&srs->ctx, device, err)) != CUZK_OK) goto out;
    if ((st = gpu_g1_bases_upload(srs->ctx, &srs->a, p->a, p->n_a, err)) != CUZK_OK) goto out;
    if ((st = gpu_g1_bases_upload(srs->ctx, &srs->b_g1, p->b_g1, p->n_b_g1, err)) != CUZK_OK) goto out;
    if ((st = gpu_g1_bases_upload(srs->ctx, &srs->l, p->l, p->n_l, err)) != CUZK_OK) goto out;
    if ((st = gpu_g1_bases_upload(srs->ctx, &srs->h, p->h, p->n_h, err)) != CUZK_OK) goto out;
    if ((parts & GROTH16_GPU_SRS_B_G2) &&
        (st = gpu_g2_bases_upload(srs->ctx, &srs->b_g2, p->b_g2, p->n_b_g2, err)) != CUZK_OK)
        goto out;
    srs->bytes = gpu_g1_bases_bytes(srs->a) + gpu_g1_bases_bytes(srs->b_g1) + gpu_g1_bases_bytes(srs->l) +
                 gpu_g1_bases_bytes(srs->h) + gpu_g2_bases_bytes(srs->b_g2);
    *out = srs;
    srs = NULL;
out:
    groth16_gpu_srs_free(srs);
    return st;
}

cuzk_status groth16_gpu_pinned_alloc(void **out, size_t bytes, cuzk_error *err) {
    return gpu_host_alloc_pinned(out, bytes, err);
}
void groth16_gpu_pinned_free(void *p) { gpu_host_free_pinned(p); }

struct groth16_gpu_prover {
    gpu_ctx *ctx;                /* the SRS's */
    groth16_gpu_srs *srs;        /* borrowed, or owned when own_srs */
    int own_srs;
    const bellperson_params *p;  /* borrowed */
    const CN(r1cs) *cs;              /* borrowed */
    size_t m, n_inputs, n_aux;
    int log_m;
    gpu_g1_bases *a, *b_g1, *l, *h; /* the SRS's */
    gpu_r1cs *d_cs;
    uint32_t *d_idx_a, *d_idx_b; /* device: witness index of every A / B query point */
    uint32_t *idx_b;             /* host copy of the B selection (for the B_G2 scalars) */
    size_t n_a, n_b;
    size_t resident_bytes;       /* matrices, selections and an own B_G2 copy (own_b_g2) */
    gpu_msm_tuning msm;          /* the device MSMs' tuning (zeros: automatic) */
    gpu_g2_bases *b_g2;          /* the device B_G2 query when b_g2_device: the SRS's, or own_b_g2 */
    int own_b_g2;                /* b_g2 uploaded by this prover (the SRS has none): freed with it */
    int b_g2_device;             /* B_G2 MSM on the device (groth16_gpu_prover_set_b_g2) */
    pthread_mutex_t mu;          /* one start at a time */
};

_Static_assert((int)GPU_MSM_ACCUM_DEFAULT == (int)CUZK_GPU_MSM_ACCUM_DEFAULT &&
                   (int)GPU_MSM_ACCUM_TASKS == (int)CUZK_GPU_MSM_ACCUM_TASKS &&
                   (int)GPU_MSM_ACCUM_RUNS == (int)CUZK_GPU_MSM_ACCUM_RUNS &&
                   (int)GPU_MSM_ACCUM_AFFINE == (int)CUZK_GPU_MSM_ACCUM_AFFINE,
               "the device accumulation values are the public ones");

void groth16_gpu_prover_set_msm(groth16_gpu_prover *gp, const cuzk_msm_opts *msm) {
    if (!gp) return;
    gp->msm = gpu_msm_tuning_of(msm);
}

static void prover_drop_own_b_g2(groth16_gpu_prover *gp) {
    if (gp->own_b_g2) {
        gp->resident_bytes -= gpu_g2_bases_bytes(gp->b_g2);
        gpu_g2_bases_free(gp->b_g2);
    }
    gp->b_g2 = NULL;
    gp->own_b_g2 = 0;
}

void groth16_gpu_prover_destroy(groth16_gpu_prover *gp) {
    if (!gp) return;
    if (gp->ctx) {
        gpu_buf_free(gp->ctx, gp->d_idx_a);
        gpu_buf_free(gp->ctx, gp->d_idx_b);
        cuzk_error e = {0};
        (void)gpu_sync(gp->ctx, &e);
    }
    prover_drop_own_b_g2(gp);
    gpu_r1cs_free(gp->d_cs);
    if (gp->own_srs) groth16_gpu_srs_free(gp->srs);
    free(gp->idx_b);
    pthread_mutex_destroy(&gp->mu);
    free(gp);
}

size_t groth16_gpu_prover_device_bytes(const groth16_gpu_prover *gp) {
    return gp ? gp->resident_bytes + (gp->own_srs ? gp->srs->bytes : 0) : 0;
}
size_t groth16_gpu_proof_device_bytes(const groth16_gpu_prover *gp) {
    if (!gp) return 0;
    /* witness + a/b/c live through the MSMs (d_a holds H's scalars); the largest MSM's scratch
     * comes on top (the four run one after another and return their scratch to the pool) */
    size_t n_max = gp->n_a;
    if (gp->n_b > n_max) n_max = gp->n_b;
    if (gp->n_aux > n_max) n_max = gp->n_aux;
    if (gp->m - 1 > n_max) n_max = gp->m - 1;
    size_t scratch = gpu_g1_msm_scratch_bytes(n_max, &gp->msm);
    if (gp->b_g2_device) {
        /* the B_G2 MSM runs after the G1 ones, with the same vectors alive */
        size_t s2 = gpu_g2_msm_scratch_bytes(gp->n_b, &gp->msm);
        if (s2 > scratch) scratch = s2;
    }
    return ((size_t)gp->cs->n_vars + 3 * gp->m) * sizeof(CN(fr)) + scratch;
}
void groth16_gpu_prover_mem(const groth16_gpu_prover *gp, size_t *pool_reserved, size_t *device_used) {
    *pool_reserved = *device_used = 0;
    gpu_mem_stats ms;
    cuzk_error e = {0};
    if (!gp || gpu_ctx_mem(gp->ctx, &ms, &e) != CUZK_OK) return;
    *pool_reserved = ms.pool_reserved_bytes;
    *device_used = ms.device_total_bytes - ms.device_free_bytes;
}
bool groth16_gpu_prover_dead(const groth16_gpu_prover *gp) { return !gp || gpu_ctx_dead(gp->ctx); }

size_t groth16_gpu_start_bytes(const groth16_gpu_prover *gp) {
    if (!gp) return 0;
    /* with the device B_G2, no host B scalars */
    return sizeof(CN(groth16_pending)) + (gp->b_g2_device ? 0 : gp->n_b * sizeof(scalar256)) + 4096;
}

/* Index lists of the A and B queries: A = every input, then aux variables with A-density;
 * B = variables (inputs included) with B-density. Counts must equal the parameters'. */
static cuzk_status build_selections(uint32_t **idx_a, size_t *n_a, uint32_t **idx_b, size_t *n_b,
                                    const bellperson_params *p, const CN(r1cs) *cs, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    size_t n_w = cs->n_vars, n_inputs = (size_t)cs->n_public + 1;
    r1cs_density da = {0}, db = {0};
    *idx_a = malloc((n_w ? n_w : 1) * sizeof(uint32_t));
    *idx_b = malloc((n_w ? n_w : 1) * sizeof(uint32_t));
    if (!*idx_a || !*idx_b) { st = ERR(err, CUZK_ERR_NOMEM, "density selections (%zu variables)", n_w); goto out; }
    if ((st = CN(r1cs_density_of)(&da, &cs->a, n_w, 0, err)) != CUZK_OK) goto out;
    if ((st = CN(r1cs_density_of)(&db, &cs->b, n_w, 0, err)) != CUZK_OK) goto out;
    size_t ka = 0, kb = 0;
    for (size_t i = 0; i < n_w; i++) {
        if (i < n_inputs || r1cs_density_test(&da, i)) (*idx_a)[ka++] = (uint32_t)i;
        if (r1cs_density_test(&db, i)) (*idx_b)[kb++] = (uint32_t)i;
    }
    if (ka != p->n_a) { st = ERR(err, CUZK_ERR_MISMATCH, "A query has %u points but the circuit selects %zu", p->n_a, ka); goto out; }
    if (kb != p->n_b_g1 || kb != p->n_b_g2) {
        st = ERR(err, CUZK_ERR_MISMATCH, "B queries have %u/%u points but the circuit selects %zu", p->n_b_g1, p->n_b_g2, kb);
        goto out;
    }
    *n_a = ka;
    *n_b = kb;
out:
    r1cs_density_free(&da);
    r1cs_density_free(&db);
    if (st != CUZK_OK) {
        free(*idx_a); free(*idx_b);
        *idx_a = *idx_b = NULL;
    }
    return st;
}

static gpu_csr_host csr_view(const CN(csr_matrix) *m) {
    CN(fr) one, minus_one;
    CN(fr_one)(&one);
    CN(fr_neg)(&minus_one, &one);
    gpu_csr_host h = {m->n_rows, m->nnz, m->row_ptr, m->col, m->coef_id, m->n_coef, (const struct CN(fr) *)m->coef,
                      CN(csr_coef_find)(m, &one), CN(csr_coef_find)(m, &minus_one)};
    return h;
}

/* What the first proof would otherwise do on its critical path, outside every timed stage: grow
 * the MSMs' pinned host scratch (a cudaFreeHost + cudaHostAlloc with the stream drained, slow when
 * the SRS store has tens of GB pinned and the page cache is full of the mapped .params) and the
 * device pool to one proof's peak. Done at preload (create, and set_b_g2 when the peak grows); if
 * the pool cannot take the peak now, proofs still try (the peak is an upper bound): only a dead
 * device fails, or, with strict (the automatic B_G2 choice), CUZK_ERR_NOMEM_DEVICE too. */
static cuzk_status prover_reserve(groth16_gpu_prover *gp, bool strict, cuzk_error *err) {
    size_t n_max = gp->n_a;
    if (gp->n_b > n_max) n_max = gp->n_b;
    if (gp->n_aux > n_max) n_max = gp->n_aux;
    if (gp->m - 1 > n_max) n_max = gp->m - 1;
    double tr = now_ms();
    cuzk_error rerr = {0};
    cuzk_status rst = gpu_g1_msm_reserve(gp->ctx, n_max, groth16_gpu_proof_device_bytes(gp), &rerr);
    if (rst == CUZK_ERR_DEVICE || (strict && rst == CUZK_ERR_NOMEM_DEVICE)) return ERR(err, rst, "%s", rerr.msg);
    cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: MSM host scratch and pool reserved for one proof "
             "(%.2f GiB%s) in %.0f ms%s%s", gpu_ctx_device(gp->ctx),
             (double)groth16_gpu_proof_device_bytes(gp) / (1u << 30), gp->b_g2_device ? ", B_G2 on the device" : "",
             now_ms() - tr, rst == CUZK_OK ? "" : ": not reserved: ", rst == CUZK_OK ? "" : rerr.msg);
    return CUZK_OK;
}

cuzk_status groth16_gpu_prover_create_on(groth16_gpu_prover **out, groth16_gpu_srs *srs, const bellperson_params *p,
                                         const CN(r1cs) *cs, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    uint32_t *idx_a = NULL;
    if (!out || !srs || !p || !cs) return ERR(err, CUZK_ERR_ARG, "groth16_gpu_prover_create: NULL argument");
    *out = NULL;
    double t0 = now_ms();
    groth16_gpu_prover *gp = calloc(1, sizeof *gp);
    if (!gp) return ERR(err, CUZK_ERR_NOMEM, "groth16_gpu_prover_create");
    pthread_mutex_init(&gp->mu, NULL);
    gp->srs = srs;
    gp->ctx = srs->ctx;
    gp->a = srs->a;
    gp->b_g1 = srs->b_g1;
    gp->l = srs->l;
    gp->h = srs->h;
    gp->p = p;
    gp->cs = cs;
    gp->log_m = CN(groth16_bellperson_log_m)(cs);
    gp->m = (size_t)1 << gp->log_m;
    gp->n_inputs = (size_t)cs->n_public + 1;
    gp->n_aux = cs->n_vars - gp->n_inputs;
    if (p->vk.n_public + 1 != gp->n_inputs || p->n_l != gp->n_aux || p->n_h != gp->m - 1) {
        st = ERR(err, CUZK_ERR_MISMATCH, "parameters do not fit the circuit: ic %u/l %u/h %u vs inputs %zu/aux %zu/h %zu",
                 p->vk.n_public + 1, p->n_l, p->n_h, gp->n_inputs, gp->n_aux, gp->m - 1);
        goto out;
    }
    if (gpu_g1_bases_count(srs->a) != p->n_a || gpu_g1_bases_count(srs->b_g1) != p->n_b_g1 ||
        gpu_g1_bases_count(srs->l) != p->n_l || gpu_g1_bases_count(srs->h) != p->n_h) {
        st = ERR(err, CUZK_ERR_MISMATCH, "the resident SRS was made from other parameters (query sizes differ)");
        goto out;
    }
    if ((st = build_selections(&idx_a, &gp->n_a, &gp->idx_b, &gp->n_b, p, cs, err)) != CUZK_OK) goto out;
    gpu_csr_host ha = csr_view(&cs->a), hb = csr_view(&cs->b), hc = csr_view(&cs->c);
    if ((st = gpu_r1cs_upload(gp->ctx, &gp->d_cs, &ha, &hb, &hc, (uint32_t)gp->n_inputs, err)) != CUZK_OK) goto out;
    size_t ba = (gp->n_a ? gp->n_a : 1) * sizeof(uint32_t), bb = (gp->n_b ? gp->n_b : 1) * sizeof(uint32_t);
    if ((st = gpu_buf_alloc(gp->ctx, (void **)&gp->d_idx_a, ba, err)) != CUZK_OK) goto out;
    if ((st = gpu_buf_alloc(gp->ctx, (void **)&gp->d_idx_b, bb, err)) != CUZK_OK) goto out;
    if ((st = gpu_copy_h2d_async(gp->ctx, gp->d_idx_a, idx_a, gp->n_a * sizeof(uint32_t), err)) != CUZK_OK) goto out;
    if ((st = gpu_copy_h2d_async(gp->ctx, gp->d_idx_b, gp->idx_b, gp->n_b * sizeof(uint32_t), err)) != CUZK_OK) goto out;
    if ((st = gpu_sync(gp->ctx, err)) != CUZK_OK) goto out;
    gp->resident_bytes = gpu_r1cs_bytes(gp->d_cs) + ba + bb;
    if ((st = prover_reserve(gp, false, err)) != CUZK_OK) goto out;
    cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: circuit resident (%.2f GiB: matrices, selections) in %.0f ms",
             gpu_ctx_device(gp->ctx), (double)gp->resident_bytes / (1u << 30), now_ms() - t0);
    *out = gp;
    gp = NULL;
out:
    free(idx_a);
    groth16_gpu_prover_destroy(gp);
    return st;
}

/* set_b_g2 with strict: a pool that cannot take the new peak is CUZK_ERR_NOMEM_DEVICE (B_G2 stays on
 * CPU threads) instead of a notice */
static cuzk_status prover_set_b_g2(groth16_gpu_prover *gp, bool on_device, bool strict, cuzk_error *err);
cuzk_status groth16_gpu_prover_set_b_g2(groth16_gpu_prover *gp, bool on_device, cuzk_error *err) {
    return prover_set_b_g2(gp, on_device, false, err);
}

/* The prover's device bytes and one proof's peak if B_G2 ran on the device (its query uploaded
 * unless the resident SRS holds it; the B_G2 MSM's scratch against the G1 MSMs' largest). */
static void prover_b_g2_need(const groth16_gpu_prover *gp, size_t *resident, size_t *peak) {
    *resident = groth16_gpu_prover_device_bytes(gp);
    *peak = groth16_gpu_proof_device_bytes(gp);
    if (gp->b_g2_device) return;
    if (!groth16_gpu_srs_has_b_g2(gp->srs)) *resident += (size_t)gp->n_b * sizeof(CN(g2_affine));
    const size_t vec = ((size_t)gp->cs->n_vars + 3 * gp->m) * sizeof(CN(fr));
    const size_t s2 = gpu_g2_msm_scratch_bytes(gp->n_b, &gp->msm);
    if (vec + s2 > *peak) *peak = vec + s2;
}

static cuzk_status prover_set_b_g2(groth16_gpu_prover *gp, bool on_device, bool strict, cuzk_error *err) {
    if (!gp) return ERR(err, CUZK_ERR_ARG, "groth16_gpu_prover_set_b_g2: NULL prover");
    if (!on_device) {
        prover_drop_own_b_g2(gp);
        gp->b_g2_device = 0;
        return CUZK_OK;
    }
    if (gp->b_g2_device) return CUZK_OK;
    if (gp->p->n_b_g2 != gp->n_b)
        return ERR(err, CUZK_ERR_MISMATCH, "B_G2 query has %u points but the circuit selects %zu", gp->p->n_b_g2, gp->n_b);
    double t0 = now_ms();
    if (groth16_gpu_srs_has_b_g2(gp->srs)) {
        if (gpu_g2_bases_count(gp->srs->b_g2) != gp->n_b)
            return ERR(err, CUZK_ERR_MISMATCH, "the resident SRS's B_G2 query has %zu points, the circuit selects %zu",
                       gpu_g2_bases_count(gp->srs->b_g2), gp->n_b);
        gp->b_g2 = gp->srs->b_g2;
    } else {
        if (gp->n_b && !gp->p->b_g2)
            return ERR(err, CUZK_ERR_ARG, "groth16_gpu_prover_set_b_g2: the parameters' B_G2 query is not in host memory");
        cuzk_status st = gpu_g2_bases_upload(gp->ctx, &gp->b_g2, gp->p->b_g2, gp->n_b, err);
        if (st != CUZK_OK) return st;
        gp->own_b_g2 = 1;
        gp->resident_bytes += gpu_g2_bases_bytes(gp->b_g2);
    }
    gp->b_g2_device = 1;
    cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: B_G2 MSM on the device, its query (%.2f GiB) %s in %.0f ms",
             gpu_ctx_device(gp->ctx), (double)gpu_g2_bases_bytes(gp->b_g2) / (1u << 30),
             gp->own_b_g2 ? "uploaded" : "from the resident SRS", now_ms() - t0);
    cuzk_status st = prover_reserve(gp, strict, err);
    if (st != CUZK_OK) {
        prover_drop_own_b_g2(gp);
        gp->b_g2_device = 0;
    }
    return st;
}

bool groth16_gpu_prover_b_g2_on_device(const groth16_gpu_prover *gp) { return gp && gp->b_g2_device; }

cuzk_status groth16_gpu_prover_create(groth16_gpu_prover **out, const bellperson_params *p, const CN(r1cs) *cs,
                                      int device, cuzk_error *err) {
    if (!out || !p || !cs) return ERR(err, CUZK_ERR_ARG, "groth16_gpu_prover_create: NULL argument");
    *out = NULL;
    double t0 = now_ms();
    groth16_gpu_srs *srs = NULL;
    cuzk_status st = groth16_gpu_srs_create(&srs, p, device, 0, err);
    if (st != CUZK_OK) return st;
    cuzk_log(CUZK_LOG_INFO, "GPU SRS on device %d: %.2f GiB of G1 queries resident in %.0f ms", device,
             (double)srs->bytes / (1u << 30), now_ms() - t0);
    if ((st = groth16_gpu_prover_create_on(out, srs, p, cs, err)) != CUZK_OK) {
        groth16_gpu_srs_free(srs);
        return st;
    }
    (*out)->own_srs = 1;
    return CUZK_OK;
}

/* B scalars for B_G2 (host, canonical): w at the B selection. */
/* ---- the GPU's bellperson stages (groth16_bellperson_start runs them) ------------------------
 * One proof on the prover's device: begin takes the prover's lock (one proof on the device at a
 * time) and end gives it back with the device buffers: the witness (n_vars Fr) and a, b, c (m Fr
 * each; H leaves the h coefficients in a). */
typedef struct gpu_bp_run {
    groth16_gpu_prover *gp;
    const CN(fr) *w;
    size_t n_w;
    CN(fr) *d_w, *d_a, *d_b, *d_c;
} gpu_bp_run;

static cuzk_status gpu_bp_begin(groth16_gpu_prover *gp, void **run, const bellperson_params *p, const CN(r1cs) *cs,
                                const CN(fr) *w, size_t n_w, cuzk_error *err) {
    if (p != gp->p || cs != gp->cs) return ERR(err, CUZK_ERR_ARG, "gpu stages: a key the prover was not made for");
    gpu_bp_run *u = calloc(1, sizeof *u);
    if (!u) return ERR(err, CUZK_ERR_NOMEM, "gpu stages");
    u->gp = gp;
    u->w = w;
    u->n_w = n_w;
    pthread_mutex_lock(&gp->mu);
    *run = u;
    return CUZK_OK;
}

static void gpu_bp_end(void *vr) {
    gpu_bp_run *u = vr;
    groth16_gpu_prover *gp = u->gp;
    if (gp->ctx) {
        gpu_buf_free(gp->ctx, u->d_w);
        gpu_buf_free(gp->ctx, u->d_a);
        gpu_buf_free(gp->ctx, u->d_b);
        gpu_buf_free(gp->ctx, u->d_c);
    }
    pthread_mutex_unlock(&gp->mu);
    free(u);
}

/* the witness to the device */
static cuzk_status gpu_bp_upload(void *vr, cuzk_error *err) {
    gpu_bp_run *u = vr;
    gpu_ctx *ctx = u->gp->ctx;
    const size_t m = u->gp->m;
    cuzk_status st;
    if ((st = gpu_buf_alloc(ctx, (void **)&u->d_w, u->n_w * sizeof(CN(fr)), err)) != CUZK_OK) return st;
    if ((st = gpu_buf_alloc(ctx, (void **)&u->d_a, m * sizeof(CN(fr)), err)) != CUZK_OK) return st;
    if ((st = gpu_buf_alloc(ctx, (void **)&u->d_b, m * sizeof(CN(fr)), err)) != CUZK_OK) return st;
    if ((st = gpu_buf_alloc(ctx, (void **)&u->d_c, m * sizeof(CN(fr)), err)) != CUZK_OK) return st;
    if ((st = gpu_copy_h2d_async(ctx, u->d_w, u->w, u->n_w * sizeof(CN(fr)), err)) != CUZK_OK) return st;
    return gpu_sync(ctx, err);
}

/* a/b/c by SpMV over the resident matrices */
static cuzk_status gpu_bp_abc(void *vr, int nthreads, cuzk_error *err) {
    (void)nthreads;
    gpu_bp_run *u = vr;
    cuzk_status st = gpu_r1cs_abc_async(u->gp->ctx, (struct fr *)u->d_a, (struct fr *)u->d_b, (struct fr *)u->d_c,
                                        u->gp->m, u->gp->d_cs, (const struct fr *)u->d_w, err);
    return st == CUZK_OK ? gpu_sync(u->gp->ctx, err) : st;
}

/* H launched on the device (h_wait joins it): d_a <- the H scalars (Montgomery), on the roots of
 * the parameters' QAP (7^t; 5^t for snarkjs's MPC export: formats/bellperson.h) */
static cuzk_status gpu_bp_h(void *vr, int nthreads, cuzk_error *err) {
    (void)nthreads;
    gpu_bp_run *u = vr;
    groth16_gpu_prover *gp = u->gp;
    return gpu_h_bellperson_roots_async(gpu_ctx_stream(gp->ctx), (struct fr *)u->d_a, (struct fr *)u->d_b,
                                        (struct fr *)u->d_c, gp->log_m,
                                        gp->p->domain == BELLPERSON_DOMAIN_SNARKJS ? GPU_ROOTS_SNARKJS : GPU_ROOTS_BELLPERSON,
                                        err);
}
static cuzk_status gpu_bp_h_wait(void *vr, cuzk_error *err) { return gpu_sync(((gpu_bp_run *)vr)->gp->ctx, err); }

typedef struct { scalar256 *out; const CN(fr) *w; const uint32_t *idx; } bsel_ctx;
static void bsel_range(void *vctx, size_t b, size_t e, int tid) {
    (void)tid;
    bsel_ctx *c = vctx;
    for (size_t i = b; i < e; i++) CN(fr_to_canon)(c->out[i].l, &c->w[c->idx[i]]);
}
/* the B selection on the host, from the host witness (the selection was checked at create) */
static cuzk_status gpu_bp_b_scalars(void *vr, scalar256 *out, int nthreads, cuzk_error *err) {
    (void)err;
    gpu_bp_run *u = vr;
    bsel_ctx bc = {out, u->w, u->gp->idx_b};
    parallel_for(u->gp->n_b, nthreads, bsel_range, &bc);
    return CUZK_OK;
}

/* one G1 MSM over the resident query, scalars straight from the device witness (A, B1 through
 * their selections, L) or from H (d_a) */
static cuzk_status gpu_bp_g1_msm(void *vr, CN(g1_jacobian) *out, groth16_query q, const scalar256 *b_scalars,
                                 int nthreads, cuzk_error *err) {
    (void)b_scalars;
    (void)nthreads;
    static const char *const msm_name[4] = {"A", "B1", "L", "H"};
    gpu_bp_run *u = vr;
    groth16_gpu_prover *gp = u->gp;
    gpu_msm_job job;
    switch (q) {
    case GROTH16_Q_A:
        job = (gpu_msm_job){gp->a, 0, gp->n_a, u->d_w, GPU_SCALARS_MONTGOMERY, gp->d_idx_a, out, gp->msm};
        break;
    case GROTH16_Q_B1:
        job = (gpu_msm_job){gp->b_g1, 0, gp->n_b, u->d_w, GPU_SCALARS_MONTGOMERY, gp->d_idx_b, out, gp->msm};
        break;
    case GROTH16_Q_L:
        job = (gpu_msm_job){gp->l, 0, gp->n_aux, u->d_w + gp->n_inputs, GPU_SCALARS_MONTGOMERY, NULL, out, gp->msm};
        break;
    case GROTH16_Q_H:
        job = (gpu_msm_job){gp->h, 0, gp->m - 1, u->d_a, GPU_SCALARS_MONTGOMERY, NULL, out, gp->msm};
        break;
    default:
        return ERR(err, CUZK_ERR_ARG, "gpu stages: query %d", (int)q);
    }
    gpu_msm_stats ms;
    memset(&ms, 0, sizeof ms);
    double tw = now_ms();
    cuzk_status st = gpu_g1_msm_run(gp->ctx, &job, 1, &ms, err);
    if (st != CUZK_OK) return st;
    /* the stage is the wall time of this call (the sequence times it): the GPU's event time plus
     * what the host does around it (scratch, launches, the result's readback and Horner sum) */
    cuzk_log(CUZK_LOG_DEBUG,
             "GPU MSM %s: n %zu (0: %zu, 1: %zu, other: %zu) classify %.2f ones %.2f tail %.2f (digits %.2f sort "
             "%.2f buckets %.2f accumulate %.2f reduce %.2f, %zu chunks) events %.2f ms, wall %.2f ms",
             msm_name[q], job.n, ms.n_zero, ms.n_one, ms.n_other, ms.classify_ms, ms.ones_ms, ms.tail_ms,
             ms.tail_digits_ms, ms.tail_sort_ms, ms.tail_buckets_ms, ms.tail_accum_ms, ms.tail_reduce_ms, ms.tail_chunks,
             ms.total_ms, now_ms() - tw);
    return CUZK_OK;
}

/* B_G2 on the device (groth16_gpu_prover_set_b_g2): the B1 job's scalars and selection over the
 * resident G2 query */
static cuzk_status gpu_bp_b2_msm(void *vr, CN(g2_jacobian) *out, cuzk_error *err) {
    gpu_bp_run *u = vr;
    groth16_gpu_prover *gp = u->gp;
    gpu_g2_msm_job j2 = {gp->b_g2, 0, gp->n_b, u->d_w, GPU_SCALARS_MONTGOMERY, gp->d_idx_b, out, gp->msm};
    gpu_msm_stats ms2;
    memset(&ms2, 0, sizeof ms2);
    double tw = now_ms();
    cuzk_status st = gpu_g2_msm_run(gp->ctx, &j2, 1, &ms2, err);
    if (st != CUZK_OK) return st;
    cuzk_log(CUZK_LOG_DEBUG,
             "GPU MSM B2 (G2): n %zu (0: %zu, 1: %zu, other: %zu) classify %.2f ones %.2f tail %.2f (digits %.2f "
             "sort %.2f buckets %.2f accumulate %.2f reduce %.2f, %zu chunks) events %.2f ms, wall %.2f ms",
             j2.n, ms2.n_zero, ms2.n_one, ms2.n_other, ms2.classify_ms, ms2.ones_ms, ms2.tail_ms, ms2.tail_digits_ms,
             ms2.tail_sort_ms, ms2.tail_buckets_ms, ms2.tail_accum_ms, ms2.tail_reduce_ms, ms2.tail_chunks, ms2.total_ms,
             now_ms() - tw);
    return CUZK_OK;
}

#endif /* CURVE_BELLPERSON */

/* ==== the GPU backend value (src/groth16/prove.h) =============================================
 * bellperson keys: a groth16_gpu_prover (SRS G1 queries, matrices and selections resident).
 * snarkjs keys: a device context with the zkey's four G1 queries resident; a/b by the zkey rows
 * and the pointwise steps of H on the host, the NTTs of H and the G1 MSMs on the device. */
typedef struct gpu_backend_state {
    const CN(groth16_key) *k;
#if CURVE_BELLPERSON
    groth16_gpu_prover *gp;      /* bellperson */
    groth16_gpu_srs *srs;        /* bellperson: a borrowed resident SRS, or NULL */
#endif
    gpu_ctx *ctx;                /* snarkjs */
    gpu_g1_bases *q[4];          /* snarkjs: A, B1, L (= the zkey's C), H */
    size_t zkey_bytes;
    cuzk_msm_opts msm;           /* the device MSMs' tuning (cfg->msm) */
    pthread_mutex_t mu;          /* snarkjs: one start at a time */
} gpu_backend_state;

static void gpu_unbind(void *vs) {
    gpu_backend_state *g = vs;
    if (!g) return;
#if CURVE_BELLPERSON
    groth16_gpu_prover_destroy(g->gp);
#endif
    for (int i = 0; i < 4; i++) gpu_g1_bases_free(g->q[i]);
    gpu_ctx_destroy(g->ctx);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

#if CURVE_BELLPERSON
/* Where a bellperson key's B_G2 MSM runs (cuzk_msm_opts.b_g2_on_gpu): 1 on the device (its
 * errors are the bind's), -1 on CPU threads, 0 (automatic) on the device unless it does not fit,
 * then on CPU threads, said in one log line. "Fits": first, with an engine GPU budget, the prover's
 * device bytes + one proof's peak with B_G2 on the device (the query, the G2 MSM's scratch; as
 * backend_prover.c checks them) within the budget, decided before anything is uploaded; then the
 * query's upload and the pool's growth to the new peak succeed (a device out-of-memory there leaves
 * nothing behind). Measured (bench/RESULTS.md section 25): a 2^27 PoRep partition's B_G2 16 ms on
 * the H200 against 2.7-5.3 s on 16 CPU threads, the full WindowPoSt partition's 2.2 s against
 * 276 s, WinningPoSt's 15 ms against ~1 s. */
static cuzk_status gpu_choose_b_g2(gpu_backend_state *g, const groth16_backend_cfg *cfg, cuzk_error *err) {
    const int want = cfg->msm.b_g2_on_gpu;
    if (want < 0) return CUZK_OK;
    if (want > 0) return groth16_gpu_prover_set_b_g2(g->gp, true, err);
    size_t resident, peak;
    prover_b_g2_need(g->gp, &resident, &peak);
    const size_t need = resident + (g->srs ? groth16_gpu_srs_bytes(g->srs) : 0) + peak;
    if (cfg->gpu_budget && need > cfg->gpu_budget) {
        cuzk_log(CUZK_LOG_INFO,
                 "GPU prover on device %d: B_G2 MSM on CPU threads (with it on the device the circuit would need "
                 "%.2f GiB, over the GPU budget of %.2f GiB)",
                 cfg->device, (double)need / 1073741824.0, (double)cfg->gpu_budget / 1073741824.0);
        return CUZK_OK;
    }
    cuzk_error e2;
    memset(&e2, 0, sizeof e2);
    cuzk_status st = prover_set_b_g2(g->gp, true, true, &e2);
    if (st == CUZK_ERR_NOMEM_DEVICE) {
        cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: B_G2 MSM on CPU threads (it does not fit the device: %s)",
                 cfg->device, e2.msg);
        return CUZK_OK;
    }
    if (st != CUZK_OK && err) *err = e2;
    return st;
}
#endif

static cuzk_status gpu_bind(void **state, const CN(groth16_key) *k, const groth16_backend_cfg *cfg, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    *state = NULL;
    gpu_backend_state *g = calloc(1, sizeof *g);
    if (!g) return ERR(err, CUZK_ERR_NOMEM, "gpu backend state");
    pthread_mutex_init(&g->mu, NULL);
    g->k = k;
    g->msm = cfg->msm;
    if (k->convention == CUZK_CONVENTION_BELLPERSON) {
#if !CURVE_BELLPERSON
        st = ERR(err, CUZK_ERR_UNSUPPORTED, "the bellperson convention is BLS12-381 only");
        goto out;
#else
        g->srs = cfg->gpu_srs;
        if (!k->p || !k->cs) { st = ERR(err, CUZK_ERR_ARG, "gpu backend: bellperson key without parameters or circuit"); goto out; }
        st = cfg->gpu_srs ? groth16_gpu_prover_create_on(&g->gp, cfg->gpu_srs, k->p, k->cs, err)
                          : groth16_gpu_prover_create(&g->gp, k->p, k->cs, cfg->device, err);
        if (st == CUZK_OK) groth16_gpu_prover_set_msm(g->gp, &cfg->msm);
        if (st == CUZK_OK) st = gpu_choose_b_g2(g, cfg, err);
#endif
    } else if (k->convention == CUZK_CONVENTION_SNARKJS) {
        const CN(zkey) *z = k->z;
        if (!z) { st = ERR(err, CUZK_ERR_ARG, "gpu backend: snarkjs key without its zkey"); goto out; }
        double t0 = now_ms();
        if ((st = gpu_ctx_create(&g->ctx, cfg->device, err)) != CUZK_OK) goto out;
        const CN(g1_affine) *src[4] = {z->a, z->b1, z->c, z->h};
        size_t n[4] = {z->n_vars, z->n_vars, (size_t)z->n_vars - z->n_public - 1, z->domain_size};
        for (int i = 0; i < 4; i++) {
            if ((st = GN(g1_bases_upload)(g->ctx, &g->q[i], src[i], n[i], err)) != CUZK_OK)
                goto out;
            g->zkey_bytes += gpu_g1_bases_bytes(g->q[i]);
        }
        cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: zkey G1 queries resident (%.2f GiB) in %.0f ms", cfg->device,
                 (double)g->zkey_bytes / (1u << 30), now_ms() - t0);
    } else {
        st = ERR(err, CUZK_ERR_ARG, "gpu backend: unknown convention %d", (int)k->convention);
    }
out:
    if (st != CUZK_OK) {
        gpu_unbind(g);
        return st;
    }
    *state = g;
    return CUZK_OK;
}

/* snarkjs stage: MSM over a resident query, scalars copied from the host */
static cuzk_status zkey_gpu_msm(void *ctx, CN(g1_jacobian) *out, groth16_query q, const CN(g1_affine) *bases,
                                const scalar256 *scalars, size_t n, int nthreads, cuzk_error *err) {
    (void)bases;
    (void)nthreads;
    gpu_backend_state *g = ctx;
    void *d_s = NULL;
    cuzk_status st = gpu_buf_alloc(g->ctx, &d_s, (n ? n : 1) * sizeof(scalar256), err);
    if (st != CUZK_OK) return st;
    if ((st = gpu_copy_h2d_async(g->ctx, d_s, scalars, n * sizeof(scalar256), err)) == CUZK_OK) {
        /* out: this curve's g1_jacobian, the point GN(g1_msm_run) writes (src/cuda/gpu.h gpu_msm_job) */
        gpu_msm_job job = {g->q[q], 0, n, d_s, GPU_SCALARS_CANONICAL, NULL, out, gpu_msm_tuning_of(&g->msm)};
        st = GN(g1_msm_run)(g->ctx, &job, 1, NULL, err);
    }
    gpu_buf_free(g->ctx, d_s);
    return st;
}

/* snarkjs stage: the H step on the device, fused (gpu_h_snarkjs_async on the prover's context:
 * the same values as h_snarkjs of src/poly/ntt.h); a (the result) comes back, b and c are not
 * read after H by groth16_zkey_start. */
static cuzk_status zkey_gpu_h(void *ctx, const CN(ntt_domain) *d, CN(fr) *a, CN(fr) *b, CN(fr) *c, int nthreads, cuzk_error *err) {
    gpu_backend_state *g = ctx;
    if (d->log_m < 1) { /* a domain of one point: nothing for the device to do */
        CN(h_snarkjs)(d, a, b, c, nthreads);
        return CUZK_OK;
    }
    size_t bytes = d->m * sizeof(CN(fr));
    void *d_a = NULL, *d_b = NULL, *d_c = NULL;
    cuzk_status st;
    if ((st = gpu_buf_alloc(g->ctx, &d_a, bytes, err)) != CUZK_OK) goto out;
    if ((st = gpu_buf_alloc(g->ctx, &d_b, bytes, err)) != CUZK_OK) goto out;
    if ((st = gpu_buf_alloc(g->ctx, &d_c, bytes, err)) != CUZK_OK) goto out;
    if ((st = gpu_copy_h2d_async(g->ctx, d_a, a, bytes, err)) != CUZK_OK) goto out;
    if ((st = gpu_copy_h2d_async(g->ctx, d_b, b, bytes, err)) != CUZK_OK) goto out;
    if ((st = GN(h_snarkjs_async)(gpu_ctx_stream(g->ctx), d_a, d_b, d_c, d->log_m, err)) != CUZK_OK) goto out;
    if ((st = gpu_copy_d2h_async(g->ctx, a, d_a, bytes, err)) != CUZK_OK) goto out;
    st = gpu_sync(g->ctx, err);
out:
    gpu_buf_free(g->ctx, d_a);
    gpu_buf_free(g->ctx, d_b);
    gpu_buf_free(g->ctx, d_c);
    return st;
}

static size_t gpu_start_bytes_ops(const CN(groth16_key) *k, int nthreads) {
    (void)nthreads;
    /* bellperson: the pending and its B scalars (a/b/c, H and the MSM scratch live on the device);
     * snarkjs: the host stages of groth16_zkey_start */
#if CURVE_BELLPERSON
    if (k->convention == CUZK_CONVENTION_BELLPERSON)
        return sizeof(CN(groth16_pending)) + (size_t)k->p->n_b_g2 * sizeof(scalar256) + 4096; /* CPU B_G2 (the larger) */
#endif
    return CN(groth16_zkey_start_bytes)(k->z);
}

/* The stages prove_start runs on this backend's state (ctx: the gpu_backend_state).
 * snarkjs: one start on the device at a time (the state's lock) */
static cuzk_status zkey_gpu_begin(void *ctx, cuzk_error *err) {
    (void)err;
    pthread_mutex_lock(&((gpu_backend_state *)ctx)->mu);
    return CUZK_OK;
}
static void zkey_gpu_end(void *ctx) { pthread_mutex_unlock(&((gpu_backend_state *)ctx)->mu); }
static const CN(groth16_stages) gpu_snarkjs_stages = {
    .begin = zkey_gpu_begin, .end = zkey_gpu_end, .g1_msm = zkey_gpu_msm, .h_snarkjs = zkey_gpu_h};
#if CURVE_BELLPERSON
/* bellperson: the stages of the state's groth16_gpu_prover (ctx: a gpu_backend_state) */
static cuzk_status gpu_state_bp_begin(void *ctx, void **run, const bellperson_params *p, const CN(r1cs) *cs,
                                      const CN(fr) *w, size_t n_w, groth16_release_fn release, void *release_ctx,
                                      groth16_b2_place *b2, cuzk_error *err) {
    (void)release;
    (void)release_ctx;
    groth16_gpu_prover *gp = ((gpu_backend_state *)ctx)->gp;
    *b2 = gp->b_g2_device ? GROTH16_B2_ON_DEVICE : GROTH16_B2_ON_THREADS;
    return gpu_bp_begin(gp, run, p, cs, w, n_w, err);
}
static const groth16_bp_stages gpu_state_bp_stages = {
    .begin = gpu_state_bp_begin,
    .upload = gpu_bp_upload,
    .abc = gpu_bp_abc,
    .h = gpu_bp_h,
    .h_wait = gpu_bp_h_wait,
    .b_scalars = gpu_bp_b_scalars,
    .g1_msm = gpu_bp_g1_msm,
    .b2_msm = gpu_bp_b2_msm,
    .end = gpu_bp_end,
};

/* gpu_prover.h: the sequence over the prover's stages (a backend state naming it, nothing else) */
cuzk_status groth16_gpu_prove_start(CN(groth16_pending) **out, groth16_gpu_prover *gp, const CN(fr) *w, size_t n_w,
                                    const CN(fr) *r, const CN(fr) *s, int nthreads, groth16_release_fn release,
                                    void *release_ctx, groth16_timings *t, cuzk_error *err) {
    if (!gp) {
        if (out) *out = NULL;
        if (t) memset(t, 0, sizeof *t);
        return ERR(err, CUZK_ERR_ARG, "groth16_gpu_prove_start: NULL argument");
    }
    gpu_backend_state g;
    memset(&g, 0, sizeof g);
    g.gp = gp;
    return groth16_bellperson_start(out, gp->p, gp->cs, &gpu_state_bp_stages, &g, w, n_w, r, s, nthreads, release,
                                    release_ctx, t, err);
}
#endif

static size_t gpu_device_bytes_ops(void *vs) {
    gpu_backend_state *g = vs;
#if CURVE_BELLPERSON
    /* a borrowed SRS (held by an SRS store) is resident for this prover too */
    if (g->gp) return groth16_gpu_prover_device_bytes(g->gp) + (g->srs ? groth16_gpu_srs_bytes(g->srs) : 0);
#endif
    return g->zkey_bytes;
}
static size_t gpu_proof_device_bytes_ops(void *vs) {
    gpu_backend_state *g = vs;
#if CURVE_BELLPERSON
    if (g->gp) return groth16_gpu_proof_device_bytes(g->gp);
#endif
    const gpu_msm_tuning t = gpu_msm_tuning_of(&g->msm);
    return (size_t)g->k->z->domain_size * sizeof(CN(fr)) + gpu_g1_msm_scratch_bytes(g->k->z->domain_size, &t);
}
static void gpu_device_mem_ops(void *vs, size_t *pool_bytes, size_t *device_used) {
    gpu_backend_state *g = vs;
    *pool_bytes = *device_used = 0;
#if CURVE_BELLPERSON
    if (g->gp) {
        groth16_gpu_prover_mem(g->gp, pool_bytes, device_used);
        return;
    }
#endif
    gpu_mem_stats ms;
    cuzk_error e = {0};
    if (g->ctx && gpu_ctx_mem(g->ctx, &ms, &e) == CUZK_OK) {
        *pool_bytes = ms.pool_reserved_bytes;
        *device_used = ms.device_total_bytes - ms.device_free_bytes;
    }
}
static bool gpu_dead_ops(void *vs) {
    gpu_backend_state *g = vs;
#if CURVE_BELLPERSON
    if (g->gp) return groth16_gpu_prover_dead(g->gp);
#endif
    return !g->ctx || gpu_ctx_dead(g->ctx);
}
static void *gpu_host_alloc_ops(size_t bytes) {
    void *p = NULL;
    cuzk_error e = {0};
    if (gpu_host_alloc_pinned(&p, bytes, &e) != CUZK_OK) {
        cuzk_log(CUZK_LOG_WARN, "pinned host buffer of %zu bytes: %s", bytes, e.msg);
        return NULL;
    }
    return p;
}
static void gpu_host_free_ops(void *ptr) { gpu_host_free_pinned(ptr); }
static cuzk_status gpu_device_query_ops(int device, size_t *total_bytes, size_t *free_bytes, char *name, size_t cap,
                                        cuzk_error *err) {
    return gpu_device_mem_info(device, total_bytes, free_bytes, name, cap, err);
}

const CN(groth16_backend_ops) CN(groth16_backend_gpu_ops) = {
    .info = {.name = "gpu",
             .caps = GROTH16_CAP_DEVICE | GROTH16_CAP_B2_OVERLAP | GROTH16_CAP_PINNED_HOST | GROTH16_CAP_SHARED_SRS,
             .device_bytes = gpu_device_bytes_ops,
             .proof_device_bytes = gpu_proof_device_bytes_ops,
             .device_mem = gpu_device_mem_ops,
             .dead = gpu_dead_ops,
             .host_alloc = gpu_host_alloc_ops,
             .host_free = gpu_host_free_ops,
             .device_query = gpu_device_query_ops},
    .bind = gpu_bind,
    .unbind = gpu_unbind,
    .start_bytes = gpu_start_bytes_ops,
    .snarkjs = &gpu_snarkjs_stages,
#if CURVE_BELLPERSON
    .bellperson = &gpu_state_bp_stages,
#endif
};

#endif
