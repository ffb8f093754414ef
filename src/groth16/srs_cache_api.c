/* cuzk_srs_cache_make / cuzk_srs_cache_check (include/cuzk/prover.h): the pre-decoded SRS cache
 * of src/formats/srs_cache.h behind the public API. Bellperson parameters are BLS12-381's. */
#include "cuzk/prover.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/bellperson.h"
#include "formats/srs_cache.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/timer.h"

static cuzk_status cache_path_of(char *buf, size_t cap, const char *params_path, const char *cache_path,
                                 cuzk_error *err) {
    int n = cache_path ? snprintf(buf, cap, "%s", cache_path) : srs_cache_path(buf, cap, params_path);
    if (n < 0 || (size_t)n >= cap) return ERR(err, CUZK_ERR_ARG, "SRS cache: path too long");
    return CUZK_OK;
}

static cuzk_status decode_params(bellperson_params *p, const char *params_path, cuzk_check_level check, int nthreads,
                                 cuzk_error *err) {
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.check = check;
    o.nthreads = nthreads;
    o.no_cache = 1;
    return bellperson_params_load_ex(p, params_path, &o, err);
}

cuzk_status cuzk_srs_cache_make(const char *params_path, const char *cache_path, cuzk_check_level check, int nthreads,
                                cuzk_error *err) {
    if (!params_path) return ERR(err, CUZK_ERR_ARG, "cuzk_srs_cache_make: NULL params path");
    if (check == CUZK_CHECK_DEFAULT) check = CUZK_CHECK_CURVE;
    if (check != CUZK_CHECK_CURVE && check != CUZK_CHECK_FULL)
        return ERR(err, CUZK_ERR_ARG, "cuzk_srs_cache_make: a cache records points checked at the curve or full level, "
                   "not %s", cuzk_check_level_str(check));
    char cp[4200];
    cuzk_status st = cache_path_of(cp, sizeof cp, params_path, cache_path, err);
    if (st) return st;
    /* the cache is an output: never the .params itself (same path or same file through a link),
     * never a directory; and an existing file there is replaced only when it is a cache */
    {
        const char *ins[1] = {params_path}, *outs[1] = {cp};
        if ((st = outfile_check_paths(ins, 1, outs, 1, err)) != CUZK_OK) return st;
        struct stat sb;
        if (stat(cp, &sb) == 0 && S_ISREG(sb.st_mode) && srs_cache_is_cache(cp) != 1)
            return ERR(err, CUZK_ERR_ARG, "%s exists and is not a cuzk SRS cache: not overwritten (remove it, or give "
                       "another --cache path)", cp);
    }
    bellperson_params p;
    double t0 = now_ms();
    if ((st = decode_params(&p, params_path, check, nthreads, err)) != CUZK_OK) return st;
    double t1 = now_ms();
    st = srs_cache_write(cp, params_path, &p, check, nthreads, err);
    bellperson_params_free(&p);
    if (st == CUZK_OK)
        cuzk_log(CUZK_LOG_INFO, "SRS cache %s made from %s (points checked at the %s level): decode %.2f s, write %.2f s",
                 cp, params_path, cuzk_check_level_str(check), (t1 - t0) / 1e3, (now_ms() - t1) / 1e3);
    return st;
}

cuzk_status cuzk_srs_cache_check(const char *params_path, const char *cache_path, cuzk_check_level check, int thorough,
                                 int nthreads, cuzk_error *err) {
    if (!params_path) return ERR(err, CUZK_ERR_ARG, "cuzk_srs_cache_check: NULL params path");
    char cp[4200];
    cuzk_status st = cache_path_of(cp, sizeof cp, params_path, cache_path, err);
    if (st) return st;
    if ((st = srs_cache_probe(cp, params_path, check, NULL, err)) != CUZK_OK || thorough <= 0) return st;
    bellperson_load_opts o;
    memset(&o, 0, sizeof o);
    o.check = check;
    o.nthreads = nthreads;
    bellperson_params c, d;
    if ((st = srs_cache_load(&c, cp, params_path, &o, err)) != CUZK_OK || thorough == 1) {
        if (st == CUZK_OK) bellperson_params_free(&c);
        return st;
    }
    if ((st = decode_params(&d, params_path, check, nthreads, err)) != CUZK_OK) {
        bellperson_params_free(&c);
        return st;
    }
    /* what a prover reads: the counts, the kind (origin, roots, contributions), each query's
     * points and the verifying key. Not block_bytes: a decode of an MPC file sizes its block for
     * the file's counts (an upper bound: its points at infinity are dropped after), the cache for
     * the finite points only. */
    const char *diff = NULL;
    if (c.n_h != d.n_h || c.n_l != d.n_l || c.n_a != d.n_a || c.n_b_g1 != d.n_b_g1 || c.n_b_g2 != d.n_b_g2 ||
        c.vk.n_public != d.vk.n_public)
        diff = "the point counts";
    else if (c.origin != d.origin || c.domain != d.domain || c.n_contributions != d.n_contributions)
        diff = "the origin, domain or contribution count";
    else if ((c.n_h && memcmp(c.h, d.h, (size_t)c.n_h * sizeof *c.h)) ||
             (c.n_l && memcmp(c.l, d.l, (size_t)c.n_l * sizeof *c.l)) ||
             (c.n_a && memcmp(c.a, d.a, (size_t)c.n_a * sizeof *c.a)) ||
             (c.n_b_g1 && memcmp(c.b_g1, d.b_g1, (size_t)c.n_b_g1 * sizeof *c.b_g1)) ||
             (c.n_b_g2 && memcmp(c.b_g2, d.b_g2, (size_t)c.n_b_g2 * sizeof *c.b_g2)))
        diff = "the points";
    else if (memcmp(c.vk.ic, d.vk.ic, ((size_t)c.vk.n_public + 1) * sizeof *c.vk.ic) ||
             memcmp(&c.vk.alpha1, &d.vk.alpha1, sizeof c.vk.alpha1) || memcmp(&c.vk.beta1, &d.vk.beta1, sizeof c.vk.beta1) ||
             memcmp(&c.vk.beta2, &d.vk.beta2, sizeof c.vk.beta2) || memcmp(&c.vk.gamma2, &d.vk.gamma2, sizeof c.vk.gamma2) ||
             memcmp(&c.vk.delta1, &d.vk.delta1, sizeof c.vk.delta1) || memcmp(&c.vk.delta2, &d.vk.delta2, sizeof c.vk.delta2))
        diff = "the verifying key";
    if (diff) st = ERR(err, CUZK_ERR_MISMATCH, "SRS cache %s: %s differ from a fresh decode of %s", cp, diff, params_path);
    bellperson_params_free(&c);
    bellperson_params_free(&d);
    return st;
}

int cuzk_srs_cache_last_use(char *buf, size_t cap) { return srs_cache_last_use(buf, cap); }

cuzk_check_level cuzk_srs_cache_level(const char *cache_path) {
    srs_cache_info i;
    if (!cache_path || srs_cache_read_info(cache_path, &i, NULL) != CUZK_OK) return CUZK_CHECK_DEFAULT;
    return i.check;
}
