/* bellperson Groth16 .params / .vk files and the 192-byte proof (DESIGN.md section 5). */
#include "formats/bellperson.h"
#include "formats/fmt_util.h"
#include "formats/mapped_file.h"
#include "util/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VK_FIXED_BYTES (3 * G1_UNCOMPRESSED_BYTES + 3 * G2_UNCOMPRESSED_BYTES)

/* ---- writing ----------------------------------------------------------------------------- */

typedef struct writer {
    FILE *fp;
    bool ok;
    uint8_t buf[1 << 16];
    size_t n;
} writer;

static void w_flush(writer *w) {
    if (w->ok && w->n && fwrite(w->buf, 1, w->n, w->fp) != w->n) w->ok = false;
    w->n = 0;
}
static void w_bytes(writer *w, const uint8_t *p, size_t n) {
    if (w->n + n > sizeof w->buf) w_flush(w);
    memcpy(w->buf + w->n, p, n);
    w->n += n;
}
static void w_u32be(writer *w, uint32_t v) {
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    w_bytes(w, b, 4);
}
static void w_g1(writer *w, const g1_affine *p) {
    uint8_t b[G1_UNCOMPRESSED_BYTES];
    g1_affine_to_uncompressed(b, p);
    w_bytes(w, b, sizeof b);
}
static void w_g2(writer *w, const g2_affine *p) {
    uint8_t b[G2_UNCOMPRESSED_BYTES];
    g2_affine_to_uncompressed(b, p);
    w_bytes(w, b, sizeof b);
}
static void w_g1s(writer *w, const g1_affine *p, uint32_t n) {
    w_u32be(w, n);
    for (uint32_t i = 0; i < n; i++) w_g1(w, &p[i]);
}

static void w_vk(writer *w, const groth16_vk *vk) {
    w_g1(w, &vk->alpha1);
    w_g1(w, &vk->beta1);
    w_g2(w, &vk->beta2);
    w_g2(w, &vk->gamma2);
    w_g1(w, &vk->delta1);
    w_g2(w, &vk->delta2);
    w_g1s(w, vk->ic, vk->n_public + 1);
}

static cuzk_status w_open(writer **w, const char *path, const char *what, cuzk_error *err) {
    *w = calloc(1, sizeof **w);
    if (!*w) return ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate a write buffer", what);
    (*w)->fp = fopen(path, "wb");
    if (!(*w)->fp) {
        int e = errno;
        free(*w);
        *w = NULL;
        errno = e;
        return ERR(err, CUZK_ERR_IO, "%s: cannot create %s: %s", what, path, strerror(e));
    }
    (*w)->ok = true;
    return CUZK_OK;
}
static cuzk_status w_close(writer *w, const char *path, const char *what, cuzk_error *err) {
    w_flush(w);
    int e = errno;
    if (fclose(w->fp) != 0) { w->ok = false; e = errno; }
    bool ok = w->ok;
    free(w);
    if (!ok) {
        errno = e;
        return ERR(err, CUZK_ERR_IO, "%s: writing %s failed: %s", what, path, strerror(e));
    }
    return CUZK_OK;
}

cuzk_status bellperson_vk_write(const char *path, const groth16_vk *vk, cuzk_error *err) {
    if (!path || !vk || !vk->ic) return ERR(err, CUZK_ERR_ARG, "bellperson_vk_write: NULL argument");
    writer *w;
    cuzk_status st;
    if ((st = w_open(&w, path, "bellperson vk", err))) return st;
    w_vk(w, vk);
    return w_close(w, path, "bellperson vk", err);
}

cuzk_status bellperson_params_write(const char *path, const bellperson_params *p, cuzk_error *err) {
    if (!path || !p || !p->vk.ic || (p->n_h && !p->h) || (p->n_l && !p->l) || (p->n_a && !p->a) ||
        (p->n_b_g1 && !p->b_g1) || (p->n_b_g2 && !p->b_g2))
        return ERR(err, CUZK_ERR_ARG, "bellperson_params_write: NULL argument");
    writer *w;
    cuzk_status st;
    if ((st = w_open(&w, path, "bellperson params", err))) return st;
    w_vk(w, &p->vk);
    w_g1s(w, p->h, p->n_h);
    w_g1s(w, p->l, p->n_l);
    w_g1s(w, p->a, p->n_a);
    w_g1s(w, p->b_g1, p->n_b_g1);
    w_u32be(w, p->n_b_g2);
    for (uint32_t i = 0; i < p->n_b_g2; i++) w_g2(w, &p->b_g2[i]);
    return w_close(w, path, "bellperson params", err);
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
