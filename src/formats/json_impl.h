/* snarkjs JSON files of one curve: proof.json, public.json, verification_key.json (FORMATS.md
 * section 6). A template, instantiated per curve (src/formats/formats_<curve>.c); every
 * curve-dependent name is CN(name). */
#include "formats/json.h"
#include "curves/curve.h"
#include "formats/fmt_util.h"
#include "util/log.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

__extension__ typedef unsigned __int128 u128;

#define MAX_LIMBS 8

/* ---- reading ----------------------------------------------------------------------------- */

/* jansson's reason, in the user's terms (its NUL message names a flag of its API) */
static const char *json_reason(const json_error_t *je) {
    return strstr(je->text, "JSON_ALLOW_NUL") ? "NUL character in JSON string" : je->text;
}

static cuzk_status json_open(json_t **root, const char *path, const char *what, cuzk_error *err) {
    *root = NULL;
    if (!path) return ERR(err, CUZK_ERR_ARG, "%s: NULL path", what);
    struct stat st;
    if (stat(path, &st) != 0) return ERR(err, CUZK_ERR_IO, "%s: cannot open %s: %s", what, path, strerror(errno));
    if (!S_ISREG(st.st_mode)) {
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return ERR(err, CUZK_ERR_IO, "%s: %s is not a regular file", what, path);
    }
    FILE *f = fopen(path, "rb");
    if (!f) return ERR(err, CUZK_ERR_IO, "%s: cannot open %s: %s", what, path, strerror(errno));
    json_error_t je;
    *root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    int rd_err = ferror(f);
    fclose(f);
    if (!*root) {
        if (rd_err) return ERR(err, CUZK_ERR_IO, "%s: reading %s failed", what, path);
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s: invalid JSON at line %d: %s", what, path, je.line, json_reason(&je));
    }
    return CUZK_OK;
}

/* A JSON document from a file (data NULL: path names it) or from len bytes of memory (name
 * stands for the path in messages). */
typedef struct json_src {
    const char *name;
    const char *data;
    size_t len;
} json_src;

static cuzk_status json_src_open(json_t **root, const json_src *src, const char *what, cuzk_error *err) {
    if (!src->data) return json_open(root, src->name, what, err);
    *root = NULL;
    json_error_t je;
    *root = json_loadb(src->data, src->len, JSON_REJECT_DUPLICATES, &je);
    if (!*root) return ERR(err, CUZK_ERR_FORMAT, "%s: %s: invalid JSON at line %d: %s", what, src->name, je.line, json_reason(&je));
    return CUZK_OK;
}

static bool jstr_eq(const json_t *v, const char *s) { return json_is_string(v) && strcmp(json_string_value(v), s) == 0; }

/* A string of decimal digits (what decimal_to_limbs reads, whatever its size). */
static bool is_decimal_digits(const json_t *v) {
    if (!json_is_string(v)) return false;
    const char *s = json_string_value(v);
    if (!*s) return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return false;
    return true;
}

/* A coordinate: a decimal string < q. A number >= q is a value no point can have: CUZK_ERR_POINT
 * (cuzk_verify reports a proof with one as INVALID, like any other proof whose points are not
 * valid); anything else is not the format: CUZK_ERR_FORMAT. */
static cuzk_status read_fp(CN(fp) *out, const json_t *v, const char *what, const char *name, cuzk_error *err) {
    uint64_t l[CN(fp_LIMBS)];
    if (!json_is_string(v) || !decimal_to_limbs(l, CN(fp_LIMBS), json_string_value(v), CN(fp_MODULUS))) {
        if (is_decimal_digits(v))
            return ERR(err, CUZK_ERR_POINT, "%s: %s is >= q: not a field element", what, name);
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s is not a decimal string < q", what, name);
    }
    CN(fp_from_canon)(out, l);
    return CUZK_OK;
}

