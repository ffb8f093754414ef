/* src/groth16 for BN254: the prover orchestration (CPU and GPU backends), the verifier, setup and
 * the public API's per-curve half, instantiated from the layer's curve-generic templates
 * (*_impl.h; src/curves/curve.h). */
#define CURVE_INSTANCE_BN254 1
#include "curves/ns_reset.h"

#include "groth16/verifier_impl.h"
#include "groth16/prover_impl.h"
#include "groth16/prove_impl.h"
#include "groth16/gpu_prover_impl.h"
#include "groth16/backend_impl.h"
#include "groth16/setup_impl.h"
#include "groth16/pk_impl.h"
#include "groth16/table_impl.h"
