/* The device memory plan of a bellperson GPU prover (issue 23 item 1).
 *
 * Decided once, when a circuit is bound to a device (preload), before anything is uploaded: from
 * the device bytes the circuit may use (the device's free memory, or the engine's GPU budget when
 * smaller), the parameters' query sizes and the proof's vectors, it says
 *   - which SRS queries stay resident on the device and which stream from (page-locked) host
 *     memory in chunks each proof (src/cuda/gpu.h "Streamed bases": chunk i + 1 copied while chunk
 *     i's MSM runs);
 *   - the MSMs' tail chunk (the window follows it: gpu_msm_window_bits) and the streamed chunks;
 *   - one proof's device peak: the size of the prover's arena (src/cuda/gpu.h gpu_ctx_arena_set),
 *     from which every device temporary of a proof is taken, so that a proof cannot run out of
 *     device memory once the plan is made;
 *   - where the B_G2 MSM runs: on the device (its query resident, or streamed in chunks) before
 *     ever on CPU threads.
 * A budget too small for any plan is refused with the bytes the smallest plan needs.
 *
 * The model of one proof (the order of src/groth16/prove_impl.h's stages and of the GPU
 * prover's buffers, which live on the arena as a stack):
 *   upload, a/b/c, H:  witness (n_vars Fr) + a, b, c (m Fr each);
 *   after H, b and c are given back: the four G1 MSMs run one after another with the witness,
 *   the H scalars (m Fr) and the largest MSM's scratch (a streamed one: its two staging buffers
 *   and the scratch of one chunk);
 *   after the H MSM the H scalars are given back: B_G2 on the device with the witness and the G2
 *   MSM's scratch.
 * Resident: the queries kept there, the circuit (matrices, selection lists), the NTT tables.
 *
 * The matrices stream last: when no plan fits with them resident, even with every query streamed
 * (a 32 GiB PoRep or WindowPoSt partition within 24 GiB: the witness and a/b/c are 15.9 GiB), only
 * their coefficient tables stay and a/b/c are computed from row blocks copied through two staging
 * buffers (src/cuda/gpu_r1cs.h gpu_r1cs_attach_host), ~8-12 GiB over the bus a proof; queries
 * then stream in the order below only as far as needed beside them.
 *
 * Last of all (no plan fits with the matrices streamed), the lean H: the witness and a/b/c of one
 * proof (15.9 GiB at 2^27) are what a 16 GiB card cannot hold, so c, b and a are summed one at a
 * time into one device vector beside the witness, c and b copied to page-locked host memory, the
 * witness is given back, b comes up again, H runs on two device vectors (c up into b's place after
 * a*b: src/cuda/gpu_h_parked.h) and the witness goes up again for the MSMs: ~20 GB more over the
 * bus a proof (8 GiB down, 12 up at 2^27), the H step's peak max(witness + one vector, two
 * vectors) instead of witness + three.
 *
 * Which queries stream first: H, then B_G2, L, A, B_G1. H's scalars are the H polynomial's
 * coefficients, uniform in Fr, so its MSM is a full Pippenger (about 6 ns a point on an H200)
 * that hides the copy of its points (96 bytes, about 2 ns a point at 50 GB/s); A, B and L take
 * the witness's values, mostly 0 or 1 in PoRep (about 0.5 ns a point), where a streamed query
 * would wait for the bus. B_G2 is next: twice the bytes a point but one MSM of n_b points, fast
 * on the device and 100x slower on CPU threads (bench/RESULTS.md section 24). Fewer streamed
 * queries are preferred to a smaller MSM chunk below 2^24 points (2^25 -> 2^24 costs ~10 % of
 * the H MSM; smaller chunks cost more than a streamed H).
 *
 * Pure host arithmetic: no CUDA (the MSM scratch sizes come through a callback: the device code's
 * gpu_g1_msm_scratch_bytes family in the prover, memplan_model_scratch in tests and without
 * CUDA), so it is unit-tested on fake device sizes (tests/test_memplan.c). Thread-safe. */
#ifndef CUZK_GROTH16_MEMPLAN_H
#define CUZK_GROTH16_MEMPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The SRS queries of a bellperson prover, in the order of groth16_query (A, B_G1, L, H) and B_G2. */
enum { MEMPLAN_A = 0, MEMPLAN_B1 = 1, MEMPLAN_L = 2, MEMPLAN_H = 3, MEMPLAN_B2 = 4, MEMPLAN_NQ = 5 };

typedef enum {
    MEMPLAN_RESIDENT = 0,     /* uploaded once, at the plan */
    MEMPLAN_STREAMED = 1,     /* copied from page-locked host memory in chunks, each proof */
    MEMPLAN_HOST_THREADS = 2  /* B_G2 only: the MSM runs on CPU threads (the query stays on the host) */
} memplan_place;

/* Device bytes one MSM takes at its peak (the device code's bound: gpu_g1_msm_scratch_bytes,
 * gpu_g1_msm_stream_scratch_bytes, and their G2 forms): g2 0 for G1, 1 for G2; streamed: the two
 * staging buffers of stream_points points and the scratch of one chunk; window_bits 0: automatic
 * (gpu_msm_window_bits of the chunk); chunk_points: the tail's chunk. */
typedef size_t (*memplan_scratch_fn)(void *ctx, int g2, int streamed, size_t n, int window_bits, size_t chunk_points,
                                     size_t stream_points);

