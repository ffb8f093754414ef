/* The batch-affine levels of the GPU MSM (src/cuda/msm_affine.cuh) run on the CPU: the kernels as
 * the GPU compiles them, under tests/emul/cuda_emul.h (threads, blocks, barriers) and
 * tests/emul/ptx_emul.h (the field arithmetic's carry chains), driven the way affine_pass in
 * src/cuda/gpu_msm.cu drives them (the slot and pair scans, the launch bounds of
 * aff_level_pairs_bound, the compaction), for BLS12-381 and BN254 G1. Each bucket's sum of what the
 * levels leave is compared with the bucket's direct sum of its signed bases in XYZZ (ec.cuh's
 * formulas, not the affine ones under test).
 *
 * Buckets of every kind the levels meet: empty, 1, 2, 3, 2^k +- 1 and heavy (1000 pairs: 10
 * levels); random points with random signs; runs of one point with one sign (every pair P + P,
 * then 2P + 2P, ...); P, -P alternating (infinities that climb the levels); infinity bases. Several
 * blocks per level (K = 3 pairs a thread, so a level of 2,000 pairs is 6 blocks) and several depths
 * L (1, 3, 11). Fresh random choices each run (seed printed; CUZK_TEST_SEED replays).
 *
 *   cuzk_msm_affine_emul_test    exit 0 when every bucket matches, 1 otherwise */
#include "emul/cuda_emul.h"
#include "emul/emul_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/curves.cuh"
#include "cuda/msm_affine.cuh"

using namespace cuzk_dev;
using namespace cuzk_dev::msm_aff;

