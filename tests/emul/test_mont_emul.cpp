/* The device field arithmetic of src/cuda/mont.cuh (mont_t: product, squaring, sum, difference,
 * negation, inversion, Montgomery conversions) and fp2_t (src/cuda/fields.cuh) checked against GMP
 * on the CPU, through the PTX emulation of tests/emul/ptx_emul.h: the same source the GPU runs,
 * compiled by the host compiler, for BLS12-381 and BN254, Fp and Fr. Fresh random inputs each run
 * (seed printed; CUZK_TEST_SEED=<n> replays) and edge values: 0, 1, 2, m - 1, m - 2, R mod m, words
 * of all ones below m, and 2^(32k) for every word k.
 *
 *   cuzk_mont_emul_test [COUNT]   COUNT random pairs a field (default 4000); exit 0 when every check
 *                                 holds, 1 otherwise (each failure printed)
 *
 * Catches, without a device: a wrong carry or bound in the even/odd product or the squaring, a
 * reduction constant read from the wrong place (the constant-memory form of BLS12-381's Fr),
 * a branch of add/sub that keeps the wrong candidate. */
#include "emul/ptx_emul.h"
#include "emul/emul_test.h"

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/fields.cuh"
#include "curves/bls12_381/constants.h"
#include "curves/bn254/constants.h"

namespace cuzk_dev {
CUZK_DEV_PARAMS(emul_bls_fp, BLS12_381_FP, 6)
CUZK_DEV_PARAMS(emul_bls_fr, BLS12_381_FR, 4)
CUZK_DEV_PARAMS(emul_bn_fp, BN254_FP, 4)
CUZK_DEV_PARAMS(emul_bn_fr, BN254_FR, 4)
}  // namespace cuzk_dev

using namespace cuzk_dev;

namespace {

using emul_test::next64;

template <class F>
void to_mpz(mpz_t out, const F &a) { mpz_import(out, F::N, -1, sizeof(uint32_t), 0, 0, a.l); }
template <class F>
F from_mpz(const mpz_t v) {
    F r = F::zero();
    size_t cnt = 0;
    mpz_export(r.l, &cnt, -1, sizeof(uint32_t), 0, 0, v);
    return r;
}

template <class P>
struct field_check {
    typedef mont_t<P> F;
    const char *name;
    mpz_t m, rinv, r_mod; /* the modulus, R^-1 mod m, R mod m */

    explicit field_check(const char *n) : name(n) {
        mpz_inits(m, rinv, r_mod, NULL);
        const F mm = F::modulus_minus(0);
        to_mpz(m, mm);
        mpz_set_ui(r_mod, 1);
        mpz_mul_2exp(r_mod, r_mod, 32 * F::N);
        mpz_invert(rinv, r_mod, m);
        mpz_mod(r_mod, r_mod, m);
    }
    ~field_check() { mpz_clears(m, rinv, r_mod, NULL); }

    void expect(const char *what, const F &got, const mpz_t want, const F &a, const F &b) {
        emul_test::checks++;
        mpz_t g;
        mpz_init(g);
        to_mpz(g, got);
        if (mpz_cmp(g, want) != 0) {
            emul_test::failed++;
            if (emul_test::failed <= 20) {
                gmp_fprintf(stderr, "FAIL %s %s\n  a = %#Zx\n", name, what, (to_mpz(g, a), g));
                gmp_fprintf(stderr, "  b = %#Zx\n", (to_mpz(g, b), g));
                to_mpz(g, got);
                gmp_fprintf(stderr, "  got %#Zx\n  want %#Zx\n", g, want);
            }
        }
        mpz_clear(g);
    }

    F random_elem() {
        mpz_t v;
        mpz_init(v);
        F r;
        for (int i = 0; i < F::N; i++) r.l[i] = (uint32_t)next64();
        to_mpz(v, r);
        mpz_mod(v, v, m);
        r = from_mpz<F>(v);
        mpz_clear(v);
        return r;
    }