static cuzk_status read_fr(CN(fr) *out, const json_t *v, const char *what, const char *name, cuzk_error *err) {
    uint64_t l[CN(fr_LIMBS)];
    if (!json_is_string(v) || !decimal_to_limbs(l, CN(fr_LIMBS), json_string_value(v), CN(fr_MODULUS)))
        return ERR(err, CUZK_ERR_FORMAT, is_decimal_digits(v) ? "%s: %s is >= r: not a field element"
                                                              : "%s: %s is not a decimal string < r", what, name);
    CN(fr_from_canon)(out, l);
    return CUZK_OK;
}

/* G1 [x, y, z]: z "1" affine; ["0", "1", "0"] (infinity) is refused, CUZK_ERR_POINT. */
static cuzk_status read_g1(CN(g1_affine) *out, const json_t *v, const char *what, const char *name, bool sub,
                           cuzk_error *err) {
    cuzk_status st;
    char nm[96];
    if (!json_is_array(v) || json_array_size(v) != 3)
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s is not a G1 point [x, y, z]", what, name);
    const json_t *z = json_array_get(v, 2);
    if (jstr_eq(z, "0")) {
        if (!jstr_eq(json_array_get(v, 0), "0") || !jstr_eq(json_array_get(v, 1), "1"))
            return ERR(err, CUZK_ERR_FORMAT, "%s: %s has z = 0 but is not [\"0\", \"1\", \"0\"]", what, name);
        /* no point of a key or a proof may be infinity: a key with alpha and IC at infinity
         * accepts the all-infinity proof for any public input */
        return ERR(err, CUZK_ERR_POINT, "%s: %s is the point at infinity (a degenerate %s)", what, name,
                   name[0] == 'p' ? "proof" : "key");
    }
    if (!jstr_eq(z, "1")) return ERR(err, CUZK_ERR_FORMAT, "%s: %s: z must be \"1\" (affine)", what, name);
    snprintf(nm, sizeof nm, "%s.x", name);
    if ((st = read_fp(&out->x, json_array_get(v, 0), what, nm, err))) return st;
    snprintf(nm, sizeof nm, "%s.y", name);
    if ((st = read_fp(&out->y, json_array_get(v, 1), what, nm, err))) return st;
    pt_fault f;
    if (CN(g1s_check)(out, 1, sub, &f) != 1 || CN(g1_affine_is_infinity)(out))
        return ERR(err, CUZK_ERR_POINT, "%s: %s: %s", what, name, CN(g1_affine_is_infinity)(out) ? "not on the curve" : pt_fault_str(f));
    return CUZK_OK;
}

static cuzk_status read_fp2(CN(fp2) *out, const json_t *v, const char *what, const char *name, cuzk_error *err) {
    cuzk_status st;
    char nm[96];
    if (!json_is_array(v) || json_array_size(v) != 2)
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s is not an Fp2 pair [c0, c1]", what, name);
    snprintf(nm, sizeof nm, "%s.c0", name);
    if ((st = read_fp(&out->c0, json_array_get(v, 0), what, nm, err))) return st;
    snprintf(nm, sizeof nm, "%s.c1", name);
    return read_fp(&out->c1, json_array_get(v, 1), what, nm, err);
}

