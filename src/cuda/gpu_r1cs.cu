/* A constraint system resident on the device and the a/b/c evaluation vectors computed there
 * (src/cuda/gpu.h: gpu_r1cs_*; issue 4 item 1, "SpMV on the GPU").
 *
 * One thread per row: acc = sum_k coef[coef_id[k]] * w[col[k]] over the row's nonzeros (Fr,
 * Montgomery). The coefficients are dictionary-coded (src/r1cs/r1cs.h): a 4-byte id per nonzero
 * into the matrix's table of distinct values, which stays in global memory (a PoRep or synthetic
 * table is a few KiB and lives in the caches; a table as large as the matrix, every value
 * distinct, works the same, one more random 32 B load per nonzero). Ids of +1 and -1 (most of a
 * PoRep circuit's coefficients) skip the table load and the product. The rows of a PoRep-shaped
 * system average 2.4 / 1.0 / 2.2 nonzeros, so the kernel is bound by the gather of w (random
 * access, 32 B per nonzero) and the col / id streams (8 B per nonzero); a warp per row would idle
 * most lanes. */
#include "cuda/ctx_internal.cuh"
#include "cuda/curves.cuh"
#include "cuda/gpu_r1cs.h"
#include "cuda/util.cuh"

using namespace cuzk_dev;

struct gpu_csr_dev {
    uint32_t n_rows;
    uint64_t nnz;
    uint64_t *d_row_ptr; /* n_rows + 1 */
    uint32_t *d_col;     /* nnz */
    uint32_t *d_coef_id; /* nnz, < n_coef */
    uint32_t n_coef;
    void *d_coef;                  /* n_coef Fr of the system's curve (at least one entry
                                      allocated), Montgomery; 32 bytes each on both curves */
    uint32_t id_one, id_minus_one; /* UINT32_MAX: not in the table */
};

/* A streamed matrix's row blocks: block i is rows [blk[i], blk[i + 1]) (host, n_blk + 1 entries). */
struct gpu_csr_stream {
    const uint64_t *row_ptr; /* host, borrowed */
    const uint32_t *col, *coef_id;
    uint32_t *blk;
    uint32_t n_blk;
};

struct gpu_r1cs {
    gpu_ctx *ctx;
    gpu_csr_dev m[3];          /* streamed: only n_rows, nnz, the coefficient table and the ids */
    gpu_csr_stream hs[3];      /* streamed: the host arrays and their blocks */
    bool streamed;
    uint64_t block_nnz;        /* streamed: rows and nonzeros of a block (a longer row: alone) */
    uint64_t stage_nnz;        /* streamed: the most nonzeros of any block */
    uint32_t n_inputs;
    size_t bytes;
    bool bn254;                /* the coefficients and the vectors are BN254's Fr (gpu_bn254_r1cs_upload) */
};

/* Both curves' Fr are four 64-bit limbs: one byte count for the tables and vectors. */
static_assert(sizeof(api_curve::fr) == 32 && sizeof(bn254::fr) == 32, "Fr is 32 bytes on both curves");

/* Row sums with the +-1 fast path (by table id). */
template <class C>
__global__ void r1cs_spmv_kernel(typename C::fr *__restrict__ out, const uint64_t *__restrict__ row_ptr,
                                 const uint32_t *__restrict__ col, const uint32_t *__restrict__ coef_id,
                                 const typename C::fr *__restrict__ coef, uint32_t id_one, uint32_t id_minus_one,
                                 const typename C::fr *__restrict__ w, uint32_t n_rows, uint64_t k0) {
    CUZK_CURVE_TYPES(C);
    uint32_t row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n_rows) return;
    fr_t acc = fr_t::zero();
    /* k0: the first nonzero of a streamed block (its col / coef_id start there); 0 resident */
    for (uint64_t k = row_ptr[row] - k0, e = row_ptr[row + 1] - k0; k < e; k++) {
        uint32_t id = coef_id[k];
        fr_t x = w[col[k]];
        if (id == id_one) acc = acc + x;
        else if (id == id_minus_one) acc = acc - x;
        else acc = acc + coef[id] * x;
    }
    out[row] = acc;
}

