/* Saved constraint systems (pce.h). */
#include "r1cs/pce.h"

#include <errno.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/log.h"
#include "util/outfile.h"

static const char PCE_MAGIC[8] = {'C', 'U', 'Z', 'K', 'P', 'C', 'E', '1'};

typedef struct { FILE *f; EVP_MD_CTX *sha; bool ok; } wr;
static void w_bytes(wr *w, const void *p, size_t n) {
    if (!w->ok || n == 0) return;
    EVP_DigestUpdate(w->sha, p, n);
    if (fwrite(p, 1, n, w->f) != n) w->ok = false;
}
static void w_u32(wr *w, uint32_t v) { uint8_t b[4]; for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i)); w_bytes(w, b, 4); }
static void w_u64(wr *w, uint64_t v) { uint8_t b[8]; for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i)); w_bytes(w, b, 8); }

cuzk_status pce_save(const char *path, const r1cs *cs, cuzk_error *err) {
    if (!path || !cs) return ERR(err, CUZK_ERR_ARG, "pce_save: NULL argument");
    char tmp[4200];
    outfile_tmp_name(tmp, sizeof tmp, path);
    wr w = {fopen(tmp, "wb"), EVP_MD_CTX_new(), true};
    if (!w.f || !w.sha || !EVP_DigestInit_ex(w.sha, EVP_sha256(), NULL)) {
        int e = errno;
        if (w.f) fclose(w.f);
        EVP_MD_CTX_free(w.sha);
        outfile_discard(tmp);
        return ERR(err, CUZK_ERR_IO, "cannot write %s: %s", path, strerror(e));
    }
    w_bytes(&w, PCE_MAGIC, 8);
    w_u32(&w, 1);
    w_u32(&w, cs->n_constraints);
    w_u32(&w, cs->n_vars);
    w_u32(&w, cs->n_public);
    const csr_matrix *m[3] = {&cs->a, &cs->b, &cs->c};
    for (int k = 0; k < 3; k++) {
        w_u32(&w, m[k]->n_rows);
        w_u32(&w, m[k]->n_coef);
        w_u64(&w, m[k]->nnz);
        for (uint64_t i = 0; i <= m[k]->n_rows; i++) w_u64(&w, m[k]->row_ptr[i]);
        for (uint64_t i = 0; i < m[k]->nnz; i++) w_u32(&w, m[k]->col[i]);
        for (uint64_t i = 0; i < m[k]->nnz; i++) w_u32(&w, m[k]->coef_id[i]);
        for (uint32_t i = 0; i < m[k]->n_coef; i++)
            for (int l = 0; l < 4; l++) w_u64(&w, m[k]->coef[i].l[l]);
    }
    uint8_t dg[32];
    unsigned dlen = 0;
    if (!EVP_DigestFinal_ex(w.sha, dg, &dlen)) w.ok = false;
    EVP_MD_CTX_free(w.sha);
    if (w.ok && fwrite(dg, 1, 32, w.f) != 32) w.ok = false;
    if (fclose(w.f) != 0) w.ok = false;
    if (!w.ok) { outfile_discard(tmp); return ERR(err, CUZK_ERR_IO, "cannot write %s: %s", path, strerror(errno)); }
    return outfile_commit(tmp, path, err);
}

typedef struct { const uint8_t *p; size_t n, off; bool ok; } rdr;
static bool r_need(rdr *r, uint64_t k) { if (!r->ok || r->n - r->off < k) { r->ok = false; return false; } return true; }
static uint32_t r_u32(rdr *r) {
    if (!r_need(r, 4)) return 0;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)r->p[r->off + i] << (8 * i);
    r->off += 4;
    return v;
}
static uint64_t r_u64(rdr *r) {
    if (!r_need(r, 8)) return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)r->p[r->off + i] << (8 * i);
    r->off += 8;
    return v;
}

