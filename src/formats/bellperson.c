/* bellperson Groth16 .params / .vk files and the 192-byte proof (DESIGN.md section 5). */
#include "formats/bellperson.h"
#include "formats/fmt_util.h"
#include "formats/mapped_file.h"
#include "formats/srs_cache.h"
#include "util/log.h"
#include "util/parallel.h"
#include "util/timer.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define VK_FIXED_BYTES (3 * G1_UNCOMPRESSED_BYTES + 3 * G2_UNCOMPRESSED_BYTES)

/* ---- writing ----------------------------------------------------------------------------- */

#define ENCODE_BLOCK 16384 /* points encoded in parallel per fwrite (3 MiB of G2) */

struct bellperson_writer {
    FILE *fp;
    bool ok;
    int sys_errno;
    uint64_t bytes;
    uint8_t *enc; /* ENCODE_BLOCK * G2_UNCOMPRESSED_BYTES, allocated on first bulk write */
    size_t n;
    uint8_t buf[1 << 16];
};

static void w_flush(bellperson_writer *w) {
    if (w->ok && w->n && fwrite(w->buf, 1, w->n, w->fp) != w->n) { w->ok = false; w->sys_errno = errno; }
    w->n = 0;
}
static void w_bytes(bellperson_writer *w, const uint8_t *p, size_t n) {
    if (w->n + n > sizeof w->buf) w_flush(w);
    memcpy(w->buf + w->n, p, n);
    w->n += n;
    w->bytes += n;
}
static void w_g1(bellperson_writer *w, const g1_affine *p) {
    uint8_t b[G1_UNCOMPRESSED_BYTES];
    g1_affine_to_uncompressed(b, p);
    w_bytes(w, b, sizeof b);
}
static void w_g2(bellperson_writer *w, const g2_affine *p) {
    uint8_t b[G2_UNCOMPRESSED_BYTES];
    g2_affine_to_uncompressed(b, p);
    w_bytes(w, b, sizeof b);
}

cuzk_status bellperson_writer_open(bellperson_writer **out, const char *path, cuzk_error *err) {
    *out = NULL;
    bellperson_writer *w = calloc(1, sizeof *w);
    if (!w) return ERR(err, CUZK_ERR_NOMEM, "bellperson: cannot allocate a write buffer");
    w->fp = fopen(path, "wb");
    if (!w->fp) {
        int e = errno;
        free(w);
        errno = e;
        return ERR(err, CUZK_ERR_IO, "bellperson: cannot create %s: %s", path, strerror(e));
    }
    w->ok = true;
    *out = w;
    return CUZK_OK;
}

void bellperson_writer_count(bellperson_writer *w, uint32_t v) {
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    w_bytes(w, b, 4);
}

void bellperson_writer_vk(bellperson_writer *w, const groth16_vk *vk) {
    w_g1(w, &vk->alpha1);
    w_g1(w, &vk->beta1);
    w_g2(w, &vk->beta2);
    w_g2(w, &vk->gamma2);
    w_g1(w, &vk->delta1);
    w_g2(w, &vk->delta2);
    bellperson_writer_count(w, vk->n_public + 1);
    for (uint32_t i = 0; i <= vk->n_public; i++) w_g1(w, &vk->ic[i]);
}

typedef struct {
    uint8_t *out;
    const void *pts;
    bool g2;
} encode_ctx;
static void encode_range(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    encode_ctx *c = vc;
    for (size_t i = b; i < e; i++) {
        if (c->g2) g2_affine_to_uncompressed(c->out + i * G2_UNCOMPRESSED_BYTES, (const g2_affine *)c->pts + i);
        else g1_affine_to_uncompressed(c->out + i * G1_UNCOMPRESSED_BYTES, (const g1_affine *)c->pts + i);
    }
}

/* Bulk points: encoded ENCODE_BLOCK at a time over nthreads, then one fwrite per block. */
static void w_points(bellperson_writer *w, const void *pts, size_t n, bool g2, int nthreads) {
    size_t elt = g2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
    if (n < 64) {
        for (size_t i = 0; i < n; i++) {
            if (g2) w_g2(w, (const g2_affine *)pts + i);
            else w_g1(w, (const g1_affine *)pts + i);
        }
        return;
    }
    if (!w->enc && !(w->enc = malloc((size_t)ENCODE_BLOCK * G2_UNCOMPRESSED_BYTES))) {
        if (w->ok) { w->ok = false; w->sys_errno = ENOMEM; }
        return;
    }
    w_flush(w);
    for (size_t i = 0; i < n && w->ok; i += ENCODE_BLOCK) {
        size_t k = n - i < ENCODE_BLOCK ? n - i : ENCODE_BLOCK;
        encode_ctx c = {w->enc, g2 ? (const void *)((const g2_affine *)pts + i) : (const void *)((const g1_affine *)pts + i), g2};
        parallel_for(k, nthreads, encode_range, &c);
        if (fwrite(w->enc, elt, k, w->fp) != k) { w->ok = false; w->sys_errno = errno; }
        w->bytes += k * elt;
    }
}
void bellperson_writer_g1s(bellperson_writer *w, const g1_affine *p, size_t n, int nthreads) {
    w_points(w, p, n, false, nthreads);
}
void bellperson_writer_g2s(bellperson_writer *w, const g2_affine *p, size_t n, int nthreads) {
    w_points(w, p, n, true, nthreads);
}

uint64_t bellperson_writer_bytes(const bellperson_writer *w) { return w ? w->bytes : 0; }

cuzk_status bellperson_writer_close(bellperson_writer *w, const char *path, cuzk_error *err) {
    if (!w) return CUZK_OK;
    w_flush(w);
    int e = w->sys_errno;
    if (fclose(w->fp) != 0 && w->ok) { w->ok = false; e = errno; }
    bool ok = w->ok;
    free(w->enc);
    free(w);
    if (!ok) {
        errno = e;
        return ERR(err, CUZK_ERR_IO, "bellperson: writing %s failed: %s", path, strerror(e));
    }
    return CUZK_OK;
}

cuzk_status bellperson_vk_write(const char *path, const groth16_vk *vk, cuzk_error *err) {
    if (!path || !vk || !vk->ic) return ERR(err, CUZK_ERR_ARG, "bellperson_vk_write: NULL argument");
    bellperson_writer *w;
    cuzk_status st;
    if ((st = bellperson_writer_open(&w, path, err))) return st;
    bellperson_writer_vk(w, vk);
    return bellperson_writer_close(w, path, err);
}

cuzk_status bellperson_params_write(const char *path, const bellperson_params *p, cuzk_error *err) {
    if (!path || !p || !p->vk.ic || (p->n_h && !p->h) || (p->n_l && !p->l) || (p->n_a && !p->a) ||
        (p->n_b_g1 && !p->b_g1) || (p->n_b_g2 && !p->b_g2))
        return ERR(err, CUZK_ERR_ARG, "bellperson_params_write: NULL argument");
    if (p->domain != BELLPERSON_DOMAIN_BELLMAN)
        return ERR(err, CUZK_ERR_UNSUPPORTED, "bellperson_params_write: these parameters are built on the %s roots of "
                   "unity, which a .params file cannot record (its readers assume bellman's 7^t): keep the MPC file",
                   bellperson_domain_str(p->domain));
    bellperson_writer *w;
    cuzk_status st;
    if ((st = bellperson_writer_open(&w, path, err))) return st;
    bellperson_writer_vk(w, &p->vk);
    const g1_affine *g1s[4] = {p->h, p->l, p->a, p->b_g1};
    const uint32_t n1[4] = {p->n_h, p->n_l, p->n_a, p->n_b_g1};
    for (int i = 0; i < 4; i++) {
        bellperson_writer_count(w, n1[i]);
        bellperson_writer_g1s(w, g1s[i], n1[i], 0);
    }
    bellperson_writer_count(w, p->n_b_g2);
    bellperson_writer_g2s(w, p->b_g2, p->n_b_g2, 0);
    return bellperson_writer_close(w, path, err);
}

