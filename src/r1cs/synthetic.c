/* PoRep-shaped synthetic constraint systems and their witnesses (synthetic.h). */
#include "r1cs/synthetic.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/parallel.h"
#include "util/rng.h"

enum { K_PACK = 0, K_XOR = 1, K_BIT = 2, K_AND = 3 };
enum { N_FORCED_BITS = 8 };          /* rows 0..7 are BIT rows: booleans to start from */
enum { PICK_WINDOW = 1 << 16 };      /* random picks come from the last 64Ki rows */

#define TARGET_A 2.4
#define TARGET_XOR 0.6                /* C = 1 + 2 * P(XOR) = 2.2 */
#define TARGET_BIT 0.05
#define TARGET_AUX_IN_B 0.254
#define TARGET_AUX_NOT_IN_A 0.003

static inline uint64_t mix64(uint64_t z) { return splitmix64_mix(z); }

/* Everything about row j is a function of (key, j). */
typedef struct gen {
    uint64_t key;
    uint32_t n, n_inputs;          /* rows, 1 + n_public */
    uint64_t p32;                  /* P(PACK) * 2^32 */
    uint32_t t_xor, t_bit;         /* cumulative 32-bit thresholds among the other rows */
    uint32_t skip16, belig16;      /* 16-bit thresholds */
    uint32_t kb_floor, kb_frac16;  /* PACK bit terms: kb_floor + (rand16 < kb_frac16) */
} gen;

static void gen_init(gen *g, const synthetic_params *p) {
    double pk = 1.0 - p->frac01;
    if (!(pk >= 0.005)) pk = 0.005; /* also catches NaN */
    if (pk > 0.35) pk = 0.35;
    const double two32 = 4294967296.0;
    g->key = mix64(p->seed ^ 0x5ca1ab1e0ddba11ull);
    g->n = p->n_constraints;
    g->n_inputs = p->n_public + 1;
    /* PACK rows are spaced evenly (row j is PACK iff floor((j+1)p) > floor(jp)), so the averages
     * hold exactly even for small systems; the other kinds are drawn with their conditional
     * probabilities */
    g->p32 = (uint64_t)(pk * two32);
    g->t_xor = (uint32_t)(TARGET_XOR / (1.0 - pk) * two32);
    g->t_bit = (uint32_t)((TARGET_XOR + TARGET_BIT) / (1.0 - pk) * two32);
    double booleans_xa = 1.0 - pk - TARGET_BIT; /* XOR and AND rows: the skippable / B-eligible ones */
    g->skip16 = (uint32_t)(TARGET_AUX_NOT_IN_A / booleans_xa * 65536.0);
    double pe = (TARGET_AUX_IN_B - TARGET_BIT) / booleans_xa;
    g->belig16 = (uint32_t)(pe * 65536.0);
    double kb = (TARGET_A - 1.0) / pk;
    g->kb_floor = (uint32_t)kb;
    g->kb_frac16 = (uint32_t)((kb - (double)g->kb_floor) * 65536.0);
}

static inline uint64_t row_hash(const gen *g, uint32_t j) { return mix64(g->key ^ ((uint64_t)(j + 1) * 0x9e3779b97f4a7c15ull)); }

static inline int row_is_pack(const gen *g, uint32_t j) {
    return j >= N_FORCED_BITS && (((uint64_t)j + 1) * g->p32 >> 32) != ((uint64_t)j * g->p32 >> 32);
}
static inline int row_kind_h(const gen *g, uint32_t j, uint64_t h) {
    if (j < N_FORCED_BITS) return K_BIT;
    if (row_is_pack(g, j)) return K_PACK;
    uint32_t t = (uint32_t)h;
    return t < g->t_xor ? K_XOR : t < g->t_bit ? K_BIT : K_AND;
}
static inline uint32_t row_kb(const gen *g, uint64_t h) {
    return g->kb_floor + ((uint32_t)(mix64(h ^ 0x7b1d) & 0xffff) < g->kb_frac16 ? 1u : 0u);
}
/* XOR/AND output skipped by the A cursor (so that ~0.3% of aux stays out of A) */
static inline int row_skip(const gen *g, uint32_t j, uint64_t h) {
    return j >= N_FORCED_BITS && (uint32_t)((h >> 32) & 0xffff) < g->skip16;
}
/* XOR/AND output that B terms may use (BIT outputs are in B by their own row) */
static inline int row_belig(const gen *g, uint64_t h) { return (uint32_t)(h >> 48) < g->belig16; }

