/* Short-Weierstrass curve arithmetic (a = 0), generic over the coordinate field F (a curve's
 * fp for G1, fp2 for G2; src/cuda/curve_*.cuh instantiates them):
 * affine (x, y) with (0, 0) = infinity (the host convention, src/ec/ec.h), XYZZ
 * (X, Y, ZZ, ZZZ) = (X/ZZ, Y/ZZZ) with ZZ = 0 for infinity, and Jacobian output.
 * Formulas: Explicit-Formulas Database, "xyzz" coordinates for short Weierstrass curves:
 * add-2008-s, madd-2008-s, dbl-2008-s-1, mdbl-2008-s-1 (Bernstein, Lange). Exceptional cases
 * (P = Q, P = -Q, infinity) are handled by branches: variable time, public data only.
 * The methods are __host__ __device__: the device instantiates them over mont_t, the host over
 * host_mont_t (src/cuda/host_field.cuh, src/ff/mont.h underneath) for the serial last steps of
 * the MSM, so both sides share one set of formulas. */
#ifndef CUZK_CUDA_EC_CUH
#define CUZK_CUDA_EC_CUH

#include "cuda/fields.cuh"

/* Methods are __host__ __device__ (CUZK_HD, src/cuda/fields.cuh) and each is preceded by
 * `#pragma nv_exec_check_disable`: an instantiation over a host-only field (host_mont_t, or
 * fp2_t over it) is then called from host code only, without nvcc's warning about the device side
 * it never uses. */

namespace cuzk_dev {

template <class fp_t>
struct fp2_t;

/* Whether the exceptional branches of the point formulas (the doublings inside add and
 * add_affine_noinf) and add itself are inlined (true) or ABI calls (false) for coordinate field F.
 * G2 (F = fp2_t): inlined. On the H200 (CUDA 13.0, sm_90a) the G2 reductions faulted with an
 * illegal 16-byte local write inside the called doubling, whose ptxas report showed spill stores
 * with a 0-byte stack frame; neither a larger stack limit nor doubling in place through `this`
 * helped (bench/GPU_RESULTS.md, sessions 7 and 8). Inlined, a kernel pays code size for each
 * call site, so the G2 kernels keep one or two sites each (msm_segment_kernel runs its steps
 * through one). G1 (F = the base field): calls, as measured since session 2. */
template <class F>
struct ec_inline {
    static constexpr bool value = false;
};
template <class fp_t>
struct ec_inline<fp2_t<fp_t> > {
    static constexpr bool value = true;
};

template <class F>
struct affine_t {
    F x, y;
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ bool is_inf() const { return x.is_zero() && y.is_zero(); }
};

template <class F>
struct jacobian_t {
    F x, y, z;
};

template <class F>
struct xyzz_t {
    F x, y, zz, zzz;

    #pragma nv_exec_check_disable

    CUZK_HD __forceinline__ static xyzz_t inf() {
        xyzz_t r;
        r.x = F::zero(); r.y = F::zero(); r.zz = F::zero(); r.zzz = F::zero();
        return r;
    }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ bool is_inf() const { return zz.is_zero(); }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ static xyzz_t from_affine(const affine_t<F> &p) {
        if (p.is_inf()) return inf();
        xyzz_t r;
        r.x = p.x; r.y = p.y; r.zz = F::one(); r.zzz = F::one();
        return r;
    }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ xyzz_t neg() const {
        xyzz_t r = *this;
        r.y = -y;
        return r;
    }

    /* dbl-2008-s-1 with a = 0; an ABI call unless ec_inline<F> (keeps the adds' rare doubling
     * branch small) */
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ xyzz_t dbl() const {
        if constexpr (ec_inline<F>::value) return dbl_impl();
        else return dbl_call();
    }
    #pragma nv_exec_check_disable
    CUZK_HD __noinline__ xyzz_t dbl_call() const { return dbl_impl(); }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ xyzz_t dbl_impl() const {
        if (is_inf()) return *this;
        F u = y.dbl();
        F v = u.sqr();
        F w = u * v;
        F s = x * v;
        F m = x.sqr();
        m = m + m.dbl();
        xyzz_t r;
        r.x = m.sqr() - s.dbl();
        r.y = m * (s - r.x) - w * y;
        r.zz = v * zz;
        r.zzz = w * zzz;
        return r;
    }

