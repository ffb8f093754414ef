/* base64 decoding and encoding (base64.h). */
#include "util/base64.h"

#include <stdio.h>

static const char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int value_of(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

bool base64_decode(uint8_t *out, size_t cap, size_t *out_len, const char *s, size_t n, unsigned flags, size_t *bad_at) {
    size_t k = 0, q = 0, pad = 0;
    uint32_t acc = 0;
    *out_len = 0;
    for (size_t i = 0; i < n; i++) {
        size_t at = i;
        unsigned char c = (unsigned char)s[i];
        if (c == '\\') {
            if (!(flags & BASE64_JSON_SLASH) || i + 1 >= n || s[i + 1] != '/') { *bad_at = at; return false; }
            c = '/';
            i++;
        }
        int v;
        if (c == '=') {   /* only the 3rd and 4th character of the last group */
            if (q < 2) { *bad_at = at; return false; }
            pad++;
            v = 0;
        } else {
            v = value_of(c);
            if (v < 0 || pad) { *bad_at = at; return false; }
        }
        acc = acc << 6 | (uint32_t)v;
        if (++q == 4) {
            size_t m = 3 - pad;
            if (cap - k < m) { *bad_at = SIZE_MAX; return false; }
            out[k++] = (uint8_t)(acc >> 16);
            if (m > 1) out[k++] = (uint8_t)(acc >> 8);
            if (m > 2) out[k++] = (uint8_t)acc;
            q = 0;
            acc = 0;
            if (pad && i + 1 != n) { *bad_at = i + 1; return false; }   /* padding ends the data */
        }
    }
    if (q) { *bad_at = n; return false; }
    *out_len = k;
    return true;
}

void base64_describe(char *buf, size_t cap, const char *s, size_t n, size_t bad_at) {
    if (!cap) return;
    if (bad_at == SIZE_MAX) snprintf(buf, cap, "no room for the decoded bytes");
    else if (bad_at >= n) snprintf(buf, cap, "%zu characters, not a multiple of 4", n);
    else {
        unsigned char c = (unsigned char)s[bad_at];
        if (c >= 0x20 && c < 0x7f) snprintf(buf, cap, "'%c' at character %zu", c, bad_at);
        else snprintf(buf, cap, "byte 0x%02x at character %zu", c, bad_at);
    }
}

void base64_encode(char *out, const uint8_t *in, size_t n) {
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        *out++ = ALPHABET[v >> 18];
        *out++ = ALPHABET[v >> 12 & 63];
        *out++ = ALPHABET[v >> 6 & 63];
        *out++ = ALPHABET[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);
        *out++ = ALPHABET[v >> 18];
        *out++ = ALPHABET[v >> 12 & 63];
        *out++ = i + 1 < n ? ALPHABET[v >> 6 & 63] : '=';
        *out++ = '=';
    }
}
