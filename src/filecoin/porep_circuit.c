/* The StackedCircuit of one PoRep partition (porep_circuit.h). */
#include "filecoin/porep_circuit.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gadgets/sdr.h"
#include "util/log.h"
#include "util/parallel.h"

/* ---- the units and the variables they share ------------------------------------------------ */

/* the header's variables, used by every challenge */
typedef struct hdr_vars {
    cs_bool replica_bits[256];   /* reverse_bit_numbering(to_bits_le(replica_id)) */
    cs_num comm_d, comm_r, comm_r_last, comm_c;
} hdr_vars;

/* a challenge's variables shared between its units */
typedef struct ch_vars {
    cs_num data_leaf;
    cs_num cols[POREP_PARENTS][POREP_MAX_LAYERS];  /* 6 DRG then 8 expander columns, rows by layer */
    cs_bool chal_bits[64];                         /* UInt64, least significant first */
    cs_num labels[POREP_MAX_LAYERS];
} ch_vars;

typedef struct hdr_vals { fr replica_id, comm_d, comm_r, comm_r_last, comm_c; } hdr_vals;

/* a blank challenge proof: every value and index zero */
static const porep_challenge_proof g_blank;

static void seg_header(cs *cs, const hdr_vals *v, hdr_vars *hv) {
    cs_num rid = num_alloc(cs, &v->replica_id);
    num_inputize(cs, &rid);
    cs_bool bits[255];
    num_to_bits_le(cs, bits, &rid);
    sdr_reverse_bit_numbering(hv->replica_bits, bits, 255);
    hv->comm_d = num_alloc(cs, &v->comm_d);
    num_inputize(cs, &hv->comm_d);
    hv->comm_r = num_alloc(cs, &v->comm_r);
    num_inputize(cs, &hv->comm_r);
    hv->comm_r_last = num_alloc(cs, &v->comm_r_last);
    hv->comm_c = num_alloc(cs, &v->comm_c);
    cs_num in[2] = {hv->comm_c, hv->comm_r_last};
    cs_num h = poseidon_gadget(cs, in, 2);
    num_enforce_equal(cs, &hv->comm_r, &h);
}

static const porep_column_proof *column_of(const porep_challenge_proof *pr, int j) {
    return j < POREP_DRG_DEGREE ? &pr->drg[j] : &pr->exp[j - POREP_DRG_DEGREE];
}

static void seg_prefix(cs *cs, const porep_params *pp, const porep_challenge_proof *pr, const hdr_vars *hv, ch_vars *cv) {
    cv->data_leaf = num_alloc(cs, &pr->comm_d_leaf);
    sdr_por_sha256_gadget(cs, pp->d_levels, &cv->data_leaf, &pr->comm_d_path, &hv->comm_d);
    for (int j = 0; j < POREP_PARENTS; j++) {
        const porep_column_proof *col = column_of(pr, j);
        for (int r = 0; r < pp->layers; r++) cv->cols[j][r] = num_alloc(cs, &col->rows[r]);
        cs_num h = sdr_column_hash_gadget(cs, cv->cols[j], pp->layers);
        por_gadget_leaf(cs, &pp->shape, &h, &col->path, &hv->comm_c);
    }
    sdr_u64_alloc(cs, cv->chal_bits, pr->labeling[0].node);
    pack_into_inputs(cs, cv->chal_bits, 64);
}

static void seg_label(cs *cs, const porep_params *pp, int layer, const hdr_vars *hv, ch_vars *cv) {
    (void)pp;
    cs_bool pb[POREP_PARENTS][256], bits[255];
    const cs_bool *exp[SDR_LABEL_PARENTS];
    int np = 0;
    for (int j = 0; j < POREP_DRG_DEGREE; j++) {
        num_to_bits_le(cs, bits, &cv->cols[j][layer - 1]);
        sdr_reverse_bit_numbering(pb[np++], bits, 255);
    }
    if (layer > 1)
        for (int j = 0; j < POREP_EXP_DEGREE; j++) {
            /* the expander parents' labels of the previous layer */
            num_to_bits_le(cs, bits, &cv->cols[POREP_DRG_DEGREE + j][layer - 2]);
            sdr_reverse_bit_numbering(pb[np++], bits, 255);
        }
    if (layer > 1) {
        for (int i = 0; i < POREP_PARENTS; i++) exp[i] = exp[POREP_PARENTS + i] = pb[i];
        for (int i = 0; i < 9; i++) exp[2 * POREP_PARENTS + i] = pb[i];
    } else {
        for (int r = 0; r < 6; r++)
            for (int i = 0; i < POREP_DRG_DEGREE; i++) exp[r * POREP_DRG_DEGREE + i] = pb[i];
        exp[36] = pb[0];
    }
    cv->labels[layer - 1] = sdr_create_label_gadget(cs, hv->replica_bits, exp, (uint32_t)layer, cv->chal_bits);
}

static void seg_tail(cs *cs, const porep_params *pp, const porep_challenge_proof *pr, const hdr_vars *hv, const ch_vars *cv) {
    cs_num enc = sdr_encode_gadget(cs, &cv->labels[pp->layers - 1], &cv->data_leaf);
    por_gadget_leaf(cs, &pp->shape, &enc, &pr->comm_r_last_path, &hv->comm_r_last);
    cs_num ch = sdr_column_hash_gadget(cs, cv->labels, pp->layers);
    por_gadget_leaf(cs, &pp->shape, &ch, &pr->c_x.path, &hv->comm_c);
}

