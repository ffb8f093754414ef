/* Filecoin FallbackPoSt circuits, vanilla-proof reader, challenges and checks (post.h). */
#include "filecoin/post.h"

#include <openssl/sha.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/bincode.h"
#include "util/log.h"
#include "util/parallel.h"
#include "util/timer.h"

cuzk_status post_params_init(post_params *out, post_kind kind, uint64_t sector_size, uint32_t sector_count_override,
                             cuzk_error *err) {
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->sector_size = sector_size;
    out->nodes = sector_size / 32;
    /* filecoin-proofs-api RegisteredPoStProof::version: every WinningPoSt proof is V1_0_0; WindowPoSt
     * is V1_2_0 for the registered proofs Curio sends (go-state-types' V1_1 numbers map to V1_2) */
    out->api_version = kind == POST_WINNING ? 10 : 12;
    out->shape.base_arity = 8;
    uint32_t window_sectors;
    switch (sector_size) {
    case 2048ull: out->shape.base_levels = 2; window_sectors = 2; break;
    case 8ull << 20: out->shape.base_levels = 6; window_sectors = 2; break;
    case 512ull << 20: out->shape.base_levels = 8; window_sectors = 2; break;
    case 32ull << 30: out->shape.base_levels = 9; out->shape.sub_arity = 8; window_sectors = 2349; break;
    case 64ull << 30: out->shape.base_levels = 9; out->shape.sub_arity = 8; out->shape.top_arity = 2; window_sectors = 2300; break;
    default:
        return ERR(err, CUZK_ERR_ARG, "PoSt: sector size %llu bytes is not one of 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB",
                   (unsigned long long)sector_size);
    }
    if (kind == POST_WINDOW) { out->sector_count = window_sectors; out->challenge_count = 10; }
    else { out->sector_count = 66; out->challenge_count = 1; }
    if (sector_count_override) out->sector_count = sector_count_override;
    return CUZK_OK;
}

