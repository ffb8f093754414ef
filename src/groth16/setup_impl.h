/* Groth16 test-parameter generation (src/groth16/setup.h): toxic waste, Lagrange basis at tau,
 * QAP evaluation by a transposed SpMV, and the point sets of both conventions through the
 * backend's fixed-base hook. SINGLE-PARTY AND INSECURE: for tests and benchmarks only.
 * A template, instantiated per curve (src/groth16/groth16_<curve>.c; every curve-dependent name is
 * CN(name)): the snarkjs .zkey for BLS12-381 and BN254; the bellperson .params (and its sinks) for
 * BLS12-381 only (CURVE_BELLPERSON). */
#include "groth16/setup.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/backend.h"
#include "groth16/groth16.h"
#include "util/log.h"
#include "util/parallel.h"
#include "util/rng.h"
#include "util/timer.h"

#define SETUP_MAX_LOG 28
/* the zkey's H points live on the odd coset of the size-2m domain: 2m needs roots of unity */
#undef ZKEY_MAX_LOG
#define ZKEY_MAX_LOG (CURVE_FR_TWO_ADICITY - 1 < SETUP_MAX_LOG ? CURVE_FR_TWO_ADICITY - 1 : SETUP_MAX_LOG)
#define CPU_CHUNK_PER_THREAD 16384
#define GPU_CHUNK ((size_t)1 << 25) /* few calls: each builds its table and pinned staging */
#define QAP_HOT_COLS 64 /* columns counted per task, not atomically (ONE and the first inputs are hot) */

static int resolve_threads(int nthreads) { return nthreads > 0 ? nthreads : cuzk_num_threads(); }


static void report(const groth16_setup_run *run, const char *stage, uint64_t done, uint64_t total) {
    if (run->progress) run->progress(run->progress_user, stage, done, total);
}

/* ---- wiping big secret-derived arrays in parallel ---------------------------------------- */

typedef struct { uint8_t *p; } wipe_ctx;
static void wipe_range(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    explicit_bzero(((wipe_ctx *)vc)->p + b, e - b);
}
/* Every scalar array below is derived from the toxic waste (tau can be read off L or h). */
static void wipe_free(void *p, size_t bytes, int nthreads) {
    if (!p) return;
    wipe_ctx c = {p};
    parallel_for(bytes, bytes >= ((size_t)1 << 24) ? nthreads : 1, wipe_range, &c);
    free(p);
}

/* ---- toxic waste ------------------------------------------------------------------------ */

static cuzk_status draw_one(CN(fr) *out, uint64_t *state, bool seeded, cuzk_error *err) {
    if (!seeded) return CN(groth16_random_fr)(out, err);
    uint8_t b[64];
    for (int i = 0; i < 8; i++) {
        uint64_t v = splitmix64_next(state);
        memcpy(b + 8 * i, &v, 8);
    }
    CN(fr_from_bytes_wide_le)(out, b, sizeof b);
    explicit_bzero(b, sizeof b);
    return CUZK_OK;
}

/* x^(2^32) == 1: x lies in some power-of-two domain, where Z(x) = 0 */
static bool is_two_adic_root(const CN(fr) *x) {
    CN(fr) t = *x;
    for (int i = 0; i < 32; i++) CN(fr_sqr)(&t, &t);
    return CN(fr_is_one)(&t);
}

cuzk_status CN(groth16_toxic_draw)(CN(groth16_toxic) *t, const uint64_t *seed, cuzk_error *err) {
    uint64_t state = seed ? *seed : 0;
    CN(fr) *const f[5] = {&t->tau, &t->alpha, &t->beta, &t->gamma, &t->delta};
    for (int i = 0; i < 5; i++) {
        for (int tries = 0;; tries++) {
            if (tries == 100) return ERR(err, CUZK_ERR_RANDOM, "setup: 100 unusable toxic-waste draws");
            cuzk_status st = draw_one(f[i], &state, seed != NULL, err);
            if (st != CUZK_OK) { CN(groth16_toxic_wipe)(t); return st; }
            if (!CN(fr_is_zero)(f[i]) && !(i == 0 && is_two_adic_root(f[i]))) break;
        }
    }
    explicit_bzero(&state, sizeof state);
    return CUZK_OK;
}

void CN(groth16_toxic_wipe)(CN(groth16_toxic) *t) { explicit_bzero(t, sizeof *t); }

/* ---- Lagrange basis at tau -------------------------------------------------------------- */

typedef struct {
    CN(fr) *out;
    size_t begin;
    CN(fr) x0, step, step_inv, scale;
} lagrange_ctx;

/* out[i] = scale / (x0 step^(begin+i) - 1) on [b, e): prefix products forward, one inversion,
 * then backwards (x_j recomputed by multiplying with step^-1) */
static void lagrange_run(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    lagrange_ctx *c = vc;
    uint64_t j0 = (uint64_t)(c->begin + b);
    CN(fr) x, acc, one, d;
    CN(fr_one)(&one);
    CN(fr_pow_vartime)(&x, &c->step, &j0, 1);
    CN(fr_mul)(&x, &x, &c->x0);
    CN(fr_one)(&acc);
    for (size_t i = b; i < e; i++) {
        c->out[i] = acc;
        CN(fr_sub)(&d, &x, &one);
        CN(fr_mul)(&acc, &acc, &d);
        CN(fr_mul)(&x, &x, &c->step);
    }
    CN(fr_inv)(&acc, &acc);
    CN(fr_mul)(&acc, &acc, &c->scale); /* scale / prod */
    for (size_t i = e; i-- > b;) {
        CN(fr_mul)(&x, &x, &c->step_inv);
        CN(fr_sub)(&d, &x, &one);
        CN(fr_mul)(&c->out[i], &c->out[i], &acc);
        CN(fr_mul)(&acc, &acc, &d);
    }
}

void CN(setup_lagrange_range)(CN(fr) *out, size_t begin, size_t end, const CN(fr) *x0, const CN(fr) *step, const CN(fr) *scale,
                              int nthreads) {
    if (end <= begin) return;
    lagrange_ctx c = {out, begin, *x0, *step, *step, *scale};
    CN(fr_inv)(&c.step_inv, step);
    size_t n = end - begin;
    /* each thread chunk pays one inversion (~400 multiplications) */
    parallel_for(n, n >= 4096 ? nthreads : 1, lagrange_run, &c);
    explicit_bzero(&c, sizeof c);
}

/* x0, step, s for L_j(tau) * scale = s / (x0 step^j - 1) on the size-2^log_m domain */
static void lagrange_params(CN(fr) *x0, CN(fr) *step, CN(fr) *s, int log_m, ntt_roots roots, const CN(fr) *tau, const CN(fr) *scale) {
    CN(fr) omega, z, one, minv;
    uint64_t m = (uint64_t)1 << log_m;
    CN(ntt_root_of_unity)(&omega, log_m, roots);
    CN(fr_inv)(step, &omega);
    *x0 = *tau;
    CN(fr_one)(&one);
    CN(fr_pow_vartime)(&z, tau, &m, 1);
    CN(fr_sub)(&z, &z, &one); /* Z(tau) = tau^m - 1 */
    CN(fr_from_u64)(&minv, m);
    CN(fr_inv)(&minv, &minv);
    CN(fr_mul)(s, &z, &minv);
    if (scale) CN(fr_mul)(s, s, scale);
    explicit_bzero(&z, sizeof z);
}

