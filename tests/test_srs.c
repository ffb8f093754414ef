/* Suite "srs": the .params loader at scale (check levels, lowest bad point under parallel
 * validation, size checks, progress) and the SRS store (src/srs/store.h) on a fake device:
 * reference counts, LRU order, budgets under concurrency, BUSY evictions that free nothing,
 * waiting on a concurrent load, stats; the pread decode and the pre-decoded SRS cache
 * (src/formats/srs_cache.h: round trip, stale/corrupt/truncated caches refused and the .params
 * decoded; tests named cache_*). CPU only, a few seconds; run under ASan/LSan by `make test-asan`. */
#include "test.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"
#include "test_rand.h"

#include "curves/bls12_381/curve.h"
#include "util/reaper.h"
#include "formats/bellperson.h"
#include "formats/fmt_util.h"
#include "formats/mapped_file.h"
#include "srs/store.h"
#include "util/timer.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

/* ---- parameter files -------------------------------------------------------------------- */


/* A point on E(Fp) outside the prime-order subgroup (a random curve point: the cofactor makes
 * that almost certain; checked). */
static void g1_off_subgroup(g1_affine *out) {
    for (;;) {
        uint8_t b[48];
        test_rand_bytes(b, sizeof b);
        b[0] &= 0x0f;
        fp x, rhs, four, y;
        if (!fp_from_bytes_be(&x, b, 48)) continue;
        fp_sqr(&rhs, &x);
        fp_mul(&rhs, &rhs, &x);
        fp_from_u64(&four, 4);
        fp_add(&rhs, &rhs, &four);
        if (!fp_sqrt(&y, &rhs)) continue;
        out->x = x;
        out->y = y;
        if (g1_affine_is_on_curve(out) && !g1_affine_is_in_subgroup(out)) return;
    }
}
static void g2_off_subgroup(g2_affine *out) {
    for (;;) {
        uint8_t b[96];
        test_rand_bytes(b, sizeof b);
        b[0] &= 0x0f;
        b[48] &= 0x0f;
        fp2 x, rhs, bb, y;
        if (!fp_from_bytes_be(&x.c1, b, 48) || !fp_from_bytes_be(&x.c0, b + 48, 48)) continue;
        fp2_sqr(&rhs, &x);
        fp2_mul(&rhs, &rhs, &x);
        fp_from_u64(&bb.c0, 4);
        bb.c1 = bb.c0;
        fp2_add(&rhs, &rhs, &bb);
        if (!fp2_sqrt(&y, &rhs)) continue;
        out->x = x;
        out->y = y;
        if (g2_affine_is_on_curve(out) && !g2_affine_is_in_subgroup(out)) return;
    }
}

typedef struct counts { uint32_t ic, h, l, a, b_g1, b_g2; } counts;

/* Parameters with the given counts; points drawn from a small pool of random subgroup points
 * (repeats are valid points, and make big files cheap). Caller frees. */
static void make_params(bellperson_params *p, counts c) {
    enum { POOL = 8 };
    g1_affine g1p[POOL];
    g2_affine g2p[POOL];
    for (int i = 0; i < POOL; i++) {
        test_rand_g1(&g1p[i]);
        test_rand_g2(&g2p[i]);
    }
    memset(p, 0, sizeof *p);
    p->vk.alpha1 = g1p[0];
    p->vk.beta1 = g1p[1];
    p->vk.beta2 = g2p[0];
    p->vk.gamma2 = g2p[1];
    p->vk.delta1 = g1p[2];
    p->vk.delta2 = g2p[2];
    p->vk.n_public = c.ic - 1;
    p->vk.ic = malloc(sizeof(g1_affine) * c.ic);
    p->n_h = c.h; p->n_l = c.l; p->n_a = c.a; p->n_b_g1 = c.b_g1; p->n_b_g2 = c.b_g2;
    p->h = malloc(sizeof(g1_affine) * (c.h + 1));
    p->l = malloc(sizeof(g1_affine) * (c.l + 1));
    p->a = malloc(sizeof(g1_affine) * (c.a + 1));
    p->b_g1 = malloc(sizeof(g1_affine) * (c.b_g1 + 1));
    p->b_g2 = malloc(sizeof(g2_affine) * (c.b_g2 + 1));
    for (uint32_t i = 0; i < c.ic; i++) p->vk.ic[i] = g1p[(i * 5 + 3) % POOL];
    for (uint32_t i = 0; i < c.h; i++) p->h[i] = g1p[(i * 3 + 1) % POOL];
    for (uint32_t i = 0; i < c.l; i++) p->l[i] = g1p[(i * 7 + 2) % POOL];
    for (uint32_t i = 0; i < c.a; i++) p->a[i] = g1p[i % POOL];
    for (uint32_t i = 0; i < c.b_g1; i++) p->b_g1[i] = g1p[(i + 5) % POOL];
    for (uint32_t i = 0; i < c.b_g2; i++) p->b_g2[i] = g2p[(i * 3) % POOL];
}

static size_t file_size_of(counts c) {
    return 3 * 96 + 3 * 192 + 6 * 4 + 96 * ((size_t)c.ic + c.h + c.l + c.a + c.b_g1) + 192 * (size_t)c.b_g2;
}

/* Byte offset of point `i` of a section ("ic", "h", "l", "a", "b_g1", "b_g2") in a file. */
static size_t off_of(counts c, const char *sec, size_t i) {
    size_t o = 864 + 4;
    if (!strcmp(sec, "ic")) return o + 96 * i;
    o += 96 * (size_t)c.ic + 4;
    if (!strcmp(sec, "h")) return o + 96 * i;
    o += 96 * (size_t)c.h + 4;
    if (!strcmp(sec, "l")) return o + 96 * i;
    o += 96 * (size_t)c.l + 4;
    if (!strcmp(sec, "a")) return o + 96 * i;
    o += 96 * (size_t)c.a + 4;
    if (!strcmp(sec, "b_g1")) return o + 96 * i;
    o += 96 * (size_t)c.b_g1 + 4;
    return o + 192 * i; /* b_g2 */
}

static char *write_params_file(const char *name, counts c, bellperson_params *keep) {
    static char paths[8][512];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, sizeof paths[0], "%s/%s", test_tmpdir(), name);
    bellperson_params p;
    make_params(&p, c);
    if (bellperson_params_write(path, &p, NULL) != CUZK_OK) test_fail(__FILE__, __LINE__, "write %s", path);
    if (keep) *keep = p;
    else bellperson_params_free(&p);
    return path;
}

static uint8_t *slurp(const char *path, size_t *n) { return test_slurp(path, n); }

static void spit(const char *path, const uint8_t *b, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) { test_fail(__FILE__, __LINE__, "cannot create %s", path); return; }
    if (n) fwrite(b, 1, n, f);
    fclose(f);
}

static bool params_equal(const bellperson_params *x, const bellperson_params *y) {
    return x->n_h == y->n_h && x->n_l == y->n_l && x->n_a == y->n_a && x->n_b_g1 == y->n_b_g1 &&
           x->n_b_g2 == y->n_b_g2 && x->vk.n_public == y->vk.n_public &&
           !memcmp(&x->vk.alpha1, &y->vk.alpha1, sizeof x->vk.alpha1) &&
           !memcmp(&x->vk.delta2, &y->vk.delta2, sizeof x->vk.delta2) &&
           !memcmp(x->vk.ic, y->vk.ic, sizeof(g1_affine) * (x->vk.n_public + 1)) &&
           !memcmp(x->h, y->h, sizeof(g1_affine) * x->n_h) && !memcmp(x->l, y->l, sizeof(g1_affine) * x->n_l) &&
           !memcmp(x->a, y->a, sizeof(g1_affine) * x->n_a) && !memcmp(x->b_g1, y->b_g1, sizeof(g1_affine) * x->n_b_g1) &&
           !memcmp(x->b_g2, y->b_g2, sizeof(g2_affine) * x->n_b_g2);
}

static cuzk_status decode_mem(bellperson_params *p, const uint8_t *b, size_t n, cuzk_check_level lvl, int threads,
                              cuzk_error *e) {
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.check = lvl;
    o.nthreads = threads;
    memset(e, 0, sizeof *e);
    return bellperson_params_decode(p, b, n, "t", &o, e);
}

/* ---- loader ----------------------------------------------------------------------------- */

typedef struct counting_alloc { size_t allocs, frees, live_bytes; } counting_alloc;
static void *ca_alloc(void *ctx, size_t bytes) {
    counting_alloc *c = ctx;
    c->allocs++;
    c->live_bytes += bytes;
    return aligned_alloc(64, (bytes + 63) & ~(size_t)63);
}
static void ca_free(void *ctx, void *p, size_t bytes) {
    counting_alloc *c = ctx;
    c->frees++;
    c->live_bytes -= bytes;
    free(p);
}

TEST(srs, load_round_trip_each_level) {
    counts c = {3, 12000, 700, 500, 300, 200}; /* > 1 MiB (parallel), h spans 3 chunks */
    bellperson_params orig;
    const char *path = write_params_file("rt.params", c, &orig);
    cuzk_check_level lv[] = {CUZK_CHECK_NONE, CUZK_CHECK_CURVE, CUZK_CHECK_DEFAULT};
    for (int i = 0; i < 3; i++) {
        for (int threads = 1; threads <= 4; threads += 3) {
            bellperson_params p;
            bellperson_load_opts o;
            counting_alloc ca = {0};
            memset(&o, 0, sizeof o);
            o.check = lv[i];
            o.nthreads = threads;
            o.alloc = ca_alloc;
            o.free = ca_free;
            o.alloc_ctx = &ca;
            cuzk_error e = {0};
            CHECK_MSG(bellperson_params_load_ex(&p, path, &o, &e) == CUZK_OK, "level %d: %s", (int)lv[i], e.msg);
            CHECK(params_equal(&p, &orig));
            CHECK(p.block != NULL && ((uintptr_t)p.block & 63) == 0 && ca.allocs == 1 && ca.live_bytes == p.block_bytes);
            CHECK(((uintptr_t)p.l & 63) == 0 && ((uintptr_t)p.b_g2 & 63) == 0);
            CHECK(bellperson_params_host_bytes(&p) >= file_size_of(c) - 864 - 24); /* no vk, no counts */
            bellperson_params_free(&p);
            CHECK(ca.frees == 1 && ca.live_bytes == 0);
        }
    }
    bellperson_params_free(&orig);
    /* FULL on a smaller file (the subgroup check is ~100x the cost) */
    counts s = {2, 40, 9, 7, 5, 3};
    path = write_params_file("rt_full.params", s, &orig);
    bellperson_params p;
    cuzk_error e = {0};
    CHECK_MSG(bellperson_params_load(&p, path, true, &e) == CUZK_OK, "%s", e.msg);
    CHECK(params_equal(&p, &orig));
    bellperson_params_free(&p);
    bellperson_params_free(&orig);
}

TEST(srs, bad_points_per_level) {
    counts c = {2, 40, 9, 7, 5, 3};
    const char *path = write_params_file("lv.params", c, NULL);
    size_t n;
    uint8_t *orig = slurp(path, &n), *b = malloc(n);
    REQUIRE(orig && n == file_size_of(c));
    bellperson_params p;
    cuzk_error e;
    /* flipped byte in l[4] -> off the curve: CURVE and FULL reject, NONE takes it */
    memcpy(b, orig, n);
    b[off_of(c, "l", 4) + 95] ^= 0x01;
    CHECK(decode_mem(&p, b, n, CUZK_CHECK_NONE, 0, &e) == CUZK_OK);
    bellperson_params_free(&p);
    for (int lv = CUZK_CHECK_CURVE; lv <= CUZK_CHECK_FULL; lv++) {
        CHECK_EQ_INT(decode_mem(&p, b, n, (cuzk_check_level)lv, 0, &e), CUZK_ERR_POINT);
        CHECK_MSG(strstr(e.msg, "l point 4: not on the curve"), "%s", e.msg);
        CHECK(p.h == NULL && p.block == NULL && p.vk.ic == NULL); /* nothing held on error */
    }
    /* a curve point outside the subgroup in a[6]: only FULL rejects */
    g1_affine q;
    g1_off_subgroup(&q);
    memcpy(b, orig, n);
    g1_affine_to_uncompressed(b + off_of(c, "a", 6), &q);
    CHECK(decode_mem(&p, b, n, CUZK_CHECK_CURVE, 0, &e) == CUZK_OK);
    bellperson_params_free(&p);
    CHECK_EQ_INT(decode_mem(&p, b, n, CUZK_CHECK_FULL, 0, &e), CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "a point 6: not in the prime-order subgroup"), "%s", e.msg);
    /* G2 outside the subgroup in b_g2[2] */
    g2_affine q2;
    g2_off_subgroup(&q2);
    memcpy(b, orig, n);
    g2_affine_to_uncompressed(b + off_of(c, "b_g2", 2), &q2);
    CHECK(decode_mem(&p, b, n, CUZK_CHECK_CURVE, 0, &e) == CUZK_OK);
    bellperson_params_free(&p);
    CHECK_EQ_INT(decode_mem(&p, b, n, CUZK_CHECK_FULL, 0, &e), CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "b_g2 point 2: not in the prime-order subgroup"), "%s", e.msg);
    /* x >= p (non-canonical) in h[0]; infinity in b_g1[1]; compressed flag in ic[1] */
    memcpy(b, orig, n);
    memset(b + off_of(c, "h", 0), 0xff, 48);
    b[off_of(c, "h", 0)] = 0x1f;
    CHECK_EQ_INT(decode_mem(&p, b, n, CUZK_CHECK_CURVE, 0, &e), CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "h point 0: coordinate not canonical"), "%s", e.msg);
    memcpy(b, orig, n);
    memset(b + off_of(c, "b_g1", 1), 0, 96);
    b[off_of(c, "b_g1", 1)] = 0x40;
    CHECK_EQ_INT(decode_mem(&p, b, n, CUZK_CHECK_CURVE, 0, &e), CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "b_g1 point 1: point at infinity"), "%s", e.msg);
    CHECK(decode_mem(&p, b, n, CUZK_CHECK_NONE, 0, &e) == CUZK_OK); /* NONE: infinity is (0, 0) */
    CHECK(g1_affine_is_infinity(&p.b_g1[1]));
    bellperson_params_free(&p);
    /* NONE on garbage (x, y up to 2^381 / 2^384): some element below p, never a crash */
    memcpy(b, orig, n);
    memset(b + off_of(c, "h", 3), 0xff, 96);
    b[off_of(c, "h", 3)] = 0x1f;
    memset(b + off_of(c, "b_g2", 1), 0xff, 192);
    b[off_of(c, "b_g2", 1)] = 0x1f;
    CHECK(decode_mem(&p, b, n, CUZK_CHECK_NONE, 0, &e) == CUZK_OK);
    CHECK(fp_is_canon(p.h[3].x.l) && fp_is_canon(p.h[3].y.l) && fp_is_canon(p.b_g2[1].y.c0.l) &&
          fp_is_canon(p.b_g2[1].x.c1.l));
    bellperson_params_free(&p);
    memcpy(b, orig, n);
    b[off_of(c, "ic", 1)] |= 0x80;
    CHECK_EQ_INT(decode_mem(&p, b, n, CUZK_CHECK_CURVE, 0, &e), CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "vk ic point 1: bad flag bits"), "%s", e.msg);
    /* a vk point is named without an index */
    memcpy(b, orig, n);
    b[96 + 192 + 191] ^= 0x01; /* gamma_g2 */
    CHECK_EQ_INT(decode_mem(&p, b, n, CUZK_CHECK_CURVE, 0, &e), CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "t: vk gamma_g2: not on the curve"), "%s", e.msg);
    free(b);
    free(orig);
}

