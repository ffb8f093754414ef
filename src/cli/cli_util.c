/* The CLI's shared helpers (cli_util.h). */
#include "cli_util.h"

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