typedef struct memplan_input {
    size_t budget_bytes;          /* device bytes the circuit may use, given queries included */
    size_t n[MEMPLAN_NQ];         /* points of each query */
    size_t g1_bytes, g2_bytes;    /* bytes of an affine point (BLS12-381: 96, 192) */
    size_t fr_bytes;              /* bytes of an Fr value (32) */
    size_t n_vars;                /* witness values */
    size_t m;                     /* the domain (a power of two) */
    size_t circuit_bytes;         /* resident matrices and selection lists */
    size_t circuit_min_bytes;     /* what stays resident when the matrices stream (their
                                     coefficient tables and the selection lists) */
    size_t circuit_stage_bytes;   /* the staging buffers of the streamed a/b/c (the arena, during the
                                     H step); 0: the matrices cannot stream (always resident) */
    size_t tables_bytes;          /* the NTT / H tables of the domain (cached per device) */
    unsigned given;               /* bit q: query q is already resident (a borrowed SRS): kept,
                                     counted in the budget, never streamed */
    bool park_ok;                 /* the prover can park a, b, c in page-locked host memory for the
                                     H step (the lean H: memplan.h's top) */
    bool park_always;             /* with park_ok: only plans with the lean H (tests, experiments) */
    int b2_want;                  /* B_G2: -1 CPU threads, 0 automatic (the device first), 1 the device */
    int window_bits;              /* the user's MSM window (0: automatic) */
    size_t chunk_points;          /* the user's MSM tail chunk (0: the plan chooses) */
    size_t stream_points;         /* the user's streamed chunk (0: the plan chooses) */
    size_t margin_bytes;          /* kept free within the budget for what no plan counts (CUDA's
                                     lazily loaded kernels, small pool allocations): the prover
                                     takes its device margin off the free memory instead and
                                     passes 0 here, so that an engine's GPU budget is the need */
    memplan_scratch_fn scratch;   /* NULL: memplan_model_scratch */
    void *scratch_ctx;
} memplan_input;

typedef struct memplan {
    bool fits;                        /* false: no plan fits the budget (min_need_bytes says how much) */
    memplan_place place[MEMPLAN_NQ];
    memplan_place circuit;            /* the matrices: RESIDENT, or STREAMED (row blocks copied from
                                         page-locked host memory for a/b/c, each proof) when no plan
                                         with them resident fits */
    bool h_parked;                    /* the lean H: a, b, c summed one at a time beside the witness
                                         and parked in page-locked host memory (park_bytes), the
                                         witness given back during H (two vectors on the device),
                                         uploaded again for the MSMs */
    size_t park_bytes;                /* host bytes the lean H parks c and b in (2 m Fr), 0 without */
    size_t chunk_points;              /* the MSMs' tail chunk */
    int window_bits;                  /* the MSMs' window (0: automatic for each MSM) */
    int chunk_window_bits;            /* the window of a full chunk (memplan_window_bits, or the user's) */
    size_t stream_points[2];          /* G1 / G2 points per streamed chunk (0: that group streams nothing) */
    size_t q_bytes[MEMPLAN_NQ];       /* the bytes of each query (points x point size) */
    size_t query_bytes;               /* resident query bytes (given ones included) */
    size_t resident_bytes;            /* query_bytes + circuit + tables */
    size_t arena_bytes;               /* one proof's device peak: the arena */
    size_t phase_bytes[3];            /* the peak of: upload/a,b,c/H; the G1 MSMs; B_G2 on the device */
    size_t margin_bytes;
    size_t need_bytes;                /* resident + arena + margin (<= budget when fits) */
    size_t budget_bytes;
    size_t min_need_bytes;            /* the need of the leanest plan (every query streamed,
                                         the smallest chunks): the budget a refusal asks for */
    size_t streamed_bytes;            /* bytes copied host -> device per proof (queries and matrices) */
} memplan;

/* *out = the plan for in (see the top of this file); out->fits false when none fits
 * in->budget_bytes, with out->min_need_bytes the least any plan needs (and the rest of *out the
 * leanest plan). */
void memplan_make(memplan *out, const memplan_input *in);

/* Recomputes the bytes of p (query_bytes .. need_bytes, fits, budget_bytes) for in, keeping its
 * places, chunks, window and margin: a plan changed after memplan_make (B_G2 moved, another MSM
 * tuning). */
void memplan_eval(memplan *p, const memplan_input *in);

/* One line describing p ("resident A B1 L B2, streamed H (chunks of 2^24); MSM chunk 2^25 window
 * 20; arena 18.80 GiB; need 74.1 of 79.1 GiB"), NUL-terminated into buf[cap]. Returns the length
 * it wanted (snprintf's). */
int memplan_describe(const memplan *p, char *buf, size_t cap);

/* The name of query q ("A", "B1", "L", "H", "B2"). */
const char *memplan_query_name(int q);

/* The device code's rule for the window of a tail of n points: src/cuda/gpu.h
 * gpu_msm_window_bits (one inline rule, usable without CUDA), for plans and logs. */
int memplan_window_bits(size_t n);

/* A model of the MSM scratch of src/cuda/gpu_msm.cu (the same buffers; CUB's temporary storage
 * taken as 64 MiB + 1/16 of the sort's pairs): the scratch callback of tests and of builds without
 * CUDA. ctx unused. */
size_t memplan_model_scratch(void *ctx, int g2, int streamed, size_t n, int window_bits, size_t chunk_points,
                             size_t stream_points);

#endif
