/* bellperson .params files for benchmarks (src/benchkit/benchkit.h, section 4): random subgroup
 * points in the file's uncompressed encoding, and a timed read at a check level. */
#include "benchkit/benchkit.h"

#include <stdio.h>
#include <string.h>

#include "curves/bls12_381/curve.h"
#include "formats/bellperson.h"
#include "formats/mapped_file.h"
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
