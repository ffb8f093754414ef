/* Generic constant-time [k]P for src/ec/ec_ct.h: included once per group (X-include), like
 * src/ec/curve_impl.h. The including .c defines, before #include:
 *   EC_G   the group prefix (g1, g2): defines EC_G##_mul_fr_consttime
 *   EC_F   the coordinate field prefix (fp, fp2); uses EC_F##_{zero, one, add, sub, mul}
 *   and `static void EC_G##_ct_curve_b3(EC_F *b3)` writing 3b of y^2 = x^3 + b (Montgomery).
 * Points are EC_G##_jacobian on both sides; inside, homogeneous projective (X : Y : Z) with
 * x = X/Z, y = Y/Z, infinity (0 : 1 : 0). Every field element is handled as an array of
 * 64-bit words for the masked selects (fp and fp2 are plain limb arrays). */
#if !defined(EC_G) || !defined(EC_F)
#error "define EC_G and EC_F before including ec/mul_ct_impl.h"
#endif

#define ECT_CAT2_(a, b) a##b
#define ECT_CAT2(a, b) ECT_CAT2_(a, b)
#define ECTG(suffix) ECT_CAT2(EC_G, suffix)
#define ECTF(suffix) ECT_CAT2(EC_F, suffix)
#define ECT_F EC_F
#define ECT_PROJ ECTG(_ct_proj)

typedef struct { ECT_F x, y, z; } ECT_PROJ;

/* Out-of-line, as in curve_impl.h (the field ops are always_inline). */
__attribute__((noinline)) static void ECTG(_ct_mul)(ECT_F *r, const ECT_F *a, const ECT_F *b) { ECTF(_mul)(r, a, b); }
__attribute__((noinline)) static void ECTG(_ct_add)(ECT_F *r, const ECT_F *a, const ECT_F *b) { ECTF(_add)(r, a, b); }
__attribute__((noinline)) static void ECTG(_ct_sub)(ECT_F *r, const ECT_F *a, const ECT_F *b) { ECTF(_sub)(r, a, b); }

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
    ECTG(_ct_mul)(&t0, &p->x, &q->x);
    ECTG(_ct_mul)(&t1, &p->y, &q->y);
    ECTG(_ct_mul)(&t2, &p->z, &q->z);
    ECTG(_ct_add)(&t3, &p->x, &p->y);
    ECTG(_ct_add)(&t4, &q->x, &q->y);
    ECTG(_ct_mul)(&t3, &t3, &t4);
    ECTG(_ct_add)(&t4, &t0, &t1);
    ECTG(_ct_sub)(&t3, &t3, &t4);
    ECTG(_ct_add)(&t4, &p->y, &p->z);
    ECTG(_ct_add)(&x3, &q->y, &q->z);
    ECTG(_ct_mul)(&t4, &t4, &x3);
    ECTG(_ct_add)(&x3, &t1, &t2);
    ECTG(_ct_sub)(&t4, &t4, &x3);
    ECTG(_ct_add)(&x3, &p->x, &p->z);
    ECTG(_ct_add)(&y3, &q->x, &q->z);
    ECTG(_ct_mul)(&x3, &x3, &y3);
    ECTG(_ct_add)(&y3, &t0, &t2);
    ECTG(_ct_sub)(&y3, &x3, &y3);
    ECTG(_ct_add)(&x3, &t0, &t0);
    ECTG(_ct_add)(&t0, &x3, &t0);
    ECTG(_ct_mul)(&t2, b3, &t2);
    ECTG(_ct_add)(&z3, &t1, &t2);
    ECTG(_ct_sub)(&t1, &t1, &t2);
    ECTG(_ct_mul)(&y3, b3, &y3);
    ECTG(_ct_mul)(&x3, &t4, &y3);
    ECTG(_ct_mul)(&t2, &t3, &t1);
    ECTG(_ct_sub)(&x3, &t2, &x3);
    ECTG(_ct_mul)(&y3, &y3, &t0);
    ECTG(_ct_mul)(&t1, &t1, &z3);
    ECTG(_ct_add)(&y3, &t1, &y3);
    ECTG(_ct_mul)(&t0, &t0, &t3);
    ECTG(_ct_mul)(&z3, &z3, &t4);
    ECTG(_ct_add)(&z3, &z3, &t0);
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

/* Complete doubling, a = 0 (RCB16 algorithm 9): 6M + 2S + 1 m_3b + 9a (squares as products). */
static void ECTG(_ct_pdbl)(ECT_PROJ *r, const ECT_PROJ *p, const ECT_F *b3) {
    ECT_F t0, t1, t2, x3, y3, z3;
    ECTG(_ct_mul)(&t0, &p->y, &p->y);
    ECTG(_ct_add)(&z3, &t0, &t0);
    ECTG(_ct_add)(&z3, &z3, &z3);
    ECTG(_ct_add)(&z3, &z3, &z3);
    ECTG(_ct_mul)(&t1, &p->y, &p->z);
    ECTG(_ct_mul)(&t2, &p->z, &p->z);
    ECTG(_ct_mul)(&t2, b3, &t2);
    ECTG(_ct_mul)(&x3, &t2, &z3);
    ECTG(_ct_add)(&y3, &t0, &t2);
    ECTG(_ct_mul)(&z3, &t1, &z3);
    ECTG(_ct_add)(&t1, &t2, &t2);
    ECTG(_ct_add)(&t2, &t1, &t2);
    ECTG(_ct_sub)(&t0, &t0, &t2);
    ECTG(_ct_mul)(&y3, &t0, &y3);
    ECTG(_ct_add)(&y3, &x3, &y3);
    ECTG(_ct_mul)(&t1, &p->x, &p->y);
    ECTG(_ct_mul)(&x3, &t0, &t1);
    ECTG(_ct_add)(&x3, &x3, &x3);
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

void ECTG(_mul_fr_consttime)(ECTG(_jacobian) *r, const ECTG(_jacobian) *p, const fr *k) {
    ECT_F b3, zz, one;
    ECTG(_ct_curve_b3)(&b3);
    ECTF(_one)(&one);
    /* Jacobian (X, Y, Z) -> projective (X Z, Y, Z^3); infinity (Z = 0) -> (0 : 1 : 0) by mask */
    ECT_PROJ base, table[16], acc, pick;
    ECTG(_ct_mul)(&zz, &p->z, &p->z);
    ECTG(_ct_mul)(&base.x, &p->x, &p->z);
    base.y = p->y;
    ECTG(_ct_mul)(&base.z, &zz, &p->z);
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
    uint64_t c[4];
    fr_to_canon(c, k);
    acc = table[0];
    for (int w = 63; w >= 0; w--) {
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
    ECTG(_jacobian) out, inf;
    ECTG(_ct_mul)(&zz, &acc.z, &acc.z);
    ECTG(_ct_mul)(&out.x, &acc.x, &acc.z);
    ECTG(_ct_mul)(&out.y, &acc.y, &zz);
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

#undef ECT_PROJ
#undef ECT_F
#undef ECTF
#undef ECTG
#undef ECT_CAT2
#undef ECT_CAT2_
