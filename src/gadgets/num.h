/* AllocatedNum gadgets, packing into inputs, and the Merkle insert/pick gadgets, in bellpepper /
 * storage-proofs order (bellpepper-core gadgets/num.rs, bellpepper gadgets/multipack.rs,
 * storage-proofs-core gadgets/{insertion.rs,constraint.rs}). Values are Fr, Montgomery form.
 */
#ifndef CUZK_GADGETS_NUM_H
#define CUZK_GADGETS_NUM_H

#include "gadgets/boolean.h"

typedef struct cs_num { cs_var var; fr value; } cs_num;

cs_num num_alloc(cs *cs, const fr *value);
/* inputize: a new input x, A = x, B = ONE, C = v. Returns the input. */
cs_num num_inputize(cs *cs, const cs_num *v);
/* constraint::equal: A = a, B = ONE, C = b. */
void num_enforce_equal(cs *cs, const cs_num *a, const cs_num *b);
/* r = a + b: A = a + b, B = ONE, C = r. */
cs_num num_add(cs *cs, const cs_num *a, const cs_num *b);
/* r = a * b: A = a, B = b, C = r. */
cs_num num_mul(cs *cs, const cs_num *a, const cs_num *b);
cs_num num_square(cs *cs, const cs_num *a);
/* Non-strict to_bits_le: 255 allocated bits of the value, then A = 0, B = 0, C = sum 2^i b_i - x. */
void num_to_bits_le(cs *cs, cs_bool out[255], const cs_num *x);
/* multipack::pack_into_inputs: one input per 254 bits: A = sum 2^i bits, B = ONE, C = input. */
void pack_into_inputs(cs *cs, const cs_bool *bits, size_t n_bits);

/* pick: r = cond ? a : b; A = b - a, B = cond, C = b - r. */
cs_num num_pick(cs *cs, cs_bool cond, const cs_num *a, const cs_num *b);
/* insert element into elements (arity - 1 of them) at the position given by bits (log2 arity of
 * them, least significant first): arity 2, 4, 8 with storage-proofs' insert_2/4/8. out: arity. */
void num_insert(cs *cs, cs_num *out, const cs_num *element, const cs_bool *bits, const cs_num *elements, int arity);

#endif
