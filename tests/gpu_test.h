/* Shared by the GPU suites (tests/test_gpu*.c, built only with CUDA): whether a device is present,
 * and NEED_GPU() to skip a test cleanly when there is none (CI has nvcc but no GPU). */
#ifndef CUZK_TESTS_GPU_TEST_H
#define CUZK_TESTS_GPU_TEST_H

#include <stdbool.h>

#include "cuda/gpu.h"
#include "test.h"

static inline bool gpu_present(void) {
    int n = 0;
    if (gpu_device_count(&n, NULL) != CUZK_OK) return false;
    return n > 0;
}
#define NEED_GPU() do { if (!gpu_present()) SKIP(TEST_NO_GPU); } while (0)

#endif
