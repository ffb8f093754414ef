/* Internal helpers of src/formats: aligned arrays and parallel point validation. */
#ifndef CUZK_FORMATS_FMT_UTIL_H
#define CUZK_FORMATS_FMT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "curves/curve.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cuzk formats assume a little-endian host (zkey point bytes are copied as limbs)"
#endif

/* 64-byte aligned, n * elt bytes (rounded up); NULL when n == 0 or on failure (check n). */
void *fmt_aligned_array(size_t n, size_t elt);

/* Why a point was rejected. */
typedef enum { PT_OK = 0, PT_NOT_CANONICAL, PT_NOT_ON_CURVE, PT_NOT_IN_SUBGROUP, PT_INFINITY, PT_BAD_FLAGS } pt_fault;
const char *pt_fault_str(pt_fault f);

/* Validates n points in Montgomery affine form (infinity = all zero allowed): coordinates < p,
 * on the curve, and in the subgroup when `subgroup`. Multithreaded. Returns the smallest bad
 * index (and *fault), or n when all are fine. */
size_t g1s_check(const g1_affine *pts, size_t n, bool subgroup, pt_fault *fault);
size_t g2s_check(const g2_affine *pts, size_t n, bool subgroup, pt_fault *fault);

/* Decodes n zcash-uncompressed points from `in` (96 or 192 bytes each) into out, rejecting
 * infinity, checking canonical/on-curve and optionally the subgroup. Multithreaded. Returns the
 * smallest bad index (and *fault) or n. */
size_t g1s_from_uncompressed(g1_affine *out, const uint8_t *in, size_t n, bool subgroup, pt_fault *fault);
size_t g2s_from_uncompressed(g2_affine *out, const uint8_t *in, size_t n, bool subgroup, pt_fault *fault);

#endif