/* ---- loading ----------------------------------------------------------------------------- */

static cuzk_status r_point1(g1_affine *out, byte_cursor *c, const char *sec, const char *what, bool sub,
                            cuzk_error *err) {
    const uint8_t *b;
    if (!cursor_take(c, G1_UNCOMPRESSED_BYTES, &b))
        return ERR(err, CUZK_ERR_FORMAT, "%s: truncated at %s", what, sec);
    pt_fault f;
    if (g1s_from_uncompressed(out, b, 1, sub, &f) != 1)
        return ERR(err, CUZK_ERR_POINT, "%s: %s: %s", what, sec, pt_fault_str(f));
    return CUZK_OK;
}
static cuzk_status r_point2(g2_affine *out, byte_cursor *c, const char *sec, const char *what, bool sub,
                            cuzk_error *err) {
    const uint8_t *b;
    if (!cursor_take(c, G2_UNCOMPRESSED_BYTES, &b))
        return ERR(err, CUZK_ERR_FORMAT, "%s: truncated at %s", what, sec);
    pt_fault f;
    if (g2s_from_uncompressed(out, b, 1, sub, &f) != 1)
        return ERR(err, CUZK_ERR_POINT, "%s: %s: %s", what, sec, pt_fault_str(f));
    return CUZK_OK;
}

/* u32 count + count points of elt bytes (96: G1, 192: G2) into a new array. */
static cuzk_status r_points(void **out, uint32_t *n_out, byte_cursor *c, size_t elt, const char *sec,
                            const char *what, bool sub, cuzk_error *err) {
    uint32_t n;
    *out = NULL;
    *n_out = 0;
    if (!cursor_u32be(c, &n)) return ERR(err, CUZK_ERR_FORMAT, "%s: truncated before the %s count", what, sec);
    if ((uint64_t)n * elt > c->left)
        return ERR(err, CUZK_ERR_FORMAT, "%s: %s claims %u points (%llu bytes), only %zu bytes left", what, sec, n,
                   (unsigned long long)n * elt, c->left);
    if (n == 0) return CUZK_OK;
    void *a = fmt_aligned_array(n, elt == G1_UNCOMPRESSED_BYTES ? sizeof(g1_affine) : sizeof(g2_affine));
    if (!a) return ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate %u points for %s", what, n, sec);
    const uint8_t *b = c->p;
    cursor_take(c, (size_t)n * elt, &b);
    pt_fault f;
    size_t bad = elt == G1_UNCOMPRESSED_BYTES ? g1s_from_uncompressed(a, b, n, sub, &f)
                                              : g2s_from_uncompressed(a, b, n, sub, &f);
    if (bad != n) {
        free(a);
        return ERR(err, CUZK_ERR_POINT, "%s: %s point %zu: %s", what, sec, bad, pt_fault_str(f));
    }
    *out = a;
    *n_out = n;
    return CUZK_OK;
}

static cuzk_status r_vk(groth16_vk *vk, byte_cursor *c, const char *what, bool sub, cuzk_error *err) {
    cuzk_status st;
    uint32_t n_ic;
    if ((st = r_point1(&vk->alpha1, c, "vk alpha_g1", what, sub, err))) return st;
    if ((st = r_point1(&vk->beta1, c, "vk beta_g1", what, sub, err))) return st;
    if ((st = r_point2(&vk->beta2, c, "vk beta_g2", what, sub, err))) return st;
    if ((st = r_point2(&vk->gamma2, c, "vk gamma_g2", what, sub, err))) return st;
    if ((st = r_point1(&vk->delta1, c, "vk delta_g1", what, sub, err))) return st;
    if ((st = r_point2(&vk->delta2, c, "vk delta_g2", what, sub, err))) return st;
    if ((st = r_points((void **)&vk->ic, &n_ic, c, G1_UNCOMPRESSED_BYTES, "vk ic", what, sub, err))) return st;
    if (n_ic == 0) return ERR(err, CUZK_ERR_FORMAT, "%s: vk ic is empty (needs at least the ONE input)", what);
    vk->n_public = n_ic - 1;
    return CUZK_OK;
}

static void src_close(struct bellperson_query_source *src);

void bellperson_params_free(bellperson_params *p) {
    if (!p) return;
    groth16_vk_free(&p->vk);
    if (p->q_src) {
        /* the query arrays are the source's (materialized) or absent: never a block's */
        src_close(p->q_src);
        p->q_src = NULL;
        p->h = p->l = p->a = p->b_g1 = NULL;
        p->b_g2 = NULL;
    }
    if (p->block || p->g2_block) {
        if (p->block) {
            if (p->block_free) p->block_free(p->block_ctx, p->block, p->block_bytes);
            else free(p->block);
        }
        if (p->g2_block) {
            if (p->block_free) p->block_free(p->block_ctx, p->g2_block, p->g2_block_bytes);
            else free(p->g2_block);
        }
    } else {
        free(p->h);
        free(p->l);
        free(p->a);
        free(p->b_g1);
        free(p->b_g2);
    }
    memset(p, 0, sizeof *p);
}

static size_t src_bytes(const struct bellperson_query_source *src);

size_t bellperson_params_host_bytes(const bellperson_params *p) {
    if (!p) return 0;
    size_t ic = p->vk.ic ? ((size_t)p->vk.n_public + 1) * sizeof(g1_affine) : 0;
    if (p->q_src) return p->block_bytes + p->g2_block_bytes + ic + src_bytes(p->q_src);
    if (p->block || p->g2_block) return p->block_bytes + p->g2_block_bytes + ic;
    return ic + ((size_t)p->n_h + p->n_l + p->n_a + p->n_b_g1) * sizeof(g1_affine) + (size_t)p->n_b_g2 * sizeof(g2_affine);
}

static size_t src_take_g1(bellperson_params *p, bellperson_params *g1);

size_t bellperson_params_take_g1(bellperson_params *p, bellperson_params *g1) {
    if (g1) memset(g1, 0, sizeof *g1);
    if (!p || !g1) return 0;
    if (__atomic_load_n(&p->g1_stream_borrows, __ATOMIC_ACQUIRE)) return 0; /* a GPU prover streams them */
    if (p->q_src) return src_take_g1(p, g1); /* what was materialized; the file stays */
    if (!p->block || !p->g2_block) return 0;
    g1->h = p->h;
    g1->l = p->l;
    g1->a = p->a;
    g1->b_g1 = p->b_g1;
    g1->block = p->block;
    g1->block_bytes = p->block_bytes;
    g1->block_free = p->block_free;
    g1->block_ctx = p->block_ctx;
    p->h = p->l = p->a = p->b_g1 = NULL;
    p->block = NULL;
    p->block_bytes = 0;
    return g1->block_bytes;
}

/* ---- loading: the layout, then one parallel pass over every point ------------------------ */

#define ROUND64(x) (((x) + 63) & ~(size_t)63)

void bellperson_params_bind_block(bellperson_params *p, uint8_t *block, void *g2_block, uint32_t n_h, uint32_t n_l,
                                  uint32_t n_a, uint32_t n_b_g1, uint32_t n_b_g2) {
    uint8_t *q = block;
    p->n_h = n_h;
    p->n_l = n_l;
    p->n_a = n_a;
    p->n_b_g1 = n_b_g1;
    p->n_b_g2 = n_b_g2;
    p->h = n_h ? (g1_affine *)q : NULL;
    q += ROUND64((size_t)n_h * sizeof(g1_affine));
    p->l = n_l ? (g1_affine *)q : NULL;
    q += ROUND64((size_t)n_l * sizeof(g1_affine));
    p->a = n_a ? (g1_affine *)q : NULL;
    q += ROUND64((size_t)n_a * sizeof(g1_affine));
    p->b_g1 = n_b_g1 ? (g1_affine *)q : NULL;
    q += ROUND64((size_t)n_b_g1 * sizeof(g1_affine));
    p->b_g2 = n_b_g2 ? (g2_affine *)(g2_block ? (uint8_t *)g2_block : q) : NULL;
}