cuzk_status post_params_from_name(post_params *out, const char *name, cuzk_error *err) {
    post_kind kind;
    const char *sz;
    if (!strncmp(name, "window-post-", 12)) { kind = POST_WINDOW; sz = name + 12; }
    else if (!strncmp(name, "winning-post-", 13)) { kind = POST_WINNING; sz = name + 13; }
    else return ERR(err, CUZK_ERR_ARG, "unknown circuit '%s' (window-post-SIZE or winning-post-SIZE, SIZE 2k 8m 512m 32g 64g)", name);
    static const struct { const char *s; uint64_t b; } sizes[] = {
        {"2k", 2048ull}, {"8m", 8ull << 20}, {"512m", 512ull << 20}, {"32g", 32ull << 30}, {"64g", 64ull << 30}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        if (!strcmp(sz, sizes[i].s)) return post_params_init(out, kind, sizes[i].b, 0, err);
    return ERR(err, CUZK_ERR_ARG, "unknown sector size '%s' in circuit '%s' (2k 8m 512m 32g 64g)", sz, name);
}

void post_sector_free(post_sector *s) {
    if (!s) return;
    free(s->leaves);
    free(s->roots);
    free(s->paths);
    memset(s, 0, sizeof *s);
}

cuzk_status post_vproof_read(post_sector *out, const post_params *pp, const uint8_t *data, size_t n, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    /* storage-proofs-post fallback/vanilla.rs: sector_id, comm_r, then Vec<SectorProof> of one
     * sector: Vec<MerkleProof> (the challenges' inclusion proofs), comm_c, comm_r_last */
    bincode_reader r;
    bincode_init(&r, data, n, "vanilla proof: ", err);
    out->sector_id = bincode_u64(&r, "sector_id");
    bincode_fr(&r, &out->comm_r, "comm_r");
    bincode_u64_eq(&r, 1, "sector count (one sector per vanilla-proof file)");
    size_t at = r.off;
    uint64_t nch = bincode_u64(&r, "challenge count");
    if (bincode_ok(&r) && nch != post_vanilla_challenges(pp))
        bincode_fail(&r, pp->kind == POST_WINNING
                             ? "challenge count is %llu at byte %zu; this WinningPoSt circuit takes one proof of %u challenges "
                               "(one per slot: 66 in Filecoin's circuit, N with --sectors N; a WindowPoSt proof has 10)"
                             : "challenge count is %llu at byte %zu; a WindowPoSt sector proof has %u (a WinningPoSt proof has "
                               "one per slot)",
                     (unsigned long long)nch, at, post_vanilla_challenges(pp));
    if (!bincode_ok(&r)) return r.st;
    out->n_challenges = (uint32_t)nch;
    out->leaves = calloc(nch, sizeof *out->leaves);
    out->roots = calloc(nch, sizeof *out->roots);
    out->paths = calloc(nch, sizeof *out->paths);
    if (!out->leaves || !out->roots || !out->paths) { post_sector_free(out); return ERR(err, CUZK_ERR_NOMEM, "vanilla proof: out of memory"); }
    r.unit = "challenge";
    for (uint64_t c = 0; c < nch && bincode_ok(&r); c++) {
        r.index = (long)c;
        bincode_merkle_proof(&r, &pp->shape, &out->paths[c], &out->leaves[c], &out->roots[c]);
    }
    r.index = -1;
    bincode_fr(&r, &out->comm_c, "comm_c");
    bincode_fr(&r, &out->comm_r_last, "comm_r_last");
    if (!bincode_end(&r)) post_sector_free(out);
    return r.st;
}

uint32_t post_vanilla_challenges(const post_params *pp) {
    return pp->kind == POST_WINNING ? pp->sector_count * pp->challenge_count : pp->challenge_count;
}

cuzk_status post_winning_unroll(post_sector *slots, const post_params *pp, const post_sector *v, cuzk_error *err) {
    uint32_t n = pp->sector_count;
    /* checked before anything is written: a caller with room for another slot count is refused
     * without touching its array */
    if (pp->kind != POST_WINNING || pp->challenge_count != 1 || v->n_challenges != n)
        return ERR(err, CUZK_ERR_ARG, "WinningPoSt: a vanilla proof of %u challenges for %u slots of 1 challenge", v->n_challenges, n);
    memset(slots, 0, n * sizeof *slots);
    for (uint32_t i = 0; i < n; i++) {
        post_sector *s = &slots[i];
        s->sector_id = v->sector_id;
        s->comm_r = v->comm_r;
        s->comm_c = v->comm_c;
        s->comm_r_last = v->comm_r_last;
        s->n_challenges = 1;
        s->leaves = malloc(sizeof *s->leaves);
        s->roots = malloc(sizeof *s->roots);
        s->paths = malloc(sizeof *s->paths);
        if (!s->leaves || !s->roots || !s->paths) {
            for (uint32_t k = 0; k <= i; k++) post_sector_free(&slots[k]);
            return ERR(err, CUZK_ERR_NOMEM, "WinningPoSt: out of memory");
        }
        s->leaves[0] = v->leaves[i];
        s->roots[0] = v->roots[i];
        s->paths[0] = v->paths[i];
    }
    return CUZK_OK;
}

/* ---- challenges ---- */
uint64_t post_challenge_index(const post_params *pp, uint64_t sector_index, uint64_t n) {
    if (pp->api_version >= 12) return n;
    return sector_index * pp->challenge_count + n;
}

uint64_t post_leaf_challenge(const post_params *pp, const uint8_t randomness[32], uint64_t sector_id, uint64_t challenge_index) {
    uint8_t buf[48], h[32];
    memcpy(buf, randomness, 32);
    for (int i = 0; i < 8; i++) buf[32 + i] = (uint8_t)(sector_id >> (8 * i));
    for (int i = 0; i < 8; i++) buf[40 + i] = (uint8_t)(challenge_index >> (8 * i));
    SHA256(buf, sizeof buf, h);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)h[i] << (8 * i);
    return v % pp->nodes;
}

