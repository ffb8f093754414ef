/* Curve-independent parts of src/ec/ec.h. */
#include "ec/ec.h"

const char *ec_decode_result_str(ec_decode_result r) {
    switch (r) {
    case EC_DECODE_OK: return "ok";
    case EC_DECODE_BAD_FLAGS: return "bad flag bits (compression, infinity or sort flag)";
    case EC_DECODE_NOT_CANONICAL: return "coordinate not canonical (>= p)";
    case EC_DECODE_NOT_ON_CURVE: return "point not on the curve";
    case EC_DECODE_NOT_IN_SUBGROUP: return "point not in the prime-order subgroup";
    }
    return "unknown ec_decode_result";
}
