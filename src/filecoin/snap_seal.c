/* The update of a sector sealed in memory, and its vanilla partition proofs (snap_seal.h). */
#include "filecoin/snap_seal.h"

#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "gadgets/poseidon.h"
#include "util/log.h"
#include "util/parallel.h"

void snap_update_free(snap_update *u) {
    if (!u) return;
    free(u->data);
    free(u->tree_d);
    free(u->tree_r_old);
    free(u->tree_r_new);
    memset(u, 0, sizeof *u);
}

typedef struct enc_ctx {
    snap_update *u;
    const fr *rhos;             /* 2^h */
    int shr;                    /* log2(nodes) - h */
    int level;                  /* tree passes: the level hashed into level + 1 */
    int arity;
    uint64_t d_off, d_size;     /* tree D: the level's first entry and size */
} enc_ctx;

static void encode_range(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    enc_ctx *c = ctx;
    snap_update *u = c->u;
    for (size_t v = b; v < e; v++) {
        fr d, x;
        (void)fr_from_bytes_le(&d, u->data[v], 32);   /* fr32-padded: below the modulus */
        fr_mul(&x, &d, &c->rhos[v >> c->shr]);
        fr_add(&u->tree_r_new[v], &u->tree_r_old[v], &x);
    }
}

static void tree_r_range(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    enc_ctx *c = ctx;
    const fr *lo = c->u->tree_r_new + c->u->tree_offset[c->level];
    fr *hi = c->u->tree_r_new + c->u->tree_offset[c->level + 1];
    for (size_t p = b; p < e; p++) poseidon_hash(&hi[p], lo + p * (size_t)c->arity, c->arity);
}

static void tree_d_range(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    enc_ctx *c = ctx;
    uint8_t (*lo)[32] = c->u->tree_d + c->d_off, (*hi)[32] = c->u->tree_d + c->d_off + c->d_size;
    for (size_t p = b; p < e; p++) porep_sha256_node(hi[p], lo[2 * p], lo[2 * p + 1]);
}

static bool same_shape(const merkle_shape *a, const merkle_shape *b) {
    return a->base_arity == b->base_arity && a->base_levels == b->base_levels && a->sub_arity == b->sub_arity &&
           a->top_arity == b->top_arity;
}

