/* Random CSR matrices for tests (src/r1cs/r1cs.h): the plain arrays of what went in (row
 * pointers, columns, one Fr per nonzero) next to the matrix csr_builder made from them, so that a
 * test can check the dictionary-coded matrix against the values themselves. Shared by the r1cs,
 * formats and gpu suites. */
#ifndef CUZK_TESTS_TEST_CSR_H
#define CUZK_TESTS_TEST_CSR_H

#include <stdbool.h>
#include <stdlib.h>

#include "r1cs/r1cs.h"
#include "test_rand.h"

/* Kinds of coefficients: MIXED draws 0, 1, -1 (r - 1), 2^i (i < 256), one of 8 random values
 * (repeated) or a fresh random value; DISTINCT draws fresh random values only (every one
 * distinct, with overwhelming probability); SMALL draws 1, -1 and 2 (PoRep-like). */
enum { TEST_COEF_MIXED, TEST_COEF_DISTINCT, TEST_COEF_SMALL };

typedef struct test_csr {
    csr_matrix m;      /* built by csr_builder */
    uint32_t n_rows;
    uint64_t nnz;
    uint64_t *row_ptr; /* n_rows + 1: what went in */
    uint32_t *col;     /* nnz */
    fr *val;           /* nnz, Montgomery */
} test_csr;

static inline void test_rand_coef(fr *v, int kind, const fr pool[8]) {
    uint64_t r = test_rand64();
    if (kind == TEST_COEF_DISTINCT) { test_rand_fr(v); return; }
    if (kind == TEST_COEF_SMALL) {
        fr_one(v);
        if (r % 3 == 1) fr_neg(v, v);
        else if (r % 3 == 2) fr_add(v, v, v);
        return;
    }
    switch (r % 8) {
    case 0: fr_zero(v); break;
    case 1: case 2: fr_one(v); break;
    case 3: fr_one(v); fr_neg(v, v); break;
    case 4:
        fr_one(v);
        for (unsigned i = (unsigned)(r >> 8) % 256; i > 0; i--) fr_add(v, v, v);
        break;
    case 5: case 6: *v = pool[(r >> 16) % 8]; break;
    default: test_rand_fr(v); break;
    }
}

static inline void test_csr_free(test_csr *t) {
    free(t->m.row_ptr); free(t->m.col); free(t->m.coef_id); free(t->m.coef);
    free(t->row_ptr); free(t->col); free(t->val);
    memset(t, 0, sizeof *t);
}

/* rows rows of 0..max_row_nnz nonzeros each, columns < n_cols (repeats within a row allowed);
 * exact_hints: the builder is told the sizes, else its arrays grow from nothing. Returns false
 * (t freed) when an allocation or the builder fails. */
static inline bool test_csr_make(test_csr *t, uint32_t rows, uint32_t n_cols, unsigned max_row_nnz, int kind,
                                 bool exact_hints) {
    memset(t, 0, sizeof *t);
    fr pool[8];
    for (int i = 0; i < 8; i++) test_rand_fr(&pool[i]);
    t->n_rows = rows;
    t->row_ptr = malloc(((size_t)rows + 1) * sizeof *t->row_ptr);
    if (!t->row_ptr) return false;
    t->row_ptr[0] = 0;
    for (uint32_t r = 0; r < rows; r++) t->row_ptr[r + 1] = t->row_ptr[r] + test_rand64() % (max_row_nnz + 1);
    t->nnz = t->row_ptr[rows];
    t->col = malloc((t->nnz + 1) * sizeof *t->col);
    t->val = malloc((t->nnz + 1) * sizeof *t->val);
    if (!t->col || !t->val) { test_csr_free(t); return false; }
    for (uint64_t k = 0; k < t->nnz; k++) {
        t->col[k] = (uint32_t)(test_rand64() % n_cols);
        test_rand_coef(&t->val[k], kind, pool);
    }
    csr_builder b;
    bool ok = csr_builder_init(&b, exact_hints ? rows : 0, exact_hints ? t->nnz : 0) == CUZK_OK;
    for (uint32_t r = 0; ok && r < rows; r++) {
        for (uint64_t k = t->row_ptr[r]; ok && k < t->row_ptr[r + 1]; k++)
            ok = csr_builder_push(&b, t->col[k], &t->val[k]) == CUZK_OK;
        ok = ok && csr_builder_end_row(&b) == CUZK_OK;
    }
    if (!ok) { csr_builder_free(&b); test_csr_free(t); return false; }
    csr_builder_finish(&b, &t->m);
    return true;
}

#endif
