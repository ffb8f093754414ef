/* Internal helpers of src/formats (fmt_util.h) that hold no curve type; the per-curve point
 * checks are in fmt_util_impl.h. */
#include "formats/fmt_util.h"

#include <stdlib.h>

void *fmt_aligned_array(size_t n, size_t elt) {
    if (n == 0 || elt == 0) return NULL;
    if (n > SIZE_MAX / elt - 64) return NULL;
    size_t bytes = (n * elt + 63) & ~(size_t)63;
    /* no MADV_HUGEPAGE here: with the kernel's defrag=madvise a huge-page fault compacts memory
     * first, and on this shared machine that made the zkey load 2x slower (bench/RESULTS.md
     * section 31) */
    return aligned_alloc(64, bytes);
}

const char *pt_fault_str(pt_fault f) {
    switch (f) {
    case PT_OK: return "ok";
    case PT_NOT_CANONICAL: return "coordinate not canonical (>= p)";
    case PT_NOT_ON_CURVE: return "not on the curve";
    case PT_NOT_IN_SUBGROUP: return "not in the prime-order subgroup";
    case PT_INFINITY: return "point at infinity not allowed";
    case PT_BAD_FLAGS: return "bad flag bits (compressed flag or a malformed infinity)";
    }
    return "?";
}
