/* Constraint systems in compressed sparse row (CSR) form, with dictionary-coded coefficients.
 *
 * A rank-1 constraint system over Fr: rows j = 0..n_constraints-1, columns = variables
 * (wire 0 is the constant ONE, then n_public public variables, then private ones), and for a
 * witness w: <A_j, w> * <B_j, w> = <C_j, w> for every row j.
 *
 * csr_matrix: row_ptr has n_rows + 1 entries; the nonzeros of row j are k = row_ptr[j] ..
 * row_ptr[j+1]-1, with column col[k] and value coef[coef_id[k]] (csr_val(m, k)). coef is the
 * matrix's table of distinct coefficient values (n_coef entries, Fr, Montgomery form, in order of
 * first appearance when made by csr_builder; each value once, so ids of equal values are equal);
 * coef_id[k] < n_coef. Columns within a row are in file order (not necessarily sorted). A
 * coefficient may be 0 (a .r1cs file may hold such terms; they are kept, and consumers that
 * need the support skip them). All arrays are host heap memory owned by the r1cs and freed by
 * r1cs_free; col and coef_id are allocated with at least one entry, coef is NULL when
 * n_coef = 0.
 *
 * Memory per matrix: 8 (n_rows + 1) + 8 nnz + 32 n_coef bytes (before this encoding: 36 nnz,
 * one Fr per nonzero). Circuits have few distinct values (PoRep's are almost all +-1, 2 and
 * powers of two; the synthetic system's are exactly those, n_coef <= 64 per matrix; the
 * merkle_mimc5 fixture's C has 50 for 2768 nonzeros), so a nonzero costs 8 bytes instead of 36;
 * a matrix whose every coefficient is distinct costs 40 (4 more). While csr_builder runs, its
 * hash index adds 8-16 bytes per distinct value and the table grows by doubling.
 *
 * Thread-safety: a built matrix is read-only; any number of threads may read it at once.
 *
 * Declared once per curve (r1cs/r1cs_decl.h, src/curves/curve.h): r1cs over BLS12-381's Fr,
 * bn254_r1cs over BN254's.
 */
#ifndef CUZK_R1CS_R1CS_H
#define CUZK_R1CS_R1CS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "curves/curve.h"

#define CSR_NO_COEF UINT32_MAX

/* ---- density bitmaps --------------------------------------------------------------------
 * Which variables a matrix uses: bit k (of words[k / 64], least significant first) is set iff
 * column k has a nonzero coefficient in some row (a coefficient that is 0 does not count).
 * bellperson's "density" of the A and B queries: the A query holds the inputs and the A-dense
 * aux variables, the B queries the B-dense variables. ceil(n_vars / 64) words (16 MB at 130M
 * variables), bits at and past n_vars are 0; count = number of set bits. Owned by the caller
 * (r1cs_density_free). */
typedef struct r1cs_density {
    uint64_t *words;
    size_t n_vars;
    size_t count;
} r1cs_density;

static inline int r1cs_density_test(const r1cs_density *d, size_t k) { return (int)((d->words[k >> 6] >> (k & 63)) & 1); }
void r1cs_density_free(r1cs_density *d);


/* one declaration pass per curve: r1cs, bn254_r1cs, csr_spmv, bn254_csr_spmv, ... */
#include "curves/bls12_381/ns.h"
#include "r1cs/r1cs_decl.h"
#include "curves/bn254/ns.h"
#include "r1cs/r1cs_decl.h"
#include "curves/ns_reset.h"

#endif
