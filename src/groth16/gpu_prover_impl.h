/* Groth16 GPU backend of one curve: a template, instantiated per curve
 * (src/groth16/groth16_<curve>.c; every curve-dependent name is CN(name), a curve's device entry
 * point GN(name)). The snarkjs convention on every curve; the bellperson GPU prover
 * (src/groth16/gpu_prover.h) on BLS12-381 only (CURVE_BELLPERSON). */
#include "groth16/gpu_prover.h"

#include <pthread.h>
#include <stdio.h>
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
cuzk_status groth16_gpu_prover_create_planned(groth16_gpu_prover **out, groth16_gpu_srs *srs, const bellperson_params *p,
                                              const CN(r1cs) *cs, int device, const groth16_gpu_plan_opts *opts,
                                              cuzk_error *err) {
    (void)srs; (void)p; (void)cs; (void)device; (void)opts;
    if (out) *out = NULL;
    return ERR(err, CUZK_ERR_UNSUPPORTED, "this build has no CUDA backend (built without nvcc or with -DCUZK_CUDA=OFF)");
}
const memplan *groth16_gpu_prover_plan(const groth16_gpu_prover *gp) { (void)gp; return NULL; }
void groth16_gpu_prover_arena(groth16_gpu_prover *gp, groth16_gpu_arena_stats *out, bool reset) {
    (void)gp; (void)reset;
    if (out) memset(out, 0, sizeof *out);
}
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
#include "cuda/gpu_h_parked.h"
#include "cuda/gpu_r1cs.h"

/* A host CSR matrix as the device entry points take it (src/cuda/gpu_r1cs.h), ids of +1 and -1
 * found in its table. */
static gpu_csr_host csr_view(const CN(csr_matrix) *m) {
    CN(fr) one, minus_one;
    CN(fr_one)(&one);
    CN(fr_neg)(&minus_one, &one);
    gpu_csr_host h = {m->n_rows, m->nnz, m->row_ptr, m->col, m->coef_id, m->n_coef, m->coef,
                      CN(csr_coef_find)(m, &one), CN(csr_coef_find)(m, &minus_one)};
    return h;
}

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

struct groth16_gpu_prover {
    gpu_ctx *ctx;                /* the SRS's */
    groth16_gpu_srs *srs;        /* borrowed, or owned when own_srs (then it holds only the ctx) */
    int own_srs;
    const bellperson_params *p;  /* borrowed */
    const CN(r1cs) *cs;              /* borrowed */
    size_t m, n_inputs, n_aux;
    int log_m;
    gpu_g1_bases *q[4];          /* the resident G1 queries (A, B1, L, H): the SRS's or own_q; NULL when
                                    the plan streams the query */
    gpu_g1_bases *own_q[4];      /* G1 queries this prover uploaded (freed with it) */
    const CN(g1_affine) *h_q[4]; /* streamed G1 queries: their host arrays (p's) */
    int borrows_g1;              /* p->g1_stream_borrows holds one for this prover */
    void *registered[MEMPLAN_NQ + 2 + 9]; /* host ranges this prover page-locked (unregistered with it):
                                    per query, or p's block / g2_block (slots NQ, NQ + 1), then the
                                    row_ptr, col and coef_id of streamed matrices A, B, C */
    gpu_r1cs *d_cs;               /* the matrices: resident, or streamed (the plan's circuit place) */
    uint64_t cs_block;            /* the row block of streamed matrices (csr_stream_block) */
    CN(fr) *h_park;               /* the lean H (plan.h_parked): page-locked host memory for c and b
                                     of one proof (2 m Fr: c at 0, b at m), made with the plan */
    uint32_t *d_idx_a, *d_idx_b; /* device: witness index of every A / B query point */
    uint32_t *idx_b;             /* host copy of the B selection (for the B_G2 scalars) */
    size_t n_a, n_b;
    size_t resident_bytes;       /* matrices, selections, the NTT tables of the domain, own G1 queries and
                                    an own B_G2 copy */
    gpu_msm_tuning msm;          /* the device MSMs' tuning (chunk and window of the plan) */
    gpu_g2_bases *b_g2;          /* the device B_G2 query when resident: the SRS's, or own_b_g2 */
    int own_b_g2;                /* b_g2 uploaded by this prover (the SRS has none): freed with it */
    const CN(g2_affine) *h_b2;   /* B_G2 streamed from the host (p->b_g2) */
    int b_g2_device;             /* B_G2 MSM on the device (resident or streamed) */
    memplan plan;                /* the device memory plan (memplan.h), kept in step with the above */
    memplan_input plan_in;       /* its inputs (for memplan_eval when the tuning or B_G2 changes) */
    pthread_mutex_t mu;          /* one start at a time */
};

_Static_assert((int)GPU_MSM_ACCUM_DEFAULT == (int)CUZK_GPU_MSM_ACCUM_DEFAULT &&
                   (int)GPU_MSM_ACCUM_TASKS == (int)CUZK_GPU_MSM_ACCUM_TASKS &&
                   (int)GPU_MSM_ACCUM_RUNS == (int)CUZK_GPU_MSM_ACCUM_RUNS,
               "the device accumulation values are the public ones");
_Static_assert(MEMPLAN_A == (int)GROTH16_Q_A && MEMPLAN_B1 == (int)GROTH16_Q_B1 && MEMPLAN_L == (int)GROTH16_Q_L &&
                   MEMPLAN_H == (int)GROTH16_Q_H,
               "the plan's queries are numbered as groth16_query");
_Static_assert(MEMPLAN_A == (int)BELLPERSON_Q_A && MEMPLAN_B1 == (int)BELLPERSON_Q_B1 && MEMPLAN_L == (int)BELLPERSON_Q_L &&
                   MEMPLAN_H == (int)BELLPERSON_Q_H && MEMPLAN_B2 == (int)BELLPERSON_Q_B2,
               "the plan's queries are numbered as a deferred .params' (bellperson_params_read)");

static const char *const q_long[4] = {"A", "B_G1", "L", "H"};

/* gpu_g1/g2_bases_upload_fill's source for a deferred .params query (bellperson_params_read on all
 * threads); the prover's query order is bellperson's BELLPERSON_Q_* order. */
typedef struct q_file_fill {
    const bellperson_params *p;
    int q;
} q_file_fill;
static cuzk_status q_file_fill_fn(void *ctx, size_t first, size_t count, void *dst, cuzk_error *err) {
    const q_file_fill *f = ctx;
    return bellperson_params_read(f->p, f->q, first, count, dst, 0, err);
}
static void log_file_upload(int device, const char *what, const gpu_upload_stats *us) {
    cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: %s query from the file: %.2f GiB in %.0f ms (%.2f GB/s; decode "
             "%.0f ms)", device, what, (double)us->bytes / 1073741824.0, us->wall_ms,
             us->wall_ms > 0 ? (double)us->bytes / us->wall_ms / 1e6 : 0.0, us->fill_ms);
}
/* The B_G2 query of p onto the prover's device: from its host array, or from the file of a
 * deferred load (chunks of stream_points points, 0: 2^20). */
static cuzk_status upload_b_g2(groth16_gpu_prover *gp, const bellperson_params *p, size_t stream_points, cuzk_error *err) {
    if (bellperson_params_in_file(p, BELLPERSON_Q_B2)) {
        q_file_fill ff = {p, BELLPERSON_Q_B2};
        gpu_upload_stats us;
        cuzk_status st = gpu_g2_bases_upload_fill(gp->ctx, &gp->b_g2, gp->n_b, stream_points, q_file_fill_fn, &ff, &us, err);
        if (st == CUZK_OK) log_file_upload(gpu_ctx_device(gp->ctx), "B_G2", &us);
        return st;
    }
    return gpu_g2_bases_upload(gp->ctx, &gp->b_g2, __atomic_load_n(&p->b_g2, __ATOMIC_ACQUIRE), gp->n_b, err);
}

/* the plan's scratch callback: the device code's bounds for the prover's tuning */
static size_t prover_scratch_fn(void *ctx, int g2, int streamed, size_t n, int window_bits, size_t chunk_points,
                                size_t stream_points) {
    const groth16_gpu_prover *gp = ctx;
    gpu_msm_tuning t = gp->msm;
    t.window_bits = window_bits;
    t.chunk_points = chunk_points;
    t.stream_points = stream_points;
    if (streamed) return g2 ? gpu_g2_msm_stream_scratch_bytes(n, &t) : gpu_g1_msm_stream_scratch_bytes(n, &t);
    return g2 ? gpu_g2_msm_scratch_bytes(n, &t) : gpu_g1_msm_scratch_bytes(n, &t);
}

/* the tuning of one MSM of the prover: the plan's chunk and window; stream_points for a streamed one */
static gpu_msm_tuning prover_tuning(const groth16_gpu_prover *gp, int g2) {
    gpu_msm_tuning t = gp->msm;
    t.chunk_points = gp->plan.chunk_points;
    t.window_bits = gp->plan.window_bits;
    t.stream_points = gp->plan.stream_points[g2 ? 1 : 0];
    return t;
}

static void log_plan(const groth16_gpu_prover *gp, const char *what) {
    char line[640];
    memplan_describe(&gp->plan, line, sizeof line);
    cuzk_log(CUZK_LOG_INFO, "GPU memory plan on device %d (%s): %s", gpu_ctx_device(gp->ctx), what, line);
}

/* Page-locks the host memory of streamed query q (copies at the bus's speed, overlapping the MSMs)
 * unless it is already (an SRS store's pinned copy). Queries inside p's one allocation (block, or
 * g2_block for B_G2) lock that whole allocation once: two arrays of one block share pages at
 * their boundary, and a range registered in part would leave a copy half pinned. A failure
 * leaves it pageable (slower copies, same results) with a warning. */
