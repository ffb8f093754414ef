/* Per-curve group declarations (X-include template, no include guard): include with CURVE_NS
 * defined (src/ff/ns.h), after the curve's fields (CN(fp), CN(fp2), CN(fr)). Declares the types
 * CN(g1_affine), CN(g1_jacobian), CN(g1_xyzz) over Fp and the same for CN(g2) over Fp2, and
 * EC_DECLARE for both (src/ec/ec.h). Defined by src/ec/curve_impl.h plus each curve's generator and
 * subgroup check in src/curves/<curve>/g1.c, g2.c.
 */
#include "ec/ec.h"
#include "ff/ns.h"

typedef struct CN(g1_affine) { CN(fp) x, y; } CN(g1_affine);
typedef struct CN(g1_jacobian) { CN(fp) x, y, z; } CN(g1_jacobian);
typedef struct CN(g1_xyzz) { CN(fp) x, y, zz, zzz; } CN(g1_xyzz);

typedef struct CN(g2_affine) { CN(fp2) x, y; } CN(g2_affine);
typedef struct CN(g2_jacobian) { CN(fp2) x, y, z; } CN(g2_jacobian);
typedef struct CN(g2_xyzz) { CN(fp2) x, y, zz, zzz; } CN(g2_xyzz);

EC_DECLARE(CN(g1), CN(fp), CN(fr))
EC_DECLARE(CN(g2), CN(fp2), CN(fr))
