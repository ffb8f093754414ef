/* bellperson .params files for benchmarks (src/benchkit/benchkit.h, section 4): random subgroup
 * points in the file's uncompressed encoding, and a timed read at a check level. */
#include "benchkit/benchkit.h"

#include <stdio.h>
#include <string.h>

#include "curves/bls12_381/curve.h"
#include "formats/bellperson.h"
#include "formats/mapped_file.h"
#include "formats/srs_cache.h"
#include "util/timer.h"
#include "util/log.h"
#include "util/rng.h"

cuzk_status benchkit_random_points(cuzk_curve curve, int group, size_t n, uint64_t seed, uint8_t *out, cuzk_error *err) {
    if (!out && n) return ERR(err, CUZK_ERR_ARG, "benchkit_random_points: NULL output");
    if (curve != CUZK_CURVE_BLS12_381)
        return ERR(err, CUZK_ERR_ARG, "benchkit_random_points: bellperson's uncompressed points are BLS12-381's (curve %s)",
                   cuzk_curve_name(curve));
    if (group != 1 && group != 2) return ERR(err, CUZK_ERR_ARG, "benchkit_random_points: group %d (1 or 2)", group);
    uint64_t rng = seed;
    g1_affine a;
    g2_affine b;
    g1_jacobian j1, r1;
    g2_jacobian j2, r2;
    g1_generator(&a);
    g2_generator(&b);
    g1_jacobian_from_affine(&j1, &a);
    g2_jacobian_from_affine(&j2, &b);
    for (size_t i = 0; i < n; i++) {
        uint8_t w[64];
        fr k;
        for (int q = 0; q < 8; q++) {
            uint64_t v = splitmix64_next(&rng);
            memcpy(w + 8 * q, &v, 8);
        }
        fr_from_bytes_wide_le(&k, w, sizeof w);
        if (group == 1) {
            g1_mul_fr_vartime(&r1, &j1, &k);
            g1_jacobian_to_affine(&a, &r1);
            g1_affine_to_uncompressed(out + 96 * i, &a);
        } else {
            g2_mul_fr_vartime(&r2, &j2, &k);
            g2_jacobian_to_affine(&b, &r2);
            g2_affine_to_uncompressed(out + 192 * i, &b);
        }
    }
    return CUZK_OK;
}

cuzk_status benchkit_params_read(const char *path, cuzk_check_level level, int nthreads, int decode,
                                 uint64_t *file_bytes, cuzk_error *err) {
    if (file_bytes) *file_bytes = 0;
    if (!path || nthreads < 0) return ERR(err, CUZK_ERR_ARG, "benchkit_params_read: NULL path or negative thread count");
    if (level < CUZK_CHECK_DEFAULT || level > CUZK_CHECK_FULL)
        return ERR(err, CUZK_ERR_ARG, "benchkit_params_read: check level %d", (int)level);
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.check = level;
    o.nthreads = nthreads;
    mapped_file f;
    cuzk_status st = mapped_file_open(&f, path, err);
    if (st != CUZK_OK) return st;
    if (file_bytes) *file_bytes = f.size_bytes;
    char what[1100];
    snprintf(what, sizeof what, "bellperson params %s", path);
    if (decode) {
        bellperson_params p;
        st = bellperson_params_decode(&p, f.m_data, f.size_bytes, what, &o, err);
        bellperson_params_free(&p);
    } else {
        st = bellperson_params_decode(NULL, f.m_data, f.size_bytes, what, &o, err);
    }
    mapped_file_close(&f);
    return st;
}

cuzk_status benchkit_params_read_mode(const char *path, cuzk_check_level level, int nthreads, benchkit_read_mode mode,
                                      uint64_t *file_bytes, cuzk_error *err) {
    if (mode == BENCHKIT_READ_CHECK_MMAP || mode == BENCHKIT_READ_DECODE_MMAP)
        return benchkit_params_read(path, level, nthreads, mode == BENCHKIT_READ_DECODE_MMAP, file_bytes, err);
    if (file_bytes) *file_bytes = 0;
    if (!path || nthreads < 0) return ERR(err, CUZK_ERR_ARG, "benchkit_params_read_mode: NULL path or negative thread count");
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.check = level;
    o.nthreads = nthreads;
    bellperson_params p;
    cuzk_status st;
    char cp[4200];
    if (srs_cache_path(cp, sizeof cp, path) < 0) return ERR(err, CUZK_ERR_ARG, "benchkit_params_read_mode: path too long");
    if (mode == BENCHKIT_READ_DECODE_PREAD) {
        o.no_cache = 1;
        st = bellperson_params_load_ex(&p, path, &o, err);
    } else if (mode == BENCHKIT_READ_CACHE) {
        st = srs_cache_load(&p, cp, path, &o, err);
    } else {
        return ERR(err, CUZK_ERR_ARG, "benchkit_params_read_mode: mode %d", (int)mode);
    }
    if (st == CUZK_OK && file_bytes) {
        srs_cache_info inf;
        if (mode == BENCHKIT_READ_CACHE && srs_cache_probe(cp, path, level, &inf, NULL) == CUZK_OK) *file_bytes = inf.file_bytes;
        else {
            mapped_file f;
            if (mapped_file_open(&f, path, NULL) == CUZK_OK) {
                *file_bytes = f.size_bytes;
                mapped_file_close(&f);
            }
        }
    }
    bellperson_params_free(&p);
    return st;
}

cuzk_status benchkit_srs_cache_make(const char *path, cuzk_check_level level, int nthreads, double *ms_decode,
                                    double *ms_write, cuzk_error *err) {
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.check = level;
    o.nthreads = nthreads;
    o.no_cache = 1;
    bellperson_params p;
    double t0 = now_ms();
    cuzk_status st = bellperson_params_load_ex(&p, path, &o, err);
    double t1 = now_ms();
    if (st != CUZK_OK) return st;
    char cp[4200];
    if (srs_cache_path(cp, sizeof cp, path) < 0) st = ERR(err, CUZK_ERR_ARG, "benchkit_srs_cache_make: path too long");
    else st = srs_cache_write(cp, path, &p, level, nthreads, err);
    if (ms_decode) *ms_decode = t1 - t0;
    if (ms_write) *ms_write = now_ms() - t1;
    bellperson_params_free(&p);
    return st;
}
