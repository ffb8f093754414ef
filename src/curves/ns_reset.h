/* Ends the per-curve declaration passes of a header (src/curves/README.md): undefines the name
 * space of the last pass and, in an instantiation unit (one that defined CURVE_INSTANCE_<curve>
 * before its first include), restores that unit's curve, so that a header included in the middle
 * of an instantiation leaves the unit's name space as it found it. No include guard.
 * Adding a curve: one more branch here. */
#include "curves/ns_undef.h"
#if defined(CURVE_INSTANCE_BN254)
#include "curves/bn254/ns.h"
#elif defined(CURVE_INSTANCE_BLS12_381)
#include "curves/bls12_381/ns.h"
#endif
