/* The 8-lane IFMA NTT (interface and layout: src/poly/ntt52.h; arithmetic: src/ff/vec52.h). */
#include "poly/ntt52.h"

#include <stdlib.h>
#include <string.h>

#include "ff/mont.h"
#include "ff/mont_x86.h"
#include "ff/vec52.h"
#include "util/parallel.h"

void ntt52_field_init(ntt52_field *f, const uint64_t p[4]) {
    memcpy(f->p, p, sizeof f->p);
    f->inv64 = v52_inv64(p);
}

#ifdef FF_VEC52

#define TB 40 /* uint64_t per twiddle block: 8 values as 5 limb vectors of 52 bits */
#define DB 32 /* uint64_t per data block: 8 elements as 4 limb vectors of 64 bits, in place */
#define TE 8  /* uint64_t per broadcast entry: one value's 5 limbs of 52 bits (padded) */
#define LOG_CHUNK 8 /* first group: stages 0-7 on chunks of 2^8 elements (as src/poly/ntt_impl.h) */
#define LOG_GROUP 8
#define TILE_BLOCKS 2 /* columns per tile row: 16 elements */

bool ntt52_field_ok(const ntt52_field *f) {
    return ff_vec52_enabled && f && (f->p[0] & 1) && !(f->p[3] >> 63) && f->p[3] != 0;
}

/* value (R-form, < p) -> R'-form: x * 2^4 mod p, four modular doublings */
static void to_rprime(uint64_t r[4], const uint64_t v[4], const uint64_t p[4]) {
    uint64_t t[4];
    memcpy(t, v, sizeof t);
    for (int i = 0; i < 4; i++) mont_add_auto(t, t, t, p, 4);
    memcpy(r, t, sizeof t);
}

/* 4 limbs of 64 bits -> 5 of 52 at stride `stride` (1: an entry; 8: a lane of a block) */
static void split52(uint64_t *b, size_t stride, const uint64_t v[4]) {
    const uint64_t M = V52_MASK52;
    b[0 * stride] = v[0] & M;
    b[1 * stride] = ((v[0] >> 52) | (v[1] << 12)) & M;
    b[2 * stride] = ((v[1] >> 40) | (v[2] << 24)) & M;
    b[3 * stride] = ((v[2] >> 28) | (v[3] << 36)) & M;
    b[4 * stride] = v[3] >> 16;
}
/* omega_(2^(s+1))^e in R'-form, 52-bit limbs at stride `stride`, from the scalar table */
static void tw_put(uint64_t *b, size_t stride, const ntt52_twiddles *t, int s, size_t e, const uint64_t p[4]) {
    uint64_t v[4];
    to_rprime(v, t->tw[e << (t->log_m - 1 - s)], p);
    split52(b, stride, v);
}

V52_INLINE void ldt(v52 *v, const uint64_t *b) {
    for (int i = 0; i < 5; i++) v->l[i] = _mm512_load_si512(b + 8 * i);
}
V52_INLINE void bcast(v52 *v, const uint64_t *e) {
    for (int i = 0; i < 5; i++) v->l[i] = _mm512_set1_epi64((long long)e[i]);
}
/* a data block: 4 limb vectors of 64 bits in place (the caller's array: any alignment) */
V52_INLINE void ldd(v52 *v, const uint64_t *b) {
    v52_from64(v, _mm512_loadu_si512(b), _mm512_loadu_si512(b + 8), _mm512_loadu_si512(b + 16),
               _mm512_loadu_si512(b + 24));
}
V52_INLINE void std_(uint64_t *b, const v52 *v) {
    __m512i L[4];
    v52_to64(L, v);
    for (int i = 0; i < 4; i++) _mm512_storeu_si512(b + 8 * i, L[i]);
}

