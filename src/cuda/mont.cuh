/* Device Montgomery arithmetic: ONE generic implementation over a parameter set (like sppark's
 * mont_t), instantiated per curve for Fp and Fr (BLS12-381: 12 and 8 x 32-bit limbs) in
 * src/cuda/curve_*.cuh.
 *
 * Representation: x*R mod m, R = 2^(32N), limbs little-endian. The byte layout is identical to the
 * host's (src/ff/field.h: N/2 x 64-bit little-endian limbs), so host arrays are copied as they are.
 *
 * Multiplication: CIOS (Koc, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
 * algorithms", 1996) with PTX carry chains over separate even/odd accumulators (Emmart, Zheng and
 * Weems, ARITH 2016; see operator*). About 4N^2 multiply-adds (576 for Fp). Requires
 * m < 2^(32N-1) (true for the BLS12-381 and BN254 fields), inputs < m; outputs < m.
 *
 * The carry flag lives between separate asm volatile statements (as in ICICLE and sppark): nvcc
 * keeps the PTX order of volatile asm and no instruction it emits between them touches CC.
 */
#ifndef CUZK_CUDA_MONT_CUH
#define CUZK_CUDA_MONT_CUH

#include <utility>

#include <stdint.h>

namespace cuzk_dev {

/* ---- PTX carry-chain primitives ------------------------------------------------------------ */
/* (A host C++ build that defines CUZK_MONT_PRIMITIVES_PROVIDED brings its own: tests/emul/ptx_emul.h
 * emulates them so that this file's algorithms run under a CPU test against GMP.) */
#ifndef CUZK_MONT_PRIMITIVES_PROVIDED
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
__device__ __forceinline__ uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r; asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
__device__ __forceinline__ uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r; asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
#endif

/* Split 64-bit host limbs into 32-bit device limbs at compile time: word i of a little-endian
 * array of 64-bit limbs. */
#define CUZK_LIMB32(arr64, i) ((uint32_t)((arr64)[(i) / 2] >> (32 * ((i) & 1))))

/* P must provide: N (32-bit limbs), and constexpr __host__ __device__ functions
 *   mod(i), one(i) (R mod m), r2(i) (R^2 mod m), and constexpr uint32_t inv (-m^-1 mod 2^32). */
/* The reduction's constants in constant memory, for parameter sets whose modulus has low word 1
 * (inv = -m^-1 mod 2^32 = 0xffffffff: BLS12-381's Fr). Given as immediates, ptxas rewrites
 * q = X[0] * inv as a negation and then splits every 64-bit multiply-add of the reduction rows by
 * the modulus (IMAD.WIDE.U32.X) into IMAD.X + IMAD.HI.U32.X and carry fix-ups: 560 SASS
 * instructions for a loop of two products against 448 read from constant memory, which ptxas cannot
 * see through (sm_90a, CUDA 13.0; sppark's Fr product: 448; the H200 product benchmark of session 8
 * measured the split form at 51.2 G/s against sppark's 59.3). The other parameter sets keep
 * immediates: BLS12-381's Fp product costs 8 instructions more from constant memory, BN254's
 * fields are the same either way (bench/GPU_RESULTS.md, session 9). */
template <class P>
struct mont_mod_words {
    uint32_t v[P::N];
};
template <class P, size_t... I>
constexpr mont_mod_words<P> mont_make_mod_words(std::index_sequence<I...>) {
    return mont_mod_words<P>{{P::mod((int)I)...}};
}
template <class P>
__constant__ mont_mod_words<P> mont_mod_c = mont_make_mod_words<P>(std::make_index_sequence<P::N>());
template <class P>
__constant__ uint32_t mont_inv_c = P::inv;

template <class P>
struct __align__(16) mont_t {
    static constexpr int N = P::N;
    uint32_t l[N];
    /* where the product and the squaring read inv and the modulus (mont_mod_c above) */
    static constexpr bool REDC_CONST = P::inv == 0xffffffffu;
    __device__ __forceinline__ static uint32_t redc_inv() {
        if constexpr (REDC_CONST) return mont_inv_c<P>;
        else return P::inv;
    }
    __device__ __forceinline__ static uint32_t redc_mod(int j) {
        if constexpr (REDC_CONST) return mont_mod_c<P>.v[j];
        else return P::mod(j);
    }

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