void CN(setup_lagrange)(CN(fr) *out, int log_m, ntt_roots roots, const CN(fr) *tau, const CN(fr) *scale, int nthreads) {
    CN(fr) x0, step, s;
    lagrange_params(&x0, &step, &s, log_m, roots, tau, scale);
    CN(setup_lagrange_range)(out, 0, (size_t)1 << log_m, &x0, &step, &s, nthreads);
    explicit_bzero(&x0, sizeof x0);
    explicit_bzero(&s, sizeof s);
}

/* L^(2m)_k(tau) = ((tau^(2m) - 1) / 2m) / (tau omega_2m^-k - 1); k = 2j + 1:
 * x0 = tau omega_2m^-1, step = omega_2m^-2 = omega_m^-1 */
void CN(setup_odd_coset_params)(CN(fr) *x0, CN(fr) *step, CN(fr) *s, int log_m, const CN(fr) *tau, const CN(fr) *scale) {
    CN(fr) x0_2m, step_2m;
    lagrange_params(&x0_2m, &step_2m, s, log_m + 1, NTT_ROOTS_SNARKJS, tau, scale);
    CN(fr_mul)(x0, tau, &step_2m);
    CN(fr_sqr)(step, &step_2m);
    explicit_bzero(&x0_2m, sizeof x0_2m);
}

/* ---- QAP: transposed SpMV through a column index ----------------------------------------- */

/* One nonzero of a column in the transposed index: its row and coefficient id (8 bytes; the
 * products are formed in the per-column sums, so no nnz-long array of field elements exists). */
typedef struct { uint32_t row, id; } qap_entry;

typedef struct {
    const CN(csr_matrix) *M;
    const CN(fr) *lag;
    const uint8_t *kind;  /* per coefficient id: 0 zero (skipped), 1 one (the product is L_row), 2 other */
    size_t n_cols, n_hot;
    int n_tasks;
    uint64_t *pos;        /* n_cols + 1: counts, then column starts, then (after the scatter) ends */
    CN(fr) *hot_acc;          /* n_tasks x n_hot: each task's sums of the hot columns (secret) */
    uint64_t *hot_cnt;    /* n_tasks x n_hot: each task's nonzeros in the hot columns */
    qap_entry *idx;       /* the cold columns' nonzeros in column order */
    uint64_t *col_split;  /* n_tasks + 1: the sum pass's column ranges, balanced by nonzeros */
    CN(fr) *out;
    uint8_t *dens;
} qap_ctx;

static void task_rows(const qap_ctx *c, int t, uint32_t *b, uint32_t *e) {
    uint64_t n = c->M->n_rows;
    *b = (uint32_t)(n * (uint64_t)t / (uint64_t)c->n_tasks);
    *e = (uint32_t)(n * (uint64_t)(t + 1) / (uint64_t)c->n_tasks);
}

static inline void qap_term(CN(fr) *acc, const qap_ctx *c, uint32_t id, const CN(fr) *l) {
    if (c->kind[id] == 1) {
        CN(fr_add)(acc, acc, l);
    } else {
        CN(fr) t;
        CN(fr_mul)(&t, &c->M->coef[id], l);
        CN(fr_add)(acc, acc, &t);
    }
}

/* Row pass 1: the hot columns' sums and counts per task; the cold columns' counts (atomic). */
static void qap_count(void *vc, size_t tb, size_t te, int tid) {
    (void)tid;
    qap_ctx *c = vc;
    const CN(csr_matrix) *M = c->M;
    for (size_t t = tb; t < te; t++) {
        uint64_t *hc = c->hot_cnt + t * c->n_hot;
        CN(fr) *ha = c->hot_acc + t * c->n_hot;
        uint32_t rb, re;
        task_rows(c, (int)t, &rb, &re);
        for (uint32_t j = rb; j < re; j++)
            for (uint64_t k = M->row_ptr[j]; k < M->row_ptr[j + 1]; k++) {
                uint32_t id = M->coef_id[k];
                if (!c->kind[id]) continue;
                uint32_t col = M->col[k];
                if (col < c->n_hot) {
                    hc[col]++;
                    qap_term(&ha[col], c, id, &c->lag[j]);
                } else {
                    __atomic_fetch_add(&c->pos[(size_t)col + 1], 1, __ATOMIC_RELAXED);
                }
            }
    }
}

/* Row pass 2: the cold nonzeros into column order; pos[col] moves to the column's end. */
static void qap_scatter(void *vc, size_t tb, size_t te, int tid) {
    (void)tid;
    qap_ctx *c = vc;
    const CN(csr_matrix) *M = c->M;
    for (size_t t = tb; t < te; t++) {
        uint32_t rb, re;
        task_rows(c, (int)t, &rb, &re);
        for (uint32_t j = rb; j < re; j++)
            for (uint64_t k = M->row_ptr[j]; k < M->row_ptr[j + 1]; k++) {
                uint32_t id = M->coef_id[k], col = M->col[k];
                if (!c->kind[id] || col < c->n_hot) continue;
                uint64_t slot = __atomic_fetch_add(&c->pos[col], 1, __ATOMIC_RELAXED);
                c->idx[slot] = (qap_entry){j, id};
            }
    }
}

/* Column pass: the cold columns of each task's range (balanced by nonzeros). */
static void qap_sum(void *vc, size_t tb, size_t te, int tid) {
    (void)tid;
    qap_ctx *c = vc;
    for (size_t t = tb; t < te; t++)
        for (uint64_t i = c->col_split[t]; i < c->col_split[t + 1]; i++) {
            uint64_t s = c->pos[i - 1], e = c->pos[i];
            CN(fr) acc;
            CN(fr_zero)(&acc);
            for (uint64_t k = s; k < e; k++) qap_term(&acc, c, c->idx[k].id, &c->lag[c->idx[k].row]);
            c->out[i] = acc;
            if (c->dens) c->dens[i] = e > s;
            explicit_bzero(&acc, sizeof acc);
        }
}

/* In-place inclusive prefix sum of a[0..n) over n_tasks contiguous pieces. */
typedef struct { uint64_t *a; size_t n; int n_tasks; uint64_t *part; } prefix_ctx;
static void prefix_local(void *vc, size_t tb, size_t te, int tid) {
    (void)tid;
    prefix_ctx *c = vc;
    for (size_t t = tb; t < te; t++) {
        size_t b = c->n * t / (size_t)c->n_tasks, e = c->n * (t + 1) / (size_t)c->n_tasks;
        uint64_t s = 0;
        for (size_t i = b; i < e; i++) { s += c->a[i]; c->a[i] = s; }
        c->part[t] = s;
    }
}
static void prefix_add(void *vc, size_t tb, size_t te, int tid) {
    (void)tid;
    prefix_ctx *c = vc;
    for (size_t t = tb; t < te; t++) {
        size_t b = c->n * t / (size_t)c->n_tasks, e = c->n * (t + 1) / (size_t)c->n_tasks;
        for (size_t i = b; i < e; i++) c->a[i] += c->part[t];
    }
}
static void prefix_sum(uint64_t *a, size_t n, int nthreads, uint64_t *part /* nthreads */) {
    prefix_ctx c = {a, n, nthreads, part};
    parallel_for((size_t)nthreads, nthreads, prefix_local, &c);
    uint64_t run = 0;
    for (int t = 0; t < nthreads; t++) { uint64_t p = part[t]; part[t] = run; run += p; }
    parallel_for((size_t)nthreads, nthreads, prefix_add, &c);
}

