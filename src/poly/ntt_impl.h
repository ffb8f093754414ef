/* Radix-2 NTT over a curve's Fr on the CPU (interface and conventions: src/poly/ntt.h), X-include
 * template: included once per curve (src/curves/<curve>/ntt.c) with CURVE_NS and the parameters of
 * src/poly/ntt_decl.h defined.
 *
 * Layout of the computation. A size-m transform is log_m butterfly stages; stage s pairs elements
 * i and i + 2^s. Stages are processed in groups so that each thread works on a cache-sized tile:
 *   - the first group (stages 0 .. 7) works on contiguous blocks of 2^8 elements (8 KiB);
 *   - every later group covers up to LOG_GROUP stages s0 .. s0+L-1; the elements one tile touches
 *     are base + t*2^s0 + j for t < 2^L and j < TILE_W consecutive columns, so every memory access
 *     is a contiguous row of TILE_W elements (TILE_W * 32 bytes) and the tile (TILE_W * 2^L * 32
 *     bytes) stays in L2 while its L stages run.
 * This is the classic "blocked" (or multi-pass, six-step without transposes) FFT; each group is
 * one streaming pass over the array (groups of 8 stages: 2^16 needs 2 passes, 2^20 3, 2^28 4),
 * plus the bit reversal. With the generic Montgomery product the transform is compute-bound, so
 * small groups cost little and keep every group boundary reachable by tests at 2^17. Tiles of one group are independent and spread over threads with parallel_for.
 *
 * Two butterflies share that machinery:
 *   DIT (Cooley-Tukey): bit-reversed input -> natural output, stages 0 .. log_m-1;
 *   DIF (Gentleman-Sande): natural input -> bit-reversed output, stages log_m-1 .. 0.
 * The public transforms are bit reversal + DIT. The H computations avoid bit reversals entirely:
 * iNTT by DIF (natural -> bit-reversed coefficients), coset scaling applied in bit-reversed order,
 * then forward NTT by DIT (bit-reversed -> natural values).
 *
 * Twiddle factor of stage s at offset k (k < 2^s): omega_(2^(s+1))^k = omega_m^(k * m / 2^(s+1)),
 * read from the domain's table of omega_m^0 .. omega_m^(m/2-1).
 */
#include "poly/ntt.h"
#include "ff/ns.h"

#include <stdlib.h>
#include <string.h>

#include "poly/ntt52.h"
#include "util/parallel.h"

#define NTT_MAX_LOG (NTT_TWO_ADICITY < 28 ? NTT_TWO_ADICITY : 28)
#define LOG_BLOCK 8 /* first group: 2^8 elements = 8 KiB per block (L1) */
#define LOG_GROUP 8 /* later groups: up to 8 stages per pass */
#define TILE_W 16   /* columns per tile: rows of 512 bytes; tile = 16 * 2^8 * 32 B = 128 KiB (L2) */

/* ---- small helpers -------------------------------------------------------------------- */

static void fr_from_canon_const_(CN(fr) *r, const uint64_t c[4]) { CN(fr_from_canon)(r, c); }

static void fr_pow_u64_(CN(fr) *r, const CN(fr) *x, uint64_t e) { CN(fr_pow_vartime)(r, x, &e, 1); }

static inline uint64_t bitrev64(uint64_t x) {
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
    x = ((x >> 8) & 0x00ff00ff00ff00ffull) | ((x & 0x00ff00ff00ff00ffull) << 8);
    x = ((x >> 16) & 0x0000ffff0000ffffull) | ((x & 0x0000ffff0000ffffull) << 16);
    return (x >> 32) | (x << 32);
}
static inline size_t bitrev_k(size_t x, int k) { return k == 0 ? 0 : (size_t)(bitrev64(x) >> (64 - k)); }

/* Root of unity of order 2^log_n in the given convention, Montgomery form. */
static void root_of_order(CN(fr) *r, int log_n, ntt_roots roots) {
    static const uint64_t r5[4] = NTT_ROOT_SNARKJS_CANON;
#ifdef NTT_ROOT_BELLPERSON_CANON
    static const uint64_t r7[4] = NTT_ROOT_BELLPERSON_CANON;
    fr_from_canon_const_(r, roots == NTT_ROOTS_SNARKJS ? r5 : r7);
#else
    (void)roots; /* only the snarkjs convention: ntt_domain_init refuses the other */
    fr_from_canon_const_(r, r5);
#endif
    for (int i = log_n; i < NTT_TWO_ADICITY; i++) CN(fr_sqr)(r, r);
}