cuzk_status snap_update_encode(snap_update *out, const snap_params *sp, const porep_sector *old, const uint8_t *data_new,
                               int nthreads, cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!out || !sp || !old || !data_new) return ERR(err, CUZK_ERR_ARG, "snap update: NULL argument");
    if (!old->tree_r || !old->tree_c) return ERR(err, CUZK_ERR_ARG, "snap update: the old sector is not sealed (porep_seal)");
    if (old->nodes != sp->nodes || !same_shape(&old->pp.shape, &sp->shape) || old->tree_levels != merkle_levels(&sp->shape))
        return ERR(err, CUZK_ERR_ARG, "snap update: the sealed sector (%llu bytes) is not of the update's size and tree shape (%llu bytes)",
                   (unsigned long long)old->pp.sector_size, (unsigned long long)sp->sector_size);
    uint64_t n = sp->nodes;
    for (uint64_t v = 0; v < n; v++)
        if (data_new[32 * v + 31] & 0xc0)
            return ERR(err, CUZK_ERR_ARG, "snap update: new data node %llu is not fr32-padded (top two bits of byte %llu set)",
                       (unsigned long long)v, (unsigned long long)(32 * v + 31));
    snap_update *u = out;
    u->sp = *sp;
    u->nodes = n;
    u->tree_levels = old->tree_levels;
    memcpy(u->tree_offset, old->tree_offset, sizeof u->tree_offset);
    size_t tree_len = (size_t)old->tree_offset[old->tree_levels] + 1;
    int h = sp->h;
    u->data = malloc(n * 32);
    u->tree_d = malloc((2 * n - 1) * 32);
    u->tree_r_old = malloc(tree_len * sizeof(fr));
    u->tree_r_new = malloc(tree_len * sizeof(fr));
    fr *rhos = malloc(((size_t)1 << h) * sizeof *rhos);
    if (!u->data || !u->tree_d || !u->tree_r_old || !u->tree_r_new || !rhos) {
        free(rhos);
        snap_update_free(u);
        return ERR(err, CUZK_ERR_NOMEM, "snap update: out of memory for a %llu-byte sector", (unsigned long long)sp->sector_size);
    }
    memcpy(u->data, data_new, n * 32);
    memcpy(u->tree_r_old, old->tree_r, tree_len * sizeof(fr));
    memcpy(u->comm_c, old->comm_c, 32);
    memcpy(u->comm_r_last_old, old->comm_r_last, 32);
    memcpy(u->pub.comm_r_old, old->comm_r, 32);

    /* tree D new */
    memcpy(u->tree_d, data_new, n * 32);
    uint64_t off = 0, sz = n;
    for (int l = 0; l < sp->challenge_bit_len; l++) {
        enc_ctx c = {u, NULL, 0, l, 2, off, sz};
        parallel_for((size_t)(sz / 2), nthreads, tree_d_range, &c);
        off += sz;
        sz /= 2;
    }
    memcpy(u->pub.comm_d_new, u->tree_d[2 * n - 2], 32);

    /* phi, the rhos, the new replica */
    fr phi, cdn, cro;
    (void)fr_from_bytes_le(&cdn, u->pub.comm_d_new, 32);
    (void)fr_from_bytes_le(&cro, u->pub.comm_r_old, 32);
    snap_phi(&phi, &cdn, &cro);
    for (uint32_t hi = 0; hi < (1u << h); hi++) snap_rho(&rhos[hi], &phi, hi);
    enc_ctx ec = {u, rhos, sp->challenge_bit_len - h, 0, 0, 0, 0};
    parallel_for((size_t)n, nthreads, encode_range, &ec);
    free(rhos);

    /* tree R new, comm_r_new */
    for (int l = 0; l < u->tree_levels; l++) {
        int a = merkle_level_arity(&sp->shape, l);
        enc_ctx c = {u, NULL, 0, l, a, 0, 0};
        parallel_for((size_t)(u->tree_offset[l + 1] - u->tree_offset[l]) / (size_t)a, nthreads, tree_r_range, &c);
    }
    fr in[2], crn;
    (void)fr_from_bytes_le(&in[0], u->comm_c, 32);
    in[1] = u->tree_r_new[tree_len - 1];
    fr_to_bytes_le(u->comm_r_last_new, 32, &in[1]);
    poseidon_hash(&crn, in, 2);
    fr_to_bytes_le(u->pub.comm_r_new, 32, &crn);
    return CUZK_OK;
}

static void tree_r_path(const snap_update *u, const fr *tree, uint64_t node, merkle_path *p, fr *leaf) {
    uint64_t pos = node;
    for (int l = 0; l < u->tree_levels; l++) {
        uint64_t a = (uint64_t)merkle_level_arity(&u->sp.shape, l), idx = pos % a, first = u->tree_offset[l] + pos - idx;
        p->index[l] = (uint32_t)idx;
        int k = 0;
        for (uint64_t i = 0; i < a; i++)
            if (i != idx) p->siblings[l][k++] = tree[first + i];
        pos /= a;
    }
    *leaf = tree[node];
}

static void tree_d_path(const snap_update *u, uint64_t node, merkle_path *p, fr *leaf) {
    uint64_t off = 0, sz = u->nodes, pos = node;
    (void)fr_from_bytes_le(leaf, u->tree_d[node], 32);
    for (int l = 0; l < u->sp.challenge_bit_len; l++) {
        p->index[l] = (uint32_t)(pos & 1);
        (void)fr_from_bytes_le(&p->siblings[l][0], u->tree_d[off + (pos ^ 1)], 32);
        off += sz;
        sz >>= 1;
        pos >>= 1;
    }
}

