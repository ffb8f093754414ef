/* The C1 output's JSON and Curio's wrapper, read and written, and its checks (porep_c1.h).
 *
 * The reader is a small recursive-descent JSON parser that reads straight into the fixed-size
 * structures of porep.h: no document tree (a 32 GiB C1 output holds ~8 million integers), and
 * every array is bounded by the registered proof's count as it is read (extra elements are only
 * counted, to name the count in the message). Nesting is bounded when skipping unknown values.
 */
#include "filecoin/porep_c1.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/base64.h"
#include "util/log.h"
#include "util/parallel.h"
#include "util/text.h"

#define JSON_MAX_DEPTH 64   /* nesting of an unknown value being skipped */

/* ==== the reader ============================================================================ */

typedef struct jr {
    const uint8_t *p;
    size_t n, off;
    cuzk_error *err;
    cuzk_status st;
    const char *prefix;     /* "" or "Phase1Out: " (the JSON inside Curio's wrapper) */
    long part, chal;        /* the partition and challenge being read, -1 outside */
    char path[224];         /* the field being read, relative to the challenge when inside one */
    size_t plen;
} jr;

static void jfail(jr *r, cuzk_status code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void jfail(jr *r, cuzk_status code, const char *fmt, ...) {
    if (r->st != CUZK_OK) return;
    char msg[256], where[64] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->part >= 0 && r->chal >= 0) snprintf(where, sizeof where, "partition %ld challenge %ld: ", r->part, r->chal);
    else if (r->part >= 0) snprintf(where, sizeof where, "partition %ld: ", r->part);
    r->st = ERR(r->err, code, "C1 output: %s%s%s%s%s", r->prefix, where, r->path, r->plen ? ": " : "", msg);
}

static size_t push(jr *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t push(jr *r, const char *fmt, ...) {
    size_t old = r->plen;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(r->path + old, sizeof r->path - old, fmt, ap);
    va_end(ap);
    if (k > 0) r->plen = old + ((size_t)k < sizeof r->path - old ? (size_t)k : sizeof r->path - old - 1);
    return old;
}
static size_t push_field(jr *r, const char *name) { return r->plen ? push(r, ".%s", name) : push(r, "%s", name); }
static void pop(jr *r, size_t old) {
    r->plen = old;
    r->path[old] = 0;
}

static void ws(jr *r) {
    while (r->off < r->n) {
        uint8_t c = r->p[r->off];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        r->off++;
    }
}
static int peek(jr *r) {
    ws(r);
    return r->off < r->n ? r->p[r->off] : -1;
}

/* "expected X at byte N, found ..." */
static void fail_syntax(jr *r, const char *wanted) {
    int c = peek(r);
    char found[32];
    if (c < 0) snprintf(found, sizeof found, "the end of the input");
    else if (c >= 0x20 && c < 0x7f) snprintf(found, sizeof found, "'%c'", c);
    else snprintf(found, sizeof found, "byte 0x%02x", (unsigned)c);
    jfail(r, CUZK_ERR_FORMAT, "expected %s at byte %zu, found %s", wanted, r->off, found);
}

static bool expect(jr *r, char c, const char *wanted) {
    if (r->st != CUZK_OK) return false;
    if (peek(r) != (unsigned char)c) {
        fail_syntax(r, wanted);
        return false;
    }
    r->off++;
    return true;
}

/* A string: validates it and returns the span of its raw contents [*b, *e) (escapes not undone). */
static bool rd_string_span(jr *r, size_t *b, size_t *e) {
    if (!expect(r, '"', "a string")) return false;
    *b = r->off;
    while (r->off < r->n) {
        uint8_t c = r->p[r->off];
        if (c == '"') {
            *e = r->off++;
            return true;
        }
        if (c < 0x20) {
            jfail(r, CUZK_ERR_FORMAT, "control character 0x%02x in a string at byte %zu", c, r->off);
            return false;
        }
        if (c == '\\') {
            if (r->off + 1 >= r->n) break;
            uint8_t x = r->p[r->off + 1];
            if (x == 'u') {
                if (r->off + 6 > r->n) break;
                for (int i = 2; i < 6; i++) {
                    uint8_t h = r->p[r->off + i];
                    if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) {
                        jfail(r, CUZK_ERR_FORMAT, "bad \\u escape at byte %zu", r->off);
                        return false;
                    }
                }
                r->off += 6;
                continue;
            }
            if (!strchr("\"\\/bfnrt", x) || x == 0) {
                jfail(r, CUZK_ERR_FORMAT, "bad escape at byte %zu", r->off);
                return false;
            }
            r->off += 2;
            continue;
        }
        r->off++;
    }
    jfail(r, CUZK_ERR_FORMAT, "unterminated string (the input ends at byte %zu)", r->n);
    return false;
}

/* A short string (a key, a proof name) into buf, escapes undone (\uXXXX other than ASCII as '?');
 * a string longer than cap - 1 bytes gives "\x01" (matches no name). */
static bool rd_short_string(jr *r, char *buf, size_t cap) {
    size_t b, e;
    if (!rd_string_span(r, &b, &e)) return false;
    size_t k = 0;
    for (size_t i = b; i < e; i++) {
        uint8_t c = r->p[i];
        if (c == '\\') {
            uint8_t x = r->p[++i];
            switch (x) {
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u': {
                unsigned v = 0;
                for (int j = 1; j <= 4; j++) {
                    uint8_t h = r->p[i + j];
                    v = v * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
                }
                c = v >= 1 && v < 0x80 ? (uint8_t)v : '?';
                i += 4;
                break;
            }
            default: c = x;
            }
        }
        if (k + 1 >= cap) {
            snprintf(buf, cap, "\x01");
            return true;
        }
        buf[k++] = (char)c;
    }
    buf[k] = 0;
    return true;
}

/* An unsigned integer <= max (serde: no sign, fraction or exponent for an integer field). */
static uint64_t rd_uint(jr *r, uint64_t max) {
    if (r->st != CUZK_OK) return 0;
    int c = peek(r);
    if (c == '-') {
        jfail(r, CUZK_ERR_FORMAT, "negative number at byte %zu", r->off);
        return 0;
    }
    if (c < '0' || c > '9') {
        fail_syntax(r, "an unsigned integer");
        return 0;
    }
    size_t start = r->off;
    uint64_t v = 0;
    bool over = false;
    while (r->off < r->n && r->p[r->off] >= '0' && r->p[r->off] <= '9') {
        unsigned d = r->p[r->off] - '0';
        if (v > (UINT64_MAX - d) / 10) over = true;
        else v = v * 10 + d;
        r->off++;
    }
    if (r->off - start > 1 && r->p[start] == '0') {
        jfail(r, CUZK_ERR_FORMAT, "number with a leading zero at byte %zu", start);
        return 0;
    }
    if (r->off < r->n && (r->p[r->off] == '.' || r->p[r->off] == 'e' || r->p[r->off] == 'E')) {
        jfail(r, CUZK_ERR_FORMAT, "not an integer at byte %zu", start);
        return 0;
    }
    if (over || v > max) {
        char num[24];
        size_t k = r->off - start < sizeof num - 1 ? r->off - start : sizeof num - 1;
        memcpy(num, r->p + start, k);
        num[k] = 0;
        jfail(r, CUZK_ERR_FORMAT, "%s%s out of range 0..%llu (byte %zu)", num, r->off - start > k ? "..." : "",
              (unsigned long long)max, start);
        return 0;
    }
    return v;
}

static bool rd_literal(jr *r, const char *lit) {
    size_t k = strlen(lit);
    if (r->off + k <= r->n && memcmp(r->p + r->off, lit, k) == 0) {
        r->off += k;
        return true;
    }
    return false;
}

static void skip_value(jr *r, int depth);

/* Iteration over an object's keys: bool first = true; while (obj_key(r, &first, key, cap)) {value}.
 * The caller has read '{'. */
static bool obj_key(jr *r, bool *first, char *key, size_t cap) {
    if (r->st != CUZK_OK) return false;
    int c = peek(r);
    if (c == '}') {
        r->off++;
        return false;
    }
    if (!*first) {
        if (c != ',') {
            fail_syntax(r, "',' or '}'");
            return false;
        }
        r->off++;
    }
    *first = false;
    if (peek(r) != '"') {
        fail_syntax(r, "a key");
        return false;
    }
    if (!rd_short_string(r, key, cap)) return false;
    return expect(r, ':', "':'");
}