cuzk_status pce_load(r1cs *out, const char *path, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) return ERR(err, CUZK_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct stat stt;
    if (fstat(fileno(f), &stt) != 0 || !S_ISREG(stt.st_mode)) { fclose(f); return ERR(err, CUZK_ERR_IO, "%s is not a regular file", path); }
    size_t n = (size_t)stt.st_size;
    uint8_t *data = malloc(n ? n : 1);
    if (!data) { fclose(f); return ERR(err, CUZK_ERR_NOMEM, "out of memory reading %s", path); }
    if (fread(data, 1, n, f) != n) { fclose(f); free(data); return ERR(err, CUZK_ERR_IO, "cannot read %s", path); }
    fclose(f);
    cuzk_status st = CUZK_OK;
    if (n < 8 + 16 + 32 || memcmp(data, PCE_MAGIC, 8)) { st = ERR(err, CUZK_ERR_FORMAT, "%s is not a cuzk PCE file (magic)", path); goto out; }
    uint8_t dg[32];
    SHA256(data, n - 32, dg);
    if (memcmp(dg, data + n - 32, 32)) { st = ERR(err, CUZK_ERR_FORMAT, "%s: checksum mismatch (corrupt or truncated)", path); goto out; }
    rdr r = {data, n - 32, 8, true};
    uint32_t version = r_u32(&r);
    if (version != 1) { st = ERR(err, CUZK_ERR_FORMAT, "%s: PCE version %u (this build reads 1)", path, version); goto out; }
    out->n_constraints = r_u32(&r);
    out->n_vars = r_u32(&r);
    out->n_public = r_u32(&r);
    if (out->n_vars == 0 || out->n_public >= out->n_vars) { st = ERR(err, CUZK_ERR_FORMAT, "%s: inconsistent variable counts", path); goto out; }
    csr_matrix *m[3] = {&out->a, &out->b, &out->c};
    for (int k = 0; k < 3 && st == CUZK_OK; k++) {
        uint32_t rows = r_u32(&r), ncoef = r_u32(&r);
        uint64_t nnz = r_u64(&r);
        if (!r.ok || rows != out->n_constraints || nnz > (n - r.off) / 8 || ncoef > (n - r.off) / 32 ||
            (uint64_t)rows + 1 > (n - r.off) / 8) {
            st = ERR(err, CUZK_ERR_FORMAT, "%s: matrix %c header is inconsistent with the file size", path, "ABC"[k]);
            break;
        }
        m[k]->n_rows = rows; m[k]->nnz = nnz; m[k]->n_coef = ncoef;
        m[k]->row_ptr = malloc(((size_t)rows + 1) * 8);
        m[k]->col = malloc((nnz ? nnz : 1) * 4);
        m[k]->coef_id = malloc((nnz ? nnz : 1) * 4);
        m[k]->coef = ncoef ? malloc((size_t)ncoef * sizeof(fr)) : NULL;
        if (!m[k]->row_ptr || !m[k]->col || !m[k]->coef_id || (ncoef && !m[k]->coef)) { st = ERR(err, CUZK_ERR_NOMEM, "out of memory loading %s", path); break; }
        for (uint64_t i = 0; i <= rows; i++) m[k]->row_ptr[i] = r_u64(&r);
        for (uint64_t i = 0; i < nnz; i++) m[k]->col[i] = r_u32(&r);
        for (uint64_t i = 0; i < nnz; i++) m[k]->coef_id[i] = r_u32(&r);
        for (uint32_t i = 0; i < ncoef; i++)
            for (int l = 0; l < 4; l++) m[k]->coef[i].l[l] = r_u64(&r);
        if (!r.ok) { st = ERR(err, CUZK_ERR_FORMAT, "%s: truncated in matrix %c", path, "ABC"[k]); break; }
        bool bad = m[k]->row_ptr[0] != 0 || m[k]->row_ptr[rows] != nnz;
        for (uint64_t i = 0; i < rows && !bad; i++) bad = m[k]->row_ptr[i] > m[k]->row_ptr[i + 1];
        for (uint64_t i = 0; i < nnz && !bad; i++) bad = m[k]->col[i] >= out->n_vars || m[k]->coef_id[i] >= ncoef;
        for (uint32_t i = 0; i < ncoef && !bad; i++) bad = !fr_is_canon(m[k]->coef[i].l);
        if (bad) st = ERR(err, CUZK_ERR_FORMAT, "%s: matrix %c has an out-of-range row pointer, column or coefficient", path, "ABC"[k]);
    }
    if (st == CUZK_OK && r.off != n - 32) st = ERR(err, CUZK_ERR_FORMAT, "%s: %zu unexpected bytes before the checksum", path, n - 32 - r.off);
out:
    free(data);
    if (st != CUZK_OK) r1cs_free(out);
    return st;
}