/* G2 [[x0, x1], [y0, y1], ["1", "0"]]; infinity [["0","0"],["1","0"],["0","0"]] is refused. */
static cuzk_status read_g2(CN(g2_affine) *out, const json_t *v, const char *what, const char *name, bool sub,
                           cuzk_error *err) {
    cuzk_status st;
    char nm[96];
    if (!json_is_array(v) || json_array_size(v) != 3)
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s is not a G2 point [x, y, z]", what, name);
    CN(fp2) x, y, z;
    snprintf(nm, sizeof nm, "%s.x", name);
    if ((st = read_fp2(&x, json_array_get(v, 0), what, nm, err))) return st;
    snprintf(nm, sizeof nm, "%s.y", name);
    if ((st = read_fp2(&y, json_array_get(v, 1), what, nm, err))) return st;
    snprintf(nm, sizeof nm, "%s.z", name);
    if ((st = read_fp2(&z, json_array_get(v, 2), what, nm, err))) return st;
    if (CN(fp2_is_zero)(&z)) {
        CN(fp2) one;
        CN(fp2_one)(&one);
        if (!CN(fp2_is_zero)(&x) || !CN(fp2_eq)(&y, &one))
            return ERR(err, CUZK_ERR_FORMAT, "%s: %s has z = 0 but is not the point at infinity", what, name);
        return ERR(err, CUZK_ERR_POINT, "%s: %s is the point at infinity (a degenerate %s)", what, name,
                   name[0] == 'p' ? "proof" : "key");
    }
    if (!CN(fp2_is_one)(&z)) return ERR(err, CUZK_ERR_FORMAT, "%s: %s: z must be [\"1\", \"0\"] (affine)", what, name);
    out->x = x;
    out->y = y;
    pt_fault f;
    if (CN(g2s_check)(out, 1, sub, &f) != 1 || CN(g2_affine_is_infinity)(out))
        return ERR(err, CUZK_ERR_POINT, "%s: %s: %s", what, name, CN(g2_affine_is_infinity)(out) ? "not on the curve" : pt_fault_str(f));
    return CUZK_OK;
}

/* "protocol" must be "groth16"; "curve" must name this curve. A proof may leave "curve"
 * out (curve_optional): rapidsnark writes {pi_a, pi_b, pi_c, protocol} only, and snarkjs verifies
 * such proofs with the verification key's curve; points of another curve then fail their checks. */
static cuzk_status check_protocol_curve(const json_t *root, const char *what, bool curve_optional, cuzk_error *err) {
    const json_t *proto = json_object_get(root, "protocol");
    const json_t *curve = json_object_get(root, "curve");
    if (!json_is_string(proto)) return ERR(err, CUZK_ERR_FORMAT, "%s: \"protocol\" missing", what);
    if (strcmp(json_string_value(proto), "groth16") != 0)
        return ERR(err, CUZK_ERR_UNSUPPORTED, "%s: protocol \"%s\" is not supported, only groth16", what,
                   json_string_value(proto));
    if (!curve && curve_optional) return CUZK_OK;
    if (!json_is_string(curve)) return ERR(err, CUZK_ERR_FORMAT, "%s: \"curve\" missing", what);
    const char *cv = json_string_value(curve);
    if (strcmp(cv, CURVE_SNARKJS_NAME) == 0 || (CURVE_ID == CUZK_CURVE_BN254 && strcmp(cv, "bn254") == 0))
        return CUZK_OK;
    if (!strcmp(cv, "bls12381") || !strcmp(cv, "bn128") || !strcmp(cv, "bn254"))
        return ERR(err, CUZK_ERR_CURVE, "%s: curve %s, but %s was expected here (files of different curves)", what, cv,
                   CURVE_SNARKJS_NAME);
    return ERR(err, CUZK_ERR_CURVE, "%s: curve \"%s\" is not supported (bls12381 and bn128 are)", what, cv);
}

static cuzk_status proof_json_read_src(CN(groth16_proof) *p, const json_src *src, cuzk_error *err) {
    const char *path = src->name;
    json_t *root;
    cuzk_status st;
    memset(p, 0, sizeof *p);
    /* messages name the file the caller gave (the kind only where there is no file yet) */
    if ((st = json_src_open(&root, src, "proof", err))) return st;
    if (!json_is_object(root)) {
        st = ERR(err, CUZK_ERR_FORMAT, "%s: not a JSON object (a snarkjs proof.json)", path);
        goto out;
    }
    if ((st = check_protocol_curve(root, path, true, err))) goto out;
    if ((st = read_g1(&p->a, json_object_get(root, "pi_a"), path, "pi_a", true, err))) goto out;
    if ((st = read_g2(&p->b, json_object_get(root, "pi_b"), path, "pi_b", true, err))) goto out;
    if ((st = read_g1(&p->c, json_object_get(root, "pi_c"), path, "pi_c", true, err))) goto out;
out:
    if (st) memset(p, 0, sizeof *p);
    json_decref(root);
    return st;
}

