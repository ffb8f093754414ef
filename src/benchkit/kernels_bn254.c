/* The CPU kernel timings (kernels_impl.h) instantiated for BN254: every unprefixed curve name
 * bound to bn254_ (src/curves/bn254/bind.h); NTTs with the snarkjs roots (its only convention). */
#include "curves/bn254/bind.h"

#define BK_TABLE benchkit_bn254
#define BK_NTT_ROOTS NTT_ROOTS_SNARKJS
#include "benchkit/kernels_impl.h"
