/* Field arithmetic against GMP (independent big-integer oracle), random inputs and edge values. */
#include "test.h"
#include "curves/bls12_381/curve.h"
#include "curves/bn254/curve.h"
#include "ff/vec52.h"

#ifdef CUZK_HAVE_GMP
#include <gmp.h>

static void limbs_to_mpz(mpz_t z, const uint64_t *l, int n) { mpz_import(z, (size_t)n, -1, 8, 0, 0, l); }
static void mpz_to_limbs(uint64_t *l, int n, const mpz_t z) {
    memset(l, 0, 8 * (size_t)n);
    size_t cnt = 0;
    mpz_export(l, &cnt, -1, 8, 0, 0, z);
}

/* Edge values: 0, 1, 2, m-1, m-2, R mod m, (m-1)/2, (m+1)/2, random. */
static void pick(uint64_t *out, int n, const uint64_t *mod, int k) {
    mpz_t m, v;
    mpz_inits(m, v, NULL);
    limbs_to_mpz(m, mod, n);
    switch (k) {
    case 0: mpz_set_ui(v, 0); break;
    case 1: mpz_set_ui(v, 1); break;
    case 2: mpz_set_ui(v, 2); break;
    case 3: mpz_sub_ui(v, m, 1); break;
    case 4: mpz_sub_ui(v, m, 2); break;
    case 5: mpz_set_ui(v, 1); mpz_mul_2exp(v, v, 64 * (unsigned)n); mpz_mod(v, v, m); break;
    case 6: mpz_sub_ui(v, m, 1); mpz_fdiv_q_2exp(v, v, 1); break;
    case 7: mpz_add_ui(v, m, 1); mpz_fdiv_q_2exp(v, v, 1); break;
    default: {
        uint64_t r[6];
        test_rand_bytes(r, sizeof r);
        limbs_to_mpz(v, r, n);
        mpz_mod(v, v, m);
    }
    }
    mpz_to_limbs(out, n, v);
    mpz_clears(m, v, NULL);
}