/* a[n_rows + i] = w[i] for i < n_inputs (bellperson's input rows: A = input_i, B = C = 0). */
template <class C>
__global__ void r1cs_input_rows_kernel(typename C::fr *a, const typename C::fr *w, uint32_t n_rows, uint32_t n_inputs) {
    CUZK_CURVE_TYPES(C);
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n_inputs) a[(size_t)n_rows + i] = w[i];
}

static void csr_free(gpu_csr_dev *m) {
    cudaFree(m->d_row_ptr);
    cudaFree(m->d_col);
    cudaFree(m->d_coef_id);
    cudaFree(m->d_coef);
    memset(m, 0, sizeof *m);
}

static cuzk_status csr_upload(gpu_csr_dev *m, const gpu_csr_host *h, cudaStream_t s, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    m->n_rows = h->n_rows;
    m->nnz = h->nnz;
    m->n_coef = h->n_coef;
    m->id_one = h->id_one;
    m->id_minus_one = h->id_minus_one;
    CU(cudaMalloc(&m->d_row_ptr, ((size_t)h->n_rows + 1) * sizeof(uint64_t)));
    CU(cudaMalloc(&m->d_col, (h->nnz ? h->nnz : 1) * sizeof(uint32_t)));
    CU(cudaMalloc(&m->d_coef_id, (h->nnz ? h->nnz : 1) * sizeof(uint32_t)));
    CU(cudaMalloc(&m->d_coef, (h->n_coef ? (size_t)h->n_coef : 1) * sizeof(api_curve::fr)));
    CU(cudaMemcpyAsync(m->d_row_ptr, h->row_ptr, ((size_t)h->n_rows + 1) * sizeof(uint64_t),
                       cudaMemcpyHostToDevice, s));
    if (h->nnz) {
        CU(cudaMemcpyAsync(m->d_col, h->col, h->nnz * sizeof(uint32_t), cudaMemcpyHostToDevice, s));
        CU(cudaMemcpyAsync(m->d_coef_id, h->coef_id, h->nnz * sizeof(uint32_t), cudaMemcpyHostToDevice, s));
    }
    if (h->n_coef)
        CU(cudaMemcpyAsync(m->d_coef, h->coef, (size_t)h->n_coef * sizeof(api_curve::fr), cudaMemcpyHostToDevice, s));
out:
    return st;
}

static cuzk_status r1cs_upload(gpu_ctx *ctx, gpu_r1cs **out, const gpu_csr_host *a, const gpu_csr_host *b,
                               const gpu_csr_host *c, uint32_t n_inputs, bool bn254, cuzk_error *err) {
    GPU_ARG(ctx && out && a && b && c, "gpu_r1cs_upload: NULL argument");
    *out = NULL;
    GPU_ARG(a->n_rows == b->n_rows && a->n_rows == c->n_rows, "gpu_r1cs_upload: matrices differ in rows");
    const gpu_csr_host *h[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        GPU_ARG(h[i]->nnz == 0 || h[i]->n_coef > 0, "gpu_r1cs_upload: nonzeros without a coefficient table");
        GPU_ARG((h[i]->id_one == UINT32_MAX || h[i]->id_one < h[i]->n_coef) &&
                    (h[i]->id_minus_one == UINT32_MAX || h[i]->id_minus_one < h[i]->n_coef),
                "gpu_r1cs_upload: id of 1 or -1 outside the coefficient table");
    }
    if (gpu_ctx_dead(ctx)) return gpu_sync(ctx, err);
    cuzk_status st = CUZK_OK;
    cudaStream_t s = (cudaStream_t)gpu_ctx_stream(ctx);
    gpu_r1cs *r = (gpu_r1cs *)calloc(1, sizeof *r);
    if (!r) {
        if (err) cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "gpu_r1cs_upload: host allocation");
        return CUZK_ERR_NOMEM;
    }
    r->ctx = ctx;
    r->n_inputs = n_inputs;
    r->bn254 = bn254;
    for (int i = 0; i < 3; i++) {
        if ((st = csr_upload(&r->m[i], h[i], s, err)) != CUZK_OK) goto out;
        r->bytes += ((size_t)h[i]->n_rows + 1) * sizeof(uint64_t) + h[i]->nnz * 2 * sizeof(uint32_t) +
                    (size_t)h[i]->n_coef * sizeof(api_curve::fr);
    }
    /* the host arrays may be reused as soon as this returns */
    if ((st = gpu_sync(ctx, err)) != CUZK_OK) goto out;
    *out = r;
    r = NULL;