/* The FIRST bad point in file order, whatever the thread count and however many bad points
 * follow it (later chunks finish first with several threads). */
TEST(srs, parallel_validation_reports_lowest_bad_index) {
    counts c = {3, 30000, 9000, 100, 100, 5000}; /* h: 8 chunks, l: 3, b_g2: 3 */
    const char *path = write_params_file("par.params", c, NULL);
    size_t n;
    uint8_t *orig = slurp(path, &n), *b = malloc(n);
    REQUIRE(orig && n == file_size_of(c));
    const char *secs[] = {"h", "l", "b_g2"};
    const uint32_t cnt[] = {c.h, c.l, c.b_g2};
    for (int it = 0; it < test_iters(12); it++) {
        memcpy(b, orig, n);
        /* 1..6 bad points at random places of h, l, b_g2 */
        int k = 1 + (int)(test_rand64() % 6);
        int best_s = 99;
        size_t best_i = 0;
        for (int j = 0; j < k; j++) {
            int s = (int)(test_rand64() % 3);
            size_t i = (size_t)(test_rand64() % cnt[s]);
            if (it == 0 && j == 0) { s = 0; i = c.h - 1; } /* the last point of the last chunk of h */
            b[off_of(c, secs[s], i) + 40] ^= 0x10;
            if (s < best_s || (s == best_s && i < best_i)) { best_s = s; best_i = i; }
        }
        char want[64];
        snprintf(want, sizeof want, "%s point %zu: ", secs[best_s], best_i);
        int threads[] = {1, 2, 3, 8, 16};
        for (int t = 0; t < 5; t++) {
            cuzk_error e;
            cuzk_status st = decode_mem(NULL, b, n, CUZK_CHECK_CURVE, threads[t], &e);
            CHECK_MSG(st == CUZK_ERR_POINT && strstr(e.msg, want), "iter %d, %d threads: want '%s', got %s", it,
                      threads[t], want, e.msg);
        }
    }
    free(b);
    free(orig);
}

TEST(srs, size_checks_name_the_section) {
    counts c = {2, 40, 9, 7, 5, 3};
    const char *path = write_params_file("sz.params", c, NULL);
    size_t n;
    uint8_t *orig = slurp(path, &n), *b = malloc(n + 200);
    REQUIRE(orig && n == file_size_of(c));
    bellperson_params p;
    cuzk_error e;
    struct { size_t cut; const char *want; } cuts[] = {
        {0, "truncated at vk alpha_g1"},
        {300, "truncated at vk beta_g2"},
        {866, "truncated before the vk ic count"},
        {off_of(c, "h", 10), "h claims 40 points"},
        {off_of(c, "l", 0) - 2, "truncated before the l count"},
        {off_of(c, "b_g2", 2) + 100, "b_g2 claims 3 points"},
        {n - 1, "b_g2 claims 3 points"},
    };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        CHECK_EQ_INT(decode_mem(&p, orig, cuts[i].cut, CUZK_CHECK_CURVE, 0, &e), CUZK_ERR_FORMAT);
        CHECK_MSG(strstr(e.msg, cuts[i].want), "cut %zu: want '%s', got %s", cuts[i].cut, cuts[i].want, e.msg);
    }
    /* oversized: bytes after b_g2 (also when they would make whole extra points) */
    memcpy(b, orig, n);
    memset(b + n, 0, 200);
    CHECK_EQ_INT(decode_mem(&p, b, n + 192, CUZK_CHECK_NONE, 0, &e), CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, "oversized: 192 trailing bytes after b_g2"), "%s", e.msg);
    /* wrong counts: b_g2 one short (oversized), l one too many (shifts everything after) */
    memcpy(b, orig, n);
    b[off_of(c, "b_g2", 0) - 1] = 2;
    CHECK_EQ_INT(decode_mem(&p, b, n, CUZK_CHECK_NONE, 0, &e), CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, "trailing bytes after b_g2"), "%s", e.msg);
    memcpy(b, orig, n);
    b[off_of(c, "b_g2", 0) - 1] = 4;
    CHECK_EQ_INT(decode_mem(&p, b, n, CUZK_CHECK_NONE, 0, &e), CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, "b_g2 claims 4 points"), "%s", e.msg);
    memcpy(b, orig, n);
    b[off_of(c, "h", 0) - 4] = 0xff; /* h count ~4e9 */
    CHECK_EQ_INT(decode_mem(&p, b, n, CUZK_CHECK_NONE, 0, &e), CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, "truncated: h claims"), "%s", e.msg);
    /* the size checks come before any point: a bad point and a truncation give FORMAT */
    memcpy(b, orig, n);
    b[off_of(c, "h", 0) + 95] ^= 1;
    CHECK_EQ_INT(decode_mem(&p, b, n - 5, CUZK_CHECK_CURVE, 0, &e), CUZK_ERR_FORMAT);
    /* layout alone */
    bellperson_layout lay;
    CHECK(bellperson_params_layout(&lay, orig, n, "t", &e) == CUZK_OK);
    CHECK(lay.file_bytes == n && lay.n_ic == 2 && lay.n_h == 40 && lay.n_l == 9 && lay.n_a == 7 && lay.n_b_g1 == 5 &&
          lay.n_b_g2 == 3);
    CHECK(lay.block_bytes >= (40 + 9 + 7 + 5) * 96 + 3 * 192 && lay.host_bytes == lay.block_bytes + 2 * 96);
    CHECK(bellperson_params_layout(NULL, orig, n, "t", &e) == CUZK_ERR_ARG);
    free(b);
    free(orig);
}

typedef struct prog_rec {
    pthread_t caller;
    int calls, bad_thread, not_monotone;
    uint64_t last, total;
    char last_what[32];
} prog_rec;
static void prog_cb(void *user, const char *what, uint64_t done, uint64_t total) {
    prog_rec *r = user;
    if (!pthread_equal(pthread_self(), r->caller)) r->bad_thread++;
    if (done < r->last || done > total) r->not_monotone++;
    r->calls++;
    r->last = done;
    r->total = total;
    snprintf(r->last_what, sizeof r->last_what, "%s", what);
}

TEST(srs, progress_reports_file_bytes_on_the_caller_thread) {
    counts c = {3, 20000, 4000, 100, 100, 3000};
    const char *path = write_params_file("prog.params", c, NULL);
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    prog_rec r = {0};
    r.caller = pthread_self();
    o.nthreads = 4;
    o.progress = prog_cb;
    o.progress_user = &r;
    bellperson_params p;
    cuzk_error e = {0};
    REQUIRE(bellperson_params_load_ex(&p, path, &o, &e) == CUZK_OK);
    CHECK(r.calls >= 1 && r.bad_thread == 0 && r.not_monotone == 0);
    CHECK(r.last == file_size_of(c) && r.total == file_size_of(c));
    CHECK(!strcmp(r.last_what, "b_g2"));
    bellperson_params_free(&p);
    /* check only (p NULL) */
    memset(&r, 0, sizeof r);
    r.caller = pthread_self();
    size_t n;
    uint8_t *b = slurp(path, &n);
    REQUIRE(b);
    CHECK(bellperson_params_decode(NULL, b, n, "t", &o, &e) == CUZK_OK);
    CHECK(r.last == n);
    free(b);
}

/* ---- the store on a fake device --------------------------------------------------------- */

typedef struct fake_dev {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t pinned_live, pinned_peak, pinned_allocs, pinned_frees;
    size_t dev_live, dev_peak, uploads, uploads_started, dev_frees;
    bool gate_closed;            /* upload blocks while set */
    int fail_uploads;            /* the next N uploads fail with NOMEM_DEVICE */
    size_t extra_report;         /* upload reports this many bytes more than promised */
    int bad_frees;               /* device_free with a size that does not match */
    bool copy_g1;                /* upload copies h | l | a | b_g1 (the view may drop them after) */
} fake_dev;

typedef struct fake_buf { size_t bytes; const bellperson_params *src; g1_affine *g1; } fake_buf;

static void *fd_pinned_alloc(void *ctx, size_t bytes) {
    fake_dev *d = ctx;
    void *p = aligned_alloc(4096, (bytes + 4095) & ~(size_t)4095);
    if (!p) return NULL;
    pthread_mutex_lock(&d->mu);
    d->pinned_allocs++;
    d->pinned_live += bytes;
    if (d->pinned_live > d->pinned_peak) d->pinned_peak = d->pinned_live;
    pthread_mutex_unlock(&d->mu);
    return p;
}
static void fd_pinned_free(void *ctx, void *p, size_t bytes) {
    fake_dev *d = ctx;
    free(p);
    pthread_mutex_lock(&d->mu);
    d->pinned_frees++;
    d->pinned_live -= bytes;
    pthread_mutex_unlock(&d->mu);
}
static size_t fd_bytes(const bellperson_params *p) {
    return ((size_t)p->n_h + p->n_l + p->n_a + p->n_b_g1) * sizeof(g1_affine);
}
static cuzk_status fd_upload(void *ctx, void **h, size_t *bytes, const bellperson_params *p, cuzk_error *err) {
    fake_dev *d = ctx;
    pthread_mutex_lock(&d->mu);
    d->uploads_started++;
    pthread_cond_broadcast(&d->cv);
    while (d->gate_closed) pthread_cond_wait(&d->cv, &d->mu);
    if (d->fail_uploads > 0) {
        d->fail_uploads--;
        pthread_mutex_unlock(&d->mu);
        return cuzk_error_set(err, CUZK_ERR_NOMEM_DEVICE, __FILE__, __LINE__, "fake device: out of memory");
    }
    size_t n = fd_bytes(p) + d->extra_report;
    d->uploads++;
    d->dev_live += n;
    if (d->dev_live > d->dev_peak) d->dev_peak = d->dev_live;
    pthread_mutex_unlock(&d->mu);
    fake_buf *b = malloc(sizeof *b);
    b->bytes = n;
    b->src = p;
    b->g1 = NULL;
    if (d->copy_g1 && (b->g1 = malloc(fd_bytes(p) + 1))) {
        g1_affine *q = b->g1;
        memcpy(q, p->h, sizeof *q * p->n_h);
        q += p->n_h;
        memcpy(q, p->l, sizeof *q * p->n_l);
        q += p->n_l;
        memcpy(q, p->a, sizeof *q * p->n_a);
        q += p->n_a;
        memcpy(q, p->b_g1, sizeof *q * p->n_b_g1);
    }
    *h = b;
    *bytes = n;
    return CUZK_OK;
}
static void fd_free(void *ctx, void *h, size_t bytes) {
    fake_dev *d = ctx;
    fake_buf *b = h;
    pthread_mutex_lock(&d->mu);
    if (b->bytes != bytes) d->bad_frees++;
    d->dev_frees++;
    d->dev_live -= b->bytes;
    pthread_mutex_unlock(&d->mu);
    free(b->g1);
    free(b);
}

