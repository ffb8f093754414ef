/* circom/snarkjs files <-> CSR (declared in r1cs.h): the .r1cs reader (FORMATS.md section 1) and
 * the coefficient section of a .zkey (FORMATS.md section 3). The containers are parsed and
 * written by src/formats; this file only maps their records to and from csr_matrix. A template,
 * instantiated per curve (src/r1cs/r1cs_<curve>.c); every curve-dependent name is CN(name). */
#include "r1cs/r1cs.h"

#include "formats/fmt_util.h"
#include "formats/iden3.h"
#include "formats/snarkjs.h"
#include "util/log.h"
#include "util/parallel.h"

#include <stdlib.h>
#include <string.h>

static const char *const MAT_NAME[3] = {"A", "B", "C"};

/* Pass 1: walks section 2 and counts terms per matrix, checking only the structure. */
static cuzk_status r1cs_count(uint64_t nnz[3], byte_cursor c, uint32_t n_constraints, const char *path,
                              cuzk_error *err) {
    nnz[0] = nnz[1] = nnz[2] = 0;
    for (uint32_t j = 0; j < n_constraints; j++) {
        for (int m = 0; m < 3; m++) {
            uint32_t nt;
            const uint8_t *p;
            if (!cursor_u32le(&c, &nt))
                return ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 2 truncated at constraint %u (%s)", path, j, MAT_NAME[m]);
            if ((uint64_t)nt * 36 > c.left || !cursor_take(&c, (size_t)nt * 36, &p))
                return ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 2 truncated at constraint %u (%s: %u terms)", path,
                           j, MAT_NAME[m], nt);
            nnz[m] += nt;
        }
    }
    if (c.left != 0)
        return ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 2 has %zu bytes after %u constraints", path, c.left,
                   n_constraints);
    return CUZK_OK;
}

static cuzk_status r1cs_parse(CN(r1cs) *cs, const mapped_file *f, cuzk_error *err);

cuzk_status CN(r1cs_load)(CN(r1cs) *cs, const char *path, cuzk_error *err) {
    mapped_file f;
    cuzk_status st;
    memset(cs, 0, sizeof *cs);
    if ((st = mapped_file_open(&f, path, err))) return st;
    st = r1cs_parse(cs, &f, err);
    mapped_file_close(&f);
    return st;
}

cuzk_status CN(r1cs_load_mem)(CN(r1cs) *cs, const uint8_t *data, size_t size, const char *name, cuzk_error *err) {
    mapped_file f;
    memset(cs, 0, sizeof *cs);
    if (!data && size) return ERR(err, CUZK_ERR_ARG, "r1cs: NULL data");
    mapped_file_borrow(&f, data, size, name);
    cuzk_status st = r1cs_parse(cs, &f, err);
    mapped_file_close(&f);
    return st;
}