void CN(ntt_root_of_unity)(CN(fr) *r, int log_n, ntt_roots roots) { root_of_order(r, log_n, roots); }

void CN(h_coset_shift)(CN(fr) *r, int log_m, ntt_roots roots) {
    (void)roots;
#ifdef NTT_ROOT_BELLPERSON_CANON
    if (roots == NTT_ROOTS_BELLPERSON) {
        CN(fr_from_u64)(r, NTT_BELLPERSON_COSET_SHIFT);
        return;
    }
#endif
    root_of_order(r, log_m + 1, NTT_ROOTS_SNARKJS);
}

/* ---- a[i] = scale * x^i (fill) or a[i] *= scale * x^i (scale), in parallel ------------- */

typedef struct {
    CN(fr) *a;
    CN(fr) x, scale;
    int fill;
} powscale_ctx;

static void powscale_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    powscale_ctx *c = vctx;
    CN(fr) p;
    fr_pow_u64_(&p, &c->x, (uint64_t)begin);
    CN(fr_mul)(&p, &p, &c->scale);
    for (size_t i = begin; i < end; i++) {
        if (c->fill) c->a[i] = p;
        else CN(fr_mul)(&c->a[i], &c->a[i], &p);
        CN(fr_mul)(&p, &p, &c->x);
    }
}

static void powscale(CN(fr) *a, size_t n, const CN(fr) *x, const CN(fr) *scale, int fill, int nthreads) {
    powscale_ctx c = {a, *x, *scale, fill};
    parallel_for(n, n < 4096 ? 1 : nthreads, powscale_run, &c);
}

/* ---- bit-reversal permutation --------------------------------------------------------- */

typedef struct {
    CN(fr) *a;
    int log_m;
} bitrev_ctx;

static void bitrev_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    bitrev_ctx *c = vctx;
    for (size_t i = begin; i < end; i++) {
        size_t j = bitrev_k(i, c->log_m);
        if (i < j) {
            CN(fr) t = c->a[i];
            c->a[i] = c->a[j];
            c->a[j] = t;
        }
    }
}

static void bit_reverse(CN(fr) *a, int log_m, int nthreads) {
    bitrev_ctx c = {a, log_m};
    size_t m = (size_t)1 << log_m;
    parallel_for(m, m < 4096 ? 1 : nthreads, bitrev_run, &c);
}

/* ---- the blocked butterfly core ------------------------------------------------------- */

typedef struct {
    CN(fr) *a;
    const CN(fr) *tw; /* omega^0 .. omega^(m/2-1) of the transform's root */
    size_t m;
    int log_m;
    int s0, L;   /* stages s0 .. s0+L-1 */
    size_t w;    /* columns per tile */
    int dif;
} group_ctx;

/* One stage s of one tile: base points at element (hi, t=0, lo0); rows have stride 2^s0. */
static void tile_stage(const group_ctx *g, CN(fr) *base, size_t lo0, int s) {
    const size_t stride = (size_t)1 << g->s0;
    const size_t T = (size_t)1 << g->L;
    const size_t hs = (size_t)1 << (s - g->s0);
    const size_t twstride = g->m >> (s + 1);
    const size_t W = g->w;
    if (s == 0) {
        /* stage 0: every twiddle is omega^0 = 1, the same butterfly in DIT and DIF */
        for (size_t blk = 0; blk < T; blk += 2) {
            CN(fr) *x = base + blk * stride, *y = x + stride;
            for (size_t j = 0; j < W; j++) {
                CN(fr) t = y[j];
                CN(fr_sub)(&y[j], &x[j], &t);
                CN(fr_add)(&x[j], &x[j], &t);
            }
        }
        return;
    }
    for (size_t blk = 0; blk < T; blk += 2 * hs) {
        for (size_t u = 0; u < hs; u++) {
            CN(fr) *x = base + (blk + u) * stride;
            CN(fr) *y = x + hs * stride;
            const CN(fr) *tw = g->tw + (u * stride + lo0) * twstride;
            if (!g->dif) {
                for (size_t j = 0; j < W; j++, tw += twstride) {
                    CN(fr) t;
                    CN(fr_mul)(&t, &y[j], tw);
                    CN(fr_sub)(&y[j], &x[j], &t);
                    CN(fr_add)(&x[j], &x[j], &t);
                }
            } else {
                for (size_t j = 0; j < W; j++, tw += twstride) {
                    CN(fr) t;
                    CN(fr_sub)(&t, &x[j], &y[j]);
                    CN(fr_add)(&x[j], &x[j], &y[j]);
                    CN(fr_mul)(&y[j], &t, tw);
                }
            }
        }
    }
}