cuzk_status CN(setup_qap_columns)(CN(fr) *out, uint8_t *dens, const CN(csr_matrix) *M, size_t n_cols, const CN(fr) *lag, int nthreads,
                                  cuzk_error *err) {
    int T = resolve_threads(nthreads);
    qap_ctx c = {.M = M, .lag = lag, .n_cols = n_cols, .out = out, .dens = dens};
    c.n_hot = n_cols < QAP_HOT_COLS ? n_cols : QAP_HOT_COLS;
    /* a few tasks per thread: rows differ in length */
    c.n_tasks = M->n_rows < 4096 ? 1 : 4 * T;
    uint64_t part[4096];
    int pt = T < 4096 ? T : 4096;
    size_t nh = (size_t)c.n_tasks * (c.n_hot ? c.n_hot : 1);
    CN(fr) one;
    CN(fr_one)(&one);
    uint8_t *kind = malloc(M->n_coef ? M->n_coef : 1);
    c.kind = kind;
    c.pos = calloc(n_cols + 1, sizeof *c.pos);
    c.hot_cnt = calloc(nh, sizeof *c.hot_cnt);
    c.hot_acc = calloc(nh, sizeof *c.hot_acc);
    c.col_split = malloc(((size_t)c.n_tasks + 1) * sizeof *c.col_split);
    cuzk_status st = CUZK_OK;
    if (!kind || !c.pos || !c.hot_cnt || !c.hot_acc || !c.col_split) {
        st = ERR(err, CUZK_ERR_NOMEM, "setup: QAP column index (%zu columns)", n_cols);
        goto out;
    }
    for (uint32_t i = 0; i < M->n_coef; i++)
        kind[i] = CN(fr_is_zero)(&M->coef[i]) ? 0 : !memcmp(&M->coef[i], &one, sizeof one) ? 1 : 2;
    /* 1. the hot columns' sums; the cold columns' counts */
    parallel_for((size_t)c.n_tasks, T, qap_count, &c);
    /* 2. the cold columns' starts */
    prefix_sum(c.pos, n_cols + 1, pt, part);
    uint64_t nnz = c.pos[n_cols];
    c.idx = malloc((nnz ? nnz : 1) * sizeof *c.idx);
    if (!c.idx) {
        st = ERR(err, CUZK_ERR_NOMEM, "setup: QAP column index (%llu terms)", (unsigned long long)nnz);
        goto out;
    }
    /* 3. the cold nonzeros into column order */
    parallel_for((size_t)c.n_tasks, T, qap_scatter, &c);
    /* 4. per-column sums: the hot columns from the tasks' sums, the cold ones from the index in
     *    n_tasks ranges of about nnz / n_tasks nonzeros (pos[i] is now column i's end) */
    for (size_t col = 0; col < c.n_hot; col++) {
        CN(fr) acc;
        uint64_t n = 0;
        CN(fr_zero)(&acc);
        for (int t = 0; t < c.n_tasks; t++) {
            CN(fr_add)(&acc, &acc, &c.hot_acc[(size_t)t * c.n_hot + col]);
            n += c.hot_cnt[(size_t)t * c.n_hot + col];
        }
        out[col] = acc;
        if (dens) dens[col] = n > 0;
        explicit_bzero(&acc, sizeof acc);
    }
    c.col_split[0] = c.n_hot;
    for (int t = 1; t < c.n_tasks; t++) {
        /* the first column whose end passes t/n_tasks of the nonzeros */
        uint64_t want = nnz * (uint64_t)t / (uint64_t)c.n_tasks;
        size_t lo = c.col_split[t - 1], hi = n_cols;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (c.pos[mid] <= want) lo = mid + 1;
            else hi = mid;
        }
        c.col_split[t] = lo;
    }
    c.col_split[c.n_tasks] = n_cols;
    if (n_cols > c.n_hot) parallel_for((size_t)c.n_tasks, T, qap_sum, &c);
out:
    if (c.hot_acc) wipe_free(c.hot_acc, nh * sizeof *c.hot_acc, 1);
    free(c.idx);
    free(c.hot_cnt);
    free(c.col_split);
    free(c.pos);
    free(kind);
    return st;
}

/* ---- point sets in chunks through the fixed-base hook ------------------------------------ */

/* Writes the scalars [b, e) of a generated set into out[0 .. e-b). */
typedef void (*scalar_gen_fn)(void *ctx, CN(fr) *out, size_t b, size_t e, int nthreads);

typedef struct {
    const groth16_setup_run *run;
    const char *stage;
    bool g2;
    const void *gen;           /* g1_affine or g2_affine */
    const CN(fr) *scalars;         /* the whole set, or NULL: gen_fn */
    scalar_gen_fn gen_fn;
    void *gen_ctx;
    size_t n;
    /* where the chunks go: a params sink or a zkey writer */
    const groth16_params_sink *sink;
    CN(zkey_writer) *zw;
    double sink_ms;            /* time spent in sink / writer calls (overlapped with the stage) */
} point_job;

static size_t chunk_points(const groth16_setup_run *run) {
    if (run->chunk_points) return run->chunk_points;
    int nthreads = run->nthreads;
    if (run->backend == GROTH16_BACKEND_GPU) return GPU_CHUNK;
    return (size_t)CPU_CHUNK_PER_THREAD * (size_t)resolve_threads(nthreads);
}

/* One chunk handed to the sink or zkey writer, on a helper thread, while the next chunk is computed. */
typedef struct {
    point_job *j;
    const void *pts;
    size_t n;
    cuzk_status st;
    cuzk_error err;
    double ms;
} write_task;

static void *write_chunk(void *arg) {
    write_task *w = arg;
    point_job *j = w->j;
    double s0 = now_ms();
    w->st = CUZK_OK;
    if (j->sink) w->st = j->g2 ? j->sink->g2s(j->sink->ctx, w->pts, w->n, &w->err) : j->sink->g1s(j->sink->ctx, w->pts, w->n, &w->err);
    if (j->zw) {
        if (j->g2) CN(zkey_writer_g2s)(j->zw, w->pts, w->n);
        else CN(zkey_writer_g1s)(j->zw, w->pts, w->n);
    }
    w->ms = now_ms() - s0;
    return NULL;
}