static cuzk_status r1cs_parse(CN(r1cs) *cs, const mapped_file *f, cuzk_error *err) {
    const char *path = f->path;
    iden3_file t;
    byte_cursor c;
    cuzk_status st;
    CN(csr_builder) bld[3];
    memset(bld, 0, sizeof bld);
    if ((st = iden3_parse(&t, f, "r1cs", 1, "r1cs", err))) goto out;
    if (t.sec[4].present || t.sec[5].present) {
        st = ERR(err, CUZK_ERR_UNSUPPORTED, "r1cs: %s: custom gates (sections 4/5) are not supported", path);
        goto out;
    }
    /* section 1, header */
    if ((st = iden3_section_open(&c, &t, f, 1, "r1cs", err))) goto out;
    uint32_t n8, n_wires, n_out, n_pub_in, n_prv_in, n_constraints;
    uint64_t n_labels;
    const uint8_t *prime;
    if (!cursor_u32le(&c, &n8)) { st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 1 truncated", path); goto out; }
    if (n8 == 0 || n8 % 8 != 0 || n8 > 64) {
        st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: field element size n8 = %u is not valid", path, n8);
        goto out;
    }
    if (!cursor_take(&c, n8, &prime)) { st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 1 truncated", path); goto out; }
    if ((st = iden3_check_prime(prime, n8, CURVE_PRIME_R, "r1cs", path, err))) goto out;
    if (!cursor_u32le(&c, &n_wires) || !cursor_u32le(&c, &n_out) || !cursor_u32le(&c, &n_pub_in) ||
        !cursor_u32le(&c, &n_prv_in) || !cursor_u64le(&c, &n_labels) || !cursor_u32le(&c, &n_constraints)) {
        st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 1 truncated", path);
        goto out;
    }
    if (c.left != 0) {
        st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 1 has %zu extra bytes", path, c.left);
        goto out;
    }
    /* Only ONE and the public signals are sure to have wires: circom's optimiser (also at its
     * default --O1) drops a private input that no constraint uses, or that `x === 15` or
     * `x === y` makes redundant, yet still counts it in nPrvInputs. As snarkjs does, the wires
     * are what section 3 maps to labels; nPrvInputs is not a wire count. */
    if (n_wires == 0 || (uint64_t)n_out + n_pub_in + 1 > n_wires) {
        st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: %u outputs + %u public inputs + ONE exceed %u wires", path, n_out,
                 n_pub_in, n_wires);
        goto out;
    }
    if ((uint64_t)n_out + n_pub_in + n_prv_in + 1 > n_labels) {
        st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: %u outputs + %u public + %u private inputs + ONE exceed %llu labels",
                 path, n_out, n_pub_in, n_prv_in, (unsigned long long)n_labels);
        goto out;
    }
    if (t.sec[3].present) {
        if (t.sec[3].size_bytes != (uint64_t)n_wires * 8) {
            st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 3 is %llu bytes, %u wires need %llu", path,
                     (unsigned long long)t.sec[3].size_bytes, n_wires, (unsigned long long)n_wires * 8);
            goto out;
        }
        /* the wire-to-label map: every label exists, and ONE and the public signals keep their
         * labels 0..nPublic (the witness and the verifier's inputs are read by position) */
        if ((st = iden3_section_open(&c, &t, f, 3, "r1cs", err))) goto out;
        for (uint32_t w = 0; w < n_wires; w++) {
            uint64_t label = 0;
            cursor_u64le(&c, &label); /* the size was checked above */
            if (label >= n_labels) {
                st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 3: wire %u has label %llu, but there are %llu labels",
                         path, w, (unsigned long long)label, (unsigned long long)n_labels);
                goto out;
            }
            if (w <= (uint64_t)n_out + n_pub_in && label != w) {
                st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 3: public wire %u has label %llu (a public signal "
                         "without its wire is not supported)", path, w, (unsigned long long)label);
                goto out;
            }
        }
    }
    /* section 2, constraints */
    if ((st = iden3_section_open(&c, &t, f, 2, "r1cs", err))) goto out;
    if ((uint64_t)n_constraints * 12 > c.left) {
        st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 2 (%zu bytes) too short for %u constraints", path, c.left,
                 n_constraints);
        goto out;
    }
    uint64_t nnz[3];
    if ((st = r1cs_count(nnz, c, n_constraints, path, err))) goto out;
    for (int m = 0; m < 3; m++) {
        if (CN(csr_builder_init)(&bld[m], n_constraints, nnz[m])) {
            st = ERR(err, CUZK_ERR_NOMEM, "r1cs: %s: cannot allocate %llu terms", path, (unsigned long long)nnz[m]);
            goto out;
        }
    }
    for (uint32_t j = 0; j < n_constraints; j++) {
        for (int m = 0; m < 3; m++) {
            uint32_t nt = 0;
            cursor_u32le(&c, &nt); /* sizes were checked by r1cs_count */
            for (uint32_t k = 0; k < nt; k++) {
                uint32_t wire = 0;
                const uint8_t *v = NULL;
                CN(fr) val;
                cursor_u32le(&c, &wire);
                cursor_take(&c, 32, &v);
                if (wire >= n_wires) {
                    st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: constraint %u, %s term %u: wire %u >= nWires %u", path, j,
                             MAT_NAME[m], k, wire, n_wires);
                    goto out;
                }
                if (!CN(fr_from_bytes_le)(&val, v, 32)) {
                    st = ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: constraint %u, %s term %u: coefficient not canonical (>= r)",
                             path, j, MAT_NAME[m], k);
                    goto out;
                }
                /* the hints are exact: only the coefficient table can grow */
                if ((st = CN(csr_builder_push)(&bld[m], wire, &val)) != CUZK_OK) {
                    st = ERR(err, st, "r1cs: %s: constraint %u, %s term %u: cannot add the coefficient to the "
                             "table (%s)", path, j, MAT_NAME[m], k, cuzk_status_str(st));
                    goto out;
                }
            }
            if ((st = CN(csr_builder_end_row)(&bld[m])) != CUZK_OK) {
                st = ERR(err, st, "r1cs: %s: constraint %u: %s", path, j, cuzk_status_str(st));
                goto out;
            }
        }
    }
    CN(csr_builder_finish)(&bld[0], &cs->a);
    CN(csr_builder_finish)(&bld[1], &cs->b);
    CN(csr_builder_finish)(&bld[2], &cs->c);
    cs->n_constraints = n_constraints;
    cs->n_vars = n_wires;
    cs->n_public = n_out + n_pub_in;
