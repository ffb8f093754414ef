/* Sealing small sectors in memory, C1 vanilla proofs, and sparse C1 outputs (porep_seal.h). */
#include "filecoin/porep_seal.h"

#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/parallel.h"

#define SEAL_MAX_NODES (1ull << 24)  /* 512 MiB */
#define SPARSE_DATA_PERIOD_LOG 12    /* sparse data repeat every 2^12 nodes (128 KiB) */

/* ---- small helpers ---------------------------------------------------------------------- */

/* 32 LE bytes with the top two bits clear (labels, SHA-256 digests, data) are always below the
 * modulus: the conversion cannot fail. */
static void fr_of_bytes(fr *r, const uint8_t b[32]) { (void)fr_from_bytes_le(r, b, 32); }
static void bytes_of_fr(uint8_t b[32], const fr *a) { fr_to_bytes_le(b, 32, a); }

/* The level geometry of a Poseidon tree of shape sh: off[l] = first entry of level l (level 0 =
 * leaves), off[levels] = the root's entry. Returns the number of levels. */
static int tree_geometry(const merkle_shape *sh, uint64_t leaves, uint64_t off[MERKLE_MAX_LEVELS + 1]) {
    int levels = merkle_levels(sh);
    uint64_t n = leaves, o = 0;
    for (int l = 0; l <= levels; l++) {
        off[l] = o;
        o += n;
        if (l < levels) n /= (uint64_t)merkle_level_arity(sh, l);
    }
    return levels;
}

/* Checks what sealing and the sparse C1 rely on in pp. */
static cuzk_status check_params(const porep_params *pp, const char *what, cuzk_error *err) {
    if (!pp) return ERR(err, CUZK_ERR_ARG, "%s: NULL parameters", what);
    if (pp->layers != 2 && pp->layers != 11)
        return ERR(err, CUZK_ERR_ARG, "%s: %d layers (the column hash is Poseidon of arity 2 or 11)", what, pp->layers);
    if (pp->nodes < 8 || (pp->nodes & (pp->nodes - 1)) || pp->nodes * 32 != pp->sector_size ||
        (1ull << pp->d_levels) != pp->nodes)
        return ERR(err, CUZK_ERR_ARG, "%s: sector of %llu bytes, %llu nodes, tree D of %d levels do not agree", what,
                   (unsigned long long)pp->sector_size, (unsigned long long)pp->nodes, pp->d_levels);
    if (merkle_levels(&pp->shape) > MERKLE_MAX_LEVELS || merkle_leaves(&pp->shape) != pp->nodes)
        return ERR(err, CUZK_ERR_ARG, "%s: the tree shape has %llu leaves, the sector %llu nodes", what,
                   (unsigned long long)merkle_leaves(&pp->shape), (unsigned long long)pp->nodes);
    if (pp->partitions < 1 || pp->partitions > POREP_MAX_PARTITIONS || pp->challenges < 1 ||
        pp->challenges > POREP_MAX_CHALLENGES)
        return ERR(err, CUZK_ERR_ARG, "%s: %d partitions of %d challenges", what, pp->partitions, pp->challenges);
    return CUZK_OK;
}

/* ---- the C1 vanilla proof of one challenge, from a view of the sector --------------------- */

/* What a challenge proof reads of a sector, sealed (full trees) or sparse. */
typedef struct c1_view {
    const porep_params *pp;
    const void *ctx;
    void (*label)(const void *ctx, uint32_t layer, uint64_t node, uint8_t out[32]);
    void (*data)(const void *ctx, uint64_t node, uint8_t out[32]);
    void (*path_d)(const void *ctx, uint64_t node, merkle_path *p);
    void (*path_c)(const void *ctx, uint64_t node, merkle_path *p, fr *leaf);
    void (*path_r)(const void *ctx, uint64_t node, merkle_path *p, fr *leaf);
    fr comm_d, comm_c, comm_r_last;
    const uint64_t *challenges; /* n_partitions * n_challenges */
    porep_challenge_proof *proofs;
} c1_view;

static void column_proof(const c1_view *v, uint64_t node, porep_column_proof *out) {
    out->index = (uint32_t)node;
    for (int l = 1; l <= v->pp->layers; l++) {
        uint8_t b[32];
        v->label(v->ctx, (uint32_t)l, node, b);
        fr_of_bytes(&out->rows[l - 1], b);
    }
    v->path_c(v->ctx, node, &out->path, &out->leaf); /* the tree's leaf: the column's hash */
    out->root = v->comm_c;
}