static inline uint32_t row_nnz_a(const gen *g, int kind, uint64_t h) { return kind == K_PACK ? 1 + row_kb(g, h) : 1; }
static inline uint32_t row_nnz_c(int kind) { return kind == K_XOR ? 3 : 1; }

void synthetic_params_default(synthetic_params *p, uint32_t n_constraints) {
    p->n_constraints = n_constraints;
    p->n_public = 328;
    p->frac01 = 0.95;
    p->seed = 1;
}

uint32_t synthetic_n_vars(const synthetic_params *p) { return 1 + p->n_public + p->n_constraints; }

/* ---- structure --------------------------------------------------------------------------- */
typedef struct fill {
    const gen *g;
    uint64_t rng;
    uint32_t a_cur, b_cur;   /* next row whose output is not yet guaranteed a use in A / B */
    uint32_t pending_word;   /* last PACK output not yet consumed (0: none) */
    uint32_t next_input;     /* next public input a PACK row may start from */
} fill;

static inline uint64_t fill_rand(fill *f) { return mix64(f->rng += 0x9e3779b97f4a7c15ull); }

/* A boolean variable of a row < j for an A term (want_b = 0) or a B term (want_b = 1). */
static uint32_t pick_bool(fill *f, uint32_t j, int want_b) {
    const gen *g = f->g;
    uint32_t *cur = want_b ? &f->b_cur : &f->a_cur;
    while (*cur < j) {
        uint32_t r = *cur;
        uint64_t h = row_hash(g, r);
        int k = row_kind_h(g, r, h);
        int ok = (k == K_XOR || k == K_AND) && (want_b ? row_belig(g, h) : !row_skip(g, r, h));
        if (ok) break;
        (*cur)++;
    }
    if (*cur < j) return g->n_inputs + (*cur)++;
    uint32_t lo = j > PICK_WINDOW ? j - PICK_WINDOW : 0;
    for (int tries = 0; tries < 32; tries++) {
        uint32_t r = lo + (uint32_t)(fill_rand(f) % (j - lo));
        uint64_t h = row_hash(g, r);
        int k = row_kind_h(g, r, h);
        if (k == K_PACK) continue;
        if (want_b ? (k == K_BIT || row_belig(g, h)) : !((k == K_XOR || k == K_AND) && row_skip(g, r, h)))
            return g->n_inputs + r;
    }
    return g->n_inputs + (uint32_t)(fill_rand(f) % N_FORCED_BITS); /* the first rows are BIT rows */
}

/* The coefficients: 2^i (index i < 64) and -1 (index V_NEG_ONE). A matrix's table holds those it
 * uses, in order of first use (id[] caches their table ids). */
enum { V_ONE = 0, V_TWO = 1, V_NEG_ONE = 64, N_VALUES = 65 };
typedef struct mat_out {
    csr_builder b;
    uint32_t id[N_VALUES]; /* CSR_NO_COEF before the value's first use */
} mat_out;

static cuzk_status put(mat_out *o, uint32_t col, int v, const fr *values) {
    if (o->id[v] == CSR_NO_COEF) {
        cuzk_status st = csr_builder_coef(&o->b, &o->id[v], &values[v]);
        if (st != CUZK_OK) return st;
    }
    return csr_builder_push_id(&o->b, col, o->id[v]);
}

