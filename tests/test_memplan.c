/* The device memory plan (src/groth16/memplan.h, issue 23 item 1) on fake device sizes: the
 * Filecoin shapes (PoRep 32 GiB partition, WindowPoSt 32 GiB partition, WinningPoSt 32 GiB; counts
 * of CIRCUITS.md sections 4 and 5) on 16, 24, 48, 80 and 141 GiB devices. No GPU needed: the MSM
 * scratch comes from memplan_model_scratch (a GPU test checks the device code's own numbers). */
#include <stdlib.h>
#include <string.h>

#include "groth16/memplan.h"
#include "test.h"
#include "cuda/gpu.h"      /* gpu_msm_window_bits: inline, plain C */
#include "cuda/gpu_r1cs.h" /* gpu_r1cs_stage_bytes: inline, plain C */

#define GIB ((size_t)1 << 30)

typedef struct shape {
    const char *name;
    size_t inputs, aux, a_aux, b_aux, b_in, log_m;
    size_t circuit_bytes; /* resident matrices + selections (measured on the H200: bench/RESULTS.md) */
} shape;

/* CIRCUITS.md: PoRep 32 GiB (328 inputs, 130,169,893 aux, A-aux 129,753,292, B-aux 33,112,281,
 * B-input 1; matrices 8.9 GB resident, section 11), WindowPoSt 32 GiB (25,840 inputs, 126,902,376
 * aux, A-aux 96,179,805, B-aux 91,925,766; 52.2 GiB resident with the G1 queries, section 24:
 * ~12 GiB of matrices), WinningPoSt 32 GiB (133, 375,210, 284,196, 272,184; domain 2^19) */
static const shape POREP = {"porep-32g", 328, 130169893, 129753292, 33112281, 1, 27, 8900000000ull};
static const shape WINDOW = {"window-post-32g", 25840, 126902376, 96179805, 91925766, 1, 27, (size_t)12 << 30};
static const shape WINNING = {"winning-post-32g", 133, 375210, 284196, 272184, 1, 19, (size_t)40 << 20};

/* usable bytes of a device of `gib` GiB (cudaMemGetInfo's free on an idle card: ~0.5 GiB less) */
static size_t usable(double gib) { return (size_t)(gib * (double)GIB) - ((size_t)512 << 20); }

static memplan_input input_of(const shape *s, size_t budget) {
    memplan_input in;
    memset(&in, 0, sizeof in);
    in.budget_bytes = budget;
    in.n[MEMPLAN_A] = s->inputs + s->a_aux;
    in.n[MEMPLAN_B1] = s->b_in + s->b_aux;
    in.n[MEMPLAN_L] = s->aux;
    in.n[MEMPLAN_H] = ((size_t)1 << s->log_m) - 1;
    in.n[MEMPLAN_B2] = s->b_in + s->b_aux;
    in.g1_bytes = 96;
    in.g2_bytes = 192;
    in.fr_bytes = 32;
    in.n_vars = s->inputs + s->aux;
    in.m = (size_t)1 << s->log_m;
    in.circuit_bytes = s->circuit_bytes;
    /* streamed matrices keep the selections (4 bytes a selected A / B point) and tiny tables */
    in.circuit_min_bytes = (in.n[MEMPLAN_A] + in.n[MEMPLAN_B1]) * 4 + 4096;
    in.circuit_stage_bytes = gpu_r1cs_stage_bytes(0, 0);
    in.park_ok = true;
    in.tables_bytes = (in.m / 2 + 7 + 2 * (1024 + in.m / 1024)) * 32;
    /* the prover's device margin: max(512 MiB, 1/64 of the device) */
    in.margin_bytes = budget / 64 > ((size_t)512 << 20) ? budget / 64 : ((size_t)512 << 20);
    return in;
}

static const int order[MEMPLAN_NQ] = {MEMPLAN_H, MEMPLAN_B2, MEMPLAN_L, MEMPLAN_A, MEMPLAN_B1};

