/* Fixed-base comb on the CPU (src/msm/fixed_base.h). */
#include "msm/fixed_base.h"

#include <stdlib.h>

#include "util/parallel.h"

#define COMB_WINDOWS 32 /* bytes of a 256-bit scalar */
#define COMB_ENTRIES 256

#define FIXED_BASE_DEFINE(G)                                                                    \
    typedef struct {                                                                            \
        const G##_jacobian *row; /* row[k] = 2^(8k) * gen */                                    \
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
            for (int j = 1; j < COMB_ENTRIES; j++) G##_jacobian_add(&jt[j], &jt[j - 1], &c->row[k]); \
            G##s_jacobian_to_affine(c->table + k * COMB_ENTRIES, jt, COMB_ENTRIES);             \
        }                                                                                       \
        free(jt);                                                                               \
    }                                                                                           \
    typedef struct {                                                                            \
        const G##_affine *table;                                                                \
        const fr *k;                                                                            \
        G##_affine *out;                                                                        \
        bool ok;                                                                                \
    } G##_comb_ctx;                                                                             \
    static void G##_comb_range(void *vc, size_t b, size_t e, int tid) {                         \
        (void)tid;                                                                              \
        G##_comb_ctx *c = vc;                                                                   \
        G##_jacobian *tmp = malloc(FIXED_BASE_BLOCK * sizeof *tmp);                             \
        if (!tmp) { c->ok = false; return; }                                                    \
        for (size_t i0 = b; i0 < e; i0 += FIXED_BASE_BLOCK) {                                   \
            size_t i1 = e - i0 < FIXED_BASE_BLOCK ? e : i0 + FIXED_BASE_BLOCK;                  \
            for (size_t i = i0; i < i1; i++) {                                                  \
                uint64_t l[4];                                                                  \
                fr_to_canon(l, &c->k[i]);                                                       \
                G##_jacobian *acc = &tmp[i - i0];                                               \
                G##_jacobian_set_infinity(acc);                                                 \
                for (int w = 0; w < COMB_WINDOWS; w++) {                                        \
                    unsigned byte = (unsigned)(l[w / 8] >> (8 * (w % 8))) & 0xff;               \
                    if (byte) G##_jacobian_add_mixed(acc, acc, &c->table[w * COMB_ENTRIES + byte]); \
                }                                                                               \
            }                                                                                   \
            G##s_jacobian_to_affine(c->out + i0, tmp, i1 - i0);                                 \
        }                                                                                       \
        free(tmp);                                                                              \
    }                                                                                           \
    bool G##s_fixed_base_mul(G##_affine *out, const G##_affine *gen, const fr *scalars, size_t n, \
                             int nthreads) {                                                    \
        if (n == 0) return true;                                                                \
        G##_jacobian row[COMB_WINDOWS];                                                         \
        G##_jacobian_from_affine(&row[0], gen);                                                 \
        for (int k = 1; k < COMB_WINDOWS; k++) {                                                \
            row[k] = row[k - 1];                                                                \
            for (int d = 0; d < 8; d++) G##_jacobian_dbl(&row[k], &row[k]);                     \
        }                                                                                       \
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

FIXED_BASE_DEFINE(g1)
FIXED_BASE_DEFINE(g2)