/* The point sections of a .params file in file order: six vk points, then ic, h, l, a, b_g1, b_g2. */
enum { S_ALPHA1, S_BETA1, S_BETA2, S_GAMMA2, S_DELTA1, S_DELTA2, S_IC, S_H, S_L, S_A, S_B_G1, S_B_G2, S_COUNT };
static const char *const SEC_NAME[S_COUNT] = {"vk alpha_g1", "vk beta_g1", "vk beta_g2", "vk gamma_g2",
                                              "vk delta_g1", "vk delta_g2", "vk ic", "h", "l", "a", "b_g1", "b_g2"};
static bool sec_is_g2(int s) { return s == S_BETA2 || s == S_GAMMA2 || s == S_DELTA2 || s == S_B_G2; }
static bool sec_single(int s) { return s < S_IC; }

typedef struct bp_sections {
    size_t off[S_COUNT];      /* file offset of the first point */
    uint32_t count[S_COUNT];
} bp_sections;

const char *bellperson_origin_str(bellperson_origin o) {
    switch (o) {
    case BELLPERSON_ORIGIN_PARAMS: return "bellperson .params";
    case BELLPERSON_ORIGIN_MPC: return "phase-2 MPC parameters (bellman phase2)";
    case BELLPERSON_ORIGIN_MPC_SNARKJS: return "phase-2 MPC parameters (snarkjs zkey export bellman)";
    }
    return "?";
}

const char *bellperson_domain_str(bellperson_domain d) {
    return d == BELLPERSON_DOMAIN_SNARKJS ? "snarkjs (5^t)" : d == BELLPERSON_DOMAIN_BELLMAN ? "bellman (7^t)" : "?";
}

/* The phase-2 MPC trailer: cs hash, u32 count, contributions of delta_after, s, s_delta (G1),
 * r_delta (G2) and a transcript hash (bellperson.h). */
#define MPC_HASH_BYTES 64
#define MPC_TRANSCRIPT_BYTES 64
#define MPC_CONTRIB_BYTES(g1, g2) (3 * (g1) + (g2) + MPC_TRANSCRIPT_BYTES)

