/* The CLI's shared helpers (cli_util.h). */
#include "cli_util.h"
#include "cuzk/prover.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cuzk/groth16.h"

int cli_fail(cuzk_status st, const cuzk_error *e) {
    fprintf(stderr, "cuzk: error: %s (%s)\n", e && e->msg[0] ? e->msg : cuzk_status_str(st), cuzk_status_str(st));
    return cuzk_exit_code(st);
}

int cli_usage_error(const char *cmd, const char *fmt, const char *arg) {
    fprintf(stderr, "cuzk %s: ", cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nRun 'cuzk %s --help' for usage.\n", cmd);
    return 2;
}

bool cli_parse_u64(const char *s, uint64_t *out) {
    if (!s || !*s || !isdigit((unsigned char)*s)) return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return false;
    *out = (uint64_t)v;
    return true;
}

bool cli_parse_int(const char *s, long *out) {
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

bool cli_parse_miner_id(const char *s, uint64_t *out) {
    if (s && (s[0] == 'f' || s[0] == 't') && s[1] == '0') s += 2; /* ID address: protocol 0 */
    return cli_parse_u64(s, out);
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

bool cli_parse_hex(const char *s, uint8_t *out, size_t n) {
    if (!s) return false;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    if (strlen(s) != 2 * n) return false;
    for (size_t i = 0; i < n; i++) {
        int hi = hexval((unsigned char)s[2 * i]), lo = hexval((unsigned char)s[2 * i + 1]);
        if (hi < 0 || lo < 0) return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

int cli_parse_hex32(const char *cmd, const char *opt, const char *v, uint8_t out[32]) {
    if (!v || !cli_parse_hex(v, out, 32)) {
        fprintf(stderr, "cuzk %s: %s needs 64 hex digits (32 bytes, in the order they are stored)", cmd, opt);
        fprintf(stderr, "; got '%s'\nRun 'cuzk %s --help' for usage.\n", v ? v : "", cmd);
        return 2;
    }
    return 0;
}

/* multibase base32 (RFC 4648 alphabet a-z 2-7, no padding; 'b' lowercase, 'B' uppercase) into
 * out[0..cap); false on another character, more than cap bytes, or nonzero or 5+ left-over bits */
static bool base32_decode(uint8_t *out, size_t cap, size_t *len, const char *s, bool upper) {
    uint32_t acc = 0;
    int bits = 0;
    size_t k = 0;
    for (; *s; s++) {
        int c = (unsigned char)*s, v;
        if (c >= (upper ? 'A' : 'a') && c <= (upper ? 'Z' : 'z')) v = c - (upper ? 'A' : 'a');
        else if (c >= '2' && c <= '7') v = c - '2' + 26;
        else return false;
        acc = (acc << 5 | (uint32_t)v) & 0xfff;   /* < 8 bits kept + 5 new */
        bits += 5;
        if (bits >= 8) {
            if (k == cap) return false;
            bits -= 8;
            out[k++] = (uint8_t)(acc >> bits);
        }
    }
    if (bits >= 5 || (acc & ((1u << bits) - 1))) return false;
    *len = k;
    return true;
}

int cli_parse_commitment(const char *cmd, const char *opt, const char *v, cuzk_commitment_kind kind, uint8_t out[32]) {
    static const char *const WHAT[2] = {"a sealed commitment (comm_r", "an unsealed commitment (comm_d"};
    static const char *const CID[2] = {"bagboea4b...", "baga6ea4seaq..."};
    static const char *const CODEC[2] = {"fil-commitment-sealed", "fil-commitment-unsealed"};
    int k = kind != CUZK_COMMITMENT_SEALED;
    if (v && cli_parse_hex(v, out, 32)) return 0;   /* the raw 32 bytes */
    uint8_t cid[64];
    size_t n = 0;
    bool ok = false;
    if (v && (v[0] == 'b' || v[0] == 'B')) ok = base32_decode(cid, sizeof cid, &n, v + 1, v[0] == 'B');
    else if (v) {   /* the CID's bytes in hex */
        size_t len = strlen(v) - (v[0] == '0' && (v[1] == 'x' || v[1] == 'X') ? 2 : 0);
        if (len % 2 == 0 && len / 2 <= sizeof cid) ok = cli_parse_hex(v, cid, n = len / 2);
    }
    if (!ok && v && (v[0] == 'b' || v[0] == 'B') && strlen(v) > 1) {
        /* say what is wrong with the base32 */
        bool up = v[0] == 'B';
        for (size_t i = 1; v[i]; i++) {
            char c = v[i];
            if (!((c >= (up ? 'A' : 'a') && c <= (up ? 'Z' : 'z')) || (c >= '2' && c <= '7'))) {
                fprintf(stderr, "cuzk %s: %s: '%.120s' is not a valid CID: bad base32 character '%c' at %zu\nRun 'cuzk %s "
                        "--help' for usage.\n", cmd, opt, v, c, i, cmd);
                return 2;
            }
        }
        fprintf(stderr, "cuzk %s: %s: '%.120s' is not a valid CID: wrong length (%zu base32 characters)\nRun 'cuzk %s "
                "--help' for usage.\n", cmd, opt, v, strlen(v) - 1, cmd);
        return 2;
    }
    if (ok && n == 32 && (v[0] == 'b' || v[0] == 'B')) {
        /* 32 raw bytes in base32, no CID prefix: a CID string must decode to a CID */
        fprintf(stderr, "cuzk %s: %s: '%.120s' is not a valid CID: it decodes to 32 bytes with no CID prefix (codec, "
                "multihash); give the CID (%s) or the 32 bytes as 64 hex digits\nRun 'cuzk %s --help' for usage.\n",
                cmd, opt, v, CID[k], cmd);
        return 2;
    }
    if (!ok || n == 0) {
        fprintf(stderr, "cuzk %s: %s needs %s): 64 hex digits (the 32 bytes as stored), its CID (%s) or the CID's bytes in "
                "hex; got '%.120s'\nRun 'cuzk %s --help' for usage.\n", cmd, opt, WHAT[k], CID[k], v ? v : "", cmd);
        return 2;
    }
    cuzk_error e;
    memset(&e, 0, sizeof e);
    if (cuzk_commitment_from_bytes(out, cid, n, kind, &e) == CUZK_OK) return 0;
    uint8_t other[32];
    if (cuzk_commitment_from_bytes(other, cid, n, k ? CUZK_COMMITMENT_SEALED : CUZK_COMMITMENT_UNSEALED, NULL) == CUZK_OK)
        fprintf(stderr, "cuzk %s: %s takes %s, CID %s, %s); '%.120s' is the CID of %s, %s)\nRun 'cuzk %s --help' for usage.\n",
                cmd, opt, WHAT[k], CID[k], CODEC[k], v, WHAT[!k], CODEC[!k], cmd);
    else
        fprintf(stderr, "cuzk %s: %s: '%.120s' is not a commitment's CID: %s\nRun 'cuzk %s --help' for usage.\n", cmd, opt, v,
                e.msg[0] ? e.msg : "unknown CID", cmd);
    return 2;
}

void cli_le32_decimal(char *out, const uint8_t b[32]) {
    uint64_t l[4];
    for (int i = 0; i < 4; i++) {
        l[i] = 0;
        for (int j = 7; j >= 0; j--) l[i] = l[i] << 8 | b[8 * i + j];
    }
    char tmp[80];
    int n = 0;
    do {
        unsigned __int128 r = 0;
        for (int i = 3; i >= 0; i--) {
            unsigned __int128 cur = (r << 64) | l[i];
            l[i] = (uint64_t)(cur / 10);
            r = cur % 10;
        }
        tmp[n++] = (char)('0' + (int)r);
    } while (l[0] | l[1] | l[2] | l[3]);
    for (int i = 0; i < n; i++) out[i] = tmp[n - 1 - i];
    out[n] = 0;
}

void cli_hex(char *out, const uint8_t *in, size_t n) {
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = d[in[i] >> 4];
        out[2 * i + 1] = d[in[i] & 15];
    }
    out[2 * n] = 0;
}

double cli_wall_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

uint8_t *cli_slurp(const char *path, size_t *n, cuzk_error *err) {
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        cuzk_error_set(err, CUZK_ERR_IO, __FILE__, __LINE__, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(f);
        cuzk_error_set(err, CUZK_ERR_IO, __FILE__, __LINE__, "%s: not a regular file", path);
        return NULL;
    }
    size_t len = (size_t)sb.st_size;
    uint8_t *d = malloc(len + 1);
    if (!d) {
        fclose(f);
        cuzk_error_set(err, CUZK_ERR_NOMEM, __FILE__, __LINE__, "%s: out of memory for %zu bytes", path, len);
        return NULL;
    }
    if (fread(d, 1, len, f) != len) {
        fclose(f);
        free(d);
        cuzk_error_set(err, CUZK_ERR_IO, __FILE__, __LINE__, "%s: cannot read", path);
        return NULL;
    }
    fclose(f);
    d[len] = 0;
    *n = len;
    return d;
}

bool cli_repeated(char **argv, int i) {
    const char *a = argv[i];
    if (a[0] != '-' || a[1] != '-' || !a[2]) return false;
    for (int j = 1; j < i; j++)
        if (!strcmp(argv[j], a)) return true;
    return false;
}

void cli_srs_cache_quiet_warning(int quiet) {
    char buf[4400];
    if (quiet && cuzk_srs_cache_last_use(buf, sizeof buf) == 2) fprintf(stderr, "cuzk: warning: %s\n", buf);
}

void cli_srs_cache_note(cuzk_error *e) {
    char buf[4400];
    if (!e || cuzk_srs_cache_last_use(buf, sizeof buf) != 1 || strstr(e->msg, "points read from the SRS cache")) return;
    size_t n = strlen(e->msg);
    snprintf(e->msg + n, sizeof e->msg - n, " (points read from the SRS cache %s; retry with CUZK_SRS_CACHE=off or remake "
             "it)", buf);
}

void cli_srs_cache_json(void) {
    char buf[4400];
    int k = cuzk_srs_cache_last_use(buf, sizeof buf);
    printf("\"srs_cache\": {\"use\": \"%s\"", k == 1 ? "used" : k == 2 ? "refused" : "none");
    if (k) {
        printf(", \"%s\": \"", k == 1 ? "path" : "reason");
        for (const char *c = buf; *c; c++) {
            if (*c == '"' || *c == '\\') printf("\\%c", *c);
            else if ((unsigned char)*c < 0x20) printf("\\u%04x", *c);
            else putchar(*c);
        }
        putchar('"');
    }
    printf("}, ");
}