cuzk_status snap_update_partition_proof(snap_partition_proof *out, const snap_update *u, uint32_t k, cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!out || !u || !u->tree_d) return ERR(err, CUZK_ERR_ARG, "snap update proof: NULL argument");
    const snap_params *sp = &u->sp;
    uint32_t ch[SNAP_MAX_CHALLENGES];
    cuzk_status st = snap_challenges(ch, sp, u->pub.comm_r_new, k, err);
    if (st != CUZK_OK) return st;
    out->proofs = calloc((size_t)sp->challenges, sizeof *out->proofs);
    if (!out->proofs) return ERR(err, CUZK_ERR_NOMEM, "snap update proof: out of memory");
    out->n_challenges = (uint32_t)sp->challenges;
    (void)fr_from_bytes_le(&out->comm_c, u->comm_c, 32);
    /* the apex row: partitions x apex_leaves nodes */
    uint64_t off = 0, sz = u->nodes;
    while (sz > (uint64_t)sp->partitions * (uint64_t)sp->apex_leaves) { off += sz; sz >>= 1; }
    for (int i = 0; i < sp->apex_leaves; i++)
        (void)fr_from_bytes_le(&out->apex_leafs[i], u->tree_d[off + (uint64_t)k * (uint64_t)sp->apex_leaves + (uint64_t)i], 32);
    size_t tree_len = (size_t)u->tree_offset[u->tree_levels] + 1;
    fr cdn;
    (void)fr_from_bytes_le(&cdn, u->pub.comm_d_new, 32);
    for (int c = 0; c < sp->challenges; c++) {
        snap_challenge_proof *q = &out->proofs[c];
        tree_r_path(u, u->tree_r_old, ch[c], &q->path_r_old, &q->leaf_r_old);
        q->root_r_old = u->tree_r_old[tree_len - 1];
        tree_d_path(u, ch[c], &q->path_d_new, &q->leaf_d_new);
        q->root_d_new = cdn;
        tree_r_path(u, u->tree_r_new, ch[c], &q->path_r_new, &q->leaf_r_new);
        q->root_r_new = u->tree_r_new[tree_len - 1];
    }
    return CUZK_OK;
}

/* ---- sparse updates ------------------------------------------------------------------------- */

enum { T_D = 0, T_OLD = 1, T_NEW = 2 };

typedef struct memo_ent { uint64_t k0, k1; uint8_t val[32]; uint8_t used; } memo_ent;

struct snap_sparse {
    snap_params sp;
    snap_public pub;
    uint8_t salt[32];
    fr *rhos;               /* 2^h */
    int block_log, period_log;
    memo_ent *tab;
    size_t cap, n;
    bool oom;
};

static void sparse_prf(uint8_t out[32], const uint8_t salt[32], uint8_t tag, uint64_t a, uint64_t b) {
    uint8_t buf[32 + 16 + 1 + 16];
    memcpy(buf, salt, 32);
    memcpy(buf + 32, "cuzk sparse snap", 16);
    buf[48] = tag;
    for (int i = 0; i < 8; i++) buf[49 + i] = (uint8_t)(a >> (8 * i));
    for (int i = 0; i < 8; i++) buf[57 + i] = (uint8_t)(b >> (8 * i));
    SHA256(buf, sizeof buf, out);
    out[31] &= 0x3f;
}

static int tree_levels(const snap_sparse *s, int tree) {
    return tree == T_D ? s->sp.challenge_bit_len : merkle_levels(&s->sp.shape);
}
static int tree_arity(const snap_sparse *s, int tree, int level) {
    return tree == T_D ? 2 : merkle_level_arity(&s->sp.shape, level);
}
/* log2 of the leaves under a node of level */
static int leaves_log(const snap_sparse *s, int tree, int level) {
    int k = 0;
    for (int l = 0; l < level; l++) {
        int a = tree_arity(s, tree, l);
        while (a > 1) { a >>= 1; k++; }
    }
    return k;
}

static uint64_t mix64(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
    return x;
}

static memo_ent *memo_find(snap_sparse *s, uint64_t k0, uint64_t k1) {
    size_t i = (size_t)(mix64(k0 * 0x9e3779b97f4a7c15ull ^ k1)) & (s->cap - 1);
    while (s->tab[i].used && (s->tab[i].k0 != k0 || s->tab[i].k1 != k1)) i = (i + 1) & (s->cap - 1);
    return &s->tab[i];
}

static void memo_put(snap_sparse *s, uint64_t k0, uint64_t k1, const uint8_t val[32]) {
    if (s->oom) return;
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap * 2;
        memo_ent *old = s->tab, *t = calloc(cap, sizeof *t);
        if (!t) { s->oom = true; return; }
        s->tab = t;
        size_t oc = s->cap;
        s->cap = cap;
        for (size_t i = 0; i < oc; i++)
            if (old[i].used) *memo_find(s, old[i].k0, old[i].k1) = old[i];
        free(old);
    }
    memo_ent *e = memo_find(s, k0, k1);
    e->k0 = k0;
    e->k1 = k1;
    memcpy(e->val, val, 32);
    e->used = 1;
    s->n++;
}