static void group_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const group_ctx *g = vctx;
    const size_t tiles_per_hi = ((size_t)1 << g->s0) / g->w;
    for (size_t task = begin; task < end; task++) {
        size_t hi = task / tiles_per_hi;
        size_t lo0 = (task % tiles_per_hi) * g->w;
        CN(fr) *base = g->a + (hi << (g->s0 + g->L)) + lo0;
        if (!g->dif)
            for (int s = g->s0; s < g->s0 + g->L; s++) tile_stage(g, base, lo0, s);
        else
            for (int s = g->s0 + g->L - 1; s >= g->s0; s--) tile_stage(g, base, lo0, s);
    }
}

/* Group boundaries: first group LOG_BLOCK stages, then LOG_GROUP at a time. */
static int group_plan(int log_m, int s0_out[], int L_out[]) {
    int ng = 0, s0 = 0;
    while (s0 < log_m) {
        int L = s0 == 0 ? LOG_BLOCK : LOG_GROUP;
        if (L > log_m - s0) L = log_m - s0;
        s0_out[ng] = s0;
        L_out[ng] = L;
        ng++;
        s0 += L;
    }
    return ng;
}

/* All log_m stages, no bit reversal, no scaling. dif = 0: DIT (bit-reversed -> natural);
 * dif = 1: DIF (natural -> bit-reversed). */
static void ntt_core(CN(fr) *a, int log_m, const CN(fr) *tw, int dif, int nthreads) {
    if (log_m == 0) return;
    int s0s[NTT_MAX_LOG + 1], Ls[NTT_MAX_LOG + 1];
    int ng = group_plan(log_m, s0s, Ls);
    size_t m = (size_t)1 << log_m;
    for (int gi = 0; gi < ng; gi++) {
        int idx = dif ? ng - 1 - gi : gi;
        group_ctx g = {a, tw, m, log_m, s0s[idx], Ls[idx], 0, dif};
        size_t cols = (size_t)1 << g.s0;
        g.w = cols < TILE_W ? cols : TILE_W;
        size_t tasks = (m >> (g.s0 + g.L)) * (cols / g.w);
        parallel_for(tasks, m < 4096 ? 1 : nthreads, group_run, &g);
    }
}

/* ---- the 8-lane path (src/poly/ntt52.h) ----------------------------------------------------
 * Used when the CPU has AVX-512 IFMA (and CUZK_NO_ASM / ff_force_generic do not turn it off), the
 * field fits (< 2^255) and m >= 2^NTT52_MIN_LOG; it gives the same values as the scalar code. It
 * works in place; its tables (a few KiB) are built per call and freed before it returns; if one
 * cannot be allocated the scalar code runs instead. */

static bool vec_field(ntt52_field *f, int log_m) {
    ntt52_field_init(f, CN(fr_MODULUS));
    return log_m >= NTT52_MIN_LOG && ntt52_field_ok(f);
}

/* ntt_core through the vector path; false (a untouched) when it is not available */
static bool ntt_core_vec(CN(fr) *a, int log_m, const CN(fr) *tw, int dif, int nthreads) {
    ntt52_field f;
    if (!vec_field(&f, log_m)) return false;
    size_t m = (size_t)1 << log_m;
    ntt52_twiddles t;
    if (ntt52_twiddles_init(&t, (const uint64_t(*)[4])tw, log_m, &f) != CUZK_OK) return false;
    ntt52_to_blocks((uint64_t(*)[4])a, m, nthreads);
    ntt52_core((uint64_t(*)[4])a, &t, &f, dif, nthreads);
    ntt52_from_blocks((uint64_t(*)[4])a, m, &f, nthreads);
    ntt52_twiddles_free(&t);
    return true;
}

static void ntt_core_any(CN(fr) *a, int log_m, const CN(fr) *tw, int dif, int nthreads) {
    if (!ntt_core_vec(a, log_m, tw, dif, nthreads)) ntt_core(a, log_m, tw, dif, nthreads);
}

/* ---- domain --------------------------------------------------------------------------- */

