/* file_describe: sniffs a file's kind and prints a short description (snarkjs.h). */
#include "formats/bellperson.h"
#include "formats/iden3.h"
#include "formats/json.h"
#include "formats/mapped_file.h"
#include "formats/snarkjs.h"
#include "formats/srs_cache.h"
#include "util/log.h"
#include "util/text.h"
#include "util/timer.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

typedef struct sbuf {
    char *p;
    size_t cap, n;
    bool cut; /* something did not fit: file_describe_ex marks the end */
} sbuf;

/* A string taken from the file, escaped (util/text.h) and cut to 64 bytes with an explicit mark:
 * file strings cannot forge lines, drive the terminal or crowd out the description. */
typedef struct { char s[64 * 4 + 40]; } fstr_buf;
static const char *fstr(fstr_buf *o, const char *s) {
    text_escape(o->s, sizeof o->s, s, (size_t)-1, 64);
    return o->s;
}

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...) {
    if (b->n + 1 >= b->cap) { b->cut = true; return; }
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    b->n += (size_t)k;
    if (b->n >= b->cap) { b->n = b->cap - 1; b->cut = true; }
}

static const char *curve_of(const uint8_t *prime, uint32_t n8) { return prime_curve_name(iden3_identify_prime(prime, n8)); }

static void put_sections(sbuf *b, const mapped_file *f, const iden3_file *t) {
    put(b, "sections:");
    byte_cursor c = {f->m_data + 12, f->size_bytes - 12};
    for (uint32_t i = 0; i < t->n_sections; i++) {
        uint32_t id = 0;
        uint64_t size = 0;
        if (!cursor_u32le(&c, &id) || !cursor_u64le(&c, &size) || size > c.left) break;
        put(b, " %u(%llu B)", id, (unsigned long long)size);
        c.p += size;
        c.left -= (size_t)size;
    }
    put(b, "\n");
}

/* Reads "u32 n8, prime" at the start of a section; NULL prime if short. */
static bool read_prime(byte_cursor *c, uint32_t *n8, const uint8_t **prime) {
    return cursor_u32le(c, n8) && *n8 <= 64 && cursor_take(c, *n8, prime);
}