/* what every plan must satisfy */
static void check_invariants(const memplan *p, const memplan_input *in, const char *what) {
    CHECK_MSG(p->arena_bytes >= p->phase_bytes[0] && p->arena_bytes >= p->phase_bytes[1] &&
                  p->arena_bytes >= p->phase_bytes[2], "%s: arena below a phase", what);
    CHECK_MSG(p->need_bytes == p->resident_bytes + p->arena_bytes + p->margin_bytes, "%s: need", what);
    CHECK_MSG(p->fits == (p->need_bytes <= in->budget_bytes), "%s: fits %d need %zu budget %zu", what, p->fits,
              p->need_bytes, in->budget_bytes);
    CHECK_MSG(p->min_need_bytes <= p->need_bytes, "%s: min need above need", what);
    /* the proof's vectors: witness + a, b, c in the H phase; the lean H: the witness and one of
     * them, then two */
    if (!p->h_parked)
        CHECK_MSG(p->phase_bytes[0] >= (in->n_vars + 3 * in->m) * in->fr_bytes, "%s: H phase", what);
    else
        CHECK_MSG(p->phase_bytes[0] >= (in->n_vars + in->m) * in->fr_bytes && p->phase_bytes[0] >= 2 * in->m * in->fr_bytes &&
                      p->park_bytes == 2 * in->m * in->fr_bytes, "%s: lean H phase", what);
    CHECK_MSG(p->h_parked || p->park_bytes == 0, "%s: park bytes without the lean H", what);
    /* streaming goes in the documented order: a query streams only when every query before it
     * (not given, B_G2 not on CPU threads) streams too */
    int seen_resident = 0;
    for (int i = 0; i < MEMPLAN_NQ; i++) {
        const int q = order[i];
        if ((in->given >> q) & 1) {
            CHECK_MSG(p->place[q] != MEMPLAN_STREAMED, "%s: given query %s streamed", what, memplan_query_name(q));
            continue;
        }
        if (p->place[q] == MEMPLAN_HOST_THREADS) continue;
        if (p->place[q] == MEMPLAN_STREAMED)
            CHECK_MSG(!seen_resident, "%s: %s streams while an earlier query stays resident", what, memplan_query_name(q));
        else
            seen_resident = 1;
    }
    for (int q = MEMPLAN_A; q <= MEMPLAN_H; q++) CHECK(p->place[q] != MEMPLAN_HOST_THREADS);
    int s1 = 0;
    for (int q = MEMPLAN_A; q <= MEMPLAN_H; q++) s1 |= p->place[q] == MEMPLAN_STREAMED;
    CHECK_MSG((p->stream_points[0] != 0) == (s1 != 0), "%s: G1 stream chunk", what);
    CHECK_MSG((p->stream_points[1] != 0) == (p->place[MEMPLAN_B2] == MEMPLAN_STREAMED), "%s: G2 stream chunk", what);
    /* bytes: what is resident and what streams add up to the queries */
    size_t all = 0, res = 0, str = 0;
    for (int q = 0; q < MEMPLAN_NQ; q++) {
        size_t b = in->n[q] * (q == MEMPLAN_B2 ? in->g2_bytes : in->g1_bytes);
        if (p->place[q] == MEMPLAN_HOST_THREADS) continue;
        all += b;
        if (p->place[q] == MEMPLAN_RESIDENT) res += b;
        else str += b;
    }
    const size_t mat = p->circuit == MEMPLAN_STREAMED ? in->circuit_bytes - in->circuit_min_bytes : 0;
    const size_t park = p->h_parked ? (2 * in->m + in->n_vars) * in->fr_bytes : 0;
    CHECK_MSG(res == p->query_bytes && str + mat + park == p->streamed_bytes && res + str == all, "%s: query bytes", what);
    /* the lean H only when no plan without it fits (with B_G2 on the device) */
    if (p->h_parked) {
        CHECK(in->park_ok);
        memplan_input r = *in;
        r.park_ok = false;
        memplan q;
        memplan_make(&q, &r);
        CHECK_MSG(!q.fits || q.place[MEMPLAN_B2] == MEMPLAN_HOST_THREADS, "%s: lean H although a plan without it fits",
                  what);
    }
    /* the matrices stream last: only when no plan with them resident fits (every query streamed
     * included); their staging is in the H step's phase */
    if (p->circuit == MEMPLAN_STREAMED) {
        CHECK_MSG(in->circuit_stage_bytes > 0, "%s: matrices streamed without staging", what);
        memplan_input r = *in;
        r.circuit_stage_bytes = 0; /* the matrices cannot stream */
        r.park_ok = false;
        memplan q;
        memplan_make(&q, &r);
        CHECK_MSG(!q.fits || q.place[MEMPLAN_B2] == MEMPLAN_HOST_THREADS, "%s: matrices streamed although a plan "
                  "with them resident and B_G2 on the device fits", what);
        if (!p->h_parked) CHECK(p->phase_bytes[0] >= (in->n_vars + 3 * in->m) * in->fr_bytes + in->circuit_stage_bytes);
    }
    char line[512];
    int l = memplan_describe(p, line, sizeof line);
    CHECK(l > 0 && (size_t)l < sizeof line);
    CHECK(strstr(line, p->fits ? "fits" : "does not fit") == line);
}