static void fake_init(fake_dev *d, srs_device_ops *ops) {
    memset(d, 0, sizeof *d);
    pthread_mutex_init(&d->mu, NULL);
    pthread_cond_init(&d->cv, NULL);
    memset(ops, 0, sizeof *ops);
    ops->ctx = d;
    ops->pinned_alloc = fd_pinned_alloc;
    ops->pinned_free = fd_pinned_free;
    ops->upload = fd_upload;
    ops->device_free = fd_free;
}
static void fake_destroy(fake_dev *d) {
    pthread_mutex_destroy(&d->mu);
    pthread_cond_destroy(&d->cv);
}
static void fake_gate(fake_dev *d, bool closed) {
    pthread_mutex_lock(&d->mu);
    d->gate_closed = closed;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->mu);
}

/* Small SRS files of one size: host ~ 13 KiB, device ~ 10 KiB each. */
static const counts SMALL = {2, 63, 20, 15, 10, 8};
static const char *small_file(const char *name) { return write_params_file(name, SMALL, NULL); }

static size_t host_bytes_of(const char *path) {
    size_t n;
    uint8_t *b = slurp(path, &n);
    bellperson_layout lay = {0};
    if (b) bellperson_params_layout(&lay, b, n, "t", NULL);
    free(b);
    return lay.host_bytes;
}

static bool present(srs_store *s, const char *path, srs_tier t) {
    srs_entry_info in;
    if (srs_store_entry_info(s, path, &in, NULL) != CUZK_OK) return t == SRS_TIER_DISK;
    return in.present[t];
}

TEST(srs, store_acquire_release_hits_and_stats) {
    fake_dev d;
    srs_device_ops ops;
    fake_init(&d, &ops);
    srs_store_opts o;
    memset(&o, 0, sizeof o);
    o.ops = &ops;
    srs_store *s;
    cuzk_error e = {0};
    REQUIRE(srs_store_create(&s, &o, &e) == CUZK_OK);
    bellperson_params ref;
    char path[512];
    snprintf(path, sizeof path, "%s", write_params_file("st_a.params", SMALL, &ref));
    srs_handle h, h2;
    CHECK(srs_store_acquire(s, &h, path, SRS_TIER_PINNED, &e) == CUZK_OK);
    CHECK(h.params && params_equal(h.params, &ref) && h.device == NULL && h.tier == SRS_TIER_PINNED);
    CHECK(d.pinned_allocs == 1 && d.uploads == 0);
    /* the same file by another spelling is the same SRS: a hit */
    char alias[600];
    snprintf(alias, sizeof alias, "%s/./st_a.params", test_tmpdir());
    CHECK(srs_store_acquire(s, &h2, alias, SRS_TIER_PINNED, &e) == CUZK_OK);
    CHECK(h2.params == h.params && d.pinned_allocs == 1);
    srs_store_stats st;
    srs_store_get_stats(s, &st);
    CHECK(st.hits == 1 && st.misses == 1 && st.loads[SRS_TIER_PINNED] == 1 && st.entries == 1 && st.in_use == 1 &&
          st.handles == 2);
    CHECK(st.held_bytes[SRS_TIER_PINNED] == host_bytes_of(path) && st.held_bytes[SRS_TIER_GPU] == 0);
    CHECK(st.load_ms[SRS_TIER_PINNED] >= 0);
    srs_entry_info in;
    REQUIRE(srs_store_entry_info(s, path, &in, &e) == CUZK_OK);
    CHECK(in.refs == 2 && in.present[SRS_TIER_PINNED] && !in.present[SRS_TIER_MAPPED] && !in.present[SRS_TIER_DISK]);
    CHECK(in.file_bytes == file_size_of(SMALL));
    srs_store_release(s, &h2);
    CHECK(h2.params == NULL);
    srs_store_release(s, &h2); /* an emptied handle: no-op */
    /* GPU: one upload, then hits; the device handle is what the fake returned for this view */
    srs_handle g;
    CHECK(srs_store_acquire(s, &g, path, SRS_TIER_GPU, &e) == CUZK_OK);
    CHECK(g.device && ((fake_buf *)g.device)->src == h.params && g.device_bytes == fd_bytes(&ref));
    CHECK(d.uploads == 1 && d.dev_live == fd_bytes(&ref));
    srs_store_release(s, &g);
    CHECK(srs_store_acquire(s, &g, path, SRS_TIER_GPU, &e) == CUZK_OK && d.uploads == 1);
    srs_store_release(s, &g);
    srs_store_release(s, &h);
    srs_store_get_stats(s, &st);
    CHECK(st.hits == 2 && st.misses == 2 && st.loads[SRS_TIER_GPU] == 1 && st.in_use == 0 && st.handles == 0);
    CHECK(st.held_bytes[SRS_TIER_GPU] == d.dev_live);
    /* evict to disk: everything freed, the SRS stays known and cold */
    CHECK(srs_store_evict(s, path, SRS_TIER_DISK, &e) == CUZK_OK);
    CHECK(d.dev_live == 0 && d.pinned_live == 0 && d.dev_frees == 1 && d.pinned_frees == 1 && d.bad_frees == 0);
    srs_store_get_stats(s, &st);
    CHECK(st.entries == 1 && st.held_bytes[SRS_TIER_PINNED] == 0 && st.held_bytes[SRS_TIER_DISK] == file_size_of(SMALL));
    CHECK(st.evictions[SRS_TIER_GPU] == 1 && st.evictions[SRS_TIER_PINNED] == 1 && st.lru_evictions == 0);
    CHECK(present(s, path, SRS_TIER_DISK));
    CHECK(srs_store_destroy(s) == CUZK_OK);
    bellperson_params_free(&ref);
    fake_destroy(&d);
}

TEST(srs, store_evict_in_use_is_busy_and_frees_nothing) {
    fake_dev d;
    srs_device_ops ops;
    fake_init(&d, &ops);
    srs_store_opts o;
    memset(&o, 0, sizeof o);
    o.ops = &ops;
    srs_store *s;
    cuzk_error e = {0};
    REQUIRE(srs_store_create(&s, &o, &e) == CUZK_OK);
    const char *path = small_file("busy.params");
    REQUIRE(srs_store_preload(s, path, SRS_TIER_MAPPED, &e) == CUZK_OK);
    srs_handle h;
    REQUIRE(srs_store_acquire(s, &h, path, SRS_TIER_GPU, &e) == CUZK_OK);
    size_t pl = d.pinned_live, dl = d.dev_live;
    srs_store_stats before, after;
    srs_store_get_stats(s, &before);
    srs_tier froms[] = {SRS_TIER_DISK, SRS_TIER_MAPPED, SRS_TIER_PINNED, SRS_TIER_GPU};
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_INT(srs_store_evict(s, path, froms[i], &e), CUZK_ERR_BUSY);
        CHECK_MSG(strstr(e.msg, "busy.params"), "%s", e.msg);
    }
    srs_store_get_stats(s, &after);
    CHECK(d.pinned_frees == 0 && d.dev_frees == 0 && d.pinned_live == pl && d.dev_live == dl);
    CHECK(present(s, path, SRS_TIER_MAPPED) && present(s, path, SRS_TIER_PINNED) && present(s, path, SRS_TIER_GPU));
    CHECK(!memcmp(after.held_bytes, before.held_bytes, sizeof after.held_bytes));
    CHECK(srs_store_destroy(s) == CUZK_ERR_BUSY); /* a handle is held: nothing done */
    CHECK(d.pinned_frees == 0 && d.dev_frees == 0);
    /* a handle at PINNED only: the GPU copy may go, the host view may not */
    srs_handle hp;
    REQUIRE(srs_store_acquire(s, &hp, path, SRS_TIER_PINNED, &e) == CUZK_OK);
    srs_store_release(s, &h);
    CHECK(srs_store_evict(s, path, SRS_TIER_GPU, &e) == CUZK_OK);
    CHECK(d.dev_frees == 1 && d.dev_live == 0 && d.pinned_frees == 0);
    CHECK_EQ_INT(srs_store_evict(s, path, SRS_TIER_PINNED, &e), CUZK_ERR_BUSY);
    CHECK(d.pinned_frees == 0);
    srs_store_release(s, &hp);
    /* the mapping alone can go while the view stays */
    CHECK(srs_store_evict(s, path, SRS_TIER_MAPPED, &e) == CUZK_OK);
    CHECK(d.pinned_frees == 1 && !present(s, path, SRS_TIER_MAPPED));
    CHECK(srs_store_destroy(s) == CUZK_OK);
    CHECK(d.pinned_live == 0 && d.dev_live == 0);
    fake_destroy(&d);
}

TEST(srs, store_lru_order_and_in_use_skipped) {
    fake_dev d;
    srs_device_ops ops;
    fake_init(&d, &ops);
    char a[512], b[512], c[512];
    snprintf(a, sizeof a, "%s", small_file("lru_a.params"));
    snprintf(b, sizeof b, "%s", small_file("lru_b.params"));
    snprintf(c, sizeof c, "%s", small_file("lru_c.params"));
    size_t hb = host_bytes_of(a);
    srs_store_opts o;
    memset(&o, 0, sizeof o);
    o.ops = &ops;
    o.budget_bytes[SRS_TIER_PINNED] = 2 * hb + hb / 2; /* room for two */
    o.budget_bytes[SRS_TIER_MAPPED] = 2 * file_size_of(SMALL);
    srs_store *s;
    cuzk_error e = {0};
    REQUIRE(srs_store_create(&s, &o, &e) == CUZK_OK);
    srs_handle h;
    CHECK(srs_store_preload(s, a, SRS_TIER_PINNED, &e) == CUZK_OK);
    CHECK(srs_store_preload(s, b, SRS_TIER_PINNED, &e) == CUZK_OK);
    /* touch a: b is now the least recently used */
    REQUIRE(srs_store_acquire(s, &h, a, SRS_TIER_PINNED, &e) == CUZK_OK);
    srs_store_release(s, &h);
    CHECK(srs_store_preload(s, c, SRS_TIER_PINNED, &e) == CUZK_OK);
    CHECK(present(s, a, SRS_TIER_PINNED) && !present(s, b, SRS_TIER_PINNED) && present(s, c, SRS_TIER_PINNED));
    CHECK(d.pinned_frees == 1);
    /* hold a (older than c): loading b must evict c, not a */
    REQUIRE(srs_store_acquire(s, &h, a, SRS_TIER_PINNED, &e) == CUZK_OK);
    srs_entry_info ia, ic;
    srs_store_entry_info(s, a, &ia, NULL);
    srs_store_entry_info(s, c, &ic, NULL);
    CHECK(ia.last_use > ic.last_use); /* acquire touched it */
    srs_store_release(s, &h);
    srs_store_preload(s, c, SRS_TIER_PINNED, &e); /* c most recent, a least */
    REQUIRE(srs_store_acquire(s, &h, a, SRS_TIER_PINNED, &e) == CUZK_OK);
    CHECK(srs_store_preload(s, b, SRS_TIER_PINNED, &e) == CUZK_OK);
    CHECK(present(s, a, SRS_TIER_PINNED) && present(s, b, SRS_TIER_PINNED) && !present(s, c, SRS_TIER_PINNED));
    /* a and b in use: c cannot fit, and nothing is evicted for the attempt */
    srs_handle hb2;
    REQUIRE(srs_store_acquire(s, &hb2, b, SRS_TIER_PINNED, &e) == CUZK_OK);
    size_t frees = d.pinned_frees;
    CHECK_EQ_INT(srs_store_preload(s, c, SRS_TIER_PINNED, &e), CUZK_ERR_NOMEM);
    CHECK_MSG(strstr(e.msg, "pinned tier") && strstr(e.msg, "in use"), "%s", e.msg);
    CHECK(d.pinned_frees == frees && present(s, a, SRS_TIER_PINNED) && present(s, b, SRS_TIER_PINNED));
    srs_store_release(s, &hb2);
    srs_store_release(s, &h);
    /* the MAPPED tier has its own LRU; evicting a mapping leaves the host view alone */
    CHECK(srs_store_preload(s, a, SRS_TIER_MAPPED, &e) == CUZK_OK);
    CHECK(srs_store_preload(s, b, SRS_TIER_MAPPED, &e) == CUZK_OK);
    CHECK(srs_store_preload(s, c, SRS_TIER_MAPPED, &e) == CUZK_OK);
    CHECK(!present(s, a, SRS_TIER_MAPPED) && present(s, b, SRS_TIER_MAPPED) && present(s, c, SRS_TIER_MAPPED));
    CHECK(present(s, a, SRS_TIER_PINNED));
    srs_store_stats st;
    srs_store_get_stats(s, &st);
    CHECK(st.lru_evictions == 3 && st.peak_used_bytes[SRS_TIER_PINNED] <= o.budget_bytes[SRS_TIER_PINNED]);
    CHECK(st.held_bytes[SRS_TIER_MAPPED] == 2 * file_size_of(SMALL));
    CHECK(d.pinned_peak <= o.budget_bytes[SRS_TIER_PINNED]);
    /* larger than a whole budget */
    const char *big = write_params_file("lru_big.params", (counts){2, 300, 20, 15, 10, 8}, NULL);
    CHECK_EQ_INT(srs_store_preload(s, big, SRS_TIER_PINNED, &e), CUZK_ERR_NOMEM);
    CHECK_MSG(strstr(e.msg, "larger than the whole budget"), "%s", e.msg);
    CHECK(present(s, a, SRS_TIER_PINNED)); /* nothing evicted for a load that can never fit */
    CHECK(srs_store_destroy(s) == CUZK_OK);
    CHECK(d.pinned_live == 0);
    fake_destroy(&d);
}