static void prover_pin_host(groth16_gpu_prover *gp, int q, const void *ptr, size_t bytes) {
    const bellperson_params *p = gp->p;
    int slot = q;
    if (q == MEMPLAN_B2 && p->g2_block) {
        ptr = p->g2_block;
        bytes = p->g2_block_bytes;
        slot = MEMPLAN_NQ + 1;
    } else if (p->block && (q != MEMPLAN_B2 || !p->g2_block)) {
        ptr = p->block;
        bytes = p->block_bytes;
        slot = MEMPLAN_NQ;
    }
    if (!ptr || !bytes || gp->registered[slot] || gpu_host_is_pinned(ptr)) return;
    double t0 = now_ms();
    cuzk_error e = {0};
    if (gpu_host_register((void *)ptr, bytes, &e) != CUZK_OK) {
        cuzk_log(CUZK_LOG_WARN, "GPU prover on device %d: the streamed %s query stays pageable (%s): slower copies",
                 gpu_ctx_device(gp->ctx), memplan_query_name(q), e.msg);
        return;
    }
    gp->registered[slot] = (void *)ptr;
    cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: host memory of the streamed %s query page-locked (%.2f GiB%s) in "
             "%.0f ms", gpu_ctx_device(gp->ctx), memplan_query_name(q), (double)bytes / (1u << 30),
             slot >= MEMPLAN_NQ ? ", the parameters' whole allocation" : "", now_ms() - t0);
}

/* The ctx's arena to the plan's: exactly, on the prover's own ctx; on a borrowed SRS's ctx (shared
 * by the SRS's provers) it only grows. */
static cuzk_status prover_arena_fit(groth16_gpu_prover *gp, cuzk_error *err) {
    size_t arena = gp->plan.arena_bytes;
    if (!gp->own_srs) {
        gpu_mem_stats ms;
        cuzk_status st = gpu_ctx_mem(gp->ctx, &ms, err);
        if (st != CUZK_OK) return st;
        if (ms.arena_bytes > arena) arena = ms.arena_bytes;
    }
    return gpu_ctx_arena_set(gp->ctx, arena, err);
}

void groth16_gpu_prover_set_msm(groth16_gpu_prover *gp, const cuzk_msm_opts *msm) {
    if (!gp) return;
    const gpu_msm_tuning t = gpu_msm_tuning_of(msm);
    gp->msm.accum = t.accum;
    /* a given window or chunk replaces the plan's; the arena follows the new peak */
    if (t.window_bits > 0) gp->plan.window_bits = t.window_bits;
    if (t.chunk_points > 0) gp->plan.chunk_points = t.chunk_points;
    memplan_eval(&gp->plan, &gp->plan_in);
    cuzk_error e = {0};
    if (prover_arena_fit(gp, &e) != CUZK_OK)
        cuzk_log(CUZK_LOG_WARN, "GPU prover on device %d: the arena cannot grow to %.2f GiB for the new MSM tuning (%s): "
                 "proofs take the rest from the pool", gpu_ctx_device(gp->ctx), (double)gp->plan.arena_bytes / (1u << 30), e.msg);
}

static void prover_drop_own_b_g2(groth16_gpu_prover *gp) {
    if (gp->own_b_g2) {
        gp->resident_bytes -= gpu_g2_bases_bytes(gp->b_g2);
        gpu_g2_bases_free(gp->b_g2);
    }
    gp->b_g2 = NULL;
    gp->own_b_g2 = 0;
    gp->h_b2 = NULL;
}

void groth16_gpu_prover_destroy(groth16_gpu_prover *gp) {
    if (!gp) return;
    if (gp->ctx) {
        gpu_buf_free_resident(gp->ctx, gp->d_idx_b, (gp->n_b ? gp->n_b : 1) * sizeof(uint32_t));
        gpu_buf_free_resident(gp->ctx, gp->d_idx_a, (gp->n_a ? gp->n_a : 1) * sizeof(uint32_t));
        cuzk_error e = {0};
        (void)gpu_sync(gp->ctx, &e);
        /* an own ctx's arena goes with the ctx; a borrowed SRS's ctx keeps its arena (other provers
         * of the SRS may plan on it; freed with the SRS) */
    }
    prover_drop_own_b_g2(gp);
    for (int q = 0; q < 4; q++) gpu_g1_bases_free(gp->own_q[q]);
    gpu_r1cs_free(gp->d_cs);
    gpu_host_free_pinned(gp->h_park);
    for (int i = 0; i < MEMPLAN_NQ + 2 + 9; i++) gpu_host_unregister(gp->registered[i]);
    if (gp->borrows_g1) __atomic_fetch_sub(&((bellperson_params *)gp->p)->g1_stream_borrows, 1, __ATOMIC_ACQ_REL);
    if (gp->own_srs) groth16_gpu_srs_free(gp->srs);
    free(gp->idx_b);
    pthread_mutex_destroy(&gp->mu);
    free(gp);
}

size_t groth16_gpu_prover_device_bytes(const groth16_gpu_prover *gp) {
    return gp ? gp->resident_bytes + (gp->own_srs ? gp->srs->bytes : 0) : 0;
}
size_t groth16_gpu_proof_device_bytes(const groth16_gpu_prover *gp) { return gp ? gp->plan.arena_bytes : 0; }
const memplan *groth16_gpu_prover_plan(const groth16_gpu_prover *gp) { return gp ? &gp->plan : NULL; }
void groth16_gpu_prover_mem(const groth16_gpu_prover *gp, size_t *pool_reserved, size_t *device_used) {
    *pool_reserved = *device_used = 0;
    gpu_mem_stats ms;
    cuzk_error e = {0};
    if (!gp || gpu_ctx_mem(gp->ctx, &ms, &e) != CUZK_OK) return;
    *pool_reserved = ms.pool_reserved_bytes + ms.arena_bytes;
    *device_used = ms.device_total_bytes - ms.device_free_bytes;
}
void groth16_gpu_prover_arena(groth16_gpu_prover *gp, groth16_gpu_arena_stats *out, bool reset) {
    if (out) memset(out, 0, sizeof *out);
    gpu_mem_stats ms;
    cuzk_error e = {0};
    if (!gp || gpu_ctx_mem(gp->ctx, &ms, &e) != CUZK_OK) return;
    if (out) {
        out->arena_bytes = ms.arena_bytes;
        out->high_bytes = ms.arena_high_bytes;
        out->overflows = ms.arena_overflows;
        out->pool_transient_bytes =
            ms.pool_used_high_bytes > ms.pool_used_bytes ? ms.pool_used_high_bytes - ms.pool_used_bytes : 0;
    }
    if (reset) gpu_ctx_mem_reset_high(gp->ctx);
}
bool groth16_gpu_prover_dead(const groth16_gpu_prover *gp) { return !gp || gpu_ctx_dead(gp->ctx); }

size_t groth16_gpu_start_bytes(const groth16_gpu_prover *gp) {
    if (!gp) return 0;
    /* with the device B_G2, no host B scalars */
    return sizeof(CN(groth16_pending)) + (gp->b_g2_device ? 0 : gp->n_b * sizeof(scalar256)) + 4096;
}

/* The device bytes gpu_r1cs_upload will hold for m (gpu_r1cs_bytes counts them so; src/cuda/gpu_r1cs.h). */
static size_t csr_device_bytes(const CN(csr_matrix) *m) {
    return ((size_t)m->n_rows + 1) * 8 + (size_t)m->nnz * 8 + (size_t)m->n_coef * sizeof(CN(fr));
}

/* The longest row of the three matrices (the staging of streamed a/b/c holds one: gpu_r1cs.h). */
static uint64_t csr_max_row_nnz(const CN(r1cs) *cs) {
    const CN(csr_matrix) *m[3] = {&cs->a, &cs->b, &cs->c};
    uint64_t mx = 0;
    for (int i = 0; i < 3; i++)
        for (uint32_t r = 0; r < m[i]->n_rows; r++) {
            const uint64_t n = m[i]->row_ptr[r + 1] - m[i]->row_ptr[r];
            if (n > mx) mx = n;
        }
    return mx;
}

/* The row block of streamed matrices: GPU_R1CS_BLOCK_NNZ (the staging is then ~0.5 GiB, small
 * beside a 2^27 circuit's ~10 GiB of matrices), halved while four blocks would cover the largest
 * matrix, so that a small circuit's staging stays a fraction of its matrices. */
static uint64_t csr_stream_block(const CN(r1cs) *cs) {
    uint64_t big = cs->a.n_rows;
    const uint64_t nz[3] = {cs->a.nnz, cs->b.nnz, cs->c.nnz};
    for (int i = 0; i < 3; i++)
        if (nz[i] > big) big = nz[i];
    uint64_t b = GPU_R1CS_BLOCK_NNZ;
    while (b > 64 && 4 * b > big) b /= 2;
    return b;
}

/* Page-locks the CSR arrays of streamed matrices (slots NQ + 2 ...; a failure leaves them pageable:
 * slower copies, same result). */
static void prover_pin_matrices(groth16_gpu_prover *gp) {
    const CN(csr_matrix) *m[3] = {&gp->cs->a, &gp->cs->b, &gp->cs->c};
    double t0 = now_ms();
    size_t total = 0;
    for (int i = 0; i < 3; i++) {
        const void *ptr[3] = {m[i]->row_ptr, m[i]->col, m[i]->coef_id};
        const size_t bytes[3] = {((size_t)m[i]->n_rows + 1) * 8, (size_t)m[i]->nnz * 4, (size_t)m[i]->nnz * 4};
        for (int k = 0; k < 3; k++) {
            const int slot = MEMPLAN_NQ + 2 + 3 * i + k;
            if (!ptr[k] || !bytes[k] || gpu_host_is_pinned(ptr[k])) continue;
            cuzk_error e = {0};
            if (gpu_host_register((void *)ptr[k], bytes[k], &e) != CUZK_OK) {
                cuzk_log(CUZK_LOG_WARN, "GPU prover on device %d: the streamed matrices stay pageable (%s): slower copies",
                         gpu_ctx_device(gp->ctx), e.msg);
                return;
            }
            gp->registered[slot] = (void *)ptr[k];
            total += bytes[k];
        }
    }
    cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: host memory of the streamed matrices page-locked (%.2f GiB) in %.0f ms",
             gpu_ctx_device(gp->ctx), (double)total / (1u << 30), now_ms() - t0);
}

/* The NTT / H tables of a domain of 2^log_m (src/cuda/gpu.h gpu_h_cache_bytes), per roots used. */
static size_t tables_bytes(int log_m) {
    const size_t m = (size_t)1 << log_m;
    return ((m / 2 ? m / 2 : 1) + 7 + 2 * (1024 + (m / 1024 ? m / 1024 : 1))) * sizeof(CN(fr)) + 4 * 512;
}