/* The tables (uint64_t offsets into t->blk):
 *   first group, stage s < min(8, log_m): blocks at (s < 3 ? s : 2^(s-3) + 2) * TB; stages 0-2
 *     one block (lane l: omega_(2^(s+1))^(l mod 2^s), its pair's twiddle), stage s >= 3 2^(s-3)
 *     blocks (omega_(2^(s+1))^j, j < 2^s);
 *   stage s >= 8: V_s, 2 blocks (omega_(2^(s+1))^c, c < 16), and A_s, 2^(s - s0) entries of TE
 *     (omega_(2^(s+1))^(u 2^s0), s0 = s rounded down to a multiple of 8): a tile's twiddle for
 *     row u and columns lo0 + c is A_s[u] * omega^lo0 * V_s[c], so no table grows with m. */
static size_t first_off(int s) { return s < 3 ? (size_t)s : ((size_t)1 << (s - 3)) + 2; }
static size_t v_off(int log_m, int s) { return first_off(log_m < 8 ? log_m : 8) * TB + (size_t)(s - 8) * 2 * TB; }
static size_t a_off(int log_m, int s) {
    size_t o = v_off(log_m, log_m > 8 ? log_m : 8);
    for (int k = 8; k < s; k++) o += ((size_t)1 << (k & 7)) * TE;
    return o;
}

cuzk_status ntt52_twiddles_init(ntt52_twiddles *t, const uint64_t (*tw)[4], int log_m, const ntt52_field *f) {
    if (!t) return CUZK_ERR_ARG;
    memset(t, 0, sizeof *t);
    if (!tw || !f || log_m < NTT52_MIN_LOG || log_m > 40) return CUZK_ERR_ARG;
    size_t words = a_off(log_m, log_m > 8 ? log_m : 8);
    t->blk = aligned_alloc(64, (words * sizeof(uint64_t) + 63) / 64 * 64);
    if (!t->blk) return CUZK_ERR_NOMEM;
    t->tw = tw;
    t->log_m = log_m;
    for (int s = 0; s < log_m; s++) {
        if (s < 8) {
            uint64_t *base = t->blk + first_off(s) * TB;
            size_t n = s < 3 ? 8 : (size_t)1 << s;
            for (size_t i = 0; i < n; i++) {
                size_t e = s < 3 ? i % ((size_t)1 << s) : i;
                tw_put(base + (i / 8) * TB + i % 8, 8, t, s, e, f->p);
            }
        } else {
            uint64_t *v = t->blk + v_off(log_m, s), *a = t->blk + a_off(log_m, s);
            for (size_t c = 0; c < 16; c++) tw_put(v + (c / 8) * TB + c % 8, 8, t, s, c, f->p);
            const int s0 = s & ~7;
            for (size_t u = 0; u < ((size_t)1 << (s - s0)); u++) tw_put(a + u * TE, 1, t, s, u << s0, f->p);
        }
    }
    return CUZK_OK;
}

void ntt52_twiddles_free(ntt52_twiddles *t) {
    if (!t) return;
    free(t->blk);
    memset(t, 0, sizeof *t);
}

static size_t bitrev_(size_t x, int k) {
    size_t r = 0;
    for (int i = 0; i < k; i++) r |= ((x >> i) & 1) << (k - 1 - i);
    return r;
}

cuzk_status ntt52_scale_init(ntt52_scale *s, const uint64_t (*lo_tab)[4], const uint64_t (*hi_tab)[4], int la,
                             int lb, const ntt52_field *f) {
    if (!s) return CUZK_ERR_ARG;
    memset(s, 0, sizeof *s);
    if (!lo_tab || !hi_tab || !f || la < 3 || lb < 0 || la > 30 || lb > 30) return CUZK_ERR_ARG;
    size_t nlo = (size_t)1 << la, nhi = (size_t)1 << lb;
    s->lo = aligned_alloc(64, nlo / 8 * TB * sizeof(uint64_t));
    s->hi = malloc(nhi * 5 * sizeof(uint64_t));
    if (!s->lo || !s->hi) {
        free(s->lo);
        free(s->hi);
        memset(s, 0, sizeof *s);
        return CUZK_ERR_NOMEM;
    }
    s->la = la;
    s->lb = lb;
    uint64_t v[4];
    for (size_t i = 0; i < nlo; i++) {
        to_rprime(v, lo_tab[bitrev_(i, la)], f->p);
        split52(s->lo + (i / 8) * TB + i % 8, 8, v);
    }
    for (size_t k = 0; k < nhi; k++) {
        to_rprime(v, hi_tab[bitrev_(k, lb)], f->p);
        split52(s->hi + k * 5, 1, v);
    }
    return CUZK_OK;
}