cuzk_status synthetic_r1cs(r1cs *out, const synthetic_params *p, cuzk_error *err) {
    if (!out || !p) return ERR(err, CUZK_ERR_ARG, "synthetic_r1cs: NULL argument");
    memset(out, 0, sizeof *out);
    if (p->n_constraints < N_FORCED_BITS)
        return ERR(err, CUZK_ERR_ARG, "synthetic_r1cs: need at least %d constraints, got %u", N_FORCED_BITS,
                   p->n_constraints);
    if ((uint64_t)p->n_constraints + p->n_public + 1 > UINT32_MAX)
        return ERR(err, CUZK_ERR_ARG, "synthetic_r1cs: too many variables");
    gen g;
    gen_init(&g, p);
    uint32_t n = p->n_constraints;
    out->n_constraints = n;
    out->n_public = p->n_public;
    out->n_vars = synthetic_n_vars(p);
    /* pass 1: nonzeros, so that the arrays are allocated once, exactly */
    uint64_t na = 0, nc = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint64_t h = row_hash(&g, j);
        int k = row_kind_h(&g, j, h);
        na += row_nnz_a(&g, k, h);
        nc += row_nnz_c(k);
    }
    mat_out mo[3];
    for (int i = 0; i < 3; i++)
        for (int v = 0; v < N_VALUES; v++) mo[i].id[v] = CSR_NO_COEF;
    mat_out *A = &mo[0], *B = &mo[1], *C = &mo[2];
    int ok_a = csr_builder_init(&A->b, n, na) == CUZK_OK;
    int ok_b = csr_builder_init(&B->b, n, n) == CUZK_OK;
    int ok_c = csr_builder_init(&C->b, n, nc) == CUZK_OK;
    if (!ok_a || !ok_b || !ok_c) goto nomem;

    fr values[N_VALUES];
    fr_one(&values[0]);
    for (int i = 1; i < 64; i++) fr_add(&values[i], &values[i - 1], &values[i - 1]);
    fr_neg(&values[V_NEG_ONE], &values[V_ONE]);

    /* pass 2: the rows (the builders' hints are exact, so only a table can allocate) */
    fill f = {&g, g.key ^ 0xf00dull, 0, 0, 0, 1};
    for (uint32_t j = 0; j < n; j++) {
        uint64_t h = row_hash(&g, j);
        int k = row_kind_h(&g, j, h);
        uint32_t z = g.n_inputs + j;
        switch (k) {
        case K_BIT:
            if (put(A, z, V_ONE, values) || put(B, z, V_ONE, values) || put(C, z, V_ONE, values)) goto nomem;
            break;
        case K_AND: {
            uint32_t x = pick_bool(&f, j, 0), y = pick_bool(&f, j, 1);
            if (put(A, x, V_ONE, values) || put(B, y, V_ONE, values) || put(C, z, V_ONE, values)) goto nomem;
            break;
        }
        case K_XOR: {
            uint32_t x = pick_bool(&f, j, 0), y = pick_bool(&f, j, 1);
            if (put(A, x, V_TWO, values) || put(B, y, V_ONE, values) || put(C, x, V_ONE, values) ||
                put(C, y, V_ONE, values) || put(C, z, V_NEG_ONE, values))
                goto nomem;
            break;
        }
        default: { /* K_PACK */
            uint32_t u;
            if (f.pending_word) { u = f.pending_word; f.pending_word = 0; }
            else if (f.next_input < g.n_inputs) u = f.next_input++;
            else u = g.n_inputs > 1 ? 1 + (uint32_t)(fill_rand(&f) % (g.n_inputs - 1)) : 0;
            if (put(A, u, V_ONE, values)) goto nomem;
            uint32_t kb = row_kb(&g, h);
            for (uint32_t i = 0; i < kb; i++)
                if (put(A, pick_bool(&f, j, 0), (int)(i & 63), values)) goto nomem;
            if (put(B, 0, V_ONE, values) || put(C, z, V_ONE, values)) goto nomem;
            f.pending_word = z;
            break;
        }
        }
        if (csr_builder_end_row(&A->b) || csr_builder_end_row(&B->b) || csr_builder_end_row(&C->b)) goto nomem;
    }
    csr_builder_finish(&A->b, &out->a);
    csr_builder_finish(&B->b, &out->b);
    csr_builder_finish(&C->b, &out->c);
    return CUZK_OK;
