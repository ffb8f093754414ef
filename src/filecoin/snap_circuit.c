/* The EmptySectorUpdateCircuit of one SnapDeals partition (snap_circuit.h). */
#include "filecoin/snap_circuit.h"

#include <stdlib.h>
#include <string.h>

#include "gadgets/sdr.h"
#include "util/log.h"
#include "util/parallel.h"

/* ---- the header's variables and values ---------------------------------------------------- */

/* what the challenges use of the header */
typedef struct hdr_vars {
    cs_bool kh_bits[4 + SNAP_HS];                   /* partition bits, then the h_select bits */
    cs_num phi, root_r_old, root_r_new;
    cs_num apex[SNAP_MAX_APEX];
    cs_bool digest_bits[SNAP_MAX_DIGESTS][255];     /* each digest's allocated bits, LE */
} hdr_vars;

typedef struct hdr_vals {
    uint64_t k_and_h;
    fr comm_r_old, comm_d_new, comm_r_new, comm_c, root_r_old, root_r_new;
    fr apex[SNAP_MAX_APEX];
    fr ppath[4];                                    /* the partition path's siblings */
} hdr_vals;

static const snap_challenge_proof g_blank;

static cuzk_status params_check(const snap_params *sp, cuzk_error *err) {
    if (!sp || sp->nodes < 32 || sp->challenges < 1 || sp->challenges > SNAP_MAX_CHALLENGES || sp->partition_bit_len > 4 ||
        sp->apex_leaves > SNAP_MAX_APEX || sp->digests > SNAP_MAX_DIGESTS || sp->challenge_bit_len > 31 ||
        merkle_leaves(&sp->shape) != sp->nodes || merkle_levels(&sp->shape) > MERKLE_MAX_LEVELS ||
        sp->challenge_bit_len - sp->partition_bit_len - sp->apex_bit_len < 0 || sp->h < 1 ||
        sp->h > sp->challenge_bit_len)
        return ERR(err, CUZK_ERR_ARG, "SnapDeals circuit: parameters that are not an EmptySectorUpdate circuit's");
    return CUZK_OK;
}

static cuzk_status header_values(hdr_vals *v, const snap_params *sp, const snap_witness_src *src, cuzk_error *err) {
    memset(v, 0, sizeof *v);
    if (!src) return CUZK_OK;
    if (!src->pub || !src->proof) return ERR(err, CUZK_ERR_ARG, "SnapDeals circuit: no public data or partition proof");
    if (src->k >= (uint32_t)sp->partitions)
        return ERR(err, CUZK_ERR_ARG, "SnapDeals circuit: partition %u of %d", src->k, sp->partitions);
    const snap_partition_proof *p = src->proof;
    if (p->n_challenges != (uint32_t)sp->challenges || !p->proofs)
        return ERR(err, CUZK_ERR_ARG, "SnapDeals circuit: %u challenge proofs, the circuit has %d", p->n_challenges,
                   sp->challenges);
    if (!fr_from_bytes_le(&v->comm_r_old, src->pub->comm_r_old, 32))
        return ERR(err, CUZK_ERR_ARG, "SnapDeals circuit: comm_r_old is not a canonical Fr");
    if (!fr_from_bytes_le(&v->comm_d_new, src->pub->comm_d_new, 32))
        return ERR(err, CUZK_ERR_ARG, "SnapDeals circuit: comm_d_new is not a canonical Fr");
    if (!fr_from_bytes_le(&v->comm_r_new, src->pub->comm_r_new, 32))
        return ERR(err, CUZK_ERR_ARG, "SnapDeals circuit: comm_r_new is not a canonical Fr");
    v->k_and_h = snap_k_and_h_select(sp, src->k);
    v->comm_c = p->comm_c;
    /* circuit.rs PrivateInputs::new: the roots of challenge 0's proofs; its partition path */
    v->root_r_old = p->proofs[0].root_r_old;
    v->root_r_new = p->proofs[0].root_r_new;
    for (int i = 0; i < sp->apex_leaves; i++) v->apex[i] = p->apex_leafs[i];
    for (int i = 0; i < sp->partition_bit_len; i++)
        v->ppath[i] = p->proofs[0].path_d_new.siblings[sp->challenge_bit_len - sp->partition_bit_len + i][0];
    return CUZK_OK;
}

/* ---- gadgets of storage-proofs-update ------------------------------------------------------- */

/* A = sum 2^i bits[i], B = ONE, C = x */
static void enforce_pack(cs *cs, const cs_bool *bits, int n, cs_var x) {
    cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
    for (int i = 0; i < n; i++) bool_lc_add(cs, A, bits[i], &cs->pow2[i]);
    cs_lc_add(cs, B, CS_ONE, NULL);
    cs_lc_add(cs, C, x, NULL);
    cs_enforce(cs, A, B, C);
}

