// The public headers are includable from C++ (issue 10 item 1): every header of include/cuzk,
// compiled as C++11 with warnings as errors, and one call through each to link against the
// library.
#include "cuzk/cuzk.h"
#include "cuzk/engine.h"
#include "cuzk/filecoin.h"
#include "cuzk/groth16.h"
#include "cuzk/prover.h"

#include <cstdio>
#include <cstring>

int main() {
    cuzk_pk *pk = nullptr;
    cuzk_error e{};
    cuzk_status st = cuzk_pk_load_zkey_mem(&pk, reinterpret_cast<const uint8_t *>("x"), 1, nullptr, &e);
    bool ok = st == CUZK_ERR_FORMAT && pk == nullptr && std::strcmp(cuzk_curve_name(CUZK_CURVE_BN254), "bn254") == 0 &&
              cuzk_engine_n_devices(nullptr) == 0 && cuzk_post_job_partitions(nullptr) == 0 && cuzk_exit_code(CUZK_ERR_INVALID) == 1 &&
              cuzk_msm_opts{}.accumulation == CUZK_GPU_MSM_ACCUM_DEFAULT;
    int n_gpu = -1;
    st = cuzk_gpu_device_count(&n_gpu, &e); /* no CUDA in the build: UNSUPPORTED, 0 devices */
    ok = ok && n_gpu >= 0 && (st == CUZK_OK || (st == CUZK_ERR_UNSUPPORTED && n_gpu == 0));
    std::printf("public headers from C++: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
