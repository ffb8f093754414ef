/* The Groth16 CPU backend of one curve (src/groth16/groth16.h): its stages of both conventions
 * (the sequences that run them are prove_impl.h's), r and s, the proof's assembly, pendings and
 * finish, and the CPU reference calls. A template, instantiated per curve
 * (src/groth16/groth16_<curve>.c); every curve-dependent name is CN(name). The bellperson
 * convention is BLS12-381's only (CURVE_BELLPERSON). */
#include "groth16/groth16.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "groth16/prove.h"
#include "groth16/prover_internal.h"
#include "curves/curve.h"
#include "util/log.h"
#include "util/parallel.h"
#include "util/timer.h"

cuzk_status CN(groth16_random_fr)(CN(fr) *out, cuzk_error *err) {
    /* 255-bit candidates, rejected when >= r: uniform in [0, r). About 2.3 tries on average. */
    for (int tries = 0; tries < 1000; tries++) {
        uint64_t l[4];
        size_t got = 0;
        while (got < sizeof l) {
            ssize_t k = getrandom((uint8_t *)l + got, sizeof l - got, 0);
            if (k < 0) {
                if (errno == EINTR) continue;
                return ERR(err, CUZK_ERR_RANDOM, "getrandom failed: %s", strerror(errno));
            }
            got += (size_t)k;
        }
        l[3] &= 0x7fffffffffffffffull;
        if (CN(fr_is_canon)(l)) {
            CN(fr_from_canon)(out, l);
            explicit_bzero(l, sizeof l);
            return CUZK_OK;
        }
    }
    return ERR(err, CUZK_ERR_RANDOM, "OS RNG produced 1000 out-of-range candidates");
}

/* ---- Montgomery -> canonical scalars, in parallel ---------------------------------------- */
typedef struct { scalar256 *out; const CN(fr) *in; } to_canon_ctx;
static void to_canon_range(void *vctx, size_t b, size_t e, int tid) {
    (void)tid;
    to_canon_ctx *c = vctx;
    for (size_t i = b; i < e; i++) CN(fr_to_canon)(c->out[i].l, &c->in[i]);
}
void CN(groth16_frs_to_scalars)(scalar256 *out, const CN(fr) *in, size_t n, int nthreads) {
    to_canon_ctx c = {out, in};
    parallel_for(n, nthreads, to_canon_range, &c);
}

/* ---- proof assembly (shared by both conventions) ----------------------------------------
 *   A = alpha1 + sA + r delta1
 *   B = beta2 + sB2 + s delta2
 *   C = sC + sH + s A + r (beta1 + sB1 + s delta1) - r s delta1
 * which expands to DESIGN.md section 4 item 8. r and s hide the witness: every product with
 * them (r delta1, s delta2, s delta1, s A, r B1, rs delta1) is a constant-time fixed-window
 * multiplication (src/ec/ec_ct.h), so a service proving for several clients does not leak them
 * through timing. */

static void g1_add_affine_to(CN(g1_jacobian) *acc, const CN(g1_affine) *p) { CN(g1_jacobian_add_mixed)(acc, acc, p); }

void CN(groth16_assemble)(CN(groth16_proof) *out, const CN(groth16_msm_results) *m, const CN(g1_affine) *alpha1,
                     const CN(g1_affine) *beta1, const CN(g2_affine) *beta2, const CN(g1_affine) *delta1,
                     const CN(g2_affine) *delta2, const CN(fr) *r, const CN(fr) *s) {
    CN(g1_jacobian) a, b1, c, t, d1;
    CN(g2_jacobian) b, d2;
    /* A */
    CN(g1_jacobian_from_affine)(&d1, delta1);
    CN(g1_mul_fr_consttime)(&a, &d1, r);
    CN(g1_jacobian_add)(&a, &a, &m->a);
    g1_add_affine_to(&a, alpha1);
    /* B (G2) */
    CN(g2_jacobian_from_affine)(&d2, delta2);
    CN(g2_mul_fr_consttime)(&b, &d2, s);
    CN(g2_jacobian_add)(&b, &b, &m->b2);
    CN(g2_jacobian_add_mixed)(&b, &b, beta2);
    /* B1 (G1 copy of B) */
    CN(g1_mul_fr_consttime)(&b1, &d1, s);
    CN(g1_jacobian_add)(&b1, &b1, &m->b1);
    g1_add_affine_to(&b1, beta1);
    /* C */
    CN(g1_mul_fr_consttime)(&c, &a, s);
    CN(g1_mul_fr_consttime)(&t, &b1, r);
    CN(g1_jacobian_add)(&c, &c, &t);
    CN(fr) rs;
    CN(fr_mul)(&rs, r, s);
    CN(g1_mul_fr_consttime)(&t, &d1, &rs);
    CN(g1_jacobian_neg)(&t, &t);
    CN(g1_jacobian_add)(&c, &c, &t);
    CN(g1_jacobian_add)(&c, &c, &m->c);
    CN(g1_jacobian_add)(&c, &c, &m->h);
    explicit_bzero(&rs, sizeof rs);

    CN(g1_jacobian_to_affine)(&out->a, &a);
    CN(g2_jacobian_to_affine)(&out->b, &b);
    CN(g1_jacobian_to_affine)(&out->c, &c);
}