    /* every operation on (a, b), both < m */
    void check_pair(const F &a, const F &b, bool with_inv) {
        mpz_t A, B, w;
        mpz_inits(A, B, w, NULL);
        to_mpz(A, a);
        to_mpz(B, b);
        mpz_mul(w, A, B);
        mpz_mul(w, w, rinv);
        mpz_mod(w, w, m);
        expect("a*b/R", a * b, w, a, b);
        mpz_mul(w, A, A);
        mpz_mul(w, w, rinv);
        mpz_mod(w, w, m);
        expect("a^2/R (sqr)", a.sqr(), w, a, b);
        mpz_add(w, A, B);
        mpz_mod(w, w, m);
        expect("a+b", a + b, w, a, b);
        mpz_sub(w, A, B);
        mpz_mod(w, w, m);
        expect("a-b", a - b, w, a, b);
        mpz_neg(w, A);
        mpz_mod(w, w, m);
        expect("-a", -a, w, a, b);
        mpz_mul_2exp(w, A, 1);
        mpz_mod(w, w, m);
        expect("2a", a.dbl(), w, a, b);
        /* conversions: from_canon(a) = a R mod m, to_canon(a) = a / R */
        mpz_mul(w, A, r_mod);
        mpz_mod(w, w, m);
        expect("from_canon", F::from_canon(a), w, a, b);
        mpz_mul(w, A, rinv);
        mpz_mod(w, w, m);
        expect("to_canon", a.to_canon(), w, a, b);
        emul_test::checks++;
        if ((a == b) != (mpz_cmp(A, B) == 0) || a.is_zero() != (mpz_sgn(A) == 0)) emul_test::failed++;
        if (with_inv) {
            /* Montgomery inverse: inv(a) = (a/R)^-1 R^2 ... as mont_t stores x R, inv gives a^(m-2)
             * in the Montgomery domain: the stored word of (x R)^-1 R^2 = x^-1 R; check a * inv(a) = R mod m
             * (the Montgomery one), 0 -> 0 */
            const F ai = F::inv(a);
            if (mpz_sgn(A) == 0) mpz_set_ui(w, 0);
            else mpz_set(w, r_mod);
            expect("a*inv(a)", a * ai, w, a, b);
        }
        mpz_clears(A, B, w, NULL);
    }

