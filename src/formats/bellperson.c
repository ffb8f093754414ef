/* bellperson Groth16 .params / .vk files and the 192-byte proof (DESIGN.md section 5). */
#include "formats/bellperson.h"
#include "formats/fmt_util.h"
#include "formats/mapped_file.h"
#include "util/log.h"
#include "util/parallel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VK_FIXED_BYTES (3 * G1_UNCOMPRESSED_BYTES + 3 * G2_UNCOMPRESSED_BYTES)

/* ---- writing ----------------------------------------------------------------------------- */

#define ENCODE_BLOCK 16384 /* points encoded in parallel per fwrite (3 MiB of G2) */

struct bellperson_writer {
    FILE *fp;
    bool ok;
    int sys_errno;
    uint64_t bytes;
    uint8_t *enc; /* ENCODE_BLOCK * G2_UNCOMPRESSED_BYTES, allocated on first bulk write */
    size_t n;
    uint8_t buf[1 << 16];
};

static void w_flush(bellperson_writer *w) {
    if (w->ok && w->n && fwrite(w->buf, 1, w->n, w->fp) != w->n) { w->ok = false; w->sys_errno = errno; }
    w->n = 0;
}
static void w_bytes(bellperson_writer *w, const uint8_t *p, size_t n) {
    if (w->n + n > sizeof w->buf) w_flush(w);
    memcpy(w->buf + w->n, p, n);
    w->n += n;
    w->bytes += n;
}
static void w_g1(bellperson_writer *w, const g1_affine *p) {
    uint8_t b[G1_UNCOMPRESSED_BYTES];
    g1_affine_to_uncompressed(b, p);
    w_bytes(w, b, sizeof b);
}
static void w_g2(bellperson_writer *w, const g2_affine *p) {
    uint8_t b[G2_UNCOMPRESSED_BYTES];
    g2_affine_to_uncompressed(b, p);
    w_bytes(w, b, sizeof b);
}

cuzk_status bellperson_writer_open(bellperson_writer **out, const char *path, cuzk_error *err) {
    *out = NULL;
    bellperson_writer *w = calloc(1, sizeof *w);
    if (!w) return ERR(err, CUZK_ERR_NOMEM, "bellperson: cannot allocate a write buffer");
    w->fp = fopen(path, "wb");
    if (!w->fp) {
        int e = errno;
        free(w);
        errno = e;
        return ERR(err, CUZK_ERR_IO, "bellperson: cannot create %s: %s", path, strerror(e));
    }
    w->ok = true;
    *out = w;
    return CUZK_OK;
}

void bellperson_writer_count(bellperson_writer *w, uint32_t v) {
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    w_bytes(w, b, 4);
}

void bellperson_writer_vk(bellperson_writer *w, const groth16_vk *vk) {
    w_g1(w, &vk->alpha1);
    w_g1(w, &vk->beta1);
    w_g2(w, &vk->beta2);
    w_g2(w, &vk->gamma2);
    w_g1(w, &vk->delta1);
    w_g2(w, &vk->delta2);
    bellperson_writer_count(w, vk->n_public + 1);
    for (uint32_t i = 0; i <= vk->n_public; i++) w_g1(w, &vk->ic[i]);
}

typedef struct {
    uint8_t *out;
    const void *pts;
    bool g2;
} encode_ctx;
static void encode_range(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    encode_ctx *c = vc;
    for (size_t i = b; i < e; i++) {
        if (c->g2) g2_affine_to_uncompressed(c->out + i * G2_UNCOMPRESSED_BYTES, (const g2_affine *)c->pts + i);
        else g1_affine_to_uncompressed(c->out + i * G1_UNCOMPRESSED_BYTES, (const g1_affine *)c->pts + i);
    }
}

