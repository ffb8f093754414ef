/* file_shape_read: what a key or circuit file is made for, from its headers (snarkjs.h). The same
 * header checks as the loaders (src/formats/bellperson.c, zkey_impl.h, src/r1cs/r1cs_file_impl.h),
 * without touching a point or a constraint. */
#include "formats/bellperson.h"
#include "formats/iden3.h"
#include "formats/mapped_file.h"
#include "formats/snarkjs.h"
#include "util/log.h"

#include <stdio.h>
#include <string.h>

/* bellperson's evaluation domain for a circuit: the smallest power of two >= constraints + inputs
 * (ONE included), at least 2 (src/groth16 groth16_bellperson_log_m). */
uint64_t file_shape_domain(uint64_t n_constraints, uint64_t n_public) {
    uint64_t n = n_constraints + n_public + 1, m = 2;
    while (m < n && m < ((uint64_t)1 << 62)) m <<= 1;
    return m;
}

static cuzk_curve curve_of_prime(const uint8_t *p, uint32_t n8) {
    switch (iden3_identify_prime(p, n8)) {
    case PRIME_BLS12_381_R: case PRIME_BLS12_381_Q: return CUZK_CURVE_BLS12_381;
    case PRIME_BN254_R: case PRIME_BN254_Q: return CUZK_CURVE_BN254;
    default: return CUZK_CURVE_UNKNOWN;
    }
}

static bool read_prime(byte_cursor *c, uint32_t *n8, const uint8_t **p) {
    return cursor_u32le(c, n8) && *n8 > 0 && *n8 <= 64 && *n8 % 8 == 0 && cursor_take(c, *n8, p);
}

/* A section's size must be count points of pt bytes. */
static cuzk_status section_points(const iden3_file *t, const mapped_file *f, uint32_t id, const char *name, uint64_t count,
                                  uint64_t pt, cuzk_error *err) {
    if (!t->sec[id].present) return ERR(err, CUZK_ERR_FORMAT, "zkey: %s: section %u (%s) missing", f->path, id, name);
    if (t->sec[id].size_bytes != count * pt)
        return ERR(err, CUZK_ERR_FORMAT, "zkey: %s: section %u (%s) is %llu bytes, %llu points need %llu", f->path, id, name,
                   (unsigned long long)t->sec[id].size_bytes, (unsigned long long)count, (unsigned long long)(count * pt));
    return CUZK_OK;
}

static cuzk_status shape_zkey(cuzk_file_shape *out, const mapped_file *f, cuzk_error *err) {
    iden3_file t;
    byte_cursor c;
    cuzk_status st;
    if ((st = iden3_parse(&t, f, "zkey", 1, "zkey", err))) return st;
    uint32_t protocol = 0;
    if ((st = iden3_section_open(&c, &t, f, 1, "zkey", err))) return st;
    if (c.left != 4 || !cursor_u32le(&c, &protocol))
        return ERR(err, CUZK_ERR_FORMAT, "zkey: %s: section 1 (protocol) is %zu bytes, expected 4", f->path, c.left);
    if (protocol != 1)
        return ERR(err, CUZK_ERR_FORMAT, "zkey: %s: protocol %u (%s), not 1 (groth16)", f->path, protocol,
                   protocol == 2 ? "plonk" : protocol == 10 ? "fflonk" : "unknown");
    if ((st = iden3_section_open(&c, &t, f, 2, "zkey", err))) return st;
    uint32_t n8q = 0, n8r = 0, n_vars = 0, n_public = 0, domain = 0;
    const uint8_t *q = NULL, *r = NULL;
    if (!read_prime(&c, &n8q, &q) || !read_prime(&c, &n8r, &r) || !cursor_u32le(&c, &n_vars) ||
        !cursor_u32le(&c, &n_public) || !cursor_u32le(&c, &domain))
        return ERR(err, CUZK_ERR_FORMAT, "zkey: %s: section 2 (header) truncated or bad", f->path);
    cuzk_curve cq = curve_of_prime(q, n8q), cr = curve_of_prime(r, n8r);
    if (cq == CUZK_CURVE_UNKNOWN || cq != cr)
        return ERR(err, CUZK_ERR_CURVE, "zkey: %s: unknown field primes (%u / %u bytes; a corrupt header?): bls12381 and "
                   "bn128 are supported", f->path, n8q, n8r);
    if ((uint64_t)n_public + 1 > n_vars)
        return ERR(err, CUZK_ERR_FORMAT, "zkey: %s: nPublic %u + 1 > nVars %u", f->path, n_public, n_vars);
    if (domain == 0 || (domain & (domain - 1)) != 0 || domain < (uint64_t)n_public + 1)
        return ERR(err, CUZK_ERR_FORMAT, "zkey: %s: domain size %u is not a power of two >= nPublic + 1", f->path, domain);
    uint64_t g1 = 2ull * n8q, g2 = 4ull * n8q;
    if ((st = section_points(&t, f, 3, "IC", (uint64_t)n_public + 1, g1, err)) ||
        (st = section_points(&t, f, 5, "A", n_vars, g1, err)) || (st = section_points(&t, f, 6, "B1", n_vars, g1, err)) ||
        (st = section_points(&t, f, 7, "B2", n_vars, g2, err)) ||
        (st = section_points(&t, f, 8, "C", (uint64_t)n_vars - n_public - 1, g1, err)) ||
        (st = section_points(&t, f, 9, "H", domain, g1, err)))
        return st;
    out->kind = "zkey";
    out->curve = cq;
    out->n_public = n_public;
    out->n_aux = (uint64_t)n_vars - n_public - 1;
    out->domain = domain;
    return CUZK_OK;
}

