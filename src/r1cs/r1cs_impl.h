/* CSR constraint systems over one curve's Fr: building, freeing, SpMV, witness check (r1cs.h). A
 * template, instantiated per curve (src/r1cs/r1cs_<curve>.c); every curve-dependent name is
 * CN(name). */
#include "r1cs/r1cs.h"
#include "util/log.h"
#include "util/parallel.h"
#include "util/rng.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static void csr_free(CN(csr_matrix) *m) {
    free(m->row_ptr);
    free(m->col);
    free(m->coef_id);
    free(m->coef);
    memset(m, 0, sizeof *m);
}

void CN(r1cs_free)(CN(r1cs) *cs) {
    if (!cs) return;
    csr_free(&cs->a);
    csr_free(&cs->b);
    csr_free(&cs->c);
    memset(cs, 0, sizeof *cs);
}

uint32_t CN(csr_coef_find)(const CN(csr_matrix) *m, const CN(fr) *v) {
    for (uint32_t i = 0; i < m->n_coef; i++)
        if (CN(fr_eq)(&m->coef[i], v)) return i;
    return CSR_NO_COEF;
}

/* ---- builder ------------------------------------------------------------------------------ */
enum { COEF_CAP0 = 16, ROWS_CAP0 = 16 };
#define MAX_COEF (UINT32_MAX - 1) /* ids < 2^32 - 2: id + 1 fits a slot, CSR_NO_COEF is no id */

/* One finalizer over the folded limbs: Montgomery forms of distinct values already differ in
 * every limb, small integers included (v R mod r). */
static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t coef_hash(const CN(fr) *v) {
    return splitmix64_mix(v->l[0] ^ rotl64(v->l[1], 17) ^ rotl64(v->l[2], 31) ^ rotl64(v->l[3], 47));
}

/* The slot holding *v (its id + 1 there), or the empty slot where it would go (0 there). */
static inline uint64_t slot_probe(const CN(csr_builder) *b, const CN(fr) *v) {
    uint64_t h = coef_hash(v) & b->slot_mask;
    for (uint32_t s; (s = b->slot[h]) != 0; h = (h + 1) & b->slot_mask)
        if (CN(fr_eq)(&b->m.coef[s - 1], v)) break;
    return h;
}

/* Doubles the hash index (load stays <= 1/2). */
static cuzk_status slots_grow(CN(csr_builder) *b) {
    uint64_t n = 2 * (b->slot_mask + 1);
    if (n > SIZE_MAX / sizeof(uint32_t)) return CUZK_ERR_NOMEM;
    uint32_t *s = calloc((size_t)n, sizeof *s);
    if (!s) return CUZK_ERR_NOMEM;
    for (uint32_t id = 0; id < b->m.n_coef; id++) {
        uint64_t h = coef_hash(&b->m.coef[id]) & (n - 1);
        while (s[h]) h = (h + 1) & (n - 1);
        s[h] = id + 1;
    }
    free(b->slot);
    b->slot = s;
    b->slot_mask = n - 1;
    return CUZK_OK;
}

cuzk_status CN(csr_builder_init)(CN(csr_builder) *b, uint32_t rows_hint, uint64_t nnz_hint) {
    memset(b, 0, sizeof *b);
    b->rows_cap = rows_hint;
    b->nnz_cap = nnz_hint ? nnz_hint : 1;
    b->coef_cap = COEF_CAP0;
    b->slot_mask = 4 * COEF_CAP0 - 1;
    if (b->nnz_cap > SIZE_MAX / sizeof(uint32_t)) return CUZK_ERR_NOMEM;
    b->m.row_ptr = malloc(((size_t)rows_hint + 1) * sizeof *b->m.row_ptr);
    b->m.col = malloc((size_t)b->nnz_cap * sizeof *b->m.col);
    b->m.coef_id = malloc((size_t)b->nnz_cap * sizeof *b->m.coef_id);
    b->m.coef = malloc(b->coef_cap * sizeof *b->m.coef);
    b->slot = calloc(b->slot_mask + 1, sizeof *b->slot);
    if (!b->m.row_ptr || !b->m.col || !b->m.coef_id || !b->m.coef || !b->slot) {
        CN(csr_builder_free)(b);
        return CUZK_ERR_NOMEM;
    }
    b->m.row_ptr[0] = 0;
    return CUZK_OK;
}

