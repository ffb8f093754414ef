/* Host emulation of what src/cuda/mont.cuh needs from CUDA: the function and variable keywords,
 * and the PTX carry-chain primitives (add.cc, madc.hi, ...). With this header included first, a
 * host C++17 compiler builds the device field arithmetic (mont_t, and fp2_t over it) unchanged, so
 * a CPU test can check its algorithms against GMP without a GPU (tests/emul/test_mont_emul.cpp).
 *
 * What it checks and what it cannot: the carry chains, the reduction rows, the bounds and every
 * branch of the algorithms, word for word as the device runs them; not ptxas's code generation
 * (tools/sass-count.sh counts that) nor anything about speed.
 *
 * Semantics (PTX ISA, "Extended-Precision Integer Arithmetic Instructions"): one carry flag,
 * CC.CF. add.cc, addc.cc, mad.lo.cc, madc.lo.cc, mad.hi.cc and madc.hi.cc write the carry out of
 * their 32-bit addition; sub.cc and subc.cc write the borrow out; the "c" forms add the flag
 * (subtract it, for subc); addc, subc and madc.hi (no .cc) read it without writing. The flag is
 * thread-local, and every primitive is a separate statement in mont.cuh, so C++'s order of
 * evaluation is the PTX order. */
#ifndef CUZK_TESTS_EMUL_PTX_EMUL_H
#define CUZK_TESTS_EMUL_PTX_EMUL_H

#include <stdint.h>

#ifdef __CUDACC__
#error "tests/emul/ptx_emul.h is for host compilers only"
#endif

#define __device__
#define __host__
#define __forceinline__ inline
#define __constant__
#define __align__(n) __attribute__((aligned(n)))
#define __noinline__
#define CUZK_MONT_PRIMITIVES_PROVIDED 1

namespace cuzk_dev {

inline thread_local uint32_t emul_cf = 0;

inline uint32_t emul_add(uint32_t a, uint32_t b, uint32_t cin, bool write) {
    const uint64_t s = (uint64_t)a + b + cin;
    if (write) emul_cf = (uint32_t)(s >> 32);
    return (uint32_t)s;
}
inline uint32_t emul_sub(uint32_t a, uint32_t b, uint32_t bin, bool write) {
    const uint64_t d = (uint64_t)a - b - bin;
    if (write) emul_cf = (uint32_t)(d >> 63); /* borrow: the 64-bit difference went negative */
    return (uint32_t)d;
}
inline uint32_t mul_lo(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a * b); }
inline uint32_t mul_hi(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }

inline uint32_t add_cc(uint32_t a, uint32_t b) { return emul_add(a, b, 0, true); }
inline uint32_t addc_cc(uint32_t a, uint32_t b) { return emul_add(a, b, emul_cf, true); }
inline uint32_t addc(uint32_t a, uint32_t b) { return emul_add(a, b, emul_cf, false); }
inline uint32_t sub_cc(uint32_t a, uint32_t b) { return emul_sub(a, b, 0, true); }
inline uint32_t subc_cc(uint32_t a, uint32_t b) { return emul_sub(a, b, emul_cf, true); }
inline uint32_t subc(uint32_t a, uint32_t b) { return emul_sub(a, b, emul_cf, false); }
inline uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return emul_add(mul_lo(a, b), c, 0, true); }
inline uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return emul_add(mul_lo(a, b), c, emul_cf, true); }
inline uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) { return emul_add(mul_hi(a, b), c, 0, true); }
inline uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) { return emul_add(mul_hi(a, b), c, emul_cf, false); }
inline uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) { return emul_add(mul_hi(a, b), c, emul_cf, true); }

}  // namespace cuzk_dev

#endif
