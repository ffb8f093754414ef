/* The SDR graph of Filecoin PoRep: parameters per registered proof, DRG (BucketGraph) and
 * expander (Feistel) parents, replica_id, labels, interactive and synthetic challenges
 * (porep.h, porep_graph.h; sources there). */
#include "filecoin/porep_graph.h"

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/parallel.h"

/* ---- BLAKE2b (RFC 7693) ------------------------------------------------------------------- */

static const uint64_t B2B_IV[8] = {0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull,
                                   0xa54ff53a5f1d36f1ull, 0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
                                   0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull};
static const uint8_t B2B_SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

static inline uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }
static inline uint64_t load64_le(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}
static inline uint32_t load32_le(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void store32_le(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

#define B2B_G(a, b, c, d, x, y)                                                                                  \
    do {                                                                                                         \
        v[a] += v[b] + (x); v[d] = rotr64(v[d] ^ v[a], 32);                                                      \
        v[c] += v[d];       v[b] = rotr64(v[b] ^ v[c], 24);                                                      \
        v[a] += v[b] + (y); v[d] = rotr64(v[d] ^ v[a], 16);                                                      \
        v[c] += v[d];       v[b] = rotr64(v[b] ^ v[c], 63);                                                      \
    } while (0)

/* The compression F(h, m, t, last) with a byte counter t < 2^64. */
static inline __attribute__((always_inline)) void b2b_compress(uint64_t h[8], const uint64_t m[16], uint64_t t, bool last) {
    uint64_t v[16];
    for (int i = 0; i < 8; i++) { v[i] = h[i]; v[i + 8] = B2B_IV[i]; }
    v[12] ^= t;
    if (last) v[14] = ~v[14];
    /* unrolled with constant message indexes: inlined into feistel_round, where 14 of the 16
     * message words are zero, the compiler drops their additions */
#define B2B_ROUND(r)                                                                                             \
    do {                                                                                                         \
        B2B_G(0, 4, 8, 12, m[B2B_SIGMA[r][0]], m[B2B_SIGMA[r][1]]);                                              \
        B2B_G(1, 5, 9, 13, m[B2B_SIGMA[r][2]], m[B2B_SIGMA[r][3]]);                                              \
        B2B_G(2, 6, 10, 14, m[B2B_SIGMA[r][4]], m[B2B_SIGMA[r][5]]);                                             \
        B2B_G(3, 7, 11, 15, m[B2B_SIGMA[r][6]], m[B2B_SIGMA[r][7]]);                                             \
        B2B_G(0, 5, 10, 15, m[B2B_SIGMA[r][8]], m[B2B_SIGMA[r][9]]);                                             \
        B2B_G(1, 6, 11, 12, m[B2B_SIGMA[r][10]], m[B2B_SIGMA[r][11]]);                                           \
        B2B_G(2, 7, 8, 13, m[B2B_SIGMA[r][12]], m[B2B_SIGMA[r][13]]);                                            \
        B2B_G(3, 4, 9, 14, m[B2B_SIGMA[r][14]], m[B2B_SIGMA[r][15]]);                                            \
    } while (0)
    B2B_ROUND(0); B2B_ROUND(1); B2B_ROUND(2); B2B_ROUND(3); B2B_ROUND(4); B2B_ROUND(5);
    B2B_ROUND(6); B2B_ROUND(7); B2B_ROUND(8); B2B_ROUND(9); B2B_ROUND(10); B2B_ROUND(11);
#undef B2B_ROUND
    for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
}

typedef struct { uint64_t h[8], t; uint8_t buf[128]; size_t fill; } b2b_state;

static void b2b_absorb(b2b_state *s, const uint8_t *in, size_t n) {
    while (n) {
        if (s->fill == 128) { /* a full block is compressed only once more data follows it */
            uint64_t m[16];
            for (int i = 0; i < 16; i++) m[i] = load64_le(s->buf + 8 * i);
            s->t += 128;
            b2b_compress(s->h, m, s->t, false);
            s->fill = 0;
        }
        size_t k = 128 - s->fill < n ? 128 - s->fill : n;
        memcpy(s->buf + s->fill, in, k);
        s->fill += k, in += k, n -= k;
    }
}

void porep_blake2b(uint8_t *out, size_t out_len, const uint8_t *key, size_t key_len, const uint8_t *in,
                   size_t in_len) {
    if (out_len < 1 || out_len > 64 || key_len > 64) return;
    b2b_state s;
    memset(&s, 0, sizeof s);
    memcpy(s.h, B2B_IV, sizeof s.h);
    s.h[0] ^= 0x01010000ull ^ ((uint64_t)key_len << 8) ^ (uint64_t)out_len;
    if (key_len) {
        uint8_t kb[128] = {0};
        memcpy(kb, key, key_len);
        b2b_absorb(&s, kb, 128);
    }
    b2b_absorb(&s, in, in_len);
    memset(s.buf + s.fill, 0, 128 - s.fill);
    uint64_t m[16];
    for (int i = 0; i < 16; i++) m[i] = load64_le(s.buf + 8 * i);
    s.t += s.fill;
    b2b_compress(s.h, m, s.t, true);
    for (size_t i = 0; i < out_len; i++) out[i] = (uint8_t)(s.h[i / 8] >> (8 * (i % 8)));
}

/* ---- ChaCha ------------------------------------------------------------------------------- */

static inline uint32_t rotl32(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
#define CHACHA_QR(a, b, c, d)                                                                                    \
    do {                                                                                                         \
        x[a] += x[b]; x[d] = rotl32(x[d] ^ x[a], 16);                                                            \
        x[c] += x[d]; x[b] = rotl32(x[b] ^ x[c], 12);                                                            \
        x[a] += x[b]; x[d] = rotl32(x[d] ^ x[a], 8);                                                             \
        x[c] += x[d]; x[b] = rotl32(x[b] ^ x[c], 7);                                                             \
    } while (0)

void porep_chacha_block(uint32_t out[16], const uint32_t state[16], int rounds) {
    uint32_t x[16];
    memcpy(x, state, sizeof x);
    for (int r = 0; r < rounds; r += 2) {
        CHACHA_QR(0, 4, 8, 12); CHACHA_QR(1, 5, 9, 13); CHACHA_QR(2, 6, 10, 14); CHACHA_QR(3, 7, 11, 15);
        CHACHA_QR(0, 5, 10, 15); CHACHA_QR(1, 6, 11, 12); CHACHA_QR(2, 7, 8, 13); CHACHA_QR(3, 4, 9, 14);
    }
    for (int i = 0; i < 16; i++) out[i] = x[i] + state[i];
}

static const uint32_t CHACHA_SIGMA[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}; /* "expand 32-byte k" */

void porep_chacha20_stream(uint8_t *out, size_t n, const uint8_t key[32], const uint8_t nonce[12], uint64_t offset) {
    uint32_t st[16], blk[16];
    memcpy(st, CHACHA_SIGMA, sizeof CHACHA_SIGMA);
    for (int i = 0; i < 8; i++) st[4 + i] = load32_le(key + 4 * i);
    for (int i = 0; i < 3; i++) st[13 + i] = load32_le(nonce + 4 * i);
    while (n) {
        st[12] = (uint32_t)(offset / 64);
        porep_chacha_block(blk, st, 20);
        uint8_t b[64];
        for (int i = 0; i < 16; i++) store32_le(b + 4 * i, blk[i]);
        size_t o = (size_t)(offset % 64), k = 64 - o < n ? 64 - o : n;
        memcpy(out, b + o, k);
        out += k, n -= k, offset += k;
    }
}

/* ---- parameters --------------------------------------------------------------------------- */

static const char *const PROOF_NAMES[20] = {
    "StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1", "StackedDrg32GiBV1", "StackedDrg64GiBV1",
    "StackedDrg2KiBV1_1", "StackedDrg8MiBV1_1", "StackedDrg512MiBV1_1", "StackedDrg32GiBV1_1", "StackedDrg64GiBV1_1",
    "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep"};
static const uint64_t PROOF_SIZES[5] = {2048ull, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};

const char *porep_proof_name(uint64_t registered_proof) {
    return registered_proof < 20 ? PROOF_NAMES[registered_proof] : NULL;
}

uint64_t porep_proof_from_name(const char *name) {
    if (!name) return UINT64_MAX;
    for (uint64_t i = 0; i < 20; i++)
        if (!strcmp(name, PROOF_NAMES[i])) return i;
    return UINT64_MAX;
}

static void domain_seed(uint8_t out[32], const char *dst, const uint8_t porep_id[32]) {
    uint8_t buf[64];
    size_t n = strlen(dst);
    memcpy(buf, dst, n);
    memcpy(buf + n, porep_id, 32);
    SHA256(buf, n + 32, out);
}

cuzk_status porep_params_init(porep_params *out, uint64_t sector_size, const uint8_t porep_id[32], int api_version,
                              bool synthetic, cuzk_error *err) {
    if (!out || !porep_id) return ERR(err, CUZK_ERR_ARG, "porep_params_init: NULL %s", out ? "porep_id" : "out");
    memset(out, 0, sizeof *out);
    out->registered_proof = UINT64_MAX;
    out->shape.base_arity = 8;
    switch (sector_size) {
    case 2048ull: out->shape.base_levels = 2; break;
    case 8ull << 20: out->shape.base_levels = 6; break;
    case 512ull << 20: out->shape.base_levels = 8; break;
    case 32ull << 30: out->shape.base_levels = 9; out->shape.sub_arity = 8; break;
    case 64ull << 30: out->shape.base_levels = 9; out->shape.sub_arity = 8; out->shape.top_arity = 2; break;
    default:
        return ERR(err, CUZK_ERR_ARG, "PoRep: sector size %llu bytes is not one of 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB",
                   (unsigned long long)sector_size);
    }
    if (api_version != 10 && api_version != 11 && api_version != 12)
        return ERR(err, CUZK_ERR_ARG, "PoRep: api version %d is not 10, 11 or 12 (ApiVersion 1.0.0, 1.1.0, 1.2.0)",
                   api_version);
    if (synthetic && api_version != 12)
        return ERR(err, CUZK_ERR_ARG, "PoRep: Synthetic PoRep needs api version 12 (1.2.0), not %d", api_version);
    bool big = sector_size >= (32ull << 30);
    out->sector_size = sector_size;
    out->nodes = sector_size / 32;
    out->layers = big ? 11 : 2;
    out->partitions = big ? 10 : 1;
    out->challenges = big ? 18 : 2; /* ceil(176 / 10) and ceil(2 / 1) */
    out->d_levels = 63 - __builtin_clzll(out->nodes);
    out->api_version = api_version;
    out->synthetic = synthetic;
    memcpy(out->porep_id, porep_id, 32);
    uint8_t h[32];
    domain_seed(h, "Filecoin_DRSample", porep_id);
    memcpy(out->drg_seed, h, 28);
    domain_seed(h, "Filecoin_Feistel", porep_id);
    for (int i = 0; i < 3; i++) out->feistel_keys[i] = load64_le(h + 8 * i);
    return CUZK_OK;
}

cuzk_status porep_params_from_proof(porep_params *out, uint64_t registered_proof, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "porep_params_from_proof: NULL out");
    if (registered_proof >= 15 && registered_proof < 20)
        return ERR(err, CUZK_ERR_ARG, "PoRep: registered seal proof %llu (%s) is NI-PoRep, which is not supported",
                   (unsigned long long)registered_proof, PROOF_NAMES[registered_proof]);
    if (registered_proof >= 15)
        return ERR(err, CUZK_ERR_ARG, "PoRep: unknown registered seal proof %llu (0..14 are PoRep)",
                   (unsigned long long)registered_proof);
    /* porep_id = u64 LE id || u64 LE nonce 0 || 16 zero bytes (filecoin-proofs-api registry.rs) */
    uint8_t id[32] = {0};
    for (int i = 0; i < 8; i++) id[i] = (uint8_t)(registered_proof >> (8 * i));
    int group = (int)(registered_proof / 5);
    cuzk_status st = porep_params_init(out, PROOF_SIZES[registered_proof % 5], id, 10 + group, group == 2, err);
    if (st == CUZK_OK) out->registered_proof = registered_proof;
    return st;
}

/* ---- parents ------------------------------------------------------------------------------ */

void porep_drg_parents(const porep_params *pp, uint64_t node, uint32_t out[POREP_DRG_DEGREE]) {
    if (node < 2) {
        memset(out, 0, POREP_DRG_DEGREE * sizeof *out);
        return;
    }
    /* ChaCha8Rng::from_seed(drg_seed || u32 LE node): key words, 64-bit block counter, stream 0.
     * 5 parents take 20 words: two blocks. */
    uint32_t st[16], w[32];
    memcpy(st, CHACHA_SIGMA, sizeof CHACHA_SIGMA);
    for (int i = 0; i < 7; i++) st[4 + i] = load32_le(pp->drg_seed + 4 * i);
    st[11] = (uint32_t)node;
    st[12] = st[13] = st[14] = st[15] = 0;
    porep_chacha_block(w, st, 8);
    st[12] = 1;
    porep_chacha_block(w + 16, st, 8);

    const uint64_t m_prime = POREP_DRG_DEGREE - 1;
    uint64_t meta = node * m_prime;                            /* u64: 5 nodes exceeds u32 at 32 GiB */
    uint64_t n_buckets = 64 - (uint64_t)__builtin_clzll(meta - 1); /* ceil(log2(meta)), meta >= 10 */
    bool v1_0 = pp->api_version == 10;
    int first = v1_0 ? 0 : 1, wi = 0;
    for (int k = 0; k < (int)m_prime; k++) {
        uint64_t r0 = (uint64_t)w[wi] | (uint64_t)w[wi + 1] << 32;
        uint64_t r1 = (uint64_t)w[wi + 2] | (uint64_t)w[wi + 3] << 32;
        wi += 4;
        uint64_t bucket = r0 % n_buckets + 1;
        uint64_t largest = (1ull << bucket) < meta ? (1ull << bucket) : meta;
        uint64_t smallest = (largest >> 1) > 2 ? (largest >> 1) : 2;
        uint64_t dist = smallest + r1 % (largest - smallest + 1);
        uint64_t parent = (meta - dist) / m_prime;
        out[first + k] = (uint32_t)(parent == node ? node - 1 : parent);
    }
    out[v1_0 ? m_prime : 0] = (uint32_t)(node - 1);
}

typedef struct { uint64_t lmask, rmask; int half; } feistel_pre;

static feistel_pre feistel_precompute(uint64_t n) {
    uint64_t p4 = 4;
    int log4 = 1;
    while (p4 < n) { p4 *= 4; log4++; }
    feistel_pre f = {((1ull << log4) - 1) << log4, (1ull << log4) - 1, log4};
    return f;
}

/* F(right, key) = BLAKE2b-512(u64 BE right || u64 BE key)[0..8] read BE, & rmask: one compression
 * of a 16-byte message. */
static inline uint64_t feistel_round(uint64_t right, uint64_t key, uint64_t rmask) {
    uint64_t h[8], m[16] = {0};
    memcpy(h, B2B_IV, sizeof h);
    h[0] ^= 0x01010000ull ^ 64;
    m[0] = __builtin_bswap64(right);
    m[1] = __builtin_bswap64(key);
    b2b_compress(h, m, 16, true);
    return __builtin_bswap64(h[0]) & rmask;
}

static inline uint64_t feistel_encode(uint64_t index, const uint64_t keys[3], const feistel_pre *f) {
    uint64_t left = (index & f->lmask) >> f->half, right = index & f->rmask;
    for (int i = 0; i < 3; i++) {
        uint64_t l = right;
        right = left ^ feistel_round(right, keys[i], f->rmask);
        left = l;
    }
    return left << f->half | right;
}

static inline uint64_t feistel_permute_pre(uint64_t n, uint64_t index, const uint64_t keys[3], const feistel_pre *f) {
    uint64_t u = feistel_encode(index, keys, f);
    while (u >= n) u = feistel_encode(u, keys, f);
    return u;
}

uint64_t porep_feistel_permute(uint64_t n, uint64_t index, const uint64_t keys[3]) {
    feistel_pre f = feistel_precompute(n);
    return feistel_permute_pre(n, index, keys, &f);
}

static void exp_parents_pre(const porep_params *pp, uint64_t node, uint32_t out[POREP_EXP_DEGREE],
                            const feistel_pre *f) {
    uint64_t n = pp->nodes * POREP_EXP_DEGREE;
    for (int i = 0; i < POREP_EXP_DEGREE; i++) {
        uint64_t t = feistel_permute_pre(n, node * POREP_EXP_DEGREE + (uint64_t)i, pp->feistel_keys, f);
        /* api 1.0: `transformed as u32 / 8` (the index truncated first); later: u64 division */
        out[i] = pp->api_version == 10 ? (uint32_t)t / POREP_EXP_DEGREE : (uint32_t)(t / POREP_EXP_DEGREE);
    }
}

void porep_exp_parents(const porep_params *pp, uint64_t node, uint32_t out[POREP_EXP_DEGREE]) {
    feistel_pre f = feistel_precompute(pp->nodes * POREP_EXP_DEGREE);
    exp_parents_pre(pp, node, out, &f);
}

void porep_parents(const porep_params *pp, uint64_t node, uint32_t out[POREP_PARENTS]) {
    porep_drg_parents(pp, node, out);
    porep_exp_parents(pp, node, out + POREP_DRG_DEGREE);
}

/* ---- batched expander parents: the Feistel over 4 lanes ----------------------------------- */

/* The expander parents of many nodes: every pending index of a batch (8 per node) is encoded once
 * per pass, four at a time in vector lanes (GCC vector extensions; AVX-512 / AVX2 clones picked
 * at load time, SSE2 otherwise); indexes still >= n walk again in the next pass, so the lanes stay
 * full whatever the walk lengths (each pass halves the pending set on average). Same results as
 * exp_parents_pre, checked by the tests. */
typedef uint64_t u64x4 __attribute__((vector_size(32)));

/* (macros, not functions: a 32-byte vector passed by value changes the ABI without AVX) */
#define ROTR4(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define BSWAP4(x)                                                                                                \
    ((((x) & 0xff) << 56) | (((x) & 0xff00) << 40) | (((x) & 0xff0000) << 24) | (((x) & 0xff000000) << 8) |     \
     (((x) >> 8) & 0xff000000) | (((x) >> 24) & 0xff0000) | (((x) >> 40) & 0xff00) | ((x) >> 56))

#define B2B_G4(a, b, c, d, x, y)                                                                                 \
    do {                                                                                                         \
        v[a] += v[b] + (x); v[d] = ROTR4(v[d] ^ v[a], 32);                                                       \
        v[c] += v[d];       v[b] = ROTR4(v[b] ^ v[c], 24);                                                       \
        v[a] += v[b] + (y); v[d] = ROTR4(v[d] ^ v[a], 16);                                                       \
        v[c] += v[d];       v[b] = ROTR4(v[b] ^ v[c], 63);                                                       \
    } while (0)
#define B2B_ROUND4(r)                                                                                            \
    do {                                                                                                         \
        B2B_G4(0, 4, 8, 12, m[B2B_SIGMA[r][0]], m[B2B_SIGMA[r][1]]);                                             \
        B2B_G4(1, 5, 9, 13, m[B2B_SIGMA[r][2]], m[B2B_SIGMA[r][3]]);                                             \
        B2B_G4(2, 6, 10, 14, m[B2B_SIGMA[r][4]], m[B2B_SIGMA[r][5]]);                                            \
        B2B_G4(3, 7, 11, 15, m[B2B_SIGMA[r][6]], m[B2B_SIGMA[r][7]]);                                            \
        B2B_G4(0, 5, 10, 15, m[B2B_SIGMA[r][8]], m[B2B_SIGMA[r][9]]);                                            \
        B2B_G4(1, 6, 11, 12, m[B2B_SIGMA[r][10]], m[B2B_SIGMA[r][11]]);                                          \
        B2B_G4(2, 7, 8, 13, m[B2B_SIGMA[r][12]], m[B2B_SIGMA[r][13]]);                                           \
        B2B_G4(3, 4, 9, 14, m[B2B_SIGMA[r][14]], m[B2B_SIGMA[r][15]]);                                           \
    } while (0)

/* u[t] = feistel_encode(u[t]), t < count (count a multiple of 4): per round, F on 4 lanes is one
 * BLAKE2b-512 compression of (u64 BE right || u64 BE key), 14 message words zero. */
__attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
static void feistel_encode_many(uint64_t *u, size_t count, const uint64_t keys[3], const feistel_pre *f) {
    const u64x4 z = {0, 0, 0, 0};
    const uint64_t h0 = B2B_IV[0] ^ 0x01010000ull ^ 64;
    for (size_t b = 0; b < count; b += 4) {
        u64x4 x;
        memcpy(&x, u + b, sizeof x);
        u64x4 left = (x & f->lmask) >> f->half, right = x & f->rmask;
        for (int i = 0; i < 3; i++) {
            u64x4 m[16], v[16];
            memset(m, 0, sizeof m); /* (not a loop of m[j] = z: GCC 12 -O3 then warns m[1] uninitialized) */
            const uint64_t kb = __builtin_bswap64(keys[i]);
            m[0] = BSWAP4(right);
            m[1] = (u64x4){kb, kb, kb, kb};
            v[0] = z + h0;
            for (int j = 1; j < 8; j++) v[j] = z + B2B_IV[j];
            for (int j = 0; j < 8; j++) v[8 + j] = z + B2B_IV[j];
            v[12] ^= 16;
            v[14] = ~v[14];
            B2B_ROUND4(0); B2B_ROUND4(1); B2B_ROUND4(2); B2B_ROUND4(3); B2B_ROUND4(4); B2B_ROUND4(5);
            B2B_ROUND4(6); B2B_ROUND4(7); B2B_ROUND4(8); B2B_ROUND4(9); B2B_ROUND4(10); B2B_ROUND4(11);
            u64x4 h = (z + h0) ^ v[0] ^ v[8];
            u64x4 l = right;
            right = left ^ (BSWAP4(h) & f->rmask);
            left = l;
        }
        x = (left << f->half) | right;
        memcpy(u + b, &x, sizeof x);
    }
}

#define EXP_BATCH_NODES 64

/* The expander parents of nodes first .. first + count (count <= EXP_BATCH_NODES) into out[k] + 6. */
static void exp_parents_batch(const porep_params *pp, uint64_t first, size_t count, uint32_t (*out)[POREP_PARENTS],
                              const feistel_pre *f) {
    enum { MAXI = EXP_BATCH_NODES * POREP_EXP_DEGREE };
    uint64_t u[MAXI + 4];
    uint16_t slot[MAXI + 4];
    const uint64_t n = pp->nodes * POREP_EXP_DEGREE;
    size_t pending = count * POREP_EXP_DEGREE;
    for (size_t t = 0; t < pending; t++) {
        u[t] = (first + t / POREP_EXP_DEGREE) * POREP_EXP_DEGREE + t % POREP_EXP_DEGREE;
        slot[t] = (uint16_t)t;
    }
    while (pending) {
        size_t padded = (pending + 3) & ~(size_t)3;
        for (size_t t = pending; t < padded; t++) u[t] = 0;
        feistel_encode_many(u, padded, pp->feistel_keys, f);
        size_t keep = 0;
        for (size_t t = 0; t < pending; t++) {
            if (u[t] < n) {
                uint64_t tr = u[t];
                out[slot[t] / POREP_EXP_DEGREE][POREP_DRG_DEGREE + slot[t] % POREP_EXP_DEGREE] =
                    pp->api_version == 10 ? (uint32_t)tr / POREP_EXP_DEGREE : (uint32_t)(tr / POREP_EXP_DEGREE);
            } else {
                u[keep] = u[t];
                slot[keep++] = slot[t];
            }
        }
        pending = keep;
    }
}

typedef struct { const porep_params *pp; uint64_t first; uint32_t (*out)[POREP_PARENTS]; feistel_pre f; } range_ctx;

static void parents_range_fn(void *ctx, size_t begin, size_t end, int tid) {
    (void)tid;
    range_ctx *c = ctx;
    for (size_t i = begin; i < end; i++) porep_drg_parents(c->pp, c->first + i, c->out[i]);
    for (size_t i = begin; i < end; i += EXP_BATCH_NODES) {
        size_t k = end - i < EXP_BATCH_NODES ? end - i : EXP_BATCH_NODES;
        exp_parents_batch(c->pp, c->first + i, k, c->out + i, &c->f);
    }
}

void porep_parents_range(const porep_params *pp, uint64_t first, uint64_t count, uint32_t (*out)[POREP_PARENTS],
                         int nthreads) {
    range_ctx c = {pp, first, out, feistel_precompute(pp->nodes * POREP_EXP_DEGREE)};
    parallel_for((size_t)count, nthreads, parents_range_fn, &c);
}

cuzk_status porep_parent_cache_digest(uint8_t out[32], const porep_params *pp, int nthreads, cuzk_error *err) {
    if (!out || !pp) return ERR(err, CUZK_ERR_ARG, "porep_parent_cache_digest: NULL %s", out ? "pp" : "out");
    const uint64_t chunk = 1u << 17;
    uint32_t (*par)[POREP_PARENTS] = malloc(chunk * sizeof *par);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    cuzk_status st = CUZK_OK;
    if (!par || !md) { st = ERR(err, CUZK_ERR_NOMEM, "parent cache digest: %llu bytes", (unsigned long long)(chunk * sizeof *par)); goto out; }
    if (!EVP_DigestInit_ex(md, EVP_sha256(), NULL)) { st = ERR(err, CUZK_ERR_NOMEM, "parent cache digest: SHA-256 init"); goto out; }
    for (uint64_t base = 0; base < pp->nodes; base += chunk) {
        uint64_t n = pp->nodes - base < chunk ? pp->nodes - base : chunk;
        porep_parents_range(pp, base, n, par, nthreads);
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
        for (uint64_t i = 0; i < n; i++)
            for (int j = 0; j < POREP_PARENTS; j++) par[i][j] = __builtin_bswap32(par[i][j]);
#endif
        EVP_DigestUpdate(md, par, n * sizeof *par);
    }
    unsigned int len = 32;
    EVP_DigestFinal_ex(md, out, &len);
out:
    EVP_MD_CTX_free(md);
    free(par);
    return st;
}

/* ---- replica_id, labels, tree D ----------------------------------------------------------- */

void porep_prover_id(uint8_t out[32], uint64_t miner_id) {
    /* the payload of the ID address f0<id>: the id as an unsigned LEB128 varint (go-address
     * NewIDAddress; filecoin-ffi toProverID), at most 10 bytes */
    memset(out, 0, 32);
    int i = 0;
    do {
        uint8_t b = (uint8_t)(miner_id & 0x7f);
        miner_id >>= 7;
        out[i++] = b | (miner_id ? 0x80 : 0);
    } while (miner_id);
}

void porep_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                      const uint8_t comm_d[32], const uint8_t porep_id[32]) {
    uint8_t buf[32 + 8 + 32 + 32 + 32];
    memcpy(buf, prover_id, 32);
    for (int i = 0; i < 8; i++) buf[32 + i] = (uint8_t)(sector_id >> (8 * (7 - i)));
    memcpy(buf + 40, ticket, 32);
    memcpy(buf + 72, comm_d, 32);
    memcpy(buf + 104, porep_id, 32);
    SHA256(buf, sizeof buf, out);
    out[31] &= 0x3f;
}

void porep_label(uint8_t out[32], const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                 const uint8_t parents[POREP_LABEL_PARENTS][32]) {
    uint8_t buf[64 + POREP_LABEL_PARENTS * 32] = {0};
    memcpy(buf, replica_id, 32);
    for (int i = 0; i < 4; i++) buf[32 + i] = (uint8_t)(layer >> (8 * (3 - i)));
    for (int i = 0; i < 8; i++) buf[36 + i] = (uint8_t)(node >> (8 * (7 - i)));
    size_t n = 64;
    if (node > 0) {
        memcpy(buf + 64, parents, POREP_LABEL_PARENTS * 32);
        n += POREP_LABEL_PARENTS * 32;
    }
    SHA256(buf, n, out);
    out[31] &= 0x3f;
}

void porep_expand_parents(uint8_t out[POREP_LABEL_PARENTS][32], const uint8_t in[POREP_PARENTS][32], uint32_t layer) {
    int m = layer == 1 ? POREP_DRG_DEGREE : POREP_PARENTS;
    for (int i = 0; i < POREP_LABEL_PARENTS; i++) memcpy(out[i], in[i % m], 32);
}

cuzk_status porep_labels_all(uint8_t (*out)[32], const porep_params *pp, const uint8_t replica_id[32], int nthreads,
                             cuzk_error *err) {
    return porep_labels_all_chunked(out, pp, replica_id, nthreads, 0, err);
}

cuzk_status porep_labels_all_chunked(uint8_t (*out)[32], const porep_params *pp, const uint8_t replica_id[32],
                                     int nthreads, uint64_t chunk_nodes, cuzk_error *err) {
    if (!out || !pp || !replica_id) return ERR(err, CUZK_ERR_ARG, "porep_labels_all: NULL argument");
    if (pp->nodes < 2 || pp->nodes > (1ull << 26))
        return ERR(err, CUZK_ERR_ARG, "porep_labels_all: %llu nodes (2 .. 2^26 are held in memory)",
                   (unsigned long long)pp->nodes);
    if (pp->layers < 1 || pp->layers > POREP_MAX_LAYERS)
        return ERR(err, CUZK_ERR_ARG, "porep_labels_all: %d layers (1 .. %d)", pp->layers, POREP_MAX_LAYERS);
    /* Up to 2^20 nodes (56 MiB) the parents are computed once for every layer; above, chunk by
     * chunk in each layer. Either way on nthreads threads; the labels of a layer are sequential
     * (each node hashes its predecessor's). */
    const uint64_t nodes = pp->nodes;
    if (!chunk_nodes) chunk_nodes = nodes <= (1u << 20) ? nodes : (1u << 16);
    const bool all = chunk_nodes >= nodes;
    const uint64_t chunk = all ? nodes : chunk_nodes;
    uint32_t (*par)[POREP_PARENTS] = malloc(chunk * sizeof *par);
    if (!par) return ERR(err, CUZK_ERR_NOMEM, "porep_labels_all: %llu bytes", (unsigned long long)(chunk * sizeof *par));
    if (all) porep_parents_range(pp, 0, nodes, par, nthreads);
    uint8_t in[POREP_PARENTS][32], ex[POREP_LABEL_PARENTS][32];
    for (int layer = 1; layer <= pp->layers; layer++) {
        uint8_t (*cur)[32] = out + (size_t)(layer - 1) * nodes;
        const uint8_t (*prev)[32] = layer > 1 ? (const uint8_t (*)[32])(out + (size_t)(layer - 2) * nodes) : NULL;
        for (uint64_t base = 0; base < nodes; base += chunk) {
            uint64_t n = nodes - base < chunk ? nodes - base : chunk;
            if (!all) porep_parents_range(pp, base, n, par, nthreads);
            for (uint64_t i = 0; i < n; i++) {
                uint64_t v = base + i;
                if (v > 0) {
                    for (int j = 0; j < POREP_DRG_DEGREE; j++) memcpy(in[j], cur[par[i][j]], 32);
                    if (prev)
                        for (int j = POREP_DRG_DEGREE; j < POREP_PARENTS; j++) memcpy(in[j], prev[par[i][j]], 32);
                    porep_expand_parents(ex, (const uint8_t (*)[32])in, (uint32_t)layer);
                }
                porep_label(cur[v], replica_id, (uint32_t)layer, v, (const uint8_t (*)[32])ex);
            }
        }
    }
    free(par);
    return CUZK_OK;
}

void porep_sha256_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32]) {
    uint8_t buf[64];
    memcpy(buf, left, 32);
    memcpy(buf + 32, right, 32);
    SHA256(buf, 64, out);
    out[31] &= 0x3f;
}