cuzk_status CN(proof_json_read)(CN(groth16_proof) *p, const char *path, cuzk_error *err) {
    json_src src = {path, NULL, 0};
    return proof_json_read_src(p, &src, err);
}
cuzk_status CN(proof_json_read_mem)(CN(groth16_proof) *p, const char *data, size_t len, const char *name, cuzk_error *err) {
    json_src src = {name ? name : "<memory>", data ? data : "", len};
    return proof_json_read_src(p, &src, err);
}

static cuzk_status public_json_read_src(CN(fr) **out, size_t *n, const json_src *src, cuzk_error *err) {
    const char *path = src->name;
    json_t *root;
    cuzk_status st;
    *out = NULL;
    *n = 0;
    if ((st = json_src_open(&root, src, "public inputs", err))) return st;
    if (!json_is_array(root)) {
        st = ERR(err, CUZK_ERR_FORMAT, "public inputs: %s: not a JSON array (snarkjs public.json)", path);
        goto out;
    }
    size_t k = json_array_size(root);
    CN(fr) *v = malloc((k ? k : 1) * sizeof(CN(fr)));
    if (!v) { st = ERR(err, CUZK_ERR_NOMEM, "public inputs: cannot allocate %zu values", k); goto out; }
    for (size_t i = 0; i < k; i++) {
        char nm[64];
        snprintf(nm, sizeof nm, "public input [%zu] (counting from 0)", i);
        if ((st = read_fr(&v[i], json_array_get(root, i), path, nm, err))) {
            free(v);
            goto out;
        }
    }
    *out = v;
    *n = k;
out:
    json_decref(root);
    return st;
}

cuzk_status CN(public_json_read)(CN(fr) **out, size_t *n, const char *path, cuzk_error *err) {
    json_src src = {path, NULL, 0};
    return public_json_read_src(out, n, &src, err);
}
cuzk_status CN(public_json_read_mem)(CN(fr) **out, size_t *n, const char *data, size_t len, const char *name, cuzk_error *err) {
    json_src src = {name ? name : "<memory>", data ? data : "", len};
    return public_json_read_src(out, n, &src, err);
}

