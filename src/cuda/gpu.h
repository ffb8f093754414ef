/* The one boundary between host C code and the CUDA backend (the .cu files of src/cuda).
 *
 * Plain C11, includable from C and C++; nothing CUDA-specific crosses it. Every function returns a
 * cuzk_status and, when `err` is not NULL, fills the caller-owned cuzk_error on failure
 * (err->cuda_error holds the cudaError_t). Status classes:
 *   CUZK_ERR_ARG           NULL pointer or size out of range (nothing was done)
 *   CUZK_ERR_UNSUPPORTED   no CUDA device (or no usable driver) on this machine
 *   CUZK_ERR_NOMEM_DEVICE  a device allocation failed (cudaErrorMemoryAllocation)
 *   CUZK_ERR_DEVICE        any other CUDA failure; after a sticky fault (illegal address, launch
 *                          failure) the CUDA context of this process is dead
 * On failure, outputs are unspecified.
 *
 * Data layout: exactly the host structs of src/ff/fields.h, src/ec/ec.h, src/msm/msm.h: an Fp
 * element is 6 x uint64 little-endian limbs in Montgomery form (R = 2^384), Fr is 4 x uint64
 * (R = 2^256); affine G1 (x, y) with (0, 0) = infinity; Jacobian (X, Y, Z) with Z = 0 = infinity.
 * All pointers here are HOST pointers (pageable is fine); each call copies in, computes on device 0
 * (or the current device), copies out, and frees its device memory before returning. Calls are
 * synchronous.
 *
 * Debugging: environment CUZK_CUDA_SYNC=1 synchronizes after every kernel launch, so that a fault
 * is reported at the launch that caused it.
 *
 * Thread-safety: functions may be called from several threads; they use the current CUDA device of
 * the calling thread and the default stream of that thread's context (calls serialize on the GPU).
 */
#ifndef CUZK_CUDA_GPU_H
#define CUZK_CUDA_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Layout-compatible with the host types of the same tags (src/ff, src/ec, src/msm). */
struct fr;
struct g1_affine;
struct g1_jacobian;
struct scalar256;

/* *count = number of CUDA devices (0 when there is no driver or no device: then CUZK_OK). */
cuzk_status gpu_device_count(int *count, cuzk_error *err);

/* One line describing device `dev` ("NVIDIA H200, sm_90, 132 SMs, 139.8 GiB, 1980 MHz, driver
 * 13000, runtime 13000") into buf (cap bytes, NUL-terminated, truncated to fit). */
cuzk_status gpu_device_info(int dev, char *buf, size_t cap, cuzk_error *err);

/* ---- element-wise field arithmetic (for tests of the device arithmetic) ------------------- */
typedef enum { GPU_FIELD_FP = 0, GPU_FIELD_FR = 1 } gpu_field;
typedef enum { GPU_OP_ADD = 0, GPU_OP_SUB = 1, GPU_OP_MUL = 2, GPU_OP_SQR = 3, GPU_OP_NEG = 4 } gpu_field_op;

/* out[i] = a[i] op b[i] for i < n, Montgomery form (b unused for SQR and NEG, may be NULL).
 * out, a, b: n elements of 6 (Fp) or 4 (Fr) uint64 limbs each, inputs < modulus; out may alias. */
cuzk_status gpu_field_op_array(gpu_field field, gpu_field_op op, uint64_t *out, const uint64_t *a,
                               const uint64_t *b, size_t n, cuzk_error *err);

/* ---- NTT over Fr ------------------------------------------------------------------------ */
/* Root conventions; the values equal src/poly/ntt.h's ntt_roots. omega_m = root^(2^(32-log_m))
 * with root = 7^((r-1)/2^32) (bellperson/blst) or 5^((r-1)/2^32) (snarkjs). */
typedef enum { GPU_ROOTS_BELLPERSON = 0, GPU_ROOTS_SNARKJS = 1 } gpu_roots;
typedef enum { GPU_NTT_FORWARD = 0, GPU_NTT_INVERSE = 1 } gpu_ntt_dir;

/* In place on `batch` vectors of m = 2^log_m Fr elements each (Montgomery form, natural order,
 * vector v at data + v*m), 1 <= log_m <= 28:
 *   FORWARD: a_j <- sum_i a_i * shift^i * omega^(ij)          (shift = 1 when shift == NULL)
 *   INVERSE: a_i <- shift^(-i) * (1/m) * sum_j a_j * omega^(-ij)
 * so that INVERSE with the same shift undoes FORWARD (coset NTT: evaluations at shift*omega^j;
 * ntt_coset_forward / ntt_coset_inverse of src/poly/ntt.h). shift: one Fr, Montgomery, nonzero.
 * Algorithm: radix-2 Cooley-Tukey decimation in time; the bit-reversal and the first 10 stages
 * in shared memory, later stages one global pass each. */
cuzk_status gpu_ntt(struct fr *data, size_t batch, int log_m, gpu_ntt_dir dir, gpu_roots roots,
                    const struct fr *shift, cuzk_error *err);

/* ---- MSM over G1 -------------------------------------------------------------------------- */
/* *out = sum_{i<n} scalars[i] * bases[i] (Jacobian, Montgomery coordinates; Z = 0 if infinity).
 * bases: n affine points, (0,0) = infinity allowed, assumed on the curve. scalars: n canonical
 * little-endian integers < 2^255 (every x < r qualifies; Montgomery scalars must be converted
 * first). n = 0 gives infinity.
 * Algorithm: Pippenger with signed c-bit window digits (|digit| <= 2^(c-1), buckets 1..2^(c-1)
 * per window), (bucket, point) pairs sorted by CUB DeviceRadixSort, buckets accumulated in XYZZ
 * with mixed additions (large buckets split into chunks, chunks summed after), per-window
 * bucket reduction by segmented running sums, windows combined on the GPU. Digit 0 (and scalar
 * 0) contributes nothing and is skipped. */