void ntt52_scale_free(ntt52_scale *s) {
    if (!s) return;
    free(s->lo);
    free(s->hi);
    memset(s, 0, sizeof *s);
}

/* ---- element order <-> blocks, in place ---------------------------------------------------- */

typedef struct {
    uint64_t *a;
    const v52_mod *M;
    int to;
} conv_ctx;

V52_TARGET static void conv_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const conv_ctx *c = vctx;
    for (size_t b = begin; b < end; b++) {
        uint64_t *p = c->a + b * DB;
        __m512i L[4];
        if (c->to) {
            v52_aos_to_limbs(L, p);
            for (int i = 0; i < 4; i++) _mm512_storeu_si512(p + 8 * i, L[i]);
        } else { /* lazy values in [0, 2m) -> canonical */
            v52 v;
            v52_from64(&v, _mm512_loadu_si512(p), _mm512_loadu_si512(p + 8), _mm512_loadu_si512(p + 16),
                       _mm512_loadu_si512(p + 24));
            v52_canon(&v, &v, c->M);
            v52_to64(L, &v);
            v52_limbs_to_aos(p, L);
        }
    }
}

V52_TARGET static void mod_init_(v52_mod *M, const ntt52_field *f) { v52_mod_init(M, f->p, f->inv64); }

void ntt52_to_blocks(uint64_t (*a)[4], size_t m, int nthreads) {
    conv_ctx c = {a[0], NULL, 1};
    parallel_for(m / 8, m < 4096 ? 1 : nthreads, conv_run, &c);
}
void ntt52_from_blocks(uint64_t (*a)[4], size_t m, const ntt52_field *f, int nthreads) {
    v52_mod M;
    mod_init_(&M, f);
    conv_ctx c = {a[0], &M, 0};
    parallel_for(m / 8, m < 4096 ? 1 : nthreads, conv_run, &c);
}

/* ---- butterflies ------------------------------------------------------------------------- */

/* data blocks x, y (elements at distance >= 8), twiddles W */
V52_INLINE void bfly(uint64_t *x, uint64_t *y, const v52 *W, const v52_mod *M, int dif) {
    v52 X, Y, t;
    ldd(&X, x);
    ldd(&Y, y);
    if (!dif) {
        v52_mul_lazy(&t, &Y, W, M);
        v52_sub_lazy(&Y, &X, &t, M);
        v52_add_lazy(&X, &X, &t, M);
    } else {
        v52_sub_lazy(&t, &X, &Y, M);
        v52_add_lazy(&X, &X, &Y, M);
        v52_mul_lazy(&Y, &t, W, M);
    }
    std_(x, &X);
    std_(y, &Y);
}

/* stage s < 3 inside one block: lane l pairs with lane l ^ 2^s; the lanes with bit s set hold
 * the pair's y */