cuzk_status post_check_randomness(const uint8_t randomness[32], cuzk_error *err) {
    fr x;
    if (!fr_from_bytes_le(&x, randomness, 32))
        return ERR(err, CUZK_ERR_ARG, "PoSt randomness is not a canonical Fr (little-endian, < r); callers clear its top two bits");
    return CUZK_OK;
}

/* The checks item by item: a sector's own checks (its challenge count, comm_r), then one item per
 * challenge (its root, its path, its leaf index). Messages as post_sector_check gives them. */
static cuzk_status check_sector_head(const post_params *pp, const post_sector *s, cuzk_error *err) {
    if (s->n_challenges != pp->challenge_count)
        return ERR(err, CUZK_ERR_INVALID, "sector %llu: %u challenges, the circuit takes %u", (unsigned long long)s->sector_id,
                   s->n_challenges, pp->challenge_count);
    fr in[2] = {s->comm_c, s->comm_r_last}, h;
    poseidon_hash(&h, in, 2);
    if (!fr_eq(&h, &s->comm_r))
        return ERR(err, CUZK_ERR_INVALID, "sector %llu: comm_r != Poseidon(comm_c, comm_r_last)", (unsigned long long)s->sector_id);
    return CUZK_OK;
}

/* Messages name the challenge as the vanilla proof numbers it: challenge c of the sector, and for
 * WinningPoSt (one vanilla proof unrolled into slots of one challenge each, post_winning_unroll)
 * the slot, which is the challenge's position in that proof. */
static cuzk_status check_challenge(const post_params *pp, const post_sector *s, const uint8_t randomness[32],
                                   uint64_t sector_index, uint32_t c, cuzk_error *err) {
    const unsigned long long shown = pp->kind == POST_WINNING ? sector_index + c : c;
    if (!fr_eq(&s->roots[c], &s->comm_r_last))
        return ERR(err, CUZK_ERR_INVALID, "sector %llu challenge %llu: the proof's root is not comm_r_last",
                   (unsigned long long)s->sector_id, shown);
    fr root;
    merkle_path_root(&root, &pp->shape, &s->paths[c], &s->leaves[c]);
    if (!fr_eq(&root, &s->comm_r_last))
        return ERR(err, CUZK_ERR_INVALID, "sector %llu challenge %llu: the inclusion path does not hash to comm_r_last",
                   (unsigned long long)s->sector_id, shown);
    uint64_t want = post_leaf_challenge(pp, randomness, s->sector_id, post_challenge_index(pp, sector_index, c));
    uint64_t got = merkle_path_leaf_index(&pp->shape, &s->paths[c]);
    if (got != want)
        return ERR(err, CUZK_ERR_INVALID, "sector %llu challenge %llu: the proof opens leaf %llu, the challenge is leaf %llu",
                   (unsigned long long)s->sector_id, shown, (unsigned long long)got, (unsigned long long)want);
    return CUZK_OK;
}

cuzk_status post_sector_check(const post_params *pp, const post_sector *s, const uint8_t randomness[32],
                              uint64_t sector_index, cuzk_error *err) {
    cuzk_status st;
    if ((st = post_check_randomness(randomness, err)) != CUZK_OK) return st;
    if ((st = check_sector_head(pp, s, err)) != CUZK_OK) return st;
    for (uint32_t c = 0; c < s->n_challenges; c++)
        if ((st = check_challenge(pp, s, randomness, sector_index, c, err)) != CUZK_OK) return st;
    return CUZK_OK;
}

typedef struct {
    const post_params *pp;
    const post_sector *secs;
    size_t n;
    uint64_t first_index;
    const uint8_t *randomness;
    size_t *item0;       /* n + 1: sector k's items are [item0[k], item0[k + 1]), its head first */
    size_t first_bad;    /* the smallest failing item found so far (atomic); SIZE_MAX: none */
    cuzk_status *st;     /* per thread: its first failure in its range */
    size_t *bad;
    cuzk_error *errs;
} check_par;

