/* Compile test (ctest curve_types, tests/compile/check.cmake): each curve's structs are distinct C
 * types, so curve-generic code instantiated for one curve cannot be handed another curve's key.
 *
 * Built twice with the same flags: as it is (the positive control: BLS12-381 handles given to the
 * BLS12-381 functions; it must build, so the test cannot pass because the file is broken), and
 * with -DCUZK_GIVE_BN254 (the same calls given BN254 handles; it must NOT build, with the
 * compiler naming incompatible pointer types). Never linked. */
#include "formats/snarkjs.h"
#include "groth16/pk.h"
#include "groth16/prove.h"

#ifdef CUZK_GIVE_BN254
typedef bn254_groth16_pk given_pk;
typedef bn254_zkey given_zkey;
#else
typedef groth16_pk given_pk;
typedef zkey given_zkey;
#endif

/* a key handle where a BLS12-381 one is expected */
const groth16_key *key_view(const given_pk *pk) { return groth16_pk_key(pk); }

/* its key to the BLS12-381 prover */
cuzk_status make_prover(groth16_prover **out, const given_pk *pk, cuzk_error *err) {
    return groth16_prover_create(out, &pk->key, &groth16_backend_cpu_ops, NULL, err);
}

/* a zkey to the BLS12-381 loader */
cuzk_status load(given_zkey *z, const char *path, cuzk_error *err) { return zkey_load(z, path, false, err); }