/* gadgets.rs allocated_num_to_allocated_bits: 255 allocated bits of x's canonical value, then
 * A = sum 2^i bit_i, B = ONE, C = x */
static void num_to_allocated_bits(cs *cs, cs_bool out[255], const cs_num *x) {
    uint64_t c[4];
    fr_to_canon(c, &x->value);
    for (int i = 0; i < 255; i++) out[i] = bool_alloc(cs, (c[i / 64] >> (i % 64)) & 1);
    enforce_pack(cs, out, 255, x->var);
}

/* por_no_challenge_input over tree R (Poseidon; base, sub, top levels): the challenge's bits
 * (LE, log2 arity per level), the allocated leaf and siblings; A = computed root, B = ONE, C = root */
static void por_poseidon(cs *cs, const merkle_shape *sh, const cs_bool *bits, const cs_num *leaf, cs_num (*sib)[15],
                         const cs_num *root) {
    cs_num cur = *leaf, ins[16];
    int nb = 0;
    for (int l = 0; l < merkle_levels(sh) && cs->status == CUZK_OK; l++) {
        int a = merkle_level_arity(sh, l), k = 0;
        while ((1 << k) < a) k++;
        num_insert(cs, ins, &cur, bits + nb, sib[l], a);
        nb += k;
        cur = poseidon_gadget(cs, ins, a);
    }
    num_enforce_equal(cs, &cur, root);
}

/* por_no_challenge_input over tree D (binary SHA-256): insert_2 + hash per level */
static void por_sha256(cs *cs, int levels, const cs_bool *bits, const cs_num *leaf, const cs_num *sib, const cs_num *root) {
    cs_num cur = *leaf, ins[2];
    for (int l = 0; l < levels && cs->status == CUZK_OK; l++) {
        num_insert(cs, ins, &cur, &bits[l], &sib[l], 2);
        cur = sdr_sha256_node_gadget(cs, &ins[0], &ins[1]);
    }
    num_enforce_equal(cs, &cur, root);
}

/* ---- the header and a challenge ------------------------------------------------------------ */

static void seg_header(cs *cs, const snap_params *sp, const hdr_vals *v, hdr_vars *hv) {
    int pbl = sp->partition_bit_len, nb = pbl + SNAP_HS;
    fr tag, x;
    snap_tag(&tag);
    fr_from_u64(&x, v->k_and_h);
    cs_num kh = num_alloc(cs, &x);
    num_inputize(cs, &kh);
    for (int i = 0; i < nb; i++) hv->kh_bits[i] = bool_alloc(cs, (v->k_and_h >> i) & 1);
    enforce_pack(cs, hv->kh_bits, nb, kh.var);
    cs_num partition = sdr_pack_bits(cs, hv->kh_bits, (size_t)pbl);
    cs_num cro = num_alloc(cs, &v->comm_r_old);
    num_inputize(cs, &cro);
    cs_num cdn = num_alloc(cs, &v->comm_d_new);
    num_inputize(cs, &cdn);
    cs_num crn = num_alloc(cs, &v->comm_r_new);
    num_inputize(cs, &crn);
    cs_num in[2] = {cdn, cro};
    hv->phi = poseidon_gadget_tag(cs, in, 2, &tag);
    cs_num comm_c = num_alloc(cs, &v->comm_c);
    hv->root_r_old = num_alloc(cs, &v->root_r_old);
    hv->root_r_new = num_alloc(cs, &v->root_r_new);
    for (int i = 0; i < sp->apex_leaves; i++) hv->apex[i] = num_alloc(cs, &v->apex[i]);
    cs_num ppath[4];
    for (int i = 0; i < pbl; i++) ppath[i] = num_alloc(cs, &v->ppath[i]);
    in[0] = comm_c;
    in[1] = hv->root_r_old;
    cs_num calc = poseidon_gadget(cs, in, 2);
    num_enforce_equal(cs, &calc, &cro);
    in[1] = hv->root_r_new;
    calc = poseidon_gadget(cs, in, 2);
    num_enforce_equal(cs, &calc, &crn);
    /* apex_por: the apex tree row by row, then its root's partition path to comm_d_new */
    cs_num row[SNAP_MAX_APEX];
    memcpy(row, hv->apex, (size_t)sp->apex_leaves * sizeof *row);
    for (int w = sp->apex_leaves; w > 1 && cs->status == CUZK_OK; w /= 2)
        for (int i = 0; i < w / 2; i++) row[i] = sdr_sha256_node_gadget(cs, &row[2 * i], &row[2 * i + 1]);
    por_sha256(cs, pbl, hv->kh_bits, &row[0], ppath, &cdn);
    /* gen_challenge_bits */
    fr dpp;
    fr_from_u64(&dpp, (uint64_t)sp->digests);
    for (int j = 0; j < sp->digests && cs->status == CUZK_OK; j++) {
        fr jv, di_v;
        fr_from_u64(&jv, (uint64_t)j);
        fr_mul(&di_v, &partition.value, &dpp);
        fr_add(&di_v, &di_v, &jv);
        cs_num di = num_alloc(cs, &di_v);
        cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
        cs_lc_add(cs, A, partition.var, &dpp);
        cs_lc_add(cs, A, CS_ONE, &jv);       /* upstream adds (j, ONE) for j = 0 too */
        cs_lc_add(cs, B, CS_ONE, NULL);
        cs_lc_add(cs, C, di.var, NULL);
        cs_enforce(cs, A, B, C);
        in[0] = crn;
        in[1] = di;
        cs_num d = poseidon_gadget_tag(cs, in, 2, &tag);
        num_to_allocated_bits(cs, hv->digest_bits[j], &d);
    }
}

