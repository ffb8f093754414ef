/* Poseidon constants, the plain permutation, neptune's optimised form and circuit (poseidon.h). */
#include "gadgets/poseidon.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PT_MAX 12

/* ---- Grain LFSR round constants ---- */
typedef struct { uint8_t s[80]; int head; } grain;
static int grain_bit(grain *g) {
    const uint8_t *s = g->s;
    int h = g->head;
#define AT(k) s[(h + (k)) % 80]
    int b = AT(62) ^ AT(51) ^ AT(38) ^ AT(23) ^ AT(13) ^ AT(0);
#undef AT
    g->s[h] = (uint8_t)b;
    g->head = (h + 1) % 80;
    return b;
}
static int grain_next(grain *g) {
    for (;;) {
        int b = grain_bit(g);
        if (b) return grain_bit(g);
        grain_bit(g);
    }
}
static void grain_constants(fr *out, int t, int rf, int rp) {
    grain g = {{0}, 0};
    int n = 0;
    struct { int bits; uint32_t v; } init[7] = {{2, 1}, {4, 1}, {12, 255}, {12, (uint32_t)t}, {10, (uint32_t)rf},
                                                {10, (uint32_t)rp}, {30, (1u << 30) - 1}};
    for (int k = 0; k < 7; k++)
        for (int i = init[k].bits - 1; i >= 0; i--) g.s[n++] = (init[k].v >> i) & 1;
    for (int i = 0; i < 160; i++) grain_bit(&g);
    int got = 0, need = (rf + rp) * t;
    while (got < need) {
        uint64_t c[4] = {0, 0, 0, 0};
        for (int i = 254; i >= 0; i--)
            if (grain_next(&g)) c[i / 64] |= 1ull << (i % 64);
        if (fr_is_canon(c)) fr_from_canon(&out[got++], c);
    }
}

/* ---- small matrices over Fr (t <= 12), row-major m[i * t + j] ---- */
static void mat_mul(fr *r, const fr *a, const fr *b, int t) {
    fr tmp[PT_MAX * PT_MAX], x;
    for (int i = 0; i < t; i++)
        for (int j = 0; j < t; j++) {
            fr_zero(&tmp[i * t + j]);
            for (int k = 0; k < t; k++) {
                fr_mul(&x, &a[i * t + k], &b[k * t + j]);
                fr_add(&tmp[i * t + j], &tmp[i * t + j], &x);
            }
        }
    memcpy(r, tmp, sizeof(fr) * (size_t)(t * t));
}
static bool mat_inv(fr *r, const fr *m, int t) {
    fr a[PT_MAX][2 * PT_MAX], x;
    for (int i = 0; i < t; i++)
        for (int j = 0; j < 2 * t; j++) {
            if (j < t) a[i][j] = m[i * t + j];
            else if (j - t == i) fr_one(&a[i][j]);
            else fr_zero(&a[i][j]);
        }
    for (int c = 0; c < t; c++) {
        int p = c;
        while (p < t && fr_is_zero(&a[p][c])) p++;
        if (p == t) return false;
        if (p != c) for (int j = 0; j < 2 * t; j++) { x = a[c][j]; a[c][j] = a[p][j]; a[p][j] = x; }
        fr iv;
        fr_inv(&iv, &a[c][c]);
        for (int j = 0; j < 2 * t; j++) fr_mul(&a[c][j], &a[c][j], &iv);
        for (int r2 = 0; r2 < t; r2++) {
            if (r2 == c || fr_is_zero(&a[r2][c])) continue;
            fr f = a[r2][c];
            for (int j = 0; j < 2 * t; j++) { fr_mul(&x, &f, &a[c][j]); fr_sub(&a[r2][j], &a[r2][j], &x); }
        }
    }
    for (int i = 0; i < t; i++)
        for (int j = 0; j < t; j++) r[i * t + j] = a[i][t + j];
    return true;
}
/* out[i] = sum_j m[i][j] v[j] (n x n) */
static void left_apply(fr *out, const fr *m, const fr *v, int n) {
    fr tmp[PT_MAX], x;
    for (int i = 0; i < n; i++) {
        fr_zero(&tmp[i]);
        for (int j = 0; j < n; j++) { fr_mul(&x, &m[i * n + j], &v[j]); fr_add(&tmp[i], &tmp[i], &x); }
    }
    memcpy(out, tmp, sizeof(fr) * (size_t)n);
}

