/* BN254 Fr NTT and H (src/poly/ntt_decl.h): the template of src/poly/ntt_impl.h with snarkjs's
 * roots of unity (5^t, two-adicity 28), the only convention for this curve. */
#define CUZK_CURVE_KEEP_PARAMS
#include "curves/bn254/curve.h"

#include "poly/ntt_impl.h"
