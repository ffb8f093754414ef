/* Device Montgomery arithmetic: ONE generic implementation over a parameter set (like sppark's
 * mont_t), instantiated per curve for Fp and Fr (BLS12-381: 12 and 8 x 32-bit limbs) in
 * src/cuda/curve_*.cuh.
 *
 * Representation: x*R mod m, R = 2^(32N), limbs little-endian. The byte layout is identical to the
 * host's (src/ff/field.h: N/2 x 64-bit little-endian limbs), so host arrays are copied as they are.
 *
 * Multiplication: CIOS (Koc, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
 * algorithms", 1996) with PTX carry chains: per 32-bit word of b, a*b_i then m*p added by mad_row,
 * whose chains pair the low and high half of each 32x32 product (the even/odd-word split of
 * Emmart, Zheng and Weems, ARITH 2016). About 4N^2 multiply-adds (576 for Fp). Requires
 * m < 2^(32N-1) (true for the BLS12-381 and BN254 fields), inputs < m; outputs < m.
 *
 * The carry flag lives between separate asm volatile statements (as in ICICLE and sppark): nvcc
 * keeps the PTX order of volatile asm and no instruction it emits between them touches CC.
 */
#ifndef CUZK_CUDA_MONT_CUH
#define CUZK_CUDA_MONT_CUH

#include <stdint.h>

