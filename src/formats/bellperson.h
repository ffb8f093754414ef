/* bellperson Groth16 parameter files (.params, .vk) and the 192-byte proof (DESIGN.md section 5).
 *
 * .params (no header, u32 counts big-endian, points zcash-uncompressed, none at infinity):
 *   vk: alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2; u32 n_ic + ic (G1);
 *   u32 + h (G1); u32 + l (G1); u32 + a (G1); u32 + b_g1 (G1); u32 + b_g2 (G2).
 * .vk is the vk part alone (through ic).
 * proof: A compressed G1 (48) | B compressed G2 (96) | C compressed G1 (48).
 * Compatible with bellperson's Parameters::write / read (filecoin-project/bellperson,
 * src/groth16/parameters.rs); a 32 GiB PoRep file is ~47 GB.
 *
 * Loading is two steps. (1) The layout: the counts are read and the file size is checked against
 * them to the byte, so a truncated or oversized file gives CUZK_ERR_FORMAT naming the section,
 * before any point is touched. (2) One parallel pass over every point of the file (all threads,
 * src/util/parallel.h; work handed out in file order in chunks of a few thousand points) that
 * decodes and checks at the requested cuzk_check_level. The error names the section and index of
 * the FIRST bad point in file order (lowest index; the same point whatever the thread count).
 *
 * Phase-2 MPC parameters (the Filecoin/zcash phase-2 ceremony format, also what `snarkjs zkey
 * export bellman` writes) are the same parameters followed by a trailer: the 64-byte circuit hash,
 * u32 (big-endian) number of contributions, and per contribution delta_after (G1), s (G1),
 * s_delta (G1), r_delta (G2), all uncompressed, and a 64-byte transcript hash (544 bytes). The
 * loader reads them as parameters (the trailer is checked for size, not verified: cuzk does not
 * check the ceremony). Two origins write this format, with different QAPs:
 *   bellman phase2 (Filecoin's ceremony): A/B queries without the points at infinity (like
 *     .params), Lagrange points on bellperson's roots of unity (7^t);
 *   snarkjs (`zkey export bellman`, tests/fixtures/FORMATS.md sections 3 and 5): the A/B queries
 *     hold a point for EVERY wire (the point at infinity, all zero bytes, where the wire is absent
 *     from A or B), so n_a = n_b_g1 = n_b_g2 = n_ic + n_l; the A/B/L/IC points are Lagrange
 *     evaluations on snarkjs's roots (5^t), and so the prover must interpolate the rows on those
 *     roots (bellperson_params.domain). The H points are the monomial ones [tau^i Z(tau)/delta]
 *     either way (the export converts them).
 * The origin is read from the layout: MPC trailer + unfiltered query counts = snarkjs. (A circuit
 * in which every wire occurs in both A and B would look unfiltered either way; Filecoin's circuits
 * never are.) The loader then drops the points at infinity from a, b_g1, b_g2 (bellperson's
 * density selection, which the prover applies); l keeps them (a wire in no constraint).
 *
 * Thread-safety: the functions are reentrant; a bellperson_params is not synchronized (read it
 * from any number of threads, write it from one).
 */
#ifndef CUZK_FORMATS_BELLPERSON_H
#define CUZK_FORMATS_BELLPERSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "formats/json.h"

/* Where a parameters file comes from (bellperson_layout.origin). */
typedef enum bellperson_origin {
    BELLPERSON_ORIGIN_PARAMS = 0,      /* plain .params (bellperson Parameters::write) */
    BELLPERSON_ORIGIN_MPC = 1,         /* phase-2 MPC parameters, bellman phase2 (filtered queries) */
    BELLPERSON_ORIGIN_MPC_SNARKJS = 2  /* phase-2 MPC parameters from `snarkjs zkey export bellman` */
} bellperson_origin;
/* "bellperson .params", "phase-2 MPC (bellman phase2)", "phase-2 MPC (snarkjs zkey export bellman)". */
const char *bellperson_origin_str(bellperson_origin o);

/* The roots of unity the QAP of the parameters is built on: the row c of the circuit is the
 * point omega^c. Values equal src/poly/ntt.h's ntt_roots (and src/cuda/gpu.h's gpu_roots). */