/* Computes the set chunk by chunk through the fixed-base hook; chunk i is written (sink or zkey
 * writer, on a helper thread) while chunk i + 1 is computed, with two chunk buffers. Stage time
 * = the loop's wall time minus the time spent waiting for writes; j->sink_ms = the writes' own
 * (overlapped) time. */
static cuzk_status run_points(point_job *j, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    int T = j->run->nthreads;
    size_t chunk = chunk_points(j->run);
    if (chunk > j->n) chunk = j->n;
    size_t elt = j->g2 ? sizeof(CN(g2_affine)) : sizeof(CN(g1_affine));
    void *pts[2] = {NULL, NULL};
    CN(fr) *buf = NULL;
    pthread_t th;
    bool running = false;
    write_task wt;
    double t0 = now_ms(), wait_ms = 0;
    j->sink_ms = 0;
    report(j->run, j->stage, 0, j->n);
    if (j->n == 0) goto out;
    pts[0] = malloc(chunk * elt);
    pts[1] = chunk < j->n ? malloc(chunk * elt) : NULL;
    if (!j->scalars) buf = malloc(chunk * sizeof *buf);
    if (!pts[0] || (chunk < j->n && !pts[1]) || (!j->scalars && !buf)) {
        st = ERR(err, CUZK_ERR_NOMEM, "setup %s: chunk buffers", j->stage);
        goto out;
    }
    for (size_t b = 0, i = 0; b < j->n; b += chunk, i++) {
        size_t e = j->n - b < chunk ? j->n : b + chunk;
        void *cur = pts[i & 1]; /* its previous write (chunk i - 2) was joined last iteration */
        const CN(fr) *k = j->scalars ? j->scalars + b : buf;
        if (!j->scalars) j->gen_fn(j->gen_ctx, buf, b, e, T);
        st = j->g2 ? CN(groth16_g2_fixed_base)(j->run->backend, cur, j->gen, k, e - b, T, err)
                   : CN(groth16_g1_fixed_base)(j->run->backend, cur, j->gen, k, e - b, T, err);
        if (st != CUZK_OK) goto out;
        report(j->run, j->stage, e, j->n);
        if (running) {
            double w0 = now_ms();
            pthread_join(th, NULL);
            wait_ms += now_ms() - w0;
            running = false;
            j->sink_ms += wt.ms;
            if ((st = wt.st) != CUZK_OK) {
                if (err) *err = wt.err;
                goto out;
            }
        }
        wt = (write_task){.j = j, .pts = cur, .n = e - b};
        if (pthread_create(&th, NULL, write_chunk, &wt) == 0) {
            running = true;
        } else {
            double w0 = now_ms();
            write_chunk(&wt);
            wait_ms += now_ms() - w0;
            j->sink_ms += wt.ms;
            if ((st = wt.st) != CUZK_OK) {
                if (err) *err = wt.err;
                goto out;
            }
        }
    }
out:
    if (running) {
        double w0 = now_ms();
        pthread_join(th, NULL);
        wait_ms += now_ms() - w0;
        j->sink_ms += wt.ms;
        if (st == CUZK_OK && (st = wt.st) != CUZK_OK && err) *err = wt.err;
    }
    if (buf) wipe_free(buf, chunk * sizeof *buf, T);
    free(pts[0]);
    free(pts[1]);
    groth16_setup_stage_add(j->run->t, j->stage, now_ms() - t0 - wait_ms);
    return st;
}

#if CURVE_BELLPERSON /* the bellperson convention is BLS12-381 only */
/* h_i = tau^i * hz on [b, e) (bellperson h query: hz = Z(tau) / delta) */
typedef struct { CN(fr) *out; size_t base; CN(fr) tau, hz; } powers_ctx;
static void powers_run(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    powers_ctx *c = vc;
    uint64_t i0 = (uint64_t)(c->base + b);
    CN(fr) p;
    CN(fr_pow_vartime)(&p, &c->tau, &i0, 1);
    CN(fr_mul)(&p, &p, &c->hz);
    for (size_t i = b; i < e; i++) {
        c->out[i] = p;
        CN(fr_mul)(&p, &p, &c->tau);
    }
    explicit_bzero(&p, sizeof p);
}
typedef struct { CN(fr) tau, hz; } h_gen;
static void h_gen_fn(void *ctx, CN(fr) *out, size_t b, size_t e, int nthreads) {
    h_gen *g = ctx;
    powers_ctx c = {out, b, g->tau, g->hz};
    parallel_for(e - b, e - b >= 4096 ? nthreads : 1, powers_run, &c);
    explicit_bzero(&c, sizeof c);
}

#endif

/* zkey H: the odd-coset Lagrange basis over delta on [b, e) */
typedef struct { CN(fr) x0, step, s; } odd_gen;
static void odd_gen_fn(void *ctx, CN(fr) *out, size_t b, size_t e, int nthreads) {
    odd_gen *g = ctx;
    CN(setup_lagrange_range)(out, b, e, &g->x0, &g->step, &g->s, nthreads);
}

/* ---- shared pieces of both conventions --------------------------------------------------- */

static cuzk_status domain_of(const CN(r1cs) *cs, int max_log, int *log_m, cuzk_error *err) {
    uint64_t n = (uint64_t)cs->n_constraints + cs->n_public + 1;
    int k = 0;
    while (((uint64_t)1 << k) < n) k++;
    if (k > max_log)
        return ERR(err, CUZK_ERR_ARG, "setup: %u constraints + %u inputs need a domain of 2^%d, larger than 2^%d%s",
                   cs->n_constraints, cs->n_public + 1, k, max_log,
                   max_log < SETUP_MAX_LOG ? " (the zkey's H points need the roots of unity of twice the domain)" : "");
    *log_m = k;
    return CUZK_OK;
}

/* vk points (ic not set): [alpha]_1, [beta]_1, [delta]_1, [beta]_2, [gamma]_2, [delta]_2 */
static cuzk_status vk_points(CN(groth16_vk) *vk, const CN(groth16_toxic) *tw, groth16_backend be, int nthreads, cuzk_error *err) {
    CN(g1_affine) g1, p1[3];
    CN(g2_affine) g2, p2[3];
    CN(g1_generator)(&g1);
    CN(g2_generator)(&g2);
    CN(fr) k1[3] = {tw->alpha, tw->beta, tw->delta}, k2[3] = {tw->beta, tw->gamma, tw->delta};
    cuzk_status st = CN(groth16_g1_fixed_base)(be, p1, &g1, k1, 3, nthreads, err);
    if (st == CUZK_OK) st = CN(groth16_g2_fixed_base)(be, p2, &g2, k2, 3, nthreads, err);
    explicit_bzero(k1, sizeof k1);
    explicit_bzero(k2, sizeof k2);
    if (st != CUZK_OK) return st;
    vk->alpha1 = p1[0];
    vk->beta1 = p1[1];
    vk->delta1 = p1[2];
    vk->beta2 = p2[0];
    vk->gamma2 = p2[1];
    vk->delta2 = p2[2];
    return CUZK_OK;
}

