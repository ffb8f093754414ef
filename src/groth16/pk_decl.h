/* The proving key of one curve (groth16/pk.h): a declaration template, included once per curve by
 * groth16/pk.h with the curve's name space set (src/curves/<curve>/ns.h); every curve-dependent
 * name is CN(name). No include guard. */
typedef struct CN(groth16_pk) {
    struct cuzk_pk h;       /* first: the public handle (refs, curve = CURVE_ID) */
    CN(groth16_key) key;        /* views into the fields below, or into an owner's data */
    CN(zkey) z;                 /* SNARKJS: owned */
#if CURVE_BELLPERSON
    bellperson_params p;    /* BELLPERSON: owned (loaded keys; zeroed for wrapped ones) */
    struct groth16_gpu_srs *gpu_srs; /* optional: the key's G1 queries already resident on one device
                                        (the owner's; engine circuits made from the key borrow it) */
#endif
    CN(r1cs) cs;                /* owned (zeroed for wrapped keys: their key.cs is the owner's) */
    int has_cs;             /* key.cs is set: the circuit is held */
    uint64_t host_bytes;
    /* keys over borrowed data (groth16_pk_wrap_bellperson): owner_free(owner) at the last release */
    void (*owner_free)(void *owner);
    void *owner;
} CN(groth16_pk);

/* The key behind a public handle when it is of this curve, else NULL (also for NULL). */
static inline CN(groth16_pk) *CN(groth16_pk_of)(cuzk_pk *pk) {
    return pk && pk->curve == CURVE_ID ? (CN(groth16_pk) *)pk : NULL;
}
static inline const CN(groth16_pk) *CN(groth16_pk_of_const)(const cuzk_pk *pk) {
    return pk && pk->curve == CURVE_ID ? (const CN(groth16_pk) *)pk : NULL;
}
/* The key's view (valid while pk lives). NULL for NULL. */
static inline const CN(groth16_key) *CN(groth16_pk_key)(const CN(groth16_pk) *pk) { return pk ? &pk->key : NULL; }

#if CURVE_BELLPERSON
/* A BLS12-381 bellperson key over borrowed views: cs and p (and gpu_srs, optional) must stay
 * valid and unchanged until the key's last release, which calls owner_free(owner) (owner_free may
 * be NULL). The counts of p must fit cs (CUZK_ERR_MISMATCH as cuzk_pk_load_params says otherwise;
 * owner_free is then not called: the caller still owns everything). host_bytes: what the owner
 * holds for it. *out has one reference. Errors also CUZK_ERR_ARG, CUZK_ERR_NOMEM. */
cuzk_status groth16_pk_wrap_bellperson(cuzk_pk **out, const CN(r1cs) *cs, const bellperson_params *p,
                                       struct groth16_gpu_srs *gpu_srs, uint64_t host_bytes, void (*owner_free)(void *),
                                       void *owner, cuzk_error *err);

/* A BLS12-381 bellperson key from the .params file at params_path for the circuit *cs (made in
 * memory, e.g. a recorded PoSt circuit): *cs is moved into the key (zeroed here, freed on
 * failure). Checks and errors as cuzk_pk_load_params (opts->expect_n_vars, point checks,
 * CUZK_ERR_MISMATCH for parameters of another circuit). */
cuzk_status groth16_pk_load_params_cs(cuzk_pk **out, const char *params_path, CN(r1cs) *cs, const cuzk_pk_load_opts *opts,
                                      cuzk_error *err);

/* cuzk_pk_load_params / cuzk_pk_load_params_mem (include/cuzk/prover.h): the files by path or
 * (params, r1cs_img) in memory. */
cuzk_status groth16_pk_load_params(cuzk_pk **out, const char *params_path, const char *r1cs_path, const uint8_t *params,
                                   size_t params_len, const uint8_t *r1cs_img, size_t r1cs_len,
                                   const cuzk_pk_load_opts *opts, cuzk_error *err);
/* cuzk_vk_load_bellperson */
cuzk_status groth16_vk_load_bellperson(cuzk_vk **out, const uint8_t *bytes, size_t len, cuzk_error *err);
#endif
