/* Constant-time scalar multiplication, part of the generic group law: included by
 * src/ec/curve_impl.h (and only there), so every curve instance gets EC_G##_mul_fr_consttime
 * over the same field operations and its own b (EC_G##_curve_b).
 *
 * EC_G##_mul_fr_consttime(r, p, k): r = [k]P for k in EC_FR (Montgomery form), P any point of
 * the group (infinity included), r Jacobian as elsewhere (infinity (1, 1, 0)). The sequence of
 * operations and of memory addresses depends neither on k nor on P:
 *   - a fixed window of 4 bits over every bit of the canonical k (16 windows per 64-bit limb,
 *     leading zero windows included): 4 doublings and one addition per window, whatever its value;
 *   - the window's multiple [w]P is read from a 16-entry table by scanning every entry and keeping
 *     the wanted one with a mask (no secret-dependent index);
 *   - additions and doublings use the complete formulas for a = 0 short-Weierstrass curves in
 *     homogeneous projective coordinates (Renes, Costello, Batina, "Complete addition formulas
 *     for prime order elliptic curves", EUROCRYPT 2016, algorithms 7 and 9): no case analysis for
 *     infinity, P + P or P + (-P);
 *   - conversions in and out select with masks.
 * The field operations' own timing is that of src/ff (Montgomery multiplication whose final
 * subtraction is a select). The result is the point EC_G##_mul_fr_vartime gives
 * (tests/test_reports.c, consttime_mul_matches_vartime). Cost for 255-bit Fr: 256 doublings and
 * 64 + 14 additions, about 2x the variable-time double-and-add on average.
 * Internally (X : Y : Z) with x = X/Z, y = Y/Z, infinity (0 : 1 : 0); field elements are handled
 * as arrays of 64-bit words for the masked selects (every field of src/ff is a plain limb array).
 */
#include <string.h>

#if !defined(EC_G) || !defined(EC_F) || !defined(EC_FR) || !defined(ECG)
#error "src/ec/mul_ct_impl.h is part of src/ec/curve_impl.h"
#endif

#define ECTG(suffix) ECG(suffix)
#define ECTF(suffix) ECF(suffix)
#define ECT_F ECI_F
#define ECT_PROJ ECG(_ct_proj)

typedef struct { ECT_F x, y, z; } ECT_PROJ;

/* the out-of-line field operations of curve_impl.h */
#define ECTG_ct_mul ECW(_mul)
#define ECTG_ct_add ECW(_add)
#define ECTG_ct_sub ECW(_sub)

/* mask = all ones when cond (0 or 1) */
static inline uint64_t ECTG(_ct_mask)(uint64_t cond) { return (uint64_t)0 - (cond & 1); }

/* r = mask ? a : r, word by word */
static inline void ECTG(_ct_cmov)(void *r, const void *a, size_t bytes, uint64_t mask) {
    uint64_t *rw = r;
    const uint64_t *aw = a;
    for (size_t i = 0; i < bytes / 8; i++) rw[i] ^= (rw[i] ^ aw[i]) & mask;
}

/* 1 when every word of the element is zero (the Montgomery zero is the zero word array) */
static inline uint64_t ECTG(_ct_is_zero)(const ECT_F *a) {
    const uint64_t *w = (const uint64_t *)a;
    uint64_t acc = 0;
    for (size_t i = 0; i < sizeof *a / 8; i++) acc |= w[i];
    return 1 ^ ((acc | ((uint64_t)0 - acc)) >> 63);
}