static uint32_t be32_at(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Whether `left` bytes at p are exactly an MPC trailer with g1/g2-byte points; *k its count. */
static bool mpc_trailer_fits(const uint8_t *p, size_t left, size_t g1, size_t g2, uint32_t *k) {
    if (left < MPC_HASH_BYTES + 4) return false;
    *k = be32_at(p + MPC_HASH_BYTES);
    return (uint64_t)MPC_HASH_BYTES + 4 + (uint64_t)*k * MPC_CONTRIB_BYTES(g1, g2) == left;
}

/* Whether data[0, size) is, to the byte, a parameters file (with or without an MPC trailer)
 * whose points are g1 / g2 bytes: the BN254 test (64 / 128) of read_layout's errors. */
static bool fits_layout(const uint8_t *data, size_t size, size_t g1, size_t g2) {
    size_t off = 3 * g1 + 3 * g2;
    if (size < off) return false;
    for (int k = 0; k < 6; k++) {
        if (size - off < 4) return false;
        uint64_t n = be32_at(data + off), elt = k == 5 ? g2 : g1;
        off += 4;
        if (n * elt > size - off) return false;
        off += (size_t)(n * elt);
    }
    uint32_t nk;
    return off == size || mpc_trailer_fits(data + off, size - off, g1, g2, &nk);
}

static cuzk_status read_layout_bls(bellperson_layout *out, bp_sections *sec, const uint8_t *data, size_t size,
                                   const char *what, cuzk_error *err);

/* Reads the counts and checks every section against the bytes left; fills *sec when not NULL. A
 * file that fails as BLS12-381 but fits the BN254 point sizes is named so (CUZK_ERR_CURVE). */
static cuzk_status read_layout(bellperson_layout *out, bp_sections *sec, const uint8_t *data, size_t size,
                               const char *what, cuzk_error *err) {
    cuzk_status st = read_layout_bls(out, sec, data, size, what, err);
    if (st == CUZK_ERR_FORMAT && fits_layout(data, size, 64, 128))
        return ERR(err, CUZK_ERR_CURVE, "%s: this is a BN254 (bn128) parameters file (64-byte G1, 128-byte G2 points, "
                   "e.g. `snarkjs zkey export bellman` of a bn128 zkey); bellperson parameters are BLS12-381 only: "
                   "prove a bn128 circuit from its .zkey", what);
    return st;
}

static cuzk_status read_layout_bls(bellperson_layout *out, bp_sections *sec, const uint8_t *data, size_t size,
                                   const char *what, cuzk_error *err) {
    byte_cursor c = {data, size};
    bp_sections t;
    memset(&t, 0, sizeof t);
    /* other formats' magic: say what the file is instead of reading nonsense counts */
    if (size >= 4 && (!memcmp(data, "zkey", 4) || !memcmp(data, "r1cs", 4) || !memcmp(data, "wtns", 4)))
        return ERR(err, CUZK_ERR_FORMAT, "%s: this is a snarkjs/circom .%.4s file, not bellperson parameters", what,
                   (const char *)data);
    if (size >= 1 && (data[0] == '{' || data[0] == '['))
        return ERR(err, CUZK_ERR_FORMAT, "%s: this is a JSON file, not bellperson parameters", what);
    for (int s = 0; s < S_COUNT; s++) {
        size_t elt = sec_is_g2(s) ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
        uint32_t n = 1;
        if (!sec_single(s) && !cursor_u32be(&c, &n)) {
            if (c.left == 0 && s > 0 && !strcmp(SEC_NAME[s], "h"))
                return ERR(err, CUZK_ERR_FORMAT, "%s: ends right after the verification key: this is a bellperson .vk, "
                           "not parameters (.params)", what);
            return ERR(err, CUZK_ERR_FORMAT, "%s: truncated before the %s count (file is %zu bytes)", what, SEC_NAME[s],
                       size);
        }
        if (sec_single(s) && c.left < elt)
            return ERR(err, CUZK_ERR_FORMAT, "%s: truncated at %s (file is %zu bytes)", what, SEC_NAME[s], size);
        if ((uint64_t)n * elt > c.left)
            return ERR(err, CUZK_ERR_FORMAT, "%s: truncated: %s claims %u points (%llu bytes), only %zu bytes left", what,
                       SEC_NAME[s], n, (unsigned long long)n * elt, c.left);
        if (s == S_IC && n == 0)
            return ERR(err, CUZK_ERR_FORMAT, "%s: vk ic is empty (needs at least the ONE input)", what);
        t.off[s] = (size_t)(c.p - data);
        t.count[s] = n;
        c.p += (size_t)n * elt;
        c.left -= (size_t)n * elt;
    }
    bellperson_origin origin = BELLPERSON_ORIGIN_PARAMS;
    uint32_t n_contrib = 0;
    if (c.left != 0) {
        if (!mpc_trailer_fits(c.p, c.left, G1_UNCOMPRESSED_BYTES, G2_UNCOMPRESSED_BYTES, &n_contrib)) {
            if (c.left < MPC_HASH_BYTES + 4)
                return ERR(err, CUZK_ERR_FORMAT, "%s: oversized: %zu trailing bytes after b_g2 (the counts account for %zu of "
                           "%zu bytes; a phase-2 MPC trailer is at least %d bytes)", what, c.left, size - c.left, size,
                           MPC_HASH_BYTES + 4);
            return ERR(err, CUZK_ERR_FORMAT, "%s: oversized: %zu trailing bytes after b_g2 (the counts account for %zu of %zu "
                       "bytes), and no phase-2 MPC trailer either: its count says %u contributions, which take %llu bytes "
                       "(truncated MPC file?)", what, c.left, size - c.left, size, n_contrib,
                       (unsigned long long)MPC_HASH_BYTES + 4 +
                           (unsigned long long)n_contrib * MPC_CONTRIB_BYTES(G1_UNCOMPRESSED_BYTES, G2_UNCOMPRESSED_BYTES));
        }
        /* snarkjs writes a point per wire in each A/B query (bellperson.h) */
        uint64_t n_vars = (uint64_t)t.count[S_IC] + t.count[S_L];
        origin = t.count[S_A] == n_vars && t.count[S_B_G1] == n_vars && t.count[S_B_G2] == n_vars
                     ? BELLPERSON_ORIGIN_MPC_SNARKJS
                     : BELLPERSON_ORIGIN_MPC;
    }
    if (out) {
        memset(out, 0, sizeof *out);
        out->origin = origin;
        out->domain = origin == BELLPERSON_ORIGIN_MPC_SNARKJS ? BELLPERSON_DOMAIN_SNARKJS : BELLPERSON_DOMAIN_BELLMAN;
        out->n_contributions = n_contrib;
        out->params_bytes = size - c.left;
        out->file_bytes = size;
        out->n_ic = t.count[S_IC];
        out->n_h = t.count[S_H];
        out->n_l = t.count[S_L];
        out->n_a = t.count[S_A];
        out->n_b_g1 = t.count[S_B_G1];
        out->n_b_g2 = t.count[S_B_G2];
        out->g1_bytes = ROUND64((size_t)t.count[S_H] * sizeof(g1_affine)) + ROUND64((size_t)t.count[S_L] * sizeof(g1_affine)) +
                        ROUND64((size_t)t.count[S_A] * sizeof(g1_affine)) +
                        ROUND64((size_t)t.count[S_B_G1] * sizeof(g1_affine));
        out->block_bytes = out->g1_bytes + ROUND64((size_t)t.count[S_B_G2] * sizeof(g2_affine));
        out->host_bytes = out->block_bytes + (size_t)t.count[S_IC] * sizeof(g1_affine);
    }
    if (sec) *sec = t;
    return CUZK_OK;
}

cuzk_status bellperson_params_layout(bellperson_layout *out, const uint8_t *data, size_t size, const char *what,
                                     cuzk_error *err) {
    if (!out || !what || (!data && size)) return ERR(err, CUZK_ERR_ARG, "bellperson_params_layout: NULL argument");
    return read_layout(out, NULL, data, size, what, err);
}

/* 48 big-endian bytes -> 6 little-endian limbs (no reduction, no flag masking) */
static inline void be48_limbs(uint64_t l[6], const uint8_t *in) {
    for (int k = 0; k < 6; k++) {
        uint64_t w;
        memcpy(&w, in + 8 * k, 8);
        l[5 - k] = __builtin_bswap64(w);
    }
}

#define FLAG_BITS 0xe0u
#define TOP_MASK 0x1fffffffffffffffull /* the most significant limb without the three flag bits */

/* Flag bits of an uncompressed encoding of n bytes: PT_OK for none, PT_INFINITY for a well-formed
 * infinity (forbidden in .params), PT_BAD_FLAGS otherwise. */
static pt_fault flags_fault(const uint8_t *in, size_t n) {
    uint8_t f = in[0] & FLAG_BITS;
    if (f == 0) return PT_OK;
    if (f != 0x40) return PT_BAD_FLAGS;
    uint8_t acc = in[0] & (uint8_t)~FLAG_BITS;
    for (size_t i = 1; i < n; i++) acc |= in[i];
    return acc ? PT_BAD_FLAGS : PT_INFINITY;
}

/* Decodes one zcash-uncompressed G1 point and checks it at `level` (NONE: converts whatever is
 * there; a value >= p still yields some field element, as Montgomery multiplication by R^2 of
 * any 384-bit input stays below p). out may be NULL (check only). */
static pt_fault g1_decode(g1_affine *out, const uint8_t *in, cuzk_check_level level) {
    uint64_t x[6], y[6];
    g1_affine t;
    be48_limbs(x, in);
    be48_limbs(y, in + 48);
    if (level == CUZK_CHECK_NONE) {
        if (in[0] & 0x40) { memset(&t, 0, sizeof t); goto done; }
        x[5] &= TOP_MASK;
        fp_from_canon(&t.x, x);
        fp_from_canon(&t.y, y);
        goto done;
    }
    pt_fault f = flags_fault(in, G1_UNCOMPRESSED_BYTES);
    if (f) return f;
    if (!fp_is_canon(x) || !fp_is_canon(y)) return PT_NOT_CANONICAL;
    fp_from_canon(&t.x, x);
    fp_from_canon(&t.y, y);
    /* (0, 0) without the infinity flag is not on the curve; is_on_curve takes it for infinity */
    if (g1_affine_is_infinity(&t) || !g1_affine_is_on_curve(&t)) return PT_NOT_ON_CURVE;
    if (level == CUZK_CHECK_FULL && !g1_affine_is_in_subgroup(&t)) return PT_NOT_IN_SUBGROUP;
done:
    if (out) *out = t;
    return PT_OK;
}

/* G2: x = x.c1 | x.c0, y = y.c1 | y.c0, 48 bytes each. */
static pt_fault g2_decode(g2_affine *out, const uint8_t *in, cuzk_check_level level) {
    uint64_t l[4][6];
    g2_affine t;
    for (int k = 0; k < 4; k++) be48_limbs(l[k], in + 48 * k);
    if (level == CUZK_CHECK_NONE) {
        if (in[0] & 0x40) { memset(&t, 0, sizeof t); goto done; }
        l[0][5] &= TOP_MASK;
    } else {
        pt_fault f = flags_fault(in, G2_UNCOMPRESSED_BYTES);
        if (f) return f;
        for (int k = 0; k < 4; k++)
            if (!fp_is_canon(l[k])) return PT_NOT_CANONICAL;
    }
    fp_from_canon(&t.x.c1, l[0]);
    fp_from_canon(&t.x.c0, l[1]);
    fp_from_canon(&t.y.c1, l[2]);
    fp_from_canon(&t.y.c0, l[3]);
    if (level != CUZK_CHECK_NONE) {
        if (g2_affine_is_infinity(&t) || !g2_affine_is_on_curve(&t)) return PT_NOT_ON_CURVE;
        if (level == CUZK_CHECK_FULL && !g2_affine_is_in_subgroup(&t)) return PT_NOT_IN_SUBGROUP;
    }
done:
    if (out) *out = t;
    return PT_OK;
}

/* Points per work chunk: ~384 KiB of file either way; a FULL check of a G1 chunk takes ~0.1 s. */
#define CHUNK_G1 4096u
#define CHUNK_G2 2048u

typedef struct bp_scan {
    const uint8_t *data;
    bp_sections sec;
    void *out[S_COUNT];                 /* destination per section, NULL: check only */
    uint64_t first_ord[S_COUNT];        /* ordinal of the section's first point in the file */
    uint64_t first_chunk[S_COUNT + 1];  /* chunk numbering, file order; [S_COUNT] = total */
    cuzk_check_level level;
    _Atomic uint64_t next_chunk;
    _Atomic uint64_t first_bad;         /* lowest bad ordinal seen, UINT64_MAX: none */
    _Atomic uint64_t done_bytes;
    uint64_t total_bytes;
    cuzk_progress_fn progress;
    void *progress_user;
    double last_report_ms;              /* touched by tid 0 only */
    int release_input;                  /* drop each chunk's input pages once read */
    int fd;                             /* >= 0: chunks are read with pread(2) from this file into a
                                           buffer per thread (no page faults on `data`, no madvise);
                                           -1: read from `data` */
    _Atomic int read_errno;             /* a failed pread (0: none) */
    bool inf_ok[S_COUNT];               /* sections where the point at infinity is valid (snarkjs MPC) */
} bp_scan;

/* The point at infinity as snarkjs writes it (all zero bytes) or with the zcash flag (0x40, then
 * zeros). */
static bool is_infinity_encoding(const uint8_t *in, size_t n) {
    if (in[0] & 0xbf) return false;
    for (size_t i = 1; i < n; i++)
        if (in[i]) return false;
    return true;
}

static uint32_t sec_chunk(int s) { return sec_is_g2(s) ? CHUNK_G2 : CHUNK_G1; }

static void scan_min(_Atomic uint64_t *a, uint64_t v) {
    uint64_t cur = atomic_load(a);
    while (v < cur && !atomic_compare_exchange_weak(a, &cur, v)) {
    }
}

/* One worker: takes chunks in file order until none are left or every remaining chunk lies
 * after a bad point already found. Every point before the final first_bad is therefore checked,
 * which makes the reported point the lowest bad one whatever the scheduling. */
/* release_input: drops the whole pages inside [b, e) from the process (the file keeps them). */
static void release_range(const uint8_t *b, const uint8_t *e) {
    const uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = ((uintptr_t)b + pg - 1) & ~(pg - 1), hi = (uintptr_t)e & ~(pg - 1);
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* Reads n bytes at off of fd into buf (all of them, or false with errno set). */
static bool pread_all(int fd, uint8_t *buf, size_t n, uint64_t off) {
    while (n) {
        ssize_t r = pread(fd, buf, n, (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            if (r == 0) errno = EIO; /* the file shrank under us */
            return false;
        }
        buf += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return true;
}

#define CHUNK_BYTES_MAX ((size_t)CHUNK_G1 * G1_UNCOMPRESSED_BYTES > (size_t)CHUNK_G2 * G2_UNCOMPRESSED_BYTES \
                             ? (size_t)CHUNK_G1 * G1_UNCOMPRESSED_BYTES : (size_t)CHUNK_G2 * G2_UNCOMPRESSED_BYTES)

static void scan_worker(void *vc, size_t b, size_t e, int tid) {
    (void)b;
    (void)e;
    bp_scan *c = vc;
    int s = 0;
    uint8_t *rbuf = NULL; /* the pread path's buffer (one chunk; stays in this core's caches) */
    if (c->fd >= 0 && !(rbuf = malloc(CHUNK_BYTES_MAX))) {
        int z = 0;
        atomic_compare_exchange_strong(&c->read_errno, &z, ENOMEM);
        scan_min(&c->first_bad, 0);
        return;
    }
    for (;;) {
        uint64_t k = atomic_fetch_add(&c->next_chunk, 1);
        if (k >= c->first_chunk[S_COUNT]) break;
        while (k >= c->first_chunk[s + 1]) s++;
        uint32_t per = sec_chunk(s);
        uint64_t i0 = (k - c->first_chunk[s]) * per;
        uint64_t i1 = i0 + per < c->sec.count[s] ? i0 + per : c->sec.count[s];
        if (c->first_ord[s] + i0 >= atomic_load(&c->first_bad)) break; /* later chunks lie further on */
        size_t elt = sec_is_g2(s) ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
        const uint8_t *in = rbuf ? NULL : c->data + c->sec.off[s];
        if (rbuf) {
            /* the chunk's bytes, read into this thread's buffer */
            if (!pread_all(c->fd, rbuf, (size_t)(i1 - i0) * elt, c->sec.off[s] + i0 * elt)) {
                int z = 0, en = errno ? errno : EIO;
                atomic_compare_exchange_strong(&c->read_errno, &z, en);
                scan_min(&c->first_bad, 0); /* every worker stops */
                break;
            }
        }
        const uint8_t *cin = rbuf ? rbuf : in + i0 * elt; /* point i at cin + (i - i0) * elt */
        for (uint64_t i = i0; i < i1; i++) {
            pt_fault f;
            const uint8_t *pt = cin + (i - i0) * elt;
            if (c->inf_ok[s] && is_infinity_encoding(pt, elt)) {
                if (c->out[s]) {
                    if (sec_is_g2(s)) g2_affine_set_infinity((g2_affine *)c->out[s] + i);
                    else g1_affine_set_infinity((g1_affine *)c->out[s] + i);
                }
                continue;
            }
            if (sec_is_g2(s)) f = g2_decode(c->out[s] ? (g2_affine *)c->out[s] + i : NULL, pt, c->level);
            else f = g1_decode(c->out[s] ? (g1_affine *)c->out[s] + i : NULL, pt, c->level);
            if (f) {
                scan_min(&c->first_bad, c->first_ord[s] + i);
                break;
            }
        }
        if (c->release_input && !rbuf) release_range(in + i0 * elt, in + i1 * elt);
        uint64_t done = atomic_fetch_add(&c->done_bytes, (i1 - i0) * elt) + (i1 - i0) * elt;
        if (tid == 0 && c->progress) {
            double t = now_ms();
            if (t - c->last_report_ms >= 50) {
                c->last_report_ms = t;
                c->progress(c->progress_user, SEC_NAME[s], done, c->total_bytes);
            }
        }
    }
    free(rbuf);
}

/* Moves the finite points of v[0, n) to its front, in order; returns how many there are. */
static uint32_t drop_infinity_g1(g1_affine *v, uint32_t n) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!g1_affine_is_infinity(&v[i])) v[k++] = v[i];
    return k;
}
static uint32_t drop_infinity_g2(g2_affine *v, uint32_t n) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!g2_affine_is_infinity(&v[i])) v[k++] = v[i];
    return k;
}

