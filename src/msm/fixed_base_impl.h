/* Fixed-base comb on the CPU (src/msm/fixed_base.h), template: FIXED_BASE_DEFINE(G, F, FR) defines
 * G##s_fixed_base_mul for the group G over the coordinate field F with scalars in FR; used in the
 * curve's msm.c. */
#include "msm/fixed_base.h"

#include <stdlib.h>

#include "util/parallel.h"

#define COMB_WINDOWS 32 /* bytes of a 256-bit scalar */
#define COMB_ENTRIES 256
#define FIXED_BASE_SMALL 32 /* below this many points, plain double-and-add per point */

#define FIXED_BASE_DEFINE(G, F, FR)                                                                 \
    typedef struct {                                                                            \
        const G##_affine *row; /* row[k] = 2^(8k) * gen */                                      \
        G##_affine *table;                                                                      \
        bool ok;                                                                                \
    } G##_table_ctx;                                                                            \
    /* rows [b, e): table[k*256 + j] = j * row[k] (entry 0: infinity, never read) */             \
    static void G##_table_rows(void *vc, size_t b, size_t e, int tid) {                         \
        (void)tid;                                                                              \
        G##_table_ctx *c = vc;                                                                  \
        G##_jacobian *jt = malloc(COMB_ENTRIES * sizeof *jt);                                   \
        if (!jt) { c->ok = false; return; }                                                     \
        for (size_t k = b; k < e; k++) {                                                        \
            G##_jacobian_set_infinity(&jt[0]);                                                  \
            for (int j = 1; j < COMB_ENTRIES; j++) G##_jacobian_add_mixed(&jt[j], &jt[j - 1], &c->row[k]); \
            G##s_jacobian_to_affine(c->table + k * COMB_ENTRIES, jt, COMB_ENTRIES);             \
        }                                                                                       \
        free(jt);                                                                               \
    }                                                                                           \
    typedef struct {                                                                            \
        const G##_affine *table;                                                                \
        const FR *k;                                                                            \
        G##_affine *out;                                                                        \
        bool ok;                                                                                \
    } G##_comb_ctx;                                                                             \
    /* out[i] = affine(in[i]) with one inversion: 1/ZZZ batch-inverted, 1/ZZ = (ZZ/ZZZ)^2 since   \
     * ZZ^3 = ZZZ^2; out[i].x holds prefix products meanwhile */                                 \
    static void G##_xyzzs_to_affine(G##_affine *out, const G##_xyzz *in, size_t n) {             \
        F acc, inv, izzz, t;                                                                    \
        F##_one(&acc);                                                                          \
        for (size_t i = 0; i < n; i++) {                                                        \
            out[i].x = acc;                                                                     \
            if (!F##_is_zero(&in[i].zz)) F##_mul(&acc, &acc, &in[i].zzz);                       \
        }                                                                                       \
        F##_inv(&inv, &acc);                                                                    \
        for (size_t i = n; i-- > 0;) {                                                          \
            if (F##_is_zero(&in[i].zz)) { G##_affine_set_infinity(&out[i]); continue; }         \
            F##_mul(&izzz, &inv, &out[i].x);                                                    \
            F##_mul(&inv, &inv, &in[i].zzz);                                                    \
            F##_mul(&t, &in[i].zz, &izzz);                                                      \
            F##_sqr(&t, &t);                                                                    \
            F##_mul(&out[i].x, &in[i].x, &t);                                                   \
            F##_mul(&out[i].y, &in[i].y, &izzz);                                                \
        }                                                                                       \
    }                                                                                           \
    static void G##_comb_range(void *vc, size_t b, size_t e, int tid) {                         \
        (void)tid;                                                                              \
        G##_comb_ctx *c = vc;                                                                   \
        G##_xyzz *tmp = malloc(FIXED_BASE_BLOCK * sizeof *tmp);                                 \
        if (!tmp) { c->ok = false; return; }                                                    \
        for (size_t i0 = b; i0 < e; i0 += FIXED_BASE_BLOCK) {                                   \
            size_t i1 = e - i0 < FIXED_BASE_BLOCK ? e : i0 + FIXED_BASE_BLOCK;                  \
            for (size_t i = i0; i < i1; i++) {                                                  \
                uint64_t l[4];                                                                  \
                FR##_to_canon(l, &c->k[i]);                                                       \
                G##_xyzz *acc = &tmp[i - i0];                                                   \
                G##_xyzz_set_infinity(acc);                                                     \
                for (int w = 0; w < COMB_WINDOWS; w++) {                                        \
                    unsigned byte = (unsigned)(l[w / 8] >> (8 * (w % 8))) & 0xff;               \
                    if (byte) G##_xyzz_add_mixed(acc, acc, &c->table[w * COMB_ENTRIES + byte]); \
                }                                                                               \
            }                                                                                   \
            G##_xyzzs_to_affine(c->out + i0, tmp, i1 - i0);                                     \
        }                                                                                       \
        free(tmp);                                                                              \
    }                                                                                           \
    bool G##s_fixed_base_mul(G##_affine *out, const G##_affine *gen, const FR *scalars, size_t n, \
                             int nthreads) {                                                    \
        if (n == 0) return true;                                                                \
        G##_jacobian jg, jr[COMB_WINDOWS];                                                      \
        G##_jacobian_from_affine(&jg, gen);                                                     \
        if (n < FIXED_BASE_SMALL) { /* cheaper than building the table */                       \
            for (size_t i = 0; i < n; i++) {                                                    \
                G##_mul_fr_vartime(&jr[0], &jg, &scalars[i]);                                           \
                G##_jacobian_to_affine(&out[i], &jr[0]);                                        \
            }                                                                                   \
            return true;                                                                        \
        }                                                                                       \
        G##_affine row[COMB_WINDOWS];                                                           \
        jr[0] = jg;                                                                             \
        for (int k = 1; k < COMB_WINDOWS; k++) {                                                \
            jr[k] = jr[k - 1];                                                                  \
            for (int d = 0; d < 8; d++) G##_jacobian_dbl(&jr[k], &jr[k]);                       \
        }                                                                                       \
        G##s_jacobian_to_affine(row, jr, COMB_WINDOWS);                                         \
        G##_affine *table = malloc(COMB_WINDOWS * COMB_ENTRIES * sizeof *table);                \
        if (!table) return false;                                                               \
        G##_table_ctx tc = {row, table, true};                                                  \
        /* building the table costs about 32 * 255 additions: worth threads only for big n */   \
        parallel_for(COMB_WINDOWS, n >= 4096 ? nthreads : 1, G##_table_rows, &tc);              \
        if (!tc.ok) { free(table); return false; }                                              \
        G##_comb_ctx cc = {table, scalars, out, true};                                          \
        parallel_for(n, nthreads, G##_comb_range, &cc);                                         \
        free(table);                                                                            \
        return cc.ok;                                                                           \
    }