void CN(groth16_vk_free)(CN(groth16_vk) *vk) {
    if (!vk) return;
    free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

static cuzk_status vk_json_read_src(CN(groth16_vk) *vk, const json_src *src, cuzk_error *err) {
    const char *path = src->name;
    json_t *root;
    cuzk_status st;
    const char *W = path; /* messages name the file the caller gave */
    memset(vk, 0, sizeof *vk);
    if ((st = json_src_open(&root, src, "verification key", err))) return st;
    if (!json_is_object(root)) {
        st = ERR(err, CUZK_ERR_FORMAT, "%s: not a JSON object (a snarkjs verification_key.json)", path);
        goto out;
    }
    if ((st = check_protocol_curve(root, W, false, err))) goto out;
    const json_t *np = json_object_get(root, "nPublic");
    const json_t *ic = json_object_get(root, "IC");
    if (!json_is_integer(np) || json_integer_value(np) < 0 || json_integer_value(np) >= UINT32_MAX) {
        st = ERR(err, CUZK_ERR_FORMAT, "%s: nPublic missing or out of range", W);
        goto out;
    }
    uint32_t n_pub = (uint32_t)json_integer_value(np);
    if (!json_is_array(ic) || json_array_size(ic) != (size_t)n_pub + 1) {
        st = ERR(err, CUZK_ERR_FORMAT, "%s: IC must be an array of nPublic + 1 = %u points", W, n_pub + 1);
        goto out;
    }
    if ((st = read_g1(&vk->alpha1, json_object_get(root, "vk_alpha_1"), W, "vk_alpha_1", true, err))) goto out;
    if ((st = read_g2(&vk->beta2, json_object_get(root, "vk_beta_2"), W, "vk_beta_2", true, err))) goto out;
    if ((st = read_g2(&vk->gamma2, json_object_get(root, "vk_gamma_2"), W, "vk_gamma_2", true, err))) goto out;
    if ((st = read_g2(&vk->delta2, json_object_get(root, "vk_delta_2"), W, "vk_delta_2", true, err))) goto out;
    vk->ic = fmt_aligned_array((size_t)n_pub + 1, sizeof(CN(g1_affine)));
    if (!vk->ic) { st = ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate IC", W); goto out; }
    vk->n_public = n_pub;
    for (uint32_t i = 0; i <= n_pub; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "IC[%u]", i);
        if ((st = read_g1(&vk->ic[i], json_array_get(ic, i), W, nm, true, err))) goto out;
    }
out:
    if (st) CN(groth16_vk_free)(vk);
    json_decref(root);
    return st;
}

cuzk_status CN(vk_json_read)(CN(groth16_vk) *vk, const char *path, cuzk_error *err) {
    json_src src = {path, NULL, 0};
    return vk_json_read_src(vk, &src, err);
}
cuzk_status CN(vk_json_read_mem)(CN(groth16_vk) *vk, const char *data, size_t len, const char *name, cuzk_error *err) {
    json_src src = {name ? name : "<memory>", data ? data : "", len};
    return vk_json_read_src(vk, &src, err);
}

/* ---- writing ----------------------------------------------------------------------------- */

static json_t *dec_fp(const CN(fp) *a) {
    uint64_t l[CN(fp_LIMBS)];
    char buf[160];
    CN(fp_to_canon)(l, a);
    limbs_to_decimal(buf, sizeof buf, l, CN(fp_LIMBS));
    return json_string(buf);
}

static json_t *g1_json(const CN(g1_affine) *p) {
    if (CN(g1_affine_is_infinity)(p)) return json_pack("[sss]", "0", "1", "0");
    return json_pack("[oos]", dec_fp(&p->x), dec_fp(&p->y), "1");
}

static json_t *g2_json(const CN(g2_affine) *p) {
    if (CN(g2_affine_is_infinity)(p)) return json_pack("[[ss][ss][ss]]", "0", "0", "1", "0", "0", "0");
    return json_pack("[[oo][oo][ss]]", dec_fp(&p->x.c0), dec_fp(&p->x.c1), dec_fp(&p->y.c0), dec_fp(&p->y.c1), "1",
                     "0");
}

/* root as text (the same formatting as the files); NULL when root is NULL or out of memory. */
static char *json_text(json_t *root) {
    if (!root) return NULL;
    char *t = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    return t;
}

static cuzk_status json_write(json_t *root, const char *path, const char *what, cuzk_error *err) {
    if (!root) return ERR(err, CUZK_ERR_NOMEM, "%s: cannot build the JSON document", what);
    errno = 0;
    int rc = json_dump_file(root, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (rc != 0) return ERR(err, CUZK_ERR_IO, "%s: cannot write %s: %s", what, path, strerror(errno));
    return CUZK_OK;
}

static json_t *proof_json(const CN(groth16_proof) *p) {
    return json_pack("{s:o, s:o, s:o, s:s, s:s}", "pi_a", g1_json(&p->a), "pi_b", g2_json(&p->b), "pi_c",
                     g1_json(&p->c), "protocol", "groth16", "curve", CURVE_SNARKJS_NAME);
}

cuzk_status CN(proof_json_write)(const char *path, const CN(groth16_proof) *p, cuzk_error *err) {
    if (!path || !p) return ERR(err, CUZK_ERR_ARG, "proof_json_write: NULL argument");
    return json_write(proof_json(p), path, "proof.json", err);
}

char *CN(proof_json_text)(const CN(groth16_proof) *p) { return p ? json_text(proof_json(p)) : NULL; }

static json_t *public_json(const CN(fr) *pub, size_t n) {
    json_t *root = json_array();
    for (size_t i = 0; root && i < n; i++) {
        uint64_t l[4];
        char buf[160];
        CN(fr_to_canon)(l, &pub[i]);
        limbs_to_decimal(buf, sizeof buf, l, 4);
        if (json_array_append_new(root, json_string(buf)) != 0) {
            json_decref(root);
            root = NULL;
        }
    }
    return root;
}

cuzk_status CN(public_json_write)(const char *path, const CN(fr) *pub, size_t n, cuzk_error *err) {
    if (!path || (!pub && n)) return ERR(err, CUZK_ERR_ARG, "public_json_write: NULL argument");
    return json_write(public_json(pub, n), path, "public.json", err);
}

char *CN(public_json_text)(const CN(fr) *pub, size_t n) { return pub || !n ? json_text(public_json(pub, n)) : NULL; }

/* e(alpha1, beta2) as snarkjs writes it: [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]], each Fp2
 * [c0, c1]; same tower as ffjavascript (checked against the fixtures' verification_key.json). */
static json_t *alphabeta_json(const CN(g1_affine) *alpha1, const CN(g2_affine) *beta2) {
    CN(fp12) f;
    CN(pairing)(&f, alpha1, beta2);
    const CN(fp6) *h[2] = {&f.c0, &f.c1};
    json_t *outer = json_array();
    for (int i = 0; outer && i < 2; i++) {
        const CN(fp2) *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        json_t *mid = json_pack("[[oo][oo][oo]]", dec_fp(&c[0]->c0), dec_fp(&c[0]->c1), dec_fp(&c[1]->c0),
                                dec_fp(&c[1]->c1), dec_fp(&c[2]->c0), dec_fp(&c[2]->c1));
        if (!mid || json_array_append_new(outer, mid) != 0) {
            json_decref(outer);
            outer = NULL;
        }
    }
    return outer;
}

static json_t *vk_json(const CN(groth16_vk) *vk) {
    json_t *ic = json_array();
    for (uint32_t i = 0; ic && i <= vk->n_public; i++) {
        if (json_array_append_new(ic, g1_json(&vk->ic[i])) != 0) {
            json_decref(ic);
            ic = NULL;
        }
    }
    if (!ic) return NULL;
    return json_pack("{s:s, s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "protocol", "groth16", "curve", CURVE_SNARKJS_NAME,
                     "nPublic", (json_int_t)vk->n_public, "vk_alpha_1", g1_json(&vk->alpha1), "vk_beta_2",
                     g2_json(&vk->beta2), "vk_gamma_2", g2_json(&vk->gamma2), "vk_delta_2", g2_json(&vk->delta2),
                     "vk_alphabeta_12", alphabeta_json(&vk->alpha1, &vk->beta2), "IC", ic);
}

cuzk_status CN(vk_json_write)(const char *path, const CN(groth16_vk) *vk, cuzk_error *err) {
    if (!path || !vk || !vk->ic) return ERR(err, CUZK_ERR_ARG, "vk_json_write: NULL argument");
    return json_write(vk_json(vk), path, "verification_key.json", err);
}

char *CN(vk_json_text)(const CN(groth16_vk) *vk) { return vk && vk->ic ? json_text(vk_json(vk)) : NULL; }

cuzk_status CN(json_check_file)(const char *path, int is_vk, cuzk_error *err) {
    if (is_vk) {
        CN(groth16_vk) vk = {0};
        cuzk_status st = CN(vk_json_read)(&vk, path, err);
        CN(groth16_vk_free)(&vk);
        return st;
    }
    CN(groth16_proof) p;
    return CN(proof_json_read)(&p, path, err);
}