/* Iteration over an array's elements: bool first = true; while (arr_next(r, &first)) {element}.
 * The caller has read '['. */
static bool arr_next(jr *r, bool *first) {
    if (r->st != CUZK_OK) return false;
    int c = peek(r);
    if (*first) {
        *first = false;
        if (c == ']') {
            r->off++;
            return false;
        }
        return true;
    }
    if (c == ']') {
        r->off++;
        return false;
    }
    if (c != ',') {
        fail_syntax(r, "',' or ']'");
        return false;
    }
    r->off++;
    return true;
}

static void skip_value(jr *r, int depth) {
    if (r->st != CUZK_OK) return;
    if (depth > JSON_MAX_DEPTH) {
        jfail(r, CUZK_ERR_FORMAT, "nesting deeper than %d at byte %zu", JSON_MAX_DEPTH, r->off);
        return;
    }
    int c = peek(r);
    bool first = true;
    char key[8];
    size_t b, e;
    switch (c) {
    case '{':
        r->off++;
        while (obj_key(r, &first, key, sizeof key)) skip_value(r, depth + 1);
        return;
    case '[':
        r->off++;
        while (arr_next(r, &first)) skip_value(r, depth + 1);
        return;
    case '"': rd_string_span(r, &b, &e); return;
    case 't':
        if (!rd_literal(r, "true")) fail_syntax(r, "a value");
        return;
    case 'f':
        if (!rd_literal(r, "false")) fail_syntax(r, "a value");
        return;
    case 'n':
        if (!rd_literal(r, "null")) fail_syntax(r, "a value");
        return;
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            if (c == '-') r->off++;
            size_t d0 = r->off;
            while (r->off < r->n && r->p[r->off] >= '0' && r->p[r->off] <= '9') r->off++;
            if (r->off == d0) { fail_syntax(r, "a digit"); return; }
            if (r->off < r->n && r->p[r->off] == '.') {
                r->off++;
                size_t f0 = r->off;
                while (r->off < r->n && r->p[r->off] >= '0' && r->p[r->off] <= '9') r->off++;
                if (r->off == f0) { fail_syntax(r, "a digit"); return; }
            }
            if (r->off < r->n && (r->p[r->off] == 'e' || r->p[r->off] == 'E')) {
                r->off++;
                if (r->off < r->n && (r->p[r->off] == '+' || r->p[r->off] == '-')) r->off++;
                size_t x0 = r->off;
                while (r->off < r->n && r->p[r->off] >= '0' && r->p[r->off] <= '9') r->off++;
                if (r->off == x0) { fail_syntax(r, "a digit"); return; }
            }
            return;
        }
        fail_syntax(r, "a value");
    }
}

/* Field bookkeeping of one object: each known key at most once, the required ones present. */
static bool field(jr *r, const char *key, const char *name, unsigned bit, unsigned *seen) {
    if (strcmp(key, name) != 0) return false;
    if (*seen & bit) {
        jfail(r, CUZK_ERR_FORMAT, "duplicate field `%s`", name);
        return true;
    }
    *seen |= bit;
    return true;
}
static void need_fields(jr *r, unsigned seen, const char *const *names, int n) {
    for (int i = 0; i < n; i++)
        if (!(seen & (1u << i))) {
            jfail(r, CUZK_ERR_FORMAT, "missing field `%s`", names[i]);
            return;
        }
}

static void count_check(jr *r, size_t got, size_t want, const char *unit) {
    if (r->st == CUZK_OK && got != want) jfail(r, CUZK_ERR_FORMAT, "%zu %s, %zu expected", got, unit, want);
}

/* A 32-byte value: an array of exactly 32 integers 0..255. */
static void rd_bytes32(jr *r, uint8_t out[32]) {
    if (!expect(r, '[', "'[' (a 32-byte array)")) return;
    bool first = true;
    size_t i = 0;
    while (arr_next(r, &first)) {
        uint64_t v = rd_uint(r, 255);
        if (i < 32) out[i] = (uint8_t)v;
        i++;
    }
    count_check(r, i, 32, "bytes");
}

/* A field element: 32 bytes, the canonical little-endian value < r. */
static void rd_fr(jr *r, fr *out) {
    uint8_t b[32];
    size_t at = (ws(r), r->off);
    rd_bytes32(r, b);
    if (r->st != CUZK_OK) return;
    if (!fr_from_bytes_le(out, b, 32)) jfail(r, CUZK_ERR_FORMAT, "not a field element (>= r) at byte %zu", at);
}

/* An array of exactly want field elements. */
static void rd_frs(jr *r, fr *out, size_t want, const char *unit) {
    if (!expect(r, '[', "'['")) return;
    bool first = true;
    size_t i = 0;
    while (arr_next(r, &first)) {
        size_t m = push(r, "[%zu]", i);
        if (i < want) rd_fr(r, &out[i]);
        else skip_value(r, 0);
        pop(r, m);
        i++;
    }
    count_check(r, i, want, unit);
}

/* PathElement {"hashes": [D x arity-1], "index": i < arity} at one level of p. */
static void rd_path_element(jr *r, merkle_path *p, int level, int arity) {
    static const char *const names[] = {"hashes", "index"};
    if (!expect(r, '{', "'{' (a path element)")) return;
    unsigned seen = 0;
    bool first = true;
    char key[32];
    while (obj_key(r, &first, key, sizeof key)) {
        size_t m = push_field(r, key);
        if (field(r, key, "hashes", 1, &seen)) rd_frs(r, p->siblings[level], (size_t)arity - 1, "hashes");
        else if (field(r, key, "index", 2, &seen)) p->index[level] = (uint32_t)rd_uint(r, (uint64_t)arity - 1);
        else skip_value(r, 0);
        pop(r, m);
    }
    need_fields(r, seen, names, 2);
}

/* InclusionPath {"path": [PathElement x nlevels]} into levels level0.. of p. */
static void rd_inclusion_path(jr *r, merkle_path *p, int level0, int nlevels, int arity) {
    static const char *const names[] = {"path"};
    if (!expect(r, '{', "'{' (an inclusion path)")) return;
    unsigned seen = 0;
    bool first = true;
    char key[32];
    while (obj_key(r, &first, key, sizeof key)) {
        size_t m = push_field(r, key);
        if (field(r, key, "path", 1, &seen)) {
            if (expect(r, '[', "'['")) {
                bool f2 = true;
                size_t i = 0;
                while (arr_next(r, &f2)) {
                    size_t m2 = push(r, "[%zu]", i);
                    if (i < (size_t)nlevels) rd_path_element(r, p, level0 + (int)i, arity);
                    else skip_value(r, 0);
                    pop(r, m2);
                    i++;
                }
                count_check(r, i, (size_t)nlevels, "levels");
            }
        } else skip_value(r, 0);
        pop(r, m);
    }
    need_fields(r, seen, names, 1);
}

static const char *proof_variant(const merkle_shape *s) { return s->top_arity ? "Top" : s->sub_arity ? "Sub" : "Single"; }

/* The body of one ProofData variant: Single {root, leaf, path}, Sub {base_proof, sub_proof, root,
 * leaf}, Top {base_proof, sub_proof, top_proof, root, leaf}. */