nomem:
    for (int i = 0; i < 3; i++) csr_builder_free(&mo[i].b);
    memset(out, 0, sizeof *out);
    return ERR(err, CUZK_ERR_NOMEM, "synthetic_r1cs: cannot allocate the matrices of %u rows", n);
}

/* ---- witness ------------------------------------------------------------------------------ */
/* One byte per variable, bv[v], and four passes:
 *   0 (parallel over rows)  checks every row against its kind and tags bv[z]: the bit of a BIT
 *       row, BV_AND / BV_XOR for a boolean row still to solve, BV_FIELD for a PACK output (bv is 1
 *       for ONE, BV_FIELD for the public inputs). For an AND / XOR row it also writes the distances
 *       z - x, z - y of its operands as two 16-bit numbers (0: too far, read the matrices) into
 *       the first 4 n bytes of w, which are not written yet: a 4-byte stream for pass 1 instead of
 *       the ~30 bytes per row of row pointers and columns.
 *   1 (sequential)  solves the AND / XOR rows in row order on the bytes: x & y, x ^ y.
 *   2 (parallel over chunks of variables)  writes w: ONE, the public inputs, 0 / 1 for every
 *       boolean; for the PACK rows of the chunk, in order, the running sum of the coefficients of
 *       their bit terms that are 1 (the chunk's part of the chain), and the chunk's total.
 *   3 (sequential over chunks, then parallel)  every PACK output gets the chain value before its
 *       chunk: w[u_0] (the first PACK row's input) plus the totals of the earlier chunks.
 * The checks accept a row only when this gives exactly what solving the row in the field gives
 * (z = <A,w><B,w> - <C',w>, the last C entry being z; each PACK row's first A entry is the previous
 * PACK output), so w is the row-by-row solution of the system; field arithmetic is exact and
 * canonical, so the order of the additions does not change a bit. */
enum { BV_FIELD = 2, BV_AND = 3, BV_XOR = 4 };

typedef struct wit_ctx {
    const r1cs *cs;
    const gen *g;
    fr *w;
    uint8_t *bv;      /* n_vars */
    fr *chunk_sum;    /* n_chunks: pass 2 writes each chunk's total, pass 3 the value before it */
    size_t n_chunks;
    uint32_t u0;      /* the first PACK row's chain input: public input 1, or ONE without inputs */
    uint64_t wkey, bkey;
    fr one, two, neg_one;
    _Atomic uint32_t bad_row; /* first row that failed a check (UINT32_MAX: none) */
} wit_ctx;

static void wit_note_bad(wit_ctx *c, uint32_t j) {
    uint32_t cur = atomic_load_explicit(&c->bad_row, memory_order_relaxed);
    while (j < cur && !atomic_compare_exchange_weak_explicit(&c->bad_row, &cur, j, memory_order_relaxed,
                                                             memory_order_relaxed)) {}
}

/* Pass 0 on row j; u is the chain input a PACK row must start from. Returns 0 when the row was not
 * made from the params. */