    /* mdbl-2008-s-1: 2*(x, y) for an affine point, not infinity; an ABI call unless ec_inline<F> */
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ static xyzz_t dbl_affine(const F &x, const F &y) {
        if constexpr (ec_inline<F>::value) return dbl_affine_impl(x, y);
        else return dbl_affine_call(x, y);
    }
    #pragma nv_exec_check_disable
    CUZK_HD __noinline__ static xyzz_t dbl_affine_call(const F &x, const F &y) { return dbl_affine_impl(x, y); }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ static xyzz_t dbl_affine_impl(const F &x, const F &y) {
        F u = y.dbl();
        F v = u.sqr();
        F w = u * v;
        F s = x * v;
        F m = x.sqr();
        m = m + m.dbl();
        xyzz_t r;
        r.x = m.sqr() - s.dbl();
        r.y = m * (s - r.x) - w * y;
        r.zz = v;
        r.zzz = w;
        return r;
    }

    /* this + (qx, qy), q affine and not infinity (madd-2008-s) */
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ void add_affine_noinf(const F &qx, const F &qy) {
        if (is_inf()) {
            x = qx; y = qy; zz = F::one(); zzz = F::one();
            return;
        }
        F u2 = qx * zz;
        F s2 = qy * zzz;
        F p = u2 - x;
        F r = s2 - y;
        if (p.is_zero()) {
            if (r.is_zero()) *this = dbl_affine(qx, qy);
            else *this = inf();
            return;
        }
        F pp = p.sqr();
        F ppp = p * pp;
        F q = x * pp;
        F x3 = r.sqr() - ppp - q.dbl();
        y = r * (q - x3) - y * ppp;
        x = x3;
        zz = zz * pp;
        zzz = zzz * ppp;
    }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ void add_affine(const affine_t<F> &q) {
        if (!q.is_inf()) add_affine_noinf(q.x, q.y);
    }

    /* this + q (add-2008-s); P + P doubles. Inlined when ec_inline<F>, else the compiler's choice. */
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ void add(const xyzz_t &q) {
        if constexpr (ec_inline<F>::value) add_impl(q);
        else add_call(q);
    }
    #pragma nv_exec_check_disable
    CUZK_HD void add_call(const xyzz_t &q) { add_impl(q); }
    #pragma nv_exec_check_disable
    CUZK_HD __forceinline__ void add_impl(const xyzz_t &q) {
        if (q.is_inf()) return;
        if (is_inf()) { *this = q; return; }
        F u1 = x * q.zz;
        F u2 = q.x * zz;
        F s1 = y * q.zzz;
        F s2 = q.y * zzz;
        F p = u2 - u1;
        F r = s2 - s1;
        if (p.is_zero()) {
            if (r.is_zero()) *this = dbl();
            else *this = inf();
            return;
        }
        F pp = p.sqr();
        F ppp = p * pp;
        F qq = u1 * pp;
        F x3 = r.sqr() - ppp - qq.dbl();
        y = r * (qq - x3) - s1 * ppp;
        x = x3;
        zz = zz * q.zz * pp;
        zzz = zzz * q.zzz * ppp;
    }

    /* Jacobian (X*ZZ^2, Y*ZZZ^2, ZZZ): Z = ZZZ/ZZ scaled by ZZ; infinity -> Z = 0 */
    #pragma nv_exec_check_disable
    CUZK_HD jacobian_t<F> to_jacobian() const {
        jacobian_t<F> r;
        if (is_inf()) {
            r.x = F::one(); r.y = F::one(); r.z = F::zero();
            return r;
        }
        r.x = x * zz.sqr();
        r.y = y * zzz.sqr();
        r.z = zzz;
        return r;
    }
};

}  // namespace cuzk_dev

#endif