typedef enum bellperson_domain {
    BELLPERSON_DOMAIN_BELLMAN = 0,     /* 7^t: bellman, bellperson, blst (every .params) */
    BELLPERSON_DOMAIN_SNARKJS = 1      /* 5^t: snarkjs (BELLPERSON_ORIGIN_MPC_SNARKJS) */
} bellperson_domain;
/* "bellman (7^t)" or "snarkjs (5^t)". */
const char *bellperson_domain_str(bellperson_domain d);

/* Decoded parameters, host memory, Montgomery affine points (src/ec/ec.h).
 * Storage: when `block` is not NULL, h, l, a, b_g1 and b_g2 point into that one allocation of
 * block_bytes bytes (64-byte aligned, each array starting on a 64-byte boundary), released by
 * block_free(block_ctx, block, block_bytes), or free() when block_free is NULL; when g2_block is
 * set too (a load with bellperson_load_opts.g2_apart), b_g2 lives there instead (g2_block_bytes,
 * same allocator), so that the G1 queries can be freed alone (bellperson_params_take_g1) while
 * B_G2, which the CPU needs, stays. When both are NULL the five arrays are separate allocations
 * released with free() (what tests and setup build). vk.ic is always its own malloc'd array
 * (groth16_vk_free). */
typedef struct bellperson_params {
    groth16_vk vk;            /* alpha1, beta1, beta2, gamma2, delta1, delta2, ic */
    uint32_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    g1_affine *h;             /* n_h = m - 1: [tau^i Z(tau)/delta]_1 */
    g1_affine *l;             /* n_l = aux variables */
    g1_affine *a;             /* inputs then A-dense aux */
    g1_affine *b_g1;          /* B-dense inputs then B-dense aux */
    g2_affine *b_g2;
    void *block;
    size_t block_bytes;
    void *g2_block;           /* b_g2's own allocation (g2_apart), or NULL */
    size_t g2_block_bytes;
    void (*block_free)(void *ctx, void *ptr, size_t bytes);
    void *block_ctx;
    /* what the file was (zeroed struct: plain .params, bellman roots) */
    bellperson_origin origin;
    bellperson_domain domain;     /* the roots the prover interpolates the rows on */
    uint32_t n_contributions;     /* MPC files: contributions in the trailer */
    /* GPU provers that stream G1 queries from this host copy (src/groth16/memplan.h): while
     * nonzero the G1 queries must not be freed (cuzk_engine_release_host_g1 and
     * benchkit_drop_host_g1 keep them). Updated with atomics by the GPU prover only. */
    uint32_t g1_stream_borrows;
    /* Deferred queries (bellperson_load_opts.defer_queries): the file stays open here and h, l, a,
     * b_g1, b_g2 are NULL with their counts set until read (bellperson_params_read: straight into a
     * device's staging buffers) or brought into host memory (bellperson_params_materialize).
     * Owned: bellperson_params_free closes it and frees what it materialized. NULL: none. */
    struct bellperson_query_source *q_src;
} bellperson_params;

/* What the counts of a .params file say, checked against its size. */
typedef struct bellperson_layout {
    size_t file_bytes;
    uint32_t n_ic, n_h, n_l, n_a, n_b_g1, n_b_g2;
    size_t block_bytes;       /* the decoded points (bellperson_params.block, plus g2_block when apart) */
    size_t g1_bytes;          /* of which the G1 queries h, l, a, b_g1 (64-byte rounded each) */
    size_t host_bytes;        /* block_bytes + the decoded ic array: host memory of a load */
    /* MPC files (origin != PARAMS): the trailer after b_g2. The counts above are the file's
     * (for snarkjs: a, b_g1, b_g2 before the points at infinity are dropped, an upper bound). */
    bellperson_origin origin;
    bellperson_domain domain;
    uint32_t n_contributions;
    size_t params_bytes;      /* bytes up to the end of b_g2 (= file_bytes for a plain .params) */
} bellperson_layout;

/* Reads the counts of the .params (or MPC) bytes data[0, size) (a few header words; points
 * untouched). what: the name used in messages ("bellperson params /path"). Errors:
 * CUZK_ERR_FORMAT when the data ends before a count or inside a section ("truncated", "h claims N
 * points (B bytes), only L bytes left"), when bytes follow b_g2 that are no MPC trailer ("K
 * trailing bytes after b_g2"), when an MPC trailer is cut ("phase-2 MPC trailer: ... truncated"),
 * or when ic is empty; CUZK_ERR_CURVE when the bytes fit the BN254 (bn128) layout instead (64-byte
 * G1, 128-byte G2: `snarkjs zkey export bellman` of a bn128 zkey); CUZK_ERR_ARG for NULL out/what. */
