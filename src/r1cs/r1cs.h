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
 */
#ifndef CUZK_R1CS_R1CS_H
#define CUZK_R1CS_R1CS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "curves/curve.h"

typedef struct csr_matrix {
    uint32_t n_rows;
    uint64_t nnz;
    uint64_t *row_ptr; /* n_rows + 1 */
    uint32_t *col;     /* nnz */
    uint32_t *coef_id; /* nnz, indices into coef */
    uint32_t n_coef;
    fr *coef;          /* n_coef distinct values, Montgomery */
} csr_matrix;

/* The value of nonzero k < m->nnz (a pointer into m->coef). */
static inline const fr *csr_val(const csr_matrix *m, uint64_t k) { return &m->coef[m->coef_id[k]]; }

/* The id of the value *v in m's table, or CSR_NO_COEF when the table does not hold it. Linear in
 * n_coef (a table made by csr_builder holds each value once). */
#define CSR_NO_COEF UINT32_MAX
uint32_t csr_coef_find(const csr_matrix *m, const fr *v);

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

/* Fills *out for m over n_vars columns (every col of m must be < n_vars). Multithreaded over
 * nonzeros (nthreads <= 0: default; words are set with atomic OR). Errors: CUZK_ERR_ARG (NULL, a
 * column >= n_vars), CUZK_ERR_NOMEM; *out is zeroed on error. Thread-safe (reads m only). */
cuzk_status r1cs_density_of(r1cs_density *out, const csr_matrix *m, size_t n_vars, int nthreads, cuzk_error *err);
static inline int r1cs_density_test(const r1cs_density *d, size_t k) { return (int)((d->words[k >> 6] >> (k & 63)) & 1); }
void r1cs_density_free(r1cs_density *d);

typedef struct r1cs {
    uint32_t n_constraints; /* rows */
    uint32_t n_vars;        /* wires, ONE included */
    uint32_t n_public;      /* public variables after ONE: outputs then public inputs */
    csr_matrix a, b, c;
} r1cs;

void r1cs_free(r1cs *cs);

/* ---- circom / snarkjs files <-> CSR (r1cs_file.c, over the containers of src/formats) -------- */

/* .r1cs -> CSR; n_public = nOutputs + nPubInputs. Coefficients converted to Montgomery form and
 * deduplicated into each matrix's coefficient table (zero coefficients are kept as terms); rows
 * keep file term order. Custom-gate sections are rejected as unsupported. Errors as the loaders
 * of src/formats/snarkjs.h; *cs is zeroed on error. */
cuzk_status r1cs_load(r1cs *cs, const char *path, cuzk_error *err);
/* r1cs_load of a .r1cs image in memory (read during the call only); `name` names it in messages. */
cuzk_status r1cs_load_mem(r1cs *cs, const uint8_t *data, size_t size, const char *name, cuzk_error *err);
/* Writes cs as a circom .r1cs file (FORMATS.md section 1; version 1, sections 1 and 2, no wire
 * labels): the n_public variables after ONE as public inputs (nPubOut 0, nPrvIn 0), coefficients
 * canonical little-endian, terms in CSR order. r1cs_load gives cs back (same rows, columns and
 * values). Through a temporary renamed on success. Errors: CUZK_ERR_IO, CUZK_ERR_ARG. */
cuzk_status r1cs_save(const char *path, const r1cs *cs, cuzk_error *err);

/* Writes section 4 of a .zkey (src/formats/snarkjs.h zkey_writer) from cs: for each row j in
 * order, its A terms then its B terms (CSR order = file term order), then the n_public + 1 input
 * rows (A, row n_constraints + i, wire i, value 1). Encoding runs over nthreads threads. Errors
 * are sticky in the writer and reported by zkey_writer_close. */
struct zkey_writer;
void zkey_writer_coefs(struct zkey_writer *w, const r1cs *cs, int nthreads);

/* ---- building a csr_matrix ----------------------------------------------------------------
 * Rows are appended in order: push the nonzeros of a row (csr_builder_push, or csr_builder_coef
 * once per value then csr_builder_push_id), then close it (csr_builder_end_row); finally
 * csr_builder_finish moves the matrix out. The table is deduplicated with a hash index keyed by
 * the 32 bytes of the Montgomery value, so n_coef is the number of distinct values pushed
 * (every value distinct works too; at most 2^32 - 2 of them). Arrays grow by doubling past the
 * hints; with exact hints (rows, nonzeros) nothing is reallocated but the table.
 * Errors: CUZK_ERR_NOMEM; CUZK_ERR_ARG (push_id with an id >= n_coef, more rows than 2^32 - 1);
 * CUZK_ERR_UNSUPPORTED (2^32 - 1 distinct values). After an error the builder may only be
 * freed. Thread-safety: one builder per thread. */
typedef struct csr_builder {
    csr_matrix m;       /* so far: m.n_rows closed rows, m.nnz nonzeros, m.n_coef values */
    uint64_t nnz_cap;   /* entries allocated in m.col and m.coef_id */
    uint32_t rows_cap;  /* rows that m.row_ptr has room for */
    uint32_t coef_cap;  /* entries allocated in m.coef */
    uint32_t *slot;     /* hash index: slot_mask + 1 entries, each 0 (empty) or id + 1 */
    uint64_t slot_mask;
} csr_builder;

cuzk_status csr_builder_init(csr_builder *b, uint32_t rows_hint, uint64_t nnz_hint);
/* *id = the table id of *v, added to the table when new. */
cuzk_status csr_builder_coef(csr_builder *b, uint32_t *id, const fr *v);
/* Appends the nonzero (col, coef[id]) to the open row. */
cuzk_status csr_builder_push_id(csr_builder *b, uint32_t col, uint32_t id);
/* Appends the nonzero (col, *v) to the open row. */
cuzk_status csr_builder_push(csr_builder *b, uint32_t col, const fr *v);
/* Closes the open row (a row may be empty). */
cuzk_status csr_builder_end_row(csr_builder *b);
/* Moves the closed rows into *out (overwritten, not freed; the arrays then belong to *out's
 * owner: r1cs_free, or free() of row_ptr, col, coef_id and coef), trims the arrays to their sizes
 * and frees the hash index; *b is left empty. Terms pushed after the last end_row are dropped.
 * Cannot fail. */
void csr_builder_finish(csr_builder *b, csr_matrix *out);
void csr_builder_free(csr_builder *b); /* after an error, or to abandon a matrix */

/* out[j] = <M_j, w> for every row j < m->n_rows. w has at least max(col)+1 entries (Montgomery);
 * out has n_rows entries. Multithreaded over rows (nthreads <= 0: default). */
void csr_spmv(fr *out, const csr_matrix *m, const fr *w, int nthreads);

/* Checks <A_j,w><B_j,w> = <C_j,w> for every row. Returns CUZK_OK, or CUZK_ERR_UNSAT with the
 * first failing row in *bad_row (and in err's message). n_w must be cs->n_vars. */
cuzk_status r1cs_check_witness(const r1cs *cs, const fr *w, size_t n_w, uint32_t *bad_row, cuzk_error *err);

#endif
