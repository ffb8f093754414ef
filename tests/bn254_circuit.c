/* Random bn128 circuits for the bn128 and gpu_bn254 suites (tests/bn254_circuit.h). */
#include "bn254_circuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/groth16.h"
#include "curves/bn254/curve.h"
#include "ff/mont_x86.h"
#include "test.h"
#include "util/timer.h"

#define FIXED_R "0x1ab4b9a7f2c0d3e5a6978877665544332211ffeeddccbbaa9988776655443322"
#define FIXED_S "0x2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90a1b"

static const uint64_t R_MOD[4] = BN254_FR_MODULUS;

/* ---- a buffered little-endian writer that can patch a length written earlier ---------------- */
typedef struct {
    FILE *f;
    bool ok;
} wr;
static void w_bytes(wr *w, const void *p, size_t n) {
    if (w->ok && fwrite(p, 1, n, w->f) != n) w->ok = false;
}
static void w_u32(wr *w, uint32_t v) {
    uint8_t b[4];
    for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i));
    w_bytes(w, b, 4);
}
static void w_u64(wr *w, uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    w_bytes(w, b, 8);
}
/* N form: the canonical integer, 32 bytes little-endian */
static void w_fr(wr *w, const bn254_fr *x) {
    uint64_t l[4];
    bn254_fr_to_canon(l, x);
    for (int k = 0; k < 4; k++) w_u64(w, l[k]);
}
/* section header with its length patched at the end (sec_end) */
static long sec_begin(wr *w, uint32_t id) {
    w_u32(w, id);
    long at = w->ok ? ftell(w->f) : -1;
    w_u64(w, 0);
    return at;
}
static void sec_end(wr *w, long at) {
    if (!w->ok) return;
    long end = ftell(w->f);
    if (at < 0 || end < 0 || fseek(w->f, at, SEEK_SET) != 0) { w->ok = false; return; }
    w_u64(w, (uint64_t)(end - at - 8));
    if (fseek(w->f, end, SEEK_SET) != 0) w->ok = false;
}

/* ---- the circuit ---------------------------------------------------------------------------- */
typedef struct {
    uint32_t wire[3];
    bn254_fr coef[3];
    int n;
} lc;

static void fr_small(bn254_fr *x, uint64_t v) {
    uint64_t l[4] = {v, 0, 0, 0};
    bn254_fr_from_canon(x, l);
}
static void fr_random(bn254_fr *x) {
    for (;;) {
        uint64_t l[4];
        for (int k = 0; k < 4; k++) l[k] = test_rand64();
        l[3] &= 0x3fffffffffffffffull;
        int lt = 0;
        for (int k = 3; k >= 0; k--)
            if (l[k] != R_MOD[k]) { lt = l[k] < R_MOD[k]; break; }
        if (lt) { bn254_fr_from_canon(x, l); return; }
    }
}
/* a nonzero coefficient: random, 1, r - 1, or 2^k */
static void coef_random(bn254_fr *c) {
    switch (test_rand64() % 4) {
    case 0: fr_small(c, 1); break;
    case 1: fr_small(c, 1); bn254_fr_neg(c, c); break;
    case 2: fr_small(c, (uint64_t)1 << (test_rand64() % 64)); break;
    default: do fr_random(c); while (bn254_fr_is_zero(c)); break;
    }
}
/* a wire defined before aux wire j (j = index among aux): ONE, a public input or an earlier aux */
static uint32_t wire_before(uint32_t j, uint32_t n_public) {
    uint32_t first_aux = 1 + n_public;
    uint64_t r = test_rand64();
    if (j == 0 || (r & 7) == 0) return (uint32_t)((r >> 8) % first_aux); /* ONE or public */
    uint32_t back = (r >> 8) & 1 ? 1 + (uint32_t)((r >> 16) % (j < 16 ? j : 16)) /* recent */
                                 : 1 + (uint32_t)((r >> 16) % j);
    return first_aux + j - back;
}
static void lc_random(lc *l, int max_terms, int min_terms, uint32_t j, uint32_t n_public) {
    l->n = min_terms + (int)(test_rand64() % (uint64_t)(max_terms - min_terms + 1));
    for (int t = 0; t < l->n; t++) {
        uint32_t w;
        bool dup;
        do {
            w = wire_before(j, n_public);
            dup = false;
            for (int u = 0; u < t; u++) dup |= l->wire[u] == w;
        } while (dup && j + n_public > 4);
        if (dup) { l->n = t; break; } /* tiny circuits: fewer terms */
        l->wire[t] = w;
        coef_random(&l->coef[t]);
    }
}
static void lc_eval(bn254_fr *out, const lc *l, const bn254_fr *w) {
    bn254_fr_zero(out);
    for (int t = 0; t < l->n; t++) {
        bn254_fr p;
        bn254_fr_mul(&p, &l->coef[t], &w[l->wire[t]]);
        bn254_fr_add(out, out, &p);
    }
}
static void lc_write(wr *f, const lc *l) {
    w_u32(f, (uint32_t)l->n);
    for (int t = 0; t < l->n; t++) {
        w_u32(f, l->wire[t]);
        w_fr(f, &l->coef[t]);
    }
}

