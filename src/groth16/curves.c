/* The per-curve tables of the prover orchestration (src/groth16/prove.h): compiled once, so that
 * code compiled once (the engine, the public API's entry points) and every curve's instance reach
 * every curve's table. Adding a curve: its table here. */
#include "groth16/prove.h"

const groth16_curve *groth16_curve_get(cuzk_curve c) {
    switch (c) {
    case CUZK_CURVE_BLS12_381: return &groth16_curve_table;
    case CUZK_CURVE_BN254: return &bn254_groth16_curve_table;
    default: return NULL;
    }
}
