/* AllocatedNum, packing and insertion gadgets (num.h). */
#include "gadgets/num.h"

cs_num num_alloc(cs *cs, const fr *value) {
    cs_num r = {cs_alloc(cs, value), *value};
    return r;
}

cs_num num_inputize(cs *cs, const cs_num *v) {
    cs_num x = {cs_alloc_input(cs, &v->value), v->value};
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    cs_lc_add(cs, A, x.var, NULL);
    cs_lc_add(cs, B, CS_ONE, NULL);
    cs_lc_add(cs, C, v->var, NULL);
    cs_enforce(cs, A, B, C);
    return x;
}

void num_enforce_equal(cs *cs, const cs_num *a, const cs_num *b) {
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    cs_lc_add(cs, A, a->var, NULL);
    cs_lc_add(cs, B, CS_ONE, NULL);
    cs_lc_add(cs, C, b->var, NULL);
    cs_enforce(cs, A, B, C);
}

cs_num num_add(cs *cs, const cs_num *a, const cs_num *b) {
    fr v;
    fr_add(&v, &a->value, &b->value);
    cs_num r = num_alloc(cs, &v);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    cs_lc_add(cs, A, a->var, NULL);
    cs_lc_add(cs, A, b->var, NULL);
    cs_lc_add(cs, B, CS_ONE, NULL);
    cs_lc_add(cs, C, r.var, NULL);
    cs_enforce(cs, A, B, C);
    return r;
}

cs_num num_mul(cs *cs, const cs_num *a, const cs_num *b) {
    fr v;
    fr_mul(&v, &a->value, &b->value);
    cs_num r = num_alloc(cs, &v);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    cs_lc_add(cs, A, a->var, NULL);
    cs_lc_add(cs, B, b->var, NULL);
    cs_lc_add(cs, C, r.var, NULL);
    cs_enforce(cs, A, B, C);
    return r;
}

cs_num num_square(cs *cs, const cs_num *a) { return num_mul(cs, a, a); }

void num_to_bits_le(cs *cs, cs_bool out[255], const cs_num *x) {
    uint64_t c[4];
    fr_to_canon(c, &x->value);
    for (int i = 0; i < 255; i++) out[i] = bool_alloc(cs, (c[i / 64] >> (i % 64)) & 1);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    for (int i = 0; i < 255; i++) cs_lc_add(cs, C, out[i].var, &cs->pow2[i]);
    cs_lc_sub(cs, C, x->var);
    cs_enforce(cs, A, B, C);
}

void pack_into_inputs(cs *cs, const cs_bool *bits, size_t n_bits) {
    for (size_t off = 0; off < n_bits; off += 254) {
        size_t n = n_bits - off < 254 ? n_bits - off : 254;
        fr v;
        fr_zero(&v);
        for (size_t i = 0; i < n; i++)
            if (bits[off + i].value) fr_add(&v, &v, &cs->pow2[i]);
        cs_var in = cs_alloc_input(cs, &v);
        cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
        for (size_t i = 0; i < n; i++) bool_lc_add(cs, A, bits[off + i], &cs->pow2[i]);
        cs_lc_add(cs, B, CS_ONE, NULL);
        cs_lc_add(cs, C, in, NULL);
        cs_enforce(cs, A, B, C);
    }
}

cs_num num_pick(cs *cs, cs_bool cond, const cs_num *a, const cs_num *b) {
    cs_num r = num_alloc(cs, cond.value ? &a->value : &b->value);
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    cs_lc_add(cs, A, b->var, NULL);
    cs_lc_sub(cs, A, a->var);
    bool_lc_add(cs, B, cond, NULL);
    cs_lc_add(cs, C, b->var, NULL);
    cs_lc_sub(cs, C, r.var);
    cs_enforce(cs, A, B, C);
    return r;
}

void num_insert(cs *cs, cs_num *out, const cs_num *element, const cs_bool *bits, const cs_num *el, int arity) {
    const cs_num *a = element;
    if (arity == 2) {
        out[0] = num_pick(cs, bits[0], &el[0], a);
        out[1] = num_pick(cs, bits[0], a, &el[0]);
        return;
    }
    if (arity == 4) {
        cs_bool b0 = bits[0], b1 = bits[1];
        const cs_num *b = &el[0], *c = &el[1], *d = &el[2];
        cs_num p0_x0 = num_pick(cs, b0, b, a);
        out[0] = num_pick(cs, b1, b, &p0_x0);
        cs_num p1_x0 = num_pick(cs, b0, a, b);
        out[1] = num_pick(cs, b1, c, &p1_x0);
        cs_num p2_x1 = num_pick(cs, b0, d, a);
        out[2] = num_pick(cs, b1, &p2_x1, c);
        cs_num p3_x1 = num_pick(cs, b0, a, d);
        out[3] = num_pick(cs, b1, &p3_x1, d);
        return;
    }
    if (arity != 8 || bits[0].kind != BOOL_IS || bits[1].kind != BOOL_IS) {
        cs_fail(cs, CUZK_ERR_UNSUPPORTED, "insert: arity %d (2, 4 or 8 with allocated bits only)", arity);
        return;
    }
    cs_bool b0 = bits[0], b1 = bits[1], b2 = bits[2];
    const cs_num *b = &el[0], *c = &el[1], *d = &el[2], *e = &el[3], *f = &el[4], *g = &el[5], *h = &el[6];
    cs_bool nor = bit_nor(cs, b0.var, b0.value, b1.var, b1.value);
    cs_bool and = bit_and(cs, b0.var, b0.value, b1.var, b1.value);
    cs_num t0 = num_pick(cs, nor, a, b);
    out[0] = num_pick(cs, b2, b, &t0);
    cs_num t1 = num_pick(cs, b0, a, b);
    cs_num t2 = num_pick(cs, b1, c, &t1);
    out[1] = num_pick(cs, b2, c, &t2);
    cs_num t3 = num_pick(cs, b0, d, a);
    cs_num t4 = num_pick(cs, b1, &t3, c);
    out[2] = num_pick(cs, b2, d, &t4);
    cs_num t5 = num_pick(cs, and, a, d);
    out[3] = num_pick(cs, b2, e, &t5);
    cs_num t6 = num_pick(cs, nor, a, f);
    out[4] = num_pick(cs, b2, &t6, e);
    cs_num t7 = num_pick(cs, b0, a, f);
    cs_num t8 = num_pick(cs, b1, g, &t7);
    out[5] = num_pick(cs, b2, &t8, f);
    cs_num t9 = num_pick(cs, b0, h, a);
    cs_num t10 = num_pick(cs, b1, &t9, g);
    out[6] = num_pick(cs, b2, &t10, g);
    cs_num t11 = num_pick(cs, and, a, h);
    out[7] = num_pick(cs, b2, &t11, h);
}
