/* zcash/bellperson point encodings for BLS12-381 G1 and G2 (src/curves/bls12_381/curve.h;
 * DESIGN.md section 3).
 *
 * Format (zkcrypto/bls12_381 "serialization" notes, IETF draft-irtf-cfrg-pairing-friendly-curves
 * appendix C): coordinates canonical big-endian, 48 bytes per Fp, an Fp2 written c1 then c0.
 * The top three bits of byte 0 are flags:
 *   0x80  compressed (set exactly in the 48/96-byte forms, clear in the 96/192-byte forms)
 *   0x40  infinity: every other bit of the encoding must be zero (0x20 included)
 *   0x20  compressed only: y is the lexicographically larger of {y, -y} (Fp2: by c1, then c0)
 * Decoders check flags, canonical coordinates (< p) and the curve equation, in that order, and
 * write *r only on EC_DECODE_OK; they do not check the subgroup. Thread-safety: pure functions.
 */
#include "curves/bls12_381/curve.h"

#define FLAG_COMPRESSED 0x80u
#define FLAG_INFINITY 0x40u
#define FLAG_SORT 0x20u
#define FLAG_MASK 0xe0u

/* true when bytes [1, n) are zero and byte 0 has no bits outside its top three flags */
static bool rest_is_zero(const uint8_t *in, size_t n) {
    uint8_t acc = in[0] & (uint8_t)~FLAG_MASK;
    for (size_t i = 1; i < n; i++) acc |= in[i];
    return acc == 0;
}

/* Checks the flags of an encoding of n bytes; *inf set for a valid infinity encoding.
 * compressed: whether this is the compressed form (the 0x80 bit must match it). */
static ec_decode_result check_flags(bool *inf, bool *sort, const uint8_t *in, size_t n, bool compressed) {
    uint8_t f = in[0] & FLAG_MASK;
    if (((f & FLAG_COMPRESSED) != 0) != compressed) return EC_DECODE_BAD_FLAGS;
    *sort = (f & FLAG_SORT) != 0;
    *inf = (f & FLAG_INFINITY) != 0;
    if (*inf) {
        if (*sort || !rest_is_zero(in, n)) return EC_DECODE_BAD_FLAGS;
        return EC_DECODE_OK;
    }
    if (!compressed && *sort) return EC_DECODE_BAD_FLAGS;
    return EC_DECODE_OK;
}

/* 48 big-endian bytes (flags of byte 0 masked off when first) -> fp; false if >= p */
static bool fp_read_be(fp *r, const uint8_t *in, bool first) {
    uint8_t b[48];
    memcpy(b, in, 48);
    if (first) b[0] &= (uint8_t)~FLAG_MASK;
    return fp_from_bytes_be(r, b, 48);
}

/* ---- G1 ---------------------------------------------------------------------------------- */

void g1_affine_to_compressed(uint8_t out[48], const g1_affine *p) {
    if (g1_affine_is_infinity(p)) {
        memset(out, 0, 48);
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return;
    }
    fp_to_bytes_be(out, 48, &p->x);
    out[0] |= FLAG_COMPRESSED;
    if (fp_is_lexicographically_largest(&p->y)) out[0] |= FLAG_SORT;
}

void g1_affine_to_uncompressed(uint8_t out[96], const g1_affine *p) {
    if (g1_affine_is_infinity(p)) {
        memset(out, 0, 96);
        out[0] = FLAG_INFINITY;
        return;
    }
    fp_to_bytes_be(out, 48, &p->x);
    fp_to_bytes_be(out + 48, 48, &p->y);
}

ec_decode_result g1_affine_from_compressed(g1_affine *r, const uint8_t in[48]) {
    bool inf, sort;
    ec_decode_result e = check_flags(&inf, &sort, in, 48, true);
    if (e != EC_DECODE_OK) return e;
    if (inf) { g1_affine_set_infinity(r); return EC_DECODE_OK; }
    g1_affine t;
    if (!fp_read_be(&t.x, in, true)) return EC_DECODE_NOT_CANONICAL;
    fp rhs, b;
    fp_sqr(&rhs, &t.x);
    fp_mul(&rhs, &rhs, &t.x);
    fp_from_u64(&b, 4);
    fp_add(&rhs, &rhs, &b);
    if (!fp_sqrt(&t.y, &rhs)) return EC_DECODE_NOT_ON_CURVE;
    if (fp_is_lexicographically_largest(&t.y) != sort) fp_neg(&t.y, &t.y);
    *r = t;
    return EC_DECODE_OK;
}

