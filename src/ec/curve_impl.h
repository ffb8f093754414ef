/* Generic short-Weierstrass group law (a = 0) for src/ec/ec.h: one implementation, included once
 * per group (X-include). The including .c file defines, before #include:
 *
 *   EC_G   the group prefix (g1, g2): defines EC_G##_affine_eq, EC_G##_jacobian_add, ...
 *   EC_F   the coordinate field prefix (fp, fp2); the template uses EC_F##_{zero, one, is_zero,
 *          eq, add, sub, dbl, neg, mul, sqr, inv}, which every field in src/ff has with the
 *          same signatures.
 *   EC_FR  the scalar field prefix (fr, bn254_fr): EC_G##_mul_fr_vartime and
 *          EC_G##_mul_fr_consttime (src/ec/mul_ct_impl.h, included at the end) take an EC_FR.
 *   and a function `static void EC_G##_curve_b(EC_F *b)` writing b of y^2 = x^3 + b (Montgomery).
 *
 * It defines every function of EC_DECLARE in ec.h except EC_G##_generator and
 * EC_G##_affine_is_in_subgroup (curve-specific, in g1.c / g2.c).
 *
 * Formulas (Explicit-Formulas Database, https://hyperelliptic.org/EFD/g1p/auto-shortw.html):
 *   jacobian:  dbl-2009-l, add-2007-bl, madd-2007-bl
 *   xyzz:      dbl-2008-s-1, mdbl-2008-s-1, add-2008-s, madd-2008-s
 * The EFD formulas are incomplete; each function handles by case analysis: either input at
 * infinity, P + P (falls through to doubling) and P + (-P) (gives infinity), so all of them are
 * complete but variable time. Thread-safety: pure functions. All outputs may alias inputs.
 */
#if !defined(EC_G) || !defined(EC_F) || !defined(EC_FR)
#error "define EC_G, EC_F and EC_FR before including ec/curve_impl.h"
#endif

#define ECI_CAT2_(a, b) a##b
#define ECI_CAT2(a, b) ECI_CAT2_(a, b)
#define ECG(suffix) ECI_CAT2(EC_G, suffix) /* ECG(_affine) -> g1_affine */
#define ECF(suffix) ECI_CAT2(EC_F, suffix) /* ECF(_mul) -> fp_mul */

#define ECI_F EC_F
#define ECI_AFF ECG(_affine)
#define ECI_JAC ECG(_jacobian)
#define ECI_XYZZ ECG(_xyzz)

/* Out-of-line field operations. src/ff inlines (always_inline, fully unrolled) every field op;
 * the ~300 call sites below would otherwise each get a full Montgomery multiplication, which
 * made g2.c take minutes to compile and 1.8 MB of code. One call per operation costs a few
 * percent at run time. */
#define ECW(suffix) ECI_CAT2(ECG(_fw), suffix) /* ECW(_mul) -> g1_fw_mul */
__attribute__((noinline)) static void ECW(_mul)(ECI_F *r, const ECI_F *a, const ECI_F *b) { ECF(_mul)(r, a, b); }
__attribute__((noinline)) static void ECW(_sqr)(ECI_F *r, const ECI_F *a) { ECF(_sqr)(r, a); }
__attribute__((noinline)) static void ECW(_add)(ECI_F *r, const ECI_F *a, const ECI_F *b) { ECF(_add)(r, a, b); }
__attribute__((noinline)) static void ECW(_sub)(ECI_F *r, const ECI_F *a, const ECI_F *b) { ECF(_sub)(r, a, b); }
__attribute__((noinline)) static void ECW(_dbl)(ECI_F *r, const ECI_F *a) { ECF(_dbl)(r, a); }
__attribute__((noinline)) static void ECW(_neg)(ECI_F *r, const ECI_F *a) { ECF(_neg)(r, a); }

/* ---- affine ---------------------------------------------------------------------------- */

