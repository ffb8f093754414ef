/* CSR constraint systems: freeing, SpMV, witness check (r1cs.h). */
#include "r1cs/r1cs.h"
#include "util/log.h"
#include "util/parallel.h"

#include <stdlib.h>
#include <string.h>

static void csr_free(csr_matrix *m) {
    free(m->row_ptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof *m);
}

void r1cs_free(r1cs *cs) {
    if (!cs) return;
    csr_free(&cs->a);
    csr_free(&cs->b);
    csr_free(&cs->c);
    memset(cs, 0, sizeof *cs);
}

typedef struct spmv_ctx {
    fr *out;
    const csr_matrix *m;
    const fr *w;
} spmv_ctx;

static void spmv_rows(void *vc, size_t begin, size_t end, int tid) {
    (void)tid;
    const spmv_ctx *c = vc;
    const csr_matrix *m = c->m;
    for (size_t j = begin; j < end; j++) {
        fr acc, t;
        fr_zero(&acc);
        for (uint64_t k = m->row_ptr[j]; k < m->row_ptr[j + 1]; k++) {
            fr_mul(&t, &m->val[k], &c->w[m->col[k]]);
            fr_add(&acc, &acc, &t);
        }
        c->out[j] = acc;
    }
}

void csr_spmv(fr *out, const csr_matrix *m, const fr *w, int nthreads) {
    spmv_ctx c = {out, m, w};
    if (m->n_rows == 0) return;
    /* below a few thousand terms threads cost more than they save */
    if (m->nnz < 4096) nthreads = 1;
    parallel_for(m->n_rows, nthreads, spmv_rows, &c);
}

cuzk_status r1cs_check_witness(const r1cs *cs, const fr *w, size_t n_w, uint32_t *bad_row, cuzk_error *err) {
    if (!cs || (!w && n_w)) return ERR(err, CUZK_ERR_ARG, "r1cs_check_witness: NULL argument");
    if (n_w != cs->n_vars)
        return ERR(err, CUZK_ERR_MISMATCH, "r1cs_check_witness: witness has %zu values, the r1cs has %u wires", n_w,
                   cs->n_vars);
    uint32_t n = cs->n_constraints;
    if (n == 0) return CUZK_OK;
    fr *abc = malloc((size_t)n * 3 * sizeof(fr));
    if (!abc) return ERR(err, CUZK_ERR_NOMEM, "r1cs_check_witness: cannot allocate 3 x %u values", n);
    csr_spmv(abc, &cs->a, w, 0);
    csr_spmv(abc + n, &cs->b, w, 0);
    csr_spmv(abc + 2 * (size_t)n, &cs->c, w, 0);
    cuzk_status st = CUZK_OK;
    for (uint32_t j = 0; j < n; j++) {
        fr ab;
        fr_mul(&ab, &abc[j], &abc[n + j]);
        if (!fr_eq(&ab, &abc[2 * (size_t)n + j])) {
            if (bad_row) *bad_row = j;
            st = ERR(err, CUZK_ERR_UNSAT, "witness does not satisfy constraint %u: <A,w>*<B,w> != <C,w>", j);
            break;
        }
    }
    free(abc);
    return st;
}