static cuzk_status describe_iden3(sbuf *b, const mapped_file *f, cuzk_error *err) {
    char magic[5] = {0};
    memcpy(magic, f->m_data, 4);
    uint32_t version = 0;
    if (f->size_bytes >= 8)
        version = (uint32_t)f->m_data[4] | (uint32_t)f->m_data[5] << 8 | (uint32_t)f->m_data[6] << 16 |
                  (uint32_t)f->m_data[7] << 24;
    iden3_file t;
    cuzk_status st = iden3_parse(&t, f, magic, version, magic, err);
    if (st) return st;
    byte_cursor c;
    uint32_t n8 = 0;
    const uint8_t *prime = NULL;
    /* a header prime of no supported curve is an error, not "curve: unknown" */
#define KNOWN_CURVE(kind)                                                                                              \
    if (iden3_identify_prime(prime, n8) == PRIME_OTHER)                                                                \
        return ERR(err, CUZK_ERR_CURVE, "%s: %s: unknown field prime (%u bytes; a corrupt header?): bls12381 and "     \
                   "bn128 are supported", kind, f->path, n8)
    if (strcmp(magic, "zkey") == 0) {
        uint32_t proto = 0, n8r = 0, n_vars = 0, n_pub = 0, domain = 0;
        const uint8_t *r = NULL;
        if (!iden3_section_open(&c, &t, f, 1, "zkey", NULL)) cursor_u32le(&c, &proto);
        put(b, "snarkjs zkey, version %u, protocol %u (%s)\n", version, proto,
            proto == 1 ? "groth16" : proto == 2 ? "plonk" : proto == 10 ? "fflonk" : "unknown");
        if (!iden3_section_open(&c, &t, f, 2, "zkey", NULL) && read_prime(&c, &n8, &prime) && read_prime(&c, &n8r, &r) &&
            cursor_u32le(&c, &n_vars) && cursor_u32le(&c, &n_pub) && cursor_u32le(&c, &domain)) {
            KNOWN_CURVE("zkey");
            put(b, "curve: %s\n", curve_of(prime, n8));
            put(b, "vars: %u, public: %u, domain: %u\n", n_vars, n_pub, domain);
            uint32_t sg1 = n8 * 2, sg2 = n8 * 4;
            static const char *const names[10] = {"", "", "", "IC", "", "A", "B1", "B2", "C", "H"};
            put(b, "points:");
            for (int id = 3; id <= 9; id++) {
                if (id == 4 || !t.sec[id].present || sg1 == 0) continue;
                put(b, " %s %llu", names[id], (unsigned long long)(t.sec[id].size_bytes / (id == 7 ? sg2 : sg1)));
            }
            put(b, "\n");
            if (t.sec[4].present && t.sec[4].size_bytes >= 4) {
                iden3_section_open(&c, &t, f, 4, "zkey", NULL);
                uint32_t nc = 0;
                cursor_u32le(&c, &nc);
                put(b, "coefficients (A and B): %u\n", nc);
            }
        }
    } else if (strcmp(magic, "wtns") == 0) {
        uint32_t n = 0;
        put(b, "snarkjs witness (wtns), version %u\n", version);
        if (!iden3_section_open(&c, &t, f, 1, "wtns", NULL) && read_prime(&c, &n8, &prime) && cursor_u32le(&c, &n)) {
            KNOWN_CURVE("wtns");
            put(b, "curve: %s\nvalues: %u\n", curve_of(prime, n8), n);
        }
    } else if (strcmp(magic, "r1cs") == 0) {
        uint32_t n_wires = 0, n_out = 0, n_pub = 0, n_prv = 0, n_cons = 0;
        uint64_t n_labels = 0;
        put(b, "circom r1cs, version %u%s\n", version, t.sec[4].present ? ", custom gates" : "");
        if (!iden3_section_open(&c, &t, f, 1, "r1cs", NULL) && read_prime(&c, &n8, &prime) &&
            cursor_u32le(&c, &n_wires) && cursor_u32le(&c, &n_out) && cursor_u32le(&c, &n_pub) &&
            cursor_u32le(&c, &n_prv) && cursor_u64le(&c, &n_labels) && cursor_u32le(&c, &n_cons)) {
            KNOWN_CURVE("r1cs");
            put(b, "curve: %s\nconstraints: %u, wires: %u, public: %u (outputs %u, public inputs %u), private inputs: %u, labels: %llu\n",
                curve_of(prime, n8), n_cons, n_wires, n_out + n_pub, n_out, n_pub, n_prv, (unsigned long long)n_labels);
        }
    } else {
        put(b, "iden3 binary '%s', version %u\n", magic, version);
    }
#undef KNOWN_CURVE
    put_sections(b, f, &t);
    return CUZK_OK;
}

/* The readers of the file's curve (each curve has its compile of src/formats/json.c). */
static cuzk_status check_json_points(const char *cv, const char *path, int is_vk, cuzk_error *err) {
    if (!strcmp(cv, "bls12381")) return json_check_file(path, is_vk, err);
    if (!strcmp(cv, "bn128") || !strcmp(cv, "bn254")) return bn254_json_check_file(path, is_vk, err);
    return ERR(err, CUZK_ERR_CURVE, "%s: curve \"%s\" is not supported (bls12381 and bn128 are)", path, cv);
}

static cuzk_status describe_json(sbuf *b, const mapped_file *f, cuzk_error *err) {
    json_error_t je;
    json_t *root = json_loadb((const char *)f->m_data, f->size_bytes, 0, &je);
    if (!root) return ERR(err, CUZK_ERR_FORMAT, "%s: invalid JSON at line %d: %s", f->path, je.line,
                          strstr(je.text, "JSON_ALLOW_NUL") ? "NUL character in JSON string" : je.text);
    const json_t *curve = json_object_get(root, "curve");
    const char *cv = json_is_string(curve) ? json_string_value(curve) : "?";
    fstr_buf cvb, prb;
    const char *cv_shown = fstr(&cvb, cv);
    /* proofs, keys and public inputs go through the same readers as prove / verify, so that info
     * accepts exactly what they accept (points on the curve and in the subgroup, values < r) */
    cuzk_status st = CUZK_OK;
    if (json_is_object(root) && json_object_get(root, "pi_a")) {
        put(b, "snarkjs proof (JSON), protocol %s, curve %s\n",
            fstr(&prb, json_is_string(json_object_get(root, "protocol")) ? json_string_value(json_object_get(root, "protocol")) : "?"),
            cv_shown);
        if ((st = check_json_points(cv, f->path, 0, err)) == CUZK_OK) put(b, "points: on the curve, in their subgroups\n");
    } else if (json_is_object(root) && json_object_get(root, "IC")) {
        put(b, "snarkjs verification key (JSON), curve %s, nPublic %lld, IC points %zu\n", cv_shown,
            (long long)json_integer_value(json_object_get(root, "nPublic")), json_array_size(json_object_get(root, "IC")));
        if ((st = check_json_points(cv, f->path, 1, err)) == CUZK_OK) put(b, "points: on the curve, in their subgroups\n");
    } else if (json_is_array(root)) {
        put(b, "JSON array of %zu values (public.json or witness)\n", json_array_size(root));
        fr *v = NULL;
        size_t n = 0;
        if ((st = public_json_read(&v, &n, f->path, err)) == CUZK_OK) put(b, "values: decimal strings < r\n");
        free(v);
    } else {
        put(b, "JSON document (not a snarkjs proof, vk or public inputs)\n");
    }
    json_decref(root);
    return st;
}