V52_INLINE void bfly_in(uint64_t *b, int s, const uint64_t *w, const v52_mod *M, int dif) {
    const __m512i idx = s == 0 ? _mm512_set_epi64(6, 7, 4, 5, 2, 3, 0, 1)
                        : s == 1 ? _mm512_set_epi64(5, 4, 7, 6, 1, 0, 3, 2)
                                 : _mm512_set_epi64(3, 2, 1, 0, 7, 6, 5, 4);
    const __mmask8 hi = s == 0 ? 0xAA : s == 1 ? 0xCC : 0xF0;
    v52 V, X, Y, W, S, D;
    ldd(&V, b);
    ldt(&W, w);
    for (int i = 0; i < 5; i++) {
        __m512i P = _mm512_permutexvar_epi64(idx, V.l[i]);
        X.l[i] = _mm512_mask_blend_epi64(hi, V.l[i], P);
        Y.l[i] = _mm512_mask_blend_epi64(hi, P, V.l[i]);
    }
    v52 t;
    if (!dif) {
        v52_mul_lazy(&t, &Y, &W, M);
        v52_add_lazy(&S, &X, &t, M);
        v52_sub_lazy(&D, &X, &t, M);
    } else {
        v52_add_lazy(&S, &X, &Y, M);
        v52_sub_lazy(&t, &X, &Y, M);
        v52_mul_lazy(&D, &t, &W, M);
    }
    for (int i = 0; i < 5; i++) V.l[i] = _mm512_mask_blend_epi64(hi, S.l[i], D.l[i]);
    std_(b, &V);
}

/* ---- the groups ---------------------------------------------------------------------------- */

typedef struct {
    uint64_t *a;
    const ntt52_twiddles *t;
    const ntt52_field *f;
    v52_mod M;
    int log_m, s0, L, dif;
} grp_ctx;

/* stage s of a chunk of 2^L elements (nb blocks) starting at cb: the first group, s0 = 0 */
V52_INLINE void chunk_stage(const grp_ctx *g, uint64_t *cb, size_t nb, int s) {
    const uint64_t *tw = g->t->blk + first_off(s) * TB;
    if (s < 3) {
        for (size_t b = 0; b < nb; b++) bfly_in(cb + b * DB, s, tw, &g->M, g->dif);
        return;
    }
    const size_t h = (size_t)1 << (s - 3); /* pair distance in blocks */
    for (size_t u = 0; u < h; u++) {
        v52 W;
        ldt(&W, tw + u * TB);
        for (size_t b0 = 0; b0 < nb; b0 += 2 * h) bfly(cb + (b0 + u) * DB, cb + (b0 + u + h) * DB, &W, &g->M, g->dif);
    }
}

V52_TARGET static void chunk_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const grp_ctx *g = vctx;
    const size_t nb = (size_t)1 << (g->L - 3);
    for (size_t c = begin; c < end; c++) {
        uint64_t *cb = g->a + c * nb * DB;
        if (!g->dif)
            for (int s = 0; s < g->L; s++) chunk_stage(g, cb, nb, s);
        else
            for (int s = g->L - 1; s >= 0; s--) chunk_stage(g, cb, nb, s);
    }
}

/* A tile of a later group: rows t < 2^L at a stride of 2^s0 elements, TILE_BLOCKS blocks per row
 * from element lo0 of the row; base is the tile's first block. Row u's twiddles for this tile's
 * columns: A_s[u] * (omega^lo0 * V_s[c]). */
V52_INLINE void tile_stage(const grp_ctx *g, uint64_t *base, const uint64_t *e, int s) {
    const size_t rs = ((size_t)1 << g->s0) / 8; /* row stride in blocks */
    const size_t T = (size_t)1 << g->L, hs = (size_t)1 << (s - g->s0);
    const uint64_t *vt = g->t->blk + v_off(g->log_m, s), *at = g->t->blk + a_off(g->log_m, s);
    v52 C[TILE_BLOCKS], B;
    bcast(&B, e);
    for (int c = 0; c < TILE_BLOCKS; c++) {
        v52 V;
        ldt(&V, vt + c * TB);
        v52_mul(&C[c], &B, &V, &g->M); /* R' x R' -> R' */
    }
    for (size_t u = 0; u < hs; u++) {
        v52 A, W[TILE_BLOCKS];
        bcast(&A, at + u * TE);
        for (int c = 0; c < TILE_BLOCKS; c++) v52_mul(&W[c], &A, &C[c], &g->M);
        for (size_t r0 = 0; r0 < T; r0 += 2 * hs) {
            uint64_t *x = base + (r0 + u) * rs * DB, *y = x + hs * rs * DB;
            for (int c = 0; c < TILE_BLOCKS; c++) bfly(x + c * DB, y + c * DB, &W[c], &g->M, g->dif);
        }
    }
}

