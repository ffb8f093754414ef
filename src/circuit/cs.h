/* The constraint-system builder: one gadget description, several modes (bellpepper semantics).
 *
 * Variables follow bellpepper/bellperson: input 0 is ONE, then inputs and aux (private)
 * variables are numbered separately, each in allocation order, interleaved with constraints as
 * the gadgets run. A cs_var encodes input i as i and aux j as CS_AUX | j. Linear combinations
 * (cs_lc) merge repeated variables (coefficients added, a zero sum is kept as a term, as
 * bellpepper's Indexer does) and are kept sorted: inputs by index, then aux by index.
 *
 * Modes (cs.flags, any combination):
 *   CS_MATRICES  record the constraints: cs_finish_r1cs gives the R1CS in the engine's CSR form
 *                (wire 0 = ONE, then the other inputs, then aux; n_public = inputs - 1). The
 *                prover appends bellperson's one-row-per-input (A = input_i) itself.
 *   CS_DENSITY   count the A/B densities (aux in A, aux in B, inputs in B) without storing rows,
 *                so a 125M-constraint circuit can be measured in a few hundred MB.
 *   CS_WITNESS   store every variable's value (Fr, Montgomery).
 * With neither CS_MATRICES nor CS_DENSITY the builder is "witness-only": linear combinations are
 * never built (every cs_lc_* call returns at once) and cs_enforce only counts.
 * CS_DENSITY without CS_MATRICES tracks which variables each linear combination holds but not
 * their coefficients (no field arithmetic: ~5x faster), so a term whose coefficients cancel to
 * exactly 0 would still count as dense; the counting model makes the same assumption. With
 * CS_MATRICES the coefficients are exact and a zero term is not dense.
 *
 * Errors are sticky: the first failure (out of memory, a witness slice too small) is kept in
 * cs.status with its message in cs.err; later calls do nothing. Check it after synthesis.
 * Thread-safety: one cs per thread. Several witness-only views (cs_init_view) may fill disjoint
 * slices of one witness vector from different threads.
 */
#ifndef CUZK_CIRCUIT_CS_H
#define CUZK_CIRCUIT_CS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "curves/bls12_381/curve.h"
#include "r1cs/r1cs.h"

typedef uint32_t cs_var;
#define CS_AUX 0x80000000u
#define CS_ONE ((cs_var)0)
#define CS_MAX_VARS 0x7fffffffu

typedef struct cs_term { cs_var var; uint32_t pad_; fr coef; } cs_term;
typedef struct cs_lc { cs_term *t; uint32_t n, cap; } cs_lc;

enum { CS_MATRICES = 1u, CS_DENSITY = 2u, CS_WITNESS = 4u };

/* A growable bitmap (one bit per index). */
typedef struct cs_bits { uint64_t *w; uint64_t n_words; } cs_bits;

typedef struct cs {
    unsigned flags;
    bool lc_on;                  /* CS_MATRICES or CS_DENSITY */
    bool coef_on;                /* CS_MATRICES: coefficients computed */
    cuzk_status status;          /* sticky first error */
    cuzk_error err;
    uint64_t n_inputs;           /* next input index (ONE included) */
    uint64_t n_aux;              /* next aux index */
    uint64_t n_constraints;
    /* witness storage (CS_WITNESS): values of inputs [in_first, in_end) and aux [aux_first, aux_end) */
    fr *in_w, *aux_w;
    uint64_t in_first, in_end, aux_first, aux_end;
    bool own_w;                  /* grown by the builder (cs_init) or a borrowed slice (cs_init_view) */
    csr_builder mat[3];          /* CS_MATRICES: A, B, C with encoded columns */
    cs_bits a_aux, b_aux, b_in;  /* CS_DENSITY */
    cs_lc tmp[4];                /* scratch for gadgets: cs_tmp */
    cs_term *merge;              /* scratch for cs_lc_add_lc */
    uint32_t merge_cap;
    fr pow2[256];                /* 2^i, Montgomery */
    fr one, neg_one, two;
} cs;

/* A new builder with the given flags; allocates input 0 = ONE. Returns CUZK_ERR_NOMEM/ARG. */
cuzk_status cs_init(cs *cs, unsigned flags);
/* A witness-only builder filling a slice: its first input is in_first, first aux aux_first; the
 * values go to in_w[i - in_first] for in_first <= i < in_end and aux_w[j - aux_first] likewise
 * (borrowed arrays). Allocating past a slice's end is an error (CUZK_ERR_MISMATCH). ONE is not
 * allocated (a view continues a circuit). */
cuzk_status cs_init_view(cs *cs, fr *in_w, uint64_t in_first, uint64_t in_end, fr *aux_w, uint64_t aux_first,
                         uint64_t aux_end);
void cs_free(cs *cs);

