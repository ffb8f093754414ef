/* The device memory plan of a bellperson GPU prover: src/groth16/memplan.h. */
#include "groth16/memplan.h"

#include "cuda/gpu.h" /* gpu_msm_window_bits: plain C, inline */

#include <stdio.h>
#include <string.h>

#define GIB 1073741824.0
#define ALIGN ((size_t)512) /* the arena's alignment of a block (src/cuda/gpu_ctx.cu) */
#define DEFAULT_CHUNK ((size_t)1 << 25)

static const char *const q_name[MEMPLAN_NQ] = {"A", "B1", "L", "H", "B2"};
const char *memplan_query_name(int q) { return q >= 0 && q < MEMPLAN_NQ ? q_name[q] : "?"; }

int memplan_window_bits(size_t n) { return gpu_msm_window_bits(n); }

size_t memplan_model_scratch(void *ctx, int g2, int streamed, size_t n, int window_bits, size_t chunk_points,
                             size_t stream_points) {
    (void)ctx;
    if (n == 0) return 0;
    const size_t aff = g2 ? 192 : 96, pt = g2 ? 384 : 192; /* BLS12-381: affine, XYZZ point bytes */
    const size_t cmax = chunk_points ? (chunk_points < 64 ? 64 : chunk_points) : DEFAULT_CHUNK;
    if (streamed) {
        size_t S = stream_points ? (stream_points < 64 ? 64 : stream_points) : cmax;
        if (S > n) S = n;
        const size_t nbuf = S < n ? 2 : 1;
        return nbuf * (S * aff + ALIGN) + memplan_model_scratch(ctx, g2, 0, S, window_bits, chunk_points, 0);
    }
    const size_t cn = n < cmax ? n : cmax;
    const int c = window_bits > 0 ? (window_bits < 2 ? 2 : window_bits > 22 ? 22 : window_bits) : memplan_window_bits(cn);
    const size_t W = (size_t)(255 / c + 1), nbw = (size_t)1 << (c - 1), nb = W * nbw, npairs = cn * W;
    const size_t avg = cn / nbw, K = 2 * avg > 32 ? 2 * avg : 32;
    const size_t max_tasks = npairs / (K < 256 ? K : 256) + nb + 1;
    size_t R = npairs >> 18;
    R = R < 16 ? 16 : R > 256 ? 256 : R;
    const size_t nthreads = (npairs + R - 1) / R, parts = max_tasks > 2 * nthreads ? max_tasks : 2 * nthreads;
    const size_t L = nbw < 16 ? nbw : 16, seg = nbw / L;
    const size_t T = (size_t)2048 * 256, cub = ((size_t)64 << 20) + npairs * 4 / 16;
    size_t b = 2 * n * 4 + 8 + (T + T / 4 + 2) * pt + cub;
    b += 4 * npairs * 4 + 9 * (nb + 1) * 4 + 4 + max_tasks * 4 + cub;
    b += (parts + nb + 2 * W * seg) * pt;
    return b + 32 * ALIGN;
}

static size_t point_bytes(const memplan_input *in, int q) { return q == MEMPLAN_B2 ? in->g2_bytes : in->g1_bytes; }

