/* The 8-lane IFMA NTT (interface and layout: src/poly/ntt52.h; arithmetic: src/ff/vec52.h). */
#include "poly/ntt52.h"

#include <stdlib.h>
#include <string.h>

#include "ff/mont.h"
#include "ff/vec52.h"
#include "util/parallel.h"

void ntt52_field_init(ntt52_field *f, const uint64_t p[4]) {
    memcpy(f->p, p, sizeof f->p);
    uint64_t x = 1; /* Newton: x = p^-1 mod 2^64 (p odd), 6 steps double the correct bits to 64 */
    for (int i = 0; i < 6; i++) x *= 2 - p[0] * x;
    f->inv64 = (uint64_t)0 - x;
}

#ifdef FF_VEC52

#define BLK 40 /* uint64_t per block: 5 limb vectors of 8 lanes */
#define LOG_CHUNK 8 /* first group: stages 0-7 on chunks of 2^8 elements (as src/poly/ntt_impl.h) */
#define LOG_GROUP 8
#define TILE_BLOCKS 2 /* columns per tile row: 16 elements */

bool ntt52_field_ok(const ntt52_field *f) {
    return ff_vec52_enabled && f && (f->p[0] & 1) && !(f->p[3] >> 63) && f->p[3] != 0;
}

/* value (R-form, < p) -> R'-form: 16 modular doublings' worth, i.e. x * 2^4 mod p */
static void to_rprime(uint64_t r[4], const uint64_t v[4], const uint64_t p[4]) {
    uint64_t t[4];
    memcpy(t, v, sizeof t);
    for (int i = 0; i < 4; i++) mont_add(t, t, t, p, 4);
    memcpy(r, t, sizeof t);
}

/* element (4 limbs) -> lane `lane` of block b */
static void put_lane(uint64_t *b, int lane, const uint64_t v[4]) {
    const uint64_t M = V52_MASK52;
    b[0 * 8 + lane] = v[0] & M;
    b[1 * 8 + lane] = ((v[0] >> 52) | (v[1] << 12)) & M;
    b[2 * 8 + lane] = ((v[1] >> 40) | (v[2] << 24)) & M;
    b[3 * 8 + lane] = ((v[2] >> 28) | (v[3] << 36)) & M;
    b[4 * 8 + lane] = v[3] >> 16;
}

V52_INLINE void ld(v52 *v, const uint64_t *b) {
    for (int i = 0; i < 5; i++) v->l[i] = _mm512_load_si512(b + 8 * i);
}
V52_INLINE void st(uint64_t *b, const v52 *v) {
    for (int i = 0; i < 5; i++) _mm512_store_si512(b + 8 * i, v->l[i]);
}

uint64_t *ntt52_blocks_alloc(size_t m) {
    size_t bytes = (m + 7) / 8 * BLK * sizeof(uint64_t);
    return aligned_alloc(64, bytes);
}
void ntt52_blocks_free(uint64_t *b) { free(b); }

/* Stage s's table: stages 0, 1, 2 one block each (lane l: omega_(2^(s+1))^(l mod 2^s), the
 * twiddle of the lane's pair); stage s >= 3 at block 2^(s-3) + 2, 2^(s-3) blocks. */
static size_t stage_off(int s) { return s < 3 ? (size_t)s : ((size_t)1 << (s - 3)) + 2; }

/* stage s >= 3: block 0 from the scalar table, then block k+1 = block k * omega^8 (one vector
 * product per 8 twiddles; R' x R' -> R') */