ec_decode_result g1_affine_from_uncompressed(g1_affine *r, const uint8_t in[96]) {
    bool inf, sort;
    ec_decode_result e = check_flags(&inf, &sort, in, 96, false);
    if (e != EC_DECODE_OK) return e;
    if (inf) { g1_affine_set_infinity(r); return EC_DECODE_OK; }
    g1_affine t;
    if (!fp_read_be(&t.x, in, true) || !fp_read_be(&t.y, in + 48, false)) return EC_DECODE_NOT_CANONICAL;
    /* (0, 0) is not on the curve; is_on_curve would take it for infinity */
    if (g1_affine_is_infinity(&t) || !g1_affine_is_on_curve(&t)) return EC_DECODE_NOT_ON_CURVE;
    *r = t;
    return EC_DECODE_OK;
}

/* ---- G2 ---------------------------------------------------------------------------------- */

static void fp2_write_be(uint8_t out[96], const fp2 *a) {
    fp_to_bytes_be(out, 48, &a->c1);
    fp_to_bytes_be(out + 48, 48, &a->c0);
}

static bool fp2_read_be(fp2 *r, const uint8_t in[96], bool first) {
    return fp_read_be(&r->c1, in, first) && fp_read_be(&r->c0, in + 48, false);
}

void g2_affine_to_compressed(uint8_t out[96], const g2_affine *p) {
    if (g2_affine_is_infinity(p)) {
        memset(out, 0, 96);
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return;
    }
    fp2_write_be(out, &p->x);
    out[0] |= FLAG_COMPRESSED;
    if (fp2_is_lexicographically_largest(&p->y)) out[0] |= FLAG_SORT;
}

void g2_affine_to_uncompressed(uint8_t out[192], const g2_affine *p) {
    if (g2_affine_is_infinity(p)) {
        memset(out, 0, 192);
        out[0] = FLAG_INFINITY;
        return;
    }
    fp2_write_be(out, &p->x);
    fp2_write_be(out + 96, &p->y);
}

ec_decode_result g2_affine_from_compressed(g2_affine *r, const uint8_t in[96]) {
    bool inf, sort;
    ec_decode_result e = check_flags(&inf, &sort, in, 96, true);
    if (e != EC_DECODE_OK) return e;
    if (inf) { g2_affine_set_infinity(r); return EC_DECODE_OK; }
    g2_affine t;
    if (!fp2_read_be(&t.x, in, true)) return EC_DECODE_NOT_CANONICAL;
    fp2 rhs, b;
    fp2_sqr(&rhs, &t.x);
    fp2_mul(&rhs, &rhs, &t.x);
    fp_from_u64(&b.c0, 4);
    b.c1 = b.c0;
    fp2_add(&rhs, &rhs, &b);
    if (!fp2_sqrt(&t.y, &rhs)) return EC_DECODE_NOT_ON_CURVE;
    if (fp2_is_lexicographically_largest(&t.y) != sort) fp2_neg(&t.y, &t.y);
    *r = t;
    return EC_DECODE_OK;
}

ec_decode_result g2_affine_from_uncompressed(g2_affine *r, const uint8_t in[192]) {
    bool inf, sort;
    ec_decode_result e = check_flags(&inf, &sort, in, 192, false);
    if (e != EC_DECODE_OK) return e;
    if (inf) { g2_affine_set_infinity(r); return EC_DECODE_OK; }
    g2_affine t;
    if (!fp2_read_be(&t.x, in, true) || !fp2_read_be(&t.y, in + 96, false)) return EC_DECODE_NOT_CANONICAL;
    if (g2_affine_is_infinity(&t) || !g2_affine_is_on_curve(&t)) return EC_DECODE_NOT_ON_CURVE;
    *r = t;
    return EC_DECODE_OK;
}