/* ---- deferred queries (bellperson_load_opts.defer_queries) -------------------------------- */

/* The file sections of the queries, in BELLPERSON_Q_* order (A, B_G1, L, H, B_G2). */
static const int Q_SEC[BELLPERSON_NQ] = {S_A, S_B_G1, S_L, S_H, S_B_G2};
static size_t q_point_bytes(int q) { return q == BELLPERSON_Q_B2 ? sizeof(g2_affine) : sizeof(g1_affine); }
static size_t q_file_bytes(int q) { return q == BELLPERSON_Q_B2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES; }

struct bellperson_query_source {
    int fd;                             /* the .params, open for pread (its own descriptor) */
    cuzk_check_level level;             /* the load's check level */
    uint64_t off[BELLPERSON_NQ];        /* file offset of each query's first point */
    uint32_t count[BELLPERSON_NQ];
    char what[1100];                    /* "bellperson params PATH", for messages */
    pthread_mutex_t mu;                 /* serializes materialize and take */
    void *own[BELLPERSON_NQ];           /* arrays materialized into host memory */
    size_t own_bytes[BELLPERSON_NQ];
};

/* The array of query q in p (a G1 query's, or b_g2 as void **). */
static void **q_slot(bellperson_params *p, int q) {
    switch (q) {
    case BELLPERSON_Q_A: return (void **)&p->a;
    case BELLPERSON_Q_B1: return (void **)&p->b_g1;
    case BELLPERSON_Q_L: return (void **)&p->l;
    case BELLPERSON_Q_H: return (void **)&p->h;
    default: return (void **)&p->b_g2;
    }
}

