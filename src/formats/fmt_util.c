/* Internal helpers of src/formats (fmt_util.h) that hold no curve type; the per-curve point
 * checks are in fmt_util_impl.h. */
#include "formats/fmt_util.h"

#include <stdlib.h>
#include <sys/mman.h>

void *fmt_aligned_array(size_t n, size_t elt) {
    if (n == 0 || elt == 0) return NULL;
    if (n > SIZE_MAX / elt - ((size_t)2 << 20)) return NULL;
    size_t bytes = (n * elt + 63) & ~(size_t)63;
    /* big arrays (a zkey's point sections): 2 MiB aligned and asked for transparent huge pages,
     * so that first touch takes one fault per 2 MiB instead of per 4 KiB (bench/RESULTS.md
     * section 29: the page faults of the copies were ~5 % of a 2^17 proof) */
    const size_t huge = (size_t)2 << 20;
    if (bytes < 2 * huge) return aligned_alloc(64, bytes);
    size_t rounded = (bytes + huge - 1) & ~(huge - 1);
    void *p = aligned_alloc(huge, rounded);
#ifdef MADV_HUGEPAGE
    if (p) (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return p;
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