/* An H over zeros in the arena: builds the domain's NTT tables (cached per device) and loads the
 * H kernels now, off the first proof's path; its buffers are the first proof's a, b, c. */
static cuzk_status prover_warm_h(groth16_gpu_prover *gp, cuzk_error *err) {
    const size_t bytes = gp->m * sizeof(CN(fr));
    void *d[3] = {NULL, NULL, NULL};
    cuzk_status st = CUZK_OK;
    if (gp->plan.h_parked) { /* two device vectors, c from the (zeroed) park buffer */
        for (int i = 0; i < 2 && st == CUZK_OK; i++) st = gpu_buf_alloc(gp->ctx, &d[i], bytes, err);
        for (int i = 0; i < 2 && st == CUZK_OK; i++) st = gpu_memset_async(gp->ctx, d[i], 0, bytes, err);
        if (st == CUZK_OK) st = gpu_copy_d2h_async(gp->ctx, gp->h_park, d[0], bytes, err);
        if (st == CUZK_OK)
            st = gpu_h_bellperson_parked_async(gpu_ctx_stream(gp->ctx), d[0], d[1], (const struct fr *)gp->h_park, gp->log_m,
                                               gp->p->domain == BELLPERSON_DOMAIN_SNARKJS ? GPU_ROOTS_SNARKJS
                                                                                          : GPU_ROOTS_BELLPERSON,
                                               err);
        if (st == CUZK_OK) st = gpu_sync(gp->ctx, err);
        for (int i = 1; i >= 0; i--) gpu_buf_free(gp->ctx, d[i]);
        return st;
    }
    for (int i = 0; i < 3 && st == CUZK_OK; i++) st = gpu_buf_alloc(gp->ctx, &d[i], bytes, err);
    for (int i = 0; i < 3 && st == CUZK_OK; i++) st = gpu_memset_async(gp->ctx, d[i], 0, bytes, err);
    if (st == CUZK_OK)
        st = gpu_h_bellperson_roots_async(gpu_ctx_stream(gp->ctx), d[0], d[1], d[2], gp->log_m,
                                          gp->p->domain == BELLPERSON_DOMAIN_SNARKJS ? GPU_ROOTS_SNARKJS : GPU_ROOTS_BELLPERSON,
                                          err);
    if (st == CUZK_OK) st = gpu_sync(gp->ctx, err);
    for (int i = 2; i >= 0; i--) gpu_buf_free(gp->ctx, d[i]);
    return st;
}

