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

/* ---- the witness-only path ----------------------------------------------------------------
 * A builder without linear combinations (no CS_MATRICES / CS_DENSITY) only counts constraints
 * and stores values, so the compression runs on lean copies of the Boolean / UInt32 / MultiEq
 * gadgets (boolean.c): the same constant folding, the same allocations in the same order with
 * the same values, the same constraint count, and no call into the builder per bit except when an
 * allocation leaves the fast case (a grown array, a slice's end, a failed builder). The Booleans
 * returned are those of the generic path (kinds, values, variables). Tested against the generic
 * path bit for bit (porep_circuit suite, sha256_witness_path_equals_generic). */

/* one allocated variable with value v and `rows` constraints counted with it (one for every
 * allocation here except maj's result, whose row is counted after b AND c) */
static inline cs_var wo_alloc(cs *cs, bool v, int rows) {
    uint64_t idx = cs->n_aux;
    if (cs->status != CUZK_OK || idx >= CS_MAX_VARS || ((cs->flags & CS_WITNESS) && idx >= cs->aux_end)) {
        fr x;
        if (v) fr_one(&x); else fr_zero(&x);
        cs_var r = cs_alloc(cs, &x);   /* grows, or fails the builder */
        if (cs->status == CUZK_OK) cs->n_constraints += (uint64_t)rows;
        return r;
    }
    if (cs->flags & CS_WITNESS) {
        fr *d = &cs->aux_w[idx - cs->aux_first];
        if (v) *d = cs->one; else fr_zero(d);
    }
    cs->n_aux = idx + 1;
    cs->n_constraints += (uint64_t)rows;
    return CS_AUX | (cs_var)idx;
}
static inline cs_bool wo_new(cs *cs, uint8_t kind, bool value, int rows) {
    cs_bool r = {kind, value, wo_alloc(cs, kind == BOOL_NOT ? !value : value, rows)};
    return r;
}
static inline bool wo_isc(cs_bool b, bool v) { return b.kind == BOOL_CONST && b.value == v; }

static inline cs_bool wo_xor(cs *cs, cs_bool a, cs_bool b) {
    if (a.kind == BOOL_CONST) return a.value ? bool_not(b) : b;
    if (b.kind == BOOL_CONST) return b.value ? bool_not(a) : a;
    /* kinds differ: NOT(xor of the variables); alike: xor of the variables */
    return wo_new(cs, a.kind != b.kind ? BOOL_NOT : BOOL_IS, a.value ^ b.value, 1);
}
static inline cs_bool wo_and(cs *cs, cs_bool a, cs_bool b) {
    if (wo_isc(a, false) || wo_isc(b, false)) return bool_const(false);
    if (wo_isc(a, true)) return b;
    if (wo_isc(b, true)) return a;
    return wo_new(cs, BOOL_IS, a.value & b.value, 1);   /* and, and_not or nor: the AND of the Booleans */
}
static inline cs_bool wo_ch(cs *cs, cs_bool a, cs_bool b, cs_bool c) {
    bool v = (a.value & b.value) ^ (!a.value & c.value);
    if (a.kind == BOOL_CONST && b.kind == BOOL_CONST && c.kind == BOOL_CONST) return bool_const(v);
    if (wo_isc(a, false)) return c;
    if (wo_isc(b, false)) return wo_and(cs, bool_not(a), c);
    if (wo_isc(c, false)) return wo_and(cs, a, b);
    if (wo_isc(c, true)) return bool_not(wo_and(cs, a, bool_not(b)));
    if (wo_isc(b, true)) return bool_not(wo_and(cs, bool_not(a), bool_not(c)));
    return wo_new(cs, BOOL_IS, v, 1);
}
static inline cs_bool wo_maj(cs *cs, cs_bool a, cs_bool b, cs_bool c) {
    bool v = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    if (a.kind == BOOL_CONST && b.kind == BOOL_CONST && c.kind == BOOL_CONST) return bool_const(v);
    if (wo_isc(a, false)) return wo_and(cs, b, c);
    if (wo_isc(b, false)) return wo_and(cs, a, c);
    if (wo_isc(c, false)) return wo_and(cs, a, b);
    if (wo_isc(c, true)) return bool_not(wo_and(cs, bool_not(a), bool_not(b)));
    if (wo_isc(b, true)) return bool_not(wo_and(cs, bool_not(a), bool_not(c)));
    if (wo_isc(a, true)) return bool_not(wo_and(cs, bool_not(b), bool_not(c)));
    cs_bool r = wo_new(cs, BOOL_IS, v, 0);
    wo_and(cs, b, c);
    if (cs->status == CUZK_OK) cs->n_constraints++;   /* the maj row */
    return r;
}
/* MultiEq: only its rows are counted here */
static inline void wo_multieq(cs *cs, uint32_t *bits_used, uint32_t n) {
    if (254 <= *bits_used + n) {
        if (cs->status == CUZK_OK) cs->n_constraints++;
        *bits_used = 0;
    }
    *bits_used += n;
}
static cs_u32 wo_addmany(cs *cs, uint32_t *me_bits, const cs_u32 *ops, size_t n_ops) {
    uint64_t max_value = (uint64_t)n_ops * 0xffffffffull, sum = 0;
    bool all_const = true;
    for (size_t k = 0; k < n_ops; k++) {
        sum += ops[k].value;
        for (int i = 0; i < 32 && all_const; i++) all_const = ops[k].bits[i].kind == BOOL_CONST;
    }
    if (all_const) return u32_constant((uint32_t)sum);
    cs_u32 r;
    uint32_t n = 0;
    for (; max_value; max_value >>= 1, n++) {
        cs_bool b = wo_new(cs, BOOL_IS, (sum >> n) & 1, 1);
        if (n < 32) r.bits[n] = b;
    }
    wo_multieq(cs, me_bits, n);
    r.value = (uint32_t)sum;
    return r;
}
/* rotr r1 ^ rotr r2 ^ (shr or rotr) r3: the first xor over all 32 bits, then the second, as
 * u32_xor does them; the rotations read in place */
