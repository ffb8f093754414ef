/* src/formats for BN254: the snarkjs .zkey and .wtns readers and writers, the JSON files and point
 * checks, instantiated from the layer's curve-generic templates (*_impl.h; src/curves/curve.h). */
#define CURVE_INSTANCE_BN254 1
#include "curves/ns_reset.h"

#include "formats/fmt_util_impl.h"
#include "formats/zkey_impl.h"
#include "formats/zkey_write_impl.h"
#include "formats/wtns_impl.h"
#include "formats/json_impl.h"