cuzk_status bellperson_params_layout(bellperson_layout *out, const uint8_t *data, size_t size, const char *what,
                                     cuzk_error *err);

/* Options of a load; a zeroed struct is the default (CURVE checks, all threads, plain memory). */
/* Sets p's query counts and points h, l, a, b_g1 into `block` in this order, each array rounded
 * up to 64 bytes (the layout bellperson_params_load decodes into and the SRS cache stores:
 * bellperson_layout.g1_bytes), and b_g2 into g2_block, or right after b_g1 in `block` when
 * g2_block is NULL. A count of 0 gives a NULL array. Neither block is owned or freed here. */
void bellperson_params_bind_block(bellperson_params *p, uint8_t *block, void *g2_block, uint32_t n_h, uint32_t n_l,
                                  uint32_t n_a, uint32_t n_b_g1, uint32_t n_b_g2);

typedef struct bellperson_load_opts {
    cuzk_check_level check;
    int nthreads;                 /* 0: cuzk_num_threads() */
    cuzk_progress_fn progress;    /* NULL: none. Bytes are file bytes; `what` is a section name */
    void *progress_user;
    /* Allocator of the decoded block (e.g. pinned host memory): alloc(ctx, bytes) returns at
     * least 64-byte aligned memory or NULL; free(ctx, ptr, bytes) releases it and is stored in
     * the result as block_free. alloc NULL: aligned_alloc / free. */
    void *(*alloc)(void *ctx, size_t bytes);
    void (*free)(void *ctx, void *ptr, size_t bytes);
    void *alloc_ctx;
    /* 1: b_g2 in an allocation of its own (bellperson_params.g2_block), so the G1 queries can be
     * freed alone once they live elsewhere (a GPU). 0: one block. */
    int g2_apart;
    /* 1: `data` is a read-only private file mapping (mapped_file.h) the caller keeps, and the
     * decode drops each part of it from this process as soon as it is read (madvise
     * MADV_DONTNEED: the pages leave the process's resident set, the file and the page cache keep
     * them; a later read faults them back in). So decoding a 47 GB file does not add 47 GB of
     * mapped pages to the peak RSS. Never set it for anonymous memory: it would be zeroed. */
    int release_input;
    /* bellperson_params_load_ex only: 1 reads the points through the file's mapping (page faults;
     * release_input applies) instead of pread(2) into a buffer per thread (the default: no page
     * faults on the input, no madvise, no TLB shootdowns between the decoding threads). */
    int use_mmap;
    /* bellperson_params_load_ex only (p not NULL): 1 ignores a pre-decoded cache next to the file
     * (src/formats/srs_cache.h); 0 loads from it when one is there and valid (made from this very
     * file, verified at a level >= check), else decodes the file (a stale or corrupt cache is
     * refused with a log line saying why). The environment CUZK_SRS_CACHE=off does what 1 does.
     * cache_path: NULL for the file's path + SRS_CACHE_SUFFIX. */
    int no_cache;
    const char *cache_path;
    /* bellperson_params_load_ex only (p not NULL): 1 decodes and checks the vk and ic only and
     * leaves the queries h, l, a, b_g1 and b_g2 in the file (bellperson_params.q_src; their points
     * are checked, at `check`, when they are read): a GPU prover decodes them chunk by chunk
     * straight into its device copy (groth16_gpu_prover_create), so the host never holds the ~45
     * GB of points of a 32 GiB PoRep file, and the file is read once. Not deferred (decoded whole,
     * as with 0): a valid pre-decoded cache (read whole: faster than a decode), snarkjs-exported
     * MPC files (their points at infinity are dropped at load), loads without a file descriptor
     * (use_mmap, bellperson_params_decode of memory). */
    int defer_queries;
} bellperson_load_opts;

/* The decoded block's memory as bellperson_params_decode takes it: o->alloc when set, else
 * 64-byte aligned host memory (2 MiB aligned, transparent huge pages asked for, when large); and
 * its release (o->free, or free()). For the loaders of this layer (srs_cache.c). */
void *bellperson_block_alloc(const bellperson_load_opts *o, size_t bytes);
void bellperson_block_free(const bellperson_load_opts *o, void *ptr, size_t bytes);