/* Complete addition, a = 0 (RCB16 algorithm 7): 12M + 2 m_3b + 19a. r may alias p or q. */
static void ECTG(_ct_padd)(ECT_PROJ *r, const ECT_PROJ *p, const ECT_PROJ *q, const ECT_F *b3) {
    ECT_F t0, t1, t2, t3, t4, x3, y3, z3;
    ECTG_ct_mul(&t0, &p->x, &q->x);
    ECTG_ct_mul(&t1, &p->y, &q->y);
    ECTG_ct_mul(&t2, &p->z, &q->z);
    ECTG_ct_add(&t3, &p->x, &p->y);
    ECTG_ct_add(&t4, &q->x, &q->y);
    ECTG_ct_mul(&t3, &t3, &t4);
    ECTG_ct_add(&t4, &t0, &t1);
    ECTG_ct_sub(&t3, &t3, &t4);
    ECTG_ct_add(&t4, &p->y, &p->z);
    ECTG_ct_add(&x3, &q->y, &q->z);
    ECTG_ct_mul(&t4, &t4, &x3);
    ECTG_ct_add(&x3, &t1, &t2);
    ECTG_ct_sub(&t4, &t4, &x3);
    ECTG_ct_add(&x3, &p->x, &p->z);
    ECTG_ct_add(&y3, &q->x, &q->z);
    ECTG_ct_mul(&x3, &x3, &y3);
    ECTG_ct_add(&y3, &t0, &t2);
    ECTG_ct_sub(&y3, &x3, &y3);
    ECTG_ct_add(&x3, &t0, &t0);
    ECTG_ct_add(&t0, &x3, &t0);
    ECTG_ct_mul(&t2, b3, &t2);
    ECTG_ct_add(&z3, &t1, &t2);
    ECTG_ct_sub(&t1, &t1, &t2);
    ECTG_ct_mul(&y3, b3, &y3);
    ECTG_ct_mul(&x3, &t4, &y3);
    ECTG_ct_mul(&t2, &t3, &t1);
    ECTG_ct_sub(&x3, &t2, &x3);
    ECTG_ct_mul(&y3, &y3, &t0);
    ECTG_ct_mul(&t1, &t1, &z3);
    ECTG_ct_add(&y3, &t1, &y3);
    ECTG_ct_mul(&t0, &t0, &t3);
    ECTG_ct_mul(&z3, &z3, &t4);
    ECTG_ct_add(&z3, &z3, &t0);
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

/* Complete doubling, a = 0 (RCB16 algorithm 9): 6M + 2S + 1 m_3b + 9a (squares as products). */
static void ECTG(_ct_pdbl)(ECT_PROJ *r, const ECT_PROJ *p, const ECT_F *b3) {
    ECT_F t0, t1, t2, x3, y3, z3;
    ECTG_ct_mul(&t0, &p->y, &p->y);
    ECTG_ct_add(&z3, &t0, &t0);
    ECTG_ct_add(&z3, &z3, &z3);
    ECTG_ct_add(&z3, &z3, &z3);
    ECTG_ct_mul(&t1, &p->y, &p->z);
    ECTG_ct_mul(&t2, &p->z, &p->z);
    ECTG_ct_mul(&t2, b3, &t2);
    ECTG_ct_mul(&x3, &t2, &z3);
    ECTG_ct_add(&y3, &t0, &t2);
    ECTG_ct_mul(&z3, &t1, &z3);
    ECTG_ct_add(&t1, &t2, &t2);
    ECTG_ct_add(&t2, &t1, &t2);
    ECTG_ct_sub(&t0, &t0, &t2);
    ECTG_ct_mul(&y3, &t0, &y3);
    ECTG_ct_add(&y3, &x3, &y3);
    ECTG_ct_mul(&t1, &p->x, &p->y);
    ECTG_ct_mul(&x3, &t0, &t1);
    ECTG_ct_add(&x3, &x3, &x3);
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

void ECTG(_mul_fr_consttime)(ECI_JAC *r, const ECI_JAC *p, const EC_FR *k) {
    ECT_F b, b3, zz, one;
    ECG(_curve_b)(&b);
    ECTG_ct_add(&b3, &b, &b);
    ECTG_ct_add(&b3, &b3, &b);
    ECTF(_one)(&one);
    /* Jacobian (X, Y, Z) -> projective (X Z, Y, Z^3); infinity (Z = 0) -> (0 : 1 : 0) by mask */
    ECT_PROJ base, table[16], acc, pick;
    ECTG_ct_mul(&zz, &p->z, &p->z);
    ECTG_ct_mul(&base.x, &p->x, &p->z);
    base.y = p->y;
    ECTG_ct_mul(&base.z, &zz, &p->z);
    {
        ECT_PROJ inf;
        ECTF(_zero)(&inf.x);
        inf.y = one;
        ECTF(_zero)(&inf.z);
        ECTG(_ct_cmov)(&base, &inf, sizeof base, ECTG(_ct_mask)(ECTG(_ct_is_zero)(&p->z)));
        table[0] = inf;
    }
    /* table[i] = [i]P, the same 14 additions for every P */
    table[1] = base;
    for (int i = 2; i < 16; i++) ECTG(_ct_padd)(&table[i], &table[i - 1], &base, &b3);
    enum { K_LIMBS = sizeof(EC_FR) / 8 };
    uint64_t c[K_LIMBS];
    ECI_CAT2(EC_FR, _to_canon)(c, k);
    acc = table[0];
    for (int w = 16 * K_LIMBS - 1; w >= 0; w--) {
        for (int d = 0; d < 4; d++) ECTG(_ct_pdbl)(&acc, &acc, &b3);
        uint64_t win = (c[w / 16] >> (4 * (w % 16))) & 15;
        /* read every entry, keep entry `win` */
        pick = table[0];
        for (uint64_t i = 1; i < 16; i++) {
            uint64_t diff = i ^ win; /* 0 iff i == win */
            uint64_t eq = 1 ^ ((diff | ((uint64_t)0 - diff)) >> 63);
            ECTG(_ct_cmov)(&pick, &table[i], sizeof pick, ECTG(_ct_mask)(eq));
        }
        ECTG(_ct_padd)(&acc, &acc, &pick, &b3);
    }
    /* projective (X : Y : Z) -> Jacobian (X Z, Y Z^2, Z); Z = 0 -> (1, 1, 0) by mask */
    ECI_JAC out, inf;
    ECTG_ct_mul(&zz, &acc.z, &acc.z);
    ECTG_ct_mul(&out.x, &acc.x, &acc.z);
    ECTG_ct_mul(&out.y, &acc.y, &zz);
    out.z = acc.z;
    inf.x = one;
    inf.y = one;
    ECTF(_zero)(&inf.z);
    ECTG(_ct_cmov)(&out, &inf, sizeof out, ECTG(_ct_mask)(ECTG(_ct_is_zero)(&acc.z)));
    *r = out;
    explicit_bzero(c, sizeof c);
    explicit_bzero(&pick, sizeof pick);
    explicit_bzero(&acc, sizeof acc);
}

#undef ECTG_ct_sub
#undef ECTG_ct_add
#undef ECTG_ct_mul
#undef ECT_PROJ
#undef ECT_F
#undef ECTF
#undef ECTG