out:
    if (r) {
        for (int i = 0; i < 3; i++) csr_free(&r->m[i]);
        free(r);
    }
    return st;
}

extern "C" cuzk_status gpu_r1cs_upload(gpu_ctx *ctx, gpu_r1cs **out, const gpu_csr_host *a, const gpu_csr_host *b,
                                       const gpu_csr_host *c, uint32_t n_inputs, cuzk_error *err) {
    return r1cs_upload(ctx, out, a, b, c, n_inputs, false, err);
}

extern "C" cuzk_status gpu_bn254_r1cs_upload(gpu_ctx *ctx, gpu_r1cs **out, const gpu_csr_host *a,
                                             const gpu_csr_host *b, const gpu_csr_host *c, uint32_t n_inputs,
                                             cuzk_error *err) {
    return r1cs_upload(ctx, out, a, b, c, n_inputs, true, err);
}

extern "C" size_t gpu_r1cs_bytes(const gpu_r1cs *cs) { return cs ? cs->bytes : 0; }

extern "C" void gpu_r1cs_free(gpu_r1cs *cs) {
    if (!cs) return;
    for (int i = 0; i < 3; i++) {
        csr_free(&cs->m[i]);
        free(cs->hs[i].blk);
    }
    free(cs);
}

extern "C" bool gpu_r1cs_streamed(const gpu_r1cs *cs) { return cs && cs->streamed; }

/* The row blocks of a streamed matrix: at most B rows and B nonzeros each, a longer row alone
 * (binary search on row_ptr per block). *max_nnz: the most nonzeros of a block. */
static bool csr_blocks(gpu_csr_stream *hs, const gpu_csr_host *h, uint64_t B, uint64_t *max_nnz) {
    size_t cap = 16;
    hs->blk = (uint32_t *)malloc(cap * sizeof *hs->blk);
    if (!hs->blk) return false;
    hs->blk[0] = 0;
    hs->n_blk = 0;
    uint32_t r0 = 0;
    while (r0 < h->n_rows) {
        /* the largest r1 <= r0 + B with row_ptr[r1] - row_ptr[r0] <= B */
        uint64_t lo = r0 + 1, hi = (uint64_t)r0 + B < h->n_rows ? (uint64_t)r0 + B : h->n_rows;
        if (h->row_ptr[lo] - h->row_ptr[r0] > B) {
            hi = lo; /* one long row */
        } else {
            while (lo < hi) {
                const uint64_t mid = lo + (hi - lo + 1) / 2;
                if (h->row_ptr[mid] - h->row_ptr[r0] <= B) lo = mid;
                else hi = mid - 1;
            }
        }
        const uint32_t r1 = (uint32_t)hi;
        const uint64_t nz = h->row_ptr[r1] - h->row_ptr[r0];
        if (nz > *max_nnz) *max_nnz = nz;
        if ((size_t)hs->n_blk + 2 > cap) {
            cap *= 2;
            uint32_t *nb = (uint32_t *)realloc(hs->blk, cap * sizeof *nb);
            if (!nb) return false;
            hs->blk = nb;
        }
        hs->blk[++hs->n_blk] = r1;
        r0 = r1;
    }
    return true;
}