static void challenge_proof(const c1_view *v, uint64_t c, porep_challenge_proof *out) {
    const porep_params *pp = v->pp;
    memset(out, 0, sizeof *out);
    uint32_t par[POREP_PARENTS];
    porep_parents(pp, c, par);
    uint8_t b[32];
    v->data(v->ctx, c, b);
    fr_of_bytes(&out->comm_d_leaf, b);
    v->path_d(v->ctx, c, &out->comm_d_path);
    out->comm_d_root = v->comm_d;
    v->path_r(v->ctx, c, &out->comm_r_last_path, &out->comm_r_last_leaf);
    out->comm_r_last_root = v->comm_r_last;
    column_proof(v, c, &out->c_x);
    for (int i = 0; i < POREP_DRG_DEGREE; i++) column_proof(v, par[i], &out->drg[i]);
    for (int i = 0; i < POREP_EXP_DEGREE; i++) column_proof(v, par[POREP_DRG_DEGREE + i], &out->exp[i]);
    for (int l = 1; l <= pp->layers; l++) {
        uint8_t in[POREP_PARENTS][32], ex[POREP_LABEL_PARENTS][32];
        memset(in, 0, sizeof in);
        for (int i = 0; i < POREP_DRG_DEGREE; i++) v->label(v->ctx, (uint32_t)l, par[i], in[i]);
        if (l > 1)
            for (int i = POREP_DRG_DEGREE; i < POREP_PARENTS; i++) v->label(v->ctx, (uint32_t)l - 1, par[i], in[i]);
        porep_expand_parents(ex, (const uint8_t(*)[32])in, (uint32_t)l);
        porep_label_proof *lp = &out->labeling[l - 1];
        lp->layer_index = (uint32_t)l;
        lp->node = c;
        for (int i = 0; i < POREP_LABEL_PARENTS; i++) fr_of_bytes(&lp->parents[i], ex[i]);
    }
    out->encoding = out->labeling[pp->layers - 1];
}

static void challenge_proofs_range(void *ctx, size_t begin, size_t end, int tid) {
    (void)tid;
    const c1_view *v = ctx;
    for (size_t i = begin; i < end; i++) challenge_proof(v, v->challenges[i], &v->proofs[i]);
}

/* Fills out->proofs for every partition from the view; out->pp, comm_r, replica_id set. */
static cuzk_status c1_fill(porep_c1 *out, c1_view *v, const uint8_t seed[32], int nthreads, cuzk_error *err) {
    const porep_params *pp = &out->pp;
    uint32_t np = (uint32_t)pp->partitions, nc = (uint32_t)pp->challenges;
    out->n_partitions = np;
    out->n_challenges = nc;
    memcpy(out->seed, seed, 32);
    uint64_t *ch = malloc((size_t)np * nc * sizeof *ch);
    out->proofs = calloc((size_t)np * nc, sizeof *out->proofs);
    if (!ch || !out->proofs) {
        free(ch);
        return ERR(err, CUZK_ERR_NOMEM, "C1: out of memory for %u challenge proofs", np * nc);
    }
    for (uint32_t k = 0; k < np; k++) {
        cuzk_status st = porep_challenges(ch + (size_t)k * nc, pp, out->replica_id, out->comm_r, seed, k, err);
        if (st != CUZK_OK) { free(ch); return st; }
    }
    for (size_t i = 0; i < (size_t)np * nc; i++)
        if (ch[i] == 0 || ch[i] >= pp->nodes) {
            unsigned long long node = ch[i];
            free(ch);
            return ERR(err, CUZK_ERR_ARG, "C1: challenge %zu is node %llu of %llu", i, node,
                       (unsigned long long)pp->nodes);
        }
    v->challenges = ch;
    v->proofs = out->proofs;
    parallel_for((size_t)np * nc, nthreads, challenge_proofs_range, v);
    free(ch);
    return CUZK_OK;
}

static void c1_reset(porep_c1 *out) {
    free(out->proofs);
    memset(out, 0, sizeof *out);
}

/* ---- sealing -------------------------------------------------------------------------------- */