static poseidon_consts g_consts[4];
static bool g_ok[4];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static const int g_arities[4] = {2, 4, 8, 11};
static const int g_rp[4] = {55, 56, 57, 57};

static bool build(poseidon_consts *pc, int arity, int rp) {
    int t = arity + 1, rf = 8, h = rf / 2;
    pc->arity = arity; pc->t = t; pc->rf = rf; pc->rp = rp;
    fr_from_u64(&pc->tag, (1ull << arity) - 1);
    pc->rc = malloc(sizeof(fr) * (size_t)((rf + rp) * t));
    pc->mds = malloc(sizeof(fr) * (size_t)(t * t));
    pc->crc = malloc(sizeof(fr) * (size_t)(rf * t + rp));
    pc->pre_sparse = malloc(sizeof(fr) * (size_t)(t * t));
    pc->w_hat = malloc(sizeof(fr) * (size_t)(rp * t));
    pc->v_rest = malloc(sizeof(fr) * (size_t)(rp * (t - 1)));
    if (!pc->rc || !pc->mds || !pc->crc || !pc->pre_sparse || !pc->w_hat || !pc->v_rest) return false;
    grain_constants(pc->rc, t, rf, rp);
    for (int i = 0; i < t; i++)
        for (int j = 0; j < t; j++) {
            fr x;
            fr_from_u64(&x, (uint64_t)(i + t + j));
            fr_inv(&pc->mds[i * t + j], &x);
        }
    /* compressed round constants (neptune preprocessing.rs compress_round_constants) */
    fr minv[PT_MAX * PT_MAX];
    if (!mat_inv(minv, pc->mds, t)) return false;
    const fr *rc = pc->rc;
#define RK(r) (rc + (size_t)(r) * t)
    int n = 0;
    for (int i = 0; i < t; i++) pc->crc[n++] = RK(0)[i];
    for (int i = 0; i < h - 1; i++) { left_apply(pc->crc + n, minv, RK(i + 1), t); n += t; }
    fr acc[PT_MAX], x[PT_MAX], partial[64];
    memcpy(acc, RK(h + rp), sizeof(fr) * (size_t)t);
    for (int i = 0; i < rp; i++) {
        const fr *prev = RK(h + rp - i - 1);
        left_apply(x, minv, acc, t);
        partial[i] = x[0];
        fr_zero(&x[0]);
        for (int k = 0; k < t; k++) fr_add(&acc[k], &prev[k], &x[k]);
    }
    left_apply(pc->crc + n, minv, acc, t);
    n += t;
    for (int i = rp - 1; i >= 0; i--) pc->crc[n++] = partial[i];
    for (int i = 1; i < h; i++) { left_apply(pc->crc + n, minv, RK(i + h + rp), t); n += t; }
#undef RK
    if (n != rf * t + rp) return false;
    /* sparse factorisation of transpose(M) (neptune mds.rs factor_to_sparse_matrixes) */
    fr base[PT_MAX * PT_MAX], cur[PT_MAX * PT_MAX], prime[PT_MAX * PT_MAX];
    for (int i = 0; i < t; i++)
        for (int j = 0; j < t; j++) base[i * t + j] = pc->mds[j * t + i];
    memcpy(cur, base, sizeof(fr) * (size_t)(t * t));
    int tm = t - 1;
    for (int k = 0; k < rp; k++) {
        fr hat[PT_MAX * PT_MAX], hat_inv[PT_MAX * PT_MAX], w[PT_MAX], w_hat[PT_MAX];
        for (int i = 0; i < tm; i++)
            for (int j = 0; j < tm; j++) hat[i * tm + j] = cur[(i + 1) * t + j + 1];
        if (!mat_inv(hat_inv, hat, tm)) return false;
        for (int i = 0; i < tm; i++) w[i] = cur[(i + 1) * t];
        left_apply(w_hat, hat_inv, w, tm);
        /* m'' (stored reversed: index rp - 1 - k): first column [m00, w_hat], first row [m00, v] */
        int slot = rp - 1 - k;
        pc->w_hat[slot * t] = cur[0];
        for (int i = 1; i < t; i++) pc->w_hat[slot * t + i] = w_hat[i - 1];
        for (int j = 1; j < t; j++) pc->v_rest[slot * tm + j - 1] = cur[j];
        /* m' = [[1, 0...], [0, cur[1..][1..]]] */
        for (int i = 0; i < t; i++)
            for (int j = 0; j < t; j++) {
                if (i == 0 || j == 0) { if (i == j) fr_one(&prime[0]); else fr_zero(&prime[i * t + j]); }
                else prime[i * t + j] = cur[i * t + j];
            }
        mat_mul(cur, base, prime, t);
    }
    memcpy(pc->pre_sparse, cur, sizeof(fr) * (size_t)(t * t));
    return true;
}