/* B_G2 goes to CPU threads only when no plan with it on the device fits */
static void check_b2_device_first(const memplan *p, const memplan_input *in, const char *what) {
    if (p->place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS || in->b2_want < 0) return;
    memplan_input d = *in;
    d.b2_want = 1;
    memplan q;
    memplan_make(&q, &d);
    CHECK_MSG(!q.fits, "%s: B_G2 on CPU threads although a device plan fits", what);
}

static memplan plan_of(const shape *s, double gib, const char *tag) {
    memplan_input in = input_of(s, usable(gib));
    memplan p;
    memplan_make(&p, &in);
    char what[128], line[512];
    snprintf(what, sizeof what, "%s on %.0f GiB%s", s->name, gib, tag);
    check_invariants(&p, &in, what);
    check_b2_device_first(&p, &in, what);
    memplan_describe(&p, line, sizeof line);
    printf("  %-34s %s\n", what, line);
    return p;
}

TEST(memplan, porep_32g) {
    /* 141 GiB (H200): everything resident, the largest chunk */
    memplan p = plan_of(&POREP, 141, "");
    REQUIRE(p.fits);
    for (int q = 0; q < MEMPLAN_NQ; q++) CHECK(p.place[q] == MEMPLAN_RESIDENT);
    CHECK(p.chunk_points == (size_t)1 << 25);
    CHECK(p.streamed_bytes == 0);
    /* 80 GiB (H100): still everything resident with B_G2 on the device: b and c are given back
     * after H, so the MSM scratch reuses them (the old pool held both: 27.6 GiB) */
    p = plan_of(&POREP, 80, "");
    REQUIRE(p.fits);
    for (int q = 0; q < MEMPLAN_NQ; q++) CHECK_MSG(p.place[q] == MEMPLAN_RESIDENT, "query %s", memplan_query_name(q));
    CHECK(p.arena_bytes < (size_t)22 << 30);
    /* 48 GiB: H streams first, B_G2 stays on the device */
    p = plan_of(&POREP, 48, "");
    REQUIRE(p.fits);
    CHECK(p.place[MEMPLAN_H] == MEMPLAN_STREAMED);
    CHECK(p.place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS);
    CHECK(p.stream_points[0] > 0);
    /* 24 GiB: the matrices stream (with them resident not even every query streamed leaves room
     * for the witness and a, b, c: 15.9 GiB), with as few queries as fit; B_G2 on the device */
    p = plan_of(&POREP, 24, "");
    REQUIRE(p.fits);
    CHECK(p.circuit == MEMPLAN_STREAMED);
    CHECK(p.place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS);
    /* 16 GiB: the witness and a, b, c of one proof alone are 15.9 GiB: the lean H parks a, b, c
     * in host memory; B_G2 stays on the device */
    p = plan_of(&POREP, 16, "");
    REQUIRE(p.fits);
    CHECK(p.h_parked && p.circuit == MEMPLAN_STREAMED);
    CHECK(p.place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS);
    /* without the lean H (a prover that cannot park): refused, saying how much it needs */
    {
        memplan_input in = input_of(&POREP, usable(16));
        in.park_ok = false;
        memplan q;
        memplan_make(&q, &in);
        check_invariants(&q, &in, "porep-32g on 16 GiB without the lean H");
        CHECK(!q.fits);
        CHECK(q.min_need_bytes > usable(16) && q.min_need_bytes < (size_t)21 << 30);
    }
    /* 12 GiB: refused (the lean H's two vectors, the witness and the tables do not fit) */
    p = plan_of(&POREP, 12, "");
    CHECK(!p.fits);
    CHECK(p.min_need_bytes > usable(12));
}

