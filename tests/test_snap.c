/* SnapDeals (EmptySectorUpdate): parameters, challenges, the circuit's counts against the counting
 * model (tests/fixtures/filecoin/model_counts.txt, from ../shared/filecoin/model/snap.py), the
 * partition proofs' bincode, the checks, and witnesses from updates of sectors sealed by cuzk.
 *
 * Oracles: the challenge vectors hard-coded in rust-fil-proofs storage-proofs-update
 * challenges.rs (test_challenges_against_hardcoded: comm_r_new drawn by XorShiftRng from
 * TEST_SEED, reproduced here); tagged Poseidon values from the plain reference
 * (../shared/filecoin/model/poseidon_ref.py, poseidon(x, tag = 2^40)); the model's counts. */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "circuit/cs.h"
#include "filecoin/porep_seal.h"
#include "filecoin/snap.h"
#include "filecoin/snap_circuit.h"
#include "filecoin/snap_seal.h"
#include "gadgets/poseidon.h"
#include "test.h"
#include "test_filecoin.h"
#include "util/base64.h"
#include "util/timer.h"

static void fr_of_hex(fr *out, const char *hex) {
    uint8_t be[32], le[32];
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        be[i] = (uint8_t)v;
    }
    for (int i = 0; i < 32; i++) le[i] = be[31 - i];
    (void)fr_from_bytes_le(out, le, 32);
}

/* ---- parameters, randomness, challenges ---- */

TEST(snap, params_are_upstreams) {
    static const struct { uint64_t bytes; int parts, ch, apex, h, sub, top, base_levels; uint64_t reg; } want[] = {
        {1024, 1, 10, 8, 1, 4, 0, 1, UINT64_MAX}, {2048, 1, 10, 8, 1, 0, 0, 2, 0}, {4096, 1, 10, 8, 1, 2, 0, 2, UINT64_MAX},
        {8192, 1, 10, 8, 1, 4, 0, 2, UINT64_MAX}, {16384, 2, 10, 128, 1, 8, 0, 2, UINT64_MAX},
        {32768, 2, 10, 128, 1, 8, 2, 2, UINT64_MAX}, {8ull << 20, 4, 10, 128, 10, 0, 0, 6, 1},
        {16ull << 20, 4, 10, 128, 10, 2, 0, 6, UINT64_MAX}, {512ull << 20, 16, 86, 128, 10, 0, 0, 8, 2},
        {32ull << 30, 16, 86, 128, 10, 8, 0, 9, 3}, {64ull << 30, 16, 86, 128, 10, 8, 2, 9, 4},
    };
    cuzk_error e = {0};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        snap_params sp;
        REQUIRE_MSG(snap_params_init(&sp, want[i].bytes, &e) == CUZK_OK, "%s", e.msg);
        CHECK_EQ_INT(sp.partitions, want[i].parts);
        CHECK_EQ_INT(sp.challenges, want[i].ch);
        CHECK_EQ_INT(sp.apex_leaves, want[i].apex);
        CHECK_EQ_INT(sp.h, want[i].h);
        CHECK_EQ_INT(sp.shape.sub_arity, want[i].sub);
        CHECK_EQ_INT(sp.shape.top_arity, want[i].top);
        CHECK_EQ_INT(sp.shape.base_levels, want[i].base_levels);
        CHECK(merkle_leaves(&sp.shape) == sp.nodes);
        CHECK(sp.registered_proof == want[i].reg);
        if (want[i].reg != UINT64_MAX) {
            snap_params q;
            REQUIRE(snap_params_from_proof(&q, want[i].reg, &e) == CUZK_OK);
            CHECK(q.sector_size == want[i].bytes);
        }
    }
    snap_params sp;
    CHECK(snap_params_init(&sp, 4096 * 3, &e) == CUZK_ERR_ARG);
    CHECK(snap_params_from_proof(&sp, 5, &e) == CUZK_ERR_ARG);
    CHECK(snap_params_from_name(&sp, "snap-32g", &e) == CUZK_OK && sp.sector_size == (32ull << 30));
    CHECK(snap_params_from_name(&sp, "porep-32g", &e) == CUZK_ERR_ARG);
    /* k_and_h_select: 32 GiB, h = 10 is hs[3]: k | 8 << 4 */
    REQUIRE(snap_params_init(&sp, 32ull << 30, &e) == CUZK_OK);
    CHECK_EQ_INT(snap_k_and_h_select(&sp, 5), 5 | 8 << 4);
    CHECK_EQ_INT(sp.digests, 10);
    /* 2 KiB: hs = [1; 6], h = hs[3] = 1 whose first position is 0: h_select 1 */
    REQUIRE(snap_params_init(&sp, 2048, &e) == CUZK_OK);
    CHECK_EQ_INT(sp.h_index, 0);
    CHECK_EQ_INT(snap_k_and_h_select(&sp, 0), 1);
    REQUIRE(snap_params_init(&sp, 8ull << 20, &e) == CUZK_OK);
    CHECK_EQ_INT(snap_k_and_h_select(&sp, 3), 3 | 8 << 2);
}

/* plain reference: poseidon_ref.poseidon([0, 1], tag=2**40) and poseidon([comm_r_new, 7], tag=2**40) */
TEST(snap, tagged_poseidon_equals_reference) {
    fr tag, in[2], got, plain, want;
    snap_tag(&tag);
    fr_from_u64(&in[0], 0);
    fr_from_u64(&in[1], 1);
    REQUIRE(poseidon_hash_tag(&got, in, 2, &tag));
    REQUIRE(poseidon_hash_plain_tag(&plain, in, 2, &tag));
    fr_of_hex(&want, "314a35c4e7f0924ead1fc58134a0fe25e3580bea397367c7e5a74ec4bc077758");
    CHECK(fr_eq(&got, &want));
    CHECK(fr_eq(&plain, &want));
    fr_of_hex(&in[0], "6c0740d6edb22eb13054f4587d6d2dcbc688f796c303c7044f60429c4bbe1c10");
    fr_from_u64(&in[1], 7);
    snap_rho(&got, &in[0], 7);
    fr_of_hex(&want, "19598785c068566595ed6fa4fb80ef4a4b5b469854151e593bbcd0a839dc499e");
    CHECK(fr_eq(&got, &want));
    /* the circuit's value is the hash's, and its shape the default tag's */
    cs c, d;
    REQUIRE(cs_init(&c, CS_WITNESS | CS_MATRICES) == CUZK_OK);
    REQUIRE(cs_init(&d, CS_MATRICES) == CUZK_OK);
    cs_num a[2] = {num_alloc(&c, &in[0]), num_alloc(&c, &in[1])};
    cs_num r = poseidon_gadget_tag(&c, a, 2, &tag);
    fr rv;
    cs_value(&c, &rv, r.var);
    CHECK(fr_eq(&rv, &got));
    cs_num b[2] = {num_alloc(&d, &in[0]), num_alloc(&d, &in[1])};
    (void)poseidon_gadget(&d, b, 2);
    CHECK(c.n_constraints == d.n_constraints && c.n_aux == d.n_aux);
    uint32_t bad;
    char msg[300];
    CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "%s", msg);
    cs_free(&c);
    cs_free(&d);
}