TEST(srs, store_gpu_budget_and_upload_failures) {
    fake_dev d;
    srs_device_ops ops;
    fake_init(&d, &ops);
    char a[512], b[512];
    snprintf(a, sizeof a, "%s", small_file("gpu_a.params"));
    snprintf(b, sizeof b, "%s", small_file("gpu_b.params"));
    bellperson_params tmp;
    cuzk_error e = {0};
    REQUIRE(bellperson_params_load(&tmp, a, false, &e) == CUZK_OK);
    size_t db = fd_bytes(&tmp);
    bellperson_params_free(&tmp);
    srs_store_opts o;
    memset(&o, 0, sizeof o);
    o.ops = &ops;
    o.budget_bytes[SRS_TIER_GPU] = db + db / 2; /* one at a time */
    srs_store *s;
    REQUIRE(srs_store_create(&s, &o, &e) == CUZK_OK);
    srs_handle h;
    REQUIRE(srs_store_acquire(s, &h, a, SRS_TIER_GPU, &e) == CUZK_OK);
    CHECK_EQ_INT(srs_store_preload(s, b, SRS_TIER_GPU, &e), CUZK_ERR_NOMEM_DEVICE);
    CHECK(present(s, b, SRS_TIER_PINNED) && !present(s, b, SRS_TIER_GPU)); /* the host view was made */
    srs_store_release(s, &h);
    CHECK(srs_store_preload(s, b, SRS_TIER_GPU, &e) == CUZK_OK); /* a evicted from GPU by LRU */
    CHECK(!present(s, a, SRS_TIER_GPU) && present(s, a, SRS_TIER_PINNED));
    CHECK(d.dev_peak <= o.budget_bytes[SRS_TIER_GPU] && d.dev_live == db);
    /* a failing upload holds nothing; the next attempt works */
    d.fail_uploads = 1;
    CHECK_EQ_INT(srs_store_acquire(s, &h, a, SRS_TIER_GPU, &e), CUZK_ERR_NOMEM_DEVICE);
    CHECK(h.params == NULL && !present(s, a, SRS_TIER_GPU));
    srs_store_stats st;
    srs_store_get_stats(s, &st);
    CHECK(st.load_failures == 2 && st.used_bytes[SRS_TIER_GPU] == st.held_bytes[SRS_TIER_GPU]);
    CHECK(srs_store_acquire(s, &h, a, SRS_TIER_GPU, &e) == CUZK_OK);
    srs_store_release(s, &h);
    /* an upload that takes more than it promised is undone */
    CHECK(srs_store_evict(s, a, SRS_TIER_GPU, &e) == CUZK_OK);
    d.extra_report = 64;
    CHECK_EQ_INT(srs_store_preload(s, a, SRS_TIER_GPU, &e), CUZK_ERR_NOMEM_DEVICE);
    CHECK(!present(s, a, SRS_TIER_GPU));
    d.extra_report = 0;
    srs_store_get_stats(s, &st);
    CHECK(st.used_bytes[SRS_TIER_GPU] == st.held_bytes[SRS_TIER_GPU] && d.dev_live == st.held_bytes[SRS_TIER_GPU]);
    CHECK(srs_store_destroy(s) == CUZK_OK);
    CHECK(d.dev_live == 0 && d.pinned_live == 0 && d.bad_frees == 0);
    fake_destroy(&d);
}

