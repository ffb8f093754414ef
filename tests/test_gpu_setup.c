/* gpu_setup suite: device Fp2 arithmetic against the host fp2 (src/curves/bls12_381/curve.h), and the GPU
 * fixed-base batch scalar multiplication (src/cuda/gpu.h: gpu_g1_fixed_base, gpu_g2_fixed_base)
 * against g1_mul_fr_vartime / g2_mul_fr_vartime + to-affine, byte for byte. Skips without CUDA at build time or
 * without a device at run time. */
#include "test.h"

#ifndef CUZK_HAVE_CUDA

TEST(gpu_setup, available) { SKIP(TEST_NO_GPU); }

#else

#include <stdlib.h>

#include "cuda/gpu.h"
#include "gpu_test.h"
#include "curves/bls12_381/curve.h"


static void rand_fp(fp *v) {
    uint64_t t[6];
    test_rand_bytes(t, sizeof t);
    fp_mod(v->l, t);
}
static void rand_fr(fr *v) {
    uint64_t t[4];
    test_rand_bytes(t, sizeof t);
    fr_mod(v->l, t);
}

/* ---- Fp2 ---------------------------------------------------------------------------------- */

TEST(gpu_setup, fp2_ops) {
    NEED_GPU();
    static const uint64_t pm[6] = BLS12_381_FP_MODULUS;
    fp edge[6];
    fp_zero(&edge[0]);
    fp_one(&edge[1]);
    memset(&edge[2], 0, sizeof edge[2]); edge[2].l[0] = 1; /* R^-1 as an element */
    memcpy(edge[3].l, pm, sizeof pm); edge[3].l[0] -= 1;   /* p - 1 */
    memcpy(edge[4].l, pm, sizeof pm); edge[4].l[0] -= 2;   /* p - 2 */
    fp_neg(&edge[5], &edge[1]);                            /* -1 */
    const size_t E = 36, n = E * E + (size_t)test_iters(5000);
    fp2 *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *o = malloc(n * sizeof *o);
    REQUIRE(a && b && o);
    for (size_t i = 0; i < n; i++) {
        rand_fp(&a[i].c0); rand_fp(&a[i].c1); rand_fp(&b[i].c0); rand_fp(&b[i].c1);
    }
    for (size_t i = 0; i < E * E; i++) { /* every pair of the 36 edge Fp2 values */
        size_t x = i / E, y = i % E;
        a[i].c0 = edge[x / 6]; a[i].c1 = edge[x % 6];
        b[i].c0 = edge[y / 6]; b[i].c1 = edge[y % 6];
    }
    static const char *names[] = {"add", "sub", "mul", "sqr", "neg"};
    for (int op = GPU_OP_ADD; op <= GPU_OP_NEG; op++) {
        cuzk_error e = {0};
        memset(o, 0xa5, n * sizeof *o); /* poison */
        cuzk_status st = gpu_field_op_array(GPU_FIELD_FP2, (gpu_field_op)op, o[0].c0.l, a[0].c0.l, b[0].c0.l, n, &e);
        CHECK_MSG(st == CUZK_OK, "fp2 %s: %s (%s)", names[op], cuzk_status_str(st), e.msg);
        if (st != CUZK_OK) break;
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < n; i++) {
            fp2 r;
            switch (op) {
            case GPU_OP_ADD: fp2_add(&r, &a[i], &b[i]); break;
            case GPU_OP_SUB: fp2_sub(&r, &a[i], &b[i]); break;
            case GPU_OP_MUL: fp2_mul(&r, &a[i], &b[i]); break;
            case GPU_OP_SQR: fp2_sqr(&r, &a[i]); break;
            default: fp2_neg(&r, &a[i]); break;
            }
            if (memcmp(&r, &o[i], sizeof r) != 0) { if (!bad) first = i; bad++; }
        }
        CHECK_MSG(bad == 0, "fp2 %s: %zu of %zu wrong, first at %zu", names[op], bad, n, first);
    }
    free(a); free(b); free(o);
}

/* ---- fixed-base --------------------------------------------------------------------------- */

/* scalars: 0, 1, 2, r-1, r-2, 2^k for a few k, then random (Montgomery form) */
static void fill_scalars(fr *k, size_t n) {
    for (size_t i = 0; i < n; i++) rand_fr(&k[i]);
    static const int pow2[] = {8, 63, 64, 127, 128, 200, 248, 254};
    fr one;
    fr_one(&one);
    for (size_t i = 0; i < n && i < 5 + sizeof pow2 / sizeof *pow2; i++) {
        switch (i) {
        case 0: fr_zero(&k[i]); break;
        case 1: k[i] = one; break;
        case 2: fr_add(&k[i], &one, &one); break;
        case 3: fr_neg(&k[i], &one); break;
        case 4: fr_neg(&k[i], &one); fr_sub(&k[i], &k[i], &one); break;
        default: { /* 2^pow2[i-5] */
            uint64_t c[4] = {0, 0, 0, 0};
            int e = pow2[i - 5];
            c[e / 64] = 1ull << (e % 64);
            fr_from_canon(&k[i], c);
        }
        }
    }
}