static void build_all(void) {
    for (int k = 0; k < 4; k++) g_ok[k] = build(&g_consts[k], g_arities[k], g_rp[k]);
}

const poseidon_consts *poseidon_consts_get(int arity) {
    pthread_once(&g_once, build_all);
    for (int k = 0; k < 4; k++)
        if (g_arities[k] == arity) return g_ok[k] ? &g_consts[k] : NULL;
    return NULL;
}

static void sbox(fr *x) {
    fr x2, x4;
    fr_sqr(&x2, x);
    fr_sqr(&x4, &x2);
    fr_mul(x, &x4, x);
}

bool poseidon_hash_plain_tag(fr *out, const fr *in, int arity, const fr *tag) {
    const poseidon_consts *pc = poseidon_consts_get(arity);
    if (!pc) return false;
    int t = pc->t;
    fr s[PT_MAX], ns[PT_MAX], x;
    s[0] = tag ? *tag : pc->tag;
    for (int i = 0; i < arity; i++) s[i + 1] = in[i];
    for (int r = 0; r < pc->rf + pc->rp; r++) {
        for (int i = 0; i < t; i++) fr_add(&s[i], &s[i], &pc->rc[r * t + i]);
        if (r < pc->rf / 2 || r >= pc->rf / 2 + pc->rp) for (int i = 0; i < t; i++) sbox(&s[i]);
        else sbox(&s[0]);
        for (int i = 0; i < t; i++) {
            fr_zero(&ns[i]);
            for (int j = 0; j < t; j++) { fr_mul(&x, &pc->mds[i * t + j], &s[j]); fr_add(&ns[i], &ns[i], &x); }
        }
        memcpy(s, ns, sizeof(fr) * (size_t)t);
    }
    *out = s[1];
    return true;
}

/* s = transpose(m) s, m t x t row-major (the gadget's orientation: new[j] = sum_i s[i] m[i][j]) */
static void full_product(fr *s, const fr *m, int t) {
    fr ns[PT_MAX], x;
    for (int j = 0; j < t; j++) {
        fr_mul(&ns[j], &s[0], &m[j]);
        for (int i = 1; i < t; i++) { fr_mul(&x, &s[i], &m[i * t + j]); fr_add(&ns[j], &ns[j], &x); }
    }
    memcpy(s, ns, sizeof(fr) * (size_t)t);
}

/* The value arithmetic of poseidon_gadget below, without the constraints: the same rounds, the
 * same compressed constants and matrices, in the same order. */
