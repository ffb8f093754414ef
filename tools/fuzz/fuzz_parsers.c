/* libFuzzer harness for every file parser cuzk has: the same bytes are fed to each loader (zkey,
 * wtns, r1cs, bellperson params and vk, proof/public/vk JSON, bellperson proof decoding, the PoRep
 * C1 output's JSON or Curio wrapper, then its checks when it reads) and to file_describe. A loader may reject the input with any status; it must never crash, hang, read
 * out of bounds (ASan) or leak (LSan).
 *   make fuzz       # runs every target in tools/fuzz (tools/fuzz/run.sh; this one: build-fuzz/lib/fuzz_parsers)
 * Seed corpus: tools/fuzz/corpus/parsers (small real files of every kind, a real 2 KiB C1 output). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "formats/bellperson.h"
#include "formats/json.h"
#include "formats/snarkjs.h"
#include "filecoin/porep_c1.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* loaders take paths (they mmap): an anonymous in-memory file */
    int fd = memfd_create("cuzk-fuzz", 0);
    if (fd < 0) return 0;
    if (size && write(fd, data, size) != (ssize_t)size) { close(fd); return 0; }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    cuzk_error e;

    zkey z = {0};
    if (zkey_load(&z, path, size < 4096, &e) == CUZK_OK) zkey_free(&z);
    wtns w = {0};
    if (wtns_load(&w, path, &e) == CUZK_OK) wtns_free(&w);
    r1cs cs = {0};
    if (r1cs_load(&cs, path, &e) == CUZK_OK) r1cs_free(&cs);
    bellperson_params p = {0};
    if (bellperson_params_load(&p, path, true, &e) == CUZK_OK) bellperson_params_free(&p);
    groth16_vk vk = {0};
    if (bellperson_vk_load(&vk, path, &e) == CUZK_OK) groth16_vk_free(&vk);
    groth16_vk vj = {0};
    if (vk_json_read(&vj, path, &e) == CUZK_OK) groth16_vk_free(&vj);
    groth16_proof pr;
    (void)proof_json_read(&pr, path, &e);
    fr *pub = NULL;
    size_t n_pub = 0;
    if (public_json_read(&pub, &n_pub, path, &e) == CUZK_OK) free(pub);
    if (size >= BELLPERSON_PROOF_BYTES) (void)bellperson_proof_decode(&pr, data, &e);
    porep_c1 c1;
    if (porep_c1_read(&c1, data, size, NULL, &e) == CUZK_OK) {
        porep_c1_check_opts o = {.nthreads = 1};
        (void)porep_c1_check(&c1, &o, &e);
        porep_c1_free(&c1);
    }
    char buf[4096];
    (void)file_describe(buf, sizeof buf, path, &e);
    close(fd);
    return 0;
}
