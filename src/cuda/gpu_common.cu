/* Device queries and element-wise field arithmetic kernels (tests of the device arithmetic). */
#include "cuda/curves.cuh"
#include "cuda/util.cuh"

using namespace cuzk_dev;

extern "C" cuzk_status gpu_device_count(int *count, cuzk_error *err) {
    GPU_ARG(count, "gpu_device_count: count is NULL");
    int c = 0;
    cudaError_t e = cudaGetDeviceCount(&c);
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) {
        (void)cudaGetLastError();
        *count = 0;
        return CUZK_OK;
    }
    if (e != cudaSuccess) {
        *count = 0;
        return gpu_fail(err, e, __FILE__, __LINE__, "cudaGetDeviceCount");
    }
    *count = c;
    return CUZK_OK;
}

extern "C" cuzk_status gpu_device_info(int dev, char *buf, size_t cap, cuzk_error *err) {
    GPU_ARG(buf && cap, "gpu_device_info: empty buffer");
    cuzk_status st = CUZK_OK;
    cudaDeviceProp p;
    int drv = 0, rt = 0, clock_khz = 0;
    CU(cudaGetDeviceProperties(&p, dev));
    CU(cudaDriverGetVersion(&drv));
    CU(cudaRuntimeGetVersion(&rt));
    CU(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
    snprintf(buf, cap, "%s, sm_%d%d, %d SMs, %.1f GiB, L2 %d MiB, %d MHz, driver %d, runtime %d",
             p.name, p.major, p.minor, p.multiProcessorCount,
             (double)p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), p.l2CacheSize >> 20,
             clock_khz / 1000, drv, rt);
out:
    return st;
}

extern "C" cuzk_status gpu_device_mem_info(int dev, size_t *total_bytes, size_t *free_bytes, char *name, size_t cap,
                                           cuzk_error *err) {
    GPU_ARG(total_bytes && free_bytes, "gpu_device_mem_info: NULL argument");
    *total_bytes = *free_bytes = 0;
    cuzk_status st = CUZK_OK;
    int prev = -1;
    bool switched = false;
    CU(cudaGetDevice(&prev));
    if (prev != dev) {
        CU(cudaSetDevice(dev));
        switched = true;
    }
    CU(cudaMemGetInfo(free_bytes, total_bytes));
    if (name && cap) {
        cudaDeviceProp p;
        CU(cudaGetDeviceProperties(&p, dev));
        snprintf(name, cap, "%s", p.name);
    }
out:
    if (switched) (void)cudaSetDevice(prev);
    return st;
}

template <class F>
__global__ void field_op_kernel(int op, F *out, const F *a, const F *b, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    F x = a[i], r;
    switch (op) {
    case GPU_OP_ADD: r = x + b[i]; break;
    case GPU_OP_SUB: r = x - b[i]; break;
    case GPU_OP_MUL: r = x * b[i]; break;
    case GPU_OP_SQR: r = x.sqr(); break;
    default: r = -x; break;
    }
    out[i] = r;
}

template <class F>
static cuzk_status field_op(gpu_field_op op, uint64_t *out, const uint64_t *a, const uint64_t *b,
                            size_t n, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    F *d_a = NULL, *d_b = NULL;
    const size_t bytes = n * sizeof(F);
    const bool binary = op == GPU_OP_ADD || op == GPU_OP_SUB || op == GPU_OP_MUL;
    if (n == 0) return CUZK_OK;
    CU(cudaMalloc(&d_a, bytes));
    CU(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    if (binary) {
        CU(cudaMalloc(&d_b, bytes));
        CU(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
    }
    field_op_kernel<F><<<(unsigned)((n + 127) / 128), 128>>>((int)op, d_a, d_a, binary ? d_b : d_a, n);
    CU_LAUNCH("field_op_kernel");
    CU(cudaMemcpy(out, d_a, bytes, cudaMemcpyDeviceToHost));
out:
    cudaFree(d_a);
    cudaFree(d_b);
    return st;
}

extern "C" cuzk_status gpu_field_op_array(gpu_field field, gpu_field_op op, uint64_t *out,
                                          const uint64_t *a, const uint64_t *b, size_t n,
                                          cuzk_error *err) {
    GPU_ARG(n == 0 || (out && a), "gpu_field_op_array: NULL array");
    GPU_ARG(n == 0 || b || op == GPU_OP_SQR || op == GPU_OP_NEG, "gpu_field_op_array: b is NULL");
    GPU_ARG(op >= GPU_OP_ADD && op <= GPU_OP_NEG, "gpu_field_op_array: bad op");
    if (field == GPU_FIELD_FP) return field_op<api_curve::fp>(op, out, a, b, n, err);
    if (field == GPU_FIELD_FR) return field_op<api_curve::fr>(op, out, a, b, n, err);
    if (field == GPU_FIELD_FP2) return field_op<api_curve::fp2>(op, out, a, b, n, err);
    return gpu_arg_error(err, __FILE__, __LINE__, "gpu_field_op_array: bad field");
}
