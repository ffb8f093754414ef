/* libFuzzer harness for the PoSt vanilla-proof reader and its checks (src/filecoin/post.h).
 * Input layout (explicit, so that the fuzzer mutates the parameters and the proof together):
 *   byte 0        the parameters: bit 0 kind (0 WinningPoSt, 1 WindowPoSt); bits 1-3 the sector
 *                 size (value mod 5: 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB: each its tree shape);
 *                 bits 4-5 the sector count (0 the real one, 1, 2, 10: reduced test circuits);
 *                 bits 6-7 the ApiVersion (0 the kind's own, 10, 11, 12)
 *   byte 1        sector_index (WinningPoSt takes 0 only)
 *   bytes 2..33   the randomness (32 bytes little-endian)
 *   bytes 34..    one vanilla proof (bincode, post.h)
 * Then post_vanilla_read; on success post_sectors_check (one thread), which must give exactly what
 * post_sector_check on each sector in turn gives (status and message: the documented contract;
 * a difference aborts, a finding), and for checked sectors post_public_inputs. Any status may be
 * returned; nothing may crash, read out of bounds (ASan), overflow (UBSan) or leak (LSan).
 *   make fuzz       # runs every target in tools/fuzz (tools/fuzz/run.sh)
 * Seeds: tools/fuzz/corpus/post (tools/fuzz/make_seeds.py: real vanilla proofs with their header). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/post.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HDR 34

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const uint64_t SIZES[5] = {2048ull, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
    static const uint32_t COUNTS[4] = {0, 1, 2, 10};
    static const int APIS[4] = {0, 10, 11, 12};
    if (size < HDR) return 0;
    post_kind kind = (data[0] & 1) ? POST_WINDOW : POST_WINNING;
    post_params pp;
    cuzk_error e = {0};
    if (post_params_init(&pp, kind, SIZES[((data[0] >> 1) & 7) % 5], COUNTS[(data[0] >> 4) & 3], &e) != CUZK_OK) abort();
    if (APIS[data[0] >> 6]) pp.api_version = APIS[data[0] >> 6];
    uint64_t sector_index = data[1];
    const uint8_t *rnd = data + 2;
    size_t cap = kind == POST_WINNING ? pp.sector_count : 1;
    post_sector *secs = calloc(cap, sizeof *secs);
    if (!secs) return 0;
    size_t n = 0;
    cuzk_status st = post_vanilla_read(secs, &n, &pp, data + HDR, size - HDR, sector_index, &e);
    if (st != CUZK_OK) {
        if (n != 0 || !e.msg[0]) abort(); /* on error nothing is read and the reason is named */
        free(secs);
        return 0;
    }
    if (n != cap) abort();
    /* the parallel checker against the per-sector one: same first failure, same message */
    size_t bad = SIZE_MAX;
    cuzk_error e1 = {0}, e2 = {0};
    cuzk_status s1 = post_sectors_check(&pp, secs, n, sector_index, rnd, 1, &bad, &e1);
    cuzk_status s2 = CUZK_OK;
    size_t k2 = n;
    for (size_t k = 0; k < n && s2 == CUZK_OK; k++)
        if ((s2 = post_sector_check(&pp, &secs[k], rnd, sector_index + k, &e2)) != CUZK_OK) k2 = k;
    if (s1 != s2 || (s1 != CUZK_OK && strcmp(e1.msg, e2.msg) != 0)) {
        fprintf(stderr, "post_sectors_check: %d \"%s\"; post_sector_check: %d \"%s\"\n", s1, e1.msg, s2, e2.msg);
        abort();
    }
    if (s1 == CUZK_ERR_INVALID && bad != k2) abort();
    if (s1 == CUZK_OK && bad != n) abort();
    if (s1 == CUZK_OK && sector_index == 0) {
        fr *pub = malloc((size_t)pp.sector_count * (1 + pp.challenge_count) * sizeof *pub);
        if (pub) (void)post_public_inputs(pub, &pp, secs, n, 0, rnd, &e);
        free(pub);
    }
    for (size_t k = 0; k < n; k++) post_sector_free(&secs[k]);
    free(secs);
    return 0;
}