static cuzk_status src_open(struct bellperson_query_source **out, int fd, const bp_sections *sec,
                            cuzk_check_level level, const char *what, cuzk_error *err) {
    struct bellperson_query_source *src = calloc(1, sizeof *src);
    if (!src) return ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate the query source", what);
    src->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (src->fd < 0) {
        int en = errno;
        free(src);
        errno = en;
        return ERR(err, CUZK_ERR_IO, "%s: cannot keep the file open for its queries: %s", what, strerror(en));
    }
    src->level = level;
    for (int q = 0; q < BELLPERSON_NQ; q++) {
        src->off[q] = sec->off[Q_SEC[q]];
        src->count[q] = sec->count[Q_SEC[q]];
    }
    snprintf(src->what, sizeof src->what, "%s", what);
    pthread_mutex_init(&src->mu, NULL);
    *out = src;
    return CUZK_OK;
}

static void src_close(struct bellperson_query_source *src) {
    if (!src) return;
    for (int q = 0; q < BELLPERSON_NQ; q++) bellperson_block_free(NULL, src->own[q], src->own_bytes[q]);
    if (src->fd >= 0) close(src->fd);
    pthread_mutex_destroy(&src->mu);
    free(src);
}

static size_t src_bytes(const struct bellperson_query_source *src) {
    size_t b = 0;
    for (int q = 0; q < BELLPERSON_NQ; q++) b += __atomic_load_n(&src->own_bytes[q], __ATOMIC_ACQUIRE);
    return b;
}

bool bellperson_params_in_file(const bellperson_params *p, int q) {
    if (!p || !p->q_src || q < 0 || q >= BELLPERSON_NQ) return false;
    return p->q_src->count[q] && !__atomic_load_n(q_slot((bellperson_params *)p, q), __ATOMIC_ACQUIRE);
}

cuzk_status bellperson_params_read(const bellperson_params *p, int q, size_t first, size_t n, void *dst, int nthreads,
                                   cuzk_error *err) {
    if (!p || !p->q_src) return ERR(err, CUZK_ERR_ARG, "bellperson_params_read: the queries were not deferred");
    const struct bellperson_query_source *src = p->q_src;
    if (q < 0 || q >= BELLPERSON_NQ || first > src->count[q] || n > src->count[q] - first || (n && !dst))
        return ERR(err, CUZK_ERR_ARG, "bellperson_params_read: query %d, points [%zu, %zu) (of %u)", q, first, first + n,
                   q >= 0 && q < BELLPERSON_NQ ? src->count[q] : 0);
    if (!n) return CUZK_OK;
    bp_scan *c = calloc(1, sizeof *c);
    if (!c) return ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate the loader state", src->what);
    /* one section holds the range: the scan's chunks, ordinals and error index are relative to it */
    const int s0 = Q_SEC[q];
    const size_t elt = q_file_bytes(q);
    c->sec.off[s0] = src->off[q] + (uint64_t)first * elt;
    c->sec.count[s0] = (uint32_t)n;
    c->out[s0] = dst;
    for (int s = 0; s < S_COUNT; s++) {
        c->first_ord[s] = s > s0 ? n : 0;
        c->first_chunk[s + 1] = c->first_chunk[s] + (c->sec.count[s] + sec_chunk(s) - 1) / sec_chunk(s);
    }
    c->level = src->level;
    c->fd = src->fd;
    atomic_init(&c->read_errno, 0);
    atomic_init(&c->next_chunk, 0);
    atomic_init(&c->first_bad, UINT64_MAX);
    atomic_init(&c->done_bytes, 0);
    int nt = nthreads > 0 ? nthreads : cuzk_num_threads();
    if ((uint64_t)nt > c->first_chunk[S_COUNT]) nt = (int)c->first_chunk[S_COUNT];
    if (nt < 1) nt = 1;
    parallel_for((size_t)nt, nt, scan_worker, c);
    cuzk_status st = CUZK_OK;
    uint64_t bad = atomic_load(&c->first_bad);
    int rerr = atomic_load(&c->read_errno);
    if (rerr) {
        errno = rerr;
        st = ERR(err, rerr == ENOMEM ? CUZK_ERR_NOMEM : CUZK_ERR_IO, "%s: reading the %s points failed: %s", src->what,
                 SEC_NAME[s0], strerror(rerr));
    } else if (bad != UINT64_MAX) {
        uint8_t pt[G2_UNCOMPRESSED_BYTES];
        uint64_t i = first + bad;
        if (!pread_all(src->fd, pt, elt, src->off[q] + i * elt)) {
            int en = errno ? errno : EIO;
            st = ERR(err, CUZK_ERR_IO, "%s: reading %s point %llu failed: %s", src->what, SEC_NAME[s0],
                     (unsigned long long)i, strerror(en));
        } else {
            pt_fault f = q == BELLPERSON_Q_B2 ? g2_decode(NULL, pt, src->level) : g1_decode(NULL, pt, src->level);
            st = ERR(err, CUZK_ERR_POINT, "%s: %s point %llu: %s", src->what, SEC_NAME[s0], (unsigned long long)i,
                     pt_fault_str(f));
        }
    }
    free(c);
    return st;
}

/* bellperson_params_take_g1 of a deferred load: the G1 arrays materialized move into g1 as
 * separate arrays (bellperson_params_free releases them with free(), as bellperson_block_alloc's
 * memory); those queries are in the file again. B_G2 stays. */
static size_t src_take_g1(bellperson_params *p, bellperson_params *g1) {
    struct bellperson_query_source *src = p->q_src;
    size_t moved = 0;
    pthread_mutex_lock(&src->mu);
    for (int q = 0; q < BELLPERSON_NQ; q++) {
        if (q == BELLPERSON_Q_B2 || !src->own[q]) continue;
        *q_slot(g1, q) = src->own[q];
        moved += src->own_bytes[q];
        __atomic_store_n(q_slot(p, q), NULL, __ATOMIC_RELEASE);
        __atomic_store_n(&src->own_bytes[q], 0, __ATOMIC_RELEASE);
        src->own[q] = NULL;
    }
    pthread_mutex_unlock(&src->mu);
    return moved;
}

cuzk_status bellperson_params_materialize(bellperson_params *p, unsigned mask, int nthreads, cuzk_error *err) {
    if (!p) return ERR(err, CUZK_ERR_ARG, "bellperson_params_materialize: NULL argument");
    struct bellperson_query_source *src = p->q_src;
    if (!src) return CUZK_OK;
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&src->mu);
    for (int q = 0; q < BELLPERSON_NQ && st == CUZK_OK; q++) {
        if (!(mask & (1u << q)) || !bellperson_params_in_file(p, q)) continue;
        size_t bytes = (size_t)src->count[q] * q_point_bytes(q);
        void *v = bellperson_block_alloc(NULL, bytes);
        if (!v) {
            st = ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate %zu bytes for the %s query", src->what, bytes,
                     SEC_NAME[Q_SEC[q]]);
            break;
        }
        double t0 = now_ms();
        if ((st = bellperson_params_read(p, q, 0, src->count[q], v, nthreads, err)) != CUZK_OK) {
            bellperson_block_free(NULL, v, bytes);
            break;
        }
        cuzk_log(CUZK_LOG_DEBUG, "%s: the %s query (%u points, %.2f GiB) decoded into host memory in %.0f ms", src->what,
                 SEC_NAME[Q_SEC[q]], src->count[q], (double)bytes / 1073741824.0, now_ms() - t0);
        src->own[q] = v;
        __atomic_store_n(&src->own_bytes[q], bytes, __ATOMIC_RELEASE);
        __atomic_store_n(q_slot(p, q), v, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&src->mu);
    return st;
}

/* Plain host memory for the decoded block (bellperson_block_alloc): big blocks are 2 MiB aligned
 * and asked for transparent huge pages (fewer first-touch faults while decoding, fewer TLB misses
 * in MSMs). */