out:
    for (int m = 0; m < 3; m++) CN(csr_builder_free)(&bld[m]);
    if (st) CN(r1cs_free)(cs);
    return st;
}

/* ---- .zkey section 4 from a constraint system --------------------------------------------- */

#define COEF_ROWS_PER_BLOCK 16384

typedef struct {
    const CN(r1cs) *cs;
    uint32_t j0;
    uint64_t base; /* a.row_ptr[j0] + b.row_ptr[j0] */
    uint8_t *buf;
} coef_ctx;

static void coef_rows(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    coef_ctx *c = vc;
    const CN(csr_matrix) *A = &c->cs->a, *B = &c->cs->b;
    for (size_t jj = b; jj < e; jj++) {
        uint32_t j = c->j0 + (uint32_t)jj;
        uint8_t *p = c->buf + ZKEY_COEF_BYTES * (A->row_ptr[j] + B->row_ptr[j] - c->base);
        for (uint64_t k = A->row_ptr[j]; k < A->row_ptr[j + 1]; k++, p += ZKEY_COEF_BYTES)
            CN(zkey_coef_encode)(p, 0, j, A->col[k], CN(csr_val)(A, k));
        for (uint64_t k = B->row_ptr[j]; k < B->row_ptr[j + 1]; k++, p += ZKEY_COEF_BYTES)
            CN(zkey_coef_encode)(p, 1, j, B->col[k], CN(csr_val)(B, k));
    }
}

void CN(zkey_writer_coefs)(CN(zkey_writer) *w, const CN(r1cs) *cs, int nthreads) {
    if (!CN(zkey_writer_ok)(w)) return;
    uint32_t n_rows = cs->n_constraints;
    CN(zkey_writer_coef_section)(w, cs->a.nnz + cs->b.nnz + (uint64_t)cs->n_public + 1);
    uint8_t *buf = NULL;
    size_t cap = 0;
    for (uint32_t j0 = 0; j0 < n_rows && CN(zkey_writer_ok)(w); j0 += COEF_ROWS_PER_BLOCK) {
        uint32_t j1 = n_rows - j0 < COEF_ROWS_PER_BLOCK ? n_rows : j0 + COEF_ROWS_PER_BLOCK;
        uint64_t base = cs->a.row_ptr[j0] + cs->b.row_ptr[j0];
        size_t n = (size_t)(cs->a.row_ptr[j1] + cs->b.row_ptr[j1] - base);
        if (n * ZKEY_COEF_BYTES > cap) {
            free(buf);
            cap = n * ZKEY_COEF_BYTES;
            if (!(buf = malloc(cap))) { CN(zkey_writer_fail_nomem)(w); break; }
        }
        coef_ctx c = {cs, j0, base, buf};
        parallel_for(j1 - j0, nthreads, coef_rows, &c);
        CN(zkey_writer_coef_records)(w, buf, n);
    }
    free(buf);
    /* the public-input rows: A[nConstraints + i][i] = 1 for i = 0..nPublic */
    CN(fr) one;
    CN(fr_one)(&one);
    for (uint32_t i = 0; i <= cs->n_public && CN(zkey_writer_ok)(w); i++) {
        uint8_t rec[ZKEY_COEF_BYTES];
        CN(zkey_coef_encode)(rec, 0, n_rows + i, i, &one);
        CN(zkey_writer_coef_records)(w, rec, 1);
    }
}