static int wit_check_row(wit_ctx *c, uint32_t j, uint32_t u) {
    const gen *g = c->g;
    const csr_matrix *A = &c->cs->a, *B = &c->cs->b, *C = &c->cs->c;
    uint32_t z = g->n_inputs + j;
    uint64_t h = row_hash(g, j);
    int kind = row_kind_h(g, j, h);
    uint64_t a0 = A->row_ptr[j], a1 = A->row_ptr[j + 1], c0 = C->row_ptr[j], c1 = C->row_ptr[j + 1];
    if (c1 - c0 != row_nnz_c(kind) || c1 > C->nnz || C->col[c1 - 1] != z || a1 - a0 != row_nnz_a(g, kind, h) ||
        a1 > A->nnz)
        return 0;
    if (kind == K_BIT) { /* its value is drawn, not solved: nothing else of the row is read */
        c->bv[z] = (uint8_t)(mix64(c->bkey + j) >> 63);
        return 1;
    }
    uint64_t b0 = B->row_ptr[j], b1 = B->row_ptr[j + 1];
    if (b1 - b0 != 1 || b1 > B->nnz || !fr_eq(csr_val(B, b0), &c->one)) return 0;
    uint32_t x = A->col[a0], y = B->col[b0];
    switch (kind) {
    case K_AND: /* x * y = z */
        if (x >= z || y >= z || !fr_eq(csr_val(A, a0), &c->one) || !fr_eq(csr_val(C, c0), &c->one)) return 0;
        c->bv[z] = BV_AND;
        break;
    case K_XOR: /* 2x * y = x + y - z */
        if (x >= z || y >= z || !fr_eq(csr_val(A, a0), &c->two) || C->col[c0] != x || C->col[c0 + 1] != y ||
            !fr_eq(csr_val(C, c0), &c->one) || !fr_eq(csr_val(C, c0 + 1), &c->one) ||
            !fr_eq(csr_val(C, c0 + 2), &c->neg_one))
            return 0;
        c->bv[z] = BV_XOR;
        break;
    default: /* K_PACK: (u + sum v_i b_i) * ONE = z; the b_i are checked to be booleans in pass 2 */
        if (x != u || y != 0 || !fr_eq(csr_val(A, a0), &c->one) || !fr_eq(csr_val(C, c0), &c->one)) return 0;
        for (uint64_t e = a0 + 1; e < a1; e++)
            if (A->col[e] >= z) return 0;
        c->bv[z] = BV_FIELD;
        return 1;
    }
    uint32_t dx = z - x, dy = z - y, ops = (dx <= 0xffff ? dx : 0) | (dy <= 0xffff ? dy : 0) << 16;
    memcpy((unsigned char *)c->w + 4 * (size_t)j, &ops, sizeof ops);
    return 1;
}

static void wit_pass0(void *ctx, size_t begin, size_t end, int tid) {
    (void)tid;
    wit_ctx *c = ctx;
    const gen *g = c->g;
    uint32_t u = UINT32_MAX; /* chain input of the next PACK row: the previous PACK output */
    for (uint32_t j = (uint32_t)begin; j < end; j++) {
        if (u == UINT32_MAX && row_is_pack(g, j)) { /* the chunk's first PACK row: find the one before */
            uint32_t r = j;
            while (r > N_FORCED_BITS && !row_is_pack(g, r - 1)) r--;
            u = r > N_FORCED_BITS ? g->n_inputs + r - 1 : c->u0;
        }
        if (!wit_check_row(c, j, u)) { wit_note_bad(c, j); return; }
        if (c->bv[g->n_inputs + j] == BV_FIELD) u = g->n_inputs + j;
    }
}

/* Pass 1; returns the first row with an operand that is not boolean, or UINT32_MAX. */
static uint32_t wit_pass1(wit_ctx *c) {
    const csr_matrix *A = &c->cs->a, *B = &c->cs->b;
    const unsigned char *ops = (const unsigned char *)c->w;
    uint8_t *bv = c->bv;
    uint32_t n_inputs = c->g->n_inputs, n = c->g->n;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t z = n_inputs + j;
        uint8_t t = bv[z];
        if (t < BV_AND) continue;
        uint32_t o;
        memcpy(&o, ops + 4 * (size_t)j, sizeof o);
        uint32_t dx = o & 0xffff, dy = o >> 16;
        uint8_t bx = bv[dx ? z - dx : A->col[A->row_ptr[j]]], by = bv[dy ? z - dy : B->col[B->row_ptr[j]]];
        if ((bx | by) > 1) return j;
        bv[z] = t == BV_AND ? (uint8_t)(bx & by) : (uint8_t)(bx ^ by);
    }
    return UINT32_MAX;
}

static inline size_t wit_chunk_begin(const wit_ctx *c, size_t k) {
    return (size_t)((uint64_t)c->cs->n_vars * k / c->n_chunks);
}