/* The QAP at tau in one convention: u (+ input rows), v, and w into k; densities optional. */
typedef struct {
    CN(fr) *u, *v, *k;
    size_t n_u, n_v, n_k; /* their lengths (n_vars until compacted) */
    uint8_t *dens_a, *dens_b, *dens_c;
} qap_vectors;

static void qap_vectors_free(qap_vectors *q, int T) {
    wipe_free(q->u, q->n_u * sizeof(CN(fr)), T);
    wipe_free(q->v, q->n_v * sizeof(CN(fr)), T);
    wipe_free(q->k, q->n_k * sizeof(CN(fr)), T);
    free(q->dens_a);
    free(q->dens_b);
    free(q->dens_c);
    memset(q, 0, sizeof *q);
}

/* k_i = (beta u_i + alpha v_i + w_i) * (i < n_ic ? 1/gamma : 1/delta), w_i given in k */
typedef struct { const CN(fr) *u, *v; CN(fr) *k; size_t n_ic; CN(fr) alpha, beta, gi, di; } combine_ctx;
static void combine_run(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    combine_ctx *c = vc;
    for (size_t i = b; i < e; i++) {
        CN(fr) t, s;
        CN(fr_mul)(&t, &c->beta, &c->u[i]);
        CN(fr_mul)(&s, &c->alpha, &c->v[i]);
        CN(fr_add)(&t, &t, &s);
        CN(fr_add)(&t, &t, &c->k[i]);
        CN(fr_mul)(&c->k[i], &t, i < c->n_ic ? &c->gi : &c->di);
    }
}

static cuzk_status qap_at_tau(qap_vectors *q, const CN(r1cs) *cs, int log_m, ntt_roots roots, const CN(groth16_toxic) *tw,
                              bool densities, const groth16_setup_run *run, const char *stage, cuzk_error *err) {
    int T = resolve_threads(run->nthreads);
    size_t m = (size_t)1 << log_m, n_vars = cs->n_vars, n_inputs = (size_t)cs->n_public + 1;
    cuzk_status st = CUZK_OK;
    memset(q, 0, sizeof *q);
    CN(fr) *lag = malloc(m * sizeof *lag);
    q->u = malloc(n_vars * sizeof *q->u);
    q->v = malloc(n_vars * sizeof *q->v);
    q->k = malloc(n_vars * sizeof *q->k);
    q->n_u = q->n_v = q->n_k = n_vars;
    if (densities) {
        q->dens_a = calloc(n_vars, 1);
        q->dens_b = calloc(n_vars, 1);
        q->dens_c = calloc(n_vars, 1);
    }
    if (!lag || !q->u || !q->v || !q->k || (densities && (!q->dens_a || !q->dens_b || !q->dens_c))) {
        st = ERR(err, CUZK_ERR_NOMEM, "setup: QAP vectors (%zu variables, domain %zu)", n_vars, m);
        goto out;
    }
    report(run, stage, 0, 5);
    CN(setup_lagrange)(lag, log_m, roots, &tw->tau, NULL, T);
    report(run, stage, 1, 5);
    if ((st = CN(setup_qap_columns)(q->u, q->dens_a, &cs->a, n_vars, lag, T, err)) != CUZK_OK) goto out;
    for (size_t i = 0; i < n_inputs; i++) CN(fr_add)(&q->u[i], &q->u[i], &lag[cs->n_constraints + i]);
    report(run, stage, 2, 5);
    if ((st = CN(setup_qap_columns)(q->v, q->dens_b, &cs->b, n_vars, lag, T, err)) != CUZK_OK) goto out;
    report(run, stage, 3, 5);
    if ((st = CN(setup_qap_columns)(q->k, q->dens_c, &cs->c, n_vars, lag, T, err)) != CUZK_OK) goto out;
    report(run, stage, 4, 5);
    combine_ctx c = {q->u, q->v, q->k, n_inputs, tw->alpha, tw->beta, tw->gamma, tw->delta};
    CN(fr_inv)(&c.gi, &tw->gamma);
    CN(fr_inv)(&c.di, &tw->delta);
    parallel_for(n_vars, n_vars >= 4096 ? T : 1, combine_run, &c);
    explicit_bzero(&c, sizeof c);
    report(run, stage, 5, 5);
out:
    wipe_free(lag, m * sizeof *lag, T);
    if (st != CUZK_OK) qap_vectors_free(q, T);
    return st;
}

#if CURVE_BELLPERSON
/* ---- bellperson parameters --------------------------------------------------------------- */

/* Keeps x[i] where keep[i] (or i < always), in order: a new array replaces *x (the old one is
 * wiped and freed); returns the count, or SIZE_MAX when the new array cannot be allocated.
 * Parallel: per-task counts, offsets, then each task copies its kept elements. */
typedef struct {
    const CN(fr) *in;
    CN(fr) *out;
    const uint8_t *keep;
    size_t n, always;
    int n_tasks;
    size_t *cnt; /* per task: count, then output offset */
} compact_ctx;
static bool kept(const compact_ctx *c, size_t i) { return i < c->always || c->keep[i]; }
static void compact_count(void *vc, size_t tb, size_t te, int tid) {
    (void)tid;
    compact_ctx *c = vc;
    for (size_t t = tb; t < te; t++) {
        size_t b = c->n * t / (size_t)c->n_tasks, e = c->n * (t + 1) / (size_t)c->n_tasks, k = 0;
        for (size_t i = b; i < e; i++) k += kept(c, i);
        c->cnt[t] = k;
    }
}
static void compact_copy(void *vc, size_t tb, size_t te, int tid) {
    (void)tid;
    compact_ctx *c = vc;
    for (size_t t = tb; t < te; t++) {
        size_t b = c->n * t / (size_t)c->n_tasks, e = c->n * (t + 1) / (size_t)c->n_tasks, k = c->cnt[t];
        for (size_t i = b; i < e; i++)
            if (kept(c, i)) c->out[k++] = c->in[i];
    }
}
static size_t compact(CN(fr) **x, size_t n, const uint8_t *keep, size_t always, int T) {
    size_t cnt[256];
    compact_ctx c = {*x, NULL, keep, n, always, T < 256 ? T : 256, cnt};
    parallel_for((size_t)c.n_tasks, T, compact_count, &c);
    size_t total = 0;
    for (int t = 0; t < c.n_tasks; t++) {
        size_t k = cnt[t];
        cnt[t] = total;
        total += k;
    }
    if (!(c.out = malloc((total ? total : 1) * sizeof *c.out))) return SIZE_MAX;
    parallel_for((size_t)c.n_tasks, T, compact_copy, &c);
    wipe_free(*x, n * sizeof **x, T);
    *x = c.out;
    return total;
}

