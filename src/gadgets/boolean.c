/* Boolean, UInt32 and MultiEq gadgets (boolean.h). */
#include "gadgets/boolean.h"

#include <assert.h>

static void frbit(fr *r, bool v) { if (v) fr_one(r); else fr_zero(r); }

void bool_lc_add(cs *cs, cs_lc *lc, cs_bool b, const fr *coef) {
    if (!cs->lc_on) return;
    const fr *c = coef ? coef : &cs->one;
    switch (b.kind) {
    case BOOL_CONST:
        if (b.value) cs_lc_add(cs, lc, CS_ONE, c);
        break;
    case BOOL_IS:
        cs_lc_add(cs, lc, b.var, c);
        break;
    default: {
        fr n;
        fr_neg(&n, c);
        cs_lc_add(cs, lc, CS_ONE, c);
        cs_lc_add(cs, lc, b.var, &n);
    }
    }
}

static cs_bool alloc_raw(cs *cs, bool v) {
    fr x;
    frbit(&x, v);
    cs_bool r = {BOOL_IS, v, cs_alloc(cs, &x)};
    return r;
}

cs_bool bool_alloc(cs *cs, bool value) {
    cs_bool r = alloc_raw(cs, value);
    cs_lc *a = cs_tmp(cs, 0), *b = cs_tmp(cs, 1), *c = cs_tmp(cs, 2);
    cs_lc_add(cs, a, CS_ONE, NULL);
    cs_lc_sub(cs, a, r.var);
    cs_lc_add(cs, b, r.var, NULL);
    cs_enforce(cs, a, b, c);
    return r;
}

cs_bool bit_xor(cs *cs, cs_var a, bool av, cs_var b, bool bv) {
    cs_bool r = alloc_raw(cs, av ^ bv);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    cs_lc_add(cs, A, a, NULL);
    cs_lc_add(cs, A, a, NULL);
    cs_lc_add(cs, B, b, NULL);
    cs_lc_add(cs, C, a, NULL);
    cs_lc_add(cs, C, b, NULL);
    cs_lc_sub(cs, C, r.var);
    cs_enforce(cs, A, B, C);
    return r;
}

cs_bool bit_and(cs *cs, cs_var a, bool av, cs_var b, bool bv) {
    cs_bool r = alloc_raw(cs, av & bv);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    cs_lc_add(cs, A, a, NULL);
    cs_lc_add(cs, B, b, NULL);
    cs_lc_add(cs, C, r.var, NULL);
    cs_enforce(cs, A, B, C);
    return r;
}

cs_bool bit_and_not(cs *cs, cs_var a, bool av, cs_var b, bool bv) {
    cs_bool r = alloc_raw(cs, av & !bv);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    cs_lc_add(cs, A, a, NULL);
    cs_lc_add(cs, B, CS_ONE, NULL);
    cs_lc_sub(cs, B, b);
    cs_lc_add(cs, C, r.var, NULL);
    cs_enforce(cs, A, B, C);
    return r;
}

cs_bool bit_nor(cs *cs, cs_var a, bool av, cs_var b, bool bv) {
    cs_bool r = alloc_raw(cs, !av & !bv);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    cs_lc_add(cs, A, CS_ONE, NULL);
    cs_lc_sub(cs, A, a);
    cs_lc_add(cs, B, CS_ONE, NULL);
    cs_lc_sub(cs, B, b);
    cs_lc_add(cs, C, r.var, NULL);
    cs_enforce(cs, A, B, C);
    return r;
}

/* the value of an allocated Boolean's variable */
static bool varval(cs_bool b) { return b.kind == BOOL_NOT ? !b.value : b.value; }
static bool is_c(cs_bool b, bool v) { return b.kind == BOOL_CONST && b.value == v; }

cs_bool bool_xor(cs *cs, cs_bool a, cs_bool b) {
    if (is_c(a, false)) return b;
    if (is_c(b, false)) return a;
    if (is_c(a, true)) return bool_not(b);
    if (is_c(b, true)) return bool_not(a);
    if (a.kind != b.kind) {
        cs_bool is = a.kind == BOOL_IS ? a : b, nt = a.kind == BOOL_IS ? b : a;
        return bool_not(bit_xor(cs, is.var, varval(is), nt.var, varval(nt)));
    }
    return bit_xor(cs, a.var, varval(a), b.var, varval(b));
}