bool bn254_random_circuit_files(const char *r1cs_path, const char *wtns_path, uint32_t n_constraints, uint32_t n_public) {
    const uint32_t n_vars = 1 + n_public + n_constraints, first_aux = 1 + n_public;
    bn254_fr *w = malloc((size_t)n_vars * sizeof *w);
    FILE *fr1 = fopen(r1cs_path, "wb");
    wr f = {fr1, fr1 != NULL};
    bool ok = false;
    if (!w || !fr1) {
        CHECK_MSG(0, "cannot create %s (or allocate %u witness values)", r1cs_path, n_vars);
        goto out;
    }
    fr_small(&w[0], 1);
    for (uint32_t i = 1; i < first_aux; i++) fr_random(&w[i]);
    /* r1cs: header, constraints (the witness is made row by row), wire-to-label map */
    w_bytes(&f, "r1cs", 4);
    w_u32(&f, 1);
    w_u32(&f, 3);
    long h = sec_begin(&f, 1);
    w_u32(&f, 32);
    for (int k = 0; k < 4; k++) w_u64(&f, R_MOD[k]);
    w_u32(&f, n_vars);
    w_u32(&f, 0);        /* outputs */
    w_u32(&f, n_public); /* public inputs */
    w_u32(&f, 0);        /* private inputs */
    w_u64(&f, n_vars);   /* labels */
    w_u32(&f, n_constraints);
    sec_end(&f, h);
    h = sec_begin(&f, 2);
    for (uint32_t j = 0; j < n_constraints && f.ok; j++) {
        const uint32_t aux = first_aux + j;
        lc a = {.n = 0}, b = {.n = 0}, c = {.n = 0};
        uint64_t kind = test_rand64() % 100;
        if (kind < 45) { /* boolean: b * (b - 1) = 0 */
            fr_small(&w[aux], test_rand64() & 1);
            a.n = 1;
            a.wire[0] = aux;
            fr_small(&a.coef[0], 1);
            b.n = 2;
            b.wire[0] = aux;
            fr_small(&b.coef[0], 1);
            b.wire[1] = 0;
            fr_small(&b.coef[1], 1);
            bn254_fr_neg(&b.coef[1], &b.coef[1]);
        } else {
            bn254_fr ab, sum, cj;
            if (kind < 55) { /* linear: A, B empty */
                bn254_fr_zero(&ab);
                lc_random(&c, 2, 1, j, n_public);
            } else {
                lc_random(&a, 3, 1, j, n_public);
                lc_random(&b, 2, 1, j, n_public);
                lc_random(&c, 2, 0, j, n_public);
                bn254_fr va, vb;
                lc_eval(&va, &a, w);
                lc_eval(&vb, &b, w);
                bn254_fr_mul(&ab, &va, &vb);
            }
            lc_eval(&sum, &c, w);
            /* <A,w><B,w> = sum + cj * aux_j, cj = 1 or r - 1 */
            fr_small(&cj, 1);
            bn254_fr_sub(&w[aux], &ab, &sum);
            if (test_rand64() & 1) {
                bn254_fr_neg(&cj, &cj);
                bn254_fr_neg(&w[aux], &w[aux]);
            }
            c.wire[c.n] = aux;
            c.coef[c.n++] = cj;
        }
        lc_write(&f, &a);
        lc_write(&f, &b);
        lc_write(&f, &c);
    }
    sec_end(&f, h);
    h = sec_begin(&f, 3);
    for (uint32_t i = 0; i < n_vars; i++) w_u64(&f, i);
    sec_end(&f, h);
    if (fclose(fr1) != 0) f.ok = false;
    fr1 = NULL;
    CHECK_MSG(f.ok, "writing %s failed", r1cs_path);
    if (!f.ok) goto out;
    /* wtns, version 2 */
    FILE *fw = fopen(wtns_path, "wb");
    wr g = {fw, fw != NULL};
    w_bytes(&g, "wtns", 4);
    w_u32(&g, 2);
    w_u32(&g, 2);
    h = sec_begin(&g, 1);
    w_u32(&g, 32);
    for (int k = 0; k < 4; k++) w_u64(&g, R_MOD[k]);
    w_u32(&g, n_vars);
    sec_end(&g, h);
    h = sec_begin(&g, 2);
    for (uint32_t i = 0; i < n_vars; i++) w_fr(&g, &w[i]);
    sec_end(&g, h);
    if (fw && fclose(fw) != 0) g.ok = false;
    CHECK_MSG(g.ok, "writing %s failed", wtns_path);
    ok = g.ok;
out:
    if (fr1) fclose(fr1);
    free(w);
    return ok;
}

