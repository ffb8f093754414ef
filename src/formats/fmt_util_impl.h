/* Point validation of src/formats (fmt_util.h) for one curve: a template, instantiated per curve
 * (src/formats/formats_<curve>.c); every curve-dependent name is CN(name). */
#include "ec/ec52.h"
#include "formats/fmt_util.h"
#include "util/parallel.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Parallel scan that finds the smallest failing index. */
typedef struct scan_ctx {
    const void *in;
    void *out;
    bool subgroup;
    _Atomic size_t first_bad;
} scan_ctx;

/* first_bad = min(first_bad, i); the fault itself is recomputed afterwards for that index. */
static void scan_report(scan_ctx *c, size_t i, pt_fault f) {
    (void)f;
    size_t cur = atomic_load(&c->first_bad);
    while (i < cur && !atomic_compare_exchange_weak(&c->first_bad, &cur, i)) {
    }
}

static pt_fault g1_fault(const CN(g1_affine) *p, bool subgroup) {
    if (!CN(fp_is_canon)(p->x.l) || !CN(fp_is_canon)(p->y.l)) return PT_NOT_CANONICAL;
    if (CN(g1_affine_is_infinity)(p)) return PT_OK;
    if (!CN(g1_affine_is_on_curve)(p)) return PT_NOT_ON_CURVE;
    if (subgroup && !CN(g1_affine_is_in_subgroup)(p)) return PT_NOT_IN_SUBGROUP;
    return PT_OK;
}
static pt_fault g2_fault(const CN(g2_affine) *p, bool subgroup) {
    if (!CN(fp_is_canon)(p->x.c0.l) || !CN(fp_is_canon)(p->x.c1.l) || !CN(fp_is_canon)(p->y.c0.l) || !CN(fp_is_canon)(p->y.c1.l))
        return PT_NOT_CANONICAL;
    if (CN(g2_affine_is_infinity)(p)) return PT_OK;
    if (!CN(g2_affine_is_on_curve)(p)) return PT_NOT_ON_CURVE;
    if (subgroup && !CN(g2_affine_is_in_subgroup)(p)) return PT_NOT_IN_SUBGROUP;
    return PT_OK;
}

static size_t g1_vec_prefix(const CN(g1_affine) *p, size_t n);
static size_t g2_vec_prefix(const CN(g2_affine) *p, size_t n);

static void g1_check_fn(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    scan_ctx *c = vc;
    const CN(g1_affine) *p = c->in;
    const size_t v = c->subgroup ? 0 : g1_vec_prefix(&p[b], e - b);
    for (size_t i = b + v; i < e && i < atomic_load(&c->first_bad); i++) {
        pt_fault f = g1_fault(&p[i], c->subgroup);
        if (f) { scan_report(c, i, f); return; }
    }
}
static void g2_check_fn(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    scan_ctx *c = vc;
    const CN(g2_affine) *p = c->in;
    const size_t v = c->subgroup ? 0 : g2_vec_prefix(&p[b], e - b);
    for (size_t i = b + v; i < e && i < atomic_load(&c->first_bad); i++) {
        pt_fault f = g2_fault(&p[i], c->subgroup);
        if (f) { scan_report(c, i, f); return; }
    }
}

__attribute__((unused)) static pt_fault decode_fault(ec_decode_result r) {
    switch (r) {
    case EC_DECODE_OK: return PT_OK;
    case EC_DECODE_NOT_CANONICAL: return PT_NOT_CANONICAL;
    case EC_DECODE_BAD_FLAGS: return PT_NOT_CANONICAL;
    case EC_DECODE_NOT_ON_CURVE: return PT_NOT_ON_CURVE;
    case EC_DECODE_NOT_IN_SUBGROUP: return PT_NOT_IN_SUBGROUP;
    }
    return PT_NOT_ON_CURVE;
}

/* How many of the n points at p pass the 8-lane check (src/ec/ec52.h; 0 where it does not
 * serve): the scalar checks go on from there. */