cs_bool bool_and(cs *cs, cs_bool a, cs_bool b) {
    if (is_c(a, false) || is_c(b, false)) return bool_const(false);
    if (is_c(a, true)) return b;
    if (is_c(b, true)) return a;
    if (a.kind != b.kind) {
        cs_bool is = a.kind == BOOL_IS ? a : b, nt = a.kind == BOOL_IS ? b : a;
        return bit_and_not(cs, is.var, varval(is), nt.var, varval(nt));
    }
    if (a.kind == BOOL_NOT) return bit_nor(cs, a.var, varval(a), b.var, varval(b));
    return bit_and(cs, a.var, varval(a), b.var, varval(b));
}

cs_bool bool_sha256_ch(cs *cs, cs_bool a, cs_bool b, cs_bool c) {
    bool v = (a.value & b.value) ^ (!a.value & c.value);
    if (a.kind == BOOL_CONST && b.kind == BOOL_CONST && c.kind == BOOL_CONST) return bool_const(v);
    if (is_c(a, false)) return c;
    if (is_c(b, false)) return bool_and(cs, bool_not(a), c);
    if (is_c(c, false)) return bool_and(cs, a, b);
    if (is_c(c, true)) return bool_not(bool_and(cs, a, bool_not(b)));
    if (is_c(b, true)) return bool_not(bool_and(cs, bool_not(a), bool_not(c)));
    cs_bool r = alloc_raw(cs, v);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    bool_lc_add(cs, A, b, NULL);
    bool_lc_add(cs, A, c, &cs->neg_one);
    bool_lc_add(cs, B, a, NULL);
    cs_lc_add(cs, C, r.var, NULL);
    bool_lc_add(cs, C, c, &cs->neg_one);
    cs_enforce(cs, A, B, C);
    return r;
}

cs_bool bool_sha256_maj(cs *cs, cs_bool a, cs_bool b, cs_bool c) {
    bool v = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    if (a.kind == BOOL_CONST && b.kind == BOOL_CONST && c.kind == BOOL_CONST) return bool_const(v);
    if (is_c(a, false)) return bool_and(cs, b, c);
    if (is_c(b, false)) return bool_and(cs, a, c);
    if (is_c(c, false)) return bool_and(cs, a, b);
    if (is_c(c, true)) return bool_not(bool_and(cs, bool_not(a), bool_not(b)));
    if (is_c(b, true)) return bool_not(bool_and(cs, bool_not(a), bool_not(c)));
    if (is_c(a, true)) return bool_not(bool_and(cs, bool_not(b), bool_not(c)));
    cs_bool r = alloc_raw(cs, v);
    cs_bool bc = bool_and(cs, b, c);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    bool_lc_add(cs, A, bc, &cs->two);
    bool_lc_add(cs, A, b, &cs->neg_one);
    bool_lc_add(cs, A, c, &cs->neg_one);
    bool_lc_add(cs, B, a, NULL);
    bool_lc_add(cs, C, bc, NULL);
    cs_lc_sub(cs, C, r.var);
    cs_enforce(cs, A, B, C);
    return r;
}

/* ---- MultiEq ---- */
void multieq_init(cs_multieq *me) { memset(me, 0, sizeof *me); }

static void multieq_accumulate(cs *cs, cs_multieq *me) {
    cs_lc *B = cs_tmp(cs, 3);
    cs_lc_add(cs, B, CS_ONE, NULL);
    cs_enforce(cs, &me->lhs, B, &me->rhs);
    me->lhs.n = me->rhs.n = 0;
    me->bits_used = 0;
}

void multieq_enforce_equal(cs *cs, cs_multieq *me, uint32_t num_bits, const cs_lc *lhs, const cs_lc *rhs) {
    if (254 <= me->bits_used + num_bits) multieq_accumulate(cs, me);
    const fr *coeff = &cs->pow2[me->bits_used];
    cs_lc_add_lc(cs, &me->lhs, lhs, coeff);
    cs_lc_add_lc(cs, &me->rhs, rhs, coeff);
    me->bits_used += num_bits;
}

void multieq_finish(cs *cs, cs_multieq *me) {
    if (me->bits_used > 0) multieq_accumulate(cs, me);
    cs_lc_free(&me->lhs);
    cs_lc_free(&me->rhs);
}