void ECG(_affine_set_infinity)(ECI_AFF *r) {
    ECF(_zero)(&r->x);
    ECF(_zero)(&r->y);
}

bool ECG(_affine_is_infinity)(const ECI_AFF *p) { return ECF(_is_zero)(&p->x) && ECF(_is_zero)(&p->y); }

bool ECG(_affine_eq)(const ECI_AFF *p, const ECI_AFF *q) {
    return ECF(_eq)(&p->x, &q->x) && ECF(_eq)(&p->y, &q->y);
}

void ECG(_affine_neg)(ECI_AFF *r, const ECI_AFF *p) {
    r->x = p->x;
    ECW(_neg)(&r->y, &p->y); /* neg(0) = 0: infinity stays (0, 0) */
}

bool ECG(_affine_is_on_curve)(const ECI_AFF *p) {
    if (ECG(_affine_is_infinity)(p)) return true;
    ECI_F l, rhs, b;
    ECW(_sqr)(&l, &p->y);
    ECW(_sqr)(&rhs, &p->x);
    ECW(_mul)(&rhs, &rhs, &p->x);
    ECG(_curve_b)(&b);
    ECW(_add)(&rhs, &rhs, &b);
    return ECF(_eq)(&l, &rhs);
}

/* ---- jacobian -------------------------------------------------------------------------- */

void ECG(_jacobian_set_infinity)(ECI_JAC *r) {
    ECF(_one)(&r->x);
    ECF(_one)(&r->y);
    ECF(_zero)(&r->z);
}

bool ECG(_jacobian_is_infinity)(const ECI_JAC *p) { return ECF(_is_zero)(&p->z); }

void ECG(_jacobian_from_affine)(ECI_JAC *r, const ECI_AFF *p) {
    if (ECG(_affine_is_infinity)(p)) {
        ECG(_jacobian_set_infinity)(r);
        return;
    }
    r->x = p->x;
    r->y = p->y;
    ECF(_one)(&r->z);
}

void ECG(_jacobian_to_affine)(ECI_AFF *r, const ECI_JAC *p) {
    if (ECG(_jacobian_is_infinity)(p)) {
        ECG(_affine_set_infinity)(r);
        return;
    }
    ECI_F zi, zi2, zi3;
    ECF(_inv)(&zi, &p->z);
    ECW(_sqr)(&zi2, &zi);
    ECW(_mul)(&zi3, &zi2, &zi);
    ECW(_mul)(&r->x, &p->x, &zi2);
    ECW(_mul)(&r->y, &p->y, &zi3);
}

/* X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3 */
bool ECG(_jacobian_eq)(const ECI_JAC *p, const ECI_JAC *q) {
    bool pi = ECG(_jacobian_is_infinity)(p), qi = ECG(_jacobian_is_infinity)(q);
    if (pi || qi) return pi && qi;
    ECI_F z1z1, z2z2, a, b, c, d;
    ECW(_sqr)(&z1z1, &p->z);
    ECW(_sqr)(&z2z2, &q->z);
    ECW(_mul)(&a, &p->x, &z2z2);
    ECW(_mul)(&b, &q->x, &z1z1);
    if (!ECF(_eq)(&a, &b)) return false;
    ECW(_mul)(&z2z2, &z2z2, &q->z);
    ECW(_mul)(&z1z1, &z1z1, &p->z);
    ECW(_mul)(&c, &p->y, &z2z2);
    ECW(_mul)(&d, &q->y, &z1z1);
    return ECF(_eq)(&c, &d);
}

void ECG(_jacobian_neg)(ECI_JAC *r, const ECI_JAC *p) {
    r->x = p->x;
    ECW(_neg)(&r->y, &p->y);
    r->z = p->z;
}

/* dbl-2009-l (a = 0): A = X1^2, B = Y1^2, C = B^2, D = 2((X1+B)^2 - A - C), E = 3A, F = E^2,
 * X3 = F - 2D, Y3 = E(D - X3) - 8C, Z3 = 2 Y1 Z1. Infinity and 2-torsion (Y1 = 0) give Z3 = 0. */
