/* The constraint system on the device: a/b/c = A*w, B*w, C*w by SpMV on the GPU (issue 4 item 1).
 * Part of the src/cuda boundary (plain C, extern "C"; see src/cuda/gpu.h for the conventions:
 * status classes, layouts, the gpu_ctx). Implementation: src/cuda/gpu_r1cs.cu. */
#ifndef CUZK_CUDA_GPU_R1CS_H
#define CUZK_CUDA_GPU_R1CS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A host CSR matrix as src/r1cs/r1cs.h lays it out (borrowed for the duration of the call):
 * row_ptr n_rows + 1 entries, col and coef_id nnz entries, coef n_coef entries (the table of
 * distinct values, Fr, Montgomery; nonzero k has the value coef[coef_id[k]], coef_id[k] < n_coef).
 * id_one / id_minus_one: the table ids of 1 and -1 (csr_coef_find), or UINT32_MAX when absent;
 * nonzeros with these ids are added / subtracted without a product (with a table that holds a
 * value twice, the other copy takes the product: slower, same result). */
typedef struct gpu_csr_host {
    uint32_t n_rows;
    uint64_t nnz;
    const uint64_t *row_ptr;
    const uint32_t *col;
    const uint32_t *coef_id;
    uint32_t n_coef;
    const void *coef; /* n_coef Fr of the system's curve (BLS12-381's struct fr, or BN254's for
                         gpu_bn254_r1cs_upload), 32 bytes each */
    uint32_t id_one, id_minus_one;
} gpu_csr_host;

/* The three matrices of one circuit, resident on the ctx's device until gpu_r1cs_free:
 * (n_rows + 1) * 8 + nnz * 8 + n_coef * 32 bytes per matrix (gpu_r1cs_bytes). n_inputs = 1 +
 * public inputs (bellperson appends one A row per input). The host arrays may be reused when this
 * returns.
 * Errors: CUZK_ERR_ARG (NULL, row counts differ, n_coef = 0 with nnz > 0, an id_one /
 * id_minus_one >= n_coef other than UINT32_MAX), CUZK_ERR_NOMEM(_DEVICE), CUZK_ERR_DEVICE. */
typedef struct gpu_r1cs gpu_r1cs;
cuzk_status gpu_r1cs_upload(gpu_ctx *ctx, gpu_r1cs **out, const gpu_csr_host *a, const gpu_csr_host *b,
                            const gpu_csr_host *c, uint32_t n_inputs, cuzk_error *err);
/* BN254's (a zkey's A and B rows, snarkjs convention): the same, the coefficient tables BN254's
 * Fr (Montgomery); such a cs is evaluated by gpu_bn254_r1cs_abc_async only. Resident only (no
 * streamed BN254 system). */
cuzk_status gpu_bn254_r1cs_upload(gpu_ctx *ctx, gpu_r1cs **out, const gpu_csr_host *a, const gpu_csr_host *b,
                                  const gpu_csr_host *c, uint32_t n_inputs, cuzk_error *err);
size_t gpu_r1cs_bytes(const gpu_r1cs *cs);
void gpu_r1cs_free(gpu_r1cs *cs); /* NULL is a no-op; the ctx must still exist */

/* The matrices streamed from host memory (issue 23: a device smaller than the circuit): only the
 * coefficient tables go to the device (gpu_r1cs_bytes counts them); the CSR arrays (row_ptr, col,
 * coef_id) stay in the caller's host memory, BORROWED until gpu_r1cs_free (valid and unchanged;
 * page-locked by the caller for bus speed: gpu_host_register, else CUDA stages the copies), and
 * gpu_r1cs_abc_async copies them each call in row blocks of at most block_nnz nonzeros and
 * block_nnz rows (a longer row is a block alone) through two staging buffers taken from the ctx
 * (its arena: gpu_r1cs_stage_bytes), block i + 1 copied on the ctx's copy stream while block i's
 * rows are summed. block_nnz 0: GPU_R1CS_BLOCK_NNZ. Errors as gpu_r1cs_upload. */
#define GPU_R1CS_BLOCK_NNZ ((uint64_t)1 << 24)
cuzk_status gpu_r1cs_attach_host(gpu_ctx *ctx, gpu_r1cs **out, const gpu_csr_host *a, const gpu_csr_host *b,
                                 const gpu_csr_host *c, uint32_t n_inputs, uint64_t block_nnz, cuzk_error *err);
/* True when cs streams its matrices (gpu_r1cs_attach_host). */
bool gpu_r1cs_streamed(const gpu_r1cs *cs);
/* The device bytes the staging of a streamed gpu_r1cs_abc_async takes (two buffers, each
 * block_nnz + 1 row offsets and max(block_nnz, the longest row) columns and ids), for plans made
 * before the attach. Plain C. */
static inline size_t gpu_r1cs_stage_bytes(uint64_t block_nnz, uint64_t max_row_nnz) {
    if (!block_nnz) block_nnz = GPU_R1CS_BLOCK_NNZ;
    const uint64_t nz = max_row_nnz > block_nnz ? max_row_nnz : block_nnz;
    return 2 * (((size_t)block_nnz + 1) * 8 + (size_t)nz * 8 + 3 * 512);
}

/* Enqueues on the ctx stream: d_a = A*d_w, d_b = B*d_w, d_c = C*d_w on the n_rows rows,
 * d_a[n_rows + i] = d_w[i] for i < n_inputs, every other entry < m zero (bellperson's a/b/c).
 * Any one or two of d_a, d_b, d_c may be NULL: that vector is not computed this call.
 * d_a, d_b, d_c: DEVICE, m Fr each (m >= n_rows + n_inputs); d_w: DEVICE, the witness (n_vars Fr,
 * Montgomery). The caller syncs (gpu_sync) before reading. A streamed cs (gpu_r1cs_attach_host)
 * copies its row blocks on the way and returns once the last copy is done (the sums may still
 * run); its staging comes from the ctx (arena or pool) and is given back before it returns. */
cuzk_status gpu_r1cs_abc_async(gpu_ctx *ctx, struct fr *d_a, struct fr *d_b, struct fr *d_c, size_t m,
                               const gpu_r1cs *cs, const struct fr *d_w, cuzk_error *err);
/* The same over BN254's Fr, for a cs made by gpu_bn254_r1cs_upload (CUZK_ERR_ARG for one of the
 * other curve, and gpu_r1cs_abc_async refuses a BN254 cs the same way). */
cuzk_status gpu_bn254_r1cs_abc_async(gpu_ctx *ctx, struct bn254_fr *d_a, struct bn254_fr *d_b, struct bn254_fr *d_c,
                                     size_t m, const gpu_r1cs *cs, const struct bn254_fr *d_w, cuzk_error *err);

#ifdef __cplusplus
}
#endif
#endif
