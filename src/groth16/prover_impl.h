/* Groth16 CPU prover, both conventions (src/groth16/groth16.h), of one curve: a template,
 * instantiated per curve (src/groth16/groth16_<curve>.c); every curve-dependent name is CN(name).
 * The bellperson convention is BLS12-381's only (CURVE_BELLPERSON). */
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

/* ---- snarkjs convention ------------------------------------------------------------------ */
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
const CN(groth16_stages) CN(groth16_stages_cpu) = {NULL, cpu_g1_msm, cpu_h_snarkjs};

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
    if (t) *t = tm;
    if (!out || !z || !stg || !w || !r || !s) return ERR(err, CUZK_ERR_ARG, "groth16_zkey_start: NULL argument");
    *out = NULL;
    if (n_w != z->n_vars)
        return ERR(err, CUZK_ERR_MISMATCH, "witness has %zu values but the zkey expects %u", n_w, z->n_vars);
    if (!CN(fr_is_one)(&w[0]))
        return ERR(err, CUZK_ERR_MISMATCH, "witness value 0 must be 1 (the constant wire)");
    size_t m = z->domain_size;
    pend = calloc(1, sizeof *pend);
    a = calloc(m, sizeof *a);
    b = calloc(m, sizeof *b);
    c = calloc(m, sizeof *c);
    ws = malloc(n_w * sizeof *ws);
    hs = malloc(m * sizeof *hs);
    if (!pend || !a || !b || !c || !ws || !hs) { st = ERR(err, CUZK_ERR_NOMEM, "prover scratch (%zu rows)", m); goto out; }
    pend->release = release;
    pend->release_ctx = release_ctx;
    if ((st = groth16_abort_point("a/b", err)) != CUZK_OK) goto out;

    /* 1. rows: A_T[row] += v * w[wire] (and B) */
    for (uint32_t i = 0; i < z->n_coefs; i++) {
        const CN(zkey_coef) *k = &z->coefs[i];
        CN(fr) prod;
        CN(fr_mul)(&prod, &k->value, &w[k->wire]);
        CN(fr) *dst = k->matrix == 0 ? &a[k->row] : &b[k->row];
        CN(fr_add)(dst, dst, &prod);
    }
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

    /* 3. G1 MSMs; B_G2 runs in finish over the same witness scalars (kept by the pending) */
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

    pend->alpha1 = z->alpha1;
    pend->beta1 = z->beta1;
    pend->beta2 = z->beta2;
    pend->delta1 = z->delta1;
    pend->delta2 = z->delta2;
    pend->r = *r;
    pend->s = *s;
    pend->b_g2 = z->b2;
    pend->b_scalars = ws;
    pend->n_b = n_w;
    ws = NULL;
    *out = pend;
    pend = NULL;
out:
    groth16_release_buf(release, release_ctx, a, m * sizeof *a);
    groth16_release_buf(release, release_ctx, b, m * sizeof *b);
    groth16_release_buf(release, release_ctx, c, m * sizeof *c);
    groth16_release_buf(release, release_ctx, ws, n_w * sizeof *ws);
    groth16_release_buf(release, release_ctx, hs, m * sizeof *hs);
    CN(ntt_domain_free)(&d);
    CN(groth16_pending_free)(pend);
    tm.total_ms = tm.abc_ms + tm.h_ms + tm.msm_a_ms + tm.msm_b1_ms + tm.msm_l_ms + tm.msm_h_ms;
    if (t) *t = tm;
    return st;
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

/* ---- bellperson convention ---------------------------------------------------------------- */

static void *b2_thread_main(void *arg) {
    CN(groth16_pending) *pend = arg;
    double t0 = now_ms();
    CN(g2_msm)(&pend->mr.b2, pend->b_g2, pend->b_scalars, pend->n_b, pend->b2_nthreads);
    pend->b2_ms = now_ms() - t0;
    return NULL;
}