/* ---- the CPU's snarkjs stages (groth16_zkey_start runs them) ------------------------------ */
static cuzk_status cpu_g1_msm(void *ctx, CN(g1_jacobian) *out, groth16_query q, const CN(g1_affine) *bases,
                              const scalar256 *scalars, size_t n, int nthreads, cuzk_error *err) {
    (void)ctx;
    (void)q;
    (void)err;
    CN(g1_msm)(out, bases, scalars, n, nthreads);
    return CUZK_OK;
}
static cuzk_status cpu_h_snarkjs(void *ctx, const CN(ntt_domain) *d, CN(fr) *a, CN(fr) *b, CN(fr) *c, int nthreads, cuzk_error *err) {
    (void)ctx;
    (void)err;
    CN(h_snarkjs)(d, a, b, c, nthreads);
    return CUZK_OK;
}
const CN(groth16_stages) CN(groth16_stages_cpu) = {.g1_msm = cpu_g1_msm, .h_snarkjs = cpu_h_snarkjs};

size_t CN(groth16_zkey_start_bytes)(const CN(zkey) *z) {
    if (!z) return 0;
    size_t m = z->domain_size, n_w = z->n_vars;
    /* a, b, c, twiddles, h scalars, witness scalars (kept by the pending), the pending; the MSM
     * buckets are transient (g1_msm) and bounded as in groth16_bellperson_start_bytes */
    size_t bytes = 4 * m * sizeof(CN(fr)) + m * sizeof(scalar256) + n_w * sizeof(scalar256) + sizeof(CN(groth16_pending));
    size_t big = m > n_w ? m : n_w;
    int c = msm_window_bits(big);
    bytes += (size_t)cuzk_num_threads() * ((size_t)1 << (c - 1)) * sizeof(CN(g2_xyzz)) + 4096 * sizeof(CN(g2_xyzz));
    return bytes;
}

cuzk_status CN(groth16_prove_zkey)(CN(groth16_proof) *out, const CN(zkey) *z, const CN(fr) *w, size_t n_w,
                                   const CN(fr) *r, const CN(fr) *s, int nthreads, groth16_timings *t,
                                   cuzk_error *err) {
    groth16_timings ts = {0}, tf = {0};
    CN(groth16_pending) *pend = NULL;
    if (!out) return ERR(err, CUZK_ERR_ARG, "groth16_prove_zkey: NULL argument");
    cuzk_status st = CN(groth16_zkey_start)(&pend, z, &CN(groth16_stages_cpu), w, n_w, r, s, nthreads, NULL, NULL, &ts, err);
    if (st == CUZK_OK) st = CN(groth16_prove_bellperson_finish)(out, pend, nthreads, &tf, err);
    CN(groth16_pending_free)(pend);
    if (t) {
        *t = ts;
        t->msm_b2_ms = tf.msm_b2_ms;
        t->assemble_ms = tf.assemble_ms;
        t->total_ms = ts.total_ms + tf.total_ms;
    }
    return st;
}

/* ---- pendings, and B_G2 on CPU threads ------------------------------------------------------ */

