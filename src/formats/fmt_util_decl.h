/* Point validation of one curve (formats/fmt_util.h): a declaration template, included once per
 * curve by formats/fmt_util.h with the curve's name space set (src/curves/<curve>/ns.h); every
 * curve-dependent name is CN(name). No include guard. */
/* Validates n points in Montgomery affine form (infinity = all zero allowed): coordinates < p,
 * on the curve, and in the subgroup when `subgroup`. Multithreaded. Returns the smallest bad
 * index (and *fault), or n when all are fine. */
size_t CN(g1s_check)(const CN(g1_affine) *pts, size_t n, bool subgroup, pt_fault *fault);
size_t CN(g2s_check)(const CN(g2_affine) *pts, size_t n, bool subgroup, pt_fault *fault);
/* The same checks fused with the copy of the n points' bytes (the zkey's in-memory form: the
 * limbs of Montgomery affine coordinates, little-endian; 64 / 128 bytes a point) from src into
 * dst: each thread copies a block and checks it while it is in cache. dst holds the n points
 * when n is returned; after a bad index, the points from it on may be uncopied. */
size_t CN(g1s_copy_check)(CN(g1_affine) *dst, const uint8_t *src, size_t n, bool subgroup, pt_fault *fault);
size_t CN(g2s_copy_check)(CN(g2_affine) *dst, const uint8_t *src, size_t n, bool subgroup, pt_fault *fault);

#if CURVE_BELLPERSON /* the zcash encodings are BLS12-381's */
/* Decodes n zcash-uncompressed points from `in` (96 or 192 bytes each) into out, rejecting
 * infinity, checking canonical/on-curve and optionally the subgroup. Multithreaded. Returns the
 * smallest bad index (and *fault) or n. */
size_t g1s_from_uncompressed(CN(g1_affine) *out, const uint8_t *in, size_t n, bool subgroup, pt_fault *fault);
size_t g2s_from_uncompressed(CN(g2_affine) *out, const uint8_t *in, size_t n, bool subgroup, pt_fault *fault);
#endif
