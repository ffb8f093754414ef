/* Host view of a device field: host_mont_t<P> holds the same bytes as mont_t<P> (src/cuda/mont.cuh)
 * and computes with the host's one Montgomery implementation (src/ff/mont.h: CIOS over 64-bit
 * limbs), for the parameter set P of a curve (src/cuda/curve_*.cuh). It gives the host side of a
 * .cu file (e.g. the MSM's Horner over window sums, src/cuda/gpu_msm.cu) the operations the
 * generic point code of src/cuda/ec.cuh needs, so host and device share one set of curve formulas
 * and no field is written twice. Host only; no curve is named here. Thread-safety: pure functions.
 */
#ifndef CUZK_CUDA_HOST_FIELD_CUH
#define CUZK_CUDA_HOST_FIELD_CUH

#include <stdint.h>

#include "ff/mont.h"

namespace cuzk_dev {

template <class P>
struct host_mont_t {
    static constexpr int N64 = P::N / 2; /* 64-bit limbs */
    static_assert(P::N % 2 == 0 && N64 <= MONT_MAX_LIMBS, "host_mont_t: limb count");
    uint64_t l[N64];

    /* the modulus and R mod m as 64-bit limbs, from P's 32-bit words */
    struct consts {
        uint64_t m[N64], one[N64], inv;
        consts() {
            for (int i = 0; i < N64; i++) {
                m[i] = (uint64_t)P::mod(2 * i) | ((uint64_t)P::mod(2 * i + 1) << 32);
                one[i] = (uint64_t)P::one(2 * i) | ((uint64_t)P::one(2 * i + 1) << 32);
            }
            /* -m^-1 mod 2^64 from -m^-1 mod 2^32 (P::inv) by one Newton step on m^-1 */
            uint64_t x = (uint64_t)(uint32_t)(0u - P::inv); /* m^-1 mod 2^32 */
            x = x * (2 - m[0] * x);                         /* m^-1 mod 2^64 */
            inv = 0 - x;
        }
    };
    static const consts &c() {
        static const consts k;
        return k;
    }

    static host_mont_t zero() {
        host_mont_t r;
        for (int i = 0; i < N64; i++) r.l[i] = 0;
        return r;
    }
    static host_mont_t one() {
        host_mont_t r;
        for (int i = 0; i < N64; i++) r.l[i] = c().one[i];
        return r;
    }
    bool is_zero() const { return mont_is_zero(l, N64); }
    bool operator==(const host_mont_t &b) const { return mont_eq(l, b.l, N64); }
    bool operator!=(const host_mont_t &b) const { return !(*this == b); }
    friend host_mont_t operator+(const host_mont_t &a, const host_mont_t &b) {
        host_mont_t r;
        mont_add(r.l, a.l, b.l, c().m, N64);
        return r;
    }
    friend host_mont_t operator-(const host_mont_t &a, const host_mont_t &b) {
        host_mont_t r;
        mont_sub(r.l, a.l, b.l, c().m, N64);
        return r;
    }
    friend host_mont_t operator-(const host_mont_t &a) {
        host_mont_t r;
        mont_neg(r.l, a.l, c().m, N64);
        return r;
    }
    friend host_mont_t operator*(const host_mont_t &a, const host_mont_t &b) {
        host_mont_t r;
        mont_mul(r.l, a.l, b.l, c().m, c().inv, N64);
        return r;
    }
    host_mont_t dbl() const { return *this + *this; }
    host_mont_t sqr() const {
        host_mont_t r;
        mont_sqr(r.l, l, c().m, c().inv, N64);
        return r;
    }
};

}  // namespace cuzk_dev

#endif