static void check_items(void *ctx, size_t b, size_t e, int tid) {
    check_par *p = ctx;
    size_t lo = 0, hi = p->n;   /* the sector holding item b: the last k with item0[k] <= b */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->item0[mid] <= b) lo = mid;
        else hi = mid;
    }
    size_t k = lo;
    for (size_t i = b; i < e; i++) {
        /* an earlier item failed: nothing here can be the first failure */
        if (__atomic_load_n(&p->first_bad, __ATOMIC_RELAXED) < i) return;
        while (p->item0[k + 1] <= i) k++;
        const post_sector *s = &p->secs[k];
        size_t j = i - p->item0[k];
        cuzk_status st = j == 0 ? check_sector_head(p->pp, s, &p->errs[tid])
                                : check_challenge(p->pp, s, p->randomness, p->first_index + k, (uint32_t)(j - 1), &p->errs[tid]);
        if (st != CUZK_OK) {
            p->st[tid] = st;
            p->bad[tid] = i;
            size_t cur = __atomic_load_n(&p->first_bad, __ATOMIC_RELAXED);
            while (i < cur && !__atomic_compare_exchange_n(&p->first_bad, &cur, i, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
            return;
        }
    }
}

cuzk_status post_sectors_check(const post_params *pp, const post_sector *secs, size_t n, uint64_t first_index,
                               const uint8_t randomness[32], int nthreads, size_t *bad, cuzk_error *err) {
    if (bad) *bad = n;
    if (n == 0) return CUZK_OK;
    cuzk_status st;
    if ((st = post_check_randomness(randomness, err)) != CUZK_OK) {
        if (bad) *bad = 0;
        return st;
    }
    size_t T = nthreads > 0 ? (size_t)nthreads : (size_t)cuzk_num_threads();
    check_par p;
    memset(&p, 0, sizeof p);
    p.item0 = malloc((n + 1) * sizeof *p.item0);
    if (p.item0) {
        p.item0[0] = 0;
        for (size_t k = 0; k < n; k++) p.item0[k + 1] = p.item0[k] + 1 + secs[k].n_challenges;
        if (T > p.item0[n]) T = p.item0[n];
        p.st = calloc(T, sizeof *p.st);
        p.bad = calloc(T, sizeof *p.bad);
        p.errs = calloc(T, sizeof *p.errs);
    }
    if (!p.item0 || !p.st || !p.bad || !p.errs) {
        /* no room for the per-thread results: one sector after another on this thread */
        free(p.item0); free(p.st); free(p.bad); free(p.errs);
        for (size_t k = 0; k < n; k++)
            if ((st = post_sector_check(pp, &secs[k], randomness, first_index + k, err)) != CUZK_OK) {
                if (bad) *bad = k;
                return st;
            }
        return CUZK_OK;
    }
    p.pp = pp;
    p.secs = secs;
    p.n = n;
    p.first_index = first_index;
    p.randomness = randomness;
    p.first_bad = SIZE_MAX;
    parallel_for(p.item0[n], (int)T, check_items, &p);
    st = CUZK_OK;
    if (p.first_bad != SIZE_MAX) {
        for (size_t t = 0; t < T; t++)
            if (p.st[t] != CUZK_OK && p.bad[t] == p.first_bad) {
                st = p.st[t];
                if (err) *err = p.errs[t];
            }
        size_t k = 0;
        while (p.item0[k + 1] <= p.first_bad) k++;
        if (bad) *bad = k;
    }
    free(p.item0);
    free(p.st);
    free(p.bad);
    free(p.errs);
    return st;
}

cuzk_status post_vanilla_read(post_sector *out, size_t *n_out, const post_params *pp, const uint8_t *data, size_t n,
                              uint64_t sector_index, cuzk_error *err) {
    *n_out = 0;
    if (pp->kind == POST_WINNING && sector_index != 0)
        return ERR(err, CUZK_ERR_ARG, "WinningPoSt: one vanilla proof per circuit (sector index %llu)", (unsigned long long)sector_index);
    post_sector v;
    cuzk_status st = post_vproof_read(pp->kind == POST_WINNING ? &v : out, pp, data, n, err);
    if (st != CUZK_OK) return st;
    size_t got = 1;
    if (pp->kind == POST_WINNING) {
        st = post_winning_unroll(out, pp, &v, err);
        post_sector_free(&v);
        if (st != CUZK_OK) return st;
        got = pp->sector_count;
    }
    *n_out = got;
    return CUZK_OK;
}

cuzk_status post_vanilla_sectors(post_sector *out, size_t *n_out, const post_params *pp, const uint8_t *data, size_t n,
                                 uint64_t sector_index, const uint8_t randomness[32], int nthreads, cuzk_error *err) {
    size_t got = 0;
    cuzk_status st = post_vanilla_read(out, &got, pp, data, n, sector_index, err);
    *n_out = 0;
    if (st != CUZK_OK) return st;
    st = post_sectors_check(pp, out, got, sector_index, randomness, nthreads, NULL, err);
    if (st != CUZK_OK) {
        for (size_t k = 0; k < got; k++) post_sector_free(&out[k]);
        return st;
    }
    *n_out = got;
    return CUZK_OK;
}

cuzk_status post_public_inputs(fr *out, const post_params *pp, const post_sector *secs, size_t n, uint64_t partition,
                               const uint8_t randomness[32], cuzk_error *err) {
    cuzk_status st;
    if ((st = post_check_randomness(randomness, err)) != CUZK_OK) return st;
    if (n == 0 || n > pp->sector_count)
        return ERR(err, CUZK_ERR_ARG, "PoSt: %zu sectors for a circuit of %u", n, pp->sector_count);
    size_t per = 1 + pp->challenge_count, k = 0;
    for (size_t i = 0; i < n; i++) {
        out[k++] = secs[i].comm_r;
        uint64_t sector_index = partition * pp->sector_count + i;
        for (uint32_t c = 0; c < pp->challenge_count; c++)
            fr_from_u64(&out[k++], post_leaf_challenge(pp, randomness, secs[i].sector_id, post_challenge_index(pp, sector_index, c)));
    }
    for (size_t i = n; i < pp->sector_count; i++, k += per) memcpy(&out[k], &out[k - per], per * sizeof *out);
    return CUZK_OK;
}

/* ---- the circuit ---- */
static void synth_sector(cs *cs, const post_params *pp, const post_sector *s) {
    cs_num crl = num_alloc(cs, &s->comm_r_last);
    cs_num cc = num_alloc(cs, &s->comm_c);
    cs_num cr = num_alloc(cs, &s->comm_r);
    num_inputize(cs, &cr);
    cs_num in[2] = {cc, crl};
    cs_num h = poseidon_gadget(cs, in, 2);
    num_enforce_equal(cs, &cr, &h);
    for (uint32_t c = 0; c < pp->challenge_count; c++) por_gadget(cs, &pp->shape, &s->leaves[c], &s->paths[c], &crl);
}

cuzk_status post_synthesize(cs *cs, const post_params *pp, const post_sector *secs, size_t n) {
    if (n == 0 || n > pp->sector_count) return cs_fail(cs, CUZK_ERR_ARG, "PoSt: %zu sectors for a circuit of %u", n, pp->sector_count);
    for (size_t i = 0; i < n; i++)
        if (secs[i].n_challenges != pp->challenge_count)
            return cs_fail(cs, CUZK_ERR_ARG, "PoSt: sector %zu has %u challenges, the circuit %u", i, secs[i].n_challenges,
                           pp->challenge_count);
    for (size_t i = 0; i < pp->sector_count && cs->status == CUZK_OK; i++) synth_sector(cs, pp, &secs[i < n ? i : n - 1]);
    return cs->status;
}

void post_circuit_sizes(const post_params *pp, post_sizes *out) {
    /* one blank sector through a counting (witness-only, storing nothing) builder */
    cs c;
    cs_init(&c, 0);
    merkle_path *paths = calloc(pp->challenge_count, sizeof *paths);
    fr *leaves = calloc(pp->challenge_count, sizeof *leaves);
    memset(out, 0, sizeof *out);
    if (paths && leaves) {
        post_sector s;
        memset(&s, 0, sizeof s);
        s.n_challenges = pp->challenge_count;
        s.paths = paths;
        s.leaves = leaves;
        uint64_t i0 = c.n_inputs, a0 = c.n_aux, c0 = c.n_constraints;
        synth_sector(&c, pp, &s);
        out->in_per_sector = c.n_inputs - i0;
        out->aux_per_sector = c.n_aux - a0;
        out->c_per_sector = c.n_constraints - c0;
        out->n_inputs = 1 + out->in_per_sector * pp->sector_count;
        out->n_aux = out->aux_per_sector * pp->sector_count;
        out->n_constraints = out->c_per_sector * pp->sector_count;
    }
    free(paths);
    free(leaves);
    cs_free(&c);
}

typedef struct {
    fr *w;
    const post_params *pp;
    const post_sector *secs;
    size_t n;
    post_sizes sz;
    cuzk_status st;
    cuzk_error err;
    int failed;
} wpar;

static void witness_range(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    wpar *p = ctx;
    cs c;
    uint64_t in0 = 1 + b * p->sz.in_per_sector, in1 = 1 + e * p->sz.in_per_sector;
    uint64_t a0 = b * p->sz.aux_per_sector, a1 = e * p->sz.aux_per_sector;
    cs_init_view(&c, p->w + in0, in0, in1, p->w + p->sz.n_inputs + a0, a0, a1);
    for (size_t i = b; i < e && c.status == CUZK_OK; i++) synth_sector(&c, p->pp, &p->secs[i < p->n ? i : p->n - 1]);
    if (c.status == CUZK_OK && (c.n_inputs != in1 || c.n_aux != a1))
        cs_fail(&c, CUZK_ERR_MISMATCH, "PoSt witness: sectors %zu..%zu filled %llu inputs / %llu aux, expected %llu / %llu", b, e,
                (unsigned long long)(c.n_inputs - in0), (unsigned long long)(c.n_aux - a0), (unsigned long long)(in1 - in0),
                (unsigned long long)(a1 - a0));
    if (c.status != CUZK_OK && !__atomic_exchange_n(&p->failed, 1, __ATOMIC_ACQ_REL)) {
        p->st = c.status;
        p->err = c.err;
    }
    cs_free(&c);
}

cuzk_status post_witness_parallel(fr *w, size_t n_w, const post_params *pp, const post_sector *secs, size_t n,
                                  int nthreads, cuzk_error *err) {
    if (n == 0 || n > pp->sector_count) return ERR(err, CUZK_ERR_ARG, "PoSt: %zu sectors for a circuit of %u", n, pp->sector_count);
    for (size_t i = 0; i < n; i++)
        if (secs[i].n_challenges != pp->challenge_count)
            return ERR(err, CUZK_ERR_ARG, "PoSt: sector %zu has %u challenges, the circuit %u", i, secs[i].n_challenges,
                       pp->challenge_count);
    wpar p;
    memset(&p, 0, sizeof p);
    p.w = w; p.pp = pp; p.secs = secs; p.n = n;
    post_circuit_sizes(pp, &p.sz);
    if (n_w != p.sz.n_inputs + p.sz.n_aux)
        return ERR(err, CUZK_ERR_ARG, "PoSt witness: %zu values given, the circuit has %llu", n_w,
                   (unsigned long long)(p.sz.n_inputs + p.sz.n_aux));
    fr_one(&w[0]);
    parallel_for(pp->sector_count, nthreads, witness_range, &p);
    if (p.failed) {
        if (err) *err = p.err;
        return p.st;
    }
    return CUZK_OK;
}

/* ---- recording on several threads ---- */
static cuzk_status blank_sector(post_sector *s, const post_params *pp, cuzk_error *err) {
    memset(s, 0, sizeof *s);
    s->n_challenges = pp->challenge_count;
    s->leaves = calloc(s->n_challenges, sizeof(fr));
    s->roots = calloc(s->n_challenges, sizeof(fr));
    s->paths = calloc(s->n_challenges, sizeof(merkle_path));
    if (!s->leaves || !s->roots || !s->paths) {
        post_sector_free(s);
        return ERR(err, CUZK_ERR_NOMEM, "PoSt: out of memory");
    }
    return CUZK_OK;
}

typedef struct {
    const post_params *pp;
    const post_sector *blank;
    post_sizes sz;
    size_t n_parts;
    unsigned flags;
    uint64_t nnz_per_sector[3];
    cs_part *parts;           /* CS_MATRICES */
    cs_bits *a_aux, *b_aux;   /* CS_DENSITY: the ORed bitmaps (words of the whole circuit) */
    uint64_t *b_in_all;       /* the ORed input bitmap, n_in_words */
    uint64_t n_in_words;
    cuzk_status st;
    cuzk_error err;
    int failed;
} rpar;

static void or_words(uint64_t *dst, uint64_t n_dst, const cs_bits *src) {
    uint64_t n = src->n_words < n_dst ? src->n_words : n_dst;
    for (uint64_t i = 0; i < n; i++)
        if (src->w[i]) __atomic_fetch_or(&dst[i], src->w[i], __ATOMIC_RELAXED);
}

static void record_parts(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    rpar *p = ctx;
    for (size_t k = b; k < e && !__atomic_load_n(&p->failed, __ATOMIC_ACQUIRE); k++) {
        size_t s0 = p->pp->sector_count * k / p->n_parts, s1 = p->pp->sector_count * (k + 1) / p->n_parts;
        uint64_t ns = s1 - s0, nnz[3];
        for (int m = 0; m < 3; m++) nnz[m] = ns * p->nnz_per_sector[m];
        uint64_t rows = ns * p->sz.c_per_sector;
        cs c;
        cs_init_part(&c, p->flags, 1 + s0 * p->sz.in_per_sector, s0 * p->sz.aux_per_sector,
                     rows < UINT32_MAX ? (uint32_t)rows : 0, (p->flags & CS_MATRICES) ? nnz : NULL);
        for (size_t i = s0; i < s1 && c.status == CUZK_OK; i++) synth_sector(&c, p->pp, p->blank);
        uint64_t in_end = 1 + s1 * p->sz.in_per_sector, aux_end = s1 * p->sz.aux_per_sector;
        if (c.status == CUZK_OK && (c.n_inputs != in_end || c.n_aux != aux_end))
            cs_fail(&c, CUZK_ERR_MISMATCH, "PoSt recording: sectors %zu..%zu ended at input %llu / aux %llu, expected %llu / %llu", s0,
                    s1, (unsigned long long)c.n_inputs, (unsigned long long)c.n_aux, (unsigned long long)in_end,
                    (unsigned long long)aux_end);
        if (c.status == CUZK_OK && (p->flags & CS_MATRICES)) cs_take_part(&c, &p->parts[k]);
        if (c.status == CUZK_OK && (p->flags & CS_DENSITY)) {
            or_words(p->a_aux->w, p->a_aux->n_words, &c.a_aux);
            or_words(p->b_aux->w, p->b_aux->n_words, &c.b_aux);
            or_words(p->b_in_all, p->n_in_words, &c.b_in);
        }
        if (c.status != CUZK_OK && !__atomic_exchange_n(&p->failed, 1, __ATOMIC_ACQ_REL)) {
            p->st = c.status;
            p->err = c.err;
        }
        cs_free(&c);
    }
}

static cuzk_status record_common(rpar *p, const post_params *pp, unsigned flags, int nthreads, post_sector *blank,
                                 cuzk_error *err) {
    memset(p, 0, sizeof *p);
    p->pp = pp;
    p->flags = flags;
    cuzk_status st = blank_sector(blank, pp, err);
    if (st != CUZK_OK) return st;
    p->blank = blank;
    post_circuit_sizes(pp, &p->sz);
    if (p->sz.c_per_sector == 0) return ERR(err, CUZK_ERR_NOMEM, "PoSt: out of memory");
    int T = nthreads > 0 ? nthreads : cuzk_num_threads();
    p->n_parts = (size_t)T < pp->sector_count ? (size_t)T : pp->sector_count;
    if (flags & CS_MATRICES) {
        /* one sector's nonzeros: exact hints for every part's arrays */
        cs c;
        cs_part one;
        cs_init_part(&c, CS_MATRICES, 1, 0, (uint32_t)p->sz.c_per_sector, NULL);
        synth_sector(&c, pp, blank);
        st = cs_take_part(&c, &one);
        if (st != CUZK_OK && err) *err = c.err;
        cs_free(&c);
        if (st != CUZK_OK) return st;
        for (int m = 0; m < 3; m++) p->nnz_per_sector[m] = one.m[m].nnz;
        cs_part_free(&one);
    }
    return CUZK_OK;
}

cuzk_status post_record_parallel(r1cs *out, const post_params *pp, int nthreads, cuzk_error *err) {
    return post_record_parallel_timed(out, pp, nthreads, NULL, err);
}

cuzk_status post_record_parallel_timed(r1cs *out, const post_params *pp, int nthreads, double ms[2], cuzk_error *err) {
    memset(out, 0, sizeof *out);
    if (ms) ms[0] = ms[1] = 0;
    double t0 = now_ms();
    rpar p;
    post_sector blank;
    memset(&blank, 0, sizeof blank);
    cuzk_status st = record_common(&p, pp, CS_MATRICES, nthreads, &blank, err);
    if (st == CUZK_OK && !(p.parts = calloc(p.n_parts, sizeof *p.parts))) st = ERR(err, CUZK_ERR_NOMEM, "PoSt: out of memory");
    if (st == CUZK_OK) {
        parallel_for(p.n_parts, nthreads, record_parts, &p);
        double t1 = now_ms();
        if (ms) ms[0] = t1 - t0;
        if (p.failed) {
            st = p.st;
            if (err) *err = p.err;
            for (size_t k = 0; k < p.n_parts; k++) cs_part_free(&p.parts[k]);
        } else {
            st = cs_join_parts(out, p.parts, p.n_parts, p.sz.n_inputs, p.sz.n_aux, nthreads, err);
            if (ms) ms[1] = now_ms() - t1;
        }
    }
    free(p.parts);
    post_sector_free(&blank);
    return st;
}

cuzk_status post_count_parallel(post_counts *out, const post_params *pp, int nthreads, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    rpar p;
    post_sector blank;
    memset(&blank, 0, sizeof blank);
    cs_bits a = {0}, b = {0};
    cuzk_status st = record_common(&p, pp, CS_DENSITY, nthreads, &blank, err);
    if (st == CUZK_OK) {
        a.n_words = b.n_words = p.sz.n_aux / 64 + 1;
        p.n_in_words = p.sz.n_inputs / 64 + 1;
        a.w = calloc(a.n_words, 8);
        b.w = calloc(b.n_words, 8);
        p.b_in_all = calloc(p.n_in_words, 8);
        if (!a.w || !b.w || !p.b_in_all) st = ERR(err, CUZK_ERR_NOMEM, "PoSt: out of memory (density bitmaps)");
    }
    if (st == CUZK_OK) {
        p.a_aux = &a;
        p.b_aux = &b;
        parallel_for(p.n_parts, nthreads, record_parts, &p);
        if (p.failed) {
            st = p.st;
            if (err) *err = p.err;
        } else {
            cs_bits bi = {p.b_in_all, p.n_in_words};
            out->n_inputs = p.sz.n_inputs;
            out->n_aux = p.sz.n_aux;
            out->n_constraints = p.sz.n_constraints;
            out->a_aux = cs_bits_count(&a);
            out->b_aux = cs_bits_count(&b);
            out->b_in = cs_bits_count(&bi);
        }
    }
    free(a.w);
    free(b.w);
    free(p.b_in_all);
    post_sector_free(&blank);
    return st;
}