/* bellperson: counts consistent with the size, to the byte (a phase-2 MPC trailer allowed).
 * 0: not bellperson, 1: .vk, 2: .params or MPC parameters, 3: BN254 parameters (*st set, an
 * error: bellperson parameters are BLS12-381 only). */
static int describe_bellperson(sbuf *b, const mapped_file *f, cuzk_status *st, cuzk_error *err) {
    byte_cursor c = {f->m_data, f->size_bytes};
    const uint8_t *p;
    uint32_t n[6];
    bellperson_layout lay;
    cuzk_error e2;
    char what[1100];
    snprintf(what, sizeof what, "bellperson params %s", f->path);
    cuzk_status ls = bellperson_params_layout(&lay, f->m_data, f->size_bytes, what, &e2);
    if (ls == CUZK_ERR_CURVE) {
        *st = ERR(err, ls, "%s", e2.msg);
        return 3;
    }
    if (ls == CUZK_OK) {
        if (lay.origin == BELLPERSON_ORIGIN_PARAMS) put(b, "bellperson parameters (.params), curve bls12381\n");
        else
            put(b, "%s, curve bls12381: parameters + circuit hash + %u contribution%s (not verified)\n",
                bellperson_origin_str(lay.origin), lay.n_contributions, lay.n_contributions == 1 ? "" : "s");
        put(b, "points: ic %u, h %u (domain %llu), l %u, a %u, b_g1 %u, b_g2 %u\n", lay.n_ic, lay.n_h,
            (unsigned long long)lay.n_h + 1, lay.n_l, lay.n_a, lay.n_b_g1, lay.n_b_g2);
        if (lay.origin == BELLPERSON_ORIGIN_MPC_SNARKJS)
            put(b, "A/B queries: one point per wire (%u; infinity where a wire is absent, dropped on load)\n"
                   "domain: roots of unity %s, chosen from the file (the prover interpolates on them)\n",
                lay.n_a, bellperson_domain_str(lay.domain));
        else if (lay.origin == BELLPERSON_ORIGIN_MPC)
            put(b, "domain: roots of unity %s, chosen from the file (A/B queries without points at infinity)\n",
                bellperson_domain_str(lay.domain));
        return 2;
    }
    if (!cursor_take(&c, 3 * 96 + 3 * 192, &p) || !cursor_u32be(&c, &n[0])) return 0;
    if ((uint64_t)n[0] * 96 > c.left) return 0;
    c.p += (size_t)n[0] * 96;
    c.left -= (size_t)n[0] * 96;
    if (c.left == 0) {
        put(b, "bellperson verifying key (.vk), curve bls12381\nic: %u points (public inputs incl. ONE)\n", n[0]);
        return 1;
    }
    return 0;
}

cuzk_status file_describe(char *buf, size_t cap, const char *path, cuzk_error *err) {
    return file_describe_ex(buf, cap, path, NULL, err);
}

/* Checks every point of a .params mapping; appends "points: ..." to b. */
static cuzk_status check_bellperson(sbuf *b, const mapped_file *f, const bellperson_load_opts *check, cuzk_error *err) {
    char what[1100];
    snprintf(what, sizeof what, "bellperson params %s", f->path);
    double t0 = now_ms();
    cuzk_status st = bellperson_params_decode(NULL, f->m_data, f->size_bytes, what, check, err);
    if (st) return st;
    double s = (now_ms() - t0) / 1e3;
    bellperson_layout lay;
    bellperson_params_layout(&lay, f->m_data, f->size_bytes, what, NULL);
    unsigned long long n = 6ull + lay.n_ic + lay.n_h + lay.n_l + lay.n_a + lay.n_b_g1 + lay.n_b_g2;
    put(b, "points: all %llu valid (check %s%s), %.2f s, %.2f GB/s\n", n, cuzk_check_level_str(check->check),
        lay.origin == BELLPERSON_ORIGIN_MPC_SNARKJS ? "; the point at infinity allowed in l, a, b_g1, b_g2" : "", s,
        s > 0 ? (double)f->size_bytes / s / 1e9 : 0.0);
    return CUZK_OK;
}

