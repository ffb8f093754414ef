/* The pre-decoded SRS cache: a bellperson .params file's points in cuzk's own memory layout
 * (issue 23 item 4, the cold start), kept next to the .params (`<params>.cuzk-srs`).
 *
 * Why: loading a .params decodes 47 GB of zcash-uncompressed big-endian points into Montgomery
 * little-endian limbs and checks each one (on the curve; optionally in the subgroup). The cache
 * holds the result of that work, so a load is a read of the bytes (parallel pread(2) straight
 * into the destination block, e.g. pinned memory) plus a checksum of them: memory speed from a
 * warm page cache, disk speed from a cold one. It is optional: without one, or with one that is
 * refused, the .params is decoded as before.
 *
 * Trust: the points of a cache are NOT checked again on load. A cache is used only when
 *   - its header is intact (magic, version, this build's layout: curve, point sizes, byte order,
 *     and a checksum over the header itself),
 *   - it was made from this very .params: same size, same modification time (st_mtim), and the
 *     same sampled content digest (a 64-bit hash of the file's first and last 64 KiB and of 256
 *     blocks of 4 KiB spread evenly over it), recorded when it was made,
 *   - the .params was verified, when the cache was made, at a check level >= the level asked
 *     for now (a cache made at the curve level does not serve a request for the full check),
 *   - and every 4 MiB chunk of its payload matches the checksum recorded for it (checked during
 *     the load, on all threads, as the bytes arrive).
 * Anything else refuses the cache with a log line that says why (stale, corrupt, truncated,
 * weaker check) and the .params is decoded with its checks. `cuzk srs-cache check --full`
 * decodes the .params again and compares it with the cache byte for byte.
 *
 * File layout (host byte order, which the header records; all offsets from the file's start):
 *   [0, 4096)        the header (srs_cache_header below), zero padded
 *   vk region        alpha1, beta1 (g1_affine), beta2, gamma2 (g2_affine), delta1 (g1_affine),
 *                    delta2 (g2_affine), then ic[n_ic] (g1_affine)
 *   G1 region        h, l, a, b_g1 as g1_affine arrays, each padded to 64 bytes: exactly the
 *                    block bellperson_params_decode makes (2 MiB aligned in the file)
 *   G2 region        b_g2 as g2_affine (2 MiB aligned)
 *   checksums        one u64 per SRS_CACHE_CHUNK bytes of each region in turn (vk, G1, G2)
 * The points are affine, Montgomery form (R = 2^384), 6 little-endian 64-bit limbs per Fp, as
 * src/curves/bls12_381/curve.h defines g1_affine / g2_affine: what the GPU prover uploads as is.
 * The counts are the decoded ones (an MPC file's points at infinity already dropped).
 *
 * Thread-safety: every function is reentrant. */
#ifndef CUZK_FORMATS_SRS_CACHE_H
#define CUZK_FORMATS_SRS_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "formats/bellperson.h"

#define SRS_CACHE_SUFFIX ".cuzk-srs"
#define SRS_CACHE_VERSION 1u
#define SRS_CACHE_HEADER_BYTES 4096u
#define SRS_CACHE_CHUNK ((uint64_t)4 << 20)
#define SRS_CACHE_ALIGN ((uint64_t)2 << 20)

/* What a cache's header says (decoded, host order). */
typedef struct srs_cache_info {
    uint32_t version;
    cuzk_check_level check;           /* the level the .params was verified at when the cache was made */
    bellperson_origin origin;
    bellperson_domain domain;
    uint32_t n_contributions;
    uint32_t n_ic, n_h, n_l, n_a, n_b_g1, n_b_g2;
    uint64_t params_size;             /* the .params it was made from */
    int64_t params_mtime_sec, params_mtime_nsec;
    uint64_t params_digest;           /* sampled content digest of that .params */
    uint64_t vk_off, vk_bytes, g1_off, g1_bytes, g2_off, g2_bytes, sums_off, n_sums;
    uint64_t file_bytes;              /* the whole cache file */
} srs_cache_info;

/* The cache path of params_path (params_path + SRS_CACHE_SUFFIX) into buf[cap]; -1 when it does
 * not fit, else its length. */
int srs_cache_path(char *buf, size_t cap, const char *params_path);

/* The sampled content digest of the file at path (see above) and its size; CUZK_ERR_IO when it
 * cannot be read. */
cuzk_status srs_cache_params_digest(const char *path, uint64_t *digest, uint64_t *size, cuzk_error *err);

