/* The proving key behind the public cuzk_pk handle (include/cuzk/prover.h): the head every curve's
 * key shares (reference count, curve tag) and, per curve, what the key owns and the groth16_key
 * view the prover orchestration (src/groth16/prove.h) uses. Not installed.
 *
 * A cuzk_pk * is a pointer to the head of one curve's groth16_pk (groth16_pk for BLS12-381,
 * bn254_groth16_pk for BN254: distinct types, src/curves/curve.h). Code compiled once reads the
 * head only and reaches the rest through the curve's table (groth16_curve_get(pk->curve)->pk_key,
 * ...); code of one curve converts with its checked groth16_pk_of / bn254_groth16_pk_of. */
#ifndef CUZK_GROTH16_PK_H
#define CUZK_GROTH16_PK_H

#include <stdatomic.h>
#include <stdint.h>

#include "cuzk/prover.h"
#include "groth16/prove.h"

/* The public handles' heads. Each is the first member of its curve's struct (src/groth16/pk_impl.h
 * for cuzk_prover and cuzk_vk), so a handle converts to and from it. */
struct cuzk_pk {
    atomic_int refs;
    cuzk_curve curve;
};
struct cuzk_prover {
    cuzk_curve curve;
    cuzk_pk *pk;          /* one reference */
    int nthreads;
};
struct cuzk_vk {
    cuzk_curve curve;
};

/* one declaration pass per curve: groth16_pk, bn254_groth16_pk, ... */
#include "curves/bls12_381/ns.h"
#include "groth16/pk_decl.h"
#include "curves/bn254/ns.h"
#include "groth16/pk_decl.h"
#include "curves/ns_reset.h"

#endif