/* ---- recording a circuit in parts, on several threads ----
 * A circuit made of parts whose variable counts are known in advance (the sectors of a PoSt
 * circuit: every sector allocates the same numbers of inputs and aux) can be recorded part by
 * part on different threads: each part gets a builder from cs_init_part that numbers its
 * variables from where a one-thread recording would be at the part's start, so its constraints
 * name the same (encoded) variables as they would there. cs_take_part moves a part's matrices
 * out; cs_join_parts concatenates them in part order into the R1CS a one-thread recording gives
 * (same rows, columns, coefficient tables: byte for byte). */

/* A recording builder continuing a circuit at input first_input and aux first_aux (ONE is not
 * allocated: it is the circuit's input 0). flags: CS_MATRICES and/or CS_DENSITY (not
 * CS_WITNESS). rows_hint and nnz_hint[3] (may be 0 / NULL) size the matrices' arrays (exact
 * hints: no reallocation). Density bitmaps are indexed by the circuit's variable numbers.
 * Errors: CUZK_ERR_ARG (flags), CUZK_ERR_NOMEM; sticky in cs like every builder error. */
cuzk_status cs_init_part(cs *cs, unsigned flags, uint64_t first_input, uint64_t first_aux, uint32_t rows_hint,
                         const uint64_t nnz_hint[3]);

/* One recorded part: its A, B, C rows with encoded columns (input i as i, aux j as CS_AUX | j),
 * and where its numbering ended. Arrays owned as r1cs matrices are (cs_part_free). */
typedef struct cs_part {
    csr_matrix m[3];
    uint64_t inputs_end, aux_end, n_constraints;
} cs_part;
/* Moves the matrices of a cs_init_part builder (CS_MATRICES) into *out. Errors: the sticky
 * status, CUZK_ERR_ARG (not recording matrices). */
cuzk_status cs_take_part(cs *cs, cs_part *out);
void cs_part_free(cs_part *p);
/* The R1CS of a circuit with n_inputs inputs (ONE included) and n_aux aux from its parts in
 * order: rows concatenated, coefficient tables merged in order of first appearance, columns
 * decoded (aux j -> wire n_inputs + j); n_public = n_inputs - 1. Copies run on nthreads threads
 * (<= 0: all CPUs). Each part's arrays are freed as soon as they are copied (so the peak is the
 * parts plus one joined matrix), on success and on error. Errors: CUZK_ERR_ARG (a column past
 * n_inputs / n_aux), CUZK_ERR_UNSUPPORTED (more than 2^32 - 2 rows or variables),
 * CUZK_ERR_NOMEM; *out is zeroed on error. */
cuzk_status cs_join_parts(r1cs *out, cs_part *parts, size_t n_parts, uint64_t n_inputs, uint64_t n_aux, int nthreads,
                          cuzk_error *err);

/* Fails the builder (first error wins). Returns the sticky status. */
cuzk_status cs_fail(cs *cs, cuzk_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

cs_var cs_alloc(cs *cs, const fr *value);
cs_var cs_alloc_input(cs *cs, const fr *value);
/* One constraint <a,w> * <b,w> = <c,w>. */
void cs_enforce(cs *cs, const cs_lc *a, const cs_lc *b, const cs_lc *c);

/* The value of a variable (CS_WITNESS only; zero otherwise or when outside the view). */
void cs_value(const cs *cs, fr *out, cs_var v);

/* ---- linear combinations (no-ops unless cs->lc_on) ---- */
static inline cs_lc *cs_tmp(cs *cs, int i) { cs->tmp[i].n = 0; return &cs->tmp[i]; }
void cs_lc_clear(cs_lc *lc);
void cs_lc_free(cs_lc *lc);
/* lc += coef * var (coef NULL: 1). */
void cs_lc_add(cs *cs, cs_lc *lc, cs_var var, const fr *coef);
void cs_lc_sub(cs *cs, cs_lc *lc, cs_var var);   /* lc -= var */
/* dst += coef * src (coef NULL: 1). */
void cs_lc_add_lc(cs *cs, cs_lc *dst, const cs_lc *src, const fr *coef);
void cs_lc_copy(cs *cs, cs_lc *dst, const cs_lc *src);
void cs_lc_scale(cs *cs, cs_lc *lc, const fr *coef);

/* ---- results ---- */
/* The recorded R1CS (CS_MATRICES): columns remapped so aux j is wire n_inputs + j. Moves the
 * matrices out (the builder keeps counting nothing further). Errors: the sticky status,
 * CUZK_ERR_ARG (not recording). */
cuzk_status cs_finish_r1cs(cs *cs, r1cs *out);
/* The full witness [inputs | aux] (CS_WITNESS, a builder from cs_init): a new malloc'd array of
 * n_inputs + n_aux values (caller frees). */
cuzk_status cs_witness(const cs *cs, fr **out, size_t *n_out);
/* Population counts of the density bitmaps (CS_DENSITY). */
uint64_t cs_bits_count(const cs_bits *b);

#endif