cuzk_status groth16_gpu_prover_create_planned(groth16_gpu_prover **out, groth16_gpu_srs *srs, const bellperson_params *p,
                                              const CN(r1cs) *cs, int device, const groth16_gpu_plan_opts *opts,
                                              cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    uint32_t *idx_a = NULL;
    if (!out || !p || !cs) return ERR(err, CUZK_ERR_ARG, "groth16_gpu_prover_create: NULL argument");
    *out = NULL;
    const groth16_gpu_plan_opts dflt = {0};
    const groth16_gpu_plan_opts *o = opts ? opts : &dflt;
    double t0 = now_ms();
    groth16_gpu_prover *gp = calloc(1, sizeof *gp);
    if (!gp) return ERR(err, CUZK_ERR_NOMEM, "groth16_gpu_prover_create");
    pthread_mutex_init(&gp->mu, NULL);
    gp->p = p;
    gp->cs = cs;
    gp->msm = gpu_msm_tuning_of(&o->msm);
    if (srs) {
        gp->srs = srs;
    } else {
        if (!(gp->srs = calloc(1, sizeof *gp->srs))) {
            st = ERR(err, CUZK_ERR_NOMEM, "groth16_gpu_prover_create");
            goto out;
        }
        gp->own_srs = 1;
        if ((st = gpu_ctx_create(&gp->srs->ctx, device, err)) != CUZK_OK) goto out;
    }
    gp->ctx = gp->srs->ctx;
    device = gpu_ctx_device(gp->ctx);
    gp->log_m = CN(groth16_bellperson_log_m)(cs);
    gp->m = (size_t)1 << gp->log_m;
    gp->n_inputs = (size_t)cs->n_public + 1;
    gp->n_aux = cs->n_vars - gp->n_inputs;
    if (p->vk.n_public + 1 != gp->n_inputs || p->n_l != gp->n_aux || p->n_h != gp->m - 1) {
        st = ERR(err, CUZK_ERR_MISMATCH, "parameters do not fit the circuit: ic %u/l %u/h %u vs inputs %zu/aux %zu/h %zu",
                 p->vk.n_public + 1, p->n_l, p->n_h, gp->n_inputs, gp->n_aux, gp->m - 1);
        goto out;
    }
    {
        const gpu_g1_bases *sq[4] = {gp->srs->a, gp->srs->b_g1, gp->srs->l, gp->srs->h};
        const size_t pn[4] = {p->n_a, p->n_b_g1, p->n_l, p->n_h};
        for (int q = 0; q < 4; q++)
            if (sq[q] && gpu_g1_bases_count(sq[q]) != pn[q]) {
                st = ERR(err, CUZK_ERR_MISMATCH, "the resident SRS was made from other parameters (query sizes differ)");
                goto out;
            }
    }
    if ((st = build_selections(&idx_a, &gp->n_a, &gp->idx_b, &gp->n_b, p, cs, err)) != CUZK_OK) goto out;

    /* ---- the plan, before anything is uploaded ---- */
    {
        gpu_mem_stats ms;
        if ((st = gpu_ctx_mem(gp->ctx, &ms, err)) != CUZK_OK) goto out;
        const size_t given_bytes = groth16_gpu_srs_bytes(gp->srs);
        const size_t idle = ms.pool_reserved_bytes > ms.pool_used_bytes ? ms.pool_reserved_bytes - ms.pool_used_bytes : 0;
        /* the device's headroom for what no plan counts (CUDA's lazily loaded kernels, small pool
         * allocations of the H step): max(512 MiB, 1/64 of the device), off its free memory */
        const size_t dev_margin = ms.device_total_bytes / 64 > ((size_t)512 << 20) ? ms.device_total_bytes / 64
                                                                                   : ((size_t)512 << 20);
        const size_t room = ms.device_free_bytes + idle, avail = (room > dev_margin ? room - dev_margin : 0) + given_bytes;
        memplan_input *in = &gp->plan_in;
        in->budget_bytes = o->budget_bytes && o->budget_bytes < avail ? o->budget_bytes : avail;
        in->margin_bytes = 0;
        in->n[MEMPLAN_A] = gp->n_a;
        in->n[MEMPLAN_B1] = gp->n_b;
        in->n[MEMPLAN_L] = gp->n_aux;
        in->n[MEMPLAN_H] = gp->m - 1;
        in->n[MEMPLAN_B2] = gp->n_b;
        in->g1_bytes = sizeof(CN(g1_affine));
        in->g2_bytes = sizeof(CN(g2_affine));
        in->fr_bytes = sizeof(CN(fr));
        in->n_vars = cs->n_vars;
        in->m = gp->m;
        /* exactly what the prover will report resident for them (groth16_gpu_prover_device_bytes) */
        const size_t sel_bytes = ((gp->n_a ? gp->n_a : 1) + (gp->n_b ? gp->n_b : 1)) * sizeof(uint32_t);
        in->circuit_bytes = csr_device_bytes(&cs->a) + csr_device_bytes(&cs->b) + csr_device_bytes(&cs->c) + sel_bytes;
        /* streamed matrices keep their coefficient tables; the staging first assumes no row longer
         * than a block (made exact below when the plan streams them) */
        in->circuit_min_bytes = ((size_t)cs->a.n_coef + cs->b.n_coef + cs->c.n_coef) * sizeof(CN(fr)) + sel_bytes;
        gp->cs_block = csr_stream_block(cs);
        in->circuit_stage_bytes = gpu_r1cs_stage_bytes(gp->cs_block, 0);
        in->tables_bytes = tables_bytes(gp->log_m);
        in->given = (gp->srs->a ? 1u << MEMPLAN_A : 0) | (gp->srs->b_g1 ? 1u << MEMPLAN_B1 : 0) |
                    (gp->srs->l ? 1u << MEMPLAN_L : 0) | (gp->srs->h ? 1u << MEMPLAN_H : 0) |
                    (gp->srs->b_g2 ? 1u << MEMPLAN_B2 : 0);
        in->park_ok = o->lean_h >= 0; /* the lean H: gpu_bp_upload / gpu_bp_abc / gpu_bp_h below */
        in->park_always = o->lean_h > 0;
        in->b2_want = o->msm.b_g2_on_gpu;
        if (in->b2_want == 0 && !gp->srs->b_g2 && gp->n_b && !p->b_g2 && !bellperson_params_in_file(p, BELLPERSON_Q_B2))
            in->b2_want = -1; /* nothing to upload */
        in->window_bits = gp->msm.window_bits;
        in->chunk_points = gp->msm.chunk_points;
        in->stream_points = o->stream_points;
        in->scratch = prover_scratch_fn;
        in->scratch_ctx = gp;
        memplan_make(&gp->plan, in);
        if (gp->plan.circuit == MEMPLAN_STREAMED || !gp->plan.fits) {
            const size_t exact = gpu_r1cs_stage_bytes(gp->cs_block, csr_max_row_nnz(cs));
            if (exact != in->circuit_stage_bytes) {
                in->circuit_stage_bytes = exact;
                memplan_make(&gp->plan, in);
            }
        }
        log_plan(gp, gp->own_srs ? "the device's free memory" : "beside a resident SRS");
        if (!gp->plan.fits) {
            char gb[64] = "";
            if (o->budget_bytes) snprintf(gb, sizeof gb, ", GPU budget %.2f GiB", (double)o->budget_bytes / 1073741824.0);
            st = ERR(err, CUZK_ERR_NOMEM_DEVICE,
                     "GPU memory plan on device %d: the circuit needs at least %.2f GiB of GPU memory (every SRS query "
                     "streamed, the smallest MSM chunks; the witness and a/b/c of one proof alone are %.2f GiB) but may "
                     "use %.2f GiB (device free %.2f GiB less a %.2f GiB margin%s%s)",
                     device, (double)gp->plan.min_need_bytes / 1073741824.0,
                     (double)gp->plan.phase_bytes[0] / 1073741824.0, (double)in->budget_bytes / 1073741824.0,
                     (double)room / 1073741824.0, (double)dev_margin / 1073741824.0,
                     given_bytes ? ", plus the resident SRS" : "", gb);
            goto out;
        }
    }

    /* ---- the lean H's host buffers ---- */
    if (gp->plan.h_parked) {
        double tp = now_ms();
        if ((st = gpu_host_alloc_pinned((void **)&gp->h_park, 2 * gp->m * sizeof(CN(fr)), err)) != CUZK_OK) goto out;
        cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: the lean H parks c and b of each proof in %.2f GiB of page-locked "
                 "host memory (made in %.0f ms)", device, (double)(2 * gp->m * sizeof(CN(fr))) / (1u << 30), now_ms() - tp);
    }

    /* ---- what the plan keeps resident, and the host arrays of what it streams ---- */
    gpu_ctx_pool_trim(gp->ctx); /* the pool's idle memory was counted as available: give it back first */
    {
        gpu_g1_bases *sq[4] = {gp->srs->a, gp->srs->b_g1, gp->srs->l, gp->srs->h};
        const size_t pn[4] = {p->n_a, p->n_b_g1, p->n_l, p->n_h};
        /* a deferred load (bellperson_load_opts.defer_queries): the queries the plan streams come into
         * host memory now (once per key); the resident ones go from the file to the device */
        unsigned stream_mask = 0;
        for (int q = 0; q < 4; q++)
            if (!sq[q] && gp->plan.place[q] != MEMPLAN_RESIDENT && bellperson_params_in_file(p, q)) stream_mask |= 1u << q;
        if (stream_mask &&
            (st = bellperson_params_materialize((bellperson_params *)p, stream_mask, 0, err)) != CUZK_OK)
            goto out;
        const CN(g1_affine) *hq[4] = {__atomic_load_n(&p->a, __ATOMIC_ACQUIRE), __atomic_load_n(&p->b_g1, __ATOMIC_ACQUIRE),
                                      __atomic_load_n(&p->l, __ATOMIC_ACQUIRE), __atomic_load_n(&p->h, __ATOMIC_ACQUIRE)};
        for (int q = 0; q < 4; q++) {
            if (sq[q]) {
                gp->q[q] = sq[q];
            } else if (gp->plan.place[q] == MEMPLAN_RESIDENT) {
                if (pn[q] && !hq[q] && bellperson_params_in_file(p, q)) {
                    /* decoded and checked chunk by chunk into page-locked staging, copied up while
                     * the next chunk is decoded: the host never holds the query */
                    q_file_fill ff = {p, q};
                    gpu_upload_stats us;
                    if ((st = gpu_g1_bases_upload_fill(gp->ctx, &gp->own_q[q], pn[q], o->stream_points, q_file_fill_fn,
                                                       &ff, &us, err)) != CUZK_OK)
                        goto out;
                    log_file_upload(device, q_long[q], &us);
                } else {
                    if (pn[q] && !hq[q]) {
                        st = ERR(err, CUZK_ERR_ARG, "the parameters' %s query is not in host memory", q_long[q]);
                        goto out;
                    }
                    if ((st = gpu_g1_bases_upload(gp->ctx, &gp->own_q[q], hq[q], pn[q], err)) != CUZK_OK) goto out;
                }
                gp->q[q] = gp->own_q[q];
                gp->resident_bytes += gpu_g1_bases_bytes(gp->own_q[q]);
            } else {
                if (pn[q] && !hq[q]) {
                    st = ERR(err, CUZK_ERR_ARG, "the plan streams the %s query but its host copy was released",
                             q_long[q]);
                    goto out;
                }
                gp->h_q[q] = hq[q];
                prover_pin_host(gp, q, hq[q], pn[q] * sizeof(CN(g1_affine)));
                if (!gp->borrows_g1) {
                    __atomic_fetch_add(&((bellperson_params *)p)->g1_stream_borrows, 1, __ATOMIC_ACQ_REL);
                    gp->borrows_g1 = 1;
                }
            }
        }
    }
    /* B_G2 on CPU threads or streamed from the host: a deferred query comes into host memory */
    if (!gp->srs->b_g2 && gp->plan.place[MEMPLAN_B2] != MEMPLAN_RESIDENT &&
        bellperson_params_in_file(p, BELLPERSON_Q_B2) &&
        (st = bellperson_params_materialize((bellperson_params *)p, 1u << BELLPERSON_Q_B2, 0, err)) != CUZK_OK)
        goto out;
    if (gp->plan.place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS) {
        if (p->n_b_g2 != gp->n_b) {
            st = ERR(err, CUZK_ERR_MISMATCH, "B_G2 query has %u points but the circuit selects %zu", p->n_b_g2, gp->n_b);
            goto out;
        }
        if (gp->srs->b_g2) {
            if (gpu_g2_bases_count(gp->srs->b_g2) != gp->n_b) {
                st = ERR(err, CUZK_ERR_MISMATCH, "the resident SRS's B_G2 query has %zu points, the circuit selects %zu",
                         gpu_g2_bases_count(gp->srs->b_g2), gp->n_b);
                goto out;
            }
            gp->b_g2 = gp->srs->b_g2;
        } else if (gp->n_b && !p->b_g2 && !bellperson_params_in_file(p, BELLPERSON_Q_B2)) {
            st = ERR(err, CUZK_ERR_ARG, "the parameters' B_G2 query is not in host memory");
            goto out;
        } else if (gp->plan.place[MEMPLAN_B2] == MEMPLAN_RESIDENT) {
            if ((st = upload_b_g2(gp, p, o->stream_points, err)) != CUZK_OK) goto out;
            gp->own_b_g2 = 1;
            gp->resident_bytes += gpu_g2_bases_bytes(gp->b_g2);
        } else {
            gp->h_b2 = p->b_g2;
            prover_pin_host(gp, MEMPLAN_B2, p->b_g2, gp->n_b * sizeof(CN(g2_affine)));
        }
        gp->b_g2_device = 1;
    }

    /* ---- the circuit ---- */
    {
        gpu_csr_host ha = csr_view(&cs->a), hb = csr_view(&cs->b), hc = csr_view(&cs->c);
        if (gp->plan.circuit == MEMPLAN_STREAMED) {
            /* the plan streams the matrices: their host arrays are borrowed (the key holds them) */
            if ((st = gpu_r1cs_attach_host(gp->ctx, &gp->d_cs, &ha, &hb, &hc, (uint32_t)gp->n_inputs, gp->cs_block, err)) !=
                CUZK_OK)
                goto out;
            prover_pin_matrices(gp);
        } else if ((st = gpu_r1cs_upload(gp->ctx, &gp->d_cs, &ha, &hb, &hc, (uint32_t)gp->n_inputs, err)) != CUZK_OK) {
            goto out;
        }
    }
    {
        size_t ba = (gp->n_a ? gp->n_a : 1) * sizeof(uint32_t), bb = (gp->n_b ? gp->n_b : 1) * sizeof(uint32_t);
        /* the selections outlive every proof: plain device allocations, never arena blocks (a
         * borrowed SRS's ctx may already have an arena, which its next resize must find empty) */
        if ((st = gpu_buf_alloc_resident(gp->ctx, (void **)&gp->d_idx_a, ba, err)) != CUZK_OK) goto out;
        if ((st = gpu_buf_alloc_resident(gp->ctx, (void **)&gp->d_idx_b, bb, err)) != CUZK_OK) goto out;
        if ((st = gpu_copy_h2d_async(gp->ctx, gp->d_idx_a, idx_a, gp->n_a * sizeof(uint32_t), err)) != CUZK_OK) goto out;
        if ((st = gpu_copy_h2d_async(gp->ctx, gp->d_idx_b, gp->idx_b, gp->n_b * sizeof(uint32_t), err)) != CUZK_OK) goto out;
        if ((st = gpu_sync(gp->ctx, err)) != CUZK_OK) goto out;
        /* the NTT tables of the domain (made below, cached per device) are this circuit's too */
        gp->resident_bytes += gpu_r1cs_bytes(gp->d_cs) + ba + bb + gp->plan_in.tables_bytes;
    }

    /* ---- one proof's arena, the MSMs' host scratch, the NTT tables ---- */
    {
        double tr = now_ms();
        if ((st = prover_arena_fit(gp, err)) != CUZK_OK) goto out;
        size_t n_max = gp->n_a;
        if (gp->n_b > n_max) n_max = gp->n_b;
        if (gp->n_aux > n_max) n_max = gp->n_aux;
        if (gp->m - 1 > n_max) n_max = gp->m - 1;
        /* the host scratch holds a window set per tail chunk: sized for the plan's chunks (the
         * reserve counts chunks of 2^25) */
        if (gp->plan.chunk_points && gp->plan.chunk_points < ((size_t)1 << 25))
            n_max *= ((size_t)1 << 25) / gp->plan.chunk_points;
        if ((st = gpu_g1_msm_reserve(gp->ctx, n_max, 0, err)) != CUZK_OK) goto out;
        if ((st = prover_warm_h(gp, err)) != CUZK_OK) goto out;
        cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: arena of one proof (%.2f GiB), MSM host scratch and NTT tables "
                 "made in %.0f ms", device, (double)gp->plan.arena_bytes / (1u << 30), now_ms() - tr);
    }
    cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: resident %.2f GiB (%s, selections%s%s) in %.0f ms", device,
             (double)groth16_gpu_prover_device_bytes(gp) / (1u << 30),
             gpu_r1cs_streamed(gp->d_cs) ? "coefficient tables of the streamed matrices" : "matrices",
             gp->own_srs ? ", SRS queries of the plan" : "",
             gp->own_b_g2 ? ", B_G2" : "", now_ms() - t0);
    *out = gp;
    gp = NULL;
out:
    free(idx_a);
    if (gp && !gp->ctx && gp->own_srs) { /* no ctx was made */
        free(gp->srs);
        gp->own_srs = 0;
    }
    groth16_gpu_prover_destroy(gp);
    return st;
}