void porep_sector_free(porep_sector *s) {
    if (!s) return;
    free(s->data);
    free(s->labels);
    free(s->tree_d);
    free(s->tree_c);
    free(s->tree_r);
    memset(s, 0, sizeof *s);
}

typedef struct seal_ctx {
    porep_sector *s;
    fr *tree;           /* the tree a level pass works on */
    int level;          /* the level hashed into level + 1 */
    int arity;
} seal_ctx;

static void tree_d_range(void *ctx, size_t begin, size_t end, int tid) {
    (void)tid;
    seal_ctx *c = ctx;
    uint64_t n = c->s->nodes, off = 0, sz = n;
    for (int l = 0; l < c->level; l++) { off += sz; sz >>= 1; }
    uint8_t (*lo)[32] = c->s->tree_d + off, (*hi)[32] = c->s->tree_d + off + sz;
    for (size_t p = begin; p < end; p++) porep_sha256_node(hi[p], lo[2 * p], lo[2 * p + 1]);
}

static void tree_up_range(void *ctx, size_t begin, size_t end, int tid) {
    (void)tid;
    seal_ctx *c = ctx;
    const fr *lo = c->tree + c->s->tree_offset[c->level];
    fr *hi = c->tree + c->s->tree_offset[c->level + 1];
    for (size_t p = begin; p < end; p++) poseidon_hash(&hi[p], lo + p * (size_t)c->arity, c->arity);
}

static void leaves_range(void *ctx, size_t begin, size_t end, int tid) {
    (void)tid;
    seal_ctx *c = ctx;
    porep_sector *s = c->s;
    int L = s->pp.layers;
    for (size_t v = begin; v < end; v++) {
        fr rows[POREP_MAX_LAYERS], d;
        for (int l = 0; l < L; l++) fr_of_bytes(&rows[l], s->labels[(size_t)l * s->nodes + v]);
        poseidon_hash(&s->tree_c[v], rows, L);
        fr_of_bytes(&d, s->data[v]);
        fr_add(&s->tree_r[v], &rows[L - 1], &d);
    }
}

cuzk_status porep_seal(porep_sector *out, const porep_params *pp, const uint8_t *data, const uint8_t prover_id[32],
                       uint64_t sector_id, const uint8_t ticket[32], int nthreads, cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!out || !data || !prover_id || !ticket) return ERR(err, CUZK_ERR_ARG, "seal: NULL argument");
    cuzk_status st = check_params(pp, "seal", err);
    if (st != CUZK_OK) return st;
    if (pp->nodes > SEAL_MAX_NODES)
        return ERR(err, CUZK_ERR_ARG,
                   "seal: a %llu-byte sector is too large to seal in memory (512 MiB at most); use the sparse C1",
                   (unsigned long long)pp->sector_size);
    uint64_t n = pp->nodes;
    for (uint64_t v = 0; v < n; v++)
        if (data[32 * v + 31] & 0xc0)
            return ERR(err, CUZK_ERR_ARG,
                       "seal: data node %llu (bytes %llu..%llu) is not fr32-padded: the top two bits of its last byte "
                       "are set",
                       (unsigned long long)v, (unsigned long long)(32 * v), (unsigned long long)(32 * v + 31));
    porep_sector *s = out;
    s->pp = *pp;
    memcpy(s->prover_id, prover_id, 32);
    s->sector_id = sector_id;
    memcpy(s->ticket, ticket, 32);
    s->nodes = n;
    s->tree_levels = tree_geometry(&pp->shape, n, s->tree_offset);
    size_t tree_len = s->tree_offset[s->tree_levels] + 1;
    s->data = malloc(n * 32);
    s->labels = malloc((size_t)pp->layers * n * 32);
    s->tree_d = malloc((2 * n - 1) * 32);
    s->tree_c = malloc(tree_len * sizeof(fr));
    s->tree_r = malloc(tree_len * sizeof(fr));
    if (!s->data || !s->labels || !s->tree_d || !s->tree_c || !s->tree_r) {
        porep_sector_free(s);
        return ERR(err, CUZK_ERR_NOMEM, "seal: out of memory for a %llu-byte sector", (unsigned long long)pp->sector_size);
    }
    memcpy(s->data, data, n * 32);

    /* tree D: level 0 is the data */
    memcpy(s->tree_d, data, n * 32);
    for (int l = 0; l < pp->d_levels; l++) {
        seal_ctx c = {s, NULL, l, 2};
        parallel_for((size_t)(n >> (l + 1)), nthreads, tree_d_range, &c);
    }
    memcpy(s->comm_d, s->tree_d[2 * n - 2], 32);
    porep_replica_id(s->replica_id, prover_id, sector_id, ticket, s->comm_d, pp->porep_id);

    st = porep_labels_all(s->labels, pp, s->replica_id, nthreads, err);
    if (st != CUZK_OK) { porep_sector_free(s); return st; }

    seal_ctx lc = {s, NULL, 0, 0};
    parallel_for((size_t)n, nthreads, leaves_range, &lc);
    for (int l = 0; l < s->tree_levels; l++) {
        int a = merkle_level_arity(&pp->shape, l);
        size_t parents = (size_t)(s->tree_offset[l + 1] - s->tree_offset[l]) / (size_t)a;
        seal_ctx cc = {s, s->tree_c, l, a}, cr = {s, s->tree_r, l, a};
        parallel_for(parents, nthreads, tree_up_range, &cc);
        parallel_for(parents, nthreads, tree_up_range, &cr);
    }
    fr comm_r, cr2[2] = {s->tree_c[tree_len - 1], s->tree_r[tree_len - 1]};
    poseidon_hash(&comm_r, cr2, 2);
    bytes_of_fr(s->comm_c, &cr2[0]);
    bytes_of_fr(s->comm_r_last, &cr2[1]);
    bytes_of_fr(s->comm_r, &comm_r);
    return CUZK_OK;
}