TEST(memplan, window_post_32g) {
    memplan p = plan_of(&WINDOW, 141, "");
    REQUIRE(p.fits);
    for (int q = 0; q < MEMPLAN_NQ; q++) CHECK(p.place[q] == MEMPLAN_RESIDENT);
    /* 80 GiB: the case that died with an out-of-memory (issue 23); B_G2 (91.9M G2 points) on the
     * device, streamed or resident, never on CPU threads */
    p = plan_of(&WINDOW, 80, "");
    REQUIRE(p.fits);
    CHECK(p.place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS);
    CHECK(p.streamed_bytes > 0);
    CHECK(p.place[MEMPLAN_H] == MEMPLAN_STREAMED);
    p = plan_of(&WINDOW, 48, "");
    REQUIRE(p.fits);
    CHECK(p.place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS);
    /* 24 GiB: the matrices (12 GiB) stream, and queries as far as needed; B_G2 on the device */
    p = plan_of(&WINDOW, 24, "");
    REQUIRE(p.fits);
    CHECK(p.circuit == MEMPLAN_STREAMED);
    CHECK(p.place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS);
    /* 16 GiB: the H step's vectors (15.8 GiB) do not fit: the lean H */
    p = plan_of(&WINDOW, 16, "");
    REQUIRE(p.fits);
    CHECK(p.h_parked && p.circuit == MEMPLAN_STREAMED);
    CHECK(p.place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS);
}

TEST(memplan, winning_post_32g) {
    static const double sizes[] = {16, 24, 48, 80, 141};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        memplan p = plan_of(&WINNING, sizes[i], "");
        REQUIRE(p.fits);
        for (int q = 0; q < MEMPLAN_NQ; q++) CHECK(p.place[q] == MEMPLAN_RESIDENT);
        CHECK(p.need_bytes - p.margin_bytes < (size_t)1 << 30);
    }
}

/* a larger budget never streams more, and what fits keeps fitting */
TEST(memplan, monotone_in_budget) {
    const shape *shapes[] = {&POREP, &WINDOW, &WINNING};
    for (size_t s = 0; s < 3; s++) {
        size_t prev_streamed = (size_t)-1;
        int prev_fits = 0;
        for (double gib = 8; gib <= 160; gib += 2) {
            memplan_input in = input_of(shapes[s], usable(gib));
            memplan p;
            memplan_make(&p, &in);
            char what[96];
            snprintf(what, sizeof what, "%s on %.0f GiB", shapes[s]->name, gib);
            check_invariants(&p, &in, what);
            check_b2_device_first(&p, &in, what);
            CHECK_MSG(!prev_fits || p.fits, "%s: fits at a smaller budget, not here", what);
            if (p.fits && prev_fits) CHECK_MSG(p.streamed_bytes <= prev_streamed, "%s: streams more", what);
            if (p.fits) prev_streamed = p.streamed_bytes;
            prev_fits = p.fits;
            /* the refusal's figure is a budget that fits */
            if (!p.fits) {
                memplan_input in2 = input_of(shapes[s], p.min_need_bytes);
                in2.margin_bytes = in.margin_bytes;
                memplan q;
                memplan_make(&q, &in2);
                CHECK_MSG(q.fits, "%s: min_need %zu does not fit", what, p.min_need_bytes);
            }
        }
    }
}