cuzk_status groth16_gpu_prover_create_on(groth16_gpu_prover **out, groth16_gpu_srs *srs, const bellperson_params *p,
                                         const CN(r1cs) *cs, cuzk_error *err) {
    if (!out || !srs || !p || !cs) return ERR(err, CUZK_ERR_ARG, "groth16_gpu_prover_create: NULL argument");
    groth16_gpu_plan_opts o;
    memset(&o, 0, sizeof o);
    o.msm.b_g2_on_gpu = -1;
    return groth16_gpu_prover_create_planned(out, srs, p, cs, gpu_ctx_device(srs->ctx), &o, err);
}

cuzk_status groth16_gpu_prover_create(groth16_gpu_prover **out, const bellperson_params *p, const CN(r1cs) *cs,
                                      int device, cuzk_error *err) {
    if (!out || !p || !cs) return ERR(err, CUZK_ERR_ARG, "groth16_gpu_prover_create: NULL argument");
    groth16_gpu_plan_opts o;
    memset(&o, 0, sizeof o);
    o.msm.b_g2_on_gpu = -1;
    return groth16_gpu_prover_create_planned(out, NULL, p, cs, device, &o, err);
}

cuzk_status groth16_gpu_prover_set_b_g2(groth16_gpu_prover *gp, bool on_device, cuzk_error *err) {
    if (!gp) return ERR(err, CUZK_ERR_ARG, "groth16_gpu_prover_set_b_g2: NULL prover");
    if (!on_device) {
        /* CPU threads read the host query: a deferred one comes into host memory first */
        if (bellperson_params_in_file(gp->p, BELLPERSON_Q_B2)) {
            cuzk_status sm = bellperson_params_materialize((bellperson_params *)gp->p, 1u << BELLPERSON_Q_B2, 0, err);
            if (sm != CUZK_OK) return sm;
        }
        prover_drop_own_b_g2(gp);
        gp->b_g2_device = 0;
        gp->plan.place[MEMPLAN_B2] = MEMPLAN_HOST_THREADS;
        gp->plan.stream_points[1] = 0;
        memplan_eval(&gp->plan, &gp->plan_in);
        return CUZK_OK;
    }
    if (gp->b_g2_device) return CUZK_OK;
    if (gp->p->n_b_g2 != gp->n_b)
        return ERR(err, CUZK_ERR_MISMATCH, "B_G2 query has %u points but the circuit selects %zu", gp->p->n_b_g2, gp->n_b);
    double t0 = now_ms();
    const memplan before = gp->plan;
    cuzk_status st = CUZK_OK;
    if (groth16_gpu_srs_has_b_g2(gp->srs)) {
        if (gpu_g2_bases_count(gp->srs->b_g2) != gp->n_b)
            return ERR(err, CUZK_ERR_MISMATCH, "the resident SRS's B_G2 query has %zu points, the circuit selects %zu",
                       gpu_g2_bases_count(gp->srs->b_g2), gp->n_b);
        gp->b_g2 = gp->srs->b_g2;
        gp->plan.place[MEMPLAN_B2] = MEMPLAN_RESIDENT;
    } else {
        if (gp->n_b && !gp->p->b_g2 && !bellperson_params_in_file(gp->p, BELLPERSON_Q_B2))
            return ERR(err, CUZK_ERR_ARG, "groth16_gpu_prover_set_b_g2: the parameters' B_G2 query is not in host memory");
        /* resident when the device takes it (and the grown arena) within the budget, else streamed */
        gp->plan.place[MEMPLAN_B2] = MEMPLAN_RESIDENT;
        memplan_eval(&gp->plan, &gp->plan_in);
        cuzk_error e2 = {0};
        if (gp->plan.fits && (st = upload_b_g2(gp, gp->p, gp->plan_in.stream_points, &e2)) == CUZK_OK) {
            gp->own_b_g2 = 1;
            gp->resident_bytes += gpu_g2_bases_bytes(gp->b_g2);
        } else if (st == CUZK_ERR_DEVICE || st == CUZK_ERR_POINT || st == CUZK_ERR_IO ||
                   (st = bellperson_params_materialize((bellperson_params *)gp->p, 1u << BELLPERSON_Q_B2, 0, &e2)) !=
                       CUZK_OK) {
            /* a device fault, or the file's (a bad point, a failed read): said, nothing changed */
            gp->plan = before;
            if (err) *err = e2;
            return st;
        } else {
            gp->plan.place[MEMPLAN_B2] = MEMPLAN_STREAMED;
            gp->plan.stream_points[1] = gp->plan_in.stream_points ? gp->plan_in.stream_points : (size_t)1 << 22;
            gp->h_b2 = gp->p->b_g2;
            prover_pin_host(gp, MEMPLAN_B2, gp->p->b_g2, gp->n_b * sizeof(CN(g2_affine)));
        }
    }
    memplan_eval(&gp->plan, &gp->plan_in);
    if ((st = prover_arena_fit(gp, err)) != CUZK_OK) {
        prover_drop_own_b_g2(gp);
        gp->plan = before;
        cuzk_error e3 = {0};
        (void)prover_arena_fit(gp, &e3);
        return st;
    }
    gp->b_g2_device = 1;
    cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: B_G2 MSM on the device, its query (%.2f GiB) %s in %.0f ms",
             gpu_ctx_device(gp->ctx), (double)gp->n_b * sizeof(CN(g2_affine)) / (1u << 30),
             gp->own_b_g2 ? "uploaded" : gp->h_b2 ? "streamed from host memory" : "from the resident SRS", now_ms() - t0);
    log_plan(gp, "B_G2 moved to the device");
    return CUZK_OK;
}

bool groth16_gpu_prover_b_g2_on_device(const groth16_gpu_prover *gp) { return gp && gp->b_g2_device; }


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
        gpu_buf_free(gp->ctx, u->d_c);
        gpu_buf_free(gp->ctx, u->d_b);
        gpu_buf_free(gp->ctx, u->d_a);
        gpu_buf_free(gp->ctx, u->d_w);
    }
    pthread_mutex_unlock(&gp->mu);
    free(u);
}

/* the witness to the device (the lean H: a's vector below it, b and c come later) */
static cuzk_status gpu_bp_upload(void *vr, cuzk_error *err) {
    gpu_bp_run *u = vr;
    gpu_ctx *ctx = u->gp->ctx;
    const size_t m = u->gp->m;
    cuzk_status st;
    if (u->gp->plan.h_parked) {
        if ((st = gpu_buf_alloc(ctx, (void **)&u->d_a, m * sizeof(CN(fr)), err)) != CUZK_OK) return st;
        if ((st = gpu_buf_alloc(ctx, (void **)&u->d_w, u->n_w * sizeof(CN(fr)), err)) != CUZK_OK) return st;
        if ((st = gpu_copy_h2d_async(ctx, u->d_w, u->w, u->n_w * sizeof(CN(fr)), err)) != CUZK_OK) return st;
        return gpu_sync(ctx, err);
    }
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
    groth16_gpu_prover *gp = u->gp;
    if (gp->plan.h_parked) {
        /* the lean H (memplan.h): c, then b, each summed into a's vector and parked in host memory,
         * then a; the witness goes back (on top of the arena's stack), b comes up again */
        gpu_ctx *ctx = gp->ctx;
        const size_t bytes = gp->m * sizeof(CN(fr));
        struct fr *x = (struct fr *)u->d_a;
        const struct fr *w = (const struct fr *)u->d_w;
        cuzk_status st;
        if ((st = gpu_r1cs_abc_async(ctx, NULL, NULL, x, gp->m, gp->d_cs, w, err)) != CUZK_OK) return st;
        if ((st = gpu_copy_d2h_async(ctx, gp->h_park, x, bytes, err)) != CUZK_OK) return st;
        if ((st = gpu_r1cs_abc_async(ctx, NULL, x, NULL, gp->m, gp->d_cs, w, err)) != CUZK_OK) return st;
        if ((st = gpu_copy_d2h_async(ctx, gp->h_park + gp->m, x, bytes, err)) != CUZK_OK) return st;
        if ((st = gpu_r1cs_abc_async(ctx, x, NULL, NULL, gp->m, gp->d_cs, w, err)) != CUZK_OK) return st;
        gpu_buf_free(ctx, u->d_w);
        u->d_w = NULL;
        if ((st = gpu_buf_alloc(ctx, (void **)&u->d_b, bytes, err)) != CUZK_OK) return st;
        if ((st = gpu_copy_h2d_async(ctx, u->d_b, gp->h_park + gp->m, bytes, err)) != CUZK_OK) return st;
        return gpu_sync(ctx, err);
    }
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
    if (gp->plan.h_parked) {
        /* the lean H on a and b, c from host memory; then b goes and the witness comes up again
         * for the MSMs (stream-ordered after H) */
        cuzk_status st = gpu_h_bellperson_parked_async(gpu_ctx_stream(gp->ctx), (struct fr *)u->d_a, (struct fr *)u->d_b,
                                                       (const struct fr *)gp->h_park, gp->log_m,
                                                       gp->p->domain == BELLPERSON_DOMAIN_SNARKJS ? GPU_ROOTS_SNARKJS
                                                                                                  : GPU_ROOTS_BELLPERSON,
                                                       err);
        if (st != CUZK_OK) return st;
        gpu_buf_free(gp->ctx, u->d_b);
        u->d_b = NULL;
        if ((st = gpu_buf_alloc(gp->ctx, (void **)&u->d_w, u->n_w * sizeof(CN(fr)), err)) != CUZK_OK) return st;
        return gpu_copy_h2d_async(gp->ctx, u->d_w, u->w, u->n_w * sizeof(CN(fr)), err);
    }
    cuzk_status st = gpu_h_bellperson_roots_async(gpu_ctx_stream(gp->ctx), (struct fr *)u->d_a, (struct fr *)u->d_b,
                                                  (struct fr *)u->d_c, gp->log_m,
                                                  gp->p->domain == BELLPERSON_DOMAIN_SNARKJS ? GPU_ROOTS_SNARKJS
                                                                                             : GPU_ROOTS_BELLPERSON,
                                                  err);
    if (st != CUZK_OK) return st;
    /* b and c are H's scratch, dead once it is done: given back now (stream-ordered: the MSMs,
     * enqueued after H, reuse them; the plan counts on it) */
    gpu_buf_free(gp->ctx, u->d_c);
    gpu_buf_free(gp->ctx, u->d_b);
    u->d_c = u->d_b = NULL;
    return CUZK_OK;
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
    if ((int)q < 0 || (int)q > 3) return ERR(err, CUZK_ERR_ARG, "gpu stages: query %d", (int)q);
    gpu_msm_job job;
    memset(&job, 0, sizeof job);
    job.bases = gp->q[q]; /* NULL: streamed from the host array (the plan) */
    job.h_bases = gp->q[q] ? NULL : gp->h_q[q];
    job.form = GPU_SCALARS_MONTGOMERY;
    job.out = out;
    job.tuning = prover_tuning(gp, 0);
    switch (q) {
    case GROTH16_Q_A:
        job.n = gp->n_a;
        job.d_scalars = u->d_w;
        job.d_index = gp->d_idx_a;
        break;
    case GROTH16_Q_B1:
        job.n = gp->n_b;
        job.d_scalars = u->d_w;
        job.d_index = gp->d_idx_b;
        break;
    case GROTH16_Q_L:
        job.n = gp->n_aux;
        job.d_scalars = u->d_w + gp->n_inputs;
        break;
    default: /* H */
        job.n = gp->m - 1;
        job.d_scalars = u->d_a;
        break;
    }
    gpu_msm_stats ms;
    memset(&ms, 0, sizeof ms);
    double tw = now_ms();
    cuzk_status st = gpu_g1_msm_run(gp->ctx, &job, 1, &ms, err);
    if (st != CUZK_OK) return st;
    /* the stage is the wall time of this call (the sequence times it): the GPU's event time plus
     * what the host does around it (scratch, launches, the result's readback and Horner sum) */
    const double wall = now_ms() - tw;
    cuzk_log(CUZK_LOG_DEBUG,
             "GPU MSM %s: n %zu (0: %zu, 1: %zu, other: %zu) classify %.2f ones %.2f tail %.2f (digits %.2f sort "
             "%.2f buckets %.2f accumulate %.2f reduce %.2f, %zu chunks) events %.2f ms, wall %.2f ms",
             msm_name[q], job.n, ms.n_zero, ms.n_one, ms.n_other, ms.classify_ms, ms.ones_ms, ms.tail_ms,
             ms.tail_digits_ms, ms.tail_sort_ms, ms.tail_buckets_ms, ms.tail_accum_ms, ms.tail_reduce_ms, ms.tail_chunks,
             ms.total_ms, wall);
    if (ms.stream_bytes)
        cuzk_log(CUZK_LOG_DEBUG,
                 "GPU MSM %s streamed: %.2f GiB in %zu chunks, copies %.2f ms (%.2f GB/s on the bus), MSM %.2f GB/s of "
                 "bases over its wall time",
                 msm_name[q], (double)ms.stream_bytes / (1u << 30), ms.stream_chunks, ms.stream_copy_ms,
                 ms.stream_copy_ms > 0 ? (double)ms.stream_bytes / ms.stream_copy_ms / 1e6 : 0.0,
                 wall > 0 ? (double)ms.stream_bytes / wall / 1e6 : 0.0);
    return CUZK_OK;
}