cuzk_status gpu_g1_msm(struct g1_jacobian *out, const struct g1_affine *bases,
                       const struct scalar256 *scalars, size_t n, cuzk_error *err);

/* ---- benchmarks (device-resident data, CUDA-event timed) ------------------------------------ */
/* MSM of n points: bases are random curve points (random x, y = sqrt(x^3 + 4); not necessarily in
 * the prime-order subgroup, which does not change the cost), scalars uniform below 2^254, both
 * generated on the device and kept there. Runs `warmup` untimed then `reps` timed MSMs; writes
 * each time in milliseconds to times_ms[reps] (not sorted). window_bits <= 0: default for n. */
cuzk_status gpu_bench_g1_msm(size_t n, int window_bits, int warmup, int reps, float *times_ms,
                             cuzk_error *err);
/* NTT of `batch` vectors of 2^log_m random elements, forward, bellperson roots, data on device. */
cuzk_status gpu_bench_ntt(int log_m, size_t batch, int warmup, int reps, float *times_ms,
                          cuzk_error *err);

/* Default Pippenger window (bits) for n points. */
int gpu_msm_window_bits(size_t n);

/* ---- H on the device (issue 3 item 2) ------------------------------------------------------ */
/* The Groth16 H step of src/poly/ntt.h on device-resident vectors, enqueued on `stream` (a
 * cudaStream_t passed as void *, NULL = the legacy default stream); the call returns once the
 * work is enqueued: the caller synchronizes the stream before reading d_a or reusing d_b/d_c.
 * d_a, d_b, d_c: DEVICE arrays of m = 2^log_m Fr each (4 x uint64, Montgomery), 1 <= log_m <= 28,
 * distinct, not overlapping.
 *   bellperson: the row evaluations a, b, c exactly as h_bellperson takes them; on completion d_a
 *     holds what h_bellperson leaves in a (the m H-MSM scalars h_i, Montgomery). Steps fused on
 *     the device: iNTT(a, b, c) -> coset NTT (g = 7) -> (a*b - c) * (g^m - 1)^-1 -> coset iNTT
 *     (roots 7^t).
 *   snarkjs: a, b in (c is scratch, its input ignored); on completion d_a holds what h_snarkjs
 *     leaves in a: A(g w^j) B(g w^j) - C(g w^j), C = A*B on the rows, g = omega_2m (roots 5^t).
 * d_b and d_c are clobbered in both. Device scratch: none beyond the three vectors (stream-ordered
 * cudaMallocAsync of a few KiB for constants, freed on the stream).
 * Twiddle tables are built on first use (synchronously) and cached per (device, log_m, roots) for
 * the process lifetime; gpu_h_cache_bytes says how many bytes they hold.
 * Returns CUZK_OK, CUZK_ERR_ARG (NULL pointer, log_m out of range), CUZK_ERR_NOMEM_DEVICE,
 * CUZK_ERR_DEVICE. Thread-safety: may be called from several threads (the cache is locked). */
cuzk_status gpu_h_bellperson_async(void *stream, struct fr *d_a, struct fr *d_b, struct fr *d_c,
                                   int log_m, cuzk_error *err);
cuzk_status gpu_h_snarkjs_async(void *stream, struct fr *d_a, struct fr *d_b, struct fr *d_c,
                                int log_m, cuzk_error *err);
/* Bytes of device memory held by the H twiddle cache of the current device (0 when empty). */
size_t gpu_h_cache_bytes(void);

/* ---- fixed-base batch scalar multiplication (setup, issue 5) -------------------------------- */
/* out[i] = scalars[i] * gen, affine, for i < n: byte-identical to the CPU's g1_mul_fr (g2_mul_fr)
 * followed by g1_jacobian_to_affine (g2_...): Montgomery coordinates, (0, 0) for infinity (scalar
 * 0, or gen = (0, 0) = infinity). gen: one affine point on the curve (not checked). scalars: n Fr,
 * Montgomery, host. out: n affine points, host; may not alias scalars. n = 0 does nothing.
 * Algorithm: fixed-base windows (w = 8: 32 windows of 256 precomputed multiples
 * j * 2^(8k) * gen, built once per call on the device); each thread sums the 32 table entries of
 * its scalar in XYZZ, then Montgomery's batch inversion per block gives affine. Points go through
 * in chunks with host<->device copies overlapped (two streams, pinned staging).
 * Returns CUZK_OK, CUZK_ERR_ARG (NULL with n > 0), CUZK_ERR_NOMEM (pinned host staging),
 * CUZK_ERR_NOMEM_DEVICE, CUZK_ERR_DEVICE. Synchronous; thread-safe (own streams per call). */
struct g2_affine;
cuzk_status gpu_g1_fixed_base(struct g1_affine *out, const struct g1_affine *gen,
                              const struct fr *scalars, size_t n, cuzk_error *err);
cuzk_status gpu_g2_fixed_base(struct g2_affine *out, const struct g2_affine *gen,
                              const struct fr *scalars, size_t n, cuzk_error *err);

#ifdef __cplusplus
}
#endif
#endif