#define FB_CHECK(G, F)                                                                            \
    static void G##_fb_check(const char *what, const G##_affine *gen, const fr *k, size_t n) {    \
        G##_affine *cpu = malloc((n ? n : 1) * sizeof *cpu), *gpu = malloc((n ? n : 1) * sizeof *gpu); \
        if (!cpu || !gpu) { free(cpu); free(gpu); test_fail(__FILE__, __LINE__, "malloc"); return; } \
        G##_jacobian gj, t;                                                                       \
        G##_jacobian_from_affine(&gj, gen);                                                       \
        for (size_t i = 0; i < n; i++) {                                                          \
            G##_mul_fr_vartime(&t, &gj, &k[i]);                                                           \
            G##_jacobian_to_affine(&cpu[i], &t);                                                  \
        }                                                                                         \
        memset(gpu, 0x5a, (n ? n : 1) * sizeof *gpu);                                             \
        cuzk_error e = {0};                                                                       \
        cuzk_status st = gpu_##G##_fixed_base((struct G##_affine *)gpu, (const struct G##_affine *)gen, \
                                              (const struct fr *)k, n, &e);                       \
        CHECK_MSG(st == CUZK_OK, "%s n=%zu: %s (%s)", what, n, cuzk_status_str(st), e.msg);       \
        if (st == CUZK_OK) {                                                                      \
            size_t bad = 0, first = 0;                                                            \
            for (size_t i = 0; i < n; i++)                                                        \
                if (memcmp(&cpu[i], &gpu[i], sizeof cpu[i]) != 0) { if (!bad) first = i; bad++; } \
            CHECK_MSG(bad == 0, "%s n=%zu: %zu wrong, first at %zu", what, n, bad, first);        \
            if (n == 0) {                                                                         \
                unsigned char p[sizeof *gpu];                                                     \
                memset(p, 0x5a, sizeof p);                                                        \
                CHECK_MSG(memcmp(gpu, p, sizeof p) == 0, "%s: n = 0 wrote the output", what);     \
            }                                                                                     \
        }                                                                                         \
        free(cpu);                                                                                \
        free(gpu);                                                                                \
    }
FB_CHECK(g1, fp)
FB_CHECK(g2, fp2)

/* gen: the generator, or a random multiple of it */
#define FB_GEN(G)                                                                                 \
    static void G##_fb_gen(G##_affine *gen, int random) {                                         \
        G##_generator(gen);                                                                       \
        if (!random) return;                                                                      \
        fr k;                                                                                     \
        rand_fr(&k);                                                                              \
        G##_jacobian gj, t;                                                                       \
        G##_jacobian_from_affine(&gj, gen);                                                       \
        G##_mul_fr_vartime(&t, &gj, &k);                                                                  \
        G##_jacobian_to_affine(gen, &t);                                                          \
    }
FB_GEN(g1)
FB_GEN(g2)

#define FB_TESTS(G, NBIG)                                                                         \
    TEST(gpu_setup, G##_fixed_base) {                                                             \
        NEED_GPU();                                                                               \
        static const size_t sizes[] = {0, 1, 2, 13, 77, 1000, NBIG};                              \
        fr *k = malloc(NBIG * sizeof *k);                                                         \
        REQUIRE(k);                                                                               \
        G##_affine gen;                                                                           \
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {                               \
            fill_scalars(k, sizes[s]);                                                            \
            G##_fb_gen(&gen, s % 2);                                                              \
            G##_fb_check(#G " fixed-base", &gen, k, sizes[s]);                                    \
        }                                                                                         \
        free(k);                                                                                  \
    }                                                                                             \
    /* several chunks (the last one partial) through the two-stream pipeline */                  \
    TEST(gpu_setup, G##_fixed_base_chunks) {                                                      \
        NEED_GPU();                                                                               \
        const size_t n = 333;                                                                     \
        fr *k = malloc(n * sizeof *k);                                                            \
        REQUIRE(k);                                                                               \
        G##_affine gen;                                                                           \
        static const size_t chunks[] = {1, 7, 64, 111, 332, 333};                                 \
        for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {                             \
            size_t nn = chunks[c] == 1 ? 9 : n;                                                   \
            fill_scalars(k, nn);                                                                  \
            G##_fb_gen(&gen, 1);                                                                  \
            gpu_fixed_base_set_chunk(chunks[c]);                                                  \
            G##_fb_check(#G " fixed-base chunked", &gen, k, nn);                                  \
        }                                                                                         \
        gpu_fixed_base_set_chunk(0);                                                              \
        free(k);                                                                                  \
    }                                                                                             \
    /* gen = infinity: every output is (0, 0) */                                                  \
    TEST(gpu_setup, G##_fixed_base_infinity) {                                                    \
        NEED_GPU();                                                                               \
        fr k[20];                                                                                 \
        fill_scalars(k, 20);                                                                      \
        G##_affine gen;                                                                           \
        G##_affine_set_infinity(&gen);                                                            \
        G##_fb_check(#G " fixed-base of infinity", &gen, k, 20);                                  \
    }
FB_TESTS(g1, 4099)
FB_TESTS(g2, 1501)

TEST(gpu_setup, bad_args) {
    NEED_GPU();
    cuzk_error e = {0};
    fr k;
    fr_one(&k);
    CHECK(gpu_g1_fixed_base(NULL, NULL, &k, 1, &e) == CUZK_ERR_ARG);
    CHECK(gpu_g2_fixed_base(NULL, NULL, &k, 1, &e) == CUZK_ERR_ARG);
    CHECK(gpu_g1_fixed_base(NULL, NULL, NULL, 0, &e) == CUZK_OK);
}

#endif