/* ---- UInt32 ---- */
cs_u32 u32_constant(uint32_t v) {
    cs_u32 u;
    for (int i = 0; i < 32; i++) u.bits[i] = bool_const((v >> i) & 1);
    u.value = v;
    return u;
}

cs_u32 u32_from_bits_be(const cs_bool *bits) {
    cs_u32 u;
    u.value = 0;
    for (int i = 0; i < 32; i++) {
        u.bits[i] = bits[31 - i];
        u.value |= (uint32_t)u.bits[i].value << i;
    }
    return u;
}

void u32_to_bits_be(cs_bool *out, const cs_u32 *u) {
    for (int i = 0; i < 32; i++) out[i] = u->bits[31 - i];
}

cs_u32 u32_rotr(const cs_u32 *u, unsigned by) {
    cs_u32 r;
    by %= 32;
    for (unsigned i = 0; i < 32; i++) r.bits[i] = u->bits[(i + by) % 32];
    r.value = by ? (u->value >> by) | (u->value << (32 - by)) : u->value;
    return r;
}

cs_u32 u32_shr(const cs_u32 *u, unsigned by) {
    cs_u32 r;
    by %= 32;
    for (unsigned i = 0; i < 32; i++) r.bits[i] = i + by < 32 ? u->bits[i + by] : bool_const(false);
    r.value = u->value >> by;
    return r;
}

cs_u32 u32_xor(cs *cs, const cs_u32 *a, const cs_u32 *b) {
    cs_u32 r;
    for (int i = 0; i < 32; i++) r.bits[i] = bool_xor(cs, a->bits[i], b->bits[i]);
    r.value = a->value ^ b->value;
    return r;
}

cs_u32 u32_sha256_ch(cs *cs, const cs_u32 *a, const cs_u32 *b, const cs_u32 *c) {
    cs_u32 r;
    for (int i = 0; i < 32; i++) r.bits[i] = bool_sha256_ch(cs, a->bits[i], b->bits[i], c->bits[i]);
    r.value = (a->value & b->value) ^ (~a->value & c->value);
    return r;
}

cs_u32 u32_sha256_maj(cs *cs, const cs_u32 *a, const cs_u32 *b, const cs_u32 *c) {
    cs_u32 r;
    for (int i = 0; i < 32; i++) r.bits[i] = bool_sha256_maj(cs, a->bits[i], b->bits[i], c->bits[i]);
    r.value = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
    return r;
}

cs_u32 u32_addmany(cs *cs, cs_multieq *me, const cs_u32 *ops, size_t n_ops) {
    assert(n_ops >= 2 && n_ops <= 10);
    uint64_t max_value = (uint64_t)n_ops * 0xffffffffull, sum = 0;
    bool all_const = true;
    cs_lc *lc = cs_tmp(cs, 0), *res = cs_tmp(cs, 1);
    for (size_t k = 0; k < n_ops; k++) {
        sum += ops[k].value;
        for (int i = 0; i < 32; i++) {
            bool_lc_add(cs, lc, ops[k].bits[i], &cs->pow2[i]);
            all_const &= ops[k].bits[i].kind == BOOL_CONST;
        }
    }
    if (all_const) return u32_constant((uint32_t)sum);
    cs_u32 r;
    uint32_t n = 0;
    while (max_value) {
        /* alloc through bool_alloc, which uses tmp 0..2: keep lc in tmp 0 safe by recording
         * the result bits first and building the result LC afterwards */
        cs_bool b;
        {
            fr x;
            frbit(&x, (sum >> n) & 1);
            b.kind = BOOL_IS;
            b.value = (sum >> n) & 1;
            b.var = cs_alloc(cs, &x);
            cs_lc *A = cs_tmp(cs, 2), *B = cs_tmp(cs, 3), Z = {0};
            cs_lc_add(cs, A, CS_ONE, NULL);
            cs_lc_sub(cs, A, b.var);
            cs_lc_add(cs, B, b.var, NULL);
            cs_enforce(cs, A, B, &Z);
        }
        cs_lc_add(cs, res, b.var, &cs->pow2[n]);
        if (n < 32) r.bits[n] = b;
        max_value >>= 1;
        n++;
    }
    multieq_enforce_equal(cs, me, n, lc, res);
    r.value = (uint32_t)sum;
    return r;
}
