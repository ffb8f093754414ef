/* snarkjs Groth16 .zkey reader (FORMATS.md section 3) of one curve: a template, instantiated per
 * curve (src/formats/formats_<curve>.c); every curve-dependent name is CN(name). */
#include "formats/fmt_util.h"
#include "formats/iden3.h"
#include "formats/snarkjs.h"
#include "util/log.h"
#include "util/parallel.h"

#include <stdatomic.h>

#include <stdlib.h>
#include <string.h>

/* G1 / G2 affine points in M form: the bytes of g1_affine / g2_affine on a little-endian host
 * (96 / 192 bytes for bls12381, 64 / 128 for bn128). */
#define SG1 ((unsigned)sizeof(CN(g1_affine)))
#define SG2 ((unsigned)sizeof(CN(g2_affine)))

static const char *const SECTION_NAME[11] = {"", "protocol", "header", "IC", "coefficients", "A", "B1",
                                             "B2", "C", "H", "contributions"};

void CN(zkey_free)(CN(zkey) *z) {
    if (!z) return;
    free(z->ic);
    free(z->a);
    free(z->b1);
    free(z->b2);
    free(z->c);
    free(z->h);
    free(z->coefs);
    memset(z, 0, sizeof *z);
}

static cuzk_status point_error(cuzk_error *err, const char *path, unsigned sec, size_t idx, pt_fault f) {
    return ERR(err, CUZK_ERR_POINT, "zkey: %s: section %u (%s) point %zu: %s", path, sec, SECTION_NAME[sec], idx,
               pt_fault_str(f));
}

/* Copies one header point (M form bytes == our limbs) and checks it. On BN254 the three G2 points
 * of the verification key are always checked for the subgroup too (G2 has a cofactor there; three
 * checks cost nothing); the B2 section only with check_subgroup (one 127-bit multiplication per
 * point: seconds for large keys; a B2 point outside G2 with a nonzero witness value makes a proof
 * that fails the self-verification instead). */
static cuzk_status header_g1(CN(g1_affine) *out, byte_cursor *c, const char *name, bool sub, const char *path,
                             cuzk_error *err) {
    const uint8_t *p = c->p; /* the caller checked the section size */
    cursor_take(c, SG1, &p);
    memcpy(out, p, SG1);
    pt_fault f;
    if (CN(g1s_check)(out, 1, sub, &f) != 1)
        return ERR(err, CUZK_ERR_POINT, "zkey: %s: section 2 (header) point %s: %s", path, name, pt_fault_str(f));
    if (CN(g1_affine_is_infinity)(out))
        return ERR(err, CUZK_ERR_POINT, "zkey: %s: section 2 (header) point %s is the point at infinity (a degenerate key)",
                   path, name);
    return CUZK_OK;
}
static cuzk_status header_g2(CN(g2_affine) *out, byte_cursor *c, const char *name, bool sub, const char *path,
                             cuzk_error *err) {
    const uint8_t *p = c->p;
    cursor_take(c, SG2, &p);
    memcpy(out, p, SG2);
    pt_fault f;
    if (CN(g2s_check)(out, 1, sub, &f) != 1)
        return ERR(err, CUZK_ERR_POINT, "zkey: %s: section 2 (header) point %s: %s", path, name, pt_fault_str(f));
    if (CN(g2_affine_is_infinity)(out))
        return ERR(err, CUZK_ERR_POINT, "zkey: %s: section 2 (header) point %s is the point at infinity (a degenerate key)",
                   path, name);
    return CUZK_OK;
}

/* Section `id` must hold exactly `count` points of `elt` bytes; copies them into a new array. */
static cuzk_status load_points(void **out, const iden3_file *t, const mapped_file *f, unsigned id, uint64_t count,
                               size_t elt, bool sub, cuzk_error *err) {
    byte_cursor c;
    cuzk_status st;
    *out = NULL;
    if ((st = iden3_section_open(&c, t, f, id, "zkey", err))) return st;
    if (c.left != count * elt)
        return ERR(err, CUZK_ERR_FORMAT, "zkey: %s: section %u (%s) is %zu bytes, %llu points need %llu", f->path, id,
                   SECTION_NAME[id], c.left, (unsigned long long)count, (unsigned long long)(count * elt));
    if (count == 0) return CUZK_OK;
    void *a = fmt_aligned_array((size_t)count, elt);
    if (!a)
        return ERR(err, CUZK_ERR_NOMEM, "zkey: %s: cannot allocate %llu points of section %u", f->path,
                   (unsigned long long)count, id);
    pt_fault fault;
    size_t bad = elt == SG1 ? CN(g1s_copy_check)(a, c.p, (size_t)count, sub, &fault)
                            : CN(g2s_copy_check)(a, c.p, (size_t)count, sub, &fault);
    if (bad != count) {
        free(a);
        return point_error(err, f->path, id, bad, fault);
    }
    *out = a;
    return CUZK_OK;
}