namespace cuzk_dev {

/* ---- PTX carry-chain primitives ------------------------------------------------------------ */
__device__ __forceinline__ uint32_t add_cc(uint32_t a, uint32_t b) {
    uint32_t r; asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ uint32_t addc_cc(uint32_t a, uint32_t b) {
    uint32_t r; asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ uint32_t addc(uint32_t a, uint32_t b) {
    uint32_t r; asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ uint32_t sub_cc(uint32_t a, uint32_t b) {
    uint32_t r; asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ uint32_t subc_cc(uint32_t a, uint32_t b) {
    uint32_t r; asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ uint32_t subc(uint32_t a, uint32_t b) {
    uint32_t r; asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
__device__ __forceinline__ uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r; asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
__device__ __forceinline__ uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r; asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
__device__ __forceinline__ uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r; asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
__device__ __forceinline__ uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r; asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }

/* Split 64-bit host limbs into 32-bit device limbs at compile time: word i of a little-endian
 * array of 64-bit limbs. */
#define CUZK_LIMB32(arr64, i) ((uint32_t)((arr64)[(i) / 2] >> (32 * ((i) & 1))))

/* P must provide: N (32-bit limbs), and constexpr __host__ __device__ functions
 *   mod(i), one(i) (R mod m), r2(i) (R^2 mod m), and constexpr uint32_t inv (-m^-1 mod 2^32). */
template <class P>
struct __align__(16) mont_t {
    static constexpr int N = P::N;
    uint32_t l[N];

    __device__ __forceinline__ static mont_t zero() {
        mont_t r;
#pragma unroll
        for (int i = 0; i < N; i++) r.l[i] = 0;
        return r;
    }
    __device__ __forceinline__ static mont_t one() {
        mont_t r;
#pragma unroll
        for (int i = 0; i < N; i++) r.l[i] = P::one(i);
        return r;
    }
    __device__ __forceinline__ static mont_t modulus_minus(uint32_t k) { /* m - k as an integer */
        mont_t r;
        r.l[0] = sub_cc(P::mod(0), k);
#pragma unroll
        for (int i = 1; i < N; i++) r.l[i] = subc_cc(P::mod(i), 0);
        return r;
    }
    __device__ __forceinline__ bool is_zero() const {
        uint32_t acc = 0;
#pragma unroll
        for (int i = 0; i < N; i++) acc |= l[i];
        return acc == 0;
    }
    __device__ __forceinline__ bool operator==(const mont_t &b) const {
        uint32_t acc = 0;
#pragma unroll
        for (int i = 0; i < N; i++) acc |= l[i] ^ b.l[i];
        return acc == 0;
    }
    __device__ __forceinline__ bool operator!=(const mont_t &b) const { return !(*this == b); }

    /* r = a + b mod m */
    __device__ __forceinline__ friend mont_t operator+(const mont_t &a, const mont_t &b) {
        mont_t r, s;
        r.l[0] = add_cc(a.l[0], b.l[0]);
#pragma unroll
        for (int i = 1; i < N; i++) r.l[i] = addc_cc(a.l[i], b.l[i]);
        /* a + b < 2m < 2^(32N): no carry out. s = r - m, borrow -> keep r */
        s.l[0] = sub_cc(r.l[0], P::mod(0));
#pragma unroll
        for (int i = 1; i < N; i++) s.l[i] = subc_cc(r.l[i], P::mod(i));
        uint32_t borrow = subc(0, 0); /* 0xffffffff if r < m */
#pragma unroll
        for (int i = 0; i < N; i++) r.l[i] = borrow ? r.l[i] : s.l[i];
        return r;
    }
    /* r = a - b mod m */
    __device__ __forceinline__ friend mont_t operator-(const mont_t &a, const mont_t &b) {
        mont_t r;
        r.l[0] = sub_cc(a.l[0], b.l[0]);
#pragma unroll
        for (int i = 1; i < N; i++) r.l[i] = subc_cc(a.l[i], b.l[i]);
        uint32_t mask = subc(0, 0);
        r.l[0] = add_cc(r.l[0], P::mod(0) & mask);
#pragma unroll
        for (int i = 1; i < N; i++) r.l[i] = addc_cc(r.l[i], P::mod(i) & mask);
        return r;
    }
    /* -a mod m (0 -> 0) */
    __device__ __forceinline__ friend mont_t operator-(const mont_t &a) { return zero() - a; }
    __device__ __forceinline__ mont_t dbl() const { return *this + *this; }

    /* t[0..N+1] += x * y (x: N words, y one word), as two carry chains: the even words of x, then
     * the odd ones. In each chain the low and high halves of one 32x32 product are adjacent
     * (mad.lo.cc then madc.hi.cc of the same operands), which ptxas turns into one wide multiply-add
     * with carry; the CIOS order of src/cuda/mont.cuh before session 5 (all low halves in one chain,
     * all high halves in a second) could not pair them: 1280 SASS instructions per BLS12-381 Fp
     * product then, 808 now (cubin text size, sm_90a; bench/GPU_RESULTS.md §session 5). The even
     * chain's carry lands in t[N] and t[N+1]; the odd chain ends at t[N] and carries into t[N+1]. */
    __device__ __forceinline__ static void mad_row(uint32_t *t, const uint32_t *x, uint32_t y) {
        t[0] = mad_lo_cc(x[0], y, t[0]);
        t[1] = madc_hi_cc(x[0], y, t[1]);
#pragma unroll
        for (int k = 2; k < N; k += 2) {
            t[k] = madc_lo_cc(x[k], y, t[k]);
            t[k + 1] = madc_hi_cc(x[k], y, t[k + 1]);
        }
        t[N] = addc_cc(t[N], 0);
        t[N + 1] = addc(t[N + 1], 0);
        t[1] = mad_lo_cc(x[1], y, t[1]);
        t[2] = madc_hi_cc(x[1], y, t[2]);
#pragma unroll
        for (int k = 3; k < N; k += 2) {
            t[k] = madc_lo_cc(x[k], y, t[k]);
            t[k + 1] = madc_hi_cc(x[k], y, t[k + 1]);
        }
        t[N + 1] = addc(t[N + 1], 0);
    }

    /* r = a*b/R mod m: CIOS (one word of b per row, then one word of reduction), each row through
     * mad_row. N must be even (true for every parameter set of src/cuda/fields.cuh). t stays below
     * 2m < 2^(32N) after each row's shift, so N + 2 words never overflow. */
    __device__ __forceinline__ friend mont_t operator*(const mont_t &a, const mont_t &b) {
        static_assert(N % 2 == 0, "mont_t: N must be even");
        uint32_t t[N + 2], p[N];
#pragma unroll
        for (int j = 0; j < N; j++) p[j] = P::mod(j);
#pragma unroll
        for (int j = 0; j < N + 2; j++) t[j] = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            mad_row(t, a.l, b.l[i]);
            mad_row(t, p, t[0] * P::inv); /* t[0] becomes 0 */
#pragma unroll
            for (int j = 0; j <= N; j++) t[j] = t[j + 1];
            t[N + 1] = 0;
        }
        return reduce_once(t);
    }
    /* t (N+1 words) < 2m -> t mod m */
    __device__ __forceinline__ static mont_t reduce_once(const uint32_t *t) {
        mont_t r, s;
        s.l[0] = sub_cc(t[0], P::mod(0));
#pragma unroll
        for (int i = 1; i < N; i++) s.l[i] = subc_cc(t[i], P::mod(i));
        (void)subc_cc(t[N], 0);
        uint32_t borrow = subc(0, 0);
#pragma unroll
        for (int i = 0; i < N; i++) r.l[i] = borrow ? t[i] : s.l[i];
        return r;
    }
    __device__ __forceinline__ mont_t &operator*=(const mont_t &b) { return *this = *this * b; }
    __device__ __forceinline__ mont_t &operator+=(const mont_t &b) { return *this = *this + b; }
    __device__ __forceinline__ mont_t &operator-=(const mont_t &b) { return *this = *this - b; }
    /* a^2/R mod m with N(N-1)/2 + N word products before the reduction instead of N^2: the
     * off-diagonal products a_i*a_j (i < j) once, doubled, plus the squares a_i^2 (2N-word T), then
     * REDC of T = T_lo + T_hi*R as (T_lo + M*m)/R + T_hi: the CIOS reduction rows of operator* over
     * T_lo (t stays below R + 2^32 m, N + 2 words), then T_hi added. (T_lo + M*m)/R < 1 + m and
     * T_hi < m (a < m), so the sum is below 2m: one conditional subtraction. Same result as a*a. */
    __device__ __forceinline__ mont_t sqr() const {
        uint32_t T[2 * N];
#pragma unroll
        for (int j = 0; j < 2 * N; j++) T[j] = 0;
        /* off-diagonal: row i adds a_i * a_j, j > i, at word i + j (low) and i + j + 1 (high), as
         * two chains over j of one parity each (the pairing of mad_row) */
#pragma unroll
        for (int i = 0; i < N - 1; i++) {
#pragma unroll
            for (int par = 1; par <= 2; par++) {
                if (i + par > N - 1) continue;
                T[2 * i + par] = mad_lo_cc(l[i], l[i + par], T[2 * i + par]);
                T[2 * i + par + 1] = madc_hi_cc(l[i], l[i + par], T[2 * i + par + 1]);
#pragma unroll
                for (int j = i + par + 2; j < N; j += 2) {
                    T[i + j] = madc_lo_cc(l[i], l[j], T[i + j]);
                    T[i + j + 1] = madc_hi_cc(l[i], l[j], T[i + j + 1]);
                }
                /* the rows so far sum to less than 2^(32(i+N+1)): the chain's carry stops at word
                 * i+N; when its last j is N-1 its high half is word i+N and nothing carries out */
                if ((N - 1 - (i + par)) % 2 != 0) T[i + N] = addc(T[i + N], 0);
            }
        }
        /* double (the off-diagonal sum is below a^2/2 < 2^(64N-1): no bit is lost) */
        T[0] = 0;
#pragma unroll
        for (int k = 2 * N - 1; k > 0; k--) T[k] = (T[k] << 1) | (T[k - 1] >> 31);
        /* + the squares a_i^2 at words 2i, 2i+1: one paired chain */
        T[0] = mad_lo_cc(l[0], l[0], T[0]);
        T[1] = madc_hi_cc(l[0], l[0], T[1]);
#pragma unroll
        for (int i = 1; i < N; i++) {
            T[2 * i] = madc_lo_cc(l[i], l[i], T[2 * i]);
            T[2 * i + 1] = madc_hi_cc(l[i], l[i], T[2 * i + 1]);
        }
        /* REDC of T_lo */
        uint32_t t[N + 2], p[N];
#pragma unroll
        for (int j = 0; j < N; j++) p[j] = P::mod(j);
#pragma unroll
        for (int j = 0; j < N; j++) t[j] = T[j];
        t[N] = t[N + 1] = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            mad_row(t, p, t[0] * P::inv);
#pragma unroll
            for (int j = 0; j <= N; j++) t[j] = t[j + 1];
            t[N + 1] = 0;
        }
        /* + T_hi */
        t[0] = add_cc(t[0], T[N]);
#pragma unroll
        for (int i = 1; i < N; i++) t[i] = addc_cc(t[i], T[N + i]);
        t[N] = addc(t[N], 0);
        return reduce_once(t);
    }

    /* canonical integer (< m) -> Montgomery, and back */
    __device__ __forceinline__ static mont_t from_canon(const mont_t &a) {
        mont_t r2;
#pragma unroll
        for (int i = 0; i < N; i++) r2.l[i] = P::r2(i);
        return a * r2;
    }
    __device__ __forceinline__ mont_t to_canon() const {
        mont_t one_int = zero();
        one_int.l[0] = 1;
        return *this * one_int;
    }
    __device__ static mont_t from_u32(uint32_t v) {
        mont_t a = zero();
        a.l[0] = v;
        return from_canon(a);
    }
    /* a^e, e given as ne little-endian 32-bit words, variable time in e */
    __device__ static mont_t pow(const mont_t &a, const uint32_t *e, int ne) {
        mont_t r = one();
        for (int i = ne * 32 - 1; i >= 0; i--) {
            r = r.sqr();
            if ((e[i / 32] >> (i % 32)) & 1) r = r * a;
        }
        return r;
    }
    /* a^(m-2) (Fermat); 0 -> 0 */
    __device__ static mont_t inv(const mont_t &a) {
        uint32_t e[N], borrow = 2; /* e = m - 2, borrowing across words (Fr's low word is 1) */
#pragma unroll
        for (int i = 0; i < N; i++) {
            const uint32_t v = P::mod(i);
            e[i] = v - borrow;
            borrow = v < borrow ? 1 : 0;
        }
        return pow(a, e, N);
    }
};

}  // namespace cuzk_dev

#endif