namespace {

using emul_test::next64;

template <class F>
F from_u64(const uint64_t *v) {
    F r;
    for (int i = 0; i < F::N; i++) r.l[i] = (uint32_t)(v[i / 2] >> (32 * (i & 1)));
    return r;
}

/* the curve's G1 generator, Montgomery form */
template <class C>
typename C::g1_affine generator();
template <>
bls12_381::g1_affine generator<bls12_381>() {
    bls12_381::g1_affine g;
    g.x = from_u64<bls12_381::fp>(bls12_381::G1_GEN_MONT);
    g.y = from_u64<bls12_381::fp>(bls12_381::G1_GEN_MONT + 6);
    return g;
}
template <>
bn254::g1_affine generator<bn254>() { /* (1, 2) */
    bn254::g1_affine g;
    g.x = bn254::fp::from_u32(1);
    g.y = bn254::fp::from_u32(2);
    return g;
}

template <class F>
affine_t<F> to_affine(const xyzz_t<F> &p) {
    affine_t<F> r;
    if (p.is_inf()) {
        r.x = F::zero();
        r.y = F::zero();
        return r;
    }
    r.x = p.x * F::inv(p.zz);
    r.y = p.y * F::inv(p.zzz);
    return r;
}

template <class F>
bool same(const xyzz_t<F> &a, const xyzz_t<F> &b) {
    if (a.is_inf() || b.is_inf()) return a.is_inf() && b.is_inf();
    return a.x * b.zz == b.x * a.zz && a.y * b.zzz == b.y * a.zzz;
}

/* the scans of affine_pass: out[i] = sum of in[0 .. i), i <= n */
void exclusive_sum(const std::vector<uint32_t> &in, std::vector<uint32_t> &out) {
    out.assign(in.size(), 0);
    uint32_t s = 0;
    for (size_t i = 0; i < in.size(); i++) {
        out[i] = s;
        s += in[i];
    }
}

template <class C>
void run_curve(const char *name, int L, uint32_t K) {
    typedef g1_of<C> G;
    typedef typename C::fp fp;
    typedef typename G::affine aff;
    typedef typename G::xyzz xyzz;
    /* bases: multiples 1..NPTS of the generator, a few set to infinity */
    const uint32_t NPTS = 300;
    std::vector<aff> bases(NPTS);
    {
        const aff g = generator<C>();
        xyzz acc = xyzz::from_affine(g);
        for (uint32_t i = 0; i < NPTS; i++) {
            bases[i] = to_affine(acc);
            acc.add_affine(g);
        }
        for (uint32_t i = 7; i < NPTS; i += 41) bases[i].x = bases[i].y = fp::zero();
    }
    /* buckets and their sorted pairs (value = base index | SIGN_BIT for -P) */
    std::vector<uint32_t> sizes = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 1000, 0, 2, 129};
    for (int i = 0; i < 12; i++) sizes.push_back((uint32_t)(next64() % 90));
    const uint32_t nbg = (uint32_t)sizes.size();
    std::vector<uint32_t> vals, bstart(nbg), bend(nbg);
    for (uint32_t b = 0; b < nbg; b++) {
        bstart[b] = (uint32_t)vals.size();
        const int kind = b % 5; /* 0, 1: random; 2: one point, one sign; 3: P, -P alternating; 4: with infinities */
        const uint32_t fixed = (uint32_t)(next64() % NPTS); /* kinds 2, 3: moved off the infinity slots below */
        for (uint32_t t = 0; t < sizes[b]; t++) {
            uint32_t idx = (uint32_t)(next64() % NPTS), sgn = (next64() & 1) ? SIGN_BIT : 0;
            if (kind == 2) { idx = fixed; sgn = 0; }
            if (kind == 3) { idx = fixed; sgn = (t & 1) ? SIGN_BIT : 0; }
            if (kind == 4 && t % 3 == 0) idx = 7 + 41 * (uint32_t)(next64() % 7);
            if (kind == 2 || kind == 3) {
                while (bases[idx].is_inf()) idx = (idx + 2) % NPTS;
            }
            vals.push_back(idx | sgn);
        }
        bend[b] = (uint32_t)vals.size();
    }
    const size_t gp = vals.size();
    /* the reference: each bucket's signed bases added directly (XYZZ) */
    std::vector<xyzz> want(nbg);
    for (uint32_t b = 0; b < nbg; b++) {
        xyzz acc = xyzz::inf();
        for (uint32_t p = bstart[b]; p < bend[b]; p++) {
            aff q = bases[vals[p] & ~SIGN_BIT];
            if (vals[p] & SIGN_BIT) q.y = -q.y;
            acc.add_affine(q);
        }
        want[b] = acc;
    }
    /* affine_pass, one group of nbg buckets */
    std::vector<uint32_t> acnt(nbg + 1), aoff, qoff, off2;
    emul_launch((nbg + 1 + 255) / 256, 256, [&] { msm_aff_count_kernel(bstart.data(), bend.data(), nbg, 0, 0, acnt.data()); });
    exclusive_sum(acnt, aoff);
    std::vector<aff> abuf(aoff[nbg] + 1);
    const size_t blk = (size_t)K * AFF_BLOCK;
    std::vector<fp> pre(aff_pre_elems(gp, K));
    emul_launch((nbg + 255) / 256, 256, [&] {
        msm_aff_odd_kernel<G>(bases.data(), vals.data(), bstart.data(), bend.data(), aoff.data(), nbg, abuf.data());
    });
    for (int l = 0; l < L; l++) {
        emul_launch((nbg + 1 + 255) / 256, 256, [&] { msm_aff_count_kernel(bstart.data(), bend.data(), nbg, 1, l, acnt.data()); });
        exclusive_sum(acnt, qoff);
        const size_t q = aff_level_pairs_bound(gp, l, nbg);
        emul_test::checks++;
        if (qoff[nbg] > q) {
            emul_test::failed++;
            fprintf(stderr, "FAIL %s: level %d has %u pairs, above its bound %zu\n", name, l, qoff[nbg], q);
        }
        emul_launch((unsigned)((q + blk - 1) / blk), AFF_BLOCK, [&] {
            msm_aff_level_kernel<G>(bases.data(), vals.data(), bstart.data(), aoff.data(), qoff.data(), nbg, l, K,
                                    abuf.data(), pre.data());
        });
    }
    emul_launch((nbg + 1 + 255) / 256, 256, [&] { msm_aff_count_kernel(bstart.data(), bend.data(), nbg, 2, L, acnt.data()); });
    exclusive_sum(acnt, off2);
    std::vector<uint32_t> avals(off2[nbg] + 1), bend2(nbg);
    emul_launch((nbg + 255) / 256, 256, [&] {
        msm_aff_compact_kernel(bstart.data(), bend.data(), aoff.data(), off2.data(), nbg, L, avals.data(), bend2.data());
    });
    /* what the tasks would sum: bucket b's pairs off2[b] .. bend2[b] of avals, points in abuf */
    for (uint32_t b = 0; b < nbg; b++) {
        xyzz acc = xyzz::inf();
        for (uint32_t p = off2[b]; p < bend2[b]; p++) acc.add_affine(abuf[avals[p]]);
        const uint32_t left = bend2[b] - off2[b], m = bend[b] - bstart[b];
        emul_test::checks += 2;
        if (left != (uint32_t)(((uint64_t)m + (1ull << L) - 1) >> L)) {
            emul_test::failed++;
            fprintf(stderr, "FAIL %s L=%d K=%u: bucket %u of %u pairs left %u\n", name, L, K, b, m, left);
        }
        if (!same(acc, want[b])) {
            emul_test::failed++;
            fprintf(stderr, "FAIL %s L=%d K=%u: bucket %u (%u pairs, kind %u): levels' sum != direct sum\n", name, L, K,
                    b, m, b % 5);
        }
    }
}

}  // namespace

int main() {
    emul_test::seed("cuzk_msm_affine_emul_test", "");
    static const int depths[] = {1, 3, 11};
    static const uint32_t ks[] = {3, 32};
    for (int L : depths)
        for (uint32_t K : ks) {
            const long c0 = emul_test::checks, f0 = emul_test::failed;
            run_curve<bls12_381>("BLS12-381 G1", L, K);
            run_curve<bn254>("BN254 G1", L, K);
            printf("  L=%-2d K=%-2u %6ld checks, %ld failed\n", L, K, emul_test::checks - c0, emul_test::failed - f0);
        }
    return emul_test::finish();
}