cuzk_status CN(groth16_pending_start_b2)(CN(groth16_pending) *pend, int nthreads, cuzk_error *err) {
    if (!pend || pend->b2_started) return ERR(err, CUZK_ERR_ARG, "CN(groth16_pending_start_b2): NULL or already started");
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
cuzk_status groth16_prove_bellperson_start(CN(groth16_pending) **out, const bellperson_params *p, const CN(r1cs) *cs,
                                           const CN(fr) *w, size_t n_w, const CN(fr) *r, const CN(fr) *s, int nthreads,
                                           groth16_release_fn release, void *release_ctx, groth16_timings *t,
                                           cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    groth16_timings tm = {0};
    double t0 = now_ms(), t1;
    CN(fr) *a = NULL, *b = NULL, *c = NULL;
    scalar256 *ws = NULL, *sel = NULL, *hs = NULL;
    r1cs_density dens_a = {0}, dens_b = {0};
    CN(ntt_domain) d = {0};
    CN(groth16_pending) *pend = NULL;
    if (t) *t = tm;
    if (!out || !p || !cs || !w || !r || !s) return ERR(err, CUZK_ERR_ARG, "groth16_prove_bellperson_start: NULL argument");
    *out = NULL;
    if (n_w != cs->n_vars)
        return ERR(err, CUZK_ERR_MISMATCH, "witness has %zu values but the circuit has %u variables", n_w, cs->n_vars);
    if (!CN(fr_is_one)(&w[0])) return ERR(err, CUZK_ERR_MISMATCH, "witness value 0 must be 1 (the constant wire)");
    size_t n_inputs = (size_t)cs->n_public + 1, n_aux = cs->n_vars - n_inputs;
    int log_m = CN(groth16_bellperson_log_m)(cs);
    size_t m = (size_t)1 << log_m;
    if (p->vk.n_public + 1 != n_inputs || p->n_l != n_aux || p->n_h != m - 1)
        return ERR(err, CUZK_ERR_MISMATCH,
                   "parameters do not fit the circuit: ic %u/l %u/h %u vs inputs %zu/aux %zu/h %zu",
                   p->vk.n_public + 1, p->n_l, p->n_h, n_inputs, n_aux, m - 1);

    pend = calloc(1, sizeof *pend);
    a = calloc(m, sizeof *a);
    b = calloc(m, sizeof *b);
    c = calloc(m, sizeof *c);
    ws = malloc(n_w * sizeof *ws);
    sel = malloc(n_w * sizeof *sel);
    hs = malloc(m * sizeof *hs);
    if (!pend || !a || !b || !c || !ws || !sel || !hs) {
        st = ERR(err, CUZK_ERR_NOMEM, "prover scratch (%zu rows)", m);
        goto out;
    }
    pend->release = release;
    pend->release_ctx = release_ctx;
    if ((st = groth16_abort_point("a/b/c", err)) != CUZK_OK) goto out;
    /* 1. a/b/c: rows of the circuit, then one A row per input (A = input_i, B = C = 0) */
    CN(csr_spmv)(a, &cs->a, w, nthreads);
    CN(csr_spmv)(b, &cs->b, w, nthreads);
    CN(csr_spmv)(c, &cs->c, w, nthreads);
    for (size_t i = 0; i < n_inputs; i++) a[cs->n_constraints + i] = w[i];
    if ((st = CN(r1cs_density_of)(&dens_a, &cs->a, n_w, nthreads, err)) != CUZK_OK) goto out;
    if ((st = CN(r1cs_density_of)(&dens_b, &cs->b, n_w, nthreads, err)) != CUZK_OK) goto out;
    t1 = now_ms(); tm.abc_ms = t1 - t0; t0 = t1;
    if ((st = groth16_abort_point("H", err)) != CUZK_OK) goto out;

    /* 2. h coefficients; a, b, c and the twiddles are done after this. The rows are interpolated
     * on the roots the parameters' QAP was built on (7^t; 5^t for snarkjs's MPC export, whose A/B/L
     * points are Lagrange evaluations on those roots): h's coefficients, and so the H MSM over the
     * monomial points [tau^i Z(tau)/delta], depend on that choice; the coset shift does not. */
    _Static_assert((int)BELLPERSON_DOMAIN_BELLMAN == (int)NTT_ROOTS_BELLPERSON &&
                   (int)BELLPERSON_DOMAIN_SNARKJS == (int)NTT_ROOTS_SNARKJS, "bellperson_domain = ntt_roots");
    if ((st = CN(ntt_domain_init)(&d, log_m, (ntt_roots)p->domain)) != CUZK_OK) {
        ERR(err, st, "NTT domain 2^%d", log_m);
        goto out;
    }
    h_bellperson(&d, a, b, c, nthreads);
    CN(groth16_frs_to_scalars)(hs, a, m - 1, nthreads);
    CN(groth16_frs_to_scalars)(ws, w, n_w, nthreads);
    groth16_release_buf(release, release_ctx, a, m * sizeof *a); a = NULL;
    groth16_release_buf(release, release_ctx, b, m * sizeof *b); b = NULL;
    groth16_release_buf(release, release_ctx, c, m * sizeof *c); c = NULL;
    groth16_release_buf(release, release_ctx, d.twiddles, m / 2 * sizeof(CN(fr))); d.twiddles = NULL;
    groth16_release_buf(release, release_ctx, d.twiddles_inv, m / 2 * sizeof(CN(fr))); d.twiddles_inv = NULL;
    t1 = now_ms(); tm.h_ms = t1 - t0; t0 = t1;

    /* 3. G1 MSMs. A: all inputs (dense by the extra rows), then aux with A-density. */
    if ((st = groth16_abort_point("MSM A", err)) != CUZK_OK) goto out;
    size_t k = 0;
    for (size_t i = 0; i < n_w; i++)
        if (i < n_inputs || r1cs_density_test(&dens_a, i)) sel[k++] = ws[i];
    if (k != p->n_a) {
        st = ERR(err, CUZK_ERR_MISMATCH, "A query has %u points but the witness selects %zu", p->n_a, k);
        goto out;
    }
    CN(g1_msm)(&pend->mr.a, p->a, sel, k, nthreads);
    t1 = now_ms(); tm.msm_a_ms = t1 - t0; t0 = t1;
    if ((st = groth16_abort_point("MSM B1", err)) != CUZK_OK) goto out;
    /* B: inputs and aux with B-density; the selection is kept for B_G2 in finish */
    k = 0;
    for (size_t i = 0; i < n_w; i++)
        if (r1cs_density_test(&dens_b, i)) sel[k++] = ws[i];
    if (k != p->n_b_g1 || k != p->n_b_g2) {
        st = ERR(err, CUZK_ERR_MISMATCH, "B queries have %u/%u points but the witness selects %zu",
                 p->n_b_g1, p->n_b_g2, k);
        goto out;
    }
    pend->b_scalars = malloc((k ? k : 1) * sizeof *pend->b_scalars);
    if (!pend->b_scalars) { st = ERR(err, CUZK_ERR_NOMEM, "B scalars (%zu)", k); goto out; }
    pend->n_b = k;
    memcpy(pend->b_scalars, sel, k * sizeof *sel);
    groth16_release_buf(release, release_ctx, dens_a.words, (n_w + 63) / 64 * 8); dens_a.words = NULL;
    groth16_release_buf(release, release_ctx, dens_b.words, (n_w + 63) / 64 * 8); dens_b.words = NULL;
    CN(g1_msm)(&pend->mr.b1, p->b_g1, pend->b_scalars, k, nthreads);
    groth16_release_buf(release, release_ctx, sel, n_w * sizeof *sel); sel = NULL;
    t1 = now_ms(); tm.msm_b1_ms = t1 - t0; t0 = t1;
    if ((st = groth16_abort_point("MSM L", err)) != CUZK_OK) goto out;
    CN(g1_msm)(&pend->mr.c, p->l, ws + n_inputs, n_aux, nthreads);
    groth16_release_buf(release, release_ctx, ws, n_w * sizeof *ws); ws = NULL;
    t1 = now_ms(); tm.msm_l_ms = t1 - t0; t0 = t1;
    if ((st = groth16_abort_point("MSM H", err)) != CUZK_OK) goto out;
    CN(g1_msm)(&pend->mr.h, p->h, hs, m - 1, nthreads);
    groth16_release_buf(release, release_ctx, hs, m * sizeof *hs); hs = NULL;
    t1 = now_ms(); tm.msm_h_ms = t1 - t0; t0 = t1;

    pend->alpha1 = p->vk.alpha1;
    pend->beta1 = p->vk.beta1;
    pend->beta2 = p->vk.beta2;
    pend->delta1 = p->vk.delta1;
    pend->delta2 = p->vk.delta2;
    pend->r = *r;
    pend->s = *s;
    pend->b_g2 = p->b_g2;
    *out = pend;
    pend = NULL;
out:
    groth16_release_buf(release, release_ctx, a, m * sizeof *a);
    groth16_release_buf(release, release_ctx, b, m * sizeof *b);
    groth16_release_buf(release, release_ctx, c, m * sizeof *c);
    groth16_release_buf(release, release_ctx, d.twiddles, m / 2 * sizeof(CN(fr)));
    groth16_release_buf(release, release_ctx, d.twiddles_inv, m / 2 * sizeof(CN(fr)));
    groth16_release_buf(release, release_ctx, ws, n_w * sizeof *ws);
    groth16_release_buf(release, release_ctx, sel, n_w * sizeof *sel);
    groth16_release_buf(release, release_ctx, hs, m * sizeof *hs);
    groth16_release_buf(release, release_ctx, dens_a.words, (n_w + 63) / 64 * 8);
    groth16_release_buf(release, release_ctx, dens_b.words, (n_w + 63) / 64 * 8);
    CN(groth16_pending_free)(pend);
    tm.total_ms = tm.abc_ms + tm.h_ms + tm.msm_a_ms + tm.msm_b1_ms + tm.msm_l_ms + tm.msm_h_ms;
    if (t) *t = tm;
    return st;
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
