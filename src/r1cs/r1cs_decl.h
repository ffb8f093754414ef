/* Constraint systems over one curve's Fr (r1cs/r1cs.h): a declaration template, included once per
 * curve by r1cs/r1cs.h with the curve's name space set (src/curves/<curve>/ns.h); every
 * curve-dependent name is CN(name). No include guard. */
typedef struct CN(csr_matrix) {
    uint32_t n_rows;
    uint64_t nnz;
    uint64_t *row_ptr; /* n_rows + 1 */
    uint32_t *col;     /* nnz */
    uint32_t *coef_id; /* nnz, indices into coef */
    uint32_t n_coef;
    CN(fr) *coef;          /* n_coef distinct values, Montgomery */
} CN(csr_matrix);

/* The value of nonzero k < m->nnz (a pointer into m->coef). */
static inline const CN(fr) *CN(csr_val)(const CN(csr_matrix) *m, uint64_t k) { return &m->coef[m->coef_id[k]]; }

/* The id of the value *v in m's table, or CSR_NO_COEF when the table does not hold it. Linear in
 * n_coef (a table made by csr_builder holds each value once). */
uint32_t CN(csr_coef_find)(const CN(csr_matrix) *m, const CN(fr) *v);

/* Fills *out for m over n_vars columns (every col of m must be < n_vars). Multithreaded over
 * nonzeros (nthreads <= 0: default; words are set with atomic OR). Errors: CUZK_ERR_ARG (NULL, a
 * column >= n_vars), CUZK_ERR_NOMEM; *out is zeroed on error. Thread-safe (reads m only). */
cuzk_status CN(r1cs_density_of)(r1cs_density *out, const CN(csr_matrix) *m, size_t n_vars, int nthreads, cuzk_error *err);
typedef struct CN(r1cs) {
    uint32_t n_constraints; /* rows */
    uint32_t n_vars;        /* wires, ONE included */
    uint32_t n_public;      /* public variables after ONE: outputs then public inputs */
    CN(csr_matrix) a, b, c;
} CN(r1cs);

void CN(r1cs_free)(CN(r1cs) *cs);

/* ---- circom / snarkjs files <-> CSR (r1cs_file.c, over the containers of src/formats) -------- */

/* .r1cs -> CSR; n_public = nOutputs + nPubInputs. Coefficients converted to Montgomery form and
 * deduplicated into each matrix's coefficient table (zero coefficients are kept as terms); rows
 * keep file term order. Custom-gate sections are rejected as unsupported. Errors as the loaders
 * of src/formats/snarkjs.h; *cs is zeroed on error. */
cuzk_status CN(r1cs_load)(CN(r1cs) *cs, const char *path, cuzk_error *err);
/* r1cs_load of a .r1cs image in memory (read during the call only); `name` names it in messages. */
cuzk_status CN(r1cs_load_mem)(CN(r1cs) *cs, const uint8_t *data, size_t size, const char *name, cuzk_error *err);
/* Writes cs as a circom .r1cs file (FORMATS.md section 1; version 1, sections 1 and 2, no wire
 * labels): the n_public variables after ONE as public inputs (nPubOut 0, nPrvIn 0), coefficients
 * canonical little-endian, terms in CSR order. r1cs_load gives cs back (same rows, columns and
 * values). Through a temporary renamed on success. Errors: CUZK_ERR_IO, CUZK_ERR_ARG. */
cuzk_status CN(r1cs_save)(const char *path, const CN(r1cs) *cs, cuzk_error *err);

/* Writes section 4 of a .zkey (src/formats/snarkjs.h zkey_writer) from cs: for each row j in
 * order, its A terms then its B terms (CSR order = file term order), then the n_public + 1 input
 * rows (A, row n_constraints + i, wire i, value 1). Encoding runs over nthreads threads. Errors
 * are sticky in the writer and reported by zkey_writer_close. */
struct CN(zkey_writer);
void CN(zkey_writer_coefs)(struct CN(zkey_writer) *w, const CN(r1cs) *cs, int nthreads);

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
typedef struct CN(csr_builder) {
    CN(csr_matrix) m;       /* so far: m.n_rows closed rows, m.nnz nonzeros, m.n_coef values */
    uint64_t nnz_cap;   /* entries allocated in m.col and m.coef_id */
    uint32_t rows_cap;  /* rows that m.row_ptr has room for */
    uint32_t coef_cap;  /* entries allocated in m.coef */
    uint32_t *slot;     /* hash index: slot_mask + 1 entries, each 0 (empty) or id + 1 */
    uint64_t slot_mask;
} CN(csr_builder);

cuzk_status CN(csr_builder_init)(CN(csr_builder) *b, uint32_t rows_hint, uint64_t nnz_hint);
/* *id = the table id of *v, added to the table when new. */
cuzk_status CN(csr_builder_coef)(CN(csr_builder) *b, uint32_t *id, const CN(fr) *v);
/* Appends the nonzero (col, coef[id]) to the open row. */
cuzk_status CN(csr_builder_push_id)(CN(csr_builder) *b, uint32_t col, uint32_t id);
/* Appends the nonzero (col, *v) to the open row. */
cuzk_status CN(csr_builder_push)(CN(csr_builder) *b, uint32_t col, const CN(fr) *v);
/* Closes the open row (a row may be empty). */
cuzk_status CN(csr_builder_end_row)(CN(csr_builder) *b);
/* Moves the closed rows into *out (overwritten, not freed; the arrays then belong to *out's
 * owner: r1cs_free, or free() of row_ptr, col, coef_id and coef), trims the arrays to their sizes
 * and frees the hash index; *b is left empty. Terms pushed after the last end_row are dropped.
 * Cannot fail. */
void CN(csr_builder_finish)(CN(csr_builder) *b, CN(csr_matrix) *out);
void CN(csr_builder_free)(CN(csr_builder) *b); /* after an error, or to abandon a matrix */

/* out[j] = <M_j, w> for every row j < m->n_rows. w has at least max(col)+1 entries (Montgomery);
 * out has n_rows entries. Multithreaded over rows (nthreads <= 0: default). */
void CN(csr_spmv)(CN(fr) *out, const CN(csr_matrix) *m, const CN(fr) *w, int nthreads);

/* Checks <A_j,w><B_j,w> = <C_j,w> for every row. Returns CUZK_OK, or CUZK_ERR_UNSAT with the
 * first failing row in *bad_row (and in err's message). n_w must be cs->n_vars. */
cuzk_status CN(r1cs_check_witness)(const CN(r1cs) *cs, const CN(fr) *w, size_t n_w, uint32_t *bad_row, cuzk_error *err);

