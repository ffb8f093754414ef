/* The GPU backend against the CPU reference: proofs with fixed r, s must be byte-identical
 * (DESIGN.md section 4 item 8), for every fixture (snarkjs flavour), for bellperson parameters,
 * and for random PoRep-shaped synthetic circuits. Skips without a CUDA build or device. */
#include "test.h"

#include <stdlib.h>

#include "cuzk/groth16.h"
#include "formats/bellperson.h"
#include "formats/json.h"
#include "groth16/backend.h"
#include "groth16/groth16.h"
#include "r1cs/synthetic.h"

#define FIXED_R "0x1ab4b9a7f2c0d3e5a6978877665544332211ffeeddccbbaa9988776655443322"
#define FIXED_S "0x2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b"

static bool have_gpu(void) {
    groth16_backend be;
    return groth16_backend_resolve(CUZK_BACKEND_GPU, &be, NULL) == CUZK_OK && be == GROTH16_BACKEND_GPU;
}

static size_t slurp(const char *p, char *buf, size_t cap) {
    FILE *f = fopen(p, "rb");
    if (!f) return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

TEST(gpu_prove, prove_fixtures_byte_identical_to_cpu) {
    if (!have_gpu()) SKIP("no CUDA device (or no CUDA in this build)");
    const char *circ[] = {"multiplier", "merkle_mimc5"};
    for (int i = 0; i < 2; i++) {
        char zk[1024], wt[1024], vk[1024], out[2][1024], pub[1024];
        snprintf(zk, sizeof zk, "%s", test_fixture("bls12381/"));
        snprintf(zk + strlen(zk), sizeof zk - strlen(zk), "%s/circuit_final.zkey", circ[i]);
        snprintf(wt, sizeof wt, "%s", test_fixture("bls12381/"));
        snprintf(wt + strlen(wt), sizeof wt - strlen(wt), "%s/witness.wtns", circ[i]);
        snprintf(vk, sizeof vk, "%s", test_fixture("bls12381/"));
        snprintf(vk + strlen(vk), sizeof vk - strlen(vk), "%s/verification_key.json", circ[i]);
        snprintf(pub, sizeof pub, "%s/gp_public.json", test_tmpdir());
        for (int b = 0; b < 2; b++) {
            snprintf(out[b], sizeof out[b], "%s/gp_proof_%d.json", test_tmpdir(), b);
            cuzk_prove_opts o = {.fixed_r = FIXED_R, .fixed_s = FIXED_S,
                                 .backend = b ? CUZK_BACKEND_GPU : CUZK_BACKEND_CPU};
            cuzk_prove_timings t = {0};
            cuzk_error e = {0};
            cuzk_status st = cuzk_prove_zkey_files(zk, wt, out[b], pub, &o, &t, &e);
            CHECK_MSG(st == CUZK_OK, "%s backend %d: %s", circ[i], b, e.msg);
            CHECK(t.backend && !strcmp(t.backend, b ? "gpu" : "cpu"));
        }
        static char x[1 << 16], y[1 << 16];
        size_t nx = slurp(out[0], x, sizeof x), ny = slurp(out[1], y, sizeof y);
        CHECK_MSG(nx > 0 && nx == ny && !memcmp(x, y, nx), "%s: GPU proof differs from CPU proof", circ[i]);
        cuzk_error e = {0};
        CHECK(cuzk_verify_json_files(vk, pub, out[1], &e) == CUZK_OK);
    }
    groth16_backend_set(GROTH16_BACKEND_CPU);
}

/* bellperson flavour on synthetic PoRep-shaped circuits of several sizes (odd, non-power-of-two). */
TEST(gpu_prove, prove_synthetic_byte_identical_to_cpu) {
    if (!have_gpu()) SKIP("no CUDA device (or no CUDA in this build)");
    const uint32_t sizes[] = {1000, 4093, 1u << 16};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        synthetic_params sp;
        synthetic_params_default(&sp, sizes[k]);
        sp.n_public = 7;
        sp.seed = test_rand64();
        cuzk_error e = {0};
        r1cs cs = {0};
        REQUIRE(synthetic_r1cs(&cs, &sp, &e) == CUZK_OK);
        fr *w = malloc(cs.n_vars * sizeof *w);
        REQUIRE(w);
        REQUIRE(synthetic_witness(w, cs.n_vars, &cs, &sp, test_rand64(), &e) == CUZK_OK);
        bellperson_params p = {0};
        uint64_t seed = test_rand64();
        REQUIRE(groth16_setup_bellperson(&p, &cs, &seed, 0, &e) == CUZK_OK);
        fr r, s;
        fr_from_u64(&r, test_rand64());
        fr_from_u64(&s, test_rand64());
        groth16_proof pc, pg;
        groth16_backend_set(GROTH16_BACKEND_CPU);
        cuzk_status st = groth16_prove_bellperson(&pc, &p, &cs, w, cs.n_vars, &r, &s, 0, NULL, &e);
        CHECK_MSG(st == CUZK_OK, "cpu %u: %s", sizes[k], e.msg);
        groth16_backend_set(GROTH16_BACKEND_GPU);
        st = groth16_prove_bellperson(&pg, &p, &cs, w, cs.n_vars, &r, &s, 0, NULL, &e);
        groth16_backend_set(GROTH16_BACKEND_CPU);
        CHECK_MSG(st == CUZK_OK, "gpu %u: %s", sizes[k], e.msg);
        uint8_t bc[192], bg[192];
        bellperson_proof_encode(bc, &pc);
        bellperson_proof_encode(bg, &pg);
        CHECK_MSG(!memcmp(bc, bg, 192), "%u constraints: GPU proof differs from CPU proof", sizes[k]);
        CHECK(groth16_verify(&p.vk, w + 1, cs.n_public, &pg, &e) == CUZK_OK);
        bellperson_params_free(&p);
        r1cs_free(&cs);
        free(w);
    }
}