static inline cs_u32 wo_sigma(cs *cs, const cs_u32 *x, unsigned r1, unsigned r2, unsigned r3, bool shift3) {
    cs_u32 t;
    for (unsigned i = 0; i < 32; i++) t.bits[i] = wo_xor(cs, x->bits[(i + r1) & 31], x->bits[(i + r2) & 31]);
    for (unsigned i = 0; i < 32; i++) {
        cs_bool c = shift3 ? (i + r3 < 32 ? x->bits[i + r3] : bool_const(false)) : x->bits[(i + r3) & 31];
        t.bits[i] = wo_xor(cs, t.bits[i], c);
    }
    uint32_t v = x->value;
    t.value = ((v >> r1) | (v << (32 - r1))) ^ ((v >> r2) | (v << (32 - r2))) ^ (shift3 ? v >> r3 : (v >> r3) | (v << (32 - r3)));
    return t;
}

/* bellpepper's sha256_compression_function on the lean gadgets (the order of the generic one
 * below: the schedule, 64 rounds with deferred sums, the final additions); out may alias cur */
static void compress_wo(cs *cs, cs_u32 out[8], const cs_bool *block, const cs_u32 cur[8]) {
    cs_u32 w[64];
    uint32_t me = 0;
    for (int i = 0; i < 16; i++) w[i] = u32_from_bits_be(block + 32 * i);
    for (int i = 16; i < 64; i++) {
        cs_u32 ops[4];
        ops[0] = w[i - 16];
        ops[1] = wo_sigma(cs, &w[i - 15], 7, 18, 3, true);
        ops[2] = w[i - 7];
        ops[3] = wo_sigma(cs, &w[i - 2], 17, 19, 10, true);
        w[i] = wo_addmany(cs, &me, ops, 4);
    }
    /* a and e: the state word, or (n > 0) the deferred sum of ops[0..n) */
    cs_u32 a_ops[10], e_ops[10];
    size_t a_n = 0, e_n = 0;
    cs_u32 a0 = cur[0], e0 = cur[4];
    cs_u32 b = cur[1], c = cur[2], d = cur[3], f = cur[5], g = cur[6], h = cur[7];
    for (int i = 0; i < 64; i++) {
        cs_u32 new_e = e_n ? wo_addmany(cs, &me, e_ops, e_n) : e0;
        cs_u32 s1 = wo_sigma(cs, &new_e, 6, 11, 25, false), ch;
        for (int k = 0; k < 32; k++) ch.bits[k] = wo_ch(cs, new_e.bits[k], f.bits[k], g.bits[k]);
        ch.value = (new_e.value & f.value) ^ (~new_e.value & g.value);
        cs_u32 new_a = a_n ? wo_addmany(cs, &me, a_ops, a_n) : a0;
        cs_u32 s0 = wo_sigma(cs, &new_a, 2, 13, 22, false), maj;
        for (int k = 0; k < 32; k++) maj.bits[k] = wo_maj(cs, new_a.bits[k], b.bits[k], c.bits[k]);
        maj.value = (new_a.value & b.value) ^ (new_a.value & c.value) ^ (b.value & c.value);
        /* temp1 = h + S1 + ch + K[i] + w[i]; e' = temp1 + d; a' = temp1 + S0 + maj (deferred) */
        e_ops[0] = a_ops[0] = h;
        e_ops[1] = a_ops[1] = s1;
        e_ops[2] = a_ops[2] = ch;
        e_ops[3] = a_ops[3] = u32_constant(K256[i]);
        e_ops[4] = a_ops[4] = w[i];
        e_ops[5] = d;
        a_ops[5] = s0;
        a_ops[6] = maj;
        e_n = 6;
        a_n = 7;
        h = g; g = f; f = new_e;
        d = c; c = b; b = new_a;
    }
    cs_u32 o[8], pair[2];
    a_ops[a_n++] = cur[0];
    o[0] = wo_addmany(cs, &me, a_ops, a_n);
    pair[0] = cur[1]; pair[1] = b; o[1] = wo_addmany(cs, &me, pair, 2);
    pair[0] = cur[2]; pair[1] = c; o[2] = wo_addmany(cs, &me, pair, 2);
    pair[0] = cur[3]; pair[1] = d; o[3] = wo_addmany(cs, &me, pair, 2);
    e_ops[e_n++] = cur[4];
    o[4] = wo_addmany(cs, &me, e_ops, e_n);
    pair[0] = cur[5]; pair[1] = f; o[5] = wo_addmany(cs, &me, pair, 2);
    pair[0] = cur[6]; pair[1] = g; o[6] = wo_addmany(cs, &me, pair, 2);
    pair[0] = cur[7]; pair[1] = h; o[7] = wo_addmany(cs, &me, pair, 2);
    if (me > 0 && cs->status == CUZK_OK) cs->n_constraints++;   /* MultiEq's last row */
    for (int k = 0; k < 8; k++) out[k] = o[k];
}

void sha256_compress_gadget(cs *cs, cs_u32 out[8], const cs_bool *block, const cs_u32 cur[8]) {
    if (!cs->lc_on) { compress_wo(cs, out, block, cur); return; }
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