cuzk_status CN(csr_builder_coef)(CN(csr_builder) *b, uint32_t *id, const CN(fr) *v) {
    uint64_t h = slot_probe(b, v);
    if (b->slot[h]) {
        *id = b->slot[h] - 1;
        return CUZK_OK;
    }
    CN(csr_matrix) *m = &b->m;
    if (m->n_coef == MAX_COEF) return CUZK_ERR_UNSUPPORTED;
    if (m->n_coef == b->coef_cap) {
        uint64_t cap = 2 * (uint64_t)b->coef_cap;
        if (cap > MAX_COEF) cap = MAX_COEF;
        CN(fr) *c = realloc(m->coef, (size_t)cap * sizeof *c);
        if (!c) return CUZK_ERR_NOMEM;
        m->coef = c;
        b->coef_cap = (uint32_t)cap;
    }
    if (2 * ((uint64_t)m->n_coef + 1) > b->slot_mask + 1) {
        cuzk_status st = slots_grow(b);
        if (st != CUZK_OK) return st;
        h = slot_probe(b, v);
    }
    m->coef[m->n_coef] = *v;
    b->slot[h] = m->n_coef + 1;
    *id = m->n_coef++;
    return CUZK_OK;
}

cuzk_status CN(csr_builder_push_id)(CN(csr_builder) *b, uint32_t col, uint32_t id) {
    CN(csr_matrix) *m = &b->m;
    if (id >= m->n_coef) return CUZK_ERR_ARG;
    if (m->nnz == b->nnz_cap) {
        uint64_t cap = 2 * b->nnz_cap;
        if (cap > SIZE_MAX / sizeof(uint32_t)) return CUZK_ERR_NOMEM;
        uint32_t *c = realloc(m->col, (size_t)cap * sizeof *c);
        if (!c) return CUZK_ERR_NOMEM;
        m->col = c;
        c = realloc(m->coef_id, (size_t)cap * sizeof *c);
        if (!c) return CUZK_ERR_NOMEM;
        m->coef_id = c;
        b->nnz_cap = cap;
    }
    m->col[m->nnz] = col;
    m->coef_id[m->nnz++] = id;
    return CUZK_OK;
}

cuzk_status CN(csr_builder_push)(CN(csr_builder) *b, uint32_t col, const CN(fr) *v) {
    uint32_t id;
    cuzk_status st = CN(csr_builder_coef)(b, &id, v);
    return st != CUZK_OK ? st : CN(csr_builder_push_id)(b, col, id);
}

cuzk_status CN(csr_builder_end_row)(CN(csr_builder) *b) {
    CN(csr_matrix) *m = &b->m;
    if (m->n_rows == UINT32_MAX) return CUZK_ERR_ARG;
    if (m->n_rows == b->rows_cap) {
        uint64_t cap = b->rows_cap < ROWS_CAP0 ? ROWS_CAP0 : 2 * (uint64_t)b->rows_cap;
        if (cap > UINT32_MAX) cap = UINT32_MAX;
        uint64_t *p = realloc(m->row_ptr, ((size_t)cap + 1) * sizeof *p);
        if (!p) return CUZK_ERR_NOMEM;
        m->row_ptr = p;
        b->rows_cap = (uint32_t)cap;
    }
    m->row_ptr[++m->n_rows] = m->nnz;
    return CUZK_OK;
}

void CN(csr_builder_finish)(CN(csr_builder) *b, CN(csr_matrix) *out) {
    CN(csr_matrix) *m = &b->m;
    m->nnz = m->row_ptr[m->n_rows]; /* an unclosed row is dropped */
    /* trimming: a failed shrink keeps the larger block */
    if (m->n_rows < b->rows_cap) {
        uint64_t *p = realloc(m->row_ptr, ((size_t)m->n_rows + 1) * sizeof *p);
        if (p) m->row_ptr = p;
    }
    uint64_t keep = m->nnz ? m->nnz : 1;
    if (keep < b->nnz_cap) {
        uint32_t *c = realloc(m->col, (size_t)keep * sizeof *c);
        if (c) m->col = c;
        c = realloc(m->coef_id, (size_t)keep * sizeof *c);
        if (c) m->coef_id = c;
    }
    if (m->n_coef == 0) {
        free(m->coef);
        m->coef = NULL;
    } else if (m->n_coef < b->coef_cap) {
        CN(fr) *c = realloc(m->coef, (size_t)m->n_coef * sizeof *c);
        if (c) m->coef = c;
    }
    free(b->slot);
    *out = *m;
    memset(b, 0, sizeof *b);
}

void CN(csr_builder_free)(CN(csr_builder) *b) {
    if (!b) return;
    csr_free(&b->m);
    free(b->slot);
    memset(b, 0, sizeof *b);
}

typedef struct spmv_ctx {
    CN(fr) *out;
    const CN(csr_matrix) *m;
    const CN(fr) *w;
} spmv_ctx;

static void spmv_rows(void *vc, size_t begin, size_t end, int tid) {
    (void)tid;
    const spmv_ctx *c = vc;
    const CN(csr_matrix) *m = c->m;
    for (size_t j = begin; j < end; j++) {
        CN(fr) acc, t;
        CN(fr_zero)(&acc);
        for (uint64_t k = m->row_ptr[j]; k < m->row_ptr[j + 1]; k++) {
            CN(fr_mul)(&t, CN(csr_val)(m, k), &c->w[m->col[k]]);
            CN(fr_add)(&acc, &acc, &t);
        }
        c->out[j] = acc;
    }
}