static void rd_proof_body(jr *r, const merkle_shape *s, merkle_path *p, fr *leaf, fr *root) {
    static const char *const names[] = {"root", "leaf", "path", "base_proof", "sub_proof", "top_proof"};
    if (!expect(r, '{', "'{'")) return;
    unsigned seen = 0, want = 3 | (s->sub_arity ? 8 | 16 : 4) | (s->top_arity ? 32 : 0);
    bool first = true;
    char key[32];
    while (obj_key(r, &first, key, sizeof key)) {
        size_t m = push_field(r, key);
        if (field(r, key, "root", 1, &seen)) rd_fr(r, root);
        else if (field(r, key, "leaf", 2, &seen)) rd_fr(r, leaf);
        else if (!s->sub_arity && field(r, key, "path", 4, &seen)) rd_inclusion_path(r, p, 0, s->base_levels, s->base_arity);
        else if (s->sub_arity && field(r, key, "base_proof", 8, &seen)) rd_inclusion_path(r, p, 0, s->base_levels, s->base_arity);
        else if (s->sub_arity && field(r, key, "sub_proof", 16, &seen)) rd_inclusion_path(r, p, s->base_levels, 1, s->sub_arity);
        else if (s->top_arity && field(r, key, "top_proof", 32, &seen)) rd_inclusion_path(r, p, s->base_levels + 1, 1, s->top_arity);
        else skip_value(r, 0);
        pop(r, m);
    }
    for (int i = 0; i < 6; i++)
        if ((want >> i & 1) && !(seen >> i & 1)) {
            jfail(r, CUZK_ERR_FORMAT, "missing field `%s`", names[i]);
            return;
        }
}

/* MerkleProof {"data": {"<variant>": body}}, the variant the tree's shape has. */
static void rd_merkle_proof(jr *r, const merkle_shape *s, merkle_path *p, fr *leaf, fr *root) {
    static const char *const names[] = {"data"};
    if (!expect(r, '{', "'{' (a Merkle proof)")) return;
    unsigned seen = 0;
    bool first = true;
    char key[32];
    const char *variant = proof_variant(s);
    while (obj_key(r, &first, key, sizeof key)) {
        size_t m = push_field(r, key);
        if (field(r, key, "data", 1, &seen)) {
            if (expect(r, '{', "'{'")) {
                bool f2 = true;
                int nv = 0;
                char v[32];
                while (obj_key(r, &f2, v, sizeof v)) {
                    if (nv++) {
                        jfail(r, CUZK_ERR_FORMAT, "more than one variant");
                        break;
                    }
                    size_t m2 = push_field(r, v);
                    if (strcmp(v, variant) == 0) rd_proof_body(r, s, p, leaf, root);
                    else if (!strcmp(v, "Single") || !strcmp(v, "Sub") || !strcmp(v, "Top"))
                        jfail(r, CUZK_ERR_FORMAT, "a %s proof, this tree's proofs are %s", v, variant);
                    else jfail(r, CUZK_ERR_FORMAT, "unknown variant (expected %s)", variant);
                    pop(r, m2);
                }
                if (r->st == CUZK_OK && nv == 0) jfail(r, CUZK_ERR_FORMAT, "no variant (expected %s)", variant);
            }
        } else skip_value(r, 0);
        pop(r, m);
    }
    need_fields(r, seen, names, 1);
}

/* Column {"index": u32, "rows": [D x layers], "_h": null} */
static void rd_column(jr *r, porep_column_proof *cp, int layers) {
    static const char *const names[] = {"index", "rows"};
    if (!expect(r, '{', "'{' (a column)")) return;
    unsigned seen = 0;
    bool first = true;
    char key[32];
    while (obj_key(r, &first, key, sizeof key)) {
        size_t m = push_field(r, key);
        if (field(r, key, "index", 1, &seen)) cp->index = (uint32_t)rd_uint(r, UINT32_MAX);
        else if (field(r, key, "rows", 2, &seen)) rd_frs(r, cp->rows, (size_t)layers, "rows");
        else if (field(r, key, "_h", 4, &seen)) {
            if (peek(r) != 'n' || !rd_literal(r, "null")) fail_syntax(r, "null");
        } else skip_value(r, 0);
        pop(r, m);
    }
    need_fields(r, seen, names, 2);
}

/* ColumnProof {"column": Column, "inclusion_proof": MerkleProof} */
static void rd_column_proof(jr *r, porep_column_proof *cp, const porep_params *pp) {
    static const char *const names[] = {"column", "inclusion_proof"};
    if (!expect(r, '{', "'{' (a column proof)")) return;
    unsigned seen = 0;
    bool first = true;
    char key[32];
    while (obj_key(r, &first, key, sizeof key)) {
        size_t m = push_field(r, key);
        if (field(r, key, "column", 1, &seen)) rd_column(r, cp, pp->layers);
        else if (field(r, key, "inclusion_proof", 2, &seen)) rd_merkle_proof(r, &pp->shape, &cp->path, &cp->leaf, &cp->root);
        else skip_value(r, 0);
        pop(r, m);
    }
    need_fields(r, seen, names, 2);
}

static void rd_column_proofs(jr *r, porep_column_proof *cps, size_t want, const porep_params *pp) {
    if (!expect(r, '[', "'['")) return;
    bool first = true;
    size_t i = 0;
    while (arr_next(r, &first)) {
        size_t m = push(r, "[%zu]", i);
        if (i < want) rd_column_proof(r, &cps[i], pp);
        else skip_value(r, 0);
        pop(r, m);
        i++;
    }
    count_check(r, i, want, "column proofs");
}

/* ReplicaColumnProof {"c_x": CP, "drg_parents": [CP x 6], "exp_parents": [CP x 8]} */
static void rd_replica_columns(jr *r, porep_challenge_proof *cp, const porep_params *pp) {
    static const char *const names[] = {"c_x", "drg_parents", "exp_parents"};
    if (!expect(r, '{', "'{'")) return;
    unsigned seen = 0;
    bool first = true;
    char key[32];
    while (obj_key(r, &first, key, sizeof key)) {
        size_t m = push_field(r, key);
        if (field(r, key, "c_x", 1, &seen)) rd_column_proof(r, &cp->c_x, pp);
        else if (field(r, key, "drg_parents", 2, &seen)) rd_column_proofs(r, cp->drg, POREP_DRG_DEGREE, pp);
        else if (field(r, key, "exp_parents", 4, &seen)) rd_column_proofs(r, cp->exp, POREP_EXP_DEGREE, pp);
        else skip_value(r, 0);
        pop(r, m);
    }
    need_fields(r, seen, names, 3);
}

/* LabelingProof / EncodingProof {"parents": [D x 37], "layer_index": u32, "node": u64} */
static void rd_label_proof(jr *r, porep_label_proof *lp) {
    static const char *const names[] = {"parents", "layer_index", "node"};
    if (!expect(r, '{', "'{' (a labeling proof)")) return;
    unsigned seen = 0;
    bool first = true;
    char key[32];
    while (obj_key(r, &first, key, sizeof key)) {
        size_t m = push_field(r, key);
        if (field(r, key, "parents", 1, &seen)) rd_frs(r, lp->parents, POREP_LABEL_PARENTS, "parents");
        else if (field(r, key, "layer_index", 2, &seen)) lp->layer_index = (uint32_t)rd_uint(r, UINT32_MAX);
        else if (field(r, key, "node", 4, &seen)) lp->node = rd_uint(r, UINT64_MAX);
        else skip_value(r, 0);
        pop(r, m);
    }
    need_fields(r, seen, names, 3);
}

/* Proof (one challenge) */
static void rd_challenge_proof(jr *r, porep_challenge_proof *cp, const porep_params *pp) {
    static const char *const names[] = {"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs", "labeling_proofs",
                                        "encoding_proof"};
    const merkle_shape d_shape = {2, pp->d_levels, 0, 0};
    if (!expect(r, '{', "'{' (a challenge proof)")) return;
    unsigned seen = 0;
    bool first = true;
    char key[32];
    while (obj_key(r, &first, key, sizeof key)) {
        size_t m = push_field(r, key);
        if (field(r, key, "comm_d_proofs", 1, &seen)) rd_merkle_proof(r, &d_shape, &cp->comm_d_path, &cp->comm_d_leaf, &cp->comm_d_root);
        else if (field(r, key, "comm_r_last_proof", 2, &seen))
            rd_merkle_proof(r, &pp->shape, &cp->comm_r_last_path, &cp->comm_r_last_leaf, &cp->comm_r_last_root);
        else if (field(r, key, "replica_column_proofs", 4, &seen)) rd_replica_columns(r, cp, pp);
        else if (field(r, key, "labeling_proofs", 8, &seen)) {
            if (expect(r, '[', "'['")) {
                bool f2 = true;
                size_t i = 0;
                while (arr_next(r, &f2)) {
                    size_t m2 = push(r, "[%zu]", i);
                    if (i < (size_t)pp->layers) rd_label_proof(r, &cp->labeling[i]);
                    else skip_value(r, 0);
                    pop(r, m2);
                    i++;
                }
                count_check(r, i, (size_t)pp->layers, "labeling proofs (layers)");
            }
        } else if (field(r, key, "encoding_proof", 16, &seen)) rd_label_proof(r, &cp->encoding);
        else skip_value(r, 0);
        pop(r, m);
    }
    need_fields(r, seen, names, 5);
}

