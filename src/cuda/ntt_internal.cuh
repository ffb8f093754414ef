/* Device-side NTT machinery shared by the .cu files of src/cuda (src/cuda/gpu_ntt.cu implements
 * it): the per-(device, roots, log_m) table cache and the pass executor. Not part of the C
 * boundary.
 *
 * Transforms are radix-2, in one of two orders (no separate bit-reversal pass anywhere):
 *   DIT (Cooley-Tukey): bit-reversed input -> natural output; with `gather` the first pass reads
 *       the natural-order input at bit-reversed positions (natural -> natural, out of place);
 *   DIF (Gentleman-Sande): natural input -> bit-reversed output.
 * Stages are grouped into passes; each pass is one kernel (ntt_pass_kernel) whose blocks load a
 * tile of T = 2^(k+t) elements into shared memory (2^k elements along the pass's k stages, times
 * 2^t neighbouring groups so global accesses come in runs of 2^t * 32 bytes), run the k stages
 * there two at a time (radix-4: 4 elements per thread in registers between 128-bit shared-memory
 * loads and stores; a radix-2 stage when k is odd) and write the tile back: the first pass (stages 0..10) on contiguous tiles of up to 2^11,
 * the remaining log_m - 11 stages in ceil((log_m - 11) / 9) passes of at most 9 stages with t = 2.
 * 2^27: 3 passes (11 + 8 + 8 stages), i.e. 3 reads and 3 writes of the vector.
 * Twiddles: one table tw[j] = omega^j, j < m/2, per (device, roots, log_m); the inverse transform
 * uses omega^-j = -omega^(m/2 - j) (j > 0) from the same table; j = 0 (twiddle 1) skips the product.
 */
#ifndef CUZK_CUDA_NTT_INTERNAL_CUH
#define CUZK_CUDA_NTT_INTERNAL_CUH

#include <string.h>
#include <cuda_runtime.h>

#include "cuda/curves.cuh"
#include "cuzk/cuzk.h"

/* Indices into ntt_tables.d_consts */
enum {
    NTT_C_OMEGA = 0,    /* omega_m */
    NTT_C_OMEGA_INV,    /* omega_m^-1 */
    NTT_C_M_INV,        /* 1/m */
    NTT_C_G,            /* H coset generator: 7 (bellperson roots) or omega_2m (snarkjs roots) */
    NTT_C_G_INV,        /* its inverse */
    NTT_C_ZINV,         /* (g^m - 1)^-1 */
    NTT_C_ONE,
    NTT_C_COUNT
};

/* Cached device tables for one (curve C, device, roots, log_m); never freed (process lifetime).
 * Everything here is a template over the curve type C (src/cuda/curves.cuh). */
template <class C>
struct ntt_tables {
    int dev, roots, log_m;
    uint32_t n_hi;                 /* entries of each hi scale table: max(1, m / 1024) */
    typename C::fr *d_tw;          /* max(1, m/2) twiddles omega^j */
    typename C::fr *d_consts;      /* NTT_C_COUNT constants */
    typename C::fr *d_hscale;      /* coset scales for H: [fwd lo 1024][fwd hi n_hi][inv lo 1024]
                                      [inv hi n_hi]: fwd lo[i] hi[h] = g^i, g^(1024 h)/m; inv with
                                      g^-1: element i scales by lo[i & 1023] * hi[i >> 10] */
    size_t bytes;                  /* device bytes held */
    ntt_tables<C> *next;
};

/* The tables for the current device (built synchronously on first use, on a private stream).
 * CUZK_OK, CUZK_ERR_NOMEM_DEVICE, CUZK_ERR_DEVICE, CUZK_ERR_NOMEM (host). Thread-safe. */
template <class C>
cuzk_status ntt_tables_get(const ntt_tables<C> **out, int roots, int log_m, cuzk_error *err);

/* One transform of nvec <= 3 vectors of m = 2^log_m elements (separate device arrays).
 * The first pass reads in[v] (at bit-reversed positions with gather: DIT only), intermediate
 * passes work in place on work[v], the last pass writes out[v] (one pass: in -> out; gather with a
 * single pass is safe in place: one block holds the whole vector). Fused steps:
 *   first pass: x = mul_a[i] * mul_b[i] instead of in[v][i] (when mul_a), then
 *               x *= pre_lo[i & 1023] * pre_hi[i >> 10] (when pre_lo), i = the natural index read;
 *   last pass:  x *= post_lo[i & 1023] * post_hi[i >> 10] (when post_lo), i = the position written,
 *               bit-reversed when post_brev; then, for the LAST vector only when pw_a is set:
 *               pw_a[pos] = (pw_a[pos] * pw_b[pos] - x) * (*pw_scale or 1), out not written; that
 *               vector's last pass is launched after the others' (they may be pw_a, pw_b). */
template <class C>
struct ntt_job {
    int nvec;
    const typename C::fr *in[3];
    typename C::fr *work[3];
    typename C::fr *out[3];
    int gather;
    const typename C::fr *mul_a, *mul_b;
    const typename C::fr *pre_lo, *pre_hi;
    const typename C::fr *post_lo, *post_hi;
    int post_brev;
    typename C::fr *pw_a;
    const typename C::fr *pw_b, *pw_scale;
};

/* Enqueue the passes of one transform on `stream`: DIT (dif = 0) or DIF (dif = 1), with omega
 * (inverse = 0) or omega^-1 (inverse = 1, no 1/m: put it in the scale tables). */
template <class C>
cuzk_status ntt_execute(const ntt_tables<C> *tb, const ntt_job<C> *job, int dif, int inverse,
                        cudaStream_t stream, cuzk_error *err);

#endif
