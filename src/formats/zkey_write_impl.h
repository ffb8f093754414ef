/* snarkjs Groth16 .zkey writer (FORMATS.md section 3; declared in snarkjs.h) of one curve: a
 * template, instantiated per curve (src/formats/formats_<curve>.c); every curve-dependent name is
 * CN(name). */
#include "formats/fmt_util.h"
#include "formats/snarkjs.h"
#include "util/log.h"
#include "util/parallel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per curve: BLS12-381 (48-byte Fp, G1 96
 * and G2 192 bytes) and BN254 (32-byte Fp, 64 and 128 bytes); the point layout is the in-memory
 * affine Montgomery one (FORMATS.md section 3). */
#define SG1 ((unsigned)sizeof(CN(g1_affine)))
#define SG2 ((unsigned)sizeof(CN(g2_affine)))
#define N8Q ((unsigned)sizeof(CN(fp)))
#define N8R ((unsigned)sizeof(CN(fr)))
#define N_SECTIONS 10

struct CN(zkey_writer) {
    FILE *fp;
    bool ok;
    int sys_errno;
    const char *bug;       /* first misuse (section sizes), reported by close */
    uint32_t cur;          /* open section id, 0 = none */
    uint64_t left;         /* bytes the open section still expects */
    uint32_t written_mask; /* bit id: section id was written completely */
    uint64_t bytes;
};

static void put_u32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void put_u64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }

static void w_raw(CN(zkey_writer) *w, const void *p, size_t n) {
    if (!w->ok || n == 0) return;
    if (w->cur == 0 || n > w->left) {
        w->ok = false;
        w->bug = "more bytes than the section announced";
        return;
    }
    if (fwrite(p, 1, n, w->fp) != n) {
        w->ok = false;
        w->sys_errno = errno;
        return;
    }
    w->left -= n;
    w->bytes += n;
    if (w->left == 0) {
        w->written_mask |= 1u << w->cur;
        w->cur = 0;
    }
}

/* Section header (u32 id, u64 size); the next `size` bytes belong to it. */
static void w_section(CN(zkey_writer) *w, uint32_t id, uint64_t size) {
    if (!w->ok) return;
    if (w->cur != 0 || id == 0 || id > N_SECTIONS || (w->written_mask >> id) & 1) {
        w->ok = false;
        w->bug = "section opened twice or before the previous one was complete";
        return;
    }
    uint8_t h[12];
    put_u32(h, id);
    put_u64(h + 4, size);
    if (fwrite(h, 1, sizeof h, w->fp) != sizeof h) {
        w->ok = false;
        w->sys_errno = errno;
        return;
    }
    w->bytes += sizeof h;
    w->cur = id;
    w->left = size;
    if (size == 0) {
        w->written_mask |= 1u << id;
        w->cur = 0;
    }
}

cuzk_status CN(zkey_writer_open)(CN(zkey_writer) **out, const char *path, const CN(zkey) *h, cuzk_error *err) {
    *out = NULL;
    if (!path || !h) return ERR(err, CUZK_ERR_ARG, "zkey_writer_open: NULL argument");
    CN(zkey_writer) *w = calloc(1, sizeof *w);
    if (!w) return ERR(err, CUZK_ERR_NOMEM, "zkey: cannot allocate a writer");
    w->fp = fopen(path, "wb");
    if (!w->fp) {
        int e = errno;
        free(w);
        errno = e;
        return ERR(err, CUZK_ERR_IO, "zkey: cannot create %s: %s", path, strerror(e));
    }
    w->ok = true;
    uint8_t hdr[12];
    memcpy(hdr, "zkey", 4);
    put_u32(hdr + 4, 1);
    put_u32(hdr + 8, N_SECTIONS);
    if (fwrite(hdr, 1, sizeof hdr, w->fp) != sizeof hdr) { w->ok = false; w->sys_errno = errno; }
    w->bytes = sizeof hdr;
    /* section 1: protocol 1 = groth16 */
    uint8_t b[4];
    put_u32(b, 1);
    w_section(w, 1, 4);
    w_raw(w, b, 4);
    /* section 2: n8q, q, n8r, r, nVars, nPublic, domainSize, alpha1, beta1, beta2, gamma2, delta1, delta2 */
    w_section(w, 2, 4 + N8Q + 4 + N8R + 12 + 3 * SG1 + 3 * SG2);
    put_u32(b, N8Q);
    w_raw(w, b, 4);
    w_raw(w, CN(fp_MODULUS), N8Q); /* little-endian limbs on a little-endian host (fmt_util.h checks) */
    put_u32(b, N8R);
    w_raw(w, b, 4);
    w_raw(w, CN(fr_MODULUS), N8R);
    uint8_t c[12];
    put_u32(c, h->n_vars);
    put_u32(c + 4, h->n_public);
    put_u32(c + 8, h->domain_size);
    w_raw(w, c, 12);
    w_raw(w, &h->alpha1, SG1);
    w_raw(w, &h->beta1, SG1);
    w_raw(w, &h->beta2, SG2);
    w_raw(w, &h->gamma2, SG2);
    w_raw(w, &h->delta1, SG1);
    w_raw(w, &h->delta2, SG2);
    *out = w;
    return CUZK_OK;
}

