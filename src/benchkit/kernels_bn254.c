/* The CPU kernel timings (kernels_impl.h) instantiated for BN254 (src/curves/bn254/ns.h: every
 * curve-dependent name is bn254_'s); NTTs with the snarkjs roots (its only convention). */
#define CURVE_INSTANCE_BN254 1
#include "curves/ns_reset.h"

#define BK_TABLE benchkit_bn254
#define BK_NTT_ROOTS NTT_ROOTS_SNARKJS
#include "benchkit/kernels_impl.h"