/* ---- setup, prove on each backend, compare, verify ------------------------------------------ */
static char *path_in_tmp(char *buf, size_t cap, int log_m, const char *name) {
    snprintf(buf, cap, "%s/bnrand%d_%s", test_tmpdir(), log_m, name);
    return buf;
}

static const char *backend_str(cuzk_backend b) {
    return b == CUZK_BACKEND_GPU ? "gpu" : b == CUZK_BACKEND_CPU ? "cpu" : "auto";
}

void bn254_random_circuit_check(int log_m, uint32_t n_public, const cuzk_backend *backends, int n_backends,
                                bool snarkjs_check) {
    char r1cs[4096], wtns[4096], zkey[4096], proof[4][4096], pub[4096], pub2[4096];
    const uint32_t n = (uint32_t)(((uint64_t)1 << log_m) - n_public - 1);
    REQUIRE(n_backends >= 1 && n_backends <= 4 && (uint64_t)n_public + 2 <= ((uint64_t)1 << log_m));
    path_in_tmp(r1cs, sizeof r1cs, log_m, "circuit.r1cs");
    path_in_tmp(wtns, sizeof wtns, log_m, "witness.wtns");
    path_in_tmp(zkey, sizeof zkey, log_m, "circuit.zkey");
    path_in_tmp(pub, sizeof pub, log_m, "public.json");
    path_in_tmp(pub2, sizeof pub2, log_m, "public2.json");
    double t0 = now_ms();
    REQUIRE(bn254_random_circuit_files(r1cs, wtns, n, n_public));
    double t_files = now_ms() - t0;

    cuzk_setup_opts so;
    cuzk_setup_opts_init(&so);
    uint64_t seed = test_rand64();
    so.seed = &seed;
    so.zkey_path = zkey;
    cuzk_setup_timings st_t = {0};
    cuzk_error e = {0};
    cuzk_status st = cuzk_setup(r1cs, NULL, NULL, &so, &st_t, &e);
    CHECK_MSG(st == CUZK_OK, "2^%d: setup: %s (%s)", log_m, cuzk_status_str(st), e.msg);
    if (st != CUZK_OK) return;
    CHECK_EQ_INT(st_t.domain_size, (uint64_t)1 << log_m);
    CHECK_EQ_INT(st_t.n_vars, 1 + n_public + n);
    printf("  2^%d: %u constraints, %u public: files %.0f ms, setup %.0f ms (zkey %.1f MiB)\n", log_m, n, n_public,
           t_files, st_t.total_ms, (double)st_t.zkey_bytes / 1048576.0);

    /* fixed r, s on every backend: the same bytes */
    size_t n0 = 0;
    char *p0 = NULL;
    for (int b = 0; b < n_backends; b++) {
        path_in_tmp(proof[b], sizeof proof[b], log_m, backend_str(backends[b]));
        strncat(proof[b], "_proof.json", sizeof proof[b] - strlen(proof[b]) - 1);
        cuzk_prove_opts o = {.fixed_r = FIXED_R, .fixed_s = FIXED_S, .backend = backends[b]};
        cuzk_prove_timings t = {0};
        st = cuzk_prove_zkey_files(zkey, wtns, proof[b], pub, &o, &t, &e);
        CHECK_MSG(st == CUZK_OK, "2^%d %s: prove: %s (%s)", log_m, backend_str(backends[b]), cuzk_status_str(st), e.msg);
        if (st != CUZK_OK) continue;
        CHECK_MSG(t.backend && !strcmp(t.backend, backend_str(backends[b])), "2^%d: asked for %s, ran on %s", log_m,
                  backend_str(backends[b]), t.backend ? t.backend : "(null)");
        printf("  2^%d: prove on the %s %.1f ms\n", log_m, t.backend ? t.backend : "?", t.total_ms);
        size_t nb = 0;
        char *pb = (char *)test_slurp(proof[b], &nb);
        REQUIRE(pb);
        if (!p0) {
            p0 = pb;
            n0 = nb;
        } else {
            CHECK_MSG(nb == n0 && !memcmp(pb, p0, nb), "2^%d: the %s proof differs from the %s proof (fixed r, s)", log_m,
                      backend_str(backends[b]), backend_str(backends[0]));
            free(pb);
        }
    }
    if (!p0) return;

    /* the CPU's scalar code (no 8-lane IFMA path: src/ff/vec52.h) gives the same bytes */
    if (ff_vec52_active()) {
        char ps[4096];
        path_in_tmp(ps, sizeof ps, log_m, "cpu_scalar_proof.json");
        cuzk_prove_opts o = {.fixed_r = FIXED_R, .fixed_s = FIXED_S, .backend = CUZK_BACKEND_CPU};
        ff_force_scalar(true);
        st = cuzk_prove_zkey_files(zkey, wtns, ps, pub, &o, NULL, &e);
        ff_force_scalar(false);
        CHECK_MSG(st == CUZK_OK, "2^%d cpu (scalar): prove: %s (%s)", log_m, cuzk_status_str(st), e.msg);
        size_t ns = 0;
        char *pss = st == CUZK_OK ? (char *)test_slurp(ps, &ns) : NULL;
        if (pss)
            CHECK_MSG(ns == n0 && !memcmp(pss, p0, ns), "2^%d: the CPU's scalar proof differs from the %s proof (fixed r, s)",
                      log_m, backend_str(backends[0]));
        free(pss);
    }

    /* verify through the in-memory API; a wrong public input fails */
    cuzk_pk *pk = NULL;
    cuzk_vk *vk = NULL;
    REQUIRE(cuzk_pk_load_zkey(&pk, zkey, NULL, &e) == CUZK_OK);
    REQUIRE(cuzk_vk_from_pk(&vk, pk, &e) == CUZK_OK);
    size_t npub = 0;
    char *pubj = (char *)test_slurp(pub, &npub);
    REQUIRE(pubj);
    st = cuzk_verify(vk, CUZK_PUBLIC_JSON, pubj, npub, CUZK_PROOF_SNARKJS_JSON, p0, n0, &e);
    CHECK_MSG(st == CUZK_OK, "2^%d: our proof does not verify: %s (%s)", log_m, cuzk_status_str(st), e.msg);
    char *digit = NULL;
    for (char *q = pubj; *q; q++)
        if (*q >= '0' && *q <= '9' && (q[1] < '0' || q[1] > '9')) { digit = q; break; } /* last digit of the first value */
    if (digit) {
        *digit = (char)('0' + ((*digit - '0') ^ 1)); /* +-1 */
        st = cuzk_verify(vk, CUZK_PUBLIC_JSON, pubj, npub, CUZK_PROOF_SNARKJS_JSON, p0, n0, &e);
        CHECK_MSG(st == CUZK_ERR_INVALID, "2^%d: a wrong public input gave %s", log_m, cuzk_status_str(st));
    }
    free(pubj);
    /* random r, s on every backend: verified */
    for (int b = 0; b < n_backends; b++) {
        cuzk_prove_opts o = {.backend = backends[b]};
        st = cuzk_prove_zkey_files(zkey, wtns, proof[b], pub2, &o, NULL, &e);
        CHECK_MSG(st == CUZK_OK, "2^%d %s (random r, s): %s (%s)", log_m, backend_str(backends[b]), cuzk_status_str(st), e.msg);
        if (st != CUZK_OK) continue;
        size_t np = 0, nq = 0;
        char *p = (char *)test_slurp(proof[b], &np), *q = (char *)test_slurp(pub2, &nq);
        REQUIRE(p && q);
        CHECK_MSG(np != n0 || memcmp(p, p0, np) != 0, "2^%d %s: random r, s gave the fixed-r, s proof", log_m,
                  backend_str(backends[b]));
        st = cuzk_verify(vk, CUZK_PUBLIC_JSON, q, nq, CUZK_PROOF_SNARKJS_JSON, p, np, &e);
        CHECK_MSG(st == CUZK_OK, "2^%d %s (random r, s): %s (%s)", log_m, backend_str(backends[b]), cuzk_status_str(st), e.msg);
        free(p);
        free(q);
    }
    cuzk_vk_free(vk);
    cuzk_pk_release(pk);

    const char *snarkjs = snarkjs_check ? test_snarkjs() : NULL;
    if (snarkjs) { /* rewrite proof[0] with the fixed r, s proof for snarkjs */
        FILE *f = fopen(proof[0], "wb");
        REQUIRE(f && fwrite(p0, 1, n0, f) == n0 && fclose(f) == 0);
        char vkj[4096], sp[4096], spub[4096], log[8192];
        path_in_tmp(vkj, sizeof vkj, log_m, "verification_key.json");
        path_in_tmp(sp, sizeof sp, log_m, "snarkjs_proof.json");
        path_in_tmp(spub, sizeof spub, log_m, "snarkjs_public.json");
        int rc = test_run(log, sizeof log, "node '%s' zkey export verificationkey '%s' '%s'", snarkjs, zkey, vkj);
        CHECK_MSG(rc == 0, "2^%d: snarkjs cannot read our zkey: %s", log_m, log);
        rc = test_run(log, sizeof log, "node '%s' groth16 verify '%s' '%s' '%s'", snarkjs, vkj, pub, proof[0]);
        CHECK_MSG(rc == 0 && strstr(log, "OK"), "2^%d: snarkjs rejected our proof: %s", log_m, log);
        rc = test_run(log, sizeof log, "node '%s' groth16 prove '%s' '%s' '%s' '%s'", snarkjs, zkey, wtns, sp, spub);
        CHECK_MSG(rc == 0, "2^%d: snarkjs cannot prove with our zkey: %s", log_m, log);
        if (rc == 0) {
            st = cuzk_verify_json_files(vkj, spub, sp, &e);
            CHECK_MSG(st == CUZK_OK, "2^%d: we reject snarkjs's proof: %s", log_m, e.msg);
            CHECK_MSG(test_run(log, sizeof log, "cmp -s '%s' '%s'", pub, spub) == 0, "2^%d: public.json differs from snarkjs's", log_m);
        }
    }
    free(p0);
    /* the big files go at once (2^20: 0.5 GiB of zkey), not at the end of the run */
    unlink(zkey);
    unlink(r1cs);
    unlink(wtns);
}
