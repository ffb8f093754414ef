/* Boolean, UInt32 and MultiEq gadgets with bellpepper's constraint order and constant folding
 * (bellpepper-core gadgets/boolean.rs, bellpepper gadgets/uint32.rs and multieq.rs).
 *
 * A cs_bool is a constant, an allocated bit (IS) or its negation (NOT); value is the Boolean's
 * own value (for NOT: the negation of the variable's value). Constant folding depends only on
 * which operands are constants, as in bellpepper. A cs_u32 holds 32 bits, least significant
 * first, and its value. Thread-safety: as the cs they use.
 */
#ifndef CUZK_GADGETS_BOOLEAN_H
#define CUZK_GADGETS_BOOLEAN_H

#include "circuit/cs.h"

enum { BOOL_CONST = 0, BOOL_IS = 1, BOOL_NOT = 2 };
typedef struct cs_bool { uint8_t kind; bool value; cs_var var; } cs_bool;

static inline cs_bool bool_const(bool v) { cs_bool b = {BOOL_CONST, v, 0}; return b; }
static inline cs_bool bool_not(cs_bool b) {
    if (b.kind == BOOL_CONST) return bool_const(!b.value);
    b.kind = b.kind == BOOL_IS ? BOOL_NOT : BOOL_IS;
    b.value = !b.value;
    return b;
}
/* lc += coef * b (coef NULL: 1). */
void bool_lc_add(cs *cs, cs_lc *lc, cs_bool b, const fr *coef);

/* AllocatedBit::alloc: A = ONE - v, B = v, C = 0. */
cs_bool bool_alloc(cs *cs, bool value);
cs_bool bool_xor(cs *cs, cs_bool a, cs_bool b);
cs_bool bool_and(cs *cs, cs_bool a, cs_bool b);
cs_bool bool_sha256_ch(cs *cs, cs_bool a, cs_bool b, cs_bool c);
cs_bool bool_sha256_maj(cs *cs, cs_bool a, cs_bool b, cs_bool c);
/* The allocated-bit forms (a, b allocated, their variables' values given): */
cs_bool bit_xor(cs *cs, cs_var a, bool av, cs_var b, bool bv);
cs_bool bit_and(cs *cs, cs_var a, bool av, cs_var b, bool bv);
cs_bool bit_and_not(cs *cs, cs_var a, bool av, cs_var b, bool bv);
cs_bool bit_nor(cs *cs, cs_var a, bool av, cs_var b, bool bv);

/* ---- MultiEq: batches equalities of small numbers into one row per 254 bits ---- */
typedef struct cs_multieq { cs_lc lhs, rhs; uint32_t bits_used; } cs_multieq;
void multieq_init(cs_multieq *me);
void multieq_enforce_equal(cs *cs, cs_multieq *me, uint32_t num_bits, const cs_lc *lhs, const cs_lc *rhs);
/* Flushes the pending row (bellpepper's Drop) and frees the LCs. */
void multieq_finish(cs *cs, cs_multieq *me);

/* ---- UInt32 ---- */
typedef struct cs_u32 { cs_bool bits[32]; uint32_t value; } cs_u32;
cs_u32 u32_constant(uint32_t v);
/* From 32 Booleans most significant first (UInt32::from_bits_be). */
cs_u32 u32_from_bits_be(const cs_bool *bits);
void u32_to_bits_be(cs_bool *out, const cs_u32 *u);
cs_u32 u32_rotr(const cs_u32 *u, unsigned by);
cs_u32 u32_shr(const cs_u32 *u, unsigned by);
cs_u32 u32_xor(cs *cs, const cs_u32 *a, const cs_u32 *b);
cs_u32 u32_sha256_ch(cs *cs, const cs_u32 *a, const cs_u32 *b, const cs_u32 *c);
cs_u32 u32_sha256_maj(cs *cs, const cs_u32 *a, const cs_u32 *b, const cs_u32 *c);
/* Sum of 2..10 operands mod 2^32; the check goes through me. */
cs_u32 u32_addmany(cs *cs, cs_multieq *me, const cs_u32 *ops, size_t n_ops);

#endif
