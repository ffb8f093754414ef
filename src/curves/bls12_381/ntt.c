/* BLS12-381 Fr NTT and H (src/poly/ntt_decl.h): the template of src/poly/ntt_impl.h with this
 * curve's roots of unity (both conventions). */
#define CUZK_CURVE_KEEP_PARAMS
#include "curves/bls12_381/curve.h"

#include "poly/ntt_impl.h"