cuzk_status CN(ntt_domain_init)(CN(ntt_domain) *d, int log_m, ntt_roots roots) {
    if (!d) return CUZK_ERR_ARG;
    memset(d, 0, sizeof *d);
    if (log_m < 1 || log_m > NTT_MAX_LOG) return CUZK_ERR_ARG;
    if (roots != NTT_ROOTS_SNARKJS) {
#ifdef NTT_ROOT_BELLPERSON_CANON
        if (roots != NTT_ROOTS_BELLPERSON) return CUZK_ERR_ARG;
#else
        return CUZK_ERR_ARG;
#endif
    }
    size_t m = (size_t)1 << log_m;
    CN(fr) *tw = malloc(m / 2 * sizeof(CN(fr))), *twi = malloc(m / 2 * sizeof(CN(fr)));
    if (!tw || !twi) {
        free(tw);
        free(twi);
        return CUZK_ERR_NOMEM;
    }
    d->log_m = log_m;
    d->m = m;
    root_of_order(&d->omega, log_m, roots);
    CN(fr_inv)(&d->omega_inv, &d->omega);
    CN(fr) mm;
    CN(fr_from_u64)(&mm, (uint64_t)m);
    CN(fr_inv)(&d->m_inv, &mm);
    CN(fr) one;
    CN(fr_one)(&one);
    powscale(tw, m / 2, &d->omega, &one, 1, 0);
    powscale(twi, m / 2, &d->omega_inv, &one, 1, 0);
    d->twiddles = tw;
    d->twiddles_inv = twi;
    return CUZK_OK;
}

void CN(ntt_domain_free)(CN(ntt_domain) *d) {
    if (!d) return;
    free(d->twiddles);
    free(d->twiddles_inv);
    memset(d, 0, sizeof *d);
}

/* ---- public transforms ---------------------------------------------------------------- */

void CN(ntt_forward)(const CN(ntt_domain) *d, CN(fr) *a, int nthreads) {
    bit_reverse(a, d->log_m, nthreads);
    ntt_core_any(a, d->log_m, d->twiddles, 0, nthreads);
}

void CN(ntt_inverse)(const CN(ntt_domain) *d, CN(fr) *a, int nthreads) {
    CN(fr) one;
    CN(fr_one)(&one);
    bit_reverse(a, d->log_m, nthreads);
    ntt_core_any(a, d->log_m, d->twiddles_inv, 0, nthreads);
    powscale(a, d->m, &one, &d->m_inv, 0, nthreads);
}

void CN(ntt_coset_forward)(const CN(ntt_domain) *d, CN(fr) *a, const CN(fr) *shift, int nthreads) {
    CN(fr) one;
    CN(fr_one)(&one);
    powscale(a, d->m, shift, &one, 0, nthreads);
    CN(ntt_forward)(d, a, nthreads);
}

void CN(ntt_coset_inverse)(const CN(ntt_domain) *d, CN(fr) *a, const CN(fr) *shift, int nthreads) {
    CN(fr) shift_inv;
    CN(fr_inv)(&shift_inv, shift);
    bit_reverse(a, d->log_m, nthreads);
    ntt_core_any(a, d->log_m, d->twiddles_inv, 0, nthreads);
    /* one pass: a_i *= (1/m) * shift^-i */
    powscale(a, d->m, &shift_inv, &d->m_inv, 0, nthreads);
}

/* ---- scaling in bit-reversed order ----------------------------------------------------
 * a[p] *= scale * x^bitrev(p). With p = p_hi * 2^a + p_lo (a = floor(log_m / 2)),
 * bitrev(p) = bitrev_a(p_lo) * 2^(log_m - a) + bitrev_(log_m - a)(p_hi), so the factor is
 * lo_tab[bitrev_a(p_lo)] * hi_tab[bitrev_(log_m-a)(p_hi)] with lo_tab[i] = x^(i * 2^(log_m-a)) and
 * hi_tab[i] = scale * x^i: two tables of about sqrt(m) entries, one extra product per element. */

typedef struct {
    CN(fr) *a;
    const CN(fr) *lo_tab, *hi_tab;
    int log_m, la;
} brscale_ctx;

static void brscale_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const brscale_ctx *c = vctx;
    const size_t lo_mask = ((size_t)1 << c->la) - 1;
    const int lb = c->log_m - c->la;
    for (size_t p = begin; p < end; p++) {
        CN(fr) f;
        CN(fr_mul)(&f, &c->lo_tab[bitrev_k(p & lo_mask, c->la)], &c->hi_tab[bitrev_k(p >> c->la, lb)]);
        CN(fr_mul)(&c->a[p], &c->a[p], &f);
    }
}

