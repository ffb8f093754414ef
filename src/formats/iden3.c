/* iden3 container parsing and header prime checks (iden3.h). */
#include "formats/iden3.h"
#include "curves/bls12_381/constants.h"
#include "curves/bn254/constants.h"
#include "util/log.h"

#include <string.h>

cuzk_status iden3_parse(iden3_file *t, const mapped_file *f, const char magic[4], uint32_t version,
                        const char *kind, cuzk_error *err) {
    memset(t, 0, sizeof *t);
    byte_cursor c = {f->m_data, f->size_bytes};
    const uint8_t *m;
    if (!cursor_take(&c, 4, &m))
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s: file too short (%zu bytes) for a header", kind, f->path, f->size_bytes);
    if (memcmp(m, magic, 4) != 0)
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s: bad magic (expected '%.4s')", kind, f->path, magic);
    if (!cursor_u32le(&c, &t->version) || !cursor_u32le(&c, &t->n_sections))
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s: truncated file header", kind, f->path);
    if (t->version != version)
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s: version %u not supported (expected %u)", kind, f->path,
                   t->version, version);
    if (t->n_sections > c.left / 12)
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s: %u sections do not fit in %zu bytes", kind, f->path,
                   t->n_sections, f->size_bytes);
    for (uint32_t i = 0; i < t->n_sections; i++) {
        uint32_t id;
        uint64_t size;
        if (!cursor_u32le(&c, &id) || !cursor_u64le(&c, &size))
            return ERR(err, CUZK_ERR_FORMAT, "%s: %s: truncated header of section #%u", kind, f->path, i);
        uint64_t off = f->size_bytes - c.left;
        if (size > c.left)
            return ERR(err, CUZK_ERR_FORMAT,
                       "%s: %s: section %u (#%u) claims %llu bytes at offset %llu, past the end of the file (%zu bytes)",
                       kind, f->path, id, i, (unsigned long long)size, (unsigned long long)off, f->size_bytes);
        if (id < IDEN3_MAX_ID) {
            if (t->sec[id].present)
                return ERR(err, CUZK_ERR_FORMAT, "%s: %s: duplicate section %u", kind, f->path, id);
            t->sec[id].present = true;
            t->sec[id].offset = off;
            t->sec[id].size_bytes = size;
        }
        c.p += size;
        c.left -= (size_t)size;
    }
    if (c.left != 0)
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s: %zu trailing bytes after the last section", kind, f->path, c.left);
    return CUZK_OK;
}

cuzk_status iden3_section_open(byte_cursor *c, const iden3_file *t, const mapped_file *f, uint32_t id,
                               const char *kind, cuzk_error *err) {
    if (id >= IDEN3_MAX_ID || !t->sec[id].present)
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s: section %u missing", kind, f->path, id);
    c->p = f->m_data + t->sec[id].offset;
    c->left = (size_t)t->sec[id].size_bytes;
    return CUZK_OK;
}

/* Little-endian 64-bit limbs of the four primes. */
static const uint64_t BLS_R[4] = BLS12_381_FR_MODULUS;
static const uint64_t BLS_Q[6] = BLS12_381_FP_MODULUS;
static const uint64_t BN_R[4] = BN254_FR_MODULUS;
static const uint64_t BN_Q[4] = BN254_FP_MODULUS;

static bool prime_eq(const uint8_t *p, uint32_t n8, const uint64_t *l, int n) {
    if (n8 != 8u * (uint32_t)n) return false;
    for (uint32_t i = 0; i < n8; i++)
        if (p[i] != (uint8_t)(l[i / 8] >> (8 * (i % 8)))) return false;
    return true;
}

prime_id iden3_identify_prime(const uint8_t *p, uint32_t n8) {
    if (prime_eq(p, n8, BLS_R, 4)) return PRIME_BLS12_381_R;
    if (prime_eq(p, n8, BLS_Q, 6)) return PRIME_BLS12_381_Q;
    if (prime_eq(p, n8, BN_R, 4)) return PRIME_BN254_R;
    if (prime_eq(p, n8, BN_Q, 4)) return PRIME_BN254_Q;
    return PRIME_OTHER;
}

const char *prime_curve_name(prime_id id) {
    switch (id) {
    case PRIME_BLS12_381_R: case PRIME_BLS12_381_Q: return "bls12381";
    case PRIME_BN254_R: case PRIME_BN254_Q: return "bn128";
    default: return "unknown";
    }
}

cuzk_status iden3_check_prime(const uint8_t *p, uint32_t n8, prime_id want, const char *kind, const char *path,
                              cuzk_error *err) {
    prime_id got = iden3_identify_prime(p, n8);
    if (got == want) return CUZK_OK;
    bool want_r = want == PRIME_BLS12_381_R || want == PRIME_BN254_R;
    bool got_r = got == PRIME_BLS12_381_R || got == PRIME_BN254_R;
    if (got != PRIME_OTHER && strcmp(prime_curve_name(got), prime_curve_name(want)) != 0)
        return ERR(err, CUZK_ERR_CURVE, "%s: %s: the file is for %s, but %s is expected here (files of different curves)",
                   kind, path, prime_curve_name(got), prime_curve_name(want));
    if (got != PRIME_OTHER)
        return ERR(err, CUZK_ERR_CURVE, "%s: %s: %s %s found where %s was expected", kind, path, prime_curve_name(got),
                   got_r ? "r" : "q", want_r ? "r" : "q");
    return ERR(err, CUZK_ERR_CURVE, "%s: %s: unknown field prime (%u bytes; a corrupt header?): bls12381 and bn128 are supported",
               kind, path, n8);
}