void memplan_eval(memplan *p, const memplan_input *in) {
    memplan_scratch_fn sf = in->scratch ? in->scratch : memplan_model_scratch;
    const size_t vw = in->n_vars * in->fr_bytes + ALIGN, vm = in->m * in->fr_bytes + ALIGN;
    p->query_bytes = 0;
    p->streamed_bytes = 0;
    for (int q = 0; q < MEMPLAN_NQ; q++) {
        p->q_bytes[q] = in->n[q] * point_bytes(in, q);
        if (p->place[q] == MEMPLAN_RESIDENT || ((in->given >> q) & 1)) p->query_bytes += in->n[q] * point_bytes(in, q);
        if (p->place[q] == MEMPLAN_STREAMED) p->streamed_bytes += in->n[q] * point_bytes(in, q);
    }
    const bool cs_streamed = p->circuit == MEMPLAN_STREAMED;
    p->resident_bytes = p->query_bytes + (cs_streamed ? in->circuit_min_bytes : in->circuit_bytes) + in->tables_bytes;
    if (cs_streamed) p->streamed_bytes += in->circuit_bytes - in->circuit_min_bytes;
    const size_t stage = cs_streamed ? in->circuit_stage_bytes : 0;
    p->phase_bytes[0] = vw + 3 * vm + stage;
    p->park_bytes = 0;
    if (p->h_parked) { /* one vector beside the witness (and the staging), then two */
        p->phase_bytes[0] = vw + vm + stage > 2 * vm ? vw + vm + stage : 2 * vm;
        p->park_bytes = 2 * in->m * in->fr_bytes; /* c and b wait there (a stays on the device) */
        p->streamed_bytes += 2 * in->m * in->fr_bytes + in->n_vars * in->fr_bytes;
    }
    p->phase_bytes[1] = 0;
    for (int q = MEMPLAN_A; q <= MEMPLAN_H; q++) {
        if (!in->n[q]) continue;
        const int st = p->place[q] == MEMPLAN_STREAMED;
        size_t b = vw + vm + sf(in->scratch_ctx, 0, st, in->n[q], p->window_bits, p->chunk_points, st ? p->stream_points[0] : 0);
        if (b > p->phase_bytes[1]) p->phase_bytes[1] = b;
    }
    p->phase_bytes[2] = 0;
    if (p->place[MEMPLAN_B2] != MEMPLAN_HOST_THREADS && in->n[MEMPLAN_B2]) {
        const int st = p->place[MEMPLAN_B2] == MEMPLAN_STREAMED;
        /* the lean H leaves the H scalars below the witness on the arena's stack: given back
         * before B_G2, they are not popped, so they count here */
        p->phase_bytes[2] = vw + (p->h_parked ? vm : 0) +
                            sf(in->scratch_ctx, 1, st, in->n[MEMPLAN_B2], p->window_bits, p->chunk_points,
                               st ? p->stream_points[1] : 0);
    }
    p->arena_bytes = p->phase_bytes[0];
    if (p->phase_bytes[1] > p->arena_bytes) p->arena_bytes = p->phase_bytes[1];
    if (p->phase_bytes[2] > p->arena_bytes) p->arena_bytes = p->phase_bytes[2];
    p->need_bytes = p->resident_bytes + p->arena_bytes + p->margin_bytes;
    p->budget_bytes = in->budget_bytes;
    p->fits = p->need_bytes <= in->budget_bytes;
    p->chunk_window_bits = p->window_bits > 0 ? p->window_bits : memplan_window_bits(p->chunk_points);
}

/* the order in which queries stream (memplan.h says why) */
static const int stream_order[MEMPLAN_NQ] = {MEMPLAN_H, MEMPLAN_B2, MEMPLAN_L, MEMPLAN_A, MEMPLAN_B1};

/* places of a plan that streams the first k streamable queries of stream_order; b2: the B_G2
 * place when it is not streamed (RESIDENT or HOST_THREADS) */
static int set_places(memplan *p, const memplan_input *in, int k, memplan_place b2) {
    for (int q = 0; q < MEMPLAN_NQ; q++) p->place[q] = MEMPLAN_RESIDENT;
    p->place[MEMPLAN_B2] = b2;
    int done = 0;
    for (int i = 0; i < MEMPLAN_NQ && done < k; i++) {
        const int q = stream_order[i];
        if ((in->given >> q) & 1) continue;
        if (q == MEMPLAN_B2 && b2 == MEMPLAN_HOST_THREADS) continue;
        p->place[q] = MEMPLAN_STREAMED;
        done++;
    }
    return done;
}

/* how many queries can stream at most */
static int streamable(const memplan_input *in, memplan_place b2) {
    int k = 0;
    for (int q = 0; q < MEMPLAN_NQ; q++)
        if (!((in->given >> q) & 1) && !(q == MEMPLAN_B2 && b2 == MEMPLAN_HOST_THREADS)) k++;
    return k;
}

/* At most this many chunks a streamed query: each chunk is one MSM with its own launches and host
 * waits (~0.3 ms), so tiny chunks over a large query would cost seconds. */
#define MAX_STREAM_CHUNKS 256

/* the streamed queries of p have at most MAX_STREAM_CHUNKS chunks each */
static bool chunks_ok(const memplan *p, const memplan_input *in) {
    for (int q = 0; q < MEMPLAN_NQ; q++) {
        if (p->place[q] != MEMPLAN_STREAMED) continue;
        const size_t S = p->stream_points[q == MEMPLAN_B2 ? 1 : 0];
        if (S && in->n[q] > MAX_STREAM_CHUNKS * S) return false;
    }
    return true;
}

