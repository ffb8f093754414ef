/* Random field elements and points for tests, from the run's seeded generator (test.h):
 * uniform Fr (64 random bytes reduced: bias < 2^-250), and G1/G2 points in the prime-order
 * subgroup (the generator times a uniform scalar). Shared by the suites that need them. */
#ifndef CUZK_TESTS_TEST_RAND_H
#define CUZK_TESTS_TEST_RAND_H

#include "curves/bls12_381/curve.h"
#include "test.h"

static inline void test_rand_fr(fr *out) {
    uint8_t b[64];
    test_rand_bytes(b, sizeof b);
    fr_from_bytes_wide_le(out, b, sizeof b);
}

static inline void test_rand_g1(g1_affine *out) {
    g1_affine g;
    g1_jacobian gj, r;
    fr k;
    g1_generator(&g);
    g1_jacobian_from_affine(&gj, &g);
    test_rand_fr(&k);
    g1_mul_fr_vartime(&r, &gj, &k);
    g1_jacobian_to_affine(out, &r);
}

static inline void test_rand_g2(g2_affine *out) {
    g2_affine g;
    g2_jacobian gj, r;
    fr k;
    g2_generator(&g);
    g2_jacobian_from_affine(&gj, &g);
    test_rand_fr(&k);
    g2_mul_fr_vartime(&r, &gj, &k);
    g2_jacobian_to_affine(out, &r);
}

#endif