/* views of a sealed sector */
static void sealed_label(const void *ctx, uint32_t layer, uint64_t node, uint8_t out[32]) {
    const porep_sector *s = ctx;
    memcpy(out, s->labels[(size_t)(layer - 1) * s->nodes + node], 32);
}
static void sealed_data(const void *ctx, uint64_t node, uint8_t out[32]) {
    const porep_sector *s = ctx;
    memcpy(out, s->data[node], 32);
}
static void sealed_path_d(const void *ctx, uint64_t node, merkle_path *p) {
    const porep_sector *s = ctx;
    uint64_t off = 0, sz = s->nodes, pos = node;
    for (int l = 0; l < s->pp.d_levels; l++) {
        p->index[l] = (uint32_t)(pos & 1);
        fr_of_bytes(&p->siblings[l][0], s->tree_d[off + (pos ^ 1)]);
        off += sz;
        sz >>= 1;
        pos >>= 1;
    }
}
static void full_path(const porep_sector *s, const fr *tree, uint64_t node, merkle_path *p) {
    uint64_t pos = node;
    for (int l = 0; l < s->tree_levels; l++) {
        uint64_t a = (uint64_t)merkle_level_arity(&s->pp.shape, l), idx = pos % a, first = s->tree_offset[l] + pos - idx;
        p->index[l] = (uint32_t)idx;
        int k = 0;
        for (uint64_t i = 0; i < a; i++)
            if (i != idx) p->siblings[l][k++] = tree[first + i];
        pos /= a;
    }
}
static void sealed_path_c(const void *ctx, uint64_t node, merkle_path *p, fr *leaf) {
    const porep_sector *s = ctx;
    full_path(s, s->tree_c, node, p);
    *leaf = s->tree_c[node];
}
static void sealed_path_r(const void *ctx, uint64_t node, merkle_path *p, fr *leaf) {
    const porep_sector *s = ctx;
    full_path(s, s->tree_r, node, p);
    *leaf = s->tree_r[node];
}