/* The vanilla proofs' variant name: the sector shape (rust-filecoin-proofs-api VanillaSealProof). */
static const char *shape_variant(uint64_t sector_size) {
    switch (sector_size) {
    case 2048ull: return "StackedDrg2KiBV1";
    case 8ull << 20: return "StackedDrg8MiBV1";
    case 512ull << 20: return "StackedDrg512MiBV1";
    case 32ull << 30: return "StackedDrg32GiBV1";
    case 64ull << 30: return "StackedDrg64GiBV1";
    default: return NULL;
    }
}

/* vanilla_proofs {"StackedDrg<size>V1": [[Proof x challenges] x partitions]}; c1->pp is set. */
static void rd_vanilla(jr *r, porep_c1 *c1) {
    const porep_params *pp = &c1->pp;
    const char *variant = shape_variant(pp->sector_size);
    if (!variant || pp->partitions < 1 || pp->partitions > POREP_MAX_PARTITIONS || pp->challenges < 1 ||
        pp->challenges > POREP_MAX_CHALLENGES || pp->layers < 1 || pp->layers > POREP_MAX_LAYERS) {
        jfail(r, CUZK_ERR_FORMAT, "the registered proof's parameters are not supported");
        return;
    }
    if (!c1->proofs) {
        c1->proofs = calloc((size_t)pp->partitions * (size_t)pp->challenges, sizeof *c1->proofs);
        if (!c1->proofs) {
            jfail(r, CUZK_ERR_NOMEM, "no memory for %d x %d challenge proofs", pp->partitions, pp->challenges);
            return;
        }
        c1->n_partitions = (uint32_t)pp->partitions;
        c1->n_challenges = (uint32_t)pp->challenges;
    }
    if (!expect(r, '{', "'{' (the proofs' variant)")) return;
    bool first = true;
    int nv = 0;
    char v[64];
    while (obj_key(r, &first, v, sizeof v)) {
        if (nv++) {
            jfail(r, CUZK_ERR_FORMAT, "more than one variant");
            return;
        }
        size_t m = push_field(r, v);
        if (strcmp(v, variant) != 0) {
            char shown[80];
            text_escape(shown, sizeof shown, v, strlen(v), 48);
            static const uint64_t sizes[] = {2048ull, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
            bool known = false;
            for (int i = 0; i < 5; i++) known |= strcmp(v, shape_variant(sizes[i])) == 0;
            if (known)
                jfail(r, CUZK_ERR_FORMAT, "proofs of another sector size: registered_proof %s takes %s",
                      porep_proof_name(pp->registered_proof), variant);
            else jfail(r, CUZK_ERR_FORMAT, "unknown variant \"%s\" (expected %s)", shown, variant);
            pop(r, m);
            return;
        }
        if (expect(r, '[', "'[' (partitions)")) {
            bool fp = true;
            size_t k = 0;
            while (arr_next(r, &fp)) {
                if (k < (size_t)pp->partitions) {
                    size_t saved = r->plen;
                    char saved_path[sizeof r->path];
                    memcpy(saved_path, r->path, sizeof saved_path);
                    r->part = (long)k;
                    pop(r, 0);
                    if (expect(r, '[', "'[' (challenges)")) {
                        bool fc = true;
                        size_t i = 0;
                        while (arr_next(r, &fc)) {
                            if (i < (size_t)pp->challenges) {
                                r->chal = (long)i;
                                rd_challenge_proof(r, &c1->proofs[k * (size_t)pp->challenges + i], pp);
                                r->chal = -1;
                            } else skip_value(r, 0);
                            i++;
                        }
                        count_check(r, i, (size_t)pp->challenges, "challenges");
                    }
                    if (r->st == CUZK_OK) r->part = -1;
                    memcpy(r->path, saved_path, sizeof saved_path);
                    r->plen = saved;
                } else skip_value(r, 0);
                k++;
            }
            count_check(r, k, (size_t)pp->partitions, "partitions");
        }
        pop(r, m);
    }
    if (r->st == CUZK_OK && nv == 0) jfail(r, CUZK_ERR_FORMAT, "no variant (expected %s)", variant);
}

/* The SealCommitPhase1Output object. */
static void rd_c1(jr *r, porep_c1 *c1) {
    static const char *const names[] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"};
    if (!expect(r, '{', "'{' (a C1 output)")) return;
    unsigned seen = 0;
    bool first = true, have_pp = false;
    size_t deferred = SIZE_MAX;   /* vanilla_proofs seen before registered_proof: its offset */
    char key[48];
    while (obj_key(r, &first, key, sizeof key)) {
        size_t m = push_field(r, key);
        if (field(r, key, "registered_proof", 1, &seen)) {
            char name[64];
            if (rd_short_string(r, name, sizeof name)) {
                uint64_t id = porep_proof_from_name(name);
                cuzk_error e2;
                if (id == UINT64_MAX) {
                    char shown[80];
                    text_escape(shown, sizeof shown, name, strlen(name), 48);
                    jfail(r, CUZK_ERR_FORMAT, "unknown registered proof \"%s\"", shown);
                } else if (porep_params_from_proof(&c1->pp, id, &e2) != CUZK_OK) {
                    jfail(r, CUZK_ERR_FORMAT, "%s: %s", name, e2.msg);
                } else if (r->n > porep_c1_max_bytes(&c1->pp, 0)) {
                    /* before any proof is read: the bytes a C1 of this proof can take at most */
                    jfail(r, CUZK_ERR_FORMAT, "%zu bytes, longer than any C1 output of %s can be (%zu bytes at most, "
                          "whitespace included): not a C1 output of it", r->n, name, porep_c1_max_bytes(&c1->pp, 0));
                } else have_pp = true;
            }
        } else if (field(r, key, "vanilla_proofs", 2, &seen)) {
            if (have_pp) rd_vanilla(r, c1);
            else {
                deferred = (ws(r), r->off);
                skip_value(r, 0);
            }
        } else if (field(r, key, "comm_r", 4, &seen)) rd_bytes32(r, c1->comm_r);
        else if (field(r, key, "comm_d", 8, &seen)) rd_bytes32(r, c1->comm_d);
        else if (field(r, key, "replica_id", 16, &seen)) rd_bytes32(r, c1->replica_id);
        else if (field(r, key, "seed", 32, &seen)) rd_bytes32(r, c1->seed);
        else if (field(r, key, "ticket", 64, &seen)) rd_bytes32(r, c1->ticket);
        else skip_value(r, 0);
        pop(r, m);
    }
    need_fields(r, seen, names, 7);
    if (r->st == CUZK_OK && deferred != SIZE_MAX) {
        size_t end = r->off;
        r->off = deferred;
        size_t m = push_field(r, "vanilla_proofs");
        rd_vanilla(r, c1);
        pop(r, m);
        r->off = end;
    }
}

static void rd_end(jr *r) {
    if (r->st == CUZK_OK && peek(r) >= 0) jfail(r, CUZK_ERR_FORMAT, "trailing characters at byte %zu", r->off);
}

/* Curio's wrapper {"SectorNum": n, "Phase1Out": base64, "SectorSize": n}. */
static void rd_wrapper(jr *r, porep_c1 *c1, uint64_t *sector_num) {
    static const char *const names[] = {"SectorNum", "Phase1Out", "SectorSize"};
    if (!expect(r, '{', "'{'")) return;
    unsigned seen = 0;
    bool first = true;
    size_t b = 0, e = 0;
    uint64_t num = 0, size = 0;
    char key[48];
    while (obj_key(r, &first, key, sizeof key)) {
        size_t m = push_field(r, key);
        if (field(r, key, "SectorNum", 1, &seen)) num = rd_uint(r, INT64_MAX); /* abi.MaxSectorNumber */
        else if (field(r, key, "Phase1Out", 2, &seen)) rd_string_span(r, &b, &e);
        else if (field(r, key, "SectorSize", 4, &seen)) size = rd_uint(r, UINT64_MAX);
        else skip_value(r, 0);
        pop(r, m);
    }
    need_fields(r, seen, names, 3);
    rd_end(r);
    if (r->st != CUZK_OK) return;
    /* Phase1Out: the JSON in base64 (Go's encoding/json for []byte; "\/" taken as '/') */
    const char *s64 = (const char *)r->p + b;
    size_t n = 0, bad = 0, cap = base64_decoded_max(e - b);
    uint8_t *json = malloc(cap + 1);
    if (!json) {
        jfail(r, CUZK_ERR_NOMEM, "no memory to decode Phase1Out (%zu bytes)", e - b);
        return;
    }
    if (!base64_decode(json, cap, &n, s64, e - b, BASE64_JSON_SLASH, &bad)) {
        char why[64];
        base64_describe(why, sizeof why, s64, e - b, bad);
        jfail(r, CUZK_ERR_FORMAT, "Phase1Out: not base64: %s", why);
        free(json);
        return;
    }
    jr in = {.p = json, .n = n, .err = r->err, .prefix = "Phase1Out: ", .part = -1, .chal = -1};
    rd_c1(&in, c1);
    rd_end(&in);
    free(json);
    if (in.st != CUZK_OK) {
        r->st = in.st;
        return;
    }
    if (size != c1->pp.sector_size) {
        jfail(r, CUZK_ERR_FORMAT, "SectorSize %llu, the C1 output (%s) is of %llu-byte sectors", (unsigned long long)size,
              porep_proof_name(c1->pp.registered_proof), (unsigned long long)c1->pp.sector_size);
        return;
    }
    *sector_num = num;
}

void porep_c1_free(porep_c1 *c1) {
    if (!c1) return;
    free(c1->proofs);
    memset(c1, 0, sizeof *c1);
}

cuzk_status porep_c1_read(porep_c1 *out, const uint8_t *buf, size_t len, uint64_t *curio_sector_num, cuzk_error *err) {
    if (curio_sector_num) *curio_sector_num = UINT64_MAX;
    if (!out) return ERR(err, CUZK_ERR_ARG, "porep_c1_read: NULL out");
    memset(out, 0, sizeof *out);
    if (!buf && len) return ERR(err, CUZK_ERR_ARG, "porep_c1_read: NULL buffer");
    if (len > porep_c1_max_bytes_any())
        return ERR(err, CUZK_ERR_FORMAT, "C1 output: %zu bytes, longer than any C1 output can be (a 64 GiB sector's in "
                   "Curio's wrapper: %zu bytes at most, whitespace included): not a C1 output", len, porep_c1_max_bytes_any());
    jr r = {.p = buf, .n = len, .err = err, .prefix = "", .part = -1, .chal = -1};
    /* the wrapper or the C1 output itself: told apart by the first key */
    bool wrapper = false;
    if (peek(&r) == '{') {
        jr probe = r;
        probe.err = NULL;
        probe.off++;
        char key[16];
        if (peek(&probe) == '"' && rd_short_string(&probe, key, sizeof key))
            wrapper = !strcmp(key, "SectorNum") || !strcmp(key, "Phase1Out") || !strcmp(key, "SectorSize");
    }
    uint64_t num = UINT64_MAX;
    if (wrapper) rd_wrapper(&r, out, &num);
    else {
        rd_c1(&r, out);
        rd_end(&r);
    }
    if (r.st != CUZK_OK) {
        porep_c1_free(out);
        return r.st;
    }
    if (curio_sector_num) *curio_sector_num = num;
    return CUZK_OK;
}

/* ==== the writer ============================================================================ */

typedef struct wb {
    char *p;
    size_t n, cap;
    bool oom;
} wb;

static bool wb_reserve(wb *b, size_t k) {
    if (b->oom) return false;
    if (b->n + k + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap < b->n + k + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}
static void wb_put(wb *b, const char *s, size_t k) {
    if (!wb_reserve(b, k)) return;
    memcpy(b->p + b->n, s, k);
    b->n += k;
    b->p[b->n] = 0;
}
static void wb_s(wb *b, const char *s) { wb_put(b, s, strlen(s)); }
static void wb_u64(wb *b, uint64_t v) {
    char t[24];
    int k = snprintf(t, sizeof t, "%llu", (unsigned long long)v);
    wb_put(b, t, (size_t)k);
}
static void wb_bytes32(wb *b, const uint8_t v[32]) {
    if (!wb_reserve(b, 32 * 4 + 2)) return;
    char *o = b->p + b->n;
    *o++ = '[';
    for (int i = 0; i < 32; i++) {
        unsigned x = v[i];
        if (i) *o++ = ',';
        if (x >= 100) *o++ = (char)('0' + x / 100);
        if (x >= 10) *o++ = (char)('0' + x / 10 % 10);
        *o++ = (char)('0' + x % 10);
    }
    *o++ = ']';
    b->n = (size_t)(o - b->p);
    b->p[b->n] = 0;
}
static void wb_fr(wb *b, const fr *x) {
    uint8_t t[32];
    fr_to_bytes_le(t, 32, x);
    wb_bytes32(b, t);
}
static void wb_frs(wb *b, const fr *x, int n) {
    wb_s(b, "[");
    for (int i = 0; i < n; i++) {
        if (i) wb_s(b, ",");
        wb_fr(b, &x[i]);
    }
    wb_s(b, "]");
}

static void wb_inclusion_path(wb *b, const merkle_path *p, int level0, int nlevels, int arity) {
    wb_s(b, "{\"path\":[");
    for (int l = 0; l < nlevels; l++) {
        if (l) wb_s(b, ",");
        wb_s(b, "{\"hashes\":");
        wb_frs(b, p->siblings[level0 + l], arity - 1);
        wb_s(b, ",\"index\":");
        wb_u64(b, p->index[level0 + l]);
        wb_s(b, "}");
    }
    wb_s(b, "]}");
}

static void wb_merkle_proof(wb *b, const merkle_shape *s, const merkle_path *p, const fr *leaf, const fr *root) {
    wb_s(b, "{\"data\":{\"");
    wb_s(b, proof_variant(s));
    wb_s(b, "\":{");
    if (!s->sub_arity) {
        wb_s(b, "\"root\":");
        wb_fr(b, root);
        wb_s(b, ",\"leaf\":");
        wb_fr(b, leaf);
        wb_s(b, ",\"path\":");
        wb_inclusion_path(b, p, 0, s->base_levels, s->base_arity);
    } else {
        wb_s(b, "\"base_proof\":");
        wb_inclusion_path(b, p, 0, s->base_levels, s->base_arity);
        wb_s(b, ",\"sub_proof\":");
        wb_inclusion_path(b, p, s->base_levels, 1, s->sub_arity);
        if (s->top_arity) {
            wb_s(b, ",\"top_proof\":");
            wb_inclusion_path(b, p, s->base_levels + 1, 1, s->top_arity);
        }
        wb_s(b, ",\"root\":");
        wb_fr(b, root);
        wb_s(b, ",\"leaf\":");
        wb_fr(b, leaf);
    }
    wb_s(b, "}}}");
}

static void wb_column_proof(wb *b, const porep_column_proof *cp, const porep_params *pp) {
    wb_s(b, "{\"column\":{\"index\":");
    wb_u64(b, cp->index);
    wb_s(b, ",\"rows\":");
    wb_frs(b, cp->rows, pp->layers);
    wb_s(b, ",\"_h\":null},\"inclusion_proof\":");
    wb_merkle_proof(b, &pp->shape, &cp->path, &cp->leaf, &cp->root);
    wb_s(b, "}");
}

static void wb_label_proof(wb *b, const porep_label_proof *lp) {
    wb_s(b, "{\"parents\":");
    wb_frs(b, lp->parents, POREP_LABEL_PARENTS);
    wb_s(b, ",\"layer_index\":");
    wb_u64(b, lp->layer_index);
    wb_s(b, ",\"node\":");
    wb_u64(b, lp->node);
    wb_s(b, "}");
}

static void wb_challenge_proof(wb *b, const porep_challenge_proof *cp, const porep_params *pp) {
    const merkle_shape d_shape = {2, pp->d_levels, 0, 0};
    wb_s(b, "{\"comm_d_proofs\":");
    wb_merkle_proof(b, &d_shape, &cp->comm_d_path, &cp->comm_d_leaf, &cp->comm_d_root);
    wb_s(b, ",\"comm_r_last_proof\":");
    wb_merkle_proof(b, &pp->shape, &cp->comm_r_last_path, &cp->comm_r_last_leaf, &cp->comm_r_last_root);
    wb_s(b, ",\"replica_column_proofs\":{\"c_x\":");
    wb_column_proof(b, &cp->c_x, pp);
    wb_s(b, ",\"drg_parents\":[");
    for (int j = 0; j < POREP_DRG_DEGREE; j++) {
        if (j) wb_s(b, ",");
        wb_column_proof(b, &cp->drg[j], pp);
    }
    wb_s(b, "],\"exp_parents\":[");
    for (int j = 0; j < POREP_EXP_DEGREE; j++) {
        if (j) wb_s(b, ",");
        wb_column_proof(b, &cp->exp[j], pp);
    }
    wb_s(b, "]},\"labeling_proofs\":[");
    for (int l = 0; l < pp->layers; l++) {
        if (l) wb_s(b, ",");
        wb_label_proof(b, &cp->labeling[l]);
    }
    wb_s(b, "],\"encoding_proof\":");
    wb_label_proof(b, &cp->encoding);
    wb_s(b, "}");
}

static void wb_c1(wb *b, const porep_c1 *c1, const char *name, const char *variant) {
    const porep_params *pp = &c1->pp;
    wb_s(b, "{\"registered_proof\":\"");
    wb_s(b, name);
    wb_s(b, "\",\"vanilla_proofs\":{\"");
    wb_s(b, variant);
    wb_s(b, "\":[");
    for (uint32_t k = 0; k < c1->n_partitions; k++) {
        if (k) wb_s(b, ",");
        wb_s(b, "[");
        for (uint32_t i = 0; i < c1->n_challenges; i++) {
            if (i) wb_s(b, ",");
            wb_challenge_proof(b, porep_c1_proof(c1, k, i), pp);
        }
        wb_s(b, "]");
    }
    wb_s(b, "]},\"comm_r\":");
    wb_bytes32(b, c1->comm_r);
    wb_s(b, ",\"comm_d\":");
    wb_bytes32(b, c1->comm_d);
    wb_s(b, ",\"replica_id\":");
    wb_bytes32(b, c1->replica_id);
    wb_s(b, ",\"seed\":");
    wb_bytes32(b, c1->seed);
    wb_s(b, ",\"ticket\":");
    wb_bytes32(b, c1->ticket);
    wb_s(b, "}");
}

cuzk_status porep_c1_write(const porep_c1 *c1, int curio_wrapper, uint64_t sector_id, uint8_t **out, size_t *len,
                           cuzk_error *err) {
    if (!c1 || !out || !len) return ERR(err, CUZK_ERR_ARG, "porep_c1_write: NULL argument");
    *out = NULL;
    *len = 0;
    const porep_params *pp = &c1->pp;
    const char *name = porep_proof_name(pp->registered_proof);
    const char *variant = shape_variant(pp->sector_size);
    if (!name || !variant) return ERR(err, CUZK_ERR_ARG, "porep_c1_write: parameters without a registered proof name");
    if (!c1->proofs || c1->n_partitions != (uint32_t)pp->partitions || c1->n_challenges != (uint32_t)pp->challenges ||
        pp->layers < 1 || pp->layers > POREP_MAX_LAYERS || pp->d_levels < 1 || pp->d_levels > MERKLE_MAX_LEVELS ||
        merkle_levels(&pp->shape) > MERKLE_MAX_LEVELS)
        return ERR(err, CUZK_ERR_ARG, "porep_c1_write: %u partitions x %u challenges, %s has %d x %d", c1->n_partitions,
                   c1->n_challenges, name, pp->partitions, pp->challenges);
    wb b = {0};
    wb_c1(&b, c1, name, variant);
    if (curio_wrapper && !b.oom) {
        size_t n = b.n, m = base64_encoded_len(n);
        wb w = {0};
        if (wb_reserve(&w, m + 96)) {
            wb_s(&w, "{\"SectorNum\":");
            wb_u64(&w, sector_id);
            wb_s(&w, ",\"Phase1Out\":\"");
            if (wb_reserve(&w, m + 64)) {
                base64_encode(w.p + w.n, (const uint8_t *)b.p, n);
                w.n += m;
                w.p[w.n] = 0;
            }
            wb_s(&w, "\",\"SectorSize\":");
            wb_u64(&w, pp->sector_size);
            wb_s(&w, "}");
        }
        free(b.p);
        b = w;
    }
    if (b.oom) {
        free(b.p);
        return ERR(err, CUZK_ERR_NOMEM, "porep_c1_write: out of memory");
    }
    *out = (uint8_t *)b.p;
    *len = b.n;
    return CUZK_OK;
}

/* ---- the most bytes a C1 output can take ---- */

size_t porep_c1_max_bytes(const porep_params *pp, int curio_wrapper) {
    const char *name = porep_proof_name(pp->registered_proof);
    if (!name || !shape_variant(pp->sector_size) || pp->partitions < 1 || pp->partitions > POREP_MAX_PARTITIONS ||
        pp->challenges < 1 || pp->challenges > POREP_MAX_CHALLENGES || pp->layers < 1 || pp->layers > POREP_MAX_LAYERS ||
        pp->d_levels < 1 || pp->d_levels > MERKLE_MAX_LEVELS || merkle_levels(&pp->shape) > MERKLE_MAX_LEVELS)
        return 0;
    /* one challenge proof at its widest: every byte of every value 3 digits (100..255), every
     * index and node the largest its type prints */
    porep_challenge_proof *cp = malloc(sizeof *cp);
    if (!cp) return SIZE_MAX; /* no bound known: nothing refused */
    uint8_t b[32];
    memset(b, 100, sizeof b); /* < r: a field element */
    fr wide;
    fr_from_bytes_le(&wide, b, 32);
    memset(cp, 0xff, sizeof *cp); /* every index and node at its type's largest */
    merkle_path *paths[2 + 1 + POREP_DRG_DEGREE + POREP_EXP_DEGREE];
    int np = 0;
    paths[np++] = &cp->comm_d_path;
    paths[np++] = &cp->comm_r_last_path;
    porep_column_proof *cols[1 + POREP_DRG_DEGREE + POREP_EXP_DEGREE];
    int nc = 0;
    cols[nc++] = &cp->c_x;
    for (int j = 0; j < POREP_DRG_DEGREE; j++) cols[nc++] = &cp->drg[j];
    for (int j = 0; j < POREP_EXP_DEGREE; j++) cols[nc++] = &cp->exp[j];
    for (int j = 0; j < nc; j++) {
        for (int l = 0; l < POREP_MAX_LAYERS; l++) cols[j]->rows[l] = wide;
        cols[j]->leaf = wide;
        cols[j]->root = wide;
        paths[np++] = &cols[j]->path;
    }
    for (int j = 0; j < np; j++)
        for (int l = 0; l < MERKLE_MAX_LEVELS; l++)
            for (int a = 0; a < 15; a++) paths[j]->siblings[l][a] = wide;
    cp->comm_d_leaf = cp->comm_d_root = cp->comm_r_last_leaf = cp->comm_r_last_root = wide;
    for (int l = 0; l <= POREP_MAX_LAYERS; l++) {
        porep_label_proof *lp = l < POREP_MAX_LAYERS ? &cp->labeling[l] : &cp->encoding;
        for (int q = 0; q < POREP_LABEL_PARENTS; q++) lp->parents[q] = wide;
    }
    wb w = {0};
    wb_challenge_proof(&w, cp, pp);
    free(cp);
    size_t one = w.n;
    bool oom = w.oom;
    free(w.p);
    if (oom) return SIZE_MAX;
    /* {"registered_proof":"..","vanilla_proofs":{"..":[[..],..]},"comm_r":D,...,"ticket":D}: the
     * names and five 32-byte values fit in 1 KiB */
    size_t json = 1024 + (size_t)pp->partitions * (3 + (size_t)pp->challenges * (one + 1));
    if (curio_wrapper) json = (json + 2) / 3 * 4 + 1024; /* base64, SectorNum, SectorSize */
    return POREP_C1_WHITESPACE_FACTOR * json;
}

size_t porep_c1_max_bytes_any(void) {
    static size_t cached; /* the same for every call: computed once (a race computes it twice) */
    size_t m = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (m) return m;
    for (uint64_t id = 0; id <= 14; id++) {
        porep_params pp;
        if (porep_params_from_proof(&pp, id, NULL) != CUZK_OK) continue;
        size_t k = porep_c1_max_bytes(&pp, 1);
        if (k > m) m = k;
    }
    __atomic_store_n(&cached, m, __ATOMIC_RELAXED);
    return m;
}

/* ==== the checks ============================================================================ */

typedef struct chk {
    const porep_c1 *c1;
    const porep_params *pp;
    const uint64_t *challenges;  /* n_partitions * n_challenges */
    uint8_t comm_d[32];
    fr comm_c, comm_r_last;
    size_t first_bad;            /* smallest failing item so far (atomic); SIZE_MAX: none */
    cuzk_status *st;             /* per thread */
    size_t *bad;
    cuzk_error *errs;
} chk;

#define CFAIL(...) ERR(err, CUZK_ERR_INVALID, "C1 output: partition %u challenge %u: " __VA_ARGS__)

/* One column proof of the challenge: its index and path open node, its leaf is the hash of its
 * rows, its root is comm_c and its path hashes the leaf to it. */
static cuzk_status check_column(const chk *c, uint32_t k, uint32_t i, const porep_column_proof *cp, uint64_t node,
                                const char *what, int j, cuzk_error *err) {
    const porep_params *pp = c->pp;
    char nm[32];
    if (j >= 0) snprintf(nm, sizeof nm, "%s[%d]", what, j);
    else snprintf(nm, sizeof nm, "%s", what);
    if (cp->index != node)
        return CFAIL("%s: column index %u, expected node %llu", k, i, nm, cp->index, (unsigned long long)node);
    for (int l = 0; l < merkle_levels(&pp->shape); l++)
        if (cp->path.index[l] >= (uint32_t)merkle_level_arity(&pp->shape, l))
            return CFAIL("%s: path index %u at level %d, arity %d", k, i, nm, cp->path.index[l], l, merkle_level_arity(&pp->shape, l));
    uint64_t leaf_index = merkle_path_leaf_index(&pp->shape, &cp->path);
    if (leaf_index != node)
        return CFAIL("%s: the inclusion proof opens node %llu, expected %llu", k, i, nm, (unsigned long long)leaf_index,
                     (unsigned long long)node);
    fr h;
    poseidon_hash(&h, cp->rows, pp->layers);
    if (!fr_eq(&h, &cp->leaf)) return CFAIL("%s: the inclusion proof's leaf is not the hash of the column's rows", k, i, nm);
    if (!fr_eq(&cp->root, &c->comm_c)) return CFAIL("%s: the inclusion proof's root is not comm_c", k, i, nm);
    merkle_path_root(&h, &pp->shape, &cp->path, &cp->leaf);
    if (!fr_eq(&h, &cp->root)) return CFAIL("%s: the inclusion proof's path does not hash to its root", k, i, nm);
    return CUZK_OK;
}

static void fr_bytes(uint8_t out[32], const fr *x) { fr_to_bytes_le(out, 32, x); }

static cuzk_status check_challenge(const chk *c, uint32_t k, uint32_t i, cuzk_error *err) {
    const porep_c1 *c1 = c->c1;
    const porep_params *pp = c->pp;
    const porep_challenge_proof *p = porep_c1_proof(c1, k, i);
    const uint64_t x = c->challenges[(size_t)k * c1->n_challenges + i];
    cuzk_status st;

    /* tree D: the data leaf of the challenge, SHA-256 path to comm_d */
    uint64_t d_index = 0;
    for (int l = 0; l < pp->d_levels; l++) {
        if (p->comm_d_path.index[l] > 1) return CFAIL("comm_d_proofs: path index %u at level %d, arity 2", k, i, p->comm_d_path.index[l], l);
        d_index |= (uint64_t)p->comm_d_path.index[l] << l;
    }
    if (d_index != x)
        return CFAIL("comm_d_proofs: opens node %llu, the challenge is node %llu", k, i, (unsigned long long)d_index,
                     (unsigned long long)x);
    uint8_t cur[32], sib[32], t[32];
    fr_bytes(cur, &p->comm_d_root);
    if (memcmp(cur, c->comm_d, 32) != 0) return CFAIL("comm_d_proofs: the root is not comm_d", k, i);
    fr_bytes(cur, &p->comm_d_leaf);
    for (int l = 0; l < pp->d_levels; l++) {
        fr_bytes(sib, &p->comm_d_path.siblings[l][0]);
        if (p->comm_d_path.index[l]) porep_sha256_node(t, sib, cur);
        else porep_sha256_node(t, cur, sib);
        memcpy(cur, t, 32);
    }
    if (memcmp(cur, c->comm_d, 32) != 0) return CFAIL("comm_d_proofs: the path does not hash to comm_d", k, i);

    /* tree R-last */
    for (int l = 0; l < merkle_levels(&pp->shape); l++)
        if (p->comm_r_last_path.index[l] >= (uint32_t)merkle_level_arity(&pp->shape, l))
            return CFAIL("comm_r_last_proof: path index %u at level %d, arity %d", k, i, p->comm_r_last_path.index[l], l,
                         merkle_level_arity(&pp->shape, l));
    uint64_t r_index = merkle_path_leaf_index(&pp->shape, &p->comm_r_last_path);
    if (r_index != x)
        return CFAIL("comm_r_last_proof: opens node %llu, the challenge is node %llu", k, i, (unsigned long long)r_index,
                     (unsigned long long)x);
    if (!fr_eq(&p->comm_r_last_root, &c->comm_r_last)) return CFAIL("comm_r_last_proof: the root is not comm_r_last", k, i);
    fr h;
    merkle_path_root(&h, &pp->shape, &p->comm_r_last_path, &p->comm_r_last_leaf);
    if (!fr_eq(&h, &c->comm_r_last)) return CFAIL("comm_r_last_proof: the path does not hash to comm_r_last", k, i);

    /* tree C: the challenge's column and its parents' columns */
    uint32_t par[POREP_PARENTS];
    porep_parents(pp, x, par);
    if ((st = check_column(c, k, i, &p->c_x, x, "c_x", -1, err)) != CUZK_OK) return st;
    for (int j = 0; j < POREP_DRG_DEGREE; j++)
        if ((st = check_column(c, k, i, &p->drg[j], par[j], "drg_parents", j, err)) != CUZK_OK) return st;
    for (int j = 0; j < POREP_EXP_DEGREE; j++)
        if ((st = check_column(c, k, i, &p->exp[j], par[POREP_DRG_DEGREE + j], "exp_parents", j, err)) != CUZK_OK) return st;

    /* labels: each layer's label of the challenge from its parents' labels */
    uint8_t replica_id[32], in[POREP_PARENTS][32], want[POREP_LABEL_PARENTS][32], got[POREP_LABEL_PARENTS][32], label[32], row[32];
    memcpy(replica_id, c1->replica_id, 32);
    for (int l = 1; l <= pp->layers; l++) {
        const porep_label_proof *lp = &p->labeling[l - 1];
        if (lp->layer_index != (uint32_t)l)
            return CFAIL("labeling_proofs[%d]: layer_index %u, expected %d", k, i, l - 1, lp->layer_index, l);
        if (lp->node != x)
            return CFAIL("labeling_proofs[%d]: node %llu, the challenge is node %llu", k, i, l - 1, (unsigned long long)lp->node,
                         (unsigned long long)x);
        for (int j = 0; j < POREP_LABEL_PARENTS; j++) fr_bytes(got[j], &lp->parents[j]);
        porep_label(label, replica_id, (uint32_t)l, x, (const uint8_t(*)[32])got);
        fr_bytes(row, &p->c_x.rows[l - 1]);
        if (memcmp(label, row, 32) != 0)
            return CFAIL("labeling_proofs[%d]: the label of its parents is not the challenge's label in layer %d (c_x row %d)", k, i,
                         l - 1, l, l - 1);
        for (int j = 0; j < POREP_DRG_DEGREE; j++) fr_bytes(in[j], &p->drg[j].rows[l - 1]);
        for (int j = 0; j < POREP_EXP_DEGREE; j++)
            if (l > 1) fr_bytes(in[POREP_DRG_DEGREE + j], &p->exp[j].rows[l - 2]);
            else memset(in[POREP_DRG_DEGREE + j], 0, 32);
        porep_expand_parents(want, (const uint8_t(*)[32])in, (uint32_t)l);
        for (int j = 0; j < POREP_LABEL_PARENTS; j++)
            if (memcmp(want[j], got[j], 32) != 0)
                return CFAIL("labeling_proofs[%d].parents[%d]: not the label its parent's column holds", k, i, l - 1, j);
    }

    /* encoding: replica leaf = key + data leaf, key = the last layer's label */
    const porep_label_proof *ep = &p->encoding;
    if (ep->layer_index != (uint32_t)pp->layers)
        return CFAIL("encoding_proof: layer_index %u, expected %d", k, i, ep->layer_index, pp->layers);
    if (ep->node != x)
        return CFAIL("encoding_proof: node %llu, the challenge is node %llu", k, i, (unsigned long long)ep->node, (unsigned long long)x);
    for (int j = 0; j < POREP_LABEL_PARENTS; j++) fr_bytes(got[j], &ep->parents[j]);
    porep_label(label, replica_id, (uint32_t)pp->layers, x, (const uint8_t(*)[32])got);
    fr key, enc;
    if (!fr_from_bytes_le(&key, label, 32)) return CFAIL("encoding_proof: the key is not a field element", k, i);
    fr_add(&enc, &key, &p->comm_d_leaf);
    if (!fr_eq(&enc, &p->comm_r_last_leaf))
        return CFAIL("encoding_proof: the replica leaf (comm_r_last_proof's leaf) is not the key + the data leaf", k, i);
    return CUZK_OK;
}

static void check_items(void *ctx, size_t b, size_t e, int tid) {
    chk *c = ctx;
    for (size_t it = b; it < e; it++) {
        if (__atomic_load_n(&c->first_bad, __ATOMIC_RELAXED) < it) return;
        uint32_t k = (uint32_t)(it / c->c1->n_challenges), i = (uint32_t)(it % c->c1->n_challenges);
        cuzk_status st = check_challenge(c, k, i, &c->errs[tid]);
        if (st != CUZK_OK) {
            c->st[tid] = st;
            c->bad[tid] = it;
            size_t cur = __atomic_load_n(&c->first_bad, __ATOMIC_RELAXED);
            while (it < cur && !__atomic_compare_exchange_n(&c->first_bad, &cur, it, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
            return;
        }
    }
}

static bool canonical(const uint8_t b[32], fr *out) {
    fr t;
    return fr_from_bytes_le(out ? out : &t, b, 32);
}

cuzk_status porep_c1_check(const porep_c1 *c1, const porep_c1_check_opts *opts, cuzk_error *err) {
    if (!c1) return ERR(err, CUZK_ERR_ARG, "porep_c1_check: NULL c1");
    const porep_params *pp = &c1->pp;
    const char *name = porep_proof_name(pp->registered_proof);
    if (!name) name = "the parameters";
    if (pp->partitions < 1 || pp->partitions > POREP_MAX_PARTITIONS || pp->challenges < 1 || pp->challenges > POREP_MAX_CHALLENGES ||
        pp->layers < 1 || pp->layers > POREP_MAX_LAYERS || pp->d_levels < 1 || pp->d_levels > MERKLE_MAX_LEVELS ||
        merkle_levels(&pp->shape) > MERKLE_MAX_LEVELS || pp->nodes < 2)
        return ERR(err, CUZK_ERR_INVALID, "C1 output: unsupported parameters (%d partitions, %d challenges, %d layers)", pp->partitions,
                   pp->challenges, pp->layers);
    if (!c1->proofs || c1->n_partitions != (uint32_t)pp->partitions || c1->n_challenges != (uint32_t)pp->challenges)
        return ERR(err, CUZK_ERR_INVALID, "C1 output: %u partitions x %u challenges, %s has %d x %d", c1->n_partitions,
                   c1->n_challenges, name, pp->partitions, pp->challenges);
    fr comm_r, comm_d;
    if (!canonical(c1->comm_r, &comm_r)) return ERR(err, CUZK_ERR_INVALID, "C1 output: comm_r is not a field element");
    if (!canonical(c1->comm_d, &comm_d)) return ERR(err, CUZK_ERR_INVALID, "C1 output: comm_d is not a field element");
    if (!canonical(c1->replica_id, NULL)) return ERR(err, CUZK_ERR_INVALID, "C1 output: replica_id is not a field element");
    if (opts && opts->check_replica_id) {
        uint8_t want[32];
        porep_replica_id(want, opts->prover_id, opts->sector_id, c1->ticket, c1->comm_d, pp->porep_id);
        if (memcmp(want, c1->replica_id, 32) != 0)
            return ERR(err, CUZK_ERR_INVALID,
                       "C1 output: replica_id is not SHA-256(prover_id, sector_id %llu, ticket, comm_d, porep_id) of the request",
                       (unsigned long long)opts->sector_id);
    }
    chk c;
    memset(&c, 0, sizeof c);
    c.c1 = c1;
    c.pp = pp;
    memcpy(c.comm_d, c1->comm_d, 32);
    c.comm_c = c1->proofs[0].c_x.root;
    c.comm_r_last = c1->proofs[0].comm_r_last_root;
    fr in[2] = {c.comm_c, c.comm_r_last}, h;
    poseidon_hash(&h, in, 2);
    if (!fr_eq(&h, &comm_r))
        return ERR(err, CUZK_ERR_INVALID, "C1 output: comm_r is not Poseidon(comm_c, comm_r_last) of the proofs' roots");

    size_t n_items = (size_t)c1->n_partitions * c1->n_challenges;
    uint64_t *chal = malloc(n_items * sizeof *chal);
    if (!chal) return ERR(err, CUZK_ERR_NOMEM, "porep_c1_check: out of memory");
    cuzk_status st;
    for (uint32_t k = 0; k < c1->n_partitions; k++) {
        cuzk_error e2;
        if ((st = porep_challenges(chal + (size_t)k * c1->n_challenges, pp, c1->replica_id, c1->comm_r, c1->seed, k, &e2)) != CUZK_OK) {
            free(chal);
            return ERR(err, st == CUZK_ERR_NOMEM ? CUZK_ERR_NOMEM : CUZK_ERR_INVALID, "C1 output: partition %u: challenges: %s", k, e2.msg);
        }
    }
    c.challenges = chal;

    size_t T = opts && opts->nthreads > 0 ? (size_t)opts->nthreads : (size_t)cuzk_num_threads();
    if (T > n_items) T = n_items;
    if (T < 1) T = 1;
    c.st = calloc(T, sizeof *c.st);
    c.bad = calloc(T, sizeof *c.bad);
    c.errs = calloc(T, sizeof *c.errs);
    st = CUZK_OK;
    if (!c.st || !c.bad || !c.errs) {
        /* no room for per-thread results: one challenge after another here */
        for (size_t it = 0; it < n_items && st == CUZK_OK; it++)
            st = check_challenge(&c, (uint32_t)(it / c1->n_challenges), (uint32_t)(it % c1->n_challenges), err);
    } else {
        c.first_bad = SIZE_MAX;
        parallel_for(n_items, (int)T, check_items, &c);
        if (c.first_bad != SIZE_MAX)
            for (size_t t = 0; t < T; t++)
                if (c.st[t] != CUZK_OK && c.bad[t] == c.first_bad) {
                    st = c.st[t];
                    if (err) *err = c.errs[t];
                }
    }
    free(c.st);
    free(c.bad);
    free(c.errs);
    free(chal);
    return st;
}