void *bellperson_block_alloc(const bellperson_load_opts *o, size_t bytes) {
    if (o && o->alloc) return o->alloc(o->alloc_ctx, bytes);
    const size_t huge = (size_t)2 << 20;
    if (bytes < 2 * huge) return aligned_alloc(64, ROUND64(bytes));
    size_t rounded = (bytes + huge - 1) & ~(huge - 1);
    void *p = aligned_alloc(huge, rounded);
#ifdef MADV_HUGEPAGE
    if (p) (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return p;
}

void bellperson_block_free(const bellperson_load_opts *o, void *ptr, size_t bytes) {
    if (!ptr) return;
    if (o && o->alloc) {
        if (o->free) o->free(o->alloc_ctx, ptr, bytes);
    } else {
        free(ptr);
    }
}

cuzk_status bellperson_params_decode(bellperson_params *p, const uint8_t *data, size_t size, const char *what,
                                     const bellperson_load_opts *opts, cuzk_error *err) {
    return bellperson_params_decode_fd(p, data, size, -1, what, opts, err);
}

cuzk_status bellperson_params_decode_fd(bellperson_params *p, const uint8_t *data, size_t size, int fd, const char *what,
                                        const bellperson_load_opts *opts, cuzk_error *err) {
    static const bellperson_load_opts dflt;
    const bellperson_load_opts *o = opts ? opts : &dflt;
    bp_scan *c = NULL;
    void *block = NULL, *g2_block = NULL;
    size_t block_bytes = 0, g2_bytes = 0;
    g1_affine *ic = NULL;
    bellperson_layout lay;
    cuzk_status st;
    if (p) memset(p, 0, sizeof *p);
    if (!what || (!data && size)) return ERR(err, CUZK_ERR_ARG, "bellperson_params_decode: NULL argument");
    c = calloc(1, sizeof *c);
    if (!c) return ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate the loader state", what);
    if ((st = read_layout(&lay, &c->sec, data, size, what, err))) goto out;
    c->data = data;
    c->level = o->check == CUZK_CHECK_DEFAULT ? CUZK_CHECK_CURVE : o->check;
    c->progress = o->progress;
    c->progress_user = o->progress_user;
    c->total_bytes = size;
    c->release_input = o->release_input;
    c->fd = fd;
    atomic_init(&c->read_errno, 0);
    if (lay.origin == BELLPERSON_ORIGIN_MPC_SNARKJS)
        c->inf_ok[S_L] = c->inf_ok[S_A] = c->inf_ok[S_B_G1] = c->inf_ok[S_B_G2] = true;
    /* deferred queries (bellperson_load_opts.defer_queries): h, l, a, b_g1 and b_g2 are not
     * scanned now, but read from the file later (bellperson_params_read) */
    const int defer = p && o->defer_queries && fd >= 0 && lay.origin != BELLPERSON_ORIGIN_MPC_SNARKJS;
    const bp_sections all = c->sec;
    uint64_t deferred_bytes = 0;
    if (defer)
        for (int s = S_H; s <= S_B_G2; s++) {
            deferred_bytes += (uint64_t)c->sec.count[s] * (sec_is_g2(s) ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES);
            c->sec.count[s] = 0;
        }
    c->total_bytes = size - deferred_bytes;
    c->last_report_ms = now_ms();
    atomic_init(&c->next_chunk, 0);
    atomic_init(&c->first_bad, UINT64_MAX);
    atomic_init(&c->done_bytes, 0);
    {
        uint64_t pts = 0, point_bytes = 0;
        for (int s = 0; s < S_COUNT; s++) {
            c->first_ord[s] = pts;
            pts += c->sec.count[s];
            point_bytes += (uint64_t)c->sec.count[s] * (sec_is_g2(s) ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES);
            c->first_chunk[s + 1] = c->first_chunk[s] + (c->sec.count[s] + sec_chunk(s) - 1) / sec_chunk(s);
        }
        atomic_store(&c->done_bytes, c->total_bytes - point_bytes);
    }
    if (p && defer) {
        /* only the vk and ic are decoded into memory; the query arrays stay NULL */
        p->n_h = lay.n_h;
        p->n_l = lay.n_l;
        p->n_a = lay.n_a;
        p->n_b_g1 = lay.n_b_g1;
        p->n_b_g2 = lay.n_b_g2;
    } else if (p) {
        /* g2_apart: the G1 queries in `block`, b_g2 in g2_block */
        const int apart = o->g2_apart && lay.n_b_g2 && lay.g1_bytes;
        block_bytes = apart ? lay.g1_bytes : lay.block_bytes;
        g2_bytes = apart ? lay.block_bytes - lay.g1_bytes : 0;
        for (int k = 0; k < 2; k++) {
            size_t want = k ? g2_bytes : block_bytes;
            if (!want) continue;
            void *b = bellperson_block_alloc(o, want);
            if (!b || ((uintptr_t)b & 63)) {
                if (b) {
                    if (o->alloc) { if (o->free) o->free(o->alloc_ctx, b, want); }
                    else free(b);
                }
                st = ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate %zu bytes (64-byte aligned) for the points", what,
                         want);
                goto out;
            }
            if (k) g2_block = b;
            else block = b;
        }
        bellperson_params_bind_block(p, block, g2_block, lay.n_h, lay.n_l, lay.n_a, lay.n_b_g1, lay.n_b_g2);
    }
    if (p) {
        ic = malloc((size_t)lay.n_ic * sizeof *ic);
        if (!ic) {
            st = ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate %u ic points", what, lay.n_ic);
            goto out;
        }
        c->out[S_ALPHA1] = &p->vk.alpha1;
        c->out[S_BETA1] = &p->vk.beta1;
        c->out[S_BETA2] = &p->vk.beta2;
        c->out[S_GAMMA2] = &p->vk.gamma2;
        c->out[S_DELTA1] = &p->vk.delta1;
        c->out[S_DELTA2] = &p->vk.delta2;
        c->out[S_IC] = ic;
    }
    if (p && !defer) {
        c->out[S_H] = p->h;
        c->out[S_L] = p->l;
        c->out[S_A] = p->a;
        c->out[S_B_G1] = p->b_g1;
        c->out[S_B_G2] = p->b_g2;
    }
    int nthreads = o->nthreads > 0 ? o->nthreads : cuzk_num_threads();
    if ((uint64_t)nthreads > c->first_chunk[S_COUNT]) nthreads = (int)c->first_chunk[S_COUNT];
    if (size < ((size_t)1 << 20)) nthreads = 1; /* a small file is not worth a thread */
    if (nthreads < 1) nthreads = 1;
    if (c->progress) c->progress(c->progress_user, SEC_NAME[S_ALPHA1], 0, c->total_bytes);
    parallel_for((size_t)nthreads, nthreads, scan_worker, c);
    uint64_t bad = atomic_load(&c->first_bad);
    int rerr = atomic_load(&c->read_errno);
    if (rerr) {
        errno = rerr;
        st = ERR(err, rerr == ENOMEM ? CUZK_ERR_NOMEM : CUZK_ERR_IO, "%s: reading the points failed: %s", what,
                 strerror(rerr));
        goto out;
    }
    if (bad != UINT64_MAX) {
        int s = 0;
        while (s + 1 < S_COUNT && bad >= c->first_ord[s + 1]) s++;
        uint64_t i = bad - c->first_ord[s];
        const uint8_t *in = data + c->sec.off[s] + i * (sec_is_g2(s) ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES);
        pt_fault f = sec_is_g2(s) ? g2_decode(NULL, in, c->level) : g1_decode(NULL, in, c->level);
        if (sec_single(s)) st = ERR(err, CUZK_ERR_POINT, "%s: %s: %s", what, SEC_NAME[s], pt_fault_str(f));
        else
            st = ERR(err, CUZK_ERR_POINT, "%s: %s point %llu: %s", what, SEC_NAME[s], (unsigned long long)i,
                     pt_fault_str(f));
        goto out;
    }
    if (c->progress) c->progress(c->progress_user, SEC_NAME[S_B_G2], c->total_bytes, c->total_bytes);
    if (defer && (st = src_open(&p->q_src, fd, &all, c->level, what, err)) != CUZK_OK) goto out;
    if (p) {
        p->vk.ic = ic;
        p->vk.n_public = lay.n_ic - 1;
        p->block = block;
        p->block_bytes = block ? block_bytes : 0;
        p->g2_block = g2_block;
        p->g2_block_bytes = g2_block ? g2_bytes : 0;
        p->block_free = o->alloc ? o->free : NULL;
        p->block_ctx = o->alloc ? o->alloc_ctx : NULL;
        p->origin = lay.origin;
        p->domain = lay.domain;
        p->n_contributions = lay.n_contributions;
        if (lay.origin == BELLPERSON_ORIGIN_MPC_SNARKJS) {
            /* bellperson's A/B queries: only the wires that occur (the prover's density selection) */
            p->n_a = drop_infinity_g1(p->a, p->n_a);
            p->n_b_g1 = drop_infinity_g1(p->b_g1, p->n_b_g1);
            p->n_b_g2 = drop_infinity_g2(p->b_g2, p->n_b_g2);
        }
        ic = NULL;
        block = NULL;
        g2_block = NULL;
    }
out:
    if (st && p && p->q_src) {
        src_close(p->q_src);
        p->q_src = NULL;
    }
    /* what was decoded is in this process's memory now: the input's last pages (the ends of the
     * chunks) go too */
    if (c && c->release_input && data && size) release_range(data, data + size);
    free(ic);
    for (int k = 0; k < 2; k++) {
        void *b = k ? g2_block : block;
        size_t bytes = k ? g2_bytes : block_bytes;
        if (!b) continue;
        if (o->alloc) { if (o->free) o->free(o->alloc_ctx, b, bytes); }
        else free(b);
    }
    if (st && p) memset(p, 0, sizeof *p);
    free(c);
    return st;
}

