/* The proving key behind the public cuzk_pk handle (include/cuzk/prover.h): what it owns and the
 * groth16_key view the prover orchestration (src/groth16/prove.h) and the engine use. Not installed. */
#ifndef CUZK_GROTH16_PK_H
#define CUZK_GROTH16_PK_H

#include <stdatomic.h>
#include <stdint.h>

#include "cuzk/prover.h"
#include "groth16/prove.h"

struct cuzk_pk {
    atomic_int refs;
    groth16_key key;        /* views into the fields below */
    zkey z;                 /* SNARKJS: owned */
    bellperson_params p;    /* BELLPERSON: owned */
    r1cs cs;                /* owned when has_cs */
    int has_cs;
    uint64_t host_bytes;
};

/* The key's view (valid while pk lives). NULL for NULL. */
static inline const groth16_key *groth16_pk_key(const cuzk_pk *pk) { return pk ? &pk->key : NULL; }

#endif