/* ---- parameters and values ----------------------------------------------------------------- */

cuzk_status porep_circuit_check(const porep_params *pp, cuzk_error *err) {
    if (pp->layers != 2 && pp->layers != 11)
        return ERR(err, CUZK_ERR_ARG, "PoRep circuit: %d layers (2 or 11: the column hash's Poseidon arities)", pp->layers);
    if (pp->challenges < 1 || pp->challenges > POREP_MAX_CHALLENGES)
        return ERR(err, CUZK_ERR_ARG, "PoRep circuit: %d challenges per partition (1..%d)", pp->challenges, POREP_MAX_CHALLENGES);
    if (pp->d_levels < 1 || pp->d_levels > MERKLE_MAX_LEVELS || pp->d_levels > 40 || pp->nodes != 1ull << pp->d_levels)
        return ERR(err, CUZK_ERR_ARG, "PoRep circuit: %llu nodes and tree D of %d levels", (unsigned long long)pp->nodes,
                   pp->d_levels);
    int lv = merkle_levels(&pp->shape);
    if (pp->shape.base_arity < 2 || lv < 1 || lv > MERKLE_MAX_LEVELS || merkle_leaves(&pp->shape) != pp->nodes)
        return ERR(err, CUZK_ERR_ARG, "PoRep circuit: tree shape (base %d^%d, sub %d, top %d) does not hold %llu nodes",
                   pp->shape.base_arity, pp->shape.base_levels, pp->shape.sub_arity, pp->shape.top_arity,
                   (unsigned long long)pp->nodes);
    return CUZK_OK;
}

static cuzk_status c1_check(const porep_params *pp, const porep_c1 *c1, uint32_t k, cuzk_error *err) {
    if (k >= c1->n_partitions)
        return ERR(err, CUZK_ERR_ARG, "PoRep circuit: partition %u of a C1 output with %u", k, c1->n_partitions);
    if (c1->n_challenges != (uint32_t)pp->challenges)
        return ERR(err, CUZK_ERR_ARG, "PoRep circuit: the C1 output has %u challenges per partition, the circuit %d",
                   c1->n_challenges, pp->challenges);
    if (!c1->proofs) return ERR(err, CUZK_ERR_ARG, "PoRep circuit: the C1 output has no challenge proofs");
    return CUZK_OK;
}

static cuzk_status header_values(hdr_vals *v, const porep_c1 *c1, uint32_t k, cuzk_error *err) {
    memset(v, 0, sizeof *v);
    if (!c1) return CUZK_OK;
    if (!fr_from_bytes_le(&v->replica_id, c1->replica_id, 32))
        return ERR(err, CUZK_ERR_ARG, "PoRep circuit: replica_id is not a canonical Fr");
    if (!fr_from_bytes_le(&v->comm_d, c1->comm_d, 32)) return ERR(err, CUZK_ERR_ARG, "PoRep circuit: comm_d is not a canonical Fr");
    if (!fr_from_bytes_le(&v->comm_r, c1->comm_r, 32)) return ERR(err, CUZK_ERR_ARG, "PoRep circuit: comm_r is not a canonical Fr");
    /* StackedCompound::circuit: comm_r_last and comm_c from the partition's first proof */
    const porep_challenge_proof *p0 = porep_c1_proof(c1, k, 0);
    v->comm_r_last = p0->comm_r_last_root;
    v->comm_c = p0->c_x.root;
    return CUZK_OK;
}

cuzk_status porep_synthesize(cs *cs, const porep_params *pp, const porep_c1 *c1, uint32_t k) {
    if (cs->status != CUZK_OK) return cs->status;
    cuzk_error e = {0};
    cuzk_status st = porep_circuit_check(pp, &e);
    if (st == CUZK_OK && c1) st = c1_check(pp, c1, k, &e);
    hdr_vals hvals;
    if (st == CUZK_OK) st = header_values(&hvals, c1, k, &e);
    if (st != CUZK_OK) return cs_fail(cs, st, "%s", e.msg);
    hdr_vars hv;
    ch_vars cv;
    seg_header(cs, &hvals, &hv);
    for (int c = 0; c < pp->challenges && cs->status == CUZK_OK; c++) {
        const porep_challenge_proof *pr = c1 ? porep_c1_proof(c1, k, (uint32_t)c) : &g_blank;
        seg_prefix(cs, pp, pr, &hv, &cv);
        for (int l = 1; l <= pp->layers && cs->status == CUZK_OK; l++) seg_label(cs, pp, l, &hv, &cv);
        seg_tail(cs, pp, pr, &hv, &cv);
    }
    return cs->status;
}

/* ---- the layout: sizes of the units, the shared variables' numbers ---------------------------- */

typedef struct unit_size { uint64_t in, aux, cons; } unit_size;

typedef struct porep_layout {
    unit_size hdr, pre, lab[2], tail, ch;   /* lab[0]: layer 1; lab[1]: every later layer */
    uint64_t n_inputs, n_aux, n_constraints;
    uint64_t rid_bit0;                      /* aux index of replica_id's to_bits_le bit 0 */
    hdr_vars hv;                            /* the header's variables (values zero) */
    ch_vars cv;                             /* challenge 0's variables (values zero) */
} porep_layout;