TEST(srs, store_misuse_and_bad_files) {
    srs_store *s;
    cuzk_error e = {0};
    REQUIRE(srs_store_create(&s, NULL, &e) == CUZK_OK); /* no ops: no GPU tier */
    const char *path = small_file("mis.params");
    srs_handle h;
    CHECK_EQ_INT(srs_store_acquire(s, &h, path, SRS_TIER_MAPPED, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(srs_store_acquire(s, &h, path, SRS_TIER_GPU, &e), CUZK_ERR_UNSUPPORTED);
    CHECK_EQ_INT(srs_store_acquire(s, NULL, path, SRS_TIER_PINNED, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(srs_store_preload(s, path, SRS_TIER_DISK, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(srs_store_evict(s, path, (srs_tier)9, &e), CUZK_ERR_ARG);
    CHECK_EQ_INT(srs_store_acquire(s, &h, "/nonexistent/x.params", SRS_TIER_PINNED, &e), CUZK_ERR_IO);
    CHECK(srs_store_evict(s, "/nonexistent/x.params", SRS_TIER_DISK, &e) == CUZK_OK); /* unknown: nothing */
    srs_entry_info in;
    CHECK_EQ_INT(srs_store_entry_info(s, "/nonexistent/x.params", &in, &e), CUZK_ERR_IO);
    /* plain host memory without ops works */
    CHECK(srs_store_acquire(s, &h, path, SRS_TIER_PINNED, &e) == CUZK_OK && h.params->n_h == SMALL.h);
    srs_store_release(s, &h);
    /* a corrupt file: the loader's status and message; later calls try again and fail alike */
    size_t n;
    uint8_t *b = slurp(path, &n);
    REQUIRE(b);
    b[off_of(SMALL, "l", 7) + 95] ^= 1;
    char bad[512];
    snprintf(bad, sizeof bad, "%s/mis_bad.params", test_tmpdir());
    spit(bad, b, n);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_INT(srs_store_acquire(s, &h, bad, SRS_TIER_PINNED, &e), CUZK_ERR_POINT);
        CHECK_MSG(strstr(e.msg, "l point 7") && strstr(e.msg, "mis_bad.params"), "%s", e.msg);
        CHECK_EQ_INT(srs_store_preload(s, bad, SRS_TIER_MAPPED, &e), CUZK_ERR_POINT);
    }
    spit(bad, b, n - 10);
    CHECK_EQ_INT(srs_store_acquire(s, &h, bad, SRS_TIER_PINNED, &e), CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, "b_g2"), "%s", e.msg);
    srs_store_stats st;
    srs_store_get_stats(s, &st);
    CHECK(st.load_failures == 5 && st.held_bytes[SRS_TIER_PINNED] == st.used_bytes[SRS_TIER_PINNED]);
    free(b);
    CHECK(srs_store_destroy(s) == CUZK_OK);
    CHECK(srs_store_destroy(NULL) == CUZK_OK);
}

/* ---- concurrency ------------------------------------------------------------------------ */

typedef struct acq_job {
    srs_store *s;
    const char *path;
    srs_tier tier;
    cuzk_status st;
    cuzk_error e;
    const bellperson_params *seen;
    void *device;
} acq_job;

static void *acq_thread(void *arg) {
    acq_job *j = arg;
    srs_handle h;
    j->st = srs_store_acquire(j->s, &h, j->path, j->tier, &j->e);
    if (j->st == CUZK_OK) {
        j->seen = h.params;
        j->device = h.device;
        srs_store_release(j->s, &h);
    }
    return NULL;
}

/* Polls cond (1 ms) for up to 10 s. */
static void wait_for(bool (*cond)(void *), void *ctx) {
    double t0 = now_ms();
    while (!cond(ctx) && now_ms() - t0 < 10000) usleep(1000);
}
static bool uploads_started_1(void *ctx) {
    fake_dev *d = ctx;
    pthread_mutex_lock(&d->mu);
    bool r = d->uploads_started >= 1;
    pthread_mutex_unlock(&d->mu);
    return r;
}
static bool misses_2(void *ctx) {
    srs_store_stats st;
    srs_store_get_stats(ctx, &st);
    return st.misses >= 2;
}

TEST(srs, store_waits_for_a_concurrent_load) {
    fake_dev d;
    srs_device_ops ops;
    fake_init(&d, &ops);
    srs_store_opts o;
    memset(&o, 0, sizeof o);
    o.ops = &ops;
    srs_store *s;
    cuzk_error e = {0};
    REQUIRE(srs_store_create(&s, &o, &e) == CUZK_OK);
    const char *path = small_file("wait.params");
    fake_gate(&d, true);
    acq_job j1 = {s, path, SRS_TIER_GPU, 0, {0}, NULL, NULL}, j2 = j1, j3 = j1;
    j3.tier = SRS_TIER_PINNED;
    pthread_t t1, t2;
    REQUIRE(pthread_create(&t1, NULL, acq_thread, &j1) == 0);
    wait_for(uploads_started_1, &d); /* t1 holds the "loading" state inside upload */
    srs_entry_info in;
    CHECK(srs_store_entry_info(s, path, &in, &e) == CUZK_OK && in.loading && in.present[SRS_TIER_PINNED]);
    /* evict during a load: BUSY */
    CHECK_EQ_INT(srs_store_evict(s, path, SRS_TIER_DISK, &e), CUZK_ERR_BUSY);
    /* PINNED is already there: a hit that does not wait for the GPU step */
    acq_thread(&j3);
    CHECK(j3.st == CUZK_OK);
    REQUIRE(pthread_create(&t2, NULL, acq_thread, &j2) == 0);
    wait_for(misses_2, s); /* t2 saw it missing and waits */
    srs_store_stats st;
    srs_store_get_stats(s, &st);
    CHECK(st.loading == 1 && d.uploads == 0);
    fake_gate(&d, false);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    CHECK(j1.st == CUZK_OK && j2.st == CUZK_OK && j1.device && j1.device == j2.device && j1.seen == j2.seen);
    CHECK(d.uploads == 1 && d.uploads_started == 1);
    srs_store_get_stats(s, &st);
    CHECK(st.misses == 2 && st.hits == 1 && st.loads[SRS_TIER_GPU] == 1 && st.loading == 0 && st.handles == 0);
    CHECK(srs_store_destroy(s) == CUZK_OK);
    fake_destroy(&d);
}

/* A failed load is reported to the threads that waited for it (not re-run by each). */
typedef struct gate_prog { pthread_mutex_t mu; pthread_cond_t cv; bool closed, entered; } gate_prog;
static void gate_progress(void *user, const char *what, uint64_t done, uint64_t total) {
    (void)what;
    (void)done;
    (void)total;
    gate_prog *g = user;
    pthread_mutex_lock(&g->mu);
    g->entered = true;
    pthread_cond_broadcast(&g->cv);
    while (g->closed) pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
}
static bool gate_entered(void *ctx) {
    gate_prog *g = ctx;
    pthread_mutex_lock(&g->mu);
    bool r = g->entered;
    pthread_mutex_unlock(&g->mu);
    return r;
}

TEST(srs, store_waiters_share_a_failed_load) {
    counts c = {2, 9000, 20, 15, 10, 8}; /* h spans chunks: progress is called before the end */
    const char *good = write_params_file("fail_src.params", c, NULL);
    size_t n;
    uint8_t *b = slurp(good, &n);
    REQUIRE(b);
    b[off_of(c, "a", 3) + 95] ^= 1;
    char bad[512];
    snprintf(bad, sizeof bad, "%s/fail.params", test_tmpdir());
    spit(bad, b, n);
    free(b);
    gate_prog g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, true, false};
    srs_store_opts o;
    memset(&o, 0, sizeof o);
    o.nthreads = 1;
    o.progress = gate_progress;
    o.progress_user = &g;
    srs_store *s;
    cuzk_error e = {0};
    REQUIRE(srs_store_create(&s, &o, &e) == CUZK_OK);
    acq_job j1 = {s, bad, SRS_TIER_PINNED, 0, {0}, NULL, NULL}, j2 = j1;
    pthread_t t1, t2;
    REQUIRE(pthread_create(&t1, NULL, acq_thread, &j1) == 0);
    wait_for(gate_entered, &g);
    REQUIRE(pthread_create(&t2, NULL, acq_thread, &j2) == 0);
    wait_for(misses_2, s);
    pthread_mutex_lock(&g.mu);
    g.closed = false;
    pthread_cond_broadcast(&g.cv);
    pthread_mutex_unlock(&g.mu);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    CHECK(j1.st == CUZK_ERR_POINT && j2.st == CUZK_ERR_POINT);
    CHECK_MSG(strstr(j2.e.msg, "a point 3") && !strcmp(j1.e.msg, j2.e.msg), "%s | %s", j1.e.msg, j2.e.msg);
    srs_store_stats st;
    srs_store_get_stats(s, &st);
    CHECK(st.load_failures == 1 && st.misses == 2 && st.held_bytes[SRS_TIER_PINNED] == 0 && st.used_bytes[SRS_TIER_PINNED] == 0);
    CHECK(srs_store_destroy(s) == CUZK_OK);
}

typedef struct churn_ctx {
    srs_store *s;
    fake_dev *d;
    const char *paths[4];
    int iters;
    _Atomic uint64_t seed;
    atomic_int ok, nomem, other, wrong_view;
    size_t budget_pinned, budget_gpu;
    atomic_int over_budget;
} churn_ctx;

static void *churn_thread(void *arg) {
    churn_ctx *c = arg;
    uint64_t x = atomic_fetch_add(&c->seed, 0x9e3779b97f4a7c15ull);
    for (int i = 0; i < c->iters; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int f = (int)((x >> 33) % 4);
        int op = (int)((x >> 40) % 10);
        srs_tier t = op < 5 ? SRS_TIER_PINNED : op < 8 ? SRS_TIER_GPU : SRS_TIER_MAPPED;
        cuzk_error e;
        if (op == 9) { /* an explicit eviction now and then: OK or BUSY */
            cuzk_status st = srs_store_evict(c->s, c->paths[f], (srs_tier)((x >> 50) % 4), &e);
            if (st != CUZK_OK && st != CUZK_ERR_BUSY) atomic_fetch_add(&c->other, 1);
            continue;
        }
        if (t == SRS_TIER_MAPPED) {
            cuzk_status st = srs_store_preload(c->s, c->paths[f], t, &e);
            if (st == CUZK_OK) atomic_fetch_add(&c->ok, 1);
            else if (st == CUZK_ERR_NOMEM) atomic_fetch_add(&c->nomem, 1);
            else atomic_fetch_add(&c->other, 1);
            continue;
        }
        srs_handle h;
        cuzk_status st = srs_store_acquire(c->s, &h, c->paths[f], t, &e);
        if (st == CUZK_OK) {
            atomic_fetch_add(&c->ok, 1);
            if (h.params->n_h != SMALL.h + (uint32_t)f || (t == SRS_TIER_GPU && ((fake_buf *)h.device)->src != h.params))
                atomic_fetch_add(&c->wrong_view, 1);
            usleep((useconds_t)((x >> 20) % 300));
            srs_store_release(c->s, &h);
        } else if (st == CUZK_ERR_NOMEM || st == CUZK_ERR_NOMEM_DEVICE) {
            atomic_fetch_add(&c->nomem, 1);
        } else {
            atomic_fetch_add(&c->other, 1);
        }
        pthread_mutex_lock(&c->d->mu);
        if (c->d->pinned_live > c->budget_pinned || c->d->dev_live > c->budget_gpu) atomic_fetch_add(&c->over_budget, 1);
        pthread_mutex_unlock(&c->d->mu);
    }
    return NULL;
}

static void churn(bool with_reaper) {
    fake_dev d;
    srs_device_ops ops;
    fake_init(&d, &ops);
    char paths[4][512];
    size_t hb = 0, fb = 0;
    for (int i = 0; i < 4; i++) {
        char name[64];
        snprintf(name, sizeof name, "churn%d_%d.params", with_reaper, i);
        counts c = SMALL;
        c.h += (uint32_t)i; /* tell them apart */
        snprintf(paths[i], sizeof paths[i], "%s", write_params_file(name, c, NULL));
        if (host_bytes_of(paths[i]) > hb) hb = host_bytes_of(paths[i]);
        if (file_size_of(c) > fb) fb = file_size_of(c);
    }
    bellperson_params tmp;
    REQUIRE(bellperson_params_load(&tmp, paths[3], false, NULL) == CUZK_OK);
    size_t db = fd_bytes(&tmp);
    bellperson_params_free(&tmp);
    reaper *r = NULL;
    if (with_reaper) REQUIRE(reaper_create(&r, NULL, NULL, NULL) == CUZK_OK);
    srs_store_opts o;
    memset(&o, 0, sizeof o);
    o.ops = &ops;
    o.reaper = r;
    o.nthreads = 1;
    o.budget_bytes[SRS_TIER_MAPPED] = 2 * fb + 100;
    o.budget_bytes[SRS_TIER_PINNED] = 2 * hb + hb / 2;
    o.budget_bytes[SRS_TIER_GPU] = db + db / 2;
    srs_store *s;
    cuzk_error e = {0};
    REQUIRE(srs_store_create(&s, &o, &e) == CUZK_OK);
    churn_ctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.d = &d;
    for (int i = 0; i < 4; i++) c.paths[i] = paths[i];
    c.iters = test_iters(150);
    atomic_store(&c.seed, test_rand64());
    c.budget_pinned = o.budget_bytes[SRS_TIER_PINNED];
    c.budget_gpu = o.budget_bytes[SRS_TIER_GPU];
    enum { T = 8 };
    pthread_t th[T];
    for (int i = 0; i < T; i++) REQUIRE(pthread_create(&th[i], NULL, churn_thread, &c) == 0);
    for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
    if (r) reaper_drain(r);
    srs_store_stats st;
    srs_store_get_stats(s, &st);
    CHECK_MSG(atomic_load(&c.other) == 0 && atomic_load(&c.wrong_view) == 0, "other %d wrong %d",
              atomic_load(&c.other), atomic_load(&c.wrong_view));
    CHECK(atomic_load(&c.ok) > 0 && atomic_load(&c.over_budget) == 0);
    CHECK(d.pinned_peak <= o.budget_bytes[SRS_TIER_PINNED] && d.dev_peak <= o.budget_bytes[SRS_TIER_GPU]);
    for (int t = SRS_TIER_MAPPED; t < SRS_TIERS; t++) {
        CHECK(st.peak_used_bytes[t] <= o.budget_bytes[t]);
        CHECK(st.used_bytes[t] == st.held_bytes[t]); /* nothing in flight, nothing being freed */
    }
    CHECK(st.handles == 0 && st.loading == 0 && st.entries == 4);
    CHECK(st.hits + st.misses == (uint64_t)atomic_load(&c.ok) + (uint64_t)atomic_load(&c.nomem));
    CHECK(st.held_bytes[SRS_TIER_PINNED] >= d.pinned_live); /* held counts the ic arrays too */
    CHECK(st.held_bytes[SRS_TIER_GPU] == d.dev_live);
    printf("  churn%s: %d ok, %d no room, hits %llu, misses %llu, lru evictions %llu, peak pinned %zu/%zu gpu %zu/%zu\n",
           with_reaper ? " (reaper)" : "", atomic_load(&c.ok), atomic_load(&c.nomem), (unsigned long long)st.hits,
           (unsigned long long)st.misses, (unsigned long long)st.lru_evictions, d.pinned_peak,
           o.budget_bytes[SRS_TIER_PINNED], d.dev_peak, o.budget_bytes[SRS_TIER_GPU]);
    CHECK(srs_store_destroy(s) == CUZK_OK);
    CHECK(d.pinned_live == 0 && d.dev_live == 0 && d.bad_frees == 0 && d.pinned_allocs == d.pinned_frees &&
          d.uploads == d.dev_frees);
    reaper_destroy(r);
    fake_destroy(&d);
}

TEST(srs, store_budgets_hold_under_concurrency) { churn(false); }
TEST(srs, store_budgets_hold_under_concurrency_with_reaper) { churn(true); }

/* ---- host memory of an SRS hot on the GPU (issue 13, release_host_g1) -------------------- */

/* g2_apart: two allocations (G1 queries, b_g2), the same points; take_g1 moves the G1 block out,
 * leaving counts, vk and b_g2. */
TEST(srs, decode_g2_apart_then_take_g1) {
    bellperson_params ref;
    const char *path = write_params_file("apart.params", SMALL, &ref);
    size_t n;
    uint8_t *b = slurp(path, &n);
    REQUIRE(b);
    bellperson_layout lay;
    REQUIRE(bellperson_params_layout(&lay, b, n, "t", NULL) == CUZK_OK);
    CHECK(lay.g1_bytes > 0 && lay.g1_bytes < lay.block_bytes);
    CHECK(lay.g1_bytes >= ((size_t)SMALL.h + SMALL.l + SMALL.a + SMALL.b_g1) * sizeof(g1_affine));
    counting_alloc ca = {0};
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.alloc = ca_alloc;
    o.free = ca_free;
    o.alloc_ctx = &ca;
    o.g2_apart = 1;
    bellperson_params p;
    cuzk_error e = {0};
    REQUIRE(bellperson_params_decode(&p, b, n, "t", &o, &e) == CUZK_OK);
    CHECK(ca.allocs == 2 && ca.live_bytes == lay.block_bytes && p.block && p.g2_block);
    CHECK(params_equal(&p, &ref));
    CHECK(bellperson_params_host_bytes(&p) == lay.host_bytes);
    bellperson_params g1;
    CHECK(bellperson_params_take_g1(&p, &g1) == lay.g1_bytes);
    CHECK(p.h == NULL && p.l == NULL && p.a == NULL && p.b_g1 == NULL && p.block == NULL);
    CHECK(p.n_h == SMALL.h && p.n_b_g1 == SMALL.b_g1 && p.vk.n_public == SMALL.ic - 1);
    CHECK(!memcmp(p.b_g2, ref.b_g2, sizeof(g2_affine) * SMALL.b_g2) && !memcmp(&p.vk.delta2, &ref.vk.delta2, sizeof p.vk.delta2));
    CHECK(bellperson_params_host_bytes(&p) == lay.host_bytes - lay.g1_bytes);
    CHECK(g1.h && !memcmp(g1.h, ref.h, sizeof(g1_affine) * SMALL.h) && !memcmp(g1.b_g1, ref.b_g1, sizeof(g1_affine) * SMALL.b_g1));
    bellperson_params_free(&g1);
    CHECK(ca.frees == 1 && ca.live_bytes == lay.block_bytes - lay.g1_bytes);
    bellperson_params_free(&p);
    CHECK(ca.frees == 2 && ca.live_bytes == 0);
    /* one block (no g2_apart): nothing to take */
    o.g2_apart = 0;
    REQUIRE(bellperson_params_decode(&p, b, n, "t", &o, &e) == CUZK_OK);
    CHECK(ca.allocs == 3 && p.g2_block == NULL);
    CHECK(bellperson_params_take_g1(&p, &g1) == 0 && p.h != NULL && g1.block == NULL);
    bellperson_params_free(&p);
    free(b);
    bellperson_params_free(&ref);
}

/* RssFile of this process, bytes (-1: unknown). */
static long long rss_file_bytes(void) {
    FILE *f = fopen("/proc/self/status", "r");
    long long v = -1;
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "RssFile:", 8)) { v = atoll(line + 8) * 1024; break; }
    if (f) fclose(f);
    return v;
}

/* release_input: reading a mapped file leaves none of its pages resident in the process (the
 * file's pages stay in the page cache); without it they stay mapped. */
TEST(srs, decode_releases_the_mapped_input) {
    const counts BIG = {2, 300000, 100000, 50000, 30000, 10000}; /* ~49 MB */
    const char *path = write_params_file("big.params", BIG, NULL);
    if (rss_file_bytes() < 0) SKIP("no /proc/self/status RssFile");
    for (int release = 1; release >= 0; release--) {
        mapped_file f;
        cuzk_error e = {0};
        REQUIRE(mapped_file_open(&f, path, &e) == CUZK_OK);
        bellperson_load_opts o;
        memset(&o, 0, sizeof o);
        o.check = CUZK_CHECK_NONE;
        o.release_input = release;
        long long before = rss_file_bytes();
        REQUIRE(bellperson_params_decode(NULL, f.m_data, f.size_bytes, "t", &o, &e) == CUZK_OK);
        long long grew = rss_file_bytes() - before;
        if (release) CHECK_MSG(grew < (long long)f.size_bytes / 16, "%lld of %zu bytes stayed resident", grew, f.size_bytes);
        else CHECK_MSG(grew > (long long)f.size_bytes / 2, "only %lld of %zu bytes became resident (the measure)", grew,
                       f.size_bytes);
        mapped_file_close(&f);
    }
}

/* The store with release_host_g1: after the upload its PINNED view keeps vk, ic and b_g2 only
 * (the bytes it reports drop by the layout's g1_bytes), the device copy holds every G1 point of
 * the file, GPU handles see the lean view, PINNED handles are refused, and dropping the GPU copy
 * drops the view (the next GPU use decodes again). Parameters: made by cuzk setup for the
 * merkle_mimc5 circuit. A PINNED handle held at upload time keeps the view whole; without the
 * option the view stays whole. */
TEST(srs, store_releases_host_g1_once_on_the_gpu) {
    char params[600], vkp[600], r1cs_path[600];
    snprintf(params, sizeof params, "%s/setup_rel.params", test_tmpdir());
    snprintf(vkp, sizeof vkp, "%s/setup_rel.vk", test_tmpdir());
    snprintf(r1cs_path, sizeof r1cs_path, "%s/bls12381/merkle_mimc5/circuit.r1cs", CUZK_FIXTURES_DIR);
    cuzk_error e = {0};
    uint64_t seed = 7;
    REQUIRE(cuzk_setup_files(r1cs_path, params, vkp, &seed, 2, &e) == CUZK_OK);
    bellperson_params ref;
    REQUIRE(bellperson_params_load(&ref, params, false, &e) == CUZK_OK);
    size_t n;
    uint8_t *fb = slurp(params, &n);
    REQUIRE(fb);
    bellperson_layout lay;
    REQUIRE(bellperson_params_layout(&lay, fb, n, "t", NULL) == CUZK_OK);
    free(fb);
    const size_t lean = lay.host_bytes - lay.g1_bytes;
    CHECK(lay.g1_bytes > lean); /* most of a view is its G1 queries */

    fake_dev d;
    srs_device_ops ops;
    fake_init(&d, &ops);
    d.copy_g1 = true;
    srs_store_opts so;
    memset(&so, 0, sizeof so);
    so.ops = &ops;
    so.release_host_g1 = true;
    srs_store *s;
    REQUIRE(srs_store_create(&s, &so, &e) == CUZK_OK);
    REQUIRE(srs_store_preload(s, params, SRS_TIER_MAPPED, &e) == CUZK_OK);
    REQUIRE(srs_store_preload(s, params, SRS_TIER_GPU, &e) == CUZK_OK);
    srs_store_stats st;
    srs_store_get_stats(s, &st);
    CHECK_MSG(st.held_bytes[SRS_TIER_PINNED] == lean, "PINNED holds %zu bytes, want %zu (whole view %zu)",
              st.held_bytes[SRS_TIER_PINNED], lean, lay.host_bytes);
    CHECK(st.used_bytes[SRS_TIER_PINNED] == lean && st.peak_used_bytes[SRS_TIER_PINNED] == lay.host_bytes);
    srs_entry_info in;
    REQUIRE(srs_store_entry_info(s, params, &in, &e) == CUZK_OK);
    CHECK(in.host_g1_released && in.pinned_bytes == lean && in.host_bytes == lay.host_bytes);
    CHECK(in.present[SRS_TIER_PINNED] && in.present[SRS_TIER_GPU] && in.present[SRS_TIER_MAPPED]);
    CHECK(d.pinned_allocs == 2 && d.pinned_frees == 1 && d.pinned_live == lay.block_bytes - lay.g1_bytes);

    srs_handle g;
    REQUIRE(srs_store_acquire(s, &g, params, SRS_TIER_GPU, &e) == CUZK_OK);
    const bellperson_params *v = g.params;
    CHECK(v->h == NULL && v->l == NULL && v->a == NULL && v->b_g1 == NULL);
    CHECK(v->n_h == ref.n_h && v->n_l == ref.n_l && v->n_a == ref.n_a && v->n_b_g1 == ref.n_b_g1 && v->n_b_g2 == ref.n_b_g2);
    CHECK(!memcmp(v->b_g2, ref.b_g2, sizeof(g2_affine) * ref.n_b_g2));
    CHECK(v->vk.n_public == ref.vk.n_public && !memcmp(v->vk.ic, ref.vk.ic, sizeof(g1_affine) * (ref.vk.n_public + 1)) &&
          !memcmp(&v->vk.alpha1, &ref.vk.alpha1, sizeof ref.vk.alpha1) &&
          !memcmp(&v->vk.delta2, &ref.vk.delta2, sizeof ref.vk.delta2));
    const fake_buf *db = g.device;
    REQUIRE(db && db->g1);
    const g1_affine *q = db->g1;
    CHECK(!memcmp(q, ref.h, sizeof *q * ref.n_h));
    q += ref.n_h;
    CHECK(!memcmp(q, ref.l, sizeof *q * ref.n_l));
    q += ref.n_l;
    CHECK(!memcmp(q, ref.a, sizeof *q * ref.n_a));
    q += ref.n_a;
    CHECK(!memcmp(q, ref.b_g1, sizeof *q * ref.n_b_g1));
    srs_handle hp;
    e.msg[0] = 0;
    CHECK(srs_store_acquire(s, &hp, params, SRS_TIER_PINNED, &e) == CUZK_ERR_UNSUPPORTED);
    CHECK(strstr(e.msg, "release_host_g1") != NULL && hp.params == NULL);
    CHECK(srs_store_evict(s, params, SRS_TIER_GPU, &e) == CUZK_ERR_BUSY); /* the GPU handle */
    srs_store_release(s, &g);
    /* dropping the GPU copy drops the lean view with it; the mapping stays */
    CHECK(srs_store_evict(s, params, SRS_TIER_GPU, &e) == CUZK_OK);
    REQUIRE(srs_store_entry_info(s, params, &in, &e) == CUZK_OK);
    CHECK(!in.present[SRS_TIER_GPU] && !in.present[SRS_TIER_PINNED] && in.present[SRS_TIER_MAPPED] && !in.host_g1_released);
    CHECK(d.pinned_live == 0 && d.dev_live == 0 && d.bad_frees == 0);
    srs_store_get_stats(s, &st);
    CHECK(st.held_bytes[SRS_TIER_PINNED] == 0 && st.used_bytes[SRS_TIER_PINNED] == 0 && st.held_bytes[SRS_TIER_GPU] == 0);
    /* the next GPU use decodes and uploads again, lean again */
    REQUIRE(srs_store_acquire(s, &g, params, SRS_TIER_GPU, &e) == CUZK_OK);
    CHECK(d.uploads == 2 && g.params->h == NULL && !memcmp(g.params->b_g2, ref.b_g2, sizeof(g2_affine) * ref.n_b_g2));
    srs_store_release(s, &g);
    CHECK(srs_store_destroy(s) == CUZK_OK);
    CHECK(d.pinned_live == 0 && d.dev_live == 0);

    /* a PINNED handle held when the GPU copy is made: the view stays whole */
    REQUIRE(srs_store_create(&s, &so, &e) == CUZK_OK);
    REQUIRE(srs_store_acquire(s, &hp, params, SRS_TIER_PINNED, &e) == CUZK_OK);
    REQUIRE(srs_store_acquire(s, &g, params, SRS_TIER_GPU, &e) == CUZK_OK);
    REQUIRE(srs_store_entry_info(s, params, &in, &e) == CUZK_OK);
    CHECK(!in.host_g1_released && in.pinned_bytes == lay.host_bytes && hp.params->h != NULL);
    CHECK(params_equal(hp.params, &ref));
    srs_store_release(s, &g);
    srs_store_release(s, &hp);
    CHECK(srs_store_destroy(s) == CUZK_OK);

    /* without the option: the view stays whole after the upload */
    so.release_host_g1 = false;
    REQUIRE(srs_store_create(&s, &so, &e) == CUZK_OK);
    REQUIRE(srs_store_preload(s, params, SRS_TIER_GPU, &e) == CUZK_OK);
    srs_store_get_stats(s, &st);
    CHECK(st.held_bytes[SRS_TIER_PINNED] == lay.host_bytes);
    REQUIRE(srs_store_acquire(s, &hp, params, SRS_TIER_PINNED, &e) == CUZK_OK);
    CHECK(params_equal(hp.params, &ref));
    srs_store_release(s, &hp);
    CHECK(srs_store_destroy(s) == CUZK_OK);
    CHECK(d.pinned_live == 0 && d.dev_live == 0);
    fake_destroy(&d);
    bellperson_params_free(&ref);
    unlink(params);
    unlink(vkp);
}

/* ---- the pread decode and the pre-decoded cache (issue 23 item 4) ------------------------ */

#include "formats/srs_cache.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

/* pread(2) per thread (bellperson_params_load_ex's default) and the mapping (use_mmap) decode to
 * the same bytes, at every level and thread count; so does bellperson_params_decode of a copy. */
TEST(srs, cache_pread_decode_equals_mapped_decode) {
    counts c = {3, 12000, 700, 500, 300, 200}; /* > 1 MiB (parallel), h spans 3 chunks */
    bellperson_params orig;
    const char *path = write_params_file("pread.params", c, &orig);
    size_t n;
    uint8_t *b = slurp(path, &n);
    REQUIRE(b);
    cuzk_check_level lv[] = {CUZK_CHECK_NONE, CUZK_CHECK_CURVE};
    for (int i = 0; i < 2; i++)
        for (int threads = 1; threads <= 3; threads++) {
            bellperson_params pm, pp, pd;
            bellperson_load_opts o;
            memset(&o, 0, sizeof o);
            o.check = lv[i];
            o.nthreads = threads;
            o.no_cache = 1;
            cuzk_error e = {0};
            o.use_mmap = 1;
            REQUIRE(bellperson_params_load_ex(&pm, path, &o, &e) == CUZK_OK);
            o.use_mmap = 0;
            REQUIRE(bellperson_params_load_ex(&pp, path, &o, &e) == CUZK_OK);
            REQUIRE(bellperson_params_decode(&pd, b, n, "t", &o, &e) == CUZK_OK);
            CHECK(params_equal(&pm, &orig) && params_equal(&pp, &orig) && params_equal(&pd, &orig));
            CHECK(pm.block_bytes == pp.block_bytes && !memcmp(pm.block, pp.block, pm.block_bytes));
            CHECK(!memcmp(pd.block, pp.block, pp.block_bytes));
            bellperson_params_free(&pm);
            bellperson_params_free(&pp);
            bellperson_params_free(&pd);
        }
    free(b);
    bellperson_params_free(&orig);
}

/* The pread path reports the first bad point as the mapped path does. */
TEST(srs, cache_pread_decode_names_the_first_bad_point) {
    counts c = {2, 9000, 500, 400, 300, 100};
    const char *path = write_params_file("pread_bad.params", c, NULL);
    size_t n;
    uint8_t *b = slurp(path, &n);
    REQUIRE(b);
    b[off_of(c, "l", 123) + 95] ^= 1; /* y changes: off the curve */
    b[off_of(c, "b_g2", 7) + 5] ^= 1;
    spit(path, b, n);
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.nthreads = 3;
    o.no_cache = 1;
    bellperson_params p;
    cuzk_error e = {0}, em = {0};
    CHECK(bellperson_params_load_ex(&p, path, &o, &e) == CUZK_ERR_POINT);
    o.use_mmap = 1;
    CHECK(bellperson_params_load_ex(&p, path, &o, &em) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "l point 123") != NULL && !strcmp(e.msg, em.msg), "%s | %s", e.msg, em.msg);
    free(b);
}