static void seg_challenge(cs *cs, const snap_params *sp, const hdr_vars *hv, int i, const snap_challenge_proof *pr) {
    int cbl = sp->challenge_bit_len, pbl = sp->partition_bit_len, b = sp->bits_per_challenge, q = sp->challenges_per_digest;
    cs_bool cb[32];
    const cs_bool *db = hv->digest_bits[i / q] + (i % q) * b;
    for (int t = 0; t < b; t++) cb[t] = db[t];
    for (int t = 0; t < pbl; t++) cb[b + t] = hv->kh_bits[t];
    /* get_challenge_high_bits */
    cs_num orz[SNAP_HS];
    fr sum, tag;
    fr_zero(&sum);
    for (int j = 0; j < SNAP_HS; j++) {
        int h = sp->hs[j];
        cs_num ch = sdr_pack_bits(cs, cb + cbl - h, (size_t)h);
        cs_bool sel = hv->kh_bits[pbl + j];
        fr v;
        if (sel.value) v = ch.value; else fr_zero(&v);
        orz[j] = num_alloc(cs, &v);
        cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
        cs_lc_add(cs, A, ch.var, NULL);
        bool_lc_add(cs, B, sel, NULL);
        cs_lc_add(cs, C, orz[j].var, NULL);
        cs_enforce(cs, A, B, C);
        fr_add(&sum, &sum, &v);
    }
    cs_num high = num_alloc(cs, &sum);
    {
        cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
        for (int j = 0; j < SNAP_HS; j++) cs_lc_add(cs, A, orz[j].var, NULL);
        cs_lc_add(cs, B, CS_ONE, NULL);
        cs_lc_add(cs, C, high.var, NULL);
        cs_enforce(cs, A, B, C);
    }
    snap_tag(&tag);
    cs_num in[2] = {hv->phi, high};
    cs_num rho = poseidon_gadget_tag(cs, in, 2, &tag);
    /* the leaves and the encoding (gadgets.rs label_r_new) */
    cs_num lro = num_alloc(cs, &pr->leaf_r_old), ldn = num_alloc(cs, &pr->leaf_d_new);
    cs_num prod = num_mul(cs, &ldn, &rho);
    fr lv;
    fr_add(&lv, &lro.value, &prod.value);
    cs_num lrn = num_alloc(cs, &lv);
    {
        cs_lc *A = cs_tmp(cs, 0), *B = cs_tmp(cs, 1), *C = cs_tmp(cs, 2);
        cs_lc_add(cs, A, lro.var, NULL);
        cs_lc_add(cs, A, prod.var, NULL);
        cs_lc_add(cs, B, CS_ONE, NULL);
        cs_lc_add(cs, C, lrn.var, NULL);
        cs_enforce(cs, A, B, C);
    }
    /* tree R old and new */
    int levels = merkle_levels(&sp->shape);
    cs_num sib[MERKLE_MAX_LEVELS][15];
    for (int l = 0; l < levels; l++)
        for (int s = 0; s < merkle_level_arity(&sp->shape, l) - 1; s++) sib[l][s] = num_alloc(cs, &pr->path_r_old.siblings[l][s]);
    por_poseidon(cs, &sp->shape, cb, &lro, sib, &hv->root_r_old);
    for (int l = 0; l < levels; l++)
        for (int s = 0; s < merkle_level_arity(&sp->shape, l) - 1; s++) sib[l][s] = num_alloc(cs, &pr->path_r_new.siblings[l][s]);
    por_poseidon(cs, &sp->shape, cb, &lrn, sib, &hv->root_r_new);
    /* the apex leaf (insertion.rs select: most significant bit first) */
    int L = cbl - pbl - sp->apex_bit_len;
    cs_num state[SNAP_MAX_APEX];
    memcpy(state, hv->apex, (size_t)sp->apex_leaves * sizeof *state);
    int half = sp->apex_leaves / 2;
    for (int t = sp->apex_bit_len - 1; t >= 0; t--, half /= 2)
        for (int j = 0; j < half; j++) state[j] = num_pick(cs, cb[L + t], &state[half + j], &state[j]);
    /* tree D from the leaf to the apex leaf */
    cs_num dsib[32];
    for (int l = 0; l < L; l++) dsib[l] = num_alloc(cs, &pr->path_d_new.siblings[l][0]);
    por_sha256(cs, L, cb, &ldn, dsib, &state[0]);
}