static unit_size size_since(const cs *c, uint64_t i0, uint64_t a0, uint64_t c0) {
    unit_size s = {c->n_inputs - i0, c->n_aux - a0, c->n_constraints - c0};
    return s;
}

static void shift_num(cs_num *n, uint64_t d) {
    if (n->var & CS_AUX) n->var = CS_AUX | (cs_var)((n->var & ~CS_AUX) + d);
}
static void shift_bool(cs_bool *b, uint64_t d) {
    if (b->kind != BOOL_CONST) b->var = CS_AUX | (cs_var)((b->var & ~CS_AUX) + d);
}

/* One blank pass over the header, challenge 0's prefix, labels of layers 1 and 2 and its tail on a
 * counting builder; the labels of layers 3.. are those of layer 2, moved. */
static cuzk_status layout_compute(porep_layout *ly, const porep_params *pp, cuzk_error *err) {
    memset(ly, 0, sizeof *ly);
    cs c;
    if (cs_init(&c, 0) != CUZK_OK) return ERR(err, CUZK_ERR_NOMEM, "PoRep circuit: out of memory");
    hdr_vals zero;
    memset(&zero, 0, sizeof zero);
    uint64_t i0 = c.n_inputs, a0 = c.n_aux, c0 = c.n_constraints;
    seg_header(&c, &zero, &ly->hv);
    ly->hdr = size_since(&c, i0, a0, c0);
    ly->rid_bit0 = ly->hv.replica_bits[7].var & ~CS_AUX;   /* reverse_bit_numbering: out[7] = in[0] */
    i0 = c.n_inputs; a0 = c.n_aux; c0 = c.n_constraints;
    seg_prefix(&c, pp, &g_blank, &ly->hv, &ly->cv);
    ly->pre = size_since(&c, i0, a0, c0);
    for (int l = 1; l <= 2; l++) {
        i0 = c.n_inputs; a0 = c.n_aux; c0 = c.n_constraints;
        seg_label(&c, pp, l, &ly->hv, &ly->cv);
        ly->lab[l - 1] = size_since(&c, i0, a0, c0);
    }
    /* layers 3..: the same unit as layer 2's, further on */
    for (int l = 3; l <= pp->layers; l++) {
        ly->cv.labels[l - 1] = ly->cv.labels[1];
        shift_num(&ly->cv.labels[l - 1], (uint64_t)(l - 2) * ly->lab[1].aux);
    }
    uint64_t skip = (uint64_t)(pp->layers - 2);
    c.n_inputs += skip * ly->lab[1].in;   /* a counting builder stores nothing: moving on is enough */
    c.n_aux += skip * ly->lab[1].aux;
    c.n_constraints += skip * ly->lab[1].cons;
    i0 = c.n_inputs; a0 = c.n_aux; c0 = c.n_constraints;
    seg_tail(&c, pp, &g_blank, &ly->hv, &ly->cv);
    ly->tail = size_since(&c, i0, a0, c0);
    cuzk_status st = c.status;
    if (st != CUZK_OK && err) *err = c.err;
    cs_free(&c);
    if (st != CUZK_OK) return st;
    unit_size *u[3] = {&ly->pre, &ly->lab[0], &ly->tail};
    ly->ch = *u[0];
    for (int i = 1; i < 3; i++) { ly->ch.in += u[i]->in; ly->ch.aux += u[i]->aux; ly->ch.cons += u[i]->cons; }
    ly->ch.in += (uint64_t)(pp->layers - 1) * ly->lab[1].in;
    ly->ch.aux += (uint64_t)(pp->layers - 1) * ly->lab[1].aux;
    ly->ch.cons += (uint64_t)(pp->layers - 1) * ly->lab[1].cons;
    uint64_t nc = (uint64_t)pp->challenges;
    ly->n_inputs = 1 + ly->hdr.in + nc * ly->ch.in;
    ly->n_aux = ly->hdr.aux + nc * ly->ch.aux;
    ly->n_constraints = ly->hdr.cons + nc * ly->ch.cons;
    /* the shared variables a unit is handed must be what the builder numbered: replica_id's bits
     * and the challenge's bits contiguous (their values are set by index) */
    for (int i = 0; i < 255; i++) {
        const cs_bool *b = &ly->hv.replica_bits[(i / 8) * 8 + 7 - i % 8];
        if (b->kind != BOOL_IS || (b->var & ~CS_AUX) != ly->rid_bit0 + (uint64_t)i)
            return ERR(err, CUZK_ERR_MISMATCH, "PoRep circuit: replica_id bit %d is not where the layout expects it", i);
    }
    return CUZK_OK;
}

/* a small process-wide cache: the layout of each shape met (a handful) */
#define LAYOUT_CACHE 8
static struct { bool used; porep_params key; porep_layout ly; } g_cache[LAYOUT_CACHE];
static int g_cache_next;
static pthread_mutex_t g_cache_lock = PTHREAD_MUTEX_INITIALIZER;