V52_TARGET static void stage_chain(uint64_t *base, size_t nblk, const uint64_t (*tw)[4], int sh,
                                   const ntt52_field *f) {
    v52_mod M;
    v52_mod_init(&M, f->p, f->inv64);
    uint64_t v[4];
    for (int l = 0; l < 8; l++) {
        to_rprime(v, tw[(size_t)l << sh], f->p);
        put_lane(base, l, v);
    }
    if (nblk < 2) return;
    uint64_t w8[BLK];
    to_rprime(v, tw[(size_t)8 << sh], f->p);
    for (int l = 0; l < 8; l++) put_lane(w8, l, v);
    v52 B, W;
    ld(&B, base);
    ld(&W, w8);
    for (size_t k = 1; k < nblk; k++) {
        v52_mul(&B, &B, &W, &M);
        st(base + k * BLK, &B);
    }
}

cuzk_status ntt52_twiddles_init(ntt52_twiddles *t, const uint64_t (*tw)[4], int log_m, const ntt52_field *f) {
    if (!t) return CUZK_ERR_ARG;
    memset(t, 0, sizeof *t);
    if (!tw || !f || log_m < NTT52_MIN_LOG || log_m > 40) return CUZK_ERR_ARG;
    size_t nblk = stage_off(log_m);
    t->blk = aligned_alloc(64, nblk * BLK * sizeof(uint64_t));
    if (!t->blk) return CUZK_ERR_NOMEM;
    t->log_m = log_m;
    for (int s = 0; s < log_m; s++) {
        uint64_t *base = t->blk + stage_off(s) * BLK;
        if (s < 3) {
            for (int l = 0; l < 8; l++) {
                uint64_t v[4];
                to_rprime(v, tw[(size_t)(l % (1 << s)) << (log_m - 1 - s)], f->p);
                put_lane(base, l, v);
            }
        } else {
            stage_chain(base, (size_t)1 << (s - 3), tw, log_m - 1 - s, f);
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
    s->lo = aligned_alloc(64, nlo / 8 * BLK * sizeof(uint64_t));
    s->hi = malloc(nhi * 5 * sizeof(uint64_t));
    if (!s->lo || !s->hi) {
        free(s->lo);
        free(s->hi);
        memset(s, 0, sizeof *s);
        return CUZK_ERR_NOMEM;
    }
    s->la = la;
    s->lb = lb;
    uint64_t v[4], tmp[BLK];
    for (size_t i = 0; i < nlo; i++) {
        to_rprime(v, lo_tab[bitrev_(i, la)], f->p);
        put_lane(s->lo + (i / 8) * BLK, (int)(i % 8), v);
    }
    for (size_t k = 0; k < nhi; k++) {
        to_rprime(v, hi_tab[bitrev_(k, lb)], f->p);
        put_lane(tmp, 0, v);
        for (int l = 0; l < 5; l++) s->hi[k * 5 + l] = tmp[l * 8];
    }
    return CUZK_OK;
}

void ntt52_scale_free(ntt52_scale *s) {
    if (!s) return;
    free(s->lo);
    free(s->hi);
    memset(s, 0, sizeof *s);
}

/* ---- blocks <-> elements ---------------------------------------------------------------- */


typedef struct {
    uint64_t *blk;
    uint64_t (*a)[4];
    int to;
} conv_ctx;

V52_TARGET static void conv_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const conv_ctx *c = vctx;
    for (size_t b = begin; b < end; b++) {
        v52 v;
        if (c->to) {
            v52_load_aos(&v, c->a[8 * b]);
            st(c->blk + b * BLK, &v);
        } else {
            ld(&v, c->blk + b * BLK);
            v52_store_aos(c->a[8 * b], &v);
        }
    }
}

void ntt52_to_blocks(uint64_t *blk, const uint64_t (*a)[4], size_t m, int nthreads) {
    conv_ctx c = {blk, (uint64_t(*)[4])a, 1};
    parallel_for(m / 8, m < 4096 ? 1 : nthreads, conv_run, &c);
}
void ntt52_from_blocks(uint64_t (*a)[4], const uint64_t *blk, size_t m, int nthreads) {
    conv_ctx c = {(uint64_t *)blk, a, 0};
    parallel_for(m / 8, m < 4096 ? 1 : nthreads, conv_run, &c);
}

/* ---- butterflies ------------------------------------------------------------------------- */

/* blocks x, y at distance >= 8 elements, twiddle block w */
V52_INLINE void bfly(uint64_t *x, uint64_t *y, const uint64_t *w, const v52_mod *M, int dif) {
    v52 X, Y, W, t;
    ld(&X, x);
    ld(&Y, y);
    ld(&W, w);
    if (!dif) {
        v52_mul(&t, &Y, &W, M);
        v52_sub(&Y, &X, &t, M);
        v52_add(&X, &X, &t, M);
    } else {
        v52_sub(&t, &X, &Y, M);
        v52_add(&X, &X, &Y, M);
        v52_mul(&Y, &t, &W, M);
    }
    st(x, &X);
    st(y, &Y);
}

/* stage s < 3 inside one block: lane l pairs with lane l ^ 2^s; the lanes with bit s set hold
 * the pair's y */
V52_INLINE void bfly_in(uint64_t *b, int s, const uint64_t *w, const v52_mod *M, int dif) {
    const __m512i idx = s == 0 ? _mm512_set_epi64(6, 7, 4, 5, 2, 3, 0, 1)
                        : s == 1 ? _mm512_set_epi64(5, 4, 7, 6, 1, 0, 3, 2)
                                 : _mm512_set_epi64(3, 2, 1, 0, 7, 6, 5, 4);
    const __mmask8 hi = s == 0 ? 0xAA : s == 1 ? 0xCC : 0xF0;
    v52 V, X, Y, W, S, D;
    ld(&V, b);
    ld(&W, w);
    for (int i = 0; i < 5; i++) {
        __m512i P = _mm512_permutexvar_epi64(idx, V.l[i]);
        X.l[i] = _mm512_mask_blend_epi64(hi, V.l[i], P);
        Y.l[i] = _mm512_mask_blend_epi64(hi, P, V.l[i]);
    }
    if (!dif) {
        v52 t;
        v52_mul(&t, &Y, &W, M);
        v52_add(&S, &X, &t, M);
        v52_sub(&D, &X, &t, M);
    } else {
        v52 t;
        v52_add(&S, &X, &Y, M);
        v52_sub(&t, &X, &Y, M);
        v52_mul(&D, &t, &W, M);
    }
    for (int i = 0; i < 5; i++) V.l[i] = _mm512_mask_blend_epi64(hi, S.l[i], D.l[i]);
    st(b, &V);
}

/* ---- the groups ---------------------------------------------------------------------------- */

typedef struct {
    uint64_t *blk;
    const ntt52_twiddles *t;
    v52_mod M;
    int log_m, s0, L, dif;
} grp_ctx;

/* stage s of a chunk of 2^L elements starting at block cb (the first group, s0 = 0) */
V52_INLINE void chunk_stage(const grp_ctx *g, uint64_t *cb, size_t nb, int s) {
    const uint64_t *tw = g->t->blk + stage_off(s) * BLK;
    if (s < 3) {
        for (size_t b = 0; b < nb; b++) bfly_in(cb + b * BLK, s, tw, &g->M, g->dif);
        return;
    }
    const size_t h = (size_t)1 << (s - 3); /* pair distance in blocks */
    for (size_t b0 = 0; b0 < nb; b0 += 2 * h)
        for (size_t u = 0; u < h; u++)
            bfly(cb + (b0 + u) * BLK, cb + (b0 + u + h) * BLK, tw + u * BLK, &g->M, g->dif);
}

V52_TARGET static void chunk_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const grp_ctx *g = vctx;
    const size_t nb = (size_t)1 << (g->L - 3);
    for (size_t c = begin; c < end; c++) {
        uint64_t *cb = g->blk + c * nb * BLK;
        if (!g->dif)
            for (int s = 0; s < g->L; s++) chunk_stage(g, cb, nb, s);
        else
            for (int s = g->L - 1; s >= 0; s--) chunk_stage(g, cb, nb, s);
    }
}

