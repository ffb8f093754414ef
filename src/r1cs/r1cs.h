/* Constraint systems in compressed sparse row (CSR) form.
 *
 * A rank-1 constraint system over Fr: rows j = 0..n_constraints-1, columns = variables
 * (wire 0 is the constant ONE, then n_public public variables, then private ones), and for a
 * witness w: <A_j, w> * <B_j, w> = <C_j, w> for every row j.
 *
 * csr_matrix: row_ptr has n_rows + 1 entries; the nonzeros of row j are
 * col[row_ptr[j] .. row_ptr[j+1]-1] with values val[...] (Fr, Montgomery form). Columns within a
 * row are in file order (not necessarily sorted). All arrays are host heap memory owned by the
 * r1cs and freed by r1cs_free.
 */
#ifndef CUZK_R1CS_R1CS_H
#define CUZK_R1CS_R1CS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "ff/fields.h"

typedef struct csr_matrix {
    uint32_t n_rows;
    uint64_t nnz;
    uint64_t *row_ptr; /* n_rows + 1 */
    uint32_t *col;     /* nnz */
    fr *val;           /* nnz, Montgomery */
} csr_matrix;

typedef struct r1cs {
    uint32_t n_constraints; /* rows */
    uint32_t n_vars;        /* wires, ONE included */
    uint32_t n_public;      /* public variables after ONE: outputs then public inputs */
    csr_matrix a, b, c;
} r1cs;

void r1cs_free(r1cs *cs);

/* out[j] = <M_j, w> for every row j < m->n_rows. w has at least max(col)+1 entries (Montgomery);
 * out has n_rows entries. Multithreaded over rows (nthreads <= 0: default). */
void csr_spmv(fr *out, const csr_matrix *m, const fr *w, int nthreads);

/* Checks <A_j,w><B_j,w> = <C_j,w> for every row. Returns CUZK_OK, or CUZK_ERR_UNSAT with the
 * first failing row in *bad_row (and in err's message). n_w must be cs->n_vars. */
cuzk_status r1cs_check_witness(const r1cs *cs, const fr *w, size_t n_w, uint32_t *bad_row, cuzk_error *err);

#endif
