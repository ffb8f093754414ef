/* A synthetic BLS12-381 circuit with bellperson parameters, for the prover and engine tests
 * (tests/test_engine.c, tests/test_gpu_prove.c): the R1CS of src/r1cs/synthetic.h (PoRep-shaped
 * rows, a witness for any seed from synthetic_witness) and the parameters of a setup with a fixed
 * seed, on the CPU or the GPU (the same bytes either way). */
#ifndef CUZK_TESTS_SYNTH_CIRCUIT_H
#define CUZK_TESTS_SYNTH_CIRCUIT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "groth16/groth16.h"
#include "groth16/setup.h"
#include "r1cs/synthetic.h"

typedef struct {
    synthetic_params sp; /* its shape (synthetic_witness takes it) */
    r1cs cs;
    bellperson_params p;
} synth_circuit;

/* *c = the circuit of `rows` constraints and n_public public inputs made from circuit_seed, with
 * the parameters of groth16_setup_bellperson_on(be, setup_seed, nthreads; 0: all threads). false,
 * with nothing left to free, when either step fails. Free with synth_circuit_free. */
static inline bool synth_circuit_make(synth_circuit *c, uint32_t rows, uint32_t n_public, uint64_t circuit_seed,
                                      uint64_t setup_seed, groth16_backend be, int nthreads) {
    memset(c, 0, sizeof *c);
    synthetic_params_default(&c->sp, rows);
    c->sp.n_public = n_public;
    c->sp.seed = circuit_seed;
    cuzk_error e = {0};
    if (synthetic_r1cs(&c->cs, &c->sp, &e) != CUZK_OK) return false;
    if (groth16_setup_bellperson_on(be, &c->p, &c->cs, &setup_seed, nthreads, &e) == CUZK_OK) return true;
    r1cs_free(&c->cs);
    return false;
}
static inline void synth_circuit_free(synth_circuit *c) {
    bellperson_params_free(&c->p);
    r1cs_free(&c->cs);
}

#endif