/* Bulk points: encoded ENCODE_BLOCK at a time over nthreads, then one fwrite per block. */
static void w_points(bellperson_writer *w, const void *pts, size_t n, bool g2, int nthreads) {
    size_t elt = g2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
    if (n < 64) {
        for (size_t i = 0; i < n; i++) {
            if (g2) w_g2(w, (const g2_affine *)pts + i);
            else w_g1(w, (const g1_affine *)pts + i);
        }
        return;
    }
    if (!w->enc && !(w->enc = malloc((size_t)ENCODE_BLOCK * G2_UNCOMPRESSED_BYTES))) {
        if (w->ok) { w->ok = false; w->sys_errno = ENOMEM; }
        return;
    }
    w_flush(w);
    for (size_t i = 0; i < n && w->ok; i += ENCODE_BLOCK) {
        size_t k = n - i < ENCODE_BLOCK ? n - i : ENCODE_BLOCK;
        encode_ctx c = {w->enc, g2 ? (const void *)((const g2_affine *)pts + i) : (const void *)((const g1_affine *)pts + i), g2};
        parallel_for(k, nthreads, encode_range, &c);
        if (fwrite(w->enc, elt, k, w->fp) != k) { w->ok = false; w->sys_errno = errno; }
        w->bytes += k * elt;
    }
}
void bellperson_writer_g1s(bellperson_writer *w, const g1_affine *p, size_t n, int nthreads) {
    w_points(w, p, n, false, nthreads);
}
void bellperson_writer_g2s(bellperson_writer *w, const g2_affine *p, size_t n, int nthreads) {
    w_points(w, p, n, true, nthreads);
}

uint64_t bellperson_writer_bytes(const bellperson_writer *w) { return w ? w->bytes : 0; }

cuzk_status bellperson_writer_close(bellperson_writer *w, const char *path, cuzk_error *err) {
    if (!w) return CUZK_OK;
    w_flush(w);
    int e = w->sys_errno;
    if (fclose(w->fp) != 0 && w->ok) { w->ok = false; e = errno; }
    bool ok = w->ok;
    free(w->enc);
    free(w);
    if (!ok) {
        errno = e;
        return ERR(err, CUZK_ERR_IO, "bellperson: writing %s failed: %s", path, strerror(e));
    }
    return CUZK_OK;
}

cuzk_status bellperson_vk_write(const char *path, const groth16_vk *vk, cuzk_error *err) {
    if (!path || !vk || !vk->ic) return ERR(err, CUZK_ERR_ARG, "bellperson_vk_write: NULL argument");
    bellperson_writer *w;
    cuzk_status st;
    if ((st = bellperson_writer_open(&w, path, err))) return st;
    bellperson_writer_vk(w, vk);
    return bellperson_writer_close(w, path, err);
}

cuzk_status bellperson_params_write(const char *path, const bellperson_params *p, cuzk_error *err) {
    if (!path || !p || !p->vk.ic || (p->n_h && !p->h) || (p->n_l && !p->l) || (p->n_a && !p->a) ||
        (p->n_b_g1 && !p->b_g1) || (p->n_b_g2 && !p->b_g2))
        return ERR(err, CUZK_ERR_ARG, "bellperson_params_write: NULL argument");
    bellperson_writer *w;
    cuzk_status st;
    if ((st = bellperson_writer_open(&w, path, err))) return st;
    bellperson_writer_vk(w, &p->vk);
    const g1_affine *g1s[4] = {p->h, p->l, p->a, p->b_g1};
    const uint32_t n1[4] = {p->n_h, p->n_l, p->n_a, p->n_b_g1};
    for (int i = 0; i < 4; i++) {
        bellperson_writer_count(w, n1[i]);
        bellperson_writer_g1s(w, g1s[i], n1[i], 0);
    }
    bellperson_writer_count(w, p->n_b_g2);
    bellperson_writer_g2s(w, p->b_g2, p->n_b_g2, 0);
    return bellperson_writer_close(w, path, err);
}

/* ---- loading ----------------------------------------------------------------------------- */

static cuzk_status r_point1(g1_affine *out, byte_cursor *c, const char *sec, const char *what, bool sub,
                            cuzk_error *err) {
    const uint8_t *b;
    if (!cursor_take(c, G1_UNCOMPRESSED_BYTES, &b))
        return ERR(err, CUZK_ERR_FORMAT, "%s: truncated at %s", what, sec);
    pt_fault f;
    if (g1s_from_uncompressed(out, b, 1, sub, &f) != 1)
        return ERR(err, CUZK_ERR_POINT, "%s: %s: %s", what, sec, pt_fault_str(f));
    return CUZK_OK;
}
static cuzk_status r_point2(g2_affine *out, byte_cursor *c, const char *sec, const char *what, bool sub,
                            cuzk_error *err) {
    const uint8_t *b;
    if (!cursor_take(c, G2_UNCOMPRESSED_BYTES, &b))
        return ERR(err, CUZK_ERR_FORMAT, "%s: truncated at %s", what, sec);
    pt_fault f;
    if (g2s_from_uncompressed(out, b, 1, sub, &f) != 1)
        return ERR(err, CUZK_ERR_POINT, "%s: %s: %s", what, sec, pt_fault_str(f));
    return CUZK_OK;
}

