/* The CPU kernel timings (kernels_impl.h) instantiated for BLS12-381 (NTTs with the bellperson
 * roots, as its provers use). */
#include "curves/bls12_381/curve.h"

#define BK_TABLE benchkit_bls12_381
#define BK_NTT_ROOTS NTT_ROOTS_BELLPERSON
#include "benchkit/kernels_impl.h"