cuzk_status file_describe_ex(char *buf, size_t cap, const char *path, const bellperson_load_opts *check,
                             cuzk_error *err) {
    if (!buf || cap == 0) return ERR(err, CUZK_ERR_ARG, "file_describe: no output buffer");
    buf[0] = 0;
    mapped_file f;
    cuzk_status st;
    if ((st = mapped_file_open(&f, path, err))) return st;
    sbuf b = {buf, cap, 0, false};
    int kind;
    {
        char shown[4200];
        text_escape(shown, sizeof shown, path, (size_t)-1, 0);
        put(&b, "%s: %zu bytes\n", shown, f.size_bytes);
    }
    const uint8_t *d = f.m_data;
    size_t i = 0;
    while (i < f.size_bytes && (d[i] == ' ' || d[i] == '\n' || d[i] == '\r' || d[i] == '\t')) i++;
    if (f.size_bytes >= 8 && !memcmp(d, "cuzk-srs", 8)) {
        /* the pre-decoded SRS cache of a .params (srs_cache.h): its header, named for its .params */
        char hint[4200], line[6000];
        size_t pl = strlen(path), sl = strlen(SRS_CACHE_SUFFIX);
        const char *hp = NULL;
        if (pl > sl && !strcmp(path + pl - sl, SRS_CACHE_SUFFIX) && pl - sl < sizeof hint) {
            snprintf(hint, sizeof hint, "%.*s", (int)(pl - sl), path);
            hp = hint;
        }
        srs_cache_describe(line, sizeof line, path, hp);
        put(&b, "%s", line);
        st = CUZK_OK;
    } else if (f.size_bytes >= 4 && (!memcmp(d, "zkey", 4) || !memcmp(d, "wtns", 4) || !memcmp(d, "r1cs", 4) ||
                              !memcmp(d, "ptau", 4))) {
        st = describe_iden3(&b, &f, err);
    } else if (i < f.size_bytes && (d[i] == '{' || d[i] == '[')) {
        st = describe_json(&b, &f, err);
    } else if (f.size_bytes > 0 && (kind = describe_bellperson(&b, &f, &st, err)) != 0) {
        if (kind != 3) st = CUZK_OK;
        if (check && kind == 2) st = check_bellperson(&b, &f, check, err);
    } else if (f.size_bytes == BELLPERSON_PROOF_BYTES) {
        groth16_proof pr;
        if ((st = bellperson_proof_decode(&pr, f.m_data, err)) == CUZK_OK)
            put(&b, "bellperson proof (192 bytes: A G1, B G2, C G1, compressed), curve bls12381; points on the curve "
                    "and in their subgroups\n");
    } else if (strlen(path) > 7 && !strcmp(path + strlen(path) - 7, ".params")) {
        /* named like parameters but the counts do not fit the size: say which section is off */
        char what[1100];
        bellperson_layout lay;
        snprintf(what, sizeof what, "bellperson params %s", path);
        st = bellperson_params_layout(&lay, f.m_data, f.size_bytes, what, err);
        if (st == CUZK_OK)
            st = ERR(err, CUZK_ERR_FORMAT, "%s: unknown file kind (not zkey, wtns, r1cs, JSON or bellperson params)", path);
    } else {
        st = ERR(err, CUZK_ERR_FORMAT, "%s: unknown file kind (not zkey, wtns, r1cs, JSON, bellperson params or proof)",
                 path);
    }
    if (b.cut && cap > 64) {
        /* never a line cut silently: the end of the buffer says so */
        static const char mark[] = "\n[description cut: longer than the output buffer]\n";
        size_t at = cap - sizeof mark;
        while (at > 0 && buf[at - 1] != '\n') at--;
        memcpy(buf + at, mark + (at > 0 ? 1 : 0), sizeof mark - (at > 0 ? 1 : 0));
    }
    mapped_file_close(&f);
    return st;
}
