/* The CPU MSM's hot loops eight lanes at a time on AVX-512 IFMA (src/ff/vec52.h), for G1 over a
 * field of four 64-bit limbs below 2^254 (BN254; the lazy [0, 2p) reduction needs the bound).
 * Curve-independent: the field is given by its constants and the group's scalar XYZZ additions;
 * points are the scalar code's (affine x then y, XYZZ x y zz zzz; 4 limbs each, Montgomery form
 * with R = 2^256, canonical). Used by src/msm/msm_impl.h where msm52_usable(f):
 *   msm52_batch_add    the flush of a batch of affine bucket additions (windows of >= 10 bits);
 *   msm52_bucket_sums  a window's running sum over its affine buckets, 8 segments at once;
 *   msm52_xyzz_add8    one point into the XYZZ buckets of 8 windows (windows below 10 bits).
 *
 * msm52_batch_add(bk, bj, bq, den, n) does, for i < n, bk[bj[i]] += bq[i] with
 * den[i] = bq[i].x - bk[bj[i]].x (nonzero, computed by the caller) and distinct bj[i]: the same
 * additions as the scalar flush, with the same affine results bit for bit. The shared inversion
 * is Montgomery's trick over 16 interleaved chains (lanes x two parities), one scalar inversion
 * for the whole batch. Products of two data values go through v52_mul with one operand shifted
 * left by 4 bits: (16 a) b 2^-260 = a b 2^-256, the scalar code's Montgomery product. The other
 * two give the same group elements as the scalar code in other projective coordinates. Tests:
 * tests/test_bn254.c g1_msm_vec52_vs_scalar (MSMs against the scalar code and sum(k) P, with the
 * exceptional lanes exercised), tests/bn254_circuit.c (whole proofs, same bytes).
 *
 * Requirements: msm52_usable(f) (the CPU has IFMA now and the modulus fits), for the batch a
 * scratch of msm52_scratch_bytes(n) bytes. Thread-safety: reentrant; the scratch and the buckets
 * belong to the calling thread.
 */
#ifndef CUZK_MSM_MSM52_H
#define CUZK_MSM_MSM52_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The smallest window for which the MSM uses affine buckets when this batch serves it (the
 * scalar flush's threshold is 13): at 2^13-2^17 points with 2 threads, affine with windows of
 * 10-13 bits took 0.6-0.7x the time of XYZZ buckets (bench/RESULTS.md section 34). */
#define MSM52_AFFINE_MIN_C 10

/* an XYZZ point of the scalar code (src/ec: x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2; infinity ZZ = 0) */
typedef struct msm52_xyzz {
    uint64_t x[4], y[4], zz[4], zzz[4];
} msm52_xyzz;

typedef struct msm52_field {
    const uint64_t *p;   /* the modulus, 4 limbs */
    const uint64_t *r2;  /* R^2 mod p (R = 2^256), for the inversion */
    const uint64_t *one; /* R mod p: 1 in Montgomery form */
    /* the group's scalar XYZZ additions (r may alias p), for the lanes that meet an exception
     * (equal or opposite points); NULL: msm52_bucket_sums declines */
    void (*add)(msm52_xyzz *r, const msm52_xyzz *p, const msm52_xyzz *q);
    void (*add_mixed)(msm52_xyzz *r, const msm52_xyzz *p, const uint64_t q[8]);
} msm52_field;

bool msm52_usable(const msm52_field *f);
size_t msm52_scratch_bytes(size_t n);
void msm52_batch_add(uint64_t (*bk)[8], const uint32_t *bj, const uint64_t (*bq)[8], const uint64_t (*den)[4],
                     size_t n, const msm52_field *f, void *scratch);

/* The window's bucket sum in 8 segments of S = nb / 8 buckets, one per lane: lane l runs the
 * running sum over buckets j in [l S, (l+1) S) with state[j] != 0 (affine bk[j]), from the top:
 * run[l] = sum of those bk[j], sum[l] = sum of (j - l S + 1) bk[j]. The caller combines:
 * sum_j (j+1) bk[j] = sum_l sum[l] + S * sum_l l run[l]. 22 vector products per step where the
 * scalar code pays 2 XYZZ additions per bucket. Same group elements as the scalar running sum
 * (other projective coordinates). false (nothing written) when nb < 64 or nb % 8 != 0 or the
 * scalar additions are not given. */
bool msm52_bucket_sums(msm52_xyzz run[8], msm52_xyzz sum[8], const uint64_t (*bk)[8], const uint8_t *state,
                       size_t nb, const msm52_field *f);

/* One point into the XYZZ buckets of 8 windows (lane l: window l of a group; distinct buckets):
 * *b[l] += (-1)^(bit l of neg) P for the lanes of `active` (bits 0-7), P = (x, y) affine (8
 * limbs, not infinity); the small MSMs' accumulation (windows below MSM52_AFFINE_MIN_C), which
 * the scalar code does one window at a time. Buckets at infinity (ZZ = 0) are set; a bucket
 * equal to +-P goes through the scalar add_mixed (a doubling or infinity). */
void msm52_xyzz_add8(msm52_xyzz *const b[8], unsigned active, unsigned neg, const uint64_t p[8],
                     const msm52_field *f);

#endif