    void run(long count) {
        F edges[64];
        int ne = 0;
        mpz_t v;
        mpz_init(v);
        const uint32_t small[] = {0, 1, 2, 3};
        for (uint32_t s : small) {
            F e = F::zero();
            e.l[0] = s;
            edges[ne++] = e;
        }
        edges[ne++] = F::modulus_minus(1);
        edges[ne++] = F::modulus_minus(2);
        edges[ne++] = F::modulus_minus(3);
        edges[ne++] = F::one();
        for (int k = 0; k < F::N; k++) { /* 2^(32k) mod m */
            mpz_set_ui(v, 1);
            mpz_mul_2exp(v, v, 32 * k);
            mpz_mod(v, v, m);
            edges[ne++] = from_mpz<F>(v);
        }
        for (int k = 1; k < F::N; k++) { /* the low k words all ones (below m: m > 2^(32(N-1))) */
            F e = F::zero();
            for (int i = 0; i < k; i++) e.l[i] = 0xffffffffu;
            edges[ne++] = e;
        }
        { /* m - R mod m... and m >> 1 */
            mpz_fdiv_q_2exp(v, m, 1);
            edges[ne++] = from_mpz<F>(v);
            mpz_sub(v, m, r_mod);
            mpz_mod(v, v, m);
            edges[ne++] = from_mpz<F>(v);
        }
        mpz_clear(v);
        for (int i = 0; i < ne; i++)
            for (int j = 0; j < ne; j++) check_pair(edges[i], edges[j], j == 0);
        for (long t = 0; t < count; t++) {
            const F a = random_elem(), b = random_elem();
            check_pair(a, b, t < 64);
            /* a random element against every edge, both ways */
            const F e = edges[t % ne];
            check_pair(a, e, false);
            check_pair(e, a, false);
        }
    }
};

/* fp2_t over the emulated Fp against GMP: (a0 + a1 u)(b0 + b1 u) with u^2 = -1, its square, and
 * the inverse through the norm */
template <class P>
void check_fp2(const char *name, field_check<P> &fc, long count) {
    typedef mont_t<P> F;
    typedef fp2_t<F> F2;
    mpz_t a0, a1, b0, b1, t, u, w0, w1;
    mpz_inits(a0, a1, b0, b1, t, u, w0, w1, NULL);
    for (long i = 0; i < count; i++) {
        F2 a, b;
        a.c0 = fc.random_elem();
        a.c1 = fc.random_elem();
        b.c0 = fc.random_elem();
        b.c1 = i % 7 == 0 ? F::zero() : fc.random_elem();
        to_mpz(a0, a.c0); to_mpz(a1, a.c1); to_mpz(b0, b.c0); to_mpz(b1, b.c1);
        /* the stored words are x R: a*b/R per component, (a0 b0 - a1 b1, a0 b1 + a1 b0) / R */
        mpz_mul(t, a0, b0); mpz_mul(u, a1, b1); mpz_sub(w0, t, u);
        mpz_mul(w0, w0, fc.rinv); mpz_mod(w0, w0, fc.m);
        mpz_mul(t, a0, b1); mpz_mul(u, a1, b0); mpz_add(w1, t, u);
        mpz_mul(w1, w1, fc.rinv); mpz_mod(w1, w1, fc.m);
        const F2 p = a * b;
        fc.expect("fp2 a*b c0", p.c0, w0, a.c0, b.c0);
        fc.expect("fp2 a*b c1", p.c1, w1, a.c1, b.c1);
        mpz_mul(t, a0, a0); mpz_mul(u, a1, a1); mpz_sub(w0, t, u);
        mpz_mul(w0, w0, fc.rinv); mpz_mod(w0, w0, fc.m);
        mpz_mul(w1, a0, a1); mpz_mul_2exp(w1, w1, 1);
        mpz_mul(w1, w1, fc.rinv); mpz_mod(w1, w1, fc.m);
        const F2 s = a.sqr();
        fc.expect("fp2 a^2 c0", s.c0, w0, a.c0, a.c1);
        fc.expect("fp2 a^2 c1", s.c1, w1, a.c0, a.c1);
        if (i < 16) {
            const F2 ai = F2::inv(a), one = a * ai;
            fc.expect("fp2 a*inv(a) c0", one.c0, fc.r_mod, a.c0, a.c1);
            mpz_set_ui(t, 0);
            fc.expect("fp2 a*inv(a) c1", one.c1, t, a.c0, a.c1);
        }
    }
    (void)name;
    mpz_clears(a0, a1, b0, b1, t, u, w0, w1, NULL);
}

}  // namespace

int main(int argc, char **argv) {
    const long count = argc > 1 ? atol(argv[1]) : 4000;
    char what[64];
    snprintf(what, sizeof what, ", %ld random pairs a field", count);
    emul_test::seed("cuzk_mont_emul_test", what);
    struct {
        const char *name;
        long before_checks, before_failed;
    } rows[4];
    int nr = 0;
#define FIELD(P, NAME)                                                                     \
    do {                                                                                   \
        rows[nr] = {NAME, emul_test::checks, emul_test::failed};                                             \
        field_check<P> fc(NAME);                                                           \
        fc.run(count);                                                                     \
        if (!strcmp(NAME + strlen(NAME) - 2, "Fp")) check_fp2<P>(NAME, fc, count / 4 + 8); \
        printf("  %-14s %8ld checks, %ld failed\n", NAME, emul_test::checks - rows[nr].before_checks, \
               emul_test::failed - rows[nr].before_failed);                                         \
        nr++;                                                                              \
    } while (0)
    FIELD(emul_bls_fp, "BLS12-381 Fp");
    FIELD(emul_bls_fr, "BLS12-381 Fr");
    FIELD(emul_bn_fp, "BN254 Fp");
    FIELD(emul_bn_fr, "BN254 Fr");
#undef FIELD
    return emul_test::finish();
}