/* ---- section 4 ---------------------------------------------------------------------------- */

void CN(zkey_coef_encode)(uint8_t rec[ZKEY_COEF_BYTES], uint32_t matrix, uint32_t row, uint32_t wire, const CN(fr) *v) {
    put_u32(rec, matrix);
    put_u32(rec + 4, row);
    put_u32(rec + 8, wire);
    CN(fr) m2; /* v*R^2 mod r: the Montgomery form (v*R) read as an integer and put in Montgomery form */
    CN(fr_from_canon)(&m2, v->l);
    memcpy(rec + 12, m2.l, 32);
}

void CN(zkey_writer_coef_section)(CN(zkey_writer) *w, uint64_t n_coefs) {
    if (!w->ok) return;
    if (n_coefs > UINT32_MAX) { w->ok = false; w->bug = "more than 2^32 coefficients"; return; }
    w_section(w, 4, 4 + (uint64_t)ZKEY_COEF_BYTES * n_coefs);
    uint8_t b[4];
    put_u32(b, (uint32_t)n_coefs);
    w_raw(w, b, 4);
}

void CN(zkey_writer_coef_records)(CN(zkey_writer) *w, const uint8_t *rec, size_t n) {
    if (w->cur != 4) { w->ok = false; w->bug = "coefficient records outside section 4"; return; }
    w_raw(w, rec, n * ZKEY_COEF_BYTES);
}

bool CN(zkey_writer_ok)(const CN(zkey_writer) *w) { return w && w->ok; }
void CN(zkey_writer_fail_nomem)(CN(zkey_writer) *w) {
    if (w->ok) { w->ok = false; w->sys_errno = ENOMEM; }
}

/* ---- point sections ----------------------------------------------------------------------- */

void CN(zkey_writer_section)(CN(zkey_writer) *w, uint32_t id, uint64_t n_points) {
    w_section(w, id, n_points * (id == 7 ? SG2 : SG1));
}
void CN(zkey_writer_g1s)(CN(zkey_writer) *w, const CN(g1_affine) *p, size_t n) {
    if (w->cur == 7) { w->ok = false; w->bug = "G1 points in the G2 section"; return; }
    w_raw(w, p, n * SG1);
}
void CN(zkey_writer_g2s)(CN(zkey_writer) *w, const CN(g2_affine) *p, size_t n) {
    if (w->cur != 7) { w->ok = false; w->bug = "G2 points outside section 7"; return; }
    w_raw(w, p, n * SG2);
}

uint64_t CN(zkey_writer_bytes)(const CN(zkey_writer) *w) { return w ? w->bytes : 0; }

cuzk_status CN(zkey_writer_close)(CN(zkey_writer) *w, const char *path, cuzk_error *err) {
    if (!w) return CUZK_OK;
    /* section 10: 64-byte circuit hash (zero: these keys come from no ceremony) and 0 contributions */
    uint8_t s10[64 + 4] = {0};
    w_section(w, 10, sizeof s10);
    w_raw(w, s10, sizeof s10);
    if (w->ok && w->written_mask != 0x7fe) { w->ok = false; w->bug = "a section is missing or incomplete"; }
    int e = w->sys_errno;
    if (fclose(w->fp) != 0 && w->ok) { w->ok = false; e = errno; }
    bool ok = w->ok;
    const char *bug = w->bug;
    free(w);
    if (ok) return CUZK_OK;
    if (bug) return ERR(err, CUZK_ERR_ARG, "zkey: writing %s: %s (a bug of the caller)", path, bug);
    errno = e;
    return ERR(err, CUZK_ERR_IO, "zkey: writing %s failed: %s", path, strerror(e ? e : EIO));
}