static bool same_shape(const porep_params *a, const porep_params *b) {
    return a->nodes == b->nodes && a->layers == b->layers && a->challenges == b->challenges && a->d_levels == b->d_levels &&
           a->shape.base_arity == b->shape.base_arity && a->shape.base_levels == b->shape.base_levels &&
           a->shape.sub_arity == b->shape.sub_arity && a->shape.top_arity == b->shape.top_arity;
}

static cuzk_status layout_get(porep_layout *ly, const porep_params *pp, cuzk_error *err) {
    cuzk_status st = porep_circuit_check(pp, err);
    if (st != CUZK_OK) return st;
    pthread_mutex_lock(&g_cache_lock);
    for (int i = 0; i < LAYOUT_CACHE; i++)
        if (g_cache[i].used && same_shape(&g_cache[i].key, pp)) {
            *ly = g_cache[i].ly;
            pthread_mutex_unlock(&g_cache_lock);
            return CUZK_OK;
        }
    pthread_mutex_unlock(&g_cache_lock);
    st = layout_compute(ly, pp, err);
    if (st != CUZK_OK) return st;
    pthread_mutex_lock(&g_cache_lock);
    int i = g_cache_next;
    g_cache_next = (g_cache_next + 1) % LAYOUT_CACHE;
    g_cache[i].used = true;
    g_cache[i].key = *pp;
    g_cache[i].ly = *ly;
    pthread_mutex_unlock(&g_cache_lock);
    return CUZK_OK;
}

void porep_circuit_sizes(const porep_params *pp, porep_sizes *out) {
    memset(out, 0, sizeof *out);
    porep_layout *ly = malloc(sizeof *ly);
    if (ly && layout_get(ly, pp, NULL) == CUZK_OK) {
        out->n_inputs = ly->n_inputs;
        out->n_aux = ly->n_aux;
        out->n_constraints = ly->n_constraints;
    }
    free(ly);
}

/* ---- units ------------------------------------------------------------------------------------ */

enum { U_HDR, U_PRE, U_LAB, U_TAIL };
typedef struct unit {
    uint8_t kind;
    uint8_t layer;      /* U_LAB: 1..layers */
    uint32_t c;         /* the challenge */
    uint64_t in0, aux0; /* where it starts */
    unit_size sz;
} unit;

/* the units in circuit order; n = 1 + challenges * (layers + 2) */
static unit *units_make(const porep_layout *ly, const porep_params *pp, size_t *n) {
    *n = 1 + (size_t)pp->challenges * (size_t)(pp->layers + 2);
    unit *u = calloc(*n, sizeof *u);
    if (!u) return NULL;
    size_t k = 0;
    uint64_t in = 1, aux = 0;
    u[k++] = (unit){U_HDR, 0, 0, in, aux, ly->hdr};
    in += ly->hdr.in; aux += ly->hdr.aux;
    for (uint32_t c = 0; c < (uint32_t)pp->challenges; c++) {
        u[k++] = (unit){U_PRE, 0, c, in, aux, ly->pre};
        in += ly->pre.in; aux += ly->pre.aux;
        for (int l = 1; l <= pp->layers; l++) {
            const unit_size *s = &ly->lab[l > 1];
            u[k++] = (unit){U_LAB, (uint8_t)l, c, in, aux, *s};
            in += s->in; aux += s->aux;
        }
        u[k++] = (unit){U_TAIL, 0, c, in, aux, ly->tail};
        in += ly->tail.in; aux += ly->tail.aux;
    }
    return u;
}

/* The shared variables a unit of challenge c is handed: the layout's, moved to challenge c, with
 * the values of the header (hvals), of the challenge's proof (pr) and the labels read back from
 * the witness's aux part (w_aux); NULL: zero. */
static void unit_vars(hdr_vars *hv, ch_vars *cv, const porep_layout *ly, const porep_params *pp, uint32_t c,
                      const hdr_vals *hvals, const porep_challenge_proof *pr, const fr *w_aux) {
    *hv = ly->hv;
    *cv = ly->cv;
    uint64_t d = (uint64_t)c * ly->ch.aux;
    shift_num(&cv->data_leaf, d);
    for (int j = 0; j < POREP_PARENTS; j++)
        for (int r = 0; r < pp->layers; r++) shift_num(&cv->cols[j][r], d);
    for (int i = 0; i < 64; i++) shift_bool(&cv->chal_bits[i], d);
    for (int l = 0; l < pp->layers; l++) shift_num(&cv->labels[l], d);
    if (hvals) {
        hv->comm_d.value = hvals->comm_d;
        hv->comm_r.value = hvals->comm_r;
        hv->comm_r_last.value = hvals->comm_r_last;
        hv->comm_c.value = hvals->comm_c;
        uint64_t rc[4];
        fr_to_canon(rc, &hvals->replica_id);
        for (int i = 0; i < 256; i++) {
            cs_bool *b = &hv->replica_bits[i];
            if (b->kind == BOOL_CONST) continue;
            uint64_t bit = (b->var & ~CS_AUX) - ly->rid_bit0;
            b->value = (rc[bit / 64] >> (bit % 64)) & 1;
        }
    }
    if (pr) {
        cv->data_leaf.value = pr->comm_d_leaf;
        for (int j = 0; j < POREP_PARENTS; j++)
            for (int r = 0; r < pp->layers; r++) cv->cols[j][r].value = column_of(pr, j)->rows[r];
        uint64_t node = pr->labeling[0].node;
        for (int i = 0; i < 64; i++) cv->chal_bits[i].value = (node >> i) & 1;
    }
    if (w_aux)
        for (int l = 0; l < pp->layers; l++) cv->labels[l].value = w_aux[cv->labels[l].var & ~CS_AUX];
}