void memplan_make(memplan *out, const memplan_input *in) {
    memset(out, 0, sizeof *out);
    static const size_t chunks[] = {(size_t)1 << 25, (size_t)1 << 24, (size_t)1 << 23, (size_t)1 << 22,
                                    (size_t)1 << 21, (size_t)1 << 20};
    enum { N_CHUNKS = sizeof chunks / sizeof *chunks, BIG = 2 };
    /* streamed chunks (G1, G2): at most 2^24 G1 points (two staging buffers of 1.5 GiB) */
    static const size_t streams[][2] = {{(size_t)1 << 24, (size_t)1 << 23}, {(size_t)1 << 23, (size_t)1 << 22},
                                        {(size_t)1 << 22, (size_t)1 << 21}, {(size_t)1 << 21, (size_t)1 << 20},
                                        {(size_t)1 << 20, (size_t)1 << 19}, {(size_t)1 << 18, (size_t)1 << 17},
                                        {(size_t)1 << 16, (size_t)1 << 15}, {(size_t)1 << 14, (size_t)1 << 13},
                                        {(size_t)1 << 12, (size_t)1 << 11}};
    enum { N_STREAMS = sizeof streams / sizeof *streams };
    const size_t margin = in->margin_bytes;
    const size_t user_chunk[1] = {in->chunk_points};
    const size_t *cl = in->chunk_points ? user_chunk : chunks;
    const int ncl = in->chunk_points ? 1 : N_CHUNKS;
    const int tiers[2][2] = {{0, ncl < BIG ? ncl : BIG}, {ncl < BIG ? ncl : BIG, ncl}};
    memplan_place b2opts[2];
    int nb2 = 0;
    if (in->b2_want >= 0) b2opts[nb2++] = MEMPLAN_RESIDENT;
    if (in->b2_want <= 0) b2opts[nb2++] = MEMPLAN_HOST_THREADS;

    memplan p;
    memset(&p, 0, sizeof p);
    p.margin_bytes = margin;
    p.budget_bytes = in->budget_bytes;
    p.window_bits = in->window_bits > 0 ? in->window_bits : 0;

    /* the leanest plan (every query streamed, the smallest chunks; B_G2 on CPU threads when
     * allowed): what a refusal asks for */
    memplan lean = p;
    {
        const memplan_place b2 = b2opts[nb2 - 1];
        set_places(&lean, in, streamable(in, b2), b2);
        lean.circuit = in->circuit_stage_bytes ? MEMPLAN_STREAMED : MEMPLAN_RESIDENT;
        lean.h_parked = in->park_ok;
        lean.chunk_points = cl[ncl - 1];
        for (int si = N_STREAMS - 1; si >= 0; si--) { /* the smallest chunks within MAX_STREAM_CHUNKS */
            lean.stream_points[0] = in->stream_points ? in->stream_points : streams[si][0];
            lean.stream_points[1] = in->stream_points ? in->stream_points : streams[si][1];
            if (in->stream_points || chunks_ok(&lean, in)) break;
        }
        memplan_eval(&lean, in);
    }

    /* the matrices stream last: only when no plan fits with them resident (memplan.h), and then
     * with as few queries streamed as fit beside them; B_G2 goes to CPU threads only after both */
    /* mode 0: matrices resident; 1: streamed; 2: streamed (when they can) and the lean H */
    for (int bi = 0; bi < nb2; bi++) {
        const memplan_place b2 = b2opts[bi];
        const int kmax = streamable(in, b2);
        for (int mode = 0; mode < 3; mode++) {
            if (mode == 1 && !in->circuit_stage_bytes) continue;
            if (mode == 2 && !in->park_ok) continue;
            if (mode < 2 && in->park_ok && in->park_always) continue;
            const int csi = mode >= 1 && in->circuit_stage_bytes;
            for (int tier = 0; tier < 2; tier++)
                for (int k = 0; k <= kmax; k++)
                    for (int ci = tiers[tier][0]; ci < tiers[tier][1]; ci++) {
                        const int ns = k == 0 ? 1 : in->stream_points ? 1 : N_STREAMS;
                        for (int si = 0; si < ns; si++) {
                            set_places(&p, in, k, b2);
                            p.circuit = csi ? MEMPLAN_STREAMED : MEMPLAN_RESIDENT;
                            p.h_parked = mode == 2;
                            p.chunk_points = cl[ci];
                            p.stream_points[0] = p.stream_points[1] = 0;
                            if (k > 0) {
                                p.stream_points[0] = in->stream_points ? in->stream_points : streams[si][0];
                                p.stream_points[1] = in->stream_points ? in->stream_points : streams[si][1];
                                if (!in->stream_points && !chunks_ok(&p, in)) continue;
                            }
                            memplan_eval(&p, in);
                            if (p.fits) goto found;
                        }
                    }
        }
    }
    /* nothing fits: the leanest plan, refused */
    p = lean;
    p.fits = false;
found:
    /* streamed chunks only where something streams */
    {
        int s1 = 0, s2 = 0;
        for (int q = MEMPLAN_A; q <= MEMPLAN_H; q++) s1 |= p.place[q] == MEMPLAN_STREAMED;
        s2 = p.place[MEMPLAN_B2] == MEMPLAN_STREAMED;
        if (!s1) p.stream_points[0] = 0;
        if (!s2) p.stream_points[1] = 0;
    }
    p.min_need_bytes = lean.need_bytes < p.need_bytes ? lean.need_bytes : p.need_bytes;
    p.chunk_window_bits = p.window_bits > 0 ? p.window_bits : memplan_window_bits(p.chunk_points);
    *out = p;
}

