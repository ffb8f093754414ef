/* BLS12-381 Fp and Fr on the device: parameter sets for mont_t (src/cuda/mont.cuh), derived at
 * compile time from the host constants (src/ff/bls12_381_constants.h) by splitting each 64-bit
 * limb into two 32-bit limbs; nothing is retyped. */
#ifndef CUZK_CUDA_FIELDS_CUH
#define CUZK_CUDA_FIELDS_CUH

#include "cuda/mont.cuh"
#include "ff/bls12_381_constants.h"

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

CUZK_DEV_PARAMS(fp_params, BLS12_381_FP, 6)
CUZK_DEV_PARAMS(fr_params, BLS12_381_FR, 4)

typedef mont_t<fp_params> fp_t;  /* 48 bytes, same bytes as host fp */
typedef mont_t<fr_params> fr_t;  /* 32 bytes, same bytes as host fr */

static_assert(sizeof(fp_t) == 48, "fp_t layout");
static_assert(sizeof(fr_t) == 32, "fr_t layout");
/* -m^-1 mod 2^32 is the low word of -m^-1 mod 2^64 */
static_assert((uint32_t)(fp_params::mod(0) * fp_params::inv) == 0xffffffffu, "fp inv");
static_assert((uint32_t)(fr_params::mod(0) * fr_params::inv) == 0xffffffffu, "fr inv");

}  // namespace cuzk_dev

#endif