bool poseidon_hash_tag(fr *out, const fr *in, int arity, const fr *tag) {
    const poseidon_consts *pc = poseidon_consts_get(arity);
    if (!pc) return false;
    int t = pc->t, rp = pc->rp, h = pc->rf / 2;
    fr s[PT_MAX], x;
    s[0] = tag ? *tag : pc->tag;
    for (int i = 0; i < arity; i++) s[i + 1] = in[i];
    const fr *k = pc->crc;
    /* first half of the full rounds: the first adds a key before its S-boxes too; the last of
     * them multiplies by the pre-sparse matrix */
    for (int i = 0; i < t; i++) fr_add(&s[i], &s[i], &k[i]);
    k += t;
    for (int r = 0; r < h; r++) {
        for (int i = 0; i < t; i++) { sbox(&s[i]); fr_add(&s[i], &s[i], &k[i]); }
        k += t;
        full_product(s, r == h - 1 ? pc->pre_sparse : pc->mds, t);
    }
    /* partial rounds: one S-box, one key, the sparse matrix (w_hat row, v_rest column) */
    for (int r = 0; r < rp; r++) {
        sbox(&s[0]);
        fr_add(&s[0], &s[0], &k[0]);
        k += 1;
        const fr *w = pc->w_hat + (size_t)r * t, *v = pc->v_rest + (size_t)r * (t - 1);
        fr s0 = s[0], n0;
        fr_mul(&n0, &s[0], &w[0]);
        for (int i = 1; i < t; i++) { fr_mul(&x, &s[i], &w[i]); fr_add(&n0, &n0, &x); }
        for (int j = 1; j < t; j++) { fr_mul(&x, &s0, &v[j - 1]); fr_add(&s[j], &s[j], &x); }
        s[0] = n0;
    }
    /* second half: keys after the S-boxes except in the last round */
    for (int r = 0; r < h; r++) {
        bool last = r == h - 1;
        for (int i = 0; i < t; i++) {
            sbox(&s[i]);
            if (!last) fr_add(&s[i], &s[i], &k[i]);
        }
        if (!last) k += t;
        full_product(s, pc->mds, t);
    }
    *out = s[1];
    return true;
}

/* ---- the circuit (neptune circuit.rs) ---- */
typedef struct { bool alloc; cs_var var; fr val; cs_lc lc; } elt;

/* dst (a Num) += coef * e */
static void num_add_scaled(cs *cs, elt *dst, const elt *e, const fr *coef) {
    fr x;
    fr_mul(&x, &e->val, coef);
    fr_add(&dst->val, &dst->val, &x);
    if (e->alloc) cs_lc_add(cs, &dst->lc, e->var, coef);
    else cs_lc_add_lc(cs, &dst->lc, &e->lc, coef);
}

static void ensure_allocated(cs *cs, elt *e) {
    if (e->alloc) return;
    cs_var v = cs_alloc(cs, &e->val);
    cs_lc *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    cs_lc_add(cs, B, CS_ONE, NULL);
    cs_lc_add(cs, C, v, NULL);
    cs_enforce(cs, &e->lc, B, C);
    e->alloc = true;
    e->var = v;
    e->lc.n = 0;
}

/* l4 * (l + pre) + post with its constraint (mul_sum); pre/post may be NULL */
static cs_var mul_sum(cs *cs, fr *val, cs_var l4, const fr *l4v, cs_var l, const fr *lv, const fr *pre, const fr *post) {
    fr v = *lv;
    if (pre) fr_add(&v, &v, pre);
    fr_mul(&v, &v, l4v);
    if (post) fr_add(&v, &v, post);
    cs_var r = cs_alloc(cs, &v);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    cs_lc_add(cs, A, l, NULL);
    if (pre) cs_lc_add(cs, A, CS_ONE, pre);
    cs_lc_add(cs, B, l4, NULL);
    cs_lc_add(cs, C, r, NULL);
    if (post) { fr n; fr_neg(&n, post); cs_lc_add(cs, C, CS_ONE, &n); }
    cs_enforce(cs, A, B, C);
    *val = v;
    return r;
}

static void square_var(cs *cs, cs_var *rv, fr *rval, cs_var a, const fr *av, const fr *pre) {
    fr v = *av;
    if (pre) fr_add(&v, &v, pre);
    fr_sqr(&v, &v);
    cs_var r = cs_alloc(cs, &v);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    cs_lc_add(cs, A, a, NULL);
    if (pre) cs_lc_add(cs, A, CS_ONE, pre);
    cs_lc_add(cs, B, a, NULL);
    if (pre) cs_lc_add(cs, B, CS_ONE, pre);
    cs_lc_add(cs, C, r, NULL);
    cs_enforce(cs, A, B, C);
    *rv = r;
    *rval = v;
}

/* quintic S-box of e with an optional post key (and pre key, first round) */
static void quintic(cs *cs, elt *e, const fr *pre, const fr *post) {
    ensure_allocated(cs, e);
    cs_var l = e->var, l2, l4;
    fr lv = e->val, l2v, l4v, l5v;
    square_var(cs, &l2, &l2v, l, &lv, pre);
    square_var(cs, &l4, &l4v, l2, &l2v, NULL);
    cs_var l5 = mul_sum(cs, &l5v, l4, &l4v, l, &lv, pre, post);
    e->alloc = true;
    e->var = l5;
    e->val = l5v;
    e->lc.n = 0;
}