static void *b2_thread_main(void *arg) {
    CN(groth16_pending) *pend = arg;
    double t0 = now_ms();
    CN(g2_msm)(&pend->mr.b2, pend->b_g2, pend->b_scalars, pend->n_b, pend->b2_nthreads);
    pend->b2_ms = now_ms() - t0;
    return NULL;
}

cuzk_status CN(groth16_pending_start_b2)(CN(groth16_pending) *pend, int nthreads, cuzk_error *err) {
    if (!pend || pend->b2_started) return ERR(err, CUZK_ERR_ARG, "groth16_pending_start_b2: NULL or already started");
    pend->b2_nthreads = nthreads;
    int rc = pthread_create(&pend->b2_thread, NULL, b2_thread_main, pend);
    if (rc != 0) return ERR(err, CUZK_ERR_NOMEM, "B_G2 thread: %s", strerror(rc));
    pend->b2_started = 1;
    return CUZK_OK;
}

/* Joins the B_G2 thread if one runs. */
static void pending_join_b2(CN(groth16_pending) *pend) {
    if (pend->b2_started && !pend->b2_joined) {
        pthread_join(pend->b2_thread, NULL);
        pend->b2_joined = 1;
    }
}

int CN(groth16_bellperson_log_m)(const CN(r1cs) *cs) {
    size_t n = (size_t)cs->n_constraints + (size_t)cs->n_public + 1;
    int log_m = 1;
    while (((size_t)1 << log_m) < n) log_m++;
    return log_m;
}

#if CURVE_BELLPERSON /* the bellperson convention is BLS12-381 only */
size_t groth16_bellperson_start_bytes(const bellperson_params *p, const CN(r1cs) *cs, int nthreads) {
    if (!p || !cs) return 0;
    if (nthreads <= 0) nthreads = cuzk_num_threads();
    size_t m = (size_t)1 << CN(groth16_bellperson_log_m)(cs), n_w = cs->n_vars, n_b = p->n_b_g2;
    size_t big = m > n_w ? m : n_w;
    size_t bytes = 3 * m * sizeof(CN(fr))          /* a, b, c */
                   + m * sizeof(CN(fr))            /* NTT twiddles (two tables of m/2) */
                   + m * sizeof(scalar256)     /* h scalars */
                   + 2 * n_w * sizeof(scalar256) /* witness scalars, A selection */
                   + n_b * sizeof(scalar256)   /* B selection, kept by the pending */
                   + 2 * ((n_w + 63) / 64 * 8) /* density bitmaps of A and B */
                   + sizeof(CN(groth16_pending));
    /* transient MSM buckets and partial sums (freed inside g1_msm / g2_msm) */
    int c = msm_window_bits(big);
    bytes += (size_t)nthreads * ((size_t)1 << (c - 1)) * sizeof(CN(g2_xyzz)) + 4096 * sizeof(CN(g2_xyzz));
    return bytes;
}
#endif

size_t CN(groth16_pending_bytes)(const CN(groth16_pending) *pend) {
    return pend ? sizeof *pend + pend->n_b * sizeof(scalar256) : 0;
}

void CN(groth16_pending_free)(CN(groth16_pending) *pend) {
    if (!pend) return;
    pending_join_b2(pend);
    groth16_release_buf(pend->release, pend->release_ctx, pend->b_scalars, pend->n_b * sizeof(scalar256));
    explicit_bzero(&pend->r, sizeof pend->r);
    explicit_bzero(&pend->s, sizeof pend->s);
    free(pend);
}

#if CURVE_BELLPERSON
/* ---- the CPU's bellperson stages (groth16_bellperson_start runs them) ------------------------
 * One proof's host scratch: a, b, c (m Fr each; H leaves the h coefficients in a), the witness
 * and h as canonical scalars, the A selection, the densities of A and B. Each buffer goes back
 * through the release hook as soon as the sequence is past it, and cpu_bp_end gives back the
 * rest on every path. */
typedef struct cpu_bp_run {
    const bellperson_params *p;
    const CN(r1cs) *cs;
    const CN(fr) *w;
    size_t n_w, m, n_inputs, n_aux;
    int log_m;
    groth16_release_fn release;
    void *release_ctx;
    CN(fr) *a, *b, *c;
    scalar256 *ws, *sel, *hs;
    r1cs_density dens_a, dens_b;
    CN(ntt_domain) d;
} cpu_bp_run;