/* Decodes (and checks, at opts->check) the .params bytes data[0, size) into *p; p NULL: check
 * only (nothing is allocated but a few KiB). opts NULL: defaults. The data may be a mapped file
 * (mapped_file.h); it is read once, front to back, by all threads.
 * MPC files: the points at infinity (all zero bytes, or the 0x40 flag and zeros) are accepted in
 * l, a, b_g1 and b_g2 (only there; vk, ic and h are checked as in a .params); on return a, b_g1
 * and b_g2 hold only the finite points (n_a, n_b_g1, n_b_g2 count those), and origin, domain and
 * n_contributions say what the file was.
 * Errors (on error *p is zeroed, nothing is held):
 *   CUZK_ERR_FORMAT  as bellperson_params_layout
 *   CUZK_ERR_POINT   "<what>: <section> point <index>: <why>" for the first bad point in file
 *                    order (vk points are named without an index: "vk beta_g1: not on the curve")
 *   CUZK_ERR_NOMEM   the block or ic array could not be allocated
 *   CUZK_ERR_ARG     NULL data with size > 0, NULL what */
cuzk_status bellperson_params_decode(bellperson_params *p, const uint8_t *data, size_t size, const char *what,
                                     const bellperson_load_opts *opts, cuzk_error *err);

/* = bellperson_params_decode, except that with fd >= 0 (the same file, open for reading) the
 * points are read with pread(2) into a buffer per thread rather than through `data` (which is
 * then read for the layout and the error message only; release_input is not needed). A read that
 * fails: CUZK_ERR_IO. */
cuzk_status bellperson_params_decode_fd(bellperson_params *p, const uint8_t *data, size_t size, int fd, const char *what,
                                        const bellperson_load_opts *opts, cuzk_error *err);

/* Loads the parameters of path: from its pre-decoded cache when there is a valid one (see
 * opts->no_cache), else maps the file (mapped_file.h) for the layout and decodes its points with
 * bellperson_params_decode_fd (pread on all threads; opts->use_mmap: through the mapping).
 * CUZK_ERR_IO when it cannot be opened, mapped or read. Nothing stays mapped or open. */
cuzk_status bellperson_params_load_ex(bellperson_params *p, const char *path, const bellperson_load_opts *opts,
                                      cuzk_error *err);
/* = load_ex with check CURVE (check_subgroup false) or FULL (true), all threads, no progress. */
cuzk_status bellperson_params_load(bellperson_params *p, const char *path, bool check_subgroup, cuzk_error *err);
/* Releases what *p holds (block or arrays, vk.ic) and zeroes it. NULL and zeroed are fine. */
void bellperson_params_free(bellperson_params *p);
/* Moves the G1 queries of p (loaded with g2_apart: its `block`) into *g1 (zeroed first; its
 * h, l, a, b_g1, block and allocator are set, counts and vk are not), for the caller to free with
 * bellperson_params_free(g1) when it likes (e.g. on a reaper). p keeps its counts, vk and b_g2,
 * with h, l, a, b_g1 NULL. A deferred load (q_src): the G1 arrays materialized from the file move
 * (as separate arrays); the queries can be read from the file again. Returns the bytes moved; 0
 * (and nothing moved) when p has no separate G1 block (not loaded with g2_apart, or already
 * taken) or a GPU prover streams them (g1_stream_borrows). */
size_t bellperson_params_take_g1(bellperson_params *p, bellperson_params *g1);
/* Host bytes *p holds (block or arrays, plus ic, plus queries materialized from q_src). */
size_t bellperson_params_host_bytes(const bellperson_params *p);

/* The queries in the order of groth16_query and src/groth16/memplan.h (A, B_G1, L, H, B_G2). */
enum { BELLPERSON_Q_A = 0, BELLPERSON_Q_B1 = 1, BELLPERSON_Q_L = 2, BELLPERSON_Q_H = 3, BELLPERSON_Q_B2 = 4, BELLPERSON_NQ = 5 };

/* True when p's queries were deferred at load (p->q_src) and query q (BELLPERSON_Q_*) has points
 * but is not in host memory: read it with bellperson_params_read. Reads the array atomically. */
bool bellperson_params_in_file(const bellperson_params *p, int q);