static void set_const_num(cs *cs, elt *e, const fr *v) {
    e->alloc = false;
    e->val = *v;
    e->lc.n = 0;
    cs_lc_add(cs, &e->lc, CS_ONE, v);
}

cs_num poseidon_gadget(cs *cs, const cs_num *in, int arity) { return poseidon_gadget_tag(cs, in, arity, NULL); }

cs_num poseidon_gadget_tag(cs *cs, const cs_num *in, int arity, const fr *tag) {
    cs_num res = {CS_AUX, {{0}}};
    const poseidon_consts *pc = poseidon_consts_get(arity);
    if (!pc) { cs_fail(cs, CUZK_ERR_UNSUPPORTED, "poseidon: arity %d", arity); return res; }
    int t = pc->t, rp = pc->rp;
    elt el[PT_MAX], nw[PT_MAX];
    memset(el, 0, sizeof el);
    memset(nw, 0, sizeof nw);
    set_const_num(cs, &el[0], tag ? tag : &pc->tag);
    for (int i = 0; i < arity; i++) { el[i + 1].alloc = true; el[i + 1].var = in[i].var; el[i + 1].val = in[i].value; }
    const fr *k = pc->crc;
    int round = 0;
    for (int fr_round = 0; fr_round < 4 + rp + 4; fr_round++) {
        bool first = fr_round == 0, partial = fr_round >= 4 && fr_round < 4 + rp, last = fr_round == 4 + rp + 3;
        if (first) {
            const fr *pre = k, *post = k + t;
            fr tg = el[0].val;
            fr_add(&tg, &tg, &pre[0]);
            sbox(&tg);
            fr_add(&tg, &tg, &post[0]);
            set_const_num(cs, &el[0], &tg);
            for (int i = 1; i < t; i++) quintic(cs, &el[i], &pre[i], &post[i]);
            k += 2 * t;
        } else if (partial) {
            quintic(cs, &el[0], NULL, k);
            k += 1;
        } else {
            for (int i = 0; i < t; i++) quintic(cs, &el[i], NULL, last ? NULL : &k[i]);
            if (!last) k += t;
        }
        /* MDS product */
        if (round >= 4 && round < 4 + rp) {
            /* sparse: new[0] = sum w_hat[i] el[i]; new[j] = el[j] + v_rest[j-1] el[0] (in place) */
            const fr *w = pc->w_hat + (size_t)(round - 4) * t, *v = pc->v_rest + (size_t)(round - 4) * (t - 1);
            nw[0].alloc = false; fr_zero(&nw[0].val); nw[0].lc.n = 0;
            for (int i = 0; i < t; i++) num_add_scaled(cs, &nw[0], &el[i], &w[i]);
            for (int j = 1; j < t; j++) {
                if (el[j].alloc) {   /* never after the pre-sparse product; kept general */
                    elt tmp = {false, 0, {{0}}, el[j].lc};
                    tmp.lc.n = 0;
                    num_add_scaled(cs, &tmp, &el[j], &cs->one);
                    el[j] = tmp;
                }
                num_add_scaled(cs, &el[j], &el[0], &v[j - 1]);
            }
            elt tmp = el[0]; el[0] = nw[0]; nw[0] = tmp;
            round++;
            continue;
        } else {
            const fr *m = round == 3 ? pc->pre_sparse : pc->mds;
            for (int j = 0; j < t; j++) {
                nw[j].alloc = false; fr_zero(&nw[j].val); nw[j].lc.n = 0;
                for (int i = 0; i < t; i++) num_add_scaled(cs, &nw[j], &el[i], &m[i * t + j]);
            }
        }
        for (int i = 0; i < t; i++) { elt tmp = el[i]; el[i] = nw[i]; nw[i] = tmp; }
        round++;
    }
    ensure_allocated(cs, &el[1]);
    res.var = el[1].var;
    res.value = el[1].val;
    for (int i = 0; i < t; i++) { cs_lc_free(&el[i].lc); cs_lc_free(&nw[i].lc); }
    return res;
}