/* ---- writer ---- */
#include <errno.h>
#include <stdio.h>

#include "util/outfile.h"

typedef struct { FILE *f; bool ok; } r1w;
static void r1w_bytes(r1w *w, const void *p, size_t n) { if (w->ok && n && fwrite(p, 1, n, w->f) != n) w->ok = false; }
static void r1w_u32(r1w *w, uint32_t v) { uint8_t b[4]; for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i)); r1w_bytes(w, b, 4); }
static void r1w_u64(r1w *w, uint64_t v) { uint8_t b[8]; for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i)); r1w_bytes(w, b, 8); }

cuzk_status CN(r1cs_save)(const char *path, const CN(r1cs) *cs, cuzk_error *err) {
    if (!path || !cs) return ERR(err, CUZK_ERR_ARG, "r1cs_save: NULL argument");
    const CN(csr_matrix) *m[3] = {&cs->a, &cs->b, &cs->c};
    uint64_t sec2 = 0;
    for (int k = 0; k < 3; k++) {
        if (m[k]->n_rows != cs->n_constraints) return ERR(err, CUZK_ERR_ARG, "r1cs_save: matrix %s has %u rows, not %u", MAT_NAME[k], m[k]->n_rows, cs->n_constraints);
        sec2 += 4ull * cs->n_constraints + 36ull * m[k]->nnz;
    }
    char tmp[4200];
    outfile_tmp_name(tmp, sizeof tmp, path);
    r1w w = {fopen(tmp, "wb"), true};
    if (!w.f) { int e = errno; outfile_discard(tmp); return ERR(err, CUZK_ERR_IO, "cannot write %s: %s", path, strerror(e)); }
    r1w_bytes(&w, "r1cs", 4);
    r1w_u32(&w, 1);
    r1w_u32(&w, 2);
    /* section 1: header */
    uint8_t prime[32];
    for (int i = 0; i < 4; i++)
        for (int b = 0; b < 8; b++) prime[8 * i + b] = (uint8_t)(CN(fr_MODULUS)[i] >> (8 * b));
    r1w_u32(&w, 1);
    r1w_u64(&w, 4 + 32 + 4 * 4 + 8 + 4);
    r1w_u32(&w, 32);
    r1w_bytes(&w, prime, 32);
    r1w_u32(&w, cs->n_vars);
    r1w_u32(&w, 0);
    r1w_u32(&w, cs->n_public);
    r1w_u32(&w, 0);
    r1w_u64(&w, cs->n_vars);
    r1w_u32(&w, cs->n_constraints);
    /* section 2: constraints */
    r1w_u32(&w, 2);
    r1w_u64(&w, sec2);
    uint8_t v[32];
    for (uint32_t j = 0; j < cs->n_constraints && w.ok; j++)
        for (int k = 0; k < 3; k++) {
            uint64_t b = m[k]->row_ptr[j], e = m[k]->row_ptr[j + 1];
            r1w_u32(&w, (uint32_t)(e - b));
            for (uint64_t t = b; t < e; t++) {
                r1w_u32(&w, m[k]->col[t]);
                CN(fr_to_bytes_le)(v, 32, CN(csr_val)(m[k], t));
                r1w_bytes(&w, v, 32);
            }
        }
    if (fclose(w.f) != 0) w.ok = false;
    if (!w.ok) { int e = errno; outfile_discard(tmp); return ERR(err, CUZK_ERR_IO, "cannot write %s: %s", path, strerror(e)); }
    return outfile_commit(tmp, path, err);
}