cuzk_status groth16_setup_params(const CN(r1cs) *cs, const CN(groth16_toxic) *tw, const groth16_params_sink *sink,
                                 const groth16_setup_run *run, cuzk_error *err) {
    cuzk_status st;
    int log_m = 0, T = resolve_threads(run->nthreads);
    if ((st = domain_of(cs, SETUP_MAX_LOG, &log_m, err)) != CUZK_OK) return st;
    size_t m = (size_t)1 << log_m, n_vars = cs->n_vars, n_inputs = (size_t)cs->n_public + 1;
    size_t n_aux = n_vars - n_inputs;
    groth16_setup_run r = *run;
    r.nthreads = T;
    qap_vectors q;
    CN(groth16_vk) vk = {0};
    CN(g1_affine) g1;
    CN(g2_affine) g2;
    CN(g1_generator)(&g1);
    CN(g2_generator)(&g2);

    /* scalars */
    double t0 = now_ms();
    if ((st = qap_at_tau(&q, cs, log_m, NTT_ROOTS_BELLPERSON, tw, true, &r, "scalars", err)) != CUZK_OK) return st;
    for (size_t i = n_inputs; i < n_vars; i++)
        if (!q.dens_a[i] && !q.dens_b[i] && !q.dens_c[i]) {
            st = ERR(err, CUZK_ERR_UNSUPPORTED,
                     "setup: wire %zu is in no constraint: its L point would be the point at infinity, which "
                     "bellperson .params cannot hold; use the wire in a constraint, or compile the circuit with "
                     "circom's default optimisation (--O1 or --O2 drop such wires; --O0 keeps them)", i);
            goto out;
        }
    groth16_setup_stage_add(r.t, "scalars", now_ms() - t0);

    /* vk + ic */
    t0 = now_ms();
    if ((st = vk_points(&vk, tw, r.backend, T, err)) != CUZK_OK) goto out;
    vk.n_public = cs->n_public;
    if (!(vk.ic = malloc(n_inputs * sizeof *vk.ic))) { st = ERR(err, CUZK_ERR_NOMEM, "setup: ic"); goto out; }
    if ((st = CN(groth16_g1_fixed_base)(r.backend, vk.ic, &g1, q.k, n_inputs, T, err)) != CUZK_OK) goto out;
    groth16_setup_stage_add(r.t, "vk+ic", now_ms() - t0);
    if ((st = sink->vk(sink->ctx, &vk, err)) != CUZK_OK) goto out;

    /* h_i = tau^i Z(tau) / delta, i < m - 1 */
    {
        h_gen hg;
        CN(fr) one, di;
        uint64_t me = m;
        CN(fr_one)(&one);
        CN(fr_pow_vartime)(&hg.hz, &tw->tau, &me, 1);
        CN(fr_sub)(&hg.hz, &hg.hz, &one);
        CN(fr_inv)(&di, &tw->delta);
        CN(fr_mul)(&hg.hz, &hg.hz, &di);
        hg.tau = tw->tau;
        point_job j = {.run = &r, .stage = "h", .gen = &g1, .gen_fn = h_gen_fn, .gen_ctx = &hg, .n = m - 1, .sink = sink};
        if ((st = sink->begin(sink->ctx, SETUP_SET_H, (uint32_t)(m - 1), err)) == CUZK_OK) st = run_points(&j, err);
        explicit_bzero(&hg, sizeof hg);
        explicit_bzero(&di, sizeof di);
        if (st != CUZK_OK) goto out;
    }
    /* l_k: aux part of k */
    {
        point_job j = {.run = &r, .stage = "l", .gen = &g1, .scalars = q.k + n_inputs, .n = n_aux, .sink = sink};
        if ((st = sink->begin(sink->ctx, SETUP_SET_L, (uint32_t)n_aux, err)) == CUZK_OK) st = run_points(&j, err);
        if (st != CUZK_OK) goto out;
        wipe_free(q.k, n_vars * sizeof(CN(fr)), T);
        q.k = NULL;
    }
    /* a: inputs, then A-dense aux */
    {
        double c0 = now_ms();
        size_t na = compact(&q.u, n_vars, q.dens_a, n_inputs, T);
        groth16_setup_stage_add(r.t, "a", now_ms() - c0);
        if (na == SIZE_MAX) { st = ERR(err, CUZK_ERR_NOMEM, "setup: a scalars"); goto out; }
        q.n_u = na;
        point_job j = {.run = &r, .stage = "a", .gen = &g1, .scalars = q.u, .n = na, .sink = sink};
        if ((st = sink->begin(sink->ctx, SETUP_SET_A, (uint32_t)na, err)) == CUZK_OK) st = run_points(&j, err);
        if (st != CUZK_OK) goto out;
    }
    /* b_g1, b_g2: B-dense inputs and aux */
    {
        double c0 = now_ms();
        size_t nb = compact(&q.v, n_vars, q.dens_b, 0, T);
        groth16_setup_stage_add(r.t, "b_g1", now_ms() - c0);
        if (nb == SIZE_MAX) { st = ERR(err, CUZK_ERR_NOMEM, "setup: b scalars"); goto out; }
        q.n_v = nb;
        point_job j = {.run = &r, .stage = "b_g1", .gen = &g1, .scalars = q.v, .n = nb, .sink = sink};
        if ((st = sink->begin(sink->ctx, SETUP_SET_B_G1, (uint32_t)nb, err)) == CUZK_OK) st = run_points(&j, err);
        if (st != CUZK_OK) goto out;
        point_job j2 = {.run = &r, .stage = "b_g2", .g2 = true, .gen = &g2, .scalars = q.v, .n = nb, .sink = sink};
        if ((st = sink->begin(sink->ctx, SETUP_SET_B_G2, (uint32_t)nb, err)) == CUZK_OK) st = run_points(&j2, err);
        if (st != CUZK_OK) goto out;
    }
out:
    free(vk.ic);
    qap_vectors_free(&q, T);
    return st;
}

#endif /* CURVE_BELLPERSON */

/* ---- snarkjs zkey ------------------------------------------------------------------------ */

