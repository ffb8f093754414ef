/* SHA-256 gadgets (sha256.h). */
#include "gadgets/sha256.h"

#include <stdlib.h>

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
static const uint32_t IV256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

/* bellpepper's Maybe: a concrete word or a deferred sum of up to 10 operands */
typedef struct { bool deferred; cs_u32 ops[10]; size_t n; } maybe_u32;

static cs_u32 maybe_compute(cs *cs, cs_multieq *me, maybe_u32 *m, const cs_u32 *other) {
    if (!m->deferred) return m->ops[0];
    if (other) m->ops[m->n++] = *other;
    return u32_addmany(cs, me, m->ops, m->n);
}

void sha256_compress_gadget(cs *cs, cs_u32 out[8], const cs_bool *block, const cs_u32 cur[8]) {
    cs_u32 *w = malloc(64 * sizeof *w);
    maybe_u32 *ma = malloc(sizeof *ma), *me_ = malloc(sizeof *me_);
    if (!w || !ma || !me_) {
        cs_fail(cs, CUZK_ERR_NOMEM, "sha256: out of memory");
        free(w); free(ma); free(me_);
        return;
    }
    cs_multieq me;
    multieq_init(&me);
    for (int i = 0; i < 16; i++) w[i] = u32_from_bits_be(block + 32 * i);
    for (int i = 16; i < 64; i++) {
        cs_u32 r1 = u32_rotr(&w[i - 15], 7), r2 = u32_rotr(&w[i - 15], 18), r3 = u32_shr(&w[i - 15], 3);
        cs_u32 s0 = u32_xor(cs, &r1, &r2);
        s0 = u32_xor(cs, &s0, &r3);
        r1 = u32_rotr(&w[i - 2], 17); r2 = u32_rotr(&w[i - 2], 19); r3 = u32_shr(&w[i - 2], 10);
        cs_u32 s1 = u32_xor(cs, &r1, &r2);
        s1 = u32_xor(cs, &s1, &r3);
        cs_u32 ops[4] = {w[i - 16], s0, w[i - 7], s1};
        w[i] = u32_addmany(cs, &me, ops, 4);
    }
    ma->deferred = false; ma->ops[0] = cur[0]; ma->n = 1;
    me_->deferred = false; me_->ops[0] = cur[4]; me_->n = 1;
    cs_u32 b = cur[1], c = cur[2], d = cur[3], f = cur[5], g = cur[6], h = cur[7];
    for (int i = 0; i < 64; i++) {
        cs_u32 new_e = maybe_compute(cs, &me, me_, NULL);
        cs_u32 r1 = u32_rotr(&new_e, 6), r2 = u32_rotr(&new_e, 11), r3 = u32_rotr(&new_e, 25);
        cs_u32 s1 = u32_xor(cs, &r1, &r2);
        s1 = u32_xor(cs, &s1, &r3);
        cs_u32 ch = u32_sha256_ch(cs, &new_e, &f, &g);
        cs_u32 temp1[5] = {h, s1, ch, u32_constant(K256[i]), w[i]};
        cs_u32 new_a = maybe_compute(cs, &me, ma, NULL);
        r1 = u32_rotr(&new_a, 2); r2 = u32_rotr(&new_a, 13); r3 = u32_rotr(&new_a, 22);
        cs_u32 s0 = u32_xor(cs, &r1, &r2);
        s0 = u32_xor(cs, &s0, &r3);
        cs_u32 maj = u32_sha256_maj(cs, &new_a, &b, &c);
        h = g; g = f; f = new_e;
        me_->deferred = true; me_->n = 0;
        for (int k = 0; k < 5; k++) me_->ops[me_->n++] = temp1[k];
        me_->ops[me_->n++] = d;
        d = c; c = b; b = new_a;
        ma->deferred = true; ma->n = 0;
        for (int k = 0; k < 5; k++) ma->ops[ma->n++] = temp1[k];
        ma->ops[ma->n++] = s0;
        ma->ops[ma->n++] = maj;
    }
    cs_u32 cur_copy[8];
    for (int k = 0; k < 8; k++) cur_copy[k] = cur[k];
    cs_u32 o[8], pair[2];
    o[0] = maybe_compute(cs, &me, ma, &cur_copy[0]);
    pair[0] = cur_copy[1]; pair[1] = b; o[1] = u32_addmany(cs, &me, pair, 2);
    pair[0] = cur_copy[2]; pair[1] = c; o[2] = u32_addmany(cs, &me, pair, 2);
    pair[0] = cur_copy[3]; pair[1] = d; o[3] = u32_addmany(cs, &me, pair, 2);
    o[4] = maybe_compute(cs, &me, me_, &cur_copy[4]);
    pair[0] = cur_copy[5]; pair[1] = f; o[5] = u32_addmany(cs, &me, pair, 2);
    pair[0] = cur_copy[6]; pair[1] = g; o[6] = u32_addmany(cs, &me, pair, 2);
    pair[0] = cur_copy[7]; pair[1] = h; o[7] = u32_addmany(cs, &me, pair, 2);
    multieq_finish(cs, &me);
    for (int k = 0; k < 8; k++) out[k] = o[k];
    free(w); free(ma); free(me_);
}

void sha256_gadget(cs *cs, cs_bool out[256], const cs_bool *in, size_t n_bits) {
    size_t padded = ((n_bits + 1 + 64 + 511) / 512) * 512;
    cs_bool *p = malloc(padded * sizeof *p);
    if (!p) { cs_fail(cs, CUZK_ERR_NOMEM, "sha256: out of memory"); return; }
    for (size_t i = 0; i < n_bits; i++) p[i] = in[i];
    p[n_bits] = bool_const(true);
    for (size_t i = n_bits + 1; i < padded - 64; i++) p[i] = bool_const(false);
    uint64_t len = n_bits;
    for (int i = 0; i < 64; i++) p[padded - 64 + i] = bool_const((len >> (63 - i)) & 1);
    cs_u32 cur[8];
    for (int k = 0; k < 8; k++) cur[k] = u32_constant(IV256[k]);
    for (size_t blk = 0; blk < padded; blk += 512) sha256_compress_gadget(cs, cur, p + blk, cur);
    for (int k = 0; k < 8; k++) u32_to_bits_be(out + 32 * k, &cur[k]);
    free(p);
}