static size_t g1_vec_prefix(const CN(g1_affine) *p, size_t n) {
#if CURVE_EC52
    static const CN(fp) b = CURVE_G1_B_MONT;
    _Static_assert(sizeof(CN(g1_affine)) == 64, "G1 affine: x, y of 4 limbs");
    if (ec52_usable(CN(fp_MODULUS))) return ec52_g1_prefix_ok((const uint64_t(*)[8])p, n, CN(fp_MODULUS), b.l);
#endif
    (void)p; (void)n;
    return 0;
}
static size_t g2_vec_prefix(const CN(g2_affine) *p, size_t n) {
#if CURVE_EC52
    static const CN(fp2) b = CURVE_G2_B_MONT;
    _Static_assert(sizeof(CN(g2_affine)) == 128 && sizeof(b) == 64, "G2 affine: 4 Fp of 4 limbs");
    if (ec52_usable(CN(fp_MODULUS))) {
        uint64_t bl[8];
        memcpy(bl, b.c0.l, 32);
        memcpy(bl + 4, b.c1.l, 32);
        return ec52_g2_prefix_ok((const uint64_t(*)[16])p, n, CN(fp_MODULUS), bl);
    }
#endif
    (void)p; (void)n;
    return 0;
}

/* copy + check, a block at a time (the block stays in L1/L2 between its copy and its check) */
#define COPY_CHECK_BLOCK 512
static void g1_copy_check_fn(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    scan_ctx *c = vc;
    CN(g1_affine) *dst = c->out;
    const uint8_t *src = c->in;
    for (size_t i0 = b; i0 < e && i0 < atomic_load(&c->first_bad); i0 += COPY_CHECK_BLOCK) {
        size_t i1 = e - i0 < COPY_CHECK_BLOCK ? e : i0 + COPY_CHECK_BLOCK;
        memcpy(&dst[i0], src + i0 * sizeof *dst, (i1 - i0) * sizeof *dst);
        const size_t v = c->subgroup ? 0 : g1_vec_prefix(&dst[i0], i1 - i0);
        for (size_t i = i0 + v; i < i1; i++) {
            pt_fault f = g1_fault(&dst[i], c->subgroup);
            if (f) { scan_report(c, i, f); return; }
        }
    }
}
static void g2_copy_check_fn(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    scan_ctx *c = vc;
    CN(g2_affine) *dst = c->out;
    const uint8_t *src = c->in;
    for (size_t i0 = b; i0 < e && i0 < atomic_load(&c->first_bad); i0 += COPY_CHECK_BLOCK) {
        size_t i1 = e - i0 < COPY_CHECK_BLOCK ? e : i0 + COPY_CHECK_BLOCK;
        memcpy(&dst[i0], src + i0 * sizeof *dst, (i1 - i0) * sizeof *dst);
        const size_t v = c->subgroup ? 0 : g2_vec_prefix(&dst[i0], i1 - i0);
        for (size_t i = i0 + v; i < i1; i++) {
            pt_fault f = g2_fault(&dst[i], c->subgroup);
            if (f) { scan_report(c, i, f); return; }
        }
    }
}

#if CURVE_BELLPERSON /* zcash encodings: BLS12-381 only */
static pt_fault g1_dec_one(CN(g1_affine) *out, const uint8_t *in, bool subgroup) {
    pt_fault f = decode_fault(g1_affine_from_uncompressed(out, in));
    if (!f && CN(g1_affine_is_infinity)(out)) f = PT_INFINITY;
    if (!f && subgroup && !CN(g1_affine_is_in_subgroup)(out)) f = PT_NOT_IN_SUBGROUP;
    return f;
}
static pt_fault g2_dec_one(CN(g2_affine) *out, const uint8_t *in, bool subgroup) {
    pt_fault f = decode_fault(g2_affine_from_uncompressed(out, in));
    if (!f && CN(g2_affine_is_infinity)(out)) f = PT_INFINITY;
    if (!f && subgroup && !CN(g2_affine_is_in_subgroup)(out)) f = PT_NOT_IN_SUBGROUP;
    return f;
}