V52_TARGET static void tile_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const grp_ctx *g = vctx;
    const size_t cols = (size_t)1 << g->s0, w = TILE_BLOCKS * 8, per_hi = cols / w;
    for (size_t task = begin; task < end; task++) {
        size_t hi = task / per_hi, lo0 = (task % per_hi) * w;
        uint64_t *base = g->a + ((hi << (g->s0 + g->L)) + lo0) / 8 * DB;
        /* omega_(2^(s+1))^lo0 for the group's stages, R'-form: one read of the scalar table, then
         * squares downwards (omega_(2^s) = omega_(2^(s+1))^2) */
        uint64_t e[LOG_GROUP][TE], v[4], r[4];
        memcpy(v, g->t->tw[lo0 << (g->log_m - g->s0 - g->L)], sizeof v);
        for (int s = g->s0 + g->L - 1; s >= g->s0; s--) {
            to_rprime(r, v, g->f->p);
            split52(e[s - g->s0], 1, r);
            if (s > g->s0) mont_mul_auto(v, v, v, g->f->p, g->f->inv64, 4);
        }
        if (!g->dif)
            for (int s = g->s0; s < g->s0 + g->L; s++) tile_stage(g, base, e[s - g->s0], s);
        else
            for (int s = g->s0 + g->L - 1; s >= g->s0; s--) tile_stage(g, base, e[s - g->s0], s);
    }
}

void ntt52_core(uint64_t (*a)[4], const ntt52_twiddles *t, const ntt52_field *f, int dif, int nthreads) {
    const int log_m = t->log_m;
    const size_t m = (size_t)1 << log_m;
    int s0s[64], Ls[64], ng = 0;
    for (int s0 = 0; s0 < log_m;) {
        int L = s0 == 0 ? LOG_CHUNK : LOG_GROUP;
        if (L > log_m - s0) L = log_m - s0;
        s0s[ng] = s0;
        Ls[ng++] = L;
        s0 += L;
    }
    for (int gi = 0; gi < ng; gi++) {
        int k = dif ? ng - 1 - gi : gi;
        grp_ctx g;
        g.a = a[0];
        g.t = t;
        g.f = f;
        mod_init_(&g.M, f);
        g.log_m = log_m;
        g.s0 = s0s[k];
        g.L = Ls[k];
        g.dif = dif;
        int nt = m < 4096 ? 1 : nthreads;
        if (g.s0 == 0) {
            parallel_for(m >> g.L, nt, chunk_run, &g);
        } else {
            size_t tasks = (m >> (g.s0 + g.L)) * (((size_t)1 << g.s0) / (TILE_BLOCKS * 8));
            parallel_for(tasks, nt, tile_run, &g);
        }
    }
}

/* ---- pointwise --------------------------------------------------------------------------- */

typedef struct {
    uint64_t (*a)[4];
    const uint64_t (*b)[4];
    uint64_t (*c)[4];
    v52_mod M;
    int op;
} pw_ctx;

V52_TARGET static void pw_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const pw_ctx *x = vctx;
    for (size_t i = begin; i < end; i++) {
        v52 A, B, C, R;
        v52_load_aos(&A, x->a[8 * i]);
        v52_load_aos(&B, x->b[8 * i]);
        v52_shl4(&A, &A);
        v52_mul(&R, &A, &B, &x->M); /* (16 a) b 2^-260 = a b 2^-256, canonical */
        if (x->op == 1) {
            v52_store_aos(x->c[8 * i], &R);
        } else {
            v52_load_aos(&C, x->c[8 * i]);
            v52_sub(&R, &R, &C, &x->M);
            v52_store_aos(x->a[8 * i], &R);
        }
    }
}