cuzk_status porep_c1_from_sector(porep_c1 *out, const porep_sector *s, const uint8_t seed[32], int nthreads,
                                 cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!out || !s || !seed) return ERR(err, CUZK_ERR_ARG, "C1: NULL argument");
    if (!s->data || !s->labels || !s->tree_d || !s->tree_c || !s->tree_r)
        return ERR(err, CUZK_ERR_ARG, "C1: the sector is not sealed (porep_seal)");
    out->pp = s->pp;
    memcpy(out->comm_r, s->comm_r, 32);
    memcpy(out->comm_d, s->comm_d, 32);
    memcpy(out->replica_id, s->replica_id, 32);
    memcpy(out->ticket, s->ticket, 32);
    c1_view v = {&out->pp, s, sealed_label, sealed_data, sealed_path_d, sealed_path_c, sealed_path_r,
                 {{0}}, {{0}}, {{0}}, NULL, NULL};
    fr_of_bytes(&v.comm_d, s->comm_d);
    fr_of_bytes(&v.comm_c, s->comm_c);
    fr_of_bytes(&v.comm_r_last, s->comm_r_last);
    cuzk_status st = c1_fill(out, &v, seed, nthreads, err);
    if (st != CUZK_OK) c1_reset(out);
    return st;
}

/* ---- sparse C1 ---------------------------------------------------------------------------- */

enum { PRF_DATA = 'd', PRF_LABEL = 'l', PRF_TREE_C = 'c', PRF_TREE_R = 'r' };

/* The pseudo-random 32-byte value of (salt, tag, a, b): SHA-256(salt || "cuzk sparse C1" || tag ||
 * u32 LE a || u64 LE b), byte 31 &= 0x3f (a field element, and a valid SHA-256 domain value). */
static void prf(uint8_t out[32], const uint8_t salt[32], uint8_t tag, uint32_t a, uint64_t b) {
    uint8_t buf[32 + 14 + 1 + 4 + 8];
    memcpy(buf, salt, 32);
    memcpy(buf + 32, "cuzk sparse C1", 14);
    buf[46] = tag;
    for (int i = 0; i < 4; i++) buf[47 + i] = (uint8_t)(a >> (8 * i));
    for (int i = 0; i < 8; i++) buf[51 + i] = (uint8_t)(b >> (8 * i));
    SHA256(buf, sizeof buf, out);
    out[31] &= 0x3f;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}
/* Sorts and removes duplicates; returns the new count. */
static size_t sort_unique(uint64_t *v, size_t n) {
    if (!n) return 0;
    qsort(v, n, sizeof *v, cmp_u64);
    size_t m = 1;
    for (size_t i = 1; i < n; i++)
        if (v[i] != v[m - 1]) v[m++] = v[i];
    return m;
}
/* Index of x in the sorted v[0..n), or -1. */
static long find_u64(const uint64_t *v, size_t n, uint64_t x) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && v[lo] == x ? (long)lo : -1;
}

/* A sparse Poseidon tree: per level the sorted positions of the known nodes and their values;
 * every other node is a pseudo-random filler of (salt, tag, level, position). */
typedef struct sparse_tree {
    const merkle_shape *sh;
    const uint8_t *salt;
    uint8_t tag;
    int levels;
    uint64_t *pos[MERKLE_MAX_LEVELS + 1];
    fr *val[MERKLE_MAX_LEVELS + 1];
    size_t n[MERKLE_MAX_LEVELS + 1];
    int level; /* the level being hashed (build) */
} sparse_tree;

static void sparse_get(const sparse_tree *t, int level, uint64_t pos, fr *out) {
    long i = find_u64(t->pos[level], t->n[level], pos);
    if (i >= 0) { *out = t->val[level][i]; return; }
    uint8_t b[32];
    prf(b, t->salt, t->tag, (uint32_t)level, pos);
    fr_of_bytes(out, b);
}

static void sparse_up_range(void *ctx, size_t begin, size_t end, int tid) {
    (void)tid;
    sparse_tree *t = ctx;
    int l = t->level, a = merkle_level_arity(t->sh, l);
    for (size_t i = begin; i < end; i++) {
        fr ch[16];
        uint64_t first = t->pos[l + 1][i] * (uint64_t)a;
        for (int k = 0; k < a; k++) sparse_get(t, l, first + (uint64_t)k, &ch[k]);
        poseidon_hash(&t->val[l + 1][i], ch, a);
    }
}

static void sparse_tree_free(sparse_tree *t) {
    for (int l = 0; l <= MERKLE_MAX_LEVELS; l++) { free(t->pos[l]); free(t->val[l]); }
    memset(t, 0, sizeof *t);
}

