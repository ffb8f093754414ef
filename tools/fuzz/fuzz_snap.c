/* libFuzzer harness for the SnapDeals partition-proof readers and their checks
 * (src/filecoin/snap.h). Input layout:
 *   byte 0        bits 0-2: the sector size (value mod 5: 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB);
 *                 bit 7: the rest is Curio's JSON file (an array of base64 strings) rather than
 *                 one partition's bincode
 *   byte 1        the partition k (mod the size's partition count)
 *   bytes 2..97   comm_r_old, comm_d_new, comm_r_new (32 bytes each, little-endian)
 *   bytes 98..    the proof bytes
 * Then snap_vproofs_json_split (JSON form: every string read as a partition proof) or
 * snap_partition_proof_read, and for what reads, snap_partition_check (which must name its reason)
 * and, when it passes, the witness synthesis (values only; that a checked proof's witness
 * satisfies every row is the unit tests' business: recording and checking 1.7M rows takes over
 * libFuzzer's 10 s under ASan). Any status may be returned; nothing may crash, read out of bounds
 * (ASan), overflow (UBSan) or leak (LSan).
 * Seeds: tools/fuzz/corpus/snap (tools/fuzz/make_seeds.py: a real 2 KiB update made by cuzk,
 * tests/fixtures/filecoin/snap_2k.vproofs.json). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/snap.h"
#include "filecoin/snap_circuit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HDR 98

static void one(const snap_params *sp, const uint8_t *p, size_t n, uint32_t k, const snap_public *pub) {
    snap_partition_proof pp;
    cuzk_error e = {0};
    cuzk_status st = snap_partition_proof_read(&pp, sp, p, n, &e);
    if (st != CUZK_OK) {
        if (pp.proofs || !e.msg[0]) abort(); /* nothing kept, the reason named */
        return;
    }
    st = snap_partition_check(sp, &pp, k, pub, &e);
    if (st != CUZK_OK && !e.msg[0]) abort();
    if (st == CUZK_OK && sp->sector_size == 2048) {
        snap_sizes sz;
        snap_circuit_sizes(sp, &sz);
        size_t nw = (size_t)(sz.n_inputs + sz.n_aux);
        fr *w = malloc(nw * sizeof *w);
        snap_witness_src src = {pub, &pp, k};
        if (w && snap_witness_parallel(w, nw, sp, &src, 1, &e) != CUZK_OK) {
            fprintf(stderr, "a checked partition proof's witness fails: %s\n", e.msg);
            abort();
        }
        free(w);
    }
    snap_partition_proof_free(&pp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const uint64_t SIZES[5] = {2048ull, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
    if (size < HDR) return 0;
    snap_params sp;
    cuzk_error e = {0};
    if (snap_params_init(&sp, SIZES[(data[0] & 7) % 5], &e) != CUZK_OK) abort();
    uint32_t k = data[1] % (uint32_t)sp.partitions;
    snap_public pub;
    memcpy(pub.comm_r_old, data + 2, 32);
    memcpy(pub.comm_d_new, data + 34, 32);
    memcpy(pub.comm_r_new, data + 66, 32);
    const uint8_t *p = data + HDR;
    size_t n = size - HDR;
    if (data[0] & 0x80) {
        snap_blob *parts;
        size_t np;
        if (snap_vproofs_json_split(&parts, &np, SNAP_MAX_PARTITIONS, p, n, &e) != CUZK_OK) {
            if (!e.msg[0]) abort();
            return 0;
        }
        for (size_t i = 0; i < np && i < (size_t)sp.partitions; i++) one(&sp, parts[i].data, parts[i].len, (uint32_t)i, &pub);
        snap_blobs_free(parts, np);
    } else {
        one(&sp, p, n, k, &pub);
    }
    return 0;
}