cuzk_status CN(groth16_setup_zkey)(const CN(r1cs) *cs, const CN(groth16_toxic) *tw, const char *path, uint64_t *bytes,
                                   const groth16_setup_run *run, cuzk_error *err) {
    cuzk_status st;
    int log_m = 0, T = resolve_threads(run->nthreads);
    if ((st = domain_of(cs, ZKEY_MAX_LOG, &log_m, err)) != CUZK_OK) return st;
    size_t m = (size_t)1 << log_m, n_vars = cs->n_vars, n_ic = (size_t)cs->n_public + 1;
    groth16_setup_run r = *run;
    r.nthreads = T;
    qap_vectors q;
    CN(zkey_writer) *zw = NULL;
    CN(g1_affine) g1, *ic = NULL;
    CN(g2_affine) g2;
    CN(g1_generator)(&g1);
    CN(g2_generator)(&g2);

    double t0 = now_ms();
    if ((st = qap_at_tau(&q, cs, log_m, NTT_ROOTS_SNARKJS, tw, false, &r, "zkey scalars", err)) != CUZK_OK) return st;
    groth16_setup_stage_add(r.t, "zkey scalars", now_ms() - t0);

    t0 = now_ms();
    CN(groth16_vk) vk = {0};
    if ((st = vk_points(&vk, tw, r.backend, T, err)) != CUZK_OK) goto out;
    CN(zkey) h = {.n_vars = cs->n_vars, .n_public = cs->n_public, .domain_size = (uint32_t)m, .alpha1 = vk.alpha1,
              .beta1 = vk.beta1, .beta2 = vk.beta2, .gamma2 = vk.gamma2, .delta1 = vk.delta1, .delta2 = vk.delta2};
    if (!(ic = malloc(n_ic * sizeof *ic))) { st = ERR(err, CUZK_ERR_NOMEM, "setup: zkey IC"); goto out; }
    if ((st = CN(groth16_g1_fixed_base)(r.backend, ic, &g1, q.k, n_ic, T, err)) != CUZK_OK) goto out;
    groth16_setup_stage_add(r.t, "zkey ic", now_ms() - t0);

    t0 = now_ms();
    report(&r, "zkey write", 0, 0);
    if ((st = CN(zkey_writer_open)(&zw, path, &h, err)) != CUZK_OK) goto out;
    CN(zkey_writer_coefs)(zw, cs, T);
    CN(zkey_writer_section)(zw, 3, n_ic);
    CN(zkey_writer_g1s)(zw, ic, n_ic);
    groth16_setup_stage_add(r.t, "zkey write", now_ms() - t0);

    struct { const char *stage; uint32_t id; bool g2; const CN(fr) *k; size_t n; } sets[] = {
        {"zkey a", 5, false, q.u, n_vars},
        {"zkey b1", 6, false, q.v, n_vars},
        {"zkey b2", 7, true, q.v, n_vars},
        {"zkey c", 8, false, q.k + n_ic, n_vars - n_ic},
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        CN(zkey_writer_section)(zw, sets[i].id, sets[i].n);
        point_job j = {.run = &r, .stage = sets[i].stage, .g2 = sets[i].g2, .gen = sets[i].g2 ? (const void *)&g2 : (const void *)&g1,
                       .scalars = sets[i].k, .n = sets[i].n, .zw = zw};
        if ((st = run_points(&j, err)) != CUZK_OK) goto out;
        groth16_setup_stage_add(r.t, "zkey write", j.sink_ms);
    }
    {
        odd_gen og;
        CN(fr) di;
        CN(fr_inv)(&di, &tw->delta);
        CN(setup_odd_coset_params)(&og.x0, &og.step, &og.s, log_m, &tw->tau, &di);
        CN(zkey_writer_section)(zw, 9, m);
        point_job j = {.run = &r, .stage = "zkey h", .gen = &g1, .gen_fn = odd_gen_fn, .gen_ctx = &og, .n = m, .zw = zw};
        st = run_points(&j, err);
        groth16_setup_stage_add(r.t, "zkey write", j.sink_ms);
        explicit_bzero(&og, sizeof og);
        explicit_bzero(&di, sizeof di);
        if (st != CUZK_OK) goto out;
    }
out:
    if (zw) {
        t0 = now_ms();
        if (bytes) *bytes = CN(zkey_writer_bytes)(zw) + 12 + 68; /* + section 10 */
        cuzk_status cs_st = CN(zkey_writer_close)(zw, path, st == CUZK_OK ? err : NULL);
        if (st == CUZK_OK) st = cs_st;
        groth16_setup_stage_add(r.t, "zkey write", now_ms() - t0);
    }
    free(ic);
    qap_vectors_free(&q, T);
    return st;
}

cuzk_status CN(groth16_setup_zkey_r1cs)(const char *r1cs_path, const uint64_t *seed, const char *zkey_path,
                                        const groth16_setup_run *run, cuzk_error *err) {
    cuzk_setup_timings *tm = run->t;
    CN(r1cs) cs = {0};
    CN(groth16_toxic) tw;
    memset(&tw, 0, sizeof tw);
    double t0 = now_ms();
    report(run, "circuit", 0, 1);
    cuzk_status st = CN(r1cs_load)(&cs, r1cs_path, err);
    if (st != CUZK_OK) goto out;
    report(run, "circuit", 1, 1);
    groth16_setup_stage_add(tm, "circuit", now_ms() - t0);
    if (tm) {
        uint64_t n = (uint64_t)cs.n_constraints + cs.n_public + 1, m = 1;
        while (m < n) m <<= 1;
        tm->n_constraints = cs.n_constraints;
        tm->n_vars = cs.n_vars;
        tm->n_public = cs.n_public;
        tm->domain_size = m > UINT32_MAX ? 0 : (uint32_t)m;
    }
    if ((st = CN(groth16_toxic_draw)(&tw, seed, err)) != CUZK_OK) goto out;
    st = CN(groth16_setup_zkey)(&cs, &tw, zkey_path, tm ? &tm->zkey_bytes : NULL, run, err);
out:
    CN(groth16_toxic_wipe)(&tw);
    t0 = now_ms();
    CN(r1cs_free)(&cs);
    groth16_setup_stage_add(tm, "free", now_ms() - t0);
    return st;
}

#if CURVE_BELLPERSON /* bellperson .params in memory or in files */
/* ---- sinks ------------------------------------------------------------------------------- */

/* In memory: the lists of a bellperson_params, allocated at begin and filled chunk by chunk. */
typedef struct {
    bellperson_params *p;
    groth16_setup_set set;
    size_t filled;
    int nthreads; /* for copying large chunks */
} mem_sink;

/* memcpy on nthreads threads for large blocks: the first touch of the parameter arrays (tens of
 * GB at PoSt/PoRep scale) is spread over the cores instead of one helper thread */
static size_t g_pcopy_min = (size_t)4 << 20;
void setup_test_set_parallel_copy_min(size_t bytes) { g_pcopy_min = bytes ? bytes : (size_t)4 << 20; }
typedef struct { uint8_t *dst; const uint8_t *src; } pcopy_ctx;
static void pcopy_run(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    pcopy_ctx *c = vc;
    memcpy(c->dst + b, c->src + b, e - b);
}
static void parallel_copy(void *dst, const void *src, size_t bytes, int nthreads) {
    pcopy_ctx c = {dst, src};
    parallel_for(bytes, bytes >= g_pcopy_min ? nthreads : 1, pcopy_run, &c);
}