/* ---- challenges --------------------------------------------------------------------------- */

/* (LE integer of b[0..32)) mod m + 1, m < 2^56 (bigint_to_challenge with m = nodes - 1). */
static uint64_t le256_challenge(const uint8_t b[32], uint64_t m) {
    uint64_t r = 0;
    for (int i = 31; i >= 0; i--) r = ((r << 8) | b[i]) % m;
    return r + 1;
}

uint64_t porep_interactive_challenge(const uint8_t replica_id[32], const uint8_t seed[32], uint32_t j, uint64_t nodes) {
    uint8_t buf[68], h[32];
    memcpy(buf, replica_id, 32);
    memcpy(buf + 32, seed, 32);
    store32_le(buf + 64, j);
    SHA256(buf, sizeof buf, h);
    return le256_challenge(h, nodes - 1);
}

static const uint8_t SYNTH_NONCE[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};

static void synth_key(uint8_t key[32], const char *tag, const uint8_t a[32], const uint8_t b[32]) {
    uint8_t in[64];
    memcpy(in, a, 32);
    memcpy(in + 32, b, 32);
    porep_blake2b(key, 32, (const uint8_t *)tag, strlen(tag), in, 64);
}

uint64_t porep_synth_challenge(const uint8_t replica_id[32], const uint8_t comm_r[32], uint64_t nodes, uint64_t i) {
    uint8_t key[32], r[32];
    synth_key(key, "filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r);
    porep_chacha20_stream(r, 32, key, SYNTH_NONCE, i * 32);
    return le256_challenge(r, nodes - 1);
}

void porep_synth_indexes(uint64_t *out, const uint8_t replica_id[32], const uint8_t seed[32], uint64_t first,
                         uint32_t count, uint64_t num_synth) {
    uint8_t key[32], w[4];
    synth_key(key, "filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id, seed);
    for (uint32_t t = 0; t < count; t++) {
        porep_chacha20_stream(w, 4, key, SYNTH_NONCE, (first + t) * 4);
        out[t] = load32_le(w) % num_synth;
    }
}

cuzk_status porep_challenges(uint64_t *out, const porep_params *pp, const uint8_t replica_id[32],
                             const uint8_t comm_r[32], const uint8_t seed[32], uint32_t k, cuzk_error *err) {
    if (!out || !pp || !replica_id || !seed) return ERR(err, CUZK_ERR_ARG, "porep_challenges: NULL argument");
    if (k >= (uint32_t)pp->partitions)
        return ERR(err, CUZK_ERR_ARG, "porep_challenges: partition %u of %d", k, pp->partitions);
    if (pp->nodes < 2 || pp->challenges < 1 || pp->challenges > POREP_MAX_CHALLENGES)
        return ERR(err, CUZK_ERR_ARG, "porep_challenges: %llu nodes, %d challenges", (unsigned long long)pp->nodes,
                   pp->challenges);
    uint32_t n = (uint32_t)pp->challenges;
    if (pp->synthetic) {
        if (!comm_r) return ERR(err, CUZK_ERR_ARG, "porep_challenges: Synthetic PoRep challenges need comm_r");
        uint64_t num_synth = pp->nodes < POREP_SYNTH_CHALLENGES_MAX ? pp->nodes : POREP_SYNTH_CHALLENGES_MAX;
        uint64_t idx[POREP_MAX_CHALLENGES];
        porep_synth_indexes(idx, replica_id, seed, (uint64_t)k * n, n, num_synth);
        for (uint32_t i = 0; i < n; i++) out[i] = porep_synth_challenge(replica_id, comm_r, pp->nodes, idx[i]);
    } else {
        for (uint32_t i = 0; i < n; i++) out[i] = porep_interactive_challenge(replica_id, seed, n * k + i, pp->nodes);
    }
    return CUZK_OK;
}