static void sparse_leaf(snap_sparse *s, int tree, uint64_t v, uint8_t out[32]) {
    uint64_t b = v >> s->block_log, o = v & ((1ull << s->period_log) - 1);
    if (tree == T_D) { sparse_prf(out, s->salt, 'd', b, o); return; }
    sparse_prf(out, s->salt, 'o', b, o);
    if (tree == T_OLD) return;
    uint8_t db[32];
    fr r, d;
    sparse_prf(db, s->salt, 'd', b, o);
    (void)fr_from_bytes_le(&r, out, 32);
    (void)fr_from_bytes_le(&d, db, 32);
    fr_mul(&d, &d, &s->rhos[snap_high(&s->sp, v)]);
    fr_add(&r, &r, &d);
    fr_to_bytes_le(out, 32, &r);
}

static void sparse_node(snap_sparse *s, int tree, int level, uint64_t pos, uint8_t out[32]) {
    if (level == 0) { sparse_leaf(s, tree, pos, out); return; }
    int sl = leaves_log(s, tree, level);
    uint64_t first = pos << sl, kind, a, b = 0;
    if (sl < s->period_log) { kind = 0; a = first >> s->block_log; b = (first & ((1ull << s->period_log) - 1)) >> sl; }
    else if (sl <= s->block_log) { kind = 1; a = first >> s->block_log; }
    else { kind = 2; a = pos; }
    uint64_t k0 = (uint64_t)tree | (uint64_t)level << 8 | kind << 16, k1 = a << 10 | b;
    memo_ent *e = memo_find(s, k0, k1);
    if (e->used) { memcpy(out, e->val, 32); return; }
    int ar = tree_arity(s, tree, level - 1);
    uint8_t ch[16][32];
    for (int i = 0; i < ar; i++) sparse_node(s, tree, level - 1, pos * (uint64_t)ar + (uint64_t)i, ch[i]);
    if (tree == T_D) {
        porep_sha256_node(out, ch[0], ch[1]);
    } else {
        fr in[16], h;
        for (int i = 0; i < ar; i++) (void)fr_from_bytes_le(&in[i], ch[i], 32);
        poseidon_hash(&h, in, ar);
        fr_to_bytes_le(out, 32, &h);
    }
    memo_put(s, k0, k1, out);
}

bool snap_sparse_node(snap_sparse *s, int tree, int level, uint64_t pos, uint8_t out[32]) {
    memset(out, 0, 32);
    if (!s || tree < 0 || tree > 2 || level < 0 || level > tree_levels(s, tree)) return false;
    if (pos >= s->sp.nodes >> leaves_log(s, tree, level)) return false;
    sparse_node(s, tree, level, pos, out);
    return !s->oom;
}

void snap_sparse_free(snap_sparse *s) {
    if (!s) return;
    free(s->rhos);
    free(s->tab);
    free(s);
}

const snap_public *snap_sparse_public(const snap_sparse *s) { return &s->pub; }