/* B_G2 on the device (groth16_gpu_prover_set_b_g2): the B1 job's scalars and selection over the
 * resident G2 query */
static cuzk_status gpu_bp_b2_msm(void *vr, CN(g2_jacobian) *out, cuzk_error *err) {
    gpu_bp_run *u = vr;
    groth16_gpu_prover *gp = u->gp;
    /* the H scalars are dead after the H MSM: their memory goes to the G2 MSM (the plan) */
    gpu_buf_free(gp->ctx, u->d_a);
    u->d_a = NULL;
    gpu_g2_msm_job j2;
    memset(&j2, 0, sizeof j2);
    j2.bases = gp->b_g2; /* NULL: streamed from the host array (the plan) */
    j2.h_bases = gp->b_g2 ? NULL : gp->h_b2;
    j2.n = gp->n_b;
    j2.d_scalars = u->d_w;
    j2.form = GPU_SCALARS_MONTGOMERY;
    j2.d_index = gp->d_idx_b;
    j2.out = out;
    j2.tuning = prover_tuning(gp, 1);
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
    if (ms2.stream_bytes)
        cuzk_log(CUZK_LOG_DEBUG, "GPU MSM B2 streamed: %.2f GiB in %zu chunks, copies %.2f ms (%.2f GB/s on the bus)",
                 (double)ms2.stream_bytes / (1u << 30), ms2.stream_chunks, ms2.stream_copy_ms,
                 ms2.stream_copy_ms > 0 ? (double)ms2.stream_bytes / ms2.stream_copy_ms / 1e6 : 0.0);
    return CUZK_OK;
}


#endif /* CURVE_BELLPERSON */

/* ==== the GPU backend value (src/groth16/prove.h) =============================================
 * bellperson keys: a groth16_gpu_prover (SRS G1 queries, matrices and selections resident).
 * snarkjs keys: a device context with the zkey's four G1 queries resident, and its B_G2 query
 * unless B_G2 stays on CPU threads (cuzk_msm_opts.b_g2_on_gpu: zkey_bind_b2); a/b by the zkey
 * rows on the host, H (fused, C = A*B included) and the G1 MSMs on the device, then the B_G2 MSM
 * over G2 on the device (zkey_gpu_b2), else in finish on CPU threads. */
typedef struct gpu_backend_state {
    const CN(groth16_key) *k;
#if CURVE_BELLPERSON
    groth16_gpu_prover *gp;      /* bellperson */
    groth16_gpu_srs *srs;        /* bellperson: a borrowed resident SRS, or NULL */
#endif
    gpu_ctx *ctx;                /* snarkjs */
    gpu_g1_bases *q[4];          /* snarkjs: A, B1, L (= the zkey's C), H */
    gpu_g2_bases *b2;            /* snarkjs: the zkey's B_G2 query (n_vars points) when B_G2 runs on
                                    the device, else NULL (finish runs it on CPU threads) */
    gpu_r1cs *rows;              /* snarkjs: the zkey's A and B rows (zkey_bind_rows) when they fit:
                                    the whole start runs on the device (zkey_gpu_resident_start;
                                    groth16_backend_cfg.zkey_rows_resident); NULL: a/b on the host,
                                    the host stages */
    size_t zkey_bytes;           /* snarkjs: the device bytes of q, b2 and rows */
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
    gpu_g2_bases_free(g->b2);
    gpu_r1cs_free(g->rows);
    gpu_ctx_destroy(g->ctx);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

/* snarkjs: one proof's device peak from the pool. Host stages: the H step's MSM (m scalars and
 * its scratch), or with the device B_G2 the G2 MSM's when larger (n_vars scalars and its scratch:
 * the bound of BLS12-381's G2 points, which bounds BN254's smaller ones too). Resident rows
 * (zkey_gpu_resident_start): the witness (n_vars Fr) for the whole start, beside the largest of
 * a, b, c (3 m Fr, the H step), the H MSM (m Fr and its scratch), the witness MSMs' scratch and
 * the G2 MSM's. */
static size_t zkey_proof_device_bytes(const gpu_backend_state *g, int with_b2, int resident) {
    const CN(zkey) *z = g->k->z;
    const gpu_msm_tuning t = gpu_msm_tuning_of(&g->msm);
    const size_t m = z->domain_size, nv = z->n_vars, fr = sizeof(CN(fr));
    size_t peak = m * fr + gpu_g1_msm_scratch_bytes(m, &t);
    if (resident) {
        if (3 * m * fr > peak) peak = 3 * m * fr;
        const size_t wm = gpu_g1_msm_scratch_bytes(nv, &t);
        if (wm > peak) peak = wm;
        if (with_b2 && gpu_g2_msm_scratch_bytes(nv, &t) > peak) peak = gpu_g2_msm_scratch_bytes(nv, &t);
        return nv * fr + peak;
    }
    if (with_b2) {
        const size_t b2 = nv * sizeof(scalar256) + gpu_g2_msm_scratch_bytes(nv, &t);
        if (b2 > peak) peak = b2;
    }
    return peak;
}

/* Why `bytes` more resident and a proof's `peak` do not fit g's device (a phrase for a log line),
 * or "" when they do: the engine's GPU budget, else the device's free memory (with what the pool
 * holds idle) less a margin of max(512 MiB, 1/64 of the device). */
static void zkey_room(gpu_backend_state *g, size_t bytes, size_t peak, size_t budget, char *why, size_t cap) {
    gpu_mem_stats ms;
    cuzk_error e = {0};
    why[0] = 0;
    if (budget && g->zkey_bytes + bytes + peak > budget) {
        snprintf(why, cap, "the GPU budget of %.2f GiB", (double)budget / (1u << 30));
    } else if (gpu_ctx_mem(g->ctx, &ms, &e) == CUZK_OK) {
        const size_t idle = ms.pool_reserved_bytes > ms.pool_used_bytes ? ms.pool_reserved_bytes - ms.pool_used_bytes : 0;
        const size_t margin = ms.device_total_bytes / 64 > ((size_t)512 << 20) ? ms.device_total_bytes / 64
                                                                             : ((size_t)512 << 20);
        if (bytes + peak + margin > ms.device_free_bytes + idle)
            snprintf(why, cap, "the device's free %.2f GiB less a %.2f GiB margin",
                     (double)(ms.device_free_bytes + idle) / (1u << 30), (double)margin / (1u << 30));
    }
}

/* snarkjs: the zkey's B_G2 query resident on g's device, after its G1 queries, as
 * cuzk_msm_opts.b_g2_on_gpu asks (bellperson's convention): -1 never (B_G2 in finish on CPU
 * threads); 1 always (a failed upload fails the bind); 0 unless the query and the G2 MSM's peak do
 * not fit beside the G1 queries (the engine's GPU budget, cfg->gpu_budget, for the resident bytes
 * plus one proof's peak; the device's free memory less a margin of max(512 MiB, 1/64 of the
 * device)) or the upload runs out of device memory: then CPU threads, with a log line. Counted in
 * g->zkey_bytes. */
static cuzk_status zkey_bind_b2(gpu_backend_state *g, const CN(zkey) *z, const groth16_backend_cfg *cfg, cuzk_error *err) {
    const int want = cfg->msm.b_g2_on_gpu;
    const size_t n = z->n_vars, bytes = n * sizeof(CN(g2_affine));
    const int dev = gpu_ctx_device(g->ctx);
    if (want < 0) return CUZK_OK;
    if (n && !z->b2) {
        if (want > 0) return ERR(err, CUZK_ERR_ARG, "gpu backend: the zkey's B_G2 query is not in host memory");
        return CUZK_OK;
    }
    if (want == 0) {
        const size_t peak = zkey_proof_device_bytes(g, 1, 0);
        char why[192];
        zkey_room(g, bytes, peak, cfg->gpu_budget, why, sizeof why);
        if (why[0]) {
            cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: the zkey's B_G2 MSM runs on CPU threads (its query, %.2f "
                     "GiB, and the G2 MSM's %.2f GiB do not fit %s)", dev, (double)bytes / (1u << 30),
                     (double)peak / (1u << 30), why);
            return CUZK_OK;
        }
    }
    cuzk_error e2 = {0};
    cuzk_status st = GN(g2_bases_upload)(g->ctx, &g->b2, z->b2, n, &e2);
    if (st == CUZK_OK) {
        g->zkey_bytes += gpu_g2_bases_bytes(g->b2);
        return CUZK_OK;
    }
    g->b2 = NULL;
    if (want == 0 && st == CUZK_ERR_NOMEM_DEVICE) {
        cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: the zkey's B_G2 MSM runs on CPU threads (its query, %.2f GiB, "
                 "does not fit the device: %s)", dev, (double)bytes / (1u << 30), e2.msg);
        return CUZK_OK;
    }
    if (err) *err = e2;
    return st;
}