/* Pass 2 over chunks k of variables. */
static void wit_pass2(void *ctx, size_t k_begin, size_t k_end, int tid) {
    (void)tid;
    wit_ctx *c = ctx;
    const csr_matrix *A = &c->cs->a;
    const uint8_t *bv = c->bv;
    uint32_t n_inputs = c->g->n_inputs;
    fr zero;
    fr_zero(&zero);
    for (size_t k = k_begin; k < k_end; k++) {
        fr run = zero;
        for (size_t v = wit_chunk_begin(c, k), v_end = wit_chunk_begin(c, k + 1); v < v_end; v++) {
            if (v < n_inputs) {
                if (v == 0) { c->w[0] = c->one; continue; }
                uint64_t l[4];
                for (int q = 0; q < 4; q++) l[q] = mix64(c->wkey + (uint64_t)v * 4 + (uint64_t)q);
                l[3] &= 0x3fffffffffffffffull; /* < 2^254 < r */
                fr_from_canon(&c->w[v], l);
                continue;
            }
            uint8_t t = bv[v];
            if (t <= 1) { c->w[v] = t ? c->one : zero; continue; }
            uint32_t j = (uint32_t)(v - n_inputs);
            for (uint64_t e = A->row_ptr[j] + 1, e1 = A->row_ptr[j + 1]; e < e1; e++) {
                uint8_t b = bv[A->col[e]];
                if (b > 1) { wit_note_bad(c, j); return; }
                if (b) fr_add(&run, &run, csr_val(A, e));
            }
            c->w[v] = run;
        }
        c->chunk_sum[k] = run;
    }
}

/* Pass 3 over chunks: adds the chain value before the chunk to its PACK outputs. */
static void wit_pass3(void *ctx, size_t k_begin, size_t k_end, int tid) {
    (void)tid;
    wit_ctx *c = ctx;
    const uint8_t *bv = c->bv;
    for (size_t k = k_begin; k < k_end; k++) {
        const fr *before = &c->chunk_sum[k];
        size_t v = wit_chunk_begin(c, k), v_end = wit_chunk_begin(c, k + 1);
        if (v < c->g->n_inputs) v = c->g->n_inputs;
        for (; v < v_end; v++)
            if (bv[v] == BV_FIELD) fr_add(&c->w[v], &c->w[v], before);
    }
}

