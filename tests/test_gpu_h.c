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
#include "cuda/gpu_h_parked.h"
#include "gpu_test.h"
#include "curves/bls12_381/curve.h"


static void check_status(cuzk_status st, const cuzk_error *e, const char *what) {
    CHECK_MSG(st == CUZK_OK, "%s: %s (%s, cuda %d)", what, cuzk_status_str(st), e->msg, e->cuda_error);
}

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

/* The lean H (gpu_h_bellperson_parked_async: a, b on the device, c in page-locked host memory)
 * against the CPU's h_bellperson, on 7^t and 5^t roots; kind as h_case (0 random, 2 edge values,
 * 3 satisfied) */
static void h_parked_case(gpu_ctx *ctx, int log_m, gpu_roots roots, int kind) {
    const size_t m = (size_t)1 << log_m, bytes = m * sizeof(fr);
    fr *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes), *got = malloc(bytes), *hc = NULL;
    REQUIRE(a && b && c && got);
    fill_fr(a, m);
    fill_fr(b, m);
    fill_fr(c, m);
    if (kind == 2)
        for (size_t i = 0; i < m; i += 2) {
            fr *v = (i / 2) % 3 == 0 ? a : (i / 2) % 3 == 1 ? b : c;
            if ((i / 6) % 3 == 0) fr_zero(&v[i]);
            else if ((i / 6) % 3 == 1) fr_one(&v[i]);
            else { fr_one(&v[i]); fr_neg(&v[i], &v[i]); }
        }
    if (kind == 3)
        for (size_t i = 0; i < m; i++) {
            if (i < m - m / 4) fr_mul(&c[i], &a[i], &b[i]);
            else { fr_zero(&a[i]); fr_zero(&b[i]); fr_zero(&c[i]); }
        }
    cuzk_error e = {0};
    REQUIRE(gpu_host_alloc_pinned((void **)&hc, bytes, &e) == CUZK_OK);
    memcpy(hc, c, bytes);
    fr *d_a = NULL, *d_b = NULL;
    REQUIRE(gpu_buf_alloc(ctx, (void **)&d_a, bytes, &e) == CUZK_OK);
    REQUIRE(gpu_buf_alloc(ctx, (void **)&d_b, bytes, &e) == CUZK_OK);
    check_status(gpu_copy_h2d_async(ctx, d_a, a, bytes, &e), &e, "h2d a");
    check_status(gpu_copy_h2d_async(ctx, d_b, b, bytes, &e), &e, "h2d b");
    cuzk_status st = gpu_h_bellperson_parked_async(gpu_ctx_stream(ctx), (struct fr *)d_a, (struct fr *)d_b,
                                                   (const struct fr *)hc, log_m, roots, &e);
    CHECK_MSG(st == CUZK_OK, "parked H log_m %d: %s", log_m, e.msg);
    check_status(gpu_copy_d2h_async(ctx, got, d_a, bytes, &e), &e, "d2h a");
    check_status(gpu_sync(ctx, &e), &e, "sync");
    ntt_domain d;
    REQUIRE(ntt_domain_init(&d, log_m, roots == GPU_ROOTS_SNARKJS ? NTT_ROOTS_SNARKJS : NTT_ROOTS_BELLPERSON) == CUZK_OK);
    h_bellperson(&d, a, b, c, 0);
    if (st == CUZK_OK) {
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < m; i++)
            if (!fr_eq(&a[i], &got[i])) { if (!bad) first = i; bad++; }
        CHECK_MSG(bad == 0, "parked H %s log_m %d kind %d: %zu of %zu wrong, first at %zu",
                  roots == GPU_ROOTS_SNARKJS ? "5^t" : "7^t", log_m, kind, bad, m, first);
        if (kind == 3) CHECK(fr_is_zero(&got[m - 1]));
    }
    ntt_domain_free(&d);
    gpu_buf_free(ctx, d_b);
    gpu_buf_free(ctx, d_a);
    check_status(gpu_sync(ctx, &e), &e, "sync");
    gpu_host_free_pinned(hc);
    free(a); free(b); free(c); free(got);
}

TEST(gpu_h, parked_equals_cpu) {
    NEED_GPU();
    gpu_ctx *ctx = NULL;
    cuzk_error e = {0};
    REQUIRE(gpu_ctx_create(&ctx, 0, &e) == CUZK_OK);
    static const int sizes[] = {1, 2, 5, 11, 12, 13, 17, 20, 21};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        h_parked_case(ctx, sizes[k], GPU_ROOTS_BELLPERSON, (int)(k % 3 == 0 ? 0 : k % 3 == 1 ? 2 : 3));
        h_parked_case(ctx, sizes[k], GPU_ROOTS_SNARKJS, sizes[k] % 2 ? 3 : 0);
    }
    /* misuse: equal or overlapping device vectors, no host c, bad sizes */
    fr x[4];
    CHECK(gpu_h_bellperson_parked_async(gpu_ctx_stream(ctx), (struct fr *)x, (struct fr *)x, (struct fr *)x, 1,
                                        GPU_ROOTS_BELLPERSON, &e) == CUZK_ERR_ARG);
    CHECK(gpu_h_bellperson_parked_async(gpu_ctx_stream(ctx), (struct fr *)x, (struct fr *)(x + 1), (struct fr *)x, 1,
                                        GPU_ROOTS_BELLPERSON, &e) == CUZK_ERR_ARG);
    CHECK(gpu_h_bellperson_parked_async(gpu_ctx_stream(ctx), (struct fr *)x, (struct fr *)(x + 2), NULL, 1,
                                        GPU_ROOTS_BELLPERSON, &e) == CUZK_ERR_ARG);
    CHECK(gpu_h_bellperson_parked_async(gpu_ctx_stream(ctx), (struct fr *)x, (struct fr *)(x + 2), (struct fr *)x, 29,
                                        GPU_ROOTS_BELLPERSON, &e) == CUZK_ERR_ARG);
    gpu_ctx_destroy(ctx);
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