static int log2_exact(size_t v) {
    int k = 0;
    while (k < 63 && ((size_t)1 << k) < v) k++;
    return ((size_t)1 << k) == v ? k : -1;
}

static int fmt_points(char *buf, size_t cap, size_t v) {
    int k = log2_exact(v);
    return k >= 0 ? snprintf(buf, cap, "2^%d", k) : snprintf(buf, cap, "%zu", v);
}

int memplan_describe(const memplan *p, char *buf, size_t cap) {
    char res[64] = "", str[64] = "", c1[24], s1[24], s2[24];
    for (int q = 0; q < MEMPLAN_NQ; q++) {
        char *d = p->place[q] == MEMPLAN_RESIDENT ? res : p->place[q] == MEMPLAN_STREAMED ? str : NULL;
        if (!d) continue;
        size_t l = strlen(d);
        snprintf(d + l, 64 - l, "%s%s", l ? " " : "", q_name[q]);
    }
    fmt_points(c1, sizeof c1, p->chunk_points);
    fmt_points(s1, sizeof s1, p->stream_points[0]);
    fmt_points(s2, sizeof s2, p->stream_points[1]);
    char sc[96] = "";
    if (p->stream_points[0] && p->stream_points[1]) snprintf(sc, sizeof sc, " (chunks of %s G1 / %s G2 points)", s1, s2);
    else if (p->stream_points[0]) snprintf(sc, sizeof sc, " (chunks of %s points)", s1);
    else if (p->stream_points[1]) snprintf(sc, sizeof sc, " (chunks of %s points)", s2);
    if (p->circuit == MEMPLAN_STREAMED) {
        size_t l = strlen(str);
        snprintf(str + l, 64 - l, "%smatrices", l ? " " : "");
    }
    if (p->h_parked) {
        size_t l = strlen(str);
        snprintf(str + l, 64 - l, "%sa/b/c (lean H)", l ? " " : "");
    }
    char park[64] = "";
    if (p->h_parked) snprintf(park, sizeof park, "; parks %.2f GiB of page-locked host memory", p->park_bytes / GIB);
    return snprintf(buf, cap,
                    "%s: resident [%s], streamed [%s]%s, B_G2 %s; MSM chunk %s, window %d%s; arena %.2f GiB "
                    "(H step %.2f, G1 MSMs %.2f, B_G2 %.2f); resident %.2f GiB; need %.2f GiB of %.2f "
                    "(margin %.2f); streams %.2f GiB a proof%s",
                    p->fits ? "fits" : "does not fit", res, str, sc,
                    p->place[MEMPLAN_B2] == MEMPLAN_HOST_THREADS ? "on CPU threads"
                    : p->place[MEMPLAN_B2] == MEMPLAN_STREAMED   ? "on the device (streamed)"
                                                                 : "on the device",
                    c1, p->chunk_window_bits, p->window_bits > 0 ? " (given)" : "", p->arena_bytes / GIB,
                    p->phase_bytes[0] / GIB, p->phase_bytes[1] / GIB, p->phase_bytes[2] / GIB, p->resident_bytes / GIB,
                    p->need_bytes / GIB, p->budget_bytes / GIB, p->margin_bytes / GIB, p->streamed_bytes / GIB, park);
}