cuzk_status snap_synthesize(cs *cs, const snap_params *sp, const snap_witness_src *src) {
    if (cs->status != CUZK_OK) return cs->status;
    cuzk_error e = {0};
    hdr_vals *v = malloc(sizeof *v);
    hdr_vars *hv = malloc(sizeof *hv);
    cuzk_status st = !v || !hv ? ERR(&e, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory") : params_check(sp, &e);
    if (st == CUZK_OK) st = header_values(v, sp, src, &e);
    if (st != CUZK_OK) {
        free(v);
        free(hv);
        return cs_fail(cs, st, "%s", e.msg);
    }
    seg_header(cs, sp, v, hv);
    for (int i = 0; i < sp->challenges && cs->status == CUZK_OK; i++)
        seg_challenge(cs, sp, hv, i, src ? &src->proof->proofs[i] : &g_blank);
    free(v);
    free(hv);
    return cs->status;
}

cuzk_status snap_public_inputs(fr out[4], const snap_params *sp, uint32_t k, const snap_public *pub, cuzk_error *err) {
    if (!sp || !pub) return ERR(err, CUZK_ERR_ARG, "SnapDeals public inputs: NULL argument");
    if (k >= (uint32_t)sp->partitions) return ERR(err, CUZK_ERR_ARG, "SnapDeals public inputs: partition %u of %d", k, sp->partitions);
    fr_from_u64(&out[0], snap_k_and_h_select(sp, k));
    if (!fr_from_bytes_le(&out[1], pub->comm_r_old, 32)) return ERR(err, CUZK_ERR_ARG, "SnapDeals public inputs: comm_r_old is not a canonical Fr");
    if (!fr_from_bytes_le(&out[2], pub->comm_d_new, 32)) return ERR(err, CUZK_ERR_ARG, "SnapDeals public inputs: comm_d_new is not a canonical Fr");
    if (!fr_from_bytes_le(&out[3], pub->comm_r_new, 32)) return ERR(err, CUZK_ERR_ARG, "SnapDeals public inputs: comm_r_new is not a canonical Fr");
    return CUZK_OK;
}

/* ---- the layout ------------------------------------------------------------------------------ */

typedef struct layout {
    uint64_t n_inputs, hdr_aux, hdr_cons, ch_aux, ch_cons, n_aux, n_cons;
    uint64_t hdr_nnz[3], ch_nnz[3];     /* nonzeros, when computed (layout_nnz) */
    hdr_vars hv;                        /* variable numbers, values zero */
} layout;

static cuzk_status layout_make(layout *ly, const snap_params *sp, cuzk_error *err) {
    memset(ly, 0, sizeof *ly);
    cuzk_status st = params_check(sp, err);
    if (st != CUZK_OK) return st;
    cs c;
    if (cs_init(&c, 0) != CUZK_OK) return ERR(err, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory");
    hdr_vals *v = calloc(1, sizeof *v);
    if (!v) { cs_free(&c); return ERR(err, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory"); }
    seg_header(&c, sp, v, &ly->hv);
    ly->n_inputs = c.n_inputs;
    ly->hdr_aux = c.n_aux;
    ly->hdr_cons = c.n_constraints;
    seg_challenge(&c, sp, &ly->hv, 0, &g_blank);
    ly->ch_aux = c.n_aux - ly->hdr_aux;
    ly->ch_cons = c.n_constraints - ly->hdr_cons;
    ly->n_aux = ly->hdr_aux + (uint64_t)sp->challenges * ly->ch_aux;
    ly->n_cons = ly->hdr_cons + (uint64_t)sp->challenges * ly->ch_cons;
    st = c.status;
    if (st != CUZK_OK && err) *err = c.err;
    if (st == CUZK_OK && c.n_inputs != ly->n_inputs)
        st = ERR(err, CUZK_ERR_MISMATCH, "SnapDeals circuit: a challenge allocated an input");
    cs_free(&c);
    free(v);
    return st;
}

void snap_circuit_sizes(const snap_params *sp, snap_sizes *out) {
    memset(out, 0, sizeof *out);
    layout *ly = malloc(sizeof *ly);
    if (ly && layout_make(ly, sp, NULL) == CUZK_OK) {
        out->n_inputs = ly->n_inputs;
        out->n_aux = ly->n_aux;
        out->n_constraints = ly->n_cons;
        out->hdr_aux = ly->hdr_aux;
        out->hdr_constraints = ly->hdr_cons;
        out->ch_aux = ly->ch_aux;
        out->ch_constraints = ly->ch_cons;
    }
    free(ly);
}

/* ---- units on several threads -------------------------------------------------------------- */

/* unit 0 is the header, unit 1 + i challenge i */
static void unit_start(const layout *ly, size_t u, uint64_t *in0, uint64_t *aux0) {
    *in0 = u ? ly->n_inputs : 1;
    *aux0 = u ? ly->hdr_aux + (uint64_t)(u - 1) * ly->ch_aux : 0;
}

/* runs units [u0, u1) on c (which starts at u0); hv: the header's variables (values for a witness) */
static void units_run(cs *c, const snap_params *sp, const layout *ly, size_t u0, size_t u1, const hdr_vals *v, hdr_vars *hv,
                      const snap_witness_src *src) {
    for (size_t u = u0; u < u1 && c->status == CUZK_OK; u++) {
        uint64_t in0, aux0;
        unit_start(ly, u, &in0, &aux0);
        uint64_t c0 = c->n_constraints;
        if (c->n_inputs != in0 || c->n_aux != aux0) {
            cs_fail(c, CUZK_ERR_MISMATCH, "SnapDeals circuit: unit %zu starts at input %llu aux %llu, the layout says %llu / %llu", u,
                    (unsigned long long)c->n_inputs, (unsigned long long)c->n_aux, (unsigned long long)in0,
                    (unsigned long long)aux0);
            return;
        }
        if (u == 0) {
            seg_header(c, sp, v, hv);
            if (c->n_constraints - c0 != ly->hdr_cons) cs_fail(c, CUZK_ERR_MISMATCH, "SnapDeals circuit: the header's size differs from the layout's");
        } else {
            seg_challenge(c, sp, hv, (int)(u - 1), src ? &src->proof->proofs[u - 1] : &g_blank);
            if (c->n_constraints - c0 != ly->ch_cons) cs_fail(c, CUZK_ERR_MISMATCH, "SnapDeals circuit: challenge %zu's size differs from the layout's", u - 1);
        }
    }
}

typedef struct rpar {
    const snap_params *sp;
    const layout *ly;
    size_t n_parts;
    size_t *first;            /* n_parts + 1 */
    unsigned flags;
    cs_part *parts;
    cs_bits *a_aux, *b_aux;
    uint64_t *b_in_all;
    uint64_t n_in_words;
    cuzk_status st;
    cuzk_error err;
    int failed;
} rpar;

static void set_failure(rpar *p, const cs *c) {
    if (!__atomic_exchange_n(&p->failed, 1, __ATOMIC_ACQ_REL)) {
        p->st = c->status;
        p->err = c->err;
    }
}

static void or_words(uint64_t *dst, uint64_t n_dst, const cs_bits *src) {
    uint64_t n = src->n_words < n_dst ? src->n_words : n_dst;
    for (uint64_t i = 0; i < n; i++)
        if (src->w[i]) __atomic_fetch_or(&dst[i], src->w[i], __ATOMIC_RELAXED);
}

static void part_size(const layout *ly, size_t u0, size_t u1, uint64_t *rows, uint64_t nnz[3]) {
    *rows = 0;
    for (int m = 0; m < 3; m++) nnz[m] = 0;
    for (size_t u = u0; u < u1; u++) {
        *rows += u ? ly->ch_cons : ly->hdr_cons;
        for (int m = 0; m < 3; m++) nnz[m] += u ? ly->ch_nnz[m] : ly->hdr_nnz[m];
    }
}

static void record_parts(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    rpar *p = ctx;
    hdr_vars *hv = malloc(sizeof *hv);
    hdr_vals *v = calloc(1, sizeof *v);
    for (size_t k = b; k < e && !__atomic_load_n(&p->failed, __ATOMIC_ACQUIRE); k++) {
        size_t u0 = p->first[k], u1 = p->first[k + 1];
        uint64_t in0, aux0, rows, nnz[3];
        unit_start(p->ly, u0, &in0, &aux0);
        part_size(p->ly, u0, u1, &rows, nnz);
        cs c;
        cs_init_part(&c, p->flags, in0, aux0, rows < UINT32_MAX ? (uint32_t)rows : 0, (p->flags & CS_MATRICES) && nnz[0] ? nnz : NULL);
        if (!hv || !v) cs_fail(&c, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory");
        else *hv = p->ly->hv;
        units_run(&c, p->sp, p->ly, u0, u1, v, hv, NULL);
        if (c.status == CUZK_OK && (p->flags & CS_MATRICES)) cs_take_part(&c, &p->parts[k]);
        if (c.status == CUZK_OK && (p->flags & CS_DENSITY)) {
            or_words(p->a_aux->w, p->a_aux->n_words, &c.a_aux);
            or_words(p->b_aux->w, p->b_aux->n_words, &c.b_aux);
            or_words(p->b_in_all, p->n_in_words, &c.b_in);
        }
        if (c.status != CUZK_OK) set_failure(p, &c);
        cs_free(&c);
    }
    free(hv);
    free(v);
}

/* n_parts contiguous runs of units: the header alone in part 0, the challenges split evenly */
static size_t *parts_make(const snap_params *sp, size_t n_parts) {
    size_t *first = malloc((n_parts + 1) * sizeof *first);
    if (!first) return NULL;
    size_t C = (size_t)sp->challenges, runs = n_parts - 1;
    first[0] = 0;
    for (size_t r = 0; r <= runs; r++) first[r + 1] = 1 + C * r / runs;
    return first;
}

/* the nonzeros of the header and of a challenge (exact hints for the parts' arrays) */
static cuzk_status layout_nnz(layout *ly, const snap_params *sp, cuzk_error *err) {
    for (size_t u = 0; u < 2; u++) {
        uint64_t in0, aux0;
        unit_start(ly, u, &in0, &aux0);
        cs c;
        cs_part part;
        hdr_vals v;
        hdr_vars *hv = malloc(sizeof *hv);
        memset(&v, 0, sizeof v);
        cs_init_part(&c, CS_MATRICES, in0, aux0, (uint32_t)(u ? ly->ch_cons : ly->hdr_cons), NULL);
        if (!hv) cs_fail(&c, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory");
        else *hv = ly->hv;
        units_run(&c, sp, ly, u, u + 1, &v, hv, NULL);
        free(hv);
        if (cs_take_part(&c, &part) != CUZK_OK) {
            cuzk_status st = c.status;
            if (err) *err = c.err;
            cs_free(&c);
            return st;
        }
        for (int m = 0; m < 3; m++) (u ? ly->ch_nnz : ly->hdr_nnz)[m] = part.m[m].nnz;
        cs_part_free(&part);
        cs_free(&c);
    }
    return CUZK_OK;
}

static size_t n_parts_for(const snap_params *sp, int nthreads) {
    int T = nthreads > 0 ? nthreads : cuzk_num_threads();
    size_t runs = (size_t)T < (size_t)sp->challenges ? (size_t)T : (size_t)sp->challenges;
    return 1 + runs;
}

cuzk_status snap_record_parallel(r1cs *out, const snap_params *sp, int nthreads, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    layout *ly = malloc(sizeof *ly);
    if (!ly) return ERR(err, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory");
    rpar p;
    memset(&p, 0, sizeof p);
    cuzk_status st = layout_make(ly, sp, err);
    if (st == CUZK_OK) st = layout_nnz(ly, sp, err);
    if (st == CUZK_OK) {
        p.sp = sp;
        p.ly = ly;
        p.flags = CS_MATRICES;
        p.n_parts = n_parts_for(sp, nthreads);
        p.first = parts_make(sp, p.n_parts);
        p.parts = calloc(p.n_parts, sizeof *p.parts);
        if (!p.first || !p.parts) st = ERR(err, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory");
    }
    if (st == CUZK_OK) {
        parallel_for(p.n_parts, nthreads, record_parts, &p);
        if (p.failed) {
            st = p.st;
            if (err) *err = p.err;
            for (size_t k = 0; k < p.n_parts; k++) cs_part_free(&p.parts[k]);
        } else {
            st = cs_join_parts(out, p.parts, p.n_parts, ly->n_inputs, ly->n_aux, nthreads, err);
        }
    }
    free(p.parts);
    free(p.first);
    free(ly);
    return st;
}

cuzk_status snap_count_parallel(snap_counts *out, const snap_params *sp, int nthreads, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    layout *ly = malloc(sizeof *ly);
    if (!ly) return ERR(err, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory");
    rpar p;
    memset(&p, 0, sizeof p);
    cs_bits a = {0}, b = {0};
    cuzk_status st = layout_make(ly, sp, err);
    if (st == CUZK_OK) {
        p.sp = sp;
        p.ly = ly;
        p.flags = CS_DENSITY;
        p.n_parts = n_parts_for(sp, nthreads);
        p.first = parts_make(sp, p.n_parts);
        a.n_words = b.n_words = ly->n_aux / 64 + 1;
        p.n_in_words = ly->n_inputs / 64 + 1;
        a.w = calloc(a.n_words, 8);
        b.w = calloc(b.n_words, 8);
        p.b_in_all = calloc(p.n_in_words, 8);
        p.a_aux = &a;
        p.b_aux = &b;
        if (!p.first || !a.w || !b.w || !p.b_in_all) st = ERR(err, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory");
    }
    if (st == CUZK_OK) {
        parallel_for(p.n_parts, nthreads, record_parts, &p);
        if (p.failed) {
            st = p.st;
            if (err) *err = p.err;
        } else {
            cs_bits bi = {p.b_in_all, p.n_in_words};
            out->n_inputs = ly->n_inputs;
            out->n_aux = ly->n_aux;
            out->n_constraints = ly->n_cons;
            out->a_aux = cs_bits_count(&a);
            out->b_aux = cs_bits_count(&b);
            out->b_in = cs_bits_count(&bi);
        }
    }
    free(a.w);
    free(b.w);
    free(p.b_in_all);
    free(p.first);
    free(ly);
    return st;
}

/* ---- witness -------------------------------------------------------------------------------- */

typedef struct wpar {
    fr *w;
    const snap_params *sp;
    const layout *ly;
    const hdr_vars *hv;
    const snap_witness_src *src;
    cuzk_status st;
    cuzk_error err;
    int failed;
} wpar;

static void witness_range(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    wpar *p = ctx;
    const layout *ly = p->ly;
    for (size_t i = b; i < e && !__atomic_load_n(&p->failed, __ATOMIC_ACQUIRE); i++) {
        uint64_t aux0 = ly->hdr_aux + i * ly->ch_aux;
        cs c;
        cs_init_view(&c, p->w + ly->n_inputs, ly->n_inputs, ly->n_inputs, p->w + ly->n_inputs + aux0, aux0, aux0 + ly->ch_aux);
        seg_challenge(&c, p->sp, p->hv, (int)i, &p->src->proof->proofs[i]);
        if (c.status == CUZK_OK && c.n_aux != aux0 + ly->ch_aux)
            cs_fail(&c, CUZK_ERR_MISMATCH, "SnapDeals witness: challenge %zu's size differs from the layout's", i);
        if (c.status != CUZK_OK && !__atomic_exchange_n(&p->failed, 1, __ATOMIC_ACQ_REL)) {
            p->st = c.status;
            p->err = c.err;
        }
        cs_free(&c);
    }
}

cuzk_status snap_witness_parallel(fr *w, size_t n_w, const snap_params *sp, const snap_witness_src *src, int nthreads,
                                  cuzk_error *err) {
    if (!w || !src) return ERR(err, CUZK_ERR_ARG, "SnapDeals witness: NULL argument");
    layout *ly = malloc(sizeof *ly);
    hdr_vals *v = malloc(sizeof *v);
    hdr_vars *hv = malloc(sizeof *hv);
    cuzk_status st = !ly || !v || !hv ? ERR(err, CUZK_ERR_NOMEM, "SnapDeals witness: out of memory") : layout_make(ly, sp, err);
    if (st == CUZK_OK) st = header_values(v, sp, src, err);
    if (st == CUZK_OK && n_w != ly->n_inputs + ly->n_aux)
        st = ERR(err, CUZK_ERR_ARG, "SnapDeals witness: %zu values given, the circuit has %llu", n_w,
                 (unsigned long long)(ly->n_inputs + ly->n_aux));
    if (st == CUZK_OK) {
        fr_one(&w[0]);
        cs c;
        cs_init_view(&c, w + 1, 1, ly->n_inputs, w + ly->n_inputs, 0, ly->hdr_aux);
        seg_header(&c, sp, v, hv);
        if (c.status == CUZK_OK && (c.n_aux != ly->hdr_aux || c.n_inputs != ly->n_inputs))
            cs_fail(&c, CUZK_ERR_MISMATCH, "SnapDeals witness: the header's size differs from the layout's");
        st = c.status;
        if (st != CUZK_OK && err) *err = c.err;
        cs_free(&c);
    }
    if (st == CUZK_OK) {
        wpar p;
        memset(&p, 0, sizeof p);
        p.w = w; p.sp = sp; p.ly = ly; p.hv = hv; p.src = src;
        parallel_for((size_t)sp->challenges, nthreads, witness_range, &p);
        if (p.failed) {
            st = p.st;
            if (err) *err = p.err;
        }
    }
    free(ly);
    free(v);
    free(hv);
    return st;
}

/* ---- checking a witness unit by unit ------------------------------------------------------- */

typedef struct cpar {
    const fr *w;
    const snap_params *sp;
    const layout *ly;
    uint64_t bad;             /* atomic minimum */
    cuzk_status st;
    cuzk_error err;
    int failed;
} cpar;

static void row_eval(fr *out, const csr_matrix *m, uint32_t r, const fr *w, uint64_t n_inputs) {
    fr x;
    fr_zero(out);
    for (uint64_t z = m->row_ptr[r]; z < m->row_ptr[r + 1]; z++) {
        uint32_t v = m->col[z];
        const fr *val = (v & CS_AUX) ? &w[n_inputs + (v & ~CS_AUX)] : &w[v];
        fr_mul(&x, csr_val(m, z), val);
        fr_add(out, out, &x);
    }
}

static void check_units(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    cpar *p = ctx;
    const layout *ly = p->ly;
    hdr_vars *hv = malloc(sizeof *hv);
    hdr_vals *v = calloc(1, sizeof *v);
    for (size_t u = b; u < e && !__atomic_load_n(&p->failed, __ATOMIC_ACQUIRE); u++) {
        uint64_t in0, aux0, row0 = u ? ly->hdr_cons + (u - 1) * ly->ch_cons : 0;
        if (row0 >= __atomic_load_n(&p->bad, __ATOMIC_RELAXED)) continue;
        unit_start(ly, u, &in0, &aux0);
        cs c;
        cs_part part;
        cs_init_part(&c, CS_MATRICES, in0, aux0, (uint32_t)(u ? ly->ch_cons : ly->hdr_cons), NULL);
        if (!hv || !v) cs_fail(&c, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory");
        else *hv = ly->hv;
        units_run(&c, p->sp, ly, u, u + 1, v, hv, NULL);
        if (cs_take_part(&c, &part) != CUZK_OK) {
            if (!__atomic_exchange_n(&p->failed, 1, __ATOMIC_ACQ_REL)) { p->st = c.status; p->err = c.err; }
            cs_free(&c);
            break;
        }
        cs_free(&c);
        for (uint32_t r = 0; r < part.m[0].n_rows; r++) {
            fr av, bv, cv;
            row_eval(&av, &part.m[0], r, p->w, ly->n_inputs);
            row_eval(&bv, &part.m[1], r, p->w, ly->n_inputs);
            row_eval(&cv, &part.m[2], r, p->w, ly->n_inputs);
            fr_mul(&av, &av, &bv);
            if (!fr_eq(&av, &cv)) {
                uint64_t row = row0 + r, cur = __atomic_load_n(&p->bad, __ATOMIC_RELAXED);
                while (row < cur && !__atomic_compare_exchange_n(&p->bad, &cur, row, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
                break;
            }
        }
        cs_part_free(&part);
    }
    free(hv);
    free(v);
}

cuzk_status snap_check_witness_parallel(const fr *w, size_t n_w, const snap_params *sp, int nthreads, uint64_t *bad_row,
                                        cuzk_error *err) {
    if (bad_row) *bad_row = UINT64_MAX;
    layout *ly = malloc(sizeof *ly);
    if (!ly) return ERR(err, CUZK_ERR_NOMEM, "SnapDeals circuit: out of memory");
    cuzk_status st = layout_make(ly, sp, err);
    if (st == CUZK_OK && n_w != ly->n_inputs + ly->n_aux)
        st = ERR(err, CUZK_ERR_ARG, "SnapDeals witness check: %zu values given, the circuit has %llu", n_w,
                 (unsigned long long)(ly->n_inputs + ly->n_aux));
    if (st == CUZK_OK) {
        cpar p;
        memset(&p, 0, sizeof p);
        p.w = w; p.sp = sp; p.ly = ly; p.bad = UINT64_MAX;
        parallel_for(1 + (size_t)sp->challenges, nthreads, check_units, &p);
        if (p.failed) {
            st = p.st;
            if (err) *err = p.err;
        } else if (p.bad != UINT64_MAX) {
            if (bad_row) *bad_row = p.bad;
            st = ERR(err, CUZK_ERR_UNSAT, "SnapDeals witness does not satisfy constraint %llu: <A,w>*<B,w> != <C,w>",
                     (unsigned long long)p.bad);
        }
    }
    free(ly);
    return st;
}
