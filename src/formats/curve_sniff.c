/* Curve of a file, without loading it (curve_sniff.h). */
#include "formats/curve_sniff.h"

#include <jansson.h>
#include <string.h>

#include "formats/iden3.h"
#include "formats/mapped_file.h"

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static cuzk_curve curve_of_prime(prime_id id) {
    switch (id) {
    case PRIME_BLS12_381_R: case PRIME_BLS12_381_Q: return CUZK_CURVE_BLS12_381;
    case PRIME_BN254_R: case PRIME_BN254_Q: return CUZK_CURVE_BN254;
    default: return CUZK_CURVE_UNKNOWN;
    }
}

cuzk_curve curve_sniff_iden3(const uint8_t *data, size_t len) {
    if (!data || len < 12) return CUZK_CURVE_UNKNOWN;
    uint32_t want; /* the section whose payload starts with u32 n8 + prime */
    if (!memcmp(data, "zkey", 4)) want = 2;
    else if (!memcmp(data, "wtns", 4) || !memcmp(data, "r1cs", 4)) want = 1;
    else return CUZK_CURVE_UNKNOWN;
    uint32_t n = rd32(data + 8);
    size_t off = 12;
    for (uint32_t i = 0; i < n && off + 12 <= len; i++) {
        uint32_t id = rd32(data + off);
        uint64_t size = rd64(data + off + 4);
        off += 12;
        if (size > len - off) return CUZK_CURVE_UNKNOWN;
        if (id == want) {
            if (size < 4) return CUZK_CURVE_UNKNOWN;
            uint32_t n8 = rd32(data + off);
            if (n8 == 0 || n8 > 64 || 4 + (uint64_t)n8 > size) return CUZK_CURVE_UNKNOWN;
            return curve_of_prime(iden3_identify_prime(data + off + 4, n8));
        }
        off += (size_t)size;
    }
    return CUZK_CURVE_UNKNOWN;
}

cuzk_curve curve_sniff_iden3_file(const char *path) {
    mapped_file f;
    if (!path || mapped_file_open(&f, path, NULL) != CUZK_OK) return CUZK_CURVE_UNKNOWN;
    cuzk_curve c = curve_sniff_iden3(f.m_data, f.size_bytes);
    mapped_file_close(&f);
    return c;
}

static cuzk_curve curve_of_json(json_t *root) {
    const json_t *cv = json_object_get(root, "curve");
    cuzk_curve c = CUZK_CURVE_UNKNOWN;
    if (json_is_string(cv)) {
        const char *s = json_string_value(cv);
        if (!strcmp(s, "bn128") || !strcmp(s, "bn254")) c = CUZK_CURVE_BN254;
        else if (!strcmp(s, "bls12381")) c = CUZK_CURVE_BLS12_381;
    }
    json_decref(root);
    return c;
}

cuzk_curve curve_sniff_json(const char *text, size_t len) {
    if (!text) return CUZK_CURVE_UNKNOWN;
    json_t *root = json_loadb(text, len, 0, NULL);
    return root ? curve_of_json(root) : CUZK_CURVE_UNKNOWN;
}

cuzk_curve curve_sniff_json_file(const char *path) {
    if (!path) return CUZK_CURVE_UNKNOWN;
    json_t *root = json_load_file(path, 0, NULL);
    return root ? curve_of_json(root) : CUZK_CURVE_UNKNOWN;
}