/* Builds the tree up from n known leaves (pos sorted, unique; both arrays taken over). */
static bool sparse_tree_build(sparse_tree *t, const merkle_shape *sh, const uint8_t *salt, uint8_t tag, uint64_t *pos,
                              fr *val, size_t n, int nthreads) {
    memset(t, 0, sizeof *t);
    t->sh = sh;
    t->salt = salt;
    t->tag = tag;
    t->levels = merkle_levels(sh);
    t->pos[0] = pos;
    t->val[0] = val;
    t->n[0] = n;
    for (int l = 0; l < t->levels; l++) {
        uint64_t a = (uint64_t)merkle_level_arity(sh, l);
        size_t m = t->n[l];
        t->pos[l + 1] = malloc((m ? m : 1) * sizeof(uint64_t));
        t->val[l + 1] = malloc((m ? m : 1) * sizeof(fr));
        if (!t->pos[l + 1] || !t->val[l + 1]) return false;
        for (size_t i = 0; i < m; i++) t->pos[l + 1][i] = t->pos[l][i] / a;
        t->n[l + 1] = sort_unique(t->pos[l + 1], m);
        t->level = l;
        parallel_for(t->n[l + 1], nthreads, sparse_up_range, t);
    }
    return true;
}

static void sparse_tree_path(const sparse_tree *t, uint64_t leaf, merkle_path *p) {
    uint64_t pos = leaf;
    for (int l = 0; l < t->levels; l++) {
        uint64_t a = (uint64_t)merkle_level_arity(t->sh, l), idx = pos % a;
        p->index[l] = (uint32_t)idx;
        int k = 0;
        for (uint64_t i = 0; i < a; i++)
            if (i != idx) sparse_get(t, l, pos - idx + i, &p->siblings[l][k++]);
        pos /= a;
    }
}

typedef struct sparse_sector {
    const porep_params *pp;
    const uint8_t *salt;
    int k;                     /* data period 2^k nodes */
    uint8_t (*pattern)[32];    /* the tree D of the period: 2^(k+1) - 1 digests, leaves first */
    uint8_t top[64][32];       /* top[j], j >= k: the (identical) tree D nodes of level j */
    uint64_t *known;           /* sorted: node 0 and the challenged nodes, whose labels are computed */
    size_t n_known;
    uint8_t (*known_labels)[32]; /* n_known * layers: [i * layers + (l - 1)] */
    sparse_tree tc, tr;
} sparse_sector;

static void sparse_label(const void *ctx, uint32_t layer, uint64_t node, uint8_t out[32]) {
    const sparse_sector *s = ctx;
    long i = find_u64(s->known, s->n_known, node);
    if (i >= 0) memcpy(out, s->known_labels[(size_t)i * s->pp->layers + (layer - 1)], 32);
    else prf(out, s->salt, PRF_LABEL, layer, node);
}
static void sparse_data(const void *ctx, uint64_t node, uint8_t out[32]) {
    const sparse_sector *s = ctx;
    memcpy(out, s->pattern[node & ((1ull << s->k) - 1)], 32);
}
static void sparse_path_d(const void *ctx, uint64_t node, merkle_path *p) {
    const sparse_sector *s = ctx;
    uint64_t off = 0;
    for (int l = 0; l < s->pp->d_levels; l++) {
        uint64_t pos = node >> l;
        p->index[l] = (uint32_t)(pos & 1);
        if (l < s->k) {
            uint64_t width = 1ull << (s->k - l);
            fr_of_bytes(&p->siblings[l][0], s->pattern[off + ((pos ^ 1) & (width - 1))]);
            off += width;
        } else {
            fr_of_bytes(&p->siblings[l][0], s->top[l]);
        }
    }
}
static void sparse_path_c(const void *ctx, uint64_t node, merkle_path *p, fr *leaf) {
    const sparse_sector *s = ctx;
    sparse_tree_path(&s->tc, node, p);
    sparse_get(&s->tc, 0, node, leaf);
}
static void sparse_path_r(const void *ctx, uint64_t node, merkle_path *p, fr *leaf) {
    const sparse_sector *s = ctx;
    sparse_tree_path(&s->tr, node, p);
    sparse_get(&s->tr, 0, node, leaf);
}

typedef struct column_ctx {
    const sparse_sector *s;
    const uint64_t *nodes;
    fr *out;
} column_ctx;

