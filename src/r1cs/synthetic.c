/* PoRep-shaped synthetic constraint systems and their witnesses (synthetic.h). */
#include "r1cs/synthetic.h"

#include <stdlib.h>
#include <string.h>

#include "util/log.h"
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

static inline int row_kind_h(const gen *g, uint32_t j, uint64_t h) {
    if (j < N_FORCED_BITS) return K_BIT;
    if ((((uint64_t)j + 1) * g->p32 >> 32) != ((uint64_t)j * g->p32 >> 32)) return K_PACK;
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
static inline void dot_row(fr *acc, const csr_matrix *m, uint32_t j, uint64_t end, const fr *w, const fr *one) {
    fr t;
    fr_zero(acc);
    for (uint64_t e = m->row_ptr[j]; e < end; e++) {
        const fr *v = &w[m->col[e]];
        if (fr_is_zero(v)) continue;
        if (fr_eq(csr_val(m, e), one)) fr_add(acc, acc, v);
        else { fr_mul(&t, csr_val(m, e), v); fr_add(acc, acc, &t); }
    }
}

cuzk_status synthetic_witness(fr *w, size_t n_w, const r1cs *cs, const synthetic_params *p,
                              uint64_t witness_seed, cuzk_error *err) {
    if (!w || !cs || !p) return ERR(err, CUZK_ERR_ARG, "synthetic_witness: NULL argument");
    if (n_w != cs->n_vars || cs->n_vars != synthetic_n_vars(p) || cs->n_constraints != p->n_constraints ||
        cs->n_public != p->n_public)
        return ERR(err, CUZK_ERR_ARG, "synthetic_witness: the system or witness length does not fit the params");
    gen g;
    gen_init(&g, p);
    fr one, zero;
    fr_one(&one);
    fr_zero(&zero);
    uint64_t wkey = mix64(witness_seed ^ 0x3c6ef372fe94f82bull);
    w[0] = one;
    for (uint32_t i = 1; i < g.n_inputs; i++) {
        uint64_t l[4];
        for (int q = 0; q < 4; q++) l[q] = mix64(wkey + (uint64_t)i * 4 + (uint64_t)q);
        l[3] &= 0x3fffffffffffffffull; /* < 2^254 < r */
        fr_from_canon(&w[i], l);
    }
    uint64_t bkey = mix64(wkey ^ 0xb17b17ull);
    for (uint32_t j = 0; j < g.n; j++) {
        uint32_t z = g.n_inputs + j;
        uint64_t ce = cs->c.row_ptr[j + 1];
        uint64_t h = row_hash(&g, j);
        int kind = row_kind_h(&g, j, h);
        if (ce - cs->c.row_ptr[j] != row_nnz_c(kind) || cs->c.col[ce - 1] != z ||
            cs->a.row_ptr[j + 1] - cs->a.row_ptr[j] != row_nnz_a(&g, kind, h))
            return ERR(err, CUZK_ERR_ARG, "synthetic_witness: row %u was not made from these params", j);
        if (kind == K_BIT) {
            w[z] = (mix64(bkey + j) >> 63) ? one : zero;
            continue;
        }
        fr a, b, c;
        dot_row(&a, &cs->a, j, cs->a.row_ptr[j + 1], w, &one);
        dot_row(&b, &cs->b, j, cs->b.row_ptr[j + 1], w, &one);
        dot_row(&c, &cs->c, j, ce - 1, w, &one);
        fr_mul(&a, &a, &b);
        if (fr_eq(csr_val(&cs->c, ce - 1), &one)) fr_sub(&w[z], &a, &c);   /* z = ab - rest */
        else fr_sub(&w[z], &c, &a);                                   /* -z: z = rest - ab */
    }
    return CUZK_OK;
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