typedef struct {
    CN(fr) *lo_tab, *hi_tab;
    int la;
} brscale_tabs;

static bool brscale_tabs_init(brscale_tabs *t, int log_m, const CN(fr) *x, const CN(fr) *scale) {
    t->la = log_m / 2;
    int lb = log_m - t->la;
    t->lo_tab = malloc(((size_t)1 << t->la) * sizeof(CN(fr)));
    t->hi_tab = malloc(((size_t)1 << lb) * sizeof(CN(fr)));
    if (!t->lo_tab || !t->hi_tab) {
        free(t->lo_tab);
        free(t->hi_tab);
        return false;
    }
    CN(fr) one, xs;
    CN(fr_one)(&one);
    fr_pow_u64_(&xs, x, (uint64_t)1 << lb);
    powscale(t->lo_tab, (size_t)1 << t->la, &xs, &one, 1, 1);
    powscale(t->hi_tab, (size_t)1 << lb, x, scale, 1, 1);
    return true;
}

static void brscale_tabs_free(brscale_tabs *t) {
    free(t->lo_tab);
    free(t->hi_tab);
}

static void brscale(CN(fr) *a, int log_m, const brscale_tabs *t, int nthreads) {
    brscale_ctx c = {a, t->lo_tab, t->hi_tab, log_m, t->la};
    size_t m = (size_t)1 << log_m;
    parallel_for(m, m < 4096 ? 1 : nthreads, brscale_run, &c);
}

/* Values on the domain (natural order) -> values on the coset shift*<omega> (natural order):
 * iNTT by DIF (bit-reversed coefficients times m), scale coefficient i by shift^i / m in
 * bit-reversed order, DIT forward. Uses the tables t built for x = shift, scale = 1/m. */
static void domain_to_coset(const CN(ntt_domain) *d, CN(fr) *a, const brscale_tabs *t, int nthreads) {
    ntt_core(a, d->log_m, d->twiddles_inv, 1, nthreads);
    brscale(a, d->log_m, t, nthreads);
    ntt_core(a, d->log_m, d->twiddles, 0, nthreads);
}

/* domain_to_coset on n vectors through the vector path (the tables built once for all of them);
 * false (nothing touched) when it is not available */
static bool coset_vec(const CN(ntt_domain) *d, CN(fr) *const *v, int n, const brscale_tabs *t, int nthreads) {
    ntt52_field f;
    if (!vec_field(&f, d->log_m)) return false;
    ntt52_twiddles tf, ti;
    ntt52_scale sc;
    bool ok = ntt52_twiddles_init(&tf, (const uint64_t(*)[4])d->twiddles, d->log_m, &f) == CUZK_OK;
    ok = ntt52_twiddles_init(&ti, (const uint64_t(*)[4])d->twiddles_inv, d->log_m, &f) == CUZK_OK && ok;
    ok = ntt52_scale_init(&sc, (const uint64_t(*)[4])t->lo_tab, (const uint64_t(*)[4])t->hi_tab, t->la,
                          d->log_m - t->la, &f) == CUZK_OK && ok;
    if (ok) {
        for (int k = 0; k < n; k++) {
            uint64_t(*a)[4] = (uint64_t(*)[4])v[k];
            ntt52_to_blocks(a, d->m, nthreads);
            ntt52_core(a, &ti, &f, 1, nthreads);
            ntt52_brscale(a, &sc, &f, nthreads);
            ntt52_core(a, &tf, &f, 0, nthreads);
            ntt52_from_blocks(a, d->m, &f, nthreads);
        }
    }
    ntt52_scale_free(&sc);
    ntt52_twiddles_free(&ti);
    ntt52_twiddles_free(&tf);
    return ok;
}

/* ---- pointwise ------------------------------------------------------------------------ */

typedef struct {
    CN(fr) *a;
    const CN(fr) *b;
    CN(fr) *c;
    const CN(fr) *scale; /* NULL: none */
    int op;          /* 0: a = (a*b - c) [* scale]; 1: c = a*b */
} pw_ctx;

static void pw_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const pw_ctx *x = vctx;
    for (size_t i = begin; i < end; i++) {
        if (x->op == 1) {
            CN(fr_mul)(&x->c[i], &x->a[i], &x->b[i]);
        } else {
            CN(fr) t;
            CN(fr_mul)(&t, &x->a[i], &x->b[i]);
            CN(fr_sub)(&t, &t, &x->c[i]);
            if (x->scale) CN(fr_mul)(&t, &t, x->scale);
            x->a[i] = t;
        }
    }
}