extern "C" cuzk_status gpu_r1cs_attach_host(gpu_ctx *ctx, gpu_r1cs **out, const gpu_csr_host *a,
                                            const gpu_csr_host *b, const gpu_csr_host *c, uint32_t n_inputs,
                                            uint64_t block_nnz, cuzk_error *err) {
    GPU_ARG(ctx && out && a && b && c, "gpu_r1cs_attach_host: NULL argument");
    *out = NULL;
    GPU_ARG(a->n_rows == b->n_rows && a->n_rows == c->n_rows, "gpu_r1cs_attach_host: matrices differ in rows");
    const gpu_csr_host *h[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        GPU_ARG(h[i]->row_ptr && (h[i]->nnz == 0 || (h[i]->col && h[i]->coef_id)), "gpu_r1cs_attach_host: NULL array");
        GPU_ARG(h[i]->nnz == 0 || h[i]->n_coef > 0, "gpu_r1cs_attach_host: nonzeros without a coefficient table");
        GPU_ARG((h[i]->id_one == UINT32_MAX || h[i]->id_one < h[i]->n_coef) &&
                    (h[i]->id_minus_one == UINT32_MAX || h[i]->id_minus_one < h[i]->n_coef),
                "gpu_r1cs_attach_host: id of 1 or -1 outside the coefficient table");
        GPU_ARG(h[i]->row_ptr[0] == 0 && h[i]->row_ptr[h[i]->n_rows] == h[i]->nnz,
                "gpu_r1cs_attach_host: row offsets do not span the nonzeros");
    }
    if (gpu_ctx_dead(ctx)) return gpu_sync(ctx, err);
    cuzk_status st = CUZK_OK;
    cudaStream_t s = (cudaStream_t)gpu_ctx_stream(ctx);
    gpu_r1cs *r = (gpu_r1cs *)calloc(1, sizeof *r);
    if (!r) {
        if (err) cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "gpu_r1cs_attach_host: host allocation");
        return CUZK_ERR_NOMEM;
    }
    r->ctx = ctx;
    r->n_inputs = n_inputs;
    r->streamed = true;
    r->block_nnz = block_nnz ? block_nnz : GPU_R1CS_BLOCK_NNZ;
    for (int i = 0; i < 3; i++) {
        gpu_csr_dev *m = &r->m[i];
        m->n_rows = h[i]->n_rows;
        m->nnz = h[i]->nnz;
        m->n_coef = h[i]->n_coef;
        m->id_one = h[i]->id_one;
        m->id_minus_one = h[i]->id_minus_one;
        CU(cudaMalloc(&m->d_coef, (h[i]->n_coef ? (size_t)h[i]->n_coef : 1) * sizeof(api_curve::fr)));
        if (h[i]->n_coef)
            CU(cudaMemcpyAsync(m->d_coef, h[i]->coef, (size_t)h[i]->n_coef * sizeof(api_curve::fr),
                               cudaMemcpyHostToDevice, s));
        r->bytes += (size_t)h[i]->n_coef * sizeof(api_curve::fr);
        r->hs[i].row_ptr = h[i]->row_ptr;
        r->hs[i].col = h[i]->col;
        r->hs[i].coef_id = h[i]->coef_id;
        if (!csr_blocks(&r->hs[i], h[i], r->block_nnz, &r->stage_nnz)) {
            if (err) cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "gpu_r1cs_attach_host: host allocation");
            st = CUZK_ERR_NOMEM;
            goto out;
        }
    }
    if ((st = gpu_sync(ctx, err)) != CUZK_OK) goto out;
    *out = r;
    r = NULL;
out:
    gpu_r1cs_free(r);
    return st;
}

/* a/b/c of a streamed cs: every matrix's row blocks through two staging buffers (module comment
 * of gpu_r1cs.h). The copy stream writes buffer j only after the sums that read its previous
 * block are done (event `used`); the sums wait for their copy (event `copied`). */
