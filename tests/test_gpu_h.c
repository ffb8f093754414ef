/* gpu_h suite: the fused H step on the device (src/cuda/gpu.h: gpu_h_bellperson_async,
 * gpu_h_snarkjs_async through the synchronous gpu_h, gpu_h_bellperson_roots) against the CPU reference h_bellperson /
 * h_snarkjs of src/poly/ntt.h, element for element, on fresh random and edge inputs. Skips without
 * CUDA at build time or without a device at run time. */
#include "test.h"

#ifndef CUZK_HAVE_CUDA

TEST(gpu_h, available) { SKIP(TEST_NO_GPU); }

#else

#include <stdlib.h>

#include "cuda/gpu.h"
#include "gpu_test.h"
#include "curves/bls12_381/curve.h"


static void fill_fr(fr *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint64_t t[4];
        test_rand_bytes(t, sizeof t);
        fr_mod(v[i].l, t);
    }
}

/* conv: GPU_ROOTS_BELLPERSON, GPU_ROOTS_SNARKJS, or CONV_BELLPERSON_ON_5 (the bellperson H on
 * snarkjs's roots: gpu_h_bellperson_roots, for snarkjs's MPC export, against h_bellperson over an
 * NTT_ROOTS_SNARKJS domain).
 * kind 0: random; 1: all zero; 2: edge values (0, 1, -1, r-2 as raw limbs) mixed with random;
 * 3: a satisfied system (c = a*b on the rows, zero padding above n): h_{m-1} = 0 */
#define CONV_BELLPERSON_ON_5 2
static void h_case(int log_m, int conv, int kind) {
    const size_t m = (size_t)1 << log_m;
    fr *a = malloc(m * sizeof *a), *b = malloc(m * sizeof *b), *c = malloc(m * sizeof *c);
    fr *ga = malloc(m * sizeof *ga), *gb = malloc(m * sizeof *gb), *gc = malloc(m * sizeof *gc);
    REQUIRE(a && b && c && ga && gb && gc);
    if (kind == 1) {
        memset(a, 0, m * sizeof *a);
        memset(b, 0, m * sizeof *b);
        memset(c, 0, m * sizeof *c);
    } else {
        fill_fr(a, m);
        fill_fr(b, m);
        fill_fr(c, m);
    }
    if (kind == 2) {
        static const uint64_t r[4] = BLS12_381_FR_MODULUS;
        for (size_t i = 0; i < m; i += 3) {
            fr *v = (i / 3) % 3 == 0 ? a : (i / 3) % 3 == 1 ? b : c;
            switch ((i / 9) % 4) {
            case 0: fr_zero(&v[i]); break;
            case 1: fr_one(&v[i]); break;
            case 2: fr_one(&v[i]); fr_neg(&v[i], &v[i]); break;
            default: memcpy(v[i].l, r, sizeof r); v[i].l[0] -= 2; break;
            }
        }
    }
    if (kind == 3) {
        const size_t n = m - m / 4;
        for (size_t i = 0; i < m; i++) {
            if (i < n) fr_mul(&c[i], &a[i], &b[i]);
            else { fr_zero(&a[i]); fr_zero(&b[i]); fr_zero(&c[i]); }
        }
    }
    memcpy(ga, a, m * sizeof *a);
    memcpy(gb, b, m * sizeof *b);
    memcpy(gc, c, m * sizeof *c);
    ntt_domain d;
    REQUIRE(ntt_domain_init(&d, log_m, conv != GPU_ROOTS_BELLPERSON ? NTT_ROOTS_SNARKJS : NTT_ROOTS_BELLPERSON) == CUZK_OK);
    if (conv == GPU_ROOTS_SNARKJS) h_snarkjs(&d, a, b, c, 0);
    else h_bellperson(&d, a, b, c, 0);
    cuzk_error e = {0};
    cuzk_status st = conv == CONV_BELLPERSON_ON_5
                         ? gpu_h_bellperson_roots(GPU_ROOTS_SNARKJS, (struct fr *)ga, (struct fr *)gb, (struct fr *)gc, log_m, &e)
                         : gpu_h((gpu_roots)conv, (struct fr *)ga, (struct fr *)gb, (struct fr *)gc, log_m, &e);
    CHECK_MSG(st == CUZK_OK, "gpu_h log_m %d: %s (%s)", log_m, cuzk_status_str(st), e.msg);
    if (st == CUZK_OK) {
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < m; i++)
            if (!fr_eq(&a[i], &ga[i])) { if (!bad) first = i; bad++; }
        CHECK_MSG(bad == 0, "gpu_h %s log_m %d kind %d: %zu of %zu wrong, first at %zu",
                  conv == GPU_ROOTS_SNARKJS ? "snarkjs" : conv == CONV_BELLPERSON_ON_5 ? "bellperson on 5^t" : "bellperson",
                  log_m, kind, bad, m, first);
        if (kind == 3 && conv != GPU_ROOTS_SNARKJS) CHECK(fr_is_zero(&ga[m - 1]));
    }
    ntt_domain_free(&d);
    free(a); free(b); free(c); free(ga); free(gb); free(gc);
}