/* Deferred queries (bellperson_load_opts.defer_queries): the load decodes the vk and ic only; any
 * range of any query (B_G2 too) read from the file equals the whole decode's; materialize brings
 * queries into memory (published once, counted in host bytes), take_g1 gives the G1 ones back
 * and they are read from the file again; bad points are named by query and index, at the load's
 * level; a file cut after the load is an I/O error, never wrong points. */
TEST(srs, defer_queries_reads_ranges_equal_to_the_decode) {
    counts c = {3, 12000, 700, 9000, 300, 5000}; /* h, a and b_g2 span several chunks */
    bellperson_params ref;
    const char *path = write_params_file("defer.params", c, &ref);
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.no_cache = 1;
    o.defer_queries = 1;
    o.nthreads = 3;
    bellperson_params p;
    cuzk_error e = {0};
    REQUIRE_MSG(bellperson_params_load_ex(&p, path, &o, &e) == CUZK_OK, "%s", e.msg);
    CHECK(p.q_src != NULL && p.h == NULL && p.l == NULL && p.a == NULL && p.b_g1 == NULL && p.b_g2 == NULL);
    CHECK(p.block == NULL && p.g2_block == NULL);
    CHECK(p.n_h == c.h && p.n_l == c.l && p.n_a == c.a && p.n_b_g1 == c.b_g1 && p.n_b_g2 == c.b_g2);
    CHECK(!memcmp(p.vk.ic, ref.vk.ic, sizeof(g1_affine) * c.ic) && !memcmp(&p.vk.delta2, &ref.vk.delta2, sizeof p.vk.delta2));
    const size_t ic_bytes = bellperson_params_host_bytes(&p);
    CHECK(ic_bytes == sizeof(g1_affine) * c.ic);
    const void *want[5] = {ref.a, ref.b_g1, ref.l, ref.h, ref.b_g2};
    const uint32_t cnt[5] = {c.a, c.b_g1, c.l, c.h, c.b_g2};
    const size_t pb[5] = {sizeof(g1_affine), sizeof(g1_affine), sizeof(g1_affine), sizeof(g1_affine), sizeof(g2_affine)};
    uint8_t *buf = malloc(sizeof(g2_affine) * c.h);
    REQUIRE(buf);
    for (int q = 0; q < BELLPERSON_NQ; q++) {
        CHECK(bellperson_params_in_file(&p, q));
        size_t cuts[][2] = {{0, cnt[q]}, {0, 1}, {cnt[q] - 1, 1}, {cnt[q] / 3, cnt[q] / 2}, {cnt[q], 0}};
        for (int k = 0; k < 5; k++) {
            for (int t = 1; t <= 4; t += 3) {
                memset(buf, 0xab, sizeof(g2_affine) * c.h);
                REQUIRE_MSG(bellperson_params_read(&p, q, cuts[k][0], cuts[k][1], buf, t, &e) == CUZK_OK, "%s", e.msg);
                CHECK_MSG(!memcmp(buf, (const uint8_t *)want[q] + pb[q] * cuts[k][0], pb[q] * cuts[k][1]),
                          "query %d range %d", q, k);
            }
        }
        /* out of bounds: refused, nothing read */
        CHECK(bellperson_params_read(&p, q, cnt[q], 1, buf, 0, &e) == CUZK_ERR_ARG);
        CHECK(bellperson_params_read(&p, q, 1, cnt[q], buf, 0, &e) == CUZK_ERR_ARG);
    }
    CHECK(bellperson_params_read(&p, BELLPERSON_NQ, 0, 1, buf, 0, &e) == CUZK_ERR_ARG);
    CHECK(bellperson_params_read(&ref, 0, 0, 1, buf, 0, &e) == CUZK_ERR_ARG); /* not deferred */
    /* materialize two queries: they are in memory and counted; the others stay in the file */
    REQUIRE(bellperson_params_materialize(&p, (1u << BELLPERSON_Q_L) | (1u << BELLPERSON_Q_B2), 0, &e) == CUZK_OK);
    CHECK(p.l && p.b_g2 && !p.a && !p.b_g1 && !p.h);
    CHECK(!memcmp(p.l, ref.l, sizeof(g1_affine) * c.l) && !memcmp(p.b_g2, ref.b_g2, sizeof(g2_affine) * c.b_g2));
    CHECK(!bellperson_params_in_file(&p, BELLPERSON_Q_B2) && bellperson_params_in_file(&p, BELLPERSON_Q_A));
    CHECK(bellperson_params_host_bytes(&p) == ic_bytes + sizeof(g1_affine) * c.l + sizeof(g2_affine) * c.b_g2);
    const g1_affine *l_before = p.l;
    REQUIRE(bellperson_params_materialize(&p, (1u << BELLPERSON_NQ) - 1, 0, &e) == CUZK_OK); /* the rest */
    CHECK(p.l == l_before && !memcmp(p.a, ref.a, sizeof(g1_affine) * c.a) && !memcmp(p.h, ref.h, sizeof(g1_affine) * c.h));
    CHECK(!memcmp(p.b_g1, ref.b_g1, sizeof(g1_affine) * c.b_g1));
    /* a streaming GPU prover holds them: nothing taken; then the G1 ones are taken (B_G2 stays) and
     * read from the file again */
    bellperson_params g1;
    p.g1_stream_borrows = 1;
    CHECK(bellperson_params_take_g1(&p, &g1) == 0 && p.l == l_before);
    p.g1_stream_borrows = 0;
    CHECK(bellperson_params_take_g1(&p, &g1) == sizeof(g1_affine) * ((size_t)c.h + c.l + c.a + c.b_g1));
    CHECK(!p.h && !p.l && !p.a && !p.b_g1 && p.b_g2 && bellperson_params_in_file(&p, BELLPERSON_Q_H));
    CHECK(g1.l == l_before && !memcmp(g1.a, ref.a, sizeof(g1_affine) * c.a) && g1.b_g2 == NULL);
    CHECK(bellperson_params_host_bytes(&p) == ic_bytes + sizeof(g2_affine) * c.b_g2);
    bellperson_params_free(&g1);
    REQUIRE(bellperson_params_read(&p, BELLPERSON_Q_H, 5, 100, buf, 0, &e) == CUZK_OK);
    CHECK(!memcmp(buf, ref.h + 5, sizeof(g1_affine) * 100));
    bellperson_params_free(&p);
    CHECK(p.q_src == NULL && p.b_g2 == NULL);
    /* the whole decode for comparison: the paths without deferral are unchanged */
    o.defer_queries = 0;
    REQUIRE(bellperson_params_load_ex(&p, path, &o, &e) == CUZK_OK);
    CHECK(p.q_src == NULL && params_equal(&p, &ref));
    bellperson_params_free(&p);
    free(buf);
    bellperson_params_free(&ref);
}