/* snarkjs: the zkey's A and B rows resident on g's device, after its queries, so that a proof's
 * start runs there whole (zkey_gpu_resident_start: the witness goes up once; a/b, H and every
 * MSM's scalars stay on the device). The records (any order; snarkjs and cuzk setup write them
 * sorted by matrix and row) become CSR matrices (src/r1cs csr_builder: each row's terms in
 * record order, values deduplicated into a table; C empty: snarkjs takes C = A*B on the rows).
 * When they and the resident proof's peak do not fit (zkey_room), the host cannot build them, or
 * the upload runs out of device memory: a log line, no rows, and proofs run the host stages.
 * Counted in g->zkey_bytes. Errors: those of a failed device (CUZK_ERR_DEVICE). */
static cuzk_status zkey_bind_rows(gpu_backend_state *g, const CN(zkey) *z, const groth16_backend_cfg *cfg, cuzk_error *err) {
    const int dev = gpu_ctx_device(g->ctx);
    if (z->log_domain < 1 || (!cfg->zkey_rows_resident && cfg->msm.zkey_rows_on_gpu < 0))
        return CUZK_OK; /* one point: the host's H; or not asked */
    uint32_t rows = 0;
    uint64_t nnz[2] = {0, 0};
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        const CN(zkey_coef) *k = &z->coefs[i];
        if (k->row + 1 > rows) rows = k->row + 1;
        nnz[k->matrix & 1]++;
    }
    /* the device bytes of gpu_r1cs_upload (gpu_r1cs_bytes), an upper bound (every value distinct) */
    const size_t bytes = 3 * ((size_t)rows + 1) * sizeof(uint64_t) + (size_t)(nnz[0] + nnz[1]) * (8 + sizeof(CN(fr)));
    char why[192];
    zkey_room(g, bytes, zkey_proof_device_bytes(g, g->b2 != NULL, 1), cfg->gpu_budget, why, sizeof why);
    if (why[0]) {
        cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: the zkey's rows stay on the host (up to %.2f GiB with a proof's "
                 "%.2f GiB on the device do not fit %s): a/b on CPU threads", dev, (double)bytes / (1u << 30),
                 (double)zkey_proof_device_bytes(g, g->b2 != NULL, 1) / (1u << 30), why);
        return CUZK_OK;
    }
    /* counting sort of the records by (matrix, row), stable: each row keeps its record order */
    cuzk_status st = CUZK_OK;
    CN(csr_matrix) mx[3];
    memset(mx, 0, sizeof mx);
    uint64_t *start = calloc(2 * (size_t)rows + 1, sizeof *start);
    uint32_t *order = malloc(((size_t)z->n_coefs + 1) * sizeof *order);
    CN(csr_builder) bld;
    memset(&bld, 0, sizeof bld);
    if (!start || !order) { st = CUZK_ERR_NOMEM; goto out; }
    for (uint32_t i = 0; i < z->n_coefs; i++) start[(size_t)(z->coefs[i].matrix & 1) * rows + z->coefs[i].row + 1]++;
    for (size_t j = 1; j <= 2 * (size_t)rows; j++) start[j] += start[j - 1];
    for (uint32_t i = 0; i < z->n_coefs; i++) order[start[(size_t)(z->coefs[i].matrix & 1) * rows + z->coefs[i].row]++] = i;
    /* start[j] is now the end of bucket j: bucket j is [start[j - 1], start[j]) (0 for j = 0) */
    for (int mi = 0; mi < 2 && st == CUZK_OK; mi++) {
        if ((st = CN(csr_builder_init)(&bld, rows, nnz[mi])) != CUZK_OK) break;
        for (uint32_t r = 0; r < rows && st == CUZK_OK; r++) {
            const size_t j = (size_t)mi * rows + r;
            for (uint64_t x = j ? start[j - 1] : 0; x < start[j] && st == CUZK_OK; x++) {
                const CN(zkey_coef) *k = &z->coefs[order[x]];
                st = CN(csr_builder_push)(&bld, k->wire, &k->value);
            }
            if (st == CUZK_OK) st = CN(csr_builder_end_row)(&bld);
        }
        if (st != CUZK_OK) break;
        CN(csr_builder_finish)(&bld, &mx[mi]);
    }
    if (st == CUZK_OK) { /* C: no terms (the device computes C = A*B in the H step) */
        mx[2].n_rows = rows;
        mx[2].row_ptr = calloc((size_t)rows + 1, sizeof *mx[2].row_ptr);
        if (!mx[2].row_ptr) st = CUZK_ERR_NOMEM;
    }
    if (st == CUZK_OK) {
        gpu_csr_host h[3] = {csr_view(&mx[0]), csr_view(&mx[1]), csr_view(&mx[2])};
        cuzk_error e2 = {0};
        st = GN(r1cs_upload)(g->ctx, &g->rows, &h[0], &h[1], &h[2], 0, &e2);
        if (st == CUZK_OK) {
            g->zkey_bytes += gpu_r1cs_bytes(g->rows);
        } else if (st == CUZK_ERR_NOMEM_DEVICE) {
            g->rows = NULL;
            cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: the zkey's rows stay on the host (they do not fit the "
                     "device: %s): a/b on CPU threads", dev, e2.msg);
            st = CUZK_OK;
        } else {
            g->rows = NULL;
            if (err) *err = e2;
        }
    }
out:
    if (st == CUZK_ERR_NOMEM || st == CUZK_ERR_UNSUPPORTED) { /* the host cannot build them: the host stages */
        cuzk_log(CUZK_LOG_WARN, "GPU prover on device %d: the zkey's rows stay on the host (%s building their CSR "
                 "matrices): a/b on CPU threads", dev, st == CUZK_ERR_NOMEM ? "out of host memory" : "too many values");
        st = CUZK_OK;
    }
    CN(csr_builder_free)(&bld);
    for (int i = 0; i < 3; i++) {
        free(mx[i].row_ptr);
        free(mx[i].col);
        free(mx[i].coef_id);
        free(mx[i].coef);
    }
    free(start);
    free(order);
    return st;
}

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
        /* the memory plan (src/groth16/memplan.h): within the engine's GPU budget and the device's
         * free memory; B_G2 (cuzk_msm_opts.b_g2_on_gpu): 1 on the device, -1 on CPU threads, 0 on
         * the device (its query resident, else streamed) unless no plan with it fits. Measured
         * (bench/RESULTS.md section 25): a 2^27 PoRep partition's B_G2 16 ms on the H200 against
         * 2.7-5.3 s on 16 CPU threads, the full WindowPoSt partition's 2.2 s against 276 s. */
        groth16_gpu_plan_opts po;
        memset(&po, 0, sizeof po);
        po.budget_bytes = cfg->gpu_budget;
        po.msm = cfg->msm;
        st = groth16_gpu_prover_create_planned(&g->gp, cfg->gpu_srs, k->p, k->cs, cfg->device, &po, err);
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
        /* B_G2 (cuzk_msm_opts.b_g2_on_gpu): on the device when its query is resident, as for
         * bellperson keys (at 2^20 the CPU's G2 MSM was the largest part of a hot-key proof) */
        if ((st = zkey_bind_b2(g, z, cfg, err)) != CUZK_OK) goto out;
        if ((st = zkey_bind_rows(g, z, cfg, err)) != CUZK_OK) goto out;
        cuzk_log(CUZK_LOG_INFO, "GPU prover on device %d: zkey G1 queries%s%s resident (%.2f GiB) in %.0f ms; B_G2 MSM %s; "
                 "a/b %s", cfg->device, g->b2 ? ", B_G2 query" : "", g->rows ? ", A and B rows" : "",
                 (double)g->zkey_bytes / (1u << 30), now_ms() - t0, g->b2 ? "on the device" : "on CPU threads",
                 g->rows ? "and H on the device, the witness uploaded once" : "on CPU threads");
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
        gpu_msm_job job = {.bases = g->q[q], .n = n, .d_scalars = d_s, .form = GPU_SCALARS_CANONICAL,
                           .out = out, .tuning = gpu_msm_tuning_of(&g->msm)};
        st = GN(g1_msm_run)(g->ctx, &job, 1, NULL, err);
    }
    gpu_buf_free(g->ctx, d_s);
    return st;
}

/* snarkjs stage: B_G2 = the G2 MSM over the resident B_G2 query (zkey_bind_b2), the witness
 * scalars copied from the host (canonical, n = n_vars: the bases the host passes are the query's
 * host copy, unread here) */