static void g1_dec_fn(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    scan_ctx *c = vc;
    const uint8_t *in = c->in;
    CN(g1_affine) *out = c->out;
    for (size_t i = b; i < e && i < atomic_load(&c->first_bad); i++) {
        pt_fault f = g1_dec_one(&out[i], in + i * G1_UNCOMPRESSED_BYTES, c->subgroup);
        if (f) { scan_report(c, i, f); return; }
    }
}
static void g2_dec_fn(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    scan_ctx *c = vc;
    const uint8_t *in = c->in;
    CN(g2_affine) *out = c->out;
    for (size_t i = b; i < e && i < atomic_load(&c->first_bad); i++) {
        pt_fault f = g2_dec_one(&out[i], in + i * G2_UNCOMPRESSED_BYTES, c->subgroup);
        if (f) { scan_report(c, i, f); return; }
    }
}
#endif

static size_t run_scan(parallel_fn fn, const void *in, void *out, size_t n, bool subgroup) {
    scan_ctx c;
    memset(&c, 0, sizeof c);
    c.in = in;
    c.out = out;
    c.subgroup = subgroup;
    atomic_init(&c.first_bad, n);
    if (n > 0) {
        /* small inputs are not worth a thread */
        int threads = n < 256 ? 1 : 0;
        parallel_for(n, threads, fn, &c);
    }
    return atomic_load(&c.first_bad);
}

size_t CN(g1s_check)(const CN(g1_affine) *pts, size_t n, bool subgroup, pt_fault *fault) {
    size_t bad = run_scan(g1_check_fn, pts, NULL, n, subgroup);
    if (fault) *fault = bad < n ? g1_fault(&pts[bad], subgroup) : PT_OK;
    return bad;
}
size_t CN(g2s_check)(const CN(g2_affine) *pts, size_t n, bool subgroup, pt_fault *fault) {
    size_t bad = run_scan(g2_check_fn, pts, NULL, n, subgroup);
    if (fault) *fault = bad < n ? g2_fault(&pts[bad], subgroup) : PT_OK;
    return bad;
}
size_t CN(g1s_copy_check)(CN(g1_affine) *dst, const uint8_t *src, size_t n, bool subgroup, pt_fault *fault) {
    size_t bad = run_scan(g1_copy_check_fn, src, dst, n, subgroup);
    if (fault) *fault = bad < n ? g1_fault(&dst[bad], subgroup) : PT_OK;
    return bad;
}
size_t CN(g2s_copy_check)(CN(g2_affine) *dst, const uint8_t *src, size_t n, bool subgroup, pt_fault *fault) {
    size_t bad = run_scan(g2_copy_check_fn, src, dst, n, subgroup);
    if (fault) *fault = bad < n ? g2_fault(&dst[bad], subgroup) : PT_OK;
    return bad;
}
#if CURVE_BELLPERSON
size_t g1s_from_uncompressed(CN(g1_affine) *out, const uint8_t *in, size_t n, bool subgroup, pt_fault *fault) {
    size_t bad = run_scan(g1_dec_fn, in, out, n, subgroup);
    if (fault) *fault = bad < n ? g1_dec_one(&out[bad], in + bad * G1_UNCOMPRESSED_BYTES, subgroup) : PT_OK;
    return bad;
}
size_t g2s_from_uncompressed(CN(g2_affine) *out, const uint8_t *in, size_t n, bool subgroup, pt_fault *fault) {
    size_t bad = run_scan(g2_dec_fn, in, out, n, subgroup);
    if (fault) *fault = bad < n ? g2_dec_one(&out[bad], in + bad * G2_UNCOMPRESSED_BYTES, subgroup) : PT_OK;
    return bad;
}
#endif