/* the user's choices win: B_G2 on CPU threads, a given chunk, window and stream chunk */
TEST(memplan, user_choices) {
    memplan_input in = input_of(&POREP, usable(80));
    in.b2_want = -1;
    memplan p;
    memplan_make(&p, &in);
    check_invariants(&p, &in, "b2 cpu");
    REQUIRE(p.fits);
    CHECK(p.place[MEMPLAN_B2] == MEMPLAN_HOST_THREADS);
    CHECK(p.phase_bytes[2] == 0);
    in = input_of(&WINDOW, usable(80));
    in.chunk_points = (size_t)1 << 24;
    in.window_bits = 18;
    memplan_make(&p, &in);
    check_invariants(&p, &in, "chunk 2^24 window 18");
    REQUIRE(p.fits);
    CHECK(p.chunk_points == (size_t)1 << 24);
    CHECK(p.window_bits == 18 && p.chunk_window_bits == 18);
    in.stream_points = (size_t)1 << 22;
    memplan_make(&p, &in);
    REQUIRE(p.fits);
    for (int g = 0; g < 2; g++) CHECK(p.stream_points[g] == 0 || p.stream_points[g] == (size_t)1 << 22);
    /* the device B_G2 required: a budget that fits only with it on CPU threads is refused */
    in = input_of(&WINDOW, usable(80));
    in.b2_want = 1;
    memplan_make(&p, &in);
    check_invariants(&p, &in, "b2 device");
    CHECK(p.place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS);
}

/* a borrowed SRS (the SRS store's device copy): its queries are resident whatever the budget */
TEST(memplan, given_queries) {
    memplan_input in = input_of(&POREP, usable(48));
    in.given = (1u << MEMPLAN_A) | (1u << MEMPLAN_B1) | (1u << MEMPLAN_L) | (1u << MEMPLAN_H);
    memplan p;
    memplan_make(&p, &in);
    check_invariants(&p, &in, "given G1 on 48 GiB");
    for (int q = MEMPLAN_A; q <= MEMPLAN_H; q++) CHECK(p.place[q] == MEMPLAN_RESIDENT);
    CHECK(p.query_bytes >= (in.n[0] + in.n[1] + in.n[2] + in.n[3]) * 96);
    /* on 80 GiB the given G1 queries leave room for the rest */
    in.budget_bytes = usable(80);
    memplan_make(&p, &in);
    check_invariants(&p, &in, "given G1 on 80 GiB");
    REQUIRE(p.fits);
    CHECK(p.place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS);
}

/* the model of the scratch grows with n and with the chunk; a streamed MSM's peak is bounded by
 * its chunk, not its n */
TEST(memplan, scratch_model) {
    size_t prev = 0;
    for (int lg = 10; lg <= 27; lg++) {
        size_t b = memplan_model_scratch(NULL, 0, 0, (size_t)1 << lg, 0, 0, 0);
        CHECK_MSG(b > prev, "2^%d", lg);
        prev = b;
    }
    CHECK(memplan_model_scratch(NULL, 0, 0, 0, 0, 0, 0) == 0);
    const size_t n = (size_t)1 << 27, S = (size_t)1 << 22;
    size_t st = memplan_model_scratch(NULL, 1, 1, n, 0, 0, S);
    CHECK(st >= 2 * S * 192);
    CHECK(st < memplan_model_scratch(NULL, 1, 0, n, 0, 0, 0));
    CHECK(memplan_model_scratch(NULL, 1, 1, n, 0, 0, S) == memplan_model_scratch(NULL, 1, 1, 2 * n, 0, 0, S));
    CHECK(memplan_model_scratch(NULL, 1, 0, (size_t)1 << 24, 0, 0, 0) > memplan_model_scratch(NULL, 0, 0, (size_t)1 << 24, 0, 0, 0));
}

/* the window rule is the device code's */
TEST(memplan, window_rule) {
    CHECK_EQ_INT(memplan_window_bits((size_t)1 << 25), 20);
    CHECK_EQ_INT(memplan_window_bits((size_t)1 << 26), 20);
    CHECK_EQ_INT(memplan_window_bits((size_t)1 << 24), 18);
    CHECK_EQ_INT(memplan_window_bits((size_t)1 << 20), 16);
    CHECK_EQ_INT(memplan_window_bits((size_t)1 << 10), 6);
    CHECK_EQ_INT(memplan_window_bits(1), 4);
    /* one rule: the plan's is the device code's inline (src/cuda/gpu.h), with or without CUDA */
    for (int lg = 0; lg <= 30; lg++)
        for (int d = -1; d <= 1; d++) {
            size_t n = ((size_t)1 << lg) + (size_t)(lg > 1 ? d : 0);
            CHECK_MSG(memplan_window_bits(n) == gpu_msm_window_bits(n), "n %zu", n);
        }
}