template <class C>
static cuzk_status abc_streamed(gpu_ctx *ctx, typename C::fr *const out[3], const gpu_r1cs *cs, const typename C::fr *w,
                                cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    const uint64_t R = cs->block_nnz, Z = cs->stage_nnz > R ? cs->stage_nnz : R;
    uint64_t *d_rp[2] = {NULL, NULL};
    uint32_t *d_col[2] = {NULL, NULL}, *d_id[2] = {NULL, NULL};
    cudaEvent_t ready = NULL, copied[2] = {NULL, NULL}, used[2] = {NULL, NULL};
    cudaStream_t cp = NULL;
    bool copying = false;
    CTX_CU(ctx_copy_stream(ctx, &cp));
    for (int j = 0; j < 2; j++) {
        CTX_CU(ctx_alloc(ctx, (void **)&d_rp[j], (R + 1) * sizeof(uint64_t)));
        CTX_CU(ctx_alloc(ctx, (void **)&d_col[j], Z * sizeof(uint32_t)));
        CTX_CU(ctx_alloc(ctx, (void **)&d_id[j], Z * sizeof(uint32_t)));
        CTX_CU(cudaEventCreateWithFlags(&copied[j], cudaEventDisableTiming));
        CTX_CU(cudaEventCreateWithFlags(&used[j], cudaEventDisableTiming));
    }
    /* the staging is the ctx stream's memory: the copy stream writes it after its allocation */
    CTX_CU(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    CTX_CU(cudaEventRecord(ready, ctx->stream));
    CTX_CU(cudaStreamWaitEvent(cp, ready, 0));
    copying = true;
    {
        unsigned long long seq = 0; /* blocks enqueued over the three matrices: buffer seq & 1 */
        for (int i = 0; i < 3; i++) {
            if (!out[i]) continue;
            const gpu_csr_dev *d = &cs->m[i];
            const gpu_csr_stream *hs = &cs->hs[i];
            for (uint32_t bk = 0; bk < hs->n_blk; bk++, seq++) {
                const int j = (int)(seq & 1);
                const uint32_t r0 = hs->blk[bk], r1 = hs->blk[bk + 1], nr = r1 - r0;
                const uint64_t k0 = hs->row_ptr[r0], nz = hs->row_ptr[r1] - k0;
                if (seq >= 2) CTX_CU(cudaStreamWaitEvent(cp, used[j], 0));
                CTX_CU(cudaMemcpyAsync(d_rp[j], hs->row_ptr + r0, ((size_t)nr + 1) * sizeof(uint64_t),
                                       cudaMemcpyHostToDevice, cp));
                if (nz) {
                    CTX_CU(cudaMemcpyAsync(d_col[j], hs->col + k0, nz * sizeof(uint32_t), cudaMemcpyHostToDevice, cp));
                    CTX_CU(cudaMemcpyAsync(d_id[j], hs->coef_id + k0, nz * sizeof(uint32_t), cudaMemcpyHostToDevice, cp));
                }
                CTX_CU(cudaEventRecord(copied[j], cp));
                CTX_CU(cudaStreamWaitEvent(ctx->stream, copied[j], 0));
                r1cs_spmv_kernel<C><<<(nr + 255) / 256, 256, 0, ctx->stream>>>(
                    out[i] + r0, d_rp[j], d_col[j], d_id[j], (const typename C::fr *)d->d_coef, d->id_one,
                    d->id_minus_one, w, nr, k0);
                CTX_CU(cudaGetLastError());
                CTX_CU(cudaEventRecord(used[j], ctx->stream));
            }
        }
    }
out:
    /* no copy may still write a staging buffer when it goes back to the arena / pool (the sums
     * that read them are ordered before any later user on the ctx stream) */
    if (copying && cp) (void)cudaStreamSynchronize(cp);
    for (int j = 1; j >= 0; j--) {
        ctx_free(ctx, d_id[j]);
        ctx_free(ctx, d_col[j]);
        ctx_free(ctx, d_rp[j]);
    }
    for (int j = 0; j < 2; j++) {
        if (copied[j]) (void)cudaEventDestroy(copied[j]);
        if (used[j]) (void)cudaEventDestroy(used[j]);
    }
    if (ready) (void)cudaEventDestroy(ready);
    return st;
}

/* gpu_r1cs_abc_async on curve C (the cs's: checked by the callers) */
template <class C>
static cuzk_status abc_async(gpu_ctx *ctx, typename C::fr *const out[3], size_t m, const gpu_r1cs *cs,
                             const typename C::fr *d_w, cuzk_error *err) {
    const uint32_t rows = cs->m[0].n_rows;
    GPU_ARG((size_t)rows + cs->n_inputs <= m, "gpu_r1cs_abc_async: m is smaller than rows + inputs");
    if (gpu_ctx_dead(ctx)) return gpu_sync(ctx, err);
    cuzk_status st = CUZK_OK;
    cudaStream_t s = (cudaStream_t)gpu_ctx_stream(ctx);
    for (int i = 0; i < 3; i++) {
        if (!out[i]) continue; /* not wanted this call (the lean H sums one at a time) */
        /* rows beyond the constraints are zero (then a gets the input rows) */
        if (m > rows) CU(cudaMemsetAsync(out[i] + rows, 0, (m - rows) * sizeof(typename C::fr), s));
        if (rows && !cs->streamed) {
            const gpu_csr_dev *d = &cs->m[i];
            r1cs_spmv_kernel<C><<<(rows + 255) / 256, 256, 0, s>>>(out[i], d->d_row_ptr, d->d_col, d->d_coef_id,
                                                                (const typename C::fr *)d->d_coef, d->id_one,
                                                                d->id_minus_one, d_w, rows, 0);
            CU_LAUNCH("r1cs_spmv_kernel");
        }
    }
    if (rows && cs->streamed && (st = abc_streamed<C>(ctx, out, cs, d_w, err)) != CUZK_OK) goto out;
    if (cs->n_inputs && out[0]) {
        r1cs_input_rows_kernel<C><<<(cs->n_inputs + 255) / 256, 256, 0, s>>>(out[0], d_w, rows, cs->n_inputs);
        CU_LAUNCH("r1cs_input_rows_kernel");
    }
out:
    return st;
}

extern "C" cuzk_status gpu_r1cs_abc_async(gpu_ctx *ctx, struct fr *d_a, struct fr *d_b, struct fr *d_c, size_t m,
                                          const gpu_r1cs *cs, const struct fr *d_w, cuzk_error *err) {
    GPU_ARG(ctx && (d_a || d_b || d_c) && cs && d_w, "gpu_r1cs_abc_async: NULL argument");
    GPU_ARG(!cs->bn254, "gpu_r1cs_abc_async: the constraint system is BN254's (gpu_bn254_r1cs_abc_async)");
    api_curve::fr *out[3] = {(api_curve::fr *)d_a, (api_curve::fr *)d_b, (api_curve::fr *)d_c};
    return abc_async<api_curve>(ctx, out, m, cs, (const api_curve::fr *)d_w, err);
}

extern "C" cuzk_status gpu_bn254_r1cs_abc_async(gpu_ctx *ctx, struct bn254_fr *d_a, struct bn254_fr *d_b,
                                                struct bn254_fr *d_c, size_t m, const gpu_r1cs *cs,
                                                const struct bn254_fr *d_w, cuzk_error *err) {
    GPU_ARG(ctx && (d_a || d_b || d_c) && cs && d_w, "gpu_bn254_r1cs_abc_async: NULL argument");
    GPU_ARG(cs->bn254, "gpu_bn254_r1cs_abc_async: the constraint system is BLS12-381's (gpu_r1cs_abc_async)");
    bn254::fr *out[3] = {(bn254::fr *)d_a, (bn254::fr *)d_b, (bn254::fr *)d_c};
    return abc_async<bn254>(ctx, out, m, cs, (const bn254::fr *)d_w, err);
}