/* Decodes points [first, first + n) of query q (BELLPERSON_Q_*) of a deferred load from the file
 * into dst (n affine points, Montgomery: g1_affine, or g2_affine for BELLPERSON_Q_B2: the layout of
 * the decoded arrays), checking them at the load's check level, on nthreads threads (0: all CPUs).
 * Reads the file with pread(2) (no mapping, nothing kept). Errors: CUZK_ERR_ARG (p has no q_src,
 * q or the range out of bounds, NULL dst with n > 0), CUZK_ERR_IO (a read failed: the file changed
 * or went away since the load), CUZK_ERR_POINT ("bellperson params PATH: h point I: not on the
 * curve": the lowest bad point of the range, I its index in the query), CUZK_ERR_NOMEM.
 * Thread-safe (several ranges at once). */
cuzk_status bellperson_params_read(const bellperson_params *p, int q, size_t first, size_t n, void *dst, int nthreads,
                                   cuzk_error *err);

/* Brings the deferred queries whose bit (1 << BELLPERSON_Q_*) is in mask into host memory (plain
 * memory, huge pages asked for; owned by p->q_src, freed by bellperson_params_free), for a CPU
 * prover, a GPU plan that streams a query from the host or runs B_G2 on CPU threads. Queries
 * already there are skipped; no q_src: CUZK_OK (nothing deferred). Each array is published with an
 * atomic store once whole, so readers that saw NULL read the file instead. Errors as
 * bellperson_params_read (nothing of the failed query is kept). Thread-safe (one caller decodes,
 * the others wait). */
cuzk_status bellperson_params_materialize(bellperson_params *p, unsigned mask, int nthreads, cuzk_error *err);

/* Writes a plain .params (no MPC trailer). CUZK_ERR_UNSUPPORTED for parameters on snarkjs's roots
 * (domain SNARKJS: a .params cannot say so, and would be proved on the wrong roots). */
cuzk_status bellperson_params_write(const char *path, const bellperson_params *p, cuzk_error *err);

cuzk_status bellperson_vk_write(const char *path, const groth16_vk *vk, cuzk_error *err);

/* Streaming writer: a .params (or .vk) file written piece by piece in file order, so that a
 * generator can write each point list as soon as it is computed and free it (parameter
 * generation at 2^27 does not hold all 47 GB at once). Usage:
 *   open; vk; then for each of h, l, a, b_g1: count(n) + g1s(...) (one or several calls
 *   totalling n points); count(n) + g2s(...) for b_g2; close.
 * The writer does not check that the counts match the points that follow (the loader does).
 * g1s/g2s encode zcash-uncompressed big-endian points in blocks over nthreads threads (<= 0: all
 * CPUs). Write errors are sticky: the calls after one do nothing, and close reports it
 * (CUZK_ERR_IO with errno). close always closes the file and frees w; the caller removes a
 * partial file. Not thread-safe per writer. */
typedef struct bellperson_writer bellperson_writer;
cuzk_status bellperson_writer_open(bellperson_writer **w, const char *path, cuzk_error *err);
void bellperson_writer_vk(bellperson_writer *w, const groth16_vk *vk); /* 6 points, u32 + ic */
void bellperson_writer_count(bellperson_writer *w, uint32_t n);        /* u32 big-endian */
void bellperson_writer_g1s(bellperson_writer *w, const g1_affine *p, size_t n, int nthreads);
void bellperson_writer_g2s(bellperson_writer *w, const g2_affine *p, size_t n, int nthreads);
uint64_t bellperson_writer_bytes(const bellperson_writer *w);          /* written so far */
cuzk_status bellperson_writer_close(bellperson_writer *w, const char *path, cuzk_error *err);
/* A .vk file, or the vk at the front of a phase-2 MPC parameters file (its whole layout is checked
 * first, points untouched but the vk's). A plain .params is refused (give its .vk). */
cuzk_status bellperson_vk_load(groth16_vk *vk, const char *path, cuzk_error *err);
/* bellperson_vk_load of a .vk (or MPC) image of size bytes in memory; `what` names it in messages. */
cuzk_status bellperson_vk_decode(groth16_vk *vk, const uint8_t *data, size_t size, const char *what, cuzk_error *err);

#define BELLPERSON_PROOF_BYTES 192
void bellperson_proof_encode(uint8_t out[192], const groth16_proof *p);
/* CUZK_ERR_FORMAT for a bad encoding, CUZK_ERR_POINT if off-curve or not in the subgroup. */
cuzk_status bellperson_proof_decode(groth16_proof *p, const uint8_t in[192], cuzk_error *err);

#endif