static void pointwise(size_t m, CN(fr) *a, const CN(fr) *b, CN(fr) *c, const CN(fr) *scale, int op, int nthreads) {
    ntt52_field f;
    ntt52_field_init(&f, CN(fr_MODULUS));
    if (!scale && m % 8 == 0 && m >= 8 && ntt52_field_ok(&f)) { /* 8 lanes (src/poly/ntt52.h) */
        ntt52_pointwise((uint64_t(*)[4])a, (const uint64_t(*)[4])b, (uint64_t(*)[4])c, m, op, &f, nthreads);
        return;
    }
    pw_ctx x = {a, b, c, scale, op};
    parallel_for(m, m < 4096 ? 1 : nthreads, pw_run, &x);
}

/* ---- H -------------------------------------------------------------------------------- */

#ifdef NTT_ROOT_BELLPERSON_CANON
void CN(h_bellperson)(const CN(ntt_domain) *d, CN(fr) *a, CN(fr) *b, CN(fr) *c, int nthreads) {
    CN(fr) g, one, zinv;
    CN(h_coset_shift)(&g, d->log_m, NTT_ROOTS_BELLPERSON);
    CN(fr_one)(&one);
    /* Z on the coset: g^m - 1 */
    fr_pow_u64_(&zinv, &g, (uint64_t)d->m);
    CN(fr_sub)(&zinv, &zinv, &one);
    CN(fr_inv)(&zinv, &zinv);

    brscale_tabs fwd, inv;
    bool have_fwd = brscale_tabs_init(&fwd, d->log_m, &g, &d->m_inv);
    if (!have_fwd) {
        /* allocation failed: the plain path, bit reversals and all */
        CN(fr) *v[3] = {a, b, c};
        for (int k = 0; k < 3; k++) {
            CN(ntt_inverse)(d, v[k], nthreads);
            CN(ntt_coset_forward)(d, v[k], &g, nthreads);
        }
        pointwise(d->m, a, b, c, &zinv, 0, nthreads);
        CN(ntt_coset_inverse)(d, a, &g, nthreads);
        return;
    }
    CN(fr) *const abc[3] = {a, b, c};
    if (!coset_vec(d, abc, 3, &fwd, nthreads))
        for (int k = 0; k < 3; k++) domain_to_coset(d, abc[k], &fwd, nthreads);
    brscale_tabs_free(&fwd);
    pointwise(d->m, a, b, c, &zinv, 0, nthreads);

    /* coset iNTT: DIF with omega^-1, then coefficient i *= g^-i / m in bit-reversed order, then
     * one bit reversal to natural order */
    CN(fr) ginv;
    CN(fr_inv)(&ginv, &g);
    ntt_core_any(a, d->log_m, d->twiddles_inv, 1, nthreads);
    if (brscale_tabs_init(&inv, d->log_m, &ginv, &d->m_inv)) {
        brscale(a, d->log_m, &inv, nthreads);
        brscale_tabs_free(&inv);
        bit_reverse(a, d->log_m, nthreads);
    } else {
        bit_reverse(a, d->log_m, nthreads);
        powscale(a, d->m, &ginv, &d->m_inv, 0, nthreads);
    }
}
#endif

void CN(h_snarkjs)(const CN(ntt_domain) *d, CN(fr) *a, CN(fr) *b, CN(fr) *c, int nthreads) {
    CN(fr) g;
    CN(h_coset_shift)(&g, d->log_m, NTT_ROOTS_SNARKJS); /* omega_2m */
    pointwise(d->m, a, b, c, NULL, 1, nthreads);        /* c = a*b on the rows */
    brscale_tabs t;
    if (!brscale_tabs_init(&t, d->log_m, &g, &d->m_inv)) {
        CN(fr) *v[3] = {a, b, c};
        for (int k = 0; k < 3; k++) {
            CN(ntt_inverse)(d, v[k], nthreads);
            CN(ntt_coset_forward)(d, v[k], &g, nthreads);
        }
    } else {
        CN(fr) *const abc[3] = {a, b, c};
        if (!coset_vec(d, abc, 3, &t, nthreads))
            for (int k = 0; k < 3; k++) domain_to_coset(d, abc[k], &t, nthreads);
        brscale_tabs_free(&t);
    }
    pointwise(d->m, a, b, c, NULL, 0, nthreads);
}