static cuzk_status zkey_gpu_b2(void *ctx, CN(g2_jacobian) *out, const CN(g2_affine) *bases, const scalar256 *scalars,
                               size_t n, int nthreads, cuzk_error *err) {
    (void)bases;
    (void)nthreads;
    gpu_backend_state *g = ctx;
    if (!g->b2 || gpu_g2_bases_count(g->b2) != n)
        return ERR(err, CUZK_ERR_ARG, "gpu stages: a B_G2 MSM of %zu points, the resident query has %zu", n,
                   g->b2 ? gpu_g2_bases_count(g->b2) : (size_t)0);
    void *d_s = NULL;
    cuzk_status st = gpu_buf_alloc(g->ctx, &d_s, (n ? n : 1) * sizeof(scalar256), err);
    if (st != CUZK_OK) return st;
    if ((st = gpu_copy_h2d_async(g->ctx, d_s, scalars, n * sizeof(scalar256), err)) == CUZK_OK) {
        /* out: this curve's g2_jacobian, the point GN(g2_msm_run) writes (src/cuda/gpu.h gpu_g2_msm_job) */
        gpu_g2_msm_job job = {.bases = g->b2, .n = n, .d_scalars = d_s, .form = GPU_SCALARS_CANONICAL,
                              .out = out, .tuning = gpu_msm_tuning_of(&g->msm)};
        st = GN(g2_msm_run)(g->ctx, &job, 1, NULL, err);
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

/* snarkjs stage resident_start (prove_decl.h): the whole start on the device over the zkey's
 * resident rows and queries. The witness (host, Montgomery; page-locked when the engine's buffer
 * is) goes up once; a, b = A w, B w there; the fused H (C = A*B) leaves H's scalars in a; the H
 * MSM runs first so that a goes back to the pool before the witness MSMs (A, B1, L, and B_G2 when
 * b2 is not NULL) read the uploaded witness in Montgomery form. Each step is synced and timed; the
 * sequence's cancellation points sit between them. CUZK_ERR_UNSUPPORTED when the rows are not
 * resident (before any work). */
static cuzk_status zkey_gpu_resident_start(void *ctx, const CN(fr) *w, size_t n_w, CN(g1_jacobian) *const g1[4],
                                           CN(g2_jacobian) *b2, groth16_timings *tm, cuzk_error *err) {
    gpu_backend_state *g = ctx;
    if (!g->rows) return CUZK_ERR_UNSUPPORTED;
    const CN(zkey) *z = g->k->z;
    const size_t m = z->domain_size, n_in = (size_t)z->n_public + 1;
    const size_t wb = n_w * sizeof(CN(fr)), mb = m * sizeof(CN(fr));
    const gpu_msm_tuning tune = gpu_msm_tuning_of(&g->msm);
    void *d_w = NULL, *d_a = NULL, *d_b = NULL, *d_c = NULL;
    double t0 = now_ms(), t1;
    cuzk_status st;
    if (n_w != z->n_vars || n_w < n_in) return ERR(err, CUZK_ERR_MISMATCH, "witness has %zu values but the zkey expects %u",
                                                   n_w, z->n_vars);
    if ((st = groth16_abort_point("the witness upload", err)) != CUZK_OK) goto out;
    if ((st = gpu_buf_alloc(g->ctx, &d_w, wb, err)) != CUZK_OK) goto out;
    if ((st = gpu_copy_h2d_async(g->ctx, d_w, w, wb, err)) != CUZK_OK) goto out;
    if ((st = gpu_sync(g->ctx, err)) != CUZK_OK) goto out;
    t1 = now_ms(); tm->upload_ms = t1 - t0; t0 = t1;

    if ((st = groth16_abort_point("a/b", err)) != CUZK_OK) goto out;
    if ((st = gpu_buf_alloc(g->ctx, &d_a, mb, err)) != CUZK_OK) goto out;
    if ((st = gpu_buf_alloc(g->ctx, &d_b, mb, err)) != CUZK_OK) goto out;
    if ((st = gpu_buf_alloc(g->ctx, &d_c, mb, err)) != CUZK_OK) goto out;
    if ((st = GN(r1cs_abc_async)(g->ctx, d_a, d_b, NULL, m, g->rows, d_w, err)) != CUZK_OK) goto out;
    if ((st = gpu_sync(g->ctx, err)) != CUZK_OK) goto out;
    t1 = now_ms(); tm->abc_ms = t1 - t0; t0 = t1;

    if ((st = groth16_abort_point("H", err)) != CUZK_OK) goto out;
    if ((st = GN(h_snarkjs_async)(gpu_ctx_stream(g->ctx), d_a, d_b, d_c, z->log_domain, err)) != CUZK_OK) goto out;
    gpu_buf_free(g->ctx, d_c);
    gpu_buf_free(g->ctx, d_b);
    d_b = d_c = NULL;
    if ((st = gpu_sync(g->ctx, err)) != CUZK_OK) goto out;
    t1 = now_ms(); tm->h_ms = t1 - t0; t0 = t1;

    if ((st = groth16_abort_point("MSM H", err)) != CUZK_OK) goto out;
    {
        gpu_msm_job job = {.bases = g->q[GROTH16_Q_H], .n = m, .d_scalars = d_a, .form = GPU_SCALARS_MONTGOMERY,
                           .out = g1[GROTH16_Q_H], .tuning = tune};
        if ((st = GN(g1_msm_run)(g->ctx, &job, 1, NULL, err)) != CUZK_OK) goto out;
    }
    gpu_buf_free(g->ctx, d_a);
    d_a = NULL;
    t1 = now_ms(); tm->msm_h_ms = t1 - t0; t0 = t1;

    /* the witness MSMs: A and B1 over every wire, L over the private ones (the zkey's C query) */
    {
        static const char *const stage[3] = {"MSM A", "MSM B1", "MSM L"};
        double *ms[3] = {&tm->msm_a_ms, &tm->msm_b1_ms, &tm->msm_l_ms};
        const groth16_query q[3] = {GROTH16_Q_A, GROTH16_Q_B1, GROTH16_Q_L};
        for (int i = 0; i < 3; i++) {
            if ((st = groth16_abort_point(stage[i], err)) != CUZK_OK) goto out;
            const size_t off = q[i] == GROTH16_Q_L ? n_in : 0;
            gpu_msm_job job = {.bases = g->q[q[i]], .n = n_w - off, .d_scalars = (const CN(fr) *)d_w + off,
                               .form = GPU_SCALARS_MONTGOMERY, .out = g1[q[i]], .tuning = tune};
            if ((st = GN(g1_msm_run)(g->ctx, &job, 1, NULL, err)) != CUZK_OK) goto out;
            t1 = now_ms(); *ms[i] = t1 - t0; t0 = t1;
        }
    }
    if (b2) {
        if ((st = groth16_abort_point("MSM B2 (G2, on the device)", err)) != CUZK_OK) goto out;
        if (!g->b2 || gpu_g2_bases_count(g->b2) != n_w) {
            st = ERR(err, CUZK_ERR_ARG, "gpu stages: a B_G2 MSM of %zu points, the resident query has %zu", n_w,
                     g->b2 ? gpu_g2_bases_count(g->b2) : (size_t)0);
            goto out;
        }
        gpu_g2_msm_job j2 = {.bases = g->b2, .n = n_w, .d_scalars = d_w, .form = GPU_SCALARS_MONTGOMERY,
                             .out = b2, .tuning = tune};
        if ((st = GN(g2_msm_run)(g->ctx, &j2, 1, NULL, err)) != CUZK_OK) goto out;
        t1 = now_ms(); tm->msm_b2_ms = t1 - t0; t0 = t1;
    }
out:
    gpu_buf_free(g->ctx, d_c);
    gpu_buf_free(g->ctx, d_b);
    gpu_buf_free(g->ctx, d_a);
    gpu_buf_free(g->ctx, d_w);
    return st;
}

static size_t gpu_start_bytes_ops(const CN(groth16_key) *k, int nthreads) {
    (void)nthreads;
    /* bellperson: the pending and its B scalars (a/b/c, H and the MSM scratch live on the device);
     * snarkjs: the host stages of groth16_zkey_start, the CPU's bound whether B_G2 runs on the
     * device or not (no state here): the witness scalars are allocated by every start (the pending
     * keeps them for finish's B_G2 on CPU threads; with the device B_G2 they go back at the end of
     * start, and groth16_pending_bytes drops them), the MSM buckets are finish's CPU B_G2's */
#if CURVE_BELLPERSON
    if (k->convention == CUZK_CONVENTION_BELLPERSON)
        return sizeof(CN(groth16_pending)) + (size_t)k->p->n_b_g2 * sizeof(scalar256) + 4096; /* CPU B_G2 (the larger) */
#endif
    return CN(groth16_zkey_start_bytes)(k->z);
}

/* The stages prove_start runs on this backend's state (ctx: the gpu_backend_state).
 * snarkjs: one start on the device at a time (the state's lock); B_G2 on the device when the
 * state holds its query */
static cuzk_status zkey_gpu_begin(void *ctx, groth16_b2_place *b2, cuzk_error *err) {
    (void)err;
    gpu_backend_state *g = ctx;
    pthread_mutex_lock(&g->mu);
    if (g->b2) *b2 = GROTH16_B2_ON_DEVICE;
    return CUZK_OK;
}
static void zkey_gpu_end(void *ctx) { pthread_mutex_unlock(&((gpu_backend_state *)ctx)->mu); }
static const CN(groth16_stages) gpu_snarkjs_stages = {.begin = zkey_gpu_begin,
                                                      .end = zkey_gpu_end,
                                                      .g1_msm = zkey_gpu_msm,
                                                      .h_snarkjs = zkey_gpu_h,
                                                      .b2_msm = zkey_gpu_b2,
                                                      .resident_start = zkey_gpu_resident_start};
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
    return zkey_proof_device_bytes(g, g->b2 != NULL, g->rows != NULL);
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
static void gpu_memory_plan_ops(void *vs, char *buf, size_t cap, size_t *streamed_bytes) {
    gpu_backend_state *g = vs;
    if (cap) buf[0] = 0;
    *streamed_bytes = 0;
#if CURVE_BELLPERSON
    const memplan *p = groth16_gpu_prover_plan(g->gp);
    if (p) {
        memplan_describe(p, buf, cap);
        *streamed_bytes = p->streamed_bytes;
    }
#else
    (void)g;
#endif
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
             .memory_plan = gpu_memory_plan_ops,
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
