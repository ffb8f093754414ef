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
    groth16_key key;        /* views into the fields below, or into an owner's data */
    zkey z;                 /* SNARKJS: owned */
    bellperson_params p;    /* BELLPERSON: owned (loaded keys; zeroed for wrapped ones) */
    r1cs cs;                /* owned (zeroed for wrapped keys: their key.cs is the owner's) */
    int has_cs;             /* key.cs is set: the circuit is held */
    uint64_t host_bytes;
    /* keys over borrowed data (groth16_pk_wrap_bellperson): owner_free(owner) at the last release */
    void (*owner_free)(void *owner);
    void *owner;
    struct groth16_gpu_srs *gpu_srs; /* optional: the key's G1 queries already resident on one device
                                        (the owner's; engine circuits made from the key borrow it) */
};

/* The key's view (valid while pk lives). NULL for NULL. */
static inline const groth16_key *groth16_pk_key(const cuzk_pk *pk) { return pk ? &pk->key : NULL; }

/* A BLS12-381 bellperson key over borrowed views: cs and p (and gpu_srs, optional) must stay
 * valid and unchanged until the key's last release, which calls owner_free(owner) (owner_free may
 * be NULL). The counts of p must fit cs (CUZK_ERR_MISMATCH as cuzk_pk_load_params says otherwise;
 * owner_free is then not called: the caller still owns everything). host_bytes: what the owner
 * holds for it. *out has one reference. Errors also CUZK_ERR_ARG, CUZK_ERR_NOMEM. */
cuzk_status groth16_pk_wrap_bellperson(cuzk_pk **out, const r1cs *cs, const bellperson_params *p,
                                       struct groth16_gpu_srs *gpu_srs, uint64_t host_bytes, void (*owner_free)(void *),
                                       void *owner, cuzk_error *err);

/* A BLS12-381 bellperson key from the .params file at params_path for the circuit *cs (made in
 * memory, e.g. a recorded PoSt circuit): *cs is moved into the key (zeroed here, freed on
 * failure). Checks and errors as cuzk_pk_load_params (opts->expect_n_vars, point checks,
 * CUZK_ERR_MISMATCH for parameters of another circuit). Not in a BN254-bound build. */
cuzk_status groth16_pk_load_params_cs(cuzk_pk **out, const char *params_path, r1cs *cs, const cuzk_pk_load_opts *opts,
                                      cuzk_error *err);

#endif
