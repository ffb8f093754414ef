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

/* 64-byte aligned, n * elt bytes (rounded up); NULL when n == 0 or on failure (check n). free()
 * frees. */
void *fmt_aligned_array(size_t n, size_t elt);

/* Why a point was rejected. */
typedef enum { PT_OK = 0, PT_NOT_CANONICAL, PT_NOT_ON_CURVE, PT_NOT_IN_SUBGROUP, PT_INFINITY, PT_BAD_FLAGS } pt_fault;
const char *pt_fault_str(pt_fault f);

/* one declaration pass per curve: g1s_check, bn254_g1s_check, ... */
#include "curves/bls12_381/ns.h"
#include "formats/fmt_util_decl.h"
#include "curves/bn254/ns.h"
#include "formats/fmt_util_decl.h"
#include "curves/ns_reset.h"

#endif