cuzk_status snap_sparse_make(snap_sparse **out, const snap_params *sp, const uint8_t salt[32], cuzk_error *err) {
    if (out) *out = NULL;
    if (!out || !sp || !salt) return ERR(err, CUZK_ERR_ARG, "sparse snap update: NULL argument");
    snap_sparse *s = calloc(1, sizeof *s);
    if (!s) return ERR(err, CUZK_ERR_NOMEM, "sparse snap update: out of memory");
    s->sp = *sp;
    memcpy(s->salt, salt, 32);
    int cbl = sp->challenge_bit_len, coarse = sp->h > sp->partition_bit_len + sp->apex_bit_len ? sp->h : sp->partition_bit_len + sp->apex_bit_len;
    if (coarse > cbl) coarse = cbl;
    s->block_log = cbl - coarse;
    s->period_log = s->block_log < 6 ? s->block_log : 6;
    s->cap = 1024;
    s->tab = calloc(s->cap, sizeof *s->tab);
    s->rhos = malloc(((size_t)1 << sp->h) * sizeof *s->rhos);
    if (!s->tab || !s->rhos) { snap_sparse_free(s); return ERR(err, CUZK_ERR_NOMEM, "sparse snap update: out of memory"); }
    uint8_t b[32];
    fr comm_c, in[2], h, phi, cdn, cro;
    sparse_prf(b, salt, 'c', 0, 0);
    (void)fr_from_bytes_le(&comm_c, b, 32);
    sparse_node(s, T_OLD, tree_levels(s, T_OLD), 0, b);
    in[0] = comm_c;
    (void)fr_from_bytes_le(&in[1], b, 32);
    poseidon_hash(&cro, in, 2);
    fr_to_bytes_le(s->pub.comm_r_old, 32, &cro);
    sparse_node(s, T_D, tree_levels(s, T_D), 0, s->pub.comm_d_new);
    (void)fr_from_bytes_le(&cdn, s->pub.comm_d_new, 32);
    snap_phi(&phi, &cdn, &cro);
    for (uint32_t hi = 0; hi < (1u << sp->h); hi++) snap_rho(&s->rhos[hi], &phi, hi);
    sparse_node(s, T_NEW, tree_levels(s, T_NEW), 0, b);
    (void)fr_from_bytes_le(&in[1], b, 32);
    poseidon_hash(&h, in, 2);
    fr_to_bytes_le(s->pub.comm_r_new, 32, &h);
    if (s->oom) { snap_sparse_free(s); return ERR(err, CUZK_ERR_NOMEM, "sparse snap update: out of memory"); }
    *out = s;
    return CUZK_OK;
}

static void sparse_path(snap_sparse *s, int tree, uint64_t node, merkle_path *p, fr *leaf, fr *root) {
    uint8_t b[32];
    uint64_t pos = node;
    int L = tree_levels(s, tree);
    for (int l = 0; l < L; l++) {
        uint64_t a = (uint64_t)tree_arity(s, tree, l), idx = pos % a;
        p->index[l] = (uint32_t)idx;
        int k = 0;
        for (uint64_t i = 0; i < a; i++)
            if (i != idx) {
                sparse_node(s, tree, l, pos - idx + i, b);
                (void)fr_from_bytes_le(&p->siblings[l][k++], b, 32);
            }
        pos /= a;
    }
    sparse_node(s, tree, 0, node, b);
    (void)fr_from_bytes_le(leaf, b, 32);
    sparse_node(s, tree, L, 0, b);
    (void)fr_from_bytes_le(root, b, 32);
}

cuzk_status snap_sparse_partition_proof(snap_partition_proof *out, snap_sparse *s, uint32_t k, cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!out || !s) return ERR(err, CUZK_ERR_ARG, "sparse snap proof: NULL argument");
    const snap_params *sp = &s->sp;
    uint32_t ch[SNAP_MAX_CHALLENGES];
    cuzk_status st = snap_challenges(ch, sp, s->pub.comm_r_new, k, err);
    if (st != CUZK_OK) return st;
    out->proofs = calloc((size_t)sp->challenges, sizeof *out->proofs);
    if (!out->proofs) return ERR(err, CUZK_ERR_NOMEM, "sparse snap proof: out of memory");
    out->n_challenges = (uint32_t)sp->challenges;
    uint8_t b[32];
    sparse_prf(b, s->salt, 'c', 0, 0);
    (void)fr_from_bytes_le(&out->comm_c, b, 32);
    int apex_height = sp->challenge_bit_len - sp->partition_bit_len - sp->apex_bit_len;
    for (int i = 0; i < sp->apex_leaves; i++) {
        sparse_node(s, T_D, apex_height, (uint64_t)k * (uint64_t)sp->apex_leaves + (uint64_t)i, b);
        (void)fr_from_bytes_le(&out->apex_leafs[i], b, 32);
    }
    for (int c = 0; c < sp->challenges; c++) {
        snap_challenge_proof *q = &out->proofs[c];
        sparse_path(s, T_OLD, ch[c], &q->path_r_old, &q->leaf_r_old, &q->root_r_old);
        sparse_path(s, T_D, ch[c], &q->path_d_new, &q->leaf_d_new, &q->root_d_new);
        sparse_path(s, T_NEW, ch[c], &q->path_r_new, &q->leaf_r_new, &q->root_r_new);
    }
    if (s->oom) {
        snap_partition_proof_free(out);
        return ERR(err, CUZK_ERR_NOMEM, "sparse snap proof: out of memory");
    }
    return CUZK_OK;
}