/* Synthesizes unit u on a builder that starts where u does; checks it ends where the layout says. */
static void unit_run(cs *cs, const porep_layout *ly, const porep_params *pp, const unit *u, const hdr_vals *hvals,
                     const porep_challenge_proof *pr, const fr *w_aux) {
    static const hdr_vals zero;
    hdr_vars hv;
    ch_vars cv;
    unit_vars(&hv, &cv, ly, pp, u->c, hvals, pr, w_aux);
    if (!hvals) hvals = &zero;
    const porep_challenge_proof *p = pr ? pr : &g_blank;
    uint64_t c0 = cs->n_constraints;
    switch (u->kind) {
    case U_HDR: seg_header(cs, hvals, &hv); break;
    case U_PRE: seg_prefix(cs, pp, p, &hv, &cv); break;
    case U_LAB: seg_label(cs, pp, u->layer, &hv, &cv); break;
    default: seg_tail(cs, pp, p, &hv, &cv); break;
    }
    if (cs->status == CUZK_OK &&
        (cs->n_inputs != u->in0 + u->sz.in || cs->n_aux != u->aux0 + u->sz.aux || cs->n_constraints - c0 != u->sz.cons))
        cs_fail(cs, CUZK_ERR_MISMATCH,
                "PoRep circuit: unit %d (challenge %u, layer %d) ended at input %llu / aux %llu after %llu constraints, "
                "the layout says %llu / %llu / %llu",
                u->kind, u->c, u->layer, (unsigned long long)cs->n_inputs, (unsigned long long)cs->n_aux,
                (unsigned long long)(cs->n_constraints - c0), (unsigned long long)(u->in0 + u->sz.in),
                (unsigned long long)(u->aux0 + u->sz.aux), (unsigned long long)u->sz.cons);
}

/* ---- recording and counting on several threads ----------------------------------------------- */

typedef struct rpar {
    const porep_params *pp;
    const porep_layout *ly;
    const unit *units;
    size_t n_parts;
    const size_t *first;      /* n_parts + 1: part p holds units [first[p], first[p + 1]) */
    unsigned flags;
    uint64_t nnz[5][3];       /* CS_MATRICES: nonzeros of a header, prefix, layer-1 label, later label, tail */
    cs_part *parts;
    cs_bits *a_aux, *b_aux;   /* CS_DENSITY: the ORed bitmaps */
    uint64_t *b_in_all;
    uint64_t n_in_words;
    cuzk_status st;
    cuzk_error err;
    int failed;
} rpar;

static int nnz_kind(const unit *u) { return u->kind == U_HDR ? 0 : u->kind == U_PRE ? 1 : u->kind == U_LAB ? (u->layer > 1 ? 3 : 2) : 4; }

static void or_words(uint64_t *dst, uint64_t n_dst, const cs_bits *src) {
    uint64_t n = src->n_words < n_dst ? src->n_words : n_dst;
    for (uint64_t i = 0; i < n; i++)
        if (src->w[i]) __atomic_fetch_or(&dst[i], src->w[i], __ATOMIC_RELAXED);
}

static void set_failure(rpar *p, const cs *c) {
    if (!__atomic_exchange_n(&p->failed, 1, __ATOMIC_ACQ_REL)) {
        p->st = c->status;
        p->err = c->err;
    }
}

static void record_parts(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    rpar *p = ctx;
    for (size_t k = b; k < e && !__atomic_load_n(&p->failed, __ATOMIC_ACQUIRE); k++) {
        const unit *u0 = &p->units[p->first[k]], *u1 = &p->units[p->first[k + 1] - 1];
        uint64_t rows = 0, nnz[3] = {0, 0, 0};
        for (const unit *u = u0; u <= u1; u++) {
            rows += u->sz.cons;
            for (int m = 0; m < 3; m++) nnz[m] += p->nnz[nnz_kind(u)][m];
        }
        cs c;
        cs_init_part(&c, p->flags, u0->in0, u0->aux0, rows < UINT32_MAX ? (uint32_t)rows : 0,
                     (p->flags & CS_MATRICES) ? nnz : NULL);
        for (const unit *u = u0; u <= u1 && c.status == CUZK_OK; u++) unit_run(&c, p->ly, p->pp, u, NULL, NULL, NULL);
        if (c.status == CUZK_OK && (p->flags & CS_MATRICES)) cs_take_part(&c, &p->parts[k]);
        if (c.status == CUZK_OK && (p->flags & CS_DENSITY)) {
            or_words(p->a_aux->w, p->a_aux->n_words, &c.a_aux);
            or_words(p->b_aux->w, p->b_aux->n_words, &c.b_aux);
            or_words(p->b_in_all, p->n_in_words, &c.b_in);
        }
        if (c.status != CUZK_OK) set_failure(p, &c);
        cs_free(&c);
    }
}