void ECG(_jacobian_dbl)(ECI_JAC *r, const ECI_JAC *p) {
    if (ECG(_jacobian_is_infinity)(p)) {
        ECG(_jacobian_set_infinity)(r);
        return;
    }
    ECI_F a, b, c, d, e, f, t, z3;
    ECW(_sqr)(&a, &p->x);
    ECW(_sqr)(&b, &p->y);
    ECW(_sqr)(&c, &b);
    ECW(_add)(&d, &p->x, &b);
    ECW(_sqr)(&d, &d);
    ECW(_sub)(&d, &d, &a);
    ECW(_sub)(&d, &d, &c);
    ECW(_dbl)(&d, &d);
    ECW(_dbl)(&e, &a);
    ECW(_add)(&e, &e, &a);
    ECW(_sqr)(&f, &e);
    ECW(_mul)(&z3, &p->y, &p->z);
    ECW(_dbl)(&z3, &z3);
    ECW(_dbl)(&t, &d);
    ECW(_sub)(&r->x, &f, &t);
    ECW(_sub)(&t, &d, &r->x);
    ECW(_mul)(&t, &e, &t);
    ECW(_dbl)(&c, &c);
    ECW(_dbl)(&c, &c);
    ECW(_dbl)(&c, &c);
    ECW(_sub)(&r->y, &t, &c);
    r->z = z3;
    if (ECF(_is_zero)(&r->z)) ECG(_jacobian_set_infinity)(r);
}

/* add-2007-bl: Z1Z1 = Z1^2, Z2Z2 = Z2^2, U1 = X1 Z2Z2, U2 = X2 Z1Z1, S1 = Y1 Z2 Z2Z2,
 * S2 = Y2 Z1 Z1Z1, H = U2 - U1, I = (2H)^2, J = H I, r = 2(S2 - S1), V = U1 I,
 * X3 = r^2 - J - 2V, Y3 = r(V - X3) - 2 S1 J, Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H.
 * H = 0: P = Q (double) or P = -Q (infinity). */