    /* ---- the product: CIOS over separate even/odd accumulators -------------------------------
     * CIOS (one word b_i of b per row, then one word q of reduction, then a shift by one word) with
     * the accumulator A split in two, A = X + 2^32 Y: X (N + 1 words) takes the 32x32 products of the
     * even words of a and of m (their low halves land on even words, the high halves on odd ones),
     * Y (N words, one word up) those of the odd words. Each row is then four independent carry
     * chains (two over X, two over Y) with no carry propagation between them, which is what lets
     * the SM overlap them (Emmart, Zheng, Weems, "Optimizing modular multiplication for NVIDIA's
     * Maxwell GPUs", ARITH 2016). The shift by one word costs no instruction: A / 2^32 =
     * Y + X[1] + 2^32 (X >> 64), so the next row's X is this row's Y, its Y is X >> 64, and the one
     * word X[1] is added into the next row's X[0] as the first step of its Y chain (whose first word
     * is the word above X[0], so the carry lands where it belongs).
     * Bounds (a, b < m, the top word of m below 2^31 - 1, so m < 2^(32N-1) - 2^(32N-32)): A < 2m
     * before each row and A < 2m + 2^33 m < 2^(32N+32) after its additions, so X <= A fits N + 1
     * words and Y <= A / 2^32 < 2^(32N) fits N words: the Y chains never carry out (static_assert
     * below; BLS12-381's and BN254's moduli have top words 0x1a01.., 0x73ed.., 0x3064..).
     * Measured on the H200 (session 8; 2^25 random and edge products per field equal to the previous
     * form): 27.2 G BLS12-381 Fp products/s against 22.9 for the single-accumulator form. */

    /* Y[0..N) += x_odd * y / 2^32, the odd words x[1], x[3], .. of x; the chain's carry is taken in
     * (ci: after add_cc into the word below) or not */
    __device__ __forceinline__ static void mad_odd(uint32_t *Y, const uint32_t *x, uint32_t y, bool ci) {
        Y[0] = ci ? madc_lo_cc(x[1], y, Y[0]) : mad_lo_cc(x[1], y, Y[0]);
        Y[1] = madc_hi_cc(x[1], y, Y[1]);
#pragma unroll
        for (int j = 3; j < N - 1; j += 2) {
            Y[j - 1] = madc_lo_cc(x[j], y, Y[j - 1]);
            Y[j] = madc_hi_cc(x[j], y, Y[j]);
        }
        Y[N - 2] = madc_lo_cc(x[N - 1], y, Y[N - 2]);
        Y[N - 1] = madc_hi(x[N - 1], y, Y[N - 1]);
    }
    /* X[0..N] += x_even * y, the even words x[0], x[2], .. of x */
    __device__ __forceinline__ static void mad_even(uint32_t *X, const uint32_t *x, uint32_t y) {
        X[0] = mad_lo_cc(x[0], y, X[0]);
        X[1] = madc_hi_cc(x[0], y, X[1]);
#pragma unroll
        for (int j = 2; j < N; j += 2) {
            X[j] = madc_lo_cc(x[j], y, X[j]);
            X[j + 1] = madc_hi_cc(x[j], y, X[j + 1]);
        }
        X[N] = addc(X[N], 0);
    }
    /* One reduction row and the shift: q = X[0] * inv (X[0] already holds the pending word w, or
     * this is row 0), A += q m, then X, Y, w for the next row. */
    __device__ __forceinline__ static void redc_row(uint32_t *X, uint32_t *Y, uint32_t *w, const uint32_t *p,
                                                    bool ci) {
        const uint32_t q = X[0] * redc_inv();
        mad_odd(Y, p, q, ci);
        mad_even(X, p, q); /* X[0] becomes 0 */
        *w = X[1];
        uint32_t t[N];
#pragma unroll
        for (int k = 0; k < N - 1; k++) t[k] = X[k + 2];
        t[N - 1] = 0;
#pragma unroll
        for (int k = 0; k < N; k++) X[k] = Y[k];
        X[N] = 0;
#pragma unroll
        for (int k = 0; k < N; k++) Y[k] = t[k];
    }
    /* r = X + w + 2^32 Y (N + 1 words; below 2m when it is a product's end) */
    __device__ __forceinline__ static void merge(uint32_t *r, const uint32_t *X, const uint32_t *Y, uint32_t w) {
        r[0] = add_cc(X[0], w);
#pragma unroll
        for (int k = 1; k < N; k++) r[k] = addc_cc(X[k], Y[k - 1]);
        r[N] = addc(X[N], Y[N - 1]);
    }