/* A tile of a later group: rows t < 2^L at a stride of 2^s0 elements, TILE_BLOCKS blocks per row
 * starting at element lo0 of the row; base is the tile's first block. */
V52_INLINE void tile_stage(const grp_ctx *g, uint64_t *base, size_t lo0, int s) {
    const size_t rs = ((size_t)1 << g->s0) / 8; /* row stride in blocks */
    const size_t T = (size_t)1 << g->L, hs = (size_t)1 << (s - g->s0);
    const uint64_t *tw = g->t->blk + stage_off(s) * BLK;
    for (size_t r0 = 0; r0 < T; r0 += 2 * hs)
        for (size_t u = 0; u < hs; u++) {
            uint64_t *x = base + (r0 + u) * rs * BLK, *y = x + hs * rs * BLK;
            const uint64_t *w = tw + ((u << g->s0) + lo0) / 8 * BLK;
            for (size_t c = 0; c < TILE_BLOCKS; c++) bfly(x + c * BLK, y + c * BLK, w + c * BLK, &g->M, g->dif);
        }
}

V52_TARGET static void tile_run(void *vctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const grp_ctx *g = vctx;
    const size_t cols = (size_t)1 << g->s0, w = TILE_BLOCKS * 8, per_hi = cols / w;
    for (size_t task = begin; task < end; task++) {
        size_t hi = task / per_hi, lo0 = (task % per_hi) * w;
        uint64_t *base = g->blk + ((hi << (g->s0 + g->L)) + lo0) / 8 * BLK;
        if (!g->dif)
            for (int s = g->s0; s < g->s0 + g->L; s++) tile_stage(g, base, lo0, s);
        else
            for (int s = g->s0 + g->L - 1; s >= g->s0; s--) tile_stage(g, base, lo0, s);
    }
}

