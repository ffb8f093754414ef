/* The constraint-system builder (cs.h). */
#include "circuit/cs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/parallel.h"

cuzk_status cs_fail(cs *cs, cuzk_status st, const char *fmt, ...) {
    if (cs->status == CUZK_OK) {
        char msg[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        cs->status = st;
        ERR(&cs->err, st, "%s", msg);
    }
    return cs->status;
}

static void cs_common_init(cs *cs, unsigned flags) {
    memset(cs, 0, sizeof *cs);
    cs->flags = flags;
    cs->lc_on = (flags & (CS_MATRICES | CS_DENSITY)) != 0;
    cs->coef_on = (flags & CS_MATRICES) != 0;
    fr_one(&cs->one);
    fr_neg(&cs->neg_one, &cs->one);
    fr_dbl(&cs->two, &cs->one);
    cs->pow2[0] = cs->one;
    for (int i = 1; i < 256; i++) fr_dbl(&cs->pow2[i], &cs->pow2[i - 1]);
}

cuzk_status cs_init(cs *cs, unsigned flags) {
    cs_common_init(cs, flags);
    cs->own_w = true; /* in_end / aux_end: allocated capacities of the grown arrays */
    if (flags & CS_MATRICES)
        for (int m = 0; m < 3; m++)
            if (csr_builder_init(&cs->mat[m], 1024, 4096) != CUZK_OK) return cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory");
    cs_alloc_input(cs, &cs->one);
    return cs->status;
}

cuzk_status cs_init_view(cs *cs, fr *in_w, uint64_t in_first, uint64_t in_end, fr *aux_w, uint64_t aux_first,
                         uint64_t aux_end) {
    cs_common_init(cs, CS_WITNESS);
    cs->own_w = false;
    cs->in_w = in_w; cs->in_first = in_first; cs->in_end = in_end; cs->n_inputs = in_first;
    cs->aux_w = aux_w; cs->aux_first = aux_first; cs->aux_end = aux_end; cs->n_aux = aux_first;
    return CUZK_OK;
}

cuzk_status cs_init_part(cs *cs, unsigned flags, uint64_t first_input, uint64_t first_aux, uint32_t rows_hint,
                         const uint64_t nnz_hint[3]) {
    cs_common_init(cs, flags);
    if ((flags & CS_WITNESS) || !(flags & (CS_MATRICES | CS_DENSITY)))
        return cs_fail(cs, CUZK_ERR_ARG, "cs_init_part: flags %u (CS_MATRICES and/or CS_DENSITY)", flags);
    if (first_input == 0 || first_input > CS_MAX_VARS || first_aux > CS_MAX_VARS)
        return cs_fail(cs, CUZK_ERR_ARG, "cs_init_part: first input %llu / aux %llu", (unsigned long long)first_input,
                       (unsigned long long)first_aux);
    cs->n_inputs = first_input;
    cs->n_aux = first_aux;
    if (flags & CS_DENSITY) {
        /* bitmaps of the circuit's numbering, covering every variable before the part too (a
         * constraint may name ONE before the part allocates an input) */
        cs_bits *bs[3] = {&cs->a_aux, &cs->b_aux, &cs->b_in};
        uint64_t need[3] = {first_aux / 64 + 1, first_aux / 64 + 1, first_input / 64 + 1};
        for (int i = 0; i < 3; i++) {
            uint64_t nw = i < 2 ? 1024 : 64;
            while (nw < need[i]) nw *= 2;
            if (!(bs[i]->w = calloc(nw, 8))) return cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory (density)");
            bs[i]->n_words = nw;
        }
    }
    if (flags & CS_MATRICES)
        for (int m = 0; m < 3; m++)
            if (csr_builder_init(&cs->mat[m], rows_hint ? rows_hint : 1024, nnz_hint && nnz_hint[m] ? nnz_hint[m] : 4096) != CUZK_OK)
                return cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory");
    return CUZK_OK;
}

cuzk_status cs_take_part(cs *cs, cs_part *out) {
    memset(out, 0, sizeof *out);
    if (cs->status != CUZK_OK) return cs->status;
    if (!(cs->flags & CS_MATRICES)) return cs_fail(cs, CUZK_ERR_ARG, "cs: not recording matrices");
    for (int k = 0; k < 3; k++) csr_builder_finish(&cs->mat[k], &out->m[k]);
    out->inputs_end = cs->n_inputs;
    out->aux_end = cs->n_aux;
    out->n_constraints = cs->n_constraints;
    cs->flags &= ~(unsigned)CS_MATRICES;
    return CUZK_OK;
}

static void csr_arrays_free(csr_matrix *m) {
    free(m->row_ptr); free(m->col); free(m->coef_id); free(m->coef);
    memset(m, 0, sizeof *m);
}

void cs_part_free(cs_part *p) {
    if (!p) return;
    for (int k = 0; k < 3; k++) csr_arrays_free(&p->m[k]);
}

typedef struct {
    csr_matrix *out;
    cs_part *parts;
    int k;                  /* which matrix */
    const uint32_t *const *remap; /* per part: its coefficient id -> the joined table's */
    const uint64_t *row_off, *nnz_off;
    uint64_t n_inputs, n_aux;
    int bad;                /* a column out of range */
} join_ctx;

static void join_copy(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    join_ctx *c = vc;
    for (size_t p = b; p < e; p++) {
        const csr_matrix *m = &c->parts[p].m[c->k];
        uint64_t r0 = c->row_off[p], z0 = c->nnz_off[p];
        for (uint32_t r = 0; r < m->n_rows; r++) c->out->row_ptr[r0 + r] = m->row_ptr[r] + z0;
        const uint32_t *map = c->remap[p];
        for (uint64_t z = 0; z < m->nnz; z++) {
            uint32_t v = m->col[z];
            uint64_t w = (v & CS_AUX) ? c->n_inputs + (v & ~CS_AUX) : v;
            if ((v & CS_AUX) ? (v & ~CS_AUX) >= c->n_aux : v >= c->n_inputs) __atomic_store_n(&c->bad, 1, __ATOMIC_RELAXED);
            c->out->col[z0 + z] = (uint32_t)w;
            c->out->coef_id[z0 + z] = map[m->coef_id[z]];
        }
        csr_arrays_free(&c->parts[p].m[c->k]);
    }
}

cuzk_status cs_join_parts(r1cs *out, cs_part *parts, size_t n_parts, uint64_t n_inputs, uint64_t n_aux, int nthreads,
                          cuzk_error *err) {
    memset(out, 0, sizeof *out);
    cuzk_status st = CUZK_OK;
    uint64_t *row_off = calloc(n_parts + 1, sizeof *row_off), *nnz_off = calloc(n_parts + 1, sizeof *nnz_off);
    uint32_t **remap = calloc(n_parts ? n_parts : 1, sizeof *remap);
    if (!row_off || !nnz_off || !remap) { st = ERR(err, CUZK_ERR_NOMEM, "cs_join_parts: out of memory"); goto out; }
    if (n_inputs == 0 || n_inputs + n_aux > UINT32_MAX) {
        st = ERR(err, CUZK_ERR_UNSUPPORTED, "cs_join_parts: %llu inputs + %llu aux do not fit the CSR form",
                 (unsigned long long)n_inputs, (unsigned long long)n_aux);
        goto out;
    }
    csr_matrix *dst[3] = {&out->a, &out->b, &out->c};
    for (int k = 0; k < 3; k++) {
        /* offsets, and the joined table: each part's values in its order, new ones appended */
        csr_builder tb;
        if (csr_builder_init(&tb, 0, 1) != CUZK_OK) { st = ERR(err, CUZK_ERR_NOMEM, "cs_join_parts: out of memory"); goto out; }
        for (size_t p = 0; p < n_parts && st == CUZK_OK; p++) {
            const csr_matrix *m = &parts[p].m[k];
            row_off[p + 1] = row_off[p] + m->n_rows;
            nnz_off[p + 1] = nnz_off[p] + m->nnz;
            free(remap[p]);
            remap[p] = malloc((m->n_coef ? m->n_coef : 1) * sizeof **remap);
            if (!remap[p]) { st = ERR(err, CUZK_ERR_NOMEM, "cs_join_parts: out of memory"); break; }
            for (uint32_t i = 0; i < m->n_coef && st == CUZK_OK; i++) {
                cuzk_status s2 = csr_builder_coef(&tb, &remap[p][i], &m->coef[i]);
                if (s2 != CUZK_OK) st = ERR(err, s2, "cs_join_parts: coefficient table (%u values)", tb.m.n_coef);
            }
        }
        if (st == CUZK_OK && row_off[n_parts] > UINT32_MAX - 1)
            st = ERR(err, CUZK_ERR_UNSUPPORTED, "cs_join_parts: %llu rows", (unsigned long long)row_off[n_parts]);
        csr_matrix table;
        csr_builder_finish(&tb, &table);
        if (st != CUZK_OK) { csr_arrays_free(&table); goto out; }
        csr_matrix *d = dst[k];
        d->n_rows = (uint32_t)row_off[n_parts];
        d->nnz = nnz_off[n_parts];
        d->n_coef = table.n_coef;
        d->coef = table.coef;
        table.coef = NULL;
        csr_arrays_free(&table);
        d->row_ptr = malloc(((size_t)d->n_rows + 1) * sizeof *d->row_ptr);
        d->col = malloc((d->nnz ? d->nnz : 1) * sizeof *d->col);
        d->coef_id = malloc((d->nnz ? d->nnz : 1) * sizeof *d->coef_id);
        if (!d->row_ptr || !d->col || !d->coef_id) {
            st = ERR(err, CUZK_ERR_NOMEM, "cs_join_parts: out of memory for %llu nonzeros", (unsigned long long)d->nnz);
            goto out;
        }
        join_ctx c = {d, parts, k, (const uint32_t *const *)remap, row_off, nnz_off, n_inputs, n_aux, 0};
        parallel_for(n_parts, nthreads, join_copy, &c);
        d->row_ptr[d->n_rows] = d->nnz;
        if (c.bad) { st = ERR(err, CUZK_ERR_ARG, "cs_join_parts: a part names a variable past %llu inputs / %llu aux",
                              (unsigned long long)n_inputs, (unsigned long long)n_aux); goto out; }
    }
    out->n_constraints = (uint32_t)row_off[n_parts];
    out->n_vars = (uint32_t)(n_inputs + n_aux);
    out->n_public = (uint32_t)(n_inputs - 1);
out:
    for (size_t p = 0; p < n_parts; p++) cs_part_free(&parts[p]);
    if (remap)
        for (size_t p = 0; p < n_parts; p++) free(remap[p]);
    free(remap);
    free(row_off);
    free(nnz_off);
    if (st != CUZK_OK) r1cs_free(out);   /* zeroes *out */
    return st;
}

void cs_free(cs *cs) {
    if (cs->own_w) { free(cs->in_w); free(cs->aux_w); }
    for (int m = 0; m < 3; m++) csr_builder_free(&cs->mat[m]);
    free(cs->a_aux.w); free(cs->b_aux.w); free(cs->b_in.w);
    for (int i = 0; i < 4; i++) cs_lc_free(&cs->tmp[i]);
    free(cs->merge);
    memset(cs, 0, sizeof *cs);
}

/* Grows an owned value array so index idx fits. */
static bool grow_values(cs *cs, fr **arr, uint64_t *cap_end, uint64_t idx) {
    if (idx < *cap_end) return true;
    uint64_t cap = *cap_end ? 2 * *cap_end : 1024;
    while (cap <= idx) cap *= 2;
    fr *p = realloc(*arr, cap * sizeof(fr));
    if (!p) { cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory for %llu values", (unsigned long long)cap); return false; }
    *arr = p;
    *cap_end = cap;
    return true;
}

static cs_var store(cs *cs, bool input, const fr *value) {
    uint64_t idx = input ? cs->n_inputs : cs->n_aux;
    if (idx >= CS_MAX_VARS) { cs_fail(cs, CUZK_ERR_UNSUPPORTED, "cs: more than 2^31 - 1 variables"); return 0; }
    if (cs->flags & CS_WITNESS) {
        fr **arr = input ? &cs->in_w : &cs->aux_w;
        uint64_t first = input ? cs->in_first : cs->aux_first;
        if (!cs->own_w && idx >= (input ? cs->in_end : cs->aux_end)) {
            cs_fail(cs, CUZK_ERR_MISMATCH, "cs: %s variable %llu past the witness slice", input ? "input" : "aux",
                    (unsigned long long)idx);
            return 0;
        }
        if (cs->status == CUZK_OK) (*arr)[idx - first] = *value;
    }
    if (input) cs->n_inputs++; else cs->n_aux++;
    return input ? (cs_var)idx : (CS_AUX | (cs_var)idx);
}

cs_var cs_alloc(cs *cs, const fr *value) {
    if (cs->status != CUZK_OK) return CS_AUX;
    if ((cs->flags & CS_WITNESS) && cs->own_w) {
        uint64_t cap = cs->aux_end; /* owned arrays: [0, aux_end) is the allocated capacity */
        if (cs->n_aux >= cap) {
            if (!grow_values(cs, &cs->aux_w, &cap, cs->n_aux)) return CS_AUX;
            cs->aux_end = cap;
        }
    }
    if (cs->flags & CS_DENSITY) {
        uint64_t need = cs->n_aux / 64 + 1;
        cs_bits *bs[2] = {&cs->a_aux, &cs->b_aux};
        for (int i = 0; i < 2; i++) {
            if (need > bs[i]->n_words) {
                uint64_t nw = bs[i]->n_words ? 2 * bs[i]->n_words : 1024;
                uint64_t *p = realloc(bs[i]->w, nw * 8);
                if (!p) { cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory (density)"); return CS_AUX; }
                memset(p + bs[i]->n_words, 0, (nw - bs[i]->n_words) * 8);
                bs[i]->w = p; bs[i]->n_words = nw;
            }
        }
    }
    return store(cs, false, value);
}

cs_var cs_alloc_input(cs *cs, const fr *value) {
    if (cs->status != CUZK_OK) return 0;
    if ((cs->flags & CS_WITNESS) && cs->own_w) {
        uint64_t cap = cs->in_end;
        if (cs->n_inputs >= cap) {
            if (!grow_values(cs, &cs->in_w, &cap, cs->n_inputs)) return 0;
            cs->in_end = cap;
        }
    }
    if (cs->flags & CS_DENSITY) {
        uint64_t need = cs->n_inputs / 64 + 1;
        if (need > cs->b_in.n_words) {
            uint64_t nw = cs->b_in.n_words ? 2 * cs->b_in.n_words : 64;
            uint64_t *p = realloc(cs->b_in.w, nw * 8);
            if (!p) { cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory (density)"); return 0; }
            memset(p + cs->b_in.n_words, 0, (nw - cs->b_in.n_words) * 8);
            cs->b_in.w = p; cs->b_in.n_words = nw;
        }
    }
    return store(cs, true, value);
}

void cs_value(const cs *cs, fr *out, cs_var v) {
    fr_zero(out);
    if (!(cs->flags & CS_WITNESS)) return;
    if (v & CS_AUX) {
        uint64_t j = v & ~CS_AUX;
        if (j >= cs->aux_first && j < cs->n_aux) *out = cs->aux_w[j - cs->aux_first];
    } else {
        uint64_t i = v;
        if (i >= cs->in_first && i < cs->n_inputs) *out = cs->in_w[i - cs->in_first];
    }
}

static void set_bit(cs_bits *b, uint64_t k) { b->w[k >> 6] |= 1ull << (k & 63); }

void cs_enforce(cs *cs, const cs_lc *a, const cs_lc *b, const cs_lc *c) {
    if (cs->status != CUZK_OK) return;
    cs->n_constraints++;
    if (!cs->lc_on) return;
    if (cs->n_constraints > UINT32_MAX - 1) { cs_fail(cs, CUZK_ERR_UNSUPPORTED, "cs: more than 2^32 - 2 constraints"); return; }
    const cs_lc *m3[3] = {a, b, c};
    if (cs->flags & CS_DENSITY) {
        bool exact = cs->coef_on;
        for (uint32_t k = 0; k < a->n; k++)
            if ((a->t[k].var & CS_AUX) && !(exact && fr_is_zero(&a->t[k].coef))) set_bit(&cs->a_aux, a->t[k].var & ~CS_AUX);
        for (uint32_t k = 0; k < b->n; k++) {
            if (exact && fr_is_zero(&b->t[k].coef)) continue;
            if (b->t[k].var & CS_AUX) set_bit(&cs->b_aux, b->t[k].var & ~CS_AUX);
            else set_bit(&cs->b_in, b->t[k].var);
        }
    }
    if (cs->flags & CS_MATRICES) {
        for (int m = 0; m < 3; m++) {
            for (uint32_t k = 0; k < m3[m]->n; k++)
                if (csr_builder_push(&cs->mat[m], m3[m]->t[k].var, &m3[m]->t[k].coef) != CUZK_OK) {
                    cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory recording constraint %llu",
                            (unsigned long long)cs->n_constraints);
                    return;
                }
            if (csr_builder_end_row(&cs->mat[m]) != CUZK_OK) {
                cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory recording constraint %llu", (unsigned long long)cs->n_constraints);
                return;
            }
        }
    }
}

/* ---- linear combinations ---- */
void cs_lc_clear(cs_lc *lc) { lc->n = 0; }
void cs_lc_free(cs_lc *lc) { free(lc->t); lc->t = NULL; lc->n = lc->cap = 0; }

static bool lc_reserve(cs *cs, cs_lc *lc, uint32_t n) {
    if (n <= lc->cap) return true;
    uint32_t cap = lc->cap ? 2 * lc->cap : 16;
    while (cap < n) cap *= 2;
    cs_term *p = realloc(lc->t, (size_t)cap * sizeof *p);
    if (!p) { cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory (linear combination)"); return false; }
    lc->t = p;
    lc->cap = cap;
    return true;
}

void cs_lc_add(cs *cs, cs_lc *lc, cs_var var, const fr *coef) {
    if (!cs->lc_on || cs->status != CUZK_OK) return;
    const fr *c = coef ? coef : &cs->one;
    /* fast path: append after the largest */
    uint32_t lo = 0, hi = lc->n;
    if (lc->n == 0 || lc->t[lc->n - 1].var < var) {
        lo = lc->n;
    } else {
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (lc->t[mid].var < var) lo = mid + 1; else hi = mid;
        }
        if (lo < lc->n && lc->t[lo].var == var) {
            if (cs->coef_on) fr_add(&lc->t[lo].coef, &lc->t[lo].coef, c);
            return;
        }
    }
    if (!lc_reserve(cs, lc, lc->n + 1)) return;
    memmove(&lc->t[lo + 1], &lc->t[lo], (size_t)(lc->n - lo) * sizeof *lc->t);
    lc->t[lo].var = var;
    lc->t[lo].pad_ = 0;
    if (cs->coef_on) lc->t[lo].coef = *c;
    lc->n++;
}

void cs_lc_sub(cs *cs, cs_lc *lc, cs_var var) { cs_lc_add(cs, lc, var, &cs->neg_one); }

void cs_lc_add_lc(cs *cs, cs_lc *dst, const cs_lc *src, const fr *coef) {
    if (!cs->lc_on || cs->status != CUZK_OK || src->n == 0) return;
    if (src->n == 1) {  /* one term: an insertion (the common case: an allocated variable) */
        if (!cs->coef_on) { cs_lc_add(cs, dst, src->t[0].var, NULL); return; }
        fr v = src->t[0].coef;
        if (coef) fr_mul(&v, &v, coef);
        cs_lc_add(cs, dst, src->t[0].var, &v);
        return;
    }
    /* merge two sorted lists through the builder's scratch */
    uint32_t need = dst->n + src->n;
    if (!lc_reserve(cs, dst, need)) return;
    if (need > cs->merge_cap) {
        uint32_t cap = cs->merge_cap ? 2 * cs->merge_cap : 256;
        while (cap < need) cap *= 2;
        cs_term *p = realloc(cs->merge, (size_t)cap * sizeof *p);
        if (!p) { cs_fail(cs, CUZK_ERR_NOMEM, "cs: out of memory (linear combination)"); return; }
        cs->merge = p;
        cs->merge_cap = cap;
    }
    cs_term *out = cs->merge;
    bool exact = cs->coef_on;
    uint32_t i = 0, j = 0, k = 0;
    while (i < dst->n || j < src->n) {
        if (j >= src->n || (i < dst->n && dst->t[i].var < src->t[j].var)) {
            out[k++] = dst->t[i++];
        } else if (i < dst->n && dst->t[i].var == src->t[j].var) {
            out[k] = dst->t[i++];
            if (exact) {
                fr v = src->t[j].coef;
                if (coef) fr_mul(&v, &v, coef);
                fr_add(&out[k].coef, &out[k].coef, &v);
            }
            k++; j++;
        } else {
            out[k] = src->t[j++];
            if (exact && coef) fr_mul(&out[k].coef, &out[k].coef, coef);
            k++;
        }
    }
    memcpy(dst->t, out, (size_t)k * sizeof *out);
    dst->n = k;
}

void cs_lc_copy(cs *cs, cs_lc *dst, const cs_lc *src) {
    if (!cs->lc_on || cs->status != CUZK_OK) return;
    if (!lc_reserve(cs, dst, src->n)) return;
    memcpy(dst->t, src->t, (size_t)src->n * sizeof *src->t);
    dst->n = src->n;
}

void cs_lc_scale(cs *cs, cs_lc *lc, const fr *coef) {
    if (!cs->coef_on || cs->status != CUZK_OK) return;
    for (uint32_t k = 0; k < lc->n; k++) fr_mul(&lc->t[k].coef, &lc->t[k].coef, coef);
}

/* ---- results ---- */
cuzk_status cs_finish_r1cs(cs *cs, r1cs *out) {
    memset(out, 0, sizeof *out);
    if (cs->status != CUZK_OK) return cs->status;
    if (!(cs->flags & CS_MATRICES)) return cs_fail(cs, CUZK_ERR_ARG, "cs: not recording matrices");
    if (cs->n_inputs + cs->n_aux > UINT32_MAX) return cs_fail(cs, CUZK_ERR_UNSUPPORTED, "cs: too many variables for the CSR form");
    csr_matrix *m[3] = {&out->a, &out->b, &out->c};
    for (int k = 0; k < 3; k++) {
        csr_builder_finish(&cs->mat[k], m[k]);
        for (uint64_t e = 0; e < m[k]->nnz; e++) {
            uint32_t v = m[k]->col[e];
            if (v & CS_AUX) m[k]->col[e] = (uint32_t)(cs->n_inputs + (v & ~CS_AUX));
        }
    }
    out->n_constraints = (uint32_t)cs->n_constraints;
    out->n_vars = (uint32_t)(cs->n_inputs + cs->n_aux);
    out->n_public = (uint32_t)(cs->n_inputs - 1);
    cs->flags &= ~(unsigned)CS_MATRICES;
    return CUZK_OK;
}

cuzk_status cs_witness(const cs *cs, fr **out, size_t *n_out) {
    *out = NULL;
    *n_out = 0;
    if (cs->status != CUZK_OK) return cs->status;
    if (!(cs->flags & CS_WITNESS) || !cs->own_w) return CUZK_ERR_ARG;
    size_t n = (size_t)(cs->n_inputs + cs->n_aux);
    fr *w = malloc((n ? n : 1) * sizeof *w);
    if (!w) return CUZK_ERR_NOMEM;
    memcpy(w, cs->in_w, (size_t)cs->n_inputs * sizeof *w);
    if (cs->n_aux) memcpy(w + cs->n_inputs, cs->aux_w, (size_t)cs->n_aux * sizeof *w);
    *out = w;
    *n_out = n;
    return CUZK_OK;
}

uint64_t cs_bits_count(const cs_bits *b) {
    uint64_t c = 0;
    for (uint64_t i = 0; i < b->n_words; i++) c += (uint64_t)__builtin_popcountll(b->w[i]);
    return c;
}