void CN(csr_spmv)(CN(fr) *out, const CN(csr_matrix) *m, const CN(fr) *w, int nthreads) {
    spmv_ctx c = {out, m, w};
    if (m->n_rows == 0) return;
    /* below a few thousand terms threads cost more than they save */
    if (m->nnz < 4096) nthreads = 1;
    parallel_for(m->n_rows, nthreads, spmv_rows, &c);
}

cuzk_status CN(r1cs_check_witness)(const CN(r1cs) *cs, const CN(fr) *w, size_t n_w, uint32_t *bad_row, cuzk_error *err) {
    if (!cs || (!w && n_w)) return ERR(err, CUZK_ERR_ARG, "r1cs_check_witness: NULL argument");
    if (n_w != cs->n_vars)
        return ERR(err, CUZK_ERR_MISMATCH, "r1cs_check_witness: witness has %zu values, the r1cs has %u wires", n_w,
                   cs->n_vars);
    uint32_t n = cs->n_constraints;
    if (n == 0) return CUZK_OK;
    CN(fr) *abc = malloc((size_t)n * 3 * sizeof(CN(fr)));
    if (!abc) return ERR(err, CUZK_ERR_NOMEM, "r1cs_check_witness: cannot allocate 3 x %u values", n);
    CN(csr_spmv)(abc, &cs->a, w, 0);
    CN(csr_spmv)(abc + n, &cs->b, w, 0);
    CN(csr_spmv)(abc + 2 * (size_t)n, &cs->c, w, 0);
    cuzk_status st = CUZK_OK;
    for (uint32_t j = 0; j < n; j++) {
        CN(fr) ab;
        CN(fr_mul)(&ab, &abc[j], &abc[n + j]);
        if (!CN(fr_eq)(&ab, &abc[2 * (size_t)n + j])) {
            if (bad_row) *bad_row = j;
            st = ERR(err, CUZK_ERR_UNSAT, "witness does not satisfy constraint %u: <A,w>*<B,w> != <C,w>", j);
            break;
        }
    }
    free(abc);
    return st;
}

/* ---- density bitmaps ---------------------------------------------------------------------- */
typedef struct {
    const CN(csr_matrix) *m;
    const uint8_t *zero;     /* per table entry: the coefficient is 0 */
    _Atomic uint64_t *words;
    size_t n_vars;
    _Atomic int bad;         /* a column >= n_vars was seen */
} density_ctx;

static void density_range(void *vc, size_t begin, size_t end, int tid) {
    (void)tid;
    density_ctx *c = vc;
    for (size_t k = begin; k < end; k++) {
        if (c->zero[c->m->coef_id[k]]) continue;
        uint32_t col = c->m->col[k];
        if (col >= c->n_vars) { atomic_store_explicit(&c->bad, 1, memory_order_relaxed); continue; }
        uint64_t bit = 1ull << (col & 63);
        /* most nonzeros hit an already set bit: read first, OR only when it is missing */
        if (!(atomic_load_explicit(&c->words[col >> 6], memory_order_relaxed) & bit))
            atomic_fetch_or_explicit(&c->words[col >> 6], bit, memory_order_relaxed);
    }
}

cuzk_status CN(r1cs_density_of)(r1cs_density *out, const CN(csr_matrix) *m, size_t n_vars, int nthreads, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "r1cs_density_of: NULL output");
    memset(out, 0, sizeof *out);
    if (!m) return ERR(err, CUZK_ERR_ARG, "r1cs_density_of: NULL matrix");
    size_t nw = (n_vars + 63) / 64;
    _Atomic uint64_t *words = calloc(nw ? nw : 1, sizeof *words);
    uint8_t *zero = malloc(m->n_coef ? m->n_coef : 1);
    if (!words || !zero) {
        free((void *)words);
        free(zero);
        return ERR(err, CUZK_ERR_NOMEM, "density bitmap of %zu variables", n_vars);
    }
    for (uint32_t i = 0; i < m->n_coef; i++) zero[i] = CN(fr_is_zero)(&m->coef[i]);
    density_ctx c = {m, zero, words, n_vars, 0};
    parallel_for(m->nnz, nthreads, density_range, &c);
    free(zero);
    if (atomic_load(&c.bad)) {
        free((void *)words);
        return ERR(err, CUZK_ERR_ARG, "r1cs_density_of: a column is >= %zu variables", n_vars);
    }
    out->words = (uint64_t *)words;
    out->n_vars = n_vars;
    for (size_t i = 0; i < nw; i++) out->count += (size_t)__builtin_popcountll(out->words[i]);
    return CUZK_OK;
}