V52_TARGET static void mod_init_(v52_mod *M, const ntt52_field *f) { v52_mod_init(M, f->p, f->inv64); }

void ntt52_core(uint64_t *blk, const ntt52_twiddles *t, const ntt52_field *f, int dif, int nthreads) {
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
        g.blk = blk;
        g.t = t;
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

/* ---- bit-reversed scaling ----------------------------------------------------------------- */

typedef struct {
    uint64_t *blk;
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
        const uint64_t *h = c->s->hi + ((8 * b) >> la) * 5;
        for (int i = 0; i < 5; i++) HI.l[i] = _mm512_set1_epi64((long long)h[i]);
        ld(&LO, c->s->lo + (b & lo_blocks_mask) * BLK);
        v52_mul(&f, &LO, &HI, &c->M); /* R' x R' -> R' */
        ld(&A, c->blk + b * BLK);
        v52_mul(&A, &A, &f, &c->M); /* R x R' -> R */
        st(c->blk + b * BLK, &A);
    }
}

void ntt52_brscale(uint64_t *blk, const ntt52_scale *s, const ntt52_field *f, int nthreads) {
    brs_ctx c;
    c.blk = blk;
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
uint64_t *ntt52_blocks_alloc(size_t m) { (void)m; return NULL; }
void ntt52_blocks_free(uint64_t *b) { (void)b; }
void ntt52_to_blocks(uint64_t *blk, const uint64_t (*a)[4], size_t m, int nthreads) {
    (void)blk; (void)a; (void)m; (void)nthreads;
}
void ntt52_from_blocks(uint64_t (*a)[4], const uint64_t *blk, size_t m, int nthreads) {
    (void)blk; (void)a; (void)m; (void)nthreads;
}
void ntt52_core(uint64_t *blk, const ntt52_twiddles *t, const ntt52_field *f, int dif, int nthreads) {
    (void)blk; (void)t; (void)f; (void)dif; (void)nthreads;
}
void ntt52_brscale(uint64_t *blk, const ntt52_scale *s, const ntt52_field *f, int nthreads) {
    (void)blk; (void)s; (void)f; (void)nthreads;
}

#endif