void ntt52_pointwise(uint64_t (*a)[4], const uint64_t (*b)[4], uint64_t (*c)[4], size_t m, int op,
                     const ntt52_field *f, int nthreads) {
    pw_ctx x;
    x.a = a;
    x.b = b;
    x.c = c;
    x.op = op;
    mod_init_(&x.M, f);
    parallel_for(m / 8, m < 4096 ? 1 : nthreads, pw_run, &x);
}

/* ---- bit-reversed scaling ----------------------------------------------------------------- */

typedef struct {
    uint64_t *a;
    const ntt52_scale *s;
    v52_mod M;
} brs_ctx;

V52_TARGET static void brs_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const brs_ctx *c = vctx;
    const int la = c->s->la;
    const size_t lo_blocks_mask = ((size_t)1 << (la - 3)) - 1;
    for (size_t b = begin; b < end; b++) {
        v52 A, LO, HI, f;
        bcast(&HI, c->s->hi + ((8 * b) >> la) * 5);
        ldt(&LO, c->s->lo + (b & lo_blocks_mask) * TB);
        v52_mul(&f, &LO, &HI, &c->M); /* R' x R' -> R' */
        ldd(&A, c->a + b * DB);
        v52_mul_lazy(&A, &A, &f, &c->M); /* R x R' -> R, lazy */
        std_(c->a + b * DB, &A);
    }
}

void ntt52_brscale(uint64_t (*a)[4], const ntt52_scale *s, const ntt52_field *f, int nthreads) {
    brs_ctx c;
    c.a = a[0];
    c.s = s;
    mod_init_(&c.M, f);
    size_t m = (size_t)1 << (s->la + s->lb);
    parallel_for(m / 8, m < 4096 ? 1 : nthreads, brs_run, &c);
}

#else /* no IFMA code on this platform: never usable */

bool ntt52_field_ok(const ntt52_field *f) { (void)f; return false; }
cuzk_status ntt52_twiddles_init(ntt52_twiddles *t, const uint64_t (*tw)[4], int log_m, const ntt52_field *f) {
    (void)tw; (void)log_m; (void)f;
    if (t) memset(t, 0, sizeof *t);
    return CUZK_ERR_ARG;
}
void ntt52_twiddles_free(ntt52_twiddles *t) { (void)t; }
cuzk_status ntt52_scale_init(ntt52_scale *s, const uint64_t (*lo_tab)[4], const uint64_t (*hi_tab)[4], int la,
                             int lb, const ntt52_field *f) {
    (void)lo_tab; (void)hi_tab; (void)la; (void)lb; (void)f;
    if (s) memset(s, 0, sizeof *s);
    return CUZK_ERR_ARG;
}
void ntt52_scale_free(ntt52_scale *s) { (void)s; }
void ntt52_to_blocks(uint64_t (*a)[4], size_t m, int nthreads) { (void)a; (void)m; (void)nthreads; }
void ntt52_from_blocks(uint64_t (*a)[4], size_t m, const ntt52_field *f, int nthreads) {
    (void)a; (void)m; (void)f; (void)nthreads;
}
void ntt52_core(uint64_t (*a)[4], const ntt52_twiddles *t, const ntt52_field *f, int dif, int nthreads) {
    (void)a; (void)t; (void)f; (void)dif; (void)nthreads;
}
void ntt52_brscale(uint64_t (*a)[4], const ntt52_scale *s, const ntt52_field *f, int nthreads) {
    (void)a; (void)s; (void)f; (void)nthreads;
}
void ntt52_pointwise(uint64_t (*a)[4], const uint64_t (*b)[4], uint64_t (*c)[4], size_t m, int op,
                     const ntt52_field *f, int nthreads) {
    (void)a; (void)b; (void)c; (void)m; (void)op; (void)f; (void)nthreads;
}

#endif
