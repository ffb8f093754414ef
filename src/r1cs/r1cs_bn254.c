/* src/r1cs for BN254: constraint systems (CSR) and the circom .r1cs files, instantiated from the
 * layer's curve-generic templates (*_impl.h; src/curves/curve.h). */
#define CURVE_INSTANCE_BN254 1
#include "curves/ns_reset.h"

#include "r1cs/r1cs_impl.h"
#include "r1cs/r1cs_file_impl.h"