/* u32 count + count points of elt bytes (96: G1, 192: G2) into a new array. */
static cuzk_status r_points(void **out, uint32_t *n_out, byte_cursor *c, size_t elt, const char *sec,
                            const char *what, bool sub, cuzk_error *err) {
    uint32_t n;
    *out = NULL;
    *n_out = 0;
    if (!cursor_u32be(c, &n)) return ERR(err, CUZK_ERR_FORMAT, "%s: truncated before the %s count", what, sec);
    if ((uint64_t)n * elt > c->left)
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s claims %u points (%llu bytes), only %zu bytes left", what, sec, n,
                   (unsigned long long)n * elt, c->left);
    if (n == 0) return CUZK_OK;
    void *a = fmt_aligned_array(n, elt == G1_UNCOMPRESSED_BYTES ? sizeof(g1_affine) : sizeof(g2_affine));
    if (!a) return ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate %u points for %s", what, n, sec);
    const uint8_t *b = c->p;
    cursor_take(c, (size_t)n * elt, &b);
    pt_fault f;
    size_t bad = elt == G1_UNCOMPRESSED_BYTES ? g1s_from_uncompressed(a, b, n, sub, &f)
                                              : g2s_from_uncompressed(a, b, n, sub, &f);
    if (bad != n) {
        free(a);
        return ERR(err, CUZK_ERR_POINT, "%s: %s point %zu: %s", what, sec, bad, pt_fault_str(f));
    }
    *out = a;
    *n_out = n;
    return CUZK_OK;
}

static cuzk_status r_vk(groth16_vk *vk, byte_cursor *c, const char *what, bool sub, cuzk_error *err) {
    cuzk_status st;
    uint32_t n_ic;
    if ((st = r_point1(&vk->alpha1, c, "vk alpha_g1", what, sub, err))) return st;
    if ((st = r_point1(&vk->beta1, c, "vk beta_g1", what, sub, err))) return st;
    if ((st = r_point2(&vk->beta2, c, "vk beta_g2", what, sub, err))) return st;
    if ((st = r_point2(&vk->gamma2, c, "vk gamma_g2", what, sub, err))) return st;
    if ((st = r_point1(&vk->delta1, c, "vk delta_g1", what, sub, err))) return st;
    if ((st = r_point2(&vk->delta2, c, "vk delta_g2", what, sub, err))) return st;
    if ((st = r_points((void **)&vk->ic, &n_ic, c, G1_UNCOMPRESSED_BYTES, "vk ic", what, sub, err))) return st;
    if (n_ic == 0) return ERR(err, CUZK_ERR_FORMAT, "%s: vk ic is empty (needs at least the ONE input)", what);
    vk->n_public = n_ic - 1;
    return CUZK_OK;
}

void bellperson_params_free(bellperson_params *p) {
    if (!p) return;
    groth16_vk_free(&p->vk);
    free(p->h);
    free(p->l);
    free(p->a);
    free(p->b_g1);
    free(p->b_g2);
    memset(p, 0, sizeof *p);
}