/* the nonzeros of one unit of each kind (challenge 0's), recorded on parallel threads */
typedef struct { rpar *p; const unit *kinds[5]; } nnz_ctx;
static void nnz_units(void *ctx, size_t b, size_t e, int tid) {
    (void)tid;
    nnz_ctx *x = ctx;
    for (size_t k = b; k < e; k++) {
        const unit *u = x->kinds[k];
        cs c;
        cs_part part;
        cs_init_part(&c, CS_MATRICES, u->in0, u->aux0, (uint32_t)u->sz.cons, NULL);
        unit_run(&c, x->p->ly, x->p->pp, u, NULL, NULL, NULL);
        if (cs_take_part(&c, &part) == CUZK_OK) {
            for (int m = 0; m < 3; m++) x->p->nnz[k][m] = part.m[m].nnz;
            cs_part_free(&part);
        } else {
            set_failure(x->p, &c);
        }
        cs_free(&c);
    }
}

/* parts: contiguous runs of units of about total / n_parts constraints each, none empty */
static size_t *parts_make(const unit *u, size_t n_units, size_t n_parts) {
    size_t *first = malloc((n_parts + 1) * sizeof *first);
    if (!first) return NULL;
    uint64_t total = 0, acc = 0;
    for (size_t i = 0; i < n_units; i++) total += u[i].sz.cons;
    size_t i = 0;
    first[0] = 0;
    for (size_t p = 0; p < n_parts; p++) {
        uint64_t target = total / n_parts * (p + 1) + (p + 1 == n_parts ? total % n_parts : 0);
        /* at least one unit, and leave one for each later part */
        do { acc += u[i++].sz.cons; } while (i < n_units - (n_parts - 1 - p) && acc + u[i].sz.cons / 2 < target);
        first[p + 1] = i;
    }
    first[n_parts] = n_units;
    return first;
}

static cuzk_status record_common(rpar *p, porep_layout *ly, unit **units, size_t **first, const porep_params *pp,
                                 unsigned flags, int nthreads, cuzk_error *err) {
    memset(p, 0, sizeof *p);
    *units = NULL;
    *first = NULL;
    cuzk_status st = layout_get(ly, pp, err);
    if (st != CUZK_OK) return st;
    size_t n_units;
    if (!(*units = units_make(ly, pp, &n_units))) return ERR(err, CUZK_ERR_NOMEM, "PoRep circuit: out of memory");
    int T = nthreads > 0 ? nthreads : cuzk_num_threads();
    p->n_parts = (size_t)T < n_units ? (size_t)T : n_units;
    if (!(*first = parts_make(*units, n_units, p->n_parts))) return ERR(err, CUZK_ERR_NOMEM, "PoRep circuit: out of memory");
    p->pp = pp;
    p->ly = ly;
    p->units = *units;
    p->first = *first;
    p->flags = flags;
    if (flags & CS_MATRICES) {
        const unit *u = *units;
        nnz_ctx x = {p, {&u[0], &u[1], &u[2], &u[3], &u[2 + (size_t)pp->layers]}};
        parallel_for(5, nthreads, nnz_units, &x);
        if (p->failed) {
            if (err) *err = p->err;
            return p->st;
        }
    }
    return CUZK_OK;
}

cuzk_status porep_record_parallel(r1cs *out, const porep_params *pp, int nthreads, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    rpar p;
    unit *units;
    size_t *first;
    porep_layout *ly = malloc(sizeof *ly);
    if (!ly) return ERR(err, CUZK_ERR_NOMEM, "PoRep circuit: out of memory");
    cuzk_status st = record_common(&p, ly, &units, &first, pp, CS_MATRICES, nthreads, err);
    if (st == CUZK_OK && !(p.parts = calloc(p.n_parts, sizeof *p.parts))) st = ERR(err, CUZK_ERR_NOMEM, "PoRep circuit: out of memory");
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
    free(units);
    free(first);
    free(ly);
    return st;
}

cuzk_status porep_count_parallel(porep_counts *out, const porep_params *pp, int nthreads, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    rpar p;
    unit *units;
    size_t *first;
    cs_bits a = {0}, b = {0};
    porep_layout *ly = malloc(sizeof *ly);
    if (!ly) return ERR(err, CUZK_ERR_NOMEM, "PoRep circuit: out of memory");
    cuzk_status st = record_common(&p, ly, &units, &first, pp, CS_DENSITY, nthreads, err);
    if (st == CUZK_OK) {
        a.n_words = b.n_words = ly->n_aux / 64 + 1;
        p.n_in_words = ly->n_inputs / 64 + 1;
        a.w = calloc(a.n_words, 8);
        b.w = calloc(b.n_words, 8);
        p.b_in_all = calloc(p.n_in_words, 8);
        if (!a.w || !b.w || !p.b_in_all) st = ERR(err, CUZK_ERR_NOMEM, "PoRep circuit: out of memory (density bitmaps)");
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
            out->n_inputs = ly->n_inputs;
            out->n_aux = ly->n_aux;
            out->n_constraints = ly->n_constraints;
            out->a_aux = cs_bits_count(&a);
            out->b_aux = cs_bits_count(&b);
            out->b_in = cs_bits_count(&bi);
        }
    }
    free(a.w);
    free(b.w);
    free(p.b_in_all);
    free(units);
    free(first);
    free(ly);
    return st;
}

/* ---- witness on several threads ------------------------------------------------------------- */