TEST(srs, defer_queries_names_bad_points_when_read_and_keeps_eager_sections_checked) {
    counts c = {2, 9000, 500, 400, 300, 3000};
    bellperson_params ref;
    const char *path = write_params_file("defer_bad.params", c, &ref);
    size_t n;
    uint8_t *b = slurp(path, &n);
    REQUIRE(b);
    b[off_of(c, "h", 4321) + 95] ^= 1; /* off the curve */
    b[off_of(c, "h", 8000) + 95] ^= 1;
    b[off_of(c, "a", 7) + 95] ^= 1;
    b[off_of(c, "b_g2", 2500) + 5] ^= 1;
    spit(path, b, n);
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.no_cache = 1;
    o.defer_queries = 1;
    o.nthreads = 3;
    bellperson_params p;
    cuzk_error e = {0};
    /* the queries are not read at load: it succeeds */
    REQUIRE_MSG(bellperson_params_load_ex(&p, path, &o, &e) == CUZK_OK, "%s", e.msg);
    g1_affine *buf = malloc(sizeof(g2_affine) * c.h);
    REQUIRE(buf);
    CHECK(bellperson_params_read(&p, BELLPERSON_Q_H, 0, c.h, buf, 3, &e) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "h point 4321: ") && strstr(e.msg, path), "%s", e.msg);
    CHECK(bellperson_params_read(&p, BELLPERSON_Q_H, 4322, c.h - 4322, buf, 2, &e) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "h point 8000: "), "%s", e.msg);
    REQUIRE(bellperson_params_read(&p, BELLPERSON_Q_H, 0, 4321, buf, 2, &e) == CUZK_OK); /* before it: fine */
    CHECK(!memcmp(buf, ref.h, sizeof(g1_affine) * 4321));
    CHECK(bellperson_params_read(&p, BELLPERSON_Q_B2, 100, c.b_g2 - 100, buf, 2, &e) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "b_g2 point 2500: "), "%s", e.msg);
    CHECK(bellperson_params_materialize(&p, 1u << BELLPERSON_Q_A, 0, &e) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "a point 7: ") && p.a == NULL, "%s", e.msg);
    CHECK(bellperson_params_host_bytes(&p) == sizeof(g1_affine) * c.ic);
    /* no check level: the bad points are not seen */
    bellperson_params_free(&p);
    o.check = CUZK_CHECK_NONE;
    REQUIRE(bellperson_params_load_ex(&p, path, &o, &e) == CUZK_OK);
    CHECK(bellperson_params_read(&p, BELLPERSON_Q_H, 0, c.h, buf, 3, &e) == CUZK_OK);
    /* the file cut after the load: an I/O error naming the query, not points */
    REQUIRE(truncate(path, (off_t)off_of(c, "h", 6000)) == 0);
    CHECK(bellperson_params_read(&p, BELLPERSON_Q_H, 5000, 2000, buf, 2, &e) == CUZK_ERR_IO);
    CHECK_MSG(strstr(e.msg, "reading the h points failed"), "%s", e.msg);
    bellperson_params_free(&p);
    /* a bad point in an eager section (ic) still fails the load */
    o.check = CUZK_CHECK_CURVE;
    b[off_of(c, "ic", 1) + 95] ^= 1;
    spit(path, b, n);
    CHECK(bellperson_params_load_ex(&p, path, &o, &e) == CUZK_ERR_POINT);
    CHECK_MSG(strstr(e.msg, "ic point 1"), "%s", e.msg);
    CHECK(p.q_src == NULL);
    free(buf);
    free(b);
    bellperson_params_free(&ref);
}

typedef struct log_grab { char last[1024]; int warns, cache_loads; } log_grab;
static void grab_log(void *user, cuzk_log_level level, const char *msg) {
    log_grab *g = user;
    if (level == CUZK_LOG_WARN) { g->warns++; snprintf(g->last, sizeof g->last, "%s", msg); }
    if (strstr(msg, "SRS cache:") && strstr(msg, "loaded from")) g->cache_loads++;
}

static void make_cache(const char *params, cuzk_check_level lvl) {
    bellperson_params p;
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.check = lvl;
    o.no_cache = 1;
    cuzk_error e = {0};
    if (bellperson_params_load_ex(&p, params, &o, &e) != CUZK_OK) { test_fail(__FILE__, __LINE__, "%s", e.msg); return; }
    char cp[600];
    srs_cache_path(cp, sizeof cp, params);
    if (srs_cache_write(cp, params, &p, lvl, 2, &e) != CUZK_OK) test_fail(__FILE__, __LINE__, "%s", e.msg);
    bellperson_params_free(&p);
}

/* Loads with the cache allowed, capturing the log; returns the status. */
static cuzk_status load_logged(bellperson_params *p, const char *path, cuzk_check_level lvl, int apart, log_grab *g,
                               cuzk_error *e) {
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.check = lvl;
    o.nthreads = 2;
    o.g2_apart = apart;
    memset(g, 0, sizeof *g);
    cuzk_set_log(grab_log, g, CUZK_LOG_INFO);
    cuzk_status st = bellperson_params_load_ex(p, path, &o, e);
    cuzk_set_log(NULL, NULL, CUZK_LOG_WARN);
    return st;
}

/* Sets path's mtime to (sec, nsec). */
static void set_mtime(const char *path, const struct stat *sb) {
    struct timespec ts[2] = {sb->st_atim, sb->st_mtim};
    utimensat(AT_FDCWD, path, ts, 0);
}

/* A cache equals the decode byte for byte (one block and g2 apart, several 4 MiB chunks), is
 * used by load_ex (logged), and serves a lower check level but not a higher one. */
TEST(srs, cache_round_trip_equals_the_decode) {
    counts c = {4, 60000, 20000, 9000, 3000, 1500}; /* G1 region ~8.8 MB: 3 chunks */
    bellperson_params orig;
    const char *path = write_params_file("cache_rt.params", c, &orig);
    make_cache(path, CUZK_CHECK_CURVE);
    char cp[600];
    srs_cache_path(cp, sizeof cp, path);
    srs_cache_info inf;
    cuzk_error e = {0};
    REQUIRE_MSG(srs_cache_probe(cp, path, CUZK_CHECK_DEFAULT, &inf, &e) == CUZK_OK, "%s", e.msg);
    CHECK(inf.check == CUZK_CHECK_CURVE && inf.n_h == c.h && inf.n_b_g2 == c.b_g2 && inf.n_ic == c.ic);
    CHECK(inf.g1_off % SRS_CACHE_ALIGN == 0 && inf.g2_off % SRS_CACHE_ALIGN == 0 && inf.n_sums >= 5);
    for (int apart = 0; apart <= 1; apart++) {
        bellperson_params p, d;
        log_grab g;
        REQUIRE_MSG(load_logged(&p, path, CUZK_CHECK_CURVE, apart, &g, &e) == CUZK_OK, "%s", e.msg);
        CHECK_MSG(g.cache_loads == 1 && g.warns == 0, "loads %d warns %d %s", g.cache_loads, g.warns, g.last);
        CHECK(params_equal(&p, &orig));
        bellperson_load_opts o;
        memset(&o, 0, sizeof o);
        o.no_cache = 1;
        o.g2_apart = apart;
        REQUIRE(bellperson_params_load_ex(&d, path, &o, &e) == CUZK_OK);
        CHECK(p.block_bytes == d.block_bytes && !memcmp(p.block, d.block, d.block_bytes));
        CHECK(p.g2_block_bytes == d.g2_block_bytes && (!apart || !memcmp(p.g2_block, d.g2_block, d.g2_block_bytes)));
        CHECK(!memcmp(&p.vk.beta2, &d.vk.beta2, sizeof p.vk.beta2) && !memcmp(&p.vk.gamma2, &d.vk.gamma2, sizeof p.vk.gamma2));
        CHECK(p.origin == d.origin && p.domain == d.domain && p.vk.n_public == d.vk.n_public);
        bellperson_params_free(&p);
        bellperson_params_free(&d);
    }
    /* a NONE request is served too; FULL is not (the cache was made at CURVE): refused, decoded */
    {
        bellperson_params p;
        log_grab g;
        REQUIRE(load_logged(&p, path, CUZK_CHECK_NONE, 0, &g, &e) == CUZK_OK);
        CHECK(g.cache_loads == 1);
        bellperson_params_free(&p);
        CHECK(srs_cache_probe(cp, path, CUZK_CHECK_FULL, NULL, &e) == CUZK_ERR_MISMATCH);
        CHECK_MSG(strstr(e.msg, "checked at the curve level") != NULL, "%s", e.msg);
    }
    /* CUZK_SRS_CACHE=off: not even looked at */
    {
        setenv("CUZK_SRS_CACHE", "off", 1);
        bellperson_params p;
        log_grab g;
        REQUIRE(load_logged(&p, path, CUZK_CHECK_CURVE, 0, &g, &e) == CUZK_OK);
        CHECK(g.cache_loads == 0 && params_equal(&p, &orig));
        bellperson_params_free(&p);
        unsetenv("CUZK_SRS_CACHE");
    }
    bellperson_params_free(&orig);
}

/* Stale caches (the .params touched, resized, or changed at a sampled place under the same
 * mtime) and corrupt ones (a payload byte, a header byte, the magic, truncated, the version)
 * are refused with a message saying why, and load_ex falls back to the .params with its checks. */