static cuzk_status shape_r1cs(cuzk_file_shape *out, const mapped_file *f, cuzk_error *err) {
    iden3_file t;
    byte_cursor c;
    cuzk_status st;
    if ((st = iden3_parse(&t, f, "r1cs", 1, "r1cs", err))) return st;
    if ((st = iden3_section_open(&c, &t, f, 1, "r1cs", err))) return st;
    uint32_t n8 = 0, n_wires = 0, n_out = 0, n_pub_in = 0, n_prv_in = 0, n_constraints = 0;
    uint64_t n_labels = 0;
    const uint8_t *prime = NULL;
    if (!read_prime(&c, &n8, &prime) || !cursor_u32le(&c, &n_wires) || !cursor_u32le(&c, &n_out) ||
        !cursor_u32le(&c, &n_pub_in) || !cursor_u32le(&c, &n_prv_in) || !cursor_u64le(&c, &n_labels) ||
        !cursor_u32le(&c, &n_constraints) || c.left != 0)
        return ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 1 (header) truncated or bad", f->path);
    cuzk_curve cv = curve_of_prime(prime, n8);
    if (cv == CUZK_CURVE_UNKNOWN)
        return ERR(err, CUZK_ERR_CURVE, "r1cs: %s: unknown field prime (%u bytes; a corrupt header?): bls12381 and bn128 "
                   "are supported", f->path, n8);
    uint64_t n_public = (uint64_t)n_out + n_pub_in;
    if (n_wires == 0 || n_public + 1 > n_wires)
        return ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: %u outputs + %u public inputs + ONE exceed %u wires", f->path, n_out,
                   n_pub_in, n_wires);
    if (!t.sec[2].present) return ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 2 (constraints) missing", f->path);
    /* each constraint is three linear combinations of at least a u32 count each */
    if (t.sec[2].size_bytes < 12ull * n_constraints)
        return ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 2 (constraints) is %llu bytes, too short for %u constraints",
                   f->path, (unsigned long long)t.sec[2].size_bytes, n_constraints);
    if (t.sec[3].present && t.sec[3].size_bytes != (uint64_t)n_wires * 8)
        return ERR(err, CUZK_ERR_FORMAT, "r1cs: %s: section 3 is %llu bytes, %u wires need %llu", f->path,
                   (unsigned long long)t.sec[3].size_bytes, n_wires, (unsigned long long)n_wires * 8);
    out->kind = "r1cs";
    out->curve = cv;
    out->n_public = n_public;
    out->n_aux = (uint64_t)n_wires - n_public - 1;
    out->n_constraints = n_constraints;
    out->domain = file_shape_domain(n_constraints, n_public);
    return CUZK_OK;
}

static cuzk_status shape_params(cuzk_file_shape *out, const mapped_file *f, cuzk_error *err) {
    char what[1100];
    snprintf(what, sizeof what, "bellperson params %s", f->path);
    bellperson_layout lay;
    cuzk_status st = bellperson_params_layout(&lay, f->m_data, f->size_bytes, what, err);
    if (st) return st;
    out->kind = lay.origin == BELLPERSON_ORIGIN_PARAMS ? "bellperson params" : "phase-2 MPC params";
    out->curve = CUZK_CURVE_BLS12_381;
    out->n_public = lay.n_ic - 1; /* ic is never empty (the layout refuses it) */
    out->n_aux = lay.n_l;
    out->domain = (uint64_t)lay.n_h + 1;
    return CUZK_OK;
}

cuzk_status file_shape_read(cuzk_file_shape *out, const char *path, cuzk_error *err) {
    if (!out || !path) return ERR(err, CUZK_ERR_ARG, "cuzk_file_shape_read: NULL argument");
    memset(out, 0, sizeof *out);
    mapped_file f;
    cuzk_status st = mapped_file_open(&f, path, err);
    if (st) return st;
    if (f.size_bytes >= 4 && !memcmp(f.m_data, "zkey", 4)) st = shape_zkey(out, &f, err);
    else if (f.size_bytes >= 4 && !memcmp(f.m_data, "r1cs", 4)) st = shape_r1cs(out, &f, err);
    else if (f.size_bytes >= 4 && (!memcmp(f.m_data, "wtns", 4) || !memcmp(f.m_data, "ptau", 4) || f.m_data[0] == '{' ||
                                   f.m_data[0] == '['))
        st = ERR(err, CUZK_ERR_FORMAT, "%s: not a proving key or circuit (a .params, .zkey or .r1cs file)", path);
    else st = shape_params(out, &f, err);
    out->file_bytes = f.size_bytes;
    mapped_file_close(&f);
    if (st) memset(out, 0, sizeof *out);
    return st;
}