static cuzk_status mem_vk(void *ctx, const CN(groth16_vk) *vk, cuzk_error *err) {
    mem_sink *s = ctx;
    s->p->vk = *vk;
    size_t n = (size_t)vk->n_public + 1;
    if (!(s->p->vk.ic = malloc(n * sizeof *vk->ic))) return ERR(err, CUZK_ERR_NOMEM, "setup: ic copy");
    memcpy(s->p->vk.ic, vk->ic, n * sizeof *vk->ic);
    return CUZK_OK;
}
static cuzk_status mem_begin(void *ctx, groth16_setup_set set, uint32_t n, cuzk_error *err) {
    mem_sink *s = ctx;
    bellperson_params *p = s->p;
    s->set = set;
    s->filled = 0;
    size_t k = n ? n : 1;
    void *a = set == SETUP_SET_B_G2 ? malloc(k * sizeof(CN(g2_affine))) : malloc(k * sizeof(CN(g1_affine)));
    if (!a) return ERR(err, CUZK_ERR_NOMEM, "setup: %u points", n);
    switch (set) {
    case SETUP_SET_H: p->h = a; p->n_h = n; break;
    case SETUP_SET_L: p->l = a; p->n_l = n; break;
    case SETUP_SET_A: p->a = a; p->n_a = n; break;
    case SETUP_SET_B_G1: p->b_g1 = a; p->n_b_g1 = n; break;
    case SETUP_SET_B_G2: p->b_g2 = a; p->n_b_g2 = n; break;
    }
    return CUZK_OK;
}
static cuzk_status mem_g1s(void *ctx, const CN(g1_affine) *pts, size_t n, cuzk_error *err) {
    mem_sink *s = ctx;
    CN(g1_affine) *dst = s->set == SETUP_SET_H ? s->p->h : s->set == SETUP_SET_L ? s->p->l
                   : s->set == SETUP_SET_A ? s->p->a : s->set == SETUP_SET_B_G1 ? s->p->b_g1 : NULL;
    if (!dst) return ERR(err, CUZK_ERR_ARG, "setup: G1 points for a G2 list");
    parallel_copy(dst + s->filled, pts, n * sizeof *pts, s->nthreads);
    s->filled += n;
    return CUZK_OK;
}
static cuzk_status mem_g2s(void *ctx, const CN(g2_affine) *pts, size_t n, cuzk_error *err) {
    mem_sink *s = ctx;
    if (s->set != SETUP_SET_B_G2) return ERR(err, CUZK_ERR_ARG, "setup: G2 points for a G1 list");
    parallel_copy(s->p->b_g2 + s->filled, pts, n * sizeof *pts, s->nthreads);
    s->filled += n;
    return CUZK_OK;
}

cuzk_status groth16_setup_bellperson(bellperson_params *out, const CN(r1cs) *cs, const uint64_t *seed, int nthreads,
                                     cuzk_error *err) {
    return groth16_setup_bellperson_on(GROTH16_BACKEND_CPU, out, cs, seed, nthreads, err);
}

cuzk_status groth16_setup_bellperson_on(groth16_backend be, bellperson_params *out, const CN(r1cs) *cs, const uint64_t *seed,
                                        int nthreads, cuzk_error *err) {
    return groth16_setup_bellperson_progress(be, out, cs, seed, nthreads, NULL, NULL, err);
}

cuzk_status groth16_setup_bellperson_progress(groth16_backend be, bellperson_params *out, const CN(r1cs) *cs,
                                              const uint64_t *seed, int nthreads, cuzk_progress_fn progress,
                                              void *progress_user, cuzk_error *err) {
    return groth16_setup_bellperson_timed(be, out, cs, seed, nthreads, progress, progress_user, NULL, err);
}

cuzk_status groth16_setup_bellperson_timed(groth16_backend be, bellperson_params *out, const CN(r1cs) *cs, const uint64_t *seed,
                                           int nthreads, cuzk_progress_fn progress, void *progress_user,
                                           cuzk_setup_timings *t, cuzk_error *err) {
    memset(out, 0, sizeof *out);
    CN(groth16_toxic) tw;
    cuzk_status st = CN(groth16_toxic_draw)(&tw, seed, err);
    if (st != CUZK_OK) return st;
    mem_sink ms = {out, SETUP_SET_H, 0, resolve_threads(nthreads)};
    groth16_params_sink sink = {&ms, mem_vk, mem_begin, mem_g1s, mem_g2s};
    groth16_setup_run run = {.nthreads = nthreads, .backend = be, .progress = progress, .progress_user = progress_user, .t = t};
    st = groth16_setup_params(cs, &tw, &sink, &run, err);
    CN(groth16_toxic_wipe)(&tw);
    if (st != CUZK_OK) bellperson_params_free(out);
    return st;
}

/* To files: the .params streamed in order, the .vk written when the vk arrives. */
struct groth16_params_file_sink {
    const groth16_setup_run *run;
    const char *params_path, *vk_path;
    bellperson_writer *w;
    uint64_t vk_bytes;
};

static cuzk_status file_vk(void *ctx, const CN(groth16_vk) *vk, cuzk_error *err) {
    groth16_params_file_sink *s = ctx;
    double t0 = now_ms();
    bellperson_writer_vk(s->w, vk);
    cuzk_status st = CUZK_OK;
    if (s->vk_path) {
        bellperson_writer *v;
        if ((st = bellperson_writer_open(&v, s->vk_path, err)) == CUZK_OK) {
            bellperson_writer_vk(v, vk);
            s->vk_bytes = bellperson_writer_bytes(v);
            st = bellperson_writer_close(v, s->vk_path, err);
        }
    }
    groth16_setup_stage_add(s->run->t, "write", now_ms() - t0);
    return st;
}
static cuzk_status file_begin(void *ctx, groth16_setup_set set, uint32_t n, cuzk_error *err) {
    (void)err;
    (void)set;
    bellperson_writer_count(((groth16_params_file_sink *)ctx)->w, n);
    return CUZK_OK;
}
static cuzk_status file_points(groth16_params_file_sink *s, const void *pts, size_t n, bool g2) {
    double t0 = now_ms();
    if (g2) bellperson_writer_g2s(s->w, pts, n, s->run->nthreads);
    else bellperson_writer_g1s(s->w, pts, n, s->run->nthreads);
    groth16_setup_stage_add(s->run->t, "write", now_ms() - t0);
    return CUZK_OK; /* write errors are sticky; close reports them */
}
static cuzk_status file_g1s(void *ctx, const CN(g1_affine) *pts, size_t n, cuzk_error *err) {
    (void)err;
    return file_points(ctx, pts, n, false);
}
static cuzk_status file_g2s(void *ctx, const CN(g2_affine) *pts, size_t n, cuzk_error *err) {
    (void)err;
    return file_points(ctx, pts, n, true);
}

cuzk_status groth16_params_file_sink_open(groth16_params_file_sink **out, groth16_params_sink *sink,
                                          const char *params_path, const char *vk_path, const groth16_setup_run *run,
                                          cuzk_error *err) {
    *out = NULL;
    groth16_params_file_sink *s = calloc(1, sizeof *s);
    if (!s) return ERR(err, CUZK_ERR_NOMEM, "setup: file sink");
    s->run = run;
    s->params_path = params_path;
    s->vk_path = vk_path;
    cuzk_status st = bellperson_writer_open(&s->w, params_path, err);
    if (st != CUZK_OK) { free(s); return st; }
    *sink = (groth16_params_sink){s, file_vk, file_begin, file_g1s, file_g2s};
    *out = s;
    return CUZK_OK;
}

cuzk_status groth16_params_file_sink_close(groth16_params_file_sink *s, uint64_t *params_bytes, uint64_t *vk_bytes,
                                           cuzk_error *err) {
    if (!s) return CUZK_OK;
    double t0 = now_ms();
    if (params_bytes) *params_bytes = bellperson_writer_bytes(s->w);
    if (vk_bytes) *vk_bytes = s->vk_bytes;
    cuzk_status st = bellperson_writer_close(s->w, s->params_path, err);
    groth16_setup_stage_add(s->run->t, "write", now_ms() - t0);
    free(s);
    return st;
}
#endif /* CURVE_BELLPERSON */