static void cpu_bp_end(void *vr) {
    cpu_bp_run *u = vr;
    if (!u) return;
    groth16_release_fn rel = u->release;
    void *rc = u->release_ctx;
    groth16_release_buf(rel, rc, u->a, u->m * sizeof *u->a);
    groth16_release_buf(rel, rc, u->b, u->m * sizeof *u->b);
    groth16_release_buf(rel, rc, u->c, u->m * sizeof *u->c);
    groth16_release_buf(rel, rc, u->d.twiddles, u->m / 2 * sizeof(CN(fr)));
    groth16_release_buf(rel, rc, u->d.twiddles_inv, u->m / 2 * sizeof(CN(fr)));
    groth16_release_buf(rel, rc, u->ws, u->n_w * sizeof *u->ws);
    groth16_release_buf(rel, rc, u->sel, u->n_w * sizeof *u->sel);
    groth16_release_buf(rel, rc, u->hs, u->m * sizeof *u->hs);
    groth16_release_buf(rel, rc, u->dens_a.words, (u->n_w + 63) / 64 * 8);
    groth16_release_buf(rel, rc, u->dens_b.words, (u->n_w + 63) / 64 * 8);
    free(u);
}

static cuzk_status cpu_bp_begin(void *ctx, void **run, const bellperson_params *p, const CN(r1cs) *cs, const CN(fr) *w,
                                size_t n_w, groth16_release_fn release, void *release_ctx, groth16_b2_place *b2,
                                cuzk_error *err) {
    (void)ctx;
    *b2 = GROTH16_B2_IN_FINISH;
    cpu_bp_run *u = calloc(1, sizeof *u);
    if (!u) return ERR(err, CUZK_ERR_NOMEM, "prover scratch");
    u->p = p;
    u->cs = cs;
    u->w = w;
    u->n_w = n_w;
    u->n_inputs = (size_t)cs->n_public + 1;
    u->n_aux = cs->n_vars - u->n_inputs;
    u->log_m = CN(groth16_bellperson_log_m)(cs);
    u->m = (size_t)1 << u->log_m;
    u->release = release;
    u->release_ctx = release_ctx;
    *run = u;
    u->a = calloc(u->m, sizeof *u->a);
    u->b = calloc(u->m, sizeof *u->b);
    u->c = calloc(u->m, sizeof *u->c);
    u->ws = malloc(n_w * sizeof *u->ws);
    u->sel = malloc(n_w * sizeof *u->sel);
    u->hs = malloc(u->m * sizeof *u->hs);
    if (!u->a || !u->b || !u->c || !u->ws || !u->sel || !u->hs)
        return ERR(err, CUZK_ERR_NOMEM, "prover scratch (%zu rows)", u->m);
    return CUZK_OK;
}

/* a/b/c: rows of the circuit, then one A row per input (A = input_i, B = C = 0); the densities */
static cuzk_status cpu_bp_abc(void *vr, int nthreads, cuzk_error *err) {
    cpu_bp_run *u = vr;
    const CN(r1cs) *cs = u->cs;
    cuzk_status st;
    CN(csr_spmv)(u->a, &cs->a, u->w, nthreads);
    CN(csr_spmv)(u->b, &cs->b, u->w, nthreads);
    CN(csr_spmv)(u->c, &cs->c, u->w, nthreads);
    for (size_t i = 0; i < u->n_inputs; i++) u->a[cs->n_constraints + i] = u->w[i];
    if ((st = CN(r1cs_density_of)(&u->dens_a, &cs->a, u->n_w, nthreads, err)) != CUZK_OK) return st;
    return CN(r1cs_density_of)(&u->dens_b, &cs->b, u->n_w, nthreads, err);
}

/* h coefficients; a, b, c and the twiddles are done after this. The rows are interpolated on the
 * roots the parameters' QAP was built on (7^t; 5^t for snarkjs's MPC export, whose A/B/L points
 * are Lagrange evaluations on those roots): h's coefficients, and so the H MSM over the monomial
 * points [tau^i Z(tau)/delta], depend on that choice; the coset shift does not. */
