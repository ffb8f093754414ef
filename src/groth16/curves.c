/* The per-curve tables of the prover orchestration (src/groth16/prove.h): compiled once (not in
 * CUZK_CURVE_GENERIC_SRC), so that every compile, and code compiled once such as the engine,
 * reaches every curve's table. */
#include "groth16/curve_dispatch.h"
#include "groth16/prove.h"

const groth16_curve *groth16_curve_get(cuzk_curve c) {
    switch (c) {
    case CUZK_CURVE_BLS12_381: return &groth16_curve_table;
    case CUZK_CURVE_BN254: return &bn254_groth16_curve_table;
    default: return NULL;
    }
}