cuzk_status synthetic_witness_mt(fr *w, size_t n_w, const r1cs *cs, const synthetic_params *p,
                                 uint64_t witness_seed, int nthreads, cuzk_error *err) {
    if (!w || !cs || !p) return ERR(err, CUZK_ERR_ARG, "synthetic_witness: NULL argument");
    if (n_w != cs->n_vars || cs->n_vars != synthetic_n_vars(p) || cs->n_constraints != p->n_constraints ||
        cs->n_public != p->n_public || cs->a.n_rows != p->n_constraints || cs->b.n_rows != p->n_constraints ||
        cs->c.n_rows != p->n_constraints)
        return ERR(err, CUZK_ERR_ARG, "synthetic_witness: the system or witness length does not fit the params");
    if (nthreads <= 0) nthreads = cuzk_num_threads();
    gen g;
    gen_init(&g, p);
    wit_ctx c = {.cs = cs, .g = &g, .w = w};
    /* chunks of pass 2 / 3: a few per thread, at least 256 variables each */
    c.n_chunks = (size_t)nthreads * 4;
    if (c.n_chunks > n_w / 256) c.n_chunks = n_w / 256;
    if (c.n_chunks < 1) c.n_chunks = 1;
    size_t bv_bytes = (n_w + 63) & ~(size_t)63;
    unsigned char *scratch = malloc(bv_bytes + c.n_chunks * sizeof(fr));
    if (!scratch)
        return ERR(err, CUZK_ERR_NOMEM, "synthetic_witness: cannot allocate %zu bytes of scratch",
                   bv_bytes + c.n_chunks * sizeof(fr));
    c.bv = scratch;
    c.chunk_sum = (fr *)(scratch + bv_bytes);
    c.u0 = p->n_public ? 1 : 0;
    fr_one(&c.one);
    fr_add(&c.two, &c.one, &c.one);
    fr_neg(&c.neg_one, &c.one);
    c.wkey = mix64(witness_seed ^ 0x3c6ef372fe94f82bull);
    c.bkey = mix64(c.wkey ^ 0xb17b17ull);
    atomic_init(&c.bad_row, UINT32_MAX);
    c.bv[0] = 1;
    memset(c.bv + 1, BV_FIELD, p->n_public);

    cuzk_status st = CUZK_OK;
    uint32_t bad;
    parallel_for(g.n, nthreads, wit_pass0, &c);
    if ((bad = atomic_load(&c.bad_row)) != UINT32_MAX) goto bad_row;
    if ((bad = wit_pass1(&c)) != UINT32_MAX) goto bad_row;
    parallel_for(c.n_chunks, nthreads, wit_pass2, &c);
    if ((bad = atomic_load(&c.bad_row)) != UINT32_MAX) goto bad_row;
    /* the chain value before each chunk, from the totals (w[u0] is final after pass 2) */
    fr chain = w[c.u0];
    for (size_t k = 0; k < c.n_chunks; k++) {
        fr total = c.chunk_sum[k];
        c.chunk_sum[k] = chain;
        fr_add(&chain, &chain, &total);
    }
    parallel_for(c.n_chunks, nthreads, wit_pass3, &c);
    goto out;
bad_row:
    st = ERR(err, CUZK_ERR_ARG, "synthetic_witness: row %u was not made from these params", bad);
out:
    free(scratch);
    return st;
}

cuzk_status synthetic_witness(fr *w, size_t n_w, const r1cs *cs, const synthetic_params *p,
                              uint64_t witness_seed, cuzk_error *err) {
    return synthetic_witness_mt(w, n_w, cs, p, witness_seed, 0, err);
}

/* ---- statistics --------------------------------------------------------------------------- */
cuzk_status synthetic_stats_compute(synthetic_stats *out, const r1cs *cs, const fr *w, cuzk_error *err) {
    if (!out || !cs) return ERR(err, CUZK_ERR_ARG, "synthetic_stats_compute: NULL argument");
    memset(out, 0, sizeof *out);
    uint8_t *flags = calloc(cs->n_vars ? cs->n_vars : 1, 1);
    if (!flags) return ERR(err, CUZK_ERR_NOMEM, "synthetic_stats_compute: %u bytes", cs->n_vars);
    for (uint64_t e = 0; e < cs->a.nnz; e++) if (!fr_is_zero(csr_val(&cs->a, e))) flags[cs->a.col[e]] |= 1;
    for (uint64_t e = 0; e < cs->b.nnz; e++) if (!fr_is_zero(csr_val(&cs->b, e))) flags[cs->b.col[e]] |= 2;
    size_t n_inputs = (size_t)cs->n_public + 1, n_aux = cs->n_vars - n_inputs, in_a = 0, in_b = 0, v01 = 0, v1 = 0;
    for (size_t i = n_inputs; i < cs->n_vars; i++) {
        in_a += flags[i] & 1;
        in_b += (flags[i] >> 1) & 1;
        if (w) {
            if (fr_is_zero(&w[i])) v01++;
            else if (fr_is_one(&w[i])) { v01++; v1++; }
        }
    }
    free(flags);
    double rows = cs->n_constraints ? (double)cs->n_constraints : 1.0, aux = n_aux ? (double)n_aux : 1.0;
    out->a_per_row = (double)cs->a.nnz / rows;
    out->b_per_row = (double)cs->b.nnz / rows;
    out->c_per_row = (double)cs->c.nnz / rows;
    out->aux_in_a = (double)in_a / aux;
    out->aux_in_b = (double)in_b / aux;
    out->aux_01 = (double)v01 / aux;
    out->aux_1 = (double)v1 / aux;
    return CUZK_OK;
}