#define FIELD_ORACLE_TEST(F, N)                                                            \
    TEST(ff, F##_ops_vs_gmp) {                                                             \
        mpz_t m, a, b, e, g;                                                               \
        mpz_inits(m, a, b, e, g, NULL);                                                    \
        limbs_to_mpz(m, F##_MODULUS, N);                                                   \
        int iters = test_iters(400);                                                       \
        for (int it = 0; it < iters; it++) {                                               \
            uint64_t al[N], bl[N], out[N];                                                 \
            pick(al, N, F##_MODULUS, it < 64 ? it % 8 : 8);                                \
            pick(bl, N, F##_MODULUS, it < 64 ? it / 8 : 8);                                \
            limbs_to_mpz(a, al, N);                                                        \
            limbs_to_mpz(b, bl, N);                                                        \
            F x, y, z;                                                                     \
            F##_from_canon(&x, al);                                                        \
            F##_from_canon(&y, bl);                                                        \
            F##_to_canon(out, &x);                                                         \
            CHECK_MEM(out, al, sizeof out);                                                \
            /* add */                                                                      \
            F##_add(&z, &x, &y); F##_to_canon(out, &z);                                    \
            mpz_add(e, a, b); mpz_mod(e, e, m); limbs_to_mpz(g, out, N);                   \
            CHECK_MSG(mpz_cmp(e, g) == 0, #F "_add mismatch at iter %d", it);              \
            /* sub */                                                                      \
            F##_sub(&z, &x, &y); F##_to_canon(out, &z);                                    \
            mpz_sub(e, a, b); mpz_mod(e, e, m); limbs_to_mpz(g, out, N);                   \
            CHECK_MSG(mpz_cmp(e, g) == 0, #F "_sub mismatch at iter %d", it);              \
            /* neg */                                                                      \
            F##_neg(&z, &x); F##_to_canon(out, &z);                                        \
            mpz_neg(e, a); mpz_mod(e, e, m); limbs_to_mpz(g, out, N);                      \
            CHECK_MSG(mpz_cmp(e, g) == 0, #F "_neg mismatch at iter %d", it);              \
            /* mul */                                                                      \
            F##_mul(&z, &x, &y); F##_to_canon(out, &z);                                    \
            mpz_mul(e, a, b); mpz_mod(e, e, m); limbs_to_mpz(g, out, N);                   \
            CHECK_MSG(mpz_cmp(e, g) == 0, #F "_mul mismatch at iter %d", it);              \
            /* sqr */                                                                      \
            F##_sqr(&z, &x); F##_to_canon(out, &z);                                        \
            mpz_mul(e, a, a); mpz_mod(e, e, m); limbs_to_mpz(g, out, N);                   \
            CHECK_MSG(mpz_cmp(e, g) == 0, #F "_sqr mismatch at iter %d", it);              \
            /* inv */                                                                      \
            if (it % 8 == 0 || it < 64) {                                                  \
                F##_inv(&z, &x); F##_to_canon(out, &z); limbs_to_mpz(g, out, N);           \
                if (mpz_sgn(a) == 0) CHECK(mpz_sgn(g) == 0);                               \
                else { mpz_invert(e, a, m); CHECK_MSG(mpz_cmp(e, g) == 0, #F "_inv mismatch"); } \
                F##_inv_vartime(&z, &x); F##_to_canon(out, &z); limbs_to_mpz(g, out, N);   \
                if (mpz_sgn(a) == 0) CHECK(mpz_sgn(g) == 0);                               \
                else CHECK_MSG(mpz_cmp(e, g) == 0, #F "_inv_vartime mismatch");            \
                int leg = F##_legendre(&x);                                                \
                CHECK_EQ_INT(leg, mpz_legendre(a, m));                                     \
            }                                                                              \
            /* bytes round trip */                                                         \
            uint8_t le[8 * N], be[8 * N];                                                  \
            F##_to_bytes_le(le, sizeof le, &x);                                            \
            F##_to_bytes_be(be, sizeof be, &x);                                            \
            for (int i = 0; i < 8 * N; i++) CHECK(le[i] == be[8 * N - 1 - i]);             \
            F w;                                                                           \
            CHECK(F##_from_bytes_le(&w, le, sizeof le) && F##_eq(&w, &x));                 \
            CHECK(F##_from_bytes_be(&w, be, sizeof be) && F##_eq(&w, &x));                 \
        }                                                                                  \
        /* non-canonical encodings are rejected: m itself and 2^(64N)-1 */                 \
        uint8_t le[8 * N];                                                                 \
        F w;                                                                               \
        for (int i = 0; i < 8 * N; i++) le[i] = (uint8_t)(F##_MODULUS[i / 8] >> (8 * (i % 8))); \
        CHECK(!F##_from_bytes_le(&w, le, sizeof le));                                      \
        memset(le, 0xff, sizeof le);                                                       \
        CHECK(!F##_from_bytes_le(&w, le, sizeof le));                                      \
        /* wide reduction */                                                               \
        uint8_t wide[64];                                                                  \
        test_rand_bytes(wide, sizeof wide);                                                \
        F##_from_bytes_wide_le(&w, wide, sizeof wide);                                     \
        mpz_import(e, sizeof wide, -1, 1, 0, 0, wide); mpz_mod(e, e, m);                   \
        uint64_t out[N]; F##_to_canon(out, &w); limbs_to_mpz(g, out, N);                   \
        CHECK(mpz_cmp(e, g) == 0);                                                         \
        mpz_clears(m, a, b, e, g, NULL);                                                   \
    }

FIELD_ORACLE_TEST(fp, 6)
FIELD_ORACLE_TEST(fr, 4)
FIELD_ORACLE_TEST(bn254_fp, 4)
FIELD_ORACLE_TEST(bn254_fr, 4)

/* BN254: square roots in Fp (p = 3 mod 4), Fr (Tonelli-Shanks, 2-adicity 28) and Fp2 */
TEST(ff, bn254_sqrt) {
    for (int it = 0; it < test_iters(50); it++) {
        uint64_t l[4];
        pick(l, 4, bn254_fp_MODULUS, it < 8 ? it : 8);
        bn254_fp x, s, r;
        bn254_fp_from_canon(&x, l);
        bn254_fp_sqr(&s, &x);
        CHECK(bn254_fp_sqrt(&r, &s));
        bn254_fp_sqr(&r, &r);
        CHECK(bn254_fp_eq(&r, &s));
        CHECK_EQ_INT(bn254_fp_sqrt(&r, &x), bn254_fp_legendre(&x) >= 0);
        pick(l, 4, bn254_fr_MODULUS, it < 8 ? it : 8);
        bn254_fr a, b, c;
        bn254_fr_from_canon(&a, l);
        bn254_fr_sqr(&b, &a);
        CHECK(bn254_fr_sqrt(&c, &b));
        bn254_fr_sqr(&c, &c);
        CHECK(bn254_fr_eq(&c, &b));
        CHECK_EQ_INT(bn254_fr_sqrt(&c, &a), bn254_fr_legendre(&a) >= 0);
        bn254_fp2 u, u2, v;
        pick(l, 4, bn254_fp_MODULUS, 8); bn254_fp_from_canon(&u.c0, l);
        pick(l, 4, bn254_fp_MODULUS, it < 8 ? it : 8); bn254_fp_from_canon(&u.c1, l);
        bn254_fp2_sqr(&u2, &u);
        CHECK(bn254_fp2_sqrt(&v, &u2));
        bn254_fp2_sqr(&v, &v);
        CHECK(bn254_fp2_eq(&v, &u2));
    }
}

TEST(ff, sqrt) {
    for (int it = 0; it < test_iters(50); it++) {
        uint64_t l[6];
        pick(l, 6, fp_MODULUS, it < 8 ? it : 8);
        fp x, s, r;
        fp_from_canon(&x, l);
        fp_sqr(&s, &x);
        CHECK(fp_sqrt(&r, &s));
        fp_sqr(&r, &r);
        CHECK(fp_eq(&r, &s));
        CHECK_EQ_INT(fp_sqrt(&r, &x), fp_legendre(&x) >= 0);
        uint64_t k[4];
        pick(k, 4, fr_MODULUS, it < 8 ? it : 8);
        fr a, b, c;
        fr_from_canon(&a, k);
        fr_sqr(&b, &a);
        CHECK(fr_sqrt(&c, &b));
        fr_sqr(&c, &c);
        CHECK(fr_eq(&c, &b));
        CHECK_EQ_INT(fr_sqrt(&c, &a), fr_legendre(&a) >= 0);
        /* Fp2 */
        fp2 u, u2, v;
        pick(l, 6, fp_MODULUS, 8); fp_from_canon(&u.c0, l);
        pick(l, 6, fp_MODULUS, it < 8 ? it : 8); fp_from_canon(&u.c1, l);
        fp2_sqr(&u2, &u);
        CHECK(fp2_sqrt(&v, &u2));
        fp2_sqr(&v, &v);
        CHECK(fp2_eq(&v, &u2));
    }
}
#else
TEST_WITHOUT_GMP(ff, fp_ops_vs_gmp)
TEST_WITHOUT_GMP(ff, fr_ops_vs_gmp)
TEST_WITHOUT_GMP(ff, bn254_fp_ops_vs_gmp)
TEST_WITHOUT_GMP(ff, bn254_fr_ops_vs_gmp)
TEST_WITHOUT_GMP(ff, bn254_sqrt)
TEST_WITHOUT_GMP(ff, sqrt)
#endif

TEST(ff, fp2_field_laws) {
    for (int it = 0; it < test_iters(100); it++) {
        fp2 a, b, c, t0, t1, t2;
        uint8_t buf[48];
        fp *comps[6] = {&a.c0, &a.c1, &b.c0, &b.c1, &c.c0, &c.c1};
        for (int i = 0; i < 6; i++) { test_rand_bytes(buf, sizeof buf); fp_from_bytes_wide_le(comps[i], buf, sizeof buf); }
        /* (a*b)*c == a*(b*c), a*(b+c) == a*b + a*c, a^2 == a*a, a * a^-1 == 1 */
        fp2_mul(&t0, &a, &b); fp2_mul(&t0, &t0, &c);
        fp2_mul(&t1, &b, &c); fp2_mul(&t1, &a, &t1);
        CHECK(fp2_eq(&t0, &t1));
        fp2_add(&t0, &b, &c); fp2_mul(&t0, &a, &t0);
        fp2_mul(&t1, &a, &b); fp2_mul(&t2, &a, &c); fp2_add(&t1, &t1, &t2);
        CHECK(fp2_eq(&t0, &t1));
        fp2_sqr(&t0, &a); fp2_mul(&t1, &a, &a);
        CHECK(fp2_eq(&t0, &t1));
        fp2_inv(&t0, &a); fp2_mul(&t0, &t0, &a);
        fp2 tv;
        fp2_inv(&t1, &a);
        fp2_inv_vartime(&tv, &a);
        CHECK(fp2_eq(&tv, &t1));
        CHECK(fp2_is_one(&t0));
        /* u^2 = -1 */
        fp2 u; fp_zero(&u.c0); fp_one(&u.c1);
        fp2_sqr(&t0, &u);
        fp2_one(&t1); fp2_neg(&t1, &t1);
        CHECK(fp2_eq(&t0, &t1));
    }
}

TEST(ff, roots_of_unity) {
    /* 7^t and 5^t have order exactly 2^32 */
    const uint64_t r7[4] = BLS12_381_FR_ROOT_7_CANON, r5[4] = BLS12_381_FR_ROOT_5_CANON;
    const uint64_t *roots[2] = {r7, r5};
    for (int k = 0; k < 2; k++) {
        fr w;
        fr_from_canon(&w, roots[k]);
        for (int i = 0; i < 31; i++) fr_sqr(&w, &w);
        CHECK(!fr_is_one(&w));
        fr_sqr(&w, &w);
        CHECK(fr_is_one(&w));
    }
}

/* ---- asm (src/ff/mont_x86.c) vs generic C ------------------------------------------------- */
#ifdef CUZK_HAVE_GMP
/* The oracle tests above, again with the generic C forced (they ran on the asm path where the CPU
 * has BMI2+ADX). */
TEST(ff, generic_ops_vs_gmp) {
    ff_force_generic(true);
    test_ff_fp_ops_vs_gmp();
    test_ff_fr_ops_vs_gmp();
    test_ff_sqrt();
    test_ff_bn254_fp_ops_vs_gmp();
    test_ff_bn254_fr_ops_vs_gmp();
    test_ff_bn254_sqrt();
    ff_force_generic(false);
}
#else
TEST_WITHOUT_GMP(ff, generic_ops_vs_gmp)
#endif

/* Edge operands (all reduced mod m): 0, 1, 2, m-1, m-2, (m-1)/2, (m+1)/2, R mod m, R^2 mod m,
 * 2^k and m - 2^k, single all-ones limbs, all-ones with one zero limb, 2^(64n)-1, alternating
 * limbs; every pattern reduced with F_mod. Returns the count written (at most cap). */
#define EDGE_VALUES(F, N)                                                                    \
    static int F##_edges(uint64_t (*out)[N], int cap) {                                     \
        int k = 0;                                                                          \
        uint64_t v[N];                                                                      \
        _Static_assert(N <= 6, "limbs");                                                    \
        for (int pat = 0; pat < 3 * 64 * N + 64 && k < cap; pat++) {                        \
            memset(v, 0, sizeof v);                                                         \
            int idx = pat % (64 * N), kind = pat / (64 * N);                                \
            if (kind < 2 && idx % 13 != 0 && idx < 64 * N - 8) continue;                    \
            if (kind == 0) v[idx / 64] = 1ull << (idx % 64);                   /* 2^idx */   \
            else if (kind == 1) {                                               /* m-2^idx */ \
                uint64_t t[N] = {0}; t[idx / 64] = 1ull << (idx % 64);                      \
                F##_mod(t, t);                                                              \
                mont_u128 bw = 0;                                                           \
                for (int i = 0; i < N; i++) {                                               \
                    mont_u128 d = (mont_u128)F##_MODULUS[i] - t[i] - (uint64_t)bw;          \
                    v[i] = (uint64_t)d; bw = (d >> 64) & 1;                                 \
                }                                                                           \
                if (!F##_is_canon(v)) continue;                                             \
            } else {                                                                        \
                int s = idx % 16;                                                           \
                if (idx >= 16) break;                                                       \
                switch (s) {                                                                \
                case 0: break;                                                              \
                case 1: v[0] = 1; break;                                                    \
                case 2: v[0] = 2; break;                                                    \
                case 3: memcpy(v, F##_MODULUS, sizeof v); v[0] -= 1; break;                 \
                case 4: memcpy(v, F##_MODULUS, sizeof v); v[0] -= 2; break;                 \
                case 5: case 6:                                                             \
                    memcpy(v, F##_MODULUS, sizeof v);                                       \
                    if (s == 6) v[0] += 1; /* m odd: no carry */                            \
                    for (int i = 0; i < N; i++) v[i] = (v[i] >> 1) | (i + 1 < N ? v[i + 1] << 63 : 0); \
                    break;                                                                  \
                case 7: memcpy(v, F##_R_, sizeof v); break;                                 \
                case 8: memcpy(v, F##_R2_, sizeof v); break;                                \
                case 9: memset(v, 0xff, sizeof v); break;                                   \
                case 10: for (int i = 0; i < N; i++) v[i] = i % 2 ? ~0ull : 0; break;       \
                case 11: for (int i = 0; i < N; i++) v[i] = i % 2 ? 0 : ~0ull; break;       \
                case 12: memset(v, 0xff, sizeof v); v[N - 1] >>= 2; break;                  \
                case 13: memset(v, 0xff, sizeof v); v[0] = 0; break;                        \
                case 14: memset(v, 0xff, sizeof v); v[N / 2] = 0; break;                    \
                case 15: v[N - 1] = ~0ull; break;                                           \
                }                                                                           \
            }                                                                               \
            F##_mod(v, v);                                                                  \
            memcpy(out[k++], v, sizeof v);                                                  \
        }                                                                                   \
        return k;                                                                           \
    }
EDGE_VALUES(fp, 6)
EDGE_VALUES(fr, 4)
EDGE_VALUES(bn254_fp, 4)
EDGE_VALUES(bn254_fr, 4)

/* F_mul / F_sqr on the asm path equal the generic C bit for bit: every pair of edge values,
 * random pairs, and aliased operands (r = a, r = b, a = b). Skips where the CPU has no asm path. */
#define ASM_VS_GENERIC(F, N)                                                                 \
    static void F##_asm_vs_generic(void) {                                                  \
        static uint64_t e[256][N];                                                          \
        int ne = F##_edges(e, 256);                                                         \
        CHECK(ne > 40);                                                                     \
        int nr = test_iters(20000);                                                         \
        int bad = 0;                                                                        \
        for (int it = 0; it < ne * ne + nr && bad < 5; it++) {                              \
            F x, y, z0, z1, s0, s1, w0, w1;                                                 \
            if (it < ne * ne) {                                                             \
                memcpy(x.l, e[it / ne], sizeof x.l);                                        \
                memcpy(y.l, e[it % ne], sizeof y.l);                                        \
            } else {                                                                        \
                test_rand_bytes(x.l, sizeof x.l); F##_mod(x.l, x.l);                        \
                test_rand_bytes(y.l, sizeof y.l); F##_mod(y.l, y.l);                        \
            }                                                                               \
            ff_force_generic(true);                                                         \
            F##_mul(&z0, &x, &y); F##_sqr(&s0, &x);                                         \
            w0 = x; F##_mul(&w0, &w0, &y); F##_mul(&w0, &y, &w0); F##_sqr(&w0, &w0);        \
            ff_force_generic(false);                                                        \
            F##_mul(&z1, &x, &y); F##_sqr(&s1, &x);                                         \
            w1 = x; F##_mul(&w1, &w1, &y); F##_mul(&w1, &y, &w1); F##_sqr(&w1, &w1);        \
            bool ok = F##_eq(&z0, &z1) && F##_eq(&s0, &s1) && F##_eq(&w0, &w1) &&           \
                      F##_is_canon(z1.l) && F##_is_canon(s1.l) && F##_is_canon(w1.l);       \
            if (!ok) {                                                                      \
                bad++;                                                                      \
                CHECK_MSG(ok, #F " asm != generic at case %d (edge pair %d,%d)", it,        \
                          it < ne * ne ? it / ne : -1, it < ne * ne ? it % ne : -1);        \
            }                                                                               \
        }                                                                                   \
    }
ASM_VS_GENERIC(fp, 6)
ASM_VS_GENERIC(fr, 4)
ASM_VS_GENERIC(bn254_fp, 4)
ASM_VS_GENERIC(bn254_fr, 4)

TEST(ff, asm_vs_generic) {
    ff_force_generic(false);
    if (!ff_asm_active()) SKIP("no asm path on this CPU/architecture (or CUZK_NO_ASM set)");
    fp_asm_vs_generic();
    fr_asm_vs_generic();
    bn254_fp_asm_vs_generic();
    bn254_fr_asm_vs_generic();
    CHECK(ff_asm_active());
}

/* ---- the 8-lane IFMA arithmetic (src/ff/vec52.h) vs the scalar field ---------------------- */
#ifdef FF_VEC52
/* Lanes of every edge pair and of random pairs, 8 at a time: v52_add / v52_sub equal F_add /
 * F_sub, v52_mul(a, b') with b' = 16 b mod m (the R'-form) equals F_mul(a, b), v52_mul of two
 * R'-form values gives the R'-form of the product, and the AoS load/store round trip is exact.
 * The scalar field is the oracle (itself checked against GMP above). */
/* v += m as 256-bit integers (v < m < 2^255: no overflow) */
static void mont_add_raw_(uint64_t v[4], const uint64_t m[4]) {
    mont_u128 c = 0;
    for (int i = 0; i < 4; i++) {
        c += (mont_u128)v[i] + m[i];
        v[i] = (uint64_t)c;
        c >>= 64;
    }
}
/* v < 2m */
static bool lt_2m_(const uint64_t v[4], const uint64_t m[4]) {
    uint64_t m2[4] = {m[0], m[1], m[2], m[3]};
    mont_add_raw_(m2, m);
    for (int i = 3; i >= 0; i--)
        if (v[i] != m2[i]) return v[i] < m2[i];
    return false;
}
#define VEC52_VS_SCALAR(F, P)                                                                \
    V52_TARGET static void F##_vec52_vs_scalar(void) {                                       \
        static uint64_t e[256][4];                                                           \
        int ne = F##_edges(e, 256);                                                          \
        CHECK(ne > 40);                                                                      \
        v52_mod M;                                                                           \
        v52_mod_init(&M, F##_MODULUS, P##_INV);                                              \
        long total = (long)ne * ne + test_iters(20000);                                      \
        int bad = 0;                                                                         \
        for (long base = 0; base < total && bad < 5; base += 8) {                            \
            F x[8], y[8], y16[8], r[8], want[8];                                             \
            for (int l = 0; l < 8; l++) {                                                    \
                long it = base + l;                                                          \
                if (it < (long)ne * ne) {                                                    \
                    memcpy(x[l].l, e[it / ne], 32);                                          \
                    memcpy(y[l].l, e[it % ne], 32);                                          \
                } else {                                                                     \
                    test_rand_bytes(x[l].l, 32); F##_mod(x[l].l, x[l].l);                    \
                    test_rand_bytes(y[l].l, 32); F##_mod(y[l].l, y[l].l);                    \
                }                                                                            \
                y16[l] = y[l];                                                               \
                for (int k = 0; k < 4; k++) F##_dbl(&y16[l], &y16[l]);                       \
            }                                                                                \
            v52 X, Y, Y16, R;                                                                \
            v52_load_aos(&X, x[0].l);                                                        \
            v52_load_aos(&Y, y[0].l);                                                        \
            v52_load_aos(&Y16, y16[0].l);                                                    \
            v52_store_aos(r[0].l, &X);                                                       \
            bool ok = memcmp(r, x, sizeof x) == 0;                                           \
            v52_add(&R, &X, &Y, &M);                                                         \
            v52_store_aos(r[0].l, &R);                                                       \
            for (int l = 0; l < 8; l++) { F##_add(&want[l], &x[l], &y[l]); }                 \
            ok = ok && memcmp(r, want, sizeof r) == 0;                                       \
            v52_sub(&R, &X, &Y, &M);                                                         \
            v52_store_aos(r[0].l, &R);                                                       \
            for (int l = 0; l < 8; l++) { F##_sub(&want[l], &x[l], &y[l]); }                 \
            ok = ok && memcmp(r, want, sizeof r) == 0;                                       \
            v52_mul(&R, &X, &Y16, &M);                                                       \
            v52_store_aos(r[0].l, &R);                                                       \
            for (int l = 0; l < 8; l++) { F##_mul(&want[l], &x[l], &y[l]); }                 \
            ok = ok && memcmp(r, want, sizeof r) == 0;                                       \
            /* R' x R' -> R': (16x)(16y) / 2^260 = 16 xy */                                   \
            F x16[8];                                                                        \
            for (int l = 0; l < 8; l++) {                                                    \
                x16[l] = x[l];                                                               \
                for (int k = 0; k < 4; k++) F##_dbl(&x16[l], &x16[l]);                       \
                F##_mul(&want[l], &x[l], &y[l]);                                             \
                for (int k = 0; k < 4; k++) F##_dbl(&want[l], &want[l]);                     \
            }                                                                                \
            v52_load_aos(&X, x16[0].l);                                                      \
            v52_mul(&R, &X, &Y16, &M);                                                       \
            v52_store_aos(r[0].l, &R);                                                       \
            ok = ok && memcmp(r, want, sizeof r) == 0;                                       \
            /* lazy forms (moduli < 2^254): x + m and y + m where they stay below 2m */        \
            if (v52_lazy_ok(F##_MODULUS)) {                                                  \
                F xl[8], yl[8];                                                              \
                for (int l = 0; l < 8; l++) {                                                \
                    xl[l] = x[l];                                                            \
                    yl[l] = y[l];                                                            \
                    if (l & 1) mont_add_raw_(xl[l].l, F##_MODULUS);                           \
                    if (l & 2) mont_add_raw_(yl[l].l, F##_MODULUS);                           \
                }                                                                            \
                v52 XL, YL, T;                                                               \
                v52_load_aos(&XL, xl[0].l);                                                  \
                v52_load_aos(&YL, yl[0].l);                                                  \
                v52_shl4(&T, &XL);                                                           \
                v52_mul_lazy(&R, &T, &YL, &M);                                               \
                F lz[8];                                                                     \
                v52_store_aos(lz[0].l, &R);                                                  \
                for (int l = 0; l < 8; l++) ok = ok && lt_2m_(lz[l].l, F##_MODULUS);          \
                v52_canon(&R, &R, &M);                                                       \
                v52_store_aos(r[0].l, &R);                                                   \
                for (int l = 0; l < 8; l++) F##_mul(&want[l], &x[l], &y[l]);                 \
                ok = ok && memcmp(r, want, sizeof r) == 0;                                   \
                v52_sub_lazy(&R, &XL, &YL, &M);                                              \
                v52_store_aos(lz[0].l, &R);                                                  \
                for (int l = 0; l < 8; l++) ok = ok && lt_2m_(lz[l].l, F##_MODULUS);          \
                v52_canon(&R, &R, &M);                                                       \
                v52_store_aos(r[0].l, &R);                                                   \
                for (int l = 0; l < 8; l++) F##_sub(&want[l], &x[l], &y[l]);                 \
                ok = ok && memcmp(r, want, sizeof r) == 0;                                   \
            }                                                                                \
            CHECK_MSG(ok, #F " vec52 != scalar in lanes %ld..%ld", base, base + 7);          \
            if (!ok) bad++;                                                                  \
        }                                                                                    \
    }
VEC52_VS_SCALAR(fr, BLS12_381_FR)
VEC52_VS_SCALAR(bn254_fp, BN254_FP)
VEC52_VS_SCALAR(bn254_fr, BN254_FR)

TEST(ff, vec52_vs_scalar) {
    ff_force_generic(false);
    if (!ff_vec52_active()) SKIP("no AVX-512 IFMA on this CPU (or CUZK_NO_ASM or CUZK_NO_IFMA set): the 8-lane path is not used here");
    fr_vec52_vs_scalar();
    bn254_fp_vec52_vs_scalar();
    bn254_fr_vec52_vs_scalar();
}
#else
TEST(ff, vec52_vs_scalar) { SKIP("not x86-64: the 8-lane IFMA path does not exist here"); }
#endif
