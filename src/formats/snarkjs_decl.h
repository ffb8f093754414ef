/* The snarkjs .zkey and .wtns readers and writers of one curve (formats/snarkjs.h): a declaration
 * template, included once per curve by formats/snarkjs.h with the curve's name space set
 * (src/curves/<curve>/ns.h); every curve-dependent name is CN(name). No include guard. */
/* One coefficient of zkey section 4: matrix 0 = A, 1 = B. */
typedef struct CN(zkey_coef) {
    uint32_t matrix, row, wire;
    CN(fr) value; /* Montgomery form of the coefficient v (the file's M2 value reduced once) */
} CN(zkey_coef);

typedef struct CN(zkey) {
    uint32_t n_vars;       /* wires, ONE included */
    uint32_t n_public;     /* outputs + public inputs (ONE not counted) */
    uint32_t domain_size;  /* n = 2^log_domain */
    int log_domain;
    uint32_t n_constraints; /* R1CS rows: the highest coefficient row minus n_public (snarkjs adds
                               the n_public + 1 input rows after the constraints) */
    CN(g1_affine) alpha1, beta1, delta1;
    CN(g2_affine) beta2, gamma2, delta2;
    CN(g1_affine) *ic;   /* n_public + 1 */
    CN(g1_affine) *a;    /* n_vars (infinity where a wire is absent from A) */
    CN(g1_affine) *b1;   /* n_vars */
    CN(g2_affine) *b2;   /* n_vars */
    CN(g1_affine) *c;    /* n_vars - n_public - 1: entry j is wire j + n_public + 1 */
    CN(g1_affine) *h;    /* domain_size: Lagrange basis of the odd coset (FORMATS.md section 3) */
    uint32_t n_coefs;
    CN(zkey_coef) *coefs; /* n_coefs, file order */
} CN(zkey);

/* check_subgroup: also run the (slower) prime-order subgroup check on every point. */
cuzk_status CN(zkey_load)(CN(zkey) *z, const char *path, bool check_subgroup, cuzk_error *err);
/* zkey_load of a .zkey image of size bytes in memory (read during the call only); `name` stands
 * for the path in messages. */
cuzk_status CN(zkey_load_mem)(CN(zkey) *z, const uint8_t *data, size_t size, const char *name, bool check_subgroup,
                              cuzk_error *err);
void CN(zkey_free)(CN(zkey) *z);
/* The verification key of a .zkey from its sections 1-3 alone (header, IC: milliseconds whatever
 * the key's size; the other sections are not read, only their table entries): every point checked
 * on the curve and in the subgroup, none at infinity. vk->ic is owned (groth16_vk_free). Errors as
 * zkey_load's. */
cuzk_status CN(zkey_load_vk)(CN(groth16_vk) *vk, const char *path, cuzk_error *err);

/* Streaming .zkey writer (Groth16, bls12381, version 1, 10 sections; FORMATS.md section 3), so
 * that a generator writes each point section as soon as it is computed and frees it.
 *   open:     file header, section 1 (protocol 1) and section 2 from h's n_vars, n_public,
 *             domain_size and the six vk points (every other field of h is ignored);
 *   coef_section + coef_records: section 4 announced with its record count, then exactly that
 *             many 44-byte records (zkey_coef_encode: u32 matrix, row, wire, then the value as
 *             v*R^2 mod r, "M2"), in one or several calls. zkey_writer_coefs (src/r1cs/r1cs.h)
 *             writes the section from a constraint system;
 *   section + g1s/g2s: one point section (3 IC, 5 A, 6 B1, 7 B2 (G2), 8 C, 9 H) announced with
 *             its point count, then exactly that many points in one or several calls; points are
 *             written as they are in memory (Montgomery little-endian limbs = snarkjs's form;
 *             (0, 0) = infinity = zero bytes);
 *   close:    section 10 (a zero 64-byte circuit hash: no ceremony; 0 contributions), checks that
 *             sections 1-10 were each written completely once, closes and frees w (always).
 * Sections may come in any order (readers use the section table). Errors are sticky and reported
 * by close: CUZK_ERR_IO (write failed, errno kept), CUZK_ERR_ARG (sizes or order misused).
 * The caller removes a partial file. Not thread-safe per writer. */
typedef struct CN(zkey_writer) CN(zkey_writer);
cuzk_status CN(zkey_writer_open)(CN(zkey_writer) **w, const char *path, const CN(zkey) *h, cuzk_error *err);
/* One section-4 record: matrix (0 = A, 1 = B), row, wire, and v (Montgomery form in memory)
 * written as v*R^2 mod r. */
void CN(zkey_coef_encode)(uint8_t rec[ZKEY_COEF_BYTES], uint32_t matrix, uint32_t row, uint32_t wire, const CN(fr) *v);
void CN(zkey_writer_coef_section)(CN(zkey_writer) *w, uint64_t n_coefs);
void CN(zkey_writer_coef_records)(CN(zkey_writer) *w, const uint8_t *rec, size_t n);
/* false after any error so far (reported in full by close). */
bool CN(zkey_writer_ok)(const CN(zkey_writer) *w);
/* Marks the writer failed with ENOMEM (a caller's buffer could not be allocated). */
void CN(zkey_writer_fail_nomem)(CN(zkey_writer) *w);
void CN(zkey_writer_section)(CN(zkey_writer) *w, uint32_t id, uint64_t n_points);
void CN(zkey_writer_g1s)(CN(zkey_writer) *w, const CN(g1_affine) *p, size_t n);
void CN(zkey_writer_g2s)(CN(zkey_writer) *w, const CN(g2_affine) *p, size_t n);
uint64_t CN(zkey_writer_bytes)(const CN(zkey_writer) *w);
cuzk_status CN(zkey_writer_close)(CN(zkey_writer) *w, const char *path, cuzk_error *err);

typedef struct CN(wtns) {
    uint32_t n;   /* nWitness, w[0] = 1 */
    CN(fr) *w;        /* n values, Montgomery form */
} CN(wtns);
cuzk_status CN(wtns_load)(CN(wtns) *w, const char *path, cuzk_error *err);
/* wtns_load of a .wtns image in memory (read during the call only). */
cuzk_status CN(wtns_load_mem)(CN(wtns) *w, const uint8_t *data, size_t size, const char *name, cuzk_error *err);
/* The value count of a .wtns image after checking its layout (header, prime of this
 * curve, section sizes) without reading the values. Errors as wtns_load_mem. */
cuzk_status CN(wtns_count_mem)(uint32_t *n, const uint8_t *data, size_t size, const char *name, cuzk_error *err);
/* The values of a .wtns image in memory (read during the call only) straight into the caller's
 * out (n_out values of 4 little-endian 64-bit limbs): Montgomery form (mont) or canonical limbs,
 * converted on nthreads threads (<= 0: the default count), no other copy made. *n (may be NULL):
 * the file's count. Errors as wtns_load_mem; CUZK_ERR_MISMATCH when the count is not n_out
 * (nothing written); CUZK_ERR_FORMAT names the first value >= r (out then partly written). */
cuzk_status CN(wtns_convert_mem)(const uint8_t *data, size_t size, const char *name, uint64_t *out, size_t n_out,
                                 bool mont, int nthreads, uint32_t *n, cuzk_error *err);
/* Writes a version-2 .wtns with n values (Montgomery in, normal form on disk). */
cuzk_status CN(wtns_write)(const char *path, const CN(fr) *w, uint32_t n, cuzk_error *err);
void CN(wtns_free)(CN(wtns) *w);
