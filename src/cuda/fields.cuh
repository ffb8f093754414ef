/* Device prime fields and the quadratic extension, generic over the curve:
 *  - CUZK_DEV_PARAMS(NAME, PREFIX, N64): a parameter set for mont_t (src/cuda/mont.cuh) derived at
 *    compile time from a curve's host constants PREFIX_{MODULUS,INV,R,R2} (64-bit limbs, as
 *    src/ff's FF_DECLARE takes them) by splitting each 64-bit limb into two 32-bit limbs; nothing
 *    is retyped. A curve header (src/cuda/curve_*.cuh) instantiates it for its Fp and Fr.
 *  - fp2_t<Fp>: Fp[u]/(u^2 + 1) over any Fp for which -1 is a non-residue (p = 3 mod 4: BLS12-381
 *    and BN254 both). Its methods are __host__ __device__ (CUZK_HD, each under
 *    `#pragma nv_exec_check_disable`), so that fp2_t over the host view of Fp (host_mont_t,
 *    src/cuda/host_field.cuh) gives the host side the same G2 formulas (src/cuda/ec.cuh), e.g. for
 *    the G2 MSM's window combination; over the device mont_t they are called from device code only.
 * No curve is named here. */
#ifndef CUZK_CUDA_FIELDS_CUH
#define CUZK_CUDA_FIELDS_CUH

#include "cuda/mont.cuh"

/* Methods usable on both sides when their field is (see fp2_t and src/cuda/ec.cuh). */
#define CUZK_HD __host__ __device__

namespace cuzk_dev {

#define CUZK_DEV_PARAMS(NAME, PREFIX, N64)                                                   \
    struct NAME {                                                                            \
        static constexpr int N = 2 * (N64);                                                  \
        static constexpr uint32_t inv = (uint32_t)(PREFIX##_INV);                            \
        __host__ __device__ static constexpr uint32_t mod(int i) {                           \
            constexpr uint64_t v[N64] = PREFIX##_MODULUS;                                    \
            return CUZK_LIMB32(v, i);                                                        \
        }                                                                                    \
        __host__ __device__ static constexpr uint32_t one(int i) {                           \
            constexpr uint64_t v[N64] = PREFIX##_R;                                          \
            return CUZK_LIMB32(v, i);                                                        \
        }                                                                                    \
        __host__ __device__ static constexpr uint32_t r2(int i) {                            \
            constexpr uint64_t v[N64] = PREFIX##_R2;                                         \
            return CUZK_LIMB32(v, i);                                                        \
        }                                                                                    \
    };

/* Fp2 = Fp[u]/(u^2 + 1) over fp_t, the same bytes as the host fp2 (src/ff/fields.h: c0 then c1,
 * 2 x sizeof(fp_t)). The operations the generic curve code (src/cuda/ec.cuh) needs, with the host's
 * formulas: Karatsuba product (3 Fp products), squaring (a0 + a1)(a0 - a1) + 2 a0 a1 u (2 Fp
 * products). inv goes through the norm: (a0 - a1 u) / (a0^2 + a1^2) (one Fp inversion); 0 -> 0. */
template <class fp_t>
struct __align__(16) fp2_t {
    fp_t c0, c1;

    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ static fp2_t zero() {
        fp2_t r;
        r.c0 = fp_t::zero(); r.c1 = fp_t::zero();
        return r;
    }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ static fp2_t one() {
        fp2_t r;
        r.c0 = fp_t::one(); r.c1 = fp_t::zero();
        return r;
    }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ bool operator==(const fp2_t &b) const { return c0 == b.c0 && c1 == b.c1; }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ bool operator!=(const fp2_t &b) const { return !(*this == b); }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ friend fp2_t operator+(const fp2_t &a, const fp2_t &b) {
        fp2_t r;
        r.c0 = a.c0 + b.c0; r.c1 = a.c1 + b.c1;
        return r;
    }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ friend fp2_t operator-(const fp2_t &a, const fp2_t &b) {
        fp2_t r;
        r.c0 = a.c0 - b.c0; r.c1 = a.c1 - b.c1;
        return r;
    }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ friend fp2_t operator-(const fp2_t &a) {
        fp2_t r;
        r.c0 = -a.c0; r.c1 = -a.c1;
        return r;
    }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ fp2_t dbl() const { return *this + *this; }
    /* Karatsuba: a0b0 - a1b1 + ((a0 + a1)(b0 + b1) - a0b0 - a1b1) u */
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ friend fp2_t operator*(const fp2_t &a, const fp2_t &b) {
        fp_t t0 = a.c0 * b.c0;
        fp_t t1 = a.c1 * b.c1;
        fp_t t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
        fp2_t r;
        r.c0 = t0 - t1;
        r.c1 = t2 - t0 - t1;
        return r;
    }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ fp2_t &operator*=(const fp2_t &b) { return *this = *this * b; }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ fp2_t &operator+=(const fp2_t &b) { return *this = *this + b; }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ fp2_t &operator-=(const fp2_t &b) { return *this = *this - b; }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ fp2_t sqr() const {
        fp2_t r;
        fp_t t = c0 * c1;
        r.c0 = (c0 + c1) * (c0 - c1);
        r.c1 = t.dbl();
        return r;
    }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ fp2_t mul_fp(const fp_t &b) const {
        fp2_t r;
        r.c0 = c0 * b; r.c1 = c1 * b;
        return r;
    }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ fp2_t conj() const {
        fp2_t r;
        r.c0 = c0; r.c1 = -c1;
        return r;
    }
    /* a0^2 + a1^2 (= a * conj(a)) */
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ fp_t norm() const { return c0.sqr() + c1.sqr(); }
    #pragma nv_exec_check_disable
    CUZK_HD static fp2_t inv(const fp2_t &a) { return a.conj().mul_fp(fp_t::inv(a.norm())); }
};

}  // namespace cuzk_dev

#endif