static void column_hash_range(void *ctx, size_t begin, size_t end, int tid) {
    (void)tid;
    column_ctx *c = ctx;
    int L = c->s->pp->layers;
    for (size_t i = begin; i < end; i++) {
        fr rows[POREP_MAX_LAYERS];
        for (int l = 1; l <= L; l++) {
            uint8_t b[32];
            sparse_label(c->s, (uint32_t)l, c->nodes[i], b);
            fr_of_bytes(&rows[l - 1], b);
        }
        poseidon_hash(&c->out[i], rows, L);
    }
}

cuzk_status porep_c1_sparse(porep_c1 *out, const porep_params *pp, const uint8_t prover_id[32], uint64_t sector_id,
                            const uint8_t ticket[32], const uint8_t seed[32], const uint8_t salt[32], int nthreads,
                            cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!out || !prover_id || !ticket || !seed || !salt) return ERR(err, CUZK_ERR_ARG, "sparse C1: NULL argument");
    cuzk_status st = check_params(pp, "sparse C1", err);
    if (st != CUZK_OK) return st;
    if (pp->synthetic)
        return ERR(err, CUZK_ERR_UNSUPPORTED,
                   "sparse C1: Synthetic PoRep is not supported (its challenges depend on comm_r, which depends on the "
                   "leaves the sparse trees open); seal a small sector instead");
    sparse_sector s;
    memset(&s, 0, sizeof s);
    s.pp = pp;
    s.salt = salt;
    s.k = pp->d_levels < SPARSE_DATA_PERIOD_LOG ? pp->d_levels : SPARSE_DATA_PERIOD_LOG;
    uint64_t *opened = NULL, *ch = NULL, *leaf_pos = NULL;
    uint32_t *parents = NULL;
    fr *leaf_val = NULL, *col = NULL;
    size_t n_open = 0, n_leaf = 0;
    bool ok;
    c1_view v;
    size_t nch = (size_t)pp->partitions * (size_t)pp->challenges;
    out->pp = *pp;
    memcpy(out->ticket, ticket, 32);

    /* 1. data with period 2^k, its exact tree D */
    uint64_t period = 1ull << s.k;
    s.pattern = malloc((2 * period - 1) * 32);
    if (!s.pattern) goto nomem;
    for (uint64_t i = 0; i < period; i++) prf(s.pattern[i], salt, PRF_DATA, 0, i);
    {
        uint64_t off = 0;
        for (uint64_t w = period; w > 1; off += w, w >>= 1)
            for (uint64_t p = 0; p < w / 2; p++)
                porep_sha256_node(s.pattern[off + w + p], s.pattern[off + 2 * p], s.pattern[off + 2 * p + 1]);
        memcpy(s.top[s.k], s.pattern[2 * period - 2], 32);
    }
    for (int j = s.k; j < pp->d_levels; j++) porep_sha256_node(s.top[j + 1], s.top[j], s.top[j]);
    memcpy(out->comm_d, s.top[pp->d_levels], 32);

    /* 2. replica_id, 3. challenges */
    porep_replica_id(out->replica_id, prover_id, sector_id, ticket, out->comm_d, pp->porep_id);
    ch = malloc(nch * sizeof *ch);
    if (!ch) goto nomem;
    for (int k = 0; k < pp->partitions; k++) {
        st = porep_challenges(ch + (size_t)k * pp->challenges, pp, out->replica_id, NULL, seed, (uint32_t)k, err);
        if (st != CUZK_OK) goto fail;
    }

    /* 4. labels of node 0 and the challenged nodes */
    s.known = malloc((nch + 1) * sizeof *s.known);
    if (!s.known) goto nomem;
    s.known[0] = 0;
    memcpy(s.known + 1, ch, nch * sizeof *ch);
    s.n_known = sort_unique(s.known, nch + 1);
    s.known_labels = malloc(s.n_known * (size_t)pp->layers * 32);
    parents = malloc(s.n_known * POREP_PARENTS * sizeof *parents);
    if (!s.known_labels || !parents) goto nomem;
    for (size_t i = 0; i < s.n_known; i++) {
        if (s.known[i] >= pp->nodes) {
            st = ERR(err, CUZK_ERR_ARG, "sparse C1: challenge node %llu of %llu", (unsigned long long)s.known[i],
                     (unsigned long long)pp->nodes);
            goto fail;
        }
        porep_parents(pp, s.known[i], parents + i * POREP_PARENTS);
    }
    for (int l = 1; l <= pp->layers; l++)
        for (size_t i = 0; i < s.n_known; i++) {
            /* increasing node order: a known DRG parent (a smaller node) of this layer is done */
            uint8_t in[POREP_PARENTS][32], ex[POREP_LABEL_PARENTS][32];
            memset(in, 0, sizeof in);
            const uint32_t *par = parents + i * POREP_PARENTS;
            if (s.known[i] > 0) {
                for (int j = 0; j < POREP_DRG_DEGREE; j++) sparse_label(&s, (uint32_t)l, par[j], in[j]);
                if (l > 1)
                    for (int j = POREP_DRG_DEGREE; j < POREP_PARENTS; j++) sparse_label(&s, (uint32_t)l - 1, par[j], in[j]);
            }
            porep_expand_parents(ex, (const uint8_t(*)[32])in, (uint32_t)l);
            porep_label(s.known_labels[i * (size_t)pp->layers + (size_t)(l - 1)], out->replica_id, (uint32_t)l,
                        s.known[i], (const uint8_t(*)[32])ex);
        }

    /* 5. the opened columns: the challenged nodes and their parents */
    opened = malloc(nch * (POREP_PARENTS + 1) * sizeof *opened);
    if (!opened) goto nomem;
    for (size_t i = 0; i < s.n_known; i++) {
        if (s.known[i] == 0) continue; /* node 0 is never challenged */
        opened[n_open++] = s.known[i];
        for (int j = 0; j < POREP_PARENTS; j++) opened[n_open++] = parents[i * POREP_PARENTS + j];
    }
    n_open = sort_unique(opened, n_open);
    col = malloc((n_open ? n_open : 1) * sizeof *col);
    if (!col) goto nomem;
    column_ctx cc = {&s, opened, col};
    parallel_for(n_open, nthreads, column_hash_range, &cc);

    /* 6. sparse tree C (takes opened, col) and tree R-last over the challenged replica nodes */
    ok = sparse_tree_build(&s.tc, &pp->shape, salt, PRF_TREE_C, opened, col, n_open, nthreads);
    opened = NULL;
    col = NULL;
    if (!ok) goto nomem;
    leaf_pos = malloc(s.n_known * sizeof *leaf_pos);
    leaf_val = malloc(s.n_known * sizeof *leaf_val);
    if (!leaf_pos || !leaf_val) goto nomem;
    for (size_t i = 0; i < s.n_known; i++) {
        if (s.known[i] == 0) continue;
        fr lab, d;
        uint8_t db[32];
        fr_of_bytes(&lab, s.known_labels[i * (size_t)pp->layers + (size_t)(pp->layers - 1)]);
        sparse_data(&s, s.known[i], db);
        fr_of_bytes(&d, db);
        leaf_pos[n_leaf] = s.known[i];
        fr_add(&leaf_val[n_leaf++], &lab, &d);
    }
    ok = sparse_tree_build(&s.tr, &pp->shape, salt, PRF_TREE_R, leaf_pos, leaf_val, n_leaf, nthreads);
    leaf_pos = NULL;
    leaf_val = NULL;
    if (!ok) goto nomem;

    /* 7. comm_r, then the proofs */
    v = (c1_view){pp, &s, sparse_label, sparse_data, sparse_path_d, sparse_path_c, sparse_path_r,
                  {{0}}, s.tc.val[s.tc.levels][0], s.tr.val[s.tr.levels][0], NULL, NULL};
    fr_of_bytes(&v.comm_d, out->comm_d);
    fr cr2[2] = {v.comm_c, v.comm_r_last}, comm_r;
    poseidon_hash(&comm_r, cr2, 2);
    bytes_of_fr(out->comm_r, &comm_r);
    st = c1_fill(out, &v, seed, nthreads, err);
    if (st != CUZK_OK) goto fail;
    goto done;

nomem:
    st = ERR(err, CUZK_ERR_NOMEM, "sparse C1: out of memory");
fail:
    c1_reset(out);
done:
    sparse_tree_free(&s.tc);
    sparse_tree_free(&s.tr);
    free(s.pattern);
    free(s.known);
    free(s.known_labels);
    free(parents);
    free(opened);
    free(ch);
    free(leaf_pos);
    free(leaf_val);
    free(col);
    return st;
}