    /* r = a*b/R mod m. N must be even (true for every parameter set of src/cuda/fields.cuh). */
    __device__ __forceinline__ friend mont_t operator*(const mont_t &a, const mont_t &b) {
        static_assert(N % 2 == 0 && N >= 4, "mont_t: N must be even and at least 4");
        static_assert(P::mod(N - 1) < 0x7fffffffu, "mont_t: the top word of the modulus must be below 2^31 - 1 (see the bounds above)");
        uint32_t X[N + 1], Y[N], p[N], w = 0;
#pragma unroll
        for (int j = 0; j < N; j++) p[j] = redc_mod(j);
#pragma unroll
        for (int j = 0; j < N; j++) X[j] = Y[j] = 0;
        X[N] = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            /* the pending word first: its carry goes into the odd chain (the word above) */
            if (i > 0) X[0] = add_cc(X[0], w);
            mad_odd(Y, a.l, b.l[i], i > 0);
            mad_even(X, a.l, b.l[i]);
            redc_row(X, Y, &w, p, false);
        }
        uint32_t r[N + 1];
        merge(r, X, Y, w);
        return reduce_once(r);
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
     * REDC of T = T_lo + T_hi*R as (T_lo + M*m)/R + T_hi: the reduction rows of operator* (redc_row) over
     * T_lo (X, Y as in operator*; the value stays below R + 2^32 m), then T_hi added. (T_lo + M*m)/R < 1 + m and
     * T_hi < m (a < m), so the sum is below 2m: one conditional subtraction. Same result as a*a
     * (tests/emul/test_mont_emul.cpp checks both against GMP on the CPU). SASS (sm_90a, a loop of
     * two squarings): BLS12-381 Fp 824 instructions, Fr 464; sppark's Fp squaring 776. */
    __device__ __forceinline__ mont_t sqr() const {
        /* off-diagonal: row i adds a_i * a_j, j > i, at word i + j (low) and i + j + 1 (high), as
         * two chains over j of one parity each. Like operator*'s X and Y, the chains whose low
         * halves land on even words (j - i even) accumulate in E and the others in O, one word up
         * (O[k] is word k + 1), so that every multiply-add writes an aligned register pair; the
         * two are summed once at the end (a single accumulator gave 976 SASS instructions for two
         * BLS12-381 Fp squarings, ptxas splitting the odd-word pairs) */
        uint32_t E[2 * N], O[2 * N], T[2 * N];
#pragma unroll
        for (int j = 0; j < 2 * N; j++) E[j] = O[j] = 0;
#pragma unroll
        for (int i = 0; i < N - 1; i++) {
            /* j - i odd: words i + j (odd) and i + j + 1 into O[i + j - 1], O[i + j] */
            O[2 * i] = mad_lo_cc(l[i], l[i + 1], O[2 * i]);
            O[2 * i + 1] = madc_hi_cc(l[i], l[i + 1], O[2 * i + 1]);
#pragma unroll
            for (int j = i + 3; j < N; j += 2) {
                O[i + j - 1] = madc_lo_cc(l[i], l[j], O[i + j - 1]);
                O[i + j] = madc_hi_cc(l[i], l[j], O[i + j]);
            }
            /* each accumulator's rows so far sum to less than 2^(32(i+N+1)): the chain's carry
             * stops at word i + N; when its last j is N - 1 its high half is that word and nothing
             * carries out */
            if ((N - 2 - i) % 2 != 0) O[i + N - 1] = addc(O[i + N - 1], 0);
            /* j - i even: words i + j, i + j + 1 into E */
            if (i + 2 > N - 1) continue;
            E[2 * i + 2] = mad_lo_cc(l[i], l[i + 2], E[2 * i + 2]);
            E[2 * i + 3] = madc_hi_cc(l[i], l[i + 2], E[2 * i + 3]);
#pragma unroll
            for (int j = i + 4; j < N; j += 2) {
                E[i + j] = madc_lo_cc(l[i], l[j], E[i + j]);
                E[i + j + 1] = madc_hi_cc(l[i], l[j], E[i + j + 1]);
            }
            if ((N - 3 - i) % 2 != 0) E[i + N] = addc(E[i + N], 0);
        }
        /* T = E + 2^32 O (the off-diagonal sum, below 2^(64N-1)) */
        T[0] = E[0];
        T[1] = add_cc(E[1], O[0]);
#pragma unroll
        for (int k = 2; k < 2 * N - 1; k++) T[k] = addc_cc(E[k], O[k - 1]);
        T[2 * N - 1] = addc(E[2 * N - 1], O[2 * N - 2]);
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
        /* REDC of T_lo with the even/odd accumulators of operator* (reduction rows only), then
         * + T_hi */
        uint32_t X[N + 1], Y[N], p[N], w = 0;
#pragma unroll
        for (int j = 0; j < N; j++) p[j] = redc_mod(j);
#pragma unroll
        for (int j = 0; j < N; j++) { X[j] = T[j]; Y[j] = 0; }
        X[N] = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            if (i > 0) X[0] = add_cc(X[0], w); /* carry kept (CC) for redc_row's odd chain */
            redc_row(X, Y, &w, p, i > 0);
        }
        uint32_t t[N + 1];
        merge(t, X, Y, w);
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