static cuzk_status zkey_parse(CN(zkey) *z, const mapped_file *f, bool check_subgroup, bool vk_only, cuzk_error *err);

/* Section 4's records (44 bytes: u32 matrix, row, wire, value v*R^2 mod r little-endian) into
 * coefs, records [b, e) per call; a record out of range or not canonical lowers first_bad to its
 * index (the smallest one wins; its range and the ones after it are left unfinished). */
#define COEF_MAX_THREADS 64
typedef struct {
    CN(zkey_coef) *coefs;
    const uint8_t *rec;
    uint32_t domain, n_vars, n_coefs, pad_;
    uint32_t max_row[COEF_MAX_THREADS]; /* per thread id */
    _Atomic uint32_t first_bad;
} coef_ctx;

static inline uint32_t le32_(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void coef_run(void *vctx, size_t b, size_t e, int tid) {
    coef_ctx *x = vctx;
    uint32_t mx = 0;
    for (size_t i = b; i < e; i++) {
        const uint8_t *r = x->rec + i * 44;
        CN(zkey_coef) *k = &x->coefs[i];
        k->matrix = le32_(r);
        k->row = le32_(r + 4);
        k->wire = le32_(r + 8);
        CN(fr) m2;
        memcpy(m2.l, r + 12, 32);
        if (k->matrix > 1 || k->row >= x->domain || k->wire >= x->n_vars || !CN(fr_is_canon)(m2.l)) {
            uint32_t cur = atomic_load(&x->first_bad);
            while ((uint32_t)i < cur && !atomic_compare_exchange_weak(&x->first_bad, &cur, (uint32_t)i)) {
            }
            break;
        }
        /* stored v*R^2; one Montgomery reduction gives v*R, the Montgomery form of v */
        CN(fr_to_canon)(k->value.l, &m2);
        if (k->row > mx) mx = k->row;
    }
    if (tid >= 0 && tid < COEF_MAX_THREADS && mx > x->max_row[tid]) x->max_row[tid] = mx;
}

cuzk_status CN(zkey_load)(CN(zkey) *z, const char *path, bool check_subgroup, cuzk_error *err) {
    mapped_file f;
    cuzk_status st;
    memset(z, 0, sizeof *z);
    if ((st = mapped_file_open(&f, path, err))) return st;
    st = zkey_parse(z, &f, check_subgroup, false, err);
    mapped_file_close(&f);
    return st;
}

cuzk_status CN(zkey_load_vk)(CN(groth16_vk) *vk, const char *path, cuzk_error *err) {
    mapped_file f;
    CN(zkey) z;
    cuzk_status st;
    memset(vk, 0, sizeof *vk);
    memset(&z, 0, sizeof z);
    if ((st = mapped_file_open(&f, path, err))) return st;
    st = zkey_parse(&z, &f, true, true, err);
    mapped_file_close(&f);
    if (st) return st;
    vk->alpha1 = z.alpha1;
    vk->beta1 = z.beta1;
    vk->beta2 = z.beta2;
    vk->gamma2 = z.gamma2;
    vk->delta1 = z.delta1;
    vk->delta2 = z.delta2;
    vk->n_public = z.n_public;
    vk->ic = z.ic; /* moved */
    z.ic = NULL;
    CN(zkey_free)(&z);
    return CUZK_OK;
}

cuzk_status CN(zkey_load_mem)(CN(zkey) *z, const uint8_t *data, size_t size, const char *name, bool check_subgroup,
                              cuzk_error *err) {
    mapped_file f;
    memset(z, 0, sizeof *z);
    if (!data && size) return ERR(err, CUZK_ERR_ARG, "zkey: NULL data");
    mapped_file_borrow(&f, data, size, name);
    cuzk_status st = zkey_parse(z, &f, check_subgroup, false, err);
    mapped_file_close(&f);
    return st;
}

static cuzk_status zkey_parse(CN(zkey) *z, const mapped_file *f, bool check_subgroup, bool vk_only, cuzk_error *err) {
    const char *path = f->path;
    iden3_file t;
    byte_cursor c;
    cuzk_status st;
    const uint8_t *p;
    if ((st = iden3_parse(&t, f, "zkey", 1, "zkey", err))) goto out;

    /* section 1: protocol */
    uint32_t protocol;
    if ((st = iden3_section_open(&c, &t, f, 1, "zkey", err))) goto out;
    if (c.left != 4 || !cursor_u32le(&c, &protocol)) {
        st = ERR(err, CUZK_ERR_FORMAT, "zkey: %s: section 1 (protocol) is %zu bytes, expected 4", path, c.left);
        goto out;
    }
    if (protocol != 1) {
        st = ERR(err, CUZK_ERR_UNSUPPORTED, "zkey: %s: protocol %u (%s) is not supported, only 1 (groth16)", path,
                 protocol, protocol == 2 ? "plonk" : protocol == 10 ? "fflonk" : "unknown");
        goto out;
    }

    /* section 2: header */
    if ((st = iden3_section_open(&c, &t, f, 2, "zkey", err))) goto out;
    uint32_t n8q, n8r, n_vars, n_public, domain;
    if (!cursor_u32le(&c, &n8q) || n8q == 0 || n8q > 64 || n8q % 8 || !cursor_take(&c, n8q, &p)) {
        st = ERR(err, CUZK_ERR_FORMAT, "zkey: %s: section 2 (header): bad or truncated q", path);
        goto out;
    }
    if ((st = iden3_check_prime(p, n8q, CURVE_PRIME_Q, "zkey", path, err))) goto out;
    if (!cursor_u32le(&c, &n8r) || n8r == 0 || n8r > 64 || n8r % 8 || !cursor_take(&c, n8r, &p)) {
        st = ERR(err, CUZK_ERR_FORMAT, "zkey: %s: section 2 (header): bad or truncated r", path);
        goto out;
    }
    if ((st = iden3_check_prime(p, n8r, CURVE_PRIME_R, "zkey", path, err))) goto out;
    if (!cursor_u32le(&c, &n_vars) || !cursor_u32le(&c, &n_public) || !cursor_u32le(&c, &domain) ||
        c.left != 3 * SG1 + 3 * SG2) {
        st = ERR(err, CUZK_ERR_FORMAT, "zkey: %s: section 2 (header) has a wrong size (%llu bytes, expected %llu)", path,
                 (unsigned long long)t.sec[2].size_bytes,
                 (unsigned long long)(20 + n8q + n8r + 3 * SG1 + 3 * SG2));
        goto out;
    }
    if ((uint64_t)n_public + 1 > n_vars) {
        st = ERR(err, CUZK_ERR_FORMAT, "zkey: %s: nPublic %u + 1 > nVars %u", path, n_public, n_vars);
        goto out;
    }
    if (domain == 0 || (domain & (domain - 1)) != 0 || domain < (uint64_t)n_public + 1) {
        st = ERR(err, CUZK_ERR_FORMAT, "zkey: %s: domain size %u is not a power of two >= nPublic + 1", path, domain);
        goto out;
    }
    if ((st = header_g1(&z->alpha1, &c, "alpha1", check_subgroup, path, err))) goto out;
    if ((st = header_g1(&z->beta1, &c, "beta1", check_subgroup, path, err))) goto out;
    if ((st = header_g2(&z->beta2, &c, "beta2", check_subgroup || CURVE_ID == CUZK_CURVE_BN254, path, err))) goto out;
    if ((st = header_g2(&z->gamma2, &c, "gamma2", check_subgroup || CURVE_ID == CUZK_CURVE_BN254, path, err))) goto out;
    if ((st = header_g1(&z->delta1, &c, "delta1", check_subgroup, path, err))) goto out;
    if ((st = header_g2(&z->delta2, &c, "delta2", check_subgroup || CURVE_ID == CUZK_CURVE_BN254, path, err))) goto out;
    z->n_vars = n_vars;
    z->n_public = n_public;
    z->domain_size = domain;
    z->log_domain = 0;
    while ((1u << z->log_domain) < domain) z->log_domain++;

    /* point sections */
    if ((st = load_points((void **)&z->ic, &t, f, 3, (uint64_t)n_public + 1, SG1, check_subgroup, err))) goto out;
    for (uint32_t i = 0; i <= n_public; i++)
        if (CN(g1_affine_is_infinity)(&z->ic[i])) {
            st = ERR(err, CUZK_ERR_POINT, "zkey: %s: section 3 (IC) point %u is the point at infinity (a degenerate key)",
                     path, i);
            goto out;
        }
    if (vk_only) goto out; /* the verification key: sections 1-3 only */
    if ((st = load_points((void **)&z->a, &t, f, 5, n_vars, SG1, check_subgroup, err))) goto out;
    if ((st = load_points((void **)&z->b1, &t, f, 6, n_vars, SG1, check_subgroup, err))) goto out;
    if ((st = load_points((void **)&z->b2, &t, f, 7, n_vars, SG2, check_subgroup, err))) goto out;
    if ((st = load_points((void **)&z->c, &t, f, 8, (uint64_t)n_vars - n_public - 1, SG1, check_subgroup, err)))
        goto out;
    if ((st = load_points((void **)&z->h, &t, f, 9, domain, SG1, check_subgroup, err))) goto out;

    /* section 4: coefficients */
    uint32_t n_coefs;
    if ((st = iden3_section_open(&c, &t, f, 4, "zkey", err))) goto out;
    if (!cursor_u32le(&c, &n_coefs) || c.left != (uint64_t)n_coefs * 44) {
        st = ERR(err, CUZK_ERR_FORMAT, "zkey: %s: section 4 (coefficients) is %llu bytes, inconsistent with its count",
                 path, (unsigned long long)t.sec[4].size_bytes);
        goto out;
    }
    if (n_coefs) {
        z->coefs = fmt_aligned_array(n_coefs, sizeof(CN(zkey_coef)));
        if (!z->coefs) {
            st = ERR(err, CUZK_ERR_NOMEM, "zkey: %s: cannot allocate %u coefficients", path, n_coefs);
            goto out;
        }
    }
    /* the records in parallel (the loop was a single-threaded 10-30 ms at 2^17 .. 2^20); the
     * first bad record, if any, is described afterwards by coef_fault */
    uint32_t max_row = 0;
    if (n_coefs) {
        coef_ctx cc = {.coefs = z->coefs, .rec = c.p, .domain = domain, .n_vars = n_vars, .n_coefs = n_coefs};
        atomic_init(&cc.first_bad, n_coefs);
        for (int t = 0; t < COEF_MAX_THREADS; t++) cc.max_row[t] = 0;
        int nth = cuzk_num_threads();
        if (nth > COEF_MAX_THREADS) nth = COEF_MAX_THREADS;
        parallel_for(n_coefs, n_coefs < 2048 ? 1 : nth, coef_run, &cc);
        uint32_t bad = atomic_load(&cc.first_bad);
        if (bad < n_coefs) {
            const uint8_t *rec = c.p + (size_t)bad * 44;
            uint32_t mtx = le32_(rec), row = le32_(rec + 4), wire = le32_(rec + 8);
            if (mtx > 1 || row >= domain || wire >= n_vars)
                st = ERR(err, CUZK_ERR_FORMAT,
                         "zkey: %s: section 4 (coefficients) record %u: matrix %u, row %u, wire %u out of range "
                         "(matrix < 2, row < %u, wire < %u)", path, bad, mtx, row, wire, domain, n_vars);
            else
                st = ERR(err, CUZK_ERR_FORMAT, "zkey: %s: section 4 (coefficients) record %u: value not canonical (>= r)",
                         path, bad);
            goto out;
        }
        for (int t = 0; t < COEF_MAX_THREADS; t++)
            if (cc.max_row[t] > max_row) max_row = cc.max_row[t];
    }
    z->n_coefs = n_coefs;
    /* snarkjs appends one A row per public input (ONE included) after the constraints: the last
     * of them, row nConstraints + nPublic, is the highest row of the file */
    z->n_constraints = n_coefs && max_row >= n_public ? max_row - n_public : 0;
out:
    if (st) CN(zkey_free)(z);
    return st;
}