void ECG(_jacobian_add)(ECI_JAC *r, const ECI_JAC *p, const ECI_JAC *q) {
    if (ECG(_jacobian_is_infinity)(p)) { *r = *q; return; }
    if (ECG(_jacobian_is_infinity)(q)) { *r = *p; return; }
    ECI_F z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    ECW(_sqr)(&z1z1, &p->z);
    ECW(_sqr)(&z2z2, &q->z);
    ECW(_mul)(&u1, &p->x, &z2z2);
    ECW(_mul)(&u2, &q->x, &z1z1);
    ECW(_mul)(&s1, &p->y, &q->z);
    ECW(_mul)(&s1, &s1, &z2z2);
    ECW(_mul)(&s2, &q->y, &p->z);
    ECW(_mul)(&s2, &s2, &z1z1);
    ECW(_sub)(&h, &u2, &u1);
    ECW(_sub)(&rr, &s2, &s1);
    if (ECF(_is_zero)(&h)) {
        if (ECF(_is_zero)(&rr)) ECG(_jacobian_dbl)(r, p);
        else ECG(_jacobian_set_infinity)(r);
        return;
    }
    ECW(_dbl)(&rr, &rr);
    ECW(_dbl)(&i, &h);
    ECW(_sqr)(&i, &i);
    ECW(_mul)(&j, &h, &i);
    ECW(_mul)(&v, &u1, &i);
    ECI_F z3;
    ECW(_add)(&z3, &p->z, &q->z);
    ECW(_sqr)(&z3, &z3);
    ECW(_sub)(&z3, &z3, &z1z1);
    ECW(_sub)(&z3, &z3, &z2z2);
    ECW(_mul)(&z3, &z3, &h);
    ECI_F x3, y3;
    ECW(_sqr)(&x3, &rr);
    ECW(_sub)(&x3, &x3, &j);
    ECW(_dbl)(&t, &v);
    ECW(_sub)(&x3, &x3, &t);
    ECW(_sub)(&t, &v, &x3);
    ECW(_mul)(&y3, &rr, &t);
    ECW(_mul)(&t, &s1, &j);
    ECW(_dbl)(&t, &t);
    ECW(_sub)(&y3, &y3, &t);
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

/* madd-2007-bl (Z2 = 1): Z1Z1 = Z1^2, U2 = X2 Z1Z1, S2 = Y2 Z1 Z1Z1, H = U2 - X1, HH = H^2,
 * I = 4 HH, J = H I, r = 2(S2 - Y1), V = X1 I, X3 = r^2 - J - 2V, Y3 = r(V - X3) - 2 Y1 J,
 * Z3 = (Z1 + H)^2 - Z1Z1 - HH. */
void ECG(_jacobian_add_mixed)(ECI_JAC *r, const ECI_JAC *p, const ECI_AFF *q) {
    if (ECG(_affine_is_infinity)(q)) { *r = *p; return; }
    if (ECG(_jacobian_is_infinity)(p)) { ECG(_jacobian_from_affine)(r, q); return; }
    ECI_F z1z1, u2, s2, h, hh, i, j, rr, v, t, x3, y3, z3;
    ECW(_sqr)(&z1z1, &p->z);
    ECW(_mul)(&u2, &q->x, &z1z1);
    ECW(_mul)(&s2, &q->y, &p->z);
    ECW(_mul)(&s2, &s2, &z1z1);
    ECW(_sub)(&h, &u2, &p->x);
    ECW(_sub)(&rr, &s2, &p->y);
    if (ECF(_is_zero)(&h)) {
        if (ECF(_is_zero)(&rr)) ECG(_jacobian_dbl)(r, p);
        else ECG(_jacobian_set_infinity)(r);
        return;
    }
    ECW(_dbl)(&rr, &rr);
    ECW(_sqr)(&hh, &h);
    ECW(_dbl)(&i, &hh);
    ECW(_dbl)(&i, &i);
    ECW(_mul)(&j, &h, &i);
    ECW(_mul)(&v, &p->x, &i);
    ECW(_add)(&z3, &p->z, &h);
    ECW(_sqr)(&z3, &z3);
    ECW(_sub)(&z3, &z3, &z1z1);
    ECW(_sub)(&z3, &z3, &hh);
    ECW(_sqr)(&x3, &rr);
    ECW(_sub)(&x3, &x3, &j);
    ECW(_dbl)(&t, &v);
    ECW(_sub)(&x3, &x3, &t);
    ECW(_sub)(&t, &v, &x3);
    ECW(_mul)(&y3, &rr, &t);
    ECW(_mul)(&t, &p->y, &j);
    ECW(_dbl)(&t, &t);
    ECW(_sub)(&y3, &y3, &t);
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

/* ---- xyzz ------------------------------------------------------------------------------ */

void ECG(_xyzz_set_infinity)(ECI_XYZZ *r) {
    ECF(_one)(&r->x);
    ECF(_one)(&r->y);
    ECF(_zero)(&r->zz);
    ECF(_zero)(&r->zzz);
}

bool ECG(_xyzz_is_infinity)(const ECI_XYZZ *p) { return ECF(_is_zero)(&p->zz); }

void ECG(_xyzz_from_affine)(ECI_XYZZ *r, const ECI_AFF *p) {
    if (ECG(_affine_is_infinity)(p)) {
        ECG(_xyzz_set_infinity)(r);
        return;
    }
    r->x = p->x;
    r->y = p->y;
    ECF(_one)(&r->zz);
    ECF(_one)(&r->zzz);
}

/* x = X/ZZ, y = Y/ZZZ with one inversion: 1/ZZ = (ZZ/ZZZ)^2 since ZZ^3 = ZZZ^2. */
void ECG(_xyzz_to_affine)(ECI_AFF *r, const ECI_XYZZ *p) {
    if (ECG(_xyzz_is_infinity)(p)) {
        ECG(_affine_set_infinity)(r);
        return;
    }
    ECI_F izzz, izz;
    ECF(_inv)(&izzz, &p->zzz);
    ECW(_mul)(&izz, &izzz, &p->zz);
    ECW(_sqr)(&izz, &izz);
    ECW(_mul)(&r->x, &p->x, &izz);
    ECW(_mul)(&r->y, &p->y, &izzz);
}

/* Jacobian with Z = ZZZ: X' = X ZZ^2, Y' = Y ZZZ^2 (X'/Z^2 = X ZZ^2/ZZ^3, Y'/Z^3 = Y/ZZZ). */
void ECG(_xyzz_to_jacobian)(ECI_JAC *r, const ECI_XYZZ *p) {
    if (ECG(_xyzz_is_infinity)(p)) {
        ECG(_jacobian_set_infinity)(r);
        return;
    }
    ECI_F t;
    ECW(_sqr)(&t, &p->zz);
    ECW(_mul)(&r->x, &p->x, &t);
    ECW(_sqr)(&t, &p->zzz);
    ECW(_mul)(&r->y, &p->y, &t);
    r->z = p->zzz;
}

void ECG(_xyzz_neg)(ECI_XYZZ *r, const ECI_XYZZ *p) {
    r->x = p->x;
    ECW(_neg)(&r->y, &p->y);
    r->zz = p->zz;
    r->zzz = p->zzz;
}

/* dbl-2008-s-1 (a = 0): U = 2Y1, V = U^2, W = U V, S = X1 V, M = 3 X1^2, X3 = M^2 - 2S,
 * Y3 = M(S - X3) - W Y1, ZZ3 = V ZZ1, ZZZ3 = W ZZZ1. Y1 = 0 gives ZZ3 = 0 (infinity). */
void ECG(_xyzz_dbl)(ECI_XYZZ *r, const ECI_XYZZ *p) {
    if (ECG(_xyzz_is_infinity)(p)) {
        ECG(_xyzz_set_infinity)(r);
        return;
    }
    ECI_F u, v, w, s, m, t, x3, y3;
    ECW(_dbl)(&u, &p->y);
    ECW(_sqr)(&v, &u);
    ECW(_mul)(&w, &u, &v);
    ECW(_mul)(&s, &p->x, &v);
    ECW(_sqr)(&m, &p->x);
    ECW(_dbl)(&t, &m);
    ECW(_add)(&m, &m, &t);
    ECW(_sqr)(&x3, &m);
    ECW(_dbl)(&t, &s);
    ECW(_sub)(&x3, &x3, &t);
    ECW(_sub)(&t, &s, &x3);
    ECW(_mul)(&y3, &m, &t);
    ECW(_mul)(&t, &w, &p->y);
    ECW(_sub)(&y3, &y3, &t);
    ECW(_mul)(&r->zz, &v, &p->zz);
    ECW(_mul)(&r->zzz, &w, &p->zzz);
    r->x = x3;
    r->y = y3;
    if (ECF(_is_zero)(&r->zz)) ECG(_xyzz_set_infinity)(r);
}

/* mdbl-2008-s-1: dbl-2008-s-1 with ZZ1 = ZZZ1 = 1, so ZZ3 = V, ZZZ3 = W. q not infinity. */
static void ECG(_xyzz_dbl_affine_)(ECI_XYZZ *r, const ECI_AFF *q) {
    ECI_F u, v, w, s, m, t, x3, y3;
    ECW(_dbl)(&u, &q->y);
    ECW(_sqr)(&v, &u);
    ECW(_mul)(&w, &u, &v);
    ECW(_mul)(&s, &q->x, &v);
    ECW(_sqr)(&m, &q->x);
    ECW(_dbl)(&t, &m);
    ECW(_add)(&m, &m, &t);
    ECW(_sqr)(&x3, &m);
    ECW(_dbl)(&t, &s);
    ECW(_sub)(&x3, &x3, &t);
    ECW(_sub)(&t, &s, &x3);
    ECW(_mul)(&y3, &m, &t);
    ECW(_mul)(&t, &w, &q->y);
    ECW(_sub)(&y3, &y3, &t);
    r->x = x3;
    r->y = y3;
    r->zz = v;
    r->zzz = w;
    if (ECF(_is_zero)(&r->zz)) ECG(_xyzz_set_infinity)(r);
}

/* add-2008-s: U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2, S2 = Y2 ZZZ1, P = U2 - U1, R = S2 - S1,
 * PP = P^2, PPP = P PP, Q = U1 PP, X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - S1 PPP,
 * ZZ3 = ZZ1 ZZ2 PP, ZZZ3 = ZZZ1 ZZZ2 PPP. */
void ECG(_xyzz_add)(ECI_XYZZ *r, const ECI_XYZZ *p, const ECI_XYZZ *q) {
    if (ECG(_xyzz_is_infinity)(p)) { *r = *q; return; }
    if (ECG(_xyzz_is_infinity)(q)) { *r = *p; return; }
    ECI_F u1, u2, s1, s2, pp_, rr, ppp, qq, t, x3, y3, zz3, zzz3;
    ECW(_mul)(&u1, &p->x, &q->zz);
    ECW(_mul)(&u2, &q->x, &p->zz);
    ECW(_mul)(&s1, &p->y, &q->zzz);
    ECW(_mul)(&s2, &q->y, &p->zzz);
    ECW(_sub)(&u2, &u2, &u1); /* P */
    ECW(_sub)(&rr, &s2, &s1); /* R */
    if (ECF(_is_zero)(&u2)) {
        if (ECF(_is_zero)(&rr)) ECG(_xyzz_dbl)(r, p);
        else ECG(_xyzz_set_infinity)(r);
        return;
    }
    ECW(_sqr)(&pp_, &u2);
    ECW(_mul)(&ppp, &u2, &pp_);
    ECW(_mul)(&qq, &u1, &pp_);
    ECW(_sqr)(&x3, &rr);
    ECW(_sub)(&x3, &x3, &ppp);
    ECW(_dbl)(&t, &qq);
    ECW(_sub)(&x3, &x3, &t);
    ECW(_sub)(&t, &qq, &x3);
    ECW(_mul)(&y3, &rr, &t);
    ECW(_mul)(&t, &s1, &ppp);
    ECW(_sub)(&y3, &y3, &t);
    ECW(_mul)(&zz3, &p->zz, &q->zz);
    ECW(_mul)(&zz3, &zz3, &pp_);
    ECW(_mul)(&zzz3, &p->zzz, &q->zzz);
    ECW(_mul)(&zzz3, &zzz3, &ppp);
    r->x = x3;
    r->y = y3;
    r->zz = zz3;
    r->zzz = zzz3;
}

/* madd-2008-s: U2 = X2 ZZ1, S2 = Y2 ZZZ1, P = U2 - X1, R = S2 - Y1, PP = P^2, PPP = P PP,
 * Q = X1 PP, X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - Y1 PPP, ZZ3 = ZZ1 PP, ZZZ3 = ZZZ1 PPP. */
void ECG(_xyzz_add_mixed)(ECI_XYZZ *r, const ECI_XYZZ *p, const ECI_AFF *q) {
    if (ECG(_affine_is_infinity)(q)) { *r = *p; return; }
    if (ECG(_xyzz_is_infinity)(p)) { ECG(_xyzz_from_affine)(r, q); return; }
    ECI_F u2, s2, pp_, rr, ppp, qq, t, x3, y3;
    ECW(_mul)(&u2, &q->x, &p->zz);
    ECW(_mul)(&s2, &q->y, &p->zzz);
    ECW(_sub)(&u2, &u2, &p->x); /* P */
    ECW(_sub)(&rr, &s2, &p->y); /* R */
    if (ECF(_is_zero)(&u2)) {
        if (ECF(_is_zero)(&rr)) ECG(_xyzz_dbl_affine_)(r, q);
        else ECG(_xyzz_set_infinity)(r);
        return;
    }
    ECW(_sqr)(&pp_, &u2);
    ECW(_mul)(&ppp, &u2, &pp_);
    ECW(_mul)(&qq, &p->x, &pp_);
    ECW(_sqr)(&x3, &rr);
    ECW(_sub)(&x3, &x3, &ppp);
    ECW(_dbl)(&t, &qq);
    ECW(_sub)(&x3, &x3, &t);
    ECW(_sub)(&t, &qq, &x3);
    ECW(_mul)(&y3, &rr, &t);
    ECW(_mul)(&t, &p->y, &ppp);
    ECW(_sub)(&y3, &y3, &t);
    ECW(_mul)(&r->zz, &p->zz, &pp_);
    ECW(_mul)(&r->zzz, &p->zzz, &ppp);
    r->x = x3;
    r->y = y3;
}

/* ---- scalar multiplication, batch conversion --------------------------------------------- */

/* Left-to-right double-and-add over the bits of k (k_limbs 64-bit little-endian limbs);
 * k = 0 or k_limbs <= 0 gives infinity. Variable time in k. */
void ECG(_mul_vartime)(ECI_JAC *r, const ECI_JAC *p, const uint64_t *k, int k_limbs) {
    ECI_JAC acc, base = *p; /* copy: r may alias p */
    ECG(_jacobian_set_infinity)(&acc);
    for (int i = k_limbs - 1; i >= 0; i--) {
        for (int b = 63; b >= 0; b--) {
            ECG(_jacobian_dbl)(&acc, &acc);
            if ((k[i] >> b) & 1) ECG(_jacobian_add)(&acc, &acc, &base);
        }
    }
    *r = acc;
}

void ECG(_mul_fr_vartime)(ECI_JAC *r, const ECI_JAC *p, const EC_FR *k) {
    uint64_t c[4];
    ECI_CAT2(EC_FR, _to_canon)(c, k);
    ECG(_mul_vartime)(r, p, c, 4);
}

/* Montgomery's trick: prefix products of the nonzero Z's, one inversion, then walk back.
 * Points at infinity are skipped (they do not enter the product) and map to (0, 0). */
void ECI_CAT2(EC_G, s_jacobian_to_affine)(ECI_AFF *out, const ECI_JAC *in, size_t n) {
    /* out[i].x holds the prefix product of the nonzero z's before i (scratch, then overwritten) */
    ECI_F acc, inv, zi, zi2;
    ECF(_one)(&acc);
    for (size_t i = 0; i < n; i++) {
        out[i].x = acc;
        if (!ECG(_jacobian_is_infinity)(&in[i])) ECW(_mul)(&acc, &acc, &in[i].z);
    }
    ECF(_inv)(&inv, &acc); /* inv = 1 / prod(z) */
    for (size_t i = n; i-- > 0;) {
        if (ECG(_jacobian_is_infinity)(&in[i])) {
            ECG(_affine_set_infinity)(&out[i]);
            continue;
        }
        ECW(_mul)(&zi, &inv, &out[i].x);      /* 1 / z_i */
        ECW(_mul)(&inv, &inv, &in[i].z);      /* drop z_i from the running inverse */
        ECW(_sqr)(&zi2, &zi);
        ECW(_mul)(&out[i].x, &in[i].x, &zi2);
        ECW(_mul)(&zi2, &zi2, &zi);
        ECW(_mul)(&out[i].y, &in[i].y, &zi2);
    }
}

/* the constant-time [k]P for secret scalars, on the same field operations */
#include "ec/mul_ct_impl.h"

#undef ECI_XYZZ
#undef ECI_JAC
#undef ECI_AFF
#undef ECI_F
#undef ECW
#undef ECF
#undef ECG
#undef ECI_CAT2
#undef ECI_CAT2_