TEST(gpu_h, bellperson_1_16) {
    NEED_GPU();
    for (int log_m = 1; log_m <= 16; log_m++) h_case(log_m, GPU_ROOTS_BELLPERSON, 0);
}

TEST(gpu_h, snarkjs_1_16) {
    NEED_GPU();
    for (int log_m = 1; log_m <= 16; log_m++) h_case(log_m, GPU_ROOTS_SNARKJS, 0);
}

/* the bellperson H on snarkjs's roots (MPC parameters from `snarkjs zkey export bellman`) */
TEST(gpu_h, bellperson_on_snarkjs_roots_1_16) {
    NEED_GPU();
    for (int log_m = 1; log_m <= 16; log_m++) h_case(log_m, CONV_BELLPERSON_ON_5, log_m % 4 == 3 ? 3 : 0);
    h_case(20, CONV_BELLPERSON_ON_5, 3);
}

TEST(gpu_h, edge_values) {
    NEED_GPU();
    static const int sizes[] = {1, 2, 5, 11, 12, 13};
    for (int conv = 0; conv < 3; conv++)
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
            for (int kind = 1; kind <= 3; kind++) h_case(sizes[k], conv, kind);
}

/* sizes with three passes per transform (> 2^20) and around the pass boundaries */
TEST(gpu_h, large) {
    NEED_GPU();
    static const int sizes[] = {17, 19, 20, 21};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        h_case(sizes[k], GPU_ROOTS_BELLPERSON, sizes[k] == 20 ? 3 : 0);
        h_case(sizes[k], GPU_ROOTS_SNARKJS, 0);
    }
}

TEST(gpu_h, bad_args) {
    NEED_GPU();
    cuzk_error e = {0};
    fr x[2];
    CHECK(gpu_h_bellperson_async(NULL, NULL, NULL, NULL, 4, &e) == CUZK_ERR_ARG);
    CHECK(gpu_h_snarkjs_async(NULL, NULL, NULL, NULL, 4, &e) == CUZK_ERR_ARG);
    CHECK(gpu_h_bellperson_roots_async(NULL, NULL, NULL, NULL, 4, GPU_ROOTS_SNARKJS, &e) == CUZK_ERR_ARG);
    CHECK(gpu_h_bellperson_roots(GPU_ROOTS_SNARKJS, (struct fr *)x, (struct fr *)x, (struct fr *)x, 29, &e) == CUZK_ERR_ARG);
    CHECK(gpu_h_bellperson_roots((gpu_roots)7, (struct fr *)x, (struct fr *)x, (struct fr *)x, 4, &e) == CUZK_ERR_ARG);
    CHECK(gpu_h(GPU_ROOTS_BELLPERSON, (struct fr *)x, (struct fr *)x, (struct fr *)x, 0, &e) == CUZK_ERR_ARG);
    CHECK(gpu_h(GPU_ROOTS_SNARKJS, (struct fr *)x, (struct fr *)x, (struct fr *)x, 29, &e) == CUZK_ERR_ARG);
    /* overlapping device vectors are refused before anything is enqueued */
    CHECK(gpu_h_bellperson_async(NULL, (struct fr *)x, (struct fr *)x, (struct fr *)(x + 1), 1, &e) == CUZK_ERR_ARG);
    printf("  H/NTT table cache: %zu bytes\n", gpu_h_cache_bytes());
}

#endif