static cuzk_status cpu_bp_h(void *vr, int nthreads, cuzk_error *err) {
    cpu_bp_run *u = vr;
    cuzk_status st;
    _Static_assert((int)BELLPERSON_DOMAIN_BELLMAN == (int)NTT_ROOTS_BELLPERSON &&
                   (int)BELLPERSON_DOMAIN_SNARKJS == (int)NTT_ROOTS_SNARKJS, "bellperson_domain = ntt_roots");
    if ((st = CN(ntt_domain_init)(&u->d, u->log_m, (ntt_roots)u->p->domain)) != CUZK_OK)
        return ERR(err, st, "NTT domain 2^%d", u->log_m);
    h_bellperson(&u->d, u->a, u->b, u->c, nthreads);
    CN(groth16_frs_to_scalars)(u->hs, u->a, u->m - 1, nthreads);
    CN(groth16_frs_to_scalars)(u->ws, u->w, u->n_w, nthreads);
    groth16_release_buf(u->release, u->release_ctx, u->a, u->m * sizeof *u->a); u->a = NULL;
    groth16_release_buf(u->release, u->release_ctx, u->b, u->m * sizeof *u->b); u->b = NULL;
    groth16_release_buf(u->release, u->release_ctx, u->c, u->m * sizeof *u->c); u->c = NULL;
    groth16_release_buf(u->release, u->release_ctx, u->d.twiddles, u->m / 2 * sizeof(CN(fr))); u->d.twiddles = NULL;
    groth16_release_buf(u->release, u->release_ctx, u->d.twiddles_inv, u->m / 2 * sizeof(CN(fr))); u->d.twiddles_inv = NULL;
    return CUZK_OK;
}

/* the B selection: inputs and aux with B-density (the densities go back after it) */
static cuzk_status cpu_bp_b_scalars(void *vr, scalar256 *out, int nthreads, cuzk_error *err) {
    (void)nthreads;
    cpu_bp_run *u = vr;
    const bellperson_params *p = u->p;
    size_t k = 0;
    for (size_t i = 0; i < u->n_w; i++)
        if (r1cs_density_test(&u->dens_b, i)) {
            if (k < p->n_b_g2) out[k] = u->ws[i];
            k++;
        }
    if (k != p->n_b_g1 || k != p->n_b_g2)
        return ERR(err, CUZK_ERR_MISMATCH, "B queries have %u/%u points but the witness selects %zu", p->n_b_g1,
                   p->n_b_g2, k);
    groth16_release_buf(u->release, u->release_ctx, u->dens_a.words, (u->n_w + 63) / 64 * 8); u->dens_a.words = NULL;
    groth16_release_buf(u->release, u->release_ctx, u->dens_b.words, (u->n_w + 63) / 64 * 8); u->dens_b.words = NULL;
    return CUZK_OK;
}

static cuzk_status cpu_bp_g1_msm(void *vr, CN(g1_jacobian) *out, groth16_query q, const scalar256 *b_scalars,
                                 int nthreads, cuzk_error *err) {
    cpu_bp_run *u = vr;
    const bellperson_params *p = u->p;
    switch (q) {
    case GROTH16_Q_A: { /* all inputs (dense by the extra rows), then aux with A-density */
        size_t k = 0;
        for (size_t i = 0; i < u->n_w; i++)
            if (i < u->n_inputs || r1cs_density_test(&u->dens_a, i)) u->sel[k++] = u->ws[i];
        if (k != p->n_a) return ERR(err, CUZK_ERR_MISMATCH, "A query has %u points but the witness selects %zu", p->n_a, k);
        CN(g1_msm)(out, p->a, u->sel, k, nthreads);
        return CUZK_OK;
    }
    case GROTH16_Q_B1:
        CN(g1_msm)(out, p->b_g1, b_scalars, p->n_b_g1, nthreads);
        groth16_release_buf(u->release, u->release_ctx, u->sel, u->n_w * sizeof *u->sel); u->sel = NULL;
        return CUZK_OK;
    case GROTH16_Q_L:
        CN(g1_msm)(out, p->l, u->ws + u->n_inputs, u->n_aux, nthreads);
        groth16_release_buf(u->release, u->release_ctx, u->ws, u->n_w * sizeof *u->ws); u->ws = NULL;
        return CUZK_OK;
    case GROTH16_Q_H:
        CN(g1_msm)(out, p->h, u->hs, u->m - 1, nthreads);
        groth16_release_buf(u->release, u->release_ctx, u->hs, u->m * sizeof *u->hs); u->hs = NULL;
        return CUZK_OK;
    }
    return ERR(err, CUZK_ERR_ARG, "cpu stages: query %d", (int)q);
}