typedef struct wpar {
    fr *w;
    const porep_params *pp;
    const porep_layout *ly;
    const porep_c1 *c1;
    uint32_t k;
    const hdr_vals *hvals;
    const unit *units;
    const size_t *order;      /* the units of this phase, largest first */
    size_t n_order;
    size_t next;              /* atomic: the next position in order */
    cuzk_status st;
    cuzk_error err;
    int failed;
} wpar;

static void witness_worker(void *ctx, size_t b, size_t e, int tid) {
    (void)b; (void)e; (void)tid;
    wpar *p = ctx;
    for (;;) {
        size_t i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
        if (i >= p->n_order || __atomic_load_n(&p->failed, __ATOMIC_ACQUIRE)) return;
        const unit *u = &p->units[p->order[i]];
        cs c;
        cs_init_view(&c, p->w + u->in0, u->in0, u->in0 + u->sz.in, p->w + p->ly->n_inputs + u->aux0, u->aux0,
                     u->aux0 + u->sz.aux);
        const porep_challenge_proof *pr = u->kind == U_HDR ? NULL : porep_c1_proof(p->c1, p->k, u->c);
        unit_run(&c, p->ly, p->pp, u, p->hvals, pr, u->kind == U_TAIL ? p->w + p->ly->n_inputs : NULL);
        if (c.status != CUZK_OK && !__atomic_exchange_n(&p->failed, 1, __ATOMIC_ACQ_REL)) {
            p->st = c.status;
            p->err = c.err;
        }
        cs_free(&c);
    }
}

cuzk_status porep_witness_parallel(fr *w, size_t n_w, const porep_params *pp, const porep_c1 *c1, uint32_t k, int nthreads,
                                   cuzk_error *err) {
    porep_layout *ly = malloc(sizeof *ly);
    if (!ly) return ERR(err, CUZK_ERR_NOMEM, "PoRep circuit: out of memory");
    unit *units = NULL;
    size_t *order = NULL, n_units = 0;
    hdr_vals hvals;
    cuzk_status st = layout_get(ly, pp, err);
    if (st == CUZK_OK && !c1) st = ERR(err, CUZK_ERR_ARG, "PoRep witness: no C1 output");
    if (st == CUZK_OK) st = c1_check(pp, c1, k, err);
    if (st == CUZK_OK) st = header_values(&hvals, c1, k, err);
    if (st == CUZK_OK && n_w != ly->n_inputs + ly->n_aux)
        st = ERR(err, CUZK_ERR_ARG, "PoRep witness: %zu values given, the circuit has %llu", n_w,
                 (unsigned long long)(ly->n_inputs + ly->n_aux));
    if (st == CUZK_OK && (!(units = units_make(ly, pp, &n_units)) || !(order = malloc(n_units * sizeof *order))))
        st = ERR(err, CUZK_ERR_NOMEM, "PoRep witness: out of memory");
    if (st == CUZK_OK) {
        fr_one(&w[0]);
        int T = nthreads > 0 ? nthreads : cuzk_num_threads();
        /* phase 1: prefixes (the largest: tree D's SHA-256 path), labels, the header;
         * phase 2: the tails, which read the labels back from w */
        static const uint8_t phases[2][3] = {{U_PRE, U_LAB, U_HDR}, {U_TAIL, U_TAIL, U_TAIL}};
        for (int ph = 0; ph < 2 && st == CUZK_OK; ph++) {
            wpar p;
            memset(&p, 0, sizeof p);
            p.w = w; p.pp = pp; p.ly = ly; p.c1 = c1; p.k = k; p.hvals = &hvals; p.units = units; p.order = order;
            for (int q = 0; q < (ph ? 1 : 3); q++)
                for (size_t i = 0; i < n_units; i++)
                    if (units[i].kind == phases[ph][q]) order[p.n_order++] = i;
            size_t t = (size_t)T < p.n_order ? (size_t)T : p.n_order;
            parallel_for(t, (int)t, witness_worker, &p);
            if (p.failed) {
                st = p.st;
                if (err) *err = p.err;
            }
        }
    }
    free(order);
    free(units);
    free(ly);
    return st;
}

/* ---- checking a witness unit by unit -------------------------------------------------------- */

typedef struct cpar {
    const fr *w;
    const porep_params *pp;
    const porep_layout *ly;
    const unit *units;
    const uint64_t *row0;     /* per unit: its first row */
    size_t n_units;
    size_t next;              /* atomic */
    uint64_t bad;             /* atomic minimum: the first unsatisfied row, UINT64_MAX if none */
    cuzk_status st;           /* a builder failure (not UNSAT) */
    cuzk_error err;
    int failed;
} cpar;

/* <row r of m, w> with m's columns encoded (input i as i, aux j as CS_AUX | j) */
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