cuzk_status bellperson_params_load_ex(bellperson_params *p, const char *path, const bellperson_load_opts *opts,
                                      cuzk_error *err) {
    mapped_file f;
    cuzk_status st;
    if (p) memset(p, 0, sizeof *p);
    if (!p || !path) return ERR(err, CUZK_ERR_ARG, "bellperson_params_load: NULL argument");
    static const bellperson_load_opts dflt;
    const bellperson_load_opts *o = opts ? opts : &dflt;
    char what[1100];
    snprintf(what, sizeof what, "bellperson params %s", path);
    /* a pre-decoded cache next to the file (srs_cache.h) when there is a valid one; a stale or
     * corrupt one is refused with a log line and the file is decoded */
    if (!o->no_cache && srs_cache_try_load(p, path, o) == CUZK_OK) return CUZK_OK;
    if ((st = mapped_file_open(&f, path, err))) return st;
    /* the layout from the mapping (a few pages); the points with pread(2) on all threads */
    int fd = o->use_mmap ? -1 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    st = bellperson_params_decode_fd(p, f.m_data, f.size_bytes, fd, what, opts, err);
    if (fd >= 0) close(fd);
    mapped_file_close(&f);
    return st;
}

cuzk_status bellperson_params_load(bellperson_params *p, const char *path, bool check_subgroup, cuzk_error *err) {
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.check = check_subgroup ? CUZK_CHECK_FULL : CUZK_CHECK_CURVE;
    return bellperson_params_load_ex(p, path, &o, err);
}

cuzk_status bellperson_vk_decode(groth16_vk *vk, const uint8_t *data, size_t size, const char *what, cuzk_error *err) {
    cuzk_status st;
    memset(vk, 0, sizeof *vk);
    if (!data && size) return ERR(err, CUZK_ERR_ARG, "%s: NULL data", what);
    byte_cursor c = {data, size};
    if ((st = r_vk(vk, &c, what, true, err))) {
        if (fits_layout(data, size, 64, 128)) st = read_layout(NULL, NULL, data, size, what, err); /* the BN254 error */
        goto out;
    }
    if (c.left != 0) {
        /* the vk at the front of a phase-2 MPC file (the whole layout must hold) */
        bellperson_layout lay;
        cuzk_error e2;
        memset(&e2, 0, sizeof e2);
        cuzk_status s2 = read_layout(&lay, NULL, data, size, "as parameters", &e2);
        if (s2 == CUZK_OK && lay.origin != BELLPERSON_ORIGIN_PARAMS) goto out;
        if (s2 == CUZK_OK)
            st = ERR(err, CUZK_ERR_FORMAT, "%s: %zu trailing bytes after ic: this is a .params file; give the .vk "
                     "written with it (or a phase-2 MPC parameters file)", what, c.left);
        else
            st = ERR(err, CUZK_ERR_FORMAT, "%s: %zu trailing bytes after ic (not a .vk; %s)", what, c.left, e2.msg);
    }
out:
    if (st) groth16_vk_free(vk);
    return st;
}

cuzk_status bellperson_vk_load(groth16_vk *vk, const char *path, cuzk_error *err) {
    mapped_file f;
    cuzk_status st;
    memset(vk, 0, sizeof *vk);
    if ((st = mapped_file_open(&f, path, err))) return st;
    char what[1100];
    snprintf(what, sizeof what, "bellperson vk %s", path);
    st = bellperson_vk_decode(vk, f.m_data, f.size_bytes, what, err);
    mapped_file_close(&f);
    return st;
}

/* ---- proof ------------------------------------------------------------------------------- */

void bellperson_proof_encode(uint8_t out[192], const groth16_proof *p) {
    g1_affine_to_compressed(out, &p->a);
    g2_affine_to_compressed(out + 48, &p->b);
    g1_affine_to_compressed(out + 144, &p->c);
}

static cuzk_status decode_status(ec_decode_result r, const char *name, cuzk_error *err) {
    if (r == EC_DECODE_NOT_ON_CURVE)
        return ERR(err, CUZK_ERR_POINT, "bellperson proof: %s: %s", name, ec_decode_result_str(r));
    return ERR(err, CUZK_ERR_FORMAT, "bellperson proof: %s: %s", name, ec_decode_result_str(r));
}

cuzk_status bellperson_proof_decode(groth16_proof *p, const uint8_t in[192], cuzk_error *err) {
    groth16_proof t;
    ec_decode_result r;
    if (!p || !in) return ERR(err, CUZK_ERR_ARG, "bellperson_proof_decode: NULL argument");
    if ((r = g1_affine_from_compressed(&t.a, in))) return decode_status(r, "A", err);
    if ((r = g2_affine_from_compressed(&t.b, in + 48))) return decode_status(r, "B", err);
    if ((r = g1_affine_from_compressed(&t.c, in + 144))) return decode_status(r, "C", err);
    /* bellperson rejects the identity in proofs */
    if (g1_affine_is_infinity(&t.a)) return ERR(err, CUZK_ERR_POINT, "bellperson proof: A is the point at infinity");
    if (g2_affine_is_infinity(&t.b)) return ERR(err, CUZK_ERR_POINT, "bellperson proof: B is the point at infinity");
    if (g1_affine_is_infinity(&t.c)) return ERR(err, CUZK_ERR_POINT, "bellperson proof: C is the point at infinity");
    if (!g1_affine_is_in_subgroup(&t.a)) return ERR(err, CUZK_ERR_POINT, "bellperson proof: A is not in the subgroup");
    if (!g2_affine_is_in_subgroup(&t.b)) return ERR(err, CUZK_ERR_POINT, "bellperson proof: B is not in the subgroup");
    if (!g1_affine_is_in_subgroup(&t.c)) return ERR(err, CUZK_ERR_POINT, "bellperson proof: C is not in the subgroup");
    *p = t;
    return CUZK_OK;
}