TEST(srs, cache_stale_or_corrupt_cache_is_refused_and_the_params_decoded) {
    counts c = {2, 50000, 3000, 2000, 1000, 500};
    bellperson_params orig;
    const char *path = write_params_file("cache_bad.params", c, &orig);
    char cp[600];
    srs_cache_path(cp, sizeof cp, path);
    size_t pn;
    uint8_t *pb = slurp(path, &pn);
    REQUIRE(pb);
    struct {
        const char *what, *msg;
        cuzk_status probe; /* what srs_cache_probe says (CUZK_OK: only the payload is bad) */
    } cases[] = {
        {"touched", "was modified after", CUZK_ERR_MISMATCH},
        {"content", "content digest", CUZK_ERR_MISMATCH},
        {"payload", "checksum of chunk", CUZK_OK},
        {"header", "corrupt header", CUZK_ERR_FORMAT},
        {"magic", "not a cuzk SRS cache", CUZK_ERR_FORMAT},
        {"truncated", "truncated", CUZK_ERR_FORMAT},
        {"version", "version 2", CUZK_ERR_FORMAT},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        spit(path, pb, pn);
        make_cache(path, CUZK_CHECK_CURVE);
        struct stat sb;
        REQUIRE(stat(path, &sb) == 0);
        size_t cn;
        uint8_t *cb = slurp(cp, &cn);
        REQUIRE(cb);
        const char *w = cases[k].what;
        if (!strcmp(w, "touched")) {
            struct stat t = sb;
            t.st_mtim.tv_sec += 5;
            set_mtime(path, &t);
        } else if (!strcmp(w, "content")) {
            uint8_t *q = malloc(pn);
            memcpy(q, pb, pn);
            /* a G1 point of h swapped for another valid one, in the first 64 KiB (sampled) */
            memcpy(q + off_of(c, "h", 3), pb + off_of(c, "h", 4), 96);
            if (!memcmp(q + off_of(c, "h", 3), pb + off_of(c, "h", 3), 96)) memcpy(q + off_of(c, "h", 3), pb + off_of(c, "h", 5), 96);
            spit(path, q, pn);
            free(q);
            set_mtime(path, &sb);
        } else if (!strcmp(w, "payload")) {
            srs_cache_info inf;
            REQUIRE(srs_cache_probe(cp, path, CUZK_CHECK_CURVE, &inf, NULL) == CUZK_OK);
            cb[inf.g1_off + inf.g1_bytes / 2] ^= 0x10;
            spit(cp, cb, cn);
        } else if (!strcmp(w, "header")) {
            cb[100] ^= 1; /* inside the counts */
            spit(cp, cb, cn);
        } else if (!strcmp(w, "magic")) {
            cb[0] = 'X';
            spit(cp, cb, cn);
        } else if (!strcmp(w, "truncated")) {
            spit(cp, cb, cn - 4096);
        } else if (!strcmp(w, "version")) {
            uint32_t v = 2;
            memcpy(cb + 8, &v, 4);
            spit(cp, cb, cn);
        }
        free(cb);
        cuzk_error e = {0};
        cuzk_status ps = srs_cache_probe(cp, path, CUZK_CHECK_CURVE, NULL, &e);
        CHECK_MSG(ps == cases[k].probe, "%s: probe %d: %s", w, (int)ps, e.msg);
        if (ps != CUZK_OK) CHECK_MSG(strstr(e.msg, cases[k].msg) != NULL, "%s: %s", w, e.msg);
        bellperson_params p;
        memset(&e, 0, sizeof e);
        if (!strcmp(w, "payload")) {
            bellperson_load_opts o;
            memset(&o, 0, sizeof o);
            CHECK(srs_cache_load(&p, cp, path, &o, &e) == CUZK_ERR_FORMAT);
            CHECK_MSG(strstr(e.msg, "checksum of chunk") && strstr(e.msg, "G1 queries"), "%s", e.msg);
            CHECK(p.block == NULL && p.vk.ic == NULL);
        }
        log_grab g;
        REQUIRE_MSG(load_logged(&p, path, CUZK_CHECK_CURVE, 1, &g, &e) == CUZK_OK, "%s: %s", w, e.msg);
        CHECK_MSG(g.cache_loads == 0 && g.warns == 1 && strstr(g.last, cases[k].msg) && strstr(g.last, "decoding"),
                  "%s: %d warns, last: %s", w, g.warns, g.last);
        if (!strcmp(w, "content")) {
            /* the decode reads the file as it is now */
            CHECK(!memcmp(&p.h[3], &orig.h[4], sizeof(g1_affine)) || !memcmp(&p.h[3], &orig.h[5], sizeof(g1_affine)));
        } else {
            CHECK(params_equal(&p, &orig));
        }
        bellperson_params_free(&p);
    }
    /* a bad point in the .params under a stale cache: the decode's check still catches it */
    {
        uint8_t *q = malloc(pn);
        memcpy(q, pb, pn);
        q[off_of(c, "a", 11) + 95] ^= 1;
        spit(path, q, pn);
        free(q);
        bellperson_params p;
        cuzk_error e = {0};
        log_grab g;
        CHECK(load_logged(&p, path, CUZK_CHECK_CURVE, 0, &g, &e) == CUZK_ERR_POINT);
        CHECK_MSG(strstr(e.msg, "a point 11") != NULL && g.warns == 1, "%s", e.msg);
    }
    unlink(cp);
    free(pb);
    bellperson_params_free(&orig);
}

/* Misuse and a truncated .params beside a cache. */
TEST(srs, cache_misuse_and_truncated_params) {
    counts c = {2, 300, 20, 15, 10, 8};
    bellperson_params orig;
    const char *path = write_params_file("cache_mis.params", c, &orig);
    char cp[600];
    srs_cache_path(cp, sizeof cp, path);
    cuzk_error e = {0};
    CHECK(srs_cache_write(cp, path, &orig, CUZK_CHECK_NONE, 1, &e) == CUZK_ERR_ARG);
    CHECK(srs_cache_write(NULL, path, &orig, CUZK_CHECK_CURVE, 1, &e) == CUZK_ERR_ARG);
    CHECK(srs_cache_probe(cp, path, CUZK_CHECK_CURVE, NULL, &e) == CUZK_ERR_IO && e.sys_errno == ENOENT);
    REQUIRE(srs_cache_write(cp, path, &orig, CUZK_CHECK_FULL, 1, &e) == CUZK_OK);
    CHECK(srs_cache_probe(cp, path, CUZK_CHECK_FULL, NULL, &e) == CUZK_OK);
    /* the .params cut short: the cache is stale (size), and the decode says truncated */
    size_t n;
    uint8_t *b = slurp(path, &n);
    REQUIRE(b);
    spit(path, b, n - 50);
    CHECK(srs_cache_probe(cp, path, CUZK_CHECK_CURVE, NULL, &e) == CUZK_ERR_MISMATCH);
    CHECK_MSG(strstr(e.msg, "is stale") != NULL, "%s", e.msg);
    bellperson_params p;
    log_grab g;
    CHECK(load_logged(&p, path, CUZK_CHECK_CURVE, 0, &g, &e) == CUZK_ERR_FORMAT);
    CHECK_MSG(strstr(e.msg, "truncated") != NULL && g.warns == 1, "%s", e.msg);
    /* the hash: deterministic, seeded, every length */
    uint8_t buf[100];
    for (int i = 0; i < 100; i++) buf[i] = (uint8_t)i;
    CHECK(srs_cache_hash(buf, 100, 1) == srs_cache_hash(buf, 100, 1));
    CHECK(srs_cache_hash(buf, 100, 1) != srs_cache_hash(buf, 100, 2));
    for (size_t k = 0; k < 99; k++) CHECK(srs_cache_hash(buf, k, 0) != srs_cache_hash(buf, k + 1, 0));
    unlink(cp);
    free(b);
    bellperson_params_free(&orig);
}

/* A cache re-sealed to claim other counts (far more h points, sized as a sparse file) or another
 * origin than its .params header says is refused before its points are allocated, with a reason,
 * and the load decodes the .params. */
TEST(srs, cache_counts_checked_against_the_params_header) {
    counts c = {2, 300, 20, 15, 10, 8};
    bellperson_params orig;
    const char *path = write_params_file("cache_cnt.params", c, &orig);
    char cp[600];
    srs_cache_path(cp, sizeof cp, path);
    size_t cn;
    struct {
        uint32_t d[9];
        const char *msg;
    } cases[] = {
        {{2, 300 + 4000000, 20, 15, 10, 8, 0, 0, 0}, "claims 4000300 h points"},
        {{2, 300, 21, 15, 10, 8, 0, 0, 0}, "claims 21 l points"},
        {{3, 300, 20, 15, 10, 8, 0, 0, 0}, "claims 3 ic points"},
        {{2, 300, 20, 15, 10, 9, 0, 0, 0}, "claims 9 b_g2 points"},
        {{2, 300, 20, 15, 10, 8, 1, 0, 0}, "origin 1"},
        {{2, 300, 20, 15, 10, 8, 0, 1, 0}, "domain 1"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        make_cache(path, CUZK_CHECK_CURVE);
        uint8_t *cb = slurp(cp, &cn);
        REQUIRE(cb);
        uint64_t fb = srs_cache_header_reseal(cb, cases[k].d);
        spit(cp, cb, SRS_CACHE_HEADER_BYTES < cn ? cn : SRS_CACHE_HEADER_BYTES);
        REQUIRE(truncate(cp, (off_t)fb) == 0); /* the size the forged header says (sparse) */
        free(cb);
        cuzk_error e = {0};
        CHECK(srs_cache_probe(cp, path, CUZK_CHECK_CURVE, NULL, &e) == CUZK_ERR_MISMATCH);
        CHECK_MSG(strstr(e.msg, cases[k].msg) != NULL, "%zu: %s", k, e.msg);
        bellperson_params p;
        log_grab g;
        REQUIRE_MSG(load_logged(&p, path, CUZK_CHECK_CURVE, 0, &g, &e) == CUZK_OK, "%s", e.msg);
        CHECK_MSG(g.cache_loads == 0 && g.warns == 1 && strstr(g.last, cases[k].msg), "%zu: %s", k, g.last);
        CHECK(params_equal(&p, &orig));
        char buf[4400];
        CHECK(cuzk_srs_cache_last_use(buf, sizeof buf) == 2 && strstr(buf, cases[k].msg));
        bellperson_params_free(&p);
    }
    unlink(cp);
    bellperson_params_free(&orig);
}

/* make never writes over an input (the .params itself, or a hard link to it) nor over a file
 * that is not a cache; its temporary has a fresh name (a symlink planted at the old fixed name
 * "<cache>.tmp" is not followed) and nothing is left behind. */
TEST(srs, cache_make_refuses_inputs_and_other_files) {
    counts c = {2, 300, 20, 15, 10, 8};
    const char *path = write_params_file("cache_out.params", c, NULL);
    size_t n0, n1;
    uint8_t *b0 = slurp(path, &n0);
    REQUIRE(b0);
    cuzk_error e = {0};
    CHECK(cuzk_srs_cache_make(path, path, CUZK_CHECK_CURVE, 1, &e) == CUZK_ERR_ARG);
    CHECK_MSG(strstr(e.msg, "also an input") != NULL, "%s", e.msg);
    char ln[600], vk[600], cp[600], tmp[700], victim[600];
    snprintf(ln, sizeof ln, "%s/cache_out_link.params", test_tmpdir());
    unlink(ln);
    REQUIRE(link(path, ln) == 0);
    CHECK(cuzk_srs_cache_make(path, ln, CUZK_CHECK_CURVE, 1, &e) == CUZK_ERR_ARG);
    uint8_t *b1 = slurp(path, &n1);
    CHECK(b1 && n1 == n0 && !memcmp(b0, b1, n0));
    free(b1);
    snprintf(vk, sizeof vk, "%s/cache_out.vk", test_tmpdir());
    spit(vk, (const uint8_t *)"not a cache", 11);
    CHECK(cuzk_srs_cache_make(path, vk, CUZK_CHECK_CURVE, 1, &e) == CUZK_ERR_ARG);
    CHECK_MSG(strstr(e.msg, "not a cuzk SRS cache") != NULL, "%s", e.msg);
    b1 = slurp(vk, &n1);
    CHECK(b1 && n1 == 11);
    free(b1);
    /* a planted symlink at the old fixed temporary name */
    srs_cache_path(cp, sizeof cp, path);
    snprintf(tmp, sizeof tmp, "%s.tmp", cp);
    snprintf(victim, sizeof victim, "%s/cache_out_victim", test_tmpdir());
    unlink(tmp);
    unlink(victim);
    REQUIRE(symlink(victim, tmp) == 0);
    REQUIRE_MSG(cuzk_srs_cache_make(path, NULL, CUZK_CHECK_CURVE, 1, &e) == CUZK_OK, "%s", e.msg);
    struct stat sb;
    CHECK(lstat(victim, &sb) != 0);
    CHECK(srs_cache_probe(cp, path, CUZK_CHECK_CURVE, NULL, &e) == CUZK_OK);
    /* an existing cache is replaced */
    REQUIRE_MSG(cuzk_srs_cache_make(path, NULL, CUZK_CHECK_CURVE, 1, &e) == CUZK_OK, "%s", e.msg);
    /* a failed write leaves no temporary: a directory that cannot be written */
    {
        char dir[600], dcp[700];
        snprintf(dir, sizeof dir, "%s/cache_out_ro", test_tmpdir());
        mkdir(dir, 0755);
        snprintf(dcp, sizeof dcp, "%s/x.cuzk-srs", dir);
        chmod(dir, 0555);
        if (access(dir, W_OK) != 0) CHECK(cuzk_srs_cache_make(path, dcp, CUZK_CHECK_CURVE, 1, &e) == CUZK_ERR_IO);
        chmod(dir, 0755);
        rmdir(dir);
    }
    unlink(tmp);
    unlink(ln);
    unlink(vk);
    unlink(cp);
    free(b0);
}

/* --compare of valid caches of MPC files (points at infinity dropped: the decode's block is sized
 * for the file's counts, the cache's for the finite points) says equal. */
TEST(srs, cache_compare_mpc_fixtures) {
    const char *fx[] = {"bls12381/multiplier/bellman_mpc.params", "bls12381/bellman_chain/bellman_mpc.params",
                        "bls12381/dropped_unused/bellman_mpc.params"};
    for (size_t k = 0; k < 3; k++) {
        size_t n;
        uint8_t *b = test_slurp(test_fixture(fx[k]), &n);
        REQUIRE(b);
        char path[600], cp[700];
        snprintf(path, sizeof path, "%s/cache_mpc%zu.params", test_tmpdir(), k);
        snprintf(cp, sizeof cp, "%s%s", path, SRS_CACHE_SUFFIX);
        spit(path, b, n);
        free(b);
        cuzk_error e = {0};
        REQUIRE_MSG(cuzk_srs_cache_make(path, NULL, CUZK_CHECK_CURVE, 1, &e) == CUZK_OK, "%s", e.msg);
        CHECK_MSG(cuzk_srs_cache_check(path, NULL, CUZK_CHECK_CURVE, 2, 1, &e) == CUZK_OK, "%s: %s", fx[k], e.msg);
        /* the loader serves it and it matches the kind its header records */
        srs_cache_info inf;
        CHECK(srs_cache_probe(cp, path, CUZK_CHECK_CURVE, &inf, &e) == CUZK_OK && inf.origin != BELLPERSON_ORIGIN_PARAMS);
        unlink(cp);
        unlink(path);
    }
}