const groth16_bp_stages groth16_bp_stages_cpu = {
    .begin = cpu_bp_begin,
    .abc = cpu_bp_abc,
    .h = cpu_bp_h,
    .b_scalars = cpu_bp_b_scalars,
    .g1_msm = cpu_bp_g1_msm,
    .end = cpu_bp_end,
};

cuzk_status groth16_prove_bellperson_start(CN(groth16_pending) **out, const bellperson_params *p, const CN(r1cs) *cs,
                                           const CN(fr) *w, size_t n_w, const CN(fr) *r, const CN(fr) *s, int nthreads,
                                           groth16_release_fn release, void *release_ctx, groth16_timings *t,
                                           cuzk_error *err) {
    return groth16_bellperson_start(out, p, cs, &groth16_bp_stages_cpu, NULL, w, n_w, r, s, nthreads, release,
                                    release_ctx, t, err);
}
#endif

cuzk_status CN(groth16_prove_bellperson_finish)(CN(groth16_proof) *out, CN(groth16_pending) *pend, int nthreads,
                                                groth16_timings *t, cuzk_error *err) {
    groth16_timings tm = {0};
    if (t) *t = tm;
    if (!out || !pend) return ERR(err, CUZK_ERR_ARG, "groth16_prove_bellperson_finish: NULL argument");
    if (pend->finished) return ERR(err, CUZK_ERR_ARG, "groth16_prove_bellperson_finish: called twice");
    double t0 = now_ms(), t1;
    if (pend->b2_done) {
        /* computed on the device by the GPU prover's start (its time is part of start's) */
        tm.msm_b2_ms = pend->b2_ms;
        tm.b2_device = 1;
    } else if (pend->b2_started) {
        /* started by the GPU prover's start: its own time is the MSM's; the wait is what finish paid */
        pending_join_b2(pend);
        tm.msm_b2_ms = pend->b2_ms;
    } else {
        cuzk_status st = groth16_abort_point("MSM B (G2)", err);
        if (st != CUZK_OK) return st; /* the pending stays unfinished: the caller frees it */
        CN(g2_msm)(&pend->mr.b2, pend->b_g2, pend->b_scalars, pend->n_b, nthreads);
        tm.msm_b2_ms = now_ms() - t0;
    }
    t1 = now_ms(); tm.b2_wait_ms = t1 - t0; t0 = t1;
    CN(groth16_assemble)(out, &pend->mr, &pend->alpha1, &pend->beta1, &pend->beta2, &pend->delta1, &pend->delta2, &pend->r,
             &pend->s);
    t1 = now_ms(); tm.assemble_ms = t1 - t0;
    pend->finished = 1;
    tm.total_ms = tm.b2_wait_ms + tm.assemble_ms;
    if (t) *t = tm;
    return CUZK_OK;
}

#if CURVE_BELLPERSON
cuzk_status groth16_prove_bellperson(CN(groth16_proof) *out, const bellperson_params *p, const CN(r1cs) *cs,
                                     const CN(fr) *w, size_t n_w, const CN(fr) *r, const CN(fr) *s, int nthreads,
                                     groth16_timings *t, cuzk_error *err) {
    groth16_timings ts = {0}, tf = {0};
    CN(groth16_pending) *pend = NULL;
    if (!out) return ERR(err, CUZK_ERR_ARG, "groth16_prove_bellperson: NULL argument");
    cuzk_status st = groth16_prove_bellperson_start(&pend, p, cs, w, n_w, r, s, nthreads, NULL, NULL, &ts, err);
    if (st == CUZK_OK) st = CN(groth16_prove_bellperson_finish)(out, pend, nthreads, &tf, err);
    CN(groth16_pending_free)(pend);
    if (t) {
        *t = ts;
        t->msm_b2_ms = tf.msm_b2_ms;
        t->assemble_ms = tf.assemble_ms;
        t->total_ms = ts.total_ms + tf.total_ms;
    }
    return st;
}
#endif