/* storage-proofs-update challenges.rs test_challenges_against_hardcoded: comm_r_new =
 * Fr::random(XorShiftRng::from_seed(TEST_SEED)) (blstrs: 4 u64 draws, top bit cleared, rejected
 * when >= r) = 0x6c0740d6...1c10 */
TEST(snap, challenges_equal_upstream_vectors) {
    fr crn;
    fr_of_hex(&crn, "6c0740d6edb22eb13054f4587d6d2dcbc688f796c303c7044f60429c4bbe1c10");
    uint8_t b[32];
    fr_to_bytes_le(b, 32, &crn);
    static const struct { uint64_t bytes; uint32_t k; uint32_t c[5]; } v[] = {
        {1024, 0, {21, 7, 3, 31, 0}},
        {2048, 0, {53, 51, 56, 3, 0}},
        {4096, 0, {117, 25, 62, 0, 72}},
        {8192, 0, {245, 140, 15, 128, 28}},
        {16384, 0, {245, 140, 15, 128, 28}},
        {16384, 1, {286, 308, 493, 510, 508}},
        {32768, 0, {245, 454, 3, 400, 193}},
        {32768, 1, {542, 666, 955, 927, 911}},
        {8ull << 20, 0, {36085, 32783, 44060, 10950, 3731}},
        {8ull << 20, 1, {78878, 130797, 112892, 93994, 78379}},
        {16ull << 20, 0, {101621, 16391, 109319, 25944, 41193}},
        {16ull << 20, 1, {209950, 163702, 175679, 224741, 197410}},
        {512ull << 20, 0, {1019125, 116736, 706220, 59698, 799498}},
        {512ull << 20, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
        {512ull << 20, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
        {512ull << 20, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
        {32ull << 30, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
        {32ull << 30, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
        {32ull << 30, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
        {32ull << 30, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
        {64ull << 30, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
        {64ull << 30, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
        {64ull << 30, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
        {64ull << 30, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
    };
    cuzk_error e = {0};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        snap_params sp;
        REQUIRE(snap_params_init(&sp, v[i].bytes, &e) == CUZK_OK);
        uint32_t ch[SNAP_MAX_CHALLENGES];
        REQUIRE_MSG(snap_challenges(ch, &sp, b, v[i].k, &e) == CUZK_OK, "%s", e.msg);
        CHECK_MSG(!memcmp(ch, v[i].c, sizeof v[i].c), "%llu bytes, partition %u: %u %u %u %u %u", (unsigned long long)v[i].bytes,
                  v[i].k, ch[0], ch[1], ch[2], ch[3], ch[4]);
        /* challenge_bucketing: every challenge in the partition's range */
        for (int j = 0; j < sp.challenges; j++) CHECK(ch[j] >> sp.bits_per_challenge == v[i].k);
    }
    snap_params sp;
    REQUIRE(snap_params_init(&sp, 2048, &e) == CUZK_OK);
    uint32_t ch[SNAP_MAX_CHALLENGES];
    CHECK(snap_challenges(ch, &sp, b, 1, &e) == CUZK_ERR_ARG);
    memset(b, 0xff, 32);
    CHECK(snap_challenges(ch, &sp, b, 0, &e) == CUZK_ERR_ARG);
}

/* ---- counts ---- */

static void check_counts(const char *name, uint64_t bytes, bool full) {
    snap_params sp;
    cuzk_error e = {0};
    REQUIRE(snap_params_init(&sp, bytes, &e) == CUZK_OK);
    uint64_t want[3];
    static const char *keys[3] = {"inputs", "aux", "constraints"};
    for (int k = 0; k < 3; k++) REQUIRE_MSG(model_lookup("snap", name, keys[k], &want[k]), "model_counts.txt: snap %s %s", name, keys[k]);
    snap_sizes sz;
    snap_circuit_sizes(&sp, &sz);
    uint64_t got[3] = {sz.n_inputs, sz.n_aux, sz.n_constraints};
    for (int k = 0; k < 3; k++)
        CHECK_MSG(got[k] == want[k], "snap %s (layout): %s %llu, model %llu", name, keys[k], (unsigned long long)got[k],
                  (unsigned long long)want[k]);
    if (!full) return;
    cs c;
    REQUIRE(cs_init(&c, 0) == CUZK_OK);
    REQUIRE_MSG(snap_synthesize(&c, &sp, NULL) == CUZK_OK, "%s", c.err.msg);
    uint64_t one[3] = {c.n_inputs, c.n_aux, c.n_constraints};
    for (int k = 0; k < 3; k++)
        CHECK_MSG(one[k] == want[k], "snap %s (one builder): %s %llu, model %llu", name, keys[k], (unsigned long long)one[k],
                  (unsigned long long)want[k]);
    cs_free(&c);
}

/* model/snap.py: 2 KiB 1,705,039 constraints (rust-fil-proofs tests/circuit.rs) and every other
 * small size by one builder; 8 and 16 MiB by one builder too */
TEST(snap, counts_equal_model) {
    uint64_t v;
    REQUIRE(model_lookup("snap", "2k", "constraints", &v));
    CHECK_EQ_INT(v, 1705039);
    REQUIRE(model_lookup("snap", "32g", "constraints", &v));
    CHECK_EQ_INT(v, 81049499);
    static const struct { const char *n; uint64_t b; } s[] = {{"1k", 1024}, {"2k", 2048}, {"4k", 4096}, {"8k", 8192},
                                                             {"16k", 16384}, {"32k", 32768}, {"8m", 8ull << 20}};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) check_counts(s[i].n, s[i].b, true);
    /* the large ones from the layout (header + one challenge, every challenge alike) */
    check_counts("16m", 16ull << 20, false);
    check_counts("512m", 512ull << 20, false);
    check_counts("32g", 32ull << 30, false);
    check_counts("64g", 64ull << 30, false);
}

/* the 32 GiB partition from a full recording pass (CS_DENSITY, all threads): 81,049,499 */
TEST(snap, counts_32g_partition) {
    if (getenv("CUZK_ASAN") && !getenv("CUZK_TEST_FULL"))
        SKIP("81M-constraint counting pass: slow under the sanitizers (CUZK_TEST_FULL=1 runs it)");
    snap_params sp;
    cuzk_error e = {0};
    REQUIRE(snap_params_init(&sp, 32ull << 30, &e) == CUZK_OK);
    uint64_t want_aux, want_in;
    REQUIRE(model_lookup("snap", "32g", "aux", &want_aux));
    REQUIRE(model_lookup("snap", "32g", "inputs", &want_in));
    snap_counts sc;
    double t0 = now_ms();
    REQUIRE_MSG(snap_count_parallel(&sc, &sp, 0, &e) == CUZK_OK, "%s", e.msg);
    printf("  32 GiB counting pass (densities, all threads): %.1f s; A-aux %llu, B-aux %llu, B-input %llu\n",
           (now_ms() - t0) / 1000, (unsigned long long)sc.a_aux, (unsigned long long)sc.b_aux, (unsigned long long)sc.b_in);
    CHECK_EQ_INT(sc.n_constraints, 81049499);
    CHECK_EQ_INT(sc.n_aux, want_aux);
    CHECK_EQ_INT(sc.n_inputs, want_in);
    CHECK(sc.a_aux > 0 && sc.a_aux <= sc.n_aux && sc.b_aux > 0 && sc.b_aux <= sc.n_aux);
}

static bool r1cs_same(const r1cs *x, const r1cs *y) {
    if (x->n_constraints != y->n_constraints || x->n_vars != y->n_vars || x->n_public != y->n_public) return false;
    const csr_matrix *a[3] = {&x->a, &x->b, &x->c}, *b[3] = {&y->a, &y->b, &y->c};
    for (int k = 0; k < 3; k++) {
        if (a[k]->n_rows != b[k]->n_rows || a[k]->nnz != b[k]->nnz || a[k]->n_coef != b[k]->n_coef) return false;
        if (memcmp(a[k]->row_ptr, b[k]->row_ptr, ((size_t)a[k]->n_rows + 1) * sizeof *a[k]->row_ptr) ||
            memcmp(a[k]->col, b[k]->col, a[k]->nnz * sizeof *a[k]->col) ||
            memcmp(a[k]->coef_id, b[k]->coef_id, a[k]->nnz * sizeof *a[k]->coef_id) ||
            (a[k]->n_coef && memcmp(a[k]->coef, b[k]->coef, a[k]->n_coef * sizeof(fr))))
            return false;
    }
    return true;
}

/* recording in parts on several threads gives one builder's R1CS; densities agree */
TEST(snap, recorded_in_parts_equals_one_builder) {
    snap_params sp;
    cuzk_error e = {0};
    REQUIRE(snap_params_init(&sp, 2048, &e) == CUZK_OK);
    cs c;
    REQUIRE(cs_init(&c, CS_MATRICES | CS_DENSITY) == CUZK_OK);
    REQUIRE_MSG(snap_synthesize(&c, &sp, NULL) == CUZK_OK, "%s", c.err.msg);
    uint64_t a_aux = cs_bits_count(&c.a_aux), b_aux = cs_bits_count(&c.b_aux), b_in = cs_bits_count(&c.b_in);
    r1cs one, par;
    REQUIRE(cs_finish_r1cs(&c, &one) == CUZK_OK);
    cs_free(&c);
    for (int T = 1; T <= 3; T += 2) {
        REQUIRE_MSG(snap_record_parallel(&par, &sp, T, &e) == CUZK_OK, "%s", e.msg);
        CHECK_MSG(r1cs_same(&one, &par), "%d threads: the R1CS differs from one builder's", T);
        r1cs_free(&par);
        snap_counts sc;
        REQUIRE_MSG(snap_count_parallel(&sc, &sp, T, &e) == CUZK_OK, "%s", e.msg);
        CHECK(sc.a_aux == a_aux && sc.b_aux == b_aux && sc.b_in == b_in);
        CHECK_EQ_INT(sc.n_constraints, 1705039);
    }
    printf("  2 KiB densities: A-aux %llu, B-aux %llu, B-input %llu\n", (unsigned long long)a_aux, (unsigned long long)b_aux,
           (unsigned long long)b_in);
    r1cs_free(&one);
}

/* ---- updates of sealed sectors ---- */

/* a sealed sector of sp's size (porep_seal, V1_1) updated with random data */
static bool make_update(snap_update *u, const snap_params *sp, int seal_id) {
    cuzk_error e = {0};
    porep_params pp;
    if (porep_params_from_proof(&pp, (uint64_t)seal_id, &e) != CUZK_OK) { printf("  %s\n", e.msg); return false; }
    uint8_t *old = malloc(pp.sector_size), *neu = malloc(pp.sector_size), prover[32], ticket[32];
    if (!old || !neu) { free(old); free(neu); return false; }
    test_rand_bytes(old, pp.sector_size);
    test_rand_bytes(neu, pp.sector_size);
    for (uint64_t v = 0; v < pp.nodes; v++) { old[32 * v + 31] &= 0x3f; neu[32 * v + 31] &= 0x3f; }
    porep_prover_id(prover, 1000);
    test_rand_bytes(ticket, 32);
    porep_sector s;
    bool ok = porep_seal(&s, &pp, old, prover, 7, ticket, 0, &e) == CUZK_OK;
    if (!ok) printf("  seal: %s\n", e.msg);
    if (ok && snap_update_encode(u, sp, &s, neu, 0, &e) != CUZK_OK) { printf("  update: %s\n", e.msg); ok = false; }
    porep_sector_free(&s);
    free(old);
    free(neu);
    return ok;
}

/* a partition proof through its bincode form and back */
static bool roundtrip(snap_partition_proof *out, const snap_partition_proof *p, const snap_params *sp) {
    uint8_t *buf;
    size_t n;
    cuzk_error e = {0};
    if (snap_partition_proof_write(p, sp, &buf, &n, &e) != CUZK_OK) return false;
    bool ok = snap_partition_proof_read(out, sp, buf, n, &e) == CUZK_OK;
    if (!ok) printf("  read back: %s\n", e.msg);
    free(buf);
    return ok;
}

/* partition k: checked, its witness (one builder: satisfies the recorded R1CS; in parallel:
 * equal to it), its public inputs from the public data = the witness's inputs */
static void check_partition(const snap_update *u, const snap_partition_proof *p, uint32_t k, bool one_builder) {
    const snap_params *sp = &u->sp;
    cuzk_error e = {0};
    CHECK_MSG(snap_partition_check(sp, p, k, &u->pub, &e) == CUZK_OK, "partition %u: %s", k, e.msg);
    snap_sizes sz;
    snap_circuit_sizes(sp, &sz);
    size_t nw = (size_t)(sz.n_inputs + sz.n_aux);
    fr *w = malloc(nw * sizeof *w), pub[4];
    REQUIRE(w);
    snap_witness_src src = {&u->pub, p, k};
    double t0 = now_ms();
    REQUIRE_MSG(snap_witness_parallel(w, nw, sp, &src, 0, &e) == CUZK_OK, "%s", e.msg);
    printf("  %llu-byte update, partition %u: witness (all threads) %.0f ms\n", (unsigned long long)sp->sector_size, k, now_ms() - t0);
    REQUIRE_MSG(snap_public_inputs(pub, sp, k, &u->pub, &e) == CUZK_OK, "%s", e.msg);
    CHECK_EQ_INT(sz.n_inputs, 5);
    CHECK_MSG(!memcmp(pub, w + 1, sizeof pub), "partition %u: the public inputs differ from the witness's", k);
    if (one_builder) {
        cs c;
        REQUIRE(cs_init(&c, CS_MATRICES | CS_WITNESS) == CUZK_OK);
        REQUIRE_MSG(snap_synthesize(&c, sp, &src) == CUZK_OK, "%s", c.err.msg);
        fr *w1;
        size_t n1;
        REQUIRE(cs_witness(&c, &w1, &n1) == CUZK_OK);
        CHECK_MSG(n1 == nw && !memcmp(w1, w, nw * sizeof *w), "partition %u: the parallel witness differs from one builder's", k);
        free(w1);
        uint32_t bad;
        char msg[600];
        CHECK_MSG(cs_check_recorded(&c, &bad, msg, sizeof msg), "partition %u: %s", k, msg);
        cs_free(&c);
    } else {
        uint64_t bad;
        t0 = now_ms();
        CHECK_MSG(snap_check_witness_parallel(w, nw, sp, 0, &bad, &e) == CUZK_OK, "partition %u: %s", k, e.msg);
        printf("  partition %u: checked part by part (all threads) %.1f s\n", k, (now_ms() - t0) / 1000);
    }
    free(w);
}

TEST(snap, update_2k_satisfies) {
    snap_params sp;
    cuzk_error e = {0};
    REQUIRE(snap_params_init(&sp, 2048, &e) == CUZK_OK);
    snap_update u;
    REQUIRE(make_update(&u, &sp, 5));
    snap_partition_proof p, q;
    REQUIRE_MSG(snap_update_partition_proof(&p, &u, 0, &e) == CUZK_OK, "%s", e.msg);
    REQUIRE(roundtrip(&q, &p, &sp));
    check_partition(&u, &q, 0, true);
    /* another h (h_select bit 5): k_and_h_select 32, and still satisfied */
    snap_update_free(&u);
    snap_partition_proof_free(&p);
    snap_partition_proof_free(&q);
    REQUIRE(snap_params_set_h_index(&sp, 5, &e) == CUZK_OK);
    REQUIRE(make_update(&u, &sp, 0));
    REQUIRE_MSG(snap_update_partition_proof(&p, &u, 0, &e) == CUZK_OK, "%s", e.msg);
    check_partition(&u, &p, 0, true);
    fr pub[4], want;
    REQUIRE(snap_public_inputs(pub, &sp, 0, &u.pub, &e) == CUZK_OK);
    fr_from_u64(&want, 32);
    CHECK(fr_eq(&pub[0], &want));
    snap_partition_proof_free(&p);
    snap_update_free(&u);
}

/* 8 MiB: 4 partitions, h = 10 of [7..12]; partition 1 by one builder (10M constraints), the
 * others checked part by part */
TEST(snap, update_8m_satisfies) {
    snap_params sp;
    cuzk_error e = {0};
    REQUIRE(snap_params_init(&sp, 8ull << 20, &e) == CUZK_OK);
    snap_update u;
    double t0 = now_ms();
    REQUIRE(make_update(&u, &sp, 6));
    printf("  8 MiB seal + update: %.1f s\n", (now_ms() - t0) / 1000);
    for (uint32_t k = 0; k < (uint32_t)sp.partitions; k++) {
        snap_partition_proof p, q;
        REQUIRE_MSG(snap_update_partition_proof(&p, &u, k, &e) == CUZK_OK, "%s", e.msg);
        REQUIRE(roundtrip(&q, &p, &sp));
        if (k == 1 || getenv("CUZK_TEST_LONG")) check_partition(&u, &q, k, k == 1);
        else CHECK_MSG(snap_partition_check(&sp, &q, k, &u.pub, &e) == CUZK_OK, "partition %u: %s", k, e.msg);
        snap_partition_proof_free(&p);
        snap_partition_proof_free(&q);
    }
    snap_update_free(&u);
}

/* ---- hostile and tampered input ---- */

static void expect_invalid(const snap_params *sp, const snap_partition_proof *p, const snap_public *pub, const char *what,
                           const char *needle) {
    cuzk_error e = {0};
    cuzk_status st = snap_partition_check(sp, p, 0, pub, &e);
    CHECK_MSG(st == CUZK_ERR_INVALID, "%s: status %d (%s)", what, st, e.msg);
    CHECK_MSG(strstr(e.msg, needle) != NULL, "%s: message '%s' lacks '%s'", what, e.msg, needle);
}

/* a tampered proof is refused by the checks with a reason naming the partition, challenge and
 * field; forced through, its witness does not satisfy the circuit */
TEST(snap, tampered_refused_and_unsatisfied) {
    snap_params sp;
    cuzk_error e = {0};
    REQUIRE(snap_params_init(&sp, 2048, &e) == CUZK_OK);
    snap_update u;
    REQUIRE(make_update(&u, &sp, 5));
    snap_partition_proof p;
    REQUIRE_MSG(snap_update_partition_proof(&p, &u, 0, &e) == CUZK_OK, "%s", e.msg);
    snap_sizes sz;
    snap_circuit_sizes(&sp, &sz);
    size_t nw = (size_t)(sz.n_inputs + sz.n_aux);
    fr *w = malloc(nw * sizeof *w), one;
    REQUIRE(w);
    fr_one(&one);
    enum { T_LEAF_OLD, T_LEAF_D, T_LEAF_NEW, T_SIB_OLD, T_SIB_D, T_APEX, T_COMM_C, T_ROOT_NEW, T_N };
    static const char *needle[T_N] = {"challenge 3 (node", "challenge 4 (node", "challenge 5 (node", "challenge 6 (node",
                                      "challenge 7 (node", "apex", "partition 0: comm_r_old", "partition 0 challenge 2: proof_r_new"};
    for (int t = 0; t < T_N; t++) {
        snap_partition_proof q;
        REQUIRE(roundtrip(&q, &p, &sp));
        switch (t) {
        case T_LEAF_OLD: fr_add(&q.proofs[3].leaf_r_old, &q.proofs[3].leaf_r_old, &one); break;
        case T_LEAF_D: fr_add(&q.proofs[4].leaf_d_new, &q.proofs[4].leaf_d_new, &one); break;
        case T_LEAF_NEW: fr_add(&q.proofs[5].leaf_r_new, &q.proofs[5].leaf_r_new, &one); break;
        case T_SIB_OLD: fr_add(&q.proofs[6].path_r_old.siblings[1][3], &q.proofs[6].path_r_old.siblings[1][3], &one); break;
        case T_SIB_D: fr_add(&q.proofs[7].path_d_new.siblings[0][0], &q.proofs[7].path_d_new.siblings[0][0], &one); break;
        case T_APEX: for (int i = 0; i < sp.apex_leaves; i++) fr_add(&q.apex_leafs[i], &q.apex_leafs[i], &one); break;
        case T_COMM_C: fr_add(&q.comm_c, &q.comm_c, &one); break;
        case T_ROOT_NEW: fr_add(&q.proofs[2].root_r_new, &q.proofs[2].root_r_new, &one); break;
        }
        expect_invalid(&sp, &q, &u.pub, needle[t], needle[t]);
        /* forced through: the witness builds (values only) but does not satisfy */
        snap_witness_src src = {&u.pub, &q, 0};
        REQUIRE_MSG(snap_witness_parallel(w, nw, &sp, &src, 2, &e) == CUZK_OK, "%s", e.msg);
        uint64_t bad;
        /* the circuit takes the roots of challenge 0's proofs, and computes label_r_new from
         * leaf_r_old and leaf_d_new (circuit.rs only asserts the proof's leaf_r_new agrees, outside
         * the constraints): another root in a later proof, or another leaf_r_new with the same
         * path, is the checks' business alone (vanilla.rs verify compares them) */
        cuzk_status want = t == T_ROOT_NEW || t == T_LEAF_NEW ? CUZK_OK : CUZK_ERR_UNSAT;
        CHECK_MSG(snap_check_witness_parallel(w, nw, &sp, 2, &bad, &e) == want, "tamper %d: %s", t,
                  want == CUZK_OK ? e.msg : "the witness satisfies");
        snap_partition_proof_free(&q);
    }
    /* wrong public data: another comm_d_new, comm_r_new */
    snap_public pub = u.pub;
    pub.comm_d_new[0] ^= 1;
    expect_invalid(&sp, &p, &pub, "comm_d_new", "proof_d_new: root is not comm_d_new");
    pub = u.pub;
    pub.comm_r_new[0] ^= 1;
    expect_invalid(&sp, &p, &pub, "comm_r_new", "comm_r_new is not Poseidon");
    pub = u.pub;
    memset(pub.comm_r_old, 0xff, 32);
    CHECK(snap_partition_check(&sp, &p, 0, &pub, &e) == CUZK_ERR_ARG);
    CHECK(snap_partition_check(&sp, &p, 1, &u.pub, &e) == CUZK_ERR_ARG);
    /* proofs of another update's challenges (another comm_r_new: other challenges) */
    snap_update u2;
    REQUIRE(make_update(&u2, &sp, 5));
    pub = u.pub;
    memcpy(pub.comm_r_new, u2.pub.comm_r_new, 32);
    cuzk_status st = snap_partition_check(&sp, &p, 0, &pub, &e);
    CHECK_MSG(st == CUZK_ERR_INVALID, "another comm_r_new: %d", st);
    snap_update_free(&u2);
    free(w);
    snap_partition_proof_free(&p);
    snap_update_free(&u);
}

/* the bincode reader: every truncation, flipped counts, variants, indexes and values are refused
 * with CUZK_ERR_FORMAT, never a crash; the same bytes for another size too */
TEST(snap, bincode_hostile_input) {
    snap_params sp, sp8;
    cuzk_error e = {0};
    REQUIRE(snap_params_init(&sp, 2048, &e) == CUZK_OK);
    REQUIRE(snap_params_init(&sp8, 8ull << 20, &e) == CUZK_OK);
    snap_update u;
    REQUIRE(make_update(&u, &sp, 5));
    snap_partition_proof p, q;
    REQUIRE(snap_update_partition_proof(&p, &u, 0, &e) == CUZK_OK);
    uint8_t *buf;
    size_t n;
    REQUIRE(snap_partition_proof_write(&p, &sp, &buf, &n, &e) == CUZK_OK);
    /* 32 + 8 + 8 * 32 + 8 + 10 * (3 * (4 + 64 + 8) + 2 * 2 * (8 + 7 * 32 + 8) + 6 * (8 + 32 + 8)) */
    CHECK_EQ_INT(n, 32 + 8 + 256 + 8 + 10 * (3 * 76 + 2 * 2 * 240 + 6 * 48));
    for (size_t k = 0; k < n; k++) {
        cuzk_status st = snap_partition_proof_read(&q, &sp, buf, k, &e);
        CHECK_MSG(st == CUZK_ERR_FORMAT, "truncated to %zu bytes: %d", k, st);
        if (st == CUZK_OK) snap_partition_proof_free(&q);
    }
    uint8_t *big = malloc(n + 1);
    REQUIRE(big);
    memcpy(big, buf, n);
    big[n] = 0;
    CHECK(snap_partition_proof_read(&q, &sp, big, n + 1, &e) == CUZK_ERR_FORMAT);
    CHECK(strstr(e.msg, "trailing") != NULL);
    CHECK(snap_partition_proof_read(&q, &sp8, buf, n, &e) == CUZK_ERR_FORMAT);
    /* every byte flipped in turn: refused (FORMAT) or read; one flip in 7 that reads is then
     * checked and must be refused there (the checks cost ~5 ms a proof); never a crash */
    size_t n_format = 0, n_read = 0, n_checked = 0, n_invalid = 0;
    for (size_t k = 0; k < n; k++) {
        memcpy(big, buf, n);
        big[k] ^= (uint8_t)(1u << (k % 8));
        cuzk_status st = snap_partition_proof_read(&q, &sp, big, n, &e);
        if (st == CUZK_ERR_FORMAT) { n_format++; continue; }
        REQUIRE_MSG(st == CUZK_OK, "flip at %zu: %d", k, st);
        if (n_read++ % 7 == 0) {
            n_checked++;
            if (snap_partition_check(&sp, &q, 0, &u.pub, &e) == CUZK_ERR_INVALID) n_invalid++;
        }
        snap_partition_proof_free(&q);
    }
    CHECK_MSG(n_checked == n_invalid, "%zu flipped proofs checked, %zu refused by the checks", n_checked, n_invalid);
    CHECK(n_format > 0);
    printf("  %zu single-bit flips: %zu refused by the reader, %zu read, %zu of them checked: all refused\n", n, n_format,
           n_read, n_invalid);
    /* an absurd challenge count: refused before any allocation */
    memcpy(big, buf, n);
    size_t at = 32 + 8 + 256;
    for (int i = 0; i < 8; i++) big[at + (size_t)i] = 0xff;
    CHECK(snap_partition_proof_read(&q, &sp, big, n, &e) == CUZK_ERR_FORMAT);
    CHECK(strstr(e.msg, "challenge_proofs count") != NULL);
    free(big);
    free(buf);
    snap_partition_proof_free(&p);
    snap_update_free(&u);
}

/* Curio's file of partition proofs: a JSON array of base64 bincode strings */
TEST(snap, curio_json_roundtrip) {
    snap_params sp;
    cuzk_error e = {0};
    REQUIRE(snap_params_init(&sp, 2048, &e) == CUZK_OK);
    snap_blob parts[3];
    uint8_t raw[3][7];
    for (int i = 0; i < 3; i++) {
        test_rand_bytes(raw[i], sizeof raw[i]);
        parts[i].data = raw[i];
        parts[i].len = (size_t)(5 + i);   /* lengths 5, 6, 7: every padding */
    }
    uint8_t *js;
    size_t n;
    REQUIRE(snap_vproofs_json_join(&js, &n, parts, 3, &e) == CUZK_OK);
    snap_blob *got;
    size_t ng;
    REQUIRE_MSG(snap_vproofs_json_split(&got, &ng, 16, js, n, &e) == CUZK_OK, "%s", e.msg);
    REQUIRE(ng == 3);
    for (int i = 0; i < 3; i++) CHECK(got[i].len == parts[i].len && !memcmp(got[i].data, raw[i], got[i].len));
    snap_blobs_free(got, ng);
    CHECK(snap_vproofs_json_split(&got, &ng, 2, js, n, &e) == CUZK_ERR_FORMAT);
    static const char *bad[] = {"", "[", "{}", "[\"AAA\"]", "[\"AA=A\"]", "[\"AAAA\",]", "[\"AAAA\" \"AAAA\"]", "[\"AAAA\"] x",
                                "[1]", "[\"A*AA\"]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(snap_vproofs_json_split(&got, &ng, 16, (const uint8_t *)bad[i], strlen(bad[i]), &e) == CUZK_ERR_FORMAT, "'%s'", bad[i]);
    REQUIRE(snap_vproofs_json_split(&got, &ng, 16, (const uint8_t *)" [ ] ", 5, &e) == CUZK_OK);
    CHECK(ng == 0);
    snap_blobs_free(got, ng);
    free(js);
}

/* the one base64 decoder of Curio's files (util/base64.h; the C1 wrapper's Phase1Out uses it too):
 * every length and padding against OpenSSL's encoder, and strictness: bad characters, misplaced
 * or inner padding, a length not a multiple of 4, "\/" only when asked for, never past the output */
TEST(snap, base64_strict_and_bounded) {
    uint8_t raw[64], out[64];
    char enc[100], ref[100];
    size_t len, bad;
    for (size_t n = 0; n <= 48; n++) {
        test_rand_bytes(raw, n);
        base64_encode(enc, raw, n);
        size_t m = base64_encoded_len(n);
        CHECK_EQ_INT(EVP_EncodeBlock((unsigned char *)ref, raw, (int)n), (int)m);
        CHECK_MSG(!memcmp(enc, ref, m), "%zu bytes: %.*s, OpenSSL %s", n, (int)m, enc, ref);
        CHECK_MSG(base64_decode(out, base64_decoded_max(m), &len, enc, m, 0, &bad) && len == n && !memcmp(out, raw, n),
                  "%zu bytes", n);
        if (n) CHECK_MSG(!base64_decode(out, n - 1, &len, enc, m, 0, &bad) && bad == SIZE_MAX, "%zu bytes, room for one less", n);
    }
    static const struct { const char *s; size_t bad; const char *why; } refused[] = {
        {"A*AA", 1, "'*' at character 1"},       {"AAA", 3, "3 characters, not a multiple of 4"},
        {"A===", 1, "'=' at character 1"},       {"AA=A", 3, "'A' at character 3"},
        {"AA==AAAA", 4, "'A' at character 4"},   {"AAAA\n", 4, "byte 0x0a at character 4"},
        {"AA\\/", 2, "'\\' at character 2"},     {"AAA-", 3, "'-' at character 3"},
        {"AAA_", 3, "'_' at character 3"},       {"AAAA ", 4, "' ' at character 4"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        const char *s = refused[i].s;
        char why[64];
        bool ok = base64_decode(out, sizeof out, &len, s, strlen(s), 0, &bad);
        base64_describe(why, sizeof why, s, strlen(s), bad);
        CHECK_MSG(!ok && bad == refused[i].bad && !strcmp(why, refused[i].why), "'%s': %d, bad %zu, '%s'", s, ok, bad, why);
    }
    /* JSON's escaped solidus: "\/" is '/' with BASE64_JSON_SLASH, and only before '/' */
    CHECK(base64_decode(out, sizeof out, &len, "ab\\/+", 5, BASE64_JSON_SLASH, &bad) && len == 3 && out[0] == 0x69 &&
          out[1] == 0xbf && out[2] == 0xfe);
    CHECK(!base64_decode(out, sizeof out, &len, "ab\\n", 4, BASE64_JSON_SLASH, &bad) && bad == 2);
    CHECK(!base64_decode(out, sizeof out, &len, "abc\\", 4, BASE64_JSON_SLASH, &bad) && bad == 3);
}

/* ---- sparse updates ---- */

/* the sparse trees hold what fully built trees over their leaves hold (2 KiB, 16 KiB, 8 MiB) */
static void check_sparse_full(uint64_t bytes) {
    snap_params sp;
    cuzk_error e = {0};
    REQUIRE(snap_params_init(&sp, bytes, &e) == CUZK_OK);
    uint8_t salt[32];
    test_rand_bytes(salt, 32);
    snap_sparse *s;
    REQUIRE_MSG(snap_sparse_make(&s, &sp, salt, &e) == CUZK_OK, "%s", e.msg);
    uint64_t n = sp.nodes;
    uint8_t (*lv)[32] = malloc(n * 32), (*up)[32] = malloc(n * 32);
    REQUIRE(lv && up);
    for (int tree = 0; tree < 3; tree++) {
        int levels = tree == 0 ? sp.challenge_bit_len : merkle_levels(&sp.shape);
        for (uint64_t v = 0; v < n; v++) REQUIRE(snap_sparse_node(s, tree, 0, v, lv[v]));
        uint64_t m = n;
        for (int l = 0; l < levels; l++) {
            int a = tree == 0 ? 2 : merkle_level_arity(&sp.shape, l);
            m /= (uint64_t)a;
            for (uint64_t p = 0; p < m; p++) {
                if (tree == 0) {
                    porep_sha256_node(up[p], lv[2 * p], lv[2 * p + 1]);
                } else {
                    fr in[16], h;
                    for (int i = 0; i < a; i++) (void)fr_from_bytes_le(&in[i], lv[p * (uint64_t)a + (uint64_t)i], 32);
                    poseidon_hash(&h, in, a);
                    fr_to_bytes_le(up[p], 32, &h);
                }
            }
            memcpy(lv, up, m * 32);
            /* every node of the level (a sample of 4096 at most) */
            uint64_t step = m > 4096 ? m / 4096 : 1;
            bool same = true;
            for (uint64_t p = 0; p < m; p += step) {
                uint8_t b[32];
                REQUIRE(snap_sparse_node(s, tree, l + 1, p, b));
                same &= !memcmp(b, lv[p], 32);
            }
            CHECK_MSG(same, "%llu bytes, tree %d, level %d: the sparse nodes differ from the full tree's", (unsigned long long)bytes,
                      tree, l + 1);
        }
    }
    /* the commitments are the full trees' */
    uint8_t b[32];
    REQUIRE(snap_sparse_node(s, 0, sp.challenge_bit_len, 0, b));
    CHECK_MEM(b, snap_sparse_public(s)->comm_d_new, 32);
    for (uint32_t k = 0; k < (uint32_t)sp.partitions; k++) {
        snap_partition_proof p;
        REQUIRE_MSG(snap_sparse_partition_proof(&p, s, k, &e) == CUZK_OK, "%s", e.msg);
        CHECK_MSG(snap_partition_check(&sp, &p, k, snap_sparse_public(s), &e) == CUZK_OK, "partition %u: %s", k, e.msg);
        snap_partition_proof_free(&p);
    }
    free(lv);
    free(up);
    snap_sparse_free(s);
}

TEST(snap, sparse_equals_full_trees) {
    check_sparse_full(2048);
    check_sparse_full(16384);
    check_sparse_full(8ull << 20);
}

/* a sparse 2 KiB and 8 MiB update's partition satisfies the circuit */
TEST(snap, sparse_small_satisfies) {
    static const uint64_t sizes[] = {2048, 8ull << 20};
    for (size_t i = 0; i < 2; i++) {
        snap_params sp;
        cuzk_error e = {0};
        REQUIRE(snap_params_init(&sp, sizes[i], &e) == CUZK_OK);
        uint8_t salt[32];
        test_rand_bytes(salt, 32);
        snap_sparse *s;
        REQUIRE_MSG(snap_sparse_make(&s, &sp, salt, &e) == CUZK_OK, "%s", e.msg);
        snap_update u;   /* check_partition reads sp and pub only */
        memset(&u, 0, sizeof u);
        u.sp = sp;
        u.pub = *snap_sparse_public(s);
        uint32_t k = (uint32_t)sp.partitions - 1;
        snap_partition_proof p;
        REQUIRE_MSG(snap_sparse_partition_proof(&p, s, k, &e) == CUZK_OK, "%s", e.msg);
        check_partition(&u, &p, k, i == 0);
        snap_partition_proof_free(&p);
        snap_sparse_free(s);
    }
}

/* 32 GiB: the sparse update's 16 partition proofs pass every check; with CUZK_TEST_LONG, the
 * witness of partition 15 (81M constraints) is checked part by part */
TEST(snap, sparse_32g) {
    if (getenv("CUZK_ASAN") && !getenv("CUZK_TEST_FULL")) SKIP("32 GiB sparse update: slow under the sanitizers (CUZK_TEST_FULL=1 runs it)");
    snap_params sp;
    cuzk_error e = {0};
    REQUIRE(snap_params_init(&sp, 32ull << 30, &e) == CUZK_OK);
    uint8_t salt[32];
    test_rand_bytes(salt, 32);
    snap_sparse *s;
    double t0 = now_ms();
    REQUIRE_MSG(snap_sparse_make(&s, &sp, salt, &e) == CUZK_OK, "%s", e.msg);
    printf("  32 GiB sparse update (commitments): %.1f s\n", (now_ms() - t0) / 1000);
    t0 = now_ms();
    for (uint32_t k = 0; k < 16; k++) {
        snap_partition_proof p, q;
        REQUIRE_MSG(snap_sparse_partition_proof(&p, s, k, &e) == CUZK_OK, "%s", e.msg);
        REQUIRE(roundtrip(&q, &p, &sp));
        CHECK_MSG(snap_partition_check(&sp, &q, k, snap_sparse_public(s), &e) == CUZK_OK, "partition %u: %s", k, e.msg);
        if (k == 15 && getenv("CUZK_TEST_LONG")) {
            snap_update u;
            memset(&u, 0, sizeof u);
            u.sp = sp;
            u.pub = *snap_sparse_public(s);
            check_partition(&u, &q, k, false);
        }
        snap_partition_proof_free(&p);
        snap_partition_proof_free(&q);
    }
    printf("  16 partition proofs made, written, read and checked: %.1f s\n", (now_ms() - t0) / 1000);
    snap_sparse_free(s);
}

/* ---- the public API ---- */

#include "cuzk/filecoin.h"

/* make_update -> job (from Curio's JSON and from the per-partition bincode) -> synth: the
 * witness's inputs are cuzk_snap_public_inputs' and it satisfies the circuit; bad requests refused */
TEST(snap, api_job_from_curio_forms) {
    cuzk_error e = {0};
    cuzk_snap_update_request ur = {0, 9, 0, 2};
    uint8_t *js;
    size_t len;
    uint8_t c[3][32];
    REQUIRE_MSG(cuzk_snap_make_update(&ur, &js, &len, c[0], c[1], c[2], &e) == CUZK_OK, "%s", e.msg);
    cuzk_snap_request req;
    memset(&req, 0, sizeof req);
    req.registered_proof = 0;
    req.json = js;
    req.json_len = len;
    memcpy(req.comm_r_old, c[0], 32);
    memcpy(req.comm_d_new, c[1], 32);
    memcpy(req.comm_r_new, c[2], 32);
    req.nthreads = 2;
    cuzk_snap_job *job;
    REQUIRE_MSG(cuzk_snap_job_create(&job, &req, &e) == CUZK_OK, "%s", e.msg);
    CHECK_EQ_INT(cuzk_snap_job_partitions(job), 1);
    CHECK(!strcmp(cuzk_snap_job_circuit(job), "snap-2k"));
    CHECK_EQ_INT(cuzk_snap_job_n_public(job), 4);
    size_t nv = cuzk_snap_job_n_vars(job);
    CHECK_EQ_INT(nv, 5 + 1703569);
    uint64_t *w = malloc(nv * 32);
    uint8_t pub[4 * 32], *all;
    REQUIRE(w);
    REQUIRE_MSG(cuzk_snap_job_synth(job, 0, w, nv, &e) == CUZK_OK, "%s", e.msg);
    REQUIRE(cuzk_snap_job_public_inputs(job, 0, pub, &e) == CUZK_OK);
    cuzk_snap_public sp = {0, {0}, {0}, {0}};
    memcpy(sp.comm_r_old, c[0], 32);
    memcpy(sp.comm_d_new, c[1], 32);
    memcpy(sp.comm_r_new, c[2], 32);
    uint32_t P;
    size_t np;
    REQUIRE(cuzk_snap_public_inputs(&sp, &P, &np, &all, &e) == CUZK_OK);
    CHECK(P == 1 && np == 4 && !memcmp(all, pub, sizeof pub));
    for (int i = 0; i < 4; i++) {   /* the witness holds them (Montgomery) */
        fr x;
        (void)fr_from_bytes_le(&x, pub + 32 * i, 32);
        CHECK(!memcmp(&x, w + 4 * (1 + i), 32));
    }
    snap_params spp;
    REQUIRE(snap_params_init(&spp, 2048, &e) == CUZK_OK);
    uint64_t bad;
    CHECK_MSG(snap_check_witness_parallel((const fr *)(void *)w, nv, &spp, 2, &bad, &e) == CUZK_OK, "%s", e.msg);
    cuzk_post_free(all);
    cuzk_snap_job_free(job);
    /* the same proofs as Curio's vanilla_proofs (bincode per partition) */
    snap_blob *blobs;
    size_t nb;
    REQUIRE(snap_vproofs_json_split(&blobs, &nb, 16, js, len, &e) == CUZK_OK && nb == 1);
    const uint8_t *parts[1] = {blobs[0].data};
    size_t lens[1] = {blobs[0].len};
    req.json = NULL;
    req.json_len = 0;
    req.parts = parts;
    req.part_lens = lens;
    req.n_parts = 1;
    REQUIRE_MSG(cuzk_snap_job_create(&job, &req, &e) == CUZK_OK, "%s", e.msg);
    cuzk_snap_job_free(job);
    /* refused: two forms, another partition count, another size, a changed commitment, a
     * commitment that is not a field element */
    req.json = js;
    CHECK(cuzk_snap_job_create(&job, &req, &e) == CUZK_ERR_ARG && !job);
    req.json = NULL;
    req.n_parts = 2;
    const uint8_t *parts2[2] = {blobs[0].data, blobs[0].data};
    size_t lens2[2] = {blobs[0].len, blobs[0].len};
    req.parts = parts2;
    req.part_lens = lens2;
    CHECK(cuzk_snap_job_create(&job, &req, &e) == CUZK_ERR_FORMAT);
    req.parts = parts;
    req.part_lens = lens;
    req.n_parts = 1;
    req.registered_proof = 1;
    CHECK(cuzk_snap_job_create(&job, &req, &e) == CUZK_ERR_FORMAT);
    req.registered_proof = 7;
    CHECK(cuzk_snap_job_create(&job, &req, &e) == CUZK_ERR_ARG);
    req.registered_proof = 0;
    req.comm_d_new[0] ^= 1;
    CHECK(cuzk_snap_job_create(&job, &req, &e) == CUZK_ERR_INVALID);
    CHECK_MSG(strstr(e.msg, "partition 0 challenge 0: proof_d_new: root is not comm_d_new") != NULL, "%s", e.msg);
    req.comm_d_new[0] ^= 1;
    memset(req.comm_r_new, 0xff, 32);
    CHECK(cuzk_snap_job_create(&job, &req, &e) == CUZK_ERR_ARG);
    snap_blobs_free(blobs, nb);
    free(w);
    cuzk_post_free(js);
}

/* the committed 2 KiB update (tests/fixtures/filecoin/snap_2k.*: make-update --registered-proof 0
 * --data-seed 3): it passes the checks, and make_update still makes it byte for byte */
TEST(snap, golden_2k_update) {
    size_t n, jn;
    uint8_t *js = test_slurp(test_fixture("filecoin/snap_2k.vproofs.json"), &n);
    char *pubj = (char *)test_slurp(test_fixture("filecoin/snap_2k.json"), &jn);
    REQUIRE(js && pubj);
    cuzk_snap_request req;
    memset(&req, 0, sizeof req);
    static const char *const keys[3] = {"\"comm_r_old\": \"", "\"comm_d_new\": \"", "\"comm_r_new\": \""};
    uint8_t *dst[3] = {req.comm_r_old, req.comm_d_new, req.comm_r_new};
    for (int k = 0; k < 3; k++) {
        const char *p = strstr(pubj, keys[k]);
        REQUIRE(p);
        p += strlen(keys[k]);
        for (int i = 0; i < 32; i++) {
            unsigned v;
            REQUIRE(sscanf(p + 2 * i, "%2x", &v) == 1);
            dst[k][i] = (uint8_t)v;
        }
    }
    req.registered_proof = 0;
    req.json = js;
    req.json_len = n;
    cuzk_error e = {0};
    cuzk_snap_job *job;
    CHECK_MSG(cuzk_snap_job_create(&job, &req, &e) == CUZK_OK, "%s", e.msg);
    cuzk_snap_job_free(job);
    cuzk_snap_update_request ur = {0, 3, 0, 2};
    uint8_t *again, c[3][32];
    size_t an;
    REQUIRE_MSG(cuzk_snap_make_update(&ur, &again, &an, c[0], c[1], c[2], &e) == CUZK_OK, "%s", e.msg);
    CHECK(an == n && !memcmp(again, js, n));
    for (int k = 0; k < 3; k++) CHECK_MEM(c[k], dst[k], 32);
    cuzk_post_free(again);
    free(js);
    free(pubj);
}

/* commitments as Curio sends them (cid.Bytes()): the CIDv1 of go-fil-commcid, or 32 raw bytes */
TEST(snap, commitment_from_cid_bytes) {
    uint8_t d[32], out[32], cid[48];
    cuzk_error e = {0};
    test_rand_bytes(d, 32);
    CHECK(cuzk_commitment_from_bytes(out, d, 32, CUZK_COMMITMENT_SEALED, &e) == CUZK_OK && !memcmp(out, d, 32));
    /* bafk... sealed: 01 | f102 | b401 | 20 | digest */
    static const uint8_t SP[8] = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20}, UP[7] = {0x01, 0x81, 0xe2, 0x03, 0x92, 0x20, 0x20};
    memcpy(cid, SP, 8);
    memcpy(cid + 8, d, 32);
    memset(out, 0, 32);
    CHECK(cuzk_commitment_from_bytes(out, cid, 40, CUZK_COMMITMENT_SEALED, &e) == CUZK_OK && !memcmp(out, d, 32));
    CHECK(cuzk_commitment_from_bytes(out, cid, 40, CUZK_COMMITMENT_UNSEALED, &e) == CUZK_ERR_FORMAT);
    CHECK(cuzk_commitment_from_bytes(out, cid, 39, CUZK_COMMITMENT_SEALED, &e) == CUZK_ERR_FORMAT);
    memcpy(cid, UP, 7);
    memcpy(cid + 7, d, 32);
    memset(out, 0, 32);
    CHECK(cuzk_commitment_from_bytes(out, cid, 39, CUZK_COMMITMENT_UNSEALED, &e) == CUZK_OK && !memcmp(out, d, 32));
    cid[2] ^= 1;
    CHECK(cuzk_commitment_from_bytes(out, cid, 39, CUZK_COMMITMENT_UNSEALED, &e) == CUZK_ERR_FORMAT);
    CHECK(strstr(e.msg, "unsealed") != NULL);
    CHECK(cuzk_commitment_from_bytes(out, NULL, 0, CUZK_COMMITMENT_SEALED, &e) == CUZK_ERR_FORMAT);
}
