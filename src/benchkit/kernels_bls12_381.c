/* The CPU kernel timings (kernels_impl.h) instantiated for BLS12-381 (NTTs with the bellperson
 * roots, as its provers use). */
#define CURVE_INSTANCE_BLS12_381 1
#include "curves/ns_reset.h"

#define BK_TABLE benchkit_bls12_381
#define BK_NTT_ROOTS NTT_ROOTS_BELLPERSON
#include "benchkit/kernels_impl.h"