static void check_worker(void *ctx, size_t b, size_t e, int tid) {
    (void)b; (void)e; (void)tid;
    cpar *p = ctx;
    for (;;) {
        size_t i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
        if (i >= p->n_units || __atomic_load_n(&p->failed, __ATOMIC_ACQUIRE)) return;
        const unit *u = &p->units[i];
        if (p->row0[i] >= __atomic_load_n(&p->bad, __ATOMIC_RELAXED)) continue;   /* an earlier row failed */
        cs c;
        cs_part part;
        cs_init_part(&c, CS_MATRICES, u->in0, u->aux0, (uint32_t)u->sz.cons, NULL);
        unit_run(&c, p->ly, p->pp, u, NULL, NULL, NULL);
        if (cs_take_part(&c, &part) != CUZK_OK) {
            if (!__atomic_exchange_n(&p->failed, 1, __ATOMIC_ACQ_REL)) { p->st = c.status; p->err = c.err; }
            cs_free(&c);
            return;
        }
        cs_free(&c);
        for (uint32_t r = 0; r < part.m[0].n_rows; r++) {
            fr a, bv, cv;
            row_eval(&a, &part.m[0], r, p->w, p->ly->n_inputs);
            row_eval(&bv, &part.m[1], r, p->w, p->ly->n_inputs);
            row_eval(&cv, &part.m[2], r, p->w, p->ly->n_inputs);
            fr_mul(&a, &a, &bv);
            if (!fr_eq(&a, &cv)) {
                uint64_t row = p->row0[i] + r, cur = __atomic_load_n(&p->bad, __ATOMIC_RELAXED);
                while (row < cur && !__atomic_compare_exchange_n(&p->bad, &cur, row, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
                break;
            }
        }
        cs_part_free(&part);
    }
}

cuzk_status porep_check_witness_parallel(const fr *w, size_t n_w, const porep_params *pp, int nthreads, uint64_t *bad_row,
                                         cuzk_error *err) {
    if (bad_row) *bad_row = UINT64_MAX;
    porep_layout *ly = malloc(sizeof *ly);
    if (!ly) return ERR(err, CUZK_ERR_NOMEM, "PoRep circuit: out of memory");
    unit *units = NULL;
    uint64_t *row0 = NULL;
    size_t n_units = 0;
    cuzk_status st = layout_get(ly, pp, err);
    if (st == CUZK_OK && n_w != ly->n_inputs + ly->n_aux)
        st = ERR(err, CUZK_ERR_ARG, "PoRep witness check: %zu values given, the circuit has %llu", n_w,
                 (unsigned long long)(ly->n_inputs + ly->n_aux));
    if (st == CUZK_OK && (!(units = units_make(ly, pp, &n_units)) || !(row0 = malloc(n_units * sizeof *row0))))
        st = ERR(err, CUZK_ERR_NOMEM, "PoRep witness check: out of memory");
    if (st == CUZK_OK) {
        uint64_t r = 0;
        for (size_t i = 0; i < n_units; i++) { row0[i] = r; r += units[i].sz.cons; }
        cpar p;
        memset(&p, 0, sizeof p);
        p.w = w; p.pp = pp; p.ly = ly; p.units = units; p.row0 = row0; p.n_units = n_units; p.bad = UINT64_MAX;
        int T = nthreads > 0 ? nthreads : cuzk_num_threads();
        size_t t = (size_t)T < n_units ? (size_t)T : n_units;
        parallel_for(t, (int)t, check_worker, &p);
        if (p.failed) {
            st = p.st;
            if (err) *err = p.err;
        } else if (p.bad != UINT64_MAX) {
            if (bad_row) *bad_row = p.bad;
            st = ERR(err, CUZK_ERR_UNSAT, "PoRep witness does not satisfy constraint %llu: <A,w>*<B,w> != <C,w>",
                     (unsigned long long)p.bad);
        }
    }
    free(row0);
    free(units);
    free(ly);
    return st;
}

/* ---- public inputs ---------------------------------------------------------------------------- */

cuzk_status porep_public_inputs(fr *out, const porep_params *pp, const uint8_t replica_id[32], const uint8_t comm_d[32],
                                const uint8_t comm_r[32], const uint8_t seed[32], uint32_t k, cuzk_error *err) {
    cuzk_status st = porep_circuit_check(pp, err);
    if (st != CUZK_OK) return st;
    if (!fr_from_bytes_le(&out[0], replica_id, 32)) return ERR(err, CUZK_ERR_ARG, "PoRep public inputs: replica_id is not a canonical Fr");
    if (!fr_from_bytes_le(&out[1], comm_d, 32)) return ERR(err, CUZK_ERR_ARG, "PoRep public inputs: comm_d is not a canonical Fr");
    if (!fr_from_bytes_le(&out[2], comm_r, 32)) return ERR(err, CUZK_ERR_ARG, "PoRep public inputs: comm_r is not a canonical Fr");
    uint64_t ch[POREP_MAX_CHALLENGES];
    if ((st = porep_challenges(ch, pp, replica_id, comm_r, seed, k, err)) != CUZK_OK) return st;
    fr *o = out + 3;
    for (int i = 0; i < pp->challenges; i++) {
        /* StackedCompound::generate_public_inputs: each PoR's input is its leaf's index */
        uint32_t par[POREP_PARENTS];
        porep_parents(pp, ch[i], par);
        fr_from_u64(o++, ch[i]);                                  /* tree D */
        for (int j = 0; j < POREP_PARENTS; j++) fr_from_u64(o++, par[j]);  /* tree C, DRG then expander */
        fr_from_u64(o++, ch[i]);                                  /* the challenge (UInt64) */
        fr_from_u64(o++, ch[i]);                                  /* tree R-last */
        fr_from_u64(o++, ch[i]);                                  /* tree C, the challenge's column */
    }
    return CUZK_OK;
}