cuzk_status bellperson_params_load(bellperson_params *p, const char *path, bool check_subgroup, cuzk_error *err) {
    mapped_file f;
    cuzk_status st;
    memset(p, 0, sizeof *p);
    if ((st = mapped_file_open(&f, path, err))) return st;
    char what[1100];
    snprintf(what, sizeof what, "bellperson params %s", path);
    byte_cursor c = {f.m_data, f.size_bytes};
    if ((st = r_vk(&p->vk, &c, what, check_subgroup, err))) goto out;
    if ((st = r_points((void **)&p->h, &p->n_h, &c, G1_UNCOMPRESSED_BYTES, "h", what, check_subgroup, err))) goto out;
    if ((st = r_points((void **)&p->l, &p->n_l, &c, G1_UNCOMPRESSED_BYTES, "l", what, check_subgroup, err))) goto out;
    if ((st = r_points((void **)&p->a, &p->n_a, &c, G1_UNCOMPRESSED_BYTES, "a", what, check_subgroup, err))) goto out;
    if ((st = r_points((void **)&p->b_g1, &p->n_b_g1, &c, G1_UNCOMPRESSED_BYTES, "b_g1", what, check_subgroup, err)))
        goto out;
    if ((st = r_points((void **)&p->b_g2, &p->n_b_g2, &c, G2_UNCOMPRESSED_BYTES, "b_g2", what, check_subgroup, err)))
        goto out;
    if (c.left != 0) st = ERR(err, CUZK_ERR_FORMAT, "%s: %zu trailing bytes after b_g2", what, c.left);
out:
    if (st) bellperson_params_free(p);
    mapped_file_close(&f);
    return st;
}

cuzk_status bellperson_vk_load(groth16_vk *vk, const char *path, cuzk_error *err) {
    mapped_file f;
    cuzk_status st;
    memset(vk, 0, sizeof *vk);
    if ((st = mapped_file_open(&f, path, err))) return st;
    char what[1100];
    snprintf(what, sizeof what, "bellperson vk %s", path);
    byte_cursor c = {f.m_data, f.size_bytes};
    if ((st = r_vk(vk, &c, what, true, err))) goto out;
    if (c.left != 0) st = ERR(err, CUZK_ERR_FORMAT, "%s: %zu trailing bytes after ic", what, c.left);
out:
    if (st) groth16_vk_free(vk);
    mapped_file_close(&f);
    return st;
}

/* ---- proof ------------------------------------------------------------------------------- */

void bellperson_proof_encode(uint8_t out[192], const groth16_proof *p) {
    g1_affine_to_compressed(out, &p->a);
    g2_affine_to_compressed(out + 48, &p->b);
    g1_affine_to_compressed(out + 144, &p->c);
}

static cuzk_status decode_status(ec_decode_result r, const char *name, cuzk_error *err) {
    if (r == EC_DECODE_NOT_ON_CURVE)
        return ERR(err, CUZK_ERR_POINT, "bellperson proof: %s: %s", name, ec_decode_result_str(r));
    return ERR(err, CUZK_ERR_FORMAT, "bellperson proof: %s: %s", name, ec_decode_result_str(r));
}

cuzk_status bellperson_proof_decode(groth16_proof *p, const uint8_t in[192], cuzk_error *err) {
    groth16_proof t;
    ec_decode_result r;
    if (!p || !in) return ERR(err, CUZK_ERR_ARG, "bellperson_proof_decode: NULL argument");
    if ((r = g1_affine_from_compressed(&t.a, in))) return decode_status(r, "A", err);
    if ((r = g2_affine_from_compressed(&t.b, in + 48))) return decode_status(r, "B", err);
    if ((r = g1_affine_from_compressed(&t.c, in + 144))) return decode_status(r, "C", err);
    /* bellperson rejects the identity in proofs */
    if (g1_affine_is_infinity(&t.a)) return ERR(err, CUZK_ERR_POINT, "bellperson proof: A is the point at infinity");
    if (g2_affine_is_infinity(&t.b)) return ERR(err, CUZK_ERR_POINT, "bellperson proof: B is the point at infinity");
    if (g1_affine_is_infinity(&t.c)) return ERR(err, CUZK_ERR_POINT, "bellperson proof: C is the point at infinity");
    if (!g1_affine_is_in_subgroup(&t.a)) return ERR(err, CUZK_ERR_POINT, "bellperson proof: A is not in the subgroup");
    if (!g2_affine_is_in_subgroup(&t.b)) return ERR(err, CUZK_ERR_POINT, "bellperson proof: B is not in the subgroup");
    if (!g1_affine_is_in_subgroup(&t.c)) return ERR(err, CUZK_ERR_POINT, "bellperson proof: C is not in the subgroup");
    *p = t;
    return CUZK_OK;
}