/* Writes the cache of p (decoded from params_path, verified at `verified`: CURVE or FULL) to
 * cache_path: into a new temporary of a unique name (mkstemp) in its directory, then renamed, so a reader never sees half a file. The
 * .params must not have changed since p was decoded from it (its size, mtime and digest are read
 * now). nthreads <= 0: all. Errors: CUZK_ERR_ARG (NULL, p without a vk, verified NONE),
 * CUZK_ERR_IO (cannot write; errno kept), CUZK_ERR_NOMEM. */
cuzk_status srs_cache_write(const char *cache_path, const char *params_path, const bellperson_params *p,
                            cuzk_check_level verified, int nthreads, cuzk_error *err);

/* Reads and checks the header of cache_path against params_path, asking for level `check`
 * (DEFAULT: CURVE), reading no payload: CUZK_OK and *info filled (info may be NULL) when the
 * cache would be used. Errors, each message saying why:
 *   CUZK_ERR_IO        the cache (errno ENOENT: there is none) or the .params cannot be read
 *   CUZK_ERR_FORMAT    not a cache, another version or layout, a corrupt header, a size that
 *                      does not match the header (truncated)
 *   CUZK_ERR_MISMATCH  stale: made from another .params (size, mtime or digest differ); counts,
 *                      origin, domain or contribution count other than the .params' header says
 *                      (for an MPC file l, a, b_g1, b_g2 may be fewer: points at infinity
 *                      dropped); or verified at a lower level than `check` */
cuzk_status srs_cache_probe(const char *cache_path, const char *params_path, cuzk_check_level check,
                            srs_cache_info *info, cuzk_error *err);

/* Loads the parameters from cache_path (after srs_cache_probe's checks) into *p as
 * bellperson_params_decode would make them (o: allocator, g2_apart, nthreads; check as in
 * probe), verifying every chunk's checksum. Errors as srs_cache_probe, plus CUZK_ERR_FORMAT for
 * a chunk whose checksum differs (corrupt), CUZK_ERR_NOMEM; on error *p is zeroed. */
cuzk_status srs_cache_load(bellperson_params *p, const char *cache_path, const char *params_path,
                           const bellperson_load_opts *o, cuzk_error *err);

/* bellperson_params_load_ex's use: loads from o->cache_path (or the default path) when the cache
 * is there and valid; CUZK_OK then. Otherwise *p is zeroed and the status says why (no cache:
 * CUZK_ERR_IO quietly; a refused one is logged at WARN with its reason and the way to remake
 * it). CUZK_SRS_CACHE=off in the environment: CUZK_ERR_UNSUPPORTED, nothing read. */
cuzk_status srs_cache_try_load(bellperson_params *p, const char *params_path, const bellperson_load_opts *o);

/* The header of cache_path alone (no .params compared, no payload read): CUZK_OK and *info when
 * it is an intact cache header of this build's layout; else as srs_cache_probe's header errors. */
cuzk_status srs_cache_read_info(const char *cache_path, srs_cache_info *info, cuzk_error *err);

/* A few lines describing cache_path (version, level, counts, the .params it was made from:
 * params_hint names it when known, else its size and mtime) into buf[cap], as snprintf. */
int srs_cache_describe(char *buf, size_t cap, const char *cache_path, const char *params_hint);

/* For tests and tools (forging a cache as an attacker would): sets the header in page (the first
 * SRS_CACHE_HEADER_BYTES of a cache) to counts[0..8] = n_ic, n_h, n_l, n_a, n_b_g1, n_b_g2, origin,
 * domain, n_contributions (counts NULL: unchanged), recomputes the region offsets and sizes from
 * them and reseals its checksum. Returns the file size the header then says. */
uint64_t srs_cache_header_reseal(void *page, const uint32_t *counts);

/* Whether the file at path starts with a cache's magic: 1 yes, 0 no (another file, or shorter),
 * -1 it cannot be opened (errno kept). */
int srs_cache_is_cache(const char *path);

/* What the last srs_cache_try_load of this process did: 0 nothing (no cache, CUZK_SRS_CACHE=off,
 * or no load yet), 1 used a cache (buf: its path), 2 refused one (buf: the warning, with the
 * reason). buf may be NULL. Thread-safe (the last one wins when loads run concurrently). */
int srs_cache_last_use(char *buf, size_t cap);

/* The 64-bit checksum of the cache (four 64-bit lanes over 32-byte stripes, xxHash64's round and
 * merge: Collet, github.com/Cyan4973/xxHash; not bit-compatible with XXH64): for tests and tools. */
uint64_t srs_cache_hash(const void *data, size_t bytes, uint64_t seed);

#endif
