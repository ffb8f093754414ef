/* Poseidon as Filecoin uses it (neptune 11, Strength::Standard, BLS12-381 Fr): width t = arity + 1,
 * R_F = 8 full rounds, R_P = 55 / 56 / 57 / 57 partial rounds for arity 2 / 4 / 8 / 11, S-box x^5,
 * domain tag 2^arity - 1 in state[0], hash = state[1] after the permutation.
 *
 * Constants are derived here, not stored: round constants from the Grain LFSR (Poseidon paper,
 * appendix F; neptune round_constants.rs), the Cauchy MDS matrix M[i][j] = 1 / (i + t + j), and
 * neptune's optimised form (preprocessing.rs, mds.rs): compressed round constants, the
 * pre-sparse matrix and the sparse matrices (w_hat, v_rest) of the partial rounds. The circuit
 * (neptune circuit.rs, the "legacy" circuit that Filecoin's parameters were made for) runs on
 * that optimised form, so its aux values are the optimised form's intermediate values.
 * Cost of one hash: 31 arity + 29 + 4 R_P constraints and as many aux variables.
 * Thread-safety: poseidon_consts_get is thread-safe (built once); the rest is reentrant.
 */
#ifndef CUZK_GADGETS_POSEIDON_H
#define CUZK_GADGETS_POSEIDON_H

#include "gadgets/num.h"

typedef struct poseidon_consts {
    int arity, t, rf, rp;
    fr tag;          /* 2^arity - 1 */
    fr *rc;          /* (rf + rp) t plain round constants */
    fr *mds;         /* t x t, row-major */
    fr *crc;         /* rf t + rp compressed round constants */
    fr *pre_sparse;  /* t x t */
    fr *w_hat;       /* rp x t */
    fr *v_rest;      /* rp x (t - 1) */
} poseidon_consts;

/* The constants of an arity (2, 4, 8 or 11), or NULL for another arity or when out of memory. */
const poseidon_consts *poseidon_consts_get(int arity);

/* out = Poseidon(in[0 .. arity)) with the domain tag `tag` in state[0] (NULL: 2^arity - 1), the
 * value state[1] after the permutation; in: arity Montgomery elements. Returns false (out not
 * written) for an arity other than 2, 4, 8, 11 or when the constants could not be built.
 *
 * poseidon_hash_tag runs neptune's optimised form, the value arithmetic of poseidon_gadget: keys
 * from the compressed round constants, the pre-sparse matrix after the fourth full round and the
 * sparse matrices (w_hat row, v_rest column) in the partial rounds. Fr products per hash:
 * 3 (R_F t + R_P) S-box + R_F t^2 full matrix + R_P (2t - 1) sparse; at arity 8 (t = 9, R_P = 57)
 * 387 + 648 + 969 = 2004. The one to use for host-side hashing (Merkle roots, comm_r).
 *
 * poseidon_hash_plain_tag runs the plain permutation (every round: add the round constants,
 * S-boxes, the full MDS product): 387 + (R_F + R_P) t^2 = 5652 products at arity 8. The
 * independent reference the optimised form and the circuit are tested against.
 * Both give the same value for every input. Reentrant. */
bool poseidon_hash_tag(fr *out, const fr *in, int arity, const fr *tag);
bool poseidon_hash_plain_tag(fr *out, const fr *in, int arity, const fr *tag);
static inline bool poseidon_hash(fr *out, const fr *in, int arity) { return poseidon_hash_tag(out, in, arity, NULL); }
static inline bool poseidon_hash_plain(fr *out, const fr *in, int arity) { return poseidon_hash_plain_tag(out, in, arity, NULL); }

/* The circuit: out = Poseidon(in[0..arity)), allocated. Unsupported arity: the cs fails. */
cs_num poseidon_gadget(cs *cs, const cs_num *in, int arity);
/* The same with the domain tag `tag` in state[0] (NULL: 2^arity - 1), a constant as in neptune's
 * circuit::poseidon_hash (the tag element is Elt::num_from_fr): the constraint shape is the
 * default tag's, only the values differ. SnapDeals' randomness uses HashType::Custom(Arbitrary(1)),
 * tag 1 * 2^40 (storage-proofs-update constants.rs, neptune hash_type.rs). */
cs_num poseidon_gadget_tag(cs *cs, const cs_num *in, int arity, const fr *tag);

#endif
