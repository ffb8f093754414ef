/* The radix-2 NTT eight butterflies at a time on AVX-512 IFMA (src/ff/vec52.h), for a field of
 * four 64-bit limbs below 2^255 (BN254 Fr, BLS12-381 Fr). Curve-independent: the field is its
 * modulus; used by the per-curve template src/poly/ntt_impl.h, which keeps the scalar transform
 * as the fallback and as the reference (the two give identical results: tests/test_ntt.c).
 *
 * Layout, in place. ntt52_to_blocks turns the array (uint64_t[4] per element, Montgomery form
 * with R = 2^256, canonical) into blocks of 8 elements, block b = elements 8b .. 8b+7 as 4 limb
 * vectors (limb j of the 8 elements in 64 bytes): a transpose inside each 256 bytes, no copy.
 * A butterfly between elements i and i + 2^s with s >= 3 is then one vertical vector operation
 * on two blocks (the limbs are split into 5 of 52 bits in registers); stages 0-2 pair lanes of
 * one block (permutes). ntt52_from_blocks turns it back. The stages are grouped as the scalar
 * code groups them (src/poly/ntt_impl.h: 2^8-element chunks, then tiles of 8 stages x 16
 * columns), so each pass keeps its tile in cache.
 *
 * Twiddles are R'-form constants (x * 2^260 mod m, see src/ff/vec52.h). No table grows with m
 * (fresh memory costs more than a few products on the machines measured, bench/RESULTS.md
 * section 34): the first group's stages have blocks of their own (255 values); for a later
 * stage a tile's twiddles are built as A_s[u] * (omega^lo0 * V_s[c]) from 2^(s - s0) row factors
 * A_s, 16 column factors V_s and the scalar table's omega^lo0: one vector product per tile row
 * and stage on top of the butterflies.
 *
 * Requirements: ff_vec52_enabled (callers check it at each call), m = 2^log_m with
 * NTT52_MIN_LOG <= log_m, the modulus accepted by ntt52_field_ok. Thread-safety: the tables are
 * read-only after init and may be shared; an array in block layout belongs to one call.
 */
#ifndef CUZK_POLY_NTT52_H
#define CUZK_POLY_NTT52_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"

#define NTT52_MIN_LOG 6 /* the bit-reversed scaling needs 2^3 | 2^(log_m/2) */

typedef struct ntt52_field {
    uint64_t p[4];  /* the modulus, little-endian limbs */
    uint64_t inv64; /* -p^-1 mod 2^64 */
} ntt52_field;

/* One direction's twiddles for a domain of size 2^log_m (owned blk, a few KiB) and the scalar
 * table tw[j] = omega^j, j < 2^(log_m-1) (borrowed: it must outlive the tables). */
typedef struct ntt52_twiddles {
    uint64_t *blk;
    const uint64_t (*tw)[4];
    int log_m;
} ntt52_twiddles;

/* The factors of a bit-reversed scaling a[p] *= lo[bitrev(p_lo)] * hi[bitrev(p_hi)]
 * (src/poly/ntt_impl.h brscale), R'-form: lo in blocks ordered for consecutive p, hi as one
 * 5-limb entry per p_hi. Owned. */
typedef struct ntt52_scale {
    uint64_t *lo, *hi;
    int la, lb;
} ntt52_scale;

/* f for the modulus p (4 limbs): copies p and computes inv64 */
void ntt52_field_init(ntt52_field *f, const uint64_t p[4]);

/* true when the 8-lane code can serve this modulus (odd, < 2^255) on this CPU right now */
bool ntt52_field_ok(const ntt52_field *f);

/* Tables of one direction from the scalar table tw[j] = omega^j, j < 2^(log_m-1) (Montgomery
 * form, R = 2^256; kept by pointer). CUZK_OK, CUZK_ERR_ARG (log_m < NTT52_MIN_LOG), CUZK_ERR_NOMEM. */
cuzk_status ntt52_twiddles_init(ntt52_twiddles *t, const uint64_t (*tw)[4], int log_m, const ntt52_field *f);
void ntt52_twiddles_free(ntt52_twiddles *t);

/* Factors from the scalar tables lo_tab (2^la entries) and hi_tab (2^lb entries), la >= 3.
 * CUZK_OK, CUZK_ERR_ARG, CUZK_ERR_NOMEM. */
cuzk_status ntt52_scale_init(ntt52_scale *s, const uint64_t (*lo_tab)[4], const uint64_t (*hi_tab)[4], int la,
                             int lb, const ntt52_field *f);
void ntt52_scale_free(ntt52_scale *s);

/* a (m elements, uint64_t[4] each, m a multiple of 8) -> block layout, and back; in place. In
 * block layout the values are lazy, in [0, 2p) (src/ff/vec52.h); from_blocks makes them canonical. */
void ntt52_to_blocks(uint64_t (*a)[4], size_t m, int nthreads);
void ntt52_from_blocks(uint64_t (*a)[4], size_t m, const ntt52_field *f, int nthreads);

/* All log_m stages on an array in block layout, no bit reversal: dif = 0 Cooley-Tukey
 * (bit-reversed -> natural), dif = 1 Gentleman-Sande (natural -> bit-reversed), as ntt_core of
 * src/poly/ntt_impl.h. */
void ntt52_core(uint64_t (*a)[4], const ntt52_twiddles *t, const ntt52_field *f, int dif, int nthreads);

/* The H step's pointwise products on element arrays (element order, canonical in and out),
 * m a multiple of 8: op 1: c = a * b; op 0: a = a * b - c. */
void ntt52_pointwise(uint64_t (*a)[4], const uint64_t (*b)[4], uint64_t (*c)[4], size_t m, int op,
                     const ntt52_field *f, int nthreads);

/* a[p] *= the factor of p (see ntt52_scale), 2^(la+lb) elements in block layout. */
void ntt52_brscale(uint64_t (*a)[4], const ntt52_scale *s, const ntt52_field *f, int nthreads);

#endif
